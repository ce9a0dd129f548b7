//! End-to-end test of `ripples play`: the real program in a virtual X server of its own
//! (Xvfb), driven with xdotool, its window's pixels grabbed with ImageMagick's `import`.
//!
//! It checks what a user sees: a click changes the picture around the pointer and nowhere far
//! from it; `C` calms the water back to the picture; `R` makes rain fall everywhere and says
//! so in the title; `S` saves exactly what is on screen; a resize letterboxes the picture and a
//! click still lands under the pointer; `Esc` ends the program with exit code 0; closing the
//! window and `--exit-after` do too; losing the display ends it with exit code 1.
//!
//! Without Xvfb, xdotool or import the test prints a notice and passes, unless `RIPPLES_E2E=1`
//! (set by `.ci/run`), where a missing tool is a failure. Every process it starts is killed
//! when the test ends, however it ends (the guards' `Drop`).

#![cfg(feature = "play")]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread::sleep;
use std::time::{Duration, Instant};

use image::RgbImage;

/// Pool size: small, so the test binary (a debug build) keeps up.
const WIDTH: u32 = 320;
const HEIGHT: u32 = 240;

/// A child process killed when dropped.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Whether `name` is an executable on the PATH.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir: PathBuf| dir.join(name).is_file())
    })
}

/// The tools, or `None` (after a notice) when the test should be skipped.
fn tools_or_skip() -> Option<()> {
    let missing: Vec<&str> = ["Xvfb", "xdotool", "import"]
        .into_iter()
        .filter(|tool| !on_path(tool))
        .collect();
    if missing.is_empty() {
        return Some(());
    }
    if std::env::var("RIPPLES_E2E").as_deref() == Ok("1") {
        panic!(
            "RIPPLES_E2E=1 but {} not installed (apt-get install xvfb xdotool imagemagick)",
            missing.join(", ")
        );
    }
    eprintln!(
        "skipping the window test: {} not installed (set RIPPLES_E2E=1 to make this a failure)",
        missing.join(", ")
    );
    None
}

/// Starts Xvfb on a display number it picks itself (`-displayfd`), once it accepts clients.
/// `-noreset`: by default an X server resets when its last client leaves, and refuses
/// connections while it does, so the next `ripples play` on it failed now and then.
fn start_xvfb() -> (Guard, String) {
    let mut child = Command::new("Xvfb")
        .args([
            "-noreset",
            "-displayfd",
            "1",
            "-screen",
            "0",
            "800x600x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb starts");
    let stdout = child.stdout.take().expect("Xvfb's stdout");
    let guard = Guard(child);
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = send.send(line);
    });
    let line = receive
        .recv_timeout(Duration::from_secs(15))
        .expect("Xvfb says which display it opened within 15 s");
    let number: u32 = line
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("Xvfb wrote '{line}', not a display number"));
    (guard, format!(":{number}"))
}

/// Longest a single xdotool or import call may take.
const TOOL_TIMEOUT: Duration = Duration::from_secs(20);

/// Runs a tool on `display` and returns its stdout, or why it failed: its stderr, or that it
/// did not finish within [`TOOL_TIMEOUT`] (an X server that stopped answering must not hang the
/// test).
fn run_tool(display: &str, program: &str, args: &[&str]) -> Result<Vec<u8>, String> {
    let mut child = Command::new(program)
        .args(args)
        .env("DISPLAY", display)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("{program} does not start: {error}"))?;
    // Read while it runs: a PNG is larger than a pipe holds.
    let read_all = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = read_all(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = read_all(Box::new(child.stderr.take().expect("piped stderr")));
    let mut guard = Guard(child);
    let status = wait_exit(&mut guard.0, TOOL_TIMEOUT);
    drop(guard);
    let (stdout, stderr) = (
        stdout.join().unwrap_or_default(),
        stderr.join().unwrap_or_default(),
    );
    match status {
        Some(status) if status.success() => Ok(stdout),
        Some(status) => Err(format!(
            "{program} {args:?} failed ({status}): {}",
            String::from_utf8_lossy(&stderr)
        )),
        None => Err(format!(
            "{program} {args:?} did not finish within {TOOL_TIMEOUT:?}"
        )),
    }
}

