//! Row kernels of the dispersive solver's pyramid (see `dispersive.rs`), written once in plain
//! Rust and compiled once per backend, as [`super::f32_rows`] does and for the same reasons: every
//! loop is element-wise ([`decimate_row`] splits its window's even and odd cells first), so the
//! compiler vectorises it and the vector code performs the plain loop's operations in the same
//! order on each lane (no contraction into fused multiply-adds, no reassociation), bit for bit
//! equal to the baseline build.
//!
//! The pyramid's filter is the 7-tap binomial `[1, 6, 15, 20, 15, 6, 1] / 64` ([`FILTER`]) along
//! each axis; going down a level filters and keeps every second cell, going up is the exact
//! transpose of going down times 2 per axis, with cells outside the grid taken as 0 in both
//! directions (so the whole operator is symmetric and the solver conserves an energy). The
//! kernels take the taps as an argument (a const-generic count), so the filter is chosen in one
//! place, `dispersive.rs` explains the choice, and the tests check the kernels as written.

use super::Backend;

/// The pyramid's filter, the 7-tap binomial `[1, 6, 15, 20, 15, 6, 1] / 64`.
pub const FILTER: [f32; 7] = [
    1.0 / 64.0,
    6.0 / 64.0,
    15.0 / 64.0,
    20.0 / 64.0,
    15.0 / 64.0,
    6.0 / 64.0,
    1.0 / 64.0,
];

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

compiled_per_backend! {
    /// `out[x] = weights[0] rows[0][x] + weights[1] rows[1][x] + ...` (left to right). Going down a
    /// level, the filter's rows around a coarse row weighted by its taps (a row outside the grid
    /// passed as a row of zeros); going up, a level's band (weight: the level's weight) followed by
    /// the expanded coarse rows that reach a fine row (weights: the filter's taps times 2, as
    /// [`expand_row`] along x). Rows may be longer than `out`, which sets the width.
    pub fn weighted_rows[const N: usize](rows: [&[f32]; N], weights: [f32; N], out: &mut [f32]);

    /// The horizontal half of going down a level with an `N`-tap filter (`N` odd, `h = N / 2`):
    /// `out[i] = sum_t taps[t] * row[2i + t - h]` (t = 0..N, left to right), cells outside `row`
    /// taken as 0. `out` must have `(row.len() + 1) / 2` cells.
    pub fn decimate_row[const N: usize](row: &[f32], taps: [f32; N], out: &mut [f32]);

    /// The horizontal half of going up a level, the transpose of [`decimate_row`] times 2: a coarse
    /// row spread over a fine row of `out.len()` cells,
    /// `out[x] = sum (2 taps[t]) * coarse[(x + h - t) / 2]` over the `t` in `0..N` (ascending) for
    /// which `x + h - t` is even, coarse cells outside `coarse` taken as 0. `coarse` must have
    /// `(out.len() + 1) / 2` cells.
    pub fn expand_row[const N: usize](coarse: &[f32], taps: [f32; N], out: &mut [f32]);

    /// One interior row of the dispersive leapfrog step. `above`, `row` and `below` are rows `y-1`,
    /// `y`, `y+1` of the smoothed field `S u`; `current` is row `y` of the heights; `out` is row
    /// `y` of the previous heights, overwritten with the next ones. For `1 <= x <= width - 2`:
    ///
    /// ```text
    /// lap    = (4 (above[x] + below[x] + row[x-1] + row[x+1])
    ///           + above[x-1] + above[x+1] + below[x-1] + below[x+1] - 20 row[x]) / 6
    /// out[x] = current * u[x] + laplacian * lap - previous * out[x]
    /// ```
    ///
    /// Border columns are not written; `out` sets the width.
    pub fn dispersive_step_row(
        smoothed: [&[f32]; 3],
        current: &[f32],
        out: &mut [f32],
        coefficients: &DispersiveCoefficients,
    );
}

pub(super) mod plain {
    use super::DispersiveCoefficients;
    use crate::kernels::f32_row_bodies::stencil_sums;

