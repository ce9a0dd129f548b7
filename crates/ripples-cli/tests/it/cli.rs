//! End-to-end tests of the `ripples` binary: every output format read back, the frame
//! semantics checked against the library, and every bad input refused with a clear error, the
//! right exit code and nothing left behind.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ripples::{Pool, Scene, SceneRunner, SolverKind};

use crate::common;
use common::{ripples, stderr, stdout};

/// Runs and expects success.
fn ok(args: &[&str], dir: &Path) -> Output {
    let output = ripples(args, dir);
    assert!(
        output.status.success(),
        "ripples {args:?} failed: {}",
        stderr(&output)
    );
    output
}

/// Runs and expects failure with `code`, an error line containing every `needle`, no panic, no
/// backtrace, and no file left in `dir` that was not there before.
fn fails(args: &[&str], dir: &Path, code: i32, needles: &[&str]) -> String {
    let before = listing(dir);
    let output = ripples(args, dir);
    let message = stderr(&output);
    assert_eq!(
        output.status.code(),
        Some(code),
        "ripples {args:?}: {message}"
    );
    for needle in needles {
        assert!(
            message.contains(needle),
            "ripples {args:?}: expected '{needle}' in: {message}"
        );
    }
    assert!(
        !message.contains("panicked") && !message.contains("backtrace"),
        "{message}"
    );
    assert!(message.starts_with("error"), "{message}");
    assert_eq!(listing(dir), before, "ripples {args:?} left files behind");
    message
}

fn listing(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = walk(dir);
    entries.sort();
    entries
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(walk(&path));
            }
            out.push(path);
        }
    }
    out
}

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

#[test]
fn gif_output_loops_with_every_frame() {
    let dir = tempfile::tempdir().unwrap();
    let output = ok(
        &[
            "render",
            "--frames",
            "12",
            "--size",
            "64x48",
            "--drop",
            "32,24",
            "--out",
            "water.gif",
        ],
        dir.path(),
    );
    assert!(
        stdout(&output).contains("wrote water.gif: 12 frames, 64x48"),
        "{}",
        stdout(&output)
    );
    let file = std::fs::File::open(dir.path().join("water.gif")).unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(file).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (64, 48));
    assert_eq!(decoder.repeat(), gif::Repeat::Infinite);
    // The first frame is whole; the others store the rectangle that changed since the one
    // before, inside the picture.
    let mut frames = 0;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        let rect = (frame.left, frame.top, frame.width, frame.height);
        if frames == 0 {
            assert_eq!(rect, (0, 0, 64, 48));
        } else {
            assert!(rect.0 + rect.2 <= 64 && rect.1 + rect.3 <= 48, "{rect:?}");
            assert!(
                rect.2 * rect.3 > 1,
                "frame {frames}: the water moves between frames"
            );
        }
        frames += 1;
    }
    assert_eq!(frames, 12);
}

#[test]
fn apng_output_has_every_frame() {
    let dir = tempfile::tempdir().unwrap();
    ok(
        &[
            "render",
            "--frames",
            "7",
            "--size",
            "33x21",
            "--out",
            "water.png",
        ],
        dir.path(),
    );
    let file = std::fs::File::open(dir.path().join("water.png")).unwrap();
    let reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let info = reader.info();
    assert_eq!((info.width, info.height), (33, 21));
    assert_eq!(info.animation_control().map(|a| a.num_frames), Some(7));
}

#[test]
fn y4m_output_has_every_frame() {
    let dir = tempfile::tempdir().unwrap();
    ok(
        &[
            "render",
            "--frames",
            "5",
            "--size",
            "40x30",
            "--fps",
            "25",
            "--out",
            "water.y4m",
        ],
        dir.path(),
    );
    let bytes = std::fs::read(dir.path().join("water.y4m")).unwrap();
    let header_end = bytes.iter().position(|&b| b == b'\n').unwrap();
    let header = std::str::from_utf8(&bytes[..header_end]).unwrap();
    assert!(header.starts_with("YUV4MPEG2 W40 H30 F25:1"), "{header}");
    let frame_size = b"FRAME\n".len() + 40 * 30 + 2 * 20 * 15;
    assert_eq!(bytes.len() - header_end - 1, 5 * frame_size);
    if tool_available("ffprobe") {
        let probe = Command::new("ffprobe")
            .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
            .args([
                "-show_entries",
                "stream=width,height,nb_read_frames",
                "-of",
                "csv=p=0",
            ])
            .arg(dir.path().join("water.y4m"))
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&probe.stdout).trim(), "40,30,5");
    }
}

#[test]
fn video_outputs_go_through_ffmpeg() {
    if !tool_available("ffmpeg") || !tool_available("ffprobe") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for name in ["water.mp4", "water.webm"] {
        ok(
            &[
                "render", "--frames", "6", "--size", "64x48", "--drop", "20,20", "--out", name,
            ],
            dir.path(),
        );
        let probe = Command::new("ffprobe")
            .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
            .args([
                "-show_entries",
                "stream=width,height,nb_read_frames",
                "-of",
                "csv=p=0",
            ])
            .arg(dir.path().join(name))
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&probe.stdout).trim(),
            "64,48,6",
            "{name}"
        );
    }
}

#[test]
fn missing_ffmpeg_is_a_clear_error_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let before = listing(dir.path());
    let output = Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args([
            "render",
            "--frames",
            "3",
            "--size",
            "32x32",
            "--out",
            "water.mp4",
        ])
        .current_dir(dir.path())
        .env("PATH", dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("ffmpeg"), "{}", stderr(&output));
    assert_eq!(listing(dir.path()), before);
}

#[test]
fn directory_output_writes_one_png_per_frame() {
    let dir = tempfile::tempdir().unwrap();
    ok(
        &[
            "render", "--frames", "4", "--size", "30x20", "--out", "frames/",
        ],
        dir.path(),
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("frames"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "frame_00000.png",
            "frame_00001.png",
            "frame_00002.png",
            "frame_00003.png"
        ]
    );
    let image = image::open(dir.path().join("frames/frame_00003.png")).unwrap();
    assert_eq!((image.width(), image.height()), (30, 20));
    // An existing directory works without the trailing slash.
    ok(
        &[
            "render", "--frames", "2", "--size", "30x20", "--out", "frames",
        ],
        dir.path(),
    );
}

/// Reads a .npy file written by `--heights-out`: checks its dtype and returns (shape, the
/// little-endian values' bytes, one chunk of `size` bytes per value).
fn read_npy(path: &Path, descr: &str, size: usize) -> ((usize, usize), Vec<Vec<u8>>) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
    assert!(header.contains(&format!("'descr': '{descr}'")), "{header}");
    assert!(header.contains("'fortran_order': False"), "{header}");
    let shape = header
        .split("'shape': (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let dims: Vec<usize> = shape
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect();
    let values = bytes[10 + header_len..]
        .chunks_exact(size)
        .map(<[u8]>::to_vec)
        .collect();
    ((dims[0], dims[1]), values)
}

/// Reads a `<i2` .npy file: (shape, data).
fn read_npy_i16(path: &Path) -> ((usize, usize), Vec<i16>) {
    let (shape, values) = read_npy(path, "<i2", 2);
    (
        shape,
        values
            .iter()
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect(),
    )
}

/// Reads a `<f4` .npy file: (shape, data).
fn read_npy_f32(path: &Path) -> ((usize, usize), Vec<f32>) {
    let (shape, values) = read_npy(path, "<f4", 4);
    (
        shape,
        values
            .iter()
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    )
}

