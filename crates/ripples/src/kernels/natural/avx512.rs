//! The AVX-512 floor sampler of the natural look: 16 positions per iteration.
//!
//! The same arithmetic as the AVX2 sampler (see `avx2.rs`), twice as wide: positions clamped
//! and turned into 1/128-pixel fixed point in 16 lanes, the corners' pairs loaded one by one
//! (eight bytes each, as AVX2 does) and sorted into left and right corners with one two-source
//! permute per row, the blends in 32 16-bit lanes. A row's last pixels that do not fill 16 lanes
//! go to the AVX2 sampler, so the output is the reference's, bit for bit.
//!
//! Measured with `perf record -e cycles:u` on `ripples bench --solver wave --render natural
//! --threads 1 --backend avx512` (1920x1080, AMD EPYC Zen 4, cycles spent in the sampler, three
//! pairs of runs): 0.87, 0.94 and 0.91 Gcycles against 0.92, 0.97 and 0.96 for the AVX2 sampler
//! in the same build, about 4% less. The sky's nearest sampler stays AVX2's: a 16-lane
//! `vpgatherdd` took the same cycles as two 8-lane ones (0.28 against 0.27 Gcycles).
//!
//! It is the one SIMD kernel kept outside the vector layer (`kernels/wide`): no other kernel
//! has a 16-lane version, and 512-bit types for this one sampler would be a layer of their own
//! that the development machine (an AMD EPYC without AVX-512) cannot run; the kernel tests
//! compare it with the reference wherever the CPU has AVX-512.

use std::arch::x86_64::*;

use super::super::wide;
use super::samplers::Bilinear;

/// AVX-512 version of [`super::bilinear_row`] (the [`Bilinear`] sampler of the vector layer,
/// 16 lanes wide; see the module docs for why it is the one kernel with its own AVX-512 code).
///
/// # Safety
///
/// The CPU must support AVX-512 F, BW, VL and DQ, and AVX2.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2")]
pub(super) unsafe fn run(sampler: Bilinear<'_>) {
    let Some((src, width, height, xs, ys, out)) = sampler.prepared() else {
        return;
    };
    let count = out.len();
    let max_x = _mm512_set1_ps(width as f32 - 1.0);
    let max_y = _mm512_set1_ps(height as f32 - 1.0);
    let last_left = _mm512_set1_epi32(width as i32 - 2);
    let last_top = _mm512_set1_epi32(height as i32 - 2);
    let stride = _mm512_set1_epi32(width as i32);
    let fixed_one = _mm512_set1_ps(128.0);
    let base = src.as_ptr();
    let mut i = 0;
    while i + 16 <= count {
        // SAFETY: i + 16 <= count, so the 16 positions read and the 16 pixels written at i lie
        // inside `xs`, `ys` and `out`. Positions are clamped to [0, width-1] x [0, height-1]
        // before they become indices (NaN to 0, as `max`/`min` order their operands), and the
        // left column and top row are at most width - 2 and height - 2, so both pixels of every
        // pair, in both rows, lie inside `src` (`width * height` pixels, which fits in i32); a
        // clamped position times 128 fits in i32 because both sides are at most LIT_MAX_SIDE.
        unsafe {
            let sx = clamp_ps(_mm512_loadu_ps(xs.as_ptr().add(i)), max_x);
            let sy = clamp_ps(_mm512_loadu_ps(ys.as_ptr().add(i)), max_y);
            let fixed_x = _mm512_cvttps_epi32(_mm512_mul_ps(sx, fixed_one));
            let fixed_y = _mm512_cvttps_epi32(_mm512_mul_ps(sy, fixed_one));
            let x0 = _mm512_min_epi32(_mm512_srai_epi32::<7>(fixed_x), last_left);
            let y0 = _mm512_min_epi32(_mm512_srai_epi32::<7>(fixed_y), last_top);
            let wx = _mm512_sub_epi32(fixed_x, _mm512_slli_epi32::<7>(x0));
            let wy = _mm512_sub_epi32(fixed_y, _mm512_slli_epi32::<7>(y0));
            let top = _mm512_add_epi32(_mm512_mullo_epi32(y0, stride), x0);
            let (p00, p10, p01, p11) = load_pairs(base, top, width);
            // Per 128-bit lane k: pixels 4k, 4k+1 in `low`, 4k+2, 4k+3 in `high`, four u16
            // channels each.
            let (wx_low, wx_high) = spread_per_channel(wx);
            let (wy_low, wy_high) = spread_per_channel(wy);
            let low = lerp_u16(
                lerp_u16(widen_low(p00), widen_low(p10), wx_low),
                lerp_u16(widen_low(p01), widen_low(p11), wx_low),
                wy_low,
            );
            let high = lerp_u16(
                lerp_u16(widen_high(p00), widen_high(p10), wx_high),
                lerp_u16(widen_high(p01), widen_high(p11), wx_high),
                wy_high,
            );
            // Every lane is in 0..=255; `packus` restores pixel order.
            let pixels = _mm512_packus_epi16(low, high);
            _mm512_storeu_si512(out.as_mut_ptr().add(i).cast(), pixels);
        }
        i += 16;
    }
    let rest = Bilinear {
        src,
        width,
        height,
        xs: &xs[i..],
        ys: &ys[i..],
        out: &mut out[i..],
    };
    // SAFETY: the caller guarantees AVX2 with AVX-512.
    unsafe { wide::avx2::run(rest) };
}

