//! Height-field input: bytes read exactly as `ripples render --heights-in` reads a `.npy` file,
//! through `heights_in::read_heights` on a file, for a small grid of each element type.
//!
//! The header is parsed and checked (version, header length capped, dictionary, dtype, order,
//! shape against the limits and the grid, file length against the shape) before any value is
//! read, so whatever the bytes claim, nothing larger than the small grid is ever allocated; any
//! input must end in a field or an error, never a panic. The header parser alone is fuzzed too,
//! with no grid to stop it early.

#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use ripples::SolverKind;
use ripples_cli::input::heights_in::{GridShape, LoadedHeights, parse_header, read_heights};

/// This process's scratch file.
fn scratch_path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("ripples-fuzz-npy-{}.npy", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| {
    if let Ok(header) = parse_header(data) {
        assert!(header.data_offset <= data.len());
    }
    let path = scratch_path();
    if std::fs::write(path, data).is_err() {
        return;
    }
    for solver in [SolverKind::Classic, SolverKind::Wave] {
        let grid = GridShape {
            width: 4,
            height: 3,
            pool: (4, 3),
            sim_scale: 1,
            solver,
        };
        if let Ok(field) = read_heights(path, &grid) {
            let cells = match field {
                LoadedHeights::I16(values) => values.len(),
                LoadedHeights::F32(values) => values.len(),
            };
            assert_eq!(cells, 12);
        }
    }
    let _ = std::fs::remove_file(path);
});
