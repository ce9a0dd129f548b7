//! Moving bodies: a boat, a duck or a fingertip pressing the water as it moves.
//!
//! A stone sets the surface to a dent once; a body is a *pressure* on the surface for as long as
//! it is in the water. Each step it adds a downward impulse under a smooth raised-cosine profile
//! of its radius to the solver's vertical velocity (the forcing term of
//! `u_tt = c^2 L(u) - p(x - x_body(t))`), so the solver itself turns the pressure into waves:
//! a slow body carries a dent with it, a body faster than the waves drags a Mach cone on the
//! wave solver, and on a dispersive solver a Kelvin wake. Nothing is stamped: the shape of the
//! wake is the solver's physics, not ours, which is what the tests measure.
//!
//! Shaped by four requirements:
//!
//! - **Solver-agnostic.** The pressure reaches a solver through [`Solver::apply_pressure`]: one
//!   impulse field, which each solver adds where it keeps its velocity (the current field of a
//!   leapfrog scheme, divided among its substeps; the velocity field of the spring model). A new
//!   solver adds one arm there and hands a [`Press`] to its field.
//! - **Smooth in space and time.** Positions are fractional (a body moving 0.3 pixels per frame
//!   moves every frame), and a body that moves further than half its radius in one step presses
//!   at evenly spaced points along the way, each with its share of the impulse: the time average
//!   of the pressure over the step. A pointer that jumps 40 pixels between frames leaves an even
//!   wake, not a dotted one.
//! - **Integer water too.** The classic solver keeps `i16` heights; an impulse of 0.2 per step
//!   rounded to the nearest integer is 0 for ever. [`Press::into_i16`] rounds with a deterministic
//!   dither (a hash of the cell and the step), so the mean impulse is the exact one and the same
//!   run gives the same water.
//! - **Strength on the stones' scale.** The impulse per step at the centre is
//!   `strength * `[`BODY_PRESSURE`]` / radius^2` (radius in grid cells): the `1/radius^2` keeps
//!   the depth of the dent a body carries near `strength` whatever its size (a pressure spread
//!   over a disc makes a dent that grows as the disc's area), and [`BODY_PRESSURE`] is chosen so
//!   that a body held still on the wave solver sinks into a dent about as deep as a
//!   stone of the same strength and radius makes (measured in `tests/it/bodies.rs`).

use crate::disturbances::numbered::{Counted, Numbered};
use crate::error::Error;
use crate::limits::{MAX_SIDE, check_radius, check_strength};

/// The impulse per step at a body's centre, per unit of strength, times its radius² in cells:
/// the scale at which a body of strength S pushes the water down, chosen so that a body held
/// still on the wave solver sinks into a dent about as deep as a stone of the same strength and
/// radius makes (measured in `tests/it/bodies.rs`).
pub const BODY_PRESSURE: f32 = 1.5;

/// Largest radius, in cells, that changes anything (a larger disc covers every grid).
const MAX_USEFUL_RADIUS: f32 = 2.0 * MAX_SIDE as f32;

/// Names a body in a [`crate::Pool`], from [`crate::Pool::add_body`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BodyId(pub(crate) u64);

/// How a body moves.
#[derive(Debug, Clone, PartialEq)]
enum Motion {
    /// Where the caller puts it ([`crate::Pool::set_body_position`]).
    Placed,
    /// Along a polyline at a constant speed.
    Path {
        points: Vec<[f32; 2]>,
        /// Pixels per step.
        speed: f32,
        /// The pool step at which it enters the water at the first point.
        start: u64,
    },
}

