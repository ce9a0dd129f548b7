//! The `ripples` command as a library, so integration tests and fuzz targets can reach its
//! parts: argument parsing, scene files, image input, rendering, the output writers, the
//! benchmark and (with the default `play` feature) the desktop window.

#![forbid(unsafe_code)]

pub mod args;
pub mod background;
pub mod bench;
pub mod fit;
pub mod heights_in;
pub mod inert_options;
pub mod input_guard;
pub mod interrupt;
pub mod lively;
pub mod output;
pub mod panics;
#[cfg(feature = "play")]
pub mod play;
pub mod render;
pub mod scene_file;
pub mod seamless_loop;
pub mod setup;
pub mod source_image;
pub mod still;
pub mod video_input;
pub mod water_mask;

/// An error in how the command was invoked (exit code 2), as opposed to a failure while doing
/// the work (exit code 1).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}
