//! The water of one page element: a core [`Pool`] with its image, its frame and its clock.
//!
//! Everything a page needs per frame happens in one call, [`WebPool::frame`]: the clock says how
//! many solver steps are due, rain falls for each, the last step is fused with the render
//! ([`Pool::step_and_render`]), and the result lands in an RGBA buffer that JavaScript reads in
//! place through a view of the wasm memory (`Uint8ClampedArray` -> `ImageData` ->
//! `putImageData`), so a frame is never copied between Rust and JavaScript. When no step is
//! due (a fast screen between steps) nothing is rendered and the page skips its draw.
//!
//! This type is plain Rust and knows nothing of JavaScript: the host tests drive it directly,
//! and [`crate::WasmPool`] only converts arguments and errors around it. Sizes are checked
//! against [`MAX_PIXELS`] before anything is allocated, so a huge element is an error that
//! names the limit rather than a failed allocation, which in wasm would abort the module.

use ripples::{
    Body, BodyId, DispersiveSolver, Fields, FixedStep, Look, LookSettings, Pool, Rain, RenderMode,
    SkyImage, Solver, SolverKind, SpringFields, WaveSolver,
};

use crate::gpu_photo::{GpuPhoto, photo_look_uniforms};
use crate::gpu_water::GpuQueue;
use crate::options::{self, WebError};
use ripples::limits::MAX_SIM_SCALE;

/// Most pixels one pool may have in a page (4096 x 4096, a 4K screen and a half). Each pixel
/// costs about 12 bytes of wasm memory (image, frame, two grid cells and render scratch), so
/// this keeps one pool under 200 MB.
pub const MAX_PIXELS: u32 = 4096 * 4096;
/// Longest side of a pool, in pixels (the core's limit).
pub const MAX_SIDE: u32 = ripples::limits::MAX_SIDE;

/// The solver a new pool starts with: the dispersive one (deep-water waves, the core's default
/// [`SolverKind::default`]), whose smooth trains of rings the natural look shows best (the
/// classic solver's cell-sized speckle is what the natural look smooths away, at the cost of
/// softer rings).
pub const DEFAULT_SOLVER: SolverKind = SolverKind::Dispersive;

/// Largest height (in the solvers' units) that still counts as calm water (see
/// [`WebPool::is_calm`]). Heights this small move no look by a visible amount: the classic
/// look rounds a displacement below half a pixel to none, the lit look moves its sample by
/// 0.35 of a pixel at most and the natural look's slopes are a few thousandths. The core's
/// [`ripples::SleepWhenCalm`], the window's rule too.
pub const CALM_TOLERANCE: f32 = ripples::SleepWhenCalm::DEFAULT.tolerance;

/// The lit look's refraction at `perturbance` 1 (the core's `Look::default().refraction`).
const BASE_REFRACTION: f32 = 0.35;
/// The spring look's refraction at `perturbance` 1.
const BASE_SPRING_REFRACTION: f32 = -0.35;

/// Water over an image in a page, rendered into a frame buffer the page reads in place.
#[derive(Debug)]
pub struct WebPool {
    pool: Pool,
    /// The look shown (the page's `look` option).
    look_kind: RenderMode,
    /// Every look's numbers, kept when the page switches looks.
    looks: LookSettings,
    image: Vec<u8>,
    frame: Vec<u8>,
    /// The core's fixed-step clock (the window's too), fed with frame times in seconds.
    clock: FixedStep,
    rain: Rain,
    rain_per_second: f64,
    drop_radius: u32,
    /// The natural look's lengths as the page gives them, in CSS pixels: `[depth, clarity,
    /// wave_height]`; the look holds them times `pixels_per_css_pixel`.
    natural_lengths: [f64; 3],
    /// The dispersive solver's gravity as the page gives it, in CSS pixels per step²; the
    /// solver holds it in cells per step² (times cells per CSS pixel).
    gravity: f64,
    /// Pool pixels per CSS pixel, so that the natural look keeps its shape on any screen and at
    /// any canvas pixel ratio.
    pixels_per_css_pixel: f64,
    /// The page's `perturbance`: the refraction of every look but the classic one, relative to
    /// its default (the natural look's through its wave height).
    perturbance: f64,
    /// Steps taken by the pools this one took its water from.
    earlier_steps: u64,
    /// The frame no longer shows the water as it is (new image, look or solver): render even
    /// if no step is due.
    stale: bool,
    /// The fingertips following pointers.
    fingers: Vec<Finger>,
    /// The handle the next fingertip gets.
    next_finger: u32,
    /// A GPU draws the frames (see [`set_gpu`](Self::set_gpu)): steps render nothing here and
    /// the frame buffer is freed.
    gpu: bool,
    /// The surface a GPU draws from (see [`prepare_surface`](Self::prepare_surface)).
    surface: Vec<f32>,
    /// Counts changes of the image, so that a GPU renderer knows when to upload it again.
    image_version: u32,
    /// Whether [`set_water`](Self::set_water) was given a mask or a perspective (not the whole
    /// picture seen from above): then a GPU draws the pool's water region.
    has_water_region: bool,
    /// What a GPU draws the water region from, built on first use.
    gpu_photo: Option<GpuPhoto>,
    /// Counts changes of the water region, so that a GPU renderer knows when to upload its mask
    /// and tables again.
    water_version: u32,
    /// Counts changes of the walls and the edges, so that a GPU that steps the water knows
    /// when to take them again ([`wall_mask`](Self::wall_mask),
    /// [`sponge_profile`](Self::sponge_profile)).
    boundary_version: u32,
    /// A resize dropped the pool's water region: the next [`set_water`](Self::set_water) puts
    /// it back and keeps the water instead of calming it.
    water_region_resized: bool,
    /// The page's GPU steps the water (see [`crate::gpu_water`]): steps and stones wait here
    /// for it, and the solver here stays calm.
    gpu_water: Option<GpuQueue>,
}

/// The fastest a fingertip moves through the water, in CSS pixels per step (1440 pixels a second
/// at 60 steps a second: a quick swipe). A pointer event can jump much further (a fast flick, a
/// busy page that skipped frames, a pointer that left and came back): the finger then follows
/// it along the jump at this speed over the next steps, leaving the wake a finger drawn that
/// way would, instead of pressing the whole jump in one step as one long brushed streak.
pub const FINGER_SPEED: f64 = 24.0;

/// A fingertip following a pointer: the page's handle, the pool's body, where the body is and
/// where the pointer is (pool pixels). In perspective, where bodies do not go yet, there is no
/// body: the finger swipes its radius and strength along its way instead.
#[derive(Debug, Clone, Copy)]
struct Finger {
    handle: u32,
    body: Option<BodyId>,
    at: (f32, f32),
    target: (f32, f32),
    radius: u32,
    strength: i16,
}

/// Checks a pool size in pixels against the page limits, naming the size and the limit.
pub fn check_pool_size(width: f64, height: f64) -> Result<(u32, u32), WebError> {
    for (name, side) in [("width", width), ("height", height)] {
        if !side.is_finite() || side.fract() != 0.0 || side < 0.0 {
            return Err(WebError::number(
                format!("pool {name}"),
                side,
                options::Rule::WholePixels,
            ));
        }
    }
    if width < 1.0 || height < 1.0 {
        return Err(WebError::PoolTooSmall { width, height });
    }
    if width > f64::from(MAX_SIDE)
        || height > f64::from(MAX_SIDE)
        || width * height > f64::from(MAX_PIXELS)
    {
        return Err(WebError::PoolTooLarge { width, height });
    }
    Ok((width as u32, height as u32))
}

