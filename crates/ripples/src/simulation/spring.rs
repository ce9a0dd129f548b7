//! The spring model of the Frogger HD seed: a spring under every cell, pulled by its neighbours.
//!
//! Each cell is a damped spring with its own stiffness `k` and viscosity `m`; we keep its
//! displacement from rest `h` (the seed's `Lx - Lx0`) and its vertical velocity `W`. A step is
//! the seed's, with `dt = 1`:
//!
//! 1. **Springs.** Hooke's law with dissipation, cell by cell: `a = -k h - m W; h += W; W += a`
//!    (the height moves with the *old* velocity, then the velocity changes: explicit Euler).
//! 2. **Spreading.** `passes` times: along x, every interior cell `i` of every row computes
//!    `lp[i] = spread (h[i] - h[i-1])` and `rp[i] = spread (h[i] - h[i+1])` and gives them to its
//!    left and right neighbours' velocities; a second loop adds the same amounts to their
//!    heights. Then the same along y, for the interior rows. `lp` and `rp` are read from `h`
//!    alone, which the first loop does not change, so the order of the cells inside a loop does
//!    not matter; only the order in which a cell receives its two contributions does (it changes
//!    `f32` rounding), and it is kept: first from the cell before, then from the cell after. The
//!    velocity and the height of a cell get the same amounts in the same order, so both are added
//!    in one loop here. The results are the seed's bit for bit, apart from the flush of tiny
//!    values described below (`tests/it/spring.rs` checks this against a literal transcription of
//!    its loops).
//! 3. **Edges.** Border cells are set back to rest (`h = W = 0`), then walls
//!    ([`crate::Obstacles`]) are, then a sponge ([`crate::Sponge`]) damps both fields if asked.
//!
//! The spreading is the costly part: with 4 passes a step is 8 sweeps of the grid in each
//! direction. Run sweep after sweep over the whole grid, as the seed does, a 1920x1080 step took
//! about 12.5 ms on this project's 2-core x86-64 machine (66 us for 128x128 cells), mostly
//! spent moving full-size arrays to and from memory, and it could not use a second thread. The
//! step now runs as a row wavefront (`Wavefront` below): every stage of the step goes over a row
//! while the row is in cache, so a step reads its two fields and writes the next two once, with
//! the vectorised kernels of [`crate::kernels::f32_rows`]; strips of rows run on rayon's threads,
//! each recomputing the few rows it shares with its neighbours, with the same result on any
//! number of threads. Measured now (AVX2): about 3.3 ms per 1080p step on one thread and 1.7 ms
//! on two (23 us for 128x128 cells); the baseline instructions (SSE2) take about 5.9 ms on one.
//! Every cell still goes through exactly the seed's operations in the seed's order.
//!
//! One pass moves height from a cell to its neighbours by `spread` times the difference, so per
//! pass the heights see `h += spread * L h` (`L` the 5-point Laplacian) and the velocities get
//! the same push. Over a step that is a wave equation with a restoring force,
//! `h'' = passes * spread * L h - k h - m h'`, plus a diffusion of the heights that smooths the
//! shortest waves away. Its dispersion is `omega^2 ~ k + passes * spread * q^2`: waves run at
//! about `sqrt(passes * spread)` cells per step (0.32 with the defaults), and the stiffness sets
//! the lowest frequency the water can ring at, `sqrt(k)` radians per step, so a stiffer region
//! rings faster (`tests/it/spring.rs` measures periods of 63.8 and 31.4 steps for `k` = 0.01 and
//! 0.04). The viscosity takes about a fraction `m / 2` of the amplitude per step.
//!
//! **Stability.** For a Fourier mode with 1D Laplacian eigenvalues `lx, ly` in `[0, 4]` a pass
//! maps `(h, W)` to `((1 - s lx) h, W - s lx h)` (then the same with `ly`), and the springs map
//! it by `[[1, 1], [-k, 1 - m]]`. Scanning the product's spectral radius over the modes and a
//! grid of parameters, it stays at most 1 in the whole box `0 <= k <= m <= 1`,
//! `0 <= spread <= 1/4`, any number of passes, and leaves it just outside:
//!
//! - `k > m`: the uniform mode (which spreading never touches, see **Edges**) has
//!   `|eigenvalue|^2 = 1 - m + k`, so a spring stiffer than it is viscous gains energy every
//!   step (explicit Euler). At `k = m` the level of the whole pool rings without decaying; with
//!   `k = m = 0`, the seed's "zero viscosity", only the spreading's diffusion calms the water.
//! - `m > 1`: the checkerboard can grow (radius 1.2 at `m = 1.2` with spread 0.25, one pass).
//! - `spread > 1/4`: a pass overshoots the checkerboard (`1 - 4 spread < 0`); with one pass and
//!   `k = m = 1` the radius is 1.53 at `spread = 0.3`.
//!
//! The number of passes does not affect stability, only cost (a sweep per pass and direction),
//! so it is capped at [`MAX_SPREAD_PASSES`]. The setters refuse everything outside the box. In
//! practice, 20,000 steps of heavy rain stayed bounded at its corners (`k = m = 1` and
//! `k = m = 0` with spread 0.25 and 1 or 16 passes, random per-cell maps, walls, a sponge), and
//! `tests/it/spring.rs` runs 100,000 steps with the defaults.
//!
//! **Edges.** The seed's loops start at the second cell, so no cell ever reads a border cell:
//! the cells next to the edge see a one-sided Laplacian, a free end that reflects waves without
//! inverting them (the classic solver's fixed edge inverts them). The loops do pull the border
//! cells along; they are reset to rest after every step so they always read 0, like the other
//! solvers' borders. Walls are read by their neighbours and held at 0, so they are fixed ends.
//! Waves this slow and dispersive are only partly taken by the shared [`crate::Sponge`]: in
//! lossless water it leaves about a fifth of the energy a reflecting pool keeps.
//!
//! **One difference from the seed:** the spring loop sets heights and velocities smaller than
//! `1e-12` to 0. Without it a calm pool decays into subnormal numbers, which made a step twice as
//! slow here (and far slower on some CPUs); with it calm water becomes exactly flat. Anything
//! that small is invisible next to stones tens of units deep.

