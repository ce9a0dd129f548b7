//! The repository's README (the front page) shows the library's first example in its tour; the
//! crate's own README, compiled as a doc test, is where it is checked. This keeps the two copies
//! the same, so the one a newcomer reads first cannot rot either. In a packaged crate the repository's README is not
//! there, and the test says so and passes.

use std::path::Path;

/// The first fenced Rust block of `text` after `heading` (or from the start).
fn first_rust_block<'a>(text: &'a str, heading: &str) -> Option<&'a str> {
    let from = text.find(heading)?;
    let start = text[from..].find("```rust\n")? + from + "```rust\n".len();
    let end = text[start..].find("```\n")? + start;
    Some(&text[start..end])
}

#[test]
fn the_repository_readme_shows_the_crate_readme_example() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repository_readme = manifest.join("../../README.md");
    let Ok(repository) = std::fs::read_to_string(&repository_readme) else {
        eprintln!("no repository README beside this crate (a packaged crate): nothing to compare");
        return;
    };
    let crate_readme = std::fs::read_to_string(manifest.join("README.md")).unwrap();
    let shown = first_rust_block(&repository, "### The library")
        .expect("the repository README's tour has a Rust example under ### The library");
    let tested = first_rust_block(&crate_readme, "").expect("the crate README has a Rust example");
    assert_eq!(
        shown, tested,
        "README.md's library example differs from crates/ripples/README.md's (the doc test)"
    );
}