/// What [`WebPool::set_water`]'s arguments say for a `width x height` pool: one flag per pixel
/// (`None` for an empty `rgba`: all of it) and the camera (`None` for a NaN `horizon`).
fn water_input(
    rgba: &[u8],
    width: u32,
    height: u32,
    horizon: f64,
    focal: f64,
) -> Result<(Option<Vec<bool>>, Option<ripples::Perspective>), WebError> {
    let mask = if rgba.is_empty() {
        None
    } else {
        let expected = 4 * width as usize * height as usize;
        if rgba.len() != expected {
            return Err(WebError::WrongLength {
                what: "water mask",
                got: rgba.len(),
                expected,
                width,
                height,
            });
        }
        Some(
            rgba.chunks_exact(4)
                .map(|p| {
                    let luminance =
                        299 * u32::from(p[0]) + 587 * u32::from(p[1]) + 114 * u32::from(p[2]);
                    p[3] >= 128 && luminance >= 128 * 1000
                })
                .collect(),
        )
    };
    let perspective = (!horizon.is_nan()).then(|| {
        let perspective = ripples::Perspective::new(horizon as f32);
        if focal.is_nan() {
            perspective
        } else {
            perspective.with_focal(focal as f32)
        }
    });
    Ok((mask, perspective))
}

/// The resolution (pool pixels per grid cell, at least `resolution`) a `width x height` pool
/// needs so that the plane grid [`WebPool::set_water`]`(rgba, horizon, focal)` lays holds at
/// most `max_cells` cells, as nearly as [`MAX_SIM_SCALE`] allows; `resolution` itself
/// without a perspective (a NaN `horizon`). The plane unit stays one pool pixel at the nearest
/// water row whatever the resolution, so a stone makes the same ring in pixels on a coarser
/// grid; the grid reaches as far. Bad arguments are `set_water`'s errors.
pub fn perspective_resolution(
    width: f64,
    height: f64,
    resolution: f64,
    rgba: &[u8],
    horizon: f64,
    focal: f64,
    max_cells: f64,
) -> Result<u32, WebError> {
    let (width, height) = check_pool_size(width, height)?;
    let resolution = options::resolution(resolution)?;
    let (mask, perspective) = water_input(rgba, width, height, horizon, focal)?;
    let Some(perspective) = perspective else {
        return Ok(resolution);
    };
    let cells = |scale: u32| -> Result<f64, WebError> {
        let [grid_width, grid_height] =
            perspective.grid_size(width, height, scale, mask.as_deref())?;
        Ok((grid_width * grid_height) as f64)
    };
    let finest = cells(resolution)?;
    if finest <= max_cells {
        return Ok(resolution);
    }
    // About 1 / scale² as many cells as at the finest scale: start from that guess (rounded
    // down, the margins make a coarse grid a little bigger) and coarsen until it fits.
    let guess = (f64::from(resolution) * (finest / max_cells).sqrt()).floor() as u32;
    let mut scale = guess.max(resolution + 1).min(MAX_SIM_SCALE);
    while scale < MAX_SIM_SCALE && cells(scale)? > max_cells {
        scale += 1;
    }
    Ok(scale)
}

impl WebPool {
    /// A calm pool of `width x height` pixels over the built-in pool tiles, simulated on a grid
    /// `resolution` times coarser, with rain seeded by `seed`.
    pub fn new(width: f64, height: f64, resolution: f64, seed: u64) -> Result<Self, WebError> {
        let (width, height) = check_pool_size(width, height)?;
        let resolution = options::resolution(resolution)?;
        let mut pool = Pool::with_sim_scale(width, height, resolution)?;
        pool.set_solver(DEFAULT_SOLVER)?;
        let image = ripples::pool_tiles(width, height)?;
        let frame = image.clone();
        let looks = LookSettings::default();
        let natural = looks.natural;
        let mut web_pool = Self {
            pool,
            look_kind: RenderMode::Natural,
            looks,
            image,
            frame,
            clock: FixedStep::default(),
            rain: Rain::new(seed),
            rain_per_second: 0.0,
            drop_radius: 12,
            natural_lengths: [natural.depth, natural.clarity, natural.wave_height].map(f64::from),
            gravity: f64::from(DispersiveSolver::DEFAULT_GRAVITY),
            pixels_per_css_pixel: 1.0,
            perturbance: 1.0,
            earlier_steps: 0,
            stale: true,
            fingers: Vec::new(),
            next_finger: 0,
            gpu: false,
            surface: Vec::new(),
            image_version: 0,
            has_water_region: false,
            gpu_photo: None,
            water_version: 0,
            boundary_version: 0,
            water_region_resized: false,
            gpu_water: None,
        };
        web_pool.set_rain(0.0)?;
        web_pool.update_wave_speed()?;
        web_pool.update_gravity()?;
        Ok(web_pool)
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.pool.width()
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.pool.height()
    }

    /// Simulation grid width in cells.
    pub fn grid_width(&self) -> u32 {
        self.pool.solver().width()
    }

    /// Simulation grid height in cells.
    pub fn grid_height(&self) -> u32 {
        self.pool.solver().height()
    }

    /// Solver steps taken so far (counting those of the pools it took its water from).
    pub fn steps(&self) -> u64 {
        let on_gpu = self.gpu_water.as_ref().map_or(0, GpuQueue::stepped);
        self.earlier_steps + self.pool.steps() + on_gpu
    }

    /// The underlying pool (heights, solver), for tests and tools.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The image under the water: RGBA, `width * height * 4` bytes.
    pub fn image(&self) -> &[u8] {
        &self.image
    }

    /// The last rendered frame: RGBA, `width * height * 4` bytes.
    pub fn frame_pixels(&self) -> &[u8] {
        &self.frame
    }

    /// Where the frame starts in the module's memory (for a `Uint8ClampedArray` view). It
    /// moves only when the pool is rebuilt.
    pub fn frame_address(&self) -> usize {
        self.frame.as_ptr() as usize
    }

    /// Replaces the image under the water with `rgba` (`width * height * 4` bytes).
    pub fn set_image(&mut self, rgba: &[u8]) -> Result<(), WebError> {
        let expected = self.image.len();
        if rgba.len() != expected {
            return Err(WebError::WrongLength {
                what: "image",
                got: rgba.len(),
                expected,
                width: self.width(),
                height: self.height(),
            });
        }
        self.image.copy_from_slice(rgba);
        self.image_changed();
        Ok(())
    }

    /// The image under the water, for the page to write a new picture into in place (a video's
    /// next frame) before calling [`image_changed`](Self::image_changed): the same memory for
    /// every picture, so a video costs no allocation per frame. Its address moves only when the
    /// pool is rebuilt or resized.
    pub fn image_mut(&mut self) -> &mut [u8] {
        &mut self.image
    }

    /// Where the image starts in the module's memory (for a `Uint8Array` view that a video's
    /// frames are written through; see [`image_mut`](Self::image_mut)).
    pub fn image_address(&self) -> usize {
        self.image.as_ptr() as usize
    }

    /// The image was rewritten in place: the next [`frame`](Self::frame) renders over it, even
    /// when no step is due.
    pub fn image_changed(&mut self) {
        self.stale = true;
        self.image_version = self.image_version.wrapping_add(1);
    }

    /// Counts the image's changes ([`set_image`](Self::set_image), a video frame through
    /// [`image_changed`](Self::image_changed), the built-in tiles, a resize): a GPU renderer
    /// uploads the image again when it moved on.
    pub fn image_version(&self) -> u32 {
        self.image_version
    }

    /// Puts the built-in pool tiles back under the water (in the image's memory, whose
    /// address a page may hold).
    pub fn use_default_image(&mut self) -> Result<(), WebError> {
        let tiles = ripples::pool_tiles(self.width(), self.height())?;
        self.image.copy_from_slice(&tiles);
        self.image_changed();
        Ok(())
    }

