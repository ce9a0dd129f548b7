//! End-to-end tests of living photographs: `--water-mask`, `--horizon` and `--focal` on
//! `ripples render`, read back from what the command wrote.

use std::path::{Path, PathBuf};

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

/// Runs and expects a failure whose message holds every `needle`, and no new file.
fn fails(args: &[&str], dir: &Path, needles: &[&str]) {
    let before = std::fs::read_dir(dir).unwrap().count();
    let output = ripples(args, dir);
    let message = stderr(&output);
    assert!(!output.status.success(), "ripples {args:?} succeeded");
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

/// Mean absolute difference per channel between two frames.
fn difference(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    let total: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    total as f64 / a.as_raw().len() as f64
}

/// A small lake: a sky and a dark treeline above row 40, their reflection below, and the mask
/// of its water (rows 44 and below).
fn write_lake(dir: &Path) -> image::RgbaImage {
    let (width, height) = (128u32, 96u32);
    let scene = |x: u32, y: u32| -> [u8; 3] {
        let tree = (x / 9).is_multiple_of(3) && y > 28;
        if tree {
            [30, 50, 35]
        } else {
            [(120 + y * 2) as u8, (140 + y) as u8, 200]
        }
    };
    let picture = image::RgbaImage::from_fn(width, height, |x, y| {
        let [r, g, b] = if y < 44 {
            scene(x, y)
        } else {
            // The reflection: the row as far below the waterline as the scene is above it.
            let mirrored = 87u32.saturating_sub(y).min(43);
            scene(x, mirrored).map(|c| (u32::from(c) * 3 / 4) as u8)
        };
        image::Rgba([r, g, b, 255])
    });
    picture.save(dir.join("lake.png")).unwrap();
    image::GrayImage::from_fn(width, height, |_, y| {
        image::Luma([if y >= 44 { 255 } else { 0 }])
    })
    .save(dir.join("mask.png"))
    .unwrap();
    picture
}

#[test]
fn a_photograph_loops_in_perspective_and_its_land_never_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let picture = write_lake(path);
    let water = [
        "render",
        "lake.png",
        "--water-mask",
        "mask.png",
        "--horizon",
        "40",
        "--frames",
        "48",
        "--solver",
        "wave",
        "--drop",
        "60,70,6,300",
        "--drop",
        "90,55,4,300@10",
    ];
    let jumps = |out: &str, extra: &[&str]| {
        let said = ok(&[&water[..], extra, &["--out", out]].concat(), path);
        let frames = frames(&path.join(out));
        assert_eq!(frames.len(), 48);
        for (index, frame) in frames.iter().enumerate() {
            let land = 44 * picture.width() as usize * 4;
            assert_eq!(
                frame.as_raw()[..land],
                picture.as_raw()[..land],
                "frame {index}"
            );
        }
        let mut steps: Vec<f64> = frames
            .windows(2)
            .map(|pair| difference(&pair[0], &pair[1]))
            .collect();
        steps.sort_by(f64::total_cmp);
        let wrap = difference(frames.last().unwrap(), &frames[0]);
        let moved = frames
            .iter()
            .map(|f| difference(f, &picture.clone()))
            .fold(0.0, f64::max);
        (
            steps[steps.len() / 2],
            steps[steps.len() - 1],
            wrap,
            moved,
            said,
        )
    };
    let (plain_median, _, plain_wrap, _, said) = jumps("plain/", &[]);
    assert!(
        said.contains("water in perspective: the waves reach up to row"),
        "{said}"
    );
    let (median, largest, wrap, moved, _) = jumps("loop/", &["--loop"]);
    eprintln!(
        "frame to frame: median {median:.3}, largest {largest:.3}; last to first: {wrap:.3} \
         with --loop, {plain_wrap:.3} without (median step {plain_median:.3}); \
         most moved from the photograph {moved:.3}"
    );
    assert!(moved > 0.3, "the water hardly moved: {moved}");
    assert!(wrap <= largest, "{wrap} against {largest}");
    assert!(plain_wrap > 3.0 * wrap, "{plain_wrap} against {wrap}");
}

#[test]
fn wrong_masks_and_cameras_are_named_with_their_option_and_value() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    write_lake(path);
    let render = ["render", "lake.png", "--frames", "2", "--out", "x.gif"];
    fails(
        &[&render[..], &["--water-mask", "lake.png"]].concat(),
        path,
        &["--water-mask 'lake.png'", "not a mask", "grey"],
    );
    fails(
        &[
            &render[..],
            &["--water-mask", "mask.png", "--horizon", "95.6"],
        ]
        .concat(),
        path,
        &["--horizon 95.6", "below all the water"],
    );
    fails(
        &[
            &render[..],
            &[
                "--water-mask",
                "mask.png",
                "--horizon",
                "40",
                "--focal",
                "3",
            ],
        ]
        .concat(),
        path,
        &["--focal 3", "focal length must be", "got 3"],
    );
    std::fs::write(
        path.join("scene.toml"),
        "image = \"lake.png\"\nwater_mask = \"mask.png\"\nhorizon = 40\nfocal = 1e7\n",
    )
    .unwrap();
    fails(
        &[
            "render",
            "--scene",
            "scene.toml",
            "--frames",
            "2",
            "--out",
            "x.gif",
        ],
        path,
        &["scene.toml", "focal = 10000000", "focal length must be"],
    );
}