use std::ops::Range;

use crate::disturbances::body;
use crate::disturbances::sources::{interior_index, stamp_disk};
use crate::disturbances::swipe;
use crate::error::Error;
use crate::kernels::{self, Backend, f32_rows::RowValues};
use crate::limits::{
    MAX_SPREAD, MAX_SPREAD_PASSES, MAX_SPRING_COEFFICIENT, check_range, check_size,
};
use crate::looks::Heights;
use crate::parallel;
use crate::simulation::boundary::{Obstacles, Sponge};
use crate::simulation::interface::{
    SpringFields, WaterSolver, load_interior, loaded_heights, sealed,
};
use crate::simulation::solver::SolverKind;

/// A coefficient that is the same everywhere or set per cell.
#[derive(Debug, Clone, PartialEq)]
enum Coefficient {
    Uniform(f32),
    PerCell(Vec<f32>),
}

impl Coefficient {
    fn values(&self) -> Values<'_> {
        match self {
            Self::Uniform(value) => Values::Uniform(*value),
            Self::PerCell(values) => Values::PerCell(values),
        }
    }

    /// Replaces the values with a copy of `per_cell`, reusing the buffer if there is one.
    fn set_per_cell(&mut self, per_cell: &[f32]) {
        match self {
            Self::PerCell(values) if values.len() == per_cell.len() => {
                values.copy_from_slice(per_cell);
            }
            _ => *self = Self::PerCell(per_cell.to_vec()),
        }
    }
}

/// A borrowed view of a [`Coefficient`], or of a map not stored yet.
#[derive(Clone, Copy)]
enum Values<'a> {
    Uniform(f32),
    PerCell(&'a [f32]),
}

impl Values<'_> {
    fn get(&self, index: usize) -> f32 {
        match self {
            Self::Uniform(value) => *value,
            Self::PerCell(values) => values[index],
        }
    }
}

/// The spring model on an `f32` grid: a damped spring under every cell, pulled by its
/// neighbours (see the crate docs, History, for where it comes from).
///
/// Heights are displacements from rest; a stone presses a dent (negative heights). Stiffness
/// and viscosity are uniform or set per cell, for example from a greyscale picture with
/// [`map_from_grey`], so that parts of the pool ring faster or calm sooner.
///
/// ```
/// use ripples::{Obstacles, SpringSolver, WaterSolver};
///
/// let mut water = SpringSolver::new(64, 48)?;
/// water.drop_stone(32, 24, 4, 100.0);
/// let walls = Obstacles::new(64, 48).unwrap();
/// for _ in 0..10 {
///     water.step(&walls, None);
/// }
/// assert!(water.heights().iter().any(|&h| h != 0.0));
/// # Ok::<(), ripples::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SpringSolver {
    width: usize,
    height: usize,
    stiffness: Coefficient,
    viscosity: Coefficient,
    spread: f32,
    passes: u32,
    /// Displacement from rest, the seed's `Lx - Lx0`.
    heights: Vec<f32>,
    /// Vertical velocity, the seed's `Wx`.
    velocities: Vec<f32>,
    /// The next step's heights, written while `heights` is read, then swapped with it.
    next_heights: Vec<f32>,
    /// The next step's velocities, likewise.
    next_velocities: Vec<f32>,
    /// Working rows of the strips a step is split into (see [`Wavefront`]); sized for the
    /// thread pool at hand, again only when the strips or the passes grow.
    scratch: Vec<f32>,
}

