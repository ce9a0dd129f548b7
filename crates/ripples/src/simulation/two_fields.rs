//! The two `f32` fields of a leapfrog solver, and everything done to them that does not depend
//! on the step: stones, swipes, driven cells, bodies, loading, walls and the sponge.
//!
//! The wave and dispersive solvers differ only in how they step (a 9-point Laplacian in
//! substeps, or a pyramid that makes the operator `sqrt(-L)`); both keep the heights now and
//! one step ago, write the next field over the previous one and swap, and press the same
//! raised-cosine stones. [`TwoFields`] is that shared part, written once, so a fix to a stone
//! or to a wall is one edit for both.

use crate::disturbances::body;
use crate::disturbances::sources::interior_index;
use crate::disturbances::swipe;
use crate::error::Error;
use crate::limits::MAX_SIDE;
use crate::looks::Heights;
use crate::parallel;
use crate::simulation::boundary::{Obstacles, Sponge};
use crate::simulation::interface::{Fields, WaterSolver, load_interior, loaded_heights};
use crate::simulation::solver::SolverKind;

/// `fraction_per_step` if it is a damping the wave and dispersive solvers take: the fraction of
/// amplitude every wave loses per step, `0 <= d < 1`.
pub(crate) fn check_damping(fraction_per_step: f32) -> Result<f32, Error> {
    if (0.0..1.0).contains(&fraction_per_step) {
        Ok(fraction_per_step)
    } else {
        Err(Error::not_allowed(
            "damping",
            fraction_per_step,
            "a fraction per step in [0, 1)",
        ))
    }
}

/// Largest stone radius that changes anything: beyond it a stone covers every grid that fits
/// the limits.
const MAX_USEFUL_RADIUS: i64 = 2 * MAX_SIDE as i64;

/// The heights now and one step (or substep) ago of a `width x height` grid, row-major.
/// Border cells are never stepped and stay at rest.
#[derive(Debug, Clone)]
pub(crate) struct TwoFields {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) current: Vec<f32>,
    pub(crate) previous: Vec<f32>,
}

