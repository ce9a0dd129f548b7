//! The natural look against optics: flat water is the floor exactly (tinted only by a water
//! colour the user chose), a bump focuses sunlight and a dip spreads it, steeper water reflects
//! more sky than flat water does (Fresnel), refraction
//! follows Snell's law through the depth, cell-sized noise does not show, and absurd parameters
//! are refused.
//!
//! The surfaces are built directly as height fields (a plane, a Gaussian, a checkerboard) so
//! each expectation can be computed from the optics by hand.

use ripples::{
    FieldView, Heights, Look, NaturalSettings, Pool, RenderMode, Renderer, SkyImage, SolverKind,
};

const WIDTH: usize = 96;
const HEIGHT: usize = 64;

/// Renders `heights` (`WIDTH x HEIGHT` cells at `scale` pixels per cell) over `floor`.
fn render_scaled(
    heights: &[f32],
    scale: u32,
    look: &NaturalSettings,
    floor: &[[u8; 4]],
) -> Vec<[u8; 4]> {
    let cell = scale as usize;
    let field = FieldView {
        heights: Heights::F32(heights),
        velocities: None,
        width: WIDTH.div_ceil(cell),
        height: HEIGHT.div_ceil(cell),
    };
    let mut frame = vec![[0u8; 4]; floor.len()];
    Renderer::new(WIDTH, field.width)
        .render(
            field,
            scale,
            &Look::Natural(*look),
            floor,
            &mut frame,
            WIDTH,
        )
        .unwrap();
    frame
}

fn render(heights: &[f32], look: &NaturalSettings, floor: &[[u8; 4]]) -> Vec<[u8; 4]> {
    render_scaled(heights, 1, look, floor)
}

fn uniform_floor(colour: [u8; 4]) -> Vec<[u8; 4]> {
    vec![colour; WIDTH * HEIGHT]
}

/// A field of `width x height` cells with heights `f(x, y)`.
fn field(width: usize, height: usize, f: impl Fn(f32, f32) -> f32) -> Vec<f32> {
    (0..width * height)
        .map(|i| f((i % width) as f32, (i / width) as f32))
        .collect()
}

fn flat() -> Vec<f32> {
    vec![0.0; WIDTH * HEIGHT]
}

/// The light left after the path the look documents: down along the refracted sun, back up.
fn transmittance(look: &NaturalSettings) -> [f64; 3] {
    let eta = 1.0 / 1.333_f64;
    let sin_elevation = f64::from(look.sun_elevation).to_radians().sin();
    let cos_in_water = (1.0 - eta * eta * (1.0 - sin_elevation * sin_elevation)).sqrt();
    let path = f64::from(look.depth) * (1.0 + 1.0 / cos_in_water);
    look.water_colour
        .map(|byte| (f64::from(byte) / 255.0).powf(path / f64::from(look.clarity)))
}

/// The built-in sky head on (its zenith), as the kernel module states it.
const ZENITH: [f64; 3] = [70.0, 120.0, 200.0];
const HORIZON: [f64; 3] = [205.0, 220.0, 235.0];

fn brightness(pixel: [u8; 4]) -> f64 {
    pixel[..3].iter().map(|&c| f64::from(c)).sum::<f64>() / 3.0
}

