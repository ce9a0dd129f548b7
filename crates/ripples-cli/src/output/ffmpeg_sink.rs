//! MP4 (H.264) and WebM (VP9) through an `ffmpeg` child process that reads raw RGBA frames on
//! its standard input and writes the temporary file beside the target (or standard output).
//! Over a video with sound, the same ffmpeg reads that sound from the clip and encodes it beside
//! the frames (AAC in MP4, Opus in WebM), so the output is finished in one pass.
//!
//! The child is the one part of a render that Ripples does not control, so it is watched:
//!
//! - It runs in a process group of its own, so Ctrl-C in the terminal reaches only `ripples`,
//!   which decides what to stop; stopping ffmpeg kills the whole group (a wrapper script and
//!   what it started, not only the first process).
//! - It is entered in the [`cleanup`] registry, so even an exit that skips
//!   destructors (a second Ctrl-C) kills it before its file is removed.
//! - A watchdog thread ends it when it stops taking frames (no byte of a frame accepted for the
//!   stall timeout) or, after the last frame, stops making progress on its file; the blocked
//!   write then fails and the sink reports a hung encoder. The same thread ends it at once when
//!   Ctrl-C arrives while a write or the final wait is blocked on it, so one Ctrl-C always
//!   stops a render.
//!
//! ffmpeg's exit code does not always say whether its output was written: ffmpeg 5.1 exits 0
//! after a failed write of its last bytes (the MP4 trailer: "Broken pipe" when standard output
//! closed early, "No space left on device" on a full disk). So it runs with `-xerror` (exit on
//! any error, a failed trailer included), and for standard output (or a device or a named pipe)
//! it writes into a pipe that this sink relays to the real destination itself ([`relay`]): a
//! write there that fails is seen here, and is the error of the render, whatever ffmpeg's exit
//! code.
//!
//! H.264 in 4:2:0 needs even sizes: an odd-sized frame gets its last column or row repeated
//! (an invisible extra pixel line, where a black one would show, and cropping would lose a line
//! of the picture). VP9 codes odd sizes as they are, so WebM keeps the exact size.

use std::ffi::{OsStr, OsString};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Result, anyhow, bail};

use super::cleanup::{self, ChildProcess, Leftover, Registration};
use super::{
    AnimationInfo, Destination, FinishedOutput, FrameSink, OutputOptions, SoundTrack, Written,
    check_frame_len, check_some_frames_written, is_standard_output,
};
use crate::output::interrupt::{self, Interrupted};

/// How many of ffmpeg's last stderr lines an error message quotes.
const STDERR_LINES_QUOTED: usize = 10;

/// How long ffmpeg may take no frame data (or, after the last frame, leave its file unchanged)
/// before it counts as hung. Encoding one frame takes far less even at 4K on a slow machine.
pub(super) const DEFAULT_STALL_TIMEOUT: Duration = Duration::from_secs(60);

/// Frames go to ffmpeg in pieces of this size (a pipe's usual capacity), each one progress.
const WRITE_CHUNK: usize = 64 << 10;

/// How often the final wait looks whether ffmpeg has exited.
const EXIT_POLL: Duration = Duration::from_millis(10);

/// The video codecs (and containers) written through ffmpeg.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum VideoCodec {
    /// H.264 in MP4, with the index up front so playback can start while downloading.
    H264,
    /// VP9 in WebM, constant quality. `-deadline good -cpu-used 4` encodes about three times
    /// faster than the default for a barely larger file.
    Vp9,
}

