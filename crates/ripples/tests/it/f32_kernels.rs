//! The `f32` kernels of the physical solvers on every backend against the scalar one, bit for
//! bit (any NaN counts as the same NaN), on random rows: every width from 0 to past several vector lengths (so each loop's tail
//! runs), values of every size, zeros of both signs, values around the spring's flush
//! threshold, subnormals, infinities and NaNs.

use ripples::SplitMix64;
use ripples::kernels::f32_rows::{self, RowValues, WaveCoefficients};
use ripples::kernels::{self, Backend, GridColumns};

fn simd_backends() -> Vec<Backend> {
    let backends: Vec<Backend> = Backend::available()
        .filter(|&b| b != Backend::Scalar)
        .collect();
    println!("backends under test: {backends:?}");
    backends
}

fn widths() -> impl Iterator<Item = usize> {
    (0..80).chain([127, 128, 129, 1000])
}

/// A random value: mostly ordinary heights, sometimes special ones.
fn random_value(random: &mut SplitMix64) -> f32 {
    let unit = random.unit() as f32;
    match random.below(16) {
        0 => 0.0,
        1 => -0.0,
        2 => (unit - 0.5) * 4e-12, // around the flush threshold
        3 => (unit - 0.5) * 1e-38, // subnormal or nearly
        4 => [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][random.below(3) as usize],
        5 => (unit - 0.5) * 1e30,
        _ => (unit - 0.5) * 400.0,
    }
}

fn random_row(random: &mut SplitMix64, width: usize) -> Vec<f32> {
    (0..width).map(|_| random_value(random)).collect()
}

/// A row of values in `[0, 1]`, as spring coefficients are.
fn random_coefficients(random: &mut SplitMix64, width: usize) -> Vec<f32> {
    (0..width).map(|_| random.unit() as f32).collect()
}

/// The bits of each value, every NaN as the same one: which NaN an operation on a NaN returns
/// is unspecified in Rust (x86 returns its first operand's, and the compiler may swap the
/// operands of an addition), so backends may differ there, and only there.
fn bits(values: &[f32]) -> Vec<u32> {
    values
        .iter()
        .map(|v| if v.is_nan() { f32::NAN } else { *v }.to_bits())
        .collect()
}

#[test]
fn wave_step_row_matches_the_scalar_kernel_on_every_backend() {
    let mut random = SplitMix64::new(11);
    for backend in simd_backends() {
        for width in widths() {
            for trial in 0..10 {
                let coefficients = WaveCoefficients {
                    centre: random_value(&mut random),
                    edge: random.unit() as f32,
                    corner: random.unit() as f32 * 0.2,
                    previous: if trial == 0 {
                        1.0
                    } else {
                        random.unit() as f32
                    },
                };
                let above = random_row(&mut random, width);
                let row = random_row(&mut random, width);
                let below = random_row(&mut random, width);
                let previous = random_row(&mut random, width);
                let mut expected = previous.clone();
                let rows = [&above[..], &row, &below];
                f32_rows::wave_step_row(Backend::Scalar, rows, &mut expected, &coefficients);
                let mut got = previous.clone();
                f32_rows::wave_step_row(backend, rows, &mut got, &coefficients);
                assert_eq!(bits(&got), bits(&expected), "{backend}, width {width}");
                if width >= 3 {
                    assert_eq!(got[0].to_bits(), previous[0].to_bits(), "border untouched");
                }
            }
        }
    }
}