impl SpringSolver {
    /// Default spread: the fraction of a height difference passed to a neighbour per pass (the
    /// seed's value).
    pub const DEFAULT_SPREAD: f32 = 0.025;
    /// Default number of spreading passes per step (the seed's value).
    pub const DEFAULT_SPREAD_PASSES: u32 = 4;
    /// Default stiffness of every spring.
    ///
    /// The model is linear, so the stone depth does not matter; what does is how stiffness
    /// compares with the spreading. Stones of radius 1 to 4 make waves of 8 to 16 cells, for which
    /// `passes * spread * q^2` is 0.015 to 0.06 with the default spread. A stiffness of 0.01 keeps
    /// them travelling rings (the lowest frequency is then one period per 63 steps) while still
    /// pulling the mean level back when rain presses it down. (0.02, as much as the default
    /// viscosity, leaves the centre and the mean level of the pool bobbing without end.)
    pub const DEFAULT_STIFFNESS: f32 = 0.01;
    /// Default viscosity of every spring: a ring from a stone loses about 0.8% of its amplitude per
    /// step and is down to about 1% of the stone's depth after 200 steps. It must be at least the
    /// stiffness (see the module docs); the margin lets the mean level of the pool settle too.
    pub const DEFAULT_VISCOSITY: f32 = 0.02;

    /// Calm water on a `width x height` grid with the default stiffness, viscosity and spread.
    ///
    /// Fails if a side is 0 or the grid exceeds [`MAX_SIDE`](crate::limits::MAX_SIDE) / [`MAX_CELLS`](crate::limits::MAX_CELLS);
    /// the check happens before any allocation.
    pub fn new(width: u32, height: u32) -> Result<Self, Error> {
        let (width, height) = check_size(u64::from(width), u64::from(height))?;
        let cells = width as usize * height as usize;
        let mut solver = Self {
            width: width as usize,
            height: height as usize,
            stiffness: Coefficient::Uniform(Self::DEFAULT_STIFFNESS),
            viscosity: Coefficient::Uniform(Self::DEFAULT_VISCOSITY),
            spread: Self::DEFAULT_SPREAD,
            passes: Self::DEFAULT_SPREAD_PASSES,
            heights: vec![0.0; cells],
            velocities: vec![0.0; cells],
            next_heights: vec![0.0; cells],
            next_velocities: vec![0.0; cells],
            scratch: Vec::new(),
        };
        solver.strips();
        Ok(solver)
    }

    /// Sets the same stiffness `k` for every spring, `0 <= k <= 1` and no more than the
    /// viscosity anywhere (a spring stiffer than it is viscous gains energy every step).
    ///
    /// To raise both, set the viscosity first or use [`set_springs`](Self::set_springs).
    pub fn set_stiffness(&mut self, k: f32) -> Result<(), Error> {
        check_coefficient("stiffness", k)?;
        check_balance(Values::Uniform(k), self.viscosity.values(), self.width)?;
        self.stiffness = Coefficient::Uniform(k);
        Ok(())
    }

    /// Sets the same viscosity `m` for every spring, `0 <= m <= 1` and no less than the
    /// stiffness anywhere.
    pub fn set_viscosity(&mut self, m: f32) -> Result<(), Error> {
        check_coefficient("viscosity", m)?;
        check_balance(self.stiffness.values(), Values::Uniform(m), self.width)?;
        self.viscosity = Coefficient::Uniform(m);
        Ok(())
    }

    /// Sets a uniform stiffness and viscosity together, `0 <= stiffness <= viscosity <= 1`.
    pub fn set_springs(&mut self, stiffness: f32, viscosity: f32) -> Result<(), Error> {
        check_coefficient("stiffness", stiffness)?;
        check_coefficient("viscosity", viscosity)?;
        check_balance(
            Values::Uniform(stiffness),
            Values::Uniform(viscosity),
            self.width,
        )?;
        self.stiffness = Coefficient::Uniform(stiffness);
        self.viscosity = Coefficient::Uniform(viscosity);
        Ok(())
    }

