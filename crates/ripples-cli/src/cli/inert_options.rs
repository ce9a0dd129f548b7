//! Options that would do nothing: `--wave-speed` with the classic solver, `--shading` with the
//! classic look, a spring map with the wave solver. Each gets a warning line that names the
//! option and says why, so a user who asked for something sees that it did not happen.
//!
//! Whether an option does anything depends on where it is used. A render runs one solver and
//! one look from start to end. In the window of `ripples play` the keys 1 to 4 switch the
//! solver (with the scene's and the options' parameters, maps included) and `L` cycles through
//! every look, so there only what no key can reach is inert. Both come from one table, [`inert_options`],
//! so the two stay in step.

use ripples::look_parameters::{self, Parameter};
use ripples::{RenderMode, Scene, SolverKind};

use crate::cli::args::WaterArgs;
use crate::input::scene_file::{SceneFile, SceneFiles};

/// Where the water runs, which decides what can still change after the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frontend {
    /// `ripples render`: one solver and one look for the whole animation.
    Render,
    /// The window of `ripples play`: keys switch the solver and the look while it runs.
    Window,
}

/// A warning line (without the `warning: ` prefix) for every option in `args` that has no
/// effect on `scene` (the scene with every option applied) run on `frontend`.
/// `scene_file` names the scene's own keys (with their lines) when one is read.
pub fn inert_options(
    args: &WaterArgs,
    scene: &Scene,
    scene_file: Option<&SceneFile>,
    frontend: Frontend,
) -> Vec<String> {
    let mut warnings = Vec::new();
    let solver = scene.solver;
    // In the window any solver can be switched to, so solver options always may apply.
    let solver_fixed = frontend == Frontend::Render;
    let solver_options = [
        ("--wave-speed", args.wave_speed.is_some(), SolverKind::Wave),
        ("--damping", args.damping.is_some(), SolverKind::Wave),
        ("--gravity", args.gravity.is_some(), SolverKind::Dispersive),
        (
            "--damping-shift",
            args.damping_shift.is_some(),
            SolverKind::Classic,
        ),
        ("--stiffness", args.stiffness.is_some(), SolverKind::Spring),
        ("--viscosity", args.viscosity.is_some(), SolverKind::Spring),
        ("--spread", args.spread.is_some(), SolverKind::Spring),
        (
            "--spread-passes",
            args.spread_passes.is_some(),
            SolverKind::Spring,
        ),
        (
            "--stiffness-map",
            args.stiffness_map.is_some(),
            SolverKind::Spring,
        ),
        (
            "--viscosity-map",
            args.viscosity_map.is_some(),
            SolverKind::Spring,
        ),
    ];
    for (option, given, owner) in solver_options {
        // --damping tunes the dispersive solver as well as the wave solver.
        let shared = option == "--damping" && solver == SolverKind::Dispersive;
        if given && solver_fixed && solver != owner && !shared {
            warnings.push(format!(
                "{option} has no effect: it tunes the {} solver, and the solver is {} \
                 (--solver {} uses it)",
                owner.name(),
                solver.name(),
                owner.name()
            ));
        }
    }
    // The files the scene file names (the options' files are in `args`).
    let scene_names = |file: fn(&SceneFiles) -> &Option<String>| {
        scene_file.is_some_and(|scene_file| file(&scene_file.files).is_some())
    };
    if frontend == Frontend::Window && scene_names(|files| &files.heights) {
        warnings.push(
            "the scene's heights has no effect in the window: ripples render starts the water \
             from it"
                .to_string(),
        );
    }
    if solver_fixed && solver != SolverKind::Spring {
        let scene_maps = [
            (
                "stiffness_map",
                args.stiffness_map.is_none() && scene_names(|files| &files.stiffness_map),
            ),
            (
                "viscosity_map",
                args.viscosity_map.is_none() && scene_names(|files| &files.viscosity_map),
            ),
        ];
        for (key, given) in scene_maps {
            if given {
                warnings.push(format!(
                    "the scene's {key} has no effect: it tunes the spring solver, and the \
                     solver is {}",
                    solver.name()
                ));
            }
        }
    }
    let has_map =
        |option: &Option<std::path::PathBuf>, in_scene: bool| option.is_some() || in_scene;
    let maps_over_uniform = [
        (
            "--stiffness",
            args.stiffness.is_some(),
            has_map(
                &args.stiffness_map,
                scene_names(|files| &files.stiffness_map),
            ),
            "stiffness",
        ),
        (
            "--viscosity",
            args.viscosity.is_some(),
            has_map(
                &args.viscosity_map,
                scene_names(|files| &files.viscosity_map),
            ),
            "viscosity",
        ),
    ];
    for (option, given, mapped, what) in maps_over_uniform {
        if given && mapped && (solver == SolverKind::Spring || !solver_fixed) {
            warnings.push(format!(
                "{option} has no effect: the {what} map gives every cell its {what}"
            ));
        }
    }

    warnings.extend(inert_look_options(args, scene, scene_file, frontend));
    warnings
}

