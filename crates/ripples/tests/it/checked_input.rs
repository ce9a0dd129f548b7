//! What the library refuses: every public entry point that takes a value a user chose checks it
//! as the `ripples` command does, answers an error naming the value (in the command's words,
//! from `ripples::limits`), and changes nothing; input of any size or shape is an error or a
//! result, never a panic.

use ripples::{
    ClassicSettings, DropEvent, Generator, Heights, LitSettings, Look, NaturalSettings, Obstacles,
    Pool, Renderer, Scene, Solver, SolverKind, SplitMix64, Sponge, SpringSettings, Stone, limits,
};

/// The heights of the pool's grid as floats, to compare states of any solver.
fn heights(pool: &Pool) -> Vec<f32> {
    match pool.solver().heights() {
        Heights::I16(h) => h.iter().map(|&v| f32::from(v)).collect(),
        Heights::F32(h) => h.to_vec(),
    }
}

fn message(result: Result<(), ripples::Error>) -> String {
    result.expect_err("the value must be refused").to_string()
}

#[test]
fn stones_the_command_refuses_are_refused_in_its_words_and_change_nothing() {
    for kind in [SolverKind::Classic, SolverKind::Wave, SolverKind::Spring] {
        let mut pool = Pool::new(64, 48).unwrap();
        pool.set_solver(kind).unwrap();
        let calm = heights(&pool);
        let radius_0 = message(pool.drop_stone(32, 24, 0, 100));
        assert_eq!(radius_0, "radius must be >= 1, got 0");
        assert_eq!(
            radius_0,
            limits::check_radius(0).unwrap_err().to_string(),
            "the command's words"
        );
        assert_eq!(
            message(pool.drop_stone(32, 24, 4097, 100)),
            "radius must be <= 4096, got 4097"
        );
        assert_eq!(
            message(pool.drop_stone(32, 24, 6, -5)),
            "strength must be >= 0, got -5"
        );
        let stone = Stone {
            x: 32,
            y: 24,
            radius: 0,
            strength: 100,
        };
        assert_eq!(message(pool.drop(stone)), "radius must be >= 1, got 0");
        assert_eq!(
            heights(&pool),
            calm,
            "{kind:?}: a refused stone moved the water"
        );
        // The ends of the ranges are accepted, and do something.
        pool.drop_stone(32, 24, 1, i16::MAX).unwrap();
        pool.drop_stone(32, 24, limits::MAX_RADIUS, 0).unwrap();
        pool.drop_stone(10, 10, 6, 128).unwrap();
        assert_ne!(heights(&pool), calm, "{kind:?}");
    }
}

#[test]
fn swipes_and_walls_are_checked_like_stones() {
    let mut pool = Pool::with_sim_scale(64, 48, 2).unwrap();
    let calm = heights(&pool);
    let line = [[5, 5], [60, 40]];
    assert_eq!(
        message(pool.swipe(&line, 0, 40)),
        "radius must be >= 1, got 0"
    );
    assert_eq!(
        message(pool.swipe(&line, 3, i16::MIN)),
        "strength must be >= 0, got -32768"
    );
    assert_eq!(
        message(pool.swipe(&[], 3, 40)),
        "points must hold at least one [x, y]"
    );
    assert_eq!(heights(&pool), calm);
    pool.swipe(&line, 3, 40).unwrap();
    assert_ne!(heights(&pool), calm);

    assert_eq!(
        message(pool.paint_wall(20, 20, 0, true)),
        "radius must be >= 1, got 0"
    );
    assert_eq!(
        message(pool.paint_wall(20, 20, u32::MAX, true)),
        "radius must be <= 4096, got 4294967295"
    );
    assert!(pool.obstacles().is_empty());
    pool.paint_wall(20, 20, 4, true).unwrap();
    assert!(!pool.obstacles().is_empty());
}

