//! WebAssembly SIMD kernels: 8 cells or pixels of the classic step and render, 4 of the lit look
//! and of the classic look over upsampled gradients per iteration, the upsampling of a coarser
//! grid's rows and the blend of two rows.
//!
//! Compiled in only when the module is built with `-C target-feature=+simd128`: a wasm module
//! cannot detect features at run time (an engine without SIMD rejects the whole module), so the
//! choice is made at build time and [`super::Backend::Simd128`] is then always available. For
//! the same reason these kernels are safe functions; the only `unsafe` is around the loads and
//! stores, whose bounds are proven as in the other backends.
//!
//! The design is that of the x86-64 kernels at 128 bits. The step widens `i16` to `i32` lanes and
//! narrows with `i16x8.narrow_i32x4_s`, which saturates exactly as the reference clamps. There is
//! no gather, so the renders compute the source indices in vector lanes and load the pixels one
//! by one into the lanes of a vector, which goes out in one store. The lit look does its
//! float math in vectors in the reference's order (simd128 has no fused multiply-add), and
//! clamps with `pmax`/`pmin`, whose "pseudo" semantics (`pmax(a, b) = a < b ? b : a`,
//! `pmin(a, b) = b < a ? b : a`) are [`scalar::clamp_position`] word for word when the bound is
//! the first operand, so a NaN position becomes 0 right there as in the reference (`f32x4.max`
//! would keep the NaN and leave it to the conversion), and engines on x86 turn them into single
//! `maxps`/`minps` instructions. The corners are blended in 16-bit lanes (7-bit weights keep every product inside `i16`)
//! and the shade uses a widening multiply, `(sample * gain) >> 8`, which equals the reference's
//! `((sample << 8) * gain) >> 16`. Each loop stops where a full vector would leave the row and
//! the scalar reference finishes the row, so the output is the reference's, bit for bit.

use core::arch::wasm32::*;

use super::f32_row_bodies as plain;
use super::scalar::{
    self, BlendedRow, GridColumns, LIT_GAIN_BITS, LIT_GAIN_MASK, LIT_TABLE_HALF, LIT_TABLE_SPAN,
    LitLook,
};
use super::{ALMOST_HALF, LIT_MAX_SIDE};

/// WebAssembly SIMD version of [`scalar::classic_step_row`].
///
/// Like the reference, `damping_shift` must be below 32 (the solvers allow `1..=15`).
pub fn classic_step_row(
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    out: &mut [i16],
    damping_shift: u32,
) {
    let width = out.len();
    if width < 3 {
        return;
    }
    let (up, mid, down) = (&up[..width], &mid[..width], &down[..width]);
    // Wasm shifts count modulo 32; 31 gives the sign fill that x86 `psrad` gives any longer
    // shift.
    let shift = damping_shift.min(31);
    let mut x = 1;
    while x + 8 < width {
        // SAFETY: 1 <= x and x + 8 < width, so the 8 cells read at x - 1, x, x + 1 (up to
        // index x + 8) and written at x lie inside rows of `width` cells; `v128_load` and
        // `v128_store` need no alignment.
        unsafe {
            let above = v128_load(up.as_ptr().add(x).cast());
            let below = v128_load(down.as_ptr().add(x).cast());
            let left = v128_load(mid.as_ptr().add(x - 1).cast());
            let right = v128_load(mid.as_ptr().add(x + 1).cast());
            let previous = v128_load(out.as_ptr().add(x).cast());
            let low = step_i32x4(
                [
                    i32x4_extend_low_i16x8(above),
                    i32x4_extend_low_i16x8(below),
                    i32x4_extend_low_i16x8(left),
                    i32x4_extend_low_i16x8(right),
                ],
                i32x4_extend_low_i16x8(previous),
                shift,
            );
            let high = step_i32x4(
                [
                    i32x4_extend_high_i16x8(above),
                    i32x4_extend_high_i16x8(below),
                    i32x4_extend_high_i16x8(left),
                    i32x4_extend_high_i16x8(right),
                ],
                i32x4_extend_high_i16x8(previous),
                shift,
            );
            // `narrow` saturates to i16: the reference's clamp.
            v128_store(
                out.as_mut_ptr().add(x).cast(),
                i16x8_narrow_i32x4(low, high),
            );
        }
        x += 8;
    }
    scalar::classic_step_span(up, mid, down, out, damping_shift, x..width - 1);
}

