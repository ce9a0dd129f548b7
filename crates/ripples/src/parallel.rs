//! Horizontal strips of rows over threads.
//!
//! Every grid pass in Ripples updates a row from the rows around it, so the natural unit of
//! parallel work is a strip of whole rows: strips never write the same memory, each one streams
//! through contiguous rows, and the SIMD kernels still see full rows. Strips are sized so a
//! thread gets a few of them (rayon can balance a busy core) but none is too small to be worth a
//! task; a pass that pays a fixed cost at every strip's top (the classic look's column tiles)
//! takes one per thread instead. Without the `parallel` feature (wasm32) the same calls run the strips in order on the
//! calling thread, so callers are written once.

/// Fewest cells worth a task of their own: below this the hand-off costs more than it saves.
pub(crate) const MIN_CELLS_PER_STRIP: usize = 1 << 15;

/// Strips per thread: a few, so a thread slowed by another process does not hold up the frame.
const STRIPS_PER_THREAD: usize = 4;

/// Threads available to strips (1 without the `parallel` feature).
pub(crate) fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// Rows per strip for a pass over `rows` rows of `width` cells.
pub(crate) fn strip_rows(width: usize, rows: usize) -> usize {
    strip_rows_per_thread(width, rows, STRIPS_PER_THREAD)
}

/// Rows per strip for a pass that pays a fixed cost at the top of every strip: one strip per
/// thread. The classic look's column tiles are such a pass: each tile fetches its source window
/// (about 144 rows) afresh at a strip's top, so four strips per thread fetched that much again
/// three more times per thread and frame (see `render::TILE_WIDTH`).
pub(crate) fn strip_rows_one_per_thread(width: usize, rows: usize) -> usize {
    strip_rows_per_thread(width, rows, 1)
}

fn strip_rows_per_thread(width: usize, rows: usize, strips_per_thread: usize) -> usize {
    let threads = threads();
    if threads <= 1 {
        return rows.max(1);
    }
    let by_size = MIN_CELLS_PER_STRIP.div_ceil(width.max(1));
    let by_threads = rows.div_ceil(threads * strips_per_thread);
    by_size.max(by_threads).clamp(1, rows.max(1))
}

/// Runs `work`, a step or a render of `cells` cells, on one of rayon's threads, so the passes it
/// makes hand their strips to the other threads through that thread's own queue.
///
/// Why: a pass started from outside the thread pool is sent in through rayon's shared injector
/// queue, which allocates a new block of slots every 63 jobs (crossbeam's `Injector`). A
/// dispersive step makes two dozen passes, so called from the program's thread it allocated
/// every few frames; entered once, a step or a render is one job however many passes it makes,
/// and a frame allocates nothing when run inside the pool (`tests/no_allocation/frame_loop.rs`).
/// Work too small to be split (one strip) and calls already on a pool thread run here, as does
/// everything without the `parallel` feature.
pub(crate) fn on_workers<R: Send>(cells: usize, work: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "parallel")]
    {
        if cells > MIN_CELLS_PER_STRIP && rayon::current_thread_index().is_none() {
            // The pool's own backend, if it chose one, goes with the work to that thread.
            let backend = crate::kernels::pool_backend();
            return rayon::scope(|_| crate::kernels::with_backend(backend, work));
        }
    }
    let _ = cells;
    work()
}

/// Calls `work(y, out)` for every interior row `y` of `next` (`height` rows of `width` items:
/// not the first or the last), in strips of [`strip_rows`] on the workers: a solver's step,
/// which writes its next field row by row from rows of the current one ([`rows_around`]).
pub(crate) fn for_each_interior_row<T, F>(next: &mut [T], width: usize, height: usize, work: F)
where
    T: Send,
    F: Fn(usize, &mut [T]) + Sync + Send,
{
    let strip_rows = strip_rows(width, height);
    for_each_strip(next, width, strip_rows, |first_row, strip| {
        for (offset, out) in strip.chunks_exact_mut(width).enumerate() {
            let y = first_row + offset;
            if y == 0 || y + 1 >= height {
                continue; // border rows stay as they are
            }
            work(y, out);
        }
    });
}

/// Rows `y - 1`, `y` and `y + 1` of `field` (rows of `width` items; `y` an interior row).
pub(crate) fn rows_around<T>(field: &[T], y: usize, width: usize) -> [&[T]; 3] {
    [y - 1, y, y + 1].map(|r| &field[r * width..(r + 1) * width])
}

