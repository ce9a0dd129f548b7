//! From the command line, a scene file and images to a pool ready to run: what `ripples render`
//! and `ripples play` share.
//!
//! Setting up is split in two because the window needs it so. [`WaterPlan::load`] does
//! everything that reads files or can be refused (the scene, the overrides, the checks, the
//! picture, the walls and the spring maps), before anything else happens, so that a bad option
//! is an error before a window opens. [`WaterPlan::build`] then makes the pool at a size chosen
//! afterwards: the render takes the natural size, the window fits it to the screen, which it
//! only knows once the display is open, and builds again when an image is dropped on it.
//!
//! Loading also decides who is to blame for a value that does not fit: a scene file's own
//! mistake is an error naming the file (exit code 1), while a mix that only the command line's
//! options made wrong (`--stiffness` above the file's viscosity) is a usage error (exit code 2),
//! like every other wrong option. Options that would do nothing are warned about here
//! ([`crate::cli::inert_options`]), with the render's or the window's idea of "nothing".
//!
//! A pool of another shape than its picture gets the picture fitted as `--fit` says (cover,
//! contain or stretch, [`crate::input::fit`]), and so do the walls and the spring maps. The scene
//! file's stones, swipes and sources are given in the scene's own size and move with the
//! picture ([`ripples::Scene::rescale`]); those of the command line are in the pixels of the
//! size asked for, and move only when the window shrinks the pool to fit the screen. The bars
//! around a letterboxed picture are land, never water, whatever the mask says; and once the pool
//! is built, every stone, swipe, source and wall that lands where no water moves is named
//! ([`crate::cli::landing`]), since the frames alone would not show the mistake.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Result, anyhow};
use ripples::{FloatImage, Scene, SceneRunner, Solver};

use crate::UsageError;
use crate::cli::args::WaterArgs;
use crate::cli::inert_options::{Frontend, inert_options};
use crate::cli::landing::{self, WaterMap};
use crate::input::background::Colour;
use crate::input::fit::{self, Fill, Fit, Placement};
use crate::input::scene_file::{SceneFile, SceneFiles};
use crate::input::source_image::SourceImage;
use crate::input::video_input::VideoClip;
use crate::input::{InputFile, is_standard_input};

/// The pictures the options and the scene file name: the option wins over the scene's key.
/// Each with its role; the image also says whether it comes from standard input.
struct PicturePaths {
    image: Option<InputFile>,
    image_from_stdin: bool,
    obstacles: Option<InputFile>,
    water_mask: Option<InputFile>,
    stiffness_map: Option<InputFile>,
    viscosity_map: Option<InputFile>,
    sky: Option<InputFile>,
    /// The pictures of the scene's floats, by float (only a scene file names them).
    floats: Vec<Option<InputFile>>,
}

impl PicturePaths {
    fn resolve(args: &WaterArgs, scene_file: Option<&SceneFile>) -> Self {
        let pick = |option: &Option<PathBuf>,
                    (flag, key): (&str, &str),
                    value: fn(&SceneFiles) -> &Option<String>,
                    what: &str|
         -> Option<InputFile> {
            match option {
                Some(path) => Some(InputFile {
                    role: format!("the {what}"),
                    label: format!("{flag} '{}'", path.display()),
                    path: path.clone(),
                }),
                None => scene_file.and_then(|file| {
                    value(&file.files).as_ref().map(|path| InputFile {
                        role: format!("the scene's {what}"),
                        label: format!("{} '{path}'", file.describe_key(key)),
                        path: file.directory.join(path),
                    })
                }),
            }
        };
        let image_from_stdin = args.image.as_deref().is_some_and(is_standard_input);
        Self {
            image: pick(&args.image, ("image", "image"), |s| &s.image, "input image"),
            image_from_stdin,
            obstacles: pick(
                &args.obstacles,
                ("--obstacles", "obstacles"),
                |s| &s.obstacles,
                "obstacles image",
            ),
            water_mask: pick(
                &args.water_mask,
                ("--water-mask", "water_mask"),
                |s| &s.water_mask,
                "water mask",
            ),
            stiffness_map: pick(
                &args.stiffness_map,
                ("--stiffness-map", "stiffness_map"),
                |s| &s.stiffness_map,
                "stiffness map",
            ),
            viscosity_map: pick(
                &args.viscosity_map,
                ("--viscosity-map", "viscosity_map"),
                |s| &s.viscosity_map,
                "viscosity map",
            ),
            sky: pick(&args.sky, ("--sky", "sky"), |s| &s.sky, "sky image"),
            floats: scene_file.map_or_else(Vec::new, |file| {
                let images = file.files.float_images.iter().map(Option::as_ref);
                images
                    .enumerate()
                    .map(|(index, image)| {
                        image.map(|path| InputFile {
                            role: format!("the scene's float #{} image", index + 1),
                            label: format!("{}: float #{} image '{path}'", file.name, index + 1),
                            path: file.directory.join(path),
                        })
                    })
                    .collect()
            }),
        }
    }
}

