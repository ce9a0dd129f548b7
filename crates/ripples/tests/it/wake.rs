//! Measuring a wake's half-angle from a height field, for the tests of moving bodies on every
//! solver (a Mach cone on the wave solver, a Kelvin wake on a dispersive one).
//!
//! Behind a body moving in a straight line the wake's edge is a line on each side of the track;
//! its half-angle is the angle between those lines and the track. The edge is where the waves
//! are tallest across the track: the Mach front of a supersonic source (where the wave
//! equation's field piles up), the cusp line of a Kelvin wake (where its transverse and
//! diverging waves meet). So for each distance `s` behind the body this finds, on each side, the
//! lateral offset `l` of the largest `|height|` (sampled bilinearly on a line across the
//! track), then fits `l = a + b s` by least squares: `atan(b)` is the half-angle. The intercept
//! `a` takes the body's size and the front's thickness, which shift the edge sideways but do not
//! turn it. Shared by the modules of this binary (`crate::wake`).

#![allow(dead_code)]

/// What [`half_angle`] measured.
#[derive(Debug, Clone, Copy)]
pub struct WakeAngle {
    /// The mean of the two sides, in degrees.
    pub degrees: f64,
    /// Each side's angle, in degrees (left and right of the direction of motion).
    pub sides: [f64; 2],
    /// Root-mean-square distance of the edge points from the fitted lines, in cells.
    pub scatter: f64,
}

/// Where to look for the wake.
#[derive(Debug, Clone, Copy)]
pub struct WakeProbe {
    /// The body's centre now, in cells (`x` across the grid, `y` down it).
    pub body: [f64; 2],
    /// Its direction of motion (need not be unit length).
    pub direction: [f64; 2],
    /// Distances behind the body to measure at, in cells: `[first, last]`, one row per cell.
    pub behind: [f64; 2],
    /// Lateral offsets searched on each side, in cells: `[nearest, farthest]` (the nearest
    /// skips the body's own trough along the track).
    pub lateral: [f64; 2],
}

/// The half-angle of the wake in `heights` (row-major, `width x height` cells), as the module
/// documentation describes.
pub fn half_angle(heights: &[f32], width: usize, height: usize, probe: WakeProbe) -> WakeAngle {
    let norm = probe.direction[0].hypot(probe.direction[1]);
    let ahead = [probe.direction[0] / norm, probe.direction[1] / norm];
    let across = [-ahead[1], ahead[0]];
    let sample = |x: f64, y: f64| -> f64 {
        if x < 0.0 || y < 0.0 || x >= (width - 1) as f64 || y >= (height - 1) as f64 {
            return 0.0;
        }
        let (x0, y0) = (x.floor() as usize, y.floor() as usize);
        let (fx, fy) = (x - x0 as f64, y - y0 as f64);
        let at = |i: usize, j: usize| f64::from(heights[j * width + i]);
        let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
        let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
        top * (1.0 - fy) + bottom * fy
    };
    let mut sides = [0.0; 2];
    let mut squared_misfit = 0.0;
    let mut count = 0usize;
    for (side, sign) in [1.0, -1.0].into_iter().enumerate() {
        let mut edge = Vec::new();
        let mut s = probe.behind[0];
        while s <= probe.behind[1] {
            let centre = [probe.body[0] - s * ahead[0], probe.body[1] - s * ahead[1]];
            let mut best = (0.0f64, f64::NAN);
            let mut l = probe.lateral[0];
            while l <= probe.lateral[1] {
                let value = sample(
                    centre[0] + sign * l * across[0],
                    centre[1] + sign * l * across[1],
                )
                .abs();
                if value > best.0 {
                    best = (value, l);
                }
                l += 0.25;
            }
            if best.1.is_finite() {
                edge.push((s, best.1));
            }
            s += 1.0;
        }
        let (slope, intercept) = fit_line(&edge);
        sides[side] = slope.atan().to_degrees();
        for &(s, l) in &edge {
            squared_misfit += (l - intercept - slope * s).powi(2);
            count += 1;
        }
    }
    WakeAngle {
        degrees: 0.5 * (sides[0] + sides[1]),
        sides,
        scatter: (squared_misfit / count.max(1) as f64).sqrt(),
    }
}

/// The least-squares line `y = intercept + slope x` through `(x, y)` points: `(slope, intercept)`.
fn fit_line(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let covariance: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let variance: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let slope = covariance / variance;
    (slope, mean_y - slope * mean_x)
}
