//! The physics every solver shares, checked from the numbers through the `Pool` API: open
//! water absorbs, walls reflect and stay dry, generators drive waves, and heavy rain for
//! 100,000 steps leaves every solver finite and bounded.

use ripples::{Boundary, Generator, Heights, Pool, Rain, Solver, SolverKind, WaterSolver};

const SOLVERS: [SolverKind; 3] = [SolverKind::Classic, SolverKind::Wave, SolverKind::Spring];

fn values(pool: &Pool) -> Vec<f64> {
    match pool.solver().heights() {
        Heights::I16(h) => h.iter().map(|&v| f64::from(v)).collect(),
        Heights::F32(h) => h.iter().map(|&v| f64::from(v)).collect(),
    }
}

/// Wave energy in the pool, comparable between runs of the same solver: the wave solver's own
/// conserved energy, the sum of squared heights for the classic one, and kinetic plus spreading
/// energy for the spring model.
fn energy(pool: &Pool) -> f64 {
    match pool.solver() {
        Solver::Wave(s) => s.energy(),
        Solver::Dispersive(s) => s.energy(),
        Solver::Classic(_) => values(pool).iter().map(|v| v * v).sum(),
        Solver::Spring(s) => {
            let (w, h) = (s.width() as usize, s.height() as usize);
            let (heights, velocities) = (s.heights(), s.velocities());
            let coupling = f64::from(s.spread()) * f64::from(s.spread_passes());
            let mut total: f64 = velocities.iter().map(|&v| f64::from(v).powi(2)).sum();
            for y in 0..h - 1 {
                for x in 0..w - 1 {
                    let i = y * w + x;
                    let dx = f64::from(heights[i + 1] - heights[i]);
                    let dy = f64::from(heights[i + w] - heights[i]);
                    total += coupling * (dx * dx + dy * dy);
                }
            }
            total
        }
    }
}

/// A pool of `kind` with the lightest damping each solver allows, so that what the boundary
/// does is what the test sees.
fn undamped_pool(kind: SolverKind, size: u32, boundary: Boundary) -> Pool {
    let mut pool = Pool::new(size, size).unwrap();
    pool.set_solver(kind).unwrap();
    match pool.solver_mut() {
        Solver::Classic(s) => s.set_damping_shift(15).unwrap(),
        Solver::Wave(s) => s.set_damping(0.0).unwrap(),
        Solver::Dispersive(s) => s.set_damping(0.0).unwrap(),
        Solver::Spring(s) => s.set_springs(0.0, 0.0).unwrap(),
    }
    pool.set_boundary(boundary);
    pool
}

/// A stone strength that makes waves well above the integer solver's rounding (which eats
/// amplitudes of a few units), and the usual 120 for the f32 solvers.
fn strength(kind: SolverKind) -> i16 {
    match kind {
        SolverKind::Classic => 6000,
        _ => 120,
    }
}

/// A stone radius per solver: the spring model's spreading also diffuses the heights, which
/// eats short waves as they travel, so its test ring is made of longer ones.
fn radius(kind: SolverKind) -> u32 {
    match kind {
        SolverKind::Spring => 28,
        _ => 6,
    }
}

/// Energy left (as a fraction of the most seen in the first 40 steps) after `steps` steps of a
/// stone in the middle of a 256x256 pool.
fn energy_left(kind: SolverKind, boundary: Boundary, steps: usize) -> f64 {
    let mut pool = undamped_pool(kind, 256, boundary);
    pool.drop_stone(128, 128, radius(kind), strength(kind))
        .unwrap();
    let mut peak: f64 = 0.0;
    for step in 0..steps {
        pool.step();
        if step < 40 {
            peak = peak.max(energy(&pool));
        }
    }
    energy(&pool) / peak
}

