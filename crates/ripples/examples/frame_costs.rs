//! Times a frame (one step and one render, through `Pool::step_and_render` as a program runs
//! them; and the step and the render alone) for each solver, look and simulation scale asked
//! for, and prints the milliseconds per frame, the nanoseconds per pixel and each scale's frame
//! against scale 1 of the same solver and look (the median of the per-repetition ratios). A
//! benchmark, not a test.
//!
//! It exists to compare what the command's `ripples bench` cannot reach: the WebAssembly build,
//! under node (V8, the engine of Chromium's pages), as well as natively, with the same code and
//! the same water. `web/bench.sh` runs it both ways.
//!
//! ```text
//! cargo run --release -p ripples --example frame_costs -- \
//!     [--size WxH] [--frames N] [--reps R] [--solvers classic,wave,spring] \
//!     [--looks classic,lit,spring,natural] [--scales 1,2,4] [--water turbulent|calm] \
//!     [--backend scalar|sse4.1|avx2|avx512|neon|simd128]
//! ```
//!
//! The water is the same everywhere: `width * height / 256 + 1` random stones (SplitMix64 seed
//! 12345, radius 1..=8 pixels, strength 32..=128), then 16 steps with a stone before each. Every
//! repetition times each configuration in turn from a copy of that water, so a busy moment on a
//! shared machine hits them all; the figures are medians over repetitions. Such rough water
//! makes the renders wait on scattered reads of the image; calm water (`--water calm`) shows
//! what the arithmetic costs. With the default
//! `parallel` feature the core's strips run on rayon's threads; build with
//! `--no-default-features` (as wasm is) for one thread.

use std::time::Instant;

use ripples::{Look, Pool, RenderMode, SolverKind, SplitMix64};