    /// Sets the stiffness of every cell, row-major (`width * height` values in `[0, 1]`, each
    /// no more than the viscosity of its cell). Nothing changes if the map is refused.
    pub fn set_stiffness_map(&mut self, per_cell: &[f32]) -> Result<(), Error> {
        self.check_map("stiffness map", per_cell)?;
        check_balance(
            Values::PerCell(per_cell),
            self.viscosity.values(),
            self.width,
        )?;
        self.stiffness.set_per_cell(per_cell);
        Ok(())
    }

    /// Sets the viscosity of every cell, row-major (`width * height` values in `[0, 1]`, each
    /// no less than the stiffness of its cell). Nothing changes if the map is refused.
    pub fn set_viscosity_map(&mut self, per_cell: &[f32]) -> Result<(), Error> {
        self.check_map("viscosity map", per_cell)?;
        check_balance(
            self.stiffness.values(),
            Values::PerCell(per_cell),
            self.width,
        )?;
        self.viscosity.set_per_cell(per_cell);
        Ok(())
    }

    /// Sets both maps together (see [`set_stiffness_map`](Self::set_stiffness_map)), for a
    /// change that neither order of the single setters would accept.
    pub fn set_spring_maps(&mut self, stiffness: &[f32], viscosity: &[f32]) -> Result<(), Error> {
        self.check_map("stiffness map", stiffness)?;
        self.check_map("viscosity map", viscosity)?;
        check_balance(
            Values::PerCell(stiffness),
            Values::PerCell(viscosity),
            self.width,
        )?;
        self.stiffness.set_per_cell(stiffness);
        self.viscosity.set_per_cell(viscosity);
        Ok(())
    }

    /// Sets the spread (`0 <= spread <= 0.25`, the fraction of a height difference passed to a
    /// neighbour per pass) and the number of passes per step (`1..=16`).
    ///
    /// Waves run at about `sqrt(passes * spread)` cells per step; each pass costs a sweep of
    /// the grid in each direction.
    pub fn set_spread(&mut self, spread: f32, passes: u32) -> Result<(), Error> {
        if !spread.is_finite() {
            return Err(Error::not_allowed(
                "spread",
                spread,
                format!("a number in [0, {MAX_SPREAD}]"),
            ));
        }
        check_range("spread", spread, 0.0, MAX_SPREAD)?;
        check_range("spread passes", passes, 1, MAX_SPREAD_PASSES)?;
        self.spread = spread;
        self.passes = passes;
        self.strips();
        Ok(())
    }

    /// The spread per pass.
    pub fn spread(&self) -> f32 {
        self.spread
    }

    /// Spreading passes per step.
    pub fn spread_passes(&self) -> u32 {
        self.passes
    }

    /// The stiffness of cell `(x, y)`, or `None` outside the grid.
    pub fn stiffness_at(&self, x: u32, y: u32) -> Option<f32> {
        self.index(x, y).map(|i| self.stiffness.values().get(i))
    }

    /// The viscosity of cell `(x, y)`, or `None` outside the grid.
    pub fn viscosity_at(&self, x: u32, y: u32) -> Option<f32> {
        self.index(x, y).map(|i| self.viscosity.values().get(i))
    }

    /// The displacement from rest of every cell, row-major (`i = y * width + x`).
    pub fn heights(&self) -> &[f32] {
        &self.heights
    }

    /// The vertical velocity of every cell, row-major (the seed's renderer makes fast water
    /// more transparent).
    pub fn velocities(&self) -> &[f32] {
        &self.velocities
    }

