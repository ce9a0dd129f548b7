//! Scenes: a whole animation described as data, and the runner that plays it.
//!
//! A [`Scene`] is what a scene file holds (size, solver, look, and the stones, swipes, bodies,
//! floats and rain scheduled by frame); a [`SceneRunner`] plays it on a [`Pool`] frame by frame. The model lives
//! in the core, not in the command, so every front end plays scenes the same way. Parsing is
//! the caller's business: with the `serde` feature the types implement `Deserialize`, and every
//! field is checked *while* it is deserialized, so a format that knows positions (TOML) reports
//! the line of a bad value. [`Scene::validate`] runs the same checks again after a front end has
//! overridden fields (e.g. from the command line).
//!
//! Frame semantics: for frame `t`, the events scheduled at `t` are applied, then
//! `steps_per_frame` steps run, then the frame is rendered. The last frame of an animation of
//! `frames` frames shows the field after `frames * steps_per_frame` steps.

use std::sync::Arc;

use crate::body::Body;
use crate::boundary::Boundary;
use crate::classic::ClassicSolver;
use crate::dispersive::DispersiveSolver;
use crate::error::Error;
use crate::float::{Float, FloatImage};
use crate::limits::{
    check_damping_shift, check_fps, check_frames, check_radius, check_side, check_sim_scale,
    check_size, check_steps_per_frame, check_strength,
};
use crate::pool::Pool;
use crate::render::{Look, RenderMode};
use crate::solver::{Solver, SolverKind};
use crate::sources::{Generator, Rain, check_wave_source};
use crate::spring::SpringSolver;
use crate::wave::WaveSolver;

/// A whole animation. `Default` is a calm 320x240 pool, 120 frames at 30 fps.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct Scene {
    /// Number of frames, `1..=100000`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::frames"))]
    pub frames: u32,
    /// Frames per second of the output, `(0, 1000]`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::fps"))]
    pub fps: f64,
    /// Pool width in pixels; optional when an image gives the size.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::side"))]
    pub width: Option<u32>,
    /// Pool height in pixels; optional when an image gives the size.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::side"))]
    pub height: Option<u32>,
    /// Seed of the rain.
    pub seed: u64,
    /// The solver.
    pub solver: SolverKind,
    /// Classic solver damping shift, `1..=15`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::damping_shift"))]
    pub damping_shift: u32,
    /// Image under the water, as written in the scene (relative to the scene file).
    pub image: Option<String>,
    /// The look.
    pub render: RenderMode,
    /// Pixels per simulation cell, `1..=16`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::sim_scale"))]
    pub sim_scale: u32,
    /// Solver steps per frame, `1..=1000`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::steps_per_frame"))]
    pub steps_per_frame: u32,
    /// Parameters of the looks (`[look]` in a scene file).
    pub look: Look,
    /// Stones (`[[drop]]`).
    #[cfg_attr(feature = "serde", serde(rename = "drop"))]
    pub drops: Vec<DropEvent>,
    /// Swipes (`[[swipe]]`).
    #[cfg_attr(feature = "serde", serde(rename = "swipe"))]
    pub swipes: Vec<SwipeEvent>,
    /// Rain (`[rain]`).
    pub rain: Option<RainSpec>,
    /// Moving bodies (`[[body]]`).
    #[cfg_attr(feature = "serde", serde(rename = "body"))]
    pub bodies: Vec<BodyEvent>,
    /// Floating things (`[[float]]`).
    #[cfg_attr(feature = "serde", serde(rename = "float"))]
    pub floats: Vec<FloatEvent>,
    /// Wave generators (`[[source]]`).
    #[cfg_attr(feature = "serde", serde(rename = "source"))]
    pub sources: Vec<SourceEvent>,
    /// What happens at the edges.
    pub boundary: Boundary,
    /// Wall mask image (dark pixels are walls), relative to the scene file.
    pub obstacles: Option<String>,
    /// A NumPy `.npy` height field the water starts from, relative to the scene file (read by
    /// `ripples render`; [`crate::Pool::set_heights`] takes the values).
    pub heights: Option<String>,
    /// The sky the natural look reflects: a picture, relative to the scene file, mapped as
    /// [`crate::SkyImage`] says (the built-in gradient when absent).
    pub sky: Option<String>,
    /// Wave solver: speed in cells per step, `(0, 4]`.
    pub wave_speed: f32,
    /// Wave and dispersive solvers: fraction of amplitude lost per step, `[0, 1)`.
    pub damping: f32,
    /// Dispersive solver: gravity in cells per step², `(0, 0.5]`; a wave of wavelength
    /// `lambda` cells turns at `sqrt(gravity * 2 pi / lambda)` radians per step.
    pub gravity: f32,
    /// Spring solver: uniform stiffness (ignored where `stiffness_map` is given).
    pub stiffness: f32,
    /// Spring solver: uniform viscosity (ignored where `viscosity_map` is given).
    pub viscosity: f32,
    /// Spring solver: greyscale image of stiffness, black = `stiffness_range[0]`, white = `[1]`.
    pub stiffness_map: Option<String>,
    /// Spring solver: greyscale image of viscosity, black = `viscosity_range[0]`, white = `[1]`.
    pub viscosity_map: Option<String>,
    /// Stiffness for black and white pixels of `stiffness_map`.
    pub stiffness_range: [f32; 2],
    /// Viscosity for black and white pixels of `viscosity_map`.
    pub viscosity_range: [f32; 2],
    /// Spring solver: neighbour spreading per pass.
    pub spread: f32,
    /// Spring solver: spreading passes per step.
    pub spread_passes: u32,
}

