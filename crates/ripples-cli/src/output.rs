//! Animation writers: turn a stream of RGBA frames into a GIF, an animated PNG, a Y4M video,
//! an MP4 or WebM (through `ffmpeg`), or a directory of numbered PNG files.
//!
//! The module is shaped by four needs:
//!
//! - **Streaming.** A long animation does not fit in memory, so every format is a [`FrameSink`]
//!   that takes one frame at a time and keeps only what it needs to encode the next one.
//! - **Atomic results.** A render can fail or be interrupted halfway. Every sink writes into a
//!   hidden temporary file (or staging directory) beside the target. [`FrameSink::finish`]
//!   completes it and returns a [`FinishedOutput`]; only [`FinishedOutput::commit`] moves it
//!   under the requested name. Between the two the caller can prepare a second output (the
//!   heights), so that either both land or neither does. A sink or finished output dropped
//!   without committing removes its temporaries, so the requested name never holds a truncated
//!   file, and a file already there survives a failed render unchanged. The [`cleanup`]
//!   registry does the same for an exit that skips destructors (a second Ctrl-C), and a later
//!   run removes what a killed one left.
//! - **Saying what was written.** Some formats cannot hold the animation exactly (a GIF plays
//!   at most 50 frames per second, H.264 needs even sizes); the [`Written`] a sink reports says
//!   how the file differs, and the command prints it.
//! - **Stable GIF colours.** A GIF holds at most 256 colours. Choosing them frame by frame makes
//!   still water shimmer as the palette shifts, so the GIF writer derives one palette for the
//!   whole animation from sample pixels given up front and maps every pixel through a lookup
//!   table built once, without dithering (which would flicker too).
//!
//! Whatever can be checked cheaply (the kind, the directory, the frame rate, an existing file
//! under `--no-clobber`) is checked by [`open_output`], before the caller spends time rendering.
//! The output `-` is standard output, for the formats that can be streamed.

pub mod cleanup;

mod apng_sink;
mod dir_sink;
mod ffmpeg_sink;
mod gif_sink;
mod npy;
mod still_sink;
mod y4m_sink;

use std::ffi::OsStr;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use tempfile::TempPath;

pub use npy::{stage_npy_f32, stage_npy_i16, write_npy_f32, write_npy_i16};
pub use still_sink::StillPngSink;

use apng_sink::ApngSink;
use cleanup::{Leftover, Registration};
use dir_sink::{DirSink, StagedFrames};
use ffmpeg_sink::{DEFAULT_STALL_TIMEOUT, FfmpegSink, VideoCodec};
use gif_sink::GifSink;
use y4m_sink::Y4mSink;

/// The list of accepted outputs, quoted in error messages.
const EXPECTED_OUTPUTS: &str =
    "expected .gif, .png, .y4m, .mp4, .webm or a directory ending in '/'";

/// The `--format` names, quoted in error messages.
pub const FORMAT_NAMES: &str = "gif, png, y4m, mp4, webm";

/// What kind of file an output path asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// An animated GIF with one global palette (`.gif`).
    Gif,
    /// An animated PNG, lossless RGBA (`.png`).
    Apng,
    /// An uncompressed YUV4MPEG2 video, 4:2:0 (`.y4m`).
    Y4m,
    /// An H.264 video in an MP4 container, encoded by ffmpeg (`.mp4`).
    Mp4,
    /// A VP9 video in a WebM container, encoded by ffmpeg (`.webm`).
    Webm,
    /// A directory of numbered RGBA PNG files, one per frame.
    Directory,
}

impl OutputKind {
    /// Directory when the path ends in '/' (or the platform separator) or is an existing directory;
    /// otherwise by extension, case-insensitive: .gif, .png (animated PNG), .y4m, .mp4, .webm.
    /// Anything else (including no extension) is an error naming the path and the extension.
    pub fn from_path(path: &Path) -> Result<OutputKind> {
        if ends_with_separator(path) || path.is_dir() {
            return Ok(OutputKind::Directory);
        }
        let Some(extension) = path.extension() else {
            bail!(
                "output '{}': no file extension ({EXPECTED_OUTPUTS}, or give --format)",
                path.display()
            );
        };
        let extension = extension.to_string_lossy();
        OutputKind::from_format_name(&extension).map_err(|_| {
            anyhow!(
                "output '{}': unknown extension '.{extension}' ({EXPECTED_OUTPUTS})",
                path.display()
            )
        })
    }

    /// The kind a `--format` value (or an extension) names, case-insensitive: gif, png (also
    /// apng), y4m, mp4, webm.
    pub fn from_format_name(name: &str) -> Result<OutputKind> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "gif" => OutputKind::Gif,
            "png" | "apng" => OutputKind::Apng,
            "y4m" => OutputKind::Y4m,
            "mp4" => OutputKind::Mp4,
            "webm" => OutputKind::Webm,
            _ => bail!("unknown format '{name}' (expected one of {FORMAT_NAMES})"),
        })
    }

    /// The kind of the output `path` with an optional `--format`: the format when given (it
    /// overrides the extension), else from the path; for `-` (standard output) the format, GIF
    /// by default. A directory output cannot take a format.
    pub fn for_output(path: &Path, format: Option<OutputKind>) -> Result<OutputKind> {
        let Some(format) = format else {
            if is_standard_output(path) {
                return Ok(OutputKind::Gif);
            }
            return OutputKind::from_path(path);
        };
        if !is_standard_output(path) && (ends_with_separator(path) || path.is_dir()) {
            bail!(
                "output '{}' is a directory of PNG frames; --format {} asks for one file",
                path.display(),
                format.format_name()
            );
        }
        Ok(format)
    }

    /// The `--format` name of this kind (`frames` for a directory, which has none).
    pub fn format_name(self) -> &'static str {
        match self {
            OutputKind::Gif => "gif",
            OutputKind::Apng => "png",
            OutputKind::Y4m => "y4m",
            OutputKind::Mp4 => "mp4",
            OutputKind::Webm => "webm",
            OutputKind::Directory => "frames",
        }
    }
}

impl std::str::FromStr for OutputKind {
    type Err = String;

    /// A `--format` value; see [`OutputKind::from_format_name`].
    fn from_str(name: &str) -> Result<OutputKind, String> {
        OutputKind::from_format_name(name).map_err(|error| error.to_string())
    }
}

/// Whether `path` is `-`, standard output.
pub fn is_standard_output(path: &Path) -> bool {
    path.as_os_str() == "-"
}

fn ends_with_separator(path: &Path) -> bool {
    path.as_os_str()
        .as_encoded_bytes()
        .last()
        .is_some_and(|&byte| byte.is_ascii() && std::path::is_separator(char::from(byte)))
}

/// How to write an output, beside its path.
#[derive(Debug, Clone, Default)]
pub struct OutputOptions {
    /// The format, overriding the path's extension (and naming the format for `-`).
    pub format: Option<OutputKind>,
    /// Never replace an existing file: refuse up front when the output exists, and fail
    /// rather than replace a file that appears under its name while rendering.
    pub no_clobber: bool,
    /// A sound track to put beside the frames (MP4 and WebM; the other formats have none).
    pub sound: Option<SoundTrack>,
}

/// The sound of a clip, for an output that carries sound: encoded by the same ffmpeg that
/// encodes the frames (AAC in MP4, Opus in WebM), from `start` for `seconds`.
#[derive(Debug, Clone, PartialEq)]
pub struct SoundTrack {
    /// The clip.
    pub path: PathBuf,
    /// Seconds into the clip where the sound starts.
    pub start: f64,
    /// Seconds of sound: the animation's length at most, so the sound never outlasts it.
    pub seconds: f64,
}

/// Facts about the animation a sink needs up front.
#[derive(Debug, Clone)]
pub struct AnimationInfo {
    /// Frame width in pixels.
    pub width: u32,
    /// Frame height in pixels.
    pub height: u32,
    /// Frames per second; finite and positive.
    pub fps: f64,
    /// How many frames will be written. Animated PNG announces it in its header, the frame
    /// directory uses it to choose how many digits frame numbers get, and a GIF above 50 fps
    /// to spread the frames it keeps over the animation's length.
    pub frames: u32,
}