#[test]
fn heights_out_is_the_field_after_frames_times_steps() {
    let dir = tempfile::tempdir().unwrap();
    ok(
        &[
            "render",
            "--frames",
            "5",
            "--steps-per-frame",
            "3",
            "--size",
            "50x40",
            "--drop",
            "20,15,4,100",
            "--drop",
            "30,25,3,60@2",
            "--solver",
            "classic",
            "--render",
            "classic",
            "--out",
            "w.y4m",
            "--heights-out",
            "h.npy",
        ],
        dir.path(),
    );
    let ((rows, cols), data) = read_npy_i16(&dir.path().join("h.npy"));
    assert_eq!((rows, cols), (40, 50));
    // The same through the library: drops at frames 0 and 2, 3 steps per frame, 15 steps.
    let mut pool = Pool::new(50, 40).unwrap();
    pool.set_solver(SolverKind::Classic).unwrap();
    pool.drop_stone(20, 15, 4, 100).unwrap();
    for _ in 0..6 {
        pool.step();
    }
    pool.drop_stone(30, 25, 3, 60).unwrap();
    for _ in 0..9 {
        pool.step();
    }
    assert_eq!(data, pool.solver().as_classic().unwrap().heights());

    // With a simulation scale the file holds the grid.
    ok(
        &[
            "render",
            "--frames",
            "2",
            "--size",
            "51x40",
            "--sim-scale",
            "2",
            "--solver",
            "classic",
            "--out",
            "w.y4m",
            "--heights-out",
            "h2.npy",
        ],
        dir.path(),
    );
    let ((rows, cols), _) = read_npy_i16(&dir.path().join("h2.npy"));
    assert_eq!((rows, cols), (20, 26));
}

#[test]
fn scene_files_drive_the_animation_and_options_override_them() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pond.toml"),
        "frames = 9\nwidth = 60\nheight = 40\nsolver = \"classic\"\nrender = \"classic\"\n\n[[drop]]\nx = 30\ny = 20\nradius = 5\nstrength = 90\n\n[[swipe]]\nframe = 2\nduration = 3\npoints = [[5, 5], [55, 35]]\n\n[rain]\nrate = 2.0\nstart = 1\nend = 4\n",
    )
    .unwrap();
    ok(
        &[
            "render",
            "--scene",
            "pond.toml",
            "--frames",
            "6",
            "--out",
            "a.y4m",
            "--heights-out",
            "a.npy",
        ],
        dir.path(),
    );
    let (_, from_command) = read_npy_i16(&dir.path().join("a.npy"));
    let mut scene: Scene =
        toml::from_str(&std::fs::read_to_string(dir.path().join("pond.toml")).unwrap()).unwrap();
    scene.frames = 6;
    let mut runner = SceneRunner::new(scene, 60, 40).unwrap();
    while !runner.is_finished() {
        runner.advance();
    }
    assert_eq!(
        from_command,
        runner.pool().solver().as_classic().unwrap().heights()
    );
    // The same seed gives the same rain; another seed gives other rain.
    ok(
        &[
            "render",
            "--scene",
            "pond.toml",
            "--frames",
            "6",
            "--out",
            "b.y4m",
            "--heights-out",
            "b.npy",
        ],
        dir.path(),
    );
    ok(
        &[
            "render",
            "--scene",
            "pond.toml",
            "--frames",
            "6",
            "--seed",
            "9",
            "--out",
            "c.y4m",
            "--heights-out",
            "c.npy",
        ],
        dir.path(),
    );
    assert_eq!(read_npy_i16(&dir.path().join("b.npy")).1, from_command);
    assert_ne!(read_npy_i16(&dir.path().join("c.npy")).1, from_command);
}

#[test]
fn an_image_is_used_and_resized() {
    let dir = tempfile::tempdir().unwrap();
    let image = image::RgbaImage::from_fn(50, 30, |x, y| {
        image::Rgba([x as u8 * 5, y as u8 * 8, 90, 255])
    });
    image.save(dir.path().join("photo.png")).unwrap();
    image::DynamicImage::ImageRgba8(image)
        .to_rgb8()
        .save(dir.path().join("photo.jpg"))
        .unwrap();
    let output = ok(
        &["render", "photo.png", "--frames", "2", "--out", "a.gif"],
        dir.path(),
    );
    assert!(stdout(&output).contains("50x30"), "{}", stdout(&output));
    let output = ok(
        &[
            "render",
            "photo.jpg",
            "--frames",
            "2",
            "--size",
            "25x15",
            "--out",
            "b.gif",
        ],
        dir.path(),
    );
    assert!(stdout(&output).contains("25x15"), "{}", stdout(&output));
    // Flat water over the image shows the image itself under the lit look (lossless output;
    // the natural look tints it).
    ok(
        &[
            "render",
            "photo.png",
            "--calm",
            "--render",
            "lit",
            "--frames",
            "1",
            "--out",
            "flat/",
        ],
        dir.path(),
    );
    let frame = image::open(dir.path().join("flat/frame_00000.png"))
        .unwrap()
        .to_rgba8();
    assert_eq!(
        frame.as_raw(),
        image::open(dir.path().join("photo.png"))
            .unwrap()
            .to_rgba8()
            .as_raw()
    );
}

#[test]
fn no_subcommand_renders_the_default_scene() {
    let dir = tempfile::tempdir().unwrap();
    let output = ok(&[], dir.path());
    assert!(
        stdout(&output).contains("wrote ripples.gif: 120 frames"),
        "{}",
        stdout(&output)
    );
    if cfg!(feature = "play") {
        assert!(
            stderr(&output).starts_with("no window (")
                && stderr(&output).contains("rendering the default scene to ripples.gif instead"),
            "{}",
            stderr(&output)
        );
    }
    assert!(dir.path().join("ripples.gif").is_file());
}

#[cfg(feature = "play")]
#[test]
fn play_without_a_display_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let message = fails(
        &["play", "--size", "64x48"],
        dir.path(),
        1,
        &["cannot open a window", "DISPLAY"],
    );
    assert_eq!(message.lines().count(), 1, "{message}");
    // Bad options are refused before any window is tried.
    fails(&["play", "--size", "0x5"], dir.path(), 2, &["0x5"]);
    fails(&["play", "missing.png"], dir.path(), 1, &["missing.png"]);
    fails(
        &["play", "--screenshot-dir", "nowhere"],
        dir.path(),
        2,
        &["'nowhere'"],
    );
    fails(&["play", "--exit-after", "0"], dir.path(), 2, &["got 0"]);
}

#[test]
fn help_and_version_succeed() {
    let dir = tempfile::tempdir().unwrap();
    assert!(stdout(&ok(&["--help"], dir.path())).contains("render"));
    assert!(stdout(&ok(&["render", "--help"], dir.path())).contains("--heights-out"));
    ok(&["--version"], dir.path());
}

