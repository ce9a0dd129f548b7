//! SSE4.1 kernels: 8 cells or pixels of the classic step and render, 4 of the lit look and of the
//! classic look over upsampled gradients per iteration, and the upsampling of a coarser grid's
//! rows.
//!
//! The x86-64 fallback for CPUs without AVX2, shaped like [`super::avx2`] at half the width. The
//! step loads 8 cells, widens each half to `i32` lanes (`pmovsxwd`) so the sum of four neighbours
//! cannot overflow, and narrows with `packs`, which saturates exactly as the reference clamps.
//! SSE4.1 has no gather, so the renders compute the four source indices in vector lanes (`pminsd`,
//! `pmaxsd`, `pmulld` are what SSE4.1 adds over SSE2) and then load the four pixels one by one
//! into the lanes of a vector, which goes out in one store. The lit look does its float
//! math in vectors, in exactly the reference's order (no FMA), and blends its four corners in
//! 16-bit lanes as the AVX2 kernel does (7-bit weights keep every product inside `i16`). Each
//! loop stops where a full vector would leave the row and the scalar reference finishes the row,
//! so the output is the reference's, bit for bit.
//!
//! Worth having next to AVX2: on 1920x1080 frames (AMD EPYC, release build, best of 15 runs on a
//! shared machine, so only roughly) it steps about 2.2x and renders the lit look about 3.5x as
//! fast as the scalar reference, where AVX2 gets about 4.5x and 4x; the classic render is bound
//! by memory and gains 2-5x with either.

use std::arch::x86_64::*;

use super::scalar::{
    self, BlendedRow, GridColumns, LIT_GAIN_BITS, LIT_GAIN_MASK, LIT_TABLE_HALF, LIT_TABLE_SPAN,
    LitLook,
};
use super::{ALMOST_HALF, LIT_MAX_SIDE};

/// SSE4.1 version of [`scalar::classic_step_row`].
///
/// Like the reference, `damping_shift` must be below 32 (the solvers allow `1..=15`).
///
/// # Safety
///
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
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
    let shift = _mm_cvtsi32_si128(damping_shift as i32);
    let mut x = 1;
    while x + 8 < width {
        // SAFETY: 1 <= x and x + 8 < width, so the 8 cells read at x - 1, x, x + 1 (up to
        // index x + 8) and written at x lie inside rows of `width` cells.
        unsafe {
            let above = load_i16x8(up.as_ptr().add(x));
            let below = load_i16x8(down.as_ptr().add(x));
            let left = load_i16x8(mid.as_ptr().add(x - 1));
            let right = load_i16x8(mid.as_ptr().add(x + 1));
            let previous = load_i16x8(out.as_ptr().add(x));
            let low = step_i32x4(above, below, left, right, previous, shift);
            let high = step_i32x4(
                high_half(above),
                high_half(below),
                high_half(left),
                high_half(right),
                high_half(previous),
                shift,
            );
            // `packs` saturates to i16: the reference's clamp.
            _mm_storeu_si128(out.as_mut_ptr().add(x).cast(), _mm_packs_epi32(low, high));
        }
        x += 8;
    }
    scalar::classic_step_span(up, mid, down, out, damping_shift, x..width - 1);
}

#[inline]
#[target_feature(enable = "sse4.1")]
unsafe fn load_i16x8(pointer: *const i16) -> __m128i {
    // SAFETY: the caller guarantees 8 readable `i16` at `pointer`; `loadu` needs no alignment.
    unsafe { _mm_loadu_si128(pointer.cast()) }
}

/// Lanes 4..8 of eight `i16` moved down to lanes 0..4.
#[inline]
#[target_feature(enable = "sse4.1")]
fn high_half(cells: __m128i) -> __m128i {
    _mm_unpackhi_epi64(cells, cells)
}

/// `v = ((up + down + left + right) >> 1) - previous; v -= v >> shift` on the low 4 cells,
/// widened to i32.
#[inline]
#[target_feature(enable = "sse4.1")]
fn step_i32x4(
    up: __m128i,
    down: __m128i,
    left: __m128i,
    right: __m128i,
    previous: __m128i,
    shift: __m128i,
) -> __m128i {
    let sum = _mm_add_epi32(
        _mm_add_epi32(_mm_cvtepi16_epi32(up), _mm_cvtepi16_epi32(down)),
        _mm_add_epi32(_mm_cvtepi16_epi32(left), _mm_cvtepi16_epi32(right)),
    );
    let v = _mm_sub_epi32(_mm_srai_epi32::<1>(sum), _mm_cvtepi16_epi32(previous));
    _mm_sub_epi32(v, _mm_sra_epi32(v, shift))
}

