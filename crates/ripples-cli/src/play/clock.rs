//! The simulation's clock: a fixed time step, whatever the frame rate.
//!
//! The water must move at the same speed on a fast and a slow machine and at any refresh rate,
//! so the solver never steps "once per frame": steps fall due on a fixed schedule (60 per
//! second by default) and each frame runs the steps that fell due since the last one. A frame
//! that comes late runs several; a frame that comes early runs none. After a long stall (the
//! window dragged, the machine busy) the backlog is not worked off in a burst that would stall
//! the next frames too: at most [`MAX_STEPS_PER_FRAME`] run and the rest are dropped, so the
//! water slows down rather than the window freezing. The schedule keeps its phase, so the
//! event loop can sleep until the exact instant the next step falls due.
//!
//! The clock is a plain value fed with instants, not a reader of the system clock, so tests
//! drive it through any history of frame times.

use std::time::{Duration, Instant};

/// Most steps one frame runs; a longer backlog is dropped.
pub const MAX_STEPS_PER_FRAME: u32 = 4;

/// A schedule of steps at a fixed rate.
#[derive(Debug, Clone)]
pub struct FixedStep {
    period: Duration,
    next: Instant,
    max_per_frame: u32,
    dropped: u64,
}

impl FixedStep {
    /// Steps at `rate` per second (finite and positive, checked by the caller), the first one
    /// due at `now`.
    pub fn new(rate: f64, max_per_frame: u32, now: Instant) -> Self {
        Self {
            period: Duration::from_secs_f64(1.0 / rate),
            next: now,
            max_per_frame: max_per_frame.max(1),
            dropped: 0,
        }
    }

    /// The time between steps.
    pub fn period(&self) -> Duration {
        self.period
    }

    /// How many steps to run at `now`, and moves the schedule past them. More than the cap
    /// are dropped (counted in [`dropped`](Self::dropped)).
    pub fn due(&mut self, now: Instant) -> u32 {
        if now < self.next {
            return 0;
        }
        let behind = (now - self.next).as_nanos() / self.period.as_nanos().max(1);
        let due = u64::try_from(behind).unwrap_or(u64::MAX).saturating_add(1);
        self.next += self
            .period
            .saturating_mul(u32::try_from(due).unwrap_or(u32::MAX));
        let run = due.min(u64::from(self.max_per_frame));
        self.dropped = self.dropped.saturating_add(due - run);
        run as u32
    }

    /// When the next step falls due.
    pub fn next_due(&self) -> Instant {
        self.next
    }

    /// Starts the schedule again at `now` (after a pause: the paused time is not owed).
    pub fn restart(&mut self, now: Instant) {
        self.next = now;
    }

    /// Steps dropped so far because frames came too late.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(milliseconds: f64) -> Duration {
        Duration::from_secs_f64(milliseconds / 1000.0)
    }

    /// Total steps run by frames every `frame_ms` for `seconds`.
    fn steps_over(frame_ms: f64, seconds: f64) -> (u64, u64) {
        let start = Instant::now();
        let mut clock = FixedStep::new(60.0, MAX_STEPS_PER_FRAME, start);
        let frames = (seconds * 1000.0 / frame_ms).round() as u32;
        let mut total = 0;
        for frame in 1..=frames {
            total += u64::from(clock.due(start + ms(frame_ms * f64::from(frame))));
        }
        (total, clock.dropped())
    }

    #[test]
    fn the_water_moves_at_the_same_speed_at_any_refresh_rate() {
        // 10 seconds at 60 steps per second, whatever the frames do.
        for frame_ms in [
            1000.0 / 240.0,
            1000.0 / 144.0,
            1000.0 / 60.0,
            1000.0 / 30.0,
            50.0,
        ] {
            let (steps, dropped) = steps_over(frame_ms, 10.0);
            assert!(
                (600..=601).contains(&steps),
                "{frame_ms} ms frames: {steps}"
            );
            assert_eq!(dropped, 0);
        }
    }

    #[test]
    fn a_slow_machine_slows_the_water_instead_of_freezing_the_window() {
        // 10 frames per second would need 6 steps a frame: 4 run, 2 are dropped.
        let (steps, dropped) = steps_over(100.0, 10.0);
        assert_eq!(steps, 400);
        assert!((199..=201).contains(&dropped), "{dropped}");
    }

    #[test]
    fn steps_fall_due_on_schedule_and_a_stall_is_capped() {
        let start = Instant::now();
        let mut clock = FixedStep::new(60.0, 4, start);
        assert_eq!(clock.due(start), 1);
        assert_eq!(clock.due(start + ms(10.0)), 0);
        assert_eq!(clock.next_due(), start + clock.period());
        assert_eq!(clock.due(start + ms(17.0)), 1);
        // At 51 ms: the steps due at 33.3 and 50 ms, not the one at 66.7.
        assert_eq!(clock.due(start + ms(51.0)), 2);
        assert_eq!(clock.due(start + ms(60.0)), 0);
        // A one-second stall runs 4 and drops the rest, and the next step is due within one
        // period.
        let late = start + ms(1060.0);
        assert_eq!(clock.due(late), 4);
        assert!(clock.dropped() > 50);
        assert!(clock.next_due() > late && clock.next_due() <= late + clock.period());
    }

    #[test]
    fn a_restart_does_not_owe_the_paused_time() {
        let start = Instant::now();
        let mut clock = FixedStep::new(60.0, 4, start);
        assert_eq!(clock.due(start), 1);
        let resumed = start + Duration::from_secs(30);
        clock.restart(resumed);
        assert_eq!(clock.due(resumed), 1);
        assert_eq!(clock.due(resumed + ms(5.0)), 0);
        assert_eq!(clock.dropped(), 0);
    }
}
