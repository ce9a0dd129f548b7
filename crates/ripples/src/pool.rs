//! A pool of water over an image: the one type most programs need.
//!
//! [`Pool`] ties a solver to an image size and a simulation scale, so callers think in image
//! pixels while the solver works on a grid `sim_scale` times smaller (the Frogger seed's trick
//! for slow devices). Stones, swipes and rain are given in image pixels and mapped to grid
//! cells; rendering upsamples the field. The pool owns its scratch buffers, so the frame loop
//! `step` + `render` allocates nothing.

use crate::disturbances::body::{Bodies, Body, BodyId};
use crate::disturbances::float::{DEFAULT_FLOAT_GRAVITY, Float, FloatId, Floats, WaterView};
use crate::disturbances::sources::{Generator, Reach, Stone, stamp_polyline};
use crate::error::Error;
use crate::kernels::natural::PixelOrder;
use crate::kernels::{self, Backend};
use crate::limits::{check_radius, check_sim_scale, check_size, check_strength};
use crate::looks::walls::WallLook;
use crate::looks::{FieldView, Heights, Look, Renderer, SkyImage};
use crate::photo::look::{PhotoGeometry, PhotoLook, PhotoRenderer};
use crate::photo::perspective::Perspective;
use crate::photo::water_region::WaterRegion;
use crate::simulation::boundary::{Boundary, Obstacles, Sponge};
use crate::simulation::solver::{Solver, SolverKind};

/// Water over an image of `width x height` pixels.
///
/// A program that owns an RGBA framebuffer drives it like this:
///
/// ```
/// use ripples::{Look, Pool};
///
/// let (width, height) = (160, 120);
/// let background = ripples::pool_tiles(width, height)?; // any RGBA image of that size
/// let mut frame = vec![0u8; background.len()];
///
/// let mut pool = Pool::new(width, height)?;
/// pool.drop_stone(80, 60, 6, 128)?; // x, y, radius, strength
/// pool.swipe(&[[10, 10], [150, 100]], 3, 40)?;
/// for _ in 0..30 {
///     pool.step();
///     pool.render(&Look::default(), &background, &mut frame)?;
/// }
/// assert_ne!(frame, background);
/// # Ok::<(), ripples::Error>(())
/// ```
///
/// `u32` framebuffers (`0xAARRGGBB`, as softbuffer uses) work the same way with
/// [`render_u32`](Self::render_u32).
///
/// Every method that takes a value a user chose checks it as the `ripples` command does, and
/// refuses it with an [`Error`] naming the value before anything changes: a radius outside
/// `1..=4096`, a strength outside `0..=32767`, a [`Look`] with a parameter out of range. Positions
/// may lie anywhere: what falls outside the pool is clipped.
#[derive(Debug, Clone)]
pub struct Pool {
    width: u32,
    height: u32,
    sim_scale: u32,
    solver: Solver,
    obstacles: Obstacles,
    boundary: Boundary,
    sponge: Option<Sponge>,
    generators: Vec<Generator>,
    bodies: Bodies,
    floats: Floats,
    steps: u64,
    renderer: Renderer,
    wall_look: WallLook,
    /// Where the picture holds water, and the plane in perspective (`None`: all of it, from
    /// above).
    water: Option<WaterRegion>,
    photo: PhotoRenderer,
    photo_look: PhotoLook,
    /// The cells of a swipe's stretches over water (kept between swipes).
    swipe_cells: Vec<[i32; 2]>,
    /// The kernels' backend this pool chose ([`set_backend`](Self::set_backend)); `None`: the
    /// process default ([`crate::set_backend`]) at each step and render.
    backend: Option<Backend>,
}

impl Pool {
    /// A calm pool over a `width x height` image, simulated at full resolution by the
    /// dispersive solver ([`SolverKind::default`]; [`set_solver`](Self::set_solver) picks
    /// another).
    pub fn new(width: u32, height: u32) -> Result<Self, Error> {
        Self::with_sim_scale(width, height, 1)
    }

    /// A calm pool over a `width x height` image, simulated on a grid `sim_scale` times smaller
    /// along each axis (`ceil(width / sim_scale) x ceil(height / sim_scale)` cells;
    /// `sim_scale` in `1..=16`).
    pub fn with_sim_scale(width: u32, height: u32, sim_scale: u32) -> Result<Self, Error> {
        let (width, height) = check_size(u64::from(width), u64::from(height))?;
        let sim_scale = check_sim_scale(i64::from(sim_scale))?;
        let (grid_width, grid_height) = (width.div_ceil(sim_scale), height.div_ceil(sim_scale));
        let solver = Solver::new(SolverKind::default(), grid_width, grid_height)?;
        Ok(Self {
            width,
            height,
            sim_scale,
            solver,
            obstacles: Obstacles::new(grid_width as usize, grid_height as usize)?,
            boundary: Boundary::Reflect,
            sponge: None,
            generators: Vec::new(),
            bodies: Bodies::default(),
            floats: Floats::default(),
            steps: 0,
            renderer: Renderer::new(width as usize, grid_width as usize),
            wall_look: WallLook::default(),
            water: None,
            photo: PhotoRenderer::default(),
            photo_look: PhotoLook::default(),
            swipe_cells: Vec::new(),
            backend: None,
        })
    }

    /// Makes this pool's solver and renderer run `backend`'s kernels, whatever the process
    /// default ([`crate::set_backend`]) is: two pools in one program may compare backends, or
    /// one may run the scalar reference. Every backend gives the same water and frames, bit for
    /// bit. Fails, changing nothing, if the CPU lacks it.
    ///
    /// ```
    /// use ripples::{Backend, Pool};
    ///
    /// let mut pool = Pool::new(64, 48)?;
    /// assert_eq!(pool.backend(), ripples::backend());
    /// pool.set_backend(Backend::Scalar)?;
    /// assert_eq!(pool.backend(), Backend::Scalar);
    /// # Ok::<(), ripples::Error>(())
    /// ```
    pub fn set_backend(&mut self, backend: Backend) -> Result<(), Error> {
        kernels::check_available(backend)?;
        self.backend = Some(backend);
        Ok(())
    }

