//! The command line: clap definitions and the parsers for values like `WxH` and `X,Y,R,S@F`.
//!
//! Value parsers reuse the core's checks, so a radius of 0 is refused with the same words on the
//! command line as in a scene file, and clap turns any of them into a usage error (exit code 2)
//! that names the option and the value. Options whose values may be negative take them in every
//! form a user types (`--drop -5,10`, `--drop=-5,10`, `--seed -1`), and numeric options take a
//! negative number as a value rather than as an unknown option, so that `--shading -1` is
//! refused by the range check that names it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use ripples::look_parameters::{self, Parameter};
use ripples::{DropEvent, RenderMode, SolverKind, SwipeEvent};

/// The help of `--solver`, the same in every subcommand.
const SOLVER_HELP: &str = "The solver: wave (the damped wave equation in floating point: \
     smooth rings; --wave-speed and --damping tune it), classic (integers, the original \
     two-buffer ripple algorithm, bit for bit: fastest, one fixed wave speed), spring (a spring per cell plus spreading between \
     neighbours: --stiffness, --viscosity and their maps tune it) or dispersive (deep-water \
     waves: long waves outrun short ones, so a stone makes a spreading train of rings; --gravity \
     and --damping tune it)";

/// The help of `--render`, the same in every subcommand.
const LOOK_HELP: &str = "The look: natural (the picture is the floor of a pool seen through \
     real water: refraction through --depth, caustics, sky reflection and the water's colour), \
     lit (refraction lit by a light: shading and highlights), classic (refraction only, in whole \
     pixels, as the original ripple algorithm draws it: fastest) or spring (refraction, and \
     fast-moving water turns see-through, made for the spring solver)";

use crate::input::background::Colour;
use crate::input::fit::Fit;

/// Real-time water ripples: render animations of stones, rain and swipes over an image.
#[derive(Debug, Parser)]
#[command(name = "ripples", version, about, long_about = None)]
pub struct Cli {
    /// What to do. With none: the window of `ripples play` over the built-in picture with rain
    /// when a display is available, else the default scene rendered to ripples.gif.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render an animation of water over a picture (PNG, JPEG, GIF, WebP, BMP, TIFF or PNM) or a
    /// video (any file ffmpeg reads; default: built-in pool tiles).
    Render(Box<RenderArgs>),
    /// Time the solver and the renderer on a turbulent and a calm pool, and print the figures.
    Bench(BenchArgs),
    /// Open a window of water over an image: click for stones, drag for a wake, R for rain, H
    /// for help. Takes the render options that describe the water and its look.
    #[cfg(feature = "play")]
    Play(Box<PlayArgs>),
}

/// Options of `ripples play`. The water options override the scene file's values.
#[derive(Debug, Args, Default, Clone)]
pub struct PlayArgs {
    /// The image, the scene and the water, as for `ripples render`.
    #[command(flatten)]
    pub water: WaterArgs,

    /// Simulation frames per second, each a frame of the scene (its steps per frame) and a
    /// redraw: the water moves at this pace on any machine and display [default: the scene
    /// file's fps, else 60].
    #[arg(long, value_name = "F", value_parser = parse_fps)]
    pub fps: Option<f64>,

    /// Print frames per second and where each frame's time goes (simulate, render, present)
    /// once per second, and a summary at exit.
    #[arg(long)]
    pub stats: bool,

    /// Quit by itself after this many seconds (for benchmarks and scripts).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub exit_after: Option<f64>,

    /// Where S saves screenshots [default: the current directory].
    #[arg(long, value_name = "DIR")]
    pub screenshot_dir: Option<PathBuf>,
}

/// Options of `ripples render`. Every option overrides the scene file's value.
#[derive(Debug, Args, Default)]
pub struct RenderArgs {
    /// Output: .gif, .png (animated), .y4m, .mp4, .webm (needs ffmpeg), a directory (a path
    /// ending in '/' or an existing directory) for one PNG per frame, or '-' for standard
    /// output (not a terminal; the format from --format, GIF by default) [default: ripples.gif,
    /// or ripples.png with --frame or --still].
    #[arg(short, long, value_name = "PATH")]
    pub out: Option<PathBuf>,

    /// The output's format: gif, png (animated), y4m, mp4 or webm. Overrides the extension of
    /// --out, and names the format of a name without one or of '-' (standard output).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<crate::output::OutputKind>,

    /// Never replace an existing file: if the output (or --heights-out, or for a directory any
    /// frame file it would write) exists, stop before rendering with an error (exit 1); a file
    /// appearing under that name while rendering is kept too.
    #[arg(long)]
    pub no_clobber: bool,

    /// GIF only: how many levels a pixel may be shown off its true colour where the picture
    /// is flat and bright, beyond the palette's own error, so that small changes are not
    /// stored and the compression finds longer runs; where neighbouring pixels differ, half
    /// that contrast is allowed on top (up to 2.4 times as much), as contrast hides it, and
    /// darker colours get less (black a third). 0 stores every change the palette shows;
    /// higher is smaller and grainier, at most 40 [default: 12].
    #[arg(long, value_name = "LEVELS", value_parser = parse_lossy)]
    pub lossy: Option<u8>,

    /// Number of frames [default: 120].
    #[arg(long, value_name = "N", value_parser = parse_frames)]
    pub frames: Option<u32>,

    /// Frames per second of the output [default: 30].
    #[arg(long, value_name = "F", value_parser = parse_fps)]
    pub fps: Option<f64>,

    /// The image, the scene and the water: what `ripples play` shares.
    #[command(flatten)]
    pub water: WaterArgs,

    /// Also write the final height field (the simulation grid) as a NumPy .npy file.
    #[arg(long, value_name = "FILE.npy")]
    pub heights_out: Option<PathBuf>,

