//! The natural look's row kernels: the scalar reference of water seen from above.
//!
//! The picture is the floor of a pool `depth` pixels under the water, seen straight down through
//! the surface and lit by a sun and a sky. Per pixel, from the surface's slope and curvature:
//!
//! - **refraction**: the view ray is bent by Snell's law (index [`WATER_INDEX`]) and meets the
//!   floor `depth` pixels down; the floor is sampled bilinearly where it lands;
//! - **caustics**: sunlight refracted by the curved surface is focused or spread; the floor's
//!   brightness is the ratio of areas `1 / |det J|` of the light's landing map (clamped to
//!   [`CAUSTIC_MAX`]), mixed in by the `caustics` strength;
//! - **absorption**: the light is tinted per channel by Beer-Lambert over its path in the water;
//! - **reflection**: a sky gradient, in the direction of the reflected view ray, and the sun's
//!   glint, weighted by Schlick's Fresnel term (2% head on, more on steep slopes).
//!
//! The slopes and curvatures come from a *smoothed* height field ([`smooth_row`], a 5x5 binomial
//! filter, then [`surface_row`]'s central differences): the binomial filter cancels a cell-sized
//! checkerboard exactly, so noise at the grid's own frequency never shows as speckle, and at a
//! simulation scale above 1 the renderer upsamples these smooth rows bilinearly.
//!
//! This is the reference only: every backend calls it for now (no SIMD version yet). It is plain
//! `f32` arithmetic, each operation rounded in the order written, with no fused multiply-add and
//! no transcendental function per pixel (the glint's power is eight squarings; everything that
//! needs `powf`, `sin` or `cos` is computed once per frame in [`NaturalLook::new`]), so a SIMD
//! backend can match it bit for bit by doing the same operations in the same order.

/// The refractive index of water.
pub const WATER_INDEX: f32 = 1.333;

/// Reflectance of water head on (Schlick's `F0` for an index of 1.333).
pub const FRESNEL_HEAD_ON: f32 = 0.02;

/// Largest brightening the caustics give a pixel (`1 / |det J|` is clamped to it: where the
/// light's landing map folds, the determinant passes through 0).
pub const CAUSTIC_MAX: f32 = 6.0;

/// The sun's glint is `max(0, reflected · sun)^(2^GLINT_SQUARINGS)`: exponent 256, a small sun.
pub const GLINT_SQUARINGS: u32 = 8;

/// The glint's peak brightness before Fresnel, in units of a full channel (255): the sun is far
/// brighter than the sky, so even its 2% reflection head on is near white.
pub const GLINT_STRENGTH: f32 = 50.0;

/// The built-in sky: its colour at the horizon (RGB, 0..=255).
pub const SKY_HORIZON: [f32; 3] = [205.0, 220.0, 235.0];

/// The built-in sky: its colour at the zenith (RGB, 0..=255).
pub const SKY_ZENITH: [f32; 3] = [70.0, 120.0, 200.0];

/// The sun's colour (RGB, 0..=1), a little warm.
pub const SUN_COLOUR: [f32; 3] = [1.0, 0.97, 0.9];

/// Smooths one grid row with the 5x5 binomial filter (`[1 4 6 4 1] x [1 4 6 4 1] / 256`).
///
/// `rows` are the grid rows two above to two below (the caller mirrors them at the grid's
/// edges: the row above row 0 is row 1); columns are mirrored the same way (column -1 is column
/// 1). A checkerboard of `+-a` becomes exactly 0, away from edges and at them, and other noise
/// near the cell size is damped far more than waves a few cells long.
#[inline]
pub fn smooth_row<T: Copy + Into<f32>>(rows: [&[T]; 5], out: &mut [f32]) {
    let width = out.len();
    let [far_up, up, mid, down, far_down] = rows.map(|row| &row[..width]);
    let column = |x: usize| -> f32 {
        (far_up[x].into() + far_down[x].into())
            + 4.0 * (up[x].into() + down[x].into())
            + 6.0 * mid[x].into()
    };
    for (x, smoothed) in out.iter_mut().enumerate() {
        let [far_left, left, right, far_right] =
            [-2, -1, 1, 2].map(|step| mirrored(x, step, width));
        let outer = column(far_left) + column(far_right);
        let inner = column(left) + column(right);
        *smoothed = (outer + 4.0 * inner + 6.0 * column(x)) * (1.0 / 256.0);
    }
}

