//! The classic look's frame at large sizes: the fused step and render of the classic solver,
//! walked in column tiles with the source prefetched, and the classic row of the fused pass.
//!
//! The classic look itself (the integer displacement of the seeds) is a row kernel
//! ([`crate::kernels`]); what lives here is how a wide frame is walked so that its gathers stay
//! in L2 (see [`TILE_WIDTH`] for the measurements). [`super::Renderer`] picks this path for the
//! classic solver and look together ([`tiled_classic`]); every other look is rendered row by row
//! from the gradient rows of [`super::gradient`] or by [`super::natural`].

use super::*;

/// Narrowest image whose classic look is rendered in column tiles (on x86-64 only: tiles need
/// the source prefetched, and without prefetch they were twice as slow). Narrower images gain
/// nothing: at 640x480 the whole source fits in cache.
pub(super) const TILED_MIN_WIDTH: usize = 1024;

/// Whether the classic look of an image `width` pixels wide is rendered in column tiles.
pub(super) fn tiled_classic(width: usize) -> bool {
    cfg!(target_arch = "x86_64") && width >= TILED_MIN_WIDTH
}

/// Rows per strip of a classic pass over `width x height`: one strip per thread when it walks
/// column tiles, whose every start costs a fresh source window (see [`TILE_WIDTH`]).
pub(super) fn classic_strip_rows(tiled: bool, width: usize, height: usize) -> usize {
    if tiled {
        parallel::strip_rows_one_per_thread(width, height)
    } else {
        parallel::strip_rows(width, height)
    }
}

/// Pixels per column tile of the classic look (the fused pass and the plain render).
///
/// The classic look gathers each pixel from up to [`PREFETCH_HALO`] rows and columns away, and
/// on rough water those reads land anywhere in that window. Walked row by row across a
/// 3840-pixel image the window is about 129 full rows, 2 MB: more than the 1 MB L2, so most
/// gathers waited on L3. Walking a strip down in narrow tiles keeps one tile's window (384 + 128
/// pixels by about 144 rows with the rows prefetched ahead, 0.3 MB) in L2; on an AMD EPYC with a
/// 1 MB L2 that took `step_render` at 3840x2160 from 0.75-0.79 to 0.59-0.61 ns/cell on 2 threads.
///
/// A tile fetches its window afresh wherever it starts, which is costly: so a strip is stepped
/// whole and then rendered tile by tile (not in bands of rows, which restarted every tile at
/// every band), and tiled passes take one strip per thread
/// ([`parallel::strip_rows_one_per_thread`]). 384 pixels beat 512 once the tiles no longer
/// restart; 640 and wider were slower.
pub(super) const TILE_WIDTH: usize = 384;

/// How far around a pixel the tiles prefetch the source: the displacements of rough water (see
/// [`SOURCE_PREFETCH_ROWS`]). Reads farther away are as exact, only slower.
pub(super) const PREFETCH_HALO: usize = 64;

/// The rows of one strip of the fused pass: the new heights it steps into and the frame rows it
/// renders.
pub(super) struct Strip<'a> {
    pub(super) first_row: usize,
    pub(super) heights: &'a mut [i16],
    pub(super) frame: &'a mut [[u8; 4]],
}

/// The fused classic pass over one strip, in column tiles: steps every row of the strip, then
/// renders the rows whose three grid rows are now new in tiles ([`TileJob::render`]). Like the
/// row by row pass it leaves the first and the last row of the strip to the edge pass, and its
/// result is the same, bit for bit.
///
/// It steps the whole strip first rather than a band of rows at a time (which kept the new
/// heights in cache for the tiles) because every band restarted every tile's source window: at
/// 3840x2160 on one thread, bands of 256 rows took 1.10 ns/cell and the whole strip 0.97.
pub(super) fn step_and_render_tiled(
    backend: Backend,
    current: &[i16],
    damping_shift: u32,
    src: &[[u8; 4]],
    width: usize,
    height: usize,
    strip: Strip<'_>,
) {
    let Strip {
        first_row,
        heights,
        frame,
    } = strip;
    let rows = heights.len() / width;
    for (offset, out) in heights.chunks_exact_mut(width).enumerate() {
        let y = first_row + offset;
        if y > 0 && y + 1 < height {
            let above = &current[(y - 1) * width..y * width];
            let row = &current[y * width..(y + 1) * width];
            let below = &current[(y + 1) * width..(y + 2) * width];
            kernels::classic_step_row(backend, above, row, below, out, damping_shift);
        }
    }
    let heights: &[i16] = heights;
    let grid_row = |y: usize| {
        let offset = y - first_row;
        &heights[offset * width..(offset + 1) * width]
    };
    // Row `r` needs the new rows `r - 1` and `r + 1`, so the strip's own edge rows wait.
    let inner = first_row + 1..first_row + rows.saturating_sub(1).max(1);
    let tiles = TileJob {
        backend,
        src,
        width,
        height,
        writes: FrameWrites::for_frame(width * height),
    };
    tiles.render(inner, grid_row, frame, first_row);
}

/// What the column tiles of the classic look render from, and how they store the frame.
pub(super) struct TileJob<'a> {
    pub(super) backend: Backend,
    pub(super) src: &'a [[u8; 4]],
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) writes: FrameWrites,
}