impl TwoFields {
    /// Calm water on a grid already checked against the limits.
    pub(crate) fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            current: vec![0.0; width * height],
            previous: vec![0.0; width * height],
        }
    }

    /// Both fields, named.
    pub(crate) fn fields_mut(&mut self) -> Fields<'_, f32> {
        Fields {
            current: &mut self.current,
            previous: &mut self.previous,
        }
    }

    /// Both fields back to rest.
    pub(crate) fn calm(&mut self) {
        self.current.fill(0.0);
        self.previous.fill(0.0);
    }

    /// Whether every cell of both fields is at most `tolerance` from rest.
    pub(crate) fn is_calm_within(&self, tolerance: f32) -> bool {
        let small = |values: &[f32]| values.iter().all(|v| v.abs() <= tolerance);
        small(&self.current) && small(&self.previous)
    }

    /// Loads `heights` at rest (the previous field equals the new one), as
    /// [`WaterSolver::set_heights`] says, for a solver of `kind`.
    pub(crate) fn set_heights(
        &mut self,
        heights: Heights<'_>,
        kind: SolverKind,
    ) -> Result<(), Error> {
        let size = (self.width, self.height);
        let given = loaded_heights::<f32>(heights, kind, size)?;
        load_interior(&mut self.current, given, size);
        self.previous.copy_from_slice(&self.current);
        Ok(())
    }

    /// The wall cells of `obstacles` to rest in both fields.
    pub(crate) fn dry(&mut self, obstacles: &Obstacles) {
        obstacles.dry(&mut self.current, 0.0);
        obstacles.dry(&mut self.previous, 0.0);
    }

    /// Raises both fields at `cells` by `sign` times each amount (no velocity added).
    pub(crate) fn raise(&mut self, cells: &[(usize, f32)], sign: f32) {
        for field in [&mut self.current, &mut self.previous] {
            for &(i, amount) in cells {
                field[i] += sign * amount;
            }
        }
    }

    /// Sets the height of cell `(x, y)` now, leaving its previous height alone, so the cell
    /// moves towards `value` (a wave generator sets its cells every step). Border cells,
    /// cells outside the grid and non-finite values are ignored.
    pub(crate) fn set_height(&mut self, x: i32, y: i32, value: f32) {
        if let Some(i) = interior_index(x, y, self.width, self.height)
            && value.is_finite()
        {
            self.current[i] = value;
        }
    }

    /// Adds a body's downward impulse `impulse` (height per leapfrog step) under a raised
    /// cosine: the velocity is `current - previous`, so it goes into the current field.
    pub(crate) fn press(&mut self, centre: [f32; 2], radius: f32, impulse: f32) {
        let (width, height) = (self.width, self.height);
        body::Press::new(centre, radius, impulse).into_f32(&mut self.current, width, height);
    }

    /// The body of a leapfrog step: `row_step(y, current, out)` for every interior row `y`, in
    /// parallel, with `out` row `y` of the previous field, which it overwrites with the next
    /// field's. Border rows stay as they are (at rest).
    pub(crate) fn step_rows(&mut self, row_step: impl Fn(usize, &[f32], &mut [f32]) + Sync + Send) {
        let Self {
            width,
            height,
            current,
            previous,
        } = self;
        let current = &*current;
        parallel::for_each_interior_row(previous, *width, *height, |y, out| {
            row_step(y, current, out)
        });
    }

    /// The end of a leapfrog step: the new field (written into `previous`) becomes the current
    /// one, walls are held at rest in both fields and the sponge damps both.
    pub(crate) fn finish_step(&mut self, obstacles: &Obstacles, sponge: Option<&Sponge>) {
        std::mem::swap(&mut self.current, &mut self.previous);
        if !obstacles.is_empty() {
            self.dry(obstacles);
        }
        if let Some(sponge) = sponge {
            sponge.apply_f32(&mut self.current, self.width, self.height);
            sponge.apply_f32(&mut self.previous, self.width, self.height);
        }
    }

    /// Presses a stone: a smooth dent of depth `strength` and radius `radius` cells centred on
    /// `(x, y)`, the raised cosine `-strength * (0.5 + 0.5 cos(pi d / radius))` for cells at a
    /// distance `d < radius`.
    ///
    /// The stone presses the water down to the dent: a cell takes the dent's value where that
    /// is deeper than the water already there, in both fields, so the dent starts at rest;
    /// where the water is already lower it is left alone. (Setting rather than adding keeps a
    /// swipe, a trail of overlapping stones, as deep as one stone.) A negative `strength`
    /// raises a bump the same way. Only interior cells are touched: a stone reaching past the
    /// edge is clipped, one entirely outside, a radius of 0 or a non-finite strength does
    /// nothing.
    pub(crate) fn press_stone(&mut self, (x, y): (i32, i32), radius: u32, strength: f32) {
        let (width, height) = (self.width, self.height);
        if width < 3 || height < 3 || radius == 0 || !strength.is_finite() || strength == 0.0 {
            return;
        }
        let r = i64::from(radius).min(MAX_USEFUL_RADIUS);
        let (x, y) = (i64::from(x), i64::from(y));
        // Cells with |dx| < r and |dy| < r, clipped to the interior [1, size - 1).
        let x_start = (x - r + 1).max(1);
        let x_end = (x + r).min(width as i64 - 1);
        let y_start = (y - r + 1).max(1);
        let y_end = (y + r).min(height as i64 - 1);
        let r_squared = r * r;
        let to_phase = std::f64::consts::PI / r as f64;
        let depth = -f64::from(strength);
        for py in y_start..y_end {
            let dy = py - y;
            let start = py as usize * width;
            let current = &mut self.current[start..start + width];
            let previous = &mut self.previous[start..start + width];
            for px in x_start..x_end {
                let dx = px - x;
                let d_squared = dx * dx + dy * dy;
                if d_squared >= r_squared {
                    continue;
                }
                press_cell(
                    (current, previous),
                    px as usize,
                    d_squared,
                    (depth, to_phase),
                );
            }
        }
    }

    /// What a stone of `radius` and `strength` pressed at each of `cells` (a swipe's path) does,
    /// as [`press_stone`](Self::press_stone) at each would, in one pass over the cells near the
    /// path (see [`crate::disturbances::swipe`]): a cell's dent depends only on its distance to
    /// the nearest path cell.
    pub(crate) fn press_swept(&mut self, cells: &[[i32; 2]], radius: u32, strength: f32) {
        let (width, height) = (self.width, self.height);
        if width < 3 || height < 3 || radius == 0 || !strength.is_finite() || strength == 0.0 {
            return;
        }
        let r = i64::from(radius).min(MAX_USEFUL_RADIUS);
        let to_phase = std::f64::consts::PI / r as f64;
        let depth = -f64::from(strength);
        let fields = (&mut self.current[..], &mut self.previous[..]);
        swipe::nearest_squared_distances(cells, width, height, r, |index, d_squared| {
            press_cell((fields.0, fields.1), index, d_squared, (depth, to_phase));
        });
    }
}