#[test]
fn generators_are_checked_as_a_scene_files_sources_are() {
    let mut pool = Pool::new(40, 30).unwrap();
    let good = Generator::point([20, 15], 16.0, 40.0);
    let cases = [
        (
            Generator {
                period: 1.0,
                ..good.clone()
            },
            "period must be at least 2 steps, got 1",
        ),
        (
            Generator {
                period: f32::NAN,
                ..good.clone()
            },
            "period must be at least 2 steps, got NaN",
        ),
        (
            Generator {
                amplitude: f32::INFINITY,
                ..good.clone()
            },
            "amplitude must be a number, got inf",
        ),
        (
            Generator {
                amplitude: -1.0,
                ..good.clone()
            },
            "amplitude must be >= 0, got -1",
        ),
        (
            Generator {
                start: 10,
                end: Some(5),
                ..good.clone()
            },
            "end (5) must not come before start (10)",
        ),
    ];
    for (generator, expected) in cases {
        assert_eq!(generator.validate().unwrap_err().to_string(), expected);
        assert_eq!(message(pool.add_generator(generator)), expected);
    }
    for _ in 0..8 {
        pool.step();
    }
    assert!(
        heights(&pool).iter().all(|&h| h == 0.0),
        "a refused generator drove the water"
    );
    pool.add_generator(good).unwrap();
    for _ in 0..8 {
        pool.step();
    }
    assert!(heights(&pool).iter().any(|&h| h != 0.0));
}

#[test]
fn a_pool_says_sim_scale_as_the_command_does() {
    let error = Pool::with_sim_scale(64, 48, 17).unwrap_err().to_string();
    assert_eq!(error, "sim scale must be <= 16, got 17");
    assert_eq!(error, limits::check_sim_scale(17).unwrap_err().to_string());
    assert!(matches!(
        Pool::with_sim_scale(64, 48, 0),
        Err(ripples::Error::OutOfRange { name, .. }) if name == "sim scale"
    ));
}

/// Looks with one parameter out of range, and the error each must give.
fn bad_looks() -> Vec<(Look, &'static str)> {
    let lit = |lit: LitSettings| Look::Lit(lit);
    vec![
        (
            lit(LitSettings {
                refraction: f32::NAN,
                ..LitSettings::default()
            }),
            "refraction must be a finite number, got NaN",
        ),
        (
            lit(LitSettings {
                refraction: 1e30,
                ..LitSettings::default()
            }),
            "refraction must be <= 64, got 1000000000000000000000000000000",
        ),
        (
            lit(LitSettings {
                light_angle: f32::INFINITY,
                ..LitSettings::default()
            }),
            "light angle must be a finite number, got inf",
        ),
        (
            Look::Spring(SpringSettings {
                transparency: -1.0,
                ..SpringSettings::default()
            }),
            "spring transparency must be >= 0, got -1",
        ),
        (
            lit(LitSettings {
                shininess: 0.0,
                ..LitSettings::default()
            }),
            "shininess must be >= 0.01, got 0",
        ),
        (
            Look::Natural(NaturalSettings {
                depth: -1.0,
                ..NaturalSettings::default()
            }),
            "depth must be >= 0, got -1",
        ),
        (
            Look::Classic(ClassicSettings { presence: 9.0 }),
            "presence must be <= 8, got 9",
        ),
    ]
}

#[test]
fn a_look_out_of_range_is_refused_before_anything_is_drawn_or_stepped() {
    let (width, height) = (48, 32);
    let background = ripples::pool_tiles(width, height).unwrap();
    for kind in [SolverKind::Classic, SolverKind::Wave, SolverKind::Spring] {
        let mut pool = Pool::new(width, height).unwrap();
        pool.set_solver(kind).unwrap();
        pool.drop_stone(24, 16, 5, 120).unwrap();
        for (look, expected) in bad_looks() {
            assert_eq!(look.validate().unwrap_err().to_string(), expected);
            let mut frame = vec![7u8; background.len()];
            assert_eq!(
                message(pool.render(&look, &background, &mut frame)),
                expected
            );
            let steps = pool.steps();
            assert_eq!(
                message(pool.step_and_render(&look, &background, &mut frame)),
                expected
            );
            assert_eq!(pool.steps(), steps, "a refused look must not step");
            let src: Vec<u32> = vec![0xff10_2030; background.len() / 4];
            let mut dst = vec![7u32; src.len()];
            assert_eq!(message(pool.render_u32(&look, &src, &mut dst)), expected);
            assert_eq!(
                message(pool.step_and_render_u32(&look, &src, &mut dst)),
                expected
            );
            assert!(frame.iter().all(|&byte| byte == 7), "{kind:?}: frame drawn");
            assert!(dst.iter().all(|&pixel| pixel == 7), "{kind:?}: frame drawn");
        }
        let mut frame = vec![0u8; background.len()];
        pool.step_and_render(&Look::default(), &background, &mut frame)
            .unwrap();
        assert_ne!(frame, background, "{kind:?}: a valid look renders");
    }
}