/// A disc that presses the water as it moves: `radius` pixels, pushing down with `strength`
/// (the scale of stones: `0..=32767`), either placed by the caller each frame
/// ([`Body::placed`]) or moving along a path ([`Body::along_path`]).
///
/// ```
/// use ripples::{Body, Pool};
///
/// let mut pool = Pool::new(200, 100)?;
/// // From (180, 50) to (20, 50) at 1.5 pixels per step, from step 0.
/// let boat = pool.add_body(Body::along_path(vec![[180.0, 50.0], [20.0, 50.0]], 1.5, 0, 4, 40)?)?;
/// for _ in 0..40 {
///     pool.step();
/// }
/// // It pressed at steps 0 to 39, the last time 39 * 1.5 pixels along.
/// let [x, _] = pool.body_position(boat).unwrap();
/// assert_eq!(x, 180.0 - 39.0 * 1.5);
/// # Ok::<(), ripples::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    radius: u32,
    strength: i16,
    motion: Motion,
    /// Presses harder the faster it moves (see [`Body::fingertip`]).
    fingertip: bool,
    /// Where it is now, in image pixels; `None` while out of the water.
    position: Option<[f32; 2]>,
    /// Where it pressed last step, so a long move presses all along the way.
    last_pressed: Option<[f32; 2]>,
}

impl Body {
    /// A body at `(x, y)` (image pixels) that stays there until
    /// [`crate::Pool::set_body_position`] moves it: a fingertip following a pointer. `radius`
    /// in `1..=4096` pixels, `strength` in `0..=32767`, as for stones.
    pub fn placed(x: f32, y: f32, radius: u32, strength: i16) -> Result<Self, Error> {
        let body = Self {
            radius,
            strength,
            motion: Motion::Placed,
            fingertip: false,
            position: Some([x, y]),
            // Moved before its first step, it presses from here.
            last_pressed: Some([x, y]),
        };
        body.validate()?;
        Ok(body)
    }

    /// A [`placed`](Self::placed) body that presses the water along the way it moves as hard as
    /// if it had moved there at one cell per step, however fast it went: a pointer dragged
    /// across the water leaves a wake as strong as a slow drag (a body of fixed pressure leaves
    /// a wake that fades as `1 / speed`, faint at the tens of pixels per frame a hand moves a
    /// pointer). Physically a hull of fixed draft, which must push aside more water per step
    /// the faster it goes.
    pub fn fingertip(x: f32, y: f32, radius: u32, strength: i16) -> Result<Self, Error> {
        let mut body = Self::placed(x, y, radius, strength)?;
        body.fingertip = true;
        Ok(body)
    }

    /// A body that enters the water at the first of `points` (image pixels) at pool step
    /// `start`, moves along the polyline at `speed` pixels per step and leaves the water at the
    /// last point. At least one point, every coordinate finite, `speed > 0` and finite; `radius`
    /// and `strength` as for [`placed`](Self::placed).
    pub fn along_path(
        points: Vec<[f32; 2]>,
        speed: f32,
        start: u64,
        radius: u32,
        strength: i16,
    ) -> Result<Self, Error> {
        let body = Self {
            radius,
            strength,
            motion: Motion::Path {
                points,
                speed,
                start,
            },
            fingertip: false,
            position: None,
            last_pressed: None,
        };
        body.validate()?;
        Ok(body)
    }

    /// Checks every value, naming the first one out of range.
    pub fn validate(&self) -> Result<(), Error> {
        check_radius(i64::from(self.radius))?;
        check_strength(i64::from(self.strength))?;
        if let Some([x, y]) = self.position
            && !(x.is_finite() && y.is_finite())
        {
            return Err(Error::NotFinitePosition {
                name: "body position",
                x: x.into(),
                y: y.into(),
            });
        }
        if let Motion::Path { points, speed, .. } = &self.motion {
            check_speed(*speed)?;
            if points.is_empty() {
                return Err(Error::EmptyPath);
            }
            if let Some([x, y]) = points
                .iter()
                .find(|[x, y]| !(x.is_finite() && y.is_finite()))
            {
                return Err(Error::PathPointNotFinite { x: *x, y: *y });
            }
        }
        Ok(())
    }

    /// Radius in pixels.
    pub fn radius(&self) -> u32 {
        self.radius
    }

    /// How hard it presses.
    pub fn strength(&self) -> i16 {
        self.strength
    }