impl AnimationInfo {
    /// Bytes in one RGBA frame. Only called after [`check_animation_info`] has checked that
    /// this fits in `usize`.
    fn frame_len(&self) -> usize {
        rgba_len(self.width, self.height).unwrap_or(usize::MAX)
    }
}

fn rgba_len(width: u32, height: u32) -> Option<usize> {
    usize::try_from(width)
        .ok()?
        .checked_mul(usize::try_from(height).ok()?)?
        .checked_mul(4)
}

/// What an output holds, to be told to the user: frames and size as stored, and how they
/// differ from the rendered animation, if they do.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// Frames stored.
    pub frames: u32,
    /// Stored frame width in pixels.
    pub width: u32,
    /// Stored frame height in pixels.
    pub height: u32,
    /// Each way the output differs from the animation as rendered, as a phrase for the final
    /// message ("451x300 padded to 452x300 ...").
    pub changes: Vec<String>,
}

impl Written {
    /// Every frame, at the rendered size.
    pub fn as_rendered(info: &AnimationInfo) -> Written {
        Written {
            frames: info.frames,
            width: info.width,
            height: info.height,
            changes: Vec::new(),
        }
    }
}

impl std::fmt::Display for Written {
    /// `120 frames, 452x300 (451x300 padded to ...)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = if self.frames == 1 { "" } else { "s" };
        write!(
            f,
            "{} frame{plural}, {}x{}",
            self.frames, self.width, self.height
        )?;
        if !self.changes.is_empty() {
            write!(f, " ({})", self.changes.join("; "))?;
        }
        Ok(())
    }
}

/// A destination for RGBA frames, written one at a time. `Send`, so that a sink can encode on a
/// thread of its own while the next frame is rendered.
pub trait FrameSink: Send {
    /// `rgba` is width*height*4 bytes, row-major, R,G,B,A. Wrong length -> error, not panic.
    fn write_frame(&mut self, rgba: &[u8]) -> Result<()>;
    /// Completes the output under its temporary name; [`FinishedOutput::commit`] then moves it
    /// into place. If `finish` is never called (error, early return), or the finished output
    /// is dropped uncommitted, nothing is left under the requested name and the temporary
    /// files are removed.
    fn finish(self: Box<Self>) -> Result<FinishedOutput>;
}

/// An output whose every byte is written, waiting under a temporary name to be moved into
/// place by [`FinishedOutput::commit`]. Dropping it removes the temporaries instead.
pub struct FinishedOutput {
    written: Written,
    staged: Staged,
}

impl std::fmt::Debug for FinishedOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FinishedOutput")
            .field("written", &self.written)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for StagedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StagedFile")
            .field("temp", &self.temp)
            .field("target", &self.target)
            .finish_non_exhaustive()
    }
}

/// What [`FinishedOutput::commit`] moves into place.
enum Staged {
    File(StagedFile),
    Frames(StagedFrames),
    /// Already where it belongs (streamed to standard output).
    Nothing,
}

impl FinishedOutput {
    /// An output with nothing left to move, for a sink that wrote straight to its
    /// destination.
    pub fn in_place(written: Written) -> FinishedOutput {
        FinishedOutput {
            written,
            staged: Staged::Nothing,
        }
    }

    /// What the output holds.
    pub fn written(&self) -> &Written {
        &self.written
    }

    /// Moves the output under its requested name and returns what it holds.
    pub fn commit(self) -> Result<Written> {
        match self.staged {
            Staged::File(file) => file.commit()?,
            Staged::Frames(frames) => frames.commit()?,
            Staged::Nothing => {}
        }
        Ok(self.written)
    }
}

/// Where a single-file sink's bytes go: a temporary file beside the target, or standard
/// output.
enum Destination {
    File(StagedFile),
    StandardOutput,
}

impl Destination {
    /// Opens the stream for `target` (a temporary file with this suffix, or standard output
    /// for `-`).
    fn open(
        target: &Path,
        suffix: &str,
        options: &OutputOptions,
    ) -> Result<(Box<dyn Write + Send>, Destination)> {
        if is_standard_output(target) {
            return Ok((Box::new(std::io::stdout()), Destination::StandardOutput));
        }
        let (file, staged) = StagedFile::create(target, suffix, !options.no_clobber)?;
        Ok((Box::new(file), Destination::File(staged)))
    }

    fn finished(self, written: Written) -> FinishedOutput {
        FinishedOutput {
            written,
            staged: match self {
                Destination::File(file) => Staged::File(file),
                Destination::StandardOutput => Staged::Nothing,
            },
        }
    }
}

/// Opens a sink for `path` with the default options; see [`open_output`].
pub fn open_sink(
    path: &Path,
    info: &AnimationInfo,
    palette_samples: &[u8],
) -> Result<Box<dyn FrameSink>> {
    open_output(path, info, palette_samples, &OutputOptions::default())
}

/// Opens a sink for `path` (`-` for standard output). `palette_samples` is RGBA pixels (any
/// count, a multiple of 4 bytes) that represent the colours the animation will use; only the
/// GIF writer uses it, to derive one global palette for the whole animation (NeuQuant from
/// color_quant, then a 6-bit-per-channel (64x64x64) lookup table mapping any RGB to its nearest
/// palette entry, built once; no dithering, so still water does not flicker).
///
/// Checks before doing any work: the kind is valid, fps is finite and positive, the size is not
/// empty, there is at least one frame, the parent directory exists and is writable (the
/// temporary file is created here), and with `no_clobber` that nothing would be replaced.
/// Errors name the path and the offending value. Also removes what killed earlier runs left in
/// that directory (see [`cleanup::remove_stale_leftovers`]), and says so on stderr.
///
/// Per format:
/// - GIF: up to 256 distinct sampled colours (255 with transparency) are kept exactly, more are
///   reduced by NeuQuant; colours closer than the 4-level lookup cells may merge. Without
///   samples the first frame provides the palette. Pixels with alpha < 128 become transparent
///   when the samples (or that first frame) contain such pixels, and are drawn opaque otherwise.
///   Frame delays are whole centiseconds, at least 2 (browsers play shorter ones slowly), so
///   above 50 fps frames are dropped evenly to keep the animation's length, and the
///   [`Written`] says so. Frames are at most 65535 pixels wide and high.
/// - Animated PNG: lossless; exactly `info.frames` frames must be written.
/// - Y4M, MP4, WebM: alpha is dropped (colours are written as if opaque). MP4 and WebM need
///   `ffmpeg` on `PATH`, and carry [`OutputOptions::sound`] when given. An odd-sized MP4 gets its last column or row repeated to the even
///   size H.264 needs (the [`Written`] says so); WebM (VP9) keeps odd sizes.
/// - Directory: created if missing; `frame_00000.png`, `frame_00001.png`, ... replace files of
///   the same names (unless `no_clobber`), other files are left alone. Not to standard output.
/// - Standard output: written as it is encoded, not atomically (a failure leaves a truncated
///   stream and an error); MP4 as fragmented MP4, which needs no seeking.
pub fn open_output(
    path: &Path,
    info: &AnimationInfo,
    palette_samples: &[u8],
    options: &OutputOptions,
) -> Result<Box<dyn FrameSink>> {
    let kind = OutputKind::for_output(path, options.format)?;
    check_animation_info(path, info)?;
    check_palette_samples(palette_samples)?;
    let to_standard_output = is_standard_output(path);
    if kind == OutputKind::Directory {
        if to_standard_output {
            bail!("output '-': a directory of frames cannot go to standard output");
        }
    } else if !to_standard_output {
        check_parent_directory(path)?;
    }
    if options.no_clobber {
        refuse_existing(path, kind, info)?;
    }
    if !to_standard_output {
        let dir = match kind {
            OutputKind::Directory => path,
            _ => parent_dir(path),
        };
        report_stale_leftovers(dir);
    }
    Ok(match kind {
        OutputKind::Gif => Box::new(GifSink::create(path, info, palette_samples, options)?),
        OutputKind::Apng => Box::new(ApngSink::create(path, info, options)?),
        OutputKind::Y4m => Box::new(Y4mSink::create(path, info, options)?),
        OutputKind::Mp4 | OutputKind::Webm => Box::new(FfmpegSink::create(
            OsStr::new("ffmpeg"),
            path,
            info,
            if kind == OutputKind::Mp4 {
                VideoCodec::H264
            } else {
                VideoCodec::Vp9
            },
            options,
            DEFAULT_STALL_TIMEOUT,
        )?),
        OutputKind::Directory => Box::new(DirSink::create(path, info, options)?),
    })
}

