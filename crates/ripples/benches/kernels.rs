//! Criterion benchmarks of the hot loops: each row kernel on every backend this CPU has, and
//! whole 1920x1080 frames through `Pool`.
//!
//! Row kernels (the classic step and render, the lit look, the classic look over gradient rows,
//! the upsampling of a coarser grid, the natural look's samplers) are benchmarked one row at a
//! time because a row is the unit every backend implements (see `ripples::kernels`): a
//! regression in one backend's kernel shows here without
//! the noise of threads and strips. The whole-frame benchmarks then show what the strips, the
//! dispatch and the memory traffic add on top. The field is turbulent (stones from a fixed
//! xorshift32 stream, then steps), so the render's gathers land where real water sends them.
//! Measurement is kept short (`cargo bench -p ripples --bench kernels`); `ripples bench` is the
//! tool for careful whole-program figures.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ripples::kernels::{self, Backend};
use ripples::{Heights, Look, Pool};

const WIDTH: u32 = 1920;
const HEIGHT: u32 = 1080;

/// A 1920x1080 pool of the classic solver with a rough field: the `ripples bench` recipe (xorshift32 from 12345,
/// `w*h/256 + 1` stones, then 16 stones and steps).
fn turbulent_pool() -> Pool {
    let mut pool = Pool::new(WIDTH, HEIGHT).expect("1920x1080 is a valid size");
    // The classic solver, whose integer rows the row kernels take (the pool's default is the
    // dispersive one).
    pool.set_solver(ripples::SolverKind::Classic)
        .expect("a new pool takes any solver");
    let mut state: u32 = 12345;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let mut stone = |pool: &mut Pool| {
        let (x, y) = (next() % WIDTH, next() % HEIGHT);
        let (radius, strength) = (1 + next() % 8, 32 + next() % 97);
        pool.drop_stone(x as i32, y as i32, radius, strength as i16)
            .expect("radius 1..=8 and strength 32..=128 are valid");
    };
    for _ in 0..WIDTH * HEIGHT / 256 + 1 {
        stone(&mut pool);
    }
    for _ in 0..16 {
        stone(&mut pool);
        pool.step();
    }
    pool
}

