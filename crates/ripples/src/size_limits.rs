//! The largest pool or image, apart from the other limits: both the checks of
//! [`crate::limits`], which re-exports these, and the error that refuses a size
//! ([`crate::Error::TooLarge`]) state them, and the error sits below the checks.

/// Largest pool or image side, in cells or pixels.
pub const MAX_SIDE: u32 = 16384;
/// Most cells (or pixels) in one pool or image: 8192 x 8192.
pub const MAX_CELLS: u32 = 1 << 26;