    /// Start the water from this height field instead of calm water: a NumPy .npy file of
    /// shape (rows, columns) of the simulation grid (the pool's size divided by --sim-scale,
    /// rounded up), dtype '<i2' for the classic solver or '<f4' heights above rest (positive
    /// up) for the wave, spring and dispersive solvers. The water starts at rest with that
    /// surface; the pool's edge and walls stay flat. --heights-out of one render is a valid
    /// --heights-in of the next.
    /// Overrides the scene file's `heights` key.
    #[arg(long, value_name = "FILE.npy")]
    pub heights_in: Option<PathBuf>,

    // What the render shows: still water, transparency, one frame, a seamless loop.
    /// Keep still water when nothing disturbs it. Without this, a render with no stones,
    /// swipes, rain, sources or scene file gets rain and three stones, so it is not a still.
    #[arg(long)]
    pub calm: bool,

    /// Keep the transparency of the spring look and of transparent pictures (alpha) for
    /// compositing: full alpha in .png and frame directories, on or off in .gif; no effect on
    /// videos. Without this, frames are blended over --background and opaque.
    #[arg(long)]
    pub keep_alpha: bool,

    /// Write one plain PNG of frame N (numbered from 0, like @FRAME) instead of an animation;
    /// --out, if given, must end in .png.
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_frame_number,
        allow_negative_numbers = true,
        conflicts_with = "still"
    )]
    pub frame: Option<u32>,

    /// Write one plain PNG of the last frame instead of an animation; --out, if given, must end
    /// in .png.
    #[arg(long)]
    pub still: bool,

    /// Make the animation loop without a jump: the last frames cross-fade into the first
    /// (the water's heights are blended, so it still looks like water).
    #[arg(long = "loop", conflicts_with_all = ["frame", "still"])]
    pub seamless_loop: bool,

    /// A video under the water: which part, and what follows its end.
    #[command(flatten)]
    pub video: VideoArgs,
}

impl RenderArgs {
    /// Where the render goes: `--out`, else `ripples.png` for one frame (`--frame`, `--still`)
    /// and `ripples.gif` for an animation.
    pub fn out(&self) -> &std::path::Path {
        match &self.out {
            Some(out) => out,
            None if self.frame.is_some() || self.still => std::path::Path::new("ripples.png"),
            None => std::path::Path::new("ripples.gif"),
        }
    }
}

/// Options for a video under the water (any file ffmpeg reads, given as the image).
#[derive(Debug, Args, Default, Clone)]
pub struct VideoArgs {
    /// Video input: start this many seconds into the clip [default: 0].
    #[arg(long, value_name = "SECONDS", value_parser = parse_start)]
    pub start: Option<f64>,

    /// Video input: use this many seconds of the clip [default: to its end].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub duration: Option<f64>,

    /// Video input: what follows the clip's last frame when --frames asks for more: stop (the
    /// animation ends with the clip), hold (its last frame stays) or loop (it starts over)
    /// [default: stop].
    #[arg(long, value_name = "MODE")]
    pub video_end: Option<crate::input::video_input::VideoEnd>,
}

impl VideoArgs {
    /// The options given, by name, for the error when there is no clip to apply them to.
    pub fn given(&self) -> Vec<&'static str> {
        [
            (self.start.is_some(), "--start"),
            (self.duration.is_some(), "--duration"),
            (self.video_end.is_some(), "--video-end"),
        ]
        .into_iter()
        .filter_map(|(given, name)| given.then_some(name))
        .collect()
    }
}

/// The picture, the scene file and every option of the water and its look: shared by
/// `ripples render` and `ripples play`, and overriding the scene file's values.
#[derive(Debug, Args, Default, Clone)]
pub struct WaterArgs {
    /// The picture under the water: a PNG, JPEG, GIF, WebP, BMP, TIFF or PNM image ('-' reads
    /// one from standard input), or a video (MP4, WebM, MOV, MKV, an animated GIF or WebP, Y4M:
    /// any file ffmpeg reads, told apart by its bytes; needs ffmpeg and ffprobe), played frame by
    /// frame at its own size and rate unless --size or --fps say otherwise, and rendered to its
    /// own length unless a number of frames is given. Default: the scene's image, else built-in
    /// tiles.
    pub image: Option<PathBuf>,

    /// A scene file (TOML) describing the whole animation, or '-' to read it from standard
    /// input (its relative paths are then resolved against the current directory).
    #[arg(long, value_name = "FILE.toml")]
    pub scene: Option<PathBuf>,

    /// Pool size in pixels; an image of another size is fitted to it (see --fit), and a scene
    /// file's coordinates with it [default: the image's size, else 320x240 for render and
    /// 1280x720 for play; play fits either to the screen].
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,

    /// Pixels per simulation cell: 2 simulates a grid of half the image size [default: 1].
    #[arg(long, value_name = "S", value_parser = parse_sim_scale)]
    pub sim_scale: Option<u32>,

    /// Solver steps per frame [default: 1].
    #[arg(long, value_name = "N", value_parser = parse_steps_per_frame)]
    pub steps_per_frame: Option<u32>,

    /// Seed of the rain: any 64-bit integer, a negative one taken modulo 2^64 (-1 is the same
    /// seed as 18446744073709551615) [default: 1].
    #[arg(long, value_name = "N", value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,

