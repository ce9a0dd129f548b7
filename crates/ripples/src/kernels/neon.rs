//! NEON kernels (aarch64): 8 cells or pixels of the classic step and render, 4 of the lit look
//! and of the classic look over upsampled gradients per iteration, and the upsampling of a
//! coarser grid's rows.
//!
//! The same design as the x86-64 kernels, in NEON's terms. The step sums the four neighbours
//! with widening adds (`saddl`, `i16` to `i32`, so nothing overflows), shifts right by a negative
//! `sshl`, and narrows with `sqxtn`, which saturates exactly as the reference clamps. NEON has no
//! gather, so the renders compute the source indices in vector lanes and load the pixels one by
//! one into the lanes of a vector, which goes out in one store.
//!
//! The lit look is where NEON differs from x86 in ways that matter for bit-exactness:
//!
//! - `fmax`/`fmin` propagate NaN, where the reference (like x86 `maxps`) sends a NaN position
//!   to 0. The clamp is therefore a compare and a select, `v > 0 ? v : 0` then `v < max ? v : max`,
//!   which is [`scalar::clamp_position`] word for word.
//! - `fcvtzs` truncates and saturates like Rust's `as i32` (NaN to 0), so the conversions agree
//!   with the reference even before the clamp matters.
//! - No fused multiply-add: every product and sum is its own exactly rounded instruction, in the
//!   reference's order (LLVM does not contract separate `fmul`/`fadd` intrinsics).
//!
//! The four corners are blended in 16-bit lanes like the x86 kernels (7-bit weights keep every
//! product inside `i16`); the shade uses a widening multiply, `(sample * gain) >> 8`, which equals
//! the reference's `((sample << 8) * gain) >> 16`. Each loop stops where a full vector would
//! leave the row and the scalar reference finishes the row, so the output is the reference's, bit
//! for bit.

use std::arch::aarch64::*;

use super::LIT_MAX_SIDE;
use super::scalar::{
    self, BlendedRow, GridColumns, LIT_GAIN_BITS, LIT_GAIN_MASK, LIT_TABLE_HALF, LIT_TABLE_SPAN,
    LitLook,
};

/// Lane numbers `0, 1, 2, 3`, for column indices.
const LANES: [i32; 4] = [0, 1, 2, 3];

/// NEON version of [`scalar::classic_step_row`].
///
/// Like the reference, `damping_shift` must be below 32 (the solvers allow `1..=15`).
///
/// # Safety
///
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub unsafe fn classic_step_row(
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
    // `sshl` by a negative amount is an arithmetic shift right; by -32 it fills with the sign,
    // as x86 `psrad` does for any count above 31.
    let shift = vdupq_n_s32(-(damping_shift.min(32) as i32));
    let mut x = 1;
    while x + 8 < width {
        // SAFETY: 1 <= x and x + 8 < width, so the 8 cells read at x - 1, x, x + 1 (up to
        // index x + 8) and written at x lie inside rows of `width` cells.
        unsafe {
            let above = vld1q_s16(up.as_ptr().add(x));
            let below = vld1q_s16(down.as_ptr().add(x));
            let left = vld1q_s16(mid.as_ptr().add(x - 1));
            let right = vld1q_s16(mid.as_ptr().add(x + 1));
            let previous = vld1q_s16(out.as_ptr().add(x));
            let sum_low = vaddq_s32(
                vaddl_s16(vget_low_s16(above), vget_low_s16(below)),
                vaddl_s16(vget_low_s16(left), vget_low_s16(right)),
            );
            let sum_high = vaddq_s32(vaddl_high_s16(above, below), vaddl_high_s16(left, right));
            let low = damp(
                vsubw_s16(vshrq_n_s32::<1>(sum_low), vget_low_s16(previous)),
                shift,
            );
            let high = damp(vsubw_high_s16(vshrq_n_s32::<1>(sum_high), previous), shift);
            // `sqxtn` saturates to i16: the reference's clamp.
            vst1q_s16(
                out.as_mut_ptr().add(x),
                vqmovn_high_s32(vqmovn_s32(low), high),
            );
        }
        x += 8;
    }
    scalar::classic_step_span(up, mid, down, out, damping_shift, x..width - 1);
}

