//! Outputs and inputs that are not regular files: character devices, named pipes, links to
//! them. An output there is written in place (a renamed file would replace the device, and a
//! pipe's reader would get nothing), a write that fails fails the render, and an input there
//! is read once, as a stream. The devices are made in a temporary directory (`mknod c 1 3` is
//! a null device, `c 1 7` a full one), never the system's own; a test that cannot make one
//! (not root) says so and passes.

#![cfg(unix)]

mod common;

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
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

#[test]
fn one_ctrl_c_ends_a_wait_for_a_pipe_reader() {
    let dir = tempfile::tempdir().unwrap();
    make_fifo(&dir.path().join("fifo.gif"));
    let args: Vec<&str> = RENDER
        .iter()
        .chain(&["--out", "fifo.gif"])
        .copied()
        .collect();
    let child = start(&args, dir.path());
    // Rendering 4 frames takes well under this; then it waits for a reader.
    std::thread::sleep(Duration::from_millis(1500));
    let (code, message) = interrupt_once(child, Duration::from_secs(5));
    assert_eq!(code, Some(130), "{message}");
    assert!(
        std::fs::metadata(dir.path().join("fifo.gif"))
            .unwrap()
            .file_type()
            .is_fifo()
    );
}
