//! End-to-end tests of a video under the water: `ripples render clip.mp4`. Clips are made by
//! ffmpeg at test time (frames of one colour each, far apart, with a gradient across them);
//! without ffmpeg the tests skip with a notice, unless RIPPLES_E2E=1 makes that a failure.
//!
//! Most tests render calm water in the classic look, which shows the picture exactly, so the
//! output's frames can be matched to the clip's: that checks which frame of the clip shows
//! under which output frame. The checks compare decoded pixels, with a tolerance for the lossy
//! colour conversions on the way (RGB to 4:2:0 and back).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{ripples, stderr, stdout};

/// Whether ffmpeg and ffprobe run; a missing one skips the test with a notice, or fails it
/// with RIPPLES_E2E=1.
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

/// Runs ffmpeg with `args` in `dir`, quietly, and checks it worked.
fn ffmpeg(dir: &Path, args: &[&str]) {
    let output = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-y"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "ffmpeg {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// ffmpeg's input for a clip of `size` at `rate` for `seconds` whose every frame has its own
/// red and blue (far from the next frame's), and green rising from left to right.
fn pattern(size: &str, rate: u32, seconds: f64) -> String {
    format!(
        "color=size={size}:rate={rate}:duration={seconds},format=rgb24,\
         geq=r='mod(N*67\\,256)':g='2*X':b='mod(N*113+40\\,256)',format=yuv420p"
    )
}

/// A clip (see [`pattern`]) written by ffmpeg to `name` (the extension picks the format), with
/// a sine tone when `sound`.
fn make_clip(dir: &Path, name: &str, size: &str, rate: u32, seconds: f64, sound: bool) -> PathBuf {
    let pattern = pattern(size, rate, seconds);
    let mut args = vec!["-f", "lavfi", "-i", &pattern];
    let tone = format!("sine=frequency=440:duration={seconds}");
    if sound {
        args.extend(["-f", "lavfi", "-i", &tone, "-shortest"]);
    }
    if name.ends_with(".mp4") {
        args.extend(["-pix_fmt", "yuv420p"]);
    }
    args.push(name);
    ffmpeg(dir, &args);
    dir.join(name)
}

/// Every frame of the video at `path`, as RGBA, and its size.
fn frames_of(path: &Path) -> (Vec<Vec<u8>>, (usize, usize)) {
    let probe = Command::new("ffprobe")
        .args(["-v", "error", "-select_streams", "v:0", "-show_entries"])
        .args(["stream=width,height", "-of", "csv=p=0"])
        .arg(path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&probe.stdout);
    let (width, height) = text.trim().split_once(',').unwrap();
    let (width, height): (usize, usize) = (width.parse().unwrap(), height.parse().unwrap());
    let output = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-i"])
        .arg(path)
        .args([
            "-fps_mode",
            "passthrough",
            "-f",
            "rawvideo",
            "-pix_fmt",
            "rgba",
            "-",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let frames = output
        .stdout
        .chunks_exact(width * height * 4)
        .map(<[u8]>::to_vec)
        .collect();
    (frames, (width, height))
}

/// ffprobe's `codec_type` of each stream of `path`, in order.
fn stream_kinds(path: &Path) -> Vec<String> {
    let output = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-show_entries",
            "stream=codec_type",
            "-of",
            "csv=p=0",
        ])
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Mean absolute difference of two frames' colour channels.
fn difference(a: &[u8], b: &[u8]) -> f64 {
    let total: u64 = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .flat_map(|(p, q)| (0..3).map(move |c| u64::from(p[c].abs_diff(q[c]))))
        .sum();
    total as f64 / (a.len() / 4 * 3) as f64
}

/// Which frame of `clip` each frame of `output` shows: the closest, and checks that it is close
/// (the same picture through lossy conversions) and clearly closer than any other.
fn shown_frames(output: &[Vec<u8>], clip: &[Vec<u8>]) -> Vec<usize> {
    output
        .iter()
        .enumerate()
        .map(|(index, frame)| {
            let mut distances: Vec<(f64, usize)> = clip
                .iter()
                .enumerate()
                .map(|(at, picture)| (difference(frame, picture), at))
                .collect();
            distances.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (best, at) = distances[0];
            let second = distances.get(1).map_or(f64::INFINITY, |d| d.0);
            assert!(
                best < 3.0 && second > 2.0 * best,
                "output frame {index}: closest clip frame {at} at {best:.2}, next at {second:.2}"
            );
            at
        })
        .collect()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Renders calm water in the classic look (which shows the picture as it is) over `clip`.
fn render_calm(dir: &Path, clip: &str, out: &str, more: &[&str]) -> std::process::Output {
    let mut args = vec![
        "render", clip, "--calm", "--render", "classic", "--out", out,
    ];
    args.extend(more);
    ripples(&args, dir)
}

#[test]
fn a_clip_renders_frame_for_frame_at_its_size_rate_and_length_with_its_sound() {
    if !ffmpeg_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    make_clip(path, "clip.mp4", "96x64", 25, 1.2, true);
    let output = render_calm(path, "clip.mp4", "calm.mp4", &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("wrote calm.mp4: 30 frames, 96x64"),
        "{}",
        stdout(&output)
    );
    assert_eq!(stream_kinds(&path.join("calm.mp4")), ["video", "audio"]);
    let (clip, _) = frames_of(&path.join("clip.mp4"));
    let (calm, size) = frames_of(&path.join("calm.mp4"));
    assert_eq!((calm.len(), size), (30, (96, 64)));
    let shown = shown_frames(&calm, &clip);
    println!("output frame -> clip frame: {shown:?}");
    assert_eq!(shown, (0..30).collect::<Vec<_>>());

    // With a stone the water shows: the frames differ from calm water's.
    let natural = |out: &str, more: &[&str]| {
        let mut args = vec!["render", "clip.mp4", "--out", out];
        args.extend(more);
        let output = ripples(&args, path);
        assert!(output.status.success(), "{}", stderr(&output));
        frames_of(&path.join(out)).0
    };
    let calm = natural("calm.webm", &["--calm"]);
    let stone = natural("stone.webm", &["--drop", "48,32,8,2000"]);
    assert_eq!(stream_kinds(&path.join("stone.webm")), ["video", "audio"]);
    let moved = difference(&stone[10], &calm[10]);
    println!("mean difference from calm water at frame 10 with a stone: {moved:.2}");
    assert!(moved > 1.0, "{moved}");

    // A GIF has no sound: said, and the frames are written.
    let output = render_calm(path, "clip.mp4", "calm.gif", &["--frames", "5"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("clip 'clip.mp4''s sound is not kept"));
}

#[test]
fn the_clip_stops_holds_or_loops_when_more_frames_are_asked() {
    if !ffmpeg_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    make_clip(path, "clip.y4m", "64x48", 10, 1.0, false);
    let (clip, _) = frames_of(&path.join("clip.y4m"));
    assert_eq!(clip.len(), 10);
    let run = |end: &str, out: &str| {
        let output = render_calm(
            path,
            "clip.y4m",
            out,
            &["--frames", "25", "--video-end", end],
        );
        assert!(output.status.success(), "{}", stderr(&output));
        let (frames, _) = frames_of(&path.join(out));
        (shown_frames(&frames, &clip), stderr(&output))
    };
    let (stop, said) = run("stop", "stop.y4m");
    assert_eq!(stop, (0..10).collect::<Vec<_>>());
    assert!(
        said.contains("--frames 25 is longer than clip 'clip.y4m': the animation stops with it after 10 frames"),
        "{said}"
    );
    let (hold, _) = run("hold", "hold.y4m");
    let held: Vec<usize> = (0..25).map(|i: usize| i.min(9)).collect();
    assert_eq!(hold, held);
    let (looped, _) = run("loop", "loop.y4m");
    assert_eq!(looped, (0..25).map(|i| i % 10).collect::<Vec<_>>());
}

#[test]
fn start_duration_and_fps_pick_the_part_and_the_pace() {
    if !ffmpeg_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    make_clip(path, "clip.mkv", "64x48", 10, 2.0, false);
    let (clip, _) = frames_of(&path.join("clip.mkv"));
    assert_eq!(clip.len(), 20);
    // From 0.5 s for 0.6 s: frames 5 to 10, each twice at 20 fps.
    let output = render_calm(
        path,
        "clip.mkv",
        "part.y4m",
        &["--start", "0.5", "--duration", "0.6", "--fps", "20"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let (part, _) = frames_of(&path.join("part.y4m"));
    let shown = shown_frames(&part, &clip);
    println!("--start 0.5 --duration 0.6 --fps 20: {shown:?}");
    assert_eq!(shown, [5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10]);
    // From between two frames to the end: from the first frame after the start.
    let output = render_calm(path, "clip.mkv", "end.y4m", &["--start", "1.55"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (end, _) = frames_of(&path.join("end.y4m"));
    assert_eq!(shown_frames(&end, &clip), [16, 17, 18, 19]);
    // Half the clip's rate: every other frame.
    let output = render_calm(path, "clip.mkv", "slow.y4m", &["--fps", "5"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (slow, _) = frames_of(&path.join("slow.y4m"));
    assert_eq!(
        shown_frames(&slow, &clip),
        [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]
    );
    // A still of frame 7 shows the clip's frame 7.
    let output = render_calm(path, "clip.mkv", "seven.png", &["--frame", "7"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let seven = image::open(path.join("seven.png")).unwrap().into_rgba8();
    assert_eq!(shown_frames(&[seven.into_raw()], &clip), [7]);
    // Past the end.
    let output = render_calm(path, "clip.mkv", "late.gif", &["--start", "2.5"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--start 2.5 is past the end of clip 'clip.mkv': it is 2.000 s long (20 frames at 10 fps)"),
        "{}",
        stderr(&output)
    );
    // A picture takes no video option.
    image::RgbaImage::new(8, 8)
        .save(path.join("still.png"))
        .unwrap();
    let output = ripples(
        &[
            "render",
            "still.png",
            "--video-end",
            "loop",
            "--out",
            "x.gif",
        ],
        path,
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--video-end is for a video under the water"));
    assert!(!path.join("late.gif").exists() && !path.join("x.gif").exists());
}

#[test]
fn a_clip_is_fitted_to_the_size_asked_for() {
    if !ffmpeg_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    make_clip(path, "wide.webm", "128x48", 10, 0.5, false);
    let output = render_calm(
        path,
        "wide.webm",
        "boxed.y4m",
        &[
            "--size",
            "64x64",
            "--fit",
            "contain",
            "--background",
            "white",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let (frames, size) = frames_of(&path.join("boxed.y4m"));
    assert_eq!((frames.len(), size), (5, (64, 64)));
    // 128x48 in 64x64: 64x24 in the middle, white bars of 20 rows above and below.
    let row = |y: usize| &frames[0][y * 64 * 4..(y + 1) * 64 * 4];
    assert!(row(2).iter().all(|&v| v > 240), "{:?}", &row(2)[..8]);
    assert!(row(61).iter().all(|&v| v > 240));
    assert!(
        row(32)
            .chunks_exact(4)
            .any(|p| p[0] < 128 || p[1] < 128 || p[2] < 128)
    );
}

/// Asserts that `args` fails with exit code `code`, a first error line containing every one of
/// `expected`, and that `dir` holds only `before` afterwards.
fn refused(dir: &Path, args: &[&str], code: i32, expected: &[&str]) {
    let before = names(dir);
    let output = ripples(args, dir);
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(code), "{said}");
    let error = said
        .lines()
        .find(|line| line.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line: {said}"));
    for part in expected {
        assert!(error.contains(part), "{part:?} not in {error}");
    }
    assert!(!said.contains("panicked"), "{said}");
    assert_eq!(names(dir), before, "{args:?} left something behind");
}

#[test]
fn bad_clips_get_one_clear_line_and_leave_no_output() {
    if !ffmpeg_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    // Not a picture and not a video.
    std::fs::write(path.join("notes.mp4"), "these are not frames").unwrap();
    refused(
        path,
        &["render", "notes.mp4", "--out", "out.mp4"],
        1,
        &[
            "image 'notes.mp4': not a PNG, JPEG, GIF, WebP, BMP, TIFF or PNM file, nor a video ffmpeg can read (",
        ],
    );
    // A video stream with no frame in it.
    std::fs::write(
        path.join("zero.y4m"),
        "YUV4MPEG2 W64 H48 F10:1 Ip A1:1 C420jpeg\n",
    )
    .unwrap();
    refused(
        path,
        &["render", "zero.y4m", "--out", "out.gif"],
        1,
        &["clip 'zero.y4m': it has no video frames"],
    );
    // Too large for the limits: refused from ffprobe's report, before any decoding.
    ffmpeg(
        path,
        &[
            "-f",
            "lavfi",
            "-i",
            "color=size=20000x2",
            "-frames:v",
            "1",
            "-c:v",
            "rawvideo",
            "big.nut",
        ],
    );
    refused(
        path,
        &["render", "big.nut", "--out", "out.gif"],
        1,
        &[
            "clip 'big.nut': its frames are 20000x2: ",
            "at most 16384 per side",
        ],
    );
    // Frames that change size midway: two transport streams of different sizes, back to back.
    for (name, size) in [("a.ts", "96x64"), ("b.ts", "48x32")] {
        make_clip(path, name, size, 10, 1.0, false);
    }
    let mut joined = std::fs::read(path.join("a.ts")).unwrap();
    joined.extend(std::fs::read(path.join("b.ts")).unwrap());
    std::fs::write(path.join("joined.ts"), joined).unwrap();
    for name in ["a.ts", "b.ts"] {
        std::fs::remove_file(path.join(name)).unwrap();
    }
    refused(
        path,
        &["render", "joined.ts", "--out", "out.mp4"],
        1,
        &[
            "clip 'joined.ts' changes its frame size (or pixel format) midway",
            "nothing was written",
        ],
    );
}

#[test]
fn a_truncated_clip_keeps_the_frames_before_the_break_and_says_so() {
    if !ffmpeg_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    // The index up front (faststart), so that the first half of the file still plays.
    ffmpeg(
        path,
        &[
            "-f",
            "lavfi",
            "-i",
            &pattern("96x64", 25, 4.0),
            "-pix_fmt",
            "yuv420p",
            "-movflags",
            "+faststart",
            "whole.mp4",
        ],
    );
    let whole = std::fs::read(path.join("whole.mp4")).unwrap();
    std::fs::write(path.join("cut.mp4"), &whole[..whole.len() / 2]).unwrap();
    let output = render_calm(path, "cut.mp4", "kept.y4m", &[]);
    let said = stderr(&output);
    assert!(output.status.success(), "{said}");
    let (kept, _) = frames_of(&path.join("kept.y4m"));
    println!("{said}");
    assert!(
        said.contains(&format!(
            "warning: clip 'cut.mp4' is truncated: it announces 100 frames but only the first {} \
             can be read whole; those are used",
            kept.len()
        )),
        "{said}"
    );
    assert!(kept.len() > 10 && kept.len() < 100, "{}", kept.len());
    let (clip, _) = frames_of(&path.join("whole.mp4"));
    // In order, from the first; near the break a frame whose reference was cut off may be
    // missing (the decoder skips it).
    let shown = shown_frames(&kept, &clip);
    println!("kept: {shown:?}");
    assert_eq!(
        shown[..kept.len() - 3],
        (0..kept.len() - 3).collect::<Vec<_>>()
    );
    assert!(shown.windows(2).all(|pair| pair[0] < pair[1]), "{shown:?}");
}

/// Writes an executable shell script named `name` into `dir`.
#[cfg(unix)]
fn script(dir: &Path, name: &str, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs `ripples` with `PATH` set to `bin` only.
#[cfg(unix)]
fn ripples_with_path(args: &[&str], dir: &Path, bin: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args(args)
        .current_dir(dir)
        .env("PATH", bin)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn missing_ffmpeg_and_a_clip_that_breaks_while_decoding_are_refused_cleanly() {
    if !ffmpeg_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    make_clip(path, "clip.mp4", "96x64", 25, 1.0, false);
    let bin = tempfile::tempdir().unwrap();
    // No ffprobe, no ffmpeg.
    let output = ripples_with_path(
        &["render", "clip.mp4", "--out", "out.gif"],
        path,
        bin.path(),
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with(
            "error: image 'clip.mp4': not a PNG, JPEG, GIF, WebP, BMP, TIFF or PNM file; to read it as a video, ffprobe is \
             needed and was not found on PATH (install ffmpeg"
        ),
        "{}",
        stderr(&output)
    );
    // ffprobe but no ffmpeg.
    let ffprobe = String::from_utf8(
        Command::new("sh")
            .args([
                "-c",
                "command -v ffprobe; command -v ffmpeg; command -v head",
            ])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let tools: Vec<&str> = ffprobe.lines().collect();
    script(bin.path(), "ffprobe", &format!("exec {} \"$@\"", tools[0]));
    let output = ripples_with_path(
        &["render", "clip.mp4", "--out", "out.gif"],
        path,
        bin.path(),
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(
            "clip 'clip.mp4': ffmpeg not found on PATH, needed to decode it (install ffmpeg"
        ),
        "{}",
        stderr(&output)
    );
    // An ffmpeg whose frames stop after 3 and a half (a damaged clip breaking mid-stream).
    let frame = 96 * 64 * 4;
    script(
        bin.path(),
        "ffmpeg",
        &format!("{} \"$@\" | {} -c {}", tools[1], tools[2], frame * 7 / 2),
    );
    let output = ripples_with_path(
        &["render", "clip.mp4", "--out", "out.y4m"],
        path,
        bin.path(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(
            "error: clip 'clip.mp4' is damaged or truncated: only 3 frames decode, fewer than \
             the 25 ffprobe counted; nothing was written (--frames 3 renders those)"
        ),
        "{}",
        stderr(&output)
    );
    assert_eq!(names(path), ["clip.mp4"]);
}

/// The ids of live processes working in `folder` whose command line mentions `text`, from
/// /proc. The folder (the test's own temporary one, which `ripples` and its ffmpeg inherit)
/// keeps another run of the same test beside this one, whose ffmpeg reads a clip of the same
/// name, out of the count: two `cargo test` runs at once saw each other's ffmpeg.
#[cfg(target_os = "linux")]
fn processes_mentioning(folder: &Path, text: &str) -> Vec<String> {
    let folder = folder.canonicalize().unwrap();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|byte| byte.is_ascii_digit()) {
            continue;
        }
        let Ok(command_line) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'));
        let here = std::fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd == folder);
        if !zombie && here && String::from_utf8_lossy(&command_line).contains(text) {
            found.push(name);
        }
    }
    found
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_while_decoding_stops_ffmpeg_and_keeps_the_previous_file() {
    if !ffmpeg_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    make_clip(path, "long.mkv", "160x120", 25, 60.0, false);
    std::fs::write(path.join("out.mp4"), "the previous render").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args(["render", "long.mkv", "--out", "out.mp4"])
        .current_dir(path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Decoding and encoding under way: the temporary output exists, and a moment later.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while names(path).len() < 3 {
        assert!(std::time::Instant::now() < deadline, "{:?}", names(path));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    // The decoding ffmpeg's input, as `ripples` names it (no other test uses this name).
    let clip = "file:long.mkv";
    assert!(
        !processes_mentioning(path, clip).is_empty(),
        "no ffmpeg decoding the clip"
    );
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let mut said = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut said).unwrap();
    assert_eq!(status.code(), Some(130), "{said}");
    assert!(
        said.contains("interrupted: stopped before the end"),
        "{said}"
    );
    assert_eq!(names(path), ["long.mkv", "out.mp4"]);
    assert_eq!(
        std::fs::read(path.join("out.mp4")).unwrap(),
        b"the previous render"
    );
    assert!(
        processes_mentioning(path, clip).is_empty(),
        "ffmpeg still runs: {:?}",
        processes_mentioning(path, clip)
    );
}

#[test]
fn an_animated_webp_is_read_or_named_for_what_it_is() {
    if !ffmpeg_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    // Four 48x32 frames of flat colours, written by Pillow (`save_all=True`): a VP8X chunk with
    // the animation flag, ANIM, then one ANMF chunk per frame.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/animated.webp");
    std::fs::copy(data, path.join("anim.webp")).unwrap();
    let output = ripples(
        &["render", "anim.webp", "--frames", "3", "--out", "out.gif"],
        path,
    );
    let said = stderr(&output);
    if output.status.success() {
        // An ffmpeg that decodes animated WebP (9.0 and later) plays it as a clip.
        assert!(path.join("out.gif").exists(), "{said}");
        return;
    }
    // One that does not says what the file is and what to do, not "not a WebP".
    assert_eq!(output.status.code(), Some(1), "{said}");
    for part in [
        "image 'anim.webp' is an animated WebP, which this ffmpeg cannot decode",
        "convert it to MP4 or GIF",
        "give one of its frames as a still",
    ] {
        assert!(said.contains(part), "{part:?} not in {said}");
    }
    assert!(!said.contains("not a PNG"), "{said}");
    assert!(!path.join("out.gif").exists());
}
