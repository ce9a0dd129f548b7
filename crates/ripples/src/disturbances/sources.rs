//! What disturbs the water: stones, swipes and rain.
//!
//! Sources are independent of the solver: [`stamp_disk`] writes a value into any grid, and
//! [`stamp_polyline`] walks the Bresenham cells of a polyline, so every solver stamps the same
//! shapes. Rain is a pure generator of [`Stone`]s from a seeded PRNG, so a given seed gives the
//! same storm on every machine and in every front end, and the caller decides where stones land.

use crate::error::Error;
use crate::limits::{
    MAX_RADIUS, MAX_RAIN_RATE, MAX_SIDE, MAX_STRENGTH, check_finite_range, check_range,
};

/// One stone: where it falls, how wide it is and how hard it hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stone {
    /// Column of the centre.
    pub x: i32,
    /// Row of the centre.
    pub y: i32,
    /// Radius in cells (or pixels, for a [`crate::Pool`]).
    pub radius: u32,
    /// Depth of the dent it presses into the water.
    pub strength: i16,
}

/// Largest radius that changes anything: beyond it a disk covers every grid that fits the limits.
pub(crate) const MAX_USEFUL_RADIUS: i64 = 2 * MAX_SIDE as i64;

/// Sets every interior cell of the disk `(px-x)^2 + (py-y)^2 < r^2`, with `px` in `[x-r, x+r)`
/// and `py` in `[y-r, y+r)`, to `value`. Parts outside the interior are clipped.
pub(crate) fn stamp_disk<T: Copy>(
    grid: &mut [T],
    width: usize,
    height: usize,
    x: i32,
    y: i32,
    radius: u32,
    value: T,
) {
    if width < 3 || height < 3 {
        return;
    }
    let r = i64::from(radius).min(MAX_USEFUL_RADIUS);
    let (x, y) = (i64::from(x), i64::from(y));
    let r_squared = r * r;
    // The half-open square [x-r, x+r) clipped to the interior [1, size-1).
    let x_start = (x - r).max(1);
    let x_end = (x + r).min(width as i64 - 1);
    let y_start = (y - r).max(1);
    let y_end = (y + r).min(height as i64 - 1);
    for py in y_start..y_end {
        let dy = py - y;
        let row = &mut grid[py as usize * width..(py as usize + 1) * width];
        for px in x_start..x_end {
            let dx = px - x;
            if dx * dx + dy * dy < r_squared {
                row[px as usize] = value;
            }
        }
    }
}

/// The index of `(x, y)` if it is an interior cell of a `width x height` grid (the cells a
/// solver updates and sources may drive), `None` for border cells and cells outside.
pub(crate) fn interior_index(x: i32, y: i32, width: usize, height: usize) -> Option<usize> {
    let (x, y) = (i64::from(x), i64::from(y));
    let inside = x >= 1 && y >= 1 && x < width as i64 - 1 && y < height as i64 - 1;
    inside.then(|| y as usize * width + x as usize)
}

/// The cells a visitor of [`stamp_polyline`] can change, a rectangle (bounds included): the
/// walk skips the parts of a line outside it, so a swipe or a generator line whose ends lie
/// billions of cells apart costs no more than one across the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reach {
    x: [i64; 2],
    y: [i64; 2],
}

impl Reach {
    /// Every centre from which a stone of `radius` can touch a `width x height` grid (a stone
    /// reaches less than `radius` cells from its centre; one more cell of margin for safety). A
    /// radius of 0 gives the grid and a margin of one cell, enough for single cells.
    pub(crate) fn stones(width: usize, height: usize, radius: u32) -> Self {
        let margin = i64::from(radius).min(MAX_USEFUL_RADIUS) + 1;
        Self {
            x: [-margin, width as i64 - 1 + margin],
            y: [-margin, height as i64 - 1 + margin],
        }
    }

    fn contains(&self, x: i64, y: i64) -> bool {
        (self.x[0]..=self.x[1]).contains(&x) && (self.y[0]..=self.y[1]).contains(&y)
    }
}

/// Calls `visit(x, y)` for every cell of the Bresenham lines joining consecutive points that
/// lies in `reach`, in order, each point once (the shared end of two segments is not repeated).
/// A single point is visited once.
pub(crate) fn stamp_polyline(
    points: impl IntoIterator<Item = [i32; 2]>,
    reach: Reach,
    mut visit: impl FnMut(i32, i32),
) {
    let mut points = points.into_iter();
    let Some(mut from) = points.next() else {
        return;
    };
    if reach.contains(i64::from(from[0]), i64::from(from[1])) {
        visit(from[0], from[1]);
    }
    for to in points {
        bresenham(from, to, reach, &mut visit);
        from = to;
    }
}

