//! A directory of numbered RGBA PNG files, `frame_00000.png`, `frame_00001.png`, ...
//!
//! Frames are written into a hidden staging directory inside the target and moved next to it
//! by `finish`, so an interrupted render leaves the directory as it was.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use tempfile::TempDir;

use super::{AnimationInfo, FrameSink, TEMP_PREFIX, check_frame_len, check_some_frames_written};

/// Frame numbers get at least this many digits.
const MIN_FRAME_DIGITS: usize = 5;

/// Writes one PNG per frame into a staging directory, moved into place by `finish`.
pub(super) struct DirSink {
    target: PathBuf,
    /// `None` once finished.
    staging: Option<TempDir>,
    /// Directories this sink created, innermost first; removed again if left empty by an
    /// unfinished render.
    created_dirs: Vec<PathBuf>,
    info: AnimationInfo,
    digits: usize,
    frames_written: u32,
}

impl DirSink {
    pub(super) fn create(target: &Path, info: &AnimationInfo) -> Result<DirSink> {
        let created_dirs = missing_directories(target);
        fs::create_dir_all(target).map_err(|error| {
            anyhow!(
                "cannot create output directory '{}': {error}",
                target.display()
            )
        })?;
        let mut sink = DirSink {
            target: target.to_path_buf(),
            staging: None,
            created_dirs,
            info: info.clone(),
            digits: frame_number_digits(info.frames),
            frames_written: 0,
        };
        // Assigned after construction so that, on failure, Drop removes what was created.
        sink.staging = Some(
            tempfile::Builder::new()
                .prefix(TEMP_PREFIX)
                .tempdir_in(target)
                .map_err(|error| {
                    anyhow!(
                        "cannot write in output directory '{}': {error}",
                        target.display()
                    )
                })?,
        );
        Ok(sink)
    }

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
}

impl FrameSink for DirSink {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<()> {
        check_frame_len(rgba, &self.info)?;
        let path = self
            .staging_dir()?
            .join(self.frame_name(self.frames_written));
        write_png(&path, self.info.width, self.info.height, rgba).map_err(|error| {
            anyhow!(
                "cannot write frame {} of '{}': {error}",
                self.frames_written,
                self.target.display()
            )
        })?;
        self.frames_written += 1;
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<()> {
        check_some_frames_written(&self.target, self.frames_written)?;
        let staging = self.staging_dir()?;
        for index in 0..self.frames_written {
            let name = self.frame_name(index);
            let destination = self.target.join(&name);
            fs::rename(staging.join(&name), &destination).map_err(|error| {
                anyhow!("cannot move frame to '{}': {error}", destination.display())
            })?;
        }
        // From here on the target holds the frames; never remove it.
        self.created_dirs.clear();
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
}

impl Drop for DirSink {
    fn drop(&mut self) {
        // Removes the staging directory and the frames in it.
        drop(self.staging.take());
        for dir in &self.created_dirs {
            // Fails, and stops, at the first directory that is not empty.
            if fs::remove_dir(dir).is_err() {
                break;
            }
        }
    }
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
