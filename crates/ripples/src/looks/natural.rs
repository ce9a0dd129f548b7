//! The natural look's frame: strips of rows, the smoothed field they read, and the sky.
//!
//! The row kernels ([`crate::kernels::natural`]) render one image row from the smoothed surface
//! around it. This module owns what they need between rows, allocated once per size so a frame
//! allocates nothing: per strip, the smoothed grid rows (each smoothed once per strip, kept in a
//! ring of four because a row needs the rows on both sides) and, at a simulation scale above 1,
//! the slopes and caustic focus of the two grid rows an image row lies between (each computed
//! once, the lower one becoming the upper one at the next grid row, then blended per image row);
//! and, for the whole renderer, the sky table the reflections read.
//!
//! The sky is a small table indexed by the reflected ray's direction (see
//! [`crate::kernels::natural::SKY_SIDE`]); the built-in gradient is baked into it, or a user's
//! picture ([`SkyImage`], mapped as its documentation says), once, when it is set.
//!
//! Two things measured and left out: streaming (non-temporal) stores of the frame, which help
//! the classic look at 4K, made the natural look slower (1920x1080, one thread: 7.6 against 6.5
//! ns per pixel; 3840x2160, two threads: 3.8-4.6 against 3.5-3.7 ns per cell), and prefetching
//! the field ahead of the smoothing changed nothing measurable.

use crate::error::Error;
use crate::kernels::natural::{
    self, COLUMN_PAD, NaturalLook, PixelOrder, ROW_PAD, SKY_SIDE, SurfaceRows,
};
use crate::kernels::{self, Backend};
use crate::limits::check_size;
use crate::parallel;

use super::{FieldView, Heights, NaturalSettings};

/// A picture of the sky for the natural look's reflections, as RGBA bytes.
///
/// The picture is the sky above the horizon all around, like the top half of an
/// equirectangular panorama: its **top edge is the zenith** (straight up), its **bottom edge the
/// horizon**, and its width goes once around the horizon. Its **middle column is the sky beyond
/// the top of the pool picture** (azimuth 90°, where `sun_azimuth = 90` puts the sun), its left
/// quarter the sky to the left (azimuth 180°), its right quarter the sky to the right (0°), and
/// its left and right edges meet behind the viewer, as a panorama's do. So an ordinary photograph
/// of a sky works: the reflections of calm water show its top edge, and steeper waves reflect
/// what lies lower, down to its bottom edge at the horizon. (A full 2:1 panorama with the horizon
/// across its middle should be cropped to its top half.) Alpha is ignored.
///
/// The picture is reduced to the renderer's small sky table when it is set, so its size costs
/// nothing per frame.
///
/// ```
/// use ripples::{Look, Pool, SkyImage};
///
/// // A sky that darkens upwards: light at the bottom (the horizon), deep blue at the top.
/// let (width, height) = (8, 4);
/// let rgba: Vec<u8> = (0..width * height)
///     .flat_map(|i| {
///         let up = 1.0 - (i / width) as f32 / (height - 1) as f32;
///         [(200.0 - 150.0 * up) as u8, (220.0 - 100.0 * up) as u8, 240, 255]
///     })
///     .collect();
/// let mut pool = Pool::new(64, 48)?;
/// pool.set_sky(Some(&SkyImage::new(&rgba, width, height)?));
/// let floor = ripples::pool_tiles(64, 48)?;
/// let mut frame = vec![0; floor.len()];
/// pool.render(&Look::natural(), &floor, &mut frame)?;
/// # Ok::<(), ripples::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SkyImage<'a> {
    rgba: &'a [u8],
    width: u32,
    height: u32,
}

