//! The hot loops, and nothing else.
//!
//! Every per-cell and per-pixel loop of Ripples lives here, written as *row kernels*: a function
//! that updates or renders one row given the rows around it. Rows are the unit because they are
//! what every backend shares: a SIMD file only has to vectorise a row, the callers split the grid
//! into strips of rows for threads, and the indices of a row can be proven once so the inner loop
//! runs without bounds checks.
//!
//! [`scalar`] is the reference: plain, safe Rust that states the exact semantics the issues
//! specify (other tools compare the classic solver and renderer bit for bit). Every SIMD
//! kernel is written **once**, over the small vector layer in `wide/` (tiny-skia's shape):
//! `wide/` holds the instruction sets (`sse41`, `avx2` on x86-64, `neon` on aarch64, `simd128`
//! on wasm32), whose vector types' methods, written as one table of every set's instructions,
//! are the only per-architecture code and, with the kernels' raw loads and stores, the only
//! `unsafe` code of the crate. Each must give
//! output identical to the reference, and the tests run every backend the CPU has against it on
//! random rows. [`Backend::detect`] picks the best backend at run time (a binary built on one
//! x86-64 runs on any other), and the functions in this module dispatch on a [`Backend`] value
//! the caller passes, once per row, into a `#[target_feature]` copy of the kernel.
//!
//! **One convention**: a module per kind of kernel, not per instruction set. `classic`
//! (the classic step and render, the classic look over gradient rows, the upsampling), `lit`,
//! `natural` (with `natural/samplers.rs`), `f32_rows`, `dispersive` and `photo` each hold their
//! kernels written once; `wide/` holds the instruction sets. The one exception is
//! `natural/avx512.rs`, the natural look's floor sampler at 16 lanes (see there).
//!
//! [`Backend::Avx512`] has kernels of its own only where AVX-512 measurably wins (the natural
//! look, see [`natural`], and the f32 solvers' bodies). Every other kernel runs the AVX2
//! vectors for it: a CPU with AVX-512 has AVX2, and [`Backend::is_available`] checks both.
//!
//! The `f32` kernels of the physical solvers live in [`f32_rows`]: element-wise loops that the
//! compiler vectorises for each backend from one plain body, identical bit for bit by
//! construction (see there why).
//!
//! A simulation grid coarser than the image (`sim_scale` above 1) is rendered through
//! [`upsample_row`], which brings a grid row to image resolution along x once per grid row (the
//! columns' cells and weights computed once, in [`GridColumns`]), and a blend of the two rows
//! around each image row ([`f32_rows::lerp_rows`], or inside the render for the classic look:
//! [`resampled_classic_blended_row`]); together they are [`gradient_row_scaled`], bit for bit.
//!
//! The natural look's kernels live in [`natural`], with their own per-backend files: element-wise
//! stages compiled per backend like [`f32_rows`]'s, and hand-written samplers between them.
//!
//! This module is public only with the crate's `kernels` feature, which exists for the crate's
//! own benchmarks, tests and fuzz targets: they call the row kernels one by one and compare the
//! backends. It is not a stable API; the kernels take rows whose lengths the callers guarantee,
//! and may panic on rows that disagree. What a program needs from here, [`Backend`],
//! [`backend`] and [`set_backend`], is also at the crate root.

#![allow(unsafe_code)]

