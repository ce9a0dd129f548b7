//! Behaviour of the spring model (the Frogger HD seed) as a user sees it: the seed's step by
//! hand and bit for bit, stiffness sets the ringing frequency, viscosity the calming, heavy rain
//! stays bounded, bad parameters are refused, walls stay dry, the sponge drains, swipes have no
//! gaps.

use ripples::{Obstacles, Rain, Sponge, SpringFields, SpringSolver, WaterSolver};

/// `sum h^2 + W^2` over the cells with `x` in `columns`.
fn energy(water: &SpringSolver, columns: std::ops::Range<usize>) -> f64 {
    let width = water.width() as usize;
    let fields = water.heights().iter().zip(water.velocities());
    fields
        .enumerate()
        .filter(|(i, _)| columns.contains(&(i % width)))
        .map(|(_, (&h, &w))| f64::from(h).powi(2) + f64::from(w).powi(2))
        .sum()
}

fn max_abs(values: &[f32]) -> f32 {
    values.iter().fold(0.0f32, |max, &v| max.max(v.abs()))
}

#[test]
fn one_step_matches_hand_computed_values() {
    // 5x5 grid, k = 0.25, m = 0.5, spread = 0.125, one pass: every number below is exact in f32.
    let mut water = SpringSolver::new(5, 5).unwrap();
    water.set_springs(0.25, 0.5).unwrap();
    water.set_spread(0.125, 1).unwrap();
    let at = |x: usize, y: usize| y * 5 + x;
    {
        let SpringFields {
            heights,
            velocities,
        } = water.fields_mut();
        heights[at(2, 2)] = 8.0;
        velocities[at(2, 2)] = 2.0;
    }
    water.step(&Obstacles::new(5, 5).unwrap(), None);
    // Springs: a = -0.25 * 8 - 0.5 * 2 = -3; h = 8 + 2 (the old velocity) = 10; W = 2 - 3 = -1.
    // Along x, row 2: the centre gives 0.125 * 10 = 1.25 to each side and receives
    // 0.125 * (0 - 10) = -1.25 from each: h = [0, 1.25, 7.5, 1.25, 0], W = [0, 1.25, -3.5, 1.25, 0].
    // Along y, column 2 (7.5 -> 0.9375 each way): h = 0.9375, 5.625, 0.9375; W(2,2) = -3.5 - 1.875.
    // Column 1 (1.25 -> 0.15625 each way): h = 0.15625, 0.9375, 0.15625; W(1,2) = 1.25 - 0.3125.
    let (h, w) = (water.heights(), water.velocities());
    assert_eq!(h[at(2, 2)], 5.625);
    assert_eq!(w[at(2, 2)], -5.375);
    for (x, y) in [(1, 2), (3, 2), (2, 1), (2, 3)] {
        assert_eq!(h[at(x, y)], 0.9375, "h({x}, {y})");
        assert_eq!(w[at(x, y)], 0.9375, "W({x}, {y})");
    }
    for (x, y) in [(1, 1), (3, 1), (1, 3), (3, 3)] {
        assert_eq!(h[at(x, y)], 0.15625, "h({x}, {y})");
        assert_eq!(w[at(x, y)], 0.15625, "W({x}, {y})");
    }

    // Next to the edge: the seed's loops never read a border cell, so the cell at x = 1
    // receives from its right neighbour only (a free end), and the border is reset to rest.
    water.calm();
    water.fields_mut().heights[at(1, 2)] = 8.0;
    water.step(&Obstacles::new(5, 5).unwrap(), None);
    // Springs: a = -2; h = 8; W = -2. Along x: x = 1 gives 1 to x = 0 and to x = 2 and
    // receives -1 from x = 2 only: h = [1, 7, 1, 0, 0], W = [1, -3, 1, 0, 0].
    // Along y, column 1 (7 -> 0.875): h(1,2) = 7 - 1.75 = 5.25, W(1,2) = -3 - 1.75 = -4.75;
    // column 2 (1 -> 0.125): h(2,2) = 0.75, h(2,1) = 0.125.
    let (h, w) = (water.heights(), water.velocities());
    assert_eq!(h[at(1, 2)], 5.25);
    assert_eq!(w[at(1, 2)], -4.75);
    assert_eq!(h[at(1, 1)], 0.875);
    assert_eq!(h[at(2, 2)], 0.75);
    assert_eq!(w[at(2, 2)], 0.75);
    assert_eq!(h[at(2, 1)], 0.125);
    // The spreading pulled the border cell (0, 2) to 1 (then 0.75); the step set it back to rest.
    assert_eq!((h[at(0, 2)], w[at(0, 2)]), (0.0, 0.0));
    assert_eq!((h[at(0, 1)], w[at(0, 1)]), (0.0, 0.0));
}

