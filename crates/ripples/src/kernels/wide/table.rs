//! The vector layer's operations, each written once with its instructions on every set side by
//! side.
//!
//! A row of the table is one method of [`Isa`](super::Isa), [`F32s`](super::F32s),
//! [`I32s`](super::I32s), [`I16s`](super::I16s) or [`U16s`](super::U16s), or an operator, with a
//! cell per instruction set: `{ sse41: .., avx2: .., neon: .., simd128: .. }` (or `{ all: .. }`
//! where every set runs the same code, e.g. a helper of its own file). A cell is an expression over
//! the raw registers, named in the row's signature (`fn min(a, b)`: `a` is `self.0`, `b` is
//! `other.0`); the table wraps its result in the method's vector type.
//!
//! Why a table rather than a file per set, each implementing every trait: the sets differ in
//! their instructions, not in the shape of the code around them, so the files were the same
//! forty methods four times over, and a fix to one (a NaN rule, a saturation) was four edits far
//! apart. A row shows what each set does for one operation, where a reader compares them and
//! where the bit-exactness against the scalar reference is argued (the traits' docs state the
//! exact results). What each set has of its own, its gathers and their helpers and the notes on
//! its instructions, stays in its file, which instantiates the table with
//! `vector_layer!(sse41)` (or `avx2`, `neon`, `simd128`).
//!
//! Every generated method is `#[inline(always)]`: once a kernel's `#[target_feature]` entry
//! point (the generated `run`) is inlined into, the intrinsics land in a function compiled for
//! the set, as they did in the hand-written files.
//!
//! Safety: every cell runs in one `unsafe` block. A vector of a set's types is only made from the
//! set's token or from other such vectors, and the token only by `run`, whose caller guarantees
//! the instruction set; the pointer arguments of the `unsafe fn` rows are the callers'
//! guarantees, stated on the traits. WebAssembly's intrinsics are mostly safe functions and a set
//! with nothing to do for a row (a fence outside AVX2) leaves the block empty, hence
//! `allow(unused_unsafe)` on the generated methods.

