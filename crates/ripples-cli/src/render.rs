//! `ripples render`: from options, a scene file and an image to a written animation.
//!
//! Everything that can be refused is checked before the first frame is simulated: the output
//! kind and directory, the scene, the image header and the sizes. Then frames stream from the
//! [`SceneRunner`] into the output sink, so memory stays flat however long the animation, and
//! the sink writes under a temporary name until the last frame is in.
//!
//! Encoding a frame (a GIF's palette mapping and compression, a PNG's deflate) can cost more
//! than simulating and rendering it, so the sink runs on a thread of its own
//! ([`stream_frames`]): the simulation renders frame t+1 while frame t is encoded. A bounded
//! channel of [`FRAMES_IN_FLIGHT`] frames keeps memory flat, and the frame buffers travel back
//! to the renderer to be reused, so the loop allocates nothing per frame. The sink is finished
//! only when every frame made it; any error on either side drops it unfinished, which leaves no
//! output file. The time of each stage is measured and reported per frame.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ripples::{Heights, Look, RenderMode, SceneRunner};

use crate::UsageError;
use crate::args::RenderArgs;
use crate::output::{
    AnimationInfo, FrameSink, OutputKind, open_sink, write_npy_f32, write_npy_i16,
};
use crate::scene_file::SceneFile;
use crate::setup::{Water, WaterPlan, override_with, paint_walls};

/// Pool size when neither an image, the scene nor `--size` gives one.
pub const DEFAULT_SIZE: (u32, u32) = (320, 240);

/// The scene `ripples` renders when run without a subcommand (also shipped as
/// `scenes/default.toml`; `crates/ripples-cli/scenes/default.toml` links to it, so the
/// published package holds a copy).
pub const DEFAULT_SCENE: &str = include_str!("../scenes/default.toml");

/// What a finished render wrote.
#[derive(Debug, Clone)]
pub struct RenderSummary {
    /// The animation's path.
    pub path: PathBuf,
    /// Frames written.
    pub frames: u32,
    /// Frame size in pixels.
    pub width: u32,
    /// Frame height in pixels.
    pub height: u32,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Where the time of the frame loop went.
    pub stages: StageTimes,
}

/// Time spent in each stage of the frame loop, summed over the frames. Simulating and
/// rendering run one after the other on the calling thread; encoding runs beside them on its
/// own thread, so the three add up to more than the wall-clock time when the overlap works.
#[derive(Debug, Clone, Copy, Default)]
pub struct StageTimes {
    /// The scene's events and the solver steps.
    pub simulate: Duration,
    /// Rendering the water over the image.
    pub render: Duration,
    /// The sink: writing every frame, and finishing the file.
    pub encode: Duration,
}

impl RenderSummary {
    /// One line of where the time went, per frame: `300 frames 1280x720 in 2.10 s: simulate
    /// 1.20 ms, render 2.30 ms, encode 4.50 ms per frame (on its own thread)`.
    pub fn timing_line(&self) -> String {
        let per_frame = |total: Duration| total.as_secs_f64() * 1e3 / f64::from(self.frames.max(1));
        format!(
            "{} frames {}x{} in {:.2} s: simulate {:.2} ms, render {:.2} ms, encode {:.2} ms \
             per frame (on its own thread)",
            self.frames,
            self.width,
            self.height,
            self.seconds,
            per_frame(self.stages.simulate),
            per_frame(self.stages.render),
            per_frame(self.stages.encode),
        )
    }
}

impl std::fmt::Display for RenderSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "wrote {}: {} frames, {}x{}, in {:.2} s",
            self.path.display(),
            self.frames,
            self.width,
            self.height,
            self.seconds
        )
    }
}

/// Runs `ripples render` with these arguments.
pub fn render(args: &RenderArgs) -> Result<RenderSummary> {
    let scene_file = args
        .water
        .scene
        .as_deref()
        .map(SceneFile::load)
        .transpose()?;
    render_with_scene(args, scene_file)
}

