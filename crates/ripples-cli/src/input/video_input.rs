//! Video input: a clip under the water, decoded by an `ffmpeg` child process one frame at a
//! time, so that memory does not grow with the clip's length.
//!
//! The input is told apart by its bytes, not its name: a still (PNG, JPEG, a GIF or WebP of one
//! frame, BMP, ...) is a picture, anything else (an animated GIF or WebP too) is asked of
//! `ffprobe` ([`VideoClip::open`]; not through a pipe, which gives its bytes once while ffmpeg
//! reads a clip again for every pass: that is refused as such), whose report ([`probe`]) gives the size,
//! the frame rate and the frame count, all checked before decoding starts (the size against the
//! same limits as an image). Then [`ClipPictures`] hands the renderer one picture per output
//! frame: ffmpeg writes raw RGBA frames (already fitted to the pool with `--size`/`--fit` by
//! its own scaler) into a pipe, a reader thread fills a few recycled buffers from it, so that
//! decoding overlaps simulating, rendering and encoding, and the picture for output frame `i` is
//! the clip's frame at the same time (frames are repeated or skipped when `--fps` differs from
//! the clip's rate). Past the clip's end the last frame is held, or the clip starts over
//! (`--video-end`).
//!
//! The decoding child is watched as the encoding one is ([`crate::output`]): in a process group
//! of its own, entered in the cleanup registry, stopped when it sends no frame for
//! [`STALL_TIMEOUT`] or on Ctrl-C, and killed when the pictures are dropped. What can go wrong
//! midway is an error before the output is committed, so it leaves no output: a clip that ends
//! before the frames ffprobe counted (damaged or truncated past what ffprobe could see; the
//! message says how many decoded and how to render those), and a clip whose frames change
//! size midway (ffmpeg is told not to rescale them silently, `-reinit_filter 0`, and says so).

pub mod probe;

use std::ffi::OsString;
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::process::{ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};

use crate::UsageError;
use crate::input::background::Colour;
use crate::input::fit::Fit;
use crate::input::source_image::still_formats::STILL_FORMAT_NAMES;
use crate::output::cleanup::{self, ChildProcess, Leftover, Registration};
use crate::output::interrupt::{self, Interrupted};
pub use probe::{ClipProbe, parse_probe};

/// How long the decoding ffmpeg may send no frame before it counts as hung.
pub const STALL_TIMEOUT: Duration = Duration::from_secs(60);

/// How often a wait for the next frame looks for Ctrl-C.
const INTERRUPT_POLL: Duration = Duration::from_millis(100);

/// Decoded frames waiting in the pipe's reader thread for the renderer.
const FRAMES_AHEAD: usize = 2;

/// What to install when ffmpeg or ffprobe is missing.
pub const INSTALL_FFMPEG: &str = "install ffmpeg, which provides both: `apt install ffmpeg`, \
     `dnf install ffmpeg`, `brew install ffmpeg`, `winget install ffmpeg`, or \
     https://ffmpeg.org/download.html";

/// What ffmpeg prints when a frame of another size (or pixel format) reaches a filter graph it
/// was told not to rebuild (`-reinit_filter 0`).
const SIZE_CHANGE_MESSAGE: &str = "Changing video frame properties on the fly";

/// How many of ffmpeg's last stderr lines an error quotes.
const STDERR_LINES_QUOTED: usize = 6;

/// What happens when the output has more frames than the clip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VideoEnd {
    /// The output ends with the clip (`--frames` longer than the clip is shortened).
    #[default]
    Stop,
    /// The clip's last frame stays under the water.
    Hold,
    /// The clip starts over.
    Loop,
}

impl std::str::FromStr for VideoEnd {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "stop" => Ok(Self::Stop),
            "hold" => Ok(Self::Hold),
            "loop" => Ok(Self::Loop),
            _ => Err(format!("expected stop, hold or loop, got '{text}'")),
        }
    }
}

/// Whether the file at `path` is a still picture (or cannot be read, or is empty: the picture
/// loader then says so), rather than a video or an animation to ask ffprobe about; see
/// [`crate::input::source_image::still_formats::is_still_picture_file`].
pub fn is_picture_file(path: &Path) -> bool {
    crate::input::source_image::still_formats::is_still_picture_file(path)
}

