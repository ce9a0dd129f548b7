//! The wave and spring solvers' steps allocate nothing once the pool exists: their strips over
//! rayon's threads, the spring's working rows and the walls and sponge all use buffers made
//! beforehand. (A test binary of its own: the allocation counter is global to the process.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use ripples::{Boundary, Pool, SolverKind};

struct CountingAllocator;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call unchanged to the system allocator; it only counts them.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which we pass on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout, via `alloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc`; `ptr` and `layout` come from this allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

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
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            for _ in 0..10 {
                pool.drop_stone(500, 200, 9, 120).unwrap();
                pool.step();
            }
            let count = ALLOCATIONS.load(Ordering::Relaxed) - before;
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