impl VideoCodec {
    fn file_suffix(self) -> &'static str {
        match self {
            VideoCodec::H264 => ".mp4",
            VideoCodec::Vp9 => ".webm",
        }
    }

    /// The sound encoder: AAC for MP4, Opus for WebM.
    fn sound_args(self) -> &'static [&'static str] {
        match self {
            VideoCodec::H264 => &["-c:a", "aac", "-b:a", "160k"],
            VideoCodec::Vp9 => &["-c:a", "libopus", "-b:a", "128k"],
        }
    }

    /// Whether frames must have even sizes.
    fn needs_even_size(self) -> bool {
        self == VideoCodec::H264
    }

    /// The encoder and container options; `streaming` for a destination that cannot seek
    /// (standard output, a device, a pipe), where MP4 is written as fragments with an empty index up front.
    fn encoder_args(self, streaming: bool) -> &'static [&'static str] {
        match (self, streaming) {
            (VideoCodec::H264, false) => &[
                "-c:v",
                "libx264",
                "-pix_fmt",
                "yuv420p",
                "-movflags",
                "+faststart",
                "-f",
                "mp4",
            ],
            (VideoCodec::H264, true) => &[
                "-c:v",
                "libx264",
                "-pix_fmt",
                "yuv420p",
                "-movflags",
                "+frag_keyframe+empty_moov+default_base_moof",
                "-f",
                "mp4",
            ],
            (VideoCodec::Vp9, _) => &[
                "-c:v",
                "libvpx-vp9",
                "-pix_fmt",
                "yuv420p",
                "-b:v",
                "0",
                "-crf",
                "32",
                "-row-mt",
                "1",
                "-deadline",
                "good",
                "-cpu-used",
                "4",
                "-f",
                "webm",
            ],
        }
    }
}

/// Feeds frames to a running ffmpeg. Dropping it unfinished kills ffmpeg and deletes the
/// temporary file.
pub(super) struct FfmpegSink {
    child: Arc<ChildProcess>,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    /// Collects ffmpeg's stderr on a thread, so a chatty ffmpeg never blocks on a full pipe.
    stderr: Option<JoinHandle<Vec<u8>>>,
    /// For standard output, a device or a pipe: the thread copying ffmpeg's output there, and
    /// how that ended.
    relay: Option<JoinHandle<std::io::Result<()>>>,
    watchdog: Watchdog,
    info: AnimationInfo,
    /// The frame size sent to ffmpeg: the animation's, made even for H.264.
    encoded_width: u32,
    encoded_height: u32,
    /// An even-sized copy of the frame being sent, when the animation's size is odd.
    padded: Vec<u8>,
    frames_written: u32,
    target: PathBuf,
    /// `None` once finished.
    destination: Option<Destination>,
    /// The child's entry in the cleanup registry; forgotten once the child has stopped.
    _registration: Registration,
}

