//! End-to-end tests of what a render shows: lively water by default (`--calm` for still
//! water), opaque files (`--background`, `--keep-alpha`), pictures and scenes fitted to another
//! size (`--fit`), single stills (`--frame`, `--still`) and seamless loops (`--loop`). Each
//! runs the `ripples` binary and reads back what it wrote, comparing with the library where the
//! frames are known exactly.

use std::path::{Path, PathBuf};

use ripples::{DropEvent, Scene, SceneRunner};

use crate::common;
use common::{ripples, stderr};

/// Runs and expects success; returns stderr.
fn ok(args: &[&str], dir: &Path) -> String {
    let output = ripples(args, dir);
    assert!(
        output.status.success(),
        "ripples {args:?} failed: {}",
        stderr(&output)
    );
    stderr(&output)
}

/// Runs and expects a usage error (exit 2) whose first line names every `needle`, and no new
/// file.
fn usage_error(args: &[&str], dir: &Path, needles: &[&str]) {
    let before = std::fs::read_dir(dir).unwrap().count();
    let output = ripples(args, dir);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "ripples {args:?}: {message}");
    assert!(message.starts_with("error"), "{message}");
    for needle in needles {
        assert!(
            message.contains(needle),
            "expected '{needle}' in: {message}"
        );
    }
    assert_eq!(std::fs::read_dir(dir).unwrap().count(), before);
}

/// The frames of a directory output, in order, as RGBA.
fn frames(dir: &Path) -> Vec<image::RgbaImage> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| image::open(path).unwrap().to_rgba8())
        .collect()
}

/// Every frame of an animated PNG, as RGBA (the writer stores whole frames).
fn apng_frames(path: &Path) -> Vec<Vec<u8>> {
    let file = std::fs::File::open(path).unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    assert_eq!(reader.info().color_type, png::ColorType::Rgba);
    let count = reader.info().animation_control().unwrap().num_frames;
    let mut frames = Vec::new();
    for _ in 0..count {
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buffer).unwrap();
        buffer.truncate(info.buffer_size());
        frames.push(buffer);
    }
    frames
}

/// Mean absolute difference of two RGBA frames' colour channels, 0..=255.
fn difference(a: &[u8], b: &[u8]) -> f64 {
    let total: u64 = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .flat_map(|(p, q)| (0..3).map(move |c| u64::from(p[c].abs_diff(q[c]))))
        .sum();
    total as f64 / (a.len() / 4 * 3) as f64
}

/// Writes a picture whose rows are green at the top quarter, blue at the bottom quarter and a
/// grey ramp between.
fn banded_picture(path: &Path, width: u32, height: u32) {
    image::RgbaImage::from_fn(width, height, |x, y| {
        if y < height / 4 {
            image::Rgba([0, 200, 0, 255])
        } else if y >= height * 3 / 4 {
            image::Rgba([0, 0, 200, 255])
        } else {
            let grey = 60 + (x * 100 / width) as u8;
            image::Rgba([grey, grey, grey, 255])
        }
    })
    .save(path)
    .unwrap();
}

#[test]
fn a_render_with_nothing_to_disturb_the_water_gets_rain_and_stones() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    banded_picture(&path.join("photo.png"), 64, 48);
    let said = ok(
        &["render", "photo.png", "--frames", "8", "--out", "lively/"],
        path,
    );
    assert!(
        said.contains(
            "nothing disturbs the water: adding rain and three stones (--calm for still water)"
        ),
        "{said}"
    );
    let lively = frames(&path.join("lively"));
    assert_eq!(lively.len(), 8);
    assert!(
        lively.windows(2).all(|pair| pair[0] != pair[1]),
        "every frame moves"
    );

    // --calm keeps still water: every frame is the picture itself (under the lit look; the
    // natural look tints it), and nothing is said.
    let said = ok(
        &[
            "render",
            "photo.png",
            "--calm",
            "--render",
            "lit",
            "--frames",
            "4",
            "--out",
            "calm/",
        ],
        path,
    );
    assert!(!said.contains("nothing disturbs"), "{said}");
    let picture = image::open(path.join("photo.png")).unwrap().to_rgba8();
    assert!(frames(&path.join("calm")).iter().all(|f| *f == picture));

    // So does a scene file with no events: the user asked for exactly that.
    std::fs::write(path.join("empty.toml"), "frames = 3\nrender = \"lit\"\n").unwrap();
    let said = ok(
        &[
            "render",
            "photo.png",
            "--scene",
            "empty.toml",
            "--out",
            "scene/",
        ],
        path,
    );
    assert!(!said.contains("nothing disturbs"), "{said}");
    assert!(frames(&path.join("scene")).iter().all(|f| *f == picture));

    // A stone asked for is all there is.
    let said = ok(
        &[
            "render",
            "photo.png",
            "--drop",
            "5,5",
            "--frames",
            "2",
            "--out",
            "one.gif",
        ],
        path,
    );
    assert!(!said.contains("nothing disturbs"), "{said}");
}

