//! The library's public API driven by arbitrary sequences of calls: new pools of any size and
//! scale, stones, swipes, rain, steps, renders in every look, resizes, walls, solvers, edges,
//! generators and solver parameters, moving bodies (added, moved, removed) and floating things
//! (added, thrown, removed), with arbitrary coordinates, radii, strengths and floats; and whole
//! scenes played by a `SceneRunner` with events anywhere.
//!
//! Errors are fine; panics, hangs and out-of-bounds accesses are not. Sizes are drawn mostly
//! small (up to 64x64, where thousands of sequences run a second) but sometimes from all of
//! `u32`, so the size checks see 0 and huge values. A size that passes the checks but exceeds
//! [`MAX_FUZZ_PIXELS`] is skipped rather than built: it would only make the fuzzer slow. Looks
//! are not validated first, on purpose: `Pool::render` takes any `Look`, NaNs included, and
//! must refuse exactly those `Look::validate` refuses.
//!
//! A few properties are checked along the way because they are cheap and a wrong kernel or a
//! missing check would break them: every frame has the pool's size (the render writes every
//! pixel of `dst`); the classic look over the classic solver at full resolution only copies
//! source pixels; the pool accepts exactly the stones, walls, generators, bodies, floats and
//! looks in range; every float stays in the pool with finite values whatever the water does.

#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use ripples::{
    Body, BodyId, Boundary, DropEvent, FieldView, Float, FloatEvent, FloatId, Generator, Heights,
    ClassicSettings, LitSettings, Look, LookSettings, NaturalSettings, Pool, Rain, RainSpec,
    RenderMode, Renderer, Scene, SceneRunner, Solver, SolverKind, SpringSettings,
    SourceEvent, SwipeEvent, WaterSolver, limits,
};

/// Largest pool built (in image pixels).
const MAX_FUZZ_PIXELS: u64 = 96 * 96;

/// Largest swipe radius tried. A swipe stamps a stone at every cell of its path within a
/// radius of the pool, so it costs up to `(2 radius + side) x cells` (the wave solver's smooth
/// stone a cosine each): with radii of thousands that is seconds, only slow, and a timeout to
/// libFuzzer. Drops, one stamp each, take any radius.
const MAX_SWIPE_RADIUS: u32 = 256;

/// A side: mostly 0..=64, sometimes any `u32`.
#[derive(Debug, Clone, Copy)]
struct Side(u32);

impl<'a> Arbitrary<'a> for Side {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(Side(if u.ratio(1, 8)? {
            u32::arbitrary(u)?
        } else {
            u.int_in_range(0..=64)?
        }))
    }
}

#[derive(Debug, Arbitrary)]
enum Kind {
    Classic,
    Wave,
    Spring,
    Dispersive,
}

impl From<&Kind> for SolverKind {
    fn from(kind: &Kind) -> Self {
        match kind {
            Kind::Classic => SolverKind::Classic,
            Kind::Wave => SolverKind::Wave,
            Kind::Spring => SolverKind::Spring,
            Kind::Dispersive => SolverKind::Dispersive,
        }
    }
}

#[derive(Debug, Arbitrary)]
enum LookChoice {
    Classic,
    Default,
    Spring,
    Natural,
    /// Any parameters, unvalidated.
    Any {
        mode: u8,
        refraction: f32,
        slope: f32,
        shading: f32,
        specular: f32,
        shininess: f32,
        light_angle: f32,
        spring_refraction: f32,
        spring_transparency: f32,
        depth: f32,
        caustics: f32,
        sun_elevation: f32,
        sun_azimuth: f32,
        water_colour: [u8; 3],
        clarity: f32,
        wave_height: f32,
        dispersion: f32,
        presence: f32,
    },
}

impl LookChoice {
    fn look(&self) -> Look {
        match *self {
            LookChoice::Classic => Look::classic(),
            LookChoice::Default => Look::default(),
            LookChoice::Spring => Look::spring(),
            LookChoice::Natural => Look::natural(),
            LookChoice::Any {
                mode,
                refraction,
                slope,
                shading,
                specular,
                shininess,
                light_angle,
                spring_refraction,
                spring_transparency,
                depth,
                caustics,
                sun_elevation,
                sun_azimuth,
                water_colour,
                clarity,
                wave_height,
                dispersion,
                presence,
            } => LookSettings {
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
                lit: LitSettings {
                    presence,
                    refraction,
                    slope,
                    shading,
                    specular,
                    shininess,
                    light_angle,
                },
                classic: ClassicSettings { presence },
                spring: SpringSettings {
                    presence,
                    refraction: spring_refraction,
                    transparency: spring_transparency,
                },
            }
            .look(
                [
                    RenderMode::Lit,
                    RenderMode::Classic,
                    RenderMode::Spring,
                    RenderMode::Natural,
                ][usize::from(mode % 4)],
            ),
        }
    }
}