/// The columns left and right of `x` in a row `width` wide, mirrored at its ends (column -1 is
/// column 1), so a slope across an edge is 0, as at a reflecting wall.
#[inline]
fn mirrored_neighbours(x: usize, width: usize) -> (usize, usize) {
    (mirrored(x, -1, width), mirrored(x, 1, width))
}

/// Index `index + step` of a row or column `len` long, mirrored at its ends (-1 is 1, -2 is 2,
/// `len` is `len - 2`), and kept inside it when it is too short to mirror.
#[inline]
pub fn mirrored(index: usize, step: isize, len: usize) -> usize {
    let last = len as isize - 1;
    let wanted = index as isize + step;
    let mirrored = if wanted < 0 {
        -wanted
    } else if wanted > last {
        2 * last - wanted
    } else {
        wanted
    };
    mirrored.clamp(0, last.max(0)) as usize
}

/// Slopes and curvatures of a surface along one row, in height units per cell (per cell
/// squared for the curvatures): `z_x`, `z_y`, `z_xx`, `z_xy`, `z_yy`.
#[derive(Debug)]
pub struct Surface<'a> {
    /// `dz/dx`.
    pub slope_x: &'a [f32],
    /// `dz/dy` (image rows grow downwards).
    pub slope_y: &'a [f32],
    /// `d2z/dx2`.
    pub curvature_xx: &'a [f32],
    /// `d2z/dxdy`.
    pub curvature_xy: &'a [f32],
    /// `d2z/dy2`.
    pub curvature_yy: &'a [f32],
}

/// [`Surface`] rows to write.
#[derive(Debug)]
pub struct SurfaceMut<'a> {
    /// `dz/dx`.
    pub slope_x: &'a mut [f32],
    /// `dz/dy`.
    pub slope_y: &'a mut [f32],
    /// `d2z/dx2`.
    pub curvature_xx: &'a mut [f32],
    /// `d2z/dxdy`.
    pub curvature_xy: &'a mut [f32],
    /// `d2z/dy2`.
    pub curvature_yy: &'a mut [f32],
}

/// The slopes and curvatures of one row of a smoothed field (see [`smooth_row`]) by central
/// differences: `z_x = (s[x+1] - s[x-1]) / 2`, `z_xx = s[x+1] - 2 s[x] + s[x-1]`, the same
/// down the column for `z_y` and `z_yy`, and `z_xy` from the four diagonal neighbours / 4.
/// `up` and `down` are the smoothed rows around `mid` (mirrored at the grid's edges, as the
/// columns are here).
#[inline]
pub fn surface_row(up: &[f32], mid: &[f32], down: &[f32], out: SurfaceMut<'_>) {
    let width = out.slope_x.len();
    let (up, mid, down) = (&up[..width], &mid[..width], &down[..width]);
    let SurfaceMut {
        slope_x,
        slope_y,
        curvature_xx,
        curvature_xy,
        curvature_yy,
    } = out;
    let (slope_y, curvature_xx) = (&mut slope_y[..width], &mut curvature_xx[..width]);
    let (curvature_xy, curvature_yy) = (&mut curvature_xy[..width], &mut curvature_yy[..width]);
    for x in 0..width {
        let (left, right) = mirrored_neighbours(x, width);
        slope_x[x] = (mid[right] - mid[left]) * 0.5;
        slope_y[x] = (down[x] - up[x]) * 0.5;
        curvature_xx[x] = (mid[right] - mid[x]) - (mid[x] - mid[left]);
        curvature_yy[x] = (down[x] - mid[x]) - (mid[x] - up[x]);
        curvature_xy[x] = ((down[right] - down[left]) - (up[right] - up[left])) * 0.25;
    }
}

