//! Every `ripples` command the README and the guide quote runs.
//!
//! The commands are read from README.md, `crates/ripples/README.md` and every page of `docs/`:
//! each line of a fenced code block, and each inline code span, that starts with `ripples`
//! (a trailing `# comment` aside, `\` continuations joined). Each is then, explicitly, one of:
//!
//! - run, at a small size, each in a temporary directory of its own: `--size` becomes 64x48
//!   (added when absent), `--frames` 3 (added), `--frame N` 2, `--out` and `--heights-out` keep
//!   their file names in that directory, the repository's files given (`scenes/reef.toml`) are
//!   found where they are, the placeholder pictures `photo.jpg` and `photo.png` become
//!   `crates/ripples-cli/tests/data/coffee.jpg`, and `< FILE` becomes its standard input;
//!   after the first render, a GIF output becomes an animated PNG of the same name (in a debug
//!   build the GIF palette's set-up costs about 6 s a file, whatever its size: the first render
//!   writes its GIF, and `tests/it/outputs.rs` checks the format). It
//!   must exit 0 (a `--loop`, which needs 4 frames, gets 4). An `.mp4` or `.webm` output needs ffmpeg: without it the command is skipped
//!   with a notice, unless `RIPPLES_E2E=1` makes that a failure;
//! - parsed (`ripples play ...` and `ripples bench ...`): the command with `--help` appended
//!   must exit 0, so every option and value it gives is accepted (a window needs a display and
//!   a benchmark takes minutes; `tests/play_e2e.rs` and `tests/it/bench.rs` run them);
//! - or exempt, in [`EXEMPT`] with the reason.
//!
//! A command that is none of these fails the test, so a new command in the docs is covered or
//! named here. In a packaged crate the guide is not there, and the test says so and passes.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

/// Quoted commands that are not run, and why.
const EXEMPT: [(&str, &str); 18] = [
    (
        "ripples bench --solver S --render natural --threads 2",
        "a pattern: S is any solver",
    ),
    (
        "ripples play --scene FILE.toml",
        "a pattern: FILE.toml is any scene",
    ),
    (
        "ripples render --scene FILE.toml",
        "a pattern: FILE.toml is any scene",
    ),
    (
        "ripples play [IMAGE] [--scene FILE] [--solver S] [--size WxH] [render options] [--fps F]",
        "a synopsis",
    ),
    ("ripples render [IMAGE] [options]", "a synopsis"),
    (
        "ripples play --size 1920x1080 --stats --exit-after 10 --rain 5 [options]",
        "a pattern: [options] are any",
    ),
    (
        "ripples render ... --frame 299 --out frame299.png",
        "a fragment: ... are the options of the command before it",
    ),
    (
        "ripples render ... --out - | head -c 100",
        "a fragment, piped into another program",
    ),
    (
        "ripples render - --out - --format mp4 < photo.jpg | ffplay -",
        "piped into a player",
    ),
    ("ripples render bad.jpg", "an example of an error message"),
    (
        "ripples render <(unzip -p photos.zip lake.jpg) --out water.gif",
        "a shell's process substitution, from an archive that is not in the repository \
         (tests/it/devices_and_pipes.rs runs the same through bash)",
    ),
    (
        "ripples render --heights-in field.npy",
        "needs a field of the pool's grid: tests/it/heights_in.rs reads them",
    ),
    (
        "ripples render clip.mp4",
        "a placeholder clip (ffmpeg): tests/it/video.rs renders clips it makes",
    ),
    (
        "ripples render clip.mp4 --out water.mp4",
        "a placeholder clip (ffmpeg): tests/it/video.rs",
    ),
    (
        "ripples render clip.mp4 --frame 60 --out video-frame.png",
        "a placeholder clip (ffmpeg): tests/it/video.rs",
    ),
    (
        "ripples render clip.gif --frames 300 --video-end loop --out long.gif",
        "a placeholder clip (ffmpeg): tests/it/video.rs",
    ),
    (
        "ripples render clip.mkv --size 1280x720 --fit contain --out boxed.mp4",
        "a placeholder clip (ffmpeg): tests/it/video.rs",
    ),
    (
        "ripples render clip.mov --start 12 --duration 5 --out part.webm",
        "a placeholder clip (ffmpeg): tests/it/video.rs",
    ),
];

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The commands quoted in `text`, single-spaced.
fn quoted_commands(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut outside = String::new();
    let mut in_block = false;
    let mut block = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            if in_block {
                for command in block.replace("\\\n", " ").lines() {
                    let command = command.split(" #").next().unwrap_or("").trim();
                    if command == "ripples" || command.starts_with("ripples ") {
                        commands.push(command.split_whitespace().collect::<Vec<_>>().join(" "));
                    }
                }
                block.clear();
            }
            in_block = !in_block;
            continue;
        }
        if in_block {
            block.push_str(line);
            block.push('\n');
        } else {
            outside.push_str(line);
            outside.push('\n');
        }
    }
    for (index, span) in outside.split('`').enumerate() {
        let span = span.split_whitespace().collect::<Vec<_>>().join(" ");
        if index % 2 == 1 && span.starts_with("ripples ") {
            commands.push(span);
        }
    }
    commands
}