/// What to time.
struct Options {
    size: (u32, u32),
    frames: u32,
    reps: u32,
    solvers: Vec<SolverKind>,
    looks: Vec<RenderMode>,
    scales: Vec<u32>,
    /// Start from calm water instead of the turbulent field.
    calm: bool,
    /// The kernel backend, when not the best one.
    backend: Option<ripples::Backend>,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        size: (1280, 720),
        frames: 30,
        reps: 5,
        solvers: vec![SolverKind::Classic, SolverKind::Wave],
        looks: vec![RenderMode::Classic, RenderMode::Lit],
        scales: vec![1, 2, 4],
        calm: false,
        backend: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let [name, value] = pair else {
            return Err(format!("{} needs a value", pair[0]));
        };
        let number = |text: &str| {
            text.parse::<u32>()
                .map_err(|_| format!("{name}: not a whole number: '{text}'"))
        };
        let list = |value: &str| value.split(',').map(str::to_string).collect::<Vec<_>>();
        match name.as_str() {
            "--size" => {
                let (width, height) = value
                    .split_once('x')
                    .ok_or_else(|| format!("--size must be WxH, got '{value}'"))?;
                options.size = (number(width)?, number(height)?);
            }
            "--frames" => options.frames = number(value)?.max(1),
            "--backend" => {
                options.backend = Some(value.parse().map_err(|e: ripples::Error| e.to_string())?)
            }
            "--water" => {
                options.calm = match value.as_str() {
                    "calm" => true,
                    "turbulent" => false,
                    _ => return Err(format!("--water must be calm or turbulent, got '{value}'")),
                }
            }
            "--reps" => options.reps = number(value)?.max(1),
            "--solvers" => {
                options.solvers = list(value)
                    .iter()
                    .map(|name| name.parse().map_err(|e: ripples::Error| e.to_string()))
                    .collect::<Result<_, _>>()?
            }
            "--looks" => {
                options.looks = list(value)
                    .iter()
                    .map(|name| name.parse().map_err(|e: ripples::Error| e.to_string()))
                    .collect::<Result<_, _>>()?
            }
            "--scales" => {
                options.scales = list(value)
                    .iter()
                    .map(|scale| number(scale))
                    .collect::<Result<_, _>>()?
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
    }
    Ok(options)
}

/// The benchmark's water on a pool of `size` pixels at `scale` (calm water if `calm`).
fn start_pool(
    size: (u32, u32),
    scale: u32,
    kind: SolverKind,
    calm: bool,
) -> Result<Pool, ripples::Error> {
    let (width, height) = size;
    let mut pool = Pool::with_sim_scale(width, height, scale)?;
    pool.set_solver(kind)?;
    if calm {
        return Ok(pool);
    }
    let mut random = SplitMix64::new(12345);
    let mut stone = |pool: &mut Pool| {
        let x = random.below(width) as i32;
        let y = random.below(height) as i32;
        let radius = random.between(1, 8) as u32;
        let strength = random.between(32, 128) as i16;
        pool.drop_stone(x, y, radius, strength)
    };
    for _ in 0..u64::from(width) * u64::from(height) / 256 + 1 {
        stone(&mut pool)?;
    }
    for _ in 0..16 {
        stone(&mut pool)?;
        pool.step();
    }
    Ok(pool)
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let options = parse_options().unwrap_or_else(|error| {
        eprintln!("frame_costs: {error}");
        std::process::exit(2);
    });
    if let Some(backend) = options.backend {
        ripples::set_backend(backend).unwrap_or_else(|error| {
            eprintln!("frame_costs: {error}");
            std::process::exit(2);
        });
    }
    let (width, height) = options.size;
    let src = ripples::pool_tiles(width, height).expect("pool size");
    let mut dst = vec![0u8; src.len()];
    let mut runs = Vec::new();
    for &solver in &options.solvers {
        for &mode in &options.looks {
            for &scale in &options.scales {
                let pool =
                    start_pool(options.size, scale, solver, options.calm).unwrap_or_else(|error| {
                        eprintln!("frame_costs: {error}");
                        std::process::exit(2);
                    });
                runs.push((solver, mode, scale, pool, Vec::new()));
            }
        }
    }
    println!(
        "{width}x{height}, {} water, backend {}, {} frames per rep, median of {} reps",
        if options.calm { "calm" } else { "turbulent" },
        ripples::backend(),
        options.frames,
        options.reps
    );
    let frames = options.frames;
    for _ in 0..options.reps {
        for (_, mode, _, start, seconds) in &mut runs {
            let look = Look::of_kind(*mode);
            let per_frame = |started: Instant| started.elapsed().as_secs_f64() / f64::from(frames);
            let mut pool = start.clone();
            let started = Instant::now();
            for _ in 0..frames {
                pool.step();
            }
            let step = per_frame(started);
            let mut pool = start.clone();
            let started = Instant::now();
            for _ in 0..frames {
                pool.render(&look, &src, &mut dst).expect("a valid frame");
            }
            let render = per_frame(started);
            let mut pool = start.clone();
            let started = Instant::now();
            for _ in 0..frames {
                pool.step_and_render(&look, &src, &mut dst)
                    .expect("a valid frame");
            }
            seconds.push([step, render, per_frame(started)]);
            std::hint::black_box(&dst);
        }
    }
    println!(
        "{:<8} {:<8} {:>5} {:>8} {:>8} {:>12} {:>8} {:>7}",
        "solver", "look", "scale", "step", "render", "step+render", "", "vs 1"
    );
    println!(
        "{:<8} {:<8} {:>5} {:>8} {:>8} {:>12} {:>8}",
        "", "", "", "ms", "ms", "ms", "ns/px"
    );
    let pixels = f64::from(width) * f64::from(height);
    // The step+render seconds of each repetition at scale 1 of the solver and look being
    // printed, when it was timed: "vs 1" is the median of the per-repetition ratios, each of two
    // frames timed moments apart, which a busy neighbour spoils less than a ratio of medians.
    let mut scale_one: Option<Vec<f64>> = None;
    for (solver, mode, scale, _, seconds) in &mut runs {
        let [step, render, frame] = [0, 1, 2].map(|work| {
            let mut values: Vec<f64> = seconds.iter().map(|times| times[work]).collect();
            median(&mut values)
        });
        if *scale == options.scales[0] {
            scale_one = None;
        }
        if *scale == 1 {
            scale_one = Some(seconds.iter().map(|times| times[2]).collect());
        }
        let against = scale_one.as_ref().map_or(String::from("-"), |one| {
            let mut ratios: Vec<f64> = seconds
                .iter()
                .zip(one)
                .map(|(times, one)| times[2] / one)
                .collect();
            format!("{:.2}x", median(&mut ratios))
        });
        println!(
            "{:<8} {:<8} {:>5} {:>8.3} {:>8.3} {:>12.3} {:>8.3} {:>7}",
            format!("{solver:?}").to_lowercase(),
            format!("{mode:?}").to_lowercase(),
            scale,
            step * 1e3,
            render * 1e3,
            frame * 1e3,
            frame * 1e9 / pixels,
            against
        );
    }
}