#[test]
fn flat_water_is_the_floor_exactly_and_tinted_only_by_a_chosen_water_colour() {
    let floor: Vec<[u8; 4]> = (0..WIDTH * HEIGHT)
        .map(|i| {
            [
                (i * 7) as u8,
                (i * 13 + 5) as u8,
                255 - (i * 3) as u8,
                (i * 11) as u8,
            ]
        })
        .collect();
    for sun_elevation in [1.0, 30.0, 60.0, 85.0, 90.0] {
        let look = NaturalSettings {
            sun_elevation,
            caustics: 4.0,
            ..NaturalSettings::default()
        };
        assert_eq!(
            render(&flat(), &look, &floor),
            floor,
            "flat water is the picture (sun at {sun_elevation} degrees)"
        );
        // At every simulation scale, every row.
        for scale in [2_u32, 3, 5] {
            let cells = WIDTH.div_ceil(scale as usize) * HEIGHT.div_ceil(scale as usize);
            let coarse = render_scaled(&vec![0.0; cells], scale, &look, &floor);
            assert_eq!(coarse, floor, "flat water at scale {scale}");
        }
    }
    // A water colour the user chose tints calm water by Beer-Lambert's law over the path.
    let floor_colour = [120, 160, 200, 255];
    let murky = NaturalSettings {
        depth: 200.0,
        water_colour: [90, 200, 160],
        clarity: 300.0,
        ..NaturalSettings::default()
    };
    let frame = render(&flat(), &murky, &uniform_floor(floor_colour));
    assert!(
        frame.iter().all(|&p| p == frame[0]),
        "flat water is uniform"
    );
    let tint = transmittance(&murky);
    for channel in 0..3 {
        let expected = f64::from(floor_colour[channel]) * tint[channel];
        let got = f64::from(frame[0][channel]);
        assert!(
            (got - expected).abs() <= 1.0,
            "channel {channel}: {got} vs {expected:.2}"
        );
    }
    assert_eq!(frame[0][3], 255);
}

/// A Gaussian bump (positive) or dip (negative) of `amplitude` field units at the centre.
fn gaussian(amplitude: f32, sigma: f32) -> Vec<f32> {
    let (cx, cy) = (WIDTH as f32 / 2.0, HEIGHT as f32 / 2.0);
    field(WIDTH, HEIGHT, |x, y| {
        let r2 = (x - cx).powi(2) + (y - cy).powi(2);
        amplitude * (-r2 / (2.0 * sigma * sigma)).exp()
    })
}

#[test]
fn a_bump_focuses_sunlight_beneath_it_and_a_dip_spreads_it() {
    let floor = uniform_floor([128, 128, 128, 255]);
    // Caustics at full strength: the physical ratio of areas.
    let look = NaturalSettings {
        sun_elevation: 70.0,
        caustics: 1.0,
        ..NaturalSettings::default()
    };
    let centre = (HEIGHT / 2) * WIDTH + WIDTH / 2;
    let corner = 2 * WIDTH + 2;
    let flat_level = brightness(render(&flat(), &look, &floor)[centre]);
    // 3 pixels of height over a sigma of 8: a gentle lens.
    let amplitude = 3.0 / look.wave_height;
    let bump = render(&gaussian(amplitude, 8.0), &look, &floor);
    let dip = render(&gaussian(-amplitude, 8.0), &look, &floor);
    let (bump_centre, dip_centre) = (brightness(bump[centre]), brightness(dip[centre]));
    println!(
        "flat {flat_level:.1}, under the bump {bump_centre:.1}, under the dip {dip_centre:.1}"
    );
    assert!(
        bump_centre > flat_level + 10.0,
        "{bump_centre} vs {flat_level}"
    );
    assert!(
        dip_centre < flat_level - 10.0,
        "{dip_centre} vs {flat_level}"
    );
    // Far from the bump the water is flat.
    assert!((brightness(bump[corner]) - flat_level).abs() <= 1.0);
    // Without caustics the centre is as bright as flat water: the focusing is what lit it.
    let no_caustics = NaturalSettings {
        caustics: 0.0,
        ..look
    };
    let unlit = brightness(render(&gaussian(amplitude, 8.0), &no_caustics, &floor)[centre]);
    assert!((unlit - flat_level).abs() <= 2.0, "{unlit} vs {flat_level}");
}

/// A plane rising `slope` pixels per pixel along +x.
fn ramp(slope: f32, look: &NaturalSettings) -> Vec<f32> {
    field(WIDTH, HEIGHT, |x, _| slope / look.wave_height * x)
}

