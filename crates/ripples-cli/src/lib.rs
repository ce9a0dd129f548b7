//! The `ripples` command as a library, so integration tests and fuzz targets can reach its parts.

pub mod output;
