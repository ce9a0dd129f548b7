//! Floating things: discs that bob on the waves, drift with them, and push the water in turn.
//!
//! A [`crate::Body`] is driven: it presses the water wherever the caller or its path puts it.
//! A [`Float`] is free: the water moves it, and it moves the water (two-way coupling, in the
//! spirit of Müller's height-field water for games). Each pool step, every float:
//!
//! - **Bobs.** The float is a flat-bottomed disc of `radius`, `thickness` and `density`
//!   (relative to water). It rests on the water through a pressure under it: where the mean
//!   surface `eta` under the disc reaches `s` above its bottom, the pressure head (pressure over
//!   `rho g`) is `p = k s` ([`CONTACT_STIFFNESS`] `k`, at most its thickness: a float held
//!   fully under), so `bottom'' = g (p / draft - 1)`, `draft = density * thickness`. At rest
//!   `p = draft` (Archimedes: the pressure carries its weight), and the water under it, pressed
//!   by `p`, sits `draft` below the rest of the water: the float sits in the dent it makes,
//!   `draft * (1 + 1/k)` deep. The contact is damped ([`CONTACT_DAMPING`]) against the float's
//!   motion relative to the water under it, so the float does not rattle on it (its own fast
//!   oscillation at `sqrt(k g / draft)`); a float moving with the water loses nothing there.
//!   Released, float and dent bob together at about `omega^2 = g k/(1+k) / (draft + m_a)`,
//!   `m_a = 4 R / (3 pi)` the added mass of a disc on deep water per area: the heavier the
//!   float, the slower (measured in `tests/it/floats.rs`), while the rings it radiates take its
//!   energy away. Gravity `g` is the dispersive solver's own
//!   ([`crate::DispersiveSolver::gravity`]), so a float bobs with the physics that makes those
//!   waves; the other solvers have none and use [`DEFAULT_FLOAT_GRAVITY`], the dispersive
//!   default. Stiff floats (thin: `g k / draft` large) are integrated in substeps with the
//!   water held (semi-implicit Euler, `omega dt < 0.5`), so every float is stable.
//! - **Drifts.** In linear wave theory a particle at the surface accelerates by `-g grad eta`;
//!   the float accelerates by the mean of that under it while it is in the water (well out of
//!   it, it flies on), so on a passing wave it follows the water's orbits (its velocity in phase
//!   with the surface, with the Stokes drift of something that moves with the wave), a wake's
//!   slopes push it, and a float wider than the waves averages them out and stays. It is also
//!   dragged ([`WATER_DRAG`]) towards the water's horizontal motion, which a height field does
//!   not keep: each float carries an estimate of it, the same surface acceleration integrated
//!   and forgotten over [`WATER_MEMORY_STEPS`] (so a surface held tilted, as under a body, does
//!   not push for ever).
//! - **Pushes the water.** The pressure head goes onto the heights under the float for the
//!   solver's step and comes off after it ([`crate::Solver`]'s `raise`, both fields of a
//!   leapfrog solver so no velocity is added), so the step computes its operator on
//!   `heights + p`: the water answers `d²eta/dt² = -K (eta + p)`, the linear free-surface
//!   equation under a surface pressure, with each solver's own `K` (the Laplacian of the wave
//!   and classic solvers, `g |k|` of the dispersive one, the springs' pull). Why this and not
//!   [`crate::Solver::apply_pressure`] (a body's impulse) or Müller's moving of the displaced
//!   volume into the cells around: `K` of a constant is 0 (but for the springs, which pull
//!   every column to rest anyway), so the pressure moves water but never makes or destroys any
//!   (measured: no more than the solver's own `f32` rounding does), and the water it pushes out
//!   of the dent goes where the waves take it, as rings. An impulse adds to the water's momentum
//!   and, held for ever under a resting float, would drain the pool through the dent; moving
//!   the displaced volume by hand into a ring around the float was tried first and gained
//!   energy (the rings it makes refocus under the float and lift it, which moves more: a float
//!   dropped 1 pixel bobbed 8 pixels high within 300 steps). Walls take no pressure.
//!   A float that sinks deepens its dent, pushing the water around it up; one that rises lets it
//!   fall back: so a bobbing float radiates rings and two floats feel each other's. The classic
//!   solver takes whole numbers: each head is rounded with the bodies' dither (so its mean is
//!   exact), and the same integers come off that went on.
//!
//! **Units.** Positions and sizes are image pixels, as everywhere in a pool; the dynamics run
//! in grid cells. The solvers' heights are in their own units (a stone of strength 128 makes a
//! dent 128 deep); [`HEIGHT_UNITS_PER_CELL`] is the one conversion between heights and lengths,
//! used both ways: a height of 16 is one cell. So a ripple 48 high is 3 cells high, and a duck
//! of draft 4 cells presses a dent 64 deep.
//!
//! **Bounded.** Velocities are clamped to [`MAX_FLOAT_SPEED`] cells per step, the bottom stays
//! within `±`[`MAX_FLOAT_HEIGHT_CELLS`] of rest, the pressure head within the float's thickness,
//! and a float stops at the pool's edge (its centre is clamped to the interior cells and its
//! velocity across the edge set to 0) and in front of a wall: nothing the water does makes a
//! value that is not finite.

