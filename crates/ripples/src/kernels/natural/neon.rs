//! NEON bilinear sampler of the natural look (aarch64): 4 positions per iteration.
//!
//! The lit look's NEON sampling, alone: the positions are clamped with a compare and a select
//! (`fmax`/`fmin` would propagate NaN, where the reference sends a NaN position to 0), turned
//! into 1/128-pixel fixed point with `fcvtzs` (which truncates like Rust's `as i32`), the four
//! corners loaded into vector lanes two at a time (NEON has no gather; the left corner is never
//! the last column, so the two corners of a row are one 8-byte word), and blended in 16-bit lanes
//! (weights of at most 128 keep every product inside `i16`). The loop stops where a full vector
//! would leave the row and the reference finishes it, so the output is the reference's, bit for
//! bit.

use std::arch::aarch64::*;

use super::super::LIT_MAX_SIDE;
use super::{bilinear_span, nearest_span};

/// NEON version of [`super::bilinear_row`].
///
/// # Safety
///
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
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
    let max_x = vdupq_n_f32(width as f32 - 1.0);
    let max_y = vdupq_n_f32(height as f32 - 1.0);
    let last_left = vdupq_n_s32(width as i32 - 2);
    let last_top = vdupq_n_s32(height as i32 - 2);
    let stride = vdupq_n_s32(width as i32);
    let fixed_one = vdupq_n_f32(128.0);
    let pixels = src.as_ptr().cast::<u32>();
    let mut i = 0;
    while i + 4 <= count {
        // SAFETY: i + 4 <= count, so the 4 positions read and the 4 pixels written at i lie
        // inside `xs`, `ys` and `out`. Positions are clamped to [0, width-1] x [0, height-1]
        // before they become indices (NaN to 0, see `clamp_f32`), and the left column and top
        // row are at most width - 2 and height - 2, so both pixels of every pair, in both rows,
        // lie inside `src` (`width * height` pixels, which fits in i32).
        unsafe {
            let sx = clamp_f32(vld1q_f32(xs.as_ptr().add(i)), max_x);
            let sy = clamp_f32(vld1q_f32(ys.as_ptr().add(i)), max_y);
            let fixed_x = vcvtq_s32_f32(vmulq_f32(sx, fixed_one));
            let fixed_y = vcvtq_s32_f32(vmulq_f32(sy, fixed_one));
            let x0 = vminq_s32(vshrq_n_s32::<7>(fixed_x), last_left);
            let y0 = vminq_s32(vshrq_n_s32::<7>(fixed_y), last_top);
            let wx = vreinterpretq_u32_s32(vsubq_s32(fixed_x, vshlq_n_s32::<7>(x0)));
            let wy = vreinterpretq_u32_s32(vsubq_s32(fixed_y, vshlq_n_s32::<7>(y0)));
            let top = vaddq_s32(vmulq_s32(y0, stride), x0);
            let bottom = vaddq_s32(top, stride);
            let (p00, p10) = load_4_pairs(pixels, top);
            let (p01, p11) = load_4_pairs(pixels, bottom);
            // Pixels 0, 1 in `low`, 2, 3 in `high`, four u16 channels each.
            let (wx_low, wx_high) = spread_per_channel(wx);
            let (wy_low, wy_high) = spread_per_channel(wy);
            let low = lerp_i16(
                lerp_i16(widen_low(p00), widen_low(p10), wx_low),
                lerp_i16(widen_low(p01), widen_low(p11), wx_low),
                wy_low,
            );
            let high = lerp_i16(
                lerp_i16(widen_high(p00), widen_high(p10), wx_high),
                lerp_i16(widen_high(p01), widen_high(p11), wx_high),
                wy_high,
            );
            // Every lane is in 0..=255.
            let bytes = vmovn_high_u16(
                vmovn_u16(vreinterpretq_u16_s16(low)),
                vreinterpretq_u16_s16(high),
            );
            vst1q_u8(out.as_mut_ptr().add(i).cast::<u8>(), bytes);
        }
        i += 4;
    }
    bilinear_span(src, width, height, xs, ys, out, i);
}