/// Visits the cells of the line from `from` (excluded) to `to` (included) that lie in `reach`.
///
/// The cells are those of the all-octant Bresenham walk (`bresenham_walk` in the tests, checked
/// against this exhaustively): the line advances one cell per step along its major axis, and
/// after `k` steps `floor((2 k minor + major) / (2 major))` cells along the other, `k minor /
/// major` rounded half up. That closed form lets the walk start where the line enters `reach`
/// and stop where it leaves, instead of stepping through every cell from a far-away end.
fn bresenham(from: [i32; 2], to: [i32; 2], reach: Reach, visit: &mut impl FnMut(i32, i32)) {
    let (x0, y0) = (i64::from(from[0]), i64::from(from[1]));
    let (x1, y1) = (i64::from(to[0]), i64::from(to[1]));
    let (dx, dy) = ((x1 - x0).abs(), (y1 - y0).abs());
    let (step_x, step_y) = ((x1 - x0).signum(), (y1 - y0).signum());
    let x_major = dx >= dy;
    let (major, minor) = if x_major { (dx, dy) } else { (dy, dx) };
    if major == 0 {
        return;
    }
    // The steps `k` in 1..=major whose coordinate along the major axis lies in `reach`.
    let (start, step, [low, high]) = if x_major {
        (x0, step_x, reach.x)
    } else {
        (y0, step_y, reach.y)
    };
    let (first, last) = if step > 0 {
        (low - start, high - start)
    } else {
        (start - high, start - low)
    };
    for k in first.max(1)..=last.min(major) {
        let across =
            (2 * i128::from(k) * i128::from(minor) + i128::from(major)) / (2 * i128::from(major));
        let across = across as i64;
        let (x, y) = if x_major {
            (x0 + step_x * k, y0 + step_y * across)
        } else {
            (x0 + step_x * across, y0 + step_y * k)
        };
        if reach.contains(x, y) {
            visit(x as i32, y as i32);
        }
    }
}

/// A `[min, max]` span within `lowest..=highest`: `min` in range first, then the two in order,
/// then `max` in range, so the error names the first thing wrong.
fn check_span<T: PartialOrd + Into<crate::error::Number> + Copy>(
    name: &str,
    min: T,
    max: T,
    lowest: T,
    highest: T,
) -> Result<(T, T), Error> {
    check_range(name, min, lowest, highest)?;
    check_ordered(name, min, max)?;
    check_range(name, max, min, highest)?;
    Ok((min, max))
}

/// A `[min, max]` range given the wrong way round: an error that says so, with both values.
fn check_ordered<T: PartialOrd + Into<crate::error::Number>>(
    name: &str,
    min: T,
    max: T,
) -> Result<(), Error> {
    if max < min {
        return Err(Error::ReversedRange {
            name: name.to_string(),
            low: min.into(),
            high: max.into(),
        });
    }
    Ok(())
}

/// A small, fast, seedable generator (SplitMix64), so rain is reproducible everywhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n`, by multiply-shift (0 when `n` is 0).
    pub fn below(&mut self, n: u32) -> u32 {
        ((u64::from(self.next_u64() as u32) * u64::from(n)) >> 32) as u32
    }

    /// A uniform integer in `low..=high` (`low` itself when `high < low`).
    pub fn between(&mut self, low: i64, high: i64) -> i64 {
        // In i128 the span of any two i64s is exact: at most 2^64, for the whole range, so the
        // product below fits in u128 and the offset is below the span.
        let span = i128::from(high) - i128::from(low) + 1;
        if span <= 0 {
            return low;
        }
        let offset = (u128::from(self.next_u64()) * span as u128) >> 64;
        (i128::from(low) + offset as i128) as i64
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A Poisson-distributed count with the given mean (Knuth's method, in chunks so that
    /// `exp(-mean)` never underflows).
    pub fn poisson(&mut self, mean: f64) -> u32 {
        let mut remaining = mean;
        let mut count = 0u32;
        while remaining > 0.0 {
            let chunk = remaining.min(200.0);
            remaining -= chunk;
            let limit = (-chunk).exp();
            let mut product = self.unit();
            while product > limit {
                count = count.saturating_add(1);
                product *= self.unit();
            }
        }
        count
    }
}

/// A wave generator: a point or a line whose cells are driven to
/// `amplitude * sin(2 pi (step - start) / period)` every step between `start` and `end`.
/// A line makes a plane wave, a point a circular one.
///
/// ```
/// use ripples::{Generator, Pool};
///
/// let mut pool = Pool::new(200, 100)?;
/// pool.add_generator(Generator::line([20, 5], [20, 94], 16.0, 40.0))?;
/// for _ in 0..50 {
///     pool.step();
/// }
/// # Ok::<(), ripples::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Generator {
    /// One end of the line (the point, for a point source).
    pub from: [i32; 2],
    /// The other end (equal to `from` for a point source).
    pub to: [i32; 2],
    /// Steps per cycle, at least 2.
    pub period: f32,
    /// Height of the crests, `0..=32767`.
    pub amplitude: f32,
    /// First step driven (counted by the pool).
    pub start: u64,
    /// Step at which it stops (excluded); `None` drives for ever.
    pub end: Option<u64>,
}