use std::sync::Arc;

use crate::disturbances::numbered::{Counted, Numbered};
use crate::error::Error;
use crate::limits::check_radius;
use crate::looks::Heights;
use crate::simulation::boundary::Obstacles;

/// Solver height units per grid cell of length: the one conversion between the solvers' heights
/// and lengths. A float's draft, lift and thickness, given in cells, are this many height units
/// per cell when they meet the water's heights.
pub const HEIGHT_UNITS_PER_CELL: f32 = 16.0;

/// Gravity, in cells per step², for floats on solvers that have none of their own (all but the
/// dispersive one): the dispersive solver's default.
pub const DEFAULT_FLOAT_GRAVITY: f32 =
    crate::simulation::dispersive::DispersiveSolver::DEFAULT_GRAVITY;

/// Largest speed of a float along any axis, in grid cells per step.
pub const MAX_FLOAT_SPEED: f32 = 2.0;

/// Largest distance of a float's bottom from the water's rest level, in grid cells.
pub const MAX_FLOAT_HEIGHT_CELLS: f32 = 4096.0;

/// Steps over which a float's estimate of the water's horizontal motion fades.
pub const WATER_MEMORY_STEPS: f32 = 200.0;

/// The rate, per step, at which a float is dragged towards the water's horizontal motion.
pub const WATER_DRAG: f32 = 0.05;

/// How stiff the contact between a float's bottom and the water is: the pressure head under it is
/// this times how far the water surface reaches into it, in cells (a spring between the float and
/// the water, stiff enough that a float at rest sits at its draft within a few steps).
pub const CONTACT_STIFFNESS: f32 = 4.0;

/// The damping ratio of that contact, the float's bob on the water: 1 would be critically
/// damped (no bounce), so 0.7 lets a dropped float bounce once or twice and settle.
pub const CONTACT_DAMPING: f32 = 0.7;

/// Largest thickness or lift, in pixels.
const MAX_FLOAT_SIZE: f32 = 4096.0;

/// Smallest density, relative to water: air's is 0.0012. Lighter would not float but fly, and a
/// draft near 0 makes the contact's frequency `sqrt(g k / draft)` overflow (a density of 3e-42
/// made the bottom NaN on its first step, found by the `api_sequence` fuzz target).
pub const MIN_FLOAT_DENSITY: f32 = 0.001;

/// Smallest thickness, in pixels: thinner is a film, not a float, and keeps the draft (density
/// times thickness) away from 0 for the same reason as [`MIN_FLOAT_DENSITY`].
pub const MIN_FLOAT_THICKNESS: f32 = 0.01;

/// Largest number of vertical substeps in a step.
const MAX_SUBSTEPS: u32 = 64;

/// Names a float in a [`crate::Pool`], from [`crate::Pool::add_float`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FloatId(pub(crate) u64);

