//! Scalar reference kernels: the exact semantics, in plain safe Rust.
//!
//! These are deliberately written the way the algorithm is specified (one cell, one pixel at a
//! time) so that they can be read against the specification. Slices are re-borrowed to the row
//! width up front, which lets the compiler drop most bounds checks without any `unsafe`.

use std::ops::Range;

/// The picture a render refracts and the row of it being drawn: row `y` of `src`, a picture of
/// `height` rows as wide as the output row. Every render of a row takes one, beside what it
/// refracts by (the height rows or the gradient rows) and the row it writes.
#[derive(Debug, Clone, Copy)]
pub struct SourceRow<'a> {
    /// The whole picture, `width * height` pixels.
    pub src: &'a [[u8; 4]],
    /// The row being drawn.
    pub y: usize,
    /// The picture's rows.
    pub height: usize,
}

/// Steps one interior row of the classic two-buffer solver.
///
/// `up`, `mid` and `down` are rows `y-1`, `y` and `y+1` of the current field; `out` is row `y` of
/// the previous field, which is overwritten with the next field. For every interior column
/// `1 <= x <= width-2`:
///
/// ```text
/// s = up[x] + down[x] + mid[x-1] + mid[x+1]        (i32)
/// v = (s >> 1) - out[x]
/// v -= v >> damping_shift
/// out[x] = saturate_i16(v)
/// ```
///
/// Columns 0 and `width-1` are border cells and are not written. All four slices must have the
/// same length; rows shorter than 3 have no interior and are left alone.
#[inline]
pub fn classic_step_row(
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    out: &mut [i16],
    damping_shift: u32,
) {
    let width = out.len();
    if width < 3 {
        return;
    }
    classic_step_span(up, mid, down, out, damping_shift, 1..width - 1);
}

/// [`classic_step_row`] for the columns in `columns` only (all interior); SIMD backends finish
/// their rows with it.
#[inline]
pub(crate) fn classic_step_span(
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    out: &mut [i16],
    damping_shift: u32,
    columns: Range<usize>,
) {
    let Range { start, end } = columns;
    if start >= end {
        return;
    }
    // The five runs of cells sliced once, so the loop has no bounds checks: with indices the
    // compiler kept three per cell in the SIMD backends' tails.
    let cells = (up[start..end].iter().zip(&down[start..end]))
        .zip(mid[start - 1..end - 1].iter().zip(&mid[start + 1..end + 1]))
        .zip(&mut out[start..end]);
    for (((&above, &below), (&left, &right)), out) in cells {
        let sum = i32::from(above) + i32::from(below) + i32::from(left) + i32::from(right);
        let mut v = (sum >> 1) - i32::from(*out);
        v -= v >> damping_shift;
        *out = v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    }
}

/// Renders one interior row (`1 <= y <= height-2`) with the classic refraction.
///
/// For interior columns: `dx = mid[x-1] - mid[x+1]`, `dy = up[x] - down[x]`,
/// `sx = clamp(x + dx, 0, width-1)`, `sy = clamp(y + dy, 0, height-1)`,
/// `dst[x] = src[sy * width + sx]` (all four bytes). Border columns copy the source pixel.
///
/// `heights` are rows `y-1`, `y` and `y+1` (`up`, `mid`, `down`) of the field; `dst_row` is row
/// `y` of the output.
#[inline]
pub fn classic_render_row(source: SourceRow<'_>, heights: [&[i16]; 3], dst_row: &mut [[u8; 4]]) {
    let width = dst_row.len();
    classic_render_columns(source, heights, dst_row, 0..width);
}

/// [`classic_render_row`] for the columns in `columns` only (border columns included when the
/// range reaches them); the other pixels of `dst_row` are left alone.
#[inline]
pub fn classic_render_columns(
    source: SourceRow<'_>,
    heights: [&[i16]; 3],
    dst_row: &mut [[u8; 4]],
    columns: Range<usize>,
) {
    let (width, y) = (dst_row.len(), source.y);
    let src_row = &source.src[y * width..(y + 1) * width];
    if width < 3 {
        dst_row[columns.clone()].copy_from_slice(&src_row[columns]);
        return;
    }
    if columns.contains(&0) {
        dst_row[0] = src_row[0];
    }
    if columns.contains(&(width - 1)) {
        dst_row[width - 1] = src_row[width - 1];
    }
    let interior = columns.start.max(1)..columns.end.min(width - 1);
    classic_render_span(source, heights, dst_row, interior);
}

