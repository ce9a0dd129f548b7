//! Fitting a picture of one size into a pool of another, as CSS's `object-fit` does: `cover`
//! (scale to fill, crop the centre; the default), `contain` (show all of it, bars around) or
//! `stretch` (scale each axis on its own).
//!
//! The geometry is the core's ([`ripples::Placement`]: which part of the picture is shown and
//! where it is drawn, in whole pixels, and the affine map that moves a scene's stones with the
//! picture), the page's too; this module resamples the pixels with the `image` crate and says
//! in words what a fit did. Cover crops *before* resampling, so a picture of an extreme shape
//! never makes an intermediate image larger than the pool.

use anyhow::{Context, Result};
use image::{RgbaImage, imageops::FilterType};
pub use ripples::{Fit, Placement, Rect};

use crate::input::source_image::SourceImage;

/// One line saying what was done to `what` ("image", "scene") by `placement`, when it was more
/// than a resize that keeps the shape: `image 512x512 cropped to fill 640x240 (...)`.
pub fn describe(placement: &Placement, what: &str) -> Option<String> {
    let (from, to) = (
        format!("{}x{}", placement.from.0, placement.from.1),
        format!("{}x{}", placement.to.0, placement.to.1),
    );
    if placement.crops() {
        Some(format!(
            "{what} {from} cropped to fill {to} (--fit contain shows all of it, --fit \
             stretch distorts it to fit)"
        ))
    } else if placement.letterboxes() {
        Some(format!(
            "{what} {from} letterboxed in {to}, bars of the --background colour (--fit \
             cover fills the pool)"
        ))
    } else if placement.distorts() {
        Some(format!(
            "{what} {from} stretched to {to} (--fit cover keeps its shape)"
        ))
    } else {
        None
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
        let source_y = y.saturating_sub(drawn.y).min(drawn.height - 1);
        for x in 0..width {
            let inside = drawn.contains(x.into(), y.into());
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

    #[test]
    fn a_plain_resize_says_nothing() {
        // The same shape: a plain resize, whatever the fit.
        for fit in [Fit::Cover, Fit::Contain, Fit::Stretch] {
            assert_eq!(
                describe(&Placement::new(fit, (480, 320), (960, 640)), "image"),
                None
            );
        }
    }

    #[test]
    fn messages_say_what_was_done() {
        let says = |fit| describe(&Placement::new(fit, (512, 512), (640, 240)), "image");
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
        assert_eq!(placement.drawn, Rect::new(10, 0, 20, 20));
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
