//! The dispersive solver measured against deep-water theory: `omega^2 = g k` over wavelengths
//! of 6 to 200 cells in three directions, conserved energy, walls, a sponge, a stone's train of
//! rings, and extreme input. Every test prints what it measured (`--nocapture`).

use ripples::{
    DispersiveSolver, Heights, MAX_GRAVITY, Obstacles, Solver, SolverKind, Sponge, WaterSolver,
};

fn lossless(width: u32, height: u32) -> DispersiveSolver {
    let mut water = DispersiveSolver::new(width, height).unwrap();
    water.set_damping(0.0).unwrap();
    water
}

/// Measures the angular frequency (radians per step) of a plane wave of `wavelength` cells along
/// `angle_degrees`, started at rest on a 768x768 grid: the projection `a_n` of the centre's
/// 64x64 cells on the initial pattern obeys `a_{n+1} + a_{n-1} = 2 cos(omega) a_n` for a pure
/// mode, so `cos(omega)` is the least-squares ratio over 160 steps (before the edges' disturbance
/// reaches the centre).
fn measured_omega(gravity: f32, wavelength: f64, angle_degrees: f64) -> f64 {
    let side = 768usize;
    let mut water = lossless(side as u32, side as u32);
    water.set_gravity(gravity).unwrap();
    let k = 2.0 * std::f64::consts::PI / wavelength;
    let (kx, ky) = (
        k * angle_degrees.to_radians().cos(),
        k * angle_degrees.to_radians().sin(),
    );
    let mut start = vec![0.0f32; side * side];
    for y in 1..side - 1 {
        for x in 1..side - 1 {
            start[y * side + x] = (10.0 * (kx * x as f64 + ky * y as f64 + 0.3).cos()) as f32;
        }
    }
    let mut solver = Solver::Dispersive(water);
    solver.set_heights(Heights::F32(&start)).unwrap();
    let centre = (side / 2 - 32)..(side / 2 + 32);
    let project = |field: &[f32]| -> f64 {
        let mut sum = 0.0;
        for y in centre.clone() {
            for x in centre.clone() {
                sum += f64::from(field[y * side + x]) * f64::from(start[y * side + x]);
            }
        }
        sum
    };
    let walls = Obstacles::new(side, side).unwrap();
    let mut series = vec![project(&start)];
    for _ in 0..160 {
        solver.step(&walls, None);
        let Heights::F32(now) = solver.heights() else {
            unreachable!("the dispersive solver keeps f32 heights")
        };
        series.push(project(now));
    }
    let (mut numerator, mut denominator) = (0.0, 0.0);
    for n in 1..series.len() - 1 {
        numerator += series[n] * (series[n + 1] + series[n - 1]);
        denominator += 2.0 * series[n] * series[n];
    }
    (numerator / denominator).clamp(-1.0, 1.0).acos()
}

/// The pyramid's fitted symbol gives `omega` within 0.5% of `sqrt(g k)` over 6..200 cells, and
/// the measured table within 0.9%: the issue asks for 10%, but a wrong level weight moves some
/// wavelengths by a few percent only (one weight 20% off: 3.6% at 20 cells), so the test holds
/// the solver to what its design delivers.
const DESIGN_TOLERANCE: f64 = 0.02;

