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
//!
//! With `--heights-in` the water starts from a field read from a file
//! ([`crate::input::heights_in`]), checked against the grid and the solver before the output is opened.
//! With `--heights-out` there are two outputs, written both or neither: the finished animation
//! waits under its temporary name while the heights are written to theirs, then the animation
//! is moved into place, then the heights. Only that last move can fail after the animation is
//! in place, and then the error says so.
//!
//! Frames come from a [`FrameSource`]: the scene played frame by frame, or a
//! [`SeamlessLoop`] whose end cross-fades into its start (`--loop`). The picture under each
//! frame comes from a [`PictureSource`]: the same image every frame, or the next frame of a
//! video ([`ClipPictures`], decoded by ffmpeg on threads of its own: [`crate::input::video_input`]),
//! whose rate and length then set the animation's, and whose sound goes to an MP4 or WebM. Before a frame goes to the
//! encoder it is blended over the background ([`crate::input::background`]) in place, so files are
//! opaque whatever the look, unless `--keep-alpha` asks for the alpha. A still (`--frame`,
//! `--still`) simulates up to its frame and renders only that one ([`crate::render::still`]). A render
//! with nothing to disturb the water gets some ([`crate::render::lively`]). What the command did on its
//! own (stones added, a picture cropped, a scene scaled) is said on stderr once the output is
//! open, so that an error, when there is one, is the first line.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ripples::{Heights, Look, SceneRunner};

use crate::UsageError;
use crate::cli::args::RenderArgs;
use crate::cli::setup::{Water, WaterPlan, override_with};
use crate::input::background::{self, Colour};
use crate::input::heights_in::{GridShape, heights_input, read_heights_as};
use crate::input::scene_file::SceneFile;
use crate::input::video_input::{ClipPictures, ClipTiming, VideoClip};
use crate::output::{
    AnimationInfo, FinishedOutput, FrameSink, OutputKind, OutputOptions, SoundTrack, StagedFile,
    StillPngSink, Written, check_not_existing, is_standard_output, open_output, stage_npy_f32,
    stage_npy_i16,
};
use crate::render::frame_source::FrameSource;
use crate::render::seamless_loop::SeamlessLoop;
use crate::render::stage_times::StageTimes;

pub mod frame_source;
pub mod lively;
pub mod seamless_loop;
pub mod stage_times;
pub mod still;

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
    /// What the output holds (frames and size as stored, and how they differ from the render).
    pub written: Written,
    /// For a still (`--frame`, `--still`): the frame written, after `frames` were simulated.
    pub still_frame: Option<u32>,
}