#[derive(Debug, Arbitrary)]
enum Op {
    New {
        width: Side,
        height: Side,
        sim_scale: u32,
    },
    /// A new pool of another size with the same solver kind, scale and edges (a window resize).
    Resize {
        width: Side,
        height: Side,
    },
    Drop {
        x: i32,
        y: i32,
        radius: u32,
        strength: i16,
    },
    Swipe {
        points: Vec<[i32; 2]>,
        radius: u32,
        strength: i16,
    },
    Rain {
        seed: u64,
        rate: f64,
        radius: (u32, u32),
        strength: (i16, i16),
    },
    Step {
        count: u8,
    },
    Render {
        look: LookChoice,
        as_u32: bool,
        /// Buffers of the wrong size, to hit the errors.
        wrong_size: bool,
    },
    StepAndRender {
        look: LookChoice,
        as_u32: bool,
    },
    PaintWall {
        x: i32,
        y: i32,
        radius: u32,
        wall: bool,
    },
    SetWall {
        x: i64,
        y: i64,
        wall: bool,
    },
    ObstacleMask {
        seed: u64,
        extra: u8,
    },
    ClearWalls,
    SetSolver(Kind),
    SetBoundary {
        absorb: bool,
    },
    AddGenerator {
        from: [i32; 2],
        to: [i32; 2],
        period: f32,
        amplitude: f32,
        start: u64,
        end: Option<u64>,
    },
    ClearGenerators,
    Calm,
    SetHeight {
        x: i32,
        y: i32,
        value: f32,
    },
    DampingShift(u32),
    WaveSpeed(f32),
    WaveDamping(f32),
    Gravity(f32),
    Springs {
        stiffness: f32,
        viscosity: f32,
    },
    Spread {
        spread: f32,
        passes: u32,
    },
    SpringMaps {
        seed: u64,
        low: f32,
        high: f32,
        extra: u8,
    },
    /// A body: placed at `(x, y)` (a fingertip if `fingertip`), or along `path` when it has
    /// points.
    AddBody {
        x: f32,
        y: f32,
        path: Vec<[f32; 2]>,
        speed: f32,
        start: u64,
        radius: u32,
        strength: i16,
        fingertip: bool,
    },
    /// Moves the body added `index`-th (modulo those added), which may be gone.
    MoveBody {
        index: u8,
        x: f32,
        y: f32,
    },
    RemoveBody {
        index: u8,
    },
    ClearBodies,
    /// A float, with a thickness, a lift and a throw when given.
    AddFloat {
        x: f32,
        y: f32,
        radius: u32,
        density: f32,
        thickness: Option<f32>,
        lift: Option<f32>,
        throw: Option<[f32; 3]>,
    },
    RemoveFloat {
        index: u8,
    },
    ClearFloats,
    /// A whole scene played on a small pool, its events not clipped to the pool (the command
    /// clips drops and swipes; a library caller need not).
    PlayScene(Box<SceneOp>),
    /// The renderer on its own, with a field of any shape and any scale.
    RawRender {
        image_width: u8,
        image_height: u8,
        grid_width: u8,
        grid_height: u8,
        scale: u8,
        float: bool,
        look: LookChoice,
    },
}

#[derive(Debug, Arbitrary)]
struct SceneOp {
    width: u8,
    height: u8,
    kind: Kind,
    sim_scale: u8,
    steps_per_frame: u8,
    frames: u8,
    absorb: bool,
    seed: u64,
    drops: Vec<(u8, i32, i32, u32, i16)>,
    swipes: Vec<SwipeOp>,
    sources: Vec<SourceOp>,
    rain: Option<RainOp>,
    render: u8,
    fused: bool,
    /// The dispersive solver's gravity (any value; the scene's validation judges it).
    gravity: Option<f32>,
    floats: Vec<FloatOp>,
}

