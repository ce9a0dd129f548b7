//! Floating things measured as a physicist would: the bobbing frequency against
//! `omega = sqrt(g / draft)`, a float riding a plane wave, the water's volume and the energy with
//! no damping, and the two-way coupling (a bobbing float makes rings; a boat's wake moves a
//! float). Every test prints what it measured.

use ripples::{Body, Boundary, Float, FloatId, Generator, Heights, Pool, SolverKind};

/// The angular frequency, in radians per step, of the damped oscillation in `signal`: the
/// `omega` in `0.02..0.4` (with a decay rate `gamma` in `0..0.05`) whose least-squares fit
/// `a + b t + exp(-gamma t) (c cos(omega t) + d sin(omega t))` leaves the smallest residual.
/// The linear term takes up the slow settling a float still does after it came to rest (its
/// dent and the long waves around it move over hundreds of steps), which shifted a plain
/// zero-crossing count by a factor of two; the decay is the energy its rings carry away.
fn fitted_omega(signal: &[f64]) -> f64 {
    let residual = |(omega, gamma): (f64, f64)| -> f64 {
        // Normal equations of the four-term fit, solved by Gaussian elimination.
        let basis = |t: f64| {
            let decay = (-gamma * t).exp();
            [1.0, t, decay * (omega * t).cos(), decay * (omega * t).sin()]
        };
        let mut matrix = [[0.0f64; 5]; 4];
        for (i, &y) in signal.iter().enumerate() {
            let f = basis(i as f64);
            for r in 0..4 {
                for c in 0..4 {
                    matrix[r][c] += f[r] * f[c];
                }
                matrix[r][4] += f[r] * y;
            }
        }
        for col in 0..4 {
            let pivot = (col..4)
                .max_by(|&a, &b| matrix[a][col].abs().total_cmp(&matrix[b][col].abs()))
                .unwrap();
            matrix.swap(col, pivot);
            for row in 0..4 {
                if row != col {
                    let factor = matrix[row][col] / matrix[col][col];
                    let pivot_row = matrix[col];
                    for (value, pivot_value) in matrix[row].iter_mut().zip(pivot_row).skip(col) {
                        *value -= factor * pivot_value;
                    }
                }
            }
        }
        let coefficients: Vec<f64> = (0..4).map(|r| matrix[r][4] / matrix[r][r]).collect();
        signal
            .iter()
            .enumerate()
            .map(|(i, &y)| {
                let f = basis(i as f64);
                let fit: f64 = (0..4).map(|r| coefficients[r] * f[r]).sum();
                (y - fit).powi(2)
            })
            .sum()
    };
    let candidates = (0..=760)
        .flat_map(|i| (0..=25).map(move |j| (0.02 + 0.0005 * f64::from(i), 0.002 * f64::from(j))));
    candidates
        .map(|candidate| (residual(candidate), candidate.0))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap()
        .1
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
        // The first 120 steps: two periods and more of the bobbing, before the rings it sent
        // out have gone far and the slow settling takes over.
        let omega = fitted_omega(&heights[..120]);
        let period = std::f64::consts::TAU / omega;
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
        measured.push((density, omega, with_added_mass));
    }
    for &(density, omega, theory) in &measured {
        assert!(
            (omega / theory - 1.0).abs() < 0.10,
            "density {density}: omega {omega} vs {theory} (tolerance 10%)"
        );
    }
    for pair in measured.windows(2) {
        assert!(
            pair[1].1 < pair[0].1,
            "denser floats must bob slower: {:?}",
            measured
        );
    }
}

/// The float's surface level at its centre cell, height units.
fn level_at(pool: &Pool, [x, y]: [f32; 2]) -> f32 {
    let Heights::F32(heights) = pool.solver().heights() else {
        panic!("float heights expected");
    };
    let width = pool.solver().width() as usize;
    heights[y.round() as usize * width + x.round() as usize]
}

