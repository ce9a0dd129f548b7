//! Tests of scenes: validation messages, event placement and the runner's frames.

use std::sync::Arc;

use super::runner::polyline_portion;
use super::*;
use crate::disturbances::float::FloatImage;

#[test]
fn polyline_portions_tile_the_whole_line() {
    let points = [[0, 0], [30, 0], [30, 40]];
    let mut out = Vec::new();
    let mut previous_end = None;
    for part in 0..7 {
        polyline_portion(
            &points,
            part as f64 / 7.0,
            (part + 1) as f64 / 7.0,
            &mut out,
        );
        assert!(out.len() >= 2, "part {part}: {out:?}");
        if let Some(end) = previous_end {
            assert_eq!(out[0], end, "part {part} starts where the last ended");
        }
        previous_end = out.last().copied();
    }
    assert_eq!(previous_end, Some([30, 40]));
    polyline_portion(&points, 0.0, 1.0, &mut out);
    assert_eq!(out, vec![[0, 0], [30, 0], [30, 40]]);
}

#[test]
fn clipping_moves_points_and_warns() {
    let mut scene = Scene {
        drops: vec![
            DropEvent {
                frame: 0,
                x: 500,
                y: -3,
                radius: 6,
                strength: 10,
            },
            DropEvent {
                frame: 0,
                x: 5,
                y: 5,
                radius: 6,
                strength: 10,
            },
        ],
        ..Scene::default()
    };
    let warnings = scene.clip_to_pool(320, 240);
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].contains("(500, -3)") && warnings[0].contains("(319, 0)"),
        "{warnings:?}"
    );
    assert_eq!((scene.drops[0].x, scene.drops[0].y), (319, 0));
    assert_eq!((scene.drops[1].x, scene.drops[1].y), (5, 5));
}

#[test]
fn rescaling_moves_every_event_to_the_same_spot_of_a_larger_picture() {
    let mut scene = Scene {
        drops: vec![DropEvent {
            frame: 3,
            x: 10,
            y: 20,
            radius: 6,
            strength: 90,
        }],
        swipes: vec![SwipeEvent {
            frame: 0,
            duration: 4,
            points: vec![[0, 0], [39, 29]],
            radius: 3,
            strength: 40,
        }],
        sources: vec![SourceEvent {
            x: None,
            y: None,
            x0: Some(5),
            y0: Some(0),
            x1: Some(5),
            y1: Some(29),
            period: 16.0,
            amplitude: 40.0,
            start: 0,
            end: None,
        }],
        rain: Some(RainSpec {
            radius: [1, 4],
            ..RainSpec::default()
        }),
        ..Scene::default()
    };
    // A 40x30 scene drawn twice as large and shifted 10 pixels up (cropped to 80x40).
    scene.rescale([2.0, 2.0], [0.0, -10.0]).unwrap();
    let drop = scene.drops[0];
    assert_eq!(
        (drop.x, drop.y, drop.radius, drop.strength, drop.frame),
        (21, 31, 12, 90, 3)
    );
    // Corner pixels stay corner pixels of the scaled picture.
    assert_eq!(scene.swipes[0].points, vec![[1, -9], [79, 49]]);
    assert_eq!(scene.swipes[0].radius, 6);
    let source = scene.sources[0];
    assert_eq!(
        (source.x0, source.y0, source.x1, source.y1),
        (Some(11), Some(-9), Some(11), Some(49))
    );
    assert_eq!(scene.rain.unwrap().radius, [2, 8]);
    // Stretched: radii by the geometric mean, at least 1.
    scene.rescale([0.01, 0.04], [0.0, 0.0]).unwrap();
    assert_eq!(scene.drops[0].radius, 1);
    assert!(matches!(
        scene.rescale([f64::NAN, 1.0], [0.0, 0.0]),
        Err(Error::SceneScale { scale: [x, 1.0] }) if x.is_nan()
    ));
    assert_eq!(
        scene.rescale([1.0, 0.0], [0.0, 0.0]),
        Err(Error::SceneScale { scale: [1.0, 0.0] })
    );
    assert_eq!(
        scene.rescale([1.0, 1.0], [f64::INFINITY, 0.0]),
        Err(Error::NotFinitePosition {
            name: "scene offset",
            x: f64::INFINITY.into(),
            y: 0.0f64.into(),
        })
    );
}

#[test]
fn validation_names_the_bad_value() {
    let bad_radius = Scene {
        drops: vec![DropEvent {
            frame: 0,
            x: 1,
            y: 1,
            radius: 0,
            strength: 10,
        }],
        ..Scene::default()
    };
    let message = bad_radius.validate().unwrap_err().to_string();
    assert_eq!(message, "drop #1: radius must be >= 1, got 0");
    let bad_rain = Scene {
        rain: Some(RainSpec {
            radius: [5, 2],
            ..RainSpec::default()
        }),
        ..Scene::default()
    };
    let message = bad_rain.validate().unwrap_err().to_string();
    assert_eq!(
        message,
        "rain: rain radius range [5, 2] is reversed: give the smallest first, [2, 5]"
    );
}

