//! Living photographs: the water mask and the perspective, checked against the camera's
//! geometry and the promise that what is not water never changes.

use ripples::{Look, Perspective, PhotoLook, Pool, Rain, SolverKind};

/// A picture of deterministic noise: any displacement of the reflection, however small, changes
/// its pixels, so the changed pixels show where the water is not flat.
fn noise_picture(width: u32, height: u32) -> Vec<u8> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..width * height * 4)
        .map(|i| {
            if i % 4 == 3 {
                return 255;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            40 + (state % 176) as u8
        })
        .collect()
}

/// Pixels (as `(x, y)`) whose colour differs by more than `threshold` levels in any channel.
fn changed(a: &[u8], b: &[u8], width: u32, threshold: u8) -> Vec<(u32, u32)> {
    a.chunks_exact(4)
        .zip(b.chunks_exact(4))
        .enumerate()
        .filter(|(_, (p, q))| {
            p.iter()
                .zip(q.iter())
                .any(|(x, y)| x.abs_diff(*y) > threshold)
        })
        .map(|(i, _)| (i as u32 % width, i as u32 / width))
        .collect()
}

#[test]
fn outside_the_mask_the_picture_is_untouched_in_every_frame_and_nothing_falls_there() {
    let (width, height) = (120, 90);
    let picture = noise_picture(width, height);
    // A round pond in the middle, land around it.
    let mask: Vec<bool> = (0..width * height)
        .map(|i| {
            let (x, y) = ((i % width) as f32 - 60.0, (i / width) as f32 - 45.0);
            x * x + y * y < 35.0 * 35.0
        })
        .collect();
    for perspective in [None, Some(Perspective::new(-60.0))] {
        let mut pool = Pool::new(width, height).unwrap();
        pool.set_water(Some(&mask), perspective).unwrap();
        // A stone on land makes nothing.
        pool.drop_stone(5, 5, 6, 500).unwrap();
        pool.swipe(&[[0, 0], [119, 0]], 4, 500).unwrap();
        pool.step();
        let calm = match pool.solver().heights() {
            ripples::Heights::F32(heights) => heights.iter().all(|&h| h == 0.0),
            ripples::Heights::I16(heights) => heights.iter().all(|&h| h == 0),
        };
        assert!(calm, "a stone on land moved the water");
        let mut frame = vec![0u8; picture.len()];
        pool.drop_stone(60, 50, 5, 400).unwrap();
        pool.swipe(&[[0, 45], [119, 45]], 3, 200).unwrap();
        let mut rain = Rain::new(3).with_rate(4.0).unwrap();
        let mut moved = 0;
        for _ in 0..80 {
            let (rain_width, rain_height) = pool.rain_area();
            for stone in rain.stones(rain_width, rain_height) {
                pool.drop_rain(stone).unwrap();
            }
            pool.step();
            pool.render(&Look::default(), &picture, &mut frame).unwrap();
            for (i, water) in mask.iter().enumerate() {
                if !water {
                    assert_eq!(
                        frame[i * 4..i * 4 + 4],
                        picture[i * 4..i * 4 + 4],
                        "pixel {i}"
                    );
                }
            }
            moved = moved.max(changed(&frame, &picture, width, 8).len());
        }
        println!("{perspective:?}: at most {moved} water pixels changed by more than 8 levels");
        assert!(moved > 200, "the water barely moved: {moved} pixels");
    }
}

#[test]
fn calm_water_in_perspective_renders_the_photograph_unchanged() {
    let (width, height) = (160, 100);
    let picture = noise_picture(width, height);
    let mut pool = Pool::new(width, height).unwrap();
    pool.set_water(None, Some(Perspective::new(20.0).with_focal(150.0)))
        .unwrap();
    let mut frame = vec![0u8; picture.len()];
    for _ in 0..3 {
        pool.step();
        pool.render(&Look::default(), &picture, &mut frame).unwrap();
        assert_eq!(frame, picture);
    }
}

/// The bounding box `[x0, y0, x1, y1]` of `points` within `rows`.
fn bounding_box(points: &[(u32, u32)], rows: std::ops::Range<u32>) -> [u32; 4] {
    let inside: Vec<_> = points.iter().filter(|p| rows.contains(&p.1)).collect();
    assert!(!inside.is_empty(), "no ring between rows {rows:?}");
    [
        inside.iter().map(|p| p.0).min().unwrap(),
        inside.iter().map(|p| p.1).min().unwrap(),
        inside.iter().map(|p| p.0).max().unwrap(),
        inside.iter().map(|p| p.1).max().unwrap(),
    ]
}