    /// Both fields, for callers that load or edit a state directly.
    ///
    /// Border cells are set back to 0 by every [`step`](WaterSolver::step).
    pub fn fields_mut(&mut self) -> SpringFields<'_> {
        SpringFields {
            heights: &mut self.heights,
            velocities: &mut self.velocities,
        }
    }

    /// [`step`](WaterSolver::step) on the calling thread (see [`parallel::on_workers`]).
    fn step_here(&mut self, obstacles: &Obstacles, sponge: Option<&Sponge>) {
        let (width, height) = (self.width, self.height);
        if width < 3 || height < 3 {
            // Every cell is a border cell.
            self.calm();
            return;
        }
        let (strip_rows, per_strip) = self.strips();
        let wavefront = Wavefront {
            width,
            height,
            passes: self.passes as usize,
            spread: self.spread,
            heights: &self.heights,
            velocities: &self.velocities,
            stiffness: self.stiffness.values(),
            viscosity: self.viscosity.values(),
            walls: (!obstacles.is_empty()).then(|| obstacles.cells()),
            backend: kernels::backend(),
        };
        parallel::for_each_strip_pair_with_scratch(
            &mut self.next_heights,
            &mut self.next_velocities,
            width,
            &mut self.scratch,
            per_strip,
            strip_rows,
            |first_row, heights, velocities, scratch| {
                wavefront.run(first_row, heights, velocities, scratch);
            },
        );
        std::mem::swap(&mut self.heights, &mut self.next_heights);
        std::mem::swap(&mut self.velocities, &mut self.next_velocities);
        if let Some(sponge) = sponge {
            sponge.apply_f32(&mut self.heights, width, height);
            sponge.apply_f32(&mut self.velocities, width, height);
        }
    }

    /// Rows per strip of a step on the current thread pool, and scratch items per strip; makes
    /// room for the scratch of every strip (allocating only when the strips or the passes
    /// outgrow it, so steps after the first allocate nothing).
    fn strips(&mut self) -> (usize, usize) {
        let (width, height) = (self.width, self.height);
        let passes = self.passes as usize;
        // Each strip recomputes up to `passes` rows beyond each of its ends (see `Wavefront`);
        // strips of at least `4 * passes` rows keep that extra work small.
        let strip_rows = parallel::strip_rows(width, height)
            .max(4 * passes)
            .min(height);
        let per_strip = Wavefront::scratch_len(width, passes);
        let needed = height.div_ceil(strip_rows) * per_strip;
        if self.scratch.len() < needed {
            self.scratch.resize(needed, 0.0);
        }
        (strip_rows, per_strip)
    }

    /// Checks a per-cell map: its length, and every value a number in `[0, 1]`.
    fn check_map(&self, what: &'static str, per_cell: &[f32]) -> Result<(), Error> {
        let expected = self.heights.len();
        if per_cell.len() != expected {
            return Err(Error::BufferSize {
                what,
                got: per_cell.len(),
                expected,
                per_pixel: 1,
                width: self.width as u32,
                height: self.height as u32,
            });
        }
        if let Some(i) = per_cell
            .iter()
            .position(|v| !(0.0..=MAX_SPRING_COEFFICIENT).contains(v))
        {
            return Err(Error::CellOutOfRange {
                map: what.to_string(),
                x: i % self.width,
                y: i / self.width,
                value: per_cell[i],
                min: 0.0,
                max: MAX_SPRING_COEFFICIENT,
            });
        }
        Ok(())
    }

    fn index(&self, x: u32, y: u32) -> Option<usize> {
        let (x, y) = (x as usize, y as usize);
        (x < self.width && y < self.height).then_some(y * self.width + x)
    }
}

impl sealed::Internal for SpringSolver {
    fn dry(&mut self, obstacles: &Obstacles) {
        obstacles.dry(&mut self.heights, 0.0);
        obstacles.dry(&mut self.velocities, 0.0);
    }

    /// The heights only: the velocities are what the springs move them with.
    fn raise(&mut self, cells: &[(usize, f32)], sign: f32) {
        for &(i, amount) in cells {
            self.heights[i] += sign * amount;
        }
    }
}

impl WaterSolver for SpringSolver {
    fn kind(&self) -> SolverKind {
        SolverKind::Spring
    }

    fn width(&self) -> u32 {
        self.width as u32
    }

    fn height(&self) -> u32 {
        self.height as u32
    }

