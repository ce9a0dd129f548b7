//! The vector layer on NEON (aarch64): 4 lanes of 32 bits in each 128-bit register.
//!
//! Where NEON differs from x86 in ways that matter for bit-exactness:
//!
//! - `fmax`/`fmin` propagate NaN, where the reference (like x86 `maxps`) sends a NaN position
//!   to 0, so [`F32s::clamp_position`] is a compare and a select, the reference word for word.
//! - `fcvtzs` truncates and saturates like Rust's `as i32` (NaN to 0).
//! - `frinta` rounds halves away from zero: `f32::round` in one instruction.
//! - No gather: words are loaded one by one into lanes.
//! - The high half of a 16-bit product is a widening multiply and an unzip of the odd halves.
//!
//! LLVM does not contract separate `fmul`/`fadd` intrinsics into fused ones, so every product
//! and sum is its own exactly rounded instruction, in the reference's order.

use std::arch::aarch64::*;

use super::{F32s, I16s, I32s, Isa, Kernel, U16s};

/// The token of NEON.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neon(());

/// Runs `kernel` over NEON's vectors.
///
/// # Safety
///
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn run<K: Kernel>(kernel: K) -> K::Output {
    kernel.simd(Neon(()))
}

/// Calls intrinsics on values of this file's types.
macro_rules! neon {
    ($body:expr) => {
        // SAFETY: a value of this file's types is only made from a `Neon` token or other such
        // values, and the token only by `run`, whose caller guarantees NEON.
        unsafe { $body }
    };
}

/// 4 `f32`.
#[derive(Clone, Copy)]
pub(crate) struct F32x4(float32x4_t);
/// 4 `i32`.
#[derive(Clone, Copy)]
pub(crate) struct I32x4(int32x4_t);
/// 8 `i16`.
#[derive(Clone, Copy)]
pub(crate) struct I16x8(int16x8_t);
/// 8 `u16`.
#[derive(Clone, Copy)]
pub(crate) struct U16x8(uint16x8_t);

/// Lane numbers.
const LANES: [i32; 4] = [0, 1, 2, 3];

impl Isa for Neon {
    const LANES: usize = 4;
    type F32 = F32x4;
    type I32 = I32x4;
    type I16 = I16x8;
    type U16 = U16x8;

    #[inline(always)]
    fn f32(self, value: f32) -> F32x4 {
        F32x4(neon!(vdupq_n_f32(value)))
    }
    #[inline(always)]
    fn i32(self, value: i32) -> I32x4 {
        I32x4(neon!(vdupq_n_s32(value)))
    }
    #[inline(always)]
    fn u16(self, value: u16) -> U16x8 {
        U16x8(neon!(vdupq_n_u16(value)))
    }
    #[inline(always)]
    fn lanes(self) -> I32x4 {
        // `LANES` holds four `i32`.
        I32x4(neon!(vld1q_s32(LANES.as_ptr())))
    }
    #[inline(always)]
    unsafe fn load_f32(self, pointer: *const f32) -> F32x4 {
        F32x4(neon!(vld1q_f32(pointer)))
    }
    #[inline(always)]
    unsafe fn load_u32(self, pointer: *const u32) -> I32x4 {
        I32x4(neon!(vreinterpretq_s32_u32(vld1q_u32(pointer))))
    }
    #[inline(always)]
    unsafe fn load_i16(self, pointer: *const i16) -> I16x8 {
        I16x8(neon!(vld1q_s16(pointer)))
    }
    #[inline(always)]
    unsafe fn load_i16_as_i32(self, pointer: *const i16) -> I32x4 {
        I32x4(neon!(vmovl_s16(vld1_s16(pointer))))
    }
    #[inline(always)]
    unsafe fn gather(self, base: *const u32, index: I32x4) -> I32x4 {
        // The caller guarantees every lane is a valid index.
        let index = index.0;
        I32x4(neon!({
            let v = vdupq_n_u32(word(base, vgetq_lane_s32::<0>(index)));
            let v = vsetq_lane_u32::<1>(word(base, vgetq_lane_s32::<1>(index)), v);
            let v = vsetq_lane_u32::<2>(word(base, vgetq_lane_s32::<2>(index)), v);
            vreinterpretq_s32_u32(vsetq_lane_u32::<3>(
                word(base, vgetq_lane_s32::<3>(index)),
                v,
            ))
        }))
    }
    #[inline(always)]
    unsafe fn gather_pairs(
        self,
        base: *const u32,
        top: I32x4,
        below: usize,
    ) -> (I32x4, I32x4, I32x4, I32x4) {
        let top = top.0;
        let lanes: [i32; 4] = neon!([
            vgetq_lane_s32::<0>(top),
            vgetq_lane_s32::<1>(top),
            vgetq_lane_s32::<2>(top),
            vgetq_lane_s32::<3>(top),
        ]);
        // SAFETY: the caller's guarantee, for both rows.
        let (left, right) = unsafe { corners(base, &lanes, 0) };
        let (left_below, right_below) = unsafe { corners(base, &lanes, below) };
        (left, right, left_below, right_below)
    }
}

