//! NEON bilinear sampler of the natural look (aarch64): 4 positions per iteration.
//!
//! The lit look's NEON sampling, alone: the positions are clamped with a compare and a select
//! (`fmax`/`fmin` would propagate NaN, where the reference sends a NaN position to 0), turned
//! into 1/128-pixel fixed point with `fcvtzs` (which truncates like Rust's `as i32`), the four
//! corners loaded pixel by pixel into vector lanes (NEON has no gather), and blended in 16-bit
//! lanes (7-bit weights keep every product inside `i16`). The loop stops where a full vector
//! would leave the row and the reference finishes it, so the output is the reference's, bit for
//! bit.

use std::arch::aarch64::*;

use super::super::LIT_MAX_SIDE;
use super::bilinear_span;

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
    if width == 0
        || height == 0
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
    let last_column = vdupq_n_s32(width as i32 - 1);
    let last_row = vdupq_n_s32(height as i32 - 1);
    let stride = vdupq_n_s32(width as i32);
    let fixed_one = vdupq_n_f32(128.0);
    let weight_mask = vdupq_n_s32(127);
    let one_step = vdupq_n_s32(1);
    let pixels = src.as_ptr().cast::<u32>();
    let mut i = 0;
    while i + 4 <= count {
        // SAFETY: i + 4 <= count, so the 4 positions read and the 4 pixels written at i lie
        // inside `xs`, `ys` and `out`. Positions are clamped to [0, width-1] x [0, height-1]
        // before they become indices (NaN to 0, see `clamp_f32`), and the second column and row
        // are clamped again, so every loaded pixel lies inside `src` (`width * height` pixels,
        // which fits in i32).
        unsafe {
            let sx = clamp_f32(vld1q_f32(xs.as_ptr().add(i)), max_x);
            let sy = clamp_f32(vld1q_f32(ys.as_ptr().add(i)), max_y);
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

/// The four words at the indices in `index`.
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

/// `a + (((b - a) * w) >> 7)` in i16 lanes (|b - a| <= 255, w <= 127: no overflow).
#[inline]
#[target_feature(enable = "neon")]
fn lerp_i16(a: int16x8_t, b: int16x8_t, weight: uint16x8_t) -> int16x8_t {
    let step = vmulq_s16(vsubq_s16(b, a), vreinterpretq_s16_u16(weight));
    vaddq_s16(a, vshrq_n_s16::<7>(step))
}
