//! Reading scene files: TOML into the core's [`ripples::Scene`] and the files it names
//! ([`SceneFiles`]), with line numbers in errors.
//!
//! The core checks each value while it is deserialized, so a radius of 0 or an unknown key is
//! reported by `toml` with the position of the offending text; this module turns that position
//! into "line N" and keeps the message on one line. The keys that name files (the picture, the
//! walls, the floats' pictures, ...) are the command's, read in the same pass
//! ([`file_keys`]), so their errors have lines too.
//!
//! `--scene -` reads the scene from standard input, and a named pipe is read whole (see
//! [`pipes`]). Its relative paths are then resolved
//! against the current directory, the only directory such a scene has.

use std::io::{IsTerminal, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use ripples::Scene;

use crate::UsageError;
use crate::input::{is_standard_input, pipes};

mod file_keys;

pub use file_keys::SceneFiles;

/// A scene and the directory its relative paths are resolved against.
#[derive(Debug, Clone)]
pub struct SceneFile {
    /// The scene as written in the file.
    pub scene: Scene,
    /// The files it names, as written.
    pub files: SceneFiles,
    /// The directory holding the file.
    pub directory: PathBuf,
    /// How messages name it: "scene 'x.toml'" (see [`describe`]).
    pub name: String,
    /// The file's text, where messages find the line of a key.
    pub text: String,
}

impl SceneFile {
    /// Reads and parses a scene file, or standard input when `path` is `-`.
    pub fn load(path: &Path) -> Result<Self> {
        let name = describe(path);
        let text = if is_standard_input(path) {
            read_standard_input(&name)?
        } else if pipes::is_pipe_or_device(path) {
            let bytes = pipes::read_whole(path, &name)?;
            String::from_utf8(bytes.to_vec())
                .map_err(|_| anyhow!("{name}: cannot read it: it is not UTF-8 text"))?
        } else {
            std::fs::read_to_string(path)
                .map_err(|error| anyhow!("{name}: cannot read it: {error}"))?
        };
        let (scene, files) = parse_scene(&text).map_err(|error| anyhow!("{name}: {error}"))?;
        // Standard input has no directory: its paths are relative to the current one.
        let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(Self {
            scene,
            files,
            directory,
            name,
            text,
        })
    }

    /// How messages name the top-level `key` of this scene, with its line when the text has
    /// it: "scene 'x.toml' line 4: obstacles".
    pub fn describe_key(&self, key: &str) -> String {
        let line = self.text.lines().position(|line| {
            // Top-level keys come before the first table header.
            line.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        });
        let before_tables = |at: usize| {
            !self
                .text
                .lines()
                .take(at)
                .any(|line| line.trim_start().starts_with('['))
        };
        match line {
            Some(at) if before_tables(at) => format!("{} line {}: {key}", self.name, at + 1),
            _ => format!("{}: {key}", self.name),
        }
    }

    /// How messages name `key` of the table `[table]` of this scene (the table itself for
    /// `None`), with its line when the text has it: "scene 'x.toml' line 9: [look] depth".
    pub fn describe_table_key(&self, table: &str, key: Option<&str>) -> String {
        let header = format!("[{table}]");
        let lines: Vec<&str> = self.text.lines().collect();
        let start = lines.iter().position(|line| line.trim() == header);
        let line = start.and_then(|start| match key {
            None => Some(start),
            Some(key) => lines[start + 1..]
                .iter()
                .take_while(|line| !line.trim_start().starts_with('['))
                .position(|line| {
                    line.trim_start()
                        .strip_prefix(key)
                        .is_some_and(|rest| rest.trim_start().starts_with('='))
                })
                .map(|at| start + 1 + at),
        });
        let what = match key {
            Some(key) => format!("{header} {key}"),
            None => format!("its {header} table"),
        };
        match line {
            Some(at) => format!("{} line {}: {what}", self.name, at + 1),
            None => format!("{}: {what}", self.name),
        }
    }

    /// A message for an error the whole-scene check ([`Scene::validate`]) found in this file,
    /// with the line and name of the key it is about: "scene 'x.toml' line 9 (`radius`): drop
    /// #2: radius must be ...". The check names an item as "drop #2: ..." or a table as "rain: ..." and starts
    /// its complaint with the key's name; that key is looked up in the file (or, failing that,
    /// the item), so the line is the key's own.
    pub fn describe_validation_error(&self, message: &str) -> String {
        match locate_validation_error(&self.text, message) {
            Some((line, Some(key))) => format!("{} line {line} (`{key}`): {message}", self.name),
            Some((line, None)) => format!("{} line {line}: {message}", self.name),
            None => format!("{}: {message}", self.name),
        }
    }

    /// The scene's image path, resolved relative to the scene file.
    pub fn image_path(&self) -> Option<PathBuf> {
        self.files
            .image
            .as_ref()
            .map(|image| self.directory.join(image))
    }
}

/// How messages name the scene at `path`: "scene 'x.toml'", or "scene from standard input".
pub fn describe(path: &Path) -> String {
    if is_standard_input(path) {
        "scene from standard input".to_string()
    } else {
        format!("scene '{}'", path.display())
    }
}

/// The whole of standard input as text; refused when it is a terminal (nobody types a scene
/// there: a forgotten `<` would otherwise wait silently).
fn read_standard_input(name: &str) -> Result<String> {
    let mut stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(UsageError(format!(
            "{name}: standard input is a terminal; pipe the scene in, e.g. \
             `ripples render --scene - < scene.toml`"
        ))
        .into());
    }
    let mut text = String::new();
    stdin
        .read_to_string(&mut text)
        .map_err(|error| anyhow!("{name}: cannot read it: {error}"))?;
    if text.trim().is_empty() {
        // An empty file is a valid (default) scene, but an empty pipe is most likely a mistake.
        return Err(anyhow!("{name}: standard input is empty"));
    }
    Ok(text)
}