    /// Natural look: reflects a picture of the sky, `rgba` holding `width * height` RGBA
    /// pixels (alpha ignored). Its top edge is the zenith, its bottom edge the horizon, its
    /// width once around the horizon with its middle column beyond the top of the pool
    /// picture ([`SkyImage`] says it in full). The picture is reduced to the core's small sky
    /// table now, so its size costs nothing per frame; the other looks do not show it. A size
    /// that is not a whole number of pixels, or `rgba` of another length, is an error, and
    /// the sky stays as it was.
    pub fn set_sky(&mut self, rgba: &[u8], width: f64, height: f64) -> Result<(), WebError> {
        let width = options::whole("sky image width", width, 1, MAX_SIDE)?;
        let height = options::whole("sky image height", height, 1, MAX_SIDE)?;
        let expected = width as usize * height as usize * 4;
        if rgba.len() != expected {
            return Err(WebError::WrongLength {
                what: "sky image",
                got: rgba.len(),
                expected,
                width,
                height,
            });
        }
        self.pool
            .set_sky(Some(&SkyImage::new(rgba, width, height)?));
        self.stale = true;
        Ok(())
    }

    /// Natural look: reflects the built-in sky (a blue gradient, paler at the horizon) again.
    pub fn use_default_sky(&mut self) {
        self.pool.set_sky(None);
        self.stale = true;
    }

    /// Switches solver (`'classic'`, `'wave'`, `'spring'`, `'dispersive'`); the water calms.
    pub fn set_solver(&mut self, name: &str) -> Result<(), WebError> {
        let kind = options::solver(name)?;
        if kind != self.pool.solver().kind() {
            self.pool.set_solver(kind)?;
            self.update_wave_speed()?;
            self.update_gravity()?;
            self.stale = true;
        }
        Ok(())
    }

    /// The wave solver's speed in cells per step: its default at one pool pixel per CSS
    /// pixel, scaled with the pixel ratio so that waves cross the page at the same speed in
    /// CSS pixels at every ratio (quality 'auto' changes it as the page runs, and a
    /// devicePixelRatio-2 screen should not show slower water than another). Above 0.75 cells
    /// per step (a ratio over 1.5) a step takes two substeps.
    fn update_wave_speed(&mut self) -> Result<(), WebError> {
        let scale = self.pixels_per_css_pixel / f64::from(self.pool.sim_scale());
        if let Some(wave) = self.pool.solver_mut().as_wave_mut() {
            let speed = f64::from(WaveSolver::DEFAULT_WAVE_SPEED) * scale;
            let max = f64::from(ripples::limits::MAX_WAVE_SPEED);
            wave.set_wave_speed(speed.min(max) as f32)?;
        }
        Ok(())
    }

    /// The dispersive solver's gravity, in CSS pixels per step² (`0 < gravity <= 0.5`): kept
    /// for when that solver is chosen, applied at once if it is in use.
    pub fn set_gravity(&mut self, gravity: f64) -> Result<(), WebError> {
        self.gravity = options::gravity(gravity)?;
        self.update_gravity()
    }

    /// The dispersive solver's gravity in cells per step²: the page's, in CSS pixels per
    /// step², times cells per CSS pixel, so that a ripple as long in CSS pixels turns as fast
    /// at every pixel ratio (at most [`ripples::MAX_GRAVITY`], which only a ratio above 1
    /// can reach).
    fn update_gravity(&mut self) -> Result<(), WebError> {
        let scale = self.pixels_per_css_pixel / f64::from(self.pool.sim_scale());
        if let Solver::Dispersive(dispersive) = self.pool.solver_mut() {
            let max = f64::from(ripples::MAX_GRAVITY);
            dispersive.set_gravity((self.gravity * scale).min(max) as f32)?;
        }
        Ok(())
    }

    /// The solver in use.
    pub fn solver(&self) -> SolverKind {
        self.pool.solver().kind()
    }

    /// `'reflect'` or `'absorb'` edges.
    pub fn set_border(&mut self, name: &str) -> Result<(), WebError> {
        let boundary = options::border(name)?;
        if boundary != self.pool.boundary() {
            self.pool.set_boundary(boundary);
            self.boundary_version = self.boundary_version.wrapping_add(1);
        }
        Ok(())
    }

    /// `'natural'`, `'classic'`, `'lit'` or `'spring'` look.
    pub fn set_look(&mut self, name: &str) -> Result<(), WebError> {
        self.look_kind = options::look(name)?;
        self.stale = true;
        Ok(())
    }

    /// Pool pixels per CSS pixel (the canvas's pixel ratio): the natural look's `depth`,
    /// `clarity` and `waveHeight` are CSS pixels and scale with it, so the water looks the same
    /// at every pixel ratio. Beyond the core's limits (1024 pixels of depth, a wave height of
    /// 16), which only a pixel ratio above 1 can reach, they stop at the limit.
    pub fn set_pixels_per_css_pixel(&mut self, ratio: f64) -> Result<(), WebError> {
        self.pixels_per_css_pixel = options::pixel_ratio(ratio)?;
        self.update_wave_speed()?;
        self.update_gravity()?;
        self.update_natural_lengths()
    }

    /// Natural look: CSS pixels of water over the picture (deeper bends the view more).
    pub fn set_depth(&mut self, depth: f64) -> Result<(), WebError> {
        self.natural_lengths[0] = options::natural_number("depth", depth)?;
        self.update_natural_lengths()
    }

    /// Natural look: CSS pixels of water after which white light has the water's colour.
    pub fn set_clarity(&mut self, clarity: f64) -> Result<(), WebError> {
        self.natural_lengths[1] = options::natural_number("clarity", clarity)?;
        self.update_natural_lengths()
    }

    /// Natural look: CSS pixels of surface height per unit of the simulation's height.
    pub fn set_wave_height(&mut self, wave_height: f64) -> Result<(), WebError> {
        self.natural_lengths[2] = options::natural_number("waveHeight", wave_height)?;
        self.update_natural_lengths()
    }

    /// Natural look: strength of the caustics, 0 to 4.
    pub fn set_caustics(&mut self, caustics: f64) -> Result<(), WebError> {
        self.looks.natural.caustics = options::natural_number("caustics", caustics)? as f32;
        self.stale = true;
        Ok(())
    }

    /// Natural look: chromatic dispersion in units of water's own, 0 to 50.
    pub fn set_dispersion(&mut self, dispersion: f64) -> Result<(), WebError> {
        self.looks.natural.dispersion = options::natural_number("dispersion", dispersion)? as f32;
        self.stale = true;
        Ok(())
    }

    /// Natural look: the sun's height above the horizon in degrees (90 = overhead).
    pub fn set_sun_elevation(&mut self, degrees: f64) -> Result<(), WebError> {
        self.looks.natural.sun_elevation = options::natural_number("sunElevation", degrees)? as f32;
        self.stale = true;
        Ok(())
    }

    /// Natural look: the sun's direction in degrees, counter-clockwise from the right (90 =
    /// from the top).
    pub fn set_sun_azimuth(&mut self, degrees: f64) -> Result<(), WebError> {
        self.looks.natural.sun_azimuth = options::natural_number("sunAzimuth", degrees)? as f32;
        self.stale = true;
        Ok(())
    }

    /// Natural look: the colour white light takes after `clarity` pixels of water (`#rrggbb`,
    /// `#rgb` or `rgb(r, g, b)`).
    pub fn set_water_colour(&mut self, colour: &str) -> Result<(), WebError> {
        let value = options::OptionValue::Text(colour.to_string());
        self.looks.natural.water_colour = options::water_colour("waterColour", &value)?;
        self.stale = true;
        Ok(())
    }

    fn update_natural_lengths(&mut self) -> Result<(), WebError> {
        let [depth, clarity, wave_height] = self.natural_lengths;
        let scaled = |css: f64, (min, max): (f64, f64)| {
            (css * self.pixels_per_css_pixel).clamp(min, max) as f32
        };
        let natural = &mut self.looks.natural;
        natural.depth = scaled(depth, options::DEPTH_RANGE);
        natural.clarity = scaled(clarity, options::CLARITY_RANGE);
        natural.wave_height = scaled(wave_height * self.perturbance, options::WAVE_HEIGHT_RANGE);
        self.looks.validate()?;
        self.stale = true;
        Ok(())
    }

    /// The look in use, with its numbers.
    pub fn look(&self) -> Look {
        self.looks.look(self.look_kind)
    }

    /// Every look's numbers, as the page's options set them.
    pub fn looks(&self) -> &LookSettings {
        &self.looks
    }

