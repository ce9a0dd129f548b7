//! The events a [`Scene`](super::Scene) schedules by frame: stones, swipes, bodies, floats,
//! rain and wave sources. Each is plain data a scene file fills in (checked field by field while
//! it is read, with `serde`) and that [`Scene::validate`](super::Scene::validate) checks again;
//! the runner turns them into calls on a pool.

#[cfg(feature = "serde")]
use super::de;
use crate::disturbances::body::Body;
use crate::disturbances::float::Float;
use crate::disturbances::sources::{Rain, check_wave_source};
use crate::error::Error;

/// A stone dropped at a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct DropEvent {
    /// Frame at which it falls (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub frame: u32,
    /// Column of the centre, in pixels.
    pub x: i32,
    /// Row of the centre, in pixels.
    pub y: i32,
    /// Radius in pixels, `>= 1` (default [`DropEvent::DEFAULT_RADIUS`], 20).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::drop_radius", deserialize_with = "de::radius")
    )]
    pub radius: u32,
    /// Depth of the dent, `0..=32767` (default 128).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::drop_strength", deserialize_with = "de::strength")
    )]
    pub strength: i16,
}

impl DropEvent {
    /// Default radius of a dropped stone, in pixels: about a fingertip on a screen, whose
    /// rings people notice on any picture (see the natural look's `presence`).
    pub const DEFAULT_RADIUS: u32 = 20;
    /// Default strength of a dropped stone.
    pub const DEFAULT_STRENGTH: i16 = 128;
}

/// A stone dragged along a polyline, drawn progressively over `duration` frames.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct SwipeEvent {
    /// Frame at which the swipe starts (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub frame: u32,
    /// Frames over which it is drawn at constant speed (default 1: all at once; 0 means 1).
    #[cfg_attr(feature = "serde", serde(default = "de::duration"))]
    pub duration: u32,
    /// The polyline, `[x, y]` pixels; at least one point.
    pub points: Vec<[i32; 2]>,
    /// Radius in pixels, `>= 1` (default 3).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::swipe_radius", deserialize_with = "de::radius")
    )]
    pub radius: u32,
    /// Depth of the trail, `0..=32767` (default 40).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::swipe_strength", deserialize_with = "de::strength")
    )]
    pub strength: i16,
}

impl SwipeEvent {
    /// Default radius of a swipe, in pixels.
    pub const DEFAULT_RADIUS: u32 = 3;
    /// Default strength of a swipe.
    pub const DEFAULT_STRENGTH: i16 = 40;
}

/// A body that presses the water as it moves along a polyline at a constant speed (a boat,
/// a duck, a fingertip): see [`crate::Body`]. It enters the water at the first point at frame
/// `start` and leaves it at the last point.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct BodyEvent {
    /// The path, `[x, y]` pixels (fractions allowed), inside the pool; at least one point.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::body_points"))]
    pub points: Vec<[f32; 2]>,
    /// Pixels per frame along the path, finite and `> 0` (default 1).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::body_speed", deserialize_with = "de::speed")
    )]
    pub speed: f32,
    /// Radius in pixels, `1..=4096` (default 6).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::body_radius", deserialize_with = "de::radius")
    )]
    pub radius: u32,
    /// How hard it presses, `0..=32767`, the scale of stones (default 40).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::body_strength", deserialize_with = "de::strength")
    )]
    pub strength: i16,
    /// Frame at which it enters the water (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub start: u32,
}

impl BodyEvent {
    /// Default speed of a body, in pixels per frame.
    pub const DEFAULT_SPEED: f32 = 1.0;
    /// Default radius of a body, in pixels.
    pub const DEFAULT_RADIUS: u32 = 6;
    /// Default strength of a body.
    pub const DEFAULT_STRENGTH: i16 = 40;

    /// The library's body for this event, on a pool stepped `steps_per_frame` times a frame.
    pub fn body(&self, steps_per_frame: u32) -> Result<Body, Error> {
        let steps_per_frame = steps_per_frame.max(1);
        Body::along_path(
            self.points.clone(),
            self.speed / steps_per_frame as f32,
            u64::from(self.start) * u64::from(steps_per_frame),
            self.radius,
            self.strength,
        )
    }

    /// Checks every point lies in a `width x height` pool (pixel `x` covers `x..x + 1`).
    pub(super) fn check_inside(&self, width: u32, height: u32) -> Result<(), Error> {
        let outside = self
            .points
            .iter()
            .find(|[x, y]| !(*x >= 0.0 && *y >= 0.0 && *x < width as f32 && *y < height as f32));
        match outside {
            Some(&[x, y]) => Err(Error::PathPointOutside {
                x,
                y,
                width,
                height,
            }),
            None => Ok(()),
        }
    }
}

