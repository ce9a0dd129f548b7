//! Property tests (proptest) of the public API: what must hold for every input, not only for
//! the inputs someone thought of.
//!
//! - **No panic.** Arbitrary sequences of calls on [`Pool`] and [`Renderer`], with arbitrary
//!   sizes (0 and beyond the limits included), coordinates, radii, strengths, floats (NaN and
//!   infinities included) and unvalidated looks: every call returns, with a result or an error.
//! - **Bit for bit.** Every row kernel of [`ripples::kernels`] that takes a backend gives, on
//!   every SIMD backend this CPU has, exactly the scalar reference's output (`f32` kernels: the
//!   same bits, any NaN counting as the same NaN). Whole frames, stepped and rendered through a
//!   pool with each backend chosen, are identical too. This complements the modules
//!   `kernels` and `f32_kernels` (seeded random rows) with inputs proptest shrinks to a minimal
//!   failing row when something differs.
//! - **The classic look copies pixels.** Over any field, of any solver, at any simulation
//!   scale, every pixel of a classic frame is one of the source image's pixels, every pixel of
//!   the frame is written, and a buffer of the wrong size is refused; at scale 1 over the
//!   classic solver the frame is exactly the seeds' formula.
//!
//! Sizes stay small (tens of cells) and the case counts modest so the file runs in a few
//! seconds in the debug test profile; `PROPTEST_CASES=10000 cargo test --release -p ripples
//! --test it -- properties::` runs each property that many times instead.

use std::collections::HashSet;

use proptest::collection::vec;
use proptest::prelude::*;
use ripples::kernels::f32_rows::{self, RowValues, WaveCoefficients};
use ripples::kernels::{self, Backend, LitLook};
use ripples::{
    Boundary, FieldView, Fields, Generator, Heights, LitSettings, Look, LookSettings,
    NaturalSettings, Pool, Rain, RenderMode, Renderer, Solver, SolverKind, SpringFields,
    SpringSettings, WaterSolver, limits,
};

/// `cases` cases per property, unless `PROPTEST_CASES` says otherwise.
fn config(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = cases;
    }
    config
}

fn simd_backends() -> Vec<Backend> {
    Backend::available()
        .filter(|&b| b != Backend::Scalar)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Strategies

/// A side: mostly small, sometimes any `u32` (0 and far beyond the limits).
fn side() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![8 => 0u32..=40, 1 => any::<u32>()]
}

/// A coordinate: mostly in and around a small pool, sometimes anywhere in `i32`.
fn coordinate() -> impl Strategy<Value = i32> + Clone {
    prop_oneof![4 => -20i32..80, 1 => any::<i32>()]
}

fn radius() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![4 => 0u32..12, 1 => any::<u32>()]
}

/// Any `f32`: ordinary values, and every class proptest knows (NaN, infinities, subnormals).
fn float() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![-4.0f32..4.0, -1e4f32..1e4, any::<f32>()]
}

/// Heights: mostly the size of real waves, sometimes at the ends of `i16`.
fn height_i16() -> impl Strategy<Value = i16> + Clone {
    prop_oneof![
        4 => -300i16..300,
        2 => any::<i16>(),
        1 => Just(i16::MIN),
        1 => Just(i16::MAX)
    ]
}

fn pixel() -> impl Strategy<Value = [u8; 4]> + Clone {
    any::<[u8; 4]>()
}

fn solver_kind() -> impl Strategy<Value = SolverKind> + Clone {
    prop_oneof![
        Just(SolverKind::Classic),
        Just(SolverKind::Wave),
        Just(SolverKind::Spring)
    ]
}

/// A look: the three presets, or any parameters at all (not validated).
fn look() -> impl Strategy<Value = Look> + Clone {
    let mode = prop_oneof![
        Just(RenderMode::Lit),
        Just(RenderMode::Classic),
        Just(RenderMode::Spring),
        Just(RenderMode::Natural)
    ];
    let any_look =
        (mode, vec(float(), 16), any::<[u8; 3]>()).prop_map(|(mode, p, water_colour)| {
            let mut settings = LookSettings {
                lit: LitSettings {
                    presence: p[15],
                    refraction: p[0],
                    slope: p[1],
                    shading: p[2],
                    specular: p[3],
                    shininess: p[4],
                    light_angle: p[5],
                },
                spring: SpringSettings {
                    presence: p[15],
                    refraction: p[6],
                    transparency: p[7],
                },
                natural: NaturalSettings {
                    presence: p[15],
                    depth: p[8],
                    caustics: p[9],
                    sun_elevation: p[10],
                    sun_azimuth: p[11],
                    water_colour,
                    clarity: p[12],
                    wave_height: p[13],
                    dispersion: p[14],
                },
                ..LookSettings::default()
            };
            settings.classic.presence = p[15];
            settings.look(mode)
        });
    prop_oneof![
        Just(Look::classic()),
        Just(Look::default()),
        Just(Look::spring()),
        Just(Look::natural()),
        any_look
    ]
}

