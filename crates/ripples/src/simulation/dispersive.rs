//! A dispersive solver: linear deep-water waves, `omega^2 = g k`, so long waves outrun short ones
//! and a stone makes a spreading train of rings instead of one ring.
//!
//! The heights obey `d^2 u / dt^2 = -g sqrt(-Laplacian) u`. The step is leapfrog,
//! `u_next = keep (2 u - g G u) - keep^2 u_prev`, with `G` a grid approximation of
//! `sqrt(-Laplacian)` (Fourier symbol `|k|`) and `keep = 1 - damping`, so that, as in the wave
//! solver, every wave loses exactly the fraction `damping` of its amplitude per step.
//!
//! **Why this `G`: measured before it was built.** The target is `omega^2 = g k` within 10% for
//! wavelengths of 6 to 200 cells, i.e. the symbol of `G` within about 20% of `|k|` for
//! `k` in 0.031..1.05 (a ratio of 33), in every direction. The symbols were computed on the
//! grid (the discrete Fourier transform of each operator), in the 0°, 22.5° and 45° directions:
//!
//! - **Tessendorf's iWave kernel** (13x13, `sigma = 1`, best overall scale): `omega` is 0.52 of
//!   `sqrt(g k)` at 6 cells, 0.84 at 20, 1.06 at 50, 1.42 at 100 and 1.98 at 200. A finite kernel
//!   has a smooth symbol, so it goes like `k^2` (not `|k|`) for waves longer than itself; a
//!   kernel reaching 200-cell waves would need some 40x40 taps, far from real time.
//! - **A Gaussian pyramid** (this module, in the spirit of Ottosson's Laplacian-pyramid water):
//!   `1 / |k| = 2/sqrt(pi) * integral of exp(-k^2 s^2) ds`, and on a log scale of `s` the integral
//!   is a sum of Gaussian blurs at scales doubling from one to the next, which is what a
//!   pyramid computes for about 4/3 of the cost of one level. So
//!   `G u = -L (sum_l w_l U^l D^l u)`: `D` filters with the binomial `[1,6,15,20,15,6,1]/64`
//!   per axis and keeps every second cell, `U` is its transpose times 4, `L` the isotropic
//!   9-point Laplacian of the wave solver, eight levels (`l = 0..8`, blurs over a hundred cells
//!   wide). The weights [`LEVEL_WEIGHTS`] were fitted (non-negative least squares on the
//!   symbols, 120 wavelengths from 5 to 260 cells, 7 directions): `omega` within 0.4% of
//!   `sqrt(g k)` and the group speed within 4% of `sqrt(g / k) / 2` from 6 to 200 cells in every
//!   direction. Measured on plane waves (`tests/it/dispersive.rs`, aliasing included): within 0.7%.
//!
//! **Why 7 taps: aliasing, seen and measured.** Keeping every second cell folds a little of each
//! wave into others, and going up again leaks a little of each long wave into short waves along
//! the axes. With the 5-tap binomial `[1,4,6,4,1]/16` (the first version; same cost per tap, a
//! third fewer taps) the short waves a stone leaves at the centre of its rings drew a square,
//! grid-locked plaid, plain on a photograph: 40 steps after a stone of radius 6, its 6-cell
//! waves were 3.7 times stronger along the axes than along the diagonals, where an exact
//! spectral `|k|` (FFT, periodic) has them at 1.5 times, as the stone put them in. Measured on a
//! Python model of this pyramid with other filters: 7 taps 1.9 times, 7 taps on the grid and 9
//! on coarser levels 1.6; but the narrower a filter's band, the more the sum of levels
//! ripples: with the 9-tap levels the group speed is off by up to 10%, which widened a body's
//! Kelvin wake to 21.9 degrees at Froude 0.41 where the spectral operator gives 19.9. The 7-tap pyramid gives 19.8 there (18.3 at Froude
//! 0.82; spectral 18.4), so it is the one: cleaner rings and truer wakes than 5 taps, for about
//! a third more work in the pyramid.
//!
//! `U` being `D`'s transpose (cells beyond the edge are 0 both ways) makes `S = sum w_l U^l D^l`
//! symmetric positive definite (`w_0 > 0`), so `G = -L S` has real non-negative eigenvalues, the
//! largest 4.26 (power iteration): leapfrog is stable for `g * 4.26 < 4`; [`MAX_GRAVITY`] 0.5
//! keeps a margin of 1.9, and leapfrog's own time error, `2 asin(omega / 2)` instead of
//! `omega`, is under 3% at 6 cells there. With damping 0 and no walls or sponge the step
//! conserves the energy of [`DispersiveSolver::energy`] exactly (up to `f32` rounding).
//!
//! Walls are forced to rest after every step and the sponge damps both fields, as in the wave
//! solver. `G` is not local (it sees some 100 cells around), so a thin wall lets a little of a
//! long wave's pressure through: the wall cells themselves stay at rest and reflect.
//!
//! Every pass of a step (down, up, the leapfrog) is a row kernel in
//! [`crate::kernels::dispersive`], element-wise but for the horizontal decimation, run in strips
//! of rows on rayon's threads, so the result does not depend on the number of threads.

