//! The web crate's error type.
//!
//! JavaScript sees an error as its message alone (a `JsError`), and the page's tests compare
//! those messages, so every message here is worded once and stays the same. Rust sees an enum
//! it can match: what the core refused is kept as the core's own [`ripples::Error`]
//! ([`WebError::Core`]; its message and source are the core error's, as with thiserror's
//! `transparent`), and what only the page
//! checks (its options, its buffers, the CSS background) has a variant of its own that holds the
//! name, the value and the bounds.

use std::fmt;

use crate::options::{
    JQUERY_DEFAULT_PERTURBANCE, MAX_PERTURBANCE, MIN_PERTURBANCE, OPTION_NAMES, OptionValue,
};

/// An option or argument the page got wrong, or something the core refused; the message names
/// it and the value.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum WebError {
    /// The core refused it; its message is the core's.
    Core(ripples::Error),
    /// A number an option or argument does not take: "strength must be a number from 0 to
    /// 32767, got -1".
    #[non_exhaustive]
    Number {
        /// The option or argument ("strength", "x", "pool width").
        name: String,
        /// The value given.
        value: f64,
        /// What it must be.
        rule: Rule,
    },
    /// A value of the wrong kind: "waterMask must be a URL string or null, got ' '".
    #[non_exhaustive]
    Expected {
        /// The option.
        name: String,
        /// What it must be, as the message words it.
        what: String,
        /// The value given.
        got: OptionValue,
    },
    /// A name that is none of those an option takes: "look must be 'natural', 'classic',
    /// 'lit' or 'spring', got 'wet'".
    #[non_exhaustive]
    UnknownName {
        /// The option ("look", "border").
        what: String,
        /// The names it takes, as a phrase.
        expected: String,
        /// The name given.
        got: String,
    },
    /// An option that does not exist: "unknown option 'wet' (options: ...)".
    #[non_exhaustive]
    UnknownOption {
        /// The name given.
        name: String,
    },
    /// A name that is not one of the natural look's number options.
    #[non_exhaustive]
    NotNaturalNumber {
        /// The name given.
        name: String,
    },
    /// A whole `resolution` that only jquery.ripples would pass (its simulation's width in
    /// cells); the message says how to convert it.
    #[non_exhaustive]
    JqueryResolution {
        /// The value given.
        value: f64,
    },
    /// A `perturbance` on jquery.ripples' scale; the message gives the value to pass instead.
    #[non_exhaustive]
    JqueryPerturbance {
        /// The value given.
        value: f64,
    },
    /// RGBA bytes whose length does not fit the size: "image has 12 bytes, expected 16 for
    /// 2x2 RGBA".
    #[non_exhaustive]
    WrongLength {
        /// Which buffer ("image", "water mask", "sky image", "obstacle mask").
        what: &'static str,
        /// Bytes given.
        got: usize,
        /// Bytes needed.
        expected: usize,
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// A pool size below 1x1 pixels.
    #[non_exhaustive]
    PoolTooSmall {
        /// Width asked for.
        width: f64,
        /// Height asked for.
        height: f64,
    },
    /// A pool size above [`MAX_SIDE`](crate::MAX_SIDE) per side or
    /// [`MAX_PIXELS`](crate::MAX_PIXELS) in all.
    #[non_exhaustive]
    PoolTooLarge {
        /// Width asked for.
        width: f64,
        /// Height asked for.
        height: f64,
    },
    /// A CSS scale given to `resize` that is not a number above 0.
    #[non_exhaustive]
    CssScale {
        /// The axis ("x", "y").
        axis: &'static str,
        /// The value given.
        value: f64,
    },
    /// A background box or image side that is not above 0.
    #[non_exhaustive]
    LayoutSize {
        /// Which side ("box width", "image height").
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A `background-size` that makes the image empty.
    #[non_exhaustive]
    EmptyTile {
        /// The `background-size` given.
        size: String,
        /// The tile's width it makes.
        width: f64,
        /// The tile's height it makes.
        height: f64,
    },
    /// A CSS background value this crate does not read: "background-repeat 'mirror' is not
    /// supported".
    #[non_exhaustive]
    Unsupported {
        /// The CSS property.
        property: &'static str,
        /// Its value.
        value: String,
    },
    /// A call that needs a water region, on a pool without one.
    NoWaterRegion,
    /// A call that needs the water in perspective, on a pool whose water is not.
    NoPerspective,
    /// The photo look's tables asked for before they were built.
    NoPhotoTables,
    /// The GPU asked to step a solver it does not step: "the GPU steps only the dispersive
    /// and wave solvers, not 'spring'".
    NotOnGpu {
        /// The solver's name.
        solver: &'static str,
    },
}

/// What a number must be, in a [`WebError::Number`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Rule {
    /// A finite number in `min..=max`.
    Range {
        /// The smallest value allowed.
        min: f64,
        /// The largest value allowed.
        max: f64,
    },
    /// A whole number in `min..=max`.
    Whole {
        /// The smallest value allowed.
        min: u32,
        /// The largest value allowed.
        max: u32,
    },
    /// A number above 0 and at most `max`.
    Positive {
        /// The largest value allowed.
        max: f64,
    },
    /// A finite number.
    Finite,
    /// A whole number of pixels (0 or more).
    WholePixels,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Range { min, max } => write!(f, "a number from {min} to {max}"),
            Rule::Whole { min, max } => write!(f, "a whole number from {min} to {max}"),
            Rule::Positive { max } => write!(f, "a number above 0 and at most {max}"),
            Rule::Finite => f.write_str("a finite number"),
            Rule::WholePixels => f.write_str("a whole number of pixels"),
        }
    }
}

