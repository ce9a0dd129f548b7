//! Tests of the web pool: frames, stones, fingers, resizing, skies and solvers, natively.

use super::*;
use ripples::{Heights, NaturalSettings};

/// How many pixels of the box `(x0, y0)..(x1, y1)` differ between `a` and `b` by more than
/// `tolerance` in a channel.
#[allow(clippy::too_many_arguments)]
fn changed(
    a: &[u8],
    b: &[u8],
    width: usize,
    tolerance: u8,
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
) -> usize {
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (y * width + x) * 4))
        .filter(|&i| (i..i + 4).any(|channel| a[channel].abs_diff(b[channel]) > tolerance))
        .count()
}

#[test]
fn a_calm_pool_shows_the_image_and_a_stone_changes_it_near_and_not_far() {
    // On the wave solver nothing changes beyond the ring; deep water (the dispersive
    // solver, the default) carries long waves fast, so faint changes (a level or two) show
    // everywhere at once, and what a person sees change (more than 4 levels) stays near.
    for (look, solver, tolerance) in [
        ("natural", "dispersive", 4),
        ("classic", "dispersive", 4),
        ("natural", "wave", 0),
        ("classic", "wave", 0),
    ] {
        let mut water = WebPool::new(200.0, 120.0, 1.0, 1).unwrap();
        water.set_look(look).unwrap();
        water.set_solver(solver).unwrap();
        assert!(water.frame(0.0).unwrap(), "the first frame is drawn");
        if look == "classic" {
            assert_eq!(water.frame_pixels(), water.image());
        }
        let calm = water.frame_pixels().to_vec();
        assert!(!water.frame(1.0).unwrap(), "nothing due, nothing drawn");
        water.drop_stone(50.0, 60.0, 6.0, 128.0).unwrap();
        for frame in 1..=20 {
            assert!(water.frame(f64::from(frame) * 1000.0 / 60.0).unwrap());
        }
        let frame = water.frame_pixels();
        let near = changed(frame, &calm, 200, tolerance, 30, 40, 70, 80);
        let far = changed(frame, &calm, 200, tolerance, 120, 0, 200, 120);
        println!("{look} look, {solver} solver: {near} pixels changed near, {far} far");
        assert!(near > 200, "{look}, {solver}: {near}");
        assert_eq!(far, 0, "{look}, {solver}");
    }
}

#[test]
fn a_picture_written_in_place_is_rendered_at_once_in_the_same_memory() {
    // A video: a new picture each frame, written where the image is, between steps.
    let mut water = WebPool::new(64.0, 48.0, 1.0, 1).unwrap();
    water.set_look("classic").unwrap();
    let address = water.image_address();
    let frame_address = water.frame_address();
    assert!(water.frame(0.0).unwrap());
    for index in 0..10u8 {
        assert!(
            !water.frame(1.0).unwrap(),
            "nothing due before the new picture"
        );
        for (at, byte) in water.image_mut().iter_mut().enumerate() {
            *byte = (at as u8)
                .wrapping_mul(7)
                .wrapping_add(index.wrapping_mul(31));
        }
        water.image_changed();
        assert!(
            water.frame(1.0).unwrap(),
            "a new picture is drawn without a step"
        );
        // Calm water under the classic look shows the picture as it is.
        assert_eq!(water.frame_pixels(), water.image(), "picture {index}");
        assert_eq!(water.image_address(), address);
        assert_eq!(water.frame_address(), frame_address);
    }
    // The built-in tiles go back into the same memory.
    water.use_default_image().unwrap();
    assert_eq!(water.image_address(), address);
    assert_eq!(water.image(), ripples::pool_tiles(64, 48).unwrap());
}

#[test]
fn the_dispersive_solver_takes_gravity_live_in_css_pixels_per_step_squared() {
    let gravity_in_cells = |water: &WebPool| match water.pool.solver() {
        Solver::Dispersive(dispersive) => Some(dispersive.gravity()),
        _ => None,
    };
    let mut water = WebPool::new(160.0, 100.0, 1.0, 1).unwrap();
    assert_eq!(water.solver(), SolverKind::Dispersive, "the default");
    water.set_solver("wave").unwrap();
    // Kept while another solver runs, applied when the dispersive one is chosen.
    water.set_gravity(0.2).unwrap();
    assert_eq!(gravity_in_cells(&water), None);
    water.set_solver("dispersive").unwrap();
    assert_eq!(water.solver(), SolverKind::Dispersive);
    assert_eq!(gravity_in_cells(&water), Some(0.2));
    // Live, and scaled with cells per CSS pixel (capped at the solver's limit).
    water.set_gravity(0.15).unwrap();
    assert_eq!(gravity_in_cells(&water), Some(0.15));
    water.set_pixels_per_css_pixel(2.0).unwrap();
    assert_eq!(gravity_in_cells(&water), Some(0.3));
    water.set_pixels_per_css_pixel(4.0).unwrap();
    assert_eq!(gravity_in_cells(&water), Some(ripples::MAX_GRAVITY));
    water.set_pixels_per_css_pixel(1.0).unwrap();
    for bad in [0.0, -0.1, 0.6, f64::NAN, f64::INFINITY] {
        let message = water.set_gravity(bad).unwrap_err().to_string();
        assert_eq!(
            message,
            format!("gravity must be a number above 0 and at most 0.5, got {bad}")
        );
        assert_eq!(gravity_in_cells(&water), Some(0.15), "kept after {bad}");
    }
    // The water moves and the frame shows it; more gravity, faster water: after the same
    // steps the rings of a stone reach further.
    let reach = |gravity: f64| {
        let mut water = WebPool::new(200.0, 200.0, 1.0, 1).unwrap();
        water.set_solver("dispersive").unwrap();
        water.set_gravity(gravity).unwrap();
        assert!(water.frame(0.0).unwrap());
        let calm = water.frame_pixels().to_vec();
        water.drop_stone(100.0, 100.0, 5.0, 200.0).unwrap();
        for frame in 1..=40 {
            water.frame(f64::from(frame) * 1000.0 / 60.0).unwrap();
        }
        assert_ne!(
            water.frame_pixels(),
            calm.as_slice(),
            "the frame shows the water"
        );
        // The farthest cell along the row through the stone above 2% of the highest (the
        // pyramid reaches far at once, but faintly).
        let Heights::F32(heights) = water.pool.solver().heights() else {
            unreachable!("the dispersive solver keeps f32 heights")
        };
        let row = &heights[100 * 200..101 * 200];
        let highest = row.iter().fold(0.0f32, |m, h| m.max(h.abs()));
        (100..200)
            .rev()
            .find(|&x| row[x].abs() > 0.02 * highest)
            .map_or(0, |x| x - 100)
    };
    let (slow, fast) = (reach(0.05), reach(0.4));
    println!("cells reached after 40 steps: gravity 0.05 {slow}, gravity 0.4 {fast}");
    assert!(slow > 5 && fast > slow + 10, "{slow} vs {fast}");
}

