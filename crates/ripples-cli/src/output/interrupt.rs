//! Ctrl-C (SIGINT), SIGTERM and SIGHUP while a long job runs.
//!
//! The default reaction, dying at once, would leave a render's temporary file behind and say
//! nothing. Instead the first signal only raises a flag that the frame loop checks between
//! frames (and the ffmpeg watchdog while a write to ffmpeg is blocked): the loop stops, the
//! unfinished output is dropped (which deletes its temporary file, so the requested name keeps
//! whatever it held before), and the command says what happened and exits with 130, the
//! shell's code for an interrupt.
//!
//! A second signal ends the process at once, for a job stuck where no flag is checked, and for
//! `timeout -s INT`, which signals the process and then its whole process group, so that two
//! signals arrive together. Exiting from the handler skips every destructor, so it first runs
//! the [`cleanup`] registry: encoder children are killed and waited
//! for, and temporary files and staging directories are removed. Only SIGKILL, which no
//! process can catch, can leave a temporary file, named `.ripples-<pid>-...` so that a later
//! run removes it.
//!
//! Opening a named pipe waits, inside the system call, for a process at its other end, where no
//! flag is looked at. So such waits run on a thread of their own ([`unless_interrupted`]),
//! and the first signal ends them: nothing has been written by then, so there is nothing to
//! stop cleanly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{OnceLock, mpsc};
use std::time::Duration;

use anyhow::{Result, anyhow};

use crate::output::cleanup;

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
                    stop_now();
                }
            })
            .map_err(|error| error.to_string())
        })
        .clone()
        .map_err(|error| anyhow!("cannot install the Ctrl-C handler: {error}"))
}

/// The second signal: undo what is unfinished, say so, and exit with [`EXIT_CODE`]. Runs on
/// the handler's own thread, not in signal context, so it may lock, kill and remove files.
fn stop_now() -> ! {
    cleanup::remove_all_then(|removed| {
        let mut undone = Vec::new();
        if removed.processes > 0 {
            undone.push("stopped the encoder");
        }
        if removed.paths > 0 {
            undone.push("removed the unfinished output");
        }
        let undone = if undone.is_empty() {
            String::new()
        } else {
            format!(" ({})", undone.join(", "))
        };
        eprintln!("\ninterrupted again: stopping now{undone}");
        // Leaves with the registry locked: nothing can be committed after the cleanup.
        std::process::exit(i32::from(EXIT_CODE))
    })
}

/// Whether Ctrl-C or SIGTERM arrived since the handler was installed.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// How often [`unless_interrupted`] looks for Ctrl-C.
const BLOCKED_POLL: Duration = Duration::from_millis(50);

/// Runs `job`, which may block for as long as another process pleases (opening a named pipe
/// waits for its other end, reading one for its writer), on a thread of its own, and waits for
/// it while looking for Ctrl-C. A signal ends the wait with [`Interrupted`]; the thread, still
/// blocked, ends with the process. The thread is named "blocking open", which is how a test
/// (and `top -H`) sees that the command waits on a pipe.
pub fn unless_interrupted<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    let (sender, receiver) = mpsc::channel();
    std::thread::Builder::new()
        .name("blocking open".into())
        .spawn(move || {
            // The receiver is gone only when the wait was interrupted.
            let _ = sender.send(job());
        })
        .map_err(|error| anyhow!("cannot start a thread: {error}"))?;
    loop {
        if requested() {
            return Err(anyhow::Error::new(Interrupted));
        }
        match receiver.recv_timeout(BLOCKED_POLL) {
            Ok(result) => return Ok(result),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(anyhow!(
                    "internal error: a blocking open ended without a result"
                ));
            }
        }
    }
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