/// `v = ((up + down + left + right) >> 1) - previous; v -= v >> shift` on 4 widened cells.
#[inline]
fn step_i32x4([up, down, left, right]: [v128; 4], previous: v128, shift: u32) -> v128 {
    let sum = i32x4_add(i32x4_add(up, down), i32x4_add(left, right));
    let v = i32x4_sub(i32x4_shr(sum, 1), previous);
    i32x4_sub(v, i32x4_shr(v, shift))
}

/// WebAssembly SIMD version of [`scalar::classic_render_row`].
pub fn classic_render_row(
    y: usize,
    height: usize,
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
) {
    let width = dst_row.len();
    let cells = width * height;
    if width < 3 || y >= height || cells > i32::MAX as usize {
        scalar::classic_render_row(y, height, up, mid, down, src, dst_row);
        return;
    }
    let src = &src[..cells];
    let (up, mid, down) = (&up[..width], &mid[..width], &down[..width]);
    dst_row[0] = src[y * width];
    dst_row[width - 1] = src[y * width + width - 1];
    let max_x = i32x4_splat(width as i32 - 1);
    let max_y = i32x4_splat(height as i32 - 1);
    let row_y = i32x4_splat(y as i32);
    let stride = i32x4_splat(width as i32);
    let zero = i32x4_splat(0);
    let lanes = i32x4(0, 1, 2, 3);
    let four = i32x4_splat(4);
    let base = src.as_ptr().cast::<u32>();
    let clamp_index = |column: v128, dx: v128, dy: v128| {
        let sx = i32x4_min(i32x4_max(i32x4_add(column, dx), zero), max_x);
        let sy = i32x4_min(i32x4_max(i32x4_add(row_y, dy), zero), max_y);
        i32x4_add(i32x4_mul(sy, stride), sx)
    };
    let mut x = 1;
    while x + 8 < width {
        // SAFETY: 1 <= x and x + 8 < width, so the 8 heights read at x - 1, x and x + 1 (up to
        // index x + 8) and the 8 pixels written at x lie inside rows of `width`. The loaded
        // indices are `sy * width + sx` with `sx` clamped to [0, width) and `sy` to
        // [0, height), so they lie inside `src` (`width * height` pixels, which fits in i32).
        unsafe {
            let above = v128_load(up.as_ptr().add(x).cast());
            let below = v128_load(down.as_ptr().add(x).cast());
            let left = v128_load(mid.as_ptr().add(x - 1).cast());
            let right = v128_load(mid.as_ptr().add(x + 1).cast());
            let column = i32x4_add(i32x4_splat(x as i32), lanes);
            let low = clamp_index(
                column,
                i32x4_sub(i32x4_extend_low_i16x8(left), i32x4_extend_low_i16x8(right)),
                i32x4_sub(i32x4_extend_low_i16x8(above), i32x4_extend_low_i16x8(below)),
            );
            let high = clamp_index(
                i32x4_add(column, four),
                i32x4_sub(
                    i32x4_extend_high_i16x8(left),
                    i32x4_extend_high_i16x8(right),
                ),
                i32x4_sub(
                    i32x4_extend_high_i16x8(above),
                    i32x4_extend_high_i16x8(below),
                ),
            );
            let out = dst_row.as_mut_ptr().add(x).cast::<v128>();
            v128_store(out, load_4_words(base, low));
            v128_store(out.add(1), load_4_words(base, high));
        }
        x += 8;
    }
    scalar::classic_render_span(y, height, up, mid, down, src, dst_row, x..width - 1);
}

