//! The photo look: a photograph's water moved by waves simulated on its plane.
//!
//! In perspective ([`crate::Perspective`]) a pool renders its water with this look whatever
//! [`crate::Look`] says: the refraction looks treat the picture as a floor seen from above, which a
//! photograph of a lake is not. The per-pixel work (the reflection moved by the facet, Fresnel, the
//! sun's glints) is the kernel's, `kernels::photo`; this module prepares what the kernel reads.
//! Once per pool: each picture row's place on the plane (which grid rows, and the grid columns of
//! its first and last pixel) and its view ray, the [`PhotoGeometry`], public so that a GPU renderer
//! (the web's) reads the very tables the CPU draws from. Per frame, the rows are drawn in strips
//! over threads as the other looks' are (`parallel`), and each strip, for each of its rows, first
//! averages the surface's slopes over the grid rows that row covers (one cell near the camera, up
//! to four far off) into a scratch row, one value per grid column, then runs the kernel on it. Only
//! the grid rows some picture row reads are read, in parallel: a far-reaching grid is several times
//! the picture's pixels, and summing all of it down its columns on one thread, as this look first
//! did, took a tenth of the frame. Rows above the grid's reach are the photograph, copied in strips
//! too, and the kernel copies every pixel that is not water, so land is the photograph's own with
//! no pass of its own. A far row covers dozens of cells; averaging all of them would show only the
//! waves' mean tilt, near zero, and flatten the shimmer that far water shows (a pixel there
//! averages the colours many facets reflect, not the facets), so the window stops at four.

use crate::error::Error;
use crate::kernels::photo::{PhotoFrame, PhotoRow, photo_row};
use crate::limits::check_finite_range;
use crate::looks::Heights;
use crate::parallel;
use crate::photo::water_region::WaterRegion;
use std::ops::Range;

/// How the photo look draws a photograph's water.
///
/// ```
/// use ripples::PhotoLook;
///
/// let look = PhotoLook { glints: 2.0, ..PhotoLook::default() };
/// assert!(look.validate().is_ok());
/// assert!(matches!(
///     PhotoLook { sun_elevation: 0.0, ..look }.validate(),
///     Err(ripples::Error::OutOfRange { name, .. }) if name == "sun elevation"
/// ));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct PhotoLook {
    /// Plane units of surface height per unit of the field's height, `0..=16`: taller waves
    /// tilt the surface more and move the reflection farther.
    pub wave_height: f32,
    /// Strength of the sun's glints, `0..=4` (0 = none, 1 = white where a facet mirrors the
    /// sun).
    pub glints: f32,
    /// The sun's height above the horizon in degrees, `1..=90`.
    pub sun_elevation: f32,
    /// The sun's direction in degrees, counter-clockwise from the picture's right, `-360..=360`:
    /// 90 is straight ahead, behind what the photograph shows (its glints make a path down the
    /// water towards the camera), 0 to the right.
    pub sun_azimuth: f32,
}

impl Default for PhotoLook {
    fn default() -> Self {
        Self {
            wave_height: 0.004,
            glints: 1.0,
            sun_elevation: 20.0,
            sun_azimuth: 90.0,
        }
    }
}

impl PhotoLook {
    /// Checks every parameter, naming the first one out of range.
    pub fn validate(&self) -> Result<(), Error> {
        let checks = [
            ("wave height", self.wave_height, 0.0, 16.0),
            ("glints", self.glints, 0.0, 4.0),
            ("sun elevation", self.sun_elevation, 1.0, 90.0),
            ("sun azimuth", self.sun_azimuth, -360.0, 360.0),
        ];
        for (name, value, min, max) in checks {
            check_finite_range(name, value, min, max)?;
        }
        Ok(())
    }

    /// This look with its waves scaled by `presence` ([`crate::Look::presence`], the one knob
    /// for how strongly the water shows in every look): the surface's height, and with it
    /// every slope, the reflection's movement and the glints; 0 is the photograph unmoved.
    ///
    /// ```
    /// use ripples::PhotoLook;
    ///
    /// let look = PhotoLook::default();
    /// assert_eq!(look.with_presence(1.0), look);
    /// assert_eq!(look.with_presence(0.0).wave_height, 0.0);
    /// ```
    pub fn with_presence(&self, presence: f32) -> PhotoLook {
        PhotoLook {
            wave_height: self.wave_height * presence,
            ..*self
        }
    }

    /// The direction towards the sun, world `[x, up, forward]` (a unit vector).
    pub fn sun(&self) -> [f32; 3] {
        let (elevation, azimuth) = (
            self.sun_elevation.to_radians(),
            self.sun_azimuth.to_radians(),
        );
        [
            elevation.cos() * azimuth.cos(),
            elevation.sin(),
            elevation.cos() * azimuth.sin(),
        ]
    }
}

/// Most grid rows a picture row averages the slopes over, on each side of its centre.
const MAX_HALF_WINDOW: f64 = 2.0;