#[test]
fn plane_waves_obey_the_deep_water_dispersion_relation_in_every_direction() {
    let gravity = DispersiveSolver::DEFAULT_GRAVITY;
    eprintln!("gravity {gravity} cells/step²; omega in radians per step");
    eprintln!("wavelength  angle   measured   sqrt(g k)   ratio");
    let mut worst = 0.0f64;
    let mut failures = Vec::new();
    for wavelength in [6.0, 10.0, 20.0, 50.0, 100.0, 200.0] {
        let mut ratios = Vec::new();
        for angle in [0.0, 22.5, 45.0] {
            let omega = measured_omega(gravity, wavelength, angle);
            let theory = (f64::from(gravity) * 2.0 * std::f64::consts::PI / wavelength).sqrt();
            let ratio = omega / theory;
            eprintln!("{wavelength:>10} {angle:>6}° {omega:>10.5} {theory:>11.5} {ratio:>7.4}");
            worst = worst.max((ratio - 1.0).abs());
            ratios.push(ratio);
            if (ratio - 1.0).abs() > DESIGN_TOLERANCE {
                failures.push(format!(
                    "wavelength {wavelength} at {angle}°: omega {omega:.5}, theory {theory:.5} \
                     (ratio {ratio:.4})"
                ));
            }
        }
        // Square anisotropy: the same wavelength at different angles.
        let spread = ratios.iter().cloned().fold(f64::MIN, f64::max)
            - ratios.iter().cloned().fold(f64::MAX, f64::min);
        if spread > DESIGN_TOLERANCE {
            failures.push(format!(
                "wavelength {wavelength}: omega differs by {:.2}% between directions",
                100.0 * spread
            ));
        }
    }
    eprintln!("largest deviation from sqrt(g k): {:.2}%", 100.0 * worst);
    assert!(
        failures.is_empty(),
        "outside {}% (the issue asks for 10%):\n{}",
        100.0 * DESIGN_TOLERANCE,
        failures.join("\n")
    );
}

#[test]
fn the_largest_gravity_still_meets_the_relation_at_six_cells() {
    for angle in [0.0, 45.0] {
        let omega = measured_omega(MAX_GRAVITY, 6.0, angle);
        let theory = (f64::from(MAX_GRAVITY) * 2.0 * std::f64::consts::PI / 6.0).sqrt();
        eprintln!(
            "gravity {MAX_GRAVITY}, 6 cells at {angle}°: omega {omega:.4}, sqrt(g k) {theory:.4}, \
             ratio {:.4}",
            omega / theory
        );
        assert!((omega / theory - 1.0).abs() < 0.10);
    }
}

#[test]
fn energy_is_conserved_without_damping() {
    // Open water far from the edges: exact up to rounding. Near the border (held at rest, like
    // a wall) the step is not the symmetric one, and the energy wanders within stated bounds.
    let run = |side: u32, steps: usize| {
        let mut water = lossless(side, side);
        water.drop_stone(side as i32 / 2, side as i32 / 2 - 3, 5, 100.0);
        let walls = Obstacles::new(side as usize, side as usize).unwrap();
        water.step(&walls, None);
        let first = water.energy();
        let (mut low, mut high) = (first, first);
        for _ in 0..steps {
            water.step(&walls, None);
            let e = water.energy();
            low = low.min(e);
            high = high.max(e);
        }
        (first, (high - low) / first)
    };
    let (first, open) = run(512, 60);
    eprintln!(
        "energy {first:.2}, relative spread over 60 steps in the middle of 512x512: {open:.2e}"
    );
    assert!(first > 0.0 && open < 1e-3, "open water: spread {open:.2e}");
    let (first, bounded) = run(96, 3000);
    eprintln!("energy {first:.2}, relative spread over 3000 steps in a 96x96 box: {bounded:.2e}");
    assert!(bounded < 0.25, "a closed box: spread {bounded:.2e}");
}

#[test]
fn damping_takes_the_requested_fraction_of_amplitude() {
    let walls = Obstacles::new(64, 64).unwrap();
    let mut lossless_water = lossless(64, 64);
    lossless_water.drop_stone(32, 32, 4, 50.0);
    let mut damped = lossless_water.clone();
    damped.set_damping(0.01).unwrap();
    for _ in 0..100 {
        lossless_water.step(&walls, None);
        damped.step(&walls, None);
    }
    // u_damped(t) = 0.99^t u_lossless(t), exactly in exact arithmetic.
    let expected = 0.99f64.powi(100);
    let ratio: f64 = {
        let (mut num, mut den) = (0.0, 0.0);
        for (&d, &l) in damped.heights().iter().zip(lossless_water.heights()) {
            num += f64::from(d) * f64::from(l);
            den += f64::from(l) * f64::from(l);
        }
        num / den
    };
    eprintln!("damping 0.01 for 100 steps: amplitude ratio {ratio:.5}, expected {expected:.5}");
    // Not exact: a stone starts at rest in both runs, which is not the same start for the
    // substituted undamped field (its previous value is scaled by the kept fraction).
    assert!((ratio / expected - 1.0).abs() < 0.01);
}

