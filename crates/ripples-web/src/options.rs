//! The options a page passes to `Ripples.attach` and `set`, checked in one place.
//!
//! JavaScript hands over loosely typed values (`'12'`, `NaN`, `1.5` where a whole number is
//! meant), and `wasm-bindgen` would silently wrap a negative number into a huge `u32`. So every
//! number crosses into Rust as `f64` and is checked here before use: a wrong option is an error
//! that names the option, what it must be and the value it got, never a wrapped integer or a
//! trap. The table is plain Rust (values as [`OptionValue`], not `JsValue`) so the host tests
//! cover it; `ripples.js` calls it through [`crate::check_option`] for every option it is given,
//! and the pool's setters use the same checks, so a page that calls the low-level API directly
//! cannot get around them.

use std::fmt;

use ripples::limits::{MAX_RADIUS, MAX_SIM_SCALE};
use ripples::{Boundary, RenderMode, SolverKind};

/// An option or argument the page got wrong; the message names it and the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebError(pub String);

impl fmt::Display for WebError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WebError {}

impl From<ripples::Error> for WebError {
    fn from(error: ripples::Error) -> Self {
        Self(error.to_string())
    }
}

/// A value as JavaScript gave it, reduced to what the options can hold.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    /// A number (`NaN` and infinities included, to be refused).
    Number(f64),
    /// A string.
    Text(String),
    /// `true` or `false`.
    Bool(bool),
    /// `null` or `undefined`: "use the default" where an option allows it.
    Null,
    /// Anything else (an object, a function...), described for the error message.
    Other(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::Text(text) => write!(f, "'{text}'"),
            Self::Bool(b) => write!(f, "{b}"),
            Self::Null => f.write_str("null"),
            Self::Other(description) => f.write_str(description),
        }
    }
}

/// Every option `Ripples.attach` accepts, in the order the README lists them.
pub const OPTION_NAMES: [&str; 13] = [
    "imageUrl",
    "resolution",
    "dropRadius",
    "perturbance",
    "interactive",
    "rain",
    "solver",
    "border",
    "crossOrigin",
    "look",
    "obstacles",
    "stepsPerSecond",
    "pixelRatio",
];

/// Largest `perturbance` (refraction this many times the default look's).
pub const MAX_PERTURBANCE: f64 = 16.0;
/// Most raindrops per second.
pub const MAX_RAIN_PER_SECOND: f64 = 1000.0;
/// Slowest and fastest simulation, in solver steps per second.
pub const STEPS_PER_SECOND_RANGE: (f64, f64) = (1.0, 240.0);
/// Smallest and largest canvas pixels per CSS pixel.
pub const PIXEL_RATIO_RANGE: (f64, f64) = (0.25, 8.0);

/// Checks option `name`, returning the value to use: numbers as given (whole numbers where the
/// option counts something), strings as given, `Null` where the option falls back to a default.
pub fn check_option(name: &str, value: OptionValue) -> Result<OptionValue, WebError> {
    let checked = match name {
        "imageUrl" | "obstacles" => url_or_null(name, value)?,
        "resolution" => OptionValue::Number(f64::from(resolution(number(name, &value)?)?)),
        "dropRadius" => OptionValue::Number(drop_radius(number(name, &value)?)?),
        "perturbance" => OptionValue::Number(perturbance(number(name, &value)?)?),
        "interactive" => match value {
            OptionValue::Bool(_) => value,
            other => return Err(expected(name, "true or false", &other)),
        },
        "rain" => OptionValue::Number(rain_per_second(number(name, &value)?)?),
        "solver" => {
            solver(&text(name, &value)?)?;
            value
        }
        "border" => {
            border(&text(name, &value)?)?;
            value
        }
        "look" => {
            look(&text(name, &value)?)?;
            value
        }
        "crossOrigin" => match &value {
            OptionValue::Null => value,
            OptionValue::Text(text) if ["", "anonymous", "use-credentials"].contains(&&**text) => {
                value
            }
            other => {
                return Err(expected(
                    name,
                    "'', 'anonymous', 'use-credentials' or null (no CORS request)",
                    other,
                ));
            }
        },
        "stepsPerSecond" => OptionValue::Number(steps_per_second(number(name, &value)?)?),
        "pixelRatio" => match value {
            OptionValue::Null => value,
            other => OptionValue::Number(pixel_ratio(number(name, &other)?)?),
        },
        _ => {
            return Err(WebError(format!(
                "unknown option '{name}' (options: {})",
                OPTION_NAMES.join(", ")
            )));
        }
    };
    Ok(checked)
}

