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
//!   still water shimmer as the palette shifts, so the GIF writer ([`gif`]) learns a palette
//!   from sample pixels given up front, learns it again only where the water's colours have
//!   clearly drifted from it (about once a second), and maps every pixel through a lookup table
//!   built once per palette, without dithering (which would flicker too).
//!
//! Whatever can be checked cheaply (the kind, the directory, the frame rate, an existing file
//! under `--no-clobber`) is checked by [`open_output`], before the caller spends time rendering.
//! The output `-` is standard output, for the formats that can be streamed. A device, a named
//! pipe or a socket is written the same way, in place: renaming a finished file over it would
//! replace the device (as root, `/dev/null` itself) and leave a pipe's reader with nothing.

pub mod cleanup;
pub mod interrupt;

mod apng_sink;
mod dir_sink;
mod ffmpeg_sink;
mod gif;
mod npy;
mod still_sink;
mod y4m_sink;

pub use self::gif::{DEFAULT_LOSSY, MAX_LOSSY};

use std::ffi::OsStr;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use tempfile::TempPath;

pub use npy::{stage_npy_f32, stage_npy_i16, write_npy_f32, write_npy_i16};
pub use still_sink::StillPngSink;

use self::gif::GifSink;
use apng_sink::ApngSink;
use cleanup::{Leftover, Registration};
use dir_sink::{DirSink, StagedFrames};
use ffmpeg_sink::{DEFAULT_STALL_TIMEOUT, FfmpegSink, VideoCodec};
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

    /// What this kind holds, for messages: "an animated GIF", "H.264 video (MP4)", ...
    pub fn description(self) -> &'static str {
        match self {
            OutputKind::Gif => "a GIF",
            OutputKind::Apng => "an animated PNG",
            OutputKind::Y4m => "Y4M video",
            OutputKind::Mp4 => "H.264 video in MP4",
            OutputKind::Webm => "VP9 video in WebM",
            OutputKind::Directory => "a directory of PNG frames",
        }
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

/// Warning lines (without the `warning: ` prefix) for an output that will not be what its
/// options suggest, said before rendering: a `--format` that contradicts the file's extension
/// (`--format mp4 --out x.gif` writes H.264 into a file named `.gif`), and a GIF whose frames
/// last longer than the 655.35 s a GIF delay can hold (`--fps 0.001`).
pub fn surprises(
    path: &Path,
    kind: OutputKind,
    format: Option<OutputKind>,
    fps: f64,
) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some(format) = format
        && !is_standard_output(path)
        && let Ok(named) = OutputKind::from_path(path)
        && named != format
    {
        warnings.push(format!(
            "--format {} writes {} into '{}', whose extension says {}",
            format.format_name(),
            format.description(),
            path.display(),
            named.description()
        ));
    }
    let longest_gif_delay = f64::from(u16::MAX) / 100.0;
    if kind == OutputKind::Gif && fps > 0.0 && 1.0 / fps > longest_gif_delay {
        warnings.push(format!(
            "at {fps} fps a frame lasts {:.2} s, but a GIF frame shows at most {longest_gif_delay} \
             s: each is cut to that, so the GIF plays {:.1}x faster than asked",
            1.0 / fps,
            (1.0 / fps) / longest_gif_delay
        ));
    }
    warnings
}

fn ends_with_separator(path: &Path) -> bool {
    path.as_os_str()
        .as_encoded_bytes()
        .last()
        .is_some_and(|&byte| byte.is_ascii() && std::path::is_separator(char::from(byte)))
}

/// How to write an output, beside its path.
#[derive(Debug, Clone)]
pub struct OutputOptions {
    /// The format, overriding the path's extension (and naming the format for `-`).
    pub format: Option<OutputKind>,
    /// Never replace an existing file: refuse up front when the output exists, and fail
    /// rather than replace a file that appears under its name while rendering.
    pub no_clobber: bool,
    /// A sound track to put beside the frames (MP4 and WebM; the other formats have none).
    pub sound: Option<SoundTrack>,
    /// How many levels a GIF pixel may be off on a flat area, beyond the palette's own error
    /// (`--lossy`, 0 to [`MAX_LOSSY`]; more where the picture has contrast).
    pub gif_lossy: u8,
}