/// A picture to draw a float with: `width x height` RGBA pixels (straight alpha), scaled to the
/// float's disc when drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FloatImage {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl FloatImage {
    /// A picture of `width x height` pixels from `rgba` (4 bytes a pixel, row-major). A zero
    /// side or a wrong length is an [`Error`] naming it.
    pub fn new(width: u32, height: u32, rgba: Vec<u8>) -> Result<Self, Error> {
        if width == 0 || height == 0 {
            return Err(Error::EmptySize {
                width: width.into(),
                height: height.into(),
            });
        }
        let expected = width as usize * height as usize * 4;
        if rgba.len() != expected {
            return Err(Error::WrongLength {
                buffer: crate::Buffer::FloatImage,
                got: rgba.len(),
                expected,
                width: width as usize,
                height: height as usize,
            });
        }
        Ok(Self {
            width,
            height,
            rgba,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, RGBA, row-major.
    pub fn rgba(&self) -> &[u8] {
        &self.rgba
    }
}

/// A floating disc: `radius` pixels, `density` relative to water (`0.001 <= density < 1`), as
/// thick as its radius unless [`with_thickness`](Self::with_thickness) says otherwise. Put it in
/// a pool with [`crate::Pool::add_float`]: it settles at its floating level there and from then
/// on the water moves it (see the module documentation of how).
///
/// ```
/// use ripples::{Float, Pool};
///
/// let mut pool = Pool::new(200, 200)?;
/// // A cork of radius 6 released 4 pixels above the level it floats at.
/// let cork = pool.add_float(Float::new(100.0, 100.0, 6, 0.3)?.lifted(4.0)?)?;
/// for _ in 0..200 {
///     pool.step();
/// }
/// let cork = pool.float(cork).unwrap();
/// // It fell, bobbed, and is settling in the dent it presses, about its draft (0.3 * 6
/// // pixels) deep.
/// assert!(cork.bottom() < 0.0);
/// # Ok::<(), ripples::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Float {
    radius: u32,
    density: f32,
    thickness: f32,
    image: Option<Arc<FloatImage>>,
    /// Where it starts above its floating level, pixels (used when it is put in a pool).
    lift: f32,
    /// Centre, image pixels.
    position: [f32; 2],
    /// Height of its bottom above the water's rest level, grid cells.
    bottom: f32,
    /// Velocity along x, y and up, grid cells per step.
    velocity: [f32; 3],
    /// The estimate of the water's horizontal velocity under it, cells per step.
    water_velocity: [f32; 2],
    /// The pressure head under it during the last step, cells.
    pressure: f32,
    /// The mean level of the water under it last step, cells (NaN before its first step).
    level: f32,
    /// Pixels per grid cell of the pool it is in (1 before).
    scale: f32,
}

impl Float {
    /// A float centred on image pixel `(x, y)` (fractions allowed): `radius` in `1..=4096`
    /// pixels, `density` relative to water, from [`MIN_FLOAT_DENSITY`] (0.001) up to but not
    /// including 1 (0.1 a cork or a leaf, 0.5 a duck, 0.9 a log of wet oak). Anything else is
    /// an [`Error`] naming the value.
    pub fn new(x: f32, y: f32, radius: u32, density: f32) -> Result<Self, Error> {
        let float = Self {
            radius,
            density,
            thickness: radius as f32,
            image: None,
            lift: 0.0,
            position: [x, y],
            bottom: 0.0,
            velocity: [0.0; 3],
            water_velocity: [0.0; 2],
            pressure: 0.0,
            level: f32::NAN,
            scale: 1.0,
        };
        float.validate()?;
        Ok(float)
    }

    /// The same float `thickness` pixels thick (`0.01 <= thickness <= 4096`): its draft is
    /// `density * thickness`.
    pub fn with_thickness(mut self, thickness: f32) -> Result<Self, Error> {
        self.thickness = thickness;
        self.validate()?;
        Ok(self)
    }

    /// The same float released `lift` pixels above the level it floats at (negative: pushed
    /// under), so that it bobs; `|lift| <= 4096`.
    pub fn lifted(mut self, lift: f32) -> Result<Self, Error> {
        self.lift = lift;
        self.validate()?;
        Ok(self)
    }

    /// The same float drawn with `image` instead of a shaded disc.
    pub fn with_image(mut self, image: Arc<FloatImage>) -> Self {
        self.image = Some(image);
        self
    }

    /// Checks every value, naming the first one out of range.
    pub fn validate(&self) -> Result<(), Error> {
        check_radius(i64::from(self.radius))?;
        check_density(self.density)?;
        check_thickness(self.thickness)?;
        if !(self.lift.is_finite() && self.lift.abs() <= MAX_FLOAT_SIZE) {
            return Err(Error::not_allowed(
                "float lift",
                self.lift,
                format!("a number of pixels within -{MAX_FLOAT_SIZE}..={MAX_FLOAT_SIZE}"),
            ));
        }
        let [x, y] = self.position;
        if !(x.is_finite() && y.is_finite()) {
            return Err(Error::NotFinitePosition {
                name: "float position",
                x: x.into(),
                y: y.into(),
            });
        }
        Ok(())
    }

    /// Radius in pixels.
    pub fn radius(&self) -> u32 {
        self.radius
    }

    /// Density relative to water.
    pub fn density(&self) -> f32 {
        self.density
    }

    /// Thickness in pixels.
    pub fn thickness(&self) -> f32 {
        self.thickness
    }

    /// How deep it floats on calm water, in pixels: `density * thickness` (the depth of the
    /// dent it presses; see the module documentation).
    pub fn draft(&self) -> f32 {
        self.density * self.thickness
    }

    /// The picture it is drawn with, if any.
    pub fn image(&self) -> Option<&FloatImage> {
        self.image.as_deref()
    }

    /// Its centre, in image pixels.
    pub fn position(&self) -> [f32; 2] {
        self.position
    }

    /// The height of its bottom above the water's rest level, in pixels (about
    /// `-draft * (1 + 1/`[`CONTACT_STIFFNESS`]`)` when it rests on calm water, in its dent).
    pub fn bottom(&self) -> f32 {
        self.bottom * self.scale
    }

    /// Its velocity along x, y and up, in pixels per step.
    pub fn velocity(&self) -> [f32; 3] {
        self.velocity.map(|v| v * self.scale)
    }

    /// The volume of water it displaces, in the units of a sum of the solver's heights (height
    /// units times cells): the pressure under it times its area, which at rest is its weight
    /// (Archimedes). The water makes room for it by the dent that pressure presses; the sum of
    /// the heights does not change (see the module documentation).
    pub fn displaced_volume(&self) -> f64 {
        let area = self.disc_in_cells().area();
        f64::from(area * self.pressure) * f64::from(HEIGHT_UNITS_PER_CELL)
    }

    /// Its mechanical energy with the water held as it is: kinetic, gravity's potential
    /// (from the rest level) and the contact's (`g * integral of A p dz`), in grid cells (mass
    /// in cells³ of water, lengths in cells, per step²).
    pub(crate) fn energy(&self, water: &WaterView<'_>, gravity: f32) -> f64 {
        let disc = self.disc_in_cells();
        let area = f64::from(disc.area());
        let thickness = f64::from(self.thickness / self.scale);
        let mass = area * f64::from(self.density) * thickness;
        let [vx, vy, vz] = self.velocity.map(f64::from);
        let kinetic = 0.5 * mass * (vx * vx + vy * vy + vz * vz);
        let g = f64::from(gravity);
        let k = f64::from(CONTACT_STIFFNESS);
        let reach = thickness / k;
        // The potential of the contact pressure p = k clamp(s, 0, T/k) over the penetration s.
        let s = f64::from(disc.mean_level(water)) - f64::from(self.bottom);
        let contact = if s <= 0.0 {
            0.0
        } else if s <= reach {
            0.5 * k * s * s
        } else {
            0.5 * k * reach * reach + thickness * (s - reach)
        };
        kinetic + mass * g * f64::from(self.bottom) + g * area * contact
    }

    /// Sets its velocity, pixels per step (clamped to [`MAX_FLOAT_SPEED`]).
    pub(crate) fn set_velocity(&mut self, velocity: [f32; 3]) -> Result<(), Error> {
        if velocity.iter().any(|v| !v.is_finite()) {
            return Err(Error::NotFiniteVelocity { velocity });
        }
        self.velocity = velocity.map(|v| (v / self.scale).clamp(-MAX_FLOAT_SPEED, MAX_FLOAT_SPEED));
        Ok(())
    }

    /// The most cells of a `width x height` grid it can press (its disc's square, clipped to
    /// the grid).
    fn most_cells(&self, width: usize, height: usize) -> usize {
        let span = (2.0 * (self.disc_in_cells().radius + 0.5)).ceil() as usize + 2;
        span.min(width) * span.min(height)
    }

    /// The disc in grid cells.
    fn disc_in_cells(&self) -> Disc {
        let [x, y] = self.position;
        let s = self.scale;
        Disc {
            centre: [(x + 0.5) / s - 0.5, (y + 0.5) / s - 0.5],
            radius: (self.radius as f32 / s).max(0.5),
        }
    }

    /// The pressure head under it for a bottom at `bottom` over water whose mean level under
    /// it is `level` (cells): `k` times how far the water reaches into it, at most its
    /// thickness (the pressure that carries it fully under).
    fn pressure_head(&self, level: f32, bottom: f32) -> f32 {
        let thickness = self.thickness / self.scale;
        CONTACT_STIFFNESS * (level - bottom).clamp(0.0, thickness / CONTACT_STIFFNESS)
    }

    /// Puts it in a pool of `scale` pixels per cell: at its floating level on the water under
    /// it (plus its lift), at rest.
    pub(crate) fn settle(&mut self, water: &WaterView<'_>, scale: u32) {
        self.scale = scale as f32;
        // Put outside the pool, it starts at its edge.
        let (first, last) = water.interior();
        let centre = self.disc_in_cells().centre;
        self.position = [0, 1]
            .map(|axis| (centre[axis].clamp(first[axis], last[axis]) + 0.5) * self.scale - 0.5);
        let disc = self.disc_in_cells();
        let under = disc.mean_level(water);
        let draft = self.density * self.thickness / self.scale;
        // The contact carries its weight at a penetration of draft / k.
        self.bottom = (under - draft / CONTACT_STIFFNESS + self.lift / self.scale)
            .clamp(-MAX_FLOAT_HEIGHT_CELLS, MAX_FLOAT_HEIGHT_CELLS);
        self.velocity = [0.0; 3];
        self.water_velocity = [0.0; 2];
        self.pressure = self.pressure_head(under, self.bottom);
        self.level = under;
    }

    /// One step: reads the water, moves, and adds its pressure head to `heads` as
    /// `(cell index, height units)` (the step's mean pressure, on the cells under it).
    pub(crate) fn step(
        &mut self,
        water: &WaterView<'_>,
        gravity: f32,
        heads: &mut Vec<(usize, f32)>,
    ) {
        let disc = self.disc_in_cells();
        let area = disc.area();
        let thickness = self.thickness / self.scale;
        let draft = self.density * thickness;
        // The water under it: its mean level and slope (rest water off the grid).
        let mut level = 0.0;
        let mut slope = [0.0f32; 2];
        disc.for_each_cell(water.width, water.height, |x, y, weight| {
            level += weight * water.level(x, y);
            let [sx, sy] = water.slope(x, y);
            slope[0] += weight * sx;
            slope[1] += weight * sy;
        });
        level /= area;
        slope = slope.map(|s| s / area);

        // Horizontal: the surface's slope, and the drag towards the water's motion, while it is
        // in the water or within half its thickness (at least a cell) above it, so a light
        // float that skips off a crest for a step keeps riding the wave; further out it flies on.
        let carried = if level - self.bottom > -0.5 * thickness.max(1.0) {
            1.0
        } else {
            0.0
        };
        let horizontal = self.velocity.iter_mut().zip(&mut self.water_velocity);
        for ((velocity, water_velocity), slope) in horizontal.zip(slope) {
            let push = -gravity * slope;
            *water_velocity = (*water_velocity + push - *water_velocity / WATER_MEMORY_STEPS)
                .clamp(-MAX_FLOAT_SPEED, MAX_FLOAT_SPEED);
            let drag = WATER_DRAG * (*water_velocity - *velocity);
            *velocity =
                (*velocity + carried * (push + drag)).clamp(-MAX_FLOAT_SPEED, MAX_FLOAT_SPEED);
        }

        // Vertical: the contact's pressure against gravity, in substeps short enough for the
        // contact's stiffness (semi-implicit Euler, omega dt < 0.5). The contact is damped
        // (ratio CONTACT_DAMPING) against the float's motion relative to the water under it,
        // so the float does not rattle on it; moving with the water, it loses nothing.
        let omega = (gravity * CONTACT_STIFFNESS / draft).sqrt();
        let damper = 2.0 * CONTACT_DAMPING * omega * draft / gravity;
        let level_rate = if self.level.is_finite() {
            level - self.level
        } else {
            0.0
        };
        self.level = level;
        let substeps = ((omega / 0.5).ceil() as u32).clamp(1, MAX_SUBSTEPS);
        let dt = 1.0 / substeps as f32;
        let mut pressure = 0.0;
        for _ in 0..substeps {
            let mut head = self.pressure_head(level, self.bottom);
            if head > 0.0 {
                head = (head + damper * (level_rate - self.velocity[2])).clamp(0.0, thickness);
            }
            pressure += head;
            let up = (self.velocity[2] + gravity * (head / draft - 1.0) * dt)
                .clamp(-MAX_FLOAT_SPEED, MAX_FLOAT_SPEED);
            self.velocity[2] = up;
            self.bottom =
                (self.bottom + up * dt).clamp(-MAX_FLOAT_HEIGHT_CELLS, MAX_FLOAT_HEIGHT_CELLS);
        }
        self.pressure = pressure * dt;

        // Press the water where it was this step (it moves after).
        let head = self.pressure * HEIGHT_UNITS_PER_CELL;
        if head > 0.0 {
            disc.for_each_cell(water.width, water.height, |x, y, weight| {
                if water.takes_water(x, y) {
                    heads.push((y * water.width + x, head * weight));
                }
            });
        }
        self.glide(water);
    }

    /// Moves the centre by the horizontal velocity, stopping at the pool's edge (the centre stays
    /// on interior cells) and in front of a wall.
    fn glide(&mut self, water: &WaterView<'_>) {
        let s = self.scale;
        let [cx, cy] = self.disc_in_cells().centre;
        let (first, last) = water.interior();
        let mut next = [cx + self.velocity[0], cy + self.velocity[1]];
        for axis in 0..2 {
            if next[axis] < first[axis] || next[axis] > last[axis] {
                next[axis] = next[axis].clamp(first[axis], last[axis]);
                self.velocity[axis] = 0.0;
                self.water_velocity[axis] = 0.0;
            }
        }
        let cell = next.map(|c| c.round() as i64);
        if water.obstacles.is_wall(cell[0], cell[1]) {
            self.velocity[0] = 0.0;
            self.velocity[1] = 0.0;
            self.water_velocity = [0.0; 2];
            return;
        }
        self.position = next.map(|c| (c + 0.5) * s - 0.5);
    }
}

/// Checks a float's density: from [`MIN_FLOAT_DENSITY`] (about air's) up to but not including 1
/// (water's).
pub(crate) fn check_density(density: f32) -> Result<f32, Error> {
    if (MIN_FLOAT_DENSITY..1.0).contains(&density) {
        Ok(density)
    } else {
        Err(Error::not_allowed(
            "float density",
            density,
            format!(
                "a number from {MIN_FLOAT_DENSITY} up to but not including 1 \
                 (water is 1, air about 0.0012)"
            ),
        ))
    }
}

/// Checks a float's thickness: a number of pixels in `[0.01, 4096]`.
pub(crate) fn check_thickness(thickness: f32) -> Result<f32, Error> {
    if (MIN_FLOAT_THICKNESS..=MAX_FLOAT_SIZE).contains(&thickness) {
        Ok(thickness)
    } else {
        Err(Error::not_allowed(
            "float thickness",
            thickness,
            format!("a number of pixels from {MIN_FLOAT_THICKNESS} to {MAX_FLOAT_SIZE}"),
        ))
    }
}

/// The water as a float sees it: levels in cells of length, slopes, walls.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WaterView<'a> {
    /// The solver's heights.
    pub(crate) heights: Heights<'a>,
    /// Grid width in cells.
    pub(crate) width: usize,
    /// Grid height in cells.
    pub(crate) height: usize,
    /// The walls (held at rest, never exchanged with).
    pub(crate) obstacles: &'a Obstacles,
}

