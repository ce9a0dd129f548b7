//! The camera of a photograph of water, and the water plane it looks at.
//!
//! A photograph shows its water in perspective: the same ripple is a wide ellipse near the
//! camera and a thin sliver far off. Ripples simulates the water where it is, on the plane, and
//! maps the plane to the picture and back through a pinhole camera. The camera has no roll and
//! its optical axis goes through the picture's centre `(cx, cy)`, so two numbers place it: the
//! picture row of the plane's horizon and the focal length `f` in pixels. The axis points
//! `alpha = atan((cy - horizon) / f)` below the horizontal, and the ray through row `y` points
//! `theta(y) = atan((y - cy) / f) + alpha` below it (the issue's formula).
//!
//! Plane units are chosen so that one unit is one picture pixel wide at the nearest water row:
//! there the grid is as fine as the picture and no finer, and stones, radii and speeds keep the
//! sizes they have in a top-down pool. Farther away a unit covers less of a pixel; the grid stops
//! where a unit is [`FAR_FRACTION`] of a pixel wide (a ring of radius 8 units is then 2 pixels
//! wide and a sliver of a pixel tall), unless the grid would exceed [`GRID_BUDGET`] times the
//! picture's pixels, in which case it stops nearer. Water beyond the grid's reach is drawn calm.
//!
//! Everything here is set up once per pool (in `f64`, where the projection's cancellations near
//! the horizon stay harmless); the renderer keeps per-row tables in `f32`.

use crate::error::Error;
use crate::limits::{check_range, check_sim_scale};

/// The camera of a photograph of water: where the water plane's horizon is and the focal length.
///
/// ```
/// use ripples::Perspective;
///
/// let camera = Perspective::new(120.0).with_focal(800.0);
/// assert_eq!(camera.focal_for(1024), 800.0);
/// // Without a focal length, a 60-degree horizontal field of view.
/// let wide = Perspective::new(-40.0);
/// assert!((wide.focal_for(1024) - 886.8).abs() < 0.1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Perspective {
    /// The picture row of the water plane's horizon (fractions allowed; negative when the camera
    /// looks so steeply down that the horizon lies above the picture).
    pub horizon: f32,
    /// The focal length in pixels; `None` for a 60-degree horizontal field of view,
    /// `width / (2 tan 30°)`.
    pub focal: Option<f32>,
}

/// Narrowest horizontal field of view a focal length may give, in degrees.
pub const MIN_FIELD_OF_VIEW: f32 = 1.0;

/// Widest horizontal field of view a focal length may give, in degrees (a pinhole camera cannot
/// reach 180).
pub const MAX_FIELD_OF_VIEW: f32 = 170.0;

/// Farthest the horizon may lie above the picture, in picture heights: beyond it the camera
/// looks straight down within a fraction of a degree.
pub const MAX_HORIZON_ABOVE: f32 = 1000.0;

/// Where the grid stops: a plane unit this wide in pixels.
pub const FAR_FRACTION: f64 = 0.25;

/// Largest grid, in cells, as a multiple of the picture's pixels: a horizon in the picture would
/// otherwise ask for a grid many times the picture's size. The budget is in cells whatever the
/// `sim_scale`, so a coarser grid reaches farther for the same cost.
pub const GRID_BUDGET: f64 = 4.0;

impl Perspective {
    /// A camera whose water plane's horizon is at picture row `horizon`, with the default focal
    /// length.
    pub fn new(horizon: f32) -> Self {
        Self {
            horizon,
            focal: None,
        }
    }

    /// The same camera with a focal length of `focal` pixels.
    pub fn with_focal(self, focal: f32) -> Self {
        Self {
            focal: Some(focal),
            ..self
        }
    }

    /// The focal length in pixels for a picture `width` pixels wide.
    pub fn focal_for(&self, width: u32) -> f32 {
        self.focal
            .unwrap_or_else(|| width as f32 / (2.0 * 30f32.to_radians().tan()))
    }