/// Removes what killed runs left in `dir`, and says so.
fn report_stale_leftovers(dir: &Path) {
    let removed = cleanup::remove_stale_leftovers(dir);
    if !removed.is_empty() {
        eprintln!(
            "removed {} unfinished output{} that a killed earlier run left in '{}': {}",
            removed.len(),
            if removed.len() == 1 { "" } else { "s" },
            dir.display(),
            removed.join(", ")
        );
    }
}

/// For `--no-clobber`: an error naming what the output would replace, if anything.
fn refuse_existing(path: &Path, kind: OutputKind, info: &AnimationInfo) -> Result<()> {
    if kind == OutputKind::Directory {
        if let Some(frame) = dir_sink::first_existing_frame(path, info.frames) {
            bail!(
                "output '{}': '{}' already exists (--no-clobber keeps it; nothing was written)",
                path.display(),
                frame.display()
            );
        }
        return Ok(());
    }
    check_not_existing(path)
}

/// For `--no-clobber` and a single file: an error if `path` exists (even as a broken link).
pub fn check_not_existing(path: &Path) -> Result<()> {
    if !is_standard_output(path) && fs::symlink_metadata(path).is_ok() {
        bail!(
            "output '{}' already exists (--no-clobber keeps it; nothing was written)",
            path.display()
        );
    }
    Ok(())
}

fn check_animation_info(path: &Path, info: &AnimationInfo) -> Result<()> {
    let shown = path.display();
    if !(info.fps.is_finite() && info.fps > 0.0) {
        bail!(
            "output '{shown}': frame rate must be a positive number, got {}",
            info.fps
        );
    }
    if info.width == 0 || info.height == 0 {
        bail!(
            "output '{shown}': frame size must not be empty, got {}x{}",
            info.width,
            info.height
        );
    }
    if rgba_len(info.width, info.height).is_none() {
        bail!(
            "output '{shown}': frame size {}x{} is too large for this machine",
            info.width,
            info.height
        );
    }
    if info.frames == 0 {
        bail!("output '{shown}': the animation has no frames");
    }
    Ok(())
}

fn check_palette_samples(samples: &[u8]) -> Result<()> {
    if !samples.len().is_multiple_of(4) {
        bail!(
            "palette samples are {} bytes, not a whole number of RGBA pixels (a multiple of 4)",
            samples.len()
        );
    }
    Ok(())
}

fn check_parent_directory(path: &Path) -> Result<()> {
    let dir = parent_dir(path);
    match fs::metadata(dir) {
        Ok(metadata) if metadata.is_dir() => Ok(()),
        Ok(_) => bail!(
            "output '{}': '{}' is not a directory",
            path.display(),
            dir.display()
        ),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => bail!(
            "output '{}': directory '{}' does not exist",
            path.display(),
            dir.display()
        ),
        Err(error) => bail!(
            "output '{}': cannot access directory '{}': {error}",
            path.display(),
            dir.display()
        ),
    }
}

/// The directory a file output lands in; `.` for a bare file name.
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Checks that a frame buffer holds exactly one frame.
fn check_frame_len(rgba: &[u8], info: &AnimationInfo) -> Result<()> {
    if rgba.len() != info.frame_len() {
        bail!(
            "frame has {} bytes, expected {}x{}x4 = {}",
            rgba.len(),
            info.width,
            info.height,
            info.frame_len()
        );
    }
    Ok(())
}

/// Refuses to finish an output no frame was written to.
fn check_some_frames_written(target: &Path, frames_written: u32) -> Result<()> {
    if frames_written == 0 {
        bail!(
            "output '{}': no frames were written, nothing to save",
            target.display()
        );
    }
    Ok(())
}

/// A file written under a temporary name beside its target (`.ripples-<pid>-XXXXXX.ext`), and
/// entered in the [`cleanup`] registry. Dropping it deletes the temporary file;
/// [`StagedFile::commit`] moves it under the target name instead.
pub struct StagedFile {
    /// A second handle to the temporary file, to flush it to disk before the rename.
    sync_handle: File,
    /// Dropped (the file deleted) before `registration` forgets it.
    temp: TempPath,
    registration: Registration,
    target: PathBuf,
    /// Whether the commit may replace an existing file (false for `--no-clobber`).
    replace: bool,
}

impl StagedFile {
    /// Creates the temporary file in the target's directory (renames do not cross file
    /// systems) and returns a handle to write it through.
    fn create(target: &Path, suffix: &str, replace: bool) -> Result<(File, StagedFile)> {
        let dir = parent_dir(target);
        let temp = temp_file_builder(&cleanup::temp_prefix(), suffix)
            .tempfile_in(dir)
            .map_err(|error| {
                anyhow!(
                    "cannot create a file in directory '{}' for output '{}': {error}",
                    dir.display(),
                    target.display()
                )
            })?;
        let (file, temp) = temp.into_parts();
        let registration = cleanup::register(Leftover::File(temp.to_path_buf()));
        let sync_handle = file
            .try_clone()
            .map_err(|error| anyhow!("cannot write '{}': {error}", temp.display()))?;
        let staged = StagedFile {
            sync_handle,
            temp,
            registration,
            target: target.to_path_buf(),
            replace,
        };
        Ok((file, staged))
    }

    fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// The name the file will have.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes the finished file to disk and renames it to the target: replacing any file
    /// there, or, without `replace`, failing if one appeared since the output was opened.
    pub fn commit(self) -> Result<()> {
        let StagedFile {
            sync_handle,
            temp,
            registration,
            target,
            replace,
        } = self;
        sync_handle.sync_all().map_err(|error| {
            anyhow!(
                "cannot save '{}': flushing to disk failed: {error}",
                target.display()
            )
        })?;
        drop(sync_handle);
        let moved = cleanup::commit_with([registration], || {
            if replace {
                temp.persist(&target)
            } else {
                temp.persist_noclobber(&target)
            }
        });
        moved.map_err(|error| {
            if !replace && error.error.kind() == std::io::ErrorKind::AlreadyExists {
                anyhow!(
                    "output '{}' appeared while rendering; --no-clobber keeps it (the new \
                     output was not saved)",
                    target.display()
                )
            } else {
                anyhow!(
                    "cannot move the finished output to '{}': {}",
                    target.display(),
                    error.error
                )
            }
        })
    }

    /// Renames the finished file to the first of `names` (in the target's directory) that
    /// does not exist; `None` when all do (the temporary file is then removed).
    fn commit_to_first_free(
        self,
        names: impl IntoIterator<Item = String>,
    ) -> Result<Option<PathBuf>> {
        let StagedFile {
            sync_handle,
            mut temp,
            registration,
            target,
            ..
        } = self;
        sync_handle.sync_all().map_err(|error| {
            anyhow!(
                "cannot save '{}': flushing to disk failed: {error}",
                target.display()
            )
        })?;
        drop(sync_handle);
        let dir = parent_dir(&target);
        let mut registration = Some(registration);
        for name in names {
            let path = dir.join(name);
            let moved = cleanup::commit_with(registration.take(), || temp.persist_noclobber(&path));
            match moved {
                Ok(()) => return Ok(Some(path)),
                Err(error) if error.error.kind() == std::io::ErrorKind::AlreadyExists => {
                    temp = error.path;
                    registration = Some(cleanup::register(Leftover::File(temp.to_path_buf())));
                }
                Err(error) => bail!("cannot write '{}': {}", path.display(), error.error),
            }
        }
        Ok(None)
    }
}

