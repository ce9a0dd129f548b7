//! The vector layer on NEON (aarch64): 4 lanes of 32 bits in each 128-bit register.
//!
//! Where NEON differs from x86 in ways that matter for bit-exactness (the table's rows,
//! `table.rs`, say each where it is used):
//!
//! - `fmax`/`fmin` propagate NaN, where the reference (like x86 `maxps`) sends a NaN position
//!   to 0, so [`F32s::clamp_position`] is a compare and a select, the reference word for word.
//! - `fcvtzs` truncates and saturates like Rust's `as i32` (NaN to 0).
//! - `frinta` rounds halves away from zero: `f32::round` in one instruction.
//! - No gather: words are loaded one by one into lanes (this file's helpers).
//! - The high half of a 16-bit product is a widening multiply and an unzip of the odd halves.
//!
//! LLVM does not contract separate `fmul`/`fadd` intrinsics into fused ones, so every product
//! and sum is its own exactly rounded instruction, in the reference's order.

use std::arch::aarch64::*;

use super::{F32s, I16s, I32s, Isa, Kernel, U16s, pair, word};

vector_layer!(neon);

/// The words `base[index[i]]`, loaded into lanes.
///
/// # Safety
///
/// Every lane of `index` must be a valid, non-negative index of the words at `base`, and the
/// CPU must support NEON.
#[inline(always)]
unsafe fn gather(base: *const u32, index: int32x4_t) -> int32x4_t {
    // SAFETY: the caller's guarantees.
    unsafe {
        let v = vdupq_n_u32(word(base, vgetq_lane_s32::<0>(index)));
        let v = vsetq_lane_u32::<1>(word(base, vgetq_lane_s32::<1>(index)), v);
        let v = vsetq_lane_u32::<2>(word(base, vgetq_lane_s32::<2>(index)), v);
        vreinterpretq_s32_u32(vsetq_lane_u32::<3>(
            word(base, vgetq_lane_s32::<3>(index)),
            v,
        ))
    }
}

/// The lanes of `top`, in order.
///
/// # Safety
///
/// The CPU must support NEON (`run`'s caller guarantees it).
#[inline(always)]
unsafe fn lane_array(top: int32x4_t) -> [i32; 4] {
    // SAFETY: the caller's guarantee.
    unsafe {
        [
            vgetq_lane_s32::<0>(top),
            vgetq_lane_s32::<1>(top),
            vgetq_lane_s32::<2>(top),
            vgetq_lane_s32::<3>(top),
        ]
    }
}

/// The left and the right words of the pairs at `lanes[i] + below`, in lane order.
///
/// # Safety
///
/// As [`Isa::gather_pairs`], and the CPU must support NEON.
#[inline(always)]
unsafe fn corners(base: *const u32, lanes: &[i32; 4], below: usize) -> (I32x4, I32x4) {
    // SAFETY: the caller guarantees the words of each pair, and NEON.
    unsafe {
        let (a, b) = (pair(base, lanes[0], below), pair(base, lanes[1], below));
        let (c, d) = (pair(base, lanes[2], below), pair(base, lanes[3], below));
        let first = vreinterpretq_u32_u64(vcombine_u64(vcreate_u64(a), vcreate_u64(b)));
        let second = vreinterpretq_u32_u64(vcombine_u64(vcreate_u64(c), vcreate_u64(d)));
        (
            I32x4(vreinterpretq_s32_u32(vuzp1q_u32(first, second))),
            I32x4(vreinterpretq_s32_u32(vuzp2q_u32(first, second))),
        )
    }
}
