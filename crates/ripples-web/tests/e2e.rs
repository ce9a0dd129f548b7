//! The end-to-end test of the web build, run by `cargo test --workspace`: builds `web/dist`
//! with `web/build.sh` and runs `web/e2e/e2e.mjs`, which serves it on localhost and checks the
//! demo in headless Chromium (pixels around a click, frame rate and wasm time at 1280x720,
//! errors, destroy, time-based stepping; see that file), then `web/e2e/hero.mjs`, a hero page
//! (resizes, CSS background layers, pausing out of sight, removal without destroy, start-up).
//!
//! It needs Chromium, Node with npm, the `playwright-core` package of `web/e2e` (`npm ci`), the
//! `wasm32-unknown-unknown` target and the wasm-bindgen CLI of Cargo.lock's version. Without
//! one of them it prints a notice and passes, unless `RIPPLES_E2E=1` (what `.ci/run` sets):
//! then a missing browser or Node is a failure, and the rest is installed (`npm ci`, and
//! `web/build.sh` installs the target and the CLI).

#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::Command;

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

#[test]
fn the_demo_page_works_in_headless_chromium() {
    let root = workspace_root();
    let required = std::env::var("RIPPLES_E2E").is_ok_and(|v| v == "1");
    let playwright = root.join("web/e2e/node_modules/playwright-core");
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
    if !playwright.exists() {
        installable.push("web/e2e/node_modules (npm ci --prefix web/e2e)");
    }
    if !wasm_target {
        installable.push("the wasm32-unknown-unknown target");
    }
    if !wasm_bindgen_cli_matches(&root) {
        installable.push("the wasm-bindgen CLI of Cargo.lock's version");
    }
    if required && !missing.is_empty() {
        panic!("RIPPLES_E2E=1 but missing: {}", missing.join(", "));
    }
    let complete = missing.is_empty() && installable.is_empty();
    if !required && !complete {
        let all: Vec<_> = missing.iter().chain(&installable).copied().collect();
        eprintln!(
            "notice: skipping the web end-to-end test, missing: {} (RIPPLES_E2E=1 installs what \
             it can and makes the rest a failure)",
            all.join(", ")
        );
        return;
    }
    if !playwright.exists() {
        run(
            &root,
            "npm",
            &["ci", "--prefix", "web/e2e", "--no-audit", "--no-fund"],
        );
    }
    run(&root, "bash", &["web/build.sh"]);
    run(&root, "node", &["web/e2e/e2e.mjs"]);
    run(&root, "node", &["web/e2e/hero.mjs"]);
}
