//! Fitting a picture of one size into a pool of another, as CSS's `object-fit` and
//! `background-size` do: `cover` (scale to fill, crop the centre; the default), `contain` (show
//! all of it, bars around) or `stretch` (scale each axis on its own).
//!
//! One decision makes every fit: whether the pool is relatively wider than the picture
//! (`pool_w / pool_h >= picture_w / picture_h`, compared as exact products). Cover then scales
//! by the width, contain by the height, and the other way round for a taller pool.
//! [`Fit::scale`] gives the scale as real numbers (the page's CSS pixels); [`Placement`] gives
//! the same fit in whole pixels, which part of the picture is shown and where it is drawn, and
//! the affine map ([`Placement::scale`], [`Placement::offset`]) that moves a scene's stones
//! with the picture. Cover crops *before* resampling, so a picture of an extreme shape never
//! makes an intermediate image larger than the pool.

use std::fmt;

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

/// Whether a pool `to` is relatively wider than (or as wide as) a picture `from`: the one
/// comparison every fit turns on.
fn pool_is_wider<T: Copy + std::ops::Mul<Output = T> + PartialOrd>(
    (from_w, from_h): (T, T),
    (to_w, to_h): (T, T),
) -> bool {
    to_w * from_h >= to_h * from_w
}

impl Fit {
    /// The name on the command line and in CSS.
    pub fn name(self) -> &'static str {
        match self {
            Self::Cover => "cover",
            Self::Contain => "contain",
            Self::Stretch => "stretch",
        }
    }

    /// Pool units per picture unit along x and y for a picture of size `from` in a pool of size
    /// `to` (both positive): equal for cover and contain, each axis its own for stretch.
    ///
    /// ```
    /// use ripples::Fit;
    ///
    /// assert_eq!(Fit::Cover.scale((512.0, 512.0), (640.0, 240.0)), [1.25, 1.25]);
    /// assert_eq!(Fit::Contain.scale((512.0, 512.0), (640.0, 240.0)), [0.46875, 0.46875]);
    /// ```
    pub fn scale(self, from: (f64, f64), to: (f64, f64)) -> [f64; 2] {
        let (by_width, by_height) = (to.0 / from.0, to.1 / from.1);
        let wider = pool_is_wider(from, to);
        let uniform = |scale: f64| [scale, scale];
        match self {
            Self::Stretch => [by_width, by_height],
            Self::Cover if wider => uniform(by_width),
            Self::Cover => uniform(by_height),
            Self::Contain if wider => uniform(by_height),
            Self::Contain => uniform(by_width),
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
    /// The rectangle of `width x height` pixels whose top-left pixel is `(x, y)`.
    pub const fn new(x: u32, y: u32, width: u32, height: u32) -> Self {
        Self {
            x,
            y,
            width,
            height,
        }
    }

    fn whole((width, height): (u32, u32)) -> Self {
        Self::new(0, 0, width, height)
    }

    /// Whether pixel `(x, y)` lies in the rectangle (pixel `x` covers `x..x + 1`; a point
    /// left of or above the origin is outside).
    ///
    /// ```
    /// use ripples::Rect;
    ///
    /// let bars_between = Rect::new(200, 0, 240, 240);
    /// assert!(bars_between.contains(200, 0) && bars_between.contains(439, 239));
    /// assert!(!bars_between.contains(440, 0) && !bars_between.contains(-1, 5));
    /// ```
    pub fn contains(&self, x: i64, y: i64) -> bool {
        let span = |from: u32, length: u32| i64::from(from)..i64::from(from) + i64::from(length);
        span(self.x, self.width).contains(&x) && span(self.y, self.height).contains(&y)
    }
}

/// Where a picture of size `from` goes in a pool of size `to`, in whole pixels: the part
/// `shown` of the picture is resampled onto the part `drawn` of the pool.
///
/// ```
/// use ripples::{Fit, Placement};
///
/// // A square picture covering a wide pool shows a band across its middle.
/// let cover = Placement::new(Fit::Cover, (512, 512), (640, 240));
/// assert_eq!((cover.shown.y, cover.shown.height), (160, 192));
/// assert_eq!(cover.offset(), [0.0, -200.0]);
/// ```
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
        let wider = pool_is_wider((from_w, from_h), (to_w, to_h));
        // A span of `length` centred in `whole`: its start and its length.
        let centred = |length: u32, whole: u32| ((whole - length) / 2, length);
        let (mut shown, mut drawn) = (Rect::whole(from), Rect::whole(to));
        match fit {
            Fit::Stretch => {}
            // Full width, a band of the picture's height.
            Fit::Cover if wider => {
                (shown.y, shown.height) = centred(scaled(to_h, from_w, to_w, from_h), from.1);
            }
            Fit::Cover => {
                (shown.x, shown.width) = centred(scaled(to_w, from_h, to_h, from_w), from.0);
            }
            // Full height, bars left and right.
            Fit::Contain if wider => {
                (drawn.x, drawn.width) = centred(scaled(from_w, to_h, from_h, to_w), to.0);
            }
            Fit::Contain => {
                (drawn.y, drawn.height) = centred(scaled(from_h, to_w, from_w, to_h), to.1);
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(Fit::Contain.to_string(), "contain");
    }

    #[test]
    fn cover_crops_the_centre_and_contain_letterboxes() {
        // A square picture into a wide pool.
        let cover = Placement::new(Fit::Cover, (512, 512), (640, 240));
        assert_eq!(cover.shown, Rect::new(0, 160, 512, 192));
        assert_eq!(cover.drawn, Rect::new(0, 0, 640, 240));
        assert_eq!(cover.scale(), [1.25, 1.25]);
        assert_eq!(cover.offset(), [0.0, -200.0]);
        assert!(cover.crops() && !cover.letterboxes());
        let contain = Placement::new(Fit::Contain, (512, 512), (640, 240));
        assert_eq!(contain.shown, Rect::new(0, 0, 512, 512));
        assert_eq!(contain.drawn, Rect::new(200, 0, 240, 240));
        assert_eq!(contain.offset(), [200.0, 0.0]);
        assert!(contain.letterboxes() && !contain.crops());
        // A 4:3 scene into a 16:9 pool, and a tall pool.
        let cover = Placement::new(Fit::Cover, (400, 300), (1280, 720));
        assert_eq!(cover.shown, Rect::new(0, 37, 400, 225));
        assert_eq!(cover.scale(), [3.2, 3.2]);
        let tall = Placement::new(Fit::Cover, (400, 300), (100, 300));
        assert_eq!(tall.shown, Rect::new(150, 0, 100, 300));
        let tall = Placement::new(Fit::Contain, (400, 300), (100, 300));
        assert_eq!(tall.drawn, Rect::new(0, 112, 100, 75));
        // The same shape: a plain resize, whatever the fit.
        for fit in [Fit::Cover, Fit::Contain, Fit::Stretch] {
            let same = Placement::new(fit, (480, 320), (960, 640));
            assert!(!same.crops() && !same.letterboxes() && !same.distorts());
            assert_eq!((same.scale(), same.offset()), ([2.0, 2.0], [0.0, 0.0]));
        }
        let stretch = Placement::new(Fit::Stretch, (512, 512), (640, 240));
        assert_eq!(stretch.scale(), [1.25, 240.0 / 512.0]);
        assert!(stretch.distorts());
        // Extreme shapes keep at least one pixel.
        let thin = Placement::new(Fit::Contain, (16384, 1), (10, 10));
        assert_eq!(thin.drawn, Rect::new(0, 4, 10, 1));
        let thin = Placement::new(Fit::Cover, (1, 16384), (16384, 1));
        assert_eq!(thin.shown, Rect::new(0, 8191, 1, 1));
    }

    #[test]
    fn the_real_scale_is_the_whole_pixel_placement_unrounded() {
        // Cover fills the pool on its limiting side and overflows the other; contain fits
        // inside. The whole-pixel placement is the same scale, rounded.
        for (from, to) in [
            ((512, 512), (640, 240)),
            ((400, 300), (1280, 720)),
            ((400, 300), (100, 300)),
            ((300, 400), (90, 31)),
            ((480, 320), (960, 640)),
        ] {
            let real = |(w, h): (u32, u32)| (f64::from(w), f64::from(h));
            let (from_f, to_f) = (real(from), real(to));
            let [cover, cover_y] = Fit::Cover.scale(from_f, to_f);
            assert_eq!(cover, cover_y);
            assert!(from_f.0 * cover >= to_f.0 - 1e-9 && from_f.1 * cover >= to_f.1 - 1e-9);
            assert!(
                (from_f.0 * cover - to_f.0).abs() < 1e-9
                    || (from_f.1 * cover - to_f.1).abs() < 1e-9
            );
            let [contain, _] = Fit::Contain.scale(from_f, to_f);
            assert!(from_f.0 * contain <= to_f.0 + 1e-9 && from_f.1 * contain <= to_f.1 + 1e-9);
            assert!(contain <= cover);
            for (fit, scale) in [(Fit::Cover, cover), (Fit::Contain, contain)] {
                let pixels = Placement::new(fit, from, to).scale();
                for axis in pixels {
                    assert!((axis / scale - 1.0).abs() < 0.02, "{fit} {from:?} {to:?}");
                }
            }
            assert_eq!(
                Fit::Stretch.scale(from_f, to_f),
                [to_f.0 / from_f.0, to_f.1 / from_f.1]
            );
        }
    }
}