impl TileJob<'_> {
    /// Renders the image rows `rows` with the classic look, one tile of [`TILE_WIDTH`] columns
    /// at a time, top to bottom. `grid_row(y)` is row `y` of the field; `frame` holds the image
    /// rows from `frame_first_row` on. Border rows copy the source, as the classic look does.
    ///
    /// Every tile first prefetches its columns of the source (widened by [`PREFETCH_HALO`]) from
    /// [`PREFETCH_HALO`] rows above its first row to [`SOURCE_PREFETCH_ROWS`] below it, then, for
    /// each row it renders, the row [`SOURCE_PREFETCH_ROWS`] below: a tile's rows are far apart
    /// in memory, so the CPU's own prefetcher cannot see them coming. The field's rows are
    /// prefetched [`GRID_PREFETCH_ROWS`] ahead for the same reason. Tile edges fall on 64-byte
    /// lines of the frame, so no line is written by two tiles.
    ///
    /// The plain render (no step before it) gained as the fused pass did: at 3840x2160 on one
    /// thread, 1.26 ns/pixel row by row against 1.14 in tiles (`ripples bench --threads 1`,
    /// `render`, medians of 3 interleaved runs).
    pub(super) fn render<'g>(
        &self,
        rows: Range<usize>,
        grid_row: impl Fn(usize) -> &'g [i16],
        frame: &mut [[u8; 4]],
        frame_first_row: usize,
    ) {
        let Self {
            backend,
            src,
            width,
            height,
            writes,
        } = *self;
        if rows.is_empty() {
            return;
        }
        // Pixel offset of the frame's rows from a 64-byte line (the same for every row when rows
        // are whole lines; tiles still work, a little slower, when they are not).
        let line_offset = (frame.as_ptr() as usize % 64) / std::mem::size_of::<[u8; 4]>();
        let prefetch_end = (rows.end + PREFETCH_HALO).min(height);
        let mut left = 0;
        while left < width {
            let right = ((left + line_offset + TILE_WIDTH) / 16 * 16 - line_offset).min(width);
            let halo = left.saturating_sub(PREFETCH_HALO)..(right + PREFETCH_HALO).min(width);
            let source = |y: usize| &src[y * width + halo.start..y * width + halo.end];
            let top = rows.start;
            for y in
                top.saturating_sub(PREFETCH_HALO)..(top + SOURCE_PREFETCH_ROWS).min(prefetch_end)
            {
                kernels::prefetch(source(y));
            }
            for y in rows.clone() {
                if y + SOURCE_PREFETCH_ROWS < prefetch_end {
                    kernels::prefetch(source(y + SOURCE_PREFETCH_ROWS));
                }
                if y + GRID_PREFETCH_ROWS < rows.end {
                    kernels::prefetch(&grid_row(y + GRID_PREFETCH_ROWS)[halo.start..halo.end]);
                }
                let offset = y - frame_first_row;
                let dst_row = &mut frame[offset * width..(offset + 1) * width];
                if y == 0 || y + 1 >= height {
                    dst_row[left..right]
                        .copy_from_slice(&source(y)[left - halo.start..right - halo.start]);
                    continue;
                }
                kernels::classic_render_columns(
                    backend,
                    SourceRow { src, y, height },
                    [grid_row(y - 1), grid_row(y), grid_row(y + 1)],
                    dst_row,
                    left..right,
                    writes,
                );
            }
            left = right;
        }
    }
}

/// How many rows ahead of the row being rendered a column tile prefetches the field: its rows
/// are as far apart as the source's (see [`TileJob::render`]).
pub(super) const GRID_PREFETCH_ROWS: usize = 8;

/// How many rows ahead of the row being rendered the source image is prefetched.
///
/// A refracted row reads source pixels up to the largest displacement above and below it, in a
/// scattered order the CPU's own prefetcher cannot follow, so the first touch of each source row
/// would wait on memory. Fetching every row this far ahead, once, means those reads find it in
/// cache. Rough water displaces up to about 64 rows (the bench's turbulent field), so 80 rows
/// lead that by 16. On the turbulent 3840x2160 field it took the classic render from about
/// 1.1 to 0.66-0.8 ns per pixel here (`ripples bench --size 3840x2160`); it never changes a
/// result.
pub(super) const SOURCE_PREFETCH_ROWS: usize = 80;

/// Prefetches the source row [`SOURCE_PREFETCH_ROWS`] below row `y` (each row once per frame).
#[inline]
pub(super) fn prefetch_source(src: &[[u8; 4]], width: usize, height: usize, y: usize) {
    let ahead = y + SOURCE_PREFETCH_ROWS;
    if ahead < height {
        kernels::prefetch(&src[ahead * width..(ahead + 1) * width]);
    }
}

/// One row of the classic render at scale 1: the exact contract of the seeds, border rows
/// copied.
#[allow(clippy::too_many_arguments)]
pub(super) fn render_classic_row(
    backend: Backend,
    heights: &[i16],
    width: usize,
    height: usize,
    y: usize,
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
    writes: FrameWrites,
) {
    if y == 0 || y + 1 >= height {
        dst_row.copy_from_slice(&src[y * width..(y + 1) * width]);
    } else {
        let above = &heights[(y - 1) * width..y * width];
        let row = &heights[y * width..(y + 1) * width];
        let below = &heights[(y + 1) * width..(y + 2) * width];
        kernels::classic_render_columns(
            backend,
            SourceRow { src, y, height },
            [above, row, below],
            dst_row,
            0..width,
            writes,
        );
    }
}