/// Every file the water is read from: the scene file, its image and maps, and the pictures the
/// options name (standard input excepted: it is no file a render could overwrite).
pub fn input_files(args: &WaterArgs, scene_file: Option<&SceneFile>) -> Vec<InputFile> {
    let paths = PicturePaths::resolve(args, scene_file);
    let scene = args
        .scene
        .as_ref()
        .filter(|path| !is_standard_input(path))
        .map(|path| InputFile {
            role: "the scene file".to_string(),
            label: crate::input::scene_file::describe(path),
            path: path.clone(),
        });
    let image = paths.image.filter(|_| !paths.image_from_stdin);
    [
        scene,
        image,
        paths.obstacles,
        paths.water_mask,
        paths.stiffness_map,
        paths.viscosity_map,
        paths.sky,
    ]
    .into_iter()
    .chain(paths.floats)
    .flatten()
    .collect()
}

/// Everything the options and the scene file ask for, loaded and checked, before the pool's
/// size is settled.
#[derive(Debug, Clone)]
pub struct WaterPlan {
    /// The scene with the command line's overrides, validated.
    pub scene: Scene,
    /// How errors name the scene: "scene 'x.toml'" or "options".
    pub scene_name: String,
    /// The size the options or the scene ask for, if any.
    pub size: Option<(u32, u32)>,
    /// The picture under the water at its own size (already at `size` when one is given);
    /// `None` for the built-in tiles, drawn at whatever size the pool gets.
    pub image: Option<SourceImage>,
    /// The walls' picture (dark pixels are walls) and what it is (for messages).
    obstacles: Option<(SourceImage, InputFile)>,
    /// The water mask's picture and what it is (for messages): white pixels are water.
    water_mask: Option<(SourceImage, InputFile)>,
    /// Where the horizon and the focal length come from (for messages).
    camera_sources: [String; 2],
    /// The picture's own size, which the horizon and focal length are given in.
    picture_size: Option<(u32, u32)>,
    /// The spring maps' pictures (loaded only for the spring solver).
    stiffness_map: Option<SourceImage>,
    viscosity_map: Option<SourceImage>,
    /// The sky picture the natural look reflects (loaded only when that look can be shown).
    sky: Option<SourceImage>,
    /// The pictures of the scene's floats, by float.
    float_images: Vec<Option<Arc<FloatImage>>>,
    /// How pictures, and the scene with them, meet a pool of another shape.
    pub fit: Fit,
    /// The colour of the bars around a picture fitted with [`Fit::Contain`].
    pub background: Colour,
    /// The size the scene file's coordinates are given in: its `width` and `height`, else its
    /// picture's; `None` without a scene file.
    scene_size: Option<(u32, u32)>,
    /// How many of the scene's drops, swipes and sources came from the scene file (they come
    /// first): those are in the scene's coordinates, the others in the pool's asked-for size.
    scene_events: EventCounts,
    /// How many drops, swipes and sources the scene file and the options gave: those after
    /// them (the command's default stones) are not the user's to be warned about.
    given_events: EventCounts,
    /// What was done that the user should hear of (a picture cropped to the size asked for),
    /// one line each, for the command to print once its checks have passed: a line before an
    /// error would bury the error.
    pub notes: Vec<String>,
    /// The video under the water, when the image is one (`image` is then its first frame).
    pub clip: Option<VideoClip>,
}

/// How many drops, swipes and sources a scene has.
#[derive(Debug, Clone, Copy, Default)]
struct EventCounts {
    drops: usize,
    swipes: usize,
    sources: usize,
}

