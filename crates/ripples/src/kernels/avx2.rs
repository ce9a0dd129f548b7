//! AVX2 kernels: 16 cells of the classic step, 8 pixels of a render per iteration, and the
//! upsampling of a coarser grid's rows (8 columns, with a lane permutation instead of a gather).
//!
//! The step widens `i16` to `i32` lanes so the sum of four neighbours cannot overflow, then
//! narrows with `packs` (which saturates exactly as the reference clamps). The renders compute
//! the eight source indices in vector lanes and fetch the pixels with one `vpgatherdd` per
//! corner. The lit look blends its four corners in 16-bit lanes (7-bit weights keep every
//! product inside `i16`), which is why the reference uses 1/128-pixel weights. Each loop stops
//! where a full vector would leave the row, and the scalar reference finishes the row, so the
//! output is the reference's, bit for bit.

use std::arch::x86_64::*;

use super::scalar::{
    self, BlendedRow, GridColumns, LIT_GAIN_BITS, LIT_GAIN_MASK, LIT_TABLE_HALF, LIT_TABLE_SPAN,
    LitLook,
};
use super::{ALMOST_HALF, LIT_MAX_SIDE};

/// AVX2 version of [`scalar::classic_step_row`].
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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
    while x + 16 < width {
        // SAFETY: 1 <= x and x + 16 < width, so the 16 cells read at x - 1, x, x + 1 (up to
        // index x + 16) and written at x lie inside rows of `width` cells.
        unsafe {
            let above = load_i16x16(up.as_ptr().add(x));
            let below = load_i16x16(down.as_ptr().add(x));
            let left = load_i16x16(mid.as_ptr().add(x - 1));
            let right = load_i16x16(mid.as_ptr().add(x + 1));
            let previous = load_i16x16(out.as_ptr().add(x));
            let low = step_i32x8(
                _mm256_castsi256_si128(above),
                _mm256_castsi256_si128(below),
                _mm256_castsi256_si128(left),
                _mm256_castsi256_si128(right),
                _mm256_castsi256_si128(previous),
                shift,
            );
            let high = step_i32x8(
                _mm256_extracti128_si256::<1>(above),
                _mm256_extracti128_si256::<1>(below),
                _mm256_extracti128_si256::<1>(left),
                _mm256_extracti128_si256::<1>(right),
                _mm256_extracti128_si256::<1>(previous),
                shift,
            );
            // `packs` saturates to i16 (the reference's clamp) but interleaves the 128-bit
            // halves; the permute puts the 16 results back in order.
            let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packs_epi32(low, high));
            _mm256_storeu_si256(out.as_mut_ptr().add(x).cast(), packed);
        }
        x += 16;
    }
    scalar::classic_step_span(up, mid, down, out, damping_shift, x..width - 1);
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load_i16x16(pointer: *const i16) -> __m256i {
    // SAFETY: the caller guarantees 16 readable `i16` at `pointer`; `loadu` needs no alignment.
    unsafe { _mm256_loadu_si256(pointer.cast()) }
}

/// `v = ((up + down + left + right) >> 1) - previous; v -= v >> shift` on 8 widened cells.
#[inline]
#[target_feature(enable = "avx2")]
fn step_i32x8(
    up: __m128i,
    down: __m128i,
    left: __m128i,
    right: __m128i,
    previous: __m128i,
    shift: __m128i,
) -> __m256i {
    let sum = _mm256_add_epi32(
        _mm256_add_epi32(_mm256_cvtepi16_epi32(up), _mm256_cvtepi16_epi32(down)),
        _mm256_add_epi32(_mm256_cvtepi16_epi32(left), _mm256_cvtepi16_epi32(right)),
    );
    let v = _mm256_sub_epi32(_mm256_srai_epi32::<1>(sum), _mm256_cvtepi16_epi32(previous));
    _mm256_sub_epi32(v, _mm256_sra_epi32(v, shift))
}

/// AVX2 version of [`scalar::classic_render_row`].
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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
    // SAFETY: the caller's guarantee (AVX2) is this function's.
    unsafe { classic_render_columns::<false>(y, height, up, mid, down, src, dst_row, 0..width) }
}