#[test]
fn a_float_on_a_plane_wave_moves_with_the_water_and_drifts_with_the_wave() {
    // A long channel, waves of period 40 steps from a line source at its left end.
    let (length, width) = (900u32, 41u32);
    let mut pool = Pool::new(length, width).unwrap();
    pool.set_solver(SolverKind::Dispersive).unwrap();
    pool.solver_mut()
        .as_dispersive_mut()
        .unwrap()
        .set_damping(0.0)
        .unwrap();
    let period = 40.0f32;
    pool.add_generator(Generator::line([2, 1], [2, width as i32 - 2], period, 24.0))
        .unwrap();
    let start = [150.0, 20.0];
    let id = pool
        .add_float(Float::new(start[0], start[1], 2, 0.3).unwrap())
        .unwrap();
    // Let the wave train arrive (group speed about 0.3 cells per step), then watch 20 periods.
    for _ in 0..900 {
        pool.step();
    }
    let x_before = pool.float_position(id).unwrap()[0];
    let (mut velocities, mut levels, mut probe) = (Vec::new(), Vec::new(), Vec::new());
    let steps = 10 * period as usize;
    for _ in 0..steps {
        pool.step();
        let float = pool.float(id).unwrap();
        velocities.push(f64::from(float.velocity()[0]));
        levels.push(f64::from(level_at(&pool, float.position())));
        probe.push(f64::from(level_at(&pool, [start[0], start[1]])));
    }
    let x_after = pool.float_position(id).unwrap()[0];
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (mean_u, mean_eta) = (mean(&velocities), mean(&levels));
    let covariance: f64 = velocities
        .iter()
        .zip(&levels)
        .map(|(u, e)| (u - mean_u) * (e - mean_eta))
        .sum();
    let spread = |v: &[f64], m: f64| v.iter().map(|x| (x - m) * (x - m)).sum::<f64>().sqrt();
    let correlation = covariance / (spread(&velocities, mean_u) * spread(&levels, mean_eta));
    // Linear deep-water theory: surface particles move forward at crests with speed
    // omega * a (a the amplitude in cells), and drift forward at omega * k * a^2 (Stokes).
    let rms = |v: &[f64], m: f64| spread(v, m) / (v.len() as f64).sqrt();
    let amplitude =
        rms(&probe, mean(&probe)) * 2f64.sqrt() / f64::from(ripples::HEIGHT_UNITS_PER_CELL);
    let omega = std::f64::consts::TAU / f64::from(period);
    let k = omega * omega / f64::from(ripples::DispersiveSolver::DEFAULT_GRAVITY);
    let speed_theory = omega * amplitude;
    let speed_measured = rms(&velocities, mean_u) * 2f64.sqrt();
    let drift_theory = omega * k * amplitude * amplitude;
    let drift_measured = (x_after - x_before) as f64 / steps as f64;
    println!(
        "plane wave: amplitude where the float started {amplitude:.3} cells, wavelength {:.1} cells; \
         velocity vs elevation correlation {correlation:.3} (in phase: 1); \
         orbital speed {speed_measured:.4} vs omega*a {speed_theory:.4} cells/step; \
         drift {drift_measured:.4} vs Stokes omega*k*a^2 {drift_theory:.4} cells/step",
        std::f64::consts::TAU / k
    );
    assert!(correlation > 0.8, "correlation {correlation}");
    assert!(
        (speed_measured / speed_theory - 1.0).abs() < 0.3,
        "orbital speed {speed_measured} vs {speed_theory} (tolerance 30%)"
    );
    assert!(
        drift_measured > 0.3 * drift_theory && drift_measured < 3.0 * drift_theory,
        "drift {drift_measured} vs {drift_theory} (within a factor 3)"
    );
}