impl RenderSummary {
    /// One line of where the time went, per frame: `300 frames 1280x720 in 2.10 s: simulate
    /// 1.20 ms, render 2.30 ms, encode 4.50 ms per frame (on its own thread)`.
    pub fn timing_line(&self) -> String {
        if let Some(number) = self.still_frame {
            let milliseconds = |total: Duration| total.as_secs_f64() * 1e3;
            return format!(
                "frame {number} {}x{} in {:.2} s: simulated {} frames in {:.2} ms, rendered in \
                 {:.2} ms, encoded in {:.2} ms",
                self.width,
                self.height,
                self.seconds,
                self.frames,
                milliseconds(self.stages.simulate),
                milliseconds(self.stages.render),
                milliseconds(self.stages.encode),
            );
        }
        let per_frame = |total: Duration| total.as_secs_f64() * 1e3 / f64::from(self.frames.max(1));
        let waited = if self.stages.decode > Duration::ZERO {
            format!(
                "wait for the clip {:.2} ms, ",
                per_frame(self.stages.decode)
            )
        } else {
            String::new()
        };
        format!(
            "{} frames {}x{} in {:.2} s: {waited}simulate {:.2} ms, render {:.2} ms, encode \
             {:.2} ms per frame (on its own thread)",
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

impl RenderSummary {
    /// Whether the animation went to standard output (so this summary must not).
    pub fn to_standard_output(&self) -> bool {
        is_standard_output(&self.path)
    }
}

impl std::fmt::Display for RenderSummary {
    /// `wrote water.gif: 120 frames, 320x240, in 1.20 s`, with what differs from the render in
    /// parentheses after the size; for a still, `wrote still.png: frame 30 as one image, ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.to_standard_output() {
            f.write_str("wrote to standard output")?;
        } else {
            write!(f, "wrote {}", self.path.display())?;
        }
        match self.still_frame {
            Some(number) => write!(
                f,
                ": frame {number} as one image, {}x{}, in {:.2} s",
                self.written.width, self.written.height, self.seconds
            ),
            None => write!(f, ": {}, in {:.2} s", self.written, self.seconds),
        }
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
    let (scene, files) = crate::input::scene_file::parse_scene(DEFAULT_SCENE)
        .map_err(|error| anyhow!("internal error: the built-in scene is invalid: {error}"))?;
    let scene_file = SceneFile {
        scene,
        files,
        directory: PathBuf::new(),
        name: "the built-in scene".to_string(),
        text: DEFAULT_SCENE.to_string(),
    };
    render_with_scene(args, Some(scene_file))
}

fn render_with_scene(args: &RenderArgs, scene_file: Option<SceneFile>) -> Result<RenderSummary> {
    let started = Instant::now();
    let kind = OutputKind::for_output(args.out(), args.format)
        .map_err(|error| UsageError(format!("{error:#}")))?;
    let still = StillRequest::from_args(args, kind, args.out())?;
    check_output_destination(args, kind)?;
    if let Some(path) = &args.heights_out {
        check_heights_path(path, args.no_clobber)?;
    }
    crate::cli::input_guard::refuse_outputs_over_inputs(args, scene_file.as_ref())?;
    let has_scene_file = scene_file.is_some();
    let heights_in = heights_input(args.heights_in.as_ref(), scene_file.as_ref());
    let mut plan = WaterPlan::load(&args.water, scene_file, |scene| {
        override_with(&mut scene.frames, args.frames);
        override_with(&mut scene.fps, args.fps);
    })?;
    // Said once every check has passed and the output is open: a line before an error would
    // bury it.
    let mut notes = std::mem::take(&mut plan.notes);
    let clip = plan.clip.take();
    let timing = clip_timing(args, clip.as_ref(), &mut plan.scene, &mut notes)?;
    let (width, height) = plan.natural_size(DEFAULT_SIZE);
    // A given field moves the water by itself: no stones are added to it.
    if lively::is_undisturbed(&plan.scene) {
        if !has_scene_file && !args.calm && heights_in.is_none() {
            notes.push(lively::ADDED.to_string());
            lively::add_default_disturbances(&mut plan.scene, (width, height));
        }
    } else if args.calm {
        notes.push(
            "warning: --calm has no effect: stones, swipes, rain or sources disturb the water"
                .to_string(),
        );
    }
    let frames = plan.scene.frames;
    notes.extend(
        crate::output::surprises(args.out(), kind, args.format, plan.scene.fps)
            .into_iter()
            .map(|warning| format!("warning: {warning}")),
    );
    if args.lossy.is_some() && (kind != OutputKind::Gif || still.is_some()) {
        notes.push(format!(
            "warning: --lossy has no effect on '{}': only a GIF animation is stored lossily",
            args.out().display()
        ));
    }
    notes.extend(
        crate::cli::inert_options::late_events(&plan.scene)
            .into_iter()
            .map(|warning| format!("warning: {warning}")),
    );
    let still_frame = still.map(|still| still.frame(frames)).transpose()?;
    let Water {
        mut runner,
        image,
        notes: water_notes,
        ..
    } = plan.build(width, height)?;
    notes.extend(water_notes);
    if let Some(input) = &heights_in {
        notes.extend(start_from_heights(&mut runner, input, (width, height))?);
    }
    let scene = runner.scene();
    let info = AnimationInfo {
        width,
        height,
        fps: scene.fps,
        frames,
    };
    let look = scene.full_look();
    let mut options = OutputOptions {
        format: args.format,
        no_clobber: args.no_clobber,
        gif_lossy: args.lossy.unwrap_or(crate::output::DEFAULT_LOSSY),
        ..OutputOptions::default()
    };
    let flatten = flattening(
        args.keep_alpha,
        (kind, args.out()),
        &look,
        &image.pixels,
        plan.background,
        &mut notes,
    );
    // A clip's frames may be see-through (a GIF's transparency): blended like any picture's.
    let flatten = match &clip {
        Some(_) if !args.keep_alpha || is_video(kind) => Some(plan.background),
        _ => flatten,
    };
    if args.water.background.is_some() && flatten.is_none() && !plan.letterboxes((width, height)) {
        notes.push(
            "warning: --background has no effect: it colours the bars around a letterboxed \
             picture (--fit contain) and what shows through a transparent one, and this picture \
             is opaque and fills the pool"
                .to_string(),
        );
    }
    let clip_for_palette = clip.clone().zip(timing.clone());
    let mut pictures: Box<dyn PictureSource + '_> = match (clip, timing) {
        (Some(clip), Some(timing)) => {
            options.sound = sound_track(&clip, &timing, kind, args.out(), &mut notes);
            let filter = crate::input::video_input::fit_filter(
                (clip.probe.width, clip.probe.height),
                (width, height),
                plan.fit,
                plan.background,
            );
            Box::new(ClipPictures::new(clip, timing, (width, height), filter)?)
        }
        _ => Box::new(OnePicture(&image.pixels)),
    };
    if let Some(number) = still_frame {
        let sink = StillPngSink::create(args.out(), width, height, &options)?;
        say(&notes);
        let mut runner = runner;
        let progress = progress_bar(number + 1);
        // The clip's picture at that frame (the same picture every frame otherwise).
        for _ in 0..number {
            pictures.next_picture()?;
        }
        let picture = pictures.next_picture()?;
        let (stages, still) =
            still::render_still(&mut runner, number, picture, flatten, sink, &progress)?;
        progress.finish_and_clear();
        let heights = stage_heights(args, runner.shown_heights())?;
        let written = commit_outputs(args.out(), still, heights)?;
        return Ok(RenderSummary {
            path: args.out().to_path_buf(),
            frames: number + 1,
            width,
            height,
            seconds: started.elapsed().as_secs_f64(),
            stages,
            written,
            still_frame: Some(number),
        });
    }
    let mut source: Box<dyn FrameSource> = if args.seamless_loop {
        let seamless = SeamlessLoop::new(runner, frames)?;
        notes.push(format!(
            "--loop: the last {} of the {frames} frames cross-fade into the first, so the \
             animation loops without a jump",
            seamless.overlap()
        ));
        Box::new(seamless)
    } else {
        Box::new(runner)
    };
    let samples = match (&clip_for_palette, kind) {
        // A clip's colours change: its palette is drawn from frames across the part shown.
        (Some((clip, timing)), OutputKind::Gif) => {
            let mut pixels = clip_palette_pixels(clip, timing);
            pixels.extend_from_slice(&image.pixels);
            palette_samples(&pixels, &look, flatten)
        }
        _ => palette_samples(&image.pixels, &look, flatten),
    };
    let sink = open_output(args.out(), &info, &samples, &options)?;
    say(&notes);

    let progress = progress_bar(info.frames);
    let (stages, animation) =
        stream_frames_over(source.as_mut(), pictures.as_mut(), flatten, sink, &progress)?;
    progress.finish_and_clear();

    // Written under a temporary name now, so that if it fails the animation is not saved.
    let heights = stage_heights(args, source.shown_heights())?;
    let written = commit_outputs(args.out(), animation, heights)?;
    Ok(RenderSummary {
        path: args.out().to_path_buf(),
        frames: info.frames,
        width,
        height,
        seconds: started.elapsed().as_secs_f64(),
        stages,
        written,
        still_frame: None,
    })
}

/// For a clip under the water: the part shown, the frame rate and the frame count (which
/// become the scene's), or `None` for a picture, which takes no video option.
fn clip_timing(
    args: &RenderArgs,
    clip: Option<&VideoClip>,
    scene: &mut ripples::Scene,
    notes: &mut Vec<String>,
) -> Result<Option<ClipTiming>> {
    let Some(clip) = clip else {
        let given = args.video.given();
        if let Some(first) = given.first() {
            return Err(UsageError(format!(
                "{first} is for a video under the water (a file ffmpeg reads, given as the \
                 image); there is none"
            ))
            .into());
        }
        return Ok(None);
    };
    notes.extend(clip.probe.truncated_note(&clip.name));
    let timing = ClipTiming::new(
        clip,
        (args.video.start, args.video.duration),
        (args.fps, args.frames),
        args.video.video_end.unwrap_or_default(),
    )?;
    notes.extend(timing.notes.iter().cloned());
    scene.fps = timing.fps;
    scene.frames = timing.frames;
    Ok(Some(timing))
}

/// Pixels from four frames spread over the part of `clip` shown, for a GIF's palette: every
/// few pixels of each, so that together they are no more than the palette takes. A frame that
/// cannot be decoded is left out (the render itself then says what is wrong with the clip).
fn clip_palette_pixels(clip: &VideoClip, timing: &ClipTiming) -> Vec<u8> {
    const FRAMES: u64 = 4;
    const PIXELS_PER_FRAME: usize = 1 << 14;
    let mut pixels = Vec::new();
    for quarter in 0..FRAMES {
        let frame = timing.clip_frames * quarter / FRAMES;
        let Ok(picture) = clip.picture_at(timing.start + frame as f64 / timing.clip_fps) else {
            continue;
        };
        let count = picture.pixels.len() / 4;
        let stride = count.div_ceil(PIXELS_PER_FRAME).max(1);
        pixels.extend(picture.pixels.chunks_exact(4).step_by(stride).flatten());
    }
    pixels
}

/// Whether `kind` is a video format (no alpha channel).
fn is_video(kind: OutputKind) -> bool {
    matches!(kind, OutputKind::Y4m | OutputKind::Mp4 | OutputKind::Webm)
}

/// The clip's sound for an output that can carry it (MP4, WebM), from the part shown and at
/// most as long as the animation; a note when the clip has sound the output drops.
fn sound_track(
    clip: &VideoClip,
    timing: &ClipTiming,
    kind: OutputKind,
    out: &Path,
    notes: &mut Vec<String>,
) -> Option<SoundTrack> {
    if !clip.probe.has_audio {
        return None;
    }
    if !matches!(kind, OutputKind::Mp4 | OutputKind::Webm) {
        notes.push(format!(
            "{}'s sound is not kept: '{}' ({}) has no sound track (write .mp4 or .webm to keep it)",
            clip.name,
            out.display(),
            kind.format_name()
        ));
        return None;
    }
    Some(SoundTrack {
        path: clip.path.clone(),
        start: timing.start,
        seconds: timing.sound_seconds(),
    })
}

/// Refuses, before any work, standard output that is a terminal (an animation is binary), a
/// directory of frames to standard output, and, with `--no-clobber`, an existing file output.
fn check_output_destination(args: &RenderArgs, kind: OutputKind) -> Result<()> {
    if is_standard_output(args.out()) {
        if kind == OutputKind::Directory {
            return Err(UsageError(
                "output '-': a directory of frames cannot go to standard output".into(),
            )
            .into());
        }
        if std::io::stdout().is_terminal() {
            return Err(UsageError(format!(
                "output '-': standard output is a terminal, and the animation ({}) is binary; \
                 redirect it to a file or a program (ripples render ... --out - > water.{})",
                kind.format_name(),
                kind.format_name()
            ))
            .into());
        }
    } else if args.no_clobber && kind != OutputKind::Directory {
        check_not_existing(args.out())?;
    }
    Ok(())
}

/// `--heights-in`: reads the field at `path` for the runner's grid and solver and starts the
/// water from it. Returns a note when cells of the pool's edge or walls held heights that the
/// water cannot keep (they were set to rest).
fn start_from_heights(
    runner: &mut SceneRunner,
    input: &crate::input::InputFile,
    pool: (u32, u32),
) -> Result<Option<String>> {
    let name = &input.label;
    let pool_state = runner.pool();
    let grid = GridShape {
        width: pool_state.solver().width(),
        height: pool_state.solver().height(),
        pool,
        sim_scale: pool_state.sim_scale(),
        solver: pool_state.solver().kind(),
    };
    let loaded = read_heights_as(&input.path, &grid, name)?;
    runner
        .pool_mut()
        .set_heights(loaded.heights())
        .map_err(|error| anyhow!("{name}: {error}"))?;
    let set_to_rest = match (loaded.heights(), runner.pool().solver().heights()) {
        (Heights::I16(given), Heights::I16(now)) => count_changed(given, now),
        (Heights::F32(given), Heights::F32(now)) => count_changed(given, now),
        _ => 0,
    };
    Ok((set_to_rest > 0).then(|| {
        format!(
            "{name}: {set_to_rest} cells on the pool's edge or under walls were set to rest (the \
             edge and walls hold no waves)"
        )
    }))
}

/// How many values differ between two fields of the same size.
fn count_changed<T: PartialEq>(given: &[T], now: &[T]) -> usize {
    given.iter().zip(now).filter(|(a, b)| a != b).count()
}

/// Prints each note on a line of its own on stderr.
fn say(notes: &[String]) {
    for note in notes {
        eprintln!("{note}");
    }
}

/// With `--heights-out`: the field the last frame shows (heights and grid size) as a .npy file
/// under a temporary name beside its path, for [`commit_outputs`] to move into place.
fn stage_heights(
    args: &RenderArgs,
    (heights, width, height): (Heights<'_>, usize, usize),
) -> Result<Option<StagedFile>> {
    let Some(path) = &args.heights_out else {
        return Ok(None);
    };
    let staged = match heights {
        Heights::I16(heights) => stage_npy_i16(path, width, height, heights, args.no_clobber),
        Heights::F32(heights) => stage_npy_f32(path, width, height, heights, args.no_clobber),
    }?;
    Ok(Some(staged))
}

/// Moves the finished animation into place, then the heights if any. If the animation cannot
/// be moved, neither is saved; if only the heights cannot, the error says the animation was.
pub fn commit_outputs(
    out: &Path,
    animation: FinishedOutput,
    heights: Option<StagedFile>,
) -> Result<Written> {
    let written = animation.commit()?;
    if let Some(heights) = heights {
        let shown = if is_standard_output(out) {
            String::from("the animation to standard output")
        } else {
            format!("'{}'", out.display())
        };
        heights.commit().map_err(|error| {
            anyhow!("wrote {shown} ({written}), but not the heights: {error:#}")
        })?;
    }
    Ok(written)
}

/// `--frame N` or `--still`: one PNG image instead of an animation.
#[derive(Debug, Clone, Copy)]
enum StillRequest {
    /// Frame N, from 0.
    Frame(u32),
    /// The last frame.
    Last,
}

impl StillRequest {
    /// The still the options ask for, if any, once the output is checked to be a PNG file.
    fn from_args(args: &RenderArgs, kind: OutputKind, out: &Path) -> Result<Option<Self>> {
        let (request, option) = match (args.frame, args.still) {
            (Some(number), _) => (Self::Frame(number), "--frame"),
            (None, true) => (Self::Last, "--still"),
            (None, false) => return Ok(None),
        };
        if kind != OutputKind::Apng {
            return Err(UsageError(format!(
                "{option} writes one PNG image: --out must be a .png file, got '{}'",
                out.display()
            ))
            .into());
        }
        Ok(Some(request))
    }

    /// The frame's number in an animation of `frames` frames.
    fn frame(self, frames: u32) -> Result<u32> {
        match self {
            Self::Last => Ok(frames - 1),
            Self::Frame(number) if number < frames => Ok(number),
            Self::Frame(number) => Err(UsageError(format!(
                "--frame {number} is past the end of the animation: its {frames} frames are \
                 numbered 0 to {} (--frames sets how many there are)",
                frames - 1
            ))
            .into()),
        }
    }
}

/// The colour frames are blended over before they are encoded, if any: the background,
/// unless `--keep-alpha` keeps the transparency for a format that can store it (a warning in
/// `notes` when it cannot). Nothing to blend (an opaque picture and a look without
/// transparency) is `None` too.
fn flattening(
    keep_alpha: bool,
    (kind, out): (OutputKind, &Path),
    look: &Look,
    image: &[u8],
    background: Colour,
    notes: &mut Vec<String>,
) -> Option<Colour> {
    let video = matches!(kind, OutputKind::Y4m | OutputKind::Mp4 | OutputKind::Webm);
    if keep_alpha && video {
        notes.push(format!(
            "warning: --keep-alpha has no effect on '{}': a video has no alpha channel, so \
             frames are blended over the background ({background})",
            out.display()
        ));
    }
    let transparent = matches!(look, Look::Spring(_)) || !background::is_opaque(image);
    (transparent && (video || !keep_alpha)).then_some(background)
}

/// Frames handed to the encoding thread and not yet taken by it.
pub const FRAMES_IN_FLIGHT: usize = 3;

/// What the frame loop sends to the encoding thread.
enum ToEncoder {
    Frame(Vec<u8>),
    /// Every frame was sent: finish the output.
    Finish,
}

/// The picture under the water, frame after frame: the same one for an image, the next frame
/// of a clip for a video ([`ClipPictures`]).
pub trait PictureSource {
    /// The picture of the next frame: RGBA at the pool's size.
    fn next_picture(&mut self) -> Result<&[u8]>;
}

/// One picture under every frame.
pub struct OnePicture<'a>(pub &'a [u8]);

impl PictureSource for OnePicture<'_> {
    fn next_picture(&mut self) -> Result<&[u8]> {
        Ok(self.0)
    }
}