    #[arg(
        long,
        value_name = "NAME",
        value_parser = parse_solver,
        help = format!("{SOLVER_HELP} [default: dispersive]")
    )]
    pub solver: Option<SolverKind>,

    /// Wave solver: wave speed in cells per step, up to 4 [default: 0.5].
    #[arg(
        long,
        value_name = "CELLS",
        value_parser = parse_wave_speed,
        allow_negative_numbers = true
    )]
    pub wave_speed: Option<f32>,

    /// Wave and dispersive solvers: fraction of amplitude lost per step, 0 <= d < 1 [default: 0.005].
    #[arg(
        long,
        value_name = "FRACTION",
        value_parser = parse_wave_damping,
        allow_negative_numbers = true
    )]
    pub damping: Option<f32>,

    /// Dispersive solver: gravity in cells per step², 0 < g <= 0.5 [default: 0.1]; a wave of
    /// wavelength L cells turns at sqrt(g 2 pi / L) radians per step.
    #[arg(
        long,
        value_name = "CELLS_PER_STEP2",
        value_parser = parse_gravity,
        allow_negative_numbers = true
    )]
    pub gravity: Option<f32>,

    /// Edges: reflect (waves bounce back) or absorb (open water) [default: reflect].
    #[arg(long, value_name = "MODE", value_parser = parse_boundary)]
    pub boundary: Option<ripples::Boundary>,

    /// Walls: an image where dark pixels (luminance below 50%) are walls, fitted to the pool like
    /// the picture (--fit).
    #[arg(long, value_name = "FILE")]
    pub obstacles: Option<PathBuf>,

    /// The water of a photograph: an image where white pixels (luminance 50% and up) are
    /// water and black ones land, fitted to the pool like the picture (--fit). The land is
    /// drawn untouched in every frame; waves reflect at the shore; stones, rain and the pointer
    /// fall only on water.
    #[arg(long, value_name = "FILE")]
    pub water_mask: Option<PathBuf>,

    /// The picture row of the water's horizon (may be negative: above the picture). The water
    /// is then seen in perspective: waves are simulated on the water plane (radii in pixels at
    /// the nearest water row) and drawn with the photo look, a reflection moved by the waves.
    #[arg(
        long,
        value_name = "ROW",
        value_parser = parse_horizon,
        allow_negative_numbers = true
    )]
    pub horizon: Option<f32>,

    /// With --horizon: the camera's focal length in pixels [default: a 60-degree horizontal
    /// field of view, width / (2 tan 30°)].
    #[arg(
        long,
        value_name = "PIXELS",
        value_parser = parse_focal,
        allow_negative_numbers = true
    )]
    pub focal: Option<f32>,

    /// Photo look (with --horizon): strength of the sun's glints, 0..=4 [default: 1].
    #[arg(
        long,
        value_name = "K",
        value_parser = parse_glints,
        allow_negative_numbers = true
    )]
    pub glints: Option<f32>,

    #[arg(
        long = "source",
        value_name = "KEY=VALUE,...",
        value_parser = parse_source,
        allow_hyphen_values = true,
        help = "A wave generator, with the keys of a [[source]] entry: x=,y= (a point) or \
                x0=,y0=,x1=,y1= (a line), and period= (steps), amplitude=, start=, end= \
                (frames). Repeatable"
    )]
    pub sources: Vec<ripples::SourceEvent>,

    /// Spring solver: uniform stiffness, 0 <= K <= 1 and at most the viscosity; higher rings
    /// faster [default: 0.01].
    #[arg(
        long,
        value_name = "K",
        value_parser = parse_stiffness,
        allow_negative_numbers = true
    )]
    pub stiffness: Option<f32>,

    /// Spring solver: uniform viscosity, 0 <= M <= 1 and at least the stiffness; higher calms
    /// the water sooner [default: 0.02].
    #[arg(
        long,
        value_name = "M",
        value_parser = parse_viscosity,
        allow_negative_numbers = true
    )]
    pub viscosity: Option<f32>,

    /// Spring solver: greyscale image of stiffness (white = stiff), fitted to the grid like the
    /// picture (--fit).
    #[arg(long, value_name = "FILE")]
    pub stiffness_map: Option<PathBuf>,

    /// Spring solver: greyscale image of viscosity (white = calm), fitted to the grid like the
    /// picture (--fit).
    #[arg(long, value_name = "FILE")]
    pub viscosity_map: Option<PathBuf>,

    /// Spring solver: neighbour spreading per pass, 0..=0.25 [default: 0.025].
    #[arg(
        long,
        value_name = "S",
        value_parser = parse_spread,
        allow_negative_numbers = true
    )]
    pub spread: Option<f32>,

    /// Spring solver: spreading passes per step, 1..=16 [default: 4].
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_spread_passes,
        allow_negative_numbers = true
    )]
    pub spread_passes: Option<u32>,

    /// Classic solver damping: amplitude loses 1/2^D per step, D in 1..=15 [default: 5].
    #[arg(
        long,
        value_name = "D",
        value_parser = parse_damping_shift,
        allow_negative_numbers = true
    )]
    pub damping_shift: Option<u32>,

    #[arg(
        long,
        value_name = "LOOK",
        value_parser = parse_render_mode,
        help = format!("{LOOK_HELP} [default: natural]")
    )]
    pub render: Option<RenderMode>,

    #[arg(
        long = "drop",
        value_name = "X,Y[,R[,S]][@FRAME]",
        value_parser = parse_drop,
        allow_hyphen_values = true,
        help = "Drop a stone at X,Y with radius R and strength S, in pixels, at FRAME \
                (defaults 20, 128, frame 0); a point outside the pool (X or Y negative, say) \
                is moved to its edge with a warning. Repeatable"
    )]
    pub drops: Vec<DropEvent>,

    #[arg(
        long = "swipe",
        value_name = "X,Y:X,Y[:...][@FRAME[+FRAMES]]",
        value_parser = parse_swipe,
        allow_hyphen_values = true,
        help = "Drag a stone (radius 3, strength 40) along the points, starting at FRAME and \
                drawn over FRAMES frames (default 1); points outside the pool are moved to its \
                edge with a warning. Repeatable"
    )]
    pub swipes: Vec<SwipeEvent>,

    /// Rain: mean stones per frame (radius 1..4, strength 32..128 unless the scene says).
    #[arg(
        long,
        value_name = "RATE",
        value_parser = parse_rain_rate,
        allow_negative_numbers = true
    )]
    pub rain: Option<f64>,

    #[arg(
        long,
        value_name = "K",
        value_parser = look_value(&look_parameters::PRESENCE),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::PRESENCE,
            "How much the water shows, {range}: one knob for the waves' refraction, \
             caustics, reflections and glints (the natural look's wave height, the lit and \
             spring looks' refraction, with --horizon the photo look's wave height); 0 \
             leaves the picture unmoved, 2 doubles the waves; the classic look ignores it \
             [default: {default}]"
        )
    )]
    pub presence: Option<f32>,

    #[arg(
        long,
        value_name = "K",
        value_parser = look_value(&look_parameters::REFRACTION),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::REFRACTION,
            "Lit look: pixels of displacement per unit of height difference, {range} \
             [default: {default}]"
        )
    )]
    pub refraction: Option<f32>,

    #[arg(
        long,
        value_name = "K",
        value_parser = look_value(&look_parameters::SHADING),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::SHADING,
            "Lit look: diffuse light strength, {range} [default: {default}]"
        )
    )]
    pub shading: Option<f32>,

    #[arg(
        long,
        value_name = "K",
        value_parser = look_value(&look_parameters::SPECULAR),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::SPECULAR,
            "Lit look: specular highlight strength, {range} [default: {default}]"
        )
    )]
    pub specular: Option<f32>,

    #[arg(
        long,
        value_name = "K",
        value_parser = look_value(&look_parameters::SHININESS),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::SHININESS,
            "Lit look: specular exponent, higher is sharper, {range} [default: {default}]"
        )
    )]
    pub shininess: Option<f32>,

    #[arg(
        long,
        value_name = "DEGREES",
        value_parser = look_value(&look_parameters::LIGHT_ANGLE),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::LIGHT_ANGLE,
            "Lit look: direction towards the light in degrees, 90 = top, {range} [default: \
             {default}]"
        )
    )]
    pub light_angle: Option<f32>,

    #[arg(
        long,
        value_name = "K",
        value_parser = look_value(&look_parameters::SPRING_REFRACTION),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::SPRING_REFRACTION,
            "Spring look: pixels of displacement per unit of height difference, {range} \
             [default: {default}]"
        )
    )]
    pub spring_refraction: Option<f32>,

    #[arg(
        long,
        value_name = "K",
        value_parser = look_value(&look_parameters::SPRING_TRANSPARENCY),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::SPRING_TRANSPARENCY,
            "Spring look: alpha drops by 255 * K * velocity^2, {range} [default: \
             {default}]"
        )
    )]
    pub spring_transparency: Option<f32>,

    // The natural look (--render natural).
    #[arg(
        long,
        value_name = "PIXELS",
        value_parser = look_value(&look_parameters::DEPTH),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::DEPTH,
            "Natural look: depth of the pool's floor (the picture) under the water, in \
             pixels, {range}; deeper water bends the view more [default: {default}]"
        )
    )]
    pub depth: Option<f32>,

    #[arg(
        long,
        value_name = "K",
        value_parser = look_value(&look_parameters::CAUSTICS),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::CAUSTICS,
            "Natural look: strength of the caustics, the bright and dark patterns of \
             sunlight focused by the waves on the floor, {range} [default: {default}]"
        )
    )]
    pub caustics: Option<f32>,

    #[arg(
        long,
        value_name = "DEGREES",
        value_parser = look_value(&look_parameters::SUN_ELEVATION),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::SUN_ELEVATION,
            "Natural look, and the photo look with --horizon: the sun's height above the \
             horizon in degrees, {range} (90 = overhead) [default: {default}; 20 with \
             --horizon]"
        )
    )]
    pub sun_elevation: Option<f32>,

    #[arg(
        long,
        value_name = "DEGREES",
        value_parser = look_value(&look_parameters::SUN_AZIMUTH),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::SUN_AZIMUTH,
            "Natural look, and the photo look with --horizon: the sun's direction in \
             degrees, counter-clockwise from the right of the picture (90 = from the top; \
             with --horizon, straight ahead, behind what the photograph shows), {range} \
             [default: {default}; 90 with --horizon]"
        )
    )]
    pub sun_azimuth: Option<f32>,

    /// Natural look: the colour white light takes after --clarity pixels of water: #rrggbb,
    /// rrggbb, white (no tint), grey or black; a colour tints calm water too [default: white,
    /// so calm water is the picture; #bee6e1 is a pale green-blue].
    #[arg(long, value_name = "COLOUR", value_parser = parse_colour)]
    pub water_colour: Option<Colour>,

    #[arg(
        long,
        value_name = "PIXELS",
        value_parser = look_value(&look_parameters::CLARITY),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::CLARITY,
            "Natural look: pixels of water after which white light has the --water-colour, \
             {range}; larger is clearer water [default: {default}]"
        )
    )]
    pub clarity: Option<f32>,

    /// Natural look: a picture of the sky for the reflections: its top edge is straight up, its
    /// bottom edge the horizon, and its width goes once around, its middle beyond the top of
    /// the picture (an ordinary photo of a sky works; crop a 2:1 panorama to its top half)
    /// [default: a blue sky, paler at the horizon].
    #[arg(long, value_name = "FILE")]
    pub sky: Option<PathBuf>,

    #[arg(
        long,
        value_name = "K",
        value_parser = look_value(&look_parameters::WAVE_HEIGHT),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::WAVE_HEIGHT,
            "Natural look: pixels of surface height per unit of the simulation's height, \
             {range}; taller waves bend and focus the light more [default: {default}]. With \
             --horizon, the photo look's: plane units per unit of height, 0..=16 [default: \
             0.004]"
        )
    )]
    pub wave_height: Option<f32>,

    #[arg(
        long,
        value_name = "K",
        value_parser = look_value(&look_parameters::DISPERSION),
        allow_negative_numbers = true,
        help = look_help(
            &look_parameters::DISPERSION,
            "Natural look: chromatic dispersion in units of water's own, {range}: 1 is \
             water's (too slight to see), 10 to 30 part refracted edges into coloured \
             fringes as a prism does; above 0 the floor is read three times per pixel \
             [default: {default}, none]"
        )
    )]
    pub dispersion: Option<f32>,

    // How the picture and the scene meet a pool of another shape.
    /// When the pool's shape differs from the picture's: cover (scale to fill, crop the
    /// centre), contain (show all of it, with bars of the --background colour) or stretch.
    /// A scene file's stones, swipes, sources, walls and maps move with the picture
    /// [default: cover].
    #[arg(long, value_name = "MODE", value_parser = parse_fit)]
    pub fit: Option<Fit>,

    /// The colour behind the water's transparency and in the bars of --fit contain: #rrggbb,
    /// rrggbb, black, white or grey [default: black].
    #[arg(long, value_name = "COLOUR", value_parser = parse_colour)]
    pub background: Option<Colour>,
}

