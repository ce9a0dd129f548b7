//! Ctrl-C (SIGINT) and SIGTERM while a long job runs.
//!
//! The default reaction, dying at once, would leave a render's temporary file behind and say
//! nothing. Instead the first signal only raises a flag that the frame loop checks between
//! frames: the loop stops, the unfinished output is dropped (which deletes its temporary file,
//! so the requested name keeps whatever it held before), and the command says what happened and
//! exits with 130, the shell's code for an interrupt. A second signal ends the process at once,
//! for a job stuck where no flag is checked.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, anyhow};

/// The exit code of a command stopped by Ctrl-C or SIGTERM (128 + SIGINT).
pub const EXIT_CODE: u8 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

/// Installs the handler (once per process; later calls return the first call's result).
pub fn install() -> Result<()> {
    INSTALLED
        .get_or_init(|| {
            ctrlc::set_handler(|| {
                if REQUESTED.swap(true, Ordering::SeqCst) {
                    eprintln!("\ninterrupted again: stopping now");
                    std::process::exit(i32::from(EXIT_CODE));
                }
            })
            .map_err(|error| error.to_string())
        })
        .clone()
        .map_err(|error| anyhow!("cannot install the Ctrl-C handler: {error}"))
}

/// Whether Ctrl-C or SIGTERM arrived since the handler was installed.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// The error a job returns when it stopped because of [`requested`].
#[derive(Debug)]
pub struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}
