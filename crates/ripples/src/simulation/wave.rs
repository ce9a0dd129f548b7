//! A physical solver: the damped 2D wave equation on an `f32` grid, with a wave speed and a
//! damping you can set in real units.
//!
//! The classic solver has one fixed speed (its update is leapfrog on the 5-point stencil with
//! `(c dt)^2 = 1/2`, about 0.71 cells per step, right at that stencil's stability limit) and a
//! damping in powers of two. This one is shaped by three requirements:
//!
//! - **Round rings.** The Laplacian is the isotropic 9-point stencil
//!   `L = (4 (N + S + E + W) + (NE + NW + SE + SW) - 20 u) / 6`, whose leading error term
//!   (`h^2/12 * Laplacian^2`) is the same in every direction; the 5-point stencil's is not.
//!   Stones are raised cosines rather than flat disks, so little energy sits in the short
//!   wavelengths where any stencil is anisotropic and slow. Measured in `tests/it/wave.rs` (a
//!   stone of radius 4, the front 66 and 128 cells out): the fronts along the axes and along
//!   the diagonals are within 0.1% of each other; the 5-point stencil gives 1.1% to 1.5%.
//! - **Any speed up to [`MAX_WAVE_SPEED`].** Leapfrog with this stencil is stable while
//!   `k * 16/3 < 4`, where `k = (c dt)^2` and `16/3` is the stencil's largest eigenvalue (the
//!   checkerboard mode), i.e. for a Courant number below `sqrt(3/4) ~ 0.866`. A step is split into
//!   `n = ceil(speed / MAX_COURANT)` substeps with [`MAX_COURANT`] `= 0.75`, which keeps a 13%
//!   margin below the limit (so `k * 16/3 <= 3`) while staying close to it: the leapfrog time
//!   error cancels part of the stencil's dispersion, and it cancels more the larger the Courant
//!   number is.
//! - **Exact damping, conserved energy.** Each substep computes
//!   `u_next = a (2u + k L(u)) - a^2 u_prev` with `a = (1 - damping)^(1/n)`. Writing
//!   `u = a^t v` turns this into undamped leapfrog for `v`, so every mode's characteristic roots
//!   have modulus exactly `a`: every wave loses exactly the fraction `damping` of its amplitude
//!   per step, whatever its wavelength and whatever the substep count. With damping 0 the
//!   scheme conserves the discrete energy of [`WaveSolver::energy`] exactly (up to `f32`
//!   rounding), which the tests check over 10,000 steps.
//!
//! Like the classic solver it keeps two fields (the [`TwoFields`] it shares with the dispersive
//! solver, with the stones, swipes and walls done to them), writes the next field over the previous one
//! row by row and swaps them, so a step never allocates. A row only reads the current field, so
//! the rows run in strips on rayon's threads with the same result on any number of threads, and
//! the row kernel is [`crate::kernels::f32_rows::wave_step_row`], vectorised per backend: a
//! 1920x1080 substep takes about 0.6 ms on one thread here with AVX2 (0.85 ms with the baseline
//! SSE2 instructions, as before this was a kernel) and about 0.35 ms on two. Border cells are
//! never written and stay 0 (a reflecting edge); walls are forced to 0 after every substep ([`crate::Obstacles`]), and
//! an absorbing edge multiplies both fields by the sponge's factors after every substep
//! ([`crate::Sponge`]).

use crate::error::Error;
use crate::kernels::{self, f32_rows::WaveCoefficients};
use crate::limits::{MAX_COURANT, MAX_WAVE_SPEED, check_size};
use crate::parallel;
use crate::simulation::boundary::{Obstacles, Sponge};
use crate::simulation::solver::SolverKind;
use crate::simulation::two_fields::{
    TwoFields, check_damping, minus_laplacian_dot, two_fields_solver,
};

/// A solver of the damped 2D wave equation on an `f32` grid.
///
/// Heights are measured from the rest level; a stone presses a dent (negative heights).
///
/// ```
/// use ripples::{Obstacles, WaterSolver, WaveSolver};
///
/// let mut water = WaveSolver::new(64, 48)?;
/// water.set_wave_speed(1.5)?; // cells per step, taken in 2 substeps
/// water.drop_stone(32, 24, 4, 100.0);
/// let walls = Obstacles::new(64, 48).unwrap();
/// for _ in 0..10 {
///     water.step(&walls, None);
/// }
/// assert!(water.heights().iter().any(|&h| h != 0.0));
/// # Ok::<(), ripples::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct WaveSolver {
    wave_speed: f32,
    damping: f32,
    /// Substeps per step.
    substeps: u32,
    /// `(wave_speed / substeps)^2`.
    courant_squared: f32,
    /// The amplitude kept per substep, `(1 - damping)^(1 / substeps)`.
    keep: f32,
    /// The heights now and one substep ago.
    water: TwoFields,
}

impl WaveSolver {
    /// Default wave speed, in cells per step.
    pub const DEFAULT_WAVE_SPEED: f32 = 0.5;
    /// Default damping: the fraction of amplitude lost per step.
    pub const DEFAULT_DAMPING: f32 = 0.005;