/// The four 32-bit words at `base[index[i]]`, loaded one by one into the lanes of a vector.
///
/// # Safety
///
/// Every lane of `index` must be a valid (non-negative) index of the words at `base`.
#[inline]
unsafe fn load_4_words(base: *const u32, index: v128) -> v128 {
    let word = |i: i32| {
        // SAFETY: the caller guarantees that every lane is a valid index; pixels are `[u8; 4]`,
        // so the word may be unaligned.
        unsafe { base.add(i as u32 as usize).read_unaligned() }
    };
    u32x4(
        word(i32x4_extract_lane::<0>(index)),
        word(i32x4_extract_lane::<1>(index)),
        word(i32x4_extract_lane::<2>(index)),
        word(i32x4_extract_lane::<3>(index)),
    )
}

/// WebAssembly SIMD version of [`scalar::resampled_classic_row`], 4 pixels per iteration.
///
/// WebAssembly has no rounding of halves away from zero (`f32x4.nearest` rounds them to even),
/// so it is built from `f32x4.trunc` as in the x86 kernels; the clamp is [`clamp_f32`] (a NaN
/// coordinate becomes 0, as the reference's `as usize` makes it). The four source pixels are
/// loaded one by one, or, where all four slopes are below one half in size (no displacement),
/// the four under them with one load.
pub fn resampled_classic_row(
    y: usize,
    height: usize,
    gx: &[f32],
    gy: &[f32],
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
) {
    let width = dst_row.len();
    if y >= height || width * height > i32::MAX as usize || width >= 1 << 24 {
        scalar::resampled_classic_row(y, height, gx, gy, src, dst_row);
        return;
    }
    let (gx, gy) = (&gx[..width], &gy[..width]);
    let gradient = |x: usize| {
        // SAFETY: `resampled_classic` asks for the 4 values at x only with x + 4 <= width.
        unsafe {
            (
                v128_load(gx.as_ptr().add(x).cast()),
                v128_load(gy.as_ptr().add(x).cast()),
            )
        }
    };
    let done = resampled_classic(y, height, gradient, src, dst_row);
    scalar::resampled_classic_span(y, height, gx, gy, src, dst_row, done..width);
}

/// WebAssembly SIMD version of [`scalar::resampled_classic_blended_row`]: the blend in vector
/// lanes, in the reference's order, then as [`resampled_classic_row`].
pub fn resampled_classic_blended_row(
    y: usize,
    height: usize,
    gx: BlendedRow<'_>,
    gy: BlendedRow<'_>,
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
) {
    let width = dst_row.len();
    if y >= height || width * height > i32::MAX as usize || width >= 1 << 24 {
        scalar::resampled_classic_blended_row(y, height, gx, gy, src, dst_row);
        return;
    }
    let (gx, gy) = (gx.first(width), gy.first(width));
    let blend = |row: &BlendedRow<'_>, x: usize| {
        // SAFETY: `resampled_classic` asks for the 4 values at x only with x + 4 <= width, and
        // `first` left both rows `width` long.
        unsafe {
            let top = v128_load(row.top.as_ptr().add(x).cast());
            let bottom = v128_load(row.bottom.as_ptr().add(x).cast());
            f32x4_add(
                top,
                f32x4_mul(f32x4_sub(bottom, top), f32x4_splat(row.weight)),
            )
        }
    };
    let gradient = |x: usize| (blend(&gx, x), blend(&gy, x));
    let done = resampled_classic(y, height, gradient, src, dst_row);
    scalar::resampled_classic_blended_span(y, height, gx, gy, src, dst_row, done..width);
}

