//! The water itself: the solvers that step a height field, the walls and edges that bound it,
//! and the resampling that carries a field onto a grid of another size.
//!
//! Everything here works in grid cells and knows nothing of pictures or looks: a solver is a
//! field and the rule that advances it, so the same solver serves a flat pool, a photograph's
//! water in perspective and a web page. [`Solver`] is any of them behind one interface; the
//! [`crate::Pool`] drives it in image pixels.
//!
//! - `classic`: the integer two-buffer algorithm of the demo-scene effect, bit for bit.
//! - `wave`: the damped wave equation in `f32`.
//! - `dispersive`: deep-water waves (`omega^2 = g k`), the default.
//! - `spring`: the spring model of the Frogger HD water.
//! - `boundary`: walls ([`crate::Obstacles`]), edges ([`crate::Boundary`]) and the absorbing
//!   edge's damping band.
//! - `resample`: a field carried onto another grid (a pool that resized).

pub(crate) mod boundary;
pub(crate) mod classic;
pub(crate) mod dispersive;
pub(crate) mod resample;
pub(crate) mod solver;
pub(crate) mod spring;
pub(crate) mod wave;
