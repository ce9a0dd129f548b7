//! The kernels' vector layer: a few small vector types per instruction set, whose methods hold
//! the only per-architecture code of the SIMD kernels.
//!
//! tiny-skia writes each pipeline stage once over its own `f32x8`; we do the same, with one
//! difference forced by run-time dispatch: a binary built for any x86-64 picks SSE4.1 or AVX2
//! when it starts, so the vector width is not a compile-time choice. An instruction set is
//! therefore a *token* type implementing [`Isa`] ([`sse41::Sse41`], [`avx2::Avx2`],
//! [`neon::Neon`], [`simd128::Simd128`]), whose associated types are its vectors
//! (`Isa::F32`, `Isa::I32`, ...), and a kernel is a generic function over `S: Isa`, written
//! once and compiled once per token inside a `#[target_feature]` entry point ([`dispatch`]).
//! Every method is `#[inline(always)]`, so once the entry point's body is inlined the
//! intrinsics land in a function compiled for the instruction set, and the code is the
//! hand-written kernels' (see the benchmarks in `benches/kernels.rs`).
//!
//! A token is only made by its set's `run` (an `unsafe fn` whose caller has detected the set),
//! and a vector only from a token or from other vectors, so holding a vector proves the CPU runs
//! its instructions: that is what makes the methods safe to call, and why `unsafe` stays inside
//! the files of this folder (and the kernels' raw loads and stores).
//!
//! The methods are written once for all the sets, as a table (`table.rs`): a row per operation
//! with each set's instructions side by side, which each set's file instantiates with
//! `vector_layer!`; the files hold what a set has of its own (its notes, its gathers' helpers).
//!
//! The types are named by what the kernels need, not by a fixed width: `F32`/`I32` hold
//! [`Isa::LANES`] 32-bit lanes (4 on 128-bit sets, 8 on AVX2), `I16` twice as many 16-bit
//! cells (the classic solver's heights), and `U16` the channels of the pixels of half an `I32`
//! of pixels, widened to 16 bits for the fixed-point blends (see [`I32s::widen_pixels`]). Each
//! method documents the exact result, NaN and saturation included, because the kernels over
//! them must equal the scalar reference bit for bit: e.g. [`F32s::clamp_position`] sends NaN
//! to 0 on every set, with `maxps`/`minps` on x86, a compare and select on NEON and
//! `pmax`/`pmin` in WebAssembly. The scalar backend runs the reference itself
//! (`kernels/scalar.rs`, `natural.rs`), which is also the fallback of every other target.

use std::ops::{Add, BitAnd, Div, Mul, Sub};

use super::Backend;

/// The table of the operations on every set (`vector_layer!`), which each set's file
/// instantiates.
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
#[macro_use]
mod table;

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod simd128;
#[cfg(target_arch = "x86_64")]
pub(crate) mod sse41;

/// An instruction set, as a token that proves the CPU has it, and its vector types.
pub(crate) trait Isa: Copy {
    /// Lanes of [`Isa::F32`] and [`Isa::I32`].
    const LANES: usize;
    /// Whether [`I32s::stream`] stores around the caches (AVX2); elsewhere it is a store.
    const STREAMS: bool = false;
    /// Whether the upsampling takes its scale-2 path, blends interleaved with
    /// [`F32s::interleave`], rather than a [`F32s::permute`] per vector: measured worth it in
    /// WebAssembly only, where a permutation is an `i8x16.swizzle`.
    const UPSAMPLE_BY_TWO: bool = false;
    /// `LANES` `f32`.
    type F32: F32s<Self>;
    /// `LANES` `i32` (also pixels, one per lane, and `u32` words).
    type I32: I32s<Self>;
    /// `2 * LANES` `i16`.
    type I16: I16s<Self>;
    /// `2 * LANES` `u16`: the four channels of `LANES / 2` pixels.
    type U16: U16s<Self>;

    /// Every lane `value`.
    fn f32(self, value: f32) -> Self::F32;
    /// Every lane `value`.
    fn i32(self, value: i32) -> Self::I32;
    /// Every lane `value`.
    fn u16(self, value: u16) -> Self::U16;
    /// Lane numbers `0, 1, 2, ...`.
    fn lanes(self) -> Self::I32;

