//! One type for the four solvers, so a pool can switch between them.
//!
//! The solvers differ in their state (`i16` or `f32` heights, a velocity field or a previous
//! field) but share what a pool asks of them, the [`WaterSolver`] trait: step with walls and an
//! edge condition, press stones, drive cells, and show heights to the renderer. [`Solver`] owns
//! one of them as an enum, so a pool holds it without a box and a caller can reach the solver's
//! own settings (`as_wave_mut` and the like), and it dispatches every shared method through one
//! `match` ([`Solver::as_dyn`]): each method is one line. The call is virtual once per step or
//! per stone, never per cell, next to a step's millions of cells. [`SolverKind`] names a solver
//! without its state (what a scene file or a command line chooses); it lives here, beside
//! [`Solver`], so the pool and the scene both depend on this module and it on neither.

use crate::error::Error;
use crate::looks::Heights;
use crate::simulation::boundary::{Obstacles, Sponge};
use crate::simulation::classic::ClassicSolver;
use crate::simulation::dispersive::DispersiveSolver;
use crate::simulation::interface::WaterSolver;
use crate::simulation::spring::SpringSolver;
use crate::simulation::wave::WaveSolver;

/// Which solver moves the water.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum SolverKind {
    /// The integer two-buffer solver of the classic demo-scene effect, bit-exact.
    Classic,
    /// The damped wave equation in `f32`, with a tunable speed and damping: smooth rings with no
    /// cell-sized speckle, all wavelengths at one speed.
    Wave,
    /// A spring under every cell, pulled by its neighbours; stiffness and viscosity can vary
    /// from cell to cell.
    Spring,
    /// Linear deep-water waves (`omega^2 = g k`): long waves outrun short ones, so a stone
    /// makes a spreading train of rings and a moving body a Kelvin wake. The default.
    #[default]
    Dispersive,
}

impl std::str::FromStr for SolverKind {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        Error::parse_name("solver", text, &Self::ALL, Self::name)
    }
}

impl SolverKind {
    /// Every solver, in the order an error lists their names.
    pub(crate) const ALL: [SolverKind; 4] =
        [Self::Classic, Self::Wave, Self::Spring, Self::Dispersive];

    /// The name a scene file or a command line gives it: `"classic"`, `"wave"`, `"spring"` or
    /// `"dispersive"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Classic => "classic",
            Self::Wave => "wave",
            Self::Spring => "spring",
            Self::Dispersive => "dispersive",
        }
    }
}

/// A solver of any kind.
#[derive(Debug, Clone)]
pub enum Solver {
    /// The integer two-buffer solver of the classic demo-scene effect.
    Classic(ClassicSolver),
    /// The damped wave equation in `f32`, with a tunable speed.
    Wave(WaveSolver),
    /// The spring model: a damped spring under every cell.
    Spring(SpringSolver),
    /// Linear deep-water waves: the dispersive solver.
    Dispersive(DispersiveSolver),
}

impl Solver {
    /// How much deeper the wave solver's smooth stone is than the classic flat disk of the same
    /// strength: `1 / (1/2 - 2/pi^2)`, the ratio of a disk's volume to a raised cosine's. With it
    /// a stone displaces the same volume of water whichever solver runs, so the same scene makes
    /// ripples of comparable size.
    pub const WAVE_STONE_DEPTH: f32 =
        1.0 / (0.5 - 2.0 / (std::f32::consts::PI * std::f32::consts::PI));

    /// A calm solver of `kind` on a `width x height` grid, with default parameters.
    pub fn new(kind: SolverKind, width: u32, height: u32) -> Result<Self, Error> {
        Ok(match kind {
            SolverKind::Classic => Self::Classic(ClassicSolver::new(width, height)?),
            SolverKind::Wave => Self::Wave(WaveSolver::new(width, height)?),
            SolverKind::Spring => Self::Spring(SpringSolver::new(width, height)?),
            SolverKind::Dispersive => Self::Dispersive(DispersiveSolver::new(width, height)?),
        })
    }

