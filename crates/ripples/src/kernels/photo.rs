//! The photo look's row kernel: a photograph's water, moved by the waves on its plane.
//!
//! What a photograph shows on its water is mostly a reflection of what stands above it, and the
//! photograph already holds that reflection, seen in calm water. A wave tilts the surface, and a
//! tilted facet reflects a ray from higher or lower: the facet at picture pixel `p` shows what
//! calm water shows where its own view ray has the direction the facet's reflected ray has, mirrored
//! into the water. So each water pixel is read from elsewhere in the photograph's own water, found
//! by projecting that mirrored ray through the camera; the reading point moves mostly vertically
//! (a small tilt towards the camera turns the reflected ray by twice the tilt, which near the
//! horizon is many rows), so reflections stretch and break into vertical streaks as they do on a
//! lake. Where the reading point falls on land, it is pulled back towards the pixel (half, a
//! quarter of the way, then the pixel itself), so the shore's colours never smear into the water.
//!
//! The facet also reflects more or less than calm water there would: Schlick's Fresnel term,
//! with water's 2% at normal incidence, is taken for the facet's incidence and for the calm
//! water's at the reading point, and their ratio scales the reflected part of the pixel. Which
//! part of a photographed pixel is reflection is unknown; it is estimated as `R / (R + BODY)`,
//! the reflectance over itself plus [`BODY`], the light that comes up from under the surface,
//! so the gain is near full close to the horizon (where the reflection is nearly all of it) and
//! weak looking down. Last, the sun: a facet whose reflected ray points within a few degrees of
//! the sun adds a glint, less what calm water reflects of the sun there (already in the photo).
//!
//! Flat water gives the pixel itself: where both slopes are zero the kernel copies it, so calm
//! water renders the photograph bit for bit. The slopes come per grid column, averaged by the
//! renderer over the grid rows around the pixel's row (at most four: averaging a far row's whole
//! footprint would flatten what makes far water shimmer).
//!
//! There is one kernel, this scalar one, and every [`Backend`](super::Backend) runs it, so every
//! backend is bit for bit the reference by construction. It is most of the look's frame (four
//! fifths of `perf`'s samples at 1280x720 when it still shaded pixel by pixel), and most of that
//! was the divisions and square roots of the facet's arithmetic. So it works through a row
//! `CHUNK` pixels at a time: first the arithmetic of all of them in one loop that reads nothing
//! from the photograph, which the compiler runs four pixels to an instruction (the same IEEE
//! operations in the same order, so the same bits), then each moving pixel's reads. No SIMD is
//! hand-written: what is left of the cost is the gathers of the bilinear reads and the fallback
//! towards the pixel, which vectors would take lane by lane. Its roundings are an add and a conversion
//! (`round_level`), exactly what `f32::round` gives without that function's call into the C
//! library, which alone was a tenth of the frame.

/// Light that comes up from under the surface, as a share of a full reflection: what a
/// photographed water pixel holds besides its reflection.
pub const BODY: f32 = 0.04;

/// Water's reflectance at normal incidence (Schlick's `R0` for a refractive index of 1.333).
pub const NORMAL_REFLECTANCE: f32 = 0.02;

/// The sun glint's exponent, as a power of two: `cos^256` falls to half within 4 degrees.
const GLINT_SQUARINGS: u32 = 8;

/// The camera and what every row shares.
#[derive(Debug, Clone, Copy)]
pub struct PhotoFrame<'a> {
    /// The photograph, RGBA or BGRA (alpha in byte 3), `width * height` pixels.
    pub src: &'a [[u8; 4]],
    /// One per pixel: `true` where the photograph shows water.
    pub water: &'a [bool],
    /// The picture's width in pixels.
    pub width: usize,
    /// The picture's height in pixels.
    pub height: usize,
    /// The picture's centre, where the optical axis goes through.
    pub centre: [f32; 2],
    /// The focal length in pixels.
    pub focal: f32,
    /// Sine and cosine of the camera's pitch below the horizontal.
    pub pitch: [f32; 2],
    /// The direction towards the sun: `[x, up, forward]`, unit length.
    pub sun: [f32; 3],
    /// Glint strength (0 = none, 1 = a full white glint where a facet mirrors the sun).
    pub glint: f32,
}