impl Default for Scene {
    fn default() -> Self {
        Self {
            frames: 120,
            fps: 30.0,
            width: None,
            height: None,
            seed: 1,
            solver: SolverKind::Dispersive,
            damping_shift: ClassicSolver::DEFAULT_DAMPING_SHIFT,
            image: None,
            render: RenderMode::Natural,
            sim_scale: 1,
            steps_per_frame: 1,
            look: Look::default(),
            drops: Vec::new(),
            swipes: Vec::new(),
            bodies: Vec::new(),
            floats: Vec::new(),
            rain: None,
            sources: Vec::new(),
            boundary: Boundary::Reflect,
            obstacles: None,
            heights: None,
            sky: None,
            wave_speed: WaveSolver::DEFAULT_WAVE_SPEED,
            damping: WaveSolver::DEFAULT_DAMPING,
            gravity: DispersiveSolver::DEFAULT_GRAVITY,
            stiffness: SpringSolver::DEFAULT_STIFFNESS,
            viscosity: SpringSolver::DEFAULT_VISCOSITY,
            stiffness_map: None,
            viscosity_map: None,
            stiffness_range: [
                SpringSolver::DEFAULT_STIFFNESS * 0.25,
                // Stiffness may not exceed viscosity (the spring model gains energy otherwise).
                SpringSolver::DEFAULT_VISCOSITY,
            ],
            viscosity_range: [
                SpringSolver::DEFAULT_VISCOSITY,
                SpringSolver::DEFAULT_VISCOSITY * 10.0,
            ],
            spread: SpringSolver::DEFAULT_SPREAD,
            spread_passes: SpringSolver::DEFAULT_SPREAD_PASSES,
        }
    }
}

/// A stone dropped at a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct DropEvent {
    /// Frame at which it falls (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub frame: u32,
    /// Column of the centre, in pixels.
    pub x: i32,
    /// Row of the centre, in pixels.
    pub y: i32,
    /// Radius in pixels, `>= 1` (default 6).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::drop_radius", deserialize_with = "de::radius")
    )]
    pub radius: u32,
    /// Depth of the dent, `0..=32767` (default 128).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::drop_strength", deserialize_with = "de::strength")
    )]
    pub strength: i16,
}

impl DropEvent {
    /// Default radius of a dropped stone, in pixels.
    pub const DEFAULT_RADIUS: u32 = 6;
    /// Default strength of a dropped stone.
    pub const DEFAULT_STRENGTH: i16 = 128;
}

/// A stone dragged along a polyline, drawn progressively over `duration` frames.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct SwipeEvent {
    /// Frame at which the swipe starts (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub frame: u32,
    /// Frames over which it is drawn at constant speed (default 1: all at once; 0 means 1).
    #[cfg_attr(feature = "serde", serde(default = "de::duration"))]
    pub duration: u32,
    /// The polyline, `[x, y]` pixels; at least one point.
    pub points: Vec<[i32; 2]>,
    /// Radius in pixels, `>= 1` (default 3).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::swipe_radius", deserialize_with = "de::radius")
    )]
    pub radius: u32,
    /// Depth of the trail, `0..=32767` (default 40).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::swipe_strength", deserialize_with = "de::strength")
    )]
    pub strength: i16,
}

impl SwipeEvent {
    /// Default radius of a swipe, in pixels.
    pub const DEFAULT_RADIUS: u32 = 3;
    /// Default strength of a swipe.
    pub const DEFAULT_STRENGTH: i16 = 40;
}

/// A body that presses the water as it moves along a polyline at a constant speed (a boat,
/// a duck, a fingertip): see [`crate::Body`]. It enters the water at the first point at frame
/// `start` and leaves it at the last point.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct BodyEvent {
    /// The path, `[x, y]` pixels (fractions allowed), inside the pool; at least one point.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::body_points"))]
    pub points: Vec<[f32; 2]>,
    /// Pixels per frame along the path, finite and `> 0` (default 1).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::body_speed", deserialize_with = "de::speed")
    )]
    pub speed: f32,
    /// Radius in pixels, `1..=4096` (default 6).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::body_radius", deserialize_with = "de::radius")
    )]
    pub radius: u32,
    /// How hard it presses, `0..=32767`, the scale of stones (default 40).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::body_strength", deserialize_with = "de::strength")
    )]
    pub strength: i16,
    /// Frame at which it enters the water (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub start: u32,
}

impl BodyEvent {
    /// Default speed of a body, in pixels per frame.
    pub const DEFAULT_SPEED: f32 = 1.0;
    /// Default radius of a body, in pixels.
    pub const DEFAULT_RADIUS: u32 = 6;
    /// Default strength of a body.
    pub const DEFAULT_STRENGTH: i16 = 40;

    /// The library's body for this event, on a pool stepped `steps_per_frame` times a frame.
    pub fn body(&self, steps_per_frame: u32) -> Result<Body, Error> {
        let steps_per_frame = steps_per_frame.max(1);
        Body::along_path(
            self.points.clone(),
            self.speed / steps_per_frame as f32,
            u64::from(self.start) * u64::from(steps_per_frame),
            self.radius,
            self.strength,
        )
    }

