//! Where the water ends: walls inside the pool, and what happens at its edges.
//!
//! Both are shared by every solver, so they live apart from them. [`Obstacles`] is a mask of
//! wall cells; a wall holds no water (its height is forced to rest every step), so waves
//! reflect off it and pass through gaps between walls with diffraction, as the seeds describe for
//! a reef or a slit. [`Boundary::Absorb`] makes open water with a sponge: a band along the edges
//! where the field is multiplied by a factor that falls smoothly from 1 to `1 - Sponge::MAX_DAMPING` at
//! the edge. A smooth ramp matters: an abrupt change of damping reflects waves itself. Inside the
//! band nothing changes, so the classic solver keeps its exact semantics in the interior.

use crate::error::Error;
use crate::limits::{MAX_SIDE, check_size};

/// What happens to waves at the edges of the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Boundary {
    /// The edges are walls: waves bounce back (as in the classic effect).
    #[default]
    Reflect,
    /// Open water: waves leave the pool through a damping band along the edges.
    Absorb,
}

impl Boundary {
    /// Every edge condition, in the order an error lists their names.
    const ALL: [Boundary; 2] = [Self::Reflect, Self::Absorb];

    /// The name a scene file or a command line gives it: `"reflect"` or `"absorb"`.
    fn name(self) -> &'static str {
        match self {
            Self::Reflect => "reflect",
            Self::Absorb => "absorb",
        }
    }
}

impl std::str::FromStr for Boundary {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        Error::parse_name("boundary", text, &Self::ALL, Self::name)
    }
}

/// A mask of wall cells over a grid.
#[derive(Debug, Clone)]
pub struct Obstacles {
    width: usize,
    height: usize,
    walls: Vec<bool>,
    count: usize,
    /// Changes with every edit, so what is built from the walls knows when to rebuild: a
    /// number no other mask in the process has had (see [`next_generation`]).
    generation: u64,
}

/// A number no mask has had before, so that a cache keyed by it cannot mistake one mask for
/// another, even one put in the pool's place wholesale.
fn next_generation() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl PartialEq for Obstacles {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height) == (other.width, other.height) && self.walls == other.walls
    }
}

impl Eq for Obstacles {}

impl Obstacles {
    /// No walls on a `width x height` grid.
    ///
    /// Fails, before allocating, for a size the solvers refuse (a side of 0, or beyond
    /// [`MAX_SIDE`](crate::limits::MAX_SIDE) / [`MAX_CELLS`](crate::limits::MAX_CELLS)).
    pub fn new(width: usize, height: usize) -> Result<Self, Error> {
        let wide = |side: usize| u64::try_from(side).unwrap_or(u64::MAX);
        let (width, height) = check_size(wide(width), wide(height))?;
        let (width, height) = (width as usize, height as usize);
        Ok(Self {
            width,
            height,
            walls: vec![false; width * height],
            count: 0,
            generation: next_generation(),
        })
    }

    /// Grid width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Grid height.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The mask, row-major; `true` is a wall.
    pub fn cells(&self) -> &[bool] {
        &self.walls
    }

    /// Number of wall cells.
    pub fn count(&self) -> usize {
        self.count
    }

    /// A number that changes whenever a cell changes, unique to this state of this mask in the
    /// process (a clone shares it; two masks with the same walls may still differ in it): what
    /// is drawn from the walls is rebuilt when it changes.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether there is no wall at all (solvers skip the wall pass then).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether cell `(x, y)` is a wall; cells outside the grid are not.
    pub fn is_wall(&self, x: i64, y: i64) -> bool {
        self.index(x, y).is_some_and(|i| self.walls[i])
    }

    /// Makes cell `(x, y)` a wall or water; cells outside the grid are ignored.
    pub fn set(&mut self, x: i64, y: i64, wall: bool) {
        if let Some(i) = self.index(x, y)
            && self.walls[i] != wall
        {
            self.walls[i] = wall;
            self.generation = next_generation();
            if wall {
                self.count += 1;
            } else {
                self.count -= 1;
            }
        }
    }

