//! One type for the four solvers, so a pool can switch between them.
//!
//! The solvers differ in their state (`i16` or `f32` heights, a velocity field or a previous
//! field) but share what a pool asks of them: step with walls and an edge condition, press
//! stones, drive cells, and show heights to the renderer. An enum rather than a trait object:
//! the set is closed, dispatch is one `match` per call (not per cell), and the renderer can see
//! whether heights are integers or floats. [`SolverKind`] names a solver without its state (what
//! a scene file or a command line chooses); it lives here, beside [`Solver`], so the pool and the
//! scene both depend on this module and it on neither.

use crate::disturbances::body;
use crate::error::Error;
use crate::limits::MAX_FLOAT_HEIGHT;
use crate::looks::Heights;
use crate::simulation::boundary::{Obstacles, Sponge};
use crate::simulation::classic::ClassicSolver;
use crate::simulation::dispersive::DispersiveSolver;
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
        match text {
            "classic" => Ok(Self::Classic),
            "wave" => Ok(Self::Wave),
            "spring" => Ok(Self::Spring),
            "dispersive" => Ok(Self::Dispersive),
            _ => Err(Error::UnknownName {
                what: "solver",
                expected: "'classic', 'wave', 'spring' or 'dispersive'".to_string(),
                got: text.to_string(),
            }),
        }
    }
}

impl SolverKind {
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

    /// Which solver this is.
    pub fn kind(&self) -> SolverKind {
        match self {
            Self::Classic(_) => SolverKind::Classic,
            Self::Wave(_) => SolverKind::Wave,
            Self::Spring(_) => SolverKind::Spring,
            Self::Dispersive(_) => SolverKind::Dispersive,
        }
    }

    /// Grid width in cells.
    pub fn width(&self) -> u32 {
        match self {
            Self::Classic(s) => s.width(),
            Self::Wave(s) => s.width(),
            Self::Spring(s) => s.width(),
            Self::Dispersive(s) => s.width(),
        }
    }

    /// Grid height in cells.
    pub fn height(&self) -> u32 {
        match self {
            Self::Classic(s) => s.height(),
            Self::Wave(s) => s.height(),
            Self::Spring(s) => s.height(),
            Self::Dispersive(s) => s.height(),
        }
    }

