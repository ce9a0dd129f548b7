//! The background colour: what shows through the water's transparency, and the bars around a
//! picture fitted with `--fit contain`.
//!
//! The spring look makes fast water see-through (alpha below 255), and a picture may have
//! transparent parts. A PNG keeps that alpha and a viewer shows it as holes over whatever page is
//! behind, while a GIF or a video drops it; so files are opaque by default: [`flatten`] blends a
//! frame over the background in place, one pass just before the frame goes to the encoder, and
//! every format shows the same picture. `--keep-alpha` skips it, for compositing.

use std::fmt;

/// An opaque colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Colour(pub [u8; 3]);

/// Colours known by name, besides `#rrggbb`.
const NAMED: [(&str, [u8; 3]); 4] = [
    ("black", [0, 0, 0]),
    ("white", [255, 255, 255]),
    ("grey", [128, 128, 128]),
    ("gray", [128, 128, 128]),
];

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "#{r:02x}{g:02x}{b:02x}")
    }
}

impl std::str::FromStr for Colour {
    type Err = String;

    /// `#rrggbb`, `rrggbb` (hexadecimal, either case) or a name: black, white, grey (gray).
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        if let Some((_, rgb)) = NAMED.iter().find(|(name, _)| *name == lower) {
            return Ok(Self(*rgb));
        }
        let hex = lower.strip_prefix('#').unwrap_or(&lower);
        let channel = |at: usize| u8::from_str_radix(&hex[at..at + 2], 16).ok();
        match (hex.len(), hex.is_ascii()) {
            (6, true) => match (channel(0), channel(2), channel(4)) {
                (Some(r), Some(g), Some(b)) => Ok(Self([r, g, b])),
                _ => Err(bad_colour(text)),
            },
            _ => Err(bad_colour(text)),
        }
    }
}

fn bad_colour(text: &str) -> String {
    format!("expected a colour as #rrggbb, rrggbb, black, white or grey, got '{text}'")
}

/// Whether every pixel of `rgba` is opaque (alpha 255).
pub fn is_opaque(rgba: &[u8]) -> bool {
    rgba.chunks_exact(4).all(|pixel| pixel[3] == 255)
}

/// Blends every pixel of `rgba` over `background` and makes it opaque, in place:
/// `colour * alpha + background * (1 - alpha)`, rounded; opaque pixels keep their colour.
///
/// Each pixel is one little-endian `u32` word and red and blue are blended together, each in a
/// 16-bit lane (`255 * 255` fits), divided by 255 with the exact shift form of the rounding
/// division. Without a branch on the alpha the loop vectorizes: 0.76 ms per 1280x720 frame
/// whatever the frame holds, against 0.25 ms (all opaque) to 3.3 ms (all see-through) for the
/// per-channel loop with a branch (x86-64 baseline, measured on the development machine).
pub fn flatten(rgba: &mut [u8], background: Colour) {
    let back = u32::from_le_bytes([background.0[0], background.0[1], background.0[2], 0]);
    let (back_red_blue, back_green) = (back & 0x00ff_00ff, (back >> 8) & 0xff);
    let (pixels, _) = rgba.as_chunks_mut::<4>();
    for pixel in pixels {
        let word = u32::from_le_bytes(*pixel);
        let alpha = word >> 24;
        let rest = 255 - alpha;
        let red_blue = divide_lanes_by_255((word & 0x00ff_00ff) * alpha + back_red_blue * rest);
        let green = divide_lanes_by_255(((word >> 8) & 0xff) * alpha + back_green * rest);
        *pixel = (red_blue | (green << 8) | 0xff00_0000).to_le_bytes();
    }
}

/// Both 16-bit lanes of `x` (each at most `255 * 255`) divided by 255, rounded to nearest.
fn divide_lanes_by_255(x: u32) -> u32 {
    let t = x + 0x0080_0080;
    ((t + ((t >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_in_every_documented_form() {
        assert_eq!("#ff8000".parse(), Ok(Colour([255, 128, 0])));
        assert_eq!("FF8000".parse(), Ok(Colour([255, 128, 0])));
        assert_eq!(" white ".parse(), Ok(Colour([255; 3])));
        assert_eq!("Black".parse(), Ok(Colour([0; 3])));
        assert_eq!("gray".parse::<Colour>(), "grey".parse::<Colour>());
        for bad in ["#fff", "purple", "#12345g", "", "#ééé", "1234567"] {
            let error = bad.parse::<Colour>().unwrap_err();
            assert!(error.contains(&format!("'{bad}'")), "{error}");
        }
        assert_eq!(Colour([255, 128, 0]).to_string(), "#ff8000");
    }

    #[test]
    fn flattening_blends_over_the_background_and_keeps_opaque_pixels() {
        let mut rgba = [
            200, 100, 0, 255, // opaque: unchanged
            200, 100, 0, 0, // transparent: the background
            200, 100, 0, 128, // half: between
        ];
        flatten(&mut rgba, Colour([0, 0, 255]));
        assert_eq!(rgba[..4], [200, 100, 0, 255]);
        assert_eq!(rgba[4..8], [0, 0, 255, 255]);
        assert_eq!(rgba[8..], [100, 50, 127, 255]);
        assert!(is_opaque(&rgba));
        assert!(!is_opaque(&[1, 2, 3, 254]));
    }

    #[test]
    fn flattening_rounds_exactly_for_every_colour_alpha_and_background() {
        let rounded = |colour: u8, alpha: u8, back: u8| {
            let (colour, alpha, back) = (u32::from(colour), u32::from(alpha), u32::from(back));
            ((colour * alpha + back * (255 - alpha) + 127) / 255) as u8
        };
        for back in [0, 1, 127, 128, 254, 255] {
            let background = Colour([back, 255 - back, back / 3]);
            for alpha in 0..=255u8 {
                let mut rgba: Vec<u8> = (0..=255u8)
                    .flat_map(|colour| [colour, colour ^ 0x5a, 255 - colour, alpha])
                    .collect();
                flatten(&mut rgba, background);
                for (colour, pixel) in (0..=255u8).zip(rgba.chunks_exact(4)) {
                    let expected = [
                        rounded(colour, alpha, background.0[0]),
                        rounded(colour ^ 0x5a, alpha, background.0[1]),
                        rounded(255 - colour, alpha, background.0[2]),
                        255,
                    ];
                    assert_eq!(pixel, expected, "colour {colour}, alpha {alpha}");
                }
            }
        }
    }
}