/// A video file, probed and checked.
#[derive(Debug, Clone)]
pub struct VideoClip {
    /// The file.
    pub path: PathBuf,
    /// How messages name it: `clip 'path'`.
    pub name: String,
    /// What ffprobe found.
    pub probe: ClipProbe,
}

impl VideoClip {
    /// Asks ffprobe what the file at `path` is. It was given where a picture goes, so a file
    /// that is no video either is refused as an image in no still format Ripples reads.
    pub fn open(path: &Path) -> Result<VideoClip> {
        Self::open_with(OsString::from("ffprobe").as_os_str(), path)
    }

    fn open_with(ffprobe: &std::ffi::OsStr, path: &Path) -> Result<VideoClip> {
        let shown = path.display();
        if crate::input::pipes::is_pipe_or_device(path) {
            // Its bytes were read to tell what it is; ffmpeg would find it empty.
            bail!(
                "image '{shown}': a pipe or a device that holds no still picture ({STILL_FORMAT_NAMES}); \
                 a video or an animation must be a file, since ffmpeg reads it more than once: \
                 save it to a file and give that"
            );
        }
        let output = Command::new(ffprobe)
            .args(probe::FFPROBE_ARGS)
            .arg(file_url(path))
            .stdin(Stdio::null())
            .output()
            .map_err(|error| {
                if error.kind() == ErrorKind::NotFound {
                    anyhow!(
                        "image '{shown}': not a {STILL_FORMAT_NAMES} file; to read it as a video, ffprobe \
                         is needed and was not found on PATH ({INSTALL_FFMPEG})"
                    )
                } else {
                    anyhow!("image '{shown}': cannot start ffprobe to read it as a video: {error}")
                }
            })?;
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let reason = stderr
                .lines()
                .map(str::trim)
                .rfind(|line| !line.is_empty())
                .unwrap_or("no message");
            return Err(or_animated_webp(
                path,
                reason,
                anyhow!(
                    "image '{shown}': not a {STILL_FORMAT_NAMES} file, nor a video ffmpeg can read ({reason})"
                ),
            ));
        }
        let name = format!("clip '{shown}'");
        let probe = parse_probe(&String::from_utf8_lossy(&output.stdout)).map_err(|error| {
            if error.to_string() == probe::NOT_A_VIDEO {
                or_animated_webp(
                    path,
                    probe::NOT_A_VIDEO,
                    anyhow!(
                        "image '{shown}': not a {STILL_FORMAT_NAMES} file, nor a video ({})",
                        probe::NOT_A_VIDEO
                    ),
                )
            } else {
                anyhow!("{name}: {error:#}")
            }
        })?;
        Ok(VideoClip {
            path: path.to_path_buf(),
            name,
            probe,
        })
    }

    /// The clip's first frame at `start` seconds, at its own size, as RGBA: what stands for the
    /// clip where one picture is needed (the GIF palette, the window before it plays).
    pub fn picture_at(&self, start: f64) -> Result<crate::input::source_image::SourceImage> {
        let (width, height) = (self.probe.width, self.probe.height);
        let mut decoder = ClipDecoder::start(self, start, (width, height), None, Some(1))?;
        let mut pixels = Vec::new();
        match decoder.next_frame(&mut pixels)? {
            true => Ok(crate::input::source_image::SourceImage {
                width,
                height,
                pixels,
            }),
            false => {
                let ended = decoder.finish()?;
                Err(self.ended_early(0, start, ended))
            }
        }
    }

    /// The error for a clip whose decoding ended after `decoded` frames of the selection that
    /// starts at `start` seconds, before the frames ffprobe counted.
    fn ended_early(&self, decoded: u64, start: f64, ended: Ended) -> anyhow::Error {
        let name = &self.name;
        if let Some(message) = ended.size_change_message(name, decoded) {
            return anyhow!(message);
        }
        let at = if start > 0.0 {
            format!(" from --start {start}")
        } else {
            String::new()
        };
        if decoded == 0 {
            return anyhow!(
                "{name}: ffmpeg decoded no frame of it{at}; nothing was written{}",
                quote_last_line(&ended.stderr)
            );
        }
        anyhow!(
            "{name} is damaged or truncated: only {decoded} frames{at} decode, fewer than the \
             {} ffprobe counted; nothing was written (--frames {decoded} renders those){}",
            self.probe.frames,
            quote_last_line(&ended.stderr)
        )
    }
}

