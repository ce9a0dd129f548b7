//! Tests of the outputs: formats, staging and atomic writes, refusals that leave nothing behind.

use super::*;
use std::io::BufReader;
use std::process::Command;

const W: u32 = 37;
const H: u32 = 21;
const FRAMES: u32 = 5;
const FPS: f64 = 30.0;

/// Six colours far apart, so a GIF palette keeps them exactly.
const COLOURS: [[u8; 3]; 6] = [
    [220, 30, 40],
    [20, 200, 60],
    [30, 50, 230],
    [250, 250, 250],
    [10, 10, 10],
    [240, 220, 20],
];

fn info(width: u32, height: u32) -> AnimationInfo {
    AnimationInfo {
        width,
        height,
        fps: FPS,
        frames: FRAMES,
    }
}

/// Bands of [`COLOURS`], shifted by `k`, so every frame differs.
fn pattern_frame(width: u32, height: u32, k: u32) -> Vec<u8> {
    let mut rgba = Vec::new();
    for y in 0..height {
        for x in 0..width {
            let [r, g, b] = COLOURS[((x / 4 + y / 3 + k) % 6) as usize];
            rgba.extend_from_slice(&[r, g, b, 255]);
        }
    }
    rgba
}

fn pattern_frames(width: u32, height: u32) -> Vec<Vec<u8>> {
    (0..FRAMES)
        .map(|k| pattern_frame(width, height, k))
        .collect()
}

/// A smooth gradient with far more than 256 colours.
fn gradient_frame(width: u32, height: u32, k: u32) -> Vec<u8> {
    let mut rgba = Vec::new();
    for y in 0..height {
        for x in 0..width {
            let r = (x * 255 / width) as u8;
            let g = (y * 255 / height) as u8;
            let b = (100 + 4 * k) as u8;
            rgba.extend_from_slice(&[r, g, b, 255]);
        }
    }
    rgba
}

fn write_all(path: &Path, info: &AnimationInfo, frames: &[Vec<u8>], samples: &[u8]) {
    let mut sink = open_sink(path, info, samples).unwrap();
    for frame in frames {
        sink.write_frame(frame).unwrap();
    }
    sink.finish().unwrap().commit().unwrap();
}

/// Opens a sink, writes the first two frames and drops it unfinished.
fn abort_after_two_frames(path: &Path, frames: &[Vec<u8>]) {
    let mut sink = open_sink(path, &info(W, H), &frames[0]).unwrap();
    sink.write_frame(&frames[0]).unwrap();
    sink.write_frame(&frames[1]).unwrap();
    drop(sink);
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The frames as a viewer shows them (delay, whole RGBA canvas).
fn decode_gif(path: &Path) -> (::gif::Decoder<File>, Vec<(u16, Vec<u8>)>) {
    let mut options = ::gif::DecodeOptions::new();
    options.set_color_output(::gif::ColorOutput::RGBA);
    let decoder = options.read_info(File::open(path).unwrap()).unwrap();
    let (decoder, frames) = gif_canvases(decoder);
    (
        decoder,
        frames
            .into_iter()
            .map(|(delay, _, canvas)| (delay, canvas))
            .collect(),
    )
}

/// A decoded GIF frame: delay, stored rectangle `[left, top, width, height]`, whole canvas.
pub(crate) type Canvas = (u16, [u16; 4], Vec<u8>);

/// Composites every frame onto a canvas as a viewer does: each frame's opaque pixels
/// over what the previous frame left, then its disposal. Also returns each stored frame's
/// rectangle `[left, top, width, height]`.
pub(crate) fn gif_canvases<R: std::io::Read>(
    mut decoder: ::gif::Decoder<R>,
) -> (::gif::Decoder<R>, Vec<Canvas>) {
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let mut canvas = vec![0u8; width * height * 4];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        let (left, top) = (usize::from(frame.left), usize::from(frame.top));
        let frame_width = usize::from(frame.width);
        let rect = [frame.left, frame.top, frame.width, frame.height];
        let cells = |row: usize| {
            let start = ((top + row) * width + left) * 4;
            start..start + frame_width * 4
        };
        for (row, pixels) in frame.buffer.chunks_exact(frame_width * 4).enumerate() {
            let span = cells(row);
            for (dst, src) in canvas[span].chunks_exact_mut(4).zip(pixels.chunks_exact(4)) {
                if src[3] != 0 {
                    dst.copy_from_slice(src);
                }
            }
        }
        frames.push((frame.delay, rect, canvas.clone()));
        if frame.dispose == ::gif::DisposalMethod::Background {
            for row in 0..usize::from(frame.height) {
                canvas[cells(row)].fill(0);
            }
        }
    }
    (decoder, frames)
}

