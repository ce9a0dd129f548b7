//! Writes the obstacle masks of the demonstration scenes in `scenes/` (white water, black walls).
//!
//! The masks are committed; run `cargo run -p ripples-cli --example scene_masks` after changing
//! the geometry here, and keep the numbers in the scene files' comments in step.

use image::{GrayImage, Luma};

const WATER: Luma<u8> = Luma([255]);
const WALL: Luma<u8> = Luma([0]);

/// A vertical wall `thickness` wide at `x`, with gaps `(centre_y, width)`.
fn slit_wall(width: u32, height: u32, x: u32, thickness: u32, gaps: &[(u32, u32)]) -> GrayImage {
    GrayImage::from_fn(width, height, |px, py| {
        let in_wall = (x..x + thickness).contains(&px);
        let in_gap = gaps
            .iter()
            .any(|&(centre, gap)| py + gap / 2 >= centre && py < centre + gap - gap / 2);
        if in_wall && !in_gap { WALL } else { WATER }
    })
}

/// An irregular rock: a disk whose radius wobbles with the angle.
fn reef(width: u32, height: u32) -> GrayImage {
    let (cx, cy) = (width as f32 * 0.55, height as f32 * 0.5);
    GrayImage::from_fn(width, height, |px, py| {
        let (dx, dy) = (px as f32 - cx, py as f32 - cy);
        let angle = dy.atan2(dx);
        let radius = 34.0 + 7.0 * (3.0 * angle).sin() + 4.0 * (5.0 * angle + 1.0).cos();
        if dx.hypot(dy) < radius { WALL } else { WATER }
    })
}

fn main() -> Result<(), image::ImageError> {
    let scenes = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes");
    reef(480, 320).save(scenes.join("reef.png"))?;
    slit_wall(520, 440, 140, 3, &[(220, 24)]).save(scenes.join("single-slit.png"))?;
    slit_wall(520, 440, 140, 3, &[(200, 6), (240, 6)]).save(scenes.join("double-slit.png"))?;
    println!(
        "wrote reef.png, single-slit.png, double-slit.png to {}",
        scenes.display()
    );
    Ok(())
}