impl WaterArgs {
    /// Refuses `-` (standard input) for both the image and the scene: there is one standard
    /// input.
    pub fn check_standard_input(&self) -> Result<(), crate::UsageError> {
        let is_stdin =
            |path: &Option<PathBuf>| path.as_deref().is_some_and(crate::input::is_standard_input);
        if is_stdin(&self.image) && is_stdin(&self.scene) {
            return Err(crate::UsageError(
                "the image and --scene are both '-': standard input can feed only one of them"
                    .to_string(),
            ));
        }
        Ok(())
    }
}

/// Options of `ripples bench`.
#[derive(Debug, Args, Clone)]
pub struct BenchArgs {
    /// Pool size in pixels (one simulation cell per pixel).
    #[arg(long, value_name = "WxH", value_parser = parse_size, default_value = "1920x1080")]
    pub size: (u32, u32),

    /// Pixels per simulation cell, 1..=16: 2 simulates a grid of half the pool's size and
    /// renders it upsampled to every pixel. The figures stay per pixel, so scales compare.
    #[arg(long, value_name = "S", value_parser = parse_sim_scale, default_value = "1")]
    pub sim_scale: u32,

    /// Frames timed per repetition, 1..=100000.
    #[arg(long, value_name = "N", value_parser = parse_frames, default_value = "100")]
    pub frames: u32,