/// Calls `name(args)` from the copy of a kernel compiled for `backend`'s x86-64 instruction
/// set, or from `plain` (the reference) for every other backend and where that set is missing:
/// `per_backend!(backend, path => name::<N>(args))` calls `path::avx512::name`,
/// `path::avx2::name`, `path::sse41::name` or `plain::name` (`self` for the module's own
/// copies). The modules whose kernels the compiler vectorises from one plain body (`f32_rows`,
/// `dispersive`, `natural`'s stages) compile that body once per set in such modules, and this
/// is their one dispatch. `per_backend!(backend, path => name(args); also neon, simd128;
/// else fallback)` also calls `path::neon::name` and `path::simd128::name` on those sets, and
/// `fallback` for the rest.
macro_rules! per_backend {
    ($backend:expr, $path:ident => $name:ident $(::<$count:ident>)? $arguments:tt) => {
        per_backend!($backend, $path => $name $(::<$count>)? $arguments;
            else plain::$name $(::<$count>)? $arguments)
    };
    ($backend:expr, $path:ident => $name:ident $(::<$count:ident>)? $arguments:tt
        $(; also $neon:ident, $simd128:ident)?; else $fallback:expr) => {{
        let backend: $crate::kernels::Backend = $backend;
        match backend {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Backend::Avx512` is only taken once `is_available` confirmed AVX-512 F,
            // BW, VL, DQ and AVX2 on this CPU.
            $crate::kernels::Backend::Avx512 if backend.is_available() => unsafe {
                $path::avx512::$name $(::<$count>)? $arguments
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Backend::Avx2` is only taken once `is_available` confirmed AVX2.
            $crate::kernels::Backend::Avx2 if backend.is_available() => unsafe {
                $path::avx2::$name $(::<$count>)? $arguments
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for SSE4.1.
            $crate::kernels::Backend::Sse41 if backend.is_available() => unsafe {
                $path::sse41::$name $(::<$count>)? $arguments
            },
            $(
                #[cfg(target_arch = "aarch64")]
                // SAFETY: as above, for NEON.
                $crate::kernels::Backend::Neon if backend.is_available() => unsafe {
                    $path::$neon::$name $arguments
                },
                #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
                $crate::kernels::Backend::Simd128 => $path::$simd128::$name $arguments,
            )?
            _ => $fallback,
        }
    }};
}

/// Kernels written once in plain Rust and compiled once per x86-64 instruction set (see
/// `f32_rows` for why that is bit for bit the plain body): for each declaration
/// `pub fn name[generics](arguments);`, with its docs, the public function that takes a
/// [`Backend`] first and dispatches through [`per_backend!`], and in modules `avx512`, `avx2`
/// and `sse41` its `#[target_feature]` copies, which inline `plain::name` (the calling
/// module's bodies). One declaration per kernel: its signature is written here and in its
/// body, nowhere else.
macro_rules! compiled_per_backend {
    ($(
        $(#[$attribute:meta])*
        pub fn $name:ident $([$($generic:tt)*])? ($($argument:ident: $type:ty),* $(,)?);
    )+
    // Copies whose public function the module writes itself (a kernel of the vector layer
    // beside them, say).
    $(copies only: $(fn $own:ident($($own_argument:ident: $own_type:ty),* $(,)?);)+)?) => {
        $(
            $(#[$attribute])*
            #[inline]
            #[allow(clippy::too_many_arguments)]
            pub fn $name $(<$($generic)*>)? (backend: Backend, $($argument: $type),*) {
                per_backend!(backend, self => $name($($argument),*))
            }
        )+
        compiled_per_backend!(@copies avx512, "avx512f,avx512bw,avx512vl,avx512dq,avx2", {
            $( fn $name $([$($generic)*])? ($($argument: $type),*); )+
            $($( fn $own($($own_argument: $own_type),*); )+)?
        });
        compiled_per_backend!(@copies avx2, "avx2", {
            $( fn $name $([$($generic)*])? ($($argument: $type),*); )+
            $($( fn $own($($own_argument: $own_type),*); )+)?
        });
        compiled_per_backend!(@copies sse41, "sse4.1", {
            $( fn $name $([$($generic)*])? ($($argument: $type),*); )+
            $($( fn $own($($own_argument: $own_type),*); )+)?
        });
    };
    (@copies $module:ident, $feature:literal,
        { $( fn $name:ident $([$($generic:tt)*])? ($($argument:ident: $type:ty),*); )+ }) => {
        #[cfg(target_arch = "x86_64")]
        mod $module {
            use super::*;
            $(
                #[target_feature(enable = $feature)]
                #[allow(clippy::too_many_arguments)]
                pub(super) fn $name $(<$($generic)*>)? ($($argument: $type),*) {
                    plain::$name($($argument),*)
                }
            )+
        }
    };
}

pub mod dispersive;
mod f32_row_bodies;
pub mod f32_rows;
pub mod natural;
pub mod photo;
pub mod scalar;

mod classic;
mod lit;
mod wide;

use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};

pub use scalar::{
    BlendedRow, GridColumns, LIT_GAIN_BITS, LIT_GAIN_MASK, LIT_TABLE_HALF, LIT_TABLE_SPAN, LitLook,
    SourceRow, gradient_row, gradient_row_scaled, spring_render_row,
};

/// A set of CPU instructions the kernels can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Plain Rust: the reference, available everywhere.
    Scalar,
    /// x86-64 SSE4.1 (128-bit vectors).
    Sse41,
    /// x86-64 AVX2 (256-bit vectors, gathers).
    Avx2,
    /// x86-64 AVX-512 (F, BW, VL and DQ, with AVX2): the natural look's stages and the f32
    /// solvers' kernels compiled for it; every kernel without an AVX-512 version runs the AVX2
    /// one.
    Avx512,
    /// aarch64 NEON (128-bit vectors).
    Neon,
    /// WebAssembly SIMD (128-bit vectors; chosen when the module is built with `+simd128`).
    Simd128,
}

impl Backend {
    /// Every backend, best last.
    pub const ALL: [Backend; 6] = [
        Backend::Scalar,
        Backend::Sse41,
        Backend::Avx2,
        Backend::Avx512,
        Backend::Neon,
        Backend::Simd128,
    ];

    /// The best backend this CPU supports.
    pub fn detect() -> Self {
        Self::ALL
            .into_iter()
            .rev()
            .find(|backend| backend.is_available())
            .unwrap_or(Backend::Scalar)
    }

    /// Whether this CPU (and this build) can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Sse41 => std::arch::is_x86_feature_detected!("sse4.1"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            // AVX2 too, so that the kernels this backend borrows from AVX2 may run.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512dq")
                    && std::arch::is_x86_feature_detected!("avx2")
            }
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => std::arch::is_aarch64_feature_detected!("neon"),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// Every backend this CPU supports, the reference first.
    pub fn available() -> impl Iterator<Item = Backend> {
        Self::ALL
            .into_iter()
            .filter(|backend| backend.is_available())
    }

    /// The name used on the command line and in reports (`scalar`, `sse4.1`, `avx2`, `avx512`,
    /// `neon`, `simd128`).
    pub fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Sse41 => "sse4.1",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Neon => "neon",
            Backend::Simd128 => "simd128",
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Backend {
    type Err = crate::Error;

    fn from_str(text: &str) -> Result<Self, crate::Error> {
        Self::ALL
            .into_iter()
            .find(|backend| backend.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.into_iter().map(Backend::name).collect();
                crate::Error::UnknownName {
                    what: "backend",
                    expected: format!("one of {}", names.join(", ")),
                    got: text.to_string(),
                }
            })
    }
}