/// Stills in every format are pictures (a WebP, BMP, TIFF or one-frame GIF is no one-frame
/// clip), and a phone photo's EXIF orientation turns it upright.
#[test]
fn stills_of_every_format_are_pictures_turned_upright() {
    use image::ImageEncoder;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    // 45 wide, 30 high as stored; orientation 6 (a portrait phone photo) shows it 30x45.
    let stored = image::RgbImage::from_fn(45, 30, |x, y| {
        image::Rgb([(5 * x) as u8, (8 * y) as u8, 90])
    });
    for (name, format) in [
        ("cat.webp", image::ImageFormat::WebP),
        ("cat.bmp", image::ImageFormat::Bmp),
        ("cat.tiff", image::ImageFormat::Tiff),
        ("cat.gif", image::ImageFormat::Gif),
    ] {
        stored.save_with_format(path.join(name), format).unwrap();
        // Three frames asked, the third written as a still: no "clip of 1 frame" in the way.
        let out = format!("{name}.png");
        let output = ok(
            &[
                "render", name, "--frames", "3", "--frame", "2", "--out", &out,
            ],
            path,
        );
        assert!(
            !stderr(&output).contains("warning"),
            "{name}: {}",
            stderr(&output)
        );
        let written = image::open(path.join(&out)).unwrap();
        assert_eq!((written.width(), written.height()), (45, 30), "{name}");
    }
    // A big-endian EXIF block with one entry: Orientation (0x0112), SHORT, 6.
    let exif = b"MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0".to_vec();
    let mut jpeg = Vec::new();
    let mut encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90);
    encoder.set_exif_metadata(exif).unwrap();
    encoder
        .write_image(stored.as_raw(), 45, 30, image::ExtendedColorType::Rgb8)
        .unwrap();
    std::fs::write(path.join("portrait.jpg"), &jpeg).unwrap();
    ok(
        &[
            "render",
            "portrait.jpg",
            "--frames",
            "1",
            "--out",
            "portrait.png",
        ],
        path,
    );
    let written = image::open(path.join("portrait.png")).unwrap();
    assert_eq!((written.width(), written.height()), (30, 45));
}

#[test]
fn bad_images_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    fails(
        &["render", "missing.png"],
        path,
        1,
        &["image 'missing.png'", "cannot open"],
    );
    std::fs::write(path.join("notes.png"), "these are not pixels").unwrap();
    fails(
        &["render", "notes.png"],
        path,
        1,
        &[
            "image 'notes.png'",
            "not a PNG, JPEG, GIF, WebP, BMP, TIFF or PNM",
        ],
    );
    std::fs::write(path.join("empty.png"), "").unwrap();
    fails(
        &["render", "empty.png"],
        path,
        1,
        &["image 'empty.png'", "empty"],
    );
    // A truncated PNG: a real one cut in half.
    let image = image::RgbaImage::from_fn(64, 64, |x, y| {
        image::Rgba([(x * y) as u8, x as u8, y as u8, 255])
    });
    image.save(path.join("whole.png")).unwrap();
    let bytes = std::fs::read(path.join("whole.png")).unwrap();
    std::fs::write(path.join("cut.png"), &bytes[..bytes.len() / 2]).unwrap();
    fails(&["render", "cut.png"], path, 1, &["image 'cut.png'"]);
    // A tiny file whose header claims a huge image is refused before decoding.
    let mut header = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut header, 30000, 30000);
        encoder.set_color(png::ColorType::Grayscale);
        let mut writer = encoder.write_header().unwrap();
        // A few bytes of image data: enough for a decoder to start, far too few for the image.
        writer
            .write_chunk(png::chunk::IDAT, &[0x78, 0x9c, 0x03, 0x00])
            .unwrap();
        drop(writer);
    }
    std::fs::write(path.join("huge.png"), &header).unwrap();
    fails(
        &["render", "huge.png"],
        path,
        1,
        &["image 'huge.png' is 30000x30000", "too large"],
    );
}

#[test]
fn bad_sizes_and_events_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    fails(&["render", "--size", "0x10"], path, 2, &["0x10"]);
    fails(
        &["render", "--size", "20000x10"],
        path,
        2,
        &["20000x10", "too large"],
    );
    fails(&["render", "--size", "big"], path, 2, &["'big'"]);
    fails(
        &["render", "--drop", "10,10,0"],
        path,
        2,
        &["radius must be >= 1, got 0"],
    );
    fails(
        &["render", "--drop", "10,10,5,-3"],
        path,
        2,
        &["strength must be >= 0, got -3"],
    );
    fails(
        &["render", "--frames", "0"],
        path,
        2,
        &["frames must be >= 1, got 0"],
    );
    fails(
        &["render", "--frames", "100001"],
        path,
        2,
        &["frames must be <= 100000"],
    );
    fails(
        &["render", "--damping-shift", "16"],
        path,
        2,
        &["damping shift must be <= 15, got 16"],
    );
    fails(&["render", "--fps", "0"], path, 2, &["fps"]);
    fails(&["render", "--solver", "magic"], path, 2, &["'magic'"]);
    fails(
        &["render", "--out", "water.avi"],
        path,
        2,
        &["water.avi", ".avi"],
    );
    fails(&["render", "--out", "water"], path, 2, &["'water'"]);
    fails(&["render", "--bogus"], path, 2, &["--bogus"]);
}

/// Errors only the whole scene shows (found after parsing) name the file, the line and the key.
#[test]
fn whole_scene_errors_name_the_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(
        path.join("rain.toml"),
        "frames = 2\n\n[rain]\nrate = 1\nstart = 9\nend = 3\n",
    )
    .unwrap();
    fails(
        &["render", "--scene", "rain.toml", "--out", "a.gif"],
        path,
        1,
        &["error: scene 'rain.toml' line 6 (`end`): rain: end (3) must not come before start (9)"],
    );
    std::fs::write(
        path.join("body.toml"),
        "frames = 2\nwidth = 100\nheight = 80\n\n[[body]]\npoints = [[5, 5]]\n\n[[body]]\n\
         radius = 3\npoints = [[10, 10], [500, 5]]\n",
    )
    .unwrap();
    fails(
        &["render", "--scene", "body.toml", "--out", "a.gif"],
        path,
        1,
        &["error: scene 'body.toml' line 10 (`points`): body #2: point [500, 5] is outside"],
    );
}

#[test]
fn bad_scene_files_report_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(path.join("typo.toml"), "frames = 10\nfsp = 30\n").unwrap();
    fails(
        &["render", "--scene", "typo.toml"],
        path,
        1,
        &["scene 'typo.toml'", "line 2", "unknown field `fsp`"],
    );
    std::fs::write(path.join("broken.toml"), "frames = 10\n[[drop]\nx = 1\n").unwrap();
    fails(
        &["render", "--scene", "broken.toml"],
        path,
        1,
        &["scene 'broken.toml'", "line 2"],
    );
    std::fs::write(
        path.join("zero.toml"),
        "[[drop]]\nx = 5\ny = 5\nradius = 0\n",
    )
    .unwrap();
    fails(
        &["render", "--scene", "zero.toml"],
        path,
        1,
        &["line 4", "radius must be >= 1, got 0"],
    );
    std::fs::write(path.join("half.toml"), "width = 100\n").unwrap();
    fails(
        &["render", "--scene", "half.toml"],
        path,
        1,
        &["width and height"],
    );
    fails(
        &["render", "--scene", "absent.toml"],
        path,
        1,
        &["scene 'absent.toml'", "cannot read"],
    );
    std::fs::write(path.join("pic.toml"), "image = \"nothere.png\"\n").unwrap();
    fails(
        &["render", "--scene", "pic.toml"],
        path,
        1,
        &["nothere.png"],
    );
}

