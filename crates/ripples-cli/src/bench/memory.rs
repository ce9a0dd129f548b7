//! The memory floor: how fast this machine moves bytes, and how many bytes a frame must move.
//!
//! The classic step and render do almost no arithmetic per byte, so on a large pool their speed
//! is bounded by memory bandwidth, not by the CPU. To say how close a frame gets to that bound the
//! benchmark measures the bandwidth itself, in the same run and on the same threads (a parallel
//! copy in strips, like the core's passes, of a buffer far larger than the caches), rather than
//! quoting a data sheet, and divides it by a stated model of the least traffic a frame needs.

use std::time::Instant;

use rayon::prelude::*;
use ripples::Heights;

/// The copy buffer is at least this large, so it cannot live in any cache.
pub const MIN_COPY_BYTES: usize = 256 << 20;
/// ... and at most this large, to keep the run's memory use bounded on huge pools.
pub const MAX_COPY_BYTES: usize = 1 << 30;

/// The least memory traffic of one step+render, by a simple model: each grid value is read or
/// written once per pass, and neighbours come from the caches.
#[derive(Debug, Clone, Copy)]
pub struct FrameTraffic {
    /// Simulation cells.
    cells: u64,
    /// Image pixels (as many as cells at simulation scale 1).
    pixels: u64,
    /// Bytes of one height value (2 for `i16`, 4 for `f32`).
    value_bytes: u64,
}

impl FrameTraffic {
    /// The traffic of a pool of `width x height` pixels simulated at `sim_scale` pixels per
    /// cell (a grid of `ceil(width / sim_scale) x ceil(height / sim_scale)` cells) with these
    /// heights.
    pub fn for_field(heights: Heights<'_>, width: u32, height: u32, sim_scale: u32) -> Self {
        let value_bytes = match heights {
            Heights::I16(_) => 2,
            Heights::F32(_) => 4,
        };
        let scale = sim_scale.max(1);
        Self {
            cells: u64::from(width.div_ceil(scale)) * u64::from(height.div_ceil(scale)),
            pixels: u64::from(width) * u64::from(height),
            value_bytes,
        }
    }

    /// A step reads the field now and the field before, and writes the next one.
    pub fn step_bytes_per_cell(&self) -> u64 {
        3 * self.value_bytes
    }

    /// A render reads the heights and a source pixel, and writes a pixel (at scale 1; a
    /// coarser grid is read once per cell, see [`bytes_per_frame`](Self::bytes_per_frame)).
    pub fn render_bytes_per_pixel(&self) -> u64 {
        self.value_bytes + 4 + 4
    }

    /// Bytes one step and one render move at least: the step's per cell, the render's heights
    /// once per cell and its source and frame pixels once per pixel.
    pub fn bytes_per_frame(&self) -> u64 {
        self.cells * (self.step_bytes_per_cell() + self.value_bytes) + self.pixels * 8
    }

    /// The model in words, for the report.
    pub fn model(&self) -> String {
        if self.cells == self.pixels {
            format!(
                "step {} B/cell + render {} B/px",
                self.step_bytes_per_cell(),
                self.render_bytes_per_pixel()
            )
        } else {
            format!(
                "step {} B/cell + render {} B/cell and 8 B/px, {} cells for {} px",
                self.step_bytes_per_cell(),
                self.value_bytes,
                self.cells,
                self.pixels
            )
        }
    }

    /// Bytes a frame touches (two grids, the source image and the frame): the copy benchmark
    /// uses four times that, within [`MIN_COPY_BYTES`]..=[`MAX_COPY_BYTES`].
    pub fn copy_buffer_bytes(&self) -> usize {
        let working_set = self.cells * 2 * self.value_bytes + self.pixels * 8;
        let bytes = usize::try_from(working_set.saturating_mul(4)).unwrap_or(usize::MAX);
        bytes.clamp(MIN_COPY_BYTES, MAX_COPY_BYTES)
    }
}

/// A parallel copy between two buffers of the same size.
#[derive(Debug)]
pub struct CopyBench {
    src: Vec<u8>,
    dst: Vec<u8>,
}

impl CopyBench {
    /// Two buffers of `bytes` bytes, written once so their pages exist before anything is timed.
    pub fn new(bytes: usize) -> Self {
        Self {
            src: vec![1; bytes],
            dst: vec![2; bytes],
        }
    }

    /// Bytes copied by one [`run`](Self::run).
    pub fn len(&self) -> usize {
        self.src.len()
    }

    /// Whether the buffers are empty.
    pub fn is_empty(&self) -> bool {
        self.src.is_empty()
    }

    /// Copies the whole buffer in strips on the current rayon pool; returns the seconds taken.
    pub fn run(&mut self) -> f64 {
        let strips = rayon::current_num_threads() * 4;
        let chunk = self
            .src
            .len()
            .div_ceil(strips)
            .next_multiple_of(4096)
            .max(4096);
        let started = Instant::now();
        self.dst
            .par_chunks_mut(chunk)
            .zip(self.src.par_chunks(chunk))
            .for_each(|(dst, src)| dst.copy_from_slice(src));
        let seconds = started.elapsed().as_secs_f64();
        std::hint::black_box(&self.dst);
        seconds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_model_is_16_bytes_per_cell() {
        let classic = FrameTraffic::for_field(Heights::I16(&[]), 1920, 1080, 1);
        assert_eq!(classic.step_bytes_per_cell(), 6);
        assert_eq!(classic.render_bytes_per_pixel(), 10);
        assert_eq!(classic.bytes_per_frame(), 1920 * 1080 * 16);
        assert_eq!(classic.model(), "step 6 B/cell + render 10 B/px");
        let float = FrameTraffic::for_field(Heights::F32(&[]), 10, 10, 1);
        assert_eq!(float.bytes_per_frame(), 100 * (12 + 12));
        // A grid of 5x4 cells under 10x7 pixels: the heights once per cell, pixels per pixel.
        let coarse = FrameTraffic::for_field(Heights::F32(&[]), 10, 7, 2);
        assert_eq!(coarse.bytes_per_frame(), 20 * (12 + 4) + 70 * 8);
        assert_eq!(
            coarse.model(),
            "step 12 B/cell + render 4 B/cell and 8 B/px, 20 cells for 70 px"
        );
    }

    #[test]
    fn the_copy_buffer_is_beyond_the_caches_and_bounded() {
        let small = FrameTraffic::for_field(Heights::I16(&[]), 64, 48, 1);
        assert_eq!(small.copy_buffer_bytes(), MIN_COPY_BYTES);
        let uhd = FrameTraffic::for_field(Heights::I16(&[]), 3840, 2160, 1);
        assert_eq!(uhd.copy_buffer_bytes(), 3840 * 2160 * 12 * 4);
        let huge = FrameTraffic::for_field(Heights::F32(&[]), 8192, 8192, 1);
        assert_eq!(huge.copy_buffer_bytes(), MAX_COPY_BYTES);
    }

    #[test]
    fn the_copy_copies() {
        let mut copy = CopyBench::new(10_000);
        copy.src[9_999] = 7;
        assert!(copy.run() >= 0.0);
        assert_eq!(copy.dst, copy.src);
        assert_eq!(copy.len(), 10_000);
    }
}
