//! SSE4.1 bilinear sampler of the natural look: 4 positions per iteration.
//!
//! The positions are clamped and turned into 1/128-pixel fixed point in vector lanes, the
//! corners loaded into vector lanes two at a time (SSE4.1 has no gather; the left corner is never
//! the last column, so the two corners of a row are one 8-byte word), and blended in 16-bit lanes
//! (weights of at most 128 keep every product inside `i16`), as the lit look's SSE4.1 kernel
//! does. The loop stops
//! where a full vector would leave the row and the reference finishes it, so the output is the
//! reference's, bit for bit.

use std::arch::x86_64::*;

use super::super::LIT_MAX_SIDE;
use super::{bilinear_span, nearest_span};

/// SSE4.1 version of [`super::bilinear_row`].
///
/// # Safety
///
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
pub unsafe fn bilinear_row(
    src: &[[u8; 4]],
    width: usize,
    height: usize,
    xs: &[f32],
    ys: &[f32],
    out: &mut [[u8; 4]],
) {
    let count = out.len();
    let cells = width * height;
    if width < 2
        || height < 2
        || width > LIT_MAX_SIDE
        || height > LIT_MAX_SIDE
        || cells > i32::MAX as usize
    {
        bilinear_span(src, width, height, xs, ys, out, 0);
        return;
    }
    let src = &src[..cells];
    let (xs, ys) = (&xs[..count], &ys[..count]);
    let max_x = _mm_set1_ps(width as f32 - 1.0);
    let max_y = _mm_set1_ps(height as f32 - 1.0);
    let last_left = _mm_set1_epi32(width as i32 - 2);
    let last_top = _mm_set1_epi32(height as i32 - 2);
    let stride = _mm_set1_epi32(width as i32);
    let fixed_one = _mm_set1_ps(128.0);
    let base = src.as_ptr().cast::<i64>();
    let mut i = 0;
    while i + 4 <= count {
        // SAFETY: i + 4 <= count, so the 4 positions read and the 4 pixels written at i lie
        // inside `xs`, `ys` and `out`. Positions are clamped to [0, width-1] x [0, height-1]
        // before they become indices (NaN to 0, as `max`/`min` order their operands), and the
        // left column and top row are at most width - 2 and height - 2, so both pixels of every
        // pair, in both rows, lie inside `src` (`width * height` pixels, which fits in i32); a
        // clamped position times 128 fits in i32 because both sides are at most LIT_MAX_SIDE.
        unsafe {
            let sx = clamp_ps(_mm_loadu_ps(xs.as_ptr().add(i)), max_x);
            let sy = clamp_ps(_mm_loadu_ps(ys.as_ptr().add(i)), max_y);
            let fixed_x = _mm_cvttps_epi32(_mm_mul_ps(sx, fixed_one));
            let fixed_y = _mm_cvttps_epi32(_mm_mul_ps(sy, fixed_one));
            let x0 = _mm_min_epi32(_mm_srai_epi32::<7>(fixed_x), last_left);
            let y0 = _mm_min_epi32(_mm_srai_epi32::<7>(fixed_y), last_top);
            let wx = _mm_sub_epi32(fixed_x, _mm_slli_epi32::<7>(x0));
            let wy = _mm_sub_epi32(fixed_y, _mm_slli_epi32::<7>(y0));
            let top = _mm_add_epi32(_mm_mullo_epi32(y0, stride), x0);
            let bottom = _mm_add_epi32(top, stride);
            let (p00, p10) = load_4_pairs(base, top);
            let (p01, p11) = load_4_pairs(base, bottom);
            // Pixels 0, 1 in `low`, 2, 3 in `high`, four u16 channels each.
            let (wx_low, wx_high) = spread_per_channel(wx);
            let (wy_low, wy_high) = spread_per_channel(wy);
            let low = lerp_u16(
                lerp_u16(widen_low(p00), widen_low(p10), wx_low),
                lerp_u16(widen_low(p01), widen_low(p11), wx_low),
                wy_low,
            );
            let high = lerp_u16(
                lerp_u16(widen_high(p00), widen_high(p10), wx_high),
                lerp_u16(widen_high(p01), widen_high(p11), wx_high),
                wy_high,
            );
            // Every lane is in 0..=255; `packus` restores pixel order.
            let pixels = _mm_packus_epi16(low, high);
            _mm_storeu_si128(out.as_mut_ptr().add(i).cast(), pixels);
        }
        i += 4;
    }
    bilinear_span(src, width, height, xs, ys, out, i);
}

