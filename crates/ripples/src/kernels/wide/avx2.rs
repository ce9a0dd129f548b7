//! The vector layer on AVX2: 8 lanes of 32 bits in each `__m256i`/`__m256`.
//!
//! Gathers are `vpgatherdd`, except the natural look's pairs of corners, which are loaded one
//! by one (see [`corners`]). Most AVX2 instructions work within each 128-bit half, so the pixel
//! blends keep pixels 0, 1 | 4, 5 in one vector and 2, 3 | 6, 7 in the other, and `packus`
//! puts them back in order; the narrowing of the classic step crosses the halves with one
//! permute. The operations are the table's (`table.rs`); this file holds the gathers' helpers.

use std::arch::x86_64::*;

use super::{F32s, I16s, I32s, Isa, Kernel, U16s, pair};

vector_layer!(avx2);

/// The words `base[index[i]]`: `vpgatherdd`.
///
/// # Safety
///
/// Every lane of `index` must be a valid, non-negative index of the words at `base`, and the
/// CPU must support AVX2.
#[inline(always)]
unsafe fn gather(base: *const u32, index: __m256i) -> __m256i {
    // SAFETY: the caller's guarantees.
    unsafe { _mm256_i32gather_epi32::<4>(base.cast(), index) }
}

/// The lanes of `top`, in order.
///
/// # Safety
///
/// The CPU must support AVX2 (`run`'s caller guarantees it).
#[inline(always)]
unsafe fn lane_array(top: __m256i) -> [i32; 8] {
    let mut lanes = [0i32; 8];
    // SAFETY: `lanes` holds eight i32, and `storeu` needs no alignment; the caller guarantees
    // AVX2.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), top) };
    lanes
}

/// The left and the right words of the pairs at `lanes[i] + below`, in lane order: pairs of
/// pixels 0, 1 | 4, 5 and 2, 3 | 6, 7, then `shuffle_ps` puts the left and the right words in
/// lane order.
///
/// Loaded one by one rather than gathered: on the AMD EPYC (Zen 4) this was measured on, two
/// `vpgatherdq` per row took the natural look's sampler from 5.0 to 6.3 ns per pixel (one
/// thread, calm 1920x1080 frames), and four `vpgatherdd` were slower still.
///
/// # Safety
///
/// As [`Isa::gather_pairs`], and the CPU must support AVX2.
#[inline(always)]
unsafe fn corners(base: *const u32, lanes: &[i32; 8], below: usize) -> (I32x8, I32x8) {
    // SAFETY: the caller's guarantees.
    unsafe {
        let first = _mm256_castsi256_ps(_mm256_set_epi64x(
            pair(base, lanes[5], below) as i64,
            pair(base, lanes[4], below) as i64,
            pair(base, lanes[1], below) as i64,
            pair(base, lanes[0], below) as i64,
        ));
        let second = _mm256_castsi256_ps(_mm256_set_epi64x(
            pair(base, lanes[7], below) as i64,
            pair(base, lanes[6], below) as i64,
            pair(base, lanes[3], below) as i64,
            pair(base, lanes[2], below) as i64,
        ));
        (
            I32x8(_mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(
                first, second,
            ))),
            I32x8(_mm256_castps_si256(_mm256_shuffle_ps::<0b11_01_11_01>(
                first, second,
            ))),
        )
    }
}
