//! The dispersive solver's row kernels (`kernels::dispersive`) on every backend this CPU has,
//! scalar included, against the formulas their documentation states, written out here cell by
//! cell in the same order, bit for bit (any NaN counts as the same NaN): random rows of every
//! width from 0 to past several vector lengths (so every loop's tail runs, and odd widths whose
//! decimated and expanded rows end half way), values of every size, zeros of both signs,
//! subnormals, infinities and NaNs.

use ripples::SplitMix64;
use ripples::kernels::Backend;
use ripples::kernels::dispersive::{self, BINOMIAL, DispersiveCoefficients};

fn backends() -> Vec<Backend> {
    let backends: Vec<Backend> = Backend::available().collect();
    println!("backends under test: {backends:?}");
    backends
}

fn widths() -> impl Iterator<Item = usize> {
    (0..80).chain([127, 128, 129, 999, 1000])
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

#[test]
fn weighted_rows5_is_the_binomial_sum_of_five_rows_on_every_backend() {
    let mut random = SplitMix64::new(21);
    let [w0, w1, w2, w3, w4] = BINOMIAL;
    for backend in backends() {
        for width in widths() {
            for _ in 0..6 {
                // Rows may be longer than `out`: only the first `width` cells count.
                let rows: Vec<Vec<f32>> = (0..5)
                    .map(|_| {
                        let extra = random.below(3) as usize;
                        random_row(&mut random, width + extra)
                    })
                    .collect();
                let expected: Vec<f32> = (0..width)
                    .map(|x| {
                        w0 * rows[0][x]
                            + w1 * rows[1][x]
                            + w2 * rows[2][x]
                            + w3 * rows[3][x]
                            + w4 * rows[4][x]
                    })
                    .collect();
                let mut got = random_row(&mut random, width);
                let refs = [0, 1, 2, 3, 4].map(|i| rows[i].as_slice());
                dispersive::weighted_rows5(backend, refs, &mut got);
                assert_eq!(bits(&got), bits(&expected), "{backend}, width {width}");
            }
        }
    }
}

#[test]
fn decimate_row_filters_and_keeps_every_second_cell_on_every_backend() {
    let mut random = SplitMix64::new(22);
    let [w0, w1, w2, w3, w4] = BINOMIAL;
    for backend in backends() {
        for width in widths() {
            for _ in 0..6 {
                let row = random_row(&mut random, width);
                let expected: Vec<f32> = (0..width.div_ceil(2))
                    .map(|i| {
                        let j = 2 * i as isize;
                        w0 * at(&row, j - 2)
                            + w1 * at(&row, j - 1)
                            + w2 * at(&row, j)
                            + w3 * at(&row, j + 1)
                            + w4 * at(&row, j + 2)
                    })
                    .collect();
                let mut got = random_row(&mut random, width.div_ceil(2));
                dispersive::decimate_row(backend, &row, &mut got);
                assert_eq!(bits(&got), bits(&expected), "{backend}, width {width}");
            }
        }
    }
}

#[test]
fn expand_row_spreads_a_coarse_row_over_a_fine_one_on_every_backend() {
    let mut random = SplitMix64::new(23);
    for backend in backends() {
        for width in widths() {
            for _ in 0..6 {
                let coarse = random_row(&mut random, width.div_ceil(2));
                let expected: Vec<f32> = (0..width)
                    .map(|j| {
                        let m = (j / 2) as isize;
                        if j % 2 == 0 {
                            (at(&coarse, m - 1) + 6.0 * at(&coarse, m) + at(&coarse, m + 1)) * 0.125
                        } else {
                            (at(&coarse, m) + at(&coarse, m + 1)) * 0.5
                        }
                    })
                    .collect();
                let mut got = random_row(&mut random, width);
                dispersive::expand_row(backend, &coarse, &mut got);
                assert_eq!(bits(&got), bits(&expected), "{backend}, width {width}");
            }
        }
    }
}

#[test]
fn collapse_row_adds_the_weighted_band_to_the_expanded_rows_on_every_backend() {
    let mut random = SplitMix64::new(24);
    for backend in backends() {
        for width in widths() {
            for trial in 0..6 {
                let level = random_row(&mut random, width);
                let expanded: Vec<Vec<f32>> =
                    (0..3).map(|_| random_row(&mut random, width)).collect();
                let level_weight = 100.0 * random.unit() as f32;
                let weights = if trial % 2 == 0 {
                    [0.125, 0.75, 0.125]
                } else {
                    [0.5, 0.5, 0.0]
                };
                let [a, b, c] = weights;
                let expected: Vec<f32> = (0..width)
                    .map(|x| {
                        level_weight * level[x]
                            + a * expanded[0][x]
                            + b * expanded[1][x]
                            + c * expanded[2][x]
                    })
                    .collect();
                let mut got = random_row(&mut random, width);
                let refs = [0, 1, 2].map(|i| expanded[i].as_slice());
                dispersive::collapse_row(backend, &level, level_weight, refs, weights, &mut got);
                assert_eq!(bits(&got), bits(&expected), "{backend}, width {width}");
            }
        }
    }
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