use crate::error::Error;
use crate::kernels::dispersive::{DispersiveCoefficients, FILTER};
use crate::kernels::{self, Backend};
use crate::limits::check_size;
use crate::parallel;
use crate::simulation::boundary::{Obstacles, Sponge};
use crate::simulation::solver::SolverKind;
use crate::simulation::two_fields::{
    TwoFields, check_damping, minus_laplacian_dot, two_fields_solver,
};

/// Largest gravity, in cells per step²: half the stability limit of the leapfrog step.
pub const MAX_GRAVITY: f32 = 0.5;

/// Weights of the pyramid's levels (level 0 is the field itself), fitted so that
/// `-L sum w_l U^l D^l` has the symbol `|k|` (see the module documentation).
pub const LEVEL_WEIGHTS: [f32; 8] = [
    0.800_331_8,
    1.346_201,
    2.237_982_5,
    4.545_674_3,
    8.882_964,
    18.014_538,
    35.094_444,
    78.555_695,
];

/// One level of the pyramid and its scratch fields.
#[derive(Debug, Clone)]
struct Level {
    width: usize,
    height: usize,
    /// This level's band, `D^l u` (unused at level 0, where the band is the heights).
    band: Vec<f32>,
    /// `sum_{m >= l} w_m U^{m-l} D^m u`: the smoothed field at this level.
    smoothed: Vec<f32>,
    /// This level's width times the next level's height: the band filtered along y on the way
    /// down, then the next level's smoothed field expanded along x on the way up.
    between: Vec<f32>,
}

/// A solver of linear deep-water waves on an `f32` grid: `omega^2 = gravity * k`.
///
/// ```
/// use ripples::{DispersiveSolver, Obstacles, WaterSolver};
///
/// let mut water = DispersiveSolver::new(64, 48)?;
/// water.set_gravity(0.2)?; // cells per step²
/// water.drop_stone(32, 24, 4, 100.0);
/// let walls = Obstacles::new(64, 48).unwrap();
/// for _ in 0..10 {
///     water.step(&walls, None);
/// }
/// assert!(water.heights().iter().any(|&h| h != 0.0));
/// # Ok::<(), ripples::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DispersiveSolver {
    gravity: f32,
    damping: f32,
    /// The heights now and one step ago.
    water: TwoFields,
    levels: Vec<Level>,
    /// A row of zeros as long as the widest level, for rows beyond the edges.
    zeros: Vec<f32>,
}

impl DispersiveSolver {
    /// Default gravity, in cells per step²: a 30-cell ripple moves 0.7 cells per step, a
    /// 200-cell swell 1.8.
    pub const DEFAULT_GRAVITY: f32 = 0.1;
    /// Default damping: the fraction of amplitude lost per step.
    pub const DEFAULT_DAMPING: f32 = 0.005;
    /// The weights of the pyramid's levels (see the solver's documentation), for a GPU that
    /// steps this solver (the page's `web/gl/water-steps.glsl.js`).
    pub const LEVEL_WEIGHTS: [f32; 8] = LEVEL_WEIGHTS;

