//! A new picture every frame (a video under the water) costs what the same picture does: no
//! allocation, and nothing kept from one picture to the next. A counting global allocator
//! watches the frame loop while the picture changes every frame, for every look, both pixel
//! layouts, a coarser grid and a scene; then a pool that rendered other pictures first must
//! show a picture exactly as a pool that never saw another.

use crate::counting::{allocations_during, one_at_a_time, start_every_worker};

use ripples::{Look, Pool, Scene, SceneRunner, SolverKind};

/// Every look the renderer has.
fn looks() -> [Look; 4] {
    let spring = Look::spring();
    [Look::natural(), Look::lit(), Look::classic(), spring]
}

/// Frame `index` of a moving picture: the tiles scrolled by `index` pixels, with a colour that
/// changes every frame, written into `picture` in place (as a decoder fills a reused buffer).
fn next_picture(tiles: &[u8], width: usize, index: usize, picture: &mut [u8]) {
    for (at, pixel) in picture.chunks_exact_mut(4).enumerate() {
        let (x, y) = (at % width, at / width);
        let from = (y * width + (x + index) % width) * 4;
        pixel[0] = tiles[from].wrapping_add((index * 37) as u8);
        pixel[1] = tiles[from + 1];
        pixel[2] = tiles[from + 2].wrapping_sub((index * 11) as u8);
        pixel[3] = if index.is_multiple_of(3) {
            255
        } else {
            tiles[from + 3]
        };
    }
}

/// A pool of `width x height` (grid scale `scale`) with waves on it, always the same.
fn rough_pool(width: u32, height: u32, scale: u32, kind: SolverKind) -> Pool {
    let mut pool = Pool::with_sim_scale(width, height, scale).unwrap();
    pool.set_solver(kind).unwrap();
    pool.drop_stone(40, 30, 8, 300).unwrap();
    pool.drop_stone(90, 50, 5, 200).unwrap();
    for _ in 0..12 {
        pool.step();
    }
    pool
}

#[test]
fn a_new_picture_every_frame_allocates_nothing_and_leaves_nothing_behind() {
    let _turn = one_at_a_time();
    let (width, height) = (128u32, 96u32);
    let tiles = ripples::pool_tiles(width, height).unwrap();
    let mut picture = vec![0u8; tiles.len()];
    let mut picture_u32 = vec![0u32; tiles.len() / 4];
    let mut frame = vec![0u8; tiles.len()];
    let mut frame_u32 = vec![0u32; tiles.len() / 4];
    for scale in [1, 2] {
        for kind in [SolverKind::Wave, SolverKind::Classic, SolverKind::Spring] {
            let mut pool = rough_pool(width, height, scale, kind);
            // First frames size the scratch rows (the natural look's on its first frame).
            for look in looks() {
                pool.render(&look, &tiles, &mut frame).unwrap();
                pool.render_u32(&look, &picture_u32, &mut frame_u32)
                    .unwrap();
            }
            start_every_worker();
            let count = allocations_during(|| {
                for index in 0..12 {
                    next_picture(&tiles, width as usize, index, &mut picture);
                    for (word, pixel) in picture_u32.iter_mut().zip(picture.chunks_exact(4)) {
                        *word = u32::from_le_bytes([pixel[2], pixel[1], pixel[0], pixel[3]]);
                    }
                    pool.drop_stone(20 + index as i32 * 7, 40, 4, 150).unwrap();
                    pool.step();
                    for look in looks() {
                        pool.render(&look, &picture, &mut frame).unwrap();
                        pool.render_u32(&look, &picture_u32, &mut frame_u32)
                            .unwrap();
                    }
                    pool.step_and_render(&Look::natural(), &picture, &mut frame)
                        .unwrap();
                }
            });
            assert_eq!(
                count, 0,
                "{kind:?}, scale {scale}: a new picture every frame allocated {count} times"
            );
        }
    }

    // A scene over a moving picture.
    let scene = Scene {
        frames: 20,
        ..Scene::default()
    };
    let mut runner = SceneRunner::new(scene, width, height).unwrap();
    runner.pool_mut().drop_stone(64, 48, 6, 200).unwrap();
    runner.advance();
    runner.render(&tiles, &mut frame).unwrap();
    let mut index = 0;
    let count = allocations_during(|| {
        while !runner.is_finished() {
            index += 1;
            next_picture(&tiles, width as usize, index, &mut picture);
            runner.advance();
            runner.render(&picture, &mut frame).unwrap();
        }
    });
    assert_eq!(
        count, 0,
        "a scene over a moving picture allocated {count} times"
    );

    // Nothing of the earlier pictures stays: after ten others, a picture renders exactly as on
    // a pool that never saw another, in every look.
    let mut last = vec![0u8; tiles.len()];
    next_picture(&tiles, width as usize, 10, &mut last);
    for kind in [SolverKind::Wave, SolverKind::Classic, SolverKind::Spring] {
        for look in looks() {
            let mut seasoned = rough_pool(width, height, 2, kind);
            for index in 0..10 {
                next_picture(&tiles, width as usize, index, &mut picture);
                seasoned.render(&look, &picture, &mut frame).unwrap();
            }
            seasoned.render(&look, &last, &mut frame).unwrap();
            let mut fresh = rough_pool(width, height, 2, kind);
            let mut expected = vec![0u8; tiles.len()];
            fresh.render(&look, &last, &mut expected).unwrap();
            let differing = frame.iter().zip(&expected).filter(|(a, b)| a != b).count();
            assert_eq!(
                differing,
                0,
                "{kind:?}, {:?}: {differing} bytes differ after other pictures",
                look.kind()
            );
            // And the picture shows: the frame is not the previous picture's.
            assert_ne!(frame, tiles, "{:?}", look.kind());
        }
    }
    println!(
        "12 frames x 4 looks x 2 layouts x 3 solvers x 2 scales over a new picture: 0 allocations"
    );
}
