//! `f32` row kernels of the physical solvers (wave and spring), written once in plain Rust and
//! compiled once per backend.
//!
//! Unlike the classic solver's integer kernels, these need no hand-written intrinsics: every
//! loop is element-wise (a cell's result depends on its own inputs only, never on the result
//! of the cell before it), so the compiler vectorises it by itself, and vectorising element-wise
//! `f32` arithmetic cannot change a result. Rust never contracts `a * b + c` into a fused
//! multiply-add and never reassociates floating-point operations, so the compiled vector code
//! performs exactly the operations of the plain loop, in the same order, on each lane. The
//! `avx2` and `sse41` versions are therefore the plain bodies behind
//! `#[target_feature(enable = ...)]` wrappers (8 and 4 lanes); the `scalar` version is the same
//! body compiled for the baseline (SSE2 on x86-64, which vectorises it with 4 lanes too). The
//! tests compare every backend with the scalar one bit for bit anyway, on random rows that
//! include zeros of both signs, NaNs, infinities and values around the flush threshold. (Only
//! which NaN comes out of an operation on a NaN may differ, as Rust leaves it unspecified.)
//!
//! Each function slices its rows to the row width up front so the loops run without bounds
//! checks. Measured on one thread of this project's 2-core x86-64 machine, 1920x1080 cells: a
//! wave substep takes 0.85 ms with the baseline and 0.6 ms with AVX2; a spring step (4 passes,
//! its rows kept in cache, see `spring.rs`) 5.9 ms and 3.3 ms. SSE4.1 brings these loops
//! nothing over SSE2 (same times); it is compiled for completeness of the dispatch.
//! `avx512` (AVX-512 F, BW, VL, DQ) compiles the same bodies with 16 lanes: a 1920x1080 wave
//! step took 0.30 Gcycles against AVX2's 0.36 (`perf record -e cycles:u` on `ripples bench
//! --solver wave --render natural --threads 1`, AMD EPYC Zen 4), and the bench's wall-clock
//! step times, which the shared machine made noisy, agreed in two interleaved runs of three.
//!
//! In WebAssembly (`+simd128`) the compiler vectorises these bodies too, and as well as vectors
//! written out: under V8 (node, 1280x720, 9 interleaved runs in one process) a wave step took
//! 0.491 ms through the plain body against 0.493 ms through a hand-written simd128 version, and
//! a spring step 3.62 ms against 3.99, so there are none. [`lerp_rows`] is the exception: it is
//! called row by row from the renderer, where the plain body blended a 1280x720 frame of rows
//! in 0.36 ms and `simd128`'s version takes 0.17 ms.
//!
//! [`lerp_rows`], the blend of two rows, is the renderer's vertical interpolation between two
//! upsampled grid rows at a simulation scale above 1, element-wise like the rest.

use super::Backend;

pub use super::f32_row_bodies::{FLUSH_TO_ZERO, RowValues, WaveCoefficients};
// The bodies every backend's wrapper inlines (and WebAssembly's blend finishes rows with).
use super::f32_row_bodies as plain;

compiled_per_backend! {
    /// Steps one interior row of the wave solver: `rows` are `[above, row, below]`, rows `y-1`,
    /// `y` and `y+1` of the current field; `out` is row `y` of the previous field, overwritten
    /// with the next field. For `1 <= x <= width - 2`:
    ///
    /// ```text
    /// edges   = above[x] + below[x] + row[x-1] + row[x+1]
    /// corners = above[x-1] + above[x+1] + below[x-1] + below[x+1]
    /// out[x]  = centre * row[x] + edge * edges + corner * corners - previous * out[x]
    /// ```
    ///
    /// (left to right, as written). Border columns are not written; rows shorter than 3 are left
    /// alone. The input rows must be at least as long as `out`.
    pub fn wave_step_row(rows: [&[f32]; 3], out: &mut [f32], coefficients: &WaveCoefficients);

    /// Moves one row of springs (step 1 of the spring model), `row` being `[h, w]` (heights and
    /// velocities) and `out` `[h_out, w_out]`: for every cell,
    ///
    /// ```text
    /// a     = -k * h - m * w
    /// h_out = flush(h + w)
    /// w_out = flush(w + a)
    /// ```
    ///
    /// where `flush` sets values smaller than [`FLUSH_TO_ZERO`] in magnitude to 0. `h_out` sets
    /// the row width; the other slices must be at least as long.
    pub fn spring_row(
        row: [&[f32]; 2],
        stiffness: RowValues<'_>,
        viscosity: RowValues<'_>,
        out: [&mut [f32]; 2],
    );

    /// One spreading pass along x over one row of the spring model, as the seed computes it
    /// (`row` is `[h, w]`, `out` `[h_out, w_out]`).
    ///
    /// Every cell `1 <= c <= width - 2` is a giver: it passes `spread * (h[c] - h[c-1])` to the
    /// cell before it and `spread * (h[c] - h[c+1])` to the cell after it, in height and velocity
    /// alike. A cell thus receives, first from the giver before it and then from the giver after
    /// it,
    ///
    /// ```text
    /// h_out[c] = h[c] + spread * (h[c-1] - h[c]) + spread * (h[c+1] - h[c])
    /// w_out[c] = w[c] + spread * (h[c-1] - h[c]) + spread * (h[c+1] - h[c])
    /// ```
    ///
    /// (left to right), where a term whose giver is not in `1..=width-2` is left out, not added as
    /// 0 (adding 0 would turn a height of -0 into +0). Only `h` is read for the pulls.
    /// `h_out` sets the row width; rows shorter than 3 have no giver and are copied.
    pub fn spread_x_row(spread: f32, row: [&[f32]; 2], out: [&mut [f32]; 2]);

    /// One row of a spreading pass along y of the spring model, as the seed computes it: row `r`
    /// (`row`, `[h, w]`, into `out`, `[h_out, w_out]`) receives from the giver row above it
    /// (`givers[0]`, the heights of row `r-1`), then from the giver row below it (`givers[1]`,
    /// row `r+1`), in every column:
    ///
    /// ```text
    /// h_out[x] = h[x] + spread * (above[x] - h[x]) + spread * (below[x] - h[x])
    /// w_out[x] = w[x] + spread * (above[x] - h[x]) + spread * (below[x] - h[x])
    /// ```
    ///
    /// (left to right). Pass `None` for a neighbour that is not a giver (the seed's givers are rows
    /// `1..=height-2`): its term is left out, not added as 0; with neither, the row is copied.
    /// `h_out` sets the row width; the other slices must be at least as long.
    pub fn spread_y_row(
        spread: f32,
        givers: [Option<&[f32]>; 2],
        row: [&[f32]; 2],
        out: [&mut [f32]; 2],
    );

    copies only:
    fn lerp_rows(top: &[f32], bottom: &[f32], weight: f32, out: &mut [f32]);
}

