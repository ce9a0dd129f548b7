//! What the water is made from: the picture under it ([`source_image`], PNG or JPEG, or a
//! frame of a clip, [`video_input`]), a starting height field ([`heights_in`]), a scene file
//! ([`scene_file`]), and how a picture meets a pool of another shape ([`fit`],
//! [`background`]). Each reader checks its input against the limits before decoding, and a
//! decoder's panic is contained as the file's error ([`panics`]). It uses only
//! [`crate::output`] (the cleanup of ffmpeg's child processes, Ctrl-C); the command line above
//! it decides which files to read.
//!
//! What every input shares lives here: the name of standard input and a file with its role;
//! an input that is a pipe or a device is read through [`pipes`].

use std::path::{Path, PathBuf};

pub mod background;
pub mod fit;
pub mod heights_in;
pub mod panics;
pub mod pipes;
pub mod scene_file;
pub mod source_image;
pub mod video_input;
pub mod water_mask;

/// The path that names standard input for the IMAGE argument and `--scene`.
pub const STANDARD_INPUT: &str = "-";

/// Whether `path`, given on the command line, names standard input.
pub fn is_standard_input(path: &Path) -> bool {
    path.as_os_str() == STANDARD_INPUT
}

/// A file the water is made from, and what it is for (for messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFile {
    /// What the file is, e.g. "the input image" or "the scene's obstacles image".
    pub role: String,
    /// Its path as given (relative to the scene file's directory, for the scene's own paths).
    pub path: PathBuf,
    /// How errors about its contents name it: the option or the scene's key (with the file and
    /// line) and the path as written, e.g. `--obstacles 'walls.png'` or `scene 'x.toml' line
    /// 3: sky 'sky.jpg'`.
    pub label: String,
}