/// A scene's float: x, y, radius, density, thickness, start.
#[derive(Debug, Arbitrary)]
struct FloatOp(f32, f32, u32, f32, Option<f32>, u8);

/// A scene's swipe: frame, duration, points, radius, strength.
#[derive(Debug, Arbitrary)]
struct SwipeOp(u8, u8, Vec<[i32; 2]>, u32, i16);

/// A scene's generator: ends, period, amplitude, start, end, and whether it is a point.
#[derive(Debug, Arbitrary)]
struct SourceOp([i32; 2], [i32; 2], f32, f32, u8, Option<u8>, bool);

/// A scene's rain: rate, radius and strength ranges, start, end.
#[derive(Debug, Arbitrary, Clone, Copy)]
struct RainOp(f64, [u32; 2], [i16; 2], u8, Option<u8>);

/// Builds the scene (any values; `SceneRunner::new` validates them) and plays every frame.
fn play_scene(op: &SceneOp) {
    let scene = Scene {
        frames: 1 + u32::from(op.frames % 12),
        steps_per_frame: 1 + u32::from(op.steps_per_frame % 4),
        sim_scale: u32::from(op.sim_scale % 5),
        solver: (&op.kind).into(),
        boundary: if op.absorb {
            Boundary::Absorb
        } else {
            Boundary::Reflect
        },
        seed: op.seed,
        render: [RenderMode::Lit, RenderMode::Classic, RenderMode::Spring]
            [usize::from(op.render % 3)],
        drops: op
            .drops
            .iter()
            .map(|&(frame, x, y, radius, strength)| DropEvent {
                frame: u32::from(frame % 12),
                x,
                y,
                radius,
                strength,
            })
            .collect(),
        swipes: op
            .swipes
            .iter()
            .map(
                |SwipeOp(frame, duration, points, radius, strength)| SwipeEvent {
                    frame: u32::from(frame % 12),
                    duration: u32::from(*duration % 8),
                    points: points.clone(),
                    radius: radius % (MAX_SWIPE_RADIUS + 1),
                    strength: *strength,
                },
            )
            .collect(),
        sources: op
            .sources
            .iter()
            .map(
                |&SourceOp(from, to, period, amplitude, start, end, point)| SourceEvent {
                    x: point.then_some(from[0]),
                    y: point.then_some(from[1]),
                    x0: (!point).then_some(from[0]),
                    y0: (!point).then_some(from[1]),
                    x1: (!point).then_some(to[0]),
                    y1: (!point).then_some(to[1]),
                    period,
                    amplitude,
                    start: u32::from(start % 12),
                    end: end.map(|end| u32::from(end % 16)),
                },
            )
            .collect(),
        rain: op
            .rain
            .map(|RainOp(rate, radius, strength, start, end)| RainSpec {
                rate: rate.min(50.0),
                radius,
                strength,
                start: u32::from(start % 12),
                end: end.map(|end| u32::from(end % 16)),
            }),
        gravity: op.gravity.unwrap_or(Scene::default().gravity),
        floats: op
            .floats
            .iter()
            .map(
                |&FloatOp(x, y, radius, density, thickness, start)| FloatEvent {
                    x,
                    y,
                    radius,
                    density,
                    thickness,
                    start: u32::from(start % 12),
                },
            )
            .collect(),
        ..Scene::default()
    };
    let valid = scene.validate().is_ok();
    let (width, height) = (u32::from(op.width % 49), u32::from(op.height % 49));
    let runner = SceneRunner::new(scene, width, height);
    let size_ok = width > 0 && height > 0;
    assert_eq!(runner.is_ok(), valid && size_ok, "{:?}", runner.err());
    let Ok(mut runner) = runner else {
        return;
    };
    let image = ripples::pool_tiles(width, height).expect("tiles of a runner's pool size");
    let mut frame = vec![0u8; image.len()];
    while !runner.is_finished() {
        check_floats(runner.pool());
        if op.fused {
            runner.advance_and_render(&image, &mut frame).unwrap();
        } else {
            runner.advance();
            runner.render(&image, &mut frame).unwrap();
        }
    }
}

struct State {
    pool: Option<Pool>,
    image: Vec<u8>,
    frame: Vec<u8>,
    /// The bodies and floats added to the pool, gone or not.
    bodies: Vec<BodyId>,
    floats: Vec<FloatId>,
}

