//! The physical solvers' steps allocate nothing once the pool exists: their strips over rayon's
//! threads, the spring's working rows, the dispersive pyramid, the walls and sponge, and the
//! bodies and floats pressing the water all use buffers made beforehand.

use crate::counting::{allocations_during, on_a_pool_thread, one_at_a_time, start_every_worker};

use ripples::{Body, Boundary, Float, Pool, SolverKind};

#[test]
fn physical_steps_do_not_allocate() {
    let _turn = one_at_a_time();
    for kind in [SolverKind::Wave, SolverKind::Spring, SolverKind::Dispersive] {
        for boundary in [Boundary::Reflect, Boundary::Absorb] {
            // Large enough to be split into strips over the threads.
            let mut pool = Pool::new(1024, 512).unwrap();
            pool.set_solver(kind).unwrap();
            pool.set_boundary(boundary);
            pool.paint_wall(300, 200, 20, true).unwrap();
            // A boat along a path, a fingertip moved by hand, and three floats.
            let path = vec![[900.0, 300.0], [100.0, 300.0]];
            pool.add_body(Body::along_path(path, 2.0, 6, 40, 0).unwrap())
                .unwrap();
            let finger = pool
                .add_body(Body::placed(200.0, 100.0, 4, 48).unwrap())
                .unwrap();
            for (x, density) in [(400.0, 0.3), (600.0, 0.5), (800.0, 0.8)] {
                let float = Float::new(x, 250.0, 8, density).unwrap();
                pool.add_float(float.lifted(3.0).unwrap()).unwrap();
            }
            // The first steps start rayon's worker threads and grow the floats' list of
            // pressure heads to its size.
            for _ in 0..3 {
                pool.drop_stone(500, 200, 9, 120).unwrap();
                pool.step();
            }
            start_every_worker();
            let count = on_a_pool_thread(|| {
                allocations_during(|| {
                    for step in 0..10 {
                        pool.drop_stone(500, 200, 9, 120).unwrap();
                        pool.set_body_position(finger, 200.0 + 3.0 * step as f32, 100.0)
                            .unwrap();
                        pool.step();
                    }
                })
            });
            assert_eq!(
                count, 0,
                "{kind:?}, {boundary:?}: 10 steps with bodies and floats allocated {count} times"
            );
            assert_eq!(pool.float_count(), 3);
        }
    }
}
