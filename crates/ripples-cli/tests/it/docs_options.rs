//! The guide's option tables are checked against the binary's own `--help`, so a default that
//! changes in the code fails here, naming the row, instead of rotting in the docs.
//!
//! Every table headed `| option | meaning | default |` in `docs/command.md` is checked against
//! `ripples render --help`, and those in `docs/window.md` against `ripples play --help`. For each
//! row: every option it names exists; its default cell is the `[default: ...]` that `--help`
//! states (or the part of it before a comma or semicolon), `off` for a flag without one and
//! `none` for a valued option without one; and every number in the meaning cell's prose (code
//! spans aside: they hold names such as `<f4`) appears in that option's help. In a packaged
//! crate the guide is not there, and the test says so and passes.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One option as `--help` describes it.
struct HelpEntry {
    takes_value: bool,
    text: String,
}

/// The options of a `--help` text, by long name (`IMAGE` for the positional argument).
fn parse_help(help: &str) -> BTreeMap<String, HelpEntry> {
    let mut entries: BTreeMap<String, HelpEntry> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in help.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let header = (indent == 2 || indent == 6) && trimmed.starts_with('-');
        if header {
            let long = trimmed
                .split_whitespace()
                .find_map(|word| word.strip_prefix("--"))
                .map(|name| name.trim_end_matches(',').to_string());
            if let Some(name) = long {
                let takes_value = trimmed.contains('<');
                // A short help shares the header line: "--json   Print one ...".
                let text = trimmed.split_once("  ").map_or("", |(_, rest)| rest.trim());
                entries.insert(
                    name.clone(),
                    HelpEntry {
                        takes_value,
                        text: text.to_string(),
                    },
                );
                current = Some(name);
                continue;
            }
        }
        if let Some(rest) = trimmed.strip_prefix("[IMAGE]") {
            entries.insert(
                "IMAGE".to_string(),
                HelpEntry {
                    takes_value: true,
                    text: rest.trim().to_string(),
                },
            );
            current = None;
            continue;
        }
        if indent > 6 {
            if let Some(entry) = current.as_ref().and_then(|name| entries.get_mut(name)) {
                entry.text.push(' ');
                entry.text.push_str(trimmed);
            }
        } else {
            current = None;
        }
    }
    entries
}

/// The default `--help` states for an entry: `[default: X]`, or the positional's `Default: X`.
fn stated_default(entry: &HelpEntry) -> Option<String> {
    if let Some(start) = entry.text.find("[default: ") {
        let rest = &entry.text[start + "[default: ".len()..];
        return rest.find(']').map(|end| rest[..end].to_string());
    }
    entry
        .text
        .find("Default: ")
        .map(|start| entry.text[start + "Default: ".len()..].trim().to_string())
}

/// The numbers in `text`: runs of digits with an optional decimal part.
fn numbers(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (index, &c) in chars.iter().enumerate() {
        let decimal_point = c == '.'
            && !current.is_empty()
            && !current.contains('.')
            && chars.get(index + 1).is_some_and(char::is_ascii_digit);
        if c.is_ascii_digit() || decimal_point {
            current.push(c);
        } else if !current.is_empty() {
            found.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        found.push(current);
    }
    found
}

/// `text` without its code spans.
fn prose(text: &str) -> String {
    text.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// The cells of a table row, with `\|` kept inside its cell.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cells.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => cells.push(String::new()),
            _ => cells.last_mut().unwrap().push(c),
        }
    }
    cells
        .into_iter()
        .map(|cell| cell.trim().to_string())
        .collect()
}

/// The rows of every `| option | meaning | default |` table in `page`.
fn option_rows(page: &str) -> Vec<String> {
    let mut rows = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        if cells(line) != ["option", "meaning", "default"] {
            continue;
        }
        lines.next(); // the |---| line
        for row in lines.by_ref() {
            if !row.starts_with('|') {
                break;
            }
            rows.push(row.to_string());
        }
    }
    rows
}

