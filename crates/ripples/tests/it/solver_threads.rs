//! The wave and spring solvers split a step into strips of rows run on rayon's threads. The
//! result must not depend on the number of threads (nor on where the strips end): a few hundred
//! steps of rough water give the same bits on 1 thread, on the default pool and on 3 threads,
//! with walls, a sponge, per-cell springs and several substeps or passes. The spring step,
//! which fuses its sweeps, is also checked against the plain sweep-by-sweep step with walls.

#![cfg(feature = "parallel")]

use ripples::{Obstacles, SplitMix64, Sponge, SpringSolver, WaterSolver, WaveSolver};

/// 256 x 512 cells: strips of at least 32,768 cells make 4 strips on 3 threads.
const WIDTH: usize = 256;
const HEIGHT: usize = 512;

fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(work)
}

fn bits(values: &[f32]) -> Vec<u32> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// A wall with a gap across the pool, and a round rock.
fn walls() -> Obstacles {
    let mut walls = Obstacles::new(WIDTH, HEIGHT).unwrap();
    for x in 0..WIDTH as i64 {
        if !(100..120).contains(&x) {
            walls.set(x, 300, true);
        }
    }
    walls.set_disk(60, 120, 9, true);
    walls
}

/// `steps` steps of rough water: many stones at the start, a few more every step.
fn run_wave(
    mut water: WaveSolver,
    walls: &Obstacles,
    sponge: Option<&Sponge>,
    steps: usize,
) -> Vec<u32> {
    let mut random = SplitMix64::new(3);
    let mut stone = |water: &mut WaveSolver| {
        let x = random.below(WIDTH as u32) as i32;
        let y = random.below(HEIGHT as u32) as i32;
        water.drop_stone(
            x,
            y,
            random.between(1, 8) as u32,
            random.between(-50, 150) as f32,
        );
    };
    for _ in 0..300 {
        stone(&mut water);
    }
    for _ in 0..steps {
        stone(&mut water);
        water.step(walls, sponge);
    }
    let mut fields = bits(water.heights());
    fields.extend(bits(water.previous_heights()));
    assert!(
        water.heights().iter().any(|&h| h.abs() > 1.0),
        "the water moved"
    );
    fields
}

fn run_spring(
    mut water: SpringSolver,
    walls: &Obstacles,
    sponge: Option<&Sponge>,
    steps: usize,
) -> Vec<u32> {
    let mut random = SplitMix64::new(4);
    let mut stone = |water: &mut SpringSolver| {
        let x = random.below(WIDTH as u32) as i32;
        let y = random.below(HEIGHT as u32) as i32;
        water.drop_stone(
            x,
            y,
            random.between(1, 8) as u32,
            random.between(-50, 150) as f32,
        );
    };
    for _ in 0..300 {
        stone(&mut water);
    }
    for _ in 0..steps {
        stone(&mut water);
        water.step(walls, sponge);
    }
    let mut fields = bits(water.heights());
    fields.extend(bits(water.velocities()));
    assert!(
        water.heights().iter().any(|&h| h.abs() > 1.0),
        "the water moved"
    );
    fields
}

/// Runs `run` on 1 thread, on the default pool and on 3 threads, and checks all agree.
fn same_on_any_threads(what: &str, run: impl Fn() -> Vec<u32> + Send + Sync) {
    let one = on_threads(1, &run);
    let default = run();
    let three = on_threads(3, &run);
    assert!(
        one == default,
        "{what}: 1 thread and the default pool differ"
    );
    assert!(one == three, "{what}: 1 thread and 3 threads differ");
}

#[test]
fn the_wave_solver_gives_the_same_bits_on_any_number_of_threads() {
    let none = Obstacles::new(WIDTH, HEIGHT).unwrap();
    same_on_any_threads("wave, defaults", || {
        run_wave(
            WaveSolver::new(WIDTH as u32, HEIGHT as u32).unwrap(),
            &none,
            None,
            300,
        )
    });
    let walls = walls();
    let sponge = Sponge::new(WIDTH, HEIGHT);
    same_on_any_threads("wave, 3 substeps, walls, sponge", || {
        let mut water = WaveSolver::new(WIDTH as u32, HEIGHT as u32).unwrap();
        water.set_wave_speed(2.0).unwrap();
        run_wave(water, &walls, Some(&sponge), 150)
    });
}

