//! The natural look's kernels on every SIMD backend against the scalar reference, bit for bit.
//!
//! The rows are random in the ways that break vector code: every width from 1 to past the
//! vectors' and the chunks' lengths (so every loop's tail runs, and rows cross chunk ends),
//! images 1 to 3 pixels on a side, positions far outside the image, NaN and infinite heights and
//! positions, slopes from flat to near vertical, and looks with every parameter at the edge of
//! its range.

use ripples::kernels::Backend;
use ripples::kernels::natural::{
    self, CHUNK, COLUMN_PAD, NaturalLook, PixelOrder, ROW_PAD, SKY_SIDE, SurfaceRows,
};
use ripples::{NaturalSettings, SplitMix64};

use super::{random_image, simd_backends};

/// A random value for a height, a position or a surface quantity: ordinary, tiny, huge or not
/// finite.
fn random_value(random: &mut SplitMix64, scale: f32) -> f32 {
    match random.below(16) {
        0 => [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e30,
            -1e30,
            -0.0,
            1e-40,
            3.4e38,
        ][random.below(8) as usize],
        1 => 0.0,
        _ => (random.unit() as f32 - 0.5) * 2.0 * scale,
    }
}

fn random_row(random: &mut SplitMix64, len: usize, scale: f32) -> Vec<f32> {
    (0..len).map(|_| random_value(random, scale)).collect()
}

fn random_look(random: &mut SplitMix64, trial: usize) -> NaturalLook {
    let edge = trial % 5 == 4;
    let parameters = NaturalSettings {
        // 1: the wave height as drawn below.
        presence: 1.0,
        depth: if edge {
            1024.0
        } else {
            random.unit() as f32 * 200.0
        },
        caustics: if edge { 4.0 } else { random.unit() as f32 },
        sun_elevation: if edge {
            1.0
        } else {
            1.0 + random.unit() as f32 * 89.0
        },
        sun_azimuth: random.unit() as f32 * 720.0 - 360.0,
        water_colour: [0, 1, 2].map(|_| random.below(256) as u8),
        clarity: if edge {
            1.0
        } else {
            1.0 + random.unit() as f32 * 2000.0
        },
        wave_height: if edge {
            16.0
        } else {
            random.unit() as f32 * 0.5
        },
        // Dispersion in two trials of three (the third samples the floor once).
        dispersion: match trial % 3 {
            0 => 0.0,
            _ if edge => 50.0,
            _ => random.unit() as f32 * 30.0,
        },
    };
    let scale = 1 + random.below(4);
    let order = if random.below(2) == 0 {
        PixelOrder::Rgba
    } else {
        PixelOrder::Bgra
    };
    NaturalLook::new(&parameters, scale, order)
}

/// Widths worth testing: every small one, and some that cross vector and chunk ends.
fn widths() -> impl Iterator<Item = usize> {
    (1..40).chain([
        63,
        64,
        65,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        CHUNK + 9,
        3 * CHUNK - 5,
    ])
}

#[test]
fn bilinear_row_matches_the_reference_on_every_backend() {
    let mut random = SplitMix64::new(11);
    let sizes = (1..12)
        .flat_map(|w| [1, 2, 3, 9].map(move |h| (w, h)))
        .chain([(SKY_SIDE, SKY_SIDE), (300, 40)]);
    for backend in simd_backends() {
        for (width, height) in sizes.clone() {
            let src = random_image(&mut random, width * height);
            for count in [0, 1, 3, 4, 7, 8, 9, 17, 40] {
                let reach = (width.max(height) + 6) as f32;
                let mut xs = random_row(&mut random, count, reach);
                let ys = random_row(&mut random, count, reach);
                // Exactly on the last column and row, where the right corner is the pixel itself.
                if count > 2 {
                    xs[1] = width as f32 - 1.0;
                    xs[2] = width as f32 - 1.0 + 1.0 / 256.0;
                }
                let mut expected = vec![[0u8; 4]; count];
                natural::bilinear_row(&src, width, height, &xs, &ys, &mut expected);
                let mut got = vec![[7u8; 4]; count];
                natural::bilinear_row_on(backend, &src, width, height, &xs, &ys, &mut got);
                assert_eq!(
                    got, expected,
                    "{backend}, {width}x{height}, {count} positions"
                );
            }
        }
    }
}

