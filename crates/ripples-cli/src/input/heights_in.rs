//! Reading a height field from a NumPy `.npy` file, for `ripples render --heights-in` and the
//! scene key `heights` ([`heights_input`] says which, the option winning).
//!
//! The format is small enough to read here rather than pull in a crate: a magic string, a
//! version (1.0, 2.0 or 3.0, which differ only in the width of the header length and the
//! header's text encoding), a header that is a Python dictionary literal
//! (`{'descr': '<f4', 'fortran_order': False, 'shape': (240, 320), }`), then the values. Only
//! what a height field needs is accepted: two dimensions in C order, little-endian `<i2` for
//! the classic solver or `<f4` for the float ones. Everything is checked from the header (its
//! length capped, the shape against the size limits and the grid, the dtype against the solver,
//! the file's length against the shape) before a byte of data is read, so a wrong or hostile
//! file costs nothing and allocates nothing large. [`parse_header`] is public for the fuzz
//! target.
//!
//! A wrong file is an error of the work (exit 1), like an image that is not a picture: the
//! command line is well formed, the file does not fit the render it asks for.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use ripples::{Heights, SolverKind};

use crate::input::scene_file::SceneFile;
use crate::input::{InputFile, pipes};

/// The height field a render starts from: `--heights-in` (`option`), else the scene file's
/// `heights` key, relative to the scene file's directory.
pub fn heights_input(
    option: Option<&PathBuf>,
    scene_file: Option<&SceneFile>,
) -> Option<InputFile> {
    match option {
        Some(path) => Some(InputFile {
            role: "the heights input".to_string(),
            label: format!("--heights-in '{}'", path.display()),
            path: path.clone(),
        }),
        None => scene_file.and_then(|file| {
            file.files.heights.as_ref().map(|path| InputFile {
                role: "the scene's heights input".to_string(),
                label: format!("{} '{path}'", file.describe_key("heights")),
                path: file.directory.join(path),
            })
        }),
    }
}

/// The first bytes of every `.npy` file.
const MAGIC: &[u8] = b"\x93NUMPY";

/// Longest header read. NumPy writes about 128 bytes for a 2D array and by default refuses to
/// load a header over 10 000 bytes; this is looser but still small.
pub const MAX_HEADER_BYTES: usize = 65_536;

/// Bytes converted at a time while reading the values.
const CHUNK_BYTES: usize = 1 << 16;

/// What the header of a `.npy` file says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NpyHeader {
    /// Format version: 1, 2 or 3.
    pub major_version: u8,
    /// The dtype string, e.g. `<f4`.
    pub descr: String,
    /// Whether the values are stored column by column (Fortran order).
    pub fortran_order: bool,
    /// The array's shape, outermost first.
    pub shape: Vec<u64>,
    /// Where the values start: the length of the magic, version, length field and header.
    pub data_offset: usize,
}

/// Reads the header from the start of a `.npy` file. `start` needs the whole preamble; with
/// too few bytes the error says the file is too short.
pub fn parse_header(start: &[u8]) -> Result<NpyHeader> {
    let (header_len, fixed) = header_length(start)?;
    let header = start
        .get(fixed..fixed + header_len)
        .ok_or_else(|| anyhow!("the file ends inside its header ({header_len} bytes)"))?;
    let major_version = start[6];
    let text = match major_version {
        // Versions 1 and 2 are Latin-1, 3 is UTF-8; a header is ASCII in practice.
        3 => std::str::from_utf8(header).map_err(|_| anyhow!("the header is not UTF-8 text"))?,
        _ if header.is_ascii() => std::str::from_utf8(header).unwrap_or_default(),
        _ => bail!("the header is not ASCII text"),
    };
    let entries = parse_dictionary(text)?;
    let mut descr = None;
    let mut fortran_order = None;
    let mut shape = None;
    for (key, value) in entries {
        let slot_taken = match (key.as_str(), value) {
            ("descr", Value::Text(text)) => descr.replace(text).is_some(),
            ("fortran_order", Value::Bool(flag)) => fortran_order.replace(flag).is_some(),
            ("shape", Value::Tuple(dims)) => shape.replace(dims).is_some(),
            ("descr" | "fortran_order" | "shape", value) => {
                bail!("the header's '{key}' has an unexpected value {value:?}")
            }
            (other, _) => bail!("the header has an unexpected key '{other}'"),
        };
        if slot_taken {
            bail!("the header gives '{key}' twice");
        }
    }
    let missing = |key: &str| anyhow!("the header has no '{key}'");
    Ok(NpyHeader {
        major_version,
        descr: descr.ok_or_else(|| missing("descr"))?,
        fortran_order: fortran_order.ok_or_else(|| missing("fortran_order"))?,
        shape: shape.ok_or_else(|| missing("shape"))?,
        data_offset: fixed + header_len,
    })
}