impl WaterView<'_> {
    /// The surface's height at cell `(x, y)` (on the grid) in cells of length.
    fn level(&self, x: usize, y: usize) -> f32 {
        let i = y * self.width + x;
        let units = match self.heights {
            Heights::I16(h) => f32::from(h[i]),
            Heights::F32(h) => h[i],
        };
        units / HEIGHT_UNITS_PER_CELL
    }

    /// The surface's slope at cell `(x, y)` (central differences, one-sided at the edge), cells
    /// per cell.
    fn slope(&self, x: usize, y: usize) -> [f32; 2] {
        // The neighbours' cells along one axis (clamped to the grid) and the slope between
        // them; a side one cell long has none.
        let difference = |at: usize, side: usize, level: &dyn Fn(usize) -> f32| {
            let (a, b) = (at.saturating_sub(1), (at + 1).min(side - 1));
            if b > a {
                (level(b) - level(a)) / (b - a) as f32
            } else {
                0.0
            }
        };
        [
            difference(x, self.width, &|column| self.level(column, y)),
            difference(y, self.height, &|row| self.level(x, row)),
        ]
    }

    /// The first and last cell a float's centre may be on, along x and y: the interior cells
    /// (the only cell, on a grid too small to have an interior).
    fn interior(&self) -> ([f32; 2], [f32; 2]) {
        let last = [self.width, self.height].map(|side| side.saturating_sub(2) as f32);
        let first = last.map(|last| last.min(1.0));
        (first, last)
    }

    /// Whether the float may put water at `(x, y)`: an interior cell, not a wall.
    fn takes_water(&self, x: usize, y: usize) -> bool {
        x >= 1
            && y >= 1
            && x + 1 < self.width
            && y + 1 < self.height
            && !self.obstacles.is_wall(x as i64, y as i64)
    }
}