/// A floating thing put on the water at frame `start` (a duck, a leaf, a buoy): see
/// [`crate::Float`]. It settles at its floating level there and the water moves it from then on.
/// A picture to draw it with is given to the runner decoded ([`crate::SceneRunner::set_float_image`]);
/// a shaded disc without.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct FloatEvent {
    /// Centre, pixels (fractions allowed), inside the pool.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::coordinate"))]
    pub x: f32,
    /// Centre, pixels (fractions allowed), inside the pool.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::coordinate"))]
    pub y: f32,
    /// Radius in pixels, `1..=4096` (default 8).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::float_radius", deserialize_with = "de::radius")
    )]
    pub radius: u32,
    /// Density relative to water, from 0.001 up to but not including 1 (default 0.5).
    #[cfg_attr(
        feature = "serde",
        serde(default = "de::float_density", deserialize_with = "de::density")
    )]
    pub density: f32,
    /// Thickness in pixels, `0.01..=4096` (default: the radius).
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "de::thickness"))]
    pub thickness: Option<f32>,
    /// Frame at which it is put on the water (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub start: u32,
}

impl FloatEvent {
    /// Default radius of a float, in pixels.
    pub const DEFAULT_RADIUS: u32 = 8;
    /// Default density of a float, relative to water.
    pub const DEFAULT_DENSITY: f32 = 0.5;

    /// The library's float for this event (without its picture).
    pub fn float(&self) -> Result<Float, Error> {
        let float = Float::new(self.x, self.y, self.radius, self.density)?;
        match self.thickness {
            Some(thickness) => float.with_thickness(thickness),
            None => Ok(float),
        }
    }

    /// Checks the centre lies in a `width x height` pool (pixel `x` covers `x..x + 1`).
    pub(super) fn check_inside(&self, width: u32, height: u32) -> Result<(), Error> {
        let (x, y) = (self.x, self.y);
        if x >= 0.0 && y >= 0.0 && x < width as f32 && y < height as f32 {
            Ok(())
        } else {
            Err(Error::CentreOutside {
                x,
                y,
                width,
                height,
            })
        }
    }
}

/// Rain falling between two frames.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct RainSpec {
    /// Mean stones per frame, `0..=10000` (default 1).
    pub rate: f64,
    /// Radius range `[min, max]` in pixels (default `[1, 4]`).
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::rain_radius"))]
    pub radius: [u32; 2],
    /// Strength range `[min, max]` (default `[32, 128]`).
    #[cfg_attr(feature = "serde", serde(deserialize_with = "de::rain_strength"))]
    pub strength: [i16; 2],
    /// First frame with rain (default 0).
    pub start: u32,
    /// Frame at which the rain stops (excluded; default: the end of the animation).
    pub end: Option<u32>,
}

impl Default for RainSpec {
    fn default() -> Self {
        Self {
            rate: 1.0,
            radius: [1, 4],
            strength: [32, 128],
            start: 0,
            end: None,
        }
    }
}

impl RainSpec {
    pub(super) fn generator(&self, seed: u64) -> Result<Rain, Error> {
        Rain::new(seed)
            .with_rate(self.rate)?
            .with_radius(self.radius[0], self.radius[1])?
            .with_strength(self.strength[0], self.strength[1])
    }
}

/// A wave generator scheduled between two frames: a point (`x`, `y`) or a line
/// (`x0`, `y0`, `x1`, `y1`) driven as `amplitude * sin(2 pi t / period)`, `t` in steps.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct SourceEvent {
    /// Point source column.
    #[cfg_attr(feature = "serde", serde(default))]
    pub x: Option<i32>,
    /// Point source row.
    #[cfg_attr(feature = "serde", serde(default))]
    pub y: Option<i32>,
    /// Line source, first end, column.
    #[cfg_attr(feature = "serde", serde(default))]
    pub x0: Option<i32>,
    /// Line source, first end, row.
    #[cfg_attr(feature = "serde", serde(default))]
    pub y0: Option<i32>,
    /// Line source, second end, column.
    #[cfg_attr(feature = "serde", serde(default))]
    pub x1: Option<i32>,
    /// Line source, second end, row.
    #[cfg_attr(feature = "serde", serde(default))]
    pub y1: Option<i32>,
    /// Steps per cycle, `>= 2` (default 16).
    #[cfg_attr(feature = "serde", serde(default = "de::period"))]
    pub period: f32,
    /// Height of the crests, `0..=32767` (default 40).
    #[cfg_attr(feature = "serde", serde(default = "de::amplitude"))]
    pub amplitude: f32,
    /// First frame driven (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub start: u32,
    /// Frame at which it stops (excluded; default: never).
    #[cfg_attr(feature = "serde", serde(default))]
    pub end: Option<u32>,
}

impl SourceEvent {
    /// Default period of a wave generator, in steps.
    pub const DEFAULT_PERIOD: f32 = 16.0;
    /// Default amplitude of a wave generator.
    pub const DEFAULT_AMPLITUDE: f32 = 40.0;

    /// The two ends of the source (equal for a point), or an error saying what is missing.
    pub fn ends(&self) -> Result<([i32; 2], [i32; 2]), Error> {
        match (self.x, self.y, self.x0, self.y0, self.x1, self.y1) {
            (Some(x), Some(y), None, None, None, None) => Ok(([x, y], [x, y])),
            (None, None, Some(x0), Some(y0), Some(x1), Some(y1)) => Ok(([x0, y0], [x1, y1])),
            _ => Err(Error::SourceShape),
        }
    }

    pub(super) fn check(&self) -> Result<(), Error> {
        self.ends()?;
        check_wave_source(
            self.period,
            self.amplitude,
            u64::from(self.start),
            self.end.map(u64::from),
        )
    }
}
