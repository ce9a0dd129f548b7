//! The command's integration tests, linked as one binary: each file here was a test binary of
//! its own, and linking twenty copies of the command's library and its dependencies took most of
//! the time of a `cargo test` after a change (34 s of relinking here, 7 s for this one and the
//! two beside it).
//! Each module keeps its own name, so `cargo test -p ripples-cli --test it -- outputs::` runs
//! what `--test outputs` did.
//!
//! Two files stay binaries of their own beside this one: `panic_hook.rs` installs the
//! process's panic hook, which must not see the other tests' panics, and `play_e2e.rs` drives a
//! window under Xvfb with checks of what changed on screen after a pause, which renders running
//! beside it in the same binary slowed enough to fail once here. The modules share [`common`]
//! (running the `ripples` binary, which cargo builds for these tests as `CARGO_BIN_EXE_ripples`).

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
mod look_parameters;
mod natural_look;
mod no_silent_options;
mod outputs;
mod photo;
mod physics_scenes;
mod presence;
mod render_look;
mod video;