/// One picture row's place on the plane and the slopes under it.
#[derive(Debug, Clone, Copy)]
pub struct PhotoRow<'a> {
    /// The picture row.
    pub y: usize,
    /// The view ray's downward and forward components for this row (its component across the
    /// picture is `x + 0.5 - centre[0]`).
    pub down: f32,
    /// See `down`.
    pub forward: f32,
    /// Grid column of pixel `x`'s centre: `grid_x0 + grid_dx * (x + 0.5)`.
    pub grid_x0: f32,
    /// See `grid_x0`.
    pub grid_dx: f32,
    /// Per grid column, the surface slope along x (height over plane units) under this row.
    pub slope_x: &'a [f32],
    /// Per grid column, the slope along z (forward, away from the camera).
    pub slope_z: &'a [f32],
}

/// Pixels a row is worked through at a time: their arithmetic in one loop with no reads from
/// the photograph, which the compiler runs several pixels to a vector instruction, then their
/// reads.
const CHUNK: usize = 64;

/// Renders picture row `row.y` into `dst` (`width` pixels): water pixels from the photograph
/// moved by the slopes, the others copied.
pub fn photo_row(frame: &PhotoFrame<'_>, row: &PhotoRow<'_>, dst: &mut [[u8; 4]]) {
    let width = frame.width;
    let src_row = &frame.src[row.y * width..(row.y + 1) * width];
    let water_row = &frame.water[row.y * width..(row.y + 1) * width];
    let dst = &mut dst[..width];
    dst.copy_from_slice(src_row);
    if row.slope_x.is_empty() || row.slope_z.is_empty() {
        return;
    }
    let (mut slopes_x, mut slopes_z) = ([0.0f32; CHUNK], [0.0f32; CHUNK]);
    let mut facets = Facets::default();
    for start in (0..width).step_by(CHUNK) {
        let pixels = CHUNK.min(width - start);
        let mut moving = false;
        let chunk_slopes = slopes_x.iter_mut().zip(&mut slopes_z);
        for (i, (slope_x, slope_z)) in chunk_slopes.enumerate().take(pixels) {
            let x = start + i;
            [*slope_x, *slope_z] = if water_row[x] {
                let column = row.grid_x0 + row.grid_dx * (x as f32 + 0.5) - 0.5;
                lerp_columns(row.slope_x, row.slope_z, column)
            } else {
                [0.0, 0.0]
            };
            moving |= *slope_x != 0.0 || *slope_z != 0.0;
        }
        if !moving {
            continue;
        }
        for (i, (&slope_x, &slope_z)) in slopes_x.iter().zip(&slopes_z).enumerate() {
            facets.set(i, facet(frame, row, start + i, [slope_x, slope_z]));
        }
        let chunk_slopes = slopes_x.iter().zip(&slopes_z);
        for (i, (&slope_x, &slope_z)) in chunk_slopes.enumerate().take(pixels) {
            // Flat water (and land, whose slopes are zero here) keeps the photograph's pixel.
            if slope_x != 0.0 || slope_z != 0.0 {
                dst[start + i] = finish(frame, row.y, start + i, facets.get(i));
            }
        }
    }
}

/// The slopes at fractional column `column` (cell centres at whole numbers), clamped to the grid.
fn lerp_columns(slope_x: &[f32], slope_z: &[f32], column: f32) -> [f32; 2] {
    let last = slope_x.len().min(slope_z.len()) - 1;
    let clamped = column.clamp(0.0, last as f32);
    // Not negative, so the conversion's truncation is the floor.
    let left = clamped as usize;
    let right = (left + 1).min(last);
    let t = clamped - left as f32;
    let lerp = |values: &[f32]| values[left] + (values[right] - values[left]) * t;
    [lerp(slope_x), lerp(slope_z)]
}

/// What a tilted facet does to its pixel, before any read of the photograph.
#[derive(Debug, Clone, Copy, Default)]
struct Facet {
    /// Where calm water shows what the facet reflects, from the pixel's centre, in pixels.
    shift: [f32; 2],
    /// Whether that point is in front of the camera (`shift` means nothing otherwise).
    ahead: bool,
    /// Fresnel's gain on the pixel's colour.
    gain: f32,
    /// The sun's glint, in levels.
    light: f32,
}

/// A chunk's facets, a field to an array so that the loop filling them is vectorised.
struct Facets {
    shift_x: [f32; CHUNK],
    shift_y: [f32; CHUNK],
    ahead: [bool; CHUNK],
    gain: [f32; CHUNK],
    light: [f32; CHUNK],
}

