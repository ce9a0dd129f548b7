//! Stones, swipes, wave sources and walls that would land where no water moves, named before
//! the render starts.
//!
//! The pool takes a stone on land, above a horizon or beyond the waves' reach in perspective,
//! and does nothing with it, as it should (a raindrop on the shore makes no ring). But a stone
//! the user placed there by hand is a mistake the frames cannot show: they come out the
//! photograph, unmoved. So every event of the scene is checked once, on the pool it will run
//! on, and each one that touches no live water gets a warning naming it, where the user put
//! it, and why nothing moves there (land, the letterbox's bars, the sky, the waves' reach).
//! Events are checked where the pool has them (moved with their picture) and named where the
//! user put them, as `late_events` in [`crate::cli::inert_options`] names them.

use ripples::{Pool, Scene};

use crate::input::InputFile;
use crate::input::fit::Rect;

/// What decides where the water is, beside the pool itself: the water mask as fitted to the
/// pool, the part of the pool a letterboxed picture covers, and the horizon in pool rows.
#[derive(Debug, Clone, Copy)]
pub struct WaterMap<'a> {
    /// The pool, whose [`Pool::is_water`] says where water moves.
    pub pool: &'a Pool,
    /// The water mask at the pool's size (bars included as land), if any.
    pub mask: Option<&'a [bool]>,
    /// Where a letterboxed picture lies in the pool; `None` when it fills the pool.
    pub picture: Option<Rect>,
    /// The horizon in pool rows, in perspective.
    pub horizon: Option<f32>,
}

impl WaterMap<'_> {
    /// Why pool pixel `(x, y)` has no moving water, or `None` when it has.
    fn dry(&self, x: i32, y: i32) -> Option<String> {
        let pool = self.pool;
        if pool.is_water(x, y) {
            return None;
        }
        let (width, height) = (pool.width() as i32, pool.height() as i32);
        if x < 0 || y < 0 || x >= width || y >= height {
            return Some("outside the pool".to_string());
        }
        if self
            .picture
            .is_some_and(|picture| !picture.contains(x.into(), y.into()))
        {
            return Some(
                "on the bars around the letterboxed picture (--fit contain), which are \
                 background, not water"
                    .to_string(),
            );
        }
        if self
            .mask
            .is_some_and(|mask| !mask[y as usize * width as usize + x as usize])
        {
            return Some("on land (outside the water mask)".to_string());
        }
        if let Some(horizon) = self.horizon
            && y as f32 <= horizon
        {
            return Some(format!(
                "above the horizon (pool row {horizon:.0}), where there is no water"
            ));
        }
        if let Some(([first_row, _], _)) = pool.plane_reach() {
            return Some(format!(
                "above pool row {first_row:.0}, beyond the waves' reach in perspective (the \
                 water there is drawn calm)"
            ));
        }
        Some("where no water moves".to_string())
    }

    /// Why no pixel of the path through `points` (straight between them) has moving water, or
    /// `None` when one has; `None` too when the whole path lies outside the pool, which
    /// [`super::setup::sources_outside`] and the clipping of stones already say.
    fn dry_path(&self, points: &[[i32; 2]]) -> Option<String> {
        let mut first_reason = None;
        let mut inside = false;
        let (width, height) = (self.pool.width() as i32, self.pool.height() as i32);
        let mut visit = |x: i32, y: i32| -> bool {
            if x < 0 || y < 0 || x >= width || y >= height {
                return false;
            }
            inside = true;
            match self.dry(x, y) {
                None => true,
                Some(reason) => {
                    first_reason.get_or_insert(reason);
                    false
                }
            }
        };
        let wet = match points {
            [] => false,
            [only] => visit(only[0], only[1]),
            _ => points
                .windows(2)
                .any(|pair| walk(pair[0], pair[1]).any(|[x, y]| visit(x, y))),
        };
        if wet || !inside {
            return None;
        }
        first_reason
    }
}

/// The pixels from `from` to `to`, both included, one step of the longer axis at a time.
fn walk(from: [i32; 2], to: [i32; 2]) -> impl Iterator<Item = [i32; 2]> {
    let (dx, dy) = (
        i64::from(to[0]) - i64::from(from[0]),
        i64::from(to[1]) - i64::from(from[1]),
    );
    let steps = dx.abs().max(dy.abs());
    (0..=steps).map(move |step| {
        let along = |start: i32, delta: i64| {
            (i64::from(start) + (delta * step + steps / 2).div_euclid(steps.max(1))) as i32
        };
        [along(from[0], dx), along(from[1], dy)]
    })
}

/// A warning line for every stone, swipe and wave source of `placed` (the scene as the pool
/// runs it, its events moved onto the pool) that touches no moving water on `map`, naming each
/// as `given` (the scene as the user gave it, in the same order) has it.
pub fn events_off_water(map: &WaterMap<'_>, placed: &Scene, given: &Scene) -> Vec<String> {
    let mut warnings = Vec::new();
    for (index, (drop, asked)) in placed.drops.iter().zip(&given.drops).enumerate() {
        if let Some(why) = map.dry(drop.x, drop.y) {
            warnings.push(format!(
                "stone #{} at ({}, {}) falls {why}: it makes no waves",
                index + 1,
                asked.x,
                asked.y
            ));
        }
    }
    for (index, (swipe, asked)) in placed.swipes.iter().zip(&given.swipes).enumerate() {
        if let Some(why) = map.dry_path(&swipe.points) {
            warnings.push(format!(
                "swipe #{} {} lies {why}: it makes no waves",
                index + 1,
                describe_path(&asked.points)
            ));
        }
    }
    for (index, (source, asked)) in placed.sources.iter().zip(&given.sources).enumerate() {
        let (Ok((from, to)), Ok((asked_from, asked_to))) = (source.ends(), asked.ends()) else {
            continue;
        };
        if let Some(why) = map.dry_path(&[from, to]) {
            warnings.push(format!(
                "source #{} {} lies {why}: it moves no water",
                index + 1,
                describe_path(&[asked_from, asked_to])
            ));
        }
    }
    warnings
}

