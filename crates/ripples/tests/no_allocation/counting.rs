//! A global allocator that counts allocations, for the tests that a frame loop allocates
//! nothing. A global allocator is one per binary, so these tests are a binary of their own
//! (`main.rs` says why). Within it they share one counter: each test holds [`one_at_a_time`]
//! for its whole run, and only the threads doing its work count, the thread inside
//! [`allocations_during`] and rayon's workers. The test harness's own threads, which record a
//! finished test and start the next one while another counts, do not.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

struct CountingAllocator;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations count: set inside [`allocations_during`] on its own
    /// thread and on rayon's workers. (A `const` cell with no destructor: reading it allocates
    /// nothing, so the allocator may.)
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

/// Counts one allocation if this thread's count.
fn count() {
    if COUNTED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards every call unchanged to the system allocator; it only counts them.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which we pass on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout, via `alloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as for `alloc`; `ptr` and `layout` come from this allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

static TURN: Mutex<()> = Mutex::new(());

/// The counter to one test until the guard drops: every test here takes it first, so no other
/// test's work (on its thread or on rayon's) runs while it counts. A test that failed while
/// holding it leaves it to the next.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    TURN.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many allocations (and reallocations) `work` made, on this thread or on rayon's.
pub fn allocations_during(work: impl FnOnce()) -> usize {
    let was_counted = COUNTED.replace(true);
    count_on_every_worker(true);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    work();
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    count_on_every_worker(false);
    COUNTED.set(was_counted);
    after - before
}

/// Makes rayon's workers count their allocations, or stop.
fn count_on_every_worker(counted: bool) {
    #[cfg(feature = "parallel")]
    rayon::broadcast(|_| COUNTED.set(counted));
    #[cfg(not(feature = "parallel"))]
    let _ = counted;
}

/// Runs `work` on one of rayon's threads (here without the `parallel` feature), as a frame loop
/// run inside rayon is: from there a step or a render hands its strips over through that
/// thread's own queue, which allocates nothing, where a call from outside the pool goes through
/// rayon's injector queue, which allocates a block of slots every 63 calls.
pub fn on_a_pool_thread<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "parallel")]
    return rayon::scope(|_| work());
    #[cfg(not(feature = "parallel"))]
    work()
}

/// Makes every rayon worker thread run a job, so all have started (and made their one-time
/// allocations) before counting: a pass over a few strips need not reach every thread, and on
/// a busy machine a thread can start late, in the middle of the counted steps.
pub fn start_every_worker() {
    #[cfg(feature = "parallel")]
    rayon::broadcast(|_| ());
}
