//! Setting a pool's field from a slice (`Solver::set_heights`, `Pool::set_heights`): the field
//! reads back, the water starts at rest with that surface and then moves as the same surface made
//! by stones does, and every wrong input is an error that names it and changes nothing.

use ripples::{Heights, Pool, Solver, SolverKind, limits::MAX_FLOAT_HEIGHT};

const KINDS: [SolverKind; 3] = [SolverKind::Classic, SolverKind::Wave, SolverKind::Spring];

/// The field of `solver` as `f64`s, whatever its element type.
fn field(solver: &Solver) -> Vec<f64> {
    match solver.heights() {
        Heights::I16(h) => h.iter().map(|&v| f64::from(v)).collect(),
        Heights::F32(h) => h.iter().map(|&v| f64::from(v)).collect(),
    }
}

/// A field of `width x height` cells with `value(x, y)` inside and 0 on the border, in the
/// element type `kind` keeps.
enum Owned {
    I16(Vec<i16>),
    F32(Vec<f32>),
}

impl Owned {
    fn make(
        kind: SolverKind,
        width: usize,
        height: usize,
        value: impl Fn(usize, usize) -> f32,
    ) -> Self {
        let inside = |i: usize| {
            let (x, y) = (i % width, i / width);
            if x == 0 || y == 0 || x + 1 == width || y + 1 == height {
                0.0
            } else {
                value(x, y)
            }
        };
        let cells = 0..width * height;
        match kind {
            SolverKind::Classic => Self::I16(cells.map(|i| inside(i).round() as i16).collect()),
            _ => Self::F32(cells.map(inside).collect()),
        }
    }

    fn heights(&self) -> Heights<'_> {
        match self {
            Self::I16(h) => Heights::I16(h),
            Self::F32(h) => Heights::F32(h),
        }
    }

    fn as_f64(&self) -> Vec<f64> {
        match self {
            Self::I16(h) => h.iter().map(|&v| f64::from(v)).collect(),
            Self::F32(h) => h.iter().map(|&v| f64::from(v)).collect(),
        }
    }
}

#[test]
fn a_set_field_reads_back_for_every_solver() {
    for kind in KINDS {
        let mut pool = Pool::new(9, 7).unwrap();
        pool.set_solver(kind).unwrap();
        let given = Owned::make(kind, 9, 7, |x, y| (x * 10 + y) as f32 - 40.0);
        pool.set_heights(given.heights()).unwrap();
        assert_eq!(field(pool.solver()), given.as_f64(), "{kind:?}");
    }
}

#[test]
fn the_water_starts_at_rest_with_the_surface() {
    let bump = |x: usize, y: usize| if (x, y) == (2, 2) { 128.0 } else { 0.0 };
    // Classic: one step from a single raised cell at rest (previous = current) on a 5x5 grid.
    // The neighbours: s = 128 >> 1 = 64, v = 64 - 0 = 64, 64 - (64 >> 5) = 62. The centre:
    // s = 0, v = 0 - 128 = -128, -128 - (-128 >> 5) = -124. (Pressed as a stone, with a
    // previous field of 0, the centre would be 0.)
    let mut classic = Solver::new(SolverKind::Classic, 5, 5).unwrap();
    classic.drop_stone(1, 1, 1, 500.0); // some other state first: it must be replaced
    classic.as_classic_mut().unwrap().step_without_walls();
    let given = Owned::make(SolverKind::Classic, 5, 5, bump);
    classic.set_heights(given.heights()).unwrap();
    classic.as_classic_mut().unwrap().step_without_walls();
    let h = classic.as_classic().unwrap().heights();
    assert_eq!([h[7], h[11], h[13], h[17], h[12]], [62, 62, 62, 62, -124]);
    assert_eq!(h[6], 0);

    // Spring: every velocity is 0 after the field is set, even if the water was moving.
    let mut spring = Solver::new(SolverKind::Spring, 9, 9).unwrap();
    spring.drop_stone(4, 4, 2, 300.0);
    for _ in 0..5 {
        spring.step(&ripples::Obstacles::new(9, 9).unwrap(), None);
    }
    assert!(spring.velocities().unwrap().iter().any(|&v| v != 0.0));
    let given = Owned::make(SolverKind::Spring, 9, 9, bump);
    spring.set_heights(given.heights()).unwrap();
    assert!(spring.velocities().unwrap().iter().all(|&v| v == 0.0));
}

