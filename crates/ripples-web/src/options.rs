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
use ripples::look_parameters;
use ripples::{Boundary, MAX_GRAVITY, RenderMode, SolverKind};

pub use crate::error::{Rule, WebError};

/// A value as JavaScript gave it, reduced to what the options can hold.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    /// A number (`NaN` and infinities included, to be refused).
    Number(f64),
    /// A string.
    Text(String),
    /// `true` or `false`.
    Bool(bool),
    /// An array of numbers (a colour as `[r, g, b]`).
    Numbers(Vec<f64>),
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
            Self::Numbers(numbers) => {
                let list: Vec<String> = numbers.iter().map(|n| n.to_string()).collect();
                write!(f, "[{}]", list.join(", "))
            }
            Self::Null => f.write_str("null"),
            Self::Other(description) => f.write_str(description),
        }
    }
}

/// Every option `Ripples.attach` accepts, in the order the README lists them (`waterColor` is
/// also accepted, as another spelling of `waterColour`).
pub const OPTION_NAMES: [&str; 32] = [
    "imageUrl",
    "videoUrl",
    "resolution",
    "dropRadius",
    "perturbance",
    "presence",
    "interactive",
    "rain",
    "solver",
    "gravity",
    "border",
    "crossOrigin",
    "look",
    "obstacles",
    "stepsPerSecond",
    "pixelRatio",
    "quality",
    "depth",
    "caustics",
    "sunElevation",
    "sunAzimuth",
    "waterColour",
    "clarity",
    "waveHeight",
    "dispersion",
    "skyUrl",
    "renderer",
    "simulation",
    "reducedMotion",
    "waterMask",
    "horizon",
    "focal",
];

/// Range of `presence` (the library's [`look_parameters::PRESENCE`]): how much the water shows (the library's `Look::presence`: the waves'
/// refraction, caustics, reflections and glints together; 0 leaves the picture unmoved).
pub const PRESENCE_RANGE: (f64, f64) = look_parameters::PRESENCE.range_f64();
/// Largest `perturbance` (refraction this many times the look's default).
pub const MAX_PERTURBANCE: f64 = 16.0;
/// Smallest `perturbance` above 0. Below it lie jquery.ripples' values (0.03 by default, the
/// refraction as a fraction of the element), which here would be a look with almost no
/// refraction: a port that kept them would see nothing, so they are refused with their
/// equivalent instead.
pub const MIN_PERTURBANCE: f64 = 0.2;
/// jquery.ripples' default perturbance: its refraction at our perturbance 1 (both are the
/// refraction a typical ripple gives by default), so its values divided by this are ours.
pub const JQUERY_DEFAULT_PERTURBANCE: f64 = 0.03;
/// Most raindrops per second.
pub const MAX_RAIN_PER_SECOND: f64 = 1000.0;
/// Slowest and fastest simulation, in solver steps per second.
pub const STEPS_PER_SECOND_RANGE: (f64, f64) = (1.0, 240.0);
/// Smallest and largest canvas pixels per CSS pixel.
pub const PIXEL_RATIO_RANGE: (f64, f64) = (0.25, 8.0);
/// The choices of `quality`.
pub const QUALITIES: [&str; 2] = ["auto", "high"];

/// The `renderer` option's values: `'auto'` (WebGL2 where the browser has it, else the CPU),
/// `'webgl'` (the same, said outright) and `'cpu'` (always the CPU: wasm renders every pixel).
pub const RENDERERS: [&str; 3] = ["auto", "webgl", "cpu"];

/// The `simulation` option's values: where the water is stepped. `'auto'` (the GPU where it
/// can step this water, else the CPU), `'gpu'` (the same, said outright; where the GPU cannot,
/// the CPU, and `stats().simulation` says why) and `'cpu'` (always the wasm module).
pub const SIMULATIONS: [&str; 3] = ["auto", "gpu", "cpu"];