#[test]
fn a_stone_makes_a_train_of_rings_with_the_longest_waves_ahead() {
    let side = 401usize;
    let mut water = DispersiveSolver::new(side as u32, side as u32).unwrap();
    water.set_damping(0.0).unwrap();
    let centre = side / 2;
    water.drop_stone(centre as i32, centre as i32, 3, 100.0);
    let walls = Obstacles::new(side, side).unwrap();
    for _ in 0..250 {
        water.step(&walls, None);
    }
    // Crests (local maxima above 1% of the largest) along the +x axis and the diagonal. The
    // leading crest, the longest wave, is about 2% of the tallest (the short waves near the
    // centre), so the threshold stays well below it.
    let heights = water.heights();
    let along = |dx: usize, dy: usize| -> Vec<f64> {
        let profile: Vec<f32> = (0..centre - 2)
            .map(|r| heights[(centre + r * dy) * side + centre + r * dx])
            .collect();
        let top = profile.iter().fold(0.0f32, |m, &h| m.max(h.abs()));
        let step = if dx == 1 && dy == 1 { 2f64.sqrt() } else { 1.0 };
        (1..profile.len() - 1)
            .filter(|&r| {
                profile[r] > profile[r - 1]
                    && profile[r] >= profile[r + 1]
                    && profile[r] > 0.01 * top
            })
            .map(|r| r as f64 * step)
            .collect()
    };
    for (name, crests) in [("x axis", along(1, 0)), ("diagonal", along(1, 1))] {
        let spacings: Vec<f64> = crests.windows(2).map(|w| w[1] - w[0]).collect();
        eprintln!("{name}: crests at {crests:.0?}, spacings {spacings:.1?}");
        assert!(
            crests.len() >= 4,
            "{name}: a train of rings, got {crests:?}"
        );
        let inner = spacings[0];
        let outer = spacings[spacings.len() - 1];
        assert!(
            outer > 1.5 * inner,
            "{name}: the outer waves should be longer: spacings {spacings:?}"
        );
    }
    // Round: the outermost crest lies at the same radius along the axis and the diagonal.
    let (axis, diagonal) = (along(1, 0), along(1, 1));
    let (a, d) = (axis[axis.len() - 1], diagonal[diagonal.len() - 1]);
    eprintln!("outermost crest: {a:.1} cells along x, {d:.1} along the diagonal");
    assert!((a - d).abs() < 0.05 * a);
}

#[test]
fn a_straight_wall_reflects_and_holds_no_water() {
    let (width, height) = (301usize, 201usize);
    let sponge = Sponge::new(width, height);
    let run = |with_wall: bool| {
        let mut water = lossless(width as u32, height as u32);
        let mut walls = Obstacles::new(width, height).unwrap();
        if with_wall {
            for y in 0..height as i64 {
                walls.set(150, y, true);
            }
        }
        water.drop_stone(110, 100, 4, 100.0);
        let mut wall_heights = 0.0f32;
        let (mut left, mut right) = (0.0, 0.0);
        for _ in 0..300 {
            water.step(&walls, Some(&sponge));
            wall_heights = wall_heights.max(water.heights()[100 * width + 150].abs());
            let energy = |columns: std::ops::Range<usize>| -> f64 {
                water
                    .heights()
                    .chunks_exact(width)
                    .flat_map(|row| &row[columns.clone()])
                    .map(|&h| f64::from(h) * f64::from(h))
                    .sum()
            };
            left += energy(30..150);
            right += energy(151..271);
        }
        (left, right, wall_heights)
    };
    let (left, right, wall) = run(true);
    let (open_left, open_right, _) = run(false);
    eprintln!(
        "wall: summed height² over 300 steps left/right of x = 150: {left:.0} / {right:.0} with \
         the wall, {open_left:.0} / {open_right:.0} without; leak {:.2}% of the open right side; \
         max |height| on the wall {wall}",
        100.0 * right / open_right
    );
    assert_eq!(wall, 0.0, "wall cells hold no water");
    // The operator reaches ~100 cells, so long waves press through a thin wall: a known leak
    // (about a quarter of the height² here, measured), documented in the solver.
    assert!(left > open_left, "the wall sends waves back");
    assert!(
        right < 0.35 * open_right,
        "the wall holds back most of the waves"
    );
}