#[test]
fn open_water_lets_waves_leave_and_walls_keep_them() {
    // Steps for the waves to cross the border with room to spare. The classic solver conserves
    // the pool's total water (the seeds' a = 1/2, b = -1), so a stone's volume also sets the
    // whole pool sloshing in its slowest mode, which needs longer to drain through the band.
    for (kind, steps) in [
        (SolverKind::Classic, 1500),
        (SolverKind::Wave, 700),
        (SolverKind::Spring, 600),
    ] {
        let absorbed = energy_left(kind, Boundary::Absorb, steps);
        let reflected = energy_left(kind, Boundary::Reflect, steps);
        eprintln!(
            "{kind:?}: {:.2}% left with absorb, {:.1}% with reflect",
            absorbed * 100.0,
            reflected * 100.0
        );
        assert!(
            absorbed < 0.05,
            "{kind:?}: {:.1}% of the energy stayed with absorb",
            absorbed * 100.0
        );
        if kind == SolverKind::Spring {
            // The spring model's spreading also diffuses heights, which takes most of a ring's
            // energy on its way to the edge even with reflecting walls; what the boundary does
            // shows in the ratio between the two runs.
            assert!(
                absorbed < 0.15 * reflected,
                "{kind:?}: {absorbed} vs {reflected}"
            );
        } else {
            assert!(
                reflected > 0.5,
                "{kind:?}: only {:.1}% stayed with reflect",
                reflected * 100.0
            );
        }
    }
}

#[test]
fn walls_stay_dry_and_send_rings_back() {
    // When to look: after the reflection has had time to travel back past the stone (about
    // 1.5 x 90 cells of path at each solver's wave speed).
    for (kind, look_at) in [
        (SolverKind::Classic, 200),
        (SolverKind::Wave, 270),
        (SolverKind::Spring, 420),
    ] {
        let size = 200;
        let mut pool = undamped_pool(kind, size, Boundary::Absorb);
        // A wall across the pool at x = 120..122, no gap.
        for y in 0..size as i64 {
            for x in 120..123 {
                pool.obstacles_mut().set(x, y, true);
            }
        }
        pool.drop_stone(90, 100, 5, strength(kind)).unwrap();
        let mut came_back = 0.0f64;
        for step in 0..=look_at {
            pool.step();
            let h = values(&pool);
            let walls = pool.obstacles().cells();
            assert!(
                h.iter().zip(walls).all(|(&v, &wall)| !wall || v == 0.0),
                "{kind:?}: a wall got wet at step {step}"
            );
            assert!(
                (0..size as usize)
                    .all(|y| (124..size as usize).all(|x| h[y * size as usize + x] == 0.0)),
                "{kind:?}: water passed the wall at step {step}"
            );
            // Energy on the far left, compared below with the same run without the wall.
            if step == look_at {
                came_back = (0..size as usize)
                    .flat_map(|y| (1..60).map(move |x| (x, y)))
                    .map(|(x, y)| h[y * size as usize + x].powi(2))
                    .sum();
            }
        }
        // The same without the wall: less comes back to the left side.
        let mut open = undamped_pool(kind, size, Boundary::Absorb);
        open.drop_stone(90, 100, 5, strength(kind)).unwrap();
        let mut without_wall = 0.0f64;
        for step in 0..=look_at {
            open.step();
            if step == look_at {
                let h = values(&open);
                without_wall = (0..size as usize)
                    .flat_map(|y| (1..60).map(move |x| (x, y)))
                    .map(|(x, y)| h[y * size as usize + x].powi(2))
                    .sum();
            }
        }
        eprintln!(
            "{kind:?}: energy back on the left {came_back:.1} with the wall, {without_wall:.1} without"
        );
        assert!(
            came_back > 1.5 * without_wall,
            "{kind:?}: {came_back} vs {without_wall}"
        );
    }
}

#[test]
fn a_point_generator_drives_waves_at_its_period() {
    for kind in SOLVERS {
        let mut pool = Pool::new(120, 120).unwrap();
        pool.set_solver(kind).unwrap();
        pool.set_boundary(Boundary::Absorb);
        let mut source = Generator::point([60, 60], 20.0, 50.0);
        source.end = Some(400);
        pool.add_generator(source).unwrap();
        let mut samples = Vec::new();
        for _ in 0..400 {
            pool.step();
            samples.push(values(&pool)[60 * 120 + 70]);
        }
        // Count cycles over the last 200 steps (10 periods of 20 steps): rises through +10% of
        // the amplitude after a fall through -10%, so ripples of the lattice do not count.
        let late = &samples[200..];
        let amplitude = late.iter().map(|v| v.abs()).fold(0.0, f64::max);
        let mut crossings = 0;
        let mut below = false;
        for &v in late {
            if v < -0.1 * amplitude {
                below = true;
            } else if below && v > 0.1 * amplitude {
                below = false;
                crossings += 1;
            }
        }
        assert!(
            (9..=11).contains(&crossings),
            "{kind:?}: {crossings} crossings in 200 steps"
        );
        // After the generator stops, the water calms.
        for _ in 0..1500 {
            pool.step();
        }
        let left = values(&pool).iter().map(|v| v.abs()).fold(0.0, f64::max);
        assert!(
            left < 2.0,
            "{kind:?}: still {left} after the generator stopped"
        );
    }
}

