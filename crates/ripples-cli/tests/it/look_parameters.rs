//! Each look parameter's range and default is stated once, in the library's
//! `ripples::look_parameters`; this test holds every other place that tells a user about them
//! to it: `ripples render --help` (made from the table, so this checks the templates), the
//! guide's option tables (`docs/command.md` for the command, `docs/web.md` for the page) and the
//! published TypeScript types (`web/package/ripples.d.ts`). A range changed in the library fails
//! here, naming each place, until they all say the same. (The page's own checks read the table
//! directly; `ripples-web`'s `options` tests hold them to it.) In a packaged crate the guide
//! and the types are not there, and the test says so and passes.

use crate::common;

use ripples::look_parameters::{self, LOOK_PARAMETERS, Parameter};
use std::path::Path;

/// The texts checked against the table.
struct Sources {
    help: String,
    command_md: String,
    web_md: String,
    types: String,
}

/// A number as the TypeScript types write it: `1e6` for a million and more, else as Rust does.
fn ts_number(value: f32) -> String {
    if value.abs() >= 1.0e6 {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

/// The cells of the Markdown table row that starts with `| start`.
fn row<'a>(page: &'a str, start: &str) -> Option<Vec<&'a str>> {
    let start = format!("| {start}");
    page.lines()
        .find(|line| line.starts_with(&start))
        .map(|line| {
            line.trim()
                .trim_matches('|')
                .split(" | ")
                .map(str::trim)
                .collect()
        })
}

/// The help text of `--option` in a `--help` output (its lines joined).
fn help_entry(help: &str, option: &str) -> Option<String> {
    let header = format!("--{option} ");
    let mut lines = help
        .lines()
        .skip_while(|line| !line.trim_start().starts_with(&header));
    lines.next()?;
    let text: Vec<&str> = lines
        .take_while(|line| !line.trim_start().starts_with('-') && !line.trim().is_empty())
        .map(str::trim)
        .collect();
    Some(text.join(" "))
}

/// The doc comment right above `name?:` in the types.
fn type_doc(types: &str, name: &str) -> Option<String> {
    let property = format!("  {name}?:");
    let at = types.find(&property)?;
    let before = &types[..at];
    let start = before.rfind("/**")?;
    Some(before[start..].to_string())
}

/// What `parameter` is stated as in `sources` where it disagrees with the table.
fn problems(parameter: &Parameter, sources: &Sources) -> Vec<String> {
    let mut found = Vec::new();
    let range = parameter.range();
    let default = parameter.default.to_string();
    // Every number of a look is an option of the command but the lit look's slope.
    if parameter.key != "slope" {
        let option = parameter.option();
        match help_entry(&sources.help, &option) {
            None => found.push(format!("--help: no --{option}")),
            Some(text) => {
                if !text.contains(&range) || !text.contains(&format!("[default: {default}")) {
                    found.push(format!(
                        "--help of --{option} does not state {range} [default: {default}]: {text}"
                    ));
                }
            }
        }
        match row(&sources.command_md, &format!("`--{option} ")) {
            None => found.push(format!("docs/command.md: no row for --{option}")),
            Some(cells) => {
                if !cells[1].contains(&range) || cells[2] != default {
                    found.push(format!(
                        "docs/command.md's row of --{option} does not say {range}, default {default}: {cells:?}"
                    ));
                }
            }
        }
    }
    if let Some(web) = parameter.web {
        match row(&sources.web_md, &format!("`{web}` |")) {
            None => found.push(format!("docs/web.md: no row for {web}")),
            Some(cells) => {
                if !cells[1].contains(&range) || cells[2] != default {
                    found.push(format!(
                        "docs/web.md's row of {web} does not say {range}, default {default}: {cells:?}"
                    ));
                }
            }
        }
        let ts_range = format!("{}..{}", ts_number(parameter.min), ts_number(parameter.max));
        match type_doc(&sources.types, web) {
            None => found.push(format!("ripples.d.ts: no {web}")),
            Some(doc) => {
                let stated_default = doc.split_once("(default ").map(|(_, rest)| {
                    rest.split([';', ')', ':', ','])
                        .next()
                        .unwrap_or_default()
                        .to_string()
                });
                if !doc.contains(&ts_range) || stated_default.as_deref() != Some(&default) {
                    found.push(format!(
                        "ripples.d.ts's {web} does not say {ts_range} (default {default}: {doc}"
                    ));
                }
            }
        }
    }
    found
}

/// The help, guides and types of this checkout, or `None` in a packaged crate.
fn sources() -> Option<Sources> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let read = |path: &str| std::fs::read_to_string(root.join(path)).ok();
    let (Some(command_md), Some(web_md), Some(types)) = (
        read("docs/command.md"),
        read("docs/web.md"),
        read("web/package/ripples.d.ts"),
    ) else {
        eprintln!(
            "notice: no guide or types beside this crate (a packaged crate): nothing to check"
        );
        return None;
    };
    let output = common::ripples(&["render", "--help"], &root);
    assert!(output.status.success(), "{}", common::stderr(&output));
    Some(Sources {
        help: common::stdout(&output),
        command_md,
        web_md,
        types,
    })
}

#[test]
fn help_guides_and_types_state_each_look_parameters_range_and_default() {
    let Some(sources) = sources() else { return };
    let found: Vec<String> = LOOK_PARAMETERS
        .iter()
        .flat_map(|parameter| problems(parameter, &sources))
        .collect();
    assert!(
        found.is_empty(),
        "{} place(s) disagree with ripples::look_parameters:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn a_changed_range_or_default_is_caught_in_every_place() {
    let Some(sources) = sources() else { return };
    let wider = Parameter {
        max: 2048.0,
        ..look_parameters::DEPTH
    };
    let found = problems(&wider, &sources).join("\n");
    for place in ["--help", "docs/command.md", "docs/web.md", "ripples.d.ts"] {
        assert!(found.contains(place), "{place} not caught:\n{found}");
    }
    let deeper = Parameter {
        default: 64.0,
        ..look_parameters::DEPTH
    };
    let found = problems(&deeper, &sources).join("\n");
    for place in ["--help", "docs/command.md", "docs/web.md", "ripples.d.ts"] {
        assert!(found.contains(place), "{place} not caught:\n{found}");
    }
}