/// AVX2 version of [`scalar::classic_render_columns`], with streaming (non-temporal) stores of
/// the frame when `STREAM` is true (see [`super::FrameWrites`]).
///
/// Streaming stores need 32-byte aligned addresses, so the pixels before the first aligned one
/// are rendered by the reference; a row whose pixels are not even 4-byte aligned is stored the
/// ordinary way. Streaming stores are weakly ordered, so an `sfence` follows them: they are
/// globally visible before any later store of this thread (the one that tells another thread
/// the row is done included).
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn classic_render_columns<const STREAM: bool>(
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
    let max_x = _mm256_set1_epi32(width as i32 - 1);
    let max_y = _mm256_set1_epi32(height as i32 - 1);
    let row_y = _mm256_set1_epi32(y as i32);
    let stride = _mm256_set1_epi32(width as i32);
    let zero = _mm256_setzero_si256();
    let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let mut x = columns.start.max(1);
    let stream = STREAM && (dst_row.as_ptr() as usize).is_multiple_of(4);
    if stream {
        let misaligned = (dst_row.as_ptr() as usize / 4 + x) % 8;
        if misaligned != 0 {
            let aligned = (x + 8 - misaligned).min(end).max(x);
            scalar::classic_render_span(y, height, up, mid, down, src, dst_row, x..aligned);
            x = aligned;
        }
    }
    // `x < stop` is `x + 8 <= end`, in one comparison of the loop counter.
    let stop = end.saturating_sub(7);
    while x < stop {
        // SAFETY: 1 <= x and x + 8 <= end < width, so the 8 heights read at x - 1, x and x + 1
        // (up to index x + 8) and the 8 pixels written at x lie inside rows of `width`. The
        // gathered indices are `sy * width + sx` with `sx` clamped to [0, width) and `sy` to
        // [0, height), so they lie inside `src` (`width * height` pixels, which fits in i32).
        unsafe {
            let above = load_i16x8_as_i32(up.as_ptr().add(x));
            let below = load_i16x8_as_i32(down.as_ptr().add(x));
            let left = load_i16x8_as_i32(mid.as_ptr().add(x - 1));
            let right = load_i16x8_as_i32(mid.as_ptr().add(x + 1));
            let column = _mm256_add_epi32(_mm256_set1_epi32(x as i32), lanes);
            let sx = _mm256_add_epi32(column, _mm256_sub_epi32(left, right));
            let sy = _mm256_add_epi32(row_y, _mm256_sub_epi32(above, below));
            let sx = _mm256_min_epi32(_mm256_max_epi32(sx, zero), max_x);
            let sy = _mm256_min_epi32(_mm256_max_epi32(sy, zero), max_y);
            let index = _mm256_add_epi32(_mm256_mullo_epi32(sy, stride), sx);
            let pixels = _mm256_i32gather_epi32::<4>(src.as_ptr().cast(), index);
            let out = dst_row.as_mut_ptr().add(x).cast();
            if stream {
                // `out` is 32-byte aligned: the head above rendered up to an aligned pixel, and
                // each step moves 32 bytes.
                _mm256_stream_si256(out, pixels);
            } else {
                _mm256_storeu_si256(out, pixels);
            }
        }
        x += 8;
    }
    if stream {
        // Orders the streaming stores above before any later store (see the doc comment).
        _mm_sfence();
    }
    scalar::classic_render_span(y, height, up, mid, down, src, dst_row, x..end);
}

/// AVX2 version of [`scalar::resampled_classic_row`].
///
/// `f32::round` rounds halves away from zero, which no `vroundps` mode does, so it is built
/// from truncation (see [`round_half_away`]). `vmaxps` returns its second operand for NaN,
/// which turns a NaN coordinate into 0 exactly as the reference's `as usize` does.
///
/// Where the slopes of all 8 pixels are below one half in size, they round to no displacement
/// (calm water, and gentle waves): the 8 pixels under them are copied with one load, before
/// any rounding and instead of a gather, which takes several times longer. The pixels are the
/// same either way.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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
        // SAFETY: `resampled_classic` asks for the 8 values at x only with x + 8 <= width.
        unsafe {
            (
                _mm256_loadu_ps(gx.as_ptr().add(x)),
                _mm256_loadu_ps(gy.as_ptr().add(x)),
            )
        }
    };
    // SAFETY: AVX2 is this function's precondition; the checks above are `resampled_classic`'s.
    let done = unsafe { resampled_classic(y, height, gradient, src, dst_row) };
    scalar::resampled_classic_span(y, height, gx, gy, src, dst_row, done..width);
}

