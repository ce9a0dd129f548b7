//! Animated GIF: a global palette from the picture (or the first frame), palettes learnt
//! again from the frames as their colours change, a 64x64x64 lookup table from colour to
//! palette index, and frame delays that add up to the animation's length.
//!
//! GIF delays are whole centiseconds, and browsers show a delay under 2 as 10, so a GIF plays
//! at most 50 frames per second. Writing faster animations with delays of 2 would make them
//! play slower than asked; instead [`GifTimeline`] drops frames evenly (each 2-centisecond slot
//! shows the frame whose time opens it), so the GIF lasts frames/fps seconds, and the
//! [`Written`] it reports says how many frames were kept.
//!
//! A picture's palette misses the colours its water makes (the glints and bright crests of
//! the natural look), so about once a second ([`RELEARN_SECONDS`]) a palette is learnt from
//! the frame being written, and replaces the one in effect where it fits that frame clearly
//! better ([`RELEARN_GAIN`]); frames stored with it carry it as their local colour table.
//!
//! After the first frame, each frame stores only what a viewer could see change: the
//! rectangle around the pixels where the colour the GIF already shows has fallen further from
//! the frame's true colour than the [`Allowance`] of [`super::unseen`] lets it (beyond the
//! error of the newly mapped palette entry). Inside it, a pixel may be written as any entry
//! within its allowance for substitutes, or as a reserved transparent "keep" entry (disposal
//! "keep", so the previous frame shows through) where the colour shown is within its
//! allowance for keeping; a lossy LZW compressor of its own ([`super::lzw`]) picks, among
//! those, the entries that make its strings longest. Every choice is judged against the
//! frame's true colour and what the GIF shows (kept as colours, so a palette change does not
//! disturb it), never the previous frame, so the error cannot creep over frames. Animations
//! whose own pixels are transparent need the reserved entry for transparency, so they store
//! every frame whole with one palette (with the same freedom of colour, transparent pixels
//! exactly transparent).
//!
//! Encoding is the slow part of a GIF (a table lookup per pixel, then LZW compression, which is
//! inherently serial within a dictionary), so the sink spreads it over a pool of threads of its
//! own: each frame's palette mapping is split into strips, and each frame is compressed in
//! strips of [`STRIP_PIXELS`] pixels, each from an empty dictionary, in parallel, then joined.
//! Frames are compressed one after the other, since each is stored against what the one
//! before left on screen. The pool is separate from rayon's global pool so a long compression
//! never holds up the simulation's strips running beside it, and the strips' size is fixed, so
//! the bytes do not depend on the number of threads.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use color_quant::NeuQuant;
use gif::{DisposalMethod, Encoder, Frame, Repeat};
use rayon::prelude::*;

use super::lzw::{Bits, LossyLzw, PixelTarget, STRIP_PIXELS};
use super::unseen::{Allowance, Allowances, local_contrast};
use crate::output::{
    AnimationInfo, Destination, FinishedOutput, FrameSink, OutputOptions, Written, check_frame_len,
    check_some_frames_written,
};

/// Pixels with a lower alpha become transparent (when the palette has a transparent entry).
const ALPHA_THRESHOLD: u8 = 128;

/// Browsers treat delays below 2 centiseconds as 10, so never write less.
const MIN_DELAY_CS: u64 = 2;

/// The fastest frame rate a GIF plays at: one frame per [`MIN_DELAY_CS`].
const MAX_GIF_FPS: f64 = 50.0;

/// NeuQuant learns from about this many pixels: enough for a good 256-colour palette, few
/// enough to take well under a second. Larger sample sets are sampled sparsely, smaller ones
/// are repeated.
const NEUQUANT_TRAINING_PIXELS: usize = 100_000;

/// NeuQuant's sampling factor must lie in 1..=30.
const NEUQUANT_MAX_SAMPLE_FACTOR: usize = 30;

/// Pixels per strip when a frame is mapped to palette indices in parallel.
const MAP_STRIP_PIXELS: usize = 1 << 16;

/// About how often (in seconds of the animation) a palette is learnt from the frame being
/// written, to replace the one in effect if it fits better: the waves' glints and shades are
/// not in the picture the first palette is learnt from.
const RELEARN_SECONDS: f64 = 1.0;

/// How much better a newly learnt palette must fit a frame for the frames to change palettes:
/// at most this share of the mean squared error of the palette in effect (each frame with its
/// own palette carries it, 768 bytes).
const RELEARN_GAIN: f64 = 0.8;

/// A pixel the palette in effect maps more than this many levels off (in the channel that
/// differs most) is a misfit, which the next palette learns from with more weight.
const MISFIT_LEVELS: u8 = 12;

/// How many times more a misfit weighs in learning a palette than another pixel.
const MISFIT_WEIGHT: usize = 4;

/// The fit of a palette to a frame is judged on every this many pixels.
const FIT_SAMPLE_STRIDE: usize = 7;

/// Bits per channel kept by the colour lookup table.
const LOOKUP_BITS: u32 = 6;
const LOOKUP_SIDE: usize = 1 << LOOKUP_BITS;

/// The buffered stream a GIF is written to: a temporary file or standard output.
type GifOut = BufWriter<Box<dyn Write + Send>>;

/// Writes an animated GIF through a temporary file (or to standard output).
pub(in crate::output) struct GifSink {
    stage: Stage,
    info: AnimationInfo,
    width: u16,
    height: u16,
    timeline: GifTimeline,
    /// The frame being written, mapped to palette indices (reused from frame to frame).
    mapped: Vec<u8>,
    /// The colours the GIF shows after the frames written so far, which the next one is
    /// stored against (with a "keep" entry only).
    shown: Option<Vec<[u8; 3]>>,
    /// Frames stored between two checks of whether a palette learnt from the frame itself
    /// fits it better (about a second of the animation).
    relearn_period: u32,
    /// How far from the true colours each pixel may be shown (from `--lossy`).
    allowances: Allowances,
    /// The threads that map and compress frames.
    workers: rayon::ThreadPool,
    /// Frames given to the sink.
    frames_received: u32,
    /// Frames kept in the GIF (all of them up to 50 fps).
    frames_stored: u32,
    target: PathBuf,
    destination: Destination,
}

enum Stage {
    /// No palette samples were given: the first frame will provide the palette, and the GIF
    /// header (which holds the palette) is not written yet.
    AwaitingFirstFrame(GifOut),
    Encoding {
        encoder: Box<Encoder<GifOut>>,
        /// The global colour table, from the palette samples or the first frame.
        global: Box<GifPalette>,
        /// A palette learnt later from a frame, carried as each frame's local colour table.
        local: Option<Box<GifPalette>>,
    },
    /// Starting the encoder failed; the sink only waits to be dropped.
    Broken,
}

