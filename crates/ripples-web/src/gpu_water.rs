//! What the wasm module still does when the page's GPU steps the water (`web/gl/simulation.js`):
//! the rules, never the cells.
//!
//! The GPU holds both fields and steps them; per frame it gets from here only the number of
//! steps due and that frame's events. Every rule stays written once, in Rust, for both paths:
//!
//! - **the clock and the rain's seeded stream**: [`WebPool::advance`](crate::WebPool) runs the
//!   core's clock and [`ripples::Rain`] exactly as on the CPU path, and queues each raindrop with
//!   the step it falls before, instead of pressing it;
//! - **where a stone lands and its radius in cells**: [`ripples::Pool::stone_in_grid`], which the
//!   CPU path's `drop_stone` uses too;
//! - **the fingers**: the pointer's fingertips are the core's bodies, moved and pressed by the
//!   core ([`ripples::Pool::take_body_presses`]), and each press (its centre, radius and
//!   impulse, in cells) is queued with its step; the GPU adds it to the current heights as
//!   the core's `Press::into_f32` does, a raised cosine under the disc;
//! - **a stone's shape**: the raised-cosine dent, which the GPU presses where it is deeper than
//!   the water (in both fields), and the dispersive solver's two rims, which put back the
//!   volume and second moment the dent pushed aside. What the dent pushed aside depends on the
//!   water under it, which only the GPU holds: it sums it there. The rest is the grid's
//!   geometry, [`DispersiveSolver::stone_rims`] (the cells the rims cover, cut at the edges,
//!   and the solve that turns the two sums into the rims' heights), queued with the stone.
//!   The core's own test (`tests/it/dispersive.rs`) holds the GPU's recipe, written in Rust,
//!   to `drop_stone`'s on moving water and at an edge;
//! - **the step's constants**: [`DispersiveSolver::coefficients`]; **the natural look's surface
//!   constants**: [`ripples::Pool::natural_surface_constants`];
//! - **calm**: the water is calm once the strongest event since the water was last calm (a
//!   stone, or a finger's press on the scale of the dent it makes) has decayed by the solver's
//!   damping (every wave loses the fraction `damping` of its amplitude per step) below the calm
//!   tolerance, or sooner, once the GPU has measured it: now and then it reduces the water to
//!   its largest height and reads that back asynchronously, a frame or more later, never
//!   waiting on it ([`GpuQueue::measured`]); it is calm if nothing disturbed the water since
//!   ([`GpuQueue::is_calm`]). Waves that leave through an absorbing edge, or spread thin,
//!   are so known calm long before the damping alone says so.

use ripples::{BODY_PRESSURE, Solver, StoneRims};

/// Floats per queued stone in [`GpuQueue::take`]: the step it falls before, its cell (x, y),
/// its radius in cells, its depth (negative: down; see [`Solver::drop_stone`]), then its
/// rims' cells `[x0, x1, y0, y1]` and solve `[a0, a1, b0, b1]` (see [`StoneRims`]).
pub const STONE_FLOATS: usize = 13;

/// The rims of a stone that has none (the wave solver's): no cells.
pub const NO_RIMS: StoneRims = StoneRims {
    cells: [0; 4],
    solve: [0.0; 4],
};

/// Floats per queued press in [`GpuQueue::take`]: the step it presses before, its centre (x,
/// y) and radius in cells (fractional), and its impulse.
pub const PRESS_FLOATS: usize = 5;

/// Steps and events waiting for the GPU.
#[derive(Debug, Clone, Default)]
pub struct GpuQueue {
    /// The GPU's fields are to be set to rest first ([`WebPool::calm`](crate::WebPool)).
    clear: bool,
    /// Solver steps due.
    steps: u32,
    /// `STONE_FLOATS` per stone, in the order they fall.
    stones: Vec<f32>,
    /// `PRESS_FLOATS` per press, in the order they press.
    presses: Vec<f32>,
    /// The largest |strength| of a stone since the water was last calm (0: calm).
    strongest: f32,
    /// Steps since that stone.
    since_strongest: u64,
    /// Steps queued since the GPU took over the water (stats' step count).
    stepped: u64,
    /// The water the GPU holds is to be carried onto the pool's new grid first (a resize, a
    /// new pool that took the water): `[from width, from height, box scale x, box scale y]`.
    carry: Option<[f32; 4]>,
    /// Counts the stones and presses queued: a measurement of the water is of the water after
    /// the disturbances counted when it was taken ([`measured`](Self::measured)).
    disturbances: u64,
    /// The GPU measured the water calm and nothing disturbed it since.
    measured_calm: bool,
}