/// The classic refraction of row `y`, 4 pixels at a time, with the gradient of the 4 pixels
/// from `x` given by `gradient(x)`; returns the column where the vectors stopped. The callers
/// check that `y < height`, that `width * height` fits in i32 and that `width < 2^24`.
#[inline]
fn resampled_classic(
    y: usize,
    height: usize,
    gradient: impl Fn(usize) -> (v128, v128),
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
) -> usize {
    let width = dst_row.len();
    let src = &src[..width * height];
    let max_x = f32x4_splat(width as f32 - 1.0);
    let max_y = f32x4_splat(height as f32 - 1.0);
    let row_y = f32x4_splat(y as f32);
    let stride = i32x4_splat(width as i32);
    let lanes = i32x4(0, 1, 2, 3);
    let pixels = src.as_ptr().cast::<u32>();
    let row_start = y * width;
    let small_image = width < 1 << 23 && height < 1 << 23;
    let mut x = 0;
    while x + 4 <= width {
        let (gx, gy) = gradient(x);
        // Slopes below one half in size round to no displacement: every pixel shows the one
        // under it (a NaN compares false and takes the full path).
        let half = f32x4_splat(0.5);
        let small = v128_and(f32x4_lt(f32x4_abs(gx), half), f32x4_lt(f32x4_abs(gy), half));
        if i32x4_all_true(small) {
            // SAFETY: x + 4 <= width and y < height, so the 4 source pixels under the 4
            // written at x lie inside `src` and the row.
            unsafe {
                let under = v128_load(src.as_ptr().add(row_start + x).cast());
                v128_store(dst_row.as_mut_ptr().add(x).cast(), under);
            }
            x += 4;
            continue;
        }
        // `x + lane` converted from i32 is `(x + lane) as f32`, exactly as the reference.
        let column = f32x4_convert_i32x4(i32x4_add(i32x4_splat(x as i32), lanes));
        let sx = clamp_f32(f32x4_add(column, round_half_away(gx)), max_x);
        let sy = clamp_f32(f32x4_add(row_y, round_half_away(gy)), max_y);
        // Clamped, the coordinates are whole numbers from 0 to the width or height less one,
        // which `whole_to_i32` converts when both are below 2^23 (always, within the limits).
        let (column_index, row_index) = if small_image {
            (whole_to_i32(sx), whole_to_i32(sy))
        } else {
            (i32x4_trunc_sat_f32x4(sx), i32x4_trunc_sat_f32x4(sy))
        };
        let index = i32x4_add(i32x4_mul(row_index, stride), column_index);
        // SAFETY: x + 4 <= width, so the 4 pixels written at x lie inside the row. The
        // coordinates are clamped to [0, width - 1] and [0, height - 1] before conversion, so
        // `sy * width + sx` lies inside `src` (`width * height` pixels, which fits in i32);
        // `x + lane < 2^24` is exact in f32.
        unsafe {
            v128_store(
                dst_row.as_mut_ptr().add(x).cast(),
                load_4_words(pixels, index),
            );
        }
        x += 4;
    }
    x
}

/// `f32::round` in every lane: to the nearest integer, halves away from zero; infinities and
/// NaN pass through. Computed as `trunc(v + copysign(0.49999997, v))`, the largest float below
/// one half: adding it carries a value into the next integer exactly when its fraction is at
/// least one half, and checked against `f32::round` on all 2^32 floats (equal but for the
/// sign of some zeros, which no sum with a coordinate sees).
#[inline]
fn round_half_away(value: v128) -> v128 {
    let below_half = v128_or(v128_and(value, f32x4_splat(-0.0)), f32x4_splat(ALMOST_HALF));
    f32x4_trunc(f32x4_add(value, below_half))
}