impl GifSink {
    pub(in crate::output) fn create(
        target: &Path,
        info: &AnimationInfo,
        palette_samples: &[u8],
        options: &OutputOptions,
    ) -> Result<GifSink> {
        let (Ok(width), Ok(height)) = (u16::try_from(info.width), u16::try_from(info.height))
        else {
            bail!(
                "output '{}': GIF frames are at most 65535x65535 pixels, got {}x{}",
                target.display(),
                info.width,
                info.height
            );
        };
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let workers = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|index| format!("gif-encoder-{index}"))
            .build()
            .map_err(|error| anyhow!("cannot start the GIF encoding threads: {error}"))?;
        let (file, destination) = Destination::open(target, ".gif", options)?;
        let mut sink = GifSink {
            stage: Stage::AwaitingFirstFrame(BufWriter::new(file)),
            info: info.clone(),
            width,
            height,
            timeline: GifTimeline::new(info.fps, info.frames),
            mapped: Vec::new(),
            shown: None,
            relearn_period: (info.fps.min(MAX_GIF_FPS) * RELEARN_SECONDS)
                .round()
                .max(1.0) as u32,
            allowances: Allowances::new(options.gif_lossy),
            workers,
            frames_received: 0,
            frames_stored: 0,
            target: target.to_path_buf(),
            destination,
        };
        if !palette_samples.is_empty() {
            sink.start_encoder(palette_samples)?;
        }
        Ok(sink)
    }

    /// Derives the palette from `samples` and writes the GIF header, unless that is done.
    fn start_encoder(&mut self, samples: &[u8]) -> Result<()> {
        let out = match std::mem::replace(&mut self.stage, Stage::Broken) {
            Stage::AwaitingFirstFrame(out) => out,
            started_or_broken => {
                self.stage = started_or_broken;
                return Ok(());
            }
        };
        let palette = GifPalette::from_samples(samples);
        let mut encoder = Encoder::new(out, self.width, self.height, palette.rgb())
            .map_err(|error| self.error(error))?;
        encoder
            .set_repeat(Repeat::Infinite)
            .map_err(|error| self.error(error))?;
        self.stage = Stage::Encoding {
            encoder: Box::new(encoder),
            global: Box::new(palette),
            local: None,
        };
        Ok(())
    }

    fn error(&self, error: impl std::fmt::Display) -> anyhow::Error {
        anyhow!("cannot write GIF '{}': {error}", self.target.display())
    }
}

#[cfg(test)]
impl GifSink {
    /// Whether the palette has a spare "keep" entry, which storing only changes needs.
    fn stage_palette_keeps(&self) -> bool {
        matches!(&self.stage, Stage::Encoding { global, .. } if global.keep_index().is_some())
    }
}

/// One frame ready to be written: the rectangle it covers and its LZW-compressed indices
/// (led by the minimum code size, as `Encoder::write_lzw_pre_encoded_frame` takes them).
struct EncodedFrame {
    left: u16,
    top: u16,
    width: u16,
    height: u16,
    lzw: Vec<u8>,
    /// Whether it is stored against the frame before (its transparent entry means "keep").
    against_previous: bool,
    /// Whether it is written with the palette in effect as its local colour table (else with
    /// the global one).
    local_palette: bool,
}

/// The rectangle of a frame that is stored: left, top, width, height, in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    left: usize,
    top: usize,
    width: usize,
    height: usize,
}

/// Compresses a frame already mapped to indices of `palette` (`mapped`). With a "keep" entry
/// and a frame before it, only the rectangle around the pixels whose shown colour is no
/// longer within their allowance of the best the palette offers is stored; inside it any
/// entry within the allowance may be written (see [`lzw`](super::lzw)), and `shown`
/// is updated to what the GIF shows after this frame. A frame that stores nothing is written
/// in the `global` palette, so it needs no local colour table.
fn encode_frame(
    palette: &GifPalette,
    global: &GifPalette,
    allowances: &Allowances,
    rgba: &[u8],
    mapped: &[u8],
    shown: &mut Option<Vec<[u8; 3]>>,
    (width, height): (u16, u16),
) -> EncodedFrame {
    let frame_width = usize::from(width);
    let whole = Rect {
        left: 0,
        top: 0,
        width: frame_width,
        height: usize::from(height),
    };
    let keep = palette.keep_index();
    let before = match keep {
        Some(_) => shown.as_deref(),
        None => None,
    };
    let contrast = local_contrast(rgba, frame_width);
    let rect = match before {
        Some(before) => must_change(
            palette,
            allowances,
            rgba,
            mapped,
            before,
            &contrast,
            frame_width,
        ),
        None => Some(whole),
    };
    let special = keep.or(palette.transparent_index());
    let compressor = LossyLzw::new(&palette.colours, special);
    let side = |value: usize| u16::try_from(value).unwrap_or(u16::MAX);
    let Some(rect) = rect else {
        // Nothing to store: one kept pixel (a GIF frame cannot be empty, and it carries the
        // frame's delay), in the global palette, so it needs no local colour table.
        let keep = global.keep_index();
        let compressor = LossyLzw::new(&global.colours, keep);
        let target = PixelTarget {
            rgb: [0; 3],
            mapped: keep.unwrap_or(0),
            limit: -1,
            special_error: 0,
        };
        let mut chosen = [0];
        let bits = compressor.compress_strip(&[target], true, true, &mut chosen);
        let mut lzw = vec![compressor.min_code_size()];
        lzw.extend(bits.into_bytes());
        return EncodedFrame {
            left: 0,
            top: 0,
            width: 1,
            height: 1,
            lzw,
            against_previous: true,
            local_palette: false,
        };
    };
    let pixels = rect.width * rect.height;
    // The frame pixel of each pixel of the rectangle, in order.
    let frame_pixel =
        |at: usize| (rect.top + at / rect.width) * frame_width + rect.left + at % rect.width;
    let strips: Vec<(Bits, Vec<u8>)> = (0..pixels.div_ceil(STRIP_PIXELS))
        .into_par_iter()
        .map(|strip| {
            let span = strip * STRIP_PIXELS..((strip + 1) * STRIP_PIXELS).min(pixels);
            let targets: Vec<PixelTarget> = span
                .clone()
                .map(|at| {
                    let pixel = frame_pixel(at);
                    palette.target(
                        &rgba[pixel * 4..pixel * 4 + 4],
                        mapped[pixel],
                        before.map(|before| before[pixel]),
                        allowances.at(contrast[pixel], &rgba[pixel * 4..pixel * 4 + 4]),
                    )
                })
                .collect();
            let mut chosen = vec![0; targets.len()];
            let last = span.end == pixels;
            let bits = compressor.compress_strip(&targets, strip == 0, last, &mut chosen);
            (bits, chosen)
        })
        .collect();
    let against_previous = before.is_some();
    let mut bits = Bits::default();
    let shown = shown.get_or_insert_with(|| vec![[0; 3]; mapped.len()]);
    let mut at = 0;
    for (strip_bits, chosen) in &strips {
        bits.append(strip_bits);
        for &index in chosen {
            if Some(index) != keep {
                shown[frame_pixel(at)] = palette.colours[usize::from(index)];
            }
            at += 1;
        }
    }
    let mut lzw = vec![compressor.min_code_size()];
    lzw.extend(bits.into_bytes());
    EncodedFrame {
        left: side(rect.left),
        top: side(rect.top),
        width: side(rect.width),
        height: side(rect.height),
        lzw,
        against_previous,
        local_palette: !std::ptr::eq(palette, global),
    }
}

