//! One plain PNG image (not an animation), for `--frame N` and `--still`.
//!
//! Written like every other output: into a temporary file beside the target, created when the
//! sink is opened (so an unwritable directory is refused before anything is simulated), and
//! moved under the target's name only when the finished output is committed; or, for `-`,
//! straight to standard output. Opaque frames are stored as RGB, frames with transparency as
//! RGBA.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};

use super::{
    AnimationInfo, Destination, FinishedOutput, FrameSink, OutputOptions, Written,
    check_animation_info, check_not_existing, check_parent_directory, is_standard_output,
};

/// Writes exactly one frame as a PNG image.
pub struct StillPngSink {
    /// `None` once the frame is written.
    out: Option<Box<dyn Write + Send>>,
    info: AnimationInfo,
    target: PathBuf,
    destination: Destination,
}

impl StillPngSink {
    /// Opens a still of `width x height` pixels at `target` (`-` for standard output): checks
    /// the directory (and, with `--no-clobber`, that nothing is there) and creates the
    /// temporary file.
    pub fn create(target: &Path, width: u32, height: u32, options: &OutputOptions) -> Result<Self> {
        let info = AnimationInfo {
            width,
            height,
            fps: 1.0,
            frames: 1,
        };
        check_animation_info(target, &info)?;
        if !is_standard_output(target) {
            check_parent_directory(target)?;
            if options.no_clobber {
                check_not_existing(target)?;
            }
        }
        let (out, destination) = Destination::open(target, ".png", options)?;
        Ok(Self {
            out: Some(out),
            info,
            target: target.to_path_buf(),
            destination,
        })
    }
}

impl FrameSink for StillPngSink {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<()> {
        super::check_frame_len(rgba, &self.info)?;
        let Some(out) = self.out.take() else {
            bail!(
                "image '{}': a still holds one frame, and it was already written",
                self.target.display()
            );
        };
        let error = |error: png::EncodingError| {
            anyhow!("cannot write '{}': {error}", self.target.display())
        };
        let opaque = rgba.chunks_exact(4).all(|pixel| pixel[3] == 255);
        let mut out = BufWriter::new(out);
        let mut encoder = png::Encoder::new(&mut out, self.info.width, self.info.height);
        encoder.set_depth(png::BitDepth::Eight);
        let writer = if opaque {
            encoder.set_color(png::ColorType::Rgb);
            let rgb: Vec<u8> = rgba
                .chunks_exact(4)
                .flat_map(|pixel| [pixel[0], pixel[1], pixel[2]])
                .collect();
            let mut writer = encoder.write_header().map_err(error)?;
            writer.write_image_data(&rgb).map_err(error)?;
            writer
        } else {
            encoder.set_color(png::ColorType::Rgba);
            let mut writer = encoder.write_header().map_err(error)?;
            writer.write_image_data(rgba).map_err(error)?;
            writer
        };
        writer.finish().map_err(error)?;
        out.flush()
            .map_err(|error| anyhow!("cannot write '{}': {error}", self.target.display()))
    }

    fn finish(self: Box<Self>) -> Result<FinishedOutput> {
        if self.out.is_some() {
            bail!(
                "image '{}': no frame was written, nothing to save",
                self.target.display()
            );
        }
        let written = Written::as_rendered(&self.info);
        Ok(self.destination.finished(written))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    fn decode(path: &Path) -> (png::OutputInfo, Vec<u8>, bool) {
        let file = File::open(path).unwrap();
        let mut reader = png::Decoder::new(std::io::BufReader::new(file))
            .read_info()
            .unwrap();
        let animated = reader.info().animation_control().is_some();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        pixels.truncate(info.buffer_size());
        (info, pixels, animated)
    }

    #[test]
    fn one_frame_becomes_one_plain_png() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("still.png");
        let mut sink =
            Box::new(StillPngSink::create(&path, 2, 1, &OutputOptions::default()).unwrap());
        sink.write_frame(&[1, 2, 3, 255, 4, 5, 6, 255]).unwrap();
        assert!(sink.write_frame(&[0; 8]).is_err(), "one frame only");
        assert!(!path.exists(), "nothing under the name before finish");
        sink.finish().unwrap().commit().unwrap();
        let (info, pixels, animated) = decode(&path);
        assert!(!animated);
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(pixels, [1, 2, 3, 4, 5, 6]);

        let mut sink =
            Box::new(StillPngSink::create(&path, 1, 1, &OutputOptions::default()).unwrap());
        sink.write_frame(&[9, 8, 7, 100]).unwrap();
        sink.finish().unwrap().commit().unwrap();
        let (info, pixels, _) = decode(&path);
        assert_eq!(info.color_type, png::ColorType::Rgba);
        assert_eq!(pixels, [9, 8, 7, 100]);
    }

    #[test]
    fn an_unfinished_still_leaves_nothing_and_a_missing_directory_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("still.png");
        let mut sink =
            Box::new(StillPngSink::create(&path, 2, 2, &OutputOptions::default()).unwrap());
        assert!(sink.write_frame(&[0; 3]).is_err());
        drop(sink);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let sink = Box::new(StillPngSink::create(&path, 2, 2, &OutputOptions::default()).unwrap());
        assert!(sink.finish().unwrap_err().to_string().contains("no frame"));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let missing = dir.path().join("nowhere/still.png");
        let message = StillPngSink::create(&missing, 2, 2, &OutputOptions::default())
            .err()
            .unwrap()
            .to_string();
        assert!(message.contains("does not exist"), "{message}");
    }
}
