//! What a GPU needs to draw a living photograph: the water mask and, in perspective, the photo
//! look's tables.
//!
//! The CPU draws a pool's water in perspective with the core's photo look
//! (`ripples::kernels::photo`), from per-row tables it builds once per pool (each picture row's
//! place on the plane, [`ripples::PhotoGeometry`]) and from the surface's slopes summed down
//! each grid column, once per frame. The WebGL2 shader (`web/gl/photo-shader.js`) runs the same
//! kernel per pixel and reads the same tables: this module packs the core's geometry
//! ([`Pool::photo_geometry`]) into the flat arrays a texture takes, so there is one geometry
//! and the two renderers cannot disagree on it.
//!
//! Uploaded once per water region: the mask (one byte per picture pixel), the rows (eight
//! floats per picture row) and the camera (a few uniforms). Per frame: the column sums, two
//! floats per grid cell and one row more.

use ripples::{Heights, PhotoLook, Pool};

use crate::options::WebError;

/// Floats per picture row in [`PlaneTables::rows`].
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
    /// grid_dx, first grid row, end grid row, first column, end column]` (the core's
    /// [`ripples::PhotoRowPlace`], as its renderer hands it to the kernel); rows above
    /// `first_row` are zeros.
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
    /// The mask and tables for `pool`, whose water [`Pool::set_water`] set; an error without a
    /// water region.
    pub fn new(pool: &Pool) -> Result<Self, WebError> {
        let Some(water) = pool.water_pixels() else {
            return Err(WebError::NoWaterRegion);
        };
        let mask = water.iter().map(|&w| if w { 255 } else { 0 }).collect();
        let plane = pool
            .photo_geometry()
            .map(|geometry| PlaneTables::new(geometry, pool.height() as usize));
        Ok(Self { mask, plane })
    }
}

impl PlaneTables {
    /// The tables of `geometry`, for a picture `height` rows tall.
    fn new(geometry: &ripples::PhotoGeometry, height: usize) -> Self {
        let first_row = geometry.first_row;
        let mut rows = vec![0.0; height * ROW_FLOATS];
        for (place, out) in geometry
            .rows
            .iter()
            .zip(rows[first_row * ROW_FLOATS..].chunks_exact_mut(ROW_FLOATS))
        {
            let [from, to] = place.columns;
            out.copy_from_slice(&[
                place.down,
                place.forward,
                place.grid_x0 - from as f32,
                place.grid_dx,
                place.grid_rows[0],
                place.grid_rows[1],
                from as f32,
                to as f32,
            ]);
        }
        let [grid_width, grid_height] = geometry.grid;
        Self {
            rows,
            first_row,
            camera: [
                geometry.centre[0],
                geometry.centre[1],
                geometry.focal,
                geometry.pitch[0],
                geometry.pitch[1],
            ],
            grid: geometry.grid,
            scale: geometry.scale,
            sums: vec![0.0; 2 * grid_width * (grid_height + 1)],
        }
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

/// The photo look's uniforms for `look`: `[sun x, sun up, sun forward, glint strength]`.
pub fn photo_look_uniforms(look: &PhotoLook) -> [f32; 4] {
    let [x, up, forward] = look.sun();
    [x, up, forward, look.glints]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ripples::Perspective;

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
    fn the_tables_are_the_cores_geometry_for_every_camera_and_scale() {
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
                    let photo = GpuPhoto::new(&pool).unwrap_or_else(|error| {
                        panic!("horizon {horizon}, focal {focal:?}, scale {sim_scale}: {error}")
                    });
                    let tables = photo.plane.expect("in perspective");
                    let [grid_width, grid_height] = tables.grid;
                    let solver = pool.solver();
                    assert_eq!(
                        [grid_width, grid_height],
                        [solver.width() as usize, solver.height() as usize]
                    );
                    let geometry = pool.photo_geometry().unwrap();
                    assert_eq!(geometry.rows.len(), height - tables.first_row);
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
        let photo = GpuPhoto::new(&pool).unwrap();
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
        let photo = GpuPhoto::new(&pool).unwrap();
        assert!(photo.mask.iter().all(|&w| w == 255));
        let horizon = Perspective::new(20.0);
        pool.set_water(None, Some(horizon)).unwrap();
        let photo = GpuPhoto::new(&pool).unwrap();
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
        let photo = GpuPhoto::new(&pool).unwrap();
        assert!(photo.plane.is_none());
        let expected: Vec<u8> = water.iter().map(|&w| if w { 255 } else { 0 }).collect();
        assert_eq!(photo.mask, expected);
    }
}
