//! How walls look: a bevelled stone edge lit by the look's light, and the shade they throw on
//! the pool's floor.
//!
//! A wall holds no water, so the renderer alone would show the picture unmoved there: a hole in
//! the water that reads as a bug. [`WallLook`] draws walls as a material instead. Per wall pixel,
//! the distance to the nearest water (a chamfer distance transform of the wall mask) gives a
//! rounded edge, a quarter circle [`BEVEL`] pixels wide; its slope, lit by the sun (natural look)
//! or the light (the others), shades the stone, so each wall shows a lit side and a dark side as
//! a stone kerb does, and its flat top is a slightly mottled sandstone. Beside the walls the
//! floor darkens a little (light reaches a corner from fewer directions), and in the natural
//! look each wall casts a shadow away from the sun, as long as the sun is low and the pool deep.
//! Caustics, refraction and glints stop at the wall's edge: the material replaces whatever the
//! water renderer drew there.
//!
//! All of this depends only on the walls, the image size and the light, never on the water, so
//! it is built once when one of them changes (the walls carry a generation counter) and a frame
//! only copies the wall pixels and scales the shaded floor pixels: a cost in proportion to the
//! walls, nothing without them.

use crate::kernels::natural::PixelOrder;
use crate::looks::{LitSettings, Look};
use crate::simulation::boundary::Obstacles;

/// Width of a wall's rounded edge, in pixels.
pub const BEVEL: f32 = 5.0;

/// Height of a wall's top above the water, in pixels (the length of the shadow it throws).
pub const WALL_HEIGHT: f32 = 10.0;

/// Longest shadow a wall throws, in pixels (the sun's elevation goes down to 1 degree).
pub const MAX_SHADOW: f32 = 96.0;

/// How much light a wall's shadow takes from the floor.
pub const SHADOW_DARKNESS: f32 = 0.45;

/// Reach of the darkening along a wall's foot, in pixels, and its depth at the wall.
const CORNER_REACH: f32 = 4.0;
const CORNER_DARKNESS: f32 = 0.3;

/// The stone's colour (RGB, 0..=255): a light, warm sandstone.
const STONE: [f32; 3] = [178.0, 164.0, 140.0];

/// Light that reaches every face of the stone whatever its direction.
const AMBIENT: f32 = 0.45;

/// The walls' pixels and the floor pixels they shade, for one set of walls, image size and light.
#[derive(Debug, Clone, Default)]
pub struct WallLook {
    key: Option<Key>,
    /// Wall pixels (index into the frame) and their colour, RGBA.
    wall_pixels: Vec<(u32, [u8; 4])>,
    /// Floor pixels darkened by a wall (index, light kept out of 256).
    shaded_pixels: Vec<(u32, u16)>,
    /// Scratch: the wall mask per pixel and the chamfer distances, reused between builds.
    mask: Vec<bool>,
    distances: Vec<u16>,
}

/// What the material was built for.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Key {
    generation: u64,
    width: usize,
    height: usize,
    scale: u32,
    light: [f32; 3],
    shadow: f32,
}

impl WallLook {
    /// Draws the walls over a frame the water renderer has just filled: wall pixels become
    /// stone, floor pixels near walls are shaded. `width` is the frame's width; `order` says
    /// where red and blue go.
    pub fn apply(
        &mut self,
        obstacles: &Obstacles,
        scale: u32,
        look: &Look,
        order: PixelOrder,
        frame: &mut [[u8; 4]],
        width: usize,
    ) {
        if obstacles.is_empty() || frame.is_empty() || width == 0 {
            return;
        }
        self.prepare(obstacles, scale, look, width, frame.len() / width);
        for &(index, [r, g, b, a]) in &self.wall_pixels {
            frame[index as usize] = match order {
                PixelOrder::Rgba => [r, g, b, a],
                PixelOrder::Bgra => [b, g, r, a],
            };
        }
        for &(index, kept) in &self.shaded_pixels {
            let pixel = &mut frame[index as usize];
            for channel in &mut pixel[..3] {
                *channel = ((u32::from(*channel) * u32::from(kept)) >> 8) as u8;
            }
        }
    }

