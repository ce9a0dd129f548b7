//! The lit look's SIMD kernel, written once over the vector layer ([`super::wide`]):
//! [`super::scalar::lit_render_row`], `LANES` pixels per iteration.
//!
//! The float math (sample position, facing) runs in vector lanes in exactly the reference's
//! order, one instruction per operation (no fused multiply-add on any set). The four corners
//! are fetched with [`Isa::gather`] and blended in 16-bit lanes ([`bilinear`], two
//! [`lerp7`](super::wide::lerp7)s a row and one between): 7-bit weights keep every product
//! inside `i16`, which is why the reference uses 1/128-pixel weights. The shade
//! is `((sample << 8) * gain) >> 16` as a high multiply of 16-bit lanes, plus the highlight with
//! unsigned saturation, and the pack to bytes saturates to 255 as the reference's `min` does.
//! The loop stops where a full vector would leave the row and the reference finishes the row,
//! so every backend's output is the reference's, bit for bit.

use super::LIT_MAX_SIDE;
use super::scalar::{
    self, LIT_GAIN_BITS, LIT_GAIN_MASK, LIT_TABLE_HALF, LIT_TABLE_SPAN, LitLook, SourceRow,
};
use super::wide::{F32s, I32s, Isa, Kernel, U16s, bilinear};

/// [`scalar::lit_render_row`] as a [`Kernel`].
pub(super) struct Lit<'a> {
    pub source: SourceRow<'a>,
    /// `[gx, gy]`.
    pub gradients: [&'a [f32]; 2],
    pub dst_row: &'a mut [[u8; 4]],
    pub look: &'a LitLook,
}