/// [`classic_render_row`] for the interior columns in `columns` only; SIMD backends finish their
/// rows with it.
#[inline]
pub(crate) fn classic_render_span(
    SourceRow { src, y, height }: SourceRow<'_>,
    heights: [&[i16]; 3],
    dst_row: &mut [[u8; 4]],
    columns: Range<usize>,
) {
    let width = dst_row.len();
    let [up, mid, down] = heights.map(|row| &row[..width]);
    let (max_x, max_y) = (width as i32 - 1, height as i32 - 1);
    for x in columns {
        let dx = i32::from(mid[x - 1]) - i32::from(mid[x + 1]);
        let dy = i32::from(up[x]) - i32::from(down[x]);
        let sx = (x as i32 + dx).clamp(0, max_x) as usize;
        let sy = (y as i32 + dy).clamp(0, max_y) as usize;
        dst_row[x] = src[sy * width + sx];
    }
}

/// The surface gradient of one interior grid row, as the classic renderer defines it:
/// `gx[x] = mid[x-1] - mid[x+1]`, `gy[x] = up[x] - down[x]`, and 0 in the border columns.
///
/// Generic over the height type so integer (`i16`) and float (`f32`) solvers share it.
#[inline]
pub fn gradient_row<T: Copy + Into<f32>>(
    up: &[T],
    mid: &[T],
    down: &[T],
    gx: &mut [f32],
    gy: &mut [f32],
) {
    let width = gx.len();
    let gy = &mut gy[..width];
    if width < 3 {
        gx.fill(0.0);
        gy.fill(0.0);
        return;
    }
    let (up, mid, down) = (&up[..width], &mid[..width], &down[..width]);
    gx[0] = 0.0;
    gy[0] = 0.0;
    gx[width - 1] = 0.0;
    gy[width - 1] = 0.0;
    for x in 1..width - 1 {
        gx[x] = mid[x - 1].into() - mid[x + 1].into();
        gy[x] = up[x].into() - down[x].into();
    }
}

/// Upsamples one row of a coarse grid quantity to image resolution, bilinearly.
///
/// `row_a` and `row_b` are two neighbouring grid rows and `fy` the vertical weight of `row_b`.
/// Image column `x` samples the grid at `u = (x + 0.5) / scale - 0.5` (pixel centres), clamped
/// to the grid, so a grid of `ceil(width / scale)` cells covers the image exactly.
#[inline]
pub fn gradient_row_scaled(row_a: &[f32], row_b: &[f32], fy: f32, scale: u32, out: &mut [f32]) {
    let grid_width = row_a.len().min(row_b.len());
    if grid_width == 0 {
        out.fill(0.0);
        return;
    }
    let last = (grid_width - 1) as f32;
    let inv_scale = 1.0 / scale as f32;
    for (x, value) in out.iter_mut().enumerate() {
        let u = ((x as f32 + 0.5) * inv_scale - 0.5).clamp(0.0, last);
        let i0 = u as usize;
        let i1 = (i0 + 1).min(grid_width - 1);
        let fx = u - i0 as f32;
        let top = row_a[i0] + (row_a[i1] - row_a[i0]) * fx;
        let bottom = row_b[i0] + (row_b[i1] - row_b[i0]) * fx;
        *value = top + (bottom - top) * fy;
    }
}

/// Where each column of an image samples the rows of a grid `scale` times coarser: the grid
/// cell at or left of the column's centre and the weight of the cell after it, exactly as
/// [`gradient_row_scaled`] computes them (`u = clamp((x + 0.5) / scale - 0.5, 0, last)`,
/// `left = trunc(u)`, `weight = u - left`).
///
/// They depend on the widths and the scale only, so a renderer computes them once and
/// [`upsample_row`] looks them up for every row instead of recomputing them per pixel. Going
/// right along a row `left` grows by at most one cell per column, which lets the SIMD backends
/// fetch the cells of several columns from one vector of consecutive cells.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GridColumns {
    left: Vec<u32>,
    weight: Vec<f32>,
    grid_width: usize,
    scale: u32,
}

