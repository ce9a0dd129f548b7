//! The classic look's SIMD kernels, written once over the vector layer ([`super::wide`]): the
//! classic step, the classic render, the classic refraction over gradient rows (blended or not)
//! and the upsampling of a coarser grid's rows.
//!
//! Each is a [`Kernel`] whose scalar side is the reference in [`super::scalar`] and whose SIMD
//! side runs [`Isa::LANES`] lanes per vector (4 on SSE4.1, NEON and simd128, 8 on AVX2):
//!
//! - The step widens `i16` to `i32` lanes so the sum of four neighbours cannot overflow, and
//!   narrows with a saturating pack, which is exactly the reference's clamp.
//! - The renders compute the source indices in vector lanes and fetch the pixels with
//!   [`Isa::gather`] (`vpgatherdd` on AVX2, loads into lanes elsewhere). Where every slope of a
//!   vector rounds to no displacement, the classic refraction over gradient rows copies the
//!   pixels under them with one load instead (calm water and gentle waves).
//! - The upsampling fetches the cells of several columns from one load of consecutive cells
//!   and a lane permutation ([`F32s::permute`]): a column's left cell grows by at most one per
//!   column, so `LANES` columns fit in `LANES` consecutive cells. Where the set interleaves
//!   cheaply (simd128) a scale of 2 takes a third of the instructions, with no permutation.
//!
//! Each loop stops where a full vector would leave the row and the reference finishes the row,
//! so every backend's output is the reference's, bit for bit (no fused multiply-add anywhere:
//! each operation of the reference is one instruction, in its order).

use std::ops::Range;

use super::FrameWrites;
use super::scalar::{self, BlendedRow, GridColumns, SourceRow};
use super::wide::{F32s, I16s, I32s, Isa, Kernel};

/// [`scalar::classic_step_row`]: `2 * LANES` cells per iteration.
pub(super) struct Step<'a> {
    pub up: &'a [i16],
    pub mid: &'a [i16],
    pub down: &'a [i16],
    pub out: &'a mut [i16],
    pub damping_shift: u32,
}

impl Kernel for Step<'_> {
    type Output = ();

    fn scalar(self) {
        scalar::classic_step_row(self.up, self.mid, self.down, self.out, self.damping_shift);
    }

    #[inline(always)]
    fn simd<S: Isa>(self, isa: S) {
        let Self {
            up,
            mid,
            down,
            out,
            damping_shift,
        } = self;
        let width = out.len();
        if width < 3 {
            return;
        }
        let (up, mid, down) = (&up[..width], &mid[..width], &down[..width]);
        let cells = 2 * S::LANES;
        let mut x = 1;
        while x + cells < width {
            // SAFETY: 1 <= x and x + cells < width, so the cells read at x - 1, x, x + 1 (up to
            // index x + cells) and written at x lie inside rows of `width` cells.
            unsafe {
                let above = isa.load_i16(up.as_ptr().add(x));
                let below = isa.load_i16(down.as_ptr().add(x));
                let left = isa.load_i16(mid.as_ptr().add(x - 1));
                let right = isa.load_i16(mid.as_ptr().add(x + 1));
                let previous = isa.load_i16(out.as_ptr().add(x));
                let low = step_lanes::<S>(
                    [
                        above.widen_low(),
                        below.widen_low(),
                        left.widen_low(),
                        right.widen_low(),
                    ],
                    previous.widen_low(),
                    damping_shift,
                );
                let high = step_lanes::<S>(
                    [
                        above.widen_high(),
                        below.widen_high(),
                        left.widen_high(),
                        right.widen_high(),
                    ],
                    previous.widen_high(),
                    damping_shift,
                );
                // The saturating pack is the reference's clamp.
                low.pack_i16_sat(high).store(out.as_mut_ptr().add(x));
            }
            x += cells;
        }
        scalar::classic_step_span(up, mid, down, out, damping_shift, x..width - 1);
    }
}