impl FfmpegSink {
    /// Starts `program` (normally `ffmpeg`, found on `PATH`) to encode into a temporary file
    /// beside `target`, or through this sink to standard output for `-` (and to a device or a
    /// pipe). ffmpeg counts as hung when it takes no frame data for `stall_timeout` (not for
    /// those streams, whose reader may pause).
    pub(super) fn create(
        program: &OsStr,
        target: &Path,
        info: &AnimationInfo,
        codec: VideoCodec,
        options: &OutputOptions,
        stall_timeout: Duration,
    ) -> Result<FfmpegSink> {
        let (out, destination) = Destination::open(target, codec.file_suffix(), options)?;
        let (encoded_width, encoded_height) = if codec.needs_even_size() {
            (
                info.width.next_multiple_of(2),
                info.height.next_multiple_of(2),
            )
        } else {
            (info.width, info.height)
        };
        // ffmpeg writes the temporary file itself; a stream it writes through this sink.
        let output = match &destination {
            Destination::File(staged) => Some(staged.temp_path().to_path_buf()),
            Destination::InPlace | Destination::StandardOutput => None,
        };
        let out = output.is_none().then_some(out);
        let mut command = ffmpeg_command(
            program,
            (encoded_width, encoded_height, info.fps),
            codec,
            output.as_deref(),
            options.sound.as_ref(),
        );
        // In a process group of its own, Ctrl-C in the terminal reaches only `ripples`, which
        // stops feeding frames and removes the unfinished file; ffmpeg does not race it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(match output {
                Some(_) => Stdio::null(),
                None => Stdio::piped(),
            })
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| spawn_error(error, target))?;
        let stdin = child.stdin.take();
        let relay = child
            .stdout
            .take()
            .zip(out)
            .map(|(from_ffmpeg, out)| relay(from_ffmpeg, out));
        let stderr = child.stderr.take().map(|mut stderr| {
            std::thread::spawn(move || {
                let mut collected = Vec::new();
                // A read error only loses diagnostics; the exit status still tells the outcome.
                let _ = stderr.read_to_end(&mut collected);
                collected
            })
        });
        let child = Arc::new(ChildProcess::new(child));
        let registration = cleanup::register(Leftover::Child(Arc::clone(&child)));
        // A stream's reader may pause.
        let stall_timeout = output.is_some().then_some(stall_timeout);
        let watchdog = Watchdog::start(Arc::clone(&child), stall_timeout, output)?;
        Ok(FfmpegSink {
            child,
            stdin,
            stderr,
            relay,
            watchdog,
            info: info.clone(),
            encoded_width,
            encoded_height,
            padded: Vec::new(),
            frames_written: 0,
            target: target.to_path_buf(),
            destination: Some(destination),
            _registration: registration,
        })
    }

    /// Sends one frame's bytes, a piece at a time, each piece telling the watchdog that
    /// ffmpeg is taking data.
    fn send(&mut self, rgba: &[u8]) -> std::io::Result<()> {
        let frame: &[u8] =
            if (self.encoded_width, self.encoded_height) == (self.info.width, self.info.height) {
                rgba
            } else {
                pad_by_repeating_edges(
                    rgba,
                    (self.info.width, self.info.height),
                    (self.encoded_width, self.encoded_height),
                    &mut self.padded,
                );
                &self.padded
            };
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(std::io::Error::from(ErrorKind::BrokenPipe));
        };
        self.watchdog.busy(Phase::TakingFrames);
        let sent = frame.chunks(WRITE_CHUNK).try_for_each(|chunk| {
            stdin.write_all(chunk)?;
            self.watchdog.progress();
            Ok(())
        });
        self.watchdog.idle();
        sent
    }

    /// Closes ffmpeg's input and waits for it to exit (or for the watchdog to stop it);
    /// returns its exit status and stderr.
    fn wait_for_ffmpeg(&mut self) -> Result<(ExitStatus, String)> {
        drop(self.stdin.take());
        self.watchdog.busy(Phase::Finishing);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) => std::thread::sleep(EXIT_POLL),
                Err(error) => bail!(
                    "cannot wait for ffmpeg writing '{}': {error}",
                    self.target.display()
                ),
            }
        };
        self.watchdog.idle();
        let stderr = self
            .stderr
            .take()
            .and_then(|reader| reader.join().ok())
            .unwrap_or_default();
        Ok((status, String::from_utf8_lossy(&stderr).into_owned()))
    }

    /// The error of relaying ffmpeg's output to standard output (or a device or a pipe), once
    /// ffmpeg has exited (the relay ends when ffmpeg's end of the pipe closes).
    fn relay_error(&mut self) -> Option<anyhow::Error> {
        let relay = self.relay.take()?;
        let shown = if is_standard_output(&self.target) {
            String::from("standard output")
        } else {
            format!("'{}'", self.target.display())
        };
        match relay.join() {
            Ok(Ok(())) => None,
            Ok(Err(error)) => Some(anyhow!("cannot write to {shown}: {error}")),
            Err(_) => Some(anyhow!(
                "cannot write to {shown}: the thread copying ffmpeg's output failed"
            )),
        }
    }

    /// The error for ffmpeg exiting early or unsuccessfully: the watchdog's reason when it
    /// stopped ffmpeg, else quoting the end of its stderr.
    fn ffmpeg_failed(&self, status: ExitStatus, stderr: &str) -> anyhow::Error {
        match self.watchdog.verdict() {
            Some(Verdict::Interrupted) => anyhow::Error::new(Interrupted),
            Some(Verdict::Stalled(phase, timeout)) => {
                let seconds = timeout.as_secs_f64();
                match phase {
                    Phase::TakingFrames => anyhow!(
                        "ffmpeg writing '{}' took no frame data for {seconds} s (it seems to \
                         hang), so it was stopped",
                        self.target.display()
                    ),
                    Phase::Finishing => anyhow!(
                        "ffmpeg writing '{}' made no progress for {seconds} s after the last \
                         frame (it seems to hang), so it was stopped",
                        self.target.display()
                    ),
                }
            }
            None => anyhow!(
                "ffmpeg failed writing '{}' ({status}){}",
                self.target.display(),
                quote_last_lines(stderr)
            ),
        }
    }
}