/// The line (from 1) of the key a whole-scene validation `message` is about, when the scene
/// `text` holds it: "drop #2: radius ..." is the second `[[drop]]` table's `radius`, "rain: end
/// ..." the `[rain]` table's `end`, "focal = 300 ..." the top-level `focal`. Where the key is
/// not written, the item's own line (and no key).
fn locate_validation_error(text: &str, message: &str) -> Option<(usize, Option<String>)> {
    use toml::de::{DeTable, DeValue};
    fn table_of<'i>(value: &toml::Spanned<DeValue<'i>>) -> Option<(DeTable<'i>, Range<usize>)> {
        match value.get_ref() {
            DeValue::Table(table) => Some((table.clone(), value.span())),
            _ => None,
        }
    }
    fn find<'i>(
        table: &DeTable<'i>,
        key: &str,
    ) -> Option<(Range<usize>, toml::Spanned<DeValue<'i>>)> {
        table
            .iter()
            .find(|(name, _)| name.get_ref() == key)
            .map(|(name, value)| (name.span(), value.clone()))
    }
    let document = DeTable::parse(text).ok()?;
    let (head, rest) = message.split_once(": ").unwrap_or(("", message));
    let mut table = document.get_ref().clone();
    let mut item_span = None;
    let mut complaint = message;
    let item = head.split_once(" #").and_then(|(name, number)| {
        let number: usize = number.parse().ok()?;
        Some((name, number.checked_sub(1)?))
    });
    if let Some((name, index)) = item {
        let (_, items) = find(&table, name)?;
        let DeValue::Array(items) = items.get_ref() else {
            return None;
        };
        let (found, span) = table_of(items.get(index)?)?;
        (table, item_span, complaint) = (found, Some(span), rest);
    } else if !head.is_empty()
        && head.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && let Some((span, value)) = find(&table, head)
    {
        let (found, _) = table_of(&value).unwrap_or((DeTable::default(), span.clone()));
        (table, item_span, complaint) = (found, Some(span), rest);
    }
    let word: String = complaint
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    // The complaints that name a value rather than its key.
    let key = match word.as_str() {
        "point" => "points",
        "centre" => "x",
        word => word,
    };
    let line_of =
        |span: std::ops::Range<usize>| text[..span.start.min(text.len())].matches('\n').count() + 1;
    match find(&table, key) {
        Some((span, _)) => Some((line_of(span), Some(key.to_string()))),
        None => item_span.map(|span| (line_of(span), None)),
    }
}