    /// Refraction of the natural, lit and spring looks relative to their defaults (the
    /// natural look's through the height of its waves, `waveHeight` times this; the classic
    /// look always refracts by exactly the height difference, as the original effect does).
    pub fn set_perturbance(&mut self, perturbance: f64) -> Result<(), WebError> {
        let value = options::perturbance(perturbance)?;
        let factor = value as f32;
        let kept = self.looks;
        self.looks.lit.refraction = BASE_REFRACTION * factor;
        self.looks.spring.refraction = BASE_SPRING_REFRACTION * factor;
        if let Err(error) = self.looks.validate() {
            self.looks = kept;
            return Err(error.into());
        }
        self.perturbance = value;
        self.update_natural_lengths()
    }

    /// How much the water shows (`Look::presence`), 0 to 8: the natural look's waves and the
    /// lit and spring looks' refraction, all together (the classic look ignores it).
    pub fn set_presence(&mut self, presence: f64) -> Result<(), WebError> {
        let (min, max) = options::PRESENCE_RANGE;
        let presence = options::in_range("presence", presence, min, max)? as f32;
        self.looks.set_presence(presence);
        self.stale = true;
        Ok(())
    }

    /// Mean raindrops per second.
    pub fn set_rain(&mut self, per_second: f64) -> Result<(), WebError> {
        self.rain_per_second = options::rain_per_second(per_second)?;
        self.update_rain()
    }

    /// Solver steps per second of page time (60 by default).
    pub fn set_steps_per_second(&mut self, steps: f64) -> Result<(), WebError> {
        self.clock
            .set_steps_per_second(options::steps_per_second(steps)?);
        self.update_rain()
    }

    /// Radius of the pointer's stones in pool pixels; raindrops are a quarter to a half of it.
    pub fn set_drop_radius(&mut self, radius: f64) -> Result<(), WebError> {
        self.drop_radius = options::stone_radius(radius)?;
        self.update_rain()
    }

    fn update_rain(&mut self) -> Result<(), WebError> {
        let per_step = self.rain_per_second / self.clock.steps_per_second();
        let min = (self.drop_radius / 4).max(1);
        let max = (self.drop_radius / 2).max(min);
        let rain = std::mem::replace(&mut self.rain, Rain::new(0));
        self.rain = rain.with_rate(per_step)?.with_radius(min, max)?;
        Ok(())
    }

    /// Walls from an RGBA mask of `width * height` pixels: opaque dark pixels (alpha and
    /// luminance both past half) are walls, as in the `ripples` command's obstacle images.
    pub fn set_obstacles(&mut self, rgba: &[u8]) -> Result<(), WebError> {
        let expected = self.image.len();
        if rgba.len() != expected {
            return Err(WebError::WrongLength {
                what: "obstacle mask",
                got: rgba.len(),
                expected,
                width: self.width(),
                height: self.height(),
            });
        }
        let mask: Vec<bool> = rgba
            .chunks_exact(4)
            .map(|p| {
                let luminance =
                    299 * u32::from(p[0]) + 587 * u32::from(p[1]) + 114 * u32::from(p[2]);
                p[3] >= 128 && luminance < 128 * 1000
            })
            .collect();
        self.pool.set_obstacle_mask(&mask)?;
        self.boundary_version = self.boundary_version.wrapping_add(1);
        Ok(())
    }

    /// The water of a photograph: `rgba`, an RGBA mask of `width * height` pixels whose opaque
    /// light pixels (alpha and luminance both past half) are water, or an empty slice for the
    /// whole picture; and with a `horizon` that is not NaN (the picture row of the water's
    /// horizon), the water in perspective, seen with a focal length of `focal` pixels (NaN for
    /// a 60-degree field of view), drawn with the photo look ([`Pool::set_water`]). Outside the
    /// mask the picture is untouched; stones, rain and fingers fall only on water; in
    /// perspective a finger swipes instead of pressing as a body. The water is calmed and the
    /// fingers lifted (also when the water is refused), except right after a
    /// [`resize`](Self::resize), which dropped the region: then the water is kept, resampled
    /// onto the new region's grid (in perspective, plane grid onto plane grid, corner to
    /// corner). A mask of the wrong size, with no
    /// water, a horizon below all of it or a focal length out of range is an error naming it,
    /// and the water stays as it was.
    pub fn set_water(&mut self, rgba: &[u8], horizon: f64, focal: f64) -> Result<(), WebError> {
        let (mask, perspective) = water_input(rgba, self.width(), self.height(), horizon, focal)?;
        let fingers = std::mem::take(&mut self.fingers);
        for finger in &fingers {
            if let Some(body) = finger.body {
                self.pool.remove_body(body);
            }
        }
        // Right after a resize the water goes on: the grid it is on now, kept for a moment.
        let resized = std::mem::take(&mut self.water_region_resized);
        let kept = resized.then(|| self.pool.solver().clone());
        self.pool.set_water(mask.as_deref(), perspective)?;
        if let Some(kept) = kept {
            carry_water(&kept, &mut self.pool, (1.0, 1.0));
        }
        self.has_water_region = mask.is_some() || perspective.is_some();
        self.gpu_photo = None;
        self.water_version = self.water_version.wrapping_add(1);
        self.update_wave_speed()?;
        self.update_gravity()?;
        self.stale = true;
        Ok(())
    }

    /// Removes every wall.
    pub fn clear_obstacles(&mut self) {
        self.pool.obstacles_mut().clear();
        self.boundary_version = self.boundary_version.wrapping_add(1);
    }

    /// Counts changes of the walls and the edges (`set_obstacles`, `clear_obstacles`,
    /// `set_border`), for a GPU that steps the water.
    pub fn boundary_version(&self) -> u32 {
        self.boundary_version
    }

    /// The walls for a GPU that steps the water: a byte per grid cell, row-major, 255 on a
    /// wall and 0 on water; empty without walls.
    pub fn wall_mask(&self) -> Vec<u8> {
        let walls = self.pool.obstacles();
        if walls.is_empty() {
            return Vec::new();
        }
        walls
            .cells()
            .iter()
            .map(|&wall| if wall { 255 } else { 0 })
            .collect()
    }

    /// The absorbing edge's damping band (see [`ripples::Sponge`]) for a GPU that steps the
    /// water: the factor both fields are multiplied by each step at `d` cells from the nearest
    /// edge, for `d` from 0 to the band's width less one (1 beyond); empty for reflecting edges.
    pub fn sponge_profile(&self) -> Vec<f32> {
        let Some(sponge) = self.pool.sponge() else {
            return Vec::new();
        };
        // Cell (d, d) of a grid 2 band + 2 cells wide is d cells from its nearest edge.
        let side = 2 * sponge.band() + 2;
        (0..sponge.band())
            .map(|d| sponge.factor(d, d, side, side))
            .collect()
    }

    /// Wall cells in the grid.
    pub fn wall_cells(&self) -> usize {
        self.pool.obstacles().count()
    }

    /// Drops a stone at pool pixel `(x, y)`. Positions outside the pool are clipped by the
    /// solver (a stone half outside still makes half a ripple).
    pub fn drop_stone(
        &mut self,
        x: f64,
        y: f64,
        radius: f64,
        strength: f64,
    ) -> Result<(), WebError> {
        let (x, y) = (position("x", x)?, position("y", y)?);
        let (radius, strength) = (options::stone_radius(radius)?, options::strength(strength)?);
        if let Some(mut queue) = self.gpu_water.take() {
            Self::queue_stone(&self.pool, &mut queue, (x, y, radius), strength);
            self.gpu_water = Some(queue);
            return Ok(());
        }
        self.pool.drop_stone(x, y, radius, strength)?;
        Ok(())
    }

