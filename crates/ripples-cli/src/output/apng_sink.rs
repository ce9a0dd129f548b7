//! Animated PNG: lossless RGBA frames, looping forever.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};

use super::{
    AnimationInfo, Destination, FinishedOutput, FrameSink, OutputOptions, Written, check_frame_len,
};

/// Writes an animated PNG through a temporary file (or to standard output). The frame count is
/// part of the PNG header, so exactly `info.frames` frames must be written.
pub(super) struct ApngSink {
    writer: png::Writer<BufWriter<Box<dyn Write + Send>>>,
    info: AnimationInfo,
    frames_written: u32,
    target: PathBuf,
    destination: Destination,
}

impl ApngSink {
    pub(super) fn create(
        target: &Path,
        info: &AnimationInfo,
        options: &OutputOptions,
    ) -> Result<ApngSink> {
        let (file, destination) = Destination::open(target, ".png", options)?;
        let error = |error: png::EncodingError| {
            anyhow!("cannot write animated PNG '{}': {error}", target.display())
        };
        let mut encoder = png::Encoder::new(BufWriter::new(file), info.width, info.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        encoder.set_animated(info.frames, 0).map_err(error)?;
        let (numerator, denominator) = frame_delay_fraction(info.fps);
        encoder
            .set_frame_delay(numerator, denominator)
            .map_err(error)?;
        let writer = encoder.write_header().map_err(error)?;
        Ok(ApngSink {
            writer,
            info: info.clone(),
            frames_written: 0,
            target: target.to_path_buf(),
            destination,
        })
    }
}

impl FrameSink for ApngSink {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<()> {
        check_frame_len(rgba, &self.info)?;
        if self.frames_written == self.info.frames {
            bail!(
                "animated PNG '{}': all {} announced frames were already written",
                self.target.display(),
                self.info.frames
            );
        }
        self.writer.write_image_data(rgba).map_err(|error| {
            anyhow!(
                "cannot write animated PNG '{}': {error}",
                self.target.display()
            )
        })?;
        self.frames_written += 1;
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<FinishedOutput> {
        if self.frames_written != self.info.frames {
            bail!(
                "animated PNG '{}': wrote {} of {} frames",
                self.target.display(),
                self.frames_written,
                self.info.frames
            );
        }
        let ApngSink {
            writer,
            info,
            target,
            destination,
            ..
        } = *self;
        // Writes the end chunk and flushes the buffer and the file (or standard output).
        writer.finish().map_err(|error| {
            anyhow!("cannot write animated PNG '{}': {error}", target.display())
        })?;
        Ok(destination.finished(Written::as_rendered(&info)))
    }
}

/// The frame delay `numerator / denominator` seconds closest to `1 / fps`, both fitting in a
/// `u16` as APNG requires: `1/30` for 30 fps, `100/2997` for 29.97 fps. Among equally close
/// fractions the one with the smallest denominator wins.
pub(super) fn frame_delay_fraction(fps: f64) -> (u16, u16) {
    let seconds = 1.0 / fps;
    let mut best = (1, 1);
    let mut best_error = f64::INFINITY;
    for denominator in 1..=u16::MAX {
        let numerator = (seconds * f64::from(denominator))
            .round()
            .clamp(1.0, f64::from(u16::MAX)) as u16;
        let error = (f64::from(numerator) / f64::from(denominator) - seconds).abs();
        if error < best_error {
            best = (numerator, denominator);
            best_error = error;
            if error <= seconds * 1e-12 {
                break;
            }
        }
    }
    best
}
