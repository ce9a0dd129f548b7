//! The classic integer two-buffer solver of the GameRes article, with its exact semantics.
//!
//! Two `i16` grids hold the field now (`current`) and one step ago (`previous`). A step writes
//! the next field over `previous` and swaps the two, so the solver needs no third buffer and
//! never allocates after construction. The update `(sum of 4 neighbours >> 1) - previous`,
//! damped by `v -= v >> shift`, is the article's, with one deliberate difference from the seed
//! code: the result saturates to the `i16` range instead of wrapping, so a violent field clips
//! rather than exploding into noise. Border cells are never written and stay 0 (a reflecting
//! edge). Other implementations compare this solver bit for bit; do not change its arithmetic.

use crate::disturbances::body;
use crate::disturbances::sources::{interior_index, stamp_disk};
use crate::disturbances::swipe;
use crate::error::Error;
use crate::kernels;
use crate::limits::{check_damping_shift, check_size};
use crate::looks::Heights;
use crate::parallel;
use crate::simulation::boundary::{Obstacles, Sponge};
use crate::simulation::interface::{Fields, WaterSolver, load_interior, loaded_heights, sealed};
use crate::simulation::solver::SolverKind;

/// The classic solver's integer strength for an `f32` one: rounded to the nearest integer
/// (halves away from zero) and saturated to the `i16` range. Every `i16` converts to itself
/// through `f32`, so a strength that was an `i16` presses exactly the stone it pressed when the
/// classic solver took `i16` strengths. `None` for a strength that is not a number.
pub(crate) fn classic_strength(strength: f32) -> Option<i16> {
    strength.is_finite().then(|| round_to_i16(strength))
}

/// `value` rounded to the nearest integer (halves away from zero) and saturated to the `i16`
/// range; NaN is 0.
fn round_to_i16(value: f32) -> i16 {
    value
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

/// The classic two-buffer ripple solver on an `i16` grid.
///
/// ```
/// use ripples::{ClassicSolver, WaterSolver};
///
/// let mut water = ClassicSolver::new(64, 48)?;
/// water.drop_stone(32, 24, 4, 128.0);
/// water.step_without_walls();
/// assert!(water.heights().iter().any(|&h| h != 0));
/// # Ok::<(), ripples::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassicSolver {
    width: usize,
    height: usize,
    damping_shift: u32,
    current: Vec<i16>,
    previous: Vec<i16>,
}

impl ClassicSolver {
    /// Default damping shift: the field loses `1/2^5 = 1/32` of its amplitude each step.
    pub const DEFAULT_DAMPING_SHIFT: u32 = 5;

    /// A calm grid of `width x height` cells with the default damping shift (5).
    ///
    /// Fails if a side is 0 or the grid exceeds [`MAX_SIDE`](crate::limits::MAX_SIDE) / [`MAX_CELLS`](crate::limits::MAX_CELLS);
    /// the check happens before any allocation.
    pub fn new(width: u32, height: u32) -> Result<Self, Error> {
        let (width, height) = check_size(u64::from(width), u64::from(height))?;
        let cells = width as usize * height as usize;
        Ok(Self {
            width: width as usize,
            height: height as usize,
            damping_shift: Self::DEFAULT_DAMPING_SHIFT,
            current: vec![0; cells],
            previous: vec![0; cells],
        })
    }

    /// Sets the damping shift `D` (`v -= v >> D` each step); valid values are `1..=15`.
    pub fn set_damping_shift(&mut self, shift: u32) -> Result<(), Error> {
        self.damping_shift = check_damping_shift(i64::from(shift))?;
        Ok(())
    }

    /// The damping shift in use.
    pub fn damping_shift(&self) -> u32 {
        self.damping_shift
    }

    /// The field now, row-major (`i = y * width + x`).
    pub fn heights(&self) -> &[i16] {
        &self.current
    }

    /// The field one step ago, row-major.
    pub fn previous_heights(&self) -> &[i16] {
        &self.previous
    }