/// The natural look's parameters, ready for [`natural_render_row`]: everything that needs a
/// square root of a constant, a power or an angle, computed once per frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NaturalLook {
    /// Pixels of surface height per unit of slope as the kernel reads it (the field's height
    /// units and the simulation scale folded in).
    pub slope_scale: f32,
    /// The same for the curvatures (per pixel squared).
    pub curvature_scale: f32,
    /// Depth of the floor under the surface at rest, in pixels.
    pub depth: f32,
    /// `1 / WATER_INDEX`: the ratio of indices from air into water.
    pub eta: f32,
    /// `eta * eta`.
    pub eta_squared: f32,
    /// How strongly the caustics brighten and darken the floor (0 = not at all).
    pub caustics: f32,
    /// How far the sunlight's landing point moves per unit of slope, `[dx/dp, dx/dq, dy/dp,
    /// dy/dq]` at flat water (the sun's direction and `depth` folded in): the landing map's
    /// Jacobian is `I + caustic_matrix * Hessian`.
    pub caustic_matrix: [f32; 4],
    /// Unit vector towards the sun (x right, y down the image, z up out of the water).
    pub sun: [f32; 3],
    /// Light left after the path through the water, per colour byte (0..=1).
    pub transmittance: [f32; 3],
    /// The sky at the horizon, per colour byte (0..=255).
    pub sky_horizon: [f32; 3],
    /// The sky at the zenith, per colour byte.
    pub sky_zenith: [f32; 3],
    /// The sun's glint at its brightest, per colour byte, before Fresnel.
    pub glint: [f32; 3],
}

/// Where the natural look's colours go in a pixel: RGBA bytes, or `0xAARRGGBB` words read as
/// bytes on a little-endian machine (B, G, R, A).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PixelOrder {
    /// Bytes R, G, B, A.
    #[default]
    Rgba,
    /// Bytes B, G, R, A (`0xAARRGGBB` little-endian words).
    Bgra,
}

/// The natural look's parameters, as a user gives them (see `crate::Look`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NaturalParameters {
    /// Depth of the floor in pixels.
    pub depth: f32,
    /// Caustics strength.
    pub caustics: f32,
    /// Sun elevation in degrees (90 = overhead).
    pub sun_elevation: f32,
    /// Sun azimuth in degrees, counter-clockwise from the image's +x axis (90 = the top).
    pub sun_azimuth: f32,
    /// The colour (RGB bytes) white light takes after `clarity` pixels of water.
    pub water_colour: [u8; 3],
    /// Pixels of water after which white light has the water's colour.
    pub clarity: f32,
    /// Pixels of surface height per unit of the field's height.
    pub wave_height: f32,
}

impl NaturalLook {
    /// The kernel parameters for `parameters` over a field of `scale` pixels per cell, with
    /// pixels in `order`.
    pub fn new(parameters: &NaturalParameters, scale: u32, order: PixelOrder) -> Self {
        let scale = f64::from(scale.max(1));
        let eta = 1.0 / f64::from(WATER_INDEX);
        let depth = f64::from(parameters.depth);
        let elevation = f64::from(parameters.sun_elevation).to_radians();
        let azimuth = f64::from(parameters.sun_azimuth).to_radians();
        // Image rows grow downwards, so "towards the top" is -y.
        let sun = [
            elevation.cos() * azimuth.cos(),
            -elevation.cos() * azimuth.sin(),
            elevation.sin(),
        ];
        let landing = |p: f64, q: f64| sun_landing_offset(sun, eta, depth, p, q);
        let step = 1e-4;
        let (right, left) = (landing(step, 0.0), landing(-step, 0.0));
        let (down, up) = (landing(0.0, step), landing(0.0, -step));
        let derivative = |a: f64, b: f64| ((a - b) / (2.0 * step)) as f32;
        let caustic_matrix = [
            derivative(right[0], left[0]),
            derivative(down[0], up[0]),
            derivative(right[1], left[1]),
            derivative(down[1], up[1]),
        ];
        // Beer-Lambert over the sunlight's way down (refracted, at flat water) and the view
        // ray's way up: `clarity` pixels of water turn white light into `water_colour`.
        let cos_sun_in_water = (1.0 - eta * eta * (1.0 - sun[2] * sun[2])).sqrt();
        let path = depth + depth / cos_sun_in_water;
        let clarity = f64::from(parameters.clarity).max(f64::MIN_POSITIVE);
        let transmittance = parameters
            .water_colour
            .map(|byte| (f64::from(byte) / 255.0).powf(path / clarity) as f32);
        let glint = SUN_COLOUR.map(|channel| channel * GLINT_STRENGTH * 255.0);
        let ordered = |rgb: [f32; 3]| match order {
            PixelOrder::Rgba => rgb,
            PixelOrder::Bgra => [rgb[2], rgb[1], rgb[0]],
        };
        let wave_height = f64::from(parameters.wave_height);
        Self {
            slope_scale: (wave_height / scale) as f32,
            curvature_scale: (wave_height / (scale * scale)) as f32,
            depth: parameters.depth,
            eta: eta as f32,
            eta_squared: (eta * eta) as f32,
            caustics: parameters.caustics,
            caustic_matrix,
            sun: sun.map(|c| c as f32),
            transmittance: ordered(transmittance),
            sky_horizon: ordered(SKY_HORIZON),
            sky_zenith: ordered(SKY_ZENITH),
            glint: ordered(glint),
        }
    }
}