#[test]
fn the_water_is_the_same_after_one_second_at_30_60_and_144_hz() {
    let run = |hz: f64| {
        let mut water = WebPool::new(96.0, 64.0, 1.0, 1).unwrap();
        water.drop_stone(48.0, 32.0, 5.0, 200.0).unwrap();
        let frames = hz as u32;
        for frame in 0..=frames {
            water.frame(f64::from(frame) * 1000.0 / hz).unwrap();
        }
        (water.steps(), water.frame_pixels().to_vec())
    };
    let (steps, frame) = run(60.0);
    assert_eq!(steps, 60);
    assert_eq!(run(30.0), (steps, frame.clone()));
    assert_eq!(run(144.0), (steps, frame));
}

#[test]
fn sizes_beyond_the_limits_are_refused_before_allocating() {
    let message = WebPool::new(20000.0, 100.0, 1.0, 1)
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "pool size 20000x100 is too large: at most 16384 pixels per side and 16777216 \
         pixels in all (4096x4096)"
    );
    assert_eq!(
        WebPool::new(5000.0, 5000.0, 1.0, 1).unwrap_err(),
        WebError::PoolTooLarge {
            width: 5000.0,
            height: 5000.0
        }
    );
    assert_eq!(
        WebPool::new(0.0, 10.0, 1.0, 1).unwrap_err().to_string(),
        "pool size must be at least 1x1 pixels, got 0x10"
    );
    for bad in [-1.0, 10.5] {
        assert_eq!(
            WebPool::new(bad, 10.0, 1.0, 1).unwrap_err(),
            WebError::number("pool width", bad, options::Rule::WholePixels)
        );
    }
    let (min, max) = (1, ripples::limits::MAX_SIM_SCALE);
    assert_eq!(
        WebPool::new(10.0, 10.0, 0.0, 1).unwrap_err(),
        WebError::number("resolution", 0.0, options::Rule::Whole { min, max })
    );
}

#[test]
fn wrong_buffers_and_arguments_are_errors_not_panics() {
    let mut water = WebPool::new(10.0, 10.0, 1.0, 1).unwrap();
    assert_eq!(
        water.set_image(&[0; 12]).unwrap_err().to_string(),
        "image has 12 bytes, expected 400 for 10x10 RGBA"
    );
    assert_eq!(
        water.set_obstacles(&[0; 399]),
        Err(WebError::WrongLength {
            what: "obstacle mask",
            got: 399,
            expected: 400,
            width: 10,
            height: 10
        })
    );
    assert!(matches!(
        water.drop_stone(f64::NAN, 1.0, 3.0, 10.0),
        Err(WebError::Number { name, value, rule: options::Rule::Finite }) if name == "x" && value.is_nan()
    ));
    assert_eq!(
        water.drop_stone(1.0, 1.0, 3.0, -10.0),
        Err(WebError::number(
            "strength",
            -10.0,
            options::Rule::Range {
                min: 0.0,
                max: 32767.0
            }
        ))
    );
    let max = f64::from(ripples::limits::MAX_RADIUS);
    assert_eq!(
        water.swipe((0.0, 0.0), (5.0, 5.0), 0.0, 10.0),
        Err(WebError::number(
            "radius",
            0.0,
            options::Rule::Positive { max }
        ))
    );
    assert!(matches!(
        water.set_solver("fluid"),
        Err(WebError::Core(ripples::Error::UnknownName { what: "solver", got, .. })) if got == "fluid"
    ));
    // Far outside the pool is clipped, not refused.
    assert!(water.drop_stone(-1e12, 1e12, 3.0, 10.0).is_ok());
}

#[test]
fn a_finger_follows_the_pointer_and_leaves_a_wake_then_lifts() {
    // On the wave solver, whose waves stay within their speed of where they were made, so
    // the water ahead of the finger is exactly calm.
    let mut water = WebPool::new(160.0, 60.0, 1.0, 1).unwrap();
    water.set_solver("wave").unwrap();
    let finger = water.add_finger(10.0, 30.0, 3.0, 48.0).unwrap();
    for k in 1..=10 {
        assert!(
            water
                .move_finger(finger, 10.0 + 12.0 * k as f64, 30.0)
                .unwrap()
        );
        water.advance(1).unwrap();
    }
    let heights = match water.pool().solver().heights() {
        ripples::Heights::F32(h) => h.to_vec(),
        ripples::Heights::I16(_) => unreachable!("the wave solver"),
    };
    // Pressed all the way from 10 to 130, not beyond.
    assert!((10..=128).all(|x| heights[30 * 160 + x] != 0.0));
    assert_eq!(heights[30 * 160 + 150], 0.0);
    water.lift_finger(finger);
    assert_eq!(water.pool().body_count(), 0);
    assert!(!water.move_finger(finger, 1.0, 1.0).unwrap(), "lifted");
    // Bad values are refused naming them; far away is brought near and stays bounded.
    let error = water.add_finger(f64::NAN, 1.0, 3.0, 48.0).unwrap_err();
    assert_eq!(error.to_string(), "x must be a finite number, got NaN");
    assert!(matches!(
        water.add_finger(1.0, 1.0, 3.0, -1.0),
        Err(WebError::Number { name, value: -1.0, .. }) if name == "strength"
    ));
    let far = water.add_finger(80.0, 30.0, 3.0, 48.0).unwrap();
    water.move_finger(far, 1e12, -1e12).unwrap();
    water.advance(10).unwrap();
    let ripples::Heights::F32(heights) = water.pool().solver().heights() else {
        unreachable!()
    };
    assert!(heights.iter().all(|h| h.is_finite() && h.abs() < 1e5));
}

