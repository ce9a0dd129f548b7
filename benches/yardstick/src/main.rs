//! `ripples-yardstick`: Ripples' realistic water against the classic ripple loop compiled from
//! C, timed in the same run (see the library's documentation for why and how).
//!
//! ```text
//! cargo run --release -p ripples-yardstick                 # 1920x1080, wave + natural, 2 threads
//! cargo run --release -p ripples-yardstick -- --size 3840x2160 --reps 7
//! ```
//!
//! Each repetition times the C loop (one thread) and then Ripples (`--threads`, through
//! `Pool::step_and_render` as `ripples bench` does), or the other way round on odd
//! repetitions, both from the bench's turbulent field of the same recipe, so a busy moment on a
//! shared machine hits both; the figures are medians, and the ratio is the median of the
//! per-repetition ratios.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Parser;
use ripples::{Backend, RenderMode, SolverKind};
use ripples_cli::bench::{field_hash, look_for, median, step_and_render, turbulent_pool};
use ripples_yardstick::{CLoop, ClassicState};

/// Times Ripples' realistic water (by default the wave solver, which the yardstick's issue
/// names, and the natural look on two threads) against the classic ripple loop compiled from C
/// (gcc -O3 -march=native, one thread), in the same run, on the same turbulent field as
/// `ripples bench`.
#[derive(Debug, Parser)]
#[command(name = "ripples-yardstick", version)]
struct Options {
    /// Pool size in pixels (one cell per pixel).
    #[arg(long, value_name = "WxH", value_parser = ripples_cli::cli::args::parse_size, default_value = "1920x1080")]
    size: (u32, u32),

    /// Frames timed per repetition.
    #[arg(long, value_name = "N", default_value = "60",
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    frames: u32,

    /// Repetitions; the figures are medians.
    #[arg(long, value_name = "R", default_value = "5",
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    reps: u32,

    /// Ripples' worker threads (the C loop has one).
    #[arg(long, value_name = "T", default_value = "2",
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,

    /// Ripples' solver: wave, dispersive, classic or spring.
    #[arg(long, value_name = "NAME", default_value = "wave")]
    solver: SolverKind,

    /// Ripples' look: default, classic, spring or natural.
    #[arg(long, value_name = "LOOK", default_value = "natural")]
    render: RenderMode,

    /// Ripples' kernel backend: scalar, sse4.1, avx2, avx512, neon or simd128 [default: the best
    /// this CPU has].
    #[arg(long, value_name = "NAME")]
    backend: Option<Backend>,
}

fn main() -> ExitCode {
    let options = match Options::try_parse() {
        Ok(options) => options,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(error.exit_code().clamp(0, 255) as u8);
        }
    };
    match run(&options) {
        Ok(report) => {
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: &Options) -> Result<String> {
    let c_loop = CLoop::built().map_err(|problem| {
        anyhow::anyhow!("this build has no C loop to time: {problem}; rebuild with gcc")
    })?;
    if let Some(backend) = options.backend {
        ripples::set_backend(backend)?;
    }
    let (width, height) = options.size;
    let (frames, reps) = (options.frames, options.reps);
    let cells = f64::from(width) * f64::from(height);
    let image = ripples::pool_tiles(width, height)?;
    let mut frame = vec![0u8; image.len()];

    let classic = turbulent_pool(width, height, 1, SolverKind::Classic)?;
    let c_state = ClassicState::of_pool(&classic, &image)?;
    let water = turbulent_pool(width, height, 1, options.solver)?;
    let look = look_for(options.render);
    let workers = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads as usize)
        .build()
        .with_context(|| format!("cannot start {} worker threads", options.threads))?;
    // Untimed: starts the threads and faults every buffer in.
    workers.install(|| step_and_render(&mut water.clone(), &look, &image, &mut frame))?;

    let time_ripples = |frame: &mut Vec<u8>| -> Result<f64> {
        let mut pool = water.clone();
        workers.install(|| {
            let started = Instant::now();
            for _ in 0..frames {
                step_and_render(&mut pool, &look, &image, frame)?;
            }
            Ok(started.elapsed().as_secs_f64())
        })
    };
    let (mut c_seconds, mut ripples_seconds, mut ratios) = (vec![], vec![], vec![]);
    for rep in 0..reps {
        let (c, ripples) = if rep % 2 == 0 {
            let c = c_loop.time(&c_state, frames)?;
            (c, time_ripples(&mut frame)?)
        } else {
            let ripples = time_ripples(&mut frame)?;
            (c_loop.time(&c_state, frames)?, ripples)
        };
        std::hint::black_box(&frame);
        ratios.push(c / ripples.max(1e-12));
        c_seconds.push(c);
        ripples_seconds.push(ripples);
    }
    let figures = |seconds: &mut Vec<f64>| {
        let per_frame = median(seconds) / f64::from(frames);
        format!(
            "{:.3} ns/cell, {:.1} fps",
            per_frame * 1e9 / cells,
            1.0 / per_frame
        )
    };
    let ratio = median(&mut ratios);
    let (least, greatest) = (ratios[0], ratios[ratios.len() - 1]);
    let threads = match options.threads {
        1 => "1 thread".to_string(),
        n => format!("{n} threads"),
    };
    Ok(format!(
        "ripples-yardstick: {width}x{height}, median of {reps} reps of {frames} frames, \
         interleaved\n\
         turbulent field (the `ripples bench` recipe): classic fnv1a64 {:016x}, {} fnv1a64 {:016x}\n\
         C classic loop ({}, 1 thread): {}\n\
         ripples, {} solver, {} look, backend {}, {threads}: {}\n\
         ripples frames per second over the C loop's: {ratio:.2}x (per rep {least:.2}x to \
         {greatest:.2}x){}",
        field_hash(classic.solver().heights()),
        name(options.solver),
        field_hash(water.solver().heights()),
        c_loop.compiler(),
        figures(&mut c_seconds),
        name(options.solver),
        name(options.render),
        ripples::backend(),
        figures(&mut ripples_seconds),
        if ratio >= 1.0 {
            ": at least as fast"
        } else {
            ": slower"
        }
    ))
}

/// `Wave` as `wave`.
fn name(value: impl std::fmt::Debug) -> String {
    format!("{value:?}").to_lowercase()
}
