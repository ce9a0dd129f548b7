//! A swipe at a cost bounded by its length and the pool, not by its length times its radius².
//!
//! A swipe presses a stone at every cell of its path ([`stamp_polyline`]). Each stone sets the
//! cells of its disc to a value that depends only on the distance from its centre (a constant
//! for the classic and spring solvers, a raised cosine for the wave and dispersive ones), and
//! where discs overlap the deepest wins (or, for a constant, any). So what a whole swipe does
//! to a cell depends only on its distance to the nearest cell of the path: stamping stone after
//! stone gives exactly what one pass over the cells near the path gives with that distance.
//!
//! Stamping costs the path's length times the radius²: a swipe of radius 4096 across a 2048x2048
//! pool pressed 4 million cells for each of its thousands of path cells, minutes per frame. The
//! nearest distance for every cell at once is an exact Euclidean distance transform (the
//! lower envelope of parabolas, Felzenszwalb and Huttenlocher, in whole numbers so every
//! distance is exact): one pass down the columns that hold path cells, one along the rows, a
//! cost of about the cells near the path plus the path's columns per row. [`nearest_squared_distances`]
//! runs it for a radius of [`SWEEP_RADIUS`] or more; smaller stones are stamped, which costs less
//! and allocates nothing. Either way the water is bit for bit the same (a test compares them).

use crate::disturbances::sources::{MAX_USEFUL_RADIUS, Reach, stamp_polyline};

/// Presses a swipe along `points` into a solver's `water`, the way every solver does: a stone
/// at each cell of the path ([`stamp_polyline`]) while stones are small, one sweep over the
/// path's region from [`SWEEP_RADIUS`] on (the same water either way, see the module doc).
/// `stone(water, x, y)` presses one stone of `radius`; `sweep(water, cells, reach)` presses
/// the whole path at once, `reach` being `radius` capped at what any grid can use.
pub(crate) fn press_path<W: ?Sized>(
    water: &mut W,
    points: impl IntoIterator<Item = [i32; 2]>,
    (width, height): (usize, usize),
    radius: u32,
    mut stone: impl FnMut(&mut W, i32, i32),
    sweep: impl FnOnce(&mut W, &[[i32; 2]], i64),
) {
    let reach = i64::from(radius).min(MAX_USEFUL_RADIUS);
    if reach < SWEEP_RADIUS {
        stamp_polyline(points, Reach::stones(width, height, radius), |x, y| {
            stone(water, x, y)
        });
    } else {
        let cells = path_cells(points, width, height, radius);
        sweep(water, &cells, reach);
    }
}

/// The cells of the path a swipe presses a stone at, in order (see [`stamp_polyline`]).
pub(crate) fn path_cells(
    points: impl IntoIterator<Item = [i32; 2]>,
    width: usize,
    height: usize,
    radius: u32,
) -> Vec<[i32; 2]> {
    let mut cells = Vec::new();
    stamp_polyline(points, Reach::stones(width, height, radius), |x, y| {
        cells.push([x, y]);
    });
    cells
}

/// The interior cells a stone of `radius` at any of `cells` can reach, as half-open ranges
/// of columns and rows, or `None` when none.
fn region(
    cells: &[[i32; 2]],
    width: usize,
    height: usize,
    radius: i64,
) -> Option<(std::ops::Range<i64>, std::ops::Range<i64>)> {
    if width < 3 || height < 3 || radius <= 0 || cells.is_empty() {
        return None;
    }
    let (mut x_min, mut x_max, mut y_min, mut y_max) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
    for &[x, y] in cells {
        let (x, y) = (i64::from(x), i64::from(y));
        (x_min, x_max, y_min, y_max) = (x_min.min(x), x_max.max(x), y_min.min(y), y_max.max(y));
    }
    let columns = (x_min - radius + 1).max(1)..(x_max + radius).min(width as i64 - 1);
    let rows = (y_min - radius + 1).max(1)..(y_max + radius).min(height as i64 - 1);
    (!columns.is_empty() && !rows.is_empty()).then_some((columns, rows))
}

/// The smallest radius whose swipe goes through the distance transform. Stamping costs each
/// path cell its stone's (2 radius)² square, the transform about four operations per cell
/// within the radius of the path (its region) plus one per path column per row: for a path of
/// `L` cells, about `4 r² L` against `8 r (L + 2 r)`. From this radius on the transform costs
/// less for any path longer than a few cells, and at most a few times more for a single cell;
/// below it stamping allocates nothing, so a frame loop of ordinary swipes stays free of
/// allocation (the transform collects the path's cells first).
pub(crate) const SWEEP_RADIUS: i64 = 16;