/// The frames of `out` (a frame directory) rendered from `args` in `path`, with what was said.
fn rendered(args: &[&str], out: &str, path: &Path) -> (Vec<image::RgbaImage>, String) {
    let said = ok(&[args, &["--out", out]].concat(), path);
    (frames(&path.join(out)), said)
}

/// How many pixels of `frame` differ from `picture` by more than 8 levels in some channel.
fn moved_pixels(frame: &image::RgbaImage, picture: &image::RgbaImage) -> usize {
    frame
        .pixels()
        .zip(picture.pixels())
        .filter(|(a, b)| (0..3).any(|c| a[c].abs_diff(b[c]) > 8))
        .count()
}

#[test]
fn presence_turns_the_photo_look_up_and_down_and_zero_leaves_the_photograph() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let picture = write_lake(path);
    let lake = [
        "render",
        "lake.png",
        "--water-mask",
        "mask.png",
        "--horizon",
        "40",
        "--frames",
        "12",
        "--drop",
        "60,70,6,300",
        "--rain",
        "2",
    ];
    let moved = |presence: &str, out: &str| -> usize {
        let (frames, said) = rendered(&[&lake[..], &["--presence", presence]].concat(), out, path);
        assert!(!said.contains("--presence"), "{said}");
        frames.iter().map(|f| moved_pixels(f, &picture)).sum()
    };
    let (still, normal, strong) = (moved("0", "p0/"), moved("1", "p1/"), moved("3", "p3/"));
    println!("pixels moved over 12 frames: presence 0 {still}, 1 {normal}, 3 {strong}");
    assert_eq!(still, 0);
    assert!(normal > 0 && strong > normal, "{normal} then {strong}");
    // Bit for bit the photograph at 0, from a scene file's [look] too.
    std::fs::write(
        path.join("still.toml"),
        "image = \"lake.png\"\nwater_mask = \"mask.png\"\nhorizon = 40\nframes = 6\n\
         [[drop]]\nx = 60\ny = 70\nstrength = 300\n[look]\npresence = 0\n",
    )
    .unwrap();
    let (frames, said) = rendered(&["render", "--scene", "still.toml"], "scene/", path);
    assert!(!said.contains("warning"), "{said}");
    for frame in frames {
        assert_eq!(frame.as_raw(), picture.as_raw());
    }
}

#[test]
fn look_keys_a_horizon_makes_inert_and_a_photo_table_without_one_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    write_lake(path);
    std::fs::write(
        path.join("deep.toml"),
        "image = \"lake.png\"\nwater_mask = \"mask.png\"\nhorizon = 40\nframes = 2\n\
         [look]\ndepth = 9\nsun_elevation = 30\n",
    )
    .unwrap();
    let said = ok(
        &["render", "--scene", "deep.toml", "--out", "deep.gif"],
        path,
    );
    assert!(
        said.contains(
            "warning: scene 'deep.toml' line 6: [look] depth has no effect with a horizon: it \
             tunes the natural look, and water in perspective is drawn with the photo look"
        ),
        "{said}"
    );
    assert!(
        said.contains(
            "warning: scene 'deep.toml' line 7: [look] sun_elevation has no effect with a horizon"
        ) && said.contains("[photo] sun_elevation tunes it"),
        "{said}"
    );
    std::fs::write(
        path.join("flat.toml"),
        "image = \"lake.png\"\nframes = 2\n[photo]\nglints = 3\n",
    )
    .unwrap();
    let said = ok(
        &["render", "--scene", "flat.toml", "--out", "flat.gif"],
        path,
    );
    assert!(
        said.contains("warning: scene 'flat.toml' line 3: its [photo] table has no effect")
            && said.contains("no horizon"),
        "{said}"
    );
}

