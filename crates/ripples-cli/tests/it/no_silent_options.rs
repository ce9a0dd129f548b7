//! No water or look option is ignored in silence (issue 34): each one either changes what a
//! render shows or is warned about, in every context it can be given in.
//!
//! The options are read from the command's own definition ([`WaterArgs`]), so a new option
//! fails here until it is given a sample value below: it cannot be left out by forgetting it.
//! Each is rendered four ways: over a small photograph, and over it in perspective
//! (`--horizon`), each alone and with what the option needs to act (`--damping-shift` needs
//! the classic solver, `--background` a letterboxing `--fit contain`). Every render is
//! compared, byte for byte, with the same render without the option. It passes when the
//! frames differ, or when the command warns about the option (a line `warning: --NAME ...`);
//! (or, for a stone, a swipe and a source, the item: `warning: stone #3 at (12, 8) falls above
//! ...`); it fails when the frames are the same and nothing was said, and when a warning says the
//! option "has no effect" although the frames changed. An option the command refuses in a
//! context (exit 2, naming it: `--focal` without a horizon) has not been ignored either.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use clap::Args;
use common::{ripples, stderr};
use ripples_cli::cli::args::WaterArgs;

/// The photograph under the water: 600x400, rendered at 64x32 so that `--fit` matters.
fn photograph() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/coffee.jpg")
}

/// What every render has: two stones, a swipe and rain, on a pool of another shape than the
/// photograph, as an animated PNG.
const BASE: &[&str] = &[
    "--size",
    "64x32",
    "--frames",
    "10",
    "--drop",
    "40,22,4,300",
    "--drop",
    "20,26,3,200@2",
    "--swipe",
    "10,28:50,30@1+4",
    "--rain",
    "1",
    "--seed",
    "5",
];

/// The perspective context: the horizon at picture row 40 of 400 (pool row 3).
const HORIZON: &[&str] = &["--horizon", "40"];

/// Options that are not tried, and why.
const NOT_TRIED: &[(&str, &str)] = &[
    (
        "size",
        "sets the output's size: every frame differs by construction",
    ),
    (
        "scene",
        "a scene file holds the same options, tried through them here and in docs_scene.rs",
    ),
];

/// A sample value for each option, and what the option needs to act (beyond the context).
fn sample(long: &str, files: &Files) -> Option<(Vec<String>, Vec<&'static str>)> {
    let file = |path: &Path| path.display().to_string();
    let plain = |value: &str| vec![value.to_string()];
    Some(match long {
        "sim-scale" => (plain("2"), vec![]),
        "steps-per-frame" => (plain("2"), vec![]),
        "seed" => (plain("11"), vec![]),
        "solver" => (plain("wave"), vec![]),
        "wave-speed" => (plain("0.3"), vec!["--solver", "wave"]),
        "damping" => (plain("0.2"), vec!["--solver", "wave"]),
        "gravity" => (plain("0.05"), vec![]),
        "boundary" => (plain("absorb"), vec![]),
        "obstacles" => (vec![file(&files.obstacles)], vec![]),
        "water-mask" => (vec![file(&files.water_mask)], vec![]),
        "horizon" => (plain("40"), vec![]),
        "focal" => (plain("200"), vec!["--horizon", "40"]),
        "glints" => (plain("4"), vec!["--horizon", "40"]),
        "source" => (plain("x=30,y=16,period=6,amplitude=200"), vec![]),
        "stiffness" => (plain("0.015"), vec!["--solver", "spring"]),
        "viscosity" => (plain("0.2"), vec!["--solver", "spring"]),
        "stiffness-map" => (vec![file(&files.map)], vec!["--solver", "spring"]),
        "viscosity-map" => (vec![file(&files.map)], vec!["--solver", "spring"]),
        "spread" => (plain("0.3"), vec!["--solver", "spring"]),
        "spread-passes" => (plain("1"), vec!["--solver", "spring"]),
        "damping-shift" => (plain("2"), vec!["--solver", "classic"]),
        "render" => (plain("lit"), vec![]),
        "drop" => (plain("12,8,4,300"), vec![]),
        "swipe" => (plain("5,5:30,10@0+3"), vec![]),
        "rain" => (plain("4"), vec![]),
        "presence" => (plain("3"), vec![]),
        "refraction" => (plain("3"), vec!["--render", "lit"]),
        "shading" => (plain("2"), vec!["--render", "lit"]),
        "specular" => (plain("4"), vec!["--render", "lit"]),
        "shininess" => (plain("1"), vec!["--render", "lit"]),
        "light-angle" => (plain("-60"), vec!["--render", "lit"]),
        "spring-refraction" => (plain("3"), vec!["--render", "spring"]),
        "spring-transparency" => (
            plain("10"),
            vec!["--render", "spring", "--solver", "spring"],
        ),
        "depth" => (plain("300"), vec![]),
        "caustics" => (plain("3"), vec![]),
        "sun-elevation" => (plain("10"), vec![]),
        "sun-azimuth" => (plain("-90"), vec![]),
        "water-colour" => (plain("#206040"), vec![]),
        "clarity" => (plain("20"), vec![]),
        "sky" => (vec![file(&files.sky)], vec![]),
        "wave-height" => (plain("1.5"), vec![]),
        "dispersion" => (plain("40"), vec![]),
        "fit" => (plain("contain"), vec![]),
        "background" => (plain("white"), vec!["--fit", "contain"]),
        _ => return None,
    })
}