    /// The kernels' backend this pool runs: its own ([`set_backend`](Self::set_backend)), else
    /// the process default ([`crate::backend`], the best the CPU has unless
    /// [`crate::set_backend`] chose another).
    pub fn backend(&self) -> Backend {
        self.backend.unwrap_or_else(kernels::default_backend)
    }

    /// Limits the water to part of the picture and, with a [`Perspective`], lays it on the
    /// water plane a photograph shows.
    ///
    /// `mask` holds one flag per picture pixel (`width * height`, `true` = water; `None`: the
    /// whole picture). Outside it the picture is drawn untouched in every frame, bit for bit;
    /// waves reflect at its edge as at a shore; stones, swipes and rain fall only on water.
    /// Without a perspective the water is seen from above, as before, with the look the render
    /// asks for.
    ///
    /// With a perspective the waves are simulated on the plane, in plane units (one unit is one
    /// picture pixel wide at the nearest water row, so radii and speeds keep their sizes there
    /// and shrink with distance), on a grid of `sim_scale` units per cell reaching towards the
    /// horizon until a unit is a quarter of a pixel wide (see [`crate::photo::perspective`]); stones
    /// and swipes are still placed in picture pixels, where they land on the plane. The pool
    /// then renders with the [photo look](PhotoLook) (see [`set_photo_look`](Self::set_photo_look)).
    ///
    /// The water is calmed and the solver made anew at the grid's size, of the same kind with
    /// default parameters; walls are cleared. Bodies and floats do not follow a perspective yet:
    /// a pool that holds any refuses one, and one in perspective refuses them. A mask of the
    /// wrong length, a mask with no water, a horizon below all the water or a focal length out
    /// of range is an [`Error`] naming it, and the pool is left as it was.
    ///
    /// ```
    /// use ripples::{Look, Perspective, Pool};
    ///
    /// let (width, height) = (96, 64);
    /// let photo = ripples::pool_tiles(width, height)?;
    /// // The lower half is a lake; its horizon lies at row 20.
    /// let mask: Vec<bool> = (0..width * height).map(|i| i / width >= 32).collect();
    /// let mut pool = Pool::new(width, height)?;
    /// pool.set_water(Some(&mask), Some(Perspective::new(20.0)))?;
    /// pool.drop_stone(48, 50, 4, 200)?;
    /// let mut frame = vec![0u8; photo.len()];
    /// for _ in 0..10 {
    ///     pool.step();
    ///     pool.render(&Look::default(), &photo, &mut frame)?;
    /// }
    /// let land = (width * 32 * 4) as usize;
    /// assert_eq!(frame[..land], photo[..land]);
    /// assert_ne!(frame, photo);
    /// # Ok::<(), ripples::Error>(())
    /// ```
    pub fn set_water(
        &mut self,
        mask: Option<&[bool]>,
        perspective: Option<Perspective>,
    ) -> Result<(), Error> {
        if let Some(mask) = mask {
            let expected = self.width as usize * self.height as usize;
            self.check_len("water mask", mask.len(), expected, 1)?;
        }
        if perspective.is_some() && (!self.bodies.is_empty() || !self.floats.is_empty()) {
            return Err(Error::NoPerspective {
                what: "bodies and floats",
                advice: "take them out first",
            });
        }
        let region = WaterRegion::new(
            self.width,
            self.height,
            self.sim_scale,
            mask,
            perspective.as_ref(),
        )?;
        let (grid_width, grid_height) = region.grid_size();
        self.solver = Solver::new(self.solver.kind(), grid_width as u32, grid_height as u32)?;
        self.obstacles = Obstacles::new(grid_width, grid_height)?;
        self.set_boundary(self.boundary);
        self.photo = PhotoRenderer::new(&region, self.width as usize, self.height as usize);
        if region.plane().is_none() {
            self.renderer = Renderer::new(self.width as usize, grid_width);
        }
        self.water = Some(region);
        Ok(())
    }

    /// Whether [`set_water`](Self::set_water) limited the water or laid it in perspective.
    pub fn has_water_region(&self) -> bool {
        self.water.is_some()
    }

    /// Whether the pool's water lies on a plane in perspective ([`set_water`](Self::set_water)).
    pub fn in_perspective(&self) -> bool {
        self.water
            .as_ref()
            .is_some_and(|water| water.plane().is_some())
    }

    /// Whether picture pixel `(x, y)` is water that moves: inside the mask, and in perspective
    /// within the grid's reach. Everywhere in a pool without [`set_water`](Self::set_water).
    pub fn is_water(&self, x: i32, y: i32) -> bool {
        match &self.water {
            Some(water) => water.is_live_water(x, y),
            None => x >= 0 && y >= 0 && x < self.width as i32 && y < self.height as i32,
        }
    }

    /// The grid's reach in perspective: `[first_row, unit]`, the first picture row the waves
    /// reach and how wide a plane unit is there, in pixels; `[plane width, plane depth]`, the
    /// plane it covers in plane units; `None` without a perspective.
    pub fn plane_reach(&self) -> Option<([f64; 2], [f64; 2])> {
        let plane = self.water.as_ref()?.plane()?;
        Some(([plane.first_row as f64, plane.far_unit], plane.extent()))
    }

    /// The photo look's geometry in perspective: the camera and each picture row's place on
    /// the plane grid, the tables the CPU renderer draws from and a GPU renderer reads too;
    /// `None` without a perspective.
    pub fn photo_geometry(&self) -> Option<&PhotoGeometry> {
        self.in_perspective().then(|| self.photo.geometry())
    }

    /// One flag per picture pixel, `true` where [`set_water`](Self::set_water) made the picture
    /// water (its mask, less everything at or above a perspective's horizon); `None` without a
    /// water region.
    pub fn water_pixels(&self) -> Option<&[bool]> {
        self.water.as_ref().map(WaterRegion::water)
    }