    /// Repetitions; the report gives the median, 1..=1000.
    #[arg(long, value_name = "R", value_parser = parse_reps, default_value = "5")]
    pub reps: u32,

    /// Worker threads, 1..=1024 [default: all cores]. Several counts (`--threads 1,2`) are
    /// timed in one run, their repetitions interleaved, and each count after the first is
    /// compared with the first.
    #[arg(
        long,
        value_name = "T[,T...]",
        value_parser = parse_threads,
        value_delimiter = ','
    )]
    pub threads: Vec<usize>,

    #[arg(
        long,
        value_name = "NAME",
        value_parser = parse_solver,
        default_value = "classic",
        help = SOLVER_HELP
    )]
    pub solver: SolverKind,

    #[arg(
        long,
        value_name = "LOOK",
        value_parser = parse_render_mode,
        default_value = "classic",
        help = format!("{LOOK_HELP}. The classic look is the bench's default: the speed \
                        figures are for it")
    )]
    pub render: RenderMode,

    /// Kernel backend: scalar, sse4.1, avx2, avx512, neon or simd128 [default: the best this CPU
    /// has].
    #[arg(long, value_name = "NAME", value_parser = parse_backend)]
    pub backend: Option<ripples::Backend>,

    /// Print one JSON object instead of a table (an array of them, one per thread count, when
    /// `--threads` names several). The field hash (`field_fnv1a64`) is the
    /// 64-bit FNV-1a of the starting field's heights, row-major, little-endian: the i16 grid
    /// for the classic solver, the f32 grid (height above rest) for the wave, spring and
    /// dispersive solvers.
    #[arg(long)]
    pub json: bool,
}

fn parse_fit(text: &str) -> Result<Fit, String> {
    text.parse()
}

fn parse_colour(text: &str) -> Result<Colour, String> {
    text.parse()
}

/// A frame number, from 0; whether the animation has that frame is checked with its length.
fn parse_frame_number(text: &str) -> Result<u32, String> {
    let frame = parse_integer(text)?;
    u32::try_from(frame).map_err(|_| {
        if frame < 0 {
            format!("frame must be >= 0 (the first frame is 0), got {frame}")
        } else {
            format!("frame {frame} is out of range")
        }
    })
}

/// Seconds from the start of a clip: 0 or more.
fn parse_start(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(0.0) => Ok(0.0),
        _ => parse_seconds(text).map_err(|error| error.replace("more than 0", "0 or more")),
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, got '{}'", text.trim()))?;
    if seconds.is_finite() && seconds > 0.0 && seconds <= 1e6 {
        Ok(seconds)
    } else {
        Err(format!(
            "seconds must be more than 0 and at most 1000000, got {seconds}"
        ))
    }
}

fn parse_reps(text: &str) -> Result<u32, String> {
    parse_bounded("reps", text, 1, 1000).map(|reps| reps as u32)
}