fn decode_png_frames(path: &Path) -> (png::Reader<BufReader<File>>, Vec<Vec<u8>>) {
    let decoder = png::Decoder::new(BufReader::new(File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let frame_count = reader
        .info()
        .animation_control
        .map_or(1, |control| control.num_frames);
    let mut frames = Vec::new();
    for _ in 0..frame_count {
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut buf).unwrap();
        buf.truncate(frame.buffer_size());
        frames.push(buf);
    }
    (reader, frames)
}

fn program_available(program: &str) -> bool {
    Command::new(program)
        .arg("-version")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Whether ffmpeg tests can run; with RIPPLES_E2E=1 a missing ffmpeg fails the test.
fn ffmpeg_or_skip() -> bool {
    if program_available("ffmpeg") && program_available("ffprobe") {
        return true;
    }
    if std::env::var("RIPPLES_E2E").as_deref() == Ok("1") {
        panic!("RIPPLES_E2E=1 but ffmpeg/ffprobe were not found on PATH");
    }
    eprintln!("skipping: ffmpeg not found");
    false
}

/// ffprobe's "width,height,frames" for the first video stream.
fn ffprobe_size_and_frames(path: &Path) -> String {
    let output = Command::new("ffprobe")
        .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
        .args(["-show_entries", "stream=width,height,nb_read_frames"])
        .args(["-of", "csv=p=0"])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "ffprobe failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

// ---- output kinds and up-front checks ----

#[test]
fn kinds_come_from_extensions_case_insensitively() {
    let kind = |path: &str| OutputKind::from_path(Path::new(path)).unwrap();
    assert_eq!(kind("a.gif"), OutputKind::Gif);
    assert_eq!(kind("a.GIF"), OutputKind::Gif);
    assert_eq!(kind("dir/a.png"), OutputKind::Apng);
    assert_eq!(kind("a.Y4m"), OutputKind::Y4m);
    assert_eq!(kind("a.mp4"), OutputKind::Mp4);
    assert_eq!(kind("a.webm"), OutputKind::Webm);
    assert_eq!(kind("frames/"), OutputKind::Directory);
    assert_eq!(kind("frames.gif/"), OutputKind::Directory);
}

#[test]
fn an_existing_directory_is_a_directory_output() {
    let dir = tempfile::tempdir().unwrap();
    let existing = dir.path().join("frames.gif");
    fs::create_dir(&existing).unwrap();
    assert_eq!(
        OutputKind::from_path(&existing).unwrap(),
        OutputKind::Directory
    );
}

#[test]
fn unknown_extension_is_an_error_naming_path_and_extension() {
    let error = OutputKind::from_path(Path::new("x.avi")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "output 'x.avi': unknown extension '.avi' \
         (expected .gif, .png, .y4m, .mp4, .webm or a directory ending in '/')"
    );
}

#[test]
fn missing_extension_is_an_error() {
    let error = OutputKind::from_path(Path::new("movie")).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("'movie'"), "{message}");
    assert!(message.contains("no file extension"), "{message}");
}

#[test]
fn missing_parent_directory_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let error = open_sink(&missing.join("a.gif"), &info(W, H), &[])
        .err()
        .unwrap();
    let message = error.to_string();
    assert!(message.contains("does not exist"), "{message}");
    assert!(
        message.contains(&format!("'{}'", missing.display())),
        "{message}"
    );
    assert!(!missing.exists());
}

#[test]
fn bad_frame_rates_are_rejected_before_any_file_is_made() {
    let dir = tempfile::tempdir().unwrap();
    for fps in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let bad = AnimationInfo { fps, ..info(W, H) };
        let error = open_sink(&dir.path().join("a.gif"), &bad, &[])
            .err()
            .unwrap();
        assert!(error.to_string().contains("frame rate"), "{error}");
    }
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn empty_sizes_and_zero_frames_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.png");
    assert!(open_sink(&path, &info(0, H), &[]).is_err());
    let no_frames = AnimationInfo {
        frames: 0,
        ..info(W, H)
    };
    assert!(open_sink(&path, &no_frames, &[]).is_err());
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn wrong_frame_length_is_an_error_for_every_kind() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.gif", "a.png", "a.y4m", "frames/"] {
        let mut sink = open_sink(&dir.path().join(name), &info(W, H), &[]).unwrap();
        let error = sink.write_frame(&[0; 12]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "frame has 12 bytes, expected 37x21x4 = 3108",
            "{name}"
        );
    }
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn palette_samples_must_be_whole_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let error = open_sink(&dir.path().join("a.gif"), &info(W, H), &[1, 2, 3])
        .err()
        .unwrap();
    assert!(error.to_string().contains("multiple of 4"), "{error}");
}

#[cfg(unix)]
#[test]
fn outputs_get_ordinary_file_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.y4m");
    write_all(&path, &info(W, H), &pattern_frames(W, H), &[]);
    let reference = dir.path().join("reference");
    File::create(&reference).unwrap();
    let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), mode(&reference));
}