    fn heights_view(&self) -> Heights<'_> {
        Heights::F32(&self.heights)
    }

    /// Loads `heights` with every velocity 0.
    fn set_heights(&mut self, heights: Heights<'_>) -> Result<(), Error> {
        let size = (self.width, self.height);
        let given = loaded_heights::<f32>(heights, SolverKind::Spring, size)?;
        load_interior(&mut self.heights, given, size);
        self.velocities.fill(0.0);
        Ok(())
    }

    /// Calms the water: heights and velocities back to 0.
    fn calm(&mut self) {
        self.heights.fill(0.0);
        self.velocities.fill(0.0);
    }

    fn is_calm_within(&self, tolerance: f32) -> bool {
        let small = |values: &[f32]| values.iter().all(|v| v.abs() <= tolerance);
        small(&self.heights) && small(&self.velocities)
    }

    /// Advances the water by one step (see the module documentation).
    ///
    /// Wall cells of `obstacles` are set to rest after the springs move and after every
    /// spreading sweep (a wall holds no water, so waves reflect off it and none leaks through),
    /// border cells after the step, then with `sponge` both fields are multiplied
    /// by its factors along the edges (open water: waves leave the pool). `obstacles` should be
    /// sized like the grid; a mask of another size covers only its first `width * height` cells.
    fn step(&mut self, obstacles: &Obstacles, sponge: Option<&Sponge>) {
        let cells = self.width * self.height;
        parallel::on_workers(cells, || self.step_here(obstacles, sponge));
    }

    /// Drops a stone: every interior cell `(px, py)` with `px` in `[x-r, x+r)`, `py` in
    /// `[y-r, y+r)` and `(px-x)^2 + (py-y)^2 < r^2` gets height `-strength` and velocity 0
    /// (the classic solver's disk).
    ///
    /// A disk that reaches past the edge is clipped; one entirely outside or a non-finite
    /// strength does nothing. A negative `strength` raises a bump instead of pressing a dent.
    fn drop_stone(&mut self, x: i32, y: i32, radius: u32, strength: f32) {
        if !strength.is_finite() {
            return;
        }
        let (width, height) = (self.width, self.height);
        stamp_disk(&mut self.heights, width, height, x, y, radius, -strength);
        stamp_disk(&mut self.velocities, width, height, x, y, radius, 0.0);
    }

    /// Drags a stone along a polyline of `[x, y]` points: a stone (as
    /// [`drop_stone`](Self::drop_stone)) at every cell of the Bresenham lines between consecutive
    /// points, so the trail has no gaps however far apart the points are.
    fn swipe_path(
        &mut self,
        points: &mut dyn Iterator<Item = [i32; 2]>,
        radius: u32,
        strength: f32,
    ) {
        if !strength.is_finite() {
            return;
        }
        let (width, height) = (self.width, self.height);
        swipe::press_path(
            &mut (&mut self.heights[..], &mut self.velocities[..]),
            points,
            (width, height),
            radius,
            |(heights, velocities), x, y| {
                stamp_disk(heights, width, height, x, y, radius, -strength);
                stamp_disk(velocities, width, height, x, y, radius, 0.0);
            },
            |(heights, velocities), cells, reach| {
                swipe::nearest_squared_distances(cells, width, height, reach, |index, _| {
                    heights[index] = -strength;
                    velocities[index] = 0.0;
                })
            },
        );
    }

    /// Sets the height of cell `(x, y)` now, leaving its velocity alone (a wave generator sets
    /// its cells every step). Border cells, cells outside the grid and non-finite values are
    /// ignored.
    fn set_height(&mut self, x: i32, y: i32, value: f32) {
        if let Some(i) = interior_index(x, y, self.width, self.height)
            && value.is_finite()
        {
            self.heights[i] = value;
        }
    }

    fn apply_pressure(&mut self, centre: [f32; 2], radius: f32, impulse: f32, _seed: u64) {
        let (width, height) = (self.width, self.height);
        body::Press::new(centre, radius, impulse).into_f32(&mut self.velocities, width, height);
    }
}

/// A map for [`SpringSolver::set_stiffness_map`] or [`SpringSolver::set_viscosity_map`] from a
/// greyscale picture already resized to the grid (one byte per cell, row-major): black (0) is
/// `min`, white (255) is `max`, linearly in between (both ends exactly).
///
/// ```
/// let map = ripples::map_from_grey(&[0, 51, 255], 0.01, 0.06);
/// assert_eq!(map[0], 0.01);
/// assert!((map[1] - 0.02).abs() < 1e-6);
/// assert_eq!(map[2], 0.06);
/// ```
pub fn map_from_grey(grey: &[u8], min: f32, max: f32) -> Vec<f32> {
    grey.iter()
        .map(|&g| {
            let t = f32::from(g) / 255.0;
            min * (1.0 - t) + max * t
        })
        .collect()
}

/// One step over a strip of rows, every stage of it applied to a row while the row is in cache.
///
/// A step is a chain of stages, each a function of the one before: the springs and the first
/// spreading along x (both row by row), then for every pass the spreading along y (row `r` of
/// its output needs rows `r-1..=r+1` of its input) and the next pass's spreading along x. Run
/// one after the other over the whole grid, the stages make 2 + 4 * `passes` sweeps of several
/// full-size arrays, which at 1920x1080 no cache holds. Here they run as a wavefront instead:
/// when row `t` enters, pass `p` turns out row `t - p`, so each stage only keeps its last 3
/// rows (a ring in `scratch`), and the step reads its two input fields and writes its two
/// output fields once. Every cell goes through exactly the operations, in the same order, that
/// the sweeps give it (walls are dried after every stage, row by row), so the result is the
/// same bit for bit.
///
/// A strip of output rows `a..b` needs rows `a - passes..b + passes` of the input (one more row
/// on each side per pass), so neighbouring strips both compute the rows between them, with the
/// same result; the input fields are only read and the output goes to other buffers, so the
/// strips can run on any threads in any order and the step's result does not depend on them.
struct Wavefront<'a> {
    width: usize,
    height: usize,
    passes: usize,
    spread: f32,
    heights: &'a [f32],
    velocities: &'a [f32],
    stiffness: Values<'a>,
    viscosity: Values<'a>,
    /// The wall mask, if there are walls.
    walls: Option<&'a [bool]>,
    backend: Backend,
}

