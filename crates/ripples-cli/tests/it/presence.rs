//! Presence: drops people notice on any picture, and the picture left alone when the water is
//! calm (issue 25). Every check renders; none is timed.
//!
//! - Three stones of the command's default drop at 1280x720, 60 steps per second, change more
//!   than 8 levels (in some channel) in a share of the pixels against the same render without
//!   stones: at least 2% after 0.3 s, 3% after 1 s and 1.5% after 3 s on an ordinary
//!   photograph (coffee, and grass at 1:1, a busy texture), at least 1% after 1 s on a dark
//!   one (the Hubble deep field, mean luminance under 30). The shares are printed.
//! - Calm water is the picture, byte for byte, with every look, solver, size and simulation
//!   scale, and with the sun anywhere from 1 to 90 degrees.
//! - An overhead sun glints on crests, not as a white sheet.
//! - A stone in the middle of a white picture leaves the 12-pixel band along every edge within
//!   2 levels of what open water shows there, until a wave gets there.
//! - `presence` scales how much the water shows.

use ripples::{
    Boundary, DropEvent, Look, LookSettings, NaturalSettings, Pool, RenderMode, SolverKind,
};
use ripples_cli::input::fit::{Fill, Fit, Placement, fit_picture};
use ripples_cli::input::source_image::SourceImage;
use std::path::Path;

const WIDTH: u32 = 1280;
const HEIGHT: u32 = 720;

/// A photograph from `tests/data`, covering a `WIDTH x HEIGHT` pool as the command fits it.
fn photograph(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let picture = SourceImage::load(&path).unwrap();
    let placement = Placement::new(Fit::Cover, (picture.width, picture.height), (WIDTH, HEIGHT));
    fit_picture(picture, &placement, Fill::Colour([0, 0, 0]))
        .unwrap()
        .pixels
}

/// A texture from `tests/data` repeated at 1:1 over the pool (a busy picture as a page shows
/// one).
fn tiled(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let texture = SourceImage::load(&path).unwrap();
    let (w, h) = (texture.width as usize, texture.height as usize);
    (0..(WIDTH * HEIGHT) as usize)
        .flat_map(|i| {
            let (x, y) = (i % WIDTH as usize % w, i / WIDTH as usize % h);
            let at = (y * w + x) * 4;
            [0, 1, 2, 3].map(|c| texture.pixels[at + c])
        })
        .collect()
}

fn mean_luminance(rgba: &[u8]) -> f64 {
    let sum: f64 = rgba
        .chunks_exact(4)
        .map(|p| 0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2]))
        .sum();
    sum / (rgba.len() / 4) as f64
}

/// The share of pixels (0..=1) whose colour differs by more than 8 levels in some channel.
fn changed_share(a: &[u8], b: &[u8]) -> f64 {
    let changed = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .filter(|(p, q)| (0..3).any(|c| p[c].abs_diff(q[c]) > 8))
        .count();
    changed as f64 / (a.len() / 4) as f64
}

/// The shares changed after 18, 60 and 180 steps (0.3, 1 and 3 s at 60 steps per second) by
/// three default stones where `scenes/default.toml` puts its three, with `look`.
fn shares(picture: &[u8], look: &Look) -> [f64; 3] {
    let mut pool = Pool::new(WIDTH, HEIGHT).unwrap();
    let mut calm = vec![0; picture.len()];
    pool.render(look, picture, &mut calm).unwrap();
    for (x, y) in [(130, 110), (290, 190), (200, 70)] {
        let (x, y) = (x * WIDTH as i32 / 400, y * HEIGHT as i32 / 300);
        pool.drop_stone(x, y, DropEvent::DEFAULT_RADIUS, DropEvent::DEFAULT_STRENGTH)
            .unwrap();
    }
    let mut frame = vec![0; picture.len()];
    let mut steps = 0;
    [18, 60, 180].map(|until| {
        while steps < until {
            pool.step();
            steps += 1;
        }
        pool.render(look, picture, &mut frame).unwrap();
        changed_share(&frame, &calm)
    })
}

fn percent(shares: [f64; 3]) -> String {
    shares.map(|s| format!("{:5.2}%", 100.0 * s)).join(" ")
}

#[test]
fn three_default_drops_change_enough_of_any_photograph() {
    let look = Look::default();
    println!("share changed by > 8 levels after 0.3 s, 1 s, 3 s (1280x720, 3 default stones)");
    for (name, picture) in [
        ("coffee.jpg", photograph("coffee.jpg")),
        ("grass.jpg at 1:1", tiled("grass.jpg")),
    ] {
        let measured = shares(&picture, &look);
        println!("{name:18} {}", percent(measured));
        let [early, second, late] = measured;
        assert!(early >= 0.02, "{name} after 0.3 s: {}", percent(measured));
        assert!(second >= 0.03, "{name} after 1 s: {}", percent(measured));
        assert!(late >= 0.015, "{name} after 3 s: {}", percent(measured));
    }
    let dark = photograph("hubble.jpg");
    let luminance = mean_luminance(&dark);
    assert!(luminance < 30.0, "a dark photograph: {luminance}");
    let measured = shares(&dark, &look);
    println!(
        "hubble.jpg         {} (mean luminance {luminance:.1})",
        percent(measured)
    );
    assert!(
        measured[1] >= 0.01,
        "dark photograph after 1 s: {}",
        percent(measured)
    );
}

#[test]
fn presence_scales_how_much_the_water_shows() {
    let picture = photograph("coffee.jpg");
    let mut last = -1.0;
    for presence in [0.0, 0.5, 1.0, 2.0] {
        let look = Look::default().with_presence(presence);
        let measured = shares(&picture, &look);
        println!("presence {presence}: {}", percent(measured));
        if presence == 0.0 {
            assert_eq!(measured, [0.0; 3], "presence 0 leaves the picture unmoved");
        }
        assert!(
            measured[1] > last,
            "presence {presence}: {}",
            percent(measured)
        );
        last = measured[1];
    }
    let error = Look::default().with_presence(9.0).validate().unwrap_err();
    assert_eq!(error.to_string(), "presence must be <= 8, got 9");
}