fn row_kernels(c: &mut Criterion) {
    let pool = turbulent_pool();
    let Heights::I16(heights) = pool.solver().heights() else {
        unreachable!("the pool's solver is the classic one")
    };
    let width = WIDTH as usize;
    let y = HEIGHT as usize / 2;
    let rows = |y: usize| &heights[y * width..(y + 1) * width];
    let (up, mid, down) = (rows(y - 1), rows(y), rows(y + 1));
    let src = ripples::pool_tiles(WIDTH, HEIGHT).unwrap();
    let src: &[[u8; 4]] = bytemuck::cast_slice(&src);
    let mut dst = vec![[0u8; 4]; width];
    let mut out = rows(y).to_vec();
    let (mut gx, mut gy) = (vec![0.0f32; width], vec![0.0f32; width]);
    kernels::gradient_row(up, mid, down, &mut gx, &mut gy);
    let lit = ripples::LitSettings::default().lit_look();
    // The gradient of the row below, for blends between two gradient rows.
    let (mut gx_below, mut gy_below) = (vec![0.0f32; width], vec![0.0f32; width]);
    kernels::gradient_row(mid, down, rows(y + 2), &mut gx_below, &mut gy_below);
    // A grid twice as coarse as the image, upsampled along x.
    let grid_row: Vec<f32> = gx.iter().step_by(2).copied().collect();
    let grid_columns = kernels::GridColumns::new(width, grid_row.len(), 2);
    let mut upsampled = vec![0.0f32; width];
    // What the renders read: row `y` of the tiles, and the gradients blended a quarter of the way
    // to the row below's.
    let source = kernels::SourceRow {
        src,
        y,
        height: HEIGHT as usize,
    };
    let blend = |top, bottom| kernels::BlendedRow {
        top,
        bottom,
        weight: 0.25,
    };
    let blended = [blend(&gx[..], &gx_below[..]), blend(&gy[..], &gy_below[..])];
    // Where the natural look samples its floor (displaced by the gradient) and its sky.
    let floor_x: Vec<f32> = (0..width).map(|x| x as f32 + 0.37 * gx[x]).collect();
    let floor_y: Vec<f32> = gy.iter().map(|g| y as f32 + 0.37 * g).collect();
    let half_sky = kernels::natural::SKY_SIDE as f32 / 2.0;
    let sky_x: Vec<f32> = gx.iter().map(|g| half_sky - 0.01 * g * half_sky).collect();
    let sky_y: Vec<f32> = gy.iter().map(|g| half_sky - 0.01 * g * half_sky).collect();
    let mut sky = vec![[0u8; 4]; kernels::natural::SKY_SIDE * kernels::natural::SKY_SIDE];
    kernels::natural::gradient_sky(&mut sky);

    let mut group = c.benchmark_group("row");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .throughput(Throughput::Elements(WIDTH.into()));
    for backend in Backend::available() {
        group.bench_function(format!("classic_step/{backend}"), |b| {
            b.iter(|| {
                kernels::classic_step_row(backend, up, mid, down, black_box(&mut out), 5);
            })
        });
        group.bench_function(format!("classic_render/{backend}"), |b| {
            b.iter(|| {
                kernels::classic_render_row(backend, source, [up, mid, down], black_box(&mut dst));
            })
        });
        group.bench_function(format!("lit_render/{backend}"), |b| {
            b.iter(|| {
                kernels::lit_render_row(backend, source, [&gx, &gy], black_box(&mut dst), &lit);
            })
        });
        group.bench_function(format!("resampled_classic/{backend}"), |b| {
            b.iter(|| {
                kernels::resampled_classic_row(backend, source, [&gx, &gy], black_box(&mut dst));
            })
        });
        group.bench_function(format!("resampled_classic_blended/{backend}"), |b| {
            b.iter(|| {
                kernels::resampled_classic_blended_row(
                    backend,
                    source,
                    blended,
                    black_box(&mut dst),
                );
            })
        });
        group.bench_function(format!("upsample/{backend}"), |b| {
            b.iter(|| {
                kernels::upsample_row(backend, &grid_row, &grid_columns, black_box(&mut upsampled));
            })
        });
        group.bench_function(format!("natural_bilinear/{backend}"), |b| {
            b.iter(|| {
                kernels::natural::bilinear_row_on(
                    backend,
                    src,
                    width,
                    HEIGHT as usize,
                    &floor_x,
                    &floor_y,
                    black_box(&mut dst),
                );
            })
        });
        group.bench_function(format!("natural_nearest/{backend}"), |b| {
            b.iter(|| {
                kernels::natural::nearest_row_on(
                    backend,
                    &sky,
                    kernels::natural::SKY_SIDE,
                    &sky_x,
                    &sky_y,
                    black_box(&mut dst),
                );
            })
        });
    }
    group.finish();
}

fn whole_frames(c: &mut Criterion) {
    let start = turbulent_pool();
    let src = ripples::pool_tiles(WIDTH, HEIGHT).unwrap();
    let mut dst = vec![0u8; src.len()];
    let detected = kernels::backend();

    let mut group = c.benchmark_group("frame_1920x1080");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(u64::from(WIDTH * HEIGHT)));
    for backend in Backend::available() {
        kernels::set_backend(backend).expect("an available backend");
        let mut pool = start.clone();
        group.bench_function(format!("step/{backend}"), |b| b.iter(|| pool.step()));
        for (name, look) in [("classic", Look::classic()), ("default", Look::default())] {
            let mut pool = start.clone();
            group.bench_function(format!("render_{name}/{backend}"), |b| {
                b.iter(|| {
                    pool.render(&look, &src, black_box(&mut dst))
                        .expect("buffers of the pool's size")
                })
            });
        }
    }
    kernels::set_backend(detected).expect("the detected backend");
    group.finish();
}

criterion_group!(benches, row_kernels, whole_frames);
criterion_main!(benches);
