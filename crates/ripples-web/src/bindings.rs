//! The `#[wasm_bindgen]` surface: argument and error conversion around [`WebPool`], nothing more.
//!
//! Numbers come in as `f64` (JavaScript's only number) and are checked by the Rust side, since
//! `wasm-bindgen` would wrap `-1` into `4294967295` for a `u32` parameter. Errors go out as
//! [`JsError`], which JavaScript receives as an ordinary thrown `Error` with the message. Method
//! names are the JavaScript ones (`setImage`, `framePtr`); `web/ripples.js` is the only intended
//! caller, but a page that uses this API directly gets the same checks.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use crate::background;
use crate::options::{self, OptionValue, WebError};
use crate::web_pool::{MAX_PIXELS, MAX_SIDE, WebPool};

fn js_error(error: WebError) -> JsError {
    JsError::new(&error.to_string())
}

/// One pool of water in a page (see [`WebPool`]); `free()` releases its memory.
#[wasm_bindgen]
#[derive(Debug)]
pub struct WasmPool {
    inner: WebPool,
    /// What the last failed [`frameStatus`](Self::frame_status) said.
    error: Option<String>,
}

/// [`WasmPool::frame_status`]: no step was due and nothing changed; nothing to draw.
pub const FRAME_UNCHANGED: u32 = 0;
/// [`WasmPool::frame_status`]: the frame buffer holds a new frame to draw.
pub const FRAME_DRAWN: u32 = 1;
/// [`WasmPool::frame_status`]: the frame failed; `takeError()` says why.
pub const FRAME_FAILED: u32 = 2;

#[wasm_bindgen]
impl WasmPool {
    /// A calm pool of `width x height` pixels over the built-in pool tiles, simulated
    /// `resolution` pixels per cell; `seed` seeds the rain.
    #[wasm_bindgen(constructor)]
    pub fn new(width: f64, height: f64, resolution: f64, seed: f64) -> Result<WasmPool, JsError> {
        // Any number is a fine seed: NaN and negatives saturate to 0.
        let inner = WebPool::new(width, height, resolution, seed as u64).map_err(js_error)?;
        Ok(Self { inner, error: None })
    }

    /// Pool pixels per grid cell, at least `resolution`, for a `width x height` pool whose
    /// water `setWater(rgba, horizon, focal)` lays in perspective, so that its plane grid holds
    /// at most `maxCells` cells; `resolution` without a horizon (NaN).
    #[wasm_bindgen(js_name = perspectiveResolution)]
    pub fn perspective_resolution(
        width: f64,
        height: f64,
        resolution: f64,
        rgba: &[u8],
        horizon: f64,
        focal: f64,
        max_cells: f64,
    ) -> Result<u32, JsError> {
        crate::web_pool::perspective_resolution(
            width, height, resolution, rgba, horizon, focal, max_cells,
        )
        .map_err(js_error)
    }

