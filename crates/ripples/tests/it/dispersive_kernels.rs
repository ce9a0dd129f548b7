//! The dispersive solver's row kernels (`kernels::dispersive`) on every backend this CPU has,
//! scalar included, against the formulas their documentation states, written out here cell by
//! cell in the same order, bit for bit (any NaN counts as the same NaN): random rows of every
//! width from 0 to past several vector lengths (so every loop's tail runs, and odd widths whose
//! decimated and expanded rows end half way), values of every size, zeros of both signs,
//! subnormals, infinities and NaNs.

use ripples::SplitMix64;
use ripples::kernels::Backend;
use ripples::kernels::dispersive::{self, DispersiveCoefficients, FILTER};

fn backends() -> Vec<Backend> {
    let backends: Vec<Backend> = Backend::available().collect();
    println!("backends under test: {backends:?}");
    backends
}

fn widths() -> impl Iterator<Item = usize> {
    (0..80).chain([
        127, 128, 129, 511, 512, 513, 514, 515, 999, 1000, 1031, 2047,
    ])
}

/// A random value: mostly ordinary heights, sometimes special ones.
fn random_value(random: &mut SplitMix64) -> f32 {
    let unit = random.unit() as f32;
    match random.below(16) {
        0 => 0.0,
        1 => -0.0,
        2 => (unit - 0.5) * 1e-38, // subnormal or nearly
        3 => [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][random.below(3) as usize],
        4 => (unit - 0.5) * 1e30,
        _ => (unit - 0.5) * 400.0,
    }
}

fn random_row(random: &mut SplitMix64, width: usize) -> Vec<f32> {
    (0..width).map(|_| random_value(random)).collect()
}

/// The bits of each value, every NaN as the same one (which NaN an operation on NaNs returns is
/// unspecified, so backends may differ there, and only there).
fn bits(values: &[f32]) -> Vec<u32> {
    values
        .iter()
        .map(|v| if v.is_nan() { f32::NAN } else { *v }.to_bits())
        .collect()
}

/// `row[j]`, or 0 outside the row.
fn at(row: &[f32], j: isize) -> f32 {
    if j >= 0 && (j as usize) < row.len() {
        row[j as usize]
    } else {
        0.0
    }
}

/// `weighted_rows` with `N` rows: the weighted sum, left to right, of random rows that may be
/// longer than `out`.
fn check_weighted_rows<const N: usize>(random: &mut SplitMix64, weights: [f32; N]) {
    for backend in backends() {
        for width in widths() {
            for _ in 0..4 {
                let rows: Vec<Vec<f32>> = (0..N)
                    .map(|_| {
                        let extra = random.below(3) as usize;
                        random_row(random, width + extra)
                    })
                    .collect();
                let expected: Vec<f32> = (0..width)
                    .map(|x| {
                        let mut sum = weights[0] * rows[0][x];
                        for t in 1..N {
                            sum += weights[t] * rows[t][x];
                        }
                        sum
                    })
                    .collect();
                let mut got = random_row(random, width);
                let refs: [&[f32]; N] = std::array::from_fn(|i| rows[i].as_slice());
                dispersive::weighted_rows(backend, refs, weights, &mut got);
                assert_eq!(
                    bits(&got),
                    bits(&expected),
                    "{backend}, {N} rows, width {width}"
                );
            }
        }
    }
}

#[test]
fn weighted_rows_is_the_weighted_sum_of_the_rows_on_every_backend() {
    let mut random = SplitMix64::new(21);
    // Going down: the filter's taps.
    check_weighted_rows(&mut random, FILTER);
    // Going up: a level's weight, then the 3 or 4 expanded rows that reach a fine row.
    check_weighted_rows(&mut random, [78.555_694, 0.1875, 0.625, 0.1875]);
    check_weighted_rows(&mut random, [0.8, 0.03125, 0.46875, 0.46875, 0.03125]);
}

/// `decimate_row` with an `N`-tap filter, against its formula.
fn check_decimate_row<const N: usize>(random: &mut SplitMix64, taps: [f32; N]) {
    let half = (N / 2) as isize;
    for backend in backends() {
        for width in widths() {
            for _ in 0..4 {
                let row = random_row(random, width);
                let expected: Vec<f32> = (0..width.div_ceil(2))
                    .map(|i| {
                        let first = 2 * i as isize - half;
                        let mut sum = taps[0] * at(&row, first);
                        for (t, &tap) in taps.iter().enumerate().skip(1) {
                            sum += tap * at(&row, first + t as isize);
                        }
                        sum
                    })
                    .collect();
                let mut got = random_row(random, width.div_ceil(2));
                dispersive::decimate_row(backend, &row, taps, &mut got);
                assert_eq!(
                    bits(&got),
                    bits(&expected),
                    "{backend}, {N} taps, width {width}"
                );
            }
        }
    }
}