/// Whole numbers in `0..2^23` from `f32` to `i32` lanes: `bits(v + 2^23) - bits(2^23)`, two
/// instructions where `i32x4.trunc_sat_f32x4` is a sequence of about eight on x86 (it must
/// saturate and turn NaN into 0, which values known to be clamped whole numbers never need).
#[inline]
fn whole_to_i32(value: v128) -> v128 {
    const TWO_TO_23: f32 = 8_388_608.0;
    i32x4_sub(
        f32x4_add(value, f32x4_splat(TWO_TO_23)),
        u32x4_splat(TWO_TO_23.to_bits()),
    )
}

/// WebAssembly SIMD version of [`scalar::upsample_row`], 4 columns per iteration.
///
/// As the x86 kernels, without a gather: the 4 columns' left cells lie within 4 consecutive
/// cells, so one load from the first column's left cell and `i8x16.swizzle` (with byte indices
/// built from the columns' offsets from that cell) put each column's cell in its lane; the same
/// swizzle of the load one cell further gives the cells after them. The loop stops while a load
/// would pass the row's last cell; the reference finishes the row.
pub fn upsample_row(row: &[f32], columns: &GridColumns, out: &mut [f32]) {
    let width = out.len();
    let grid_width = columns.grid_width();
    if grid_width == 0 || grid_width > i32::MAX as usize {
        scalar::upsample_row(row, columns, out);
        return;
    }
    let row = &row[..grid_width];
    if columns.scale() == 2 && columns.image_width() == width {
        upsample_by_two(row, columns, out);
        return;
    }
    let (left, weight) = (&columns.left()[..width], &columns.weight()[..width]);
    let repeat = u32x4_splat(0x0404_0404);
    let bytes = u32x4_splat(0x0302_0100);
    let mut x = 0;
    while x + 4 <= width {
        let first = left[x] as usize;
        if first + 5 > grid_width {
            break;
        }
        // SAFETY: x + 4 <= width, so the 4 entries of `left` and `weight` read and the 4 values
        // written at x lie inside rows of `width`; first + 5 <= grid_width, so the 5 cells
        // read from `first` lie inside `row` (`v128_load`/`v128_store` need no alignment).
        // `swizzle` gives 0 for an index past its 16 bytes.
        unsafe {
            let lefts = v128_load(left.as_ptr().add(x).cast());
            let offsets = i32x4_sub(lefts, u32x4_splat(first as u32));
            // Lane i takes bytes 4 * offset .. 4 * offset + 4 of the loaded cells.
            let control = i32x4_add(i32x4_mul(offsets, repeat), bytes);
            let cells = v128_load(row.as_ptr().add(first).cast());
            let next_cells = v128_load(row.as_ptr().add(first + 1).cast());
            let at_left = i8x16_swizzle(cells, control);
            let at_right = i8x16_swizzle(next_cells, control);
            let step = f32x4_mul(
                f32x4_sub(at_right, at_left),
                v128_load(weight.as_ptr().add(x).cast()),
            );
            v128_store(out.as_mut_ptr().add(x).cast(), f32x4_add(at_left, step));
        }
        x += 4;
    }
    scalar::upsample_span(row, columns, out, x..width);
}