/// `otherwise`, the error for a file given as the picture that is no still and that ffmpeg
/// cannot read either (`reason`, in its words); but for an animated WebP, an error that names
/// it as such: ffmpeg's webp decoder reads no animation before FFmpeg 9.0 (it finds frames of
/// no size), so the file is fine, and this ffmpeg is what falls short.
fn or_animated_webp(path: &Path, reason: &str, otherwise: anyhow::Error) -> anyhow::Error {
    if !crate::input::source_image::still_formats::is_animated_webp_file(path) {
        return otherwise;
    }
    let shown = path.display();
    anyhow!(
        "image '{shown}' is an animated WebP, which this ffmpeg cannot decode ({reason}; its \
         webp decoder reads animation only from FFmpeg 9.0 on): convert it to MP4 or GIF with \
         another tool (ImageMagick: `magick '{shown}' clip.gif`), or give one of its frames as a \
         still"
    )
}

/// `file:` and the path: ffmpeg then takes a path with ':' or a leading '-' as a file name.
fn file_url(path: &Path) -> OsString {
    let mut url = OsString::from("file:");
    url.push(path);
    url
}

/// Which part of a clip a render shows, at which rate, and for how many frames.
#[derive(Debug, Clone, PartialEq)]
pub struct ClipTiming {
    /// Seconds into the clip where the part starts.
    pub start: f64,
    /// Frames of the clip in the part.
    pub clip_frames: u64,
    /// The clip's frame rate.
    pub clip_fps: f64,
    /// The output's frame rate.
    pub fps: f64,
    /// Frames of the output.
    pub frames: u32,
    /// What shows after the part's last frame.
    pub end: VideoEnd,
    /// What the user should hear of (a --frames cut to the clip), one line each.
    pub notes: Vec<String>,
}

impl ClipTiming {
    /// The part of `clip` from `start` seconds for `duration` seconds (to its end by default),
    /// at `fps` (the clip's rate by default) for `frames` frames (the part's length by
    /// default; with [`VideoEnd::Stop`], at most that).
    pub fn new(
        clip: &VideoClip,
        (start, duration): (Option<f64>, Option<f64>),
        (fps, frames): (Option<f64>, Option<u32>),
        end: VideoEnd,
    ) -> Result<ClipTiming> {
        let probe = &clip.probe;
        let clip_fps = probe.fps;
        let start = start.unwrap_or(0.0);
        let length = probe.frames as f64 / clip_fps;
        // Frames whose time is before `start` are skipped (ffmpeg's exact seek).
        let skipped = (start * clip_fps - 1e-6).ceil().max(0.0) as u64;
        if skipped >= probe.frames {
            return Err(UsageError(format!(
                "--start {start} is past the end of {}: it is {length:.3} s long ({} frames at \
                 {} fps)",
                clip.name,
                probe.frames,
                rate_text(clip_fps)
            ))
            .into());
        }
        let mut clip_frames = probe.frames - skipped;
        if let Some(duration) = duration {
            let asked = ((duration * clip_fps).round() as u64).max(1);
            clip_frames = clip_frames.min(asked);
        }
        let fps = fps.unwrap_or(clip_fps);
        let part_frames = ((clip_frames as f64 * fps / clip_fps).round() as u64).max(1);
        let mut notes = Vec::new();
        let frames = match frames {
            Some(frames) if end == VideoEnd::Stop && u64::from(frames) > part_frames => {
                notes.push(format!(
                    "--frames {frames} is longer than {}{}: the animation stops with it after \
                     {part_frames} frames (--video-end hold or loop goes on)",
                    clip.name,
                    if start > 0.0 || duration.is_some() {
                        " (the part asked for)"
                    } else {
                        ""
                    }
                ));
                part_frames as u32
            }
            Some(frames) => frames,
            None => u32::try_from(part_frames)
                .ok()
                .filter(|&frames| frames <= ripples::limits::MAX_FRAMES)
                .ok_or_else(|| {
                    UsageError(format!(
                        "{} makes {part_frames} frames, more than the {} one render may have: \
                         pick a part with --start and --duration, or give --frames",
                        clip.name,
                        ripples::limits::MAX_FRAMES
                    ))
                })?,
        };
        Ok(ClipTiming {
            start,
            clip_frames,
            clip_fps,
            fps,
            frames,
            end,
            notes,
        })
    }

