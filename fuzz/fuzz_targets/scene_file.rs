//! Scene files: bytes through the `ripples` command's scene-file parser and validation, then
//! a few frames of the scene played and rendered on a small pool.
//!
//! A scene file is the richest input Ripples reads from a user, and parsing is only half of it:
//! a scene that validates must also play without panicking or hanging (coordinates are
//! unbounded `i32`s, periods and amplitudes floats, counts up to the limits). So the target goes
//! as far as `ripples render` would, on a pool small enough to keep thousands of inputs a
//! second: read as UTF-8 (as `SceneFile::load` does), parse, validate, check the size, clip the
//! events to the pool, build the runner and advance it for a bounded number of steps, rendering
//! every frame, alternating the fused and the separate frame calls.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ripples::SceneRunner;
use ripples_cli::input::scene_file::parse_scene;

/// The pool is the scene's own size when it has at most this many pixels, else capped to it.
const MAX_PIXELS: u32 = 48 * 48;
/// Solver steps played per input at most (at least one frame is always played).
const MAX_STEPS: u32 = 1500;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((mut scene, _files)) = parse_scene(text) else {
        return;
    };
    if scene.validate().is_err() {
        return;
    }
    let (width, height) = match (scene.width, scene.height) {
        (Some(width), Some(height)) => {
            if ripples::limits::check_size(u64::from(width), u64::from(height)).is_err() {
                return;
            }
            if width.saturating_mul(height) <= MAX_PIXELS {
                (width, height)
            } else {
                (width.min(48), height.min(48))
            }
        }
        (None, None) => (32, 24),
        // `ripples render` refuses one side without the other.
        _ => return,
    };
    let _warnings = scene.clip_to_pool(width, height);
    let steps_per_frame = scene.steps_per_frame;
    let frames = scene.frames;
    let mut runner = SceneRunner::new(scene, width, height)
        .expect("a scene that validates must build a runner on a pool of a valid size");
    let image = ripples::pool_tiles(width, height).expect("tiles of a runner's pool size");
    let mut frame = vec![0u8; image.len()];
    let playable = (MAX_STEPS / steps_per_frame).clamp(1, frames);
    for index in 0..playable {
        if index % 2 == 0 {
            runner
                .advance_and_render(&image, &mut frame)
                .expect("frame buffers of the pool's size");
        } else {
            runner.advance();
            runner
                .render(&image, &mut frame)
                .expect("frame buffers of the pool's size");
        }
    }
    assert_eq!(runner.frame(), playable);
});
