//! The vector layer on WebAssembly SIMD: 4 lanes of 32 bits in each `v128`.
//!
//! Compiled in only when the module is built with `-C target-feature=+simd128`: a wasm module
//! cannot detect features at run time (an engine without SIMD rejects the whole module), so the
//! choice is made at build time, [`run`] is safe, and the only `unsafe` here is around loads
//! and stores. The clamp uses `pmax`/`pmin`, whose "pseudo" semantics (`pmax(a, b) = a < b ? b :
//! a`, `pmin(a, b) = b < a ? b : a`) are the reference's `clamp_position` word for word when the
//! bound is the first operand, and which engines on x86 turn into single `maxps`/`minps`.
//! WebAssembly rounds halves to even only, so [`F32s::round_half_away`] is built from `trunc`
//! as on x86; `i32x4.trunc_sat_f32x4` is a sequence of about eight instructions on x86, so
//! clamped whole numbers take a two-instruction conversion ([`F32s::whole_to_i32`]).

use core::arch::wasm32::*;

use super::{F32s, I16s, I32s, Isa, Kernel, U16s};

/// The token of WebAssembly SIMD.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Simd128(());

/// Runs `kernel` over WebAssembly SIMD's vectors (always there: see the module docs).
#[inline(always)]
pub(crate) fn run<K: Kernel>(kernel: K) -> K::Output {
    kernel.simd(Simd128(()))
}

/// Calls intrinsics: WebAssembly's are safe functions (see the module docs).
macro_rules! plain {
    ($body:expr) => {
        $body
    };
}

/// 4 `f32`.
#[derive(Clone, Copy)]
pub(crate) struct F32x4(v128);
/// 4 `i32`.
#[derive(Clone, Copy)]
pub(crate) struct I32x4(v128);
/// 8 `i16`.
#[derive(Clone, Copy)]
pub(crate) struct I16x8(v128);
/// 8 `u16`.
#[derive(Clone, Copy)]
pub(crate) struct U16x8(v128);

impl Isa for Simd128 {
    const LANES: usize = 4;
    const UPSAMPLE_BY_TWO: bool = true;
    type F32 = F32x4;
    type I32 = I32x4;
    type I16 = I16x8;
    type U16 = U16x8;