/// The `reducedMotion` option's values: `'auto'` (with `prefers-reduced-motion: reduce` no
/// rain falls: only what the user starts moves) and `'ignore'` (the rain falls anyway).
pub const REDUCED_MOTIONS: [&str; 2] = ["auto", "ignore"];
/// Range of the natural look's `depth` (CSS pixels of water over the picture). This and the
/// ranges below are the library's [`look_parameters`], stated there once.
pub const DEPTH_RANGE: (f64, f64) = look_parameters::DEPTH.range_f64();
/// Range of the natural look's `caustics` strength.
pub const CAUSTICS_RANGE: (f64, f64) = look_parameters::CAUSTICS.range_f64();
/// Range of the natural look's `sunElevation`, in degrees above the horizon.
pub const SUN_ELEVATION_RANGE: (f64, f64) = look_parameters::SUN_ELEVATION.range_f64();
/// Range of the natural look's `sunAzimuth`, in degrees.
pub const SUN_AZIMUTH_RANGE: (f64, f64) = look_parameters::SUN_AZIMUTH.range_f64();
/// Range of the natural look's `clarity` (CSS pixels of water until white light has the
/// water's colour).
pub const CLARITY_RANGE: (f64, f64) = look_parameters::CLARITY.range_f64();
/// Range of the natural look's `waveHeight` (CSS pixels of surface height per unit of the
/// simulation's height).
pub const WAVE_HEIGHT_RANGE: (f64, f64) = look_parameters::WAVE_HEIGHT.range_f64();
/// Range of the natural look's `dispersion` (chromatic dispersion in units of water's own).
pub const DISPERSION_RANGE: (f64, f64) = look_parameters::DISPERSION.range_f64();

/// Checks option `name`, returning the value to use: numbers as given (whole numbers where the
/// option counts something), strings as given, `Null` where the option falls back to a default.
pub fn check_option(name: &str, value: OptionValue) -> Result<OptionValue, WebError> {
    let checked = match name {
        "imageUrl" | "videoUrl" | "obstacles" | "skyUrl" | "waterMask" => url_or_null(name, value)?,
        // The picture's own pixels: whether they fit is the pool's to say once it is placed.
        "horizon" => match value {
            OptionValue::Null => value,
            other => {
                let row = number(name, &other)?;
                if !row.is_finite() {
                    return Err(expected(
                        name,
                        "a picture row (a finite number) or null",
                        &other,
                    ));
                }
                other
            }
        },
        "focal" => match value {
            OptionValue::Null => value,
            other => {
                let focal = number(name, &other)?;
                if !(focal.is_finite() && focal > 0.0) {
                    return Err(expected(
                        name,
                        "a focal length in picture pixels above 0, or null",
                        &other,
                    ));
                }
                other
            }
        },
        "resolution" => OptionValue::Number(f64::from(resolution(number(name, &value)?)?)),
        "dropRadius" => OptionValue::Number(drop_radius(number(name, &value)?)?),
        "perturbance" => OptionValue::Number(perturbance(number(name, &value)?)?),
        "presence" => {
            let (min, max) = PRESENCE_RANGE;
            OptionValue::Number(in_range(name, number(name, &value)?, min, max)?)
        }
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
        "gravity" => OptionValue::Number(gravity(number(name, &value)?)?),
        "stepsPerSecond" => OptionValue::Number(steps_per_second(number(name, &value)?)?),
        "pixelRatio" => match value {
            OptionValue::Null => value,
            other => OptionValue::Number(pixel_ratio(number(name, &other)?)?),
        },
        "quality" => {
            quality(&text(name, &value)?)?;
            value
        }
        "renderer" | "simulation" | "reducedMotion" => {
            let (choices, words) = match name {
                "renderer" => (&RENDERERS[..], "'auto', 'webgl' or 'cpu'"),
                "simulation" => (&SIMULATIONS[..], "'auto', 'gpu' or 'cpu'"),
                _ => (&REDUCED_MOTIONS[..], "'auto' or 'ignore'"),
            };
            let given = text(name, &value)?;
            if !choices.contains(&given.as_str()) {
                return Err(WebError::UnknownName {
                    what: name.to_string(),
                    expected: words.to_string(),
                    got: given,
                });
            }
            value
        }
        "depth" | "caustics" | "sunElevation" | "sunAzimuth" | "clarity" | "waveHeight"
        | "dispersion" => OptionValue::Number(natural_number(name, number(name, &value)?)?),
        "waterColour" | "waterColor" => OptionValue::Text(hex(water_colour(name, &value)?)),
        _ => {
            return Err(WebError::UnknownOption {
                name: name.to_string(),
            });
        }
    };
    Ok(checked)
}

fn expected(name: &str, what: &str, got: &OptionValue) -> WebError {
    WebError::Expected {
        name: name.to_string(),
        what: what.to_string(),
        got: got.clone(),
    }
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
        Err(WebError::number(name, value, Rule::Range { min, max }))
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
        Err(WebError::number(name, value, Rule::Whole { min, max }))
    }
}

