//! Refraction rendering: the classic look of the seeds, the lit look and the natural look (the
//! default, [`RenderMode::default`]).
//!
//! A renderer turns a height field and a source image into a frame. The classic and lit
//! looks displace each pixel by the surface gradient (what makes the waves visible, as the
//! articles explain); the lit look samples bilinearly and adds light from the surface
//! normal. The natural look treats the image as the floor of a pool seen through real water
//! (Snell's law through a depth, caustics, Fresnel sky reflection, absorption; see
//! [`crate::kernels`]' `natural` module), from a smoothed field so that cell-sized noise does not
//! show; its frame, scratch rows and sky live in the `natural` submodule. The work is done row
//! by row by the [`crate::kernels`]; the [`Renderer`] only owns the scratch rows those kernels
//! need, allocated once, so rendering a frame allocates nothing.
//!
//! A coarser simulation grid must cost less than a full one, so its rows are brought to the
//! image's resolution once each: a strip keeps the two grid rows around its current image row
//! upsampled along x ([`kernels::upsample_row`]) and blends them for each image row that lies
//! between them, instead of interpolating four grid cells per pixel and per quantity.
//!
//! Each look's own code has a file: `classic` (the classic solver's fused step and render,
//! walked in column tiles), `gradient` (the gradient rows the classic, lit and spring looks
//! render from), `lit` (the lit look's light table), `natural` and `floats` (the photo look is
//! [`crate::photo`]'s), and `look`: the typed [`Look`], each look carrying its own numbers, and
//! [`LookSettings`], every look's numbers for a front end that switches looks. This file keeps
//! what they share ([`RenderMode`], [`Heights`], [`FieldView`], the strips' scratch rows) and
//! the dispatch ([`Renderer`], which matches on the [`Look`]).
//!
//! Pixels are 4 bytes with alpha in byte 3: RGBA bytes, or `u32` words `0xAARRGGBB` on a
//! little-endian machine (what softbuffer and most framebuffers use). The classic look copies
//! pixels whole, so it works for any 4-byte format.

use crate::error::Error;
use crate::kernels::natural::PixelOrder;
use crate::kernels::{self, Backend, BlendedRow, FrameWrites, GridColumns, LitLook, SourceRow};
use crate::limits::MAX_SIDE;
use crate::parallel;
use crate::simulation::classic::ClassicSolver;
use crate::simulation::interface::WaterSolver;
use std::ops::Range;

mod classic;
pub(crate) mod floats;
pub mod gpu;
mod gradient;
mod lit;
mod look;
mod natural;
pub mod parameters;
pub(crate) mod tiles;
pub(crate) mod walls;

use classic::{
    Strip, TileJob, classic_strip_rows, prefetch_source, render_classic_row, step_and_render_tiled,
    tiled_classic,
};
use gradient::fill_gradient_row;
use lit::new_lit_look;

pub use gpu::{SHADER_CONSTANTS, ShaderConstants};
pub use look::{ClassicSettings, LitSettings, Look, LookSettings, NaturalSettings, SpringSettings};
pub use natural::SkyImage;

/// Which look to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(try_from = "String")
)]
pub enum RenderMode {
    /// Refraction with bilinear sampling, diffuse light and a specular highlight (called
    /// `default` before the natural look became the default).
    Lit,
    /// The classic demo-scene refraction: each pixel is taken, unlit, from the nearest pixel
    /// the slope points to, exactly as the reference code does (see the crate docs, History).
    Classic,
    /// The spring model's own render: nearest-pixel refraction scaled by `spring_refraction`,
    /// and transparency from the velocity (fast water is see-through). Made for the spring
    /// solver; with the others, which keep no velocity, it is opaque.
    Spring,
    /// Water as it looks: the image is the floor of a pool `depth` pixels deep, seen through a
    /// surface that refracts by Snell's law, focuses sunlight into caustics, reflects a sky by
    /// Fresnel's law and tints the light by absorption. Normals come from a smoothed field, so
    /// cell-sized noise does not show. The default.
    #[default]
    Natural,
}