/// A pool ready to run, with what it was made from.
#[derive(Debug)]
pub struct Water {
    /// The scene on its pool.
    pub runner: SceneRunner,
    /// The picture at the pool's size (the pool draws the walls over it).
    pub image: SourceImage,
    /// The spring maps at the grid's size, as set on the solver, to set again after a switch.
    pub stiffness_map: Option<Vec<f32>>,
    /// See `stiffness_map`.
    pub viscosity_map: Option<Vec<f32>>,
    /// What was done that the user should hear of (the scene scaled to the pool), one line
    /// each; see [`WaterPlan::notes`].
    pub notes: Vec<String>,
}

impl WaterPlan {
    /// Reads the scene file (if any), applies `args` and then `adjust` (the command's own
    /// options) over it, checks the result, and loads every picture it names, for a render: one
    /// solver and one look from start to end.
    pub fn load(
        args: &WaterArgs,
        scene_file: Option<SceneFile>,
        adjust: impl FnOnce(&mut Scene),
    ) -> Result<Self> {
        Self::load_for(Frontend::Render, args, scene_file, adjust)
    }

    /// [`load`](Self::load) for the window of `ripples play`, where keys switch the solver and
    /// the look: the spring maps are loaded whatever the starting solver, and only options no
    /// key can bring into use are warned about.
    pub fn load_for_window(
        args: &WaterArgs,
        scene_file: Option<SceneFile>,
        adjust: impl FnOnce(&mut Scene),
    ) -> Result<Self> {
        Self::load_for(Frontend::Window, args, scene_file, adjust)
    }

