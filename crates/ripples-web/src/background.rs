//! Where an element's CSS background image lies, so the water refracts what the page showed.
//!
//! When Ripples takes over an element's `background-image`, the canvas it overlays must show
//! the image exactly where CSS drew it, or the page would jump when the ripples start. The
//! browser gives the computed `background-size`, `background-position` and `background-repeat`
//! of the layer as strings (`"cover"`, `"50% 0%"`, `"calc(100% - 10px) 20px"`, `"no-repeat"`);
//! [`layout`] applies the CSS rules to them for a box and an image size and returns the tile
//! rectangle and the repeat axes. Plain Rust on strings and numbers, so the host tests check
//! the CSS arithmetic without a browser; `ripples.js` does only the drawing.
//!
//! Supported: `auto`, `cover`, `contain`, one or two lengths or percentages; positions as
//! lengths, percentages, `calc(P% +/- Lpx)` and the keywords; `repeat`, `no-repeat`,
//! `repeat-x`, `repeat-y`, `round` and `space` (drawn as `repeat`). The positioning area is the
//! element's padding box (the default `background-origin`).

use ripples::Fit;

use crate::options::WebError;

/// The first tile of a background image, in the box's CSS pixels, and whether it repeats.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// Left edge of the tile, from the box's left edge (may be negative).
    pub x: f64,
    /// Top edge of the tile.
    pub y: f64,
    /// Tile width.
    pub width: f64,
    /// Tile height.
    pub height: f64,
    /// The image repeats along x.
    pub repeat_x: bool,
    /// The image repeats along y.
    pub repeat_y: bool,
}

/// A length or percentage: `percent` of a reference length plus `pixels`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Length {
    percent: f64,
    pixels: f64,
}