#[test]
fn with_no_damping_the_water_volume_is_kept_and_the_energy_stays_bounded() {
    // The wave solver with damping 0 and reflecting edges; three floats dropped from above.
    let side = 401u32;
    let mut pool = Pool::new(side, side).unwrap();
    pool.set_solver(SolverKind::Wave).unwrap();
    pool.solver_mut()
        .as_wave_mut()
        .unwrap()
        .set_damping(0.0)
        .unwrap();
    let sum = |pool: &Pool| match pool.solver().heights() {
        Heights::F32(h) => h.iter().map(|&v| f64::from(v)).sum::<f64>(),
        Heights::I16(h) => h.iter().map(|&v| f64::from(v)).sum::<f64>(),
    };
    let mut ids = Vec::new();
    for (x, y, density) in [
        (200.0, 200.0, 0.5),
        (170.0, 215.0, 0.3),
        (230.0, 190.0, 0.8),
    ] {
        let float = Float::new(x, y, 8, density).unwrap().lifted(4.0).unwrap();
        ids.push(pool.add_float(float).unwrap());
    }
    let displaced: f64 = 3.0 * std::f64::consts::PI * 64.0 * 0.5 * 8.0 * 16.0;
    let before = sum(&pool);
    let mut worst: f64 = 0.0;
    // Until the rings reach the edges (which the solver holds at rest, so a wave there
    // changes the water's sum by itself), about 0.5 cells a step from the middle.
    for _ in 0..300 {
        pool.step();
        worst = worst.max((sum(&pool) - before).abs());
    }
    // The solver alone does not keep the sum exactly either (f32 rounding in its stencil): a
    // stone's dent of about the same volume, for comparison.
    let mut control = Pool::new(side, side).unwrap();
    control.set_solver(SolverKind::Wave).unwrap();
    control
        .solver_mut()
        .as_wave_mut()
        .unwrap()
        .set_damping(0.0)
        .unwrap();
    control.drop_stone(200, 200, 14, 128).unwrap();
    let (stone_before, mut stone_worst) = (sum(&control), 0.0f64);
    for _ in 0..300 {
        control.step();
        stone_worst = stone_worst.max((sum(&control) - stone_before).abs());
    }
    println!(
        "volume: the sum of the heights moved at most {worst:.2} height units over 300 steps, \
         {:.2e} of the volume the floats displace ({displaced:.0}); a stone's dent of volume \
         {:.0} alone moves it {stone_worst:.2} ({:.2e})",
        worst / displaced,
        stone_before.abs(),
        stone_worst / stone_before.abs()
    );
    assert!(worst < 2e-3 * displaced, "volume changed by {worst}");

    // Energy over a long run on a smaller pool: the water's (the solver's measure, in height
    // units², over HEIGHT_UNITS_PER_CELL² to be in cells) plus the floats' (in cells).
    let mut pool = Pool::new(121, 121).unwrap();
    pool.set_solver(SolverKind::Wave).unwrap();
    pool.solver_mut()
        .as_wave_mut()
        .unwrap()
        .set_damping(0.0)
        .unwrap();
    let mut ids = Vec::new();
    for (x, y, density) in [(60.0, 60.0, 0.5), (35.0, 80.0, 0.3)] {
        let float = Float::new(x, y, 6, density).unwrap().lifted(3.0).unwrap();
        ids.push(pool.add_float(float).unwrap());
    }
    let units = f64::from(ripples::HEIGHT_UNITS_PER_CELL).powi(2);
    let total = |pool: &Pool| {
        let water = pool.solver().as_wave().unwrap().energy() / units;
        let floats: f64 = ids.iter().map(|&id| pool.float_energy(id).unwrap()).sum();
        (water, floats)
    };
    let (water0, floats0) = total(&pool);
    let steps = 20_000;
    let mut history = Vec::with_capacity(steps);
    for _ in 0..steps {
        pool.step();
        let (water, floats) = total(&pool);
        assert!(water.is_finite() && floats.is_finite());
        history.push(water + floats);
    }
    let max_of =
        |range: std::ops::Range<usize>| history[range].iter().cloned().fold(f64::MIN, f64::max);
    let min_of =
        |range: std::ops::Range<usize>| history[range].iter().cloned().fold(f64::MAX, f64::min);
    let (early, late) = (max_of(0..steps / 4), max_of(3 * steps / 4..steps));
    println!(
        "energy: at the start water {water0:.3} + floats {floats0:.3}; total max over steps 0-5000 \
         {early:.3}, over 15000-20000 {late:.3} (min {:.3})",
        min_of(3 * steps / 4..steps)
    );
    // The two measures are in different metrics (the solver's energy is not the water's
    // physical one), so their sum is a bookkeeping total, not a conserved one: it may rise while
    // the floats hand energy to the water, but must stay within a bound and must not grow (the
    // contact's damper only takes energy away).
    let start = water0 + floats0;
    let highest = max_of(0..steps);
    assert!(
        highest <= 2.5 * start,
        "energy rose to {highest} from {start}"
    );
    assert!(late <= 1.05 * early, "energy grew: {early} -> {late}");
}