    /// The part's frame (from 0) that output frame `index` shows.
    pub fn clip_frame(&self, index: u64) -> u64 {
        let at = (index as f64 * self.clip_fps / self.fps + 1e-6).floor() as u64;
        match self.end {
            VideoEnd::Loop => at % self.clip_frames,
            VideoEnd::Stop | VideoEnd::Hold => at.min(self.clip_frames - 1),
        }
    }

    /// Seconds of the clip the output shows before it holds or loops: what its sound track
    /// can fill.
    pub fn sound_seconds(&self) -> f64 {
        let output = f64::from(self.frames) / self.fps;
        output.min(self.clip_frames as f64 / self.clip_fps)
    }
}

/// `25` or `29.97`, as a frame rate reads.
fn rate_text(fps: f64) -> String {
    let rounded = (fps * 1000.0).round() / 1000.0;
    format!("{rounded}")
}

/// The ffmpeg filter that fits a clip's frames to `(width, height)` pixels as `--fit` fits a
/// picture, or `None` when they are that size already.
pub fn fit_filter(
    clip_size: (u32, u32),
    (width, height): (u32, u32),
    fit: Fit,
    background: Colour,
) -> Option<String> {
    if clip_size == (width, height) {
        return None;
    }
    let [red, green, blue] = background.0;
    Some(match fit {
        Fit::Stretch => format!("scale={width}:{height}"),
        Fit::Cover => format!(
            "scale={width}:{height}:force_original_aspect_ratio=increase,\
             crop={width}:{height}"
        ),
        Fit::Contain => format!(
            "scale={width}:{height}:force_original_aspect_ratio=decrease,\
             pad={width}:{height}:(ow-iw)/2:(oh-ih)/2:color=0x{red:02x}{green:02x}{blue:02x}"
        ),
    })
}

/// One picture per output frame, from a clip: see the module docs.
pub struct ClipPictures {
    clip: VideoClip,
    timing: ClipTiming,
    /// The pool's size, which every picture has.
    size: (u32, u32),
    filter: Option<String>,
    /// Running while frames are still to be read; `None` after the part's last frame.
    decoder: Option<ClipDecoder>,
    /// The picture shown, and which frame of the part it is.
    current: Vec<u8>,
    current_frame: Option<u64>,
    /// Output frames handed out.
    output_frame: u64,
}

impl ClipPictures {
    /// Pictures of `clip` at `size` (fitted by `filter`, see [`fit_filter`]) as `timing` says.
    /// Starts decoding at once, so that a clip ffmpeg cannot decode is an error before the
    /// output is opened.
    pub fn new(
        clip: VideoClip,
        timing: ClipTiming,
        size: (u32, u32),
        filter: Option<String>,
    ) -> Result<ClipPictures> {
        let mut pictures = ClipPictures {
            clip,
            timing,
            size,
            filter,
            decoder: None,
            current: Vec::new(),
            current_frame: None,
            output_frame: 0,
        };
        pictures.restart()?;
        Ok(pictures)
    }

    /// The timing these pictures follow.
    pub fn timing(&self) -> &ClipTiming {
        &self.timing
    }

    fn restart(&mut self) -> Result<()> {
        self.decoder = None;
        self.decoder = Some(ClipDecoder::start(
            &self.clip,
            self.timing.start,
            self.size,
            self.filter.as_deref(),
            Some(self.timing.clip_frames),
        )?);
        self.current_frame = None;
        Ok(())
    }