/// The look options of `args` (and the scene's look keys) that do nothing on `scene`: those of
/// another look than the one in use, and in perspective (a horizon) every look's but the photo
/// look's, which draws water in perspective whatever the look is. `--presence`, `--wave-height`
/// and the sun's options tune the photo look there (see `apply_water_overrides` in
/// [`crate::cli::setup`]); `--glints` and the scene's `[photo]` table tune only it.
fn inert_look_options(
    args: &WaterArgs,
    scene: &Scene,
    scene_file: Option<&SceneFile>,
    frontend: Frontend,
) -> Vec<String> {
    let mut warnings = Vec::new();
    let look = scene.render;
    let in_perspective = scene.horizon.is_some();
    // The looks this run can show: the one it starts with, and in the window every look (`L`
    // cycles through them).
    let reachable = |mode: RenderMode| mode == look || frontend == Frontend::Window;
    let defaults = ripples::LookSettings::default();
    let given = &scene.look;
    // Each look option: its name, whether the command line gives it, whether the scene's
    // `[look]` table sets it (to other than its default, with no option over it), its look
    // (for the numbers, the look the library's table says they tune), and whether the photo
    // look takes it in perspective.
    let number = |parameter: &Parameter, option_given: bool, in_scene: bool, photo: bool| {
        // Every number but `presence` (not in this list) tunes one look.
        let owner = parameter.look.expect("a look option tunes one look");
        (parameter.option(), option_given, in_scene, owner, photo)
    };
    let look_options = [
        number(
            &look_parameters::REFRACTION,
            args.refraction.is_some(),
            given.lit.refraction != defaults.lit.refraction,
            false,
        ),
        number(
            &look_parameters::SHADING,
            args.shading.is_some(),
            given.lit.shading != defaults.lit.shading,
            false,
        ),
        number(
            &look_parameters::SPECULAR,
            args.specular.is_some(),
            given.lit.specular != defaults.lit.specular,
            false,
        ),
        number(
            &look_parameters::SHININESS,
            args.shininess.is_some(),
            given.lit.shininess != defaults.lit.shininess,
            false,
        ),
        number(
            &look_parameters::LIGHT_ANGLE,
            args.light_angle.is_some(),
            given.lit.light_angle != defaults.lit.light_angle,
            false,
        ),
        number(
            &look_parameters::SPRING_REFRACTION,
            args.spring_refraction.is_some(),
            given.spring.refraction != defaults.spring.refraction,
            false,
        ),
        number(
            &look_parameters::SPRING_TRANSPARENCY,
            args.spring_transparency.is_some(),
            given.spring.transparency != defaults.spring.transparency,
            false,
        ),
        number(
            &look_parameters::DEPTH,
            args.depth.is_some(),
            given.natural.depth != defaults.natural.depth,
            false,
        ),
        number(
            &look_parameters::CAUSTICS,
            args.caustics.is_some(),
            given.natural.caustics != defaults.natural.caustics,
            false,
        ),
        number(
            &look_parameters::SUN_ELEVATION,
            args.sun_elevation.is_some(),
            given.natural.sun_elevation != defaults.natural.sun_elevation,
            true,
        ),
        number(
            &look_parameters::SUN_AZIMUTH,
            args.sun_azimuth.is_some(),
            given.natural.sun_azimuth != defaults.natural.sun_azimuth,
            true,
        ),
        (
            "water-colour".to_string(),
            args.water_colour.is_some(),
            given.natural.water_colour != defaults.natural.water_colour,
            RenderMode::Natural,
            false,
        ),
        number(
            &look_parameters::CLARITY,
            args.clarity.is_some(),
            given.natural.clarity != defaults.natural.clarity,
            false,
        ),
        number(
            &look_parameters::WAVE_HEIGHT,
            args.wave_height.is_some(),
            given.natural.wave_height != defaults.natural.wave_height,
            true,
        ),
        (
            "sky".to_string(),
            args.sky.is_some(),
            scene_file.is_some_and(|file| file.files.sky.is_some()),
            RenderMode::Natural,
            false,
        ),
        number(
            &look_parameters::DISPERSION,
            args.dispersion.is_some(),
            given.natural.dispersion != defaults.natural.dispersion,
            false,
        ),
    ];
    for (name, option_given, in_scene, owner, photo_takes_it) in look_options {
        let key = name.replace('-', "_");
        // The scene's key, unless an option overrides it (`--sky` over `sky =`).
        let scene_given = in_scene && !option_given;
        let subject = |from_scene: bool| match (from_scene, scene_file) {
            (false, _) => format!("--{name}"),
            (true, Some(file)) if name == "sky" => file.describe_key("sky"),
            (true, Some(file)) => file.describe_table_key("look", Some(&key)),
            (true, None) if name == "sky" => "the scene's sky".to_string(),
            (true, None) => format!("the scene's [look] {key}"),
        };
        for (from_scene, given) in [(false, option_given), (true, scene_given)] {
            if !given {
                continue;
            }
            let subject = subject(from_scene);
            if in_perspective && !photo_takes_it {
                warnings.push(format!(
                    "{subject} has no effect with a horizon: it tunes the {} look, and water \
                     in perspective is drawn with the photo look (--presence, --wave-height, \
                     --glints and the sun's options tune it)",
                    owner.name()
                ));
            } else if in_perspective && from_scene {
                // The command line's option tunes the photo look; the scene's `[photo]` does.
                warnings.push(format!(
                    "{subject} has no effect with a horizon: water in perspective is drawn \
                     with the photo look ([photo] {key} tunes it)"
                ));
            } else if !in_perspective && !reachable(owner) {
                let hint = if from_scene {
                    format!("render = \"{}\" uses it", owner.name())
                } else {
                    format!("--render {} uses it", owner.name())
                };
                warnings.push(format!(
                    "{subject} has no effect: it tunes the {} look, and the look is {} ({hint})",
                    owner.name(),
                    look.name(),
                ));
            }
        }
    }
    // White water absorbs nothing, however far the light goes through it.
    let white = given.natural.water_colour == [255, 255, 255];
    if args.clarity.is_some() && white && !in_perspective && reachable(RenderMode::Natural) {
        warnings.push(
            "--clarity has no effect: the water colour is white, which absorbs nothing \
             (--water-colour sets one)"
                .to_string(),
        );
    }
    if args.presence.is_some()
        && look == RenderMode::Classic
        && !in_perspective
        && frontend != Frontend::Window
    {
        warnings.push(
            "--presence has no effect: the classic look keeps the seeds' exact refraction \
             (--render natural, lit or spring use it)"
                .to_string(),
        );
    }
    if args.spring_transparency.is_some()
        && look == RenderMode::Spring
        && scene.solver != SolverKind::Spring
        && frontend == Frontend::Render
        && !in_perspective
    {
        warnings.push(format!(
            "--spring-transparency has no effect: the transparency comes from the water's \
             velocity, which only the spring solver keeps, and the solver is {}",
            scene.solver.name()
        ));
    }
    if in_perspective && args.render.is_some() {
        warnings.push(
            "--render has no effect with a horizon: water in perspective is drawn with the \
             photo look"
                .to_string(),
        );
    } else if in_perspective && look != RenderMode::default() {
        warnings.push(format!(
            "the scene's render = \"{}\" has no effect with a horizon: water in perspective is \
             drawn with the photo look",
            look.name()
        ));
    }
    if !in_perspective {
        if args.glints.is_some() {
            warnings.push(
                "--glints has no effect: it tunes the photo look, which draws water in \
                 perspective (--horizon)"
                    .to_string(),
            );
        }
        // The scene's `[photo]` keys, less the glints `--glints` gives.
        let defaults = ripples::PhotoLook::default();
        let photo = ripples::PhotoLook {
            glints: args.glints.map_or(scene.photo.glints, |_| defaults.glints),
            ..scene.photo
        };
        if photo != defaults {
            let table = scene_file.map_or_else(
                || "the scene's [photo] table".to_string(),
                |file| file.describe_table_key("photo", None),
            );
            warnings.push(format!(
                "{table} has no effect: it tunes the photo look, which draws water in \
                 perspective, and the scene has no horizon (horizon = ROW, or --horizon, sets \
                 one)"
            ));
        }
    }
    warnings
}