    /// Sets how the photo look draws the water in perspective, once [`PhotoLook::validate`]
    /// accepts it.
    pub fn set_photo_look(&mut self, look: PhotoLook) -> Result<(), Error> {
        look.validate()?;
        self.photo_look = look;
        Ok(())
    }

    /// The photo look in use.
    pub fn photo_look(&self) -> &PhotoLook {
        &self.photo_look
    }

    /// The size of the area [`Rain`](crate::Rain) falls on: the picture, or in perspective the
    /// plane the grid covers, in plane units; drop its stones with
    /// [`drop_rain`](Self::drop_rain), so rain falls evenly over the water, not the picture.
    pub fn rain_area(&self) -> (u32, u32) {
        match self.water.as_ref().and_then(WaterRegion::plane) {
            Some(plane) => {
                let [width, depth] = plane.extent();
                (width as u32, depth as u32)
            }
            None => (self.width, self.height),
        }
    }

    /// Drops a raindrop given in [`rain_area`](Self::rain_area) coordinates, checked as
    /// [`drop_stone`](Self::drop_stone) checks; one that falls on land makes no ripple.
    pub fn drop_rain(&mut self, stone: Stone) -> Result<(), Error> {
        let (radius, strength) = check_stone(stone.radius, stone.strength)?;
        self.press_rain(stone.x, stone.y, radius, strength);
        Ok(())
    }

    /// [`drop_rain`](Self::drop_rain) with a radius and strength already checked.
    pub(crate) fn press_rain(&mut self, x: i32, y: i32, radius: u32, strength: i16) {
        if !self.in_perspective() {
            self.press_stone(x, y, radius, strength);
            return;
        }
        let scale = self.sim_scale as i32;
        let (cell_x, cell_y) = (x.div_euclid(scale), y.div_euclid(scale));
        if self.walls().is_wall(i64::from(cell_x), i64::from(cell_y)) {
            return;
        }
        let radius = self.grid_radius(radius);
        self.solver
            .drop_stone(cell_x, cell_y, radius, f32::from(strength));
    }

    /// The cells the solver keeps dry: the walls, and the land outside the water.
    fn walls(&self) -> &Obstacles {
        match &self.water {
            Some(water) => water.current_walls(),
            None => &self.obstacles,
        }
    }

    /// Brings the land-and-walls union up to date with the walls.
    fn refresh_walls(&mut self) {
        if let Some(water) = &mut self.water {
            water.walls(&self.obstacles);
        }
    }

    /// The grid cell an image pixel falls in: `pixel / sim_scale`, or in perspective the cell of
    /// the plane it shows (`None` at or above the horizon).
    fn cell_of(&self, x: i32, y: i32) -> Option<[i32; 2]> {
        cell_of_pixel(self.water.as_ref(), self.sim_scale, x, y)
    }

    /// Switches to a calm solver of another kind (walls, boundary and generators stay).
    pub fn set_solver(&mut self, kind: SolverKind) -> Result<(), Error> {
        self.solver = Solver::new(kind, self.solver.width(), self.solver.height())?;
        Ok(())
    }

    /// What happens at the edges: reflection (the default) or open water.
    pub fn set_boundary(&mut self, boundary: Boundary) {
        self.boundary = boundary;
        self.sponge = match boundary {
            Boundary::Reflect => None,
            Boundary::Absorb => Some(Sponge::new(
                self.solver.width() as usize,
                self.solver.height() as usize,
            )),
        };
    }

    /// The edge condition in use.
    pub fn boundary(&self) -> Boundary {
        self.boundary
    }

    /// The damping band of an absorbing edge (`None` for reflecting edges), as the solver's
    /// step applies it: for water stepped elsewhere (the page's GPU).
    pub fn sponge(&self) -> Option<&Sponge> {
        self.sponge.as_ref()
    }

    /// The walls, in grid cells.
    pub fn obstacles(&self) -> &Obstacles {
        &self.obstacles
    }

    /// The walls, to edit cell by cell (grid coordinates).
    pub fn obstacles_mut(&mut self) -> &mut Obstacles {
        &mut self.obstacles
    }

    /// Paints (or, with `wall == false`, erases) a disk of wall around image pixel `(x, y)`,
    /// `radius` in `1..=4096` pixels.
    pub fn paint_wall(&mut self, x: i32, y: i32, radius: u32, wall: bool) -> Result<(), Error> {
        let radius = check_radius(i64::from(radius))?;
        let Some([cell_x, cell_y]) = self.cell_of(x, y) else {
            return Ok(());
        };
        let radius = self.grid_radius(radius);
        self.obstacles
            .set_disk(i64::from(cell_x), i64::from(cell_y), radius, wall);
        Ok(())
    }

    /// Sets the walls from a mask of image pixels (`width * height`, `true` = wall): a cell is a
    /// wall when the pixel at its centre is.
    pub fn set_obstacle_mask(&mut self, mask: &[bool]) -> Result<(), Error> {
        let expected = self.width as usize * self.height as usize;
        self.check_len("obstacle mask", mask.len(), expected, 1)?;
        let (grid_width, grid_height) = (self.obstacles.width(), self.obstacles.height());
        let scale = self.sim_scale as usize;
        let (width, height) = (self.width as usize, self.height as usize);
        self.obstacles.clear();
        if let Some(plane) = self.water.as_ref().and_then(WaterRegion::plane) {
            for cell_y in 0..grid_height {
                for cell_x in 0..grid_width {
                    let Some([x, y]) = plane.pixel_of_cell(cell_x, cell_y) else {
                        continue;
                    };
                    let inside = x >= 0.0 && y >= 0.0 && x < width as f64 && y < height as f64;
                    if inside && mask[y as usize * width + x as usize] {
                        self.obstacles.set(cell_x as i64, cell_y as i64, true);
                    }
                }
            }
            return Ok(());
        }
        for cell_y in 0..grid_height {
            let y = (cell_y * scale + scale / 2).min(height - 1);
            for cell_x in 0..grid_width {
                let x = (cell_x * scale + scale / 2).min(width - 1);
                if mask[y * width + x] {
                    self.obstacles.set(cell_x as i64, cell_y as i64, true);
                }
            }
        }
        Ok(())
    }