    /// Calm water on a `width x height` grid with [`DEFAULT_GRAVITY`](Self::DEFAULT_GRAVITY)
    /// and [`DEFAULT_DAMPING`](Self::DEFAULT_DAMPING). Fails as [`crate::WaveSolver::new`] does.
    pub fn new(width: u32, height: u32) -> Result<Self, Error> {
        let (width, height) = check_size(u64::from(width), u64::from(height))?;
        let (width, height) = (width as usize, height as usize);
        let mut sizes = vec![(width, height)];
        while sizes.len() < LEVEL_WEIGHTS.len() {
            let (w, h) = sizes[sizes.len() - 1];
            if w.min(h) <= 2 {
                break;
            }
            sizes.push((w.div_ceil(2), h.div_ceil(2)));
        }
        let levels = sizes
            .iter()
            .enumerate()
            .map(|(l, &(w, h))| {
                let next_height = sizes.get(l + 1).map_or(0, |s| s.1);
                Level {
                    width: w,
                    height: h,
                    band: if l == 0 { Vec::new() } else { vec![0.0; w * h] },
                    smoothed: vec![0.0; w * h],
                    between: vec![0.0; w * next_height],
                }
            })
            .collect();
        Ok(Self {
            gravity: Self::DEFAULT_GRAVITY,
            damping: Self::DEFAULT_DAMPING,
            water: TwoFields::new(width, height),
            levels,
            zeros: vec![0.0; width],
        })
    }

    /// Sets gravity in cells per step²: `0 < gravity <= 0.5` ([`MAX_GRAVITY`]). A wave of
    /// wavelength `lambda` cells then has the angular frequency `sqrt(gravity * 2 pi / lambda)`
    /// per step.
    pub fn set_gravity(&mut self, cells_per_step_squared: f32) -> Result<(), Error> {
        let g = cells_per_step_squared;
        if !g.is_finite() || g <= 0.0 || g > MAX_GRAVITY {
            return Err(Error::not_allowed(
                "gravity",
                g,
                format!("a number in (0, {MAX_GRAVITY}] cells per step²"),
            ));
        }
        self.gravity = g;
        Ok(())
    }

    /// Gravity, in cells per step².
    pub fn gravity(&self) -> f32 {
        self.gravity
    }

    /// Sets the damping: the fraction of amplitude every wave loses per step, `0 <= d < 1`.
    pub fn set_damping(&mut self, fraction_per_step: f32) -> Result<(), Error> {
        self.damping = check_damping(fraction_per_step)?;
        Ok(())
    }

    /// The damping, as the fraction of amplitude lost per step.
    pub fn damping(&self) -> f32 {
        self.damping
    }

    /// The constants of one leapfrog step from the gravity and the damping (`keep = 1 -
    /// damping`): `2 keep`, `keep * gravity` and `keep^2`. A GPU that steps this solver (the
    /// page's `web/gl/water-steps.glsl.js`) takes them from here.
    pub fn coefficients(&self) -> DispersiveCoefficients {
        let keep = 1.0 - f64::from(self.damping);
        DispersiveCoefficients {
            current: (2.0 * keep) as f32,
            laplacian: (keep * f64::from(self.gravity)) as f32,
            previous: (keep * keep) as f32,
        }
    }