/// Renders the built-in default scene with these arguments on top.
pub fn render_default_scene(args: &RenderArgs) -> Result<RenderSummary> {
    let scene = crate::scene_file::parse_scene(DEFAULT_SCENE)
        .map_err(|error| anyhow!("internal error: the built-in scene is invalid: {error}"))?;
    let scene_file = SceneFile {
        scene,
        directory: PathBuf::new(),
    };
    render_with_scene(args, Some(scene_file))
}

fn render_with_scene(args: &RenderArgs, scene_file: Option<SceneFile>) -> Result<RenderSummary> {
    let started = Instant::now();
    OutputKind::from_path(&args.out).map_err(|error| UsageError(format!("{error:#}")))?;
    if let Some(path) = &args.heights_out {
        check_heights_path(path)?;
    }
    let plan = WaterPlan::load(&args.water, scene_file, |scene| {
        override_with(&mut scene.frames, args.frames);
        override_with(&mut scene.fps, args.fps);
    })?;
    let (width, height) = plan.natural_size(DEFAULT_SIZE);
    let Water {
        mut runner,
        mut image,
        walls,
        ..
    } = plan.build(width, height)?;
    if let Some(walls) = &walls {
        paint_walls(&mut image.pixels, walls);
    }
    let scene = runner.scene();
    let info = AnimationInfo {
        width,
        height,
        fps: scene.fps,
        frames: scene.frames,
    };
    let look = scene.full_look();
    let sink = open_sink(&args.out, &info, &palette_samples(&image.pixels, &look))?;

    let progress = progress_bar(info.frames);
    let stages = stream_frames(&mut runner, &image.pixels, sink, &progress)?;
    progress.finish_and_clear();

    if let Some(path) = &args.heights_out {
        let solver = runner.pool().solver();
        let (grid_width, grid_height) = (solver.width() as usize, solver.height() as usize);
        match solver.heights() {
            Heights::I16(heights) => write_npy_i16(path, grid_width, grid_height, heights)?,
            Heights::F32(heights) => write_npy_f32(path, grid_width, grid_height, heights)?,
        }
    }
    Ok(RenderSummary {
        path: args.out.clone(),
        frames: info.frames,
        width,
        height,
        seconds: started.elapsed().as_secs_f64(),
        stages,
    })
}

/// Frames handed to the encoding thread and not yet taken by it.
pub const FRAMES_IN_FLIGHT: usize = 3;

/// What the frame loop sends to the encoding thread.
enum ToEncoder {
    Frame(Vec<u8>),
    /// Every frame was sent: finish the output.
    Finish,
}

/// Simulates and renders every remaining frame of `runner` over `image` on this thread while
/// `sink` encodes them on another, then finishes the sink. On an error on either side the sink
/// is dropped unfinished (leaving no output) and the first cause is returned.
pub fn stream_frames(
    runner: &mut SceneRunner,
    image: &[u8],
    sink: Box<dyn FrameSink>,
    progress: &ProgressBar,
) -> Result<StageTimes> {
    let (to_encoder, frames) = mpsc::sync_channel::<ToEncoder>(FRAMES_IN_FLIGHT);
    let (give_back, returned) = mpsc::channel::<Vec<u8>>();
    std::thread::scope(|scope| {
        let encoder = std::thread::Builder::new()
            .name("encoder".into())
            .spawn_scoped(scope, move || {
                encode_frames(sink, frames, give_back, progress)
            })
            .map_err(|error| anyhow!("cannot start the encoding thread: {error}"))?;
        let produced = produce_frames(runner, image, to_encoder, returned);
        let encoded = encoder
            .join()
            .map_err(|_| anyhow!("internal error: the encoding thread stopped unexpectedly"))?;
        // When the encoder fails, the producer only sees a closed channel: report the cause.
        let encode = encoded?;
        let (simulate, render) = produced?;
        Ok(StageTimes {
            simulate,
            render,
            encode,
        })
    })
}