    /// The classic solver, if this is one.
    pub fn as_classic(&self) -> Option<&ClassicSolver> {
        match self {
            Self::Classic(s) => Some(s),
            _ => None,
        }
    }

    /// The classic solver, mutably, if this is one.
    pub fn as_classic_mut(&mut self) -> Option<&mut ClassicSolver> {
        match self {
            Self::Classic(s) => Some(s),
            _ => None,
        }
    }

    /// The wave solver, if this is one.
    pub fn as_wave(&self) -> Option<&WaveSolver> {
        match self {
            Self::Wave(s) => Some(s),
            _ => None,
        }
    }

    /// The wave solver, mutably, if this is one.
    pub fn as_wave_mut(&mut self) -> Option<&mut WaveSolver> {
        match self {
            Self::Wave(s) => Some(s),
            _ => None,
        }
    }

    /// The spring solver, if this is one.
    pub fn as_spring(&self) -> Option<&SpringSolver> {
        match self {
            Self::Spring(s) => Some(s),
            _ => None,
        }
    }

    /// The spring solver, mutably, if this is one.
    pub fn as_spring_mut(&mut self) -> Option<&mut SpringSolver> {
        match self {
            Self::Spring(s) => Some(s),
            _ => None,
        }
    }

    /// The dispersive solver, if this is one.
    pub fn as_dispersive(&self) -> Option<&DispersiveSolver> {
        match self {
            Self::Dispersive(s) => Some(s),
            _ => None,
        }
    }

    /// The dispersive solver, mutably, if this is one.
    pub fn as_dispersive_mut(&mut self) -> Option<&mut DispersiveSolver> {
        match self {
            Self::Dispersive(s) => Some(s),
            _ => None,
        }
    }

    /// The solver, as the interface every solver implements.
    pub fn as_dyn(&self) -> &dyn WaterSolver {
        match self {
            Self::Classic(s) => s,
            Self::Wave(s) => s,
            Self::Spring(s) => s,
            Self::Dispersive(s) => s,
        }
    }

    /// The solver, mutably, as the interface every solver implements.
    pub fn as_dyn_mut(&mut self) -> &mut dyn WaterSolver {
        match self {
            Self::Classic(s) => s,
            Self::Wave(s) => s,
            Self::Spring(s) => s,
            Self::Dispersive(s) => s,
        }
    }

    /// Which solver this is.
    pub fn kind(&self) -> SolverKind {
        self.as_dyn().kind()
    }

    /// Grid width in cells.
    pub fn width(&self) -> u32 {
        self.as_dyn().width()
    }

    /// Grid height in cells.
    pub fn height(&self) -> u32 {
        self.as_dyn().height()
    }