/// `v - (v >> shift)`, with `shift` holding the negated shift amount.
#[inline]
#[target_feature(enable = "neon")]
fn damp(v: int32x4_t, shift: int32x4_t) -> int32x4_t {
    vsubq_s32(v, vshlq_s32(v, shift))
}

/// NEON version of [`scalar::classic_render_row`].
///
/// # Safety
///
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub unsafe fn classic_render_row(
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
    let max_x = vdupq_n_s32(width as i32 - 1);
    let max_y = vdupq_n_s32(height as i32 - 1);
    let row_y = vdupq_n_s32(y as i32);
    let stride = vdupq_n_s32(width as i32);
    let zero = vdupq_n_s32(0);
    let four = vdupq_n_s32(4);
    // SAFETY: `LANES` holds four `i32`.
    let lanes = unsafe { vld1q_s32(LANES.as_ptr()) };
    let base = src.as_ptr().cast::<u32>();
    let clamp_index = |column: int32x4_t, dx: int32x4_t, dy: int32x4_t| {
        let sx = vminq_s32(vmaxq_s32(vaddq_s32(column, dx), zero), max_x);
        let sy = vminq_s32(vmaxq_s32(vaddq_s32(row_y, dy), zero), max_y);
        vmlaq_s32(sx, sy, stride)
    };
    let mut x = 1;
    while x + 8 < width {
        // SAFETY: 1 <= x and x + 8 < width, so the 8 heights read at x - 1, x and x + 1 (up to
        // index x + 8) and the 8 pixels written at x lie inside rows of `width`. The loaded
        // indices are `sy * width + sx` with `sx` clamped to [0, width) and `sy` to
        // [0, height), so they lie inside `src` (`width * height` pixels, which fits in i32).
        unsafe {
            let above = vld1q_s16(up.as_ptr().add(x));
            let below = vld1q_s16(down.as_ptr().add(x));
            let left = vld1q_s16(mid.as_ptr().add(x - 1));
            let right = vld1q_s16(mid.as_ptr().add(x + 1));
            let column = vaddq_s32(vdupq_n_s32(x as i32), lanes);
            let low = clamp_index(
                column,
                vsubl_s16(vget_low_s16(left), vget_low_s16(right)),
                vsubl_s16(vget_low_s16(above), vget_low_s16(below)),
            );
            let high = clamp_index(
                vaddq_s32(column, four),
                vsubl_high_s16(left, right),
                vsubl_high_s16(above, below),
            );
            let out = dst_row.as_mut_ptr().add(x).cast::<u8>();
            vst1q_u8(out, vreinterpretq_u8_u32(load_4_words(base, low)));
            vst1q_u8(out.add(16), vreinterpretq_u8_u32(load_4_words(base, high)));
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
#[target_feature(enable = "neon")]
unsafe fn load_4_words(base: *const u32, index: int32x4_t) -> uint32x4_t {
    let word = |i: i32| {
        // SAFETY: the caller guarantees that every lane is a valid index; pixels are `[u8; 4]`,
        // so the word may be unaligned.
        unsafe { base.add(i as u32 as usize).read_unaligned() }
    };
    let v = vdupq_n_u32(word(vgetq_lane_s32::<0>(index)));
    let v = vsetq_lane_u32::<1>(word(vgetq_lane_s32::<1>(index)), v);
    let v = vsetq_lane_u32::<2>(word(vgetq_lane_s32::<2>(index)), v);
    vsetq_lane_u32::<3>(word(vgetq_lane_s32::<3>(index)), v)
}

/// NEON version of [`scalar::resampled_classic_row`], 4 pixels per iteration.
///
/// `frinta` rounds to the nearest integer with halves away from zero, which is `f32::round`
/// exactly; the clamp is the compare-and-select of [`clamp_f32`] (a NaN coordinate becomes 0, as
/// the reference's `as usize` makes it). The four source pixels are loaded one by one, or, where
/// all four slopes are below one half in size (no displacement), the four under them with one
/// load.
///
/// # Safety
///
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub unsafe fn resampled_classic_row(
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
        unsafe { (vld1q_f32(gx.as_ptr().add(x)), vld1q_f32(gy.as_ptr().add(x))) }
    };
    // SAFETY: NEON is this function's precondition; the checks above are
    // `resampled_classic`'s.
    let done = unsafe { resampled_classic(y, height, gradient, src, dst_row) };
    scalar::resampled_classic_span(y, height, gx, gy, src, dst_row, done..width);
}

/// NEON version of [`scalar::resampled_classic_blended_row`]: the blend in vector lanes, in the
/// reference's order (no fused multiply-add), then as [`resampled_classic_row`].
///
/// # Safety
///
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub unsafe fn resampled_classic_blended_row(
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
            let top = vld1q_f32(row.top.as_ptr().add(x));
            let bottom = vld1q_f32(row.bottom.as_ptr().add(x));
            vaddq_f32(top, vmulq_n_f32(vsubq_f32(bottom, top), row.weight))
        }
    };
    let gradient = |x: usize| (blend(&gx, x), blend(&gy, x));
    // SAFETY: NEON is this function's precondition; the checks above are
    // `resampled_classic`'s.
    let done = unsafe { resampled_classic(y, height, gradient, src, dst_row) };
    scalar::resampled_classic_blended_span(y, height, gx, gy, src, dst_row, done..width);
}

