//! Row kernels of the dispersive solver's pyramid (see `dispersive.rs`), written once in plain
//! Rust and compiled once per backend, as [`super::float`] does and for the same reasons: every
//! loop but [`decimate_row`] is element-wise, so the compiler vectorises it and the vector code
//! performs the plain loop's operations in the same order on each lane (no contraction into
//! fused multiply-adds, no reassociation), bit for bit equal to the baseline build.
//!
//! The pyramid filter is the 5-tap binomial `[1, 4, 6, 4, 1] / 16` along each axis; going down
//! a level filters and keeps every second cell, going up is the exact transpose of going down
//! times 2 per axis, with cells outside the grid taken as 0 in both directions (so the whole
//! operator is symmetric and the solver conserves an energy).

use super::Backend;

macro_rules! dispatch {
    ($backend:ident, $name:ident($($arg:expr),*)) => {
        match $backend {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Backend::Avx512` is only taken once `is_available` confirmed AVX-512 F,
            // BW, VL, DQ and AVX2 on this CPU.
            Backend::Avx512 if $backend.is_available() => unsafe { avx512::$name($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Backend::Avx2` is only taken once `is_available` confirmed AVX2.
            Backend::Avx2 if $backend.is_available() => unsafe { avx2::$name($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for SSE4.1.
            Backend::Sse41 if $backend.is_available() => unsafe { sse41::$name($($arg),*) },
            _ => plain::$name($($arg),*),
        }
    };
}

/// Weights of the 5-tap binomial filter, `[1, 4, 6, 4, 1] / 16`.
pub const BINOMIAL: [f32; 5] = [1.0 / 16.0, 4.0 / 16.0, 6.0 / 16.0, 4.0 / 16.0, 1.0 / 16.0];

/// `out[x] = w0 r0[x] + w1 r1[x] + w2 r2[x] + w3 r3[x] + w4 r4[x]` (left to right): the vertical
/// half of going down a level, the five fine rows around a coarse row weighted by [`BINOMIAL`].
/// A row outside the grid is passed as a row of zeros. `out` sets the width.
#[inline]
pub fn weighted_rows5(backend: Backend, rows: [&[f32]; 5], out: &mut [f32]) {
    dispatch!(backend, weighted_rows5(rows, out))
}

/// The horizontal half of going down a level: `out[i] = sum_t BINOMIAL[t] * row[2i + t - 2]`
/// (t = 0..5, left to right), cells outside `row` taken as 0. `out` must have
/// `(row.len() + 1) / 2` cells.
#[inline]
pub fn decimate_row(backend: Backend, row: &[f32], out: &mut [f32]) {
    dispatch!(backend, decimate_row(row, out))
}

/// The horizontal half of going up a level, the transpose of [`decimate_row`] times 2: a coarse
/// row spread over a fine row of `out.len()` cells,
/// `out[2m] = (c[m-1] + 6 c[m] + c[m+1]) / 8` and `out[2m+1] = (c[m] + c[m+1]) / 2`, coarse cells
/// outside `coarse` taken as 0. `coarse` must have `(out.len() + 1) / 2` cells.
#[inline]
pub fn expand_row(backend: Backend, coarse: &[f32], out: &mut [f32]) {
    dispatch!(backend, expand_row(coarse, out))
}

/// `out[x] = level_weight * level[x] + a * ra[x] + b * rb[x] + c * rc[x]` (left to right): the
/// vertical half of going up a level (the three expanded coarse rows that reach a fine row, with
/// the weights of [`expand_row`] along y) added to this level's weighted band.
#[inline]
pub fn collapse_row(
    backend: Backend,
    level: &[f32],
    level_weight: f32,
    expanded: [&[f32]; 3],
    weights: [f32; 3],
    out: &mut [f32],
) {
    dispatch!(
        backend,
        collapse_row(level, level_weight, expanded, weights, out)
    )
}

/// The constants of one dispersive step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DispersiveCoefficients {
    /// Weight of the current height: `2 keep`.
    pub current: f32,
    /// Weight of the smoothed field's 9-point Laplacian: `keep * gravity`.
    pub laplacian: f32,
    /// Weight of the previous height: `keep^2`.
    pub previous: f32,
}

/// One interior row of the dispersive leapfrog step. `above`, `row` and `below` are rows `y-1`,
/// `y`, `y+1` of the smoothed field `S u`; `current` is row `y` of the heights; `out` is row `y`
/// of the previous heights, overwritten with the next ones. For `1 <= x <= width - 2`:
///
/// ```text
/// lap    = (4 (above[x] + below[x] + row[x-1] + row[x+1])
///           + above[x-1] + above[x+1] + below[x-1] + below[x+1] - 20 row[x]) / 6
/// out[x] = current * u[x] + laplacian * lap - previous * out[x]
/// ```
///
/// Border columns are not written; `out` sets the width.
#[inline]
pub fn dispersive_step_row(
    backend: Backend,
    smoothed: [&[f32]; 3],
    current: &[f32],
    out: &mut [f32],
    coefficients: &DispersiveCoefficients,
) {
    dispatch!(
        backend,
        dispersive_step_row(smoothed, current, out, coefficients)
    )
}

pub(super) mod plain {
    use super::{BINOMIAL, DispersiveCoefficients};

    #[inline(always)]
    pub(super) fn weighted_rows5(rows: [&[f32]; 5], out: &mut [f32]) {
        let width = out.len();
        let [r0, r1, r2, r3, r4] = rows.map(|r| &r[..width]);
        let [w0, w1, w2, w3, w4] = BINOMIAL;
        for x in 0..width {
            out[x] = w0 * r0[x] + w1 * r1[x] + w2 * r2[x] + w3 * r3[x] + w4 * r4[x];
        }
    }

    #[inline(always)]
    pub(super) fn decimate_row(row: &[f32], out: &mut [f32]) {
        let n = row.len();
        let [w0, w1, w2, w3, w4] = BINOMIAL;
        let at = |j: isize| -> f32 {
            if j >= 0 && (j as usize) < n {
                row[j as usize]
            } else {
                0.0
            }
        };
        // The edges read outside the row; the middle (2i - 2 >= 0, 2i + 2 < n) does not.
        for (i, cell) in out.iter_mut().enumerate() {
            let j = 2 * i as isize;
            *cell = if j >= 2 && ((j + 2) as usize) < n {
                let c = j as usize;
                w0 * row[c - 2] + w1 * row[c - 1] + w2 * row[c] + w3 * row[c + 1] + w4 * row[c + 2]
            } else {
                w0 * at(j - 2) + w1 * at(j - 1) + w2 * at(j) + w3 * at(j + 1) + w4 * at(j + 2)
            };
        }
    }

    #[inline(always)]
    pub(super) fn expand_row(coarse: &[f32], out: &mut [f32]) {
        let m = coarse.len();
        let at = |i: isize| -> f32 {
            if i >= 0 && (i as usize) < m {
                coarse[i as usize]
            } else {
                0.0
            }
        };
        for (j, cell) in out.iter_mut().enumerate() {
            let i = (j / 2) as isize;
            *cell = if j % 2 == 0 {
                (at(i - 1) + 6.0 * at(i) + at(i + 1)) * 0.125
            } else {
                (at(i) + at(i + 1)) * 0.5
            };
        }
    }

    #[inline(always)]
    pub(super) fn collapse_row(
        level: &[f32],
        level_weight: f32,
        expanded: [&[f32]; 3],
        weights: [f32; 3],
        out: &mut [f32],
    ) {
        let width = out.len();
        let level = &level[..width];
        let [ra, rb, rc] = expanded.map(|r| &r[..width]);
        let [a, b, c] = weights;
        for x in 0..width {
            out[x] = level_weight * level[x] + a * ra[x] + b * rb[x] + c * rc[x];
        }
    }

    #[inline(always)]
    pub(super) fn dispersive_step_row(
        smoothed: [&[f32]; 3],
        current: &[f32],
        out: &mut [f32],
        coefficients: &DispersiveCoefficients,
    ) {
        let width = out.len();
        if width < 3 {
            return;
        }
        let [above, row, below] = smoothed.map(|r| &r[..width]);
        let current = &current[..width];
        let DispersiveCoefficients {
            current: weight_current,
            laplacian,
            previous,
        } = *coefficients;
        for x in 1..width - 1 {
            let edges = above[x] + below[x] + row[x - 1] + row[x + 1];
            let corners = above[x - 1] + above[x + 1] + below[x - 1] + below[x + 1];
            let lap = (4.0 * edges + corners - 20.0 * row[x]) * (1.0 / 6.0);
            out[x] = weight_current * current[x] + laplacian * lap - previous * out[x];
        }
    }
}

/// Compiles every kernel body with the instructions of one x86-64 backend.
macro_rules! backend_versions {
    ($module:ident, $feature:literal) => {
        #[cfg(target_arch = "x86_64")]
        mod $module {
            use super::{DispersiveCoefficients, plain};

            #[target_feature(enable = $feature)]
            pub(super) fn weighted_rows5(rows: [&[f32]; 5], out: &mut [f32]) {
                plain::weighted_rows5(rows, out)
            }

            #[target_feature(enable = $feature)]
            pub(super) fn decimate_row(row: &[f32], out: &mut [f32]) {
                plain::decimate_row(row, out)
            }

            #[target_feature(enable = $feature)]
            pub(super) fn expand_row(coarse: &[f32], out: &mut [f32]) {
                plain::expand_row(coarse, out)
            }

            #[target_feature(enable = $feature)]
            pub(super) fn collapse_row(
                level: &[f32],
                level_weight: f32,
                expanded: [&[f32]; 3],
                weights: [f32; 3],
                out: &mut [f32],
            ) {
                plain::collapse_row(level, level_weight, expanded, weights, out)
            }

            #[target_feature(enable = $feature)]
            pub(super) fn dispersive_step_row(
                smoothed: [&[f32]; 3],
                current: &[f32],
                out: &mut [f32],
                coefficients: &DispersiveCoefficients,
            ) {
                plain::dispersive_step_row(smoothed, current, out, coefficients)
            }
        }
    };
}

backend_versions!(avx512, "avx512f,avx512bw,avx512vl,avx512dq,avx2");
backend_versions!(avx2, "avx2");
backend_versions!(sse41, "sse4.1");