    /// Drags a stone from `(x0, y0)` to `(x1, y1)` leaving no gaps (a pointer's swipe between
    /// two events).
    pub fn swipe(
        &mut self,
        from: (f64, f64),
        to: (f64, f64),
        radius: f64,
        strength: f64,
    ) -> Result<(), WebError> {
        for (name, value) in [("x0", from.0), ("y0", from.1), ("x1", to.0), ("y1", to.1)] {
            position(name, value)?;
        }
        let (radius, strength) = (options::stone_radius(radius)?, options::strength(strength)?);
        // Only the part of the line whose stones can touch the pool: a line from far outside
        // would otherwise stamp (and cost) a stone per cell all the way.
        let margin = f64::from(radius) + 1.0;
        let bounds = (
            -margin,
            -margin,
            f64::from(self.width()) + margin,
            f64::from(self.height()) + margin,
        );
        if let Some((from, to)) = clip_segment(from, to, bounds) {
            let points = [
                [position("x0", from.0)?, position("y0", from.1)?],
                [position("x1", to.0)?, position("y1", to.1)?],
            ];
            self.pool.swipe(&points, radius, strength)?;
        }
        Ok(())
    }

    /// Puts a fingertip in the water at `(x, y)` (pool pixels, any finite numbers; far outside
    /// is brought to just outside the pool), a disc of `radius` pixels pressing with `strength`
    /// as a stone's (see [`Body::fingertip`]): a pointer's drag, which leaves a wake as the
    /// finger moves with [`move_finger`](Self::move_finger). Returns its handle.
    pub fn add_finger(
        &mut self,
        x: f64,
        y: f64,
        radius: f64,
        strength: f64,
    ) -> Result<u32, WebError> {
        let (x, y) = (self.near_pool("x", x)?, self.near_pool("y", y)?);
        let (radius, strength) = (options::stone_radius(radius)?, options::strength(strength)?);
        let body = if self.pool.in_perspective() {
            self.pool.swipe(&[[x as i32, y as i32]], radius, strength)?;
            None
        } else {
            Some(
                self.pool
                    .add_body(Body::fingertip(x, y, radius, strength)?)?,
            )
        };
        let handle = self.next_finger;
        self.next_finger = self.next_finger.wrapping_add(1);
        self.fingers.push(Finger {
            handle,
            body,
            at: (x, y),
            target: (x, y),
            radius,
            strength,
        });
        Ok(handle)
    }

    /// Moves a fingertip towards `(x, y)`: the next steps carry it there along a straight line
    /// at the pointer's speed, up to [`FINGER_SPEED`] CSS pixels a step, pressing all along the
    /// way. `false` for a handle this pool does not have (lifted, or made by an earlier pool of
    /// the element), so the page can put a new one in.
    pub fn move_finger(&mut self, finger: u32, x: f64, y: f64) -> Result<bool, WebError> {
        let (x, y) = (self.near_pool("x", x)?, self.near_pool("y", y)?);
        let Some(finger) = self.fingers.iter_mut().find(|f| f.handle == finger) else {
            return Ok(false);
        };
        finger.target = (x, y);
        Ok(true)
    }

    /// Where fingertip `finger` is now (pool pixels), `None` for an unknown handle.
    pub fn finger_position(&self, finger: u32) -> Option<(f32, f32)> {
        self.fingers
            .iter()
            .find(|f| f.handle == finger)
            .map(|f| f.at)
    }

    /// Carries every fingertip one step towards its pointer, at most [`FINGER_SPEED`] CSS pixels.
    fn move_fingers(&mut self) -> Result<(), WebError> {
        let reach = (FINGER_SPEED * self.pixels_per_css_pixel) as f32;
        for finger in &mut self.fingers {
            let (dx, dy) = (finger.target.0 - finger.at.0, finger.target.1 - finger.at.1);
            let distance = dx.hypot(dy);
            if distance == 0.0 {
                continue;
            }
            let from = finger.at;
            finger.at = if distance <= reach {
                finger.target
            } else {
                let part = reach / distance;
                (finger.at.0 + dx * part, finger.at.1 + dy * part)
            };
            match finger.body {
                Some(body) => self
                    .pool
                    .set_body_position(body, finger.at.0, finger.at.1)?,
                None => {
                    let point = |(x, y): (f32, f32)| [x as i32, y as i32];
                    self.pool.swipe(
                        &[point(from), point(finger.at)],
                        finger.radius,
                        finger.strength,
                    )?;
                }
            }
        }
        Ok(())
    }

    /// Takes a fingertip out of the water (the waves it made go on); an unknown handle does
    /// nothing.
    pub fn lift_finger(&mut self, finger: u32) {
        if let Some(index) = self.fingers.iter().position(|f| f.handle == finger) {
            let finger = self.fingers.swap_remove(index);
            if let Some(body) = finger.body {
                self.pool.remove_body(body);
            }
        }
    }

    /// A finite coordinate clamped to a band of one pool side around the pool, where a finger
    /// still makes sense (a pointer far outside the element moves it no further).
    fn near_pool(&self, name: &str, value: f64) -> Result<f32, WebError> {
        if !value.is_finite() {
            return Err(WebError::number(name, value, options::Rule::Finite));
        }
        let side = f64::from(if name.starts_with('x') {
            self.width()
        } else {
            self.height()
        });
        Ok(value.clamp(-side, 2.0 * side) as f32)
    }

    /// Calms the water.
    pub fn calm(&mut self) {
        if let Some(queue) = &mut self.gpu_water {
            queue.clear();
        }
        self.pool.calm();
        self.stale = true;
    }

    /// Takes the water of `old` (a pool of the same element before a new pixel ratio or
    /// resolution), so that the ripples go on instead of vanishing: both of its fields are
    /// resampled (bilinearly, [`ripples::resample_field`]) onto this pool's grid, and its step
    /// count and clock carry over. `css_scale` is this pool's CSS box over the old one's:
    /// `(1, 1)` when both cover the same box (the field is stretched corner to corner); when the
    /// element itself changed size, the water is kept where it was in CSS pixels from the
    /// top-left corner, and what falls outside is lost. (An element that only changed size
    /// keeps its pool: see [`resize`](Self::resize).)
    ///
    /// Returns `false`, leaving this pool calm, when the two pools run different solvers (a
    /// field of one solver means nothing to another).
    pub fn take_water(&mut self, old: &WebPool, css_scale: (f64, f64)) -> bool {
        // A plane in perspective covers the same water whatever the picture's size: its grid
        // is stretched corner to corner.
        let perspective = old.pool.in_perspective() && self.pool.in_perspective();
        let css_scale = if perspective { (1.0, 1.0) } else { css_scale };
        if !carry_water(old.pool.solver(), &mut self.pool, css_scale) {
            return false;
        }
        // Where the GPU holds the water, it carries it too (see crate::gpu_water).
        if let (Some(queue), Some(_)) = (&mut self.gpu_water, &old.gpu_water) {
            let from = old.pool.solver();
            queue.carry((from.width() as usize, from.height() as usize), css_scale);
        }
        self.earlier_steps = old.steps();
        self.clock = old.clock.clone();
        self.stale = true;
        true
    }

