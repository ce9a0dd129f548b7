//! Behaviour of the classic engine as a user sees it: exact render contract, symmetry, decay,
//! flat water, gapless swipes and reproducible rain.

use ripples::{ClassicSolver, Error, Fields, LitSettings, Look, Pool, Rain, WaterSolver};

/// A pool run by the classic solver (the wave solver is the default), at full resolution.
fn classic_pool(width: u32, height: u32) -> Result<Pool, ripples::Error> {
    classic_pool_scaled(width, height, 1)
}

/// A pool run by the classic solver, simulated `scale` times coarser.
fn classic_pool_scaled(width: u32, height: u32, scale: u32) -> Result<Pool, ripples::Error> {
    let mut pool = Pool::with_sim_scale(width, height, scale)?;
    pool.set_solver(ripples::SolverKind::Classic)?;
    Ok(pool)
}

/// A deterministic RGBA test image where every pixel is different.
fn numbered_image(width: usize, height: usize) -> Vec<u8> {
    (0..width * height)
        .flat_map(|i| {
            [
                (i % 251) as u8,
                (i / 251 % 251) as u8,
                (i * 7 % 253) as u8,
                (i * 13 % 255) as u8,
            ]
        })
        .collect()
}

/// The classic render contract written out independently of the library.
fn reference_classic(heights: &[i16], src: &[u8], width: usize, height: usize) -> Vec<u8> {
    let mut dst = src.to_vec();
    for y in 1..height - 1 {
        for x in 1..width - 1 {
            let i = y * width + x;
            let dx = heights[i - 1] as i32 - heights[i + 1] as i32;
            let dy = heights[i - width] as i32 - heights[i + width] as i32;
            let sx = (x as i32 + dx).clamp(0, width as i32 - 1) as usize;
            let sy = (y as i32 + dy).clamp(0, height as i32 - 1) as usize;
            let j = sy * width + sx;
            dst[i * 4..i * 4 + 4].copy_from_slice(&src[j * 4..j * 4 + 4]);
        }
    }
    dst
}

#[test]
fn classic_render_matches_hand_computed_pixels() {
    // 5x4 pool; put heights on interior cells by hand.
    let (width, height) = (5usize, 4usize);
    let src = numbered_image(width, height);
    let mut pool = classic_pool(width as u32, height as u32).unwrap();
    let Fields { current, .. } = pool.solver_mut().as_classic_mut().unwrap().fields_mut();
    current[6] = 2; // (1,1)
    current[8] = -1; // (3,1)
    current[12] = 1; // (2,2)
    let mut dst = vec![0u8; src.len()];
    pool.render(&Look::classic(), &src, &mut dst).unwrap();
    let pixel = |buffer: &[u8], x: usize, y: usize| buffer[(y * width + x) * 4..][..4].to_vec();
    // (2,1): dx = h(1,1) - h(3,1) = 2 - (-1) = 3, dy = h(2,0) - h(2,2) = 0 - 1 = -1
    //        -> sx = 5 clamped to 4, sy = 0.
    assert_eq!(pixel(&dst, 2, 1), pixel(&src, 4, 0));
    // (1,1): dx = h(0,1) - h(2,1) = 0, dy = h(1,0) - h(1,2) = 0 -> itself.
    assert_eq!(pixel(&dst, 1, 1), pixel(&src, 1, 1));
    // (1,2): dx = h(0,2) - h(2,2) = -1, dy = h(1,1) - h(1,3) = 2 -> (0, 4) clamped to (0, 3).
    assert_eq!(pixel(&dst, 1, 2), pixel(&src, 0, 3));
    // (3,2): dx = h(2,2) - h(4,2) = 1, dy = h(3,1) - h(3,3) = -1 -> (4, 1).
    assert_eq!(pixel(&dst, 3, 2), pixel(&src, 4, 1));
    // (2,2): dx = 0 - 0, dy = h(2,1) - h(2,3) = 0 -> itself.
    assert_eq!(pixel(&dst, 2, 2), pixel(&src, 2, 2));
    // Border pixels are copied even where a neighbour has height.
    for x in 0..width {
        assert_eq!(pixel(&dst, x, 0), pixel(&src, x, 0));
        assert_eq!(pixel(&dst, x, 3), pixel(&src, x, 3));
    }
    assert_eq!(
        dst,
        reference_classic(
            pool.solver().as_classic().unwrap().heights(),
            &src,
            width,
            height
        )
    );
}