/// Largest side the SIMD lit kernels handle; wider or taller images (far beyond
/// [`crate::limits::MAX_SIDE`]) go to the reference. Below it every column is exact in `f32` and a clamped
/// position times 128 fits in `i32`, where x86's `cvttps` would overflow to `i32::MIN` and Rust's
/// `as` saturates.
const LIT_MAX_SIDE: usize = 1 << 24;

/// The largest `f32` below one half (0.49999997): `trunc(v + copysign(ALMOST_HALF, v))` is
/// `v.round()`, halves away from zero, for every `f32` (checked on all 2^32 of them), which
/// gives the SIMD backends that lack such a rounding one in three instructions.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
const ALMOST_HALF: f32 = 0.499_999_97;

/// 0 = not chosen yet; otherwise 1 + the index in [`Backend::ALL`].
static ACTIVE: AtomicU8 = AtomicU8::new(0);

thread_local! {
    /// The backend of the pool whose step or render runs on this thread, when it chose one
    /// (see [`with_backend`]).
    static POOL_BACKEND: Cell<Option<Backend>> = const { Cell::new(None) };
}

/// The backend the solvers and renderers use: during a step or render of a pool that chose its
/// own ([`crate::Pool::set_backend`]), that one; otherwise the process default,
/// [`Backend::detect`] unless [`set_backend`] chose another.
pub fn backend() -> Backend {
    POOL_BACKEND.get().unwrap_or_else(default_backend)
}

