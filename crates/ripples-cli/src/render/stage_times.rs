//! Where a render's time goes, stage by stage: what the render loop and a still both report.

use std::time::Duration;

/// Time spent in each stage of the frame loop, summed over the frames. Simulating and
/// rendering run one after the other on the calling thread; encoding runs beside them on its
/// own thread, so the three add up to more than the wall-clock time when the overlap works.
#[derive(Debug, Clone, Copy, Default)]
pub struct StageTimes {
    /// Waiting for the next frame of a clip (decoded beside the rest, on ffmpeg's side and a
    /// thread of its own; this is only the time the frame loop waited for it).
    pub decode: Duration,
    /// The scene's events and the solver steps.
    pub simulate: Duration,
    /// Rendering the water over the image.
    pub render: Duration,
    /// The sink: writing every frame, and finishing the file.
    pub encode: Duration,
}