    /// The walls as a layer for a renderer that draws the water elsewhere (a GPU), the frame's
    /// size (`width` wide): wall pixels `[r, g, b, 255]` (their stone, RGBA), floor pixels a
    /// wall shades `[kept, 0, 0, 128]` (their colour becomes `colour * kept >> 8`, as
    /// [`apply`](Self::apply) does), every other pixel `[0, 0, 0, 0]`.
    pub fn layer(
        &mut self,
        obstacles: &Obstacles,
        scale: u32,
        look: &Look,
        out: &mut [[u8; 4]],
        width: usize,
    ) {
        out.fill([0; 4]);
        if obstacles.is_empty() || out.is_empty() || width == 0 {
            return;
        }
        self.prepare(obstacles, scale, look, width, out.len() / width);
        for &(index, pixel) in &self.wall_pixels {
            out[index as usize] = pixel;
        }
        for &(index, kept) in &self.shaded_pixels {
            if kept < 256 {
                out[index as usize] = [kept as u8, 0, 0, 128];
            }
        }
    }

    /// Rebuilds the wall and shade pixels when the walls, the frame's size, the grid's scale or
    /// the look's light changed since the last frame; otherwise keeps them.
    fn prepare(
        &mut self,
        obstacles: &Obstacles,
        scale: u32,
        look: &Look,
        width: usize,
        height: usize,
    ) {
        let (light, shadow) = light_of(look);
        let key = Key {
            generation: obstacles.generation(),
            width,
            height,
            scale,
            light,
            shadow,
        };
        if self.key != Some(key) {
            self.build(obstacles, key);
            self.key = Some(key);
        }
    }

