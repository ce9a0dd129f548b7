//! `--frame N` and `--still`: one PNG image of one frame of the animation, instead of the
//! animation.
//!
//! The scene is simulated up to that frame exactly as for the animation (the frame is the one
//! the animation would show as its frame N), but only that frame is rendered. The file is
//! written like every other output, under a temporary name moved into place at the end, and
//! its temporary file is created before the simulation starts, so an unwritable directory is an
//! error before any work.

use std::time::Instant;

use anyhow::Result;
use indicatif::ProgressBar;
use ripples::SceneRunner;

use crate::input::background::{self, Colour};
use crate::output::{FinishedOutput, FrameSink, StillPngSink};

/// Simulates `runner` up to frame `number` (counted from 0), renders that frame over `image`,
/// blends it over `flatten` when given, and writes it into `sink` (opened beforehand, so that
/// its checks come before the work). Returns the time spent simulating, rendering and encoding,
/// and the finished image, for the caller to commit.
pub fn render_still(
    runner: &mut SceneRunner,
    number: u32,
    image: &[u8],
    flatten: Option<Colour>,
    sink: StillPngSink,
    progress: &ProgressBar,
) -> Result<(crate::render::stage_times::StageTimes, FinishedOutput)> {
    let mut sink = Box::new(sink);
    let started = Instant::now();
    while runner.frame() <= number {
        if crate::output::interrupt::requested() {
            return Err(anyhow::Error::new(crate::output::interrupt::Interrupted));
        }
        runner.advance();
        progress.inc(1);
    }
    let simulated = Instant::now();
    let mut frame = vec![0u8; image.len()];
    runner.render(image, &mut frame)?;
    if let Some(background) = flatten {
        background::flatten(&mut frame, background);
    }
    let rendered = Instant::now();
    sink.write_frame(&frame)?;
    let finished = sink.finish()?;
    let stages = crate::render::stage_times::StageTimes {
        simulate: simulated - started,
        render: rendered - simulated,
        encode: rendered.elapsed(),
        ..Default::default()
    };
    Ok((stages, finished))
}
