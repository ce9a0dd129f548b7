//! Regression tests for the bugs the fuzz targets (`fuzz/`) found, one test per bug, named
//! after it, each replaying the smallest input that showed it through the public API.
//!
//! They live in the ordinary test suite so `cargo test` keeps them fixed without a nightly
//! toolchain or libFuzzer; the README's reliability section lists them with the target that
//! found each.

use ripples::{
    FieldView, Generator, Heights, Look, Pool, Renderer, Scene, SceneRunner, SolverKind, SwipeEvent,
};

#[test]
fn renderer_with_scale_0_is_an_error_not_a_divide_by_zero() {
    // Found by `api_sequence`: `Renderer::render` computed the grid it expected by dividing by
    // the scale before refusing a scale of 0.
    let heights = vec![0i16; 4];
    let field = FieldView {
        heights: Heights::I16(&heights),
        velocities: None,
        width: 2,
        height: 2,
    };
    let src = vec![[9u8, 8, 7, 6]; 4];
    let mut dst = vec![[0u8; 4]; 4];
    let mut renderer = Renderer::new(2, 2);
    for look in [Look::classic(), Look::default()] {
        let error = renderer
            .render(field, 0, &look, &src, &mut dst, 2)
            .expect_err("a scale of 0 covers nothing");
        assert!(error.to_string().contains("scale 0"), "{error}");
        assert_eq!(dst, vec![[0u8; 4]; 4], "nothing is written on an error");
    }
    // The same field at scale 1 renders (flat water shows the source).
    renderer
        .render(field, 1, &Look::classic(), &src, &mut dst, 2)
        .unwrap();
    assert_eq!(dst, src);
}

/// Runs `work` and says how long it took, for the hangs below: the fixed code takes
/// microseconds, the old one tens of seconds, so a bound of seconds cannot be flaky.
fn seconds(work: impl FnOnce()) -> f64 {
    let started = std::time::Instant::now();
    work();
    started.elapsed().as_secs_f64()
}

#[test]
fn a_swipe_between_far_away_points_walks_only_the_cells_near_the_pool() {
    // Found by `api_sequence` (a timeout): a swipe stamps a stone at every cell of the
    // Bresenham line between its points, and the line was walked cell by cell from its first
    // point, so points near the ends of `i32` cost four billion steps. The walk now starts
    // where the line comes near the pool and stops where it leaves, and stamps the same cells.
    for kind in [SolverKind::Classic, SolverKind::Wave, SolverKind::Spring] {
        let mut far = Pool::new(64, 48).unwrap();
        let mut near = Pool::new(64, 48).unwrap();
        far.set_solver(kind).unwrap();
        near.set_solver(kind).unwrap();
        let took = seconds(|| {
            far.swipe(&[[i32::MIN, 20], [i32::MAX, 20]], 3, 100)
                .unwrap()
        });
        assert!(took < 5.0, "{kind:?}: the swipe took {took:.1} s");
        near.swipe(&[[-100, 20], [200, 20]], 3, 100).unwrap();
        assert_eq!(heights(&far), heights(&near), "{kind:?}");
        assert!(
            heights(&far).iter().any(|&h| h != 0.0),
            "{kind:?}: the swipe did nothing"
        );
    }
}

#[test]
fn a_generator_line_between_far_away_points_drives_only_the_pool() {
    // Found with the same fix: a wave generator's line was walked the same way on every step,
    // and the points of a scene file's `[[source]]` are not clipped to the pool, so
    // `x0 = -2000000000` ... `x1 = 2000000000` made `ripples render` hang.
    let mut far = Pool::new(64, 48).unwrap();
    let mut near = Pool::new(64, 48).unwrap();
    far.add_generator(Generator::line(
        [-2_000_000_000, 10],
        [2_000_000_000, 12],
        16.0,
        40.0,
    ))
    .unwrap();
    near.add_generator(Generator::line(
        [-2_000_000_000, 10],
        [2_000_000_000, 12],
        16.0,
        40.0,
    ))
    .unwrap();
    let took = seconds(|| {
        for _ in 0..20 {
            far.step();
        }
    });
    assert!(took < 5.0, "20 steps took {took:.1} s");
    // The line is nearly flat: within the pool it is row 11 (rounding half up from 10 + 0.5).
    near.clear_generators();
    near.add_generator(Generator::line([-1, 11], [64, 11], 16.0, 40.0))
        .unwrap();
    for _ in 0..20 {
        near.step();
    }
    assert_eq!(heights(&far), heights(&near));
    assert!(
        heights(&far).iter().any(|&h| h != 0.0),
        "the generator did nothing"
    );
}

#[test]
fn a_scene_swipe_between_far_away_points_does_not_overflow() {
    // Found by `api_sequence` playing scenes: a swipe drawn over several frames measured its
    // segments with `b - a` in i32, which overflows for points far apart (a panic in debug
    // builds, a wrong path in release). `ripples render` clips swipe points to the pool first;
    // a library caller need not. The differences are now taken in f64, where they are exact.
    let scene = Scene {
        frames: 2,
        swipes: vec![SwipeEvent {
            frame: 0,
            duration: 2,
            points: vec![[i32::MIN, 20], [i32::MAX, 20]],
            radius: 3,
            strength: 50,
        }],
        ..Scene::default()
    };
    let mut runner = SceneRunner::new(scene, 64, 48).unwrap();
    runner.advance();
    runner.advance();
    // Half-way along is x = -0.5, rounded to -1: the first frame draws up to there (outside
    // the pool), the second from there across the whole pool.
    let mut expected = Pool::new(64, 48).unwrap();
    expected.swipe(&[[-100, 20], [-1, 20]], 3, 50).unwrap();
    expected.step();
    expected.swipe(&[[-1, 20], [200, 20]], 3, 50).unwrap();
    expected.step();
    assert_eq!(heights(runner.pool()), heights(&expected));
    assert!(heights(&expected).iter().any(|&h| h != 0.0));
}

/// The heights of a pool's field as `f32`, whatever the solver.
fn heights(pool: &Pool) -> Vec<f32> {
    match pool.solver().heights() {
        Heights::I16(h) => h.iter().map(|&v| f32::from(v)).collect(),
        Heights::F32(h) => h.to_vec(),
    }
}