    /// Checks every point lies in a `width x height` pool (pixel `x` covers `x..x + 1`).
    fn check_inside(&self, width: u32, height: u32) -> Result<(), Error> {
        let outside = self
            .points
            .iter()
            .find(|[x, y]| !(*x >= 0.0 && *y >= 0.0 && *x < width as f32 && *y < height as f32));
        match outside {
            Some([x, y]) => Err(Error::Invalid(format!(
                "point [{x}, {y}] is outside the {width}x{height} pool"
            ))),
            None => Ok(()),
        }
    }
}

/// A floating thing put on the water at frame `start` (a duck, a leaf, a buoy): see
/// [`crate::Float`]. It settles at its floating level there and the water moves it from then on.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct FloatEvent {
    /// Centre, pixels (fractions allowed), inside the pool.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::coordinate"))]
    pub x: f32,
    /// Centre, pixels (fractions allowed), inside the pool.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::coordinate"))]
    pub y: f32,
    /// Radius in pixels, `1..=4096` (default 8).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::float_radius", deserialize_with = "de::radius")
    )]
    pub radius: u32,
    /// Density relative to water, from 0.001 up to but not including 1 (default 0.5).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::float_density", deserialize_with = "de::density")
    )]
    pub density: f32,
    /// Thickness in pixels, `0.01..=4096` (default: the radius).
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "de::thickness"))]
    pub thickness: Option<f32>,
    /// A picture to draw it with (PNG or JPEG, alpha respected, scaled to the disc), relative
    /// to the scene file; a shaded disc without.
    #[cfg_attr(feature = "serde", serde(default))]
    pub image: Option<String>,
    /// Frame at which it is put on the water (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub start: u32,
}

impl FloatEvent {
    /// Default radius of a float, in pixels.
    pub const DEFAULT_RADIUS: u32 = 8;
    /// Default density of a float, relative to water.
    pub const DEFAULT_DENSITY: f32 = 0.5;

    /// The library's float for this event (without its picture).
    pub fn float(&self) -> Result<Float, Error> {
        let float = Float::new(self.x, self.y, self.radius, self.density)?;
        match self.thickness {
            Some(thickness) => float.with_thickness(thickness),
            None => Ok(float),
        }
    }

    /// Checks the centre lies in a `width x height` pool (pixel `x` covers `x..x + 1`).
    fn check_inside(&self, width: u32, height: u32) -> Result<(), Error> {
        let (x, y) = (self.x, self.y);
        if x >= 0.0 && y >= 0.0 && x < width as f32 && y < height as f32 {
            Ok(())
        } else {
            Err(Error::Invalid(format!(
                "centre ({x}, {y}) is outside the {width}x{height} pool"
            )))
        }
    }
}

/// Rain falling between two frames.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct RainSpec {
    /// Mean stones per frame, `0..=10000` (default 1).
    pub rate: f64,
    /// Radius range `[min, max]` in pixels (default `[1, 4]`).
    pub radius: [u32; 2],
    /// Strength range `[min, max]` (default `[32, 128]`).
    pub strength: [i16; 2],
    /// First frame with rain (default 0).
    pub start: u32,
    /// Frame at which the rain stops (excluded; default: the end of the animation).
    pub end: Option<u32>,
}

impl Default for RainSpec {
    fn default() -> Self {
        Self {
            rate: 1.0,
            radius: [1, 4],
            strength: [32, 128],
            start: 0,
            end: None,
        }
    }
}

impl RainSpec {
    fn generator(&self, seed: u64) -> Result<Rain, Error> {
        Rain::new(seed)
            .with_rate(self.rate)?
            .with_radius(self.radius[0], self.radius[1])?
            .with_strength(self.strength[0], self.strength[1])
    }
}

/// A wave generator scheduled between two frames: a point (`x`, `y`) or a line
/// (`x0`, `y0`, `x1`, `y1`) driven as `amplitude * sin(2 pi t / period)`, `t` in steps.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct SourceEvent {
    /// Point source column.
    #[cfg_attr(feature = "serde", serde(default))]
    pub x: Option<i32>,
    /// Point source row.
    #[cfg_attr(feature = "serde", serde(default))]
    pub y: Option<i32>,
    /// Line source, first end, column.
    #[cfg_attr(feature = "serde", serde(default))]
    pub x0: Option<i32>,
    /// Line source, first end, row.
    #[cfg_attr(feature = "serde", serde(default))]
    pub y0: Option<i32>,
    /// Line source, second end, column.
    #[cfg_attr(feature = "serde", serde(default))]
    pub x1: Option<i32>,
    /// Line source, second end, row.
    #[cfg_attr(feature = "serde", serde(default))]
    pub y1: Option<i32>,
    /// Steps per cycle, `>= 2` (default 16).
    #[cfg_attr(feature = "serde", serde(default = "de::period"))]
    pub period: f32,
    /// Height of the crests, `0..=32767` (default 40).
    #[cfg_attr(feature = "serde", serde(default = "de::amplitude"))]
    pub amplitude: f32,
    /// First frame driven (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub start: u32,
    /// Frame at which it stops (excluded; default: never).
    #[cfg_attr(feature = "serde", serde(default))]
    pub end: Option<u32>,
}

impl SourceEvent {
    /// Default period of a wave generator, in steps.
    pub const DEFAULT_PERIOD: f32 = 16.0;
    /// Default amplitude of a wave generator.
    pub const DEFAULT_AMPLITUDE: f32 = 40.0;

