//! Where a picture holds water: a mask of its pixels, and in perspective the plane behind them.
//!
//! A photograph is rarely water from edge to edge. [`WaterRegion`] keeps which picture pixels
//! are water and turns the rest into land for the solver: grid cells whose pixel is not water
//! hold no water, so waves reflect at the shoreline as they do at a wall. Land is kept apart from
//! the pool's own walls ([`crate::Obstacles`]), which the wall look draws as stone kerbs: the
//! shore is the photograph's own, drawn untouched (the pool copies the source pixels back over
//! the land after rendering, so they are the picture's bit for bit in every frame). The solver
//! sees the union of the two, rebuilt only when the walls change (their generation counter).
//!
//! In perspective ([`crate::Perspective`]) the grid is laid on the water plane
//! ([`PlaneGrid`]) and a cell is land where the picture point it is seen at is not water, lies
//! outside the picture, or lies beyond the grid's reach near the horizon.

use crate::error::Error;
use crate::photo::perspective::{Perspective, PlaneGrid};
use crate::simulation::boundary::Obstacles;

/// The water pixels of a picture, the grid's land cells, and the plane in perspective.
#[derive(Debug, Clone)]
pub(crate) struct WaterRegion {
    width: usize,
    height: usize,
    /// One per picture pixel, row-major: `true` where the picture shows water.
    water: Vec<bool>,
    plane: Option<PlaneGrid>,
    /// Cells that hold no water.
    land: Obstacles,
    /// `land` and the pool's walls, what the solver and floats see.
    walls: Obstacles,
    /// The generation of the pool's walls that `walls` was built with.
    walls_generation: Option<u64>,
}

impl WaterRegion {
    /// The region of a `width x height` picture whose water is `mask` (`true` = water; `None`:
    /// all of it), simulated at `sim_scale` pixels (or plane units) per cell, seen from above or
    /// by `perspective`.
    pub(crate) fn new(
        width: u32,
        height: u32,
        sim_scale: u32,
        mask: Option<&[bool]>,
        perspective: Option<&Perspective>,
    ) -> Result<Self, Error> {
        let (w, h) = (width as usize, height as usize);
        let mut water = match mask {
            Some(mask) => mask.to_vec(),
            None => vec![true; w * h],
        };
        if !water.contains(&true) {
            return Err(Error::NoWater);
        }
        if let Some(perspective) = perspective {
            perspective.validate(width, height)?;
            // Nothing at or above the horizon is water, whatever the mask says.
            let sky_rows = (f64::from(perspective.horizon) + 0.5)
                .floor()
                .clamp(-1.0, h as f64 - 1.0);
            let sky_end = ((sky_rows + 1.0) as usize).min(h) * w;
            water[..sky_end].fill(false);
        }
        let plane = perspective
            .map(|perspective| {
                PlaneGrid::new(perspective, width, height, sim_scale, |x, y| {
                    water[y * w + x]
                })
            })
            .transpose()?;
        let (grid_width, grid_height) = match &plane {
            Some(plane) => (plane.width, plane.height),
            None => (
                w.div_ceil(sim_scale as usize),
                h.div_ceil(sim_scale as usize),
            ),
        };
        let mut land = Obstacles::new(grid_width, grid_height)?;
        let scale = sim_scale as usize;
        for cell_y in 0..grid_height {
            for cell_x in 0..grid_width {
                let pixel = match &plane {
                    Some(plane) => plane.pixel_of_cell(cell_x, cell_y).and_then(|[x, y]| {
                        let inside = x >= 0.0 && y >= plane.first_row as f64;
                        let (x, y) = (x as usize, y as usize);
                        (inside && x < w && y < h).then_some((x, y))
                    }),
                    None => Some((
                        (cell_x * scale + scale / 2).min(w - 1),
                        (cell_y * scale + scale / 2).min(h - 1),
                    )),
                };
                if !pixel.is_some_and(|(x, y)| water[y * w + x]) {
                    land.set(cell_x as i64, cell_y as i64, true);
                }
            }
        }
        let walls = land.clone();
        Ok(Self {
            width: w,
            height: h,
            water,
            plane,
            land,
            walls,
            walls_generation: None,
        })
    }

    /// The grid's size in cells.
    pub(crate) fn grid_size(&self) -> (usize, usize) {
        (self.land.width(), self.land.height())
    }

