//! The vector layer on SSE4.1: 4 lanes of 32 bits in each `__m128i`/`__m128`.
//!
//! SSE4.1 has no gather: [`Isa::gather`] and [`Isa::gather_pairs`] load the words one by one
//! into the lanes of a vector (`pextrd`, then `pinsrd`). `pminsd`, `pmaxsd`, `pmulld`,
//! `pmovsxwd` and `roundps` are what SSE4.1 adds over SSE2 and why the kernels need it.

use std::arch::x86_64::*;

use super::{F32s, I16s, I32s, Isa, Kernel, U16s};

/// The token of SSE4.1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sse41(());

/// Runs `kernel` over SSE4.1's vectors.
///
/// # Safety
///
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn run<K: Kernel>(kernel: K) -> K::Output {
    kernel.simd(Sse41(()))
}

/// Calls intrinsics on values of this file's types.
macro_rules! sse {
    ($body:expr) => {
        // SAFETY: a value of this file's types is only made from an `Sse41` token or other
        // such values, and the token only by `run`, whose caller guarantees SSE4.1.
        unsafe { $body }
    };
}

/// 4 `f32`.
#[derive(Clone, Copy)]
pub(crate) struct F32x4(__m128);
/// 4 `i32`.
#[derive(Clone, Copy)]
pub(crate) struct I32x4(__m128i);
/// 8 `i16`.
#[derive(Clone, Copy)]
pub(crate) struct I16x8(__m128i);
/// 8 `u16`.
#[derive(Clone, Copy)]
pub(crate) struct U16x8(__m128i);

impl Isa for Sse41 {
    const LANES: usize = 4;
    type F32 = F32x4;
    type I32 = I32x4;
    type I16 = I16x8;
    type U16 = U16x8;

    #[inline(always)]
    fn f32(self, value: f32) -> F32x4 {
        F32x4(sse!(_mm_set1_ps(value)))
    }
    #[inline(always)]
    fn i32(self, value: i32) -> I32x4 {
        I32x4(sse!(_mm_set1_epi32(value)))
    }
    #[inline(always)]
    fn u16(self, value: u16) -> U16x8 {
        U16x8(sse!(_mm_set1_epi16(value as i16)))
    }
    #[inline(always)]
    fn lanes(self) -> I32x4 {
        I32x4(sse!(_mm_setr_epi32(0, 1, 2, 3)))
    }
    #[inline(always)]
    unsafe fn load_f32(self, pointer: *const f32) -> F32x4 {
        F32x4(sse!(_mm_loadu_ps(pointer)))
    }
    #[inline(always)]
    unsafe fn load_u32(self, pointer: *const u32) -> I32x4 {
        I32x4(sse!(_mm_loadu_si128(pointer.cast())))
    }
    #[inline(always)]
    unsafe fn load_i16(self, pointer: *const i16) -> I16x8 {
        I16x8(sse!(_mm_loadu_si128(pointer.cast())))
    }
    #[inline(always)]
    unsafe fn load_i16_as_i32(self, pointer: *const i16) -> I32x4 {
        I32x4(sse!(_mm_cvtepi16_epi32(_mm_loadl_epi64(pointer.cast()))))
    }
    #[inline(always)]
    unsafe fn gather(self, base: *const u32, index: I32x4) -> I32x4 {
        let index = index.0;
        // The caller guarantees every lane is a valid index.
        I32x4(sse!(_mm_setr_epi32(
            word(base, _mm_cvtsi128_si32(index)),
            word(base, _mm_extract_epi32::<1>(index)),
            word(base, _mm_extract_epi32::<2>(index)),
            word(base, _mm_extract_epi32::<3>(index)),
        )))
    }
    #[inline(always)]
    unsafe fn gather_pairs(
        self,
        base: *const u32,
        top: I32x4,
        below: usize,
    ) -> (I32x4, I32x4, I32x4, I32x4) {
        let top = top.0;
        let lanes: [i32; 4] = sse!([
            _mm_cvtsi128_si32(top),
            _mm_extract_epi32::<1>(top),
            _mm_extract_epi32::<2>(top),
            _mm_extract_epi32::<3>(top),
        ]);
        // Pairs of pixels 0, 1 and 2, 3: `shuffle_ps` puts the left and the right words in
        // lane order.
        // SAFETY: the caller's guarantee, for both rows.
        let (left, right) = unsafe { corners(base, &lanes, 0) };
        let (left_below, right_below) = unsafe { corners(base, &lanes, below) };
        (left, right, left_below, right_below)
    }
}

