//! Refusing a render whose output would overwrite one of its inputs.
//!
//! `ripples render in.png --out in.png` would read the picture and then, at the end, put the
//! animation in its place: the picture is gone. So before anything is read or written, every
//! output (`--out`, `--heights-out`) is compared with every input (the image, the obstacles,
//! the spring maps, the scene file, `--heights-in`, and the image and maps the scene file
//! names), and a match
//! is a usage error that names both.
//!
//! "The same file" is decided on what the paths lead to, not on how they are spelled: canonical
//! paths (so `./a/../in.png` and a symbolic link to `in.png` are `in.png`), and on Unix the
//! device and inode too (so a hard link, a second name for the same data, is caught). An output
//! that does not exist yet cannot be an input. A directory output writes `frame_00000.png`,
//! `frame_00001.png`, ...: an input that is one of the frames it will write is refused, while an
//! input merely lying in that directory is not. The two outputs are compared with each other
//! the same way.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::UsageError;
use crate::cli::args::RenderArgs;
use crate::cli::setup::input_files;
use crate::input::InputFile;
use crate::input::scene_file::SceneFile;
use crate::output::OutputKind;

/// Frame numbers in a directory output's file names have at least this many digits (as
/// `output::dir_sink` writes them).
const MIN_FRAME_DIGITS: usize = 5;

/// What an existing path leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileIdentity {
    /// The canonical path: links followed, `.` and `..` resolved.
    canonical: PathBuf,
    /// Device and inode, where the system has them.
    device_inode: Option<(u64, u64)>,
}

impl FileIdentity {
    /// The identity of `path`, or `None` when nothing exists there (yet).
    fn of(path: &Path) -> Option<Self> {
        let metadata = std::fs::metadata(path).ok()?;
        let canonical = std::fs::canonicalize(path).ok()?;
        Some(Self {
            canonical,
            device_inode: device_inode(&metadata),
        })
    }

    fn is_same_file(&self, other: &Self) -> bool {
        self.canonical == other.canonical
            || (self.device_inode.is_some() && self.device_inode == other.device_inode)
    }
}

