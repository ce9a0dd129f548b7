//! The `ripples` command as a library, so integration tests and fuzz targets can reach its
//! parts. The folders follow the data through a render, each using only those below it:
//!
//! - [`output`]: the sinks that encode frames into files (GIF, APNG, Y4M, ffmpeg's MP4 and
//!   WebM, frame directories, NumPy heights), written under temporary names and committed at
//!   the end; the cleanup of those names and of child processes, and Ctrl-C.
//! - [`input`]: what the water is made from: pictures (PNG, JPEG), video clips (through
//!   ffprobe and ffmpeg), height fields, scene files, fitting a picture to the pool, the
//!   background colour.
//! - [`cli`]: the command line: the arguments, the setup that turns them and a scene file into
//!   a pool, the warnings for options that do nothing, the guard against overwriting an input.
//! - [`render`]: `ripples render`: frames simulated and streamed to a sink, stills, seamless
//!   loops, the liveliness of a render with nothing asked for.
//! - [`play`]: `ripples play`, the desktop window (the default `play` feature), and
//!   [`bench`](mod@bench): `ripples bench`.

#![forbid(unsafe_code)]

pub mod bench;
pub mod cli;
pub mod input;
pub mod output;
#[cfg(feature = "play")]
pub mod play;
pub mod render;

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
