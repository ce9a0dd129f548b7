//! What every solver does, as one trait: [`WaterSolver`].
//!
//! A pool asks the same of any solver: its size and heights, a step with walls and an edge
//! condition, stones and swipes, cells driven by a wave source, a body's pressure, a surface
//! loaded from outside, calm. [`Solver`](crate::Solver) holds one of the four and dispatches
//! through this trait in one place (`as_dyn`), so each of its methods is one line rather than a
//! `match` of four arms. Dispatch is per call (a step, a stone), never per cell: the rows of a
//! step run in each solver's own kernels.
//!
//! The trait is sealed: the set of solvers is closed (a renderer must know their element types),
//! and the two methods a pool needs internally (walls dried, a float's pressure head raised and
//! lowered) live in the sealing trait, out of the public API.
//!
//! Strengths are `f32` everywhere. The classic solver keeps its integer stones: it rounds a
//! strength to the nearest integer (halves away from zero) and saturates it to the `i16` range
//! ([`classic_strength`](crate::simulation::classic::classic_strength)), so every `i16` strength
//! passed as `f32` presses exactly what it pressed before.

use crate::error::Error;
use crate::limits::MAX_FLOAT_HEIGHT;
use crate::looks::Heights;
use crate::simulation::boundary::{Obstacles, Sponge};
use crate::simulation::solver::SolverKind;

/// The two fields of a solver that keeps its heights now and one step ago (the classic, wave and
/// dispersive solvers), named so the order cannot be mistaken; see
/// [`ClassicSolver::fields_mut`](crate::ClassicSolver::fields_mut). The current field minus the
/// previous one is the water's velocity.
#[derive(Debug)]
pub struct Fields<'a, T> {
    /// The heights now, row-major.
    pub current: &'a mut [T],
    /// The heights one step (or substep) ago, row-major.
    pub previous: &'a mut [T],
}

/// The two fields of the spring solver: heights and vertical velocities (see
/// [`SpringSolver::fields_mut`](crate::SpringSolver::fields_mut)).
#[derive(Debug)]
pub struct SpringFields<'a> {
    /// The heights above rest, row-major.
    pub heights: &'a mut [f32],
    /// The vertical velocities, in height per step, row-major.
    pub velocities: &'a mut [f32],
}

pub(crate) mod sealed {
    use crate::simulation::boundary::Obstacles;

    /// What the pool needs of a solver besides [`WaterSolver`](super::WaterSolver), and the
    /// seal that keeps the set of solvers closed.
    pub trait Internal {
        /// Sets the wall cells of `obstacles` to rest in every field (after a field was loaded).
        fn dry(&mut self, obstacles: &Obstacles);

        /// Raises the water at cells by `sign` times `(index, amount)` (interior cells, height
        /// units), in the heights and in whatever the solver keeps its velocity against (both
        /// fields of a leapfrog solver; the spring solver's heights only), so no velocity is
        /// added. The classic solver rounds each amount to the nearest integer.
        fn raise(&mut self, cells: &[(usize, f32)], sign: f32);
    }
}

/// A solver: a height field and the rule that advances it, in grid cells.
///
/// [`ClassicSolver`](crate::ClassicSolver), [`WaveSolver`](crate::WaveSolver),
/// [`SpringSolver`](crate::SpringSolver) and [`DispersiveSolver`](crate::DispersiveSolver)
/// implement it; [`Solver`](crate::Solver) holds any of them and lends it as
/// `&dyn WaterSolver` ([`Solver::as_dyn`](crate::Solver::as_dyn)).
///
/// ```
/// use ripples::{ClassicSolver, Obstacles, WaterSolver, WaveSolver};
///
/// fn ring(water: &mut dyn WaterSolver) -> bool {
///     let walls = Obstacles::new(water.width() as usize, water.height() as usize).unwrap();
///     water.drop_stone(16, 12, 3, 100.0);
///     for _ in 0..8 {
///         water.step(&walls, None);
///     }
///     !water.is_calm_within(0.0)
/// }
/// assert!(ring(&mut ClassicSolver::new(32, 24)?));
/// assert!(ring(&mut WaveSolver::new(32, 24)?));
/// # Ok::<(), ripples::Error>(())
/// ```
pub trait WaterSolver: sealed::Internal {
    /// Which solver this is.
    fn kind(&self) -> SolverKind;

    /// Grid width in cells.
    fn width(&self) -> u32;

    /// Grid height in cells.
    fn height(&self) -> u32;

    /// The heights now, row-major (`i = y * width + x`), as the renderer reads them: `i16`
    /// for the classic solver (a stone's dent negative), `f32` above rest for the others.
    fn heights_view(&self) -> Heights<'_>;

