//! What disturbs the water: stones and rain, swipes, wave sources, bodies that press it as they
//! move and floating objects that ride it.
//!
//! These describe *where and how hard* the water is pushed, in the solvers' units; the solvers
//! in [`crate::simulation`] apply them. Keeping them apart means a new kind of disturbance is a
//! file here and one call into the solvers, not a change to each solver.
//!
//! - `sources`: [`crate::Stone`], [`crate::Rain`] (a reproducible stream of stones) and the
//!   periodic wave [`crate::Generator`]s.
//! - `swipe`: a stroke pressed along a path (the pointer's drag).
//! - `body`: a disc pressing the water as it moves, which leaves a wake.
//! - `float`: a disc the waves move and that moves them in turn (a duck, a leaf).
//! - `numbered`: the id-keyed list that holds a pool's bodies and floats.

pub(crate) mod body;
pub(crate) mod float;
pub(crate) mod numbered;
pub(crate) mod sources;
pub(crate) mod swipe;