    /// `LANES` values at `pointer` (no alignment needed).
    ///
    /// # Safety
    ///
    /// `LANES` values must be readable at `pointer`.
    unsafe fn load_f32(self, pointer: *const f32) -> Self::F32;
    /// `LANES` 32-bit words at `pointer` (no alignment needed).
    ///
    /// # Safety
    ///
    /// `LANES` words must be readable at `pointer`.
    unsafe fn load_u32(self, pointer: *const u32) -> Self::I32;
    /// `2 * LANES` cells at `pointer` (no alignment needed).
    ///
    /// # Safety
    ///
    /// `2 * LANES` cells must be readable at `pointer`.
    unsafe fn load_i16(self, pointer: *const i16) -> Self::I16;
    /// `LANES` cells at `pointer`, sign-extended to 32 bits.
    ///
    /// # Safety
    ///
    /// `LANES` cells must be readable at `pointer`.
    unsafe fn load_i16_as_i32(self, pointer: *const i16) -> Self::I32;
    /// The words `base[index[i]]` (a gather where the set has one, loads into lanes elsewhere).
    ///
    /// # Safety
    ///
    /// Every lane of `index` must be a valid, non-negative index of the words at `base`.
    unsafe fn gather(self, base: *const u32, index: Self::I32) -> Self::I32;
    /// The pairs of words at `top[i]` and `top[i] + 1`, and the same `below` words further:
    /// `(left, right, left_below, right_below)`, each in lane order.
    ///
    /// # Safety
    ///
    /// `top[i] + below + 1` must be a valid index of the words at `base` in every lane, and so
    /// must `top[i] + 1`.
    unsafe fn gather_pairs(
        self,
        base: *const u32,
        top: Self::I32,
        below: usize,
    ) -> (Self::I32, Self::I32, Self::I32, Self::I32);
    /// Orders the streaming stores ([`I32s::stream`]) before any later store.
    #[inline(always)]
    fn fence_streams(self) {}
}

/// `LANES` `f32` lanes.
pub(crate) trait F32s<S: Isa>:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// The square root of every lane (exactly rounded on every set).
    fn sqrt(self) -> Self;
    /// `clamp(v, 0, max)` with NaN sent to 0: `v > 0 ? v : 0`, then `v < max ? v : max`, the
    /// reference's `clamp_position` (a failed comparison picks the bound; -0 becomes +0).
    fn clamp_position(self, max: Self) -> Self;
    /// `f32::round` (halves away from zero) for a value added to a whole coordinate: equal to
    /// it but for the sign of some zeros, which no such sum sees; infinities and NaN pass.
    fn round_half_away(self) -> Self;
    /// `v as i32` for every lane in `i32`'s range (truncation).
    fn trunc_to_i32(self) -> S::I32;
    /// [`F32s::trunc_to_i32`] of whole numbers in `0..2^23`, where a set has a quicker way.
    #[inline(always)]
    fn whole_to_i32(self) -> S::I32 {
        self.trunc_to_i32()
    }
    /// Whether every lane of `self` and of `other` is below one half in size (NaN is not).
    fn magnitudes_below_half(self, other: Self) -> bool;
    /// Lane `i` of the result is lane `offsets[i]` of `self` (`offsets` in `0..LANES`).
    fn permute(self, offsets: S::I32) -> Self;
    /// The lanes of `self` and `other` interleaved, `(a0, b0, a1, b1, ...)`, in two vectors.
    fn interleave(self, other: Self) -> (Self, Self);
    /// Stores the lanes at `pointer` (no alignment needed).
    ///
    /// # Safety
    ///
    /// `LANES` values must be writable at `pointer`.
    unsafe fn store(self, pointer: *mut f32);
}

/// `LANES` `i32` lanes; `*` is the low 32 bits of the product, `+`, `-` wrap.
pub(crate) trait I32s<S: Isa>:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + BitAnd<Output = Self>
{
    /// The smaller of each pair of lanes.
    fn min(self, other: Self) -> Self;
    /// The larger of each pair of lanes.
    fn max(self, other: Self) -> Self;
    /// Arithmetic shift right by `N` (1 to 31).
    fn shr<const N: i32>(self) -> Self;
    /// Logical shift right by `N` (1 to 31).
    fn shr_logical<const N: i32>(self) -> Self;
    /// Shift left by `N` (1 to 31).
    fn shl<const N: i32>(self) -> Self;
    /// Arithmetic shift right by `count`; counts from 32 fill every bit with the sign (as
    /// x86's `psrad` does; NEON and simd128 clamp the count to 31).
    fn shr_by(self, count: u32) -> Self;
    /// Every lane converted to `f32` (exact below 2^24).
    fn to_f32(self) -> S::F32;
    /// `self`'s lanes then `high`'s, each saturated to `i16`.
    fn pack_i16_sat(self, high: Self) -> S::I16;
    /// The bytes of the pixels (one per lane), zero-extended to `u16`: `(low, high)` hold the
    /// two halves of the pixels, in the order of [`I32s::spread_per_channel`] and undone by
    /// [`U16s::pack_u8`].
    fn widen_pixels(self) -> (S::U16, S::U16);
    /// A per-pixel value (below 2^16) repeated over the pixel's four `u16` channels, in the
    /// order of [`I32s::widen_pixels`].
    fn spread_per_channel(self) -> (S::U16, S::U16);
    /// Stores the lanes at `pointer` (no alignment needed).
    ///
    /// # Safety
    ///
    /// `LANES` words must be writable at `pointer`.
    unsafe fn store(self, pointer: *mut u32);
    /// Stores the lanes at `pointer` around the caches where the set can (AVX2), and like
    /// [`I32s::store`] elsewhere; [`Isa::fence_streams`] orders them.
    ///
    /// # Safety
    ///
    /// `LANES` words must be writable at `pointer`, which must be aligned to the vector's size.
    #[inline(always)]
    unsafe fn stream(self, pointer: *mut u32) {
        // SAFETY: the caller's guarantee covers an ordinary store.
        unsafe { self.store(pointer) }
    }
}

