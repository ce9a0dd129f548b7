//! The embedded default image: a swimming-pool floor generated in code.
//!
//! Ripples needs something to refract when the user gives no image, and a binary asset would
//! have to be shipped to every front end (the command, the window, the web module). Tiles with
//! grout lines and a lane marking have many straight edges, which is what makes refraction
//! visible, and soft caustic light makes it look like water even when it is still.

use crate::error::Error;
use crate::limits::check_size;

/// A pool-tile texture of `width x height` RGBA pixels (opaque), for any size a [`crate::Pool`]
/// accepts (a size it refuses is refused here too, before anything is allocated).
///
/// ```
/// let image = ripples::pool_tiles(64, 32)?;
/// assert_eq!(image.len(), 64 * 32 * 4);
/// assert!(image.chunks_exact(4).all(|pixel| pixel[3] == 255));
/// # Ok::<(), ripples::Error>(())
/// ```
pub fn pool_tiles(width: u32, height: u32) -> Result<Vec<u8>, Error> {
    let (width, height) = check_size(u64::from(width), u64::from(height))?;
    let (w, h) = (width as usize, height as usize);
    let mut pixels = vec![0u8; w * h * 4];
    let tile = (w.min(h) / 10).clamp(12, 96);
    let grout = (tile / 12).max(1);
    // A lane marking along the middle row of tiles, ending in a cross bar near each end.
    let lane_row = (h / 2) / tile;
    let lane_start = tile;
    let lane_end = w.saturating_sub(tile);
    for (index, pixel) in pixels.chunks_exact_mut(4).enumerate() {
        let (x, y) = (index % w, index / w);
        let (tile_x, tile_y) = (x / tile, y / tile);
        let (in_x, in_y) = (x % tile, y % tile);
        let is_grout = in_x < grout || in_y < grout;
        let on_lane_row = tile_y == lane_row && (lane_start..lane_end).contains(&x);
        let near_lane_end =
            (x >= lane_start && x < lane_start + tile) || (x + tile >= lane_end && x < lane_end);
        let on_cross_bar = near_lane_end && tile_y + 1 >= lane_row && tile_y <= lane_row + 1;
        let mut colour = if is_grout {
            [196.0, 226.0, 236.0]
        } else if on_lane_row || on_cross_bar {
            [22.0, 52.0, 128.0]
        } else {
            let shade = tile_shade(tile_x, tile_y);
            [46.0 + shade, 150.0 + shade, 206.0 + shade * 0.5]
        };
        let light = caustic(x as f32, y as f32, tile as f32);
        for channel in &mut colour {
            *channel += light;
        }
        for (out, value) in pixel.iter_mut().zip(colour) {
            *out = value.clamp(0.0, 255.0) as u8;
        }
        pixel[3] = 255;
    }
    Ok(pixels)
}

/// A small per-tile brightness variation, as real glazed tiles have.
fn tile_shade(tile_x: usize, tile_y: usize) -> f32 {
    let mut hash =
        (tile_x as u32).wrapping_mul(0x9E37_79B1) ^ (tile_y as u32).wrapping_mul(0x85EB_CA77);
    hash ^= hash >> 15;
    hash = hash.wrapping_mul(0x2C1B_3C6D);
    hash ^= hash >> 12;
    (hash % 17) as f32 - 8.0
}

/// Soft bright threads of light, like the caustics on a sunny pool floor.
fn caustic(x: f32, y: f32, tile: f32) -> f32 {
    let k = std::f32::consts::TAU / (tile * 2.7);
    let a = (x * k + 1.9 * (y * k * 0.71).sin()).sin();
    let b = (y * k * 1.13 + 1.7 * (x * k * 0.57).sin()).sin();
    let ridge = 1.0 - (a + b).abs() * 0.5;
    ridge.max(0.0).powi(6) * 42.0
}
