//! Output safety of `ripples render` when it does not get to finish: Ctrl-C, SIGTERM, SIGKILL
//! and a full disk. Each test starts with a file already under the requested name and checks
//! that afterwards it is still exactly that file (never a truncated new one), and, where the
//! process lives to clean up, that no temporary file is left beside it.

#![cfg(unix)]

use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const PREVIOUS: &[u8] = b"the previous render";

/// Names in `dir` other than `keep`.
fn others(dir: &Path, keep: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != keep)
        .collect();
    names.sort();
    names
}

/// Starts a render far too long to finish into `dir/out` (which holds [`PREVIOUS`]), and waits
/// until its temporary output file exists, so the signal arrives in the middle of the frames.
fn start_long_render(dir: &Path, out: &str) -> Child {
    std::fs::write(dir.join(out), PREVIOUS).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args([
            "render", "--frames", "100000", "--size", "160x120", "--out", out,
        ])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ripples binary runs");
    let deadline = Instant::now() + Duration::from_secs(30);
    while others(dir, out).is_empty() {
        assert!(
            Instant::now() < deadline,
            "no temporary output file appeared"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // A few frames in.
    std::thread::sleep(Duration::from_millis(300));
    child
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("bash")
        .args(["-c", &format!("kill -{name} {}", child.id())])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{name} failed");
}

/// Waits for `child` (at most 30 s) and returns its status and stderr.
fn finish(mut child: Child) -> (ExitStatus, String) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
            return (status, stderr);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("ripples did not stop within 30 s of the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn assert_stopped_cleanly(status: ExitStatus, stderr: &str, dir: &Path, out: &str) {
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(std::fs::read(dir.join(out)).unwrap(), PREVIOUS);
    assert_eq!(others(dir, out), Vec::<String>::new(), "left behind");
}

#[test]
fn ctrl_c_stops_cleanly_says_so_and_keeps_the_previous_file() {
    let dir = tempfile::tempdir().unwrap();
    let child = start_long_render(dir.path(), "water.gif");
    signal(&child, "INT");
    let (status, stderr) = finish(child);
    assert_stopped_cleanly(status, &stderr, dir.path(), "water.gif");
}

#[test]
fn sigterm_stops_an_apng_render_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let child = start_long_render(dir.path(), "water.png");
    signal(&child, "TERM");
    let (status, stderr) = finish(child);
    assert_stopped_cleanly(status, &stderr, dir.path(), "water.png");
}

#[test]
fn a_killed_render_never_replaces_the_previous_file() {
    let dir = tempfile::tempdir().unwrap();
    let child = start_long_render(dir.path(), "water.gif");
    signal(&child, "KILL");
    let (status, _) = finish(child);
    assert_eq!(status.code(), None, "killed by a signal");
    // A killed process cannot clean up: its temporary file may stay, under its own name.
    assert_eq!(
        std::fs::read(dir.path().join("water.gif")).unwrap(),
        PREVIOUS
    );
    for name in others(dir.path(), "water.gif") {
        assert!(name.starts_with(".ripples-"), "{name}");
    }
}

#[test]
fn a_full_disk_is_an_error_that_keeps_the_previous_file() {
    // The file-size limit makes writes fail past 64 KiB as a full disk would (with the
    // signal it raises ignored, the write returns an error instead of killing the process).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("water.gif"), PREVIOUS).unwrap();
    let script = format!(
        "trap '' XFSZ; ulimit -f 64; exec '{}' render --frames 60 --size 640x480 --rain 5 --out water.gif",
        env!("CARGO_BIN_EXE_ripples")
    );
    let output = Command::new("bash")
        .args(["-c", &script])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(
        stderr.contains("water.gif") && stderr.contains("large"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(dir.path().join("water.gif")).unwrap(),
        PREVIOUS
    );
    assert_eq!(others(dir.path(), "water.gif"), Vec::<String>::new());
}