/// [`upsample_row`] at a scale of 2, the most common coarser grid on a page, in a third of the
/// instructions: every column from 1 up to where the grid's edge clamps them lies a quarter or
/// three quarters of the way from cell `(x - 1) / 2` to the next one (`GridColumns` computes
/// exactly 0.25 and 0.75 there: `(x + 0.5) / 2 - 0.5` is exact), so 4 cells and the 4 after them
/// give 8 columns, blended with the two weights and interleaved, with no shuffle of cells per
/// column. The reference does column 0 and the columns past the vectors.
fn upsample_by_two(row: &[f32], columns: &GridColumns, out: &mut [f32]) {
    let (width, grid_width) = (out.len(), row.len());
    let (quarter, three_quarters) = (f32x4_splat(0.25), f32x4_splat(0.75));
    let mut cell = 0;
    // Columns 2 * cell + 1 ..= 2 * cell + 8 from cells cell..cell + 4 and the ones after them;
    // cell + 5 <= grid_width keeps every cell after a left one inside the row, unclamped.
    while cell + 5 <= grid_width && 2 * cell + 9 <= width {
        // SAFETY: cell + 5 <= grid_width, so the cells read at cell and cell + 1 (up to index
        // cell + 4) lie inside `row`; 2 * cell + 9 <= width, so the 8 values written from
        // 2 * cell + 1 lie inside `out`.
        unsafe {
            let at_left = v128_load(row.as_ptr().add(cell).cast());
            let at_right = v128_load(row.as_ptr().add(cell + 1).cast());
            let step = f32x4_sub(at_right, at_left);
            let odd = f32x4_add(at_left, f32x4_mul(step, quarter));
            let even = f32x4_add(at_left, f32x4_mul(step, three_quarters));
            let first = out.as_mut_ptr().add(2 * cell + 1).cast::<v128>();
            v128_store(first, i32x4_shuffle::<0, 4, 1, 5>(odd, even));
            v128_store(first.add(1), i32x4_shuffle::<2, 6, 3, 7>(odd, even));
        }
        cell += 4;
    }
    scalar::upsample_span(row, columns, out, 0..1.min(width));
    let done = if cell == 0 { 1 } else { 2 * cell + 1 };
    scalar::upsample_span(row, columns, out, done.min(width)..width);
}