impl GpuQueue {
    /// A stone at cell `(x, y)` of `radius` cells with its `rims` (see
    /// [`DispersiveSolver::stone_rims`](ripples::DispersiveSolver::stone_rims)), before the next
    /// step that is queued after it. A stone of no radius or strength moves nothing (as in the
    /// core) and is not queued.
    pub fn stone(&mut self, (x, y, radius): (i32, i32, u32), strength: f32, rims: StoneRims) {
        // The solver's stone is WAVE_STONE_DEPTH times its strength deep: see
        // Solver::drop_stone.
        let depth = -strength * Solver::WAVE_STONE_DEPTH;
        if radius == 0 || depth == 0.0 || !depth.is_finite() {
            return;
        }
        let at = self.steps as f32;
        self.stones
            .extend_from_slice(&[at, x as f32, y as f32, radius as f32, depth]);
        self.stones.extend(rims.cells.map(|c| c as f32));
        self.stones.extend(rims.solve.map(|c| c as f32));
        self.disturbed(depth.abs());
    }

    /// A body's press (see [`ripples::Pool::take_body_presses`]) before the next step that is
    /// queued after it. One that is not finite, or of no radius, presses nothing (as in the
    /// core) and is not queued.
    pub fn press(&mut self, centre: [f32; 2], radius: f32, impulse: f32) {
        if !(centre.iter().all(|c| c.is_finite()) && radius > 0.0 && impulse.is_finite()) {
            return;
        }
        let at = self.steps as f32;
        self.presses
            .extend_from_slice(&[at, centre[0], centre[1], radius, impulse]);
        // The impulse at a body's centre is strength * BODY_PRESSURE / radius^2 (body.rs), and
        // a body held still sinks about as deep as a stone of its strength: the press's
        // strength, on the stones' scale.
        let strength = impulse * radius * radius / BODY_PRESSURE;
        self.disturbed((strength * Solver::WAVE_STONE_DEPTH).abs());
    }

    /// Something `depth` deep moved the water: a later event this deep or deeper resets the
    /// decay; a shallower one is covered by the deeper one's decay as long as that stays
    /// above it.
    fn disturbed(&mut self, depth: f32) {
        self.disturbances = self.disturbances.wrapping_add(1);
        self.measured_calm = false;
        if depth >= self.left_of_strongest(None) {
            self.strongest = depth;
            self.since_strongest = 0;
        }
    }

    /// `steps` more solver steps are due.
    pub fn steps(&mut self, steps: u32) {
        self.steps = self.steps.saturating_add(steps);
        self.since_strongest = self.since_strongest.saturating_add(u64::from(steps));
        self.stepped = self.stepped.saturating_add(u64::from(steps));
    }

    /// Steps queued since the GPU took over the water.
    pub fn stepped(&self) -> u64 {
        self.stepped
    }

    /// The water the GPU holds, on a grid of `from` cells, is to be resampled onto the pool's
    /// grid as [`ripples::resample_field`] does on the CPU (`box_scale`: the new box over the
    /// old one), not set to rest: a resize, or a new pool that took the water.
    pub fn carry(&mut self, from: (usize, usize), box_scale: (f64, f64)) {
        self.carry = Some([
            from.0 as f32,
            from.1 as f32,
            box_scale.0 as f32,
            box_scale.1 as f32,
        ]);
        self.clear = false;
    }

    /// Counts the disturbances queued so far: what a measurement of the water the GPU takes
    /// now is of (see [`measured`](Self::measured)).
    pub fn disturbances(&self) -> u64 {
        self.disturbances
    }

    /// The GPU measured the water it held when [`disturbances`](Self::disturbances) was
    /// `mark`: no height (now or a step ago) beyond `largest` from rest. Below `tolerance`, and
    /// with nothing disturbing it since, the water is calm.
    pub fn measured(&mut self, mark: u64, largest: f32, tolerance: f32) {
        if mark == self.disturbances && largest <= tolerance {
            self.measured_calm = true;
        }
    }

    /// The carry asked for (see [`carry`](Self::carry)), emptied from the queue: `[from width,
    /// from height, box scale x, box scale y]`, or empty.
    pub fn take_carry(&mut self) -> Vec<f32> {
        self.carry.take().map(Vec::from).unwrap_or_default()
    }

    /// The water is to be set to rest (nothing queued before this counts any more).
    pub fn clear(&mut self) {
        *self = Self {
            clear: true,
            stepped: self.stepped,
            // A measurement under way is of the water before this.
            disturbances: self.disturbances.wrapping_add(1),
            ..Self::default()
        };
    }

    /// What the GPU does next, emptied from the queue: `[clear (0 or 1), steps, stone count,
    /// then STONE_FLOATS per stone, press count, then PRESS_FLOATS per press]`.
    pub fn take(&mut self) -> Vec<f32> {
        let stones = self.stones.len() / STONE_FLOATS;
        let presses = self.presses.len() / PRESS_FLOATS;
        let mut work = Vec::with_capacity(4 + self.stones.len() + self.presses.len());
        work.extend_from_slice(&[
            f32::from(u8::from(self.clear)),
            self.steps as f32,
            stones as f32,
        ]);
        work.append(&mut self.stones);
        work.push(presses as f32);
        work.append(&mut self.presses);
        self.clear = false;
        self.steps = 0;
        work
    }

    /// The amplitude left of the strongest stone after its decay, with `damping` the fraction
    /// lost per step (`None`: as if undamped).
    fn left_of_strongest(&self, damping: Option<f32>) -> f32 {
        let keep = 1.0 - f64::from(damping.unwrap_or(0.0));
        let steps = i32::try_from(self.since_strongest).unwrap_or(i32::MAX);
        (f64::from(self.strongest) * keep.powi(steps)) as f32
    }

