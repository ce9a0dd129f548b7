//! JPEG input that refuses a damaged file instead of painting grey over what is missing.
//!
//! The `image` crate runs its JPEG decoder (zune-jpeg) in lenient mode, as browsers do: a file
//! cut after its first third decodes "successfully", with the missing two thirds grey, and so
//! does a file whose coded data went wrong halfway. For the picture under an animation that is
//! a silent wrong result, so this module calls zune-jpeg directly and checks twice:
//!
//! - **The file's structure**, by walking its markers ([`image_data`]): header segments by their
//!   lengths (so an EXIF thumbnail's own end marker inside a segment is not taken for the
//!   file's), then the coded data of each scan, up to the end-of-image marker. A file that ends
//!   before that marker is cut short, whatever the decoder makes of it: the decoder pads missing
//!   data with zeros without a word when the cut falls in the last row of blocks, or in the end
//!   marker itself (a file one byte short).
//! - **The coded data**, by decoding in zune-jpeg's strict mode, where a corrupt Huffman code,
//!   a marker where none belongs or data that runs out is an error, not a warning.
//!
//! What the lenient mode forgives and a good file may carry stays accepted: bytes after the
//! end-of-image marker are not looked at, and stray bytes between header segments, which
//! libjpeg and browsers skip with a warning (and strict mode refuses), are dropped before the
//! strict decoder sees the file.

use std::borrow::Cow;
use std::ops::Range;

use zune_jpeg::JpegDecoder;
use zune_jpeg::zune_core::bytestream::ZCursor;
use zune_jpeg::zune_core::colorspace::ColorSpace;
use zune_jpeg::zune_core::options::DecoderOptions;

/// Marker codes (the byte after 0xFF) this module must tell apart.
const START_OF_IMAGE: u8 = 0xD8;
const END_OF_IMAGE: u8 = 0xD9;
const START_OF_SCAN: u8 = 0xDA;
/// Markers without a length: the restart markers inside coded data, and TEM.
const RESTARTS: std::ops::RangeInclusive<u8> = 0xD0..=0xD7;
const TEM: u8 = 0x01;

/// A decoded JPEG with 8-bit samples.
#[derive(Debug)]
pub struct DecodedJpeg {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The samples, row-major, `channels` per pixel.
    pub samples: Vec<u8>,
    /// 1 (grey), 2 (grey and alpha), 3 (RGB) or 4 (RGBA).
    pub channels: usize,
    /// The file's EXIF block (its APP1 segment's payload), which may record an orientation.
    pub exif: Option<Vec<u8>>,
}

impl DecodedJpeg {
    /// The pixels as RGBA.
    pub fn into_rgba(self) -> Vec<u8> {
        let samples = self.samples;
        match self.channels {
            4 => samples,
            3 => samples
                .chunks_exact(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            2 => samples
                .chunks_exact(2)
                .flat_map(|p| [p[0], p[0], p[0], p[1]])
                .collect(),
            _ => samples.iter().flat_map(|&l| [l, l, l, 255]).collect(),
        }
    }
}

/// Width and height from the JPEG's header, without decoding the image.
pub fn dimensions(bytes: &[u8]) -> Result<(u32, u32), String> {
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(bytes), lenient_header_options());
    decoder
        .decode_headers()
        .map_err(|error| error.to_string())?;
    let (width, height) = decoder.dimensions().ok_or("the decoder read no header")?;
    // A JPEG's sides are 16-bit numbers.
    Ok((width as u32, height as u32))
}

/// Decodes a whole JPEG file strictly, refusing one that is cut short or damaged; `max_side`
/// bounds the width and the height the decoder accepts.
pub fn decode(bytes: &[u8], max_side: u32) -> Result<DecodedJpeg, String> {
    let data = image_data(bytes)?;
    let max_side = max_side as usize;
    let strict = DecoderOptions::default()
        .set_strict_mode(true)
        .set_max_width(max_side)
        .set_max_height(max_side);
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(data.as_ref()), strict);
    decoder.decode_headers().map_err(damaged)?;
    let colorspace = match decoder.input_colorspace() {
        Some(
            space @ (ColorSpace::RGB | ColorSpace::RGBA | ColorSpace::Luma | ColorSpace::LumaA),
        ) => space,
        // YCbCr, CMYK, YCCK and the rest are converted to RGB.
        _ => ColorSpace::RGB,
    };
    decoder.set_options(strict.jpeg_set_out_colorspace(colorspace));
    let (width, height) = decoder.dimensions().ok_or("the decoder read no header")?;
    let samples = decoder.decode().map_err(damaged)?;
    Ok(DecodedJpeg {
        width: width as u32,
        height: height as u32,
        samples,
        channels: colorspace.num_components(),
        exif: decoder.exif().cloned(),
    })
}

/// The decoder's complaint, said as what it means for the file.
fn damaged(error: impl std::fmt::Display) -> String {
    format!("the JPEG data is damaged ({error})")
}

/// Options for reading the header alone: lenient, so that a header the strict decode will
/// refuse still yields a size to check against the limits first.
fn lenient_header_options() -> DecoderOptions {
    DecoderOptions::default()
        .set_strict_mode(false)
        .set_max_width(usize::MAX)
        .set_max_height(usize::MAX)
}