#[test]
fn a_pointer_jump_is_followed_at_a_fingers_speed_not_stamped_at_once() {
    // A pointer that jumps 360 CSS pixels in one event, at 1 and 2 pool pixels per CSS pixel.
    for ratio in [1.0, 2.0] {
        let (width, row) = (480.0 * ratio, 40.0 * ratio);
        // The wave solver, as above: the water moves only where the finger has been.
        let mut water = WebPool::new(width, 80.0 * ratio, 1.0, 1).unwrap();
        water.set_solver("wave").unwrap();
        water.set_pixels_per_css_pixel(ratio).unwrap();
        let start = 40.0 * ratio;
        let finger = water.add_finger(start, row, 4.0 * ratio, 48.0).unwrap();
        water.advance(1).unwrap();
        water
            .move_finger(finger, start + 360.0 * ratio, row)
            .unwrap();
        // How far along the row (in CSS pixels from the start) the water moved.
        let reach = |water: &WebPool| {
            let h = heights(water);
            let columns = water.grid_width() as usize;
            let line = &h[row as usize * columns..(row as usize + 1) * columns];
            let last = (0..columns)
                .rev()
                .find(|&x| line[x].abs() > 1e-3)
                .unwrap_or(0);
            (last as f64 - start) / ratio
        };
        let mut reached = Vec::new();
        for steps in [1, 4, 10] {
            let before = water.steps();
            water.advance(steps).unwrap();
            let (x, _) = water.finger_position(finger).unwrap();
            let travelled = (f64::from(x) - start) / ratio;
            reached.push((water.steps() - before, travelled, reach(&water)));
        }
        println!(
            "ratio {ratio}: a 360 px jump, after 1, 5 and 15 steps: finger at {:.0}, {:.0}, \
             {:.0} CSS px; water moved up to {:.0}, {:.0}, {:.0} CSS px along the path",
            reached[0].1, reached[1].1, reached[2].1, reached[0].2, reached[1].2, reached[2].2
        );
        // One step: one finger's stride (plus its radius and the step's spread), not 360 px.
        assert!((reached[0].1 - FINGER_SPEED).abs() < 0.01, "{reached:?}");
        assert!(reached[0].2 < FINGER_SPEED + 12.0, "{reached:?}");
        assert!(
            reached[1].2 > reached[0].2 + 3.0 * FINGER_SPEED - 12.0,
            "{reached:?}"
        );
        // Fifteen steps: 15 x 24 = 360, the finger is there and the wake covers the path.
        assert_eq!(reached[2].1, 360.0, "{reached:?}");
        assert!(reached[2].2 >= 360.0, "{reached:?}");
    }
}

#[test]
fn a_swipe_leaves_a_trail_without_gaps() {
    let mut water = WebPool::new(120.0, 40.0, 1.0, 1).unwrap();
    water.set_solver("classic").unwrap();
    water
        .swipe((10.0, 20.0), (110.0, 20.0), 2.0, 100.0)
        .unwrap();
    let heights = match water.pool().solver().heights() {
        ripples::Heights::I16(h) => h.to_vec(),
        ripples::Heights::F32(_) => unreachable!("classic solver"),
    };
    assert!((10..=110).all(|x| heights[20 * 120 + x] == -100));
}

#[test]
fn a_swipe_from_far_away_is_clipped_to_the_pool() {
    let mut water = WebPool::new(100.0, 100.0, 1.0, 1).unwrap();
    // Without clipping this would stamp two billion stones.
    water.swipe((-1e9, 50.0), (1e9, 50.0), 2.0, 100.0).unwrap();
    water
        .swipe((-1e9, -1e9), (-1e9 + 5.0, -1e9), 2.0, 100.0)
        .unwrap();
    assert_eq!(
        clip_segment((-10.0, 5.0), (30.0, 5.0), (0.0, 0.0, 20.0, 10.0)),
        Some(((0.0, 5.0), (20.0, 5.0)))
    );
    assert_eq!(
        clip_segment((-10.0, 50.0), (30.0, 50.0), (0.0, 0.0, 20.0, 10.0)),
        None
    );
}

#[test]
fn rain_falls_at_the_rate_per_second_whatever_the_steps_per_second() {
    for steps_per_second in [30.0, 60.0, 120.0] {
        let mut water = WebPool::new(64.0, 64.0, 1.0, 9).unwrap();
        water.set_steps_per_second(steps_per_second).unwrap();
        water.set_rain(50.0).unwrap();
        water.advance((steps_per_second * 10.0) as u32).unwrap();
        // No direct count of stones: the rain's mean per step is what was configured.
        let per_step = water.rain.rate();
        assert!((per_step * steps_per_second - 50.0).abs() < 1e-9);
        assert_ne!(water.frame_pixels(), water.image());
    }
}

#[test]
fn dark_opaque_pixels_of_the_mask_become_walls() {
    let mut water = WebPool::new(8.0, 4.0, 1.0, 1).unwrap();
    let mut mask = vec![255u8; 8 * 4 * 4];
    for x in 0..8 {
        let i = (2 * 8 + x) * 4;
        mask[i..i + 3].fill(0); // a black row
    }
    mask[3] = 0; // a transparent pixel is water whatever its colour
    water.set_obstacles(&mask).unwrap();
    assert_eq!(water.wall_cells(), 8);
    water.clear_obstacles();
    assert_eq!(water.wall_cells(), 0);
}

#[test]
fn a_new_pool_runs_the_dispersive_solver_under_the_natural_look() {
    let water = WebPool::new(64.0, 48.0, 1.0, 1).unwrap();
    assert_eq!(water.solver(), SolverKind::Dispersive);
    assert_eq!(water.look_mode(), RenderMode::Natural);
    assert_eq!(
        water.look(),
        Look::natural(),
        "the core's natural parameters"
    );
}

/// A pool with a ring spreading from a stone at its centre.
fn rippling(width: f64, height: f64, solver: &str) -> WebPool {
    let mut water = WebPool::new(width, height, 1.0, 1).unwrap();
    water.set_solver(solver).unwrap();
    water
        .drop_stone(width / 2.0, height / 2.0, width / 16.0, 400.0)
        .unwrap();
    water.advance(12).unwrap();
    water
}

/// The field's values as `f64`, whatever the solver keeps.
fn heights(water: &WebPool) -> Vec<f64> {
    match water.pool().solver().heights() {
        ripples::Heights::I16(h) => h.iter().map(|&v| f64::from(v)).collect(),
        ripples::Heights::F32(h) => h.iter().map(|&v| f64::from(v)).collect(),
    }
}

#[test]
fn a_pool_of_another_pixel_ratio_takes_the_water_and_goes_on_with_it() {
    for solver in ["wave", "classic", "spring"] {
        let old = rippling(128.0, 96.0, solver);
        // Half the pixel ratio: the same CSS box, half the cells each way.
        let mut half = WebPool::new(64.0, 48.0, 1.0, 1).unwrap();
        half.set_solver(solver).unwrap();
        assert!(half.take_water(&old, (1.0, 1.0)), "{solver}");
        assert_eq!(half.steps(), old.steps(), "{solver}: the steps go on");
        let (before, after) = (heights(&old), heights(&half));
        // Cell (x, y) of the half pool averages cells 2x..2x+1, 2y..2y+1 of the old one.
        for (x, y) in [(20, 24), (32, 30), (44, 24)] {
            let mean = (0..4)
                .map(|k| before[(2 * y + k / 2) * 128 + 2 * x + k % 2])
                .sum::<f64>()
                / 4.0;
            let got = after[y * 64 + x];
            assert!(
                (got - mean).abs() <= 0.5 + 1e-3 * mean.abs(),
                "{solver} ({x}, {y}): {got} vs {mean}"
            );
        }
        let energy = |h: &[f64]| h.iter().map(|v| v * v).sum::<f64>();
        assert!(
            energy(&after) > 0.1 * energy(&before) / 4.0,
            "{solver}: the ring is there"
        );
        // It keeps moving: the ring spreads on the new grid.
        half.advance(10).unwrap();
        assert_ne!(heights(&half), after, "{solver}");
        assert!(half.frame_pixels() != half.image(), "{solver}");
    }
}