impl GridColumns {
    /// The columns of an image `image_width` pixels wide over a grid `grid_width` cells wide at
    /// `scale` pixels per cell (`scale >= 1`).
    pub fn new(image_width: usize, grid_width: usize, scale: u32) -> Self {
        let mut columns = Self::default();
        columns.set(image_width, grid_width, scale);
        columns
    }

    /// Recomputes the columns for other widths or another scale (nothing when they are the
    /// same; no allocation unless the image is wider than any before).
    pub fn set(&mut self, image_width: usize, grid_width: usize, scale: u32) {
        let scale = scale.max(1);
        if (self.left.len(), self.grid_width, self.scale) == (image_width, grid_width, scale) {
            return;
        }
        self.grid_width = grid_width;
        self.scale = scale;
        self.left.clear();
        self.weight.clear();
        let last = grid_width.saturating_sub(1) as f32;
        let inv_scale = 1.0 / scale as f32;
        for x in 0..image_width {
            let u = ((x as f32 + 0.5) * inv_scale - 0.5).clamp(0.0, last);
            let left = u as usize;
            self.left.push(left as u32);
            self.weight.push(u - left as f32);
        }
    }

    /// Image columns.
    pub fn image_width(&self) -> usize {
        self.left.len()
    }

    /// Grid cells per row.
    pub fn grid_width(&self) -> usize {
        self.grid_width
    }

    /// Image pixels per grid cell.
    pub fn scale(&self) -> u32 {
        self.scale
    }

    /// The cell at or left of each column's centre (clamped to the grid).
    pub fn left(&self) -> &[u32] {
        &self.left
    }

    /// The weight of the cell after `left` for each column, in `0..1`.
    pub fn weight(&self) -> &[f32] {
        &self.weight
    }
}

/// Upsamples one grid row to image resolution along x: for every column,
///
/// ```text
/// out[x] = row[l] + (row[r] - row[l]) * w
/// ```
///
/// with `l`, `w` from `columns` and `r = min(l + 1, grid_width - 1)`. Two upsampled rows blended
/// with [`super::f32_rows::lerp_rows`] give [`gradient_row_scaled`] of the two grid rows, bit for
/// bit, and a grid row shared by several image rows is upsampled once. `row` must hold
/// `columns.grid_width()` cells and `out` `columns.image_width()` pixels (an empty grid gives 0).
#[inline]
pub fn upsample_row(row: &[f32], columns: &GridColumns, out: &mut [f32]) {
    upsample_span(row, columns, out, 0..out.len());
}

/// [`upsample_row`] for the columns in `span` only; SIMD backends finish their rows with it.
#[inline]
pub(crate) fn upsample_span(
    row: &[f32],
    columns: &GridColumns,
    out: &mut [f32],
    span: Range<usize>,
) {
    let grid_width = columns.grid_width;
    if grid_width == 0 {
        out[span].fill(0.0);
        return;
    }
    let row = &row[..grid_width];
    let width = out.len();
    let (left, weight) = (&columns.left[..width], &columns.weight[..width]);
    for x in span {
        let l = left[x] as usize;
        let r = (l + 1).min(grid_width - 1);
        out[x] = row[l] + (row[r] - row[l]) * weight[x];
    }
}

/// Classic nearest-pixel refraction driven by (possibly upsampled) gradient rows.
///
/// The displacement is the gradient rounded to the nearest pixel. With a simulation scale of 1 and
/// gradients from [`gradient_row`] this is exactly [`classic_render_row`].
/// `gradients` are the rows `[gx, gy]`.
#[inline]
pub fn resampled_classic_row(
    source: SourceRow<'_>,
    gradients: [&[f32]; 2],
    dst_row: &mut [[u8; 4]],
) {
    resampled_classic_span(source, gradients, dst_row, 0..dst_row.len());
}

