//! Outputs and inputs that are not regular files: character devices, named pipes, links to
//! them. An output there is written in place (a renamed file would replace the device, and a
//! pipe's reader would get nothing), a write that fails fails the render, and an input there
//! is read once, as a stream. The devices are made in a temporary directory (`mknod c 1 3` is
//! a null device, `c 1 7` a full one), never the system's own; a test that cannot make one
//! (not root) says so and passes.

#![cfg(unix)]

use crate::common;

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::{ripples, stderr};

/// A short render: rain on the built-in picture.
const RENDER: [&str; 6] = ["render", "--size", "48x32", "--frames", "4", "--rain=3"];

/// Makes a character device `major, minor` at `path`; false (with a notice) where this user
/// may not.
fn make_device(path: &Path, major: u32, minor: u32) -> bool {
    let made = Command::new("mknod")
        .arg(path)
        .args(["c", &major.to_string(), &minor.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !made {
        eprintln!("skipping: cannot make a device node with mknod here (needs root)");
    }
    made
}

/// Makes a named pipe at `path`.
fn make_fifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

fn is_char_device(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|metadata| metadata.file_type().is_char_device())
}

/// Reads the named pipe at `path` to its end on a thread (opening it waits for the writer).
fn read_fifo(path: &Path) -> JoinHandle<Vec<u8>> {
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        File::open(path).unwrap().read_to_end(&mut bytes).unwrap();
        bytes
    })
}

/// Writes `bytes` into the named pipe at `path` on a thread (opening it waits for the reader).
fn write_fifo(path: &Path, bytes: Vec<u8>) -> JoinHandle<()> {
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        // The reader may close early (it refused the input): not this thread's failure.
        let _ = File::options()
            .write(true)
            .open(path)
            .and_then(|mut pipe| pipe.write_all(&bytes));
    })
}

/// Joins a [`write_fifo`] thread once the reader has ended: if it never opened the pipe (it
/// failed before), a reader opened here lets the writer through, so the test fails instead of
/// hanging.
fn finish_writing(fifo: &Path, writer: JoinHandle<()>) {
    if !writer.is_finished() {
        // Left to end with the test if the writer finished meanwhile.
        drop(read_fifo(fifo));
    }
    writer.join().unwrap();
}

fn render(dir: &Path, extra: &[&str]) -> std::process::Output {
    let args: Vec<&str> = RENDER.iter().chain(extra).copied().collect();
    ripples(&args, dir)
}

fn assert_success(output: &std::process::Output) {
    assert!(output.status.success(), "{}", stderr(output));
}

/// The frames of a GIF.
fn gif_frames(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a whole GIF") {
        frames.push(frame.buffer.to_vec());
    }
    frames
}

#[test]
fn a_character_device_output_stays_a_device_and_takes_the_write() {
    let dir = tempfile::tempdir().unwrap();
    let null = dir.path().join("mynull");
    if !make_device(&null, 1, 3) {
        return;
    }
    // As a GIF, as one PNG through a link, and with the heights beside it through a link.
    std::os::unix::fs::symlink(&null, dir.path().join("still.png")).unwrap();
    std::os::unix::fs::symlink(&null, dir.path().join("heights.npy")).unwrap();
    for extra in [
        &["--out", "mynull", "--format", "gif"][..],
        &["--out", "still.png", "--frame", "2"],
        &["--out", "water.gif", "--heights-out", "heights.npy"],
        // Writing into a device replaces nothing, so --no-clobber lets it be.
        &["--out", "mynull", "--format", "png", "--no-clobber"],
    ] {
        let output = render(dir.path(), extra);
        assert_success(&output);
        assert!(is_char_device(&null), "{extra:?} replaced the device");
        let link = std::fs::read_link(dir.path().join("still.png")).unwrap();
        assert_eq!(link, null, "{extra:?} replaced the link");
    }
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["heights.npy", "mynull", "still.png", "water.gif"]);
}

#[test]
fn a_full_device_fails_the_render_naming_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("myfull");
    if !make_device(&full, 1, 7) {
        return;
    }
    std::os::unix::fs::symlink(&full, dir.path().join("full.png")).unwrap();
    std::os::unix::fs::symlink(&full, dir.path().join("full.npy")).unwrap();
    for (extra, named) in [
        (&["--out", "myfull", "--format", "gif"][..], "myfull"),
        (&["--out", "myfull", "--format", "y4m"], "myfull"),
        (&["--out", "full.png", "--frame", "1"], "full.png"),
        (
            &["--out", "water.gif", "--heights-out", "full.npy"],
            "full.npy",
        ),
    ] {
        let output = render(dir.path(), extra);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{extra:?}: {message}");
        assert!(
            message.contains("No space left on device") && message.contains(named),
            "{extra:?}: {message}"
        );
        assert!(!message.contains("panicked"), "{message}");
        assert!(is_char_device(&full), "{extra:?} replaced the device");
    }
}