#[test]
fn the_spring_look_is_opaque_over_the_background_unless_alpha_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let water = [
        "render",
        "--solver",
        "spring",
        "--render",
        "spring",
        "--size",
        "48x36",
        "--frames",
        "12",
        "--drop",
        "24,18,6,128",
        "--drop",
        "10,10,4,128@3",
    ];
    let run = |extra: &[&str]| ok(&[&water[..], extra].concat(), path);
    run(&["--keep-alpha", "--out", "kept/"]);
    run(&["--background", "#204080", "--out", "flat.png"]);
    run(&["--out", "black.png"]);
    let kept = frames(&path.join("kept"));
    let flat = apng_frames(&path.join("flat.png"));
    let black = apng_frames(&path.join("black.png"));
    assert_eq!((kept.len(), flat.len(), black.len()), (12, 12, 12));
    let see_through = kept
        .iter()
        .flat_map(|frame| frame.pixels())
        .filter(|pixel| pixel[3] < 255)
        .count();
    assert!(
        see_through > 100,
        "the look's transparency is kept: {see_through}"
    );
    let blend = |colour: u8, alpha: u8, background: u8| {
        let (colour, alpha, background) =
            (u32::from(colour), u32::from(alpha), u32::from(background));
        ((colour * alpha + background * (255 - alpha) + 127) / 255) as u8
    };
    for ((kept, flat), black) in kept.iter().zip(&flat).zip(&black) {
        for ((kept, flat), black) in kept
            .pixels()
            .zip(flat.chunks_exact(4))
            .zip(black.chunks_exact(4))
        {
            let alpha = kept[3];
            let over = |background: [u8; 3]| {
                [
                    blend(kept[0], alpha, background[0]),
                    blend(kept[1], alpha, background[1]),
                    blend(kept[2], alpha, background[2]),
                    255,
                ]
            };
            assert_eq!(flat, over([0x20, 0x40, 0x80]));
            assert_eq!(black, over([0, 0, 0]));
        }
    }

    // The GIF of the same run shows the same colours (up to its palette), not the raw ones.
    run(&["--out", "black.gif"]);
    let file = std::fs::File::open(path.join("black.gif")).unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(file).unwrap();
    let first = decoder.read_next_frame().unwrap().unwrap().buffer.to_vec();
    assert!(difference(&first, &black[0]) < 4.0);

    // Videos have no alpha to keep: a warning says so.
    let said = run(&["--keep-alpha", "--out", "video.y4m"]);
    assert!(
        said.contains("warning: --keep-alpha has no effect on 'video.y4m'"),
        "{said}"
    );
    usage_error(
        &[&water[..], &["--background", "teal", "--out", "x.png"]].concat(),
        path,
        &["--background", "'teal'", "#rrggbb"],
    );
}