#[test]
fn steeper_slopes_reflect_more_sky_as_schlick_says() {
    // A black floor shows only the reflection beyond flat water's: (fresnel - F0) * sky.
    let floor = uniform_floor([0, 0, 0, 255]);
    // The sun behind the viewer (from the top of the image): no glint on slopes along x.
    let look = NaturalSettings {
        sun_azimuth: 90.0,
        sun_elevation: 30.0,
        ..NaturalSettings::default()
    };
    let mut last = -1.0;
    for slope in [0.0_f32, 0.3, 0.6, 1.0, 1.5, 2.0, 3.0] {
        let frame = render(&ramp(slope, &look), &look, &floor);
        let pixel = frame[(HEIGHT / 2) * WIDTH + WIDTH / 2];
        let cos_i = 1.0 / (1.0 + f64::from(slope).powi(2)).sqrt();
        let fresnel = 0.02 + 0.98 * (1.0 - cos_i).powi(5);
        let reflected_z = 2.0 * cos_i * cos_i - 1.0;
        let level = brightness(pixel);
        println!("slope {slope}: fresnel {fresnel:.4}, brightness {level:.2}");
        for channel in 0..3 {
            let sky =
                HORIZON[channel] + (ZENITH[channel] - HORIZON[channel]) * reflected_z.max(0.0);
            let expected = (fresnel - 0.02) * sky;
            let got = f64::from(pixel[channel]);
            assert!(
                (got - expected).abs() <= 1.0,
                "slope {slope}, channel {channel}: {got} vs {expected:.2}"
            );
        }
        // Head on, Schlick's term barely grows: the sky shows from a slope of about 1.5.
        if slope >= 1.5 {
            assert!(
                level > last,
                "more sky at slope {slope}: {level} after {last}"
            );
        } else {
            assert!(level >= last, "slope {slope}: {level} after {last}");
        }
        last = level;
    }
}

/// The column where a dark vertical line on a white floor shows up in the middle row (the
/// centroid of the darkness).
fn line_position(frame: &[[u8; 4]]) -> f64 {
    line_position_in(frame, 1)
}

/// [`line_position`] in colour channel `channel`.
fn line_position_in(frame: &[[u8; 4]], channel: usize) -> f64 {
    let row = &frame[(HEIGHT / 2) * WIDTH..(HEIGHT / 2 + 1) * WIDTH];
    let (mut weight, mut sum) = (0.0, 0.0);
    for (x, pixel) in row.iter().enumerate().skip(4).take(WIDTH - 8) {
        let darkness = (255.0 - f64::from(pixel[channel])).max(0.0);
        let darkness = if darkness > 20.0 { darkness } else { 0.0 };
        weight += darkness;
        sum += darkness * x as f64;
    }
    sum / weight
}

#[test]
fn refraction_follows_snells_law_through_the_depth() {
    let line_at = 48;
    let floor: Vec<[u8; 4]> = (0..WIDTH * HEIGHT)
        .map(|i| {
            if (i % WIDTH).abs_diff(line_at) <= 1 {
                [0, 0, 0, 255]
            } else {
                [255, 255, 255, 255]
            }
        })
        .collect();
    let clear = NaturalSettings {
        water_colour: [255, 255, 255],
        caustics: 0.0,
        ..NaturalSettings::default()
    };
    let still = line_position(&render(&flat(), &clear, &floor));
    assert!((still - line_at as f64).abs() < 0.05, "flat water: {still}");
    let slope = 0.25_f64;
    let mut offsets = Vec::new();
    for depth in [8.0_f32, 16.0, 32.0] {
        let look = NaturalSettings { depth, ..clear };
        let seen = line_position(&render(&ramp(slope as f32, &look), &look, &floor));
        // The ray tilts by the incidence angle minus the refracted one; a pixel sees the floor
        // `depth * tan(i - t)` uphill (+x), so the line shows that far downhill.
        let incidence = slope.atan();
        let refracted = (incidence.sin() / 1.333).asin();
        let theory = f64::from(depth) * (incidence - refracted).tan();
        let measured = line_at as f64 - seen;
        println!("depth {depth}: offset {measured:.3} px, Snell's law {theory:.3} px");
        assert!(
            (measured - theory).abs() < 0.15,
            "depth {depth}: {measured} vs {theory}"
        );
        offsets.push(measured);
    }
    assert!(offsets.windows(2).all(|pair| pair[1] > pair[0] * 1.9));
}