/// One step of the seed's C code, transcribed literally (row-major, `i = k + j * nx`), plus the
/// library's two documented additions: values below 1e-12 are flushed to 0 in the spring loop
/// and border cells are set to rest at the end.
#[allow(clippy::too_many_arguments)]
fn seed_step(
    lx: &mut [f32],
    wx: &mut [f32],
    kx: &[f32],
    mx: &[f32],
    nx: usize,
    ny: usize,
    spread: f32,
    passes: u32,
) {
    let flush = |v: f32| if v.abs() < 1e-12 { 0.0 } else { v };
    let n = nx * ny;
    for i in 0..n {
        let x = lx[i];
        let acceleration = -kx[i] * x - mx[i] * wx[i];
        lx[i] = flush(lx[i] + wx[i]);
        wx[i] = flush(wx[i] + acceleration);
    }
    let mut lp = vec![0.0f32; n];
    let mut rp = vec![0.0f32; n];
    for _ in 0..passes {
        for j in 0..ny {
            for k in 1..nx - 1 {
                let i = k + j * nx;
                lp[i] = spread * (lx[i] - lx[i - 1]);
                wx[i - 1] += lp[i];
                rp[i] = spread * (lx[i] - lx[i + 1]);
                wx[i + 1] += rp[i];
            }
        }
        for j in 0..ny {
            for k in 1..nx - 1 {
                let i = k + j * nx;
                lx[i - 1] += lp[i];
                lx[i + 1] += rp[i];
            }
        }
        for j in 1..ny - 1 {
            for k in 0..nx {
                let i = k + j * nx;
                lp[i] = spread * (lx[i] - lx[i - nx]);
                wx[i - nx] += lp[i];
                rp[i] = spread * (lx[i] - lx[i + nx]);
                wx[i + nx] += rp[i];
            }
        }
        for j in 1..ny - 1 {
            for k in 0..nx {
                let i = k + j * nx;
                lx[i - nx] += lp[i];
                lx[i + nx] += rp[i];
            }
        }
    }
    for j in 0..ny {
        for k in 0..nx {
            if k == 0 || j == 0 || k == nx - 1 || j == ny - 1 {
                lx[k + j * nx] = 0.0;
                wx[k + j * nx] = 0.0;
            }
        }
    }
}

#[test]
fn steps_equal_the_seed_code_bit_for_bit() {
    let (nx, ny) = (23usize, 17usize);
    let mut rng = ripples::SplitMix64::new(4);
    let mut unit = move || rng.unit() as f32;
    let kx: Vec<f32> = (0..nx * ny).map(|_| 0.1 * unit()).collect();
    let mx: Vec<f32> = kx.iter().map(|&k| k + 0.02 * unit()).collect();
    let mut water = SpringSolver::new(nx as u32, ny as u32).unwrap();
    water.set_spring_maps(&kx, &mx).unwrap();
    water.set_spread(0.1, 3).unwrap();
    let mut lx = vec![0.0f32; nx * ny];
    let mut wx = vec![0.0f32; nx * ny];
    for y in 1..ny - 1 {
        for x in 1..nx - 1 {
            lx[y * nx + x] = 200.0 * unit() - 100.0;
            wx[y * nx + x] = 20.0 * unit() - 10.0;
        }
    }
    let SpringFields {
        heights,
        velocities,
    } = water.fields_mut();
    heights.copy_from_slice(&lx);
    velocities.copy_from_slice(&wx);
    let walls = Obstacles::new(nx, ny).unwrap();
    for step in 0..100 {
        seed_step(&mut lx, &mut wx, &kx, &mx, nx, ny, 0.1, 3);
        water.step(&walls, None);
        assert_eq!(water.heights(), &lx[..], "heights after step {step}");
        assert_eq!(water.velocities(), &wx[..], "velocities after step {step}");
    }
    assert!(max_abs(&lx) > 1.0, "the comparison ran on a live field");
}