// ---- GIF ----

#[test]
fn gif_round_trips_a_few_colour_pattern_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pattern.gif");
    let frames = pattern_frames(W, H);
    write_all(&path, &info(W, H), &frames, &frames.concat());

    let (decoder, decoded) = decode_gif(&path);
    assert_eq!((decoder.width(), decoder.height()), (37, 21));
    assert_eq!(decoder.repeat(), ::gif::Repeat::Infinite);
    assert_eq!(decoded.len(), 5);
    for (k, ((_, pixels), written)) in decoded.iter().zip(&frames).enumerate() {
        assert!(pixels == written, "frame {k} differs");
    }
    let delays: Vec<u16> = decoded.iter().map(|(delay, _)| *delay).collect();
    assert_eq!(delays, [3, 3, 4, 3, 3]);
    let total_cs: f64 = delays.iter().map(|&d| f64::from(d)).sum();
    assert!((total_cs - 500.0 / FPS).abs() <= 1.0, "{total_cs}");
}

#[test]
fn gif_without_samples_takes_its_palette_from_the_first_frame() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pattern.gif");
    let frames = pattern_frames(W, H);
    write_all(&path, &info(W, H), &frames, &[]);
    let (_, decoded) = decode_gif(&path);
    assert_eq!(decoded.len(), 5);
    assert!(decoded[0].1 == frames[0]);
}

#[test]
fn gif_of_many_colours_stays_close() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gradient.gif");
    let frames: Vec<Vec<u8>> = (0..FRAMES).map(|k| gradient_frame(W, H, k)).collect();
    write_all(&path, &info(W, H), &frames, &frames.concat());
    let (_, decoded) = decode_gif(&path);
    assert_eq!(decoded.len(), 5);
    for ((_, pixels), written) in decoded.iter().zip(&frames) {
        let differences: Vec<u32> = pixels
            .iter()
            .zip(written)
            .map(|(&a, &b)| u32::from(a.abs_diff(b)))
            .collect();
        let max = differences.iter().max().copied().unwrap_or(0);
        let mean = differences.iter().sum::<u32>() as f64 / differences.len() as f64;
        assert!(max <= 24 && mean <= 5.0, "max {max}, mean {mean}");
    }
}

#[test]
fn gif_keeps_transparency() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("holes.gif");
    let mut frames = pattern_frames(W, H);
    for frame in &mut frames {
        for pixel in frame.chunks_exact_mut(4).step_by(3) {
            pixel.copy_from_slice(&[0, 0, 0, 0]);
        }
    }
    write_all(&path, &info(W, H), &frames, &frames.concat());
    let (_, decoded) = decode_gif(&path);
    for ((_, pixels), written) in decoded.iter().zip(&frames) {
        for (got, want) in pixels.chunks_exact(4).zip(written.chunks_exact(4)) {
            if want[3] == 0 {
                assert_eq!(got[3], 0);
            } else {
                assert_eq!(got, want);
            }
        }
    }
}