impl<'a> SkyImage<'a> {
    /// A sky picture of `width x height` pixels, `rgba` holding 4 bytes per pixel, row by row.
    /// A size of 0 or beyond [`MAX_SIDE`](crate::limits::MAX_SIDE) per side or
    /// [`MAX_CELLS`](crate::limits::MAX_CELLS) in all, or `rgba` of another length, is an
    /// [`Error`] naming it.
    pub fn new(rgba: &'a [u8], width: u32, height: u32) -> Result<Self, Error> {
        check_size(u64::from(width), u64::from(height))
            .map_err(|error| error.in_context("sky image"))?;
        let expected = width as usize * height as usize * 4;
        if rgba.len() != expected {
            return Err(Error::BufferSize {
                what: "sky image",
                got: rgba.len(),
                expected,
                per_pixel: 4,
                width,
                height,
            });
        }
        Ok(Self {
            rgba,
            width,
            height,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }
}

/// The sky table the natural look reflects, in the pixel order of the frames it is used for.
#[derive(Debug, Clone, PartialEq)]
struct SkyTable {
    texels: Vec<[u8; 4]>,
    order: PixelOrder,
}

impl SkyTable {
    fn gradient() -> Self {
        let mut texels = vec![[0; 4]; SKY_SIDE * SKY_SIDE];
        natural::gradient_sky(&mut texels);
        Self {
            texels,
            order: PixelOrder::Rgba,
        }
    }

    /// Bakes `image` into the table (see [`SkyImage`] for the mapping): the picture is first
    /// reduced to [`PANORAMA_WIDTH`] x [`PANORAMA_HEIGHT`] by averaging, then every texel
    /// averages 4x4 directions inside it, read bilinearly from the reduced picture (wrapping
    /// around the horizon).
    fn bake(&mut self, image: &SkyImage<'_>) {
        let panorama = reduce(image);
        let sample = |u: f64, v: f64| -> [f64; 3] {
            let [dx, dy, dz] = natural::sky_direction(u, v);
            let elevation = dz.clamp(0.0, 1.0).asin();
            let azimuth = (-dy).atan2(dx);
            let row = (1.0 - elevation / std::f64::consts::FRAC_PI_2) * PANORAMA_HEIGHT as f64;
            let turn = (azimuth - std::f64::consts::FRAC_PI_2) / std::f64::consts::TAU;
            let column = (0.5 - turn) * PANORAMA_WIDTH as f64;
            panorama_at(&panorama, column - 0.5, row - 0.5)
        };
        const SUBSAMPLES: usize = 4;
        let texel_size = 2.0 / SKY_SIDE as f64;
        for (index, texel) in self.texels.iter_mut().enumerate() {
            let (i, j) = (index % SKY_SIDE, index / SKY_SIDE);
            let mut sum = [0.0; 3];
            for sub in 0..SUBSAMPLES * SUBSAMPLES {
                let offset = |k: usize| (k as f64 + 0.5) / SUBSAMPLES as f64 * texel_size - 1.0;
                let u = offset(i * SUBSAMPLES + sub % SUBSAMPLES);
                let v = offset(j * SUBSAMPLES + sub / SUBSAMPLES);
                let colour = sample(u, v);
                for c in 0..3 {
                    sum[c] += colour[c];
                }
            }
            let mean = sum.map(|c| c / (SUBSAMPLES * SUBSAMPLES) as f64);
            *texel = [mean[0], mean[1], mean[2], 255.0].map(|c| c.round().clamp(0.0, 255.0) as u8);
        }
        self.order = PixelOrder::Rgba;
    }

    /// The table in `order` (swapping red and blue in place when the order changed).
    fn in_order(&mut self, order: PixelOrder) -> &[[u8; 4]] {
        if self.order != order {
            for texel in &mut self.texels {
                texel.swap(0, 2);
            }
            self.order = order;
        }
        &self.texels
    }
}

/// Columns of the reduced panorama a sky picture is baked from: about four per texel around the
/// table's horizon circle (`pi * SKY_SIDE` texels long).
const PANORAMA_WIDTH: usize = 256;

/// Rows of the reduced panorama, zenith to horizon.
const PANORAMA_HEIGHT: usize = 64;

/// `image` reduced to `PANORAMA_WIDTH x PANORAMA_HEIGHT` RGB values: each cell is the mean of
/// the pixels whose centres fall in it (the nearest pixel when none does).
fn reduce(image: &SkyImage<'_>) -> Vec<[f64; 3]> {
    let (width, height) = (image.width as usize, image.height as usize);
    let span = |cell: usize, cells: usize, pixels: usize| {
        let start = cell * pixels / cells;
        let end = ((cell + 1) * pixels)
            .div_ceil(cells)
            .max(start + 1)
            .min(pixels);
        start..end
    };
    let mut cells = vec![[0.0; 3]; PANORAMA_WIDTH * PANORAMA_HEIGHT];
    for (index, cell) in cells.iter_mut().enumerate() {
        let columns = span(index % PANORAMA_WIDTH, PANORAMA_WIDTH, width);
        let rows = span(index / PANORAMA_WIDTH, PANORAMA_HEIGHT, height);
        let mut sum = [0.0; 3];
        for y in rows.clone() {
            for x in columns.clone() {
                let pixel = &image.rgba[(y * width + x) * 4..][..3];
                for c in 0..3 {
                    sum[c] += f64::from(pixel[c]);
                }
            }
        }
        let count = (rows.len() * columns.len()) as f64;
        *cell = sum.map(|c| c / count);
    }
    cells
}

/// The reduced panorama at `(column, row)` (cell centres at integers), bilinearly, wrapping
/// around the horizon and clamped at the zenith and the horizon.
fn panorama_at(panorama: &[[f64; 3]], column: f64, row: f64) -> [f64; 3] {
    let row = row.clamp(0.0, (PANORAMA_HEIGHT - 1) as f64);
    let (row0, fy) = (row.floor() as usize, row - row.floor());
    let row1 = (row0 + 1).min(PANORAMA_HEIGHT - 1);
    let column = column.rem_euclid(PANORAMA_WIDTH as f64);
    let (column0, fx) = (
        column.floor() as usize % PANORAMA_WIDTH,
        column - column.floor(),
    );
    let column1 = (column0 + 1) % PANORAMA_WIDTH;
    let at = |x: usize, y: usize| panorama[y * PANORAMA_WIDTH + x];
    std::array::from_fn(|c| {
        let top = at(column0, row0)[c] + (at(column1, row0)[c] - at(column0, row0)[c]) * fx;
        let bottom = at(column0, row1)[c] + (at(column1, row1)[c] - at(column0, row1)[c]) * fx;
        top + (bottom - top) * fy
    })
}

/// The natural look's part of a [`super::Renderer`]: its scratch rows and its sky.
#[derive(Debug, Clone)]
pub(super) struct NaturalRenderer {
    strips: Vec<StripRows>,
    grid_width: usize,
    sky: SkyTable,
    /// Whether the sky is a user's picture (else the built-in gradient).
    custom_sky: bool,
}

/// What one frame's strips share.
struct Frame<'a> {
    field: FieldView<'a>,
    scale: usize,
    look: NaturalLook,
    backend: Backend,
    src: &'a [[u8; 4]],
    sky: &'a [[u8; 4]],
    image_height: usize,
}

impl NaturalRenderer {
    pub(super) fn new() -> Self {
        Self {
            strips: Vec::new(),
            grid_width: 0,
            sky: SkyTable::gradient(),
            custom_sky: false,
        }
    }

