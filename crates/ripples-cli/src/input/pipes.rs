//! Inputs that are not regular files: named pipes (`<(cat photo.png)` gives the command
//! `/dev/fd/63`, a pipe), character devices and the like.
//!
//! A pipe gives its bytes once, cannot seek, and has no length; yet the command looks at an
//! input more than once (to tell a picture from a clip, then to decode it, which seeks back
//! after the header). So such an input is read whole into memory the first time it is asked
//! for ([`read_whole`]), within [`MAX_INPUT_BYTES`] as standard input is, and every later look
//! gets the same bytes. Opening a named pipe waits for its writer, and reading it for the
//! writer's bytes, inside system calls where no Ctrl-C flag is looked at: both run through
//! [`interrupt::unless_interrupted`], so the first Ctrl-C ends the wait (nothing has been
//! written yet). A video through a pipe cannot be read this way, since ffmpeg reads the clip
//! again for every pass; [`crate::input::video_input`] says so.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::{Result, anyhow};

use crate::input::source_image::MAX_INPUT_BYTES;
use crate::output::interrupt;

/// What each pipe or device read so far gave: its bytes, or why it could not be read.
type ReadSoFar = Vec<(PathBuf, Result<Arc<Vec<u8>>, String>)>;

static READ_SO_FAR: Mutex<ReadSoFar> = Mutex::new(Vec::new());

/// Whether `path` leads (through any links) to something other than a regular file or a
/// directory: a named pipe, a device, a socket.
pub fn is_pipe_or_device(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|metadata| !metadata.is_file() && !metadata.is_dir())
}

/// Every byte of the pipe or device at `path`, read once (waiting for a writer, until Ctrl-C)
/// and kept for later calls. Errors start with `name`: one that cannot be opened or read, or
/// that holds more than [`MAX_INPUT_BYTES`].
pub fn read_whole(path: &Path, name: &str) -> Result<Arc<Vec<u8>>> {
    let mut read_so_far = READ_SO_FAR.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, outcome)) = read_so_far.iter().find(|(read, _)| read == path) {
        return outcome.clone().map_err(|error| anyhow!("{name}: {error}"));
    }
    let owned = path.to_path_buf();
    // Interrupted is not kept: the command is ending.
    let outcome = interrupt::unless_interrupted(move || read_bounded(&owned))?.map(Arc::new);
    read_so_far.push((path.to_path_buf(), outcome.clone()));
    outcome.map_err(|error| anyhow!("{name}: {error}"))
}

/// Reads the whole of `path`, refusing more than [`MAX_INPUT_BYTES`].
fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    let file = File::open(path).map_err(|error| format!("cannot open it: {error}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| format!("cannot read it: {error}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "more than {} MiB, larger than any input within the size limits",
            MAX_INPUT_BYTES >> 20
        ));
    }
    Ok(bytes)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_pipe_is_read_once_and_its_bytes_kept() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut pipe = File::options().write(true).open(fifo).unwrap();
                pipe.write_all(b"the bytes").unwrap();
            })
        };
        assert!(is_pipe_or_device(&fifo));
        assert!(!is_pipe_or_device(dir.path()));
        let first = read_whole(&fifo, "--x 'fifo'").unwrap();
        writer.join().unwrap();
        assert_eq!(&first[..], b"the bytes");
        // No writer now: a second open would wait for ever; the kept bytes come back at once.
        let second = read_whole(&fifo, "--x 'fifo'").unwrap();
        assert_eq!(&second[..], b"the bytes");
    }
}