/// The [`WaterSolver`] of a solver that keeps its water in a [`TwoFields`] field named
/// `water` and steps on the calling thread with `step_here(obstacles, sponge)`, and the typed
/// accessors of its fields: what the wave and dispersive solvers share, forwarded to the fields (the seal's `dry` and `raise`, size,
/// heights, loading, calm, driven cells, swipes, the raised-cosine stone's depth, the step on
/// the workers), followed by the methods given, which are each solver's own (`drop_stone`,
/// `apply_pressure`).
macro_rules! two_fields_solver {
    ($solver:ty, $kind:expr; $($own:tt)*) => {
        impl $solver {
            /// The height above rest of every cell now, row-major (`i = y * width + x`).
            pub fn heights(&self) -> &[f32] {
                &self.water.current
            }

            /// The heights one leapfrog step ago, row-major: one step, or one substep of the
            /// wave solver (the same at speeds up to [`MAX_COURANT`](crate::limits::MAX_COURANT)).
            pub fn previous_heights(&self) -> &[f32] {
                &self.water.previous
            }

            /// Both fields, for callers that load or edit a state directly.
            ///
            /// Border cells are never updated by [`step`](crate::WaterSolver::step) and are
            /// expected to be 0; the current field minus the previous one is the velocity per
            /// leapfrog step.
            pub fn fields_mut(&mut self) -> $crate::simulation::interface::Fields<'_, f32> {
                self.water.fields_mut()
            }
        }

        impl $crate::simulation::interface::sealed::Internal for $solver {
            fn dry(&mut self, obstacles: &$crate::simulation::boundary::Obstacles) {
                self.water.dry(obstacles);
            }

            fn raise(&mut self, cells: &[(usize, f32)], sign: f32) {
                self.water.raise(cells, sign);
            }
        }

        impl $crate::simulation::interface::WaterSolver for $solver {
            fn kind(&self) -> $crate::simulation::solver::SolverKind {
                $kind
            }

            fn width(&self) -> u32 {
                self.water.width as u32
            }

            fn height(&self) -> u32 {
                self.water.height as u32
            }

            fn heights_view(&self) -> $crate::looks::Heights<'_> {
                $crate::looks::Heights::F32(&self.water.current)
            }

            fn set_heights(
                &mut self,
                heights: $crate::looks::Heights<'_>,
            ) -> Result<(), $crate::error::Error> {
                self.water.set_heights(heights, $kind)
            }

            fn calm(&mut self) {
                self.water.calm();
            }

            fn is_calm_within(&self, tolerance: f32) -> bool {
                self.water.is_calm_within(tolerance)
            }

            /// [`Solver::WAVE_STONE_DEPTH`](crate::Solver::WAVE_STONE_DEPTH): the raised cosine
            /// holds the water of the classic flat disk that much shallower.
            fn stone_depth(&self) -> f32 {
                $crate::simulation::solver::Solver::WAVE_STONE_DEPTH
            }

            /// A stone (as `drop_stone`) at every cell of a path narrower
            /// than 16 cells (`SWEEP_RADIUS`); a wider one is swept through the path's
            /// distance transform, which presses the raised-cosine dents only (the dispersive
            /// solver's rims belong to one centre and are not raised).
            fn swipe_path(
                &mut self,
                points: &mut dyn Iterator<Item = [i32; 2]>,
                radius: u32,
                strength: f32,
            ) {
                $crate::simulation::two_fields::swipe_stones(
                    self,
                    |solver| &mut solver.water,
                    points,
                    radius,
                    strength,
                );
            }

            fn set_height(&mut self, x: i32, y: i32, value: f32) {
                self.water.set_height(x, y, value);
            }

            /// Advances the water by one step (the solver's `step_here`), with the walls held
            /// at rest in both fields and the sponge applied to both after every leapfrog
            /// step; without a sponge the border cells stay 0 and the edges reflect.
            fn step(
                &mut self,
                obstacles: &$crate::simulation::boundary::Obstacles,
                sponge: Option<&$crate::simulation::boundary::Sponge>,
            ) {
                let cells = self.water.width * self.water.height;
                $crate::parallel::on_workers(cells, || self.step_here(obstacles, sponge));
            }

            $($own)*
        }
    };
}
pub(crate) use two_fields_solver;