/// A look whose parameters [`Look::validate`] accepts, in any mode.
fn valid_look() -> impl Strategy<Value = Look> + Clone {
    valid_settings().prop_map(|(mode, settings)| settings.look(mode))
}

/// Every look's numbers, all of which [`LookSettings::validate`] accepts, and a mode.
fn valid_settings() -> impl Strategy<Value = (RenderMode, LookSettings)> + Clone {
    let mode = prop_oneof![
        Just(RenderMode::Lit),
        Just(RenderMode::Classic),
        Just(RenderMode::Spring),
        Just(RenderMode::Natural)
    ];
    (
        (mode, 0.0f32..=8.0),
        (
            -64.0f32..=64.0,
            0.0f32..=16.0,
            0.0f32..=4.0,
            0.0f32..=16.0,
            0.01f32..=1024.0,
            -360.0f32..=360.0,
        ),
        (-64.0f32..=64.0, 0.0f32..=1000.0),
        (
            0.0f32..=1024.0,
            0.0f32..=4.0,
            1.0f32..=90.0,
            -360.0f32..=360.0,
            any::<[u8; 3]>(),
            1.0f32..=1_000_000.0,
            0.0f32..=16.0,
            0.0f32..=50.0,
        ),
    )
        .prop_map(
            |(
                (mode, presence),
                (refraction, slope, shading, specular, shininess, light_angle),
                (spring_refraction, spring_transparency),
                (
                    depth,
                    caustics,
                    sun_elevation,
                    sun_azimuth,
                    water_colour,
                    clarity,
                    wave_height,
                    dispersion,
                ),
            )| {
                let mut settings = LookSettings {
                    lit: LitSettings {
                        presence,
                        refraction,
                        slope,
                        shading,
                        specular,
                        shininess,
                        light_angle,
                    },
                    spring: SpringSettings {
                        presence,
                        refraction: spring_refraction,
                        transparency: spring_transparency,
                    },
                    natural: NaturalSettings {
                        presence,
                        depth,
                        caustics,
                        sun_elevation,
                        sun_azimuth,
                        water_colour,
                        clarity,
                        wave_height,
                        dispersion,
                    },
                    ..LookSettings::default()
                };
                settings.set_presence(presence);
                (mode, settings)
            },
        )
}

/// A look whose parameters [`Look::validate`] accepts, as the kernels' table for it.
fn lit_look() -> impl Strategy<Value = LitLook> {
    valid_settings().prop_map(|(_, settings)| settings.lit.lit_look())
}

// ---------------------------------------------------------------------------------------------
// (a) No panic for any sequence of calls

#[derive(Debug, Clone)]
enum Op {
    New(u32, u32, u32),
    Resize(u32, u32),
    Drop(i32, i32, u32, i16),
    Swipe(Vec<[i32; 2]>, u32, i16),
    Rain(u64, f64, u32, u32, i16, i16),
    Step(u8),
    Render(Look, bool),
    StepAndRender(Look, bool),
    WrongSizeRender(Look, usize),
    PaintWall(i32, i32, u32, bool),
    SetWall(i64, i64, bool),
    ClearWalls,
    SetSolver(SolverKind),
    SetBoundary(bool),
    Generator([i32; 2], [i32; 2], f32, f32, u64, Option<u64>),
    ClearGenerators,
    Calm,
    SetHeight(i32, i32, f32),
    SolverParameter(u8, f32, f32, u32),
    RawRender(usize, usize, usize, usize, u32, bool, Look),
}

