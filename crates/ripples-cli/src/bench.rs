//! `ripples bench`: how fast the solver and the renderer run on this machine, and against what.
//!
//! A figure is only useful if it can be compared, so the module is shaped around comparisons:
//!
//! - **The same field everywhere.** The starting field is built from a fixed xorshift32 recipe
//!   ([`turbulent_pool`]) that another implementation can follow in a few lines, and its FNV-1a
//!   hash is printed, so two runs (or two programs) can show they timed the same water.
//! - **The user's path.** Everything goes through [`ripples::Pool`]: `drop_stone`, `step` and
//!   `render`, on the thread count asked for (a rayon pool the core's strips run on), with the
//!   backend asked for. Nothing here reaches into the core's internals, so what is timed is what
//!   a program gets.
//! - **Three timings, two fields.** `step` alone, `render` alone and `step+render` (one real
//!   frame, through [`Pool::step_and_render`], which fuses the two where it can), each on the
//!   turbulent field and on calm water, interleaved rep by rep so a busy moment on a shared
//!   machine hits both; medians, not means, for the same reason. `step` and `step+render` run
//!   their frames from the starting field, which calms as it runs (at 3840x2160 the mean
//!   displacement falls from 31 pixels to 7 over 100 frames); `render` renders the starting
//!   field every frame, the roughest case.
//! - **Thread counts compared in one run.** `--threads 1,2` times each count in turn within
//!   every repetition and reports the median of the per-repetition ratios ([`Scaling`]), so the
//!   comparison survives a neighbour's burst that would skew two separate runs.
//! - **Two yardsticks measured in the same run.** A plain scalar port of the seed article's
//!   loops ([`seed_port`]) says what the engineering bought, and a parallel memory copy
//!   ([`memory`]) says how close a frame is to what the memory bus allows.

pub mod memory;
pub mod seed_port;

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::Instant;

use anyhow::{Context, Result};
use ripples::{Heights, Look, Pool, RenderMode, SolverKind};
use serde::Serialize;

use crate::UsageError;
use crate::cli::args::BenchArgs;
use memory::{CopyBench, FrameTraffic};
use seed_port::SeedRipple;

/// State of the xorshift32 generator that draws the turbulent field's stones.
pub const FIELD_SEED: u32 = 12345;

/// Stone-and-step rounds after the first batch of stones, so the field is moving.
pub const STIR_STEPS: u32 = 16;

/// The seed port is single-threaded and slow: per repetition it runs at most this many cells
/// (frames x cells), and fewer frames than `--frames` when the pool is large (the report says so).
pub const SEED_PORT_CELL_BUDGET: u64 = 250_000_000;

/// Marsaglia's xorshift32 (shifts 13, 17, 5), the generator of the turbulent field's recipe.
#[derive(Debug, Clone)]
pub struct Xorshift32 {
    state: u32,
}

impl Xorshift32 {
    /// A generator in state `seed` (a zero state would only ever give 0).
    pub fn new(seed: u32) -> Self {
        Self { state: seed }
    }

    /// The next value: `s ^= s << 13; s ^= s >> 17; s ^= s << 5`, modulo 2^32.
    pub fn next_u32(&mut self) -> u32 {
        let mut s = self.state;
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        self.state = s;
        s
    }
}

/// 64-bit FNV-1a of `bytes`.
pub fn fnv1a64(bytes: impl IntoIterator<Item = u8>) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.into_iter().fold(OFFSET, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
}

/// FNV-1a of a field's heights, row-major, little-endian: `i16` bytes for the classic solver,
/// `f32` bytes for the others.
pub fn field_hash(heights: Heights<'_>) -> u64 {
    match heights {
        Heights::I16(h) => fnv1a64(h.iter().flat_map(|v| v.to_le_bytes())),
        Heights::F32(h) => fnv1a64(h.iter().flat_map(|v| v.to_le_bytes())),
    }
}

/// A calm pool of `width x height` pixels with the solver `kind`, simulated at `sim_scale`
/// pixels per cell.
pub fn calm_pool(width: u32, height: u32, sim_scale: u32, kind: SolverKind) -> Result<Pool> {
    let mut pool = Pool::with_sim_scale(width, height, sim_scale)?;
    if pool.solver().kind() != kind {
        pool.set_solver(kind)?;
    }
    Ok(pool)
}