/// `at (x, y)` for one point or a path's two ends, `from (x0, y0) to (x1, y1)` otherwise.
fn describe_path(points: &[[i32; 2]]) -> String {
    match (points.first(), points.last()) {
        (Some(first), Some(last)) if first != last => format!(
            "from ({}, {}) to ({}, {})",
            first[0], first[1], last[0], last[1]
        ),
        (Some(point), _) => format!("at ({}, {})", point[0], point[1]),
        _ => "with no points".to_string(),
    }
}

/// A warning when the walls of `input` (`walls`: one flag per pool pixel) stand on no moving
/// water: a picture with no dark pixel, or walls all on land or beyond the waves' reach.
pub fn walls_off_water(map: &WaterMap<'_>, walls: &[bool], input: &InputFile) -> Option<String> {
    let width = map.pool.width() as usize;
    let mut wall_pixels = walls
        .iter()
        .enumerate()
        .filter(|(_, wall)| **wall)
        .map(|(index, _)| ((index % width) as i32, (index / width) as i32))
        .peekable();
    if wall_pixels.peek().is_none() {
        return Some(format!(
            "{}: no pixel is dark enough to be a wall (luminance below 128): it builds no walls",
            input.label
        ));
    }
    if wall_pixels.any(|(x, y)| map.dry(x, y).is_none()) {
        return None;
    }
    Some(format!(
        "{}: every wall stands where no water moves (on land, on the bars or beyond the waves' \
         reach): they hold back no wave",
        input.label
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_visits_both_ends_and_no_gaps() {
        let path: Vec<_> = walk([0, 0], [4, 2]).collect();
        assert_eq!(path.first(), Some(&[0, 0]));
        assert_eq!(path.last(), Some(&[4, 2]));
        assert_eq!(path.len(), 5);
        for pair in path.windows(2) {
            assert!((pair[1][0] - pair[0][0]).abs() <= 1 && (pair[1][1] - pair[0][1]).abs() <= 1);
        }
        assert_eq!(walk([3, 3], [3, 3]).collect::<Vec<_>>(), [[3, 3]]);
        assert_eq!(walk([2, 5], [2, 1]).count(), 5);
    }

    #[test]
    fn stones_swipes_and_sources_on_land_are_named_where_they_were_given() {
        let (width, height) = (40u32, 30u32);
        let mut pool = Pool::new(width, height).unwrap();
        // Water in the lower half only.
        let mask: Vec<bool> = (0..width * height).map(|i| i / width >= 15).collect();
        pool.set_water(Some(&mask), None).unwrap();
        let scene = |drop: (i32, i32), swipe: Vec<[i32; 2]>, source: &str| Scene {
            drops: vec![crate::cli::args::parse_drop(&format!("{},{}", drop.0, drop.1)).unwrap()],
            swipes: vec![ripples::SwipeEvent {
                points: swipe,
                ..crate::cli::args::parse_swipe("0,0").unwrap()
            }],
            sources: vec![crate::cli::args::parse_source(source).unwrap()],
            ..Scene::default()
        };
        let map = WaterMap {
            pool: &pool,
            mask: Some(&mask),
            picture: None,
            horizon: None,
        };
        let dry = scene((5, 5), vec![[1, 1], [30, 10]], "x0=0,y0=2,x1=39,y1=2");
        let given = scene((50, 50), vec![[2, 2], [60, 20]], "x0=0,y0=4,x1=78,y1=4");
        assert_eq!(
            events_off_water(&map, &dry, &given),
            [
                "stone #1 at (50, 50) falls on land (outside the water mask): it makes no waves",
                "swipe #1 from (2, 2) to (60, 20) lies on land (outside the water mask): it \
                 makes no waves",
                "source #1 from (0, 4) to (78, 4) lies on land (outside the water mask): it \
                 moves no water",
            ]
        );
        // One wet pixel is enough: a swipe that crosses the shore, a stone in the water.
        let wet = scene((5, 20), vec![[1, 1], [1, 29]], "x=3,y=16");
        assert!(events_off_water(&map, &wet, &wet).is_empty());
    }

    #[test]
    fn walls_with_no_dark_pixel_or_none_on_water_are_named() {
        let (width, height) = (40u32, 30u32);
        let mut pool = Pool::new(width, height).unwrap();
        let mask: Vec<bool> = (0..width * height).map(|i| i / width >= 15).collect();
        pool.set_water(Some(&mask), None).unwrap();
        let map = WaterMap {
            pool: &pool,
            mask: Some(&mask),
            picture: None,
            horizon: None,
        };
        let input = InputFile {
            role: "the obstacles image".to_string(),
            label: "--obstacles 'walls.png'".to_string(),
            path: "walls.png".into(),
        };
        let walls = |rows: std::ops::Range<u32>| -> Vec<bool> {
            (0..width * height)
                .map(|i| rows.contains(&(i / width)))
                .collect()
        };
        let none = walls_off_water(&map, &walls(0..0), &input).unwrap();
        assert!(
            none.starts_with("--obstacles 'walls.png': no pixel is dark enough"),
            "{none}"
        );
        let on_land = walls_off_water(&map, &walls(2..5), &input).unwrap();
        assert!(
            on_land.starts_with("--obstacles 'walls.png': every wall stands where no water moves"),
            "{on_land}"
        );
        assert_eq!(walls_off_water(&map, &walls(12..18), &input), None);
    }
}