/// The classic refraction of row `y`, 4 pixels at a time, with the gradient of the 4 pixels
/// from `x` given by `gradient(x)`; returns the column where the vectors stopped.
///
/// # Safety
///
/// The CPU must support NEON, `y < height`, `width * height` (`width` being `dst_row`'s) must
/// fit in i32 and `width` must be below 2^24.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn resampled_classic(
    y: usize,
    height: usize,
    gradient: impl Fn(usize) -> (float32x4_t, float32x4_t),
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
) -> usize {
    let width = dst_row.len();
    let src = &src[..width * height];
    let max_x = vdupq_n_f32(width as f32 - 1.0);
    let max_y = vdupq_n_f32(height as f32 - 1.0);
    let row_y = vdupq_n_f32(y as f32);
    let stride = vdupq_n_s32(width as i32);
    // SAFETY: `LANES` holds four `i32`.
    let lanes = unsafe { vld1q_s32(LANES.as_ptr()) };
    let base = src.as_ptr().cast::<u32>();
    let row_start = y * width;
    let mut x = 0;
    while x + 4 <= width {
        let (gx, gy) = gradient(x);
        // Slopes below one half in size round to no displacement (`facgt` compares sizes; a
        // NaN compares false and takes the full path).
        let half = vdupq_n_f32(0.5);
        if vminvq_u32(vandq_u32(vcaltq_f32(gx, half), vcaltq_f32(gy, half))) == u32::MAX {
            // SAFETY: x + 4 <= width and y < height, so the 4 source pixels under the 4
            // written at x lie inside `src` and the row.
            unsafe {
                let under = vld1q_u8(src.as_ptr().add(row_start + x).cast());
                vst1q_u8(dst_row.as_mut_ptr().add(x).cast(), under);
            }
            x += 4;
            continue;
        }
        let column = vcvtq_f32_s32(vaddq_s32(vdupq_n_s32(x as i32), lanes));
        let sx = clamp_f32(vaddq_f32(column, vrndaq_f32(gx)), max_x);
        let sy = clamp_f32(vaddq_f32(row_y, vrndaq_f32(gy)), max_y);
        let index = vmlaq_s32(vcvtq_s32_f32(sx), vcvtq_s32_f32(sy), stride);
        // SAFETY: x + 4 <= width, so the 4 pixels written at x lie inside the row. The
        // coordinates are clamped to [0, width - 1] and [0, height - 1] before conversion, so
        // `sy * width + sx` lies inside `src` (`width * height` pixels, which fits in i32);
        // `x + lane < 2^24` is exact in f32.
        unsafe {
            let pixels = vreinterpretq_u8_u32(load_4_words(base, index));
            vst1q_u8(dst_row.as_mut_ptr().add(x).cast(), pixels);
        }
        x += 4;
    }
    x
}

