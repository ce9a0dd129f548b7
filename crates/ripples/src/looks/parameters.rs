//! Every number of a [`Look`](super::Look), its range and its default, stated once.
//!
//! A look parameter is read in many places: the library makes each look's defaults from it and
//! checks it ([`Look::validate`](super::Look::validate),
//! [`LookSettings::validate`](super::LookSettings::validate)), the command's `--help` states its range and default and its
//! parser refuses what is out of range, the page's `options.rs` checks what a page passes, and
//! the published TypeScript types and the guides (`docs/command.md`, `docs/web.md`) tell users
//! the same range. So each one is a [`Parameter`] here, in [`LOOK_PARAMETERS`]: the core checks
//! with it, the command's help and the page's checks are made from it, and a test of the command
//! (`tests/it/look_parameters.rs`) compares the types and the guides with it, so a range changed
//! here fails until every place that states it agrees.
//!
//! ```
//! use ripples::look_parameters::{DEPTH, LOOK_PARAMETERS};
//!
//! assert_eq!((DEPTH.min, DEPTH.max, DEPTH.default), (0.0, 1024.0, 48.0));
//! assert_eq!(DEPTH.range(), "0..=1024");
//! assert_eq!(DEPTH.check(2000.0).unwrap_err().to_string(), "depth must be <= 1024, got 2000");
//! assert!(LOOK_PARAMETERS.iter().any(|p| p.key == "sun_elevation"));
//! ```

use super::RenderMode;
use crate::error::Error;
use crate::limits::check_finite_range;

/// One number of a look: its name, its range and its default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parameter {
    /// Its key in a scene's `[look]` table, and its field of its look's settings
    /// ([`NaturalSettings`](super::NaturalSettings) and the others; the spring look's drop
    /// their `spring_` prefix there): `"sun_elevation"`. The command's option is the same words joined by `-`
    /// (`--sun-elevation`, [`option`](Self::option)).
    pub key: &'static str,
    /// What error messages call it: `"sun elevation"`.
    pub name: &'static str,
    /// Its option on the page (`Ripples.attach`), where the page has one: `"sunElevation"`.
    pub web: Option<&'static str>,
    /// The look it tunes (with any other look it does nothing); `None` for `presence`, which
    /// tunes every look but the classic one.
    pub look: Option<RenderMode>,
    /// The smallest value accepted.
    pub min: f32,
    /// The largest value accepted.
    pub max: f32,
    /// Its value in its look's default settings ([`Look::of_kind`](super::Look::of_kind)).
    pub default: f32,
}

impl Parameter {
    /// Checks `value`: a finite number within `min..=max`, else an error naming the parameter.
    pub fn check(&self, value: f32) -> Result<f32, Error> {
        check_finite_range(self.name, value, self.min, self.max)
    }

    /// The range as the command's help and the guides write it: `"0..=1024"`.
    pub fn range(&self) -> String {
        format!("{}..={}", self.min, self.max)
    }

    /// The command's option without its dashes: `"sun-elevation"`.
    pub fn option(&self) -> String {
        self.key.replace('_', "-")
    }

    /// `(min, max)` as `f64`, for a front end whose numbers are `f64` (the page's).
    pub const fn range_f64(&self) -> (f64, f64) {
        (self.min as f64, self.max as f64)
    }
}