/// A f32 solver started from a stone's field evolves exactly as the stone does: an f32 stone
/// presses the water at rest, and so does a set field, whatever moved before.
#[test]
fn a_set_field_evolves_as_the_same_field_made_by_a_stone() {
    for kind in [SolverKind::Wave, SolverKind::Spring] {
        let mut stone = Pool::new(48, 40).unwrap();
        stone.set_solver(kind).unwrap();
        stone.drop_stone(20, 18, 6, 300).unwrap();
        let start: Vec<f32> = match stone.solver().heights() {
            Heights::F32(h) => h.to_vec(),
            Heights::I16(_) => unreachable!("a f32 solver"),
        };

        let mut loaded = Pool::new(48, 40).unwrap();
        loaded.set_solver(kind).unwrap();
        loaded.drop_stone(30, 10, 4, 800).unwrap();
        for _ in 0..7 {
            loaded.step();
        }
        loaded.set_heights(Heights::F32(&start)).unwrap();
        for step in 0..40 {
            stone.step();
            loaded.step();
            assert_eq!(
                field(stone.solver()),
                field(loaded.solver()),
                "{kind:?} differs after step {step}"
            );
        }
    }
}

#[test]
fn a_bump_spreads_symmetrically_into_a_ring() {
    let size = 41;
    let centre = 20.0;
    let gaussian = |x: usize, y: usize| {
        let (dx, dy) = (x as f32 - centre, y as f32 - centre);
        400.0 * (-(dx * dx + dy * dy) / 3.0).exp()
    };
    for kind in KINDS {
        let mut solver = Solver::new(kind, size as u32, size as u32).unwrap();
        let given = Owned::make(kind, size, size, gaussian);
        solver.set_heights(given.heights()).unwrap();
        let walls = ripples::Obstacles::new(size, size).unwrap();
        for _ in 0..16 {
            solver.step(&walls, None);
        }
        let h = field(&solver);
        let at = |x: usize, y: usize| h[y * size + x];
        let scale = h.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(scale > 1.0, "{kind:?}: the water went flat");
        let tolerance = scale * 1e-4;
        for y in 0..size {
            for x in 0..size {
                let v = at(x, y);
                for mirrored in [at(size - 1 - x, y), at(x, size - 1 - y), at(y, x)] {
                    assert!(
                        (v - mirrored).abs() <= tolerance,
                        "{kind:?}: ({x}, {y}) = {v} but its mirror image = {mirrored}"
                    );
                }
            }
        }
        // The bump has moved outwards: the water moves 5 to 9 cells from the centre, where it
        // lay flat at the start.
        let ring = |h: &[f64]| {
            (0..size * size)
                .filter(|&i| {
                    let (dx, dy) = ((i % size) as f64 - 20.0, (i / size) as f64 - 20.0);
                    (25.0..=81.0).contains(&(dx * dx + dy * dy))
                })
                .map(|i| h[i].abs())
                .fold(0.0f64, f64::max)
        };
        assert!(
            ring(&given.as_f64()) < 0.4,
            "{kind:?}: the bump reached the ring at the start"
        );
        assert!(
            ring(&h) > scale * 0.05,
            "{kind:?}: nothing reached the ring"
        );
    }
}