#[test]
fn fit_covers_contains_or_stretches_a_picture_of_another_shape() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    banded_picture(&path.join("photo.png"), 40, 40);
    let render = |fit: &str, out: &str| {
        let mut args = vec![
            "render",
            "photo.png",
            "--calm",
            "--render",
            "lit",
            "--frames",
            "1",
            "--size",
            "80x30",
            "--background",
            "white",
            "--out",
            out,
        ];
        if !fit.is_empty() {
            args.extend(["--fit", fit]);
        }
        let said = ok(&args, path);
        (frames(&path.join(out)).remove(0), said)
    };
    let green = |p: &image::Rgba<u8>| p[1] > 150 && p[0] < 60 && p[2] < 60;
    let blue = |p: &image::Rgba<u8>| p[2] > 150 && p[0] < 60 && p[1] < 60;

    // Cover (the default): the centre band, at twice the size; no green or blue rows.
    let (cover, said) = render("", "cover/");
    assert_eq!(cover.dimensions(), (80, 30));
    assert!(said.contains("image 40x40 cropped to fill 80x30"), "{said}");
    assert!(cover.pixels().all(|p| !green(p) && !blue(p) && p[0] < 200));
    // The grey ramp keeps its slope: x doubles.
    let ramp = |image: &image::RgbaImage, x: u32| i32::from(image.get_pixel(x, 15)[0]);
    assert!(
        (ramp(&cover, 40) - (60 + 50)).abs() <= 3,
        "{}",
        ramp(&cover, 40)
    );

    // Contain: all of it, 30x30 in the middle, white bars left and right.
    let (contain, said) = render("contain", "contain/");
    assert!(said.contains("image 40x40 letterboxed in 80x30"), "{said}");
    for y in 0..30 {
        for x in (0..25).chain(55..80) {
            assert_eq!(contain.get_pixel(x, y).0, [255; 4], "bar at ({x}, {y})");
        }
    }
    assert!(green(contain.get_pixel(40, 1)) && blue(contain.get_pixel(40, 28)));

    // Stretch: all of it over the whole pool, distorted.
    let (stretch, said) = render("stretch", "stretch/");
    assert!(said.contains("image 40x40 stretched to 80x30"), "{said}");
    assert!(green(stretch.get_pixel(0, 0)) && green(stretch.get_pixel(79, 1)));
    assert!(blue(stretch.get_pixel(0, 29)) && blue(stretch.get_pixel(79, 28)));

    usage_error(
        &["render", "photo.png", "--fit", "fill"],
        path,
        &["--fit", "'fill'", "cover"],
    );
}