#[test]
fn a_resized_pool_keeps_its_water_settings_and_memory() {
    for solver in ["wave", "classic", "spring", "dispersive"] {
        let mut water = rippling(128.0, 96.0, solver);
        water.set_steps_per_second(30.0).unwrap();
        let (before, steps) = (heights(&water), water.steps());
        let capacity = water.image.capacity();
        // Taller by a third (a phone's URL bar going away): the ring stays where it was.
        water.resize(128.0, 128.0, (1.0, 128.0 / 96.0)).unwrap();
        assert_eq!((water.width(), water.height()), (128, 128));
        assert_eq!(water.solver().name(), solver);
        assert_eq!(water.steps(), steps, "{solver}: the steps go on");
        assert_eq!(
            water.clock.steps_per_second(),
            30.0,
            "{solver}: the clock is kept"
        );
        let after = heights(&water);
        let mut worst = 0.0f64;
        for y in 1..95 {
            for x in 1..127 {
                worst = worst.max((after[y * 128 + x] - before[y * 128 + x]).abs());
            }
        }
        let peak = before.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        println!(
            "{solver}: resized 128x96 -> 128x128, ring peak {peak:.1}, worst change {worst:.3}"
        );
        assert!(peak > 10.0 && worst <= 0.5, "{solver}: {worst} of {peak}");
        assert!(
            after[100 * 128..].iter().all(|&v| v == 0.0),
            "{solver}: calm below"
        );
        // Back to the first size: the image's memory is what it was, not a new block.
        water.resize(128.0, 96.0, (1.0, 96.0 / 128.0)).unwrap();
        assert!(water.image.capacity() >= capacity && water.image.len() == 128 * 96 * 4);
        let frame_address = water.frame_address();
        water
            .resize(120.0, 90.0, (120.0 / 128.0, 90.0 / 96.0))
            .unwrap();
        assert_eq!(
            water.frame_address(),
            frame_address,
            "{solver}: a smaller frame stays put"
        );
        water.advance(3).unwrap();
        assert_eq!(water.frame_pixels().len(), 120 * 90 * 4);
    }
    let mut water = rippling(64.0, 48.0, "wave");
    let before = heights(&water);
    assert_eq!(
        water.resize(0.0, 48.0, (1.0, 1.0)).unwrap_err().to_string(),
        "pool size must be at least 1x1 pixels, got 0x48"
    );
    assert!(matches!(
        water.resize(64.0, 48.0, (f64::NAN, 1.0)),
        Err(WebError::CssScale { axis: "x", value }) if value.is_nan()
    ));
    assert_eq!(heights(&water), before, "a refused resize changes nothing");
}

#[test]
fn water_is_not_taken_across_solvers_and_a_grown_box_is_calm_beyond_the_old_one() {
    let old = rippling(64.0, 64.0, "wave");
    let mut classic = WebPool::new(64.0, 64.0, 1.0, 1).unwrap();
    classic.set_solver("classic").unwrap();
    assert!(!classic.take_water(&old, (1.0, 1.0)));
    assert!(heights(&classic).iter().all(|&v| v == 0.0));
    // The element grew to twice its width: the old water stays on the left half, in place.
    let mut wider = WebPool::new(128.0, 64.0, 1.0, 1).unwrap();
    wider.set_solver("wave").unwrap();
    assert!(wider.take_water(&old, (2.0, 1.0)));
    let (before, after) = (heights(&old), heights(&wider));
    for y in 1..63 {
        for x in 1..63 {
            assert!(
                (after[y * 128 + x] - before[y * 64 + x]).abs() < 1e-3,
                "({x}, {y})"
            );
        }
        assert!(after[y * 128 + 64..y * 128 + 128].iter().all(|&v| v == 0.0));
    }
}

#[test]
fn switching_looks_keeps_each_looks_numbers() {
    let mut water = WebPool::new(64.0, 48.0, 1.0, 1).unwrap();
    water.set_caustics(0.5).unwrap();
    water.set_presence(2.0).unwrap();
    water.set_perturbance(2.0).unwrap();
    water.set_look("lit").unwrap();
    let Look::Lit(lit) = water.look() else {
        panic!("{:?}", water.look())
    };
    assert_eq!((lit.presence, lit.refraction), (2.0, 2.0 * BASE_REFRACTION));
    water.set_look("natural").unwrap();
    let Look::Natural(natural) = water.look() else {
        panic!("{:?}", water.look())
    };
    assert_eq!((natural.caustics, natural.presence), (0.5, 2.0));
}

#[test]
fn the_natural_looks_lengths_are_css_pixels() {
    let mut water = WebPool::new(64.0, 48.0, 1.0, 1).unwrap();
    water.set_depth(30.0).unwrap();
    water.set_clarity(500.0).unwrap();
    water.set_wave_height(0.05).unwrap();
    water.set_pixels_per_css_pixel(2.0).unwrap();
    let look = water.looks().natural;
    assert_eq!(
        (look.depth, look.clarity, look.wave_height),
        (60.0, 1000.0, 0.1)
    );
    water.set_depth(1000.0).unwrap();
    assert_eq!(
        water.looks().natural.depth,
        1024.0,
        "held at the core's limit"
    );
    water.set_caustics(0.5).unwrap();
    water.set_sun_elevation(30.0).unwrap();
    water.set_sun_azimuth(-45.0).unwrap();
    water.set_water_colour("#102030").unwrap();
    let look = water.looks().natural;
    assert_eq!(
        (
            look.caustics,
            look.sun_elevation,
            look.sun_azimuth,
            look.water_colour
        ),
        (0.5, 30.0, -45.0, [16, 32, 48])
    );
    assert_eq!(
        water.set_sun_elevation(0.0).unwrap_err().to_string(),
        "sunElevation must be a number from 1 to 90, got 0"
    );
    assert!(matches!(
        water.set_water_colour("blue-ish"),
        Err(WebError::Expected { name, got: options::OptionValue::Text(got), .. })
            if name == "waterColour" && got == "blue-ish"
    ));
    assert!(matches!(
        water.set_pixels_per_css_pixel(0.0),
        Err(WebError::Number { name, value: 0.0, rule: options::Rule::Range { .. } }) if name == "pixelRatio"
    ));
}