    /// Adds a wave generator (positions in image pixels, times in steps of this pool), once
    /// [`Generator::validate`] accepts it.
    pub fn add_generator(&mut self, generator: Generator) -> Result<(), Error> {
        generator.validate()?;
        self.generators.push(generator);
        Ok(())
    }

    /// Removes every wave generator.
    pub fn clear_generators(&mut self) {
        self.generators.clear();
    }

    /// Puts a [`Body`] in the water (positions in image pixels, times in steps of this pool,
    /// speeds in pixels per step), once [`Body::validate`] accepts it. It presses the water every
    /// step until [`remove_body`](Self::remove_body), or, for a path body, until it passes its
    /// last point (then the pool forgets it).
    pub fn add_body(&mut self, body: Body) -> Result<BodyId, Error> {
        body.validate()?;
        self.refuse_in_perspective("bodies")?;
        Ok(self.bodies.add(body))
    }

    /// Moves a body to image pixel `(x, y)` (fractions allowed): the next step presses all along
    /// the way from where it pressed last, so a body moved every frame leaves an even wake
    /// however far it moves. A path body goes on along its path from there. An unknown id (a
    /// body removed, or a path body gone) or a position that is not finite is an [`Error`].
    pub fn set_body_position(&mut self, id: BodyId, x: f32, y: f32) -> Result<(), Error> {
        self.bodies
            .get_mut(id)
            .ok_or(Error::UnknownId {
                what: "body",
                id: id.0,
            })?
            .set_position(x, y)
    }

    /// Takes a body out of the water (the waves it made stay); the body as it was, or `None`
    /// for an unknown id.
    pub fn remove_body(&mut self, id: BodyId) -> Option<Body> {
        self.bodies.remove(id)
    }

    /// Takes every body out of the water.
    pub fn clear_bodies(&mut self) {
        self.bodies.clear();
    }

    /// A body in the water, `None` for an unknown id.
    pub fn body(&self, id: BodyId) -> Option<&Body> {
        self.bodies.get(id)
    }

    /// Where a body is (image pixels; see [`Body::position`]), `None` for an unknown id or a
    /// body out of the water.
    pub fn body_position(&self, id: BodyId) -> Option<[f32; 2]> {
        self.bodies.get(id).and_then(Body::position)
    }

    /// How many bodies the pool holds.
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// Puts a [`Float`] in the water, once [`Float::validate`] accepts it: it settles at its
    /// floating level on the water under it (plus its [lift](Float::lifted)), at rest, and from
    /// then on the water moves it and it moves the water (see [`Float`]). It stays until
    /// [`remove_float`](Self::remove_float); at the pool's edge it stops.
    pub fn add_float(&mut self, mut float: Float) -> Result<FloatId, Error> {
        float.validate()?;
        self.refuse_in_perspective("floats")?;
        float.settle(&self.water_view(), self.sim_scale);
        let (width, height) = (self.solver.width(), self.solver.height());
        Ok(self.floats.add(float, width as usize, height as usize))
    }

    /// Sets a float's velocity along x, y and up, in pixels per step (a throw, a kick; each
    /// component clamped to the floats' largest speed). An unknown id or a velocity that is not
    /// finite is an [`Error`].
    pub fn set_float_velocity(&mut self, id: FloatId, velocity: [f32; 3]) -> Result<(), Error> {
        self.floats
            .get_mut(id)
            .ok_or(Error::UnknownId {
                what: "float",
                id: id.0,
            })?
            .set_velocity(velocity)
    }

    /// Takes a float out of the water (the waves it made stay); the float as it was, or `None`
    /// for an unknown id.
    pub fn remove_float(&mut self, id: FloatId) -> Option<Float> {
        self.floats.remove(id)
    }

    /// Takes every float out of the water.
    pub fn clear_floats(&mut self) {
        self.floats.clear();
    }

    /// A float in the water (its position, height, velocity), `None` for an unknown id.
    pub fn float(&self, id: FloatId) -> Option<&Float> {
        self.floats.get(id)
    }

    /// Where a float's centre is, in image pixels; `None` for an unknown id.
    pub fn float_position(&self, id: FloatId) -> Option<[f32; 2]> {
        self.floats.get(id).map(Float::position)
    }

    /// How many floats the pool holds.
    pub fn float_count(&self) -> usize {
        self.floats.len()
    }

    /// The floats, in the order they were added (for drawing them).
    pub fn floats(&self) -> impl Iterator<Item = &Float> {
        self.floats.iter()
    }

    /// A float's mechanical energy with the water as it is now (kinetic, gravity's and the
    /// buoyancy's potential, zero at rest on calm water), in grid cells: mass in cells³ of
    /// water, lengths in cells, per step²; `None` for an unknown id. For measuring.
    pub fn float_energy(&self, id: FloatId) -> Option<f64> {
        let float = self.floats.get(id)?;
        Some(float.energy(&self.water_view(), self.float_gravity()))
    }

    /// The gravity floats feel, in cells per step²: the dispersive solver's, otherwise
    /// [`DEFAULT_FLOAT_GRAVITY`].
    pub fn float_gravity(&self) -> f32 {
        self.solver
            .as_dispersive()
            .map_or(DEFAULT_FLOAT_GRAVITY, |solver| solver.gravity())
    }

    /// An error for `what` (bodies, floats) in perspective, which they do not follow yet.
    fn refuse_in_perspective(&self, what: &'static str) -> Result<(), Error> {
        if self.in_perspective() {
            return Err(Error::NoPerspective {
                what,
                advice: "a pool with a horizon takes none",
            });
        }
        Ok(())
    }