/// The pictures the options that take one are given.
struct Files {
    _dir: tempfile::TempDir,
    obstacles: PathBuf,
    water_mask: PathBuf,
    map: PathBuf,
    sky: PathBuf,
}

impl Files {
    fn new() -> Files {
        let dir = tempfile::tempdir().unwrap();
        let (width, height) = (600, 400);
        let obstacles = dir.path().join("walls.png");
        // A wall across the middle of the picture's water, with gaps at both ends.
        image::GrayImage::from_fn(width, height, |x, y| {
            let wall = (200..400).contains(&x) && (250..280).contains(&y);
            image::Luma([if wall { 0 } else { 255 }])
        })
        .save(&obstacles)
        .unwrap();
        let water_mask = dir.path().join("mask.png");
        // Water in the lower two thirds but for a jetty at the left.
        image::GrayImage::from_fn(width, height, |x, y| {
            let water = y >= 140 && !(x < 150 && y < 300);
            image::Luma([if water { 255 } else { 0 }])
        })
        .save(&water_mask)
        .unwrap();
        let map = dir.path().join("map.png");
        image::GrayImage::from_fn(width, height, |x, _| image::Luma([(x * 255 / width) as u8]))
            .save(&map)
            .unwrap();
        let sky = dir.path().join("sky.png");
        image::RgbImage::from_fn(64, 32, |x, y| {
            image::Rgb([200, (x * 4) as u8, (y * 8) as u8])
        })
        .save(&sky)
        .unwrap();
        Files {
            _dir: dir,
            obstacles,
            water_mask,
            map,
            sky,
        }
    }
}

/// What a render made: its exit code, the animation's bytes and what it printed.
#[derive(Clone)]
struct Rendered {
    code: Option<i32>,
    frames: Vec<u8>,
    stderr: String,
}