/// The benchmark's turbulent field: `width * height / 256 + 1` stones, then [`STIR_STEPS`]
/// times one more stone and one step. Each stone takes four consecutive xorshift32 values
/// (state [`FIELD_SEED`]): `x = v % width`, `y = v % height`, `radius = 1 + v % 8`,
/// `strength = 32 + v % 97`, pressed with [`Pool::drop_stone`] (for the classic solver at
/// scale 1 that is the classic `drop_stone`; damping shift 5). At a simulation scale above 1
/// the stones are the same, in pixels; the pool presses them into its coarser grid.
pub fn turbulent_pool(width: u32, height: u32, sim_scale: u32, kind: SolverKind) -> Result<Pool> {
    let mut pool = calm_pool(width, height, sim_scale, kind)?;
    let mut random = Xorshift32::new(FIELD_SEED);
    for _ in 0..first_stones(width, height) {
        drop_random_stone(&mut pool, &mut random)?;
    }
    for _ in 0..STIR_STEPS {
        drop_random_stone(&mut pool, &mut random)?;
        pool.step();
    }
    Ok(pool)
}

/// Stones in the first batch of the turbulent field.
pub fn first_stones(width: u32, height: u32) -> u64 {
    u64::from(width) * u64::from(height) / 256 + 1
}

fn drop_random_stone(pool: &mut Pool, random: &mut Xorshift32) -> Result<()> {
    let (width, height) = (pool.width(), pool.height());
    let x = random.next_u32() % width;
    let y = random.next_u32() % height;
    let radius = 1 + random.next_u32() % 8;
    let strength = 32 + random.next_u32() % 97;
    // x < width <= 16384 and strength <= 128, so the conversions are exact.
    pool.drop_stone(x as i32, y as i32, radius, strength as i16)?;
    Ok(())
}

/// One real frame: a step, then a render, through the pool's fused pass where it applies.
/// Everything that times a frame calls this.
pub fn step_and_render(pool: &mut Pool, look: &Look, src: &[u8], dst: &mut [u8]) -> Result<()> {
    pool.step_and_render(look, src, dst)?;
    Ok(())
}

/// The look `--render` names, with the default parameters.
pub fn look_for(mode: RenderMode) -> Look {
    Look::of_kind(mode)
}

/// Median-of-reps speed of one kind of work.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Timing {
    /// Nanoseconds per cell (or pixel) per frame.
    pub ns_per_cell: f64,
    /// Frames per second.
    pub fps: f64,
}

impl Timing {
    fn from_median(seconds: &mut [f64], frames: u32, cells: f64) -> Self {
        let seconds = median(seconds).max(1e-9);
        Self {
            ns_per_cell: seconds * 1e9 / (f64::from(frames) * cells),
            fps: f64::from(frames) / seconds,
        }
    }
}

/// The three timings of one field.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct FrameTimings {
    /// `Pool::step` alone.
    pub step: Timing,
    /// `Pool::render` alone (of the starting field).
    pub render: Timing,
    /// A step and a render: one real frame.
    pub step_render: Timing,
}

/// Calm water, timed like the turbulent field.
#[derive(Debug, Clone, Serialize)]
pub struct CalmReport {
    /// Hash of the calm field (all zeros).
    pub field_fnv1a64: String,
    /// Its timings.
    #[serde(flatten)]
    pub timings: FrameTimings,
}

/// The scalar port of the seed article's loops.
#[derive(Debug, Clone, Serialize)]
pub struct SeedPortReport {
    /// Frames timed per repetition (fewer than `--frames` on large pools).
    pub frames: u32,
    /// Its step+render, single-threaded.
    pub step_render: Timing,
    /// Ripples' step+render frames per second over the seed port's.
    pub speedup: f64,
}