/// [`run_tool`], panicking on a failure.
fn tool(display: &str, program: &str, args: &[&str]) -> Vec<u8> {
    run_tool(display, program, args).unwrap_or_else(|error| panic!("{error}"))
}

fn xdotool(display: &str, args: &[&str]) -> String {
    String::from_utf8_lossy(&tool(display, "xdotool", args)).into_owned()
}

/// The window's pixels.
fn grab(display: &str, window: &str) -> RgbImage {
    let png = tool(display, "import", &["-window", window, "png:-"]);
    image::load_from_memory(&png)
        .expect("import writes a PNG")
        .to_rgb8()
}

/// Waits for `condition` up to `timeout`, polling.
fn wait_for<T>(timeout: Duration, mut condition: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = condition() {
            return Some(value);
        }
        if Instant::now() > deadline {
            return None;
        }
        sleep(Duration::from_millis(100));
    }
}

/// Waits for the program to end.
fn wait_exit(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    wait_for(timeout, || child.try_wait().ok().flatten())
}

/// Pixels that differ between two grabs, as (x, y).
fn changed(a: &RgbImage, b: &RgbImage) -> Vec<(u32, u32)> {
    changed_by_more_than(a, b, 0)
}

/// The pixels where a channel of `a` and `b` differs by more than `tolerance`.
fn changed_by_more_than(a: &RgbImage, b: &RgbImage, tolerance: u8) -> Vec<(u32, u32)> {
    assert_eq!(a.dimensions(), b.dimensions());
    a.enumerate_pixels()
        .filter(|(x, y, pixel)| {
            let other = b.get_pixel(*x, *y);
            pixel
                .0
                .iter()
                .zip(other.0)
                .any(|(a, b)| a.abs_diff(b) > tolerance)
        })
        .map(|(x, y, _)| (x, y))
        .collect()
}

fn distance((x, y): (u32, u32), (cx, cy): (u32, u32)) -> f64 {
    (f64::from(x) - f64::from(cx)).hypot(f64::from(y) - f64::from(cy))
}

/// `ripples play` on `display` in `dir`, and its window id once it shows a frame. Its output
/// goes to `dir/stdout.txt` and `dir/stderr.txt`.
fn start_ripples(display: &str, dir: &Path, args: &[&str]) -> (Guard, String) {
    let stdout = std::fs::File::create(dir.join("stdout.txt")).expect("a stdout file");
    let stderr = std::fs::File::create(dir.join("stderr.txt")).expect("a stderr file");
    let child = Command::new(env!("CARGO_BIN_EXE_ripples"))
        .arg("play")
        .args(args)
        .env("DISPLAY", display)
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .env_remove("RUST_BACKTRACE")
        .current_dir(dir)
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .expect("the ripples binary starts");
    let pid = child.id().to_string();
    let mut guard = Guard(child);
    let window = wait_for(Duration::from_secs(20), || {
        if let Ok(Some(status)) = guard.0.try_wait() {
            let log = std::fs::read_to_string(dir.join("stderr.txt")).unwrap_or_default();
            panic!("ripples play ended early with {status}: {log}");
        }
        // Fails (exit code 1) until the window exists.
        let found = run_tool(display, "xdotool", &["search", "--pid", &pid]).ok()?;
        let found = String::from_utf8_lossy(&found);
        found.lines().next().map(|line| line.trim().to_string())
    })
    .expect("the window appears within 20 s");
    // No window manager: give the window the keyboard ourselves.
    xdotool(display, &["windowfocus", "--sync", &window]);
    // The first frame is on screen once the grab is no longer black.
    wait_for(Duration::from_secs(10), || {
        let frame = grab(display, &window);
        frame.pixels().any(|p| p.0 != [0, 0, 0]).then_some(())
    })
    .expect("the window shows the water within 10 s");
    (guard, window)
}