/// The producing side of [`stream_frames`]: returns the time spent simulating and rendering.
fn produce_frames(
    runner: &mut SceneRunner,
    image: &[u8],
    to_encoder: mpsc::SyncSender<ToEncoder>,
    returned: mpsc::Receiver<Vec<u8>>,
) -> Result<(Duration, Duration)> {
    // One frame being rendered, one being encoded, and the ones in the channel.
    const BUFFERS: usize = FRAMES_IN_FLIGHT + 2;
    let stopped = || anyhow!("the encoding thread stopped");
    let (mut simulate, mut render) = (Duration::ZERO, Duration::ZERO);
    let mut allocated = 0;
    while !runner.is_finished() {
        if crate::interrupt::requested() {
            return Err(anyhow::Error::new(crate::interrupt::Interrupted));
        }
        let mut frame = match returned.try_recv() {
            Ok(frame) => frame,
            Err(_) if allocated < BUFFERS => {
                allocated += 1;
                vec![0u8; image.len()]
            }
            Err(_) => returned.recv().map_err(|_| stopped())?,
        };
        let started = Instant::now();
        runner.advance();
        let stepped = Instant::now();
        runner.render(image, &mut frame)?;
        simulate += stepped - started;
        render += stepped.elapsed();
        to_encoder
            .send(ToEncoder::Frame(frame))
            .map_err(|_| stopped())?;
    }
    to_encoder.send(ToEncoder::Finish).map_err(|_| stopped())?;
    Ok((simulate, render))
}

/// The encoding side of [`stream_frames`]: writes frames as they come and sends each buffer
/// back; finishes the sink on [`ToEncoder::Finish`] and drops it unfinished if the producer
/// goes away first. Returns the time spent in the sink.
fn encode_frames(
    mut sink: Box<dyn FrameSink>,
    frames: mpsc::Receiver<ToEncoder>,
    give_back: mpsc::Sender<Vec<u8>>,
    progress: &ProgressBar,
) -> Result<Duration> {
    let mut encode = Duration::ZERO;
    loop {
        match frames.recv() {
            Ok(ToEncoder::Frame(frame)) => {
                let started = Instant::now();
                sink.write_frame(&frame)?;
                encode += started.elapsed();
                progress.inc(1);
                // The producer may be done with buffers already; that is fine.
                let _ = give_back.send(frame);
            }
            Ok(ToEncoder::Finish) => {
                let started = Instant::now();
                sink.finish()?;
                return Ok(encode + started.elapsed());
            }
            // The producer failed: dropping the sink unfinished removes its temporary file.
            Err(mpsc::RecvError) => return Ok(encode),
        }
    }
}

fn check_heights_path(path: &Path) -> Result<()> {
    let is_npy = path
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("npy"));
    if !is_npy {
        return Err(UsageError(format!(
            "heights output '{}': expected a .npy file name",
            path.display()
        ))
        .into());
    }
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(anyhow!(
            "heights output '{}': directory '{}' does not exist",
            path.display(),
            parent.display()
        ));
    }
    Ok(())
}

/// Colours the animation will show, for the GIF palette: the source image, and for the lit look
/// the same colours brightened and darkened by the shading and washed by the highlights.
pub fn palette_samples(pixels: &[u8], look: &Look) -> Vec<u8> {
    const MAX_SAMPLES: usize = 1 << 16;
    let count = pixels.len() / 4;
    let stride = count.div_ceil(MAX_SAMPLES).max(1);
    let base: Vec<[u8; 4]> = pixels
        .chunks_exact(4)
        .step_by(stride)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect();
    let mut samples: Vec<u8> = base.iter().flatten().copied().collect();
    if look.mode == RenderMode::Default {
        let variants = [
            (1.0 + look.shading * 0.5, 0.0),
            (1.0 - look.shading * 0.5, 0.0),
            (1.0 + look.shading, 0.15),
            (1.0 + look.shading, 0.4),
            (1.0 + look.shading, 0.8),
        ];
        for (gain, highlight) in variants {
            let add = 255.0 * look.specular * highlight;
            // A quarter of the base for each variant keeps the source colours dominant.
            for pixel in base.iter().step_by(4) {
                for channel in &pixel[..3] {
                    samples.push((f32::from(*channel) * gain + add).clamp(0.0, 255.0) as u8);
                }
                samples.push(pixel[3]);
            }
        }
    }
    samples
}