#[cfg(unix)]
fn device_inode(metadata: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn device_inode(_metadata: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// Refuses, as a usage error, a render of `args` (with `scene_file` loaded from `--scene`)
/// whose `--out` or `--heights-out` is the same file as one of its inputs, or as each other.
pub fn refuse_outputs_over_inputs(args: &RenderArgs, scene_file: Option<&SceneFile>) -> Result<()> {
    let heights_in = crate::input::heights_in::heights_input(args.heights_in.as_ref(), scene_file);
    let inputs: Vec<(InputFile, FileIdentity)> = input_files(&args.water, scene_file)
        .into_iter()
        .chain(heights_in)
        .filter_map(|input| FileIdentity::of(&input.path).map(|identity| (input, identity)))
        .collect();
    let is_directory = matches!(OutputKind::from_path(args.out()), Ok(OutputKind::Directory));
    if is_directory {
        let frames = args
            .frames
            .or(scene_file.map(|file| file.scene.frames))
            .unwrap_or_else(|| ripples::Scene::default().frames);
        refuse_frames_over_inputs(args.out(), frames, &inputs)?;
    } else {
        refuse_file_over_inputs("output", args.out(), &inputs)?;
    }
    if let Some(heights) = &args.heights_out {
        refuse_file_over_inputs("heights output", heights, &inputs)?;
        if !is_directory && resolved(heights) == resolved(args.out()) {
            return Err(UsageError(format!(
                "heights output '{}' is the output '{}'{}; give them different names",
                heights.display(),
                args.out().display(),
                same_file_note(heights, args.out())
            ))
            .into());
        }
    }
    Ok(())
}

/// Refuses an output file at `path` that is one of `inputs`.
fn refuse_file_over_inputs(
    what: &str,
    path: &Path,
    inputs: &[(InputFile, FileIdentity)],
) -> Result<()> {
    let Some(output) = FileIdentity::of(path) else {
        return Ok(());
    };
    match inputs.iter().find(|(_, input)| input.is_same_file(&output)) {
        Some((input, _)) => Err(UsageError(format!(
            "{what} '{}' is {} '{}'{}; writing it would destroy that input: choose another \
             output path",
            path.display(),
            input.role,
            input.path.display(),
            same_file_note(path, &input.path)
        ))
        .into()),
        None => Ok(()),
    }
}

/// Refuses a directory output at `directory` with `frames` frames that would write over one of
/// `inputs`: one of the frame files already there (under its own name, a link or a hard link)
/// is an input.
fn refuse_frames_over_inputs(
    directory: &Path,
    frames: u32,
    inputs: &[(InputFile, FileIdentity)],
) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(directory) else {
        // Not there yet: nothing in it can be an input.
        return Ok(());
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(frame) = file_name
            .to_str()
            .and_then(|name| frame_number(name, frames))
        else {
            continue;
        };
        let Some(existing) = FileIdentity::of(&entry.path()) else {
            continue;
        };
        if let Some((input, _)) = inputs
            .iter()
            .find(|(_, input)| input.is_same_file(&existing))
        {
            return Err(UsageError(format!(
                "output directory '{}' would overwrite {} '{}' with frame {frame} (it writes {} \
                 to {}); choose another output directory",
                directory.display(),
                input.role,
                input.path.display(),
                frame_name(0, frames),
                frame_name(frames.saturating_sub(1), frames)
            ))
            .into());
        }
    }
    Ok(())
}

/// The frame number `name` has among the `frames` files a directory output writes, if it is
/// one of them.
fn frame_number(name: &str, frames: u32) -> Option<u32> {
    let digits = name.strip_prefix("frame_")?.strip_suffix(".png")?;
    if digits.len() != frame_digits(frames) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|&frame| frame < frames)
}

/// Digits of the frame numbers: enough for the last, and at least [`MIN_FRAME_DIGITS`].
fn frame_digits(frames: u32) -> usize {
    let last = frames.saturating_sub(1);
    (last.checked_ilog10().unwrap_or(0) as usize + 1).max(MIN_FRAME_DIGITS)
}

fn frame_name(frame: u32, frames: u32) -> String {
    format!("frame_{frame:0width$}.png", width = frame_digits(frames))
}

/// Where a path that may not exist yet leads: canonical if it exists, else its directory made
/// canonical (when it exists) joined with its name, else the absolute path as written.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(canonical) = std::fs::canonicalize(path) {
        return canonical;
    }
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(parent), path.file_name()) {
        (Ok(parent), Some(name)) => parent.join(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

/// " (the same file)" when two paths that lead to one file are spelled differently.
fn same_file_note(a: &Path, b: &Path) -> &'static str {
    if a == b { "" } else { " (the same file)" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_names_match_what_a_directory_output_writes() {
        assert_eq!(frame_number("frame_00000.png", 120), Some(0));
        assert_eq!(frame_number("frame_00119.png", 120), Some(119));
        assert_eq!(frame_number("frame_00120.png", 120), None);
        assert_eq!(frame_number("frame_0001.png", 120), None);
        assert_eq!(frame_number("frame_+0001.png", 120), None);
        assert_eq!(frame_number("frame_00001.jpg", 120), None);
        assert_eq!(frame_number("photo.png", 120), None);
        assert_eq!(frame_number("frame_99999.png", 100_000), Some(99_999));
        assert_eq!(frame_number("frame_099999.png", 100_000), None);
        assert_eq!(frame_name(7, 120), "frame_00007.png");
    }

    #[test]
    fn paths_are_resolved_before_they_exist() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("sub/../out.gif");
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        assert_eq!(resolved(&a), resolved(&dir.path().join("out.gif")));
        assert!(FileIdentity::of(&a).is_none());
    }
}