fn op() -> impl Strategy<Value = Op> {
    let point = (coordinate(), coordinate()).prop_map(|(x, y)| [x, y]);
    prop_oneof![
        1 => (side(), side(), prop_oneof![3 => 1u32..=4, 1 => any::<u32>()])
            .prop_map(|(w, h, s)| Op::New(w, h, s)),
        1 => (side(), side()).prop_map(|(w, h)| Op::Resize(w, h)),
        4 => (coordinate(), coordinate(), radius(), any::<i16>())
            .prop_map(|(x, y, r, s)| Op::Drop(x, y, r, s)),
        // Swipe radii stay below 300: a swipe costs its length near the pool times a stone's
        // area, so huge ones are only slow (drops take any radius).
        2 => (vec(point.clone(), 0..5), prop_oneof![0u32..12, 0u32..300], any::<i16>())
            .prop_map(|(p, r, s)| Op::Swipe(p, r, s)),
        1 => (any::<u64>(), prop_oneof![0.0f64..8.0, any::<f64>()], 0u32..6, 0u32..6, any::<i16>(), any::<i16>())
            .prop_map(|(seed, rate, r0, r1, s0, s1)| Op::Rain(seed, rate, r0, r1, s0, s1)),
        4 => any::<u8>().prop_map(Op::Step),
        3 => (look(), any::<bool>()).prop_map(|(l, u)| Op::Render(l, u)),
        2 => (look(), any::<bool>()).prop_map(|(l, u)| Op::StepAndRender(l, u)),
        1 => (look(), 0usize..3).prop_map(|(l, k)| Op::WrongSizeRender(l, k)),
        1 => (coordinate(), coordinate(), radius(), any::<bool>())
            .prop_map(|(x, y, r, w)| Op::PaintWall(x, y, r, w)),
        1 => (any::<i64>(), any::<i64>(), any::<bool>()).prop_map(|(x, y, w)| Op::SetWall(x, y, w)),
        1 => Just(Op::ClearWalls),
        1 => solver_kind().prop_map(Op::SetSolver),
        1 => any::<bool>().prop_map(Op::SetBoundary),
        1 => (point.clone(), point, float(), float(), 0u64..40, proptest::option::of(0u64..80))
            .prop_map(|(a, b, p, amp, s, e)| Op::Generator(a, b, p, amp, s, e)),
        1 => Just(Op::ClearGenerators),
        1 => Just(Op::Calm),
        1 => (coordinate(), coordinate(), float()).prop_map(|(x, y, v)| Op::SetHeight(x, y, v)),
        1 => (any::<u8>(), float(), float(), any::<u32>())
            .prop_map(|(w, a, b, n)| Op::SolverParameter(w, a, b, n)),
        1 => (0usize..20, 0usize..20, 0usize..20, 0usize..20, 0u32..5, any::<bool>(), look())
            .prop_map(|(iw, ih, gw, gh, s, f, l)| Op::RawRender(iw, ih, gw, gh, s, f, l)),
    ]
}

/// A pool and the buffers of its size.
struct Water {
    pool: Pool,
    image: Vec<u8>,
    frame: Vec<u8>,
}

impl Water {
    fn new(pool: Pool) -> Self {
        let image = ripples::pool_tiles(pool.width(), pool.height()).unwrap();
        let frame = vec![0; image.len()];
        Self { pool, image, frame }
    }
}

/// Pools beyond this many pixels are valid but slow to test; they are skipped, not built.
const MAX_TEST_PIXELS: u64 = 48 * 48;

/// What the pool's stone methods accept: a radius in `1..=4096`, a strength in `0..=32767`.
fn stone_is_valid(radius: u32, strength: i16) -> bool {
    (1..=limits::MAX_RADIUS).contains(&radius) && strength >= 0
}

fn buildable(width: u32, height: u32) -> bool {
    // Any refusal will do: a refused size allocates nothing, so it is cheap to try.
    limits::check_size(u64::from(width), u64::from(height)).is_err()
        || u64::from(width) * u64::from(height) <= MAX_TEST_PIXELS
}

fn as_u32_pixels(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
        .collect()
}

