//! The `f32` kernels' bodies and the types they take, in plain, safe Rust: [`super::f32_rows`]
//! inlines each body into one wrapper per x86-64 backend (and dispatches), and the WebAssembly
//! backend (the `simd128` blend) finishes its rows with them. They live below both so
//! that neither module reaches into the other.

/// Heights and velocities smaller than this are set to 0 by [`spring_row`](super::f32_rows::spring_row), so that calm water
/// becomes exactly flat instead of decaying into subnormal numbers (see the spring solver's
/// documentation). With the default spread, nothing a step computes from values this large or
/// 0 is subnormal.
pub const FLUSH_TO_ZERO: f32 = 1e-12;

/// The constants of one wave substep, folded so the row loop does 4 multiplies per cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaveCoefficients {
    /// Weight of the cell itself: `keep * (2 - 20 k / 6)`.
    pub centre: f32,
    /// Weight of each edge neighbour: `keep * 4 k / 6`.
    pub edge: f32,
    /// Weight of each corner neighbour: `keep * k / 6`.
    pub corner: f32,
    /// Weight of the previous height: `keep^2`.
    pub previous: f32,
}

/// A spring coefficient for one row: the same for every cell, or one value per cell.
#[derive(Debug, Clone, Copy)]
pub enum RowValues<'a> {
    /// Every cell of the row has this value.
    Uniform(f32),
    /// One value per cell (at least as many as the row has cells).
    PerCell(&'a [f32]),
}

#[inline(always)]
pub(super) fn wave_step_row(rows: [&[f32]; 3], out: &mut [f32], coefficients: &WaveCoefficients) {
    let width = out.len();
    if width < 3 {
        return;
    }
    let rows = rows.map(|r| &r[..width]);
    let row = rows[1];
    let WaveCoefficients {
        centre,
        edge,
        corner,
        previous,
    } = *coefficients;
    for x in 1..width - 1 {
        let [edges, corners] = stencil_sums(rows, x);
        out[x] = centre * row[x] + edge * edges + corner * corners - previous * out[x];
    }
}

/// The 9-point stencil's sums around column `x` of `[above, row, below]`, each left to right as
/// written: `[edges, corners]`, with `edges = above[x] + below[x] + row[x-1] + row[x+1]` and
/// `corners = above[x-1] + above[x+1] + below[x-1] + below[x+1]` (the wave and dispersive
/// steps').
#[inline(always)]
pub(in crate::kernels) fn stencil_sums([above, row, below]: [&[f32]; 3], x: usize) -> [f32; 2] {
    let edges = above[x] + below[x] + row[x - 1] + row[x + 1];
    let corners = above[x - 1] + above[x + 1] + below[x - 1] + below[x + 1];
    [edges, corners]
}

#[inline(always)]
pub(super) fn spring_row(
    row: [&[f32]; 2],
    stiffness: RowValues<'_>,
    viscosity: RowValues<'_>,
    out: [&mut [f32]; 2],
) {
    use RowValues::{PerCell, Uniform};
    let [heights, velocities] = row;
    let [heights_out, velocities_out] = out;
    let rows = (heights, velocities, heights_out, velocities_out);
    // One loop per kind of coefficient, so a uniform one stays in a register.
    match (stiffness, viscosity) {
        (Uniform(k), Uniform(m)) => springs(rows, Same(k), Same(m)),
        (Uniform(k), PerCell(m)) => springs(rows, Same(k), m),
        (PerCell(k), Uniform(m)) => springs(rows, k, Same(m)),
        (PerCell(k), PerCell(m)) => springs(rows, k, m),
    }
}

/// A value for every cell of a row, without bounds checks once sliced to the row.
trait CellValues: Copy {
    /// The values of the first `width` cells (panics if there are fewer).
    fn take(self, width: usize) -> Self;
    fn at(&self, x: usize) -> f32;
}

/// The same value in every cell.
#[derive(Clone, Copy)]
struct Same(f32);

impl CellValues for Same {
    #[inline(always)]
    fn take(self, _width: usize) -> Self {
        self
    }

    #[inline(always)]
    fn at(&self, _x: usize) -> f32 {
        self.0
    }
}

impl CellValues for &[f32] {
    #[inline(always)]
    fn take(self, width: usize) -> Self {
        &self[..width]
    }

    #[inline(always)]
    fn at(&self, x: usize) -> f32 {
        self[x]
    }
}