#[test]
fn heavy_rain_for_100000_steps_stays_finite_and_bounded() {
    for kind in SOLVERS {
        let mut pool = Pool::new(64, 64).unwrap();
        pool.set_solver(kind).unwrap();
        let mut rain = Rain::new(11).with_rate(4.0).unwrap();
        let mut largest = 0.0f64;
        let mut rms_per_10000 = Vec::new();
        let mut sum_of_squares = 0.0;
        for step in 0..100_000 {
            for stone in rain.stones(64, 64) {
                pool.drop(stone).unwrap();
            }
            pool.step();
            if step % 100 == 99 {
                let h = values(&pool);
                assert!(
                    h.iter().all(|v| v.is_finite()),
                    "{kind:?}: not finite at step {step}"
                );
                largest = h.iter().map(|v| v.abs()).fold(largest, f64::max);
                sum_of_squares += h.iter().map(|v| v * v).sum::<f64>() / h.len() as f64;
            }
            if step % 10_000 == 9_999 {
                rms_per_10000.push((sum_of_squares / 100.0).sqrt());
                sum_of_squares = 0.0;
            }
        }
        eprintln!(
            "{kind:?}: largest |height| {largest:.1}, rms per 10,000 steps {rms_per_10000:.1?}"
        );
        // Bounded: the f32 solvers stay within a few stone depths (128, x3.4 for the wave
        // solver's smooth stone); the classic one never reaches its i16 ceiling.
        let bound = match kind {
            SolverKind::Classic => f64::from(i16::MAX),
            _ => 8.0 * 128.0 * 3.4,
        };
        assert!(largest < bound, "{kind:?}: heights grew to {largest}");
        // And not growing: the last stretch is no rougher than three times the first.
        let (first, last) = (rms_per_10000[0], rms_per_10000[rms_per_10000.len() - 1]);
        assert!(
            last < 3.0 * first,
            "{kind:?}: rms grew from {first:.1} to {last:.1}"
        );
    }
}

#[test]
fn switching_solvers_keeps_walls_and_calms_the_water() {
    let mut pool = Pool::with_sim_scale(100, 80, 2).unwrap();
    pool.paint_wall(50, 40, 6, true).unwrap();
    let walls = pool.obstacles().count();
    assert!(walls > 20);
    pool.drop_stone(20, 20, 4, 100).unwrap();
    pool.set_solver(SolverKind::Wave).unwrap();
    assert_eq!(pool.obstacles().count(), walls);
    assert!(values(&pool).iter().all(|&v| v == 0.0));
    pool.paint_wall(50, 40, 6, false).unwrap();
    assert_eq!(pool.obstacles().count(), 0);
}

#[test]
fn the_spring_look_makes_fast_water_transparent_near_a_stone_only() {
    let (width, height) = (160u32, 120u32);
    let background = ripples::pool_tiles(width, height).unwrap();
    let mut frame = vec![0u8; background.len()];
    for scale in [1, 2] {
        let mut pool = Pool::with_sim_scale(width, height, scale).unwrap();
        pool.set_solver(SolverKind::Spring).unwrap();
        pool.drop_stone(40, 60, 8, 128).unwrap();
        for _ in 0..12 {
            pool.step();
        }
        let look = ripples::Look::spring();
        pool.render(&look, &background, &mut frame).unwrap();
        let alpha = |x: u32, y: u32| frame[((y * width + x) * 4 + 3) as usize];
        let near = (20..60)
            .flat_map(|y| (20..60).map(move |x| (x, y)))
            .filter(|&(x, y)| alpha(x, y) < 255)
            .count();
        let far = (0..height)
            .flat_map(|y| (110..width).map(move |x| (x, y)))
            .filter(|&(x, y)| alpha(x, y) < 255)
            .count();
        assert!(
            near > 50,
            "scale {scale}: {near} see-through pixels near the stone"
        );
        assert_eq!(
            far, 0,
            "scale {scale}: far from the stone the water is still and opaque"
        );
    }
}
