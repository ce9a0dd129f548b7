//! Criterion benchmark of living photographs: the photo look in perspective against the natural
//! look over the same picture seen from above, and the solver's step on the plane grid against
//! the picture-sized one (`cargo bench -p ripples --bench photo`).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ripples::{Look, Pool};

/// A living photograph: a 1280x720 picture whose lower two thirds are water with its horizon at
/// row 200, rained on, beside the same picture as top-down water with the natural look. The
/// photo look runs one scalar kernel on every backend, so it is timed once.
fn photo_frames(c: &mut Criterion) {
    let (width, height) = (1280, 720);
    let src = ripples::pool_tiles(width, height).unwrap();
    let mut dst = vec![0u8; src.len()];
    let mask: Vec<bool> = (0..width * height).map(|i| i / width >= 240).collect();
    let rain_on = |mut pool: Pool| {
        let mut rain = ripples::Rain::new(5).with_rate(40.0).unwrap();
        for _ in 0..30 {
            let (rain_width, rain_height) = pool.rain_area();
            for stone in rain.stones(rain_width, rain_height) {
                pool.drop_rain(stone).unwrap();
            }
            pool.step();
        }
        pool
    };
    let rained = |perspective| {
        let mut pool = Pool::new(width, height).unwrap();
        pool.set_water(Some(&mask), perspective).unwrap();
        rain_on(pool)
    };
    let mut photo = rained(Some(ripples::Perspective::new(200.0)));
    let mut top_down = rained(None);
    // A top-down pool with as many cells as the plane's grid: what the step costs for its size.
    let (grid_width, grid_height) = (photo.solver().width(), photo.solver().height());
    let mut same_cells = rain_on(Pool::new(grid_width, grid_height).unwrap());
    let mut group = c.benchmark_group("photo_1280x720");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(u64::from(width * height)));
    let look = Look::default();
    group.bench_function("render_photo_perspective", |b| {
        b.iter(|| photo.render(&look, &src, black_box(&mut dst)).unwrap())
    });
    group.bench_function("render_natural_top_down", |b| {
        b.iter(|| top_down.render(&look, &src, black_box(&mut dst)).unwrap())
    });
    group.bench_function("step_perspective", |b| b.iter(|| photo.step()));
    group.bench_function("step_top_down", |b| b.iter(|| top_down.step()));
    group.bench_function(format!("step_top_down_{grid_width}x{grid_height}"), |b| {
        b.iter(|| same_cells.step())
    });
    group.finish();
    // The same renders in CPU time, all threads together: on a machine busy with other work the
    // wall clock says as much about the others as about the render, the CPU time less so.
    if cpu_time().is_none() {
        eprintln!("no /proc/self/task/*/schedstat here: CPU times skipped");
        return;
    }
    let mut group = c.benchmark_group("photo_1280x720_cpu_time");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    group.bench_function("render_photo_perspective", |b| {
        b.iter_custom(|iterations| {
            in_cpu_time(iterations, || {
                photo.render(&look, &src, black_box(&mut dst)).unwrap()
            })
        })
    });
    group.bench_function("render_natural_top_down", |b| {
        b.iter_custom(|iterations| {
            in_cpu_time(iterations, || {
                top_down.render(&look, &src, black_box(&mut dst)).unwrap()
            })
        })
    });
    let steps: [(&str, &mut Pool); 3] = [
        ("step_perspective", &mut photo),
        ("step_top_down", &mut top_down),
        ("step_top_down_same_cells", &mut same_cells),
    ];
    for (name, pool) in steps {
        group.bench_function(name, |b| {
            b.iter_custom(|iterations| in_cpu_time(iterations, || pool.step()))
        });
    }
    group.finish();
}

/// The CPU time `iterations` calls of `work` take, summed over the process's threads.
fn in_cpu_time(iterations: u64, mut work: impl FnMut()) -> Duration {
    let start = cpu_time().unwrap_or_default();
    for _ in 0..iterations {
        work();
    }
    cpu_time().unwrap_or_default().saturating_sub(start)
}

/// The CPU time of every thread of this process so far (Linux: the first field of each
/// thread's `schedstat`, in nanoseconds); `None` where that is not readable.
fn cpu_time() -> Option<Duration> {
    let mut total = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stats = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += stats.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(total))
}

criterion_group!(benches, photo_frames);
criterion_main!(benches);