/// AVX2 version of [`scalar::resampled_classic_blended_row`]: the blend in vector lanes, in the
/// reference's order, then as [`resampled_classic_row`].
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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
        // SAFETY: `resampled_classic` asks for the 8 values at x only with x + 8 <= width, and
        // `first` left both rows `width` long.
        unsafe {
            let top = _mm256_loadu_ps(row.top.as_ptr().add(x));
            let bottom = _mm256_loadu_ps(row.bottom.as_ptr().add(x));
            _mm256_add_ps(
                top,
                _mm256_mul_ps(_mm256_sub_ps(bottom, top), _mm256_set1_ps(row.weight)),
            )
        }
    };
    let gradient = |x: usize| (blend(&gx, x), blend(&gy, x));
    // SAFETY: AVX2 is this function's precondition; the checks above are `resampled_classic`'s.
    let done = unsafe { resampled_classic(y, height, gradient, src, dst_row) };
    scalar::resampled_classic_blended_span(y, height, gx, gy, src, dst_row, done..width);
}

/// The classic refraction of row `y`, 8 pixels at a time, with the gradient of the 8 pixels
/// from `x` given by `gradient(x)`; returns the column where the vectors stopped (the caller
/// finishes the row).
///
/// # Safety
///
/// The CPU must support AVX2, `y < height`, `width * height` (`width` being `dst_row`'s) must
/// fit in i32 and `width` must be below 2^24.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn resampled_classic(
    y: usize,
    height: usize,
    gradient: impl Fn(usize) -> (__m256, __m256),
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
) -> usize {
    let width = dst_row.len();
    let src = &src[..width * height];
    let zero = _mm256_setzero_ps();
    let max_x = _mm256_set1_ps(width as f32 - 1.0);
    let max_y = _mm256_set1_ps(height as f32 - 1.0);
    let row_y = _mm256_set1_ps(y as f32);
    let stride = _mm256_set1_epi32(width as i32);
    let lanes = _mm256_setr_ps(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
    let row_start = y * width;
    let mut x = 0;
    while x + 8 <= width {
        let (gx, gy) = gradient(x);
        // Slopes below one half in size round to no displacement: every pixel shows the one
        // under it (a NaN compares false and takes the full path).
        let half = _mm256_set1_ps(0.5);
        let magnitude = |g| _mm256_andnot_ps(_mm256_set1_ps(-0.0), g);
        let small = _mm256_and_ps(
            _mm256_cmp_ps::<_CMP_LT_OQ>(magnitude(gx), half),
            _mm256_cmp_ps::<_CMP_LT_OQ>(magnitude(gy), half),
        );
        if _mm256_movemask_ps(small) == 0xff {
            // SAFETY: x + 8 <= width and y < height, so the 8 source pixels under the 8
            // written at x lie inside `src` and the row.
            unsafe {
                let under = _mm256_loadu_si256(src.as_ptr().add(row_start + x).cast());
                _mm256_storeu_si256(dst_row.as_mut_ptr().add(x).cast(), under);
            }
            x += 8;
            continue;
        }
        let column = _mm256_add_ps(_mm256_set1_ps(x as f32), lanes);
        let sx = _mm256_min_ps(
            _mm256_max_ps(_mm256_add_ps(column, round_half_away(gx)), zero),
            max_x,
        );
        let sy = _mm256_min_ps(
            _mm256_max_ps(_mm256_add_ps(row_y, round_half_away(gy)), zero),
            max_y,
        );
        let index = _mm256_add_epi32(
            _mm256_mullo_epi32(_mm256_cvttps_epi32(sy), stride),
            _mm256_cvttps_epi32(sx),
        );
        // SAFETY: x + 8 <= width, so the 8 pixels written at x lie inside the row. The
        // coordinates are clamped to [0, width - 1] and [0, height - 1] before conversion, so
        // `sy * width + sx` lies inside `src` (`width * height` pixels, which fits in i32);
        // `x + lane < 2^24` is exact in f32.
        unsafe {
            let pixels = _mm256_i32gather_epi32::<4>(src.as_ptr().cast(), index);
            _mm256_storeu_si256(dst_row.as_mut_ptr().add(x).cast(), pixels);
        }
        x += 8;
    }
    x
}

/// AVX2 version of [`scalar::upsample_row`], 8 columns per iteration.
///
/// The 8 columns' left cells lie within 8 consecutive cells of the grid row (left grows by at
/// most one per column), so one load of the 8 cells from the first column's left cell and one
/// `vpermps` put each column's left cell in its lane, and the same permutation of the load one
/// cell further gives the cells after them, with no gather. The loop stops while a load would
/// pass the row's last cell, so every cell after a left one is the reference's `min(l + 1, last)`,
/// and the reference finishes the row. The arithmetic is the reference's, one operation per
/// instruction (no FMA).
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn upsample_row(row: &[f32], columns: &GridColumns, out: &mut [f32]) {
    let width = out.len();
    let grid_width = columns.grid_width();
    if grid_width == 0 || grid_width > i32::MAX as usize {
        scalar::upsample_row(row, columns, out);
        return;
    }
    let row = &row[..grid_width];
    let (left, weight) = (&columns.left()[..width], &columns.weight()[..width]);
    let mut x = 0;
    while x + 8 <= width {
        let first = left[x] as usize;
        if first + 9 > grid_width {
            break;
        }
        // SAFETY: x + 8 <= width, so the 8 entries of `left` and `weight` read and the 8 values
        // written at x lie inside rows of `width`; first + 9 <= grid_width, so the 9 cells
        // read from `first` lie inside `row`. `vpermps` uses the low 3 bits of each index, so
        // any index selects a lane of the loaded vectors.
        unsafe {
            let lefts = _mm256_loadu_si256(left.as_ptr().add(x).cast());
            let lanes = _mm256_sub_epi32(lefts, _mm256_set1_epi32(first as i32));
            let cells = _mm256_loadu_ps(row.as_ptr().add(first));
            let next_cells = _mm256_loadu_ps(row.as_ptr().add(first + 1));
            let at_left = _mm256_permutevar8x32_ps(cells, lanes);
            let at_right = _mm256_permutevar8x32_ps(next_cells, lanes);
            let step = _mm256_mul_ps(
                _mm256_sub_ps(at_right, at_left),
                _mm256_loadu_ps(weight.as_ptr().add(x)),
            );
            _mm256_storeu_ps(out.as_mut_ptr().add(x), _mm256_add_ps(at_left, step));
        }
        x += 8;
    }
    scalar::upsample_span(row, columns, out, x..width);
}

/// `f32::round` in every lane: to the nearest integer, halves away from zero; infinities and
/// NaN pass through. Computed as `trunc(v + copysign(0.49999997, v))`, the largest float below
/// one half: adding it carries a value into the next integer exactly when its fraction is at
/// least one half, and checked against `f32::round` on all 2^32 floats (equal but for the
/// sign of some zeros, which no sum with a coordinate sees).
#[inline]
#[target_feature(enable = "avx2")]
fn round_half_away(value: __m256) -> __m256 {
    let sign = _mm256_and_ps(value, _mm256_set1_ps(-0.0));
    let below_half = _mm256_or_ps(sign, _mm256_set1_ps(ALMOST_HALF));
    _mm256_round_ps::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(_mm256_add_ps(value, below_half))
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load_i16x8_as_i32(pointer: *const i16) -> __m256i {
    // SAFETY: the caller guarantees 8 readable `i16` at `pointer`; `loadu` needs no alignment.
    unsafe { _mm256_cvtepi16_epi32(_mm_loadu_si128(pointer.cast())) }
}

/// AVX2 version of [`scalar::lit_render_row`].
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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

    let refraction = _mm256_set1_ps(look.refraction);
    let slope = _mm256_set1_ps(look.slope);
    let (light_x, light_y) = (_mm256_set1_ps(look.light[0]), _mm256_set1_ps(look.light[1]));
    let max_x = _mm256_set1_ps(width as f32 - 1.0);
    let max_y = _mm256_set1_ps(height as f32 - 1.0);
    let last_column = _mm256_set1_epi32(width as i32 - 1);
    let last_row = _mm256_set1_epi32(height as i32 - 1);
    let stride = _mm256_set1_epi32(width as i32);
    let row_y = _mm256_set1_ps(y as f32);
    let lanes = _mm256_setr_ps(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
    let one = _mm256_set1_ps(1.0);
    let fixed_one = _mm256_set1_ps(128.0);
    let weight_mask = _mm256_set1_epi32(127);
    let half_table = _mm256_set1_ps(LIT_TABLE_HALF as f32);
    let table_span = _mm256_set1_ps(LIT_TABLE_SPAN as f32);
    let one_step = _mm256_set1_epi32(1);

    let mut x = 0;
    while x + 8 <= width {
        // SAFETY: x + 8 <= width, so the 8 gradients read and the 8 pixels written at x lie
        // inside rows of `width`. Sample positions are clamped to [0, width-1] x [0, height-1]
        // before they become indices (NaN to 0, as `max`/`min` order their operands), and the
        // second column and row are clamped again, so every gathered pixel lies inside `src`
        // (`width * height` pixels, which fits in i32). Table indices are clamped to
        // [0, LIT_TABLE_SPAN] and `table` has `LIT_TABLE_SPAN + 1` entries.
        unsafe {
            let grad_x = _mm256_loadu_ps(gx.as_ptr().add(x));
            let grad_y = _mm256_loadu_ps(gy.as_ptr().add(x));
            let column = _mm256_add_ps(_mm256_set1_ps(x as f32), lanes);
            let sx = clamp_ps(
                _mm256_add_ps(column, _mm256_mul_ps(refraction, grad_x)),
                max_x,
            );
            let sy = clamp_ps(
                _mm256_add_ps(row_y, _mm256_mul_ps(refraction, grad_y)),
                max_y,
            );
            let fixed_x = _mm256_cvttps_epi32(_mm256_mul_ps(sx, fixed_one));
            let fixed_y = _mm256_cvttps_epi32(_mm256_mul_ps(sy, fixed_one));
            let (x0, y0) = (
                _mm256_srai_epi32::<7>(fixed_x),
                _mm256_srai_epi32::<7>(fixed_y),
            );
            let (wx, wy) = (
                _mm256_and_si256(fixed_x, weight_mask),
                _mm256_and_si256(fixed_y, weight_mask),
            );
            let x1 = _mm256_min_epi32(_mm256_add_epi32(x0, one_step), last_column);
            let y1 = _mm256_min_epi32(_mm256_add_epi32(y0, one_step), last_row);
            let (row0, row1) = (
                _mm256_mullo_epi32(y0, stride),
                _mm256_mullo_epi32(y1, stride),
            );
            let base = src.as_ptr().cast::<i32>();
            let p00 = _mm256_i32gather_epi32::<4>(base, _mm256_add_epi32(row0, x0));
            let p10 = _mm256_i32gather_epi32::<4>(base, _mm256_add_epi32(row0, x1));
            let p01 = _mm256_i32gather_epi32::<4>(base, _mm256_add_epi32(row1, x0));
            let p11 = _mm256_i32gather_epi32::<4>(base, _mm256_add_epi32(row1, x1));

            let p = _mm256_mul_ps(slope, grad_x);
            let q = _mm256_mul_ps(slope, grad_y);
            let length_squared =
                _mm256_add_ps(_mm256_add_ps(one, _mm256_mul_ps(p, p)), _mm256_mul_ps(q, q));
            let inv_length = _mm256_div_ps(one, _mm256_sqrt_ps(length_squared));
            let facing = _mm256_mul_ps(
                _mm256_add_ps(_mm256_mul_ps(p, light_x), _mm256_mul_ps(q, light_y)),
                inv_length,
            );
            let scaled = _mm256_add_ps(
                _mm256_mul_ps(_mm256_add_ps(facing, one), half_table),
                _mm256_set1_ps(0.5),
            );
            let table_index = _mm256_cvttps_epi32(clamp_ps(scaled, table_span));
            let entry = _mm256_i32gather_epi32::<4>(table.as_ptr().cast(), table_index);
            let gain = _mm256_and_si256(entry, _mm256_set1_epi32(LIT_GAIN_MASK as i32));
            // The result is at most 255, so a highlight above 255 acts as 255; capping it keeps
            // the 16-bit lanes below exact for any table, not only those of `LitLook::new`.
            let highlight = _mm256_min_epu32(
                _mm256_srli_epi32::<{ LIT_GAIN_BITS as i32 }>(entry),
                _mm256_set1_epi32(255),
            );

            // Pixels 0, 1 | 4, 5 in `low`, 2, 3 | 6, 7 in `high`, four u16 channels each.
            let (wx_low, wx_high) = spread_per_channel(wx);
            let (wy_low, wy_high) = spread_per_channel(wy);
            let (gain_low, gain_high) = spread_per_channel(gain);
            let (light_low, light_high) = spread_per_channel(highlight);
            let alpha_gain = _mm256_set1_epi16(256);
            let zero_i = _mm256_setzero_si256();
            let low = shade(
                lerp_u16(
                    lerp_u16(widen_low(p00), widen_low(p10), wx_low),
                    lerp_u16(widen_low(p01), widen_low(p11), wx_low),
                    wy_low,
                ),
                _mm256_blend_epi16::<0b1000_1000>(gain_low, alpha_gain),
                _mm256_blend_epi16::<0b1000_1000>(light_low, zero_i),
            );
            let high = shade(
                lerp_u16(
                    lerp_u16(widen_high(p00), widen_high(p10), wx_high),
                    lerp_u16(widen_high(p01), widen_high(p11), wx_high),
                    wy_high,
                ),
                _mm256_blend_epi16::<0b1000_1000>(gain_high, alpha_gain),
                _mm256_blend_epi16::<0b1000_1000>(light_high, zero_i),
            );
            // `packus` saturates to 255 (the reference's `min`) and restores pixel order.
            let pixels = _mm256_packus_epi16(low, high);
            _mm256_storeu_si256(dst_row.as_mut_ptr().add(x).cast(), pixels);
        }
        x += 8;
    }
    scalar::lit_render_span(y, height, gx, gy, src, dst_row, look, x..width);
}

/// `clamp(value, 0, max)` with NaN sent to 0: `max_ps` returns its second operand when the
/// comparison fails, exactly as [`scalar::clamp_position`].
#[inline]
#[target_feature(enable = "avx2")]
fn clamp_ps(value: __m256, max: __m256) -> __m256 {
    _mm256_min_ps(_mm256_max_ps(value, _mm256_setzero_ps()), max)
}

/// Bytes of pixels 0, 1 | 4, 5 as u16 lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn widen_low(pixels: __m256i) -> __m256i {
    _mm256_unpacklo_epi8(pixels, _mm256_setzero_si256())
}

/// Bytes of pixels 2, 3 | 6, 7 as u16 lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn widen_high(pixels: __m256i) -> __m256i {
    _mm256_unpackhi_epi8(pixels, _mm256_setzero_si256())
}

