//! What `ripples render` adds when nothing would disturb the water, so that a render is never a
//! still picture by accident.
//!
//! Without stones, swipes, rain, sources or a scene file, every frame would be the picture
//! itself. Such a render gets the liveliness of `ripples` alone: the three stones of
//! `scenes/default.toml` at the same places relative to the pool and at the same moments
//! relative to the animation's length, their radii scaled with the pool, and the light rain of
//! `ripples play` (the same number of stones per megapixel and per second at any size and
//! frame rate). `--calm` keeps still water; a scene file is taken as it is, events or none.

use ripples::{DropEvent, RainSpec, Scene};

/// The line `ripples render` prints when it adds them.
pub const ADDED: &str =
    "nothing disturbs the water: adding rain and three stones (--calm for still water)";

/// Rain stones per megapixel per second: a light rain (that of `ripples play`).
pub const RAIN_DENSITY: f64 = 150.0;

/// The size and length the stones below were placed for (`scenes/default.toml`).
const PLACED_FOR: (f64, f64, f64) = (400.0, 300.0, 120.0);

/// The stones: x, y, radius, strength, frame, in a 400x300 pool over 120 frames.
const STONES: [(f64, f64, f64, i16, f64); 3] = [
    (130.0, 110.0, 7.0, 160, 0.0),
    (290.0, 190.0, 5.0, 128, 12.0),
    (200.0, 70.0, 9.0, 96, 40.0),
];

/// Whether nothing in `scene` disturbs the water.
pub fn is_undisturbed(scene: &Scene) -> bool {
    scene.drops.is_empty()
        && scene.swipes.is_empty()
        && scene.sources.is_empty()
        && scene.rain.is_none()
}

/// Adds the three stones and the rain to `scene` for a `width x height` pool (coordinates in
/// the pool's pixels).
pub fn add_default_disturbances(scene: &mut Scene, (width, height): (u32, u32)) {
    let (placed_width, placed_height, placed_frames) = PLACED_FOR;
    let (x_scale, y_scale) = (
        f64::from(width) / placed_width,
        f64::from(height) / placed_height,
    );
    let radius_scale = x_scale.min(y_scale);
    let last_frame = scene.frames.saturating_sub(1);
    for (x, y, radius, strength, frame) in STONES {
        scene.drops.push(DropEvent {
            frame: ((frame * f64::from(scene.frames) / placed_frames).round() as u32)
                .min(last_frame),
            x: ((x + 0.5) * x_scale) as i32,
            y: ((y + 0.5) * y_scale) as i32,
            radius: ((radius * radius_scale).round() as u32).max(1),
            strength,
        });
    }
    let megapixels = f64::from(width) * f64::from(height) / 1e6;
    scene.rain = Some(RainSpec {
        rate: (RAIN_DENSITY * megapixels / scene.fps).clamp(0.01, ripples::limits::MAX_RAIN_RATE),
        radius: [1, 3],
        strength: [48, 128],
        start: 0,
        end: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stones_keep_their_places_and_moments_at_any_size_and_length() {
        let mut scene = Scene::default();
        assert!(is_undisturbed(&scene));
        add_default_disturbances(&mut scene, (400, 300));
        assert!(!is_undisturbed(&scene));
        let stones: Vec<_> = scene
            .drops
            .iter()
            .map(|d| (d.x, d.y, d.radius, d.strength, d.frame))
            .collect();
        // At the default scene's size and length: its own stones.
        assert_eq!(
            stones,
            [
                (130, 110, 7, 160, 0),
                (290, 190, 5, 128, 12),
                (200, 70, 9, 96, 40)
            ]
        );
        assert!((scene.rain.unwrap().rate - 0.6).abs() < 1e-9, "its rain");

        let mut scene = Scene {
            frames: 12,
            fps: 60.0,
            ..Scene::default()
        };
        add_default_disturbances(&mut scene, (1600, 600));
        let stones: Vec<_> = scene
            .drops
            .iter()
            .map(|d| (d.x, d.y, d.radius, d.frame))
            .collect();
        assert_eq!(
            stones,
            [(522, 221, 14, 0), (1162, 381, 10, 1), (802, 141, 18, 4)]
        );
        let rate = scene.rain.unwrap().rate;
        assert!((rate - 150.0 * 0.96 / 60.0).abs() < 1e-9, "{rate}");
        assert!(scene.validate().is_ok());

        // A one-frame animation gets every stone at once.
        let mut scene = Scene {
            frames: 1,
            ..Scene::default()
        };
        add_default_disturbances(&mut scene, (1, 1));
        assert!(scene.drops.iter().all(|d| d.frame == 0 && d.radius >= 1));
        assert!(scene.validate().is_ok());
    }
}