#[test]
fn waves_cross_the_page_at_the_same_speed_at_every_pixel_ratio() {
    // The front of a ring, in CSS pixels from the stone, after `steps` steps.
    let front = |ratio: f64, resolution: f64, steps: u32| {
        let side = (160.0 * ratio).round();
        let mut water = WebPool::new(side, side, resolution, 1).unwrap();
        water.set_pixels_per_css_pixel(ratio).unwrap();
        water
            .drop_stone(side / 2.0, side / 2.0, 4.0 * ratio, 400.0)
            .unwrap();
        water.advance(steps).unwrap();
        let h = heights(&water);
        let width = water.grid_width() as usize;
        let centre = width / 2;
        let row = &h[centre * width..(centre + 1) * width];
        // The outermost cell still moved noticeably.
        let peak = row.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let outer = (centre..width)
            .rev()
            .find(|&x| row[x].abs() > 0.02 * peak)
            .unwrap();
        (outer - centre) as f64 * resolution / ratio
    };
    // (A stone moves no water in all, its rims hold what the dent pushed aside, so its
    // longest waves, the first to arrive, are faint: the front is where 2% of the peak is.)
    let at_one = front(1.0, 1.0, 80);
    assert!(at_one > 20.0, "{at_one}");
    for (ratio, resolution) in [(0.5, 1.0), (2.0, 1.0), (1.0, 2.0)] {
        let other = front(ratio, resolution, 80);
        assert!(
            (other - at_one).abs() <= 4.0,
            "ratio {ratio}, resolution {resolution}: {other} CSS px against {at_one}"
        );
    }
}

#[test]
fn every_natural_parameter_changes_the_frame() {
    let mut water = rippling(96.0, 64.0, "wave");
    let mut last = water.frame_pixels().to_vec();
    type Change = fn(&mut WebPool) -> Result<(), WebError>;
    let changes: [(&str, Change); 9] = [
        ("depth", |w| w.set_depth(120.0)),
        ("caustics", |w| w.set_caustics(2.0)),
        ("sunElevation", |w| w.set_sun_elevation(20.0)),
        // A quarter turn: turned half way round, the caustics' landing map is the same
        // (it depends on the sun's axis, not its side), and a low sun makes no glint.
        ("sunAzimuth", |w| w.set_sun_azimuth(30.0)),
        ("waterColour", |w| w.set_water_colour("#305080")),
        ("clarity", |w| w.set_clarity(50.0)),
        ("waveHeight", |w| w.set_wave_height(0.2)),
        ("dispersion", |w| w.set_dispersion(30.0)),
        ("pixel ratio", |w| w.set_pixels_per_css_pixel(0.5)),
    ];
    for (name, change) in changes {
        change(&mut water).unwrap();
        assert!(water.frame(1e9).unwrap(), "{name}: drawn without a step");
        assert_ne!(water.frame_pixels(), &last[..], "{name}");
        last = water.frame_pixels().to_vec();
    }
}

/// How much redder than green each pixel of `after` is, compared with `before`: the change
/// in red minus green, per pixel.
fn redder(before: &[u8], after: &[u8]) -> Vec<i32> {
    let red_over_green = |p: &[u8]| i32::from(p[0]) - i32::from(p[1]);
    before
        .chunks_exact(4)
        .zip(after.chunks_exact(4))
        .map(|(b, a)| red_over_green(a) - red_over_green(b))
        .collect()
}

#[test]
fn a_sky_picture_is_what_steep_waves_reflect_until_the_built_in_sky_is_back() {
    // The wave solver: outside its ring the water is exactly calm, so calm and rippled
    // pixels part cleanly.
    let mut water = WebPool::new(96.0, 64.0, 1.0, 1).unwrap();
    water.set_solver("wave").unwrap();
    water.set_image(&[128; 96 * 64 * 4]).unwrap();
    water.advance(0).unwrap();
    let calm = water.frame_pixels().to_vec();
    water.drop_stone(48.0, 32.0, 8.0, 400.0).unwrap();
    water.advance(12).unwrap();
    let built_in = water.frame_pixels().to_vec();
    // A pure red sky, of any size: the same water (no step) reflects it.
    let red = [255, 0, 0, 255].repeat(7 * 3);
    water.set_sky(&red, 7.0, 3.0).unwrap();
    assert!(
        water.frame(0.0).unwrap(),
        "a new sky is drawn without a step"
    );
    let shift = redder(&built_in, water.frame_pixels());
    let disturbed: Vec<bool> = calm
        .chunks_exact(4)
        .zip(built_in.chunks_exact(4))
        .map(|(c, b)| c[..3] != b[..3])
        .collect();
    let (ring, flat): (Vec<i32>, Vec<i32>) = {
        let pick = |wanted: bool| {
            shift
                .iter()
                .zip(&disturbed)
                .filter(|&(_, &d)| d == wanted)
                .map(|(&s, _)| s)
                .collect()
        };
        (pick(true), pick(false))
    };
    assert!(ring.len() > 500, "{} pixels of ring", ring.len());
    // Calm water adds nothing to the picture (it shows calm water's reflection already)...
    assert!(
        flat.iter().all(|&s| s == 0),
        "calm water reflects nothing: {:?}..={:?}",
        flat.iter().min(),
        flat.iter().max()
    );
    // ...and by Fresnel's law the ring's steep slopes reflect the red sky beyond what calm
    // water does.
    let reddened = ring.iter().filter(|&&s| s >= 2).count();
    println!(
        "{reddened} of {} ring pixels redder by 2 levels or more",
        ring.len()
    );
    assert!(reddened > 0 && ring.iter().all(|&s| s >= 0), "{ring:?}");
    water.use_default_sky();
    water.advance(0).unwrap();
    assert_eq!(
        water.frame_pixels(),
        &built_in[..],
        "the built-in sky is back"
    );
}

#[test]
fn a_wrong_sky_picture_is_an_error_and_the_sky_stays() {
    let mut water = rippling(32.0, 24.0, "wave");
    water.advance(0).unwrap();
    let before = water.frame_pixels().to_vec();
    let pixel = [255u8, 0, 0, 255];
    assert_eq!(
        water
            .set_sky(&pixel.repeat(6), 2.0, 2.0)
            .unwrap_err()
            .to_string(),
        "sky image has 24 bytes, expected 16 for 2x2 RGBA"
    );
    assert_eq!(
        water.set_sky(&pixel, 0.5, 2.0).unwrap_err().to_string(),
        "sky image width must be a whole number from 1 to 16384, got 0.5"
    );
    let (min, max) = (1, MAX_SIDE);
    assert_eq!(
        water.set_sky(&[], 0.0, 0.0),
        Err(WebError::number(
            "sky image width",
            0.0,
            options::Rule::Whole { min, max }
        ))
    );
    assert!(matches!(
        water.set_sky(&pixel, 1.0, f64::NAN),
        Err(WebError::Number { name, value, .. }) if name == "sky image height" && value.is_nan()
    ));
    water.advance(0).unwrap();
    assert_eq!(water.frame_pixels(), &before[..]);
}