impl Default for Facets {
    fn default() -> Self {
        Self {
            shift_x: [0.0; CHUNK],
            shift_y: [0.0; CHUNK],
            ahead: [false; CHUNK],
            gain: [0.0; CHUNK],
            light: [0.0; CHUNK],
        }
    }
}

impl Facets {
    fn set(&mut self, i: usize, facet: Facet) {
        self.shift_x[i] = facet.shift[0];
        self.shift_y[i] = facet.shift[1];
        self.ahead[i] = facet.ahead;
        self.gain[i] = facet.gain;
        self.light[i] = facet.light;
    }

    fn get(&self, i: usize) -> Facet {
        Facet {
            shift: [self.shift_x[i], self.shift_y[i]],
            ahead: self.ahead[i],
            gain: self.gain[i],
            light: self.light[i],
        }
    }
}

/// The facet at pixel `x` of `row` under the slopes there: arithmetic only, the same for
/// every pixel (flat water included, whose result is not used).
#[inline(always)]
fn facet(
    frame: &PhotoFrame<'_>,
    row: &PhotoRow<'_>,
    x: usize,
    [slope_x, slope_z]: [f32; 2],
) -> Facet {
    // The view ray, world `[x, up, forward]`, unit length.
    let view = normalise([x as f32 + 0.5 - frame.centre[0], -row.down, row.forward]);
    let normal = normalise([-slope_x, 1.0, -slope_z]);
    let along = dot(view, normal);
    let reflected = normalise([
        view[0] - 2.0 * along * normal[0],
        view[1] - 2.0 * along * normal[1],
        view[2] - 2.0 * along * normal[2],
    ]);
    // Calm water shows the reflected ray where its own view ray is the ray mirrored downwards.
    // The view ray mirrored downwards is the ray through the pixel's own centre, so the shift is
    // measured from there.
    let rising = reflected[1].max(1e-3);
    let ([there_x, there_y], ahead) = project(frame, [reflected[0], rising, reflected[2]]);
    let facet = schlick(-along);
    let calm_there = schlick(rising);
    let reflected_share = calm_there / (calm_there + BODY);
    let gain = 1.0 + reflected_share * ((facet / calm_there).min(4.0) - 1.0);
    let flat = [view[0], -view[1], view[2]];
    let glint =
        frame.glint * (sun_power(frame.sun, reflected) - sun_power(frame.sun, flat)).max(0.0);
    Facet {
        shift: [there_x - (x as f32 + 0.5), there_y - (row.y as f32 + 0.5)],
        ahead,
        gain,
        light: 255.0 * glint,
    }
}

/// Pixel `(x, y)` under `facet`: the photograph's water read where the facet points, scaled by
/// its gain, with its glint.
fn finish(frame: &PhotoFrame<'_>, y: usize, x: usize, facet: Facet) -> [u8; 4] {
    let pixel = frame.src[y * frame.width + x];
    let sample = if facet.ahead {
        sample_water(frame, x, y, facet.shift).unwrap_or(pixel)
    } else {
        pixel
    };
    // Never negative (the gain is positive, the light too): rounded and clamped to 255.
    let channel = |c: usize| round_level(f32::from(sample[c]) * facet.gain + facet.light);
    [channel(0), channel(1), channel(2), pixel[3]]
}

/// The photograph's water at pixel `(x, y)` moved by `shift` pixels, read bilinearly; if that
/// point is not water, half and a quarter of the way; `None` if none of them is.
fn sample_water(frame: &PhotoFrame<'_>, x: usize, y: usize, shift: [f32; 2]) -> Option<[u8; 4]> {
    [1.0f32, 0.5, 0.25].into_iter().find_map(|part| {
        let u = x as f32 + shift[0] * part;
        let v = y as f32 + shift[1] * part;
        // The nearest pixel is inside from -0.5 up (rounding goes half away from zero).
        let (near_x, near_y) = (round_non_negative(u), round_non_negative(v));
        let inside = u > -0.5
            && v > -0.5
            && (near_x as usize) < frame.width
            && (near_y as usize) < frame.height;
        (inside && frame.water[near_y as usize * frame.width + near_x as usize])
            .then(|| bilinear(frame, u, v))
    })
}

