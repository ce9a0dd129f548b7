//! The C loop is the library's classic solver and classic look, bit for bit: after a few
//! frames from the same water, the heights and the frame are the same. So the yardstick times
//! the contract loop itself, not something merely like it.
//!
//! Without a C compiler the build has no C loop; the tests then say so and pass, unless
//! RIPPLES_E2E=1 asks for every tool to be there.

use ripples::{ClassicSolver, Look, Pool, SplitMix64, WaterSolver};
use ripples_yardstick::{CLoop, ClassicState, classic_heights};

fn c_loop() -> Option<CLoop> {
    match CLoop::built() {
        Ok(c_loop) => Some(c_loop),
        Err(problem) if std::env::var_os("RIPPLES_E2E").is_some_and(|v| v == "1") => {
            panic!("RIPPLES_E2E=1 and the C loop was not built: {problem}")
        }
        Err(problem) => {
            eprintln!("skipped: the C loop was not built ({problem})");
            None
        }
    }
}

/// A pool of `width x height` with rough water (stones of every strength, some at the edges)
/// and a few steps, over a picture whose pixels all differ.
fn rough_pool(width: u32, height: u32, seed: u64) -> (Pool, Vec<u8>) {
    let mut pool = Pool::new(width, height).unwrap();
    pool.set_solver(ripples::SolverKind::Classic).unwrap();
    let mut random = SplitMix64::new(seed);
    for step in 0..12 {
        for _ in 0..3 {
            let x = random.between(-2, i64::from(width) + 1) as i32;
            let y = random.between(-2, i64::from(height) + 1) as i32;
            let radius = random.between(1, 6) as u32;
            // Up to the strongest stone, so sums saturate and displacements leave the image.
            let strength = if step % 4 == 3 {
                32767
            } else {
                random.between(1, 400) as i16
            };
            pool.drop_stone(x, y, radius, strength).unwrap();
        }
        pool.step();
    }
    let image = (0..width * height)
        .flat_map(|i| (i.wrapping_mul(2_654_435_761)).to_le_bytes())
        .collect();
    (pool, image)
}

#[test]
fn the_c_loop_is_the_classic_solver_and_look_bit_for_bit() {
    let Some(c_loop) = c_loop() else { return };
    for (width, height, seed) in [(97, 61, 1), (64, 48, 2), (3, 3, 3), (1, 5, 4), (200, 7, 5)] {
        let (mut pool, image) = rough_pool(width, height, seed);
        let state = ClassicState::of_pool(&pool, &image).unwrap();
        for frames in [1, 2, 7] {
            let (c_heights, c_frame) = c_loop.check(&state, frames).unwrap();
            let mut library = pool.clone();
            let mut frame = vec![0u8; image.len()];
            for _ in 0..frames {
                library
                    .step_and_render(&Look::classic(), &image, &mut frame)
                    .unwrap();
            }
            let at = format!("{width}x{height}, {frames} frames");
            assert_eq!(
                c_heights,
                classic_heights(&library).unwrap(),
                "{at}: heights"
            );
            assert!(c_frame == frame, "{at}: the frames differ");
        }
        // And the water did move, so the comparison compared something.
        let before = classic_heights(&pool).unwrap().to_vec();
        pool.step();
        if width >= 3 && height >= 3 {
            assert_ne!(before, classic_heights(&pool).unwrap(), "{width}x{height}");
        }
    }
}

#[test]
fn the_c_loop_reads_a_solver_with_its_damping() {
    let Some(c_loop) = c_loop() else { return };
    let mut solver = ClassicSolver::new(40, 30).unwrap();
    solver.set_damping_shift(2).unwrap();
    solver.drop_stone(20, 15, 4, 300.0);
    solver.step_without_walls();
    let image = vec![7u8; 40 * 30 * 4];
    let state = ClassicState::of_solver(&solver, &image).unwrap();
    assert_eq!(state.damping_shift, 2);
    let (heights, _) = c_loop.check(&state, 3).unwrap();
    for _ in 0..3 {
        solver.step_without_walls();
    }
    assert_eq!(heights, solver.heights());
}

#[test]
fn the_c_loop_times_frames() {
    let Some(c_loop) = c_loop() else { return };
    let (pool, image) = rough_pool(64, 48, 9);
    let state = ClassicState::of_pool(&pool, &image).unwrap();
    let seconds = c_loop.time(&state, 3).unwrap();
    assert!(seconds > 0.0 && seconds < 60.0, "{seconds}");
    assert!(
        c_loop.compiler().contains("-O3 -march=native"),
        "{}",
        c_loop.compiler()
    );
    // A state the program refuses is an error naming why, not a hang or a wrong time.
    let mut broken = state.clone();
    broken.damping_shift = 40;
    let error = c_loop.time(&broken, 3).unwrap_err().to_string();
    assert!(error.contains("shift"), "{error}");
}
