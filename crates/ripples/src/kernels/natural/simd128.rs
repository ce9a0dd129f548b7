//! WebAssembly SIMD bilinear sampler of the natural look: 4 positions per iteration.
//!
//! Compiled in only when the module is built with `+simd128` (see the classic kernels' wasm
//! module for why the choice is made at build time, and why these are safe functions with
//! `unsafe` only around the loads and stores). The lit look's sampling, alone: positions are
//! clamped with `pmax`/`pmin`, whose "pseudo" semantics are the reference's `clamp_position`
//! word for word when the bound is the first operand (a NaN becomes 0), converted with
//! `i32x4.trunc_sat_f32x4` (truncation, like Rust's `as i32`), the corners loaded into vector
//! lanes two at a time (no gather; the left corner is never the last column, so the two corners
//! of a row are one 8-byte word), and blended in 16-bit lanes. The loop stops where a full
//! vector would leave the row and the reference finishes it, so the output is the reference's,
//! bit for bit.

use core::arch::wasm32::*;

use super::super::LIT_MAX_SIDE;
use super::{bilinear_span, nearest_span};

/// WebAssembly SIMD version of [`super::bilinear_row`].
pub fn bilinear_row(
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
    let max_x = f32x4_splat(width as f32 - 1.0);
    let max_y = f32x4_splat(height as f32 - 1.0);
    let last_left = i32x4_splat(width as i32 - 2);
    let last_top = i32x4_splat(height as i32 - 2);
    let stride = i32x4_splat(width as i32);
    let fixed_one = f32x4_splat(128.0);
    let pixels = src.as_ptr().cast::<u32>();
    let mut i = 0;
    while i + 4 <= count {
        // SAFETY: i + 4 <= count, so the 4 positions read and the 4 pixels written at i lie
        // inside `xs`, `ys` and `out` (unaligned `v128` accesses are allowed). Positions are
        // clamped to [0, width-1] x [0, height-1] before they become indices (NaN to 0), and the
        // left column and top row are at most width - 2 and height - 2, so both pixels of every
        // pair, in both rows, lie inside `src` (`width * height` pixels, which fits in i32).
        unsafe {
            let sx = clamp_f32(v128_load(xs.as_ptr().add(i).cast()), max_x);
            let sy = clamp_f32(v128_load(ys.as_ptr().add(i).cast()), max_y);
            let fixed_x = i32x4_trunc_sat_f32x4(f32x4_mul(sx, fixed_one));
            let fixed_y = i32x4_trunc_sat_f32x4(f32x4_mul(sy, fixed_one));
            let x0 = i32x4_min(i32x4_shr(fixed_x, 7), last_left);
            let y0 = i32x4_min(i32x4_shr(fixed_y, 7), last_top);
            let wx = i32x4_sub(fixed_x, i32x4_shl(x0, 7));
            let wy = i32x4_sub(fixed_y, i32x4_shl(y0, 7));
            let top = i32x4_add(i32x4_mul(y0, stride), x0);
            let bottom = i32x4_add(top, stride);
            let (p00, p10) = load_4_pairs(pixels, top);
            let (p01, p11) = load_4_pairs(pixels, bottom);
            // Pixels 0, 1 in `low`, 2, 3 in `high`, four u16 channels each.
            let (wx_low, wx_high) = spread_per_channel(wx);
            let (wy_low, wy_high) = spread_per_channel(wy);
            let low = lerp_i16(
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
            );
            let high = lerp_i16(
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
            );
            // Every lane is in 0..=255.
            v128_store(
                out.as_mut_ptr().add(i).cast(),
                u8x16_narrow_i16x8(low, high),
            );
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
unsafe fn load_4_pairs(base: *const u32, index: v128) -> (v128, v128) {
    let pair = |i: i32| {
        // SAFETY: the caller guarantees both words; pixels are `[u8; 4]`, so the pair may be
        // unaligned.
        unsafe { base.add(i as u32 as usize).cast::<u64>().read_unaligned() }
    };
    let first = u64x2(
        pair(i32x4_extract_lane::<0>(index)),
        pair(i32x4_extract_lane::<1>(index)),
    );
    let second = u64x2(
        pair(i32x4_extract_lane::<2>(index)),
        pair(i32x4_extract_lane::<3>(index)),
    );
    (
        i32x4_shuffle::<0, 2, 4, 6>(first, second),
        i32x4_shuffle::<1, 3, 5, 7>(first, second),
    )
}

/// `clamp(value, 0, max)` with NaN sent to 0 (see the module docs).
#[inline]
fn clamp_f32(value: v128, max: v128) -> v128 {
    f32x4_pmin(max, f32x4_pmax(f32x4_splat(0.0), value))
}

/// A per-pixel weight (< 2^16, in 32-bit lanes) repeated over the pixel's four u16 channels, in
/// the order of `u16x8_extend_low_u8x16` and `u16x8_extend_high_u8x16`.
#[inline]
fn spread_per_channel(value: v128) -> (v128, v128) {
    let doubled = v128_or(value, i32x4_shl(value, 16));
    (
        i32x4_shuffle::<0, 0, 1, 1>(doubled, doubled),
        i32x4_shuffle::<2, 2, 3, 3>(doubled, doubled),
    )
}

/// `a + (((b - a) * w) >> 7)` in i16 lanes (|b - a| <= 255, w <= 128: no overflow).
#[inline]
fn lerp_i16(a: v128, b: v128, weight: v128) -> v128 {
    let step = i16x8_mul(i16x8_sub(b, a), weight);
    i16x8_add(a, i16x8_shr(step, 7))
}

/// WebAssembly SIMD version of [`super::nearest_row`]: 4 positions per iteration.
pub fn nearest_row(table: &[[u8; 4]], side: usize, xs: &[f32], ys: &[f32], out: &mut [[u8; 4]]) {
    let count = out.len();
    if side == 0 || side > LIT_MAX_SIDE || side * side > i32::MAX as usize {
        nearest_span(table, side, xs, ys, out, 0);
        return;
    }
    let table = &table[..side * side];
    let (xs, ys) = (&xs[..count], &ys[..count]);
    let last = f32x4_splat(side as f32 - 1.0);
    let stride = i32x4_splat(side as i32);
    let base = table.as_ptr().cast::<u32>();
    let mut i = 0;
    while i + 4 <= count {
        // SAFETY: i + 4 <= count, so the 4 positions read and the 4 texels written at i lie
        // inside `xs`, `ys` and `out` (unaligned `v128` accesses are allowed). Positions are
        // clamped to [0, side-1] (NaN to 0) before they become indices, so every loaded texel
        // lies inside `table` (`side * side` texels, which fits in i32).
        unsafe {
            let x = i32x4_trunc_sat_f32x4(clamp_f32(v128_load(xs.as_ptr().add(i).cast()), last));
            let y = i32x4_trunc_sat_f32x4(clamp_f32(v128_load(ys.as_ptr().add(i).cast()), last));
            let index = i32x4_add(i32x4_mul(y, stride), x);
            v128_store(out.as_mut_ptr().add(i).cast(), load_4_words(base, index));
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
unsafe fn load_4_words(base: *const u32, index: v128) -> v128 {
    let word = |i: i32| {
        // SAFETY: the caller guarantees that every lane is a valid index; texels are `[u8; 4]`,
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
