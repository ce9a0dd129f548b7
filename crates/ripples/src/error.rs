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
    /// A pool or image larger than [`crate::MAX_SIDE`] per side or [`crate::MAX_CELLS`] in all.
    #[error(
        "size {width}x{height} is too large: at most {max_side} per side and {max_cells} cells in all",
        max_side = crate::MAX_SIDE,
        max_cells = crate::MAX_CELLS
    )]
    TooLarge {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
    },
    /// A buffer whose length does not match the pool.
    #[error("{what} has {got} elements, expected {expected} for {width}x{height}")]
    BufferSize {
        /// Which buffer ("source image", "destination frame").
        what: &'static str,
        /// Elements found.
        got: usize,
        /// Elements needed.
        expected: usize,
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
    },
    /// A parameter outside its valid range; the message names it and the value.
    #[error("{0}")]
    Invalid(String),
}

/// Checks that `value` lies in `min..=max`, naming the parameter in the error.
pub(crate) fn check_range<T>(name: &str, value: T, min: T, max: T) -> Result<T, Error>
where
    T: PartialOrd + std::fmt::Display + Copy,
{
    if value < min {
        Err(Error::Invalid(format!(
            "{name} must be >= {min}, got {value}"
        )))
    } else if value > max {
        Err(Error::Invalid(format!(
            "{name} must be <= {max}, got {value}"
        )))
    } else {
        Ok(value)
    }
}

/// Checks a pool or image size against the limits, before anything is allocated.
pub fn check_size(width: u64, height: u64) -> Result<(u32, u32), Error> {
    if width == 0 || height == 0 {
        return Err(Error::EmptySize { width, height });
    }
    if width > crate::MAX_SIDE as u64
        || height > crate::MAX_SIDE as u64
        || width * height > crate::MAX_CELLS as u64
    {
        return Err(Error::TooLarge { width, height });
    }
    Ok((width as u32, height as u32))
}