    /// The rims of a stone of `radius` cells at cell `(x, y)`, as
    /// [`drop_stone`](crate::WaterSolver::drop_stone) raises them, for a GPU that steps this
    /// solver (the page's `web/gl/water-steps.glsl.js`): the stone presses its dent where it
    /// is deeper than the water and then raises two rims at rest, from one to two radii and
    /// from two to three, that put back the volume and the second moment (about its centre)
    /// the dent pushed aside; those depend on the water under the dent, which the GPU sums, and
    /// the rims' own shape on the grid only (cut at its edges), which this gives.
    pub fn stone_rims(&self, x: i32, y: i32, radius: u32) -> StoneRims {
        let bounds = rim_bounds(&self.water, (x, y), radius);
        let ((x0, x1), (y0, y1)) = bounds;
        let rims = rim_moments((x, y), radius, bounds);
        let [[v0, m0], [v1, m1]] = rims;
        let det = v0 * m1 - v1 * m0;
        let solve = if rims_apart(rims) {
            [m1 / det, -v1 / det, -m0 / det, v0 / det]
        } else if v0 + v1 > 0.0 {
            let share = 1.0 / (v0 + v1);
            [share, 0.0, share, 0.0]
        } else {
            [0.0; 4]
        };
        StoneRims {
            cells: [x0, x1, y0, y1],
            solve,
        }
    }

    /// [`step`](crate::WaterSolver::step) on the calling thread (see [`parallel::on_workers`]).
    fn step_here(&mut self, obstacles: &Obstacles, sponge: Option<&Sponge>) {
        let (width, height) = (self.water.width, self.water.height);
        if width < 3 || height < 3 {
            return;
        }
        let backend = kernels::backend();
        smooth(&self.water.current, &mut self.levels, &self.zeros, backend);
        let coefficients = self.coefficients();
        let smoothed = &self.levels[0].smoothed;
        self.water.step_rows(|y, current, out| {
            let rows = parallel::rows_around(smoothed, y, width);
            let now = &current[y * width..(y + 1) * width];
            kernels::dispersive::dispersive_step_row(backend, rows, now, out, &coefficients);
        });
        self.water.finish_step(obstacles, sponge);
    }

    /// The dent of the stone alone, without its rims: what a swept path presses at each of
    /// its cells (the swipe test's reference).
    #[cfg(test)]
    pub(crate) fn press_dent(&mut self, x: i32, y: i32, radius: u32, strength: f32) {
        self.water.press_stone((x, y), radius, strength);
    }

    /// The energy the undamped step conserves, in height² (per step²). With `u` and `p` the
    /// current and previous fields, `S` the pyramid's smoothing and `L` the Laplacian
    /// (`G = -L S`):
    ///
    /// ```text
    /// E = 1/2 (u - p) . S (u - p)  +  1/2 g (S u) . (-L) (S p)
    /// ```
    ///
    /// Leapfrog for `S (u_next - 2u + p) = -g S (-L) S u` (symmetric `S` and `S (-L) S`) keeps
    /// this constant; walls, the sponge and damping take energy away.
    pub fn energy(&self) -> f64 {
        let water = &self.water;
        if water.width < 3 || water.height < 3 {
            return 0.0;
        }
        let mut levels = self.levels.clone();
        let backend = kernels::backend();
        let smoothed_of = |field: &[f32], levels: &mut Vec<Level>| -> Vec<f32> {
            smooth(field, levels, &self.zeros, backend);
            levels[0].smoothed.clone()
        };
        let (current, previous) = (&water.current, &water.previous);
        let velocity: Vec<f32> = current.iter().zip(previous).map(|(u, p)| u - p).collect();
        let smoothed_velocity = smoothed_of(&velocity, &mut levels);
        let smoothed_current = smoothed_of(current, &mut levels);
        let smoothed_previous = smoothed_of(previous, &mut levels);
        let kinetic: f64 = velocity
            .iter()
            .zip(&smoothed_velocity)
            .map(|(&v, &s)| f64::from(v) * f64::from(s))
            .sum();
        // S is not 0 on the border: the Laplacian over every cell, with zeros beyond.
        let size = (water.width, water.height);
        let potential = minus_laplacian_dot(&smoothed_current, &smoothed_previous, size);
        0.5 * kinetic + 0.5 * f64::from(self.gravity) * potential
    }
}

