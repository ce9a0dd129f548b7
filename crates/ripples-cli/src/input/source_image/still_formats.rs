//! The still-picture formats the command reads, told apart by their first bytes, and the line
//! between a still and a clip for the two formats that can be either.
//!
//! Every decoder is the `image` crate's (PNG, GIF, WebP, BMP, TIFF, PNM; JPEG goes through
//! [`super::jpeg`] for its strict mode). A GIF or WebP of one frame is a picture; one of several
//! frames is an animation and is read as a clip, through ffmpeg like any video, so that its
//! frames play under the water. The orientation a file records (EXIF, in JPEG, WebP, TIFF and
//! PNG) is read by the same decoders and applied by [`orient`], before the picture is used for
//! anything, so a phone's portrait photo comes in upright as every viewer shows it.

use std::fs::File;
use std::io::{BufRead, BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::Path;

use image::metadata::Orientation;
use image::{DynamicImage, ImageFormat, RgbaImage};

/// The formats read as pictures, in the order error messages list them.
pub const STILL_FORMATS: [ImageFormat; 7] = [
    ImageFormat::Png,
    ImageFormat::Jpeg,
    ImageFormat::Gif,
    ImageFormat::WebP,
    ImageFormat::Bmp,
    ImageFormat::Tiff,
    ImageFormat::Pnm,
];

/// How messages name the formats read as pictures.
pub const STILL_FORMAT_NAMES: &str = "PNG, JPEG, GIF, WebP, BMP, TIFF or PNM";

/// The still format that `head` (a file's first bytes, 16 are enough) starts like, if any.
pub fn still_format(head: &[u8]) -> Option<ImageFormat> {
    image::guess_format(head)
        .ok()
        .filter(|format| STILL_FORMATS.contains(format))
}

/// Whether the file at `path` is to be read as a picture rather than asked of ffprobe as a
/// video: it starts like a still format and, for GIF and WebP, holds one frame. A file that
/// cannot be read, is empty, or whose frames cannot be counted also counts as a picture, so
/// that the picture loader says what is wrong with it.
pub fn is_still_picture_file(path: &Path) -> bool {
    if crate::input::pipes::is_pipe_or_device(path) {
        // Read once and kept, for the loader to decode the same bytes.
        return crate::input::pipes::read_whole(path, "").map_or(true, |bytes| {
            is_still_picture(Cursor::new(bytes.as_slice()))
        });
    }
    match File::open(path) {
        Ok(file) => is_still_picture(BufReader::new(file)),
        Err(_) => true,
    }
}

/// [`is_still_picture_file`] for the bytes of `source`.
fn is_still_picture<R: BufRead + Seek>(mut source: R) -> bool {
    let mut head = [0u8; 16];
    let filled = match read_prefix(&mut source, &mut head) {
        Ok(filled) => filled,
        Err(_) => return true,
    };
    if filled == 0 {
        return true;
    }
    match still_format(&head[..filled]) {
        None => false,
        Some(format) => {
            // Rewind for the frame count; a file that cannot be reread is the loader's to report.
            if source.seek(SeekFrom::Start(0)).is_err() {
                return true;
            }
            // A decoder that panics here leaves the file to the loader, which says so.
            !crate::input::panics::capture(|| is_animated(source, format)).unwrap_or(false)
        }
    }
}

/// Whether a GIF or WebP holds more than one frame (an animation); any other format, or a
/// file too damaged to tell, is not.
pub fn is_animated<R: BufRead + Seek>(source: R, format: ImageFormat) -> bool {
    match format {
        ImageFormat::Gif => {
            let mut options = gif::DecodeOptions::new();
            options.set_color_output(gif::ColorOutput::Indexed);
            let Ok(mut decoder) = options.read_info(source) else {
                return false;
            };
            // Reading the second frame's header skips the first frame's data, undecoded.
            matches!(decoder.next_frame_info(), Ok(Some(_)))
                && matches!(decoder.next_frame_info(), Ok(Some(_)))
        }
        ImageFormat::WebP => image::codecs::webp::WebPDecoder::new(source)
            .is_ok_and(|decoder| decoder.has_animation()),
        _ => false,
    }
}

/// How many first bytes of a file [`is_animated_webp`] looks at: enough for the chunks that come
/// before the first frame (VP8X, a colour profile of a few KiB at most, ANIM).
const WEBP_HEAD: usize = 16 << 10;

/// Whether `head`, a file's first bytes, is a WebP that says it is animated: its VP8X chunk's
/// animation flag is set, or an ANIM or ANMF chunk is among the chunks `head` holds. Read from
/// the RIFF structure itself, not by a decoder, so that a file no decoder here reads can still
/// be named for what it is.
pub fn is_animated_webp(head: &[u8]) -> bool {
    if head.len() < 12 || &head[..4] != b"RIFF" || &head[8..12] != b"WEBP" {
        return false;
    }
    const ANIMATION_FLAG: u8 = 0x02;
    let mut position = 12;
    while let Some(header) = head.get(position..position + 8) {
        let fourcc = &header[..4];
        let size = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
        if fourcc == b"ANIM" || fourcc == b"ANMF" {
            return true;
        }
        if fourcc == b"VP8X"
            && head
                .get(position + 8)
                .is_some_and(|flags| flags & ANIMATION_FLAG != 0)
        {
            return true;
        }
        // Chunks are padded to an even size.
        position = position
            .saturating_add(8)
            .saturating_add(size)
            .saturating_add(size & 1);
    }
    false
}

/// [`is_animated_webp`] for the file at `path` (a pipe's kept bytes, for a pipe); false when it
/// cannot be read.
pub fn is_animated_webp_file(path: &Path) -> bool {
    if crate::input::pipes::is_pipe_or_device(path) {
        return crate::input::pipes::read_whole(path, "")
            .is_ok_and(|bytes| is_animated_webp(&bytes[..bytes.len().min(WEBP_HEAD)]));
    }
    let Ok(mut file) = File::open(path) else {
        return false;
    };
    let mut head = vec![0u8; WEBP_HEAD];
    read_prefix(&mut file, &mut head).is_ok_and(|filled| is_animated_webp(&head[..filled]))
}

/// Refuses a file whose end is missing though its pixels may all be there: the decoders of
/// PNG, GIF and WebP stop reading once they have the picture, so a file cut in its last
/// chunk (PNG's IEND, GIF's trailer, WebP's last byte) would pass as whole. (JPEG's end is
/// checked by [`super::jpeg`]; the BMP, TIFF and PNM decoders refuse every cut themselves.)
pub fn check_whole<R: BufRead + Seek>(source: &mut R, format: ImageFormat) -> Result<(), String> {
    let cut_short = |what: &str| Err(format!("the file is cut short: it ends before {what}"));
    let unreadable = |error: std::io::Error| format!("cannot read it: {error}");
    let length = source.seek(SeekFrom::End(0)).map_err(unreadable)?;
    let outcome = match format {
        ImageFormat::Png => {
            // Chunks: length (4 bytes, big-endian), type (4), data, CRC (4), up to IEND; the
            // walk reads each chunk's header and seeks past the rest.
            let mut position = 8u64;
            loop {
                let mut header = [0u8; 8];
                source.seek(SeekFrom::Start(position)).map_err(unreadable)?;
                if position + 8 > length || source.read_exact(&mut header).is_err() {
                    break cut_short("the PNG end chunk (IEND)");
                }
                let chunk_length = u32::from_be_bytes([header[0], header[1], header[2], header[3]]);
                let end = position + 12 + u64::from(chunk_length);
                if end > length {
                    break cut_short("the PNG end chunk (IEND)");
                }
                if &header[4..8] == b"IEND" {
                    break Ok(());
                }
                position = end;
            }
        }
        ImageFormat::Gif => {
            source.seek(SeekFrom::Start(0)).map_err(unreadable)?;
            let mut options = gif::DecodeOptions::new();
            options.set_color_output(gif::ColorOutput::Indexed);
            match options.read_info(&mut *source) {
                Err(error) => Err(error.to_string()),
                Ok(mut decoder) => loop {
                    // Skipping past every frame reaches the trailer, or fails where the file ends.
                    match decoder.next_frame_info() {
                        Ok(Some(_)) => {}
                        Ok(None) => break Ok(()),
                        Err(error) => {
                            break Err(format!("the GIF data is damaged or cut short ({error})"));
                        }
                    }
                },
            }
        }
        ImageFormat::WebP => {
            // RIFF header: "RIFF", the size of what follows the first 8 bytes, "WEBP".
            let mut header = [0u8; 8];
            source.seek(SeekFrom::Start(0)).map_err(unreadable)?;
            match source.read_exact(&mut header) {
                Ok(()) => {
                    let size = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
                    if length >= 8 + u64::from(size) {
                        Ok(())
                    } else {
                        cut_short("the end its RIFF header gives")
                    }
                }
                Err(_) => cut_short("the end of its RIFF header"),
            }
        }
        _ => Ok(()),
    };
    source.seek(SeekFrom::Start(0)).map_err(unreadable)?;
    outcome
}

/// A decoded picture turned upright as its `orientation` says: width, height and RGBA pixels.
pub fn orient(
    width: u32,
    height: u32,
    pixels: Vec<u8>,
    orientation: Orientation,
) -> Option<(u32, u32, Vec<u8>)> {
    if orientation == Orientation::NoTransforms {
        return Some((width, height, pixels));
    }
    let mut image = DynamicImage::ImageRgba8(RgbaImage::from_raw(width, height, pixels)?);
    image.apply_orientation(orientation);
    let upright = image.into_rgba8();
    Some((upright.width(), upright.height(), upright.into_raw()))
}

/// The orientation an EXIF block records (none recorded, or an unreadable block, is upright).
pub fn orientation_of_exif(exif: Option<&[u8]>) -> Orientation {
    exif.and_then(Orientation::from_exif_chunk)
        .unwrap_or(Orientation::NoTransforms)
}

/// Reads until `buffer` is full or the source ends; returns the bytes read.
pub fn read_prefix(source: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match source.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::is_animated_webp;

    /// A RIFF WebP of `chunks` (fourcc, payload), sizes and padding filled in.
    fn webp(chunks: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
        let mut body = b"WEBP".to_vec();
        for (fourcc, payload) in chunks {
            body.extend_from_slice(*fourcc);
            body.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            body.extend_from_slice(payload);
            if payload.len() % 2 == 1 {
                body.push(0);
            }
        }
        let mut file = b"RIFF".to_vec();
        file.extend_from_slice(&(body.len() as u32).to_le_bytes());
        file.extend(body);
        file
    }

    #[test]
    fn an_animated_webp_is_told_by_its_flag_or_its_chunks() {
        let vp8x = |flags: u8| [flags, 0, 0, 0, 47, 0, 0, 31, 0, 0];
        // The flag, as Pillow and libwebp write it, with ANIM after it.
        assert!(is_animated_webp(&webp(&[
            (b"VP8X", &vp8x(0x02)),
            (b"ANIM", &[0; 6])
        ])));
        // The flag alone, and an ANIM chunk after an odd-sized profile, the flag unset.
        assert!(is_animated_webp(&webp(&[(b"VP8X", &vp8x(0x02))])));
        assert!(is_animated_webp(&webp(&[
            (b"VP8X", &vp8x(0x20)),
            (b"ICCP", &[7; 5]),
            (b"ANIM", &[0; 6])
        ])));
        // Stills: extended with an alpha flag, simple lossy and lossless; and not WebP at all.
        assert!(!is_animated_webp(&webp(&[
            (b"VP8X", &vp8x(0x10)),
            (b"VP8 ", &[0; 20])
        ])));
        assert!(!is_animated_webp(&webp(&[(b"VP8 ", &[0; 20])])));
        assert!(!is_animated_webp(&webp(&[(b"VP8L", &[0; 9])])));
        assert!(!is_animated_webp(b"RIFF\x04\x00\x00\x00WAVEANIM"));
        assert!(!is_animated_webp(b"RIFF"));
        // A chunk size that runs past the end stops the walk, without a panic.
        let mut huge = webp(&[(b"VP8 ", &[0; 4])]);
        huge[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(!is_animated_webp(&huge));
    }
}