/// Rain of heavy stones (strength 100 to 3000), so the water displaces pixels far.
fn heavy_rain(seed: u64, stones_per_step: f64) -> Rain {
    Rain::new(seed)
        .with_rate(stones_per_step)
        .unwrap()
        .with_strength(100, 3000)
        .unwrap()
}

/// Drops one step's worth of `rain` on `pool`.
fn drop_rain(pool: &mut Pool, rain: &mut Rain) {
    for stone in rain.stones(pool.width(), pool.height()) {
        pool.drop(stone).unwrap();
    }
}

#[test]
fn classic_render_equals_the_contract_on_a_rough_field() {
    let (width, height) = (97usize, 61usize);
    let src = numbered_image(width, height);
    let mut pool = classic_pool(width as u32, height as u32).unwrap();
    let mut rain = heavy_rain(3, 4.0);
    let mut dst = vec![0u8; src.len()];
    for _ in 0..40 {
        drop_rain(&mut pool, &mut rain);
        pool.step();
        pool.render(&Look::classic(), &src, &mut dst).unwrap();
        assert_eq!(
            dst,
            reference_classic(
                pool.solver().as_classic().unwrap().heights(),
                &src,
                width,
                height
            )
        );
    }
    // The same through the u32 interface: pixels are copied whole.
    let src32: Vec<u32> = src
        .chunks_exact(4)
        .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
        .collect();
    let mut dst32 = vec![0u32; src32.len()];
    pool.render_u32(&Look::classic(), &src32, &mut dst32)
        .unwrap();
    let dst_bytes: Vec<u8> = dst32.iter().flat_map(|p| p.to_le_bytes()).collect();
    assert_eq!(dst_bytes, dst);
}

/// Images 1024 pixels wide and more render the classic look in column tiles, and frames of a
/// megapixel and more with streaming stores: still the contract, including where the water
/// displaces pixels farther than the tiles prefetch, and from both the plain and the fused pass.
#[test]
fn classic_render_equals_the_contract_on_wide_images() {
    for (width, height) in [(1100usize, 37usize), (2048, 9), (1030, 1020)] {
        let src = numbered_image(width, height);
        let mut pool = classic_pool(width as u32, height as u32).unwrap();
        let mut rain = heavy_rain(5, 0.002 * (width * height) as f64);
        let mut dst = vec![0u8; src.len()];
        for frame in 0..4 {
            drop_rain(&mut pool, &mut rain);
            if frame % 2 == 0 {
                pool.step();
                pool.render(&Look::classic(), &src, &mut dst).unwrap();
            } else {
                pool.step_and_render(&Look::classic(), &src, &mut dst)
                    .unwrap();
            }
            let heights = pool.solver().as_classic().unwrap().heights();
            assert!(
                heights.iter().any(|&h| h.abs() > 80),
                "{width}x{height}: calm water"
            );
            assert!(
                dst == reference_classic(heights, &src, width, height),
                "{width}x{height}, frame {frame}"
            );
        }
    }
}

/// The field as a square matrix transformed by `map(x, y) -> (x', y')`.
fn transformed(h: &[i16], n: usize, map: impl Fn(usize, usize) -> (usize, usize)) -> Vec<i16> {
    let mut out = vec![0; n * n];
    for y in 0..n {
        for x in 0..n {
            let (tx, ty) = map(x, y);
            out[ty * n + tx] = h[y * n + x];
        }
    }
    out
}

#[test]
fn a_centred_stone_gives_a_field_symmetric_under_rotation_and_mirror() {
    let n = 41;
    let mut water = ClassicSolver::new(n as u32, n as u32).unwrap();
    water.drop_stone(20, 20, 5, 128.0);
    for step in 0..150 {
        water.step_without_walls();
        let h = water.heights();
        if step % 10 != 9 {
            continue;
        }
        assert!(
            h.iter().any(|&v| v != 0),
            "the wave is still there at step {step}"
        );
        let last = n - 1;
        assert_eq!(
            transformed(h, n, |x, y| (last - y, x)),
            h,
            "90-degree rotation, step {step}"
        );
        assert_eq!(
            transformed(h, n, |x, y| (last - x, y)),
            h,
            "left-right mirror, step {step}"
        );
        assert_eq!(
            transformed(h, n, |x, y| (x, last - y)),
            h,
            "top-bottom mirror, step {step}"
        );
        assert_eq!(
            transformed(h, n, |x, y| (y, x)),
            h,
            "diagonal mirror, step {step}"
        );
    }
}

