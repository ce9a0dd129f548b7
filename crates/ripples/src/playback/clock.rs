//! The simulation's clock: a fixed time step, whatever the frame rate.
//!
//! The water must move at the same speed on a fast and a slow machine and at any refresh rate,
//! so the solver never steps "once per frame" (as jquery.ripples does, whose water runs 2.4
//! times faster on a 144 Hz screen than on a 60 Hz one): steps fall due on a fixed schedule
//! ([`DEFAULT_STEPS_PER_SECOND`] unless asked otherwise) and each frame runs the steps that fell
//! due since the last one. A frame that comes late runs several; a frame that comes early runs
//! none.
//!
//! Three details keep the motion even:
//!
//! - **Jitter.** Frame times jitter by a millisecond or so around 16.7 ms on a 60 Hz screen; a
//!   schedule that took a step only once its time had come would then alternate 0 and 2 steps.
//!   A step may be taken up to [`EARLY_STEPS`] of a step early, and the schedule keeps its
//!   phase (the step taken early is not owed again), so such a screen gets exactly one step per
//!   frame and the long-run rate stays exact.
//! - **Stalls.** After a long gap (a hidden tab, a window dragged, a busy machine) the backlog
//!   is not worked off in a burst that would stall the next frames too: at most
//!   [`MAX_STEPS_PER_FRAME`] run and the rest are dropped (counted in
//!   [`FixedStep::dropped`]), so the water slows down rather than the front end freezing. The
//!   schedule keeps its phase, so an event loop can sleep until the instant the next step falls
//!   due ([`FixedStep::next_due`]).
//! - **Pauses.** A clock started again ([`FixedStep::start`] or [`FixedStep::reset`]) does not
//!   owe the time it was stopped; time that runs backwards or is not finite counts as no time.

/// Steps per second unless a front end asks for another rate.
pub const DEFAULT_STEPS_PER_SECOND: f64 = 60.0;

/// Most steps one frame runs; a longer backlog is dropped, so the water slows down instead of
/// the front end.
pub const MAX_STEPS_PER_FRAME: u32 = 4;

/// How early, in steps, a step may be taken to absorb frame-time jitter.
pub const EARLY_STEPS: f64 = 0.25;

/// A schedule of solver steps at a fixed rate, fed with frame times in seconds (from any origin
/// the caller keeps).
///
/// ```
/// use ripples::FixedStep;
///
/// let mut clock = FixedStep::new(60.0);
/// // The first frame sets the time base; frames a 30 Hz screen apart run two steps each.
/// assert_eq!(clock.due(10.0), 0);
/// assert_eq!(clock.due(10.0 + 1.0 / 30.0), 2);
/// assert_eq!(clock.due(10.0 + 2.0 / 30.0), 2);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FixedStep {
    steps_per_second: f64,
    /// Seconds between steps.
    period: f64,
    /// When the next step is scheduled (it may be taken [`EARLY_STEPS`] before); `None` before
    /// the first frame.
    next: Option<f64>,
    /// The latest frame time seen.
    last: f64,
    dropped: u64,
}

impl Default for FixedStep {
    fn default() -> Self {
        Self::new(DEFAULT_STEPS_PER_SECOND)
    }
}

impl FixedStep {
    /// A clock running `steps_per_second` steps (finite and positive, checked by the caller),
    /// not started yet: its first [`due`](Self::due) sets the time base, or
    /// [`start`](Self::start) does.
    pub fn new(steps_per_second: f64) -> Self {
        Self {
            steps_per_second,
            period: 1.0 / steps_per_second,
            next: None,
            last: 0.0,
            dropped: 0,
        }
    }

    /// Steps per second.
    pub fn steps_per_second(&self) -> f64 {
        self.steps_per_second
    }

    /// Seconds between steps.
    pub fn period(&self) -> f64 {
        self.period
    }