    /// The picture of the next output frame: RGBA at the pool's size. Frames are decoded (and
    /// those not shown skipped) up to the one it shows; the buffer is reused, so a frame
    /// allocates nothing once the first few are in.
    pub fn next_picture(&mut self) -> Result<&[u8]> {
        let index = self.output_frame;
        self.output_frame += 1;
        self.picture(index)
    }

    /// The picture of output frame `index`: the same buffer as the last call's when it shows
    /// the same frame of the clip; the clip starts over when `index` shows an earlier frame
    /// (a loop, or a window going back).
    pub fn picture(&mut self, index: u64) -> Result<&[u8]> {
        let wanted = self.timing.clip_frame(index);
        if self.current_frame.is_some_and(|current| wanted < current) {
            self.restart()?;
        }
        while self.current_frame != Some(wanted) {
            let Some(decoder) = self.decoder.as_mut() else {
                bail!("internal error: {} has no decoder running", self.clip.name);
            };
            if decoder.next_frame(&mut self.current)? {
                self.current_frame = Some(self.current_frame.map_or(0, |frame| frame + 1));
                continue;
            }
            let decoded = self.current_frame.map_or(0, |frame| frame + 1);
            let ended = match self.decoder.take() {
                Some(decoder) => decoder.finish()?,
                None => continue,
            };
            return Err(self.clip.ended_early(decoded, self.timing.start, ended));
        }
        if self.current_frame == Some(self.timing.clip_frames - 1)
            && self.timing.end != VideoEnd::Loop
            && let Some(decoder) = self.decoder.take()
        {
            // The part's last frame: ffmpeg has nothing more to send, and its verdict on the
            // frames sent (a size change) is known once it exits.
            let ended = decoder.finish()?;
            if let Some(message) =
                ended.size_change_message(&self.clip.name, self.timing.clip_frames)
            {
                bail!(message);
            }
        }
        Ok(&self.current)
    }
}

/// How a decoding ffmpeg ended.
#[derive(Debug)]
struct Ended {
    stderr: String,
    size_changed: bool,
}

impl Ended {
    /// The error for frames that changed size midway, if they did.
    fn size_change_message(&self, name: &str, decoded: u64) -> Option<String> {
        self.size_changed.then(|| {
            format!(
                "{name} changes its frame size (or pixel format) midway, after at most \
                 {decoded} frames: a render keeps one size throughout; nothing was written (cut \
                 the part before the change with --duration, or re-encode the clip at one size)"
            )
        })
    }
}

/// A running `ffmpeg` that decodes a clip into raw RGBA frames, and the thread reading them.
struct ClipDecoder {
    child: Arc<ChildProcess>,
    frames: mpsc::Receiver<Decoded>,
    /// Buffers going back to the reader; `None` once the reader is being stopped (a reader
    /// waiting for a buffer then wakes up and ends).
    recycle: Option<mpsc::Sender<Vec<u8>>>,
    reader: Option<JoinHandle<()>>,
    stderr: Option<JoinHandle<String>>,
    size_changed: Arc<AtomicBool>,
    name: String,
    _registration: Registration,
}

/// What the reader thread sends.
enum Decoded {
    Frame(Vec<u8>),
    /// The pipe ended (after a whole frame, or in the middle of one when ffmpeg stopped
    /// while writing it: either way no more frames come).
    End,
    Failed(std::io::Error),
}

