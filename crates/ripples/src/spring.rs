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
//!    values described below (`tests/spring.rs` checks this against a literal transcription of
//!    its loops).
//! 3. **Edges.** Border cells are set back to rest (`h = W = 0`), then walls
//!    ([`crate::Obstacles`]) are, then a sponge ([`crate::Sponge`]) damps both fields if asked.
//!
//! The spreading is the costly part: with 4 passes a step is about 8 sweeps of the grid in each
//! direction, about 90 us for 128x128 cells here, ten times the classic solver.
//!
//! One pass moves height from a cell to its neighbours by `spread` times the difference, so per
//! pass the heights see `h += spread * L h` (`L` the 5-point Laplacian) and the velocities get
//! the same push. Over a step that is a wave equation with a restoring force,
//! `h'' = passes * spread * L h - k h - m h'`, plus a diffusion of the heights that smooths the
//! shortest waves away. Its dispersion is `omega^2 ~ k + passes * spread * q^2`: waves run at
//! about `sqrt(passes * spread)` cells per step (0.32 with the defaults), and the stiffness sets
//! the lowest frequency the water can ring at, `sqrt(k)` radians per step, so a stiffer region
//! rings faster (`tests/spring.rs` measures periods of 63.8 and 31.4 steps for `k` = 0.01 and
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
//! `tests/spring.rs` runs 100,000 steps with the defaults.
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

use crate::boundary::{Obstacles, Sponge};
use crate::error::{Error, check_range, check_size};
use crate::sources::{interior_index, stamp_disk, stamp_polyline};

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
/// Largest spread accepted (the stability limit, see the module docs).
pub const MAX_SPREAD: f32 = 0.25;
/// Most spreading passes per step.
pub const MAX_SPREAD_PASSES: u32 = 16;
/// Largest stiffness or viscosity accepted.
pub const MAX_SPRING_COEFFICIENT: f32 = 1.0;

/// Heights and velocities smaller than this are set to 0 by the spring loop, so that calm water
/// becomes exactly flat instead of decaying into subnormal numbers (see the module docs). With
/// the default spread, nothing a step computes from values this large or 0 is subnormal.
const FLUSH_TO_ZERO: f32 = 1e-12;

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

/// The spring model of the Frogger HD seed on an `f32` grid (see the module documentation).
///
/// Heights are displacements from rest; a stone presses a dent (negative heights). Stiffness
/// and viscosity are uniform or set per cell, for example from a greyscale picture with
/// [`map_from_grey`], so that parts of the pool ring faster or calm sooner.
///
/// ```
/// use ripples::{Obstacles, SpringSolver};
///
/// let mut water = SpringSolver::new(64, 48)?;
/// water.drop_stone(32, 24, 4, 100.0);
/// let walls = Obstacles::new(64, 48);
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
    /// Scratch: what each cell gives to the cell before it in the current direction (`lp`).
    to_previous: Vec<f32>,
    /// Scratch: what each cell gives to the cell after it in the current direction (`rp`).
    to_next: Vec<f32>,
}

impl SpringSolver {
    /// Calm water on a `width x height` grid with the default stiffness, viscosity and spread.
    ///
    /// Fails if a side is 0 or the grid exceeds [`crate::MAX_SIDE`] / [`crate::MAX_CELLS`];
    /// the check happens before any allocation.
    pub fn new(width: u32, height: u32) -> Result<Self, Error> {
        let (width, height) = check_size(u64::from(width), u64::from(height))?;
        let cells = width as usize * height as usize;
        Ok(Self {
            width: width as usize,
            height: height as usize,
            stiffness: Coefficient::Uniform(DEFAULT_STIFFNESS),
            viscosity: Coefficient::Uniform(DEFAULT_VISCOSITY),
            spread: DEFAULT_SPREAD,
            passes: DEFAULT_SPREAD_PASSES,
            heights: vec![0.0; cells],
            velocities: vec![0.0; cells],
            to_previous: vec![0.0; cells],
            to_next: vec![0.0; cells],
        })
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
            return Err(Error::Invalid(format!(
                "spread must be a number in [0, {MAX_SPREAD}], got {spread}"
            )));
        }
        check_range("spread", spread, 0.0, MAX_SPREAD)?;
        check_range("spread passes", passes, 1, MAX_SPREAD_PASSES)?;
        self.spread = spread;
        self.passes = passes;
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