/// Calls `work(first_row, strip)` for consecutive strips of `strip_rows` rows of `data` (rows of
/// `width` items), in parallel with the `parallel` feature.
pub(crate) fn for_each_strip<T, F>(data: &mut [T], width: usize, strip_rows: usize, work: F)
where
    T: Send,
    F: Fn(usize, &mut [T]) + Sync + Send,
{
    let chunk = (strip_rows * width).max(1);
    if data.len() <= chunk {
        // One strip: no hand-off to other threads.
        work(0, data);
        return;
    }
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        data.par_chunks_mut(chunk)
            .enumerate()
            .for_each(|(index, strip)| work(index * strip_rows, strip));
    }
    #[cfg(not(feature = "parallel"))]
    {
        for (index, strip) in data.chunks_mut(chunk).enumerate() {
            work(index * strip_rows, strip);
        }
    }
}

/// Like [`for_each_strip`], giving strip `i` the state `states[i]` (scratch rows), so strips
/// never share mutable state. `states` must have at least one entry per strip.
pub(crate) fn for_each_strip_with<T, S, F>(
    data: &mut [T],
    width: usize,
    strip_rows: usize,
    states: &mut [S],
    work: F,
) where
    T: Send,
    S: Send,
    F: Fn(usize, &mut [T], &mut S) + Sync + Send,
{
    let chunk = (strip_rows * width).max(1);
    assert!(
        states.len() >= data.len().div_ceil(chunk),
        "one state per strip"
    );
    if data.len() <= chunk {
        if let Some(state) = states.first_mut() {
            work(0, data, state);
        }
        return;
    }
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        data.par_chunks_mut(chunk)
            .zip(states.par_iter_mut())
            .enumerate()
            .for_each(|(index, (strip, state))| work(index * strip_rows, strip, state));
    }
    #[cfg(not(feature = "parallel"))]
    {
        for (index, (strip, state)) in data.chunks_mut(chunk).zip(states.iter_mut()).enumerate() {
            work(index * strip_rows, strip, state);
        }
    }
}

/// [`for_each_strip_with`] a row at a time: `work(y, row, state)` for each row `y` of `data`,
/// with the state of its strip.
pub(crate) fn for_each_row_with<T: Send, S: Send>(
    data: &mut [T],
    width: usize,
    strip_rows: usize,
    states: &mut [S],
    work: impl Fn(usize, &mut [T], &mut S) + Sync + Send,
) {
    for_each_strip_with(
        data,
        width,
        strip_rows,
        states,
        |first_row, strip, state| {
            for (offset, row) in strip.chunks_exact_mut(width).enumerate() {
                work(first_row + offset, row, state);
            }
        },
    );
}

/// Like [`for_each_strip`] for two buffers of the same width, and with a scratch slice of
/// `scratch_per_strip` items for each strip: `work(first_row, strip, extra_strip, scratch)`.
///
/// `scratch` must hold at least `scratch_per_strip` items per strip, i.e. for
/// `data.len().div_ceil(strip_rows * width)` strips. Each strip gets a slice of its own, so a
/// pass that needs working rows can keep them in its owner's buffer and allocate nothing.
pub(crate) fn for_each_strip_pair_with_scratch<T, U, S, F>(
    data: &mut [T],
    extra: &mut [U],
    width: usize,
    scratch: &mut [S],
    scratch_per_strip: usize,
    strip_rows: usize,
    work: F,
) where
    T: Send,
    U: Send,
    S: Send,
    F: Fn(usize, &mut [T], &mut [U], &mut [S]) + Sync + Send,
{
    let chunk = (strip_rows * width).max(1);
    let scratch_per_strip = scratch_per_strip.max(1);
    assert!(
        scratch.len() >= data.len().div_ceil(chunk).max(1) * scratch_per_strip,
        "scratch for every strip"
    );
    if data.len() <= chunk {
        work(0, data, extra, &mut scratch[..scratch_per_strip]);
        return;
    }
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        data.par_chunks_mut(chunk)
            .zip(extra.par_chunks_mut(chunk))
            .zip(scratch.par_chunks_mut(scratch_per_strip))
            .enumerate()
            .for_each(|(index, ((strip, extra), scratch))| {
                work(index * strip_rows, strip, extra, scratch)
            });
    }
    #[cfg(not(feature = "parallel"))]
    {
        for (index, ((strip, extra), scratch)) in data
            .chunks_mut(chunk)
            .zip(extra.chunks_mut(chunk))
            .zip(scratch.chunks_mut(scratch_per_strip))
            .enumerate()
        {
            work(index * strip_rows, strip, extra, scratch);
        }
    }
}