/// The header's length and where it starts, from the magic, version and length field.
fn header_length(start: &[u8]) -> Result<(usize, usize)> {
    if start.len() < 8 || !start.starts_with(MAGIC) {
        bail!("not a NumPy .npy file (it does not start with \\x93NUMPY)");
    }
    let (major, minor) = (start[6], start[7]);
    let fixed = match (major, minor) {
        (1, 0) => 10,
        (2, 0) | (3, 0) => 12,
        _ => bail!("unknown .npy format version {major}.{minor}; expected 1.0, 2.0 or 3.0"),
    };
    let field = start
        .get(8..fixed)
        .ok_or_else(|| anyhow!("the file ends inside its header"))?;
    let header_len = match field {
        [a, b] => usize::from(u16::from_le_bytes([*a, *b])),
        [a, b, c, d] => u32::from_le_bytes([*a, *b, *c, *d]) as usize,
        _ => unreachable!("the length field is 2 or 4 bytes"),
    };
    if header_len > MAX_HEADER_BYTES {
        bail!("the header is {header_len} bytes long, more than the {MAX_HEADER_BYTES} read");
    }
    Ok((header_len, fixed))
}

/// A value in the header dictionary.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    Text(String),
    Bool(bool),
    Tuple(Vec<u64>),
}

/// Parses the Python dictionary literal of a header into its entries, in order.
fn parse_dictionary(text: &str) -> Result<Vec<(String, Value)>> {
    let mut cursor = Cursor {
        bytes: text.as_bytes(),
        at: 0,
    };
    cursor.expect(b'{')?;
    let mut entries = Vec::new();
    loop {
        if cursor.eat(b'}') {
            break;
        }
        let key = cursor.string()?;
        cursor.expect(b':')?;
        let value = cursor.value()?;
        entries.push((key, value));
        if !cursor.eat(b',') {
            cursor.expect(b'}')?;
            break;
        }
    }
    cursor.skip_space();
    if cursor.at != cursor.bytes.len() {
        bail!("the header has text after its dictionary");
    }
    Ok(entries)
}

/// A position in the header text.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn skip_space(&mut self) {
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    /// Skips spaces, then takes `byte` if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        let next = self.bytes.get(self.at) == Some(&byte);
        if next {
            self.at += 1;
        }
        next
    }

    fn expect(&mut self, byte: u8) -> Result<()> {
        if self.eat(byte) {
            Ok(())
        } else {
            bail!(
                "the header is not a dictionary NumPy writes: expected '{}' at byte {}",
                char::from(byte),
                self.at
            )
        }
    }

    /// A quoted string (single or double quotes, no escapes: a dtype or a key has none).
    fn string(&mut self) -> Result<String> {
        self.skip_space();
        let quote = match self.bytes.get(self.at) {
            Some(&quote @ (b'\'' | b'"')) => quote,
            _ => bail!(
                "the header's dictionary has a key that is not a quoted string at byte {}",
                self.at
            ),
        };
        let start = self.at + 1;
        let length = self.bytes[start..]
            .iter()
            .position(|&b| b == quote)
            .ok_or_else(|| anyhow!("the header has an unterminated string"))?;
        self.at = start + length + 1;
        Ok(String::from_utf8_lossy(&self.bytes[start..start + length]).into_owned())
    }

    fn value(&mut self) -> Result<Value> {
        self.skip_space();
        let rest = &self.bytes[self.at..];
        match rest.first() {
            Some(b'\'' | b'"') => Ok(Value::Text(self.string()?)),
            Some(b'(') => self.tuple(),
            Some(b'[' | b'{') => bail!(
                "the header holds a list or dictionary: a structured dtype (a list of fields); \
                 expected a plain number type"
            ),
            _ if rest.starts_with(b"True") => {
                self.at += 4;
                Ok(Value::Bool(true))
            }
            _ if rest.starts_with(b"False") => {
                self.at += 5;
                Ok(Value::Bool(false))
            }
            _ => bail!(
                "the header has a value NumPy does not write at byte {}",
                self.at
            ),
        }
    }

    /// A tuple of non-negative integers: `()`, `(5,)`, `(240, 320)`.
    fn tuple(&mut self) -> Result<Value> {
        self.expect(b'(')?;
        let mut dims = Vec::new();
        loop {
            if self.eat(b')') {
                break;
            }
            dims.push(self.integer()?);
            if !self.eat(b',') {
                self.expect(b')')?;
                break;
            }
        }
        Ok(Value::Tuple(dims))
    }

    fn integer(&mut self) -> Result<u64> {
        self.skip_space();
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        let digits = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or_default();
        let number = digits.parse().map_err(|_| {
            anyhow!("the header's shape holds something other than sizes at byte {start}")
        })?;
        // Python 2 wrote long integers with an L.
        if self.bytes.get(self.at) == Some(&b'L') {
            self.at += 1;
        }
        Ok(number)
    }
}