impl Wavefront<'_> {
    /// Scratch items a strip needs: a landing row of heights and velocities, and per pass a
    /// ring of 3 rows of both.
    fn scratch_len(width: usize, passes: usize) -> usize {
        (2 + 6 * passes) * width
    }

    /// Rows entering ring `stage` (the output of the spreading along x of pass `stage + 1`) for
    /// the strip of output rows `rows`; stage `passes` is the strip itself.
    fn stage_rows(&self, stage: usize, rows: &Range<usize>) -> Range<usize> {
        let reach = self.passes - stage;
        rows.start.saturating_sub(reach)..(rows.end + reach).min(self.height)
    }

    /// Computes the output rows `first_row..` (as many as `heights_out` holds).
    fn run(
        &self,
        first_row: usize,
        heights_out: &mut [f32],
        velocities_out: &mut [f32],
        scratch: &mut [f32],
    ) {
        let (width, height, spread, backend) = (self.width, self.height, self.spread, self.backend);
        let rows = first_row..first_row + heights_out.len() / width;
        let ring_len = 6 * width;
        let (landing, rings) =
            scratch[..Self::scratch_len(width, self.passes)].split_at_mut(2 * width);
        let (landing_heights, landing_velocities) = landing.split_at_mut(width);
        let first_rows = self.stage_rows(0, &rows);
        for t in first_rows.start..rows.end + self.passes {
            // The rows the next round reads from memory and writes to it: their loads then
            // overlap this round's work (about 10% off a 1080p step here).
            if first_rows.contains(&(t + 1)) {
                let cells = (t + 1) * width..(t + 2) * width;
                kernels::f32_rows::prefetch(&self.heights[cells.clone()]);
                kernels::f32_rows::prefetch(&self.velocities[cells.clone()]);
                for map in [self.stiffness, self.viscosity] {
                    if let Values::PerCell(map) = map {
                        kernels::f32_rows::prefetch(&map[cells.clone()]);
                    }
                }
            }
            if let Some(r) = (t + 1).checked_sub(self.passes)
                && rows.contains(&r)
            {
                let cells = (r - rows.start) * width..(r - rows.start + 1) * width;
                kernels::f32_rows::prefetch(&heights_out[cells.clone()]);
                kernels::f32_rows::prefetch(&velocities_out[cells]);
            }
            if first_rows.contains(&t) {
                // Row t enters: its springs, then the first spreading along x into ring 0.
                let cells = t * width..(t + 1) * width;
                kernels::f32_rows::spring_row(
                    backend,
                    [
                        &self.heights[cells.clone()],
                        &self.velocities[cells.clone()],
                    ],
                    row_values(self.stiffness, cells.clone()),
                    row_values(self.viscosity, cells),
                    [landing_heights, landing_velocities],
                );
                let ring = &mut rings[..ring_len];
                self.spread_x_into(t, [landing_heights, landing_velocities], ring);
            }
            for stage in 0..self.passes {
                // Pass `stage + 1` spreads along y row r, which needs row r + 1 of its ring,
                // entered just now.
                let Some(r) = t.checked_sub(stage + 1) else {
                    break;
                };
                if !self.stage_rows(stage + 1, &rows).contains(&r) {
                    continue;
                }
                let ring = &rings[stage * ring_len..(stage + 1) * ring_len];
                // The seed's givers along y are rows 1..=height-2.
                let above = (r >= 2).then(|| ring_row(ring, width, r - 1).0);
                let below = (r + 3 <= height).then(|| ring_row(ring, width, r + 1).0);
                let (h, w) = ring_row(ring, width, r);
                if stage + 1 == self.passes {
                    let cells = (r - rows.start) * width..(r - rows.start + 1) * width;
                    let (h_out, w_out) =
                        (&mut heights_out[cells.clone()], &mut velocities_out[cells]);
                    kernels::f32_rows::spread_y_row(
                        backend,
                        spread,
                        [above, below],
                        [h, w],
                        [h_out, w_out],
                    );
                    self.dry(r, h_out, w_out);
                    rest_border(r, height, h_out, w_out);
                } else {
                    kernels::f32_rows::spread_y_row(
                        backend,
                        spread,
                        [above, below],
                        [h, w],
                        [landing_heights, landing_velocities],
                    );
                    let next_ring = &mut rings[(stage + 1) * ring_len..(stage + 2) * ring_len];
                    self.spread_x_into(r, [landing_heights, landing_velocities], next_ring);
                }
            }
        }
    }

    /// What follows the springs and every spreading along y but the last pass's: the landing
    /// row `row` (heights and velocities) dried, spread along x into its slot of `ring` (the
    /// next pass's input), and that dried.
    fn spread_x_into(&self, row: usize, landing: [&mut [f32]; 2], ring: &mut [f32]) {
        let [landing_heights, landing_velocities] = landing;
        self.dry(row, landing_heights, landing_velocities);
        let (heights, velocities) = ring_row_mut(ring, self.width, row);
        kernels::f32_rows::spread_x_row(
            self.backend,
            self.spread,
            [landing_heights, landing_velocities],
            [heights, velocities],
        );
        self.dry(row, heights, velocities);
    }

    /// Wall cells of row `row` back to rest, in both fields.
    fn dry(&self, row: usize, heights: &mut [f32], velocities: &mut [f32]) {
        let Some(walls) = self.walls else {
            return;
        };
        // A mask of another size covers its first `width * height` cells, row-major.
        let start = (row * self.width).min(walls.len());
        let end = ((row + 1) * self.width).min(walls.len());
        for ((h, w), &wall) in heights.iter_mut().zip(velocities).zip(&walls[start..end]) {
            if wall {
                *h = 0.0;
                *w = 0.0;
            }
        }
    }
}

