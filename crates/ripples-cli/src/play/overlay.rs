//! Text over the water: the help panel and short messages, in a tiny bitmap font.
//!
//! The window has no toolkit, so text is drawn into the frame's pixels directly: the public
//! domain 8x8 font of the `font8x8` crate (ASCII, one byte per glyph row), scaled by a whole
//! number so it stays crisp, over a panel that darkens the water behind it to a quarter so the
//! white text is readable on any picture. Text is drawn in window pixels after the water is
//! scaled, so its size does not depend on the pool's. Everything is clipped to the buffer: a
//! panel larger than a small window is cut, never a panic.

use font8x8::legacy::BASIC_LEGACY;

/// Glyph cell side in font pixels.
const GLYPH: usize = 8;
/// Line height in font pixels (the glyph and a gap).
const LINE: usize = 10;
/// Space between the panel's edge and its text, in font pixels.
const PADDING: usize = 4;
/// The text colour (0RGB).
const TEXT: u32 = 0x00ff_ffff;
/// A highlighted line (the title of a panel).
const ACCENT: u32 = 0x0080_d8ff;

/// A window-sized `0RGB` buffer to draw on.
#[derive(Debug)]
pub struct Canvas<'a> {
    pixels: &'a mut [u32],
    width: usize,
    height: usize,
}

/// Where a panel goes in the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corner {
    /// The top-left corner.
    TopLeft,
    /// The bottom-left corner.
    BottomLeft,
}

impl<'a> Canvas<'a> {
    /// A canvas over `pixels`, `width` pixels per row (extra pixels at the end are ignored).
    pub fn new(pixels: &'a mut [u32], width: usize, height: usize) -> Self {
        let height = pixels
            .len()
            .checked_div(width)
            .map_or(0, |rows| height.min(rows));
        Self {
            pixels,
            width,
            height,
        }
    }

    /// The font scale for this window: 8-pixel glyphs in small windows, 16 from 700x480 (the
    /// help, 38 columns by 20 lines, still fits), 24 from 2000x1600.
    pub fn text_scale(&self) -> usize {
        match (self.width, self.height) {
            (2000.., 1600..) => 3,
            (700.., 480..) => 2,
            _ => 1,
        }
    }

    /// Size in pixels of a panel holding `lines` at `scale`.
    pub fn panel_size(lines: &[&str], scale: usize) -> (usize, usize) {
        let columns = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        (
            (columns * GLYPH + 2 * PADDING) * scale,
            (lines.len() * LINE + 2 * PADDING - (LINE - GLYPH)) * scale,
        )
    }

    /// Draws `lines` on a dark panel in `corner`, the first line highlighted when `titled`.
    pub fn panel(&mut self, corner: Corner, lines: &[&str], titled: bool) {
        let scale = self.text_scale();
        let (panel_width, panel_height) = Self::panel_size(lines, scale);
        let margin = 2 * PADDING * scale;
        let left = margin;
        let top = match corner {
            Corner::TopLeft => margin,
            Corner::BottomLeft => self.height.saturating_sub(margin + panel_height),
        };
        self.darken(left, top, panel_width, panel_height);
        for (index, line) in lines.iter().enumerate() {
            let colour = if titled && index == 0 { ACCENT } else { TEXT };
            let x = left + PADDING * scale;
            let y = top + (PADDING + index * LINE) * scale;
            self.text(x, y, line, scale, colour);
        }
    }

    /// Darkens a rectangle to a quarter of its brightness.
    fn darken(&mut self, left: usize, top: usize, width: usize, height: usize) {
        let right = (left + width).min(self.width);
        let bottom = (top + height).min(self.height);
        if left >= right {
            return;
        }
        for y in top..bottom {
            let row = &mut self.pixels[y * self.width..(y + 1) * self.width];
            for pixel in &mut row[left..right] {
                *pixel = (*pixel >> 2) & 0x003f_3f3f;
            }
        }
    }

