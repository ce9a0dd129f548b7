//! Carrying water from one grid onto another: the field of a pool that changed size.
//!
//! A page element that resizes (a `100vh` hero whose height follows a phone's URL bar, a window
//! dragged wider) needs a pool of the new size, and the ripples should go on in it rather than
//! vanish. [`resample_field`] maps a field (heights, a previous field, velocities) onto a grid of
//! another size by bilinear interpolation, cell centre to cell centre. `box_scale` says how the
//! two grids' boxes relate: `(1, 1)` for the same box at another resolution (a new pixel ratio:
//! the field is stretched corner to corner), `(2, 1)` for a box twice as wide as before with the
//! same top-left corner (the element grew: the old water stays where it was, the new part is
//! calm). Plain loops over whole rows: it runs once per resize, not per frame, so it lives here
//! rather than among the hot kernels.
//!
//! The target's border cells get 0, as the solvers keep their border at rest.
//! [`resample_field_by`] reads the source through a function, for a field parked in memory of
//! another type while its own is freed (the web pool keeps it in its frame buffer).

/// Where target cell `index` samples the source along one axis: the two source cells and the
/// weight of the second, or `None` beyond the source's box (water that was not there).
fn taps(
    index: usize,
    source_cells_per_target: f64,
    source_len: usize,
) -> Option<(usize, usize, f64)> {
    let at = (index as f64 + 0.5) * source_cells_per_target - 0.5;
    if at < -0.5 || at > source_len as f64 - 0.5 {
        return None;
    }
    let at = at.clamp(0.0, (source_len - 1) as f64);
    let low = at.floor() as usize;
    Some((low, (low + 1).min(source_len - 1), at - low as f64))
}

/// Resamples `source`, a `from.0 x from.1` row-major field, onto `target`, a `to.0 x to.1` one,
/// whose box is `box_scale` times the source's box along x and y, both anchored at the top-left
/// corner (so `(1.0, 1.0)` is the same box). Each target cell takes the bilinear interpolation
/// of the source at its centre, passed through `convert` (rounding and clamping for an integer
/// field); target cells outside the source's box, and the target's border, get `convert(0.0)`.
///
/// ```
/// use ripples::resample_field;
///
/// // A ramp on 8x4 cells, resampled onto 16x8 cells of the same box: still a ramp.
/// let ramp: Vec<f32> = (0..8 * 4).map(|i| (i % 8) as f32).collect();
/// let mut finer = vec![0.0f32; 16 * 8];
/// resample_field(&ramp, (8, 4), &mut finer, (16, 8), (1.0, 1.0), |v| v as f32);
/// assert_eq!(finer[3 * 16 + 5], 2.25); // cell 5's centre is 2.25 source cells from cell 0's
/// ```
///
/// # Panics
///
/// If a size is 0 or a slice's length is not its width times its height.
pub fn resample_field<S, T>(
    source: &[S],
    from: (usize, usize),
    target: &mut [T],
    to: (usize, usize),
    box_scale: (f64, f64),
    convert: impl Fn(f64) -> T,
) where
    S: Copy + Into<f64>,
{
    assert_eq!(
        source.len(),
        from.0 * from.1,
        "resample_field: source length"
    );
    resample_field_by(|i| source[i].into(), from, target, to, box_scale, convert);
}