    /// Reflects `sky` from now on, or the built-in gradient for `None`.
    pub(super) fn set_sky(&mut self, sky: Option<&SkyImage<'_>>) {
        match sky {
            Some(image) => {
                self.sky.bake(image);
                self.custom_sky = true;
            }
            None if self.custom_sky => {
                self.sky = SkyTable::gradient();
                self.custom_sky = false;
            }
            None => {}
        }
    }

    /// The sky table the reflections read: `SKY_SIDE x SKY_SIDE` RGBA texels (see
    /// [`natural::SKY_SIDE`] for where each texel looks), for a renderer that reads it itself.
    pub(super) fn sky_table(&mut self) -> &[[u8; 4]] {
        self.sky.in_order(PixelOrder::Rgba)
    }

    /// The natural look's surface at every cell of `field` for a renderer that does the
    /// optics itself (a GPU): `[p, q, focus, 0]` per cell, row by row, exactly what
    /// [`natural::surface_row`] gives the CPU's coarse rows (slopes in pixels per pixel at
    /// `scale` pixels per cell, the caustic focus from the smoothed curvatures).
    pub(super) fn surface(
        &mut self,
        field: FieldView<'_>,
        scale: u32,
        look: &NaturalSettings,
        out: &mut [[f32; 4]],
    ) {
        if self.grid_width != field.width || self.strips.is_empty() {
            self.grid_width = field.width;
            self.strips.clear();
            self.strips.push(StripRows::new(field.width));
        }
        let frame = Frame {
            field,
            scale: scale as usize,
            look: NaturalLook::new(look, scale, PixelOrder::Rgba),
            backend: kernels::backend(),
            src: &[],
            sky: &[],
            image_height: 0,
        };
        let rows = &mut self.strips[0];
        rows.forget();
        for (y, cells) in out.chunks_exact_mut(field.width).enumerate() {
            rows.surface(&frame, y, Slot::Above);
            let [p, q, focus] = &rows.above;
            let padded = ROW_PAD..ROW_PAD + field.width;
            for (((cell, &p), &q), &focus) in cells
                .iter_mut()
                .zip(&p[padded.clone()])
                .zip(&q[padded.clone()])
                .zip(&focus[padded])
            {
                *cell = [p, q, focus, 0.0];
            }
        }
    }

