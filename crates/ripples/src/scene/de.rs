//! Deserializers that check each value as it is read, so errors carry the value's position (a
//! TOML scene file reports the line of a bad value), and the defaults of fields a scene file may
//! leave out.

use serde::de::{Deserialize, Deserializer, Error as _};

fn checked<'de, D, T, R>(
    deserializer: D,
    check: impl FnOnce(T) -> Result<R, crate::Error>,
) -> Result<R, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let value = T::deserialize(deserializer)?;
    check(value).map_err(D::Error::custom)
}

pub fn frames<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    checked(d, crate::limits::check_frames)
}

pub fn fps<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    checked(d, crate::limits::check_fps)
}

pub fn side<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    checked(d, |side: i64| {
        crate::limits::check_side("size", side).map(Some)
    })
}

pub fn damping_shift<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    checked(d, crate::limits::check_damping_shift)
}

pub fn sim_scale<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    checked(d, crate::limits::check_sim_scale)
}

pub fn steps_per_frame<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    checked(d, crate::limits::check_steps_per_frame)
}

pub fn radius<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    checked(d, crate::limits::check_radius)
}

/// The rain's `radius = [min, max]`, checked as the rain checks it, so a reversed range is
/// reported at its line.
pub fn rain_radius<'de, D: Deserializer<'de>>(d: D) -> Result<[u32; 2], D::Error> {
    checked(d, |[min, max]: [u32; 2]| {
        crate::Rain::new(0)
            .with_radius(min, max)
            .map(|_| [min, max])
    })
}

/// The rain's `strength = [min, max]`, checked as [`rain_radius`].
pub fn rain_strength<'de, D: Deserializer<'de>>(d: D) -> Result<[i16; 2], D::Error> {
    checked(d, |[min, max]: [i16; 2]| {
        crate::Rain::new(0)
            .with_strength(min, max)
            .map(|_| [min, max])
    })
}

pub fn strength<'de, D: Deserializer<'de>>(d: D) -> Result<i16, D::Error> {
    checked(d, crate::limits::check_strength)
}

pub fn speed<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    checked(d, crate::disturbances::body::check_speed)
}

pub fn body_points<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<[f32; 2]>, D::Error> {
    checked(d, |points: Vec<[f32; 2]>| {
        if points.is_empty() {
            return Err(crate::Error::EmptyPath);
        }
        match points
            .iter()
            .find(|[x, y]| !(x.is_finite() && y.is_finite()))
        {
            Some(&[x, y]) => Err(crate::Error::PathPointNotFinite { x, y }),
            None => Ok(points),
        }
    })
}

pub fn coordinate<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    checked(d, |value: f32| {
        if value.is_finite() {
            Ok(value)
        } else {
            Err(crate::Error::not_allowed("coordinate", value, "finite"))
        }
    })
}

pub fn density<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    checked(d, crate::disturbances::float::check_density)
}

pub fn thickness<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
    checked(d, |thickness: f32| {
        crate::disturbances::float::check_thickness(thickness).map(Some)
    })
}

pub fn float_radius() -> u32 {
    super::FloatEvent::DEFAULT_RADIUS
}

pub fn float_density() -> f32 {
    super::FloatEvent::DEFAULT_DENSITY
}

pub fn body_speed() -> f32 {
    super::BodyEvent::DEFAULT_SPEED
}

pub fn body_radius() -> u32 {
    super::BodyEvent::DEFAULT_RADIUS
}

pub fn body_strength() -> i16 {
    super::BodyEvent::DEFAULT_STRENGTH
}

pub fn drop_radius() -> u32 {
    super::DropEvent::DEFAULT_RADIUS
}

pub fn drop_strength() -> i16 {
    super::DropEvent::DEFAULT_STRENGTH
}

pub fn swipe_radius() -> u32 {
    super::SwipeEvent::DEFAULT_RADIUS
}

pub fn swipe_strength() -> i16 {
    super::SwipeEvent::DEFAULT_STRENGTH
}

pub fn duration() -> u32 {
    1
}

pub fn period() -> f32 {
    super::SourceEvent::DEFAULT_PERIOD
}

pub fn amplitude() -> f32 {
    super::SourceEvent::DEFAULT_AMPLITUDE
}
