//! The scene file example in `docs/scenes.md` shows every setting at its default, so a scene
//! names only what it changes. This test parses the example as the command reads scene files
//! (`parse_scene`: the scene and the files it names, unknown keys refused) and checks its settings against
//! `Scene::default()`: a default that changes in the library, or a key that is renamed, fails
//! here naming the key. The events and file names of the example are kept as they are. In a
//! packaged crate the guide is not there, and the test says so and passes.

use std::path::Path;

/// The first fenced TOML block of `text`.
fn first_toml_block(text: &str) -> Option<&str> {
    let start = text.find("```toml\n")? + "```toml\n".len();
    let end = text[start..].find("```\n")? + start;
    Some(&text[start..end])
}

/// Whether two lines of `{:#?}` output are equal, numbers compared within a millionth.
fn same_within_a_millionth(shown: &str, default: &str) -> bool {
    if shown == default {
        return true;
    }
    let number = |line: &str| {
        line.trim()
            .trim_end_matches(',')
            .rsplit(' ')
            .next()
            .and_then(|value| value.parse::<f64>().ok())
    };
    let key = |line: &str| line.trim().rsplit_once(' ').map(|(key, _)| key.to_string());
    match (number(shown), number(default)) {
        (Some(a), Some(b)) => {
            key(shown) == key(default) && (a - b).abs() <= 1e-6 * b.abs().max(1e-9)
        }
        _ => false,
    }
}

#[test]
fn the_scene_example_parses_and_shows_the_defaults() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/scenes.md");
    let Ok(page) = std::fs::read_to_string(&path) else {
        eprintln!(
            "notice: no docs/scenes.md beside this crate (a packaged crate): nothing to check"
        );
        return;
    };
    let example = first_toml_block(&page).expect("docs/scenes.md has a ```toml example");
    let (shown, _files) = ripples_cli::input::scene_file::parse_scene(example)
        .unwrap_or_else(|error| panic!("docs/scenes.md's example is not a valid scene: {error}"));
    shown
        .validate()
        .unwrap_or_else(|error| panic!("docs/scenes.md's example does not validate: {error}"));

    // What the example may set to something of its own: the size and the events (the files
    // are not the scene's).
    let defaults = ripples::Scene {
        width: shown.width,
        height: shown.height,
        drops: shown.drops.clone(),
        swipes: shown.swipes.clone(),
        bodies: shown.bodies.clone(),
        floats: shown.floats.clone(),
        sources: shown.sources.clone(),
        rain: shown.rain,
        ..ripples::Scene::default()
    };
    // Field by field, so that the message names the key; a decimal the page rounds (0.2 for the
    // f32 0.02 * 10) counts as the same within a millionth.
    let shown_text = format!("{shown:#?}");
    let default_text = format!("{defaults:#?}");
    assert_eq!(shown_text.lines().count(), default_text.lines().count());
    let differences: Vec<String> = shown_text
        .lines()
        .zip(default_text.lines())
        .filter(|(shown, default)| !same_within_a_millionth(shown, default))
        .map(|(shown, default)| format!("  shown {}, default {}", shown.trim(), default.trim()))
        .collect();
    assert!(
        differences.is_empty(),
        "docs/scenes.md's example differs from Scene::default():\n{}",
        differences.join("\n")
    );
    // Every solver is named on the solver line.
    let solver_line = example
        .lines()
        .find(|line| line.starts_with("solver ="))
        .expect("the example sets solver");
    for name in ["dispersive", "wave", "classic", "spring"] {
        assert!(
            solver_line.contains(&format!("\"{name}\"")),
            "docs/scenes.md's solver line does not name \"{name}\": {solver_line}"
        );
    }
}
