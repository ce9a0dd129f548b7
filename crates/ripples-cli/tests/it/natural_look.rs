//! The natural look from the command line: `--render natural` and its options, the same look
//! from a scene file (`render = "natural"`, `[look]` keys), clear errors for bad values, and
//! warnings when its options cannot matter.

use std::path::Path;

use crate::common;
use common::{ripples, stderr};

/// Frame 6 of a small wave-solver render with one stone, and the extra `args`; returns the
/// picture and what the command printed on stderr.
fn still(dir: &Path, name: &str, args: &[&str]) -> (Vec<u8>, String) {
    let mut all = vec![
        "render", "--size", "64x48", "--solver", "wave", "--drop", "32,24", "--frame", "6",
        "--out", name,
    ];
    all.extend_from_slice(args);
    let output = ripples(&all, dir);
    assert!(output.status.success(), "{all:?}: {}", stderr(&output));
    let picture = image::open(dir.join(name)).unwrap().to_rgba8().into_raw();
    (picture, stderr(&output))
}

#[test]
fn the_natural_look_renders_and_its_options_and_scene_keys_agree() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let (lit, _) = still(path, "lit.png", &["--render", "lit"]);
    let (natural, messages) = still(path, "natural.png", &["--render", "natural"]);
    assert!(!messages.contains("warning"), "{messages}");
    assert_ne!(natural, lit, "a look of its own");
    let options = [
        "--render",
        "natural",
        "--depth",
        "20",
        "--caustics",
        "1",
        "--sun-elevation",
        "40",
        "--sun-azimuth",
        "-30",
        "--water-colour",
        "#6699cc",
        "--clarity",
        "50",
        "--wave-height",
        "0.1",
        "--dispersion",
        "20",
    ];
    let (tuned, messages) = still(path, "tuned.png", &options);
    assert!(!messages.contains("warning"), "{messages}");
    assert_ne!(tuned, natural, "the options change the picture");
    std::fs::write(
        path.join("natural.toml"),
        "render = \"natural\"\n[look]\ndepth = 20\ncaustics = 1\nsun_elevation = 40\n\
         sun_azimuth = -30\nwater_colour = [102, 153, 204]\nclarity = 50\nwave_height = 0.1\n\
         dispersion = 20\n",
    )
    .unwrap();
    let (from_scene, _) = still(path, "scene.png", &["--scene", "natural.toml"]);
    assert_eq!(
        from_scene, tuned,
        "the scene's keys mean what the options mean"
    );
}

#[test]
fn bad_natural_values_are_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let cases: [(&[&str], &str); 6] = [
        (
            &["--depth", "nan"],
            "depth must be a finite number, got NaN",
        ),
        (&["--depth", "-3"], "depth must be >= 0, got -3"),
        (
            &["--sun-elevation", "0"],
            "sun elevation must be >= 1, got 0",
        ),
        (&["--clarity", "0"], "clarity must be >= 1, got 0"),
        (&["--dispersion", "60"], "dispersion must be <= 50, got 60"),
        (&["--water-colour", "teal"], "expected a colour as #rrggbb"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["render", "--render", "natural", "--out", "x.png"];
        all.extend_from_slice(args);
        let output = ripples(&all, path);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{all:?}: {message}");
        assert!(
            message.contains(needle),
            "expected '{needle}' in: {message}"
        );
        assert!(!message.contains("panicked"), "{message}");
        assert!(!path.join("x.png").exists());
    }
    std::fs::write(path.join("murky.toml"), "[look]\nclarity = 0\n").unwrap();
    let output = ripples(&["render", "--scene", "murky.toml", "--out", "x.png"], path);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.contains("murky.toml") && message.contains("clarity must be >= 1, got 0"),
        "{message}"
    );
    assert!(!path.join("x.png").exists());
}