impl ClipDecoder {
    /// Starts ffmpeg on the part of `clip` from `start` seconds, `frames` frames at most,
    /// fitted by `filter` to `size`.
    fn start(
        clip: &VideoClip,
        start: f64,
        size: (u32, u32),
        filter: Option<&str>,
        frames: Option<u64>,
    ) -> Result<ClipDecoder> {
        let frame_len = size.0 as usize * size.1 as usize * 4;
        let mut command = Command::new("ffmpeg");
        command.args([
            "-hide_banner",
            "-nostdin",
            "-nostats",
            "-loglevel",
            "warning",
            "-reinit_filter",
            "0",
        ]);
        if start > 0.0 {
            command.arg("-ss").arg(start.to_string());
        }
        command.arg("-i").arg(file_url(&clip.path)).args([
            "-map",
            "0:v:0",
            "-an",
            "-sn",
            "-dn",
            "-fps_mode",
            "passthrough",
        ]);
        if let Some(filter) = filter {
            command.arg("-vf").arg(filter);
        }
        if let Some(frames) = frames {
            command.arg("-frames:v").arg(frames.to_string());
        }
        command.args(["-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"]);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| {
                if error.kind() == ErrorKind::NotFound {
                    anyhow!(
                        "{}: ffmpeg not found on PATH, needed to decode it ({INSTALL_FFMPEG})",
                        clip.name
                    )
                } else {
                    anyhow!("{}: cannot start ffmpeg to decode it: {error}", clip.name)
                }
            })?;
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let child = Arc::new(ChildProcess::new(child));
        let registration = cleanup::register(Leftover::Child(Arc::clone(&child)));
        let size_changed = Arc::new(AtomicBool::new(false));
        let stderr = stderr.map(|stderr| {
            let size_changed = Arc::clone(&size_changed);
            std::thread::spawn(move || collect_stderr(stderr, &size_changed))
        });
        let (to_renderer, frames_rx) = mpsc::sync_channel(FRAMES_AHEAD);
        let (recycle, recycled) = mpsc::channel();
        let reader = match stdout {
            Some(stdout) => Some(
                std::thread::Builder::new()
                    .name("decoder".into())
                    .spawn(move || read_frames(stdout, frame_len, &to_renderer, &recycled))
                    .map_err(|error| anyhow!("cannot start the decoding thread: {error}"))?,
            ),
            None => None,
        };
        Ok(ClipDecoder {
            child,
            frames: frames_rx,
            recycle: Some(recycle),
            reader,
            stderr,
            size_changed,
            name: clip.name.clone(),
            _registration: registration,
        })
    }

    /// Puts the next frame into `frame` (its old buffer goes back to the reader); `false` at
    /// the end of the stream. Waits at most [`STALL_TIMEOUT`], and stops at Ctrl-C.
    fn next_frame(&mut self, frame: &mut Vec<u8>) -> Result<bool> {
        let started = Instant::now();
        loop {
            if interrupt::requested() {
                return Err(anyhow::Error::new(Interrupted));
            }
            if self.size_changed.load(Ordering::Relaxed) {
                // Reported by the caller from `finish`, which waits for ffmpeg to exit.
                return Ok(false);
            }
            match self.frames.recv_timeout(INTERRUPT_POLL) {
                Ok(Decoded::Frame(next)) => {
                    let old = std::mem::replace(frame, next);
                    if let Some(recycle) = self.recycle.as_ref().filter(|_| !old.is_empty()) {
                        // The reader may have ended; the buffer is then simply dropped.
                        let _ = recycle.send(old);
                    }
                    return Ok(true);
                }
                // What ffmpeg said, or the count of frames, tells the caller why.
                Ok(Decoded::End) => return Ok(false),
                Ok(Decoded::Failed(error)) => {
                    bail!(
                        "{}: cannot read ffmpeg's decoded frames: {error}",
                        self.name
                    )
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(false),
                Err(mpsc::RecvTimeoutError::Timeout) if started.elapsed() > STALL_TIMEOUT => {
                    self.child.stop();
                    bail!(
                        "{}: ffmpeg decoding it sent no frame for {} s (it seems to hang), so it \
                         was stopped",
                        self.name,
                        STALL_TIMEOUT.as_secs()
                    );
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Waits for ffmpeg to exit (it has sent its last frame) and returns what it said; stops
    /// it at once when its frames changed size, since they are refused anyway.
    fn finish(mut self) -> Result<Ended> {
        let started = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None)
                    if started.elapsed() > STALL_TIMEOUT
                        || interrupt::requested()
                        || self.size_changed.load(Ordering::Relaxed) =>
                {
                    self.child.stop();
                    break;
                }
                Ok(None) => {
                    // Frames still coming would block ffmpeg on a full pipe: taken and dropped.
                    while self.frames.try_recv().is_ok() {}
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(error) => bail!("{}: cannot wait for ffmpeg decoding it: {error}", self.name),
            }
        }
        if interrupt::requested() {
            return Err(anyhow::Error::new(Interrupted));
        }
        self.stop_threads();
        let stderr = self
            .stderr
            .take()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_default();
        Ok(Ended {
            stderr,
            size_changed: self.size_changed.load(Ordering::Relaxed),
        })
    }

    /// Ends the reader thread: stops ffmpeg if it still runs (the pipe then ends), and takes
    /// whatever frames the reader still holds, so it is not blocked on a full channel.
    fn stop_threads(&mut self) {
        self.child.stop();
        drop(self.recycle.take());
        while self.frames.try_recv().is_ok() {}
        if let Some(reader) = self.reader.take() {
            // Drain until the reader has sent its end and exited.
            while !reader.is_finished() {
                while self.frames.try_recv().is_ok() {}
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = reader.join();
        }
    }
}

impl Drop for ClipDecoder {
    fn drop(&mut self) {
        self.stop_threads();
        if let Some(stderr) = self.stderr.take() {
            let _ = stderr.join();
        }
    }
}

/// The reader thread: fills buffers of `frame_len` bytes from ffmpeg's output and sends them,
/// reusing the buffers sent back; ends with [`Decoded::End`] (or [`Decoded::Failed`]).
fn read_frames(
    mut stdout: ChildStdout,
    frame_len: usize,
    to_renderer: &mpsc::SyncSender<Decoded>,
    recycled: &mpsc::Receiver<Vec<u8>>,
) {
    // The renderer's picture, the frames in the channel, and the one being read.
    const BUFFERS: usize = FRAMES_AHEAD + 2;
    let mut allocated = 0;
    loop {
        let mut buffer = match recycled.try_recv() {
            Ok(buffer) => buffer,
            Err(_) if allocated < BUFFERS => {
                allocated += 1;
                vec![0u8; frame_len]
            }
            Err(_) => match recycled.recv() {
                Ok(buffer) => buffer,
                Err(_) => return,
            },
        };
        buffer.resize(frame_len, 0);
        let mut filled = 0;
        while filled < frame_len {
            match stdout.read(&mut buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(error) if error.kind() == ErrorKind::Interrupted => {}
                Err(error) => {
                    let _ = to_renderer.send(Decoded::Failed(error));
                    return;
                }
            }
        }
        let message = if filled == frame_len {
            Decoded::Frame(buffer)
        } else {
            Decoded::End
        };
        let last = matches!(message, Decoded::End);
        if to_renderer.send(message).is_err() || last {
            return;
        }
    }
}

/// Reads ffmpeg's stderr to its end (so a chatty ffmpeg never blocks), raising `size_changed`
/// at ffmpeg's size-change warning; returns the last lines.
fn collect_stderr(stderr: impl Read, size_changed: &AtomicBool) -> String {
    use std::io::BufRead;
    let mut last = std::collections::VecDeque::with_capacity(STDERR_LINES_QUOTED);
    for line in std::io::BufReader::new(stderr)
        .split(b'\n')
        .map_while(Result::ok)
    {
        let line = String::from_utf8_lossy(&line).trim_end().to_string();
        if line.contains(SIZE_CHANGE_MESSAGE) {
            size_changed.store(true, Ordering::Relaxed);
        }
        if line.is_empty() {
            continue;
        }
        if last.len() == STDERR_LINES_QUOTED {
            last.pop_front();
        }
        last.push_back(line);
    }
    Vec::from(last).join("\n")
}

/// ffmpeg's last line as a suffix for an error message (which stays one line), or nothing.
fn quote_last_line(stderr: &str) -> String {
    let telling = |line: &&str| !line.is_empty() && !line.starts_with("Last message repeated");
    match stderr.lines().map(str::trim).rfind(telling) {
        Some(line) => format!(" (ffmpeg: {line})"),
        None => String::new(),
    }
}