/// Parses scene TOML into the scene and the files it names; the error is one line, starting with
/// the line number when known.
pub fn parse_scene(text: &str) -> Result<(Scene, SceneFiles), String> {
    let parsed = toml::de::Deserializer::parse(text).and_then(file_keys::deserialize_scene);
    parsed.map_err(|error: toml::de::Error| {
        let message = error.message().trim().replace('\n', " ");
        match error.span() {
            Some(span) => {
                let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
                format!("line {line}: {message}")
            }
            None => message,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_parses() {
        let (scene, files) = parse_scene(
            r#"
frames = 200
fps = 30
width = 320
height = 240
seed = 1
solver = "wave"
damping_shift = 5
image = "photo.jpg"
render = "natural"
heights = "start.npy"

[[drop]]
frame = 0
x = 160
y = 120
radius = 6
strength = 128

[[swipe]]
frame = 10
duration = 20
points = [[10, 10], [200, 150], [300, 40]]
radius = 3
strength = 40

[rain]
rate = 1.5
radius = [1, 4]
strength = [32, 128]
start = 0
end = 200
"#,
        )
        .unwrap();
        assert_eq!(scene.frames, 200);
        assert_eq!((scene.width, scene.height), (Some(320), Some(240)));
        assert_eq!(scene.drops.len(), 1);
        assert_eq!(scene.swipes[0].points.len(), 3);
        assert_eq!(scene.rain.unwrap().end, Some(200));
        assert_eq!(files.image.as_deref(), Some("photo.jpg"));
        assert_eq!(files.heights.as_deref(), Some("start.npy"));
    }

    /// The line and key of the first whole-scene error in `text`.
    fn validation_error_at(text: &str) -> (String, Option<(usize, Option<String>)>) {
        let (scene, _) = parse_scene(text).unwrap();
        let message = scene.validate().unwrap_err().to_string();
        let at = locate_validation_error(text, &message);
        (message, at)
    }

    #[test]
    fn whole_scene_errors_find_their_key_and_line() {
        let at = |line: usize, key: &str| Some((line, Some(key.to_string())));
        // A table's key.
        let (message, found) =
            validation_error_at("frames = 10\n\n[rain]\nrate = 1\nstart = 9\nend = 3\n");
        assert_eq!(message, "rain: end (3) must not come before start (9)");
        assert_eq!(found, at(6, "end"));
        // A top-level key.
        let (message, found) = validation_error_at("frames = 10\nfps = 25\nfocal = 300\n");
        assert!(
            message.starts_with("focal = 300 needs a horizon"),
            "{message}"
        );
        assert_eq!(found, at(3, "focal"));
        // The second of two bodies, named by its value (a point): its `points`.
        let bodies = "width = 100\nheight = 80\n\n[[body]]\npoints = [[5, 5]]\nradius = 3\n\n\
                      [[body]]\nradius = 3\npoints = [[10, 10], [500, 5]]\n";
        let (message, found) = validation_error_at(bodies);
        assert!(
            message.starts_with("body #2: point [500, 5] is outside the 100x80 pool"),
            "{message}"
        );
        assert_eq!(found, at(10, "points"));
        // A float's centre: its `x`.
        let floats = "width = 100\nheight = 80\n[[float]]\nx = 200\ny = 5\n";
        let (message, found) = validation_error_at(floats);
        assert!(
            message.starts_with("float #1: centre (200, 5)"),
            "{message}"
        );
        assert_eq!(found, at(4, "x"));
    }

    #[test]
    fn errors_report_the_line() {
        let error = parse_scene("frames = 10\nfps = 30\nbogus = 1\n").unwrap_err();
        assert!(
            error.starts_with("line 3: unknown field `bogus`"),
            "{error}"
        );
        let error = parse_scene("frames = 10\n\n[[drop]]\nx = 1\ny = 2\nradius = 0\n").unwrap_err();
        assert_eq!(error, "line 6: radius must be >= 1, got 0");
        let error = parse_scene("[[drop]]\nx = 1\ny = 2\nstrength = -4\n").unwrap_err();
        assert_eq!(error, "line 4: strength must be >= 0, got -4");
        let error = parse_scene("frames = [\n").unwrap_err();
        assert!(
            error.starts_with("line 1") || error.starts_with("line 2"),
            "{error}"
        );
        let error = parse_scene("render = \"fancy\"\n").unwrap_err();
        assert!(
            error.starts_with(
                "line 1: render mode must be 'natural', 'lit', 'classic' or 'spring', got 'fancy'"
            ),
            "{error}"
        );
    }

    #[test]
    fn an_unknown_key_is_named_at_its_line_with_every_key_of_its_table() {
        let not_text = "invalid type: integer `3`, expected a string";
        let cases = [
            (
                "frames = 10\nfps = 30\nbogus = 1\n",
                "line 3: unknown field `bogus`, expected one of `frames`, `fps`, `width`, \
                 `height`, `seed`, `solver`, `damping_shift`, `image`, `render`, `sim_scale`, \
                 `steps_per_frame`, `look`, `drop`, `swipe`, `rain`, `body`, `float`, `source`, \
                 `boundary`, `obstacles`, `water_mask`, `horizon`, `focal`, `photo`, `heights`, \
                 `sky`, `wave_speed`, `damping`, `gravity`, `stiffness`, `viscosity`, \
                 `stiffness_map`, `viscosity_map`, `stiffness_range`, `viscosity_range`, \
                 `spread`, `spread_passes`"
                    .to_string(),
            ),
            (
                "[[float]]\nx = 1\ny = 2\n\n[[float]]\nx = 1\nsize = 3\n",
                "line 7: unknown field `size`, expected one of `x`, `y`, `radius`, `density`, \
                 `thickness`, `image`, `start`"
                    .to_string(),
            ),
            // A key naming a file is read as text, like any other.
            ("frames = 10\nsky = 3\n", format!("line 2: {not_text}")),
            (
                "[[float]]\nx = 1\ny = 2\nimage = true\n",
                "line 4: invalid type: boolean `true`, expected a string".to_string(),
            ),
            // The first mistake in the order `toml` reads the keys (by name) is the one
            // reported, whichever kind it is.
            (
                "image = 3\n\n[[swipe]]\npoints = [[1, 2]]\nradius = 0\n",
                format!("line 1: {not_text}"),
            ),
            (
                "sky = 3\n\n[[drop]]\nx = 1\ny = 2\nradius = 0\n",
                "line 6: radius must be >= 1, got 0".to_string(),
            ),
            (
                "[[float]]\nx = 1\ny = 2\nradius = 0\nimage = 3\n",
                format!("line 5: {not_text}"),
            ),
            (
                "[[drop]]\nx = 1\ny = 2\nradius = 0\n\n[[float]]\nx = 1\ny = 2\nimage = 3\n",
                "line 4: radius must be >= 1, got 0".to_string(),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_scene(text).unwrap_err(), expected, "{text:?}");
        }
    }

    #[test]
    fn bodies_parse_with_defaults_and_errors_report_the_line() {
        let (scene, _) = parse_scene(
            "[[body]]\npoints = [[900, 256], [100, 256]]\nspeed = 1.5\nradius = 6\nstrength = 40\nstart = 3\n\n[[body]]\npoints = [[10.5, 20]]\n",
        )
        .unwrap();
        assert_eq!(scene.bodies.len(), 2);
        let first = &scene.bodies[0];
        assert_eq!(first.points, vec![[900.0, 256.0], [100.0, 256.0]]);
        assert_eq!(
            (first.speed, first.radius, first.strength, first.start),
            (1.5, 6, 40, 3)
        );
        let second = &scene.bodies[1];
        assert_eq!(second.points, vec![[10.5, 20.0]]);
        assert_eq!((second.speed, second.radius, second.strength), (1.0, 6, 40));
        let error = parse_scene("[[body]]\npoints = [[1, 2]]\nspeed = -2\n").unwrap_err();
        assert_eq!(error, "line 3: speed must be a finite number > 0, got -2");
        let error = parse_scene("[[body]]\npoints = []\n").unwrap_err();
        assert_eq!(error, "line 2: points must hold at least one [x, y]");
        let error = parse_scene("[[body]]\npoints = [[1, 2]]\nradius = 0\n").unwrap_err();
        assert_eq!(error, "line 3: radius must be >= 1, got 0");
        let error = parse_scene("[[body]]\nspeed = 1\n").unwrap_err();
        assert!(error.contains("missing field `points`"), "{error}");
    }

    #[test]
    fn floats_parse_with_defaults_and_errors_name_the_key_and_value() {
        let (scene, files) = parse_scene(
            "[[float]]\nx = 10.5\ny = 20\nradius = 9\ndensity = 0.3\nthickness = 4\nimage = \"duck.png\"\nstart = 7\n\n[[float]]\nx = 1\ny = 2\n",
        )
        .unwrap();
        assert_eq!(scene.floats.len(), 2);
        let first = &scene.floats[0];
        assert_eq!(
            (
                first.x,
                first.y,
                first.radius,
                first.density,
                first.thickness,
                first.start
            ),
            (10.5, 20.0, 9, 0.3, Some(4.0), 7)
        );
        assert_eq!(files.float_images, [Some("duck.png".to_string()), None]);
        let second = &scene.floats[1];
        assert_eq!(
            (
                second.radius,
                second.density,
                second.thickness,
                second.start
            ),
            (8, 0.5, None, 0)
        );
        let error = parse_scene("[[float]]\nx = 1\ny = 2\ndensity = 1.2\n").unwrap_err();
        assert_eq!(
            error,
            "line 4: float density must be a number from 0.001 up to but not including 1 (water is 1, air about 0.0012), got 1.2"
        );
        let error = parse_scene("[[float]]\nx = 1\ny = 2\nradius = 0\n").unwrap_err();
        assert_eq!(error, "line 4: radius must be >= 1, got 0");
        let error = parse_scene("[[float]]\nx = 1\ny = 2\nthickness = -3\n").unwrap_err();
        assert_eq!(
            error,
            "line 4: float thickness must be a number of pixels from 0.01 to 4096, got -3"
        );
        let error = parse_scene("[[float]]\nx = 1\ny = 2\nsize = 3\n").unwrap_err();
        assert!(error.contains("unknown field `size`"), "{error}");
        let error = parse_scene("[[float]]\ny = 2\n").unwrap_err();
        assert!(error.contains("missing field `x`"), "{error}");
    }
}