#[test]
fn coordinates_outside_the_pool_are_clipped_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let output = ok(
        &[
            "render", "--size", "40x30", "--frames", "2", "--drop", "500,10", "--out", "a.gif",
        ],
        dir.path(),
    );
    let message = stderr(&output);
    assert!(
        message.contains(
            "warning: drop #1 at (500, 10) is outside the 40x30 pool; clipped to (39, 10)"
        ),
        "{message}"
    );
}

#[test]
fn unwritable_outputs_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(path.join("plain-file"), "x").unwrap();
    fails(
        &["render", "--frames", "2", "--out", "plain-file/frames/"],
        path,
        1,
        &["plain-file/frames/"],
    );
    fails(
        &["render", "--frames", "2", "--out", "no/such/dir/a.gif"],
        path,
        1,
        &["no/such/dir"],
    );
    fails(
        &[
            "render",
            "--frames",
            "2",
            "--out",
            "a.gif",
            "--heights-out",
            "no/such/h.npy",
        ],
        path,
        1,
        &["no/such"],
    );
    fails(
        &[
            "render",
            "--frames",
            "2",
            "--out",
            "a.gif",
            "--heights-out",
            "h.txt",
        ],
        path,
        2,
        &["h.txt", ".npy"],
    );
}

#[test]
fn a_failed_render_keeps_the_previous_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    ok(
        &[
            "render", "--frames", "2", "--size", "20x20", "--out", "keep.gif",
        ],
        path,
    );
    let before = std::fs::read(path.join("keep.gif")).unwrap();
    std::fs::write(
        path.join("bad.toml"),
        "frames = 2\nwidth = 20\nheight = 20\nimage = \"none.png\"\n",
    )
    .unwrap();
    fails(
        &["render", "--scene", "bad.toml", "--out", "keep.gif"],
        path,
        1,
        &["none.png"],
    );
    assert_eq!(std::fs::read(path.join("keep.gif")).unwrap(), before);
}

#[test]
fn float_solvers_write_f4_heights() {
    let dir = tempfile::tempdir().unwrap();
    for solver in ["wave", "spring"] {
        ok(
            &[
                "render",
                "--solver",
                solver,
                "--size",
                "61x40",
                "--frames",
                "5",
                "--drop",
                "30,20",
                "--out",
                "w.y4m",
                "--heights-out",
                "h.npy",
            ],
            dir.path(),
        );
        let ((rows, cols), data) = read_npy_f32(&dir.path().join("h.npy"));
        assert_eq!((rows, cols), (40, 61), "{solver}");
        assert!(data.iter().any(|&h| h != 0.0), "{solver}: the stone shows");
    }
    ok(
        &[
            "render", "--solver", "spring", "--render", "spring", "--size", "40x30", "--frames",
            "4", "--drop", "20,15", "--out", "s.png",
        ],
        dir.path(),
    );
    ok(
        &[
            "render",
            "--solver",
            "wave",
            "--wave-speed",
            "1.5",
            "--damping",
            "0",
            "--boundary",
            "absorb",
            "--size",
            "40x30",
            "--frames",
            "4",
            "--drop",
            "20,15",
            "--out",
            "w.gif",
        ],
        dir.path(),
    );
}

#[test]
fn obstacles_from_an_image_stay_dry() {
    let dir = tempfile::tempdir().unwrap();
    // A black bar (wall) across the middle of a white 60x40 picture.
    let mask = image::RgbaImage::from_fn(60, 40, |x, _| {
        if (28..32).contains(&x) {
            image::Rgba([0, 0, 0, 255])
        } else {
            image::Rgba([255, 255, 255, 255])
        }
    });
    mask.save(dir.path().join("wall.png")).unwrap();
    for solver in ["classic", "wave", "spring"] {
        ok(
            &[
                "render",
                "--solver",
                solver,
                "--size",
                "60x40",
                "--obstacles",
                "wall.png",
                "--frames",
                "40",
                "--drop",
                "15,20,4,100",
                "--out",
                "o.y4m",
                "--heights-out",
                "h.npy",
            ],
            dir.path(),
        );
        let values: Vec<f64> = if solver == "classic" {
            read_npy_i16(&dir.path().join("h.npy"))
                .1
                .iter()
                .map(|&v| f64::from(v))
                .collect()
        } else {
            read_npy_f32(&dir.path().join("h.npy"))
                .1
                .iter()
                .map(|&v| f64::from(v))
                .collect()
        };
        for y in 0..40 {
            for x in 28..32 {
                assert_eq!(
                    values[y * 60 + x],
                    0.0,
                    "{solver}: wall cell ({x}, {y}) is wet"
                );
            }
            for x in 33..59 {
                assert_eq!(
                    values[y * 60 + x],
                    0.0,
                    "{solver}: water passed the wall at ({x}, {y})"
                );
            }
        }
        assert!(
            values.iter().any(|&v| v != 0.0),
            "{solver}: the stone shows"
        );
    }
}

#[test]
fn sources_drive_the_water_from_the_command_line_and_scene_files() {
    let dir = tempfile::tempdir().unwrap();
    ok(
        &[
            "render",
            "--solver",
            "wave",
            "--size",
            "50x50",
            "--frames",
            "20",
            "--source",
            "x=25,y=25,period=12,amplitude=30",
            "--out",
            "a.y4m",
            "--heights-out",
            "a.npy",
        ],
        dir.path(),
    );
    assert!(
        read_npy_f32(&dir.path().join("a.npy"))
            .1
            .iter()
            .any(|&h| h.abs() > 1.0)
    );
    std::fs::write(dir.path().join("plane.toml"), "frames = 20\nwidth = 50\nheight = 50\nsolver = \"wave\"\n\n[[source]]\nx0 = 5\ny0 = 1\nx1 = 5\ny1 = 48\nperiod = 16\namplitude = 20\nend = 10\n").unwrap();
    ok(
        &[
            "render",
            "--scene",
            "plane.toml",
            "--out",
            "b.y4m",
            "--heights-out",
            "b.npy",
        ],
        dir.path(),
    );
    let (_, field) = read_npy_f32(&dir.path().join("b.npy"));
    // A plane wave: rows far from the top and bottom look alike.
    let row = |y: usize| &field[y * 50..y * 50 + 50];
    let difference: f32 = row(20)
        .iter()
        .zip(row(30))
        .map(|(a, b)| (a - b).abs())
        .sum();
    let size: f32 = row(20).iter().map(|a| a.abs()).sum();
    assert!(
        size > 10.0 && difference < 0.05 * size,
        "{difference} vs {size}"
    );
}