/// Reads a `<i2` .npy file written by `--heights-out`: (rows, columns) and the values.
fn read_npy_i16(path: &Path) -> ((usize, usize), Vec<i16>) {
    let bytes = std::fs::read(path).unwrap();
    let header_len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
    assert!(header.contains("'descr': '<i2'"), "{header}");
    let shape: Vec<usize> = header
        .split("'shape': (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap()
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect();
    let values = bytes[10 + header_len..]
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    ((shape[0], shape[1]), values)
}

/// The centre of the cells a ring has reached: the middle of their bounding box.
fn ring_centre(((rows, columns), heights): &((usize, usize), Vec<i16>)) -> (f64, f64) {
    let moved: Vec<(usize, usize)> = (0..*rows)
        .flat_map(|y| (0..*columns).map(move |x| (x, y)))
        .filter(|&(x, y)| heights[y * columns + x] != 0)
        .collect();
    assert!(!moved.is_empty(), "the stone fell");
    let span = |pick: fn(&(usize, usize)) -> usize| {
        let low = moved.iter().map(pick).min().unwrap();
        let high = moved.iter().map(pick).max().unwrap();
        (low + high) as f64 / 2.0
    };
    (span(|p| p.0), span(|p| p.1))
}

#[test]
fn a_scene_of_another_size_keeps_its_stones_on_the_picture() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let scene_text = "frames = 3\nwidth = 40\nheight = 30\nsolver = \"classic\"\nrender = \"classic\"\n\n[[drop]]\nx = 10\ny = 15\nradius = 3\nstrength = 100\n";
    std::fs::write(path.join("pond.toml"), scene_text).unwrap();
    let run = |extra: &[&str], npy: &str| {
        let args = [
            &["render", "--scene", "pond.toml", "--out", "w.y4m"][..],
            extra,
            &["--heights-out", npy],
        ]
        .concat();
        let said = ok(&args, path);
        (read_npy_i16(&path.join(npy)), said)
    };
    let (own, _) = run(&[], "own.npy");
    assert_eq!(own.0, (30, 40));
    let (x, y) = ring_centre(&own);
    assert!(
        (x - 10.0).abs() <= 0.5 && (y - 15.0).abs() <= 0.5,
        "({x}, {y})"
    );

    // Twice the size: the same spot of the picture, twice as far from the corner.
    let (double, said) = run(&["--size", "80x60"], "double.npy");
    assert!(
        said.contains("scene 'pond.toml' is 40x30: its stones, swipes and sources are scaled to the 80x60 pool"),
        "{said}"
    );
    let (x, y) = ring_centre(&double);
    assert!(
        (x - 21.0).abs() <= 1.0 && (y - 31.0).abs() <= 1.0,
        "({x}, {y})"
    );
    // Exactly the library's scene, rescaled as the picture is, and played on that pool.
    let mut scene: Scene = toml::from_str(scene_text).unwrap();
    scene.rescale([2.0, 2.0], [0.0, 0.0]).unwrap();
    assert_eq!(scene.drops[0].radius, 6, "the stone grows with the picture");
    let mut runner = SceneRunner::new(scene, 80, 60).unwrap();
    while !runner.is_finished() {
        runner.advance();
    }
    assert_eq!(
        double.1,
        runner.pool().solver().as_classic().unwrap().heights()
    );

    // Another shape, cropped to fill (the default): rows 7..22 of the scene fill an 80x30
    // pool at twice the size, so row 15 lands on row (15.5 - 7) * 2 = 17.
    let (cover, _) = run(&["--size", "80x30"], "cover.npy");
    let (x, y) = ring_centre(&cover);
    assert!(
        (x - 21.0).abs() <= 1.0 && (y - 17.0).abs() <= 1.0,
        "({x}, {y})"
    );
    // Letterboxed: the scene is drawn 40x30 in the middle of an 80x30 pool.
    let (contain, _) = run(&["--size", "80x30", "--fit", "contain"], "contain.npy");
    let (x, y) = ring_centre(&contain);
    assert!(
        (x - 30.0).abs() <= 1.0 && (y - 15.0).abs() <= 1.0,
        "({x}, {y})"
    );

    // A stone given on the command line is in the pool's own pixels: not moved.
    std::fs::write(
        path.join("still.toml"),
        "frames = 2\nwidth = 40\nheight = 30\nsolver = \"classic\"\n",
    )
    .unwrap();
    let args = [
        "render",
        "--scene",
        "still.toml",
        "--size",
        "80x60",
        "--drop",
        "60,50,2,100",
        "--render",
        "classic",
        "--out",
        "w.y4m",
        "--heights-out",
        "command.npy",
    ];
    ok(&args, path);
    let (x, y) = ring_centre(&read_npy_i16(&path.join("command.npy")));
    assert!(
        (x - 60.0).abs() <= 0.5 && (y - 50.0).abs() <= 0.5,
        "({x}, {y})"
    );
}