fn apply(water: &mut Option<Water>, op: &Op) {
    match op {
        Op::New(width, height, scale) => {
            if buildable(*width, *height) {
                let built = Pool::with_sim_scale(*width, *height, *scale);
                let valid = limits::check_size(u64::from(*width), u64::from(*height)).is_ok()
                    && (1..=limits::MAX_SIM_SCALE).contains(scale);
                assert_eq!(built.is_ok(), valid, "{width}x{height} at scale {scale}");
                if let Ok(pool) = built {
                    *water = Some(Water::new(pool));
                }
            }
            return;
        }
        Op::RawRender(image_width, image_height, grid_width, grid_height, scale, float, look) => {
            raw_render(
                *image_width,
                *image_height,
                *grid_width,
                *grid_height,
                *scale,
                *float,
                look,
            );
            return;
        }
        _ => {}
    }
    let Some(Water { pool, image, frame }) = water.as_mut() else {
        return;
    };
    match op {
        Op::New(..) | Op::RawRender(..) => unreachable!("handled above"),
        Op::Resize(width, height) => {
            if !buildable(*width, *height) {
                return;
            }
            let (kind, boundary) = (pool.solver().kind(), pool.boundary());
            if let Ok(mut resized) = Pool::with_sim_scale(*width, *height, pool.sim_scale()) {
                resized.set_solver(kind).unwrap();
                resized.set_boundary(boundary);
                *water = Some(Water::new(resized));
            }
        }
        Op::Drop(x, y, radius, strength) => {
            let accepted = pool.drop_stone(*x, *y, *radius, *strength).is_ok();
            assert_eq!(accepted, stone_is_valid(*radius, *strength));
        }
        Op::Swipe(points, radius, strength) => {
            let accepted = pool.swipe(points, *radius, *strength).is_ok();
            assert_eq!(
                accepted,
                stone_is_valid(*radius, *strength) && !points.is_empty()
            );
        }
        Op::Rain(seed, rate, r0, r1, s0, s1) => {
            let rain = Rain::new(*seed)
                .with_rate(*rate)
                .and_then(|rain| rain.with_radius(*r0, *r1))
                .and_then(|rain| rain.with_strength(*s0, *s1));
            if let Ok(mut rain) = rain {
                let (width, height) = (pool.width(), pool.height());
                for stone in rain.stones(width, height).take(200) {
                    pool.drop(stone)
                        .expect("rain makes only stones the pool accepts");
                }
            }
        }
        Op::Step(count) => {
            for _ in 0..=count % 6 {
                pool.step();
            }
        }
        Op::Render(look, as_u32) => {
            let before = frame.clone();
            let accepted = if *as_u32 {
                let src = as_u32_pixels(image);
                let mut dst = vec![0u32; src.len()];
                pool.render_u32(look, &src, &mut dst).is_ok()
            } else {
                pool.render(look, image, frame).is_ok()
            };
            assert_eq!(accepted, look.validate().is_ok(), "{look:?}");
            if !accepted {
                assert_eq!(*frame, before, "a refused look must not touch the frame");
            }
        }
        Op::StepAndRender(look, as_u32) => {
            let steps = pool.steps();
            let accepted = if *as_u32 {
                let src = as_u32_pixels(image);
                let mut dst = vec![0u32; src.len()];
                pool.step_and_render_u32(look, &src, &mut dst).is_ok()
            } else {
                pool.step_and_render(look, image, frame).is_ok()
            };
            assert_eq!(accepted, look.validate().is_ok(), "{look:?}");
            if !accepted {
                assert_eq!(pool.steps(), steps, "a refused look must not step");
            }
        }
        Op::WrongSizeRender(look, which) => {
            let steps = pool.steps();
            let mut short = vec![0u8; frame.len().saturating_sub(4)];
            let mut long = vec![0u8; frame.len() + 4];
            let wrong_size = |result| matches!(result, Err(ripples::Error::BufferSize { .. }));
            let refused = match which {
                0 => wrong_size(pool.render(look, image, &mut short)),
                1 => wrong_size(pool.step_and_render(look, image, &mut long)),
                _ => wrong_size(pool.render(look, &image[4..], frame)),
            };
            assert!(refused, "a buffer of the wrong size was accepted");
            assert_eq!(pool.steps(), steps, "a refused frame must not step");
        }
        Op::PaintWall(x, y, radius, wall) => {
            let accepted = pool.paint_wall(*x, *y, *radius, *wall).is_ok();
            assert_eq!(accepted, (1..=limits::MAX_RADIUS).contains(radius));
        }
        Op::SetWall(x, y, wall) => pool.obstacles_mut().set(*x, *y, *wall),
        Op::ClearWalls => pool.obstacles_mut().clear(),
        Op::SetSolver(kind) => pool.set_solver(*kind).unwrap(),
        Op::SetBoundary(absorb) => pool.set_boundary(if *absorb {
            Boundary::Absorb
        } else {
            Boundary::Reflect
        }),
        Op::Generator(from, to, period, amplitude, start, end) => {
            let accepted = pool
                .add_generator(Generator {
                    from: *from,
                    to: *to,
                    period: *period,
                    amplitude: *amplitude,
                    start: *start,
                    end: *end,
                })
                .is_ok();
            let valid = *period >= 2.0
                && period.is_finite()
                && (0.0..=32767.0).contains(amplitude)
                && end.is_none_or(|end| end >= *start);
            assert_eq!(accepted, valid, "period {period}, amplitude {amplitude}");
        }
        Op::ClearGenerators => pool.clear_generators(),
        Op::Calm => pool.calm(),
        Op::SetHeight(x, y, value) => pool.solver_mut().set_height(*x, *y, *value),
        Op::SolverParameter(which, a, b, n) => match pool.solver_mut() {
            Solver::Classic(classic) => {
                let accepted = classic.set_damping_shift(*n % 20).is_ok();
                assert_eq!(accepted, (1..=15).contains(&(*n % 20)));
            }
            Solver::Wave(wave) => {
                let _ = if which % 2 == 0 {
                    wave.set_wave_speed(*a)
                } else {
                    wave.set_damping(*a)
                };
            }
            Solver::Dispersive(water) => {
                let _ = if which % 2 == 0 {
                    water.set_gravity(*a)
                } else {
                    water.set_damping(*a)
                };
            }
            Solver::Spring(spring) => {
                let _ = match which % 3 {
                    0 => spring.set_springs(*a, *b),
                    1 => spring.set_spread(*a, *n % 20),
                    _ => {
                        let cells = spring.width() as usize * spring.height() as usize;
                        let grey: Vec<u8> = (0..cells).map(|i| (i * 37) as u8).collect();
                        spring.set_stiffness_map(&ripples::map_from_grey(&grey, *a, *b))
                    }
                };
            }
        },
    }
}