fn expected(name: &str, what: &str, got: &OptionValue) -> WebError {
    WebError(format!("{name} must be {what}, got {got}"))
}

fn number(name: &str, value: &OptionValue) -> Result<f64, WebError> {
    match value {
        OptionValue::Number(n) => Ok(*n),
        other => Err(expected(name, "a number", other)),
    }
}

fn text(name: &str, value: &OptionValue) -> Result<String, WebError> {
    match value {
        OptionValue::Text(text) => Ok(text.clone()),
        other => Err(expected(name, "a string", other)),
    }
}

fn url_or_null(name: &str, value: OptionValue) -> Result<OptionValue, WebError> {
    match value {
        OptionValue::Null => Ok(value),
        OptionValue::Text(ref url) if !url.trim().is_empty() => Ok(value),
        other => Err(expected(name, "a URL string or null", &other)),
    }
}

/// A finite number in `min..=max`.
pub fn in_range(name: &str, value: f64, min: f64, max: f64) -> Result<f64, WebError> {
    if value.is_finite() && (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(WebError(format!(
            "{name} must be a number from {min} to {max}, got {value}"
        )))
    }
}

/// A whole number in `min..=max`.
pub fn whole(name: &str, value: f64, min: u32, max: u32) -> Result<u32, WebError> {
    if value.is_finite()
        && value.fract() == 0.0
        && (f64::from(min)..=f64::from(max)).contains(&value)
    {
        Ok(value as u32)
    } else {
        Err(WebError(format!(
            "{name} must be a whole number from {min} to {max}, got {value}"
        )))
    }
}

/// Element pixels per simulation cell along each axis (the core's simulation scale).
pub fn resolution(value: f64) -> Result<u32, WebError> {
    whole("resolution", value, 1, MAX_SIM_SCALE)
}

/// Radius of the stones the pointer drops, in CSS pixels.
pub fn drop_radius(value: f64) -> Result<f64, WebError> {
    positive("dropRadius", value, f64::from(MAX_RADIUS))
}

/// A stone radius in pool pixels for `drop` and `swipe`.
pub fn stone_radius(value: f64) -> Result<u32, WebError> {
    positive("radius", value, f64::from(MAX_RADIUS)).map(|r| r.round().max(1.0) as u32)
}

/// A stone strength: how deep it presses, `0..=32767` (128 is a usual stone).
pub fn strength(value: f64) -> Result<i16, WebError> {
    in_range("strength", value, 0.0, f64::from(i16::MAX)).map(|s| s.round() as i16)
}

/// Refraction relative to the default look (0: the image shows through unmoved).
pub fn perturbance(value: f64) -> Result<f64, WebError> {
    in_range("perturbance", value, 0.0, MAX_PERTURBANCE)
}

/// Mean raindrops per second over the whole pool.
pub fn rain_per_second(value: f64) -> Result<f64, WebError> {
    in_range("rain", value, 0.0, MAX_RAIN_PER_SECOND)
}

/// Solver steps per second of real time: the speed of the ripples.
pub fn steps_per_second(value: f64) -> Result<f64, WebError> {
    let (min, max) = STEPS_PER_SECOND_RANGE;
    in_range("stepsPerSecond", value, min, max)
}

/// Canvas pixels per CSS pixel.
pub fn pixel_ratio(value: f64) -> Result<f64, WebError> {
    let (min, max) = PIXEL_RATIO_RANGE;
    in_range("pixelRatio", value, min, max)
}

fn positive(name: &str, value: f64, max: f64) -> Result<f64, WebError> {
    if value.is_finite() && value > 0.0 && value <= max {
        Ok(value)
    } else {
        Err(WebError(format!(
            "{name} must be a number above 0 and at most {max}, got {value}"
        )))
    }
}

/// `'classic'`, `'wave'` or `'spring'`.
pub fn solver(name: &str) -> Result<SolverKind, WebError> {
    Ok(name.parse()?)
}

/// `'reflect'` (waves bounce off the edges) or `'absorb'` (open water).
pub fn border(name: &str) -> Result<Boundary, WebError> {
    name.parse().map_err(|_| {
        WebError(format!(
            "border must be 'reflect' or 'absorb', got '{name}'"
        ))
    })
}

