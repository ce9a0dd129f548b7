//! Ripples: real-time 2D water ripples on the CPU.
//!
//! A height field where stones, rain and swipes make waves that spread, fade and reflect, and a
//! renderer that refracts an image through that water. The core knows nothing of windows, files
//! or JavaScript: it works on slices the caller owns, so the same code drives the `ripples`
//! command, a desktop window and a web page.
//!
//! Most programs need one [`Pool`]: water over an image of their size. Disturb it, step it and
//! render it with the natural look (the default):
//!
//! ```
//! use ripples::{Look, Pool};
//!
//! let background = ripples::pool_tiles(320, 240)?; // or your own RGBA pixels
//! let mut frame = vec![0u8; background.len()];
//! let mut pool = Pool::new(320, 240)?;
//! pool.drop_stone(160, 120, 6, 128)?; // x, y, radius, strength
//! let look = Look::default(); // the natural look; Look::classic() is the original effect
//! for _ in 0..30 {
//!     pool.step_and_render(&look, &background, &mut frame)?;
//! }
//! // Calm water shows the picture itself (in every look, unless the natural look's
//! // `water_colour` tints it), so the stone's rings are all that differs.
//! let mut calm = Pool::new(320, 240)?;
//! let mut calm_frame = vec![0u8; background.len()];
//! calm.step_and_render(&look, &background, &mut calm_frame)?;
//! assert_eq!(calm_frame, background);
//! assert_ne!(frame, calm_frame);
//! # for other in [Look::lit(), Look::classic(), Look::spring()] {
//! #     calm.step_and_render(&other, &background, &mut calm_frame)?;
//! #     assert_eq!(calm_frame, background, "{other:?}");
//! # }
//! # let water_colour = [190, 230, 225];
//! # let tinted = Look::Natural(ripples::NaturalSettings { water_colour, ..Default::default() });
//! # calm.step_and_render(&tinted, &background, &mut calm_frame)?;
//! # assert_ne!(calm_frame, background, "tinted");
//! # Ok::<(), ripples::Error>(())
//! ```
//!
//! - [`Pool`]: a solver over an image, in image pixels, with an optional coarser simulation
//!   grid, walls ([`Obstacles`]), edges ([`Boundary`]) and wave [`Generator`]s.
//! - [`Look`] / [`RenderMode`] / [`Renderer`]: the natural look, the default (the image as a
//!   pool's floor seen through real water: refraction through a depth, caustics, sky reflection,
//!   absorption), the lit look, the classic refraction of the demo-scene effect, and the spring
//!   look; a [`Look`] carries only its own look's numbers ([`NaturalSettings`],
//!   [`LitSettings`], [`ClassicSettings`], [`SpringSettings`]), and [`LookSettings`] keeps every
//!   look's, for a front end that switches looks.
//! - [`ClassicSolver`] (the integer two-buffer algorithm of the demo-scene effect, bit-exact),
//!   [`WaveSolver`], [`SpringSolver`], [`DispersiveSolver`] (deep-water waves, `omega^2 = g k`),
//!   and [`Solver`], any of them: the solvers on their own, in grid cells.
//! - [`Rain`], [`Stone`]: reproducible disturbances; [`Body`]: a disc pressing the water as it
//!   moves (a boat, a fingertip), which leaves a wake; [`Float`]: a disc the waves move and that
//!   moves them in turn (a duck, a leaf); [`Scene`] / [`SceneRunner`]: whole
//!   animations described as data.
//! - [`limits`]: the range of every value the library accepts, and the checks (every entry point
//!   checks what it is given and answers an [`Error`] naming the value).
//! - [`Backend`], [`backend`], [`set_backend`]: the SIMD code in use, chosen at run time (the
//!   process default; [`Pool::set_backend`] chooses per pool).
//! - [`FixedStep`] (the fixed-step clock) and [`SleepWhenCalm`] (when calm water stops the
//!   frame loop): the rules every front end that plays water in real time follows.
//! - [`Fit`] / [`Placement`]: where a picture of another size goes in a pool (cover, contain,
//!   stretch), as arithmetic.
//! - [`pool_tiles`]: the built-in image.
//! - [`resample_field`]: a field carried onto a grid of another size (a pool that resized).
//!
//! Features: `parallel` (default) works in strips of rows on rayon's threads; `serde` derives
//! `Deserialize` for the scene model; `kernels` makes the row kernels public for this crate's
//! benchmarks and tests (not a stable API).
//!
//! # A new picture every frame
//!
//! The picture is an argument of every render, not part of the pool: nothing is derived from it
//! and kept between frames, so water over a video is a new slice each frame (decode the next
//! frame into a buffer of your own, reused, then step and render over it) at the cost of a
//! still picture and with no allocation. Only the natural look's sky ([`Pool::set_sky`]) is
//! prepared ahead, once, into a small table; set it again only when the sky changes.
//! `examples/video_frames.rs` times both cases; `ripples render clip.mp4` does this with
//! ffmpeg's frames.
//!
//! # History
//!
//! Ripples started from two pieces of reference code, which some docs call "the seeds": the
//! classic integer water effect of the late-1990s demo scene, as a GameRes article describes it
//! (the [`ClassicSolver`] and [`RenderMode::Classic`] reproduce it bit for bit), and the spring
//! model of the Frogger HD water (the [`SpringSolver`] and [`RenderMode::Spring`]). Where the
//! docs quote "the seed's" names or values, they mean that code's.