    /// The water as floats see it.
    fn water_view(&self) -> WaterView<'_> {
        WaterView {
            heights: self.solver.heights(),
            width: self.solver.width() as usize,
            height: self.solver.height() as usize,
            obstacles: self.walls(),
        }
    }

    /// Floats move with the water and press it; the solver steps with their pressure (see
    /// [`Float`]).
    fn step_solver_with_floats(&mut self) {
        kernels::with_backend(self.backend, || self.step_solver_with_floats_here());
    }

    /// [`step_solver_with_floats`](Self::step_solver_with_floats) with this pool's backend
    /// chosen.
    fn step_solver_with_floats_here(&mut self) {
        self.refresh_walls();
        let walls = match &self.water {
            Some(water) => water.current_walls(),
            None => &self.obstacles,
        };
        if self.floats.is_empty() {
            self.solver.step(walls, self.sponge.as_ref());
            return;
        }
        let gravity = self.float_gravity();
        let integer = matches!(self.solver, Solver::Classic(_));
        let dither_seed = integer.then_some(self.steps.wrapping_mul(0x1_0000) ^ (1 << 63));
        let water = WaterView {
            heights: self.solver.heights(),
            width: self.solver.width() as usize,
            height: self.solver.height() as usize,
            obstacles: walls,
        };
        let heads = self.floats.step_all(&water, gravity, dither_seed);
        // The pressure head is on the heights for the step, so the solver's operator sees
        // `heights + head` and the water answers the pressure; then it comes off again.
        self.solver.raise(heads, 1.0);
        self.solver.step(walls, self.sponge.as_ref());
        self.solver.raise(heads, -1.0);
    }

    /// Steps taken since the pool was made.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Image width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Image height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Pixels per grid cell along each axis.
    pub fn sim_scale(&self) -> u32 {
        self.sim_scale
    }

    /// What a GPU that makes the natural look's surface itself, from heights it steps (the
    /// page's `web/gl/water-steps.glsl.js`), needs of the natural look's numbers at this pool's scale: the
    /// natural kernels' `[slope_scale, curvature_scale, cross_scale, caustic_trace (3),
    /// caustic_det, MIN_SPREAD]`, as [`surface`](Self::surface) uses them.
    pub fn natural_surface_constants(&self, natural: &crate::NaturalSettings) -> [f32; 8] {
        let natural = kernels::natural::NaturalLook::new(natural, self.sim_scale, PixelOrder::Rgba);
        let [t0, t1, t2] = natural.caustic_trace;
        [
            natural.slope_scale,
            natural.curvature_scale,
            natural.cross_scale,
            t0,
            t1,
            t2,
            natural.caustic_det,
            kernels::natural::MIN_SPREAD,
        ]
    }

    /// The solver, for reading the grid (`heights`, `width`, `height`).
    pub fn solver(&self) -> &Solver {
        &self.solver
    }

    /// The solver, for changing its parameters or state directly (grid coordinates).
    pub fn solver_mut(&mut self) -> &mut Solver {
        &mut self.solver
    }

    /// Advances the water by one step: generators drive their cells, bodies press the water,
    /// floats move and push it aside, then the solver steps with the walls and the edge condition.
    pub fn step(&mut self) {
        self.drive_generators();
        self.press_bodies();
        self.step_solver_with_floats();
        self.steps += 1;
    }

    /// [`step`](Self::step), then [`render`](Self::render): the frame loop in one call.
    ///
    /// The result is exactly the two calls', but where it can (classic solver at full
    /// resolution, no walls, reflecting edges, classic or lit look) it steps and renders in
    /// one pass, rendering rows while the rows just stepped are still in the CPU's cache. A wrong
    /// buffer size or a look [`Look::validate`] refuses is an error before anything changes.
    pub fn step_and_render(
        &mut self,
        look: &Look,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), Error> {
        self.check_frame(src.len(), dst.len(), 4)?;
        self.renderer.set_pixel_order(PixelOrder::Rgba);
        self.step_and_render_pixels(
            look,
            bytemuck::cast_slice(src),
            bytemuck::cast_slice_mut(dst),
        )
    }

    /// [`step_and_render`](Self::step_and_render) into `u32` pixels (`0xAARRGGBB`).
    pub fn step_and_render_u32(
        &mut self,
        look: &Look,
        src: &[u32],
        dst: &mut [u32],
    ) -> Result<(), Error> {
        self.check_frame(src.len(), dst.len(), 1)?;
        self.renderer.set_pixel_order(PixelOrder::Bgra);
        self.step_and_render_pixels(
            look,
            bytemuck::cast_slice(src),
            bytemuck::cast_slice_mut(dst),
        )
    }

    fn step_and_render_pixels(
        &mut self,
        look: &Look,
        src: &[[u8; 4]],
        dst: &mut [[u8; 4]],
    ) -> Result<(), Error> {
        look.validate()?;
        self.drive_generators();
        self.press_bodies();
        let fusable = self.sim_scale == 1
            && self.water.is_none()
            && self.obstacles.is_empty()
            && self.sponge.is_none()
            && self.floats.is_empty();
        let fused = match self.solver.as_classic_mut() {
            Some(classic) if fusable => kernels::with_backend(self.backend, || {
                self.renderer
                    .step_and_render_classic(classic, look, src, dst)
            }),
            _ => false,
        };
        self.steps += 1;
        if fused {
            return Ok(());
        }
        self.step_solver_with_floats();
        self.render_pixels(look, src, dst)
    }

    /// Generators drive their cells for this step.
    fn drive_generators(&mut self) {
        for generator in &self.generators {
            let Some(value) = generator.value_at(self.steps) else {
                continue;
            };
            let (water, scale) = (self.water.as_ref(), self.sim_scale);
            // Only the points on water that moves, as stones and swipes: a source on land
            // drives nothing, in perspective or not.
            let cells = generator
                .points()
                .filter(|&[x, y]| water.is_none_or(|water| water.is_live_water(x, y)))
                .filter_map(|[x, y]| cell_of_pixel(water, scale, x, y));
            let solver = &mut self.solver;
            let reach = Reach::stones(solver.width() as usize, solver.height() as usize, 0);
            stamp_polyline(cells, reach, |x, y| solver.set_height(x, y, value));
        }
    }

    /// What the bodies press into the water in step number `step` (the next one), handed to
    /// `visit(centre, radius, impulse)` in grid cells, as [`step`](Self::step) hands them to
    /// [`Solver::apply_pressure`], instead of pressed: for water that is stepped elsewhere
    /// (the page's GPU), which keeps this pool for its rules. Path bodies walk to where they are
    /// at `step`, and those that have left the water go, as in a step.
    pub fn take_body_presses(&mut self, step: u64, visit: impl FnMut([f32; 2], f32, f32)) {
        self.bodies.press_all(step, self.sim_scale, visit);
    }

    /// Bodies press the water for this step (see [`Body`]).
    fn press_bodies(&mut self) {
        if self.bodies.is_empty() {
            return;
        }
        let (solver, step) = (&mut self.solver, self.steps);
        // A different dither for every press of the step (a moving body presses several times).
        let mut seed = step.wrapping_mul(0x1_0000);
        self.bodies
            .press_all(step, self.sim_scale, |centre, radius, impulse| {
                solver.apply_pressure(centre, radius, impulse, seed);
                seed = seed.wrapping_add(1);
            });
    }

    /// Starts the water from a given surface: `heights` holds one value per grid cell
    /// (`solver().width() x solver().height()`, row-major), the water at rest with that
    /// surface, as [`Solver::set_heights`] sets it: `i16` for the classic solver, `f32` heights
    /// above rest (positive up) for the others. Border cells and walls stay at rest whatever
    /// `heights` holds there. A wrong length, the other element type or a float that is not
    /// finite or beyond `±`[`MAX_FLOAT_HEIGHT`](crate::limits::MAX_FLOAT_HEIGHT) is an
    /// [`Error`] naming it, and the water is left as it was.
    ///
    /// This makes the pool a renderer for any height field (terrain, an ocean simulation, a
    /// surface from an experiment):
    ///
    /// ```
    /// use ripples::{Heights, Look, Pool, SolverKind};
    ///
    /// let mut pool = Pool::new(64, 48)?;
    /// pool.set_solver(SolverKind::Wave)?;
    /// let bump: Vec<f32> = (0..64 * 48)
    ///     .map(|i| {
    ///         let (dx, dy) = ((i % 64) as f32 - 32.0, (i / 64) as f32 - 24.0);
    ///         100.0 * (-(dx * dx + dy * dy) / 20.0).exp()
    ///     })
    ///     .collect();
    /// pool.set_heights(Heights::F32(&bump))?;
    /// let background = ripples::pool_tiles(64, 48)?;
    /// let mut frame = vec![0u8; background.len()];
    /// pool.render(&Look::default(), &background, &mut frame)?;
    /// assert_ne!(frame, background);
    /// # Ok::<(), ripples::Error>(())
    /// ```
    pub fn set_heights(&mut self, heights: Heights<'_>) -> Result<(), Error> {
        self.solver.set_heights(heights)?;
        self.refresh_walls();
        let walls = match &self.water {
            Some(water) => water.current_walls(),
            None => &self.obstacles,
        };
        self.solver.dry(walls);
        Ok(())
    }

    /// Calms the water.
    pub fn calm(&mut self) {
        self.solver.calm();
    }

    /// Drops a stone centred on image pixel `(x, y)`: `radius` in `1..=4096` pixels, `strength`
    /// (the depth of the dent) in `0..=32767`. A stone partly outside the pool makes part of a
    /// ripple; one entirely outside does nothing.
    pub fn drop_stone(&mut self, x: i32, y: i32, radius: u32, strength: i16) -> Result<(), Error> {
        let (radius, strength) = check_stone(radius, strength)?;
        self.press_stone(x, y, radius, strength);
        Ok(())
    }

    /// Drops a [`Stone`] given in image pixels (e.g. from [`crate::Rain`]), checked as
    /// [`drop_stone`](Self::drop_stone) checks.
    pub fn drop(&mut self, stone: Stone) -> Result<(), Error> {
        self.drop_stone(stone.x, stone.y, stone.radius, stone.strength)
    }

    /// [`drop_stone`](Self::drop_stone) with a radius and strength already checked.
    pub(crate) fn press_stone(&mut self, x: i32, y: i32, radius: u32, strength: i16) {
        let Some((cell_x, cell_y, radius)) = self.stone_in_grid(x, y, radius) else {
            return;
        };
        self.solver
            .drop_stone(cell_x, cell_y, radius, f32::from(strength));
    }

    /// Where a stone dropped at image pixel `(x, y)` with a radius of `radius` image pixels
    /// lands on the grid, seen from above (no perspective): its cell and its radius in cells,
    /// or `None` where it falls on no water (outside a living photograph's water). What
    /// [`drop_stone`](Self::drop_stone) presses there is the solver's `drop_stone`; a page that
    /// steps the water elsewhere (a GPU) asks this and applies the solver's stone itself.
    pub fn stone_in_grid(&self, x: i32, y: i32, radius: u32) -> Option<(i32, i32, u32)> {
        if self
            .water
            .as_ref()
            .is_some_and(|water| !water.is_live_water(x, y))
        {
            return None;
        }
        let [cell_x, cell_y] = self.cell_of(x, y)?;
        Some((cell_x, cell_y, self.grid_radius(radius)))
    }

    /// Drags a stone along a polyline of image pixels (at least one point), leaving no gaps;
    /// `radius` and `strength` as for [`drop_stone`](Self::drop_stone).
    pub fn swipe(&mut self, points: &[[i32; 2]], radius: u32, strength: i16) -> Result<(), Error> {
        let (radius, strength) = check_stone(radius, strength)?;
        if points.is_empty() {
            return Err(Error::EmptyPath);
        }
        self.drag_stone(points, radius, strength);
        Ok(())
    }

    /// [`swipe`](Self::swipe) with a radius and strength already checked.
    pub(crate) fn drag_stone(&mut self, points: &[[i32; 2]], radius: u32, strength: i16) {
        let radius = self.grid_radius(radius);
        if let Some(water) = &self.water {
            // Only the stretches over water: a swipe across the shore presses nothing on land,
            // and one over the horizon is cut where the water ends.
            // The pool's own buffer, so a drag over water allocates only once.
            let mut run = std::mem::take(&mut self.swipe_cells);
            run.clear();
            for &[x, y] in points {
                match self.cell_of(x, y).filter(|_| water.is_live_water(x, y)) {
                    Some(cell) => run.push(cell),
                    None => {
                        if !run.is_empty() {
                            self.solver
                                .swipe_path(run.drain(..), radius, f32::from(strength));
                        }
                    }
                }
            }
            if !run.is_empty() {
                self.solver
                    .swipe_path(run.drain(..), radius, f32::from(strength));
            }
            self.swipe_cells = run;
            return;
        }
        let scale = self.sim_scale as i32;
        let cells = points
            .iter()
            .map(|&[x, y]| [x.div_euclid(scale), y.div_euclid(scale)]);
        self.solver.swipe_path(cells, radius, f32::from(strength));
    }

    /// Sets the sky the natural look reflects: a picture (see [`SkyImage`] for how it is
    /// mapped onto the sky), or the built-in gradient for `None`. The picture is reduced to a
    /// small table now, so it costs nothing per frame.
    pub fn set_sky(&mut self, sky: Option<&SkyImage<'_>>) {
        self.renderer.set_sky(sky);
    }

    /// The surface a renderer that runs elsewhere (a GPU) draws `look` from: four floats per
    /// grid cell, at this pool's simulation scale (see [`Renderer::surface`]).
    pub fn surface(&mut self, look: &Look, out: &mut [f32]) -> Result<(), Error> {
        let field = FieldView {
            heights: self.solver.heights(),
            velocities: self.solver.velocities(),
            width: self.solver.width() as usize,
            height: self.solver.height() as usize,
        };
        kernels::with_backend(self.backend, || {
            self.renderer.surface(field, self.sim_scale, look, out)
        })
    }

    /// The walls as a layer over a frame drawn elsewhere (a GPU): RGBA, `width x height`
    /// pixels, each wall pixel its stone with alpha 255, each floor pixel a wall shades
    /// `[kept, 0, 0, 128]` (its colour times `kept / 256`), the rest 0: what
    /// [`render`](Self::render) draws over the water (as the walls' look does on the CPU). All zero without walls.
    pub fn wall_layer(&mut self, look: &Look, out: &mut [u8]) -> Result<(), Error> {
        self.check_len(
            "wall layer",
            out.len(),
            self.width as usize * self.height as usize * 4,
            4,
        )?;
        let out: &mut [[u8; 4]] = bytemuck::cast_slice_mut(out);
        self.wall_look.layer(
            &self.obstacles,
            self.sim_scale,
            look,
            out,
            self.width as usize,
        );
        Ok(())
    }

    /// The natural look's sky table (see [`Renderer::sky_table`]).
    pub fn sky_table(&mut self) -> &[[u8; 4]] {
        self.renderer.sky_table()
    }

    /// Whether the water is calm within `tolerance` and nothing will move it: every height
    /// and every previous height (or velocity) at most `tolerance` from rest, and no
    /// generator, body or float. A page stops its frame loop then (no steps, no renders)
    /// until something drops in; [`calm`](Self::calm) first makes the water exactly flat.
    pub fn is_calm(&self, tolerance: f32) -> bool {
        if !self.generators.is_empty() || self.body_count() > 0 || self.float_count() > 0 {
            return false;
        }
        self.solver.is_calm_within(tolerance)
    }

    /// Renders the water over `src` into `dst`, both RGBA bytes of `width x height` pixels. A
    /// wrong buffer size or a look [`Look::validate`] refuses is an error, and `dst` is left
    /// as it was.
    pub fn render(&mut self, look: &Look, src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
        self.check_frame(src.len(), dst.len(), 4)?;
        look.validate()?;
        self.renderer.set_pixel_order(PixelOrder::Rgba);
        let src: &[[u8; 4]] = bytemuck::cast_slice(src);
        let dst: &mut [[u8; 4]] = bytemuck::cast_slice_mut(dst);
        self.render_pixels(look, src, dst)
    }

    /// Renders into `u32` pixels (`0xAARRGGBB`, alpha in the top byte), e.g. a softbuffer frame.
    pub fn render_u32(&mut self, look: &Look, src: &[u32], dst: &mut [u32]) -> Result<(), Error> {
        self.check_frame(src.len(), dst.len(), 1)?;
        look.validate()?;
        self.renderer.set_pixel_order(PixelOrder::Bgra);
        self.render_pixels(
            look,
            bytemuck::cast_slice(src),
            bytemuck::cast_slice_mut(dst),
        )
    }

    /// Renders with a look the caller has validated before it stepped, so that a bad look
    /// changes nothing ([`Renderer::render`] checks it again: a few comparisons).
    fn render_pixels(
        &mut self,
        look: &Look,
        src: &[[u8; 4]],
        dst: &mut [[u8; 4]],
    ) -> Result<(), Error> {
        self.render_field_pixels(None, look, src, dst)
    }

    /// Renders a field of the grid's size other than the solver's own (a blend of two states,
    /// as a seamless loop makes) exactly as [`render`](Self::render) renders the water: with
    /// the pool's water region, walls and, in perspective, the photo look. A field of another
    /// size, a wrong buffer size or a look [`Look::validate`] refuses is an error, and `dst` is
    /// left as it was.
    pub fn render_field(
        &mut self,
        field: FieldView<'_>,
        look: &Look,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), Error> {
        self.check_frame(src.len(), dst.len(), 4)?;
        let grid = (self.solver.width() as usize, self.solver.height() as usize);
        if (field.width, field.height) != grid || field.heights.len() != grid.0 * grid.1 {
            return Err(Error::FieldNotGrid {
                grid: [grid.0, grid.1],
                field: [field.width, field.height],
                heights: field.heights.len(),
            });
        }
        look.validate()?;
        self.renderer.set_pixel_order(PixelOrder::Rgba);
        self.render_field_pixels(
            Some(field),
            look,
            bytemuck::cast_slice(src),
            bytemuck::cast_slice_mut(dst),
        )
    }

    /// Renders `field` (the solver's own for `None`) with a look the caller has validated.
    fn render_field_pixels(
        &mut self,
        field: Option<FieldView<'_>>,
        look: &Look,
        src: &[[u8; 4]],
        dst: &mut [[u8; 4]],
    ) -> Result<(), Error> {
        let field = field.unwrap_or(FieldView {
            heights: self.solver.heights(),
            velocities: self.solver.velocities(),
            width: self.solver.width() as usize,
            height: self.solver.height() as usize,
        });
        if let Some(water) = self.water.as_ref().filter(|water| water.plane().is_some()) {
            self.photo.render(
                water,
                field.heights,
                &self.photo_look.with_presence(look.presence()),
                src,
                dst,
                self.width as usize,
            );
            // No `restore_land`: the photo look copies every pixel that is not water itself.
            return Ok(());
        }
        kernels::with_backend(self.backend, || {
            self.renderer
                .render(field, self.sim_scale, look, src, dst, self.width as usize)
        })?;
        self.draw_walls(look, dst);
        crate::looks::floats::draw_floats(
            self.floats.iter(),
            look,
            self.renderer.pixel_order(),
            dst,
            self.width as usize,
        );
        if let Some(water) = &self.water {
            water.restore_land(src, dst);
        }
        Ok(())
    }

    /// Draws the walls over a rendered frame (see [`WallLook`]); nothing without walls.
    fn draw_walls(&mut self, look: &Look, dst: &mut [[u8; 4]]) {
        let order = self.renderer.pixel_order();
        self.wall_look.apply(
            &self.obstacles,
            self.sim_scale,
            look,
            order,
            dst,
            self.width as usize,
        );
    }

    /// Checks a source image and a destination frame of `per_pixel` elements per pixel.
    pub(crate) fn check_frame(
        &self,
        src_len: usize,
        dst_len: usize,
        per_pixel: usize,
    ) -> Result<(), Error> {
        let expected = self.width as usize * self.height as usize * per_pixel;
        self.check_len("source image", src_len, expected, per_pixel)?;
        self.check_len("destination frame", dst_len, expected, per_pixel)
    }

    fn check_len(
        &self,
        what: &'static str,
        got: usize,
        expected: usize,
        per_pixel: usize,
    ) -> Result<(), Error> {
        if got == expected {
            Ok(())
        } else {
            Err(Error::BufferSize {
                what,
                got,
                expected,
                per_pixel,
                width: self.width,
                height: self.height,
            })
        }
    }

    /// A radius in pixels (at least 1) as a radius in cells, rounded, at least 1.
    fn grid_radius(&self, radius: u32) -> u32 {
        (radius.saturating_add(self.sim_scale / 2) / self.sim_scale).max(1)
    }
}