/// The lossy GIF (kept pixels, strips joined by clear codes, colours chosen within the bound)
/// decodes the same in ffmpeg as in the `gif` crate: every frame, every pixel.
#[test]
fn ffmpeg_decodes_a_lossy_gif_as_the_gif_crate_does() {
    if !ffmpeg_or_skip() {
        return;
    }
    let (width, height) = (331, 250);
    // Many colours, drifting and changing in a moving square, so frames keep pixels, store
    // changes and span several compression strips.
    let frames: Vec<Vec<u8>> = (0..6)
        .map(|k| {
            let mut frame = gradient_frame(width, height, k);
            for (i, pixel) in frame.chunks_exact_mut(4).enumerate() {
                let (x, y) = (i as u32 % width, i as u32 / width);
                if (x / 40 + k) % 5 == 0 && y > 20 * k {
                    pixel[..3].copy_from_slice(&[(x * 3 + y) as u8, 255 - (y * 2) as u8, 90]);
                }
            }
            frame
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lossy.gif");
    write_all(&path, &info(width, height), &frames, &frames.concat());
    let (_, decoded) = decode_gif(&path);
    let output = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(&path)
        .args(["-f", "rawvideo", "-pix_fmt", "rgba", "-vsync", "0", "-"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "ffmpeg failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let frame_len = (width * height * 4) as usize;
    assert_eq!(output.stdout.len(), frame_len * frames.len());
    for (k, (ours, theirs)) in decoded
        .iter()
        .zip(output.stdout.chunks_exact(frame_len))
        .enumerate()
    {
        assert!(ours.1 == theirs, "frame {k} decodes differently in ffmpeg");
    }
}

#[test]
fn gif_larger_than_65535_pixels_wide_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let error = open_sink(&dir.path().join("a.gif"), &info(70_000, 1), &[])
        .err()
        .unwrap();
    assert!(error.to_string().contains("65535"), "{error}");
    assert!(entries(dir.path()).is_empty());
}

// ---- animated PNG ----

#[test]
fn apng_round_trips_losslessly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("anim.png");
    let frames: Vec<Vec<u8>> = (0..FRAMES).map(|k| gradient_frame(W, H, k)).collect();
    write_all(&path, &info(W, H), &frames, &[]);

    let (reader, decoded) = decode_png_frames(&path);
    let png_info = reader.info();
    assert_eq!((png_info.width, png_info.height), (37, 21));
    let control = png_info.animation_control.unwrap();
    assert_eq!((control.num_frames, control.num_plays), (5, 0));
    let delay = png_info.frame_control.unwrap();
    assert_eq!((delay.delay_num, delay.delay_den), (1, 30));
    assert_eq!(decoded.len(), 5);
    for (k, (pixels, written)) in decoded.iter().zip(&frames).enumerate() {
        assert!(pixels == written, "frame {k} differs");
    }
}

#[test]
fn apng_with_missing_frames_is_an_error_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("short.png");
    let frames = pattern_frames(W, H);
    let mut sink = open_sink(&path, &info(W, H), &[]).unwrap();
    sink.write_frame(&frames[0]).unwrap();
    sink.write_frame(&frames[1]).unwrap();
    let error = sink.finish().unwrap_err();
    assert!(error.to_string().contains("wrote 2 of 5 frames"), "{error}");
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn apng_refuses_more_frames_than_announced() {
    let dir = tempfile::tempdir().unwrap();
    let frames = pattern_frames(W, H);
    let mut sink = open_sink(&dir.path().join("a.png"), &info(W, H), &[]).unwrap();
    for frame in &frames {
        sink.write_frame(frame).unwrap();
    }
    assert!(sink.write_frame(&frames[0]).is_err());
}

#[test]
fn apng_frame_delays_approximate_the_frame_rate() {
    use apng_sink::frame_delay_fraction;
    assert_eq!(frame_delay_fraction(30.0), (1, 30));
    assert_eq!(frame_delay_fraction(29.97), (100, 2997));
    assert_eq!(frame_delay_fraction(0.5), (2, 1));
    assert_eq!(frame_delay_fraction(100_000.0), (1, 65535));
}

// ---- Y4M ----

#[test]
fn y4m_has_header_frames_and_planes_of_the_right_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("video.y4m");
    write_all(&path, &info(W, H), &pattern_frames(W, H), &[]);

    let bytes = fs::read(&path).unwrap();
    let header = b"YUV4MPEG2 W37 H21 F30:1 Ip A1:1 C420jpeg\n";
    assert!(bytes.starts_with(header));
    let frame_len = 37 * 21 + 2 * (19 * 11);
    let mut rest = &bytes[header.len()..];
    let mut frames = 0;
    while !rest.is_empty() {
        assert!(rest.starts_with(b"FRAME\n"), "frame {frames} has no marker");
        assert!(rest.len() >= 6 + frame_len, "frame {frames} is short");
        rest = &rest[6 + frame_len..];
        frames += 1;
    }
    assert_eq!(frames, 5);

    if program_available("ffprobe") {
        assert_eq!(ffprobe_size_and_frames(&path), "37,21,5");
    } else {
        eprintln!("ffprobe not found: not checking that it reads the Y4M file");
    }
}

#[test]
fn y4m_converts_with_limited_range_bt601() {
    let yuv_of = |rgb: [u8; 3]| {
        let frame: Vec<u8> = [rgb[0], rgb[1], rgb[2], 255].repeat(3 * 3);
        let mut planes = Vec::new();
        y4m_sink::rgba_to_yuv420(&frame, 3, 3, &mut planes);
        assert_eq!(planes.len(), 9 + 2 * 4);
        (planes[0], planes[9], planes[13])
    };
    assert_eq!(yuv_of([128, 128, 128]), (126, 128, 128));
    assert_eq!(yuv_of([0, 0, 0]), (16, 128, 128));
    assert_eq!(yuv_of([255, 255, 255]), (235, 128, 128));
    assert_eq!(yuv_of([255, 0, 0]), (81, 90, 240));
    assert_eq!(yuv_of([0, 0, 255]), (41, 240, 110));
}

#[test]
fn y4m_chroma_averages_each_block_and_edge() {
    // 3x1: the first chroma sample averages two pixels, the second (edge) only one.
    let frame = [0, 0, 255, 255, 0, 0, 255, 255, 255, 0, 0, 255];
    let mut planes = Vec::new();
    y4m_sink::rgba_to_yuv420(&frame, 3, 1, &mut planes);
    assert_eq!(planes.len(), 3 + 2 * 2);
    assert_eq!(&planes[3..5], &[240, 90]); // Cb: blue, then red
    assert_eq!(&planes[5..7], &[110, 240]); // Cr: blue, then red
}

#[test]
fn y4m_fractional_frame_rates_use_thousandths() {
    let info = AnimationInfo {
        fps: 29.97,
        ..info(4, 2)
    };
    assert_eq!(
        y4m_sink::stream_header(&info),
        "YUV4MPEG2 W4 H2 F29970:1000 Ip A1:1 C420jpeg\n"
    );
}

// ---- MP4 and WebM through ffmpeg ----

fn check_video(name: &str, width: u32, height: u32, expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    write_all(
        &path,
        &info(width, height),
        &pattern_frames(width, height),
        &[],
    );
    assert_eq!(ffprobe_size_and_frames(&path), expected, "{name}");
    assert_eq!(entries(dir.path()), [name]);
}

#[test]
fn mp4_has_all_frames_and_the_size() {
    if ffmpeg_or_skip() {
        check_video("video.mp4", 38, 22, "38,22,5");
        check_video("odd.mp4", 37, 21, "38,22,5");
    }
}

#[test]
fn webm_has_all_frames_and_the_size() {
    if ffmpeg_or_skip() {
        check_video("video.webm", 38, 22, "38,22,5");
        // VP9 codes odd sizes as they are.
        check_video("odd.webm", 37, 21, "37,21,5");
    }
}

/// The first frame of a video decoded by ffmpeg, as RGB24.
fn decode_first_frame(path: &Path) -> Vec<u8> {
    let output = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(path)
        .args(["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

#[test]
fn odd_sized_mp4_repeats_the_edge_and_says_so() {
    if !ffmpeg_or_skip() {
        return;
    }
    // Left half dark blue, right half bright orange up to the last column; the padding
    // column must come out orange like its neighbour, not black.
    let (width, height) = (45, 31);
    let frame: Vec<u8> = (0..height)
        .flat_map(|_| 0..width)
        .flat_map(|x| {
            if x < width / 2 {
                [20, 30, 120, 255]
            } else {
                [250, 160, 40, 255]
            }
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odd.mp4");
    let mut sink = open_sink(&path, &info(width, height), &[]).unwrap();
    for _ in 0..FRAMES {
        sink.write_frame(&frame).unwrap();
    }
    let finished = sink.finish().unwrap();
    let written = finished.commit().unwrap();
    assert_eq!((written.width, written.height), (46, 32));
    assert_eq!(
        written.to_string(),
        "5 frames, 46x32 (45x31 padded to 46x32, the even size H.264 needs, by repeating \
         the last column and row)"
    );
    assert_eq!(ffprobe_size_and_frames(&path), "46,32,5");

    let rgb = decode_first_frame(&path);
    assert_eq!(rgb.len(), 46 * 32 * 3);
    let pixel = |x: usize, y: usize| &rgb[(y * 46 + x) * 3..][..3];
    let near = |got: &[u8], want: [u8; 3]| {
        got.iter()
            .zip(want)
            .all(|(&g, w)| i32::from(g).abs_diff(i32::from(w)) <= 24)
    };
    for y in [0, 15, 30, 31] {
        for x in [44, 45] {
            assert!(
                near(pixel(x, y), [250, 160, 40]),
                "({x}, {y}) is {:?}, not the edge's orange",
                pixel(x, y)
            );
        }
    }
    // The added row repeats the last one on the dark side too.
    assert!(near(pixel(3, 31), [20, 30, 120]), "{:?}", pixel(3, 31));
}

#[test]
fn padding_repeats_the_last_column_and_row() {
    use ffmpeg_sink::pad_by_repeating_edges;
    // 3x2 frame, pixels numbered 1..=6 in the red channel.
    let frame: Vec<u8> = (1..=6).flat_map(|v| [v, 0, 0, 255]).collect();
    let mut padded = Vec::new();
    pad_by_repeating_edges(&frame, (3, 2), (4, 2), &mut padded);
    let reds = |rgba: &[u8]| rgba.chunks_exact(4).map(|p| p[0]).collect::<Vec<u8>>();
    assert_eq!(reds(&padded), [1, 2, 3, 3, 4, 5, 6, 6]);
    pad_by_repeating_edges(&frame, (3, 2), (4, 3), &mut padded);
    assert_eq!(reds(&padded), [1, 2, 3, 3, 4, 5, 6, 6, 4, 5, 6, 6]);
    pad_by_repeating_edges(&frame, (3, 2), (3, 2), &mut padded);
    assert_eq!(padded, frame);
}

#[test]
fn missing_ffmpeg_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.mp4");
    let error = FfmpegSink::create(
        OsStr::new("ripples-test-no-such-ffmpeg"),
        &path,
        &info(W, H),
        VideoCodec::H264,
        &OutputOptions::default(),
        DEFAULT_STALL_TIMEOUT,
    )
    .err()
    .unwrap();
    assert_eq!(
        error.to_string(),
        format!(
            "ffmpeg not found on PATH: needed to write '{}' \
             (install ffmpeg, or write .gif/.png/.y4m)",
            path.display()
        )
    );
    assert!(entries(dir.path()).is_empty());
}

#[cfg(unix)]
#[test]
fn ffmpeg_exiting_with_an_error_fails_the_write_and_leaves_nothing() {
    // `false` ignores its arguments, reads nothing and exits with status 1.
    if Command::new("false").status().is_err() {
        eprintln!("skipping: `false` not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.mp4");
    let sink = FfmpegSink::create(
        OsStr::new("false"),
        &path,
        &info(W, H),
        VideoCodec::H264,
        &OutputOptions::default(),
        DEFAULT_STALL_TIMEOUT,
    )
    .unwrap();
    let mut sink: Box<dyn FrameSink> = Box::new(sink);
    let frames = pattern_frames(W, H);
    let result = frames
        .iter()
        .try_for_each(|frame| sink.write_frame(frame))
        .and_then(|()| sink.finish())
        .and_then(FinishedOutput::commit);
    let error = result.unwrap_err();
    assert!(error.to_string().contains("ffmpeg failed"), "{error}");
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn aborted_video_leaves_nothing() {
    if !ffmpeg_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    abort_after_two_frames(&dir.path().join("x.mp4"), &pattern_frames(W, H));
    assert!(entries(dir.path()).is_empty());
}

// ---- frame directory ----

#[test]
fn directory_gets_numbered_pngs_and_no_staging_leftovers() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("frames/");
    let frames = pattern_frames(W, H);
    write_all(&target, &info(W, H), &frames, &[]);

    assert!(target.is_dir());
    let names = entries(&target);
    let expected: Vec<String> = (0..5).map(|k| format!("frame_0000{k}.png")).collect();
    assert_eq!(names, expected);
    for (name, written) in names.iter().zip(&frames) {
        let (reader, decoded) = decode_png_frames(&target.join(name));
        assert_eq!((reader.info().width, reader.info().height), (37, 21));
        assert!(decoded[0] == *written, "{name} differs");
    }
}

#[test]
fn directory_replaces_old_frames_and_keeps_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("frames");
    fs::create_dir(&target).unwrap();
    fs::write(target.join("notes.txt"), "keep me").unwrap();
    fs::write(target.join("frame_00000.png"), "old").unwrap();
    write_all(&target, &info(W, H), &pattern_frames(W, H), &[]);
    assert_eq!(
        fs::read_to_string(target.join("notes.txt")).unwrap(),
        "keep me"
    );
    assert_ne!(fs::read(target.join("frame_00000.png")).unwrap(), b"old");
    assert_eq!(entries(&target).len(), 6);
}

#[test]
fn directory_frame_numbers_get_enough_digits() {
    use dir_sink::{frame_file_name, frame_number_digits};
    assert_eq!(frame_number_digits(1), 5);
    assert_eq!(frame_number_digits(100_000), 5);
    assert_eq!(frame_number_digits(100_001), 6);
    assert_eq!(frame_file_name(7, 5), "frame_00007.png");
    assert_eq!(frame_file_name(123_456, 6), "frame_123456.png");
}

#[cfg(unix)]
#[test]
fn directory_that_cannot_be_created_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    fs::write(&blocker, "not a directory").unwrap();
    let target = blocker.join("frames/");
    let error = open_sink(&target, &info(W, H), &[]).err().unwrap();
    let message = error.to_string();
    assert!(
        message.starts_with(&format!(
            "cannot create output directory '{}': ",
            target.display()
        )),
        "{message}"
    );
}

// ---- atomicity ----

#[test]
fn aborted_files_leave_nothing_behind() {
    let frames = pattern_frames(W, H);
    for name in ["a.gif", "a.png", "a.y4m"] {
        let dir = tempfile::tempdir().unwrap();
        abort_after_two_frames(&dir.path().join(name), &frames);
        assert!(entries(dir.path()).is_empty(), "{name}");
    }
}

#[test]
fn aborted_files_leave_an_existing_file_unchanged() {
    let frames = pattern_frames(W, H);
    for name in ["a.gif", "a.png", "a.y4m"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        fs::write(&path, "previous render").unwrap();
        abort_after_two_frames(&path, &frames);
        assert_eq!(fs::read_to_string(&path).unwrap(), "previous render");
        assert_eq!(entries(dir.path()), [name]);
    }
}

#[test]
fn aborted_directory_removes_what_it_created() {
    let dir = tempfile::tempdir().unwrap();
    abort_after_two_frames(&dir.path().join("new/frames/"), &pattern_frames(W, H));
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn aborted_directory_leaves_an_existing_directory_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("frames");
    fs::create_dir(&target).unwrap();
    fs::write(target.join("frame_00000.png"), "old").unwrap();
    abort_after_two_frames(&target, &pattern_frames(W, H));
    assert_eq!(entries(&target), ["frame_00000.png"]);
    assert_eq!(fs::read(target.join("frame_00000.png")).unwrap(), b"old");
}

#[test]
fn finishing_without_frames_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.gif", "a.y4m", "frames/"] {
        let sink = open_sink(&dir.path().join(name), &info(W, H), &[]).unwrap();
        assert!(sink.finish().is_err(), "{name}");
    }
    assert!(entries(dir.path()).is_empty());
}

// ---- --no-clobber ----

fn no_clobber() -> OutputOptions {
    OutputOptions {
        no_clobber: true,
        ..OutputOptions::default()
    }
}

#[test]
fn no_clobber_refuses_an_existing_output_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.gif", "a.png", "a.y4m", "a.mp4"] {
        let path = dir.path().join(name);
        fs::write(&path, PREVIOUS).unwrap();
        let error = open_output(&path, &info(W, H), &[], &no_clobber())
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            format!(
                "output '{}' already exists (--no-clobber keeps it; nothing was written)",
                path.display()
            )
        );
        assert_eq!(fs::read(&path).unwrap(), PREVIOUS);
        fs::remove_file(&path).unwrap();
    }
    assert!(entries(dir.path()).is_empty());
}

