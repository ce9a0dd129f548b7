//! Drawing floats over a rendered frame: a shaded disc (or the float's own picture) and, in the
//! natural look, its shadow on the pool floor.
//!
//! Floats are drawn after the water, like the walls: they sit on the surface, so nothing of the
//! refraction passes through them, and the water's renderers stay unaware of them (no cost
//! without floats: [`draw_floats`] returns at once). Per float the work is its own bounding box,
//! a few hundred pixels for a duck, so plain Rust is enough: no kernel.
//!
//! - **The disc** is shaded as a shallow dome lit from the sun of the natural look (or the light
//!   of the lit look; from the upper left in the others): Lambert's law with a little ambient
//!   light, a soft sheen, a darker rim one and a half pixels wide and a faint wet line where the
//!   water meets it, so it reads as a leaf or a buoy at any size. Its colour says its density:
//!   light floats are leaves (green, with a midrib), middling ones buoys (yellow, a pale band),
//!   dense ones wood (brown). Edges are anti-aliased by coverage.
//! - **A picture** (`image =` in a scene) is scaled to the disc's bounding square (bilinear,
//!   straight alpha blended over the water), so its alpha draws the shape.
//! - **The shadow** (natural look only: the other looks have no floor to cast it on) falls on
//!   the floor `depth` pixels under the surface, along the sunlight refracted into the water
//!   (Snell's law, `n = 1.33`), so it is offset from the float by `depth * tan(refracted angle)`
//!   away from the sun, and softened by a penumbra that grows with that depth (the sun's disc
//!   and the light the water scatters). It darkens what the water shows of the floor there by
//!   [`SHADOW_DARKNESS`] at most (the water's own scattered light fills the rest).

use crate::disturbances::float::Float;
use crate::kernels::natural::PixelOrder;
use crate::looks::{Look, NaturalSettings};

/// The fraction of light a float's shadow takes from the floor at its darkest.
pub const SHADOW_DARKNESS: f32 = 0.55;

/// The refractive index of water.
const WATER_INDEX: f32 = 1.33;

/// Draws `floats` over `frame` (`width` pixels a row, in `order`), with `look`'s light.
pub(crate) fn draw_floats<'a>(
    floats: impl Iterator<Item = &'a Float> + Clone,
    look: &Look,
    order: PixelOrder,
    frame: &mut [[u8; 4]],
    width: usize,
) {
    if width == 0 || floats.clone().next().is_none() {
        return;
    }
    let height = frame.len() / width;
    let canvas = Canvas {
        frame,
        width,
        height,
        order,
    };
    let mut canvas = canvas;
    let light = light_direction(look);
    if let Look::Natural(natural) = look {
        let (offset, penumbra) = shadow_geometry(natural);
        for float in floats.clone() {
            canvas.shadow(float, offset, penumbra);
        }
    }
    for float in floats {
        match float.image() {
            Some(image) => canvas.picture(float, image.width(), image.height(), image.rgba()),
            None => canvas.disc(float, light),
        }
    }
}

/// The direction towards the light, as a unit vector `[x, y, up]` in image axes (y down).
fn light_direction(look: &Look) -> [f32; 3] {
    let (azimuth, elevation) = match look {
        Look::Natural(natural) => (natural.sun_azimuth, natural.sun_elevation),
        Look::Lit(lit) => (lit.light_angle, 45.0),
        _ => (135.0, 50.0),
    };
    let (azimuth, elevation) = (azimuth.to_radians(), elevation.to_radians());
    [
        azimuth.cos() * elevation.cos(),
        -azimuth.sin() * elevation.cos(),
        elevation.sin(),
    ]
}

/// Where a float's shadow falls from it on the floor of the natural look, in pixels, and how
/// wide its penumbra is.
fn shadow_geometry(look: &NaturalSettings) -> ([f32; 2], f32) {
    let zenith = (90.0 - look.sun_elevation).to_radians();
    let refracted = (zenith.sin() / WATER_INDEX).asin();
    let reach = look.depth * refracted.tan();
    let azimuth = look.sun_azimuth.to_radians();
    // Away from the sun, which lies towards (cos, -sin) in image axes.
    let offset = [-azimuth.cos() * reach, azimuth.sin() * reach];
    let penumbra = 1.0 + 0.08 * look.depth;
    (offset, penumbra)
}