/// `v = ((up + down + left + right) >> 1) - previous; v -= v >> shift` on widened cells.
/// `shift` goes to [`I32s::shr_by`] as it comes (the layers handle counts from 32): a clamp
/// here turned AVX2's `vpsrad` by a register into a broadcast and a `vpsravd`.
#[inline(always)]
fn step_lanes<S: Isa>(
    [up, down, left, right]: [S::I32; 4],
    previous: S::I32,
    shift: u32,
) -> S::I32 {
    let v = ((up + down) + (left + right)).shr::<1>() - previous;
    v - v.shr_by(shift)
}

/// [`scalar::classic_render_columns`]: 8 pixels per iteration (one vector on AVX2, two on the
/// 128-bit sets), with streaming stores where `writes` asks for them and the set has them.
///
/// Streaming stores need addresses aligned to the vector, so the pixels before the first
/// aligned one are rendered by the reference; a row whose pixels are not even 4-byte aligned is
/// stored the ordinary way. Streaming stores are weakly ordered, so a fence follows them: they
/// are globally visible before any later store of this thread (the one that tells another
/// thread the row is done included).
pub(super) struct RenderColumns<'a> {
    pub source: SourceRow<'a>,
    pub heights: [&'a [i16]; 3],
    pub dst_row: &'a mut [[u8; 4]],
    pub columns: Range<usize>,
    pub writes: FrameWrites,
}

/// Pixels per iteration of [`RenderColumns`].
const RENDER_BLOCK: usize = 8;

impl Kernel for RenderColumns<'_> {
    type Output = ();

    fn scalar(self) {
        scalar::classic_render_columns(self.source, self.heights, self.dst_row, self.columns);
    }

    #[inline(always)]
    fn simd<S: Isa>(self, isa: S) {
        let Self {
            source,
            heights,
            dst_row,
            columns,
            writes,
        } = self;
        let SourceRow { src, y, height } = source;
        let width = dst_row.len();
        let cells = width * height;
        if width < 3 || y >= height || cells > i32::MAX as usize || columns.end > width {
            scalar::classic_render_columns(source, heights, dst_row, columns);
            return;
        }
        let src = &src[..cells];
        let [up, mid, down] = heights.map(|row| &row[..width]);
        if columns.contains(&0) {
            dst_row[0] = src[y * width];
        }
        if columns.contains(&(width - 1)) {
            dst_row[width - 1] = src[y * width + width - 1];
        }
        let end = columns.end.min(width - 1);
        let max_x = isa.i32(width as i32 - 1);
        let max_y = isa.i32(height as i32 - 1);
        let row_y = isa.i32(y as i32);
        let stride = isa.i32(width as i32);
        let zero = isa.i32(0);
        let lanes = isa.lanes();
        let base = src.as_ptr().cast::<u32>();
        let mut x = columns.start.max(1);
        let stream = S::STREAMS
            && writes == FrameWrites::Streaming
            && (dst_row.as_ptr() as usize).is_multiple_of(4);
        if stream {
            let misaligned = (dst_row.as_ptr() as usize / 4 + x) % S::LANES;
            if misaligned != 0 {
                let aligned = (x + S::LANES - misaligned).min(end).max(x);
                scalar::classic_render_span(source, heights, dst_row, x..aligned);
                x = aligned;
            }
        }
        // `x < stop` is `x + 8 <= end`, in one comparison of the loop counter.
        let stop = end.saturating_sub(RENDER_BLOCK - 1);
        while x < stop {
            let mut lane = 0;
            while lane < RENDER_BLOCK {
                let at = x + lane;
                // SAFETY: 1 <= x and x + 8 <= end < width, so the heights read at at - 1, at
                // and at + 1 (up to index x + 8) and the pixels written at `at` lie inside rows
                // of `width`. The fetched indices are `sy * width + sx` with `sx` clamped to
                // [0, width) and `sy` to [0, height), so they lie inside `src` (`width *
                // height` pixels, which fits in i32). When streaming, `at` is aligned: the head
                // above rendered up to an aligned pixel, and each step moves a whole vector.
                unsafe {
                    let above = isa.load_i16_as_i32(up.as_ptr().add(at));
                    let below = isa.load_i16_as_i32(down.as_ptr().add(at));
                    let left = isa.load_i16_as_i32(mid.as_ptr().add(at - 1));
                    let right = isa.load_i16_as_i32(mid.as_ptr().add(at + 1));
                    let column = isa.i32(at as i32) + lanes;
                    let sx = (column + (left - right)).max(zero).min(max_x);
                    let sy = (row_y + (above - below)).max(zero).min(max_y);
                    let pixels = isa.gather(base, sy * stride + sx);
                    let out = dst_row.as_mut_ptr().add(at).cast::<u32>();
                    if stream {
                        pixels.stream(out);
                    } else {
                        pixels.store(out);
                    }
                }
                lane += S::LANES;
            }
            x += RENDER_BLOCK;
        }
        if stream {
            isa.fence_streams();
        }
        scalar::classic_render_span(source, heights, dst_row, x..end);
    }
}