/// Instantiates the vector layer for one instruction set: `vector_layer!(sse41)`. See the
/// module docs; the rows are in the `@isa`, `@f32`, `@i32`, `@i16`, `@u16` and `@ops` arms.
macro_rules! vector_layer {
    // The sets: the column, the token, the vector types and their registers.
    (sse41) => {
        vector_layer!(@set sse41, Sse41, "SSE4.1", (unsafe), target_feature(enable = "sse4.1"),
            { F32 F32x4 __m128, I32 I32x4 __m128i, I16 I16x8 __m128i, U16 U16x8 __m128i });
    };
    (avx2) => {
        vector_layer!(@set avx2, Avx2, "AVX2", (unsafe), target_feature(enable = "avx2"),
            { F32 F32x8 __m256, I32 I32x8 __m256i, I16 I16x16 __m256i, U16 U16x16 __m256i });
    };
    (neon) => {
        vector_layer!(@set neon, Neon, "NEON", (unsafe), target_feature(enable = "neon"),
            { F32 F32x4 float32x4_t, I32 I32x4 int32x4_t, I16 I16x8 int16x8_t,
              U16 U16x8 uint16x8_t });
    };
    (simd128) => {
        // A wasm module cannot detect features at run time: simd128 is there if this is
        // compiled (see simd128.rs), so its `run` is safe and needs no `target_feature`.
        vector_layer!(@set simd128, Simd128, "WebAssembly SIMD", (), inline(always),
            { F32 F32x4 v128, I32 I32x4 v128, I16 I16x8 v128, U16 U16x8 v128 });
    };

    (@set $col:ident, $token:ident, $name:literal, ($($unsafety:tt)?), $entry:meta,
        { F32 $f32:ident $f32r:ty, I32 $i32:ident $i32r:ty, I16 $i16:ident $i16r:ty,
          U16 $u16:ident $u16r:ty }) => {
        #[doc = concat!("The token of ", $name, ".")]
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $token(());

        #[doc = concat!("Runs `kernel` over ", $name, "'s vectors.")]
        ///
        /// # Safety
        ///
        /// Where this is an `unsafe fn`, the CPU must support the instruction set.
        #[$entry]
        pub(crate) $($unsafety)? fn run<K: Kernel>(kernel: K) -> K::Output {
            kernel.simd($token(()))
        }

        #[doc = concat!("`LANES` `f32` of ", $name, ".")]
        #[derive(Clone, Copy)]
        pub(crate) struct $f32($f32r);
        #[doc = concat!("`LANES` `i32` of ", $name, ".")]
        #[derive(Clone, Copy)]
        pub(crate) struct $i32($i32r);
        #[doc = concat!("`2 * LANES` `i16` of ", $name, ".")]
        #[derive(Clone, Copy)]
        pub(crate) struct $i16($i16r);
        #[doc = concat!("`2 * LANES` `u16` of ", $name, ".")]
        #[derive(Clone, Copy)]
        pub(crate) struct $u16($u16r);

        vector_layer!(@isa $col, $token, { F32 $f32, I32 $i32, I16 $i16, U16 $u16 });
        vector_layer!(@f32 $col, $token, $f32, { F32 $f32, I32 $i32, I16 $i16, U16 $u16 });
        vector_layer!(@i32 $col, $token, $i32, { F32 $f32, I32 $i32, I16 $i16, U16 $u16 });
        vector_layer!(@i16 $col, $token, $i16, { F32 $f32, I32 $i32, I16 $i16, U16 $u16 });
        vector_layer!(@u16 $col, $token, $u16, { F32 $f32, I32 $i32, I16 $i16, U16 $u16 });
        vector_layer!(@ops $col, { F32 $f32, I32 $i32, I16 $i16, U16 $u16 });
    };

    // ---- The table ----

    (@isa $col:ident, $token:ident, $types:tt) => {
        impl Isa for $token {
            vector_layer!(@rows $col, $types;
                const LANES: usize = { sse41: 4, avx2: 8, neon: 4, simd128: 4 };
                const STREAMS: bool = { sse41: false, avx2: true, neon: false, simd128: false };
                // A permutation is an `i8x16.swizzle` in WebAssembly: measured worth avoiding.
                const UPSAMPLE_BY_TWO: bool =
                    { sse41: false, avx2: false, neon: false, simd128: true };
                type F32; type I32; type I16; type U16;

                fn f32(value: f32) -> F32 {
                    sse41: _mm_set1_ps(value),
                    avx2: _mm256_set1_ps(value),
                    neon: vdupq_n_f32(value),
                    simd128: f32x4_splat(value),
                }
                fn i32(value: i32) -> I32 {
                    sse41: _mm_set1_epi32(value),
                    avx2: _mm256_set1_epi32(value),
                    neon: vdupq_n_s32(value),
                    simd128: i32x4_splat(value),
                }
                fn u16(value: u16) -> U16 {
                    sse41: _mm_set1_epi16(value as i16),
                    avx2: _mm256_set1_epi16(value as i16),
                    neon: vdupq_n_u16(value),
                    simd128: u16x8_splat(value),
                }
                fn lanes() -> I32 {
                    sse41: _mm_setr_epi32(0, 1, 2, 3),
                    avx2: _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                    neon: vld1q_s32([0, 1, 2, 3].as_ptr()),
                    simd128: i32x4(0, 1, 2, 3),
                }
                unsafe fn load_f32(pointer: *const f32) -> F32 {
                    sse41: _mm_loadu_ps(pointer),
                    avx2: _mm256_loadu_ps(pointer),
                    neon: vld1q_f32(pointer),
                    simd128: v128_load(pointer.cast()),
                }
                unsafe fn load_u32(pointer: *const u32) -> I32 {
                    sse41: _mm_loadu_si128(pointer.cast()),
                    avx2: _mm256_loadu_si256(pointer.cast()),
                    neon: vreinterpretq_s32_u32(vld1q_u32(pointer)),
                    simd128: v128_load(pointer.cast()),
                }
                unsafe fn load_i16(pointer: *const i16) -> I16 {
                    sse41: _mm_loadu_si128(pointer.cast()),
                    avx2: _mm256_loadu_si256(pointer.cast()),
                    neon: vld1q_s16(pointer),
                    simd128: v128_load(pointer.cast()),
                }
                unsafe fn load_i16_as_i32(pointer: *const i16) -> I32 {
                    sse41: _mm_cvtepi16_epi32(_mm_loadl_epi64(pointer.cast())),
                    avx2: _mm256_cvtepi16_epi32(_mm_loadu_si128(pointer.cast())),
                    neon: vmovl_s16(vld1_s16(pointer)),
                    simd128: i32x4_load_extend_i16x4(pointer),
                }
                // Each set's file: a gather where the set has one (AVX2), loads into lanes
                // elsewhere.
                unsafe fn gather(base: *const u32, index as I32) -> I32 { all: gather(base, index) }
                // Each set's file: the lanes of `top` as an array, and the corner words of the
                // pairs at those lanes (one by one on every set: see avx2.rs).
                unsafe fn gather_pairs(base: *const u32, top as I32, below: usize)
                    -> (I32, I32, I32, I32)
                {
                    all: {
                        let lanes = lane_array(top);
                        let (left, right) = corners(base, &lanes, 0);
                        let (left_below, right_below) = corners(base, &lanes, below);
                        (left, right, left_below, right_below)
                    }
                }
                fn fence_streams() -> () {
                    sse41: {},
                    avx2: _mm_sfence(),
                    neon: {},
                    simd128: {},
                }
            );
        }
    };

    (@f32 $col:ident, $token:ident, $vector:ident, $types:tt) => {
        impl F32s<$token> for $vector {
            vector_layer!(@rows $col, $types;
                fn sqrt(a) -> Self {
                    sse41: _mm_sqrt_ps(a),
                    avx2: _mm256_sqrt_ps(a),
                    neon: vsqrtq_f32(a),
                    simd128: f32x4_sqrt(a),
                }
                // x86's `maxps` returns its second operand when the comparison fails (NaN);
                // NEON's `fmax` propagates NaN, so there it is a compare and a select, the
                // reference word for word; WebAssembly's `pmax(a, b)` is `a < b ? b : a`.
                fn clamp_position(a, max) -> Self {
                    sse41: _mm_min_ps(_mm_max_ps(a, _mm_setzero_ps()), max),
                    avx2: _mm256_min_ps(_mm256_max_ps(a, _mm256_setzero_ps()), max),
                    neon: {
                        let zero = vdupq_n_f32(0.0);
                        let at_least_zero = vbslq_f32(vcgtq_f32(a, zero), a, zero);
                        vbslq_f32(vcltq_f32(at_least_zero, max), at_least_zero, max)
                    },
                    simd128: f32x4_pmin(max, f32x4_pmax(f32x4_splat(0.0), a)),
                }
                // `trunc(v + copysign(0.49999997, v))`, the largest float below one half (see
                // `kernels::ALMOST_HALF`); NEON's `frinta` rounds halves away from zero itself.
                fn round_half_away(a) -> Self {
                    sse41: {
                        let sign = _mm_and_ps(a, _mm_set1_ps(-0.0));
                        let below_half = _mm_or_ps(sign, _mm_set1_ps(super::super::ALMOST_HALF));
                        _mm_round_ps::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(
                            _mm_add_ps(a, below_half),
                        )
                    },
                    avx2: {
                        let sign = _mm256_and_ps(a, _mm256_set1_ps(-0.0));
                        let below_half =
                            _mm256_or_ps(sign, _mm256_set1_ps(super::super::ALMOST_HALF));
                        _mm256_round_ps::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(
                            _mm256_add_ps(a, below_half),
                        )
                    },
                    neon: vrndaq_f32(a),
                    simd128: {
                        let below_half = v128_or(
                            v128_and(a, f32x4_splat(-0.0)),
                            f32x4_splat(super::super::ALMOST_HALF),
                        );
                        f32x4_trunc(f32x4_add(a, below_half))
                    },
                }
                // NEON's `fcvtzs` truncates and saturates like Rust's `as i32` (NaN to 0).
                fn trunc_to_i32(a) -> I32 {
                    sse41: _mm_cvttps_epi32(a),
                    avx2: _mm256_cvttps_epi32(a),
                    neon: vcvtq_s32_f32(a),
                    simd128: i32x4_trunc_sat_f32x4(a),
                }
                // `i32x4.trunc_sat_f32x4` is about eight instructions on x86, so WebAssembly
                // takes `bits(v + 2^23) - bits(2^23)` for whole numbers in `0..2^23`.
                fn whole_to_i32(a) -> I32 {
                    sse41: _mm_cvttps_epi32(a),
                    avx2: _mm256_cvttps_epi32(a),
                    neon: vcvtq_s32_f32(a),
                    simd128: i32x4_sub(
                        f32x4_add(a, f32x4_splat(8_388_608.0)),
                        u32x4_splat(8_388_608f32.to_bits()),
                    ),
                }
                // NEON's `facgt` compares sizes; a NaN compares false everywhere.
                fn magnitudes_below_half(a, b) -> bool {
                    sse41: {
                        let half = _mm_set1_ps(0.5);
                        let sign = _mm_set1_ps(-0.0);
                        let small = _mm_and_ps(
                            _mm_cmplt_ps(_mm_andnot_ps(sign, a), half),
                            _mm_cmplt_ps(_mm_andnot_ps(sign, b), half),
                        );
                        _mm_movemask_ps(small) == 0xf
                    },
                    avx2: {
                        let half = _mm256_set1_ps(0.5);
                        let sign = _mm256_set1_ps(-0.0);
                        let small = _mm256_and_ps(
                            _mm256_cmp_ps::<_CMP_LT_OQ>(_mm256_andnot_ps(sign, a), half),
                            _mm256_cmp_ps::<_CMP_LT_OQ>(_mm256_andnot_ps(sign, b), half),
                        );
                        _mm256_movemask_ps(small) == 0xff
                    },
                    neon: {
                        let half = vdupq_n_f32(0.5);
                        vminvq_u32(vandq_u32(vcaltq_f32(a, half), vcaltq_f32(b, half)))
                            == u32::MAX
                    },
                    simd128: {
                        let half = f32x4_splat(0.5);
                        i32x4_all_true(v128_and(
                            f32x4_lt(f32x4_abs(a), half),
                            f32x4_lt(f32x4_abs(b), half),
                        ))
                    },
                }
                // Byte shuffles (`pshufb`, `tbl`, `swizzle`): lane i takes bytes
                // 4 * offset .. 4 * offset + 4; AVX2's `vpermps` uses each offset's low 3 bits.
                fn permute(a, offsets as I32) -> Self {
                    sse41: {
                        let spread =
                            _mm_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12);
                        let control = _mm_add_epi32(
                            _mm_shuffle_epi8(_mm_slli_epi32::<2>(offsets), spread),
                            _mm_set1_epi32(0x0302_0100),
                        );
                        _mm_castsi128_ps(_mm_shuffle_epi8(_mm_castps_si128(a), control))
                    },
                    avx2: _mm256_permutevar8x32_ps(a, offsets),
                    neon: {
                        let control = vmlaq_u32(
                            vdupq_n_u32(0x0302_0100),
                            vreinterpretq_u32_s32(offsets),
                            vdupq_n_u32(0x0404_0404),
                        );
                        vreinterpretq_f32_u8(vqtbl1q_u8(
                            vreinterpretq_u8_f32(a),
                            vreinterpretq_u8_u32(control),
                        ))
                    },
                    simd128: {
                        let control = i32x4_add(
                            i32x4_mul(offsets, u32x4_splat(0x0404_0404)),
                            u32x4_splat(0x0302_0100),
                        );
                        i8x16_swizzle(a, control)
                    },
                }
                fn interleave(a, b) -> (Self, Self) {
                    sse41: (_mm_unpacklo_ps(a, b), _mm_unpackhi_ps(a, b)),
                    avx2: (
                        _mm256_permute2f128_ps::<0x20>(
                            _mm256_unpacklo_ps(a, b),
                            _mm256_unpackhi_ps(a, b),
                        ),
                        _mm256_permute2f128_ps::<0x31>(
                            _mm256_unpacklo_ps(a, b),
                            _mm256_unpackhi_ps(a, b),
                        ),
                    ),
                    neon: (vzip1q_f32(a, b), vzip2q_f32(a, b)),
                    simd128: (
                        i32x4_shuffle::<0, 4, 1, 5>(a, b),
                        i32x4_shuffle::<2, 6, 3, 7>(a, b),
                    ),
                }
                unsafe fn store(a, pointer: *mut f32) -> () {
                    sse41: _mm_storeu_ps(pointer, a),
                    avx2: _mm256_storeu_ps(pointer, a),
                    neon: vst1q_f32(pointer, a),
                    simd128: v128_store(pointer.cast(), a),
                }
            );
        }
    };

    (@i32 $col:ident, $token:ident, $vector:ident, $types:tt) => {
        impl I32s<$token> for $vector {
            vector_layer!(@rows $col, $types;
                fn min(a, b) -> Self {
                    sse41: _mm_min_epi32(a, b),
                    avx2: _mm256_min_epi32(a, b),
                    neon: vminq_s32(a, b),
                    simd128: i32x4_min(a, b),
                }
                fn max(a, b) -> Self {
                    sse41: _mm_max_epi32(a, b),
                    avx2: _mm256_max_epi32(a, b),
                    neon: vmaxq_s32(a, b),
                    simd128: i32x4_max(a, b),
                }
                fn shr<N>(a) -> Self {
                    sse41: _mm_srai_epi32::<N>(a),
                    avx2: _mm256_srai_epi32::<N>(a),
                    neon: vshrq_n_s32::<N>(a),
                    simd128: i32x4_shr(a, N as u32),
                }
                fn shr_logical<N>(a) -> Self {
                    sse41: _mm_srli_epi32::<N>(a),
                    avx2: _mm256_srli_epi32::<N>(a),
                    neon: vreinterpretq_s32_u32(vshrq_n_u32::<N>(vreinterpretq_u32_s32(a))),
                    simd128: u32x4_shr(a, N as u32),
                }
                fn shl<N>(a) -> Self {
                    sse41: _mm_slli_epi32::<N>(a),
                    avx2: _mm256_slli_epi32::<N>(a),
                    neon: vshlq_n_s32::<N>(a),
                    simd128: i32x4_shl(a, N as u32),
                }
                // x86's `psrad` fills every bit with the sign from 32 on; NEON's `sshl` by a
                // negative amount is a shift right, and wasm counts modulo 32: both clamp to 31.
                fn shr_by(a, count: u32) -> Self {
                    sse41: _mm_sra_epi32(a, _mm_cvtsi32_si128(count as i32)),
                    avx2: _mm256_sra_epi32(a, _mm_cvtsi32_si128(count as i32)),
                    neon: vshlq_s32(a, vdupq_n_s32(-(count.min(31) as i32))),
                    simd128: i32x4_shr(a, count.min(31)),
                }
                fn to_f32(a) -> F32 {
                    sse41: _mm_cvtepi32_ps(a),
                    avx2: _mm256_cvtepi32_ps(a),
                    neon: vcvtq_f32_s32(a),
                    simd128: f32x4_convert_i32x4(a),
                }
                // AVX2's `packs` interleaves the 128-bit halves; the permute puts the 16 cells
                // back in order.
                fn pack_i16_sat(a, b) -> I16 {
                    sse41: _mm_packs_epi32(a, b),
                    avx2: _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packs_epi32(a, b)),
                    neon: vqmovn_high_s32(vqmovn_s32(a), b),
                    simd128: i16x8_narrow_i32x4(a, b),
                }
                // Most AVX2 instructions work within each 128-bit half, so its halves hold
                // pixels 0, 1 | 4, 5 and 2, 3 | 6, 7, which its `packus` puts back in order.
                fn widen_pixels(a) -> (U16, U16) {
                    sse41: (
                        _mm_unpacklo_epi8(a, _mm_setzero_si128()),
                        _mm_unpackhi_epi8(a, _mm_setzero_si128()),
                    ),
                    avx2: (
                        _mm256_unpacklo_epi8(a, _mm256_setzero_si256()),
                        _mm256_unpackhi_epi8(a, _mm256_setzero_si256()),
                    ),
                    neon: {
                        let bytes = vreinterpretq_u8_s32(a);
                        (vmovl_u8(vget_low_u8(bytes)), vmovl_high_u8(bytes))
                    },
                    simd128: (u16x8_extend_low_u8x16(a), u16x8_extend_high_u8x16(a)),
                }
                fn spread_per_channel(a) -> (U16, U16) {
                    sse41: {
                        let doubled = _mm_or_si128(a, _mm_slli_epi32::<16>(a));
                        (_mm_unpacklo_epi32(doubled, doubled), _mm_unpackhi_epi32(doubled, doubled))
                    },
                    avx2: {
                        let doubled = _mm256_or_si256(a, _mm256_slli_epi32::<16>(a));
                        (
                            _mm256_unpacklo_epi32(doubled, doubled),
                            _mm256_unpackhi_epi32(doubled, doubled),
                        )
                    },
                    neon: {
                        let value = vreinterpretq_u32_s32(a);
                        let doubled = vorrq_u32(value, vshlq_n_u32::<16>(value));
                        (
                            vreinterpretq_u16_u32(vzip1q_u32(doubled, doubled)),
                            vreinterpretq_u16_u32(vzip2q_u32(doubled, doubled)),
                        )
                    },
                    simd128: {
                        let doubled = v128_or(a, i32x4_shl(a, 16));
                        (
                            i32x4_shuffle::<0, 0, 1, 1>(doubled, doubled),
                            i32x4_shuffle::<2, 2, 3, 3>(doubled, doubled),
                        )
                    },
                }
                unsafe fn store(a, pointer: *mut u32) -> () {
                    sse41: _mm_storeu_si128(pointer.cast(), a),
                    avx2: _mm256_storeu_si256(pointer.cast(), a),
                    neon: vst1q_u32(pointer, vreinterpretq_u32_s32(a)),
                    simd128: v128_store(pointer.cast(), a),
                }
                // Around the caches on AVX2 (the caller guarantees a 32-byte aligned
                // `pointer`); an ordinary store elsewhere.
                unsafe fn stream(a, pointer: *mut u32) -> () {
                    sse41: _mm_storeu_si128(pointer.cast(), a),
                    avx2: _mm256_stream_si256(pointer.cast(), a),
                    neon: vst1q_u32(pointer, vreinterpretq_u32_s32(a)),
                    simd128: v128_store(pointer.cast(), a),
                }
            );
        }
    };

    (@i16 $col:ident, $token:ident, $vector:ident, $types:tt) => {
        impl I16s<$token> for $vector {
            vector_layer!(@rows $col, $types;
                fn widen_low(a) -> I32 {
                    sse41: _mm_cvtepi16_epi32(a),
                    avx2: _mm256_cvtepi16_epi32(_mm256_castsi256_si128(a)),
                    neon: vmovl_s16(vget_low_s16(a)),
                    simd128: i32x4_extend_low_i16x8(a),
                }
                fn widen_high(a) -> I32 {
                    sse41: _mm_cvtepi16_epi32(_mm_unpackhi_epi64(a, a)),
                    avx2: _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(a)),
                    neon: vmovl_high_s16(a),
                    simd128: i32x4_extend_high_i16x8(a),
                }
                unsafe fn store(a, pointer: *mut i16) -> () {
                    sse41: _mm_storeu_si128(pointer.cast(), a),
                    avx2: _mm256_storeu_si256(pointer.cast(), a),
                    neon: vst1q_s16(pointer, a),
                    simd128: v128_store(pointer.cast(), a),
                }
            );
        }
    };

    (@u16 $col:ident, $token:ident, $vector:ident, $types:tt) => {
        impl U16s<$token> for $vector {
            vector_layer!(@rows $col, $types;
                fn shr_signed<N>(a) -> Self {
                    sse41: _mm_srai_epi16::<N>(a),
                    avx2: _mm256_srai_epi16::<N>(a),
                    neon: vreinterpretq_u16_s16(vshrq_n_s16::<N>(vreinterpretq_s16_u16(a))),
                    simd128: i16x8_shr(a, N as u32),
                }
                fn shl<N>(a) -> Self {
                    sse41: _mm_slli_epi16::<N>(a),
                    avx2: _mm256_slli_epi16::<N>(a),
                    neon: vshlq_n_u16::<N>(a),
                    simd128: i16x8_shl(a, N as u32),
                }
                // NEON and WebAssembly: a widening multiply and the odd halves.
                fn mul_high(a, b) -> Self {
                    sse41: _mm_mulhi_epu16(a, b),
                    avx2: _mm256_mulhi_epu16(a, b),
                    neon: {
                        let low = vmull_u16(vget_low_u16(a), vget_low_u16(b));
                        let high = vmull_high_u16(a, b);
                        vuzp2q_u16(vreinterpretq_u16_u32(low), vreinterpretq_u16_u32(high))
                    },
                    simd128: {
                        let low = u32x4_extmul_low_u16x8(a, b);
                        let high = u32x4_extmul_high_u16x8(a, b);
                        i16x8_shuffle::<1, 3, 5, 7, 9, 11, 13, 15>(low, high)
                    },
                }
                fn add_sat(a, b) -> Self {
                    sse41: _mm_adds_epu16(a, b),
                    avx2: _mm256_adds_epu16(a, b),
                    neon: vqaddq_u16(a, b),
                    simd128: u16x8_add_sat(a, b),
                }
                // The alpha channel: 16-bit lanes 3 and 7 (of each 128 bits).
                fn with_alpha(a, alpha) -> Self {
                    sse41: _mm_blend_epi16::<0b1000_1000>(a, alpha),
                    avx2: _mm256_blend_epi16::<0b1000_1000>(a, alpha),
                    neon: vbslq_u16(
                        vreinterpretq_u16_u64(vdupq_n_u64(0xffff_0000_0000_0000)),
                        alpha,
                        a,
                    ),
                    simd128: v128_bitselect(alpha, a, u64x2_splat(0xffff_0000_0000_0000)),
                }
                fn pack_u8(a, b) -> I32 {
                    sse41: _mm_packus_epi16(a, b),
                    avx2: _mm256_packus_epi16(a, b),
                    neon: vreinterpretq_s32_u8(vqmovn_high_u16(vqmovn_u16(a), b)),
                    simd128: u8x16_narrow_i16x8(a, b),
                }
            );
        }
    };

    (@ops $col:ident, $types:tt) => {
        vector_layer!(@rows $col, $types;
            // operator                  sse41,           avx2,               neon,       simd128
            impl Add(add) for F32:       _mm_add_ps,      _mm256_add_ps,      vaddq_f32,  f32x4_add;
            impl Sub(sub) for F32:       _mm_sub_ps,      _mm256_sub_ps,      vsubq_f32,  f32x4_sub;
            impl Mul(mul) for F32:       _mm_mul_ps,      _mm256_mul_ps,      vmulq_f32,  f32x4_mul;
            impl Div(div) for F32:       _mm_div_ps,      _mm256_div_ps,      vdivq_f32,  f32x4_div;
            impl Add(add) for I32:       _mm_add_epi32,   _mm256_add_epi32,   vaddq_s32,  i32x4_add;
            impl Sub(sub) for I32:       _mm_sub_epi32,   _mm256_sub_epi32,   vsubq_s32,  i32x4_sub;
            impl Mul(mul) for I32:       _mm_mullo_epi32, _mm256_mullo_epi32, vmulq_s32,  i32x4_mul;
            impl BitAnd(bitand) for I32: _mm_and_si128,   _mm256_and_si256,   vandq_s32,  v128_and;
            impl Add(add) for U16:       _mm_add_epi16,   _mm256_add_epi16,   vaddq_u16,  i16x8_add;
            impl Sub(sub) for U16:       _mm_sub_epi16,   _mm256_sub_epi16,   vsubq_u16,  i16x8_sub;
            impl Mul(mul) for U16:       _mm_mullo_epi16, _mm256_mullo_epi16, vmulq_u16,  i16x8_mul;
        );
    };

    // ---- The rows' forms ----
    //
    // Each form names the method's parameters and how the cell sees them (`a` is `self`'s
    // register), and `@method` writes the method.

    (@rows $col:ident, $types:tt;) => {};
    (@rows $col:ident, $types:tt; const $name:ident: $type:ty = $cells:tt; $($rest:tt)*) => {
        const $name: $type = vector_layer!(@pick $col, $cells);
        vector_layer!(@rows $col, $types; $($rest)*);
    };
    (@rows $col:ident, $types:tt; type F32; type I32; type I16; type U16; $($rest:tt)*) => {
        type F32 = vector_layer!(@type F32, $types);
        type I32 = vector_layer!(@type I32, $types);
        type I16 = vector_layer!(@type I16, $types);
        type U16 = vector_layer!(@type U16, $types);
        vector_layer!(@rows $col, $types; $($rest)*);
    };
    // An operator: `impl Add(add) for F32: _mm_add_ps, _mm256_add_ps, vaddq_f32, f32x4_add;`.
    (@rows $col:ident, $types:tt; impl $trait:ident($method:ident) for $kind:ident:
        $sse41:ident, $avx2:ident, $neon:ident, $simd128:ident; $($rest:tt)*) => {
        vector_layer!(@operator $col, $types, $trait, $method, $kind,
            { sse41: $sse41, avx2: $avx2, neon: $neon, simd128: $simd128 });
        vector_layer!(@rows $col, $types; $($rest)*);
    };
    // The token's: `fn f32(value: f32) -> F32`, `fn lanes() -> I32`, a fence, the loads.
    (@rows $col:ident, $types:tt;
        fn $name:ident($($param:ident: $param_type:ty)?) -> $out:tt $cells:tt $($rest:tt)*) => {
        vector_layer!(@method $col, $types, [fn $name(self $(, $param: $param_type)?)],
            $out, [], $cells);
        vector_layer!(@rows $col, $types; $($rest)*);
    };
    (@rows $col:ident, $types:tt;
        unsafe fn $name:ident($param:ident: $param_type:ty) -> $out:tt $cells:tt $($rest:tt)*) => {
        vector_layer!(@method $col, $types, [unsafe fn $name(self, $param: $param_type)],
            $out, [], $cells);
        vector_layer!(@rows $col, $types; $($rest)*);
    };
    // The gathers: a pointer, an index vector, maybe an offset.
    (@rows $col:ident, $types:tt;
        unsafe fn $name:ident($base:ident: $base_type:ty, $index:ident as $kind:ident
            $(, $param:ident: $param_type:ty)?) -> $out:tt $cells:tt $($rest:tt)*) => {
        vector_layer!(@method $col, $types,
            [unsafe fn $name(self, $base: $base_type,
                $index: vector_layer!(@type $kind, $types) $(, $param: $param_type)?)],
            $out, [let $index = $index.0;], $cells);
        vector_layer!(@rows $col, $types; $($rest)*);
    };
    // A vector's: `fn sqrt(a)`, `fn shr<N>(a)`, `fn min(a, b)` (`b` is the other vector's
    // register), `fn permute(a, offsets as I32)`, `fn shr_by(a, count: u32)`, a store.
    (@rows $col:ident, $types:tt;
        fn $name:ident$(<$n:ident>)?($a:ident) -> $out:tt $cells:tt $($rest:tt)*) => {
        vector_layer!(@method $col, $types, [fn $name$(<const $n: i32>)?(self)], $out,
            [let $a = self.0;], $cells);
        vector_layer!(@rows $col, $types; $($rest)*);
    };
    (@rows $col:ident, $types:tt;
        fn $name:ident($a:ident, $b:ident $(as $kind:ident)?) -> $out:tt $cells:tt
        $($rest:tt)*) => {
        vector_layer!(@method $col, $types,
            [fn $name(self, other: vector_layer!(@type $($kind)? Self, $types))], $out,
            [let ($a, $b) = (self.0, other.0);], $cells);
        vector_layer!(@rows $col, $types; $($rest)*);
    };
    (@rows $col:ident, $types:tt;
        fn $name:ident($a:ident, $param:ident: $param_type:ty) -> $out:tt $cells:tt
        $($rest:tt)*) => {
        vector_layer!(@method $col, $types, [fn $name(self, $param: $param_type)], $out,
            [let $a = self.0;], $cells);
        vector_layer!(@rows $col, $types; $($rest)*);
    };
    (@rows $col:ident, $types:tt;
        unsafe fn $name:ident($a:ident, $param:ident: $param_type:ty) -> $out:tt $cells:tt
        $($rest:tt)*) => {
        vector_layer!(@method $col, $types, [unsafe fn $name(self, $param: $param_type)], $out,
            [let $a = self.0;], $cells);
        vector_layer!(@rows $col, $types; $($rest)*);
    };

    (@method $col:ident, $types:tt, [$($signature:tt)*], $out:tt, [$($prelude:tt)*],
        $cells:tt) => {
        #[inline(always)]
        #[allow(unused_unsafe)]
        $($signature)* -> vector_layer!(@type $out, $types) {
            $($prelude)*
            vector_layer!(@out $out, $types, vector_layer!(@unsafe $col, $cells))
        }
    };

    (@operator $col:ident, $types:tt, $trait:ident, $method:ident, $kind:ident, $cells:tt) => {
        impl std::ops::$trait for vector_layer!(@type $kind, $types) {
            type Output = Self;
            #[inline(always)]
            #[allow(unused_unsafe)]
            fn $method(self, other: Self) -> Self {
                // SAFETY: as in `@unsafe` below.
                Self(unsafe { (vector_layer!(@pick $col, $cells))(self.0, other.0) })
            }
        }
    };

    // ---- Helpers ----

    // The column's cell.
    (@pick $col:ident, { all: $cell:expr $(,)? }) => { $cell };
    (@pick sse41, { sse41: $cell:expr, avx2: $a:expr, neon: $n:expr, simd128: $w:expr $(,)? }) => {
        $cell
    };
    (@pick avx2, { sse41: $s:expr, avx2: $cell:expr, neon: $n:expr, simd128: $w:expr $(,)? }) => {
        $cell
    };
    (@pick neon, { sse41: $s:expr, avx2: $a:expr, neon: $cell:expr, simd128: $w:expr $(,)? }) => {
        $cell
    };
    (@pick simd128, { sse41: $s:expr, avx2: $a:expr, neon: $n:expr, simd128: $cell:expr $(,)? })
    => {
        $cell
    };
    // The column's cell in the one `unsafe` block (see the module docs for why it is safe).
    (@unsafe $col:ident, $cells:tt) => {
        // SAFETY: a vector of this set is only made from its token or from such vectors, and
        // the token only by `run`, whose caller guarantees the set; pointers are the callers'
        // guarantees (the `unsafe fn` rows).
        unsafe { vector_layer!(@pick $col, $cells) }
    };
    // The set's type of a kind.
    (@type (), $types:tt) => { () };
    (@type $kind:ident Self, $types:tt) => { vector_layer!(@type $kind, $types) };
    (@type Self, $types:tt) => { Self };
    (@type bool, $types:tt) => { bool };
    (@type ($($kind:tt),+), $types:tt) => { ($(vector_layer!(@type $kind, $types)),+) };
    (@type F32, { F32 $f32:ident, I32 $i32:ident, I16 $i16:ident, U16 $u16:ident }) => { $f32 };
    (@type I32, { F32 $f32:ident, I32 $i32:ident, I16 $i16:ident, U16 $u16:ident }) => { $i32 };
    (@type I16, { F32 $f32:ident, I32 $i32:ident, I16 $i16:ident, U16 $u16:ident }) => { $i16 };
    (@type U16, { F32 $f32:ident, I32 $i32:ident, I16 $i16:ident, U16 $u16:ident }) => { $u16 };
    // A cell's registers wrapped in the row's vector types.
    (@out (), $types:tt, $value:expr) => { $value };
    (@out bool, $types:tt, $value:expr) => { $value };
    (@out ($first:tt, $second:tt), $types:tt, $value:expr) => {{
        let (first, second) = $value;
        (vector_layer!(@out $first, $types, first), vector_layer!(@out $second, $types, second))
    }};
    (@out ($first:tt, $second:tt, $third:tt, $fourth:tt), $types:tt, $value:expr) => {{
        // The gathers' helpers return vectors already.
        $value
    }};
    (@out $kind:tt, $types:tt, $value:expr) => { vector_layer!(@type $kind, $types)($value) };
}
