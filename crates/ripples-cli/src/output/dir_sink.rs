//! A directory of numbered RGBA PNG files, `frame_00000.png`, `frame_00001.png`, ...
//!
//! Frames are written into a hidden staging directory inside the target
//! (`.ripples-<pid>-XXXXXX/`) and moved next to it by the commit, so an interrupted render
//! leaves the directory as it was. The staging directory and the directories made for the
//! output are entered in the [`cleanup`] registry, and the moves happen with
//! it locked, so even a second Ctrl-C leaves either the old frames or all the new ones.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use tempfile::TempDir;

use super::cleanup::{self, Leftover, Registration};
use super::{
    AnimationInfo, FinishedOutput, FrameSink, OutputOptions, Staged, Written, check_frame_len,
    check_some_frames_written,
};

/// Frame numbers get at least this many digits.
const MIN_FRAME_DIGITS: usize = 5;

/// Writes one PNG per frame into a staging directory, moved into place by the commit.
pub(super) struct DirSink {
    staged: StagedFrames,
    info: AnimationInfo,
}

/// Frames written into a staging directory, waiting to be moved into the target directory.
/// Dropping it removes the staging directory and the directories made for the output (if they
/// hold nothing else).
pub(super) struct StagedFrames {
    target: PathBuf,
    /// `None` once committed.
    staging: Option<TempDir>,
    /// Directories this sink created, innermost first; removed again if left empty by an
    /// unfinished render.
    created_dirs: Vec<PathBuf>,
    /// The registry entries of the staging directory and the created directories; dropped
    /// after them.
    registrations: Vec<Registration>,
    digits: usize,
    frames_written: u32,
    /// Whether frames may replace files of the same names (false for `--no-clobber`).
    replace: bool,
}

impl DirSink {
    pub(super) fn create(
        target: &Path,
        info: &AnimationInfo,
        options: &OutputOptions,
    ) -> Result<DirSink> {
        let created_dirs = missing_directories(target);
        // Outermost first, so that the cleanup (newest first) removes the innermost first.
        let mut registrations: Vec<Registration> = created_dirs
            .iter()
            .rev()
            .map(|dir| cleanup::register(Leftover::EmptyDirectory(dir.clone())))
            .collect();
        let created = fs::create_dir_all(target).map_err(|error| {
            anyhow!(
                "cannot create output directory '{}': {error}",
                target.display()
            )
        });
        let mut staged = StagedFrames {
            target: target.to_path_buf(),
            staging: None,
            created_dirs,
            registrations: Vec::new(),
            digits: frame_number_digits(info.frames),
            frames_written: 0,
            replace: !options.no_clobber,
        };
        // From here on, on failure, Drop removes what was created.
        staged.registrations.append(&mut registrations);
        created?;
        let staging = tempfile::Builder::new()
            .prefix(&cleanup::temp_prefix())
            .tempdir_in(target)
            .map_err(|error| {
                anyhow!(
                    "cannot write in output directory '{}': {error}",
                    target.display()
                )
            })?;
        staged
            .registrations
            .push(cleanup::register(Leftover::Directory(
                staging.path().to_path_buf(),
            )));
        staged.staging = Some(staging);
        Ok(DirSink {
            staged,
            info: info.clone(),
        })
    }
}

impl StagedFrames {
    fn frame_name(&self, index: u32) -> String {
        frame_file_name(index, self.digits)
    }

    fn staging_dir(&self) -> Result<&Path> {
        self.staging.as_ref().map(TempDir::path).ok_or_else(|| {
            anyhow!(
                "output directory '{}' was already finished",
                self.target.display()
            )
        })
    }

    /// Moves every frame from the staging directory into the target: replacing frames of the
    /// same names, or, without `replace`, failing (and taking back the frames moved) if one
    /// appeared since the output was opened.
    pub(super) fn commit(mut self) -> Result<()> {
        let registrations = std::mem::take(&mut self.registrations);
        let moved = cleanup::commit_with(registrations, || self.move_frames());
        if moved.is_ok() {
            // From here on the target holds the frames; never remove it.
            self.created_dirs.clear();
        }
        moved?;
        if let Some(staging) = self.staging.take() {
            let staging_path = staging.path().to_path_buf();
            staging.close().map_err(|error| {
                anyhow!(
                    "cannot remove staging directory '{}': {error}",
                    staging_path.display()
                )
            })?;
        }
        Ok(())
    }