/// The grid cell image pixel `(x, y)` falls in: `pixel / sim_scale`, or in perspective the cell
/// of the plane it shows (`None` at or above the horizon).
fn cell_of_pixel(water: Option<&WaterRegion>, sim_scale: u32, x: i32, y: i32) -> Option<[i32; 2]> {
    match water.filter(|water| water.plane().is_some()) {
        Some(water) => water.cell_of_pixel(f64::from(x), f64::from(y)),
        None => {
            let scale = sim_scale as i32;
            Some([x.div_euclid(scale), y.div_euclid(scale)])
        }
    }
}

/// Checks a stone's radius and strength as the command does (the same words), for the pool's
/// entry points.
fn check_stone(radius: u32, strength: i16) -> Result<(u32, i16), Error> {
    Ok((
        check_radius(i64::from(radius))?,
        check_strength(i64::from(strength))?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel;

    #[test]
    fn a_pools_backend_goes_with_its_work_to_the_threads_and_is_restored() {
        let best = Backend::detect();
        for backend in [Backend::Scalar, best] {
            // Work as large as a 1080p frame runs on one of rayon's threads.
            let seen = kernels::with_backend(Some(backend), || {
                parallel::on_workers(1920 * 1080, || {
                    (kernels::backend(), kernels::pool_backend())
                })
            });
            assert_eq!(seen, (backend, Some(backend)));
        }
        assert_eq!(kernels::pool_backend(), None);
        assert_eq!(kernels::backend(), kernels::default_backend());
    }

    #[test]
    fn each_pool_runs_its_own_backend_and_their_frames_agree() {
        let (width, height) = (96, 64);
        let src = crate::pool_tiles(width, height).unwrap();
        let mut pools = [
            Pool::new(width, height).unwrap(),
            Pool::new(width, height).unwrap(),
        ];
        assert_eq!(pools[0].backend(), kernels::default_backend());
        pools[0].set_backend(Backend::Scalar).unwrap();
        pools[1].set_backend(Backend::detect()).unwrap();
        assert_eq!(pools[0].backend(), Backend::Scalar);
        assert_eq!(pools[1].backend(), Backend::detect());
        let mut frames = [vec![0; src.len()], vec![0; src.len()]];
        for (pool, frame) in pools.iter_mut().zip(&mut frames) {
            pool.drop_stone(40, 30, 6, 2000).unwrap();
            for _ in 0..20 {
                pool.step_and_render(&Look::default(), &src, frame).unwrap();
            }
        }
        assert_eq!(frames[0], frames[1], "every backend draws the same water");
        // A backend this CPU lacks is refused and changes nothing.
        if let Some(missing) = Backend::ALL.into_iter().find(|b| !b.is_available()) {
            let error = pools[0].set_backend(missing).unwrap_err().to_string();
            assert!(error.contains("not available on this CPU"), "{error}");
            assert_eq!(pools[0].backend(), Backend::Scalar);
        }
    }
}