/// The smallest `resolution` taken for a jquery.ripples value: a simulation 32 cells wide, a
/// coarse one there, and twice our largest scale.
const JQUERY_MIN_RESOLUTION: f64 = 32.0;

/// Element pixels per simulation cell along each axis (the core's simulation scale).
///
/// jquery.ripples' `resolution` is another quantity (the simulation's width in cells, 256 by
/// default): a whole number from [`JQUERY_MIN_RESOLUTION`] up, which only it would pass, gets a
/// message that says how to convert it; one just above the range (17) gets the range alone.
pub fn resolution(value: f64) -> Result<u32, WebError> {
    whole("resolution", value, 1, MAX_SIM_SCALE).map_err(|error| {
        if value.fract() == 0.0 && (JQUERY_MIN_RESOLUTION..=4096.0).contains(&value) {
            WebError::JqueryResolution { value }
        } else {
            error
        }
    })
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

/// Refraction relative to the look's default (0: the image shows through unmoved).
///
/// Values above 0 and below [`MIN_PERTURBANCE`] are jquery.ripples' scale and are refused with
/// the value to pass instead (theirs over [`JQUERY_DEFAULT_PERTURBANCE`]).
pub fn perturbance(value: f64) -> Result<f64, WebError> {
    let value = in_range("perturbance", value, 0.0, MAX_PERTURBANCE)?;
    if value > 0.0 && value < MIN_PERTURBANCE {
        return Err(WebError::JqueryPerturbance { value });
    }
    Ok(value)
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

/// The dispersive solver's gravity in CSS pixels per step², `(0, 0.5]` ([`MAX_GRAVITY`]): a
/// ripple `lambda` CSS pixels long turns at `sqrt(gravity * 2 pi / lambda)` radians per step.
pub fn gravity(value: f64) -> Result<f64, WebError> {
    positive("gravity", value, f64::from(MAX_GRAVITY))
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
        Err(WebError::number(name, value, Rule::Positive { max }))
    }
}

/// `'classic'`, `'wave'`, `'spring'` or `'dispersive'`.
pub fn solver(name: &str) -> Result<SolverKind, WebError> {
    Ok(name.parse()?)
}

/// `'reflect'` (waves bounce off the edges) or `'absorb'` (open water).
pub fn border(name: &str) -> Result<Boundary, WebError> {
    name.parse().map_err(|_| WebError::UnknownName {
        what: "border".into(),
        expected: "'reflect' or 'absorb'".into(),
        got: name.to_string(),
    })
}

/// `'natural'` (water as it looks: refraction through depth, caustics, sky and colour; the web
/// default), `'classic'` (the demo scene's refraction, the cheapest), `'lit'` (refraction with
/// a diffuse light and a highlight) or `'spring'`.
pub fn look(name: &str) -> Result<RenderMode, WebError> {
    match name {
        "natural" => Ok(RenderMode::Natural),
        "classic" => Ok(RenderMode::Classic),
        "lit" => Ok(RenderMode::Lit),
        "spring" => Ok(RenderMode::Spring),
        _ => Err(WebError::UnknownName {
            what: "look".into(),
            expected: "'natural', 'classic', 'lit' or 'spring'".into(),
            got: name.to_string(),
        }),
    }
}

/// `'auto'` (the page lowers and raises its canvas pixel ratio to hold 60 frames per second)
/// or `'high'` (always the full pixel ratio, whatever it costs).
pub fn quality(name: &str) -> Result<&'static str, WebError> {
    QUALITIES
        .into_iter()
        .find(|&choice| choice == name)
        .ok_or_else(|| WebError::UnknownName {
            what: "quality".into(),
            expected: "'auto' or 'high'".into(),
            got: name.to_string(),
        })
}

/// A number option of the natural look (`depth`, `caustics`, `sunElevation`, `sunAzimuth`,
/// `clarity`, `waveHeight`, `dispersion`), checked against its range.
pub fn natural_number(name: &str, value: f64) -> Result<f64, WebError> {
    let (min, max) = match look_parameters::by_web_name(name) {
        Some(parameter) if name != "presence" => parameter.range_f64(),
        _ => {
            return Err(WebError::NotNaturalNumber {
                name: name.to_string(),
            });
        }
    };
    in_range(name, value, min, max)
}