impl State {
    fn adopt(&mut self, pool: Pool) {
        self.bodies.clear();
        self.floats.clear();
        self.image =
            ripples::pool_tiles(pool.width(), pool.height()).expect("tiles of a pool's size");
        self.frame = vec![0; self.image.len()];
        self.pool = Some(pool);
    }
}

/// Whether a size would pass the checks yet be too big to fuzz quickly.
fn too_slow(width: u32, height: u32) -> bool {
    limits::check_size(u64::from(width), u64::from(height)).is_ok()
        && u64::from(width) * u64::from(height) > MAX_FUZZ_PIXELS
}

/// A pseudo-random sequence of values in `0..=1`, from a seed.
fn unit_values(seed: u64, count: usize) -> Vec<f32> {
    let mut random = ripples::SplitMix64::new(seed);
    (0..count).map(|_| random.unit() as f32).collect()
}

fn apply(state: &mut State, op: &Op) {
    if let Op::New {
        width,
        height,
        sim_scale,
    } = op
    {
        if too_slow(width.0, height.0) {
            return;
        }
        if let Ok(pool) = Pool::with_sim_scale(width.0, height.0, *sim_scale) {
            state.adopt(pool);
        }
        return;
    }
    if let Op::PlayScene(scene) = op {
        play_scene(scene);
        return;
    }
    if let Op::RawRender {
        image_width,
        image_height,
        grid_width,
        grid_height,
        scale,
        float,
        look,
    } = op
    {
        raw_render(
            usize::from(*image_width),
            usize::from(*image_height),
            usize::from(*grid_width),
            usize::from(*grid_height),
            u32::from(*scale),
            *float,
            &look.look(),
        );
        return;
    }
    let Some(pool) = state.pool.as_mut() else {
        return;
    };
    match op {
        Op::New { .. } | Op::PlayScene(_) | Op::RawRender { .. } => {
            unreachable!("handled above")
        }
        Op::Resize { width, height } => {
            if too_slow(width.0, height.0) {
                return;
            }
            let (kind, boundary) = (pool.solver().kind(), pool.boundary());
            if let Ok(mut resized) = Pool::with_sim_scale(width.0, height.0, pool.sim_scale()) {
                resized
                    .set_solver(kind)
                    .expect("a solver of any kind fits a pool that was built");
                resized.set_boundary(boundary);
                state.adopt(resized);
            }
        }
        Op::Drop {
            x,
            y,
            radius,
            strength,
        } => {
            let accepted = pool.drop_stone(*x, *y, *radius, *strength).is_ok();
            assert_eq!(accepted, stone_is_valid(*radius, *strength));
        }
        Op::Swipe {
            points,
            radius,
            strength,
        } => {
            let radius = radius % (MAX_SWIPE_RADIUS + 1);
            let accepted = pool.swipe(points, radius, *strength).is_ok();
            assert_eq!(
                accepted,
                stone_is_valid(radius, *strength) && !points.is_empty()
            );
        }
        Op::Rain {
            seed,
            rate,
            radius,
            strength,
        } => {
            let rain = Rain::new(*seed)
                .with_rate(rate.min(50.0))
                .and_then(|rain| rain.with_radius(radius.0, radius.1))
                .and_then(|rain| rain.with_strength(strength.0, strength.1));
            if let Ok(mut rain) = rain {
                let (width, height) = (pool.width(), pool.height());
                for stone in rain.stones(width, height) {
                    assert!(stone.x >= 0 && (stone.x as u32) < width);
                    assert!(stone.y >= 0 && (stone.y as u32) < height);
                    pool.drop(stone)
                        .expect("rain makes only stones the pool accepts");
                }
            }
        }
        Op::Step { count } => {
            for _ in 0..=count % 8 {
                pool.step();
                check_floats(pool);
            }
        }
        Op::AddBody {
            x,
            y,
            path,
            speed,
            start,
            radius,
            strength,
            fingertip,
        } => {
            let body = match (path.is_empty(), fingertip) {
                (false, _) => Body::along_path(path.clone(), *speed, *start, *radius, *strength),
                (true, true) => Body::fingertip(*x, *y, *radius, *strength),
                (true, false) => Body::placed(*x, *y, *radius, *strength),
            };
            let finite = |[x, y]: [f32; 2]| x.is_finite() && y.is_finite();
            let valid = stone_is_valid(*radius, *strength)
                && if path.is_empty() {
                    finite([*x, *y])
                } else {
                    path.iter().all(|&point| finite(point)) && speed.is_finite() && *speed > 0.0
                };
            assert_eq!(body.is_ok(), valid, "{body:?}");
            if let Ok(body) = body {
                let id = pool.add_body(body).expect("a body that was built is accepted");
                state.bodies.push(id);
            }
        }
        Op::MoveBody { index, x, y } => {
            if let Some(&id) = nth(&state.bodies, *index) {
                let known = pool.body(id).is_some();
                let moved = pool.set_body_position(id, *x, *y);
                assert_eq!(moved.is_ok(), known && x.is_finite() && y.is_finite());
            }
        }
        Op::RemoveBody { index } => {
            if let Some(&id) = nth(&state.bodies, *index) {
                let count = pool.body_count();
                let removed = pool.remove_body(id).is_some();
                assert_eq!(pool.body_count(), count - usize::from(removed));
                assert!(pool.body(id).is_none());
            }
        }
        Op::ClearBodies => {
            pool.clear_bodies();
            assert_eq!(pool.body_count(), 0);
        }
        Op::AddFloat {
            x,
            y,
            radius,
            density,
            thickness,
            lift,
            throw,
        } => {
            let mut float = Float::new(*x, *y, *radius, *density);
            let valid = (1..=limits::MAX_RADIUS).contains(radius)
                && (ripples::MIN_FLOAT_DENSITY..1.0).contains(density)
                && x.is_finite()
                && y.is_finite();
            assert_eq!(float.is_ok(), valid, "{float:?}");
            if let Some(thickness) = thickness {
                float = float.and_then(|float| float.with_thickness(*thickness));
            }
            if let Some(lift) = lift {
                float = float.and_then(|float| float.lifted(*lift));
            }
            if let Ok(float) = float {
                let id = pool.add_float(float).expect("a float that was built is accepted");
                state.floats.push(id);
                if let Some(throw) = throw {
                    let thrown = pool.set_float_velocity(id, *throw);
                    assert_eq!(thrown.is_ok(), throw.iter().all(|v| v.is_finite()));
                }
                check_floats(pool);
            }
        }
        Op::RemoveFloat { index } => {
            if let Some(&id) = nth(&state.floats, *index) {
                let count = pool.float_count();
                let removed = pool.remove_float(id).is_some();
                assert_eq!(pool.float_count(), count - usize::from(removed));
                assert!(pool.float(id).is_none());
            }
        }
        Op::ClearFloats => {
            pool.clear_floats();
            assert_eq!(pool.float_count(), 0);
        }
        Op::Render {
            look,
            as_u32,
            wrong_size,
        } => {
            let look = look.look();
            if *wrong_size {
                let mut short = vec![0u8; state.frame.len().saturating_sub(4)];
                assert!(matches!(
                    pool.render(&look, &state.image, &mut short),
                    Err(ripples::Error::BufferSize {
                        what: "destination frame",
                        ..
                    })
                ));
                return;
            }
            let valid = look.validate().is_ok();
            if *as_u32 {
                let src: Vec<u32> = state
                    .image
                    .chunks_exact(4)
                    .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
                    .collect();
                let mut dst = vec![0u32; src.len()];
                let result = pool.render_u32(&look, &src, &mut dst);
                assert_eq!(result.is_ok(), valid, "{result:?}");
            } else {
                state.frame.fill(0);
                let result = pool.render(&look, &state.image, &mut state.frame);
                assert_eq!(result.is_ok(), valid, "{result:?}");
                if valid {
                    check_classic_frame(pool, &look, &state.image, &state.frame);
                } else {
                    assert!(
                        state.frame.iter().all(|&byte| byte == 0),
                        "a refused look drew"
                    );
                }
            }
        }
        Op::StepAndRender { look, as_u32 } => {
            let look = look.look();
            if *as_u32 {
                let src: Vec<u32> = state
                    .image
                    .chunks_exact(4)
                    .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
                    .collect();
                let mut dst = vec![0u32; src.len()];
                let result = pool.step_and_render_u32(&look, &src, &mut dst);
                assert_eq!(result.is_ok(), look.validate().is_ok(), "{result:?}");
            } else {
                let result = pool.step_and_render(&look, &state.image, &mut state.frame);
                assert_eq!(result.is_ok(), look.validate().is_ok(), "{result:?}");
                if result.is_ok() {
                    check_classic_frame(pool, &look, &state.image, &state.frame);
                }
            }
        }
        Op::PaintWall { x, y, radius, wall } => {
            let accepted = pool.paint_wall(*x, *y, *radius, *wall).is_ok();
            assert_eq!(accepted, (1..=limits::MAX_RADIUS).contains(radius));
        }
        Op::SetWall { x, y, wall } => pool.obstacles_mut().set(*x, *y, *wall),
        Op::ObstacleMask { seed, extra } => {
            let pixels = pool.width() as usize * pool.height() as usize;
            // Usually the right length; sometimes a wrong one, which must be refused.
            let length = if extra % 4 == 0 {
                pixels + usize::from(*extra % 3) + 1
            } else {
                pixels
            };
            let mask: Vec<bool> = unit_values(*seed, length)
                .iter()
                .map(|&v| v < 0.3)
                .collect();
            let result = pool.set_obstacle_mask(&mask);
            assert_eq!(result.is_ok(), length == pixels);
        }
        Op::ClearWalls => pool.obstacles_mut().clear(),
        Op::SetSolver(kind) => pool
            .set_solver(kind.into())
            .expect("a solver of any kind fits a pool that was built"),
        Op::SetBoundary { absorb } => pool.set_boundary(if *absorb {
            Boundary::Absorb
        } else {
            Boundary::Reflect
        }),
        Op::AddGenerator {
            from,
            to,
            period,
            amplitude,
            start,
            end,
        } => {
            let generator = Generator {
                from: *from,
                to: *to,
                period: *period,
                amplitude: *amplitude,
                start: *start,
                end: *end,
            };
            let valid = generator.validate().is_ok();
            assert_eq!(pool.add_generator(generator).is_ok(), valid);
        }
        Op::ClearGenerators => pool.clear_generators(),
        Op::Calm => pool.calm(),
        Op::SetHeight { x, y, value } => pool.solver_mut().set_height(*x, *y, *value),
        Op::DampingShift(shift) => {
            if let Solver::Classic(classic) = pool.solver_mut() {
                let result = classic.set_damping_shift(*shift);
                assert_eq!(result.is_ok(), (1..=15).contains(shift));
            }
        }
        Op::WaveSpeed(speed) => {
            if let Solver::Wave(wave) = pool.solver_mut() {
                let _ = wave.set_wave_speed(*speed);
            }
        }
        Op::WaveDamping(damping) => match pool.solver_mut() {
            Solver::Wave(wave) => {
                let result = wave.set_damping(*damping);
                assert_eq!(result.is_ok(), (0.0..1.0).contains(damping));
            }
            Solver::Dispersive(dispersive) => {
                let result = dispersive.set_damping(*damping);
                assert_eq!(result.is_ok(), (0.0..1.0).contains(damping));
            }
            _ => {}
        },
        Op::Gravity(gravity) => {
            if let Solver::Dispersive(dispersive) = pool.solver_mut() {
                let result = dispersive.set_gravity(*gravity);
                let valid =
                    gravity.is_finite() && *gravity > 0.0 && *gravity <= ripples::MAX_GRAVITY;
                assert_eq!(result.is_ok(), valid);
            }
        }
        Op::Springs {
            stiffness,
            viscosity,
        } => {
            if let Solver::Spring(spring) = pool.solver_mut() {
                let _ = spring.set_springs(*stiffness, *viscosity);
            }
        }
        Op::Spread { spread, passes } => {
            if let Solver::Spring(spring) = pool.solver_mut() {
                let _ = spring.set_spread(*spread, *passes);
            }
        }
        Op::SpringMaps {
            seed,
            low,
            high,
            extra,
        } => {
            if let Solver::Spring(spring) = pool.solver_mut() {
                let cells = spring.width() as usize * spring.height() as usize;
                let length = if extra % 5 == 0 { cells + 1 } else { cells };
                let grey: Vec<u8> = unit_values(*seed, length)
                    .iter()
                    .map(|&v| (v * 255.0) as u8)
                    .collect();
                let map = ripples::map_from_grey(&grey, *low, *high);
                let _ = match extra % 3 {
                    0 => spring.set_stiffness_map(&map),
                    1 => spring.set_viscosity_map(&map),
                    _ => spring.set_spring_maps(&map, &map),
                };
            }
        }
    }
}