    /// Changes the pool to `width x height` pixels in place, keeping its water (resampled as
    /// [`take_water`](Self::take_water) does, `css_scale` being the new CSS box over the old),
    /// its settings, clock and step count, and reusing its buffers: the image and the frame are
    /// resized within the memory they had when the pool shrinks, and the old grid is freed as
    /// soon as the new one holds the water, so an element that keeps changing size (a phone's
    /// `100vh` hero as the URL bar comes and goes) does not keep growing the wasm memory. The
    /// image is then calm grey until the page sets it again ([`set_image`](Self::set_image) or
    /// [`use_default_image`](Self::use_default_image)); so are the walls
    /// ([`set_obstacles`](Self::set_obstacles)), the water region
    /// ([`set_water`](Self::set_water), which then keeps the water: in perspective the plane's
    /// grid is stretched corner to corner, as the new plane covers the same water) and the sky
    /// ([`set_sky`](Self::set_sky)), and fingertips are lifted. A size beyond the limits is an error and the pool stays as it was.
    pub fn resize(
        &mut self,
        width: f64,
        height: f64,
        css_scale: (f64, f64),
    ) -> Result<(), WebError> {
        let (width, height) = check_pool_size(width, height)?;
        for (name, scale) in [("x", css_scale.0), ("y", css_scale.1)] {
            if !scale.is_finite() || scale <= 0.0 {
                return Err(WebError::CssScale {
                    axis: name,
                    value: scale,
                });
            }
        }
        let (sim_scale, kind, boundary) =
            (self.pool.sim_scale(), self.solver(), self.pool.boundary());
        // Checked before anything is freed, so that a refused size changes nothing.
        ripples::limits::check_size(
            u64::from(width.div_ceil(sim_scale)),
            u64::from(height.div_ceil(sim_scale)),
        )?;
        // The water is parked in the image and frame buffers (rewritten after a resize anyway:
        // at one cell per pixel the two fields are exactly their size), the old grid, walls and
        // render scratch are freed, and the new grid is made in their place, so at no time are
        // two grids alive and the memory a pool had is what it uses again.
        let mut parked = Pool::with_sim_scale(1, 1, 1)?;
        std::mem::swap(&mut parked, &mut self.pool);
        let from = (
            parked.solver().width() as usize,
            parked.solver().height() as usize,
        );
        park_fields(&parked, &mut self.image, &mut self.frame);
        let parked_in_perspective = parked.in_perspective();
        self.earlier_steps += parked.steps();
        drop(parked);
        let mut pool = Pool::with_sim_scale(width, height, sim_scale)?;
        if pool.solver().kind() != kind {
            pool.set_solver(kind)?;
        }
        pool.set_boundary(boundary);
        // In perspective the plane's grid is stretched corner to corner, and set_water puts it
        // on the new plane's grid the same way.
        let stretch = if parked_in_perspective {
            (1.0, 1.0)
        } else {
            css_scale
        };
        unpark_fields([&self.image, &self.frame], from, &mut pool, stretch);
        self.pool = pool;
        if let Some(queue) = &mut self.gpu_water {
            queue.carry(from, stretch);
        }
        self.fingers.clear();
        let bytes = width as usize * height as usize * 4;
        let frame_bytes = if self.gpu { 0 } else { bytes };
        if bytes <= self.image.capacity() && frame_bytes <= self.frame.capacity() {
            self.image.clear();
            self.image.resize(bytes, 128);
            self.frame.clear();
            self.frame.resize(frame_bytes, 0);
            if self.gpu {
                self.frame.shrink_to_fit();
            }
        } else {
            // Larger than ever: both go before either grows, so that their two blocks (next
            // to each other) make room for one of the new ones.
            self.image = Vec::new();
            self.frame = Vec::new();
            self.image = vec![128; bytes];
            self.frame = vec![0; frame_bytes];
        }
        self.surface = Vec::new();
        self.image_version = self.image_version.wrapping_add(1);
        self.water_region_resized = self.has_water_region;
        self.has_water_region = false;
        self.gpu_photo = None;
        self.water_version = self.water_version.wrapping_add(1);
        self.update_wave_speed()?;
        self.update_gravity()?;
        self.stale = true;
        Ok(())
    }

    /// Starts a new time base: the next [`frame`](Self::frame) steps nothing (after a pause).
    pub fn reset_clock(&mut self) {
        self.clock.reset();
    }

    /// Advances the water to frame time `now_ms` and renders it if anything changed; returns
    /// whether the frame buffer holds a new frame.
    pub fn frame(&mut self, now_ms: f64) -> Result<bool, WebError> {
        let steps = self.clock.due(now_ms / 1000.0);
        if steps == 0 && !self.stale {
            return Ok(false);
        }
        self.advance(steps)?;
        Ok(true)
    }

    /// Runs `steps` solver steps with rain and renders the result (also when `steps` is 0).
    pub fn advance(&mut self, steps: u32) -> Result<(), WebError> {
        let look = self.look();
        if let Some(mut queue) = self.gpu_water.take() {
            let queued = self.queue_steps(&mut queue, steps);
            self.gpu_water = Some(queue);
            queued?;
            self.stale = false;
            return Ok(());
        }
        // Over the water plane in perspective, so rain falls evenly on it.
        let (width, height) = self.pool.rain_area();
        for step in 0..steps {
            for stone in self.rain.stones(width, height) {
                self.pool.drop_rain(stone)?;
            }
            self.move_fingers()?;
            if step + 1 < steps || self.gpu {
                self.pool.step();
            } else {
                self.pool
                    .step_and_render(&look, &self.image, &mut self.frame)?;
            }
        }
        if steps == 0 && !self.gpu {
            self.pool.render(&look, &self.image, &mut self.frame)?;
        }
        self.stale = false;
        Ok(())
    }

    /// A stone at `(x, y)` (pool pixels) of `radius` pixels queued for the GPU, in the cell
    /// and with the rims the CPU's would have (see [`crate::gpu_water`]).
    fn queue_stone(
        pool: &Pool,
        queue: &mut GpuQueue,
        (x, y, radius): (i32, i32, u32),
        strength: i16,
    ) {
        let Some(cell @ (cx, cy, r)) = pool.stone_in_grid(x, y, radius) else {
            return;
        };
        // The wave solver's stone is the dent alone (TwoFields::press_stone).
        let rims = match pool.solver() {
            Solver::Dispersive(water) => water.stone_rims(cx, cy, r),
            _ => crate::gpu_water::NO_RIMS,
        };
        queue.stone(cell, f32::from(strength), rims);
    }

    /// [`advance`](Self::advance) for the GPU (see [`crate::gpu_water`]): the same clock, rain
    /// and fingers, each step's raindrops and the fingers' presses queued for the GPU instead of
    /// dropped and pressed here.
    fn queue_steps(&mut self, queue: &mut GpuQueue, steps: u32) -> Result<(), WebError> {
        let (width, height) = self.pool.rain_area();
        for _ in 0..steps {
            for stone in self.rain.stones(width, height) {
                Self::queue_stone(
                    &self.pool,
                    queue,
                    (stone.x, stone.y, stone.radius),
                    stone.strength,
                );
            }
            self.move_fingers()?;
            let step = self.pool.steps() + queue.stepped();
            let mut presses = Vec::new();
            self.pool
                .take_body_presses(step, |centre, radius, impulse| {
                    presses.push((centre, radius, impulse));
                });
            for (centre, radius, impulse) in presses {
                // As the solver's apply_pressure takes it.
                let impulse = match self.pool.solver() {
                    Solver::Wave(water) => water.impulse_per_substep(impulse),
                    _ => impulse,
                };
                queue.press(centre, radius, impulse);
            }
            queue.steps(1);
        }
        Ok(())
    }

    /// Whether a GPU draws the frames: then [`frame`](Self::frame) and
    /// [`advance`](Self::advance) only step (the page draws from
    /// [`prepare_surface`](Self::prepare_surface)), and the frame buffer is freed; off again,
    /// the pool renders into a frame buffer as before (a lost WebGL context).
    pub fn set_gpu(&mut self, gpu: bool) {
        if gpu == self.gpu {
            return;
        }
        self.gpu = gpu;
        if gpu {
            self.frame = Vec::new();
        } else {
            self.frame = vec![0; self.image.len()];
            self.surface = Vec::new();
            self.gpu_photo = None;
        }
        self.stale = true;
    }

    /// Whether a GPU draws the frames.
    pub fn gpu(&self) -> bool {
        self.gpu
    }

    /// Writes the surface of the water now into the surface buffer and returns it: four
    /// floats per grid cell, row by row, from which a GPU's shaders draw the look in use at
    /// the pool's simulation scale (see [`ripples::Renderer::surface`]). The buffer is made
    /// on the first call and kept.
    pub fn prepare_surface(&mut self) -> Result<&[f32], WebError> {
        let cells = self.grid_width() as usize * self.grid_height() as usize;
        if self.surface.len() != 4 * cells {
            self.surface = vec![0.0; 4 * cells];
        }
        self.pool.surface(&self.look(), &mut self.surface)?;
        Ok(&self.surface)
    }