#[test]
fn bad_physics_options_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    fails(
        &["render", "--solver", "magic"],
        path,
        2,
        &["'magic'", "wave"],
    );
    fails(
        &["render", "--wave-speed", "9"],
        path,
        2,
        &["wave speed", "9"],
    );
    fails(&["render", "--wave-speed", "0"], path, 2, &["wave speed"]);
    fails(
        &["render", "--damping", "1.5"],
        path,
        2,
        &["damping", "1.5"],
    );
    fails(
        &["render", "--boundary", "sideways"],
        path,
        2,
        &["'sideways'"],
    );
    fails(&["render", "--source", "x=1"], path, 2, &["x and y"]);
    fails(
        &["render", "--source", "x=1,y=2,colour=3"],
        path,
        2,
        &["unknown key 'colour'"],
    );
    // Wrong values on the command line are usage errors, by the scene file's rules.
    fails(
        &["render", "--source", "x=1,y=2,period=1"],
        path,
        2,
        &["--source", "period must be at least 2 steps, got 1"],
    );
    fails(
        &["render", "--solver", "spring", "--stiffness", "0.5"],
        path,
        2,
        &["stiffness 0.5 is above the viscosity 0.02"],
    );
    fails(
        &["render", "--obstacles", "nowhere.png"],
        path,
        1,
        &["nowhere.png"],
    );
    std::fs::write(
        path.join("wavy.toml"),
        "solver = \"wave\"\nwave_speed = 7\n",
    )
    .unwrap();
    fails(
        &["render", "--scene", "wavy.toml"],
        path,
        1,
        &["wave speed", "7"],
    );
    std::fs::write(path.join("src.toml"), "[[source]]\nx = 3\ny = 4\nx0 = 1\n").unwrap();
    fails(
        &["render", "--scene", "src.toml"],
        path,
        1,
        &["source #1", "x and y"],
    );
}

#[test]
fn spring_maps_load_from_greyscale_images() {
    let dir = tempfile::tempdir().unwrap();
    let map = image::GrayImage::from_fn(40, 30, |x, _| image::Luma([if x < 20 { 0 } else { 255 }]));
    map.save(dir.path().join("map.png")).unwrap();
    ok(
        &[
            "render",
            "--solver",
            "spring",
            "--size",
            "40x30",
            "--frames",
            "3",
            "--stiffness-map",
            "map.png",
            "--viscosity-map",
            "map.png",
            "--drop",
            "20,15",
            "--out",
            "m.y4m",
        ],
        dir.path(),
    );
    fails(
        &[
            "render",
            "--solver",
            "spring",
            "--size",
            "40x30",
            "--stiffness-map",
            "nothing.png",
        ],
        dir.path(),
        1,
        &["nothing.png"],
    );
}

/// Runs `ripples ARGS` in `dir` with `input` on its standard input.
fn ripples_with_stdin(args: &[&str], dir: &Path, input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_BACKTRACE")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ripples binary runs");
    let mut stdin = child.stdin.take().unwrap();
    // The command may stop reading early (an error): a broken pipe is not the test's concern.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// A 24x16 PNG picture at `path`.
fn small_png(path: &Path) {
    image::RgbaImage::from_fn(24, 16, |x, y| {
        image::Rgba([(x * 10) as u8, (y * 15) as u8, 128, 255])
    })
    .save_with_format(path, image::ImageFormat::Png)
    .unwrap();
}

#[cfg(unix)]
#[test]
fn an_output_that_is_an_input_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    small_png(&path.join("in.png"));
    let original = std::fs::read(path.join("in.png")).unwrap();
    std::fs::create_dir(path.join("sub")).unwrap();
    std::fs::hard_link(path.join("in.png"), path.join("hard.png")).unwrap();
    std::os::unix::fs::symlink("in.png", path.join("link.png")).unwrap();
    let quick = ["--frames", "2", "--size", "24x16"];
    let refused = |args: &[&str], needles: &[&str]| {
        let mut all = vec!["render"];
        all.extend_from_slice(args);
        all.extend_from_slice(&quick);
        fails(&all, path, 2, needles);
        assert_eq!(std::fs::read(path.join("in.png")).unwrap(), original);
    };
    // The image, by the same name, another spelling, a hard link and a symbolic link.
    refused(
        &["in.png", "--out", "in.png"],
        &["output 'in.png' is the input image 'in.png'; "],
    );
    refused(
        &["in.png", "--out", "./sub/../in.png"],
        &["output './sub/../in.png' is the input image 'in.png' (the same file)"],
    );
    refused(
        &["hard.png", "--out", "in.png"],
        &["output 'in.png' is the input image 'hard.png' (the same file)"],
    );
    refused(
        &["link.png", "--out", "in.png"],
        &["output 'in.png' is the input image 'link.png'"],
    );
    refused(
        &["in.png", "--out", "link.png"],
        &["output 'link.png' is the input image 'in.png'"],
    );
    // The walls and the spring maps, whatever the solver.
    refused(
        &["--obstacles", "in.png", "--out", "in.png"],
        &["output 'in.png' is the obstacles image 'in.png'"],
    );
    refused(
        &[
            "--solver",
            "spring",
            "--stiffness-map",
            "in.png",
            "--out",
            "in.png",
        ],
        &["output 'in.png' is the stiffness map 'in.png'"],
    );
    refused(
        &["--viscosity-map", "hard.png", "--out", "in.png"],
        &["output 'in.png' is the viscosity map 'hard.png'"],
    );
    // A scene file's own paths are relative to it.
    std::fs::create_dir(path.join("scenes")).unwrap();
    small_png(&path.join("scenes/pic.png"));
    small_png(&path.join("scenes/walls.png"));
    std::fs::write(
        path.join("scenes/s.toml"),
        "image = \"pic.png\"\nobstacles = \"walls.png\"\n",
    )
    .unwrap();
    refused(
        &["--scene", "scenes/s.toml", "--out", "scenes/pic.png"],
        &["output 'scenes/pic.png' is the scene's input image 'scenes/pic.png'"],
    );
    refused(
        &["--scene", "scenes/s.toml", "--out", "scenes/walls.png"],
        &["output 'scenes/walls.png' is the scene's obstacles image 'scenes/walls.png'"],
    );
    // The scene file itself, through a link with an output's name.
    std::os::unix::fs::symlink("scenes/s.toml", path.join("scene-link.gif")).unwrap();
    refused(
        &["--scene", "scenes/s.toml", "--out", "scene-link.gif"],
        &["output 'scene-link.gif' is the scene file 'scenes/s.toml'"],
    );
    // --heights-out, against the inputs and against --out.
    small_png(&path.join("walls.npy"));
    refused(
        &[
            "--obstacles",
            "walls.npy",
            "--heights-out",
            "walls.npy",
            "--out",
            "a.gif",
        ],
        &["heights output 'walls.npy' is the obstacles image 'walls.npy'"],
    );
    std::fs::write(path.join("h.npy"), "an older height field").unwrap();
    std::os::unix::fs::symlink("h.npy", path.join("h-link.gif")).unwrap();
    refused(
        &["--heights-out", "h.npy", "--out", "h-link.gif"],
        &["heights output 'h.npy' is the output 'h-link.gif'"],
    );
    assert_eq!(
        std::fs::read(path.join("h.npy")).unwrap(),
        b"an older height field"
    );
    // A directory output: a frame it would write is an input, by name or by a hard link ...
    std::fs::create_dir(path.join("frames")).unwrap();
    small_png(&path.join("frames/frame_00001.png"));
    refused(
        &["frames/frame_00001.png", "--out", "frames/"],
        &[
            "output directory 'frames/' would overwrite the input image 'frames/frame_00001.png' \
           with frame 1 (it writes frame_00000.png to frame_00001.png)",
        ],
    );
    std::fs::hard_link(path.join("in.png"), path.join("frames/frame_00000.png")).unwrap();
    refused(
        &["in.png", "--out", "frames"],
        &["output directory 'frames' would overwrite the input image 'in.png' with frame 0"],
    );
    std::fs::remove_file(path.join("frames/frame_00000.png")).unwrap();
    // ... while a file it would not write, or one that merely lies there, is no concern.
    small_png(&path.join("frames/frame_00007.png"));
    small_png(&path.join("frames/photo.png"));
    for image in ["frames/frame_00007.png", "frames/photo.png"] {
        ok(
            &[
                "render", image, "--out", "frames/", "--frames", "3", "--size", "24x16",
            ],
            path,
        );
    }
    // A new output with an input's name elsewhere is fine.
    ok(
        &["render", "in.png", "--out", "sub/in.png", "--frames", "2"],
        path,
    );
    assert_eq!(std::fs::read(path.join("in.png")).unwrap(), original);
}