#[test]
fn spring_row_matches_the_scalar_kernel_on_every_backend() {
    let mut random = SplitMix64::new(12);
    for backend in simd_backends() {
        for width in widths() {
            for trial in 0..8 {
                let heights = random_row(&mut random, width);
                let velocities = random_row(&mut random, width);
                let k_map = random_coefficients(&mut random, width);
                let m_map = random_coefficients(&mut random, width);
                let (k, m) = (random.unit() as f32, random.unit() as f32);
                let (stiffness, viscosity) = match trial % 4 {
                    0 => (RowValues::Uniform(k), RowValues::Uniform(m)),
                    1 => (RowValues::Uniform(k), RowValues::PerCell(&m_map)),
                    2 => (RowValues::PerCell(&k_map), RowValues::Uniform(m)),
                    _ => (RowValues::PerCell(&k_map), RowValues::PerCell(&m_map)),
                };
                let run = |backend| {
                    let (mut h, mut w) = (vec![7.0; width], vec![7.0; width]);
                    let row = [&heights[..], &velocities];
                    f32_rows::spring_row(backend, row, stiffness, viscosity, [&mut h, &mut w]);
                    (bits(&h), bits(&w))
                };
                let expected = run(Backend::Scalar);
                assert_eq!(run(backend), expected, "{backend}, width {width}");
                // The flush: no subnormal comes out of the springs.
                let (h, w) = expected;
                let all = h.iter().chain(&w).map(|&b| f32::from_bits(b));
                assert!(all.clone().all(|v| !v.is_subnormal()));
            }
        }
    }
}

#[test]
fn spreading_rows_match_the_scalar_kernel_on_every_backend() {
    let mut random = SplitMix64::new(13);
    for backend in simd_backends() {
        for width in widths() {
            for trial in 0..8 {
                let spread = if trial == 0 {
                    0.025
                } else {
                    random.unit() as f32 * 0.25
                };
                let above = random_row(&mut random, width);
                let heights = random_row(&mut random, width);
                let below = random_row(&mut random, width);
                let velocities = random_row(&mut random, width);
                let along_x = |backend| {
                    let (mut h, mut w) = (vec![7.0; width], vec![7.0; width]);
                    f32_rows::spread_x_row(
                        backend,
                        spread,
                        [&heights, &velocities],
                        [&mut h, &mut w],
                    );
                    (bits(&h), bits(&w))
                };
                assert_eq!(
                    along_x(backend),
                    along_x(Backend::Scalar),
                    "along x: {backend}, width {width}"
                );
                for (has_above, has_below) in [(true, true), (true, false), (false, true)] {
                    let along_y = |backend| {
                        let (mut h, mut w) = (vec![7.0; width], vec![7.0; width]);
                        let givers = [
                            has_above.then_some(&above[..]),
                            has_below.then_some(&below[..]),
                        ];
                        let row = [&heights[..], &velocities];
                        f32_rows::spread_y_row(backend, spread, givers, row, [&mut h, &mut w]);
                        (bits(&h), bits(&w))
                    };
                    assert_eq!(
                        along_y(backend),
                        along_y(Backend::Scalar),
                        "along y: {backend}, width {width}, above {has_above}, below {has_below}"
                    );
                }
            }
        }
    }
}

#[test]
fn spreading_along_x_is_the_seed_loop() {
    // The seed's two loops over one row, literally, against the kernel on every backend: every
    // cell of 1..width-1 gives to both neighbours, velocities first, heights second.
    let mut random = SplitMix64::new(14);
    for backend in Backend::available() {
        for width in 0..40 {
            let spread = random.unit() as f32 * 0.25;
            let mut heights: Vec<f32> = (0..width)
                .map(|i| {
                    if i % 7 == 1 {
                        -0.0
                    } else {
                        (random.unit() as f32 - 0.5) * 200.0
                    }
                })
                .collect();
            let mut velocities = random_row(&mut random, width);
            let (mut h, mut w) = (vec![0.0; width], vec![0.0; width]);
            f32_rows::spread_x_row(backend, spread, [&heights, &velocities], [&mut h, &mut w]);
            let (mut lp, mut rp) = (vec![0.0f32; width], vec![0.0f32; width]);
            for i in 1..width.saturating_sub(1) {
                lp[i] = spread * (heights[i] - heights[i - 1]);
                velocities[i - 1] += lp[i];
                rp[i] = spread * (heights[i] - heights[i + 1]);
                velocities[i + 1] += rp[i];
            }
            for i in 1..width.saturating_sub(1) {
                heights[i - 1] += lp[i];
                heights[i + 1] += rp[i];
            }
            assert_eq!(bits(&h), bits(&heights), "{backend}, width {width}");
            assert_eq!(bits(&w), bits(&velocities), "{backend}, width {width}");
        }
    }
}

