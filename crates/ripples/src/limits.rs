//! The limits on what the library accepts, and the checks that enforce them.
//!
//! Every value a user can give (a size, a radius, a frame rate) has one range, stated here once
//! and checked by the functions here, so the library and every front end refuse the same values
//! with the same words ("radius must be >= 1, got 0"). The checks take wide integers (`i64`,
//! `u64`) so a front end can pass what it parsed before narrowing it, and return the narrowed
//! value. The library's own entry points ([`Pool::drop_stone`](crate::Pool::drop_stone),
//! [`Scene::validate`](crate::Scene::validate), the solvers' setters) call them; a front end
//! calls them to check its options before it builds anything.
//!
//! ```
//! use ripples::limits;
//!
//! assert_eq!(limits::check_radius(6)?, 6);
//! let message = limits::check_radius(0).unwrap_err().to_string();
//! assert_eq!(message, "radius must be >= 1, got 0");
//! assert!(matches!(
//!     limits::check_size(20_000, 10),
//!     Err(ripples::Error::TooLarge { width: 20_000, height: 10 })
//! ));
//! # Ok::<(), ripples::Error>(())
//! ```
//!
//! The defaults live with their types (`DropEvent::DEFAULT_RADIUS`,
//! `WaveSolver::DEFAULT_WAVE_SPEED`, ...). A look's numbers have their ranges and defaults
//! together, one [`Parameter`](crate::look_parameters::Parameter) each, in
//! [`look_parameters`](crate::look_parameters).

use crate::error::{Error, Number};

/// Largest pool or image side, in cells or pixels.
pub const MAX_SIDE: u32 = 16384;
/// Most cells (or pixels) in one pool or image: 8192 x 8192.
pub const MAX_CELLS: u32 = 1 << 26;

/// Largest stone radius, in pixels (or cells, for a solver on its own).
pub const MAX_RADIUS: u32 = 4096;
/// Deepest stone: strengths are `0..=MAX_STRENGTH`.
pub const MAX_STRENGTH: i16 = i16::MAX;
/// Largest simulation scale (pixels per cell along each axis).
pub const MAX_SIM_SCALE: u32 = 16;
/// Largest damping shift of the classic solver (`v -= v >> shift`); the smallest is 1.
pub const MAX_DAMPING_SHIFT: u32 = 15;
/// Largest height above or below rest a f32 solver's field may be given
/// ([`Solver::set_heights`](crate::Solver::set_heights)): ten times the deepest stone of the
/// wave solver (`MAX_STRENGTH` times [`Solver::WAVE_STONE_DEPTH`](crate::Solver::WAVE_STONE_DEPTH),
/// about 108 000), far from where `f32` arithmetic loses its way.
pub const MAX_FLOAT_HEIGHT: f32 = 1.0e6;
/// Most frames one animation may have.
pub const MAX_FRAMES: u32 = 100_000;
/// Highest frame rate.
pub const MAX_FPS: f64 = 1000.0;
/// Most solver steps per frame.
pub const MAX_STEPS_PER_FRAME: u32 = 1000;
/// Largest mean number of raindrops per frame.
pub const MAX_RAIN_RATE: f64 = 10_000.0;
/// Fastest wave speed of the wave solver, in cells per step.
pub const MAX_WAVE_SPEED: f32 = 4.0;
/// Largest wave speed per substep of the wave solver, in cells (the Courant number); the
/// stability limit of its 9-point leapfrog scheme is `sqrt(3/4) ~ 0.866`. Faster waves are taken
/// in several substeps ([`WaveSolver::substeps`](crate::WaveSolver::substeps)).
pub const MAX_COURANT: f32 = 0.75;
/// Largest spread of the spring solver (its stability limit; see
/// [`SpringSolver::set_spread`](crate::SpringSolver::set_spread)).
pub const MAX_SPREAD: f32 = 0.25;
/// Most spreading passes per step of the spring solver.
pub const MAX_SPREAD_PASSES: u32 = 16;
/// Largest stiffness or viscosity of the spring solver.
pub const MAX_SPRING_COEFFICIENT: f32 = 1.0;