#[test]
fn border_cells_and_walls_stay_at_rest() {
    for kind in KINDS {
        let mut pool = Pool::new(12, 10).unwrap();
        pool.set_solver(kind).unwrap();
        pool.obstacles_mut().set(5, 5, true);
        let everywhere = match kind {
            SolverKind::Classic => Owned::I16(vec![77; 120]),
            _ => Owned::F32(vec![77.0; 120]),
        };
        pool.set_heights(everywhere.heights()).unwrap();
        let h = field(pool.solver());
        assert_eq!(h[5 * 12 + 5], 0.0, "{kind:?}: the wall cell");
        for x in 0..12 {
            assert_eq!(
                (h[x], h[9 * 12 + x]),
                (0.0, 0.0),
                "{kind:?}: top and bottom rows"
            );
        }
        for y in 0..10 {
            assert_eq!(
                (h[y * 12], h[y * 12 + 11]),
                (0.0, 0.0),
                "{kind:?}: side columns"
            );
        }
        assert_eq!(h[2 * 12 + 3], 77.0, "{kind:?}: an inner cell");
        for _ in 0..3 {
            pool.step();
        }
        assert_eq!(
            field(pool.solver())[5 * 12 + 5],
            0.0,
            "{kind:?}: the wall after steps"
        );
    }
}

#[test]
fn wrong_fields_are_errors_that_name_them_and_change_nothing() {
    let refused = |kind: SolverKind, heights: Heights<'_>| -> String {
        let mut pool = Pool::new(6, 5).unwrap();
        pool.set_solver(kind).unwrap();
        pool.drop_stone(3, 2, 1, 100).unwrap();
        let before = field(pool.solver());
        let message = pool.set_heights(heights).unwrap_err().to_string();
        assert_eq!(field(pool.solver()), before, "{message}: the field changed");
        message
    };
    assert_eq!(
        refused(SolverKind::Classic, Heights::I16(&[0; 29])),
        "heights have 29 cells, expected 30 for the 6x5 grid"
    );
    assert_eq!(
        refused(SolverKind::Wave, Heights::F32(&[0.0; 31])),
        "heights have 31 cells, expected 30 for the 6x5 grid"
    );
    assert_eq!(
        refused(SolverKind::Classic, Heights::F32(&[0.0; 30])),
        "heights are f32, but the classic solver keeps i16 heights"
    );
    assert_eq!(
        refused(SolverKind::Wave, Heights::I16(&[0; 30])),
        "heights are i16, but the wave solver keeps f32 heights"
    );
    assert_eq!(
        refused(SolverKind::Spring, Heights::I16(&[0; 30])),
        "heights are i16, but the spring solver keeps f32 heights"
    );
    for (bad, shown) in [
        (f32::NAN, "NaN"),
        (f32::INFINITY, "inf"),
        (f32::NEG_INFINITY, "-inf"),
        (MAX_FLOAT_HEIGHT * 2.0, "2000000"),
    ] {
        let mut field = [0.0f32; 30];
        field[2 * 6 + 4] = bad;
        for kind in [SolverKind::Wave, SolverKind::Spring] {
            let message = refused(kind, Heights::F32(&field));
            assert_eq!(
                message,
                format!(
                    "height at cell (4, 2) must be a finite number within \
                     -1000000..=1000000, got {shown}"
                )
            );
        }
    }
    // The largest heights allowed are accepted.
    let mut pool = Pool::new(6, 5).unwrap();
    pool.set_solver(SolverKind::Wave).unwrap();
    let mut extreme = [0.0f32; 30];
    extreme[7] = MAX_FLOAT_HEIGHT;
    extreme[8] = -MAX_FLOAT_HEIGHT;
    pool.set_heights(Heights::F32(&extreme)).unwrap();
    let mut classic = Pool::new(6, 5).unwrap();
    classic.set_solver(SolverKind::Classic).unwrap();
    let mut integers = [0i16; 30];
    integers[7] = i16::MIN;
    integers[8] = i16::MAX;
    classic.set_heights(Heights::I16(&integers)).unwrap();
}
