//! Image input: bytes decoded exactly as `ripples render` reads a picture, an obstacle mask or
//! a spring map, through `SourceImage::load` on a file.
//!
//! The bytes go to a file first because that is the code path users reach: the format sniffed
//! from the first bytes, the header read and checked against the size limits before anything
//! is decoded, the file reopened and decoded with the allocation limit, then converted to RGBA.
//! (A scratch file per process, written and removed for each input, costs a few microseconds,
//! far less than a decode.) A decoded
//! image must have the size its header promised and lie within the limits; small ones are also
//! resized and turned into luminance, as the obstacle and map paths do.
//!
//! Memory is the other half of the contract: the limits allow a 8192x8192 image, so an RGBA
//! buffer of 256 MiB and a decoder allocation limit of 512 MiB, and never more. `.ci/fuzz` runs
//! this target with `-malloc_limit_mb` just above 512, so any single allocation beyond the
//! limits is reported as a crash.

#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use ripples_cli::input::source_image::SourceImage;

/// Images up to this many pixels are also resized and turned into luminance.
const RESIZE_PIXELS: u64 = 256 * 256;

/// This process's scratch file (in memory where the system offers it).
fn scratch_path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let shm = PathBuf::from("/dev/shm");
        let directory = if shm.is_dir() {
            shm
        } else {
            std::env::temp_dir()
        };
        directory.join(format!("ripples-fuzz-image-{}", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| {
    let path = scratch_path();
    std::fs::write(path, data).expect("the scratch file is writable");
    let loaded = SourceImage::load(path);
    // Removed at once, so no run leaves a file behind (libFuzzer exits without unwinding).
    let _ = std::fs::remove_file(path);
    let Ok(image) = loaded else {
        return;
    };
    let (width, height) = (u64::from(image.width), u64::from(image.height));
    assert!(
        ripples::limits::check_size(width, height).is_ok(),
        "decoded {width}x{height}, beyond the limits"
    );
    assert_eq!(image.pixels.len() as u64, width * height * 4);
    if width * height <= RESIZE_PIXELS {
        let resized = image.resized(17, 13).expect("a decoded image resizes");
        assert_eq!(resized.pixels.len(), 17 * 13 * 4);
        assert_eq!(resized.luminance().len(), 17 * 13);
    }
});
