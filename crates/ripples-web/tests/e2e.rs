//! The end-to-end tests of the web build, run by `cargo test --workspace`: one builds `web/dist`
//! with `web/build.sh`, type-checks the page modules and the published types against them
//! (`web/e2e/types.mjs`: `tsc` over `web/tsconfig.json` and `web/tsconfig.published.json`, and
//! each option's published type against the wasm's `checkOption`: `web/e2e/option-types.mjs`) and
//! runs `web/e2e/e2e.mjs`, which serves it on localhost and checks the demo in headless
//! Chromium (pixels around a click, frame rate and wasm time at 1280x720 reported, errors,
//! destroy, time-based stepping; see that file), then `web/e2e/hero.mjs`, a hero page
//! (resizes, CSS background layers, pausing out of sight, removal without destroy, start-up),
//! then `web/e2e/video.mjs`, video under the water (`videoUrl` and a hero's background `<video>`:
//! frame by frame, fits, autoplay, cross-origin, errors, memory, speed; its clips made with
//! ffmpeg, which it skips without, unless `RIPPLES_E2E=1`), then `web/e2e/peers.mjs`, Ripples
//! beside jquery.ripples on the same photograph with the same clicks (both must change it near
//! the clicks; the picture of `docs/vs-jquery-ripples.png` goes to `target/e2e/peers/`), then
//! `web/e2e/gl.mjs`, the WebGL2 renderer (its frames against the CPU's for every look, 32
//! instances on a page, sleep when calm, a lost context, reduced motion, text selection, the
//! presence knob), then `web/e2e/photo.mjs`, a living photograph (`waterMask`, `horizon`:
//! the land's pixels unchanged in every frame, the water moving, before and after a resize;
//! the option errors); the other packs the npm package with `web/pack.sh` and runs `web/e2e/package.mjs` over the
//! tarball (about a minute).
//!
//! A third needs nothing but the checkout: no hand-written JavaScript under `web/` is over 900
//! lines (the page module, its tests and tools stay modules by concern).
//!
//! They need Chromium, Node with npm, the packages of `web/e2e` (`npm ci`: playwright-core, the
//! package test's vite, webpack, react and typescript, and jquery with jquery.ripples for
//! `peers.mjs`), the `wasm32-unknown-unknown` target and the wasm-bindgen CLI of Cargo.lock's
//! version. Without one of them it prints a notice and passes, unless `RIPPLES_E2E=1` (what
//! `.ci/run` sets): then a missing browser or Node is a failure, and the rest is installed
//! (`npm ci`, and `web/build.sh` installs the target and the CLI).

#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard};

/// The browser tests one at a time: both build `web/dist` (web/pack.sh runs web/build.sh), and
/// the demo's frame-rate figures must not share the CPU with the package test's builds.
static BROWSER_TESTS: Mutex<()> = Mutex::new(());

fn one_at_a_time() -> MutexGuard<'static, ()> {
    // A test that failed holding the lock poisons it; the next one still runs.
    BROWSER_TESTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .map(PathBuf::from)
        .find(|path| path.exists())
}

fn succeeds(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|output| output.status.success())
}

/// The wasm-bindgen version in Cargo.lock, and whether the CLI on the PATH has it.
fn wasm_bindgen_cli_matches(root: &Path) -> bool {
    let Ok(lock) = std::fs::read_to_string(root.join("Cargo.lock")) else {
        return false;
    };
    let version = lock
        .split("[[package]]")
        .find(|package| package.contains("\nname = \"wasm-bindgen\"\n"))
        .and_then(|package| package.lines().find_map(|l| l.strip_prefix("version = ")))
        .map(|v| v.trim_matches('"').to_string());
    let installed = Command::new("wasm-bindgen")
        .arg("--version")
        .output()
        .ok()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string());
    matches!((version, installed), (Some(v), Some(i)) if i == format!("wasm-bindgen {v}"))
}

fn run(root: &Path, program: &str, args: &[&str]) {
    let status = Command::new(program)
        .args(args)
        .current_dir(root)
        .env("RIPPLES_E2E_OUT", root.join("target/e2e"))
        .status()
        .unwrap_or_else(|error| panic!("could not run {program}: {error}"));
    assert!(
        status.success(),
        "{program} {} failed: {status}",
        args.join(" ")
    );
}

/// What the browser tests need, or None (after a notice) when they should skip: a missing
/// browser or Node is a skip, or a failure under `RIPPLES_E2E=1`, which installs the rest
/// (`npm ci`, and `web/build.sh` installs the wasm target and the CLI).
fn ready_for_browser_tests(root: &Path, what: &str) -> Option<()> {
    let required = std::env::var("RIPPLES_E2E").is_ok_and(|v| v == "1");
    let wasm_target = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"));

    let mut missing = Vec::new();
    if chromium().is_none() {
        missing.push("chromium (apt-get install chromium)");
    }
    if !succeeds("node", &["--version"]) {
        missing.push("node");
    }
    if !succeeds("npm", &["--version"]) {
        missing.push("npm");
    }
    // What RIPPLES_E2E=1 installs by itself.
    let mut installable = Vec::new();
    if !npm_packages_match(root) {
        installable.push("web/e2e/node_modules as its package-lock says (npm ci --prefix web/e2e)");
    }
    if !wasm_target {
        installable.push("the wasm32-unknown-unknown target");
    }
    if !wasm_bindgen_cli_matches(root) {
        installable.push("the wasm-bindgen CLI of Cargo.lock's version");
    }
    if required && !missing.is_empty() {
        panic!("RIPPLES_E2E=1 but missing: {}", missing.join(", "));
    }
    let complete = missing.is_empty() && installable.is_empty();
    if !required && !complete {
        let all: Vec<_> = missing.iter().chain(&installable).copied().collect();
        eprintln!(
            "notice: skipping {what}, missing: {} (RIPPLES_E2E=1 installs what it can and makes \
             the rest a failure)",
            all.join(", ")
        );
        return None;
    }
    if !npm_packages_match(root) {
        run(
            root,
            "npm",
            &["ci", "--prefix", "web/e2e", "--no-audit", "--no-fund"],
        );
    }
    Some(())
}