/// NEON version of [`scalar::upsample_row`], 4 columns per iteration.
///
/// As the x86 kernels, without a gather: the 4 columns' left cells lie within 4 consecutive
/// cells, so one load from the first column's left cell and a table lookup of its bytes (`tbl`,
/// with indices built from the columns' offsets from that cell) put each column's cell in its
/// lane; the same lookup in the load one cell further gives the cells after them. The loop stops
/// while a load would pass the row's last cell; the reference finishes the row. No fused
/// multiply-add: the reference's operations, one instruction each.
///
/// # Safety
///
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub unsafe fn upsample_row(row: &[f32], columns: &GridColumns, out: &mut [f32]) {
    let width = out.len();
    let grid_width = columns.grid_width();
    if grid_width == 0 || grid_width > i32::MAX as usize {
        scalar::upsample_row(row, columns, out);
        return;
    }
    let row = &row[..grid_width];
    let (left, weight) = (&columns.left()[..width], &columns.weight()[..width]);
    let repeat = vdupq_n_u32(0x0404_0404);
    let bytes = vdupq_n_u32(0x0302_0100);
    let mut x = 0;
    while x + 4 <= width {
        let first = left[x] as usize;
        if first + 5 > grid_width {
            break;
        }
        // SAFETY: x + 4 <= width, so the 4 entries of `left` and `weight` read and the 4 values
        // written at x lie inside rows of `width`; first + 5 <= grid_width, so the 5 cells
        // read from `first` lie inside `row`. `tbl` gives 0 for an index past its table.
        unsafe {
            let lefts = vld1q_u32(left.as_ptr().add(x));
            let offsets = vsubq_u32(lefts, vdupq_n_u32(first as u32));
            // Lane i takes bytes 4 * offset .. 4 * offset + 4 of the loaded cells.
            let control = vreinterpretq_u8_u32(vmlaq_u32(bytes, offsets, repeat));
            let cells = vreinterpretq_u8_f32(vld1q_f32(row.as_ptr().add(first)));
            let next_cells = vreinterpretq_u8_f32(vld1q_f32(row.as_ptr().add(first + 1)));
            let at_left = vreinterpretq_f32_u8(vqtbl1q_u8(cells, control));
            let at_right = vreinterpretq_f32_u8(vqtbl1q_u8(next_cells, control));
            let step = vmulq_f32(
                vsubq_f32(at_right, at_left),
                vld1q_f32(weight.as_ptr().add(x)),
            );
            vst1q_f32(out.as_mut_ptr().add(x), vaddq_f32(at_left, step));
        }
        x += 4;
    }
    scalar::upsample_span(row, columns, out, x..width);
}