impl Generator {
    /// A point source at `[x, y]`, driving from step 0 for ever.
    pub fn point(at: [i32; 2], period: f32, amplitude: f32) -> Self {
        Self::line(at, at, period, amplitude)
    }

    /// A line source from `from` to `to`, driving from step 0 for ever.
    pub fn line(from: [i32; 2], to: [i32; 2], period: f32, amplitude: f32) -> Self {
        Self {
            from,
            to,
            period,
            amplitude,
            start: 0,
            end: None,
        }
    }

    /// Checks what [`Pool::add_generator`](crate::Pool::add_generator) accepts, with the
    /// words of a scene file's checks: a period of at least 2 steps, an amplitude in
    /// `0..=MAX_STRENGTH`, and an end no earlier than the start.
    pub fn validate(&self) -> Result<(), Error> {
        check_wave_source(self.period, self.amplitude, self.start, self.end)
    }

    /// The height it drives at `step`, or `None` outside its time window.
    pub fn value_at(&self, step: u64) -> Option<f32> {
        if step < self.start || self.end.is_some_and(|end| step >= end) || self.period <= 0.0 {
            return None;
        }
        let phase = ((step - self.start) as f64 / f64::from(self.period)).fract();
        Some(self.amplitude * (std::f64::consts::TAU * phase).sin() as f32)
    }

    /// The polyline of its cells: both ends.
    pub fn points(&self) -> impl Iterator<Item = [i32; 2]> + use<> {
        [self.from, self.to].into_iter()
    }
}

/// Checks a wave generator's period (at least 2 steps), amplitude (`0..=MAX_STRENGTH`) and time
/// window (`end`, when given, not before `start`).
pub(crate) fn check_wave_source(
    period: f32,
    amplitude: f32,
    start: u64,
    end: Option<u64>,
) -> Result<(), Error> {
    if !period.is_finite() || period < 2.0 {
        return Err(Error::not_allowed("period", period, "at least 2 steps"));
    }
    if !amplitude.is_finite() {
        return Err(Error::not_allowed("amplitude", amplitude, "a number"));
    }
    check_range("amplitude", amplitude, 0.0, f32::from(MAX_STRENGTH))?;
    if let Some(end) = end
        && end < start
    {
        return Err(Error::EndBeforeStart { start, end });
    }
    Ok(())
}

/// Rain: a deterministic stream of stones, a Poisson-distributed number per frame with a given
/// mean, uniformly anywhere in the pool, radius and strength uniform in their ranges.
///
/// ```
/// use ripples::{Pool, Rain};
///
/// let mut pool = Pool::new(320, 240)?;
/// let mut rain = Rain::new(7).with_rate(2.5)?.with_radius(1, 4)?.with_strength(32, 128)?;
/// for _frame in 0..10 {
///     for stone in rain.stones(pool.width(), pool.height()) {
///         pool.drop(stone)?;
///     }
///     pool.step();
/// }
/// # Ok::<(), ripples::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Rain {
    rate: f64,
    radius: (u32, u32),
    strength: (i16, i16),
    rng: SplitMix64,
}

impl Rain {
    /// Rain from `seed`: one stone per frame on average, radius 1..=4, strength 32..=128.
    pub fn new(seed: u64) -> Self {
        Self {
            rate: 1.0,
            radius: (1, 4),
            strength: (32, 128),
            rng: SplitMix64::new(seed),
        }
    }

    /// Mean stones per frame, `0..=10000`.
    pub fn with_rate(mut self, rate: f64) -> Result<Self, Error> {
        self.rate = check_finite_range("rain rate", rate, 0.0, MAX_RAIN_RATE)?;
        Ok(self)
    }