    #[inline(always)]
    pub(super) fn weighted_rows<const N: usize>(
        rows: [&[f32]; N],
        weights: [f32; N],
        out: &mut [f32],
    ) {
        let width = out.len();
        let rows = rows.map(|r| &r[..width]);
        for x in 0..width {
            let mut sum = weights[0] * rows[0][x];
            for t in 1..N {
                sum += weights[t] * rows[t][x];
            }
            out[x] = sum;
        }
    }

    /// Outputs per block of [`decimate_row`]'s middle.
    const DECIMATE_BLOCK: usize = 256;

    /// Coarse cells per block of [`expand_row`]'s middle.
    const EXPAND_BLOCK: usize = 256;

    /// Most taps [`decimate_row`] splits into even and odd cells (more go one by one).
    const DECIMATE_MAX_TAPS: usize = 15;

    #[inline(always)]
    pub(super) fn decimate_row<const N: usize>(row: &[f32], taps: [f32; N], out: &mut [f32]) {
        let n = row.len();
        let half = N / 2;
        if N > DECIMATE_MAX_TAPS {
            decimate_edge(row, taps, out, 0..out.len());
            return;
        }
        // The middle: outputs whose window lies inside the row (2i >= h and 2i + h < n).
        let first_inside = half.div_ceil(2).min(out.len());
        let end_inside = if n > half {
            (n - half).div_ceil(2).clamp(first_inside, out.len())
        } else {
            first_inside
        };
        decimate_edge(row, taps, out, 0..first_inside);
        // In blocks, with the window's even and odd cells apart: each tap then reads a
        // contiguous run, so the sums vectorise, where a stride of two did not (a sixth of a
        // 1080p frame went to this loop). The taps are added in the same order, so the sums
        // are the formula's, bit for bit.
        let mut start = first_inside;
        while start < end_inside {
            let count = DECIMATE_BLOCK.min(end_inside - start);
            // Window cells 2 (start + j) - h + t for j < count, t < N: from `base`, 2 count +
            // N - 2 cells (an odd number, N being odd), even ones (t even) in `even`, odd ones
            // in `odd`.
            let base = 2 * start - half;
            let window = &row[base..base + 2 * count + N - 2];
            let mut even = [0.0f32; DECIMATE_BLOCK + DECIMATE_MAX_TAPS];
            let mut odd = [0.0f32; DECIMATE_BLOCK + DECIMATE_MAX_TAPS];
            let pairs = count + half - 1;
            for (k, pair) in window[..2 * pairs].chunks_exact(2).enumerate() {
                even[k] = pair[0];
                odd[k] = pair[1];
            }
            even[pairs] = window[2 * pairs];
            let mut sums = [0.0f32; DECIMATE_BLOCK];
            let sums = &mut sums[..count];
            for (t, &tap) in taps.iter().enumerate() {
                let cells = if t % 2 == 0 { &even } else { &odd };
                let cells = &cells[t / 2..t / 2 + count];
                if t == 0 {
                    for (sum, &cell) in sums.iter_mut().zip(cells) {
                        *sum = tap * cell;
                    }
                } else {
                    for (sum, &cell) in sums.iter_mut().zip(cells) {
                        *sum += tap * cell;
                    }
                }
            }
            out[start..start + count].copy_from_slice(sums);
            start += count;
        }
        decimate_edge(row, taps, out, end_inside..out.len());
    }

    /// [`decimate_row`] one output at a time, cells outside the row taken as 0: for the
    /// outputs near the row's ends.
    #[inline(always)]
    fn decimate_edge<const N: usize>(
        row: &[f32],
        taps: [f32; N],
        out: &mut [f32],
        outputs: std::ops::Range<usize>,
    ) {
        let at = |j: isize| -> f32 {
            if j >= 0 && (j as usize) < row.len() {
                row[j as usize]
            } else {
                0.0
            }
        };
        for i in outputs {
            let first = (2 * i) as isize - (N / 2) as isize;
            let mut sum = taps[0] * at(first);
            for (t, &tap) in taps.iter().enumerate().skip(1) {
                sum += tap * at(first + t as isize);
            }
            out[i] = sum;
        }
    }

