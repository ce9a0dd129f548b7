//! Scalar reference kernels: the exact semantics, in plain safe Rust.
//!
//! These are deliberately written the way the algorithm is specified (one cell, one pixel at a
//! time) so that they can be read against the specification. Slices are re-borrowed to the row
//! width up front, which lets the compiler drop most bounds checks without any `unsafe`.

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
    let (up, mid, down) = (&up[..width], &mid[..width], &down[..width]);
    for x in 1..width - 1 {
        let sum =
            i32::from(up[x]) + i32::from(down[x]) + i32::from(mid[x - 1]) + i32::from(mid[x + 1]);
        let mut v = (sum >> 1) - i32::from(out[x]);
        v -= v >> damping_shift;
        out[x] = v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    }
}

/// Renders one interior row (`1 <= y <= height-2`) with the classic refraction.
///
/// For interior columns: `dx = mid[x-1] - mid[x+1]`, `dy = up[x] - down[x]`,
/// `sx = clamp(x + dx, 0, width-1)`, `sy = clamp(y + dy, 0, height-1)`,
/// `dst[x] = src[sy * width + sx]` (all four bytes). Border columns copy the source pixel.
///
/// `src` is the whole `width * height` image; `dst_row` is row `y` of the output.
#[inline]
pub fn classic_render_row(
    y: usize,
    height: usize,
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
) {
    let width = dst_row.len();
    let src_row = &src[y * width..(y + 1) * width];
    if width < 3 {
        dst_row.copy_from_slice(src_row);
        return;
    }
    let (up, mid, down) = (&up[..width], &mid[..width], &down[..width]);
    let (max_x, max_y) = (width as i32 - 1, height as i32 - 1);
    dst_row[0] = src_row[0];
    dst_row[width - 1] = src_row[width - 1];
    for x in 1..width - 1 {
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

/// Classic nearest-pixel refraction driven by (possibly upsampled) gradient rows.
///
/// The displacement is the gradient rounded to the nearest pixel. With a simulation scale of 1 and
/// gradients from [`gradient_row`] this is exactly [`classic_render_row`].
#[inline]
pub fn resampled_classic_row(
    y: usize,
    height: usize,
    gx: &[f32],
    gy: &[f32],
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
) {
    let width = dst_row.len();
    let (gx, gy) = (&gx[..width], &gy[..width]);
    let (max_x, max_y) = (width as f32 - 1.0, height as f32 - 1.0);
    for x in 0..width {
        let sx = (x as f32 + gx[x].round()).clamp(0.0, max_x) as usize;
        let sy = (y as f32 + gy[x].round()).clamp(0.0, max_y) as usize;
        dst_row[x] = src[sy * width + sx];
    }
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

/// Parameters of the lit (default) look, already converted to what the kernel needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LitParams {
    /// Pixels of displacement per unit of gradient.
    pub refraction: f32,
    /// Slope of the surface per unit of gradient (turns height differences into a normal).
    pub slope: f32,
    /// Unit vector in the image plane pointing towards the light.
    pub light: [f32; 2],
    /// Strength of the diffuse term: colour is multiplied by `1 + shading * facing`.
    pub shading: f32,
    /// Strength of the specular highlight, in units of full white.
    pub specular: f32,
    /// Exponent of the specular highlight (> 0).
    pub shininess: f32,
}

/// Renders one row with the default look: refraction with bilinear sampling, then a diffuse and a
/// specular term from the surface normal, the way jquery.ripples lights its water.
///
/// Per pixel, with gradient `g = (gx[x], gy[x])`:
///
/// ```text
/// sample  = bilinear(src, clamp(x + refraction*g.x), clamp(y + refraction*g.y))
/// tilt    = slope*g / sqrt(1 + |slope*g|^2)          (the normal's image-plane part)
/// facing  = dot(tilt, light)                         (in -1..1)
/// rgb     = sample.rgb * (1 + shading*facing) + 255 * specular * max(facing, 0)^shininess
/// alpha   = sample.alpha
/// ```
///
/// Byte 3 of each pixel is alpha (RGBA bytes, or a little-endian `0xAARRGGBB` word); the other
/// three are treated alike. Flat water (`g = 0`) reproduces the source exactly.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn lit_render_row(
    y: usize,
    height: usize,
    gx: &[f32],
    gy: &[f32],
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
    params: &LitParams,
) {
    let width = dst_row.len();
    let (gx, gy) = (&gx[..width], &gy[..width]);
    let (max_x, max_y) = (width as f32 - 1.0, height as f32 - 1.0);
    let [light_x, light_y] = params.light;
    for x in 0..width {
        let (grad_x, grad_y) = (gx[x], gy[x]);
        let sx = (x as f32 + params.refraction * grad_x).clamp(0.0, max_x);
        let sy = (y as f32 + params.refraction * grad_y).clamp(0.0, max_y);
        let sample = bilinear(src, width, sx, sy);

        let (px, py) = (params.slope * grad_x, params.slope * grad_y);
        let inv_len = 1.0 / (1.0 + px * px + py * py).sqrt();
        let facing = (px * light_x + py * light_y) * inv_len;
        let gain = 1.0 + params.shading * facing;
        let highlight = if facing > 0.0 {
            255.0 * params.specular * facing.powf(params.shininess)
        } else {
            0.0
        };
        let mut out = [0u8; 4];
        for channel in 0..3 {
            out[channel] = to_byte(sample[channel] * gain + highlight);
        }
        out[3] = to_byte(sample[3]);
        dst_row[x] = out;
    }
}

/// Bilinear sample of `src` at `(sx, sy)`, which must lie inside the image.
#[inline]
fn bilinear(src: &[[u8; 4]], width: usize, sx: f32, sy: f32) -> [f32; 4] {
    let height = src.len() / width;
    let (x0, y0) = (sx as usize, sy as usize);
    let (fx, fy) = (sx - x0 as f32, sy - y0 as f32);
    let x1 = (x0 + 1).min(width - 1);
    let y1 = (y0 + 1).min(height - 1);
    let (p00, p10) = (src[y0 * width + x0], src[y0 * width + x1]);
    let (p01, p11) = (src[y1 * width + x0], src[y1 * width + x1]);
    let mut out = [0.0f32; 4];
    for c in 0..4 {
        let top = f32::from(p00[c]) + (f32::from(p10[c]) - f32::from(p00[c])) * fx;
        let bottom = f32::from(p01[c]) + (f32::from(p11[c]) - f32::from(p01[c])) * fx;
        out[c] = top + (bottom - top) * fy;
    }
    out
}

#[inline]
fn to_byte(value: f32) -> u8 {
    (value.clamp(0.0, 255.0) + 0.5) as u8
}