/// A disc in grid cells.
#[derive(Debug, Clone, Copy)]
struct Disc {
    centre: [f32; 2],
    radius: f32,
}

impl Disc {
    /// The integral of the weights over the plane: `pi (r² + 1/12)` for weights
    /// `clamp(r + 1/2 - d, 0, 1)`.
    fn area(&self) -> f32 {
        std::f32::consts::PI * (self.radius * self.radius + 1.0 / 12.0)
    }

    /// Calls `visit(x, y, weight)` for every cell of a `width x height` grid the disc covers:
    /// weight 1 inside, falling linearly to 0 across the rim's cell.
    fn for_each_cell(&self, width: usize, height: usize, mut visit: impl FnMut(usize, usize, f32)) {
        let reach = self.radius + 0.5;
        let [cx, cy] = self.centre;
        let x_start = (cx - reach).floor().max(0.0);
        let x_end = (cx + reach).ceil().min(width as f32 - 1.0);
        let y_start = (cy - reach).floor().max(0.0);
        let y_end = (cy + reach).ceil().min(height as f32 - 1.0);
        if !(x_start <= x_end && y_start <= y_end) {
            return;
        }
        for y in y_start as usize..=y_end as usize {
            let dy = y as f32 - cy;
            for x in x_start as usize..=x_end as usize {
                let d = (x as f32 - cx).hypot(dy);
                let weight = (reach - d).clamp(0.0, 1.0);
                if weight > 0.0 {
                    visit(x, y, weight);
                }
            }
        }
    }

