//! The water being played with, apart from any window.
//!
//! A [`Session`] is the pool, the picture, the rain and the settings the keys change, with an
//! `update` ([`tick`](Session::tick)) separate from the drawing ([`render`](Session::render)),
//! the way the `pixels` examples keep their simulations. The window owns one and forwards
//! commands and gestures to it; tests drive one directly, without a display, and check what a
//! user would see.
//!
//! Walls hold no water, so the renderer would show the picture unchanged under them; the
//! session keeps a copy of the picture with the walls painted as stone and repaints only the
//! rectangle a stroke touched. Rain is the session's rather than the scene's, so `R` can turn
//! it on and off at any time.

use std::collections::VecDeque;

use anyhow::Result;
use ripples::{
    Body, BodyId, Boundary, Float, FloatId, Heights, Look, LookSettings, Rain, RenderMode,
    SceneRunner, SolverKind,
};

use super::input::{Command, Gesture};
use crate::cli::setup::{Water, set_spring_maps};

/// Stone strengths `+` and `-` step through.
const STRENGTHS: [i16; 13] = [16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024];
/// Stone radii `]` and `[` step through, in pixels.
const RADII: [u32; 16] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64];
/// Default rain: stones per megapixel per second (the README's light rain).
const RAIN_DENSITY: f64 = 150.0;

/// The most floats Shift+click keeps on the water (each costs a little every step).
const MAX_FLOATS: usize = 64;

/// The stone a click drops; swipes and walls are derived from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Brush {
    /// Stone radius in pixels.
    pub radius: u32,
    /// Stone strength.
    pub strength: i16,
}

impl Default for Brush {
    fn default() -> Self {
        Self {
            radius: ripples::DropEvent::DEFAULT_RADIUS,
            strength: ripples::DropEvent::DEFAULT_STRENGTH,
        }
    }
}

impl Brush {
    /// A swipe stamps smaller, weaker stones than a click: half the radius and 5/16 of the
    /// strength (the library's swipe defaults, 3 and 40, for the default brush).
    pub fn swipe(&self) -> (u32, i16) {
        let strength = (i32::from(self.strength) * 5 / 16).max(1) as i16;
        ((self.radius / 2).max(1), strength)
    }

    /// Walls are painted with the stone's radius, at least 2 pixels.
    pub fn wall_radius(&self) -> u32 {
        self.radius.max(2)
    }
}

/// The next value after `value` in `steps` (or the previous one, with `up` false), staying at
/// the ends.
fn step_through<T: Copy + PartialOrd>(steps: &[T], value: T, up: bool) -> T {
    if up {
        steps.iter().copied().find(|&s| s > value)
    } else {
        steps.iter().rev().copied().find(|&s| s < value)
    }
    .unwrap_or(value)
}

/// The default rain for a `width x height` pool stepped `rate` frames per second: the same
/// density whatever the size and the rate.
pub fn default_rain(seed: u64, width: u32, height: u32, rate: f64) -> Result<Rain> {
    let megapixels = f64::from(width) * f64::from(height) / 1e6;
    let per_frame = (RAIN_DENSITY * megapixels / rate).clamp(0.01, ripples::limits::MAX_RAIN_RATE);
    Ok(Rain::new(seed)
        .with_rate(per_frame)?
        .with_radius(1, 3)?
        .with_strength(48, 128)?)
}

/// Largest height (the solvers' units) that counts as calm water for [`Session::calm`]: the
/// core's rule, the same as the page's, below what any look shows.
pub const CALM_TOLERANCE: f32 = ripples::SleepWhenCalm::DEFAULT.tolerance;

/// The water, the picture and the settings.
#[derive(Debug)]
pub struct Session {
    runner: SceneRunner,
    /// The picture, `0RGB` (the pool draws the walls over it).
    picture: Vec<u32>,
    rain: Rain,
    raining: bool,
    /// The look shown, which `L` cycles through [`RenderMode::ALL`].
    look_kind: RenderMode,
    /// Every look's numbers (the scene's and the command's), kept across `L`.
    looks: LookSettings,
    brush: Brush,
    paused: bool,
    help: bool,
    stiffness_map: Option<Vec<f32>>,
    viscosity_map: Option<Vec<f32>>,
    /// The body following a left drag, while one is under way and the water runs.
    finger: Option<BodyId>,
    /// The floats put on the water with Shift+click, oldest first.
    floats: VecDeque<FloatId>,
}

/// What the title and the overlay say about the session.
#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    /// Pool size in pixels.
    pub size: (u32, u32),
    /// Simulation grid size in cells.
    pub grid: (u32, u32),
    /// The solver.
    pub solver: SolverKind,
    /// Rain on.
    pub raining: bool,
    /// Paused.
    pub paused: bool,
}

