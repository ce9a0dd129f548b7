//! Every still format read, cut short, animated or not, and each of the eight EXIF orientations.

use std::io::Cursor;

use image::codecs::{
    bmp::BmpEncoder, gif::GifEncoder, jpeg::JpegEncoder, png::PngEncoder, pnm::PnmEncoder,
    tiff::TiffEncoder, webp::WebPEncoder,
};
use image::{ExtendedColorType, ImageEncoder, ImageFormat, RgbaImage};

use super::still_formats::{is_animated, still_format};
use super::{SourceImage, decode};

/// A 6x4 picture whose every pixel differs: the exact formats must give it back unchanged.
fn picture() -> RgbaImage {
    RgbaImage::from_fn(6, 4, |x, y| {
        image::Rgba([
            (40 * x) as u8,
            (60 * y) as u8,
            (200 - 20 * x - 10 * y) as u8,
            255,
        ])
    })
}

fn rgb_of(image: &RgbaImage) -> Vec<u8> {
    image::DynamicImage::ImageRgba8(image.clone())
        .into_rgb8()
        .into_raw()
}

/// `image` written in `format` by the image crate's own encoders.
fn encoded(image: &RgbaImage, format: ImageFormat) -> Vec<u8> {
    let (width, height) = image.dimensions();
    let mut bytes = Vec::new();
    let rgb = rgb_of(image);
    match format {
        ImageFormat::Png => PngEncoder::new(&mut bytes)
            .write_image(image, width, height, ExtendedColorType::Rgba8)
            .unwrap(),
        ImageFormat::Jpeg => JpegEncoder::new_with_quality(&mut bytes, 95)
            .write_image(&rgb, width, height, ExtendedColorType::Rgb8)
            .unwrap(),
        ImageFormat::Gif => GifEncoder::new(&mut bytes)
            .encode(image, width, height, ExtendedColorType::Rgba8)
            .unwrap(),
        ImageFormat::WebP => WebPEncoder::new_lossless(&mut bytes)
            .write_image(image, width, height, ExtendedColorType::Rgba8)
            .unwrap(),
        ImageFormat::Bmp => BmpEncoder::new(&mut bytes)
            .write_image(&rgb, width, height, ExtendedColorType::Rgb8)
            .unwrap(),
        ImageFormat::Tiff => TiffEncoder::new(Cursor::new(&mut bytes))
            .write_image(&rgb, width, height, ExtendedColorType::Rgb8)
            .unwrap(),
        ImageFormat::Pnm => PnmEncoder::new(&mut bytes)
            .write_image(&rgb, width, height, ExtendedColorType::Rgb8)
            .unwrap(),
        _ => unreachable!("not a format under test"),
    }
    bytes
}

fn decoded(bytes: &[u8]) -> anyhow::Result<SourceImage> {
    decode(Cursor::new(bytes.to_vec()), "image 'test'", "empty")
}

const EXACT_FORMATS: [ImageFormat; 6] = [
    ImageFormat::Png,
    ImageFormat::Gif,
    ImageFormat::WebP,
    ImageFormat::Bmp,
    ImageFormat::Tiff,
    ImageFormat::Pnm,
];

#[test]
fn every_still_format_is_read_from_its_bytes_pixel_for_pixel() {
    let image = picture();
    for format in EXACT_FORMATS {
        let bytes = encoded(&image, format);
        assert_eq!(still_format(&bytes[..16]), Some(format));
        let read = decoded(&bytes).unwrap_or_else(|error| panic!("{format:?}: {error:#}"));
        assert_eq!((read.width, read.height), (6, 4), "{format:?}");
        assert_eq!(read.pixels, image.as_raw().as_slice(), "{format:?}");
    }
    // JPEG is lossy: close, not equal.
    let read = decoded(&encoded(&image, ImageFormat::Jpeg)).unwrap();
    assert_eq!((read.width, read.height), (6, 4));
    let worst = read
        .pixels
        .iter()
        .zip(image.as_raw())
        .map(|(a, b)| a.abs_diff(*b))
        .max();
    assert!(worst < Some(40), "JPEG differs by {worst:?}");
}