    /// Both fields, for callers that load or edit a state directly.
    ///
    /// Border cells written here are never updated by a step; the classic semantics expect
    /// them to be 0.
    pub fn fields_mut(&mut self) -> Fields<'_, i16> {
        Fields {
            current: &mut self.current,
            previous: &mut self.previous,
        }
    }

    /// Advances the field by one step with no walls and no absorbing band: the article's step
    /// alone (see the module documentation for the exact update), what the seed port compares.
    /// [`step`](WaterSolver::step) with no walls and no sponge does the same.
    pub fn step_without_walls(&mut self) {
        let cells = self.width * self.height;
        parallel::on_workers(cells, || self.step_here());
    }

    /// [`step_without_walls`](Self::step_without_walls) on the calling thread (see [`parallel::on_workers`]).
    fn step_here(&mut self) {
        let (width, height) = (self.width, self.height);
        if width >= 3 && height >= 3 {
            let current = &self.current;
            let backend = kernels::backend();
            let damping_shift = self.damping_shift;
            // Border rows stay 0.
            parallel::for_each_interior_row(&mut self.previous, width, height, |y, out| {
                let [above, row, below] = parallel::rows_around(current, y, width);
                kernels::classic_step_row(backend, above, row, below, out, damping_shift);
            });
        }
        std::mem::swap(&mut self.current, &mut self.previous);
    }

    /// The parts of a step for a caller that runs the row kernels itself (the fused step and
    /// render): `(current, previous, damping_shift)`. The caller writes the next field's interior
    /// rows into `previous`, then calls [`finish_step`](Self::finish_step).
    pub(crate) fn step_parts(&mut self) -> (&[i16], &mut [i16], u32) {
        (&self.current, &mut self.previous, self.damping_shift)
    }

    /// Makes the field written into `previous` the current one.
    pub(crate) fn finish_step(&mut self) {
        std::mem::swap(&mut self.current, &mut self.previous);
    }

    /// Presses the disk of `value` that [`drop_stone`](WaterSolver::drop_stone) stamps.
    fn stamp(&mut self, x: i32, y: i32, radius: u32, value: i16) {
        stamp_disk(
            &mut self.current,
            self.width,
            self.height,
            x,
            y,
            radius,
            value,
        );
    }
}

impl sealed::Internal for ClassicSolver {
    fn dry(&mut self, obstacles: &Obstacles) {
        obstacles.dry(&mut self.current, 0);
        obstacles.dry(&mut self.previous, 0);
    }

    /// Rounds each amount to the nearest integer (give it whole numbers to undo a raise
    /// exactly), saturating.
    fn raise(&mut self, cells: &[(usize, f32)], sign: f32) {
        for &(i, amount) in cells {
            let amount = round_to_i16(sign * amount);
            self.current[i] = self.current[i].saturating_add(amount);
            self.previous[i] = self.previous[i].saturating_add(amount);
        }
    }
}

impl WaterSolver for ClassicSolver {
    fn kind(&self) -> SolverKind {
        SolverKind::Classic
    }

    fn width(&self) -> u32 {
        self.width as u32
    }

    fn height(&self) -> u32 {
        self.height as u32
    }