#[test]
fn looks_and_perturbance_change_the_frame() {
    let mut water = WebPool::new(64.0, 48.0, 2.0, 1).unwrap();
    assert_eq!((water.grid_width(), water.grid_height()), (32, 24));
    water.drop_stone(32.0, 24.0, 8.0, 300.0).unwrap();
    water.advance(8).unwrap();
    water.set_look("lit").unwrap();
    water.advance(0).unwrap();
    let lit = water.frame_pixels().to_vec();
    water.set_perturbance(0.0).unwrap();
    assert!(
        water.frame(0.0).unwrap(),
        "a new look is drawn without a step"
    );
    assert_ne!(water.frame_pixels(), &lit[..]);
    water.set_look("spring").unwrap();
    assert_eq!(water.look_mode(), RenderMode::Spring);
    assert!(matches!(
        water.set_perturbance(17.0),
        Err(WebError::Number { name, value: 17.0, rule: options::Rule::Range { .. } }) if name == "perturbance"
    ));
}

#[test]
fn perturbance_scales_the_natural_looks_refraction() {
    let mut water = WebPool::new(96.0, 64.0, 1.0, 1).unwrap();
    water.advance(0).unwrap();
    let calm = water.frame_pixels().to_vec();
    water.drop_stone(48.0, 32.0, 8.0, 400.0).unwrap();
    water.advance(12).unwrap();
    let changed = |frame: &[u8]| {
        frame
            .chunks_exact(4)
            .zip(calm.chunks_exact(4))
            .filter(|(a, b)| a[..3] != b[..3])
            .count()
    };
    let mut counts = Vec::new();
    for perturbance in [0.0, 1.0, 3.0] {
        water.set_perturbance(perturbance).unwrap();
        water.advance(0).unwrap();
        counts.push(changed(water.frame_pixels()));
    }
    let strong = water.frame_pixels().to_vec();
    water.set_perturbance(1.0).unwrap();
    water.advance(0).unwrap();
    println!("natural look, pixels changed by a ring at perturbance 0, 1, 3: {counts:?}");
    assert_eq!(counts[0], 0, "perturbance 0: a flat surface");
    assert!(counts[1] > 200 && counts[2] > counts[1], "{counts:?}");
    assert_ne!(water.frame_pixels(), &strong[..]);
    assert_eq!(
        water.looks().natural.wave_height,
        NaturalSettings::default().wave_height
    );
    // jquery.ripples' value is refused and changes nothing.
    assert_eq!(
        water.set_perturbance(0.04),
        Err(WebError::JqueryPerturbance { value: 0.04 })
    );
    assert_eq!(
        water.looks().natural.wave_height,
        NaturalSettings::default().wave_height
    );
}

#[test]
fn a_photographs_water_keeps_its_land_and_takes_stones_fingers_and_rain_in_perspective() {
    let (width, height) = (160usize, 100usize);
    let mut water = WebPool::new(width as f64, height as f64, 1.0, 1).unwrap();
    // The lower half is water.
    let mask: Vec<u8> = (0..width * height)
        .flat_map(|i| {
            if i / width >= 50 {
                [255, 255, 255, 255]
            } else {
                [0, 0, 0, 255]
            }
        })
        .collect();
    let error = water.set_water(&mask[4..], 30.0, f64::NAN).unwrap_err();
    assert!(
        error.to_string().contains("water mask"),
        "{}",
        error.to_string()
    );
    let error = water.set_water(&mask, 99.6, f64::NAN).unwrap_err();
    assert!(
        error.to_string().contains("below all the water"),
        "{}",
        error.to_string()
    );
    water.set_water(&mask, 30.0, f64::NAN).unwrap();
    assert!(water.pool().in_perspective());
    water.set_rain(20.0).unwrap();
    water.drop_stone(80.0, 80.0, 6.0, 300.0).unwrap();
    let finger = water.add_finger(20.0, 70.0, 4.0, 200.0).unwrap();
    water.move_finger(finger, 140.0, 75.0).unwrap();
    let image = water.image().to_vec();
    let land = width * 50 * 4;
    for _ in 0..40 {
        water.advance(1).unwrap();
        assert_eq!(water.frame_pixels()[..land], image[..land]);
    }
    let moved = changed(water.frame_pixels(), &image, width, 8, 0, 50, width, height);
    assert!(moved > 300, "{moved} water pixels moved");
    water.lift_finger(finger);
    // Without a horizon, top-down water limited to the mask, with bodies for fingers again.
    water.set_water(&mask, f64::NAN, f64::NAN).unwrap();
    assert!(!water.pool().in_perspective());
    water.add_finger(20.0, 70.0, 4.0, 200.0).unwrap();
    assert_eq!(water.pool().body_count(), 1);
}

#[test]
fn presence_scales_a_photographs_waves_on_the_cpu_and_for_the_gpu_alike() {
    let (width, height) = (160usize, 100usize);
    let mask: Vec<u8> = (0..width * height)
        .flat_map(|i| {
            let shade = if i / width >= 50 { 255 } else { 0 };
            [shade, shade, shade, 255]
        })
        .collect();
    // What the page draws at a presence: the CPU's frame's water pixels moved, and the
    // largest slope sum the GPU's photo shader would read.
    let drawn = |presence: f64| -> (usize, f32) {
        let mut water = WebPool::new(width as f64, height as f64, 1.0, 1).unwrap();
        water.set_water(&mask, 30.0, f64::NAN).unwrap();
        water.set_presence(presence).unwrap();
        water.drop_stone(80.0, 80.0, 6.0, 300.0).unwrap();
        let image = water.image().to_vec();
        water.advance(20).unwrap();
        let moved = changed(water.frame_pixels(), &image, width, 8, 0, 50, width, height);
        let slopes = water.prepare_photo_slopes().unwrap();
        (
            moved,
            slopes.iter().fold(0.0f32, |most, s| most.max(s.abs())),
        )
    };
    let (still, still_slopes) = drawn(0.0);
    let (normal, normal_slopes) = drawn(1.0);
    let (strong, strong_slopes) = drawn(3.0);
    assert_eq!((still, still_slopes), (0, 0.0));
    assert!(normal > 0 && strong > normal, "{normal} then {strong}");
    assert!(
        (strong_slopes / normal_slopes - 3.0).abs() < 1e-3,
        "{normal_slopes} then {strong_slopes}"
    );
}