impl Status {
    /// The window title, with the frame rate when known.
    pub fn title(&self, fps: Option<f64>) -> String {
        let mut title = String::from("Ripples");
        if let Some(fps) = fps {
            title += &format!(" - {fps:.0} fps");
        }
        title += &format!(" - {}x{}", self.size.0, self.size.1);
        if self.grid != self.size {
            title += &format!(" (grid {}x{})", self.grid.0, self.grid.1);
        }
        title += &format!(
            " - {} - rain {}",
            self.solver.name(),
            if self.raining { "on" } else { "off" }
        );
        if self.paused {
            title += " - paused";
        }
        title + " - H: help"
    }
}

impl Session {
    /// A session over `water`, with `rain` falling from the start when `raining`.
    pub fn new(water: Water, rain: Rain, raining: bool) -> Self {
        let picture: Vec<u32> = water
            .image
            .pixels
            .chunks_exact(4)
            .map(|p| u32::from_le_bytes([p[2], p[1], p[0], 0]))
            .collect();
        let scene = water.runner.scene();
        let (look_kind, looks) = (scene.render, scene.look);
        Self {
            picture,
            runner: water.runner,
            rain,
            raining,
            look_kind,
            looks,
            brush: Brush::default(),
            paused: false,
            help: false,
            stiffness_map: water.stiffness_map,
            viscosity_map: water.viscosity_map,
            finger: None,
            floats: VecDeque::new(),
        }
    }

    /// The look shown, with the numbers kept for it.
    pub fn look(&self) -> Look {
        self.looks.look(self.look_kind)
    }

    /// Pool size in pixels.
    pub fn size(&self) -> (u32, u32) {
        let pool = self.runner.pool();
        (pool.width(), pool.height())
    }

    /// The settings a new session over another picture keeps: solver, boundary, look, brush,
    /// rain, pause and help.
    pub fn carry_settings_to(&self, next: &mut Session) -> Result<()> {
        next.set_solver(self.runner.pool().solver().kind())?;
        next.runner
            .pool_mut()
            .set_boundary(self.runner.pool().boundary());
        (next.look_kind, next.looks) = (self.look_kind, self.looks);
        next.brush = self.brush;
        next.raining = self.raining;
        next.paused = self.paused;
        next.help = self.help;
        Ok(())
    }

    /// One frame of the simulation: the rain's stones, then the scene's frame (its events and
    /// its steps).
    pub fn tick(&mut self) -> Result<()> {
        if self.raining {
            // Over the water plane in perspective, so rain falls evenly on it.
            let pool = self.runner.pool_mut();
            let (width, height) = pool.rain_area();
            for stone in self.rain.stones(width, height) {
                pool.drop_rain(stone)?;
            }
        }
        self.runner.advance();
        Ok(())
    }

    /// Puts a new picture under the water (a video's next frame): RGBA bytes at the pool's
    /// size, converted in place into the session's `0RGB` copy, so it allocates nothing.
    pub fn set_picture(&mut self, rgba: &[u8]) -> Result<()> {
        if rgba.len() != self.picture.len() * 4 {
            anyhow::bail!(
                "internal error: a picture of {} bytes for a pool of {} pixels",
                rgba.len(),
                self.picture.len()
            );
        }
        for (pixel, rgba) in self.picture.iter_mut().zip(rgba.chunks_exact(4)) {
            *pixel = u32::from_le_bytes([rgba[2], rgba[1], rgba[0], 0]);
        }
        Ok(())
    }

    /// Renders the water over the picture into `dst` (`0RGB`, pool-sized).
    pub fn render(&mut self, dst: &mut [u32]) -> Result<()> {
        let look = self.look();
        self.runner
            .pool_mut()
            .render_u32(&look, &self.picture, dst)?;
        Ok(())
    }

