//! NumPy `.npy` files (format version 1.0) holding one 2D grid, for inspecting solver state
//! with NumPy: `numpy.load("heights.npy")` gives an array of shape (height, width).

use std::path::Path;

use anyhow::{Result, bail};

use super::{StagedFile, stage_file};

/// Magic string and format version 1.0.
const MAGIC_AND_VERSION: &[u8] = b"\x93NUMPY\x01\x00";

/// The preamble (magic, version, header length, header) is padded to a multiple of this, so
/// the data that follows is aligned.
const PREAMBLE_ALIGNMENT: usize = 64;

/// Writes a 2D i16 grid as a NumPy .npy file (format 1.0, dtype '<i2', shape (height, width),
/// C order), atomically (temp file + rename).
pub fn write_npy_i16(path: &Path, width: usize, height: usize, data: &[i16]) -> Result<()> {
    stage_npy_i16(path, width, height, data, false)?.commit()
}

/// Same with dtype '<f4' (the f32 solvers' heights).
pub fn write_npy_f32(path: &Path, width: usize, height: usize, data: &[f32]) -> Result<()> {
    stage_npy_f32(path, width, height, data, false)?.commit()
}

/// Writes the i16 .npy file under a temporary name beside `path`, to be moved into place by
/// [`StagedFile::commit`] (which, with `no_clobber`, never replaces a file).
pub fn stage_npy_i16(
    path: &Path,
    width: usize,
    height: usize,
    data: &[i16],
    no_clobber: bool,
) -> Result<StagedFile> {
    stage_npy(path, "<i2", (width, height), data, no_clobber, |value| {
        value.to_le_bytes()
    })
}

/// [`stage_npy_i16`] with dtype '<f4'.
pub fn stage_npy_f32(
    path: &Path,
    width: usize,
    height: usize,
    data: &[f32],
    no_clobber: bool,
) -> Result<StagedFile> {
    stage_npy(path, "<f4", (width, height), data, no_clobber, |value| {
        value.to_le_bytes()
    })
}

fn stage_npy<T: Copy, const N: usize>(
    path: &Path,
    descr: &str,
    (width, height): (usize, usize),
    data: &[T],
    no_clobber: bool,
    to_le_bytes: impl Fn(T) -> [u8; N],
) -> Result<StagedFile> {
    if width.checked_mul(height) != Some(data.len()) {
        bail!(
            "cannot write '{}': the grid is {width}x{height} but {} values were given",
            path.display(),
            data.len()
        );
    }
    let preamble = npy_preamble(descr, width, height);
    stage_file(path, no_clobber, |out| {
        out.write_all(&preamble)?;
        data.iter()
            .try_for_each(|&value| out.write_all(&to_le_bytes(value)))
    })
}

/// Magic, version, little-endian header length and the header dictionary, padded with spaces
/// and ended by a newline so the whole preamble is a multiple of 64 bytes.
pub(super) fn npy_preamble(descr: &str, width: usize, height: usize) -> Vec<u8> {
    let dict =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({height}, {width}), }}");
    let fixed_len = MAGIC_AND_VERSION.len() + 2;
    let unpadded = fixed_len + dict.len() + 1;
    let header_len = dict.len() + unpadded.next_multiple_of(PREAMBLE_ALIGNMENT) - unpadded + 1;

    let mut preamble = Vec::with_capacity(fixed_len + header_len);
    preamble.extend_from_slice(MAGIC_AND_VERSION);
    // A dictionary of two numbers and a short dtype is far below 65535 bytes.
    let header_len_u16 = u16::try_from(header_len).unwrap_or(u16::MAX);
    preamble.extend_from_slice(&header_len_u16.to_le_bytes());
    preamble.extend_from_slice(dict.as_bytes());
    preamble.resize(fixed_len + header_len - 1, b' ');
    preamble.push(b'\n');
    preamble
}
