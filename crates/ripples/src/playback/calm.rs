//! When calm water stops the frame loop: the rule the window and the page share.
//!
//! Calm water with nothing scheduled needs no steps and no frames; a front end that kept
//! drawing it would spend a core on a still picture. Asking whether the water is calm is a pass
//! over the whole grid ([`crate::Pool::is_calm`]), too dear for every frame, so a running loop
//! asks on its first frame (calm water sleeps at once) and then every
//! [`SleepWhenCalm::check_every`] frames; heights within [`SleepWhenCalm::tolerance`] of rest
//! count as calm. A front end adds its own conditions (no rain, no finger down, no video
//! playing) and then makes the water exactly flat, so the frame shown while it sleeps is the
//! picture as still water shows it.

/// How calm the water must be for the frame loop to sleep, and how often a running loop asks.
///
/// ```
/// use ripples::SleepWhenCalm;
///
/// let rule = SleepWhenCalm::DEFAULT;
/// let mut watch = rule.watch();
/// let asked: Vec<bool> = (0..16).map(|_| watch.check_due()).collect();
/// assert!(asked[0] && asked[15] && asked[1..15].iter().all(|&ask| !ask));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SleepWhenCalm {
    /// Largest height, in the solvers' units, that still counts as calm: heights this small
    /// move no look by a visible amount (the classic look's offsets round them to 0).
    pub tolerance: f32,
    /// A running loop asks on its first frame, then every this many frames.
    pub check_every: u32,
}

impl SleepWhenCalm {
    /// The window's and the page's rule.
    pub const DEFAULT: Self = Self {
        tolerance: 0.25,
        check_every: 15,
    };

    /// A count of frames that says when to ask, starting with the next frame.
    pub fn watch(self) -> CalmWatch {
        CalmWatch {
            rule: self,
            frames: 0,
        }
    }
}

impl Default for SleepWhenCalm {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The frames a running loop has drawn since it started, and so whether this one asks if the
/// water is calm ([`SleepWhenCalm`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CalmWatch {
    rule: SleepWhenCalm,
    frames: u32,
}

impl CalmWatch {
    /// Counts a frame and says whether it asks: the first after a [`restart`](Self::restart),
    /// then every [`SleepWhenCalm::check_every`].
    pub fn check_due(&mut self) -> bool {
        let due = self.frames.is_multiple_of(self.rule.check_every.max(1));
        self.frames = self.frames.wrapping_add(1);
        due
    }

    /// The loop runs again (woken, or played after a pause): its next frame asks.
    pub fn restart(&mut self) {
        self.frames = 0;
    }

    /// The rule it follows.
    pub fn rule(&self) -> SleepWhenCalm {
        self.rule
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_loop_asks_on_its_first_frame_then_every_fifteenth() {
        let mut watch = SleepWhenCalm::DEFAULT.watch();
        let asked: Vec<usize> = (0..46).filter(|_| watch.check_due()).collect();
        assert_eq!(asked, [0, 15, 30, 45]);
        // Woken mid-count: the next frame asks again.
        watch.check_due();
        watch.restart();
        assert!(watch.check_due());
        assert!(!watch.check_due());
    }

    #[test]
    fn the_tolerance_is_below_what_any_look_shows() {
        let rule = SleepWhenCalm::default();
        assert_eq!(rule, SleepWhenCalm::DEFAULT);
        assert!(
            rule.tolerance > 0.0 && rule.tolerance < 0.5,
            "{}",
            rule.tolerance
        );
        // A rule asking every 0 frames asks every frame rather than dividing by zero.
        let mut every = SleepWhenCalm {
            check_every: 0,
            ..rule
        }
        .watch();
        assert!((0..5).all(|_| every.check_due()));
    }
}