    /// Draws one line of text with its top-left corner at `(x, y)`; characters outside ASCII
    /// show as '?'.
    pub fn text(&mut self, x: usize, y: usize, text: &str, scale: usize, colour: u32) {
        for (index, character) in text.chars().enumerate() {
            let code = if character.is_ascii() {
                character as usize
            } else {
                usize::from(b'?')
            };
            self.glyph(
                x + index * GLYPH * scale,
                y,
                &BASIC_LEGACY[code],
                scale,
                colour,
            );
        }
    }

    fn glyph(&mut self, x: usize, y: usize, rows: &[u8; 8], scale: usize, colour: u32) {
        for (row_index, &bits) in rows.iter().enumerate() {
            if bits == 0 {
                continue;
            }
            for column in 0..GLYPH {
                // Bit 0 is the leftmost pixel of the row.
                if bits & (1 << column) == 0 {
                    continue;
                }
                let (px, py) = (x + column * scale, y + row_index * scale);
                self.fill(px, py, scale, colour);
            }
        }
    }

    fn fill(&mut self, x: usize, y: usize, side: usize, colour: u32) {
        let right = (x + side).min(self.width);
        let bottom = (y + side).min(self.height);
        if x >= right {
            return;
        }
        for row in y..bottom {
            self.pixels[row * self.width + x..row * self.width + right].fill(colour);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_draws_the_glyphs_shape_where_asked() {
        let (width, height) = (40, 20);
        let mut pixels = vec![0u32; width * height];
        let mut canvas = Canvas::new(&mut pixels, width, height);
        canvas.text(2, 3, "I", 1, TEXT);
        // The font's 'I' is a bar in columns 2..=3 with serifs in rows 0 and 6; nothing is
        // drawn outside its 8x8 cell.
        let lit: Vec<(usize, usize)> = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| pixels[y * width + x] == TEXT)
            .collect();
        assert!(!lit.is_empty());
        assert!(
            lit.iter()
                .all(|&(x, y)| (2..10).contains(&x) && (3..11).contains(&y))
        );
        let glyph = BASIC_LEGACY[usize::from(b'I')];
        for (row, bits) in glyph.iter().enumerate() {
            for column in 0..8 {
                let on = pixels[(3 + row) * width + 2 + column] == TEXT;
                assert_eq!(on, bits & (1 << column) != 0, "row {row} column {column}");
            }
        }
    }

    #[test]
    fn a_panel_darkens_behind_the_text_and_is_clipped_to_small_windows() {
        let (width, height) = (60, 30);
        let mut pixels = vec![0x00c0_c0c0u32; width * height];
        let mut canvas = Canvas::new(&mut pixels, width, height);
        canvas.panel(
            Corner::TopLeft,
            &["a line far too long for this window"],
            true,
        );
        // Inside the panel: darkened background or text; outside: untouched.
        assert_eq!(pixels[0], 0x00c0_c0c0);
        assert_eq!(pixels[8 * width + 9], 0x0030_3030);
        assert!(pixels.contains(&ACCENT));
        assert_eq!(pixels[29 * width + 59], 0x00c0_c0c0);
    }

    #[test]
    fn the_scale_grows_with_the_window_and_panels_fit_the_help() {
        let scale = |width: usize, height: usize| {
            let mut pixels = vec![0u32; width * height];
            Canvas::new(&mut pixels, width, height).text_scale()
        };
        assert_eq!(scale(320, 240), 1);
        assert_eq!(scale(600, 1080), 1);
        assert_eq!(scale(960, 540), 2);
        assert_eq!(scale(1920, 1080), 2);
        assert_eq!(scale(3840, 2160), 3);
        // The help (38 columns, 20 lines) fits from 700x480 at twice the size.
        let line = "x".repeat(38);
        let help = vec![line.as_str(); 20];
        let (width, height) = Canvas::panel_size(&help, 2);
        assert!(width + 16 <= 700 && height + 16 <= 480, "{width}x{height}");
        assert_eq!(Canvas::panel_size(&["abc", "de"], 2), (64, 52));
    }

    #[test]
    fn non_ascii_text_does_not_panic() {
        let mut pixels = vec![0u32; 100 * 20];
        Canvas::new(&mut pixels, 100, 20).text(0, 0, "é→ü", 1, TEXT);
        assert!(pixels.contains(&TEXT));
    }
}