#[test]
fn decimate_row_filters_and_keeps_every_second_cell_on_every_backend() {
    let mut random = SplitMix64::new(22);
    check_decimate_row(&mut random, FILTER);
}

/// `expand_row` with an `N`-tap filter, against its formula.
fn check_expand_row<const N: usize>(random: &mut SplitMix64, taps: [f32; N]) {
    let half = (N / 2) as isize;
    for backend in backends() {
        for width in widths() {
            for _ in 0..4 {
                let coarse = random_row(random, width.div_ceil(2));
                let expected: Vec<f32> = (0..width as isize)
                    .map(|x| {
                        let terms: Vec<f32> = (0..N)
                            .filter(|&t| (x + half - t as isize) % 2 == 0)
                            .map(|t| (2.0 * taps[t]) * at(&coarse, (x + half - t as isize) / 2))
                            .collect();
                        terms[1..].iter().fold(terms[0], |sum, &term| sum + term)
                    })
                    .collect();
                let mut got = random_row(random, width);
                dispersive::expand_row(backend, &coarse, taps, &mut got);
                assert_eq!(
                    bits(&got),
                    bits(&expected),
                    "{backend}, {N} taps, width {width}"
                );
            }
        }
    }
}

#[test]
fn expand_row_spreads_a_coarse_row_over_a_fine_one_on_every_backend() {
    let mut random = SplitMix64::new(23);
    check_expand_row(&mut random, FILTER);
}

#[test]
fn going_up_is_the_transpose_of_going_down_times_two() {
    // y . expand(c) == 2 decimate(y) . c for random rows: what makes the solver's operator
    // symmetric, so that it conserves an energy.
    fn check<const N: usize>(random: &mut SplitMix64, taps: [f32; N]) {
        for width in [1usize, 2, 7, 8, 33, 64] {
            let fine: Vec<f32> = (0..width).map(|_| random.unit() as f32 - 0.5).collect();
            let coarse: Vec<f32> = (0..width.div_ceil(2))
                .map(|_| random.unit() as f32 - 0.5)
                .collect();
            let mut expanded = vec![0.0; width];
            dispersive::expand_row(Backend::Scalar, &coarse, taps, &mut expanded);
            let mut decimated = vec![0.0; width.div_ceil(2)];
            dispersive::decimate_row(Backend::Scalar, &fine, taps, &mut decimated);
            let dot = |a: &[f32], b: &[f32]| -> f64 {
                a.iter()
                    .zip(b)
                    .map(|(&p, &q)| f64::from(p) * f64::from(q))
                    .sum()
            };
            let (up, down) = (dot(&fine, &expanded), 2.0 * dot(&decimated, &coarse));
            assert!(
                (up - down).abs() < 1e-5,
                "{N} taps, width {width}: {up} vs {down}"
            );
        }
    }
    let mut random = SplitMix64::new(26);
    check(&mut random, FILTER);
}

#[test]
fn dispersive_step_row_is_the_leapfrog_update_on_every_backend() {
    let mut random = SplitMix64::new(25);
    for backend in backends() {
        for width in widths() {
            for _ in 0..6 {
                let coefficients = DispersiveCoefficients {
                    current: 2.0 * (1.0 - 0.01 * random.unit() as f32),
                    laplacian: 0.5 * random.unit() as f32,
                    previous: random.unit() as f32,
                };
                let smoothed: Vec<Vec<f32>> =
                    (0..3).map(|_| random_row(&mut random, width)).collect();
                let current = random_row(&mut random, width);
                let previous = random_row(&mut random, width);
                let [above, row, below] = [0, 1, 2].map(|i| smoothed[i].as_slice());
                let mut expected = previous.clone();
                for x in 1..width.saturating_sub(1) {
                    let edges = above[x] + below[x] + row[x - 1] + row[x + 1];
                    let corners = above[x - 1] + above[x + 1] + below[x - 1] + below[x + 1];
                    let lap = (4.0 * edges + corners - 20.0 * row[x]) * (1.0 / 6.0);
                    expected[x] = coefficients.current * current[x] + coefficients.laplacian * lap
                        - coefficients.previous * previous[x];
                }
                let mut got = previous.clone();
                dispersive::dispersive_step_row(
                    backend,
                    [above, row, below],
                    &current,
                    &mut got,
                    &coefficients,
                );
                // Border columns untouched, interior as the formula says.
                assert_eq!(bits(&got), bits(&expected), "{backend}, width {width}");
            }
        }
    }
}