/// Steps `water` and returns the mean period, in steps, of the oscillation of each cell in
/// `cells` over steps `window` (two zero crossings per period).
fn mean_periods(
    water: &mut SpringSolver,
    cells: &[usize],
    window: std::ops::Range<usize>,
) -> Vec<f64> {
    let walls = Obstacles::new(water.width() as usize, water.height() as usize).unwrap();
    let mut crossings = vec![Vec::new(); cells.len()];
    let mut previous: Vec<f32> = cells.iter().map(|&i| water.heights()[i]).collect();
    for step in 1..window.end {
        water.step(&walls, None);
        for (c, &i) in cells.iter().enumerate() {
            let h = water.heights()[i];
            if window.contains(&step) && (h < 0.0) != (previous[c] < 0.0) {
                crossings[c].push(step);
            }
            previous[c] = h;
        }
    }
    crossings
        .iter()
        .map(|times| {
            assert!(times.len() >= 4, "too few zero crossings: {times:?}");
            let span = (times[times.len() - 1] - times[0]) as f64;
            2.0 * span / (times.len() - 1) as f64
        })
        .collect()
}

#[test]
fn a_stiffer_region_rings_at_a_higher_frequency() {
    // Left half k1 = 0.01, right half k2 = 0.04, viscosity 0.04 everywhere; a stone in the
    // middle of each half, 64 cells from the boundary between them. A cell rings at the
    // lowest frequency of its region, about sqrt(k) radians per step, so the period ratio
    // should be sqrt(k2 / k1) = 2. Measured: periods 63.7 and 31.4 steps over steps 20..300,
    // ratio 2.03 (before the stiff half's waves reach the other stone).
    let (width, height) = (256usize, 128usize);
    let (k1, k2) = (0.01f32, 0.04f32);
    let mut water = SpringSolver::new(width as u32, height as u32).unwrap();
    water.set_viscosity(k2).unwrap();
    let stiffness: Vec<f32> = (0..width * height)
        .map(|i| if i % width < width / 2 { k1 } else { k2 })
        .collect();
    water.set_stiffness_map(&stiffness).unwrap();
    assert_eq!(water.stiffness_at(10, 10), Some(k1));
    assert_eq!(water.stiffness_at(200, 10), Some(k2));
    water.drop_stone(64, 64, 3, 100.0);
    water.drop_stone(192, 64, 3, 100.0);
    let periods = mean_periods(&mut water, &[64 * width + 64, 64 * width + 192], 20..300);
    let (soft, stiff) = (periods[0], periods[1]);
    let ratio = soft / stiff;
    eprintln!("periods: soft {soft:.1}, stiff {stiff:.1} steps, ratio {ratio:.3}");
    assert!(stiff < soft, "stiff {stiff} vs soft {soft}");
    let expected = f64::from(k2 / k1).sqrt();
    assert!(
        (ratio / expected - 1.0).abs() < 0.1,
        "frequency ratio {ratio:.3}, expected {expected:.3} within 10%"
    );
    // Each is close to 2 pi / sqrt(k) itself.
    for (period, k) in [(soft, k1), (stiff, k2)] {
        let expected = std::f64::consts::TAU / f64::from(k).sqrt();
        assert!(
            (period / expected - 1.0).abs() < 0.1,
            "{period} vs {expected}"
        );
    }
}

