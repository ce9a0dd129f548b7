//! The library's error type.
//!
//! One small enum for everything the core can refuse. Messages name the problem and the value
//! ("damping shift must be <= 15, got 16") so that front ends can print them as they are, and
//! the variants carry the same facts as fields, so that a program (or a test) can match on what
//! was refused rather than parse the words: [`Error::OutOfRange`] holds the name, the value and
//! both bounds; [`Error::In`] says which item of a scene (or which table) an error is about
//! and keeps the error itself ([`Error::root`] looks through any number of them). Numbers are
//! kept as the type they were checked in ([`Number`]), so that an `f32` prints as the user
//! typed it (`0.05`, not `0.05000000074505806`).

/// Everything the core library can refuse.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A pool or image with a zero dimension.
    #[error("size must be at least 1x1, got {width}x{height}")]
    EmptySize {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
    },
    /// A pool or image larger than [`MAX_SIDE`](crate::limits::MAX_SIDE) per side or [`MAX_CELLS`](crate::limits::MAX_CELLS) in all.
    #[error(
        "size {width}x{height} is too large: at most {max_side} per side and {max_cells} cells in all",
        max_side = crate::limits::MAX_SIDE,
        max_cells = crate::limits::MAX_CELLS
    )]
    TooLarge {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
    },
    /// A buffer whose length does not match the pool.
    #[error(
        "{what} has {got} values, expected {expected} ({per_pixel} per pixel for {width}x{height})"
    )]
    BufferSize {
        /// Which buffer ("source image", "destination frame").
        what: &'static str,
        /// Values found (bytes of an RGBA buffer, pixels of a packed one, cells of a map).
        got: usize,
        /// Values needed.
        expected: usize,
        /// Values per pixel: 4 for RGBA bytes, 1 for packed pixels and per-cell maps.
        per_pixel: usize,
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
    },
    /// A number outside `min..=max`: "damping shift must be <= 15, got 16".
    #[error("{}", out_of_range(.name, *.value, *.min, *.max))]
    OutOfRange {
        /// What was checked ("radius", "wave height").
        name: String,
        /// The value given.
        value: Number,
        /// The smallest value allowed.
        min: Number,
        /// The largest value allowed.
        max: Number,
    },
    /// A number that must be finite and is not (NaN or an infinity).
    #[error("{name} must be a finite number, got {value}")]
    NotFinite {
        /// What was checked.
        name: String,
        /// The value given.
        value: Number,
    },
    /// A range given largest first: "rain radius range [4, 3] is reversed: give the smallest
    /// first, [3, 4]".
    #[error("{name} range [{low}, {high}] is reversed: give the smallest first, [{high}, {low}]")]
    ReversedRange {
        /// What the range is of.
        name: String,
        /// The first value given (the larger).
        low: Number,
        /// The second value given (the smaller).
        high: Number,
    },
    /// A name that is none of those a setting takes: "solver must be 'classic', 'wave',
    /// 'spring' or 'dispersive', got 'fast'".
    #[error("{what} must be {expected}, got '{got}'")]
    UnknownName {
        /// The setting ("solver", "boundary", "render mode", "backend").
        what: &'static str,
        /// The names it takes, as a phrase.
        expected: String,
        /// The name given.
        got: String,
    },
    /// An error about one item of a scene or one of its tables: "drop #2: radius must be >= 1,
    /// got 0", "photo: glints must be <= 4, got 5".
    #[error("{context}: {source}")]
    In {
        /// The item or table ("drop #2", "rain", "photo").
        context: String,
        /// What is wrong with it.
        source: Box<Error>,
    },
    /// Anything else the core refuses; the message names the problem and the value.
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    /// This error about `context` (an item of a scene, a table): see [`Error::In`].
    pub fn in_context(self, context: impl Into<String>) -> Error {
        Error::In {
            context: context.into(),
            source: Box::new(self),
        }
    }

    /// The error itself, looking through any [`Error::In`] around it.
    ///
    /// ```
    /// use ripples::{DropEvent, Error, Scene};
    ///
    /// let stone = DropEvent { frame: 0, x: 5, y: 5, radius: 0, strength: 50 };
    /// let scene = Scene { drops: vec![stone], ..Scene::default() };
    /// let error = scene.validate().unwrap_err();
    /// assert_eq!(error.to_string(), "drop #1: radius must be >= 1, got 0");
    /// assert!(matches!(error.root(), Error::OutOfRange { name, .. } if name == "radius"));
    /// ```
    pub fn root(&self) -> &Error {
        match self {
            Error::In { source, .. } => source.root(),
            other => other,
        }
    }
}

/// A number as it was checked: an integer, an `f32` or an `f64`, printed as its own type prints.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// Any integer type, widened.
    Integer(i64),
    /// A single-precision float.
    Single(f32),
    /// A double-precision float.
    Double(f64),
}

impl Number {
    /// The value as an `f64` (exact for every `f32` and for integers up to 2^53).
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Integer(value) => value as f64,
            Number::Single(value) => f64::from(value),
            Number::Double(value) => value,
        }
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Integer(value) => value.fmt(f),
            Number::Single(value) => value.fmt(f),
            Number::Double(value) => value.fmt(f),
        }
    }
}

macro_rules! integer_number {
    ($($integer:ty),*) => {$(
        impl From<$integer> for Number {
            fn from(value: $integer) -> Number {
                Number::Integer(i64::from(value))
            }
        }
    )*};
}
integer_number!(i8, i16, i32, i64, u8, u16, u32);

impl From<f32> for Number {
    fn from(value: f32) -> Number {
        Number::Single(value)
    }
}

impl From<f64> for Number {
    fn from(value: f64) -> Number {
        Number::Double(value)
    }
}

/// The message of [`Error::OutOfRange`]: the bound the value breaks.
fn out_of_range(name: &str, value: Number, min: Number, max: Number) -> String {
    let below = match (value, min) {
        (Number::Integer(value), Number::Integer(min)) => value < min,
        (value, min) => value.as_f64() < min.as_f64(),
    };
    if below {
        format!("{name} must be >= {min}, got {value}")
    } else {
        format!("{name} must be <= {max}, got {value}")
    }
}
