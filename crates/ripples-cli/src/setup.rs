//! From the command line, a scene file and images to a pool ready to run: what `ripples render`
//! and `ripples play` share.
//!
//! Setting up is split in two because the window needs it so. [`WaterPlan::load`] does
//! everything that reads files or can be refused (the scene, the overrides, the checks, the
//! picture, the walls and the spring maps), before anything else happens, so that a bad option
//! is an error before a window opens. [`WaterPlan::build`] then makes the pool at a size chosen
//! afterwards: the render takes the natural size, the window fits it to the screen, which it
//! only knows once the display is open, and builds again when an image is dropped on it.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use ripples::{Scene, SceneRunner, Solver};

use crate::args::WaterArgs;
use crate::scene_file::SceneFile;
use crate::source_image::SourceImage;

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
    /// The walls' picture: dark pixels are walls.
    obstacles: Option<SourceImage>,
    /// The spring maps' pictures (loaded only for the spring solver).
    stiffness_map: Option<SourceImage>,
    viscosity_map: Option<SourceImage>,
}

/// A pool ready to run, with what it was made from.
#[derive(Debug)]
pub struct Water {
    /// The scene on its pool.
    pub runner: SceneRunner,
    /// The picture at the pool's size, without the walls painted on it.
    pub image: SourceImage,
    /// The walls from the obstacle picture, one per image pixel, if one was given.
    pub walls: Option<Vec<bool>>,
    /// The spring maps at the grid's size, as set on the solver, to set again after a switch.
    pub stiffness_map: Option<Vec<f32>>,
    /// See `stiffness_map`.
    pub viscosity_map: Option<Vec<f32>>,
}

impl WaterPlan {
    /// Reads the scene file (if any), applies `args` and then `adjust` (the command's own
    /// options) over it, checks the result, and loads every picture it names.
    pub fn load(
        args: &WaterArgs,
        scene_file: Option<SceneFile>,
        adjust: impl FnOnce(&mut Scene),
    ) -> Result<Self> {
        let scene_name = args.scene.as_ref().map_or_else(
            || "options".to_string(),
            |p| format!("scene '{}'", p.display()),
        );
        let image_path = args
            .image
            .clone()
            .or_else(|| scene_file.as_ref().and_then(SceneFile::image_path));
        let scene_path = |pick: fn(&Scene) -> &Option<String>| -> Option<PathBuf> {
            scene_file
                .as_ref()
                .and_then(|file| pick(&file.scene).as_ref().map(|p| file.directory.join(p)))
        };
        let obstacles_path = args
            .obstacles
            .clone()
            .or_else(|| scene_path(|s| &s.obstacles));
        let stiffness_path = args
            .stiffness_map
            .clone()
            .or_else(|| scene_path(|s| &s.stiffness_map));
        let viscosity_path = args
            .viscosity_map
            .clone()
            .or_else(|| scene_path(|s| &s.viscosity_map));
        let mut scene = scene_file.map(|file| file.scene).unwrap_or_default();
        apply_water_overrides(&mut scene, args);
        adjust(&mut scene);
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
        scene
            .validate()
            .map_err(|error| anyhow!("{scene_name}: {error}"))?;
        if let Some((width, height)) = size {
            ripples::limits::check_size(u64::from(width), u64::from(height))
                .map_err(|error| anyhow!("{scene_name}: {error}"))?;
        }
        let image = match (&image_path, size) {
            (Some(path), Some((width, height))) => {
                Some(SourceImage::load(path)?.resized(width, height)?)
            }
            (Some(path), None) => Some(SourceImage::load(path)?),
            (None, _) => None,
        };
        let obstacles = load_optional(obstacles_path.as_deref())?;
        let has_maps = stiffness_path.is_some() || viscosity_path.is_some();
        let (stiffness_map, viscosity_map) = if scene.solver == ripples::SolverKind::Spring {
            (
                load_optional(stiffness_path.as_deref())?,
                load_optional(viscosity_path.as_deref())?,
            )
        } else {
            if has_maps {
                eprintln!(
                    "warning: stiffness and viscosity maps only affect the spring solver; ignored"
                );
            }
            (None, None)
        };
        Ok(Self {
            scene,
            scene_name,
            size,
            image,
            obstacles,
            stiffness_map,
            viscosity_map,
        })
    }

    /// The size the pool has unless something decides otherwise: the one asked for, else the
    /// picture's, else `fallback` (the built-in tiles have no size of their own).
    pub fn natural_size(&self, fallback: (u32, u32)) -> (u32, u32) {
        self.size
            .or_else(|| self.image.as_ref().map(|image| (image.width, image.height)))
            .unwrap_or(fallback)
    }

