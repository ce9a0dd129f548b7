//! End-to-end tests of `ripples bench`: the JSON report has every documented key with sane
//! values, the field hash is reproducible and matches a field built independently from the
//! published recipe, and bad options are usage errors that name the value. Nothing here checks
//! how fast anything is: the machine running the tests may be busy.

use std::process::{Command, Output};

use serde_json::Value;

fn ripples(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ripples"))
        .args(args)
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("the ripples binary runs")
}

/// `ripples bench --json` with these options (3 frames and 2 reps unless they say).
fn bench_json(extra: &[&str]) -> Value {
    let mut args = vec!["bench", "--json"];
    args.extend_from_slice(extra);
    for (option, default) in [("--frames", "3"), ("--reps", "2")] {
        if !extra.contains(&option) {
            args.extend([option, default]);
        }
    }
    let output = ripples(&args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "ripples {args:?} failed: {stderr}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    assert_eq!(stdout.trim().lines().count(), 1, "one JSON line: {stdout}");
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn positive(report: &Value, path: &str) -> f64 {
    let value = report
        .pointer(path)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("{path} missing or not a number in {report}"));
    assert!(value.is_finite() && value > 0.0, "{path} = {value}");
    value
}

fn text<'a>(report: &'a Value, path: &str) -> &'a str {
    report
        .pointer(path)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{path} missing or not a string in {report}"))
}

/// Marsaglia's xorshift32, written again here so the test does not trust the command's.
fn xorshift32(state: &mut u32) -> u32 {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    *state
}

/// The turbulent field of the issue, built on the library's classic solver, hashed with FNV-1a.
fn expected_hash(width: u32, height: u32) -> String {
    use ripples::WaterSolver;
    let mut water = ripples::ClassicSolver::new(width, height).unwrap();
    let mut state = 12345;
    let mut stone = |water: &mut ripples::ClassicSolver| {
        let x = xorshift32(&mut state) % width;
        let y = xorshift32(&mut state) % height;
        let radius = 1 + xorshift32(&mut state) % 8;
        let strength = 32 + xorshift32(&mut state) % 97;
        water.drop_stone(x as i32, y as i32, radius, strength as f32);
    };
    for _ in 0..width * height / 256 + 1 {
        stone(&mut water);
    }
    for _ in 0..16 {
        stone(&mut water);
        water.step_without_walls();
    }
    let mut hash: u64 = 0xcbf29ce484222325;
    for byte in water.heights().iter().flat_map(|h| h.to_le_bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x100000001b3);
    }
    format!("{hash:016x}")
}

#[test]
fn json_report_has_every_documented_key() {
    let report = bench_json(&["--size", "64x48"]);
    assert_eq!(report["width"], 64);
    assert_eq!(report["height"], 48);
    assert_eq!(report["solver"], "classic");
    assert_eq!(report["look"], "classic");
    assert_eq!(
        (report["frames"].as_u64(), report["reps"].as_u64()),
        (Some(3), Some(2))
    );
    assert!(report["threads"].as_u64().is_some_and(|t| t >= 1));
    let backend = text(&report, "/backend");
    assert!(backend.parse::<ripples::Backend>().is_ok(), "{backend}");
    let hash = text(&report, "/field_fnv1a64");
    assert!(
        hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()),
        "{hash}"
    );
    for field in ["", "/calm"] {
        for work in ["step", "render", "step_render"] {
            let ns = positive(&report, &format!("{field}/{work}/ns_per_cell"));
            let fps = positive(&report, &format!("{field}/{work}/fps"));
            // Both come from the same median: fps * ns/cell * cells = 1e9.
            let product = ns * fps * 64.0 * 48.0;
            assert!(
                (product / 1e9 - 1.0).abs() < 1e-6,
                "{field}/{work}: {product}"
            );
        }
    }
    positive(&report, "/seed_port/step_render/ns_per_cell");
    positive(&report, "/seed_port/step_render/fps");
    positive(&report, "/seed_port/speedup");
    assert_eq!(report["seed_port"]["frames"], 3);
    positive(&report, "/memory/bandwidth_gb_s");
    positive(&report, "/memory/floor_fps");
    positive(&report, "/memory/fraction_of_floor");
    assert_eq!(report["memory"]["bytes_per_frame"], 64 * 48 * 16);
    // Calm water is all zeros.
    let zeros = vec![0u8; 64 * 48 * 2];
    let mut hash: u64 = 0xcbf29ce484222325;
    for byte in zeros {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x100000001b3);
    }
    assert_eq!(text(&report, "/calm/field_fnv1a64"), format!("{hash:016x}"));
}