    /// Sets every cell of the disk of `radius` around `(x, y)` (same shape as a stone).
    pub fn set_disk(&mut self, x: i64, y: i64, radius: u32, wall: bool) {
        let r = i64::from(radius.min(MAX_SIDE));
        for py in (y - r).max(0)..(y + r).min(self.height as i64) {
            for px in (x - r).max(0)..(x + r).min(self.width as i64) {
                if (px - x).pow(2) + (py - y).pow(2) < r * r {
                    self.set(px, py, wall);
                }
            }
        }
    }

    /// Replaces the mask; `walls` must have `width * height` entries.
    pub fn set_all(&mut self, walls: &[bool]) -> Result<(), Error> {
        if walls.len() != self.walls.len() {
            return Err(Error::WrongLength {
                buffer: crate::Buffer::ObstacleMask,
                got: walls.len(),
                expected: self.walls.len(),
                width: self.width,
                height: self.height,
            });
        }
        self.walls.copy_from_slice(walls);
        self.count = walls.iter().filter(|&&wall| wall).count();
        self.generation = next_generation();
        Ok(())
    }

    /// Removes every wall.
    pub fn clear(&mut self) {
        self.walls.fill(false);
        self.count = 0;
        self.generation = next_generation();
    }

    /// Sets every wall cell of `field` to `rest`.
    pub fn dry<T: Copy>(&self, field: &mut [T], rest: T) {
        if self.is_empty() {
            return;
        }
        // Every cell written, a wall's with `rest` and the others' with themselves: a select the
        // compiler vectorises, where a conditional store is a branch per cell (the land around a
        // photograph's water is a quarter of its grid).
        for (value, &wall) in field.iter_mut().zip(&self.walls) {
            *value = if wall { rest } else { *value };
        }
    }

    fn index(&self, x: i64, y: i64) -> Option<usize> {
        ((0..self.width as i64).contains(&x) && (0..self.height as i64).contains(&y))
            .then(|| y as usize * self.width + x as usize)
    }
}

/// The damping band of an absorbing boundary: per-cell factors near the edges.
#[derive(Debug, Clone, PartialEq)]
pub struct Sponge {
    /// Width of the band in cells.
    band: usize,
    /// Factor for a cell `d` cells from the nearest edge, `d < band`; 1 beyond. Only the first
    /// [`MAX_SIDE`]` / 2` are kept: no cell of a grid within the limits is farther from an edge.
    profile: Vec<f32>,
    /// The same in 1/256 units for integer fields.
    profile_fixed: Vec<i32>,
}

impl Sponge {
    /// Damping removed at the very edge of the sponge, per step.
    pub const MAX_DAMPING: f32 = 0.12;

    /// A sponge sized for a `width x height` grid: a band of `min(w, h) / 8` cells, clamped
    /// to 6..=40, with a quadratic ramp.
    pub fn new(width: usize, height: usize) -> Self {
        let band = (width.min(height) / 8)
            .clamp(6, 40)
            .min(width.min(height) / 2);
        Self::with_band(band)
    }

    /// A sponge with a band of `band` cells.
    pub fn with_band(band: usize) -> Self {
        let profile: Vec<f32> = (0..band.min(MAX_SIDE as usize / 2))
            .map(|d| Self::ramp(band, d))
            .collect();
        let profile_fixed = profile.iter().map(|f| (f * 256.0).round() as i32).collect();
        Self {
            band,
            profile,
            profile_fixed,
        }
    }

    /// The factor `d` cells from the edge of a band of `band` cells (`d < band`).
    fn ramp(band: usize, d: usize) -> f32 {
        let depth = (band - d) as f32 / band as f32;
        1.0 - Self::MAX_DAMPING * depth * depth
    }

    /// Width of the band in cells.
    pub fn band(&self) -> usize {
        self.band
    }

    /// The factor for cell `(x, y)` of a `width x height` grid (1 for cells outside it).
    pub fn factor(&self, x: usize, y: usize, width: usize, height: usize) -> f32 {
        if x >= width || y >= height {
            return 1.0;
        }
        let d = x.min(y).min(width - 1 - x).min(height - 1 - y);
        if d < self.band {
            Self::ramp(self.band, d)
        } else {
            1.0
        }
    }