impl FrameSink for FfmpegSink {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<()> {
        check_frame_len(rgba, &self.info)?;
        if self.stdin.is_none() {
            bail!(
                "ffmpeg for '{}' is no longer running",
                self.target.display()
            );
        }
        if let Err(error) = self.send(rgba) {
            // A broken pipe means ffmpeg exited (or the watchdog stopped it); it says why.
            if error.kind() == ErrorKind::BrokenPipe {
                let (status, stderr) = self.wait_for_ffmpeg()?;
                if self.watchdog.verdict().is_none()
                    && let Some(error) = self.relay_error()
                {
                    return Err(error);
                }
                return Err(self.ffmpeg_failed(status, &stderr));
            }
            bail!(
                "cannot send a frame to ffmpeg writing '{}': {error}",
                self.target.display()
            );
        }
        self.frames_written += 1;
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<FinishedOutput> {
        check_some_frames_written(&self.target, self.frames_written)?;
        let (status, stderr) = self.wait_for_ffmpeg()?;
        if self.watchdog.verdict().is_none()
            && let Some(error) = self.relay_error()
        {
            return Err(error);
        }
        if !status.success() || self.watchdog.verdict().is_some() {
            return Err(self.ffmpeg_failed(status, &stderr));
        }
        let Some(destination) = self.destination.take() else {
            bail!("output '{}' was already finished", self.target.display());
        };
        let mut written = Written {
            frames: self.frames_written,
            width: self.encoded_width,
            height: self.encoded_height,
            changes: Vec::new(),
        };
        let (width, height) = (self.info.width, self.info.height);
        if (written.width, written.height) != (width, height) {
            let repeated = match (written.width != width, written.height != height) {
                (true, true) => "column and row",
                (true, false) => "column",
                _ => "row",
            };
            written.changes.push(format!(
                "{width}x{height} padded to {}x{}, the even size H.264 needs, by repeating the \
                 last {repeated}",
                written.width, written.height
            ));
        }
        Ok(destination.finished(written))
    }
}

impl Drop for FfmpegSink {
    fn drop(&mut self) {
        drop(self.stdin.take());
        // Stop ffmpeg before the temporary file goes, so nothing writes it afterwards. Does
        // nothing if it already exited.
        self.child.stop();
        self.watchdog.stop();
        // `destination`, dropped after this, deletes the temporary file, then the registry
        // forgets the child.
    }
}

/// Copies a `size` RGBA frame into `padded` at `padded_size` (at most one column and one row
/// more), repeating the last column and row into the extra ones.
pub(super) fn pad_by_repeating_edges(
    rgba: &[u8],
    size: (u32, u32),
    padded_size: (u32, u32),
    padded: &mut Vec<u8>,
) {
    let (width, height) = (size.0 as usize, size.1 as usize);
    let (padded_width, padded_height) = (padded_size.0 as usize, padded_size.1 as usize);
    padded.clear();
    for row in rgba.chunks_exact(width * 4) {
        padded.extend_from_slice(row);
        let last_pixel = &row[(width - 1) * 4..];
        for _ in width..padded_width {
            padded.extend_from_slice(last_pixel);
        }
    }
    let padded_row = padded_width * 4;
    for _ in height..padded_height {
        let last_row = padded.len() - padded_row;
        padded.extend_from_within(last_row..);
    }
}

/// What the sink is waiting on ffmpeg for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// A frame write: progress is ffmpeg taking data.
    TakingFrames,
    /// The exit after the last frame: progress is ffmpeg changing its file.
    Finishing,
}

