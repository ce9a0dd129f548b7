//! What a GPU needs to draw a living photograph: the water mask and, in perspective, the photo
//! look's tables.
//!
//! The CPU draws a pool's water in perspective with the core's photo look
//! (`ripples::kernels::photo`), from per-row tables it builds once per pool (each picture row's
//! place on the plane) and from the surface's slopes summed down each grid column, once per
//! frame. The WebGL2 shader (`web/gl/photo-shader.js`) runs the same kernel per pixel and needs
//! the same numbers: this module builds them here, in the same `f64` steps and `f32` roundings
//! as the core's `PhotoRenderer` and `PlaneGrid` (whose own types stay private to the core), so
//! that the two renderers read the same tables. The grid's far row comes from the pool
//! ([`Pool::plane_reach`]), and the grid's size built here is checked against the pool's: a
//! camera that disagrees with the core's is an error, never a wrong picture.
//!
//! Uploaded once per water region: the mask (one byte per picture pixel), the rows (eight
//! floats per picture row) and the camera (a few uniforms). Per frame: the column sums, two
//! floats per grid cell and one row more (what `PhotoRenderer::sum_slopes` computes).

use ripples::{Heights, Perspective, PhotoLook, Pool};

use crate::options::WebError;

/// Most grid rows a picture row averages the slopes over, on each side of its centre (the
/// core's `MAX_HALF_WINDOW`).
const MAX_HALF_WINDOW: f64 = 2.0;

/// Floats per picture row in [`GpuPhoto::rows`].
pub const ROW_FLOATS: usize = 8;

/// A living photograph's water as a GPU draws it.
#[derive(Debug, Clone)]
pub struct GpuPhoto {
    /// One byte per picture pixel: 255 where the picture shows water (the core's region,
    /// nothing at or above the horizon), 0 on land.
    pub mask: Vec<u8>,
    /// In perspective, the photo look's tables; `None` for water seen from above.
    pub plane: Option<PlaneTables>,
}

/// The photo look's per-pool numbers for a pool in perspective.
#[derive(Debug, Clone)]
pub struct PlaneTables {
    /// Per picture row, [`ROW_FLOATS`] floats: `[down, forward, grid_x0 - first column,
    /// grid_dx, first grid row, end grid row, first column, end column]` (see the core's
    /// `kernels::photo::PhotoRow`); rows above `first_row` are zeros.
    pub rows: Vec<f32>,
    /// The first picture row the grid reaches (rows above it are the picture).
    pub first_row: usize,
    /// `[centre x, centre y, focal, sin pitch, cos pitch]`.
    pub camera: [f32; 5],
    /// The grid's size in cells.
    pub grid: [usize; 2],
    /// Plane units per cell.
    pub scale: f32,
    /// Slopes summed down each grid column, `[x, z]` interleaved: entry `k * width + i` is the
    /// sum over grid rows `0..k` of column `i` (see [`sum_slopes`](Self::sum_slopes)).
    pub sums: Vec<f32>,
}

impl GpuPhoto {
    /// The mask and tables for `pool`, whose water [`Pool::set_water`] just set from `water`
    /// (one flag per pixel, `None`: all of it) and `perspective`.
    pub fn new(
        pool: &Pool,
        water: Option<&[bool]>,
        perspective: Option<&Perspective>,
    ) -> Result<Self, WebError> {
        let (width, height) = (pool.width() as usize, pool.height() as usize);
        let mut mask: Vec<u8> = match water {
            Some(water) => water.iter().map(|&w| if w { 255 } else { 0 }).collect(),
            None => vec![255; width * height],
        };
        let plane = match perspective {
            None => None,
            Some(perspective) => {
                // Nothing at or above the horizon is water (as the core's WaterRegion::new).
                let sky_rows = (f64::from(perspective.horizon) + 0.5)
                    .floor()
                    .clamp(-1.0, height as f64 - 1.0);
                let sky_end = ((sky_rows + 1.0) as usize).min(height) * width;
                mask[..sky_end].fill(0);
                Some(PlaneTables::new(pool, &mask, perspective)?)
            }
        };
        Ok(Self { mask, plane })
    }
}

