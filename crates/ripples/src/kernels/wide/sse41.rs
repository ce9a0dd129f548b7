//! The vector layer on SSE4.1: 4 lanes of 32 bits in each `__m128i`/`__m128`.
//!
//! SSE4.1 has no gather: [`Isa::gather`] and [`Isa::gather_pairs`] load the words one by one
//! into the lanes of a vector (`pextrd`, then `pinsrd`). `pminsd`, `pmaxsd`, `pmulld`,
//! `pmovsxwd` and `roundps` are what SSE4.1 adds over SSE2 and why the kernels need it. The
//! operations are the table's (`table.rs`); this file holds the gathers' helpers.

use std::arch::x86_64::*;

use super::{F32s, I16s, I32s, Isa, Kernel, U16s, pair, word};

vector_layer!(sse41);

/// The words `base[index[i]]`, loaded into lanes.
///
/// # Safety
///
/// Every lane of `index` must be a valid, non-negative index of the words at `base`.
#[inline(always)]
unsafe fn gather(base: *const u32, index: __m128i) -> __m128i {
    // SAFETY: the caller's guarantee; `run`'s caller guarantees SSE4.1.
    unsafe {
        _mm_setr_epi32(
            word(base, _mm_cvtsi128_si32(index)) as i32,
            word(base, _mm_extract_epi32::<1>(index)) as i32,
            word(base, _mm_extract_epi32::<2>(index)) as i32,
            word(base, _mm_extract_epi32::<3>(index)) as i32,
        )
    }
}

/// The lanes of `top`, in order.
///
/// # Safety
///
/// The CPU must support SSE4.1 (`run`'s caller guarantees it).
#[inline(always)]
unsafe fn lane_array(top: __m128i) -> [i32; 4] {
    // SAFETY: the caller's guarantee.
    unsafe {
        [
            _mm_cvtsi128_si32(top),
            _mm_extract_epi32::<1>(top),
            _mm_extract_epi32::<2>(top),
            _mm_extract_epi32::<3>(top),
        ]
    }
}

/// The left and the right words of the pairs at `lanes[i] + below`, in lane order: pairs of
/// pixels 0, 1 and 2, 3, then `shuffle_ps` puts the left and the right words in lane order.
///
/// # Safety
///
/// As [`Isa::gather_pairs`], and the CPU must support SSE4.1.
#[inline(always)]
unsafe fn corners(base: *const u32, lanes: &[i32; 4], below: usize) -> (I32x4, I32x4) {
    // SAFETY: the caller's guarantees.
    unsafe {
        let first = _mm_castsi128_ps(_mm_set_epi64x(
            pair(base, lanes[1], below) as i64,
            pair(base, lanes[0], below) as i64,
        ));
        let second = _mm_castsi128_ps(_mm_set_epi64x(
            pair(base, lanes[3], below) as i64,
            pair(base, lanes[2], below) as i64,
        ));
        (
            I32x4(_mm_castps_si128(_mm_shuffle_ps::<0b10_00_10_00>(
                first, second,
            ))),
            I32x4(_mm_castps_si128(_mm_shuffle_ps::<0b11_01_11_01>(
                first, second,
            ))),
        )
    }
}
