//! The [`SceneRunner`]: plays a [`Scene`] on a [`Pool`] frame by frame, applying each frame's
//! events before its steps (see the module documentation of `scene` for the frame semantics).
//! Swipes are stamped a portion of their polyline per frame, so a swipe spread over frames
//! draws the whole line without gaps.

use std::sync::Arc;

use super::Scene;
use crate::disturbances::float::FloatImage;
use crate::disturbances::sources::{Generator, Rain};
use crate::error::Error;
use crate::looks::Look;
use crate::photo::perspective::Perspective;
use crate::pool::Pool;

/// Plays a [`Scene`] on a [`Pool`], frame by frame.
///
/// ```
/// use ripples::{DropEvent, Scene, SceneRunner};
///
/// let scene = Scene {
///     frames: 10,
///     drops: vec![DropEvent { frame: 0, x: 40, y: 30, radius: 5, strength: 100 }],
///     ..Scene::default()
/// };
/// let background = ripples::pool_tiles(80, 60)?;
/// let mut frame = vec![0u8; background.len()];
/// let mut runner = SceneRunner::new(scene, 80, 60)?;
/// while !runner.is_finished() {
///     runner.advance();
///     runner.render(&background, &mut frame)?;
/// }
/// # Ok::<(), ripples::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SceneRunner {
    scene: Scene,
    look: Look,
    pool: Pool,
    rain: Option<Rain>,
    frame: u32,
    partial_path: Vec<[i32; 2]>,
    /// The pictures of the scene's floats, by index (set by the front end that loads them).
    float_images: Vec<Option<Arc<FloatImage>>>,
}

impl SceneRunner {
    /// Validates `scene` and builds a calm pool of `width x height` pixels for it.
    pub fn new(scene: Scene, width: u32, height: u32) -> Result<Self, Error> {
        scene.validate()?;
        let mut pool = Pool::with_sim_scale(width, height, scene.sim_scale)?;
        pool.set_solver(scene.solver)?;
        scene.configure_solver(pool.solver_mut())?;
        pool.set_boundary(scene.boundary);
        if let Some(perspective) = scene.perspective() {
            pool.set_water(None, Some(perspective))?;
            scene.configure_solver(pool.solver_mut())?;
            pool.set_photo_look(scene.photo)?;
        }
        let steps_per_frame = u64::from(scene.steps_per_frame);
        for source in &scene.sources {
            let (from, to) = source.ends()?;
            pool.add_generator(Generator {
                from,
                to,
                period: source.period,
                amplitude: source.amplitude,
                start: u64::from(source.start) * steps_per_frame,
                end: source.end.map(|end| u64::from(end) * steps_per_frame),
            })?;
        }
        for (index, event) in scene.bodies.iter().enumerate() {
            let context = |error: Error| error.in_context(format!("body #{}", index + 1));
            event.check_inside(width, height).map_err(context)?;
            pool.add_body(event.body(scene.steps_per_frame).map_err(context)?)?;
        }
        for (index, event) in scene.floats.iter().enumerate() {
            let context = |error: Error| error.in_context(format!("float #{}", index + 1));
            event.check_inside(width, height).map_err(context)?;
        }
        let rain = match &scene.rain {
            Some(spec) => Some(spec.generator(scene.seed)?),
            None => None,
        };
        let longest_swipe = scene
            .swipes
            .iter()
            .map(|s| s.points.len())
            .max()
            .unwrap_or(0);
        Ok(Self {
            look: scene.full_look(),
            partial_path: Vec::with_capacity(longest_swipe + 2),
            float_images: vec![None; scene.floats.len()],
            scene,
            pool,
            rain,
            frame: 0,
        })
    }

    /// Limits the water to `mask` and lays it in `perspective` ([`Pool::set_water`]), then sets
    /// the scene's solver parameters and photo look again on the new grid. The front end calls
    /// this with the scene's mask picture and camera fitted to the pool (see
    /// [`Scene::perspective`]); nothing to do when both are `None`.
    pub fn set_water(
        &mut self,
        mask: Option<&[bool]>,
        perspective: Option<Perspective>,
    ) -> Result<(), Error> {
        if mask.is_none() && perspective.is_none() {
            return Ok(());
        }
        self.pool.set_water(mask, perspective)?;
        self.scene.configure_solver(self.pool.solver_mut())?;
        self.pool.set_photo_look(self.scene.photo)
    }

    /// Draws the scene's float number `index` (from 0, in the order of the scene's `[[float]]`
    /// tables) with `image`, from when it is put on the water; an index the scene does not have
    /// is an [`Error`].
    pub fn set_float_image(&mut self, index: usize, image: Arc<FloatImage>) -> Result<(), Error> {
        let count = self.float_images.len();
        let slot = self.float_images.get_mut(index).ok_or(Error::NoSuchItem {
            what: "float",
            number: index + 1,
            count,
        })?;
        *slot = Some(image);
        Ok(())
    }

    /// The scene being played.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The pool.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The pool, to disturb it further.
    pub fn pool_mut(&mut self) -> &mut Pool {
        &mut self.pool
    }

    /// Frames advanced so far.
    pub fn frame(&self) -> u32 {
        self.frame
    }

    /// Whether all of the scene's frames have been advanced.
    pub fn is_finished(&self) -> bool {
        self.frame >= self.scene.frames
    }

