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
    /// A number that breaks a rule other than a plain `min..=max` (an open bound, a number
    /// that must be finite, a unit or a reason in the words): "gravity must be a number in
    /// (0, 0.5] cells per step², got 0".
    #[error("{name} must be {rule}, got {value}")]
    #[non_exhaustive]
    NotAllowed {
        /// What was checked ("gravity", "float density").
        name: String,
        /// The value given.
        value: Number,
        /// What it must be, as the message words it ("a number in (0, 0.5] cells per step²").
        rule: String,
    },
    /// A buffer whose length does not fit the grid or image it is for: "obstacle mask has 3
    /// cells, expected 4 for 2x2".
    #[error("{}", wrong_length(.buffer, *.got, *.expected, *.width, *.height))]
    #[non_exhaustive]
    WrongLength {
        /// Which buffer.
        buffer: Buffer,
        /// Values found.
        got: usize,
        /// Values needed.
        expected: usize,
        /// Width of the grid or image.
        width: usize,
        /// Height of the grid or image.
        height: usize,
    },
    /// A field given to be drawn that is not the pool's grid: "field must be 4x4 cells, the
    /// pool's grid, got 3x4 with 12 heights".
    #[error(
        "field must be {}x{} cells, the pool's grid, got {}x{} with {heights} heights",
        .grid[0], .grid[1], .field[0], .field[1]
    )]
    #[non_exhaustive]
    FieldNotGrid {
        /// The pool's grid, width and height.
        grid: [usize; 2],
        /// The field's width and height.
        field: [usize; 2],
        /// The number of heights the field holds.
        heights: usize,
    },
    /// A field, scale and image that do not go together (the field is not the image's grid at
    /// that scale, the scale is 0, or the source and destination differ in length): "renderer:
    /// field 2x2 at scale 1 does not cover a 4x4 image".
    #[error(
        "renderer: field {}x{} at scale {scale} does not cover a {}x{} image",
        .field[0], .field[1], .image[0], .image[1]
    )]
    #[non_exhaustive]
    FieldImageMismatch {
        /// The field's width and height, in cells.
        field: [usize; 2],
        /// Pixels per cell.
        scale: u32,
        /// The image's width and height, in pixels.
        image: [usize; 2],
    },
    /// A value read at one cell of a per-cell map that is out of its range: "stiffness map:
    /// cell (1, 2) is 2, expected a number in [0, 1]".
    #[error("{map}: cell ({x}, {y}) is {value}, expected a number in [{min}, {max}]")]
    #[non_exhaustive]
    CellOutOfRange {
        /// The map ("stiffness map").
        map: String,
        /// The cell's column.
        x: usize,
        /// The cell's row.
        y: usize,
        /// The value there.
        value: f32,
        /// The smallest value allowed.
        min: f32,
        /// The largest value allowed.
        max: f32,
    },
    /// A height loaded into a floating-point solver that is not finite or too large: "height at
    /// cell (1, 2) must be a finite number within -1000000..=1000000, got NaN".
    #[error("height at cell ({x}, {y}) must be a finite number within -{max}..={max}, got {value}")]
    #[non_exhaustive]
    HeightOutOfRange {
        /// The cell's column.
        x: usize,
        /// The cell's row.
        y: usize,
        /// The height given.
        value: f32,
        /// The largest magnitude allowed.
        max: f32,
    },
    /// Heights of the wrong number type for the solver: "heights are f32, but the classic
    /// solver keeps i16 heights".
    #[error("heights are {found}, but the {} solver keeps {needed} heights", .solver.name())]
    #[non_exhaustive]
    HeightsType {
        /// The solver the heights were for.
        solver: crate::SolverKind,
        /// The type given ("i16", "f32").
        found: &'static str,
        /// The type the solver keeps.
        needed: &'static str,
    },
    /// A position with a coordinate that is not finite: "body position must be finite, got
    /// (NaN, 2)".
    #[error("{name} must be finite, got ({x}, {y})")]
    #[non_exhaustive]
    NotFinitePosition {
        /// What it is the position of ("body position", "float position", "scene offset").
        name: &'static str,
        /// Its first coordinate.
        x: Number,
        /// Its second coordinate.
        y: Number,
    },
    /// A float's velocity with a component that is not finite.
    #[error("float velocity must be finite, got {velocity:?}")]
    #[non_exhaustive]
    NotFiniteVelocity {
        /// The velocity given.
        velocity: [f32; 3],
    },
    /// A scene's scale (how a scene is stretched onto a pool of another size) that is not
    /// finite and positive.
    #[error("scene scale must be finite and positive, got {}x{}", .scale[0], .scale[1])]
    #[non_exhaustive]
    SceneScale {
        /// The horizontal and vertical scale given.
        scale: [f64; 2],
    },
    /// A path (a swipe's, a body's) with no points.
    #[error("points must hold at least one [x, y]")]
    EmptyPath,
    /// A point of a path with a coordinate that is not finite: "points must be finite, got
    /// [NaN, 2]".
    #[error("points must be finite, got [{x}, {y}]")]
    #[non_exhaustive]
    PathPointNotFinite {
        /// Its first coordinate.
        x: f32,
        /// Its second coordinate.
        y: f32,
    },
    /// A point of a path outside the pool: "point [9, 2] is outside the 8x8 pool".
    #[error("point [{x}, {y}] is outside the {width}x{height} pool")]
    #[non_exhaustive]
    PathPointOutside {
        /// Its first coordinate.
        x: f32,
        /// Its second coordinate.
        y: f32,
        /// The pool's width.
        width: u32,
        /// The pool's height.
        height: u32,
    },
    /// A float's centre outside the pool: "centre (9, 2) is outside the 8x8 pool".
    #[error("centre ({x}, {y}) is outside the {width}x{height} pool")]
    #[non_exhaustive]
    CentreOutside {
        /// Its first coordinate.
        x: f32,
        /// Its second coordinate.
        y: f32,
        /// The pool's width.
        width: u32,
        /// The pool's height.
        height: u32,
    },
    /// An id that names nothing in the pool (taken out, or from another pool): "no body 3 in
    /// this pool".
    #[error("no {what} {id} in this pool")]
    #[non_exhaustive]
    UnknownId {
        /// What the id is of ("body", "float").
        what: &'static str,
        /// The id's number.
        id: u64,
    },
    /// An item number a scene does not have: "float #3 does not exist: the scene has 2
    /// floats".
    #[error("{what} #{number} does not exist: the scene has {count} {what}s")]
    #[non_exhaustive]
    NoSuchItem {
        /// What the item is ("float").
        what: &'static str,
        /// Its number, from 1.
        number: usize,
        /// How many the scene has.
        count: usize,
    },
    /// A time window that ends before it starts: "end (3) must not come before start (5)".
    #[error("end ({end}) must not come before start ({start})")]
    #[non_exhaustive]
    EndBeforeStart {
        /// The first frame or step.
        start: u64,
        /// The last.
        end: u64,
    },
    /// A range given as `[low, high]` whose low end is above its high end (or not a number):
    /// "stiffness_range must be [low, high] with low <= high, got [0.5, 0.2]".
    #[error("{name} must be [low, high] with low <= high, got [{low}, {high}]")]
    #[non_exhaustive]
    RangeOrder {
        /// The setting ("stiffness_range").
        name: &'static str,
        /// The first value given.
        low: f32,
        /// The second value given.
        high: f32,
    },
    /// Springs stiffer than they are viscous, which gain energy every step.
    #[error(
        "stiffness {stiffness} is above the viscosity {viscosity}{}: a spring stiffer than it is \
         viscous gains energy every step (set the viscosity first, or both together)",
        .cell.map(|[x, y]| format!(" at cell ({x}, {y})")).unwrap_or_default()
    )]
    #[non_exhaustive]
    StifferThanViscous {
        /// The stiffness.
        stiffness: f32,
        /// The viscosity.
        viscosity: f32,
        /// The first cell where it happens, when either is a per-cell map.
        cell: Option<[usize; 2]>,
    },
    /// A wave source given neither as a point nor as a line, or as both.
    #[error("give either x and y (a point) or x0, y0, x1 and y1 (a line)")]
    SourceShape,
    /// A focal length given without the horizon that places the camera.
    #[error("focal = {focal} needs a horizon: the focal length places a camera in perspective")]
    #[non_exhaustive]
    FocalWithoutHorizon {
        /// The focal length given.
        focal: f32,
    },
    /// Something that does not follow a perspective yet (bodies, floats) in water that has one:
    /// "bodies do not follow a perspective yet: a pool with a horizon takes none".
    #[error("{what} do not follow a perspective yet: {advice}")]
    #[non_exhaustive]
    NoPerspective {
        /// What does not ("bodies", "floats", "bodies and floats").
        what: &'static str,
        /// What to do about it, as the message words it.
        advice: &'static str,
    },
    /// A water mask with no water in it.
    #[error("water mask holds no water: white marks water, and every pixel is dark")]
    NoWater,
    /// A horizon below every row of water, so that no water is in view.
    #[error(
        "horizon {horizon} lies below all the water: the water must reach below the horizon's row"
    )]
    #[non_exhaustive]
    HorizonBelowWater {
        /// The horizon's row.
        horizon: f32,
    },
    /// A name that was renamed: "render mode 'default' is now called 'lit' (the default look
    /// is 'natural')".
    #[error("{what} '{old}' is now called '{new}' ({note})")]
    #[non_exhaustive]
    Renamed {
        /// The setting ("render mode").
        what: &'static str,
        /// The name given, the old one.
        old: &'static str,
        /// Its new name.
        new: &'static str,
        /// A note on the change.
        note: &'static str,
    },
    /// A kernel backend this CPU lacks.
    #[error(
        "backend '{backend}' is not available on this CPU (available: {})",
        .available.iter().map(|backend| backend.name()).collect::<Vec<_>>().join(", ")
    )]
    #[non_exhaustive]
    BackendUnavailable {
        /// The backend asked for.
        backend: crate::Backend,
        /// Those this CPU has.
        available: Vec<crate::Backend>,
    },
}