/// The photograph at fractional pixel `(u, v)` (pixel centres at whole numbers), edges clamped.
fn bilinear(frame: &PhotoFrame<'_>, u: f32, v: f32) -> [u8; 4] {
    let (max_x, max_y) = ((frame.width - 1) as f32, (frame.height - 1) as f32);
    let (u, v) = (u.clamp(0.0, max_x), v.clamp(0.0, max_y));
    // Not negative, so the conversion's truncation is the floor.
    let (x0, y0) = (u as usize, v as usize);
    let (x1, y1) = (
        (x0 + 1).min(frame.width - 1),
        (y0 + 1).min(frame.height - 1),
    );
    let (tx, ty) = (u - x0 as f32, v - y0 as f32);
    let at = |x: usize, y: usize| frame.src[y * frame.width + x];
    let (a, b, c, d) = (at(x0, y0), at(x1, y0), at(x0, y1), at(x1, y1));
    let mut out = a;
    for channel in 0..3 {
        let top = f32::from(a[channel]) + (f32::from(b[channel]) - f32::from(a[channel])) * tx;
        let bottom = f32::from(c[channel]) + (f32::from(d[channel]) - f32::from(c[channel])) * tx;
        out[channel] = round_level(top + (bottom - top) * ty);
    }
    out
}

/// The picture point where world direction `[x, down, forward]` is seen, and whether it is in
/// front of the camera (the point means nothing otherwise).
#[inline(always)]
fn project(frame: &PhotoFrame<'_>, [x, down, forward]: [f32; 3]) -> ([f32; 2], bool) {
    let [sin, cos] = frame.pitch;
    let along_axis = forward * cos + down * sin;
    let down_in_picture = down * cos - forward * sin;
    let pixels_per_unit = frame.focal / along_axis;
    (
        [
            frame.centre[0] + x * pixels_per_unit,
            frame.centre[1] + down_in_picture * pixels_per_unit,
        ],
        along_axis > 1e-6,
    )
}

/// Just under a half: `x + HALF_DOWN`, truncated, is `x` rounded half away from zero for every
/// `x >= 0` (the sum never rounds up past the next whole number, and a half rounds up to it).
const HALF_DOWN: f32 = f32::from_bits(0x3eff_ffff);

/// `x.round()` for `x > -0.5`, where `round` is a call into the C library on most targets and
/// this is an add and a conversion; negative `x` (all of which round to -0) give 0.
fn round_non_negative(x: f32) -> f32 {
    ((x + HALF_DOWN) as u32) as f32
}

/// `x.round().clamp(0.0, 255.0) as u8` for `x >= 0`: the conversion saturates at 255.
fn round_level(x: f32) -> u8 {
    (x + HALF_DOWN) as u8
}

/// Schlick's approximation of water's reflectance for an incidence whose cosine is `cosine`.
fn schlick(cosine: f32) -> f32 {
    let c = 1.0 - cosine.clamp(0.0, 1.0);
    let c2 = c * c;
    NORMAL_REFLECTANCE + (1.0 - NORMAL_REFLECTANCE) * c2 * c2 * c
}