/// The memory-bandwidth floor.
#[derive(Debug, Clone, Serialize)]
pub struct MemoryReport {
    /// Parallel copy speed, bytes read plus bytes written, in GB/s (10^9 bytes).
    pub bandwidth_gb_s: f64,
    /// Size of the copied buffer.
    pub buffer_bytes: u64,
    /// Least bytes one step+render must move, by the model in `model`.
    pub bytes_per_frame: u64,
    /// The model behind `bytes_per_frame`.
    pub model: String,
    /// `bandwidth / bytes_per_frame`: no frame rate above this is possible from memory.
    pub floor_fps: f64,
    /// Ripples' step+render frames per second as a fraction of `floor_fps`. It can exceed 1:
    /// the model counts every byte as a trip to memory, while the fused pass reuses rows in
    /// cache, small pools stay in the caches, and the copy's ordinary stores also read each
    /// line (traffic its bandwidth figure does not count) where the render streams its stores.
    pub fraction_of_floor: f64,
}

/// Step+render on one thread count against the first count of `--threads`, timed in the same
/// run with their repetitions interleaved.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Scaling {
    /// The thread count compared with: the first one `--threads` names.
    pub over_threads: usize,
    /// The median over repetitions of the first count's step+render time over this count's,
    /// the two timed back to back in each repetition: a busy moment on a shared machine spoils
    /// one pair, not the whole comparison.
    pub step_render_speedup: f64,
    /// The least and the greatest of those per-repetition ratios.
    pub step_render_speedup_range: [f64; 2],
}

impl Scaling {
    /// From the step+render seconds of each repetition, the first count's and this count's.
    fn paired(over_threads: usize, first: &[f64], this: &[f64]) -> Self {
        let mut ratios: Vec<f64> = first
            .iter()
            .zip(this)
            .map(|(first, this)| first / this.max(1e-9))
            .collect();
        let step_render_speedup = median(&mut ratios);
        Self {
            over_threads,
            step_render_speedup,
            step_render_speedup_range: [
                ratios.first().copied().unwrap_or(0.0),
                ratios.last().copied().unwrap_or(0.0),
            ],
        }
    }
}

/// Everything `ripples bench` measured.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// Pool width in pixels (= cells).
    pub width: u32,
    /// Pool height in pixels (= cells).
    pub height: u32,
    /// Pixels per simulation cell; the timings are per pixel whatever the scale.
    pub sim_scale: u32,
    /// Solver name.
    pub solver: &'static str,
    /// Look name (`--render`; the `render` key holds the render timings).
    pub look: &'static str,
    /// Kernel backend in use.
    pub backend: &'static str,
    /// Worker threads.
    pub threads: usize,
    /// Frames per repetition.
    pub frames: u32,
    /// Repetitions (the figures are medians).
    pub reps: u32,
    /// CPU model, when the system says.
    pub cpu: Option<String>,
    /// Stones in the turbulent field.
    pub stones: u64,
    /// 64-bit FNV-1a of the turbulent starting field (16 hex digits).
    pub field_fnv1a64: String,
    /// Timings of the turbulent field.
    #[serde(flatten)]
    pub turbulent: FrameTimings,
    /// Timings of calm water.
    pub calm: CalmReport,
    /// The seed port (classic solver with the classic look only).
    pub seed_port: Option<SeedPortReport>,
    /// The memory floor.
    pub memory: MemoryReport,
    /// Against the first thread count, when `--threads` names several (absent otherwise, and
    /// on the first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scaling: Option<Scaling>,
}

/// Runs `ripples bench`; returns the report as text (a table, or JSON with `--json`): one
/// report per thread count, so with several counts the JSON is an array of them.
pub fn bench(args: &BenchArgs) -> Result<String> {
    if let Some(backend) = args.backend {
        ripples::set_backend(backend).map_err(|error| UsageError(error.to_string()))?;
    }
    let workers = thread_counts(&args.threads)?
        .into_iter()
        .map(|threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .with_context(|| format!("cannot start {threads} worker threads"))
        })
        .collect::<Result<Vec<_>>>()?;
    let reports = measure(args, &workers)?;
    Ok(match (args.json, reports.as_slice()) {
        (true, [report]) => serde_json::to_string(report)?,
        (true, _) => serde_json::to_string(&reports)?,
        (false, _) => {
            let tables: Vec<String> = reports.iter().map(ToString::to_string).collect();
            tables.join("\n\n")
        }
    })
}