#[test]
fn clicks_rain_resizes_and_esc_in_a_real_window() {
    if tools_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_xvfb, display) = start_xvfb();
    let size = format!("{WIDTH}x{HEIGHT}");
    let (mut ripples, window) = start_ripples(&display, dir.path(), &["--size", &size]);
    let geometry = xdotool(&display, &["getwindowgeometry", &window]);
    assert!(geometry.contains(&size), "{geometry}");
    let title = xdotool(&display, &["getwindowname", &window]);
    assert!(title.contains("rain off"), "{title}");

    // Still water shows the picture: two grabs a moment apart are the same.
    let calm = grab(&display, &window);
    sleep(Duration::from_millis(300));
    assert!(changed(&calm, &grab(&display, &window)).is_empty());

    // S saves the water as a PNG in the current directory and says where, on stdout and
    // briefly on the water.
    xdotool(&display, &["key", "s"]);
    let saved = wait_for(Duration::from_secs(5), || {
        std::fs::read_dir(dir.path())
            .ok()?
            .flatten()
            .map(|entry| entry.path())
            .find(|path| {
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                name.starts_with("ripples-") && name.ends_with(".png")
            })
    })
    .expect("S writes ripples-*.png");
    let screenshot = image::open(&saved).expect("a PNG").to_rgb8();
    assert!(
        screenshot == calm,
        "the screenshot is not the water on screen"
    );
    let stdout = wait_for(Duration::from_secs(5), || {
        let text = std::fs::read_to_string(dir.path().join("stdout.txt")).ok()?;
        text.contains("saved").then_some(text)
    })
    .expect("the path on stdout");
    let name = saved.file_name().unwrap().to_string_lossy().into_owned();
    assert!(stdout.contains(&name), "{stdout}");
    assert!(
        !changed(&calm, &grab(&display, &window)).is_empty(),
        "no message shown"
    );
    wait_for(Duration::from_secs(6), || {
        changed(&calm, &grab(&display, &window))
            .is_empty()
            .then_some(())
    })
    .expect("the message goes away");

    // A click: the picture changes around it, and not far from it.
    let click = (70, 60);
    let (x, y) = (click.0.to_string(), click.1.to_string());
    xdotool(
        &display,
        &["mousemove", "--window", &window, &x, &y, "click", "1"],
    );
    sleep(Duration::from_millis(400));
    let clicked = grab(&display, &window);
    let moved = changed(&calm, &clicked);
    let near = moved.iter().filter(|&&p| distance(p, click) < 40.0).count();
    assert!(near > 50, "only {near} pixels changed near the click");
    // Deep water (the dispersive solver, the default) carries long waves fast: far away the
    // picture moves by a level or two at once; what a person sees change stays near the click.
    let far: Vec<_> = changed_by_more_than(&calm, &clicked, 4)
        .into_iter()
        .filter(|&p| distance(p, click) > 150.0)
        .collect();
    assert!(
        far.is_empty(),
        "pixels far from the click changed visibly: {far:?}"
    );

    // C calms the water: the picture again, exactly.
    xdotool(&display, &["key", "c"]);
    let calmed = wait_for(Duration::from_secs(5), || {
        let frame = grab(&display, &window);
        changed(&calm, &frame).is_empty().then_some(frame)
    });
    assert!(calmed.is_some(), "C did not calm the water");

    // R: rain, in the title, and drops all over the pool, far from the click too.
    xdotool(&display, &["key", "r"]);
    let title = xdotool(&display, &["getwindowname", &window]);
    assert!(title.contains("rain on"), "{title}");
    let rained = wait_for(Duration::from_secs(8), || {
        let moved = changed(&calm, &grab(&display, &window));
        let quarters: Vec<bool> = [(0, 0), (1, 0), (0, 1), (1, 1)]
            .iter()
            .map(|&(qx, qy)| {
                moved
                    .iter()
                    .any(|&(x, y)| x * 2 / WIDTH == qx && y * 2 / HEIGHT == qy)
            })
            .collect();
        quarters.iter().all(|&q| q).then_some(())
    });
    assert!(
        rained.is_some(),
        "no rain in every quarter of the pool after R"
    );
    xdotool(&display, &["key", "r", "key", "c"]);

    // A wider window: black bars left and right, and a click at the window's centre lands at
    // the pool's centre.
    xdotool(&display, &["windowsize", "--sync", &window, "640", "240"]);
    let wide = wait_for(Duration::from_secs(5), || {
        let frame = grab(&display, &window);
        (frame.dimensions() == (640, 240) && frame.get_pixel(5, 120).0 == [0, 0, 0])
            .then_some(frame)
    })
    .expect("the window is 640x240 with bars");
    assert_eq!(wide.get_pixel(634, 10).0, [0, 0, 0]);
    assert_ne!(wide.get_pixel(320, 120).0, [0, 0, 0]);
    sleep(Duration::from_millis(300));
    let before = grab(&display, &window);
    xdotool(
        &display,
        &["mousemove", "--window", &window, "320", "120", "click", "1"],
    );
    sleep(Duration::from_millis(400));
    let moved = changed(&before, &grab(&display, &window));
    assert!(
        moved
            .iter()
            .filter(|&&p| distance(p, (320, 120)) < 40.0)
            .count()
            > 50,
        "the click at the centre of a letterboxed window did not land there"
    );
    assert!(
        moved.iter().all(|&(x, _)| (160..480).contains(&x)),
        "bars changed"
    );

    // Esc quits with exit code 0.
    xdotool(&display, &["key", "Escape"]);
    let status = wait_exit(&mut ripples.0, Duration::from_secs(10)).expect("Esc quits within 10 s");
    let log = std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap_or_default();
    assert!(status.success(), "exit status {status}: {log}");
    assert!(!log.contains("panicked") && !log.contains("error"), "{log}");
}

