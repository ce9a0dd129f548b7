//! The natural look's row kernels: water seen from above, on every backend.
//!
//! The picture is the floor of a pool `depth` pixels under the water, seen straight down through
//! the surface and lit by a sun and a sky. Per pixel, from the surface's slope and curvature:
//!
//! - **refraction**: the view ray is bent by Snell's law (index [`WATER_INDEX`]) and meets the
//!   floor `depth` pixels down; the floor is sampled bilinearly where it lands;
//! - **caustics**: sunlight refracted by the curved surface is focused or spread; the floor's
//!   brightness is the ratio of areas `1 / |det J|` of the light's landing map (clamped to
//!   [`CAUSTIC_MAX`]), mixed in by the `caustics` strength;
//! - **absorption**: the light is tinted per channel by Beer-Lambert over its path in the water
//!   (none with the default white water colour);
//! - **reflection**: the sky in the direction of the reflected view ray, read from a small table
//!   (see [`SKY_SIDE`]), weighted by how much more Schlick's Fresnel term reflects than flat
//!   water does (`F - F0`), and the sun's glint, weighted by `F` and by how stirred the water
//!   is (its slope and its curvature: flat water never glints).
//!
//! **Calm water is the picture, exactly.** The picture under the water is taken as what calm
//! water already looks like, its reflections included, so the look adds only what the waves
//! change: with every slope and curvature 0, each byte of the frame is the picture's (see
//! [`natural_render_row`]). That is also why the sun can stand anywhere: under an overhead sun
//! flat water would mirror it everywhere (a white sheet); here the glint needs stirred water, and
//! shows on the crests and troughs, whose slope reflects the sun into the view.
//!
//! # Why it is shaped like this
//!
//! The look has to run in real time on a CPU, on four instruction sets, with every backend equal
//! to this reference bit for bit. These choices make that affordable:
//!
//! - **One scalar of the slope.** With the view ray straight down, everything the refraction and
//!   the reflection need depends on the slope `(p, q)` only through `t = 1 / (1 + p^2 + q^2)`
//!   (the squared cosine of the angle of incidence): the floor is displaced by `(p, q)` times a
//!   function of `t`, the Fresnel term is a function of `sqrt(t)`, and the reflected ray is
//!   `(-2tp, -2tq, 2t - 1)`. A pixel costs two divisions (one gives both `t` and the caustics'
//!   `1 / |det J|`) and two square roots; no `powf`, `sin` or table of the slope.
//! - **The sky as a table in stereographic coordinates.** Projected from the nadir, the
//!   reflected ray's direction lands at exactly `-(p, q)` on the plane: the horizon is the unit
//!   circle, the zenith its centre. So the sky is a [`SKY_SIDE`]-square RGBA table over
//!   `[-1, 1]^2`, read at the nearest texel of `-(p, q)`; texels outside the disc hold what lies
//!   beyond the horizon. Any sky (the built-in gradient, a photograph) is baked into it once.
//!   Nearest is enough: above the horizon the sky is weighted by at most 0.2% (Schlick's `F`
//!   less flat water's 2%), so a texel's step in the built-in gradient is a fraction of a
//!   level, and bilinear reads cost four times the memory accesses.
//! - **Three stages per chunk of [`CHUNK`] pixels.** The *optics* (slopes to sample positions and
//!   light factors) and the *blend* (samples and factors to bytes) are element-wise `f32` loops
//!   in plain Rust, which the compiler vectorises for each backend from one body: Rust never
//!   contracts `a * b + c` into a fused multiply-add nor reassociates, and `sqrt` and division
//!   are exactly rounded on every instruction set, so the vector code does exactly the
//!   reference's operations on each lane (the same reasoning as [`super::f32_rows`]). Between them,
//!   the *samplers* read memory at computed positions, which compilers do not vectorise; they are
//!   written once over the vector layer (`natural/samplers.rs`, over `kernels/wide`): the
//!   floor bilinearly in the fixed-point arithmetic of the lit look (1/128-pixel weights, blends
//!   in 16-bit lanes), the sky at the nearest texel. The chunk's positions and factors live in
//!   small arrays that stay in L1.
//!   The stages are also a software pipeline: the samplers' loads do not wait on the optics'
//!   chain of divisions and square roots. A fused AVX2 row (every stage in registers, 8 pixels
//!   per iteration) was measured slower, 7.8 against 6.2 ns per pixel on one thread of the
//!   bench's rough 1920x1080 field, and running two halves of a chunk in one optics loop (two
//!   independent chains) gained nothing: the optics are bound by the divider's throughput.
//! - **AVX-512 is the same bodies, wider.** With AVX-512 F, BW, VL and DQ enabled, the optics
//!   and the blend compile to 16-lane code with mask registers for the selections, the same
//!   operations on each lane. Measured with `perf record -e cycles:u` on `ripples bench --solver
//!   wave --render natural --threads 1` (1920x1080, AMD EPYC Zen 4, one run per backend), the
//!   optics and blend took 1.00 Gcycles against AVX2's 1.38, the smoothing 0.39 against 0.47;
//!   the floor's sampler is written for 16 lanes too (4% fewer cycles, see `natural/avx512.rs`,
//!   the one kernel kept outside the vector layer), the sky's is AVX2's (a 16-lane gather gained nothing).
//! - **Vectorisable arithmetic only.** Bytes are rounded by adding `2^23` (a float-to-integer
//!   conversion with Rust's saturating semantics became a branch per lane), neighbours are read
//!   from separate slices (offsets inside one slice left the last vector of every chunk to
//!   scalar code), and the glint is cut off before its squarings reach subnormal numbers (which
//!   cost x86 a hundred cycles each).
//!
//! The slopes and curvatures come from a *smoothed* height field ([`smooth_columns`] and
//! [`smooth_row`], a 5x5 binomial filter): the filter cancels a cell-sized checkerboard exactly,
//! so noise at the grid's own frequency never shows as speckle. At a simulation scale of 1 the
//! optics read the surface straight from three smoothed rows ([`SurfaceRows::Smoothed`]); above
//! it, the surface is computed once per grid row ([`surface_row`]), blended between the two grid
//! rows around an image row ([`lerp_rows`]) and interpolated along the row inside the optics
//! ([`SurfaceRows::Grid`]), so the smoothing runs once per cell, not per pixel.

use super::scalar::clamp_position;
use super::{Backend, wide};

#[cfg(target_arch = "x86_64")]
mod avx512;
mod samplers;

/// The refractive index of water (for yellow-green light, 589 nm).
pub const WATER_INDEX: f32 = 1.333;

/// Water's refractive index for red light (656 nm, at 20 °C): with `dispersion` 1 the red channel
/// refracts by it (see [`NaturalLook::channel_spread`]).
pub const WATER_INDEX_RED: f32 = 1.3311;

/// Water's refractive index for blue light (486 nm, at 20 °C).
pub const WATER_INDEX_BLUE: f32 = 1.3371;

/// Reflectance of water head on (Schlick's `F0` for an index of 1.333).
pub const FRESNEL_HEAD_ON: f32 = 0.02;

/// Largest brightening the caustics give a pixel (`1 / |det J|` is clamped to it: where the
/// light's landing map folds, the determinant passes through 0).
pub const CAUSTIC_MAX: f32 = 4.0;

/// The smallest `|det J|` the caustics divide by: `1 / CAUSTIC_MAX`.
pub const MIN_SPREAD: f32 = 1.0 / CAUSTIC_MAX;