binary_ops!(sse, F32x4: Add add _mm_add_ps,
    Sub sub _mm_sub_ps,
    Mul mul _mm_mul_ps,
    Div div _mm_div_ps);

impl F32s<Sse41> for F32x4 {
    #[inline(always)]
    fn sqrt(self) -> Self {
        Self(sse!(_mm_sqrt_ps(self.0)))
    }
    #[inline(always)]
    fn clamp_position(self, max: Self) -> Self {
        // `maxps` returns its second operand when the comparison fails (NaN).
        Self(sse!(_mm_min_ps(
            _mm_max_ps(self.0, _mm_setzero_ps()),
            max.0
        )))
    }
    #[inline(always)]
    fn round_half_away(self) -> Self {
        // `trunc(v + copysign(0.49999997, v))`, the largest float below one half (see
        // `super::super::ALMOST_HALF`).
        Self(sse!({
            let sign = _mm_and_ps(self.0, _mm_set1_ps(-0.0));
            let below_half = _mm_or_ps(sign, _mm_set1_ps(super::super::ALMOST_HALF));
            _mm_round_ps::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(_mm_add_ps(
                self.0, below_half,
            ))
        }))
    }
    #[inline(always)]
    fn trunc_to_i32(self) -> I32x4 {
        I32x4(sse!(_mm_cvttps_epi32(self.0)))
    }
    #[inline(always)]
    fn magnitudes_below_half(self, other: Self) -> bool {
        sse!({
            let half = _mm_set1_ps(0.5);
            let sign = _mm_set1_ps(-0.0);
            let small = _mm_and_ps(
                _mm_cmplt_ps(_mm_andnot_ps(sign, self.0), half),
                _mm_cmplt_ps(_mm_andnot_ps(sign, other.0), half),
            );
            _mm_movemask_ps(small) == 0xf
        })
    }
    #[inline(always)]
    fn permute(self, offsets: I32x4) -> Self {
        // `pshufb`: lane i takes bytes 4 * offset .. 4 * offset + 4.
        Self(sse!({
            let spread = _mm_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12);
            let control = _mm_add_epi32(
                _mm_shuffle_epi8(_mm_slli_epi32::<2>(offsets.0), spread),
                _mm_set1_epi32(0x0302_0100),
            );
            _mm_castsi128_ps(_mm_shuffle_epi8(_mm_castps_si128(self.0), control))
        }))
    }
    #[inline(always)]
    fn interleave(self, other: Self) -> (Self, Self) {
        sse!((
            Self(_mm_unpacklo_ps(self.0, other.0)),
            Self(_mm_unpackhi_ps(self.0, other.0)),
        ))
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut f32) {
        sse!(_mm_storeu_ps(pointer, self.0))
    }
}

binary_ops!(sse, I32x4: Add add _mm_add_epi32,
    Sub sub _mm_sub_epi32,
    Mul mul _mm_mullo_epi32,
    BitAnd bitand _mm_and_si128);

impl I32s<Sse41> for I32x4 {
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        Self(sse!(_mm_min_epi32(self.0, other.0)))
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        Self(sse!(_mm_max_epi32(self.0, other.0)))
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        Self(sse!(_mm_srai_epi32::<N>(self.0)))
    }
    #[inline(always)]
    fn shr_logical<const N: i32>(self) -> Self {
        Self(sse!(_mm_srli_epi32::<N>(self.0)))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Self(sse!(_mm_slli_epi32::<N>(self.0)))
    }
    #[inline(always)]
    fn shr_by(self, count: u32) -> Self {
        Self(sse!(_mm_sra_epi32(self.0, _mm_cvtsi32_si128(count as i32))))
    }
    #[inline(always)]
    fn to_f32(self) -> F32x4 {
        F32x4(sse!(_mm_cvtepi32_ps(self.0)))
    }
    #[inline(always)]
    fn pack_i16_sat(self, high: Self) -> I16x8 {
        I16x8(sse!(_mm_packs_epi32(self.0, high.0)))
    }
    #[inline(always)]
    fn widen_pixels(self) -> (U16x8, U16x8) {
        sse!((
            U16x8(_mm_unpacklo_epi8(self.0, _mm_setzero_si128())),
            U16x8(_mm_unpackhi_epi8(self.0, _mm_setzero_si128())),
        ))
    }
    #[inline(always)]
    fn spread_per_channel(self) -> (U16x8, U16x8) {
        sse!({
            let doubled = _mm_or_si128(self.0, _mm_slli_epi32::<16>(self.0));
            (
                U16x8(_mm_unpacklo_epi32(doubled, doubled)),
                U16x8(_mm_unpackhi_epi32(doubled, doubled)),
            )
        })
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut u32) {
        sse!(_mm_storeu_si128(pointer.cast(), self.0))
    }
}