#[test]
fn natural_options_warn_when_the_look_is_another() {
    let dir = tempfile::tempdir().unwrap();
    let (_, messages) = still(
        dir.path(),
        "lit.png",
        &["--render", "lit", "--depth", "10", "--clarity", "90"],
    );
    for option in ["--depth", "--clarity"] {
        let warning = format!(
            "warning: {option} has no effect: it tunes the natural look, and the look is lit \
             (--render natural uses it)"
        );
        assert!(messages.contains(&warning), "{messages}");
    }
}

/// An `8x4` sky picture at `dir/name`: `top` along the top row, `rest` below it.
fn sky_png(dir: &Path, name: &str, top: [u8; 3], rest: [u8; 3]) {
    image::RgbaImage::from_fn(8, 4, |_, y| {
        let [r, g, b] = if y == 0 { top } else { rest };
        image::Rgba([r, g, b, 255])
    })
    .save_with_format(dir.join(name), image::ImageFormat::Png)
    .unwrap();
}

#[test]
fn a_sky_picture_from_the_options_or_the_scene_is_reflected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    sky_png(path, "sky.png", [255, 40, 0], [255, 255, 255]);
    let (built_in, _) = still(path, "built-in.png", &["--render", "natural"]);
    let (sunset, messages) = still(
        path,
        "sunset.png",
        &["--render", "natural", "--sky", "sky.png"],
    );
    assert!(!messages.contains("warning"), "{messages}");
    assert_ne!(sunset, built_in, "the sky shows in the reflections");
    // Calm water adds no reflection to the picture: the calm corner is the same under any sky.
    assert_eq!(sunset[..4], built_in[..4], "the calm corner");
    std::fs::create_dir(path.join("scenes")).unwrap();
    sky_png(
        &path.join("scenes"),
        "sky.png",
        [255, 40, 0],
        [255, 255, 255],
    );
    std::fs::write(
        path.join("scenes/sunset.toml"),
        "render = \"natural\"\nsky = \"sky.png\"\n",
    )
    .unwrap();
    let (from_scene, _) = still(path, "scene.png", &["--scene", "scenes/sunset.toml"]);
    assert_eq!(from_scene, sunset, "the scene's sky is the option's");
}

#[test]
fn a_sky_picture_that_cannot_be_used_is_one_clear_error_and_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let run = |args: &[&str]| {
        let mut all = vec![
            "render", "--render", "natural", "--size", "24x16", "--frames", "2",
        ];
        all.extend_from_slice(args);
        ripples(&all, path)
    };
    let output = run(&["--sky", "nowhere.png", "--out", "x.gif"]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(message.contains("nowhere.png"), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(!path.join("x.gif").exists());

    sky_png(path, "sky.png", [0, 0, 0], [9, 9, 9]);
    let original = std::fs::read(path.join("sky.png")).unwrap();
    let output = run(&["--sky", "sky.png", "--out", "sky.png"]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(
        message.contains("output 'sky.png' is the sky image 'sky.png'"),
        "{message}"
    );
    assert_eq!(std::fs::read(path.join("sky.png")).unwrap(), original);
}

#[test]
fn a_sky_warns_when_the_look_is_another() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    sky_png(path, "sky.png", [0, 0, 0], [9, 9, 9]);
    let (_, messages) = still(path, "lit.png", &["--render", "lit", "--sky", "sky.png"]);
    assert!(
        messages.contains(
            "warning: --sky has no effect: it tunes the natural look, and the look is lit \
             (--render natural uses it)"
        ),
        "{messages}"
    );
    std::fs::write(
        path.join("lit.toml"),
        "render = \"lit\"\nsky = \"sky.png\"\n",
    )
    .unwrap();
    let (_, messages) = still(path, "scene.png", &["--scene", "lit.toml"]);
    assert!(
        messages.contains(
            "warning: scene 'lit.toml' line 2: sky has no effect: it tunes the natural look, and \
             the look is lit (render = \"natural\" uses it)"
        ),
        "{messages}"
    );
}