/// Checks a pool or image size against [`MAX_SIDE`] and [`MAX_CELLS`], before anything is
/// allocated; returns it as `u32`s.
pub fn check_size(width: u64, height: u64) -> Result<(u32, u32), Error> {
    if width == 0 || height == 0 {
        return Err(Error::EmptySize { width, height });
    }
    if width > u64::from(MAX_SIDE)
        || height > u64::from(MAX_SIDE)
        || width * height > u64::from(MAX_CELLS)
    {
        return Err(Error::TooLarge { width, height });
    }
    Ok((width as u32, height as u32))
}

/// Checks one side of a pool, named `name` in the error: `1..=MAX_SIDE`.
pub fn check_side(name: &str, side: i64) -> Result<u32, Error> {
    check_range(name, side, 1, i64::from(MAX_SIDE)).map(|s| s as u32)
}

/// Checks a stone radius: `1..=MAX_RADIUS` pixels.
pub fn check_radius(radius: i64) -> Result<u32, Error> {
    check_range("radius", radius, 1, i64::from(MAX_RADIUS)).map(|r| r as u32)
}

/// Checks a stone strength: `0..=MAX_STRENGTH`.
pub fn check_strength(strength: i64) -> Result<i16, Error> {
    check_range("strength", strength, 0, i64::from(MAX_STRENGTH)).map(|s| s as i16)
}

/// Checks a frame count: `1..=MAX_FRAMES`.
pub fn check_frames(frames: i64) -> Result<u32, Error> {
    check_range("frames", frames, 1, i64::from(MAX_FRAMES)).map(|f| f as u32)
}

/// Checks a frame rate: finite, `> 0` and `<= MAX_FPS`.
pub fn check_fps(fps: f64) -> Result<f64, Error> {
    if !fps.is_finite() || fps <= 0.0 {
        return Err(Error::not_allowed("fps", fps, "a number > 0"));
    }
    check_range("fps", fps, 0.0, MAX_FPS)
}

/// Checks a damping shift: `1..=MAX_DAMPING_SHIFT`.
pub fn check_damping_shift(shift: i64) -> Result<u32, Error> {
    check_range("damping shift", shift, 1, i64::from(MAX_DAMPING_SHIFT)).map(|s| s as u32)
}

/// Checks a simulation scale: `1..=MAX_SIM_SCALE`.
pub fn check_sim_scale(scale: i64) -> Result<u32, Error> {
    check_range("sim scale", scale, 1, i64::from(MAX_SIM_SCALE)).map(|s| s as u32)
}

/// Checks a number of steps per frame: `1..=MAX_STEPS_PER_FRAME`.
pub fn check_steps_per_frame(steps: i64) -> Result<u32, Error> {
    check_range("steps per frame", steps, 1, i64::from(MAX_STEPS_PER_FRAME)).map(|s| s as u32)
}

/// Checks that `value` is a finite number ([`Error::NotFinite`]) within `min..=max`
/// ([`Error::OutOfRange`]), naming the parameter in the error.
pub(crate) fn check_finite_range<T>(name: &str, value: T, min: T, max: T) -> Result<T, Error>
where
    T: PartialOrd + Into<Number> + Copy,
{
    let number: Number = value.into();
    if !number.as_f64().is_finite() {
        return Err(Error::NotFinite {
            name: name.to_string(),
            value: number,
        });
    }
    check_range(name, value, min, max)
}

/// Checks that `value` lies in `min..=max`, naming the parameter in the error.
pub(crate) fn check_range<T>(name: &str, value: T, min: T, max: T) -> Result<T, Error>
where
    T: PartialOrd + Into<Number> + Copy,
{
    if value < min || value > max {
        Err(Error::OutOfRange {
            name: name.to_string(),
            value: value.into(),
            min: min.into(),
            max: max.into(),
        })
    } else {
        Ok(value)
    }
}
