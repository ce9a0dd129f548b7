//! Window and pool coordinates, and the scaler that draws the pool's frame into the window.
//!
//! The pool keeps its size whatever the window does, so the water keeps going through a
//! resize. Its frame is shown in the largest rectangle of the pool's aspect ratio that fits the
//! window, centred, with black bars on the other two sides (a letterbox or a pillarbox): a
//! [`Viewport`].
//!
//! The [`Scaler`] is nearest-neighbour, driven by two integer tables built once per window size:
//! the pool column shown in every window column and the pool row shown in every window row. Per
//! pixel it does one table load and one copy, no arithmetic and no floating point; a window row
//! showing the same pool row as the one above it (when enlarging) is a plain copy of that row,
//! and strips of rows go to rayon's threads. The pointer is mapped by the same formula as the
//! tables, so a stone falls on the pool pixel drawn under the pointer, exactly, at any size.

use rayon::prelude::*;

/// Where the pool's frame lies in a window: the largest centred rectangle with the pool's
/// aspect ratio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewport {
    /// Window size in pixels.
    pub window: (u32, u32),
    /// Pool size in pixels.
    pub pool: (u32, u32),
    /// Left edge of the picture in the window.
    pub x: u32,
    /// Top edge of the picture in the window.
    pub y: u32,
    /// Width of the picture in the window (0 when the window has no area).
    pub width: u32,
    /// Height of the picture in the window (0 when the window has no area).
    pub height: u32,
}

impl Viewport {
    /// The picture of a `pool`-sized frame in a `window`-sized window.
    pub fn fit(window: (u32, u32), pool: (u32, u32)) -> Self {
        let (window_width, window_height) = (u64::from(window.0), u64::from(window.1));
        let (pool_width, pool_height) = (u64::from(pool.0.max(1)), u64::from(pool.1.max(1)));
        let (width, height) = if window_width == 0 || window_height == 0 {
            (0, 0)
        } else if window_width * pool_height <= window_height * pool_width {
            // Full width, bars above and below.
            let height = (window_width * pool_height + pool_width / 2) / pool_width;
            (window_width, height.clamp(1, window_height))
        } else {
            // Full height, bars left and right.
            let width = (window_height * pool_width + pool_height / 2) / pool_height;
            (width.clamp(1, window_width), window_height)
        };
        Self {
            window,
            pool,
            x: ((window_width - width) / 2) as u32,
            y: ((window_height - height) / 2) as u32,
            width: width as u32,
            height: height as u32,
        }
    }

    /// Whether the picture fills the window at the pool's own size, so the pool can render
    /// straight into the window's buffer.
    pub fn is_one_to_one(&self) -> bool {
        self.window == self.pool && (self.width, self.height) == self.pool
    }

    /// Whether the window pixel under the pointer position `(x, y)` (window pixels, fractions
    /// allowed) shows the pool rather than a bar.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        let inside = |position: f64, start: u32, length: u32| {
            let pixel = position.floor();
            pixel >= f64::from(start) && pixel < f64::from(start) + f64::from(length)
        };
        inside(x, self.x, self.width) && inside(y, self.y, self.height)
    }

    /// The pool pixel drawn at the window pixel under `(x, y)`. Outside the picture the same
    /// mapping goes on, past the pool's edges, so a drag that leaves the water keeps its
    /// direction (the library clips stones that fall outside).
    pub fn pool_pixel(&self, x: f64, y: f64) -> [i32; 2] {
        let window_pixel = |position: f64| {
            if position.is_finite() {
                position.floor().clamp(-1e9, 1e9) as i64
            } else {
                0
            }
        };
        [
            source_index(window_pixel(x) - i64::from(self.x), self.width, self.pool.0),
            source_index(
                window_pixel(y) - i64::from(self.y),
                self.height,
                self.pool.1,
            ),
        ]
    }
}

/// `size` scaled down, keeping its aspect ratio, to fit within `bounds` (unchanged if it fits
/// already; never below 1x1).
pub fn fit_within(size: (u32, u32), bounds: (u32, u32)) -> (u32, u32) {
    if size.0 <= bounds.0 && size.1 <= bounds.1 {
        return size;
    }
    let viewport = Viewport::fit(bounds, size);
    (viewport.width.max(1), viewport.height.max(1))
}