    #[inline(always)]
    fn f32(self, value: f32) -> F32x4 {
        F32x4(f32x4_splat(value))
    }
    #[inline(always)]
    fn i32(self, value: i32) -> I32x4 {
        I32x4(i32x4_splat(value))
    }
    #[inline(always)]
    fn u16(self, value: u16) -> U16x8 {
        U16x8(u16x8_splat(value))
    }
    #[inline(always)]
    fn lanes(self) -> I32x4 {
        I32x4(i32x4(0, 1, 2, 3))
    }
    #[inline(always)]
    unsafe fn load_f32(self, pointer: *const f32) -> F32x4 {
        // SAFETY: the caller's guarantee; `v128_load` needs no alignment.
        F32x4(unsafe { v128_load(pointer.cast()) })
    }
    #[inline(always)]
    unsafe fn load_u32(self, pointer: *const u32) -> I32x4 {
        // SAFETY: as for `load_f32`.
        I32x4(unsafe { v128_load(pointer.cast()) })
    }
    #[inline(always)]
    unsafe fn load_i16(self, pointer: *const i16) -> I16x8 {
        // SAFETY: as for `load_f32`.
        I16x8(unsafe { v128_load(pointer.cast()) })
    }
    #[inline(always)]
    unsafe fn load_i16_as_i32(self, pointer: *const i16) -> I32x4 {
        // SAFETY: as for `load_f32`.
        I32x4(unsafe { i32x4_load_extend_i16x4(pointer) })
    }
    #[inline(always)]
    unsafe fn gather(self, base: *const u32, index: I32x4) -> I32x4 {
        let index = index.0;
        // SAFETY: the caller guarantees every lane is a valid index.
        I32x4(unsafe {
            u32x4(
                word(base, i32x4_extract_lane::<0>(index)),
                word(base, i32x4_extract_lane::<1>(index)),
                word(base, i32x4_extract_lane::<2>(index)),
                word(base, i32x4_extract_lane::<3>(index)),
            )
        })
    }
    #[inline(always)]
    unsafe fn gather_pairs(
        self,
        base: *const u32,
        top: I32x4,
        below: usize,
    ) -> (I32x4, I32x4, I32x4, I32x4) {
        let top = top.0;
        let lanes = [
            i32x4_extract_lane::<0>(top),
            i32x4_extract_lane::<1>(top),
            i32x4_extract_lane::<2>(top),
            i32x4_extract_lane::<3>(top),
        ];
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
/// As [`Isa::gather_pairs`].
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
    let first = u64x2(pair(lanes[0]), pair(lanes[1]));
    let second = u64x2(pair(lanes[2]), pair(lanes[3]));
    (
        I32x4(i32x4_shuffle::<0, 2, 4, 6>(first, second)),
        I32x4(i32x4_shuffle::<1, 3, 5, 7>(first, second)),
    )
}

binary_ops!(plain, F32x4: Add add f32x4_add,
    Sub sub f32x4_sub,
    Mul mul f32x4_mul,
    Div div f32x4_div);

impl F32s<Simd128> for F32x4 {
    #[inline(always)]
    fn sqrt(self) -> Self {
        Self(f32x4_sqrt(self.0))
    }
    #[inline(always)]
    fn clamp_position(self, max: Self) -> Self {
        Self(f32x4_pmin(max.0, f32x4_pmax(f32x4_splat(0.0), self.0)))
    }
    #[inline(always)]
    fn round_half_away(self) -> Self {
        // `trunc(v + copysign(0.49999997, v))` (see `super::super::ALMOST_HALF`).
        let below_half = v128_or(
            v128_and(self.0, f32x4_splat(-0.0)),
            f32x4_splat(super::super::ALMOST_HALF),
        );
        Self(f32x4_trunc(f32x4_add(self.0, below_half)))
    }
    #[inline(always)]
    fn trunc_to_i32(self) -> I32x4 {
        I32x4(i32x4_trunc_sat_f32x4(self.0))
    }
    #[inline(always)]
    fn whole_to_i32(self) -> I32x4 {
        // `bits(v + 2^23) - bits(2^23)`.
        const TWO_TO_23: f32 = 8_388_608.0;
        I32x4(i32x4_sub(
            f32x4_add(self.0, f32x4_splat(TWO_TO_23)),
            u32x4_splat(TWO_TO_23.to_bits()),
        ))
    }
    #[inline(always)]
    fn magnitudes_below_half(self, other: Self) -> bool {
        let half = f32x4_splat(0.5);
        i32x4_all_true(v128_and(
            f32x4_lt(f32x4_abs(self.0), half),
            f32x4_lt(f32x4_abs(other.0), half),
        ))
    }
    #[inline(always)]
    fn permute(self, offsets: I32x4) -> Self {
        // `swizzle`: lane i takes bytes 4 * offset .. 4 * offset + 4.
        let control = i32x4_add(
            i32x4_mul(offsets.0, u32x4_splat(0x0404_0404)),
            u32x4_splat(0x0302_0100),
        );
        Self(i8x16_swizzle(self.0, control))
    }
    #[inline(always)]
    fn interleave(self, other: Self) -> (Self, Self) {
        (
            Self(i32x4_shuffle::<0, 4, 1, 5>(self.0, other.0)),
            Self(i32x4_shuffle::<2, 6, 3, 7>(self.0, other.0)),
        )
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut f32) {
        // SAFETY: the caller's guarantee; `v128_store` needs no alignment.
        unsafe { v128_store(pointer.cast(), self.0) }
    }
}

binary_ops!(plain, I32x4: Add add i32x4_add,
    Sub sub i32x4_sub,
    Mul mul i32x4_mul,
    BitAnd bitand v128_and);

impl I32s<Simd128> for I32x4 {
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        Self(i32x4_min(self.0, other.0))
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        Self(i32x4_max(self.0, other.0))
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        Self(i32x4_shr(self.0, N as u32))
    }
    #[inline(always)]
    fn shr_logical<const N: i32>(self) -> Self {
        Self(u32x4_shr(self.0, N as u32))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Self(i32x4_shl(self.0, N as u32))
    }
    #[inline(always)]
    fn shr_by(self, count: u32) -> Self {
        // Wasm shifts count modulo 32; 31 gives the sign fill of any longer shift.
        Self(i32x4_shr(self.0, count.min(31)))
    }
    #[inline(always)]
    fn to_f32(self) -> F32x4 {
        F32x4(f32x4_convert_i32x4(self.0))
    }
    #[inline(always)]
    fn pack_i16_sat(self, high: Self) -> I16x8 {
        I16x8(i16x8_narrow_i32x4(self.0, high.0))
    }
    #[inline(always)]
    fn widen_pixels(self) -> (U16x8, U16x8) {
        (
            U16x8(u16x8_extend_low_u8x16(self.0)),
            U16x8(u16x8_extend_high_u8x16(self.0)),
        )
    }
    #[inline(always)]
    fn spread_per_channel(self) -> (U16x8, U16x8) {
        let doubled = v128_or(self.0, i32x4_shl(self.0, 16));
        (
            U16x8(i32x4_shuffle::<0, 0, 1, 1>(doubled, doubled)),
            U16x8(i32x4_shuffle::<2, 2, 3, 3>(doubled, doubled)),
        )
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut u32) {
        // SAFETY: the caller's guarantee; `v128_store` needs no alignment.
        unsafe { v128_store(pointer.cast(), self.0) }
    }
}

impl I16s<Simd128> for I16x8 {
    #[inline(always)]
    fn widen_low(self) -> I32x4 {
        I32x4(i32x4_extend_low_i16x8(self.0))
    }
    #[inline(always)]
    fn widen_high(self) -> I32x4 {
        I32x4(i32x4_extend_high_i16x8(self.0))
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut i16) {
        // SAFETY: the caller's guarantee; `v128_store` needs no alignment.
        unsafe { v128_store(pointer.cast(), self.0) }
    }
}

binary_ops!(plain, U16x8: Add add i16x8_add,
    Sub sub i16x8_sub,
    Mul mul i16x8_mul);

impl U16s<Simd128> for U16x8 {
    #[inline(always)]
    fn shr_signed<const N: i32>(self) -> Self {
        Self(i16x8_shr(self.0, N as u32))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Self(i16x8_shl(self.0, N as u32))
    }
    #[inline(always)]
    fn mul_high(self, other: Self) -> Self {
        let low = u32x4_extmul_low_u16x8(self.0, other.0);
        let high = u32x4_extmul_high_u16x8(self.0, other.0);
        Self(i16x8_shuffle::<1, 3, 5, 7, 9, 11, 13, 15>(low, high))
    }
    #[inline(always)]
    fn add_sat(self, other: Self) -> Self {
        Self(u16x8_add_sat(self.0, other.0))
    }
    #[inline(always)]
    fn with_alpha(self, alpha: Self) -> Self {
        // The alpha channel: 16-bit lanes 3 and 7.
        Self(v128_bitselect(
            alpha.0,
            self.0,
            u64x2_splat(0xffff_0000_0000_0000),
        ))
    }
    #[inline(always)]
    fn pack_u8(self, high: Self) -> I32x4 {
        I32x4(u8x16_narrow_i16x8(self.0, high.0))
    }
}