impl Kernel for Lit<'_> {
    type Output = ();

    fn scalar(self) {
        scalar::lit_render_row(self.source, self.gradients, self.dst_row, self.look);
    }

    #[inline(always)]
    fn simd<S: Isa>(self, isa: S) {
        let Self {
            source,
            gradients,
            dst_row,
            look,
        } = self;
        let SourceRow { src, y, height } = source;
        let width = dst_row.len();
        let cells = width * height;
        if width == 0
            || y >= height
            || width > LIT_MAX_SIDE
            || height > LIT_MAX_SIDE
            || cells > i32::MAX as usize
            || look.table.len() <= LIT_TABLE_SPAN
        {
            scalar::lit_render_row(source, gradients, dst_row, look);
            return;
        }
        let src = &src[..cells];
        let [gx, gy] = gradients.map(|row| &row[..width]);
        let table = &look.table[..=LIT_TABLE_SPAN];

        let refraction = isa.f32(look.refraction);
        let slope = isa.f32(look.slope);
        let (light_x, light_y) = (isa.f32(look.light[0]), isa.f32(look.light[1]));
        let max_x = isa.f32(width as f32 - 1.0);
        let max_y = isa.f32(height as f32 - 1.0);
        let last_column = isa.i32(width as i32 - 1);
        let last_row = isa.i32(height as i32 - 1);
        let stride = isa.i32(width as i32);
        let row_y = isa.f32(y as f32);
        let lanes = isa.lanes().to_f32();
        let one = isa.f32(1.0);
        let half = isa.f32(0.5);
        let fixed_one = isa.f32(128.0);
        let weight_mask = isa.i32(127);
        let half_table = isa.f32(LIT_TABLE_HALF as f32);
        let table_span = isa.f32(LIT_TABLE_SPAN as f32);
        let one_step = isa.i32(1);
        let gain_mask = isa.i32(LIT_GAIN_MASK as i32);
        let max_highlight = isa.i32(255);
        let alpha_gain = isa.u16(256);
        let no_highlight = isa.u16(0);
        let pixels = src.as_ptr().cast::<u32>();
        let entries = table.as_ptr();

        let mut x = 0;
        while x + S::LANES <= width {
            // SAFETY: x + LANES <= width, so the gradients read and the pixels written at x lie
            // inside rows of `width`. Sample positions are clamped to [0, width-1] x
            // [0, height-1] before they become indices (NaN to 0), and the second column and
            // row are clamped again, so every fetched pixel lies inside `src` (`width * height`
            // pixels, which fits in i32; a clamped position times 128 fits in i32 because both
            // sides are at most LIT_MAX_SIDE). Table indices are clamped to
            // [0, LIT_TABLE_SPAN] and `table` has `LIT_TABLE_SPAN + 1` entries.
            unsafe {
                let grad_x = isa.load_f32(gx.as_ptr().add(x));
                let grad_y = isa.load_f32(gy.as_ptr().add(x));
                // `x + lane` is exact in f32 (width <= LIT_MAX_SIDE), as in the reference.
                let column = isa.f32(x as f32) + lanes;
                let sx = (column + refraction * grad_x).clamp_position(max_x);
                let sy = (row_y + refraction * grad_y).clamp_position(max_y);
                let fixed_x = (sx * fixed_one).trunc_to_i32();
                let fixed_y = (sy * fixed_one).trunc_to_i32();
                let (x0, y0) = (fixed_x.shr::<7>(), fixed_y.shr::<7>());
                let (wx, wy) = (fixed_x & weight_mask, fixed_y & weight_mask);
                let x1 = (x0 + one_step).min(last_column);
                let y1 = (y0 + one_step).min(last_row);
                let (row0, row1) = (y0 * stride, y1 * stride);
                let p00 = isa.gather(pixels, row0 + x0);
                let p10 = isa.gather(pixels, row0 + x1);
                let p01 = isa.gather(pixels, row1 + x0);
                let p11 = isa.gather(pixels, row1 + x1);

                let p = slope * grad_x;
                let q = slope * grad_y;
                let inv_length = one / ((one + p * p) + q * q).sqrt();
                let facing = (p * light_x + q * light_y) * inv_length;
                let scaled = (facing + one) * half_table + half;
                let table_index = scaled.clamp_position(table_span).trunc_to_i32();
                let entry = isa.gather(entries, table_index);
                let gain = entry & gain_mask;
                // The result is at most 255, so a highlight above 255 acts as 255; capping it
                // keeps the 16-bit lanes below exact for any table, not only those of
                // `LitLook::set_light`.
                let highlight = entry
                    .shr_logical::<{ LIT_GAIN_BITS as i32 }>()
                    .min(max_highlight);

                let (wx_low, wx_high) = wx.spread_per_channel();
                let (wy_low, wy_high) = wy.spread_per_channel();
                let (gain_low, gain_high) = gain.spread_per_channel();
                let (light_low, light_high) = highlight.spread_per_channel();
                let (p00_low, p00_high) = p00.widen_pixels();
                let (p10_low, p10_high) = p10.widen_pixels();
                let (p01_low, p01_high) = p01.widen_pixels();
                let (p11_low, p11_high) = p11.widen_pixels();
                let low = shade::<S>(
                    bilinear::<S>([p00_low, p10_low, p01_low, p11_low], wx_low, wy_low),
                    gain_low.with_alpha(alpha_gain),
                    light_low.with_alpha(no_highlight),
                );
                let high = shade::<S>(
                    bilinear::<S>([p00_high, p10_high, p01_high, p11_high], wx_high, wy_high),
                    gain_high.with_alpha(alpha_gain),
                    light_high.with_alpha(no_highlight),
                );
                low.pack_u8(high).store(dst_row.as_mut_ptr().add(x).cast());
            }
            x += S::LANES;
        }
        scalar::lit_render_span(source, [gx, gy], dst_row, look, x..width);
    }
}

/// `((sample << 8) * gain) >> 16 + highlight` in `u16` lanes (saturating).
#[inline(always)]
fn shade<S: Isa>(sample: S::U16, gain: S::U16, highlight: S::U16) -> S::U16 {
    sample.shl::<8>().mul_high(gain).add_sat(highlight)
}