#[test]
fn the_field_decays_to_zero_with_damping() {
    let mut water = ClassicSolver::new(64, 64).unwrap();
    water.drop_stone(32, 32, 6, 128.0);
    water.drop_stone(12, 40, 3, 90.0);
    let energy = |w: &ClassicSolver| w.heights().iter().map(|&h| (h as i64).pow(2)).sum::<i64>();
    let start = energy(&water);
    water.step_without_walls();
    let mut previous_peak = i16::MAX;
    for block in 0..10 {
        for _ in 0..100 {
            water.step_without_walls();
        }
        let peak = water.heights().iter().map(|h| h.abs()).max().unwrap();
        assert!(
            peak <= previous_peak,
            "block {block}: peak grew from {previous_peak} to {peak}"
        );
        previous_peak = peak;
    }
    for _ in 0..2000 {
        water.step_without_walls();
    }
    assert!(
        water.heights().iter().all(|&h| h == 0),
        "calm after 3000 steps, started at {start}"
    );
    assert!(water.previous_heights().iter().all(|&h| h == 0));
}

#[test]
fn stronger_damping_calms_faster() {
    let peak_after = |shift: u32| {
        let mut water = ClassicSolver::new(64, 64).unwrap();
        water.set_damping_shift(shift).unwrap();
        water.drop_stone(32, 32, 6, 128.0);
        for _ in 0..60 {
            water.step_without_walls();
        }
        water.heights().iter().map(|h| h.abs()).max().unwrap()
    };
    assert!(
        peak_after(2) < peak_after(5),
        "{} vs {}",
        peak_after(2),
        peak_after(5)
    );
    assert!(peak_after(5) < peak_after(9));
}

#[test]
fn flat_water_renders_the_image_unchanged() {
    for &(width, height) in &[(1u32, 1u32), (2, 7), (33, 17), (64, 48)] {
        let src = numbered_image(width as usize, height as usize);
        for scale in [1, 2, 3] {
            let mut pool = classic_pool_scaled(width, height, scale).unwrap();
            for look in [Look::lit(), Look::classic(), Look::spring()] {
                let mut dst = vec![0u8; src.len()];
                pool.render(&look, &src, &mut dst).unwrap();
                assert_eq!(dst, src, "{width}x{height} scale {scale} {:?}", look.kind());
            }
        }
    }
}

#[test]
fn the_lit_look_changes_the_image_around_a_stone_and_not_far_away() {
    let (width, height) = (200u32, 120u32);
    let src = ripples::pool_tiles(width, height).unwrap();
    let mut pool = classic_pool(width, height).unwrap();
    pool.drop_stone(60, 60, 6, 128).unwrap();
    for _ in 0..20 {
        pool.step();
    }
    let mut dst = vec![0u8; src.len()];
    pool.render(&Look::lit(), &src, &mut dst).unwrap();
    let changed = |x0: u32, x1: u32| {
        (0..height)
            .flat_map(|y| (x0..x1).map(move |x| (y * width + x) as usize * 4))
            .filter(|&i| dst[i..i + 4] != src[i..i + 4])
            .count()
    };
    assert!(
        changed(30, 90) > 300,
        "near the stone: {} pixels changed",
        changed(30, 90)
    );
    assert_eq!(changed(120, 200), 0, "far from the stone nothing changes");
    // Highlights: the lit look brightens some pixels beyond any source pixel of the area.
    let look = Look::Lit(LitSettings {
        specular: 2.0,
        ..LitSettings::default()
    });
    pool.render(&look, &src, &mut dst).unwrap();
    let brightest = |buffer: &[u8]| {
        buffer
            .chunks_exact(4)
            .map(|p| p[0] as u32 + p[1] as u32 + p[2] as u32)
            .max()
    };
    assert!(
        brightest(&dst) > brightest(&src),
        "specular highlights appear"
    );
}

#[test]
fn classic_render_only_uses_source_pixels_at_any_scale() {
    let (width, height) = (90u32, 70u32);
    let src = numbered_image(width as usize, height as usize);
    let palette: std::collections::HashSet<&[u8]> = src.chunks_exact(4).collect();
    for scale in [1, 2, 4] {
        let mut pool = classic_pool_scaled(width, height, scale).unwrap();
        assert_eq!(pool.solver().width(), width.div_ceil(scale));
        assert_eq!(pool.solver().height(), height.div_ceil(scale));
        pool.drop_stone(45, 35, 8, 200).unwrap();
        for _ in 0..15 {
            pool.step();
        }
        let mut dst = vec![0u8; src.len()];
        pool.render(&Look::classic(), &src, &mut dst).unwrap();
        assert_ne!(dst, src, "scale {scale}: the stone shows");
        assert!(
            dst.chunks_exact(4).all(|p| palette.contains(p)),
            "scale {scale}"
        );
    }
}

