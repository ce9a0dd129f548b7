//! The vector layer on AVX2: 8 lanes of 32 bits in each `__m256i`/`__m256`.
//!
//! Gathers are `vpgatherdd`, except the natural look's pairs of corners, which are loaded one
//! by one (see [`Isa::gather_pairs`]). Most AVX2 instructions work within each 128-bit half,
//! so the pixel blends keep pixels 0, 1 | 4, 5 in one vector and 2, 3 | 6, 7 in the other, and
//! `packus` puts them back in order; the narrowing of the classic step crosses the halves with
//! one permute.

use std::arch::x86_64::*;

use super::{F32s, I16s, I32s, Isa, Kernel, U16s};

/// The token of AVX2.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

/// Runs `kernel` over AVX2's vectors.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn run<K: Kernel>(kernel: K) -> K::Output {
    kernel.simd(Avx2(()))
}

/// Calls intrinsics on values of this file's types.
macro_rules! avx {
    ($body:expr) => {
        // SAFETY: a value of this file's types is only made from an `Avx2` token or other
        // such values, and the token only by `run`, whose caller guarantees AVX2.
        unsafe { $body }
    };
}

/// 8 `f32`.
#[derive(Clone, Copy)]
pub(crate) struct F32x8(__m256);
/// 8 `i32`.
#[derive(Clone, Copy)]
pub(crate) struct I32x8(__m256i);
/// 16 `i16`.
#[derive(Clone, Copy)]
pub(crate) struct I16x16(__m256i);
/// 16 `u16`.
#[derive(Clone, Copy)]
pub(crate) struct U16x16(__m256i);

impl Isa for Avx2 {
    const LANES: usize = 8;
    const STREAMS: bool = true;
    type F32 = F32x8;
    type I32 = I32x8;
    type I16 = I16x16;
    type U16 = U16x16;