/// A row of gradients for the classic refraction over gradient rows: the values themselves
/// (`&[f32]`) or a blend of two rows ([`BlendedRow`]), blended in vector lanes in the
/// reference's order.
pub(super) trait GradientRow: Copy {
    /// The row cut to `width` values.
    fn first(self, width: usize) -> Self;
    /// The reference's pixels `columns` of `kernel`'s row.
    fn reference(kernel: Resampled<'_, Self>, columns: Range<usize>);
    /// The `LANES` values from `x`.
    ///
    /// # Safety
    ///
    /// `x + LANES` must not pass the row's length.
    unsafe fn lanes<S: Isa>(self, isa: S, x: usize) -> S::F32;
}

impl GradientRow for &[f32] {
    #[inline(always)]
    fn first(self, width: usize) -> Self {
        &self[..width]
    }
    #[inline(always)]
    fn reference(k: Resampled<'_, Self>, columns: Range<usize>) {
        scalar::resampled_classic_span(k.source, k.gradients, k.dst_row, columns);
    }
    #[inline(always)]
    unsafe fn lanes<S: Isa>(self, isa: S, x: usize) -> S::F32 {
        // SAFETY: the caller's guarantee.
        unsafe { isa.load_f32(self.as_ptr().add(x)) }
    }
}

impl GradientRow for BlendedRow<'_> {
    #[inline(always)]
    fn first(self, width: usize) -> Self {
        BlendedRow::first(self, width)
    }
    #[inline(always)]
    fn reference(k: Resampled<'_, Self>, columns: Range<usize>) {
        scalar::resampled_classic_blended_span(k.source, k.gradients, k.dst_row, columns);
    }
    /// `top + (bottom - top) * weight`.
    #[inline(always)]
    unsafe fn lanes<S: Isa>(self, isa: S, x: usize) -> S::F32 {
        // SAFETY: the caller's guarantee; `first` cuts both rows to the same width.
        let (top, bottom) = unsafe {
            (
                isa.load_f32(self.top.as_ptr().add(x)),
                isa.load_f32(self.bottom.as_ptr().add(x)),
            )
        };
        top + (bottom - top) * isa.f32(self.weight)
    }
}

/// [`scalar::resampled_classic_row`] (`G` = `&[f32]`) and
/// [`scalar::resampled_classic_blended_row`] (`G` = [`BlendedRow`]): `LANES` pixels per
/// iteration.
pub(super) struct Resampled<'a, G> {
    pub source: SourceRow<'a>,
    /// `[gx, gy]`.
    pub gradients: [G; 2],
    pub dst_row: &'a mut [[u8; 4]],
}

impl<G: GradientRow> Kernel for Resampled<'_, G> {
    type Output = ();

    fn scalar(self) {
        let width = self.dst_row.len();
        G::reference(self, 0..width);
    }

    #[inline(always)]
    fn simd<S: Isa>(self, isa: S) {
        let (SourceRow { y, height, .. }, width) = (self.source, self.dst_row.len());
        if y >= height || width * height > i32::MAX as usize || width >= 1 << 24 {
            G::reference(self, 0..width);
            return;
        }
        let gradients = self.gradients.map(|row| row.first(width));
        let done = resampled_classic(isa, self.source, gradients, &mut *self.dst_row);
        G::reference(Self { gradients, ..self }, done..width);
    }
}