#[test]
fn a_bobbing_float_makes_rings_that_move_another_float() {
    let mut pool = dispersive_pool(201, 0.0, Boundary::Reflect);
    let bobbing = pool
        .add_float(
            Float::new(100.0, 100.0, 8, 0.5)
                .unwrap()
                .lifted(4.0)
                .unwrap(),
        )
        .unwrap();
    // A second float 40 pixels away, settled first with the water calm.
    let other = pool
        .add_float(Float::new(140.0, 100.0, 4, 0.5).unwrap())
        .unwrap();
    let mut control = dispersive_pool(201, 0.0, Boundary::Reflect);
    let alone = control
        .add_float(Float::new(140.0, 100.0, 4, 0.5).unwrap())
        .unwrap();
    let far = |pool: &Pool| level_at(pool, [100.0, 70.0]).abs();
    let mut most = 0.0f32;
    for _ in 0..150 {
        pool.step();
        control.step();
        most = most.max(far(&pool));
    }
    let moved = |pool: &Pool, id| {
        let [x, _] = pool.float_position(id).unwrap();
        (x - 140.0).abs()
    };
    println!(
        "two-way: the water 30 cells from a float dropped 4 px moved up to {most:.3} height units; \
         the float 40 px away moved {:.4} px (alone: {:.4} px); the bobbing one is at {:?}",
        moved(&pool, other),
        moved(&control, alone),
        pool.float(bobbing).unwrap().bottom()
    );
    assert!(most > 1.0, "no rings 30 cells away: {most}");
    assert!(moved(&pool, other) > 0.05, "the other float did not move");
    assert!(
        moved(&pool, other) > 10.0 * moved(&control, alone),
        "the other float moved no more than it does alone (its own rings, reflected)"
    );
}

#[test]
fn a_boats_wake_moves_a_float() {
    for kind in [SolverKind::Dispersive, SolverKind::Wave] {
        let mut pool = Pool::new(300, 120).unwrap();
        pool.set_solver(kind).unwrap();
        let boat = Body::along_path(vec![[10.0, 50.0], [290.0, 50.0]], 1.5, 0, 5, 60).unwrap();
        pool.add_body(boat).unwrap();
        let leaf = pool
            .add_float(Float::new(150.0, 70.0, 4, 0.3).unwrap())
            .unwrap();
        let mut farthest = 0.0f32;
        for _ in 0..250 {
            pool.step();
            let [x, y] = pool.float_position(leaf).unwrap();
            farthest = farthest.max((x - 150.0).hypot(y - 70.0));
        }
        let [x, y] = pool.float_position(leaf).unwrap();
        println!(
            "{}: a boat passing 20 px away moved a leaf up to {farthest:.2} px; it ended at ({x:.2}, {y:.2})",
            kind.name()
        );
        assert!(
            farthest > 1.0,
            "{}: the wake did not move the float",
            kind.name()
        );
    }
}