two_fields_solver! {
    DispersiveSolver, SolverKind::Dispersive;

    /// Drops a stone: the raised-cosine dent of the wave solver, at rest, and the water it
    /// pushes aside as two rims around it (from one radius to two, and from two to three),
    /// sized so that the stone moves no water in all and leaves no second moment
    /// (`sum of height * distance^2`) either.
    ///
    /// The rims are what keep the pool's edges still until a wave reaches them. `G` is not
    /// local: its widest levels spread a dent's volume over some hundred cells at once, and where
    /// that meets the border, held at rest, the step makes waves along every edge right away (a
    /// stone of radius 16 in a 400x300 pool moved the edge rows by 4 height units in 10 steps,
    /// 100 times the water halfway). Far from a stone, those levels see its moments: with none
    /// of volume (one rim) the edge rows moved by 0.07, with no second moment either, less.
    fn drop_stone(&mut self, x: i32, y: i32, radius: u32, strength: f32) {
        let water = &mut self.water;
        let width = water.width;
        let bounds = rim_bounds(water, (x, y), radius);
        let before = moments(&water.current, width, (x, y), bounds);
        water.press_stone((x, y), radius, strength);
        let after = moments(&water.current, width, (x, y), bounds);
        let pushed_aside = [before[0] - after[0], before[1] - after[1]];
        if pushed_aside.iter().all(|m| m.is_finite()) && pushed_aside != [0.0; 2] {
            raise_rims(water, (x, y), radius, pushed_aside, bounds);
        }
    }

    fn apply_pressure(&mut self, centre: [f32; 2], radius: f32, impulse: f32, _seed: u64) {
        // Leapfrog without substeps: the velocity is (current - previous) per step.
        self.water.press(centre, radius, impulse);
    }
}

/// Computes `S field = sum_l w_l U^l D^l field` into `levels[0].smoothed`.
fn smooth(field: &[f32], levels: &mut [Level], zeros: &[f32], backend: Backend) {
    let count = levels.len();
    // Down: the band of level l + 1 from the band of level l (the field itself at level 0).
    for l in 0..count - 1 {
        let LevelParts {
            fine,
            between,
            coarser,
            ..
        } = level_parts(levels, l, field);
        let coarse_size = (coarser.width, coarser.height);
        go_down(
            fine,
            between,
            &mut coarser.band,
            coarse_size,
            zeros,
            FILTER,
            backend,
        );
    }
    // The top level: its weighted band.
    let top = &mut levels[count - 1];
    let weight = LEVEL_WEIGHTS[count - 1];
    if count == 1 {
        for (s, &u) in top.smoothed.iter_mut().zip(field) {
            *s = weight * u;
        }
        return;
    }
    for (s, &b) in top.smoothed.iter_mut().zip(&top.band) {
        *s = weight * b;
    }
    // Up: level l's smoothed field from its band and level l + 1's smoothed field.
    for l in (0..count - 1).rev() {
        let LevelParts {
            fine,
            between,
            smoothed,
            coarser,
        } = level_parts(levels, l, field);
        let coarse = Grid {
            cells: &coarser.smoothed,
            width: coarser.width,
            height: coarser.height,
        };
        go_up(
            fine,
            LEVEL_WEIGHTS[l],
            coarse,
            between,
            smoothed,
            zeros,
            FILTER,
            backend,
        );
    }
}

/// What a pass between level `l` and the next one reads and writes: level `l`'s fine grid
/// (the field itself at level 0, else its band), its working rows and smoothed field, and the
/// next level.
struct LevelParts<'a> {
    fine: Grid<'a>,
    between: &'a mut [f32],
    smoothed: &'a mut [f32],
    coarser: &'a mut Level,
}

/// Level `l`'s [`LevelParts`], `field` being the heights the pyramid smooths.
fn level_parts<'a>(levels: &'a mut [Level], l: usize, field: &'a [f32]) -> LevelParts<'a> {
    let (upper, lower) = levels.split_at_mut(l + 1);
    let Level {
        width,
        height,
        band,
        smoothed,
        between,
    } = &mut upper[l];
    LevelParts {
        fine: Grid {
            cells: if l == 0 { field } else { band },
            width: *width,
            height: *height,
        },
        between,
        smoothed,
        coarser: &mut lower[0],
    }
}