/// The rectangle around the pixels where what the GIF shows (`before`) is further from the
/// frame's true colour than the newly mapped entry by more than the pixel's allowance for
/// keeping (from its `contrast`), or `None` where there is no such pixel.
fn must_change(
    palette: &GifPalette,
    allowances: &Allowances,
    rgba: &[u8],
    mapped: &[u8],
    before: &[[u8; 3]],
    contrast: &[u8],
    frame_width: usize,
) -> Option<Rect> {
    let rows = (MAP_STRIP_PIXELS / frame_width).max(1);
    // (first column, last column + 1, first row, last row + 1) of each strip of rows.
    let bounds = mapped
        .par_chunks(rows * frame_width)
        .zip(before.par_chunks(rows * frame_width))
        .zip(rgba.par_chunks(rows * frame_width * 4))
        .zip(contrast.par_chunks(rows * frame_width))
        .enumerate()
        .filter_map(|(strip, (((mapped, before), rgba), contrast))| {
            let mut bounds: Option<(usize, usize, usize, usize)> = None;
            for (row, (((mapped, before), rgba), contrast)) in mapped
                .chunks_exact(frame_width)
                .zip(before.chunks_exact(frame_width))
                .zip(rgba.chunks_exact(frame_width * 4))
                .zip(contrast.chunks_exact(frame_width))
                .enumerate()
            {
                let changes = |x: &usize| {
                    let pixel = &rgba[x * 4..x * 4 + 4];
                    i16::from(colour_error(before[*x], pixel))
                        > i16::from(palette.error_of(mapped[*x], pixel))
                            + allowances.at(contrast[*x], pixel).keep
                };
                let Some(first) = (0..frame_width).find(changes) else {
                    continue;
                };
                let last = (0..frame_width).rev().find(changes).unwrap_or(first);
                let y = strip * rows + row;
                bounds = Some(match bounds {
                    None => (first, last + 1, y, y + 1),
                    Some((left, right, top, _)) => {
                        (left.min(first), right.max(last + 1), top, y + 1)
                    }
                });
            }
            bounds
        })
        .reduce_with(|a, b| (a.0.min(b.0), a.1.max(b.1), a.2.min(b.2), a.3.max(b.3)))?;
    let (left, right, top, bottom) = bounds;
    Some(Rect {
        left,
        top,
        width: right - left,
        height: bottom - top,
    })
}

impl FrameSink for GifSink {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<()> {
        check_frame_len(rgba, &self.info)?;
        let index = self.frames_received;
        self.frames_received += 1;
        if !self.timeline.keeps(index) {
            return Ok(());
        }
        self.start_encoder(rgba)?;
        let delay = self.timeline.next_delay();
        let relearn_due =
            self.frames_stored > 0 && self.frames_stored.is_multiple_of(self.relearn_period);
        let Stage::Encoding {
            encoder,
            global,
            local,
        } = &mut self.stage
        else {
            return Err(self.error("an earlier error stopped the encoder"));
        };
        let (width, height) = (self.width, self.height);
        let (mapped, shown, allowances) = (&mut self.mapped, &mut self.shown, &self.allowances);
        let encoded = self.workers.install(|| {
            // Only frames stored against the one before may change palettes: an animation
            // with transparent pixels keeps its global palette and its transparent entry.
            if relearn_due && global.keep_index().is_some() {
                let in_effect = local.as_deref().unwrap_or(global);
                if let Some(better) = in_effect.bettered_by_learning(rgba) {
                    *local = Some(Box::new(better));
                }
            }
            let palette = local.as_deref().unwrap_or(global);
            palette.map_frame_parallel(rgba, mapped);
            encode_frame(
                palette,
                global,
                allowances,
                rgba,
                mapped,
                shown,
                (width, height),
            )
        });
        let stored_against_previous = encoded.against_previous;
        let palette = match (encoded.local_palette, local.as_deref()) {
            (true, Some(local)) => local,
            _ => &**global,
        };
        let transparent = palette.transparent_index();
        let frame = Frame {
            left: encoded.left,
            top: encoded.top,
            width: encoded.width,
            height: encoded.height,
            delay,
            transparent: if stored_against_previous {
                palette.keep_index()
            } else {
                transparent
            },
            // With transparency, clear each frame before the next, or the previous frame
            // would show through its transparent pixels.
            dispose: match transparent {
                Some(_) => DisposalMethod::Background,
                None => DisposalMethod::Keep,
            },
            buffer: Cow::Borrowed(&encoded.lzw),
            palette: encoded.local_palette.then(|| palette.rgb().to_vec()),
            ..Frame::default()
        };
        if let Err(error) = encoder.write_lzw_pre_encoded_frame(&frame) {
            let message = format!("cannot write GIF '{}': {error}", self.target.display());
            self.stage = Stage::Broken;
            return Err(anyhow!(message));
        }
        self.frames_stored += 1;
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<FinishedOutput> {
        check_some_frames_written(&self.target, self.frames_received)?;
        let GifSink {
            stage,
            info,
            frames_received,
            frames_stored,
            target,
            destination,
            ..
        } = *self;
        let error = |error: &dyn std::fmt::Display| {
            anyhow!("cannot write GIF '{}': {error}", target.display())
        };
        let Stage::Encoding { encoder, .. } = stage else {
            return Err(error(&"an earlier error stopped the encoder"));
        };
        let mut out = encoder.into_inner().map_err(|e| error(&e))?;
        out.flush().map_err(|e| error(&e))?;
        let mut written = Written {
            frames: frames_stored,
            ..Written::as_rendered(&info)
        };
        if frames_stored < frames_received {
            written.changes.push(format!(
                "{} fps is above the {MAX_GIF_FPS} fps a GIF can play: kept {frames_stored} of \
                 {frames_received} frames, evenly, at {MAX_GIF_FPS} fps",
                info.fps
            ));
        }
        Ok(destination.finished(written))
    }
}

/// Which frames a GIF keeps and how long each shows, in whole centiseconds.
///
/// Up to 50 fps every frame is kept, and each delay runs from the time already written to the
/// end of that frame, so the total tracks the exact time (30 fps gives 3, 3, 4, 3, 3, 4, ...).
/// Above 50 fps the animation's length (frames/fps) is cut into 2-centisecond slots; each slot
/// shows the frame whose time stamp opens it (the others are dropped, evenly), and the last
/// slot runs to the end, so the GIF still lasts frames/fps seconds.
pub(super) struct GifTimeline {
    fps: f64,
    /// Above 50 fps, the number of slots (frames kept); `None` when every frame is kept.
    slots: Option<u64>,
    /// The animation's length in centiseconds, rounded.
    length_cs: u64,
    delays_given: u64,
    elapsed_cs: u64,
}

/// Keeps exact multiples (3 frames at 30 fps = 10 cs) from flooring down.
const EPSILON: f64 = 1e-9;

impl GifTimeline {
    /// The timeline of `frames` frames at `fps`.
    pub(super) fn new(fps: f64, frames: u32) -> GifTimeline {
        let length = f64::from(frames) * 100.0 / fps;
        let slots = (fps > MAX_GIF_FPS)
            .then(|| ((length / MIN_DELAY_CS as f64 + EPSILON).floor() as u64).max(1));
        GifTimeline {
            fps,
            slots,
            length_cs: length.round() as u64,
            delays_given: 0,
            elapsed_cs: 0,
        }
    }

