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
//! A scene holds no file names: the core knows nothing of files. The pictures a scene file names
//! (the picture under the water, walls, a water mask, a sky, the spring maps, the floats'
//! pictures) and a starting height field are the front end's to read; it hands them to the pool
//! and the runner decoded ([`crate::Pool::set_obstacle_mask`], [`SceneRunner::set_water`],
//! [`crate::Pool::set_sky`], [`crate::Pool::set_heights`], [`SceneRunner::set_float_image`], the
//! spring solver's maps).
//!
//! Frame semantics: for frame `t`, the events scheduled at `t` are applied, then
//! `steps_per_frame` steps run, then the frame is rendered. The last frame of an animation of
//! `frames` frames shows the field after `frames * steps_per_frame` steps.
//!
//! The parts: this file holds the [`Scene`] and its checks; `events.rs` the events it schedules
//! (drops, swipes, bodies, floats, rain, wave sources); `runner.rs` the [`SceneRunner`];
//! `de.rs` the checking deserializers (with `serde`).

use crate::error::Error;
use crate::limits::{
    check_damping_shift, check_fps, check_frames, check_radius, check_side, check_sim_scale,
    check_size, check_steps_per_frame, check_strength,
};
use crate::looks::{Look, LookSettings, RenderMode};
use crate::photo::look::PhotoLook;
use crate::photo::perspective::Perspective;
use crate::simulation::boundary::Boundary;
use crate::simulation::classic::ClassicSolver;
use crate::simulation::dispersive::DispersiveSolver;
use crate::simulation::solver::{Solver, SolverKind};
use crate::simulation::spring::SpringSolver;
use crate::simulation::wave::WaveSolver;

#[cfg(feature = "serde")]
mod de;
mod events;
mod runner;
#[cfg(test)]
mod tests;

pub use events::{BodyEvent, DropEvent, FloatEvent, RainSpec, SourceEvent, SwipeEvent};
pub use runner::SceneRunner;

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
    /// The look.
    pub render: RenderMode,
    /// Pixels per simulation cell, `1..=16`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::sim_scale"))]
    pub sim_scale: u32,
    /// Solver steps per frame, `1..=1000`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::steps_per_frame"))]
    pub steps_per_frame: u32,
    /// Every look's numbers (`[look]` in a scene file, one flat table); `render` says which
    /// look shows them ([`look`](Self::look)).
    pub look: LookSettings,
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
    /// The picture row of the water plane's horizon: the water is seen in perspective (see
    /// [`crate::Perspective`]); `None` for water seen from above.
    pub horizon: Option<f32>,
    /// The camera's focal length in pixels, with `horizon` [default: a 60-degree horizontal
    /// field of view].
    pub focal: Option<f32>,
    /// How the photo look draws water in perspective (`[photo]`).
    pub photo: PhotoLook,
    /// Wave solver: speed in cells per step, `(0, 4]`.
    pub wave_speed: f32,
    /// Wave and dispersive solvers: fraction of amplitude lost per step, `[0, 1)`.
    pub damping: f32,
    /// Dispersive solver: gravity in cells per step², `(0, 0.5]`; a wave of wavelength
    /// `lambda` cells turns at `sqrt(gravity * 2 pi / lambda)` radians per step.
    pub gravity: f32,
    /// Spring solver: uniform stiffness (ignored where a stiffness map is set).
    pub stiffness: f32,
    /// Spring solver: uniform viscosity (ignored where a viscosity map is set).
    pub viscosity: f32,
    /// Stiffness for black and white pixels of a stiffness map
    /// ([`crate::map_from_grey`] turns a greyscale picture into the map).
    pub stiffness_range: [f32; 2],
    /// Viscosity for black and white pixels of a viscosity map.
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
            render: RenderMode::Natural,
            sim_scale: 1,
            steps_per_frame: 1,
            look: LookSettings::default(),
            drops: Vec::new(),
            swipes: Vec::new(),
            bodies: Vec::new(),
            floats: Vec::new(),
            rain: None,
            sources: Vec::new(),
            boundary: Boundary::Reflect,
            horizon: None,
            focal: None,
            photo: PhotoLook::default(),
            wave_speed: WaveSolver::DEFAULT_WAVE_SPEED,
            damping: WaveSolver::DEFAULT_DAMPING,
            gravity: DispersiveSolver::DEFAULT_GRAVITY,
            stiffness: SpringSolver::DEFAULT_STIFFNESS,
            viscosity: SpringSolver::DEFAULT_VISCOSITY,
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

