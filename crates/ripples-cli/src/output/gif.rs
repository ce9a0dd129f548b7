//! The GIF encoder: an animated GIF of moving water, small and steady to the eye, written one
//! frame at a time.
//!
//! The `gif` crate writes the container (header, palettes, frame records, delays); what goes
//! into each frame is ours, because a general encoder handles water badly. A GIF holds 256
//! colours per palette and stores pixels with LZW, and water changes almost every pixel a
//! little in every frame: choosing a palette per frame makes still water shimmer, dithering
//! flickers, and storing every change makes the file huge. So the encoder is shaped as three
//! parts, each in its file:
//!
//! - [`sink`]: the [`FrameSink`](super::FrameSink) itself. It learns a palette from the picture
//!   (or the first frame) and learns it again about once a second where the water's colours
//!   have drifted from it, maps colours through a lookup table built once per palette (no
//!   dithering), drops frames evenly above the 50 frames per second a GIF can play, and after
//!   the first frame stores only the rectangle a viewer would see change, with unchanged
//!   pixels transparent.
//! - [`unseen`]: how far from a frame's true colour a pixel may be shown without a viewer
//!   seeing it (`--lossy`). It is a judgement of the eye, not of the format, so it sits apart
//!   and the other two only ask it.
//! - [`lzw`]: a lossy LZW compressor that writes a standard stream but, within those bounds,
//!   picks the palette entries that make its strings longest (as gifsicle's `--lossy`).
//!
//! Every choice is judged against the frame's true colour, never against the previous frame,
//! so errors do not build up over frames. Mapping and compression run in fixed-size strips on
//! a thread pool of the sink's own, so a GIF is encoded in parallel and its bytes do not
//! depend on the number of threads.

mod lzw;
mod sink;
mod unseen;

pub(super) use sink::GifSink;
pub use unseen::{DEFAULT_LOSSY, MAX_LOSSY};
