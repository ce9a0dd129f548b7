//! Long runs: a million steps of rain on each solver at 256x256 stay finite and bounded.
//!
//! Rounding errors, a sponge or a flush that feeds energy back, or a saturation that sticks
//! would all show only after many steps, long after the physics tests' 100,000 steps on 64x64.
//! A million steps take minutes in a debug build, so these tests are `#[ignore]`d and `.ci/run`
//! runs them in the release profile:
//!
//! ```sh
//! cargo test --release -p ripples --test it -- --ignored --nocapture long_runs::
//! ```
//!
//! Each prints the largest |height| seen and the rms per 100,000 steps. The rain is steady
//! (4 stones a step, the default radii and strengths), so the water reaches a steady roughness
//! within a few hundred steps; the test asserts the heights stay finite every 1,000 steps, never
//! come near a bound far above a stone's depth, and that the last 100,000 steps are no rougher
//! than three times the first. `RIPPLES_LONG_RUN_STEPS` shortens the runs for a quick look.

use ripples::{Heights, Pool, Rain, SolverKind};

const SIDE: u32 = 256;
const STEPS: u64 = 1_000_000;
/// Steps between looks at the whole field.
const SAMPLE_EVERY: u64 = 1_000;
/// Steps per reported window.
const WINDOW: u64 = 100_000;

/// What a long run saw.
#[derive(Debug)]
struct Figures {
    largest: f64,
    /// Steps per entry of `rms_per_window`.
    window: u64,
    rms_per_window: Vec<f64>,
    seconds: f64,
}

/// Rains on a `SIDE x SIDE` pool of `kind` for `steps` steps, looking at the field every
/// [`SAMPLE_EVERY`] steps.
fn rain_on(kind: SolverKind, steps: u64) -> Figures {
    let started = std::time::Instant::now();
    let mut pool = Pool::new(SIDE, SIDE).unwrap();
    pool.set_solver(kind).unwrap();
    let mut rain = Rain::new(2024).with_rate(4.0).unwrap();
    let window = WINDOW.min(steps).max(SAMPLE_EVERY);
    let mut largest = 0.0f64;
    let (mut sum_of_squares, mut samples) = (0.0, 0u32);
    let mut rms_per_window = Vec::new();
    for step in 1..=steps {
        for stone in rain.stones(SIDE, SIDE) {
            pool.drop(stone).unwrap();
        }
        pool.step();
        if step % SAMPLE_EVERY == 0 {
            let (peak, mean_square) = peak_and_mean_square(&pool);
            assert!(
                peak.is_finite() && mean_square.is_finite(),
                "{kind:?}: not finite after {step} steps"
            );
            largest = largest.max(peak);
            sum_of_squares += mean_square;
            samples += 1;
        }
        if step % window == 0 {
            rms_per_window.push((sum_of_squares / f64::from(samples)).sqrt());
            (sum_of_squares, samples) = (0.0, 0);
        }
    }
    Figures {
        largest,
        window,
        rms_per_window,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// The largest |height| and the mean squared height (NaN if any height is NaN).
fn peak_and_mean_square(pool: &Pool) -> (f64, f64) {
    let heights: Vec<f64> = match pool.solver().heights() {
        Heights::I16(h) => h.iter().map(|&v| f64::from(v)).collect(),
        Heights::F32(h) => h.iter().map(|&v| f64::from(v)).collect(),
    };
    let peak =
        heights.iter().map(|v| v.abs()).fold(
            0.0,
            |a: f64, b| if b.is_nan() { f64::NAN } else { a.max(b) },
        );
    let mean_square = heights.iter().map(|v| v * v).sum::<f64>() / heights.len() as f64;
    (peak, mean_square)
}

/// Runs `work` with the solvers' strips on one thread. A 256x256 step is a few microseconds
/// of work, less than handing strips to other threads costs, and the three tests run side by
/// side anyway: in a shared two-thread pool they took 3.5 minutes here, one thread each
/// about a minute and a half.
fn on_one_thread<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    #[cfg(feature = "parallel")]
    {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a thread for the solver")
            .install(work)
    }
    #[cfg(not(feature = "parallel"))]
    {
        work()
    }
}

fn steps() -> u64 {
    std::env::var("RIPPLES_LONG_RUN_STEPS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(STEPS)
}

/// Runs `kind` for [`steps`], prints its figures and checks them against `bound`.
fn check(kind: SolverKind, bound: f64) {
    let steps = steps();
    let figures = on_one_thread(|| rain_on(kind, steps));
    let rms = &figures.rms_per_window;
    eprintln!(
        "{kind:?}, {steps} steps of rain at {SIDE}x{SIDE}: largest |height| {:.1}, final rms \
         {:.2}, rms per {} steps {rms:.2?}, {:.1} s",
        figures.largest,
        rms[rms.len() - 1],
        figures.window,
        figures.seconds
    );
    assert!(
        figures.largest < bound,
        "{kind:?}: heights grew to {} (bound {bound})",
        figures.largest
    );
    let (first, last) = (rms[0], rms[rms.len() - 1]);
    assert!(
        first > 0.0,
        "{kind:?}: the rain made no waves (rms {first})"
    );
    assert!(
        last < 3.0 * first,
        "{kind:?}: rms grew from {first:.2} to {last:.2}"
    );
}

// Bounds: stones are at most 128 deep (x3.4 for the wave solver's smooth stone); overlapping
// rings add up, but a steady rain never builds a wave near 16 stone depths. The classic solver
// saturates at i16::MAX, so its bound is below that: reaching it would mean the integer field
// got stuck at its ceiling.

#[test]
#[ignore = "a million steps: run in release by .ci/run"]
fn classic_rain_for_a_million_steps_stays_bounded() {
    check(SolverKind::Classic, 16.0 * 128.0);
}

#[test]
#[ignore = "a million steps: run in release by .ci/run"]
fn wave_rain_for_a_million_steps_stays_bounded() {
    check(SolverKind::Wave, 16.0 * 128.0 * 3.4);
}

#[test]
#[ignore = "a million steps: run in release by .ci/run"]
fn spring_rain_for_a_million_steps_stays_bounded() {
    check(SolverKind::Spring, 16.0 * 128.0);
}

#[test]
#[ignore = "a million steps: run in release by .ci/run"]
fn dispersive_rain_for_a_million_steps_stays_bounded() {
    check(SolverKind::Dispersive, 16.0 * 128.0 * 3.4);
}
