//! The natural look's samplers, written once over the vector layer ([`super::super::wide`]):
//! the floor read bilinearly ([`super::bilinear_row`]) and the sky at the nearest texel
//! ([`super::nearest_row`]), `LANES` positions per iteration.
//!
//! The positions are clamped (NaN to 0) and turned into 1/128-pixel fixed point in vector
//! lanes, and the corners blended in 16-bit lanes ([`bilinear`], [`super::super::wide::lerp7`]: weights of at most 128 keep every
//! product inside `i16`), as the lit look does. The floor's corners are fetched in pairs
//! ([`Isa::gather_pairs`]): the left corner is never the last column, so the two corners of a
//! row are one 8-byte word. The sky's texels, one word per pixel, are gathered. Each loop stops
//! where a full vector would leave the row and the reference finishes it, so the output is the
//! reference's, bit for bit. AVX-512 has a floor sampler of its own (`avx512.rs`).

use super::super::LIT_MAX_SIDE;
use super::super::wide::{F32s, I32s, Isa, Kernel, U16s, bilinear};
use super::{bilinear_row, nearest_row};

/// [`super::bilinear_row`] as a [`Kernel`].
pub(in crate::kernels) struct Bilinear<'a> {
    pub src: &'a [[u8; 4]],
    pub width: usize,
    pub height: usize,
    pub xs: &'a [f32],
    pub ys: &'a [f32],
    pub out: &'a mut [[u8; 4]],
}

/// A [`Bilinear`] sampler's fields, its slices cut to the lengths the vector loops index:
/// `(src, width, height, xs, ys, out)`.
pub(in crate::kernels) type Prepared<'a> = (
    &'a [[u8; 4]],
    usize,
    usize,
    &'a [f32],
    &'a [f32],
    &'a mut [[u8; 4]],
);

impl<'a> Bilinear<'a> {
    /// The sampler's fields with `src` cut to `width * height` pixels and `xs`, `ys` to `out`'s
    /// length, or `None` once the reference has sampled the row where the sizes are outside what
    /// the vectors handle. Every backend's vector loop (this layer's and AVX-512's) starts
    /// with it.
    #[inline(always)]
    pub(in crate::kernels) fn prepared(self) -> Option<Prepared<'a>> {
        let (width, height) = (self.width, self.height);
        let (count, cells) = (self.out.len(), width * height);
        if width < 2
            || height < 2
            || width > LIT_MAX_SIDE
            || height > LIT_MAX_SIDE
            || cells > i32::MAX as usize
        {
            bilinear_row(self.src, width, height, self.xs, self.ys, self.out);
            return None;
        }
        let (src, xs, ys) = (&self.src[..cells], &self.xs[..count], &self.ys[..count]);
        Some((src, width, height, xs, ys, self.out))
    }
}

impl Kernel for Bilinear<'_> {
    type Output = ();

    fn scalar(self) {
        bilinear_row(
            self.src,
            self.width,
            self.height,
            self.xs,
            self.ys,
            self.out,
        );
    }

    #[inline(always)]
    fn simd<S: Isa>(self, isa: S) {
        let Some((src, width, height, xs, ys, out)) = self.prepared() else {
            return;
        };
        let count = out.len();
        let max_x = isa.f32(width as f32 - 1.0);
        let max_y = isa.f32(height as f32 - 1.0);
        let last_left = isa.i32(width as i32 - 2);
        let last_top = isa.i32(height as i32 - 2);
        let stride = isa.i32(width as i32);
        let fixed_one = isa.f32(128.0);
        let base = src.as_ptr().cast::<u32>();
        let mut i = 0;
        while i + S::LANES <= count {
            // SAFETY: i + LANES <= count, so the positions read and the pixels written at i lie
            // inside `xs`, `ys` and `out`. Positions are clamped to [0, width-1] x
            // [0, height-1] before they become indices (NaN to 0), and the left column and top
            // row are at most width - 2 and height - 2, so both pixels of every pair, in both
            // rows, lie inside `src` (`width * height` pixels, which fits in i32); a clamped
            // position times 128 fits in i32 because both sides are at most LIT_MAX_SIDE.
            unsafe {
                let sx = isa.load_f32(xs.as_ptr().add(i)).clamp_position(max_x);
                let sy = isa.load_f32(ys.as_ptr().add(i)).clamp_position(max_y);
                let fixed_x = (sx * fixed_one).trunc_to_i32();
                let fixed_y = (sy * fixed_one).trunc_to_i32();
                let x0 = fixed_x.shr::<7>().min(last_left);
                let y0 = fixed_y.shr::<7>().min(last_top);
                let wx = fixed_x - x0.shl::<7>();
                let wy = fixed_y - y0.shl::<7>();
                let top = y0 * stride + x0;
                let (p00, p10, p01, p11) = isa.gather_pairs(base, top, width);
                let (wx_low, wx_high) = wx.spread_per_channel();
                let (wy_low, wy_high) = wy.spread_per_channel();
                let (p00_low, p00_high) = p00.widen_pixels();
                let (p10_low, p10_high) = p10.widen_pixels();
                let (p01_low, p01_high) = p01.widen_pixels();
                let (p11_low, p11_high) = p11.widen_pixels();
                let low = bilinear::<S>([p00_low, p10_low, p01_low, p11_low], wx_low, wy_low);
                let high =
                    bilinear::<S>([p00_high, p10_high, p01_high, p11_high], wx_high, wy_high);
                // Every lane is in 0..=255.
                low.pack_u8(high).store(out.as_mut_ptr().add(i).cast());
            }
            i += S::LANES;
        }
        bilinear_row(src, width, height, &xs[i..], &ys[i..], &mut out[i..]);
    }
}

/// [`super::nearest_row`] as a [`Kernel`].
pub(in crate::kernels) struct Nearest<'a> {
    pub table: &'a [[u8; 4]],
    pub side: usize,
    pub xs: &'a [f32],
    pub ys: &'a [f32],
    pub out: &'a mut [[u8; 4]],
}

impl Kernel for Nearest<'_> {
    type Output = ();

    fn scalar(self) {
        nearest_row(self.table, self.side, self.xs, self.ys, self.out);
    }

    #[inline(always)]
    fn simd<S: Isa>(self, isa: S) {
        let Self {
            table,
            side,
            xs,
            ys,
            out,
        } = self;
        let count = out.len();
        if side == 0 || side > LIT_MAX_SIDE || side * side > i32::MAX as usize {
            nearest_row(table, side, xs, ys, out);
            return;
        }
        let table = &table[..side * side];
        let (xs, ys) = (&xs[..count], &ys[..count]);
        let last = isa.f32(side as f32 - 1.0);
        let stride = isa.i32(side as i32);
        let base = table.as_ptr().cast::<u32>();
        let mut i = 0;
        while i + S::LANES <= count {
            // SAFETY: i + LANES <= count, so the positions read and the texels written at i lie
            // inside `xs`, `ys` and `out`. Positions are clamped to [0, side-1] (NaN to 0)
            // before they become indices, so every fetched texel lies inside `table` (`side *
            // side` texels, which fits in i32).
            unsafe {
                let x = isa
                    .load_f32(xs.as_ptr().add(i))
                    .clamp_position(last)
                    .trunc_to_i32();
                let y = isa
                    .load_f32(ys.as_ptr().add(i))
                    .clamp_position(last)
                    .trunc_to_i32();
                isa.gather(base, y * stride + x)
                    .store(out.as_mut_ptr().add(i).cast());
            }
            i += S::LANES;
        }
        nearest_row(table, side, &xs[i..], &ys[i..], &mut out[i..]);
    }
}