    /// Whether the frame with this index (from 0) is stored.
    pub(super) fn keeps(&self, index: u32) -> bool {
        let Some(slots) = self.slots else {
            return true;
        };
        // The first slot at or after the frame's time, and the frame that opens it.
        let per_slot = self.fps / MAX_GIF_FPS;
        let slot = (f64::from(index) / per_slot - EPSILON).ceil().max(0.0) as u64;
        slot < slots && (slot as f64 * per_slot + EPSILON).floor() as u64 == u64::from(index)
    }

    /// The delay of the next frame kept, at least [`MIN_DELAY_CS`].
    pub(super) fn next_delay(&mut self) -> u16 {
        self.delays_given += 1;
        let end_cs = match self.slots {
            None => (self.delays_given as f64 * 100.0 / self.fps + EPSILON).floor() as u64,
            Some(slots) if self.delays_given >= slots => self.length_cs,
            Some(_) => self.delays_given * MIN_DELAY_CS,
        };
        let delay = end_cs
            .saturating_sub(self.elapsed_cs)
            .clamp(MIN_DELAY_CS, u64::from(u16::MAX));
        self.elapsed_cs += delay;
        u16::try_from(delay).unwrap_or(u16::MAX)
    }
}

/// A palette (the global one, or one learnt from a frame), plus the table that maps colours
/// to it.
pub(super) struct GifPalette {
    /// Palette entries as R, G, B bytes.
    rgb: Vec<u8>,
    /// The same entries as colours.
    colours: Vec<[u8; 3]>,
    /// Palette index for each colour cell, indexed by [`lookup_cell`].
    lookup: Vec<u8>,
    transparent: Option<u8>,
    keep: Option<u8>,
}

impl GifPalette {
    /// Chooses at most 256 colours representing `samples` (RGBA). Up to 256 distinct colours
    /// are kept exactly; more are reduced with NeuQuant. If any sample has alpha below 128,
    /// one entry is reserved for transparency.
    ///
    /// Otherwise that entry marks pixels unchanged since the previous frame ([`keep_index`]),
    /// unless the samples have exactly 256 distinct colours, which are kept exactly instead.
    ///
    /// [`keep_index`]: Self::keep_index
    pub(super) fn from_samples(samples: &[u8]) -> GifPalette {
        let needs_transparency = samples
            .chunks_exact(4)
            .any(|pixel| pixel[3] < ALPHA_THRESHOLD);
        let (mut colours, spare_entry) = match distinct_opaque_colours(samples, 256) {
            Some(colours) if colours.len() < 256 => (colours, true),
            Some(colours) if !needs_transparency => (colours, false),
            _ => (neuquant_colours(samples, 255), true),
        };
        if colours.is_empty() {
            colours.push([0, 0, 0]);
        }
        let lookup = build_lookup_table(&colours);
        let reserved = spare_entry.then(|| {
            let index = u8::try_from(colours.len()).ok();
            colours.push([0, 0, 0]);
            index
        });
        let reserved = reserved.flatten();
        let (transparent, keep) = if needs_transparency {
            (reserved, None)
        } else {
            (None, reserved)
        };
        GifPalette {
            rgb: colours.concat(),
            colours,
            lookup,
            transparent,
            keep,
        }
    }

    /// The entry that marks a pixel unchanged since the previous frame, if the palette has one
    /// to spare (it never appears in a mapped frame).
    pub(super) fn keep_index(&self) -> Option<u8> {
        self.keep
    }

    pub(super) fn rgb(&self) -> &[u8] {
        &self.rgb
    }

    pub(super) fn transparent_index(&self) -> Option<u8> {
        self.transparent
    }

    /// Replaces `indices` with the palette index of every pixel of `rgba`: one table lookup
    /// per pixel, no search. The serial reference of [`map_frame_parallel`](Self::map_frame_parallel).
    #[cfg(test)]
    pub(super) fn map_frame(&self, rgba: &[u8], indices: &mut Vec<u8>) {
        indices.clear();
        indices.extend(rgba.chunks_exact(4).map(|pixel| self.index_of(pixel)));
    }

    /// Replaces `indices` with the palette index of every pixel of `rgba` (one table lookup per
    /// pixel, no search), in strips on the current rayon pool.
    pub(super) fn map_frame_parallel(&self, rgba: &[u8], indices: &mut Vec<u8>) {
        indices.resize(rgba.len() / 4, 0);
        indices
            .par_chunks_mut(MAP_STRIP_PIXELS)
            .zip(rgba.par_chunks(MAP_STRIP_PIXELS * 4))
            .for_each(|(indices, rgba)| {
                for (index, pixel) in indices.iter_mut().zip(rgba.chunks_exact(4)) {
                    *index = self.index_of(pixel);
                }
            });
    }

    /// What a pixel of true colour `pixel`, mapped to `mapped`, may be written as: any colour
    /// further from it than the mapped one by at most its `allowance` for substitutes, and
    /// "keep" where the colour the GIF shows there (`shown`) is further by at most its
    /// allowance for keeping.
    fn target(
        &self,
        pixel: &[u8],
        mapped: u8,
        shown: Option<[u8; 3]>,
        allowance: Allowance,
    ) -> PixelTarget {
        let rgb = [pixel[0], pixel[1], pixel[2]];
        let mapping_error = i16::from(self.error_of(mapped, pixel));
        if self.transparent.is_some() {
            let transparent = pixel[3] < ALPHA_THRESHOLD;
            return PixelTarget {
                rgb,
                mapped,
                limit: if transparent {
                    -1
                } else {
                    mapping_error + allowance.substitute
                },
                special_error: if transparent { 0 } else { -1 },
            };
        }
        let special_error = match shown {
            Some(shown) => {
                let error = i16::from(colour_error(shown, pixel));
                if error <= mapping_error + allowance.keep {
                    error
                } else {
                    -1
                }
            }
            None => -1,
        };
        PixelTarget {
            rgb,
            mapped,
            limit: mapping_error + allowance.substitute,
            special_error,
        }
    }

