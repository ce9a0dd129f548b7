//! MP4 (H.264) and WebM (VP9) through an `ffmpeg` child process that reads raw RGBA frames on
//! its standard input and writes the temporary file beside the target.

use std::ffi::{OsStr, OsString};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;

use anyhow::{Result, anyhow, bail};

use super::{AnimationInfo, FrameSink, PendingFile, check_frame_len, check_some_frames_written};

/// How many of ffmpeg's last stderr lines an error message quotes.
const STDERR_LINES_QUOTED: usize = 10;

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

    fn encoder_args(self) -> &'static [&'static str] {
        match self {
            VideoCodec::H264 => &[
                "-c:v",
                "libx264",
                "-pix_fmt",
                "yuv420p",
                "-movflags",
                "+faststart",
                "-f",
                "mp4",
            ],
            VideoCodec::Vp9 => &[
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
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    /// Collects ffmpeg's stderr on a thread, so a chatty ffmpeg never blocks on a full pipe.
    stderr: Option<JoinHandle<Vec<u8>>>,
    info: AnimationInfo,
    frames_written: u32,
    target: PathBuf,
    /// `None` once finished (or failed).
    pending: Option<PendingFile>,
}

impl FfmpegSink {
    /// Starts `program` (normally `ffmpeg`, found on `PATH`) to encode into a temporary file
    /// beside `target`.
    pub(super) fn create(
        program: &OsStr,
        target: &Path,
        info: &AnimationInfo,
        codec: VideoCodec,
    ) -> Result<FfmpegSink> {
        let (file, pending) = PendingFile::create(target, codec.file_suffix())?;
        drop(file);
        let mut command = ffmpeg_command(program, info, codec, pending.temp_path());
        // In a process group of its own, Ctrl-C in the terminal reaches only `ripples`, which
        // stops feeding frames and removes the unfinished file; ffmpeg does not race it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| spawn_error(error, target))?;
        let stdin = child.stdin.take();
        let stderr = child.stderr.take().map(|mut stderr| {
            std::thread::spawn(move || {
                let mut collected = Vec::new();
                // A read error only loses diagnostics; the exit status still tells the outcome.
                let _ = stderr.read_to_end(&mut collected);
                collected
            })
        });
        Ok(FfmpegSink {
            child: Some(child),
            stdin,
            stderr,
            info: info.clone(),
            frames_written: 0,
            target: target.to_path_buf(),
            pending: Some(pending),
        })
    }

    /// Closes ffmpeg's input and waits for it to exit; returns its exit status and stderr.
    fn wait_for_ffmpeg(&mut self) -> Result<(ExitStatus, String)> {
        drop(self.stdin.take());
        let Some(mut child) = self.child.take() else {
            bail!("ffmpeg for '{}' already stopped", self.target.display());
        };
        let status = child.wait().map_err(|error| {
            anyhow!(
                "cannot wait for ffmpeg writing '{}': {error}",
                self.target.display()
            )
        })?;
        let stderr = self
            .stderr
            .take()
            .and_then(|reader| reader.join().ok())
            .unwrap_or_default();
        Ok((status, String::from_utf8_lossy(&stderr).into_owned()))
    }

    /// The error for ffmpeg exiting early or unsuccessfully, quoting the end of its stderr.
    fn ffmpeg_failed(&self, status: ExitStatus, stderr: &str) -> anyhow::Error {
        anyhow!(
            "ffmpeg failed writing '{}' ({status}){}",
            self.target.display(),
            quote_last_lines(stderr)
        )
    }
}

impl FrameSink for FfmpegSink {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<()> {
        check_frame_len(rgba, &self.info)?;
        let Some(stdin) = self.stdin.as_mut() else {
            bail!(
                "ffmpeg for '{}' is no longer running",
                self.target.display()
            );
        };
        if let Err(error) = stdin.write_all(rgba) {
            // A broken pipe means ffmpeg exited; its stderr says why.
            if error.kind() == ErrorKind::BrokenPipe {
                let (status, stderr) = self.wait_for_ffmpeg()?;
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

    fn finish(mut self: Box<Self>) -> Result<()> {
        check_some_frames_written(&self.target, self.frames_written)?;
        let (status, stderr) = self.wait_for_ffmpeg()?;
        if !status.success() {
            return Err(self.ffmpeg_failed(status, &stderr));
        }
        match self.pending.take() {
            Some(pending) => pending.commit(),
            None => bail!("output '{}' was already finished", self.target.display()),
        }
    }
}

impl Drop for FfmpegSink {
    fn drop(&mut self) {
        drop(self.stdin.take());
        if let Some(mut child) = self.child.take() {
            // Stop ffmpeg before the temporary file goes, so nothing writes it afterwards.
            // Errors only mean it already exited.
            let _ = child.kill();
            let _ = child.wait();
        }
        // `pending`, dropped after this, deletes the temporary file.
    }
}

/// The ffmpeg command line: raw RGBA on stdin, the encoded video to `output`.
fn ffmpeg_command(
    program: &OsStr,
    info: &AnimationInfo,
    codec: VideoCodec,
    output: &Path,
) -> Command {
    let mut command = Command::new(program);
    command
        .args(["-hide_banner", "-loglevel", "error", "-y"])
        .args(["-f", "rawvideo", "-pix_fmt", "rgba"])
        .arg("-s")
        .arg(format!("{}x{}", info.width, info.height))
        .arg("-r")
        .arg(info.fps.to_string())
        .args(["-i", "-"]);
    if info.width % 2 == 1 || info.height % 2 == 1 {
        // 4:2:0 video needs even sizes: add one row or column rather than fail.
        command.args(["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"]);
    }
    command.args(codec.encoder_args());
    // The `file:` protocol keeps a path with ':' or a leading '-' from being misread.
    let mut output_url = OsString::from("file:");
    output_url.push(output);
    command.arg(output_url);
    command
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
