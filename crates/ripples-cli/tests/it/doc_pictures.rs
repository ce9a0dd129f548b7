//! The guide's pictures are what their captions' commands render now.
//!
//! `docs/pictures.txt` lists every picture in `docs/` and how it is made (one line a panel:
//! `PICTURE | HOW | COMMAND`). Two tests read it:
//!
//! - every picture shown in README.md or a page of `docs/` has a row, every picture file in
//!   `docs/` has one, and each `ripples ...` command a caption quotes (its `--out` aside) is one
//!   of the commands of that picture's rows, so a caption and the table cannot drift apart;
//! - every picture made by `render` or `row` is rendered again by the `ripples` binary of this
//!   build and compared with the committed one pixel for pixel, exactly (the solvers and looks
//!   give the same bits on every backend and thread count; a GIF is compared frame by frame
//!   as a viewer shows it). One is left out as too slow for the test suite: `ripples.gif` (75
//!   frames at 320x240 take about a minute to encode in a debug build, where the GIF encoder
//!   is not optimised); `still.png` and `natural-vs-classic-tiles.png` render the same scene.
//!   The pictures made by a script, in a browser or by hand are listed in the table with how
//!   they are made, and not rendered here.
//!
//! `bash scripts/doc_pictures.sh` writes the pictures instead of checking them (this test with
//! `RIPPLES_WRITE_DOC_PICTURES=1`, every picture, the slow one included; a picture whose pixels
//! are already right is left as it is). In a packaged crate the
//! guide is not there, and the tests say so and pass.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use image::{AnimationDecoder, RgbaImage};

/// Rendered again by the script only, with why.
const LEFT_OUT: [(&str, &str); 1] = [(
    "ripples.gif",
    "75 frames take about a minute to encode in a debug build",
)];

/// One line of `docs/pictures.txt`.
#[derive(Debug, Clone)]
struct Row {
    picture: String,
    how: String,
    command: String,
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The table's rows, or `None` in a packaged crate.
fn table() -> Option<Vec<Row>> {
    let text = std::fs::read_to_string(repository().join("docs/pictures.txt")).ok()?;
    let rows = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.splitn(3, '|').map(str::trim).collect();
            assert_eq!(
                fields.len(),
                3,
                "docs/pictures.txt: not PICTURE | HOW | COMMAND: {line}"
            );
            Row {
                picture: fields[0].to_string(),
                how: fields[1].to_string(),
                command: fields[2].to_string(),
            }
        })
        .collect();
    Some(rows)
}

/// A command with its `--out PATH` left out and its words single-spaced.
fn without_out(command: &str) -> String {
    let mut words = Vec::new();
    let mut iter = command.split_whitespace();
    while let Some(word) = iter.next() {
        if word == "--out" || word == "-o" {
            iter.next();
        } else {
            words.push(word);
        }
    }
    words.join(" ")
}