/// WebAssembly SIMD version of [`scalar::lit_render_row`].
pub fn lit_render_row(
    y: usize,
    height: usize,
    gx: &[f32],
    gy: &[f32],
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
    look: &LitLook,
) {
    let width = dst_row.len();
    let cells = width * height;
    if width == 0
        || y >= height
        || width > LIT_MAX_SIDE
        || height > LIT_MAX_SIDE
        || cells > i32::MAX as usize
        || look.table.len() <= LIT_TABLE_SPAN
    {
        scalar::lit_render_row(y, height, gx, gy, src, dst_row, look);
        return;
    }
    let src = &src[..cells];
    let (gx, gy) = (&gx[..width], &gy[..width]);
    let table = &look.table[..=LIT_TABLE_SPAN];

    let refraction = f32x4_splat(look.refraction);
    let slope = f32x4_splat(look.slope);
    let (light_x, light_y) = (f32x4_splat(look.light[0]), f32x4_splat(look.light[1]));
    let max_x = f32x4_splat(width as f32 - 1.0);
    let max_y = f32x4_splat(height as f32 - 1.0);
    let last_column = i32x4_splat(width as i32 - 1);
    let last_row = i32x4_splat(height as i32 - 1);
    let stride = i32x4_splat(width as i32);
    let row_y = f32x4_splat(y as f32);
    let lanes = i32x4(0, 1, 2, 3);
    let one = f32x4_splat(1.0);
    let half = f32x4_splat(0.5);
    let fixed_one = f32x4_splat(128.0);
    let weight_mask = i32x4_splat(127);
    let half_table = f32x4_splat(LIT_TABLE_HALF as f32);
    let table_span = f32x4_splat(LIT_TABLE_SPAN as f32);
    let one_step = i32x4_splat(1);
    let gain_mask = u32x4_splat(LIT_GAIN_MASK);
    let max_highlight = u32x4_splat(255);
    // The alpha channel (u16 lanes 3 and 7) of two pixels.
    let alpha_lanes = u16x8(0, 0, 0, 0xffff, 0, 0, 0, 0xffff);
    let alpha_gain = u16x8_splat(256);
    let pixels = src.as_ptr().cast::<u32>();
    let entries = table.as_ptr();

    let mut x = 0;
    while x + 4 <= width {
        // SAFETY: x + 4 <= width, so the 4 gradients read and the 4 pixels written at x lie
        // inside rows of `width` (`v128_load`/`v128_store` need no alignment). Sample positions
        // are clamped to [0, width-1] x [0, height-1] before they become indices (NaN to 0, see
        // `clamp_f32`), and the second column and row are clamped again, so every loaded pixel
        // lies inside `src` (`width * height` pixels, which fits in i32). Table indices are
        // clamped to [0, LIT_TABLE_SPAN] and `table` has `LIT_TABLE_SPAN + 1` entries.
        unsafe {
            let grad_x = v128_load(gx.as_ptr().add(x).cast());
            let grad_y = v128_load(gy.as_ptr().add(x).cast());
            // `x + lane` converted from i32 is `(x + lane) as f32`, exactly as the reference.
            let column = f32x4_convert_i32x4(i32x4_add(i32x4_splat(x as i32), lanes));
            let sx = clamp_f32(f32x4_add(column, f32x4_mul(refraction, grad_x)), max_x);
            let sy = clamp_f32(f32x4_add(row_y, f32x4_mul(refraction, grad_y)), max_y);
            let fixed_x = i32x4_trunc_sat_f32x4(f32x4_mul(sx, fixed_one));
            let fixed_y = i32x4_trunc_sat_f32x4(f32x4_mul(sy, fixed_one));
            let (x0, y0) = (i32x4_shr(fixed_x, 7), i32x4_shr(fixed_y, 7));
            let (wx, wy) = (
                v128_and(fixed_x, weight_mask),
                v128_and(fixed_y, weight_mask),
            );
            let x1 = i32x4_min(i32x4_add(x0, one_step), last_column);
            let y1 = i32x4_min(i32x4_add(y0, one_step), last_row);
            let (row0, row1) = (i32x4_mul(y0, stride), i32x4_mul(y1, stride));
            let p00 = load_4_words(pixels, i32x4_add(row0, x0));
            let p10 = load_4_words(pixels, i32x4_add(row0, x1));
            let p01 = load_4_words(pixels, i32x4_add(row1, x0));
            let p11 = load_4_words(pixels, i32x4_add(row1, x1));

            let p = f32x4_mul(slope, grad_x);
            let q = f32x4_mul(slope, grad_y);
            let length_squared = f32x4_add(f32x4_add(one, f32x4_mul(p, p)), f32x4_mul(q, q));
            let inv_length = f32x4_div(one, f32x4_sqrt(length_squared));
            let facing = f32x4_mul(
                f32x4_add(f32x4_mul(p, light_x), f32x4_mul(q, light_y)),
                inv_length,
            );
            let scaled = f32x4_add(f32x4_mul(f32x4_add(facing, one), half_table), half);
            let table_index = i32x4_trunc_sat_f32x4(clamp_f32(scaled, table_span));
            let entry = load_4_words(entries, table_index);
            let gain = v128_and(entry, gain_mask);
            // The result is at most 255, so a highlight above 255 acts as 255; capping it keeps
            // the 16-bit lanes below exact for any table.
            let highlight = u32x4_min(u32x4_shr(entry, LIT_GAIN_BITS), max_highlight);

            // Pixels 0, 1 in `low`, 2, 3 in `high`, four u16 channels each.
            let (wx_low, wx_high) = spread_per_channel(wx);
            let (wy_low, wy_high) = spread_per_channel(wy);
            let (gain_low, gain_high) = spread_per_channel(gain);
            let (light_low, light_high) = spread_per_channel(highlight);
            let low = shade(
                lerp_i16(
                    lerp_i16(
                        u16x8_extend_low_u8x16(p00),
                        u16x8_extend_low_u8x16(p10),
                        wx_low,
                    ),
                    lerp_i16(
                        u16x8_extend_low_u8x16(p01),
                        u16x8_extend_low_u8x16(p11),
                        wx_low,
                    ),
                    wy_low,
                ),
                v128_bitselect(alpha_gain, gain_low, alpha_lanes),
                v128_andnot(light_low, alpha_lanes),
            );
            let high = shade(
                lerp_i16(
                    lerp_i16(
                        u16x8_extend_high_u8x16(p00),
                        u16x8_extend_high_u8x16(p10),
                        wx_high,
                    ),
                    lerp_i16(
                        u16x8_extend_high_u8x16(p01),
                        u16x8_extend_high_u8x16(p11),
                        wx_high,
                    ),
                    wy_high,
                ),
                v128_bitselect(alpha_gain, gain_high, alpha_lanes),
                v128_andnot(light_high, alpha_lanes),
            );
            // `narrow` saturates to 255 (the reference's `min`).
            v128_store(
                dst_row.as_mut_ptr().add(x).cast(),
                u8x16_narrow_i16x8(low, high),
            );
        }
        x += 4;
    }
    scalar::lit_render_span(y, height, gx, gy, src, dst_row, look, x..width);
}