/// [`resampled_classic_row`] for the pixels in `columns` only; SIMD backends finish their rows
/// with it.
#[inline]
pub(crate) fn resampled_classic_span(
    source: SourceRow<'_>,
    gradients: [&[f32]; 2],
    dst_row: &mut [[u8; 4]],
    columns: Range<usize>,
) {
    let [gx, gy] = gradients.map(|row| &row[..dst_row.len()]);
    resampled_classic_pixels(source, |x| (gx[x], gy[x]), dst_row, columns);
}

/// A row of values given as two rows and a weight: `top[x] + (bottom[x] - top[x]) * weight`,
/// exactly what [`super::f32_rows::lerp_rows`] writes, for the kernels that blend as they render
/// (the gradient between two upsampled grid rows at a simulation scale above 1).
#[derive(Debug, Clone, Copy)]
pub struct BlendedRow<'a> {
    /// The row the weight moves away from.
    pub top: &'a [f32],
    /// The row the weight moves towards.
    pub bottom: &'a [f32],
    /// The weight of `bottom`.
    pub weight: f32,
}

impl<'a> BlendedRow<'a> {
    /// The blend of the first `width` values (panics if a row has fewer).
    #[inline]
    pub fn first(self, width: usize) -> Self {
        Self {
            top: &self.top[..width],
            bottom: &self.bottom[..width],
            weight: self.weight,
        }
    }

    /// The blended value at `x`.
    #[inline]
    pub fn at(&self, x: usize) -> f32 {
        self.top[x] + (self.bottom[x] - self.top[x]) * self.weight
    }
}