/// Every quoted command of the README and the guide, once, with the page it is first on.
fn every_command() -> Option<Vec<(String, String)>> {
    let root = repository();
    let mut pages = vec![
        root.join("README.md"),
        root.join("crates/ripples/README.md"),
    ];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .ok()?
        .map(|entry| entry.expect("docs/ lists").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut commands: Vec<(String, String)> = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).ok()?;
        let name = page
            .strip_prefix(&root)
            .unwrap_or(&page)
            .display()
            .to_string();
        for command in quoted_commands(&text) {
            if !commands.iter().any(|(known, _)| known == &command) {
                commands.push((command, name.clone()));
            }
        }
    }
    Some(commands)
}

/// Whether ffmpeg runs; without it a test that needs it is skipped, unless RIPPLES_E2E=1.
fn ffmpeg_available() -> bool {
    let found = Command::new("ffmpeg")
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    assert!(
        found || std::env::var("RIPPLES_E2E").as_deref() != Ok("1"),
        "ffmpeg is required when RIPPLES_E2E=1"
    );
    found
}

/// The arguments a quoted render runs with: small, with its files in `scratch`, and its
/// standard input if it reads one.
fn small_render(command: &str, scratch: &Path, gif: bool) -> (Vec<String>, Option<PathBuf>) {
    let coffee = repository().join("crates/ripples-cli/tests/data/coffee.jpg");
    let mut words = command.split_whitespace().skip(1);
    let mut args: Vec<String> = Vec::new();
    let mut input = None;
    let (mut sized, mut framed, mut out) = (false, false, false);
    let one_frame = command.contains("--frame ") || command.contains("--still");
    while let Some(word) = words.next() {
        match word {
            "--size" => {
                words.next();
                args.extend(["--size".into(), "64x48".into()]);
                sized = true;
            }
            "--frames" => {
                words.next();
                args.extend(["--frames".into(), "3".into()]);
                framed = true;
            }
            "--frame" => {
                words.next();
                args.extend(["--frame".into(), "2".into()]);
            }
            "--out" | "-o" | "--heights-out" => {
                let path = words.next().expect("a path after --out");
                let path = if path == "-" {
                    path.to_string()
                } else {
                    let name = Path::new(path).file_name().expect("a file name");
                    let mut name = scratch.join(name).display().to_string();
                    if !gif && word != "--heights-out" && name.ends_with(".gif") {
                        name = format!("{}.png", name.trim_end_matches(".gif"));
                    }
                    if path.ends_with('/') {
                        name.push('/');
                    }
                    name
                };
                out |= word != "--heights-out";
                args.extend([word.to_string(), path]);
            }
            "<" => {
                let file = words.next().expect("a file after <");
                input = Some(match file {
                    "photo.jpg" | "photo.png" => coffee.clone(),
                    file => repository().join(file),
                });
            }
            "photo.jpg" | "photo.png" => args.push(coffee.display().to_string()),
            // The repository's files, wherever the command runs.
            word if !word.starts_with('-') && repository().join(word).exists() => {
                args.push(repository().join(word).display().to_string());
            }
            word => args.push(word.to_string()),
        }
    }
    if !sized {
        args.extend(["--size".into(), "64x48".into()]);
    }
    if !framed {
        args.extend(["--frames".into(), "3".into()]);
    }
    // A loop cross-fades at least one frame into the start: 4 frames.
    if command.contains("--loop") {
        let frames = args
            .iter()
            .position(|arg| arg == "--frames")
            .expect("--frames")
            + 1;
        args[frames] = "4".into();
    }
    // Without --out the command writes ripples.png or ripples.gif where it runs, in `scratch`.
    if !out && !one_frame && !gif {
        args.extend([
            "--out".into(),
            scratch.join("ripples.png").display().to_string(),
        ]);
    }
    (args, input)
}

