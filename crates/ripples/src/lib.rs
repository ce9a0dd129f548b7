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

#![forbid(unsafe_code)]
#![warn(missing_docs, missing_debug_implementations)]

mod boundary;
mod classic;
mod error;
pub mod kernels;
mod pool;
mod render;
mod scene;
mod sources;
mod texture;

pub use boundary::{Boundary, MAX_SPONGE, Obstacles, Sponge};
pub use classic::{ClassicSolver, DEFAULT_DAMPING_SHIFT};
pub use error::{Error, check_size};
pub use pool::{MAX_SIM_SCALE, Pool};
pub use render::{FieldView, Look, RenderMode, Renderer};
pub use scene::{
    DEFAULT_DROP_RADIUS, DEFAULT_DROP_STRENGTH, DEFAULT_SWIPE_RADIUS, DEFAULT_SWIPE_STRENGTH,
    DropEvent, MAX_FPS, MAX_FRAMES, MAX_STEPS_PER_FRAME, RainSpec, Scene, SceneRunner, SolverKind,
    SwipeEvent, check_damping_shift, check_fps, check_frames, check_radius, check_side,
    check_sim_scale, check_steps_per_frame, check_strength,
};
pub use sources::{MAX_RAIN_RATE, Rain, RainStones, SplitMix64, Stone};
pub use texture::pool_tiles;

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