impl PlaneTables {
    /// The tables of `pool`'s plane, `mask` being its water (nonzero) after the horizon's cut.
    fn new(pool: &Pool, mask: &[u8], perspective: &Perspective) -> Result<Self, WebError> {
        let (width, height) = (pool.width() as usize, pool.height() as usize);
        let Some(([first_row, _], _)) = pool.plane_reach() else {
            return Err(WebError("the pool's water is not in perspective".into()));
        };
        let first_row = first_row as usize;
        let horizon = f64::from(perspective.horizon);
        // PlaneGrid::new: the water rows, the lowest of which sets the plane unit.
        let rows_with_water: Vec<(usize, usize, usize)> = (0..height)
            .filter(|&y| y as f64 > horizon + 0.5)
            .filter_map(|y| {
                let row = &mask[y * width..(y + 1) * width];
                let first = row.iter().position(|&w| w != 0)?;
                let last = row.iter().rposition(|&w| w != 0)?;
                Some((y, first, last))
            })
            .collect();
        let Some(&(nearest_row, _, _)) = rows_with_water.last() else {
            return Err(WebError("the pool's water lies above its horizon".into()));
        };
        let camera = Camera::new(
            perspective,
            pool.width(),
            pool.height(),
            nearest_row as f64 + 0.5,
        );
        // PlaneGrid::reaching, from the far row the pool's grid reaches.
        let scale = f64::from(pool.sim_scale());
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
        let x_min = x_min - scale;
        let z_max = z_max + scale;
        let grid_width = (((x_max + scale - x_min) / scale).ceil() as usize).max(3);
        let grid_height = (((z_max - (z_min - scale)) / scale).ceil() as usize).max(3);
        let pool_grid = (
            pool.solver().width() as usize,
            pool.solver().height() as usize,
        );
        if (grid_width, grid_height) != pool_grid {
            return Err(WebError(format!(
                "the photo look's tables found a {grid_width}x{grid_height} grid, the pool has {}x{}",
                pool_grid.0, pool_grid.1
            )));
        }
        // PhotoRenderer::new: each picture row's place on the plane.
        let cell_of_pixel = |x: f64, y: f64| {
            camera.plane_point_at(x, y).map_or([0.0, 0.0], |[px, pz]| {
                [(px - x_min) / scale, (z_max - pz) / scale]
            })
        };
        let last = grid_width.saturating_sub(1) as f64;
        let mut rows = vec![0.0; height * ROW_FLOATS];
        for y in first_row.min(height)..height {
            let centre = y as f64 + 0.5;
            let left = cell_of_pixel(0.0, centre);
            let right = cell_of_pixel(width as f64, centre);
            let grid_dx = (right[0] - left[0]) / width as f64;
            let (top, bottom) = (
                cell_of_pixel(0.0, y as f64)[1],
                cell_of_pixel(0.0, y as f64 + 1.0)[1],
            );
            let middle = (top + bottom) / 2.0;
            let half = ((bottom - top) / 2.0).clamp(0.5, MAX_HALF_WINDOW);
            let from = (left[0] - 1.0).floor().clamp(0.0, last) as usize;
            let to = ((right[0] + 1.0).ceil().clamp(0.0, last) as usize + 1).min(grid_width);
            rows[y * ROW_FLOATS..(y + 1) * ROW_FLOATS].copy_from_slice(&[
                camera.down(centre) as f32,
                camera.forward(centre) as f32,
                left[0] as f32 - from as f32,
                grid_dx as f32,
                (middle - half).clamp(0.0, grid_height as f64) as f32,
                (middle + half).clamp(0.0, grid_height as f64) as f32,
                from as f32,
                to as f32,
            ]);
        }
        Ok(Self {
            rows,
            first_row,
            camera: [
                camera.centre[0] as f32,
                camera.centre[1] as f32,
                camera.focal as f32,
                camera.sin_pitch as f32,
                camera.cos_pitch as f32,
            ],
            grid: [grid_width, grid_height],
            scale: scale as f32,
            sums: vec![0.0; 2 * grid_width * (grid_height + 1)],
        })
    }

