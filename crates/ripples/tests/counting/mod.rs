//! A global allocator that counts allocations, for the tests that a frame loop allocates
//! nothing. Shared by those test files with `mod counting;`; each test file is its own binary,
//! so each gets its own allocator and counter.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// How many allocations (and reallocations) `work` made, on any thread.
pub fn allocations_during(work: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    work();
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

/// Runs `work` on one of rayon's threads (here without the `parallel` feature), as a frame loop
/// run inside rayon is: from there a step or a render hands its strips over through that
/// thread's own queue, which allocates nothing, where a call from outside the pool goes through
/// rayon's injector queue, which allocates a block of slots every 63 calls.
#[allow(dead_code)] // not every test file counts on a pool thread
pub fn on_a_pool_thread<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "parallel")]
    return rayon::scope(|_| work());
    #[cfg(not(feature = "parallel"))]
    work()
}

/// Makes every rayon worker thread run a job, so all have started (and made their one-time
/// allocations) before counting: a pass over a few strips need not reach every thread, and on
/// a busy machine a thread can start late, in the middle of the counted steps.
#[allow(dead_code)] // not every test file starts the workers
pub fn start_every_worker() {
    #[cfg(feature = "parallel")]
    rayon::broadcast(|_| ());
}
