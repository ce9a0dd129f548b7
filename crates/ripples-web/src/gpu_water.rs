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
//! - **a stone's shape** (the raised-cosine dent and the dispersive solver's two rims that keep
//!   its volume and second moment): [`stone_stamp`] drops the stone into a small calm
//!   [`DispersiveSolver`] with the core's own `drop_stone` and hands the result to the GPU as a
//!   stamp, which the GPU presses as the core does (the dent where it is deeper than the water,
//!   in both fields; the rims added to both). The rims are sized for calm water under the stone:
//!   where the stone falls on waves, the CPU sizes them for the water it actually pushed aside,
//!   a difference of the waves' own volume under the dent;
//! - **the step's constants**: [`DispersiveSolver::coefficients`]; **the natural look's surface
//!   constants**: [`ripples::Pool::natural_surface_constants`];
//! - **calm**: the GPU is never read back; the water is calm once the strongest event since the
//!   water was last calm has decayed by the solver's damping (every wave loses the fraction
//!   `damping` of its amplitude per step) below the calm tolerance ([`GpuQueue::is_calm`]).

use ripples::{Solver, SolverKind};

/// Floats per queued stone in [`GpuQueue::take`]: the step it falls before, its cell (x, y),
/// its radius in cells and its strength.
pub const STONE_FLOATS: usize = 5;

/// Steps and events waiting for the GPU.
#[derive(Debug, Clone, Default)]
pub struct GpuQueue {
    /// The GPU's fields are to be set to rest first ([`WebPool::calm`](crate::WebPool)).
    clear: bool,
    /// Solver steps due.
    steps: u32,
    /// `STONE_FLOATS` per stone, in the order they fall.
    stones: Vec<f32>,
    /// The largest |strength| of a stone since the water was last calm (0: calm).
    strongest: f32,
    /// Steps since that stone.
    since_strongest: u64,
    /// Steps queued since the GPU took over the water (stats' step count).
    stepped: u64,
}

impl GpuQueue {
    /// A stone at cell `(x, y)` of `radius` cells, before the next step that is queued after it.
    pub fn stone(&mut self, (x, y, radius): (i32, i32, u32), strength: f32) {
        let at = self.steps as f32;
        self.stones
            .extend_from_slice(&[at, x as f32, y as f32, radius as f32, strength]);
        // A later stone this deep or deeper resets the decay; a shallower one is covered by
        // the deeper one's decay as long as that stays above it. (The solver's stone is
        // WAVE_STONE_DEPTH times its strength deep: see Solver::drop_stone.)
        let depth = (strength * Solver::WAVE_STONE_DEPTH).abs();
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

    /// The water is to be set to rest (nothing queued before this counts any more).
    pub fn clear(&mut self) {
        *self = Self {
            clear: true,
            stepped: self.stepped,
            ..Self::default()
        };
    }

    /// What the GPU does next, emptied from the queue: `[clear (0 or 1), steps, stone count,
    /// then STONE_FLOATS per stone]`.
    pub fn take(&mut self) -> Vec<f32> {
        let count = self.stones.len() / STONE_FLOATS;
        let mut work = Vec::with_capacity(3 + self.stones.len());
        work.extend_from_slice(&[
            f32::from(u8::from(self.clear)),
            self.steps as f32,
            count as f32,
        ]);
        work.append(&mut self.stones);
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

    /// Whether the water the GPU steps is calm: nothing queued, and the strongest stone since
    /// the last calm decayed below `tolerance` at `damping` per step.
    pub fn is_calm(&self, damping: f32, tolerance: f32) -> bool {
        self.stones.is_empty() && self.left_of_strongest(Some(damping)) <= tolerance
    }
}

/// Cells on each side of a stamp's centre for a stone of `radius` cells: the rims reach three
/// radii.
pub fn stamp_reach(radius: u32) -> u32 {
    3 * radius.max(1)
}

/// The stone of `radius` cells and `strength` as the dispersive solver drops it into calm water,
/// for the GPU to press: `(2 reach + 1)^2` cells (see [`stamp_reach`]) row by row, two floats
/// each: the height, and 1 where the cell is under the stone's dent (its height is the dent,
/// which presses down to it) or 0 where it is in a rim (its height is added).
pub fn stone_stamp(radius: u32, strength: f32) -> Vec<f32> {
    let radius = radius.max(1);
    let reach = stamp_reach(radius);
    let side = 2 * reach + 1;
    // A calm grid one cell wider on each side: the solver keeps its border at rest. The
    // stone goes in through Solver::drop_stone, which scales its strength to the solver's
    // depth as the pool's stones are.
    let Ok(mut water) = Solver::new(SolverKind::Dispersive, side + 2, side + 2) else {
        return Vec::new();
    };
    let centre = (reach + 1) as i32;
    water.drop_stone(centre, centre, radius, strength);
    let Solver::Dispersive(water) = &water else {
        return Vec::new();
    };
    let heights = water.heights();
    let grid = (side + 2) as usize;
    let r_squared = i64::from(radius) * i64::from(radius);
    let mut stamp = Vec::with_capacity(2 * (side * side) as usize);
    for y in 1..=side as usize {
        for x in 1..=side as usize {
            let (dx, dy) = (x as i64 - i64::from(centre), y as i64 - i64::from(centre));
            let under_dent = dx * dx + dy * dy < r_squared;
            stamp.extend_from_slice(&[heights[y * grid + x], f32::from(u8::from(under_dent))]);
        }
    }
    stamp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_is_the_solvers_stone_on_calm_water() {
        let stamp = stone_stamp(4, 96.0);
        let side = 2 * 12 + 1;
        assert_eq!(stamp.len(), 2 * side * side);
        let centre = 12 * side + 12;
        // The dent's bottom at the centre (the solver's stone depth times the strength), under
        // the dent; rims around, which the stamp adds.
        assert_eq!(stamp[2 * centre], -96.0 * Solver::WAVE_STONE_DEPTH);
        assert_eq!(stamp[2 * centre + 1], 1.0);
        let rim = 12 * side + 12 + 6;
        assert!(stamp[2 * rim] > 0.0, "{}", stamp[2 * rim]);
        assert_eq!(stamp[2 * rim + 1], 0.0);
        // The stone moves no water in all.
        let volume: f64 = stamp.chunks(2).map(|c| f64::from(c[0])).sum();
        assert!(volume.abs() < 1e-2, "{volume}");
    }

    #[test]
    fn the_queue_says_calm_once_the_strongest_stone_decayed() {
        let mut queue = GpuQueue::default();
        assert!(queue.is_calm(0.005, 0.5));
        queue.stone((10, 10, 3), 100.0);
        queue.steps(1);
        assert!(!queue.is_calm(0.005, 0.5));
        let work = queue.take();
        assert_eq!(&work[..3], &[0.0, 1.0, 1.0]);
        assert_eq!(&work[3..], &[0.0, 10.0, 10.0, 3.0, 100.0]);
        // The stone is WAVE_STONE_DEPTH times 100 deep: d * 0.995^n <= 0.5 from n > log(2d) /
        // -log(0.995).
        let depth = 100.0 * f64::from(Solver::WAVE_STONE_DEPTH);
        let calm_from = ((2.0 * depth).ln() / -(0.995f64.ln())).ceil() as u32;
        queue.steps(calm_from - 2);
        assert!(!queue.is_calm(0.005, 0.5));
        queue.steps(1);
        assert!(queue.is_calm(0.005, 0.5));
        queue.clear();
        assert_eq!(queue.take(), vec![1.0, 0.0, 0.0]);
    }
}
