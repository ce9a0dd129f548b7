//! `ripples play`: the water in a desktop window, for the mouse and the keyboard.
//!
//! The shape follows softbuffer's winit 0.30 examples: an [`App`] implements winit's
//! `ApplicationHandler`, creates its window when the event loop starts, and draws `0RGB` pixels
//! into a softbuffer surface, with no GPU. What happens to the water lives elsewhere, so it can
//! be tested without a display: [`session::Session`] (the pool, the picture, the settings),
//! [`input`] (keys and pointer to commands and gestures), [`mapping`] (window and pool
//! coordinates under resizing and letterboxing), [`clock`] (the fixed time step), [`overlay`]
//! (text), [`stats`] and [`screenshot`].
//!
//! A frame: the steps that fell due on the fixed schedule run (60 per second by default, at
//! most [`clock::MAX_STEPS_PER_FRAME`] per frame), then the water is rendered. When the window
//! is exactly the pool's size the pool renders straight into the window's buffer (no copy);
//! otherwise it renders into a frame of its own that the [`mapping::Scaler`] draws into the
//! window. Step and render are two calls rather than the library's fused
//! `step_and_render`: at 1080p on this machine the fused pass gains nothing measurable (the
//! README's table: 1.88 ns per cell fused against 0.07 + 1.71 apart, with the default look), and
//! apart they can be timed apart for `--stats`. The event loop sleeps until the next step falls
//! due, so frames are paced to the simulation: no busy loop, and a display of any refresh rate
//! sees the water at the same speed.
//!
//! Everything that can be refused (options, scene, pictures) is checked before a window opens.
//! No display is a [`NoDisplay`] error, which the command without arguments turns into the
//! headless render. Closing the window, `Esc` or `Q` end with exit code 0; an error while
//! running (the display lost, a buffer refused) ends the loop and is reported.

pub mod clock;
pub mod input;
pub mod mapping;
pub mod overlay;
pub mod screenshot;
pub mod session;
pub mod stats;

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context as _, Result, anyhow};
use ripples::{Rain, RainSpec};
use softbuffer::Surface;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

use crate::UsageError;
use crate::cli::args::PlayArgs;
use crate::cli::setup::{WaterPlan, fit_to_size};
use crate::input::scene_file::SceneFile;
use crate::input::source_image::SourceImage;
use crate::input::video_input::{ClipPictures, ClipTiming, VideoClip, VideoEnd, fit_filter};
use clock::WindowClock;
use input::{Button, Command, Pointer};
use mapping::{Scaler, Viewport, fit_within};
use overlay::{Canvas, Corner};
use ripples::{CalmWatch, SleepWhenCalm};
use session::{Session, default_rain};
use stats::{FrameTimes, Stats};

/// Pool size over the built-in picture when neither the options nor a scene give one.
pub const DEFAULT_SIZE: (u32, u32) = (1280, 720);
/// Simulation frames per second without a scene file or `--fps`.
pub const DEFAULT_RATE: f64 = 60.0;
/// How long a message stays on the water.
const MESSAGE_TIME: Duration = Duration::from_secs(3);

/// No window can be opened: no display, or one that cannot be reached.
#[derive(Debug)]
pub struct NoDisplay(pub String);

impl std::fmt::Display for NoDisplay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot open a window: {}", self.0)
    }
}

impl std::error::Error for NoDisplay {}

/// Runs `ripples play`; returns the report for stdout (the statistics with `--stats`, else
/// nothing).
pub fn play(args: &PlayArgs) -> Result<String> {
    run(args, false)
}

/// The window `ripples` opens when run without a subcommand: the built-in picture, with rain.
pub fn play_default() -> Result<String> {
    run(&PlayArgs::default(), true)
}

/// What the window needs to know besides the water.
#[derive(Debug, Clone)]
struct Config {
    /// Simulation frames per second.
    rate: f64,
    stats: bool,
    exit_after: Option<Duration>,
    screenshot_dir: PathBuf,
}