    fn load_for(
        frontend: Frontend,
        args: &WaterArgs,
        scene_file: Option<SceneFile>,
        adjust: impl FnOnce(&mut Scene),
    ) -> Result<Self> {
        let scene_name = args.scene.as_ref().map_or_else(
            || "options".to_string(),
            |p| crate::input::scene_file::describe(p),
        );
        let paths = PicturePaths::resolve(args, scene_file.as_ref());
        let file_scene = scene_file.as_ref().map(|file| file.scene.clone());
        let mut scene = file_scene.clone().unwrap_or_default();
        let scene_events = EventCounts {
            drops: scene.drops.len(),
            swipes: scene.swipes.len(),
            sources: scene.sources.len(),
        };
        let own_scene_size = scene.width.zip(scene.height);
        apply_water_overrides(&mut scene, args);
        adjust(&mut scene);
        let given_events = EventCounts {
            drops: scene.drops.len(),
            swipes: scene.swipes.len(),
            sources: scene.sources.len(),
        };
        let size = match (args.size, scene.width, scene.height) {
            (Some(size), _, _) => Some(size),
            (None, Some(width), Some(height)) => Some((width, height)),
            (None, None, None) => None,
            (None, _, _) => {
                return Err(anyhow!(
                    "{scene_name}: width and height must be given together"
                ));
            }
        };
        if let (Some(focal), None) = (args.focal, scene.horizon) {
            return Err(UsageError(format!(
                "--focal {focal} needs a horizon (--horizon ROW, or the scene's horizon): the \
                 focal length places a camera over water in perspective"
            ))
            .into());
        }
        if let Err(error) = scene.validate() {
            // The file's own mistake is the file's; a mix only the options made is a usage error.
            return Err(match file_scene.as_ref().map(Scene::validate) {
                Some(Err(file_error)) => match &scene_file {
                    Some(file) => anyhow!(file.describe_validation_error(&file_error.to_string())),
                    None => anyhow!("{scene_name}: {file_error}"),
                },
                Some(Ok(())) => UsageError(format!("options over {scene_name}: {error}")).into(),
                None => UsageError(format!("options: {error}")).into(),
            });
        }
        if let Some((width, height)) = size {
            ripples::limits::check_size(u64::from(width), u64::from(height))
                .map_err(|error| anyhow!("{scene_name}: {error}"))?;
        }
        for warning in inert_options(args, &scene, scene_file.as_ref(), frontend) {
            eprintln!("warning: {warning}");
        }
        let fit = args.fit.unwrap_or_default();
        let background = args.background.unwrap_or_default();
        let (picture, clip) = match &paths.image {
            Some(_) if paths.image_from_stdin => (Some(SourceImage::read_standard_input()?), None),
            Some(input) if !crate::input::video_input::is_picture_file(&input.path) => {
                // A video: its first frame stands for it wherever one picture is needed.
                let clip = VideoClip::open(&input.path)?;
                (Some(clip.picture_at(0.0)?), Some(clip))
            }
            Some(input) => (Some(SourceImage::load_as(&input.path, &input.label)?), None),
            None => (None, None),
        };
        let scene_size = match (file_scene.is_some(), own_scene_size, &picture) {
            (false, _, _) => None,
            (true, Some(size), _) => Some(size),
            (true, None, picture) => picture.as_ref().map(|p| (p.width, p.height)),
        };
        let mut notes = Vec::new();
        let picture_size = picture.as_ref().map(|p| (p.width, p.height));
        let image = match (picture, size) {
            (Some(picture), Some(size)) => {
                let (fitted, note) = fit_to_size(picture, size, fit, background)?;
                notes.extend(note);
                Some(fitted)
            }
            (picture, _) => picture,
        };
        let obstacles = load_named(paths.obstacles.as_ref())?;
        let water_mask = load_named(paths.water_mask.as_ref())?;
        let camera_source = |option: Option<f32>, key: &str, value: Option<f32>| match option {
            Some(value) => format!("--{key} {value}"),
            None => match value {
                Some(value) => format!("{scene_name}: {key} = {value}"),
                // Only the focal length has a default.
                None => {
                    let width = picture_size.map_or(0, |(width, _)| width);
                    let focal = ripples::Perspective::new(0.0).focal_for(width);
                    format!(
                        "the default focal length (a 60-degree field of view: {focal:.2} \
                         pixels for the picture's {width}-pixel width; --focal sets another)"
                    )
                }
            },
        };
        let camera_sources = [
            camera_source(args.horizon, "horizon", scene.horizon),
            camera_source(args.focal, "focal", scene.focal),
        ];
        // The window can switch to the spring solver with a key, and then needs its maps.
        let (stiffness_map, viscosity_map) =
            if scene.solver == ripples::SolverKind::Spring || frontend == Frontend::Window {
                (
                    load_optional(paths.stiffness_map.as_ref())?,
                    load_optional(paths.viscosity_map.as_ref())?,
                )
            } else {
                (None, None)
            };
        // Only the natural look reflects a sky; the window's L key switches it with the classic
        // look, so a window that starts natural keeps it.
        let sky = if scene.render == ripples::RenderMode::Natural {
            load_optional(paths.sky.as_ref())?
        } else {
            None
        };
        let float_images = paths
            .floats
            .iter()
            .map(|input| {
                load_optional(input.as_ref())?
                    .map(|picture| {
                        FloatImage::new(picture.width, picture.height, picture.pixels)
                            .map(Arc::new)
                            .map_err(anyhow::Error::from)
                    })
                    .transpose()
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            scene,
            scene_name,
            size,
            image,
            obstacles,
            water_mask,
            camera_sources,
            picture_size,
            float_images,
            stiffness_map,
            viscosity_map,
            sky,
            fit,
            background,
            scene_size,
            scene_events,
            given_events,
            notes,
            clip,
        })
    }

    /// Whether the picture leaves bars of the background in a `to` pool (`--fit contain` of a
    /// picture of another shape).
    pub fn letterboxes(&self, to: (u32, u32)) -> bool {
        self.picture_size
            .is_some_and(|from| Placement::new(self.fit, from, to).letterboxes())
    }

    /// The size the pool has unless something decides otherwise: the one asked for, else the
    /// picture's, else `fallback` (the built-in tiles have no size of their own).
    pub fn natural_size(&self, fallback: (u32, u32)) -> (u32, u32) {
        self.size
            .or_else(|| self.image.as_ref().map(|image| (image.width, image.height)))
            .unwrap_or(fallback)
    }

