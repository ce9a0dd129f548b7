//! How far from a frame's true colour a GIF pixel may be without a viewer seeing it: the
//! bounds the GIF sink ([`super::sink`]) and its lossy compressor ([`super::lzw`])
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
//! Both bounds are counted beyond the error the palette mapping itself has at the pixel. Both
//! grow with the picture's own contrast there: an error hides in a pixel that already differs
//! from its neighbours by more (the eye's contrast masking), and shows on a flat tile. Both
//! shrink on dark colours, where a few levels are a larger share of the light (rings on dark
//! water vanish first). The contrast is the true frame's, so what a frame may show never depends on what earlier
//! frames showed, and errors cannot build up over frames. One figure, the lossiness
//! (`--lossy`), scales every bound, so a user trades size for fidelity with one number.

use rayon::prelude::*;

/// The default lossiness (`--lossy`): how much further than the mapped palette colour (in
/// levels, in the channel that differs most from the true colour) a kept pixel may be on a
/// flat, bright area. The palette's own error on the pixels it fits worst is of this size:
/// against the true frames of the default scene at 1280x720 for 300 frames, the GIF that
/// stores every change the palette shows (`--lossy 0`) is off by 1 to 2.3 levels on average
/// but by 4 to 10 at the 99th percentile (frames 30, 150 and 299). 12 keeps that scene's GIF
/// under the 35.1 MB that one palette and a flat 10-level bound took, with frames closer to
/// the true ones (`scripts/gif_lossy.sh`, whose table is in docs/command.md).
pub const DEFAULT_LOSSY: u8 = 12;

/// The largest lossiness `--lossy` takes: beyond it, still water turns blotchy.
pub const MAX_LOSSY: u8 = 40;

/// A substituted colour gets this share of the lossiness on a flat area (2/5): less than a
/// kept pixel, because a substitution is a lone pixel, which shows as grain.
const SUBSTITUTE_SHARE: (i32, i32) = (2, 5);

/// The share of a pixel's contrast with its neighbours that an error hides in: one level of
/// extra freedom per this many levels of contrast.
const CONTRAST_PER_LEVEL: u8 = 2;

/// The most extra freedom contrast gives a kept pixel, as a share of the lossiness (12/5, 29
/// levels at the default).
const MOST_MASKED_KEEP: (i32, i32) = (12, 5);

/// The most extra freedom contrast gives a substituted colour, as a share of the lossiness
/// (8/5, 19 levels at the default).
const MOST_MASKED_SUBSTITUTE: (i32, i32) = (8, 5);

/// Colours at least this bright (luma, 0 to 255) get the whole allowance; darker ones less.
const FULL_ALLOWANCE_LUMA: i32 = 128;

/// How darker colours' allowance shrinks: in proportion to their luma plus this, so black
/// gets a third of it. An error of a few levels is a larger share of a dark colour's light,
/// and shows more: rings on dark water are what the eye finds first.
const DARK_OFFSET: i32 = 64;

/// The allowance table tells brightness apart in steps of 8 levels of luma (32 buckets).
const LUMA_BUCKET_BITS: u32 = 5;

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

/// The [`Allowance`] of every contrast (0 to 255 levels) and brightness at one lossiness.
pub(super) struct Allowances {
    /// Indexed by the luma's [`LUMA_BUCKET_BITS`] top bits, then by the contrast.
    by_luma_and_contrast: Vec<Allowance>,
}

