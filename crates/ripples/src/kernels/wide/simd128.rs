//! The vector layer on WebAssembly SIMD: 4 lanes of 32 bits in each `v128`.
//!
//! Compiled in only when the module is built with `-C target-feature=+simd128`: a wasm module
//! cannot detect features at run time (an engine without SIMD rejects the whole module), so the
//! choice is made at build time and [`run`] is safe. The clamp uses `pmax`/`pmin`, whose
//! "pseudo" semantics (`pmax(a, b) = a < b ? b : a`, `pmin(a, b) = b < a ? b : a`) are the
//! reference's `clamp_position` word for word when the bound is the first operand, and which
//! engines on x86 turn into single `maxps`/`minps`. WebAssembly rounds halves to even only, so
//! [`F32s::round_half_away`] is built from `trunc` as on x86; `i32x4.trunc_sat_f32x4` is a
//! sequence of about eight instructions on x86, so clamped whole numbers take a two-instruction
//! conversion ([`F32s::whole_to_i32`]). The operations are the table's (`table.rs`); this file
//! holds the gathers' helpers.

use core::arch::wasm32::*;

use super::{F32s, I16s, I32s, Isa, Kernel, U16s, pair, word};

vector_layer!(simd128);

/// The words `base[index[i]]`, loaded into lanes.
///
/// # Safety
///
/// Every lane of `index` must be a valid, non-negative index of the words at `base`.
#[inline(always)]
unsafe fn gather(base: *const u32, index: v128) -> v128 {
    // SAFETY: the caller's guarantee.
    unsafe {
        u32x4(
            word(base, i32x4_extract_lane::<0>(index)),
            word(base, i32x4_extract_lane::<1>(index)),
            word(base, i32x4_extract_lane::<2>(index)),
            word(base, i32x4_extract_lane::<3>(index)),
        )
    }
}

/// The lanes of `top`, in order.
#[inline(always)]
fn lane_array(top: v128) -> [i32; 4] {
    [
        i32x4_extract_lane::<0>(top),
        i32x4_extract_lane::<1>(top),
        i32x4_extract_lane::<2>(top),
        i32x4_extract_lane::<3>(top),
    ]
}

/// The left and the right words of the pairs at `lanes[i] + below`, in lane order.
///
/// # Safety
///
/// As [`Isa::gather_pairs`].
#[inline(always)]
unsafe fn corners(base: *const u32, lanes: &[i32; 4], below: usize) -> (I32x4, I32x4) {
    // SAFETY: the caller guarantees the words of each pair.
    let (first, second) = unsafe {
        (
            u64x2(pair(base, lanes[0], below), pair(base, lanes[1], below)),
            u64x2(pair(base, lanes[2], below), pair(base, lanes[3], below)),
        )
    };
    (
        I32x4(i32x4_shuffle::<0, 2, 4, 6>(first, second)),
        I32x4(i32x4_shuffle::<1, 3, 5, 7>(first, second)),
    )
}