    #[inline(always)]
    fn f32(self, value: f32) -> F32x8 {
        F32x8(avx!(_mm256_set1_ps(value)))
    }
    #[inline(always)]
    fn i32(self, value: i32) -> I32x8 {
        I32x8(avx!(_mm256_set1_epi32(value)))
    }
    #[inline(always)]
    fn u16(self, value: u16) -> U16x16 {
        U16x16(avx!(_mm256_set1_epi16(value as i16)))
    }
    #[inline(always)]
    fn lanes(self) -> I32x8 {
        I32x8(avx!(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)))
    }
    #[inline(always)]
    unsafe fn load_f32(self, pointer: *const f32) -> F32x8 {
        F32x8(avx!(_mm256_loadu_ps(pointer)))
    }
    #[inline(always)]
    unsafe fn load_u32(self, pointer: *const u32) -> I32x8 {
        I32x8(avx!(_mm256_loadu_si256(pointer.cast())))
    }
    #[inline(always)]
    unsafe fn load_i16(self, pointer: *const i16) -> I16x16 {
        I16x16(avx!(_mm256_loadu_si256(pointer.cast())))
    }
    #[inline(always)]
    unsafe fn load_i16_as_i32(self, pointer: *const i16) -> I32x8 {
        I32x8(avx!(_mm256_cvtepi16_epi32(_mm_loadu_si128(pointer.cast()))))
    }
    #[inline(always)]
    unsafe fn gather(self, base: *const u32, index: I32x8) -> I32x8 {
        // The caller guarantees every lane is a valid index.
        I32x8(avx!(_mm256_i32gather_epi32::<4>(base.cast(), index.0)))
    }
    #[inline(always)]
    unsafe fn gather_pairs(
        self,
        base: *const u32,
        top: I32x8,
        below: usize,
    ) -> (I32x8, I32x8, I32x8, I32x8) {
        // Loaded one by one rather than gathered: on the AMD EPYC (Zen 4) this was measured
        // on, two `vpgatherdq` per row took the natural look's sampler from 5.0 to 6.3 ns per
        // pixel (one thread, calm 1920x1080 frames), and four `vpgatherdd` were slower still.
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` holds eight i32; `storeu` needs no alignment.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), top.0) };
        // Pairs of pixels 0, 1 | 4, 5 and 2, 3 | 6, 7: `shuffle_ps` then puts the left and
        // the right words in lane order.
        // SAFETY: the caller's guarantee, for both rows.
        let (left, right) = unsafe { corners(base, &lanes, 0) };
        let (left_below, right_below) = unsafe { corners(base, &lanes, below) };
        (left, right, left_below, right_below)
    }
    #[inline(always)]
    fn fence_streams(self) {
        avx!(_mm_sfence())
    }
}

binary_ops!(avx, F32x8: Add add _mm256_add_ps,
    Sub sub _mm256_sub_ps,
    Mul mul _mm256_mul_ps,
    Div div _mm256_div_ps);

impl F32s<Avx2> for F32x8 {
    #[inline(always)]
    fn sqrt(self) -> Self {
        Self(avx!(_mm256_sqrt_ps(self.0)))
    }
    #[inline(always)]
    fn clamp_position(self, max: Self) -> Self {
        // `maxps` returns its second operand when the comparison fails (NaN).
        Self(avx!(_mm256_min_ps(
            _mm256_max_ps(self.0, _mm256_setzero_ps()),
            max.0
        )))
    }
    #[inline(always)]
    fn round_half_away(self) -> Self {
        // `trunc(v + copysign(0.49999997, v))`, the largest float below one half (see
        // `super::super::ALMOST_HALF`).
        Self(avx!({
            let sign = _mm256_and_ps(self.0, _mm256_set1_ps(-0.0));
            let below_half = _mm256_or_ps(sign, _mm256_set1_ps(super::super::ALMOST_HALF));
            _mm256_round_ps::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(_mm256_add_ps(
                self.0, below_half,
            ))
        }))
    }
    #[inline(always)]
    fn trunc_to_i32(self) -> I32x8 {
        I32x8(avx!(_mm256_cvttps_epi32(self.0)))
    }
    #[inline(always)]
    fn magnitudes_below_half(self, other: Self) -> bool {
        avx!({
            let half = _mm256_set1_ps(0.5);
            let sign = _mm256_set1_ps(-0.0);
            let small = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_LT_OQ>(_mm256_andnot_ps(sign, self.0), half),
                _mm256_cmp_ps::<_CMP_LT_OQ>(_mm256_andnot_ps(sign, other.0), half),
            );
            _mm256_movemask_ps(small) == 0xff
        })
    }
    #[inline(always)]
    fn permute(self, offsets: I32x8) -> Self {
        // `vpermps` uses the low 3 bits of each offset.
        Self(avx!(_mm256_permutevar8x32_ps(self.0, offsets.0)))
    }
    #[inline(always)]
    fn interleave(self, other: Self) -> (Self, Self) {
        avx!((
            Self(_mm256_permute2f128_ps::<0x20>(
                _mm256_unpacklo_ps(self.0, other.0),
                _mm256_unpackhi_ps(self.0, other.0),
            )),
            Self(_mm256_permute2f128_ps::<0x31>(
                _mm256_unpacklo_ps(self.0, other.0),
                _mm256_unpackhi_ps(self.0, other.0),
            )),
        ))
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut f32) {
        avx!(_mm256_storeu_ps(pointer, self.0))
    }
}

binary_ops!(avx, I32x8: Add add _mm256_add_epi32,
    Sub sub _mm256_sub_epi32,
    Mul mul _mm256_mullo_epi32,
    BitAnd bitand _mm256_and_si256);

impl I32s<Avx2> for I32x8 {
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        Self(avx!(_mm256_min_epi32(self.0, other.0)))
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        Self(avx!(_mm256_max_epi32(self.0, other.0)))
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        Self(avx!(_mm256_srai_epi32::<N>(self.0)))
    }
    #[inline(always)]
    fn shr_logical<const N: i32>(self) -> Self {
        Self(avx!(_mm256_srli_epi32::<N>(self.0)))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Self(avx!(_mm256_slli_epi32::<N>(self.0)))
    }
    #[inline(always)]
    fn shr_by(self, count: u32) -> Self {
        Self(avx!(_mm256_sra_epi32(
            self.0,
            _mm_cvtsi32_si128(count as i32)
        )))
    }
    #[inline(always)]
    fn to_f32(self) -> F32x8 {
        F32x8(avx!(_mm256_cvtepi32_ps(self.0)))
    }
    #[inline(always)]
    fn pack_i16_sat(self, high: Self) -> I16x16 {
        // `packs` interleaves the 128-bit halves; the permute puts the 16 cells back in order.
        I16x16(avx!(_mm256_permute4x64_epi64::<0b11_01_10_00>(
            _mm256_packs_epi32(self.0, high.0)
        )))
    }
    #[inline(always)]
    fn widen_pixels(self) -> (U16x16, U16x16) {
        avx!((
            U16x16(_mm256_unpacklo_epi8(self.0, _mm256_setzero_si256())),
            U16x16(_mm256_unpackhi_epi8(self.0, _mm256_setzero_si256())),
        ))
    }
    #[inline(always)]
    fn spread_per_channel(self) -> (U16x16, U16x16) {
        avx!({
            let doubled = _mm256_or_si256(self.0, _mm256_slli_epi32::<16>(self.0));
            (
                U16x16(_mm256_unpacklo_epi32(doubled, doubled)),
                U16x16(_mm256_unpackhi_epi32(doubled, doubled)),
            )
        })
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut u32) {
        avx!(_mm256_storeu_si256(pointer.cast(), self.0))
    }
    #[inline(always)]
    unsafe fn stream(self, pointer: *mut u32) {
        // The caller guarantees a 32-byte aligned `pointer`.
        avx!(_mm256_stream_si256(pointer.cast(), self.0))
    }
}

impl I16s<Avx2> for I16x16 {
    #[inline(always)]
    fn widen_low(self) -> I32x8 {
        I32x8(avx!(_mm256_cvtepi16_epi32(_mm256_castsi256_si128(self.0))))
    }
    #[inline(always)]
    fn widen_high(self) -> I32x8 {
        I32x8(avx!(_mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(
            self.0
        ))))
    }
    #[inline(always)]
    unsafe fn store(self, pointer: *mut i16) {
        avx!(_mm256_storeu_si256(pointer.cast(), self.0))
    }
}

binary_ops!(avx, U16x16: Add add _mm256_add_epi16,
    Sub sub _mm256_sub_epi16,
    Mul mul _mm256_mullo_epi16);

impl U16s<Avx2> for U16x16 {
    #[inline(always)]
    fn shr_signed<const N: i32>(self) -> Self {
        Self(avx!(_mm256_srai_epi16::<N>(self.0)))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Self(avx!(_mm256_slli_epi16::<N>(self.0)))
    }
    #[inline(always)]
    fn mul_high(self, other: Self) -> Self {
        Self(avx!(_mm256_mulhi_epu16(self.0, other.0)))
    }
    #[inline(always)]
    fn add_sat(self, other: Self) -> Self {
        Self(avx!(_mm256_adds_epu16(self.0, other.0)))
    }
    #[inline(always)]
    fn with_alpha(self, alpha: Self) -> Self {
        Self(avx!(_mm256_blend_epi16::<0b1000_1000>(self.0, alpha.0)))
    }
    #[inline(always)]
    fn pack_u8(self, high: Self) -> I32x8 {
        I32x8(avx!(_mm256_packus_epi16(self.0, high.0)))
    }
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
unsafe fn corners(base: *const u32, lanes: &[i32; 8], below: usize) -> (I32x8, I32x8) {
    avx!({
        let first = _mm256_castsi256_ps(_mm256_set_epi64x(
            pair(base, lanes[5], below),
            pair(base, lanes[4], below),
            pair(base, lanes[1], below),
            pair(base, lanes[0], below),
        ));
        let second = _mm256_castsi256_ps(_mm256_set_epi64x(
            pair(base, lanes[7], below),
            pair(base, lanes[6], below),
            pair(base, lanes[3], below),
            pair(base, lanes[2], below),
        ));
        (
            I32x8(_mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(
                first, second,
            ))),
            I32x8(_mm256_castps_si256(_mm256_shuffle_ps::<0b11_01_11_01>(
                first, second,
            ))),
        )
    })
}
