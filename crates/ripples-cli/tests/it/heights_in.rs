//! `ripples render --heights-in FILE.npy`: the water starts from a given height field. The
//! field written by `--heights-out` reads back and moves on as the library says it should, a
//! bump makes rings, and every file that does not fit (shape, dtype, byte order, order, length,
//! values) is one clear error with exit 1 and nothing written.

use std::path::Path;
use std::process::Output;

use ripples::{Heights, Pool, SolverKind};
use ripples_cli::input::heights_in::{GridShape, LoadedHeights, read_heights};

use crate::common;
use common::ripples;

fn ok(args: &[&str], dir: &Path) -> Output {
    let output = ripples(args, dir);
    assert!(
        output.status.success(),
        "ripples {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs, expects failure with `code` and one error line holding every needle, and no file
/// added to `dir`. Returns the message.
fn fails(args: &[&str], dir: &Path, code: i32, needles: &[&str]) -> String {
    let before = listing(dir);
    let output = ripples(args, dir);
    let message = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(
        output.status.code(),
        Some(code),
        "ripples {args:?}: {message}"
    );
    for needle in needles {
        assert!(
            message.contains(needle),
            "expected '{needle}' in: {message}"
        );
    }
    assert!(
        !message.contains("panicked") && !message.contains("backtrace"),
        "{message}"
    );
    assert_eq!(message.trim_end().lines().count(), 1, "one line: {message}");
    assert_eq!(listing(dir), before, "ripples {args:?} left files behind");
    message
}

/// A .npy file written by hand (independently of the command's writer): `header` is the
/// dictionary, `data` the bytes after it.
fn npy(version: u8, header: &str, data: &[u8]) -> Vec<u8> {
    let fixed = if version == 1 { 10 } else { 12 };
    let mut dict = header.to_string();
    while !(fixed + dict.len() + 1).is_multiple_of(64) {
        dict.push(' ');
    }
    dict.push('\n');
    let mut bytes = b"\x93NUMPY".to_vec();
    bytes.extend_from_slice(&[version, 0]);
    if version == 1 {
        bytes.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    } else {
        bytes.extend_from_slice(&(dict.len() as u32).to_le_bytes());
    }
    bytes.extend_from_slice(dict.as_bytes());
    bytes.extend_from_slice(data);
    bytes
}

fn dict(descr: &str, fortran: bool, shape: &str) -> String {
    let order = if fortran { "True" } else { "False" };
    format!("{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {shape}, }}")
}

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A smooth bump of `amplitude` centred on `(cx, cy)` in a `width x height` grid.
fn bump(width: usize, height: usize, (cx, cy): (f32, f32), amplitude: f32) -> Vec<f32> {
    (0..width * height)
        .map(|i| {
            let (dx, dy) = ((i % width) as f32 - cx, (i / width) as f32 - cy);
            amplitude * (-(dx * dx + dy * dy) / 6.0).exp()
        })
        .collect()
}

fn grid(width: u32, height: u32, solver: SolverKind) -> GridShape {
    GridShape {
        width,
        height,
        pool: (width, height),
        sim_scale: 1,
        solver,
    }
}

/// `--heights-out` of one render is a `--heights-in` of the next: the file reads back as the
/// field written, and one frame from it is the library's one step from that field at rest.
#[test]
fn heights_out_round_trips_through_heights_in() {
    let dir = tempfile::tempdir().unwrap();
    for (solver, sim_scale, grid_size) in [
        ("classic", "1", (40, 30)),
        ("wave", "1", (40, 30)),
        ("spring", "2", (20, 15)),
    ] {
        let kind: SolverKind = solver.parse().unwrap();
        let common = [
            "render",
            "--size",
            "40x30",
            "--solver",
            solver,
            "--sim-scale",
            sim_scale,
        ];
        let first = [
            &common[..],
            &["--frames", "6", "--drop", "20,14,5,300", "-o"],
        ]
        .concat();
        ok(
            &[&first[..], &["a.gif", "--heights-out", "a.npy"]].concat(),
            dir.path(),
        );
        let second = [
            &common[..],
            &["--frames", "1", "--heights-in", "a.npy", "-o"],
        ]
        .concat();
        ok(
            &[&second[..], &["b.gif", "--heights-out", "b.npy"]].concat(),
            dir.path(),
        );

        let (width, height) = grid_size;
        let mut shape = grid(width, height, kind);
        shape.pool = (40, 30);
        shape.sim_scale = sim_scale.parse().unwrap();
        let a = read_heights(&dir.path().join("a.npy"), &shape).unwrap();
        let b = read_heights(&dir.path().join("b.npy"), &shape).unwrap();
        assert!(
            match &a {
                LoadedHeights::I16(h) => h.iter().any(|&v| v != 0),
                LoadedHeights::F32(h) => h.iter().any(|&v| v != 0.0),
            },
            "{solver}: the first render left calm water"
        );
        // The written bytes are the values read: compare with the file's tail.
        let bytes = std::fs::read(dir.path().join("a.npy")).unwrap();
        let tail: Vec<u8> = match &a {
            LoadedHeights::I16(h) => h.iter().flat_map(|v| v.to_le_bytes()).collect(),
            LoadedHeights::F32(h) => f32_bytes(h),
        };
        assert!(bytes.ends_with(&tail), "{solver}");

        let mut pool = Pool::with_sim_scale(40, 30, shape.sim_scale).unwrap();
        pool.set_solver(kind).unwrap();
        pool.set_heights(a.heights()).unwrap();
        pool.step();
        let expected = match pool.solver().heights() {
            Heights::I16(h) => LoadedHeights::I16(h.to_vec()),
            Heights::F32(h) => LoadedHeights::F32(h.to_vec()),
        };
        assert_eq!(b, expected, "{solver}: one frame from the field");
        assert_ne!(a, b, "{solver}: the water moved");
    }
}

/// A render from a bump: frame 0 differs from calm water where the bump is and nowhere far from
/// it; later frames differ farther out, as the ring spreads.
#[test]
fn a_bump_spreads_into_rings() {
    let dir = tempfile::tempdir().unwrap();
    let (width, height) = (80usize, 60usize);
    let field = bump(width, height, (40.0, 30.0), 60.0);
    let header = dict("<f4", false, "(60, 80)");
    std::fs::write(
        dir.path().join("bump.npy"),
        npy(1, &header, &f32_bytes(&field)),
    )
    .unwrap();
    let common = [
        "render", "--size", "80x60", "--solver", "wave", "--frames", "16",
    ];
    ok(
        &[&common[..], &["--heights-in", "bump.npy", "-o", "bump/"]].concat(),
        dir.path(),
    );
    ok(
        &[&common[..], &["--calm", "-o", "calm/"]].concat(),
        dir.path(),
    );
    let frame = |name: &str, number: u32| {
        image::open(dir.path().join(format!("{name}/frame_{number:05}.png")))
            .unwrap()
            .to_rgba8()
    };
    // The farthest pixel from the centre that differs from calm water, or None.
    let reach = |number: u32| {
        let (water, calm) = (frame("bump", number), frame("calm", number));
        water
            .enumerate_pixels()
            .filter(|(x, y, pixel)| *pixel != calm.get_pixel(*x, *y))
            .map(|(x, y, _)| (x as f32 - 40.0).hypot(y as f32 - 30.0))
            .fold(None, |far: Option<f32>, d| {
                Some(far.map_or(d, |f| f.max(d)))
            })
    };
    let start = reach(0).expect("frame 0 shows the bump");
    // The bump's tail, the natural look's 5x5 smoothing and one step's spread: a few pixels
    // past its visible width, nowhere near the edges.
    assert!(start < 16.0, "frame 0 differs far from the bump: {start}");
    let later = reach(15).expect("frame 15 shows the ring");
    assert!(
        later > start + 4.0,
        "the ring did not spread: {start} then {later}"
    );
    let centre = |name: &str| *frame(name, 0).get_pixel(40, 30);
    let near = |name: &str| *frame(name, 0).get_pixel(43, 30);
    assert!(
        centre("bump") != centre("calm") || near("bump") != near("calm"),
        "frame 0 equals calm water at the bump"
    );
}

#[test]
fn a_scene_names_its_heights_beside_itself_and_the_option_wins() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let header = dict("<f4", false, "(30, 40)");
    let field = bump(40, 30, (20.0, 15.0), 50.0);
    std::fs::write(sub.join("bump.npy"), npy(1, &header, &f32_bytes(&field))).unwrap();
    std::fs::write(
        sub.join("flat.npy"),
        npy(1, &header, &f32_bytes(&[0.0; 1200])),
    )
    .unwrap();
    let scene = "frames = 2\nwidth = 40\nheight = 30\nsolver = \"wave\"\nheights = \"bump.npy\"\n";
    std::fs::write(sub.join("pond.toml"), scene).unwrap();
    std::fs::write(
        sub.join("lost.toml"),
        scene.replace("bump.npy", "missing.npy"),
    )
    .unwrap();
    let run = |extra: &[&str], out: &str| -> Vec<u8> {
        let args = [&["render", "-o", "w.y4m", "--heights-out", out][..], extra].concat();
        ok(&args, dir.path());
        std::fs::read(dir.path().join(out)).unwrap()
    };
    // The scene's key, found beside the scene, gives what --heights-in gives.
    let from_scene = run(&["--scene", "sub/pond.toml"], "scene.npy");
    let from_option = run(
        &[
            "--size",
            "40x30",
            "--solver",
            "wave",
            "--frames",
            "2",
            "--heights-in",
            "sub/bump.npy",
        ],
        "option.npy",
    );
    assert_eq!(from_scene, from_option);
    // The option wins over the key: flat water stays flat.
    let flat = run(
        &["--scene", "sub/pond.toml", "--heights-in", "sub/flat.npy"],
        "flat.npy",
    );
    assert_ne!(flat, from_scene);
    assert!(
        flat[128..].iter().all(|&byte| byte == 0),
        "flat water moved"
    );
    // A missing file is named as the scene puts it, beside the scene.
    fails(
        &["render", "--scene", "sub/lost.toml", "-o", "x.y4m"],
        dir.path(),
        1,
        &[
            "scene 'sub/lost.toml' line ",
            ": heights 'missing.npy'",
            "cannot open",
        ],
    );
    // And the scene's heights are an input no output may overwrite.
    fails(
        &[
            "render",
            "--scene",
            "sub/pond.toml",
            "-o",
            "x.y4m",
            "--heights-out",
            "sub/bump.npy",
        ],
        dir.path(),
        2,
        &["sub/bump.npy", "the scene's heights input"],
    );
}

#[test]
fn every_npy_version_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let field: Vec<i16> = (0..12 * 10).map(|i| (i % 7) as i16 * 20 - 60).collect();
    let data: Vec<u8> = field.iter().flat_map(|v| v.to_le_bytes()).collect();
    for version in [1u8, 2, 3] {
        let path = dir.path().join(format!("v{version}.npy"));
        std::fs::write(&path, npy(version, &dict("<i2", false, "(10, 12)"), &data)).unwrap();
        let read = read_heights(&path, &grid(12, 10, SolverKind::Classic)).unwrap();
        assert_eq!(read, LoadedHeights::I16(field.clone()), "version {version}");
    }
    ok(
        &[
            "render",
            "--size",
            "12x10",
            "--frames",
            "1",
            "--heights-in",
            "v3.npy",
            "--solver",
            "classic",
            "-o",
            "x.gif",
        ],
        dir.path(),
    );
}