#[test]
fn the_field_hash_is_reproducible_and_follows_the_recipe() {
    let first = bench_json(&["--size", "64x48", "--frames", "1", "--reps", "1"]);
    let second = bench_json(&["--size", "64x48", "--frames", "2", "--reps", "1"]);
    let hash = text(&first, "/field_fnv1a64");
    assert_eq!(hash, text(&second, "/field_fnv1a64"));
    assert_eq!(hash, expected_hash(64, 48));
    let other = bench_json(&["--size", "65x48", "--frames", "1", "--reps", "1"]);
    assert_ne!(text(&other, "/field_fnv1a64"), hash);
    assert_eq!(text(&other, "/field_fnv1a64"), expected_hash(65, 48));
}

#[test]
fn one_thread_and_every_backend_run() {
    let report = bench_json(&["--size", "40x30", "--threads", "1"]);
    assert_eq!(report["threads"], 1);
    for backend in ripples::Backend::available() {
        let report = bench_json(&["--size", "40x30", "--backend", backend.name()]);
        assert_eq!(report["backend"], backend.name());
    }
}

#[test]
fn several_thread_counts_are_timed_in_one_run_and_compared() {
    let output = ripples(&[
        "bench",
        "--json",
        "--size",
        "40x30",
        "--frames",
        "2",
        "--reps",
        "3",
        "--threads",
        "1,2",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let reports: Value = serde_json::from_str(stdout.trim()).expect("one JSON value");
    let reports = reports.as_array().expect("an array, one report per count");
    assert_eq!(reports.len(), 2);
    assert_eq!(
        (
            reports[0]["threads"].as_u64(),
            reports[1]["threads"].as_u64()
        ),
        (Some(1), Some(2))
    );
    assert_eq!(reports[0]["field_fnv1a64"], reports[1]["field_fnv1a64"]);
    assert!(reports[0].get("scaling").is_none(), "{}", reports[0]);
    assert_eq!(reports[1]["scaling"]["over_threads"], 1);
    positive(&reports[1], "/scaling/step_render_speedup");
    positive(&reports[1], "/step_render/fps");

    // The table: both reports, and the comparison under the second.
    let output = ripples(&[
        "bench",
        "--size",
        "40x30",
        "--frames",
        "2",
        "--reps",
        "1",
        "--threads",
        "2,1",
    ]);
    assert!(output.status.success());
    let table = String::from_utf8_lossy(&output.stdout);
    assert_eq!(table.matches("ripples bench: 40x30").count(), 2, "{table}");
    assert!(
        table.contains("2 threads") && table.contains("1 thread,"),
        "{table}"
    );
    assert!(table.contains("as fast as on 2 threads"), "{table}");
}

#[test]
fn float_solvers_and_other_looks_run() {
    for (solver, look) in [
        ("wave", "natural"),
        ("wave", "lit"),
        ("spring", "spring"),
        ("classic", "lit"),
    ] {
        let report = bench_json(&["--size", "40x30", "--solver", solver, "--render", look]);
        assert_eq!(report["solver"], solver);
        assert_eq!(report["look"], look);
        positive(&report, "/step_render/fps");
        // The seed port only exists for what the seeds do: the classic solver and look.
        assert!(report["seed_port"].is_null(), "{solver}/{look}");
    }
    let wave = bench_json(&["--size", "40x30", "--solver", "wave"]);
    assert_eq!(wave["memory"]["bytes_per_frame"], 40 * 30 * 24);
}

#[test]
fn a_coarser_simulation_is_timed_per_pixel_over_its_own_grid() {
    // 41x30 pixels at 2 pixels per cell: a grid of 21x15 cells.
    let report = bench_json(&["--size", "41x30", "--sim-scale", "2", "--solver", "wave"]);
    assert_eq!(report["sim_scale"], 2);
    assert_eq!(
        (report["width"].as_u64(), report["height"].as_u64()),
        (Some(41), Some(30))
    );
    let ns = positive(&report, "/step_render/ns_per_cell");
    let fps = positive(&report, "/step_render/fps");
    assert!(
        (ns * fps * 41.0 * 30.0 / 1e9 - 1.0).abs() < 1e-6,
        "per pixel"
    );
    // The wave solver's f32 grid: 12 bytes a step and 4 a render per cell, 8 per pixel.
    assert_eq!(
        report["memory"]["bytes_per_frame"],
        21 * 15 * 16 + 41 * 30 * 8
    );
    let zeros = vec![0u8; 21 * 15 * 4];
    let mut hash: u64 = 0xcbf29ce484222325;
    for byte in zeros {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x100000001b3);
    }
    assert_eq!(text(&report, "/calm/field_fnv1a64"), format!("{hash:016x}"));
    // The seed port has no coarser grid.
    let classic = bench_json(&["--size", "40x30", "--sim-scale", "3"]);
    assert!(classic["seed_port"].is_null(), "{classic}");
    assert_eq!(bench_json(&["--size", "40x30"])["sim_scale"], 1);
}

#[test]
fn tiny_pools_do_not_break_anything() {
    for size in ["1x1", "2x7", "3x3"] {
        let report = bench_json(&["--size", size, "--frames", "2", "--reps", "1"]);
        positive(&report, "/step_render/fps");
    }
}

#[test]
fn the_table_shows_both_fields_and_both_yardsticks() {
    let output = ripples(&["bench", "--size", "32x24", "--frames", "2", "--reps", "1"]);
    assert!(output.status.success());
    let table = String::from_utf8_lossy(&output.stdout);
    for needle in [
        "32x24",
        "turbulent",
        "calm water",
        "step+render",
        "seed port",
        "GB/s",
        "step 6 B/cell + render 10 B/px",
        &expected_hash(32, 24),
    ] {
        assert!(table.contains(needle), "'{needle}' in:\n{table}");
    }
}

#[test]
fn bad_values_are_usage_errors_naming_the_value() {
    let cases: [(&[&str], &str); 12] = [
        (&["--frames", "0"], "'0'"),
        (&["--frames", "100001"], "'100001'"),
        (&["--reps", "0"], "'0'"),
        (&["--threads", "0"], "'0'"),
        (&["--threads", "1,x"], "'x'"),
        (&["--threads", "2,1,2"], "names 2 twice"),
        (&["--size", "0x5"], "'0x5'"),
        (&["--backend", "mmx"], "'mmx'"),
        (&["--solver", "foo"], "'foo'"),
        (&["--render", "shiny"], "'shiny'"),
        (&["--sim-scale", "0"], "'0'"),
        (&["--sim-scale", "17"], "'17'"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["bench"];
        all.extend_from_slice(args);
        let output = ripples(&all);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{all:?}: {stderr}");
        assert!(stderr.starts_with("error"), "{all:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{all:?}: expected {needle} in {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(output.stdout.is_empty(), "{all:?} printed a report");
    }
    // A backend this CPU lacks is refused the same way.
    if let Some(missing) = ripples::Backend::ALL
        .into_iter()
        .find(|b| !b.is_available())
    {
        let output = ripples(&["bench", "--backend", missing.name()]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("not available"), "{stderr}");
    }
}

#[test]
fn help_describes_the_hash() {
    let output = ripples(&["bench", "--help"]);
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    for needle in [
        "--size",
        "--frames",
        "--reps",
        "--threads",
        "--solver",
        "--render",
        "--backend",
        "--sim-scale",
        "FNV-1a",
    ] {
        assert!(help.contains(needle), "'{needle}' in {help}");
    }
}