/// The classic refraction of row `y`, `LANES` pixels at a time, with the gradients
/// `[gx, gy]`; returns the column where the vectors stopped (the caller finishes the row).
///
/// `f32::round` rounds halves away from zero, which only NEON has an instruction for; the
/// others build it from truncation ([`F32s::round_half_away`]). The clamp sends a NaN
/// coordinate to 0, as the reference's `as usize` does. Where the slopes of all the pixels are
/// below one half in size, they round to no displacement: the pixels under them are copied with
/// one load, before any rounding and instead of a gather, which takes several times longer.
///
/// The caller checks that `y < height`, that `width * height` (`width` being `dst_row`'s)
/// fits in i32 and that `width` is below 2^24 (so `x + lane` is exact in `f32`), and cuts the
/// gradient rows to `width` ([`GradientRow::first`]).
#[inline(always)]
fn resampled_classic<S: Isa, G: GradientRow>(
    isa: S,
    SourceRow { src, y, height }: SourceRow<'_>,
    [gx_row, gy_row]: [G; 2],
    dst_row: &mut [[u8; 4]],
) -> usize {
    let width = dst_row.len();
    let src = &src[..width * height];
    let max_x = isa.f32(width as f32 - 1.0);
    let max_y = isa.f32(height as f32 - 1.0);
    let row_y = isa.f32(y as f32);
    let stride = isa.i32(width as i32);
    let lanes = isa.lanes().to_f32();
    let base = src.as_ptr().cast::<u32>();
    let row_start = y * width;
    // Clamped, the coordinates are whole numbers from 0 to the width or height less one, which
    // `whole_to_i32` converts when both are below 2^23 (always, within the limits).
    let small_image = width < 1 << 23 && height < 1 << 23;
    let mut x = 0;
    while x + S::LANES <= width {
        // SAFETY: x + LANES <= width, the rows' length (the caller cut them with `first`).
        let (gx, gy) = unsafe { (gx_row.lanes(isa, x), gy_row.lanes(isa, x)) };
        if gx.magnitudes_below_half(gy) {
            // SAFETY: x + LANES <= width and y < height, so the source pixels under the ones
            // written at x lie inside `src` and the row.
            unsafe {
                isa.load_u32(base.add(row_start + x))
                    .store(dst_row.as_mut_ptr().add(x).cast());
            }
            x += S::LANES;
            continue;
        }
        // `x < 2^24`, so converting it from i32 is exact and one instruction (from usize the
        // compiler tests the sign first, on every vector that is not calm).
        let column = isa.f32(x as i32 as f32) + lanes;
        let sx = (column + gx.round_half_away()).clamp_position(max_x);
        let sy = (row_y + gy.round_half_away()).clamp_position(max_y);
        let (column_index, row_index) = if small_image {
            (sx.whole_to_i32(), sy.whole_to_i32())
        } else {
            (sx.trunc_to_i32(), sy.trunc_to_i32())
        };
        // SAFETY: x + LANES <= width, so the pixels written at x lie inside the row. The
        // coordinates are clamped to [0, width - 1] and [0, height - 1] before conversion, so
        // `sy * width + sx` lies inside `src` (`width * height` pixels, which fits in i32).
        unsafe {
            isa.gather(base, row_index * stride + column_index)
                .store(dst_row.as_mut_ptr().add(x).cast());
        }
        x += S::LANES;
    }
    x
}

/// [`scalar::upsample_row`]: `LANES` columns per iteration.
///
/// The columns' left cells lie within `LANES` consecutive cells of the grid row (left grows by
/// at most one per column), so one load of the cells from the first column's left cell and one
/// lane permutation put each column's left cell in its lane, and the same permutation of the
/// load one cell further gives the cells after them, with no gather. The loop stops while a
/// load would pass the row's last cell, so every cell after a left one is the reference's
/// `min(l + 1, last)`, and the reference finishes the row.
pub(super) struct Upsample<'a> {
    pub row: &'a [f32],
    pub columns: &'a GridColumns,
    pub out: &'a mut [f32],
}