fn run(args: &PlayArgs, rain_by_default: bool) -> Result<String> {
    let scene_file = args
        .water
        .scene
        .as_deref()
        .map(SceneFile::load)
        .transpose()?;
    let has_scene_file = scene_file.is_some();
    let mut plan = WaterPlan::load_for_window(&args.water, scene_file, |_| {})?;
    for note in plan.notes.drain(..) {
        eprintln!("{note}");
    }
    let rate = args.fps.unwrap_or(if has_scene_file {
        plan.scene.fps
    } else {
        DEFAULT_RATE
    });
    // The rain is the window's, so R can turn it on and off.
    let rain_spec = plan.scene.rain.take();
    let screenshot_dir = args
        .screenshot_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("."));
    if !screenshot_dir.is_dir() {
        return Err(UsageError(format!(
            "--screenshot-dir '{}': not a directory",
            screenshot_dir.display()
        ))
        .into());
    }
    let maker = SessionMaker {
        raining: rain_by_default || rain_spec.is_some(),
        plan,
        rain_spec,
        rate,
    };
    let config = Config {
        rate,
        stats: args.stats,
        exit_after: args.exit_after.map(Duration::from_secs_f64),
        screenshot_dir,
    };

    let event_loop = EventLoop::new().map_err(|error| NoDisplay(no_display_reason(&error)))?;
    let mut app = App::new(config, maker);
    let outcome = catching_window_panics(|| event_loop.run_app(&mut app))?;
    if let Some(error) = app.error.take() {
        return Err(error);
    }
    outcome.map_err(|error| anyhow!("the window's event loop failed: {error}"))?;
    Ok(app.report())
}

/// Runs `run`, turning a panic raised inside the window system's crates into an error.
///
/// winit unwraps the replies of the X server in places (a window's size, its title), so when
/// the display goes away mid-run (the X server killed, the session ended) it panics rather
/// than returning an error. That is the display lost, not a bug in ripples: this reports it as
/// one line, "lost the connection to the display", and exit code 1. A panic anywhere else is
/// still reported as the internal error it is. (Xlib, for its part, notices a broken
/// connection itself, prints "X connection to :N broken" and ends the process with exit code 1.)
fn catching_window_panics<T>(run: impl FnOnce() -> T) -> Result<T> {
    const WINDOW_SYSTEM_CRATES: [&str; 6] = [
        "winit-",
        "softbuffer-",
        "x11rb",
        "x11-dl",
        "wayland-",
        "smithay-",
    ];
    crate::input::panics::capture(run).map_err(|panic| {
        let file = panic.file.as_deref().unwrap_or_default();
        if WINDOW_SYSTEM_CRATES.iter().any(|name| file.contains(name)) {
            let display = std::env::var("WAYLAND_DISPLAY")
                .or_else(|_| std::env::var("DISPLAY"))
                .unwrap_or_default();
            anyhow!(
                "lost the connection to the display '{display}' (the window system reported: \
                 {panic})"
            )
        } else {
            anyhow!("internal error (a bug in ripples, please report it): {panic}")
        }
    })
}

/// The window, its surface and the water in it.
struct View {
    window: Rc<Window>,
    surface: Surface<Rc<Window>, Rc<Window>>,
    session: Session,
    clock: WindowClock,
    scaler: Scaler,
    /// A pool-sized frame: the render target when the window is scaled, and screenshots.
    frame: Vec<u32>,
    pointer: Pointer,
    shift: bool,
    message: Option<(String, Instant)>,
    title: String,
    /// The screen's size, when known: new windows and pools fit in it.
    screen: Option<(u32, u32)>,
    /// The window's inner size, from the last `Resized` (asking the display every frame
    /// would cost a round trip).
    size: PhysicalSize<u32>,
    /// The video under the water, when the picture is one.
    clip: Option<ClipPlayer>,
    /// The water is calm and nothing is scheduled: no steps and no redraws but for input, a
    /// resize or an expose (see [`Session::calm`]).
    asleep: bool,
    /// When a running window asks whether its water is calm (a pass over the grid): the
    /// first frame that steps, then every few ([`SleepWhenCalm`], the page's rule too).
    calm_watch: CalmWatch,
}

impl View {
    /// Input, a command or a new picture may move the water: a sleeping window runs again, on
    /// a new time base (the time asleep is not caught up).
    fn rouse(&mut self) {
        if self.asleep {
            self.asleep = false;
            self.calm_watch.restart();
            self.clock.restart(Instant::now());
            self.window.request_redraw();
        }
    }
}

/// A clip playing under the water, in a loop, at the pace of the simulation: it moves on only
/// with the steps, so `Space` pauses both, and a slow frame that drops steps slows both alike.
struct ClipPlayer {
    pictures: ClipPictures,
    /// The clip's frame rate.
    fps: f64,
    /// Seconds of the clip played (simulation time).
    played: f64,
    /// The output frame on the water.
    shown: Option<u64>,
}

