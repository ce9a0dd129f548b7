//! What `ripples render` writes and says it wrote, where an output cannot hold the animation
//! as rendered (a GIF above 50 fps, an odd-sized MP4), where there are two outputs
//! (`--heights-out`), where the output is standard output (`--out -`, `--format`), and where
//! an existing file must be kept (`--no-clobber`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common;
use common::{ripples, stderr, stdout};

const PREVIOUS: &[u8] = b"the previous file";

fn ok(args: &[&str], dir: &Path) -> Output {
    let output = ripples(args, dir);
    assert!(
        output.status.success(),
        "ripples {args:?} failed: {}",
        stderr(&output)
    );
    output
}

/// Names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Whether `tool` runs; a missing tool skips the test with a notice, or fails it with
/// RIPPLES_E2E=1.
fn tool_available(tool: &str) -> bool {
    let found = Command::new(tool).arg("-version").output().is_ok();
    if !found {
        assert!(
            std::env::var("RIPPLES_E2E").as_deref() != Ok("1"),
            "{tool} is required when RIPPLES_E2E=1"
        );
        eprintln!("skipping: {tool} not found on PATH (set RIPPLES_E2E=1 to make this a failure)");
    }
    found
}

/// ffprobe's "width,height,frames" of the first video stream of `path`.
fn probe(path: &Path) -> String {
    let output = Command::new("ffprobe")
        .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
        .args(["-show_entries", "stream=width,height,nb_read_frames"])
        .args(["-of", "csv=p=0"])
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// The delays (centiseconds) of every frame of a GIF.
fn gif_delays(bytes: &[u8]) -> Vec<u16> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).unwrap();
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays.push(frame.delay);
    }
    delays
}

// ---- a GIF above 50 fps ----

#[test]
fn a_gif_lasts_frames_over_fps_at_any_rate_and_says_what_it_kept() {
    let dir = tempfile::tempdir().unwrap();
    for (fps, frames, kept) in [(25, 30, 30), (30, 30, 30), (60, 60, 50), (100, 30, 15)] {
        let name = format!("water-{fps}.gif");
        let output = ok(
            &[
                "render",
                "--size",
                "24x16",
                "--frames",
                &frames.to_string(),
                "--fps",
                &fps.to_string(),
                "--out",
                &name,
            ],
            dir.path(),
        );
        let delays = gif_delays(&std::fs::read(dir.path().join(&name)).unwrap());
        assert_eq!(delays.len(), kept, "{fps} fps");
        assert!(delays.iter().all(|&delay| delay >= 2), "{delays:?}");
        let total: f64 = delays.iter().map(|&delay| f64::from(delay)).sum();
        let length = f64::from(frames) * 100.0 / f64::from(fps);
        assert!(
            (total - length).abs() <= 1.0,
            "{fps} fps: {total} cs, expected {length}"
        );
        let message = stdout(&output);
        if kept < frames as usize {
            assert!(
                message.contains(&format!(
                    "wrote {name}: {kept} frames, 24x16 ({fps} fps is above the 50 fps a GIF \
                     can play: kept {kept} of {frames} frames, evenly, at 50 fps)"
                )),
                "{message}"
            );
        } else {
            assert!(
                message.contains(&format!("wrote {name}: {frames} frames, 24x16, in ")),
                "{message}"
            );
        }
    }
}

// ---- odd sizes in MP4 and WebM ----

#[test]
fn an_odd_sized_mp4_says_it_was_padded_and_a_webm_keeps_the_size() {
    if !tool_available("ffmpeg") || !tool_available("ffprobe") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let args = ["render", "--frames", "4", "--size", "45x31", "--out"];
    let output = ok(&[&args[..], &["odd.mp4"]].concat(), dir.path());
    assert!(
        stdout(&output).contains(
            "wrote odd.mp4: 4 frames, 46x32 (45x31 padded to 46x32, the even size H.264 needs, \
             by repeating the last column and row), in "
        ),
        "{}",
        stdout(&output)
    );
    assert_eq!(probe(&dir.path().join("odd.mp4")), "46,32,4");
    let output = ok(&[&args[..], &["odd.webm"]].concat(), dir.path());
    assert!(
        stdout(&output).contains("wrote odd.webm: 4 frames, 45x31, in "),
        "{}",
        stdout(&output)
    );
    assert_eq!(probe(&dir.path().join("odd.webm")), "45,31,4");
}