impl Scene {
    /// Checks every field and the relations between them, naming the first problem.
    pub fn validate(&self) -> Result<(), Error> {
        check_frames(i64::from(self.frames))?;
        self.photo
            .validate()
            .map_err(|error| error.in_context("photo"))?;
        if let Some(horizon) = self.horizon
            && !horizon.is_finite()
        {
            return Err(Error::not_allowed("horizon", horizon, "a finite row"));
        }
        if let Some(focal) = self.focal {
            if self.horizon.is_none() {
                return Err(Error::FocalWithoutHorizon { focal });
            }
            if !focal.is_finite() || focal <= 0.0 {
                return Err(Error::not_allowed(
                    "focal length",
                    focal,
                    "a positive number of pixels",
                ));
            }
        }
        if self.horizon.is_some() && !(self.bodies.is_empty() && self.floats.is_empty()) {
            return Err(Error::NoPerspective {
                what: "bodies and floats",
                advice: "a scene with a horizon takes none",
            });
        }
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
            let context = |error: Error| error.in_context(format!("drop #{}", index + 1));
            check_radius(i64::from(drop.radius)).map_err(context)?;
            check_strength(i64::from(drop.strength)).map_err(context)?;
        }
        for (index, swipe) in self.swipes.iter().enumerate() {
            let context = |error: Error| error.in_context(format!("swipe #{}", index + 1));
            check_radius(i64::from(swipe.radius)).map_err(context)?;
            check_strength(i64::from(swipe.strength)).map_err(context)?;
            if swipe.points.is_empty() {
                return Err(context(Error::EmptyPath));
            }
        }
        for (index, body) in self.bodies.iter().enumerate() {
            let context = |error: Error| error.in_context(format!("body #{}", index + 1));
            body.body(self.steps_per_frame).map_err(context)?;
            if let (Some(width), Some(height)) = (self.width, self.height) {
                body.check_inside(width, height).map_err(context)?;
            }
        }
        for (index, float) in self.floats.iter().enumerate() {
            let context = |error: Error| error.in_context(format!("float #{}", index + 1));
            float.float().map_err(context)?;
            if let (Some(width), Some(height)) = (self.width, self.height) {
                float.check_inside(width, height).map_err(context)?;
            }
        }
        for (index, source) in self.sources.iter().enumerate() {
            source
                .check()
                .map_err(|error| error.in_context(format!("source #{}", index + 1)))?;
        }
        self.check_solver_parameters()?;
        if let Some(rain) = &self.rain {
            let context = |error: Error| error.in_context("rain");
            rain.generator(self.seed).map_err(context)?;
            if let Some(end) = rain.end
                && end < rain.start
            {
                return Err(context(Error::EndBeforeStart {
                    start: rain.start.into(),
                    end: end.into(),
                }));
            }
        }
        Ok(())
    }

    /// Checks the parameters of every solver by configuring a tiny one of each kind.
    fn check_solver_parameters(&self) -> Result<(), Error> {
        for kind in SolverKind::ALL {
            self.configure_solver(&mut Solver::new(kind, 3, 3)?)?;
        }
        let ranges = [
            ("stiffness_range", self.stiffness_range),
            ("viscosity_range", self.viscosity_range),
        ];
        for (name, [low, high]) in ranges {
            if low.is_nan() || high.is_nan() || low > high {
                return Err(Error::RangeOrder { name, low, high });
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

    /// The camera this scene's water is seen by, if it has a horizon.
    pub fn perspective(&self) -> Option<Perspective> {
        self.horizon.map(|horizon| Perspective {
            horizon,
            focal: self.focal,
        })
    }

    /// The look this scene renders with: its `render` look, with that look's `[look]` numbers.
    pub fn full_look(&self) -> Look {
        self.look.look(self.render)
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
            return Err(Error::SceneScale { scale });
        }
        if offset.iter().any(|o| !o.is_finite()) {
            return Err(Error::NotFinitePosition {
                name: "scene offset",
                x: offset[0].into(),
                y: offset[1].into(),
            });
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