/// The grid a field must fit, and how to say where its size comes from.
#[derive(Debug, Clone, Copy)]
pub struct GridShape {
    /// Cells across.
    pub width: u32,
    /// Cells down.
    pub height: u32,
    /// The pool's size in pixels.
    pub pool: (u32, u32),
    /// Pixels per cell.
    pub sim_scale: u32,
    /// The solver the field is for.
    pub solver: SolverKind,
}

impl GridShape {
    /// The dtype the solver's heights are stored as.
    fn dtype(&self) -> &'static str {
        match self.solver {
            SolverKind::Classic => "<i2",
            _ => "<f4",
        }
    }

    /// Where the expected shape comes from, for messages.
    fn origin(&self) -> String {
        let (width, height) = self.pool;
        if self.sim_scale == 1 {
            format!("the simulation grid of the {width}x{height} pool")
        } else {
            format!(
                "the simulation grid of the {width}x{height} pool at sim scale {} (the pool's \
                 size divided by it, rounded up)",
                self.sim_scale
            )
        }
    }
}

/// A field read from a file, in the element type of the solver it is for.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadedHeights {
    /// The classic solver's integer heights.
    I16(Vec<i16>),
    /// Heights above rest, for the f32 solvers.
    F32(Vec<f32>),
}

impl LoadedHeights {
    /// The field as the library takes it.
    pub fn heights(&self) -> Heights<'_> {
        match self {
            Self::I16(values) => Heights::I16(values),
            Self::F32(values) => Heights::F32(values),
        }
    }
}

/// Reads the height field at `path` for `grid`: shape `(grid.height, grid.width)`, the dtype its
/// solver keeps, little-endian, C order. Every error starts with `heights '<path>':`.
pub fn read_heights(path: &Path, grid: &GridShape) -> Result<LoadedHeights> {
    read_heights_as(path, grid, &format!("heights '{}'", path.display()))
}

/// [`read_heights`], with errors starting with `name` (the option or the scene key that gave
/// the file: `--heights-in 'x.npy'`, `scene 'x.toml' line 4: heights 'x.npy'`).
/// A named pipe or a device is read whole first (see [`pipes`]).
pub fn read_heights_as(path: &Path, grid: &GridShape, name: &str) -> Result<LoadedHeights> {
    let named = |error: anyhow::Error| anyhow!("{name}: {error:#}");
    if pipes::is_pipe_or_device(path) {
        let bytes = pipes::read_whole(path, name)?;
        return read_checked(bytes.as_slice(), bytes.len() as u64, grid).map_err(named);
    }
    let file = File::open(path).map_err(|error| named(anyhow!("cannot open: {error}")))?;
    let file_len = file.metadata().map(|m| m.len()).unwrap_or(0);
    read_checked(BufReader::new(file), file_len, grid).map_err(named)
}