/// A floor with a dark vertical line `line_at`, three pixels wide, on white.
fn line_floor(line_at: usize) -> Vec<[u8; 4]> {
    (0..WIDTH * HEIGHT)
        .map(|i| {
            if (i % WIDTH).abs_diff(line_at) <= 1 {
                [0, 0, 0, 255]
            } else {
                [255, 255, 255, 255]
            }
        })
        .collect()
}

#[test]
fn dispersion_refracts_each_colour_by_its_own_index() {
    let line_at = 48;
    let floor = line_floor(line_at);
    let clear = NaturalSettings {
        water_colour: [255, 255, 255],
        caustics: 0.0,
        depth: 32.0,
        ..NaturalSettings::default()
    };
    let slope = 0.25_f64;
    let heights = ramp(slope as f32, &clear);
    // Without dispersion every channel sees the line in the same place (the sky's colour
    // moves the centroids by a few hundred-thousandths of a pixel).
    let plain = render(&heights, &clear, &floor);
    let positions = [0, 1, 2].map(|channel| line_position_in(&plain, channel));
    println!("dispersion 0: the line at {positions:?} in red, green and blue");
    assert!(
        positions.iter().all(|&p| (p - positions[1]).abs() < 0.01),
        "{positions:?}"
    );
    // Water's indices at 656 and 486 nm, and the look's own (589 nm).
    let real = [1.3311_f64, 1.333, 1.3371];
    let incidence = slope.atan();
    for dispersion in [10.0_f32, 30.0, 50.0] {
        let look = NaturalSettings {
            dispersion,
            ..clear
        };
        let frame = render(&heights, &look, &floor);
        let mut measured = [0.0; 3];
        for channel in 0..3 {
            let index = 1.333 + f64::from(dispersion) * (real[channel] - 1.333);
            let refracted = (incidence.sin() / index).asin();
            let theory = f64::from(look.depth) * (incidence - refracted).tan();
            measured[channel] = line_at as f64 - line_position_in(&frame, channel);
            println!(
                "dispersion {dispersion}, channel {channel} (n = {index:.4}): offset {:.3} px, \
                 Snell's law {theory:.3} px",
                measured[channel]
            );
            assert!(
                (measured[channel] - theory).abs() < 0.15,
                "dispersion {dispersion}, channel {channel}: {} vs {theory}",
                measured[channel]
            );
        }
        // Blue bends most, red least: the line parts into a red and a blue fringe.
        assert!(
            measured[0] < measured[1] && measured[1] < measured[2],
            "{measured:?}"
        );
    }
}

#[test]
fn cell_sized_noise_does_not_show_as_speckle() {
    let floor: Vec<[u8; 4]> =
        bytemuck_pixels(&ripples::pool_tiles(WIDTH as u32, HEIGHT as u32).unwrap());
    // Much stronger than the brief's +-1 so that unsmoothed normals would tilt by tens of
    // degrees: the smoothing must cancel it, not merely make it small.
    let look = NaturalSettings {
        wave_height: 0.5,
        ..NaturalSettings::default()
    };
    for scale in [1_u32, 2, 3] {
        let (width, height) = (
            WIDTH.div_ceil(scale as usize),
            HEIGHT.div_ceil(scale as usize),
        );
        let checkerboard = field(width, height, |x, y| {
            if (x as usize + y as usize).is_multiple_of(2) {
                4.0
            } else {
                -4.0
            }
        });
        let still = render_scaled(&vec![0.0; width * height], scale, &look, &floor);
        let noisy = render_scaled(&checkerboard, scale, &look, &floor);
        let worst = still
            .iter()
            .zip(&noisy)
            .flat_map(|(a, b)| (0..4).map(move |c| a[c].abs_diff(b[c])))
            .max()
            .unwrap();
        println!("scale {scale}: largest difference from flat water {worst} levels");
        assert!(worst <= 2, "scale {scale}: speckle of {worst} levels");
    }
}