/// The water's colour: `#rrggbb`, `#rgb`, `rgb(r, g, b)` (commas or spaces) or an array
/// `[r, g, b]` of numbers from 0 to 255. (`ripples.js` first turns any other CSS colour, such
/// as `'teal'` or `'hsl(180 40% 70%)'`, into `#rrggbb` through the browser's own parser.)
pub fn water_colour(name: &str, value: &OptionValue) -> Result<[u8; 3], WebError> {
    let parsed = match value {
        OptionValue::Text(text) => parse_colour(text),
        OptionValue::Numbers(numbers) if numbers.len() == 3 => {
            let channel =
                |n: f64| (n.is_finite() && (0.0..=255.0).contains(&n)).then(|| n.round() as u8);
            match (
                channel(numbers[0]),
                channel(numbers[1]),
                channel(numbers[2]),
            ) {
                (Some(r), Some(g), Some(b)) => Some([r, g, b]),
                _ => None,
            }
        }
        _ => None,
    };
    parsed.ok_or_else(|| {
        expected(
            name,
            "an opaque CSS colour ('#8fd3e0', 'teal', 'rgb(143 211 224)') or [r, g, b] with \
             each from 0 to 255",
            value,
        )
    })
}

/// `#rrggbb`, `#rgb` or `rgb(r, g, b)` / `rgb(r g b)` with channels from 0 to 255.
fn parse_colour(text: &str) -> Option<[u8; 3]> {
    let text = text.trim().to_ascii_lowercase();
    if let Some(hex) = text.strip_prefix('#') {
        let digits: Vec<u8> = hex
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect::<Option<_>>()?;
        return match digits[..] {
            [r, g, b] => Some([r * 17, g * 17, b * 17]),
            [r1, r0, g1, g0, b1, b0] => Some([r1 * 16 + r0, g1 * 16 + g0, b1 * 16 + b0]),
            _ => None,
        };
    }
    let inner = text.strip_prefix("rgb(")?.strip_suffix(')')?;
    let channels: Vec<u8> = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let n: f64 = part.parse().ok()?;
            (n.is_finite() && (0.0..=255.0).contains(&n)).then(|| n.round() as u8)
        })
        .collect::<Option<_>>()?;
    channels.try_into().ok()
}