/// The `index`-th of `ids` (modulo their number), if any.
fn nth<T>(ids: &[T], index: u8) -> Option<&T> {
    (!ids.is_empty()).then(|| &ids[usize::from(index) % ids.len()])
}

/// Every float lies on its pool's grid, with finite height and velocity within the floats'
/// limit.
fn check_floats(pool: &Pool) {
    let scale = pool.sim_scale() as f32;
    let (width, height) = (
        pool.solver().width() as f32 * scale,
        pool.solver().height() as f32 * scale,
    );
    let speed = ripples::MAX_FLOAT_SPEED * pool.sim_scale() as f32;
    for float in pool.floats() {
        let [x, y] = float.position();
        assert!(
            (0.0..width).contains(&x) && (0.0..height).contains(&y),
            "a float left the {width}x{height} pool: ({x}, {y})"
        );
        assert!(float.bottom().is_finite());
        assert!(
            float.velocity().iter().all(|v| v.abs() <= speed),
            "{:?}",
            float.velocity()
        );
    }
}

/// What the pool's stone methods accept: a radius in `1..=MAX_RADIUS`, a strength in
/// `0..=MAX_STRENGTH`.
fn stone_is_valid(radius: u32, strength: i16) -> bool {
    (1..=limits::MAX_RADIUS).contains(&radius) && strength >= 0
}

