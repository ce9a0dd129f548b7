//! The hot loops, and nothing else.
//!
//! Every per-cell and per-pixel loop of Ripples lives here, written as *row kernels*: a function
//! that updates or renders one row given the rows around it. Rows are the unit because they are
//! what every backend shares: a SIMD file only has to vectorise a row, the callers split the grid
//! into strips of rows for threads, and the indices of a row can be proven once so the inner loop
//! runs without bounds checks.
//!
//! [`scalar`] is the reference: plain, safe Rust that states the exact semantics the issues
//! specify (other tools compare the classic solver and renderer bit for bit). Faster backends
//! must produce identical output for the classic kernels; their tests compare against it.

pub mod scalar;

pub use scalar::{
    LitParams, classic_render_row, classic_step_row, gradient_row, gradient_row_scaled,
    lit_render_row, resampled_classic_row, spring_render_row,
};