/// Image and grid widths as the renderer pairs them (`ceil(image / scale)` cells), and a few
/// that it never pairs, which the kernels must handle alike.
fn upsampling_shapes() -> impl Iterator<Item = (usize, usize, u32)> {
    let paired = (1..=16u32).flat_map(|scale| {
        (0..70)
            .chain([127, 128, 129, 1000])
            .map(move |width: usize| (width, width.div_ceil(scale as usize), scale))
    });
    let unpaired = [
        (40, 3, 2),
        (40, 40, 4),
        (9, 30, 3),
        (5, 1, 7),
        (100, 13, 16),
    ];
    paired.chain(unpaired)
}

#[test]
fn upsample_row_matches_the_scalar_kernel_on_every_backend() {
    let mut random = SplitMix64::new(17);
    for backend in simd_backends() {
        for (image_width, grid_width, scale) in upsampling_shapes() {
            let columns = GridColumns::new(image_width, grid_width, scale);
            let row = random_row(&mut random, grid_width);
            let mut expected = vec![7.0; image_width];
            kernels::scalar::upsample_row(&row, &columns, &mut expected);
            let mut got = vec![7.0; image_width];
            kernels::upsample_row(backend, &row, &columns, &mut got);
            assert_eq!(
                bits(&got),
                bits(&expected),
                "{backend}, {image_width} px over {grid_width} cells at scale {scale}"
            );
        }
    }
}

#[test]
fn lerp_rows_matches_the_scalar_kernel_on_every_backend() {
    let mut random = SplitMix64::new(18);
    for backend in simd_backends() {
        for width in widths() {
            for weight in [
                0.0,
                0.25,
                random.unit() as f32,
                1.0,
                random_value(&mut random),
            ] {
                let top = random_row(&mut random, width);
                let bottom = random_row(&mut random, width);
                let mut expected = vec![0.0; width];
                f32_rows::lerp_rows(Backend::Scalar, &top, &bottom, weight, &mut expected);
                let mut got = vec![0.0; width];
                f32_rows::lerp_rows(backend, &top, &bottom, weight, &mut got);
                assert_eq!(bits(&got), bits(&expected), "{backend}, width {width}");
            }
        }
    }
}

/// The renderer upsamples each grid row along x once and blends two of them per image row; that
/// is the bilinear upsampling of `gradient_row_scaled`, bit for bit, on every backend.
#[test]
fn upsampled_rows_blended_are_the_bilinear_upsampling() {
    let mut random = SplitMix64::new(19);
    let mut backends = simd_backends();
    backends.push(Backend::Scalar);
    for backend in backends {
        for (image_width, grid_width, scale) in upsampling_shapes() {
            let columns = GridColumns::new(image_width, grid_width, scale);
            let [above, below] = [(); 2].map(|_| random_row(&mut random, grid_width));
            let fy = random.unit() as f32;
            let mut expected = vec![0.0; image_width];
            kernels::gradient_row_scaled(&above, &below, fy, scale, &mut expected);
            let [mut top, mut bottom, mut got] = [(); 3].map(|_| vec![0.0; image_width]);
            kernels::upsample_row(backend, &above, &columns, &mut top);
            kernels::upsample_row(backend, &below, &columns, &mut bottom);
            f32_rows::lerp_rows(backend, &top, &bottom, fy, &mut got);
            assert_eq!(
                bits(&got),
                bits(&expected),
                "{backend}, {image_width} px over {grid_width} cells at scale {scale}"
            );
        }
    }
}