    /// Fills [`sums`](Self::sums) from the grid's `heights` (PhotoRenderer::sum_slopes: the
    /// slopes, height per plane unit times `wave_height`, zero on the grid's border).
    pub fn sum_slopes(&mut self, heights: Heights<'_>, wave_height: f32) {
        let [width, height] = self.grid;
        let gain = wave_height / (2.0 * self.scale);
        let at = |i: usize| match heights {
            Heights::I16(h) => f32::from(h[i]),
            Heights::F32(h) => h[i],
        };
        let sums = &mut self.sums;
        sums[..2 * width].fill(0.0);
        for k in 0..height {
            let (above, below) = (2 * k * width, 2 * (k + 1) * width);
            for i in 0..width {
                let inside = i > 0 && i + 1 < width && k > 0 && k + 1 < height;
                let (slope_x, slope_z) = if inside {
                    let c = k * width + i;
                    (
                        (at(c + 1) - at(c - 1)) * gain,
                        (at(c - width) - at(c + width)) * gain,
                    )
                } else {
                    (0.0, 0.0)
                };
                sums[below + 2 * i] = sums[above + 2 * i] + slope_x;
                sums[below + 2 * i + 1] = sums[above + 2 * i + 1] + slope_z;
            }
        }
    }
}

/// The photo look's uniforms for `look`: `[sun x, sun up, sun forward, glint strength]` (the
/// core's `PhotoLook::sun`).
pub fn photo_look_uniforms(look: &PhotoLook) -> [f32; 4] {
    let (elevation, azimuth) = (
        look.sun_elevation.to_radians(),
        look.sun_azimuth.to_radians(),
    );
    [
        elevation.cos() * azimuth.cos(),
        elevation.sin(),
        elevation.cos() * azimuth.sin(),
        look.glints,
    ]
}

/// The pinhole camera over the water plane (the core's `perspective::Camera`).
#[derive(Debug, Clone, Copy)]
struct Camera {
    centre: [f64; 2],
    focal: f64,
    sin_pitch: f64,
    cos_pitch: f64,
    height: f64,
}

impl Camera {
    fn new(perspective: &Perspective, width: u32, height: u32, nearest_row: f64) -> Self {
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
        camera.height = camera.down(nearest_row);
        camera
    }

    fn down(&self, y: f64) -> f64 {
        self.focal * self.sin_pitch + (y - self.centre[1]) * self.cos_pitch
    }

    fn forward(&self, y: f64) -> f64 {
        self.focal * self.cos_pitch - (y - self.centre[1]) * self.sin_pitch
    }

