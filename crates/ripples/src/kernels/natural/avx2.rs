//! AVX2 samplers of the natural look: 8 positions per iteration.
//!
//! The positions are clamped and turned into 1/128-pixel fixed point in vector lanes, and the
//! corners blended in 16-bit lanes (weights of at most 128 keep every product inside `i16`), as
//! the lit look's AVX2 kernel does. The corners are fetched in pairs: the left corner is never
//! the last column, so the two corners of a row are one 8-byte word. The pairs are loaded one by
//! one, which beat `vpgatherdq` on the CPU this was measured on (see [`load_pairs`]); the sky's
//! nearest texels, one word per pixel, are gathered (there the two ways measured the same). The loop stops
//! where a full vector would leave the row and the reference finishes it, so the output is the
//! reference's, bit for bit.

use std::arch::x86_64::*;

use super::super::LIT_MAX_SIDE;
use super::{bilinear_span, nearest_span};

/// AVX2 version of [`super::bilinear_row`].
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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
    let max_x = _mm256_set1_ps(width as f32 - 1.0);
    let max_y = _mm256_set1_ps(height as f32 - 1.0);
    let last_left = _mm256_set1_epi32(width as i32 - 2);
    let last_top = _mm256_set1_epi32(height as i32 - 2);
    let stride = _mm256_set1_epi32(width as i32);
    let fixed_one = _mm256_set1_ps(128.0);
    let base = src.as_ptr().cast::<i64>();
    let mut i = 0;
    while i + 8 <= count {
        // SAFETY: i + 8 <= count, so the 8 positions read and the 8 pixels written at i lie
        // inside `xs`, `ys` and `out`. Positions are clamped to [0, width-1] x [0, height-1]
        // before they become indices (NaN to 0, as `max`/`min` order their operands), and the
        // left column and top row are at most width - 2 and height - 2, so both pixels of every
        // pair, in both rows, lie inside `src` (`width * height` pixels, which fits in i32); a
        // clamped position times 128 fits in i32 because both sides are at most LIT_MAX_SIDE.
        unsafe {
            let sx = clamp_ps(_mm256_loadu_ps(xs.as_ptr().add(i)), max_x);
            let sy = clamp_ps(_mm256_loadu_ps(ys.as_ptr().add(i)), max_y);
            let fixed_x = _mm256_cvttps_epi32(_mm256_mul_ps(sx, fixed_one));
            let fixed_y = _mm256_cvttps_epi32(_mm256_mul_ps(sy, fixed_one));
            let x0 = _mm256_min_epi32(_mm256_srai_epi32::<7>(fixed_x), last_left);
            let y0 = _mm256_min_epi32(_mm256_srai_epi32::<7>(fixed_y), last_top);
            let wx = _mm256_sub_epi32(fixed_x, _mm256_slli_epi32::<7>(x0));
            let wy = _mm256_sub_epi32(fixed_y, _mm256_slli_epi32::<7>(y0));
            let top = _mm256_add_epi32(_mm256_mullo_epi32(y0, stride), x0);
            let (p00, p10, p01, p11) = load_pairs(base, top, width);
            // Pixels 0, 1 | 4, 5 in `low`, 2, 3 | 6, 7 in `high`, four u16 channels each.
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
            let pixels = _mm256_packus_epi16(low, high);
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), pixels);
        }
        i += 8;
    }
    bilinear_span(src, width, height, xs, ys, out, i);
}