/// The word at `base[i]` (pixels are `[u8; 4]`, so it may be unaligned).
///
/// # Safety
///
/// `i` must be a valid, non-negative index of the words at `base`.
#[inline(always)]
unsafe fn word(base: *const u32, i: i32) -> u32 {
    // SAFETY: the caller's guarantee.
    unsafe { base.add(i as u32 as usize).read_unaligned() }
}

/// The left and the right words of the pairs at `lanes[i] + below`, in lane order.
///
/// # Safety
///
/// As [`Isa::gather_pairs`], and the CPU must support NEON.
#[inline(always)]
unsafe fn corners(base: *const u32, lanes: &[i32; 4], below: usize) -> (I32x4, I32x4) {
    let pair = |i: i32| {
        // SAFETY: the caller guarantees both words; pixels are `[u8; 4]`, so the pair may be
        // unaligned.
        unsafe {
            base.add(i as u32 as usize + below)
                .cast::<u64>()
                .read_unaligned()
        }
    };
    let (a, b, c, d) = (
        pair(lanes[0]),
        pair(lanes[1]),
        pair(lanes[2]),
        pair(lanes[3]),
    );
    neon!({
        let first = vreinterpretq_u32_u64(vcombine_u64(vcreate_u64(a), vcreate_u64(b)));
        let second = vreinterpretq_u32_u64(vcombine_u64(vcreate_u64(c), vcreate_u64(d)));
        (
            I32x4(vreinterpretq_s32_u32(vuzp1q_u32(first, second))),
            I32x4(vreinterpretq_s32_u32(vuzp2q_u32(first, second))),
        )
    })
}

binary_ops!(neon, F32x4: Add add vaddq_f32,
    Sub sub vsubq_f32,
    Mul mul vmulq_f32,
    Div div vdivq_f32);

impl F32s<Neon> for F32x4 {
    #[inline(always)]
    fn sqrt(self) -> Self {
        Self(neon!(vsqrtq_f32(self.0)))
    }
    #[inline(always)]
    fn clamp_position(self, max: Self) -> Self {
        Self(neon!({
            let zero = vdupq_n_f32(0.0);
            let at_least_zero = vbslq_f32(vcgtq_f32(self.0, zero), self.0, zero);
            vbslq_f32(vcltq_f32(at_least_zero, max.0), at_least_zero, max.0)
        }))
    }
    #[inline(always)]
    fn round_half_away(self) -> Self {
        Self(neon!(vrndaq_f32(self.0)))
    }
    #[inline(always)]
    fn trunc_to_i32(self) -> I32x4 {
        I32x4(neon!(vcvtq_s32_f32(self.0)))
    }
    #[inline(always)]
    fn magnitudes_below_half(self, other: Self) -> bool {
        // `facgt` compares sizes; a NaN compares false.
        neon!({
            let half = vdupq_n_f32(0.5);
            vminvq_u32(vandq_u32(
                vcaltq_f32(self.0, half),
                vcaltq_f32(other.0, half),
            )) == u32::MAX
        })
    }
    #[inline(always)]
    fn permute(self, offsets: I32x4) -> Self {
        // `tbl`: lane i takes bytes 4 * offset .. 4 * offset + 4.
        Self(neon!({
            let control = vmlaq_u32(
                vdupq_n_u32(0x0302_0100),
                vreinterpretq_u32_s32(offsets.0),
                vdupq_n_u32(0x0404_0404),
            );
            vreinterpretq_f32_u8(vqtbl1q_u8(
                vreinterpretq_u8_f32(self.0),
                vreinterpretq_u8_u32(control),
            ))
        }))
    }
    #[inline(always)]
    fn interleave(self, other: Self) -> (Self, Self) {
        neon!((
            Self(vzip1q_f32(self.0, other.0)),
            Self(vzip2q_f32(self.0, other.0)),
        ))
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut f32) {
        neon!(vst1q_f32(pointer, self.0))
    }
}

