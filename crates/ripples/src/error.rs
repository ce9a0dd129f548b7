//! The library's error type.
//!
//! One small enum for everything the core can refuse. Messages name the problem and the value
//! ("damping shift must be in 1..=15, got 0") so that front ends can print them as they are.

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
        max_side = crate::size_limits::MAX_SIDE,
        max_cells = crate::size_limits::MAX_CELLS
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
    /// A parameter outside its valid range; the message names it and the value.
    #[error("{0}")]
    Invalid(String),
}
