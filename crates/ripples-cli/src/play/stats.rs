//! Frame statistics: frames per second and where each frame's time goes.
//!
//! A frame has three stages, timed apart because they have different owners: *simulate* (the
//! steps that fell due, with their rain; the library's solver), *render* (the water over the
//! picture, the scaling to the window and the overlay; the library's renderer and this crate)
//! and *present* (waiting for the display to take the previous frame, and handing it this
//! one; softbuffer and the display server). Means hide stalls and medians hide their cost, so
//! both are reported. The frame rate is frames presented per second of wall time; since frames
//! are paced to the simulation rate, the busy time per frame says how much faster it could go.

use std::fmt;
use std::time::{Duration, Instant};

/// Time spent in each stage of one frame.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FrameTimes {
    /// Solver steps and rain.
    pub simulate: Duration,
    /// Rendering, scaling and the overlay.
    pub render: Duration,
    /// Waiting for the display and presenting.
    pub present: Duration,
}

impl FrameTimes {
    /// The three stages together.
    pub fn total(&self) -> Duration {
        self.simulate + self.render + self.present
    }
}

/// Most frames kept for the whole-run summary (about 4.6 hours at 60 frames per second).
const MAX_KEPT: usize = 1 << 20;

/// Frame times over the whole run and over the current second.
#[derive(Debug, Clone)]
pub struct Stats {
    started: Instant,
    frames: Vec<FrameTimes>,
    /// Index in `frames` where the current second began, and when.
    second_start: (usize, Instant),
    /// Frames per second over the last complete second.
    last_fps: Option<f64>,
    steps: u64,
    dropped_frames: u64,
}

/// Figures over a span of frames.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Frames in the span.
    pub frames: usize,
    /// Wall time of the span.
    pub seconds: f64,
    /// Mean time of each stage.
    pub mean: FrameTimes,
    /// Median time of each stage (each stage's own median).
    pub median: FrameTimes,
    /// Median of the frames' total busy time.
    pub median_total: Duration,
}

impl Summary {
    fn of(frames: &[FrameTimes], seconds: f64) -> Self {
        let mean = if frames.is_empty() {
            FrameTimes::default()
        } else {
            let count = frames.len() as u32;
            let sum = |stage: fn(&FrameTimes) -> Duration| -> Duration {
                frames.iter().map(stage).sum::<Duration>() / count
            };
            FrameTimes {
                simulate: sum(|f| f.simulate),
                render: sum(|f| f.render),
                present: sum(|f| f.present),
            }
        };
        let median = |stage: fn(&FrameTimes) -> Duration| -> Duration {
            let mut values: Vec<Duration> = frames.iter().map(stage).collect();
            values.sort_unstable();
            values.get(values.len() / 2).copied().unwrap_or_default()
        };
        Self {
            frames: frames.len(),
            seconds,
            mean,
            median: FrameTimes {
                simulate: median(|f| f.simulate),
                render: median(|f| f.render),
                present: median(|f| f.present),
            },
            median_total: median(FrameTimes::total),
        }
    }

    /// Frames per second of wall time.
    pub fn fps(&self) -> f64 {
        if self.seconds > 0.0 {
            self.frames as f64 / self.seconds
        } else {
            0.0
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let busy = ms(self.mean.total());
        write!(
            f,
            "{:.1} fps; per frame, mean / median: simulate {:.2} / {:.2} ms, render {:.2} / {:.2} \
             ms, present {:.2} / {:.2} ms, total {:.2} / {:.2} ms",
            self.fps(),
            ms(self.mean.simulate),
            ms(self.median.simulate),
            ms(self.mean.render),
            ms(self.median.render),
            ms(self.mean.present),
            ms(self.median.present),
            busy,
            ms(self.median_total),
        )?;
        if busy > 0.0 {
            write!(f, " (busy time for {:.0} fps)", 1000.0 / busy)?;
        }
        Ok(())
    }
}

impl Stats {
    /// Statistics starting at `now`.
    pub fn new(now: Instant) -> Self {
        Self {
            started: now,
            frames: Vec::new(),
            second_start: (0, now),
            last_fps: None,
            steps: 0,
            dropped_frames: 0,
        }
    }

    /// Records a frame that ran `steps` simulation frames and ended at `now`; returns the summary of the
    /// second that just ended when this frame ends one.
    pub fn record(&mut self, times: FrameTimes, steps: u32, now: Instant) -> Option<Summary> {
        self.steps += u64::from(steps);
        if self.frames.len() < MAX_KEPT {
            self.frames.push(times);
        } else {
            self.dropped_frames += 1;
        }
        let (first, since) = self.second_start;
        let elapsed = now.saturating_duration_since(since);
        if elapsed < Duration::from_secs(1) {
            return None;
        }
        let summary = Summary::of(
            &self.frames[first.min(self.frames.len())..],
            elapsed.as_secs_f64(),
        );
        self.last_fps = Some(summary.fps());
        self.second_start = (self.frames.len(), now);
        Some(summary)
    }

    /// Frames per second over the last complete second, once there was one.
    pub fn fps(&self) -> Option<f64> {
        self.last_fps
    }

    /// Simulation frames run so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The whole run up to `now`.
    pub fn summary(&self, now: Instant) -> Summary {
        let seconds = now.saturating_duration_since(self.started).as_secs_f64();
        let mut summary = Summary::of(&self.frames, seconds);
        summary.frames += self.dropped_frames as usize;
        summary
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(milliseconds: u64) -> Duration {
        Duration::from_millis(milliseconds)
    }

    #[test]
    fn a_second_of_frames_gives_its_rate_means_and_medians() {
        let start = Instant::now();
        let mut stats = Stats::new(start);
        let mut reported = None;
        for frame in 1..=60u64 {
            // One slow frame among fast ones: the mean sees it, the median does not.
            let render = if frame == 30 { ms(100) } else { ms(4) };
            let times = FrameTimes {
                simulate: ms(1),
                render,
                present: ms(2),
            };
            let now = start + Duration::from_micros(frame * 1_000_000 / 60);
            if let Some(summary) = stats.record(times, 1, now) {
                reported = Some(summary);
            }
        }
        let summary = reported.expect("a summary after one second");
        assert_eq!(summary.frames, 60);
        assert!((summary.fps() - 60.0).abs() < 0.01, "{}", summary.fps());
        assert_eq!(summary.median.render, ms(4));
        assert_eq!(summary.mean.render, ms(4) + ms(96) / 60);
        assert_eq!(summary.median_total, ms(7));
        assert_eq!(stats.fps(), Some(summary.fps()));
        assert_eq!(stats.steps(), 60);
        let line = summary.to_string();
        assert!(line.starts_with("60.0 fps"), "{line}");
        assert!(line.contains("render 5.60 / 4.00 ms"), "{line}");
    }

    #[test]
    fn no_summary_before_a_second_and_an_empty_run_is_zero() {
        let start = Instant::now();
        let mut stats = Stats::new(start);
        assert!(
            stats
                .record(FrameTimes::default(), 1, start + ms(500))
                .is_none()
        );
        assert_eq!(stats.fps(), None);
        let empty = Stats::new(start).summary(start);
        assert_eq!((empty.frames, empty.fps()), (0, 0.0));
        assert_eq!(empty.mean, FrameTimes::default());
    }
}