/// A renderer on its own with a field of any shape: it renders exactly when the field covers
/// the image at that scale, and refuses otherwise.
fn raw_render(
    image_width: usize,
    image_height: usize,
    grid_width: usize,
    grid_height: usize,
    scale: u32,
    float: bool,
    look: &Look,
) {
    let cells = grid_width * grid_height;
    let (ints, floats, velocities) = (vec![5i16; cells], vec![2.5f32; cells], vec![1.0; cells]);
    let field = FieldView {
        heights: if float {
            Heights::F32(&floats)
        } else {
            Heights::I16(&ints)
        },
        velocities: Some(&velocities),
        width: grid_width,
        height: grid_height,
    };
    let src = vec![[10u8, 20, 30, 255]; image_width * image_height];
    let mut dst = vec![[0u8; 4]; src.len()];
    // A frame 0 pixels wide has no rows the renderer could count.
    let rows = if image_width == 0 { 0 } else { image_height };
    let fits = scale > 0
        && grid_width == image_width.div_ceil(scale as usize)
        && grid_height == rows.div_ceil(scale as usize);
    let result = Renderer::new(image_width, grid_width).render(
        field,
        scale,
        look,
        &src,
        &mut dst,
        image_width,
    );
    assert_eq!(
        result.is_ok(),
        fits && look.validate().is_ok(),
        "{result:?}"
    );
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn any_sequence_of_calls_returns_a_result_or_an_error(
        start in (1u32..30, 1u32..30),
        ops in vec(op(), 1..30),
    ) {
        let mut water = Some(Water::new(Pool::new(start.0, start.1).unwrap()));
        for op in &ops {
            apply(&mut water, op);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (b) Every backend's kernels equal the scalar reference, bit for bit

/// The bits of each value, every NaN as the same one (which NaN an operation on a NaN returns
/// is unspecified in Rust, so backends may differ there, and only there).
fn bits(values: &[f32]) -> Vec<u32> {
    values
        .iter()
        .map(|v| if v.is_nan() { f32::NAN } else { *v }.to_bits())
        .collect()
}

/// `count` rows of `width` values each, for a width drawn from `widths`.
fn rows<T: std::fmt::Debug>(
    widths: std::ops::Range<usize>,
    count: usize,
    value: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Vec<Vec<T>>> {
    widths.prop_flat_map(move |width| vec(vec(value.clone(), width), count))
}

/// A source image of `width x height` (1..=`max` each), a row `y` in it, and `count` rows of
/// `width` values.
fn image_and_rows<T: std::fmt::Debug>(
    max: usize,
    count: usize,
    value: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = (usize, usize, usize, Vec<[u8; 4]>, Vec<Vec<T>>)> {
    (1..=max, 1..=max).prop_flat_map(move |(width, height)| {
        (
            Just(width),
            Just(height),
            0..height,
            vec(pixel(), width * height),
            vec(vec(value.clone(), width), count),
        )
    })
}

/// Gradients: ordinary, exactly half-way between pixels, huge, and every class of float.
fn gradient() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        (-70i32..70).prop_map(|v| v as f32),
        (-70i32..70).prop_map(|v| v as f32 + 0.5),
        -80.0f32..80.0,
        any::<f32>(),
    ]
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn classic_step_row_is_the_reference_on_every_backend(
        rows in rows(0..70, 4, height_i16()),
        shift in 0u32..32,
    ) {
        let [up, mid, down, previous] = <[Vec<i16>; 4]>::try_from(rows).unwrap();
        let mut expected = previous.clone();
        kernels::scalar::classic_step_row(&up, &mid, &down, &mut expected, shift);
        for backend in simd_backends() {
            let mut got = previous.clone();
            kernels::classic_step_row(backend, &up, &mid, &down, &mut got, shift);
            prop_assert_eq!(&got, &expected, "{}", backend);
        }
    }

    #[test]
    fn classic_render_row_is_the_reference_on_every_backend(
        (width, height, y, src, rows) in image_and_rows(48, 3, height_i16()),
    ) {
        let (up, mid, down) = (&rows[0], &rows[1], &rows[2]);
        let mut expected = vec![[0u8; 4]; width];
        kernels::scalar::classic_render_row(kernels::SourceRow { src: &src, y, height }, [up, mid, down], &mut expected);
        for backend in simd_backends() {
            let mut got = vec![[0u8; 4]; width];
            kernels::classic_render_row(backend, kernels::SourceRow { src: &src, y, height }, [up, mid, down], &mut got);
            prop_assert_eq!(&got, &expected, "{}", backend);
        }
    }

    #[test]
    fn resampled_classic_row_is_the_reference_on_every_backend(
        (width, height, y, src, rows) in image_and_rows(48, 2, gradient()),
    ) {
        let (gx, gy) = (&rows[0], &rows[1]);
        let mut expected = vec![[0u8; 4]; width];
        kernels::scalar::resampled_classic_row(kernels::SourceRow { src: &src, y, height }, [gx, gy], &mut expected);
        for backend in simd_backends() {
            let mut got = vec![[0u8; 4]; width];
            kernels::resampled_classic_row(backend, kernels::SourceRow { src: &src, y, height }, [gx, gy], &mut got);
            prop_assert_eq!(&got, &expected, "{}", backend);
        }
    }

    #[test]
    fn lit_render_row_is_the_reference_on_every_backend(
        (width, height, y, src, rows) in image_and_rows(40, 2, gradient()),
        look in lit_look(),
        table in proptest::option::of(vec(any::<u32>(), kernels::LIT_TABLE_SPAN + 1)),
    ) {
        let (gx, gy) = (&rows[0], &rows[1]);
        let mut look = look;
        if let Some(table) = table {
            // The table is public: any entries must give the reference's pixels.
            look.table = table;
        }
        let mut expected = vec![[0u8; 4]; width];
        kernels::scalar::lit_render_row(kernels::SourceRow { src: &src, y, height }, [gx, gy], &mut expected, &look);
        for backend in simd_backends() {
            let mut got = vec![[0u8; 4]; width];
            kernels::lit_render_row(backend, kernels::SourceRow { src: &src, y, height }, [gx, gy], &mut got, &look);
            prop_assert_eq!(&got, &expected, "{}", backend);
        }
    }

    #[test]
    fn wave_step_row_is_the_reference_on_every_backend(
        rows in rows(0..70, 4, float()),
        weights in vec(float(), 4),
    ) {
        let coefficients = WaveCoefficients {
            centre: weights[0],
            edge: weights[1],
            corner: weights[2],
            previous: weights[3],
        };
        let [above, row, below, previous] = <[Vec<f32>; 4]>::try_from(rows).unwrap();
        let run = |backend| {
            let mut out = previous.clone();
            f32_rows::wave_step_row(backend, [&above, &row, &below], &mut out, &coefficients);
            bits(&out)
        };
        let expected = run(Backend::Scalar);
        for backend in simd_backends() {
            prop_assert_eq!(run(backend), expected.clone(), "{}", backend);
        }
    }

    #[test]
    fn spring_rows_are_the_reference_on_every_backend(
        rows in rows(0..70, 6, float()),
        uniform in (0.0f32..=1.0, 0.0f32..=1.0),
        per_cell in (any::<bool>(), any::<bool>()),
        spread in 0.0f32..=0.25,
        neighbours in (any::<bool>(), any::<bool>()),
    ) {
        let [heights, velocities, k_map, m_map, above, below] =
            <[Vec<f32>; 6]>::try_from(rows).unwrap();
        let width = heights.len();
        let stiffness = if per_cell.0 {
            RowValues::PerCell(&k_map)
        } else {
            RowValues::Uniform(uniform.0)
        };
        let viscosity = if per_cell.1 {
            RowValues::PerCell(&m_map)
        } else {
            RowValues::Uniform(uniform.1)
        };
        let springs = |backend| {
            let (mut h, mut w) = (vec![7.0; width], vec![7.0; width]);
            let row = [&heights[..], &velocities];
            f32_rows::spring_row(backend, row, stiffness, viscosity, [&mut h, &mut w]);
            (bits(&h), bits(&w))
        };
        let along_x = |backend| {
            let (mut h, mut w) = (vec![7.0; width], vec![7.0; width]);
            f32_rows::spread_x_row(backend, spread, [&heights, &velocities], [&mut h, &mut w]);
            (bits(&h), bits(&w))
        };
        let along_y = |backend| {
            let (mut h, mut w) = (vec![7.0; width], vec![7.0; width]);
            let givers = [neighbours.0.then_some(&above[..]), neighbours.1.then_some(&below[..])];
            let row = [&heights[..], &velocities];
            f32_rows::spread_y_row(backend, spread, givers, row, [&mut h, &mut w]);
            (bits(&h), bits(&w))
        };
        for backend in simd_backends() {
            prop_assert_eq!(springs(backend), springs(Backend::Scalar), "springs, {}", backend);
            prop_assert_eq!(along_x(backend), along_x(Backend::Scalar), "along x, {}", backend);
            prop_assert_eq!(along_y(backend), along_y(Backend::Scalar), "along y, {}", backend);
        }
    }
}

/// A pool and what to do to it, for whole frames.
#[derive(Debug, Clone)]
struct Scenario {
    width: u32,
    height: u32,
    scale: u32,
    kind: SolverKind,
    absorb: bool,
    stones: Vec<(i32, i32, u32, i16)>,
    wall: Option<(i32, i32, u32)>,
    look: Look,
    frames: u8,
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        (
            1u32..40,
            1u32..40,
            prop_oneof![3 => Just(1u32), 1 => 2u32..4],
        ),
        (solver_kind(), any::<bool>()),
        vec(
            (
                -5i32..45,
                -5i32..45,
                1u32..8,
                prop_oneof![3 => 0i16..400, 1 => 0i16..=i16::MAX],
            ),
            1..6,
        ),
        proptest::option::of((0i32..40, 0i32..40, 1u32..5)),
        valid_look(),
        1u8..6,
    )
        .prop_map(
            |((width, height, scale), (kind, absorb), stones, wall, look, frames)| Scenario {
                width,
                height,
                scale,
                kind,
                absorb,
                stones,
                wall,
                look,
                frames,
            },
        )
}

/// Every frame of `scenario` on `backend` (the pool's own, so tests running beside this one
/// keep the process default), alternating the fused call and the separate ones.
fn frames(scenario: &Scenario, backend: Backend) -> Vec<Vec<u8>> {
    let mut pool = Pool::with_sim_scale(scenario.width, scenario.height, scenario.scale).unwrap();
    pool.set_backend(backend).unwrap();
    pool.set_solver(scenario.kind).unwrap();
    if scenario.absorb {
        pool.set_boundary(Boundary::Absorb);
    }
    if let Some((x, y, radius)) = scenario.wall {
        pool.paint_wall(x, y, radius, true).unwrap();
    }
    for &(x, y, radius, strength) in &scenario.stones {
        pool.drop_stone(x, y, radius, strength).unwrap();
    }
    let image = ripples::pool_tiles(scenario.width, scenario.height).unwrap();
    let mut frame = vec![0u8; image.len()];
    let mut frames = Vec::new();
    for index in 0..scenario.frames {
        if index % 2 == 0 {
            pool.step_and_render(&scenario.look, &image, &mut frame)
                .unwrap();
        } else {
            pool.step();
            pool.render(&scenario.look, &image, &mut frame).unwrap();
        }
        frames.push(frame.clone());
    }
    frames
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn whole_frames_are_the_same_on_every_backend(scenario in scenario()) {
        let expected = frames(&scenario, Backend::Scalar);
        let outcome = match simd_backends()
            .into_iter()
            .find(|&backend| frames(&scenario, backend) != expected)
        {
            Some(backend) => Err(backend),
            None => Ok(()),
        };
        prop_assert_eq!(outcome, Ok(()), "frames differ from the scalar backend's");
    }
}

// ---------------------------------------------------------------------------------------------
// (c) The classic look copies pixels, and fills the frame

/// A pool with an arbitrary field: size, scale, solver and heights all drawn.
#[derive(Debug, Clone)]
struct Field {
    width: u32,
    height: u32,
    scale: u32,
    kind: SolverKind,
    ints: Vec<i16>,
    floats: Vec<f32>,
    /// Source pixels; alpha is never 0, so `[0; 4]` marks a pixel the render did not write.
    image: Vec<[u8; 4]>,
}

fn field() -> impl Strategy<Value = Field> {
    (
        1u32..36,
        1u32..36,
        prop_oneof![3 => Just(1u32), 1 => 2u32..5],
        solver_kind(),
    )
        .prop_flat_map(|(width, height, scale, kind)| {
            let cells = (width.div_ceil(scale) * height.div_ceil(scale)) as usize;
            let pixels = (width * height) as usize;
            (
                Just((width, height, scale, kind)),
                vec(height_i16(), cells),
                vec(prop_oneof![-300.0f32..300.0, float()], cells),
                vec((any::<[u8; 3]>(), 1u8..=255), pixels),
            )
        })
        .prop_map(
            |((width, height, scale, kind), ints, floats, image)| Field {
                width,
                height,
                scale,
                kind,
                ints,
                floats,
                image: image
                    .into_iter()
                    .map(|([r, g, b], a)| [r, g, b, a])
                    .collect(),
            },
        )
}

impl Field {
    fn pool(&self) -> Pool {
        let mut pool = Pool::with_sim_scale(self.width, self.height, self.scale).unwrap();
        pool.set_solver(self.kind).unwrap();
        match pool.solver_mut() {
            Solver::Classic(classic) => {
                let Fields { current, previous } = classic.fields_mut();
                current.copy_from_slice(&self.ints);
                previous.copy_from_slice(&self.ints);
            }
            Solver::Wave(wave) => {
                let Fields { current, previous } = wave.fields_mut();
                current.copy_from_slice(&self.floats);
                previous.copy_from_slice(&self.floats);
            }
            Solver::Dispersive(water) => {
                let Fields { current, previous } = water.fields_mut();
                current.copy_from_slice(&self.floats);
                previous.copy_from_slice(&self.floats);
            }
            Solver::Spring(spring) => {
                let SpringFields {
                    heights,
                    velocities,
                } = spring.fields_mut();
                heights.copy_from_slice(&self.floats);
                velocities.copy_from_slice(&self.floats);
            }
        }
        pool
    }

    fn image_bytes(&self) -> Vec<u8> {
        self.image.iter().flatten().copied().collect()
    }
}

/// Fails unless every pixel of `frame` is one of `image`'s (which also means it was written:
/// no source pixel is `[0; 4]`).
fn assert_copied(frame: &[u8], image: &[[u8; 4]]) -> Result<(), TestCaseError> {
    let source: HashSet<[u8; 4]> = image.iter().copied().collect();
    prop_assert_eq!(
        frame.len(),
        image.len() * 4,
        "the frame has the image's size"
    );
    for (index, pixel) in frame.chunks_exact(4).enumerate() {
        let pixel = [pixel[0], pixel[1], pixel[2], pixel[3]];
        prop_assert!(
            source.contains(&pixel),
            "pixel {} is {:?}, not a source pixel{}",
            index,
            pixel,
            if pixel == [0; 4] {
                " (not written)"
            } else {
                ""
            }
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn the_classic_look_shows_only_source_pixels(field in field()) {
        let image = field.image_bytes();
        let look = Look::classic();
        let mut pool = field.pool();
        let mut frame = vec![0u8; image.len()];
        pool.render(&look, &image, &mut frame).unwrap();
        assert_copied(&frame, &field.image)?;

        // The same through `u32` pixels, which the classic look copies whole.
        let src: Vec<u32> = field.image.iter().map(|&p| u32::from_le_bytes(p)).collect();
        let mut dst = vec![0u32; src.len()];
        pool.render_u32(&look, &src, &mut dst).unwrap();
        let bytes: Vec<u8> = dst.iter().flat_map(|p| p.to_le_bytes()).collect();
        prop_assert_eq!(&bytes, &frame);

        // After a step, fused or not.
        let mut fused = vec![0u8; image.len()];
        let mut apart = vec![0u8; image.len()];
        let mut twin = pool.clone();
        pool.step_and_render(&look, &image, &mut fused).unwrap();
        twin.step();
        twin.render(&look, &image, &mut apart).unwrap();
        assert_copied(&fused, &field.image)?;
        prop_assert_eq!(&fused, &apart, "step_and_render is step, then render");

        // Buffers of any other size are refused and leave the frame alone.
        for wrong in [image.len() - 4, image.len() + 4] {
            let mut other = vec![0u8; wrong];
            let refused = matches!(
                pool.render(&look, &image, &mut other),
                Err(ripples::Error::BufferSize { what: "destination frame", got, .. }) if got == wrong
            );
            prop_assert!(refused, "a frame of {} bytes is a wrong length", wrong);
            prop_assert!(other.iter().all(|&b| b == 0));
        }
    }

    #[test]
    fn the_classic_look_over_the_classic_solver_is_the_seeds_formula(
        field in field().prop_filter("classic solver at scale 1", |f| {
            f.kind == SolverKind::Classic && f.scale == 1
        }),
    ) {
        let image = field.image_bytes();
        let mut frame = vec![0u8; image.len()];
        field.pool().render(&Look::classic(), &image, &mut frame).unwrap();
        let (width, height) = (field.width as i32, field.height as i32);
        let h = |x: i32, y: i32| i32::from(field.ints[(y * width + x) as usize]);
        for y in 0..height {
            for x in 0..width {
                let interior = x > 0 && y > 0 && x < width - 1 && y < height - 1;
                let (sx, sy) = if interior {
                    let dx = h(x - 1, y) - h(x + 1, y);
                    let dy = h(x, y - 1) - h(x, y + 1);
                    ((x + dx).clamp(0, width - 1), (y + dy).clamp(0, height - 1))
                } else {
                    (x, y) // border pixels show the image unchanged
                };
                let at = (y * width + x) as usize * 4;
                let expected = field.image[(sy * width + sx) as usize];
                prop_assert_eq!(&frame[at..at + 4], &expected[..], "pixel ({}, {})", x, y);
            }
        }
    }
}