/// NEON version of [`scalar::lit_render_row`].
///
/// # Safety
///
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub unsafe fn lit_render_row(
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

    let refraction = vdupq_n_f32(look.refraction);
    let slope = vdupq_n_f32(look.slope);
    let (light_x, light_y) = (vdupq_n_f32(look.light[0]), vdupq_n_f32(look.light[1]));
    let max_x = vdupq_n_f32(width as f32 - 1.0);
    let max_y = vdupq_n_f32(height as f32 - 1.0);
    let last_column = vdupq_n_s32(width as i32 - 1);
    let last_row = vdupq_n_s32(height as i32 - 1);
    let stride = vdupq_n_s32(width as i32);
    let row_y = vdupq_n_f32(y as f32);
    // SAFETY: `LANES` holds four `i32`.
    let lanes = unsafe { vld1q_s32(LANES.as_ptr()) };
    let one = vdupq_n_f32(1.0);
    let half = vdupq_n_f32(0.5);
    let fixed_one = vdupq_n_f32(128.0);
    let weight_mask = vdupq_n_s32(127);
    let half_table = vdupq_n_f32(LIT_TABLE_HALF as f32);
    let table_span = vdupq_n_f32(LIT_TABLE_SPAN as f32);
    let one_step = vdupq_n_s32(1);
    let gain_mask = vdupq_n_u32(LIT_GAIN_MASK);
    let max_highlight = vdupq_n_u32(255);
    // The alpha channel (u16 lanes 3 and 7) of two pixels.
    let alpha_lanes = vreinterpretq_u16_u64(vdupq_n_u64(0xffff_0000_0000_0000));
    let alpha_gain = vdupq_n_u16(256);
    let pixels = src.as_ptr().cast::<u32>();
    let entries = table.as_ptr();

    let mut x = 0;
    while x + 4 <= width {
        // SAFETY: x + 4 <= width, so the 4 gradients read and the 4 pixels written at x lie
        // inside rows of `width`. Sample positions are clamped to [0, width-1] x [0, height-1]
        // before they become indices (NaN to 0, see `clamp_f32`), and the second column and row
        // are clamped again, so every loaded pixel lies inside `src` (`width * height` pixels,
        // which fits in i32). Table indices are clamped to [0, LIT_TABLE_SPAN] and `table` has
        // `LIT_TABLE_SPAN + 1` entries.
        unsafe {
            let grad_x = vld1q_f32(gx.as_ptr().add(x));
            let grad_y = vld1q_f32(gy.as_ptr().add(x));
            // `x + lane` converted from i32 is `(x + lane) as f32`, exactly as the reference.
            let column = vcvtq_f32_s32(vaddq_s32(vdupq_n_s32(x as i32), lanes));
            let sx = clamp_f32(vaddq_f32(column, vmulq_f32(refraction, grad_x)), max_x);
            let sy = clamp_f32(vaddq_f32(row_y, vmulq_f32(refraction, grad_y)), max_y);
            let fixed_x = vcvtq_s32_f32(vmulq_f32(sx, fixed_one));
            let fixed_y = vcvtq_s32_f32(vmulq_f32(sy, fixed_one));
            let (x0, y0) = (vshrq_n_s32::<7>(fixed_x), vshrq_n_s32::<7>(fixed_y));
            let (wx, wy) = (
                vreinterpretq_u32_s32(vandq_s32(fixed_x, weight_mask)),
                vreinterpretq_u32_s32(vandq_s32(fixed_y, weight_mask)),
            );
            let x1 = vminq_s32(vaddq_s32(x0, one_step), last_column);
            let y1 = vminq_s32(vaddq_s32(y0, one_step), last_row);
            let (row0, row1) = (vmulq_s32(y0, stride), vmulq_s32(y1, stride));
            let p00 = load_4_words(pixels, vaddq_s32(row0, x0));
            let p10 = load_4_words(pixels, vaddq_s32(row0, x1));
            let p01 = load_4_words(pixels, vaddq_s32(row1, x0));
            let p11 = load_4_words(pixels, vaddq_s32(row1, x1));

            let p = vmulq_f32(slope, grad_x);
            let q = vmulq_f32(slope, grad_y);
            let length_squared = vaddq_f32(vaddq_f32(one, vmulq_f32(p, p)), vmulq_f32(q, q));
            let inv_length = vdivq_f32(one, vsqrtq_f32(length_squared));
            let facing = vmulq_f32(
                vaddq_f32(vmulq_f32(p, light_x), vmulq_f32(q, light_y)),
                inv_length,
            );
            let scaled = vaddq_f32(vmulq_f32(vaddq_f32(facing, one), half_table), half);
            let table_index = vcvtq_s32_f32(clamp_f32(scaled, table_span));
            let entry = load_4_words(entries, table_index);
            let gain = vandq_u32(entry, gain_mask);
            // The result is at most 255, so a highlight above 255 acts as 255; capping it keeps
            // the 16-bit lanes below exact for any table.
            let highlight = vminq_u32(
                vshrq_n_u32::<{ LIT_GAIN_BITS as i32 }>(entry),
                max_highlight,
            );

            // Pixels 0, 1 in `low`, 2, 3 in `high`, four u16 channels each.
            let (wx_low, wx_high) = spread_per_channel(wx);
            let (wy_low, wy_high) = spread_per_channel(wy);
            let (gain_low, gain_high) = spread_per_channel(gain);
            let (light_low, light_high) = spread_per_channel(highlight);
            let low = shade(
                lerp_i16(
                    lerp_i16(widen_low(p00), widen_low(p10), wx_low),
                    lerp_i16(widen_low(p01), widen_low(p11), wx_low),
                    wy_low,
                ),
                vbslq_u16(alpha_lanes, alpha_gain, gain_low),
                vbicq_u16(light_low, alpha_lanes),
            );
            let high = shade(
                lerp_i16(
                    lerp_i16(widen_high(p00), widen_high(p10), wx_high),
                    lerp_i16(widen_high(p01), widen_high(p11), wx_high),
                    wy_high,
                ),
                vbslq_u16(alpha_lanes, alpha_gain, gain_high),
                vbicq_u16(light_high, alpha_lanes),
            );
            // `uqxtn` saturates to 255 (the reference's `min`).
            vst1q_u8(
                dst_row.as_mut_ptr().add(x).cast::<u8>(),
                vqmovn_high_u16(vqmovn_u16(low), high),
            );
        }
        x += 4;
    }
    scalar::lit_render_span(y, height, gx, gy, src, dst_row, look, x..width);
}