#[test]
fn a_resize_keeps_a_photographs_water_and_a_new_region_calms_it() {
    for horizon in [f64::NAN, 30.0] {
        let mask_of = |width: usize, height: usize| -> Vec<u8> {
            (0..width * height)
                .flat_map(|i| {
                    let shade = if i / width >= height / 2 { 255 } else { 0 };
                    [shade, shade, shade, 255]
                })
                .collect()
        };
        let mut water = WebPool::new(160.0, 100.0, 1.0, 1).unwrap();
        water.set_gpu(true);
        water
            .set_water(&mask_of(160, 100), horizon, f64::NAN)
            .unwrap();
        water.drop_stone(80.0, 80.0, 6.0, 800.0).unwrap();
        water.advance(10).unwrap();
        assert!(!water.is_calm());
        let version = water.water_version();
        // The page sets the water again after a resize, the horizon scaled with the picture.
        water.resize(200.0, 125.0, (1.25, 1.25)).unwrap();
        assert!(!water.has_water_region() && water.water_version() != version);
        water
            .set_water(&mask_of(200, 125), horizon * 1.25, f64::NAN)
            .unwrap();
        assert_eq!(water.pool().in_perspective(), !horizon.is_nan());
        assert!(!water.is_calm(), "horizon {horizon}: the water is kept");
        assert_eq!(water.prepare_photo_slopes().is_ok(), !horizon.is_nan());
        assert_eq!(water.water_mask().unwrap().len(), 200 * 125);
        // A new region otherwise starts calm.
        water
            .set_water(&mask_of(200, 125), horizon * 1.25, f64::NAN)
            .unwrap();
        assert!(
            water.is_calm(),
            "horizon {horizon}: a new region calms the water"
        );
    }
}

#[test]
fn with_a_gpu_the_pool_only_steps_and_frees_its_frame() {
    let mut pool = WebPool::new(120.0, 80.0, 2.0, 3).unwrap();
    assert_eq!(pool.frame_pixels().len(), 120 * 80 * 4);
    pool.set_gpu(true);
    assert!(pool.gpu());
    assert!(pool.frame_pixels().is_empty(), "the frame buffer is freed");
    pool.drop_stone(60.0, 40.0, 8.0, 400.0).unwrap();
    let steps = pool.steps();
    assert!(pool.frame(0.0).unwrap());
    assert!(pool.frame(100.0).unwrap(), "steps are due: the page draws");
    assert!(pool.steps() > steps);
    // A resize keeps the pool frameless; back on the CPU it renders again.
    pool.resize(100.0, 60.0, (1.0, 1.0)).unwrap();
    assert!(pool.frame_pixels().is_empty());
    pool.set_gpu(false);
    pool.advance(1).unwrap();
    assert_eq!(pool.frame_pixels().len(), 100 * 60 * 4);
    assert!(pool.frame_pixels().iter().any(|&byte| byte != 0));
}

#[test]
fn the_surface_holds_the_gradient_or_the_natural_slopes_of_every_cell() {
    let mut pool = WebPool::new(90.0, 60.0, 3.0, 3).unwrap();
    pool.set_look("lit").unwrap();
    let cells = (pool.grid_width() * pool.grid_height()) as usize;
    assert_eq!(pool.prepare_surface().unwrap().len(), 4 * cells);
    assert!(
        pool.prepare_surface().unwrap().iter().all(|&v| v == 0.0),
        "calm water is flat"
    );
    pool.drop_stone(45.0, 30.0, 9.0, 600.0).unwrap();
    pool.advance(5).unwrap();
    let (width, heights) = (pool.grid_width() as usize, pool.pool().solver().heights());
    let Heights::F32(heights) = heights else {
        panic!("the dispersive solver keeps floats");
    };
    let heights = heights.to_vec();
    let surface = pool.prepare_surface().unwrap().to_vec();
    // The lit look's surface is the renderer's gradient: mid[x-1] - mid[x+1], up - down.
    let (x, y) = (14, 9);
    let at = |x: usize, y: usize| heights[y * width + x];
    let cell = &surface[4 * (y * width + x)..4 * (y * width + x) + 4];
    assert_eq!(cell[0], at(x - 1, y) - at(x + 1, y));
    assert_eq!(cell[1], at(x, y - 1) - at(x, y + 1));
    assert!(cell[0] != 0.0 || cell[1] != 0.0);
    // The natural look's: slopes (pixels per pixel) and a caustic gain around 1.
    pool.set_look("natural").unwrap();
    let natural = pool.prepare_surface().unwrap().to_vec();
    assert!(
        natural
            .chunks_exact(4)
            .any(|cell| cell[0] != 0.0 && cell[2] != 1.0)
    );
    assert!(
        natural
            .chunks_exact(4)
            .all(|cell| cell[2] > 0.0 && cell[2].is_finite())
    );
    let constants = pool.shader_constants();
    assert_eq!(constants.len(), ripples::SHADER_CONSTANTS);
    assert_eq!(pool.sky_table().len(), 64 * 64);
}

#[test]
fn the_pool_is_calm_only_when_flat_and_nothing_is_scheduled() {
    let mut pool = WebPool::new(80.0, 60.0, 1.0, 3).unwrap();
    pool.set_solver("wave").unwrap();
    pool.set_border("absorb").unwrap();
    assert!(pool.is_calm(), "a new pool is calm");
    pool.set_rain(2.0).unwrap();
    assert!(!pool.is_calm(), "rain is scheduled motion");
    pool.set_rain(0.0).unwrap();
    let finger = pool.add_finger(40.0, 30.0, 6.0, 48.0).unwrap();
    assert!(!pool.is_calm(), "a finger in the water");
    pool.lift_finger(finger);
    pool.drop_stone(40.0, 30.0, 8.0, 400.0).unwrap();
    assert!(!pool.is_calm(), "a stone's ring");
    // The ring leaves through the absorbing border.
    let mut steps = 0;
    while !pool.is_calm() && steps < 5000 {
        pool.advance(10).unwrap();
        steps += 10;
    }
    println!(
        "the ring of a stone of 400 in an 80x60 pool with absorbing edges is calm after {steps} steps"
    );
    assert!(pool.is_calm() && steps < 5000);
}

#[test]
fn the_image_version_counts_every_new_picture() {
    let mut pool = WebPool::new(20.0, 10.0, 1.0, 3).unwrap();
    let first = pool.image_version();
    pool.set_image(&vec![7; 20 * 10 * 4]).unwrap();
    pool.image_changed();
    pool.use_default_image().unwrap();
    pool.resize(30.0, 10.0, (1.5, 1.0)).unwrap();
    assert_eq!(pool.image_version().wrapping_sub(first), 4);
}

