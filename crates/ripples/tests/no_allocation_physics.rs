//! The wave and spring solvers' steps allocate nothing once the pool exists: their strips over
//! rayon's threads, the spring's working rows and the walls and sponge all use buffers made
//! beforehand. (A test binary of its own: the allocation counter is global to the process.)

mod counting;

use counting::allocations_during;

use ripples::{Boundary, Pool, SolverKind};

// One test function only: the counter is global, and tests in one binary run in parallel.
#[test]
fn physical_steps_do_not_allocate() {
    for kind in [SolverKind::Wave, SolverKind::Spring] {
        for boundary in [Boundary::Reflect, Boundary::Absorb] {
            // Large enough to be split into strips over the threads.
            let mut pool = Pool::new(1024, 512).unwrap();
            pool.set_solver(kind).unwrap();
            pool.set_boundary(boundary);
            pool.paint_wall(300, 200, 20, true).unwrap();
            // The first parallel pass starts rayon's worker threads, which allocate once.
            pool.drop_stone(500, 200, 9, 120).unwrap();
            pool.step();
            start_every_worker();
            let count = allocations_during(|| {
                for _ in 0..10 {
                    pool.drop_stone(500, 200, 9, 120).unwrap();
                    pool.step();
                }
            });
            assert_eq!(
                count, 0,
                "{kind:?}, {boundary:?}: 10 steps allocated {count} times"
            );
        }
    }
}

/// Makes every rayon worker thread run a job, so all have started (and made their one-time
/// allocations) before counting: a pass over a few strips need not reach every thread, and on
/// a busy machine a thread can start late, in the middle of the counted steps.
fn start_every_worker() {
    #[cfg(feature = "parallel")]
    rayon::broadcast(|_| ());
}
