//! The demonstration scenes in `scenes/` show what they claim, checked from the height field:
//! the double slit's bright fringes lie where d sin(theta) = m lambda puts them, the single slit
//! spreads the wave behind it, and walls stay dry.

use std::path::Path;

use ripples::{Heights, SceneRunner};
use ripples_cli::input::scene_file::SceneFile;
use ripples_cli::input::source_image::SourceImage;

fn scene_runner(name: &str) -> SceneRunner {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenes")
        .join(name);
    let file = SceneFile::load(&path).unwrap();
    let (width, height) = (file.scene.width.unwrap(), file.scene.height.unwrap());
    let mask_path = file.directory.join(file.files.obstacles.as_ref().unwrap());
    let mask: Vec<bool> = SourceImage::load(&mask_path)
        .unwrap()
        .luminance()
        .iter()
        .map(|&l| l < 128)
        .collect();
    let mut runner = SceneRunner::new(file.scene, width, height).unwrap();
    runner.pool_mut().set_obstacle_mask(&mask).unwrap();
    runner
}

fn heights(runner: &SceneRunner) -> &[f32] {
    match runner.pool().solver().heights() {
        Heights::F32(h) => h,
        Heights::I16(_) => panic!("the slit scenes use the wave solver"),
    }
}

/// Bilinear sample of a `width`-wide field.
fn sample(field: &[f32], width: usize, x: f64, y: f64) -> f64 {
    let (x0, y0) = (x.floor() as usize, y.floor() as usize);
    let (fx, fy) = (x - x0 as f64, y - y0 as f64);
    let at = |x: usize, y: usize| f64::from(field[y * width + x]);
    let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
    let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
    top * (1.0 - fy) + bottom * fy
}

/// Time-averaged intensity (mean h^2) on an arc of `radius` around `centre`, at `angles`
/// (degrees, 0 = straight on along +x), over the last `frames` frames of the scene.
fn arc_intensity(
    runner: &mut SceneRunner,
    centre: (f64, f64),
    radius: f64,
    angles: &[f64],
    frames: u32,
) -> Vec<f64> {
    let width = runner.pool().solver().width() as usize;
    let total = runner.scene().frames;
    let mut sums = vec![0.0; angles.len()];
    while !runner.is_finished() {
        runner.advance();
        if runner.frame() + frames > total {
            let field = heights(runner);
            for (sum, angle) in sums.iter_mut().zip(angles) {
                let (sin, cos) = angle.to_radians().sin_cos();
                let h = sample(
                    field,
                    width,
                    centre.0 + radius * cos,
                    centre.1 + radius * sin,
                );
                *sum += h * h;
            }
        }
    }
    sums.iter().map(|s| s / f64::from(frames)).collect()
}

/// Angles of the local maxima of `values` that stand out (above 5% of the largest), in order.
fn peaks(angles: &[f64], values: &[f64]) -> Vec<f64> {
    let top = values.iter().cloned().fold(0.0, f64::max);
    (2..values.len() - 2)
        .filter(|&i| {
            values[i] > 0.05 * top
                && values[i] >= values[i - 1]
                && values[i] >= values[i + 1]
                && values[i] > values[i - 2]
                && values[i] > values[i + 2]
        })
        .map(|i| angles[i])
        .collect()
}

#[test]
fn double_slit_fringes_lie_at_the_angles_theory_predicts() {
    let mut runner = scene_runner("double-slit.toml");
    // Geometry from the scene file: slits at y = 200 and 240 in a wall at x = 140..142.
    let (d, lambda) = (40.0, 0.5 * 32.0);
    let angles: Vec<f64> = (-280..=280).map(|i| f64::from(i) * 0.25).collect();
    let intensity = arc_intensity(&mut runner, (141.0, 220.0), 180.0, &angles, 64);
    let found = peaks(&angles, &intensity);
    eprintln!("double slit: bright fringes at {found:.1?} degrees");
    for order in [1.0f64, 2.0] {
        let expected = (order * lambda / d).asin().to_degrees();
        for side in [1.0, -1.0] {
            let nearest = found
                .iter()
                .map(|&angle| angle * side)
                .filter(|&angle| angle > 0.0)
                .min_by(|a, b| (a - expected).abs().total_cmp(&(b - expected).abs()))
                .unwrap_or(f64::NAN);
            let error = (nearest - expected).abs() / expected;
            eprintln!(
                "order {order}, side {side}: expected {expected:.1}, measured {nearest:.1} ({:.1}% off)",
                error * 100.0
            );
            assert!(
                error < 0.10,
                "order {order} side {side}: expected {expected:.1} degrees, found {nearest:.1} among {found:.1?}"
            );
        }
    }
    // The central fringe is there too, and dark fringes between orders 0 and 1 are dark.
    assert!(
        found.iter().any(|a| a.abs() < 3.0),
        "central fringe missing: {found:.1?}"
    );
    let dark = (0.5 * lambda / d).asin().to_degrees();
    let at = |angle: f64| intensity[((angle + 70.0) / 0.25).round() as usize];
    assert!(
        at(dark) < 0.3 * at(0.0),
        "the first dark fringe at {dark:.1} is not dark"
    );
}

#[test]
fn a_single_slit_spreads_the_wave_and_walls_stay_dry() {
    let mut runner = scene_runner("single-slit.toml");
    let angles: Vec<f64> = (-60..=60).map(f64::from).collect();
    let intensity = arc_intensity(&mut runner, (141.0, 220.0), 150.0, &angles, 64);
    let straight = intensity[60];
    assert!(straight > 1.0, "the wave passes the slit: {straight}");
    // Diffraction: well off-axis, inside the first minimum (41.8 degrees), there is still wave.
    assert!(
        intensity[60 + 25] > 0.1 * straight,
        "spread at 25 degrees: {} vs {straight}",
        intensity[85]
    );
    // Walls hold no water.
    let field = heights(&runner);
    let walls = runner.pool().obstacles().cells();
    assert!(runner.pool().obstacles().count() > 1000);
    assert!(field.iter().zip(walls).all(|(&h, &wall)| !wall || h == 0.0));
}