    /// What the pointer did.
    pub fn gesture(&mut self, gesture: Gesture) -> Result<()> {
        let (width, height) = self.size();
        let bound = |[x, y]: [i32; 2]| bound_point([x, y], width, height);
        match gesture {
            Gesture::Stone(at) => {
                let [x, y] = bound(at);
                let Brush { radius, strength } = self.brush;
                self.runner.pool_mut().drop_stone(x, y, radius, strength)?;
            }
            Gesture::Float(at) if self.runner.pool().in_perspective() => {
                // Floats do not follow a perspective yet: a stone where the pointer is.
                let [x, y] = bound(at);
                let Brush { radius, strength } = self.brush;
                self.runner.pool_mut().drop_stone(x, y, radius, strength)?;
            }
            Gesture::Float(at) => {
                let [x, y] = bound(at);
                // A buoy half again as wide as a stone, at least 4 pixels; the oldest makes way
                // beyond MAX_FLOATS.
                let radius = (self.brush.radius * 3 / 2).max(4);
                let float = Float::new(x as f32, y as f32, radius, 0.5)?;
                let pool = self.runner.pool_mut();
                if self.floats.len() >= MAX_FLOATS
                    && let Some(oldest) = self.floats.pop_front()
                {
                    pool.remove_float(oldest);
                }
                self.floats.push_back(pool.add_float(float)?);
            }
            Gesture::Swipe(from, to) if self.paused || self.runner.pool().in_perspective() => {
                // Paused water cannot carry a wake, nor can water in perspective (bodies do
                // not follow one yet): the drag stamps its trail, as a swipe.
                let (radius, strength) = self.brush.swipe();
                self.runner
                    .pool_mut()
                    .swipe(&[bound(from), bound(to)], radius, strength)?;
            }
            Gesture::Swipe(from, to) => self.drag_finger(bound(from), bound(to))?,
            Gesture::Lift => {
                if let Some(finger) = self.finger.take() {
                    self.runner.pool_mut().remove_body(finger);
                }
            }
            Gesture::Walls { from, to, erase } => {
                let (from, to) = (bound(from), bound(to));
                let radius = self.brush.wall_radius();
                let pool = self.runner.pool_mut();
                let mut painted = Ok(());
                for_each_point_on_line(from, to, |x, y| {
                    if painted.is_ok() {
                        painted = pool.paint_wall(x, y, radius, !erase);
                    }
                });
                painted?;
            }
        }
        Ok(())
    }

    /// Moves the body that follows a drag to `to`, putting one in the water at `from` first if
    /// none is (the drag just began, or the pool was made anew under it). A fingertip body
    /// (see [`Body::fingertip`]), so a fast drag leaves as strong a wake as a slow one; the
    /// brush's swipe radius and strength.
    fn drag_finger(&mut self, from: [i32; 2], to: [i32; 2]) -> Result<()> {
        let pool = self.runner.pool_mut();
        let (x, y) = (to[0] as f32, to[1] as f32);
        let moved = self
            .finger
            .is_some_and(|finger| pool.set_body_position(finger, x, y).is_ok());
        if !moved {
            let (radius, strength) = self.brush.swipe();
            let finger = pool.add_body(Body::fingertip(
                from[0] as f32,
                from[1] as f32,
                radius,
                strength,
            )?)?;
            pool.set_body_position(finger, x, y)?;
            self.finger = Some(finger);
        }
        Ok(())
    }

    /// Carries out a key's command; returns a short message for the overlay when the title
    /// does not already say what changed. `Screenshot` and `Quit` are the window's business.
    pub fn command(&mut self, command: Command) -> Result<Option<String>> {
        Ok(match command {
            Command::ToggleRain => {
                self.raining = !self.raining;
                None
            }
            Command::TogglePause => {
                self.paused = !self.paused;
                None
            }
            Command::Calm => {
                self.runner.pool_mut().calm();
                Some("calm water".into())
            }
            Command::ClearWalls => {
                self.runner.pool_mut().obstacles_mut().clear();
                Some("walls cleared".into())
            }
            Command::Solver(kind) => {
                self.set_solver(kind)?;
                Some(format!("{} solver", kind.name()))
            }
            Command::Stronger | Command::Weaker => {
                let up = command == Command::Stronger;
                self.brush.strength = step_through(&STRENGTHS, self.brush.strength, up);
                Some(format!("stone strength {}", self.brush.strength))
            }
            Command::Wider | Command::Narrower => {
                let up = command == Command::Wider;
                self.brush.radius = step_through(&RADII, self.brush.radius, up);
                Some(format!("stone radius {}", self.brush.radius))
            }
            Command::ToggleBoundary => {
                let pool = self.runner.pool_mut();
                let next = match pool.boundary() {
                    Boundary::Reflect => Boundary::Absorb,
                    Boundary::Absorb => Boundary::Reflect,
                };
                pool.set_boundary(next);
                Some(format!("border: {}", boundary_name(next)))
            }
            Command::NextLook => {
                let index = RenderMode::ALL
                    .iter()
                    .position(|&mode| mode == self.look_kind);
                let next = index.map_or(0, |index| (index + 1) % RenderMode::ALL.len());
                self.look_kind = RenderMode::ALL[next];
                Some(format!("look: {}", self.look_kind.name()))
            }
            Command::ToggleHelp => {
                self.help = !self.help;
                None
            }
            Command::Screenshot | Command::Quit => None,
        })
    }