/// How much the water shows: one knob for everything the waves do to the picture.
pub const PRESENCE: Parameter = Parameter {
    key: "presence",
    name: "presence",
    web: Some("presence"),
    look: None,
    min: 0.0,
    max: 8.0,
    default: 1.0,
};
/// Lit look: pixels of displacement per unit of height difference.
pub const REFRACTION: Parameter = Parameter {
    key: "refraction",
    name: "refraction",
    web: None,
    look: Some(RenderMode::Lit),
    min: -64.0,
    max: 64.0,
    default: 0.35,
};
/// Lit look: slope of the surface per unit of height difference, for lighting.
pub const SLOPE: Parameter = Parameter {
    key: "slope",
    name: "slope",
    web: None,
    look: Some(RenderMode::Lit),
    min: 0.0,
    max: 16.0,
    default: 1.0 / 48.0,
};
/// Lit look: diffuse light strength.
pub const SHADING: Parameter = Parameter {
    key: "shading",
    name: "shading",
    web: None,
    look: Some(RenderMode::Lit),
    min: 0.0,
    max: 4.0,
    default: 0.25,
};
/// Lit look: specular highlight strength.
pub const SPECULAR: Parameter = Parameter {
    key: "specular",
    name: "specular",
    web: None,
    look: Some(RenderMode::Lit),
    min: 0.0,
    max: 16.0,
    default: 0.4,
};
/// Lit look: specular exponent.
pub const SHININESS: Parameter = Parameter {
    key: "shininess",
    name: "shininess",
    web: None,
    look: Some(RenderMode::Lit),
    min: 0.01,
    max: 1024.0,
    default: 8.0,
};
/// Lit look: direction towards the light in degrees.
pub const LIGHT_ANGLE: Parameter = Parameter {
    key: "light_angle",
    name: "light angle",
    web: None,
    look: Some(RenderMode::Lit),
    min: -360.0,
    max: 360.0,
    default: 120.0,
};
/// Spring look: pixels of displacement per unit of height difference.
pub const SPRING_REFRACTION: Parameter = Parameter {
    key: "spring_refraction",
    name: "spring refraction",
    web: None,
    look: Some(RenderMode::Spring),
    min: -64.0,
    max: 64.0,
    default: -0.35,
};
/// Spring look: how fast water turns see-through.
pub const SPRING_TRANSPARENCY: Parameter = Parameter {
    key: "spring_transparency",
    name: "spring transparency",
    web: None,
    look: Some(RenderMode::Spring),
    min: 0.0,
    max: 1000.0,
    default: 0.0005,
};
/// Natural look: depth of the floor under the water at rest, in pixels.
pub const DEPTH: Parameter = Parameter {
    key: "depth",
    name: "depth",
    web: Some("depth"),
    look: Some(RenderMode::Natural),
    min: 0.0,
    max: 1024.0,
    default: 48.0,
};
/// Natural look: strength of the caustics.
pub const CAUSTICS: Parameter = Parameter {
    key: "caustics",
    name: "caustics",
    web: Some("caustics"),
    look: Some(RenderMode::Natural),
    min: 0.0,
    max: 4.0,
    default: 0.15,
};
/// Natural look: the sun's height above the horizon in degrees.
pub const SUN_ELEVATION: Parameter = Parameter {
    key: "sun_elevation",
    name: "sun elevation",
    web: Some("sunElevation"),
    look: Some(RenderMode::Natural),
    min: 1.0,
    max: 90.0,
    default: 60.0,
};
/// Natural look: the sun's direction in degrees.
pub const SUN_AZIMUTH: Parameter = Parameter {
    key: "sun_azimuth",
    name: "sun azimuth",
    web: Some("sunAzimuth"),
    look: Some(RenderMode::Natural),
    min: -360.0,
    max: 360.0,
    default: 120.0,
};
/// Natural look: pixels of water after which white light has the water's colour.
pub const CLARITY: Parameter = Parameter {
    key: "clarity",
    name: "clarity",
    web: Some("clarity"),
    look: Some(RenderMode::Natural),
    min: 1.0,
    max: 1_000_000.0,
    default: 600.0,
};
/// Natural look: pixels of surface height per unit of the field's height.
pub const WAVE_HEIGHT: Parameter = Parameter {
    key: "wave_height",
    name: "wave height",
    web: Some("waveHeight"),
    look: Some(RenderMode::Natural),
    min: 0.0,
    max: 16.0,
    default: 0.12,
};
/// Natural look: chromatic dispersion in units of water's own.
pub const DISPERSION: Parameter = Parameter {
    key: "dispersion",
    name: "dispersion",
    web: Some("dispersion"),
    look: Some(RenderMode::Natural),
    min: 0.0,
    max: 50.0,
    default: 0.0,
};

/// Every number of a look, in the order [`LookSettings::validate`](super::LookSettings::validate)
/// checks them (the water's colour, three bytes, has no range).
pub const LOOK_PARAMETERS: [Parameter; 16] = [
    PRESENCE,
    REFRACTION,
    SLOPE,
    SHADING,
    SPECULAR,
    SHININESS,
    LIGHT_ANGLE,
    SPRING_REFRACTION,
    SPRING_TRANSPARENCY,
    DEPTH,
    CAUSTICS,
    SUN_ELEVATION,
    SUN_AZIMUTH,
    CLARITY,
    WAVE_HEIGHT,
    DISPERSION,
];

/// The parameter whose scene key is `key` (`"sun_elevation"`), if any.
pub fn by_key(key: &str) -> Option<&'static Parameter> {
    LOOK_PARAMETERS.iter().find(|p| p.key == key)
}

/// The parameter whose page option is `name` (`"sunElevation"`), if any.
pub fn by_web_name(name: &str) -> Option<&'static Parameter> {
    LOOK_PARAMETERS.iter().find(|p| p.web == Some(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_names_and_web_names_are_the_same_words() {
        for p in LOOK_PARAMETERS {
            assert_eq!(p.key.replace('_', " "), p.name, "{}", p.key);
            if let Some(web) = p.web {
                let mut camel = String::new();
                for (i, word) in p.key.split('_').enumerate() {
                    let mut chars = word.chars();
                    if i > 0 {
                        camel.extend(chars.next().map(|c| c.to_ascii_uppercase()));
                    }
                    camel.extend(chars);
                }
                assert_eq!(web, camel);
            }
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.key);
            assert_eq!(p.look.is_none(), p.key == "presence", "{}", p.key);
            assert!(p.check(p.min).is_ok() && p.check(p.max).is_ok());
            assert!(p.check(f32::NAN).is_err());
        }
    }
}