/// The photographs in tests/data, from scikit-image's sample data (`skimage.data`), encoded by
/// Pillow (libjpeg) at quality 80: the coffee cup (Rachel Michetti, CC0) baseline with EXIF,
/// Chelsea the cat (Stefan van der Walt, CC0) progressive, and Eileen Collins (NASA, public
/// domain) baseline with 4:4:4 sampling and a restart marker every row of blocks.
const PHOTOS: [(&str, (u32, u32)); 3] = [
    ("coffee.jpg", (600, 400)),
    ("chelsea-progressive.jpg", (451, 300)),
    ("astronaut.jpg", (512, 512)),
];

fn photo(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .unwrap()
}

/// Where the coded data of the first scan starts (just past the start-of-scan header).
fn first_scan_data(bytes: &[u8]) -> usize {
    let sos = bytes.windows(2).position(|w| w == [0xFF, 0xDA]).unwrap();
    sos + 2 + usize::from(u16::from_be_bytes([bytes[sos + 2], bytes[sos + 3]]))
}

#[test]
fn truncated_and_damaged_jpegs_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let refused = |name: &str, bytes: &[u8], needle: &str| {
        std::fs::write(path.join(name), bytes).unwrap();
        fails(
            &["render", name, "--frames", "1", "--out", "out.y4m"],
            path,
            1,
            &[&format!("image '{name}': "), needle],
        );
        std::fs::remove_file(path.join(name)).unwrap();
    };
    for (photo_name, _) in PHOTOS {
        let bytes = photo(photo_name);
        let length = bytes.len();
        for (what, cut) in [
            ("third", length / 3),
            ("two-thirds", length * 2 / 3),
            ("short", length - 1),
        ] {
            refused(
                &format!("{what}-{photo_name}"),
                &bytes[..cut],
                "cannot decode it: the file is cut short",
            );
        }
    }
    let coffee = photo("coffee.jpg");
    // A cut file whose EXIF block holds a whole small JPEG (a thumbnail, with its own
    // end-of-image marker) is still cut short.
    let mut thumbnail = Vec::new();
    image::codecs::jpeg::JpegEncoder::new(&mut thumbnail)
        .encode_image(&image::RgbImage::from_pixel(8, 8, image::Rgb([9, 99, 199])))
        .unwrap();
    let mut app1 = vec![0xFF, 0xE1];
    app1.extend_from_slice(&u16::try_from(thumbnail.len() + 8).unwrap().to_be_bytes());
    app1.extend_from_slice(b"Exif\0\0");
    app1.extend_from_slice(&thumbnail);
    let mut with_thumbnail = coffee[..2].to_vec();
    with_thumbnail.extend_from_slice(&app1);
    with_thumbnail.extend_from_slice(&coffee[2..coffee.len() / 2]);
    refused(
        "thumbnail.jpg",
        &with_thumbnail,
        "cannot decode it: the file is cut short",
    );
    // Damage in the coded data that a decoder can see: a burst of 0xFF bytes (stuffed as
    // 0xFF 0x00), a run of 1-bits no Huffman table has a code for.
    let mut burst = coffee.clone();
    let middle = first_scan_data(&coffee) + (coffee.len() - first_scan_data(&coffee)) / 2;
    for pair in burst[middle..middle + 12].chunks_exact_mut(2) {
        pair.copy_from_slice(&[0xFF, 0x00]);
    }
    refused(
        "burst.jpg",
        &burst,
        "cannot decode it: the JPEG data is damaged",
    );
    // A flipped byte in the frame header: 8-bit samples become 247-bit ones.
    let mut flipped = coffee.clone();
    let frame_header = coffee.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
    flipped[frame_header + 4] ^= 0xFF;
    refused(
        "flipped.jpg",
        &flipped,
        "the image has 247 bits of precision",
    );
}

#[test]
fn good_jpegs_load_exactly_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let coffee = photo("coffee.jpg");
    // Bytes after the end-of-image marker, as some cameras and editors leave them.
    let mut trailing = coffee.clone();
    trailing.extend_from_slice(&[0u8; 300]);
    trailing.extend_from_slice(b"\xFF\xD8 more after the image");
    // Stray bytes between two header segments, which libjpeg and browsers skip.
    let first_segment_end = 4 + usize::from(u16::from_be_bytes([coffee[4], coffee[5]]));
    let mut stray = coffee[..first_segment_end].to_vec();
    stray.extend_from_slice(b"stray");
    stray.extend_from_slice(&coffee[first_segment_end..]);
    // Grey, encoded by the image crate.
    let mut grey = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut grey, 85)
        .encode_image(
            &image::load_from_memory(&photo("chelsea-progressive.jpg"))
                .unwrap()
                .to_luma8(),
        )
        .unwrap();
    let mut files: Vec<(String, Vec<u8>, (u32, u32))> = PHOTOS
        .iter()
        .map(|&(name, size)| (name.to_string(), photo(name), size))
        .collect();
    files.push(("trailing.jpg".into(), trailing, (600, 400)));
    files.push(("stray.jpg".into(), stray, (600, 400)));
    files.push(("grey.jpg".into(), grey, (451, 300)));
    for (name, bytes, (width, height)) in files {
        std::fs::write(path.join(&name), &bytes).unwrap();
        let output = ok(
            &["render", &name, "--frames", "1", "--out", "out.y4m"],
            path,
        );
        assert!(
            stdout(&output).contains(&format!("1 frame, {width}x{height}")),
            "{name}: {}",
            stdout(&output)
        );
        // The strict decoder gives the same pixels the image crate's lenient one does.
        let loaded =
            ripples_cli::input::source_image::SourceImage::load(&path.join(&name)).unwrap();
        let reference = image::load_from_memory(&bytes).unwrap().to_rgba8();
        assert_eq!((loaded.width, loaded.height), (width, height), "{name}");
        assert!(
            loaded.pixels == reference.into_raw(),
            "{name}: pixels differ"
        );
    }
}