    fn heights_view(&self) -> Heights<'_> {
        Heights::I16(&self.current)
    }

    fn set_heights(&mut self, heights: Heights<'_>) -> Result<(), Error> {
        let size = (self.width, self.height);
        let given = loaded_heights::<i16>(heights, SolverKind::Classic, size)?;
        load_interior(&mut self.current, given, size);
        self.previous.copy_from_slice(&self.current);
        Ok(())
    }

    /// Calms the water: both fields back to 0.
    fn calm(&mut self) {
        self.current.fill(0);
        self.previous.fill(0);
    }

    fn is_calm_within(&self, tolerance: f32) -> bool {
        let small = |values: &[i16]| values.iter().all(|&v| f32::from(v).abs() <= tolerance);
        small(&self.current) && small(&self.previous)
    }

    /// The exact classic step, then wall cells are set to 0 and the sponge band is damped, in
    /// both fields. Cells that are neither walls nor in the band follow the classic semantics
    /// exactly.
    fn step(&mut self, obstacles: &Obstacles, sponge: Option<&Sponge>) {
        self.step_without_walls();
        sealed::Internal::dry(self, obstacles);
        if let Some(sponge) = sponge {
            sponge.apply_i16(&mut self.current, self.width, self.height);
            sponge.apply_i16(&mut self.previous, self.width, self.height);
        }
    }

    /// Drops a stone: every interior cell `(px, py)` with `px` in `[x-r, x+r)`, `py` in
    /// `[y-r, y+r)` and `(px-x)^2 + (py-y)^2 < r^2` gets height `-strength`, `strength` made
    /// an integer as the module documentation of [`WaterSolver`] says (rounded, saturated to
    /// `i16`; `-(-32768)` saturates to 32767). A non-finite strength does nothing.
    ///
    /// A disk that reaches past the edge is clipped; one entirely outside does nothing. A
    /// negative `strength` raises a bump instead of pressing a dent.
    fn drop_stone(&mut self, x: i32, y: i32, radius: u32, strength: f32) {
        if let Some(strength) = classic_strength(strength) {
            self.stamp(x, y, radius, strength.saturating_neg());
        }
    }

    /// Drags a stone along a polyline of `[x, y]` points: a stone at every cell of the
    /// Bresenham line between consecutive points, so the trail has no gaps however far apart
    /// the points are (the seed's `breasenhamDrop`, with round stones).
    fn swipe_path(
        &mut self,
        points: &mut dyn Iterator<Item = [i32; 2]>,
        radius: u32,
        strength: f32,
    ) {
        let Some(strength) = classic_strength(strength) else {
            return;
        };
        let value = strength.saturating_neg();
        let (width, height) = (self.width, self.height);
        swipe::press_path(
            &mut self.current[..],
            points,
            (width, height),
            radius,
            |current, x, y| stamp_disk(current, width, height, x, y, radius, value),
            |current, cells, reach| {
                swipe::nearest_squared_distances(cells, width, height, reach, |index, _| {
                    current[index] = value;
                })
            },
        );
    }

    /// Drives interior cell `(x, y)` to `value`, rounded and saturated to `i16` (a wave
    /// generator does this every step). Cells outside the interior are ignored.
    fn set_height(&mut self, x: i32, y: i32, value: f32) {
        if let Some(i) = interior_index(x, y, self.width, self.height) {
            self.current[i] = round_to_i16(value);
        }
    }

    fn apply_pressure(&mut self, centre: [f32; 2], radius: f32, impulse: f32, seed: u64) {
        let (width, height) = (self.width, self.height);
        body::Press::new(centre, radius, impulse).into_i16(&mut self.current, width, height, seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_matches_hand_computed_values() {
        // A single cell of -128 in the middle of a 5x5 grid, then two steps by hand.
        let mut water = ClassicSolver::new(5, 5).unwrap();
        water.drop_stone(2, 2, 1, 128.0);
        assert_eq!(water.heights()[12], -128);
        water.step_without_walls();
        // Step 1: neighbours of the centre: s = -128 -> (s >> 1) = -64; v = -64 - 0;
        // v -= v >> 5 (-64 >> 5 = -2) -> -62. The centre: s = 0 -> v = 0 - 0 = 0.
        let h = water.heights();
        assert_eq!(h[7], -62);
        assert_eq!(h[11], -62);
        assert_eq!(h[13], -62);
        assert_eq!(h[17], -62);
        assert_eq!(h[12], 0);
        assert_eq!(h[6], 0, "diagonal neighbours see nothing after one step");
        // Step 2 reads the new current and the old current (-128 at the centre) as previous.
        water.step_without_walls();
        let h = water.heights();
        // Centre: s = 4 * -62 = -248 -> -124; v = -124 - (-128) = 4; 4 >> 5 = 0 -> 4.
        assert_eq!(h[12], 4);
        // Corner (1,1): s = -62 + -62 = -124 -> -62; v = -62 - 0 = -62 -> -62 - (-2) = -60.
        assert_eq!(h[6], -60);
        // (2,1): s = 0 (border above) + 0 (centre) + 0 + 0 -> 0; v = 0 - (-62)... previous of
        // (2,1) after the swap is the step-0 value 0, so v = 0.
        assert_eq!(h[7], 0);
        // Border cells stay 0.
        for x in 0..5 {
            assert_eq!(h[x], 0);
            assert_eq!(h[20 + x], 0);
            assert_eq!(h[x * 5], 0);
            assert_eq!(h[x * 5 + 4], 0);
        }
    }

    #[test]
    fn step_saturates_instead_of_wrapping() {
        let mut water = ClassicSolver::new(3, 3).unwrap();
        let Fields { current, previous } = water.fields_mut();
        // Neighbours of (1,1) are border cells; load them directly to force an overflow.
        current[1] = 32767;
        current[3] = 32767;
        current[5] = 32767;
        current[7] = 32767;
        previous[4] = -32768;
        water.set_damping_shift(15).unwrap();
        water.step_without_walls();
        // s = 131068 -> 65534; v = 65534 + 32768 = 98302; v -= 98302 >> 15 (= 2) -> 98300.
        assert_eq!(water.heights()[4], i16::MAX);
    }

    #[test]
    fn damping_shift_is_validated() {
        let mut water = ClassicSolver::new(8, 8).unwrap();
        for (shift, bound) in [(0, "min"), (16, "max")] {
            match water.set_damping_shift(shift) {
                Err(crate::Error::OutOfRange {
                    name,
                    value,
                    min,
                    max,
                }) => {
                    assert_eq!(
                        (name.as_str(), value.as_f64()),
                        ("damping shift", f64::from(shift))
                    );
                    assert_eq!((min.as_f64(), max.as_f64()), (1.0, 15.0), "{bound}");
                }
                other => panic!("damping shift {shift}: {other:?}"),
            }
        }
        assert!(water.set_damping_shift(1).is_ok());
        assert!(water.set_damping_shift(15).is_ok());
        let message = water.set_damping_shift(0).unwrap_err().to_string();
        assert!(
            message.contains("damping shift") && message.contains('0'),
            "{message}"
        );
    }

    #[test]
    fn an_f32_strength_becomes_the_i16_it_was() {
        // Every i16 strength passed as f32 is that i16: the stones of before, bit for bit.
        for strength in i16::MIN..=i16::MAX {
            assert_eq!(classic_strength(f32::from(strength)), Some(strength));
        }
        // Fractions round to the nearest integer, halves away from zero; beyond the range
        // saturates; a strength that is not a number presses nothing.
        let cases = [
            (99.4, 99),
            (99.5, 100),
            (-99.5, -100),
            (-0.4, 0),
            (1e9, 32767),
        ];
        for (given, expected) in cases {
            assert_eq!(classic_strength(given), Some(expected), "{given}");
        }
        assert_eq!(classic_strength(-1e9), Some(i16::MIN));
        for given in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(classic_strength(given), None, "{given}");
        }
        let mut water = ClassicSolver::new(9, 9).unwrap();
        water.drop_stone(4, 4, 2, 127.5);
        assert_eq!(water.heights()[4 * 9 + 4], -128);
        water.drop_stone(4, 4, 2, f32::NAN);
        assert_eq!(
            water.heights()[4 * 9 + 4],
            -128,
            "a NaN stone leaves the water alone"
        );
        water.drop_stone(4, 4, 2, -40_000.0);
        assert_eq!(water.heights()[4 * 9 + 4], i16::MAX, "-(-32768) saturates");
    }

    #[test]
    fn drop_stone_marks_the_disk_of_the_given_radius() {
        let mut water = ClassicSolver::new(11, 11).unwrap();
        // r = 2: (px-5)^2 + (py-5)^2 < 4 holds for the 3x3 block around the centre.
        water.drop_stone(5, 5, 2, 100.0);
        let marked: Vec<usize> = (0..121).filter(|&i| water.heights()[i] != 0).collect();
        let block: Vec<usize> = [4, 5, 6]
            .iter()
            .flat_map(|y| [4, 5, 6].map(|x| y * 11 + x))
            .collect();
        assert_eq!(marked, block);
        assert!(marked.iter().all(|&i| water.heights()[i] == -100));

        // r = 4: row half-widths 2, 3, 3, 3, 3, 3, 2 for dy = -3..=3; dy = -4 is excluded.
        water.calm();
        water.drop_stone(5, 5, 4, 7.0);
        let row_counts: Vec<usize> = (0..11)
            .map(|y| {
                (0..11)
                    .filter(|x| water.heights()[y * 11 + x] == -7)
                    .count()
            })
            .collect();
        assert_eq!(row_counts, vec![0, 0, 5, 7, 7, 7, 7, 7, 5, 0, 0]);
    }

    #[test]
    fn drop_stone_near_the_edge_is_clipped_not_rejected() {
        let mut water = ClassicSolver::new(10, 10).unwrap();
        water.drop_stone(1, 1, 3, 50.0);
        let h = water.heights();
        assert_eq!(h[11], -50, "the interior part of the disk is stamped");
        assert!(h[..10].iter().all(|&v| v == 0), "the border row stays 0");
        assert!((0..10).all(|y| h[y * 10] == 0), "the border column stays 0");
        // Entirely outside: nothing happens, nothing panics.
        water.drop_stone(-100, 5000, 3, 50.0);
        water.drop_stone(i32::MIN, i32::MAX, u32::MAX, 50.0);
    }
}