    /// A calm pool of `width x height` pixels for this plan: the picture fitted to it, the
    /// scene's events moved with the picture and clipped to the pool (with a warning each), the
    /// walls and the maps fitted and set.
    pub fn build(&self, width: u32, height: u32) -> Result<Water> {
        let to = (width, height);
        let image = match &self.image {
            Some(image) => self.fit_picture(image, to, Fill::Colour(self.background.0))?,
            None => SourceImage::pool_tiles(width, height)?,
        };
        let mut scene = self.scene.clone();
        // The camera is set below, fitted to the pool, with errors naming its option or key.
        (scene.horizon, scene.focal) = (None, None);
        let mut notes = self.place_events(&mut scene, to)?;
        for warning in scene.clip_to_pool(width, height) {
            eprintln!("warning: {warning}");
        }
        for warning in sources_outside(&scene, width, height) {
            eprintln!("warning: {warning}");
        }
        let (stiffness_range, viscosity_range) = (scene.stiffness_range, scene.viscosity_range);
        let mut runner = SceneRunner::new(scene, width, height)
            .map_err(|error| anyhow!("{}: {error}", self.scene_name))?;
        for (index, image) in self.float_images.iter().enumerate() {
            if let Some(image) = image {
                runner.set_float_image(index, Arc::clone(image))?;
            }
        }
        let pool = runner.pool_mut();
        if let Some(sky) = &self.sky {
            pool.set_sky(Some(&ripples::SkyImage::new(
                &sky.pixels,
                sky.width,
                sky.height,
            )?));
        }
        let walls = match &self.obstacles {
            Some((picture, _)) => {
                let grey = self.fit_picture(picture, to, Fill::Edge)?.luminance();
                let walls: Vec<bool> = grey.iter().map(|&l| l < 128).collect();
                pool.set_obstacle_mask(&walls)?;
                Some(walls)
            }
            None => None,
        };
        let mut mask = match &self.water_mask {
            Some((picture, input)) => Some(crate::input::water_mask::water_from_picture(
                &self.fit_picture(picture, to, Fill::Edge)?,
                input,
            )?),
            None => None,
        };
        // The bars around a letterboxed picture are background, never water.
        let placement = self
            .picture_size
            .map(|from| Placement::new(self.fit, from, to));
        if let Some(placement) = placement.filter(Placement::letterboxes) {
            let water = mask.get_or_insert_with(|| vec![true; to.0 as usize * to.1 as usize]);
            crate::input::water_mask::keep_inside(water, to.0 as usize, placement.drawn);
        }
        let perspective = match self.scene.perspective() {
            Some(perspective) => Some(crate::input::water_mask::fit_camera(
                perspective,
                &Placement::new(self.fit, self.picture_size.unwrap_or(to), to),
                &self.camera_sources,
            )?),
            None => None,
        };
        if mask.is_some() || perspective.is_some() {
            runner
                .set_water(mask.as_deref(), perspective)
                .map_err(|error| {
                    crate::input::water_mask::name_camera(error, &self.camera_sources)
                })?;
            notes.extend(crate::input::water_mask::reach_note(runner.pool()));
            if let Some(walls) = &walls {
                runner.pool_mut().set_obstacle_mask(walls)?;
            }
        }
        let map = WaterMap {
            pool: runner.pool(),
            mask: mask.as_deref(),
            picture: placement
                .filter(Placement::letterboxes)
                .map(|placement| placement.drawn),
            horizon: perspective.map(|perspective| perspective.horizon),
        };
        // The user's own events, not the stones a render adds to a scene with none.
        let mut given = self.scene.clone();
        given.drops.truncate(self.given_events.drops);
        given.swipes.truncate(self.given_events.swipes);
        given.sources.truncate(self.given_events.sources);
        let warnings = landing::events_off_water(&map, runner.scene(), &given);
        let walls_warning = self
            .obstacles
            .as_ref()
            .zip(walls.as_ref())
            .and_then(|((_, input), walls)| landing::walls_off_water(&map, walls, input));
        for warning in warnings.into_iter().chain(walls_warning) {
            eprintln!("warning: {warning}");
        }
        let pool = runner.pool_mut();
        let (grid_width, grid_height) = (pool.solver().width(), pool.solver().height());
        let grid_map = |picture: &Option<SourceImage>, [low, high]: [f32; 2]| -> Result<_> {
            picture
                .as_ref()
                .map(|picture| {
                    let grey = self
                        .fit_picture(picture, (grid_width, grid_height), Fill::Edge)?
                        .luminance();
                    Ok(ripples::map_from_grey(&grey, low, high))
                })
                .transpose()
        };
        let stiffness_map = grid_map(&self.stiffness_map, stiffness_range)?;
        let viscosity_map = grid_map(&self.viscosity_map, viscosity_range)?;
        set_spring_maps(
            pool.solver_mut(),
            stiffness_map.as_deref(),
            viscosity_map.as_deref(),
        )?;
        let has_maps = stiffness_map.is_some() || viscosity_map.is_some();
        if has_maps && pool.solver().kind() != ripples::SolverKind::Spring {
            // Maps loaded for another solver are for the window, whose key 3 switches to the
            // spring solver: one it would refuse them on is refused now, not at that key.
            let mut spring = Solver::new(ripples::SolverKind::Spring, grid_width, grid_height)?;
            runner.scene().configure_solver(&mut spring)?;
            set_spring_maps(
                &mut spring,
                stiffness_map.as_deref(),
                viscosity_map.as_deref(),
            )?;
        }
        Ok(Water {
            runner,
            image,
            stiffness_map,
            viscosity_map,
            notes,
        })
    }