#[test]
fn standard_input_feeds_the_image_or_the_scene() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let cat = photo("chelsea-progressive.jpg");
    let output = ripples_with_stdin(
        &["render", "-", "--frames", "2", "--out", "cat.y4m"],
        path,
        &cat,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("wrote cat.y4m: 2 frames, 451x300"),
        "{}",
        stdout(&output)
    );
    let refused = |args: &[&str], input: &[u8], code: i32, needles: &[&str]| {
        let before = listing(path);
        let output = ripples_with_stdin(args, path, input);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {message}");
        for needle in needles {
            assert!(
                message.contains(needle),
                "{args:?}: expected '{needle}' in {message}"
            );
        }
        assert!(message.starts_with("error: "), "{message}");
        assert_eq!(listing(path), before, "{args:?} left files behind");
    };
    let render_stdin = ["render", "-", "--out", "x.gif"];
    refused(
        &render_stdin,
        b"",
        1,
        &["image from standard input: standard input is empty"],
    );
    refused(
        &render_stdin,
        b"hello",
        1,
        &["image from standard input: not a PNG, JPEG, GIF, WebP, BMP, TIFF or PNM file"],
    );
    refused(
        &render_stdin,
        &cat[..cat.len() / 3],
        1,
        &["image from standard input: cannot decode it: the file is cut short"],
    );
    // A scene from standard input: its relative paths are the current directory's.
    std::fs::write(path.join("cat.jpg"), &cat).unwrap();
    let scene = b"frames = 3\nimage = \"cat.jpg\"\n[[drop]]\nx = -4\ny = 20\n";
    let output = ripples_with_stdin(
        &["render", "--scene", "-", "--out", "scene.y4m"],
        path,
        scene,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("wrote scene.y4m: 3 frames, 451x300"),
        "{}",
        stdout(&output)
    );
    assert!(
        stderr(&output).contains("warning: drop #1 at (-4, 20)"),
        "{}",
        stderr(&output)
    );
    refused(
        &["render", "--scene", "-", "--out", "x.gif"],
        b"frames = 3\nfsp = 30\n",
        1,
        &["scene from standard input: line 2: unknown field `fsp`"],
    );
    refused(
        &["render", "--scene", "-", "--out", "x.gif"],
        b"",
        1,
        &["scene from standard input: standard input is empty"],
    );
    refused(
        &["render", "-", "--scene", "-", "--out", "x.gif"],
        scene,
        2,
        &["the image and --scene are both '-'"],
    );
}

#[test]
fn options_that_do_nothing_are_named_in_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    small_png(&path.join("map.png"));
    let quick = ["--frames", "1", "--size", "24x16", "--out", "w.y4m"];
    let warnings = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["render"];
        all.extend_from_slice(args);
        all.extend_from_slice(&quick);
        stderr(&ok(&all, path))
            .lines()
            .filter(|line| line.starts_with("warning: "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        warnings(&[
            "--solver",
            "classic",
            "--wave-speed",
            "2",
            "--damping",
            "0.1"
        ]),
        [
            "warning: --wave-speed has no effect: it tunes the wave solver, and the solver is \
             classic (--solver wave uses it)",
            "warning: --damping has no effect: it tunes the wave solver, and the solver is \
             classic (--solver wave uses it)",
        ]
    );
    assert_eq!(
        warnings(&["--stiffness", "0.01", "--damping-shift", "3"]).len(),
        2
    );
    assert_eq!(
        warnings(&["--stiffness-map", "map.png"]),
        [
            "warning: --stiffness-map has no effect: it tunes the spring solver, and the solver is \
          dispersive (--solver spring uses it)"
        ]
    );
    assert_eq!(
        warnings(&[
            "--render",
            "classic",
            "--light-angle",
            "30",
            "--spring-refraction",
            "1"
        ]),
        [
            "warning: --light-angle has no effect: it tunes the lit look, and the look is \
             classic (--render lit uses it)",
            "warning: --spring-refraction has no effect: it tunes the spring look, and the look \
             is classic (--render spring uses it)",
        ]
    );
    assert!(
        warnings(&[
            "--solver",
            "wave",
            "--wave-speed",
            "1",
            "--render",
            "lit",
            "--shading",
            "1"
        ])
        .is_empty()
    );
    // The default solver is the dispersive one: --wave-speed says so.
    assert_eq!(
        warnings(&["--wave-speed", "1"]),
        [
            "warning: --wave-speed has no effect: it tunes the wave solver, and the solver is \
             dispersive (--solver wave uses it)"
        ]
    );
    // The window switches the solver with keys 1, 2, 3 and the look with L: it only warns about
    // what no key reaches (here before it finds there is no display).
    let play = |args: &[&str]| {
        let mut all = vec!["play"];
        all.extend_from_slice(args);
        stderr(&ripples(&all, path))
    };
    let message = play(&["--wave-speed", "2", "--render", "classic", "--shading", "1"]);
    assert!(!message.contains("warning"), "{message}");
    let message = play(&["--render", "spring", "--shading", "1", "--depth", "9"]);
    assert!(!message.contains("warning"), "{message}");
    let message = play(&["--stiffness", "0.01", "--stiffness-map", "map.png"]);
    assert!(
        message.contains(
            "warning: --stiffness has no effect: the stiffness map gives every cell its stiffness"
        ),
        "{message}"
    );
}

#[test]
fn command_line_values_are_usage_errors_and_scene_values_are_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    fails(
        &["render", "--light-angle", "nan"],
        path,
        2,
        &[
            "'--light-angle <DEGREES>'",
            "light angle must be a finite number, got NaN",
        ],
    );
    fails(
        &["render", "--refraction", "1e30"],
        path,
        2,
        &["'--refraction <K>'", "refraction must be <= 64"],
    );
    fails(
        &["render", "--shading", "-1"],
        path,
        2,
        &["'--shading <K>'", "shading must be >= 0, got -1"],
    );
    fails(
        &["render", "--stiffness", "2"],
        path,
        2,
        &["stiffness must be <= 1, got 2"],
    );
    fails(
        &["render", "--spread-passes", "0"],
        path,
        2,
        &["spread passes must be >= 1"],
    );
    fails(&["play", "--specular", "inf"], path, 2, &["specular"]);
    // A scene file's own bad value is the file's error (exit 1, its name) ...
    std::fs::write(
        path.join("stiff.toml"),
        "stiffness = 0.3\nviscosity = 0.2\n",
    )
    .unwrap();
    fails(
        &["render", "--scene", "stiff.toml"],
        path,
        1,
        &["scene 'stiff.toml' line 1 (`stiffness`): stiffness 0.3 is above the viscosity 0.2"],
    );
    std::fs::write(path.join("look.toml"), "[look]\nlight_angle = 400\n").unwrap();
    fails(
        &["render", "--scene", "look.toml"],
        path,
        1,
        &["scene 'look.toml'", "400"],
    );
    // ... but a good file that an option spoils is the option's.
    std::fs::write(path.join("calm.toml"), "viscosity = 0.05\n").unwrap();
    fails(
        &["render", "--scene", "calm.toml", "--stiffness", "0.1"],
        path,
        2,
        &["options over scene 'calm.toml': stiffness 0.1 is above the viscosity 0.05"],
    );
}