/// Blends two rows: `out[x] = top[x] + (bottom[x] - top[x]) * weight` (as written: a
/// difference, a product, a sum). The renderer's vertical interpolation between two upsampled
/// grid rows (see [`super::scalar::upsample_row`]). `out` sets the row width; the other rows
/// must be at least as long.
#[inline]
pub fn lerp_rows(backend: Backend, top: &[f32], bottom: &[f32], weight: f32, out: &mut [f32]) {
    match backend {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx512` is only taken once `is_available` confirmed AVX-512 F, BW, VL,
        // DQ and AVX2 on this CPU.
        Backend::Avx512 if backend.is_available() => unsafe {
            avx512::lerp_rows(top, bottom, weight, out)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX2 was detected (see `wave_step_row`).
        Backend::Avx2 if backend.is_available() => unsafe {
            avx2::lerp_rows(top, bottom, weight, out)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE4.1 was detected (see `wave_step_row`).
        Backend::Sse41 if backend.is_available() => unsafe {
            sse41::lerp_rows(top, bottom, weight, out)
        },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Backend::Simd128 => super::wide::simd128::run(LerpRows {
            top,
            bottom,
            weight,
            out,
        }),
        _ => plain::lerp_rows(top, bottom, weight, out),
    }
}

/// [`lerp_rows`] over the vector layer, for WebAssembly (see the module docs): the plain
/// body's operations, in its order (no fused multiply-add), so every lane is its result bit for
/// bit.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
struct LerpRows<'a> {
    top: &'a [f32],
    bottom: &'a [f32],
    weight: f32,
    out: &'a mut [f32],
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
impl super::wide::Kernel for LerpRows<'_> {
    type Output = ();

    fn scalar(self) {
        plain::lerp_rows(self.top, self.bottom, self.weight, self.out);
    }

    #[inline(always)]
    fn simd<S: super::wide::Isa>(self, isa: S) {
        use super::wide::F32s;
        let Self {
            top,
            bottom,
            weight,
            out,
        } = self;
        let width = out.len();
        let (top, bottom) = (&top[..width], &bottom[..width]);
        let weight_lanes = isa.f32(weight);
        let mut x = 0;
        while x + S::LANES <= width {
            // SAFETY: x + LANES <= width, and every row holds `width` cells.
            unsafe {
                let upper = isa.load_f32(top.as_ptr().add(x));
                let lower = isa.load_f32(bottom.as_ptr().add(x));
                (upper + (lower - upper) * weight_lanes).store(out.as_mut_ptr().add(x));
            }
            x += S::LANES;
        }
        plain::lerp_rows(&top[x..], &bottom[x..], weight, &mut out[x..]);
    }
}

/// Asks the CPU to start loading `values` into its caches (a hint; does nothing where the
/// backend has no prefetch instruction).
#[inline]
pub fn prefetch(values: &[f32]) {
    #[cfg(target_arch = "x86_64")]
    for line in values.chunks(16) {
        // SAFETY: a prefetch reads nothing into the program and cannot fault; `line` is a
        // valid, non-empty slice anyway. SSE is part of x86-64.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                line.as_ptr().cast(),
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = values;
}