#[test]
fn rings_in_perspective_have_the_shape_and_size_the_camera_predicts() {
    let (width, height) = (480, 360);
    let (horizon, focal) = (-200.0f64, 400.0f64);
    let picture = noise_picture(width, height);
    let mut pool = Pool::new(width, height).unwrap();
    pool.set_solver(SolverKind::Wave).unwrap();
    pool.set_water(
        None,
        Some(Perspective::new(horizon as f32).with_focal(focal as f32)),
    )
    .unwrap();
    pool.set_photo_look(PhotoLook {
        glints: 0.0,
        wave_height: 0.02,
        ..PhotoLook::default()
    })
    .unwrap();
    let (far_row, near_row) = (115, 285);
    let (first_row, _) = pool.plane_reach().unwrap();
    assert!(
        first_row[0] + 40.0 < f64::from(far_row),
        "reach {first_row:?}"
    );
    pool.drop_stone(240, far_row, 4, 400).unwrap();
    pool.drop_stone(240, near_row, 4, 400).unwrap();
    for _ in 0..50 {
        pool.step();
    }
    let mut frame = vec![0u8; picture.len()];
    pool.render(&Look::default(), &picture, &mut frame).unwrap();
    let moved = changed(&frame, &picture, width, 4);
    let centre_y = f64::from(height) / 2.0;
    let depression =
        |y: f64| ((y - centre_y) / focal).atan() + ((centre_y - horizon) / focal).atan();
    let pitch = ((centre_y - horizon) / focal).atan();
    // Pixels per plane unit across the picture at row y: proportional to the ray's downward part.
    let down = |y: f64| focal * pitch.sin() + (y - centre_y) * pitch.cos();
    let boxes = [
        bounding_box(&moved, 0..200),
        bounding_box(&moved, 200..height),
    ];
    let mut widths = [0.0; 2];
    for (index, ([x0, y0, x1, y1], row)) in boxes.iter().zip([far_row, near_row]).enumerate() {
        let (ring_width, ring_height) = (f64::from(x1 - x0 + 1), f64::from(y1 - y0 + 1));
        let ratio = ring_height / ring_width;
        let expected = depression(f64::from(row) + 0.5).sin();
        println!(
            "ring at row {row}: {ring_width} x {ring_height} pixels, height/width {ratio:.3}, \
             sin(theta) {expected:.3} ({:+.1}%)",
            100.0 * (ratio / expected - 1.0)
        );
        assert!((ratio / expected - 1.0).abs() < 0.15, "row {row}");
        widths[index] = ring_width;
    }
    let measured = widths[0] / widths[1];
    let predicted = down(f64::from(far_row) + 0.5) / down(f64::from(near_row) + 0.5);
    println!(
        "far/near ring widths {measured:.3}, the camera predicts {predicted:.3} ({:+.1}%)",
        100.0 * (measured / predicted - 1.0)
    );
    assert!((measured / predicted - 1.0).abs() < 0.15);
}

#[test]
fn a_horizon_below_the_water_a_focal_out_of_range_and_a_bad_mask_are_named() {
    let mut pool = Pool::new(64, 48).unwrap();
    let mask: Vec<bool> = (0..64 * 48).map(|i| i / 64 < 20).collect();
    let error = pool
        .set_water(Some(&mask), Some(Perspective::new(30.0)))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("horizon 30") && error.contains("below all the water"),
        "{error}"
    );
    let error = pool
        .set_water(None, Some(Perspective::new(10.0).with_focal(1e9)))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("focal length") && error.contains("1000000000"),
        "{error}"
    );
    let error = pool
        .set_water(Some(&mask[1..]), None)
        .unwrap_err()
        .to_string();
    assert!(error.contains("water mask"), "{error}");
    let error = pool
        .set_water(Some(&vec![false; 64 * 48]), None)
        .unwrap_err()
        .to_string();
    assert!(error.contains("no water"), "{error}");
    // The pool is left as it was: all water, seen from above.
    assert!(!pool.in_perspective() && pool.is_water(0, 0));
}
