//! Floats through the `ripples` command: a scene's `[[float]]` drawn as a disc or with its own
//! picture (relative to the scene file, alpha respected), and a missing or overwritten picture
//! refused by name.

use std::path::Path;

use crate::common;
use common::{ripples, stderr};

/// A `size x size` picture: opaque red inside a disc, transparent outside.
fn red_disc_png(path: &Path, size: u32) {
    let centre = size as f32 / 2.0;
    image::RgbaImage::from_fn(size, size, |x, y| {
        let d = (x as f32 + 0.5 - centre).hypot(y as f32 + 0.5 - centre);
        if d < centre * 0.9 {
            image::Rgba([230, 20, 20, 255])
        } else {
            image::Rgba([0, 255, 0, 0])
        }
    })
    .save_with_format(path, image::ImageFormat::Png)
    .unwrap();
}

fn pixel(path: &Path, x: u32, y: u32) -> [u8; 4] {
    image::open(path).unwrap().to_rgba8().get_pixel(x, y).0
}

#[test]
fn scene_floats_are_drawn_as_discs_or_with_their_picture() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::create_dir(path.join("scenes")).unwrap();
    red_disc_png(&path.join("scenes/red.png"), 32);
    std::fs::write(
        path.join("scenes/s.toml"),
        "width = 120\nheight = 80\nrender = \"classic\"\n\n\
         [[float]]\nx = 30\ny = 40\nradius = 10\nimage = \"red.png\"\n\n\
         [[float]]\nx = 90\ny = 40\nradius = 10\ndensity = 0.1\n",
    )
    .unwrap();
    for look in ["classic", "natural"] {
        let out = format!("{look}.png");
        let output = ripples(
            &[
                "render",
                "--scene",
                "scenes/s.toml",
                "--render",
                look,
                "--frame",
                "0",
                "--out",
                &out,
            ],
            path,
        );
        assert!(output.status.success(), "{}", stderr(&output));
        let out = path.join(out);
        // The picture's red inside its disc; the water (not the picture's transparent green)
        // in its corners.
        let [r, g, b, _] = pixel(&out, 30, 40);
        assert!(
            r > 180 && g < 60 && b < 60,
            "{look}: picture centre {r},{g},{b}"
        );
        let [_, g, _, _] = pixel(&out, 21, 31);
        assert!(
            g < 230,
            "{look}: the picture's transparent corner was drawn"
        );
        // The other float is a leaf: green.
        let [r, g, b, _] = pixel(&out, 93, 42);
        assert!(g > r + 30 && g > b + 30, "{look}: leaf {r},{g},{b}");
    }

    // A missing picture is an error naming it, before anything is written.
    std::fs::write(
        path.join("scenes/missing.toml"),
        "[[float]]\nx = 30\ny = 40\nimage = \"nowhere.png\"\n",
    )
    .unwrap();
    let output = ripples(
        &["render", "--scene", "scenes/missing.toml", "--out", "m.gif"],
        path,
    );
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.starts_with("error") && message.contains("nowhere.png"),
        "{message}"
    );
    assert!(!path.join("m.gif").exists());

    // The picture is an input: an output over it is refused and it is left as it was.
    let before = std::fs::read(path.join("scenes/red.png")).unwrap();
    let output = ripples(
        &[
            "render",
            "--scene",
            "scenes/s.toml",
            "--out",
            "scenes/red.png",
        ],
        path,
    );
    let message = stderr(&output);
    assert_ne!(output.status.code(), Some(0), "{message}");
    assert!(
        message.contains("is the scene's float #1 image 'scenes/red.png'"),
        "{message}"
    );
    assert_eq!(std::fs::read(path.join("scenes/red.png")).unwrap(), before);
}

#[test]
fn a_bad_float_in_a_scene_file_names_its_line_and_value() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(
        path.join("s.toml"),
        "[[float]]\nx = 3\ny = 4\ndensity = 1\n",
    )
    .unwrap();
    let output = ripples(&["render", "--scene", "s.toml", "--out", "o.gif"], path);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.contains("line 4")
            && message
                .contains("float density must be a number from 0.001 up to but not including 1 (water is 1, air about 0.0012), got 1"),
        "{message}"
    );
    assert!(!path.join("o.gif").exists());
}