    fn plane_point_at(&self, x: f64, y: f64) -> Option<[f64; 2]> {
        let down = self.down(y);
        (down > 0.0).then(|| {
            let scale = self.height / down;
            [(x - self.centre[0]) * scale, self.forward(y) * scale]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `width x height` lake whose water is the rows from `shore` down, narrowing towards the
    /// shore so that its rows' ends differ.
    fn lake(width: usize, height: usize, shore: usize) -> Vec<bool> {
        (0..width * height)
            .map(|i| {
                let (x, y) = (i % width, i / width);
                let inset = (height - y) / 3;
                y >= shore && x >= inset && x + inset < width
            })
            .collect()
    }

    #[test]
    fn the_tables_find_the_cores_grid_for_every_camera_and_scale() {
        let (width, height) = (160, 100);
        let water = lake(width, height, 60);
        let mut checked = 0;
        for sim_scale in [1, 2, 3] {
            for horizon in [-400.0, -20.0, 0.0, 30.5, 55.0, 59.0] {
                for focal in [None, Some(60.0), Some(400.0)] {
                    let mut perspective = Perspective::new(horizon);
                    if let Some(focal) = focal {
                        perspective = perspective.with_focal(focal);
                    }
                    let mut pool =
                        Pool::with_sim_scale(width as u32, height as u32, sim_scale).unwrap();
                    pool.set_water(Some(&water), Some(perspective)).unwrap();
                    let photo = GpuPhoto::new(&pool, Some(&water), Some(&perspective))
                        .unwrap_or_else(|error| {
                            panic!("horizon {horizon}, focal {focal:?}, scale {sim_scale}: {error}")
                        });
                    let tables = photo.plane.expect("in perspective");
                    let [grid_width, _] = tables.grid;
                    for y in tables.first_row..height {
                        let row = &tables.rows[y * ROW_FLOATS..(y + 1) * ROW_FLOATS];
                        assert!(row[0] > 0.0 && row[3] > 0.0, "row {y}: {row:?}");
                        assert!(row[4] <= row[5] && row[6] < row[7], "row {y}: {row:?}");
                        assert!(row[7] as usize <= grid_width, "row {y}: {row:?}");
                    }
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 54);
    }

    #[test]
    fn calm_water_sums_no_slope_and_a_stone_does() {
        let (width, height) = (120, 80);
        let water = lake(width, height, 40);
        let perspective = Perspective::new(30.0);
        let mut pool = Pool::new(width as u32, height as u32).unwrap();
        pool.set_water(Some(&water), Some(perspective)).unwrap();
        let photo = GpuPhoto::new(&pool, Some(&water), Some(&perspective)).unwrap();
        // Land, and the sky above the horizon, is 0 in the mask; the water 255.
        assert_eq!(photo.mask[10 * width + 60], 0);
        assert_eq!(photo.mask[70 * width + 60], 255);
        let mut tables = photo.plane.unwrap();
        let look = PhotoLook::default();
        tables.sum_slopes(pool.solver().heights(), look.wave_height);
        assert!(tables.sums.iter().all(|&sum| sum == 0.0));
        pool.drop_stone(60, 65, 6, 2000).unwrap();
        for _ in 0..5 {
            pool.step();
        }
        tables.sum_slopes(pool.solver().heights(), look.wave_height);
        assert!(tables.sums.iter().any(|&sum| sum != 0.0));
    }

    #[test]
    fn a_horizon_without_a_mask_makes_everything_below_it_water() {
        let (width, height) = (120, 80);
        let perspective = Perspective::new(-10.5).with_focal(90.0);
        let mut pool = Pool::with_sim_scale(width as u32, height as u32, 2).unwrap();
        pool.set_water(None, Some(perspective)).unwrap();
        let photo = GpuPhoto::new(&pool, None, Some(&perspective)).unwrap();
        assert!(photo.mask.iter().all(|&w| w == 255));
        let horizon = Perspective::new(20.0);
        pool.set_water(None, Some(horizon)).unwrap();
        let photo = GpuPhoto::new(&pool, None, Some(&horizon)).unwrap();
        // Rows 0..=20 lie at or above the horizon.
        assert!(photo.mask[..21 * width].iter().all(|&w| w == 0));
        assert!(photo.mask[21 * width..].iter().all(|&w| w == 255));
        assert!(photo.plane.is_some());
    }

    #[test]
    fn water_seen_from_above_has_a_mask_and_no_tables() {
        let (width, height) = (40, 30);
        let water = lake(width, height, 10);
        let mut pool = Pool::new(width as u32, height as u32).unwrap();
        pool.set_water(Some(&water), None).unwrap();
        let photo = GpuPhoto::new(&pool, Some(&water), None).unwrap();
        assert!(photo.plane.is_none());
        let expected: Vec<u8> = water.iter().map(|&w| if w { 255 } else { 0 }).collect();
        assert_eq!(photo.mask, expected);
    }
}