#[test]
fn a_sponge_absorbs_the_rings() {
    let size = 256usize;
    let sponge = Sponge::new(size, size);
    let walls = Obstacles::new(size, size).unwrap();
    let remaining = |sponge: Option<&Sponge>| {
        let mut water = lossless(size as u32, size as u32);
        water.drop_stone(128, 128, 4, 100.0);
        water.step(&walls, sponge);
        let start = water.energy();
        for _ in 0..1500 {
            water.step(&walls, sponge);
        }
        water.energy() / start
    };
    let (absorbed, reflected) = (remaining(Some(&sponge)), remaining(None));
    eprintln!(
        "after 1500 steps: {:.2}% of the energy left with the sponge, {:.2}% with reflecting edges",
        100.0 * absorbed,
        100.0 * reflected
    );
    assert!(absorbed < 0.1, "the sponge absorbs");
    assert!(reflected > 0.9, "reflecting edges keep the energy");
}

#[test]
fn extreme_input_stays_finite_and_bounded() {
    let (width, height) = (64usize, 48usize);
    let mut solver = Solver::new(SolverKind::Dispersive, width as u32, height as u32).unwrap();
    if let Solver::Dispersive(water) = &mut solver {
        water.set_gravity(MAX_GRAVITY).unwrap();
        water.set_damping(0.0).unwrap();
    }
    // A checkerboard at the largest height allowed, the hardest mode for the Laplacian.
    let limit = ripples::limits::MAX_FLOAT_HEIGHT;
    let board: Vec<f32> = (0..width * height)
        .map(|i| {
            if (i % width + i / width) % 2 == 0 {
                limit
            } else {
                -limit
            }
        })
        .collect();
    solver.set_heights(Heights::F32(&board)).unwrap();
    let mut walls = Obstacles::new(width, height).unwrap();
    walls.set_disk(20, 20, 5, true);
    let mut largest = 0.0f32;
    for step in 0..20_000 {
        solver.step(&walls, None);
        if step % 100 == 0 {
            solver.drop_stone(30, 30, 8, f32::from(i16::MAX));
            solver.set_height(40, 10, -limit);
        }
        let Heights::F32(now) = solver.heights() else {
            unreachable!()
        };
        assert!(now.iter().all(|h| h.is_finite()), "step {step}: not finite");
        largest = now.iter().fold(largest, |m, &h| m.max(h.abs()));
    }
    eprintln!(
        "checkerboard at ±{limit}, gravity {MAX_GRAVITY}, 20,000 steps: largest |height| {largest:.3e}"
    );
    assert!(
        largest < 20.0 * limit,
        "bounded: largest |height| {largest}"
    );
}

#[test]
fn bad_parameters_are_refused_with_the_value() {
    let mut water = DispersiveSolver::new(8, 8).unwrap();
    for bad in [0.0, -0.1, 0.51, f32::NAN, f32::INFINITY] {
        let error = water.set_gravity(bad).unwrap_err().to_string();
        eprintln!("gravity {bad}: {error}");
        assert!(error.contains("gravity") && error.contains(&bad.to_string()));
    }
    for bad in [1.0, -0.1] {
        assert!(matches!(
            water.set_damping(bad),
            Err(ripples::Error::NotAllowed { name, value: ripples::Number::Single(value), .. })
                if name == "damping" && value == bad
        ));
    }
    assert!(water.set_damping(0.0).is_ok());
    assert_eq!(
        "dispersive".parse::<SolverKind>().unwrap(),
        SolverKind::Dispersive
    );
}