/// The thread counts `--threads` names (all cores when it names none); a count named twice is
/// a usage error.
fn thread_counts(asked: &[usize]) -> Result<Vec<usize>> {
    if asked.is_empty() {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        return Ok(vec![cores]);
    }
    for (index, threads) in asked.iter().enumerate() {
        if asked[..index].contains(threads) {
            return Err(UsageError(format!("--threads names {threads} twice")).into());
        }
    }
    Ok(asked.to_vec())
}

/// The seconds one thread count's repetitions took.
#[derive(Default)]
struct RunSeconds {
    turbulent: [Vec<f64>; 3],
    calm: [Vec<f64>; 3],
    copy: Vec<f64>,
}

/// Builds the fields and times everything on each of `workers` (rayon pools; their threads are
/// the threads reported), one report per pool. Each repetition times every pool in turn, in
/// alternating order, so that a busy moment hits them all and none always goes first.
pub fn measure(args: &BenchArgs, workers: &[rayon::ThreadPool]) -> Result<Vec<BenchReport>> {
    anyhow::ensure!(!workers.is_empty(), "bench: no thread pool to time on");
    let (width, height) = args.size;
    let (frames, reps) = (args.frames, args.reps);
    let cells = f64::from(width) * f64::from(height);
    let look = look_for(args.render);
    let src = ripples::pool_tiles(width, height)?;
    let mut dst = vec![0u8; src.len()];

    let sim_scale = args.sim_scale;
    let turbulent = turbulent_pool(width, height, sim_scale, args.solver)?;
    let calm = calm_pool(width, height, sim_scale, args.solver)?;
    let seed = match (args.solver, args.render, turbulent.solver().as_classic()) {
        (SolverKind::Classic, RenderMode::Classic, Some(classic)) if sim_scale == 1 => {
            Some(SeedRipple::from_classic(classic))
        }
        _ => None,
    };
    let seed_frames = seed_port_frames(frames, width, height);
    let traffic = FrameTraffic::for_field(turbulent.solver().heights(), width, height, sim_scale);
    let mut copy = CopyBench::new(traffic.copy_buffer_bytes());

    // Untimed: starts the worker threads and faults in every buffer once.
    for pool in workers {
        pool.install(|| -> Result<()> {
            step_and_render(&mut turbulent.clone(), &look, &src, &mut dst)?;
            copy.run();
            Ok(())
        })?;
    }

    let mut runs: Vec<RunSeconds> = workers.iter().map(|_| RunSeconds::default()).collect();
    let mut seed_seconds = vec![];
    let progress = std::io::stderr().is_terminal() && !args.json;
    for rep in 0..reps {
        if progress {
            eprint!("\rtiming: repetition {} of {reps}", rep + 1);
        }
        let mut order: Vec<usize> = (0..workers.len()).collect();
        if rep % 2 == 1 {
            order.reverse();
        }
        for index in order {
            let run = &mut runs[index];
            workers[index].install(|| -> Result<()> {
                let times = time_frames(&turbulent, frames, &look, &src, &mut dst)?;
                push_all(&mut run.turbulent, times);
                let times = time_frames(&calm, frames, &look, &src, &mut dst)?;
                push_all(&mut run.calm, times);
                run.copy.push(copy.run());
                Ok(())
            })?;
        }
        if let Some(seed) = &seed {
            let mut seed = seed.clone();
            let started = Instant::now();
            for _ in 0..seed_frames {
                seed.spread();
                seed.render(&src, &mut dst);
            }
            seed_seconds.push(started.elapsed().as_secs_f64());
            std::hint::black_box(&dst);
        }
    }
    if progress {
        eprint!("\r\x1b[K");
    }

    let timings = |seconds: &mut [Vec<f64>; 3]| {
        let [step, render, step_render] = seconds;
        FrameTimings {
            step: Timing::from_median(step, frames, cells),
            render: Timing::from_median(render, frames, cells),
            step_render: Timing::from_median(step_render, frames, cells),
        }
    };
    let seed_step_render = seed.map(|_| Timing::from_median(&mut seed_seconds, seed_frames, cells));
    let first_step_render = runs[0].turbulent[2].clone();
    let first_threads = workers[0].current_num_threads();
    // The same for every pool.
    let cpu = cpu_model();
    let turbulent_hash = format!("{:016x}", field_hash(turbulent.solver().heights()));
    let calm_hash = format!("{:016x}", field_hash(calm.solver().heights()));
    let mut reports = Vec::with_capacity(runs.len());
    for (index, (mut run, pool)) in runs.into_iter().zip(workers).enumerate() {
        let scaling = (index > 0)
            .then(|| Scaling::paired(first_threads, &first_step_render, &run.turbulent[2]));
        let turbulent_timings = timings(&mut run.turbulent);
        let calm_timings = timings(&mut run.calm);
        let ripples_fps = turbulent_timings.step_render.fps;
        let seed_port = seed_step_render.map(|step_render| SeedPortReport {
            frames: seed_frames,
            step_render,
            speedup: ripples_fps / step_render.fps,
        });
        let copied = 2.0 * copy.len() as f64;
        let bandwidth = copied / median(&mut run.copy).max(1e-9);
        let floor_fps = bandwidth / traffic.bytes_per_frame() as f64;
        reports.push(BenchReport {
            width,
            height,
            sim_scale,
            solver: args.solver.name(),
            look: args.render.name(),
            backend: ripples::backend().name(),
            threads: pool.current_num_threads(),
            frames,
            reps,
            cpu: cpu.clone(),
            stones: first_stones(width, height) + u64::from(STIR_STEPS),
            field_fnv1a64: turbulent_hash.clone(),
            turbulent: turbulent_timings,
            calm: CalmReport {
                field_fnv1a64: calm_hash.clone(),
                timings: calm_timings,
            },
            seed_port,
            memory: MemoryReport {
                bandwidth_gb_s: bandwidth / 1e9,
                buffer_bytes: copy.len() as u64,
                bytes_per_frame: traffic.bytes_per_frame(),
                model: traffic.model(),
                floor_fps,
                fraction_of_floor: ripples_fps / floor_fps,
            },
            scaling,
        });
    }
    Ok(reports)
}