/// The process default: [`Backend::detect`] unless [`set_backend`] chose another.
pub(crate) fn default_backend() -> Backend {
    match ACTIVE.load(Ordering::Relaxed) {
        0 => {
            let detected = Backend::detect();
            ACTIVE.store(backend_code(detected), Ordering::Relaxed);
            detected
        }
        code => Backend::ALL[usize::from(code - 1)],
    }
}

/// The backend a pool chose for the work running on this thread, if any (see
/// [`with_backend`]): what goes with the work to rayon's threads (`parallel::on_workers`), so
/// only the `parallel` feature (and the tests) read it.
#[cfg(any(feature = "parallel", test))]
pub(crate) fn pool_backend() -> Option<Backend> {
    POOL_BACKEND.get()
}

/// Runs `work` with [`backend`] answering `chosen` on this thread (the process default for
/// `None`), and restores what it answered before, even if `work` panics. A pool wraps its steps
/// and renders in it, and `parallel::on_workers` carries it onto the rayon thread it hands the
/// work to; every solver and renderer reads [`backend`] once, at the top of a pass, on that
/// thread.
pub(crate) fn with_backend<R>(chosen: Option<Backend>, work: impl FnOnce() -> R) -> R {
    struct Restore(Option<Backend>);
    impl Drop for Restore {
        fn drop(&mut self) {
            POOL_BACKEND.set(self.0);
        }
    }
    let _restore = Restore(POOL_BACKEND.replace(chosen));
    work()
}

/// Makes `backend` the process default: what every pool that did not choose its own
/// ([`crate::Pool::set_backend`]), and every solver and renderer used on its own, runs (for
/// benchmarks and for comparing backends). Fails, changing nothing, if the CPU lacks it.
pub fn set_backend(backend: Backend) -> Result<(), crate::Error> {
    check_available(backend)?;
    ACTIVE.store(backend_code(backend), Ordering::Relaxed);
    Ok(())
}

/// An error naming the backends this CPU has, unless it has `backend`.
pub(crate) fn check_available(backend: Backend) -> Result<(), crate::Error> {
    if backend.is_available() {
        return Ok(());
    }
    Err(crate::Error::BackendUnavailable {
        backend,
        available: Backend::available().collect(),
    })
}

fn backend_code(backend: Backend) -> u8 {
    let index = Backend::ALL.iter().position(|&b| b == backend).unwrap_or(0);
    index as u8 + 1
}

/// Steps one interior row of the classic solver; see [`scalar::classic_step_row`] for the exact
/// semantics every backend follows.
#[inline]
pub fn classic_step_row(
    backend: Backend,
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    out: &mut [i16],
    damping_shift: u32,
) {
    wide::dispatch(
        backend,
        classic::Step {
            up,
            mid,
            down,
            out,
            damping_shift,
        },
    );
}

/// Renders one interior row with the classic refraction; see [`scalar::classic_render_row`].
#[inline]
pub fn classic_render_row(
    backend: Backend,
    source: SourceRow<'_>,
    heights: [&[i16]; 3],
    dst_row: &mut [[u8; 4]],
) {
    let width = dst_row.len();
    classic_render_columns(
        backend,
        source,
        heights,
        dst_row,
        0..width,
        FrameWrites::Cached,
    );
}

/// How a kernel stores the pixels of a frame.
///
/// An ordinary store of a line that is not in cache first reads the line from memory (to merge
/// the other bytes into it), so writing a frame far larger than the caches costs a read and a
/// write of every line. Streaming (non-temporal) stores write whole lines straight to memory
/// instead. They are a loss when the frame would have stayed in cache, hence the choice;
/// [`FrameWrites::for_frame`] makes it from the frame's size. Only a hint: the pixels written
/// are the same either way, and backends without such stores ignore it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameWrites {
    /// Ordinary stores, through the caches.
    Cached,
    /// Non-temporal stores, around the caches (AVX2).
    Streaming,
}

impl FrameWrites {
    /// Frames of at least this many bytes (a megapixel) are streamed.
    ///
    /// Measured with `ripples bench` (turbulent field, classic look, AVX2, 2 threads, medians of
    /// 4-5 interleaved runs) on an AMD EPYC with 32 MB of L3, streaming every frame took
    /// `step_render` from 0.571 to 0.518 ns/cell at 3840x2160, 0.545 to 0.468 at 2560x1440 and
    /// 0.385 to 0.350 at 1920x1080, and changed nothing measurable at 640x480 and 1280x720
    /// (within 2%). Smaller frames stay cached, where whoever reads the frame next (a window, an
    /// encoder) still finds them.
    pub const STREAMING_MIN_BYTES: usize = 4 << 20;