#[test]
fn every_format_cut_short_is_refused() {
    // Larger than the test picture, so that a cut can fall inside the pixel data of each format.
    let image = RgbaImage::from_fn(40, 30, |x, y| {
        image::Rgba([(6 * x) as u8, (8 * y) as u8, ((x * y) % 256) as u8, 255])
    });
    for format in EXACT_FORMATS.into_iter().chain([ImageFormat::Jpeg]) {
        let bytes = encoded(&image, format);
        assert!(decoded(&bytes).is_ok(), "{format:?} whole");
        // Every cut in the first 64 bytes (the headers), then every 7th byte to the end.
        let cuts = (1..bytes.len().min(64))
            .chain((64..bytes.len()).step_by(7))
            .chain(bytes.len().saturating_sub(16)..bytes.len());
        let accepted: Vec<usize> = cuts.filter(|&cut| decoded(&bytes[..cut]).is_ok()).collect();
        assert!(
            accepted.is_empty(),
            "{format:?} of {} bytes cut to these lengths was read as a picture: {accepted:?}",
            bytes.len()
        );
    }
}

#[test]
fn a_gif_or_webp_of_several_frames_is_an_animation_and_of_one_a_still() {
    let image = picture();
    let still = encoded(&image, ImageFormat::Gif);
    assert!(!is_animated(Cursor::new(&still), ImageFormat::Gif));
    let mut animated = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut animated);
        for shade in [0u8, 255] {
            let frame = RgbaImage::from_pixel(6, 4, image::Rgba([shade, 0, 0, 255]));
            encoder.encode_frame(image::Frame::new(frame)).unwrap();
        }
    }
    assert!(is_animated(Cursor::new(&animated), ImageFormat::Gif));
    let webp = encoded(&image, ImageFormat::WebP);
    assert!(!is_animated(Cursor::new(&webp), ImageFormat::WebP));
    // An animated WebP: the VP8X header's animation flag (bit 1 of its flags byte) set, with an
    // ANIM chunk and one ANMF frame holding the still's own image chunk.
    let chunk = &webp[12..];
    let payload_size = 16 + chunk.len();
    let mut anmf = b"ANMF".to_vec();
    anmf.extend_from_slice(&(payload_size as u32).to_le_bytes());
    anmf.extend_from_slice(&[0; 6]); // x, y offsets
    anmf.extend_from_slice(&[5, 0, 0, 3, 0, 0]); // width - 1, height - 1 (24 bits each)
    anmf.extend_from_slice(&[100, 0, 0, 0]); // duration, flags
    anmf.extend_from_slice(chunk);
    let mut body = b"WEBPVP8X".to_vec();
    body.extend_from_slice(&10u32.to_le_bytes());
    body.extend_from_slice(&[0b0000_0010, 0, 0, 0, 5, 0, 0, 3, 0, 0]);
    body.extend_from_slice(b"ANIM");
    body.extend_from_slice(&6u32.to_le_bytes());
    body.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
    body.extend_from_slice(&anmf);
    let mut animated_webp = b"RIFF".to_vec();
    animated_webp.extend_from_slice(&(body.len() as u32).to_le_bytes());
    animated_webp.extend_from_slice(&body);
    assert!(is_animated(Cursor::new(&animated_webp), ImageFormat::WebP));
}

/// A TIFF-format EXIF block recording `orientation` (1..=8), as cameras write it.
fn exif_with_orientation(orientation: u16) -> Vec<u8> {
    let mut exif = b"MM\0\x2a".to_vec(); // big-endian TIFF header
    exif.extend_from_slice(&8u32.to_be_bytes()); // first IFD at offset 8
    exif.extend_from_slice(&1u16.to_be_bytes()); // one entry
    exif.extend_from_slice(&0x0112u16.to_be_bytes()); // Orientation
    exif.extend_from_slice(&3u16.to_be_bytes()); // SHORT
    exif.extend_from_slice(&1u32.to_be_bytes()); // one value
    exif.extend_from_slice(&orientation.to_be_bytes());
    exif.extend_from_slice(&[0, 0]); // value padding
    exif.extend_from_slice(&0u32.to_be_bytes()); // no next IFD
    exif
}

