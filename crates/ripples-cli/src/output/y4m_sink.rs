//! YUV4MPEG2 (`.y4m`): uncompressed 4:2:0 video that every video tool reads, written by hand.
//! Colours are converted with BT.601 in limited range (Y 16..235, Cb/Cr 16..240); alpha is
//! dropped.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};

use super::{
    AnimationInfo, Destination, FinishedOutput, FrameSink, OutputOptions, Written, check_frame_len,
    check_some_frames_written,
};

/// Writes a Y4M video through a temporary file (or to standard output).
pub(super) struct Y4mSink {
    out: BufWriter<Box<dyn Write + Send>>,
    info: AnimationInfo,
    /// The Y, Cb and Cr planes of the frame being written, reused between frames.
    planes: Vec<u8>,
    frames_written: u32,
    target: PathBuf,
    destination: Destination,
}

impl Y4mSink {
    pub(super) fn create(
        target: &Path,
        info: &AnimationInfo,
        options: &OutputOptions,
    ) -> Result<Y4mSink> {
        let (file, destination) = Destination::open(target, ".y4m", options)?;
        let mut sink = Y4mSink {
            out: BufWriter::new(file),
            info: info.clone(),
            planes: Vec::new(),
            frames_written: 0,
            target: target.to_path_buf(),
            destination,
        };
        let header = stream_header(info);
        sink.out
            .write_all(header.as_bytes())
            .map_err(|error| sink.error(error))?;
        Ok(sink)
    }

    fn error(&self, error: std::io::Error) -> anyhow::Error {
        anyhow!("cannot write '{}': {error}", self.target.display())
    }
}

impl FrameSink for Y4mSink {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<()> {
        check_frame_len(rgba, &self.info)?;
        rgba_to_yuv420(rgba, self.info.width, self.info.height, &mut self.planes);
        let written = self
            .out
            .write_all(b"FRAME\n")
            .and_then(|()| self.out.write_all(&self.planes));
        written.map_err(|error| self.error(error))?;
        self.frames_written += 1;
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<FinishedOutput> {
        check_some_frames_written(&self.target, self.frames_written)?;
        self.out.flush().map_err(|error| self.error(error))?;
        let Y4mSink {
            out,
            info,
            frames_written,
            destination,
            ..
        } = *self;
        drop(out);
        let written = Written {
            frames: frames_written,
            ..Written::as_rendered(&info)
        };
        Ok(destination.finished(written))
    }
}

/// The stream header: size, frame rate, progressive, square pixels, 4:2:0 with centred chroma.
pub(super) fn stream_header(info: &AnimationInfo) -> String {
    let (numerator, denominator) = frame_rate_fraction(info.fps);
    format!(
        "YUV4MPEG2 W{} H{} F{numerator}:{denominator} Ip A1:1 C420jpeg\n",
        info.width, info.height
    )
}

/// `30:1` for whole frame rates, otherwise thousandths (`29970:1000`).
fn frame_rate_fraction(fps: f64) -> (u64, u64) {
    if fps.fract() == 0.0 {
        (fps as u64, 1)
    } else {
        (((fps * 1000.0).round() as u64).max(1), 1000)
    }
}

/// Converts an RGBA frame to planar Y, Cb, Cr (4:2:0) in `planes`: a full-size Y plane, then
/// Cb and Cr planes of ceil(width/2) x ceil(height/2), each sample averaging a 2x2 block
/// (edge blocks average the pixels that exist).
pub(super) fn rgba_to_yuv420(rgba: &[u8], width: u32, height: u32, planes: &mut Vec<u8>) {
    let (width, height) = (width as usize, height as usize);
    let (chroma_width, chroma_height) = (width.div_ceil(2), height.div_ceil(2));
    let chroma_len = chroma_width * chroma_height;

    planes.clear();
    planes.extend(rgba.chunks_exact(4).map(|p| luma(p[0], p[1], p[2])));
    planes.resize(width * height + 2 * chroma_len, 0);
    let (_, chroma) = planes.split_at_mut(width * height);
    let (cb_plane, cr_plane) = chroma.split_at_mut(chroma_len);

    for cy in 0..chroma_height {
        for cx in 0..chroma_width {
            let mut sum = [0u32; 3];
            let mut count = 0;
            for y in 2 * cy..(2 * cy + 2).min(height) {
                for x in 2 * cx..(2 * cx + 2).min(width) {
                    let pixel = &rgba[(y * width + x) * 4..][..3];
                    for (total, &value) in sum.iter_mut().zip(pixel) {
                        *total += u32::from(value);
                    }
                    count += 1;
                }
            }
            let (cb, cr) = chroma_of_sum(sum, count);
            cb_plane[cy * chroma_width + cx] = cb;
            cr_plane[cy * chroma_width + cx] = cr;
        }
    }
}

/// BT.601 coefficients scaled by 2^16, with the limited-range scale folded in
/// (for example 65.481 / 255 * 65536 for red in Y).
const Y_COEFFICIENTS: [i64; 3] = [16829, 33039, 6416];
const CB_COEFFICIENTS: [i64; 3] = [-9714, -19070, 28784];
const CR_COEFFICIENTS: [i64; 3] = [28784, -24103, -4681];

/// Limited-range BT.601 luma: 16 for black, 235 for white.
pub(super) fn luma(r: u8, g: u8, b: u8) -> u8 {
    let sum = [r, g, b].map(u32::from);
    scaled_to_u8(weighted(Y_COEFFICIENTS, sum), 1, 16)
}

/// Limited-range BT.601 chroma (Cb, Cr) of the average of `count` pixels whose channels add
/// up to `sum`.
fn chroma_of_sum(sum: [u32; 3], count: i64) -> (u8, u8) {
    (
        scaled_to_u8(weighted(CB_COEFFICIENTS, sum), count, 128),
        scaled_to_u8(weighted(CR_COEFFICIENTS, sum), count, 128),
    )
}

fn weighted(coefficients: [i64; 3], channels: [u32; 3]) -> i64 {
    coefficients
        .iter()
        .zip(channels)
        .map(|(&c, value)| c * i64::from(value))
        .sum()
}

/// `offset + scaled / (count * 2^16)`, rounded to nearest and clamped to a byte.
fn scaled_to_u8(scaled: i64, count: i64, offset: i64) -> u8 {
    let divisor = count << 16;
    let value = (scaled + offset * divisor + divisor / 2).div_euclid(divisor);
    value.clamp(0, 255) as u8
}