/// A per-pixel value (< 2^16, in i32 lanes) repeated over the pixel's four u16 channels, in the
/// order of [`widen_low`] and [`widen_high`].
#[inline]
#[target_feature(enable = "avx2")]
fn spread_per_channel(value: __m256i) -> (__m256i, __m256i) {
    let doubled = _mm256_or_si256(value, _mm256_slli_epi32::<16>(value));
    (
        _mm256_unpacklo_epi32(doubled, doubled),
        _mm256_unpackhi_epi32(doubled, doubled),
    )
}

/// `a + (((b - a) * w) >> 7)` in i16 lanes (|b - a| <= 255, w <= 127: no overflow).
#[inline]
#[target_feature(enable = "avx2")]
fn lerp_u16(a: __m256i, b: __m256i, weight: __m256i) -> __m256i {
    let step = _mm256_mullo_epi16(_mm256_sub_epi16(b, a), weight);
    _mm256_add_epi16(a, _mm256_srai_epi16::<7>(step))
}

/// `((sample << 8) * gain) >> 16 + highlight` in u16 lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn shade(sample: __m256i, gain: __m256i, highlight: __m256i) -> __m256i {
    let lit = _mm256_mulhi_epu16(_mm256_slli_epi16::<8>(sample), gain);
    _mm256_adds_epu16(lit, highlight)
}