#[test]
fn closing_the_window_or_losing_the_display_ends_cleanly() {
    if tools_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (xvfb, display) = start_xvfb();
    let (mut ripples, window) = start_ripples(&display, dir.path(), &["--size", "160x120"]);
    xdotool(&display, &["windowclose", &window]);
    let status = wait_exit(&mut ripples.0, Duration::from_secs(10)).expect("it quits");
    assert!(status.success(), "closing the window: {status}");

    // --exit-after ends the run by itself, and --stats reports it.
    let args = ["--size", "160x120", "--stats", "--exit-after", "3"];
    let (mut ripples, _) = start_ripples(&display, dir.path(), &args);
    let status = wait_exit(&mut ripples.0, Duration::from_secs(10)).expect("it quits");
    assert!(status.success(), "--exit-after: {status}");
    let stdout = std::fs::read_to_string(dir.path().join("stdout.txt")).unwrap();
    assert!(
        stdout.starts_with("played ") && stdout.contains("fps") && stdout.contains("present"),
        "{stdout}"
    );

    // The display going away mid-run: exit code 1 and a message, no panic.
    let (mut ripples, _) = start_ripples(&display, dir.path(), &["--size", "160x120"]);
    drop(xvfb);
    let status = wait_exit(&mut ripples.0, Duration::from_secs(10)).expect("it quits");
    let log = std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap_or_default();
    assert_eq!(status.code(), Some(1), "{log}");
    assert!(!log.contains("panicked"), "{log}");
    assert!(
        [
            "X connection to",
            "XIO:",
            "lost the connection to the display"
        ]
        .iter()
        .any(|message| log.contains(message)),
        "{log}"
    );
}