    /// Grid width in cells.
    pub fn width(&self) -> u32 {
        self.width as u32
    }

    /// Grid height in cells.
    pub fn height(&self) -> u32 {
        self.height as u32
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

    /// Both fields, `(heights, velocities)`, for callers that load or edit a state directly.
    ///
    /// Border cells are set back to 0 by every [`step`](Self::step).
    pub fn fields_mut(&mut self) -> (&mut [f32], &mut [f32]) {
        (&mut self.heights, &mut self.velocities)
    }

    /// Calms the water: heights and velocities back to 0.
    pub fn calm(&mut self) {
        self.heights.fill(0.0);
        self.velocities.fill(0.0);
    }

    /// Advances the water by one step (see the module documentation).
    ///
    /// Wall cells of `obstacles` are set to rest after the springs move and after every
    /// spreading sweep (a wall holds no water, so waves reflect off it and none leaks through),
    /// border cells after the step, then with `sponge` both fields are multiplied
    /// by its factors along the edges (open water: waves leave the pool). `obstacles` should be
    /// sized like the grid; a mask of another size covers only its first `width * height` cells.
    pub fn step(&mut self, obstacles: &Obstacles, sponge: Option<&Sponge>) {
        let (width, height) = (self.width, self.height);
        if width < 3 || height < 3 {
            // Every cell is a border cell.
            self.calm();
            return;
        }
        self.move_springs();
        self.dry(obstacles);
        for _ in 0..self.passes {
            // Walls are dried after every sweep: a sweep moves water one cell, so a wall dried
            // only once per step would leak through up to `2 * passes` cells of thickness.
            self.spread_along_x();
            self.dry(obstacles);
            self.spread_along_y();
            self.dry(obstacles);
        }
        self.rest_border();
        if let Some(sponge) = sponge {
            sponge.apply_f32(&mut self.heights, width, height);
            sponge.apply_f32(&mut self.velocities, width, height);
        }
    }

    /// Wall cells back to rest, in both fields.
    fn dry(&mut self, obstacles: &Obstacles) {
        obstacles.dry(&mut self.heights, 0.0);
        obstacles.dry(&mut self.velocities, 0.0);
    }

    /// Drops a stone: every interior cell `(px, py)` with `px` in `[x-r, x+r)`, `py` in
    /// `[y-r, y+r)` and `(px-x)^2 + (py-y)^2 < r^2` gets height `-strength` and velocity 0
    /// (the classic solver's disk).
    ///
    /// A disk that reaches past the edge is clipped; one entirely outside or a non-finite
    /// strength does nothing. A negative `strength` raises a bump instead of pressing a dent.
    pub fn drop_stone(&mut self, x: i32, y: i32, radius: u32, strength: f32) {
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
    pub fn swipe_path(
        &mut self,
        points: impl IntoIterator<Item = [i32; 2]>,
        radius: u32,
        strength: f32,
    ) {
        if !strength.is_finite() {
            return;
        }
        let (width, height) = (self.width, self.height);
        let (heights, velocities) = (&mut self.heights, &mut self.velocities);
        stamp_polyline(points, |x, y| {
            stamp_disk(heights, width, height, x, y, radius, -strength);
            stamp_disk(velocities, width, height, x, y, radius, 0.0);
        });
    }

    /// Sets the height of cell `(x, y)` now, leaving its velocity alone (a wave generator sets
    /// its cells every step). Border cells, cells outside the grid and non-finite values are
    /// ignored.
    pub fn set_height(&mut self, x: i32, y: i32, value: f32) {
        if let Some(i) = interior_index(x, y, self.width, self.height)
            && value.is_finite()
        {
            self.heights[i] = value;
        }
    }

    /// Step 1: every spring moves with its velocity, then Hooke's law with dissipation changes
    /// the velocity.
    fn move_springs(&mut self) {
        let (heights, velocities) = (&mut self.heights, &mut self.velocities);
        match (&self.stiffness, &self.viscosity) {
            (Coefficient::Uniform(k), Coefficient::Uniform(m)) => {
                move_springs(heights, velocities, Constant(*k), Constant(*m));
            }
            (Coefficient::Uniform(k), Coefficient::PerCell(m)) => {
                move_springs(heights, velocities, Constant(*k), m.iter().copied());
            }
            (Coefficient::PerCell(k), Coefficient::Uniform(m)) => {
                move_springs(heights, velocities, k.iter().copied(), Constant(*m));
            }
            (Coefficient::PerCell(k), Coefficient::PerCell(m)) => {
                move_springs(heights, velocities, k.iter().copied(), m.iter().copied());
            }
        }
    }

    /// One spreading pass along x, row by row (rows do not interact along x, so this is the
    /// seed's order for every cell).
    fn spread_along_x(&mut self) {
        let (width, spread) = (self.width, self.spread);
        let rows = self
            .heights
            .chunks_exact_mut(width)
            .zip(self.velocities.chunks_exact_mut(width))
            .zip(
                self.to_previous
                    .chunks_exact_mut(width)
                    .zip(self.to_next.chunks_exact_mut(width)),
            );
        for ((heights, velocities), (to_previous, to_next)) in rows {
            let givers = 1..width - 1;
            compute_pulls(
                spread,
                heights,
                givers.clone(),
                1,
                &mut to_previous[givers.clone()],
                &mut to_next[givers.clone()],
            );
            apply_pulls(heights, velocities, to_previous, to_next, givers, 1);
        }
    }

    /// One spreading pass along y, over the whole grid (the seed's two loops).
    fn spread_along_y(&mut self) {
        let (width, spread) = (self.width, self.spread);
        let givers = width..self.heights.len() - width;
        compute_pulls(
            spread,
            &self.heights,
            givers.clone(),
            width,
            &mut self.to_previous[givers.clone()],
            &mut self.to_next[givers.clone()],
        );
        apply_pulls(
            &mut self.heights,
            &mut self.velocities,
            &self.to_previous,
            &self.to_next,
            givers,
            width,
        );
    }

    /// Sets both fields to 0 on the border cells.
    fn rest_border(&mut self) {
        let (width, height) = (self.width, self.height);
        for field in [&mut self.heights, &mut self.velocities] {
            field[..width].fill(0.0);
            field[(height - 1) * width..].fill(0.0);
            for row in field.chunks_exact_mut(width) {
                row[0] = 0.0;
                row[width - 1] = 0.0;
            }
        }
    }

    /// Checks a per-cell map: its length, and every value a number in `[0, 1]`.
    fn check_map(&self, what: &'static str, per_cell: &[f32]) -> Result<(), Error> {
        let expected = self.heights.len();
        if per_cell.len() != expected {
            return Err(Error::BufferSize {
                what,
                got: per_cell.len(),
                expected,
                width: self.width as u32,
                height: self.height as u32,
            });
        }
        if let Some(i) = per_cell
            .iter()
            .position(|v| !(0.0..=MAX_SPRING_COEFFICIENT).contains(v))
        {
            return Err(Error::Invalid(format!(
                "{what}: cell ({}, {}) is {}, expected a number in [0, {MAX_SPRING_COEFFICIENT}]",
                i % self.width,
                i / self.width,
                per_cell[i]
            )));
        }
        Ok(())
    }

    fn index(&self, x: u32, y: u32) -> Option<usize> {
        let (x, y) = (x as usize, y as usize);
        (x < self.width && y < self.height).then_some(y * self.width + x)
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

/// The same value for every cell, as an endless iterator the compiler sees through.
#[derive(Clone, Copy)]
struct Constant(f32);

impl Iterator for Constant {
    type Item = f32;

    #[inline]
    fn next(&mut self) -> Option<f32> {
        Some(self.0)
    }
}

/// The seed's spring loop: `x = h; a = -k x - m W; h += W; W += a`.
#[inline]
fn move_springs(
    heights: &mut [f32],
    velocities: &mut [f32],
    stiffness: impl Iterator<Item = f32>,
    viscosity: impl Iterator<Item = f32>,
) {
    let cells = heights.iter_mut().zip(velocities.iter_mut());
    for (((h, w), k), m) in cells.zip(stiffness).zip(viscosity) {
        let x = *h;
        let acceleration = -k * x - m * *w;
        *h = flush_to_zero(*h + *w);
        *w = flush_to_zero(*w + acceleration);
    }
}

/// The seed's first loop: for every giver `i`, `to_previous = spread (h[i] - h[i - stride])`
/// and `to_next = spread (h[i] - h[i + stride])` (the slices are indexed from `givers.start`).
#[inline]
fn compute_pulls(
    spread: f32,
    heights: &[f32],
    givers: Range<usize>,
    stride: usize,
    to_previous: &mut [f32],
    to_next: &mut [f32],
) {
    let before = &heights[givers.start - stride..givers.end - stride];
    let centre = &heights[givers.clone()];
    let after = &heights[givers.start + stride..givers.end + stride];
    let pulls = to_previous.iter_mut().zip(to_next.iter_mut());
    for (((previous, next), &b), (&c, &a)) in pulls.zip(before).zip(centre.iter().zip(after)) {
        *previous = spread * (c - b);
        *next = spread * (c - a);
    }
}

/// The seed's velocity updates and second loop: cell `i + stride` gets `to_next[i]`, then cell
/// `i - stride` gets `to_previous[i]`, in height and velocity alike. Each cell thus receives
/// from the giver before it first and from the giver after it second, as in the seed.
#[inline]
fn apply_pulls(
    heights: &mut [f32],
    velocities: &mut [f32],
    to_previous: &[f32],
    to_next: &[f32],
    givers: Range<usize>,
    stride: usize,
) {
    let receivers = givers.start + stride..givers.end + stride;
    let fields = heights[receivers.clone()]
        .iter_mut()
        .zip(velocities[receivers].iter_mut());
    for ((h, w), &pull) in fields.zip(&to_next[givers.clone()]) {
        *w += pull;
        *h += pull;
    }
    let receivers = givers.start - stride..givers.end - stride;
    let fields = heights[receivers.clone()]
        .iter_mut()
        .zip(velocities[receivers].iter_mut());
    for ((h, w), &pull) in fields.zip(&to_previous[givers]) {
        *w += pull;
        *h += pull;
    }
}

/// `value`, or 0 if it is smaller than [`FLUSH_TO_ZERO`] (see the module documentation).
#[inline]
fn flush_to_zero(value: f32) -> f32 {
    if value.abs() < FLUSH_TO_ZERO {
        0.0
    } else {
        value
    }
}

/// Checks a uniform stiffness or viscosity: a number in `[0, 1]`.
fn check_coefficient(name: &str, value: f32) -> Result<f32, Error> {
    if !value.is_finite() {
        return Err(Error::Invalid(format!(
            "{name} must be a number in [0, {MAX_SPRING_COEFFICIENT}], got {value}"
        )));
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
        Some((k, m, cell)) => {
            let place = cell
                .map(|i| format!(" at cell ({}, {})", i % width, i / width))
                .unwrap_or_default();
            Err(Error::Invalid(format!(
                "stiffness {k} is above the viscosity {m}{place}: a spring stiffer than it is \
                 viscous gains energy every step (set the viscosity first, or both together)"
            )))
        }
    }
}
