//! The command's integration tests, linked as one binary: each file here was a test binary of
//! its own, and linking twenty copies of the command's library and its dependencies took most of
//! the time of a `cargo test` after a change (34 s of relinking here, one binary about 5 s).
//! Each module keeps its own name, so `cargo test -p ripples-cli --test it -- outputs::` runs
//! what `--test outputs` did.
//!
//! `panic_hook.rs` stays a binary of its own beside this one: it installs the process's panic
//! hook, which must not see the other tests' panics. The modules share [`common`] (running the
//! `ripples` binary, which cargo builds for these tests as `CARGO_BIN_EXE_ripples`).

mod common;

mod bench;
mod cli;
mod devices_and_pipes;
mod doc_commands;
mod doc_pictures;
mod docs_options;
mod docs_scene;
mod floats;
mod fuzz_regressions;
mod heights_in;
mod interrupt;
mod natural_look;
mod no_silent_options;
mod outputs;
mod photo;
mod physics_scenes;
mod play_e2e;
mod presence;
mod render_look;
mod video;