const PREVIOUS: &[u8] = b"someone else's file";

#[test]
fn no_clobber_keeps_a_file_that_appears_while_rendering() {
    let frames = pattern_frames(W, H);
    for name in ["a.gif", "a.png", "a.y4m"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        let mut sink = open_output(&path, &info(W, H), &[], &no_clobber()).unwrap();
        for frame in &frames {
            sink.write_frame(frame).unwrap();
        }
        let finished = sink.finish().unwrap();
        fs::write(&path, PREVIOUS).unwrap();
        let error = finished.commit().unwrap_err();
        assert!(
            error.to_string().contains("appeared while rendering"),
            "{name}: {error}"
        );
        assert_eq!(fs::read(&path).unwrap(), PREVIOUS, "{name}");
        assert_eq!(entries(dir.path()), [name]);
    }
}

#[test]
fn without_no_clobber_the_commit_replaces_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.gif");
    fs::write(&path, PREVIOUS).unwrap();
    write_all(&path, &info(W, H), &pattern_frames(W, H), &[]);
    assert_ne!(fs::read(&path).unwrap(), PREVIOUS);
}

#[test]
fn no_clobber_refuses_a_directory_holding_a_frame_it_would_write() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("frames");
    fs::create_dir(&target).unwrap();
    // Other files, and frames beyond the animation's, do not count.
    fs::write(target.join("notes.txt"), PREVIOUS).unwrap();
    fs::write(target.join("frame_00005.png"), PREVIOUS).unwrap();
    fs::write(target.join("frame_0003.png"), PREVIOUS).unwrap();
    open_output(&target, &info(W, H), &[], &no_clobber())
        .unwrap()
        .finish()
        .err()
        .unwrap();
    fs::write(target.join("frame_00003.png"), PREVIOUS).unwrap();
    let error = open_output(&target, &info(W, H), &[], &no_clobber())
        .err()
        .unwrap();
    assert_eq!(
        error.to_string(),
        format!(
            "output '{}': '{}' already exists (--no-clobber keeps it; nothing was written)",
            target.display(),
            target.join("frame_00003.png").display()
        )
    );
    assert_eq!(entries(&target).len(), 4);
}

