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
/// `colour * alpha + background * (1 - alpha)`, rounded. Opaque pixels are left as they are.
pub fn flatten(rgba: &mut [u8], background: Colour) {
    for pixel in rgba.chunks_exact_mut(4) {
        let alpha = u32::from(pixel[3]);
        if alpha == 255 {
            continue;
        }
        for (channel, back) in pixel[..3].iter_mut().zip(background.0) {
            let blended = u32::from(*channel) * alpha + u32::from(back) * (255 - alpha);
            *channel = ((blended + 127) / 255) as u8;
        }
        pixel[3] = 255;
    }
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
}