/// The corners of eight pixels: `(p00, p10, p01, p11)`, the pairs at `top` (pixel indices of
/// the left corners of the top row) and `width` pixels below, in pixel order.
///
/// The pairs are loaded one by one (eight-byte loads into vector lanes) rather than gathered:
/// on the AMD EPYC (Zen 4) this was measured on, two `vpgatherdq` per row took the sampler's
/// time per calm 1920x1080 frame from 6.3 to 5.0 ns per pixel (one thread, the whole natural
/// look), and four `vpgatherdd` as in the lit look were slower still.
///
/// # Safety
///
/// `top[i] + width + 1` must be a valid pixel index at `base` in every lane.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load_pairs(
    base: *const i64,
    top: __m256i,
    width: usize,
) -> (__m256i, __m256i, __m256i, __m256i) {
    let mut lanes = [0i32; 8];
    // SAFETY: `lanes` holds eight i32; `storeu` needs no alignment.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), top) };
    let pixels = base.cast::<i32>();
    let pair = |lane: usize, below: usize| {
        // SAFETY: the caller guarantees both pixels of the pair, in both rows; pixels are
        // `[u8; 4]`, so the pair may be unaligned.
        unsafe {
            pixels
                .add(lanes[lane] as u32 as usize + below)
                .cast::<i64>()
                .read_unaligned()
        }
    };
    // Pairs of pixels 0, 1 | 4, 5 and 2, 3 | 6, 7: `shuffle_ps` then puts the left and the
    // right corners of the eight pixels in pixel order.
    let corners = |below: usize| {
        let first = _mm256_set_epi64x(
            pair(5, below),
            pair(4, below),
            pair(1, below),
            pair(0, below),
        );
        let second = _mm256_set_epi64x(
            pair(7, below),
            pair(6, below),
            pair(3, below),
            pair(2, below),
        );
        let (first, second) = (_mm256_castsi256_ps(first), _mm256_castsi256_ps(second));
        (
            _mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(first, second)),
            _mm256_castps_si256(_mm256_shuffle_ps::<0b11_01_11_01>(first, second)),
        )
    };
    let (p00, p10) = corners(0);
    let (p01, p11) = corners(width);
    (p00, p10, p01, p11)
}

/// `clamp(value, 0, max)` with NaN sent to 0: `max_ps` returns its second operand when the
/// comparison fails, exactly as the reference's `clamp_position`.
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

/// A per-pixel weight (< 2^16, in i32 lanes) repeated over the pixel's four u16 channels, in
/// the order of [`widen_low`] and [`widen_high`].
#[inline]
#[target_feature(enable = "avx2")]
fn spread_per_channel(value: __m256i) -> (__m256i, __m256i) {
    let doubled = _mm256_or_si256(value, _mm256_slli_epi32::<16>(value));
    (
        _mm256_unpacklo_epi32(doubled, doubled),
        _mm256_unpackhi_epi32(doubled, doubled),
    )
}

/// `a + (((b - a) * w) >> 7)` in i16 lanes (|b - a| <= 255, w <= 128: no overflow).
#[inline]
#[target_feature(enable = "avx2")]
fn lerp_u16(a: __m256i, b: __m256i, weight: __m256i) -> __m256i {
    let step = _mm256_mullo_epi16(_mm256_sub_epi16(b, a), weight);
    _mm256_add_epi16(a, _mm256_srai_epi16::<7>(step))
}

/// AVX2 version of [`super::nearest_row`]: one `vpgatherdd` per 8 positions.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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
    let last = _mm256_set1_ps(side as f32 - 1.0);
    let stride = _mm256_set1_epi32(side as i32);
    let base = table.as_ptr().cast::<i32>();
    let mut i = 0;
    while i + 8 <= count {
        // SAFETY: i + 8 <= count, so the 8 positions read and the 8 texels written at i lie
        // inside `xs`, `ys` and `out`. Positions are clamped to [0, side-1] (NaN to 0) before
        // they become indices, so every gathered texel lies inside `table` (`side * side`
        // texels, which fits in i32).
        unsafe {
            let x = _mm256_cvttps_epi32(clamp_ps(_mm256_loadu_ps(xs.as_ptr().add(i)), last));
            let y = _mm256_cvttps_epi32(clamp_ps(_mm256_loadu_ps(ys.as_ptr().add(i)), last));
            let index = _mm256_add_epi32(_mm256_mullo_epi32(y, stride), x);
            let texels = _mm256_i32gather_epi32::<4>(base, index);
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), texels);
        }
        i += 8;
    }
    nearest_span(table, side, xs, ys, out, i);
}