#[test]
fn nearest_row_matches_the_reference_on_every_backend() {
    let mut random = SplitMix64::new(14);
    for backend in simd_backends() {
        for side in [1, 2, 3, 5, 16, SKY_SIDE] {
            let table = random_image(&mut random, side * side);
            for count in [0, 1, 3, 4, 7, 8, 9, 17, 40] {
                let reach = side as f32 + 4.0;
                let xs = random_row(&mut random, count, reach);
                let ys = random_row(&mut random, count, reach);
                let mut expected = vec![[0u8; 4]; count];
                natural::nearest_row(&table, side, &xs, &ys, &mut expected);
                let mut got = vec![[7u8; 4]; count];
                natural::nearest_row_on(backend, &table, side, &xs, &ys, &mut got);
                assert_eq!(got, expected, "{backend}, side {side}, {count} positions");
            }
        }
    }
}

/// A sky table of random texels (any table must give the same result on every backend).
fn random_sky(random: &mut SplitMix64) -> Vec<[u8; 4]> {
    random_image(random, SKY_SIDE * SKY_SIDE)
}

#[test]
fn natural_render_row_matches_the_reference_on_every_backend() {
    let mut random = SplitMix64::new(12);
    for backend in simd_backends() {
        for (trial, width) in widths().enumerate() {
            let look = random_look(&mut random, trial);
            let sky = random_sky(&mut random);
            for height in [1, 2, 3, 17] {
                let src = random_image(&mut random, width * height);
                let y = random.below(height as u32) as usize;
                // Smoothed rows are 256 times the heights; slopes of a few pixels per pixel and
                // beyond come from differences of a few hundred with the looks above.
                let spread = [30.0, 3000.0, 3e5][random.below(3) as usize];
                let padded = width + 2 * ROW_PAD;
                let [up, mid, down] = [(); 3].map(|_| random_row(&mut random, padded, spread));
                let surface = SurfaceRows::Smoothed {
                    up: &up,
                    mid: &mid,
                    down: &down,
                };
                check_row(backend, y, height, surface, &src, &look, &sky, width);

                for scale in [2, 3, 5] {
                    let grid_width = width.div_ceil(scale as usize) + 2 * ROW_PAD;
                    let rows: [Vec<f32>; 3] = std::array::from_fn(|k| {
                        random_row(&mut random, grid_width, if k < 2 { 2.0 } else { 4.0 })
                    });
                    let surface = SurfaceRows::Grid {
                        rows: std::array::from_fn(|k| &rows[k][..]),
                        scale,
                    };
                    check_row(backend, y, height, surface, &src, &look, &sky, width);
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn check_row(
    backend: Backend,
    y: usize,
    height: usize,
    surface: SurfaceRows<'_>,
    src: &[[u8; 4]],
    look: &NaturalLook,
    sky: &[[u8; 4]],
    width: usize,
) {
    let mut expected = vec![[0u8; 4]; width];
    natural::natural_render_row(
        Backend::Scalar,
        y,
        height,
        surface,
        src,
        &mut expected,
        look,
        sky,
    );
    let mut got = vec![[7u8; 4]; width];
    natural::natural_render_row(backend, y, height, surface, src, &mut got, look, sky);
    if got != expected {
        let x = (0..width).find(|&x| got[x] != expected[x]).unwrap();
        panic!(
            "{backend}, width {width}, row {y} of {height}, {}: pixel {x} is {:?}, the reference {:?}",
            match surface {
                SurfaceRows::Smoothed { .. } => "smoothed rows".to_string(),
                SurfaceRows::Grid { scale, .. } => format!("grid at scale {scale}"),
            },
            got[x],
            expected[x]
        );
    }
}

#[test]
fn smoothing_surface_and_row_blends_match_the_reference_on_every_backend() {
    let mut random = SplitMix64::new(13);
    for backend in simd_backends() {
        for (trial, width) in widths().enumerate() {
            let look = random_look(&mut random, trial);
            // The classic solver's integer heights, then the f32 solvers'.
            let rows: [Vec<i16>; 5] =
                std::array::from_fn(|_| (0..width).map(|_| random.next_u64() as i16).collect());
            let mut expected = vec![0.0; width + 2 * COLUMN_PAD];
            natural::smooth_columns(
                Backend::Scalar,
                rows.each_ref().map(|r| &r[..]),
                &mut expected,
            );
            let mut got = vec![1.0; width + 2 * COLUMN_PAD];
            natural::smooth_columns(backend, rows.each_ref().map(|r| &r[..]), &mut got);
            assert_bits_eq(&got, &expected, backend, "smooth_columns (i16)", width);

            let rows: [Vec<f32>; 5] = std::array::from_fn(|_| random_row(&mut random, width, 1e4));
            natural::smooth_columns(
                Backend::Scalar,
                rows.each_ref().map(|r| &r[..]),
                &mut expected,
            );
            natural::smooth_columns(backend, rows.each_ref().map(|r| &r[..]), &mut got);
            assert_bits_eq(&got, &expected, backend, "smooth_columns (f32)", width);

            let mut expected_row = vec![0.0; width + 2 * ROW_PAD];
            natural::smooth_row(Backend::Scalar, &expected, &mut expected_row);
            let mut got_row = vec![1.0; width + 2 * ROW_PAD];
            natural::smooth_row(backend, &expected, &mut got_row);
            assert_bits_eq(&got_row, &expected_row, backend, "smooth_row", width);

            let padded = width + 2 * ROW_PAD;
            let [up, mid, down] = [(); 3].map(|_| random_row(&mut random, padded, 1e5));
            let mut expected: [Vec<f32>; 3] = std::array::from_fn(|_| vec![0.0; padded]);
            let mut got: [Vec<f32>; 3] = std::array::from_fn(|_| vec![1.0; padded]);
            natural::surface_row(
                Backend::Scalar,
                &up,
                &mid,
                &down,
                &look,
                expected.each_mut().map(|r| &mut r[..]),
            );
            natural::surface_row(
                backend,
                &up,
                &mid,
                &down,
                &look,
                got.each_mut().map(|r| &mut r[..]),
            );
            for k in 0..3 {
                assert_bits_eq(&got[k], &expected[k], backend, "surface_row", width);
            }

            let weight = random.unit() as f32;
            let above: [Vec<f32>; 3] =
                std::array::from_fn(|_| random_row(&mut random, padded, 3.0));
            let below: [Vec<f32>; 3] =
                std::array::from_fn(|_| random_row(&mut random, padded, 3.0));
            let pieces = |rows: &[Vec<f32>; 3]| -> [Vec<f32>; 3] { rows.clone() };
            let (above, below) = (pieces(&above), pieces(&below));
            natural::lerp_rows(
                Backend::Scalar,
                above.each_ref().map(|r| &r[..]),
                below.each_ref().map(|r| &r[..]),
                weight,
                expected.each_mut().map(|r| &mut r[..]),
            );
            natural::lerp_rows(
                backend,
                above.each_ref().map(|r| &r[..]),
                below.each_ref().map(|r| &r[..]),
                weight,
                got.each_mut().map(|r| &mut r[..]),
            );
            for k in 0..3 {
                assert_bits_eq(&got[k], &expected[k], backend, "lerp_rows", width);
            }
        }
    }
}

/// Equal bit for bit, except that any NaN equals any NaN (Rust leaves NaN payloads unspecified).
fn assert_bits_eq(got: &[f32], expected: &[f32], backend: Backend, what: &str, width: usize) {
    for (x, (a, b)) in got.iter().zip(expected).enumerate() {
        assert!(
            a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            "{backend}, {what}, width {width}: element {x} is {a:e}, the reference {b:e}"
        );
    }
    assert_eq!(got.len(), expected.len());
}
