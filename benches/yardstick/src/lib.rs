//! The C yardstick: the classic ripple loop compiled from C, and what Ripples' realistic water
//! is timed against.
//!
//! The issue that asked for it sets the bar: "`ripples bench --render natural --solver wave` at
//! 1920x1080 on two threads: step+render at least as fast as the seeds' classic loop compiled
//! from C with `gcc -O3 -march=native` on one thread, timed in the same run". `ripples bench`'s
//! own seed port is plain scalar Rust, far slower than what gcc makes of the loop, so it is no
//! yardstick. This crate keeps the loop in C (`c/seed_classic.c`, the step and the render as the
//! README states them, two `i16` buffers, one thread, written as fast as plain C gets: `restrict`
//! row pointers and the border rows and columns outside the inner loops, so gcc vectorizes both
//! loops; a C loop that tests for the border at every pixel ran 1.6x slower and flattered
//! Ripples by as much), compiles it with gcc at build time
//! (`build.rs`), and its binary times it and Ripples on the same machine in interleaved
//! repetitions.
//!
//! The C loop is a program of its own that this crate runs and talks to through pipes, rather
//! than a library it links: calling C from Rust takes `unsafe`, which Ripples keeps inside the
//! core's kernels. It reads the water and the image on standard input and reports the seconds
//! its frames took (timed inside the program, so starting it costs nothing timed). The same
//! program, in its `check` mode, gives back the water and the frame after some frames, which the
//! tests compare with the library's classic solver and classic look bit for bit: the yardstick
//! is the real contract loop, not something like it.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail, ensure};
use ripples::{ClassicSolver, Heights, Pool, WaterSolver};

/// The water and the image the C loop starts from.
#[derive(Debug, Clone)]
pub struct ClassicState {
    /// Cells per row (= pixels).
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The classic solver's damping shift.
    pub damping_shift: u32,
    /// The water now, row-major.
    pub current: Vec<i16>,
    /// The water one step ago.
    pub previous: Vec<i16>,
    /// The source image, 4 bytes per pixel.
    pub image: Vec<u8>,
}

impl ClassicState {
    /// The state of a classic solver over `image` (4 bytes per pixel, as many pixels as cells).
    pub fn of_solver(solver: &ClassicSolver, image: &[u8]) -> Result<Self> {
        let cells = solver.heights().len();
        ensure!(
            image.len() == cells * 4,
            "the image has {} bytes for {cells} cells",
            image.len()
        );
        Ok(Self {
            width: solver.width(),
            height: solver.height(),
            damping_shift: solver.damping_shift(),
            current: solver.heights().to_vec(),
            previous: solver.previous_heights().to_vec(),
            image: image.to_vec(),
        })
    }

    /// The state of a pool with the classic solver at full resolution.
    pub fn of_pool(pool: &Pool, image: &[u8]) -> Result<Self> {
        match pool.solver().as_classic() {
            Some(classic) if pool.sim_scale() == 1 => Self::of_solver(classic, image),
            _ => bail!("the C loop needs the classic solver at simulation scale 1"),
        }
    }

    /// What the C program reads on standard input.
    fn to_input(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.current.len() * 8);
        for heights in [&self.current, &self.previous] {
            bytes.extend(heights.iter().flat_map(|h| h.to_ne_bytes()));
        }
        bytes.extend_from_slice(&self.image);
        bytes
    }
}

/// The compiled C loop.
#[derive(Debug, Clone)]
pub struct CLoop {
    program: String,
    compiler: String,
}

impl CLoop {
    /// The program the build compiled, or why there is none (no C compiler, or it failed).
    pub fn built() -> Result<Self, String> {
        match (env!("YARDSTICK_C_PROGRAM"), env!("YARDSTICK_C_PROBLEM")) {
            ("", problem) => Err(problem.to_string()),
            (program, _) => Ok(Self {
                program: program.to_string(),
                compiler: env!("YARDSTICK_C_COMPILER").to_string(),
            }),
        }
    }

    /// The compiler and flags it was built with (the compiler's first `--version` line).
    pub fn compiler(&self) -> &str {
        &self.compiler
    }

    /// Runs the program in `mode` on `state` and returns its standard output.
    fn run(&self, mode: &str, state: &ClassicState, frames: u32) -> Result<Vec<u8>> {
        let mut child = Command::new(&self.program)
            .args([
                mode.to_string(),
                state.width.to_string(),
                state.height.to_string(),
                state.damping_shift.to_string(),
                frames.to_string(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start the C loop {}", self.program))?;
        let input = state.to_input();
        let mut stdin = child.stdin.take().context("the C loop's standard input")?;
        // Written on a thread of its own: the program may fill its output pipe while reading.
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let mut output = Vec::new();
        child
            .stdout
            .take()
            .context("the C loop's standard output")?
            .read_to_end(&mut output)?;
        let status = child.wait()?;
        let mut stderr = String::new();
        if let Some(mut pipe) = child.stderr.take() {
            pipe.read_to_string(&mut stderr)?;
        }
        let written = writer
            .join()
            .map_err(|_| anyhow::anyhow!("the thread writing to the C loop panicked"))?;
        ensure!(
            status.success(),
            "the C loop failed ({status}): {}",
            stderr.trim()
        );
        written.context("writing the water and the image to the C loop")?;
        Ok(output)
    }

    /// Seconds the C loop takes for `frames` frames (step and render) from `state`, timed inside
    /// the program after one untimed frame.
    pub fn time(&self, state: &ClassicState, frames: u32) -> Result<f64> {
        let output = String::from_utf8(self.run("time", state, frames)?)?;
        output
            .split_whitespace()
            .next()
            .and_then(|seconds| seconds.parse().ok())
            .with_context(|| format!("the C loop printed no time: '{}'", output.trim()))
    }

    /// The water (`i16` heights) and the frame (4 bytes per pixel) after `frames` frames from
    /// `state` (at least 1).
    pub fn check(&self, state: &ClassicState, frames: u32) -> Result<(Vec<i16>, Vec<u8>)> {
        let output = self.run("check", state, frames)?;
        let cells = state.current.len();
        ensure!(
            output.len() == cells * 6,
            "the C loop wrote {} bytes for {cells} cells",
            output.len()
        );
        let (heights, frame) = output.split_at(cells * 2);
        let heights = heights
            .chunks_exact(2)
            .map(|pair| i16::from_ne_bytes([pair[0], pair[1]]))
            .collect();
        Ok((heights, frame.to_vec()))
    }
}

/// The heights of a classic pool, or an error naming what it has instead.
pub fn classic_heights(pool: &Pool) -> Result<&[i16]> {
    match pool.solver().heights() {
        Heights::I16(heights) => Ok(heights),
        Heights::F32(_) => bail!("the pool's solver is not the classic one"),
    }
}
