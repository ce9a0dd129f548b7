//! Fitting a picture of one size into a pool of another, as CSS's `object-fit` does: `cover`
//! (scale to fill, crop the centre; the default), `contain` (show all of it, bars around) or
//! `stretch` (scale each axis on its own).
//!
//! A [`Placement`] says which part of the picture is shown and where it is drawn, in whole
//! pixels, and the same placement gives the affine map ([`Placement::scale`],
//! [`Placement::offset`]) that moves a scene's stones with the picture, so a stone falls on the
//! same spot of the picture at any pool size. Cover crops *before* resampling, so a picture of
//! an extreme shape never makes an intermediate image larger than the pool.

use std::fmt;

use anyhow::{Context, Result};
use image::{RgbaImage, imageops::FilterType};

use crate::input::source_image::SourceImage;

/// How a picture meets a pool of another shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fit {
    /// Scale to fill the pool, keeping the picture's shape, and crop what sticks out (centred).
    #[default]
    Cover,
    /// Scale to fit inside the pool, keeping the picture's shape; bars fill the rest.
    Contain,
    /// Scale each axis on its own to the pool's size, distorting the picture.
    Stretch,
}

impl Fit {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Cover => "cover",
            Self::Contain => "contain",
            Self::Stretch => "stretch",
        }
    }
}

impl fmt::Display for Fit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Fit {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim() {
            "cover" => Ok(Self::Cover),
            "contain" => Ok(Self::Contain),
            "stretch" => Ok(Self::Stretch),
            other => Err(format!(
                "fit must be 'cover', 'contain' or 'stretch', got '{other}'"
            )),
        }
    }
}

/// A rectangle in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width, at least 1.
    pub width: u32,
    /// Height, at least 1.
    pub height: u32,
}

impl Rect {
    fn whole((width, height): (u32, u32)) -> Self {
        Self {
            x: 0,
            y: 0,
            width,
            height,
        }
    }
}

/// Where a picture of size `from` goes in a pool of size `to`: the part `shown` of the picture
/// is resampled onto the part `drawn` of the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// How it was fitted.
    pub fit: Fit,
    /// The picture's size.
    pub from: (u32, u32),
    /// The pool's size.
    pub to: (u32, u32),
    /// The part of the picture that is shown (all of it but for a cropping `cover`).
    pub shown: Rect,
    /// Where it lands in the pool (all of it but for a letterboxing `contain`).
    pub drawn: Rect,
}

impl Placement {
    /// Places a `from` picture in a `to` pool (both at least 1x1).
    pub fn new(fit: Fit, from: (u32, u32), to: (u32, u32)) -> Self {
        let (from_w, from_h) = (u64::from(from.0.max(1)), u64::from(from.1.max(1)));
        let (to_w, to_h) = (u64::from(to.0.max(1)), u64::from(to.1.max(1)));
        // `a * b / c` rounded, within 1..=limit (the products fit: sides are below 2^32).
        let scaled =
            |a: u64, b: u64, c: u64, limit: u64| ((a * b + c / 2) / c).clamp(1, limit) as u32;
        // The pool is relatively wider than the picture when to_w / to_h >= from_w / from_h.
        let pool_is_wider = to_w * from_h >= to_h * from_w;
        let (mut shown, mut drawn) = (Rect::whole(from), Rect::whole(to));
        match fit {
            Fit::Stretch => {}
            Fit::Cover if pool_is_wider => {
                // Full width, a band of the picture's height.
                shown.height = scaled(to_h, from_w, to_w, from_h);
                shown.y = (from.1 - shown.height) / 2;
            }
            Fit::Cover => {
                shown.width = scaled(to_w, from_h, to_h, from_w);
                shown.x = (from.0 - shown.width) / 2;
            }
            Fit::Contain if pool_is_wider => {
                // Full height, bars left and right.
                drawn.width = scaled(from_w, to_h, from_h, to_w);
                drawn.x = (to.0 - drawn.width) / 2;
            }
            Fit::Contain => {
                drawn.height = scaled(from_h, to_w, from_w, to_h);
                drawn.y = (to.1 - drawn.height) / 2;
            }
        }
        Self {
            fit,
            from,
            to,
            shown,
            drawn,
        }
    }

    /// Whether the picture is already the pool's size.
    pub fn is_identity(&self) -> bool {
        self.from == self.to
    }

    /// Pool pixels per picture pixel, along x and y.
    pub fn scale(&self) -> [f64; 2] {
        [
            f64::from(self.drawn.width) / f64::from(self.shown.width),
            f64::from(self.drawn.height) / f64::from(self.shown.height),
        ]
    }

    /// Where the picture's top-left corner lands in the pool, in pixels (negative when cropped):
    /// a point `p` of the picture goes to `p * scale + offset`.
    pub fn offset(&self) -> [f64; 2] {
        let [scale_x, scale_y] = self.scale();
        [
            f64::from(self.drawn.x) - f64::from(self.shown.x) * scale_x,
            f64::from(self.drawn.y) - f64::from(self.shown.y) * scale_y,
        ]
    }