impl Allowances {
    /// The allowances at lossiness `lossy` (levels a kept pixel may be off on a flat area).
    pub(super) fn new(lossy: u8) -> Allowances {
        let lossy = i32::from(lossy);
        let share = |(numerator, denominator): (i32, i32)| {
            (lossy * numerator + denominator / 2) / denominator
        };
        let buckets = 1usize << LUMA_BUCKET_BITS;
        let bucket_width = 256 / buckets as i32;
        let mut by_luma_and_contrast = Vec::with_capacity(buckets * 256);
        for bucket in 0..buckets as i32 {
            // The bucket's middle luma; darker than FULL_ALLOWANCE_LUMA scales down linearly.
            let luma = bucket * bucket_width + bucket_width / 2;
            let weight = (DARK_OFFSET + luma).min(DARK_OFFSET + FULL_ALLOWANCE_LUMA);
            let scaled =
                |levels: i32| (levels * weight / (DARK_OFFSET + FULL_ALLOWANCE_LUMA)) as i16;
            for contrast in 0..=u8::MAX {
                let masked = i32::from(contrast / CONTRAST_PER_LEVEL);
                by_luma_and_contrast.push(Allowance {
                    keep: scaled(lossy + masked.min(share(MOST_MASKED_KEEP))),
                    substitute: scaled(
                        share(SUBSTITUTE_SHARE) + masked.min(share(MOST_MASKED_SUBSTITUTE)),
                    ),
                });
            }
        }
        Allowances {
            by_luma_and_contrast,
        }
    }

    /// The freedom of a pixel of true colour `pixel` (RGB or RGBA) whose largest channel
    /// difference with its four neighbours in the true frame is `contrast` levels.
    pub(super) fn at(&self, contrast: u8, pixel: &[u8]) -> Allowance {
        let luma =
            (77 * u32::from(pixel[0]) + 150 * u32::from(pixel[1]) + 29 * u32::from(pixel[2])) >> 8;
        let bucket = (luma >> (8 - LUMA_BUCKET_BITS)) as usize;
        self.by_luma_and_contrast[bucket * 256 + usize::from(contrast)]
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
        let white = [255, 255, 255];
        let at = |contrast| {
            let allowance = default.at(contrast, &white);
            (allowance.keep, allowance.substitute)
        };
        // 12 and 5 on a flat area; one more per 2 levels of contrast, up to 29 and 19 more.
        assert_eq!(at(0), (12, 5));
        assert_eq!(at(1), (12, 5));
        assert_eq!(at(20), (22, 15));
        assert_eq!(at(40), (32, 24));
        assert_eq!(at(58), (41, 24));
        assert_eq!(at(255), (41, 24));
        for contrast in 0..=u8::MAX {
            let allowance = default.at(contrast, &white);
            assert!(allowance.keep > allowance.substitute);
        }
        // Lossless: nothing beyond the mapping's own error, whatever the contrast or colour.
        let exact = Allowances::new(0);
        for contrast in 0..=u8::MAX {
            for grey in [0, 60, 255] {
                let allowance = exact.at(contrast, &[grey, grey, grey]);
                assert_eq!((allowance.keep, allowance.substitute), (0, 0));
            }
        }
        assert_eq!(Allowances::new(MAX_LOSSY).at(0, &white).keep, 40);
        assert_eq!(Allowances::new(MAX_LOSSY).at(255, &white).keep, 136);
    }

    /// Black gets a third of the allowance, mid-grey and brighter all of it, by luma: a
    /// saturated blue is dark, a saturated green bright.
    #[test]
    fn dark_colours_get_less_allowance() {
        let allowances = Allowances::new(30);
        let keep = |pixel: [u8; 3]| allowances.at(0, &pixel).keep;
        assert_eq!(keep([255, 255, 255]), 30);
        assert_eq!(keep([128, 128, 128]), 30);
        // Luma 0..7, the bucket's middle 4: 30 * (64 + 4) / 192.
        assert_eq!(keep([0, 0, 0]), 10);
        // Luma 60: its bucket's middle is 60.
        assert_eq!(keep([60, 60, 60]), 30 * 124 / 192);
        assert!(keep([0, 0, 255]) < 15, "{}", keep([0, 0, 255]));
        assert_eq!(keep([0, 255, 0]), 30);
        let mut last = 0;
        for grey in 0..=u8::MAX {
            let now = keep([grey, grey, grey]);
            assert!(now >= last, "grey {grey}: {now} < {last}");
            last = now;
        }
    }
}