    /// Multiplies the band of an `f32` field of `width x height` cells by its factors (a field
    /// shorter than that: the rows it holds).
    pub fn apply_f32(&self, field: &mut [f32], width: usize, height: usize) {
        let height = rows_held(field.len(), width, height);
        self.for_each_band_cell(width, height, |i, d| field[i] *= self.profile[d]);
    }

    /// Multiplies the band of an `i16` field by its factors, in 1/256 fixed point rounding
    /// towards zero (so the band always drains, never feeds, the field). A field shorter than
    /// `width x height`: the rows it holds.
    pub fn apply_i16(&self, field: &mut [i16], width: usize, height: usize) {
        let height = rows_held(field.len(), width, height);
        self.for_each_band_cell(width, height, |i, d| {
            let scaled = i32::from(field[i]) * self.profile_fixed[d];
            field[i] = (scaled / 256) as i16;
        });
    }

    /// Calls `visit(index, distance_to_edge)` for every cell of the band (at most
    /// `profile.len()` cells from an edge, which is every band cell of a grid within the
    /// limits).
    fn for_each_band_cell(&self, width: usize, height: usize, mut visit: impl FnMut(usize, usize)) {
        let band = self.profile.len();
        for y in 0..height {
            let dy = y.min(height - 1 - y);
            if dy < band {
                for x in 0..width {
                    let d = dy.min(x).min(width - 1 - x);
                    visit(y * width + x, d);
                }
            } else {
                for x in (0..band.min(width)).chain(width.saturating_sub(band).max(band)..width) {
                    let d = x.min(width - 1 - x);
                    visit(y * width + x, d);
                }
            }
        }
    }
}

/// How many of a `width x height` field's rows a slice of `len` cells holds.
fn rows_held(len: usize, width: usize, height: usize) -> usize {
    height.min(len.checked_div(width).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sponge_band_visits_each_edge_cell_once_with_its_distance() {
        let sponge = Sponge::with_band(3);
        let (w, h) = (10, 8);
        let mut seen = vec![0u32; w * h];
        sponge.for_each_band_cell(w, h, |i, d| {
            seen[i] += 1;
            let (x, y) = (i % w, i / w);
            assert_eq!(d, x.min(y).min(w - 1 - x).min(h - 1 - y));
        });
        for y in 0..h {
            for x in 0..w {
                let d = x.min(y).min(w - 1 - x).min(h - 1 - y);
                assert_eq!(seen[y * w + x], u32::from(d < 3), "({x}, {y})");
            }
        }
    }

    #[test]
    fn sponge_ramps_smoothly_to_one() {
        let sponge = Sponge::with_band(20);
        assert!((sponge.factor(0, 50, 100, 100) - (1.0 - Sponge::MAX_DAMPING)).abs() < 1e-6);
        assert_eq!(sponge.factor(50, 50, 100, 100), 1.0);
        let mut previous = 0.0;
        for d in 0..20 {
            let f = sponge.factor(d, 50, 100, 100);
            assert!(f > previous && f < 1.0);
            previous = f;
        }
    }

    #[test]
    fn obstacles_count_and_dry() {
        let mut walls = Obstacles::new(6, 4).unwrap();
        walls.set(1, 1, true);
        walls.set(1, 1, true);
        walls.set(9, 9, true);
        walls.set_disk(4, 2, 1, true);
        assert_eq!(walls.count(), 2);
        let mut field = vec![5i16; 24];
        walls.dry(&mut field, 0);
        assert_eq!(field.iter().filter(|&&v| v == 0).count(), 2);
        walls.set(1, 1, false);
        assert_eq!(walls.count(), 1);
        walls.clear();
        assert!(walls.is_empty());
        assert_eq!(
            walls.set_all(&[true; 5]),
            Err(Error::WrongLength {
                buffer: crate::Buffer::ObstacleMask,
                got: 5,
                expected: 24,
                width: 6,
                height: 4,
            })
        );
    }
}