/// SSE4.1 version of [`scalar::classic_render_row`].
///
/// # Safety
///
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
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
    // SAFETY: the caller's guarantee (SSE4.1) is this function's.
    unsafe { classic_render_columns(y, height, up, mid, down, src, dst_row, 0..width) }
}

/// SSE4.1 version of [`scalar::classic_render_columns`].
///
/// # Safety
///
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn classic_render_columns(
    y: usize,
    height: usize,
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
    columns: std::ops::Range<usize>,
) {
    let width = dst_row.len();
    let cells = width * height;
    if width < 3 || y >= height || cells > i32::MAX as usize || columns.end > width {
        scalar::classic_render_columns(y, height, up, mid, down, src, dst_row, columns);
        return;
    }
    let src = &src[..cells];
    let (up, mid, down) = (&up[..width], &mid[..width], &down[..width]);
    if columns.contains(&0) {
        dst_row[0] = src[y * width];
    }
    if columns.contains(&(width - 1)) {
        dst_row[width - 1] = src[y * width + width - 1];
    }
    let end = columns.end.min(width - 1);
    let max_x = _mm_set1_epi32(width as i32 - 1);
    let max_y = _mm_set1_epi32(height as i32 - 1);
    let row_y = _mm_set1_epi32(y as i32);
    let stride = _mm_set1_epi32(width as i32);
    let lanes = _mm_setr_epi32(0, 1, 2, 3);
    let four = _mm_set1_epi32(4);
    let base = src.as_ptr().cast::<i32>();
    let mut x = columns.start.max(1);
    // `x < stop` is `x + 8 <= end`, in one comparison of the loop counter.
    let stop = end.saturating_sub(7);
    while x < stop {
        // SAFETY: 1 <= x and x + 8 <= end < width, so the 8 heights read at x - 1, x and x + 1
        // (up to index x + 8) and the 8 pixels written at x lie inside rows of `width`. The
        // loaded indices are `sy * width + sx` with `sx` clamped to [0, width) and `sy` to
        // [0, height), so they lie inside `src` (`width * height` pixels, which fits in i32).
        unsafe {
            let above = load_i16x8(up.as_ptr().add(x));
            let below = load_i16x8(down.as_ptr().add(x));
            let left = load_i16x8(mid.as_ptr().add(x - 1));
            let right = load_i16x8(mid.as_ptr().add(x + 1));
            let column = _mm_add_epi32(_mm_set1_epi32(x as i32), lanes);
            let low = source_index(
                column,
                row_y,
                [left, right, above, below],
                stride,
                max_x,
                max_y,
            );
            let high = source_index(
                _mm_add_epi32(column, four),
                row_y,
                [
                    high_half(left),
                    high_half(right),
                    high_half(above),
                    high_half(below),
                ],
                stride,
                max_x,
                max_y,
            );
            let out = dst_row.as_mut_ptr().add(x).cast::<__m128i>();
            _mm_storeu_si128(out, load_4_pixels(base, low));
            _mm_storeu_si128(out.add(1), load_4_pixels(base, high));
        }
        x += 8;
    }
    scalar::classic_render_span(y, height, up, mid, down, src, dst_row, x..end);
}

/// `clamp(column + left - right, 0, max_x) + clamp(row + above - below, 0, max_y) * stride`
/// for the low 4 cells of `[left, right, above, below]`, widened to i32.
#[inline]
#[target_feature(enable = "sse4.1")]
fn source_index(
    column: __m128i,
    row: __m128i,
    [left, right, above, below]: [__m128i; 4],
    stride: __m128i,
    max_x: __m128i,
    max_y: __m128i,
) -> __m128i {
    let zero = _mm_setzero_si128();
    let dx = _mm_sub_epi32(_mm_cvtepi16_epi32(left), _mm_cvtepi16_epi32(right));
    let dy = _mm_sub_epi32(_mm_cvtepi16_epi32(above), _mm_cvtepi16_epi32(below));
    let sx = _mm_min_epi32(_mm_max_epi32(_mm_add_epi32(column, dx), zero), max_x);
    let sy = _mm_min_epi32(_mm_max_epi32(_mm_add_epi32(row, dy), zero), max_y);
    _mm_add_epi32(_mm_mullo_epi32(sy, stride), sx)
}