/// Where a sun ray refracted by a surface of slope `(p, q)` lands on the floor `depth` below,
/// relative to where it entered the water (for the caustics' Jacobian, once per frame).
fn sun_landing_offset(sun: [f64; 3], eta: f64, depth: f64, p: f64, q: f64) -> [f64; 2] {
    let inv_len = 1.0 / (1.0 + p * p + q * q).sqrt();
    let normal = [-p * inv_len, -q * inv_len, inv_len];
    let incoming = sun.map(|c| -c);
    let cos_i = -(incoming[0] * normal[0] + incoming[1] * normal[1] + incoming[2] * normal[2]);
    let cos_t = (1.0 - eta * eta * (1.0 - cos_i * cos_i)).max(0.0).sqrt();
    let bend = eta * cos_i - cos_t;
    let ray: [f64; 3] = std::array::from_fn(|i| eta * incoming[i] + bend * normal[i]);
    let reach = depth / (-ray[2]).max(1e-9);
    [ray[0] * reach, ray[1] * reach]
}

/// Renders one row of the natural look.
///
/// Per pixel, with `p = slope_scale * z_x`, `q = slope_scale * z_y` (the surface's slope in
/// pixels per pixel) and the view ray `d = (0, 0, -1)` straight down:
///
/// ```text
/// n        = (-p, -q, 1) / sqrt((1 + p*p) + q*q),   cos_i = n.z
/// cos_t    = sqrt(1 - eta^2 (1 - cos_i^2)),          bend = eta cos_i - cos_t
/// t        = eta d + bend n                          (Snell's law, the refracted ray)
/// sample   = bilinear(src, clamp(x + t.x depth / -t.z), clamp(y + t.y depth / -t.z))
/// J        = I + caustic_matrix * curvature_scale * [[z_xx, z_xy], [z_xy, z_yy]]
/// gain     = 1 + caustics (min(1 / |det J|, CAUSTIC_MAX) - 1)
/// r        = d - 2 (d.n) n                           (the reflected view ray)
/// fresnel  = F0 + (1 - F0) (1 - cos_i)^5
/// sky      = horizon + (zenith - horizon) max(r.z, 0)
/// glint    = max(r . sun, 0)^256
/// rgb      = (1 - fresnel) sample gain transmittance + fresnel (sky + glint colour)
/// alpha    = the sample's alpha
/// ```
///
/// each channel rounded to the nearest byte and clamped to `0..=255` (a NaN becomes 0). Flat
/// water (every row 0) shows the floor unmoved, with no caustics: `0.98 src transmittance +
/// 0.02 zenith` (plus the glint only when the sun is overhead).
#[inline]
pub fn natural_render_row(
    y: usize,
    height: usize,
    surface: Surface<'_>,
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
    look: &NaturalLook,
) {
    let width = dst_row.len();
    let Surface {
        slope_x,
        slope_y,
        curvature_xx,
        curvature_xy,
        curvature_yy,
    } = surface;
    let (slope_x, slope_y) = (&slope_x[..width], &slope_y[..width]);
    let (curvature_xx, curvature_xy) = (&curvature_xx[..width], &curvature_xy[..width]);
    let curvature_yy = &curvature_yy[..width];
    let (max_x, max_y) = (width as f32 - 1.0, height as f32 - 1.0);
    let [a00, a01, a10, a11] = look.caustic_matrix;
    let [sun_x, sun_y, sun_z] = look.sun;
    for x in 0..width {
        let p = look.slope_scale * slope_x[x];
        let q = look.slope_scale * slope_y[x];
        let inv_len = 1.0 / ((1.0 + p * p) + q * q).sqrt();
        let (normal_x, normal_y, cos_i) = (-p * inv_len, -q * inv_len, inv_len);

        // Refraction: where the view ray meets the floor.
        let cos_t = (1.0 - look.eta_squared * (1.0 - cos_i * cos_i)).sqrt();
        let bend = look.eta * cos_i - cos_t;
        let ray_z = bend * cos_i - look.eta;
        let reach = look.depth / -ray_z;
        let sx = super::scalar::clamp_position(x as f32 + bend * normal_x * reach, max_x);
        let sy = super::scalar::clamp_position(y as f32 + bend * normal_y * reach, max_y);
        let sample = bilinear(src, width, height, sx, sy);

        // Caustics: the area ratio of the sunlight's landing map.
        let hxx = look.curvature_scale * curvature_xx[x];
        let hxy = look.curvature_scale * curvature_xy[x];
        let hyy = look.curvature_scale * curvature_yy[x];
        let j00 = 1.0 + (a00 * hxx + a01 * hxy);
        let j01 = a00 * hxy + a01 * hyy;
        let j10 = a10 * hxx + a11 * hxy;
        let j11 = 1.0 + (a10 * hxy + a11 * hyy);
        let focus = (1.0 / (j00 * j11 - j01 * j10).abs()).min(CAUSTIC_MAX);
        let gain = 1.0 + look.caustics * (focus - 1.0);

        // Reflection: the sky and the sun in the reflected view ray, by Fresnel.
        let twice_cos = 2.0 * cos_i;
        let (reflected_x, reflected_y) = (twice_cos * normal_x, twice_cos * normal_y);
        let reflected_z = twice_cos * cos_i - 1.0;
        let grazing = 1.0 - cos_i;
        let grazing_squared = grazing * grazing;
        let fresnel = FRESNEL_HEAD_ON
            + (1.0 - FRESNEL_HEAD_ON) * (grazing_squared * grazing_squared * grazing);
        let sky_height = if reflected_z > 0.0 { reflected_z } else { 0.0 };
        let towards_sun = reflected_x * sun_x + reflected_y * sun_y + reflected_z * sun_z;
        let mut glint = if towards_sun > 0.0 { towards_sun } else { 0.0 };
        for _ in 0..GLINT_SQUARINGS {
            glint *= glint;
        }

        let transmitted = (1.0 - fresnel) * gain;
        let mut out = [0u8; 4];
        for channel in 0..3 {
            let sky = look.sky_horizon[channel]
                + (look.sky_zenith[channel] - look.sky_horizon[channel]) * sky_height;
            let floor = sample[channel] * look.transmittance[channel];
            let value = transmitted * floor + fresnel * (sky + glint * look.glint[channel]);
            out[channel] = to_byte(value);
        }
        out[3] = to_byte(sample[3]);
        dst_row[x] = out;
    }
}

/// The four channels of `src` at `(sx, sy)` (inside the image), interpolated bilinearly.
#[inline]
fn bilinear(src: &[[u8; 4]], width: usize, height: usize, sx: f32, sy: f32) -> [f32; 4] {
    let (x0, y0) = (sx as usize, sy as usize);
    let (fx, fy) = (sx - x0 as f32, sy - y0 as f32);
    let x1 = (x0 + 1).min(width - 1);
    let y1 = (y0 + 1).min(height - 1);
    let (p00, p10) = (src[y0 * width + x0], src[y0 * width + x1]);
    let (p01, p11) = (src[y1 * width + x0], src[y1 * width + x1]);
    std::array::from_fn(|channel| {
        let (a, b) = (f32::from(p00[channel]), f32::from(p10[channel]));
        let (c, d) = (f32::from(p01[channel]), f32::from(p11[channel]));
        let top = a + (b - a) * fx;
        let bottom = c + (d - c) * fx;
        top + (bottom - top) * fy
    })
}

/// A channel value rounded to the nearest byte, clamped to `0..=255` (NaN becomes 0).
#[inline]
fn to_byte(value: f32) -> u8 {
    (value + 0.5).clamp(0.0, 255.0) as u8
}