#[test]
fn every_quoted_command_runs() {
    let Some(commands) = every_command() else {
        eprintln!("notice: no guide beside this crate (a packaged crate): nothing to check");
        return;
    };
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let mut problems = Vec::new();
    // What to run: (the command, its page, its arguments, its standard input, where it runs).
    #[allow(clippy::type_complexity)]
    let mut jobs: Vec<(&str, &str, Vec<String>, Option<PathBuf>, PathBuf)> = Vec::new();
    let mut gif_written = false;
    for (command, page) in &commands {
        if EXEMPT.iter().any(|(exempt, _)| exempt == command) {
            continue;
        }
        let words: Vec<&str> = command.split_whitespace().collect();
        let (args, input, directory) = match words.get(1) {
            Some(&"play") | Some(&"bench") => {
                let mut args: Vec<String> =
                    words[1..].iter().map(|word| word.to_string()).collect();
                if !args.iter().any(|arg| arg == "--help") {
                    args.push("--help".into());
                }
                (args, None, scratch.path().to_path_buf())
            }
            Some(&"render") => {
                if (command.contains(".mp4") || command.contains(".webm")) && !ffmpeg_available() {
                    eprintln!(
                        "notice: skipping `{command}` ({page}): no ffmpeg (RIPPLES_E2E=1 makes \
                         this a failure)"
                    );
                    continue;
                }
                let gif = !gif_written;
                gif_written = true;
                let directory = scratch.path().join(jobs.len().to_string());
                std::fs::create_dir(&directory).expect("a directory for the command");
                let (args, input) = small_render(command, &directory, gif);
                (args, input, directory)
            }
            _ => {
                problems.push(format!(
                    "{page}: `{command}` is neither run nor exempt: say how in tests/it/doc_commands.rs"
                ));
                continue;
            }
        };
        jobs.push((command, page, args, input, directory));
    }
    // Two at a time: the suite runs on two cores, and a debug build's GIF encoder takes seconds.
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let index = {
                        let mut next = next.lock().unwrap();
                        *next += 1;
                        *next - 1
                    };
                    let Some((command, page, args, input, directory)) = jobs.get(index) else {
                        break;
                    };
                    let output = Command::new(env!("CARGO_BIN_EXE_ripples"))
                        .args(args)
                        .current_dir(directory)
                        .env_remove("RUST_BACKTRACE")
                        .env_remove("DISPLAY")
                        .env_remove("WAYLAND_DISPLAY")
                        .env_remove("WAYLAND_SOCKET")
                        .stdin(match input {
                            Some(file) => {
                                Stdio::from(std::fs::File::open(file).expect("the input opens"))
                            }
                            None => Stdio::null(),
                        })
                        .output()
                        .expect("the ripples binary runs");
                    if !output.status.success() {
                        failures.lock().unwrap().push(format!(
                            "{page}: `{command}` (run as `ripples {}`) exited {}: {}",
                            args.join(" "),
                            output.status,
                            common::stderr(&output).trim_end()
                        ));
                    }
                }
            });
        }
    });
    problems.extend(failures.into_inner().unwrap());
    let ran = jobs.len();
    for (exempt, _) in EXEMPT {
        if !commands.iter().any(|(command, _)| command == exempt) {
            problems.push(format!(
                "EXEMPT lists `{exempt}`, which no page quotes any more"
            ));
        }
    }
    eprintln!("{ran} quoted commands ran, {} exempt", EXEMPT.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// One frame (`--frame`, `--still`) without `--out` writes `ripples.png` and says so, as the
/// README's `ripples render --scene docs/readme.toml --frame 50` expects; an animation still
/// goes to `ripples.gif`.
#[test]
fn one_frame_without_out_writes_ripples_png() {
    let scene = repository().join("docs/readme.toml");
    let scene = scene.to_str().expect("a UTF-8 path");
    for still in [&["--frame", "1"][..], &["--still"][..]] {
        let directory = tempfile::tempdir().expect("a temporary directory");
        let mut args = vec![
            "render", "--scene", scene, "--size", "64x48", "--frames", "3",
        ];
        args.extend(still);
        let output = common::ripples(&args, directory.path());
        assert!(
            output.status.success(),
            "{args:?}: {}",
            common::stderr(&output)
        );
        let png = directory.path().join("ripples.png");
        let bytes = std::fs::read(&png).expect("ripples.png is written");
        assert!(bytes.starts_with(b"\x89PNG"), "ripples.png is a PNG");
        assert!(
            common::stdout(&output).contains("wrote ripples.png: frame"),
            "the last line names ripples.png: {}",
            common::stdout(&output)
        );
        assert!(!directory.path().join("ripples.gif").exists());
    }
    let directory = tempfile::tempdir().expect("a temporary directory");
    let output = common::ripples(
        &[
            "render", "--scene", scene, "--size", "64x48", "--frames", "3",
        ],
        directory.path(),
    );
    assert!(output.status.success(), "{}", common::stderr(&output));
    assert!(directory.path().join("ripples.gif").exists());
    assert!(common::stdout(&output).contains("wrote ripples.gif: 3 frames"));
}

/// The options that a `--help` text names (`--frames`, anywhere in it) and those it defines
/// (its option lines).
fn named_and_defined(help: &str) -> (Vec<String>, Vec<String>) {
    let options = |text: &str| -> Vec<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|word| word.starts_with("--") && word.len() > 2)
            .map(|word| word.trim_end_matches('-').to_string())
            .collect()
    };
    let defined = help
        .lines()
        .filter(|line| {
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            (indent == 2 || indent == 6) && trimmed.starts_with('-')
        })
        .flat_map(|line| options(line.trim_start().split("  ").next().unwrap_or("")))
        .collect();
    (options(help), defined)
}