    /// Calm water on a `width x height` grid, with
    /// [`DEFAULT_WAVE_SPEED`](Self::DEFAULT_WAVE_SPEED) and
    /// [`DEFAULT_DAMPING`](Self::DEFAULT_DAMPING).
    ///
    /// Fails if a side is 0 or the grid exceeds [`MAX_SIDE`](crate::limits::MAX_SIDE) / [`MAX_CELLS`](crate::limits::MAX_CELLS);
    /// the check happens before any allocation.
    pub fn new(width: u32, height: u32) -> Result<Self, Error> {
        let (width, height) = check_size(u64::from(width), u64::from(height))?;
        let mut solver = Self {
            wave_speed: Self::DEFAULT_WAVE_SPEED,
            damping: Self::DEFAULT_DAMPING,
            substeps: 1,
            courant_squared: 0.0,
            keep: 1.0,
            water: TwoFields::new(width as usize, height as usize),
        };
        solver.update_coefficients();
        Ok(solver)
    }

    /// Sets the wave speed in cells per step: `0 < speed <= 4` ([`MAX_WAVE_SPEED`]).
    ///
    /// Speeds above [`MAX_COURANT`] are taken in several substeps (see
    /// [`substeps`](Self::substeps)), so a step costs more the faster the waves are.
    pub fn set_wave_speed(&mut self, cells_per_step: f32) -> Result<(), Error> {
        if !cells_per_step.is_finite() || cells_per_step <= 0.0 || cells_per_step > MAX_WAVE_SPEED {
            return Err(Error::not_allowed(
                "wave speed",
                cells_per_step,
                format!("a number in (0, {MAX_WAVE_SPEED}] cells per step"),
            ));
        }
        self.wave_speed = cells_per_step;
        self.update_coefficients();
        Ok(())
    }

    /// The wave speed, in cells per step.
    pub fn wave_speed(&self) -> f32 {
        self.wave_speed
    }

    /// Sets the damping: the fraction of amplitude every wave loses per step, `0 <= d < 1`.
    ///
    /// 0 is lossless water (the waves run until an absorbing edge takes them).
    pub fn set_damping(&mut self, fraction_per_step: f32) -> Result<(), Error> {
        self.damping = check_damping(fraction_per_step)?;
        self.update_coefficients();
        Ok(())
    }

    /// The damping, as the fraction of amplitude lost per step.
    pub fn damping(&self) -> f32 {
        self.damping
    }

    /// Leapfrog substeps per step: `ceil(wave_speed / MAX_COURANT)`.
    pub fn substeps(&self) -> u32 {
        self.substeps
    }

    /// The constants of one substep, for a GPU that steps this solver (the page's
    /// `web/gl/water-steps.glsl.js`, WAVE_STEP): [`substeps`](Self::substeps) of them make
    /// a step.
    pub fn coefficients(&self) -> WaveCoefficients {
        step_coefficients(self.courant_squared, self.keep)
    }

    /// What a body's `impulse` per step adds to the current field, once a step: its share of
    /// one substep (leapfrog's velocity is `current - previous` per substep).
    pub fn impulse_per_substep(&self, impulse: f32) -> f32 {
        impulse / self.substeps as f32
    }

    /// [`step`](crate::WaterSolver::step) on the calling thread (see [`parallel::on_workers`]):
    /// [`substeps`](Self::substeps) leapfrog substeps, each followed by the walls and the sponge.
    fn step_here(&mut self, obstacles: &Obstacles, sponge: Option<&Sponge>) {
        let (width, height) = (self.water.width, self.water.height);
        if width < 3 || height < 3 {
            return;
        }
        let coefficients = self.coefficients();
        let backend = kernels::backend();
        for _ in 0..self.substeps {
            // Border rows stay 0.
            self.water.step_rows(|y, current, out| {
                let rows = parallel::rows_around(current, y, width);
                kernels::f32_rows::wave_step_row(backend, rows, out, &coefficients);
            });
            self.water.finish_step(obstacles, sponge);
        }
    }

    /// The energy of the water: kinetic plus potential, summed over the grid, in units of
    /// height² (per step²), as the leapfrog scheme conserves it.
    ///
    /// With `u` the current field, `p` the previous one (one substep apart), `n` substeps and
    /// speed `c`:
    ///
    /// ```text
    /// E = 1/2 sum (n (u - p))^2  +  1/2 c^2 sum u * (-L p)
    /// ```
    ///
    /// The first term is the kinetic energy with the velocity in height per step; the second is
    /// the potential energy, the staggered product of the gradients of `u` and `p` (for the
    /// 9-point stencil `sum u (-L p)` is a weighted sum over neighbour pairs of
    /// `(u_i - u_j)(p_i - p_j)`). This form, not the one with `u` alone, is the one leapfrog keeps
    /// constant when damping is 0 and nothing drives the water: walls and edges reflect without
    /// loss, so only damping and the sponge take energy away. It is positive because the
    /// Courant number stays below the stability limit. Heights at rest (`u = p`) have only
    /// potential energy.
    pub fn energy(&self) -> f64 {
        let TwoFields {
            width,
            height,
            current,
            previous,
        } = &self.water;
        let n = f64::from(self.substeps);
        let kinetic: f64 = current
            .iter()
            .zip(previous)
            .map(|(&u, &p)| {
                let v = f64::from(u) - f64::from(p);
                v * v
            })
            .sum();
        let potential = if *width >= 3 && *height >= 3 {
            minus_laplacian_dot(current, previous, (*width, *height))
        } else {
            0.0
        };
        let speed = f64::from(self.wave_speed);
        0.5 * n * n * kinetic + 0.5 * speed * speed * potential
    }