#[test]
fn negative_coordinates_and_seeds_are_taken_in_every_form() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let quick = ["--frames", "2", "--size", "40x30", "--out", "n.y4m"];
    let warned = |args: &[&str], needles: &[&str]| {
        let mut all = vec!["render"];
        all.extend_from_slice(args);
        all.extend_from_slice(&quick);
        let message = stderr(&ok(&all, path));
        for needle in needles {
            assert!(
                message.contains(needle),
                "{args:?}: expected '{needle}' in {message}"
            );
        }
    };
    let clipped = "warning: drop #1 at (-5, 10) is outside the 40x30 pool; clipped to (0, 10)";
    warned(&["--drop", "-5,10"], &[clipped]);
    warned(&["--drop=-5,10"], &[clipped]);
    warned(&["--drop", "-5,10,3,50@1"], &[clipped]);
    let swipe = [
        "swipe #1 point at (-5, 3) is outside the 40x30 pool; clipped to (0, 3)",
        "swipe #1 point at (20, -4) is outside the 40x30 pool; clipped to (20, 0)",
    ];
    warned(&["--swipe", "-5,3:20,-4"], &swipe);
    warned(&["--swipe=-5,3:20,-4@0+2"], &swipe);
    warned(
        &["--solver", "wave", "--source", "x=-5,y=3"],
        &["warning: source #1 at (-5, 3) lies outside the 40x30 pool; it moves no water"],
    );
    warned(
        &["--solver", "wave", "--source=x0=-5,y0=-3,x1=50,y1=3"],
        &[],
    );
    // Seeds: a negative one is the unsigned one with the same 64 bits.
    let rain = |seed: &str, out: &str| {
        ok(
            &[
                "render", "--rain", "3", "--frames", "3", "--size", "40x30", seed, "--out", out,
            ],
            path,
        );
        std::fs::read(path.join(out)).unwrap()
    };
    let minus_one = rain("--seed=-1", "a.y4m");
    assert_eq!(minus_one, rain("--seed=18446744073709551615", "b.y4m"));
    assert_ne!(minus_one, rain("--seed=1", "c.y4m"));
    ok(
        &[
            "render",
            "--seed",
            "-9223372036854775808",
            "--frames",
            "1",
            "--size",
            "8x8",
            "--out",
            "d.y4m",
        ],
        path,
    );
    fails(
        &["render", "--seed", "18446744073709551616"],
        path,
        2,
        &["seed must be an integer from -9223372036854775808 to 18446744073709551615"],
    );
    fails(
        &["render", "--seed=-9223372036854775809"],
        path,
        2,
        &["seed must be an integer"],
    );
}

#[test]
fn every_help_lists_the_solvers_and_looks_and_assumes_no_history() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["render", "play", "bench"] {
        let help = stdout(&ok(&[command, "--help"], dir.path()));
        // Clap wraps long help; the checks are on the words, not the line breaks.
        let text = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains("--solver <NAME> The solver: wave ("),
            "{command}: {text}"
        );
        assert!(
            text.contains("--render <LOOK> The look: natural ("),
            "{command}: {text}"
        );
        for phrase in ["), classic (", ") or spring (", "), lit ("] {
            assert!(text.contains(phrase), "{command}: '{phrase}' in {text}");
        }
        for forbidden in ["README", "the seeds", "seed's", "GameRes", "Frogger"] {
            assert!(
                !text.contains(forbidden),
                "{command}: '{forbidden}' in {text}"
            );
        }
    }
}

#[test]
fn scene_bodies_are_rendered_as_the_library_runs_them_and_bad_ones_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let text = "frames = 40\nwidth = 120\nheight = 60\n\n[[body]]\npoints = [[110, 30], [10, 30]]\nspeed = 1.5\nradius = 4\nstrength = 40\nstart = 2\n";
    std::fs::write(path.join("boat.toml"), text).unwrap();
    ok(
        &[
            "render",
            "--scene",
            "boat.toml",
            "--out",
            "boat.y4m",
            "--heights-out",
            "boat.npy",
        ],
        path,
    );
    let (_, from_command) = read_npy_f32(&path.join("boat.npy"));
    let mut runner = SceneRunner::new(toml::from_str::<Scene>(text).unwrap(), 120, 60).unwrap();
    while !runner.is_finished() {
        runner.advance();
    }
    let ripples::Heights::F32(from_library) = runner.pool().solver().heights() else {
        panic!("the wave solver keeps f32 heights")
    };
    assert_eq!(from_command, from_library);
    // The body went down the middle row: the water there moved, and it is a wake, not calm.
    assert!(from_command[30 * 120 + 60].abs() > 1.0);
    std::fs::write(
        path.join("aground.toml"),
        "width = 120\nheight = 60\n\n[[body]]\npoints = [[110, 30], [130, 30]]\n",
    )
    .unwrap();
    fails(
        &["render", "--scene", "aground.toml", "--out", "x.y4m"],
        path,
        1,
        &["body #1", "point [130, 30] is outside the 120x60 pool"],
    );
    std::fs::write(
        path.join("still.toml"),
        "[[body]]\npoints = [[10, 30]]\nspeed = 0\n",
    )
    .unwrap();
    fails(
        &["render", "--scene", "still.toml", "--out", "x.y4m"],
        path,
        1,
        &["line 3", "speed must be a finite number > 0, got 0"],
    );
}

/// What would silently not be what was asked is said: an event after the last frame, a GIF
/// frame longer than a GIF delay holds, a --format that contradicts the output's extension.
#[test]
fn silent_surprises_are_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let warned = |args: &[&str], needles: &[&str]| {
        let output = ok(args, path);
        let message = stderr(&output);
        for needle in needles {
            assert!(
                message.contains(needle),
                "{args:?}: expected '{needle}' in: {message}"
            );
        }
    };
    warned(
        &[
            "render", "--drop", "5,5@500", "--frames", "3", "--size", "32x24", "--out", "a.gif",
        ],
        &["warning: stone #1 at (5, 5) starts at frame 500, after the last frame (2)"],
    );
    warned(
        &[
            "render", "--fps", "0.001", "--frames", "2", "--size", "32x24", "--out", "b.gif",
        ],
        &["warning: at 0.001 fps a frame lasts 1000.00 s, but a GIF frame shows at most 655.35 s"],
    );
    warned(
        &[
            "render", "--format", "y4m", "--frames", "2", "--size", "32x24", "--out", "c.gif",
        ],
        &["warning: --format y4m writes Y4M video into 'c.gif', whose extension says a GIF"],
    );
    // None of them where nothing is surprising.
    let output = ok(
        &[
            "render", "--drop", "5,5@1", "--frames", "3", "--size", "32x24", "--out", "d.gif",
        ],
        path,
    );
    assert!(!stderr(&output).contains("warning"), "{}", stderr(&output));
}

/// A picture that cannot be read is named by the option that gave it, or by the scene file,
/// line and key; a reversed range in a scene says so at its line.
#[test]
fn picture_errors_name_their_option_or_scene_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(path.join("garbage.png"), "not a picture").unwrap();
    fails(
        &[
            "render",
            "--obstacles",
            "nope.png",
            "--frames",
            "1",
            "--out",
            "a.gif",
        ],
        path,
        1,
        &["error: --obstacles 'nope.png': cannot open it"],
    );
    fails(
        &[
            "render",
            "--sky",
            "garbage.png",
            "--frames",
            "1",
            "--out",
            "a.gif",
        ],
        path,
        1,
        &["error: --sky 'garbage.png': not a PNG, JPEG"],
    );
    std::fs::write(
        path.join("a.toml"),
        "frames = 2\n\nimage = \"missing.jpg\"\n",
    )
    .unwrap();
    fails(
        &["render", "--scene", "a.toml", "--out", "a.gif"],
        path,
        1,
        &["error: scene 'a.toml' line 3: image 'missing.jpg': cannot open it"],
    );
    std::fs::write(path.join("b.toml"), "frames = 2\nsky = \"garbage.png\"\n").unwrap();
    fails(
        &[
            "render", "--scene", "b.toml", "--size", "32x24", "--out", "a.gif",
        ],
        path,
        1,
        &["error: scene 'b.toml' line 2: sky 'garbage.png': not a PNG"],
    );
    std::fs::write(
        path.join("c.toml"),
        "frames = 2\n\n[rain]\nrate = 2\nradius = [4, 1]\n",
    )
    .unwrap();
    fails(
        &["render", "--scene", "c.toml", "--out", "a.gif"],
        path,
        1,
        &["scene 'c.toml': line 5: rain radius range [4, 1] is reversed"],
    );
}