// ---- --heights-out: both or neither ----

#[cfg(unix)]
#[test]
fn heights_that_cannot_be_written_take_the_animation_with_them() {
    // A file-size limit that the small GIF fits under and the 150 KB of heights do not
    // (with SIGXFSZ ignored, the write fails as on a full disk).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("water.gif"), PREVIOUS).unwrap();
    let script = format!(
        "trap '' XFSZ; ulimit -f 64; exec '{}' render --calm --frames 2 --size 320x240 \
         --out water.gif --heights-out heights.npy",
        env!("CARGO_BIN_EXE_ripples")
    );
    let output = Command::new("bash")
        .args(["-c", &script])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.starts_with("error: cannot write 'heights.npy': "),
        "{message}"
    );
    // Neither output: the animation was not moved into place, no temporary file is left.
    assert_eq!(
        std::fs::read(dir.path().join("water.gif")).unwrap(),
        PREVIOUS
    );
    assert_eq!(names(dir.path()), ["water.gif"]);
}

#[test]
fn a_directory_in_the_way_of_the_heights_is_refused_before_rendering() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("heights.npy")).unwrap();
    let output = ripples(
        &[
            "render",
            "--frames",
            "2",
            "--size",
            "20x20",
            "--out",
            "water.gif",
            "--heights-out",
            "heights.npy",
        ],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stderr(&output).trim(),
        "error: heights output 'heights.npy' is a directory"
    );
    assert_eq!(names(dir.path()), ["heights.npy"]);
}

// ---- standard output ----

#[test]
fn a_gif_to_standard_output_is_the_whole_gif_and_the_message_goes_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let output = ok(
        &["render", "--frames", "5", "--size", "32x24", "--out", "-"],
        dir.path(),
    );
    assert!(output.stdout.starts_with(b"GIF89a"), "not a GIF on stdout");
    assert_eq!(gif_delays(&output.stdout).len(), 5);
    assert!(
        stderr(&output).contains("wrote to standard output: 5 frames, 32x24, in "),
        "{}",
        stderr(&output)
    );
    assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
}

#[test]
fn format_picks_the_format_of_standard_output_and_of_a_name_without_extension() {
    let dir = tempfile::tempdir().unwrap();
    let output = ok(
        &[
            "render", "--frames", "3", "--size", "10x8", "--out", "-", "--format", "y4m",
        ],
        dir.path(),
    );
    assert!(output.stdout.starts_with(b"YUV4MPEG2 W10 H8 "));
    assert_eq!(
        output
            .stdout
            .windows(6)
            .filter(|window| window == b"FRAME\n")
            .count(),
        3
    );
    let output = ok(
        &[
            "render", "--frames", "3", "--size", "10x8", "--out", "-", "--format", "png",
        ],
        dir.path(),
    );
    assert!(output.stdout.starts_with(b"\x89PNG\r\n\x1a\n"));
    ok(
        &[
            "render", "--frames", "3", "--size", "10x8", "--out", "movie", "--format", "gif",
        ],
        dir.path(),
    );
    assert!(
        std::fs::read(dir.path().join("movie"))
            .unwrap()
            .starts_with(b"GIF89a")
    );
    let output = ripples(&["render", "--out", "-", "--format", "avi"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("avi"), "{}", stderr(&output));
}

#[test]
fn an_mp4_to_standard_output_is_a_playable_stream() {
    if !tool_available("ffmpeg") || !tool_available("ffprobe") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for format in ["mp4", "webm"] {
        let output = ok(
            &[
                "render", "--frames", "6", "--size", "64x48", "--out", "-", "--format", format,
            ],
            dir.path(),
        );
        let saved = tempfile::tempdir().unwrap();
        let path: PathBuf = saved.path().join(format!("stream.{format}"));
        std::fs::write(&path, &output.stdout).unwrap();
        assert_eq!(probe(&path), "64,48,6", "{format}");
        assert!(names(dir.path()).is_empty());
    }
}

#[test]
fn a_frame_directory_cannot_take_a_format() {
    let dir = tempfile::tempdir().unwrap();
    let output = ripples(
        &["render", "--out", "frames/", "--format", "gif"],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--format gif asks for one file"),
        "{}",
        stderr(&output)
    );
    assert!(names(dir.path()).is_empty());
}

#[cfg(unix)]
#[test]
fn standard_output_that_is_a_terminal_is_refused() {
    // `script` runs the command with a terminal for its standard streams.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipping: `script` not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "'{}' render --frames 3 --size 10x8 --out -",
        env!("CARGO_BIN_EXE_ripples")
    );
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{shown}");
    assert!(
        shown.contains("error: output '-': standard output is a terminal"),
        "{shown}"
    );
    assert!(!shown.contains("GIF89a"), "{shown}");
}