    /// Builds the wall and floor pixels for `key`.
    fn build(&mut self, obstacles: &Obstacles, key: Key) {
        let Key {
            width,
            height,
            scale,
            light,
            shadow,
            ..
        } = key;
        let scale = scale.max(1) as usize;
        self.wall_pixels.clear();
        self.shaded_pixels.clear();
        // Only a window around the walls can change: as far as a shadow, a bevel or a wall's
        // foot reaches. Walls painted in one corner of a large pool rebuild only that corner.
        let reach = shadow.max(CORNER_REACH).ceil() as usize + BEVEL as usize + 2;
        let Some([x0, y0, x1, y1]) = wall_window(obstacles, scale, width, height, reach) else {
            return;
        };
        let image_width = width;
        let (width, height) = (x1 - x0, y1 - y0);
        let global = |x: usize, y: usize| ((y + y0) * image_width + x + x0) as u32;
        let (cells, grid_width) = (obstacles.cells(), obstacles.width());
        self.mask.clear();
        self.mask.extend((0..width * height).map(|index| {
            let (x, y) = (index % width + x0, index / width + y0);
            cells[(y / scale) * grid_width + x / scale]
        }));
        let mask = &self.mask;
        let is_wall = |x: usize, y: usize| mask[y * width + x];

        // Distance from each wall pixel to the water (and from each water pixel to the walls),
        // in thirds of a pixel: the 3-4 chamfer metric, within 8% of Euclidean.
        let distances = &mut self.distances;
        distances.clear();
        distances.resize(width * height, 0);
        chamfer(distances, width, height, is_wall);
        let to_water =
            |distances: &[u16], x: usize, y: usize| f32::from(distances[y * width + x]) / 3.0;

        // The stone: height of the rounded edge at a wall pixel, its slope from the neighbours,
        // lit by `light`.
        let edge_height = |d: f32| {
            let t = (d / BEVEL).min(1.0);
            BEVEL * (1.0 - (1.0 - t) * (1.0 - t)).sqrt()
        };
        for y in 0..height {
            for x in 0..width {
                if !is_wall(x, y) {
                    continue;
                }
                let here = to_water(distances, x, y);
                let height_at = |xx: usize, yy: usize| {
                    if is_wall(xx, yy) {
                        edge_height(to_water(distances, xx, yy))
                    } else {
                        0.0
                    }
                };
                let (left, right) = (x.saturating_sub(1), (x + 1).min(width - 1));
                let (up, down) = (y.saturating_sub(1), (y + 1).min(height - 1));
                let slope_x =
                    (height_at(right, y) - height_at(left, y)) / (right - left).max(1) as f32;
                let slope_y = (height_at(x, down) - height_at(x, up)) / (down - up).max(1) as f32;
                let length = (slope_x * slope_x + slope_y * slope_y + 1.0).sqrt();
                let normal = [-slope_x / length, -slope_y / length, 1.0 / length];
                let facing = normal[0] * light[0] + normal[1] * light[1] + normal[2] * light[2];
                // Wet and darker along the waterline, dry on top.
                let wet = 1.0 - 0.25 * (1.0 - (here / 1.5).min(1.0));
                let shade =
                    (AMBIENT + (1.0 - AMBIENT) * facing.max(0.0)) * wet * mottle(x + x0, y + y0);
                let rgb = STONE.map(|channel| (channel * shade).round().clamp(0.0, 255.0) as u8);
                self.wall_pixels
                    .push((global(x, y), [rgb[0], rgb[1], rgb[2], 255]));
            }
        }

        // The floor: a darker band along each wall's foot, and the shadow away from the sun.
        let mut kept: Vec<u16> = Vec::new();
        if shadow > 0.0 {
            kept.resize(width * height, 256);
            let (step_x, step_y) = {
                let length = (light[0] * light[0] + light[1] * light[1]).sqrt();
                if length > 1e-6 {
                    (-light[0] / length, -light[1] / length)
                } else {
                    (0.0, 0.0)
                }
            };
            if step_x != 0.0 || step_y != 0.0 {
                for y in 0..height {
                    for x in 0..width {
                        // Only the wall's outline throws a shadow the inside would not.
                        if !is_wall(x, y) || to_water(distances, x, y) > 1.5 {
                            continue;
                        }
                        let mut travelled = 1.0;
                        while travelled <= shadow {
                            let sx = (x as f32 + 0.5 + step_x * travelled).floor();
                            let sy = (y as f32 + 0.5 + step_y * travelled).floor();
                            if sx < 0.0 || sy < 0.0 || sx >= width as f32 || sy >= height as f32 {
                                break;
                            }
                            let (sx, sy) = (sx as usize, sy as usize);
                            if !is_wall(sx, sy) {
                                // Soft towards the shadow's end.
                                let fade = ((shadow - travelled) / (0.3 * shadow)).min(1.0);
                                let light_kept = 1.0 - SHADOW_DARKNESS * fade;
                                let value = (light_kept * 256.0) as u16;
                                let slot = &mut kept[sy * width + sx];
                                *slot = (*slot).min(value);
                            }
                            travelled += 1.0;
                        }
                    }
                }
            }
        }
        for y in 0..height {
            for x in 0..width {
                if is_wall(x, y) {
                    continue;
                }
                let index = y * width + x;
                let to_wall = f32::from(distances[index]) / 3.0;
                let corner = if to_wall <= CORNER_REACH {
                    let t = 1.0 - (to_wall - 1.0).max(0.0) / CORNER_REACH;
                    1.0 - CORNER_DARKNESS * t * t
                } else {
                    1.0
                };
                let shadowed = kept.get(index).map_or(1.0, |&k| f32::from(k) / 256.0);
                let light_kept = corner * shadowed;
                if light_kept < 1.0 {
                    self.shaded_pixels
                        .push((global(x, y), (light_kept * 256.0).round() as u16));
                }
            }
        }
    }
}

/// The pixels within `reach` of a wall, `[x0, y0, x1, y1]` (ends excluded) inside the image, or
/// `None` without walls.
fn wall_window(
    obstacles: &Obstacles,
    scale: usize,
    width: usize,
    height: usize,
    reach: usize,
) -> Option<[usize; 4]> {
    let grid_width = obstacles.width();
    let (mut low, mut high) = ([usize::MAX; 2], [0usize; 2]);
    for (index, _) in obstacles
        .cells()
        .iter()
        .enumerate()
        .filter(|(_, wall)| **wall)
    {
        let (x, y) = (index % grid_width, index / grid_width);
        low = [low[0].min(x), low[1].min(y)];
        high = [high[0].max(x), high[1].max(y)];
    }
    (low[0] != usize::MAX).then(|| {
        [
            (low[0] * scale).saturating_sub(reach).min(width),
            (low[1] * scale).saturating_sub(reach).min(height),
            ((high[0] + 1) * scale + reach).min(width),
            ((high[1] + 1) * scale + reach).min(height),
        ]
    })
}