/// Which buffer an [`Error::WrongLength`] is about; each counts its length its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Buffer {
    /// A wall per cell ("obstacle mask has 3 cells, expected 4 for 2x2").
    ObstacleMask,
    /// A flag per pixel ("water mask has 3 flags, expected 4 for 2x2").
    WaterMask,
    /// RGBA bytes of a float's picture ("float image has 3 bytes, expected 16 for 2x2 RGBA").
    FloatImage,
    /// A height per cell of a solver's grid ("heights have 3 cells, expected 4 for the 2x2
    /// grid").
    Heights,
    /// Four floats per pixel of a field's surface at a scale ("surface: 3 floats for a 2x2
    /// field at scale 1, expected 16").
    Surface {
        /// Pixels per cell.
        scale: u32,
    },
}

/// The message of [`Error::WrongLength`].
fn wrong_length(
    buffer: &Buffer,
    got: usize,
    expected: usize,
    width: usize,
    height: usize,
) -> String {
    match buffer {
        Buffer::ObstacleMask => {
            format!("obstacle mask has {got} cells, expected {expected} for {width}x{height}")
        }
        Buffer::WaterMask => {
            format!("water mask has {got} flags, expected {expected} for {width}x{height}")
        }
        Buffer::FloatImage => {
            format!("float image has {got} bytes, expected {expected} for {width}x{height} RGBA")
        }
        Buffer::Heights => {
            format!("heights have {got} cells, expected {expected} for the {width}x{height} grid")
        }
        Buffer::Surface { scale } => format!(
            "surface: {got} floats for a {width}x{height} field at scale {scale}, expected {expected}"
        ),
    }
}