#[test]
fn the_spring_solver_gives_the_same_bits_on_any_number_of_threads() {
    let none = Obstacles::new(WIDTH, HEIGHT).unwrap();
    same_on_any_threads("spring, defaults", || {
        run_spring(
            SpringSolver::new(WIDTH as u32, HEIGHT as u32).unwrap(),
            &none,
            None,
            300,
        )
    });
    let walls = walls();
    let sponge = Sponge::new(WIDTH, HEIGHT);
    let mut random = SplitMix64::new(5);
    let stiffness: Vec<f32> = (0..WIDTH * HEIGHT)
        .map(|_| 0.05 * random.unit() as f32)
        .collect();
    let viscosity: Vec<f32> = stiffness
        .iter()
        .map(|&k| k + 0.05 * random.unit() as f32)
        .collect();
    for passes in [1, 7, 16] {
        same_on_any_threads(
            &format!("spring, {passes} passes, maps, walls, sponge"),
            || {
                let mut water = SpringSolver::new(WIDTH as u32, HEIGHT as u32).unwrap();
                water.set_spring_maps(&stiffness, &viscosity).unwrap();
                water.set_spread(0.2, passes).unwrap();
                run_spring(water, &walls, Some(&sponge), 100)
            },
        );
    }
}

/// One spring step the plain way: the seed's loops sweep by sweep over the whole grid, with
/// the walls dried after the springs and after every sweep, the border set to rest and the
/// sponge applied at the end (the order the solver documents).
#[allow(clippy::too_many_arguments)]
fn sweep_by_sweep_step(
    h: &mut [f32],
    w: &mut [f32],
    k: &[f32],
    m: &[f32],
    spread: f32,
    passes: u32,
    walls: &Obstacles,
    sponge: &Sponge,
) {
    let (nx, ny) = (WIDTH, HEIGHT);
    let flush = |v: f32| if v.abs() < 1e-12 { 0.0 } else { v };
    let dry = |h: &mut [f32], w: &mut [f32]| {
        walls.dry(h, 0.0);
        walls.dry(w, 0.0);
    };
    for i in 0..nx * ny {
        let x = h[i];
        let acceleration = -k[i] * x - m[i] * w[i];
        h[i] = flush(h[i] + w[i]);
        w[i] = flush(w[i] + acceleration);
    }
    dry(h, w);
    let (mut lp, mut rp) = (vec![0.0f32; nx * ny], vec![0.0f32; nx * ny]);
    for _ in 0..passes {
        for (stride, givers) in [(1, 0..ny * nx), (nx, nx..(ny - 1) * nx)] {
            let is_giver = |i: usize| stride == nx || (1..nx - 1).contains(&(i % nx));
            for i in givers.clone().filter(|&i| is_giver(i)) {
                lp[i] = spread * (h[i] - h[i - stride]);
                w[i - stride] += lp[i];
                rp[i] = spread * (h[i] - h[i + stride]);
                w[i + stride] += rp[i];
            }
            for i in givers.filter(|&i| is_giver(i)) {
                h[i - stride] += lp[i];
                h[i + stride] += rp[i];
            }
            dry(h, w);
        }
    }
    for (i, (h, w)) in h.iter_mut().zip(w.iter_mut()).enumerate() {
        let (x, y) = (i % nx, i / nx);
        if x == 0 || y == 0 || x == nx - 1 || y == ny - 1 {
            (*h, *w) = (0.0, 0.0);
        }
    }
    sponge.apply_f32(h, nx, ny);
    sponge.apply_f32(w, nx, ny);
}

#[test]
fn the_fused_spring_step_equals_the_sweeps_with_walls_on_3_threads() {
    let mut random = SplitMix64::new(6);
    let k: Vec<f32> = (0..WIDTH * HEIGHT)
        .map(|_| 0.05 * random.unit() as f32)
        .collect();
    let m: Vec<f32> = k.iter().map(|&k| k + 0.05 * random.unit() as f32).collect();
    let walls = walls();
    let sponge = Sponge::new(WIDTH, HEIGHT);
    let (spread, passes) = (0.2, 5);
    let mut water = SpringSolver::new(WIDTH as u32, HEIGHT as u32).unwrap();
    water.set_spring_maps(&k, &m).unwrap();
    water.set_spread(spread, passes).unwrap();
    for _ in 0..200 {
        let x = random.below(WIDTH as u32) as i32;
        let y = random.below(HEIGHT as u32) as i32;
        water.drop_stone(
            x,
            y,
            random.between(1, 8) as u32,
            random.between(-50, 150) as f32,
        );
    }
    let mut h = water.heights().to_vec();
    let mut w = water.velocities().to_vec();
    on_threads(3, || {
        for step in 0..40 {
            water.step(&walls, Some(&sponge));
            sweep_by_sweep_step(&mut h, &mut w, &k, &m, spread, passes, &walls, &sponge);
            assert!(
                bits(water.heights()) == bits(&h),
                "heights after step {step}"
            );
            assert!(
                bits(water.velocities()) == bits(&w),
                "velocities after step {step}"
            );
        }
    });
    assert!(
        h.iter().any(|v| v.abs() > 1.0),
        "the comparison ran on a live field"
    );
}