#[test]
fn a_field_that_does_not_fit_is_refused_naming_found_and_expected() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: Vec<u8>| std::fs::write(dir.path().join(name), bytes).unwrap();
    let ints = |cells: usize| vec![0u8; cells * 2];
    let floats = |cells: usize| vec![0u8; cells * 4];
    write(
        "ok_i2.npy",
        npy(1, &dict("<i2", false, "(30, 40)"), &ints(1200)),
    );
    write(
        "ok_f4.npy",
        npy(1, &dict("<f4", false, "(30, 40)"), &floats(1200)),
    );
    write(
        "small.npy",
        npy(1, &dict("<i2", false, "(24, 40)"), &ints(960)),
    );
    write(
        "f8.npy",
        npy(1, &dict("<f8", false, "(30, 40)"), &vec![0u8; 9600]),
    );
    write(
        "big.npy",
        npy(1, &dict(">i2", false, "(30, 40)"), &ints(1200)),
    );
    write(
        "bigf.npy",
        npy(1, &dict(">f4", false, "(30, 40)"), &floats(1200)),
    );
    write(
        "noorder.npy",
        npy(1, &dict("|i2", false, "(30, 40)"), &ints(1200)),
    );
    write(
        "fortran.npy",
        npy(1, &dict("<i2", true, "(30, 40)"), &ints(1200)),
    );
    write(
        "short.npy",
        npy(1, &dict("<i2", false, "(30, 40)"), &ints(1199)),
    );
    write(
        "long.npy",
        npy(1, &dict("<i2", false, "(30, 40)"), &ints(1201)),
    );
    write(
        "flat.npy",
        npy(1, &dict("<i2", false, "(1200,)"), &ints(1200)),
    );
    write(
        "huge.npy",
        npy(1, &dict("<i2", false, "(100000, 100000)"), &ints(4)),
    );
    write(
        "cut.npy",
        npy(1, &dict("<i2", false, "(30, 40)"), &[])[..20].to_vec(),
    );
    write("photo.npy", b"\x89PNG\r\n\x1a\n not heights".to_vec());
    let mut nan = vec![0.0f32; 1200];
    nan[5 * 40 + 7] = f32::NAN;
    write(
        "nan.npy",
        npy(1, &dict("<f4", false, "(30, 40)"), &f32_bytes(&nan)),
    );

    let render = |file: &str, extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = [
            "render", "--size", "40x30", "--frames", "2", "-o", "out.gif",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(["--heights-in".to_string(), file.to_string()]);
        // Integer fields are the classic solver's; the checks name another one when they need it.
        if !extra.contains(&"--solver") {
            args.extend(["--solver".to_string(), "classic".to_string()]);
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let check = |file: &str, extra: &[&str], needles: &[&str]| {
        let args = render(file, extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(
            &args,
            dir.path(),
            1,
            &[&[format!("--heights-in '{file}'").as_str()][..], needles].concat(),
        );
    };
    // Shape: the grid of the pool, with --sim-scale rounded up.
    check(
        "small.npy",
        &[],
        &["shape (24, 40)", "expected (30, 40)", "40x30 pool"],
    );
    check(
        "ok_i2.npy",
        &["--sim-scale", "3"],
        &["shape (30, 40)", "expected (10, 14)", "sim scale 3"],
    );
    check(
        "flat.npy",
        &[],
        &["shape (1200,)", "expected 2", "(30, 40)"],
    );
    check("huge.npy", &[], &["shape (100000, 100000)", "too large"]);
    // Dtype: the solver's, little-endian.
    check(
        "ok_f4.npy",
        &[],
        &["dtype '<f4'", "expected '<i2'", "classic solver"],
    );
    check(
        "ok_i2.npy",
        &["--solver", "wave"],
        &["dtype '<i2'", "expected '<f4'", "wave solver"],
    );
    check(
        "ok_i2.npy",
        &["--solver", "spring"],
        &["expected '<f4'", "spring solver"],
    );
    check(
        "f8.npy",
        &["--solver", "wave"],
        &["dtype '<f8'", "expected '<f4'"],
    );
    check(
        "big.npy",
        &[],
        &["dtype '>i2'", "expected '<i2'", "big-endian"],
    );
    check(
        "bigf.npy",
        &["--solver", "wave"],
        &["dtype '>f4'", "big-endian"],
    );
    check("noorder.npy", &[], &["dtype '|i2'", "no byte order"]);
    check("fortran.npy", &[], &["Fortran order", "C order"]);
    // Length and contents.
    check(
        "short.npy",
        &[],
        &["truncated", "2398 bytes", "expected 2400"],
    );
    check(
        "long.npy",
        &[],
        &["too long", "2402 bytes", "expected 2400"],
    );
    check("cut.npy", &[], &["ends inside its header"]);
    check("photo.npy", &[], &["not a NumPy .npy file"]);
    check(
        "nan.npy",
        &["--solver", "wave"],
        &["cell (7, 5)", "got NaN"],
    );
    check("missing.npy", &[], &["cannot open"]);
}

/// `--heights-in` is an input: an output over it is refused before anything is read or written.
#[test]
fn an_output_over_the_heights_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = npy(1, &dict("<i2", false, "(30, 40)"), &[0u8; 2400]);
    std::fs::write(dir.path().join("in.npy"), &input).unwrap();
    let base = [
        "render",
        "--size",
        "40x30",
        "--frames",
        "1",
        "--heights-in",
        "in.npy",
    ];
    let message = fails(
        &[&base[..], &["-o", "x.gif", "--heights-out", "./in.npy"]].concat(),
        dir.path(),
        2,
        &["heights output './in.npy' is the heights input 'in.npy'"],
    );
    assert!(message.contains("the same file"), "{message}");
    fails(
        &[&base[..], &["-o", "in.npy", "--format", "gif"]].concat(),
        dir.path(),
        2,
        &["output 'in.npy' is the heights input 'in.npy'"],
    );
    assert_eq!(std::fs::read(dir.path().join("in.npy")).unwrap(), input);
}

/// A given field moves the water by itself: no stones or rain are added to it, and heights on
/// the pool's edge, which the water cannot hold, are said to be set to rest.
#[test]
fn a_given_field_gets_no_added_stones_and_edge_heights_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let flat = vec![0u8; 1200 * 4];
    std::fs::write(
        dir.path().join("flat.npy"),
        npy(1, &dict("<f4", false, "(30, 40)"), &flat),
    )
    .unwrap();
    let output = ok(
        &[
            "render",
            "--size",
            "40x30",
            "--solver",
            "wave",
            "--frames",
            "3",
            "--heights-in",
            "flat.npy",
            "-o",
            "flat.gif",
            "--heights-out",
            "after.npy",
        ],
        dir.path(),
    );
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(!message.contains("stone"), "{message}");
    let after = read_heights(
        &dir.path().join("after.npy"),
        &grid(40, 30, SolverKind::Wave),
    )
    .unwrap();
    assert_eq!(
        after,
        LoadedHeights::F32(vec![0.0; 1200]),
        "flat water stays flat"
    );

    let raised = f32_bytes(&vec![5.0f32; 1200]);
    std::fs::write(
        dir.path().join("raised.npy"),
        npy(1, &dict("<f4", false, "(30, 40)"), &raised),
    )
    .unwrap();
    let output = ok(
        &[
            "render",
            "--size",
            "40x30",
            "--solver",
            "wave",
            "--frames",
            "1",
            "--heights-in",
            "raised.npy",
            "-o",
            "raised.gif",
        ],
        dir.path(),
    );
    let message = String::from_utf8_lossy(&output.stderr);
    // 40 * 30 - 38 * 28 = 136 cells on the edge.
    let note = "--heights-in 'raised.npy': 136 cells on the pool's edge or under walls were set to \
                rest (the edge and walls hold no waves)";
    assert!(message.lines().any(|line| line == note), "{message}");
}