    /// `picture` fitted to `to` pixels with the plan's fit.
    fn fit_picture(
        &self,
        picture: &SourceImage,
        to: (u32, u32),
        fill: Fill,
    ) -> Result<SourceImage> {
        let placement = Placement::new(self.fit, (picture.width, picture.height), to);
        fit::fit_picture(picture.clone(), &placement, fill)
    }

    /// Moves the scene file's events from the scene's size, and the command line's from the
    /// size asked for, onto a pool of `to` pixels, the same way their pictures are fitted: a
    /// stone stays on its spot of the picture. Returns a note when the scene was scaled.
    fn place_events(&self, scene: &mut Scene, to: (u32, u32)) -> Result<Vec<String>> {
        let mut notes = Vec::new();
        let counts = self.scene_events;
        let mut command_line = Scene {
            drops: scene.drops.split_off(counts.drops.min(scene.drops.len())),
            swipes: scene
                .swipes
                .split_off(counts.swipes.min(scene.swipes.len())),
            sources: scene
                .sources
                .split_off(counts.sources.min(scene.sources.len())),
            ..Scene::default()
        };
        if let Some(from) = self.scene_size.filter(|&from| from != to) {
            let placement = Placement::new(self.fit, from, to);
            scene
                .rescale(placement.scale(), placement.offset())
                .map_err(|error| anyhow!("{}: {error}", self.scene_name))?;
            let how = if placement.crops() {
                " (cropped to fill it, --fit cover)"
            } else if placement.letterboxes() {
                " (letterboxed, --fit contain)"
            } else if placement.distorts() {
                " (stretched, --fit stretch)"
            } else {
                ""
            };
            notes.push(format!(
                "{} is {}x{}: its stones, swipes and sources are scaled to the {}x{} pool with \
                 its picture{how}",
                self.scene_name, from.0, from.1, to.0, to.1
            ));
        }
        let asked = self
            .size
            .or_else(|| self.image.as_ref().map(|image| (image.width, image.height)));
        if let Some(from) = asked.filter(|&from| from != to) {
            let placement = Placement::new(self.fit, from, to);
            command_line
                .rescale(placement.scale(), placement.offset())
                .map_err(|error| anyhow!("options: {error}"))?;
        }
        scene.drops.append(&mut command_line.drops);
        scene.swipes.append(&mut command_line.swipes);
        scene.sources.append(&mut command_line.sources);
        Ok(notes)
    }
}

/// `picture` fitted to `size` with `fit`, and a line saying so when it is cropped, letterboxed
/// or distorted.
pub fn fit_to_size(
    picture: SourceImage,
    size: (u32, u32),
    fit: Fit,
    background: Colour,
) -> Result<(SourceImage, Option<String>)> {
    let placement = Placement::new(fit, (picture.width, picture.height), size);
    let fitted = fit::fit_picture(picture, &placement, Fill::Colour(background.0))?;
    Ok((fitted, fit::describe(&placement, "image")))
}