#[inline(always)]
fn springs(
    (heights, velocities, heights_out, velocities_out): (&[f32], &[f32], &mut [f32], &mut [f32]),
    stiffness: impl CellValues,
    viscosity: impl CellValues,
) {
    let width = heights_out.len();
    let (heights, velocities) = (&heights[..width], &velocities[..width]);
    let velocities_out = &mut velocities_out[..width];
    let (stiffness, viscosity) = (stiffness.take(width), viscosity.take(width));
    for x in 0..width {
        let (h, w) = (heights[x], velocities[x]);
        let acceleration = -stiffness.at(x) * h - viscosity.at(x) * w;
        heights_out[x] = flush_to_zero(h + w);
        velocities_out[x] = flush_to_zero(w + acceleration);
    }
}

#[inline(always)]
fn flush_to_zero(value: f32) -> f32 {
    if value.abs() < FLUSH_TO_ZERO {
        0.0
    } else {
        value
    }
}

#[inline(always)]
pub(super) fn spread_x_row(spread: f32, row: [&[f32]; 2], out: [&mut [f32]; 2]) {
    let ([heights, velocities], [heights_out, velocities_out]) = (row, out);
    let width = heights_out.len();
    let (h, w) = (&heights[..width], &velocities[..width]);
    let velocities_out = &mut velocities_out[..width];
    if width < 3 {
        heights_out.copy_from_slice(h);
        velocities_out.copy_from_slice(w);
        return;
    }
    // Cells 2..=width-3 have a giver on both sides.
    let middle = 2..(width - 2).max(2);
    let (before, centre, after) = (&h[1..], &h[middle.clone()], &h[3.min(width)..]);
    let w_centre = &w[middle.clone()];
    let h_out = &mut heights_out[middle.clone()];
    let w_out = &mut velocities_out[middle];
    let count = h_out.len();
    let (before, centre, after, w_centre) = (
        &before[..count],
        &centre[..count],
        &after[..count],
        &w_centre[..count],
    );
    let w_out = &mut w_out[..count];
    for x in 0..count {
        let from_previous = spread * (before[x] - centre[x]);
        let from_next = spread * (after[x] - centre[x]);
        h_out[x] = centre[x] + from_previous + from_next;
        w_out[x] = w_centre[x] + from_previous + from_next;
    }
    // Cells 0, 1, width-2 and width-1 lack a giver on one side (both, for cell 1 of a row of
    // 3, which this visits twice with the same result).
    for x in [0, 1, width - 2, width - 1] {
        let mut height = h[x];
        let mut velocity = w[x];
        if x >= 2 {
            let from_previous = spread * (h[x - 1] - h[x]);
            height += from_previous;
            velocity += from_previous;
        }
        if x + 3 <= width {
            let from_next = spread * (h[x + 1] - h[x]);
            height += from_next;
            velocity += from_next;
        }
        heights_out[x] = height;
        velocities_out[x] = velocity;
    }
}

#[inline(always)]
pub(in crate::kernels) fn lerp_rows(top: &[f32], bottom: &[f32], weight: f32, out: &mut [f32]) {
    let width = out.len();
    let (top, bottom) = (&top[..width], &bottom[..width]);
    for x in 0..width {
        out[x] = top[x] + (bottom[x] - top[x]) * weight;
    }
}

#[inline(always)]
pub(super) fn spread_y_row(
    spread: f32,
    [above, below]: [Option<&[f32]>; 2],
    [heights, velocities]: [&[f32]; 2],
    [heights_out, velocities_out]: [&mut [f32]; 2],
) {
    let width = heights_out.len();
    let (h, w) = (&heights[..width], &velocities[..width]);
    let velocities_out = &mut velocities_out[..width];
    match (above, below) {
        (Some(above), Some(below)) => {
            let (above, below) = (&above[..width], &below[..width]);
            for x in 0..width {
                let from_above = spread * (above[x] - h[x]);
                let from_below = spread * (below[x] - h[x]);
                heights_out[x] = h[x] + from_above + from_below;
                velocities_out[x] = w[x] + from_above + from_below;
            }
        }
        (Some(giver), None) | (None, Some(giver)) => {
            let giver = &giver[..width];
            for x in 0..width {
                let pull = spread * (giver[x] - h[x]);
                heights_out[x] = h[x] + pull;
                velocities_out[x] = w[x] + pull;
            }
        }
        (None, None) => {
            heights_out.copy_from_slice(h);
            velocities_out.copy_from_slice(w);
        }
    }
}