    /// A calm pool of `width x height` pixels for this plan: the picture resized to it, the
    /// scene's drops and swipes clipped to it (with a warning each), the walls and the maps set.
    pub fn build(&self, width: u32, height: u32) -> Result<Water> {
        let image = match &self.image {
            Some(image) => image.clone().resized(width, height)?,
            None => SourceImage::pool_tiles(width, height)?,
        };
        let mut scene = self.scene.clone();
        for warning in scene.clip_to_pool(width, height) {
            eprintln!("warning: {warning}");
        }
        let (stiffness_range, viscosity_range) = (scene.stiffness_range, scene.viscosity_range);
        let mut runner = SceneRunner::new(scene, width, height)
            .map_err(|error| anyhow!("{}: {error}", self.scene_name))?;
        let pool = runner.pool_mut();
        let walls = match &self.obstacles {
            Some(picture) => {
                let grey = picture.clone().resized(width, height)?.luminance();
                let walls: Vec<bool> = grey.iter().map(|&l| l < 128).collect();
                pool.set_obstacle_mask(&walls)?;
                Some(walls)
            }
            None => None,
        };
        let (grid_width, grid_height) = (pool.solver().width(), pool.solver().height());
        let grid_map = |picture: &Option<SourceImage>, [low, high]: [f32; 2]| -> Result<_> {
            picture
                .as_ref()
                .map(|picture| {
                    let grey = picture
                        .clone()
                        .resized(grid_width, grid_height)?
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
        Ok(Water {
            runner,
            image,
            walls,
            stiffness_map,
            viscosity_map,
        })
    }
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

fn load_optional(path: Option<&Path>) -> Result<Option<SourceImage>> {
    path.map(SourceImage::load).transpose()
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
    override_with(&mut scene.boundary, args.boundary);
    override_with(&mut scene.stiffness, args.stiffness);
    override_with(&mut scene.viscosity, args.viscosity);
    override_with(&mut scene.spread, args.spread);
    override_with(&mut scene.spread_passes, args.spread_passes);
    scene.sources.extend(args.sources.iter().copied());
    let look = &mut scene.look;
    override_with(&mut look.refraction, args.refraction);
    override_with(&mut look.shading, args.shading);
    override_with(&mut look.specular, args.specular);
    override_with(&mut look.shininess, args.shininess);
    override_with(&mut look.light_angle, args.light_angle);
    override_with(&mut look.spring_refraction, args.spring_refraction);
    override_with(&mut look.spring_transparency, args.spring_transparency);
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

/// Walls hold no water, so the renderer would show the image unchanged there; shade them like
/// stone so the viewer sees what the waves bounce off.
pub fn paint_walls(pixels: &mut [u8], walls: &[bool]) {
    for (pixel, _) in pixels
        .chunks_exact_mut(4)
        .zip(walls)
        .filter(|(_, wall)| **wall)
    {
        let [r, g, b] = stone_tint([pixel[0], pixel[1], pixel[2]]);
        pixel[..3].copy_from_slice(&[r, g, b]);
    }
}

/// The colour a wall shows over an image pixel: mostly grey-brown stone, a quarter the image.
pub fn stone_tint(rgb: [u8; 3]) -> [u8; 3] {
    const STONE: [f32; 3] = [92.0, 86.0, 78.0];
    let mut out = [0u8; 3];
    for ((out, channel), stone) in out.iter_mut().zip(rgb).zip(STONE) {
        *out = (f32::from(channel) * 0.25 + stone * 0.75) as u8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_builds_at_any_size_and_clips_the_scene() {
        let args = WaterArgs {
            drops: vec![crate::args::parse_drop("300,10").unwrap()],
            ..WaterArgs::default()
        };
        let plan = WaterPlan::load(&args, None, |_| {}).unwrap();
        assert_eq!(plan.natural_size((64, 48)), (64, 48));
        let water = plan.build(40, 30).unwrap();
        assert_eq!((water.image.width, water.image.height), (40, 30));
        assert_eq!(water.runner.scene().drops[0].x, 39);
        assert!(water.walls.is_none());
    }

    #[test]
    fn paint_walls_tints_only_the_walls() {
        let mut pixels = vec![200u8; 8];
        paint_walls(&mut pixels, &[true, false]);
        assert_eq!(&pixels[..4], &[119, 114, 108, 200]);
        assert_eq!(&pixels[4..], &[200; 4]);
    }
}