/// A row-major field and its size.
#[derive(Clone, Copy)]
struct Grid<'a> {
    cells: &'a [f32],
    width: usize,
    height: usize,
}

impl<'a> Grid<'a> {
    /// Row `y`, or a row of zeros outside the grid.
    fn row(&self, y: isize, zeros: &'a [f32]) -> &'a [f32] {
        if y < 0 || y >= self.height as isize {
            &zeros[..self.width]
        } else {
            let y = y as usize;
            &self.cells[y * self.width..(y + 1) * self.width]
        }
    }
}

/// One level down with an `N`-tap filter: filters `fine` along y keeping every second row
/// (into `between`, fine width by coarse height), then along x keeping every second cell (into
/// `coarse_band`).
fn go_down<const N: usize>(
    fine: Grid<'_>,
    between: &mut [f32],
    coarse_band: &mut [f32],
    (coarse_width, coarse_height): (usize, usize),
    zeros: &[f32],
    taps: [f32; N],
    backend: Backend,
) {
    let width = fine.width;
    let half = (N / 2) as isize;
    let strip_rows = parallel::strip_rows(width, coarse_height);
    parallel::for_each_strip(between, width, strip_rows, |first_row, strip| {
        for (offset, out) in strip.chunks_exact_mut(width).enumerate() {
            let first = 2 * (first_row + offset) as isize - half;
            let rows: [&[f32]; N] = std::array::from_fn(|t| fine.row(first + t as isize, zeros));
            kernels::dispersive::weighted_rows(backend, rows, taps, out);
        }
    });
    let between = &*between;
    let strip_rows = parallel::strip_rows(coarse_width, coarse_height);
    parallel::for_each_strip(coarse_band, coarse_width, strip_rows, |first, strip| {
        for (offset, out) in strip.chunks_exact_mut(coarse_width).enumerate() {
            let y = first + offset;
            let filtered = &between[y * width..(y + 1) * width];
            kernels::dispersive::decimate_row(backend, filtered, taps, out);
        }
    });
}

/// One level up with an `N`-tap filter: expands the coarse smoothed field along x (into
/// `between`, fine width by coarse height), then along y into `smoothed`, adding the fine
/// level's band times its weight: `smoothed = weight * band + U coarse`.
#[allow(clippy::too_many_arguments)]
fn go_up<const N: usize>(
    band: Grid<'_>,
    weight: f32,
    coarse: Grid<'_>,
    between: &mut [f32],
    smoothed: &mut [f32],
    zeros: &[f32],
    taps: [f32; N],
    backend: Backend,
) {
    let width = band.width;
    let strip_rows = parallel::strip_rows(width, coarse.height);
    parallel::for_each_strip(between, width, strip_rows, |first_row, strip| {
        for (offset, out) in strip.chunks_exact_mut(width).enumerate() {
            let row = coarse.row((first_row + offset) as isize, zeros);
            kernels::dispersive::expand_row(backend, row, taps, out);
        }
    });
    let expanded = Grid {
        cells: between,
        width,
        height: coarse.height,
    };
    let half = (N / 2) as isize;
    let strip_rows = parallel::strip_rows(width, band.height);
    parallel::for_each_strip(smoothed, width, strip_rows, |first_row, strip| {
        for (offset, out) in strip.chunks_exact_mut(width).enumerate() {
            let y = (first_row + offset) as isize;
            let own = band.row(y, zeros);
            // The taps whose coarse row lands on y: every second one from the first, the
            // transpose of going down, times 2 (see `kernels::dispersive::expand_row`).
            let first = ((y + half) % 2) as usize;
            let row_of = |k: usize| expanded.row((y + half - (first + 2 * k) as isize) / 2, zeros);
            let weight_of = |k: usize| 2.0 * taps[first + 2 * k];
            // N odd: N / 2 + 1 taps land on rows where y + h is even, N / 2 where it is odd.
            let count = if first == 0 { N / 2 + 1 } else { N / 2 };
            match count {
                3 => collapse::<4>(own, weight, row_of, weight_of, out, backend),
                4 => collapse::<5>(own, weight, row_of, weight_of, out, backend),
                _ => unreachable!("the pyramid's filter has 7 taps"),
            }
        }
    });
}

/// `out = weight * own + sum_k weight_of(k) * row_of(k)` for `k` in `0..ROWS - 1`: a fine row
/// of the smoothed field from its band and the expanded coarse rows that reach it.
fn collapse<'a, const ROWS: usize>(
    own: &'a [f32],
    weight: f32,
    row_of: impl Fn(usize) -> &'a [f32],
    weight_of: impl Fn(usize) -> f32,
    out: &mut [f32],
    backend: Backend,
) {
    let rows: [&[f32]; ROWS] = std::array::from_fn(|k| if k == 0 { own } else { row_of(k - 1) });
    let weights: [f32; ROWS] =
        std::array::from_fn(|k| if k == 0 { weight } else { weight_of(k - 1) });
    kernels::dispersive::weighted_rows(backend, rows, weights, out);
}
/// The interior cells `centre - reach ..= centre + reach` of a row or column `len` long, as a
/// range `(start, end)` (empty when none).
fn span(centre: i32, reach: i64, len: usize) -> (usize, usize) {
    let last = len as i64 - 1;
    let start = (i64::from(centre) - reach).clamp(1, last.max(1));
    let end = (i64::from(centre) + reach + 1).clamp(start, last.max(start));
    (start as usize, end as usize)
}