    /// Checks the horizon and the focal length for a `width x height` picture, naming the first
    /// one out of range.
    pub fn validate(&self, width: u32, height: u32) -> Result<(), Error> {
        if !self.horizon.is_finite() {
            return Err(Error::not_allowed("horizon", self.horizon, "a finite row"));
        }
        let highest = -MAX_HORIZON_ABOVE * height as f32;
        check_range("horizon", self.horizon, highest, height as f32)?;
        if let Some(focal) = self.focal {
            let (shortest, longest) = focal_range(width);
            if !focal.is_finite() || !(shortest..=longest).contains(&focal) {
                return Err(Error::not_allowed(
                    "focal length",
                    focal,
                    format!(
                        "{shortest:.1} to {longest:.0} pixels for a picture {width} pixels wide \
                         (a horizontal field of view of {MAX_FIELD_OF_VIEW} to \
                         {MIN_FIELD_OF_VIEW} degrees)"
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl Perspective {
    /// The size in cells, `[width, height]`, of the plane grid [`crate::Pool::set_water`] lays
    /// for a `width x height` picture whose water is `mask` (one flag per pixel, `true` = water;
    /// `None`: all of it) seen by this camera, at `sim_scale` plane units per cell, without
    /// building the pool. A front end with a cell budget asks it to choose the `sim_scale`:
    /// the plane unit stays one pixel at the nearest water row whatever the scale, so stones and
    /// rings keep their sizes in pixels, and a grid `s` times coarser holds about `1 / s²` as
    /// many cells over the same water (it reaches farther where [`GRID_BUDGET`] stopped the
    /// finer grid short, so somewhat more). The errors are `set_water`'s.
    ///
    /// ```
    /// use ripples::{Perspective, Pool};
    ///
    /// let (width, height) = (320, 200);
    /// let lake: Vec<bool> = (0..width * height).map(|i| i / width >= 80).collect();
    /// let camera = Perspective::new(60.0);
    /// let [fine_width, fine_height] = camera.grid_size(width, height, 1, Some(&lake))?;
    /// let [coarse_width, coarse_height] = camera.grid_size(width, height, 3, Some(&lake))?;
    /// assert!(coarse_width * coarse_height * 2 < fine_width * fine_height);
    /// let mut pool = Pool::with_sim_scale(width, height, 3)?;
    /// pool.set_water(Some(&lake), Some(camera))?;
    /// assert_eq!(pool.solver().width() as usize, coarse_width);
    /// assert_eq!(pool.solver().height() as usize, coarse_height);
    /// # Ok::<(), ripples::Error>(())
    /// ```
    pub fn grid_size(
        &self,
        width: u32,
        height: u32,
        sim_scale: u32,
        mask: Option<&[bool]>,
    ) -> Result<[usize; 2], Error> {
        let sim_scale = check_sim_scale(i64::from(sim_scale))?;
        let pixels = width as usize * height as usize;
        if let Some(mask) = mask.filter(|mask| mask.len() != pixels) {
            return Err(Error::WrongLength {
                buffer: crate::Buffer::WaterMask,
                got: mask.len(),
                expected: pixels,
                width: width as usize,
                height: height as usize,
            });
        }
        self.validate(width, height)?;
        let water = |x: usize, y: usize| mask.is_none_or(|mask| mask[y * width as usize + x]);
        let grid = PlaneGrid::new(self, width, height, sim_scale, water)?;
        Ok([grid.width, grid.height])
    }
}

/// The focal lengths a picture `width` pixels wide may have: those of a horizontal field of view
/// from [`MAX_FIELD_OF_VIEW`] down to [`MIN_FIELD_OF_VIEW`].
pub fn focal_range(width: u32) -> (f32, f32) {
    let focal = |degrees: f32| width as f32 / (2.0 * (degrees / 2.0).to_radians().tan());
    (focal(MAX_FIELD_OF_VIEW), focal(MIN_FIELD_OF_VIEW))
}

/// The pinhole camera over the water plane, in picture pixels and plane units.
///
/// World axes: `x` to the right, `z` forward along the ground, "down" towards the water. The
/// camera stands `height` plane units above the water.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Camera {
    centre: [f64; 2],
    focal: f64,
    sin_pitch: f64,
    cos_pitch: f64,
    height: f64,
}

impl Camera {
    /// The camera of `perspective` over a `width x height` picture, with plane units one pixel
    /// wide at picture row `nearest_row`, which must lie below the horizon.
    pub(crate) fn new(
        perspective: &Perspective,
        width: u32,
        height: u32,
        nearest_row: f64,
    ) -> Self {
        let focal = f64::from(perspective.focal_for(width));
        let centre = [f64::from(width) / 2.0, f64::from(height) / 2.0];
        let pitch = ((centre[1] - f64::from(perspective.horizon)) / focal).atan();
        let mut camera = Self {
            centre,
            focal,
            sin_pitch: pitch.sin(),
            cos_pitch: pitch.cos(),
            height: 1.0,
        };
        // A unit at distance `d` along the ray is `focal / forward` pixels wide; at the water it
        // is `down(y) / height` pixels wide.
        camera.height = camera.down(nearest_row);
        camera
    }

    /// The focal length in pixels.
    pub(crate) fn focal(&self) -> f64 {
        self.focal
    }

    /// The picture's centre.
    pub(crate) fn centre(&self) -> [f64; 2] {
        self.centre
    }

    /// The downward component of the (unnormalised) ray through row `y`, whose component along
    /// the optical axis is `focal`: positive below the horizon.
    pub(crate) fn down(&self, y: f64) -> f64 {
        self.focal * self.sin_pitch + (y - self.centre[1]) * self.cos_pitch
    }

    /// The forward component of the same ray.
    pub(crate) fn forward(&self, y: f64) -> f64 {
        self.focal * self.cos_pitch - (y - self.centre[1]) * self.sin_pitch
    }

    /// The angle of the ray through row `y` below the horizontal, in radians.
    #[cfg(test)]
    pub(crate) fn depression(&self, y: f64) -> f64 {
        ((y - self.centre[1]) / self.focal).atan() + self.sin_pitch.atan2(self.cos_pitch)
    }

    /// Pixels per plane unit across the picture at row `y` (below the horizon).
    pub(crate) fn pixels_per_unit(&self, y: f64) -> f64 {
        self.down(y) / self.height
    }

    /// The row where a plane unit is `pixels` pixels wide.
    pub(crate) fn row_where_unit_is(&self, pixels: f64) -> f64 {
        self.centre[1] + (pixels * self.height - self.focal * self.sin_pitch) / self.cos_pitch
    }

    /// The point of the water plane seen at picture pixel `(x, y)`: `[x, z]` in plane units
    /// (`z` forward from the camera's foot); `None` at or above the horizon.
    pub(crate) fn plane_point_at(&self, x: f64, y: f64) -> Option<[f64; 2]> {
        let down = self.down(y);
        (down > 0.0).then(|| {
            let scale = self.height / down;
            [(x - self.centre[0]) * scale, self.forward(y) * scale]
        })
    }

    /// The picture pixel where a world direction `[x, down, forward]` is seen; `None` for a
    /// direction behind the camera.
    pub(crate) fn project(&self, direction: [f64; 3]) -> Option<[f64; 2]> {
        let [x, down, forward] = direction;
        let along_axis = forward * self.cos_pitch + down * self.sin_pitch;
        let down_in_picture = down * self.cos_pitch - forward * self.sin_pitch;
        (along_axis > 1e-9).then(|| {
            [
                self.centre[0] + self.focal * x / along_axis,
                self.centre[1] + self.focal * down_in_picture / along_axis,
            ]
        })
    }

    /// The picture pixel where plane point `[x, z]` is seen.
    pub(crate) fn picture_point_of(&self, point: [f64; 2]) -> Option<[f64; 2]> {
        self.project([point[0], self.height, point[1]])
    }

    /// The rotation from the camera's frame to the world's, as `(sin, cos)` of the pitch.
    pub(crate) fn pitch(&self) -> (f64, f64) {
        (self.sin_pitch, self.cos_pitch)
    }
}

/// The simulation grid laid on the water plane: which plane point each cell is, and back.
///
/// Grid rows run from far (row 0) to near, so the grid reads as a map of the water with the
/// horizon at the top, as the picture does.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PlaneGrid {
    pub(crate) camera: Camera,
    /// Plane units per cell (the pool's `sim_scale`).
    pub(crate) scale: f64,
    /// Plane `x` of column 0's left edge, and plane `z` of row 0's far edge.
    x_min: f64,
    z_max: f64,
    pub(crate) width: usize,
    pub(crate) height: usize,
    /// The first picture row the grid reaches (rows above it are drawn calm).
    pub(crate) first_row: usize,
    /// How wide a plane unit is, in pixels, at `first_row`.
    pub(crate) far_unit: f64,
}

impl PlaneGrid {
    /// The grid for the water pixels `water(x, y)` of a `width x height` picture seen by
    /// `perspective`, at `scale` plane units per cell. An error when no water lies below the
    /// horizon.
    pub(crate) fn new(
        perspective: &Perspective,
        width: u32,
        height: u32,
        scale: u32,
        water: impl Fn(usize, usize) -> bool,
    ) -> Result<Self, Error> {
        let (w, h) = (width as usize, height as usize);
        let horizon = f64::from(perspective.horizon);
        // Water rows: the lowest one sets the unit; rows at or above the horizon hold none.
        let rows_with_water: Vec<(usize, usize, usize)> = (0..h)
            .filter(|&y| y as f64 > horizon + 0.5)
            .filter_map(|y| {
                let first = (0..w).find(|&x| water(x, y))?;
                let last = (0..w).rev().find(|&x| water(x, y))?;
                Some((y, first, last))
            })
            .collect();
        let Some(&(nearest_row, _, _)) = rows_with_water.last() else {
            return Err(Error::HorizonBelowWater {
                horizon: perspective.horizon,
            });
        };
        let camera = Camera::new(perspective, width, height, nearest_row as f64 + 0.5);
        let scale = f64::from(scale);
        let budget = GRID_BUDGET * w as f64 * h as f64;
        let mut far_unit = FAR_FRACTION;
        loop {
            let grid = Self::reaching(camera, scale, far_unit, &rows_with_water, horizon);
            let cells = (grid.width * grid.height) as f64;
            if cells <= budget || far_unit >= 1.0 {
                return Ok(grid);
            }
            far_unit *= 1.1;
        }
    }

    /// The grid over the water rows reaching out to where a unit is `far_unit` pixels wide.
    fn reaching(
        camera: Camera,
        scale: f64,
        far_unit: f64,
        rows_with_water: &[(usize, usize, usize)],
        horizon: f64,
    ) -> Self {
        let far_row = camera.row_where_unit_is(far_unit).max(horizon + 0.5);
        let first_row =
            (far_row.ceil().max(0.0) as usize).min(rows_with_water.last().map_or(0, |r| r.0));
        let (mut x_min, mut x_max) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut z_min, mut z_max) = (f64::INFINITY, f64::NEG_INFINITY);
        for &(y, first, last) in rows_with_water.iter().filter(|r| r.0 >= first_row) {
            for edge_y in [y as f64, y as f64 + 1.0] {
                for edge_x in [first as f64, last as f64 + 1.0] {
                    if let Some([px, pz]) = camera.plane_point_at(edge_x, edge_y) {
                        x_min = x_min.min(px);
                        x_max = x_max.max(px);
                        z_min = z_min.min(pz);
                        z_max = z_max.max(pz);
                    }
                }
            }
        }
        // One cell of margin all round: the solver keeps border cells at rest.
        let x_min = x_min - scale;
        let z_max = z_max + scale;
        let width = (((x_max + scale - x_min) / scale).ceil() as usize).max(3);
        let height = (((z_max - (z_min - scale)) / scale).ceil() as usize).max(3);
        Self {
            camera,
            scale,
            x_min,
            z_max,
            width,
            height,
            first_row,
            far_unit: camera.pixels_per_unit(first_row as f64),
        }
    }

    /// The grid position (fractional cells; cell `i` spans `[i, i + 1)`) of plane point `[x, z]`.
    pub(crate) fn cell_of_plane(&self, [x, z]: [f64; 2]) -> [f64; 2] {
        [(x - self.x_min) / self.scale, (self.z_max - z) / self.scale]
    }

    /// The plane point at grid position `[gx, gz]`.
    pub(crate) fn plane_of_cell(&self, [gx, gz]: [f64; 2]) -> [f64; 2] {
        [self.x_min + gx * self.scale, self.z_max - gz * self.scale]
    }

    /// The grid position seen at picture pixel `(x, y)` (pixel centres at `+0.5`); `None` at or
    /// above the horizon.
    pub(crate) fn cell_of_pixel(&self, x: f64, y: f64) -> Option<[f64; 2]> {
        self.camera
            .plane_point_at(x, y)
            .map(|point| self.cell_of_plane(point))
    }

    /// The picture point where the centre of cell `(cx, cz)` is seen.
    pub(crate) fn pixel_of_cell(&self, cell_x: usize, cell_z: usize) -> Option<[f64; 2]> {
        let point = self.plane_of_cell([cell_x as f64 + 0.5, cell_z as f64 + 0.5]);
        self.camera.picture_point_of(point)
    }

    /// The plane's horizontal extent covered by the grid, in plane units: `[width, depth]`.
    pub(crate) fn extent(&self) -> [f64; 2] {
        [
            self.width as f64 * self.scale,
            self.height as f64 * self.scale,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picture_and_plane_map_back_and_forth() {
        let perspective = Perspective::new(100.0).with_focal(500.0);
        let camera = Camera::new(&perspective, 640, 480, 479.5);
        assert!((camera.pixels_per_unit(479.5) - 1.0).abs() < 1e-12);
        for (x, y) in [(10.0, 479.0), (320.0, 200.0), (600.0, 101.0)] {
            let plane = camera.plane_point_at(x, y).unwrap();
            let back = camera.picture_point_of(plane).unwrap();
            assert!((back[0] - x).abs() < 1e-6 && (back[1] - y).abs() < 1e-6);
        }
        assert!(camera.plane_point_at(300.0, 100.0).is_none());
        assert!(camera.plane_point_at(300.0, 50.0).is_none());
        // The depression of the horizon is zero, of the centre row the pitch.
        assert!(camera.depression(100.0).abs() < 1e-12);
        let far = camera.row_where_unit_is(0.25);
        assert!((camera.pixels_per_unit(far) - 0.25).abs() < 1e-9);
    }

    #[test]
    fn a_horizon_below_the_water_and_a_focal_out_of_range_are_named() {
        let below = PlaneGrid::new(&Perspective::new(50.0), 64, 48, 1, |_, y| y < 40);
        assert!(below.unwrap_err().to_string().contains("horizon 50"));
        let error = Perspective::new(10.0)
            .with_focal(0.5)
            .validate(64, 48)
            .unwrap_err();
        assert!(error.to_string().contains("focal length"), "{error}");
        let error = Perspective::new(f32::NAN).validate(64, 48).unwrap_err();
        assert!(error.to_string().contains("horizon"), "{error}");
    }
}