    /// Changes the rate, keeping the time base: the next step falls due one new period after
    /// the latest frame.
    pub fn set_steps_per_second(&mut self, steps_per_second: f64) {
        self.steps_per_second = steps_per_second;
        self.period = 1.0 / steps_per_second;
        if self.next.is_some() {
            self.next = Some(self.last + self.period);
        }
    }

    /// Starts the schedule at `now` with a step due at once (a window's first frame, or its
    /// first after a pause: the paused time is not owed).
    pub fn start(&mut self, now: f64) {
        self.next = Some(now);
        self.last = now;
    }

    /// Forgets the time base: the next [`due`](Self::due) starts a new one and runs nothing (a
    /// page's loop starting again after a pause: the paused time is not owed).
    pub fn reset(&mut self) {
        self.next = None;
    }

    /// How many steps to run for a frame at `now` (seconds), and moves the schedule past them.
    /// The first call on a clock not [`start`](Self::start)ed sets the time base and returns 0.
    /// More than [`MAX_STEPS_PER_FRAME`] are dropped (counted in [`dropped`](Self::dropped));
    /// time that runs backwards (the schedule moves back with it) or is not finite runs none.
    pub fn due(&mut self, now: f64) -> u32 {
        if !now.is_finite() {
            return 0;
        }
        let Some(next) = self.next else {
            self.next = Some(now + self.period);
            self.last = now;
            return 0;
        };
        if now < self.last {
            // Time ran backwards: that is no time, so the schedule keeps its distance from now.
            self.next = Some(next - (self.last - now));
            self.last = now;
            return 0;
        }
        self.last = now;
        let behind = (now - next) / self.period + EARLY_STEPS;
        if behind < 0.0 {
            return 0;
        }
        // Every step scheduled up to `now` (and the one early enough to take now).
        let due = behind.floor() + 1.0;
        self.next = Some(next + due * self.period);
        let run = due.min(f64::from(MAX_STEPS_PER_FRAME));
        // Saturating conversions: a backlog of years still counts, capped.
        self.dropped = self.dropped.saturating_add((due - run) as u64);
        run as u32
    }

    /// When (seconds) a frame would next run a step; `None` before the first frame.
    pub fn next_due(&self) -> Option<f64> {
        self.next.map(|next| next - EARLY_STEPS * self.period)
    }

    /// Steps dropped so far because frames came too late.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: f64 = 0.001;