#[test]
fn a_more_viscous_region_calms_faster() {
    // Left half m = 0.02, right half m = 0.08, default stiffness; a stone in each half, 64
    // cells from the boundary. Energy is measured per half before much crosses over.
    let (width, height) = (256usize, 128usize);
    let mut water = SpringSolver::new(width as u32, height as u32).unwrap();
    let viscosity: Vec<f32> = (0..width * height)
        .map(|i| if i % width < width / 2 { 0.02 } else { 0.08 })
        .collect();
    water.set_viscosity_map(&viscosity).unwrap();
    assert_eq!(water.viscosity_at(255, 0), Some(0.08));
    water.drop_stone(64, 64, 4, 100.0);
    water.drop_stone(192, 64, 4, 100.0);
    let (calm_start, viscous_start) = (energy(&water, 0..128), energy(&water, 128..256));
    assert_eq!(calm_start, viscous_start);
    let walls = Obstacles::new(width, height).unwrap();
    let mut fractions = Vec::new();
    for _ in 0..3 {
        for _ in 0..50 {
            water.step(&walls, None);
        }
        let calm = energy(&water, 0..128) / calm_start;
        let viscous = energy(&water, 128..256) / viscous_start;
        fractions.push((calm, viscous));
    }
    // Measured: after 50, 100, 150 steps the calm half keeps 0.13, 0.044, 0.024 of its energy
    // and the viscous half 0.0054, 0.00011, 0.0000019.
    eprintln!("energy fractions (m = 0.02, m = 0.08) after 50, 100, 150 steps: {fractions:?}");
    for (calm, viscous) in fractions {
        assert!(viscous < 0.1 * calm, "viscous {viscous} vs calm {calm}");
    }
}

#[test]
fn heavy_rain_for_100000_steps_stays_finite_and_bounded() {
    // Default parameters, 5 stones per step of depth 32..128 on a 64x64 pool. Measured: the
    // highest |h| seen is about 190 and the mean level stays within about 25 of rest.
    let size = 64u32;
    let mut water = SpringSolver::new(size, size).unwrap();
    let walls = Obstacles::new(size as usize, size as usize).unwrap();
    let mut rain = Rain::new(1).with_rate(5.0).unwrap();
    let mut highest = 0.0f32;
    for step in 0..100_000 {
        for stone in rain.stones(size, size) {
            water.drop_stone(stone.x, stone.y, stone.radius, f32::from(stone.strength));
        }
        water.step(&walls, None);
        if step % 10 == 0 {
            let h = max_abs(water.heights());
            let w = max_abs(water.velocities());
            assert!(
                h.is_finite() && w.is_finite(),
                "step {step}: |h| {h}, |W| {w}"
            );
            highest = highest.max(h);
        }
    }
    eprintln!("highest |h| over 100,000 steps of rain: {highest:.1}");
    assert!(highest > 100.0, "the rain fell: {highest}");
    assert!(highest < 3.0 * 128.0, "highest |h| {highest}");
    let fields = water.heights().iter().chain(water.velocities());
    assert!(fields.clone().all(|v| v.is_finite()));
}