fn progress_bar(frames: u32) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(u64::from(frames)), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} rendering {bar:40} {pos}/{len} frames, {eta} left")
    {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use ripples::{RainSpec, Scene};
    use std::sync::{Arc, Mutex};

    /// What a [`RecordingSink`] saw.
    #[derive(Debug, Default)]
    struct Record {
        frames: Vec<Vec<u8>>,
        finished: bool,
        dropped: bool,
    }

    /// Keeps every frame; fails on frame `fail_at` if given.
    struct RecordingSink {
        record: Arc<Mutex<Record>>,
        fail_at: Option<usize>,
    }

    impl FrameSink for RecordingSink {
        fn write_frame(&mut self, rgba: &[u8]) -> Result<()> {
            let mut record = self.record.lock().unwrap();
            if Some(record.frames.len()) == self.fail_at {
                return Err(anyhow!("disk full at frame {}", record.frames.len()));
            }
            record.frames.push(rgba.to_vec());
            Ok(())
        }

        fn finish(self: Box<Self>) -> Result<()> {
            self.record.lock().unwrap().finished = true;
            Ok(())
        }
    }

    impl Drop for RecordingSink {
        fn drop(&mut self) {
            self.record.lock().unwrap().dropped = true;
        }
    }

    fn rainy_scene(frames: u32) -> Scene {
        let mut scene = Scene {
            frames,
            ..Scene::default()
        };
        scene.rain = Some(RainSpec {
            rate: 3.0,
            ..RainSpec::default()
        });
        scene
    }

    fn stream(
        scene: Scene,
        image: &[u8],
        fail_at: Option<usize>,
    ) -> (Result<StageTimes>, Arc<Mutex<Record>>, SceneRunner) {
        let record = Arc::new(Mutex::new(Record::default()));
        let sink = Box::new(RecordingSink {
            record: Arc::clone(&record),
            fail_at,
        });
        let mut runner = SceneRunner::new(scene, 40, 30).unwrap();
        let result = stream_frames(&mut runner, image, sink, &ProgressBar::hidden());
        (result, record, runner)
    }

    #[test]
    fn every_frame_reaches_the_sink_in_order_and_the_sink_is_finished() {
        let image = ripples::pool_tiles(40, 30).unwrap();
        let (result, record, runner) = stream(rainy_scene(25), &image, None);
        let stages = result.unwrap();
        assert!(runner.is_finished());
        assert!(stages.simulate > Duration::ZERO && stages.render > Duration::ZERO);
        let record = record.lock().unwrap();
        assert!(record.finished && record.dropped);
        // The same scene rendered frame by frame on this thread.
        let mut serial = SceneRunner::new(rainy_scene(25), 40, 30).unwrap();
        let mut frame = vec![0u8; image.len()];
        let mut expected = Vec::new();
        while !serial.is_finished() {
            serial.advance();
            serial.render(&image, &mut frame).unwrap();
            expected.push(frame.clone());
        }
        assert_eq!(record.frames.len(), 25);
        assert!(
            record.frames == expected,
            "frames differ from the serial render"
        );
    }

    #[test]
    fn an_encoding_error_stops_the_simulation_and_is_reported() {
        let image = ripples::pool_tiles(40, 30).unwrap();
        let (result, record, runner) = stream(rainy_scene(1000), &image, Some(3));
        let message = format!("{:#}", result.unwrap_err());
        assert!(message.contains("disk full at frame 3"), "{message}");
        let record = record.lock().unwrap();
        assert!(!record.finished && record.dropped);
        // The producer stops within a few frames of the failure instead of running on.
        assert!(
            runner.frame() <= 3 + FRAMES_IN_FLIGHT as u32 + 3,
            "{}",
            runner.frame()
        );
    }

    #[test]
    fn a_rendering_error_drops_the_sink_unfinished() {
        let wrong_size = vec![0u8; 7];
        let (result, record, _) = stream(rainy_scene(10), &wrong_size, None);
        let message = format!("{:#}", result.unwrap_err());
        assert!(message.contains("source image"), "{message}");
        let record = record.lock().unwrap();
        assert!(!record.finished && record.dropped && record.frames.is_empty());
    }
}