fn temp_file_builder<'a>(prefix: &'a str, suffix: &'a str) -> tempfile::Builder<'a, 'a> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix).suffix(suffix);
    // Temporary files are private (0600) by default; the result should get the permissions of
    // an ordinary new file (0666 less the umask).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    builder
}

/// Writes a whole file produced by `write` to a temporary file beside `target`, ready to be
/// moved into place by [`StagedFile::commit`] (replacing a file there unless `no_clobber`).
/// For small one-shot outputs.
pub fn stage_file(
    target: &Path,
    no_clobber: bool,
    write: impl FnOnce(&mut std::io::BufWriter<File>) -> std::io::Result<()>,
) -> Result<StagedFile> {
    check_parent_directory(target)?;
    if no_clobber {
        check_not_existing(target)?;
    }
    let suffix = target
        .extension()
        .map(|extension| format!(".{}", extension.to_string_lossy()))
        .unwrap_or_default();
    let (file, staged) = StagedFile::create(target, &suffix, !no_clobber)?;
    let mut out = std::io::BufWriter::new(file);
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|error| anyhow!("cannot write '{}': {error}", target.display()))?;
    drop(out);
    Ok(staged)
}

/// Writes a whole file atomically: [`stage_file`], then commit.
pub fn write_file_atomically(
    target: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<File>) -> std::io::Result<()>,
) -> Result<()> {
    stage_file(target, false, write)?.commit()
}