impl Kernel for Upsample<'_> {
    type Output = ();

    fn scalar(self) {
        scalar::upsample_row(self.row, self.columns, self.out);
    }

    #[inline(always)]
    fn simd<S: Isa>(self, isa: S) {
        let Self { row, columns, out } = self;
        let width = out.len();
        let grid_width = columns.grid_width();
        if grid_width == 0 || grid_width > i32::MAX as usize {
            scalar::upsample_row(row, columns, out);
            return;
        }
        let row = &row[..grid_width];
        if S::UPSAMPLE_BY_TWO && columns.scale() == 2 && columns.image_width() == width {
            upsample_by_two(isa, row, columns, out);
            return;
        }
        let (left, weight) = (&columns.left()[..width], &columns.weight()[..width]);
        let mut x = 0;
        while x + S::LANES <= width {
            let first = left[x] as usize;
            if first + S::LANES + 1 > grid_width {
                break;
            }
            // SAFETY: x + LANES <= width, so the entries of `left` and `weight` read and the
            // values written at x lie inside rows of `width`; first + LANES + 1 <= grid_width,
            // so the cells read from `first` and `first + 1` lie inside `row`. A permutation
            // only selects lanes of its operand.
            unsafe {
                let offsets = isa.load_u32(left.as_ptr().add(x)) - isa.i32(first as i32);
                let at_left = isa.load_f32(row.as_ptr().add(first)).permute(offsets);
                let at_right = isa.load_f32(row.as_ptr().add(first + 1)).permute(offsets);
                let step = (at_right - at_left) * isa.load_f32(weight.as_ptr().add(x));
                (at_left + step).store(out.as_mut_ptr().add(x));
            }
            x += S::LANES;
        }
        scalar::upsample_span(row, columns, out, x..width);
    }
}

/// [`Upsample`] at a scale of 2, the most common coarser grid on a page: every column from 1
/// up to where the grid's edge clamps them lies a quarter or three quarters of the way from
/// cell `(x - 1) / 2` to the next one (`GridColumns` computes exactly 0.25 and 0.75 there:
/// `(x + 0.5) / 2 - 0.5` is exact), so `LANES` cells and the ones after them give `2 * LANES`
/// columns, blended with the two weights and interleaved, with no permutation per column. The
/// reference does column 0 and the columns past the vectors. Measured worth it in WebAssembly,
/// where a permutation is a `swizzle` (a third of the instructions); see
/// [`Isa::UPSAMPLE_BY_TWO`].
#[inline(always)]
fn upsample_by_two<S: Isa>(isa: S, row: &[f32], columns: &GridColumns, out: &mut [f32]) {
    let (width, grid_width) = (out.len(), row.len());
    let (quarter, three_quarters) = (isa.f32(0.25), isa.f32(0.75));
    let mut cell = 0;
    // Columns 2 * cell + 1 ..= 2 * cell + 2 * LANES from cells cell..cell + LANES and the ones
    // after them; cell + LANES + 1 <= grid_width keeps every cell after a left one inside the
    // row, unclamped.
    while cell + S::LANES < grid_width && 2 * cell + 2 * S::LANES < width {
        // SAFETY: cell + LANES + 1 <= grid_width, so the cells read at cell and cell + 1 lie
        // inside `row`; 2 * cell + 2 * LANES + 1 <= width, so the values written from
        // 2 * cell + 1 lie inside `out`.
        unsafe {
            let at_left = isa.load_f32(row.as_ptr().add(cell));
            let at_right = isa.load_f32(row.as_ptr().add(cell + 1));
            let step = at_right - at_left;
            let odd = at_left + step * quarter;
            let even = at_left + step * three_quarters;
            let (first, second) = odd.interleave(even);
            let at = out.as_mut_ptr().add(2 * cell + 1);
            first.store(at);
            second.store(at.add(S::LANES));
        }
        cell += S::LANES;
    }
    scalar::upsample_span(row, columns, out, 0..1.min(width));
    let done = if cell == 0 { 1 } else { 2 * cell + 1 };
    scalar::upsample_span(row, columns, out, done.min(width)..width);
}