/// Seconds for `frames` steps, `frames` renders and `frames` step+renders, each from a fresh
/// copy of `start`.
fn time_frames(
    start: &Pool,
    frames: u32,
    look: &Look,
    src: &[u8],
    dst: &mut [u8],
) -> Result<[f64; 3]> {
    let mut pool = start.clone();
    let started = Instant::now();
    for _ in 0..frames {
        pool.step();
    }
    let step = started.elapsed().as_secs_f64();
    std::hint::black_box(pool.solver().heights());

    let mut pool = start.clone();
    let started = Instant::now();
    for _ in 0..frames {
        pool.render(look, src, dst)?;
    }
    let render = started.elapsed().as_secs_f64();
    std::hint::black_box(&dst);

    let mut pool = start.clone();
    let started = Instant::now();
    for _ in 0..frames {
        step_and_render(&mut pool, look, src, dst)?;
    }
    let step_render = started.elapsed().as_secs_f64();
    std::hint::black_box(&dst);
    Ok([step, render, step_render])
}

fn push_all(lists: &mut [Vec<f64>; 3], values: [f64; 3]) {
    for (list, value) in lists.iter_mut().zip(values) {
        list.push(value);
    }
}

/// Frames per repetition for the seed port: `frames`, or fewer so that one repetition stays
/// within [`SEED_PORT_CELL_BUDGET`] cells (at least one frame).
pub fn seed_port_frames(frames: u32, width: u32, height: u32) -> u32 {
    let cells = (u64::from(width) * u64::from(height)).max(1);
    let budget = (SEED_PORT_CELL_BUDGET / cells).max(1);
    u64::from(frames).min(budget) as u32
}

/// The median (the mean of the middle two for an even count); 0 for none.
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
}