    /// The mean level of the water under the disc (rest water off the grid), cells.
    fn mean_level(&self, water: &WaterView<'_>) -> f32 {
        let mut sum = 0.0;
        self.for_each_cell(water.width, water.height, |x, y, weight| {
            sum += weight * water.level(x, y);
        });
        sum / self.area()
    }
}

/// The floats of a pool, in the order they were added (as a [`Numbered`] list, which it
/// derefs to), with the pressure heads of the step (kept, so a step allocates nothing once the
/// vector has grown).
#[derive(Debug, Clone, Default)]
pub(crate) struct Floats {
    items: Numbered<FloatId, Float>,
    heads: Vec<(usize, f32)>,
}

impl Counted for FloatId {
    fn from_counter(counter: u64) -> Self {
        Self(counter)
    }
}

impl std::ops::Deref for Floats {
    type Target = Numbered<FloatId, Float>;

    fn deref(&self) -> &Self::Target {
        &self.items
    }
}

impl std::ops::DerefMut for Floats {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.items
    }
}

impl Floats {
    /// Adds a float to a pool whose grid is `width x height` cells, making room for every
    /// pressure head the floats can press, so that no step allocates (not even the first one in
    /// which a float dropped from above touches the water).
    pub(crate) fn add(&mut self, float: Float, width: usize, height: usize) -> FloatId {
        let most = |float: &Float| float.most_cells(width, height);
        let needed = self.items.iter().map(most).sum::<usize>() + most(&float);
        self.heads.reserve(needed.saturating_sub(self.heads.len()));
        self.items.add(float)
    }