    /// Switches to a calm solver of `kind` with the scene's parameters (and the spring maps);
    /// walls, border and wave generators stay.
    fn set_solver(&mut self, kind: SolverKind) -> Result<()> {
        if self.runner.pool().solver().kind() == kind {
            return Ok(());
        }
        let scene = self.runner.scene().clone();
        let pool = self.runner.pool_mut();
        pool.set_solver(kind)?;
        scene.configure_solver(pool.solver_mut())?;
        set_spring_maps(
            pool.solver_mut(),
            self.stiffness_map.as_deref(),
            self.viscosity_map.as_deref(),
        )
    }

    /// Whether the water is calm and nothing will move it unless the user does: no rain, no
    /// drag under way, nothing the scene still has to do, and every cell within
    /// [`CALM_TOLERANCE`] of rest. The window then sleeps: it steps and redraws only for input,
    /// a resize or an expose.
    pub fn calm(&self) -> bool {
        !self.raining
            && self.finger.is_none()
            && self.runner.is_idle()
            && self.runner.pool().is_calm(CALM_TOLERANCE)
    }

    /// Makes calm water exactly flat, so that the frame shown while the window sleeps is the
    /// picture as still water shows it.
    pub fn settle(&mut self) {
        self.runner.pool_mut().calm();
    }

    /// Whether the water is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether the help is shown.
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// Whether rain falls.
    pub fn raining(&self) -> bool {
        self.raining
    }

    /// The pool's simulation grid, to read heights (tests, `--stats`).
    pub fn heights(&self) -> Heights<'_> {
        self.runner.pool().solver().heights()
    }

    /// What the title says.
    pub fn status(&self) -> Status {
        let pool = self.runner.pool();
        Status {
            size: (pool.width(), pool.height()),
            grid: (pool.solver().width(), pool.solver().height()),
            solver: pool.solver().kind(),
            raining: self.raining,
            paused: self.paused,
        }
    }

    /// The help overlay's lines (at most 38 characters, so they fit a 320-pixel window), with
    /// the frame rate when known.
    pub fn help_lines(&self, fps: Option<f64>) -> Vec<String> {
        let pool = self.runner.pool();
        let Brush { radius, strength } = self.brush;
        let status = self.status();
        let mut measures = match fps {
            Some(fps) => format!("{fps:.0} fps  "),
            None => String::new(),
        };
        measures += &format!("{}x{}", status.size.0, status.size.1);
        if status.grid != status.size {
            measures += &format!(" (grid {}x{})", status.grid.0, status.grid.1);
        }
        vec![
            "RIPPLES: mouse and keys".into(),
            measures,
            "Left click   a stone".into(),
            "Left drag    a wake".into(),
            "Right drag   paint walls".into(),
            "Shift+right  erase walls".into(),
            "Shift+left   a float".into(),
            format!("R      rain ({})", if self.raining { "on" } else { "off" }),
            format!(
                "Space  pause/resume ({})",
                if self.paused { "paused" } else { "running" }
            ),
            "C      calm the water".into(),
            "O      clear the walls".into(),
            format!("1-4    solver ({})", pool.solver().kind().name()),
            "       classic wave spring dispersive".into(),
            format!("+ -    stone strength ({strength})"),
            format!("[ ]    stone radius ({radius})"),
            format!("B      border ({})", boundary_name(pool.boundary())),
            format!("L      look ({})", self.look_kind.name()),
            "S      save a PNG screenshot".into(),
            "H F1   this help".into(),
            "Esc Q  quit".into(),
            "Drop an image file to load it".into(),
        ]
    }
}

fn boundary_name(boundary: Boundary) -> &'static str {
    match boundary {
        Boundary::Reflect => "reflecting",
        Boundary::Absorb => "absorbing",
    }
}

/// Keeps a pointer position within one pool size of the pool on every side: further out it
/// shows nothing anyway, and a line to it would cost time in proportion to its length.
fn bound_point([x, y]: [i32; 2], width: u32, height: u32) -> [i32; 2] {
    let (width, height) = (width as i32, height as i32);
    [
        x.clamp(-width, 2 * width - 1),
        y.clamp(-height, 2 * height - 1),
    ]
}