#[test]
fn a_named_pipe_output_gives_its_reader_the_whole_animation() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.gif");
    make_fifo(&fifo);
    let reader = read_fifo(&fifo);
    assert_success(&render(dir.path(), &["--out", "fifo.gif"]));
    let through_pipe = reader.join().unwrap();
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());

    assert_success(&render(dir.path(), &["--out", "file.gif"]));
    let from_file = std::fs::read(dir.path().join("file.gif")).unwrap();
    assert_eq!(gif_frames(&through_pipe).len(), 4);
    assert_eq!(gif_frames(&through_pipe), gif_frames(&from_file));

    // One frame as a PNG through a pipe too.
    let fifo = dir.path().join("fifo.png");
    make_fifo(&fifo);
    let reader = read_fifo(&fifo);
    assert_success(&render(dir.path(), &["--out", "fifo.png", "--frame", "3"]));
    let through_pipe = reader.join().unwrap();
    let image = image::load_from_memory(&through_pipe).expect("a whole PNG");
    assert_eq!((image.width(), image.height()), (48, 32));
}

#[test]
fn an_mp4_into_a_named_pipe_is_streamed_whole() {
    if !ffmpeg_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.mp4");
    make_fifo(&fifo);
    let reader = read_fifo(&fifo);
    assert_success(&render(dir.path(), &["--out", "fifo.mp4"]));
    let through_pipe = reader.join().unwrap();
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    let saved = dir.path().join("saved.mp4");
    std::fs::write(&saved, &through_pipe).unwrap();
    let probe = Command::new("ffprobe")
        .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
        .args(["-show_entries", "stream=nb_read_frames", "-of", "csv=p=0"])
        .arg(&saved)
        .output()
        .unwrap();
    assert!(probe.status.success(), "{}", stderr(&probe));
    assert_eq!(String::from_utf8_lossy(&probe.stdout).trim(), "4");
}

/// Whether ffmpeg and ffprobe are on PATH; without them a test is skipped with a notice, or
/// fails with RIPPLES_E2E=1.
fn ffmpeg_available() -> bool {
    for tool in ["ffmpeg", "ffprobe"] {
        if Command::new(tool).arg("-version").output().is_err() {
            assert!(
                std::env::var("RIPPLES_E2E").as_deref() != Ok("1"),
                "{tool} is required when RIPPLES_E2E=1"
            );
            eprintln!(
                "skipping: {tool} not found on PATH (set RIPPLES_E2E=1 to make this a failure)"
            );
            return false;
        }
    }
    true
}

/// Starts `ripples` with `args` in `dir`, its stderr piped.
fn start(args: &[&str], dir: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends SIGINT to `child` once, then waits at most `within` for it to end; its exit code
/// (`None` when it had to be killed) and stderr.
fn interrupt_once(mut child: std::process::Child, within: Duration) -> (Option<i32>, String) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + within;
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut message = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut message)
        .unwrap();
    (code, message)
}