/// How nearly `ray` points at the sun: `cos^256` of the angle between them.
fn sun_power(sun: [f32; 3], ray: [f32; 3]) -> f32 {
    let mut power = dot(sun, ray).max(0.0);
    for _ in 0..GLINT_SQUARINGS {
        power *= power;
    }
    power
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalise(v: [f32; 3]) -> [f32; 3] {
    // One division, not three: the reciprocal's rounding moves the result by an ulp or so.
    let inverse = 1.0 / dot(v, v).sqrt();
    [v[0] * inverse, v[1] * inverse, v[2] * inverse]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame<'a>(src: &'a [[u8; 4]], water: &'a [bool], size: usize) -> PhotoFrame<'a> {
        PhotoFrame {
            src,
            water,
            width: size,
            height: size,
            centre: [size as f32 / 2.0; 2],
            focal: size as f32,
            pitch: [0.2f32.sin(), 0.2f32.cos()],
            sun: normalise([0.0, 0.3, 1.0]),
            glint: 1.0,
        }
    }

    #[test]
    fn the_quick_roundings_are_the_library_s() {
        // Every whole and half number up to 1100 and the floats a few steps either side of
        // them, where a rounding goes wrong if it does, and a spread of others.
        let mut values = vec![0.0f32, -0.0, -0.25, -0.4999, 1e-30];
        for twice in 0..2200u32 {
            let at = twice as f32 / 2.0;
            for step in -4i32..=4 {
                values.push(f32::from_bits(at.to_bits().saturating_add_signed(step)));
            }
        }
        let mut state = 0x9e37_79b9u32;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            values.push(f32::from_bits(state) % 1100.0);
        }
        for x in values.into_iter().filter(|x| x.is_finite() && *x > -0.5) {
            let expected = x.round().max(0.0);
            assert_eq!(round_non_negative(x), expected, "{x:e}");
            if x >= 0.0 {
                assert_eq!(round_level(x), x.round().clamp(0.0, 255.0) as u8, "{x:e}");
            }
        }
    }

    #[test]
    fn the_row_in_chunks_is_each_pixel_on_its_own() {
        // 150 pixels: two whole chunks and a part; land, flat water and moving water mixed, so
        // a chunk with nothing moving, one with everything and one with some all occur.
        let size = 150;
        let src: Vec<[u8; 4]> = (0..size * size)
            .map(|i| {
                [
                    (i * 7 % 251) as u8,
                    (i * 13 % 241) as u8,
                    (i % 256) as u8,
                    255,
                ]
            })
            .collect();
        let water: Vec<bool> = (0..size * size).map(|i| i % size % 37 != 5).collect();
        let frame = frame(&src, &water, size);
        // Flat for the first 7 cells, then a jagged slope of `scale` per step.
        let slopes = |multiplier: usize, modulus: usize, scale: f32| -> Vec<f32> {
            let centre = (modulus / 2) as f32;
            let slope = |i: usize| ((i * multiplier % modulus) as f32 - centre) * scale;
            (0..40)
                .map(|i| if i < 7 { 0.0 } else { slope(i) })
                .collect()
        };
        let (slope_x, slope_z) = (slopes(29, 17, 0.003), slopes(11, 13, 0.004));
        let row = PhotoRow {
            y: 100,
            down: 0.3 * 150.0,
            forward: 150.0,
            grid_x0: 0.0,
            grid_dx: 0.25,
            slope_x: &slope_x,
            slope_z: &slope_z,
        };
        let mut dst = vec![[0u8; 4]; size];
        photo_row(&frame, &row, &mut dst);
        let mut moved = 0;
        for (x, &out) in dst.iter().enumerate() {
            let here = src[row.y * size + x];
            let column = row.grid_x0 + row.grid_dx * (x as f32 + 0.5) - 0.5;
            let slopes = lerp_columns(&slope_x, &slope_z, column);
            let expected = if !water[row.y * size + x] || slopes == [0.0, 0.0] {
                here
            } else {
                finish(&frame, row.y, x, facet(&frame, &row, x, slopes))
            };
            assert_eq!(out, expected, "pixel {x}");
            moved += usize::from(out != here);
        }
        assert!(moved > 60, "{moved} pixels moved");
    }

    #[test]
    fn flat_water_copies_the_photograph_and_a_tilt_moves_the_reflection_vertically() {
        let size = 64;
        // Rows darken downwards, so a vertical move of the reading point shows.
        let src: Vec<[u8; 4]> = (0..size * size)
            .map(|i| {
                [
                    (255 - 3 * (i / size)) as u8,
                    200,
                    (100 + i % size) as u8,
                    255,
                ]
            })
            .collect();
        let water = vec![true; size * size];
        let frame = frame(&src, &water, size);
        let zeros = vec![0.0; 8];
        let mut dst = vec![[0u8; 4]; size];
        let mut row = PhotoRow {
            y: 40,
            down: 0.3 * 64.0,
            forward: 64.0,
            grid_x0: 0.0,
            grid_dx: 0.1,
            slope_x: &zeros,
            slope_z: &zeros,
        };
        photo_row(&frame, &row, &mut dst);
        assert_eq!(dst, src[40 * size..41 * size]);
        // A facet leaning away from the camera (height falling away from it) reflects a ray
        // nearer the horizontal, which calm water shows nearer the horizon: from a row above,
        // brighter in red. The Fresnel gain scales the channels alike, so red over green tells
        // the row read, and blue over green the column.
        let tilt = vec![-0.02; 8];
        row.slope_z = &tilt;
        photo_row(&frame, &row, &mut dst);
        let ratio = |p: [u8; 4], c: usize| f32::from(p[c]) / f32::from(p[1]);
        let (read, here) = (dst[32], src[40 * size + 32]);
        assert!(
            ratio(read, 0) > ratio(here, 0) + 0.02,
            "{read:?} read, {here:?} here"
        );
        assert!(
            (ratio(read, 2) - ratio(here, 2)).abs() < 0.01,
            "no sideways move"
        );
    }
}
