//! The water itself: the solvers that step a height field, the walls and edges that bound it,
//! and the resampling that carries a field onto a grid of another size.
//!
//! Everything here works in grid cells and knows nothing of pictures or looks: a solver is a
//! field and the rule that advances it, so the same solver serves a flat pool, a photograph's
//! water in perspective and a web page. [`WaterSolver`](crate::WaterSolver) is the interface
//! they share and [`Solver`] any of them behind it; the [`crate::Pool`] drives it in image
//! pixels.
//!
//! - `interface`: the [`WaterSolver`](crate::WaterSolver) trait, the named fields a solver
//!   lends ([`Fields`](crate::Fields), [`SpringFields`](crate::SpringFields)).
//! - `two_fields`: the heights now and one step ago, with the stones, swipes and walls done
//!   to them, shared by the wave and dispersive solvers.
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
pub(crate) mod interface;
pub(crate) mod resample;
pub(crate) mod solver;
pub(crate) mod spring;
pub(crate) mod two_fields;
pub(crate) mod wave;