impl Error {
    /// This error about `context` (an item of a scene, a table): see [`Error::In`].
    pub fn in_context(self, context: impl Into<String>) -> Error {
        Error::In {
            context: context.into(),
            source: Box::new(self),
        }
    }

    /// A number that breaks the rule worded `rule`: see [`Error::NotAllowed`].
    pub(crate) fn not_allowed(
        name: impl Into<String>,
        value: impl Into<Number>,
        rule: impl Into<String>,
    ) -> Error {
        Error::NotAllowed {
            name: name.into(),
            value: value.into(),
            rule: rule.into(),
        }
    }

    /// The one of `all` whose `name` is `text`, else [`Error::UnknownName`] listing every name
    /// ("'reflect' or 'absorb'"): the `FromStr` of a setting chosen by name (`what`), so its
    /// names are written once, in its `name`, and the error cannot forget one.
    pub(crate) fn parse_name<T: Copy>(
        what: &'static str,
        text: &str,
        all: &[T],
        name: fn(T) -> &'static str,
    ) -> Result<T, Error> {
        if let Some(&found) = all.iter().find(|&&each| name(each) == text) {
            return Ok(found);
        }
        let quoted: Vec<String> = all
            .iter()
            .map(|&each| format!("'{}'", name(each)))
            .collect();
        let expected = match quoted.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, others)) => format!("{} or {last}", others.join(", ")),
            None => String::new(),
        };
        Err(Error::UnknownName {
            what,
            expected,
            got: text.to_string(),
        })
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

#[cfg(test)]
mod tests {
    use crate::{Boundary, RenderMode, SolverKind};

    #[test]
    fn a_name_none_of_a_setting_takes_is_refused_with_every_name_listed() {
        let refused = [
            (
                "fast".parse::<SolverKind>().unwrap_err(),
                "solver must be 'classic', 'wave', 'spring' or 'dispersive', got 'fast'",
            ),
            (
                "wrap".parse::<Boundary>().unwrap_err(),
                "boundary must be 'reflect' or 'absorb', got 'wrap'",
            ),
            (
                "fancy".parse::<RenderMode>().unwrap_err(),
                "render mode must be 'natural', 'lit', 'classic' or 'spring', got 'fancy'",
            ),
            (
                "default".parse::<RenderMode>().unwrap_err(),
                "render mode 'default' is now called 'lit' (the default look is 'natural')",
            ),
        ];
        for (error, message) in refused {
            assert_eq!(error.to_string(), message);
        }
    }

    #[test]
    fn every_name_parses_to_its_setting() {
        for kind in SolverKind::ALL {
            assert_eq!(kind.name().parse::<SolverKind>(), Ok(kind));
        }
        for mode in RenderMode::ALL {
            assert_eq!(mode.name().parse::<RenderMode>(), Ok(mode));
        }
        assert_eq!("reflect".parse::<Boundary>(), Ok(Boundary::Reflect));
        assert_eq!("absorb".parse::<Boundary>(), Ok(Boundary::Absorb));
    }
}