#[test]
fn floats_work_on_every_solver_and_stay_bounded() {
    for kind in [
        SolverKind::Classic,
        SolverKind::Wave,
        SolverKind::Spring,
        SolverKind::Dispersive,
    ] {
        for sim_scale in [1, 3] {
            let mut pool = Pool::with_sim_scale(150, 100, sim_scale).unwrap();
            pool.set_solver(kind).unwrap();
            let duck = pool
                .add_float(Float::new(75.0, 50.0, 8, 0.5).unwrap())
                .unwrap();
            // One thrown at the edge at full speed, one thin and light (stiff), one huge.
            let thrown = pool
                .add_float(Float::new(140.0, 10.0, 4, 0.2).unwrap())
                .unwrap();
            pool.set_float_velocity(thrown, [50.0, -50.0, 50.0])
                .unwrap();
            pool.add_float(
                Float::new(30.0, 70.0, 5, 0.01)
                    .unwrap()
                    .with_thickness(0.05)
                    .unwrap(),
            )
            .unwrap();
            // At the coarser scale, also one far wider than the pool (it presses all of it).
            let huge = sim_scale == 3;
            if huge {
                pool.add_float(Float::new(75.0, 50.0, 4096, 0.9).unwrap())
                    .unwrap();
            }
            let mut lowest = f32::MAX;
            for step in 0..1500 {
                if step % 50 == 0 {
                    pool.drop_stone(20 + (step * 7) % 110, 40, 6, 200).unwrap();
                }
                pool.step();
                lowest = lowest.min(pool.float(duck).unwrap().bottom());
                for float in pool.floats() {
                    let [x, y] = float.position();
                    assert!(
                        (0.0..150.0).contains(&x) && (0.0..100.0).contains(&y),
                        "{}: a float left the pool: ({x}, {y})",
                        kind.name()
                    );
                    assert!(float.bottom().is_finite());
                    assert!(float.velocity().iter().all(|v| v.is_finite()));
                }
            }
            let finite = match pool.solver().heights() {
                Heights::F32(h) => h.iter().all(|v| v.is_finite() && v.abs() < 1e6),
                Heights::I16(_) => true,
            };
            assert!(finite, "{}: the water blew up", kind.name());
            println!(
                "{} (sim scale {sim_scale}{}): the duck went down to {lowest:.2} px (draft 4)",
                kind.name(),
                if huge {
                    ", under a float wider than the pool"
                } else {
                    ""
                }
            );
            if !huge {
                assert!(
                    (-40.0..0.0).contains(&lowest),
                    "{}: the duck did not float: {lowest}",
                    kind.name()
                );
            }
        }
    }
}

#[test]
fn a_float_is_drawn_over_the_water_with_its_shadow_in_the_natural_look_only() {
    use ripples::Look;
    let (width, height) = (160u32, 120u32);
    let background = ripples::pool_tiles(width, height).unwrap();
    let mut pool = Pool::new(width, height).unwrap();
    let id = pool
        .add_float(Float::new(80.0, 60.0, 10, 0.5).unwrap())
        .unwrap();
    for _ in 0..5 {
        pool.step();
    }
    let settings = ripples::NaturalSettings::default();
    let natural = Look::Natural(settings);
    let classic = Look::classic();
    let render = |pool: &mut Pool, look: &Look| {
        let mut frame = vec![0u8; background.len()];
        pool.render(look, &background, &mut frame).unwrap();
        frame
    };
    let brightness = |frame: &[u8], [x, y]: [i32; 2]| {
        let i = (y as usize * width as usize + x as usize) * 4;
        u32::from(frame[i]) + u32::from(frame[i + 1]) + u32::from(frame[i + 2])
    };
    // The same water without the float drawn: a copy with it taken out.
    let mut without = pool.clone();
    without.remove_float(id).unwrap();
    // Where the shadow falls: away from the sun (azimuth 120: up and left), refracted.
    let zenith = (90.0f32 - settings.sun_elevation).to_radians();
    let reach = settings.depth * (zenith.sin() / 1.33).asin().tan();
    let azimuth = settings.sun_azimuth.to_radians();
    let shadow = [
        (80.0 - azimuth.cos() * reach).round() as i32,
        (60.0 + azimuth.sin() * reach).round() as i32,
    ];
    let (with_float, plain) = (render(&mut pool, &natural), render(&mut without, &natural));
    let (dark, light) = (brightness(&with_float, shadow), brightness(&plain, shadow));
    println!(
        "natural look: at the shadow's centre {shadow:?} ({reach:.1} px from the float) the floor \
         shows {dark} (sum of RGB) with the float, {light} without"
    );
    assert!(
        f64::from(dark) < 0.7 * f64::from(light),
        "no shadow: {dark} vs {light}"
    );
    assert_ne!(
        brightness(&with_float, [80, 60]),
        brightness(&plain, [80, 60])
    );
    // Far from the float, nothing changes.
    assert_eq!(
        brightness(&with_float, [10, 10]),
        brightness(&plain, [10, 10])
    );
    // The classic look has no floor to shade: only the disc is drawn.
    let (with_float, plain) = (render(&mut pool, &classic), render(&mut without, &classic));
    assert_eq!(brightness(&with_float, shadow), brightness(&plain, shadow));
    assert_ne!(
        brightness(&with_float, [80, 60]),
        brightness(&plain, [80, 60])
    );
}
