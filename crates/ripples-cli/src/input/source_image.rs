//! Reading the picture under the water (and the walls, spring maps, sky and floats): a still
//! in any format of [`still_formats`], from a file or standard input, checked before it is
//! decoded and turned upright as its EXIF orientation says before anything else sees it.
//!
//! The header is read first so that an image beyond the size limits is refused before a single
//! pixel is allocated (a small file can decode to a huge image); the decoder then runs with the
//! same limits as a second guard. Every error names the file, even when the decoder panics
//! (see [`crate::input::panics`]). A truncated or damaged file is an error for JPEG as for PNG: the
//! JPEG decoder is run strictly, and the file's structure checked, by [`jpeg`]; the other
//! formats' decoders refuse a file that ends early on their own (a test cuts each one).
//!
//! Standard input, a named pipe and a device are read whole into memory first (a decoder
//! needs to seek back after the header), within [`MAX_INPUT_BYTES`], and then go the same way
//! as a file.

pub mod jpeg;
pub mod still_formats;

use std::fs::File;
use std::io::{BufRead, BufReader, Cursor, IsTerminal, Read, Seek, SeekFrom};
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use image::{
    DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits, RgbaImage, imageops::FilterType,
};

use still_formats::{STILL_FORMAT_NAMES, orient, orientation_of_exif, read_prefix};

use crate::UsageError;
use crate::input::{panics, pipes};

/// The most bytes read from standard input or a pipe: twice the largest image within the limits as
/// uncompressed RGBA, far more than any PNG or JPEG of it needs.
pub const MAX_INPUT_BYTES: u64 = ripples::limits::MAX_CELLS as u64 * 4 * 2;

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

    /// Loads a still picture file as upright RGBA; errors name it `image 'path'`.
    pub fn load(path: &Path) -> Result<Self> {
        Self::load_as(path, &format!("image '{}'", path.display()))
    }

    /// Loads a still picture file as upright RGBA; errors start with `name`, which says what
    /// the file is for (`--obstacles 'walls.png'`, `scene 'x.toml': sky 'sky.jpg'`).
    /// A named pipe or a device is read whole first (see [`pipes`]).
    pub fn load_as(path: &Path, name: &str) -> Result<Self> {
        if pipes::is_pipe_or_device(path) {
            let bytes = pipes::read_whole(path, name)?;
            return decode(
                Cursor::new(bytes.as_slice()),
                name,
                "the pipe gave no bytes",
            );
        }
        let file = File::open(path).map_err(|error| anyhow!("{name}: cannot open it: {error}"))?;
        decode(BufReader::new(file), name, "the file is empty")
    }

    /// Reads a still picture from standard input (all of it) as upright RGBA.
    pub fn read_standard_input() -> Result<Self> {
        let name = "image from standard input";
        let stdin = std::io::stdin();
        if stdin.is_terminal() {
            return Err(UsageError(format!(
                "{name}: standard input is a terminal; pipe the image in, e.g. \
                 `ripples render - < photo.jpg`"
            ))
            .into());
        }
        let mut bytes = Vec::new();
        stdin
            .lock()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|error| anyhow!("{name}: cannot read it: {error}"))?;
        if bytes.len() as u64 > MAX_INPUT_BYTES {
            bail!(
                "{name}: more than {} MiB, larger than any image within the size limits",
                MAX_INPUT_BYTES >> 20
            );
        }
        decode(Cursor::new(bytes), name, "standard input is empty")
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