fn bytemuck_pixels(rgba: &[u8]) -> Vec<[u8; 4]> {
    rgba.chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

#[test]
fn a_coarser_simulation_gives_the_same_picture_smoothly() {
    let floor = bytemuck_pixels(&ripples::pool_tiles(WIDTH as u32, HEIGHT as u32).unwrap());
    let look = NaturalSettings::default();
    let amplitude = 3.0 / look.wave_height;
    let fine = render(&gaussian(amplitude, 10.0), &look, &floor);
    let (cx, cy) = (WIDTH as f32 / 2.0, HEIGHT as f32 / 2.0);
    // The same bump on a grid of 2x2-pixel cells (cell centres at 2i + 0.5 pixels).
    let coarse_field = field(WIDTH / 2, HEIGHT / 2, |x, y| {
        let (px, py) = (2.0 * x + 0.5, 2.0 * y + 0.5);
        let r2 = (px - cx).powi(2) + (py - cy).powi(2);
        amplitude * (-r2 / 200.0).exp()
    });
    let coarse = render_scaled(&coarse_field, 2, &look, &floor);
    let mean_difference = fine
        .iter()
        .zip(&coarse)
        .map(|(a, b)| (brightness(*a) - brightness(*b)).abs())
        .sum::<f64>()
        / fine.len() as f64;
    println!("mean difference between scale 1 and scale 2: {mean_difference:.2} levels");
    assert!(mean_difference < 3.0);
}

#[test]
fn walls_and_the_wave_solver_render_without_trouble() {
    let (width, height) = (80_u32, 60_u32);
    let floor = ripples::pool_tiles(width, height).unwrap();
    for scale in [1, 2] {
        let mut pool = Pool::with_sim_scale(width, height, scale).unwrap();
        pool.set_solver(SolverKind::Wave).unwrap();
        pool.paint_wall(40, 30, 6, true).unwrap();
        pool.drop_stone(20, 20, 6, 128).unwrap();
        let mut frame = vec![0u8; floor.len()];
        for _ in 0..20 {
            pool.step_and_render(&Look::natural(), &floor, &mut frame)
                .unwrap();
        }
        assert_ne!(frame, floor, "the waves show");
    }
}

#[test]
fn u32_frames_get_the_same_colours() {
    let (width, height) = (40_u32, 30_u32);
    let floor = ripples::pool_tiles(width, height).unwrap();
    let words: Vec<u32> = floor
        .chunks_exact(4)
        .map(|p| u32::from_be_bytes([p[3], p[0], p[1], p[2]]))
        .collect();
    let mut pool = Pool::new(width, height).unwrap();
    pool.set_solver(SolverKind::Wave).unwrap();
    pool.drop_stone(20, 15, 6, 128).unwrap();
    pool.step();
    let mut bytes = vec![0u8; floor.len()];
    let mut frame = vec![0u32; words.len()];
    pool.render(&Look::natural(), &floor, &mut bytes).unwrap();
    pool.render_u32(&Look::natural(), &words, &mut frame)
        .unwrap();
    let from_words: Vec<u8> = frame
        .iter()
        .flat_map(|w| {
            let [a, r, g, b] = w.to_be_bytes();
            [r, g, b, a]
        })
        .collect();
    assert_eq!(from_words, bytes);
}

#[test]
fn absurd_parameters_are_refused_naming_the_value() {
    let cases: [(NaturalSettings, &str); 9] = [
        (
            NaturalSettings {
                depth: f32::NAN,
                ..NaturalSettings::default()
            },
            "depth must be a finite number, got NaN",
        ),
        (
            NaturalSettings {
                depth: -1.0,
                ..NaturalSettings::default()
            },
            "depth must be >= 0, got -1",
        ),
        (
            NaturalSettings {
                depth: 1e6,
                ..NaturalSettings::default()
            },
            "depth must be <= 1024, got 1000000",
        ),
        (
            NaturalSettings {
                caustics: f32::INFINITY,
                ..NaturalSettings::default()
            },
            "caustics must be a finite number, got inf",
        ),
        (
            NaturalSettings {
                caustics: -0.5,
                ..NaturalSettings::default()
            },
            "caustics must be >= 0, got -0.5",
        ),
        (
            NaturalSettings {
                sun_elevation: 0.0,
                ..NaturalSettings::default()
            },
            "sun elevation must be >= 1, got 0",
        ),
        (
            NaturalSettings {
                sun_azimuth: 720.0,
                ..NaturalSettings::default()
            },
            "sun azimuth must be <= 360, got 720",
        ),
        (
            NaturalSettings {
                clarity: 0.0,
                ..NaturalSettings::default()
            },
            "clarity must be >= 1, got 0",
        ),
        (
            NaturalSettings {
                wave_height: f32::NAN,
                ..NaturalSettings::default()
            },
            "wave height must be a finite number, got NaN",
        ),
    ];
    let floor = uniform_floor([10, 20, 30, 255]);
    let heights = flat();
    for (look, message) in cases {
        let error = look.validate().unwrap_err().to_string();
        assert!(error.contains(message), "{error}");
        let field = FieldView {
            heights: Heights::F32(&heights),
            velocities: None,
            width: WIDTH,
            height: HEIGHT,
        };
        let mut frame = vec![[7u8; 4]; floor.len()];
        let refused = Renderer::new(WIDTH, WIDTH)
            .render(field, 1, &Look::Natural(look), &floor, &mut frame, WIDTH)
            .unwrap_err();
        assert_eq!(refused.to_string(), error, "the look's own error");
        assert!(frame.iter().all(|&p| p == [7; 4]), "nothing written");
    }
    assert_eq!(
        "natural".parse::<RenderMode>().unwrap(),
        RenderMode::Natural
    );
    assert_eq!(Look::natural().kind(), RenderMode::Natural);
    assert!(Look::natural().validate().is_ok());
}

/// A sky picture of `width x height` pixels whose colour is `colour(x, y)`.
fn sky_picture(width: u32, height: u32, colour: impl Fn(u32, u32) -> [u8; 3]) -> Vec<u8> {
    (0..width * height)
        .flat_map(|i| {
            let [r, g, b] = colour(i % width, i / width);
            [r, g, b, 255]
        })
        .collect()
}

/// Renders `heights` over a black floor through a pool reflecting `sky`, and returns the
/// middle pixel.
fn reflected(heights: &[f32], look: &NaturalSettings, sky: Option<&SkyImage<'_>>) -> [u8; 4] {
    let mut pool = Pool::new(WIDTH as u32, HEIGHT as u32).unwrap();
    pool.set_solver(SolverKind::Wave).unwrap();
    pool.set_heights(Heights::F32(heights)).unwrap();
    pool.set_sky(sky);
    let floor = [0, 0, 0, 255].repeat(WIDTH * HEIGHT);
    let mut frame = vec![0; floor.len()];
    pool.render(&Look::Natural(*look), &floor, &mut frame)
        .unwrap();
    let middle = ((HEIGHT / 2) * WIDTH + WIDTH / 2) * 4;
    frame[middle..middle + 4].try_into().unwrap()
}

#[test]
fn a_sky_picture_is_reflected_by_steep_water_its_bottom_edge_at_the_horizon() {
    let look = NaturalSettings {
        sun_elevation: 30.0,
        sun_azimuth: 90.0,
        ..NaturalSettings::default()
    };
    // Red at the top edge, blue below it.
    let picture = sky_picture(40, 20, |_, y| if y < 4 { [255, 0, 0] } else { [0, 0, 255] });
    let sky = SkyImage::new(&picture, 40, 20).unwrap();
    // Flat water adds no reflection to the picture (it shows calm water's already).
    assert_eq!(reflected(&flat(), &look, Some(&sky)), [0, 0, 0, 255]);
    assert_eq!(reflected(&flat(), &look, None), [0, 0, 0, 255]);
    // A slope of 3 reflects below the horizon, which shows the picture's bottom edge, at
    // Schlick's 16.7% less flat water's 2%.
    let steep = reflected(&ramp(3.0, &look), &look, Some(&sky));
    let reflectance = 0.98 * (1.0 - 1.0 / 10f64.sqrt()).powi(5);
    assert_eq!(
        steep,
        [0, 0, (255.0 * reflectance).round() as u8, 255],
        "steep slope"
    );
    // Back to the built-in sky: its horizon colour there.
    let built_in = reflected(&ramp(3.0, &look), &look, None);
    let expected = HORIZON.map(|c| (c * reflectance).round() as u8);
    assert_eq!(built_in[..3], expected, "the built-in sky");
    let mut pool = Pool::new(WIDTH as u32, HEIGHT as u32).unwrap();
    pool.set_solver(SolverKind::Wave).unwrap();
    pool.set_heights(Heights::F32(&ramp(3.0, &look))).unwrap();
    pool.set_sky(Some(&sky));
    pool.set_sky(None);
    let floor = [0, 0, 0, 255].repeat(WIDTH * HEIGHT);
    let mut frame = vec![0; floor.len()];
    pool.render(&Look::Natural(look), &floor, &mut frame)
        .unwrap();
    let middle = ((HEIGHT / 2) * WIDTH + WIDTH / 2) * 4;
    assert_eq!(frame[middle..middle + 4], built_in, "set_sky(None)");
}

#[test]
fn a_sky_picture_wraps_around_the_horizon_its_middle_beyond_the_top_of_the_picture() {
    let look = NaturalSettings {
        sun_elevation: 30.0,
        sun_azimuth: 90.0,
        ..NaturalSettings::default()
    };
    // Quarters of the horizon, left to right: behind the viewer (grey), to the left (green),
    // ahead, beyond the top of the picture (red), to the right (blue), behind again (grey).
    let picture = sky_picture(80, 10, |x, _| match x {
        0..10 | 70.. => [90, 90, 90],
        10..30 => [0, 255, 0],
        30..50 => [255, 0, 0],
        _ => [0, 0, 255],
    });
    let sky = SkyImage::new(&picture, 80, 10).unwrap();
    let level = (255.0 * (0.98 * (1.0 - 1.0 / 10f64.sqrt()).powi(5))).round() as u8;
    // A surface rising to the right reflects the view to the left, and so on.
    let slopes = [
        ((3.0, 0.0), [0, level, 0]),
        ((-3.0, 0.0), [0, 0, level]),
        ((0.0, 3.0), [level, 0, 0]),
    ];
    for ((p, q), colour) in slopes {
        let plane = field(WIDTH, HEIGHT, |x, y| (p * x + q * y) / look.wave_height);
        let pixel = reflected(&plane, &look, Some(&sky));
        assert_eq!(pixel[..3], colour, "slope ({p}, {q})");
    }
}

#[test]
fn sky_pictures_of_a_wrong_size_are_refused_naming_it() {
    let cases: [(Vec<u8>, u32, u32, &str); 3] = [
        (
            Vec::new(),
            0,
            5,
            "sky image: size must be at least 1x1, got 0x5",
        ),
        (
            vec![0; 12],
            2,
            2,
            "sky image has 12 values, expected 16 (4 per pixel for 2x2)",
        ),
        (
            Vec::new(),
            100_000,
            1,
            "sky image: size 100000x1 is too large",
        ),
    ];
    for (rgba, width, height, message) in cases {
        let error = SkyImage::new(&rgba, width, height).unwrap_err().to_string();
        assert!(error.contains(message), "{error}");
    }
    let sky = SkyImage::new(&[1, 2, 3, 4], 1, 1).unwrap();
    assert_eq!((sky.width(), sky.height()), (1, 1));
}