/// `clamp(value, 0, max)` with NaN sent to 0, as [`scalar::clamp_position`] writes it:
/// `v > 0 ? v : 0`, then `v < max ? v : max` (a failed comparison picks the bound, so NaN
/// becomes 0 and -0 becomes +0). `fmax`/`fmin` would propagate NaN instead.
#[inline]
#[target_feature(enable = "neon")]
fn clamp_f32(value: float32x4_t, max: float32x4_t) -> float32x4_t {
    let zero = vdupq_n_f32(0.0);
    let at_least_zero = vbslq_f32(vcgtq_f32(value, zero), value, zero);
    vbslq_f32(vcltq_f32(at_least_zero, max), at_least_zero, max)
}

/// Bytes of pixels 0, 1 as 16-bit lanes.
#[inline]
#[target_feature(enable = "neon")]
fn widen_low(pixels: uint32x4_t) -> int16x8_t {
    vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(vreinterpretq_u8_u32(pixels))))
}

/// Bytes of pixels 2, 3 as 16-bit lanes.
#[inline]
#[target_feature(enable = "neon")]
fn widen_high(pixels: uint32x4_t) -> int16x8_t {
    vreinterpretq_s16_u16(vmovl_high_u8(vreinterpretq_u8_u32(pixels)))
}

/// A per-pixel value (< 2^16, in u32 lanes) repeated over the pixel's four u16 channels, in the
/// order of [`widen_low`] and [`widen_high`].
#[inline]
#[target_feature(enable = "neon")]
fn spread_per_channel(value: uint32x4_t) -> (uint16x8_t, uint16x8_t) {
    let doubled = vorrq_u32(value, vshlq_n_u32::<16>(value));
    (
        vreinterpretq_u16_u32(vzip1q_u32(doubled, doubled)),
        vreinterpretq_u16_u32(vzip2q_u32(doubled, doubled)),
    )
}

/// `a + (((b - a) * w) >> 7)` in i16 lanes (|b - a| <= 255, w <= 127: no overflow).
#[inline]
#[target_feature(enable = "neon")]
fn lerp_i16(a: int16x8_t, b: int16x8_t, weight: uint16x8_t) -> int16x8_t {
    let step = vmulq_s16(vsubq_s16(b, a), vreinterpretq_s16_u16(weight));
    vaddq_s16(a, vshrq_n_s16::<7>(step))
}

/// `((sample << 8) * gain) >> 16 + highlight` in u16 lanes, computed as
/// `((sample * gain) >> 8) + highlight` with a widening multiply (the same integer for
/// `sample < 256`).
#[inline]
#[target_feature(enable = "neon")]
fn shade(sample: int16x8_t, gain: uint16x8_t, highlight: uint16x8_t) -> uint16x8_t {
    let sample = vreinterpretq_u16_s16(sample);
    let low = vshrn_n_u32::<8>(vmull_u16(vget_low_u16(sample), vget_low_u16(gain)));
    let lit = vshrn_high_n_u32::<8>(low, vmull_high_u16(sample, gain));
    vqaddq_u16(lit, highlight)
}