impl std::str::FromStr for RenderMode {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        if text == "default" {
            return Err(Error::Renamed {
                what: "render mode",
                old: "default",
                new: "lit",
                note: "the default look is 'natural'",
            });
        }
        Error::parse_name("render mode", text, &Self::ALL, Self::name)
    }
}

impl RenderMode {
    /// Every look, in the order `ripples play`'s `L` key cycles through them.
    pub const ALL: [RenderMode; 4] = [Self::Natural, Self::Lit, Self::Classic, Self::Spring];

    /// The name a scene file or a command line gives it: `"natural"`, `"lit"`, `"classic"` or
    /// `"spring"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Natural => "natural",
            Self::Lit => "lit",
            Self::Classic => "classic",
            Self::Spring => "spring",
        }
    }
}

impl TryFrom<String> for RenderMode {
    type Error = Error;

    fn try_from(text: String) -> Result<Self, Error> {
        text.parse()
    }
}

impl Look {
    /// The constants a renderer that runs elsewhere (a GPU's shaders, fed by
    /// [`Renderer::surface`]) needs to draw this look at `scale` pixels per cell, flattened for
    /// upload: [`ShaderConstants`], the GPU's interface, field after field. The
    /// other looks' constants are their defaults ([`LookSettings::shader_constants`] gives
    /// every look's kept numbers).
    pub fn shader_constants(&self, scale: u32) -> [f32; SHADER_CONSTANTS] {
        LookSettings::default().with(*self).shader_constants(scale)
    }
}

impl LitSettings {
    /// The lit look's parameters and light table, as the [`crate::kernels`] take them
    /// (for their tests and benchmarks).
    #[cfg(feature = "kernels")]
    pub fn lit_look(&self) -> LitLook {
        new_lit_look(self)
    }
}

impl LookSettings {
    /// The constants a GPU's shaders need to draw any of these looks at `scale` pixels per
    /// cell ([`Look::shader_constants`], with every look's kept numbers).
    pub fn shader_constants(&self, scale: u32) -> [f32; SHADER_CONSTANTS] {
        ShaderConstants::new(self, scale).flatten()
    }
}