impl fmt::Display for WebError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ripples::limits::MAX_SIM_SCALE;
        match self {
            WebError::Core(error) => error.fmt(f),
            WebError::Number { name, value, rule } => {
                write!(f, "{name} must be {rule}, got {value}")
            }
            WebError::Expected { name, what, got } => write!(f, "{name} must be {what}, got {got}"),
            WebError::UnknownName {
                what,
                expected,
                got,
            } => write!(f, "{what} must be {expected}, got '{got}'"),
            WebError::UnknownOption { name } => write!(
                f,
                "unknown option '{name}' (options: {})",
                OPTION_NAMES.join(", ")
            ),
            WebError::NotNaturalNumber { name } => {
                write!(f, "'{name}' is not a natural look number")
            }
            WebError::JqueryResolution { value } => write!(
                f,
                "{}; jquery.ripples' resolution ({value}) is the simulation's width in \
                 cells, here it is element pixels per cell: pass the element's width divided \
                 by {value}, at most {MAX_SIM_SCALE} (for a 1280 px wide element, {})",
                WebError::Number {
                    name: "resolution".into(),
                    value: *value,
                    rule: Rule::Whole {
                        min: 1,
                        max: MAX_SIM_SCALE
                    },
                },
                (1280.0 / value)
                    .round()
                    .clamp(1.0, f64::from(MAX_SIM_SCALE))
            ),
            WebError::JqueryPerturbance { value } => write!(
                f,
                "perturbance {value} looks like a jquery.ripples value (its default is \
                 {JQUERY_DEFAULT_PERTURBANCE}); here perturbance multiplies the look's refraction \
                 (1 is the default, 0 none, otherwise {MIN_PERTURBANCE} to {MAX_PERTURBANCE}): for \
                 jquery.ripples' {value} pass {:.2}",
                value / JQUERY_DEFAULT_PERTURBANCE
            ),
            WebError::WrongLength {
                what,
                got,
                expected,
                width,
                height,
            } => write!(
                f,
                "{what} has {got} bytes, expected {expected} for {width}x{height} RGBA"
            ),
            WebError::PoolTooSmall { width, height } => write!(
                f,
                "pool size must be at least 1x1 pixels, got {width}x{height}"
            ),
            WebError::PoolTooLarge { width, height } => write!(
                f,
                "pool size {width}x{height} is too large: at most {} pixels per side and \
                 {} pixels in all (4096x4096)",
                crate::MAX_SIDE,
                crate::MAX_PIXELS
            ),
            WebError::CssScale { axis, value } => write!(
                f,
                "resize: the CSS scale along {axis} must be a number above 0, got {value}"
            ),
            WebError::LayoutSize { name, value } => {
                write!(f, "background layout: {name} must be above 0, got {value}")
            }
            WebError::EmptyTile {
                size,
                width,
                height,
            } => write!(
                f,
                "background-size '{size}' makes the image empty ({width}x{height})"
            ),
            WebError::Unsupported { property, value } => {
                write!(f, "{property} '{value}' is not supported")
            }
            WebError::NoWaterRegion => f.write_str("the pool has no water region (see setWater)"),
            WebError::NoPerspective => {
                f.write_str("the pool's water is not in perspective (see setWater)")
            }
            WebError::NoPhotoTables => f.write_str("the photo look's tables are missing"),
            WebError::NotOnGpu { solver } => write!(
                f,
                "the GPU steps only the dispersive and wave solvers, not '{solver}'"
            ),
        }
    }
}

impl std::error::Error for WebError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WebError::Core(error) => error.source(),
            _ => None,
        }
    }
}

impl From<ripples::Error> for WebError {
    fn from(error: ripples::Error) -> Self {
        WebError::Core(error)
    }
}

impl WebError {
    /// A [`WebError::Number`].
    pub(crate) fn number(name: impl Into<String>, value: f64, rule: Rule) -> WebError {
        WebError::Number {
            name: name.into(),
            value,
            rule,
        }
    }
}