fn parse_threads(text: &str) -> Result<usize, String> {
    parse_bounded("threads", text, 1, 1024).map(|threads| threads as usize)
}

fn parse_bounded(name: &str, text: &str, min: i64, max: i64) -> Result<i64, String> {
    let value = parse_integer(text)?;
    if value < min {
        Err(format!("{name} must be >= {min}, got {value}"))
    } else if value > max {
        Err(format!("{name} must be <= {max}, got {value}"))
    } else {
        Ok(value)
    }
}

/// A backend name that this CPU can run.
fn parse_backend(text: &str) -> Result<ripples::Backend, String> {
    let backend: ripples::Backend = text
        .trim()
        .parse()
        .map_err(|e: ripples::Error| e.to_string())?;
    if backend.is_available() {
        Ok(backend)
    } else {
        let available: Vec<&str> = ripples::Backend::available()
            .map(ripples::Backend::name)
            .collect();
        Err(format!(
            "backend '{backend}' is not available on this CPU (available: {})",
            available.join(", ")
        ))
    }
}

fn parse_frames(text: &str) -> Result<u32, String> {
    ripples::limits::check_frames(parse_integer(text)?).map_err(|e| e.to_string())
}

fn parse_fps(text: &str) -> Result<f64, String> {
    let fps: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number, got '{text}'"))?;
    ripples::limits::check_fps(fps).map_err(|e| e.to_string())
}

fn parse_sim_scale(text: &str) -> Result<u32, String> {
    ripples::limits::check_sim_scale(parse_integer(text)?).map_err(|e| e.to_string())
}

fn parse_steps_per_frame(text: &str) -> Result<u32, String> {
    ripples::limits::check_steps_per_frame(parse_integer(text)?).map_err(|e| e.to_string())
}

fn parse_damping_shift(text: &str) -> Result<u32, String> {
    ripples::limits::check_damping_shift(parse_integer(text)?).map_err(|e| e.to_string())
}

fn parse_solver(text: &str) -> Result<SolverKind, String> {
    text.parse().map_err(|e: ripples::Error| e.to_string())
}

fn parse_float(text: &str) -> Result<f32, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("expected a number, got '{}'", text.trim()))
}

fn parse_horizon(text: &str) -> Result<f32, String> {
    let horizon = parse_float(text)?;
    if horizon.is_finite() {
        Ok(horizon)
    } else {
        Err(format!("expected a picture row, got '{}'", text.trim()))
    }
}

fn parse_focal(text: &str) -> Result<f32, String> {
    let focal = parse_float(text)?;
    if focal.is_finite() && focal > 0.0 {
        Ok(focal)
    } else {
        Err(format!(
            "focal length must be a positive number of pixels, got '{}'",
            text.trim()
        ))
    }
}

fn parse_glints(text: &str) -> Result<f32, String> {
    let glints = parse_float(text)?;
    ripples::PhotoLook {
        glints,
        ..ripples::PhotoLook::default()
    }
    .validate()
    .map(|()| glints)
    .map_err(|error| error.to_string())
}

fn parse_gravity(text: &str) -> Result<f32, String> {
    let gravity = parse_float(text)?;
    let mut solver = ripples::DispersiveSolver::new(3, 3).map_err(|e| e.to_string())?;
    solver.set_gravity(gravity).map_err(|e| e.to_string())?;
    Ok(gravity)
}

fn parse_wave_speed(text: &str) -> Result<f32, String> {
    let speed = parse_float(text)?;
    let mut solver = ripples::WaveSolver::new(3, 3).map_err(|e| e.to_string())?;
    solver.set_wave_speed(speed).map_err(|e| e.to_string())?;
    Ok(speed)
}

fn parse_wave_damping(text: &str) -> Result<f32, String> {
    let damping = parse_float(text)?;
    let mut solver = ripples::WaveSolver::new(3, 3).map_err(|e| e.to_string())?;
    solver.set_damping(damping).map_err(|e| e.to_string())?;
    Ok(damping)
}

/// A seed: any integer from -2^63 to 2^64 - 1. A negative one is taken modulo 2^64, so every
/// value a signed or an unsigned 64-bit variable holds is a seed, and no two of the signed ones
/// are the same seed.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let refuse = || {
        format!(
            "seed must be an integer from {} to {}, got '{text}'",
            i64::MIN,
            u64::MAX
        )
    };
    if text.starts_with('-') {
        text.parse::<i64>()
            .map(|seed| seed as u64)
            .map_err(|_| refuse())
    } else {
        text.parse::<u64>().map_err(|_| refuse())
    }
}

/// A parser for one number of the look, checked by the rule the scene file's `[look]` follows
/// (the library's [`Parameter::check`]).
fn look_value(
    parameter: &'static Parameter,
) -> impl Fn(&str) -> Result<f32, String> + Clone + Send + Sync + 'static {
    move |text| {
        let value = parse_float(text)?;
        parameter.check(value).map_err(|e| e.to_string())
    }
}

/// The help of one number of the look: `template` with `{range}` and `{default}` filled in from
/// the library's [`Parameter`], so that `--help` states the range and default the library
/// checks and uses.
fn look_help(parameter: &Parameter, template: &str) -> String {
    template
        .replace("{range}", &parameter.range())
        .replace("{default}", &parameter.default.to_string())
}

/// A spring solver to check one spring value on, by the rules the scene file follows.
fn probe_spring_solver() -> Result<ripples::SpringSolver, String> {
    ripples::SpringSolver::new(3, 3).map_err(|e| e.to_string())
}