#[test]
fn no_clobber_directory_takes_back_its_frames_when_one_appears_meanwhile() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("frames/");
    let mut sink = open_output(&target, &info(W, H), &[], &no_clobber()).unwrap();
    for frame in &pattern_frames(W, H) {
        sink.write_frame(frame).unwrap();
    }
    let finished = sink.finish().unwrap();
    fs::write(target.join("frame_00002.png"), PREVIOUS).unwrap();
    let error = finished.commit().unwrap_err();
    assert!(
        error.to_string().contains("appeared while rendering"),
        "{error}"
    );
    assert_eq!(entries(&target), ["frame_00002.png"]);
    assert_eq!(fs::read(target.join("frame_00002.png")).unwrap(), PREVIOUS);
}

// ---- standard output and formats ----

#[test]
fn format_overrides_the_extension_and_names_the_format_of_standard_output() {
    let kind = |path: &str, format: Option<OutputKind>| {
        OutputKind::for_output(Path::new(path), format).unwrap()
    };
    assert_eq!(kind("-", None), OutputKind::Gif);
    assert_eq!(kind("-", Some(OutputKind::Y4m)), OutputKind::Y4m);
    assert_eq!(kind("movie", Some(OutputKind::Mp4)), OutputKind::Mp4);
    assert_eq!(kind("water.gif", Some(OutputKind::Apng)), OutputKind::Apng);
    assert_eq!("APNG".parse::<OutputKind>(), Ok(OutputKind::Apng));
    assert_eq!(
        "avi".parse::<OutputKind>(),
        Err(String::from(
            "unknown format 'avi' (expected one of gif, png, y4m, mp4, webm)"
        ))
    );
    let error = OutputKind::for_output(Path::new("frames/"), Some(OutputKind::Gif))
        .unwrap_err()
        .to_string();
    assert!(error.contains("--format gif"), "{error}");
}