impl PictureSource for ClipPictures {
    fn next_picture(&mut self) -> Result<&[u8]> {
        ClipPictures::next_picture(self)
    }
}

/// Simulates and renders every remaining frame of `source` over `image` on this thread, blends
/// each over `flatten` when given (making it opaque), while `sink` encodes them on another
/// thread; then finishes the sink and returns the finished output, for the caller to commit.
/// On an error on either side the sink is dropped unfinished (leaving no output) and the first
/// cause is returned.
pub fn stream_frames(
    source: &mut dyn FrameSource,
    image: &[u8],
    flatten: Option<Colour>,
    sink: Box<dyn FrameSink>,
    progress: &ProgressBar,
) -> Result<(StageTimes, FinishedOutput)> {
    stream_frames_over(source, &mut OnePicture(image), flatten, sink, progress)
}

/// [`stream_frames`] over a new picture every frame (a clip's frames), taken from `pictures`.
pub fn stream_frames_over(
    source: &mut dyn FrameSource,
    pictures: &mut dyn PictureSource,
    flatten: Option<Colour>,
    sink: Box<dyn FrameSink>,
    progress: &ProgressBar,
) -> Result<(StageTimes, FinishedOutput)> {
    let (to_encoder, frames) = mpsc::sync_channel::<ToEncoder>(FRAMES_IN_FLIGHT);
    let (give_back, returned) = mpsc::channel::<Vec<u8>>();
    std::thread::scope(|scope| {
        let encoder = std::thread::Builder::new()
            .name("encoder".into())
            .spawn_scoped(scope, move || {
                encode_frames(sink, frames, give_back, progress)
            })
            .map_err(|error| anyhow!("cannot start the encoding thread: {error}"))?;
        let produced = produce_frames(source, pictures, flatten, to_encoder, returned);
        let encoded = encoder
            .join()
            .map_err(|_| anyhow!("internal error: the encoding thread stopped unexpectedly"))?;
        // When the encoder fails, the producer only sees a closed channel: report the cause.
        let (encode, finished) = encoded?;
        let (decode, simulate, render) = produced?;
        let finished =
            finished.ok_or_else(|| anyhow!("internal error: the output was not finished"))?;
        let stages = StageTimes {
            decode,
            simulate,
            render,
            encode,
        };
        Ok((stages, finished))
    })
}