// ---- --no-clobber ----

#[test]
fn no_clobber_keeps_an_existing_output_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(path.join("water.gif"), PREVIOUS).unwrap();
    let output = ripples(
        &[
            "render",
            "--frames",
            "2",
            "--size",
            "20x20",
            "--out",
            "water.gif",
            "--no-clobber",
        ],
        path,
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stderr(&output).trim(),
        "error: output 'water.gif' already exists (--no-clobber keeps it; nothing was written)"
    );
    assert_eq!(std::fs::read(path.join("water.gif")).unwrap(), PREVIOUS);
    assert_eq!(names(path), ["water.gif"]);

    // The heights file counts too, and nothing at all is written.
    std::fs::write(path.join("heights.npy"), PREVIOUS).unwrap();
    let output = ripples(
        &[
            "render",
            "--frames",
            "2",
            "--size",
            "20x20",
            "--out",
            "new.gif",
            "--heights-out",
            "heights.npy",
            "--no-clobber",
        ],
        path,
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("'heights.npy' already exists"),
        "{}",
        stderr(&output)
    );
    assert_eq!(names(path), ["heights.npy", "water.gif"]);

    // Without existing files it writes as usual.
    ok(
        &[
            "render",
            "--frames",
            "2",
            "--size",
            "20x20",
            "--out",
            "new.gif",
            "--no-clobber",
        ],
        path,
    );
    assert_eq!(names(path), ["heights.npy", "new.gif", "water.gif"]);
}

#[test]
fn no_clobber_refuses_a_frame_directory_that_holds_a_frame_it_would_write() {
    let dir = tempfile::tempdir().unwrap();
    let frames = dir.path().join("frames");
    std::fs::create_dir(&frames).unwrap();
    std::fs::write(frames.join("frame_00001.png"), PREVIOUS).unwrap();
    let args = [
        "render",
        "--frames",
        "3",
        "--size",
        "20x20",
        "--out",
        "frames/",
        "--no-clobber",
    ];
    let output = ripples(&args, dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("frame_00001.png' already exists"),
        "{}",
        stderr(&output)
    );
    assert_eq!(names(&frames), ["frame_00001.png"]);
    std::fs::remove_file(frames.join("frame_00001.png")).unwrap();
    std::fs::write(frames.join("frame_00003.png"), PREVIOUS).unwrap();
    ok(&args, dir.path());
    assert_eq!(
        names(&frames),
        [
            "frame_00000.png",
            "frame_00001.png",
            "frame_00002.png",
            "frame_00003.png"
        ]
    );
    assert_eq!(
        std::fs::read(frames.join("frame_00003.png")).unwrap(),
        PREVIOUS
    );
}

/// Runs `ripples render` to standard output in `format` (`still`: one PNG frame, `--frame`),
/// with `stdout` as its standard output.
fn render_to(format: &str, dir: &Path, stdout: Stdio) -> std::process::Child {
    let format_args: &[&str] = match format {
        "still" => &["--format", "png", "--frame", "59", "--size", "640x480"],
        _ => &["--format", format, "--size", "160x120"],
    };
    Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args(["render", "--frames", "60", "--out", "-"])
        .args(format_args)
        .current_dir(dir)
        .env_remove("RUST_BACKTRACE")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// A reader that stops early (`| head -c 100`) or a full disk (`> /dev/full`) is a failed
/// render, exit 1 with a message, in every format: ffmpeg's own exit code (0 after a failed
/// MP4 trailer) does not decide it.
#[test]
fn standard_output_closed_early_or_full_fails_in_every_format() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let mut formats = vec!["gif", "png", "y4m", "still"];
    if tool_available("ffmpeg") {
        formats.extend(["mp4", "webm"]);
    }
    for format in formats {
        let mut child = render_to(format, dir.path(), Stdio::piped());
        let mut head = [0u8; 100];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The pipe's reading end is dropped here: the rest has nowhere to go.
        let output = child.wait_with_output().unwrap();
        let message = stderr(&output);
        println!(
            "{format}, reader gone after 100 bytes: {:?}: {}",
            output.status.code(),
            message.trim()
        );
        assert_eq!(output.status.code(), Some(1), "{format}: {message}");
        assert!(message.contains("error:"), "{format}: {message}");
        assert!(
            !message.contains("wrote to standard output"),
            "{format}: {message}"
        );
        if Path::new("/dev/full").exists() {
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let output = render_to(format, dir.path(), Stdio::from(full))
                .wait_with_output()
                .unwrap();
            let message = stderr(&output);
            println!(
                "{format}, to /dev/full: {:?}: {}",
                output.status.code(),
                message.trim()
            );
            assert_eq!(output.status.code(), Some(1), "{format}: {message}");
            assert!(message.contains("error:"), "{format}: {message}");
        }
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }
}