impl ClipPlayer {
    /// The clip decoded at the pool's `size` (fitted as the plan says).
    fn new(clip: &VideoClip, plan: &WaterPlan, size: (u32, u32)) -> Result<ClipPlayer> {
        let timing = ClipTiming::new(clip, (None, None), (None, Some(1)), VideoEnd::Loop)?;
        let filter = fit_filter(
            (clip.probe.width, clip.probe.height),
            size,
            plan.fit,
            plan.background,
        );
        Ok(ClipPlayer {
            fps: timing.clip_fps,
            pictures: ClipPictures::new(clip.clone(), timing, size, filter)?,
            played: 0.0,
            shown: None,
        })
    }

    /// Plays `seconds` more of the clip, and puts the frame then due under the water.
    fn advance(&mut self, seconds: f64, session: &mut Session) -> Result<()> {
        self.played += seconds;
        let index = (self.played * self.fps + 1e-6).floor() as u64;
        if self.shown != Some(index) {
            session.set_picture(self.pictures.picture(index)?)?;
            self.shown = Some(index);
        }
        Ok(())
    }
}

/// Makes sessions from the plan: the first one, and one more for each image dropped on the
/// window. Kept apart from the window so tests can drop images without a display.
#[derive(Debug)]
struct SessionMaker {
    plan: WaterPlan,
    /// The scene's or `--rain`'s rain, else the default rain for the pool's size.
    rain_spec: Option<RainSpec>,
    /// Simulation frames per second (the default rain's density depends on it).
    rate: f64,
    /// Rain from the start.
    raining: bool,
}

impl SessionMaker {
    /// The pool's size on a screen of `screen`: the one asked for, else the picture's natural
    /// size scaled down to fit the screen.
    fn pool_size(&self, screen: Option<(u32, u32)>) -> (u32, u32) {
        let natural = self.plan.natural_size(DEFAULT_SIZE);
        match (self.plan.size, screen) {
            (Some(size), _) => size,
            (None, Some(screen)) => fit_within(natural, screen),
            (None, None) => natural,
        }
    }

    /// A session over the plan at `size`.
    fn make(&self, (width, height): (u32, u32)) -> Result<Session> {
        let water = self.plan.build(width, height)?;
        for note in &water.notes {
            eprintln!("{note}");
        }
        let seed = self.plan.scene.seed;
        let rain = match &self.rain_spec {
            Some(spec) => rain_from_spec(spec, seed)
                .map_err(|error| anyhow!("{}: rain: {error}", self.plan.scene_name))?,
            None => default_rain(seed, width, height, self.rate)?,
        };
        Ok(Session::new(water, rain, self.raining))
    }

    /// A session over `image` instead of the plan's picture, sized like the first one (the
    /// size asked for, else the image's own, fit to `screen`). The plan keeps the new picture
    /// only if the session could be made.
    fn with_image(&mut self, image: SourceImage, screen: Option<(u32, u32)>) -> Result<Session> {
        let image = match self.plan.size {
            Some(size) => {
                let (fitted, note) = fit_to_size(image, size, self.plan.fit, self.plan.background)?;
                if let Some(note) = note {
                    eprintln!("{note}");
                }
                fitted
            }
            None => image,
        };
        let previous = self.plan.image.replace(image);
        // The dropped picture replaces a clip too.
        let clip = self.plan.clip.take();
        let session = self.make(self.pool_size(screen));
        if session.is_err() {
            self.plan.image = previous;
            self.plan.clip = clip;
        }
        session
    }
}

/// The application: configuration, the maker of sessions, and the view once the window
/// exists.
struct App {
    config: Config,
    maker: SessionMaker,
    view: Option<View>,
    stats: Stats,
    started: Instant,
    error: Option<anyhow::Error>,
}

impl App {
    fn new(config: Config, maker: SessionMaker) -> Self {
        let now = Instant::now();
        Self {
            config,
            maker,
            view: None,
            stats: Stats::new(now),
            started: now,
            error: None,
        }
    }