/// `ripples play --help` and `ripples render --help` name only options of their own: the help
/// of an option the two share must not send `ripples play` to one it refuses (`--frames`).
#[test]
fn each_help_names_only_its_own_options() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    for command in ["play", "render"] {
        let output = common::ripples(&[command, "--help"], directory.path());
        if command == "play" && !output.status.success() {
            eprintln!("notice: no `ripples play` in this build (feature play off)");
            continue;
        }
        let help = common::stdout(&output);
        let (named, defined) = named_and_defined(&help);
        let foreign: Vec<&String> = named
            .iter()
            .filter(|option| !defined.contains(option))
            .collect();
        assert!(
            foreign.is_empty(),
            "`ripples {command} --help` names options `ripples {command}` does not take: {foreign:?}"
        );
    }
}

/// `ripples --help` and `ripples render --help` name every picture format the command reads,
/// as its error messages do, not only PNG and JPEG.
#[test]
fn the_help_names_every_picture_format() {
    let formats = ripples_cli::input::source_image::still_formats::STILL_FORMAT_NAMES;
    let directory = tempfile::tempdir().expect("a temporary directory");
    for args in [&["--help"][..], &["render", "--help"][..]] {
        let help = common::stdout(&common::ripples(args, directory.path()));
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            help.contains(formats),
            "`ripples {}` does not name the picture formats ({formats})",
            args.join(" ")
        );
    }
}