/// Drags a stone along `points` through a solver that keeps [`TwoFields`] (found by `fields`):
/// the solver's own stone at each cell of a narrow path (the dispersive solver's with its rims),
/// the dents alone swept through the distance transform of a wide one (see
/// [`swipe::press_path`]).
pub(crate) fn swipe_stones<S: WaterSolver>(
    solver: &mut S,
    fields: fn(&mut S) -> &mut TwoFields,
    points: &mut dyn Iterator<Item = [i32; 2]>,
    radius: u32,
    strength: f32,
) {
    let size = {
        let water = fields(solver);
        (water.width, water.height)
    };
    swipe::press_path(
        solver,
        points,
        size,
        radius,
        |solver, x, y| solver.drop_stone(x, y, radius, strength),
        |solver, cells, _| fields(solver).press_swept(cells, radius, strength),
    );
}

/// Presses cell `cell` (of the rows `current` and `previous`) `d_squared` cells² from a stone's
/// centre: the raised cosine of `depth` over the radius (`to_phase` = pi / radius), where it is
/// deeper than the water there (higher, for a negative depth).
fn press_cell(
    (current, previous): (&mut [f32], &mut [f32]),
    cell: usize,
    d_squared: i64,
    (depth, to_phase): (f64, f64),
) {
    let d = (d_squared as f64).sqrt();
    let dent = (depth * (0.5 + 0.5 * (d * to_phase).cos())) as f32;
    let deeper = if depth < 0.0 {
        dent < current[cell]
    } else {
        dent > current[cell]
    };
    if deeper {
        current[cell] = dent;
        previous[cell] = dent;
    }
}

/// `sum u * (-L p)` over every cell of a `width x height` grid, `L` the isotropic 9-point
/// Laplacian `(4 (N + S + E + W) + (NE + NW + SE + SW) - 20 p) / 6` with zeros beyond the grid:
/// the potential part of both leapfrog solvers' energies (for the 9-point stencil it is a
/// weighted sum over neighbour pairs of `(u_i - u_j)(p_i - p_j)`).
pub(crate) fn minus_laplacian_dot(u: &[f32], p: &[f32], (width, height): (usize, usize)) -> f64 {
    let at = |row: Option<&[f32]>, x: usize, dx: isize| -> f64 {
        let x = x as isize + dx;
        match row {
            Some(row) if x >= 0 && (x as usize) < width => f64::from(row[x as usize]),
            _ => 0.0,
        }
    };
    fn row_of(field: &[f32], y: isize, (width, height): (usize, usize)) -> Option<&[f32]> {
        (y >= 0 && (y as usize) < height)
            .then(|| &field[y as usize * width..(y as usize + 1) * width])
    }
    let size = (width, height);
    let mut sum = 0.0;
    for y in 0..height {
        let here = row_of(u, y as isize, size);
        let above = row_of(p, y as isize - 1, size);
        let middle = row_of(p, y as isize, size);
        let below = row_of(p, y as isize + 1, size);
        for x in 0..width {
            let edges = at(above, x, 0) + at(below, x, 0) + at(middle, x, -1) + at(middle, x, 1);
            let corners = at(above, x, -1) + at(above, x, 1) + at(below, x, -1) + at(below, x, 1);
            let minus_laplacian = (20.0 * at(middle, x, 0) - 4.0 * edges - corners) / 6.0;
            sum += at(here, x, 0) * minus_laplacian;
        }
    }
    sum
}