binary_ops!(neon, I32x4: Add add vaddq_s32,
    Sub sub vsubq_s32,
    Mul mul vmulq_s32,
    BitAnd bitand vandq_s32);

impl I32s<Neon> for I32x4 {
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        Self(neon!(vminq_s32(self.0, other.0)))
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        Self(neon!(vmaxq_s32(self.0, other.0)))
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        Self(neon!(vshrq_n_s32::<N>(self.0)))
    }
    #[inline(always)]
    fn shr_logical<const N: i32>(self) -> Self {
        Self(neon!(vreinterpretq_s32_u32(vshrq_n_u32::<N>(
            vreinterpretq_u32_s32(self.0)
        ))))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Self(neon!(vshlq_n_s32::<N>(self.0)))
    }
    #[inline(always)]
    fn shr_by(self, count: u32) -> Self {
        // `sshl` by a negative amount is an arithmetic shift right.
        Self(neon!(vshlq_s32(
            self.0,
            vdupq_n_s32(-(count.min(31) as i32))
        )))
    }
    #[inline(always)]
    fn to_f32(self) -> F32x4 {
        F32x4(neon!(vcvtq_f32_s32(self.0)))
    }
    #[inline(always)]
    fn pack_i16_sat(self, high: Self) -> I16x8 {
        I16x8(neon!(vqmovn_high_s32(vqmovn_s32(self.0), high.0)))
    }
    #[inline(always)]
    fn widen_pixels(self) -> (U16x8, U16x8) {
        neon!({
            let bytes = vreinterpretq_u8_s32(self.0);
            (
                U16x8(vmovl_u8(vget_low_u8(bytes))),
                U16x8(vmovl_high_u8(bytes)),
            )
        })
    }
    #[inline(always)]
    fn spread_per_channel(self) -> (U16x8, U16x8) {
        neon!({
            let value = vreinterpretq_u32_s32(self.0);
            let doubled = vorrq_u32(value, vshlq_n_u32::<16>(value));
            (
                U16x8(vreinterpretq_u16_u32(vzip1q_u32(doubled, doubled))),
                U16x8(vreinterpretq_u16_u32(vzip2q_u32(doubled, doubled))),
            )
        })
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut u32) {
        neon!(vst1q_u32(pointer, vreinterpretq_u32_s32(self.0)))
    }
}

impl I16s<Neon> for I16x8 {
    #[inline(always)]
    fn widen_low(self) -> I32x4 {
        I32x4(neon!(vmovl_s16(vget_low_s16(self.0))))
    }
    #[inline(always)]
    fn widen_high(self) -> I32x4 {
        I32x4(neon!(vmovl_high_s16(self.0)))
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut i16) {
        neon!(vst1q_s16(pointer, self.0))
    }
}

binary_ops!(neon, U16x8: Add add vaddq_u16,
    Sub sub vsubq_u16,
    Mul mul vmulq_u16);

impl U16s<Neon> for U16x8 {
    #[inline(always)]
    fn shr_signed<const N: i32>(self) -> Self {
        Self(neon!(vreinterpretq_u16_s16(vshrq_n_s16::<N>(
            vreinterpretq_s16_u16(self.0)
        ))))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Self(neon!(vshlq_n_u16::<N>(self.0)))
    }
    #[inline(always)]
    fn mul_high(self, other: Self) -> Self {
        Self(neon!({
            let low = vmull_u16(vget_low_u16(self.0), vget_low_u16(other.0));
            let high = vmull_high_u16(self.0, other.0);
            vuzp2q_u16(vreinterpretq_u16_u32(low), vreinterpretq_u16_u32(high))
        }))
    }
    #[inline(always)]
    fn add_sat(self, other: Self) -> Self {
        Self(neon!(vqaddq_u16(self.0, other.0)))
    }
    #[inline(always)]
    fn with_alpha(self, alpha: Self) -> Self {
        // The alpha channel: 16-bit lanes 3 and 7.
        Self(neon!(vbslq_u16(
            vreinterpretq_u16_u64(vdupq_n_u64(0xffff_0000_0000_0000)),
            alpha.0,
            self.0
        )))
    }
    #[inline(always)]
    fn pack_u8(self, high: Self) -> I32x4 {
        I32x4(neon!(vreinterpretq_s32_u8(vqmovn_high_u16(
            vqmovn_u16(self.0),
            high.0
        ))))
    }
}
