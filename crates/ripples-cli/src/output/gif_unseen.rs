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
//! frames showed, and errors cannot build up over frames. One figure, the lossiness
//! (`--lossy`), scales every bound, so a user trades size for fidelity with one number.

use rayon::prelude::*;

/// The default lossiness (`--lossy`): how much further than the mapped palette colour (in
/// levels, in the channel that differs most from the true colour) a kept pixel may be on a
/// flat area. The palette's own error on the pixels it fits worst is larger: against the true
/// frames of the default scene at 1280x720 for 300 frames, the GIF that stores every change
/// the palette shows (`--lossy 0`) is off by 2 to 3 levels on average but by 14 to 24 at the
/// 99th percentile (frames 30, 150 and 299; `scripts/gif_lossy.sh`, whose table is in
/// docs/command.md): 10 levels more on a flat area stay within what the palette itself gets
/// wrong on the pixels it fits worst.
pub const DEFAULT_LOSSY: u8 = 10;

/// The largest lossiness `--lossy` takes: beyond it, still water turns blotchy.
pub const MAX_LOSSY: u8 = 40;

/// A substituted colour gets this share of the lossiness on a flat area (2/5): less than a
/// kept pixel, because a substitution is a lone pixel, which shows as grain.
const SUBSTITUTE_SHARE: (i16, i16) = (2, 5);

/// The share of a pixel's contrast with its neighbours that an error hides in: one level of
/// extra freedom per this many levels of contrast.
const CONTRAST_PER_LEVEL: u8 = 2;

/// The most extra freedom contrast gives a kept pixel, as a share of the lossiness (12/5, 24
/// levels at the default).
const MOST_MASKED_KEEP: (i16, i16) = (12, 5);

/// The most extra freedom contrast gives a substituted colour, as a share of the lossiness
/// (8/5, 16 levels at the default).
const MOST_MASKED_SUBSTITUTE: (i16, i16) = (8, 5);

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

/// The [`Allowance`] of every contrast (0 to 255 levels) at one lossiness.
pub(super) struct Allowances {
    by_contrast: Box<[Allowance; 256]>,
}

impl Allowances {
    /// The allowances at lossiness `lossy` (levels a kept pixel may be off on a flat area).
    pub(super) fn new(lossy: u8) -> Allowances {
        let lossy = i16::from(lossy);
        let share = |(numerator, denominator): (i16, i16)| {
            (lossy * numerator + denominator / 2) / denominator
        };
        let mut by_contrast = Box::new(
            [Allowance {
                keep: 0,
                substitute: 0,
            }; 256],
        );
        for (contrast, allowance) in (0..=u8::MAX).zip(by_contrast.iter_mut()) {
            let masked = i16::from(contrast / CONTRAST_PER_LEVEL);
            *allowance = Allowance {
                keep: lossy + masked.min(share(MOST_MASKED_KEEP)),
                substitute: share(SUBSTITUTE_SHARE) + masked.min(share(MOST_MASKED_SUBSTITUTE)),
            };
        }
        Allowances { by_contrast }
    }

    /// The freedom of a pixel whose largest channel difference with its four neighbours in
    /// the true frame is `contrast` levels.
    pub(super) fn at(&self, contrast: u8) -> Allowance {
        self.by_contrast[usize::from(contrast)]
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
        let default = Allowances::new(DEFAULT_LOSSY);
        let at = |contrast| {
            let allowance = default.at(contrast);
            (allowance.keep, allowance.substitute)
        };
        assert_eq!(at(0), (10, 4));
        assert_eq!(at(1), (10, 4));
        assert_eq!(at(20), (20, 14));
        assert_eq!(at(40), (30, 20));
        assert_eq!(at(48), (34, 20));
        assert_eq!(at(255), (34, 20));
        for contrast in 0..=u8::MAX {
            assert!(default.at(contrast).keep > default.at(contrast).substitute);
        }
        // Lossless: nothing beyond the mapping's own error, whatever the contrast.
        let exact = Allowances::new(0);
        for contrast in 0..=u8::MAX {
            assert_eq!(
                exact.at(contrast),
                Allowance {
                    keep: 0,
                    substitute: 0
                }
            );
        }
        // The most lossy: 40 on a flat area, 136 at the most contrast.
        assert_eq!(Allowances::new(MAX_LOSSY).at(0).keep, 40);
        assert_eq!(Allowances::new(MAX_LOSSY).at(255).keep, 136);
    }
}