#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs, missing_debug_implementations)]

mod disturbances;
mod error;
#[cfg(feature = "kernels")]
pub mod kernels;
// Without the `kernels` feature the row kernels are private, and what only their tests and
// benchmarks call is unused.
#[cfg(not(feature = "kernels"))]
#[allow(dead_code, unused_imports)]
mod kernels;
pub mod limits;
mod looks;
mod parallel;
mod photo;
mod picture;
mod playback;
mod pool;
mod scene;
mod simulation;

pub use disturbances::body::{BODY_PRESSURE, Body, BodyId};
pub use disturbances::float::{
    CONTACT_STIFFNESS, DEFAULT_FLOAT_GRAVITY, Float, FloatId, FloatImage, HEIGHT_UNITS_PER_CELL,
    MAX_FLOAT_SPEED, MIN_FLOAT_DENSITY, MIN_FLOAT_THICKNESS,
};
/// Hidden from the docs: the random generator behind [`Rain`], public only so that this
/// crate's tests, examples and benchmarks (and the C yardstick's) draw the same reproducible
/// numbers; not a stable API.
#[doc(hidden)]
pub use disturbances::sources::SplitMix64;
pub use disturbances::sources::{Generator, Rain, RainStones, Stone};
pub use error::{Buffer, Error, Number};
pub use kernels::{Backend, backend, set_backend};
pub use looks::parameters as look_parameters;
pub use looks::tiles::pool_tiles;
pub use looks::{
    ClassicSettings, FieldView, Heights, LitSettings, Look, LookSettings, NaturalSettings,
    RenderMode, Renderer, SHADER_CONSTANTS, ShaderConstants, SkyImage, SpringSettings,
};
pub use photo::look::{PhotoGeometry, PhotoLook, PhotoRowPlace};
pub use photo::perspective;
pub use photo::perspective::Perspective;
pub use picture::fit::{Fit, Placement, Rect};
pub use playback::calm::{CalmWatch, SleepWhenCalm};
pub use playback::clock::{DEFAULT_STEPS_PER_SECOND, EARLY_STEPS, FixedStep, MAX_STEPS_PER_FRAME};
pub use pool::Pool;
pub use scene::{
    BodyEvent, DropEvent, FloatEvent, RainSpec, Scene, SceneRunner, SourceEvent, SwipeEvent,
};
/// Hidden from the docs: the absorbing edge's damping band, which a [`Pool`] builds from its
/// [`Boundary`]; public only because the solvers' own `step` takes an `Option<&Sponge>` (a
/// solver used alone passes `None`) and this crate's tests build one.
#[doc(hidden)]
pub use simulation::boundary::Sponge;
pub use simulation::boundary::{Boundary, Obstacles};
pub use simulation::classic::ClassicSolver;
pub use simulation::dispersive::{DispersiveSolver, MAX_GRAVITY, StoneRims};
pub use simulation::interface::{Fields, SpringFields, WaterSolver};
pub use simulation::resample::{resample_field, resample_field_by};
pub use simulation::solver::{Solver, SolverKind};
pub use simulation::spring::{SpringSolver, map_from_grey};
pub use simulation::wave::WaveSolver;

/// The crate README's example, compiled and run as a doc test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