/// The direction the light comes from (a unit vector: x right, y down the image, z up) and the
/// length of the walls' shadows (0: none) for `look`.
fn light_of(look: &Look) -> ([f32; 3], f32) {
    let (elevation, azimuth) = match look {
        Look::Natural(natural) => (natural.sun_elevation, natural.sun_azimuth),
        Look::Lit(lit) => (45.0, lit.light_angle),
        Look::Classic(_) | Look::Spring(_) => (45.0, LitSettings::default().light_angle),
    };
    let (elevation, azimuth) = (elevation.to_radians(), azimuth.to_radians());
    let light = [
        elevation.cos() * azimuth.cos(),
        -elevation.cos() * azimuth.sin(),
        elevation.sin(),
    ];
    let shadow = if let Look::Natural(natural) = look {
        ((natural.depth + WALL_HEIGHT) / elevation.tan()).min(MAX_SHADOW)
    } else {
        0.0
    };
    (light, shadow)
}

/// The 3-4 chamfer distance from every pixel to the nearest pixel of the other kind (wall to
/// water, water to wall), in thirds of a pixel, capped at `u16::MAX`. Two passes, forwards and
/// backwards; the edges of the image count as neither.
fn chamfer(
    distances: &mut [u16],
    width: usize,
    height: usize,
    is_wall: impl Fn(usize, usize) -> bool,
) {
    const FAR: u16 = u16::MAX - 8;
    for y in 0..height {
        for x in 0..width {
            let wall = is_wall(x, y);
            let border = [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)]
                .iter()
                .any(|&(dx, dy)| {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    (0..width as i64).contains(&nx)
                        && (0..height as i64).contains(&ny)
                        && is_wall(nx as usize, ny as usize) != wall
                });
            // A pixel beside the other kind is half a pixel from the edge between them; 1 in
            // thirds rounds that to a third, which keeps the first ring of each side distinct.
            distances[y * width + x] = if border { 1 } else { FAR };
        }
    }
    let relax = |distances: &mut [u16], x: usize, y: usize, nx: i64, ny: i64, cost: u16| {
        if (0..width as i64).contains(&nx)
            && (0..height as i64).contains(&ny)
            && is_wall(nx as usize, ny as usize) == is_wall(x, y)
        {
            let through = distances[ny as usize * width + nx as usize].saturating_add(cost);
            let here = &mut distances[y * width + x];
            *here = (*here).min(through);
        }
    };
    for y in 0..height {
        for x in 0..width {
            let (xi, yi) = (x as i64, y as i64);
            relax(distances, x, y, xi - 1, yi, 3);
            relax(distances, x, y, xi - 1, yi - 1, 4);
            relax(distances, x, y, xi, yi - 1, 3);
            relax(distances, x, y, xi + 1, yi - 1, 4);
        }
    }
    for y in (0..height).rev() {
        for x in (0..width).rev() {
            let (xi, yi) = (x as i64, y as i64);
            relax(distances, x, y, xi + 1, yi, 3);
            relax(distances, x, y, xi + 1, yi + 1, 4);
            relax(distances, x, y, xi, yi + 1, 3);
            relax(distances, x, y, xi - 1, yi + 1, 4);
        }
    }
}

/// The stone's grain at pixel `(x, y)`: a brightness factor around 1, from two octaves of value
/// noise (cells of 9 and 3 pixels), the same for the same pixel on every run.
fn mottle(x: usize, y: usize) -> f32 {
    let octave = |size: f32, seed: u32| {
        let (fx, fy) = (x as f32 / size, y as f32 / size);
        let (cx, cy) = (fx.floor(), fy.floor());
        let (tx, ty) = (fx - cx, fy - cy);
        let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
        let corner = |dx: f32, dy: f32| lattice((cx + dx) as i32, (cy + dy) as i32, seed);
        let top = corner(0.0, 0.0) + (corner(1.0, 0.0) - corner(0.0, 0.0)) * sx;
        let bottom = corner(0.0, 1.0) + (corner(1.0, 1.0) - corner(0.0, 1.0)) * sx;
        top + (bottom - top) * sy
    };
    1.0 + 0.10 * octave(9.0, 0x9e37) + 0.05 * octave(3.0, 0x85eb)
}

/// A value in `-1..1` for lattice point `(x, y)`: an integer hash, so the grain needs no table.
fn lattice(x: i32, y: i32, seed: u32) -> f32 {
    let mut h = (x as u32).wrapping_mul(0x27d4_eb2d) ^ (y as u32).wrapping_mul(0x1656_67b1) ^ seed;
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297a_2d39);
    h ^= h >> 15;
    (h & 0xffff) as f32 / 32768.0 - 1.0
}