    /// The two ends of the source (equal for a point), or an error saying what is missing.
    pub fn ends(&self) -> Result<([i32; 2], [i32; 2]), Error> {
        match (self.x, self.y, self.x0, self.y0, self.x1, self.y1) {
            (Some(x), Some(y), None, None, None, None) => Ok(([x, y], [x, y])),
            (None, None, Some(x0), Some(y0), Some(x1), Some(y1)) => Ok(([x0, y0], [x1, y1])),
            _ => Err(Error::Invalid(
                "give either x and y (a point) or x0, y0, x1 and y1 (a line)".into(),
            )),
        }
    }

    fn check(&self) -> Result<(), Error> {
        self.ends()?;
        check_wave_source(
            self.period,
            self.amplitude,
            u64::from(self.start),
            self.end.map(u64::from),
        )
    }
}

impl Scene {
    /// Checks every field and the relations between them, naming the first problem.
    pub fn validate(&self) -> Result<(), Error> {
        check_frames(i64::from(self.frames))?;
        check_fps(self.fps)?;
        check_damping_shift(i64::from(self.damping_shift))?;
        check_sim_scale(i64::from(self.sim_scale))?;
        check_steps_per_frame(i64::from(self.steps_per_frame))?;
        if let Some(width) = self.width {
            check_side("width", i64::from(width))?;
        }
        if let Some(height) = self.height {
            check_side("height", i64::from(height))?;
        }
        if let (Some(width), Some(height)) = (self.width, self.height) {
            check_size(u64::from(width), u64::from(height))?;
        }
        self.look.validate()?;
        for (index, drop) in self.drops.iter().enumerate() {
            let context = |error: Error| Error::Invalid(format!("drop #{}: {error}", index + 1));
            check_radius(i64::from(drop.radius)).map_err(context)?;
            check_strength(i64::from(drop.strength)).map_err(context)?;
        }
        for (index, swipe) in self.swipes.iter().enumerate() {
            let context = |error: Error| Error::Invalid(format!("swipe #{}: {error}", index + 1));
            check_radius(i64::from(swipe.radius)).map_err(context)?;
            check_strength(i64::from(swipe.strength)).map_err(context)?;
            if swipe.points.is_empty() {
                return Err(context(Error::Invalid(
                    "points must hold at least one [x, y]".into(),
                )));
            }
        }
        for (index, body) in self.bodies.iter().enumerate() {
            let context = |error: Error| Error::Invalid(format!("body #{}: {error}", index + 1));
            body.body(self.steps_per_frame).map_err(context)?;
            if let (Some(width), Some(height)) = (self.width, self.height) {
                body.check_inside(width, height).map_err(context)?;
            }
        }
        for (index, float) in self.floats.iter().enumerate() {
            let context = |error: Error| Error::Invalid(format!("float #{}: {error}", index + 1));
            float.float().map_err(context)?;
            if let (Some(width), Some(height)) = (self.width, self.height) {
                float.check_inside(width, height).map_err(context)?;
            }
        }
        for (index, source) in self.sources.iter().enumerate() {
            source
                .check()
                .map_err(|error| Error::Invalid(format!("source #{}: {error}", index + 1)))?;
        }
        self.check_solver_parameters()?;
        if let Some(rain) = &self.rain {
            let context = |error: Error| Error::Invalid(format!("rain: {error}"));
            rain.generator(self.seed).map_err(context)?;
            if let Some(end) = rain.end
                && end < rain.start
            {
                return Err(context(Error::Invalid(format!(
                    "end ({end}) must not come before start ({})",
                    rain.start
                ))));
            }
        }
        Ok(())
    }

    /// Checks the parameters of every solver by configuring a tiny one of each kind.
    fn check_solver_parameters(&self) -> Result<(), Error> {
        for kind in [
            SolverKind::Classic,
            SolverKind::Wave,
            SolverKind::Spring,
            SolverKind::Dispersive,
        ] {
            self.configure_solver(&mut Solver::new(kind, 3, 3)?)?;
        }
        let ranges = [
            ("stiffness_range", self.stiffness_range),
            ("viscosity_range", self.viscosity_range),
        ];
        for (name, [low, high]) in ranges {
            if low.is_nan() || high.is_nan() || low > high {
                return Err(Error::Invalid(format!(
                    "{name} must be [low, high] with low <= high, got [{low}, {high}]"
                )));
            }
        }
        Ok(())
    }

    /// Applies this scene's parameters for `solver`'s kind (maps excepted: they are images,
    /// which the front end loads).
    pub fn configure_solver(&self, solver: &mut Solver) -> Result<(), Error> {
        match solver {
            Solver::Classic(classic) => classic.set_damping_shift(self.damping_shift),
            Solver::Wave(wave) => {
                wave.set_wave_speed(self.wave_speed)?;
                wave.set_damping(self.damping)
            }
            Solver::Dispersive(dispersive) => {
                dispersive.set_gravity(self.gravity)?;
                dispersive.set_damping(self.damping)
            }
            Solver::Spring(spring) => {
                spring.set_springs(self.stiffness, self.viscosity)?;
                spring.set_spread(self.spread, self.spread_passes)
            }
        }
    }

    /// The look this scene renders with (its `render` mode and `[look]` parameters).
    pub fn full_look(&self) -> Look {
        Look {
            mode: self.render,
            ..self.look
        }
    }