impl Length {
    fn resolve(self, reference: f64) -> f64 {
        reference * self.percent / 100.0 + self.pixels
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Axis {
    Auto,
    Length(Length),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tiling {
    /// `repeat` (and `space`, drawn the same way).
    Tiled,
    /// `no-repeat`.
    Once,
    /// `round`: tiled, the tile stretched so a whole number fits.
    Round,
}

/// Lays out one background layer of an image `image_width x image_height` (its natural size)
/// in a box of `box_width x box_height` CSS pixels, from the computed `size`, `position` and
/// `repeat` strings of that layer.
pub fn layout(
    box_size: (f64, f64),
    image_size: (f64, f64),
    size: &str,
    position: &str,
    repeat: &str,
) -> Result<Placement, WebError> {
    let (box_width, box_height) = box_size;
    let (image_width, image_height) = image_size;
    for (name, value) in [
        ("box width", box_width),
        ("box height", box_height),
        ("image width", image_width),
        ("image height", image_height),
    ] {
        if !value.is_finite() || value <= 0.0 {
            return Err(WebError::LayoutSize { name, value });
        }
    }
    let (mut width, mut height) = tile_size(box_size, image_size, size)?;
    let (repeat_x, repeat_y) = parse_repeat(repeat)?;
    if repeat_x == Tiling::Round {
        width = box_width / (box_width / width).round().max(1.0);
    }
    if repeat_y == Tiling::Round {
        height = box_height / (box_height / height).round().max(1.0);
    }
    if (repeat_x == Tiling::Round) != (repeat_y == Tiling::Round) && size_has_auto(size) {
        // CSS: with `round` on one axis and `auto` on the other, the auto side keeps the ratio.
        if repeat_x == Tiling::Round {
            height = width * image_height / image_width;
        } else {
            width = height * image_width / image_height;
        }
    }
    let (position_x, position_y) = parse_position(position)?;
    Ok(Placement {
        x: position_x.resolve(box_width - width),
        y: position_y.resolve(box_height - height),
        width,
        height,
        repeat_x: repeat_x != Tiling::Once,
        repeat_y: repeat_y != Tiling::Once,
    })
}

fn size_has_auto(size: &str) -> bool {
    let words: Vec<&str> = size.split_whitespace().collect();
    words.len() == 1 && words[0] != "cover" && words[0] != "contain" || words.contains(&"auto")
}

fn tile_size(
    (box_width, box_height): (f64, f64),
    (image_width, image_height): (f64, f64),
    size: &str,
) -> Result<(f64, f64), WebError> {
    let words: Vec<&str> = size.split_whitespace().collect();
    // cover and contain: the core's fit, the command's `--fit` too.
    let fit = |fit: Fit| {
        let [scale_x, scale_y] = fit.scale((image_width, image_height), (box_width, box_height));
        (image_width * scale_x, image_height * scale_y)
    };
    let axes = match words.as_slice() {
        ["cover"] => return Ok(fit(Fit::Cover)),
        ["contain"] => return Ok(fit(Fit::Contain)),
        [one] => (parse_axis(one, size)?, Axis::Auto),
        [x, y] => (parse_axis(x, size)?, parse_axis(y, size)?),
        _ => return Err(unsupported("background-size", size)),
    };
    let size = match axes {
        (Axis::Auto, Axis::Auto) => (image_width, image_height),
        (Axis::Length(x), Axis::Auto) => {
            let width = x.resolve(box_width);
            (width, width * image_height / image_width)
        }
        (Axis::Auto, Axis::Length(y)) => {
            let height = y.resolve(box_height);
            (height * image_width / image_height, height)
        }
        (Axis::Length(x), Axis::Length(y)) => (x.resolve(box_width), y.resolve(box_height)),
    };
    if size.0 > 0.0 && size.1 > 0.0 {
        Ok(size)
    } else {
        // CSS draws nothing for an empty tile; an image that covers nothing is not useful to
        // refract, so the caller falls back to the default layout with a warning.
        Err(WebError::EmptyTile {
            size: words.join(" "),
            width: size.0,
            height: size.1,
        })
    }
}

fn parse_axis(word: &str, whole: &str) -> Result<Axis, WebError> {
    if word == "auto" {
        Ok(Axis::Auto)
    } else {
        parse_length(word)
            .map(Axis::Length)
            .ok_or_else(|| unsupported("background-size", whole))
    }
}

fn parse_length(word: &str) -> Option<Length> {
    let word = word.trim();
    if let Some(inner) = word.strip_prefix("calc(").and_then(|w| w.strip_suffix(')')) {
        return parse_calc(inner);
    }
    if let Some(number) = word.strip_suffix('%') {
        return Some(Length {
            percent: number.parse().ok()?,
            pixels: 0.0,
        });
    }
    let number = word.strip_suffix("px").unwrap_or(word);
    let pixels: f64 = number.parse().ok()?;
    // A bare number is only valid CSS when it is 0.
    (word.ends_with("px") || pixels == 0.0).then_some(Length {
        percent: 0.0,
        pixels,
    })
}

/// `P% + Lpx`, `P% - Lpx`, `Lpx + P%`... (what browsers compute `right 10px` and the like to).
fn parse_calc(inner: &str) -> Option<Length> {
    let mut total = Length {
        percent: 0.0,
        pixels: 0.0,
    };
    let mut sign = 1.0;
    let mut expect_term = true;
    for token in inner.split_whitespace() {
        match token {
            "+" | "-" if !expect_term => {
                sign = if token == "-" { -1.0 } else { 1.0 };
                expect_term = true;
            }
            _ if expect_term => {
                let term = parse_length(token)?;
                total.percent += sign * term.percent;
                total.pixels += sign * term.pixels;
                expect_term = false;
            }
            _ => return None,
        }
    }
    (!expect_term).then_some(total)
}

fn parse_position(position: &str) -> Result<(Length, Length), WebError> {
    let keyword = |word: &str| {
        let percent = match word {
            "left" | "top" => 0.0,
            "center" => 50.0,
            "right" | "bottom" => 100.0,
            _ => return None,
        };
        Some(Length {
            percent,
            pixels: 0.0,
        })
    };
    // calc() may contain spaces: split on spaces outside parentheses.
    let mut words = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in position.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ' ' if depth == 0 => {
                if i > start {
                    words.push(&position[start..i]);
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < position.len() {
        words.push(&position[start..]);
    }
    let parse = |word: &str| keyword(word).or_else(|| parse_length(word));
    let (x, y) = match words.as_slice() {
        [one] => match *one {
            "top" | "bottom" => (keyword("center"), keyword(one)),
            _ => (parse(one), keyword("center")),
        },
        [first, second] => {
            // Keywords may come in either order ("top left").
            if matches!(*first, "top" | "bottom") || matches!(*second, "left" | "right") {
                (parse(second), parse(first))
            } else {
                (parse(first), parse(second))
            }
        }
        _ => (None, None),
    };
    match (x, y) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(unsupported("background-position", position)),
    }
}

fn parse_repeat(repeat: &str) -> Result<(Tiling, Tiling), WebError> {
    let one = |word: &str| match word {
        "repeat" | "space" => Some(Tiling::Tiled),
        "no-repeat" => Some(Tiling::Once),
        "round" => Some(Tiling::Round),
        _ => None,
    };
    let words: Vec<&str> = repeat.split_whitespace().collect();
    let axes = match words.as_slice() {
        ["repeat-x"] => Some((Tiling::Tiled, Tiling::Once)),
        ["repeat-y"] => Some((Tiling::Once, Tiling::Tiled)),
        [word] => one(word).map(|r| (r, r)),
        [x, y] => one(x).zip(one(y)),
        _ => None,
    };
    axes.ok_or_else(|| unsupported("background-repeat", repeat))
}

fn unsupported(property: &'static str, value: &str) -> WebError {
    WebError::Unsupported {
        property,
        value: value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOX: (f64, f64) = (400.0, 300.0);
    const IMAGE: (f64, f64) = (200.0, 100.0);

    fn place(size: &str, position: &str, repeat: &str) -> Placement {
        layout(BOX, IMAGE, size, position, repeat).unwrap()
    }

    fn rect(p: Placement) -> [f64; 4] {
        [p.x, p.y, p.width, p.height]
    }

    #[test]
    fn cover_fills_the_box_and_centres_the_overflow() {
        // Scale max(400/200, 300/100) = 3: 600x300, centred horizontally.
        let p = place("cover", "50% 50%", "no-repeat");
        assert_eq!(rect(p), [-100.0, 0.0, 600.0, 300.0]);
        assert!(!p.repeat_x && !p.repeat_y);
    }

    #[test]
    fn contain_fits_the_image_inside() {
        // Scale min(2, 3) = 2: 400x200, at the bottom.
        assert_eq!(
            rect(place("contain", "0% 100%", "no-repeat")),
            [0.0, 100.0, 400.0, 200.0]
        );
    }

    #[test]
    fn auto_is_the_natural_size_at_the_top_left_repeated() {
        let p = place("auto", "0% 0%", "repeat");
        assert_eq!(rect(p), [0.0, 0.0, 200.0, 100.0]);
        assert!(p.repeat_x && p.repeat_y);
        assert_eq!(rect(place("auto auto", "0px 0px", "repeat")), rect(p));
    }

    #[test]
    fn one_length_keeps_the_ratio_and_two_set_both() {
        assert_eq!(
            rect(place("100px", "0% 0%", "repeat")),
            [0.0, 0.0, 100.0, 50.0]
        );
        assert_eq!(
            rect(place("auto 50%", "0% 0%", "repeat")),
            [0.0, 0.0, 300.0, 150.0]
        );
        assert_eq!(
            rect(place("100% 100%", "0% 0%", "repeat")),
            [0.0, 0.0, 400.0, 300.0]
        );
    }

    #[test]
    fn positions_accept_pixels_percentages_calc_and_keywords() {
        // Percentages place the same point of the image on the same point of the box.
        assert_eq!(
            rect(place("auto", "100% 50%", "no-repeat")),
            [200.0, 100.0, 200.0, 100.0]
        );
        assert_eq!(
            rect(place("auto", "10px 20px", "no-repeat")),
            [10.0, 20.0, 200.0, 100.0]
        );
        // What Chrome computes `right 10px bottom 5px` to.
        assert_eq!(
            rect(place(
                "auto",
                "calc(100% - 10px) calc(100% - 5px)",
                "no-repeat"
            )),
            [190.0, 195.0, 200.0, 100.0]
        );
        assert_eq!(
            rect(place("auto", "right top", "no-repeat")),
            rect(place("auto", "top right", "no-repeat"))
        );
        assert_eq!(
            rect(place("auto", "center", "no-repeat")),
            [100.0, 100.0, 200.0, 100.0]
        );
    }

    #[test]
    fn repeat_axes_and_round() {
        let p = place("auto", "0% 0%", "repeat-x");
        assert!(p.repeat_x && !p.repeat_y);
        let p = place("auto", "0% 0%", "no-repeat repeat");
        assert!(!p.repeat_x && p.repeat_y);
        // round: 400 / 200 = 2 tiles across, 300 / 100 = 3 down; 170px tiles round to 2.
        assert_eq!(
            rect(place("170px 100px", "0% 0%", "round")),
            [0.0, 0.0, 200.0, 100.0]
        );
    }

    #[test]
    fn what_cannot_be_laid_out_is_an_error_naming_it() {
        let error = layout(BOX, IMAGE, "fill", "0% 0%", "repeat").unwrap_err();
        assert_eq!(error.to_string(), "background-size 'fill' is not supported");
        let error = layout(BOX, IMAGE, "auto", "0% 0%", "mirror").unwrap_err();
        assert_eq!(
            error.to_string(),
            "background-repeat 'mirror' is not supported"
        );
        let error = layout(BOX, IMAGE, "auto", "anchor(left) 0%", "repeat").unwrap_err();
        assert!(
            error.to_string().starts_with("background-position"),
            "{error}"
        );
        let error = layout((0.0, 10.0), IMAGE, "auto", "0% 0%", "repeat").unwrap_err();
        assert_eq!(
            error.to_string(),
            "background layout: box width must be above 0, got 0"
        );
        assert_eq!(
            layout(BOX, IMAGE, "0px 10px", "0% 0%", "repeat"),
            Err(WebError::EmptyTile {
                size: "0px 10px".into(),
                width: 0.0,
                height: 10.0
            })
        );
    }
}