#[cfg(target_os = "linux")]
/// Waits until `child` waits in an open that blocks (on its thread named "blocking open");
/// fails if it ends first.
fn wait_for_blocked_open(child: &mut std::process::Child) {
    let tasks = PathBuf::from(format!("/proc/{}/task", child.id()));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let waiting = std::fs::read_dir(&tasks).into_iter().flatten().any(|task| {
            std::fs::read_to_string(task.unwrap().path().join("comm"))
                .is_ok_and(|name| name.trim() == "blocking open")
        });
        if waiting {
            return;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("ripples ended ({status}) without waiting for the pipe's other end");
        }
        assert!(
            Instant::now() < deadline,
            "ripples never waited for the pipe"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn one_ctrl_c_ends_a_wait_for_a_pipe_reader() {
    let dir = tempfile::tempdir().unwrap();
    make_fifo(&dir.path().join("fifo.gif"));
    let args: Vec<&str> = RENDER
        .iter()
        .chain(&["--out", "fifo.gif"])
        .copied()
        .collect();
    let mut child = start(&args, dir.path());
    wait_for_blocked_open(&mut child);
    let (code, message) = interrupt_once(child, Duration::from_secs(5));
    assert_eq!(code, Some(130), "{message}");
    assert!(
        std::fs::metadata(dir.path().join("fifo.gif"))
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

/// Writes a 48x32 picture (`photo.png`) and a water mask of its lower half (`mask.png`) into
/// `dir`; returns their bytes.
fn write_photo_and_mask(dir: &Path) -> (Vec<u8>, Vec<u8>) {
    image::RgbaImage::from_fn(48, 32, |x, y| {
        image::Rgba([(x * 5) as u8, (y * 7) as u8, ((x + y) * 3) as u8, 255])
    })
    .save(dir.join("photo.png"))
    .unwrap();
    image::GrayImage::from_fn(48, 32, |_, y| image::Luma([if y >= 16 { 255 } else { 0 }]))
        .save(dir.join("mask.png"))
        .unwrap();
    (
        std::fs::read(dir.join("photo.png")).unwrap(),
        std::fs::read(dir.join("mask.png")).unwrap(),
    )
}

/// Runs `ripples` through bash, so that `<(cat x)` gives it a pipe as `/dev/fd/N`.
fn ripples_in_bash(arguments: &str, dir: &Path) -> std::process::Output {
    Command::new("bash")
        .arg("-c")
        .arg(format!("exec \"$0\" {arguments}"))
        .arg(env!("CARGO_BIN_EXE_ripples"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn pictures_through_pipes_render_as_the_files_do() {
    let dir = tempfile::tempdir().unwrap();
    let (_, mask) = write_photo_and_mask(dir.path());
    let from_files = render(
        dir.path(),
        &[
            "photo.png",
            "--water-mask",
            "mask.png",
            "--out",
            "files.gif",
        ],
    );
    assert_success(&from_files);

    // The picture as `<(cat photo.png)`, the mask through a named pipe with a writer.
    let fifo = dir.path().join("mask-fifo");
    make_fifo(&fifo);
    let writer = write_fifo(&fifo, mask);
    let through_pipes = ripples_in_bash(
        &format!(
            "{} <(cat photo.png) --water-mask mask-fifo --out pipes.gif",
            RENDER.join(" ")
        ),
        dir.path(),
    );
    finish_writing(&fifo, writer);
    assert_success(&through_pipes);
    let read = |name: &str| gif_frames(&std::fs::read(dir.path().join(name)).unwrap());
    assert_eq!(read("pipes.gif").len(), 4);
    assert_eq!(read("pipes.gif"), read("files.gif"));

    // A scene file through a pipe too.
    let scene = ripples_in_bash(
        "render --scene <(printf 'width = 40\\nheight = 24\\nframes = 3\\n') --out scene.gif",
        dir.path(),
    );
    assert_success(&scene);
    assert_eq!(read("scene.gif").len(), 3);
}

#[test]
fn a_clip_through_a_pipe_is_refused_as_such() {
    let dir = tempfile::tempdir().unwrap();
    // An animated GIF of two frames: a clip, which ffmpeg would have to read again.
    let mut bytes = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut bytes, 4, 4, &[0, 0, 0, 255, 255, 255]).unwrap();
        for colour in [0u8, 1] {
            let frame = gif::Frame {
                width: 4,
                height: 4,
                buffer: std::borrow::Cow::Owned(vec![colour; 16]),
                ..gif::Frame::default()
            };
            encoder.write_frame(&frame).unwrap();
        }
    }
    std::fs::write(dir.path().join("clip.gif"), &bytes).unwrap();
    let output = ripples_in_bash(
        "render <(cat clip.gif) --frames 2 --out out.gif",
        dir.path(),
    );
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.contains("/dev/fd/") && message.contains("must be a file"),
        "{message}"
    );
    assert!(!dir.path().join("out.gif").exists());
}

#[test]
fn one_ctrl_c_ends_a_wait_for_a_pipe_writer() {
    let dir = tempfile::tempdir().unwrap();
    write_photo_and_mask(dir.path());
    make_fifo(&dir.path().join("mask-fifo"));
    let args: Vec<&str> = RENDER
        .iter()
        .chain(&["photo.png", "--water-mask", "mask-fifo", "--out", "out.gif"])
        .copied()
        .collect();
    let child = start(&args, dir.path());
    // Time to reach the mask, which no one writes.
    std::thread::sleep(Duration::from_millis(1500));
    let (code, message) = interrupt_once(child, Duration::from_secs(5));
    assert_eq!(code, Some(130), "{message}");
    assert!(!dir.path().join("out.gif").exists());
}