/// [`resampled_classic_row`] of the gradient rows `gx` and `gy` given as blends: the same pixels
/// as blending the rows with [`super::f32_rows::lerp_rows`] first, without writing the blends.
#[inline]
pub fn resampled_classic_blended_row(
    source: SourceRow<'_>,
    gradients: [BlendedRow<'_>; 2],
    dst_row: &mut [[u8; 4]],
) {
    resampled_classic_blended_span(source, gradients, dst_row, 0..dst_row.len());
}

/// [`resampled_classic_blended_row`] for the pixels in `columns` only; SIMD backends finish
/// their rows with it.
#[inline]
pub(crate) fn resampled_classic_blended_span(
    source: SourceRow<'_>,
    gradients: [BlendedRow<'_>; 2],
    dst_row: &mut [[u8; 4]],
    columns: Range<usize>,
) {
    let [gx, gy] = gradients.map(|row| row.first(dst_row.len()));
    resampled_classic_pixels(source, |x| (gx.at(x), gy.at(x)), dst_row, columns);
}

/// The classic refraction of the pixels in `columns` with the gradient `gradient(x)`.
#[inline(always)]
fn resampled_classic_pixels(
    SourceRow { src, y, height }: SourceRow<'_>,
    gradient: impl Fn(usize) -> (f32, f32),
    dst_row: &mut [[u8; 4]],
    columns: Range<usize>,
) {
    let width = dst_row.len();
    let (max_x, max_y) = (width as f32 - 1.0, height as f32 - 1.0);
    let mut start = columns.start;
    while start < columns.end {
        let end = (start + COORDINATE_CHUNK).min(columns.end);
        let mut source_x = [0u32; COORDINATE_CHUNK];
        let mut source_y = [0u32; COORDINATE_CHUNK];
        for ((sx, sy), x) in source_x.iter_mut().zip(&mut source_y).zip(start..end) {
            let (gx, gy) = gradient(x);
            // `clamp_position` sends NaN to 0, as `(NaN).clamp(..) as usize` does; clamped, the
            // coordinates fit in u32, which converts without the checks of a conversion to usize.
            *sx = clamp_position(x as f32 + round_half_away(gx), max_x) as u32;
            *sy = clamp_position(y as f32 + round_half_away(gy), max_y) as u32;
        }
        for ((pixel, &sx), &sy) in dst_row[start..end].iter_mut().zip(&source_x).zip(&source_y) {
            *pixel = src[sy as usize * width + sx as usize];
        }
        start = end;
    }
}

/// Pixels whose source coordinates [`resampled_classic_pixels`] computes before it fetches
/// them. Apart, the coordinates' arithmetic runs ahead of the fetches (and the compiler
/// vectorises part of it) instead of every pixel's chain of rounding, clamping and converting
/// waiting on the fetch before it: on the bench's turbulent 1920x1080 field at simulation
/// scale 2, one thread (`ripples bench --backend scalar --sim-scale 2 --threads 1`), the render
/// went from 14.2 and 13.5 to 9.3 and 9.5 ns per pixel (two interleaved runs on a busy machine).
const COORDINATE_CHUNK: usize = 64;

/// `value.round()` (to the nearest integer, halves away from zero) for a value added to a
/// non-negative coordinate: equal to `f32::round` except that it may return +0 for -0 (which
/// changes no sum with a coordinate).
///
/// `f32::round` has no instruction on x86-64 without SSE4.1, nor in WebAssembly, where it is a
/// call into the maths library; here it is a truncating conversion and a comparison. Values of
/// 2^23 and more are whole already (or infinite, or NaN) and pass through.
#[inline]
pub(crate) fn round_half_away(value: f32) -> f32 {
    const WHOLE_FROM: f32 = 8_388_608.0;
    // Exact below 2^23: the value fits in i32, and its truncation in f32. Written as selects
    // rather than early returns so that the compiler need not branch on the fraction, which
    // water makes random.
    let truncated = if value.abs() < WHOLE_FROM {
        value as i32 as f32
    } else {
        value
    };
    let carry = if (value - truncated).abs() >= 0.5 {
        1.0f32.copysign(value)
    } else {
        0.0
    };
    truncated + carry
}

/// Renders one row with the Frogger HD seed's look: the pixel shows the source at
/// `(x + refraction*gx, y + refraction*gy)`, truncated towards zero as the seed's `int` does and
/// clamped, and its alpha drops with the squared velocity:
/// `alpha = src.alpha - min(255, 255 * transparency * v^2)` (floored at 0). Without velocities
/// the alpha is the source's. Flat, still water reproduces the source exactly.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn spring_render_row(
    y: usize,
    height: usize,
    gx: &[f32],
    gy: &[f32],
    velocity: Option<&[f32]>,
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
    refraction: f32,
    transparency: f32,
) {
    let width = dst_row.len();
    let (gx, gy) = (&gx[..width], &gy[..width]);
    let (max_x, max_y) = (width as f32 - 1.0, height as f32 - 1.0);
    for x in 0..width {
        let sx = (x as f32 + refraction * gx[x]).trunc().clamp(0.0, max_x) as usize;
        let sy = (y as f32 + refraction * gy[x]).trunc().clamp(0.0, max_y) as usize;
        let mut pixel = src[sy * width + sx];
        if let Some(velocity) = velocity {
            let v = velocity[x];
            let fade = (255.0 * transparency * v * v).min(255.0) as u8;
            pixel[3] = pixel[3].saturating_sub(fade);
        }
        dst_row[x] = pixel;
    }
}

/// Renders one row with the lit look: refraction with bilinear sampling, then a diffuse and a
/// specular term from the surface normal, the way jquery.ripples lights its water.
///
/// The arithmetic is chosen so every SIMD backend can do exactly the same thing (all backends
/// match this function bit for bit): float math only for the sample position and the facing
/// (each operation exactly rounded, in this order), integers for everything else. Per pixel,
/// with gradient `g = (gx[x], gy[x])`:
///
/// ```text
/// sx, sy  = clamp(x + refraction*g.x, 0, width-1), clamp(y + refraction*g.y, 0, height-1)
///           (a NaN becomes 0)
/// fixed   = trunc(s * 128): x0 = fixed >> 7 and weight wx = fixed & 127 (1/128 pixel steps)
/// lerp    = a + (((b - a) * w) >> 7)        (per channel, arithmetic shift)
/// sample  = lerp(lerp(p00, p10, wx), lerp(p01, p11, wx), wy)
/// p, q    = slope*g.x, slope*g.y
/// facing  = (p*light.x + q*light.y) * (1 / sqrt((1 + p*p) + q*q))       (in -1..1)
/// entry   = table[round(clamp((facing + 1) * 2048, 0, 4096))]          (see LitLook::set_light)
/// rgb     = min(255, ((sample << 8) * gain) >> 16 + highlight),  alpha = sample.alpha
/// ```
///
/// Byte 3 of each pixel is alpha (RGBA bytes, or a little-endian `0xAARRGGBB` word); the other
/// three are treated alike. Flat water (`g = 0`) reproduces the source exactly.
#[inline]
pub fn lit_render_row(
    source: SourceRow<'_>,
    gradients: [&[f32]; 2],
    dst_row: &mut [[u8; 4]],
    look: &LitLook,
) {
    lit_render_span(source, gradients, dst_row, look, 0..dst_row.len());
}

/// [`lit_render_row`] for the columns in `columns` only; SIMD backends finish their rows with it.
#[inline]
pub(crate) fn lit_render_span(
    SourceRow { src, y, height }: SourceRow<'_>,
    gradients: [&[f32]; 2],
    dst_row: &mut [[u8; 4]],
    look: &LitLook,
    columns: Range<usize>,
) {
    let width = dst_row.len();
    let [gx, gy] = gradients.map(|row| &row[..width]);
    let (max_x, max_y) = (width as f32 - 1.0, height as f32 - 1.0);
    let [light_x, light_y] = look.light;
    for x in columns {
        let (grad_x, grad_y) = (gx[x], gy[x]);
        let sx = clamp_position(x as f32 + look.refraction * grad_x, max_x);
        let sy = clamp_position(y as f32 + look.refraction * grad_y, max_y);
        let (fixed_x, fixed_y) = ((sx * 128.0) as i32, (sy * 128.0) as i32);
        let (x0, y0) = ((fixed_x >> 7) as usize, (fixed_y >> 7) as usize);
        let (wx, wy) = (fixed_x & 127, fixed_y & 127);
        let x1 = (x0 + 1).min(width - 1);
        let y1 = (y0 + 1).min(height - 1);
        let (p00, p10) = (src[y0 * width + x0], src[y0 * width + x1]);
        let (p01, p11) = (src[y1 * width + x0], src[y1 * width + x1]);

        let (p, q) = (look.slope * grad_x, look.slope * grad_y);
        let inv_len = 1.0 / ((1.0 + p * p) + q * q).sqrt();
        let facing = (p * light_x + q * light_y) * inv_len;
        let entry = look.table[lit_table_index(facing)];
        let (gain, highlight) = (entry & LIT_GAIN_MASK, entry >> LIT_GAIN_BITS);

        let mut out = [0u8; 4];
        for channel in 0..4 {
            let top = lerp7(p00[channel], p10[channel], wx);
            let bottom = lerp7(p01[channel], p11[channel], wx);
            let sample = top + (((bottom - top) * wy) >> 7);
            out[channel] = if channel == 3 {
                sample as u8
            } else {
                (((((sample as u32) << 8) * gain) >> 16) + highlight).min(255) as u8
            };
        }
        dst_row[x] = out;
    }
}

/// `clamp(value, 0, max)` with NaN sent to 0, as the SIMD `max`/`min` instructions do it.
#[inline]
pub(crate) fn clamp_position(value: f32, max: f32) -> f32 {
    let at_least_zero = if value > 0.0 { value } else { 0.0 };
    if at_least_zero < max {
        at_least_zero
    } else {
        max
    }
}

/// The lit-look table index for a facing value (NaN goes to 0).
#[inline]
pub(crate) fn lit_table_index(facing: f32) -> usize {
    let scaled = (facing + 1.0) * LIT_TABLE_HALF as f32 + 0.5;
    clamp_position(scaled, LIT_TABLE_SPAN as f32) as usize
}

#[inline]
fn lerp7(a: u8, b: u8, weight: i32) -> i32 {
    let a = i32::from(a);
    a + (((i32::from(b) - a) * weight) >> 7)
}

/// Table entries per unit of facing.
pub const LIT_TABLE_HALF: usize = 2048;
/// Largest table index (facing = 1).
pub const LIT_TABLE_SPAN: usize = 2 * LIT_TABLE_HALF;
/// Bits of a table entry that hold the gain (8.8 fixed point); the highlight is above them.
pub const LIT_GAIN_BITS: u32 = 11;
/// Mask of the gain in a table entry.
pub const LIT_GAIN_MASK: u32 = (1 << LIT_GAIN_BITS) - 1;

/// The lit look's parameters, ready for [`lit_render_row`]: the light depends on the
/// surface only through the facing value, so gain and highlight come from one precomputed
/// table instead of a `powf` per pixel.
#[derive(Debug, Clone, PartialEq)]
pub struct LitLook {
    /// Pixels of displacement per unit of gradient.
    pub refraction: f32,
    /// Slope of the surface per unit of gradient (turns height differences into a normal).
    pub slope: f32,
    /// Unit vector in the image plane pointing towards the light.
    pub light: [f32; 2],
    /// `LIT_TABLE_SPAN + 1` entries for facing `-1..=1`: `gain | highlight << LIT_GAIN_BITS`,
    /// with `gain = round(256 * max(0, 1 + shading * facing))` (at most 1280) and
    /// `highlight = round(255 * specular * max(facing, 0)^shininess)` (at most 4080).
    pub table: Vec<u32>,
}

impl LitLook {
    /// Computes the table in place (no allocation once it has its full size). `shading` is
    /// clamped to `0..=4`, `specular` to `0..=16` and `shininess` to at least `0.01` (the
    /// ranges [`crate::Look::validate`] accepts).
    pub fn set_light(&mut self, shading: f32, specular: f32, shininess: f32) {
        let shading = f64::from(shading.clamp(0.0, 4.0));
        let specular = f64::from(specular.clamp(0.0, 16.0));
        let shininess = f64::from(shininess.max(0.01));
        let entries = (0..=LIT_TABLE_SPAN).map(|index| {
            let facing = index as f64 / LIT_TABLE_HALF as f64 - 1.0;
            let gain = (256.0 * (1.0 + shading * facing).max(0.0)).round() as u32;
            let highlight = if facing > 0.0 {
                (255.0 * specular * facing.powf(shininess)).round() as u32
            } else {
                0
            };
            gain.min(LIT_GAIN_MASK) | highlight << LIT_GAIN_BITS
        });
        self.table.clear();
        self.table.extend(entries);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_halves_away_from_zero_is_f32_round_wherever_a_sum_can_tell() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            0.499_999_97,
            -0.499_999_97,
            1.5,
            -2.5,
            4_194_304.5,
            -4_194_304.5,
            8_388_607.5,
            -8_388_607.5,
            8_388_608.0,
            16_777_217.0,
            1e30,
            -1e30,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        values.extend((-4000..4000).map(|i| i as f32 * 0.0625 + 0.001));
        for value in values {
            let expected = value.round();
            let got = round_half_away(value);
            // Equal, or -0 where f32::round gives -0 and this gives +0: added to any whole
            // coordinate from 0 up, both give the same sum.
            assert!(
                got.to_bits() == expected.to_bits() || (got == 0.0 && expected == 0.0),
                "{value}: {got} against {expected}"
            );
            for coordinate in [0.0f32, 1.0, 100.0] {
                assert_eq!(
                    (coordinate + got).to_bits(),
                    (coordinate + expected).to_bits(),
                    "{coordinate} + round({value})"
                );
            }
        }
        assert!(round_half_away(f32::NAN).is_nan());
    }

    #[test]
    fn grid_columns_are_those_of_the_bilinear_upsampling() {
        // 10 pixels over 5 cells at scale 2: pixel centres at cells -0.25, 0.25, 0.75, ...
        let columns = GridColumns::new(10, 5, 2);
        assert_eq!(columns.left(), [0, 0, 0, 1, 1, 2, 2, 3, 3, 4]);
        assert_eq!(
            columns.weight(),
            [0.0, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.0]
        );
        let mut out = [0.0; 10];
        upsample_row(&[0.0, 4.0, 8.0, 12.0, 16.0], &columns, &mut out);
        assert_eq!(out, [0.0, 1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 13.0, 15.0, 16.0]);
        // Left grows by at most one cell per column, the SIMD kernels' premise.
        for scale in 1..=16 {
            for width in [1, 7, 100, 1921] {
                let columns = GridColumns::new(width, width.div_ceil(scale as usize), scale);
                assert!(columns.left().windows(2).all(|pair| pair[1] - pair[0] <= 1));
            }
        }
    }
}