/// What is wrong with one row, if anything.
fn check_row(row: &str, help: &BTreeMap<String, HelpEntry>) -> Option<String> {
    let cells = cells(row);
    let [option, meaning, default] = cells.as_slice() else {
        return Some(format!("it has {} cells, not 3", cells.len()));
    };
    let name = if option.trim_matches('`').starts_with("IMAGE") {
        "IMAGE".to_string()
    } else {
        let Some(start) = option.find("--") else {
            return Some(format!("'{option}' names no --option"));
        };
        option[start + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect()
    };
    let Some(entry) = help.get(&name) else {
        return Some(format!("--help has no option '{name}'"));
    };
    let shown = default.replace('`', "");
    match stated_default(entry) {
        Some(stated) => {
            let prefix_of_stated = stated.strip_prefix(shown.as_str()).is_some_and(|rest| {
                rest.is_empty() || rest.starts_with(',') || rest.starts_with(';')
            });
            if !prefix_of_stated {
                return Some(format!(
                    "its default is '{shown}', --help says '[default: {stated}]'"
                ));
            }
        }
        None => {
            let expected = if entry.takes_value { "none" } else { "off" };
            if shown != expected {
                return Some(format!(
                    "its default is '{shown}', but --help states none (write '{expected}')"
                ));
            }
        }
    }
    let help_numbers = numbers(&entry.text);
    for number in numbers(&prose(meaning)) {
        if !help_numbers.contains(&number) {
            return Some(format!(
                "its meaning says {number}, which --{name}'s help does not: '{}'",
                entry.text.trim()
            ));
        }
    }
    None
}

/// Checks every option row of `page` (relative to the workspace) against `ripples SUBCOMMAND
/// --help`, returning how many rows were checked.
fn check_page(page: &str, subcommand: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path: PathBuf = root.join(page);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("notice: no {page} beside this crate (a packaged crate): nothing to check");
        return 0;
    };
    let output = common::ripples(&[subcommand, "--help"], &root);
    assert!(
        output.status.success(),
        "ripples {subcommand} --help failed: {}",
        common::stderr(&output)
    );
    let help = parse_help(&common::stdout(&output));
    let rows = option_rows(&text);
    assert!(
        !rows.is_empty(),
        "{page} has no | option | meaning | default | table"
    );
    let problems: Vec<String> = rows
        .iter()
        .filter_map(|row| {
            check_row(row, &help).map(|problem| format!("{page}: row {row}\n    {problem}"))
        })
        .collect();
    assert!(
        problems.is_empty(),
        "{} row(s) of {page} disagree with `ripples {subcommand} --help`:\n{}",
        problems.len(),
        problems.join("\n")
    );
    rows.len()
}

#[test]
fn the_command_pages_option_tables_agree_with_render_help() {
    let checked = check_page("docs/command.md", "render");
    eprintln!("docs/command.md: {checked} option rows agree with `ripples render --help`");
}

#[test]
fn the_window_pages_option_table_agrees_with_play_help() {
    if !cfg!(feature = "play") {
        eprintln!("notice: built without the `play` feature: no `ripples play` to check against");
        return;
    }
    let checked = check_page("docs/window.md", "play");
    eprintln!("docs/window.md: {checked} option rows agree with `ripples play --help`");
}

#[test]
fn a_wrong_default_or_number_is_caught_and_named() {
    let help = parse_help(
        "Options:\n      --frames <N>\n          Number of frames, 1..=100000 [default: 120]\n      \
         --calm\n          Keep still water\n",
    );
    assert_eq!(
        check_row("| `--frames N` | number of frames | 120 |", &help),
        None
    );
    let wrong_default = check_row("| `--frames N` | number of frames | 121 |", &help).unwrap();
    assert!(wrong_default.contains("'121'"), "{wrong_default}");
    let wrong_number = check_row("| `--frames N` | 1..=99 frames | 120 |", &help).unwrap();
    assert!(wrong_number.contains("99"), "{wrong_number}");
    assert_eq!(check_row("| `--calm` | still water | off |", &help), None);
    assert!(check_row("| `--calm` | still water | on |", &help).is_some());
    assert!(
        check_row("| `--gone` | removed | off |", &help)
            .unwrap()
            .contains("no option 'gone'")
    );
}

#[test]
fn the_limits_paragraph_states_the_librarys_limits() {
    use ripples::limits;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/command.md");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "notice: no docs/command.md beside this crate (a packaged crate): nothing to check"
        );
        return;
    };
    let start = text
        .find("**Limits.**")
        .expect("docs/command.md has a **Limits.** paragraph");
    let paragraph = &text[start
        ..text[start..]
            .find("\n\n")
            .map_or(text.len(), |end| start + end)];
    let stated: Vec<String> = numbers(&prose(&paragraph.replace(',', "")));
    let side_of_square = f64::from(limits::MAX_CELLS).sqrt() as u64;
    let expected: Vec<String> = [
        u64::from(limits::MAX_SIDE),
        u64::from(limits::MAX_CELLS),
        side_of_square,
        side_of_square,
        ripples_cli::input::source_image::MAX_INPUT_BYTES >> 20,
        u64::from(limits::MAX_FRAMES),
        limits::MAX_FPS as u64,
        u64::from(limits::MAX_STEPS_PER_FRAME),
        u64::from(limits::MAX_RADIUS),
        limits::MAX_STRENGTH as u64,
    ]
    .iter()
    .map(u64::to_string)
    .collect();
    assert_eq!(
        stated, expected,
        "docs/command.md's **Limits.** paragraph states {stated:?}; the limits are {expected:?} \
         (side, cells, its square's sides, MiB of standard input, frames, fps, steps per frame, \
         radius, strength)"
    );
}