    /// Moves every drop centre, swipe point, body point and float that lies outside a `width x height` pool onto
    /// its nearest edge pixel, and returns one warning per moved coordinate.
    pub fn clip_to_pool(&mut self, width: u32, height: u32) -> Vec<String> {
        let mut warnings = Vec::new();
        let clip = |point: &mut [i32; 2], what: String, warnings: &mut Vec<String>| {
            let clipped = [
                point[0].clamp(0, last_index(width)),
                point[1].clamp(0, last_index(height)),
            ];
            if clipped != *point {
                warnings.push(format!(
                    "{what} at ({}, {}) is outside the {width}x{height} pool; clipped to ({}, {})",
                    point[0], point[1], clipped[0], clipped[1]
                ));
                *point = clipped;
            }
        };
        for (index, drop) in self.drops.iter_mut().enumerate() {
            let mut point = [drop.x, drop.y];
            clip(&mut point, format!("drop #{}", index + 1), &mut warnings);
            [drop.x, drop.y] = point;
        }
        for (index, swipe) in self.swipes.iter_mut().enumerate() {
            for point in &mut swipe.points {
                clip(point, format!("swipe #{} point", index + 1), &mut warnings);
            }
        }
        let (right, bottom) = (last_index(width) as f32, last_index(height) as f32);
        for (index, body) in self.bodies.iter_mut().enumerate() {
            for point in &mut body.points {
                let clipped = [point[0].clamp(0.0, right), point[1].clamp(0.0, bottom)];
                if clipped != *point {
                    warnings.push(format!(
                        "body #{} point at ({}, {}) is outside the {width}x{height} pool; \
                         clipped to ({}, {})",
                        index + 1,
                        point[0],
                        point[1],
                        clipped[0],
                        clipped[1]
                    ));
                    *point = clipped;
                }
            }
        }
        for (index, float) in self.floats.iter_mut().enumerate() {
            let clipped = [float.x.clamp(0.0, right), float.y.clamp(0.0, bottom)];
            if clipped != [float.x, float.y] {
                warnings.push(format!(
                    "float #{} at ({}, {}) is outside the {width}x{height} pool; clipped to ({}, {})",
                    index + 1,
                    float.x,
                    float.y,
                    clipped[0],
                    clipped[1]
                ));
                [float.x, float.y] = clipped;
            }
        }
        warnings
    }

    /// Moves and resizes every event for a pool on which the scene's picture is drawn `scale`
    /// times larger along each axis and shifted by `offset` pixels, so that each stone still
    /// falls on the same spot of the picture (for a pool of another size than the scene's).
    ///
    /// Positions are measured from the top-left corner, pixel `x` covering `x..x + 1`: the
    /// centre of pixel `x` goes to `(x + 0.5) * scale + offset`, and the event lands on the
    /// pixel under that point. Drops, swipe points, body points, floats and sources move; the radii of
    /// drops, swipes, bodies, floats (and their thickness) and rain grow by `sqrt(scale_x * scale_y)` (stones stay round),
    /// rounded, at least 1; a body's speed grows as its path does, so it reaches each point of
    /// the picture at the same frame.
    /// Strengths, timings, periods and the scene's `width` and `height` stay as they are.
    /// Points may land outside the pool: [`clip_to_pool`](Self::clip_to_pool) then moves them.
    ///
    /// ```
    /// use ripples::{DropEvent, Scene};
    ///
    /// let mut scene = Scene {
    ///     drops: vec![DropEvent { frame: 0, x: 100, y: 50, radius: 6, strength: 128 }],
    ///     ..Scene::default()
    /// };
    /// // A 400x300 scene on a 1280x720 pool, cropped to fill it: 3.2 times larger, the top
    /// // and bottom 120 pixels cut off.
    /// scene.rescale([3.2, 3.2], [0.0, -120.0])?;
    /// assert_eq!((scene.drops[0].x, scene.drops[0].y, scene.drops[0].radius), (321, 41, 19));
    /// # Ok::<(), ripples::Error>(())
    /// ```
    pub fn rescale(&mut self, scale: [f64; 2], offset: [f64; 2]) -> Result<(), Error> {
        if scale.iter().any(|s| !s.is_finite() || *s <= 0.0) {
            return Err(Error::Invalid(format!(
                "scene scale must be finite and positive, got {}x{}",
                scale[0], scale[1]
            )));
        }
        if offset.iter().any(|o| !o.is_finite()) {
            return Err(Error::Invalid(format!(
                "scene offset must be finite, got ({}, {})",
                offset[0], offset[1]
            )));
        }
        // `as` saturates: a point thrown far off the pool stays far off, for clipping.
        let axis = |value: i32, axis: usize| {
            ((f64::from(value) + 0.5) * scale[axis] + offset[axis]).floor() as i32
        };
        let point = |[x, y]: [i32; 2]| [axis(x, 0), axis(y, 1)];
        let radius_scale = (scale[0] * scale[1]).sqrt();
        let radius = |radius: u32| {
            (f64::from(radius) * radius_scale)
                .round()
                .clamp(1.0, f64::from(crate::limits::MAX_RADIUS)) as u32
        };
        for drop in &mut self.drops {
            [drop.x, drop.y] = point([drop.x, drop.y]);
            drop.radius = radius(drop.radius);
        }
        for swipe in &mut self.swipes {
            for position in &mut swipe.points {
                *position = point(*position);
            }
            swipe.radius = radius(swipe.radius);
        }
        for source in &mut self.sources {
            let coordinates = [
                (&mut source.x, 0),
                (&mut source.y, 1),
                (&mut source.x0, 0),
                (&mut source.y0, 1),
                (&mut source.x1, 0),
                (&mut source.y1, 1),
            ];
            for (coordinate, index) in coordinates {
                if let Some(value) = coordinate {
                    *value = axis(*value, index);
                }
            }
        }
        for body in &mut self.bodies {
            let before = path_length(&body.points);
            for [x, y] in &mut body.points {
                *x = ((f64::from(*x) + 0.5) * scale[0] + offset[0] - 0.5) as f32;
                *y = ((f64::from(*y) + 0.5) * scale[1] + offset[1] - 0.5) as f32;
            }
            let after = path_length(&body.points);
            let growth = if before > 0.0 {
                after / before
            } else {
                radius_scale
            };
            body.speed = (f64::from(body.speed) * growth) as f32;
            body.radius = radius(body.radius);
        }
        for float in &mut self.floats {
            float.x = ((f64::from(float.x) + 0.5) * scale[0] + offset[0] - 0.5) as f32;
            float.y = ((f64::from(float.y) + 0.5) * scale[1] + offset[1] - 0.5) as f32;
            float.radius = radius(float.radius);
            float.thickness = float
                .thickness
                .map(|t| (f64::from(t) * radius_scale).min(4096.0) as f32);
        }
        if let Some(rain) = &mut self.rain {
            rain.radius = rain.radius.map(radius);
        }
        Ok(())
    }
}

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
            let context = |error: Error| Error::Invalid(format!("body #{}: {error}", index + 1));
            event.check_inside(width, height).map_err(context)?;
            pool.add_body(event.body(scene.steps_per_frame).map_err(context)?)?;
        }
        for (index, event) in scene.floats.iter().enumerate() {
            let context = |error: Error| Error::Invalid(format!("float #{}: {error}", index + 1));
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

    /// Draws the scene's float number `index` (from 0, in the order of the scene's `[[float]]`
    /// tables) with `image`, from when it is put on the water; an index the scene does not have
    /// is an [`Error`].
    pub fn set_float_image(&mut self, index: usize, image: Arc<FloatImage>) -> Result<(), Error> {
        let count = self.float_images.len();
        let slot = self.float_images.get_mut(index).ok_or_else(|| {
            Error::Invalid(format!(
                "float #{} does not exist: the scene has {count} floats",
                index + 1
            ))
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
                let (width, height) = (self.pool.width(), self.pool.height());
                for stone in rain.stones(width, height) {
                    self.pool
                        .press_stone(stone.x, stone.y, stone.radius, stone.strength);
                }
            }
        }
    }

    /// Renders the current water over `src` into `dst` (RGBA bytes) with the scene's look.
    pub fn render(&mut self, src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
        self.pool.render(&self.look, src, dst)
    }
}

