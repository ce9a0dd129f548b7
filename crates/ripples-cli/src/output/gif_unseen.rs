//! How far from a frame's true colour a GIF pixel may be without a viewer seeing it: the
//! bounds the GIF sink ([`super::gif_sink`]) and its lossy compressor ([`super::gif_lzw`])
//! work within, kept apart from them because they are a judgement of the eye, not of the
//! format.
//!
//! Two freedoms make a GIF of moving water small, and they look different when overdone:
//! - **Keeping** the colour a pixel already shows (a transparent "keep" pixel, cheap to store
//!   in runs) lets it lag behind the truth. Overdone, still areas look smeared.
//! - **Substituting** another palette colour for the mapped one (so the LZW strings grow
//!   longer) adds a pixel-sized error. Overdone, flat areas look grainy, so its bound is
//!   tighter.
//!
//! Both bounds are counted beyond the error the palette mapping itself has at the pixel, and
//! both grow with the picture's own contrast there: an error hides in a pixel that already
//! differs from its neighbours by more (the eye's contrast masking), and shows on a flat tile.
//! The contrast is the true frame's, so what a frame may show never depends on what earlier
//! frames showed, and errors cannot build up over frames.

use rayon::prelude::*;

/// How much further than the mapped palette colour (in levels, in the channel that differs
/// most from the true colour) a kept pixel may be on a flat area. The palette's own step is
/// of this size: against the true frames of the default scene at 1280x720 for 300 frames, the
/// palette mapping alone is off by 3 to 5 levels on average and 11 to 17 at the 99th
/// percentile (frames 30, 150 and 299; `scripts/gif_error.py`).
pub(super) const FLAT_KEEP: i16 = 10;

/// How much further than the mapped palette colour a substituted colour may be on a flat area
/// (see [`FLAT_KEEP`]): less, because a substitution is a lone pixel, which shows as grain.
pub(super) const FLAT_SUBSTITUTE: i16 = 4;

/// The share of a pixel's contrast with its neighbours that an error hides in: one level of
/// extra freedom per this many levels of contrast.
const CONTRAST_PER_LEVEL: u8 = 2;

/// The most extra freedom contrast gives a kept pixel, in levels.
const MOST_MASKED_KEEP: i16 = 24;

/// The most extra freedom contrast gives a substituted colour, in levels.
const MOST_MASKED_SUBSTITUTE: i16 = 16;

/// Pixels per strip when the contrast of a frame is measured in parallel (whole rows).
const CONTRAST_STRIP_PIXELS: usize = 1 << 16;

/// The freedom one pixel has, in levels beyond the error its mapped palette colour has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Allowance {
    /// For showing, unchanged, the colour the GIF already shows there.
    pub(super) keep: i16,
    /// For writing another palette colour than the mapped one.
    pub(super) substitute: i16,
}

impl Allowance {
    /// The freedom of a pixel whose largest channel difference with its four neighbours in
    /// the true frame is `contrast` levels.
    pub(super) fn at_contrast(contrast: u8) -> Allowance {
        let masked = i16::from(contrast / CONTRAST_PER_LEVEL);
        Allowance {
            keep: FLAT_KEEP + masked.min(MOST_MASKED_KEEP),
            substitute: FLAT_SUBSTITUTE + masked.min(MOST_MASKED_SUBSTITUTE),
        }
    }

    /// The most any pixel may be given.
    #[cfg(test)]
    pub(super) fn largest() -> Allowance {
        Allowance::at_contrast(u8::MAX)
    }
}

/// For each pixel of `rgba` (`width` pixels a row), the largest channel difference with its
/// four neighbours (those inside the frame), in levels.
pub(super) fn local_contrast(rgba: &[u8], width: usize) -> Vec<u8> {
    let height = rgba.len() / 4 / width.max(1);
    let mut contrast = vec![0u8; width * height];
    let rows = (CONTRAST_STRIP_PIXELS / width.max(1)).max(1);
    contrast
        .par_chunks_mut(rows * width.max(1))
        .enumerate()
        .for_each(|(strip, out)| {
            for (row, out) in out.chunks_exact_mut(width).enumerate() {
                let y = strip * rows + row;
                let line = |y: usize| &rgba[y * width * 4..(y + 1) * width * 4];
                let here = line(y);
                let above = (y > 0).then(|| line(y - 1));
                let below = (y + 1 < height).then(|| line(y + 1));
                for (x, slot) in out.iter_mut().enumerate() {
                    let pixel = &here[x * 4..x * 4 + 3];
                    let differs = |other: &[u8]| {
                        pixel
                            .iter()
                            .zip(other)
                            .map(|(a, b)| a.abs_diff(*b))
                            .max()
                            .unwrap_or(0)
                    };
                    let mut most = 0;
                    if x > 0 {
                        most = most.max(differs(&here[x * 4 - 4..x * 4 - 1]));
                    }
                    if x + 1 < width {
                        most = most.max(differs(&here[x * 4 + 4..x * 4 + 7]));
                    }
                    if let Some(above) = above {
                        most = most.max(differs(&above[x * 4..x * 4 + 3]));
                    }
                    if let Some(below) = below {
                        most = most.max(differs(&below[x * 4..x * 4 + 3]));
                    }
                    *slot = most;
                }
            }
        });
    contrast
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_is_the_largest_difference_with_the_four_neighbours() {
        // 3x3, all grey 100 but the centre's right neighbour (R 130) and the bottom-left
        // corner (B 40).
        let mut rgba: Vec<u8> = [100, 100, 100, 255].repeat(9);
        rgba[5 * 4] = 130;
        rgba[6 * 4 + 2] = 40;
        let contrast = local_contrast(&rgba, 3);
        assert_eq!(contrast, [0, 0, 30, 60, 30, 30, 60, 60, 30]);
        // A single row and a single column.
        assert_eq!(local_contrast(&[1, 2, 3, 255, 9, 2, 3, 255], 2), [8, 8]);
        assert_eq!(local_contrast(&[1, 2, 3, 255, 9, 2, 3, 255], 1), [8, 8]);
    }

    #[test]
    fn contrast_hides_more_error_up_to_a_limit_and_keeping_gets_more_than_substituting() {
        let flat = Allowance::at_contrast(0);
        assert_eq!((flat.keep, flat.substitute), (FLAT_KEEP, FLAT_SUBSTITUTE));
        let edge = Allowance::at_contrast(20);
        assert_eq!(
            (edge.keep, edge.substitute),
            (FLAT_KEEP + 10, FLAT_SUBSTITUTE + 10)
        );
        let largest = Allowance::largest();
        assert_eq!(
            (largest.keep, largest.substitute),
            (
                FLAT_KEEP + MOST_MASKED_KEEP,
                FLAT_SUBSTITUTE + MOST_MASKED_SUBSTITUTE
            )
        );
        for contrast in 0..=u8::MAX {
            let allowance = Allowance::at_contrast(contrast);
            assert!(allowance.keep > allowance.substitute);
            assert!(allowance.keep <= largest.keep);
        }
    }
}
