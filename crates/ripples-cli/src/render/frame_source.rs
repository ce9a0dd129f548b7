//! Where the frames of a render come from, behind one trait so the render loop streams a scene
//! and a seamless loop alike.

use std::time::{Duration, Instant};

use anyhow::Result;
use ripples::{Heights, SceneRunner};

/// Where the frames of an output come from: a scene played frame by frame, or a seamless
/// loop ([`SeamlessLoop`](super::seamless_loop::SeamlessLoop)) that cross-fades its end into
/// its start.
pub trait FrameSource {
    /// Whether every frame was made.
    fn is_finished(&self) -> bool;
    /// Simulates the next frame and renders it over `image` into `frame` (RGBA, the pool's
    /// size); returns the time spent simulating and rendering.
    fn next_frame(&mut self, image: &[u8], frame: &mut [u8]) -> Result<(Duration, Duration)>;
    /// The heights the last frame shows (what `--heights-out` writes), and the grid's width
    /// and height.
    fn shown_heights(&self) -> (Heights<'_>, usize, usize);
}

impl FrameSource for SceneRunner {
    fn is_finished(&self) -> bool {
        SceneRunner::is_finished(self)
    }

    fn next_frame(&mut self, image: &[u8], frame: &mut [u8]) -> Result<(Duration, Duration)> {
        let started = Instant::now();
        self.advance();
        let stepped = Instant::now();
        self.render(image, frame)?;
        Ok((stepped - started, stepped.elapsed()))
    }

    fn shown_heights(&self) -> (Heights<'_>, usize, usize) {
        let solver = self.pool().solver();
        (
            solver.heights(),
            solver.width() as usize,
            solver.height() as usize,
        )
    }
}
