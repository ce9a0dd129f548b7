//! Reading the picture under the water: PNG or JPEG, checked before it is decoded.
//!
//! The header is read first so that an image beyond the size limits is refused before a single
//! pixel is allocated (a small file can decode to a huge image); the decoder then runs with the
//! same limits as a second guard. Every error names the file, even when the decoder panics
//! (see [`crate::panics`]).

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use image::{ImageFormat, ImageReader, Limits, RgbaImage, imageops::FilterType};

use crate::panics;

/// An RGBA image in memory.
#[derive(Debug, Clone)]
pub struct SourceImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA bytes, row-major.
    pub pixels: Vec<u8>,
}

impl SourceImage {
    /// The built-in pool-tile texture.
    pub fn pool_tiles(width: u32, height: u32) -> Result<Self> {
        Ok(Self {
            width,
            height,
            pixels: ripples::pool_tiles(width, height)?,
        })
    }

    /// Loads a PNG or JPEG file as RGBA.
    pub fn load(path: &Path) -> Result<Self> {
        let shown = path.display();
        let reader = open_reader(path)?;
        let (width, height) = reader
            .into_dimensions()
            .map_err(|error| anyhow!("image '{shown}': cannot read its header: {error}"))?;
        ripples::limits::check_size(u64::from(width), u64::from(height))
            .map_err(|error| anyhow!("image '{shown}' is {width}x{height}: {error}"))?;

        let mut reader = open_reader(path)?;
        let mut limits = Limits::default();
        limits.max_image_width = Some(ripples::limits::MAX_SIDE);
        limits.max_image_height = Some(ripples::limits::MAX_SIDE);
        // The decoded RGBA image plus the decoder's own buffer of at most the same size.
        limits.max_alloc = Some(u64::from(ripples::limits::MAX_CELLS) * 4 * 2);
        reader.limits(limits);
        // A decoder's bug must not take the command down with a panic: the JPEG decoder
        // (zune-jpeg 0.5) panics on some malformed files (found by fuzzing; upstream
        // etemesi254/zune-image#361), so the user gets one error line naming the file.
        let decoded = panics::capture(|| reader.decode())
            .map_err(|panic| {
                anyhow!(
                    "image '{shown}': cannot decode it: the decoder failed ({})",
                    panic.message
                )
            })?
            .map_err(|error| anyhow!("image '{shown}': cannot decode it: {error}"))?;
        let rgba = decoded.into_rgba8();
        Ok(Self {
            width,
            height,
            pixels: rgba.into_raw(),
        })
    }

    /// Luminance of every pixel, 0..=255 (Rec. 601 weights; alpha ignored).
    pub fn luminance(&self) -> Vec<u8> {
        self.pixels
            .chunks_exact(4)
            .map(|p| {
                let weighted =
                    299 * u32::from(p[0]) + 587 * u32::from(p[1]) + 114 * u32::from(p[2]);
                ((weighted + 500) / 1000) as u8
            })
            .collect()
    }

    /// This image resized to `width x height` (unchanged if it already is).
    pub fn resized(self, width: u32, height: u32) -> Result<Self> {
        if (self.width, self.height) == (width, height) {
            return Ok(self);
        }
        let image = RgbaImage::from_raw(self.width, self.height, self.pixels)
            .context("internal error: image buffer does not match its size")?;
        let resized = image::imageops::resize(&image, width, height, FilterType::CatmullRom);
        Ok(Self {
            width,
            height,
            pixels: resized.into_raw(),
        })
    }
}

/// Opens `path` for decoding after checking, from its first bytes (not its name), that it is a
/// PNG or a JPEG.
fn open_reader(path: &Path) -> Result<ImageReader<BufReader<File>>> {
    let shown = path.display();
    let mut file =
        File::open(path).map_err(|error| anyhow!("image '{shown}': cannot open it: {error}"))?;
    let mut head = [0u8; 16];
    let read = read_prefix(&mut file, &mut head)
        .map_err(|error| anyhow!("image '{shown}': cannot read it: {error}"))?;
    if read == 0 {
        bail!("image '{shown}': the file is empty");
    }
    let format = match image::guess_format(&head[..read]) {
        Ok(format @ (ImageFormat::Png | ImageFormat::Jpeg)) => format,
        _ => bail!("image '{shown}': not a PNG or JPEG file"),
    };
    file.seek(SeekFrom::Start(0))
        .map_err(|error| anyhow!("image '{shown}': cannot read it: {error}"))?;
    let mut reader = ImageReader::new(BufReader::new(file));
    reader.set_format(format);
    Ok(reader)
}

/// Reads until `buffer` is full or the file ends; returns the bytes read.
fn read_prefix(file: &mut File, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}