/// `clamp(value, 0, max)` with NaN sent to 0: `max_ps` returns its second operand when the
/// comparison fails, exactly as the reference's `clamp_position`.
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

/// A per-pixel weight (< 2^16, in i32 lanes) repeated over the pixel's four u16 channels, in
/// the order of [`widen_low`] and [`widen_high`].
#[inline]
#[target_feature(enable = "sse4.1")]
fn spread_per_channel(value: __m128i) -> (__m128i, __m128i) {
    let doubled = _mm_or_si128(value, _mm_slli_epi32::<16>(value));
    (
        _mm_unpacklo_epi32(doubled, doubled),
        _mm_unpackhi_epi32(doubled, doubled),
    )
}

/// `a + (((b - a) * w) >> 7)` in i16 lanes (|b - a| <= 255, w <= 128: no overflow).
#[inline]
#[target_feature(enable = "sse4.1")]
fn lerp_u16(a: __m128i, b: __m128i, weight: __m128i) -> __m128i {
    let step = _mm_mullo_epi16(_mm_sub_epi16(b, a), weight);
    _mm_add_epi16(a, _mm_srai_epi16::<7>(step))
}

/// The pixels at `index` (left) and at `index + 1` (right) of four lanes.
///
/// # Safety
///
/// `index + 1` must be a valid pixel index at `base` in every lane.
#[inline]
#[target_feature(enable = "sse4.1")]
unsafe fn load_4_pairs(base: *const i64, index: __m128i) -> (__m128i, __m128i) {
    let pair = |i: i32| {
        // SAFETY: the caller guarantees both pixels; pixels are `[u8; 4]`, so the word may be
        // unaligned.
        unsafe {
            base.cast::<i32>()
                .add(i as u32 as usize)
                .cast::<i64>()
                .read_unaligned()
        }
    };
    let first = _mm_set_epi64x(
        pair(_mm_extract_epi32::<1>(index)),
        pair(_mm_cvtsi128_si32(index)),
    );
    let second = _mm_set_epi64x(
        pair(_mm_extract_epi32::<3>(index)),
        pair(_mm_extract_epi32::<2>(index)),
    );
    let (first, second) = (_mm_castsi128_ps(first), _mm_castsi128_ps(second));
    (
        _mm_castps_si128(_mm_shuffle_ps::<0b10_00_10_00>(first, second)),
        _mm_castps_si128(_mm_shuffle_ps::<0b11_01_11_01>(first, second)),
    )
}

/// SSE4.1 version of [`super::nearest_row`]: 4 positions per iteration.
///
/// # Safety
///
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
pub unsafe fn nearest_row(
    table: &[[u8; 4]],
    side: usize,
    xs: &[f32],
    ys: &[f32],
    out: &mut [[u8; 4]],
) {
    let count = out.len();
    if side == 0 || side > LIT_MAX_SIDE || side * side > i32::MAX as usize {
        nearest_span(table, side, xs, ys, out, 0);
        return;
    }
    let table = &table[..side * side];
    let (xs, ys) = (&xs[..count], &ys[..count]);
    let last = _mm_set1_ps(side as f32 - 1.0);
    let stride = _mm_set1_epi32(side as i32);
    let base = table.as_ptr().cast::<i32>();
    let mut i = 0;
    while i + 4 <= count {
        // SAFETY: i + 4 <= count, so the 4 positions read and the 4 texels written at i lie
        // inside `xs`, `ys` and `out`. Positions are clamped to [0, side-1] (NaN to 0) before
        // they become indices, so every loaded texel lies inside `table` (`side * side` texels,
        // which fits in i32).
        unsafe {
            let x = _mm_cvttps_epi32(clamp_ps(_mm_loadu_ps(xs.as_ptr().add(i)), last));
            let y = _mm_cvttps_epi32(clamp_ps(_mm_loadu_ps(ys.as_ptr().add(i)), last));
            let index = _mm_add_epi32(_mm_mullo_epi32(y, stride), x);
            let texels = load_4_words(base, index);
            _mm_storeu_si128(out.as_mut_ptr().add(i).cast(), texels);
        }
        i += 4;
    }
    nearest_span(table, side, xs, ys, out, i);
}

/// The four words at the indices in `index`.
///
/// # Safety
///
/// Every lane of `index` must be a valid (non-negative) index of the words at `base`.
#[inline]
#[target_feature(enable = "sse4.1")]
unsafe fn load_4_words(base: *const i32, index: __m128i) -> __m128i {
    let word = |i: i32| {
        // SAFETY: the caller guarantees that every lane is a valid index; texels are `[u8; 4]`,
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