/// `#rrggbb`, the form the checked colour is kept in.
pub fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, value: OptionValue) -> Result<OptionValue, String> {
        check_option(name, value).map_err(|error| error.to_string())
    }

    #[test]
    fn the_look_options_take_the_librarys_ranges() {
        let web_parameters: Vec<_> = look_parameters::LOOK_PARAMETERS
            .iter()
            .filter_map(|p| p.web.map(|web| (web, p)))
            .collect();
        assert_eq!(
            web_parameters.len(),
            8,
            "presence and the natural look's seven"
        );
        for (name, parameter) in web_parameters {
            assert!(OPTION_NAMES.contains(&name), "{name}");
            let (min, max) = parameter.range_f64();
            for inside in [min, max, f64::from(parameter.default)] {
                assert_eq!(
                    check(name, OptionValue::Number(inside)),
                    Ok(OptionValue::Number(inside))
                );
            }
            for outside in [min - 0.5, max + 0.5] {
                assert_eq!(
                    check(name, OptionValue::Number(outside)),
                    Err(format!(
                        "{name} must be a number from {min} to {max}, got {outside}"
                    ))
                );
            }
        }
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
    fn the_photograph_options_take_urls_rows_and_focal_lengths() {
        assert_eq!(check("waterMask", OptionValue::Null), Ok(OptionValue::Null));
        let message = check("waterMask", OptionValue::Text(" ".into())).unwrap_err();
        assert!(message.starts_with("waterMask must be a URL"), "{message}");
        for row in [-250.0, 0.0, 311.5] {
            assert_eq!(
                check("horizon", OptionValue::Number(row)),
                Ok(OptionValue::Number(row))
            );
        }
        let message = check("horizon", OptionValue::Number(f64::INFINITY)).unwrap_err();
        assert_eq!(
            message,
            "horizon must be a picture row (a finite number) or null, got inf"
        );
        assert_eq!(
            check("focal", OptionValue::Number(800.0)),
            Ok(OptionValue::Number(800.0))
        );
        for bad in [0.0, -5.0, f64::NAN] {
            let message = check("focal", OptionValue::Number(bad)).unwrap_err();
            assert!(
                message.starts_with("focal must be a focal length"),
                "{message}"
            );
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
        // Just above the range: the range alone, no jquery.ripples conversion.
        assert_eq!(
            check("resolution", OptionValue::Number(17.0)).unwrap_err(),
            "resolution must be a whole number from 1 to 16, got 17"
        );
        // jquery.ripples' resolution: what to pass instead.
        let message = check("resolution", OptionValue::Number(256.0)).unwrap_err();
        println!("{message}");
        assert!(
            message.starts_with("resolution must be a whole number from 1 to 16, got 256; ")
                && message.ends_with("(for a 1280 px wide element, 5)"),
            "{message}"
        );
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
        assert!(check("perturbance", OptionValue::Number(0.2)).is_ok());
        // jquery.ripples' scale: refused with the value that means the same here.
        let message = check("perturbance", OptionValue::Number(0.04)).unwrap_err();
        println!("{message}");
        assert!(
            message.starts_with("perturbance 0.04 looks like a jquery.ripples value")
                && message.ends_with("for jquery.ripples' 0.04 pass 1.33"),
            "{message}"
        );
        let (min, max) = STEPS_PER_SECOND_RANGE;
        assert_eq!(
            check_option("stepsPerSecond", OptionValue::Number(0.5)),
            Err(WebError::number(
                "stepsPerSecond",
                0.5,
                Rule::Range { min, max }
            ))
        );
        assert!(check("pixelRatio", OptionValue::Null).is_ok());
        let (min, max) = PIXEL_RATIO_RANGE;
        assert_eq!(
            check_option("pixelRatio", OptionValue::Number(0.0)),
            Err(WebError::number(
                "pixelRatio",
                0.0,
                Rule::Range { min, max }
            ))
        );
    }

    #[test]
    fn names_are_checked_against_their_choices() {
        for solver in ["classic", "wave", "spring", "dispersive"] {
            assert!(check("solver", OptionValue::Text(solver.into())).is_ok());
        }
        assert_eq!(
            check("solver", OptionValue::Text("fast".into())).unwrap_err(),
            "solver must be 'classic', 'wave', 'spring' or 'dispersive', got 'fast'"
        );
        assert_eq!(
            check("border", OptionValue::Text("wrap".into())).unwrap_err(),
            "border must be 'reflect' or 'absorb', got 'wrap'"
        );
        for look in ["natural", "classic", "lit", "spring"] {
            assert!(check("look", OptionValue::Text(look.into())).is_ok());
        }
        assert_eq!(
            check("look", OptionValue::Text("default".into())).unwrap_err(),
            "look must be 'natural', 'classic', 'lit' or 'spring', got 'default'"
        );
        assert!(check("quality", OptionValue::Text("auto".into())).is_ok());
        assert!(check("quality", OptionValue::Text("high".into())).is_ok());
        assert_eq!(
            check("quality", OptionValue::Text("best".into())).unwrap_err(),
            "quality must be 'auto' or 'high', got 'best'"
        );
        assert!(check("crossOrigin", OptionValue::Null).is_ok());
        assert!(check("crossOrigin", OptionValue::Text(String::new())).is_ok());
        let refused = |name: &str, value: OptionValue| match check_option(name, value) {
            Err(WebError::Expected { name, got, .. }) => (name, got),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            refused("crossOrigin", OptionValue::Text("yes".into())),
            ("crossOrigin".into(), OptionValue::Text("yes".into()))
        );
        assert_eq!(
            refused("interactive", OptionValue::Number(1.0)),
            ("interactive".into(), OptionValue::Number(1.0))
        );
        assert_eq!(
            refused("imageUrl", OptionValue::Text("  ".into())),
            ("imageUrl".into(), OptionValue::Text("  ".into()))
        );
        assert!(check("obstacles", OptionValue::Text("walls.png".into())).is_ok());
    }

    #[test]
    fn a_video_is_a_url_or_null() {
        let text = |s: &str| OptionValue::Text(s.into());
        assert_eq!(check("videoUrl", OptionValue::Null), Ok(OptionValue::Null));
        assert_eq!(check("videoUrl", text("clip.mp4")), Ok(text("clip.mp4")));
        assert_eq!(
            check("videoUrl", OptionValue::Bool(true)).unwrap_err(),
            "videoUrl must be a URL string or null, got true"
        );
        assert_eq!(
            check("videoUrl", text("")).unwrap_err(),
            "videoUrl must be a URL string or null, got ''"
        );
    }

    #[test]
    fn the_sky_is_a_url_or_null_for_the_built_in_gradient() {
        let text = |s: &str| OptionValue::Text(s.into());
        assert_eq!(check("skyUrl", OptionValue::Null), Ok(OptionValue::Null));
        assert_eq!(check("skyUrl", text("sky.jpg")), Ok(text("sky.jpg")));
        for (bad, shown) in [
            (OptionValue::Number(3.0), "3"),
            (OptionValue::Bool(true), "true"),
            (text(" "), "' '"),
            (
                OptionValue::Other("a value of type object".into()),
                "a value of type object",
            ),
        ] {
            assert_eq!(
                check("skyUrl", bad).unwrap_err(),
                format!("skyUrl must be a URL string or null, got {shown}")
            );
        }
    }

    #[test]
    fn the_natural_looks_numbers_are_checked_against_their_ranges() {
        for (name, low, high) in [
            ("depth", 0.0, 1024.0),
            ("caustics", 0.0, 4.0),
            ("sunElevation", 1.0, 90.0),
            ("sunAzimuth", -360.0, 360.0),
            ("clarity", 1.0, 1_000_000.0),
            ("waveHeight", 0.0, 16.0),
            ("dispersion", 0.0, 50.0),
        ] {
            for good in [low, high, (low + high) / 2.0] {
                assert_eq!(
                    check(name, OptionValue::Number(good)),
                    Ok(OptionValue::Number(good))
                );
            }
            for bad in [low - 0.5, high + 0.5, f64::NAN] {
                assert_eq!(
                    check(name, OptionValue::Number(bad)).unwrap_err(),
                    format!("{name} must be a number from {low} to {high}, got {bad}")
                );
            }
            assert_eq!(
                check(name, OptionValue::Text("1".into())).unwrap_err(),
                format!("{name} must be a number, got '1'")
            );
        }
    }

    #[test]
    fn the_water_colour_is_a_css_colour_or_three_bytes_kept_as_hex() {
        let colour = |value| check("waterColour", value);
        let text = |s: &str| OptionValue::Text(s.into());
        for (given, kept) in [
            ("#8FD3E0", "#8fd3e0"),
            ("#abc", "#aabbcc"),
            (" rgb(143, 211, 224) ", "#8fd3e0"),
            ("rgb(0 128 255)", "#0080ff"),
        ] {
            assert_eq!(colour(text(given)), Ok(text(kept)), "{given}");
        }
        assert_eq!(
            colour(OptionValue::Numbers(vec![143.0, 211.2, 224.0])),
            Ok(text("#8fd3e0"))
        );
        // The other spelling is the same option, and its errors name it as it was written.
        assert_eq!(check("waterColor", text("#000")), Ok(text("#000000")));
        let message = check("waterColor", text("sea")).unwrap_err();
        assert!(
            message.starts_with("waterColor must be an opaque CSS colour"),
            "{message}"
        );
        assert!(message.ends_with("got 'sea'"), "{message}");
        for bad in [
            text("#12345"),
            text("#ggg"),
            text("rgb(1, 2)"),
            text("rgb(1, 2, 300)"),
            text("rgba(1, 2, 3, 0.5)"),
            OptionValue::Numbers(vec![1.0, 2.0]),
            OptionValue::Numbers(vec![1.0, 2.0, -3.0]),
            OptionValue::Numbers(vec![1.0, f64::NAN, 3.0]),
            OptionValue::Number(3.0),
            OptionValue::Null,
        ] {
            let message = colour(bad.clone()).unwrap_err();
            assert!(message.ends_with(&format!("got {bad}")), "{message}");
        }
        assert!(
            colour(OptionValue::Numbers(vec![1.0, 2.0, 256.0]))
                .unwrap_err()
                .ends_with("got [1, 2, 256]")
        );
    }

    #[test]
    fn stone_arguments_round_and_refuse_what_would_wrap() {
        assert_eq!(stone_radius(0.4), Ok(1));
        assert_eq!(stone_radius(12.6), Ok(13));
        let max = f64::from(MAX_RADIUS);
        assert_eq!(
            stone_radius(-3.0),
            Err(WebError::number("radius", -3.0, Rule::Positive { max }))
        );
        assert_eq!(strength(128.4), Ok(128));
        for bad in [40_000.0, -1.0] {
            let (min, max) = (0.0, 32767.0);
            assert_eq!(
                strength(bad),
                Err(WebError::number("strength", bad, Rule::Range { min, max }))
            );
        }
    }
}