    /// Steps per frame over `seconds` of frames at `hz`, with times jittered by up to
    /// `jitter_ms` either way (a fixed pseudo-random pattern); the first frame sets the base.
    fn run(hz: f64, seconds: f64, jitter_ms: f64) -> Vec<u32> {
        let mut clock = FixedStep::default();
        let frames = (hz * seconds).round() as usize;
        let mut state = 12345u32;
        (0..=frames)
            .map(|frame| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let noise = (f64::from(state >> 16) / 32768.0 - 1.0) * jitter_ms;
                let now = 1.0 + frame as f64 / hz + if frame == 0 { 0.0 } else { noise * MS };
                clock.due(now)
            })
            .collect()
    }

    /// Total steps and drops of frames every `frame_ms` for `seconds`, on a clock started at 0
    /// (a step due at once, as the window starts it).
    fn started_steps_over(frame_ms: f64, seconds: f64) -> (u64, u64) {
        let mut clock = FixedStep::new(60.0);
        clock.start(0.0);
        let frames = (seconds * 1000.0 / frame_ms).round() as u32;
        let mut total = 0;
        for frame in 1..=frames {
            total += u64::from(clock.due(frame_ms * f64::from(frame) * MS));
        }
        (total, clock.dropped())
    }

    #[test]
    fn the_step_rate_does_not_depend_on_the_frame_rate() {
        for hz in [30.0, 50.0, 60.0, 75.0, 120.0, 144.0, 240.0] {
            let steps: u32 = run(hz, 10.0, 0.0).iter().sum();
            assert!(
                (599..=601).contains(&steps),
                "{hz} Hz: {steps} steps in 10 s"
            );
            let (steps, dropped) = started_steps_over(1000.0 / hz, 10.0);
            assert!((600..=601).contains(&steps), "{hz} Hz started: {steps}");
            assert_eq!(dropped, 0);
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
    fn a_slow_machine_slows_the_water_instead_of_freezing() {
        // 10 frames per second would need 6 steps a frame: 4 run, 2 are dropped.
        let (steps, dropped) = started_steps_over(100.0, 10.0);
        assert_eq!(steps, 400);
        assert!((199..=201).contains(&dropped), "{dropped}");
    }

    #[test]
    fn steps_fall_due_on_schedule_and_a_stall_is_capped_keeping_the_phase() {
        let mut clock = FixedStep::new(60.0);
        let period = clock.period();
        clock.start(0.0);
        assert_eq!(clock.due(0.0), 1);
        assert_eq!(clock.due(10.0 * MS), 0);
        // The next step may be taken a quarter step before its time.
        let next = clock.next_due().unwrap();
        assert!((next - 0.75 * period).abs() < 1e-12, "{next}");
        assert_eq!(clock.due(17.0 * MS), 1);
        // At 51 ms: the steps due at 33.3 and 50 ms, not the one at 66.7.
        assert_eq!(clock.due(51.0 * MS), 2);
        assert_eq!(clock.due(60.0 * MS), 0);
        // A one-second stall runs 4 and drops the rest, and the next step is due within one
        // period, on the old phase (a multiple of the period from the start).
        let late = 1060.0 * MS;
        assert_eq!(clock.due(late), MAX_STEPS_PER_FRAME);
        assert!(clock.dropped() > 50);
        let next = clock.next_due().unwrap();
        assert!(next > late && next <= late + period, "{next}");
        let slots = (next + EARLY_STEPS * period) / period;
        assert!((slots - slots.round()).abs() < 1e-6, "{slots}");
    }

    #[test]
    fn a_long_gap_runs_a_few_steps_and_forgets_the_rest() {
        let mut clock = FixedStep::default();
        assert_eq!(clock.due(0.0), 0);
        assert_eq!(clock.due(5.0), MAX_STEPS_PER_FRAME);
        assert_eq!(clock.due(5.0 + 1.0 / 60.0), 1);
    }

    #[test]
    fn a_restart_does_not_owe_the_paused_time() {
        let mut clock = FixedStep::new(60.0);
        clock.start(0.0);
        assert_eq!(clock.due(0.0), 1);
        clock.start(30.0);
        assert_eq!(clock.due(30.0), 1);
        assert_eq!(clock.due(30.005), 0);
        clock.reset();
        assert_eq!(clock.due(100.0), 0, "a reset clock sets a new time base");
        assert_eq!(clock.due(100.0 + 1.0 / 60.0), 1);
        assert_eq!(clock.dropped(), 0);
    }

    #[test]
    fn time_going_backwards_or_nan_steps_nothing() {
        let mut clock = FixedStep::default();
        clock.due(0.1);
        assert_eq!(clock.due(0.05), 0);
        assert_eq!(clock.due(f64::NAN), 0);
        assert_eq!(clock.due(f64::INFINITY), 0);
        assert_eq!(clock.next_due(), Some(0.05 + 0.75 / 60.0));
        assert_eq!(clock.due(0.05 + 1.0 / 60.0), 1);
    }

    #[test]
    fn the_rate_can_change_keeping_the_time_base() {
        let mut clock = FixedStep::new(120.0);
        clock.due(0.0);
        assert_eq!(clock.due(1.0 / 60.0), 2);
        clock.set_steps_per_second(30.0);
        assert_eq!(clock.steps_per_second(), 30.0);
        assert_eq!(clock.due(1.0 / 60.0 + 1.0 / 60.0), 0);
        assert_eq!(clock.due(1.0 / 60.0 + 1.0 / 30.0), 1);
    }
}