    /// The stores for a frame of `pixels` 4-byte pixels.
    pub fn for_frame(pixels: usize) -> Self {
        if pixels.saturating_mul(4) >= Self::STREAMING_MIN_BYTES {
            Self::Streaming
        } else {
            Self::Cached
        }
    }
}

/// Renders the columns `columns` of one row with the classic refraction (border columns
/// included when the range reaches them); see [`scalar::classic_render_columns`]. `writes`
/// chooses the stores (see [`FrameWrites`]); only AVX2 streams. NEON and simd128 have whole
/// rows only: a part of a row there takes the reference.
#[inline]
pub fn classic_render_columns(
    backend: Backend,
    source: SourceRow<'_>,
    heights: [&[i16]; 3],
    dst_row: &mut [[u8; 4]],
    columns: std::ops::Range<usize>,
    writes: FrameWrites,
) {
    wide::dispatch(
        backend,
        classic::RenderColumns {
            source,
            heights,
            dst_row,
            columns,
            writes,
        },
    );
}

/// Renders one row with the classic refraction driven by gradient rows `[gx, gy]` (the classic
/// look over the wave and spring solvers, or at a simulation scale above 1); see
/// [`scalar::resampled_classic_row`].
#[inline]
pub fn resampled_classic_row(
    backend: Backend,
    source: SourceRow<'_>,
    gradients: [&[f32]; 2],
    dst_row: &mut [[u8; 4]],
) {
    let kernel = classic::Resampled {
        source,
        gradients,
        dst_row,
    };
    wide::dispatch(backend, kernel);
}

/// [`resampled_classic_row`] of gradient rows given as blends of two rows (the gradient between
/// two upsampled grid rows); see [`scalar::resampled_classic_blended_row`].
#[inline]
pub fn resampled_classic_blended_row(
    backend: Backend,
    source: SourceRow<'_>,
    gradients: [BlendedRow<'_>; 2],
    dst_row: &mut [[u8; 4]],
) {
    wide::dispatch(
        backend,
        classic::Resampled {
            source,
            gradients,
            dst_row,
        },
    );
}

/// Upsamples one row of a coarser grid to image resolution along x; see
/// [`scalar::upsample_row`].
#[inline]
pub fn upsample_row(backend: Backend, row: &[f32], columns: &GridColumns, out: &mut [f32]) {
    wide::dispatch(backend, classic::Upsample { row, columns, out });
}

/// Renders one row with the lit look over gradient rows `[gx, gy]`; see
/// [`scalar::lit_render_row`].
#[inline]
pub fn lit_render_row(
    backend: Backend,
    source: SourceRow<'_>,
    gradients: [&[f32]; 2],
    dst_row: &mut [[u8; 4]],
    look: &LitLook,
) {
    let kernel = lit::Lit {
        source,
        gradients,
        dst_row,
        look,
    };
    wide::dispatch(backend, kernel);
}

/// Asks the CPU to start loading `items` (pixels, heights) into its caches (one hint per 64-byte
/// line), so that later scattered reads of them find them there. A hint only: it changes no
/// result, and it does nothing on CPUs without a prefetch instruction Rust exposes on stable (all
/// but x86-64).
#[inline]
pub fn prefetch<T>(items: &[T]) {
    #[cfg(target_arch = "x86_64")]
    for line in items.chunks((64 / std::mem::size_of::<T>().max(1)).max(1)) {
        // SAFETY: `prefetch` is a hint that never faults, even on an invalid address; the
        // address here is inside `items` anyway. SSE, which it belongs to, is part of x86-64.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                line.as_ptr().cast(),
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = items;
}

#[cfg(test)]
mod tests {
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    #[test]
    fn almost_half_is_the_float_just_below_one_half() {
        assert_eq!(super::ALMOST_HALF, f32::from_bits(0.5f32.to_bits() - 1));
    }
}