/// A warning line (without the `warning: ` prefix) for every event of `scene` scheduled at or
/// after its last frame, which a render of `scene.frames` frames never reaches: a stone
/// (`--drop 5,5@500 --frames 3`), a swipe, a body, a float, a wave source or the rain. The
/// window runs on past any frame count, so only a render warns.
pub fn late_events(scene: &Scene) -> Vec<String> {
    let frames = scene.frames;
    let mut warnings = Vec::new();
    let mut late = |what: String, frame: u32| {
        if frame >= frames {
            warnings.push(format!(
                "{what} starts at frame {frame}, after the last frame ({}) of the {frames} \
                 rendered: it never happens (--frames sets how many there are)",
                frames.saturating_sub(1)
            ));
        }
    };
    for (index, drop) in scene.drops.iter().enumerate() {
        late(
            format!("stone #{} at ({}, {})", index + 1, drop.x, drop.y),
            drop.frame,
        );
    }
    for (index, swipe) in scene.swipes.iter().enumerate() {
        late(format!("swipe #{}", index + 1), swipe.frame);
    }
    for (index, body) in scene.bodies.iter().enumerate() {
        late(format!("body #{}", index + 1), body.start);
    }
    for (index, float) in scene.floats.iter().enumerate() {
        late(format!("float #{}", index + 1), float.start);
    }
    for (index, source) in scene.sources.iter().enumerate() {
        late(format!("wave source #{}", index + 1), source.start);
    }
    if let Some(rain) = &scene.rain {
        late("the rain".to_string(), rain.start);
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The options of `ripples render ARGS` and the solver and look they choose (no scene
    /// file; nothing is loaded, so map files need not exist).
    fn parsed(args: &[&str]) -> (WaterArgs, Scene) {
        let cli = crate::cli::args::Cli::try_parse_from(
            ["ripples", "render"].iter().chain(args).copied(),
        )
        .unwrap();
        let Some(crate::cli::args::Command::Render(render)) = cli.command else {
            unreachable!("parsed as render");
        };
        let scene = Scene {
            solver: render.water.solver.unwrap_or_default(),
            render: render.water.render.unwrap_or_default(),
            ..Scene::default()
        };
        (render.water, scene)
    }

    fn warned(args: &[&str], frontend: Frontend) -> Vec<String> {
        let (args, scene) = parsed(args);
        inert_options(&args, &scene, None, frontend)
    }

    #[test]
    fn solver_options_are_inert_with_another_solver_in_a_render() {
        let cases: [(&[&str], &str); 7] = [
            (
                &["--solver", "classic", "--wave-speed", "2"],
                "--wave-speed has no effect: it tunes the wave solver, and the solver is classic (--solver wave uses it)",
            ),
            (
                &["--solver", "spring", "--damping", "0.1"],
                "--damping has no effect: it tunes the wave solver",
            ),
            (
                &["--damping-shift", "3"],
                "--damping-shift has no effect: it tunes the classic solver, and the solver is dispersive",
            ),
            (
                &["--stiffness", "0.01"],
                "--stiffness has no effect: it tunes the spring solver, and the solver is dispersive",
            ),
            (
                &["--viscosity", "0.5"],
                "--viscosity has no effect: it tunes the spring solver",
            ),
            (
                &["--solver", "spring", "--wave-speed", "1"],
                "--wave-speed has no effect: it tunes the wave solver, and the solver is spring",
            ),
            (
                &["--spread", "0.1", "--spread-passes", "2"],
                "--spread-passes has no effect",
            ),
        ];
        for (args, expected) in cases {
            let warnings = warned(args, Frontend::Render);
            assert!(
                warnings.iter().any(|w| w.starts_with(expected)),
                "{args:?}: {warnings:?}"
            );
            // The window can switch to any solver with a key: nothing is inert there.
            assert_eq!(
                warned(args, Frontend::Window),
                Vec::<String>::new(),
                "{args:?}"
            );
        }
    }

    #[test]
    fn options_of_the_solver_in_use_are_quiet() {
        for args in [
            &["--solver", "wave", "--wave-speed", "1", "--damping", "0.1"][..],
            &["--solver", "classic", "--damping-shift", "4"],
            &[
                "--solver",
                "spring",
                "--stiffness",
                "0.01",
                "--spread",
                "0.1",
            ],
            &["--render", "lit", "--shading", "1", "--light-angle", "-30"],
            &[
                "--render",
                "spring",
                "--solver",
                "spring",
                "--spring-transparency",
                "1",
            ],
            &["--drop", "-5,10", "--seed", "-1"],
        ] {
            assert_eq!(
                warned(args, Frontend::Render),
                Vec::<String>::new(),
                "{args:?}"
            );
        }
    }

    #[test]
    fn look_options_are_inert_with_another_look() {
        let warnings = warned(&["--render", "classic", "--shading", "1"], Frontend::Render);
        assert_eq!(
            warnings,
            [
                "--shading has no effect: it tunes the lit look, and the look is classic \
              (--render lit uses it)"
            ]
        );
        // In the window L cycles through every look, so no look's option is inert there.
        for args in [
            &["--render", "classic", "--shading", "1"][..],
            &["--render", "spring", "--specular", "1"],
            &["--spring-refraction", "1", "--depth", "9"],
        ] {
            assert!(warned(args, Frontend::Window).is_empty(), "{args:?}");
        }
        let warnings = warned(&["--spring-refraction", "1"], Frontend::Render);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].starts_with(
            "--spring-refraction has no effect: it tunes the spring look, and the look is natural"
        ));
        let warnings = warned(
            &["--render", "spring", "--spring-transparency", "1"],
            Frontend::Render,
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("only the spring solver keeps"),
            "{warnings:?}"
        );
    }

    #[test]
    fn a_map_makes_the_uniform_value_inert() {
        let args = [
            "--solver",
            "spring",
            "--stiffness",
            "0.01",
            "--stiffness-map",
            "m.png",
        ];
        for frontend in [Frontend::Render, Frontend::Window] {
            let (args, scene) = parsed(&args);
            assert_eq!(
                inert_options(&args, &scene, None, frontend),
                ["--stiffness has no effect: the stiffness map gives every cell its stiffness"]
            );
        }
    }
}
