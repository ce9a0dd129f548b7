//! The frame loop allocates nothing: a counting global allocator watches `step` + `render`,
//! stones, swipes, rain and a whole scene frame after the first frame has been drawn. (From
//! outside rayon's threads, rayon's own queue allocates a block per 63 calls; see below.)

use crate::counting::{allocations_during, on_a_pool_thread, one_at_a_time, start_every_worker};

use ripples::{DropEvent, Look, Pool, Rain, RainSpec, Scene, SceneRunner, SwipeEvent};

#[test]
fn the_frame_loop_does_not_allocate() {
    let _turn = one_at_a_time();
    // The first parallel pass starts rayon's worker threads, which allocate once; start them
    // before counting. A grid this size is split into strips over the threads.
    let mut large = Pool::new(1024, 512).unwrap();
    let large_background = ripples::pool_tiles(1024, 512).unwrap();
    let mut large_frame = vec![0u8; large_background.len()];
    let warm_up = |large: &mut Pool, frame: &mut [u8]| {
        large.drop_stone(500, 200, 9, 120).unwrap();
        large.step();
        large
            .render(&Look::default(), &large_background, frame)
            .unwrap();
        large
            .render(&Look::classic(), &large_background, frame)
            .unwrap();
        large
            .render(&Look::natural(), &large_background, frame)
            .unwrap();
    };
    for _ in 0..3 {
        warm_up(&mut large, &mut large_frame);
    }
    start_every_worker();
    // On one of the pool's threads, as a frame loop run inside rayon is, nothing at all.
    let count = on_a_pool_thread(|| {
        allocations_during(|| {
            for _ in 0..10 {
                warm_up(&mut large, &mut large_frame);
            }
        })
    });
    assert_eq!(count, 0, "the parallel frame loop allocated {count} times");
    // From the program's own thread, each step and render is sent into rayon as one job (not
    // one per pass: a dispersive step makes two dozen), and rayon's injector queue allocates a
    // block of slots every 63 jobs: 40 calls may make one allocation, no more. Before steps
    // went in as one job, this loop allocated 2-4 times.
    let count = allocations_during(|| {
        for _ in 0..10 {
            warm_up(&mut large, &mut large_frame);
        }
    });
    println!("40 steps and renders from outside the pool: {count} allocations");
    assert!(
        count <= 1,
        "the parallel frame loop allocated {count} times from outside the pool"
    );

    for scale in [1, 3] {
        let (width, height) = (120u32, 80u32);
        let background = ripples::pool_tiles(width, height).unwrap();
        let background_u32: Vec<u32> = background
            .chunks_exact(4)
            .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
            .collect();
        let mut frame = vec![0u8; background.len()];
        let mut frame_u32 = vec![0u32; background_u32.len()];
        let mut pool = Pool::with_sim_scale(width, height, scale).unwrap();
        let mut rain = Rain::new(5).with_rate(3.0).unwrap();
        let path = [[3, 4], [100, 70], [20, 60]];
        // The natural look sizes its scratch rows on its first frame.
        pool.render(&Look::natural(), &background, &mut frame)
            .unwrap();
        let count = allocations_during(|| {
            for _ in 0..20 {
                pool.drop_stone(60, 40, 5, 100).unwrap();
                pool.swipe(&path, 3, 40).unwrap();
                for stone in rain.stones(width, height) {
                    pool.drop(stone).unwrap();
                }
                pool.step();
                pool.render(&Look::default(), &background, &mut frame)
                    .unwrap();
                pool.render(&Look::classic(), &background, &mut frame)
                    .unwrap();
                pool.render_u32(&Look::default(), &background_u32, &mut frame_u32)
                    .unwrap();
                pool.render(&Look::natural(), &background, &mut frame)
                    .unwrap();
                pool.render_u32(&Look::natural(), &background_u32, &mut frame_u32)
                    .unwrap();
            }
        });
        assert_eq!(
            count, 0,
            "scale {scale}: the pool's frame loop allocated {count} times"
        );
    }

    let scene = Scene {
        frames: 30,
        drops: vec![DropEvent {
            frame: 3,
            x: 40,
            y: 30,
            radius: 6,
            strength: 128,
        }],
        swipes: vec![SwipeEvent {
            frame: 1,
            duration: 10,
            points: vec![[5, 5], [70, 50], [110, 10]],
            radius: 3,
            strength: 40,
        }],
        rain: Some(RainSpec {
            rate: 2.0,
            ..RainSpec::default()
        }),
        ..Scene::default()
    };
    let background = ripples::pool_tiles(120, 80).unwrap();
    let mut frame = vec![0u8; background.len()];
    let mut runner = SceneRunner::new(scene, 120, 80).unwrap();
    runner.advance();
    runner.render(&background, &mut frame).unwrap();
    let count = allocations_during(|| {
        while !runner.is_finished() {
            runner.advance();
            runner.render(&background, &mut frame).unwrap();
        }
    });
    assert_eq!(count, 0, "the scene runner allocated {count} times");
}