    /// How far palette entry `index` is from the colour of `pixel`: the largest channel
    /// difference, in levels.
    fn error_of(&self, index: u8, pixel: &[u8]) -> u8 {
        match self.colours.get(usize::from(index)) {
            Some(&entry) => colour_error(entry, pixel),
            None => u8::MAX,
        }
    }

    /// A palette learnt from `frame` (RGBA, opaque), if it fits the frame clearly better than
    /// this one (its mean squared error at most [`RELEARN_GAIN`] of this one's) and has a spare
    /// "keep" entry. The pixels this palette fits worst (the water's glints and crests, which
    /// are few but are what a viewer watches) weigh [`MISFIT_WEIGHT`] times more in the
    /// learning and, squared, in the judging.
    fn bettered_by_learning(&self, frame: &[u8]) -> Option<GifPalette> {
        let mut samples = frame.to_vec();
        let misfits: Vec<u8> = frame
            .chunks_exact(4)
            .filter(|pixel| self.error_of(self.index_of(pixel), pixel) > MISFIT_LEVELS)
            .flatten()
            .copied()
            .collect();
        for _ in 0..MISFIT_WEIGHT {
            samples.extend_from_slice(&misfits);
        }
        let learnt = GifPalette::from_samples(&samples);
        learnt.keep_index()?;
        let (before, after) = (self.squared_error(frame), learnt.squared_error(frame));
        (after <= before * RELEARN_GAIN).then_some(learnt)
    }

    /// The mean squared error (as [`error_of`](Self::error_of)) of the mapping of every
    /// [`FIT_SAMPLE_STRIDE`]th pixel of `frame`.
    fn squared_error(&self, frame: &[u8]) -> f64 {
        let (sum, count) = frame.chunks_exact(4).step_by(FIT_SAMPLE_STRIDE).fold(
            (0u64, 0u64),
            |(sum, count), pixel| {
                let error = u64::from(self.error_of(self.index_of(pixel), pixel));
                (sum + error * error, count + 1)
            },
        );
        sum as f64 / count.max(1) as f64
    }

    fn index_of(&self, pixel: &[u8]) -> u8 {
        match self.transparent {
            Some(transparent) if pixel[3] < ALPHA_THRESHOLD => transparent,
            _ => self.lookup[lookup_cell(pixel[0], pixel[1], pixel[2])],
        }
    }
}

/// How far colour `entry` is from the colour of `pixel` (RGB or RGBA): the largest channel
/// difference, in levels.
fn colour_error(entry: [u8; 3], pixel: &[u8]) -> u8 {
    entry
        .iter()
        .zip(pixel)
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap_or(0)
}

/// The lookup-table cell of a colour: the top [`LOOKUP_BITS`] bits of each channel.
fn lookup_cell(r: u8, g: u8, b: u8) -> usize {
    let shift = 8 - LOOKUP_BITS;
    (usize::from(r >> shift) * LOOKUP_SIDE + usize::from(g >> shift)) * LOOKUP_SIDE
        + usize::from(b >> shift)
}

/// The colours of the opaque samples, sorted, if there are at most `limit` of them.
fn distinct_opaque_colours(samples: &[u8], limit: usize) -> Option<Vec<[u8; 3]>> {
    let mut seen = HashSet::new();
    for pixel in samples.chunks_exact(4) {
        if pixel[3] >= ALPHA_THRESHOLD {
            seen.insert([pixel[0], pixel[1], pixel[2]]);
            if seen.len() > limit {
                return None;
            }
        }
    }
    let mut colours: Vec<_> = seen.into_iter().collect();
    colours.sort_unstable();
    Some(colours)
}

/// `count` colours chosen by NeuQuant to represent the opaque samples.
fn neuquant_colours(samples: &[u8], count: usize) -> Vec<[u8; 3]> {
    let mut opaque: Vec<u8> = samples
        .chunks_exact(4)
        .filter(|pixel| pixel[3] >= ALPHA_THRESHOLD)
        .flat_map(|pixel| [pixel[0], pixel[1], pixel[2], 255])
        .collect();
    // NeuQuant sees each training pixel once; a small sample needs several passes.
    let distinct_pixels = opaque.len() / 4;
    if distinct_pixels > 0 {
        let passes = NEUQUANT_TRAINING_PIXELS.div_ceil(distinct_pixels);
        opaque = opaque.repeat(passes);
    }
    let sample_factor =
        (opaque.len() / 4 / NEUQUANT_TRAINING_PIXELS).clamp(1, NEUQUANT_MAX_SAMPLE_FACTOR) as i32;
    NeuQuant::new(sample_factor, count, &opaque)
        .color_map_rgb()
        .chunks_exact(3)
        .map(|rgb| [rgb[0], rgb[1], rgb[2]])
        .collect()
}

/// For every cell of the 64x64x64 colour cube, the index of the palette colour nearest to the
/// cell's centre. `palette` must not be empty and holds at most 256 colours.
fn build_lookup_table(palette: &[[u8; 3]]) -> Vec<u8> {
    let search = NearestColour::new(palette);
    // A cell spans 4 channel values, v..=v+3; its centre v+1.5 is 2v+3 in half units.
    let cell_width = 1 << (8 - LOOKUP_BITS);
    let centre = |cell: usize| (2 * cell * cell_width + cell_width - 1) as i32;
    let mut table = Vec::with_capacity(LOOKUP_SIDE * LOOKUP_SIDE * LOOKUP_SIDE);
    for r in 0..LOOKUP_SIDE {
        for g in 0..LOOKUP_SIDE {
            for b in 0..LOOKUP_SIDE {
                table.push(search.nearest([centre(r), centre(g), centre(b)]));
            }
        }
    }
    table
}

/// Nearest-colour search over a palette sorted by green, scanning outwards from the query's
/// green value and stopping once the green difference alone exceeds the best distance.
/// Colours are in half units (twice the channel value), so cell centres are whole numbers.
struct NearestColour {
    /// (colour in half units, palette index), sorted by green.
    by_green: Vec<([i32; 3], u8)>,
}

impl NearestColour {
    fn new(palette: &[[u8; 3]]) -> NearestColour {
        let mut by_green: Vec<([i32; 3], u8)> = palette
            .iter()
            .zip(0..=u8::MAX)
            .map(|(&colour, index)| (colour.map(|c| 2 * i32::from(c)), index))
            .collect();
        by_green.sort_by_key(|&([_, g, _], _)| g);
        NearestColour { by_green }
    }