    /// The heights now, for rendering and for output.
    pub fn heights(&self) -> Heights<'_> {
        self.as_dyn().heights_view()
    }

    /// Vertical velocities, for solvers that keep them (the spring model).
    pub fn velocities(&self) -> Option<&[f32]> {
        self.as_spring().map(SpringSolver::velocities)
    }

    /// Whether every height and every previous height (or velocity) is at most `tolerance`
    /// from rest.
    pub fn is_calm_within(&self, tolerance: f32) -> bool {
        self.as_dyn().is_calm_within(tolerance)
    }

    /// Sets the whole field from `heights` (row-major, `width * height` cells), the water at
    /// rest with that surface: the previous field equals the new one (classic and wave) or
    /// every velocity is 0 (spring), so nothing moves until the surface's own slopes pull it.
    ///
    /// The element type must be the solver's: [`Heights::I16`] for the classic solver (its
    /// integer heights, a stone's dent negative), [`Heights::F32`] for the wave and spring
    /// solvers (height above rest, positive up), each float finite and within
    /// `±`[`MAX_FLOAT_HEIGHT`](crate::limits::MAX_FLOAT_HEIGHT). Border cells are the pool's
    /// edge and stay at rest: what `heights` holds there is not used (the solvers never move
    /// their border, and a raised edge would stay raised for ever). A wrong length, the other
    /// element type or a value out of range is an [`Error`] naming it, and the field is left as
    /// it was.
    ///
    /// ```
    /// use ripples::{Heights, Solver, SolverKind};
    ///
    /// let mut water = Solver::new(SolverKind::Wave, 5, 4)?;
    /// let mut bump = vec![0.0f32; 5 * 4];
    /// bump[2 * 5 + 2] = 40.0;
    /// water.set_heights(Heights::F32(&bump))?;
    /// assert!(matches!(water.heights(), Heights::F32(now) if now == bump.as_slice()));
    /// assert!(matches!(
    ///     water.set_heights(Heights::I16(&[0; 20])),
    ///     Err(ripples::Error::HeightsType { solver: SolverKind::Wave, found: "i16", .. })
    /// ));
    /// # Ok::<(), ripples::Error>(())
    /// ```
    pub fn set_heights(&mut self, heights: Heights<'_>) -> Result<(), Error> {
        self.as_dyn_mut().set_heights(heights)
    }

    /// Sets the wall cells of `obstacles` to rest in every field (after a field was loaded or
    /// carried from another grid).
    pub fn dry(&mut self, obstacles: &Obstacles) {
        self.as_dyn_mut().dry(obstacles);
    }

    /// Advances one step with these walls and, for open water, this sponge.
    pub fn step(&mut self, obstacles: &Obstacles, sponge: Option<&Sponge>) {
        self.as_dyn_mut().step(obstacles, sponge);
    }

    /// Calms the water.
    pub fn calm(&mut self) {
        self.as_dyn_mut().calm();
    }

    /// Presses a stone into the water at cell `(x, y)`, `strength` in the classic solver's
    /// height units: the wave and dispersive solvers press a smooth dent
    /// [`WAVE_STONE_DEPTH`](Self::WAVE_STONE_DEPTH) times deeper, holding the same volume as
    /// the flat one ([`WaterSolver::stone_depth`]); the classic solver rounds `strength` to an
    /// integer and saturates it to `i16`.
    pub fn drop_stone(&mut self, x: i32, y: i32, radius: u32, strength: f32) {
        let depth = strength * self.as_dyn().stone_depth();
        self.as_dyn_mut().drop_stone(x, y, radius, depth);
    }

    /// Drags a stone along a polyline of cells, `strength` as for
    /// [`drop_stone`](Self::drop_stone).
    pub fn swipe_path(
        &mut self,
        points: impl IntoIterator<Item = [i32; 2]>,
        radius: u32,
        strength: f32,
    ) {
        let depth = strength * self.as_dyn().stone_depth();
        let points = &mut points.into_iter();
        self.as_dyn_mut().swipe_path(points, radius, depth);
    }

    /// Presses the water with a body: see [`WaterSolver::apply_pressure`].
    pub fn apply_pressure(&mut self, centre: [f32; 2], radius: f32, impulse: f32, seed: u64) {
        self.as_dyn_mut()
            .apply_pressure(centre, radius, impulse, seed);
    }

    /// Raises the water at cells by `sign` times `(index, amount)` (interior cells, height
    /// units), in the heights and in whatever the solver keeps its velocity against (both
    /// fields of a leapfrog solver; the spring solver's heights only), so no velocity is added.
    /// The classic solver rounds each amount to the nearest integer (give it whole numbers to
    /// undo a raise exactly). A float's pressure head goes on before a step and comes off after
    /// it, so the step sees the pressure through its own operator (see [`crate::Float`]).
    pub(crate) fn raise(&mut self, cells: &[(usize, f32)], sign: f32) {
        self.as_dyn_mut().raise(cells, sign);
    }

    /// Drives cell `(x, y)` to `value` (rounded and saturated for the classic solver).
    pub fn set_height(&mut self, x: i32, y: i32, value: f32) {
        self.as_dyn_mut().set_height(x, y, value);
    }
}