/// Calls `visit(index, d²)` once for every interior cell of a `width x height` grid closer
/// than `radius` to a cell of `cells` (`d² < radius²`), with the squared distance to the
/// nearest one: exactly the cells the stones at `cells` would touch.
pub(crate) fn nearest_squared_distances(
    cells: &[[i32; 2]],
    width: usize,
    height: usize,
    radius: i64,
    mut visit: impl FnMut(usize, i64),
) {
    let Some((columns, rows)) = region(cells, width, height, radius) else {
        return;
    };
    let radius_squared = radius * radius;
    // The path's columns, and each column's rows, sorted.
    let mut by_column: Vec<[i64; 2]> = cells
        .iter()
        .map(|&[x, y]| [i64::from(x), i64::from(y)])
        .collect();
    by_column.sort_unstable();
    by_column.dedup();
    let mut path_columns: Vec<(i64, &[[i64; 2]])> = Vec::new();
    for group in by_column.chunk_by(|a, b| a[0] == b[0]) {
        path_columns.push((group[0][0], group));
    }
    // Row by row: for each path column the squared vertical distance to its nearest path
    // cell (each column's rows walked once, top to bottom, over the whole region), then the
    // lower envelope of the parabolas (x - c)² + vertical(c) along the row.
    let mut next_in_column = vec![0usize; path_columns.len()];
    let mut vertical = vec![0i64; path_columns.len()];
    let mut hull: Vec<usize> = Vec::with_capacity(path_columns.len());
    // Where each parabola of the hull starts to be the lowest, as a fraction (numerator,
    // denominator > 0); the first starts at minus infinity.
    let mut starts: Vec<(i128, i128)> = Vec::with_capacity(path_columns.len());
    for y in rows {
        for (k, (_, group)) in path_columns.iter().enumerate() {
            let next = &mut next_in_column[k];
            // `group` is sorted by row: move to the first path cell at or below `y`.
            while *next < group.len() && group[*next][1] < y {
                *next += 1;
            }
            let below = group.get(*next).map(|cell| cell[1] - y);
            let above = next.checked_sub(1).map(|at| y - group[at][1]);
            let nearest = match (above, below) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) => a,
                (None, Some(b)) => b,
                (None, None) => unreachable!("a path column holds a cell"),
            };
            vertical[k] = nearest * nearest;
        }
        let height_of = |k: usize| vertical[k];
        hull.clear();
        starts.clear();
        for k in 0..path_columns.len() {
            let (q, f_q) = (i128::from(path_columns[k].0), i128::from(height_of(k)));
            loop {
                let Some(&top) = hull.last() else {
                    hull.push(k);
                    starts.push((i128::MIN, 1));
                    break;
                };
                let (p, f_p) = (i128::from(path_columns[top].0), i128::from(height_of(top)));
                // Where the parabolas of p and q cross: s = ((f_q + q²) - (f_p + p²)) / (2 (q - p)).
                let numerator = (f_q + q * q) - (f_p + p * p);
                let denominator = 2 * (q - p);
                let (start_num, start_den) = *starts.last().expect("one start per hull entry");
                // q hides `top` entirely when they cross at or before where `top` starts.
                if start_num != i128::MIN && numerator * start_den <= start_num * denominator {
                    hull.pop();
                    starts.pop();
                    continue;
                }
                hull.push(k);
                starts.push((numerator, denominator));
                break;
            }
        }
        let row_start = y as usize * width;
        let mut at = 0;
        for x in columns.clone() {
            let x128 = i128::from(x);
            while at + 1 < hull.len() && {
                let (num, den) = starts[at + 1];
                num <= x128 * den
            } {
                at += 1;
            }
            let k = hull[at];
            let dx = x - path_columns[k].0;
            let d_squared = dx * dx + height_of(k);
            if d_squared < radius_squared {
                visit(row_start + x as usize, d_squared);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disturbances::sources::SplitMix64;

    /// The squared distance from each interior cell to its nearest path cell, by brute force,
    /// where below `radius²`.
    fn brute_force(cells: &[[i32; 2]], width: usize, height: usize, radius: i64) -> Vec<i64> {
        let mut out = vec![-1; width * height];
        for y in 1..height as i64 - 1 {
            for x in 1..width as i64 - 1 {
                let nearest = cells
                    .iter()
                    .map(|&[cx, cy]| (x - i64::from(cx)).pow(2) + (y - i64::from(cy)).pow(2))
                    .min()
                    .unwrap();
                if nearest < radius * radius {
                    out[y as usize * width + x as usize] = nearest;
                }
            }
        }
        out
    }

    #[test]
    fn the_transform_finds_every_nearest_distance_exactly() {
        let mut random = SplitMix64::new(31);
        for trial in 0..200 {
            let (width, height) = (
                random.between(3, 40) as usize,
                random.between(3, 40) as usize,
            );
            let radius = random.between(1, 30);
            let points: Vec<[i32; 2]> = (0..random.between(1, 5))
                .map(|_| {
                    [
                        random.between(-20, width as i64 + 20) as i32,
                        random.between(-20, height as i64 + 20) as i32,
                    ]
                })
                .collect();
            let cells = path_cells(points.iter().copied(), width, height, radius as u32);
            if cells.is_empty() {
                continue;
            }
            let mut got = vec![-1; width * height];
            nearest_squared_distances(&cells, width, height, radius, |index, d_squared| {
                assert_eq!(got[index], -1, "trial {trial}: cell {index} visited twice");
                got[index] = d_squared;
            });
            assert_eq!(
                got,
                brute_force(&cells, width, height, radius),
                "trial {trial}: {width}x{height}, radius {radius}, points {points:?}"
            );
        }
    }

    /// The bits of a solver's water: heights, and velocities where it keeps them.
    fn water_bits(solver: &crate::Solver) -> Vec<u32> {
        let mut bits: Vec<u32> = match solver.heights() {
            crate::Heights::I16(heights) => heights.iter().map(|&h| h as u16 as u32).collect(),
            crate::Heights::F32(heights) => heights.iter().map(|h| h.to_bits()).collect(),
        };
        if let Some(velocities) = solver.velocities() {
            bits.extend(velocities.iter().map(|v| v.to_bits()));
        }
        bits
    }

    /// Every solver's swipe through the distance transform leaves the water bit for bit as
    /// a stone pressed at every path cell does, a step later too (the previous heights).
    #[test]
    fn a_swept_path_is_the_stones_along_it_bit_for_bit() {
        use crate::{Obstacles, Solver, SolverKind};
        let mut random = SplitMix64::new(32);
        for kind in [
            SolverKind::Classic,
            SolverKind::Wave,
            SolverKind::Spring,
            SolverKind::Dispersive,
        ] {
            for trial in 0..12 {
                let (width, height) = (random.between(8, 48) as u32, random.between(8, 48) as u32);
                let mut swept = Solver::new(kind, width, height).unwrap();
                // Rough water first, so "deeper wins" is tested against heights of both signs.
                for _ in 0..6 {
                    let (x, y) = (random.below(width) as i32, random.below(height) as i32);
                    let strength = random.between(-300, 300) as f32;
                    swept.drop_stone(x, y, random.between(1, 6) as u32, strength);
                }
                let mut stamped = swept.clone();
                let radius = random.between(SWEEP_RADIUS, 80) as u32;
                let strength = random.between(-400, 400) as f32;
                let points: Vec<[i32; 2]> = (0..random.between(2, 5))
                    .map(|_| {
                        [
                            random.between(-30, i64::from(width) + 30) as i32,
                            random.between(-30, i64::from(height) + 30) as i32,
                        ]
                    })
                    .collect();
                let cells = path_cells(
                    points.iter().copied(),
                    width as usize,
                    height as usize,
                    radius,
                );
                swept.swipe_path(points.iter().copied(), radius, strength);
                for [x, y] in cells {
                    match &mut stamped {
                        // A swept dispersive stone presses its dents without the rims.
                        crate::Solver::Dispersive(solver) => solver.press_dent(
                            x,
                            y,
                            radius,
                            strength * crate::Solver::WAVE_STONE_DEPTH,
                        ),
                        stamped => stamped.drop_stone(x, y, radius, strength),
                    }
                }
                let context = format!(
                    "{kind:?} trial {trial}: {width}x{height}, radius {radius}, strength {strength}, {points:?}"
                );
                assert!(water_bits(&swept) == water_bits(&stamped), "{context}");
                let walls = Obstacles::new(width as usize, height as usize).unwrap();
                swept.step(&walls, None);
                stamped.step(&walls, None);
                assert!(
                    water_bits(&swept) == water_bits(&stamped),
                    "{context}, a step later"
                );
            }
        }
    }
}
