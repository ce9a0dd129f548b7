//! Time-based stepping: the same ripple speed at 30, 60 or 144 frames per second.
//!
//! The solvers advance in fixed steps (the classic one's damping and wave speed are per step),
//! so a page that stepped once per animation frame, as jquery.ripples does, would run its water
//! 2.4 times faster on a 144 Hz screen than on a 60 Hz one. [`StepClock`] turns the
//! `requestAnimationFrame` timestamps into a whole number of steps per frame at a fixed rate
//! (60 per second by default): at 30 Hz two steps a frame, at 144 Hz a step every 2 or 3
//! frames, with the remainder carried so the long-run rate is exact.
//!
//! Two details keep the motion even. Frame timestamps jitter by a millisecond or so around
//! 16.7 ms on a 60 Hz screen, and a plain `floor(elapsed / step)` would then alternate 0 and 2
//! steps; the clock takes a step up to a quarter step early (the carry goes negative and is
//! paid back), so such a screen gets exactly one step per frame. And after a long gap (a hidden
//! tab, a breakpoint) the clock runs at most [`MAX_STEPS_PER_FRAME`] steps and forgets the rest,
//! rather than freezing the page to catch up.

/// Steps per second unless the page asks for another rate.
pub const DEFAULT_STEPS_PER_SECOND: f64 = 60.0;
/// Most steps one frame may run; beyond it the water slows down instead of the page.
pub const MAX_STEPS_PER_FRAME: u32 = 4;
/// How early, in steps, a step may be taken to absorb frame-time jitter.
const EARLY: f64 = 0.25;

/// Turns frame timestamps into solver steps at a fixed rate.
#[derive(Debug, Clone, PartialEq)]
pub struct StepClock {
    steps_per_second: f64,
    step_ms: f64,
    last_ms: Option<f64>,
    carry_ms: f64,
}

impl Default for StepClock {
    fn default() -> Self {
        Self::new(DEFAULT_STEPS_PER_SECOND)
    }
}

impl StepClock {
    /// A clock running `steps_per_second` steps (the caller checks the rate; see
    /// [`crate::options::steps_per_second`]).
    pub fn new(steps_per_second: f64) -> Self {
        Self {
            steps_per_second,
            step_ms: 1000.0 / steps_per_second,
            last_ms: None,
            carry_ms: 0.0,
        }
    }

    /// Changes the rate, keeping the time base.
    pub fn set_steps_per_second(&mut self, steps_per_second: f64) {
        self.steps_per_second = steps_per_second;
        self.step_ms = 1000.0 / steps_per_second;
        self.carry_ms = 0.0;
    }

    /// Steps per second.
    pub fn steps_per_second(&self) -> f64 {
        self.steps_per_second
    }

    /// Forgets the last timestamp: the next [`tick`](Self::tick) starts a new time base (after a
    /// pause, so that playing again does not run the paused time).
    pub fn reset(&mut self) {
        self.last_ms = None;
        self.carry_ms = 0.0;
    }

    /// The steps due at frame time `now_ms` (milliseconds, e.g. a `requestAnimationFrame`
    /// timestamp). The first call after creation or [`reset`](Self::reset) only sets the time
    /// base and returns 0; time that runs backwards or is not finite counts as no time.
    pub fn tick(&mut self, now_ms: f64) -> u32 {
        if !now_ms.is_finite() {
            return 0;
        }
        let Some(last_ms) = self.last_ms.replace(now_ms) else {
            return 0;
        };
        let elapsed = now_ms - last_ms;
        if elapsed <= 0.0 {
            return 0;
        }
        self.carry_ms += elapsed;
        let due = ((self.carry_ms / self.step_ms) + EARLY).floor();
        if due > f64::from(MAX_STEPS_PER_FRAME) {
            self.carry_ms = 0.0;
            return MAX_STEPS_PER_FRAME;
        }
        self.carry_ms -= due * self.step_ms;
        due as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps per frame over `seconds` of frames at `hz`, with timestamps jittered by up to
    /// `jitter_ms` either way (a fixed pseudo-random pattern).
    fn run(hz: f64, seconds: f64, jitter_ms: f64) -> Vec<u32> {
        let mut clock = StepClock::default();
        let frames = (hz * seconds).round() as usize;
        let mut state = 12345u32;
        (0..=frames)
            .map(|frame| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let noise = (f64::from(state >> 16) / 32768.0 - 1.0) * jitter_ms;
                let now =
                    1000.0 + frame as f64 * 1000.0 / hz + if frame == 0 { 0.0 } else { noise };
                clock.tick(now)
            })
            .collect()
    }

    #[test]
    fn the_step_rate_does_not_depend_on_the_frame_rate() {
        for hz in [30.0, 60.0, 75.0, 120.0, 144.0, 240.0] {
            let steps: u32 = run(hz, 10.0, 0.0).iter().sum();
            assert!(
                (599..=601).contains(&steps),
                "{hz} Hz: {steps} steps in 10 s"
            );
        }
    }

    #[test]
    fn a_jittery_60_hz_screen_gets_one_step_every_frame() {
        let steps = run(60.0, 5.0, 1.5);
        assert_eq!(steps[0], 0, "the first frame sets the time base");
        assert!(steps[1..].iter().all(|&s| s == 1), "{steps:?}");
    }

    #[test]
    fn a_30_hz_screen_gets_two_steps_and_144_hz_gets_some_frames_without() {
        assert!(run(30.0, 5.0, 1.0)[1..].iter().all(|&s| s == 2));
        let fast = run(144.0, 5.0, 0.5);
        assert!(fast.iter().all(|&s| s <= 1));
        let stepping = fast.iter().filter(|&&s| s == 1).count();
        assert!((299..=301).contains(&stepping), "{stepping}");
    }

    #[test]
    fn a_long_gap_runs_a_few_steps_and_forgets_the_rest() {
        let mut clock = StepClock::default();
        clock.tick(0.0);
        assert_eq!(clock.tick(5000.0), MAX_STEPS_PER_FRAME);
        assert_eq!(clock.tick(5000.0 + 1000.0 / 60.0), 1);
    }

    #[test]
    fn time_going_backwards_or_nan_steps_nothing() {
        let mut clock = StepClock::default();
        clock.tick(100.0);
        assert_eq!(clock.tick(50.0), 0);
        assert_eq!(clock.tick(f64::NAN), 0);
        assert_eq!(clock.tick(50.0 + 1000.0 / 60.0), 1);
    }

    #[test]
    fn reset_starts_a_new_time_base_and_the_rate_can_change() {
        let mut clock = StepClock::new(120.0);
        clock.tick(0.0);
        assert_eq!(clock.tick(1000.0 / 60.0), 2);
        clock.reset();
        assert_eq!(clock.tick(10_000.0), 0);
        clock.set_steps_per_second(30.0);
        assert_eq!(clock.steps_per_second(), 30.0);
        assert_eq!(clock.tick(10_000.0 + 1000.0 / 30.0), 1);
    }
}
