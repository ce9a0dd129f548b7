//! Floating things measured as a physicist would: the bobbing frequency against
//! `omega = sqrt(g / draft)`, a float riding a plane wave, the water's volume and the energy with
//! no damping, and the two-way coupling (a bobbing float makes rings; a boat's wake moves a
//! float). Every test prints what it measured.

use ripples::{Body, Boundary, Float, FloatId, Heights, Pool, SolverKind};

/// Upward zero crossings of `signal - mean`, interpolated, in steps.
fn upward_crossings(signal: &[f64]) -> Vec<f64> {
    let mean = signal.iter().sum::<f64>() / signal.len() as f64;
    let mut crossings = Vec::new();
    for (i, pair) in signal.windows(2).enumerate() {
        let (a, b) = (pair[0] - mean, pair[1] - mean);
        if a < 0.0 && b >= 0.0 {
            crossings.push(i as f64 + a / (a - b));
        }
    }
    crossings
}

fn dispersive_pool(side: u32, damping: f32, boundary: Boundary) -> Pool {
    let mut pool = Pool::new(side, side).unwrap();
    pool.set_solver(SolverKind::Dispersive).unwrap();
    pool.solver_mut()
        .as_dispersive_mut()
        .unwrap()
        .set_damping(damping)
        .unwrap();
    pool.set_boundary(boundary);
    pool
}

/// The bottom's height over `steps` steps of a float released `lift` pixels above its level.
fn bob(pool: &mut Pool, float: Float, steps: usize) -> (FloatId, Vec<f64>) {
    let id = pool.add_float(float).unwrap();
    let mut heights = Vec::with_capacity(steps);
    for _ in 0..steps {
        pool.step();
        heights.push(f64::from(pool.float(id).unwrap().bottom()));
    }
    (id, heights)
}

/// The float's settled level and its bottom's height over `steps` steps after a kick of
/// `kick` pixels per step upwards, for a float that first came to rest over `settle` steps.
fn kicked(
    pool: &mut Pool,
    float: Float,
    settle: usize,
    kick: f32,
    steps: usize,
) -> (FloatId, Vec<f64>) {
    let id = pool.add_float(float).unwrap();
    for _ in 0..settle {
        pool.step();
    }
    pool.set_float_velocity(id, [0.0, 0.0, kick]).unwrap();
    let mut heights = Vec::with_capacity(steps);
    for _ in 0..steps {
        pool.step();
        heights.push(f64::from(pool.float(id).unwrap().bottom()));
    }
    (id, heights)
}

#[test]
fn a_float_bobs_slower_the_denser_it_is() {
    let gravity = f64::from(ripples::DispersiveSolver::DEFAULT_GRAVITY);
    let (radius, thickness) = (8u32, 8.0f32);
    let k = f64::from(ripples::CONTACT_STIFFNESS);
    let mut measured = Vec::new();
    for density in [0.25f32, 0.5, 0.75] {
        let mut pool = dispersive_pool(241, 0.0, Boundary::Absorb);
        let float = Float::new(120.0, 120.0, radius, density)
            .unwrap()
            .with_thickness(thickness)
            .unwrap();
        let (_, heights) = kicked(&mut pool, float, 1500, 0.1, 200);
        let crossings = upward_crossings(&heights);
        let first = &crossings[..crossings.len().min(3)];
        let period = (first[first.len() - 1] - first[0]) / (first.len() - 1) as f64;
        let omega = std::f64::consts::TAU / period;
        let draft = f64::from(density * thickness);
        let stiffness = gravity * k / (1.0 + k);
        let bare = (stiffness / draft).sqrt();
        let added = 4.0 * f64::from(radius) / (3.0 * std::f64::consts::PI);
        let with_added_mass = (stiffness / (draft + added)).sqrt();
        let amplitude = |range: std::ops::Range<usize>| {
            let slice = &heights[range];
            let max = slice.iter().cloned().fold(f64::MIN, f64::max);
            let min = slice.iter().cloned().fold(f64::MAX, f64::min);
            0.5 * (max - min)
        };
        println!(
            "density {density}: draft {draft} px, omega measured {omega:.4} rad/step (period {period:.1}); theory without added mass {bare:.4}, with a disc's added mass {with_added_mass:.4}; amplitude first 50 steps {:.3}, steps 100-200 {:.3}",
            amplitude(0..50),
            amplitude(100..200)
        );
        measured.push((density, omega, bare, with_added_mass));
    }
}

#[test]
fn debug_trace() {
    let mut pool = dispersive_pool(241, 0.0, Boundary::Absorb);
    let float = Float::new(120.0, 120.0, 8, 0.25)
        .unwrap()
        .with_thickness(8.0)
        .unwrap();
    let (_, heights) = kicked(&mut pool, float, 1500, 0.1, 120);
    for (i, h) in heights.iter().enumerate() {
        if i % 2 == 0 {
            print!("{h:.3} ");
        }
    }
    println!();
}
