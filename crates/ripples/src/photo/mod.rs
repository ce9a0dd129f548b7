//! A photograph's own water: which pixels are water, the camera that looked at it, and the look
//! that moves the picture with the waves.
//!
//! A photograph is not a pool seen from above: its water lies on a plane that recedes to a
//! horizon. Everything that depends on that lives here, together, so the photo feature reads in
//! one folder:
//!
//! - `water_region`: the mask of water pixels and the bounding rows the simulation needs.
//! - `perspective`: the camera (horizon, focal length) mapping picture rows and the water
//!   plane's grid to each other ([`crate::Perspective`]).
//! - `look`: the photo look ([`crate::PhotoLook`]), which displaces and lights the photograph
//!   through the waves in that perspective; its row kernels are in [`crate::kernels`].

pub(crate) mod look;
pub mod perspective;
pub(crate) mod water_region;