/// The corners of 16 pixels in pixel order: `(p00, p10, p01, p11)`, from the pairs at `top`
/// (pixel indices of the left corners of the top row) and `width` pixels below.
///
/// # Safety
///
/// `top[i] + width + 1` must be a valid pixel index at `base` in every lane.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2")]
unsafe fn load_pairs(
    base: *const [u8; 4],
    top: __m512i,
    width: usize,
) -> (__m512i, __m512i, __m512i, __m512i) {
    let mut lanes = [0i32; 16];
    // SAFETY: `lanes` holds 16 i32; `storeu` needs no alignment.
    unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), top) };
    let pair = |lane: usize, below: usize| {
        // SAFETY: the caller guarantees both pixels of the pair, in both rows; pixels are
        // `[u8; 4]`, so the pair may be unaligned.
        unsafe {
            base.add(lanes[lane] as u32 as usize + below)
                .cast::<i64>()
                .read_unaligned()
        }
    };
    let left = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    let right = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    // Pairs of pixels 0..8 in `first` and 8..16 in `second`: the even words are the left
    // corners, the odd ones the right corners.
    let corners = |below: usize| {
        let first = _mm512_set_epi64(
            pair(7, below),
            pair(6, below),
            pair(5, below),
            pair(4, below),
            pair(3, below),
            pair(2, below),
            pair(1, below),
            pair(0, below),
        );
        let second = _mm512_set_epi64(
            pair(15, below),
            pair(14, below),
            pair(13, below),
            pair(12, below),
            pair(11, below),
            pair(10, below),
            pair(9, below),
            pair(8, below),
        );
        (
            _mm512_permutex2var_epi32(first, left, second),
            _mm512_permutex2var_epi32(first, right, second),
        )
    };
    let (p00, p10) = corners(0);
    let (p01, p11) = corners(width);
    (p00, p10, p01, p11)
}

/// `clamp(value, 0, max)` with NaN sent to 0: `max_ps` returns its second operand when the
/// comparison fails, exactly as the reference's `clamp_position`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2")]
fn clamp_ps(value: __m512, max: __m512) -> __m512 {
    _mm512_min_ps(_mm512_max_ps(value, _mm512_setzero_ps()), max)
}

/// Bytes of pixels 4k, 4k+1 of each 128-bit lane k as u16 lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2")]
fn widen_low(pixels: __m512i) -> __m512i {
    _mm512_unpacklo_epi8(pixels, _mm512_setzero_si512())
}

/// Bytes of pixels 4k+2, 4k+3 of each 128-bit lane k as u16 lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2")]
fn widen_high(pixels: __m512i) -> __m512i {
    _mm512_unpackhi_epi8(pixels, _mm512_setzero_si512())
}

/// A per-pixel weight (< 2^16, in i32 lanes) repeated over the pixel's four u16 channels, in
/// the order of [`widen_low`] and [`widen_high`].
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2")]
fn spread_per_channel(value: __m512i) -> (__m512i, __m512i) {
    let doubled = _mm512_or_si512(value, _mm512_slli_epi32::<16>(value));
    (
        _mm512_unpacklo_epi32(doubled, doubled),
        _mm512_unpackhi_epi32(doubled, doubled),
    )
}

/// `a + (((b - a) * w) >> 7)` in i16 lanes (|b - a| <= 255, w <= 128: no overflow).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2")]
fn lerp_u16(a: __m512i, b: __m512i, weight: __m512i) -> __m512i {
    let step = _mm512_mullo_epi16(_mm512_sub_epi16(b, a), weight);
    _mm512_add_epi16(a, _mm512_srai_epi16::<7>(step))
}
