//! Threads and the fused pass change nothing: the same frames, bit for bit, on 1 thread or many,
//! and from `step_and_render` as from `step` followed by `render`.
//!
//! The sizes are chosen so strips come out of every shape: many rows, a few rows, exactly two
//! rows (nothing fused inside the strip, everything rendered at its edges) and a last strip of a
//! single row.
//!
//! Needs threads, so only with the `parallel` feature (not on wasm32).

#![cfg(feature = "parallel")]

use ripples::{Boundary, Look, Pool, Rain, SolverKind};

fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(work)
}

const SIZES: [(u32, u32); 4] = [(1024, 200), (10000, 13), (16384, 6), (97, 61)];

fn looks() -> [Look; 3] {
    [Look::classic(), Look::default(), Look::spring()]
}

/// A rough pool: rain and a swipe, then a few steps.
fn rough_pool(width: u32, height: u32, kind: SolverKind, scale: u32) -> Pool {
    let mut pool = Pool::with_sim_scale(width, height, scale).unwrap();
    pool.set_solver(kind).unwrap();
    let mut rain = Rain::new(9).with_rate(40.0).unwrap();
    for _ in 0..6 {
        for stone in rain.stones(width, height) {
            pool.drop(stone).unwrap();
        }
        pool.swipe(&[[0, 0], [width as i32, height as i32]], 2, 90)
            .unwrap();
        pool.step();
    }
    pool
}

/// `frames` frames of step + render; returns the last frame and the field's bytes.
fn play(mut pool: Pool, look: &Look, frames: usize, fused: bool) -> (Vec<u8>, Vec<u8>) {
    let src = ripples::pool_tiles(pool.width(), pool.height()).unwrap();
    let mut dst = vec![0u8; src.len()];
    for _ in 0..frames {
        if fused {
            pool.step_and_render(look, &src, &mut dst).unwrap();
        } else {
            pool.step();
            pool.render(look, &src, &mut dst).unwrap();
        }
    }
    let field = match pool.solver().heights() {
        ripples::Heights::I16(h) => h.iter().flat_map(|v| v.to_le_bytes()).collect(),
        ripples::Heights::F32(h) => h.iter().flat_map(|v| v.to_le_bytes()).collect(),
    };
    (dst, field)
}

#[test]
fn the_fused_pass_equals_step_then_render() {
    for (width, height) in SIZES {
        let pool = rough_pool(width, height, SolverKind::Classic, 1);
        for look in looks() {
            for threads in [1, 2, 5] {
                let (split, fused) = on_threads(threads, || {
                    (
                        play(pool.clone(), &look, 3, false),
                        play(pool.clone(), &look, 3, true),
                    )
                });
                assert!(
                    split == fused,
                    "{width}x{height}, {:?} look, {threads} threads",
                    look.kind()
                );
            }
        }
    }
}

/// Wide images render the classic look in column tiles and bands of rows: sizes whose width
/// is no multiple of a tile, with strips of many bands (one thread) and of part of one. The
/// last size is over a megapixel, where frames are written with streaming stores.
#[test]
fn column_tiles_render_the_same_frames() {
    for (width, height) in [(1100, 600), (1543, 90), (2048, 7), (1030, 1020)] {
        let pool = rough_pool(width, height, SolverKind::Classic, 1);
        for threads in [1, 3] {
            let (split, fused) = on_threads(threads, || {
                (
                    play(pool.clone(), &Look::classic(), 2, false),
                    play(pool.clone(), &Look::classic(), 2, true),
                )
            });
            assert!(split == fused, "{width}x{height}, {threads} threads");
        }
    }
}