/// The four 32-bit words at `base[index[i]]`, loaded one by one into the lanes of a vector.
///
/// # Safety
///
/// Every lane of `index` must be a valid (non-negative) index of the words at `base`.
#[inline]
#[target_feature(enable = "sse4.1")]
unsafe fn load_4_pixels(base: *const i32, index: __m128i) -> __m128i {
    let word = |i: i32| {
        // SAFETY: the caller guarantees that every lane is a valid index; pixels are `[u8; 4]`,
        // so the word may be unaligned.
        unsafe { base.add(i as u32 as usize).read_unaligned() }
    };
    _mm_setr_epi32(
        word(_mm_cvtsi128_si32(index)),
        word(_mm_extract_epi32::<1>(index)),
        word(_mm_extract_epi32::<2>(index)),
        word(_mm_extract_epi32::<3>(index)),
    )
}

/// SSE4.1 version of [`scalar::resampled_classic_row`], 4 pixels per iteration.
///
/// The coordinates are computed in vector lanes as in the AVX2 kernel (rounding halves away
/// from zero built from truncation, `maxps` turning a NaN coordinate into 0 as the reference's
/// `as usize` does); the four source pixels are then loaded one by one, or, where all four
/// slopes are below one half in size (no displacement), the four under them with one load.
///
/// # Safety
///
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
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
        unsafe {
            (
                _mm_loadu_ps(gx.as_ptr().add(x)),
                _mm_loadu_ps(gy.as_ptr().add(x)),
            )
        }
    };
    // SAFETY: SSE4.1 is this function's precondition; the checks above are
    // `resampled_classic`'s.
    let done = unsafe { resampled_classic(y, height, gradient, src, dst_row) };
    scalar::resampled_classic_span(y, height, gx, gy, src, dst_row, done..width);
}

/// SSE4.1 version of [`scalar::resampled_classic_blended_row`]: the blend in vector lanes, in
/// the reference's order, then as [`resampled_classic_row`].
///
/// # Safety
///
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
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
            let top = _mm_loadu_ps(row.top.as_ptr().add(x));
            let bottom = _mm_loadu_ps(row.bottom.as_ptr().add(x));
            _mm_add_ps(
                top,
                _mm_mul_ps(_mm_sub_ps(bottom, top), _mm_set1_ps(row.weight)),
            )
        }
    };
    let gradient = |x: usize| (blend(&gx, x), blend(&gy, x));
    // SAFETY: SSE4.1 is this function's precondition; the checks above are
    // `resampled_classic`'s.
    let done = unsafe { resampled_classic(y, height, gradient, src, dst_row) };
    scalar::resampled_classic_blended_span(y, height, gx, gy, src, dst_row, done..width);
}