/// The producing side of [`stream_frames`]: returns the time spent waiting for pictures,
/// simulating and rendering.
fn produce_frames(
    source: &mut dyn FrameSource,
    pictures: &mut dyn PictureSource,
    flatten: Option<Colour>,
    to_encoder: mpsc::SyncSender<ToEncoder>,
    returned: mpsc::Receiver<Vec<u8>>,
) -> Result<(Duration, Duration, Duration)> {
    // One frame being rendered, one being encoded, and the ones in the channel.
    const BUFFERS: usize = FRAMES_IN_FLIGHT + 2;
    let stopped = || anyhow!("the encoding thread stopped");
    let (mut decode, mut simulate, mut render) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut allocated = 0;
    while !source.is_finished() {
        if crate::output::interrupt::requested() {
            return Err(anyhow::Error::new(crate::output::interrupt::Interrupted));
        }
        let waiting = Instant::now();
        let image = pictures.next_picture()?;
        decode += waiting.elapsed();
        let mut frame = match returned.try_recv() {
            Ok(frame) => frame,
            Err(_) if allocated < BUFFERS => {
                allocated += 1;
                vec![0u8; image.len()]
            }
            Err(_) => returned.recv().map_err(|_| stopped())?,
        };
        let (simulated, rendered) = source.next_frame(image, &mut frame)?;
        let flattening = Instant::now();
        if let Some(background) = flatten {
            background::flatten(&mut frame, background);
        }
        simulate += simulated;
        render += rendered + flattening.elapsed();
        to_encoder
            .send(ToEncoder::Frame(frame))
            .map_err(|_| stopped())?;
    }
    to_encoder.send(ToEncoder::Finish).map_err(|_| stopped())?;
    Ok((decode, simulate, render))
}