/// A warning for every wave generator of `scene` that lies wholly outside a `width x height`
/// pool. Stones and swipes are moved to the edge; a generator is not (a line keeps its
/// direction, and the part of it inside the pool drives the water), so one with no part inside
/// would silently do nothing.
pub fn sources_outside(scene: &Scene, width: u32, height: u32) -> Vec<String> {
    let mut warnings = Vec::new();
    for (index, source) in scene.sources.iter().enumerate() {
        let Ok((from, to)) = source.ends() else {
            continue;
        };
        if segment_meets_rectangle(from, to, width, height) {
            continue;
        }
        let place = if from == to {
            format!("at ({}, {})", from[0], from[1])
        } else {
            format!("from ({}, {}) to ({}, {})", from[0], from[1], to[0], to[1])
        };
        warnings.push(format!(
            "source #{} {place} lies outside the {width}x{height} pool; it moves no water",
            index + 1
        ));
    }
    warnings
}

/// Whether the segment from `from` to `to` has a point in `[0, width - 1] x [0, height - 1]`
/// (Liang-Barsky clipping).
fn segment_meets_rectangle(from: [i32; 2], to: [i32; 2], width: u32, height: u32) -> bool {
    let (x0, y0) = (f64::from(from[0]), f64::from(from[1]));
    let (dx, dy) = (f64::from(to[0]) - x0, f64::from(to[1]) - y0);
    let (x_max, y_max) = (f64::from(width) - 1.0, f64::from(height) - 1.0);
    let (mut enter, mut leave) = (0.0f64, 1.0f64);
    // Each edge as p * t <= q: left, right, top, bottom.
    for (p, q) in [(-dx, x0), (dx, x_max - x0), (-dy, y0), (dy, y_max - y0)] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                enter = enter.max(t);
            } else {
                leave = leave.min(t);
            }
        }
    }
    enter <= leave
}

/// Sets the spring maps on `solver` if it is the spring solver (the others have none).
pub fn set_spring_maps(
    solver: &mut Solver,
    stiffness: Option<&[f32]>,
    viscosity: Option<&[f32]>,
) -> Result<()> {
    if let Solver::Spring(spring) = solver {
        if let Some(map) = stiffness {
            spring.set_stiffness_map(map)?;
        }
        if let Some(map) = viscosity {
            spring.set_viscosity_map(map)?;
        }
    }
    Ok(())
}

fn load_optional(input: Option<&InputFile>) -> Result<Option<SourceImage>> {
    input
        .map(|input| SourceImage::load_as(&input.path, &input.label))
        .transpose()
}

/// [`load_optional`], the picture kept with what it is (for messages about it).
fn load_named(input: Option<&InputFile>) -> Result<Option<(SourceImage, InputFile)>> {
    Ok(load_optional(input)?.zip(input.cloned()))
}

/// The water options of the command line win over the scene file.
fn apply_water_overrides(scene: &mut Scene, args: &WaterArgs) {
    override_with(&mut scene.sim_scale, args.sim_scale);
    override_with(&mut scene.steps_per_frame, args.steps_per_frame);
    override_with(&mut scene.seed, args.seed);
    override_with(&mut scene.solver, args.solver);
    override_with(&mut scene.damping_shift, args.damping_shift);
    override_with(&mut scene.render, args.render);
    override_with(&mut scene.wave_speed, args.wave_speed);
    override_with(&mut scene.damping, args.damping);
    override_with(&mut scene.gravity, args.gravity);
    override_with(&mut scene.boundary, args.boundary);
    if args.horizon.is_some() {
        scene.horizon = args.horizon;
    }
    if args.focal.is_some() {
        scene.focal = args.focal;
    }
    override_with(&mut scene.photo.glints, args.glints);
    if scene.horizon.is_some() {
        // Water in perspective is drawn with the photo look, whose sun and wave height these
        // options then set (in the photo look's units: its wave height is in plane units).
        override_with(&mut scene.photo.sun_elevation, args.sun_elevation);
        override_with(&mut scene.photo.sun_azimuth, args.sun_azimuth);
        override_with(&mut scene.photo.wave_height, args.wave_height);
    }
    override_with(&mut scene.stiffness, args.stiffness);
    override_with(&mut scene.viscosity, args.viscosity);
    override_with(&mut scene.spread, args.spread);
    override_with(&mut scene.spread_passes, args.spread_passes);
    scene.sources.extend(args.sources.iter().copied());
    let look = &mut scene.look;
    if let Some(presence) = args.presence {
        look.set_presence(presence);
    }
    let (lit, spring, natural) = (&mut look.lit, &mut look.spring, &mut look.natural);
    override_with(&mut lit.refraction, args.refraction);
    override_with(&mut lit.shading, args.shading);
    override_with(&mut lit.specular, args.specular);
    override_with(&mut lit.shininess, args.shininess);
    override_with(&mut lit.light_angle, args.light_angle);
    override_with(&mut spring.refraction, args.spring_refraction);
    override_with(&mut spring.transparency, args.spring_transparency);
    override_with(&mut natural.depth, args.depth);
    override_with(&mut natural.caustics, args.caustics);
    override_with(&mut natural.sun_elevation, args.sun_elevation);
    override_with(&mut natural.sun_azimuth, args.sun_azimuth);
    override_with(
        &mut natural.water_colour,
        args.water_colour.map(|colour| colour.0),
    );
    override_with(&mut natural.clarity, args.clarity);
    override_with(&mut natural.wave_height, args.wave_height);
    override_with(&mut natural.dispersion, args.dispersion);
    if let Some(rate) = args.rain {
        scene
            .rain
            .get_or_insert_with(ripples::RainSpec::default)
            .rate = rate;
    }
    scene.drops.extend(args.drops.iter().copied());
    scene.swipes.extend(args.swipes.iter().cloned());
}