#[test]
fn invalid_parameters_are_errors_naming_the_value() {
    let mut water = SpringSolver::new(8, 6).unwrap();
    let message = |result: Result<(), ripples::Error>| result.unwrap_err().to_string();
    let text = message(water.set_stiffness(-0.5));
    assert!(
        text.contains("stiffness") && text.contains("-0.5"),
        "{text}"
    );
    let text = message(water.set_stiffness(f32::NAN));
    assert!(text.contains("stiffness") && text.contains("NaN"), "{text}");
    let text = message(water.set_viscosity(1.5));
    assert!(text.contains("viscosity") && text.contains("1.5"), "{text}");
    let text = message(water.set_viscosity(f32::INFINITY));
    assert!(text.contains("viscosity") && text.contains("inf"), "{text}");
    let text = message(water.set_stiffness_map(&[0.01; 47]));
    assert!(
        text.contains("stiffness map") && text.contains("47") && text.contains("48"),
        "{text}"
    );
    let mut map = vec![0.01f32; 48];
    map[13] = f32::NAN;
    let text = message(water.set_viscosity_map(&map));
    assert!(
        text.contains("viscosity map") && text.contains("(5, 1)"),
        "{text}"
    );
    assert!(text.contains("NaN"), "{text}");
    let text = message(water.set_spread(0.3, 4));
    assert!(text.contains("spread") && text.contains("0.3"), "{text}");
    let text = message(water.set_spread(f32::NAN, 4));
    assert!(text.contains("spread") && text.contains("NaN"), "{text}");
    let text = message(water.set_spread(0.025, 0));
    assert!(text.contains("passes") && text.contains('0'), "{text}");
    assert!(matches!(
        water.set_spread(0.025, 17),
        Err(ripples::Error::OutOfRange { name, .. }) if name == "spread passes"
    ));
    // A spring stiffer than it is viscous gains energy every step.
    let text = message(water.set_stiffness(0.05));
    assert!(
        text.contains("0.05") && text.contains("0.02") && text.contains("viscosity"),
        "{text}"
    );
    let mut stiff = vec![0.01f32; 48];
    stiff[47] = 0.5;
    let text = message(water.set_stiffness_map(&stiff));
    assert!(text.contains("0.5") && text.contains("(7, 5)"), "{text}");
    assert!(matches!(
        water.set_springs(0.3, 0.2),
        Err(ripples::Error::StifferThanViscous {
            stiffness: 0.3,
            viscosity: 0.2,
            cell: None,
            ..
        })
    ));
    // Nothing changed, and the limits themselves are accepted.
    assert_eq!(
        water.stiffness_at(7, 5),
        Some(SpringSolver::DEFAULT_STIFFNESS)
    );
    assert_eq!(water.spread_passes(), SpringSolver::DEFAULT_SPREAD_PASSES);
    assert!(water.set_springs(1.0, 1.0).is_ok());
    assert!(water.set_springs(0.0, 0.0).is_ok());
    assert!(water.set_spread(0.25, 16).is_ok());
    assert!(water.set_spread(0.0, 1).is_ok());
    assert!(water.set_spring_maps(&stiff, &[0.5; 48]).is_ok());
    assert!(matches!(
        SpringSolver::new(0, 5),
        Err(ripples::Error::EmptySize { .. })
    ));
    assert!(matches!(
        SpringSolver::new(20_000, 5),
        Err(ripples::Error::TooLarge { .. })
    ));
}

#[test]
fn walls_stay_dry() {
    let size = 64usize;
    let mut water = SpringSolver::new(size as u32, size as u32).unwrap();
    let mut walls = Obstacles::new(size, size).unwrap();
    walls.set_disk(20, 32, 6, true);
    for y in 0..size as i64 {
        if !(28..36).contains(&y) {
            walls.set(44, y, true);
        }
    }
    let mut rain = Rain::new(9).with_rate(2.0).unwrap();
    let mut wet = 0.0f64;
    for step in 0..2000 {
        for stone in rain.stones(size as u32, size as u32) {
            water.drop_stone(stone.x, stone.y, stone.radius, f32::from(stone.strength));
        }
        water.step(&walls, None);
        let fields = water.heights().iter().zip(water.velocities());
        for (i, ((&h, &w), &wall)) in fields.zip(walls.cells()).enumerate() {
            if wall {
                assert!(
                    h == 0.0 && w == 0.0,
                    "step {step}: wall cell {i} has {h}, {w}"
                );
            } else {
                wet = wet.max(f64::from(h.abs()));
            }
        }
    }
    assert!(wet > 10.0, "the water around the walls moved: {wet}");
}

#[test]
fn the_sponge_drains_the_ring() {
    // Lossless springs (k = m = 0: the seed's "no viscosity, the waves never stop"), a stone in
    // the middle of a 128x128 pool. The ring runs at about 0.3 cells per step, so it has
    // crossed the edges after about 250 steps; compare the energy averaged over steps 500..1000
    // (it sloshes, so one instant says little). Measured: 18,770 reflecting and 3,570 with the
    // sponge (0.19 of it), from 737,000 at the start. The rest is mostly slow long waves the
    // band does not catch in time; the reflecting pool also keeps the stone's volume.
    let size = 128usize;
    let mut reflecting = SpringSolver::new(size as u32, size as u32).unwrap();
    reflecting.set_springs(0.0, 0.0).unwrap();
    reflecting.drop_stone(64, 64, 4, 128.0);
    let mut open = reflecting.clone();
    let walls = Obstacles::new(size, size).unwrap();
    let sponge = Sponge::new(size, size);
    let (mut kept, mut drained) = (0.0, 0.0);
    for step in 1..=1000 {
        reflecting.step(&walls, None);
        open.step(&walls, Some(&sponge));
        if step > 500 && step % 5 == 0 {
            kept += energy(&reflecting, 0..size) / 100.0;
            drained += energy(&open, 0..size) / 100.0;
        }
    }
    eprintln!("mean energy over steps 500..1000: reflecting {kept:.1}, sponge {drained:.1}");
    assert!(kept > 5000.0, "the reflected ring is still there: {kept}");
    assert!(
        drained < 0.3 * kept,
        "sponge {drained} vs reflecting {kept}"
    );
}