    /// Whether the water the GPU steps is calm: nothing queued, and the GPU measured it calm
    /// since the last stone or press, or the strongest of them since the last calm decayed
    /// below `tolerance` at `damping` per step.
    pub fn is_calm(&self, damping: f32, tolerance: f32) -> bool {
        self.stones.is_empty()
            && self.presses.is_empty()
            && (self.measured_calm || self.left_of_strongest(Some(damping)) <= tolerance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ripples::DispersiveSolver;

    #[test]
    fn the_queue_says_calm_once_the_strongest_stone_decayed() {
        let mut queue = GpuQueue::default();
        assert!(queue.is_calm(0.005, 0.5));
        let water = DispersiveSolver::new(40, 30).unwrap();
        let rims = water.stone_rims(10, 10, 3);
        queue.stone((10, 10, 3), 100.0, rims);
        queue.stone((10, 10, 0), 100.0, rims);
        queue.steps(1);
        assert!(!queue.is_calm(0.005, 0.5));
        let work = queue.take();
        assert_eq!(
            &work[..3],
            &[0.0, 1.0, 1.0],
            "one stone queued (not the one of radius 0)"
        );
        let depth = -100.0 * Solver::WAVE_STONE_DEPTH;
        assert_eq!(&work[3..8], &[0.0, 10.0, 10.0, 3.0, depth]);
        // The rims reach 3 radii, inside the interior: columns and rows 1..=19.
        assert_eq!(&work[8..12], &[1.0, 20.0, 1.0, 20.0]);
        assert_eq!(work[12..16], rims.solve.map(|c| c as f32));
        assert_eq!(&work[16..], &[0.0], "no press");
        // The stone is WAVE_STONE_DEPTH times 100 deep: d * 0.995^n <= 0.5 from n > log(2d) /
        // -log(0.995).
        let depth = 100.0 * f64::from(Solver::WAVE_STONE_DEPTH);
        let calm_from = ((2.0 * depth).ln() / -(0.995f64.ln())).ceil() as u32;
        queue.steps(calm_from - 2);
        assert!(!queue.is_calm(0.005, 0.5));
        queue.steps(1);
        assert!(queue.is_calm(0.005, 0.5));
        queue.clear();
        assert_eq!(queue.take(), vec![1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn a_measurement_makes_the_water_calm_unless_something_disturbed_it_since() {
        let mut queue = GpuQueue::default();
        let rims = DispersiveSolver::new(40, 30).unwrap().stone_rims(10, 10, 3);
        queue.stone((10, 10, 3), 100.0, rims);
        queue.steps(10);
        queue.take();
        assert!(!queue.is_calm(0.005, 0.5), "a stone 10 steps ago");
        // A measurement taken after the stone: still rippling, then flat.
        let mark = queue.disturbances();
        queue.measured(mark, 3.0, 0.5);
        assert!(!queue.is_calm(0.005, 0.5), "3 is not calm");
        queue.measured(mark, 0.4, 0.5);
        assert!(queue.is_calm(0.005, 0.5), "measured flat");
        // A stone after a measurement: the measurement is of the water before it.
        let mark = queue.disturbances();
        queue.stone((20, 10, 3), 100.0, rims);
        queue.steps(1);
        queue.take();
        queue.measured(mark, 0.1, 0.5);
        assert!(
            !queue.is_calm(0.005, 0.5),
            "a measurement from before the stone"
        );
        queue.measured(queue.disturbances(), 0.1, 0.5);
        assert!(queue.is_calm(0.005, 0.5));
    }

    #[test]
    fn presses_are_queued_with_their_step_and_keep_the_water_awake() {
        let mut queue = GpuQueue::default();
        queue.steps(2);
        // A finger of strength 48 and radius 4 cells: the impulse body.rs gives it.
        let impulse = 48.0 * BODY_PRESSURE / 16.0;
        queue.press([10.5, 7.25], 4.0, impulse);
        queue.press([f32::NAN, 7.0], 4.0, impulse);
        queue.press([10.0, 7.0], 0.0, impulse);
        assert!(!queue.is_calm(0.005, 0.5), "a press is not calm");
        queue.steps(1);
        let work = queue.take();
        assert_eq!(&work[..4], &[0.0, 3.0, 0.0, 1.0], "one press queued");
        assert_eq!(&work[4..], &[2.0, 10.5, 7.25, 4.0, impulse]);
        // Taken, it still moved the water: calm only once a stone of strength 48 would be.
        assert!(!queue.is_calm(0.005, 0.5));
        let depth = 48.0 * f64::from(Solver::WAVE_STONE_DEPTH);
        let calm_from = ((2.0 * depth).ln() / -(0.995f64.ln())).ceil() as u32;
        queue.steps(calm_from - 2);
        assert!(!queue.is_calm(0.005, 0.5));
        queue.steps(1);
        assert!(queue.is_calm(0.005, 0.5));
    }
}