#[test]
fn a_perspective_resolution_keeps_the_plane_grid_within_its_budget() {
    let (width, height) = (400u32, 250u32);
    let mask: Vec<u8> = (0..width * height)
        .flat_map(|i| {
            if i / width >= 100 {
                [255; 4]
            } else {
                [0, 0, 0, 255]
            }
        })
        .collect();
    let cells_at = |resolution: u32| {
        let mut water = WebPool::new(width.into(), height.into(), resolution.into(), 1).unwrap();
        water.set_water(&mask, 80.0, f64::NAN).unwrap();
        let solver = water.pool().solver();
        solver.width() as usize * solver.height() as usize
    };
    let finest = cells_at(1);
    let budget = finest as f64 / 6.0;
    let chosen = perspective_resolution(
        width.into(),
        height.into(),
        1.0,
        &mask,
        80.0,
        f64::NAN,
        budget,
    )
    .unwrap();
    println!(
        "{finest} cells at resolution 1, {} at {chosen}",
        cells_at(chosen)
    );
    assert!(chosen > 1 && cells_at(chosen) as f64 <= budget);
    // The finest resolution that fits: one finer would not.
    assert!(cells_at(chosen - 1) as f64 > budget);
    // Without a horizon, or within the budget, the page's own resolution.
    let own = |horizon: f64, budget: f64| {
        perspective_resolution(
            width.into(),
            height.into(),
            2.0,
            &mask,
            horizon,
            f64::NAN,
            budget,
        )
        .unwrap()
    };
    assert_eq!(own(f64::NAN, 1.0), 2);
    assert_eq!(own(80.0, 1e9), 2);
    let error = perspective_resolution(
        width.into(),
        height.into(),
        1.0,
        &mask[4..],
        80.0,
        f64::NAN,
        1e3,
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("water mask has"),
        "{}",
        error.to_string()
    );
}

#[test]
fn in_perspective_a_coarser_grid_makes_the_same_ring_on_the_plane() {
    // The lake of the test above, 400x250, its horizon at row 80: the same stone at the same
    // pixel, on grids 1 and 4 plane units a cell (what perspectiveResolution picks for a
    // budget), spreads as far in plane units, so its ring is as wide on the page.
    let (width, height) = (400.0, 250.0);
    let mask: Vec<u8> = (0..400 * 250)
        .flat_map(|i| {
            if i / 400 >= 100 {
                [255; 4]
            } else {
                [0, 0, 0, 255]
            }
        })
        .collect();
    let front = |resolution: u32, steps: u32| {
        let mut water = WebPool::new(width, height, resolution.into(), 1).unwrap();
        water.set_water(&mask, 80.0, f64::NAN).unwrap();
        water.drop_stone(200.0, 220.0, 12.0, 400.0).unwrap();
        water.advance(1).unwrap();
        let grid_width = water.pool().solver().width() as usize;
        let h = heights(&water);
        let stone = (0..h.len())
            .max_by(|&a, &b| h[a].abs().total_cmp(&h[b].abs()))
            .unwrap();
        let (centre, row) = (stone % grid_width, stone / grid_width);
        water.advance(steps).unwrap();
        let h = heights(&water);
        let row = &h[row * grid_width..(row + 1) * grid_width];
        let peak = row.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let outer = (centre..grid_width)
            .rev()
            .find(|&x| row[x].abs() > 0.02 * peak)
            .unwrap();
        (outer - centre) as f64 * f64::from(resolution)
    };
    let fine = front(1, 60);
    let coarse = front(4, 60);
    println!("ring front after 60 steps: {fine} plane units at 1 a cell, {coarse} at 4 a cell");
    assert!(fine > 20.0, "{fine}");
    assert!((coarse - fine).abs() <= 8.0, "{coarse} against {fine}");
}

#[test]
fn a_gpu_takes_the_walls_and_the_sponge_as_the_solver_applies_them() {
    let mut water = WebPool::new(64.0, 48.0, 1.0, 1).unwrap();
    assert!(water.wall_mask().is_empty(), "no walls");
    assert!(water.sponge_profile().is_empty(), "reflecting edges");
    let version = water.boundary_version();
    water.set_border("absorb").unwrap();
    assert_ne!(
        water.boundary_version(),
        version,
        "a new edge is a new boundary"
    );
    let profile = water.sponge_profile();
    let sponge = water.pool().sponge().unwrap();
    assert_eq!(profile.len(), sponge.band());
    // The factors the solver multiplies by, cell by cell along the left edge's middle row.
    for (d, &factor) in profile.iter().enumerate() {
        assert_eq!(factor, sponge.factor(d, 24, 64, 48), "{d} cells in");
    }
    assert!(profile[0] < profile[profile.len() - 1] && profile[profile.len() - 1] < 1.0);
    // A dark square of wall in the middle of a light mask.
    let mut rgba = vec![255u8; 64 * 48 * 4];
    for y in 20..28 {
        for x in 30..40 {
            rgba[(y * 64 + x) * 4..(y * 64 + x) * 4 + 3].fill(0);
        }
    }
    let version = water.boundary_version();
    water.set_obstacles(&rgba).unwrap();
    assert_ne!(water.boundary_version(), version);
    let mask = water.wall_mask();
    assert_eq!(mask.len(), 64 * 48);
    assert_eq!(mask.iter().filter(|&&cell| cell == 255).count(), 80);
    assert_eq!(mask[24 * 64 + 35], 255);
    assert_eq!(mask[10 * 64 + 10], 0);
    water.clear_obstacles();
    assert!(water.wall_mask().is_empty());
}

#[test]
fn water_on_the_gpu_is_carried_through_a_resize_and_into_a_new_pool() {
    let mut water = WebPool::new(64.0, 48.0, 1.0, 2).unwrap();
    water.set_solver("dispersive").unwrap();
    water.set_gpu_water(true).unwrap();
    assert_eq!(water.take_gpu_work()[0], 1.0, "starts calm");
    assert!(water.take_gpu_carry().is_empty(), "nothing to carry");
    // The element grows to 80x48 CSS pixels: the same top-left corner, a box 1.25 times as wide.
    water.resize(80.0, 48.0, (1.25, 1.0)).unwrap();
    assert_eq!(water.take_gpu_carry(), vec![64.0, 48.0, 1.25, 1.0]);
    assert!(water.take_gpu_carry().is_empty(), "taken once");
    assert_eq!(water.take_gpu_work()[0], 0.0, "carried, not calmed");
    // A pool of another pixel ratio takes the water: the GPU carries it, corner to corner.
    let mut finer = WebPool::new(160.0, 96.0, 1.0, 1).unwrap();
    finer.set_solver("dispersive").unwrap();
    finer.set_gpu_water(true).unwrap();
    assert!(finer.take_water(&water, (1.0, 1.0)));
    assert_eq!(finer.take_gpu_carry(), vec![80.0, 48.0, 1.0, 1.0]);
    assert_eq!(
        finer.take_gpu_work()[0],
        0.0,
        "the new pool's calm is overridden by the carry"
    );
}

#[test]
fn the_steps_the_gpu_took_stay_counted_when_the_cpu_takes_over() {
    let mut water = WebPool::new(64.0, 48.0, 1.0, 2).unwrap();
    water.set_solver("dispersive").unwrap();
    water.advance(3).unwrap();
    water.set_gpu_water(true).unwrap();
    water.advance(5).unwrap();
    assert_eq!(water.steps(), 8);
    // A lost context: the wasm solver takes the water back, calm, and counts on.
    water.set_gpu_water(false).unwrap();
    assert_eq!(water.steps(), 8);
    water.advance(2).unwrap();
    assert_eq!(water.steps(), 10);
}
