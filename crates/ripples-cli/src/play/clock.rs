//! The window's side of the simulation's clock: the core's [`ripples::FixedStep`] (a fixed
//! time step whatever the frame rate, a backlog capped at [`MAX_STEPS_PER_FRAME`], steps a
//! quarter step early to absorb jitter; the same rule as the page's) fed with `Instant`s.
//!
//! The core counts time in seconds from any origin, as plain numbers so that it runs in
//! WebAssembly; this adapter keeps the window's origin and converts on the way in and out, so
//! the event loop can sleep until the instant the next step falls due.

use std::time::{Duration, Instant};

use ripples::FixedStep;
pub use ripples::MAX_STEPS_PER_FRAME;

/// A schedule of steps at a fixed rate, in the window's `Instant`s.
#[derive(Debug, Clone)]
pub struct WindowClock {
    steps: FixedStep,
    /// Time 0 of `steps`.
    origin: Instant,
}

impl WindowClock {
    /// Steps at `rate` per second (finite and positive, checked by the caller), the first one
    /// due at `now`.
    pub fn new(rate: f64, now: Instant) -> Self {
        let mut steps = FixedStep::new(rate);
        steps.start(0.0);
        Self { steps, origin: now }
    }

    fn seconds(&self, at: Instant) -> f64 {
        at.saturating_duration_since(self.origin).as_secs_f64()
    }

    /// How many steps to run at `now`, and moves the schedule past them (see
    /// [`FixedStep::due`]).
    pub fn due(&mut self, now: Instant) -> u32 {
        let now = self.seconds(now);
        self.steps.due(now)
    }

    /// When a frame would next run a step, rounded up to the next microsecond so that waking
    /// then finds it due.
    pub fn next_due(&self) -> Instant {
        let seconds = self.steps.next_due().unwrap_or(0.0).max(0.0);
        self.origin + Duration::from_secs_f64(seconds) + Duration::from_micros(1)
    }

    /// Starts the schedule again at `now` (after a pause: the paused time is not owed).
    pub fn restart(&mut self, now: Instant) {
        let now = self.seconds(now);
        self.steps.start(now);
    }

    /// Steps dropped so far because frames came too late.
    pub fn dropped(&self) -> u64 {
        self.steps.dropped()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(milliseconds: u64) -> Duration {
        Duration::from_millis(milliseconds)
    }

    #[test]
    fn instants_go_through_the_core_schedule_and_back() {
        let start = Instant::now();
        let mut clock = WindowClock::new(60.0, start);
        assert_eq!(clock.due(start), 1);
        assert_eq!(clock.due(start + ms(10)), 0);
        // Waking at the instant it names runs the next step (taken up to a quarter step early).
        let wake = clock.next_due();
        assert!(
            wake > start + ms(12) && wake < start + ms(13),
            "{:?}",
            wake - start
        );
        assert_eq!(clock.due(wake), 1);
        // A one-second stall runs 4 and drops the rest.
        let late = start + ms(1060);
        assert_eq!(clock.due(late), MAX_STEPS_PER_FRAME);
        assert!(clock.dropped() > 50);
        assert!(clock.next_due() > late && clock.next_due() <= late + ms(17));
    }

    #[test]
    fn a_restart_does_not_owe_the_paused_time() {
        let start = Instant::now();
        let mut clock = WindowClock::new(60.0, start);
        assert_eq!(clock.due(start), 1);
        let resumed = start + Duration::from_secs(30);
        clock.restart(resumed);
        assert_eq!(clock.due(resumed), 1);
        assert_eq!(clock.due(resumed + ms(5)), 0);
        assert_eq!(clock.dropped(), 0);
    }
}