// ---- --lossy ----

/// The frames of the GIF at `path` as a viewer shows them (composited), RGBA.
fn gif_frames_shown(path: &Path) -> Vec<image::RgbaImage> {
    use image::AnimationDecoder;
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    image::codecs::gif::GifDecoder::new(file)
        .unwrap()
        .into_frames()
        .map(|frame| frame.unwrap().into_buffer())
        .collect()
}

/// The mean of the largest channel difference between two pictures, in levels.
fn mean_error(shown: &image::RgbaImage, truth: &image::RgbaImage) -> f64 {
    let sum: u64 = shown
        .pixels()
        .zip(truth.pixels())
        .map(|(a, b)| {
            (0..3)
                .map(|c| u64::from(a[c].abs_diff(b[c])))
                .max()
                .unwrap()
        })
        .sum();
    sum as f64 / (u64::from(shown.width()) * u64::from(shown.height())) as f64
}

/// `--lossy` trades the GIF's size for its distance from the true frames: 0 stores every
/// change the palette shows, the default 10 is smaller and further, 30 smaller and further
/// still. Out of range it is refused with its name and value, and on another output it warns.
#[test]
fn lossy_trades_the_gif_size_for_its_distance_from_the_true_frames() {
    let dir = tempfile::tempdir().unwrap();
    let water = [
        "render", "--size", "160x120", "--frames", "60", "--rain", "1",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        water
            .iter()
            .chain(extra)
            .map(|arg| arg.to_string())
            .collect()
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&args, dir.path())
    };
    run(with(&["--out", "truth/"]));
    let truth: Vec<image::RgbaImage> = [20, 40, 59]
        .iter()
        .map(|n| {
            image::open(dir.path().join(format!("truth/frame_{n:05}.png")))
                .unwrap()
                .into_rgba8()
        })
        .collect();
    let mut measured = Vec::new();
    for lossy in ["0", "10", "30"] {
        let name = format!("lossy-{lossy}.gif");
        let output = run(with(&["--lossy", lossy, "--out", &name]));
        assert!(!stderr(&output).contains("warning"), "{}", stderr(&output));
        let path = dir.path().join(&name);
        let bytes = std::fs::metadata(&path).unwrap().len();
        let shown = gif_frames_shown(&path);
        assert_eq!(shown.len(), 60);
        let error = [20, 40, 59]
            .iter()
            .zip(&truth)
            .map(|(&n, truth)| mean_error(&shown[n], truth))
            .sum::<f64>()
            / 3.0;
        println!("--lossy {lossy}: {bytes} bytes, frames 20, 40 and 59 off by {error:.2} levels");
        measured.push((bytes, error));
    }
    for pair in measured.windows(2) {
        let ((bigger, closer), (smaller, further)) = (pair[0], pair[1]);
        assert!(smaller < bigger, "{measured:?}");
        assert!(further > closer, "{measured:?}");
    }

    let refused = ripples(
        &with(&["--lossy", "41", "--out", "x.gif"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        dir.path(),
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("'41' for '--lossy <LEVELS>': must be 0 to 40 levels"),
        "{}",
        stderr(&refused)
    );
    assert!(!dir.path().join("x.gif").exists());
    let png = run(with(&["--lossy", "5", "--out", "water.png"]));
    assert!(
        stderr(&png).contains(
            "warning: --lossy has no effect on 'water.png': only a GIF animation is stored lossily"
        ),
        "{}",
        stderr(&png)
    );
}