/// A picture of every byte value, so any change shows.
fn busy_picture(width: u32, height: u32) -> Vec<u8> {
    (0..width * height * 4)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect()
}

#[test]
fn calm_water_is_the_picture_with_every_look_solver_size_and_scale() {
    for (width, height) in [(97, 61), (320, 200)] {
        let picture = busy_picture(width, height);
        for scale in [1, 2, 3] {
            for solver in [
                SolverKind::Dispersive,
                SolverKind::Wave,
                SolverKind::Classic,
                SolverKind::Spring,
            ] {
                let mut pool = Pool::with_sim_scale(width, height, scale).unwrap();
                pool.set_solver(solver).unwrap();
                for _ in 0..3 {
                    pool.step();
                }
                for mode in RenderMode::ALL {
                    for sun_elevation in [1.0, 45.0, 90.0] {
                        let natural = NaturalSettings {
                            sun_elevation,
                            ..Default::default()
                        };
                        let look = LookSettings {
                            natural,
                            ..Default::default()
                        }
                        .look(mode);
                        let mut frame = vec![0; picture.len()];
                        pool.render(&look, &picture, &mut frame).unwrap();
                        let worst = frame
                            .iter()
                            .zip(&picture)
                            .map(|(a, b)| a.abs_diff(*b))
                            .max()
                            .unwrap();
                        assert_eq!(
                            worst, 0,
                            "{width}x{height}, scale {scale}, {solver:?}, {mode:?}, sun at \
                             {sun_elevation}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn an_overhead_sun_glints_on_crests_not_as_a_white_sheet() {
    let (width, height) = (320, 240);
    let grey = [128, 128, 128, 255].repeat((width * height) as usize);
    for sun_elevation in [60.0, 85.0, 90.0] {
        let look = Look::Natural(NaturalSettings {
            sun_elevation,
            ..Default::default()
        });
        let mut pool = Pool::new(width, height).unwrap();
        let mut frame = vec![0; grey.len()];
        pool.render(&look, &grey, &mut frame).unwrap();
        assert_eq!(frame, grey, "flat water under a sun at {sun_elevation}");
        pool.drop_stone(
            160,
            120,
            DropEvent::DEFAULT_RADIUS,
            DropEvent::DEFAULT_STRENGTH,
        )
        .unwrap();
        for _ in 0..40 {
            pool.step();
        }
        pool.render(&look, &grey, &mut frame).unwrap();
        let pixels = (width * height) as usize;
        let white = frame
            .chunks_exact(4)
            .filter(|p| p[..3].iter().all(|&c| c >= 250))
            .count();
        let mean = frame.chunks_exact(4).map(|p| f64::from(p[1])).sum::<f64>() / pixels as f64;
        println!(
            "sun at {sun_elevation}: {:.2}% of the pixels white, mean {mean:.1}",
            100.0 * white as f64 / pixels as f64
        );
        if sun_elevation == 90.0 {
            assert!(white > 0, "glints on the crests");
        }
        assert!(white * 20 < pixels, "no white sheet: {white} white pixels");
        assert!((mean - 128.0).abs() < 12.0, "mean {mean}");
    }
}

#[test]
fn a_stone_leaves_the_edges_as_open_water_shows_them_until_a_wave_gets_there() {
    let (width, height) = (400_u32, 300_u32);
    let band = 12;
    let render = |w: u32, h: u32, scale, solver, boundary, look: &Look, steps| {
        let mut pool = Pool::with_sim_scale(w, h, scale).unwrap();
        pool.set_solver(solver).unwrap();
        pool.set_boundary(boundary);
        pool.drop_stone(w as i32 / 2, h as i32 / 2, DropEvent::DEFAULT_RADIUS, 128)
            .unwrap();
        for _ in 0..steps {
            pool.step();
        }
        let white = vec![255; (w * h * 4) as usize];
        let mut frame = vec![0; white.len()];
        pool.render(look, &white, &mut frame).unwrap();
        frame
    };
    for solver in [
        SolverKind::Dispersive,
        SolverKind::Wave,
        SolverKind::Classic,
        SolverKind::Spring,
    ] {
        for boundary in [Boundary::Reflect, Boundary::Absorb] {
            for mode in RenderMode::ALL {
                for scale in [1, 2] {
                    let look = Look::of_kind(mode);
                    let mut worst = 0;
                    for steps in [5, 20, 40] {
                        let pool = render(width, height, scale, solver, boundary, &look, steps);
                        // The same stone in a pool three times as wide and high, whose middle
                        // third is this pool: open water where this pool has its edges.
                        let open =
                            render(3 * width, 3 * height, scale, solver, boundary, &look, steps);
                        for y in 0..height {
                            for x in 0..width {
                                let inside = (band..width - band).contains(&x)
                                    && (band..height - band).contains(&y);
                                if inside {
                                    continue;
                                }
                                let here = ((y * width + x) * 4) as usize;
                                let there = (((y + height) * 3 * width + x + width) * 4) as usize;
                                for c in 0..3 {
                                    worst = worst.max(pool[here + c].abs_diff(open[there + c]));
                                }
                            }
                        }
                    }
                    println!("{solver:?}, {boundary:?}, {mode:?}, scale {scale}: {worst} levels");
                    assert!(
                        worst <= 2,
                        "{solver:?}, {boundary:?}, {mode:?}, scale {scale}: {worst}"
                    );
                }
            }
        }
    }
}