/// Heights of a field: integers for the classic solver, floats for the others.
#[derive(Debug, Clone, Copy)]
pub enum Heights<'a> {
    /// The classic solver's `i16` grid.
    I16(&'a [i16]),
    /// An `f32` grid (height above rest).
    F32(&'a [f32]),
}

impl Heights<'_> {
    /// Number of cells.
    pub fn len(&self) -> usize {
        match self {
            Self::I16(h) => h.len(),
            Self::F32(h) => h.len(),
        }
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A read-only view of a height field: `width x height` cells, row-major.
#[derive(Debug, Clone, Copy)]
pub struct FieldView<'a> {
    /// Heights, row-major.
    pub heights: Heights<'a>,
    /// Vertical velocities, for solvers that keep them (used by the spring look).
    pub velocities: Option<&'a [f32]>,
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// Renders height fields into frames; owns the scratch rows so a frame allocates nothing.
///
/// A frame is rendered in horizontal strips, in parallel with the `parallel` feature; each strip
/// has its own scratch rows (gradients, velocities, the two grid rows it interpolates between).
#[derive(Debug, Clone)]
pub struct Renderer {
    image_width: usize,
    grid_width: usize,
    strips: Vec<StripScratch>,
    /// The lit look's kernel parameters, and the look they were made for (the light table
    /// is rebuilt only when the look changes).
    lit: LitLook,
    lit_for: LitSettings,
    /// How the natural look's colours sit in a pixel (set by the pool for `u32` frames).
    pixel_order: PixelOrder,
    /// Where each image column samples a coarser grid (for simulation scales above 1).
    columns: GridColumns,
    /// The natural look's scratch rows and sky.
    natural: natural::NaturalRenderer,
}

/// Scratch rows of one strip.
#[derive(Debug, Clone)]
struct StripScratch {
    /// The gradient (and velocity) of the image row being rendered.
    gradient_x: Vec<f32>,
    gradient_y: Vec<f32>,
    velocity: Vec<f32>,
    /// At a simulation scale above 1: the gradient of one grid row, before it is upsampled.
    grid_gradient: [Vec<f32>; 2],
    /// ... and the two grid rows an image row lies between, upsampled along x.
    upsampled: [UpsampledRow; 2],
}

/// A grid row's gradient and velocity upsampled along x to image resolution
/// ([`kernels::upsample_row`]): computed once per grid row and strip, then blended into every
/// image row that lies next to it.
#[derive(Debug, Clone)]
struct UpsampledRow {
    gradient_x: Vec<f32>,
    gradient_y: Vec<f32>,
    velocity: Vec<f32>,
    /// The grid row these hold (`usize::MAX`: none).
    grid_row: usize,
}

impl UpsampledRow {
    fn new(image_width: usize) -> Self {
        Self {
            gradient_x: vec![0.0; image_width],
            gradient_y: vec![0.0; image_width],
            velocity: vec![0.0; image_width],
            grid_row: usize::MAX,
        }
    }
}

impl StripScratch {
    fn new(image_width: usize, grid_width: usize) -> Self {
        Self {
            gradient_x: vec![0.0; image_width],
            gradient_y: vec![0.0; image_width],
            velocity: vec![0.0; image_width],
            grid_gradient: std::array::from_fn(|_| vec![0.0; grid_width]),
            upsampled: std::array::from_fn(|_| UpsampledRow::new(image_width)),
        }
    }
}

/// What every strip of one frame shares.
struct FrameJob<'a> {
    field: FieldView<'a>,
    scale: u32,
    mode: RenderMode,
    look: &'a Look,
    lit: &'a LitLook,
    backend: Backend,
    /// Where each image column samples the grid (at scales above 1).
    columns: &'a GridColumns,
    src: &'a [[u8; 4]],
    image_width: usize,
    image_height: usize,
}

impl Renderer {
    /// A renderer for images `image_width` wide over grids `grid_width` wide.
    ///
    /// It allocates its scratch rows for those widths now (so that rendering allocates
    /// nothing), or, for widths beyond [`MAX_SIDE`](crate::limits::MAX_SIDE), on the first
    /// render, once the frame has shown how wide it really is.
    pub fn new(image_width: usize, grid_width: usize) -> Self {
        let within_limits = image_width.max(grid_width) <= MAX_SIDE as usize;
        Self {
            image_width,
            grid_width,
            strips: if within_limits {
                vec![StripScratch::new(image_width, grid_width)]
            } else {
                Vec::new()
            },
            lit: new_lit_look(&LitSettings::default()),
            lit_for: LitSettings::default(),
            pixel_order: PixelOrder::Rgba,
            // Sized now; computed for the frame's scale when a frame needs them.
            columns: if within_limits {
                GridColumns::new(image_width, grid_width, 1)
            } else {
                GridColumns::default()
            },
            natural: natural::NaturalRenderer::new(),
        }
    }

    /// Sets the sky the natural look reflects: a picture (see [`SkyImage`] for how it is
    /// mapped onto the sky), or the built-in gradient for `None`. The picture is reduced to a
    /// small table now, so it costs nothing per frame.
    pub fn set_sky(&mut self, sky: Option<&SkyImage<'_>>) {
        self.natural.set_sky(sky);
    }

    /// Sets how the natural look's colours sit in a pixel: [`PixelOrder::Rgba`] (the default)
    /// for RGBA bytes, [`PixelOrder::Bgra`] for `0xAARRGGBB` words. The other looks treat the
    /// three colour bytes alike and ignore it.
    pub(crate) fn pixel_order(&self) -> PixelOrder {
        self.pixel_order
    }

    pub(crate) fn set_pixel_order(&mut self, order: PixelOrder) {
        self.pixel_order = order;
    }

    /// Renders `field` over `src` into `dst` (both `image_width x image_height` pixels).
    ///
    /// The field covers the image at `scale` pixels per cell: it must be
    /// `ceil(image_width / scale) x ceil(image_height / scale)`. Pixel `(x, y)` sees the field at
    /// cell coordinates `((x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5)`, interpolated
    /// bilinearly; with `scale == 1` that is exactly cell `(x, y)`.
    ///
    /// A field that does not cover the image, or a look [`Look::validate`] refuses, is an
    /// error before anything is written. With the `parallel` feature, the frame is drawn in
    /// strips on the worker threads.
    pub fn render(
        &mut self,
        field: FieldView<'_>,
        scale: u32,
        look: &Look,
        src: &[[u8; 4]],
        dst: &mut [[u8; 4]],
        image_width: usize,
    ) -> Result<(), Error> {
        look.validate()?;
        parallel::on_workers(dst.len(), || {
            let image_height = src.len().checked_div(image_width).unwrap_or(0);
            // `max(1)`: a scale of 0 is refused below, not divided by.
            let cell = scale.max(1) as usize;
            let expected_grid = (image_width.div_ceil(cell), image_height.div_ceil(cell));
            if scale == 0
                || (field.width, field.height) != expected_grid
                || field.heights.len() != field.width * field.height
                || src.len() != dst.len()
                || src.len() != image_width * image_height
            {
                return Err(Error::FieldImageMismatch {
                    field: [field.width, field.height],
                    scale,
                    image: [image_width, image_height],
                });
            }
            if image_width == 0 {
                return Ok(());
            }
            let backend = kernels::backend();
            if let (Look::Classic(_), 1, Heights::I16(heights)) = (look, scale, field.heights) {
                let (width, height) = (field.width, field.height);
                let writes = FrameWrites::for_frame(dst.len());
                let tiled = tiled_classic(width);
                let strip_rows = classic_strip_rows(tiled, width, height);
                parallel::for_each_strip(dst, width, strip_rows, |first_row, strip| {
                    if tiled {
                        let rows = first_row..first_row + strip.len() / width;
                        let grid_row = |y: usize| &heights[y * width..(y + 1) * width];
                        let tiles = TileJob {
                            backend,
                            src,
                            width,
                            height,
                            writes,
                        };
                        tiles.render(rows, grid_row, strip, first_row);
                        return;
                    }
                    for (offset, dst_row) in strip.chunks_exact_mut(width).enumerate() {
                        prefetch_source(src, width, height, first_row + offset);
                        render_classic_row(
                            backend,
                            heights,
                            width,
                            height,
                            first_row + offset,
                            src,
                            dst_row,
                            writes,
                        );
                    }
                });
                return Ok(());
            }
            if let Look::Natural(natural) = look {
                let order = self.pixel_order;
                self.natural
                    .render(field, scale, natural, order, src, dst, image_width);
                return Ok(());
            }
            self.prepare_lit(look);
            let strip_rows = parallel::strip_rows(image_width, image_height);
            let strips = image_height.div_ceil(strip_rows);
            self.ensure_scratch(image_width, field.width, strips);
            if scale > 1 {
                self.columns.set(image_width, field.width, scale);
            }
            for scratch in &mut self.strips {
                for row in &mut scratch.upsampled {
                    row.grid_row = usize::MAX;
                }
            }
            let job = FrameJob {
                field,
                scale,
                mode: look.kind(),
                look,
                lit: &self.lit,
                backend,
                columns: &self.columns,
                src,
                image_width,
                image_height,
            };
            let render_row = |y: usize, dst_row: &mut [[u8; 4]], scratch: &mut StripScratch| {
                prefetch_source(src, image_width, image_height, y);
                job.render_row(y, dst_row, scratch);
            };
            parallel::for_each_row_with(dst, image_width, strip_rows, &mut self.strips, render_row);
            Ok(())
        })
    }

    /// What a renderer that runs elsewhere (a GPU's fragment shader) needs of `field` to draw
    /// `look` at `scale` pixels per cell: four floats per grid cell, row by row, which it
    /// interpolates bilinearly at each pixel (at cell coordinates `(x + 0.5) / scale - 0.5`,
    /// as [`render`](Self::render) does) and then shades as the row kernels do:
    ///
    /// - natural look: `[p, q, focus, 0]`, the slopes and caustic focus of
    ///   the natural kernels' `surface_row` (from the smoothed field);
    /// - the others: `[gx, gy, velocity, 0]`, the gradient of the kernels' `gradient_row` (0 on
    ///   border cells) and, for a solver that keeps them, the vertical velocity (else 0).
    ///
    /// `out` must hold `4 * field.width * field.height` floats.
    pub fn surface(
        &mut self,
        field: FieldView<'_>,
        scale: u32,
        look: &Look,
        out: &mut [f32],
    ) -> Result<(), Error> {
        let cells = field.width * field.height;
        if out.len() != 4 * cells || field.heights.len() != cells || scale == 0 {
            return Err(Error::WrongLength {
                buffer: crate::Buffer::Surface { scale },
                got: out.len(),
                expected: 4 * cells,
                width: field.width,
                height: field.height,
            });
        }
        look.validate()?;
        let out: &mut [[f32; 4]] = bytemuck::cast_slice_mut(out);
        if cells == 0 {
            return Ok(());
        }
        if let Look::Natural(natural) = look {
            self.natural.surface(field, scale, natural, out);
            return Ok(());
        }
        self.ensure_scratch(self.image_width, field.width, 1);
        let scratch = &mut self.strips[0];
        let [gx, gy] = &mut scratch.grid_gradient;
        let (gx, gy) = (&mut gx[..field.width], &mut gy[..field.width]);
        let velocities = field.velocities.filter(|v| v.len() == cells);
        for (y, row) in out.chunks_exact_mut(field.width).enumerate() {
            fill_gradient_row(field, y, gx, gy);
            let velocity = velocities.map(|v| &v[y * field.width..(y + 1) * field.width]);
            for (x, cell) in row.iter_mut().enumerate() {
                *cell = [gx[x], gy[x], velocity.map_or(0.0, |v| v[x]), 0.0];
            }
        }
        Ok(())
    }

    /// The natural look's sky table, RGBA (`SKY_SIDE` texels a side): what a renderer
    /// that runs elsewhere reads the reflections from.
    pub fn sky_table(&mut self) -> &[[u8; 4]] {
        self.natural.sky_table()
    }

    /// Steps `solver` and renders the new field, in one pass over memory: each strip of rows
    /// steps a row and at once renders the row above it, whose three grid rows are then
    /// complete and still in cache; the two edge rows of every strip, which need a row another
    /// strip steps, are rendered after all strips finish. The result is exactly
    /// `solver.step()` followed by [`render`](Self::render) at scale 1. The classic look on
    /// wide images (x86-64) steps each strip whole and then renders it in column tiles instead,
    /// which keeps the source rows a tile gathers from in L2 (see [`TILE_WIDTH`]).
    ///
    /// Only for the classic and lit looks at scale 1 (the natural look smooths the field
    /// over seven rows, more than this pass keeps); returns `false` (doing nothing) for
    /// anything else, so the caller can step and render separately. The work is done on the
    /// worker pool (see [`parallel::on_workers`]).
    pub(crate) fn step_and_render_classic(
        &mut self,
        solver: &mut ClassicSolver,
        look: &Look,
        src: &[[u8; 4]],
        dst: &mut [[u8; 4]],
    ) -> bool {
        parallel::on_workers(dst.len(), || {
            let (width, height) = (solver.width() as usize, solver.height() as usize);
            if matches!(look, Look::Spring(_) | Look::Natural(_))
                || width < 3
                || height < 3
                || src.len() != width * height
                || dst.len() != src.len()
            {
                return false;
            }
            self.prepare_lit(look);
            let backend = kernels::backend();
            let tiled = matches!(look, Look::Classic(_)) && tiled_classic(width);
            let strip_rows = classic_strip_rows(tiled, width, height);
            self.ensure_scratch(width, width, height.div_ceil(strip_rows));
            let (lit, mode) = (&self.lit, look.kind());
            let render_row = |y: usize,
                              rows: [&[i16]; 3],
                              dst_row: &mut [[u8; 4]],
                              scratch: &mut StripScratch| {
                if y == 0 || y + 1 >= height {
                    // Border rows: the classic look copies them, the lit look sees flat water.
                    match mode {
                        RenderMode::Classic => {
                            dst_row.copy_from_slice(&src[y * width..(y + 1) * width]);
                            return;
                        }
                        _ => {
                            scratch.gradient_x.fill(0.0);
                            scratch.gradient_y.fill(0.0);
                        }
                    }
                } else if mode == RenderMode::Classic {
                    kernels::classic_render_row(
                        backend,
                        SourceRow { src, y, height },
                        rows,
                        dst_row,
                    );
                    return;
                } else {
                    let [above, row, below] = rows;
                    kernels::gradient_row(
                        above,
                        row,
                        below,
                        &mut scratch.gradient_x,
                        &mut scratch.gradient_y,
                    );
                }
                kernels::lit_render_row(
                    backend,
                    SourceRow { src, y, height },
                    [&scratch.gradient_x, &scratch.gradient_y],
                    dst_row,
                    lit,
                );
            };
            let (current, next, damping_shift) = solver.step_parts();
            let current: &[i16] = current;
            // A scratch of one `StripScratch` per strip.
            parallel::for_each_strip_pair_with_scratch(
                next,
                dst,
                width,
                &mut self.strips,
                1,
                strip_rows,
                |first_row, next_strip, dst_strip, scratch| {
                    let scratch = &mut scratch[0];
                    let rows = next_strip.len() / width;
                    if tiled {
                        let strip = Strip {
                            first_row,
                            heights: next_strip,
                            frame: dst_strip,
                        };
                        step_and_render_tiled(
                            backend,
                            current,
                            damping_shift,
                            src,
                            width,
                            height,
                            strip,
                        );
                        return;
                    }
                    for offset in 0..rows {
                        let y = first_row + offset;
                        if y > 0 && y + 1 < height {
                            let out = &mut next_strip[offset * width..(offset + 1) * width];
                            let above = &current[(y - 1) * width..y * width];
                            let row = &current[y * width..(y + 1) * width];
                            let below = &current[(y + 1) * width..(y + 2) * width];
                            kernels::classic_step_row(
                                backend,
                                above,
                                row,
                                below,
                                out,
                                damping_shift,
                            );
                        }
                        // Row `offset - 1` now has its rows above and below in this strip.
                        if offset >= 2 {
                            let r = offset - 1;
                            let strip_rows: &[i16] = next_strip;
                            let grid =
                                [r - 1, r, r + 1].map(|i| &strip_rows[i * width..(i + 1) * width]);
                            let dst_row = &mut dst_strip[r * width..(r + 1) * width];
                            prefetch_source(src, width, height, first_row + r);
                            render_row(first_row + r, grid, dst_row, scratch);
                        }
                    }
                },
            );
            solver.finish_step();
            // The first and last row of every strip.
            let field = solver.heights();
            parallel::for_each_strip_with(
                dst,
                width,
                strip_rows,
                &mut self.strips,
                |first_row, dst_strip, scratch| {
                    let rows = dst_strip.len() / width;
                    for offset in [0, rows - 1] {
                        let y = first_row + offset;
                        let grid = [y.saturating_sub(1), y, (y + 1).min(height - 1)]
                            .map(|i| &field[i * width..(i + 1) * width]);
                        let dst_row = &mut dst_strip[offset * width..(offset + 1) * width];
                        render_row(y, grid, dst_row, scratch);
                    }
                },
            );
            true
        })
    }

    /// Rebuilds the lit look's light table when the look changed since the last frame.
    fn prepare_lit(&mut self, look: &Look) {
        if let Look::Lit(settings) = look
            && self.lit_for != *settings
        {
            settings.update_lit_look(&mut self.lit);
            self.lit_for = *settings;
        }
    }

    fn ensure_scratch(&mut self, image_width: usize, grid_width: usize, strips: usize) {
        if self.image_width != image_width || self.grid_width != grid_width {
            self.image_width = image_width;
            self.grid_width = grid_width;
            self.strips.clear();
        }
        if self.strips.len() < strips {
            self.strips
                .resize_with(strips, || StripScratch::new(image_width, grid_width));
        }
    }
}
