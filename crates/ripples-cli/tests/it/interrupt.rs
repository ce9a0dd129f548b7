//! Output safety of `ripples render` when it does not get to finish: Ctrl-C (once, twice, or
//! as `timeout -s INT` sends it, to the process and then its group), SIGTERM, SIGKILL, a hung
//! encoder and a full disk. Each test starts with a file already under the requested name and
//! checks that afterwards it is still exactly that file (never a truncated new one), and,
//! where the process lives to clean up, that no temporary file and no encoder is left.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant, SystemTime};

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
    start_long_render_with(dir, out, "160x120", &[])
}

/// [`start_long_render`] at `size`, with extra environment variables.
fn start_long_render_with(dir: &Path, out: &str, size: &str, env: &[(&str, &str)]) -> Child {
    std::fs::write(dir.join(out), PREVIOUS).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args([
            "render", "--frames", "100000", "--rain", "3", "--size", size, "--out", out,
        ])
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ripples binary runs");
    wait_for_entry(dir, out);
    // A few frames in.
    std::thread::sleep(Duration::from_millis(300));
    child
}

/// Waits until `dir` holds something besides `keep`: the render's temporary output.
fn wait_for_entry(dir: &Path, keep: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while others(dir, keep).is_empty() {
        assert!(
            Instant::now() < deadline,
            "no temporary output file appeared"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("bash")
        .args(["-c", &format!("kill -{name} {}", child.id())])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{name} failed");
}

/// Sends `name` to `child` twice: the second 30 ms after the first, once the first has
/// surely arrived (two signals sent back to back can merge into one), while the render is
/// still stopping.
fn signal_twice(child: &Child, name: &str) {
    signal(child, name);
    std::thread::sleep(Duration::from_millis(30));
    signal(child, name);
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

// ---- a second signal, which ends the process at once ----

#[test]
fn a_second_ctrl_c_removes_the_temporary_file_before_exiting() {
    for out in ["water.gif", "water.png", "water.y4m"] {
        let dir = tempfile::tempdir().unwrap();
        let child = start_long_render_with(dir.path(), out, "1280x720", &[]);
        signal_twice(&child, "INT");
        let (status, stderr) = finish(child);
        assert_stopped_cleanly(status, &stderr, dir.path(), out);
    }
}

#[test]
fn a_second_sigterm_removes_the_temporary_file_too() {
    let dir = tempfile::tempdir().unwrap();
    let child = start_long_render_with(dir.path(), "water.png", "1280x720", &[]);
    signal_twice(&child, "TERM");
    let (status, stderr) = finish(child);
    assert_stopped_cleanly(status, &stderr, dir.path(), "water.png");
}

#[test]
fn a_second_ctrl_c_removes_a_frame_directory_it_made_and_keeps_old_frames() {
    let dir = tempfile::tempdir().unwrap();
    let frames = dir.path().join("frames");
    std::fs::create_dir(&frames).unwrap();
    std::fs::write(frames.join("frame_00000.png"), PREVIOUS).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args([
            "render", "--frames", "100000", "--size", "1280x720", "--out", "frames/",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The staging directory with frames in it.
    wait_for_entry(&frames, "frame_00000.png");
    std::thread::sleep(Duration::from_millis(500));
    signal_twice(&child, "INT");
    let (status, stderr) = finish(child);
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert_eq!(others(&frames, "frame_00000.png"), Vec::<String>::new());
    assert_eq!(
        std::fs::read(frames.join("frame_00000.png")).unwrap(),
        PREVIOUS
    );

    // A directory the render made goes too.
    let child = Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args([
            "render",
            "--frames",
            "100000",
            "--size",
            "1280x720",
            "--out",
            "new/frames/",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_entry(dir.path(), "frames");
    std::thread::sleep(Duration::from_millis(800));
    signal_twice(&child, "INT");
    let (status, stderr) = finish(child);
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert_eq!(others(dir.path(), "frames"), Vec::<String>::new());
}

#[test]
fn timeout_sending_int_to_the_process_and_its_group_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("water.png"), PREVIOUS).unwrap();
    // `timeout` signals the command and then its own process group, which the command is in.
    let child = Command::new("timeout")
        .args(["--preserve-status", "-s", "INT", "3"])
        .arg(env!("CARGO_BIN_EXE_ripples"))
        .args([
            "render",
            "--frames",
            "100000",
            "--size",
            "1280x720",
            "--out",
            "water.png",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, stderr) = finish(child);
    assert_stopped_cleanly(status, &stderr, dir.path(), "water.png");
}

// ---- ffmpeg ----

/// The real ffmpeg's path, if it is on PATH; a missing ffmpeg skips the test with a notice,
/// or fails it with RIPPLES_E2E=1.
fn real_ffmpeg() -> Option<PathBuf> {
    let found = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join("ffmpeg"))
        .find(|path| path.is_file());
    if found.is_none() {
        assert!(
            std::env::var("RIPPLES_E2E").as_deref() != Ok("1"),
            "ffmpeg is required when RIPPLES_E2E=1"
        );
        eprintln!("skipping: ffmpeg not found on PATH (set RIPPLES_E2E=1 to make this a failure)");
    }
    found
}

/// A directory holding an executable `ffmpeg` shell script with `body`, and a PATH that finds
/// it first.
fn fake_ffmpeg(body: &str) -> (tempfile::TempDir, String) {
    use std::os::unix::fs::PermissionsExt;
    let bin = tempfile::tempdir().unwrap();
    let script = bin.path().join("ffmpeg");
    std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut path = std::ffi::OsString::from(bin.path());
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    (bin, path.to_string_lossy().into_owned())
}

/// Whether a process with this id runs (and is not a zombie waiting to be reaped).
fn is_running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z'))
    })
}

/// The process id a fake ffmpeg wrote to `file`.
fn recorded_pid(file: &Path) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "ffmpeg did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn assert_not_running(pid: u32, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while is_running(pid) {
        assert!(Instant::now() < deadline, "{what} ({pid}) still runs");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_second_ctrl_c_stops_ffmpeg_and_removes_its_file() {
    let Some(ffmpeg) = real_ffmpeg() else {
        return;
    };
    let pid_dir = tempfile::tempdir().unwrap();
    let pid_file = pid_dir.path().join("ffmpeg.pid");
    let (_bin, path) = fake_ffmpeg(&format!(
        "echo $$ > '{}'; exec '{}' \"$@\"",
        pid_file.display(),
        ffmpeg.display()
    ));
    let dir = tempfile::tempdir().unwrap();
    let child = start_long_render_with(dir.path(), "water.mp4", "1280x720", &[("PATH", &path)]);
    let ffmpeg_pid = recorded_pid(&pid_file);
    assert!(is_running(ffmpeg_pid));
    signal_twice(&child, "INT");
    let (status, stderr) = finish(child);
    assert_stopped_cleanly(status, &stderr, dir.path(), "water.mp4");
    assert_not_running(ffmpeg_pid, "ffmpeg");
    // Nothing writes the directory any more.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(others(dir.path(), "water.mp4"), Vec::<String>::new());
}

#[cfg(target_os = "linux")]
#[test]
fn one_ctrl_c_stops_a_render_stuck_writing_to_a_hung_encoder() {
    let pid_dir = tempfile::tempdir().unwrap();
    let pid_file = pid_dir.path().join("ffmpeg.pid");
    // Never reads its input; `sleep` is a second process holding the pipe.
    let (_bin, path) = fake_ffmpeg(&format!("echo $$ > '{}'; sleep 60", pid_file.display()));
    let dir = tempfile::tempdir().unwrap();
    let child = start_long_render_with(dir.path(), "water.mp4", "256x256", &[("PATH", &path)]);
    let ffmpeg_pid = recorded_pid(&pid_file);
    // Long enough for the pipe to fill and the write to block.
    std::thread::sleep(Duration::from_millis(700));
    let signalled = Instant::now();
    signal(&child, "INT");
    let (status, stderr) = finish(child);
    assert!(
        signalled.elapsed() < Duration::from_secs(10),
        "took {:?}",
        signalled.elapsed()
    );
    assert_stopped_cleanly(status, &stderr, dir.path(), "water.mp4");
    assert!(!stderr.contains("again"), "one signal was enough: {stderr}");
    assert_not_running(ffmpeg_pid, "the fake ffmpeg");
    // Its `sleep` was in its process group, and is gone too.
    let group_members = Command::new("pgrep")
        .args(["-g", &ffmpeg_pid.to_string()])
        .output();
    if let Ok(output) = group_members {
        let members = String::from_utf8_lossy(&output.stdout);
        let running: Vec<u32> = members
            .lines()
            .filter_map(|line| line.trim().parse().ok())
            .filter(|&pid| is_running(pid))
            .collect();
        assert!(running.is_empty(), "still running: {running:?}");
    }
}

// ---- what SIGKILL leaves ----

#[test]
fn a_later_run_removes_what_a_killed_one_left() {
    let dir = tempfile::tempdir().unwrap();
    let child = start_long_render(dir.path(), "water.png");
    let pid = child.id();
    signal(&child, "KILL");
    let (status, _) = finish(child);
    assert_eq!(status.code(), None, "killed by a signal");
    let leftovers = others(dir.path(), "water.png");
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
    // Named after the process that left it.
    let leftover = &leftovers[0];
    assert!(
        leftover.starts_with(&format!(".ripples-{pid}-")) && leftover.ends_with(".png"),
        "{leftover}"
    );
    // A fresh leftover might belong to a render on another machine sharing the directory;
    // one untouched for a while is removed.
    std::fs::File::options()
        .write(true)
        .open(dir.path().join(leftover))
        .unwrap()
        .set_modified(SystemTime::now() - Duration::from_secs(3600))
        .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args([
            "render", "--frames", "2", "--size", "16x16", "--out", "next.y4m",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "removed 1 unfinished output that a killed earlier run left in '.': {leftover}"
        )),
        "{stderr}"
    );
    let mut names = others(dir.path(), "water.png");
    names.sort();
    assert_eq!(names, ["next.y4m"]);
    assert_eq!(
        std::fs::read(dir.path().join("water.png")).unwrap(),
        PREVIOUS
    );
}