    /// Where it is in image pixels: where it pressed in the last step (or, for a placed body,
    /// where it was put since); `None` while out of the water (a path body before its start or
    /// past its last point).
    pub fn position(&self) -> Option<[f32; 2]> {
        self.position
    }

    /// Moves it to `(x, y)` (image pixels); it presses along the way from where it pressed last.
    pub(crate) fn set_position(&mut self, x: f32, y: f32) -> Result<(), Error> {
        if !(x.is_finite() && y.is_finite()) {
            return Err(Error::NotFinitePosition {
                name: "body position",
                x: x.into(),
                y: y.into(),
            });
        }
        self.position = Some([x, y]);
        Ok(())
    }

    /// Where a path body is at pool step `step` (a placed body stays where it is).
    pub(crate) fn follow_path(&mut self, step: u64) {
        if let Motion::Path {
            points,
            speed,
            start,
        } = &self.motion
        {
            self.position = step
                .checked_sub(*start)
                .and_then(|steps| point_along(points, steps as f64 * f64::from(*speed)));
        }
    }

    /// Whether a path body has passed its last point (a placed body never leaves).
    pub(crate) fn has_left(&self, step: u64) -> bool {
        match &self.motion {
            Motion::Placed => false,
            Motion::Path { start, .. } => step > *start && self.position.is_none(),
        }
    }

    /// The points at which it presses this step and the impulse for each, in grid cells:
    /// from where it pressed last to where it is, at most half a radius apart. Remembers where
    /// it pressed. `visit(centre, radius, impulse)`.
    pub(crate) fn press(&mut self, sim_scale: u32, mut visit: impl FnMut([f32; 2], f32, f32)) {
        let Some(now) = self.position else {
            self.last_pressed = None;
            return;
        };
        let scale = sim_scale as f32;
        // Pixel x covers x..x + 1; cell c covers pixels c * scale..(c + 1) * scale.
        let to_cell = |[x, y]: [f32; 2]| [(x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5];
        let radius = (self.radius as f32 / scale).clamp(1.0, MAX_USEFUL_RADIUS);
        let impulse = f32::from(self.strength) * BODY_PRESSURE / (radius * radius);
        let to = to_cell(now);
        let from = self.last_pressed.map(to_cell).unwrap_or(to);
        let distance = (to[0] - from[0]).hypot(to[1] - from[1]);
        // Points at most half a radius apart; a jump across the whole pool is capped (the
        // pressure is the same, spread thinner).
        let points = (distance / (0.5 * radius)).ceil().clamp(1.0, 1024.0) as u32;
        // A fingertip presses as a body moving one cell per step would over the same way.
        // (A jump across more than the pool is capped, so the water stays bounded.)
        let total = if self.fingertip {
            impulse * distance.clamp(1.0, 512.0 * radius)
        } else {
            impulse
        };
        let share = total / points as f32;
        for k in 1..=points {
            let t = k as f32 / points as f32;
            let centre = [
                from[0] + (to[0] - from[0]) * t,
                from[1] + (to[1] - from[1]) * t,
            ];
            visit(centre, radius, share);
        }
        self.last_pressed = Some(now);
    }
}

/// Checks a body's speed: a finite number of pixels per step (or frame) above 0.
pub(crate) fn check_speed(speed: f32) -> Result<f32, Error> {
    if speed.is_finite() && speed > 0.0 {
        Ok(speed)
    } else {
        Err(Error::not_allowed("speed", speed, "a finite number > 0"))
    }
}

/// The point `distance` along a polyline, `None` past its end (a single point is a path of
/// length 0: the body is there for one step).
fn point_along(points: &[[f32; 2]], distance: f64) -> Option<[f32; 2]> {
    let mut walked = 0.0;
    if points.len() == 1 {
        return (distance == 0.0).then_some(points[0]);
    }
    for pair in points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (dx, dy) = (f64::from(b[0] - a[0]), f64::from(b[1] - a[1]));
        let length = dx.hypot(dy);
        if distance <= walked + length && length > 0.0 {
            let t = (distance - walked) / length;
            return Some([
                (f64::from(a[0]) + dx * t) as f32,
                (f64::from(a[1]) + dy * t) as f32,
            ]);
        }
        walked += length;
    }
    None
}