#[test]
fn a_clip_plays_under_the_water_and_space_pauses_both() {
    if tools_or_skip().is_none() {
        return;
    }
    if !on_path("ffmpeg") || !on_path("ffprobe") {
        assert!(
            std::env::var("RIPPLES_E2E").as_deref() != Ok("1"),
            "RIPPLES_E2E=1 but ffmpeg is not installed"
        );
        eprintln!("skipping: ffmpeg not found on PATH (set RIPPLES_E2E=1 to make this a failure)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Two seconds at 10 frames per second, each frame one grey, lighter every frame.
    let made = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i"])
        .arg("color=size=96x64:rate=10:duration=2,format=gray,geq=lum='40+10*N'")
        .args(["-pix_fmt", "yuv420p", "greys.y4m"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(made.success());
    let (_xvfb, display) = start_xvfb();
    // Calm water in the classic look shows the clip's frames as they are.
    let args = ["greys.y4m", "--render", "classic"];
    let (mut ripples, window) = start_ripples(&display, dir.path(), &args);
    let centre = |display: &str| grab(display, &window).get_pixel(48, 32).0[0];
    let first = centre(&display);
    sleep(Duration::from_millis(500));
    let later = centre(&display);
    println!("grey at the centre: {first}, then {later} half a second later");
    assert_ne!(first, later, "the clip does not play");
    // Space pauses the water and the clip together.
    xdotool(&display, &["key", "space"]);
    sleep(Duration::from_millis(300));
    let paused = grab(&display, &window);
    sleep(Duration::from_millis(600));
    let still_paused = grab(&display, &window);
    assert!(
        changed(&paused, &still_paused).is_empty(),
        "the picture moved while paused"
    );
    xdotool(&display, &["key", "space"]);
    sleep(Duration::from_millis(600));
    assert_ne!(
        grab(&display, &window).get_pixel(48, 32),
        paused.get_pixel(48, 32),
        "the clip did not go on after a second Space"
    );
    xdotool(&display, &["key", "Escape"]);
    let status = wait_exit(&mut ripples.0, Duration::from_secs(10)).expect("it quits");
    assert!(status.success(), "{status}");
}

/// CPU seconds (user + system) process `pid` has used, from /proc.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc/<pid>/stat");
    let fields: Vec<&str> = stat[stat.rfind(')').expect("a command in brackets") + 2..]
        .split(' ')
        .collect();
    // utime and stime, fields 14 and 15 of stat, in clock ticks of 1/100 s.
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

/// A click on a calm window makes a ripple at once. The share of a core the window uses,
/// asleep and after the click, is printed, not checked: on a busy machine a window can still
/// be settling after the wait, and a bound would fail for no fault of the code. Read the
/// figures (`--nocapture`) to see that it sleeps; docs/window.md gives measured ones.
#[test]
fn a_click_wakes_a_calm_window() {
    if tools_or_skip().is_none() || !Path::new("/proc/self/stat").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_xvfb, display) = start_xvfb();
    let size = format!("{WIDTH}x{HEIGHT}");
    let (ripples, window) = start_ripples(&display, dir.path(), &["--size", &size]);
    let pid = ripples.0.id();
    // Calm water and nothing scheduled: after its first frames the window sleeps.
    sleep(Duration::from_millis(1500));
    let (from, at) = (cpu_seconds(pid), Instant::now());
    sleep(Duration::from_secs(2));
    let asleep = (cpu_seconds(pid) - from) / at.elapsed().as_secs_f64();
    println!("calm window: {:.1}% of a core", 100.0 * asleep);
    // A click wakes it at once: the picture changes around the pointer, and it runs.
    let calm = grab(&display, &window);
    xdotool(
        &display,
        &["mousemove", "--window", &window, "160", "120", "click", "1"],
    );
    let moved = wait_for(Duration::from_secs(3), || {
        let now = grab(&display, &window);
        (!changed_by_more_than(&calm, &now, 8).is_empty()).then_some(())
    });
    assert!(
        moved.is_some(),
        "a click on a sleeping window makes no ripple"
    );
    let (from, at) = (cpu_seconds(pid), Instant::now());
    sleep(Duration::from_millis(500));
    let awake = (cpu_seconds(pid) - from) / at.elapsed().as_secs_f64();
    println!(
        "after a click: {:.1}% of a core (asleep: {:.1}%)",
        100.0 * awake,
        100.0 * asleep
    );
}