/// The length of a polyline, in pixels.
fn path_length(points: &[[f32; 2]]) -> f64 {
    points
        .windows(2)
        .map(|pair| f64::from(pair[1][0] - pair[0][0]).hypot(f64::from(pair[1][1] - pair[0][1])))
        .sum()
}

/// The last pixel along a side of `side` pixels as an `i32` (0 for an empty side, and at most
/// `i32::MAX - 1`), for clamping.
fn last_index(side: u32) -> i32 {
    i32::try_from(side)
        .unwrap_or(i32::MAX)
        .saturating_sub(1)
        .max(0)
}

/// The part of a polyline between fractions `from` and `to` of its length, rounded to pixels,
/// written into `out`. Consecutive portions share their end points, so stamping them one after
/// the other draws the whole line without gaps.
fn polyline_portion(points: &[[i32; 2]], from: f64, to: f64, out: &mut Vec<[i32; 2]>) {
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

/// Deserializers that check each value as it is read, so errors carry the value's position.
#[cfg(feature = "serde")]
mod de {
    use serde::de::{Deserialize, Deserializer, Error as _};

    fn checked<'de, D, T, R>(
        deserializer: D,
        check: impl FnOnce(T) -> Result<R, crate::Error>,
    ) -> Result<R, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        let value = T::deserialize(deserializer)?;
        check(value).map_err(D::Error::custom)
    }

    pub fn frames<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        checked(d, crate::limits::check_frames)
    }

    pub fn fps<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        checked(d, crate::limits::check_fps)
    }

    pub fn side<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        checked(d, |side: i64| {
            crate::limits::check_side("size", side).map(Some)
        })
    }

    pub fn damping_shift<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        checked(d, crate::limits::check_damping_shift)
    }

    pub fn sim_scale<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        checked(d, crate::limits::check_sim_scale)
    }

    pub fn steps_per_frame<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        checked(d, crate::limits::check_steps_per_frame)
    }

    pub fn radius<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        checked(d, crate::limits::check_radius)
    }

    pub fn strength<'de, D: Deserializer<'de>>(d: D) -> Result<i16, D::Error> {
        checked(d, crate::limits::check_strength)
    }

    pub fn speed<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        checked(d, crate::body::check_speed)
    }

    pub fn body_points<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<[f32; 2]>, D::Error> {
        checked(d, |points: Vec<[f32; 2]>| {
            if points.is_empty() {
                return Err(crate::Error::Invalid(
                    "points must hold at least one [x, y]".into(),
                ));
            }
            match points
                .iter()
                .find(|[x, y]| !(x.is_finite() && y.is_finite()))
            {
                Some([x, y]) => Err(crate::Error::Invalid(format!(
                    "points must be finite, got [{x}, {y}]"
                ))),
                None => Ok(points),
            }
        })
    }

    pub fn coordinate<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        checked(d, |value: f32| {
            if value.is_finite() {
                Ok(value)
            } else {
                Err(crate::Error::Invalid(format!(
                    "coordinate must be finite, got {value}"
                )))
            }
        })
    }

    pub fn density<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        checked(d, crate::float::check_density)
    }

    pub fn thickness<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
        checked(d, |thickness: f32| {
            crate::float::check_thickness(thickness).map(Some)
        })
    }

    pub fn float_radius() -> u32 {
        super::FloatEvent::DEFAULT_RADIUS
    }

    pub fn float_density() -> f32 {
        super::FloatEvent::DEFAULT_DENSITY
    }

    pub fn body_speed() -> f32 {
        super::BodyEvent::DEFAULT_SPEED
    }

    pub fn body_radius() -> u32 {
        super::BodyEvent::DEFAULT_RADIUS
    }

    pub fn body_strength() -> i16 {
        super::BodyEvent::DEFAULT_STRENGTH
    }

    pub fn drop_radius() -> u32 {
        super::DropEvent::DEFAULT_RADIUS
    }

    pub fn drop_strength() -> i16 {
        super::DropEvent::DEFAULT_STRENGTH
    }

    pub fn swipe_radius() -> u32 {
        super::SwipeEvent::DEFAULT_RADIUS
    }

    pub fn swipe_strength() -> i16 {
        super::SwipeEvent::DEFAULT_STRENGTH
    }

    pub fn duration() -> u32 {
        1
    }

    pub fn period() -> f32 {
        super::SourceEvent::DEFAULT_PERIOD
    }

    pub fn amplitude() -> f32 {
        super::SourceEvent::DEFAULT_AMPLITUDE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polyline_portions_tile_the_whole_line() {
        let points = [[0, 0], [30, 0], [30, 40]];
        let mut out = Vec::new();
        let mut previous_end = None;
        for part in 0..7 {
            polyline_portion(
                &points,
                part as f64 / 7.0,
                (part + 1) as f64 / 7.0,
                &mut out,
            );
            assert!(out.len() >= 2, "part {part}: {out:?}");
            if let Some(end) = previous_end {
                assert_eq!(out[0], end, "part {part} starts where the last ended");
            }
            previous_end = out.last().copied();
        }
        assert_eq!(previous_end, Some([30, 40]));
        polyline_portion(&points, 0.0, 1.0, &mut out);
        assert_eq!(out, vec![[0, 0], [30, 0], [30, 40]]);
    }

    #[test]
    fn clipping_moves_points_and_warns() {
        let mut scene = Scene {
            drops: vec![
                DropEvent {
                    frame: 0,
                    x: 500,
                    y: -3,
                    radius: 6,
                    strength: 10,
                },
                DropEvent {
                    frame: 0,
                    x: 5,
                    y: 5,
                    radius: 6,
                    strength: 10,
                },
            ],
            ..Scene::default()
        };
        let warnings = scene.clip_to_pool(320, 240);
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].contains("(500, -3)") && warnings[0].contains("(319, 0)"),
            "{warnings:?}"
        );
        assert_eq!((scene.drops[0].x, scene.drops[0].y), (319, 0));
        assert_eq!((scene.drops[1].x, scene.drops[1].y), (5, 5));
    }

    #[test]
    fn rescaling_moves_every_event_to_the_same_spot_of_a_larger_picture() {
        let mut scene = Scene {
            drops: vec![DropEvent {
                frame: 3,
                x: 10,
                y: 20,
                radius: 6,
                strength: 90,
            }],
            swipes: vec![SwipeEvent {
                frame: 0,
                duration: 4,
                points: vec![[0, 0], [39, 29]],
                radius: 3,
                strength: 40,
            }],
            sources: vec![SourceEvent {
                x: None,
                y: None,
                x0: Some(5),
                y0: Some(0),
                x1: Some(5),
                y1: Some(29),
                period: 16.0,
                amplitude: 40.0,
                start: 0,
                end: None,
            }],
            rain: Some(RainSpec {
                radius: [1, 4],
                ..RainSpec::default()
            }),
            ..Scene::default()
        };
        // A 40x30 scene drawn twice as large and shifted 10 pixels up (cropped to 80x40).
        scene.rescale([2.0, 2.0], [0.0, -10.0]).unwrap();
        let drop = scene.drops[0];
        assert_eq!(
            (drop.x, drop.y, drop.radius, drop.strength, drop.frame),
            (21, 31, 12, 90, 3)
        );
        // Corner pixels stay corner pixels of the scaled picture.
        assert_eq!(scene.swipes[0].points, vec![[1, -9], [79, 49]]);
        assert_eq!(scene.swipes[0].radius, 6);
        let source = scene.sources[0];
        assert_eq!(
            (source.x0, source.y0, source.x1, source.y1),
            (Some(11), Some(-9), Some(11), Some(49))
        );
        assert_eq!(scene.rain.unwrap().radius, [2, 8]);
        // Stretched: radii by the geometric mean, at least 1.
        scene.rescale([0.01, 0.04], [0.0, 0.0]).unwrap();
        assert_eq!(scene.drops[0].radius, 1);
        assert!(scene.rescale([f64::NAN, 1.0], [0.0, 0.0]).is_err());
        assert!(scene.rescale([1.0, 0.0], [0.0, 0.0]).is_err());
        assert!(scene.rescale([1.0, 1.0], [f64::INFINITY, 0.0]).is_err());
    }

    #[test]
    fn validation_names_the_bad_value() {
        let bad_radius = Scene {
            drops: vec![DropEvent {
                frame: 0,
                x: 1,
                y: 1,
                radius: 0,
                strength: 10,
            }],
            ..Scene::default()
        };
        let message = bad_radius.validate().unwrap_err().to_string();
        assert_eq!(message, "drop #1: radius must be >= 1, got 0");
        let bad_rain = Scene {
            rain: Some(RainSpec {
                radius: [5, 2],
                ..RainSpec::default()
            }),
            ..Scene::default()
        };
        let message = bad_rain.validate().unwrap_err().to_string();
        assert!(
            message.starts_with("rain: ") && message.contains("got 2"),
            "{message}"
        );
    }

    #[test]
    fn float_validation_names_the_float_and_the_value_and_floats_start_on_time() {
        let float = FloatEvent {
            x: 20.0,
            y: 15.0,
            radius: 4,
            density: 0.5,
            thickness: None,
            image: None,
            start: 2,
        };
        let with = |change: fn(&mut FloatEvent)| {
            let mut second = float.clone();
            change(&mut second);
            Scene {
                width: Some(40),
                height: Some(30),
                floats: vec![float.clone(), second],
                ..Scene::default()
            }
            .validate()
            .unwrap_err()
            .to_string()
        };
        assert_eq!(
            with(|f| f.density = 0.0),
            "float #2: float density must be a number from 0.001 up to but not including 1 (water is 1, air about 0.0012), got 0"
        );
        assert_eq!(
            with(|f| f.x = 40.0),
            "float #2: centre (40, 15) is outside the 40x30 pool"
        );
        assert_eq!(
            with(|f| f.radius = 0),
            "float #2: radius must be >= 1, got 0"
        );
        let scene = Scene {
            frames: 4,
            floats: vec![float.clone()],
            ..Scene::default()
        };
        let mut runner = SceneRunner::new(scene, 40, 30).unwrap();
        let image = Arc::new(FloatImage::new(1, 1, vec![255; 4]).unwrap());
        assert!(runner.set_float_image(1, Arc::clone(&image)).is_err());
        runner.set_float_image(0, image).unwrap();
        runner.advance();
        runner.advance();
        assert_eq!(runner.pool().float_count(), 0, "before its start frame");
        runner.advance();
        assert_eq!(runner.pool().float_count(), 1);
        assert!(runner.pool().floats().all(|f| f.image().is_some()));
    }

    #[test]
    fn body_validation_names_the_body_and_the_value() {
        let body = BodyEvent {
            points: vec![[10.0, 10.0], [50.0, 10.0]],
            speed: 1.0,
            radius: 6,
            strength: 40,
            start: 0,
        };
        let with = |change: fn(&mut BodyEvent)| {
            let mut scene = Scene {
                width: Some(40),
                height: Some(30),
                bodies: vec![body.clone(), body.clone()],
                ..Scene::default()
            };
            change(&mut scene.bodies[1]);
            scene.validate().unwrap_err().to_string()
        };
        assert_eq!(
            with(|_| ()),
            "body #1: point [50, 10] is outside the 40x30 pool"
        );
        let with = |change: fn(&mut BodyEvent)| {
            let mut scene = Scene {
                bodies: vec![body.clone(), body.clone()],
                ..Scene::default()
            };
            change(&mut scene.bodies[1]);
            scene.validate().unwrap_err().to_string()
        };
        assert_eq!(
            with(|b| b.speed = 0.0),
            "body #2: speed must be a finite number > 0, got 0"
        );
        assert_eq!(
            with(|b| b.speed = f32::NAN),
            "body #2: speed must be a finite number > 0, got NaN"
        );
        assert_eq!(
            with(|b| b.radius = 5000),
            "body #2: radius must be <= 4096, got 5000"
        );
        assert_eq!(
            with(|b| b.points.clear()),
            "body #2: points must hold at least one [x, y]"
        );
        assert_eq!(
            with(|b| b.points[0] = [f32::INFINITY, 1.0]),
            "body #2: points must be finite, got [inf, 1]"
        );
    }

    #[test]
    fn rescaling_keeps_a_body_on_its_spot_and_on_time() {
        let mut scene = Scene {
            bodies: vec![BodyEvent {
                points: vec![[10.0, 20.0], [30.0, 20.0]],
                speed: 2.0,
                radius: 4,
                strength: 40,
                start: 3,
            }],
            ..Scene::default()
        };
        scene.rescale([2.0, 2.0], [0.0, -10.0]).unwrap();
        let body = &scene.bodies[0];
        // Pixel centres: 10.5 -> 21 (pixel 20.5), 20.5 -> 31 (pixel 30.5).
        assert_eq!(body.points, vec![[20.5, 30.5], [60.5, 30.5]]);
        assert_eq!((body.speed, body.radius, body.start), (4.0, 8, 3));
        let warnings = scene.clip_to_pool(50, 40);
        assert_eq!(body_points(&scene), vec![[20.5, 30.5], [49.0, 30.5]]);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].starts_with("body #1 point at (60.5, 30.5)"));
    }

    fn body_points(scene: &Scene) -> Vec<[f32; 2]> {
        scene.bodies[0].points.clone()
    }
}