/// The bodies of a pool, in the order they were added.
pub(crate) type Bodies = Numbered<BodyId, Body>;

impl Counted for BodyId {
    fn from_counter(counter: u64) -> Self {
        Self(counter)
    }
}

impl Bodies {
    /// Moves the path bodies to where they are at `step`, drops those that have left the
    /// water, and hands every press of this step to `visit(centre, radius, impulse)`.
    pub(crate) fn press_all(
        &mut self,
        step: u64,
        sim_scale: u32,
        mut visit: impl FnMut([f32; 2], f32, f32),
    ) {
        for body in self.iter_mut() {
            body.follow_path(step);
            body.press(sim_scale, &mut visit);
        }
        self.retain(|body| !body.has_left(step));
    }
}

/// The raised-cosine weights of a disc of `radius` cells centred on `centre` (fractional
/// cells), clipped to the interior of a `width x height` grid: calls `visit(index, weight)`
/// for every interior cell closer than `radius`, weight `0.5 + 0.5 cos(pi d / radius)`.
fn for_each_weight(
    width: usize,
    height: usize,
    centre: [f32; 2],
    radius: f32,
    mut visit: impl FnMut(usize, f32),
) {
    if width < 3 || height < 3 || radius.is_nan() || radius <= 0.0 {
        return;
    }
    let [cx, cy] = centre;
    if !(cx.is_finite() && cy.is_finite()) {
        return;
    }
    let x_start = (cx - radius).floor().max(1.0);
    let x_end = (cx + radius).ceil().min(width as f32 - 2.0);
    let y_start = (cy - radius).floor().max(1.0);
    let y_end = (cy + radius).ceil().min(height as f32 - 2.0);
    if x_start > x_end || y_start > y_end {
        return;
    }
    let to_phase = std::f32::consts::PI / radius;
    for y in y_start as usize..=y_end as usize {
        let dy = y as f32 - cy;
        for x in x_start as usize..=x_end as usize {
            let dx = x as f32 - cx;
            let d = dx.hypot(dy);
            if d < radius {
                visit(y * width + x, 0.5 + 0.5 * (d * to_phase).cos());
            }
        }
    }
}

/// One step of a body's push on the water: `impulse` at the centre of a raised-cosine disc of
/// `radius` cells around `centre` (fractional cells), downward.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Press {
    centre: [f32; 2],
    radius: f32,
    impulse: f32,
}

impl Press {
    pub(crate) fn new(centre: [f32; 2], radius: f32, impulse: f32) -> Self {
        Self {
            centre,
            radius,
            impulse,
        }
    }

    /// Into a float velocity-like field: `field -= impulse * weight` under the disc. For a
    /// leapfrog solver, `field` is its current heights and `impulse` the impulse per step
    /// divided by its substeps; for one that keeps velocities, its velocities.
    pub(crate) fn into_f32(self, field: &mut [f32], width: usize, height: usize) {
        for_each_weight(width, height, self.centre, self.radius, |i, weight| {
            field[i] -= self.impulse * weight;
        });
    }

    /// [`into_f32`](Self::into_f32) for an `i16` field: each cell's share rounded with a
    /// dither drawn from a hash of the cell and `seed` (the pool step), so small impulses are
    /// not lost to rounding and their mean is exact; saturating.
    pub(crate) fn into_i16(self, field: &mut [i16], width: usize, height: usize, seed: u64) {
        for_each_weight(width, height, self.centre, self.radius, |i, weight| {
            let dither = unit_hash(seed, i as u64) - 0.5;
            let amount = (self.impulse * weight + dither).round();
            let amount = amount.clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
            field[i] = field[i].saturating_sub(amount);
        });
    }
}