/// The file's first image, from its start-of-image marker to its end-of-image marker, with any
/// stray bytes between segments left out; an error if the file ends before that marker or its
/// structure is broken.
pub fn image_data(bytes: &[u8]) -> Result<Cow<'_, [u8]>, String> {
    let cut_short =
        || "the file is cut short: it ends before the JPEG end-of-image marker".to_string();
    if !bytes.starts_with(&[0xFF, START_OF_IMAGE]) {
        return Err("no JPEG start-of-image marker".to_string());
    }
    // The byte ranges that make up the image: the start marker, then every segment and scan.
    let mut kept: Vec<Range<usize>> = Vec::new();
    kept.push(0..2);
    let mut position = 2;
    loop {
        // Between segments: any stray bytes, then 0xFF (and fill bytes 0xFF), then the code.
        let marker = position
            + bytes[position..]
                .iter()
                .position(|&byte| byte == 0xFF)
                .ok_or_else(cut_short)?;
        let mut code_at = marker + 1;
        while bytes.get(code_at) == Some(&0xFF) {
            code_at += 1;
        }
        let code = *bytes.get(code_at).ok_or_else(cut_short)?;
        let after_code = code_at + 1;
        let end = match code {
            END_OF_IMAGE => {
                kept.push(marker..after_code);
                break;
            }
            START_OF_IMAGE => {
                return Err("a second JPEG start-of-image marker inside the image".to_string());
            }
            // Not a marker (0xFF 0x00 is only meaningful inside coded data): stray bytes.
            0x00 => {
                position = after_code;
                continue;
            }
            TEM => after_code,
            code if RESTARTS.contains(&code) => after_code,
            code => {
                let length = bytes
                    .get(after_code..after_code + 2)
                    .map(|pair| usize::from(u16::from_be_bytes([pair[0], pair[1]])))
                    .ok_or_else(cut_short)?;
                if length < 2 {
                    return Err(format!(
                        "a JPEG segment (marker 0xFF{code:02X}) has the impossible length {length}"
                    ));
                }
                let segment_end = after_code + length;
                if segment_end > bytes.len() {
                    return Err(cut_short());
                }
                if code == START_OF_SCAN {
                    end_of_coded_data(bytes, segment_end).ok_or_else(cut_short)?
                } else {
                    segment_end
                }
            }
        };
        kept.push(marker..end);
        position = end;
    }
    let whole = kept[0].start..kept[kept.len() - 1].end;
    let contiguous = kept.windows(2).all(|pair| pair[0].end == pair[1].start);
    Ok(if contiguous {
        Cow::Borrowed(&bytes[whole])
    } else {
        Cow::Owned(
            kept.into_iter()
                .flat_map(|range| bytes[range].iter().copied())
                .collect(),
        )
    })
}

/// Where the coded data of a scan starting at `start` ends: the 0xFF of the first marker that
/// is not part of it (stuffed 0xFF 0x00, restart markers and fill bytes are), or `None` if the
/// file ends first.
fn end_of_coded_data(bytes: &[u8], start: usize) -> Option<usize> {
    let mut position = start;
    loop {
        let marker = position + bytes[position..].iter().position(|&byte| byte == 0xFF)?;
        match *bytes.get(marker + 1)? {
            // A stuffed zero, or a fill byte before the next marker.
            0x00 => position = marker + 2,
            0xFF => position = marker + 1,
            code if RESTARTS.contains(&code) => position = marker + 2,
            _ => return Some(marker),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JPEG encoded here: 48x32, smooth colours.
    fn small_jpeg() -> Vec<u8> {
        let image = image::RgbImage::from_fn(48, 32, |x, y| {
            image::Rgb([(x * 5) as u8, (y * 7) as u8, ((x + y) * 3) as u8])
        });
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 90)
            .encode_image(&image)
            .unwrap();
        bytes
    }

    #[test]
    fn a_whole_file_is_its_own_image_data() {
        let bytes = small_jpeg();
        let data = image_data(&bytes).unwrap();
        assert!(matches!(data, Cow::Borrowed(_)));
        assert_eq!(data.len(), bytes.len());
        let decoded = decode(&bytes, 100).unwrap();
        assert_eq!(
            (decoded.width, decoded.height, decoded.channels),
            (48, 32, 3)
        );
        assert_eq!(decoded.into_rgba().len(), 48 * 32 * 4);
    }

    #[test]
    fn every_cut_is_refused() {
        let bytes = small_jpeg();
        for cut in 1..bytes.len() {
            let message = decode(&bytes[..cut], 100).unwrap_err();
            assert!(
                message.contains("cut short")
                    || message.contains("damaged")
                    || message.contains("marker"),
                "cut at {cut} of {}: {message}",
                bytes.len()
            );
        }
    }

    #[test]
    fn bytes_after_the_end_are_ignored_and_stray_bytes_between_segments_dropped() {
        let bytes = small_jpeg();
        let expected = decode(&bytes, 100).unwrap().samples;
        let mut trailing = bytes.clone();
        trailing.extend_from_slice(b"\0\xFF\xD8 a second thing after the image");
        assert_eq!(image_data(&trailing).unwrap().as_ref(), &bytes[..]);
        assert_eq!(decode(&trailing, 100).unwrap().samples, expected);
        // Stray bytes after the first segment (APP0 or the tables): dropped, same pixels.
        let first_segment_end = 4 + usize::from(u16::from_be_bytes([bytes[4], bytes[5]]));
        let mut stray = bytes[..first_segment_end].to_vec();
        stray.extend_from_slice(b"junk");
        stray.extend_from_slice(&bytes[first_segment_end..]);
        assert_eq!(image_data(&stray).unwrap().as_ref(), &bytes[..]);
        assert_eq!(decode(&stray, 100).unwrap().samples, expected);
    }

    #[test]
    fn the_size_limit_is_the_decoders() {
        let bytes = small_jpeg();
        assert_eq!(dimensions(&bytes), Ok((48, 32)));
        assert!(decode(&bytes, 40).is_err());
    }
}