/// The sun's glint is `max(0, reflected · sun)^(2^GLINT_SQUARINGS)`: exponent 256, a small sun.
pub const GLINT_SQUARINGS: u32 = 8;

/// The glint is 0 where `reflected · sun` is at most this: there its power, below `1e-24`, is
/// invisible, and the squarings would pass through subnormal numbers, which cost x86 CPUs a
/// hundred cycles each (rough water has many pixels there: a frame took 60% longer).
pub const GLINT_FLOOR: f32 = 0.8;

/// How fast the glint turns on with the slope: flat water shows no glint (it is in the picture
/// already), and `activity = min(1, GLINT_GATE_SLOPE (p^2 + q^2) + GLINT_GATE_FOCUS (focus -
/// 1)^2)` scales it: full on any slope steeper than `1 / sqrt(GLINT_GATE_SLOPE)`.
pub const GLINT_GATE_SLOPE: f32 = 10.0;

/// How fast the glint turns on with the curvature, through the caustics' focus (which is 1 on
/// flat water): crests and troughs, whose slope is 0, glint under an overhead sun.
pub const GLINT_GATE_FOCUS: f32 = 25.0;

/// The glint's peak brightness before Fresnel, in units of a full channel (255): the sun is far
/// brighter than the sky, so even its 2% reflection head on is near white.
pub const GLINT_STRENGTH: f32 = 50.0;

/// The built-in sky: its colour at the horizon (RGB, 0..=255).
pub const SKY_HORIZON: [f32; 3] = [205.0, 220.0, 235.0];

/// The built-in sky: its colour at the zenith (RGB, 0..=255).
pub const SKY_ZENITH: [f32; 3] = [70.0, 120.0, 200.0];

/// The sun's colour (RGB, 0..=1), a little warm.
pub const SUN_COLOUR: [f32; 3] = [1.0, 0.97, 0.9];

/// Texels per side of the sky table: `SKY_SIDE x SKY_SIDE` RGBA texels over the stereographic
/// square `[-1, 1]^2` (16 KiB, which stays in L1). Texel `(i, j)` is centred at
/// `u = (i + 0.5) * 2 / SKY_SIDE - 1`, `v = (j + 0.5) * 2 / SKY_SIDE - 1` (`u` along the image's
/// `+x`, `v` along `+y`, down the image); the sky direction there is
/// `(2u, 2v, 1 - u^2 - v^2) / (1 + u^2 + v^2)`.
pub const SKY_SIDE: usize = 64;

/// Pixels per chunk: the optics, samples and blend of this many pixels are kept in small
/// arrays between the stages (9 KiB).
pub const CHUNK: usize = 256;

/// Columns of padding on each side of a row of [`smooth_columns`].
pub const COLUMN_PAD: usize = 2;

/// Columns of padding on each side of a smoothed row ([`smooth_row`]) and of a surface row
/// ([`surface_row`]).
pub const ROW_PAD: usize = 1;

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

/// The natural look's parameters, ready for the kernels: everything that needs a square root
/// of a constant, a power or an angle, computed once per frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NaturalLook {
    /// Slope in pixels per pixel per unit of smoothed difference across two cells:
    /// `p = slope_scale * (s[x+1] - s[x-1])` on the smoothed field `s` (the filter's 1/256,
    /// the central difference's 1/2, the field's height units and the simulation scale folded
    /// in).
    pub slope_scale: f32,
    /// The same for the second differences: `z_xx = curvature_scale * (s[x+1] - 2 s[x] + s[x-1])`
    /// in per-pixel units.
    pub curvature_scale: f32,
    /// The same for the cross difference of the four diagonal neighbours (`curvature_scale / 4`).
    pub cross_scale: f32,
    /// Depth of the floor under the surface at rest, in pixels.
    pub depth: f32,
    /// `1 / WATER_INDEX`: the ratio of indices from air into water.
    pub eta: f32,
    /// `eta * eta`.
    pub eta_squared: f32,
    /// `1 - eta * eta`.
    pub eta_complement: f32,
    /// How strongly the caustics brighten and darken the floor (0 = not at all).
    pub caustics: f32,
    /// The landing map's Jacobian is `J = I + A H` for the Hessian `H` of the surface (in
    /// pixels) and the matrix `A` of how far the sunlight's landing point moves per unit of
    /// slope (the sun's direction and `depth` folded in). Its determinant is
    /// `1 + tr(A H) + det(A) det(H)`: these are the weights of `z_xx`, `z_xy` and `z_yy` in
    /// `tr(A H)`: `[a00, a01 + a10, a11]`.
    pub caustic_trace: [f32; 3],
    /// `det(A)`.
    pub caustic_det: f32,
    /// `(-2 sun.x, -2 sun.y, 2 sun.z)`: the reflected ray `(-2tp, -2tq, 2t - 1)` meets the sun at
    /// `reflected · sun = t * (p m.x + q m.y + m.z) - sun.z`.
    pub sun_mirror: [f32; 3],
    /// Unit vector towards the sun (x right, y down the image, z up out of the water).
    pub sun: [f32; 3],
    /// Light left after the path through the water, per colour byte (0..=1).
    pub transmittance: [f32; 3],
    /// The sun's glint at its brightest, per colour byte, before Fresnel.
    pub glint: [f32; 3],
    /// Chromatic dispersion: per colour byte, the factor on the floor's displacement with which
    /// that channel is sampled (1 for green; below 1 for red, above for blue, with
    /// dispersion). It is the ratio of the channel's displacement through flat water's
    /// refraction to green's, `(1 - 1/n_c) / (1 - 1/n_green)`, exact for gentle slopes.
    pub channel_spread: [f32; 3],
    /// Whether a channel's `channel_spread` is not 1: then the floor is sampled three times.
    pub dispersive: bool,
    /// The glint's gate on the slope: `activity` grows by this per unit of `p^2 + q^2`
    /// ([`GLINT_GATE_SLOPE`]).
    pub gate_slope: f32,
    /// The glint's gate on the caustics: `activity` grows by this per unit of
    /// `(focus - 1)^2` ([`GLINT_GATE_FOCUS`]).
    pub gate_focus: f32,
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

impl PixelOrder {
    /// An RGB triple in this order's first three bytes.
    pub fn arrange<T: Copy>(self, rgb: [T; 3]) -> [T; 3] {
        match self {
            PixelOrder::Rgba => rgb,
            PixelOrder::Bgra => [rgb[2], rgb[1], rgb[0]],
        }
    }
}