    fn nearest(&self, query: [i32; 3]) -> u8 {
        let start = self
            .by_green
            .partition_point(|(colour, _)| colour[1] < query[1]);
        let mut best = Nearest {
            distance: i32::MAX,
            index: 0,
        };
        best.scan(self.by_green[start..].iter(), query);
        best.scan(self.by_green[..start].iter().rev(), query);
        best.index
    }
}

/// The best palette entry found so far by [`NearestColour::nearest`].
struct Nearest {
    distance: i32,
    index: u8,
}

impl Nearest {
    /// Visits `entries` in order of growing green difference from `query`, until that
    /// difference alone is larger than the best distance so far.
    fn scan<'a>(&mut self, entries: impl Iterator<Item = &'a ([i32; 3], u8)>, query: [i32; 3]) {
        for (colour, index) in entries {
            let [dr, dg, db] = [0, 1, 2].map(|c| colour[c] - query[c]);
            if dg * dg >= self.distance {
                break;
            }
            let distance = dr * dr + dg * dg + db * db;
            if distance < self.distance {
                self.distance = distance;
                self.index = *index;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force_nearest(palette: &[[u8; 3]], query: [i32; 3]) -> u8 {
        let distance = |colour: &[u8; 3]| -> i32 {
            (0..3)
                .map(|c| (2 * i32::from(colour[c]) - query[c]).pow(2))
                .sum()
        };
        let (index, _) = palette
            .iter()
            .enumerate()
            .min_by_key(|(_, colour)| distance(colour))
            .unwrap();
        index as u8
    }

    #[test]
    fn lookup_table_holds_the_nearest_palette_colour() {
        let samples: Vec<u8> = (0..=255u8)
            .flat_map(|x| (0..64u8).map(move |y| [x, y.wrapping_mul(4), x ^ y, 255]))
            .flatten()
            .collect();
        let palette = neuquant_colours(&samples, 256);
        let table = build_lookup_table(&palette);
        assert_eq!(table.len(), 64 * 64 * 64);
        for cell in (0..table.len()).step_by(37) {
            // Cell centres in half units, as the table uses them.
            let [r, g, b] = [cell >> 12, (cell >> 6) & 63, cell & 63].map(|v| (v * 8 + 3) as i32);
            let want = brute_force_nearest(&palette, [r, g, b]);
            let got = usize::from(table[cell]);
            // Ties may pick either colour; the distances must agree.
            let distance = |index: usize| -> i32 {
                (0..3)
                    .map(|c| (2 * i32::from(palette[index][c]) - [r, g, b][c]).pow(2))
                    .sum()
            };
            assert_eq!(distance(got), distance(usize::from(want)), "cell {cell}");
        }
    }

    #[test]
    fn few_colours_are_kept_exactly_and_transparency_takes_an_entry() {
        let samples = [
            10, 20, 30, 255, 200, 100, 0, 255, 10, 20, 30, 255, 0, 0, 0, 0,
        ];
        let palette = GifPalette::from_samples(&samples);
        assert_eq!(palette.transparent_index(), Some(2));
        assert_eq!(palette.rgb(), [10, 20, 30, 200, 100, 0, 0, 0, 0]);
        let mut indices = Vec::new();
        palette.map_frame(&samples, &mut indices);
        assert_eq!(indices, [0, 1, 0, 2]);
    }

    #[test]
    fn opaque_samples_in_distinct_cells_map_back_exactly() {
        // 256 colours, each in its own 6-bit cell: all entries are used, none is transparent.
        let samples: Vec<u8> = (0..256u32)
            .flat_map(|i| [(i % 64 * 4) as u8, (i / 64 * 64) as u8, 128, 255])
            .collect();
        let palette = GifPalette::from_samples(&samples);
        assert_eq!(palette.transparent_index(), None);
        assert_eq!(palette.rgb().len(), 256 * 3);
        let mut indices = Vec::new();
        palette.map_frame(&samples, &mut indices);
        for (pixel, &index) in samples.chunks_exact(4).zip(&indices) {
            let entry = &palette.rgb()[usize::from(index) * 3..][..3];
            assert_eq!(entry, &pixel[..3]);
        }
    }

    /// Frames of many colours (more than 128, so LZW codes grow past 8 bits) that change.
    fn busy_frame(width: usize, height: usize, t: usize) -> Vec<u8> {
        (0..width * height)
            .flat_map(|i| {
                let (x, y) = (i % width, i / width);
                let v = (x * 7 + y * 13 + t * 29) ^ (x * y + t);
                [
                    v as u8,
                    (v >> 3) as u8,
                    (x + t) as u8,
                    if v.is_multiple_of(97) { 0 } else { 255 },
                ]
            })
            .collect()
    }

    /// A pixel a GIF shows, with what it should show and how far off it may be.
    struct Judged<'a> {
        shown: &'a [u8],
        truth: &'a [u8],
        /// The error of the palette colour the truth maps to.
        mapping_error: i16,
        allowance: Allowance,
        contrast: u8,
    }

    /// Every pixel of `canvas` (a frame as shown) beside the true `frame` (`width` pixels a
    /// row), judged with `palette` and the default allowances.
    fn judge_pixels<'a>(
        palette: &GifPalette,
        canvas: &'a [u8],
        frame: &'a [u8],
        width: usize,
    ) -> Vec<Judged<'a>> {
        let allowances = Allowances::new(crate::output::DEFAULT_LOSSY);
        let mut mapped = Vec::new();
        palette.map_frame(frame, &mut mapped);
        let contrast = local_contrast(frame, width);
        canvas
            .chunks(4)
            .zip(frame.chunks(4))
            .zip(mapped)
            .zip(contrast)
            .map(|(((shown, truth), index), contrast)| Judged {
                shown,
                truth,
                mapping_error: i16::from(palette.error_of(index, truth)),
                allowance: allowances.at(contrast, truth),
                contrast,
            })
            .collect()
    }

    /// Decodes the GIF at `path` into whole canvases (delay, stored rectangle, RGBA).
    fn decoded(path: &Path) -> Vec<crate::output::tests::Canvas> {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let decoder = options
            .read_info(std::fs::File::open(path).unwrap())
            .unwrap();
        crate::output::tests::gif_canvases(decoder).1
    }

    /// Writes `frames` through a sink with `samples` for the palette.
    fn write_gif(path: &Path, width: usize, height: usize, frames: &[Vec<u8>], samples: &[u8]) {
        let info = AnimationInfo {
            width: width as u32,
            height: height as u32,
            fps: 25.0,
            frames: frames.len() as u32,
        };
        let mut sink =
            Box::new(GifSink::create(path, &info, samples, &OutputOptions::default()).unwrap());
        for frame in frames {
            sink.write_frame(frame).unwrap();
        }
        sink.finish().unwrap().commit().unwrap();
    }

