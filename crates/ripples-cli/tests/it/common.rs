//! What every end-to-end test of the `ripples` binary needs: running it in a directory, with no
//! display (so `ripples` alone renders instead of opening a window), no backtraces and nothing
//! on standard input, and reading what it printed.

// Each test file uses the helpers it needs.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `ripples` with `args` in `dir` and returns what it did.
pub fn ripples(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_BACKTRACE")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .stdin(Stdio::null())
        .output()
        .expect("the ripples binary runs")
}

/// What it printed on stderr.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// What it printed on stdout.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}