/// `clamp(value, 0, max)` with NaN sent to 0, as [`scalar::clamp_position`] writes it:
/// `pmax(0, v) = 0 < v ? v : 0` and `pmin(max, v) = v < max ? v : max` (a failed comparison
/// picks the bound, so NaN becomes 0 and -0 becomes +0).
#[inline]
fn clamp_f32(value: v128, max: v128) -> v128 {
    f32x4_pmin(max, f32x4_pmax(f32x4_splat(0.0), value))
}

/// A per-pixel value (< 2^16, in 32-bit lanes) repeated over the pixel's four u16 channels, in
/// the order of `u16x8_extend_low_u8x16` and `u16x8_extend_high_u8x16`.
#[inline]
fn spread_per_channel(value: v128) -> (v128, v128) {
    let doubled = v128_or(value, i32x4_shl(value, 16));
    (
        i32x4_shuffle::<0, 0, 1, 1>(doubled, doubled),
        i32x4_shuffle::<2, 2, 3, 3>(doubled, doubled),
    )
}

/// `a + (((b - a) * w) >> 7)` in i16 lanes (|b - a| <= 255, w <= 127: no overflow).
#[inline]
fn lerp_i16(a: v128, b: v128, weight: v128) -> v128 {
    let step = i16x8_mul(i16x8_sub(b, a), weight);
    i16x8_add(a, i16x8_shr(step, 7))
}

/// `((sample << 8) * gain) >> 16 + highlight` in u16 lanes, computed as
/// `((sample * gain) >> 8) + highlight` with a widening multiply (the same integer for
/// `sample < 256`).
#[inline]
fn shade(sample: v128, gain: v128, highlight: v128) -> v128 {
    let low = u32x4_shr(u32x4_extmul_low_u16x8(sample, gain), 8);
    let high = u32x4_shr(u32x4_extmul_high_u16x8(sample, gain), 8);
    u16x8_add_sat(u16x8_narrow_i32x4(low, high), highlight)
}

/// WebAssembly SIMD version of [`super::f32_rows::lerp_rows`], 4 values per iteration: the plain
/// body's operations, in its order (wasm has no fused multiply-add), so every lane is its result
/// bit for bit. (The solvers' own `f32` kernels need no such version: see `super::float`.)
pub fn lerp_rows(top: &[f32], bottom: &[f32], weight: f32, out: &mut [f32]) {
    let width = out.len();
    let (top, bottom) = (&top[..width], &bottom[..width]);
    let weight_lanes = f32x4_splat(weight);
    let mut x = 0;
    while x + 4 <= width {
        // SAFETY: x + 4 <= width, and every row holds `width` cells.
        unsafe {
            let upper = v128_load(top.as_ptr().add(x).cast());
            let lower = v128_load(bottom.as_ptr().add(x).cast());
            let blended = f32x4_add(upper, f32x4_mul(f32x4_sub(lower, upper), weight_lanes));
            v128_store(out.as_mut_ptr().add(x).cast(), blended);
        }
        x += 4;
    }
    plain::lerp_rows(&top[x..], &bottom[x..], weight, &mut out[x..]);
}