/// The volume and the second moment (`sum of h * d^2`, `d` the distance from `centre`) of the
/// cells of `field` inside `bounds`.
fn moments(
    field: &[f32],
    width: usize,
    (x, y): (i32, i32),
    ((x0, x1), (y0, y1)): ((usize, usize), (usize, usize)),
) -> [f64; 2] {
    let mut sums = [0.0; 2];
    for row in y0..y1 {
        let dy = row as f64 - f64::from(y);
        for column in x0..x1 {
            let dx = column as f64 - f64::from(x);
            let h = f64::from(field[row * width + column]);
            sums[0] += h;
            sums[1] += h * (dx * dx + dy * dy);
        }
    }
    sums
}

/// The rims' profiles at distance `d` from the centre of a stone of radius `r`: `sin^2` across
/// the ring from `r` to `2r`, and across the ring from `2r` to `3r`.
fn rim_profiles(d: f64, r: f64) -> [f64; 2] {
    let ring = |inner: f64| {
        if d <= inner || d >= inner + r {
            0.0
        } else {
            (std::f64::consts::PI * (d - inner) / r).sin().powi(2)
        }
    };
    [ring(r), ring(2.0 * r)]
}

/// The interior cells a stone's rims may cover, and the rims' solve, as
/// [`DispersiveSolver::stone_rims`] gives them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StoneRims {
    /// `[x0, x1, y0, y1]`: columns `x0..x1` and rows `y0..y1`.
    pub cells: [usize; 4],
    /// `[a0, a1, b0, b1]`: the inner rim's height is `a0 v + a1 m` and the outer one's
    /// `b0 v + b1 m`, for the volume `v` and second moment `m` the dent pushed aside (all 0
    /// where no rim fits).
    pub solve: [f64; 4],
}

/// The interior cells within a stone's reach, three radii (its rims'), as
/// `((x0, x1), (y0, y1))`, ends excluded.
fn rim_bounds(
    water: &TwoFields,
    (x, y): (i32, i32),
    radius: u32,
) -> ((usize, usize), (usize, usize)) {
    let reach = i64::from(radius).min(i64::from(u32::MAX) / 4) * 3;
    (span(x, reach, water.width), span(y, reach, water.height))
}

/// The distance of cell `(column, row)` from `(x, y)`.
fn distance_from((x, y): (i32, i32), column: usize, row: usize) -> f64 {
    let (dx, dy) = (column as f64 - f64::from(x), row as f64 - f64::from(y));
    (dx * dx + dy * dy).sqrt()
}