/// A number in `[0, 1)` from a hash of `seed` and `index` (SplitMix64's finaliser).
pub(crate) fn unit_hash(seed: u64, index: u64) -> f32 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 40) as f32 / (1u64 << 24) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_body_walks_its_polyline_at_its_speed_and_then_leaves() {
        let points = vec![[0.0, 0.0], [30.0, 0.0], [30.0, 40.0]];
        let mut body = Body::along_path(points, 2.5, 10, 3, 40).unwrap();
        body.follow_path(9);
        assert_eq!(body.position(), None, "before its start");
        body.follow_path(10);
        assert_eq!(body.position(), Some([0.0, 0.0]));
        body.follow_path(22); // 30 pixels: the corner
        assert_eq!(body.position(), Some([30.0, 0.0]));
        body.follow_path(30); // 50 pixels: 20 down the second segment
        assert_eq!(body.position(), Some([30.0, 20.0]));
        body.follow_path(38); // 70 pixels: the end
        assert_eq!(body.position(), Some([30.0, 40.0]));
        body.follow_path(39);
        assert_eq!(body.position(), None);
        assert!(body.has_left(39));
    }

    #[test]
    fn a_long_move_presses_evenly_along_the_way_with_the_same_total_impulse() {
        let mut body = Body::placed(10.0, 10.0, 4, 100).unwrap();
        let mut presses = Vec::new();
        body.press(1, |c, r, i| presses.push((c, r, i)));
        assert_eq!(presses.len(), 1);
        let single = presses[0].2;
        presses.clear();
        body.set_position(30.0, 10.0).unwrap();
        body.press(1, |c, r, i| presses.push((c, r, i)));
        // 20 cells at most 2 apart: 10 presses, 2 cells apart, ending at the body.
        assert_eq!(presses.len(), 10);
        assert_eq!(presses[9].0, [30.0, 10.0]);
        assert!((presses[0].0[0] - 12.0).abs() < 1e-5);
        let total: f32 = presses.iter().map(|p| p.2).sum();
        assert!(
            (total - single).abs() < 1e-5 * single,
            "{total} vs {single}"
        );
    }

    #[test]
    fn a_fingertip_presses_in_proportion_to_the_way_it_went() {
        let mut finger = Body::fingertip(10.0, 10.0, 4, 100).unwrap();
        let mut total = 0.0;
        finger.press(1, |_, _, i| total += i);
        let still = total;
        total = 0.0;
        finger.set_position(10.0, 40.0).unwrap();
        finger.press(1, |_, _, i| total += i);
        assert!(
            (total - 30.0 * still).abs() < 1e-4 * total,
            "{total} vs {still}"
        );
    }

    #[test]
    fn dithered_integer_presses_deliver_the_exact_mean() {
        // An impulse of 0.3 per step would round to 0 every time; dithered, 1000 steps
        // deliver 300 at the centre within the dither's noise.
        let (w, h) = (9, 9);
        let mut field = vec![0i16; w * h];
        for step in 0..1000 {
            Press::new([4.0, 4.0], 2.0, 0.3).into_i16(&mut field, w, h, step);
        }
        let centre = -f64::from(field[4 * w + 4]);
        println!("dithered centre after 1000 presses of 0.3: {centre} (exact 300)");
        assert!((centre - 300.0).abs() < 40.0, "{centre}");
    }

    #[test]
    fn bad_bodies_are_refused_naming_the_value() {
        let error = |result: Result<Body, Error>| result.unwrap_err().to_string();
        assert!(error(Body::placed(1.0, 1.0, 0, 40)).contains("radius must be >= 1, got 0"));
        assert!(error(Body::placed(f32::NAN, 1.0, 3, 40)).contains("finite"));
        let path = || vec![[0.0, 0.0], [10.0, 0.0]];
        assert!(error(Body::along_path(path(), 0.0, 0, 3, 40)).contains("speed"));
        assert!(error(Body::along_path(path(), f32::INFINITY, 0, 3, 40)).contains("inf"));
        assert!(error(Body::along_path(Vec::new(), 1.0, 0, 3, 40)).contains("at least one"));
        assert!(error(Body::along_path(path(), 1.0, 0, 3, -1)).contains("strength"));
    }
}