/// Why the watchdog stopped ffmpeg.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// No progress in `Phase` for the stall timeout.
    Stalled(Phase, Duration),
    /// Ctrl-C (or SIGTERM) arrived while the sink was blocked on ffmpeg.
    Interrupted,
}

/// What the sink and its watchdog thread share.
#[derive(Default)]
struct Watch {
    /// While the sink waits on ffmpeg: what for, and the time of the last progress.
    busy: Option<(Phase, Instant)>,
    /// The size and modification time of the output file when last looked at.
    file_state: Option<(u64, SystemTime)>,
    verdict: Option<Verdict>,
}

/// A thread that stops ffmpeg when the sink has been blocked on it without progress for the
/// stall timeout, or when Ctrl-C arrives while it is blocked.
struct Watchdog {
    watch: Arc<Mutex<Watch>>,
    /// Dropping it ends the thread.
    stop_thread: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Starts the thread. `output` is the file ffmpeg writes, watched after the last frame.
    fn start(
        child: Arc<ChildProcess>,
        stall_timeout: Option<Duration>,
        output: Option<PathBuf>,
    ) -> Result<Watchdog> {
        let watch = Arc::new(Mutex::new(Watch::default()));
        let (stop_thread, stopped) = mpsc::channel::<()>();
        // Often enough to notice Ctrl-C at once and a stall within a tenth of its timeout.
        let tick = stall_timeout
            .map_or(Duration::from_millis(100), |timeout| timeout / 10)
            .clamp(Duration::from_millis(10), Duration::from_millis(100));
        let shared = Arc::clone(&watch);
        let thread = std::thread::Builder::new()
            .name("ffmpeg-watchdog".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(tick) {
                    let verdict = check(&shared, stall_timeout, output.as_deref());
                    if verdict.is_some() {
                        child.stop();
                    }
                }
            })
            .map_err(|error| anyhow!("cannot start the ffmpeg watchdog thread: {error}"))?;
        Ok(Watchdog {
            watch,
            stop_thread: Some(stop_thread),
            thread: Some(thread),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Watch> {
        self.watch.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn busy(&self, phase: Phase) {
        let mut watch = self.lock();
        watch.busy = Some((phase, Instant::now()));
        watch.file_state = None;
    }

    fn progress(&self) {
        if let Some((_, since)) = &mut self.lock().busy {
            *since = Instant::now();
        }
    }

    fn idle(&self) {
        self.lock().busy = None;
    }

    fn verdict(&self) -> Option<Verdict> {
        self.lock().verdict
    }

    /// Ends the thread (it stops nothing more after this).
    fn stop(&mut self) {
        drop(self.stop_thread.take());
        if let Some(thread) = self.thread.take() {
            // A panic in the thread has been reported by the panic hook already.
            let _ = thread.join();
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop();
    }
}

/// One look of the watchdog: records and returns a verdict when ffmpeg must be stopped.
fn check(
    watch: &Mutex<Watch>,
    stall_timeout: Option<Duration>,
    output: Option<&Path>,
) -> Option<Verdict> {
    let mut watch = watch.lock().unwrap_or_else(PoisonError::into_inner);
    let (phase, mut since) = watch.busy?;
    if watch.verdict.is_some() {
        return None;
    }
    if interrupt::requested() {
        watch.verdict = Some(Verdict::Interrupted);
        return watch.verdict;
    }
    if phase == Phase::Finishing
        && let Some(output) = output
    {
        let state = std::fs::metadata(output)
            .ok()
            .and_then(|metadata| Some((metadata.len(), metadata.modified().ok()?)));
        if state.is_some() && state != watch.file_state {
            if watch.file_state.is_some() {
                since = Instant::now();
                watch.busy = Some((phase, since));
            }
            watch.file_state = state;
        }
    }
    let timeout = stall_timeout?;
    if since.elapsed() > timeout {
        watch.verdict = Some(Verdict::Stalled(phase, timeout));
    }
    watch.verdict
}

/// The ffmpeg command line: raw RGBA frames of `(width, height, fps)` on stdin, the encoded
/// video to `output`, or to standard output for `None`.
fn ffmpeg_command(
    program: &OsStr,
    (width, height, fps): (u32, u32, f64),
    codec: VideoCodec,
    output: Option<&Path>,
    sound: Option<&SoundTrack>,
) -> Command {
    let mut command = Command::new(program);
    command
        // -xerror: a failed write (of the trailer too) is an exit code, not only a message.
        .args(["-hide_banner", "-loglevel", "error", "-xerror", "-y"])
        .args(["-f", "rawvideo", "-pix_fmt", "rgba"])
        .arg("-s")
        .arg(format!("{width}x{height}"))
        .arg("-r")
        .arg(fps.to_string())
        .args(["-i", "-"]);
    if let Some(sound) = sound {
        // The clip's sound from the part shown; `?` keeps a clip whose sound ffmpeg cannot
        // find from failing the render.
        let mut clip = OsString::from("file:");
        clip.push(&sound.path);
        if sound.start > 0.0 {
            command.arg("-ss").arg(sound.start.to_string());
        }
        command
            .arg("-t")
            .arg(sound.seconds.to_string())
            .args(["-vn", "-i"])
            .arg(clip)
            .args(["-map", "0:v:0", "-map", "1:a:0?"])
            .args(codec.sound_args());
    }
    command.args(codec.encoder_args(output.is_none()));
    match output {
        Some(output) => {
            // The `file:` protocol keeps a path with ':' or a leading '-' from being misread.
            let mut output_url = OsString::from("file:");
            output_url.push(output);
            command.arg(output_url);
        }
        None => {
            command.arg("pipe:1");
        }
    }
    command
}

/// Copies what ffmpeg writes to the real standard output (or the device or pipe) on a thread of
/// its own, flushing as it goes. On a failed write the thread stops reading, so ffmpeg's next
/// write fails too and it exits; the error is the thread's result.
fn relay(
    mut from_ffmpeg: std::process::ChildStdout,
    mut out: Box<dyn Write + Send>,
) -> JoinHandle<std::io::Result<()>> {
    std::thread::spawn(move || {
        let mut buffer = vec![0u8; 1 << 16];
        loop {
            let read = match from_ffmpeg.read(&mut buffer) {
                Ok(0) => return out.flush(),
                Ok(read) => read,
                Err(error) if error.kind() == ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            out.write_all(&buffer[..read])?;
            out.flush()?;
        }
    })
}

fn spawn_error(error: std::io::Error, target: &Path) -> anyhow::Error {
    if error.kind() == ErrorKind::NotFound {
        anyhow!(
            "ffmpeg not found on PATH: needed to write '{}' (install ffmpeg, or write .gif/.png/.y4m)",
            target.display()
        )
    } else {
        anyhow!(
            "cannot start ffmpeg to write '{}': {error}",
            target.display()
        )
    }
}

/// The last non-empty lines of `stderr`, as a suffix for an error message.
fn quote_last_lines(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim_end)
        .filter(|line| !line.is_empty())
        .collect();
    if lines.is_empty() {
        return String::from(" with no message");
    }
    let start = lines.len().saturating_sub(STDERR_LINES_QUOTED);
    format!(":\n{}", lines[start..].join("\n"))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::fs;

    /// Writes an executable shell script standing in for ffmpeg.
    fn fake_ffmpeg(dir: &Path, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("ffmpeg");
        fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// Starts the sink; retries while another test's fork still holds the new script open for
    /// writing ("text file busy").
    fn start(program: &Path, target: &Path, info: &AnimationInfo, stall: Duration) -> FfmpegSink {
        let mut attempts = 0;
        loop {
            let options = OutputOptions::default();
            match FfmpegSink::create(
                program.as_os_str(),
                target,
                info,
                VideoCodec::H264,
                &options,
                stall,
            ) {
                Ok(sink) => return sink,
                Err(error) if error.to_string().contains("busy") && attempts < 50 => {
                    attempts += 1;
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(error) => panic!("{error:#}"),
            }
        }
    }

    /// Processes of `group` that are still alive (not zombies), from /proc.
    fn live_processes_in_group(group: u32) -> Vec<u32> {
        let mut live = Vec::new();
        for entry in fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // After the command name in parentheses: state, parent, process group.
            let Some((_, after_name)) = stat.rsplit_once(") ") else {
                continue;
            };
            let fields: Vec<&str> = after_name.split_whitespace().collect();
            if fields.len() > 2 && fields[2] == group.to_string() && fields[0] != "Z" {
                live.push(pid);
            }
        }
        live
    }

    fn assert_group_ends(group: u32) {
        let deadline = Instant::now() + Duration::from_secs(5);
        while !live_processes_in_group(group).is_empty() {
            assert!(
                Instant::now() < deadline,
                "still running: {:?}",
                live_processes_in_group(group)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn info(frames: u32) -> AnimationInfo {
        AnimationInfo {
            width: 256,
            height: 256,
            fps: 30.0,
            frames,
        }
    }

    #[test]
    fn an_encoder_that_stops_reading_is_stopped_with_a_clear_error() {
        let (bin, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        // Reads nothing; `sleep` is a child of the script, holding the pipe open too.
        let program = fake_ffmpeg(bin.path(), "sleep 30");
        let target = out.path().join("hung.mp4");
        let mut sink = start(&program, &target, &info(100), Duration::from_millis(500));
        let group = sink.child.id();
        let frame = vec![0u8; 256 * 256 * 4];
        let started = Instant::now();
        let error = (0..100)
            .try_for_each(|_| sink.write_frame(&frame))
            .unwrap_err();
        let waited = started.elapsed();
        assert!(
            waited >= Duration::from_millis(500) && waited < Duration::from_secs(10),
            "{waited:?}"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "ffmpeg writing '{}' took no frame data for 0.5 s (it seems to hang), so it was \
                 stopped",
                target.display()
            )
        );
        drop(sink);
        assert_group_ends(group);
        assert_eq!(fs::read_dir(out.path()).unwrap().count(), 0);
    }

    #[test]
    fn an_encoder_that_never_exits_after_the_last_frame_is_stopped() {
        let (bin, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        // Takes every frame, then hangs without writing anything.
        let program = fake_ffmpeg(bin.path(), "cat > /dev/null; sleep 30");
        let target = out.path().join("hung.mp4");
        let mut sink = start(&program, &target, &info(2), Duration::from_millis(500));
        let group = sink.child.id();
        let frame = vec![0u8; 256 * 256 * 4];
        sink.write_frame(&frame).unwrap();
        sink.write_frame(&frame).unwrap();
        let started = Instant::now();
        let error = Box::new(sink).finish().unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            error
                .to_string()
                .contains("made no progress for 0.5 s after the last frame"),
            "{error}"
        );
        assert_group_ends(group);
        assert_eq!(fs::read_dir(out.path()).unwrap().count(), 0);
    }
}