/// Writes `bytes` as a new file in `dir` under the first of `names` that does not exist,
/// atomically and never replacing a file (screenshots). Returns the path written, or `None`
/// when every name is taken.
pub fn write_new_file(
    dir: &Path,
    names: impl IntoIterator<Item = String>,
    bytes: &[u8],
) -> Result<Option<PathBuf>> {
    let mut names = names.into_iter();
    let Some(first) = names.next() else {
        return Ok(None);
    };
    let staged = stage_file(&dir.join(&first), false, |out| out.write_all(bytes))?;
    staged.commit_to_first_free(std::iter::once(first).chain(names))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;
    use std::process::Command;

    const W: u32 = 37;
    const H: u32 = 21;
    const FRAMES: u32 = 5;
    const FPS: f64 = 30.0;

    /// Six colours far apart, so a GIF palette keeps them exactly.
    const COLOURS: [[u8; 3]; 6] = [
        [220, 30, 40],
        [20, 200, 60],
        [30, 50, 230],
        [250, 250, 250],
        [10, 10, 10],
        [240, 220, 20],
    ];

    fn info(width: u32, height: u32) -> AnimationInfo {
        AnimationInfo {
            width,
            height,
            fps: FPS,
            frames: FRAMES,
        }
    }

    /// Bands of [`COLOURS`], shifted by `k`, so every frame differs.
    fn pattern_frame(width: u32, height: u32, k: u32) -> Vec<u8> {
        let mut rgba = Vec::new();
        for y in 0..height {
            for x in 0..width {
                let [r, g, b] = COLOURS[((x / 4 + y / 3 + k) % 6) as usize];
                rgba.extend_from_slice(&[r, g, b, 255]);
            }
        }
        rgba
    }

    fn pattern_frames(width: u32, height: u32) -> Vec<Vec<u8>> {
        (0..FRAMES)
            .map(|k| pattern_frame(width, height, k))
            .collect()
    }

    /// A smooth gradient with far more than 256 colours.
    fn gradient_frame(width: u32, height: u32, k: u32) -> Vec<u8> {
        let mut rgba = Vec::new();
        for y in 0..height {
            for x in 0..width {
                let r = (x * 255 / width) as u8;
                let g = (y * 255 / height) as u8;
                let b = (100 + 4 * k) as u8;
                rgba.extend_from_slice(&[r, g, b, 255]);
            }
        }
        rgba
    }

    fn write_all(path: &Path, info: &AnimationInfo, frames: &[Vec<u8>], samples: &[u8]) {
        let mut sink = open_sink(path, info, samples).unwrap();
        for frame in frames {
            sink.write_frame(frame).unwrap();
        }
        sink.finish().unwrap().commit().unwrap();
    }

    /// Opens a sink, writes the first two frames and drops it unfinished.
    fn abort_after_two_frames(path: &Path, frames: &[Vec<u8>]) {
        let mut sink = open_sink(path, &info(W, H), &frames[0]).unwrap();
        sink.write_frame(&frames[0]).unwrap();
        sink.write_frame(&frames[1]).unwrap();
        drop(sink);
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// The frames as a viewer shows them (delay, whole RGBA canvas).
    fn decode_gif(path: &Path) -> (gif::Decoder<File>, Vec<(u16, Vec<u8>)>) {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let decoder = options.read_info(File::open(path).unwrap()).unwrap();
        let (decoder, frames) = gif_canvases(decoder);
        (
            decoder,
            frames
                .into_iter()
                .map(|(delay, _, canvas)| (delay, canvas))
                .collect(),
        )
    }

    /// A decoded GIF frame: delay, stored rectangle `[left, top, width, height]`, whole canvas.
    pub(crate) type Canvas = (u16, [u16; 4], Vec<u8>);

    /// Composites every frame onto a canvas as a viewer does: each frame's opaque pixels
    /// over what the previous frame left, then its disposal. Also returns each stored frame's
    /// rectangle `[left, top, width, height]`.
    pub(crate) fn gif_canvases<R: std::io::Read>(
        mut decoder: gif::Decoder<R>,
    ) -> (gif::Decoder<R>, Vec<Canvas>) {
        let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
        let mut canvas = vec![0u8; width * height * 4];
        let mut frames = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            let (left, top) = (usize::from(frame.left), usize::from(frame.top));
            let frame_width = usize::from(frame.width);
            let rect = [frame.left, frame.top, frame.width, frame.height];
            let cells = |row: usize| {
                let start = ((top + row) * width + left) * 4;
                start..start + frame_width * 4
            };
            for (row, pixels) in frame.buffer.chunks_exact(frame_width * 4).enumerate() {
                let span = cells(row);
                for (dst, src) in canvas[span].chunks_exact_mut(4).zip(pixels.chunks_exact(4)) {
                    if src[3] != 0 {
                        dst.copy_from_slice(src);
                    }
                }
            }
            frames.push((frame.delay, rect, canvas.clone()));
            if frame.dispose == gif::DisposalMethod::Background {
                for row in 0..usize::from(frame.height) {
                    canvas[cells(row)].fill(0);
                }
            }
        }
        (decoder, frames)
    }

    fn decode_png_frames(path: &Path) -> (png::Reader<BufReader<File>>, Vec<Vec<u8>>) {
        let decoder = png::Decoder::new(BufReader::new(File::open(path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let frame_count = reader
            .info()
            .animation_control
            .map_or(1, |control| control.num_frames);
        let mut frames = Vec::new();
        for _ in 0..frame_count {
            let mut buf = vec![0; reader.output_buffer_size().unwrap()];
            let frame = reader.next_frame(&mut buf).unwrap();
            buf.truncate(frame.buffer_size());
            frames.push(buf);
        }
        (reader, frames)
    }

    fn program_available(program: &str) -> bool {
        Command::new(program)
            .arg("-version")
            .output()
            .is_ok_and(|output| output.status.success())
    }

    /// Whether ffmpeg tests can run; with RIPPLES_E2E=1 a missing ffmpeg fails the test.
    fn ffmpeg_or_skip() -> bool {
        if program_available("ffmpeg") && program_available("ffprobe") {
            return true;
        }
        if std::env::var("RIPPLES_E2E").as_deref() == Ok("1") {
            panic!("RIPPLES_E2E=1 but ffmpeg/ffprobe were not found on PATH");
        }
        eprintln!("skipping: ffmpeg not found");
        false
    }

    /// ffprobe's "width,height,frames" for the first video stream.
    fn ffprobe_size_and_frames(path: &Path) -> String {
        let output = Command::new("ffprobe")
            .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
            .args(["-show_entries", "stream=width,height,nb_read_frames"])
            .args(["-of", "csv=p=0"])
            .arg(path)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "ffprobe failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap().trim().to_string()
    }

    // ---- output kinds and up-front checks ----

    #[test]
    fn kinds_come_from_extensions_case_insensitively() {
        let kind = |path: &str| OutputKind::from_path(Path::new(path)).unwrap();
        assert_eq!(kind("a.gif"), OutputKind::Gif);
        assert_eq!(kind("a.GIF"), OutputKind::Gif);
        assert_eq!(kind("dir/a.png"), OutputKind::Apng);
        assert_eq!(kind("a.Y4m"), OutputKind::Y4m);
        assert_eq!(kind("a.mp4"), OutputKind::Mp4);
        assert_eq!(kind("a.webm"), OutputKind::Webm);
        assert_eq!(kind("frames/"), OutputKind::Directory);
        assert_eq!(kind("frames.gif/"), OutputKind::Directory);
    }

    #[test]
    fn an_existing_directory_is_a_directory_output() {
        let dir = tempfile::tempdir().unwrap();
        let existing = dir.path().join("frames.gif");
        fs::create_dir(&existing).unwrap();
        assert_eq!(
            OutputKind::from_path(&existing).unwrap(),
            OutputKind::Directory
        );
    }

    #[test]
    fn unknown_extension_is_an_error_naming_path_and_extension() {
        let error = OutputKind::from_path(Path::new("x.avi")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "output 'x.avi': unknown extension '.avi' \
             (expected .gif, .png, .y4m, .mp4, .webm or a directory ending in '/')"
        );
    }

    #[test]
    fn missing_extension_is_an_error() {
        let error = OutputKind::from_path(Path::new("movie")).unwrap_err();
        let message = error.to_string();
        assert!(message.contains("'movie'"), "{message}");
        assert!(message.contains("no file extension"), "{message}");
    }

    #[test]
    fn missing_parent_directory_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing");
        let error = open_sink(&missing.join("a.gif"), &info(W, H), &[])
            .err()
            .unwrap();
        let message = error.to_string();
        assert!(message.contains("does not exist"), "{message}");
        assert!(
            message.contains(&format!("'{}'", missing.display())),
            "{message}"
        );
        assert!(!missing.exists());
    }

    #[test]
    fn bad_frame_rates_are_rejected_before_any_file_is_made() {
        let dir = tempfile::tempdir().unwrap();
        for fps in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let bad = AnimationInfo { fps, ..info(W, H) };
            let error = open_sink(&dir.path().join("a.gif"), &bad, &[])
                .err()
                .unwrap();
            assert!(error.to_string().contains("frame rate"), "{error}");
        }
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn empty_sizes_and_zero_frames_are_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.png");
        assert!(open_sink(&path, &info(0, H), &[]).is_err());
        let no_frames = AnimationInfo {
            frames: 0,
            ..info(W, H)
        };
        assert!(open_sink(&path, &no_frames, &[]).is_err());
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn wrong_frame_length_is_an_error_for_every_kind() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.gif", "a.png", "a.y4m", "frames/"] {
            let mut sink = open_sink(&dir.path().join(name), &info(W, H), &[]).unwrap();
            let error = sink.write_frame(&[0; 12]).unwrap_err();
            assert_eq!(
                error.to_string(),
                "frame has 12 bytes, expected 37x21x4 = 3108",
                "{name}"
            );
        }
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn palette_samples_must_be_whole_pixels() {
        let dir = tempfile::tempdir().unwrap();
        let error = open_sink(&dir.path().join("a.gif"), &info(W, H), &[1, 2, 3])
            .err()
            .unwrap();
        assert!(error.to_string().contains("multiple of 4"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn outputs_get_ordinary_file_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.y4m");
        write_all(&path, &info(W, H), &pattern_frames(W, H), &[]);
        let reference = dir.path().join("reference");
        File::create(&reference).unwrap();
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), mode(&reference));
    }

    // ---- GIF ----

    #[test]
    fn gif_round_trips_a_few_colour_pattern_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pattern.gif");
        let frames = pattern_frames(W, H);
        write_all(&path, &info(W, H), &frames, &frames.concat());

        let (decoder, decoded) = decode_gif(&path);
        assert_eq!((decoder.width(), decoder.height()), (37, 21));
        assert_eq!(decoder.repeat(), gif::Repeat::Infinite);
        assert_eq!(decoded.len(), 5);
        for (k, ((_, pixels), written)) in decoded.iter().zip(&frames).enumerate() {
            assert!(pixels == written, "frame {k} differs");
        }
        let delays: Vec<u16> = decoded.iter().map(|(delay, _)| *delay).collect();
        assert_eq!(delays, [3, 3, 4, 3, 3]);
        let total_cs: f64 = delays.iter().map(|&d| f64::from(d)).sum();
        assert!((total_cs - 500.0 / FPS).abs() <= 1.0, "{total_cs}");
    }

    #[test]
    fn gif_without_samples_takes_its_palette_from_the_first_frame() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pattern.gif");
        let frames = pattern_frames(W, H);
        write_all(&path, &info(W, H), &frames, &[]);
        let (_, decoded) = decode_gif(&path);
        assert_eq!(decoded.len(), 5);
        assert!(decoded[0].1 == frames[0]);
    }

    #[test]
    fn gif_of_many_colours_stays_close() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gradient.gif");
        let frames: Vec<Vec<u8>> = (0..FRAMES).map(|k| gradient_frame(W, H, k)).collect();
        write_all(&path, &info(W, H), &frames, &frames.concat());
        let (_, decoded) = decode_gif(&path);
        assert_eq!(decoded.len(), 5);
        for ((_, pixels), written) in decoded.iter().zip(&frames) {
            let differences: Vec<u32> = pixels
                .iter()
                .zip(written)
                .map(|(&a, &b)| u32::from(a.abs_diff(b)))
                .collect();
            let max = differences.iter().max().copied().unwrap_or(0);
            let mean = differences.iter().sum::<u32>() as f64 / differences.len() as f64;
            assert!(max <= 24 && mean <= 5.0, "max {max}, mean {mean}");
        }
    }

    #[test]
    fn gif_keeps_transparency() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("holes.gif");
        let mut frames = pattern_frames(W, H);
        for frame in &mut frames {
            for pixel in frame.chunks_exact_mut(4).step_by(3) {
                pixel.copy_from_slice(&[0, 0, 0, 0]);
            }
        }
        write_all(&path, &info(W, H), &frames, &frames.concat());
        let (_, decoded) = decode_gif(&path);
        for ((_, pixels), written) in decoded.iter().zip(&frames) {
            for (got, want) in pixels.chunks_exact(4).zip(written.chunks_exact(4)) {
                if want[3] == 0 {
                    assert_eq!(got[3], 0);
                } else {
                    assert_eq!(got, want);
                }
            }
        }
    }

    #[test]
    fn gif_larger_than_65535_pixels_wide_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let error = open_sink(&dir.path().join("a.gif"), &info(70_000, 1), &[])
            .err()
            .unwrap();
        assert!(error.to_string().contains("65535"), "{error}");
        assert!(entries(dir.path()).is_empty());
    }

    // ---- animated PNG ----

    #[test]
    fn apng_round_trips_losslessly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("anim.png");
        let frames: Vec<Vec<u8>> = (0..FRAMES).map(|k| gradient_frame(W, H, k)).collect();
        write_all(&path, &info(W, H), &frames, &[]);

        let (reader, decoded) = decode_png_frames(&path);
        let png_info = reader.info();
        assert_eq!((png_info.width, png_info.height), (37, 21));
        let control = png_info.animation_control.unwrap();
        assert_eq!((control.num_frames, control.num_plays), (5, 0));
        let delay = png_info.frame_control.unwrap();
        assert_eq!((delay.delay_num, delay.delay_den), (1, 30));
        assert_eq!(decoded.len(), 5);
        for (k, (pixels, written)) in decoded.iter().zip(&frames).enumerate() {
            assert!(pixels == written, "frame {k} differs");
        }
    }

    #[test]
    fn apng_with_missing_frames_is_an_error_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("short.png");
        let frames = pattern_frames(W, H);
        let mut sink = open_sink(&path, &info(W, H), &[]).unwrap();
        sink.write_frame(&frames[0]).unwrap();
        sink.write_frame(&frames[1]).unwrap();
        let error = sink.finish().unwrap_err();
        assert!(error.to_string().contains("wrote 2 of 5 frames"), "{error}");
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn apng_refuses_more_frames_than_announced() {
        let dir = tempfile::tempdir().unwrap();
        let frames = pattern_frames(W, H);
        let mut sink = open_sink(&dir.path().join("a.png"), &info(W, H), &[]).unwrap();
        for frame in &frames {
            sink.write_frame(frame).unwrap();
        }
        assert!(sink.write_frame(&frames[0]).is_err());
    }

    #[test]
    fn apng_frame_delays_approximate_the_frame_rate() {
        use apng_sink::frame_delay_fraction;
        assert_eq!(frame_delay_fraction(30.0), (1, 30));
        assert_eq!(frame_delay_fraction(29.97), (100, 2997));
        assert_eq!(frame_delay_fraction(0.5), (2, 1));
        assert_eq!(frame_delay_fraction(100_000.0), (1, 65535));
    }

    // ---- Y4M ----

    #[test]
    fn y4m_has_header_frames_and_planes_of_the_right_sizes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("video.y4m");
        write_all(&path, &info(W, H), &pattern_frames(W, H), &[]);

        let bytes = fs::read(&path).unwrap();
        let header = b"YUV4MPEG2 W37 H21 F30:1 Ip A1:1 C420jpeg\n";
        assert!(bytes.starts_with(header));
        let frame_len = 37 * 21 + 2 * (19 * 11);
        let mut rest = &bytes[header.len()..];
        let mut frames = 0;
        while !rest.is_empty() {
            assert!(rest.starts_with(b"FRAME\n"), "frame {frames} has no marker");
            assert!(rest.len() >= 6 + frame_len, "frame {frames} is short");
            rest = &rest[6 + frame_len..];
            frames += 1;
        }
        assert_eq!(frames, 5);

        if program_available("ffprobe") {
            assert_eq!(ffprobe_size_and_frames(&path), "37,21,5");
        } else {
            eprintln!("ffprobe not found: not checking that it reads the Y4M file");
        }
    }

    #[test]
    fn y4m_converts_with_limited_range_bt601() {
        let yuv_of = |rgb: [u8; 3]| {
            let frame: Vec<u8> = [rgb[0], rgb[1], rgb[2], 255].repeat(3 * 3);
            let mut planes = Vec::new();
            y4m_sink::rgba_to_yuv420(&frame, 3, 3, &mut planes);
            assert_eq!(planes.len(), 9 + 2 * 4);
            (planes[0], planes[9], planes[13])
        };
        assert_eq!(yuv_of([128, 128, 128]), (126, 128, 128));
        assert_eq!(yuv_of([0, 0, 0]), (16, 128, 128));
        assert_eq!(yuv_of([255, 255, 255]), (235, 128, 128));
        assert_eq!(yuv_of([255, 0, 0]), (81, 90, 240));
        assert_eq!(yuv_of([0, 0, 255]), (41, 240, 110));
    }

    #[test]
    fn y4m_chroma_averages_each_block_and_edge() {
        // 3x1: the first chroma sample averages two pixels, the second (edge) only one.
        let frame = [0, 0, 255, 255, 0, 0, 255, 255, 255, 0, 0, 255];
        let mut planes = Vec::new();
        y4m_sink::rgba_to_yuv420(&frame, 3, 1, &mut planes);
        assert_eq!(planes.len(), 3 + 2 * 2);
        assert_eq!(&planes[3..5], &[240, 90]); // Cb: blue, then red
        assert_eq!(&planes[5..7], &[110, 240]); // Cr: blue, then red
    }

    #[test]
    fn y4m_fractional_frame_rates_use_thousandths() {
        let info = AnimationInfo {
            fps: 29.97,
            ..info(4, 2)
        };
        assert_eq!(
            y4m_sink::stream_header(&info),
            "YUV4MPEG2 W4 H2 F29970:1000 Ip A1:1 C420jpeg\n"
        );
    }

    // ---- MP4 and WebM through ffmpeg ----

    fn check_video(name: &str, width: u32, height: u32, expected: &str) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        write_all(
            &path,
            &info(width, height),
            &pattern_frames(width, height),
            &[],
        );
        assert_eq!(ffprobe_size_and_frames(&path), expected, "{name}");
        assert_eq!(entries(dir.path()), [name]);
    }

    #[test]
    fn mp4_has_all_frames_and_the_size() {
        if ffmpeg_or_skip() {
            check_video("video.mp4", 38, 22, "38,22,5");
            check_video("odd.mp4", 37, 21, "38,22,5");
        }
    }

    #[test]
    fn webm_has_all_frames_and_the_size() {
        if ffmpeg_or_skip() {
            check_video("video.webm", 38, 22, "38,22,5");
            // VP9 codes odd sizes as they are.
            check_video("odd.webm", 37, 21, "37,21,5");
        }
    }

    /// The first frame of a video decoded by ffmpeg, as RGB24.
    fn decode_first_frame(path: &Path) -> Vec<u8> {
        let output = Command::new("ffmpeg")
            .args(["-v", "error", "-i"])
            .arg(path)
            .args(["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        output.stdout
    }

    #[test]
    fn odd_sized_mp4_repeats_the_edge_and_says_so() {
        if !ffmpeg_or_skip() {
            return;
        }
        // Left half dark blue, right half bright orange up to the last column; the padding
        // column must come out orange like its neighbour, not black.
        let (width, height) = (45, 31);
        let frame: Vec<u8> = (0..height)
            .flat_map(|_| 0..width)
            .flat_map(|x| {
                if x < width / 2 {
                    [20, 30, 120, 255]
                } else {
                    [250, 160, 40, 255]
                }
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("odd.mp4");
        let mut sink = open_sink(&path, &info(width, height), &[]).unwrap();
        for _ in 0..FRAMES {
            sink.write_frame(&frame).unwrap();
        }
        let finished = sink.finish().unwrap();
        let written = finished.commit().unwrap();
        assert_eq!((written.width, written.height), (46, 32));
        assert_eq!(
            written.to_string(),
            "5 frames, 46x32 (45x31 padded to 46x32, the even size H.264 needs, by repeating \
             the last column and row)"
        );
        assert_eq!(ffprobe_size_and_frames(&path), "46,32,5");

        let rgb = decode_first_frame(&path);
        assert_eq!(rgb.len(), 46 * 32 * 3);
        let pixel = |x: usize, y: usize| &rgb[(y * 46 + x) * 3..][..3];
        let near = |got: &[u8], want: [u8; 3]| {
            got.iter()
                .zip(want)
                .all(|(&g, w)| i32::from(g).abs_diff(i32::from(w)) <= 24)
        };
        for y in [0, 15, 30, 31] {
            for x in [44, 45] {
                assert!(
                    near(pixel(x, y), [250, 160, 40]),
                    "({x}, {y}) is {:?}, not the edge's orange",
                    pixel(x, y)
                );
            }
        }
        // The added row repeats the last one on the dark side too.
        assert!(near(pixel(3, 31), [20, 30, 120]), "{:?}", pixel(3, 31));
    }

    #[test]
    fn padding_repeats_the_last_column_and_row() {
        use ffmpeg_sink::pad_by_repeating_edges;
        // 3x2 frame, pixels numbered 1..=6 in the red channel.
        let frame: Vec<u8> = (1..=6).flat_map(|v| [v, 0, 0, 255]).collect();
        let mut padded = Vec::new();
        pad_by_repeating_edges(&frame, (3, 2), (4, 2), &mut padded);
        let reds = |rgba: &[u8]| rgba.chunks_exact(4).map(|p| p[0]).collect::<Vec<u8>>();
        assert_eq!(reds(&padded), [1, 2, 3, 3, 4, 5, 6, 6]);
        pad_by_repeating_edges(&frame, (3, 2), (4, 3), &mut padded);
        assert_eq!(reds(&padded), [1, 2, 3, 3, 4, 5, 6, 6, 4, 5, 6, 6]);
        pad_by_repeating_edges(&frame, (3, 2), (3, 2), &mut padded);
        assert_eq!(padded, frame);
    }

    #[test]
    fn missing_ffmpeg_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.mp4");
        let error = FfmpegSink::create(
            OsStr::new("ripples-test-no-such-ffmpeg"),
            &path,
            &info(W, H),
            VideoCodec::H264,
            &OutputOptions::default(),
            DEFAULT_STALL_TIMEOUT,
        )
        .err()
        .unwrap();
        assert_eq!(
            error.to_string(),
            format!(
                "ffmpeg not found on PATH: needed to write '{}' \
                 (install ffmpeg, or write .gif/.png/.y4m)",
                path.display()
            )
        );
        assert!(entries(dir.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn ffmpeg_exiting_with_an_error_fails_the_write_and_leaves_nothing() {
        // `false` ignores its arguments, reads nothing and exits with status 1.
        if Command::new("false").status().is_err() {
            eprintln!("skipping: `false` not found");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.mp4");
        let sink = FfmpegSink::create(
            OsStr::new("false"),
            &path,
            &info(W, H),
            VideoCodec::H264,
            &OutputOptions::default(),
            DEFAULT_STALL_TIMEOUT,
        )
        .unwrap();
        let mut sink: Box<dyn FrameSink> = Box::new(sink);
        let frames = pattern_frames(W, H);
        let result = frames
            .iter()
            .try_for_each(|frame| sink.write_frame(frame))
            .and_then(|()| sink.finish())
            .and_then(FinishedOutput::commit);
        let error = result.unwrap_err();
        assert!(error.to_string().contains("ffmpeg failed"), "{error}");
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn aborted_video_leaves_nothing() {
        if !ffmpeg_or_skip() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        abort_after_two_frames(&dir.path().join("x.mp4"), &pattern_frames(W, H));
        assert!(entries(dir.path()).is_empty());
    }

    // ---- frame directory ----

    #[test]
    fn directory_gets_numbered_pngs_and_no_staging_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("frames/");
        let frames = pattern_frames(W, H);
        write_all(&target, &info(W, H), &frames, &[]);

        assert!(target.is_dir());
        let names = entries(&target);
        let expected: Vec<String> = (0..5).map(|k| format!("frame_0000{k}.png")).collect();
        assert_eq!(names, expected);
        for (name, written) in names.iter().zip(&frames) {
            let (reader, decoded) = decode_png_frames(&target.join(name));
            assert_eq!((reader.info().width, reader.info().height), (37, 21));
            assert!(decoded[0] == *written, "{name} differs");
        }
    }

    #[test]
    fn directory_replaces_old_frames_and_keeps_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("frames");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("notes.txt"), "keep me").unwrap();
        fs::write(target.join("frame_00000.png"), "old").unwrap();
        write_all(&target, &info(W, H), &pattern_frames(W, H), &[]);
        assert_eq!(
            fs::read_to_string(target.join("notes.txt")).unwrap(),
            "keep me"
        );
        assert_ne!(fs::read(target.join("frame_00000.png")).unwrap(), b"old");
        assert_eq!(entries(&target).len(), 6);
    }

    #[test]
    fn directory_frame_numbers_get_enough_digits() {
        use dir_sink::{frame_file_name, frame_number_digits};
        assert_eq!(frame_number_digits(1), 5);
        assert_eq!(frame_number_digits(100_000), 5);
        assert_eq!(frame_number_digits(100_001), 6);
        assert_eq!(frame_file_name(7, 5), "frame_00007.png");
        assert_eq!(frame_file_name(123_456, 6), "frame_123456.png");
    }

    #[cfg(unix)]
    #[test]
    fn directory_that_cannot_be_created_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        fs::write(&blocker, "not a directory").unwrap();
        let target = blocker.join("frames/");
        let error = open_sink(&target, &info(W, H), &[]).err().unwrap();
        let message = error.to_string();
        assert!(
            message.starts_with(&format!(
                "cannot create output directory '{}': ",
                target.display()
            )),
            "{message}"
        );
    }

    // ---- atomicity ----

    #[test]
    fn aborted_files_leave_nothing_behind() {
        let frames = pattern_frames(W, H);
        for name in ["a.gif", "a.png", "a.y4m"] {
            let dir = tempfile::tempdir().unwrap();
            abort_after_two_frames(&dir.path().join(name), &frames);
            assert!(entries(dir.path()).is_empty(), "{name}");
        }
    }

    #[test]
    fn aborted_files_leave_an_existing_file_unchanged() {
        let frames = pattern_frames(W, H);
        for name in ["a.gif", "a.png", "a.y4m"] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join(name);
            fs::write(&path, "previous render").unwrap();
            abort_after_two_frames(&path, &frames);
            assert_eq!(fs::read_to_string(&path).unwrap(), "previous render");
            assert_eq!(entries(dir.path()), [name]);
        }
    }

    #[test]
    fn aborted_directory_removes_what_it_created() {
        let dir = tempfile::tempdir().unwrap();
        abort_after_two_frames(&dir.path().join("new/frames/"), &pattern_frames(W, H));
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn aborted_directory_leaves_an_existing_directory_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("frames");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("frame_00000.png"), "old").unwrap();
        abort_after_two_frames(&target, &pattern_frames(W, H));
        assert_eq!(entries(&target), ["frame_00000.png"]);
        assert_eq!(fs::read(target.join("frame_00000.png")).unwrap(), b"old");
    }

    #[test]
    fn finishing_without_frames_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.gif", "a.y4m", "frames/"] {
            let sink = open_sink(&dir.path().join(name), &info(W, H), &[]).unwrap();
            assert!(sink.finish().is_err(), "{name}");
        }
        assert!(entries(dir.path()).is_empty());
    }

    // ---- --no-clobber ----

    fn no_clobber() -> OutputOptions {
        OutputOptions {
            no_clobber: true,
            ..OutputOptions::default()
        }
    }

    #[test]
    fn no_clobber_refuses_an_existing_output_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.gif", "a.png", "a.y4m", "a.mp4"] {
            let path = dir.path().join(name);
            fs::write(&path, PREVIOUS).unwrap();
            let error = open_output(&path, &info(W, H), &[], &no_clobber())
                .err()
                .unwrap();
            assert_eq!(
                error.to_string(),
                format!(
                    "output '{}' already exists (--no-clobber keeps it; nothing was written)",
                    path.display()
                )
            );
            assert_eq!(fs::read(&path).unwrap(), PREVIOUS);
            fs::remove_file(&path).unwrap();
        }
        assert!(entries(dir.path()).is_empty());
    }

    const PREVIOUS: &[u8] = b"someone else's file";

    #[test]
    fn no_clobber_keeps_a_file_that_appears_while_rendering() {
        let frames = pattern_frames(W, H);
        for name in ["a.gif", "a.png", "a.y4m"] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join(name);
            let mut sink = open_output(&path, &info(W, H), &[], &no_clobber()).unwrap();
            for frame in &frames {
                sink.write_frame(frame).unwrap();
            }
            let finished = sink.finish().unwrap();
            fs::write(&path, PREVIOUS).unwrap();
            let error = finished.commit().unwrap_err();
            assert!(
                error.to_string().contains("appeared while rendering"),
                "{name}: {error}"
            );
            assert_eq!(fs::read(&path).unwrap(), PREVIOUS, "{name}");
            assert_eq!(entries(dir.path()), [name]);
        }
    }

    #[test]
    fn without_no_clobber_the_commit_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.gif");
        fs::write(&path, PREVIOUS).unwrap();
        write_all(&path, &info(W, H), &pattern_frames(W, H), &[]);
        assert_ne!(fs::read(&path).unwrap(), PREVIOUS);
    }

    #[test]
    fn no_clobber_refuses_a_directory_holding_a_frame_it_would_write() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("frames");
        fs::create_dir(&target).unwrap();
        // Other files, and frames beyond the animation's, do not count.
        fs::write(target.join("notes.txt"), PREVIOUS).unwrap();
        fs::write(target.join("frame_00005.png"), PREVIOUS).unwrap();
        fs::write(target.join("frame_0003.png"), PREVIOUS).unwrap();
        open_output(&target, &info(W, H), &[], &no_clobber())
            .unwrap()
            .finish()
            .err()
            .unwrap();
        fs::write(target.join("frame_00003.png"), PREVIOUS).unwrap();
        let error = open_output(&target, &info(W, H), &[], &no_clobber())
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            format!(
                "output '{}': '{}' already exists (--no-clobber keeps it; nothing was written)",
                target.display(),
                target.join("frame_00003.png").display()
            )
        );
        assert_eq!(entries(&target).len(), 4);
    }

    #[test]
    fn no_clobber_directory_takes_back_its_frames_when_one_appears_meanwhile() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("frames/");
        let mut sink = open_output(&target, &info(W, H), &[], &no_clobber()).unwrap();
        for frame in &pattern_frames(W, H) {
            sink.write_frame(frame).unwrap();
        }
        let finished = sink.finish().unwrap();
        fs::write(target.join("frame_00002.png"), PREVIOUS).unwrap();
        let error = finished.commit().unwrap_err();
        assert!(
            error.to_string().contains("appeared while rendering"),
            "{error}"
        );
        assert_eq!(entries(&target), ["frame_00002.png"]);
        assert_eq!(fs::read(target.join("frame_00002.png")).unwrap(), PREVIOUS);
    }

    // ---- standard output and formats ----

    #[test]
    fn format_overrides_the_extension_and_names_the_format_of_standard_output() {
        let kind = |path: &str, format: Option<OutputKind>| {
            OutputKind::for_output(Path::new(path), format).unwrap()
        };
        assert_eq!(kind("-", None), OutputKind::Gif);
        assert_eq!(kind("-", Some(OutputKind::Y4m)), OutputKind::Y4m);
        assert_eq!(kind("movie", Some(OutputKind::Mp4)), OutputKind::Mp4);
        assert_eq!(kind("water.gif", Some(OutputKind::Apng)), OutputKind::Apng);
        assert_eq!("APNG".parse::<OutputKind>(), Ok(OutputKind::Apng));
        assert_eq!(
            "avi".parse::<OutputKind>(),
            Err(String::from(
                "unknown format 'avi' (expected one of gif, png, y4m, mp4, webm)"
            ))
        );
        let error = OutputKind::for_output(Path::new("frames/"), Some(OutputKind::Gif))
            .unwrap_err()
            .to_string();
        assert!(error.contains("--format gif"), "{error}");
    }

    #[test]
    fn a_file_named_by_format_gets_that_format() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("movie");
        let options = OutputOptions {
            format: Some(OutputKind::Y4m),
            ..OutputOptions::default()
        };
        let mut sink = open_output(&path, &info(W, H), &[], &options).unwrap();
        sink.write_frame(&pattern_frame(W, H, 0)).unwrap();
        sink.finish().unwrap().commit().unwrap();
        assert!(fs::read(&path).unwrap().starts_with(b"YUV4MPEG2 W37 H21"));
    }

    // ---- atomic one-shot files ----

    #[test]
    fn new_files_take_the_first_free_name_and_never_replace_one() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("shot.png"), PREVIOUS).unwrap();
        let names = || ["shot.png", "shot-2.png", "shot-3.png"].map(String::from);
        let first = write_new_file(dir.path(), names(), b"one")
            .unwrap()
            .unwrap();
        let second = write_new_file(dir.path(), names(), b"two")
            .unwrap()
            .unwrap();
        assert_eq!(first, dir.path().join("shot-2.png"));
        assert_eq!(second, dir.path().join("shot-3.png"));
        assert_eq!(write_new_file(dir.path(), names(), b"three").unwrap(), None);
        assert_eq!(fs::read(dir.path().join("shot.png")).unwrap(), PREVIOUS);
        assert_eq!(fs::read(&second).unwrap(), b"two");
        assert_eq!(
            entries(dir.path()),
            ["shot-2.png", "shot-3.png", "shot.png"]
        );
    }

    #[test]
    fn a_staged_file_is_a_hidden_temporary_until_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grid.npy");
        let staged = stage_npy_i16(&path, 2, 1, &[1, 2], false).unwrap();
        let names = entries(dir.path());
        assert_eq!(names.len(), 1);
        assert!(
            names[0].starts_with(&format!(".ripples-{}-", std::process::id()))
                && names[0].ends_with(".npy"),
            "{names:?}"
        );
        staged.commit().unwrap();
        assert_eq!(entries(dir.path()), ["grid.npy"]);
        drop(stage_npy_i16(&path, 2, 1, &[1, 2], false).unwrap());
        assert_eq!(entries(dir.path()), ["grid.npy"]);
        let error = stage_npy_i16(&path, 2, 1, &[1, 2], true).unwrap_err();
        assert!(error.to_string().contains("already exists"), "{error}");
    }

    // ---- npy ----

    #[test]
    fn npy_i16_has_a_numpy_header_and_little_endian_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grid.npy");
        let data: [i16; 6] = [1, -2, 300, 4, -32768, 32767];
        write_npy_i16(&path, 3, 2, &data).unwrap();

        let bytes = fs::read(&path).unwrap();
        assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
        let header_len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
        let preamble_len = 10 + header_len;
        assert_eq!(preamble_len % 64, 0);
        let header = std::str::from_utf8(&bytes[10..preamble_len]).unwrap();
        assert!(header.starts_with("{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }"));
        assert!(header.ends_with('\n'));
        assert!(header.trim_end().ends_with('}'));
        let expected: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(&bytes[preamble_len..], &expected[..]);
    }

    #[test]
    fn npy_f32_uses_the_f4_dtype() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("heights.npy");
        let data = [0.5_f32, -1.25, 3.0, 1e-3];
        write_npy_f32(&path, 2, 2, &data).unwrap();
        let bytes = fs::read(&path).unwrap();
        let preamble_len = 10 + usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
        let header = std::str::from_utf8(&bytes[10..preamble_len]).unwrap();
        assert!(
            header.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }"),
            "{header}"
        );
        let expected: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(&bytes[preamble_len..], &expected[..]);
    }

    #[test]
    fn npy_with_the_wrong_number_of_values_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grid.npy");
        let error = write_npy_i16(&path, 3, 2, &[1, 2, 3]).unwrap_err();
        assert!(error.to_string().contains("3x2"), "{error}");
        assert!(!path.exists());
    }

    #[test]
    fn npy_preambles_are_always_aligned() {
        for (width, height) in [(1, 1), (3, 2), (1280, 720), (usize::MAX, usize::MAX)] {
            let preamble = npy::npy_preamble("<f4", width, height);
            assert_eq!(preamble.len() % 64, 0, "{width}x{height}");
            assert_eq!(preamble.last(), Some(&b'\n'));
            let header_len = u16::from_le_bytes([preamble[8], preamble[9]]);
            assert_eq!(usize::from(header_len) + 10, preamble.len());
        }
    }
}