#[test]
fn a_renderer_refuses_a_look_out_of_range_too() {
    let heights = vec![0i16; 16 * 8];
    let field = ripples::FieldView {
        heights: Heights::I16(&heights),
        velocities: None,
        width: 16,
        height: 8,
    };
    let src = vec![[1u8, 2, 3, 255]; 16 * 8];
    let mut dst = vec![[9u8; 4]; src.len()];
    let mut renderer = Renderer::new(16, 16);
    for (look, expected) in bad_looks() {
        let result = renderer.render(field, 1, &look, &src, &mut dst, 16);
        assert_eq!(message(result), expected);
        assert!(dst.iter().all(|&pixel| pixel == [9; 4]));
    }
    // The lit look shows flat water as the source itself (the natural look tints it).
    renderer
        .render(field, 1, &Look::lit(), &src, &mut dst, 16)
        .unwrap();
    assert_eq!(dst, src, "flat water shows the source");
}

#[test]
fn sizes_beyond_the_limits_are_errors_not_panics_or_huge_allocations() {
    assert_eq!(
        ripples::pool_tiles(0, 10).unwrap_err().to_string(),
        "size must be at least 1x1, got 0x10"
    );
    assert!(matches!(
        ripples::pool_tiles(u32::MAX, u32::MAX),
        Err(ripples::Error::TooLarge { .. })
    ));
    assert!(matches!(
        ripples::pool_tiles(limits::MAX_SIDE + 1, 1),
        Err(ripples::Error::TooLarge { .. })
    ));
    assert_eq!(ripples::pool_tiles(3, 2).unwrap().len(), 3 * 2 * 4);
    assert!(matches!(
        Obstacles::new(0, 4),
        Err(ripples::Error::EmptySize {
            width: 0,
            height: 4
        })
    ));
    assert!(matches!(
        Obstacles::new(usize::MAX, usize::MAX),
        Err(ripples::Error::TooLarge { .. })
    ));
    assert!(matches!(
        Obstacles::new(100_000, 1),
        Err(ripples::Error::TooLarge {
            width: 100_000,
            height: 1
        })
    ));
    assert_eq!(Obstacles::new(6, 4).unwrap().cells().len(), 24);
    // A renderer made for absurd widths allocates nothing until a frame shows its real size,
    // and still refuses a frame that does not match.
    let mut renderer = Renderer::new(usize::MAX, usize::MAX / 2);
    let heights = [0i16; 4];
    let field = ripples::FieldView {
        heights: Heights::I16(&heights),
        velocities: None,
        width: 2,
        height: 2,
    };
    let src = [[5u8; 4]; 4];
    let mut dst = [[0u8; 4]; 4];
    renderer
        .render(field, 1, &Look::lit(), &src, &mut dst, 2)
        .unwrap();
    assert_eq!(dst, src);
}

#[test]
fn a_sponge_and_the_random_numbers_take_any_arguments() {
    let sponge = Sponge::with_band(8);
    assert_eq!(
        sponge.factor(100, 0, 10, 10),
        1.0,
        "a cell outside the grid"
    );
    assert_eq!(sponge.factor(0, 0, 0, 0), 1.0, "an empty grid");
    assert!(sponge.factor(0, 5, 10, 10) < 1.0);
    // A field shorter than its size: only the rows it holds.
    let mut short = vec![1.0f32; 25];
    sponge.apply_f32(&mut short, 10, 10);
    assert!(short[0] < 1.0);
    let mut bytes = vec![100i16; 7];
    sponge.apply_i16(&mut bytes, 10, 10);
    sponge.apply_i16(&mut bytes, 0, 10);
    assert_eq!(bytes, vec![100i16; 7], "no whole row: nothing to damp");
    // A band wider than any grid keeps its ramp without allocating for it.
    let wide = Sponge::with_band(usize::MAX);
    assert_eq!(wide.band(), usize::MAX);
    assert!(wide.factor(50, 50, 100, 100) < 1.0);

    let mut random = SplitMix64::new(3);
    for _ in 0..1000 {
        random.between(i64::MIN, i64::MAX);
        assert_eq!(random.between(5, 1), 5, "an empty range gives its low end");
        assert!((-3..=3).contains(&random.between(-3, 3)));
        assert_eq!(random.below(0), 0);
    }
}