/// Where the stored pixel (x, y) of a `width x height` picture lands once `orientation` (the
/// EXIF value) is applied, and the upright picture's size: the table of the EXIF standard.
fn oriented_position(
    orientation: u16,
    (x, y): (u32, u32),
    (width, height): (u32, u32),
) -> ((u32, u32), (u32, u32)) {
    let (w, h) = (width - 1, height - 1);
    match orientation {
        1 => ((x, y), (width, height)),
        2 => ((w - x, y), (width, height)),
        3 => ((w - x, h - y), (width, height)),
        4 => ((x, h - y), (width, height)),
        5 => ((y, x), (height, width)),
        6 => ((h - y, x), (height, width)),
        7 => ((h - y, w - x), (height, width)),
        8 => ((y, w - x), (height, width)),
        _ => unreachable!(),
    }
}

/// Blocks of 16x16 pixels, each of its own colour, 3 blocks across and 2 down (big enough
/// for JPEG to keep each block's colour at its centre).
fn blocks() -> RgbaImage {
    const COLOURS: [[u8; 3]; 6] = [
        [230, 30, 30],
        [30, 230, 30],
        [30, 30, 230],
        [230, 230, 30],
        [30, 230, 230],
        [230, 30, 230],
    ];
    RgbaImage::from_fn(48, 32, |x, y| {
        let [r, g, b] = COLOURS[(y / 16 * 3 + x / 16) as usize];
        image::Rgba([r, g, b, 255])
    })
}

#[test]
fn each_of_the_eight_exif_orientations_turns_the_picture_upright() {
    let stored = blocks();
    for format in [ImageFormat::Jpeg, ImageFormat::Png, ImageFormat::WebP] {
        for orientation in 1..=8u16 {
            let mut bytes = Vec::new();
            let (width, height) = stored.dimensions();
            match format {
                ImageFormat::Jpeg => {
                    let mut encoder = JpegEncoder::new_with_quality(&mut bytes, 95);
                    encoder
                        .set_exif_metadata(exif_with_orientation(orientation))
                        .unwrap();
                    encoder
                        .write_image(&rgb_of(&stored), width, height, ExtendedColorType::Rgb8)
                        .unwrap();
                }
                ImageFormat::Png => {
                    let mut encoder = PngEncoder::new(&mut bytes);
                    encoder
                        .set_exif_metadata(exif_with_orientation(orientation))
                        .unwrap();
                    encoder
                        .write_image(&stored, width, height, ExtendedColorType::Rgba8)
                        .unwrap();
                }
                _ => {
                    let mut encoder = WebPEncoder::new_lossless(&mut bytes);
                    encoder
                        .set_exif_metadata(exif_with_orientation(orientation))
                        .unwrap();
                    encoder
                        .write_image(&stored, width, height, ExtendedColorType::Rgba8)
                        .unwrap();
                }
            }
            let read = decoded(&bytes).unwrap();
            // Each block's centre, where the stored picture had it, is found where the
            // orientation sends it.
            for by in 0..2 {
                for bx in 0..3 {
                    let centre = (bx * 16 + 8, by * 16 + 8);
                    let ((x, y), size) = oriented_position(orientation, centre, (width, height));
                    assert_eq!((read.width, read.height), size, "{format:?} {orientation}");
                    let at = ((y * read.width + x) * 4) as usize;
                    let want = stored.get_pixel(centre.0, centre.1).0;
                    let got = &read.pixels[at..at + 4];
                    let off = got.iter().zip(want).map(|(a, b)| a.abs_diff(b)).max();
                    assert!(
                        off <= Some(12),
                        "{format:?} orientation {orientation}: block ({bx}, {by}) shows \
                         {got:?}, want {want:?}"
                    );
                }
            }
        }
    }
}