    /// Whether nothing the scene holds will move the water from this frame on: no rain, no
    /// drop, swipe or float still to come (generators, bodies and floats already on the water
    /// are the pool's to say: see [`Pool::is_calm`]). A window that shows the scene can then
    /// stop stepping while the water is calm.
    pub fn is_idle(&self) -> bool {
        let frame = self.frame;
        self.rain.is_none()
            && self.scene.drops.iter().all(|drop| drop.frame < frame)
            && self.scene.swipes.iter().all(|swipe| {
                frame.saturating_sub(swipe.frame) >= swipe.duration.max(1) && frame >= swipe.frame
            })
            && self.scene.floats.iter().all(|float| float.start < frame)
    }

    /// Applies the events of the current frame, runs `steps_per_frame` steps and moves to the
    /// next frame.
    pub fn advance(&mut self) {
        self.disturb();
        for _ in 0..self.scene.steps_per_frame {
            self.pool.step();
        }
        self.frame = self.frame.saturating_add(1);
    }

    /// [`advance`](Self::advance), then [`render`](Self::render), with the last step and the
    /// render fused where the pool can ([`Pool::step_and_render`]). A wrong buffer size is an
    /// error before anything changes.
    pub fn advance_and_render(&mut self, src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
        self.pool.check_frame(src.len(), dst.len(), 4)?;
        self.disturb();
        for _ in 1..self.scene.steps_per_frame {
            self.pool.step();
        }
        self.pool.step_and_render(&self.look, src, dst)?;
        self.frame = self.frame.saturating_add(1);
        Ok(())
    }

    /// The current frame's drops, swipes, floats and rain. They were checked when the runner was made
    /// (the scene by [`Scene::validate`], the rain's ranges by [`Rain`]), so they are pressed
    /// without checking again.
    fn disturb(&mut self) {
        let frame = self.frame;
        for drop in self.scene.drops.iter().filter(|drop| drop.frame == frame) {
            self.pool
                .press_stone(drop.x, drop.y, drop.radius, drop.strength);
        }
        for swipe in &self.scene.swipes {
            let duration = swipe.duration.max(1);
            if frame < swipe.frame || frame - swipe.frame >= duration {
                continue;
            }
            let part = frame - swipe.frame;
            let (from, to) = (
                f64::from(part) / f64::from(duration),
                f64::from(part + 1) / f64::from(duration),
            );
            polyline_portion(&swipe.points, from, to, &mut self.partial_path);
            self.pool
                .drag_stone(&self.partial_path, swipe.radius, swipe.strength);
        }
        let floats = self.scene.floats.iter().zip(&self.float_images);
        for (event, image) in floats.filter(|(event, _)| event.start == frame) {
            // Checked when the runner was made.
            if let Ok(mut float) = event.float() {
                if let Some(image) = image {
                    float = float.with_image(Arc::clone(image));
                }
                let _ = self.pool.add_float(float);
            }
        }
        if let (Some(rain), Some(spec)) = (&mut self.rain, &self.scene.rain) {
            let end = spec.end.unwrap_or(u32::MAX);
            if (spec.start..end).contains(&frame) {
                let (width, height) = self.pool.rain_area();
                for stone in rain.stones(width, height) {
                    self.pool
                        .press_rain(stone.x, stone.y, stone.radius, stone.strength);
                }
            }
        }
    }

    /// Renders the current water over `src` into `dst` (RGBA bytes) with the scene's look.
    pub fn render(&mut self, src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
        self.pool.render(&self.look, src, dst)
    }
}

/// The part of a polyline between fractions `from` and `to` of its length, rounded to pixels,
/// written into `out`. Consecutive portions share their end points, so stamping them one after
/// the other draws the whole line without gaps.
pub(super) fn polyline_portion(points: &[[i32; 2]], from: f64, to: f64, out: &mut Vec<[i32; 2]>) {
    out.clear();
    // Differences in f64, where they are exact: in i32 they overflow for points far apart.
    let delta = |a: i32, b: i32| f64::from(b) - f64::from(a);
    let segment_length = |a: [i32; 2], b: [i32; 2]| delta(a[0], b[0]).hypot(delta(a[1], b[1]));
    let total: f64 = points
        .windows(2)
        .map(|pair| segment_length(pair[0], pair[1]))
        .sum();
    if points.len() < 2 || total == 0.0 {
        out.extend(points.first().copied());
        return;
    }
    let (start, end) = (from * total, to * total);
    let point_at = |a: [i32; 2], b: [i32; 2], t: f64| {
        [
            (f64::from(a[0]) + delta(a[0], b[0]) * t).round() as i32,
            (f64::from(a[1]) + delta(a[1], b[1]) * t).round() as i32,
        ]
    };
    let mut walked = 0.0;
    for pair in points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let length = segment_length(a, b);
        let (seg_start, seg_end) = (walked, walked + length);
        walked = seg_end;
        if length == 0.0 || seg_end < start || seg_start > end {
            continue;
        }
        if out.is_empty() {
            out.push(point_at(
                a,
                b,
                ((start - seg_start) / length).clamp(0.0, 1.0),
            ));
        }
        out.push(point_at(a, b, ((end - seg_start) / length).clamp(0.0, 1.0)));
    }
}