#[test]
fn step_and_render_falls_back_where_it_cannot_fuse() {
    let (width, height) = (300, 200);
    let mut walled = rough_pool(width, height, SolverKind::Classic, 1);
    walled.paint_wall(150, 100, 20, true).unwrap();
    let mut open = rough_pool(width, height, SolverKind::Classic, 1);
    open.set_boundary(Boundary::Absorb);
    let pools = [
        walled,
        open,
        rough_pool(width, height, SolverKind::Classic, 3),
        rough_pool(width, height, SolverKind::Wave, 1),
        rough_pool(width, height, SolverKind::Spring, 2),
    ];
    for pool in pools {
        for look in looks() {
            let split = play(pool.clone(), &look, 3, false);
            let fused = play(pool.clone(), &look, 3, true);
            assert!(split == fused, "{:?} look", look.kind());
        }
    }
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    for kind in [SolverKind::Classic, SolverKind::Wave, SolverKind::Spring] {
        for (width, height) in [(1024, 200), (10000, 13)] {
            for scale in [1, 2] {
                let pool = rough_pool(width, height, kind, scale);
                for look in looks() {
                    let one = on_threads(1, || play(pool.clone(), &look, 4, false));
                    for threads in [2, 3] {
                        let many = on_threads(threads, || play(pool.clone(), &look, 4, false));
                        assert!(
                            one == many,
                            "{kind:?} {width}x{height} scale {scale}, {:?} look, {threads} threads",
                            look.kind()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_photograph_in_perspective_renders_the_same_on_any_number_of_threads() {
    // The photo look averages each row's slopes in the strip that draws it: the strips split
    // differently with each thread count, and the frame must not notice.
    let (width, height) = (640, 360);
    let mask: Vec<bool> = (0..width * height).map(|i| i / width >= 120).collect();
    for kind in [SolverKind::Classic, SolverKind::Wave] {
        let mut pool = Pool::new(width, height).unwrap();
        pool.set_solver(kind).unwrap();
        pool.set_water(Some(&mask), Some(ripples::Perspective::new(100.0)))
            .unwrap();
        let mut rain = Rain::new(3).with_rate(40.0).unwrap();
        for _ in 0..8 {
            let (rain_width, rain_height) = pool.rain_area();
            for stone in rain.stones(rain_width, rain_height) {
                pool.drop_rain(stone).unwrap();
            }
            pool.step();
        }
        let look = Look::default();
        let one = on_threads(1, || play(pool.clone(), &look, 3, false));
        let src = ripples::pool_tiles(width, height).unwrap();
        assert!(one.0 != src, "{kind:?}: the water moves");
        for threads in [2, 3] {
            let many = on_threads(threads, || play(pool.clone(), &look, 3, false));
            assert!(one == many, "{kind:?}, {threads} threads");
        }
    }
}

#[test]
fn step_and_render_checks_sizes_before_stepping() {
    let mut pool = rough_pool(64, 48, SolverKind::Classic, 1);
    let before = pool.clone();
    let src = ripples::pool_tiles(64, 48).unwrap();
    let mut short = vec![0u8; src.len() - 4];
    let message = pool
        .step_and_render(&Look::classic(), &src, &mut short)
        .unwrap_err()
        .to_string();
    assert!(message.contains("destination frame"), "{message}");
    assert_eq!(pool.steps(), before.steps(), "nothing stepped");
    assert!(play(pool, &Look::classic(), 1, false) == play(before, &Look::classic(), 1, false));
}

#[test]
fn a_scene_advanced_and_rendered_in_one_call_matches_the_two_calls() {
    use ripples::{DropEvent, RainSpec, Scene, SceneRunner};
    let scene = Scene {
        frames: 12,
        steps_per_frame: 2,
        drops: vec![DropEvent {
            frame: 2,
            x: 60,
            y: 40,
            radius: 6,
            strength: 120,
        }],
        rain: Some(RainSpec {
            rate: 3.0,
            ..RainSpec::default()
        }),
        ..Scene::default()
    };
    let (width, height) = (160, 90);
    let src = ripples::pool_tiles(width, height).unwrap();
    let mut split = SceneRunner::new(scene.clone(), width, height).unwrap();
    let mut fused = SceneRunner::new(scene, width, height).unwrap();
    let (mut a, mut b) = (vec![0u8; src.len()], vec![0u8; src.len()]);
    while !split.is_finished() {
        split.advance();
        split.render(&src, &mut a).unwrap();
        fused.advance_and_render(&src, &mut b).unwrap();
        assert!(a == b, "frame {}", split.frame());
    }
    assert_eq!(fused.frame(), split.frame());
    assert!(matches!(
        fused.advance_and_render(&src, &mut b[4..]),
        Err(ripples::Error::BufferSize {
            what: "destination frame",
            ..
        })
    ));
    assert_eq!(fused.frame(), split.frame(), "a bad buffer changes nothing");
}