impl I16s<Sse41> for I16x8 {
    #[inline(always)]
    fn widen_low(self) -> I32x4 {
        I32x4(sse!(_mm_cvtepi16_epi32(self.0)))
    }
    #[inline(always)]
    fn widen_high(self) -> I32x4 {
        I32x4(sse!(_mm_cvtepi16_epi32(_mm_unpackhi_epi64(self.0, self.0))))
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut i16) {
        sse!(_mm_storeu_si128(pointer.cast(), self.0))
    }
}

binary_ops!(sse, U16x8: Add add _mm_add_epi16,
    Sub sub _mm_sub_epi16,
    Mul mul _mm_mullo_epi16);

impl U16s<Sse41> for U16x8 {
    #[inline(always)]
    fn shr_signed<const N: i32>(self) -> Self {
        Self(sse!(_mm_srai_epi16::<N>(self.0)))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Self(sse!(_mm_slli_epi16::<N>(self.0)))
    }
    #[inline(always)]
    fn mul_high(self, other: Self) -> Self {
        Self(sse!(_mm_mulhi_epu16(self.0, other.0)))
    }
    #[inline(always)]
    fn add_sat(self, other: Self) -> Self {
        Self(sse!(_mm_adds_epu16(self.0, other.0)))
    }
    #[inline(always)]
    fn with_alpha(self, alpha: Self) -> Self {
        Self(sse!(_mm_blend_epi16::<0b1000_1000>(self.0, alpha.0)))
    }
    #[inline(always)]
    fn pack_u8(self, high: Self) -> I32x4 {
        I32x4(sse!(_mm_packus_epi16(self.0, high.0)))
    }
}

/// The word at `base[i]` (pixels are `[u8; 4]`, so it may be unaligned).
///
/// # Safety
///
/// `i` must be a valid, non-negative index of the words at `base`.
#[inline(always)]
unsafe fn word(base: *const u32, i: i32) -> i32 {
    // SAFETY: the caller's guarantee.
    unsafe { base.add(i as u32 as usize).read_unaligned() as i32 }
}

/// The two words at `base[i + below]` and the one after it, as one 64-bit value.
///
/// # Safety
///
/// `i + below + 1` must be a valid index of the words at `base`.
#[inline(always)]
unsafe fn pair(base: *const u32, i: i32, below: usize) -> i64 {
    // SAFETY: the caller's guarantee; pixels are `[u8; 4]`, so the pair may be unaligned.
    unsafe {
        base.add(i as u32 as usize + below)
            .cast::<i64>()
            .read_unaligned()
    }
}

/// The left and the right words of the pairs at `lanes[i] + below`, in lane order.
///
/// # Safety
///
/// As [`Isa::gather_pairs`], and the token's instruction set must be there.
#[inline(always)]
unsafe fn corners(base: *const u32, lanes: &[i32; 4], below: usize) -> (I32x4, I32x4) {
    sse!({
        let first = _mm_castsi128_ps(_mm_set_epi64x(
            pair(base, lanes[1], below),
            pair(base, lanes[0], below),
        ));
        let second = _mm_castsi128_ps(_mm_set_epi64x(
            pair(base, lanes[3], below),
            pair(base, lanes[2], below),
        ));
        (
            I32x4(_mm_castps_si128(_mm_shuffle_ps::<0b10_00_10_00>(
                first, second,
            ))),
            I32x4(_mm_castps_si128(_mm_shuffle_ps::<0b11_01_11_01>(
                first, second,
            ))),
        )
    })
}
