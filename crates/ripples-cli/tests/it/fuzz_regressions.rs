//! Regression tests for the bugs the fuzz targets (`fuzz/`) found in the command's input
//! handling, one test per bug, named after it, replaying the input that showed it.
//!
//! The library's own fuzz regressions are in `crates/ripples/tests/it/fuzz_regressions.rs`.

use std::path::Path;
use std::process::Command;

use ripples_cli::input::source_image::SourceImage;

/// A 495-byte JPEG on which zune-jpeg 0.5.15 (the `image` crate's JPEG decoder) panics in its
/// AVX2 inverse DCT, `called Option::unwrap() on a None value` (upstream
/// etemesi254/zune-image#361). Found by `image_decode`. `tests/panic_hook.rs` checks that
/// containing it leaves other panics reported.
const JPEG_DECODER_PANIC: &str = "tests/data/jpeg-decoder-panic.jpg";

#[test]
fn a_jpeg_that_panics_the_decoder_is_an_error_naming_the_file() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(JPEG_DECODER_PANIC);
    // Before the fix the panic went straight through `load`. On a CPU without AVX2 the decoder
    // takes another path, which may refuse the file or decode it; either is fine.
    match SourceImage::load(&path) {
        Err(error) => {
            let message = format!("{error:#}");
            assert!(message.contains("jpeg-decoder-panic.jpg"), "{message}");
            assert!(message.contains("cannot decode it"), "{message}");
        }
        Ok(image) => {
            assert_eq!(
                image.pixels.len(),
                image.width as usize * image.height as usize * 4
            );
        }
    }
}

#[test]
fn the_command_reports_a_jpeg_that_panics_the_decoder_without_a_panic() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(JPEG_DECODER_PANIC);
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args(["render", path.to_str().unwrap(), "--frames", "2", "--out"])
        .arg(dir.path().join("out.gif"))
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    if !output.status.success() {
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(stderr.starts_with("error"), "{stderr}");
        assert!(stderr.contains("jpeg-decoder-panic.jpg"), "{stderr}");
    }
}