/// Visits every pixel of the line from `from` to `to`, ends included, with no gaps between
/// neighbours (a DDA in integers).
fn for_each_point_on_line(from: [i32; 2], to: [i32; 2], mut visit: impl FnMut(i32, i32)) {
    let (dx, dy) = (
        i64::from(to[0]) - i64::from(from[0]),
        i64::from(to[1]) - i64::from(from[1]),
    );
    let steps = dx.abs().max(dy.abs());
    if steps == 0 {
        visit(from[0], from[1]);
        return;
    }
    for step in 0..=steps {
        // Rounded to the nearest pixel: floor((2 * d * step + steps) / (2 * steps)).
        let along = |start: i32, delta: i64| {
            (i64::from(start) + (2 * delta * step + steps).div_euclid(2 * steps)) as i32
        };
        visit(along(from[0], dx), along(from[1], dy));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::WaterArgs;
    use crate::cli::setup::WaterPlan;

    const SIZE: (u32, u32) = (96, 64);

    fn session_with(args: &WaterArgs, raining: bool) -> Session {
        let plan = WaterPlan::load(args, None, |_| {}).unwrap();
        let water = plan.build(SIZE.0, SIZE.1).unwrap();
        // Heavier than the default rain, so a few seconds reach every part of a small pool.
        let rain = Rain::new(3).with_rate(2.0).unwrap();
        Session::new(water, rain, raining)
    }

    /// A session over the tests' 96x64 pool, with stones of radius 6 (the default, 20, is
    /// made for pools ten times as wide).
    fn session() -> Session {
        let mut session = session_with(&WaterArgs::default(), false);
        session.brush.radius = 6;
        session
    }

    fn frame(session: &mut Session) -> Vec<u32> {
        let mut frame = vec![0; (SIZE.0 * SIZE.1) as usize];
        session.render(&mut frame).unwrap();
        frame
    }

    /// Pixels that differ between two frames, as (x, y).
    fn changed(a: &[u32], b: &[u32]) -> Vec<(u32, u32)> {
        changed_by_more_than(a, b, 0)
    }

    /// The pixels where a channel of `a` and `b` differs by more than `tolerance`.
    fn changed_by_more_than(a: &[u32], b: &[u32], tolerance: u8) -> Vec<(u32, u32)> {
        let differ = |a: &u32, b: &u32| {
            let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
            a.iter().zip(b).any(|(a, b)| a.abs_diff(b) > tolerance)
        };
        a.iter()
            .zip(b)
            .enumerate()
            .filter(|(_, (a, b))| differ(a, b))
            .map(|(i, _)| (i as u32 % SIZE.0, i as u32 / SIZE.0))
            .collect()
    }

    #[test]
    fn in_perspective_a_click_makes_its_ring_where_it_points_and_drags_and_rain_work() {
        let args = WaterArgs {
            horizon: Some(-40.0),
            ..WaterArgs::default()
        };
        let mut session = session_with(&args, false);
        assert!(session.runner.pool().in_perspective());
        let calm = frame(&mut session);
        session.gesture(Gesture::Stone([30, 40])).unwrap();
        for _ in 0..6 {
            session.tick().unwrap();
        }
        // Within 20 pixels of the click (the tiles' edges by the pool's border flicker too).
        let moved: Vec<(u32, u32)> = changed_by_more_than(&calm, &frame(&mut session), 8)
            .into_iter()
            .filter(|&(x, y)| x.abs_diff(30) < 20 && y.abs_diff(40) < 20)
            .collect();
        assert!(moved.len() > 10, "{moved:?}");
        let span = |axis: fn(&(u32, u32)) -> u32| {
            let values = moved.iter().map(axis);
            let (low, high) = (values.clone().min().unwrap(), values.max().unwrap());
            (f64::from(low) + f64::from(high)) / 2.0
        };
        let centre = [span(|p| p.0), span(|p| p.1)];
        // The ring's middle in the picture is where the click was (within the pixels
        // perspective moves an ellipse's middle by).
        assert!(
            (centre[0] - 30.0).abs() < 3.0 && (centre[1] - 40.0).abs() < 3.0,
            "{centre:?}"
        );
        // A drag and a shift-click work in perspective (as a swipe and a stone), and rain falls.
        session.gesture(Gesture::Swipe([10, 50], [80, 55])).unwrap();
        session.gesture(Gesture::Float([70, 20])).unwrap();
        session.gesture(Gesture::Lift).unwrap();
        session.raining = true;
        for _ in 0..30 {
            session.tick().unwrap();
        }
        assert_eq!(session.runner.pool().float_count(), 0);
    }

    #[test]
    fn a_shift_click_puts_a_float_that_floats_and_the_oldest_makes_way() {
        let mut session = session();
        session.gesture(Gesture::Float([40, 30])).unwrap();
        let radius = session.brush.radius * 3 / 2;
        let pool = session.runner.pool();
        assert_eq!(pool.float_count(), 1);
        let float = pool.floats().next().unwrap();
        assert_eq!(float.position(), [40.0, 30.0]);
        assert_eq!(float.radius(), radius);
        for _ in 0..30 {
            session.tick().unwrap();
        }
        assert!(session.runner.pool().floats().next().unwrap().bottom() < 0.0);
        // A point off the pool is brought onto its edge (the first interior cell).
        session.gesture(Gesture::Float([-50, 30])).unwrap();
        let edge = session.runner.pool().floats().nth(1).unwrap().position();
        assert_eq!(edge, [1.0, 30.0]);
        for x in 0..MAX_FLOATS as i32 {
            session.gesture(Gesture::Float([x, 20])).unwrap();
        }
        let pool = session.runner.pool();
        assert_eq!(pool.float_count(), MAX_FLOATS);
        assert_eq!(pool.floats().next().unwrap().position(), [1.0, 20.0]);
    }

    #[test]
    fn still_water_shows_the_picture_and_a_stone_changes_it_only_near_where_it_fell() {
        let mut session = session();
        let calm = frame(&mut session);
        let tiles = ripples::pool_tiles(SIZE.0, SIZE.1).unwrap();
        let picture: Vec<u32> = tiles
            .chunks_exact(4)
            .map(|p| u32::from_le_bytes([p[2], p[1], p[0], 0]))
            .collect();
        // Flat water under the default (natural) look: the picture seen through still water.
        let mut flat = ripples::Pool::new(SIZE.0, SIZE.1).unwrap();
        let mut expected = vec![0; picture.len()];
        flat.render_u32(&Look::default(), &picture, &mut expected)
            .unwrap();
        let expected: Vec<u32> = expected.iter().map(|pixel| pixel & 0x00ff_ffff).collect();
        assert_eq!(calm, expected, "flat water shows the picture, top byte 0");
        session.gesture(Gesture::Stone([20, 30])).unwrap();
        for _ in 0..3 {
            session.tick().unwrap();
        }
        let after = frame(&mut session);
        // Deep water carries long waves fast (the dispersive solver's coarse levels span the
        // pool in a step), so faint changes of a level or two show everywhere at once; what a
        // person sees change (more than 4 levels in a channel) stays near the stone.
        let moved = changed_by_more_than(&calm, &after, 4);
        assert!(moved.len() > 20, "{}", moved.len());
        assert!(
            moved
                .iter()
                .all(|&(x, y)| (x as i32 - 20).abs() < 24 && (y as i32 - 30).abs() < 24),
            "{moved:?}"
        );
    }

    #[test]
    fn a_drag_between_distant_points_presses_all_the_way_and_lifts() {
        let mut session = session();
        session.gesture(Gesture::Swipe([5, 5], [90, 60])).unwrap();
        assert_eq!(
            session.runner.pool().body_count(),
            1,
            "a finger in the water"
        );
        session.tick().unwrap();
        let Heights::F32(heights) = session.heights() else {
            panic!("the dispersive solver (the default) has f32 heights")
        };
        for_each_point_on_line([5, 5], [90, 60], |x, y| {
            assert!(heights[(y * 96 + x) as usize] < 0.0, "gap at ({x}, {y})");
        });
        // The drag goes on with the same finger, and letting go takes it out.
        session.gesture(Gesture::Swipe([90, 60], [90, 20])).unwrap();
        assert_eq!(session.runner.pool().body_count(), 1);
        session.gesture(Gesture::Lift).unwrap();
        assert_eq!(session.runner.pool().body_count(), 0);
    }

    #[test]
    fn a_fast_drag_leaves_a_wake_as_strong_as_a_slow_one() {
        // The same 80 pixels dragged in 40 frames and in 4: the deepest trough behind the
        // finger differs by less than a third (a body of fixed pressure: ten times).
        let deepest = |frames: i32| {
            let mut session = session();
            let step = 80 / frames;
            for k in 0..frames {
                let from = [8 + k * step, 30];
                session
                    .gesture(Gesture::Swipe(from, [from[0] + step, 30]))
                    .unwrap();
                session.tick().unwrap();
            }
            session.gesture(Gesture::Lift).unwrap();
            let Heights::F32(heights) = session.heights() else {
                panic!("f32 heights")
            };
            -heights.iter().copied().fold(0.0f32, f32::min)
        };
        let (slow, fast) = (deepest(40), deepest(4));
        println!("deepest trough: {slow:.1} dragged over 40 frames, {fast:.1} over 4");
        assert!(
            fast > 0.0 && (fast / slow - 1.0).abs() < 0.33,
            "{slow} vs {fast}"
        );
    }

    #[test]
    fn a_drag_on_paused_water_stamps_its_trail() {
        let mut session = session();
        session.command(Command::TogglePause).unwrap();
        session.gesture(Gesture::Swipe([5, 5], [90, 60])).unwrap();
        assert_eq!(session.runner.pool().body_count(), 0);
        let Heights::F32(heights) = session.heights() else {
            panic!("f32 heights")
        };
        for_each_point_on_line([5, 5], [90, 60], |x, y| {
            assert_ne!(heights[(y * 96 + x) as usize], 0.0, "gap at ({x}, {y})");
        });
    }

    #[test]
    fn rain_falls_only_when_on() {
        let mut session = session();
        let calm = frame(&mut session);
        for _ in 0..120 {
            session.tick().unwrap();
        }
        assert_eq!(frame(&mut session), calm, "no rain: the water stays flat");
        assert_eq!(session.command(Command::ToggleRain).unwrap(), None);
        assert!(session.raining() && session.status().raining);
        for _ in 0..120 {
            session.tick().unwrap();
        }
        let rained = changed(&calm, &frame(&mut session));
        // Two seconds of rain reach all four quarters of the pool.
        for (qx, qy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            assert!(
                rained
                    .iter()
                    .any(|&(x, y)| x * 2 / SIZE.0 == qx && y * 2 / SIZE.1 == qy),
                "no rain in quarter ({qx}, {qy})"
            );
        }
        session.command(Command::Calm).unwrap();
        session.command(Command::ToggleRain).unwrap();
        session.tick().unwrap();
        assert_eq!(frame(&mut session), calm);
    }

    #[test]
    fn walls_are_painted_erased_and_kept_through_a_solver_switch() {
        let mut session = session();
        let calm = frame(&mut session);
        session
            .gesture(Gesture::Walls {
                from: [10, 10],
                to: [80, 10],
                erase: false,
            })
            .unwrap();
        let obstacles = session.runner.pool().obstacles();
        assert!(
            obstacles.is_wall(10, 10) && obstacles.is_wall(45, 10) && obstacles.is_wall(80, 10)
        );
        assert!(!obstacles.is_wall(45, 40));
        let walled = frame(&mut session);
        let painted = changed(&calm, &walled);
        assert!(painted.contains(&(45, 10)));
        // Further away the wall only shades the floor: its shadow, away from the sun.
        for &(x, y) in painted.iter().filter(|&&(_, y)| y >= 20) {
            let index = (y * SIZE.0 + x) as usize;
            let (before, after) = (calm[index].to_le_bytes(), walled[index].to_le_bytes());
            assert!(
                (0..3).all(|c| after[c] <= before[c]),
                "({x}, {y}) brightened"
            );
        }
        session.command(Command::Solver(SolverKind::Wave)).unwrap();
        assert_eq!(session.status().solver, SolverKind::Wave);
        assert!(session.runner.pool().obstacles().is_wall(45, 10));
        session
            .gesture(Gesture::Walls {
                from: [40, 10],
                to: [50, 10],
                erase: true,
            })
            .unwrap();
        assert!(!session.runner.pool().obstacles().is_wall(45, 10));
        assert!(session.runner.pool().obstacles().is_wall(20, 10));
        session.command(Command::ClearWalls).unwrap();
        assert!(session.runner.pool().obstacles().is_empty());
        assert_eq!(frame(&mut session), calm);
    }

    #[test]
    fn walls_on_a_coarser_grid_cover_whole_cells_and_are_drawn_over_the_picture() {
        let args = WaterArgs {
            sim_scale: Some(2),
            ..WaterArgs::default()
        };
        let mut session = session_with(&args, false);
        assert_eq!(session.status().grid, (48, 32));
        let calm = frame(&mut session);
        session
            .gesture(Gesture::Walls {
                from: [40, 30],
                to: [40, 30],
                erase: false,
            })
            .unwrap();
        let walled = frame(&mut session);
        let obstacles = session.runner.pool().obstacles();
        for y in 0..SIZE.1 as usize {
            for x in 0..SIZE.0 as usize {
                let wall = obstacles.is_wall((x / 2) as i64, (y / 2) as i64);
                let index = y * SIZE.0 as usize + x;
                if wall {
                    assert_ne!(walled[index], calm[index], "wall pixel ({x}, {y})");
                }
            }
        }
        assert!(obstacles.is_wall(20, 15));
    }

    #[test]
    fn keys_change_the_brush_border_look_and_help_within_bounds() {
        let mut session = session();
        assert_eq!(
            session.command(Command::Stronger).unwrap().as_deref(),
            Some("stone strength 192")
        );
        for _ in 0..20 {
            session.command(Command::Stronger).unwrap();
        }
        assert_eq!(session.brush.strength, 1024);
        for _ in 0..20 {
            session.command(Command::Narrower).unwrap();
        }
        assert_eq!(session.brush.radius, 1);
        assert_eq!(session.brush.swipe(), (1, 320));
        assert_eq!(
            session.command(Command::ToggleBoundary).unwrap().as_deref(),
            Some("border: absorbing")
        );
        assert_eq!(session.runner.pool().boundary(), Boundary::Absorb);
        assert_eq!(session.look(), Look::default());
        assert_eq!(session.look_kind, RenderMode::Natural);
        let names: Vec<_> = (0..4)
            .map(|_| session.command(Command::NextLook).unwrap().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "look: lit",
                "look: classic",
                "look: spring",
                "look: natural"
            ]
        );
        assert_eq!(session.look(), Look::default());
        session.command(Command::NextLook).unwrap();
        session.command(Command::NextLook).unwrap();
        assert_eq!(session.look(), Look::classic());
        session.command(Command::ToggleHelp).unwrap();
        assert!(session.help_shown());
        let help = session.help_lines(Some(143.7));
        assert!(help.iter().all(|line| line.len() <= 38), "{help:?}");
        assert_eq!(help[1], "144 fps  96x64");
        assert!(help.iter().any(|line| line.contains("(1024)")));
        assert!(help.iter().any(|line| line.contains("absorbing")));
        session.command(Command::TogglePause).unwrap();
        assert!(
            session
                .status()
                .title(Some(59.6))
                .contains("60 fps - 96x64 - dispersive - rain off - paused")
        );
    }

    #[test]
    fn a_classic_start_cycles_to_the_spring_look_and_settings_carry_over() {
        let args = WaterArgs {
            render: Some(RenderMode::Classic),
            solver: Some(SolverKind::Spring),
            ..WaterArgs::default()
        };
        let mut session = session_with(&args, true);
        session.command(Command::NextLook).unwrap();
        assert_eq!(session.look_kind, RenderMode::Spring);
        let mut next = session_with(&WaterArgs::default(), false);
        session.carry_settings_to(&mut next).unwrap();
        assert_eq!(next.status().solver, SolverKind::Spring);
        assert!(next.raining());
        assert_eq!(next.look_kind, RenderMode::Spring);
    }

    #[test]
    fn the_look_key_keeps_each_looks_own_numbers() {
        let args = WaterArgs {
            render: Some(RenderMode::Lit),
            presence: Some(2.0),
            shading: Some(0.5),
            depth: Some(20.0),
            spring_transparency: Some(0.25),
            ..WaterArgs::default()
        };
        let mut session = session_with(&args, false);
        let Look::Lit(lit) = session.look() else {
            panic!("{:?}", session.look())
        };
        assert_eq!((lit.shading, lit.presence), (0.5, 2.0));
        let mut shown = vec![session.look()];
        for _ in 0..4 {
            session.command(Command::NextLook).unwrap();
            shown.push(session.look());
        }
        let [
            Look::Classic(classic),
            Look::Spring(spring),
            Look::Natural(natural),
        ] = [shown[1], shown[2], shown[3]]
        else {
            panic!("{shown:?}")
        };
        assert_eq!(classic.presence, 2.0);
        assert_eq!((spring.transparency, spring.presence), (0.25, 2.0));
        assert_eq!((natural.depth, natural.presence), (20.0, 2.0));
        // Back to the lit look after a full turn, its shading as the user set it.
        assert_eq!(shown[4], shown[0]);
    }

    #[test]
    fn the_default_rain_has_the_same_density_at_any_size_and_rate() {
        let full_hd = default_rain(1, 1920, 1080, 60.0).unwrap().rate();
        assert!((full_hd - 150.0 * 1920.0 * 1080.0 / 1e6 / 60.0).abs() < 1e-9);
        let half = default_rain(1, 960, 1080, 120.0).unwrap().rate();
        assert!((half * 4.0 - full_hd).abs() < 1e-9);
    }

    #[test]
    fn lines_visit_every_pixel_and_far_points_are_bounded() {
        let mut points = Vec::new();
        for_each_point_on_line([0, 0], [5, 2], |x, y| points.push([x, y]));
        assert_eq!(points.first(), Some(&[0, 0]));
        assert_eq!(points.last(), Some(&[5, 2]));
        assert_eq!(points.len(), 6);
        assert!(
            points
                .windows(2)
                .all(|w| (w[1][0] - w[0][0]).abs() <= 1 && (w[1][1] - w[0][1]).abs() <= 1)
        );
        assert_eq!(bound_point([-1_000_000, 5], 100, 50), [-100, 5]);
        assert_eq!(bound_point([7, 1_000_000], 100, 50), [7, 99]);
    }
}