impl NaturalLook {
    /// The kernel parameters for the look `parameters` (its wave height scaled by its
    /// `presence`) over a field of `scale` pixels per cell, with pixels in `order`.
    pub fn new(parameters: &crate::NaturalSettings, scale: u32, order: PixelOrder) -> Self {
        let scale = f64::from(scale.max(1));
        let eta = 1.0 / f64::from(WATER_INDEX);
        let depth = f64::from(parameters.depth);
        let sun = sun_direction(parameters.sun_elevation, parameters.sun_azimuth);
        let landing = |p: f64, q: f64| sun_landing_offset(sun, eta, depth, p, q);
        let step = 1e-4;
        let (right, left) = (landing(step, 0.0), landing(-step, 0.0));
        let (down, up) = (landing(0.0, step), landing(0.0, -step));
        let derivative = |a: f64, b: f64| (a - b) / (2.0 * step);
        let [a00, a01, a10, a11] = [
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
        // Chromatic dispersion: each channel's index spread from green's by `dispersion` times
        // water's own, and its displacement through flat water relative to green's.
        let index = f64::from(WATER_INDEX);
        let dispersion = f64::from(parameters.dispersion);
        let spread_of = |real: f32| {
            let channel = index + dispersion * (f64::from(real) - index);
            ((1.0 - 1.0 / channel) / (1.0 - 1.0 / index)) as f32
        };
        let channel_spread = [spread_of(WATER_INDEX_RED), 1.0, spread_of(WATER_INDEX_BLUE)];
        let wave_height = f64::from(parameters.wave_height * parameters.presence);
        // The smoothing filter's weights sum to 256; a central difference spans two cells.
        let curvature_scale = wave_height / (scale * scale) / 256.0;
        Self {
            slope_scale: (wave_height / scale / 512.0) as f32,
            curvature_scale: curvature_scale as f32,
            cross_scale: (curvature_scale / 4.0) as f32,
            depth: parameters.depth,
            eta: eta as f32,
            eta_squared: (eta * eta) as f32,
            eta_complement: (1.0 - eta * eta) as f32,
            caustics: parameters.caustics,
            caustic_trace: [a00 as f32, (a01 + a10) as f32, a11 as f32],
            caustic_det: (a00 * a11 - a01 * a10) as f32,
            sun_mirror: [-2.0 * sun[0], -2.0 * sun[1], 2.0 * sun[2]].map(|c| c as f32),
            sun: sun.map(|c| c as f32),
            transmittance: order.arrange(transmittance),
            glint: order.arrange(glint),
            channel_spread: order.arrange(channel_spread),
            dispersive: channel_spread != [1.0; 3],
            gate_slope: GLINT_GATE_SLOPE,
            gate_focus: GLINT_GATE_FOCUS,
        }
    }
}

/// Unit vector towards a sun at `elevation` degrees above the horizon and `azimuth` degrees
/// counter-clockwise from the image's +x axis (x right, y down the image, z up).
pub fn sun_direction(elevation: f32, azimuth: f32) -> [f64; 3] {
    let elevation = f64::from(elevation).to_radians();
    let azimuth = f64::from(azimuth).to_radians();
    // Image rows grow downwards, so "towards the top" is -y.
    [
        elevation.cos() * azimuth.cos(),
        -elevation.cos() * azimuth.sin(),
        elevation.sin(),
    ]
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

/// The surface an image row is rendered from.
#[derive(Debug, Clone, Copy)]
pub enum SurfaceRows<'a> {
    /// Simulation scale 1: the smoothed rows ([`smooth_row`]) of grid rows `y - 1`, `y` and
    /// `y + 1` (mirrored at the grid's edges), each `width + 2 * ROW_PAD` long. The optics take
    /// the slopes and curvatures from them by central differences:
    ///
    /// ```text
    /// p    = slope_scale * (mid[x+1] - mid[x-1])
    /// q    = slope_scale * (down[x] - up[x])
    /// z_xx = curvature_scale * ((mid[x+1] - mid[x]) - (mid[x] - mid[x-1]))
    /// z_yy = curvature_scale * ((down[x] - mid[x]) - (mid[x] - up[x]))
    /// z_xy = cross_scale * ((down[x+1] - down[x-1]) - (up[x+1] - up[x-1]))
    /// ```
    Smoothed {
        /// Smoothed grid row `y - 1`.
        up: &'a [f32],
        /// Smoothed grid row `y`.
        mid: &'a [f32],
        /// Smoothed grid row `y + 1`.
        down: &'a [f32],
    },
    /// Simulation scale `scale` > 1: the slopes and the caustic focus (`p`, `q`, `focus`, see
    /// [`surface_row`]) of this image row at the grid's columns, already blended between the
    /// two grid rows around it ([`lerp_rows`]), each `grid_width + 2 * ROW_PAD` long with the
    /// edge values repeated in the padding. The optics then take `t = 1 / (1 + (p*p + q*q))`
    /// with its own division and the interpolated focus (and from it `gain` and `bent`, as
    /// [`natural_render_row`] states them). Pixel `x` interpolates them linearly at grid column
    /// `u = (x + 0.5) / scale - 0.5`: with `k = x % scale`, `i = x / scale` and
    /// `d = (k + 0.5) / scale - 0.5`, between padded columns `i + 1` and `i + 2` with weight `d`
    /// when `d >= 0`, between `i` and `i + 1` with weight `1 + d` otherwise
    /// (`a + (b - a) * weight`).
    Grid {
        /// `p`, `q` and the caustic focus at the grid's columns.
        rows: [&'a [f32]; 3],
        /// Pixels per cell.
        scale: u32,
    },
}

/// Renders one row of the natural look.
///
/// `y` is the image row, `height` the image's height, `src` the whole floor image
/// (`dst_row.len() * height` pixels) and `sky` the sky table (`SKY_SIDE * SKY_SIDE` texels, in
/// the pixel order `look` was made for). Per pixel `x`, with the surface `(p, q, z_xx, z_xy,
/// z_yy)` from `surface` (see [`SurfaceRows`]):
///
/// ```text
/// optics (f32, each operation rounded in this order):
///   sec2     = 1 + (p*p + q*q)                        1 / cos^2 of the angle of incidence
///   trace    = (c0 * z_xx + c1 * z_xy) + c2 * z_yy    (c = caustic_trace)
///   det      = (1 + trace) + caustic_det * (z_xx * z_yy - z_xy * z_xy)
///   spread   = |det|, or MIN_SPREAD unless it is larger (NaN too)
///   inverse  = 1 / (sec2 * spread)
///   t        = inverse * spread                       cos^2 of the angle of incidence
///   focus    = inverse * sec2                         1 / |det J|, at most CAUSTIC_MAX
///   gain     = 1 + caustics * (focus - 1)
///   root     = sqrt(t * (eta_complement + eta_squared * t))     = cos_i cos_t
///   bend     = eta * t - root                         = (eta cos_i - cos_t) cos_i
///   reach    = (bend * depth) / (bend - eta)          floor pixels per unit of slope
///   floor    = (x + p * reach, y + q * reach)         (Snell's law through the depth)
///   g        = 1 - sqrt(t)
///   reflected = (1 - F0) * ((g*g) * (g*g) * g)        Schlick's F minus flat water's F0
///   fresnel  = F0 + reflected                         (Schlick)
///   transmitted = (1 - reflected) * gain
///   sun_dot  = t * ((p * m.x + q * m.y) + m.z) - sun.z     (m = sun_mirror)
///   glint    = (sun_dot if > GLINT_FLOOR, else 0)^256      (eight squarings; NaN gives 0)
///   bent     = focus - 1
///   stir     = (p*p + q*q) * gate_slope + (bent * bent) * gate_focus
///   activity = stir if < 1, else 1                    (NaN gives 1)
///   sheen    = (fresnel * activity) * glint
///   sky_at   = (s - p * s, s - q * s)                 (s = SKY_SIDE / 2)
/// samples:
///   floor_rgba = bilinear(src, floor)                 ([`bilinear_row`])
///   sky_rgb    = nearest(sky, sky_at)                 ([`nearest_row`])
/// dispersion (only when `look.dispersive`), for the colour bytes c = 0 and 2:
///   spread   = channel_spread[c]
///   floor_c  = (x + (floor.x - x) * spread, y + (floor.y - y) * spread)
///   floor_rgba[c] = bilinear(src, floor_c)[c]
/// blend, per colour channel c:
///   value    = transmitted * (floor_rgba[c] * transmittance[c])
///              + (reflected * sky_rgb[c] + sheen * glint[c])
///   out[c]   = round(clamp(value, 0, 255))             (to nearest, ties to even; NaN gives 0)
///   out[3]   = floor_rgba[3]
/// ```
///
/// Flat water (every slope and curvature 0) is the picture: `floor` is `(x, y)` exactly,
/// `focus` 1, so `gain` and `transmitted` are 1 and `reflected`, `activity` and `sheen` are 0,
/// and `value` is `src * transmittance`, exactly `src` with the default white water (whose
/// `transmittance` is 1). The picture already shows what calm water looks like (its
/// reflection of the sky and the sun included), so the look adds only what the waves change:
/// the sky reflected beyond flat water's `F0`, and the sun's glint where the water is stirred.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn natural_render_row(
    backend: Backend,
    y: usize,
    height: usize,
    surface: SurfaceRows<'_>,
    src: &[[u8; 4]],
    dst_row: &mut [[u8; 4]],
    look: &NaturalLook,
    sky: &[[u8; 4]],
) {
    let row = RowJob {
        y,
        width: dst_row.len(),
        height,
        surface,
        src,
        look,
        sky,
    };
    let scalar_samplers = Samplers {
        bilinear: bilinear_row,
        nearest: nearest_row,
    };
    per_backend!(backend, stages => render_row(row, dst_row); also neon, simd128;
        else plain::render_row(row, dst_row, scalar_samplers))
}

/// Samples `src` (`width x height` pixels) bilinearly at the positions `(xs[i], ys[i])` into
/// `out[i]`, in 1/128-pixel fixed point:
///
/// ```text
/// sx, sy  = clamp(xs[i], 0, width-1), clamp(ys[i], 0, height-1)     (NaN becomes 0)
/// fixed   = trunc(s * 128)
/// x0      = min(fixed >> 7, width - 2)      (0 when width is 1)
/// wx      = fixed - 128 * x0                (0..=128: 128 only at the last column)
/// x1      = min(x0 + 1, width - 1)          (and the same for y)
/// lerp    = a + (((b - a) * w) >> 7)        (per channel, arithmetic shift)
/// out     = lerp(lerp(p00, p10, wx), lerp(p01, p11, wx), wy)
/// ```
///
/// The left corner is never the last column, so a sampler can read the two corners of a row as
/// one 8-byte pair (`p00` and `p10` are neighbours in memory), which halves the loads of the
/// SIMD backends. This is the reference; [`bilinear_row_on`] runs the backend's version.
#[inline]
pub fn bilinear_row(
    src: &[[u8; 4]],
    width: usize,
    height: usize,
    xs: &[f32],
    ys: &[f32],
    out: &mut [[u8; 4]],
) {
    let count = out.len();
    if width == 0 || height == 0 {
        return;
    }
    let (xs, ys) = (&xs[..count], &ys[..count]);
    let src = &src[..width * height];
    let (max_x, max_y) = (width as f32 - 1.0, height as f32 - 1.0);
    let (last_left, last_top) = (width.max(2) - 2, height.max(2) - 2);
    for i in 0..count {
        let sx = clamp_position(xs[i], max_x);
        let sy = clamp_position(ys[i], max_y);
        let (fixed_x, fixed_y) = ((sx * 128.0) as i32, (sy * 128.0) as i32);
        let x0 = ((fixed_x >> 7) as usize).min(last_left);
        let y0 = ((fixed_y >> 7) as usize).min(last_top);
        let (wx, wy) = (fixed_x - 128 * x0 as i32, fixed_y - 128 * y0 as i32);
        let x1 = (x0 + 1).min(width - 1);
        let y1 = (y0 + 1).min(height - 1);
        let (p00, p10) = (src[y0 * width + x0], src[y0 * width + x1]);
        let (p01, p11) = (src[y1 * width + x0], src[y1 * width + x1]);
        out[i] = std::array::from_fn(|channel| {
            let top = lerp7(p00[channel], p10[channel], wx);
            let bottom = lerp7(p01[channel], p11[channel], wx);
            (top + (((bottom - top) * wy) >> 7)) as u8
        });
    }
}

/// Reads a `side x side` table at the nearest texel of `(xs[i], ys[i])` into `out[i]`:
/// `table[trunc(clamp(y, 0, side-1)) * side + trunc(clamp(x, 0, side-1))]` (NaN becomes 0), so
/// texel `i` covers coordinates `i..i + 1`. This is the reference; [`nearest_row_on`] runs the
/// backend's version.
#[inline]
pub fn nearest_row(table: &[[u8; 4]], side: usize, xs: &[f32], ys: &[f32], out: &mut [[u8; 4]]) {
    let count = out.len();
    if side == 0 {
        return;
    }
    let (xs, ys) = (&xs[..count], &ys[..count]);
    let table = &table[..side * side];
    let last = side as f32 - 1.0;
    for i in 0..count {
        let x = clamp_position(xs[i], last) as usize;
        let y = clamp_position(ys[i], last) as usize;
        out[i] = table[y * side + x];
    }
}

/// [`nearest_row`] with `backend`'s kernel (for the tests that compare backends).
#[inline]
pub fn nearest_row_on(
    backend: Backend,
    table: &[[u8; 4]],
    side: usize,
    xs: &[f32],
    ys: &[f32],
    out: &mut [[u8; 4]],
) {
    wide::dispatch(
        backend,
        samplers::Nearest {
            table,
            side,
            xs,
            ys,
            out,
        },
    );
}

#[inline]
fn lerp7(a: u8, b: u8, weight: i32) -> i32 {
    let a = i32::from(a);
    a + (((i32::from(b) - a) * weight) >> 7)
}

/// [`bilinear_row`] with `backend`'s kernel (for the tests that compare backends).
#[inline]
pub fn bilinear_row_on(
    backend: Backend,
    src: &[[u8; 4]],
    width: usize,
    height: usize,
    xs: &[f32],
    ys: &[f32],
    out: &mut [[u8; 4]],
) {
    let sampler = samplers::Bilinear {
        src,
        width,
        height,
        xs,
        ys,
        out,
    };
    match backend {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx512` is only taken once `is_available` confirmed AVX-512 F, BW,
        // VL, DQ and AVX2 on this CPU.
        Backend::Avx512 if backend.is_available() => unsafe { avx512::run(sampler) },
        _ => wide::dispatch(backend, sampler),
    }
}

/// The first pass of the smoothing: one row of vertical binomial sums of five grid rows (two
/// above to two below; the caller mirrors them at the grid's edges, so the row above row 0 is
/// row 1), `out[COLUMN_PAD + x] = (r0[x] + r4[x]) + 4 (r1[x] + r3[x]) + 6 r2[x]`, with
/// [`COLUMN_PAD`] mirrored columns on each side (column -1 is column 1). `out` is
/// `width + 2 * COLUMN_PAD` long.
#[inline]
pub fn smooth_columns<T: Copy + Into<f32>>(backend: Backend, rows: [&[T]; 5], out: &mut [f32]) {
    per_backend!(backend, stages => smooth_columns(rows, out))
}

/// The second pass of the smoothing: the horizontal binomial sums of a row of
/// [`smooth_columns`], `out[ROW_PAD + x] = (c[x-2] + c[x+2]) + 4 (c[x-1] + c[x+1]) + 6 c[x]`
/// (`c` unpadded), with [`ROW_PAD`] mirrored columns on each side. The result is the 5x5
/// binomial filter times 256 (the kernels' scales fold the 1/256 in). A checkerboard of `+-a`
/// becomes exactly 0, away from edges and at them. `columns` is `width + 2 * COLUMN_PAD` long,
/// `out` `width + 2 * ROW_PAD`.
#[inline]
pub fn smooth_row(backend: Backend, columns: &[f32], out: &mut [f32]) {
    per_backend!(backend, stages => smooth_row(columns, out))
}

/// The surface of one grid row for a simulation scale above 1: the slopes `p`, `q` (in pixel
/// units, as [`SurfaceRows::Smoothed`] states them) and the caustic focus, from three smoothed
/// rows, each output `width + 2 * ROW_PAD` long with its edge values repeated in the padding.
/// The focus is the reference's with the grid's curvatures: `focus = 1 / spread` (one
/// division; see [`natural_render_row`] for `spread`). Coarse simulations interpolate the focus
/// rather than the three curvatures, which keeps the caustics' arithmetic on the grid, once
/// per cell.
#[inline]
pub fn surface_row(
    backend: Backend,
    up: &[f32],
    mid: &[f32],
    down: &[f32],
    look: &NaturalLook,
    out: [&mut [f32]; 3],
) {
    per_backend!(backend, stages => surface_row(up, mid, down, look, out))
}

/// Blends the surfaces (`p`, `q`, focus) of two grid rows for an image row between them:
/// `out[k][i] = above[k][i] + (below[k][i] - above[k][i]) * weight`.
#[inline]
pub fn lerp_rows(
    backend: Backend,
    above: [&[f32]; 3],
    below: [&[f32]; 3],
    weight: f32,
    out: [&mut [f32]; 3],
) {
    per_backend!(backend, stages => lerp_rows(above, below, weight, out))
}

/// What one row render reads.
#[derive(Clone, Copy)]
struct RowJob<'a> {
    y: usize,
    width: usize,
    height: usize,
    surface: SurfaceRows<'a>,
    src: &'a [[u8; 4]],
    look: &'a NaturalLook,
    sky: &'a [[u8; 4]],
}

/// A bilinear sampler: [`bilinear_row`]'s arguments.
type BilinearSampler = fn(&[[u8; 4]], usize, usize, &[f32], &[f32], &mut [[u8; 4]]);

/// A nearest-texel sampler: [`nearest_row`]'s arguments.
type NearestSampler = fn(&[[u8; 4]], usize, &[f32], &[f32], &mut [[u8; 4]]);

/// A backend's samplers: [`bilinear_row`] for the floor and [`nearest_row`] for the sky.
#[derive(Clone, Copy)]
struct Samplers {
    bilinear: BilinearSampler,
    nearest: NearestSampler,
}

/// The plain bodies of the stages, compiled once per backend (see the module docs).
mod plain {
    use super::*;

    /// Column offsets `0, 1, 2, ...` as `f32`: a vectorisable source of `x` for the optics.
    static OFFSETS: [f32; CHUNK] = {
        let mut offsets = [0.0; CHUNK];
        let mut i = 0;
        while i < CHUNK {
            offsets[i] = i as f32;
            i += 1;
        }
        offsets
    };

    /// The per-chunk arrays between the stages.
    struct Chunk {
        floor_x: [f32; CHUNK],
        floor_y: [f32; CHUNK],
        sky_x: [f32; CHUNK],
        sky_y: [f32; CHUNK],
        transmitted: [f32; CHUNK],
        reflected: [f32; CHUNK],
        sheen: [f32; CHUNK],
        floor: [[u8; 4]; CHUNK],
        sky: [[u8; 4]; CHUNK],
    }

    /// With dispersion, the floor positions of colour bytes 0 and 2 of a chunk and their
    /// samples (made only for a dispersive look, so that the others do not clear them per row).
    struct Spread {
        xs: [[f32; CHUNK]; 2],
        ys: [[f32; CHUNK]; 2],
        samples: [[[u8; 4]; CHUNK]; 2],
    }

    #[inline(always)]
    pub(super) fn render_row(row: RowJob<'_>, dst_row: &mut [[u8; 4]], sample: Samplers) {
        let width = dst_row.len();
        if width == 0
            || row.height == 0
            || row.src.len() < width * row.height
            || row.sky.len() < SKY_SIDE * SKY_SIDE
        {
            return;
        }
        let mut chunk = Chunk {
            floor_x: [0.0; CHUNK],
            floor_y: [0.0; CHUNK],
            sky_x: [0.0; CHUNK],
            sky_y: [0.0; CHUNK],
            transmitted: [0.0; CHUNK],
            reflected: [0.0; CHUNK],
            sheen: [0.0; CHUNK],
            floor: [[0; 4]; CHUNK],
            sky: [[0; 4]; CHUNK],
        };
        // Cleared only when it is used: 6 KiB per row is a memset worth avoiding.
        let mut spread = if row.look.dispersive {
            Some(Spread {
                xs: [[0.0; CHUNK]; 2],
                ys: [[0.0; CHUNK]; 2],
                samples: [[[0; 4]; CHUNK]; 2],
            })
        } else {
            None
        };
        let y = row.y as f32;
        match row.surface {
            SurfaceRows::Smoothed { up, mid, down } => {
                let padded = width + 2 * ROW_PAD;
                let (up, mid, down) = (&up[..padded], &mid[..padded], &down[..padded]);
                let mut start = 0;
                while start < width {
                    let count = CHUNK.min(width - start);
                    let rows = [up, mid, down].map(|r| &r[start..start + count + 2]);
                    optics_smoothed(row.look, rows, start as f32, y, &mut chunk, count);
                    let out = &mut dst_row[start..start + count];
                    let columns = (start as f32, 1.0);
                    let spread = spread.as_mut();
                    finish_chunk(row, &mut chunk, spread, count, columns, sample, out);
                    start += count;
                }
            }
            SurfaceRows::Grid { rows, scale } => {
                let scale = scale.max(1) as usize;
                let grid_width = width.div_ceil(scale);
                let rows = rows.map(|r| &r[..grid_width + 2 * ROW_PAD]);
                // Blocks of grid columns; in each, the pixels of one phase (`x % scale`) share
                // their interpolation weight, so each phase is one vectorised pass, and the
                // phases are then interleaved into the row in order (written one phase at a
                // time, a row's pixels took a fifth of the frame at scale 2).
                let block = (CHUNK / scale / 8 * 8).max(1);
                let mut phased = [[0u8; 4]; CHUNK];
                let mut start = 0;
                while start < grid_width {
                    let columns = block.min(grid_width - start);
                    let x0 = scale * start;
                    let x_end = width.min(x0 + scale * columns);
                    for phase in 0..scale.min(x_end - x0) {
                        let count = (x_end - x0 - phase).div_ceil(scale);
                        let offset = (phase as f32 + 0.5) / scale as f32 - 0.5;
                        let (first, weight) = if offset >= 0.0 {
                            (1, offset)
                        } else {
                            (0, 1.0 + offset)
                        };
                        let window = rows.map(|r| &r[first + start..first + start + count + 1]);
                        let column = (x0 + phase) as f32;
                        let step = scale as f32;
                        optics_grid(row.look, window, weight, column, step, y, &mut chunk, count);
                        let out = &mut phased[phase * block..phase * block + count];
                        let columns = (column, step);
                        let spread = spread.as_mut();
                        finish_chunk(row, &mut chunk, spread, count, columns, sample, out);
                    }
                    let mut interleaved = [[0u8; 4]; CHUNK];
                    match scale {
                        2 => interleave::<2>(&phased, block, &mut interleaved),
                        3 => interleave::<3>(&phased, block, &mut interleaved),
                        4 => interleave::<4>(&phased, block, &mut interleaved),
                        _ => {
                            for phase in 0..scale {
                                let pixels = &phased[phase * block..(phase + 1) * block];
                                let targets = interleaved[phase..].iter_mut().step_by(scale);
                                for (target, pixel) in targets.zip(pixels) {
                                    *target = *pixel;
                                }
                            }
                        }
                    }
                    dst_row[x0..x_end].copy_from_slice(&interleaved[..x_end - x0]);
                    start += columns;
                }
            }
        }
    }

    /// Puts `S` phases of `block` pixels each (`phased[phase * block + i]`) in pixel order
    /// (`out[S * i + phase]`), as words, which the compiler interleaves in vector registers.
    #[inline(always)]
    fn interleave<const S: usize>(phased: &[[u8; 4]], block: usize, out: &mut [[u8; 4]]) {
        let phases: [&[[u8; 4]]; S] =
            std::array::from_fn(|phase| &phased[phase * block..(phase + 1) * block]);
        for (i, group) in out[..S * block].chunks_exact_mut(S).enumerate() {
            for phase in 0..S {
                group[phase] = phases[phase][i];
            }
        }
    }

    /// Samples the floor and the sky of a chunk whose optics are done, and blends them into
    /// `out`. The chunk's pixel `i` is at column `columns.0 + columns.1 * i`; `spread` is there
    /// for a dispersive look.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn finish_chunk(
        row: RowJob<'_>,
        chunk: &mut Chunk,
        spread: Option<&mut Spread>,
        count: usize,
        columns: (f32, f32),
        sample: Samplers,
        out: &mut [[u8; 4]],
    ) {
        (sample.bilinear)(
            row.src,
            row.width,
            row.height,
            &chunk.floor_x[..count],
            &chunk.floor_y[..count],
            &mut chunk.floor[..count],
        );
        if let Some(spread) = spread {
            disperse(row, chunk, spread, count, columns, sample);
        }
        (sample.nearest)(
            row.sky,
            SKY_SIDE,
            &chunk.sky_x[..count],
            &chunk.sky_y[..count],
            &mut chunk.sky[..count],
        );
        blend(row.look, chunk, count, out);
    }

    /// Chromatic dispersion: colour bytes 0 and 2 of the chunk's floor samples taken again
    /// where their own index refracts the view (see [`super::natural_render_row`]).
    #[inline(always)]
    fn disperse(
        row: RowJob<'_>,
        chunk: &mut Chunk,
        spread: &mut Spread,
        count: usize,
        columns: (f32, f32),
        sample: Samplers,
    ) {
        let (first, step) = columns;
        let y = row.y as f32;
        let offsets = &OFFSETS[..count];
        let (floor_x, floor_y) = (&chunk.floor_x[..count], &chunk.floor_y[..count]);
        for (k, channel) in [0, 2].into_iter().enumerate() {
            let factor = row.look.channel_spread[channel];
            let (xs, ys) = (&mut spread.xs[k][..count], &mut spread.ys[k][..count]);
            for i in 0..count {
                let column = first + step * offsets[i];
                xs[i] = column + (floor_x[i] - column) * factor;
                ys[i] = y + (floor_y[i] - y) * factor;
            }
            let samples = &mut spread.samples[k][..count];
            (sample.bilinear)(row.src, row.width, row.height, xs, ys, samples);
        }
        let [first_channel, last_channel] = &spread.samples;
        let floor = &mut chunk.floor[..count];
        let (first_channel, last_channel) = (&first_channel[..count], &last_channel[..count]);
        for i in 0..count {
            let word = (u32::from_le_bytes(floor[i]) & 0xff00_ff00)
                | (u32::from_le_bytes(first_channel[i]) & 0x0000_00ff)
                | (u32::from_le_bytes(last_channel[i]) & 0x00ff_0000);
            floor[i] = word.to_le_bytes();
        }
    }

    /// The optics of `count` pixels from three smoothed rows (`rows[k][i + 1]` is column
    /// `column + i`).
    #[inline(always)]
    fn optics_smoothed(
        look: &NaturalLook,
        rows: [&[f32]; 3],
        column: f32,
        y: f32,
        chunk: &mut Chunk,
        count: usize,
    ) {
        // Each neighbour as its own slice, indexed by `i` alone: offsets within one slice
        // (`mid[i + 2]`) made the compiler run the last vector's worth of pixels one by one.
        let [up, mid, down] = rows.map(|r| &r[..count + 2]);
        let (left, centre, right) = (&mid[..count], &mid[1..count + 1], &mid[2..count + 2]);
        let (up_left, above, up_right) = (&up[..count], &up[1..count + 1], &up[2..count + 2]);
        let (down_left, below, down_right) =
            (&down[..count], &down[1..count + 1], &down[2..count + 2]);
        let offsets = &OFFSETS[..count];
        let mut outputs = Outputs::new(chunk, count);
        for i in 0..count {
            let (l, c, r) = (left[i], centre[i], right[i]);
            let (a, b) = (above[i], below[i]);
            let surface = [
                look.slope_scale * (r - l),
                look.slope_scale * (b - a),
                look.curvature_scale * ((r - c) - (c - l)),
                look.cross_scale * ((down_right[i] - down_left[i]) - (up_right[i] - up_left[i])),
                look.curvature_scale * ((b - c) - (c - a)),
            ];
            let light = optics(look, column + offsets[i], y, surface);
            outputs.set(i, light);
        }
    }

    /// The optics of `count` pixels `step` apart from `column` on, interpolating the surface
    /// between `rows[k][i]` and `rows[k][i + 1]` with `weight`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn optics_grid(
        look: &NaturalLook,
        rows: [&[f32]; 3],
        weight: f32,
        column: f32,
        step: f32,
        y: f32,
        chunk: &mut Chunk,
        count: usize,
    ) {
        let [p, q, focus] = rows.map(|r| &r[..count + 1]);
        let (p0, p1) = (&p[..count], &p[1..count + 1]);
        let (q0, q1) = (&q[..count], &q[1..count + 1]);
        let (focus0, focus1) = (&focus[..count], &focus[1..count + 1]);
        let offsets = &OFFSETS[..count];
        let mut outputs = Outputs::new(chunk, count);
        for i in 0..count {
            let p = p0[i] + (p1[i] - p0[i]) * weight;
            let q = q0[i] + (q1[i] - q0[i]) * weight;
            let focus = focus0[i] + (focus1[i] - focus0[i]) * weight;
            let light = optics_with_focus(look, column + step * offsets[i], y, p, q, focus);
            outputs.set(i, light);
        }
    }

    /// The optics' output arrays of a chunk, cut to `count`.
    struct Outputs<'a> {
        floor_x: &'a mut [f32],
        floor_y: &'a mut [f32],
        sky_x: &'a mut [f32],
        sky_y: &'a mut [f32],
        transmitted: &'a mut [f32],
        reflected: &'a mut [f32],
        sheen: &'a mut [f32],
    }

    impl<'a> Outputs<'a> {
        #[inline(always)]
        fn new(chunk: &'a mut Chunk, count: usize) -> Self {
            Self {
                floor_x: &mut chunk.floor_x[..count],
                floor_y: &mut chunk.floor_y[..count],
                sky_x: &mut chunk.sky_x[..count],
                sky_y: &mut chunk.sky_y[..count],
                transmitted: &mut chunk.transmitted[..count],
                reflected: &mut chunk.reflected[..count],
                sheen: &mut chunk.sheen[..count],
            }
        }

        /// Stores pixel `i`'s optics, in [`optics`]' order.
        #[inline(always)]
        fn set(&mut self, i: usize, light: [f32; 7]) {
            [
                self.floor_x[i],
                self.floor_y[i],
                self.sky_x[i],
                self.sky_y[i],
                self.transmitted[i],
                self.reflected[i],
                self.sheen[i],
            ] = light;
        }
    }

    /// One pixel's optics from its surface (see [`natural_render_row`]): the floor's and the
    /// sky's sample positions, and the transmitted, reflected and sheen factors.
    #[inline(always)]
    fn optics(look: &NaturalLook, column: f32, row: f32, surface: [f32; 5]) -> [f32; 7] {
        let [p, q, xx, xy, yy] = surface;
        let secant_squared = 1.0 + (p * p + q * q);
        let spread = caustic_spread(look, xx, xy, yy);
        // One division for two reciprocals.
        let inverse = 1.0 / (secant_squared * spread);
        let cos_squared = inverse * spread;
        let focus = inverse * secant_squared;
        light(look, column, row, p, q, cos_squared, focus)
    }

    /// [`optics`] from a slope and a caustic focus computed on the grid.
    #[inline(always)]
    fn optics_with_focus(
        look: &NaturalLook,
        column: f32,
        row: f32,
        p: f32,
        q: f32,
        focus: f32,
    ) -> [f32; 7] {
        let cos_squared = 1.0 / (1.0 + (p * p + q * q));
        light(look, column, row, p, q, cos_squared, focus)
    }

    /// `|det J|` of the sunlight's landing map, or [`MIN_SPREAD`] unless it is larger (NaN
    /// too).
    #[inline(always)]
    fn caustic_spread(look: &NaturalLook, xx: f32, xy: f32, yy: f32) -> f32 {
        let [c0, c1, c2] = look.caustic_trace;
        let trace = (c0 * xx + c1 * xy) + c2 * yy;
        let det = (1.0 + trace) + look.caustic_det * (xx * yy - xy * xy);
        let spread = det.abs();
        if spread > MIN_SPREAD {
            spread
        } else {
            MIN_SPREAD
        }
    }

    /// The optics once the squared cosine of incidence and the caustic focus are known.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn light(
        look: &NaturalLook,
        column: f32,
        row: f32,
        p: f32,
        q: f32,
        cos_squared: f32,
        focus: f32,
    ) -> [f32; 7] {
        let root = (cos_squared * (look.eta_complement + look.eta_squared * cos_squared)).sqrt();
        let bend = look.eta * cos_squared - root;
        let reach = (bend * look.depth) / (bend - look.eta);
        let floor_x = column + p * reach;
        let floor_y = row + q * reach;

        let gain = 1.0 + look.caustics * (focus - 1.0);
        let grazing = 1.0 - cos_squared.sqrt();
        let grazing_squared = grazing * grazing;
        let reflected = (1.0 - FRESNEL_HEAD_ON) * (grazing_squared * grazing_squared * grazing);
        let fresnel = FRESNEL_HEAD_ON + reflected;
        let transmitted = (1.0 - reflected) * gain;

        let [m_x, m_y, m_z] = look.sun_mirror;
        let sun_dot = cos_squared * ((p * m_x + q * m_y) + m_z) - look.sun[2];
        let mut glint = if sun_dot > GLINT_FLOOR { sun_dot } else { 0.0 };
        for _ in 0..GLINT_SQUARINGS {
            glint *= glint;
        }
        let bent = focus - 1.0;
        let stir = (p * p + q * q) * look.gate_slope + (bent * bent) * look.gate_focus;
        let activity = if stir < 1.0 { stir } else { 1.0 };
        let sheen = (fresnel * activity) * glint;

        const SPAN: f32 = SKY_SIDE as f32 / 2.0;
        let sky_x = SPAN - p * SPAN;
        let sky_y = SPAN - q * SPAN;
        [
            floor_x,
            floor_y,
            sky_x,
            sky_y,
            transmitted,
            reflected,
            sheen,
        ]
    }

    /// The blend of a chunk's samples and factors into bytes (see [`natural_render_row`]).
    #[inline(always)]
    fn blend(look: &NaturalLook, chunk: &Chunk, count: usize, out: &mut [[u8; 4]]) {
        let out = &mut out[..count];
        let (floor, sky) = (&chunk.floor[..count], &chunk.sky[..count]);
        let transmitted = &chunk.transmitted[..count];
        let (reflected, sheen) = (&chunk.reflected[..count], &chunk.sheen[..count]);
        let [t0, t1, t2] = look.transmittance;
        let [g0, g1, g2] = look.glint;
        for i in 0..count {
            let floor_word = u32::from_le_bytes(floor[i]);
            let sky_word = u32::from_le_bytes(sky[i]);
            let channel = |word: u32, shift: u32| ((word >> shift) & 0xff) as i32 as f32;
            let mix = |shift: u32, tint: f32, glint: f32| {
                let value = transmitted[i] * (channel(floor_word, shift) * tint)
                    + (reflected[i] * channel(sky_word, shift) + sheen[i] * glint);
                to_byte(value) << shift
            };
            let word =
                (floor_word & 0xff00_0000) | mix(0, t0, g0) | mix(8, t1, g1) | mix(16, t2, g2);
            out[i] = word.to_le_bytes();
        }
    }

    /// A channel value rounded to the nearest byte (ties to even), clamped to `0..=255` (NaN
    /// becomes 0). The rounding is the addition of 2^23, after which the float's low mantissa
    /// bits are the integer: exact IEEE arithmetic on every backend, where a float-to-integer
    /// conversion would not vectorise (Rust's saturating `as` becomes a branch per lane).
    #[inline(always)]
    fn to_byte(value: f32) -> u32 {
        (clamp_position(value, 255.0) + ROUNDING_BIAS).to_bits() & 0xff
    }

    /// 2^23: added to a float in `0..=255`, it leaves the rounded integer in the low bits.
    const ROUNDING_BIAS: f32 = 8_388_608.0;

    #[inline(always)]
    pub(super) fn smooth_columns<T: Copy + Into<f32>>(rows: [&[T]; 5], out: &mut [f32]) {
        let Some(width) = out.len().checked_sub(2 * COLUMN_PAD).filter(|&w| w > 0) else {
            return;
        };
        let [a, b, c, d, e] = rows.map(|row| &row[..width]);
        let sums = &mut out[COLUMN_PAD..COLUMN_PAD + width];
        for x in 0..width {
            sums[x] =
                (a[x].into() + e[x].into()) + 4.0 * (b[x].into() + d[x].into()) + 6.0 * c[x].into();
        }
        pad_mirrored(out, COLUMN_PAD);
    }

    #[inline(always)]
    pub(super) fn smooth_row(columns: &[f32], out: &mut [f32]) {
        let Some(width) = out.len().checked_sub(2 * ROW_PAD).filter(|&w| w > 0) else {
            return;
        };
        let c = &columns[..width + 2 * COLUMN_PAD];
        let (c0, c1, c2) = (&c[..width], &c[1..width + 1], &c[2..width + 2]);
        let (c3, c4) = (&c[3..width + 3], &c[4..width + 4]);
        let sums = &mut out[ROW_PAD..ROW_PAD + width];
        for x in 0..width {
            sums[x] = (c0[x] + c4[x]) + 4.0 * (c1[x] + c3[x]) + 6.0 * c2[x];
        }
        pad_mirrored(out, ROW_PAD);
    }

    #[inline(always)]
    pub(super) fn surface_row(
        up: &[f32],
        mid: &[f32],
        down: &[f32],
        look: &NaturalLook,
        out: [&mut [f32]; 3],
    ) {
        let [p, q, focus] = out;
        let padded = p.len();
        let Some(width) = padded.checked_sub(2 * ROW_PAD).filter(|&w| w > 0) else {
            return;
        };
        let (up, mid, down) = (&up[..padded], &mid[..padded], &down[..padded]);
        let inner = ROW_PAD..ROW_PAD + width;
        let (p_out, q_out) = (&mut p[inner.clone()], &mut q[inner.clone()]);
        let focus_out = &mut focus[inner];
        let (left, centre, right) = (&mid[..width], &mid[1..width + 1], &mid[2..width + 2]);
        let (up_left, above, up_right) = (&up[..width], &up[1..width + 1], &up[2..width + 2]);
        let (down_left, below, down_right) =
            (&down[..width], &down[1..width + 1], &down[2..width + 2]);
        for x in 0..width {
            let (l, c, r) = (left[x], centre[x], right[x]);
            let (a, b) = (above[x], below[x]);
            p_out[x] = look.slope_scale * (r - l);
            q_out[x] = look.slope_scale * (b - a);
            let xx = look.curvature_scale * ((r - c) - (c - l));
            let xy =
                look.cross_scale * ((down_right[x] - down_left[x]) - (up_right[x] - up_left[x]));
            let yy = look.curvature_scale * ((b - c) - (c - a));
            focus_out[x] = 1.0 / caustic_spread(look, xx, xy, yy);
        }
        for row in [p, q, focus] {
            row[0] = row[1];
            row[width + 1] = row[width];
        }
    }

    #[inline(always)]
    pub(super) fn lerp_rows(
        above: [&[f32]; 3],
        below: [&[f32]; 3],
        weight: f32,
        out: [&mut [f32]; 3],
    ) {
        for ((a, b), out) in above.into_iter().zip(below).zip(out) {
            let width = out.len();
            let (a, b) = (&a[..width], &b[..width]);
            for x in 0..width {
                out[x] = a[x] + (b[x] - a[x]) * weight;
            }
        }
    }

    /// Fills `pad` columns on each side of `row` with the row's own columns mirrored at its
    /// ends (column -1 is column 1).
    #[inline(always)]
    fn pad_mirrored(row: &mut [f32], pad: usize) {
        let width = row.len() - 2 * pad;
        for k in 1..=pad {
            let step = k as isize;
            row[pad - k] = row[pad + mirrored(0, -step, width)];
            row[pad + width - 1 + k] = row[pad + mirrored(width - 1, step, width)];
        }
    }
}

/// The stages compiled for one backend's instruction set, with its samplers (`bilinear_row_on`
/// and `nearest_row_on` for that backend). (Defined only where a
/// backend uses it: wasm32 without simd128 has none.)
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
macro_rules! backend_stages {
    ($stages:ident, $feature:literal, $backend:ident) => {
        #[allow(dead_code)]
        pub(super) mod $stages {
            use super::*;

            #[target_feature(enable = $feature)]
            pub(in crate::kernels::natural) fn render_row(
                row: RowJob<'_>,
                dst_row: &mut [[u8; 4]],
            ) {
                // The backend's samplers, through the functions the tests call (a dispatch per row).
                let samplers = Samplers {
                    bilinear: |src, width, height, xs, ys, out| {
                        bilinear_row_on(Backend::$backend, src, width, height, xs, ys, out)
                    },
                    nearest: |table, side, xs, ys, out| {
                        nearest_row_on(Backend::$backend, table, side, xs, ys, out)
                    },
                };
                plain::render_row(row, dst_row, samplers)
            }

            #[target_feature(enable = $feature)]
            pub(in crate::kernels::natural) fn smooth_columns<T: Copy + Into<f32>>(
                rows: [&[T]; 5],
                out: &mut [f32],
            ) {
                plain::smooth_columns(rows, out)
            }

            #[target_feature(enable = $feature)]
            pub(in crate::kernels::natural) fn smooth_row(columns: &[f32], out: &mut [f32]) {
                plain::smooth_row(columns, out)
            }

            #[target_feature(enable = $feature)]
            pub(in crate::kernels::natural) fn surface_row(
                up: &[f32],
                mid: &[f32],
                down: &[f32],
                look: &NaturalLook,
                out: [&mut [f32]; 3],
            ) {
                plain::surface_row(up, mid, down, look, out)
            }

            #[target_feature(enable = $feature)]
            pub(in crate::kernels::natural) fn lerp_rows(
                above: [&[f32]; 3],
                below: [&[f32]; 3],
                weight: f32,
                out: [&mut [f32]; 3],
            ) {
                plain::lerp_rows(above, below, weight, out)
            }
        }
    };
}

/// Every backend's copy of the stages, one module per instruction set (`stages::avx2`, ...),
/// where `per_backend!` and [`natural_render_row`] find them.
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod stages {
    use super::*;

    #[cfg(target_arch = "x86_64")]
    backend_stages!(avx512, "avx512f,avx512bw,avx512vl,avx512dq,avx2", Avx512);
    #[cfg(target_arch = "x86_64")]
    backend_stages!(avx2, "avx2", Avx2);
    #[cfg(target_arch = "x86_64")]
    backend_stages!(sse41, "sse4.1", Sse41);
    #[cfg(target_arch = "aarch64")]
    backend_stages!(neon, "neon", Neon);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    backend_stages!(simd128, "simd128", Simd128);
}

/// Bakes the built-in sky (a gradient from [`SKY_HORIZON`] to [`SKY_ZENITH`] with the height
/// of the direction, `horizon + (zenith - horizon) * max(z, 0)`, and the horizon's colour
/// beyond it) into a table of `SKY_SIDE * SKY_SIDE` texels (RGBA, alpha 255).
pub fn gradient_sky(out: &mut [[u8; 4]]) {
    for (index, texel) in out.iter_mut().enumerate().take(SKY_SIDE * SKY_SIDE) {
        let z = sky_texel_direction(index % SKY_SIDE, index / SKY_SIDE)[2].max(0.0);
        let colour: [f64; 3] = std::array::from_fn(|c| {
            let (horizon, zenith) = (f64::from(SKY_HORIZON[c]), f64::from(SKY_ZENITH[c]));
            horizon + (zenith - horizon) * z
        });
        *texel =
            [colour[0], colour[1], colour[2], 255.0].map(|c| c.round().clamp(0.0, 255.0) as u8);
    }
}

/// The sky direction at the centre of texel `(i, j)` of the sky table: the inverse
/// stereographic projection of `(u, v)` (see [`SKY_SIDE`]), a unit vector whose `z` is below 0
/// outside the unit disc.
pub fn sky_texel_direction(i: usize, j: usize) -> [f64; 3] {
    let to_plane = |k: usize| (k as f64 + 0.5) * 2.0 / SKY_SIDE as f64 - 1.0;
    sky_direction(to_plane(i), to_plane(j))
}

/// The sky direction at stereographic coordinates `(u, v)`.
pub fn sky_direction(u: f64, v: f64) -> [f64; 3] {
    let radius_squared = u * u + v * v;
    let scale = 1.0 / (1.0 + radius_squared);
    [
        2.0 * u * scale,
        2.0 * v * scale,
        (1.0 - radius_squared) * scale,
    ]
}