/// Renders the photograph with `BASE` and `args`, caching by the arguments.
fn render(args: &[String], cache: &Mutex<HashMap<Vec<String>, Rendered>>) -> Rendered {
    if let Some(done) = cache.lock().unwrap().get(args) {
        return done.clone();
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.png");
    let photo = photograph();
    let mut all: Vec<&str> = vec!["render", photo.to_str().unwrap()];
    all.extend(BASE);
    all.extend(args.iter().map(String::as_str));
    all.extend(["--out", out.to_str().unwrap()]);
    let output = ripples(&all, dir.path());
    let rendered = Rendered {
        code: output.status.code(),
        frames: std::fs::read(&out).unwrap_or_default(),
        stderr: stderr(&output),
    };
    cache
        .lock()
        .unwrap()
        .insert(args.to_vec(), rendered.clone());
    rendered
}

#[test]
fn every_water_and_look_option_acts_or_is_warned_about() {
    let files = Files::new();
    let command = WaterArgs::augment_args(clap::Command::new("water"));
    let mut cases = Vec::new();
    let mut untried = Vec::new();
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else {
            continue; // the positional picture
        };
        if NOT_TRIED.iter().any(|(name, _)| *name == long) {
            continue;
        }
        match sample(long, &files) {
            Some((value, needs)) => cases.push((long.to_string(), value, needs)),
            None => untried.push(long.to_string()),
        }
    }
    assert!(
        untried.is_empty(),
        "options with no sample value in no_silent_options.rs: {untried:?} (give each one, so \
         that a new option cannot be ignored in silence)"
    );
    assert!(cases.len() >= 40, "only {} options found", cases.len());

    // Every (context, option) pair to try, as the arguments without and with the option.
    let mut runs = Vec::new();
    for (long, value, needs) in &cases {
        for horizon in [false, true] {
            for with_needs in [false, true] {
                if with_needs && needs.is_empty() {
                    continue;
                }
                let mut context: Vec<String> = Vec::new();
                if horizon && *long != "horizon" && !needs.contains(&"--horizon") {
                    context.extend(HORIZON.iter().map(|s| s.to_string()));
                }
                if with_needs {
                    context.extend(needs.iter().map(|s| s.to_string()));
                }
                let mut with = context.clone();
                with.push(format!("--{long}"));
                with.extend(value.iter().cloned());
                runs.push((long.clone(), context, with));
            }
        }
    }
    runs.sort();
    runs.dedup();

    let cache = Mutex::new(HashMap::new());
    let failures = Mutex::new(Vec::new());
    let next = Mutex::new(runs.iter());
    std::thread::scope(|scope| {
        for _ in 0..std::thread::available_parallelism().map_or(2, |n| n.get()) {
            scope.spawn(|| {
                loop {
                    let Some((long, context, with)) = next.lock().unwrap().next() else {
                        break;
                    };
                    let without = render(context, &cache);
                    let rendered = render(with, &cache);
                    if let Some(failure) = judge(long, context, with, &without, &rendered) {
                        failures.lock().unwrap().push(failure);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    println!("{} renders, {} failures", runs.len(), failures.len());
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Why the run of `with` against `context` fails, if it does.
fn judge(
    long: &str,
    context: &[String],
    with: &[String],
    without: &Rendered,
    rendered: &Rendered,
) -> Option<String> {
    let option = format!("--{long}");
    if without.code != Some(0) {
        return Some(format!(
            "{context:?}: the render without {option} failed: {}",
            without.stderr
        ));
    }
    if rendered.code == Some(2) && rendered.stderr.contains(&option) {
        return None; // refused, naming the option
    }
    if rendered.code != Some(0) {
        return Some(format!(
            "{with:?}: exit {:?}: {}",
            rendered.code, rendered.stderr
        ));
    }
    // Events are warned about as what they make, as a scene file's are: "stone #2 at ...".
    let item = match long {
        "drop" => "stone #",
        "swipe" => "swipe #",
        "source" => "source #",
        _ => option.as_str(),
    };
    let warned = rendered
        .stderr
        .lines()
        .any(|line| line.starts_with("warning: ") && line.contains(item));
    let changed = rendered.frames != without.frames;
    let says_inert = rendered
        .stderr
        .lines()
        .any(|line| line.starts_with(&format!("warning: {option} has no effect")));
    match (changed, warned) {
        (false, false) => Some(format!(
            "{with:?}: the frames are those without {option}, and nothing was said"
        )),
        (true, _) if says_inert => Some(format!(
            "{with:?}: warned that {option} has no effect, but the frames changed: {}",
            rendered.stderr
        )),
        _ => None,
    }
}