/// The classic look over the classic solver at full resolution copies source pixels: every
/// pixel of the frame must be one of the image's, but for the walls, which are drawn as stone,
/// and the floor along their foot, which they shade (within 5 pixels of a wall cell).
fn check_classic_frame(pool: &Pool, look: &Look, image: &[u8], frame: &[u8]) {
    if look.kind() != RenderMode::Classic
        || pool.sim_scale() != 1
        || !matches!(pool.solver().heights(), Heights::I16(_))
    {
        return;
    }
    let (width, height) = (pool.width() as usize, pool.height() as usize);
    let mut near_wall = vec![false; width * height];
    let walls = pool.obstacles().cells();
    for (cell, _) in walls.iter().enumerate().filter(|(_, wall)| **wall) {
        let (x, y) = (cell % width, cell / width);
        for ny in y.saturating_sub(5)..(y + 6).min(height) {
            for nx in x.saturating_sub(5)..(x + 6).min(width) {
                near_wall[ny * width + nx] = true;
            }
        }
    }
    let source: std::collections::HashSet<&[u8]> = image.chunks_exact(4).collect();
    for (pixel, _) in frame
        .chunks_exact(4)
        .zip(&near_wall)
        .filter(|(_, near)| !**near)
    {
        assert!(
            source.contains(pixel),
            "the classic look made pixel {pixel:?}, which is not in the source"
        );
    }
}