/// The code spans of `text` (inline, between single backticks).
fn code_spans(text: &str) -> Vec<String> {
    text.split('`')
        .enumerate()
        .filter(|(index, _)| index % 2 == 1)
        .map(|(_, span)| span.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The pages that show pictures.
fn pages() -> Vec<PathBuf> {
    let root = repository();
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ is there")
        .map(|entry| entry.expect("docs/ lists").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// Every picture a page shows, with the caption after it (the next paragraph, whose text is in
/// italics) and the other pictures that caption is for (those of the same paragraph):
/// `(page, picture file name, caption, pictures of the caption)`.
fn shown_pictures() -> Vec<(String, String, String, Vec<String>)> {
    let mut shown = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("the page reads");
        let name = page.file_name().unwrap().to_string_lossy().into_owned();
        let paragraphs: Vec<&str> = text.split("\n\n").collect();
        for (index, paragraph) in paragraphs.iter().enumerate() {
            let files: Vec<String> = paragraph
                .lines()
                .filter(|line| line.starts_with("!["))
                .filter_map(|line| line.rsplit_once("](").map(|(_, rest)| rest))
                .map(|target| {
                    let target = target.trim_end_matches(')');
                    target.rsplit('/').next().unwrap_or(target).to_string()
                })
                .collect();
            for file in &files {
                // The caption: the next paragraph that is not another picture.
                let caption = paragraphs[index + 1..]
                    .iter()
                    .find(|next| !next.trim_start().starts_with("!["))
                    .filter(|next| next.trim_start().starts_with('*'))
                    .map_or(String::new(), |next| next.to_string());
                shown.push((name.clone(), file.clone(), caption, files.clone()));
            }
        }
    }
    shown
}

#[test]
fn every_picture_has_a_row_and_its_caption_quotes_the_rows_command() {
    let Some(rows) = table() else {
        eprintln!(
            "notice: no docs/pictures.txt beside this crate (a packaged crate): nothing to check"
        );
        return;
    };
    let mut problems = Vec::new();
    let known = ["render", "row", "script", "web", "by-hand"];
    for row in &rows {
        let how = row.how.split_whitespace().next().unwrap_or("");
        if !known.contains(&how) {
            problems.push(format!("{}: unknown HOW '{}'", row.picture, row.how));
        }
    }
    let mut files: Vec<String> = std::fs::read_dir(repository().join("docs"))
        .expect("docs/ is there")
        .map(|entry| {
            entry
                .expect("docs/ lists")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| {
            [".png", ".gif", ".jpg", ".webp"]
                .iter()
                .any(|ext| name.ends_with(ext))
        })
        .collect();
    files.sort();
    for file in &files {
        if !rows.iter().any(|row| &row.picture == file) {
            problems.push(format!("docs/{file} has no row in docs/pictures.txt"));
        }
    }
    for row in &rows {
        if !files.contains(&row.picture) {
            problems.push(format!(
                "docs/pictures.txt lists {}, which is not in docs/",
                row.picture
            ));
        }
    }
    let shown = shown_pictures();
    for (page, picture, caption, together) in &shown {
        if !rows.iter().any(|row| &row.picture == picture) {
            problems.push(format!(
                "{page} shows {picture}, which has no row in docs/pictures.txt"
            ));
            continue;
        }
        // The commands of the rows (of every picture the caption is for) that are commands.
        let commands: Vec<String> = rows
            .iter()
            .filter(|row| together.contains(&row.picture))
            .filter(|row| {
                ["render", "row", "script"]
                    .contains(&row.how.split_whitespace().next().unwrap_or(""))
            })
            .map(|row| without_out(&row.command))
            .collect();
        if commands.is_empty() {
            continue;
        }
        let quoted: Vec<String> = code_spans(caption)
            .into_iter()
            .filter(|span| span.starts_with("ripples ") || span.starts_with("bash scripts/"))
            .map(|span| without_out(&span))
            .collect();
        for command in &quoted {
            if !commands.contains(command) {
                problems.push(format!(
                    "{page}: the caption of {picture} quotes `{command}`, which is none of its \
                     rows' commands in docs/pictures.txt: {commands:?}"
                ));
            }
        }
        let made_by_ripples = rows.iter().any(|row| {
            &row.picture == picture && (row.how == "render" || row.how.starts_with("row"))
        });
        if made_by_ripples && quoted.is_empty() {
            problems.push(format!(
                "{page}: the caption of {picture} quotes no `ripples ...` command of its rows"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A picture's frames: one for a PNG, every frame as a viewer shows it for a GIF.
fn frames(path: &Path) -> Vec<RgbaImage> {
    let bytes = std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    if path.extension().is_some_and(|ext| ext == "gif") {
        let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(bytes))
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        decoder
            .into_frames()
            .map(|frame| frame.expect("a GIF frame decodes").into_buffer())
            .collect()
    } else {
        vec![
            image::load_from_memory(&bytes)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
                .to_rgba8(),
        ]
    }
}

/// Runs one row's command with its output at `out`.
fn render(command: &str, out: &Path) {
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words[0], "ripples", "not a ripples command: {command}");
    let mut args: Vec<&str> = words[1..].to_vec();
    let out_text = out.to_str().expect("a UTF-8 temporary path");
    args.extend(["--out", out_text]);
    let output = common::ripples(&args, &repository());
    assert!(
        output.status.success(),
        "`{command}` failed: {}",
        common::stderr(&output)
    );
}

/// The picture the rows make: the one render, or the panels side by side.
fn compose(rows: &[&Row], rendered: &[Vec<RgbaImage>]) -> Vec<RgbaImage> {
    if rows[0].how == "render" {
        return rendered[0].clone();
    }
    let gap: u32 = rows[0]
        .how
        .split_whitespace()
        .nth(1)
        .and_then(|gap| gap.parse().ok())
        .expect("row GAP");
    let panels: Vec<&RgbaImage> = rendered.iter().map(|frames| &frames[0]).collect();
    let width =
        panels.iter().map(|panel| panel.width()).sum::<u32>() + gap * (panels.len() as u32 - 1);
    let height = panels.iter().map(|panel| panel.height()).max().unwrap_or(0);
    let mut picture = RgbaImage::from_pixel(width, height, image::Rgba([255, 255, 255, 255]));
    let mut x = 0;
    for panel in panels {
        image::imageops::replace(&mut picture, panel, i64::from(x), 0);
        x += panel.width() + gap;
    }
    vec![picture]
}

/// The pictures ripples makes, by name, with their rows in order.
fn rendered_pictures(rows: &[Row]) -> BTreeMap<String, Vec<&Row>> {
    let mut pictures: BTreeMap<String, Vec<&Row>> = BTreeMap::new();
    for row in rows {
        if row.how == "render" || row.how.starts_with("row") {
            pictures.entry(row.picture.clone()).or_default().push(row);
        }
    }
    pictures
}

#[test]
fn the_committed_pictures_are_what_their_commands_render() {
    let Some(rows) = table() else {
        eprintln!(
            "notice: no docs/pictures.txt beside this crate (a packaged crate): nothing to check"
        );
        return;
    };
    let write = std::env::var("RIPPLES_WRITE_DOC_PICTURES").as_deref() == Ok("1");
    let pictures: Vec<(String, Vec<&Row>)> = rendered_pictures(&rows)
        .into_iter()
        .filter(|(picture, _)| {
            let left_out = LEFT_OUT.iter().find(|(name, _)| name == picture);
            if let (Some((_, why)), false) = (left_out, write) {
                eprintln!("notice: docs/{picture} is not rendered here: {why}");
            }
            write || left_out.is_none()
        })
        .collect();
    let directory = tempfile::tempdir().expect("a temporary directory");
    // Two at a time: the suite runs on two cores.
    let next = Mutex::new(0usize);
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let index = {
                        let mut next = next.lock().unwrap();
                        *next += 1;
                        *next - 1
                    };
                    let Some((picture, panel_rows)) = pictures.get(index) else {
                        break;
                    };
                    let extension = if picture.ends_with(".gif") {
                        "gif"
                    } else {
                        "png"
                    };
                    let rendered: Vec<Vec<RgbaImage>> = panel_rows
                        .iter()
                        .enumerate()
                        .map(|(panel, row)| {
                            let out = directory
                                .path()
                                .join(format!("{picture}-{panel}.{extension}"));
                            render(&row.command, &out);
                            frames(&out)
                        })
                        .collect();
                    let fresh = compose(panel_rows, &rendered);
                    let committed_path = repository().join("docs").join(picture);
                    let committed = committed_path.exists().then(|| frames(&committed_path));
                    let differs = committed
                        .as_ref()
                        .is_none_or(|committed| difference(committed, &fresh).is_some());
                    if write && differs {
                        if extension == "gif" {
                            let out = directory.path().join(format!("{picture}-0.gif"));
                            std::fs::copy(&out, &committed_path).expect("the GIF is copied");
                        } else {
                            fresh[0]
                                .save(&committed_path)
                                .expect("the picture is written");
                        }
                        eprintln!("wrote docs/{picture}");
                        continue;
                    }
                    if write {
                        eprintln!("docs/{picture} is up to date");
                        continue;
                    }
                    let committed = committed.expect("the picture is committed");
                    if let Some(problem) = difference(&committed, &fresh) {
                        problems.lock().unwrap().push(format!(
                            "docs/{picture} is not what its commands render now ({problem}); \
                             `bash scripts/doc_pictures.sh` renders it again"
                        ));
                    }
                }
            });
        }
    });
    let problems = problems.into_inner().unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// How two pictures differ, if they do.
fn difference(committed: &[RgbaImage], fresh: &[RgbaImage]) -> Option<String> {
    if committed.len() != fresh.len() {
        return Some(format!(
            "{} frames, {} rendered",
            committed.len(),
            fresh.len()
        ));
    }
    for (index, (old, new)) in committed.iter().zip(fresh).enumerate() {
        if old.dimensions() != new.dimensions() {
            return Some(format!(
                "frame {index} is {:?}, {:?} rendered",
                old.dimensions(),
                new.dimensions()
            ));
        }
        let differing = old
            .pixels()
            .zip(new.pixels())
            .filter(|(a, b)| a != b)
            .count();
        if differing > 0 {
            return Some(format!("frame {index}: {differing} pixels differ"));
        }
    }
    None
}