    /// Sets the whole field from `heights` (row-major, `width * height` cells), the water at
    /// rest with that surface (see [`Solver::set_heights`](crate::Solver::set_heights)).
    fn set_heights(&mut self, heights: Heights<'_>) -> Result<(), Error>;

    /// Calms the water: every field back to rest.
    fn calm(&mut self);

    /// Whether every height and every previous height (or velocity) is at most `tolerance`
    /// from rest.
    fn is_calm_within(&self, tolerance: f32) -> bool;

    /// Advances the water by one step. The wall cells of `obstacles` are set to rest in every
    /// field afterwards (a wall holds no water, so waves reflect off it), and with `sponge` the
    /// fields are damped along the edges (open water: waves leave the pool); without it the
    /// border cells stay at rest and the edges reflect. `obstacles` should be sized like the
    /// grid; a mask of another size covers only its first `width * height` cells.
    fn step(&mut self, obstacles: &Obstacles, sponge: Option<&Sponge>);

    /// Presses a stone of `radius` cells and `strength` height units at cell `(x, y)`: a flat
    /// disk at `-strength` (classic and spring) or a raised-cosine dent `strength` deep (wave
    /// and dispersive). A negative `strength` raises a bump; a stone reaching past the edge is
    /// clipped, one entirely outside or a non-finite strength does nothing. The classic solver
    /// rounds `strength` to an integer and saturates it to `i16`.
    fn drop_stone(&mut self, x: i32, y: i32, radius: u32, strength: f32);

    /// How much deeper than its strength this solver's stone must be to displace the water of
    /// the classic flat disk of that strength: 1 for the flat disks, and
    /// [`Solver::WAVE_STONE_DEPTH`](crate::Solver::WAVE_STONE_DEPTH) for the raised cosines.
    /// [`Solver::drop_stone`](crate::Solver::drop_stone) scales by it, so the same scene makes
    /// ripples of comparable size whichever solver runs.
    fn stone_depth(&self) -> f32 {
        1.0
    }

    /// Drags a stone along a polyline of `[x, y]` points: a stone (as
    /// [`drop_stone`](Self::drop_stone)) at every cell of the Bresenham lines between
    /// consecutive points, so the trail has no gaps however far apart the points are.
    fn swipe_path(
        &mut self,
        points: &mut dyn Iterator<Item = [i32; 2]>,
        radius: u32,
        strength: f32,
    );

    /// [`swipe_path`](Self::swipe_path) along a slice of points.
    fn swipe(&mut self, points: &[[i32; 2]], radius: u32, strength: f32) {
        self.swipe_path(&mut points.iter().copied(), radius, strength);
    }

    /// Drives interior cell `(x, y)` to `value` now (a wave generator does this every step),
    /// leaving its previous height or velocity alone. The classic solver rounds and saturates
    /// `value` to `i16`; the others ignore a non-finite value. Cells outside the interior are
    /// ignored.
    fn set_height(&mut self, x: i32, y: i32, value: f32);

    /// Presses the water with a body: a downward impulse of `impulse` (height per step, per
    /// step) at `centre` (fractional cells) under a raised cosine of `radius` cells, added where
    /// the solver keeps its vertical velocity (see [`crate::Body`]). `seed` varies the classic
    /// solver's dithered rounding from step to step. Interior cells only.
    fn apply_pressure(&mut self, centre: [f32; 2], radius: f32, impulse: f32, seed: u64);
}

/// Checks that `heights` has one value per cell of a `width x height` grid and holds the
/// element type `T` of a solver of `kind`, and returns its values.
pub(crate) fn loaded_heights<'a, T: LoadedElement>(
    heights: Heights<'a>,
    kind: SolverKind,
    (width, height): (usize, usize),
) -> Result<&'a [T], Error> {
    let expected = width * height;
    if heights.len() != expected {
        return Err(Error::WrongLength {
            buffer: crate::Buffer::Heights,
            got: heights.len(),
            expected,
            width,
            height,
        });
    }
    let found = match heights {
        Heights::I16(_) => "i16",
        Heights::F32(_) => "f32",
    };
    let Some(given) = T::of(heights) else {
        return Err(Error::HeightsType {
            solver: kind,
            found,
            needed: T::NAME,
        });
    };
    T::check(given, width)?;
    Ok(given)
}

/// An element type a solver keeps its heights in.
pub(crate) trait LoadedElement: Copy + Sized {
    /// Its name in messages.
    const NAME: &'static str;
    /// Rest.
    const REST: Self;
    /// The values of `heights` if they are of this type.
    fn of(heights: Heights<'_>) -> Option<&[Self]>;
    /// Refuses values a solver cannot hold.
    fn check(values: &[Self], width: usize) -> Result<(), Error>;
}

impl LoadedElement for i16 {
    const NAME: &'static str = "i16";
    const REST: Self = 0;

    fn of(heights: Heights<'_>) -> Option<&[Self]> {
        match heights {
            Heights::I16(values) => Some(values),
            Heights::F32(_) => None,
        }
    }

    fn check(_: &[Self], _: usize) -> Result<(), Error> {
        Ok(())
    }
}

impl LoadedElement for f32 {
    const NAME: &'static str = "f32";
    const REST: Self = 0.0;

    fn of(heights: Heights<'_>) -> Option<&[Self]> {
        match heights {
            Heights::F32(values) => Some(values),
            Heights::I16(_) => None,
        }
    }

    /// Refuses a value that is not finite or lies beyond `±`[`MAX_FLOAT_HEIGHT`], naming the
    /// first such cell.
    fn check(heights: &[Self], width: usize) -> Result<(), Error> {
        let out_of_range = heights
            .iter()
            .position(|value| !value.is_finite() || value.abs() > MAX_FLOAT_HEIGHT);
        match out_of_range {
            None => Ok(()),
            Some(i) => Err(Error::HeightOutOfRange {
                x: i % width,
                y: i / width,
                value: heights[i],
                max: MAX_FLOAT_HEIGHT,
            }),
        }
    }
}

/// Copies `given` into `field` with its border cells (first and last row and column) at rest:
/// the pool's edge, which the solvers never move.
pub(crate) fn load_interior<T: LoadedElement>(
    field: &mut [T],
    given: &[T],
    (width, height): (usize, usize),
) {
    field.copy_from_slice(given);
    let last_row = (height - 1) * width;
    field[..width].fill(T::REST);
    field[last_row..].fill(T::REST);
    for row in field.chunks_exact_mut(width) {
        row[0] = T::REST;
        row[width - 1] = T::REST;
    }
}