    /// Renders a frame whose sizes the caller checked (`src` and `dst` are
    /// `image_width x image_height`, the field covers them at `scale`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn render(
        &mut self,
        field: FieldView<'_>,
        scale: u32,
        look: &NaturalSettings,
        order: PixelOrder,
        src: &[[u8; 4]],
        dst: &mut [[u8; 4]],
        image_width: usize,
    ) {
        let image_height = src.len() / image_width;
        let strip_rows = parallel::strip_rows(image_width, image_height);
        let strips = image_height.div_ceil(strip_rows);
        if self.grid_width != field.width {
            self.grid_width = field.width;
            self.strips.clear();
        }
        if self.strips.len() < strips {
            self.strips
                .resize_with(strips, || StripRows::new(field.width));
        }
        let frame = Frame {
            field,
            scale: scale as usize,
            look: NaturalLook::new(look, scale, order),
            backend: kernels::backend(),
            src,
            sky: self.sky.in_order(order),
            image_height,
        };
        // Each strip's rows start afresh: what they held is last frame's.
        for rows in &mut self.strips {
            rows.forget();
        }
        let render_row = |y: usize, dst_row: &mut [[u8; 4]], rows: &mut StripRows| {
            prefetch_source(&frame, y);
            rows.render(&frame, y, dst_row);
        };
        parallel::for_each_row_with(dst, image_width, strip_rows, &mut self.strips, render_row);
    }
}

/// How many rows below the row being rendered the source is prefetched: a row samples the floor
/// within its displacement of itself, a few rows for gentle water, in an order the CPU's own
/// prefetcher cannot follow.
const SOURCE_PREFETCH_ROWS: usize = 16;

/// Asks the CPU to load source row `y + SOURCE_PREFETCH_ROWS` (a hint only).
fn prefetch_source(frame: &Frame<'_>, y: usize) {
    let ahead = y + SOURCE_PREFETCH_ROWS;
    if ahead < frame.image_height {
        let width = frame.src.len() / frame.image_height;
        kernels::prefetch(&frame.src[ahead * width..(ahead + 1) * width]);
    }
}

/// The scratch rows of one strip.
#[derive(Debug, Clone)]
struct StripRows {
    /// A row of vertical sums ([`natural::smooth_columns`]).
    columns: Vec<f32>,
    /// Smoothed grid rows: row `r` lives in slot `r % 4`, so the rows one or two surface rows
    /// need (at most four in a row) never evict each other.
    smoothed: [Vec<f32>; 4],
    /// The grid row each slot holds (`usize::MAX`: none).
    holds: [usize; 4],
    /// Scale above 1: the surfaces of the grid rows above and below the image row, the upper
    /// one's index (`usize::MAX`: none), and their blend for the image row.
    above: [Vec<f32>; 3],
    below: [Vec<f32>; 3],
    above_row: usize,
    blended: [Vec<f32>; 3],
}