    fn move_frames(&self) -> Result<()> {
        let staging = self.staging_dir()?;
        for index in 0..self.frames_written {
            let name = self.frame_name(index);
            let destination = self.target.join(&name);
            let source = staging.join(&name);
            let moved = if self.replace {
                fs::rename(&source, &destination)
            } else {
                // A hard link fails if the name exists, which a rename would replace.
                fs::hard_link(&source, &destination).and_then(|()| fs::remove_file(&source))
            };
            if let Err(error) = moved {
                if !self.replace && error.kind() == std::io::ErrorKind::AlreadyExists {
                    self.take_back_frames(index);
                    bail!(
                        "output '{}': '{}' appeared while rendering; --no-clobber keeps it \
                         (no new frame was saved)",
                        self.target.display(),
                        destination.display()
                    );
                }
                bail!("cannot move frame to '{}': {error}", destination.display());
            }
        }
        Ok(())
    }

    /// Removes the first `count` frames again, which a failed no-clobber commit moved.
    fn take_back_frames(&self, count: u32) {
        for index in 0..count {
            // The frame is ours: it was linked under this name a moment ago.
            let _ = fs::remove_file(self.target.join(self.frame_name(index)));
        }
    }
}

impl FrameSink for DirSink {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<()> {
        check_frame_len(rgba, &self.info)?;
        let staged = &mut self.staged;
        let path = staged
            .staging_dir()?
            .join(staged.frame_name(staged.frames_written));
        write_png(&path, self.info.width, self.info.height, rgba).map_err(|error| {
            anyhow!(
                "cannot write frame {} of '{}': {error}",
                staged.frames_written,
                staged.target.display()
            )
        })?;
        staged.frames_written += 1;
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<FinishedOutput> {
        let DirSink { staged, info } = *self;
        check_some_frames_written(&staged.target, staged.frames_written)?;
        let written = Written {
            frames: staged.frames_written,
            ..Written::as_rendered(&info)
        };
        Ok(FinishedOutput {
            written,
            staged: Staged::Frames(staged),
        })
    }
}

impl Drop for StagedFrames {
    fn drop(&mut self) {
        // Removes the staging directory and the frames in it.
        drop(self.staging.take());
        for dir in &self.created_dirs {
            // Fails, and stops, at the first directory that is not empty.
            if fs::remove_dir(dir).is_err() {
                break;
            }
        }
        // `registrations` are forgotten after this, when the fields drop.
    }
}

/// The first frame file (by name) that a render of `frames` frames into `target` would
/// replace, if any.
pub(super) fn first_existing_frame(target: &Path, frames: u32) -> Option<PathBuf> {
    let digits = frame_number_digits(frames);
    let would_write = |name: &str| {
        let Some(number) = name
            .strip_prefix("frame_")
            .and_then(|rest| rest.strip_suffix(".png"))
        else {
            return false;
        };
        number.len() == digits
            && number.bytes().all(|byte| byte.is_ascii_digit())
            && number.parse::<u32>().is_ok_and(|index| index < frames)
    };
    fs::read_dir(target)
        .ok()?
        .flatten()
        .filter(|entry| entry.file_name().to_str().is_some_and(would_write))
        .map(|entry| entry.path())
        .min()
}

/// `target` and those of its ancestors that do not exist yet, innermost first.
fn missing_directories(target: &Path) -> Vec<PathBuf> {
    target
        .ancestors()
        .filter(|dir| !dir.as_os_str().is_empty())
        .take_while(|dir| {
            fs::symlink_metadata(dir)
                .is_err_and(|error| error.kind() == std::io::ErrorKind::NotFound)
        })
        .map(Path::to_path_buf)
        .collect()
}

/// Enough digits for the last frame number, and at least [`MIN_FRAME_DIGITS`].
pub(super) fn frame_number_digits(frames: u32) -> usize {
    let last = frames.saturating_sub(1);
    (last.checked_ilog10().unwrap_or(0) as usize + 1).max(MIN_FRAME_DIGITS)
}

pub(super) fn frame_file_name(index: u32, digits: usize) -> String {
    format!("frame_{index:0digits$}.png")
}

/// Writes one RGBA image as a PNG file.
fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> std::io::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    out.flush()
}