/// The classic refraction of row `y`, 4 pixels at a time, with the gradient of the 4 pixels
/// from `x` given by `gradient(x)`; returns the column where the vectors stopped.
///
/// # Safety
///
/// The CPU must support SSE4.1, `y < height`, `width * height` (`width` being `dst_row`'s) must
/// fit in i32 and `width` must be below 2^24.
#[inline]
#[target_feature(enable = "sse4.1")]
unsafe fn resampled_classic(
    y: usize,
    height: usize,
    gradient: impl Fn(usize) -> (__m128, __m128),
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
) -> usize {
    let width = dst_row.len();
    let src = &src[..width * height];
    let zero = _mm_setzero_ps();
    let max_x = _mm_set1_ps(width as f32 - 1.0);
    let max_y = _mm_set1_ps(height as f32 - 1.0);
    let row_y = _mm_set1_ps(y as f32);
    let stride = _mm_set1_epi32(width as i32);
    let lanes = _mm_setr_ps(0.0, 1.0, 2.0, 3.0);
    let base = src.as_ptr().cast::<i32>();
    let row_start = y * width;
    let mut x = 0;
    while x + 4 <= width {
        let (gx, gy) = gradient(x);
        // Slopes below one half in size round to no displacement (see the AVX2 kernel).
        let half = _mm_set1_ps(0.5);
        let magnitude = |g| _mm_andnot_ps(_mm_set1_ps(-0.0), g);
        let small = _mm_and_ps(
            _mm_cmplt_ps(magnitude(gx), half),
            _mm_cmplt_ps(magnitude(gy), half),
        );
        if _mm_movemask_ps(small) == 0xf {
            // SAFETY: x + 4 <= width and y < height, so the 4 source pixels under the 4
            // written at x lie inside `src` and the row.
            unsafe {
                let under = _mm_loadu_si128(src.as_ptr().add(row_start + x).cast());
                _mm_storeu_si128(dst_row.as_mut_ptr().add(x).cast(), under);
            }
            x += 4;
            continue;
        }
        let column = _mm_add_ps(_mm_set1_ps(x as f32), lanes);
        let sx = _mm_min_ps(
            _mm_max_ps(_mm_add_ps(column, round_half_away(gx)), zero),
            max_x,
        );
        let sy = _mm_min_ps(
            _mm_max_ps(_mm_add_ps(row_y, round_half_away(gy)), zero),
            max_y,
        );
        let index = _mm_add_epi32(
            _mm_mullo_epi32(_mm_cvttps_epi32(sy), stride),
            _mm_cvttps_epi32(sx),
        );
        // SAFETY: x + 4 <= width, so the 4 pixels written at x lie inside the row. The
        // coordinates are clamped to [0, width - 1] and [0, height - 1] before conversion, so
        // `sy * width + sx` lies inside `src` (`width * height` pixels, which fits in i32);
        // `x + lane < 2^24` is exact in f32.
        unsafe {
            _mm_storeu_si128(
                dst_row.as_mut_ptr().add(x).cast(),
                load_4_pixels(base, index),
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
#[target_feature(enable = "sse4.1")]
fn round_half_away(value: __m128) -> __m128 {
    let below_half = _mm_or_ps(
        _mm_and_ps(value, _mm_set1_ps(-0.0)),
        _mm_set1_ps(ALMOST_HALF),
    );
    _mm_round_ps::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(_mm_add_ps(value, below_half))
}

/// SSE4.1 version of [`scalar::upsample_row`], 4 columns per iteration.
///
/// As the AVX2 kernel, without a gather: the 4 columns' left cells lie within 4 consecutive
/// cells, so one load from the first column's left cell and a byte shuffle (`pshufb`, whose
/// control is built from the columns' offsets from that cell) put each column's cell in its lane;
/// the same shuffle of the load one cell further gives the cells after them. The loop stops
/// while a load would pass the row's last cell; the reference finishes the row.
///
/// # Safety
///
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
pub unsafe fn upsample_row(row: &[f32], columns: &GridColumns, out: &mut [f32]) {
    let width = out.len();
    let grid_width = columns.grid_width();
    if grid_width == 0 || grid_width > i32::MAX as usize {
        scalar::upsample_row(row, columns, out);
        return;
    }
    let row = &row[..grid_width];
    let (left, weight) = (&columns.left()[..width], &columns.weight()[..width]);
    // Byte 0 of each 32-bit lane, repeated over the lane's 4 bytes, and the byte numbers of a
    // lane.
    let spread = _mm_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12);
    let bytes = _mm_set1_epi32(0x0302_0100);
    let mut x = 0;
    while x + 4 <= width {
        let first = left[x] as usize;
        if first + 5 > grid_width {
            break;
        }
        // SAFETY: x + 4 <= width, so the 4 entries of `left` and `weight` read and the 4 values
        // written at x lie inside rows of `width`; first + 5 <= grid_width, so the 5 cells
        // read from `first` lie inside `row`. `pshufb` only selects bytes of its operand.
        unsafe {
            let lefts = _mm_loadu_si128(left.as_ptr().add(x).cast());
            let offsets = _mm_sub_epi32(lefts, _mm_set1_epi32(first as i32));
            // Lane i takes bytes 4 * offset .. 4 * offset + 4 of the loaded cells.
            let control = _mm_add_epi32(
                _mm_shuffle_epi8(_mm_slli_epi32::<2>(offsets), spread),
                bytes,
            );
            let cells = _mm_castps_si128(_mm_loadu_ps(row.as_ptr().add(first)));
            let next_cells = _mm_castps_si128(_mm_loadu_ps(row.as_ptr().add(first + 1)));
            let at_left = _mm_castsi128_ps(_mm_shuffle_epi8(cells, control));
            let at_right = _mm_castsi128_ps(_mm_shuffle_epi8(next_cells, control));
            let step = _mm_mul_ps(
                _mm_sub_ps(at_right, at_left),
                _mm_loadu_ps(weight.as_ptr().add(x)),
            );
            _mm_storeu_ps(out.as_mut_ptr().add(x), _mm_add_ps(at_left, step));
        }
        x += 4;
    }
    scalar::upsample_span(row, columns, out, x..width);
}

/// SSE4.1 version of [`scalar::lit_render_row`].
///
/// # Safety
///
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
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

    let refraction = _mm_set1_ps(look.refraction);
    let slope = _mm_set1_ps(look.slope);
    let (light_x, light_y) = (_mm_set1_ps(look.light[0]), _mm_set1_ps(look.light[1]));
    let max_x = _mm_set1_ps(width as f32 - 1.0);
    let max_y = _mm_set1_ps(height as f32 - 1.0);
    let last_column = _mm_set1_epi32(width as i32 - 1);
    let last_row = _mm_set1_epi32(height as i32 - 1);
    let stride = _mm_set1_epi32(width as i32);
    let row_y = _mm_set1_ps(y as f32);
    let lanes = _mm_setr_epi32(0, 1, 2, 3);
    let one = _mm_set1_ps(1.0);
    let fixed_one = _mm_set1_ps(128.0);
    let weight_mask = _mm_set1_epi32(127);
    let half_table = _mm_set1_ps(LIT_TABLE_HALF as f32);
    let table_span = _mm_set1_ps(LIT_TABLE_SPAN as f32);
    let one_step = _mm_set1_epi32(1);
    let gain_mask = _mm_set1_epi32(LIT_GAIN_MASK as i32);
    let max_highlight = _mm_set1_epi32(255);
    let alpha_gain = _mm_set1_epi16(256);
    let zero_i = _mm_setzero_si128();
    let pixels = src.as_ptr().cast::<i32>();
    let entries = table.as_ptr().cast::<i32>();

    let mut x = 0;
    while x + 4 <= width {
        // SAFETY: x + 4 <= width, so the 4 gradients read and the 4 pixels written at x lie
        // inside rows of `width`. Sample positions are clamped to [0, width-1] x [0, height-1]
        // before they become indices (NaN to 0, as `max`/`min` order their operands), and the
        // second column and row are clamped again, so every loaded pixel lies inside `src`
        // (`width * height` pixels, which fits in i32). Table indices are clamped to
        // [0, LIT_TABLE_SPAN] and `table` has `LIT_TABLE_SPAN + 1` entries.
        unsafe {
            let grad_x = _mm_loadu_ps(gx.as_ptr().add(x));
            let grad_y = _mm_loadu_ps(gy.as_ptr().add(x));
            // `x + lane` converted from i32 is `(x + lane) as f32`, exactly as the reference.
            let column = _mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(x as i32), lanes));
            let sx = clamp_ps(_mm_add_ps(column, _mm_mul_ps(refraction, grad_x)), max_x);
            let sy = clamp_ps(_mm_add_ps(row_y, _mm_mul_ps(refraction, grad_y)), max_y);
            let fixed_x = _mm_cvttps_epi32(_mm_mul_ps(sx, fixed_one));
            let fixed_y = _mm_cvttps_epi32(_mm_mul_ps(sy, fixed_one));
            let (x0, y0) = (_mm_srai_epi32::<7>(fixed_x), _mm_srai_epi32::<7>(fixed_y));
            let (wx, wy) = (
                _mm_and_si128(fixed_x, weight_mask),
                _mm_and_si128(fixed_y, weight_mask),
            );
            let x1 = _mm_min_epi32(_mm_add_epi32(x0, one_step), last_column);
            let y1 = _mm_min_epi32(_mm_add_epi32(y0, one_step), last_row);
            let (row0, row1) = (_mm_mullo_epi32(y0, stride), _mm_mullo_epi32(y1, stride));
            let p00 = load_4_pixels(pixels, _mm_add_epi32(row0, x0));
            let p10 = load_4_pixels(pixels, _mm_add_epi32(row0, x1));
            let p01 = load_4_pixels(pixels, _mm_add_epi32(row1, x0));
            let p11 = load_4_pixels(pixels, _mm_add_epi32(row1, x1));

            let p = _mm_mul_ps(slope, grad_x);
            let q = _mm_mul_ps(slope, grad_y);
            let length_squared = _mm_add_ps(_mm_add_ps(one, _mm_mul_ps(p, p)), _mm_mul_ps(q, q));
            let inv_length = _mm_div_ps(one, _mm_sqrt_ps(length_squared));
            let facing = _mm_mul_ps(
                _mm_add_ps(_mm_mul_ps(p, light_x), _mm_mul_ps(q, light_y)),
                inv_length,
            );
            let scaled = _mm_add_ps(
                _mm_mul_ps(_mm_add_ps(facing, one), half_table),
                _mm_set1_ps(0.5),
            );
            let table_index = _mm_cvttps_epi32(clamp_ps(scaled, table_span));
            let entry = load_4_pixels(entries, table_index);
            let gain = _mm_and_si128(entry, gain_mask);
            // The result is at most 255, so a highlight above 255 acts as 255; capping it keeps
            // the 16-bit lanes below exact for any table.
            let highlight = _mm_min_epu32(
                _mm_srli_epi32::<{ LIT_GAIN_BITS as i32 }>(entry),
                max_highlight,
            );

            // Pixels 0, 1 in `low`, 2, 3 in `high`, four u16 channels each.
            let (wx_low, wx_high) = spread_per_channel(wx);
            let (wy_low, wy_high) = spread_per_channel(wy);
            let (gain_low, gain_high) = spread_per_channel(gain);
            let (light_low, light_high) = spread_per_channel(highlight);
            let low = shade(
                lerp_u16(
                    lerp_u16(widen_low(p00), widen_low(p10), wx_low),
                    lerp_u16(widen_low(p01), widen_low(p11), wx_low),
                    wy_low,
                ),
                _mm_blend_epi16::<0b1000_1000>(gain_low, alpha_gain),
                _mm_blend_epi16::<0b1000_1000>(light_low, zero_i),
            );
            let high = shade(
                lerp_u16(
                    lerp_u16(widen_high(p00), widen_high(p10), wx_high),
                    lerp_u16(widen_high(p01), widen_high(p11), wx_high),
                    wy_high,
                ),
                _mm_blend_epi16::<0b1000_1000>(gain_high, alpha_gain),
                _mm_blend_epi16::<0b1000_1000>(light_high, zero_i),
            );
            // `packus` saturates to 255 (the reference's `min`).
            _mm_storeu_si128(
                dst_row.as_mut_ptr().add(x).cast(),
                _mm_packus_epi16(low, high),
            );
        }
        x += 4;
    }
    scalar::lit_render_span(y, height, gx, gy, src, dst_row, look, x..width);
}