/// Whether web/e2e/node_modules holds what web/e2e/package.json asks for (the packages
/// `npm ci` installs; a checkout from before the package test lacks the build tools).
fn npm_packages_match(root: &Path) -> bool {
    let Ok(manifest) = std::fs::read_to_string(root.join("web/e2e/package.json")) else {
        return false;
    };
    let Some(dependencies) = manifest.split("\"dependencies\"").nth(1) else {
        return false;
    };
    let block = dependencies.split('}').next().unwrap_or_default();
    block
        .lines()
        .filter_map(|line| line.trim().strip_prefix('"')?.split('"').next())
        .all(|name| {
            root.join("web/e2e/node_modules")
                .join(name)
                .join("package.json")
                .exists()
        })
}

#[test]
fn the_demo_page_works_in_headless_chromium() {
    let _one = one_at_a_time();
    let root = workspace_root();
    if ready_for_browser_tests(&root, "the web end-to-end test").is_none() {
        return;
    }
    run(&root, "bash", &["web/build.sh"]);
    run(&root, "node", &["web/e2e/types.mjs"]);
    run(&root, "node", &["web/e2e/e2e.mjs"]);
    run(&root, "node", &["web/e2e/hero.mjs"]);
    run(&root, "node", &["web/e2e/video.mjs"]);
    run(&root, "node", &["web/e2e/peers.mjs"]);
    run(&root, "node", &["web/e2e/gl.mjs"]);
    run(&root, "node", &["web/e2e/gpu-water.mjs"]);
    run(&root, "node", &["web/e2e/photo.mjs"]);
}

/// The npm package: `web/pack.sh` builds the tarball, and `web/e2e/package.mjs` installs it
/// offline into a Vite app, a webpack 5 app, a static page and a Vite + React app, builds them
/// and checks them in headless Chromium, with `tsc --strict` over the types and a server-side
/// import under Node (see that file).
#[test]
fn the_npm_package_installs_and_works_in_every_setup() {
    let _one = one_at_a_time();
    let root = workspace_root();
    if ready_for_browser_tests(&root, "the npm package test").is_none() {
        return;
    }
    let output = Command::new("bash")
        .arg("web/pack.sh")
        .current_dir(&root)
        .stderr(std::process::Stdio::inherit())
        .output()
        .unwrap_or_else(|error| panic!("could not run web/pack.sh: {error}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    print!("{stdout}");
    assert!(
        output.status.success(),
        "web/pack.sh failed: {}",
        output.status
    );
    let tarball = stdout.lines().last().unwrap_or_default().trim().to_string();
    assert!(
        tarball.ends_with(".tgz") && Path::new(&tarball).exists(),
        "web/pack.sh's last line is not a tarball: '{tarball}'"
    );
    run(&root, "node", &["web/e2e/package.mjs", &tarball]);
}

/// The most lines a hand-written JavaScript file under `web/` may have.
const MAX_JS_LINES: usize = 900;

/// Folders under `web/` whose JavaScript nobody wrote by hand: the test packages and the
/// vendored peers (`node_modules`: jquery.ripples and its jquery), the build's output (`dist`:
/// wasm-bindgen's glue `ripples_web.js` and copies of the page modules) and the scratch apps of
/// `web/e2e/package.mjs` (`.apps`). All three are ignored by git.
const NOT_HAND_WRITTEN: [&str; 3] = ["node_modules", "dist", ".apps"];

/// Every `.js`, `.mjs`, `.cjs` and `.jsx` file under `dir`, less the folders of NOT_HAND_WRITTEN.
fn hand_written_js(dir: &Path, found: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|error| panic!("{}: {error}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
            .path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if !NOT_HAND_WRITTEN.contains(&name) {
                hand_written_js(&path, found);
            }
        } else if ["js", "mjs", "cjs", "jsx"]
            .iter()
            .any(|ext| path.extension().is_some_and(|e| e == *ext))
        {
            found.push(path);
        }
    }
}

/// No hand-written JavaScript under `web/` (the page modules, `web/gl/`, the package's React
/// component, the browser tests and their fixtures) is over MAX_JS_LINES lines: a file that
/// grows past it is split into modules by concern, as `web/ripples.js` and `web/e2e/e2e.mjs`
/// were. Needs no browser.
#[test]
fn no_hand_written_web_javascript_is_over_900_lines() {
    let web = workspace_root().join("web");
    let mut files = Vec::new();
    hand_written_js(&web, &mut files);
    // The walk found the sources (the page modules, their tests): a moved folder fails here.
    assert!(
        files.len() >= 30 && files.iter().any(|f| f.ends_with("web/ripples.js")),
        "found only {} JavaScript files under {}",
        files.len(),
        web.display()
    );
    let mut over: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(file)
                .unwrap_or_else(|error| panic!("{}: {error}", file.display()));
            let lines = text.lines().count();
            let name = file.strip_prefix(&web).unwrap_or(file).display();
            (lines > MAX_JS_LINES).then(|| format!("web/{name}: {lines} lines"))
        })
        .collect();
    over.sort();
    assert!(
        over.is_empty(),
        "hand-written JavaScript over {MAX_JS_LINES} lines (split it into modules by concern): {}",
        over.join(", ")
    );
}