/// [`resample_field`] for a source that is not a slice of numbers (a field kept as bytes while
/// its memory is reused): `source_at(i)` gives cell `i` of the `from` grid, row-major.
///
/// # Panics
///
/// If a size is 0 or `target`'s length is not its width times its height.
pub fn resample_field_by<T>(
    source_at: impl Fn(usize) -> f64,
    from: (usize, usize),
    target: &mut [T],
    to: (usize, usize),
    box_scale: (f64, f64),
    convert: impl Fn(f64) -> T,
) {
    let ((from_width, from_height), (to_width, to_height)) = (from, to);
    assert!(
        from_width > 0 && from_height > 0 && to_width > 0 && to_height > 0,
        "resample_field: empty grid ({from_width}x{from_height} -> {to_width}x{to_height})"
    );
    assert_eq!(
        target.len(),
        to_width * to_height,
        "resample_field: target length"
    );
    let per_cell = |from: usize, to: usize, scale: f64| from as f64 / to as f64 * scale;
    let step_x = per_cell(from_width, to_width, box_scale.0);
    let step_y = per_cell(from_height, to_height, box_scale.1);
    let columns: Vec<_> = (0..to_width).map(|x| taps(x, step_x, from_width)).collect();
    // The two source rows a target row reads, each read from the source once per change
    // (consecutive target rows mostly share them).
    let mut rows: [(usize, Vec<f64>); 2] = [(usize::MAX, Vec::new()), (usize::MAX, Vec::new())];
    let load = |row: &mut (usize, Vec<f64>), y: usize| {
        if row.0 != y {
            row.1.clear();
            row.1
                .extend((0..from_width).map(|x| source_at(y * from_width + x)));
            row.0 = y;
        }
    };
    for (y, row) in target.chunks_exact_mut(to_width).enumerate() {
        let vertical = taps(y, step_y, from_height).filter(|_| y > 0 && y + 1 < to_height);
        let Some((y0, y1, wy)) = vertical else {
            row.iter_mut().for_each(|cell| *cell = convert(0.0));
            continue;
        };
        // Slot 0 holds row y0 and slot 1 row y1; moving down, the old y1 is often the new y0.
        if rows[1].0 == y0 && rows[0].0 != y0 {
            rows.swap(0, 1);
        }
        load(&mut rows[0], y0);
        load(&mut rows[1], y1);
        let (top, bottom) = (&rows[0].1, &rows[1].1);
        for (x, cell) in row.iter_mut().enumerate() {
            let border = x == 0 || x + 1 == to_width;
            let value = match columns[x] {
                Some((x0, x1, wx)) if !border => {
                    let upper = top[x0] * (1.0 - wx) + top[x1] * wx;
                    let lower = bottom[x0] * (1.0 - wx) + bottom[x1] * wx;
                    upper * (1.0 - wy) + lower * wy
                }
                _ => 0.0,
            };
            *cell = convert(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A smooth bump (a ring's worth of curvature) centred in a box of `width x height` CSS
    /// pixels, sampled at the centres of `cells_x x cells_y` cells covering it.
    fn bump(width: f64, height: f64, cells_x: usize, cells_y: usize) -> Vec<f64> {
        let mut field = Vec::with_capacity(cells_x * cells_y);
        for y in 0..cells_y {
            for x in 0..cells_x {
                let (px, py) = (
                    (x as f64 + 0.5) * width / cells_x as f64,
                    (y as f64 + 0.5) * height / cells_y as f64,
                );
                let (dx, dy) = (px - width / 2.0, py - height / 2.0);
                field.push(100.0 * (-(dx * dx + dy * dy) / 200.0).exp());
            }
        }
        field
    }

    fn worst_error(got: &[f32], want: &[f64], width: usize) -> f64 {
        let height = got.len() / width;
        let mut worst = 0.0f64;
        for y in 1..height - 1 {
            for x in 1..width - 1 {
                let i = y * width + x;
                worst = worst.max((f64::from(got[i]) - want[i]).abs());
            }
        }
        worst
    }

    #[test]
    fn the_same_box_at_another_resolution_keeps_the_shape() {
        // 100x80 CSS pixels at 1 cell per pixel, resampled to 2 and to 0.5 cells per pixel.
        let source = bump(100.0, 80.0, 100, 80);
        for (cells_x, cells_y, tolerance) in [(200, 160, 0.5), (50, 40, 0.5), (137, 61, 0.5)] {
            let mut target = vec![0.0f32; cells_x * cells_y];
            resample_field(
                &source,
                (100, 80),
                &mut target,
                (cells_x, cells_y),
                (1.0, 1.0),
                |v| v as f32,
            );
            let error = worst_error(&target, &bump(100.0, 80.0, cells_x, cells_y), cells_x);
            println!("bump of 100 resampled onto {cells_x}x{cells_y}: worst error {error:.3}");
            assert!(error < tolerance, "{cells_x}x{cells_y}: {error}");
        }
    }

    #[test]
    fn a_larger_box_keeps_the_water_in_place_and_calm_beyond() {
        // The element grew from 60x40 to 90x40 CSS pixels, one cell per pixel: the water stays
        // at the same CSS pixels from the top-left corner, the new third is calm.
        let source = bump(60.0, 40.0, 60, 40);
        let mut target = vec![7.0f32; 90 * 40];
        resample_field(&source, (60, 40), &mut target, (90, 40), (1.5, 1.0), |v| {
            v as f32
        });
        for y in 1..39 {
            for x in 1..59 {
                let (got, want) = (f64::from(target[y * 90 + x]), source[y * 60 + x]);
                assert!((got - want).abs() < 1e-4, "({x}, {y}): {got} vs {want}");
            }
            assert!(
                target[y * 90 + 60..y * 90 + 90].iter().all(|&v| v == 0.0),
                "row {y}"
            );
        }
        // Shrunk to half the width: what was on the right is gone, the left is kept.
        let mut narrower = vec![0.0f32; 30 * 40];
        resample_field(
            &source,
            (60, 40),
            &mut narrower,
            (30, 40),
            (0.5, 1.0),
            |v| v as f32,
        );
        for y in 1..39 {
            for x in 1..29 {
                assert!((f64::from(narrower[y * 30 + x]) - source[y * 60 + x]).abs() < 1e-4);
            }
        }
    }

    #[test]
    fn the_border_is_at_rest_and_integers_round() {
        let source = vec![1000i16; 10 * 10];
        let mut target = vec![5i16; 7 * 9];
        resample_field(&source, (10, 10), &mut target, (7, 9), (1.0, 1.0), |v| {
            v.round() as i16
        });
        for y in 0..9 {
            for x in 0..7 {
                let border = x == 0 || y == 0 || x == 6 || y == 8;
                assert_eq!(
                    target[y * 7 + x],
                    if border { 0 } else { 1000 },
                    "({x}, {y})"
                );
            }
        }
    }

    #[test]
    #[should_panic(expected = "source length")]
    fn a_wrong_length_is_a_bug_in_the_caller() {
        let mut target = vec![0.0f32; 4];
        resample_field(&[0.0f32; 3], (2, 2), &mut target, (2, 2), (1.0, 1.0), |v| {
            v as f32
        });
    }
}