impl Default for OutputOptions {
    fn default() -> OutputOptions {
        OutputOptions {
            format: None,
            no_clobber: false,
            sound: None,
            gif_lossy: DEFAULT_LOSSY,
        }
    }
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
        let content = match &self.content {
            StagedContent::Temporary(file) => format!("{file:?}"),
            StagedContent::InMemory(bytes) => format!("{} bytes in memory", bytes.len()),
        };
        f.debug_struct("StagedFile")
            .field("target", &self.target)
            .field("content", &content)
            .finish()
    }
}

impl std::fmt::Debug for TemporaryFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TemporaryFile")
            .field("temp", &self.temp)
            .field("target", &self.target)
            .finish_non_exhaustive()
    }
}

/// What [`FinishedOutput::commit`] moves into place.
enum Staged {
    File(TemporaryFile),
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

/// Where a single-file sink's bytes go: a temporary file beside the target, the target itself
/// when it is a device or a pipe, or standard output.
enum Destination {
    File(TemporaryFile),
    /// A device, a named pipe or a socket, written as the bytes come, like standard output: a
    /// file renamed over it would replace it (and a pipe's reader would get nothing).
    InPlace,
    StandardOutput,
}

impl Destination {
    /// Opens the stream for `target`: a temporary file with this suffix, the target itself
    /// when it is a device or a pipe ([`is_device_or_pipe`]), or standard output for `-`.
    fn open(
        target: &Path,
        suffix: &str,
        options: &OutputOptions,
    ) -> Result<(Box<dyn Write + Send>, Destination)> {
        if is_standard_output(target) {
            return Ok((Box::new(std::io::stdout()), Destination::StandardOutput));
        }
        if is_device_or_pipe(target) {
            return Ok((Box::new(open_in_place(target)?), Destination::InPlace));
        }
        let (file, staged) = TemporaryFile::create(target, suffix, !options.no_clobber)?;
        Ok((Box::new(file), Destination::File(staged)))
    }

