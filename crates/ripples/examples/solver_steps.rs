//! Times the physical solvers' `step` on a turbulent 1920x1080 pool, on 1 thread and on the
//! default rayon pool, and prints the median milliseconds per step (a benchmark, not a test).
//!
//! ```text
//! cargo run --release -p ripples --example solver_steps [-- STEPS [WIDTH HEIGHT]]
//! ```
//!
//! The pool gets 3,000 random stones, then 20 more before every step (not timed) so the water
//! stays rough. Each solver runs a few rounds alternating 1 thread and the default pool, so a
//! busy moment on a shared machine hits both; compare the medians of one run with each other.

use std::time::Instant;

use ripples::{Obstacles, Solver, SolverKind, SplitMix64};

fn rough_pool(kind: SolverKind, width: u32, height: u32, random: &mut SplitMix64) -> Solver {
    let mut solver = Solver::new(kind, width, height).expect("pool size");
    for _ in 0..3000 {
        stone(&mut solver, random);
    }
    solver
}

fn stone(solver: &mut Solver, random: &mut SplitMix64) {
    let x = random.below(solver.width()) as i32;
    let y = random.below(solver.height()) as i32;
    let radius = random.between(2, 12) as u32;
    let strength = random.between(30, 128) as f32;
    solver.drop_stone(x, y, radius, strength);
}

/// Milliseconds of each of `steps` steps.
fn time_steps(
    solver: &mut Solver,
    walls: &Obstacles,
    steps: usize,
    random: &mut SplitMix64,
) -> Vec<f64> {
    (0..steps)
        .map(|_| {
            for _ in 0..20 {
                stone(solver, random);
            }
            let start = Instant::now();
            solver.step(walls, None);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u32| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a positive number"))
    };
    let steps = number(0, 40) as usize;
    let (width, height) = (number(1, 1920), number(2, 1080));
    let single = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let threads = rayon::current_num_threads();
    println!(
        "{width}x{height}, {steps} steps per round, backend {}, default pool {threads} threads",
        ripples::backend()
    );
    let walls = Obstacles::new(width as usize, height as usize).expect("pool size");
    for kind in [SolverKind::Wave, SolverKind::Spring] {
        let mut random = SplitMix64::new(7);
        let mut solver = rough_pool(kind, width, height, &mut random);
        time_steps(&mut solver, &walls, 5, &mut random);
        let (mut one, mut many) = (Vec::new(), Vec::new());
        for _ in 0..3 {
            one.extend(single.install(|| time_steps(&mut solver, &walls, steps, &mut random)));
            many.extend(time_steps(&mut solver, &walls, steps, &mut random));
        }
        let (one, many) = (median(one), median(many));
        println!(
            "{kind:?}: {one:.2} ms per step on 1 thread, {many:.2} ms on {threads} ({:.2}x)",
            one / many
        );
    }
}