    /// Width in pixels.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.inner.width()
    }

    /// Height in pixels.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> u32 {
        self.inner.height()
    }

    /// Simulation grid width in cells.
    #[wasm_bindgen(getter, js_name = gridWidth)]
    pub fn grid_width(&self) -> u32 {
        self.inner.grid_width()
    }

    /// Simulation grid height in cells.
    #[wasm_bindgen(getter, js_name = gridHeight)]
    pub fn grid_height(&self) -> u32 {
        self.inner.grid_height()
    }

    /// Pool pixels per grid cell (the `resolution` the pool was made with).
    #[wasm_bindgen(getter, js_name = simScale)]
    pub fn sim_scale(&self) -> u32 {
        self.inner.pool().sim_scale()
    }

    /// Solver steps so far.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> f64 {
        self.inner.steps() as f64
    }

    /// Byte offset of the RGBA frame in the module's memory.
    #[wasm_bindgen(getter, js_name = framePtr)]
    pub fn frame_ptr(&self) -> usize {
        self.inner.frame_address()
    }

    /// Length of the frame in bytes (`width * height * 4`).
    #[wasm_bindgen(getter, js_name = frameLen)]
    pub fn frame_len(&self) -> usize {
        self.inner.frame_pixels().len()
    }

    /// Replaces the image under the water (RGBA, `width * height * 4` bytes).
    #[wasm_bindgen(js_name = setImage)]
    pub fn set_image(&mut self, rgba: &[u8]) -> Result<(), JsError> {
        self.inner.set_image(rgba).map_err(js_error)
    }

    /// Byte offset of the image under the water in the module's memory: a page writes a
    /// video's next frame there (RGBA, `imageLen` bytes) and calls `imageChanged()`, so that a
    /// new picture per frame allocates nothing (`setImage` copies its argument through a
    /// buffer the glue allocates for each call).
    #[wasm_bindgen(getter, js_name = imagePtr)]
    pub fn image_ptr(&self) -> usize {
        self.inner.image_address()
    }

    /// Length of the image in bytes (`width * height * 4`).
    #[wasm_bindgen(getter, js_name = imageLen)]
    pub fn image_len(&self) -> usize {
        self.inner.image().len()
    }

    /// The image was rewritten in place (through `imagePtr`): the next frame renders over it.
    #[wasm_bindgen(js_name = imageChanged)]
    pub fn image_changed(&mut self) {
        self.inner.image_changed();
    }

    /// Puts the built-in pool tiles back under the water.
    #[wasm_bindgen(js_name = useDefaultImage)]
    pub fn use_default_image(&mut self) -> Result<(), JsError> {
        self.inner.use_default_image().map_err(js_error)
    }

    /// Natural look: reflects a picture of the sky (RGBA, `width * height * 4` bytes; its top
    /// edge the zenith, its bottom edge the horizon, its middle column beyond the top of the
    /// pool picture: see [`WebPool::set_sky`]).
    #[wasm_bindgen(js_name = setSky)]
    pub fn set_sky(&mut self, rgba: &[u8], width: f64, height: f64) -> Result<(), JsError> {
        self.inner.set_sky(rgba, width, height).map_err(js_error)
    }

    /// Natural look: reflects the built-in sky again.
    #[wasm_bindgen(js_name = useDefaultSky)]
    pub fn use_default_sky(&mut self) {
        self.inner.use_default_sky();
    }

    /// `'classic'`, `'wave'` or `'spring'`.
    #[wasm_bindgen(js_name = setSolver)]
    pub fn set_solver(&mut self, name: &str) -> Result<(), JsError> {
        self.inner.set_solver(name).map_err(js_error)
    }

    /// `'reflect'` or `'absorb'`.
    #[wasm_bindgen(js_name = setBorder)]
    pub fn set_border(&mut self, name: &str) -> Result<(), JsError> {
        self.inner.set_border(name).map_err(js_error)
    }

    /// `'natural'`, `'classic'`, `'lit'` or `'spring'`.
    #[wasm_bindgen(js_name = setLook)]
    pub fn set_look(&mut self, name: &str) -> Result<(), JsError> {
        self.inner.set_look(name).map_err(js_error)
    }

    /// Refraction of the lit and spring looks relative to their defaults, `0..=16`.
    #[wasm_bindgen(js_name = setPerturbance)]
    pub fn set_perturbance(&mut self, perturbance: f64) -> Result<(), JsError> {
        self.inner.set_perturbance(perturbance).map_err(js_error)
    }

    /// How much the water shows, `0..=8` (1: the default; 0: the picture unmoved).
    #[wasm_bindgen(js_name = setPresence)]
    pub fn set_presence(&mut self, presence: f64) -> Result<(), JsError> {
        self.inner.set_presence(presence).map_err(js_error)
    }

    /// Pool pixels per CSS pixel: the natural look's lengths are CSS pixels times this.
    #[wasm_bindgen(js_name = setPixelsPerCssPixel)]
    pub fn set_pixels_per_css_pixel(&mut self, ratio: f64) -> Result<(), JsError> {
        self.inner.set_pixels_per_css_pixel(ratio).map_err(js_error)
    }

    /// The dispersive solver's gravity in CSS pixels per step², `(0, 0.5]`.
    #[wasm_bindgen(js_name = setGravity)]
    pub fn set_gravity(&mut self, gravity: f64) -> Result<(), JsError> {
        self.inner.set_gravity(gravity).map_err(js_error)
    }

    /// Natural look: CSS pixels of water over the picture, `0..=1024`.
    #[wasm_bindgen(js_name = setDepth)]
    pub fn set_depth(&mut self, depth: f64) -> Result<(), JsError> {
        self.inner.set_depth(depth).map_err(js_error)
    }

    /// Natural look: strength of the caustics, `0..=4`.
    #[wasm_bindgen(js_name = setCaustics)]
    pub fn set_caustics(&mut self, caustics: f64) -> Result<(), JsError> {
        self.inner.set_caustics(caustics).map_err(js_error)
    }

    /// Natural look: chromatic dispersion in units of water's own, `0..=50` (0: none).
    #[wasm_bindgen(js_name = setDispersion)]
    pub fn set_dispersion(&mut self, dispersion: f64) -> Result<(), JsError> {
        self.inner.set_dispersion(dispersion).map_err(js_error)
    }

    /// Natural look: the sun's height above the horizon in degrees, `1..=90`.
    #[wasm_bindgen(js_name = setSunElevation)]
    pub fn set_sun_elevation(&mut self, degrees: f64) -> Result<(), JsError> {
        self.inner.set_sun_elevation(degrees).map_err(js_error)
    }

    /// Natural look: the sun's direction in degrees, `-360..=360`.
    #[wasm_bindgen(js_name = setSunAzimuth)]
    pub fn set_sun_azimuth(&mut self, degrees: f64) -> Result<(), JsError> {
        self.inner.set_sun_azimuth(degrees).map_err(js_error)
    }

    /// Natural look: the water's colour, `#rrggbb`, `#rgb` or `rgb(r, g, b)`.
    #[wasm_bindgen(js_name = setWaterColour)]
    pub fn set_water_colour(&mut self, colour: &str) -> Result<(), JsError> {
        self.inner.set_water_colour(colour).map_err(js_error)
    }

    /// Natural look: CSS pixels of water after which white light has the water's colour.
    #[wasm_bindgen(js_name = setClarity)]
    pub fn set_clarity(&mut self, clarity: f64) -> Result<(), JsError> {
        self.inner.set_clarity(clarity).map_err(js_error)
    }

    /// Natural look: CSS pixels of surface height per unit of the simulation's height.
    #[wasm_bindgen(js_name = setWaveHeight)]
    pub fn set_wave_height(&mut self, wave_height: f64) -> Result<(), JsError> {
        self.inner.set_wave_height(wave_height).map_err(js_error)
    }

    /// Mean raindrops per second.
    #[wasm_bindgen(js_name = setRain)]
    pub fn set_rain(&mut self, per_second: f64) -> Result<(), JsError> {
        self.inner.set_rain(per_second).map_err(js_error)
    }

    /// Solver steps per second of page time.
    #[wasm_bindgen(js_name = setStepsPerSecond)]
    pub fn set_steps_per_second(&mut self, steps: f64) -> Result<(), JsError> {
        self.inner.set_steps_per_second(steps).map_err(js_error)
    }

    /// The pointer's stone radius in pool pixels (raindrops scale with it).
    #[wasm_bindgen(js_name = setDropRadius)]
    pub fn set_drop_radius(&mut self, radius: f64) -> Result<(), JsError> {
        self.inner.set_drop_radius(radius).map_err(js_error)
    }

    /// Walls from an RGBA mask the size of the pool: opaque dark pixels are walls.
    #[wasm_bindgen(js_name = setObstacles)]
    pub fn set_obstacles(&mut self, rgba: &[u8]) -> Result<(), JsError> {
        self.inner.set_obstacles(rgba).map_err(js_error)
    }

    /// The water of a photograph: an RGBA mask the size of the pool whose opaque light pixels
    /// are water (empty: the whole picture), and with a horizon row (NaN: none) the water in
    /// perspective, with a focal length in pixels (NaN: a 60-degree field of view).
    #[wasm_bindgen(js_name = setWater)]
    pub fn set_water(&mut self, rgba: &[u8], horizon: f64, focal: f64) -> Result<(), JsError> {
        self.inner.set_water(rgba, horizon, focal).map_err(js_error)
    }

    /// Removes every wall.
    #[wasm_bindgen(js_name = clearObstacles)]
    pub fn clear_obstacles(&mut self) {
        self.inner.clear_obstacles();
    }

    /// Wall cells in the grid.
    #[wasm_bindgen(getter, js_name = wallCells)]
    pub fn wall_cells(&self) -> usize {
        self.inner.wall_cells()
    }

    /// Drops a stone at pool pixel `(x, y)`.
    #[wasm_bindgen(js_name = drop)]
    pub fn drop_stone(
        &mut self,
        x: f64,
        y: f64,
        radius: f64,
        strength: f64,
    ) -> Result<(), JsError> {
        self.inner
            .drop_stone(x, y, radius, strength)
            .map_err(js_error)
    }

    /// Drags a stone from `(x0, y0)` to `(x1, y1)`, leaving no gaps.
    pub fn swipe(
        &mut self,
        x0: f64,
        y0: f64,
        x1: f64,
        y1: f64,
        radius: f64,
        strength: f64,
    ) -> Result<(), JsError> {
        self.inner
            .swipe((x0, y0), (x1, y1), radius, strength)
            .map_err(js_error)
    }

    /// Puts a fingertip that follows a pointer in the water at `(x, y)` (pool pixels), a disc of
    /// `radius` pixels pressing with `strength` (a stone's scale); returns its handle.
    #[wasm_bindgen(js_name = addFinger)]
    pub fn add_finger(
        &mut self,
        x: f64,
        y: f64,
        radius: f64,
        strength: f64,
    ) -> Result<u32, JsError> {
        self.inner
            .add_finger(x, y, radius, strength)
            .map_err(js_error)
    }

    /// Moves a fingertip to `(x, y)`; it presses all along the way, so it leaves a wake.
    /// `false` for a handle this pool does not know.
    #[wasm_bindgen(js_name = moveFinger)]
    pub fn move_finger(&mut self, finger: u32, x: f64, y: f64) -> Result<bool, JsError> {
        self.inner.move_finger(finger, x, y).map_err(js_error)
    }

    /// Takes a fingertip out of the water.
    #[wasm_bindgen(js_name = liftFinger)]
    pub fn lift_finger(&mut self, finger: u32) {
        self.inner.lift_finger(finger);
    }

    /// Calms the water.
    pub fn calm(&mut self) {
        self.inner.calm();
    }

    /// Takes the water, step count and clock of `old` (the same element's previous pool), its
    /// box `scaleX x scaleY` times as large in CSS pixels as this one's; `false` when the
    /// solvers differ and this pool stays calm (see [`WebPool::take_water`]).
    #[wasm_bindgen(js_name = takeWater)]
    pub fn take_water(&mut self, old: &WasmPool, scale_x: f64, scale_y: f64) -> bool {
        self.inner.take_water(&old.inner, (scale_x, scale_y))
    }

    /// Changes this pool to `width x height` pixels in place, keeping its water (resampled; the
    /// new CSS box is `scaleX x scaleY` times the old one) and reusing its memory; the image,
    /// walls and sky must be set again (see [`WebPool::resize`]). A size beyond the limits
    /// throws and the pool stays as it was.
    pub fn resize(
        &mut self,
        width: f64,
        height: f64,
        scale_x: f64,
        scale_y: f64,
    ) -> Result<(), JsError> {
        self.inner
            .resize(width, height, (scale_x, scale_y))
            .map_err(js_error)
    }

    /// Starts a new time base (after a pause).
    #[wasm_bindgen(js_name = resetClock)]
    pub fn reset_clock(&mut self) {
        self.inner.reset_clock();
    }

    /// Advances to frame time `now_ms` and renders if anything changed; `true` when the frame
    /// buffer holds a new frame to draw.
    pub fn frame(&mut self, now_ms: f64) -> Result<bool, JsError> {
        self.inner.frame(now_ms).map_err(js_error)
    }

    /// [`frame`](Self::frame) for a page's frame loop, which must not allocate: a `Result`
    /// crosses the boundary as a JavaScript array made on every call, a number does not.
    /// Returns [`FRAME_UNCHANGED`], [`FRAME_DRAWN`] or [`FRAME_FAILED`]; after a failure
    /// `takeError()` gives the message.
    #[wasm_bindgen(js_name = frameStatus)]
    pub fn frame_status(&mut self, now_ms: f64) -> u32 {
        match self.inner.frame(now_ms) {
            Ok(false) => FRAME_UNCHANGED,
            Ok(true) => FRAME_DRAWN,
            Err(error) => {
                self.error = Some(error.to_string());
                FRAME_FAILED
            }
        }
    }

    /// The message of the last [`frameStatus`](Self::frame_status) that failed, once.
    #[wasm_bindgen(js_name = takeError)]
    pub fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    /// Whether a GPU draws the frames (WebGL2): the pool then only steps, and the page draws
    /// from `prepareSurface()`; `false` renders into the frame buffer again.
    #[wasm_bindgen(js_name = setGpu)]
    pub fn set_gpu(&mut self, gpu: bool) {
        self.inner.set_gpu(gpu);
    }

    /// Whether a GPU draws the frames (see `setGpu`).
    #[wasm_bindgen(getter)]
    pub fn gpu(&self) -> bool {
        self.inner.gpu()
    }

    /// Whether the page's GPU steps the water from now on (web/gl/simulation.js): steps and
    /// stones then wait for `takeGpuWork()` and the water here stays calm (see
    /// [`WebPool::set_gpu_water`]); an error for a solver the GPU does not step.
    #[wasm_bindgen(js_name = setGpuWater)]
    pub fn set_gpu_water(&mut self, on: bool) -> Result<(), JsError> {
        self.inner.set_gpu_water(on).map_err(js_error)
    }

    /// Whether the page's GPU steps the water (see `setGpuWater`).
    #[wasm_bindgen(getter, js_name = gpuWater)]
    pub fn gpu_water(&self) -> bool {
        self.inner.gpu_water()
    }

    /// Counts the stones and presses queued for the GPU (a number below 2^53): what a
    /// measurement of the water the GPU takes now is of.
    #[wasm_bindgen(getter, js_name = gpuDisturbances)]
    pub fn gpu_disturbances(&self) -> f64 {
        self.inner.gpu_disturbances() as f64
    }

    /// The GPU measured its water when `gpuDisturbances` was `mark`: no height beyond
    /// `largest` from rest.
    #[wasm_bindgen(js_name = gpuMeasured)]
    pub fn gpu_measured(&mut self, mark: f64, largest: f32) {
        self.inner.gpu_measured(mark as u64, largest);
    }

    /// The water the GPU holds to carry onto this pool's grid first: `[from width, from
    /// height, box scale x, box scale y]`, or empty (see
    /// [`crate::gpu_water::GpuQueue::take_carry`]).
    #[wasm_bindgen(js_name = takeGpuCarry)]
    pub fn take_gpu_carry(&mut self) -> Vec<f32> {
        self.inner.take_gpu_carry()
    }

    /// What the GPU does next: `[clear, steps, stone count, the stones, press count, the
    /// presses]` in grid cells (see [`crate::gpu_water::GpuQueue::take`]).
    #[wasm_bindgen(js_name = takeGpuWork)]
    pub fn take_gpu_work(&mut self) -> Vec<f32> {
        self.inner.take_gpu_work()
    }

    /// The dispersive step's constants `[current, laplacian, previous]`, or `undefined` for
    /// another solver.
    #[wasm_bindgen(js_name = dispersiveCoefficients)]
    pub fn dispersive_coefficients(&self) -> Option<Vec<f32>> {
        self.inner.dispersive_coefficients().map(|c| c.to_vec())
    }

    /// The wave solver's substep constants and substeps per step, for the GPU's steps (see
    /// `WebPool::wave_coefficients`), or undefined for another solver.
    #[wasm_bindgen(js_name = waveCoefficients)]
    pub fn wave_coefficients(&self) -> Option<Vec<f32>> {
        self.inner.wave_coefficients().map(|c| c.to_vec())
    }

    /// The natural look's surface constants for the GPU's surface pass (see
    /// [`ripples::Pool::natural_surface_constants`]).
    #[wasm_bindgen(js_name = naturalSurfaceConstants)]
    pub fn natural_surface_constants(&self) -> Vec<f32> {
        self.inner.natural_surface_constants().to_vec()
    }

    /// Writes the water's surface for the look in use (four floats per grid cell, see
    /// [`WebPool::prepare_surface`]) and returns its byte offset in the module's memory
    /// (`surfaceLen` floats); 0 after a failure, which `takeError()` explains.
    #[wasm_bindgen(js_name = prepareSurface)]
    pub fn prepare_surface(&mut self) -> usize {
        match self.inner.prepare_surface() {
            Ok(surface) => surface.as_ptr() as usize,
            Err(error) => {
                self.error = Some(error.to_string());
                0
            }
        }
    }

    /// Floats in the surface `prepareSurface()` writes (`4 * gridWidth * gridHeight`).
    #[wasm_bindgen(getter, js_name = surfaceLen)]
    pub fn surface_len(&self) -> usize {
        4 * self.inner.grid_width() as usize * self.inner.grid_height() as usize
    }

    /// The look's constants for a GPU's shaders: [`ripples::ShaderConstants`], flattened.
    #[wasm_bindgen(js_name = shaderConstants)]
    pub fn shader_constants(&self) -> Vec<f32> {
        self.inner.shader_constants().to_vec()
    }

    /// The walls as an RGBA layer over the water for a GPU (`width * height * 4` bytes: stone
    /// with alpha 255, shaded floor `[kept, 0, 0, 128]`), or `undefined` without walls.
    #[wasm_bindgen(js_name = wallLayer)]
    pub fn wall_layer(&mut self) -> Result<Option<Vec<u8>>, JsError> {
        self.inner.wall_layer().map_err(js_error)
    }

    /// The natural look's sky table, RGBA bytes (`SKY_SIDE` texels square: 64).
    #[wasm_bindgen(js_name = skyTable)]
    pub fn sky_table(&mut self) -> Vec<u8> {
        self.inner.sky_table().iter().flatten().copied().collect()
    }

    /// Counts the image's changes, for a GPU renderer's uploads.
    #[wasm_bindgen(getter, js_name = imageVersion)]
    pub fn image_version(&self) -> u32 {
        self.inner.image_version()
    }

    /// Counts changes of the water region (`setWater`, a resize), for a GPU renderer's
    /// uploads of its mask and tables.
    #[wasm_bindgen(getter, js_name = waterVersion)]
    pub fn water_version(&self) -> u32 {
        self.inner.water_version()
    }

    /// Counts changes of the walls and the edges, for a GPU that steps the water.
    #[wasm_bindgen(getter, js_name = boundaryVersion)]
    pub fn boundary_version(&self) -> u32 {
        self.inner.boundary_version()
    }

    /// The walls for a GPU that steps the water: a byte per grid cell, 255 on a wall (empty
    /// without walls).
    #[wasm_bindgen(js_name = wallMask)]
    pub fn wall_mask(&self) -> Vec<u8> {
        self.inner.wall_mask()
    }

    /// The absorbing edge's damping factors at 0, 1, ... cells from the edge (empty for
    /// reflecting edges), for a GPU that steps the water.
    #[wasm_bindgen(js_name = spongeProfile)]
    pub fn sponge_profile(&self) -> Vec<f32> {
        self.inner.sponge_profile()
    }

    /// Whether `setWater` limited the water to a mask or laid it in perspective.
    #[wasm_bindgen(getter, js_name = hasWaterRegion)]
    pub fn has_water_region(&self) -> bool {
        self.inner.has_water_region()
    }

    /// Whether the water lies in perspective (drawn with the photo look).
    #[wasm_bindgen(getter, js_name = inPerspective)]
    pub fn in_perspective(&self) -> bool {
        self.inner.in_perspective()
    }

    /// The water region's mask for a GPU: one byte per pool pixel, 255 on water, 0 on land
    /// (see [`WebPool::water_mask`]).
    #[wasm_bindgen(js_name = waterMask)]
    pub fn water_mask(&mut self) -> Result<Vec<u8>, JsError> {
        self.inner
            .water_mask()
            .map(<[u8]>::to_vec)
            .map_err(js_error)
    }

    /// The photo look's rows for a GPU: eight floats per pool row (see
    /// [`WebPool::photo_rows`]).
    #[wasm_bindgen(js_name = photoRows)]
    pub fn photo_rows(&mut self) -> Result<Vec<f32>, JsError> {
        self.inner
            .photo_rows()
            .map(<[f32]>::to_vec)
            .map_err(js_error)
    }

    /// The photo look's uniforms for a GPU (see [`WebPool::photo_uniforms`]).
    #[wasm_bindgen(js_name = photoUniforms)]
    pub fn photo_uniforms(&mut self) -> Result<Vec<f32>, JsError> {
        self.inner
            .photo_uniforms()
            .map(|u| u.to_vec())
            .map_err(js_error)
    }

    /// Writes the slopes summed down each grid column for the photo look (see
    /// [`WebPool::prepare_photo_slopes`]) and returns their byte offset in the module's memory
    /// (`photoSlopesLen` floats); 0 after a failure, which `takeError()` explains.
    #[wasm_bindgen(js_name = preparePhotoSlopes)]
    pub fn prepare_photo_slopes(&mut self) -> usize {
        match self.inner.prepare_photo_slopes() {
            Ok(sums) => sums.as_ptr() as usize,
            Err(error) => {
                self.error = Some(error.to_string());
                0
            }
        }
    }

    /// Floats `preparePhotoSlopes()` writes: `2 * gridWidth * (gridHeight + 1)`.
    #[wasm_bindgen(getter, js_name = photoSlopesLen)]
    pub fn photo_slopes_len(&self) -> usize {
        2 * self.inner.grid_width() as usize * (self.inner.grid_height() as usize + 1)
    }

    /// Whether the water is still and nothing is scheduled (see [`WebPool::is_calm`]).
    #[wasm_bindgen(js_name = isCalm)]
    pub fn is_calm(&self) -> bool {
        self.inner.is_calm()
    }

    /// Runs `steps` steps (`0..=1000`) and renders, whatever the clock says.
    pub fn advance(&mut self, steps: f64) -> Result<(), JsError> {
        let steps = options::whole("steps", steps, 0, 1000).map_err(js_error)?;
        self.inner.advance(steps).map_err(js_error)
    }
}