/// Reads the field from `reader`, which holds `file_len` bytes.
fn read_checked(mut reader: impl Read, file_len: u64, grid: &GridShape) -> Result<LoadedHeights> {
    let mut start = vec![0u8; 12];
    let got = read_up_to(&mut reader, &mut start)?;
    start.truncate(got);
    let (header_len, fixed) = header_length(&start)?;
    let preamble_len = fixed + header_len;
    if start.len() < preamble_len {
        let mut rest = vec![0u8; preamble_len - start.len()];
        let got = read_up_to(&mut reader, &mut rest)?;
        rest.truncate(got);
        start.extend_from_slice(&rest);
    }
    let header = parse_header(&start)?;
    check_header(&header, grid)?;

    let cells = u64::from(grid.width) * u64::from(grid.height);
    let data_len = cells * item_size(&header.descr);
    let expected_len = header.data_offset as u64 + data_len;
    if file_len != expected_len {
        let held = file_len.saturating_sub(header.data_offset as u64);
        let how = if file_len < expected_len {
            "truncated"
        } else {
            "too long"
        };
        bail!(
            "{how}: it holds {held} bytes of values, expected {data_len} for shape ({}, {}) of \
             '{}'",
            grid.height,
            grid.width,
            header.descr
        );
    }
    Ok(match grid.solver {
        SolverKind::Classic => {
            LoadedHeights::I16(read_values(&mut reader, cells, i16::from_le_bytes)?)
        }
        _ => LoadedHeights::F32(read_values(&mut reader, cells, f32::from_le_bytes)?),
    })
}

/// Bytes per value of a dtype string such as `<f4` (0 when it does not say).
fn item_size(descr: &str) -> u64 {
    descr
        .get(2..)
        .and_then(|size| size.parse().ok())
        .unwrap_or(0)
}

/// Refuses a header that does not describe `grid`'s field: naming what was found and what was
/// expected.
fn check_header(header: &NpyHeader, grid: &GridShape) -> Result<()> {
    let expected = grid.dtype();
    if header.descr != expected {
        let descr = &header.descr;
        let why = if descr.starts_with('>') {
            " (big-endian: only little-endian files are read)".to_string()
        } else if descr.starts_with('|') {
            " ('|' gives no byte order: only little-endian files are read)".to_string()
        } else if expected == "<i2" && descr == "<f4" {
            " (float heights are for --solver dispersive, wave or spring)".to_string()
        } else if expected == "<f4" && descr == "<i2" {
            " (integer heights are for --solver classic)".to_string()
        } else {
            String::new()
        };
        bail!(
            "dtype '{descr}', expected '{expected}' for the {} solver{why}; in NumPy: \
             numpy.save(path, field.astype('{expected}'))",
            grid.solver.name()
        );
    }
    if header.fortran_order {
        bail!(
            "stored in Fortran order (column by column); expected C order: in NumPy, \
             numpy.save(path, numpy.ascontiguousarray(field))"
        );
    }
    let shape = format_shape(&header.shape);
    let [rows, columns] = header.shape[..] else {
        bail!(
            "shape {shape} has {} dimensions, expected 2: (rows, columns) = ({}, {}) for {}",
            header.shape.len(),
            grid.height,
            grid.width,
            grid.origin()
        );
    };
    ripples::limits::check_size(columns, rows)
        .map_err(|error| anyhow!("shape {shape}: {error}"))?;
    if (rows, columns) != (u64::from(grid.height), u64::from(grid.width)) {
        bail!(
            "shape {shape}, expected ({}, {}) for {}",
            grid.height,
            grid.width,
            grid.origin()
        );
    }
    Ok(())
}

/// A shape as Python writes it: `(240, 320)`, `(5,)`, `()`.
fn format_shape(shape: &[u64]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
            format!("({})", dims.join(", "))
        }
    }
}

/// Reads as many bytes as there are, up to `buffer`'s length.
fn read_up_to(reader: &mut impl Read, buffer: &mut [u8]) -> Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(count) => filled += count,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => bail!("cannot read: {error}"),
        }
    }
    Ok(filled)
}