#[test]
fn stones_land_where_asked_at_any_simulation_scale() {
    let mut pool = classic_pool_scaled(200, 100, 4).unwrap();
    pool.drop_stone(120, 40, 8, 100).unwrap();
    let grid = pool.solver().as_classic().unwrap();
    let w = grid.width() as usize;
    // Pixel (120, 40) is cell (30, 10); radius 8 px is 2 cells.
    assert_eq!(grid.heights()[10 * w + 30], -100);
    assert_eq!(grid.heights()[10 * w + 32], 0);
    assert_eq!(grid.heights().iter().filter(|&&h| h != 0).count(), 9);
}

#[test]
fn a_fast_swipe_leaves_no_gaps() {
    let (width, height) = (300usize, 200usize);
    for &(a, b, radius) in &[
        ([10, 10], [290, 190], 1u32),
        ([5, 150], [295, 20], 2),
        ([150, 5], [152, 195], 3),
        ([20, 100], [280, 107], 4),
    ] {
        let mut water = ClassicSolver::new(width as u32, height as u32).unwrap();
        water.swipe(&[a, b], radius, 50.0);
        let h = water.heights();
        // Every cell within radius - 1 of the segment (and the segment's own cells for r = 1,
        // which form an 8-connected line) is part of the trail.
        let (ax, ay, bx, by) = (a[0] as f64, a[1] as f64, b[0] as f64, b[1] as f64);
        let length_sq = (bx - ax).powi(2) + (by - ay).powi(2);
        let mut checked = 0;
        for y in 1..height - 1 {
            for x in 1..width - 1 {
                let (px, py) = (x as f64, y as f64);
                let t =
                    (((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length_sq).clamp(0.0, 1.0);
                let distance =
                    ((ax + t * (bx - ax) - px).powi(2) + (ay + t * (by - ay) - py).powi(2)).sqrt();
                if distance <= radius as f64 - 1.0 {
                    checked += 1;
                    assert_eq!(
                        h[y * width + x],
                        -50,
                        "gap at ({x}, {y}) on {a:?}-{b:?} r={radius}"
                    );
                }
            }
        }
        assert!(checked > 100 || radius == 1);
        // Walking the trail row by row along the major axis never finds an empty column.
        let (x0, x1) = (a[0].min(b[0]) as usize, a[0].max(b[0]) as usize);
        let (y0, y1) = (a[1].min(b[1]) as usize, a[1].max(b[1]) as usize);
        if x1 - x0 >= y1 - y0 {
            for x in x0..=x1 {
                assert!(
                    (0..height).any(|y| h[y * width + x] != 0),
                    "empty column {x}"
                );
            }
        } else {
            for y in y0..=y1 {
                assert!((0..width).any(|x| h[y * width + x] != 0), "empty row {y}");
            }
        }
    }
}

#[test]
fn rain_is_reproducible_for_a_seed() {
    let run = |seed: u64| {
        let mut pool = classic_pool(120, 90).unwrap();
        let mut rain = Rain::new(seed).with_rate(1.5).unwrap();
        let mut stones = Vec::new();
        for _ in 0..60 {
            for stone in rain.stones(120, 90) {
                stones.push(stone);
                pool.drop(stone).unwrap();
            }
            pool.step();
        }
        (
            stones,
            pool.solver().as_classic().unwrap().heights().to_vec(),
        )
    };
    let (stones_a, field_a) = run(42);
    let (stones_b, field_b) = run(42);
    let (stones_c, field_c) = run(43);
    assert!(
        stones_a.len() > 50,
        "rate 1.5 over 60 frames gave {}",
        stones_a.len()
    );
    assert_eq!(stones_a, stones_b);
    assert_eq!(field_a, field_b);
    assert_ne!(stones_a, stones_c);
    assert_ne!(field_a, field_c);
}

#[test]
fn wrong_buffer_sizes_are_errors_not_panics() {
    let mut pool = classic_pool(10, 10).unwrap();
    let src = vec![0u8; 400];
    let mut short = vec![0u8; 399];
    let error = pool.render(&Look::lit(), &src, &mut short).unwrap_err();
    assert_eq!(
        error.to_string(),
        "destination frame has 399 values, expected 400 (4 per pixel for 10x10)"
    );
    assert!(matches!(Pool::new(0, 10), Err(Error::EmptySize { .. })));
    assert!(matches!(Pool::new(20000, 10), Err(Error::TooLarge { .. })));
    assert!(
        matches!(Pool::new(16384, 16384), Err(Error::TooLarge { .. })),
        "over the cell limit"
    );
    for scale in [0, 17] {
        assert!(matches!(
            Pool::with_sim_scale(10, 10, scale),
            Err(Error::OutOfRange { name, .. }) if name == "sim scale"
        ));
    }
}

/// The classic look at a simulation scale above 1, written out from the kernels' reference
/// pieces: each grid row's gradient, bilinearly upsampled to every pixel
/// (`gradient_row_scaled`), then the nearest-pixel refraction of each image row.
fn reference_scaled_classic(pool: &Pool, src: &[u8], width: usize, height: usize) -> Vec<u8> {
    use ripples::kernels::scalar;
    let scale = pool.sim_scale();
    let (grid_width, grid_height) = (
        pool.solver().width() as usize,
        pool.solver().height() as usize,
    );
    let heights: Vec<f32> = match pool.solver().heights() {
        ripples::Heights::I16(h) => h.iter().map(|&v| f32::from(v)).collect(),
        ripples::Heights::F32(h) => h.to_vec(),
    };
    let grid_gradient: Vec<[Vec<f32>; 2]> = (0..grid_height)
        .map(|y| {
            let (mut gx, mut gy) = (vec![0.0; grid_width], vec![0.0; grid_width]);
            if y > 0 && y + 1 < grid_height {
                let row = |r: usize| &heights[r * grid_width..(r + 1) * grid_width];
                scalar::gradient_row(row(y - 1), row(y), row(y + 1), &mut gx, &mut gy);
            }
            [gx, gy]
        })
        .collect();
    let src: Vec<[u8; 4]> = src.chunks_exact(4).map(|p| p.try_into().unwrap()).collect();
    let mut frame = vec![[0u8; 4]; width * height];
    let (mut gx, mut gy) = (vec![0.0; width], vec![0.0; width]);
    for (y, dst_row) in frame.chunks_exact_mut(width).enumerate() {
        let v = ((y as f32 + 0.5) / scale as f32 - 0.5).clamp(0.0, (grid_height - 1) as f32);
        let above = v as usize;
        let below = (above + 1).min(grid_height - 1);
        let weight = v - above as f32;
        let [above_x, above_y] = &grid_gradient[above];
        let [below_x, below_y] = &grid_gradient[below];
        scalar::gradient_row_scaled(above_x, below_x, weight, scale, &mut gx);
        scalar::gradient_row_scaled(above_y, below_y, weight, scale, &mut gy);
        scalar::resampled_classic_row(
            scalar::SourceRow {
                src: &src,
                y,
                height,
            },
            [&gx, &gy],
            dst_row,
        );
    }
    frame.into_iter().flatten().collect()
}

/// The renderer upsamples each grid row once per strip and blends two per image row, instead of
/// interpolating per pixel: the frame must still be the reference, on rough water, over the
/// integer and the f32 fields, on wide and narrow frames.
#[test]
fn the_classic_look_at_coarser_scales_is_the_upsampled_gradient() {
    for (width, height) in [(1100u32, 48u32), (1400, 37), (300, 40)] {
        let src = numbered_image(width as usize, height as usize);
        for scale in [2, 3] {
            for solver in [ripples::SolverKind::Classic, ripples::SolverKind::Wave] {
                let mut pool = Pool::with_sim_scale(width, height, scale).unwrap();
                pool.set_solver(solver).unwrap();
                let mut state = 7u32;
                for _ in 0..60 {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    let (x, y) = ((state % width) as i32, ((state >> 12) % height) as i32);
                    pool.drop_stone(x, y, 3 + state % 6, 150).unwrap();
                }
                for _ in 0..6 {
                    pool.step();
                }
                let mut frame = vec![0u8; src.len()];
                pool.render(&Look::classic(), &src, &mut frame).unwrap();
                let expected =
                    reference_scaled_classic(&pool, &src, width as usize, height as usize);
                let moved = frame
                    .chunks_exact(4)
                    .zip(src.chunks_exact(4))
                    .filter(|(a, b)| a != b);
                assert!(
                    moved.count() > frame.len() / 16,
                    "{width}x{height} x{scale} {solver:?}: rough water shows"
                );
                assert!(
                    frame == expected,
                    "{width}x{height} at scale {scale}, {solver:?}"
                );
            }
        }
    }
}