/// The source index shown at destination index `d` when `source` pixels are stretched over
/// `destination` pixels by nearest neighbour: the source pixel under the destination pixel's
/// centre, `floor((d + 1/2) * source / destination)`, extended beyond `0..destination`.
fn source_index(d: i64, destination: u32, source: u32) -> i32 {
    let destination = i64::from(destination.max(1));
    let source = i64::from(source);
    ((2 * d + 1) * source)
        .div_euclid(2 * destination)
        .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// Draws a pool-sized frame into a window-sized buffer through a [`Viewport`].
#[derive(Debug, Clone)]
pub struct Scaler {
    viewport: Viewport,
    /// Pool column of every picture column.
    columns: Vec<u32>,
    /// Pool row of every picture row.
    rows: Vec<u32>,
}

impl Scaler {
    /// The tables for `viewport`.
    pub fn new(viewport: Viewport) -> Self {
        let table = |destination: u32, source: u32| -> Vec<u32> {
            (0..i64::from(destination))
                .map(|d| source_index(d, destination, source).max(0) as u32)
                .collect()
        };
        Self {
            viewport,
            columns: table(viewport.width, viewport.pool.0),
            rows: table(viewport.height, viewport.pool.1),
        }
    }

    /// The viewport drawn through.
    pub fn viewport(&self) -> &Viewport {
        &self.viewport
    }

    /// Draws `frame` (pool-sized) into `window` (window-sized), with black bars around it.
    ///
    /// # Panics
    /// If a buffer has the wrong length (a bug in the caller, not something input can cause).
    pub fn draw(&self, frame: &[u32], window: &mut [u32]) {
        let viewport = &self.viewport;
        let (window_width, window_height) =
            (viewport.window.0 as usize, viewport.window.1 as usize);
        let pool_width = viewport.pool.0 as usize;
        assert_eq!(frame.len(), pool_width * viewport.pool.1 as usize);
        assert_eq!(window.len(), window_width * window_height);
        if window.is_empty() {
            return;
        }
        let (left, top) = (viewport.x as usize, viewport.y as usize);
        let right = left + viewport.width as usize;
        let bottom = top + viewport.height as usize;
        let rows_per_strip = window_height
            .div_ceil(rayon::current_num_threads() * 4)
            .max(16);
        window
            .par_chunks_mut(window_width * rows_per_strip)
            .enumerate()
            .for_each(|(strip, pixels)| {
                let first_row = strip * rows_per_strip;
                // Table rows never decrease, so a repeated pool row is the window row above.
                let mut above: Option<u32> = None;
                for offset in 0..pixels.len() / window_width {
                    let y = first_row + offset;
                    let (done, rest) = pixels.split_at_mut(offset * window_width);
                    let row = &mut rest[..window_width];
                    if !(top..bottom).contains(&y) {
                        row.fill(0);
                        continue;
                    }
                    row[..left].fill(0);
                    row[right..].fill(0);
                    let source_row = self.rows[y - top];
                    if above == Some(source_row) {
                        let previous = &done[done.len() - window_width..];
                        row[left..right].copy_from_slice(&previous[left..right]);
                    } else {
                        let start = source_row as usize * pool_width;
                        let source = &frame[start..start + pool_width];
                        for (pixel, &column) in row[left..right].iter_mut().zip(&self.columns) {
                            *pixel = source[column as usize];
                        }
                    }
                    above = Some(source_row);
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame whose every pixel holds its own index + 1 (0 is left for the black bars).
    fn numbered_frame(width: u32, height: u32) -> Vec<u32> {
        (1..=width * height).collect()
    }

    #[test]
    fn a_wide_pool_in_a_tall_window_gets_bars_above_and_below() {
        let viewport = Viewport::fit((800, 800), (1600, 900));
        assert_eq!(
            (viewport.x, viewport.y, viewport.width, viewport.height),
            (0, 175, 800, 450)
        );
        let viewport = Viewport::fit((1000, 450), (1600, 900));
        assert_eq!(
            (viewport.x, viewport.y, viewport.width, viewport.height),
            (100, 0, 800, 450)
        );
        let same = Viewport::fit((640, 480), (640, 480));
        assert!(same.is_one_to_one());
        assert_eq!((same.x, same.y, same.width, same.height), (0, 0, 640, 480));
        assert!(!Viewport::fit((1280, 960), (640, 480)).is_one_to_one());
        let empty = Viewport::fit((0, 300), (640, 480));
        assert_eq!((empty.width, empty.height), (0, 0));
    }

    #[test]
    fn the_pointer_maps_to_the_pool_pixel_drawn_under_it_at_any_window_size() {
        let pool = (37, 23);
        let frame = numbered_frame(pool.0, pool.1);
        for window in [
            (37, 23),
            (74, 46),
            (100, 23),
            (37, 100),
            (20, 13),
            (101, 67),
            (5, 3),
            (1, 1),
            (300, 40),
        ] {
            let viewport = Viewport::fit(window, pool);
            let scaler = Scaler::new(viewport);
            let mut buffer = vec![u32::MAX; (window.0 * window.1) as usize];
            scaler.draw(&frame, &mut buffer);
            for y in 0..window.1 {
                for x in 0..window.0 {
                    let shown = buffer[(y * window.0 + x) as usize];
                    // Anywhere inside the window pixel, not only at its corner.
                    for (fx, fy) in [(0.0, 0.0), (0.5, 0.5), (0.99, 0.25)] {
                        let (px, py) = (f64::from(x) + fx, f64::from(y) + fy);
                        if viewport.contains(px, py) {
                            let [cx, cy] = viewport.pool_pixel(px, py);
                            assert!(
                                (0..pool.0 as i32).contains(&cx)
                                    && (0..pool.1 as i32).contains(&cy),
                                "{window:?} ({x}, {y}) -> ({cx}, {cy})"
                            );
                            let expected = cy as u32 * pool.0 + cx as u32 + 1;
                            assert_eq!(shown, expected, "window {window:?}, pixel ({x}, {y})");
                        } else {
                            assert_eq!(shown, 0, "bar pixel ({x}, {y}) in {window:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_picture_is_centred_and_every_pool_pixel_is_shown_when_enlarging() {
        let pool = (16, 9);
        let viewport = Viewport::fit((1920, 1200), pool);
        // 1920 wide: 1080 tall, 60 rows of bar above and below.
        assert_eq!((viewport.y, viewport.height), (60, 1080));
        let frame = numbered_frame(pool.0, pool.1);
        let mut buffer = vec![0; 1920 * 1200];
        Scaler::new(viewport).draw(&frame, &mut buffer);
        let mut seen = vec![false; frame.len()];
        for &value in &buffer {
            if value > 0 {
                seen[value as usize - 1] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
        // The corners of the picture are the corners of the pool.
        assert_eq!(viewport.pool_pixel(0.0, 60.0), [0, 0]);
        assert_eq!(viewport.pool_pixel(1919.9, 1139.9), [15, 8]);
        // The bars map outside the pool, continuing the same scale.
        assert_eq!(viewport.pool_pixel(0.0, 0.0), [0, -1]);
        assert_eq!(viewport.pool_pixel(1919.0, 1199.0), [15, 9]);
        assert!(!viewport.contains(5.0, 59.9) && viewport.contains(5.0, 60.0));
        assert!(!viewport.contains(5.0, 1140.0) && viewport.contains(1919.5, 1139.5));
    }

    #[test]
    fn a_resize_keeps_the_mapping_right() {
        // The same pool under a sequence of resizes: a click at the picture's centre is always
        // the pool's centre, and a click a quarter across is a quarter across.
        let pool = (640, 360);
        for window in [(640, 360), (1280, 720), (800, 800), (1000, 360), (333, 555)] {
            let viewport = Viewport::fit(window, pool);
            let centre = (
                f64::from(viewport.x) + f64::from(viewport.width) / 2.0,
                f64::from(viewport.y) + f64::from(viewport.height) / 2.0,
            );
            let [cx, cy] = viewport.pool_pixel(centre.0, centre.1);
            assert!((cx - 320).abs() <= 1 && (cy - 180).abs() <= 1, "{window:?}");
            let quarter = f64::from(viewport.x) + f64::from(viewport.width) / 4.0;
            let [qx, _] = viewport.pool_pixel(quarter, centre.1);
            assert!((qx - 160).abs() <= 2, "{window:?}: {qx}");
        }
    }

    #[test]
    fn sizes_shrink_to_fit_the_screen_keeping_their_shape() {
        assert_eq!(fit_within((1280, 720), (1920, 1080)), (1280, 720));
        assert_eq!(fit_within((4000, 3000), (1920, 1080)), (1440, 1080));
        assert_eq!(fit_within((3000, 1000), (1920, 1080)), (1920, 640));
        assert_eq!(fit_within((100, 100_000), (1920, 1080)), (1, 1080));
    }

    #[test]
    fn non_finite_positions_do_not_panic() {
        let viewport = Viewport::fit((100, 100), (50, 50));
        let _ = viewport.pool_pixel(f64::NAN, f64::INFINITY);
        assert!(!viewport.contains(f64::NAN, 3.0));
    }
}