/// One picture row's place on the plane, as the photo look's kernel reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhotoRowPlace {
    /// The downward component of the row's view ray (whose component along the optical axis is
    /// the focal length).
    pub down: f32,
    /// The forward component of the same ray.
    pub forward: f32,
    /// The grid column (fractional) seen at the row's left edge.
    pub grid_x0: f32,
    /// Grid columns per picture pixel along the row.
    pub grid_dx: f32,
    /// The grid rows the picture row covers, near edge to far edge, as fractional rows
    /// `[from, to)`: the window its slopes are averaged over.
    pub grid_rows: [f32; 2],
    /// The grid columns its pixels read, `[first, end)`.
    pub columns: [usize; 2],
}

/// The photo look's geometry for a pool in perspective: the camera and each picture row's place
/// on the plane grid, built once per water region ([`crate::Pool::photo_geometry`]).
///
/// The CPU renderer draws from these tables, and a renderer of one's own (the web's WebGL2
/// shader) reads the same ones, so the two agree to the last `f32`: per picture row `y` from
/// [`first_row`](Self::first_row) down, the kernel averages the grid's slopes over
/// `grid_rows` in `columns`, and pixel `x` reads grid column `grid_x0 + (x + 0.5) * grid_dx`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PhotoGeometry {
    /// The first picture row the grid reaches; rows above it are drawn calm.
    pub first_row: usize,
    /// `rows[i]` is picture row `first_row + i`, to the picture's last row.
    pub rows: Vec<PhotoRowPlace>,
    /// The grid's size in cells, `[width, height]`.
    pub grid: [usize; 2],
    /// The picture's centre, where the optical axis goes through.
    pub centre: [f32; 2],
    /// The focal length in pixels.
    pub focal: f32,
    /// The camera's pitch below the horizontal, `[sin, cos]`.
    pub pitch: [f32; 2],
    /// Plane units per grid cell.
    pub scale: f32,
}

impl PhotoGeometry {
    /// The geometry of `region`'s plane (empty without one).
    fn new(region: &WaterRegion, width: usize, height: usize) -> Self {
        let Some(plane) = region.plane() else {
            return Self::default();
        };
        let camera = plane.camera;
        let first_row = plane.first_row.min(height);
        let rows = (first_row..height)
            .map(|y| {
                let centre = y as f64 + 0.5;
                let at = |x: f64, y: f64| plane.cell_of_pixel(x, y).unwrap_or([0.0, 0.0]);
                let left = at(0.0, centre);
                let right = at(width as f64, centre);
                let grid_dx = (right[0] - left[0]) / width as f64;
                let (top, bottom) = (at(0.0, y as f64)[1], at(0.0, y as f64 + 1.0)[1]);
                let middle = (top + bottom) / 2.0;
                let half = ((bottom - top) / 2.0).clamp(0.5, MAX_HALF_WINDOW);
                let last = plane.width.saturating_sub(1) as f64;
                PhotoRowPlace {
                    down: camera.down(centre) as f32,
                    forward: camera.forward(centre) as f32,
                    grid_x0: left[0] as f32,
                    grid_dx: grid_dx as f32,
                    grid_rows: [
                        (middle - half).clamp(0.0, plane.height as f64) as f32,
                        (middle + half).clamp(0.0, plane.height as f64) as f32,
                    ],
                    columns: [
                        (left[0] - 1.0).floor().clamp(0.0, last) as usize,
                        ((right[0] + 1.0).ceil().clamp(0.0, last) as usize + 1).min(plane.width),
                    ],
                }
            })
            .collect();
        let (sin, cos) = camera.pitch();
        let centre = camera.centre();
        Self {
            first_row,
            rows,
            grid: [plane.width, plane.height],
            centre: [centre[0] as f32, centre[1] as f32],
            focal: camera.focal() as f32,
            pitch: [sin as f32, cos as f32],
            scale: plane.scale as f32,
        }
    }
}

/// What the photo look keeps between frames: the geometry and each strip's scratch rows.
#[derive(Debug, Clone, Default)]
pub(crate) struct PhotoRenderer {
    geometry: PhotoGeometry,
    /// Per strip, the averaged slopes of one row (along x, along z), one per grid column.
    scratch: Vec<(Vec<f32>, Vec<f32>)>,
}

impl PhotoRenderer {
    /// The renderer for `region`'s plane (nothing to draw without one).
    pub(crate) fn new(region: &WaterRegion, width: usize, height: usize) -> Self {
        Self {
            geometry: PhotoGeometry::new(region, width, height),
            scratch: Vec::new(),
        }
    }

    /// The geometry it draws with.
    pub(crate) fn geometry(&self) -> &PhotoGeometry {
        &self.geometry
    }

