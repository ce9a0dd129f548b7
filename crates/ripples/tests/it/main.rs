//! The core library's integration tests, linked as one binary: each file here was a test binary
//! of its own, and linking two dozen copies of the library, proptest and rayon took most of the
//! time of a `cargo test` after a change to the library: touching `src/lib.rs`, then
//! `cargo test -p ripples --no-run` took a median 9.2 s with 24 test binaries and 5.9 s with
//! this one and `no_allocation` (three runs of each in turn, on two cores shared with other
//! builds).
//! Each module keeps its file's name, so `cargo test -p ripples --test it -- natural::` runs
//! what `--test natural` did (and, the filter being a substring, `kernels::natural::` too).
//!
//! `no_allocation/` stays a binary of its own beside this one: its tests count allocations
//! with a `#[global_allocator]`, which is one per binary and here would count every other
//! test's allocations too; its three files share that allocator and take turns with it.
//! Nothing here changes what the others see: no test sets the process's default backend
//! (`properties` chooses one per pool, `Pool::set_backend`), the environment or the current
//! directory, and the tests on several threads build rayon pools of their own.
//!
//! The row kernels' modules (`kernels`, `f32_kernels`, `dispersive_kernels`, `properties`)
//! need the crate's `kernels` feature, which the crate's dev-dependency on itself turns on; in
//! a published package, where that entry is gone, they are left out unless `--features kernels`
//! is given. The modules share [`wake`] (a wake's half-angle, for `bodies`).

mod wake;

mod bodies;
mod checked_input;
mod classic;
mod dispersive;
#[cfg(feature = "kernels")]
mod dispersive_kernels;
#[cfg(feature = "kernels")]
mod f32_kernels;
mod floats;
mod fuzz_regressions;
#[cfg(feature = "kernels")]
mod kernels;
mod long_runs;
mod natural;
mod parallel;
mod photo;
mod physics;
#[cfg(feature = "kernels")]
mod properties;
mod readme;
mod set_heights;
mod solver_threads;
mod spring;
mod walls_look;
mod wave;