/// The first `model name` in /proc/cpuinfo (Linux); None elsewhere.
fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == "model name").then(|| value.trim().to_string())
        })
        .filter(|model| !model.is_empty())
}

/// "1 thread", "2 threads".
fn thread_words(threads: usize) -> String {
    if threads == 1 {
        "1 thread".to_string()
    } else {
        format!("{threads} threads")
    }
}

/// Why step+render can run faster than the memory rate the report gives: the model behind that
/// rate is a simple estimate of the least traffic, not a wall.
pub const ABOVE_THE_MEMORY_RATE: &str = ",\n  above 100% because the model overcounts: the fused step+render renders \
     rows the step left in cache, part of the pool may stay in the caches, and the copy's \
     stores read each line before writing it (traffic its GB/s does not count), a read the \
     render's streaming stores on large frames skip";

impl std::fmt::Display for BenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = String::new();
        let threads = thread_words(self.threads);
        let _ = write!(
            out,
            "ripples bench: {}x{}, solver {}, render {}, backend {}, {threads}",
            self.width, self.height, self.solver, self.look, self.backend
        );
        if self.sim_scale > 1 {
            let _ = write!(out, ", sim scale {} (figures per pixel)", self.sim_scale);
        }
        if let Some(cpu) = &self.cpu {
            let _ = write!(out, ", CPU {cpu}");
        }
        let _ = writeln!(
            out,
            "\nturbulent field fnv1a64 {} ({} stones, {STIR_STEPS} steps); median of {} reps of {} frames\n",
            self.field_fnv1a64, self.stones, self.reps, self.frames
        );
        let _ = writeln!(out, "{:<12} {:>21}   {:>21}", "", "turbulent", "calm water");
        let _ = writeln!(
            out,
            "{:<12} {:>10} {:>10}   {:>10} {:>10}",
            "", "ns/cell", "fps", "ns/cell", "fps"
        );
        let calm = &self.calm.timings;
        let rows = [
            ("step", self.turbulent.step, calm.step),
            ("render", self.turbulent.render, calm.render),
            ("step+render", self.turbulent.step_render, calm.step_render),
        ];
        for (name, turbulent, calm) in rows {
            let _ = writeln!(
                out,
                "{name:<12} {:>10.3} {:>10.1}   {:>10.3} {:>10.1}",
                turbulent.ns_per_cell, turbulent.fps, calm.ns_per_cell, calm.fps
            );
        }
        out.push('\n');
        match &self.seed_port {
            Some(seed) => {
                let frames = if seed.frames < self.frames {
                    format!(
                        "{} frames per rep, fewer to keep the run short",
                        seed.frames
                    )
                } else {
                    format!("{} frames per rep", seed.frames)
                };
                let _ = writeln!(
                    out,
                    "seed port (the original ripple algorithm's two loops, ported plainly to \
                     scalar Rust, 1 thread, {frames}):\n  \
                     step+render {:.3} ns/cell, {:.1} fps; ripples is {:.1}x faster",
                    seed.step_render.ns_per_cell, seed.step_render.fps, seed.speedup
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "seed port (the original ripple algorithm, ported plainly): only with \
                     --solver classic --render classic at --sim-scale 1, the only solver, look \
                     and scale it has"
                );
            }
        }
        let memory = &self.memory;
        let _ = write!(
            out,
            "memory: parallel copy {:.1} GB/s (read + written, {} MiB buffer, {threads});\n  \
             if every frame moved its {:.1} MB ({}) through memory, memory would allow {:.0} \
             fps;\n  step+render runs at {:.0}% of that rate",
            memory.bandwidth_gb_s,
            memory.buffer_bytes >> 20,
            memory.bytes_per_frame as f64 / 1e6,
            memory.model,
            memory.floor_fps,
            memory.fraction_of_floor * 100.0
        );
        if memory.fraction_of_floor > 1.0 {
            out.push_str(ABOVE_THE_MEMORY_RATE);
        }
        if let Some(scaling) = &self.scaling {
            let [least, greatest] = scaling.step_render_speedup_range;
            let _ = write!(
                out,
                "\nscaling: step+render on {threads} is {:.2}x as fast as on {} (median of {} \
                 back-to-back pairs, {least:.2}x to {greatest:.2}x)",
                scaling.step_render_speedup,
                thread_words(scaling.over_threads),
                self.reps
            );
        }
        f.write_str(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::ThreadPool;

    #[test]
    fn xorshift32_gives_the_published_sequence() {
        // From state 12345, computed independently (Python, masking to 32 bits):
        // s ^= s << 13 & 0xffffffff; s ^= s >> 17; s ^= s << 5 & 0xffffffff.
        let mut random = Xorshift32::new(FIELD_SEED);
        let values: Vec<u32> = (0..5).map(|_| random.next_u32()).collect();
        assert_eq!(
            values,
            [3336926330, 1697253807, 2816511904, 1955480042, 718842323]
        );
        // The first value by hand: 12345 = 0x3039; 0x3039 ^ (0x3039 << 13) = 0x0607_1039;
        // ^ (that >> 17 = 0x303) = 0x0607_133a; ^ (that << 5 = 0xc0e2_6740) = 0xc6e5_747a.
        assert_eq!(3336926330u32, 0xc6e5_747a);
    }

    #[test]
    fn fnv1a64_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(*b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(*b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(*b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn the_field_hash_reads_little_endian_values_in_order() {
        assert_eq!(
            field_hash(Heights::I16(&[0x0061, -1])),
            fnv1a64([0x61, 0x00, 0xff, 0xff])
        );
        assert_eq!(
            field_hash(Heights::F32(&[1.0])),
            fnv1a64(1.0f32.to_le_bytes())
        );
    }

    #[test]
    fn the_turbulent_field_follows_the_recipe() {
        // 40x20: 800 / 256 + 1 = 4 stones, then 16 stones and steps. Replayed by hand on a
        // classic solver, whose drop_stone is what the pool uses at scale 1.
        let pool = turbulent_pool(40, 20, 1, SolverKind::Classic).unwrap();
        use ripples::WaterSolver;
        let mut water = ripples::ClassicSolver::new(40, 20).unwrap();
        let mut random = Xorshift32::new(12345);
        let mut stone = |water: &mut ripples::ClassicSolver| {
            let x = random.next_u32() % 40;
            let y = random.next_u32() % 20;
            let r = 1 + random.next_u32() % 8;
            let s = 32 + random.next_u32() % 97;
            water.drop_stone(x as i32, y as i32, r, s as f32);
        };
        for _ in 0..4 {
            stone(&mut water);
        }
        for _ in 0..16 {
            stone(&mut water);
            water.step_without_walls();
        }
        let Heights::I16(heights) = pool.solver().heights() else {
            panic!("the classic solver has i16 heights");
        };
        assert_eq!(heights, water.heights());
        assert!(heights.iter().any(|&h| h != 0));
        assert_eq!(first_stones(40, 20), 4);
    }

    #[test]
    fn the_float_solvers_get_a_turbulent_field_too() {
        for kind in [SolverKind::Wave, SolverKind::Spring] {
            let pool = turbulent_pool(48, 32, 1, kind).unwrap();
            let Heights::F32(heights) = pool.solver().heights() else {
                panic!("{kind:?} has f32 heights");
            };
            assert!(heights.iter().any(|&h| h != 0.0), "{kind:?}");
            assert!(heights.iter().all(|h| h.is_finite()), "{kind:?}");
        }
    }

    #[test]
    fn medians_and_seed_frames() {
        assert_eq!(median(&mut []), 0.0);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(seed_port_frames(100, 1920, 1080), 100);
        assert_eq!(seed_port_frames(100, 3840, 2160), 30);
        assert_eq!(seed_port_frames(7, 16384, 4096), 3);
        assert_eq!(seed_port_frames(100, 1, 1), 100);
    }

    /// A 16x12 classic bench of 2 frames on rayon pools of `threads`, and the pools.
    fn tiny_bench<const N: usize>(reps: u32, threads: [usize; N]) -> (BenchArgs, [ThreadPool; N]) {
        let args = BenchArgs {
            size: (16, 12),
            sim_scale: 1,
            frames: 2,
            reps,
            threads: threads.to_vec(),
            solver: SolverKind::Classic,
            render: RenderMode::Classic,
            backend: None,
            json: false,
        };
        let pools = threads.map(|threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
        });
        (args, pools)
    }

    #[test]
    fn a_tiny_bench_reports_every_figure() {
        let (args, pools) = tiny_bench(1, [1]);
        let reports = measure(&args, &pools).unwrap();
        let [report] = reports.as_slice() else {
            panic!("one report per pool, got {}", reports.len());
        };
        assert_eq!((report.width, report.height, report.threads), (16, 12, 1));
        assert!(report.scaling.is_none());
        assert_eq!(
            report.calm.field_fnv1a64,
            format!("{:016x}", fnv1a64(vec![0; 16 * 12 * 2]))
        );
        assert!(report.seed_port.is_some());
        assert_eq!(report.memory.bytes_per_frame, 16 * 12 * 16);
        let text = report.to_string();
        for needle in [
            "step+render",
            "calm water",
            "seed port",
            "GB/s",
            &report.field_fnv1a64,
        ] {
            assert!(text.contains(needle), "{needle} in {text}");
        }
        assert!(!text.contains("scaling"), "{text}");
    }

    #[test]
    fn a_rate_above_the_memory_model_says_why() {
        let (args, pools) = tiny_bench(1, [1]);
        let mut report = measure(&args, &pools).unwrap().remove(0);
        report.memory.fraction_of_floor = 1.1;
        let text = report.to_string();
        assert!(
            text.contains("step+render runs at 110% of that rate"),
            "{text}"
        );
        assert!(text.ends_with(ABOVE_THE_MEMORY_RATE), "{text}");
        report.memory.fraction_of_floor = 0.8;
        let text = report.to_string();
        assert!(
            text.ends_with("step+render runs at 80% of that rate"),
            "{text}"
        );
        for history in ["GameRes", "the seeds", "Frogger"] {
            assert!(!text.contains(history), "{history} in {text}");
        }
    }

    #[test]
    fn several_pools_get_a_report_each_and_the_later_ones_a_comparison() {
        let (args, pools) = tiny_bench(3, [3, 1]);
        let reports = measure(&args, &pools).unwrap();
        let threads: Vec<usize> = reports.iter().map(|report| report.threads).collect();
        assert_eq!(threads, [3, 1]);
        assert_eq!(reports[0].field_fnv1a64, reports[1].field_fnv1a64);
        assert!(reports[0].scaling.is_none());
        let scaling = reports[1].scaling.expect("the second count is compared");
        assert_eq!(scaling.over_threads, 3);
        let [least, greatest] = scaling.step_render_speedup_range;
        assert!(0.0 < least && least <= scaling.step_render_speedup);
        assert!(scaling.step_render_speedup <= greatest && greatest.is_finite());
        assert!(reports[1].to_string().contains("as fast as on 3 threads"));
        let error = measure(&args, &[]).unwrap_err();
        assert!(error.to_string().contains("no thread pool"), "{error}");
    }

    #[test]
    fn paired_scaling_is_the_median_of_the_ratios_of_each_pair() {
        // Pairs 2/1, 3/3 and 10/4: the ratios 2, 1 and 2.5, median 2, where the ratio of the
        // medians would be 3/3.
        let scaling = Scaling::paired(1, &[2.0, 3.0, 10.0], &[1.0, 3.0, 4.0]);
        assert_eq!(scaling.over_threads, 1);
        assert_eq!(scaling.step_render_speedup, 2.0);
        assert_eq!(scaling.step_render_speedup_range, [1.0, 2.5]);
    }

    #[test]
    fn a_thread_count_named_twice_is_a_usage_error() {
        let error = thread_counts(&[1, 2, 1]).unwrap_err();
        assert!(error.downcast_ref::<UsageError>().is_some());
        assert!(error.to_string().contains("names 1 twice"), "{error}");
        assert_eq!(thread_counts(&[2, 1]).unwrap(), [2, 1]);
        assert_eq!(thread_counts(&[]).unwrap().len(), 1);
    }
}