/// Renders a field of any shape at any scale with a fresh renderer: a mismatch must be an
/// error, a match must fill the frame.
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
    let (ints, floats) = (vec![7i16; cells], vec![-3.5f32; cells]);
    let heights = if float {
        Heights::F32(&floats)
    } else {
        Heights::I16(&ints)
    };
    let velocities = vec![1.0f32; cells];
    let field = FieldView {
        heights,
        velocities: Some(&velocities),
        width: grid_width,
        height: grid_height,
    };
    let src = vec![[1u8, 2, 3, 4]; image_width * image_height];
    let mut dst = vec![[0u8; 4]; src.len()];
    let mut renderer = Renderer::new(image_width, grid_width);
    // A frame 0 pixels wide has no rows the renderer could count.
    let rows = if image_width == 0 { 0 } else { image_height };
    let fits = scale > 0
        && grid_width == image_width.div_ceil(scale as usize)
        && grid_height == rows.div_ceil(scale as usize);
    let result = renderer.render(field, scale, look, &src, &mut dst, image_width);
    assert_eq!(
        result.is_ok(),
        fits && look.validate().is_ok(),
        "{result:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let mut input = Unstructured::new(data);
    let mut state = State {
        pool: None,
        image: Vec::new(),
        frame: Vec::new(),
        bodies: Vec::new(),
        floats: Vec::new(),
    };
    // Most sequences start from a small pool, so that the operations after it do something.
    if let Ok(pool) = Pool::new(24, 18) {
        state.adopt(pool);
    }
    let mut budget = 64;
    while budget > 0 && !input.is_empty() {
        budget -= 1;
        let Ok(op) = Op::arbitrary(&mut input) else {
            break;
        };
        apply(&mut state, &op);
    }
});