/// The heights and velocities of grid row `row` in a ring of 3 rows.
fn ring_row(ring: &[f32], width: usize, row: usize) -> (&[f32], &[f32]) {
    let slot = &ring[row % 3 * 2 * width..][..2 * width];
    slot.split_at(width)
}

/// [`ring_row`], to write.
fn ring_row_mut(ring: &mut [f32], width: usize, row: usize) -> (&mut [f32], &mut [f32]) {
    let slot = &mut ring[row % 3 * 2 * width..][..2 * width];
    slot.split_at_mut(width)
}

/// The coefficients of the cells in `cells`.
fn row_values(values: Values<'_>, cells: Range<usize>) -> RowValues<'_> {
    match values {
        Values::Uniform(value) => RowValues::Uniform(value),
        Values::PerCell(values) => RowValues::PerCell(&values[cells]),
    }
}

/// Sets the border cells of grid row `row` to rest: the whole row if it is the first or the
/// last, else its first and last cells.
fn rest_border(row: usize, height: usize, heights: &mut [f32], velocities: &mut [f32]) {
    if row == 0 || row + 1 == height {
        heights.fill(0.0);
        velocities.fill(0.0);
    } else {
        let last = heights.len() - 1;
        for field in [heights, velocities] {
            field[0] = 0.0;
            field[last] = 0.0;
        }
    }
}

/// Checks a uniform stiffness or viscosity: a number in `[0, 1]`.
fn check_coefficient(name: &str, value: f32) -> Result<f32, Error> {
    if !value.is_finite() {
        return Err(Error::not_allowed(
            name,
            value,
            format!("a number in [0, {MAX_SPRING_COEFFICIENT}]"),
        ));
    }
    check_range(name, value, 0.0, MAX_SPRING_COEFFICIENT)
}

/// Checks that no spring is stiffer than it is viscous (the stability condition `k <= m`).
fn check_balance(stiffness: Values<'_>, viscosity: Values<'_>, width: usize) -> Result<(), Error> {
    let violation = match (stiffness, viscosity) {
        (Values::Uniform(k), Values::Uniform(m)) => (k > m).then_some((k, m, None)),
        (Values::PerCell(cells), _) | (_, Values::PerCell(cells)) => (0..cells.len())
            .map(|i| (stiffness.get(i), viscosity.get(i), i))
            .find(|&(k, m, _)| k > m)
            .map(|(k, m, i)| (k, m, Some(i))),
    };
    match violation {
        None => Ok(()),
        Some((k, m, cell)) => Err(Error::StifferThanViscous {
            stiffness: k,
            viscosity: m,
            cell: cell.map(|i| [i % width, i / width]),
        }),
    }
}