    /// Radius range in cells, `1 <= min <= max <= 4096`.
    pub fn with_radius(mut self, min: u32, max: u32) -> Result<Self, Error> {
        self.radius = check_span("rain radius", min, max, 1, MAX_RADIUS)?;
        Ok(self)
    }

    /// Strength range, `0 <= min <= max <= 32767`.
    pub fn with_strength(mut self, min: i16, max: i16) -> Result<Self, Error> {
        self.strength = check_span("rain strength", min, max, 0, MAX_STRENGTH)?;
        Ok(self)
    }

    /// Mean stones per frame.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The stones of one frame on a `width x height` pool. Dropping the iterator early skips
    /// the rest of the frame's stones (the stream is still reproducible frame by frame only if
    /// every frame's iterator is drained).
    pub fn stones(&mut self, width: u32, height: u32) -> RainStones<'_> {
        let count = if width == 0 || height == 0 {
            0
        } else {
            self.rng.poisson(self.rate)
        };
        RainStones {
            rain: self,
            width,
            height,
            remaining: count,
        }
    }
}

/// The stones of one frame of [`Rain`].
#[derive(Debug)]
pub struct RainStones<'a> {
    rain: &'a mut Rain,
    width: u32,
    height: u32,
    remaining: u32,
}

impl Iterator for RainStones<'_> {
    type Item = Stone;

    fn next(&mut self) -> Option<Stone> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let rng = &mut self.rain.rng;
        let x = rng.below(self.width) as i32;
        let y = rng.below(self.height) as i32;
        let (r_min, r_max) = self.rain.radius;
        let radius = rng.between(i64::from(r_min), i64::from(r_max)) as u32;
        let (s_min, s_max) = self.rain.strength;
        let strength = rng.between(i64::from(s_min), i64::from(s_max)) as i16;
        Some(Stone {
            x,
            y,
            radius,
            strength,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining as usize, Some(self.remaining as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reach that excludes nothing any test line touches.
    const EVERYWHERE: Reach = Reach {
        x: [i64::MIN / 4, i64::MAX / 4],
        y: [i64::MIN / 4, i64::MAX / 4],
    };

    fn line_cells(points: &[[i32; 2]]) -> Vec<(i32, i32)> {
        let mut cells = Vec::new();
        stamp_polyline(points.iter().copied(), EVERYWHERE, |x, y| {
            cells.push((x, y))
        });
        cells
    }

    /// The all-octant Bresenham walk, step by step (the definition `bresenham` follows).
    fn bresenham_walk(from: [i32; 2], to: [i32; 2]) -> Vec<(i32, i32)> {
        let (mut x, mut y) = (i64::from(from[0]), i64::from(from[1]));
        let (x_end, y_end) = (i64::from(to[0]), i64::from(to[1]));
        let dx = (x_end - x).abs();
        let dy = -(y_end - y).abs();
        let step_x = if x < x_end { 1 } else { -1 };
        let step_y = if y < y_end { 1 } else { -1 };
        let mut error = dx + dy;
        let mut cells = Vec::new();
        while x != x_end || y != y_end {
            let doubled = 2 * error;
            if doubled >= dy {
                error += dy;
                x += step_x;
            }
            if doubled <= dx {
                error += dx;
                y += step_y;
            }
            cells.push((x as i32, y as i32));
        }
        cells
    }

    #[test]
    fn bresenham_is_the_step_by_step_walk_in_every_direction() {
        for from in [[0, 0], [3, -7], [-11, 5]] {
            for dx in -45..=45 {
                for dy in -45..=45 {
                    let to = [from[0] + dx, from[1] + dy];
                    let mut cells = Vec::new();
                    bresenham(from, to, EVERYWHERE, &mut |x, y| cells.push((x, y)));
                    assert_eq!(cells, bresenham_walk(from, to), "{from:?} -> {to:?}");
                }
            }
        }
    }

    #[test]
    fn bresenham_visits_only_the_reach_and_all_of_it() {
        let reach = Reach::stones(20, 10, 2);
        assert_eq!(
            reach,
            Reach {
                x: [-3, 22],
                y: [-3, 12]
            }
        );
        let lines = [
            ([-40, -13], [55, 31]),
            ([30, 4], [-9, 8]),
            ([5, -60], [9, 70]),
            ([-100, 2], [-50, 9]),
            ([21, 11], [-2, -4]),
        ];
        for (from, to) in lines {
            let expected: Vec<(i32, i32)> = bresenham_walk(from, to)
                .into_iter()
                .filter(|&(x, y)| reach.contains(i64::from(x), i64::from(y)))
                .collect();
            let mut cells = Vec::new();
            bresenham(from, to, reach, &mut |x, y| cells.push((x, y)));
            assert_eq!(cells, expected, "{from:?} -> {to:?}");
        }
    }

    #[test]
    fn a_line_between_the_ends_of_i32_visits_only_cells_near_the_grid() {
        // Stepping through every cell of this line took seconds (found by fuzzing).
        let reach = Reach::stones(64, 48, 3);
        let mut cells = Vec::new();
        let from = [i32::MIN, i32::MIN];
        let to = [i32::MAX, i32::MAX];
        stamp_polyline([from, to], reach, |x, y| cells.push((x, y)));
        let expected: Vec<(i32, i32)> = (-4..=51).map(|i| (i, i)).collect();
        assert_eq!(cells, expected);
    }

    #[test]
    fn bresenham_visits_every_step_once_and_ends_on_the_point() {
        for &to in &[[7, 3], [-5, 9], [0, -6], [4, 4], [-8, -2], [0, 0]] {
            let cells = line_cells(&[[0, 0], to]);
            assert_eq!(cells[0], (0, 0));
            assert_eq!(*cells.last().unwrap(), (to[0], to[1]));
            let expected_len = to[0].abs().max(to[1].abs()) as usize + 1;
            assert_eq!(cells.len(), expected_len, "to {to:?}: {cells:?}");
            for pair in cells.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                assert!(
                    (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1,
                    "{a:?} -> {b:?}"
                );
            }
        }
    }

    #[test]
    fn polyline_joins_segments_without_repeating_corners() {
        let cells = line_cells(&[[0, 0], [3, 0], [3, 2]]);
        assert_eq!(cells, vec![(0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (3, 2)]);
        assert!(line_cells(&[]).is_empty());
        assert_eq!(line_cells(&[[5, 6]]), vec![(5, 6)]);
    }

    #[test]
    fn poisson_mean_is_the_rate() {
        let mut rng = SplitMix64::new(99);
        for &mean in &[0.0, 0.3, 2.5, 40.0, 450.0] {
            let draws = 4000;
            let total: u64 = (0..draws).map(|_| u64::from(rng.poisson(mean))).sum();
            let average = total as f64 / draws as f64;
            let tolerance = 4.0 * (mean / draws as f64).sqrt() + 1e-9;
            assert!(
                (average - mean).abs() <= tolerance,
                "mean {mean}: got {average}"
            );
        }
    }

    #[test]
    fn rain_stays_in_its_ranges() {
        let mut rain = Rain::new(1)
            .with_rate(50.0)
            .and_then(|rain| rain.with_radius(2, 5))
            .and_then(|rain| rain.with_strength(40, 41))
            .unwrap();
        let mut seen = 0;
        for _ in 0..20 {
            for stone in rain.stones(30, 20) {
                assert!((0..30).contains(&stone.x) && (0..20).contains(&stone.y));
                assert!((2..=5).contains(&stone.radius));
                assert!((40..=41).contains(&stone.strength));
                seen += 1;
            }
        }
        assert!(seen > 500, "rate 50 over 20 frames gave {seen} stones");
    }

    #[test]
    fn rain_parameters_are_validated() {
        let out_of_range = |result: Result<Rain, Error>, expected: &str, value: f64| match result {
            Err(Error::OutOfRange {
                name, value: got, ..
            }) => name == expected && got.as_f64() == value,
            _ => false,
        };
        assert!(out_of_range(
            Rain::new(0).with_rate(-1.0),
            "rain rate",
            -1.0
        ));
        assert!(matches!(
            Rain::new(0).with_rate(f64::NAN),
            Err(Error::NotFinite { name, .. }) if name == "rain rate"
        ));
        assert!(out_of_range(
            Rain::new(0).with_radius(0, 3),
            "rain radius",
            0.0
        ));
        assert!(matches!(
            Rain::new(0).with_radius(4, 3),
            Err(Error::ReversedRange { name, .. }) if name == "rain radius"
        ));
        assert!(out_of_range(
            Rain::new(0).with_strength(-1, 3),
            "rain strength",
            -1.0
        ));
        assert!(matches!(
            Rain::new(0).with_strength(9, 3),
            Err(Error::ReversedRange { name, .. }) if name == "rain strength"
        ));
    }
}