/// The colour of a float drawn as a disc, from its density.
fn disc_colour(density: f32) -> [f32; 3] {
    if density < 0.3 {
        [92.0, 150.0, 60.0] // a leaf
    } else if density < 0.6 {
        [236.0, 186.0, 40.0] // a buoy
    } else {
        [140.0, 92.0, 52.0] // wood
    }
}

/// A frame to draw on.
struct Canvas<'a> {
    frame: &'a mut [[u8; 4]],
    width: usize,
    height: usize,
    order: PixelOrder,
}

impl Canvas<'_> {
    /// Calls `paint(pixel, dx, dy)` for every pixel of the frame within `reach` of `centre`
    /// (offsets from the centre, in pixels, measured to the pixel's centre).
    fn each_pixel(
        &mut self,
        centre: [f32; 2],
        reach: f32,
        mut paint: impl FnMut(&mut [u8; 4], f32, f32),
    ) {
        let [cx, cy] = centre;
        if !(cx.is_finite() && cy.is_finite() && reach.is_finite()) {
            return;
        }
        let x_start = (cx - reach).floor().max(0.0) as usize;
        let y_start = (cy - reach).floor().max(0.0) as usize;
        let x_end = ((cx + reach).ceil() + 1.0).clamp(0.0, self.width as f32) as usize;
        let y_end = ((cy + reach).ceil() + 1.0).clamp(0.0, self.height as f32) as usize;
        for y in y_start..y_end {
            let row = &mut self.frame[y * self.width..(y + 1) * self.width];
            let dy = y as f32 - cy;
            for (x, pixel) in row.iter_mut().enumerate().take(x_end).skip(x_start) {
                paint(pixel, x as f32 - cx, dy);
            }
        }
    }

    /// Blends `colour` (RGB, straight) over a pixel with `alpha` in `0..=1`.
    fn blend(order: PixelOrder, pixel: &mut [u8; 4], colour: [f32; 3], alpha: f32) {
        let [r, g, b] = colour;
        let ordered = match order {
            PixelOrder::Rgba => [r, g, b],
            PixelOrder::Bgra => [b, g, r],
        };
        for (channel, value) in pixel.iter_mut().zip(ordered) {
            let mixed = f32::from(*channel) + (value - f32::from(*channel)) * alpha;
            *channel = mixed.round().clamp(0.0, 255.0) as u8;
        }
    }

    /// The soft shadow of a float, `offset` from it, its edge blurred over `penumbra` pixels.
    fn shadow(&mut self, float: &Float, offset: [f32; 2], penumbra: f32) {
        let [x, y] = float.position();
        let radius = float.radius() as f32 * if float.image().is_some() { 0.8 } else { 1.0 };
        let centre = [x + offset[0], y + offset[1]];
        self.each_pixel(centre, radius + penumbra, |pixel, dx, dy| {
            let d = dx.hypot(dy);
            let cover = smoothstep((radius + penumbra - d) / (2.0 * penumbra));
            if cover > 0.0 {
                let keep = 1.0 - SHADOW_DARKNESS * cover;
                for channel in &mut pixel[..3] {
                    *channel = (f32::from(*channel) * keep).round() as u8;
                }
            }
        });
    }

    /// A shaded disc: a shallow dome lit from `light`, with a darker rim and a wet line round
    /// it; a leaf has a midrib, a buoy a pale band.
    fn disc(&mut self, float: &Float, light: [f32; 3]) {
        let radius = float.radius() as f32;
        let density = float.density();
        let colour = disc_colour(density);
        let leaf = density < 0.3;
        let buoy = (0.3..0.6).contains(&density);
        // The midrib's direction: any, but the same for the same float.
        let (sin, cos) = (radius * 0.7 + float.thickness()).sin_cos();
        let order = self.order;
        self.each_pixel(float.position(), radius + 2.0, |pixel, dx, dy| {
            let d = dx.hypot(dy);
            // The meniscus: a faint dark line where the water meets it.
            let wet = smoothstep(1.0 - (d - radius - 0.5).abs() / 1.5);
            if wet > 0.0 {
                Self::blend(order, pixel, [20.0, 24.0, 28.0], 0.3 * wet);
            }
            let cover = (radius + 0.5 - d).clamp(0.0, 1.0);
            if cover <= 0.0 {
                return;
            }
            // A dome rising a third of the radius: its normal tilts out towards the edge.
            let (nx, ny) = (0.35 * dx / radius, 0.35 * dy / radius);
            let norm = (nx * nx + ny * ny + 1.0).sqrt();
            let normal = [nx / norm, ny / norm, 1.0 / norm];
            let facing =
                (normal[0] * light[0] + normal[1] * light[1] + normal[2] * light[2]).max(0.0);
            // Blinn's half vector with the viewer straight above: a broad, soft sheen.
            let half = [light[0], light[1], light[2] + 1.0];
            let half_norm = (half[0] * half[0] + half[1] * half[1] + half[2] * half[2]).sqrt();
            let sheen = ((normal[0] * half[0] + normal[1] * half[1] + normal[2] * half[2])
                / half_norm)
                .max(0.0)
                .powi(16);
            let rim = 1.0 - 0.5 * smoothstep((d - (radius - 1.5)) / 1.5);
            let mut base = colour;
            if leaf && (dx * sin - dy * cos).abs() < 0.6 && d < radius - 1.0 {
                base = base.map(|c| c * 0.72);
            }
            if buoy && (d / radius - 0.62).abs() < 0.1 {
                base = [245.0, 240.0, 228.0];
            }
            let shade = (0.4 + 0.7 * facing) * rim;
            let lit = base.map(|c| (c * shade + 60.0 * sheen).min(255.0));
            Self::blend(order, pixel, lit, cover);
        });
    }

    /// The float's picture, scaled to the disc's bounding square, alpha blended.
    fn picture(&mut self, float: &Float, width: u32, height: u32, rgba: &[u8]) {
        let radius = float.radius() as f32;
        let (w, h) = (width as usize, height as usize);
        let order = self.order;
        let texel = |x: usize, y: usize| -> [f32; 4] {
            let i = (y * w + x) * 4;
            [
                f32::from(rgba[i]),
                f32::from(rgba[i + 1]),
                f32::from(rgba[i + 2]),
                f32::from(rgba[i + 3]),
            ]
        };
        self.each_pixel(float.position(), radius, |pixel, dx, dy| {
            // Where this pixel falls in the picture, in its pixels (centres at +0.5).
            let u = (dx + radius) / (2.0 * radius) * width as f32 - 0.5;
            let v = (dy + radius) / (2.0 * radius) * height as f32 - 0.5;
            if !(u > -1.0 && v > -1.0 && u < width as f32 && v < height as f32) {
                return;
            }
            let (x0, y0) = (u.floor(), v.floor());
            let (fx, fy) = (u - x0, v - y0);
            let clamp_x = |x: f32| (x.max(0.0) as usize).min(w - 1);
            let clamp_y = |y: f32| (y.max(0.0) as usize).min(h - 1);
            let (xa, xb, ya, yb) = (
                clamp_x(x0),
                clamp_x(x0 + 1.0),
                clamp_y(y0),
                clamp_y(y0 + 1.0),
            );
            // Bilinear on premultiplied colour, so transparent texels lend no colour.
            let mut sum = [0.0f32; 4];
            for (x, y, weight) in [
                (xa, ya, (1.0 - fx) * (1.0 - fy)),
                (xb, ya, fx * (1.0 - fy)),
                (xa, yb, (1.0 - fx) * fy),
                (xb, yb, fx * fy),
            ] {
                let [r, g, b, a] = texel(x, y);
                let alpha = a / 255.0;
                sum[0] += weight * r * alpha;
                sum[1] += weight * g * alpha;
                sum[2] += weight * b * alpha;
                sum[3] += weight * alpha;
            }
            if sum[3] > 0.0 {
                let colour = [sum[0] / sum[3], sum[1] / sum[3], sum[2] / sum[3]];
                Self::blend(order, pixel, colour, sum[3].min(1.0));
            }
        });
    }
}

/// `3t² - 2t³` of `t` clamped to `0..=1`.
fn smoothstep(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}