    #[inline(always)]
    pub(super) fn expand_row<const N: usize>(coarse: &[f32], taps: [f32; N], out: &mut [f32]) {
        let half = N / 2;
        // Fine cell x = 2m + p takes the coarse cells m - half/2 ..= m + (half + 1)/2: a window
        // of half + 1 cells, whole in the middle of the row.
        let (below, above) = (half / 2, half.div_ceil(2));
        let m_count = coarse.len();
        let middle = below..m_count.saturating_sub(above).max(below);
        // In blocks of coarse cells: for each parity the fine cells 2m + p of a block read
        // contiguous runs of `coarse`, one per tap, so the sums vectorise (cell by cell they
        // did not); then the two parities are interleaved into the row. The taps are added in
        // the same order as the formula's, so the sums are its own, bit for bit.
        let mut start = middle.start;
        while start < middle.end {
            let count = EXPAND_BLOCK.min(middle.end - start);
            let mut sums = [[0.0f32; EXPAND_BLOCK]; 2];
            for (parity, sums) in sums.iter_mut().enumerate() {
                let sums = &mut sums[..count];
                let first = (parity + half) % 2;
                let mut t = first;
                while t < N {
                    // Fine cell 2m + parity reads coarse cell m + (parity + half - t) / 2.
                    let offset = (parity + half + 2 * below - t) / 2;
                    let cells = &coarse[start - below + offset..start - below + offset + count];
                    let tap = 2.0 * taps[t];
                    if t == first {
                        for (sum, &cell) in sums.iter_mut().zip(cells) {
                            *sum = tap * cell;
                        }
                    } else {
                        for (sum, &cell) in sums.iter_mut().zip(cells) {
                            *sum += tap * cell;
                        }
                    }
                    t += 2;
                }
            }
            let fine_end = out.len().min(2 * (start + count));
            let fine = &mut out[2 * start..fine_end];
            let [even, odd] = &sums;
            let mut pairs = fine.chunks_exact_mut(2);
            for ((pair, &even), &odd) in (&mut pairs).zip(even).zip(odd) {
                pair[0] = even;
                pair[1] = odd;
            }
            // The row's last cell, when it has an odd number of them.
            if let [last] = pairs.into_remainder() {
                *last = even[count - 1];
            }
            start += count;
        }
        // The edges, where the window leaves the row.
        let edge_cells = (0..out.len()).filter(|&x| !middle.contains(&(x / 2)));
        for x in edge_cells {
            out[x] = expand_cell(coarse, &taps, x);
        }
    }

    /// One fine cell of [`expand_row`], coarse cells outside the row taken as 0.
    #[inline(always)]
    fn expand_cell<const N: usize>(coarse: &[f32], taps: &[f32; N], x: usize) -> f32 {
        let (m, half, x) = (coarse.len() as isize, (N / 2) as isize, x as isize);
        let first = ((x + half) % 2) as usize;
        let mut sum = 0.0;
        let mut t = first;
        while t < N {
            let i = (x + half - t as isize) / 2;
            let value = if i >= 0 && i < m {
                coarse[i as usize]
            } else {
                0.0
            };
            let term = (2.0 * taps[t]) * value;
            sum = if t == first { term } else { sum + term };
            t += 2;
        }
        sum
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
        let smoothed = smoothed.map(|r| &r[..width]);
        let current = &current[..width];
        let DispersiveCoefficients {
            current: weight_current,
            laplacian,
            previous,
        } = *coefficients;
        let row = smoothed[1];
        for x in 1..width - 1 {
            let [edges, corners] = stencil_sums(smoothed, x);
            let lap = (4.0 * edges + corners - 20.0 * row[x]) * (1.0 / 6.0);
            out[x] = weight_current * current[x] + laplacian * lap - previous * out[x];
        }
    }
}