    /// Recomputes the substep count and the per-substep coefficients from speed and damping.
    fn update_coefficients(&mut self) {
        let speed = f64::from(self.wave_speed);
        let substeps = (speed / f64::from(MAX_COURANT)).ceil().max(1.0);
        self.substeps = substeps as u32;
        self.courant_squared = ((speed / substeps) * (speed / substeps)) as f32;
        self.keep = (1.0 - f64::from(self.damping)).powf(1.0 / substeps) as f32;
    }
}

two_fields_solver! {
    WaveSolver, SolverKind::Wave;

    /// Presses the smooth dent of the two-field solvers: the raised cosine
    /// `-strength * (0.5 + 0.5 cos(pi d / radius))` at a distance `d < radius`, at rest, where
    /// it is deeper than the water already there (so a swipe is as deep as one stone).
    fn drop_stone(&mut self, x: i32, y: i32, radius: u32, strength: f32) {
        self.water.press_stone((x, y), radius, strength);
    }

    fn apply_pressure(&mut self, centre: [f32; 2], radius: f32, impulse: f32, _seed: u64) {
        self.water
            .press(centre, radius, self.impulse_per_substep(impulse));
    }
}

/// The constants of one substep, folded so the row kernel does 4 multiplies per cell.
fn step_coefficients(courant_squared: f32, keep: f32) -> WaveCoefficients {
    let k = f64::from(courant_squared);
    let keep = f64::from(keep);
    WaveCoefficients {
        centre: (keep * (2.0 - 20.0 * k / 6.0)) as f32,
        edge: (keep * 4.0 * k / 6.0) as f32,
        corner: (keep * k / 6.0) as f32,
        previous: (keep * keep) as f32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulation::interface::WaterSolver;

    #[test]
    fn substeps_follow_the_courant_limit() {
        let mut water = WaveSolver::new(8, 8).unwrap();
        for (speed, substeps) in [(0.5, 1), (0.75, 1), (0.76, 2), (1.0, 2), (2.0, 3), (4.0, 6)] {
            water.set_wave_speed(speed).unwrap();
            assert_eq!(water.substeps(), substeps, "speed {speed}");
            let per_substep = speed / substeps as f32;
            assert!(per_substep <= MAX_COURANT, "speed {speed}");
        }
    }

    #[test]
    fn one_substep_matches_the_formula_by_hand() {
        // A 5x5 grid with one cell at the centre; speed 0.5 (k = 0.25), damping 0.
        let mut water = WaveSolver::new(5, 5).unwrap();
        water.set_damping(0.0).unwrap();
        water.set_height(2, 2, 6.0);
        water.step(&Obstacles::new(5, 5).unwrap(), None);
        let h = water.heights();
        // Centre: 2*6 + 0.25 * (-20*6/6) - 0 = 12 - 5 = 7.
        assert!((h[12] - 7.0).abs() < 1e-5, "{}", h[12]);
        // Edge neighbour: 0.25 * 4*6/6 = 1; corner neighbour: 0.25 * 6/6 = 0.25.
        assert!((h[7] - 1.0).abs() < 1e-6, "{}", h[7]);
        assert!((h[6] - 0.25).abs() < 1e-6, "{}", h[6]);
        assert!(h[..5].iter().all(|&v| v == 0.0), "the border stays 0");
    }

    #[test]
    fn damping_scales_a_step_by_exactly_the_kept_fraction() {
        // The same state stepped with and without damping: u_next(d) = a (2u + kLu) - a^2 p.
        let mut lossless = WaveSolver::new(9, 9).unwrap();
        lossless.set_damping(0.0).unwrap();
        lossless.drop_stone(4, 4, 3, 10.0);
        let mut damped = lossless.clone();
        damped.set_damping(0.2).unwrap();
        let walls = Obstacles::new(9, 9).unwrap();
        lossless.step(&walls, None);
        damped.step(&walls, None);
        // Started at rest (u = p), so u_next(d) = 0.8 * (2u + kLu) - 0.64 u, and
        // u_next(0) = 2u + kLu - u.
        let (p, l, d) = (
            lossless.previous_heights(),
            lossless.heights(),
            damped.heights(),
        );
        for i in 0..81 {
            let expected = 0.8 * (l[i] + p[i]) - 0.64 * p[i];
            assert!(
                (d[i] - expected).abs() < 1e-4,
                "cell {i}: {} vs {expected}",
                d[i]
            );
        }
    }
}