#[test]
fn a_still_is_one_plain_png_of_that_frame() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let scene = Scene {
        frames: 10,
        drops: vec![DropEvent {
            frame: 0,
            x: 20,
            y: 15,
            radius: 5,
            strength: 128,
        }],
        ..Scene::default()
    };
    // Frame N of the library's run of the same scene.
    let library_frame = |number: u32| {
        let background = ripples::pool_tiles(40, 30).unwrap();
        let mut runner = SceneRunner::new(scene.clone(), 40, 30).unwrap();
        let mut frame = vec![0; background.len()];
        while runner.frame() <= number {
            runner.advance();
        }
        runner.render(&background, &mut frame).unwrap();
        frame
    };
    let still = |path: &Path| {
        let file = std::fs::File::open(path).unwrap();
        let mut reader = png::Decoder::new(std::io::BufReader::new(file))
            .read_info()
            .unwrap();
        assert!(reader.info().animation_control().is_none(), "not an APNG");
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!((info.width, info.height), (40, 30));
        assert_eq!(info.color_type, png::ColorType::Rgb, "opaque: RGB");
        pixels.truncate(info.buffer_size());
        pixels
    };
    let rgb = |rgba: Vec<u8>| -> Vec<u8> {
        rgba.chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect()
    };
    let water = [
        "render",
        "--size",
        "40x30",
        "--frames",
        "10",
        "--drop",
        "20,15,5,128",
    ];
    let output = ripples(
        &[&water[..], &["--frame", "4", "--out", "four.png"]].concat(),
        path,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout)
            .contains("wrote four.png: frame 4 as one image, 40x30"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert_eq!(still(&path.join("four.png")), rgb(library_frame(4)));
    assert_ne!(library_frame(4), library_frame(5));
    ok(
        &[&water[..], &["--still", "--out", "last.png"]].concat(),
        path,
    );
    assert_eq!(still(&path.join("last.png")), rgb(library_frame(9)));

    // Wrong requests are refused before anything is written.
    usage_error(
        &[&water[..], &["--frame", "10", "--out", "x.png"]].concat(),
        path,
        &["--frame 10", "0 to 9"],
    );
    usage_error(
        &[&water[..], &["--still", "--out", "x.gif"]].concat(),
        path,
        &["--still", "'x.gif'", ".png"],
    );
    usage_error(
        &[&water[..], &["--frame", "-1", "--out", "x.png"]].concat(),
        path,
        &["--frame", "-1"],
    );
    usage_error(
        &[&water[..], &["--frame", "2", "--still", "--out", "x.png"]].concat(),
        path,
        &["--frame", "--still"],
    );
}

#[test]
fn a_loop_ends_where_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    // A smooth picture, so that a frame's difference from another measures how far the water
    // moved rather than how busy the picture is.
    image::RgbImage::from_fn(96, 72, |x, y| {
        image::Rgb([(x * 255 / 95) as u8, (y * 255 / 71) as u8, 128])
    })
    .save(path.join("gradient.png"))
    .unwrap();
    let water = [
        "render",
        "gradient.png",
        "--frames",
        "48",
        "--solver",
        "wave",
        "--render",
        "lit",
        "--drop",
        "30,30,10,200",
        "--drop",
        "70,40,8,150@10",
    ];
    let jumps = |out: &str, extra: &[&str]| {
        let said = ok(&[&water[..], extra, &["--out", out]].concat(), path);
        let frames = frames(&path.join(out));
        assert_eq!(frames.len(), 48);
        let mut steps: Vec<f64> = frames
            .windows(2)
            .map(|pair| difference(&pair[0], &pair[1]))
            .collect();
        steps.sort_by(f64::total_cmp);
        let wrap = difference(frames.last().unwrap(), &frames[0]);
        (steps[steps.len() / 2], steps[steps.len() - 1], wrap, said)
    };
    let (plain_median, _, plain_wrap, _) = jumps("plain/", &[]);
    let (median, largest, wrap, said) = jumps("loop/", &["--loop"]);
    eprintln!(
        "frame to frame: median {median:.3}, largest {largest:.3}; last to first: {wrap:.3} \
         with --loop, {plain_wrap:.3} without (median step {plain_median:.3})"
    );
    assert!(
        said.contains("--loop: the last 12 of the 48 frames cross-fade into the first"),
        "{said}"
    );
    // Without --loop the end jumps back to the start; with it, that is one more step.
    assert!(
        plain_wrap > 3.0 * plain_median,
        "{plain_wrap} against {plain_median}"
    );
    assert!(wrap <= largest, "{wrap} against {largest}");
    assert!(plain_wrap > 3.0 * wrap, "{plain_wrap} against {wrap}");

    usage_error(
        &["render", "--frames", "3", "--loop", "--out", "x.gif"],
        path,
        &["--loop", "4 frames", "got 3"],
    );
}
