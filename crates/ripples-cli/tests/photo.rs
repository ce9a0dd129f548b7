//! End-to-end tests of living photographs: `--water-mask`, `--horizon` and `--focal` on
//! `ripples render`, read back from what the command wrote.

use std::path::{Path, PathBuf};

mod common;
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