    /// The plane, in perspective.
    pub(crate) fn plane(&self) -> Option<&PlaneGrid> {
        self.plane.as_ref()
    }

    /// One flag per picture pixel: `true` where the picture shows water.
    pub(crate) fn water(&self) -> &[bool] {
        &self.water
    }

    /// Whether picture pixel `(x, y)` is water the pool simulates (in perspective: below the
    /// grid's far edge).
    pub(crate) fn is_live_water(&self, x: i32, y: i32) -> bool {
        let inside = x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height;
        let reached = self
            .plane
            .as_ref()
            .is_none_or(|plane| y as usize >= plane.first_row);
        inside && reached && self.water[y as usize * self.width + x as usize]
    }

    /// The grid cell seen at picture pixel `(x, y)`, in perspective; `None` at or above the
    /// horizon or without perspective.
    pub(crate) fn cell_of_pixel(&self, x: f64, y: f64) -> Option<[i32; 2]> {
        let [gx, gz] = self.plane.as_ref()?.cell_of_pixel(x + 0.5, y + 0.5)?;
        let clamp = |v: f64| v.floor().clamp(-1e9, 1e9) as i32;
        Some([clamp(gx), clamp(gz)])
    }

    /// The cells the solver keeps dry: the land and `pool_walls`, rebuilt when the walls changed.
    pub(crate) fn walls(&mut self, pool_walls: &Obstacles) -> &Obstacles {
        if self.walls_generation != Some(pool_walls.generation()) {
            let merged: Vec<bool> = self
                .land
                .cells()
                .iter()
                .zip(pool_walls.cells())
                .map(|(&land, &wall)| land || wall)
                .collect();
            // Same size by construction: the pool's walls are made at the region's grid size.
            if self.walls.set_all(&merged).is_ok() {
                self.walls_generation = Some(pool_walls.generation());
            }
        }
        &self.walls
    }

    /// The cells the solver keeps dry as last built by [`walls`](Self::walls).
    pub(crate) fn current_walls(&self) -> &Obstacles {
        &self.walls
    }

    /// Copies the source's pixels over every picture pixel that is not water, so the land is
    /// the picture's own, bit for bit.
    pub(crate) fn restore_land<P: Copy>(&self, src: &[P], dst: &mut [P]) {
        for ((out, &pixel), &water) in dst.iter_mut().zip(src).zip(&self.water) {
            if !water {
                *out = pixel;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_perspective_the_grid_holds_the_visible_water_and_the_rest_is_land() {
        // The benchmark's picture (`benches/photo.rs`): 1280x720, water below row 240, horizon
        // at row 200. The grid is a rectangle on the plane; what the camera sees of it is a
        // trapezoid, narrow near the camera and wide far off, so the corners are land.
        let (width, height) = (1280u32, 720u32);
        let mask: Vec<bool> = (0..width * height).map(|i| i / width >= 240).collect();
        let region = WaterRegion::new(
            width,
            height,
            1,
            Some(&mask),
            Some(&Perspective::new(200.0)),
        )
        .unwrap();
        let plane = region.plane().unwrap();
        let (grid_width, grid_height) = region.grid_size();
        let water_cells = region.land.cells().iter().filter(|&&land| !land).count();
        // The camera's prediction: a grid row whose middle is seen at picture row `y` (within
        // the reach) holds as many water cells as plane units fit across the picture there.
        let predicted: f64 = (0..grid_height)
            .filter_map(|row| {
                let [_, y] = plane.pixel_of_cell(grid_width / 2, row)?;
                let seen = y >= plane.first_row as f64 && y < f64::from(height);
                seen.then(|| f64::from(width) / plane.camera.pixels_per_unit(y))
            })
            .sum();
        let cells = grid_width * grid_height;
        println!(
            "grid {grid_width}x{grid_height} = {cells} cells ({:.2} per picture pixel), reaching \
             row {} (a unit {:.3} pixels wide there): {water_cells} water cells ({:.1}%), the \
             camera predicts {predicted:.0}",
            cells as f64 / f64::from(width * height),
            plane.first_row,
            plane.far_unit,
            100.0 * water_cells as f64 / cells as f64,
        );
        assert!((water_cells as f64 / predicted - 1.0).abs() < 0.02);
        assert!(cells as f64 <= crate::photo::perspective::GRID_BUDGET * f64::from(width * height));
    }
}