    /// Whether part of the picture is cut off.
    pub fn crops(&self) -> bool {
        self.shown != Rect::whole(self.from)
    }

    /// Whether part of the pool is outside the picture.
    pub fn letterboxes(&self) -> bool {
        self.drawn != Rect::whole(self.to)
    }

    /// Whether the picture's shape changes (stretching a picture into a pool of another shape).
    pub fn distorts(&self) -> bool {
        self.fit == Fit::Stretch && Placement::new(Fit::Cover, self.from, self.to).crops()
    }

    /// One line saying what was done to `what` ("image", "scene"), when it was more than a
    /// resize that keeps the shape: `image 512x512 cropped to fill 640x240 (...)`.
    pub fn describe(&self, what: &str) -> Option<String> {
        let (from, to) = (
            format!("{}x{}", self.from.0, self.from.1),
            format!("{}x{}", self.to.0, self.to.1),
        );
        if self.crops() {
            Some(format!(
                "{what} {from} cropped to fill {to} (--fit contain shows all of it, --fit \
                 stretch distorts it to fit)"
            ))
        } else if self.letterboxes() {
            Some(format!(
                "{what} {from} letterboxed in {to}, bars of the --background colour (--fit \
                 cover fills the pool)"
            ))
        } else if self.distorts() {
            Some(format!(
                "{what} {from} stretched to {to} (--fit cover keeps its shape)"
            ))
        } else {
            None
        }
    }
}

/// What fills the pool outside a letterboxed picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// An opaque colour (the bars of a contained picture).
    Colour([u8; 3]),
    /// The nearest edge pixel of the picture, repeated (for maps: walls and springs continue).
    Edge,
}