impl WasmPool {
    /// The pool inside, for Rust callers and tests.
    pub fn inner(&self) -> &WebPool {
        &self.inner
    }
}

/// Checks option `name` of `Ripples.attach` / `set` and returns the value to use; throws an
/// `Error` naming the option and the value when it is wrong.
#[wasm_bindgen(js_name = checkOption)]
pub fn check_option(name: &str, value: JsValue) -> Result<JsValue, JsError> {
    let value = if value.is_null() || value.is_undefined() {
        OptionValue::Null
    } else if let Some(number) = value.as_f64() {
        OptionValue::Number(number)
    } else if let Some(text) = value.as_string() {
        OptionValue::Text(text)
    } else if let Some(flag) = value.as_bool() {
        OptionValue::Bool(flag)
    } else if Array::is_array(&value) {
        let array = Array::from(&value);
        match array.iter().map(|item| item.as_f64()).collect() {
            Some(numbers) => OptionValue::Numbers(numbers),
            None => OptionValue::Other("an array that is not all numbers".to_string()),
        }
    } else {
        let kind = value.js_typeof().as_string().unwrap_or_default();
        OptionValue::Other(format!("a value of type {kind}"))
    };
    Ok(
        match options::check_option(name, value).map_err(js_error)? {
            OptionValue::Number(number) => JsValue::from_f64(number),
            OptionValue::Text(text) => JsValue::from_str(&text),
            OptionValue::Bool(flag) => JsValue::from_bool(flag),
            OptionValue::Numbers(numbers) => numbers
                .into_iter()
                .map(JsValue::from_f64)
                .collect::<Array>()
                .into(),
            OptionValue::Null | OptionValue::Other(_) => JsValue::NULL,
        },
    )
}