fn parse_stiffness(text: &str) -> Result<f32, String> {
    let stiffness = parse_float(text)?;
    // Checked alone here, against the largest viscosity (1); against the viscosity in use once
    // the scene and the options are merged.
    probe_spring_solver()?
        .set_springs(stiffness, 1.0)
        .map(|()| stiffness)
        .map_err(|e| e.to_string())
}

fn parse_viscosity(text: &str) -> Result<f32, String> {
    let viscosity = parse_float(text)?;
    probe_spring_solver()?
        .set_springs(0.0, viscosity)
        .map(|()| viscosity)
        .map_err(|e| e.to_string())
}

fn parse_spread(text: &str) -> Result<f32, String> {
    let spread = parse_float(text)?;
    let mut solver = probe_spring_solver()?;
    let passes = solver.spread_passes();
    solver
        .set_spread(spread, passes)
        .map(|()| spread)
        .map_err(|e| e.to_string())
}

fn parse_spread_passes(text: &str) -> Result<u32, String> {
    let passes = parse_integer(text)?;
    let passes =
        u32::try_from(passes).map_err(|_| format!("spread passes must be >= 1, got {passes}"))?;
    let mut solver = probe_spring_solver()?;
    let spread = solver.spread();
    solver
        .set_spread(spread, passes)
        .map(|()| passes)
        .map_err(|e| e.to_string())
}

fn parse_boundary(text: &str) -> Result<ripples::Boundary, String> {
    text.parse().map_err(|e: ripples::Error| e.to_string())
}

/// `key=value,...` with the keys of a `[[source]]` entry.
pub fn parse_source(text: &str) -> Result<ripples::SourceEvent, String> {
    let mut source = ripples::SourceEvent {
        x: None,
        y: None,
        x0: None,
        y0: None,
        x1: None,
        y1: None,
        period: ripples::SourceEvent::DEFAULT_PERIOD,
        amplitude: ripples::SourceEvent::DEFAULT_AMPLITUDE,
        start: 0,
        end: None,
    };
    for pair in text.split(',') {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("expected key=value, got '{pair}'"))?;
        let number: f64 = value
            .trim()
            .parse()
            .map_err(|_| format!("{key}: expected a number, got '{value}'"))?;
        let integer = || {
            if number.fract() == 0.0 && number.abs() <= f64::from(i32::MAX) {
                Ok(number as i32)
            } else {
                Err(format!("{key}: expected an integer, got '{value}'"))
            }
        };
        let frame = || {
            integer()
                .and_then(|f| u32::try_from(f).map_err(|_| format!("{key} must be >= 0, got {f}")))
        };
        match key.trim() {
            "x" => source.x = Some(integer()?),
            "y" => source.y = Some(integer()?),
            "x0" => source.x0 = Some(integer()?),
            "y0" => source.y0 = Some(integer()?),
            "x1" => source.x1 = Some(integer()?),
            "y1" => source.y1 = Some(integer()?),
            "period" => source.period = number as f32,
            "amplitude" => source.amplitude = number as f32,
            "start" => source.start = frame()?,
            "end" => source.end = Some(frame()?),
            other => {
                return Err(format!(
                    "unknown key '{other}' (expected x, y, x0, y0, x1, y1, period, amplitude, start, end)"
                ));
            }
        }
    }
    // The scene file's rules for a `[[source]]`, which name it "source #1": here it is the one
    // the option gives.
    let alone = ripples::Scene {
        sources: vec![source],
        ..ripples::Scene::default()
    };
    alone.validate().map_err(|e| {
        let message = e.to_string();
        message
            .strip_prefix("source #1: ")
            .map_or_else(|| message.clone(), str::to_string)
    })?;
    Ok(source)
}

fn parse_render_mode(text: &str) -> Result<RenderMode, String> {
    text.parse().map_err(|e: ripples::Error| e.to_string())
}

fn parse_rain_rate(text: &str) -> Result<f64, String> {
    let rate: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of stones per frame, got '{text}'"))?;
    ripples::Rain::new(0)
        .with_rate(rate)
        .map(|_| rate)
        .map_err(|e| e.to_string())
}

/// `WxH`, e.g. `640x480`, within the size limits.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (width, height) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, e.g. 640x480, got '{text}'"))?;
    let width = parse_integer(width)?;
    let height = parse_integer(height)?;
    if width < 0 || height < 0 {
        return Err(format!("size must be positive, got {width}x{height}"));
    }
    ripples::limits::check_size(width as u64, height as u64).map_err(|e| e.to_string())
}

/// `X,Y[,R[,S]][@FRAME]`.
pub fn parse_drop(text: &str) -> Result<DropEvent, String> {
    let (fields, frame) = split_frame(text)?;
    let numbers = fields
        .split(',')
        .map(parse_integer)
        .collect::<Result<Vec<i64>, String>>()?;
    let (x, y, radius, strength) = match numbers[..] {
        [x, y] => (x, y, None, None),
        [x, y, r] => (x, y, Some(r), None),
        [x, y, r, s] => (x, y, Some(r), Some(s)),
        _ => {
            return Err(format!(
                "expected X,Y[,RADIUS[,STRENGTH]][@FRAME], got '{text}'"
            ));
        }
    };
    let radius = match radius {
        Some(r) => ripples::limits::check_radius(r).map_err(|e| e.to_string())?,
        None => DropEvent::DEFAULT_RADIUS,
    };
    let strength = match strength {
        Some(s) => ripples::limits::check_strength(s).map_err(|e| e.to_string())?,
        None => DropEvent::DEFAULT_STRENGTH,
    };
    Ok(DropEvent {
        frame: frame.start,
        x: coordinate(x)?,
        y: coordinate(y)?,
        radius,
        strength,
    })
}