    /// Counts changes of the water region ([`set_water`](Self::set_water), a resize), so that
    /// a GPU renderer knows when to upload its mask and tables again.
    pub fn water_version(&self) -> u32 {
        self.water_version
    }

    /// Whether [`set_water`](Self::set_water) limited the water to a mask or laid it in
    /// perspective (then a GPU draws the land from [`water_mask`](Self::water_mask)).
    pub fn has_water_region(&self) -> bool {
        self.has_water_region
    }

    /// Whether the water lies in perspective (then a GPU draws the photo look, from
    /// [`photo_rows`](Self::photo_rows), [`photo_uniforms`](Self::photo_uniforms) and
    /// [`prepare_photo_slopes`](Self::prepare_photo_slopes)).
    pub fn in_perspective(&self) -> bool {
        self.pool.in_perspective()
    }

    /// The water region's mask and tables for a GPU, built on first use.
    fn gpu_photo(&mut self) -> Result<&mut GpuPhoto, WebError> {
        if !self.has_water_region {
            return Err(WebError::NoWaterRegion);
        }
        let photo = match self.gpu_photo.take() {
            Some(photo) => photo,
            None => GpuPhoto::new(&self.pool)?,
        };
        Ok(self.gpu_photo.insert(photo))
    }

    /// The water region's mask for a GPU: one byte per pool pixel, 255 on water, 0 on land
    /// (which the GPU draws as the picture, as the CPU does); an error without a water region.
    pub fn water_mask(&mut self) -> Result<&[u8], WebError> {
        Ok(&self.gpu_photo()?.mask)
    }

    /// The photo look's rows for a GPU (see [`crate::gpu_photo::PlaneTables::rows`]: eight
    /// floats per pool row); an error unless the water lies in perspective.
    pub fn photo_rows(&mut self) -> Result<&[f32], WebError> {
        Ok(&self.plane_tables()?.rows)
    }

    /// The photo look's uniforms for a GPU: `[centre x, centre y, focal, sin pitch, cos pitch,
    /// first row, grid width, grid height, sun x, sun up, sun forward, glint strength]`.
    pub fn photo_uniforms(&mut self) -> Result<[f32; 12], WebError> {
        let sun = photo_look_uniforms(self.pool.photo_look());
        let tables = self.plane_tables()?;
        let [cx, cy, focal, sin, cos] = tables.camera;
        let [width, height] = tables.grid;
        Ok([
            cx,
            cy,
            focal,
            sin,
            cos,
            tables.first_row as f32,
            width as f32,
            height as f32,
            sun[0],
            sun[1],
            sun[2],
            sun[3],
        ])
    }

    /// Writes the surface's slopes summed down each grid column (two floats per cell and one
    /// row more, see [`crate::gpu_photo::PlaneTables::sums`]) and returns them: what the photo
    /// look reads per frame, as the CPU's renderer sums them.
    pub fn prepare_photo_slopes(&mut self) -> Result<&[f32], WebError> {
        // Scaled by the presence as the CPU's photo look scales it (`PhotoLook::with_presence`).
        let wave_height = self
            .pool
            .photo_look()
            .with_presence(self.look().presence())
            .wave_height;
        self.plane_tables()?;
        let Some(tables) = self
            .gpu_photo
            .as_mut()
            .and_then(|photo| photo.plane.as_mut())
        else {
            return Err(WebError::NoPhotoTables);
        };
        tables.sum_slopes(self.pool.solver().heights(), wave_height);
        Ok(&tables.sums)
    }

    /// The plane's tables, built on first use; an error unless the water lies in perspective.
    fn plane_tables(&mut self) -> Result<&mut crate::gpu_photo::PlaneTables, WebError> {
        self.gpu_photo()?
            .plane
            .as_mut()
            .ok_or(WebError::NoPerspective)
    }

    /// The constants a GPU's shaders need for the look in use: [`ripples::ShaderConstants`],
    /// flattened ([`ripples::Look::shader_constants`]).
    pub fn shader_constants(&self) -> [f32; ripples::SHADER_CONSTANTS] {
        self.looks.shader_constants(self.pool.sim_scale())
    }

    /// The walls as a layer for a GPU to draw over the water (see
    /// [`Pool::wall_layer`]), `width * height * 4` bytes, or `None` without walls.
    pub fn wall_layer(&mut self) -> Result<Option<Vec<u8>>, WebError> {
        if self.pool.obstacles().is_empty() {
            return Ok(None);
        }
        let mut layer = vec![0; self.image.len()];
        self.pool.wall_layer(&self.look(), &mut layer)?;
        Ok(Some(layer))
    }

    /// The natural look's sky table: RGBA texels, [`ripples::kernels`]' `SKY_SIDE` square.
    pub fn sky_table(&mut self) -> &[[u8; 4]] {
        self.pool.sky_table()
    }

    /// Whether the water is still and nothing is scheduled to move it: no rain, no finger,
    /// and every cell within [`CALM_TOLERANCE`] of rest (see [`Pool::is_calm`]). A page then
    /// stops its frame loop until something drops in.
    pub fn is_calm(&self) -> bool {
        let still = match (&self.gpu_water, self.pool.solver()) {
            (Some(queue), Solver::Dispersive(solver)) => {
                queue.is_calm(solver.damping(), CALM_TOLERANCE)
            }
            (Some(queue), Solver::Wave(solver)) => queue.is_calm(solver.damping(), CALM_TOLERANCE),
            _ => self.pool.is_calm(CALM_TOLERANCE),
        };
        self.rain_per_second == 0.0 && self.fingers.is_empty() && still
    }

    /// Whether the page's GPU steps the water from now on (see [`crate::gpu_water`]): then
    /// [`advance`](Self::advance) and [`drop_stone`](Self::drop_stone) queue steps and stones
    /// for it ([`take_gpu_work`](Self::take_gpu_work)) and the solver here stays calm. Only the
    /// dispersive and wave solvers are stepped on a GPU: for another, this is an error naming
    /// it. Either way the water starts calm.
    pub fn set_gpu_water(&mut self, on: bool) -> Result<(), WebError> {
        if on && !matches!(self.pool.solver(), Solver::Dispersive(_) | Solver::Wave(_)) {
            return Err(WebError::NotOnGpu {
                solver: self.pool.solver().kind().name(),
            });
        }
        self.pool.calm();
        // The steps the GPU took stay counted (stats' step count never goes back).
        if let Some(queue) = self.gpu_water.take() {
            self.earlier_steps += queue.stepped();
        }
        self.gpu_water = on.then(GpuQueue::default);
        if let Some(queue) = &mut self.gpu_water {
            queue.clear();
        }
        self.stale = true;
        Ok(())
    }

    /// Whether the page's GPU steps the water.
    pub fn gpu_water(&self) -> bool {
        self.gpu_water.is_some()
    }

    /// Counts the stones and presses queued for the GPU: what a measurement of the water it
    /// takes now is of (see [`GpuQueue::disturbances`]); 0 when the GPU does not step the water.
    pub fn gpu_disturbances(&self) -> u64 {
        self.gpu_water.as_ref().map_or(0, GpuQueue::disturbances)
    }

    /// The GPU measured its water, when [`gpu_disturbances`](Self::gpu_disturbances) was
    /// `mark`: no height beyond `largest` from rest (see [`GpuQueue::measured`]).
    pub fn gpu_measured(&mut self, mark: u64, largest: f32) {
        if let Some(queue) = &mut self.gpu_water {
            queue.measured(mark, largest, CALM_TOLERANCE);
        }
    }

    /// The carry of the water onto a new grid the GPU is to do first (see
    /// [`GpuQueue::take_carry`]), emptied; empty when there is none.
    pub fn take_gpu_carry(&mut self) -> Vec<f32> {
        self.gpu_water
            .as_mut()
            .map(GpuQueue::take_carry)
            .unwrap_or_default()
    }

    /// What the GPU does next (see [`GpuQueue::take`]), emptied from the queue; empty when the
    /// GPU does not step the water.
    pub fn take_gpu_work(&mut self) -> Vec<f32> {
        self.gpu_water
            .as_mut()
            .map(GpuQueue::take)
            .unwrap_or_default()
    }