    /// Steps every float on `water` and answers the pressure heads they press it with, as
    /// `(cell index, height units)`; for integer water (`dither_seed` given) each is rounded to
    /// a whole number with a dither drawn from the seed, so the mean is exact.
    pub(crate) fn step_all(
        &mut self,
        water: &WaterView<'_>,
        gravity: f32,
        dither_seed: Option<u64>,
    ) -> &[(usize, f32)] {
        self.heads.clear();
        for float in self.items.iter_mut() {
            float.step(water, gravity, &mut self.heads);
        }
        if let Some(seed) = dither_seed {
            for (i, head) in &mut self.heads {
                *head =
                    (*head + crate::disturbances::body::unit_hash(seed, *i as u64) - 0.5).round();
            }
        }
        &self.heads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_floats_are_refused_naming_the_value() {
        let error = |result: Result<Float, Error>| result.unwrap_err().to_string();
        for density in [0.0, 3.23e-42, 0.0009, 1.0, 1.5, -0.2, f32::NAN] {
            let message = error(Float::new(1.0, 1.0, 4, density));
            assert!(
                message.contains("float density must be a number from 0.001 up to but not")
                    && message.contains(&format!("got {density}")),
                "{message}"
            );
        }
        assert!(error(Float::new(1.0, 1.0, 0, 0.5)).contains("radius must be >= 1, got 0"));
        assert!(error(Float::new(f32::INFINITY, 1.0, 3, 0.5)).contains("finite"));
        let float = Float::new(1.0, 1.0, 3, 0.5).unwrap();
        assert!(error(float.clone().with_thickness(0.0)).contains("thickness"));
        assert!(
            error(float.clone().with_thickness(0.009)).contains("from 0.01 to 4096, got 0.009")
        );
        assert!(error(float.clone().with_thickness(f32::NAN)).contains("NaN"));
        assert!(error(float.lifted(5000.0)).contains("lift"));
        assert!(
            FloatImage::new(2, 2, vec![0; 15])
                .unwrap_err()
                .to_string()
                .contains("15 bytes")
        );
    }

    #[test]
    fn a_disc_covers_its_area() {
        // The weights sum to pi (r² + 1/12) wherever the centre lies, within 3% from r = 2.
        for radius in [2.0f32, 5.0, 17.0] {
            for centre in [[50.0, 50.0], [50.5, 50.5], [50.25, 50.8]] {
                let disc = Disc { centre, radius };
                let mut sum = 0.0;
                disc.for_each_cell(100, 100, |_, _, w| sum += w);
                let area = disc.area();
                assert!(
                    (sum / area - 1.0).abs() < 0.03,
                    "r {radius}: {sum} vs {area}"
                );
            }
        }
    }
}