/// The picture resampled into a pool of `placement.to` pixels (unchanged at the same size).
pub fn fit_picture(picture: SourceImage, placement: &Placement, fill: Fill) -> Result<SourceImage> {
    if placement.is_identity() {
        return Ok(picture);
    }
    let (shown, drawn) = (placement.shown, placement.drawn);
    let image = RgbaImage::from_raw(picture.width, picture.height, picture.pixels)
        .context("internal error: image buffer does not match its size")?;
    let part = image::imageops::crop_imm(&image, shown.x, shown.y, shown.width, shown.height);
    let resampled = if (shown.width, shown.height) == (drawn.width, drawn.height) {
        part.to_image()
    } else {
        image::imageops::resize(&*part, drawn.width, drawn.height, FilterType::CatmullRom)
    };
    let (width, height) = placement.to;
    if (drawn.width, drawn.height) == (width, height) {
        return Ok(SourceImage {
            width,
            height,
            pixels: resampled.into_raw(),
        });
    }
    let mut pixels = Vec::with_capacity(width as usize * height as usize * 4);
    for y in 0..height {
        let inside_y = (drawn.y..drawn.y + drawn.height).contains(&y);
        let source_y = y.saturating_sub(drawn.y).min(drawn.height - 1);
        for x in 0..width {
            let inside = inside_y && (drawn.x..drawn.x + drawn.width).contains(&x);
            let source_x = x.saturating_sub(drawn.x).min(drawn.width - 1);
            let pixel = match fill {
                Fill::Colour([r, g, b]) if !inside => [r, g, b, 255],
                _ => resampled.get_pixel(source_x, source_y).0,
            };
            pixels.extend_from_slice(&pixel);
        }
    }
    Ok(SourceImage {
        width,
        height,
        pixels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: u32, y: u32, width: u32, height: u32) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn names_parse_and_bad_ones_are_named() {
        assert_eq!("cover".parse(), Ok(Fit::Cover));
        assert_eq!("contain".parse(), Ok(Fit::Contain));
        assert_eq!("stretch".parse(), Ok(Fit::Stretch));
        assert_eq!(
            "fill".parse::<Fit>().unwrap_err(),
            "fit must be 'cover', 'contain' or 'stretch', got 'fill'"
        );
        assert_eq!(Fit::default(), Fit::Cover);
    }

    #[test]
    fn cover_crops_the_centre_and_contain_letterboxes() {
        // A square picture into a wide pool.
        let cover = Placement::new(Fit::Cover, (512, 512), (640, 240));
        assert_eq!(cover.shown, rect(0, 160, 512, 192));
        assert_eq!(cover.drawn, rect(0, 0, 640, 240));
        assert_eq!(cover.scale(), [1.25, 1.25]);
        assert_eq!(cover.offset(), [0.0, -200.0]);
        assert!(cover.crops() && !cover.letterboxes());
        let contain = Placement::new(Fit::Contain, (512, 512), (640, 240));
        assert_eq!(contain.shown, rect(0, 0, 512, 512));
        assert_eq!(contain.drawn, rect(200, 0, 240, 240));
        assert_eq!(contain.offset(), [200.0, 0.0]);
        assert!(contain.letterboxes() && !contain.crops());
        // A 4:3 scene into a 16:9 pool, and a tall pool.
        let cover = Placement::new(Fit::Cover, (400, 300), (1280, 720));
        assert_eq!(cover.shown, rect(0, 37, 400, 225));
        assert_eq!(cover.scale(), [3.2, 3.2]);
        let tall = Placement::new(Fit::Cover, (400, 300), (100, 300));
        assert_eq!(tall.shown, rect(150, 0, 100, 300));
        let tall = Placement::new(Fit::Contain, (400, 300), (100, 300));
        assert_eq!(tall.drawn, rect(0, 112, 100, 75));
        // The same shape: a plain resize, whatever the fit.
        for fit in [Fit::Cover, Fit::Contain, Fit::Stretch] {
            let same = Placement::new(fit, (480, 320), (960, 640));
            assert!(!same.crops() && !same.letterboxes() && !same.distorts());
            assert_eq!((same.scale(), same.offset()), ([2.0, 2.0], [0.0, 0.0]));
            assert_eq!(same.describe("image"), None);
        }
        let stretch = Placement::new(Fit::Stretch, (512, 512), (640, 240));
        assert_eq!(stretch.scale(), [1.25, 240.0 / 512.0]);
        assert!(stretch.distorts());
        // Extreme shapes keep at least one pixel.
        let thin = Placement::new(Fit::Contain, (16384, 1), (10, 10));
        assert_eq!(thin.drawn, rect(0, 4, 10, 1));
        let thin = Placement::new(Fit::Cover, (1, 16384), (16384, 1));
        assert_eq!(thin.shown, rect(0, 8191, 1, 1));
    }

    #[test]
    fn messages_say_what_was_done() {
        let says = |fit| Placement::new(fit, (512, 512), (640, 240)).describe("image");
        assert!(
            says(Fit::Cover)
                .unwrap()
                .starts_with("image 512x512 cropped to fill 640x240 (")
        );
        assert!(
            says(Fit::Contain)
                .unwrap()
                .starts_with("image 512x512 letterboxed in 640x240")
        );
        assert!(
            says(Fit::Stretch)
                .unwrap()
                .starts_with("image 512x512 stretched to 640x240")
        );
    }

    /// A picture whose every pixel names its column and row.
    fn coordinates_picture(width: u32, height: u32) -> SourceImage {
        let mut pixels = Vec::new();
        for y in 0..height {
            for x in 0..width {
                pixels.extend_from_slice(&[x as u8, y as u8, 7, 255]);
            }
        }
        SourceImage {
            width,
            height,
            pixels,
        }
    }

    fn pixel(image: &SourceImage, x: u32, y: u32) -> [u8; 4] {
        let at = ((y * image.width + x) * 4) as usize;
        image.pixels[at..at + 4].try_into().unwrap()
    }

    #[test]
    fn cover_keeps_the_centre_at_full_resolution() {
        // Same scale, other shape: a pure crop, no resampling.
        let picture = coordinates_picture(40, 30);
        let placement = Placement::new(Fit::Cover, (40, 30), (40, 10));
        let fitted = fit_picture(picture, &placement, Fill::Colour([0; 3])).unwrap();
        assert_eq!((fitted.width, fitted.height), (40, 10));
        assert_eq!(pixel(&fitted, 0, 0), [0, 10, 7, 255]);
        assert_eq!(pixel(&fitted, 39, 9), [39, 19, 7, 255]);
    }

    #[test]
    fn contain_puts_bars_of_the_colour_or_repeats_the_edges() {
        let picture = coordinates_picture(20, 20);
        let placement = Placement::new(Fit::Contain, (20, 20), (40, 20));
        assert_eq!(placement.drawn, rect(10, 0, 20, 20));
        let fitted = fit_picture(picture.clone(), &placement, Fill::Colour([9, 8, 7])).unwrap();
        assert_eq!(pixel(&fitted, 0, 5), [9, 8, 7, 255]);
        assert_eq!(pixel(&fitted, 39, 5), [9, 8, 7, 255]);
        assert_eq!(pixel(&fitted, 10, 5), [0, 5, 7, 255]);
        assert_eq!(pixel(&fitted, 29, 5), [19, 5, 7, 255]);
        let edged = fit_picture(picture, &placement, Fill::Edge).unwrap();
        assert_eq!(pixel(&edged, 0, 5), [0, 5, 7, 255]);
        assert_eq!(pixel(&edged, 39, 5), [19, 5, 7, 255]);
    }

    #[test]
    fn stretch_scales_each_axis() {
        // Two columns of colour stretched to four: each becomes two.
        let picture = SourceImage {
            width: 2,
            height: 1,
            pixels: vec![200, 0, 0, 255, 0, 0, 200, 255],
        };
        let placement = Placement::new(Fit::Stretch, (2, 1), (4, 3));
        let fitted = fit_picture(picture, &placement, Fill::Edge).unwrap();
        assert_eq!((fitted.width, fitted.height), (4, 3));
        for y in 0..3 {
            assert!(pixel(&fitted, 0, y)[0] > 150 && pixel(&fitted, 3, y)[2] > 150);
        }
    }
}
