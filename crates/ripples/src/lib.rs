//! Ripples: real-time 2D water ripples on the CPU.
//!
//! A height field where stones, rain and swipes make waves that spread, fade and reflect, and a
//! renderer that refracts an image through that water. The core knows nothing of windows, files
//! or JavaScript: it works on slices the caller owns, so the same code drives the `ripples`
//! command, a desktop window and a web page.
//!
//! - [`ClassicSolver`]: the integer two-buffer algorithm of the GameRes article, bit-exact.
//! - [`Pool`]: a solver over an image, in image pixels, with an optional coarser simulation grid.
//! - [`Look`] / [`Renderer`]: the classic refraction and the lit default look.
//! - [`Rain`], [`Stone`]: reproducible disturbances; [`Scene`] / [`SceneRunner`]: whole animations.
//! - [`pool_tiles`]: the embedded default image.
//!
//! ```
//! use ripples::{Look, Pool};
//!
//! let background = ripples::pool_tiles(320, 240);
//! let mut frame = vec![0u8; background.len()];
//! let mut pool = Pool::new(320, 240)?;
//! pool.drop_stone(160, 120, 6, 128);
//! pool.step();
//! pool.render(&Look::classic(), &background, &mut frame)?;
//! # Ok::<(), ripples::Error>(())
//! ```

#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs, missing_debug_implementations)]

mod boundary;
mod classic;
mod error;
pub mod kernels;
mod parallel;
mod pool;
mod render;
mod scene;
mod solver;
mod sources;
mod spring;
mod texture;
mod wave;

pub use boundary::{Boundary, MAX_SPONGE, Obstacles, Sponge};
pub use classic::{ClassicSolver, DEFAULT_DAMPING_SHIFT};
pub use error::{Error, check_size};
pub use kernels::Backend;
pub use pool::{MAX_SIM_SCALE, Pool};
pub use render::{FieldView, Heights, Look, RenderMode, Renderer};
pub use scene::{
    DEFAULT_DROP_RADIUS, DEFAULT_DROP_STRENGTH, DEFAULT_SOURCE_AMPLITUDE, DEFAULT_SOURCE_PERIOD,
    DEFAULT_SWIPE_RADIUS, DEFAULT_SWIPE_STRENGTH, DropEvent, MAX_FPS, MAX_FRAMES,
    MAX_STEPS_PER_FRAME, RainSpec, Scene, SceneRunner, SolverKind, SourceEvent, SwipeEvent,
    check_damping_shift, check_fps, check_frames, check_radius, check_side, check_sim_scale,
    check_steps_per_frame, check_strength,
};
pub use solver::{Solver, WAVE_STONE_DEPTH};
pub use sources::{Generator, MAX_RAIN_RATE, Rain, RainStones, SplitMix64, Stone};
pub use spring::{
    DEFAULT_SPREAD, DEFAULT_SPREAD_PASSES, DEFAULT_STIFFNESS, DEFAULT_VISCOSITY, MAX_SPREAD,
    MAX_SPREAD_PASSES, MAX_SPRING_COEFFICIENT, SpringSolver, map_from_grey,
};
pub use texture::pool_tiles;
pub use wave::{DEFAULT_WAVE_DAMPING, DEFAULT_WAVE_SPEED, MAX_COURANT, MAX_WAVE_SPEED, WaveSolver};

/// The README's Rust examples, compiled and run as doc tests so they cannot rot.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// Largest pool or image side, in cells or pixels.
pub const MAX_SIDE: u32 = 16384;
/// Most cells (or pixels) in one pool or image: 8192 x 8192.
pub const MAX_CELLS: u32 = 1 << 26;
/// Largest stone radius accepted from users, in pixels.
pub const MAX_RADIUS: u32 = 4096;