/// `clamp(value, 0, max)` with NaN sent to 0: `max_ps` returns its second operand when the
/// comparison fails, exactly as [`scalar::clamp_position`].
#[inline]
#[target_feature(enable = "sse4.1")]
fn clamp_ps(value: __m128, max: __m128) -> __m128 {
    _mm_min_ps(_mm_max_ps(value, _mm_setzero_ps()), max)
}

/// Bytes of pixels 0, 1 as u16 lanes.
#[inline]
#[target_feature(enable = "sse4.1")]
fn widen_low(pixels: __m128i) -> __m128i {
    _mm_unpacklo_epi8(pixels, _mm_setzero_si128())
}

/// Bytes of pixels 2, 3 as u16 lanes.
#[inline]
#[target_feature(enable = "sse4.1")]
fn widen_high(pixels: __m128i) -> __m128i {
    _mm_unpackhi_epi8(pixels, _mm_setzero_si128())
}

/// A per-pixel value (< 2^16, in i32 lanes) repeated over the pixel's four u16 channels, in the
/// order of [`widen_low`] and [`widen_high`].
#[inline]
#[target_feature(enable = "sse4.1")]
fn spread_per_channel(value: __m128i) -> (__m128i, __m128i) {
    let doubled = _mm_or_si128(value, _mm_slli_epi32::<16>(value));
    (
        _mm_unpacklo_epi32(doubled, doubled),
        _mm_unpackhi_epi32(doubled, doubled),
    )
}

/// `a + (((b - a) * w) >> 7)` in i16 lanes (|b - a| <= 255, w <= 127: no overflow).
#[inline]
#[target_feature(enable = "sse4.1")]
fn lerp_u16(a: __m128i, b: __m128i, weight: __m128i) -> __m128i {
    let step = _mm_mullo_epi16(_mm_sub_epi16(b, a), weight);
    _mm_add_epi16(a, _mm_srai_epi16::<7>(step))
}

/// `((sample << 8) * gain) >> 16 + highlight` in u16 lanes.
#[inline]
#[target_feature(enable = "sse4.1")]
fn shade(sample: __m128i, gain: __m128i, highlight: __m128i) -> __m128i {
    let lit = _mm_mulhi_epu16(_mm_slli_epi16::<8>(sample), gain);
    _mm_adds_epu16(lit, highlight)
}