/// The volume and second moment of each rim around `centre` at unit height, over the cells
/// of `bounds`.
fn rim_moments(
    centre: (i32, i32),
    radius: u32,
    ((x0, x1), (y0, y1)): ((usize, usize), (usize, usize)),
) -> [[f64; 2]; 2] {
    let r = f64::from(radius.max(1));
    let mut rims = [[0.0; 2]; 2];
    for row in y0..y1 {
        for column in x0..x1 {
            let d = distance_from(centre, column, row);
            for (rim, profile) in rims.iter_mut().zip(rim_profiles(d, r)) {
                rim[0] += profile;
                rim[1] += profile * d * d;
            }
        }
    }
    rims
}

/// Whether the two rims of `rims` (see [`rim_moments`]) can be solved for apart: both have
/// cells, and their moments differ enough. Near an edge, where a rim is cut off, the outer one
/// alone keeps the volume.
fn rims_apart([[v0, m0], [v1, m1]]: [[f64; 2]; 2]) -> bool {
    let det = v0 * m1 - v1 * m0;
    det.abs() > 1e-9 * (v0 * m1).abs() && v0 > 0.0 && v1 > 0.0
}

/// Adds water at rest in the two rims around `centre` (inside the interior cells of `bounds`),
/// with the volume and second moment `wanted`.
fn raise_rims(
    water: &mut TwoFields,
    centre: (i32, i32),
    radius: u32,
    wanted: [f64; 2],
    bounds: ((usize, usize), (usize, usize)),
) {
    let width = water.width;
    let r = f64::from(radius.max(1));
    let rims = rim_moments(centre, radius, bounds);
    // Heights a, b with a rims[0] + b rims[1] = wanted, moment by moment.
    let [[v0, m0], [v1, m1]] = rims;
    let det = v0 * m1 - v1 * m0;
    let heights = if rims_apart(rims) {
        [
            (wanted[0] * m1 - v1 * wanted[1]) / det,
            (v0 * wanted[1] - wanted[0] * m0) / det,
        ]
    } else if v0 + v1 > 0.0 {
        let h = wanted[0] / (v0 + v1);
        [h, h]
    } else {
        return;
    };
    let ((x0, x1), (y0, y1)) = bounds;
    for row in y0..y1 {
        for column in x0..x1 {
            let [a, b] = rim_profiles(distance_from(centre, column, row), r);
            let lift = (heights[0] * a + heights[1] * b) as f32;
            if lift != 0.0 {
                let cell = row * width + column;
                water.current[cell] += lift;
                water.previous[cell] += lift;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoothing_is_symmetric() {
        // x . S y == y . S x for two random fields: U is D's transpose at every level.
        let (w, h) = (37usize, 23usize);
        let mut solver = DispersiveSolver::new(w as u32, h as u32).unwrap();
        let mut seed = 12345u32;
        let mut random = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32 - 0.5
        };
        let x: Vec<f32> = (0..w * h).map(|_| random()).collect();
        let y: Vec<f32> = (0..w * h).map(|_| random()).collect();
        let zeros = solver.zeros.clone();
        let backend = kernels::backend();
        smooth(&x, &mut solver.levels, &zeros, backend);
        let sx = solver.levels[0].smoothed.clone();
        smooth(&y, &mut solver.levels, &zeros, backend);
        let sy = solver.levels[0].smoothed.clone();
        let dot = |a: &[f32], b: &[f32]| -> f64 {
            a.iter()
                .zip(b)
                .map(|(&p, &q)| f64::from(p) * f64::from(q))
                .sum()
        };
        let (ysx, xsy) = (dot(&y, &sx), dot(&x, &sy));
        assert!(
            (ysx - xsy).abs() < 1e-4 * ysx.abs().max(1.0),
            "{ysx} vs {xsy}"
        );
        assert!(dot(&x, &sx) > 0.0);
    }
}