#[test]
fn solvers_of_every_kind_are_reachable_as_their_own_type() {
    let mut solver = Solver::new(SolverKind::Wave, 8, 8).unwrap();
    assert!(solver.as_wave().is_some() && solver.as_spring().is_none());
    assert!(solver.as_classic().is_none());
    solver.as_wave_mut().unwrap().set_wave_speed(2.0).unwrap();
    assert_eq!(solver.as_wave().unwrap().wave_speed(), 2.0);
    let mut solver = Solver::new(SolverKind::Spring, 8, 8).unwrap();
    assert!(solver.as_spring().is_some() && solver.as_wave_mut().is_none());
    solver.as_spring_mut().unwrap().set_spread(0.1, 2).unwrap();
    assert_eq!(solver.as_spring().unwrap().spread_passes(), 2);
    assert!(solver.as_classic_mut().is_none());
}

#[test]
fn clipping_a_scene_to_a_pool_of_any_size_does_not_panic() {
    let scene = Scene {
        drops: vec![DropEvent {
            frame: 0,
            x: -7,
            y: 9,
            radius: 3,
            strength: 50,
        }],
        ..Scene::default()
    };
    let mut empty = scene.clone();
    assert_eq!(empty.clip_to_pool(0, 0).len(), 1);
    assert_eq!((empty.drops[0].x, empty.drops[0].y), (0, 0));
    let mut huge = scene;
    assert_eq!(huge.clip_to_pool(u32::MAX, u32::MAX).len(), 1);
    assert_eq!((huge.drops[0].x, huge.drops[0].y), (0, 9));
}

#[test]
fn a_refusal_says_what_was_wrong_as_fields_a_program_can_match() {
    use ripples::{Buffer, DispersiveSolver, Error, Float, FloatImage, Number, Perspective};

    let mut pool = Pool::new(32, 24).unwrap();
    assert!(matches!(pool.swipe(&[], 3, 40), Err(Error::EmptyPath)));
    assert!(matches!(
        pool.set_water(Some(&[true; 5]), None),
        Err(Error::BufferSize {
            what: "water mask",
            got: 5,
            expected: 768,
            ..
        })
    ));
    assert!(matches!(
        FloatImage::new(2, 2, vec![0; 15]),
        Err(Error::WrongLength {
            buffer: Buffer::FloatImage,
            got: 15,
            expected: 16,
            width: 2,
            height: 2,
            ..
        })
    ));

    let id = pool
        .add_float(Float::new(16.0, 12.0, 3, 0.5).unwrap())
        .unwrap();
    assert!(matches!(
        pool.set_float_velocity(id, [0.0, f32::NAN, 0.0]),
        Err(Error::NotFiniteVelocity { velocity: [0.0, y, 0.0], .. }) if y.is_nan()
    ));
    pool.remove_float(id).unwrap();
    assert!(matches!(
        pool.set_float_velocity(id, [0.0; 3]),
        Err(Error::UnknownId { what: "float", .. })
    ));
    assert!(matches!(
        Float::new(16.0, 12.0, 3, 1.0),
        Err(Error::NotAllowed { name, value: Number::Single(1.0), .. }) if name == "float density"
    ));

    let mut water = DispersiveSolver::new(8, 8).unwrap();
    let error = water.set_gravity(0.75).unwrap_err();
    assert!(matches!(
        &error,
        Error::NotAllowed { name, value: Number::Single(0.75), .. } if name == "gravity"
    ));
    assert_eq!(
        error.to_string(),
        "gravity must be a number in (0, 0.5] cells per step², got 0.75"
    );

    let mut photo = Pool::new(32, 24).unwrap();
    assert!(matches!(
        photo.set_water(Some(&[false; 768]), None),
        Err(Error::NoWater)
    ));
    photo.set_water(None, Some(Perspective::new(4.0))).unwrap();
    assert!(matches!(
        photo.add_float(Float::new(16.0, 12.0, 3, 0.5).unwrap()),
        Err(Error::NoPerspective { what: "floats", .. })
    ));

    let scene = Scene {
        swipes: vec![ripples::SwipeEvent {
            frame: 0,
            points: Vec::new(),
            radius: 3,
            strength: 40,
            duration: 1,
        }],
        ..Scene::default()
    };
    let error = scene.validate().unwrap_err();
    assert!(matches!(&error, Error::In { context, .. } if context == "swipe #1"));
    assert_eq!(error.root(), &Error::EmptyPath);
}