#[test]
fn a_file_named_by_format_gets_that_format() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("movie");
    let options = OutputOptions {
        format: Some(OutputKind::Y4m),
        ..OutputOptions::default()
    };
    let mut sink = open_output(&path, &info(W, H), &[], &options).unwrap();
    sink.write_frame(&pattern_frame(W, H, 0)).unwrap();
    sink.finish().unwrap().commit().unwrap();
    assert!(fs::read(&path).unwrap().starts_with(b"YUV4MPEG2 W37 H21"));
}

// ---- atomic one-shot files ----

#[test]
fn new_files_take_the_first_free_name_and_never_replace_one() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("shot.png"), PREVIOUS).unwrap();
    let names = || ["shot.png", "shot-2.png", "shot-3.png"].map(String::from);
    let first = write_new_file(dir.path(), names(), b"one")
        .unwrap()
        .unwrap();
    let second = write_new_file(dir.path(), names(), b"two")
        .unwrap()
        .unwrap();
    assert_eq!(first, dir.path().join("shot-2.png"));
    assert_eq!(second, dir.path().join("shot-3.png"));
    assert_eq!(write_new_file(dir.path(), names(), b"three").unwrap(), None);
    assert_eq!(fs::read(dir.path().join("shot.png")).unwrap(), PREVIOUS);
    assert_eq!(fs::read(&second).unwrap(), b"two");
    assert_eq!(
        entries(dir.path()),
        ["shot-2.png", "shot-3.png", "shot.png"]
    );
}