#[test]
fn stones_sources_and_walls_where_no_water_moves_are_named_and_move_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let picture = write_lake(path);
    // Walls only on land (rows above 44).
    image::GrayImage::from_fn(128, 96, |_, y| image::Luma([if y < 20 { 0 } else { 255 }]))
        .save(path.join("walls.png"))
        .unwrap();
    for horizon in [None, Some("40")] {
        let mut lake = vec![
            "render",
            "lake.png",
            "--water-mask",
            "mask.png",
            "--frames",
            "10",
            "--solver",
            "wave",
        ];
        lake.extend(horizon.iter().flat_map(|row| ["--horizon", row]));
        let name = |what: &str| format!("{what}-{}/", horizon.unwrap_or("flat"));
        let (calm, _) = rendered(&[&lake[..], &["--calm"]].concat(), &name("calm"), path);
        // A stone, a swipe and a wave source all on land (the sky and trees of rows 0 to 43).
        let (frames, said) = rendered(
            &[
                &lake[..],
                &[
                    "--drop",
                    "64,20,6,300",
                    "--swipe",
                    "10,10:100,30",
                    "--source",
                    "x0=0,y0=30,x1=127,y1=30,period=8,amplitude=200",
                ],
            ]
            .concat(),
            &name("land"),
            path,
        );
        // Walls on land hold back no wave (in the flat looks they still throw a shadow).
        let (_, walls_said) = rendered(
            &[&lake[..], &["--calm", "--obstacles", "walls.png"]].concat(),
            &name("walls"),
            path,
        );
        assert!(
            walls_said.contains(
                "warning: --obstacles 'walls.png': every wall stands where no water moves (on \
                 land, on the bars or beyond the waves' reach): they hold back no wave"
            ),
            "{walls_said}"
        );
        for expected in [
            "warning: stone #1 at (64, 20) falls on land (outside the water mask): it makes no \
             waves",
            "warning: swipe #1 from (10, 10) to (100, 30) lies on land (outside the water mask)",
            "warning: source #1 from (0, 30) to (127, 30) lies on land (outside the water mask): \
             it moves no water",
        ] {
            assert!(
                said.contains(expected),
                "{horizon:?}: {expected} in: {said}"
            );
        }
        // Nothing moves, with a horizon or without: the frames are the calm ones (compared
        // as booleans: a failure must not print two films of pixels).
        assert!(frames == calm, "{horizon:?}: the frames moved");
        assert!(calm.iter().all(|frame| frame == &picture), "{horizon:?}");
    }
    // Beyond the waves' reach in perspective: on the water, above the first row the grid
    // reaches (the command says which).
    let (_, said) = rendered(
        &[
            "render",
            "lake.png",
            "--water-mask",
            "mask.png",
            "--horizon",
            "40",
            "--frames",
            "2",
            "--drop",
            "64,45,3,300",
        ],
        "far/",
        path,
    );
    assert!(
        said.contains("warning: stone #1 at (64, 45) falls above pool row")
            && said.contains("beyond the waves' reach"),
        "{said}"
    );
}

#[test]
fn the_bars_of_a_letterboxed_picture_are_never_water() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    write_lake(path);
    // 128x96 in 200x96: bars 36 pixels wide on either side.
    let contained = [
        "render",
        "lake.png",
        "--size",
        "200x96",
        "--fit",
        "contain",
        "--background",
        "white",
        "--frames",
        "12",
        "--rain",
        "6",
        "--drop",
        "100,70,8,300",
        "--drop",
        "10,70,8,300",
    ];
    for (mask, out) in [
        (&[][..], "plain/"),
        (&["--water-mask", "mask.png"][..], "mask/"),
    ] {
        let (frames, said) = rendered(&[&contained[..], mask].concat(), out, path);
        assert!(
            said.contains(
                "warning: stone #2 at (10, 70) falls on the bars around the \
                           letterboxed picture"
            ),
            "{said}"
        );
        let mut water_moved = 0;
        for frame in &frames {
            for (x, y, pixel) in frame.enumerate_pixels() {
                if !(36..164).contains(&x) {
                    assert_eq!(pixel.0, [255, 255, 255, 255], "{out} ({x}, {y})");
                } else if y >= 50 {
                    water_moved += usize::from(pixel.0 != frames[0].get_pixel(x, y).0);
                }
            }
        }
        assert!(water_moved > 0, "{out}: the picture's water never moved");
    }
}

#[test]
fn camera_errors_speak_of_the_picture_and_name_a_default_as_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    write_lake(path);
    // The horizon in the picture's rows (96 of them), whatever --size makes of them.
    fails(
        &[
            "render",
            "lake.png",
            "--horizon=-130000",
            "--size",
            "256x192",
            "--frames",
            "2",
            "--out",
            "x.gif",
        ],
        path,
        &[
            "--horizon -130000",
            "horizon must be >= -96000",
            "got -130000",
        ],
    );
    // A sliver of the picture leaves the default focal length too long for what it shows.
    fails(
        &[
            "render",
            "lake.png",
            "--water-mask",
            "mask.png",
            "--horizon",
            "40",
            "--size",
            "2x400",
            "--frames",
            "2",
            "--out",
            "x.gif",
        ],
        path,
        &[
            "the default focal length (a 60-degree field of view: 110.85 pixels for the \
             picture's 128-pixel width",
            "as the 2x400 pool shows it",
            "got 110.85",
        ],
    );
    let said = stderr(&ripples(
        &[
            "render", "lake.png", "--focal", "90", "--frames", "2", "--out", "x.gif",
        ],
        path,
    ));
    assert!(
        said.contains("error: --focal 90 needs a horizon (--horizon ROW"),
        "{said}"
    );
}