/// Decodes a still picture (its format told by its first bytes, not its name) from `source`
/// and turns it upright; errors start with `name`, and an empty source is refused with `empty`.
fn decode<R: BufRead + Seek>(mut source: R, name: &str, empty: &str) -> Result<SourceImage> {
    let format = sniff_format(&mut source, name, empty)?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(ripples::limits::MAX_SIDE);
    limits.max_image_height = Some(ripples::limits::MAX_SIDE);
    // The decoded RGBA image plus the decoder's own buffer of at most the same size.
    limits.max_alloc = Some(u64::from(ripples::limits::MAX_CELLS) * 4 * 2);
    let check_size = |width: u32, height: u32| {
        ripples::limits::check_size(u64::from(width), u64::from(height))
            .map_err(|error| anyhow!("{name} is {width}x{height}: {error}"))
    };
    let decoder_panic = |panic: panics::Caught| {
        anyhow!(
            "{name}: cannot decode it: the decoder failed ({})",
            panic.message
        )
    };
    match format {
        ImageFormat::Jpeg => {
            let mut bytes = Vec::new();
            source
                .read_to_end(&mut bytes)
                .map_err(|error| anyhow!("{name}: cannot read it: {error}"))?;
            // The JPEG decoder (zune-jpeg 0.5) panics on some malformed files (found by
            // fuzzing; upstream etemesi254/zune-image#361): one error line naming the file.
            let (width, height) = panics::capture(|| jpeg::dimensions(&bytes))
                .map_err(decoder_panic)?
                .map_err(|error| anyhow!("{name}: cannot read its header: {error}"))?;
            check_size(width, height)?;
            let mut decoded = panics::capture(|| jpeg::decode(&bytes, ripples::limits::MAX_SIDE))
                .map_err(decoder_panic)?
                .map_err(|error| anyhow!("{name}: cannot decode it: {error}"))?;
            let orientation = orientation_of_exif(decoded.exif.take().as_deref());
            upright(
                name,
                decoded.width,
                decoded.height,
                decoded.into_rgba(),
                orientation,
            )
        }
        _ => {
            let (width, height) = ImageReader::with_format(&mut source, format)
                .into_dimensions()
                .map_err(|error| anyhow!("{name}: cannot read its header: {error}"))?;
            check_size(width, height)?;
            source
                .seek(SeekFrom::Start(0))
                .map_err(|error| anyhow!("{name}: cannot read it: {error}"))?;
            panics::capture(|| still_formats::check_whole(&mut source, format))
                .map_err(decoder_panic)?
                .map_err(|error| anyhow!("{name}: cannot decode it: {error}"))?;
            let mut reader = ImageReader::with_format(&mut source, format);
            reader.limits(limits);
            let decoded = panics::capture(|| {
                let mut decoder = reader.into_decoder()?;
                // An orientation the decoder cannot read is no reason to refuse the picture.
                let orientation = decoder
                    .orientation()
                    .unwrap_or(image::metadata::Orientation::NoTransforms);
                DynamicImage::from_decoder(decoder).map(|image| (image, orientation))
            })
            .map_err(decoder_panic)?
            .map_err(|error| anyhow!("{name}: cannot decode it: {error}"))?;
            let (image, orientation) = decoded;
            upright(
                name,
                width,
                height,
                image.into_rgba8().into_raw(),
                orientation,
            )
        }
    }
}

/// The decoded picture turned as its recorded `orientation` says.
fn upright(
    name: &str,
    width: u32,
    height: u32,
    pixels: Vec<u8>,
    orientation: image::metadata::Orientation,
) -> Result<SourceImage> {
    let (width, height, pixels) = orient(width, height, pixels, orientation).ok_or_else(|| {
        anyhow!("{name}: internal error: the decoded pixels do not match its size")
    })?;
    Ok(SourceImage {
        width,
        height,
        pixels,
    })
}

/// Reads the first bytes of `source` to tell its format, and rewinds it.
fn sniff_format<R: Read + Seek>(source: &mut R, name: &str, empty: &str) -> Result<ImageFormat> {
    let mut head = [0u8; 16];
    let read = read_prefix(source, &mut head)
        .map_err(|error| anyhow!("{name}: cannot read it: {error}"))?;
    if read == 0 {
        bail!("{name}: {empty}");
    }
    let Some(format) = still_formats::still_format(&head[..read]) else {
        bail!("{name}: not a {STILL_FORMAT_NAMES} file");
    };
    source
        .seek(SeekFrom::Start(0))
        .map_err(|error| anyhow!("{name}: cannot read it: {error}"))?;
    Ok(format)
}

#[cfg(test)]
mod tests;