    /// Every pixel the GIF shows, in every frame, is within the [`Allowance`] its contrast
    /// gives it (in levels, in the channel that differs most) of the error the palette
    /// mapping itself has there, judged against the true frame; transparent pixels stay
    /// transparent and opaque ones opaque. Busy frames of many colours over several strips,
    /// with and without transparency.
    #[test]
    fn every_frame_shown_is_within_the_bound_of_the_true_frame() {
        let (width, height) = (301, 250);
        for transparency in [true, false] {
            let frames: Vec<Vec<u8>> = (0..8)
                .map(|t| {
                    let mut frame = busy_frame(width, height, t);
                    if !transparency {
                        frame.chunks_exact_mut(4).for_each(|pixel| pixel[3] = 255);
                    }
                    frame
                })
                .collect();
            let samples = frames.concat();
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("a.gif");
            write_gif(&path, width, height, &frames, &samples);
            let palette = GifPalette::from_samples(&samples);
            assert_eq!(palette.transparent_index().is_some(), transparency);
            let decoded = decoded(&path);
            assert_eq!(decoded.len(), frames.len());
            let mut inexact = 0;
            for (k, ((_, _, canvas), frame)) in decoded.iter().zip(&frames).enumerate() {
                for judged in judge_pixels(&palette, canvas, frame, width) {
                    let (shown, truth) = (judged.shown, judged.truth);
                    let (mapping_error, allowance) = (judged.mapping_error, judged.allowance);
                    if truth[3] < ALPHA_THRESHOLD {
                        assert_eq!(shown[3], 0, "frame {k}: a transparent pixel shows");
                        continue;
                    }
                    assert_eq!(shown[3], 255, "frame {k}: an opaque pixel is transparent");
                    let off = i16::from(colour_error([shown[0], shown[1], shown[2]], truth));
                    let bound = allowance.keep.max(allowance.substitute);
                    assert!(
                        off <= mapping_error + bound,
                        "frame {k}: {shown:?} for {truth:?} is {off} levels off (the mapping: \
                         {mapping_error}, the allowance {allowance:?})"
                    );
                    inexact += usize::from(off > mapping_error);
                }
            }
            // The bound is used: the compressor does take other colours than the mapped ones.
            assert!(inexact > 0);
        }
    }

    /// Colours that the first palette does not hold (a second of blues, then reds): a second
    /// in, the sink learns a palette from the frame, and the frames from then on carry it as
    /// their local colour table and show the reds, not the nearest blues. Frames that store
    /// nothing need no table.
    #[test]
    fn a_palette_is_relearnt_when_the_colours_change() {
        let (width, height) = (64, 48);
        let ramp = |hue: [u8; 3], step: usize| -> Vec<u8> {
            (0..width * height)
                .flat_map(|i| {
                    let shade = ((i % width + i / width * 3) % 200 * step / 4) as u8;
                    [hue[0] | shade, hue[1] | (shade / 2), hue[2], 255]
                })
                .collect()
        };
        let blues = ramp([0, 40, 200], 4);
        let reds = ramp([80, 0, 30], 5);
        let mut frames = vec![blues.clone(); 25];
        frames.extend(vec![reds.clone(); 5]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.gif");
        write_gif(&path, width, height, &frames, &blues);

        let first = GifPalette::from_samples(&blues);
        assert!(
            first.squared_error(&reds) > 400.0,
            "{}",
            first.squared_error(&reds)
        );
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options
            .read_info(std::fs::File::open(&path).unwrap())
            .unwrap();
        let mut local_tables = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            local_tables.push(frame.palette.is_some());
        }
        // Frame 25 stores the reds with the new palette; 26 to 29 store nothing.
        let mut expected = vec![false; 30];
        expected[25] = true;
        assert_eq!(local_tables, expected);
        let decoded = decoded(&path);
        let last = &decoded[29].2;
        let off: Vec<u8> = last
            .chunks(4)
            .zip(reds.chunks(4))
            .map(|(shown, truth)| colour_error([shown[0], shown[1], shown[2]], truth))
            .collect();
        let mean = off.iter().map(|&e| f64::from(e)).sum::<f64>() / off.len() as f64;
        assert!(
            mean < 2.0,
            "the reds are shown {mean} levels off on average"
        );
    }