/// Sets `target` to `value` when there is one.
pub fn override_with<T>(target: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *target = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_builds_at_any_size_and_clips_the_scene() {
        let args = WaterArgs {
            drops: vec![crate::cli::args::parse_drop("300,10").unwrap()],
            ..WaterArgs::default()
        };
        let plan = WaterPlan::load(&args, None, |_| {}).unwrap();
        assert_eq!(plan.natural_size((64, 48)), (64, 48));
        let water = plan.build(40, 30).unwrap();
        assert_eq!((water.image.width, water.image.height), (40, 30));
        assert_eq!(water.runner.scene().drops[0].x, 39);
        assert!(water.runner.pool().obstacles().is_empty());
    }

    #[test]
    fn the_window_keeps_spring_maps_for_any_solver_and_checks_them_up_front() {
        let dir = tempfile::tempdir().unwrap();
        let map = dir.path().join("map.png");
        image::GrayImage::from_pixel(8, 6, image::Luma([255]))
            .save(&map)
            .unwrap();
        let args = WaterArgs {
            stiffness_map: Some(map),
            ..WaterArgs::default()
        };
        // A render with the classic solver has no use for them ...
        let render = WaterPlan::load(&args, None, |_| {}).unwrap();
        assert!(render.build(8, 6).unwrap().stiffness_map.is_none());
        // ... the window keeps them for key 3, which switches to the spring solver ...
        let window = WaterPlan::load_for_window(&args, None, |_| {}).unwrap();
        assert_eq!(
            window.build(8, 6).unwrap().stiffness_map.unwrap().len(),
            8 * 6
        );
        // ... and refuses at the start what that solver would refuse then: white here is a
        // stiffness of 0.9, above the viscosity.
        let stiff = WaterPlan::load_for_window(&args, None, |scene| {
            scene.stiffness_range = [0.5, 0.9];
        })
        .unwrap();
        let Err(error) = stiff.build(8, 6) else {
            panic!("a stiffness map above the viscosity was accepted");
        };
        let error = format!("{error:#}");
        assert!(error.contains("stiffness"), "{error}");
    }

    #[test]
    fn sources_wholly_outside_the_pool_are_named() {
        let sources = [
            "x=-5,y=3",
            "x=10,y=10",
            "x0=-5,y0=-3,x1=50,y1=3",
            "x0=-5,y0=-3,x1=-1,y1=-9",
            "x0=40,y0=0,x1=60,y1=29",
            "x0=39,y0=40,x1=0,y1=30",
        ];
        let scene = Scene {
            sources: sources
                .iter()
                .map(|text| crate::cli::args::parse_source(text).unwrap())
                .collect(),
            ..Scene::default()
        };
        assert_eq!(
            sources_outside(&scene, 40, 30),
            [
                "source #1 at (-5, 3) lies outside the 40x30 pool; it moves no water",
                "source #4 from (-5, -3) to (-1, -9) lies outside the 40x30 pool; it moves no water",
                "source #5 from (40, 0) to (60, 29) lies outside the 40x30 pool; it moves no water",
                "source #6 from (39, 40) to (0, 30) lies outside the 40x30 pool; it moves no water",
            ]
        );
    }
}