/// The words at `index` (left) and at `index + 1` (right) of four lanes.
///
/// # Safety
///
/// `index + 1` must be a valid word index at `base` in every lane.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn load_4_pairs(base: *const u32, index: int32x4_t) -> (uint32x4_t, uint32x4_t) {
    let pair = |i: i32| {
        // SAFETY: the caller guarantees both words; pixels are `[u8; 4]`, so the pair may be
        // unaligned.
        vcreate_u64(unsafe { base.add(i as u32 as usize).cast::<u64>().read_unaligned() })
    };
    let first = vreinterpretq_u32_u64(vcombine_u64(
        pair(vgetq_lane_s32::<0>(index)),
        pair(vgetq_lane_s32::<1>(index)),
    ));
    let second = vreinterpretq_u32_u64(vcombine_u64(
        pair(vgetq_lane_s32::<2>(index)),
        pair(vgetq_lane_s32::<3>(index)),
    ));
    (vuzp1q_u32(first, second), vuzp2q_u32(first, second))
}

/// `clamp(value, 0, max)` with NaN sent to 0, as the reference's `clamp_position` writes it:
/// `v > 0 ? v : 0`, then `v < max ? v : max`.
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

/// A per-pixel weight (< 2^16, in u32 lanes) repeated over the pixel's four u16 channels, in
/// the order of [`widen_low`] and [`widen_high`].
#[inline]
#[target_feature(enable = "neon")]
fn spread_per_channel(value: uint32x4_t) -> (uint16x8_t, uint16x8_t) {
    let doubled = vorrq_u32(value, vshlq_n_u32::<16>(value));
    (
        vreinterpretq_u16_u32(vzip1q_u32(doubled, doubled)),
        vreinterpretq_u16_u32(vzip2q_u32(doubled, doubled)),
    )
}

/// `a + (((b - a) * w) >> 7)` in i16 lanes (|b - a| <= 255, w <= 128: no overflow).
#[inline]
#[target_feature(enable = "neon")]
fn lerp_i16(a: int16x8_t, b: int16x8_t, weight: uint16x8_t) -> int16x8_t {
    let step = vmulq_s16(vsubq_s16(b, a), vreinterpretq_s16_u16(weight));
    vaddq_s16(a, vshrq_n_s16::<7>(step))
}

/// NEON version of [`super::nearest_row`]: 4 positions per iteration.
///
/// # Safety
///
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
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
    let last = vdupq_n_f32(side as f32 - 1.0);
    let stride = vdupq_n_s32(side as i32);
    let base = table.as_ptr().cast::<u32>();
    let mut i = 0;
    while i + 4 <= count {
        // SAFETY: i + 4 <= count, so the 4 positions read and the 4 texels written at i lie
        // inside `xs`, `ys` and `out`. Positions are clamped to [0, side-1] (NaN to 0) before
        // they become indices, so every loaded texel lies inside `table` (`side * side` texels,
        // which fits in i32).
        unsafe {
            let x = vcvtq_s32_f32(clamp_f32(vld1q_f32(xs.as_ptr().add(i)), last));
            let y = vcvtq_s32_f32(clamp_f32(vld1q_f32(ys.as_ptr().add(i)), last));
            let index = vaddq_s32(vmulq_s32(y, stride), x);
            let texels = load_4_words(base, index);
            vst1q_u32(out.as_mut_ptr().add(i).cast::<u32>(), texels);
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
#[target_feature(enable = "neon")]
unsafe fn load_4_words(base: *const u32, index: int32x4_t) -> uint32x4_t {
    let word = |i: i32| {
        // SAFETY: the caller guarantees that every lane is a valid index; texels are `[u8; 4]`,
        // so the word may be unaligned.
        unsafe { base.add(i as u32 as usize).read_unaligned() }
    };
    let v = vdupq_n_u32(word(vgetq_lane_s32::<0>(index)));
    let v = vsetq_lane_u32::<1>(word(vgetq_lane_s32::<1>(index)), v);
    let v = vsetq_lane_u32::<2>(word(vgetq_lane_s32::<2>(index)), v);
    vsetq_lane_u32::<3>(word(vgetq_lane_s32::<3>(index)), v)
}