/// `X,Y:X,Y[:...][@FRAME[+FRAMES]]`.
pub fn parse_swipe(text: &str) -> Result<SwipeEvent, String> {
    let (fields, frame) = split_frame(text)?;
    let points = fields
        .split(':')
        .map(|point| {
            let (x, y) = point
                .split_once(',')
                .ok_or_else(|| format!("expected X,Y points separated by ':', got '{point}'"))?;
            Ok([
                coordinate(parse_integer(x)?)?,
                coordinate(parse_integer(y)?)?,
            ])
        })
        .collect::<Result<Vec<[i32; 2]>, String>>()?;
    Ok(SwipeEvent {
        frame: frame.start,
        duration: frame.duration,
        points,
        radius: SwipeEvent::DEFAULT_RADIUS,
        strength: SwipeEvent::DEFAULT_STRENGTH,
    })
}

/// When an event happens: `@FRAME` and, for swipes, `+FRAMES`.
struct EventTime {
    start: u32,
    duration: u32,
}

fn split_frame(text: &str) -> Result<(&str, EventTime), String> {
    let Some((fields, when)) = text.split_once('@') else {
        return Ok((
            text,
            EventTime {
                start: 0,
                duration: 1,
            },
        ));
    };
    let (start, duration) = match when.split_once('+') {
        Some((start, duration)) => (start, Some(duration)),
        None => (when, None),
    };
    let start = parse_integer(start)?;
    let start = u32::try_from(start).map_err(|_| format!("frame must be >= 0, got {start}"))?;
    let duration = match duration {
        Some(duration) => {
            let frames = parse_integer(duration)?;
            u32::try_from(frames)
                .ok()
                .filter(|&f| f >= 1)
                .ok_or_else(|| format!("duration must be >= 1 frame, got {frames}"))?
        }
        None => 1,
    };
    Ok((fields, EventTime { start, duration }))
}

fn parse_lossy(text: &str) -> Result<u8, String> {
    let most = crate::output::MAX_LOSSY;
    u8::try_from(parse_integer(text)?)
        .ok()
        .filter(|levels| *levels <= most)
        .ok_or_else(|| format!("must be 0 to {most} levels, got {}", text.trim()))
}

fn parse_integer(text: &str) -> Result<i64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("expected an integer, got '{}'", text.trim()))
}

fn coordinate(value: i64) -> Result<i32, String> {
    i32::try_from(value).map_err(|_| format!("coordinate {value} is out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_are_checked() {
        assert_eq!(parse_size("640x480"), Ok((640, 480)));
        assert_eq!(parse_size("3X2"), Ok((3, 2)));
        assert!(parse_size("0x5").unwrap_err().contains("0x5"));
        assert!(parse_size("640").unwrap_err().contains("'640'"));
        assert!(parse_size("99999x10").unwrap_err().contains("too large"));
        assert_eq!(
            parse_size("-3x10"),
            Err("size must be positive, got -3x10".to_string())
        );
    }

    #[test]
    fn play_durations_are_checked() {
        assert_eq!(parse_seconds("2.5"), Ok(2.5));
        assert!(parse_seconds("0").unwrap_err().contains("got 0"));
        assert_eq!(
            parse_seconds("inf"),
            Err("seconds must be more than 0 and at most 1000000, got inf".to_string())
        );
        assert!(parse_seconds("soon").unwrap_err().contains("'soon'"));
    }

    #[test]
    fn bench_counts_and_backends_are_checked() {
        assert_eq!(parse_reps("1000"), Ok(1000));
        assert_eq!(parse_reps("0").unwrap_err(), "reps must be >= 1, got 0");
        assert_eq!(
            parse_threads("1025").unwrap_err(),
            "threads must be <= 1024, got 1025"
        );
        assert!(parse_threads("two").unwrap_err().contains("'two'"));
        assert_eq!(parse_backend("scalar"), Ok(ripples::Backend::Scalar));
        assert!(parse_backend("mmx").unwrap_err().contains("'mmx'"));
        for backend in ripples::Backend::ALL {
            match parse_backend(backend.name()) {
                Ok(parsed) => assert!(parsed == backend && backend.is_available()),
                Err(message) => {
                    assert!(!backend.is_available());
                    assert!(message.contains(backend.name()), "{message}");
                }
            }
        }
    }

    #[test]
    fn drops_parse_with_defaults_and_frames() {
        let drop = parse_drop("10,20").unwrap();
        assert_eq!(
            (drop.x, drop.y, drop.radius, drop.strength, drop.frame),
            (10, 20, 20, 128, 0)
        );
        let drop = parse_drop("10,20,3,50@7").unwrap();
        assert_eq!((drop.radius, drop.strength, drop.frame), (3, 50, 7));
        assert_eq!(
            parse_drop("1,1,0").unwrap_err(),
            "radius must be >= 1, got 0"
        );
        assert_eq!(
            parse_drop("1,1,3,-5").unwrap_err(),
            "strength must be >= 0, got -5"
        );
        assert_eq!(
            parse_drop("1").unwrap_err(),
            "expected X,Y[,RADIUS[,STRENGTH]][@FRAME], got '1'"
        );
        assert!(parse_drop("a,b").unwrap_err().contains("'a'"));
        assert!(parse_drop("1,1@-2").unwrap_err().contains("-2"));
    }

    #[test]
    fn swipes_parse_points_and_timing() {
        let swipe = parse_swipe("1,2:30,40:50,6@5+10").unwrap();
        assert_eq!(swipe.points, vec![[1, 2], [30, 40], [50, 6]]);
        assert_eq!((swipe.frame, swipe.duration), (5, 10));
        assert_eq!(
            parse_swipe("1,2;3,4").unwrap_err(),
            "expected an integer, got '2;3,4'"
        );
        assert!(parse_swipe("1,2:3,4@0+0").unwrap_err().contains("duration"));
    }
}