/// Reads `cells` little-endian values of `N` bytes each, a chunk at a time.
fn read_values<T, const N: usize>(
    reader: &mut impl Read,
    cells: u64,
    from_le_bytes: impl Fn([u8; N]) -> T,
) -> Result<Vec<T>> {
    let cells = usize::try_from(cells).map_err(|_| anyhow!("too many values"))?;
    let mut values = Vec::with_capacity(cells);
    let mut chunk = vec![0u8; CHUNK_BYTES / N * N];
    while values.len() < cells {
        let want = ((cells - values.len()) * N).min(chunk.len());
        let got = read_up_to(reader, &mut chunk[..want])?;
        if got < want {
            bail!("truncated: the file ended while its values were read");
        }
        values.extend(
            chunk[..want]
                .chunks_exact(N)
                .map(|bytes| from_le_bytes(bytes.try_into().unwrap_or([0; N]))),
        );
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preamble(version: u8, dict: &str) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&[version, 0]);
        match version {
            1 => bytes.extend_from_slice(&(dict.len() as u16).to_le_bytes()),
            _ => bytes.extend_from_slice(&(dict.len() as u32).to_le_bytes()),
        }
        bytes.extend_from_slice(dict.as_bytes());
        bytes
    }

    #[test]
    fn headers_of_every_version_are_read() {
        let dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (240, 320), }       \n";
        for version in [1, 2, 3] {
            let header = parse_header(&preamble(version, dict)).unwrap();
            assert_eq!(header.major_version, version);
            assert_eq!(header.descr, "<f4");
            assert!(!header.fortran_order);
            assert_eq!(header.shape, vec![240, 320]);
            assert_eq!(
                header.data_offset,
                if version == 1 { 10 } else { 12 } + dict.len()
            );
        }
        // What the command writes itself.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.npy");
        crate::output::stage_npy_i16(&path, 7, 5, &[3; 35], false)
            .unwrap()
            .commit()
            .unwrap();
        let written = std::fs::read(&path).unwrap();
        let header = parse_header(&written).unwrap();
        assert_eq!(
            (header.descr.as_str(), header.shape.clone()),
            ("<i2", vec![5, 7])
        );
        assert_eq!(header.data_offset, written.len() - 35 * 2);
        // Double quotes, no trailing comma, Python 2 longs, one dimension.
        let header = parse_header(&preamble(
            1,
            "{\"descr\":\"<i2\",\"shape\":(3L,),\"fortran_order\":True}",
        ))
        .unwrap();
        assert_eq!(header.shape, vec![3]);
        assert!(header.fortran_order);
    }

    #[test]
    fn broken_headers_are_errors_not_panics() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "not a NumPy .npy file"),
            (b"\x93NUMPY", "not a NumPy .npy file"),
            (b"PK\x03\x04NUMPY\x01\x00", "not a NumPy .npy file"),
            (
                b"\x93NUMPY\x04\x00\x00\x00\x00\x00",
                "unknown .npy format version 4.0",
            ),
            (b"\x93NUMPY\x01\x00\x10\x00{}", "ends inside its header"),
            (
                b"\x93NUMPY\x02\x00\xff\xff\xff\xff",
                "more than the 65536 read",
            ),
        ];
        for (bytes, expected) in cases {
            let message = format!("{:#}", parse_header(bytes).unwrap_err());
            assert!(message.contains(expected), "{message}");
        }
        for (dict, expected) in [
            (
                "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2, 2)}",
                "structured",
            ),
            ("{'descr': '<f4', 'shape': (2, 2)}", "no 'fortran_order'"),
            (
                "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,2)}",
                "twice",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -2)}",
                "shape",
            ),
            (
                "{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 2)}",
                "does not write",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 'y'}",
                "'x'",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2)} junk",
                "after",
            ),
            ("{'descr': '<f4", "unterminated"),
            ("{'shape': (99999999999999999999999, 2)}", "shape"),
        ] {
            let message = format!("{:#}", parse_header(&preamble(1, dict)).unwrap_err());
            assert!(message.contains(expected), "{dict}: {message}");
        }
    }

    #[test]
    fn every_byte_of_a_header_changed_or_cut_gives_a_header_or_an_error() {
        let good = preamble(
            1,
            "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }",
        );
        for at in 0..good.len() {
            parse_header(&good[..at]).unwrap_err();
            for byte in [
                0u8, b' ', b'(', b')', b',', b'\'', b'9', b'[', b'}', 0x80, 0xff,
            ] {
                let mut changed = good.clone();
                changed[at] = byte;
                if let Ok(header) = parse_header(&changed) {
                    assert!(header.data_offset <= changed.len());
                }
            }
        }
    }
}