    /// Stops the loop with `error` (the first one wins).
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: anyhow::Error) {
        if self.error.is_none() {
            self.error = Some(error);
        }
        event_loop.exit();
    }

    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<View> {
        let screen = event_loop
            .primary_monitor()
            .or_else(|| event_loop.available_monitors().next())
            .map(|monitor| monitor.size())
            .filter(|size| size.width > 0 && size.height > 0)
            .map(|size| (size.width, size.height));
        let size = self.maker.pool_size(screen);
        let session = self.maker.make(size)?;
        let window_size = screen.map_or(size, |screen| fit_within(size, screen));
        let title = session.status().title(None);
        let attributes = Window::default_attributes()
            .with_title(title.clone())
            .with_inner_size(PhysicalSize::new(window_size.0, window_size.1))
            .with_min_inner_size(PhysicalSize::new(32, 32));
        let window = Rc::new(
            event_loop
                .create_window(attributes)
                .map_err(|error| anyhow!("cannot open a window: {error}"))?,
        );
        let context = softbuffer::Context::new(Rc::clone(&window))
            .map_err(|error| anyhow!("cannot draw in the window: {error}"))?;
        let surface = Surface::new(&context, Rc::clone(&window))
            .map_err(|error| anyhow!("cannot draw in the window: {error}"))?;
        let now = Instant::now();
        Ok(View {
            size: window.inner_size(),
            window,
            surface,
            frame: vec![0; size.0 as usize * size.1 as usize],
            scaler: Scaler::new(Viewport::fit((0, 0), size)),
            session,
            clock: WindowClock::new(self.config.rate, now),
            pointer: Pointer::default(),
            shift: false,
            message: None,
            title,
            screen,
            clip: match &self.maker.plan.clip {
                Some(clip) => Some(ClipPlayer::new(clip, &self.maker.plan, size)?),
                None => None,
            },
            asleep: false,
            calm_watch: SleepWhenCalm::DEFAULT.watch(),
        })
    }

    /// When `--exit-after` ends the run.
    fn exit_deadline(&self) -> Option<Instant> {
        self.config.exit_after.map(|after| self.started + after)
    }

    /// The statistics for stdout at the end (`--stats`), else nothing.
    fn report(&self) -> String {
        if !self.config.stats {
            return String::new();
        }
        let summary = self.stats.summary(Instant::now());
        let setting = self.view.as_ref().map_or_else(String::new, |view| {
            let viewport = view.scaler.viewport();
            format!(
                " ({}x{} pool in a {}x{} window)",
                viewport.pool.0, viewport.pool.1, viewport.window.0, viewport.window.1,
            )
        });
        let steps_per_frame = self.maker.plan.scene.steps_per_frame;
        format!(
            "played {} frames in {:.1} s{setting}: {summary}; {} simulation frames of {} \
             step{}, {} dropped",
            summary.frames,
            summary.seconds,
            self.stats.steps(),
            steps_per_frame,
            if steps_per_frame == 1 { "" } else { "s" },
            self.view.as_ref().map_or(0, |view| view.clock.dropped()),
        )
    }

    /// One frame: the steps that fell due, the render, the overlay, the present.
    fn redraw(&mut self) -> Result<()> {
        let Some(view) = self.view.as_mut() else {
            return Ok(());
        };
        let started = Instant::now();
        let steps = if view.session.paused() || view.asleep {
            0
        } else {
            view.clock.due(started)
        };
        for _ in 0..steps {
            view.session.tick()?;
        }
        // Calm water with nothing scheduled (and no clip playing): the window sleeps after
        // this frame, which shows the water exactly flat.
        if steps > 0 && view.clip.is_none() && view.calm_watch.check_due() && view.session.calm() {
            view.session.settle();
            view.asleep = true;
        }
        if let Some(clip) = view.clip.as_mut() {
            clip.advance(f64::from(steps) / self.config.rate, &mut view.session)?;
        }
        let simulated = Instant::now();

        let size = view.size;
        let (Some(width), Some(height)) =
            (NonZeroU32::new(size.width), NonZeroU32::new(size.height))
        else {
            // Minimised: nothing to draw.
            return Ok(());
        };
        if view.scaler.viewport().window != (size.width, size.height) {
            view.surface
                .resize(width, height)
                .map_err(|error| anyhow!("cannot resize the window's buffer: {error}"))?;
            view.scaler = Scaler::new(Viewport::fit(
                (size.width, size.height),
                view.session.size(),
            ));
        }
        let mut buffer = view
            .surface
            .buffer_mut()
            .map_err(|error| anyhow!("lost the window's buffer (display gone?): {error}"))?;
        let buffered = Instant::now();
        if view.scaler.viewport().is_one_to_one() {
            view.session.render(&mut buffer)?;
        } else {
            view.session.render(&mut view.frame)?;
            view.scaler.draw(&view.frame, &mut buffer);
        }
        let mut canvas = Canvas::new(&mut buffer, size.width as usize, size.height as usize);
        if view.session.help_shown() {
            let lines = view.session.help_lines(self.stats.fps());
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            canvas.panel(Corner::TopLeft, &lines, true);
        }
        if let Some((message, _)) = &view.message {
            canvas.panel(Corner::BottomLeft, &[message.as_str()], false);
        }
        let rendered = Instant::now();
        buffer
            .present()
            .map_err(|error| anyhow!("cannot show the frame (display gone?): {error}"))?;
        let presented = Instant::now();

        let times = FrameTimes {
            simulate: simulated - started,
            render: rendered - buffered,
            present: (buffered - simulated) + (presented - rendered),
        };
        if let Some(summary) = self.stats.record(times, steps, presented) {
            if self.config.stats {
                eprintln!("{summary}");
            }
            self.update_title();
        }
        Ok(())
    }

    /// Sets the title from the session's state, if it changed.
    fn update_title(&mut self) {
        let fps = self.stats.fps();
        if let Some(view) = self.view.as_mut() {
            let title = view.session.status().title(fps);
            if title != view.title {
                view.window.set_title(&title);
                view.title = title;
            }
        }
    }

    /// Carries out a key's command.
    fn command(&mut self, event_loop: &ActiveEventLoop, command: Command) -> Result<()> {
        let Some(view) = self.view.as_mut() else {
            return Ok(());
        };
        view.rouse();
        match command {
            Command::Quit => event_loop.exit(),
            Command::Screenshot => {
                view.session.render(&mut view.frame)?;
                let (width, height) = view.session.size();
                let message = match screenshot::save(
                    &self.config.screenshot_dir,
                    width,
                    height,
                    &view.frame,
                    SystemTime::now(),
                ) {
                    Ok(path) => {
                        println!("saved {}", path.display());
                        format!("saved {}", shorten(&path))
                    }
                    Err(error) => {
                        eprintln!("warning: {error:#}");
                        format!("{error:#}")
                    }
                };
                view.message = Some((message, Instant::now()));
            }
            _ => {
                let was_paused = view.session.paused();
                if let Some(message) = view.session.command(command)? {
                    view.message = Some((message, Instant::now()));
                }
                if was_paused && !view.session.paused() {
                    view.clock.restart(Instant::now());
                }
            }
        }
        self.update_title();
        self.redraw_if_paused();
        Ok(())
    }

    /// While running, the next step's frame shows any change; while paused, ask for one.
    fn redraw_if_paused(&self) {
        if let Some(view) = &self.view
            && view.session.paused()
        {
            view.window.request_redraw();
        }
    }

    /// An image file dropped on the window: a fresh pool over it, keeping the settings.
    fn load_dropped(&mut self, path: &Path) -> Result<()> {
        let Some(view) = self.view.as_ref() else {
            return Ok(());
        };
        let screen = view.screen;
        // A picture that cannot be used is a message on the water, not the end of the program.
        let loaded = SourceImage::load(path).and_then(|image| self.maker.with_image(image, screen));
        let mut session = match loaded {
            Ok(session) => session,
            Err(error) => {
                eprintln!("warning: {error:#}");
                let view = self.view.as_mut().context("the window is gone")?;
                view.message = Some((format!("{error:#}"), Instant::now()));
                view.window.request_redraw();
                return Ok(());
            }
        };
        let size = session.size();
        let view = self.view.as_mut().context("the window is gone")?;
        view.rouse();
        view.session.carry_settings_to(&mut session)?;
        view.session = session;
        view.clip = None;
        view.frame = vec![0; size.0 as usize * size.1 as usize];
        // The next frame rebuilds the scaler for the new pool.
        view.scaler = Scaler::new(Viewport::fit((0, 0), size));
        let window_size = screen.map_or(size, |screen| fit_within(size, screen));
        // Applied at once on some systems (then there may be no `Resized`), later on others.
        if let Some(applied) = view
            .window
            .request_inner_size(PhysicalSize::new(window_size.0, window_size.1))
        {
            view.size = applied;
        }
        let message = format!("loaded {} ({}x{})", shorten(path), size.0, size.1);
        eprintln!("{message}");
        view.message = Some((message, Instant::now()));
        self.update_title();
        if let Some(view) = &self.view {
            view.window.request_redraw();
        }
        Ok(())
    }

    fn window_event_inner(
        &mut self,
        event_loop: &ActiveEventLoop,
        event: WindowEvent,
    ) -> Result<()> {
        match event {
            WindowEvent::CloseRequested | WindowEvent::Destroyed => event_loop.exit(),
            WindowEvent::RedrawRequested => self.redraw()?,
            WindowEvent::Resized(size) => {
                if let Some(view) = self.view.as_mut() {
                    view.size = size;
                    view.window.request_redraw();
                }
            }
            WindowEvent::KeyboardInput {
                event,
                is_synthetic: false,
                ..
            } if event.state == ElementState::Pressed => {
                if let Some(command) = Command::for_key(&event.logical_key, event.repeat) {
                    self.command(event_loop, command)?;
                }
            }
            WindowEvent::ModifiersChanged(modifiers) => {
                if let Some(view) = self.view.as_mut() {
                    view.shift = modifiers.state().shift_key();
                }
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let button = match button {
                    MouseButton::Left => Button::Left,
                    MouseButton::Right => Button::Right,
                    _ => return Ok(()),
                };
                let Some(view) = self.view.as_mut() else {
                    return Ok(());
                };
                view.rouse();
                match state {
                    ElementState::Pressed => {
                        let viewport = *view.scaler.viewport();
                        if let Some(gesture) = view.pointer.pressed(button, &viewport, view.shift) {
                            view.session.gesture(gesture)?;
                        }
                    }
                    ElementState::Released => {
                        if let Some(gesture) = view.pointer.released(button) {
                            view.session.gesture(gesture)?;
                        }
                    }
                }
                self.redraw_if_paused();
            }
            WindowEvent::CursorMoved { position, .. } => {
                let Some(view) = self.view.as_mut() else {
                    return Ok(());
                };
                let View {
                    pointer,
                    session,
                    scaler,
                    shift,
                    ..
                } = view;
                let mut outcome = Ok(());
                let mut moved_water = false;
                pointer.moved(
                    position.x,
                    position.y,
                    scaler.viewport(),
                    *shift,
                    |gesture| {
                        moved_water = true;
                        if outcome.is_ok() {
                            outcome = session.gesture(gesture);
                        }
                    },
                );
                outcome?;
                if moved_water {
                    view.rouse();
                }
                self.redraw_if_paused();
            }
            WindowEvent::CursorLeft { .. } => {
                if let Some(view) = self.view.as_mut() {
                    view.pointer.left();
                }
            }
            WindowEvent::Focused(false) => {
                if let Some(view) = self.view.as_mut()
                    && let Some(gesture) = view.pointer.release_all()
                {
                    view.session.gesture(gesture)?;
                }
            }
            WindowEvent::DroppedFile(path) => self.load_dropped(&path)?,
            _ => {}
        }
        Ok(())
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.view.is_some() {
            return;
        }
        match self.open(event_loop) {
            Ok(view) => {
                self.view = Some(view);
                self.started = Instant::now();
                self.stats = Stats::new(self.started);
            }
            Err(error) => self.fail(event_loop, error),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        if let Err(error) = self.window_event_inner(event_loop, event) {
            self.fail(event_loop, error);
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        let exit_deadline = self.exit_deadline();
        if exit_deadline.is_some_and(|deadline| now >= deadline) {
            event_loop.exit();
            return;
        }
        let Some(view) = self.view.as_mut() else {
            return;
        };
        let mut wake = exit_deadline;
        let mut earliest = |at: Instant| {
            wake = Some(wake.map_or(at, |wake: Instant| wake.min(at)));
        };
        if let Some((_, shown_at)) = &view.message {
            let expires = *shown_at + MESSAGE_TIME;
            if now >= expires {
                view.message = None;
                view.window.request_redraw();
            } else if view.session.paused() || view.asleep {
                earliest(expires);
            }
        }
        if !view.session.paused() && !view.asleep {
            let due = view.clock.next_due();
            if now >= due {
                view.window.request_redraw();
            } else {
                earliest(due);
            }
        }
        event_loop.set_control_flow(match wake {
            Some(at) => ControlFlow::WaitUntil(at),
            None => ControlFlow::Wait,
        });
    }
}

/// The rain a scene or `--rain` describes.
fn rain_from_spec(spec: &RainSpec, seed: u64) -> Result<Rain, ripples::Error> {
    Rain::new(seed)
        .with_rate(spec.rate)?
        .with_radius(spec.radius[0], spec.radius[1])?
        .with_strength(spec.strength[0], spec.strength[1])
}

/// Why no event loop could start, in words: winit's message without the source location it
/// carries, and the display variables that were tried.
fn no_display_reason(error: &winit::error::EventLoopError) -> String {
    let mut reason = strip_source_location(&error.to_string());
    let set: Vec<String> = ["WAYLAND_DISPLAY", "DISPLAY"]
        .iter()
        .filter_map(|name| {
            std::env::var(name)
                .ok()
                .filter(|value| !value.is_empty())
                .map(|value| format!("{name}={value}"))
        })
        .collect();
    if !set.is_empty() {
        reason += &format!(" ({})", set.join(", "));
    }
    reason
}

/// winit's "os error at path/to/file.rs:765: message." as "message".
fn strip_source_location(text: &str) -> String {
    let message = match text.strip_prefix("os error at ") {
        Some(rest) => rest.split_once(": ").map_or(rest, |(_, message)| message),
        None => text,
    };
    message.trim().trim_end_matches('.').to_string()
}

/// A path for a message on the water: its file name.
fn shorten(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::WaterArgs;

    fn maker(args: &WaterArgs) -> SessionMaker {
        SessionMaker {
            plan: WaterPlan::load(args, None, |_| {}).unwrap(),
            rain_spec: None,
            rate: DEFAULT_RATE,
            raining: false,
        }
    }

    /// A clip of 6 frames at 10 fps, each of one grey (0, 40, 80, ...), written by ffmpeg; `None`
    /// (and a notice) without ffmpeg, unless RIPPLES_E2E=1 makes that a failure.
    fn grey_clip(dir: &Path) -> Option<PathBuf> {
        let path = dir.join("greys.y4m");
        let made = std::process::Command::new("ffmpeg")
            .args(["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i"])
            .arg("color=size=32x24:rate=10:duration=0.6,format=gray,geq=lum='40*N'")
            .args(["-pix_fmt", "yuv420p"])
            .arg(&path)
            .status();
        if !made.is_ok_and(|status| status.success()) {
            assert!(
                std::env::var("RIPPLES_E2E").as_deref() != Ok("1"),
                "ffmpeg is required when RIPPLES_E2E=1"
            );
            eprintln!(
                "skipping: ffmpeg not found on PATH (set RIPPLES_E2E=1 to make this a failure)"
            );
            return None;
        }
        Some(path)
    }

    #[test]
    fn a_clip_plays_with_the_steps_pauses_with_them_and_loops() {
        let dir = tempfile::tempdir().unwrap();
        let Some(clip) = grey_clip(dir.path()) else {
            return;
        };
        // Calm water in the classic look shows the picture as it is.
        let args = WaterArgs {
            image: Some(clip),
            render: Some(ripples::RenderMode::Classic),
            ..WaterArgs::default()
        };
        let maker = SessionMaker {
            plan: WaterPlan::load_for_window(&args, None, |_| {}).unwrap(),
            rain_spec: None,
            rate: DEFAULT_RATE,
            raining: false,
        };
        let clip = maker.plan.clip.clone().expect("the video is seen as one");
        let mut session = maker.make((32, 24)).unwrap();
        let mut player = ClipPlayer::new(&clip, &maker.plan, (32, 24)).unwrap();
        let mut frame = vec![0u32; 32 * 24];
        let mut grey_shown = |session: &mut Session| {
            session.render(&mut frame).unwrap();
            i32::from(frame[12 * 32 + 16].to_le_bytes()[0])
        };
        let mut seen = Vec::new();
        // 60 steps per second and a clip of 10 frames per second: 6 steps per frame.
        for step in 0..48 {
            player.advance(1.0 / DEFAULT_RATE, &mut session).unwrap();
            if step % 6 == 0 {
                seen.push(grey_shown(&mut session));
            }
            if step == 20 {
                // Paused: no steps, the same frame.
                let before = grey_shown(&mut session);
                for _ in 0..30 {
                    player.advance(0.0, &mut session).unwrap();
                }
                assert_eq!(grey_shown(&mut session), before);
            }
        }
        println!("grey of each clip frame shown: {seen:?}");
        // Frames 0 to 5, then the loop starts over.
        let expected = [0, 40, 80, 120, 160, 200, 0, 40];
        for (got, want) in seen.iter().zip(expected) {
            assert!((got - want).abs() <= 6, "{seen:?}");
        }
    }

    fn picture(width: u32, height: u32) -> SourceImage {
        SourceImage {
            width,
            height,
            pixels: vec![200; (width * height * 4) as usize],
        }
    }

    #[test]
    fn the_pool_fits_the_screen_unless_a_size_is_asked_for() {
        let automatic = maker(&WaterArgs::default());
        assert_eq!(automatic.pool_size(None), DEFAULT_SIZE);
        assert_eq!(automatic.pool_size(Some((1920, 1080))), (1280, 720));
        assert_eq!(automatic.pool_size(Some((640, 480))), (640, 360));
        let asked = maker(&WaterArgs {
            size: Some((2000, 100)),
            ..WaterArgs::default()
        });
        assert_eq!(asked.pool_size(Some((640, 480))), (2000, 100));
    }

    #[test]
    fn a_dropped_image_makes_a_pool_of_its_shape_or_of_the_size_asked_for() {
        let mut automatic = maker(&WaterArgs::default());
        let session = automatic
            .with_image(picture(400, 100), Some((200, 200)))
            .unwrap();
        assert_eq!(session.size(), (200, 50));
        // The next session (e.g. after another drop) keeps the new picture.
        assert_eq!(automatic.pool_size(None), (400, 100));

        // The lit look shows flat water as the picture itself (the natural look tints it).
        let mut asked = maker(&WaterArgs {
            size: Some((64, 48)),
            render: Some(ripples::RenderMode::Lit),
            ..WaterArgs::default()
        });
        let mut session = asked.with_image(picture(400, 100), None).unwrap();
        assert_eq!(session.size(), (64, 48));
        let mut frame = vec![0; 64 * 48];
        session.render(&mut frame).unwrap();
        assert!(
            frame.iter().all(|&pixel| pixel == 0x00c8_c8c8),
            "the picture, top byte 0"
        );
    }

    #[test]
    fn a_scene_of_another_size_and_a_dropped_image_are_fitted_like_a_render() {
        let scene = ripples::Scene {
            width: Some(40),
            height: Some(30),
            drops: vec![crate::cli::args::parse_drop("10,15,3,100").unwrap()],
            ..ripples::Scene::default()
        };
        let file = SceneFile {
            scene,
            files: Default::default(),
            directory: PathBuf::new(),
            name: "scene 'test.toml'".to_string(),
            text: String::new(),
        };
        let args = WaterArgs {
            size: Some((80, 60)),
            ..WaterArgs::default()
        };
        let mut maker = SessionMaker {
            plan: WaterPlan::load(&args, Some(file), |_| {}).unwrap(),
            rain_spec: None,
            rate: DEFAULT_RATE,
            raining: false,
        };
        let mut session = maker.make(maker.pool_size(None)).unwrap();
        assert_eq!(session.size(), (80, 60));
        session.tick().unwrap();
        let ripples::Heights::F32(heights) = session.heights() else {
            panic!("the dispersive solver (the default) has f32 heights")
        };
        // The stone fell where the scene put it on its picture, scaled: (21, 31), radius 6.
        // (Deep water stirs faintly everywhere at once: a dent is deeper than 1. The stone's
        // water stands in rims around it, from one radius to three.)
        let row = &heights[31 * 80..32 * 80];
        let dented: Vec<usize> = (0..80).filter(|&x| row[x] < -1.0).collect();
        println!("dented columns: {dented:?}");
        let deepest = (0..80).min_by(|&a, &b| row[a].total_cmp(&row[b])).unwrap();
        assert!((20..=22).contains(&deepest), "deepest at {deepest}");
        assert!((17..=25).all(|x| dented.contains(&x)), "{dented:?}");
        assert!(
            row[..2].iter().chain(&row[42..]).all(|h| h.abs() < 1.0),
            "{row:?}"
        );

        // A dropped picture of another shape is cropped to fill the size asked for, not
        // stretched: the red ends of this wide one are cut off.
        let mut wide = picture(400, 100);
        for (index, pixel) in wide.pixels.chunks_exact_mut(4).enumerate() {
            if !(50..350).contains(&(index % 400)) {
                pixel.copy_from_slice(&[255, 0, 0, 255]);
            }
        }
        let mut session = maker.with_image(wide, None).unwrap();
        let mut frame = vec![0; 80 * 60];
        session.render(&mut frame).unwrap();
        // Still water over the grey middle: one colour everywhere, and not red.
        assert!(frame.iter().all(|&pixel| pixel == frame[0]), "no red");
        let [blue, green, red, _] = frame[0].to_le_bytes();
        assert!(
            red.abs_diff(green) < 40 && red.abs_diff(blue) < 40,
            "{red} {green} {blue}"
        );
    }

    #[test]
    fn winit_messages_lose_their_source_location() {
        // The text winit gives when no display variable is set.
        let text = "os error at /home/x/.cargo/registry/src/winit-0.30.13/src/platform_impl/\
                    linux/mod.rs:765: neither WAYLAND_DISPLAY nor DISPLAY is set.";
        assert_eq!(
            strip_source_location(text),
            "neither WAYLAND_DISPLAY nor DISPLAY is set"
        );
        assert_eq!(strip_source_location("plain words."), "plain words");
    }
}