    #[test]
    fn frames_after_the_first_store_only_the_rectangle_that_changed() {
        let (width, height) = (48, 32);
        let colours = [[0, 0, 0], [250, 10, 10], [10, 250, 10], [10, 10, 250]];
        let paint = |frame: &mut Vec<u8>, x: usize, y: usize, colour: usize| {
            let at = (y * width + x) * 4;
            frame[at..at + 4].copy_from_slice(&[
                colours[colour][0],
                colours[colour][1],
                colours[colour][2],
                255,
            ]);
        };
        let mut frames = vec![vec![0u8; width * height * 4]];
        for (x, y) in (0..width).flat_map(|x| (0..height).map(move |y| (x, y))) {
            paint(&mut frames[0], x, y, (x / 8 + y / 8) % 4);
        }
        // Frame 1: a 3x2 block at (10, 5) changes; frame 2: nothing; frame 3: two far pixels.
        let mut frame = frames[0].clone();
        for (x, y) in [(10, 5), (11, 5), (12, 5), (10, 6), (11, 6), (12, 6)] {
            paint(&mut frame, x, y, 3 - (x / 8 + y / 8) % 4);
        }
        frames.push(frame.clone());
        frames.push(frame.clone());
        paint(&mut frame, 2, 30, 1);
        paint(&mut frame, 40, 3, 2);
        frames.push(frame);
        let info = AnimationInfo {
            width: width as u32,
            height: height as u32,
            fps: 25.0,
            frames: 4,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.gif");
        let mut sink = Box::new(
            GifSink::create(&path, &info, &frames.concat(), &OutputOptions::default()).unwrap(),
        );
        for frame in &frames {
            sink.write_frame(frame).unwrap();
        }
        sink.finish().unwrap().commit().unwrap();

        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let decoder = options
            .read_info(std::fs::File::open(&path).unwrap())
            .unwrap();
        let (_, decoded) = crate::output::tests::gif_canvases(decoder);
        let rects: Vec<[u16; 4]> = decoded.iter().map(|(_, rect, _)| *rect).collect();
        assert_eq!(
            rects,
            [[0, 0, 48, 32], [10, 5, 3, 2], [0, 0, 1, 1], [2, 3, 39, 28]]
        );
        for (k, ((_, _, canvas), frame)) in decoded.iter().zip(&frames).enumerate() {
            assert!(
                canvas == frame,
                "frame {k} does not decode to what was written"
            );
        }
    }

    /// A grey ramp drifting by one level a frame: each frame alone is too small a change to
    /// store, but the GIF never falls further behind the truth than its allowance (it compares
    /// with what it shows, not with the previous frame), and a flicker of a level between two
    /// palette colours stores nothing.
    #[test]
    fn changes_too_small_to_see_are_not_stored_and_the_error_never_accumulates() {
        let (width, height) = (64usize, 4usize);
        let grey = |level: usize| -> Vec<u8> {
            (0..width * height)
                .flat_map(|i| {
                    // Bright greys, which get the whole allowance.
                    let v = (128 + level + i % width).min(255) as u8;
                    [v, v, v, 255]
                })
                .collect()
        };
        // Every grey level is a palette colour, so the mapping itself is exact.
        let samples: Vec<u8> = (0..=254u8).flat_map(|v| [v, v, v, 255]).collect();
        let mut frames: Vec<Vec<u8>> = (0..60).map(grey).collect();
        // Then a flicker: one level up and down again, over and over.
        for k in 0..6 {
            frames.push(grey(59 + k % 2));
        }
        let info = AnimationInfo {
            width: width as u32,
            height: height as u32,
            fps: 25.0,
            frames: frames.len() as u32,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.gif");
        let mut sink =
            Box::new(GifSink::create(&path, &info, &samples, &OutputOptions::default()).unwrap());
        assert!(sink.stage_palette_keeps());
        for frame in &frames {
            sink.write_frame(frame).unwrap();
        }
        sink.finish().unwrap().commit().unwrap();
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let decoder = options
            .read_info(std::fs::File::open(&path).unwrap())
            .unwrap();
        let (_, decoded) = crate::output::tests::gif_canvases(decoder);
        // Each pixel shown is within its allowance (the ramp's 1 level of contrast counts as a
        // flat area) of the error the mapping has there (the lookup table's cells are 4
        // levels wide, so even the mapping is not exact).
        let palette = GifPalette::from_samples(&samples);
        let mut updates = 0;
        for (k, ((_, _, canvas), frame)) in decoded.iter().zip(&frames).enumerate() {
            for judged in judge_pixels(&palette, canvas, frame, width) {
                let (shown, truth, mapping_error) =
                    (judged.shown, judged.truth, judged.mapping_error);
                let off = i16::from(shown[0].abs_diff(truth[0]));
                assert!(judged.contrast <= 1);
                assert!(
                    off <= mapping_error + judged.allowance.keep,
                    "frame {k}: shows {} for {}, {off} levels off (the mapping: {mapping_error})",
                    shown[0],
                    truth[0]
                );
            }
            if (1..60).contains(&k) {
                updates += canvas
                    .chunks(4)
                    .zip(decoded[k - 1].2.chunks(4))
                    .filter(|(now, before)| now != before)
                    .count();
            }
        }
        // Drifting 59 levels, a level a frame, each pixel is stored again only every several
        // levels: without the allowance, every 4 (when the lookup table's cell changes), 14
        // times; a pixel stored may itself take a colour up to its allowance for substitutes
        // behind, so it falls out sooner than every 12.
        let per_pixel = updates as f64 / (width * height) as f64;
        println!("{per_pixel:.2} updates per pixel while drifting 59 levels");
        assert!((2.0..=8.0).contains(&per_pixel), "{per_pixel}");
        // The flicker (once the drift's last change is stored) stores one kept pixel a frame.
        for (_, rect, _) in &decoded[62..] {
            assert_eq!(rect[2..], [1, 1]);
        }
    }

    #[test]
    fn a_dropped_sink_with_frames_waiting_leaves_nothing() {
        let info = AnimationInfo {
            width: 16,
            height: 8,
            fps: 30.0,
            frames: 3,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.gif");
        let mut sink = GifSink::create(&path, &info, &[], &OutputOptions::default()).unwrap();
        sink.write_frame(&busy_frame(16, 8, 0)).unwrap();
        drop(sink);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// The delays of the frames kept of `frames` frames at `fps`.
    fn delays(fps: f64, frames: u32) -> Vec<u16> {
        let mut timeline = GifTimeline::new(fps, frames);
        (0..frames)
            .filter(|&index| timeline.keeps(index))
            .collect::<Vec<u32>>()
            .into_iter()
            .map(|_| timeline.next_delay())
            .collect()
    }

    /// The indices of the frames kept of `frames` frames at `fps`.
    fn kept(fps: f64, frames: u32) -> Vec<u32> {
        let timeline = GifTimeline::new(fps, frames);
        (0..frames).filter(|&index| timeline.keeps(index)).collect()
    }

    #[test]
    fn delays_track_the_frame_rate() {
        assert_eq!(delays(30.0, 6), [3, 3, 4, 3, 3, 4]);
        assert_eq!(delays(25.0, 3), [4, 4, 4]);
        assert_eq!(delays(50.0, 3), [2, 2, 2]);
        assert_eq!(delays(0.5, 2), [200, 200]);
        let total: u64 = delays(29.97, 1000).into_iter().map(u64::from).sum();
        assert!((total as f64 - 100_000.0 / 29.97).abs() <= 1.0, "{total}");
    }

    #[test]
    fn the_delays_add_up_to_frames_over_fps_at_any_rate() {
        for fps in [
            25.0, 30.0, 60.0, 100.0, 29.97, 50.0, 51.0, 75.0, 144.0, 1000.0,
        ] {
            for frames in [1, 2, 7, 120, 301] {
                let delays = delays(fps, frames);
                assert!(
                    delays.iter().all(|&delay| delay >= 2),
                    "{fps} fps: {delays:?}"
                );
                let total: f64 = delays.iter().map(|&delay| f64::from(delay)).sum();
                let length = f64::from(frames) * 100.0 / fps;
                // One frame is at least 2 cs long, whatever was asked.
                assert!(
                    (total - length.max(2.0)).abs() <= 1.0,
                    "{frames} frames at {fps} fps: {total} cs, expected {length}"
                );
            }
        }
    }

    #[test]
    fn above_50_fps_frames_are_dropped_evenly() {
        // 60 fps: 120 frames, 2 s, 100 slots of 2 cs; five frames of every six are kept.
        let kept_60 = kept(60.0, 120);
        assert_eq!(kept_60.len(), 100);
        assert_eq!(&kept_60[..6], [0, 1, 2, 3, 4, 6]);
        assert_eq!(delays(60.0, 120), [2; 100]);
        // 100 fps: every other frame.
        assert_eq!(kept(100.0, 10), [0, 2, 4, 6, 8]);
        // 75 fps, 100 frames (133.3 cs): 66 slots, the last one 3 cs to end at 133 cs.
        let delays_75 = delays(75.0, 100);
        assert_eq!(delays_75.len(), 66);
        assert_eq!(delays_75.last(), Some(&3));
        // Up to 50 fps every frame is kept.
        assert_eq!(kept(50.0, 7).len(), 7);
        assert_eq!(kept(30.0, 7).len(), 7);
        // A single frame is always kept.
        assert_eq!(kept(1000.0, 1), [0]);
    }

    #[test]
    fn delays_never_drop_below_two_centiseconds() {
        assert_eq!(delays(1e-6, 1), [u16::MAX]);
        assert_eq!(delays(1000.0, 3), [2]);
    }
}