#[test]
fn a_staged_file_is_a_hidden_temporary_until_committed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grid.npy");
    let staged = stage_npy_i16(&path, 2, 1, &[1, 2], false).unwrap();
    let names = entries(dir.path());
    assert_eq!(names.len(), 1);
    assert!(
        names[0].starts_with(&format!(".ripples-{}-", std::process::id()))
            && names[0].ends_with(".npy"),
        "{names:?}"
    );
    staged.commit().unwrap();
    assert_eq!(entries(dir.path()), ["grid.npy"]);
    drop(stage_npy_i16(&path, 2, 1, &[1, 2], false).unwrap());
    assert_eq!(entries(dir.path()), ["grid.npy"]);
    let error = stage_npy_i16(&path, 2, 1, &[1, 2], true).unwrap_err();
    assert!(error.to_string().contains("already exists"), "{error}");
}

// ---- npy ----

#[test]
fn npy_i16_has_a_numpy_header_and_little_endian_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grid.npy");
    let data: [i16; 6] = [1, -2, 300, 4, -32768, 32767];
    write_npy_i16(&path, 3, 2, &data).unwrap();

    let bytes = fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let header_len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let preamble_len = 10 + header_len;
    assert_eq!(preamble_len % 64, 0);
    let header = std::str::from_utf8(&bytes[10..preamble_len]).unwrap();
    assert!(header.starts_with("{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }"));
    assert!(header.ends_with('\n'));
    assert!(header.trim_end().ends_with('}'));
    let expected: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(&bytes[preamble_len..], &expected[..]);
}

#[test]
fn npy_f32_uses_the_f4_dtype() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("heights.npy");
    let data = [0.5_f32, -1.25, 3.0, 1e-3];
    write_npy_f32(&path, 2, 2, &data).unwrap();
    let bytes = fs::read(&path).unwrap();
    let preamble_len = 10 + usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let header = std::str::from_utf8(&bytes[10..preamble_len]).unwrap();
    assert!(
        header.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }"),
        "{header}"
    );
    let expected: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(&bytes[preamble_len..], &expected[..]);
}

#[test]
fn npy_with_the_wrong_number_of_values_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grid.npy");
    let error = write_npy_i16(&path, 3, 2, &[1, 2, 3]).unwrap_err();
    assert!(error.to_string().contains("3x2"), "{error}");
    assert!(!path.exists());
}

#[test]
fn npy_preambles_are_always_aligned() {
    for (width, height) in [(1, 1), (3, 2), (1280, 720), (usize::MAX, usize::MAX)] {
        let preamble = npy::npy_preamble("<f4", width, height);
        assert_eq!(preamble.len() % 64, 0, "{width}x{height}");
        assert_eq!(preamble.last(), Some(&b'\n'));
        let header_len = u16::from_le_bytes([preamble[8], preamble[9]]);
        assert_eq!(usize::from(header_len) + 10, preamble.len());
    }
}