impl StripRows {
    fn new(grid_width: usize) -> Self {
        let padded = grid_width + 2 * ROW_PAD;
        Self {
            columns: vec![0.0; grid_width + 2 * COLUMN_PAD],
            smoothed: std::array::from_fn(|_| vec![0.0; padded]),
            holds: [usize::MAX; 4],
            above: std::array::from_fn(|_| vec![0.0; padded]),
            below: std::array::from_fn(|_| vec![0.0; padded]),
            above_row: usize::MAX,
            blended: std::array::from_fn(|_| vec![0.0; padded]),
        }
    }

    /// Forgets the last frame's rows.
    fn forget(&mut self) {
        self.holds = [usize::MAX; 4];
        self.above_row = usize::MAX;
    }

    /// Renders image row `y`.
    fn render(&mut self, frame: &Frame<'_>, y: usize, dst_row: &mut [[u8; 4]]) {
        let field = frame.field;
        let surface = if frame.scale == 1 {
            let [up, mid, down] = [-1, 0, 1].map(|step| natural::mirrored(y, step, field.height));
            for row in [up, mid, down] {
                self.smooth(frame, row);
            }
            let [up, mid, down] = [up, mid, down].map(|row| &self.smoothed[row % 4][..]);
            SurfaceRows::Smoothed { up, mid, down }
        } else {
            let scale = frame.scale as f32;
            let v = ((y as f32 + 0.5) / scale - 0.5).clamp(0.0, (field.height - 1) as f32);
            let above = v as usize;
            let below = (above + 1).min(field.height - 1);
            if above != self.above_row {
                if self.above_row != usize::MAX && above == self.above_row + 1 {
                    std::mem::swap(&mut self.above, &mut self.below);
                } else {
                    self.surface(frame, above, Slot::Above);
                }
                self.surface(frame, below, Slot::Below);
                self.above_row = above;
            }
            let weight = v - above as f32;
            let [a0, a1, a2] = &self.above;
            let [b0, b1, b2] = &self.below;
            let [o0, o1, o2] = &mut self.blended;
            natural::lerp_rows(
                frame.backend,
                [a0, a1, a2],
                [b0, b1, b2],
                weight,
                [o0, o1, o2],
            );
            let [r0, r1, r2] = &self.blended;
            SurfaceRows::Grid {
                rows: [r0, r1, r2],
                scale: frame.scale as u32,
            }
        };
        natural::natural_render_row(
            frame.backend,
            y,
            frame.image_height,
            surface,
            frame.src,
            dst_row,
            &frame.look,
            frame.sky,
        );
    }

    /// Smooths grid row `row` into its slot unless it is there.
    fn smooth(&mut self, frame: &Frame<'_>, row: usize) {
        let slot = row % 4;
        if self.holds[slot] == row {
            return;
        }
        let field = frame.field;
        let width = field.width;
        let rows = [-2, -1, 0, 1, 2].map(|step| {
            let i = natural::mirrored(row, step, field.height);
            i * width..(i + 1) * width
        });
        let backend = frame.backend;
        match field.heights {
            Heights::I16(h) => {
                natural::smooth_columns(backend, rows.map(|r| &h[r]), &mut self.columns)
            }
            Heights::F32(h) => {
                natural::smooth_columns(backend, rows.map(|r| &h[r]), &mut self.columns)
            }
        }
        natural::smooth_row(backend, &self.columns, &mut self.smoothed[slot]);
        self.holds[slot] = row;
    }

    /// The surface of grid row `row` into the rows above or below the image row.
    fn surface(&mut self, frame: &Frame<'_>, row: usize, slot: Slot) {
        let height = frame.field.height;
        let [up, mid, down] = [-1, 0, 1].map(|step| natural::mirrored(row, step, height));
        for r in [up, mid, down] {
            self.smooth(frame, r);
        }
        let out = match slot {
            Slot::Above => &mut self.above,
            Slot::Below => &mut self.below,
        };
        let [o0, o1, o2] = out;
        natural::surface_row(
            frame.backend,
            &self.smoothed[up % 4],
            &self.smoothed[mid % 4],
            &self.smoothed[down % 4],
            &frame.look,
            [o0, o1, o2],
        );
    }
}

/// Which of a strip's two grid surfaces to fill.
#[derive(Clone, Copy)]
enum Slot {
    Above,
    Below,
}