    /// The dispersive step's constants `[current, laplacian, previous]` (see
    /// [`DispersiveSolver::coefficients`]), or `None` for another solver.
    pub fn dispersive_coefficients(&self) -> Option<[f32; 3]> {
        match self.pool.solver() {
            Solver::Dispersive(solver) => {
                let c = solver.coefficients();
                Some([c.current, c.laplacian, c.previous])
            }
            _ => None,
        }
    }

    /// The wave solver's substep constants `[centre, edge, corner, previous]` and its substeps
    /// per step (see [`ripples::WaveSolver::coefficients`]), or `None` for another solver.
    pub fn wave_coefficients(&self) -> Option<[f32; 5]> {
        match self.pool.solver() {
            Solver::Wave(solver) => {
                let c = solver.coefficients();
                Some([
                    c.centre,
                    c.edge,
                    c.corner,
                    c.previous,
                    solver.substeps() as f32,
                ])
            }
            _ => None,
        }
    }

    /// The natural look's surface constants for a GPU's surface pass (see
    /// [`Pool::natural_surface_constants`]).
    pub fn natural_surface_constants(&self) -> [f32; 8] {
        self.pool.natural_surface_constants(&self.looks.natural)
    }

    /// Name of the SIMD code in use (`simd128` when the module was built with it).
    pub fn backend() -> &'static str {
        ripples::backend().name()
    }

    /// The look in use.
    pub fn look_mode(&self) -> RenderMode {
        self.look_kind
    }
}

/// Copies the two fields of `pool`'s solver (heights and previous heights, or heights and
/// velocities) into `first` and `second` as little-endian `f32` bytes (`i16` heights as their
/// values), reusing their memory: a resize parks the water in the image and frame buffers,
/// which are rewritten after it anyway.
fn park_fields(pool: &Pool, first: &mut Vec<u8>, second: &mut Vec<u8>) {
    let cells = pool.solver().width() as usize * pool.solver().height() as usize;
    let park = |target: &mut Vec<u8>, values: &mut dyn Iterator<Item = f32>| {
        target.clear();
        target.resize(cells * 4, 0);
        for (bytes, value) in target.chunks_exact_mut(4).zip(values) {
            bytes.copy_from_slice(&value.to_le_bytes());
        }
    };
    match pool.solver() {
        Solver::Classic(solver) => {
            park(first, &mut solver.heights().iter().map(|&v| f32::from(v)));
            park(
                second,
                &mut solver.previous_heights().iter().map(|&v| f32::from(v)),
            );
        }
        Solver::Wave(solver) => {
            park(first, &mut solver.heights().iter().copied());
            park(second, &mut solver.previous_heights().iter().copied());
        }
        Solver::Dispersive(solver) => {
            park(first, &mut solver.heights().iter().copied());
            park(second, &mut solver.previous_heights().iter().copied());
        }
        Solver::Spring(solver) => {
            park(first, &mut solver.heights().iter().copied());
            park(second, &mut solver.velocities().iter().copied());
        }
    }
}

/// Resamples fields parked by [`park_fields`] from a `from` grid onto `to`'s solver (of the
/// kind they came from), `css_scale` being `to`'s CSS box over the old one.
fn unpark_fields(parked: [&[u8]; 2], from: (usize, usize), to: &mut Pool, css_scale: (f64, f64)) {
    let to_size = (to.solver().width() as usize, to.solver().height() as usize);
    let value = |bytes: &[u8], i: usize| {
        let b = &bytes[4 * i..4 * i + 4];
        f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let [first, second] = parked;
    let resample = |bytes: &[u8], target: &mut [f32]| {
        ripples::resample_field_by(
            |i| value(bytes, i),
            from,
            target,
            to_size,
            css_scale,
            |v| v as f32,
        );
    };
    match to.solver_mut() {
        Solver::Classic(solver) => {
            let Fields { current, previous } = solver.fields_mut();
            let to_i16 = |v: f64| v.round().clamp(-32768.0, 32767.0) as i16;
            ripples::resample_field_by(
                |i| value(first, i),
                from,
                current,
                to_size,
                css_scale,
                to_i16,
            );
            ripples::resample_field_by(
                |i| value(second, i),
                from,
                previous,
                to_size,
                css_scale,
                to_i16,
            );
        }
        Solver::Wave(solver) => {
            let Fields { current, previous } = solver.fields_mut();
            resample(first, current);
            resample(second, previous);
        }
        Solver::Dispersive(solver) => {
            let Fields { current, previous } = solver.fields_mut();
            resample(first, current);
            resample(second, previous);
        }
        Solver::Spring(solver) => {
            let SpringFields {
                heights,
                velocities,
            } = solver.fields_mut();
            resample(first, heights);
            resample(second, velocities);
        }
    }
}

/// Resamples the water of `from` onto `to`'s grid (see [`ripples::resample_field`]; `css_scale`
/// is `to`'s CSS box over `from`'s), walls of `to` dry; `false`, leaving `to` as it was, when
/// they run different solvers.
fn carry_water(from: &Solver, to: &mut Pool, css_scale: (f64, f64)) -> bool {
    let size = |solver: &Solver| (solver.width() as usize, solver.height() as usize);
    let (from_size, to_size) = (size(from), size(to.solver()));
    let floats = |source: &[f32], target: &mut [f32]| {
        ripples::resample_field(source, from_size, target, to_size, css_scale, |v| v as f32);
    };
    match (from, to.solver_mut()) {
        (Solver::Classic(old), Solver::Classic(new)) => {
            let Fields { current, previous } = new.fields_mut();
            let to_i16 = |v: f64| v.round().clamp(-32768.0, 32767.0) as i16;
            ripples::resample_field(
                old.heights(),
                from_size,
                current,
                to_size,
                css_scale,
                to_i16,
            );
            let previous_heights = old.previous_heights();
            ripples::resample_field(
                previous_heights,
                from_size,
                previous,
                to_size,
                css_scale,
                to_i16,
            );
        }
        (Solver::Wave(old), Solver::Wave(new)) => {
            let Fields { current, previous } = new.fields_mut();
            floats(old.heights(), current);
            floats(old.previous_heights(), previous);
        }
        (Solver::Dispersive(old), Solver::Dispersive(new)) => {
            let Fields { current, previous } = new.fields_mut();
            floats(old.heights(), current);
            floats(old.previous_heights(), previous);
        }
        (Solver::Spring(old), Solver::Spring(new)) => {
            let SpringFields {
                heights,
                velocities,
            } = new.fields_mut();
            floats(old.heights(), heights);
            floats(old.velocities(), velocities);
        }
        _ => return false,
    }
    if !to.obstacles().is_empty() {
        // Walls hold no water: dry them, as the solvers do after every step.
        let walls = to.obstacles().clone();
        to.solver_mut().dry(&walls);
    }
    true
}

/// The part of the segment `from -> to` inside `(x_min, y_min, x_max, y_max)` (Liang-Barsky),
/// `None` if it misses the rectangle.
fn clip_segment(
    from: (f64, f64),
    to: (f64, f64),
    (x_min, y_min, x_max, y_max): (f64, f64, f64, f64),
) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let (mut enter, mut leave) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, from.0 - x_min),
        (dx, x_max - from.0),
        (-dy, from.1 - y_min),
        (dy, y_max - from.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                enter = enter.max(t);
            } else {
                leave = leave.min(t);
            }
        }
    }
    (enter <= leave).then_some((
        (from.0 + enter * dx, from.1 + enter * dy),
        (from.0 + leave * dx, from.1 + leave * dy),
    ))
}

/// A pixel coordinate: any finite number, rounded down, saturated to the `i32` range.
fn position(name: &str, value: f64) -> Result<i32, WebError> {
    if value.is_finite() {
        Ok(value
            .floor()
            .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32)
    } else {
        Err(WebError::number(name, value, options::Rule::Finite))
    }
}

#[cfg(test)]
mod tests;