/// The stone as a GPU drops it (`web/gl/water-steps.glsl.js`, STONE_MOMENTS and STONE),
/// written out here in `f32` as the shaders compute it: the dent pressed where it is deeper,
/// the volume and second moment it pushed aside summed over the dent, and the rims raised from
/// [`DispersiveSolver::stone_rims`]' solve.
fn gpu_stone(water: &mut DispersiveSolver, (x, y): (i32, i32), radius: u32, strength: f32) {
    let width = water.width() as usize;
    let height = water.height() as usize;
    let rims = water.stone_rims(x, y, radius);
    let depth = -strength * Solver::WAVE_STONE_DEPTH;
    let r = radius as i32;
    let to_phase = std::f32::consts::PI / r as f32;
    let interior =
        |cx: i32, cy: i32| cx >= 1 && cy >= 1 && cx <= width as i32 - 2 && cy <= height as i32 - 2;
    let fields = water.fields_mut();
    let (mut volume, mut moment) = (0.0f32, 0.0f32);
    let mut dent_cells = Vec::new();
    for dy in -r + 1..r {
        for dx in -r + 1..r {
            let (cx, cy) = (x + dx, y + dy);
            let d_squared = dx * dx + dy * dy;
            if !interior(cx, cy) || d_squared >= r * r {
                continue;
            }
            let dent = depth * (0.5 + 0.5 * ((d_squared as f32).sqrt() * to_phase).cos());
            let cell = cy as usize * width + cx as usize;
            let h = fields.current[cell];
            if dent < h {
                volume += h - dent;
                moment += (h - dent) * d_squared as f32;
                dent_cells.push((cell, dent));
            }
        }
    }
    for (cell, dent) in dent_cells {
        fields.current[cell] = dent;
        fields.previous[cell] = dent;
    }
    let [a0, a1, b0, b1] = rims.solve.map(|c| c as f32);
    let (inner, outer) = (a0 * volume + a1 * moment, b0 * volume + b1 * moment);
    let [x0, x1, y0, y1] = rims.cells;
    let r = r as f32;
    let ring = |d: f32, from: f32| {
        if d <= from || d >= from + r {
            0.0
        } else {
            (std::f32::consts::PI * (d - from) / r).sin().powi(2)
        }
    };
    for row in y0..y1 {
        for column in x0..x1 {
            let (dx, dy) = (column as f32 - x as f32, row as f32 - y as f32);
            let d = (dx * dx + dy * dy).sqrt();
            let lift = inner * ring(d, r) + outer * ring(d, 2.0 * r);
            fields.current[row * width + column] += lift;
            fields.previous[row * width + column] += lift;
        }
    }
}

#[test]
fn a_gpu_stone_from_stone_rims_is_the_solvers_on_moving_water_and_at_an_edge() {
    // Water with waves on it: three stones and 40 steps.
    let mut waves = DispersiveSolver::new(96, 80).unwrap();
    for (x, y, r) in [(30, 30, 6), (60, 50, 9), (20, 60, 4)] {
        waves.drop_stone(x, y, r, 90.0 * Solver::WAVE_STONE_DEPTH);
    }
    let open = Obstacles::new(96, 80).unwrap();
    for _ in 0..40 {
        waves.step(&open, None);
    }
    let mut worst = 0.0f32;
    let mut deepest = 0.0f32;
    // In open water on the waves, over a crest and a trough, and cut by the left and top edges.
    for (x, y, radius, strength) in [
        (48, 40, 5, 96.0),
        (34, 44, 3, 60.0),
        (3, 2, 6, 128.0),
        (90, 76, 8, 40.0),
    ] {
        let mut cpu = waves.clone();
        cpu.drop_stone(x, y, radius, strength * Solver::WAVE_STONE_DEPTH);
        let mut gpu = waves.clone();
        gpu_stone(&mut gpu, (x, y), radius, strength);
        for (field, (a, b)) in [
            ("heights", (cpu.heights(), gpu.heights())),
            ("previous", (cpu.previous_heights(), gpu.previous_heights())),
        ] {
            let error = a
                .iter()
                .zip(b)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            let size = a.iter().map(|a| a.abs()).fold(0.0, f32::max);
            println!(
                "stone at ({x}, {y}), radius {radius}: {field} differ by at most {error:.2e} (largest {size:.1})"
            );
            worst = worst.max(error);
            deepest = deepest.max(size);
        }
    }
    assert!(worst <= 1e-4 * deepest, "{worst} against {deepest}");
}