    /// Renders `region`'s water over `src` into `dst` (`width` pixels a row) from `heights`.
    pub(crate) fn render(
        &mut self,
        region: &WaterRegion,
        heights: Heights<'_>,
        look: &PhotoLook,
        src: &[[u8; 4]],
        dst: &mut [[u8; 4]],
        width: usize,
    ) {
        let height = src.len() / width.max(1);
        let geometry = &self.geometry;
        let frame = PhotoFrame {
            src,
            water: region.water(),
            width,
            height,
            centre: geometry.centre,
            focal: geometry.focal,
            pitch: geometry.pitch,
            sun: look.sun(),
            glint: look.glints,
        };
        let slopes = GridSlopes {
            heights,
            width: geometry.grid[0],
            height: geometry.grid[1],
            gain: look.wave_height / (2.0 * geometry.scale),
        };
        let first_row = geometry.first_row.min(height);
        let reached = height - first_row;
        let strip_rows = parallel::strip_rows(width, reached).max(1);
        let strips = reached.div_ceil(strip_rows);
        if self.scratch.len() < strips {
            let row = vec![0.0; slopes.width];
            self.scratch.resize(strips, (row.clone(), row));
        }
        let (rows, scratch) = (&geometry.rows, &mut self.scratch);
        let pixels = dst.len();
        let (calm, water) = dst.split_at_mut(first_row * width);
        parallel::on_workers(pixels, || {
            // Rows above the grid's reach are drawn calm: the photograph itself.
            let calm_rows = parallel::strip_rows(width, first_row);
            parallel::for_each_strip(calm, width, calm_rows, |strip_first, strip| {
                let start = strip_first * width;
                strip.copy_from_slice(&src[start..start + strip.len()]);
            });
            parallel::for_each_row_with(
                water,
                width,
                strip_rows,
                scratch,
                |water_row, out, (slope_x, slope_z)| {
                    let place = &rows[water_row];
                    let [from, to] = place.columns;
                    slopes.average(place.grid_rows, from..to, slope_x, slope_z);
                    let row = PhotoRow {
                        y: first_row + water_row,
                        down: place.down,
                        forward: place.forward,
                        grid_x0: place.grid_x0 - from as f32,
                        grid_dx: place.grid_dx,
                        slope_x: &slope_x[from..to],
                        slope_z: &slope_z[from..to],
                    };
                    photo_row(&frame, &row, out);
                },
            );
        });
    }
}

/// The surface's slopes on the grid, read where a picture row needs them.
#[derive(Debug, Clone, Copy)]
struct GridSlopes<'a> {
    heights: Heights<'a>,
    width: usize,
    height: usize,
    /// Slope per difference of heights two cells apart: `wave_height / (2 * scale)`.
    gain: f32,
}

impl GridSlopes<'_> {
    /// The slopes (height per plane unit, times `wave_height`) of grid columns `columns`, along
    /// x into `out_x` and along z into `out_z`, each averaged over the fractional grid rows
    /// `[from, to)`, every row weighted by how much of it the window covers. Border cells, which
    /// the solver keeps at rest, count as flat.
    fn average(
        &self,
        window: [f32; 2],
        columns: Range<usize>,
        out_x: &mut [f32],
        out_z: &mut [f32],
    ) {
        out_x[columns.clone()].fill(0.0);
        out_z[columns.clone()].fill(0.0);
        match self.heights {
            Heights::I16(heights) => self.sum_window(heights, window, &columns, out_x, out_z),
            Heights::F32(heights) => self.sum_window(heights, window, &columns, out_x, out_z),
        }
        let [from, to] = window;
        let span = to - from;
        let scale = if span > 0.0 { self.gain / span } else { 0.0 };
        for value in out_x[columns.clone()].iter_mut().chain(&mut out_z[columns]) {
            *value *= scale;
        }
    }

    /// Adds each grid row's height differences in `columns`, weighted by the share of the row
    /// inside `[from, to)`, to `out_x` and `out_z`.
    fn sum_window<T: Copy + Into<f32>>(
        &self,
        heights: &[T],
        [from, to]: [f32; 2],
        columns: &Range<usize>,
        out_x: &mut [f32],
        out_z: &mut [f32],
    ) {
        let width = self.width;
        // Interior cells only: the border's slopes are zero.
        let (left, right) = (columns.start.max(1), columns.end.min(width - 1));
        let first = (from.max(1.0) as usize).min(self.height);
        let end = (to.ceil() as usize).min(self.height - 1);
        for k in first..end {
            let weight = to.min(k as f32 + 1.0) - from.max(k as f32);
            if weight <= 0.0 || left >= right {
                continue;
            }
            let at = |i: usize| heights[i].into();
            let row = k * width;
            for i in left..right {
                let c = row + i;
                // Row k - 1 is farther: z grows towards it.
                out_x[i] += weight * (at(c + 1) - at(c - 1));
                out_z[i] += weight * (at(c - width) - at(c + width));
            }
        }
    }
}
