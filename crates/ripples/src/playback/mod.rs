//! The rules a front end that plays the water in real time follows, written once for the
//! desktop window (`ripples play`) and the web page alike: [`FixedStep`], the clock that turns
//! frame times into solver steps at a fixed rate, and [`SleepWhenCalm`], when calm water stops
//! the frame loop.
//!
//! Both are plain values fed with numbers (seconds as `f64`, a count of frames), not readers of
//! a system clock: the core runs in WebAssembly, where `std::time::Instant` does not exist, and
//! tests drive them through any history of frame times. Each front end converts its own time
//! (an `Instant`, a `requestAnimationFrame` timestamp) on the way in and out.

pub(crate) mod calm;
pub(crate) mod clock;