    /// The heights now, for rendering and for output.
    pub fn heights(&self) -> Heights<'_> {
        match self {
            Self::Classic(s) => Heights::I16(s.heights()),
            Self::Wave(s) => Heights::F32(s.heights()),
            Self::Spring(s) => Heights::F32(s.heights()),
            Self::Dispersive(s) => Heights::F32(s.heights()),
        }
    }

    /// Vertical velocities, for solvers that keep them (the spring model).
    pub fn velocities(&self) -> Option<&[f32]> {
        match self {
            Self::Spring(s) => Some(s.velocities()),
            _ => None,
        }
    }

    /// Sets the whole field from `heights` (row-major, `width * height` cells), the water at
    /// rest with that surface: the previous field equals the new one (classic and wave) or
    /// every velocity is 0 (spring), so nothing moves until the surface's own slopes pull it.
    ///
    /// The element type must be the solver's: [`Heights::I16`] for the classic solver (its
    /// integer heights, a stone's dent negative), [`Heights::F32`] for the wave and spring
    /// solvers (height above rest, positive up), each float finite and within
    /// `±`[`MAX_FLOAT_HEIGHT`]. Border cells are the pool's edge and stay at rest: what
    /// `heights` holds there is not used (the solvers never move their border, and a raised edge
    /// would stay raised for ever). A wrong length, the other element type or a value out of
    /// range is an [`Error`] naming it, and the field is left as it was.
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
        let (width, height) = (self.width() as usize, self.height() as usize);
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
        let kind = self.kind();
        match (self, heights) {
            (Self::Classic(solver), Heights::I16(given)) => {
                let (current, previous) = solver.fields_mut();
                current.copy_from_slice(given);
                clear_border(current, width, height, 0);
                previous.copy_from_slice(current);
            }
            (Self::Wave(solver), Heights::F32(given)) => {
                check_float_heights(given, width)?;
                let (current, previous) = solver.fields_mut();
                current.copy_from_slice(given);
                clear_border(current, width, height, 0.0);
                previous.copy_from_slice(current);
            }
            (Self::Dispersive(solver), Heights::F32(given)) => {
                check_float_heights(given, width)?;
                let (current, previous) = solver.fields_mut();
                current.copy_from_slice(given);
                clear_border(current, width, height, 0.0);
                previous.copy_from_slice(current);
            }
            (Self::Spring(solver), Heights::F32(given)) => {
                check_float_heights(given, width)?;
                let (current, velocities) = solver.fields_mut();
                current.copy_from_slice(given);
                clear_border(current, width, height, 0.0);
                velocities.fill(0.0);
            }
            (_, given) => {
                let (found, needed) = match given {
                    Heights::I16(_) => ("i16", "f32"),
                    Heights::F32(_) => ("f32", "i16"),
                };
                return Err(Error::HeightsType {
                    solver: kind,
                    found,
                    needed,
                });
            }
        }
        Ok(())
    }

    /// Sets the wall cells of `obstacles` to rest in every field (after a field was loaded).
    pub(crate) fn dry(&mut self, obstacles: &Obstacles) {
        match self {
            Self::Classic(s) => {
                let (current, previous) = s.fields_mut();
                obstacles.dry(current, 0);
                obstacles.dry(previous, 0);
            }
            Self::Wave(s) => {
                let (current, previous) = s.fields_mut();
                obstacles.dry(current, 0.0);
                obstacles.dry(previous, 0.0);
            }
            Self::Dispersive(s) => {
                let (current, previous) = s.fields_mut();
                obstacles.dry(current, 0.0);
                obstacles.dry(previous, 0.0);
            }
            Self::Spring(s) => {
                let (heights, velocities) = s.fields_mut();
                obstacles.dry(heights, 0.0);
                obstacles.dry(velocities, 0.0);
            }
        }
    }

    /// Advances one step with these walls and, for open water, this sponge.
    pub fn step(&mut self, obstacles: &Obstacles, sponge: Option<&Sponge>) {
        match self {
            Self::Classic(s) => s.step_with(obstacles, sponge),
            Self::Wave(s) => s.step(obstacles, sponge),
            Self::Spring(s) => s.step(obstacles, sponge),
            Self::Dispersive(s) => s.step(obstacles, sponge),
        }
    }

    /// Calms the water.
    pub fn calm(&mut self) {
        match self {
            Self::Classic(s) => s.calm(),
            Self::Wave(s) => s.calm(),
            Self::Spring(s) => s.calm(),
            Self::Dispersive(s) => s.calm(),
        }
    }

    /// Presses a stone into the water at cell `(x, y)` (for the wave solver a smooth dent
    /// [`WAVE_STONE_DEPTH`](Self::WAVE_STONE_DEPTH) times deeper than `strength`, holding the same volume as a flat one).
    pub fn drop_stone(&mut self, x: i32, y: i32, radius: u32, strength: i16) {
        match self {
            Self::Classic(s) => s.drop_stone(x, y, radius, strength),
            Self::Wave(s) => {
                s.drop_stone(x, y, radius, f32::from(strength) * Self::WAVE_STONE_DEPTH)
            }
            Self::Spring(s) => s.drop_stone(x, y, radius, f32::from(strength)),
            Self::Dispersive(s) => {
                s.drop_stone(x, y, radius, f32::from(strength) * Self::WAVE_STONE_DEPTH)
            }
        }
    }

    /// Drags a stone along a polyline of cells.
    pub fn swipe_path(
        &mut self,
        points: impl IntoIterator<Item = [i32; 2]>,
        radius: u32,
        strength: i16,
    ) {
        match self {
            Self::Classic(s) => s.swipe_path(points, radius, strength),
            Self::Wave(s) => {
                s.swipe_path(points, radius, f32::from(strength) * Self::WAVE_STONE_DEPTH)
            }
            Self::Spring(s) => s.swipe_path(points, radius, f32::from(strength)),
            Self::Dispersive(s) => {
                s.swipe_path(points, radius, f32::from(strength) * Self::WAVE_STONE_DEPTH)
            }
        }
    }

    /// Presses the water with a body: a downward impulse of `impulse` (height per step, per
    /// step) at `centre` (fractional cells) under a raised cosine of `radius` cells, added where
    /// the solver keeps its vertical velocity (see [`crate::Body`]). `seed` varies the classic
    /// solver's dithered rounding from step to step. Interior cells only.
    pub fn apply_pressure(&mut self, centre: [f32; 2], radius: f32, impulse: f32, seed: u64) {
        let (width, height) = (self.width() as usize, self.height() as usize);
        match self {
            Self::Classic(s) => {
                let (current, _) = s.fields_mut();
                body::press_i16(current, width, height, centre, radius, impulse, seed);
            }
            Self::Wave(s) => {
                // Leapfrog's velocity is (current - previous) per substep: an impulse J per
                // step is J / n per substep.
                let per_substep = impulse / s.substeps() as f32;
                let (current, _) = s.fields_mut();
                body::press_f32(current, width, height, centre, radius, per_substep);
            }
            Self::Spring(s) => {
                let (_, velocities) = s.fields_mut();
                body::press_f32(velocities, width, height, centre, radius, impulse);
            }
            Self::Dispersive(s) => {
                // Leapfrog without substeps: the velocity is (current - previous) per step.
                let (current, _) = s.fields_mut();
                body::press_f32(current, width, height, centre, radius, impulse);
            }
        }
    }

    /// Raises the water at cells by `sign` times `(index, amount)` (interior cells, height
    /// units), in the heights and in whatever the solver keeps its velocity against (both
    /// fields of a leapfrog solver; the spring solver's heights only), so no velocity is added.
    /// The classic solver rounds each amount to the nearest integer (give it whole numbers to
    /// undo a raise exactly). A float's pressure head goes on before a step and comes off after
    /// it, so the step sees the pressure through its own operator (see [`crate::Float`]).
    pub(crate) fn raise(&mut self, cells: &[(usize, f32)], sign: f32) {
        fn raise_f32(fields: [&mut [f32]; 2], cells: &[(usize, f32)], sign: f32) {
            for field in fields {
                for &(i, amount) in cells {
                    field[i] += sign * amount;
                }
            }
        }
        match self {
            Self::Classic(s) => {
                let (current, previous) = s.fields_mut();
                for &(i, amount) in cells {
                    let amount = (sign * amount)
                        .round()
                        .clamp(f32::from(i16::MIN), f32::from(i16::MAX))
                        as i16;
                    current[i] = current[i].saturating_add(amount);
                    previous[i] = previous[i].saturating_add(amount);
                }
            }
            Self::Wave(s) => {
                let (current, previous) = s.fields_mut();
                raise_f32([current, previous], cells, sign);
            }
            Self::Dispersive(s) => {
                let (current, previous) = s.fields_mut();
                raise_f32([current, previous], cells, sign);
            }
            Self::Spring(s) => {
                let (heights, _) = s.fields_mut();
                for &(i, amount) in cells {
                    heights[i] += sign * amount;
                }
            }
        }
    }

    /// Drives cell `(x, y)` to `value` (rounded and saturated for the classic solver).
    pub fn set_height(&mut self, x: i32, y: i32, value: f32) {
        match self {
            Self::Classic(s) => s.set_height(x, y, value),
            Self::Wave(s) => s.set_height(x, y, value),
            Self::Spring(s) => s.set_height(x, y, value),
            Self::Dispersive(s) => s.set_height(x, y, value),
        }
    }
}

/// Refuses a float field with a value that is not finite or lies beyond
/// `±`[`MAX_FLOAT_HEIGHT`], naming the first such cell.
fn check_float_heights(heights: &[f32], width: usize) -> Result<(), Error> {
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

/// Sets the border cells (first and last row and column) of a `width x height` field to `rest`.
fn clear_border<T: Copy>(field: &mut [T], width: usize, height: usize, rest: T) {
    let last_row = (height - 1) * width;
    field[..width].fill(rest);
    field[last_row..].fill(rest);
    for row in field.chunks_exact_mut(width) {
        row[0] = rest;
        row[width - 1] = rest;
    }
}