/// The encoding side of [`stream_frames`]: writes frames as they come and sends each buffer
/// back; finishes the sink on [`ToEncoder::Finish`] and drops it unfinished if the producer
/// goes away first. Returns the time spent in the sink, and the finished output.
fn encode_frames(
    mut sink: Box<dyn FrameSink>,
    frames: mpsc::Receiver<ToEncoder>,
    give_back: mpsc::Sender<Vec<u8>>,
    progress: &ProgressBar,
) -> Result<(Duration, Option<FinishedOutput>)> {
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
                let finished = sink.finish()?;
                return Ok((encode + started.elapsed(), Some(finished)));
            }
            // The producer failed: dropping the sink unfinished removes its temporary file.
            Err(mpsc::RecvError) => return Ok((encode, None)),
        }
    }
}

fn check_heights_path(path: &Path, no_clobber: bool) -> Result<()> {
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
    if path.is_dir() {
        return Err(anyhow!(
            "heights output '{}' is a directory",
            path.display()
        ));
    }
    if no_clobber {
        check_not_existing(path)?;
    }
    Ok(())
}

/// Colours the animation will show, for the GIF palette: the source image, and for the lit look
/// the same colours brightened and darkened by the shading and washed by the highlights. With
/// `flatten`, the colours blended over that background as the frames will be (and for the
/// spring look, partly see-through, some blended further); without, the spring look adds a
/// transparent sample so a GIF keeps its see-through water as transparency.
pub fn palette_samples(pixels: &[u8], look: &Look, flatten: Option<Colour>) -> Vec<u8> {
    const MAX_SAMPLES: usize = 1 << 16;
    let count = pixels.len() / 4;
    let stride = count.div_ceil(MAX_SAMPLES).max(1);
    let base: Vec<[u8; 4]> = pixels
        .chunks_exact(4)
        .step_by(stride)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect();
    let mut samples: Vec<u8> = base.iter().flatten().copied().collect();
    if let Look::Lit(lit) = look {
        let variants = [
            (1.0 + lit.shading * 0.5, 0.0),
            (1.0 - lit.shading * 0.5, 0.0),
            (1.0 + lit.shading, 0.15),
            (1.0 + lit.shading, 0.4),
            (1.0 + lit.shading, 0.8),
        ];
        for (gain, highlight) in variants {
            let add = 255.0 * lit.specular * highlight;
            // A quarter of the base for each variant keeps the source colours dominant.
            for pixel in base.iter().step_by(4) {
                for channel in &pixel[..3] {
                    samples.push((f32::from(*channel) * gain + add).clamp(0.0, 255.0) as u8);
                }
                samples.push(pixel[3]);
            }
        }
    }
    if let Look::Spring(_) = look {
        match flatten {
            Some(_) => {
                for alpha in [192, 128, 64] {
                    for pixel in base.iter().step_by(4) {
                        samples.extend_from_slice(&[pixel[0], pixel[1], pixel[2], alpha]);
                    }
                }
            }
            None => samples.extend_from_slice(&[0, 0, 0, 0]),
        }
    }
    if let Some(background) = flatten {
        background::flatten(&mut samples, background);
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

        fn finish(self: Box<Self>) -> Result<FinishedOutput> {
            let mut record = self.record.lock().unwrap();
            record.finished = true;
            Ok(FinishedOutput::in_place(Written {
                frames: record.frames.len() as u32,
                width: 40,
                height: 30,
                changes: Vec::new(),
            }))
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
    ) -> (
        Result<(StageTimes, FinishedOutput)>,
        Arc<Mutex<Record>>,
        SceneRunner,
    ) {
        let record = Arc::new(Mutex::new(Record::default()));
        let sink = Box::new(RecordingSink {
            record: Arc::clone(&record),
            fail_at,
        });
        let mut runner = SceneRunner::new(scene, 40, 30).unwrap();
        let result = stream_frames(&mut runner, image, None, sink, &ProgressBar::hidden());
        (result, record, runner)
    }

    #[test]
    fn every_frame_reaches_the_sink_in_order_and_the_sink_is_finished() {
        let image = ripples::pool_tiles(40, 30).unwrap();
        let (result, record, runner) = stream(rainy_scene(25), &image, None);
        let (stages, finished) = result.unwrap();
        assert_eq!(finished.written().frames, 25);
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

    /// A one-frame GIF finished under its temporary name and heights staged beside it, both
    /// waiting for `commit_outputs`, in a fresh directory.
    fn finished_gif_and_staged_heights() -> (
        tempfile::TempDir,
        PathBuf,
        PathBuf,
        FinishedOutput,
        StagedFile,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("water.gif");
        let heights_path = dir.path().join("heights.npy");
        let info = AnimationInfo {
            width: 4,
            height: 3,
            fps: 30.0,
            frames: 1,
        };
        let mut sink = crate::output::open_sink(&out, &info, &[]).unwrap();
        sink.write_frame(&[200; 4 * 3 * 4]).unwrap();
        let animation = sink.finish().unwrap();
        let heights = stage_npy_i16(&heights_path, 2, 2, &[1, 2, 3, 4], false).unwrap();
        (dir, out, heights_path, animation, heights)
    }

    #[test]
    fn heights_that_cannot_be_moved_into_place_are_reported_after_the_animation() {
        let (dir, out, heights_path, animation, heights) = finished_gif_and_staged_heights();
        // Something in the way of the last rename.
        std::fs::create_dir(&heights_path).unwrap();
        let error = commit_outputs(&out, animation, Some(heights)).unwrap_err();
        let message = format!("{error:#}");
        assert!(
            message.starts_with(&format!(
                "wrote '{}' (1 frame, 4x3), but not the heights: cannot move the finished \
                 output to '{}': ",
                out.display(),
                heights_path.display()
            )),
            "{message}"
        );
        assert!(out.is_file() && heights_path.is_dir());
        // No temporary file left.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn an_animation_that_cannot_be_moved_into_place_takes_the_heights_with_it() {
        let (dir, out, heights_path, animation, heights) = finished_gif_and_staged_heights();
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("keep"), "x").unwrap();
        let error = commit_outputs(&out, animation, Some(heights)).unwrap_err();
        assert!(error.to_string().contains("water.gif"), "{error}");
        assert!(!heights_path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
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