#[test]
fn float_validation_names_the_float_and_the_value_and_floats_start_on_time() {
    let float = FloatEvent {
        x: 20.0,
        y: 15.0,
        radius: 4,
        density: 0.5,
        thickness: None,
        start: 2,
    };
    let with = |change: fn(&mut FloatEvent)| {
        let mut second = float.clone();
        change(&mut second);
        Scene {
            width: Some(40),
            height: Some(30),
            floats: vec![float.clone(), second],
            ..Scene::default()
        }
        .validate()
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        with(|f| f.density = 0.0),
        "float #2: float density must be a number from 0.001 up to but not including 1 (water is 1, air about 0.0012), got 0"
    );
    assert_eq!(
        with(|f| f.x = 40.0),
        "float #2: centre (40, 15) is outside the 40x30 pool"
    );
    assert_eq!(
        with(|f| f.radius = 0),
        "float #2: radius must be >= 1, got 0"
    );
    let scene = Scene {
        frames: 4,
        floats: vec![float.clone()],
        ..Scene::default()
    };
    let mut runner = SceneRunner::new(scene, 40, 30).unwrap();
    let image = Arc::new(FloatImage::new(1, 1, vec![255; 4]).unwrap());
    assert_eq!(
        runner.set_float_image(1, Arc::clone(&image)),
        Err(Error::NoSuchItem {
            what: "float",
            number: 2,
            count: 1
        })
    );
    runner.set_float_image(0, image).unwrap();
    runner.advance();
    runner.advance();
    assert_eq!(runner.pool().float_count(), 0, "before its start frame");
    runner.advance();
    assert_eq!(runner.pool().float_count(), 1);
    assert!(runner.pool().floats().all(|f| f.image().is_some()));
}

#[test]
fn body_validation_names_the_body_and_the_value() {
    let body = BodyEvent {
        points: vec![[10.0, 10.0], [50.0, 10.0]],
        speed: 1.0,
        radius: 6,
        strength: 40,
        start: 0,
    };
    let with = |change: fn(&mut BodyEvent)| {
        let mut scene = Scene {
            width: Some(40),
            height: Some(30),
            bodies: vec![body.clone(), body.clone()],
            ..Scene::default()
        };
        change(&mut scene.bodies[1]);
        scene.validate().unwrap_err().to_string()
    };
    assert_eq!(
        with(|_| ()),
        "body #1: point [50, 10] is outside the 40x30 pool"
    );
    let with = |change: fn(&mut BodyEvent)| {
        let mut scene = Scene {
            bodies: vec![body.clone(), body.clone()],
            ..Scene::default()
        };
        change(&mut scene.bodies[1]);
        scene.validate().unwrap_err().to_string()
    };
    assert_eq!(
        with(|b| b.speed = 0.0),
        "body #2: speed must be a finite number > 0, got 0"
    );
    assert_eq!(
        with(|b| b.speed = f32::NAN),
        "body #2: speed must be a finite number > 0, got NaN"
    );
    assert_eq!(
        with(|b| b.radius = 5000),
        "body #2: radius must be <= 4096, got 5000"
    );
    assert_eq!(
        with(|b| b.points.clear()),
        "body #2: points must hold at least one [x, y]"
    );
    assert_eq!(
        with(|b| b.points[0] = [f32::INFINITY, 1.0]),
        "body #2: points must be finite, got [inf, 1]"
    );
}

#[test]
fn rescaling_keeps_a_body_on_its_spot_and_on_time() {
    let mut scene = Scene {
        bodies: vec![BodyEvent {
            points: vec![[10.0, 20.0], [30.0, 20.0]],
            speed: 2.0,
            radius: 4,
            strength: 40,
            start: 3,
        }],
        ..Scene::default()
    };
    scene.rescale([2.0, 2.0], [0.0, -10.0]).unwrap();
    let body = &scene.bodies[0];
    // Pixel centres: 10.5 -> 21 (pixel 20.5), 20.5 -> 31 (pixel 30.5).
    assert_eq!(body.points, vec![[20.5, 30.5], [60.5, 30.5]]);
    assert_eq!((body.speed, body.radius, body.start), (4.0, 8, 3));
    let warnings = scene.clip_to_pool(50, 40);
    assert_eq!(body_points(&scene), vec![[20.5, 30.5], [49.0, 30.5]]);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].starts_with("body #1 point at (60.5, 30.5)"));
}

fn body_points(scene: &Scene) -> Vec<[f32; 2]> {
    scene.bodies[0].points.clone()
}