/// Lays out a CSS background layer (see [`background::layout`]): returns
/// `[x, y, width, height, repeatX, repeatY]` in the box's CSS pixels (repeats as 0 or 1).
#[wasm_bindgen(js_name = backgroundLayout)]
pub fn background_layout(
    box_width: f64,
    box_height: f64,
    image_width: f64,
    image_height: f64,
    size: &str,
    position: &str,
    repeat: &str,
) -> Result<Vec<f64>, JsError> {
    let p = background::layout(
        (box_width, box_height),
        (image_width, image_height),
        size,
        position,
        repeat,
    )
    .map_err(js_error)?;
    Ok(vec![
        p.x,
        p.y,
        p.width,
        p.height,
        f64::from(u8::from(p.repeat_x)),
        f64::from(u8::from(p.repeat_y)),
    ])
}

/// Name of the SIMD code the module runs (`simd128` when built as `web/build.sh` does).
#[wasm_bindgen]
pub fn backend() -> String {
    WebPool::backend().to_string()
}

/// Every this many drawn frames a running page asks whether its water is calm (the first frame
/// after the loop starts asks too): the core's [`ripples::SleepWhenCalm`], the window's rule,
/// read by `web/loop.js` so that the number is written once.
#[wasm_bindgen(js_name = calmCheckFrames)]
pub fn calm_check_frames() -> u32 {
    ripples::SleepWhenCalm::DEFAULT.check_every
}

/// `[largest side, most pixels]` of one pool.
#[wasm_bindgen]
pub fn limits() -> Vec<u32> {
    vec![MAX_SIDE, MAX_PIXELS]
}

/// The dispersive solver's pyramid level weights (see `DispersiveSolver::LEVEL_WEIGHTS`), for
/// the GPU's passes.
#[wasm_bindgen(js_name = dispersiveLevelWeights)]
pub fn dispersive_level_weights() -> Vec<f32> {
    ripples::DispersiveSolver::LEVEL_WEIGHTS.to_vec()
}