/// `'classic'` (the demo scene's refraction, the web default), `'lit'` (refraction with light:
/// the core's default look, 5 to 7 times the cost in wasm) or `'spring'`.
pub fn look(name: &str) -> Result<RenderMode, WebError> {
    match name {
        "classic" => Ok(RenderMode::Classic),
        "lit" => Ok(RenderMode::Lit),
        "spring" => Ok(RenderMode::Spring),
        _ => Err(WebError(format!(
            "look must be 'classic', 'lit' or 'spring', got '{name}'"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, value: OptionValue) -> Result<OptionValue, String> {
        check_option(name, value).map_err(|error| error.0)
    }

    #[test]
    fn every_listed_option_is_known() {
        for name in OPTION_NAMES {
            let error = check(name, OptionValue::Other("a function".into()));
            let message = error.expect_err(name);
            assert!(message.starts_with(name), "{message}");
            assert!(message.ends_with("got a function"), "{message}");
        }
    }

    #[test]
    fn unknown_option_lists_the_known_ones() {
        let message = check("dropradius", OptionValue::Number(3.0)).unwrap_err();
        assert!(message.contains("unknown option 'dropradius'"), "{message}");
        assert!(message.contains("dropRadius"), "{message}");
    }

    #[test]
    fn numbers_are_checked_for_range_type_and_wholeness() {
        assert_eq!(
            check("resolution", OptionValue::Number(2.0)),
            Ok(OptionValue::Number(2.0))
        );
        for bad in [0.0, 1.5, 17.0, f64::NAN, -1.0] {
            let message = check("resolution", OptionValue::Number(bad)).unwrap_err();
            assert!(
                message.starts_with("resolution must be a whole number from 1 to 16, got"),
                "{message}"
            );
        }
        assert_eq!(
            check("resolution", OptionValue::Text("2".into())).unwrap_err(),
            "resolution must be a number, got '2'"
        );
        assert_eq!(
            check("dropRadius", OptionValue::Number(0.0)).unwrap_err(),
            "dropRadius must be a number above 0 and at most 4096, got 0"
        );
        assert_eq!(
            check("rain", OptionValue::Number(f64::INFINITY)).unwrap_err(),
            "rain must be a number from 0 to 1000, got inf"
        );
        assert!(check("perturbance", OptionValue::Number(0.0)).is_ok());
        assert!(check("stepsPerSecond", OptionValue::Number(0.5)).is_err());
        assert!(check("pixelRatio", OptionValue::Null).is_ok());
        assert!(check("pixelRatio", OptionValue::Number(0.0)).is_err());
    }

    #[test]
    fn names_are_checked_against_their_choices() {
        for solver in ["classic", "wave", "spring"] {
            assert!(check("solver", OptionValue::Text(solver.into())).is_ok());
        }
        assert_eq!(
            check("solver", OptionValue::Text("fast".into())).unwrap_err(),
            "solver must be 'classic', 'wave' or 'spring', got 'fast'"
        );
        assert_eq!(
            check("border", OptionValue::Text("wrap".into())).unwrap_err(),
            "border must be 'reflect' or 'absorb', got 'wrap'"
        );
        assert!(check("look", OptionValue::Text("classic".into())).is_ok());
        assert!(check("look", OptionValue::Text("lit".into())).is_ok());
        assert_eq!(
            check("look", OptionValue::Text("default".into())).unwrap_err(),
            "look must be 'classic', 'lit' or 'spring', got 'default'"
        );
        assert!(check("crossOrigin", OptionValue::Null).is_ok());
        assert!(check("crossOrigin", OptionValue::Text(String::new())).is_ok());
        assert!(check("crossOrigin", OptionValue::Text("yes".into())).is_err());
        assert!(check("interactive", OptionValue::Number(1.0)).is_err());
        assert!(check("imageUrl", OptionValue::Text("  ".into())).is_err());
        assert!(check("obstacles", OptionValue::Text("walls.png".into())).is_ok());
    }

    #[test]
    fn stone_arguments_round_and_refuse_what_would_wrap() {
        assert_eq!(stone_radius(0.4), Ok(1));
        assert_eq!(stone_radius(12.6), Ok(13));
        assert!(stone_radius(-3.0).is_err());
        assert_eq!(strength(128.4), Ok(128));
        assert!(strength(40_000.0).is_err());
        assert!(strength(-1.0).is_err());
    }
}