/// `2 * LANES` `i16` lanes.
pub(crate) trait I16s<S: Isa>: Copy {
    /// The first `LANES` cells, sign-extended.
    fn widen_low(self) -> S::I32;
    /// The last `LANES` cells, sign-extended.
    fn widen_high(self) -> S::I32;
    /// Stores the cells at `pointer` (no alignment needed).
    ///
    /// # Safety
    ///
    /// `2 * LANES` cells must be writable at `pointer`.
    unsafe fn store(self, pointer: *mut i16);
}

/// `2 * LANES` 16-bit lanes; `+`, `-` and `*` (low 16 bits) wrap, as on `i16` or `u16`.
pub(crate) trait U16s<S: Isa>:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
    /// Arithmetic (signed) shift right by `N`.
    fn shr_signed<const N: i32>(self) -> Self;
    /// Shift left by `N`.
    fn shl<const N: i32>(self) -> Self;
    /// The high 16 bits of the unsigned products.
    fn mul_high(self, other: Self) -> Self;
    /// Unsigned saturating addition.
    fn add_sat(self, other: Self) -> Self;
    /// `self` with every pixel's channel 3 (alpha) taken from `alpha`.
    fn with_alpha(self, alpha: Self) -> Self;
    /// The pixels of [`I32s::widen_pixels`]' `(self, high)` back in bytes, each lane (which
    /// must be in `0..2^15`) saturated to 255.
    fn pack_u8(self, high: Self) -> S::I32;
}

/// The word at `base[i]`, for the gathers of the sets without one (pixels are `[u8; 4]`, so
/// it may be unaligned).
///
/// # Safety
///
/// `i` must be a valid, non-negative index of the words at `base`.
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
#[inline(always)]
unsafe fn word(base: *const u32, i: i32) -> u32 {
    // SAFETY: the caller's guarantee.
    unsafe { base.add(i as u32 as usize).read_unaligned() }
}

/// The word at `base[i + below]` and the one after it, as one 64-bit value (the first in the
/// low half): a pair of corners for [`Isa::gather_pairs`].
///
/// # Safety
///
/// `i + below + 1` must be a valid index of the words at `base`.
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
#[inline(always)]
unsafe fn pair(base: *const u32, i: i32, below: usize) -> u64 {
    // SAFETY: the caller's guarantee; pixels are `[u8; 4]`, so the pair may be unaligned.
    unsafe {
        base.add(i as u32 as usize + below)
            .cast::<u64>()
            .read_unaligned()
    }
}

/// `a + (((b - a) * w) >> 7)` in 16-bit lanes: the fixed-point blend of the lit look and the
/// natural look's floor (|b - a| <= 255 and w <= 128 keep every product inside `i16`).
#[inline(always)]
pub(crate) fn lerp7<S: Isa>(a: S::U16, b: S::U16, weight: S::U16) -> S::U16 {
    a + ((b - a) * weight).shr_signed::<7>()
}

/// The corners `[p00, p10, p01, p11]` blended along x by `wx`, then along y by `wy` (7-bit
/// weights, see [`lerp7`]): the bilinear sample of the lit look and the natural look's floor.
#[inline(always)]
pub(crate) fn bilinear<S: Isa>(corners: [S::U16; 4], wx: S::U16, wy: S::U16) -> S::U16 {
    let [p00, p10, p01, p11] = corners;
    lerp7::<S>(lerp7::<S>(p00, p10, wx), lerp7::<S>(p01, p11, wx), wy)
}

/// A kernel written once: its scalar reference and its body over any [`Isa`].
pub(crate) trait Kernel: Sized {
    /// What the kernel returns.
    type Output;
    /// The reference.
    fn scalar(self) -> Self::Output;
    /// The body over `S`'s vectors.
    fn simd<S: Isa>(self, isa: S) -> Self::Output;
}

/// Runs `kernel` with `backend`'s vectors, or the reference where `backend` is the scalar one
/// or not available. [`Backend::Avx512`] runs the AVX2 vectors (its `is_available` checks AVX2
/// too): see the module docs of `kernels`.
#[inline(always)]
pub(crate) fn dispatch<K: Kernel>(backend: Backend, kernel: K) -> K::Output {
    match backend {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx2` and `Backend::Avx512` are only taken once `is_available`
        // confirmed AVX2 on this CPU.
        Backend::Avx2 | Backend::Avx512 if backend.is_available() => unsafe { avx2::run(kernel) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, for SSE4.1.
        Backend::Sse41 if backend.is_available() => unsafe { sse41::run(kernel) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, for NEON.
        Backend::Neon if backend.is_available() => unsafe { neon::run(kernel) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Backend::Simd128 => simd128::run(kernel),
        _ => kernel.scalar(),
    }
}