#[test]
fn calm_water_becomes_exactly_flat() {
    // Tiny values are flushed to 0 instead of decaying into subnormal numbers, which are slow
    // on most CPUs. Measured: a stone on a 32x32 pool is gone entirely after about 5,400 steps.
    let mut water = SpringSolver::new(32, 32).unwrap();
    water.drop_stone(16, 16, 3, 128.0);
    let walls = Obstacles::new(32, 32).unwrap();
    let mut flat_at = None;
    for step in 1..=10_000 {
        water.step(&walls, None);
        let fields = water.heights().iter().chain(water.velocities());
        assert!(!fields.clone().any(|v| v.is_subnormal()), "step {step}");
        if flat_at.is_none() && fields.clone().all(|&v| v == 0.0) {
            flat_at = Some(step);
        }
    }
    eprintln!("flat after {flat_at:?} steps");
    assert!(flat_at.is_some(), "the water never became flat");
}

#[test]
fn a_stone_presses_a_dent_at_rest() {
    let mut water = SpringSolver::new(11, 11).unwrap();
    water.fields_mut().velocities.fill(3.0);
    // r = 2: (px-5)^2 + (py-5)^2 < 4 holds for the 3x3 block around the centre (the classic disk).
    water.drop_stone(5, 5, 2, 100.0);
    let (h, w) = (water.heights(), water.velocities());
    for y in 0..11 {
        for x in 0..11 {
            let i = y * 11 + x;
            if (4..=6).contains(&x) && (4..=6).contains(&y) {
                assert_eq!((h[i], w[i]), (-100.0, 0.0), "({x}, {y})");
            } else {
                assert_eq!((h[i], w[i]), (0.0, 3.0), "({x}, {y})");
            }
        }
    }
}

#[test]
fn a_fast_swipe_leaves_no_gap() {
    let mut water = SpringSolver::new(128, 64).unwrap();
    water.fields_mut().velocities.fill(3.0);
    // Two points 100 cells apart in one call, as a fast drag between two frames gives.
    water.swipe(&[[10, 10], [110, 50]], 1, 40.0);
    let (h, w) = (water.heights(), water.velocities());
    for x in 10..=110usize {
        let stamped: Vec<usize> = (0..64).filter(|&y| h[y * 128 + x] == -40.0).collect();
        assert!(!stamped.is_empty(), "column {x} has no stone");
        for y in stamped {
            assert_eq!(w[y * 128 + x], 0.0, "a stone starts at rest at ({x}, {y})");
        }
    }
    // Radius 1 is one cell: the trail is the Bresenham line, one cell per column.
    assert_eq!(h.iter().filter(|&&v| v == -40.0).count(), 101);
    // Points far outside, huge radii and non-finite strengths never panic.
    water.swipe(&[[-3000, -3000], [3000, 20]], 0, 5.0);
    water.swipe(&[[-5, -5], [5, 5]], u32::MAX, f32::NAN);
    water.drop_stone(i32::MAX, i32::MIN, u32::MAX, 1.0);
    water.drop_stone(64, 32, u32::MAX, 1.0);
    assert_eq!(water.heights()[32 * 128 + 64], -1.0);
    water.set_height(0, 0, 5.0);
    water.set_height(-1, 3, 5.0);
    assert!(water.heights().iter().all(|v| v.is_finite()));
}