    fn finished(self, written: Written) -> FinishedOutput {
        FinishedOutput {
            written,
            staged: match self {
                Destination::File(file) => Staged::File(file),
                Destination::InPlace | Destination::StandardOutput => Staged::Nothing,
            },
        }
    }
}

/// Whether `path` leads (through any links) to a device, a named pipe or a socket: an output
/// written in place, as its bytes come, never replaced by a finished file renamed over it.
/// Writing into one replaces nothing, so `--no-clobber` lets it be.
pub fn is_device_or_pipe(path: &Path) -> bool {
    !is_standard_output(path)
        && fs::metadata(path).is_ok_and(|metadata| !metadata.is_file() && !metadata.is_dir())
}

/// Opens the device or pipe at `path` for writing; a pipe's open waits for a reader, until
/// Ctrl-C.
fn open_in_place(path: &Path) -> Result<File> {
    let owned = path.to_path_buf();
    interrupt::unless_interrupted(move || fs::OpenOptions::new().write(true).open(owned))?.map_err(
        |error| {
            anyhow!(
                "output '{}': cannot open it for writing: {error}",
                path.display()
            )
        },
    )
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
/// - Standard output, and a device, a named pipe or a socket (through links too; see
///   [`is_device_or_pipe`]): written as it is encoded, not atomically (a failure leaves a
///   truncated stream and an error), never replaced by a file; MP4 as fragmented MP4, which
///   needs no seeking.
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
    if !to_standard_output && !is_device_or_pipe(path) {
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

/// For `--no-clobber` and a single file: an error if `path` exists (even as a broken link),
/// unless it is a device or a pipe, which is written into, not replaced.
pub fn check_not_existing(path: &Path) -> Result<()> {
    if !is_standard_output(path) && !is_device_or_pipe(path) && fs::symlink_metadata(path).is_ok() {
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
/// [`TemporaryFile::commit`] moves it under the target name instead.
struct TemporaryFile {
    /// A second handle to the temporary file, to flush it to disk before the rename.
    sync_handle: File,
    /// Dropped (the file deleted) before `registration` forgets it.
    temp: TempPath,
    registration: Registration,
    target: PathBuf,
    /// Whether the commit may replace an existing file (false for `--no-clobber`).
    replace: bool,
}

impl TemporaryFile {
    /// Creates the temporary file in the target's directory (renames do not cross file
    /// systems) and returns a handle to write it through.
    fn create(target: &Path, suffix: &str, replace: bool) -> Result<(File, TemporaryFile)> {
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
        let staged = TemporaryFile {
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

    /// Flushes the finished file to disk and renames it to the target: replacing any file
    /// there, or, without `replace`, failing if one appeared since the output was opened.
    fn commit(self) -> Result<()> {
        let TemporaryFile {
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
        let TemporaryFile {
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

/// A whole single-file output, written and waiting for [`StagedFile::commit`] to put it under
/// its name: in a temporary file beside it, or, for a device or a pipe (which no file may
/// replace), in memory until then, so that it is written only once the outputs before it are.
pub struct StagedFile {
    target: PathBuf,
    content: StagedContent,
}

enum StagedContent {
    Temporary(TemporaryFile),
    InMemory(Vec<u8>),
}

impl StagedFile {
    /// The name the file will have.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Moves the temporary file under the target name (see [`stage_file`]), or writes the
    /// bytes into the device or pipe; a failed write is an error naming the target.
    pub fn commit(self) -> Result<()> {
        match self.content {
            StagedContent::Temporary(file) => file.commit(),
            StagedContent::InMemory(bytes) => {
                let mut out = open_in_place(&self.target)?;
                out.write_all(&bytes)
                    .and_then(|()| out.flush())
                    .map_err(|error| anyhow!("cannot write '{}': {error}", self.target.display()))
            }
        }
    }
}

/// Writes a whole file produced by `write`, ready to be put under `target` by
/// [`StagedFile::commit`] (replacing a file there unless `no_clobber`). For small one-shot
/// outputs.
pub fn stage_file(
    target: &Path,
    no_clobber: bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<StagedFile> {
    check_parent_directory(target)?;
    if no_clobber {
        check_not_existing(target)?;
    }
    let content = if is_device_or_pipe(target) {
        let mut bytes = Vec::new();
        write(&mut bytes)
            .map_err(|error| anyhow!("cannot write '{}': {error}", target.display()))?;
        StagedContent::InMemory(bytes)
    } else {
        StagedContent::Temporary(stage_temporary_file(target, no_clobber, write)?)
    };
    Ok(StagedFile {
        target: target.to_path_buf(),
        content,
    })
}

/// Writes a whole file produced by `write` to a temporary file beside `target`.
fn stage_temporary_file(
    target: &Path,
    no_clobber: bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<TemporaryFile> {
    let suffix = target
        .extension()
        .map(|extension| format!(".{}", extension.to_string_lossy()))
        .unwrap_or_default();
    let (file, staged) = TemporaryFile::create(target, &suffix, !no_clobber)?;
    let mut out = std::io::BufWriter::new(file);
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|error| anyhow!("cannot write '{}': {error}", target.display()))?;
    drop(out);
    Ok(staged)
}

/// Writes a whole file at `target`: [`stage_file`], then commit.
pub fn write_file_atomically(
    target: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
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
    let target = dir.join(&first);
    check_parent_directory(&target)?;
    let staged = stage_temporary_file(&target, false, |out| out.write_all(bytes))?;
    staged.commit_to_first_free(std::iter::once(first).chain(names))
}

#[cfg(test)]
mod tests;
