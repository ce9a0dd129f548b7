//! Every SIMD backend against the scalar reference, bit for bit, on random rows.
//!
//! The rows are random in the ways that break vector code: every width from 1 to past several
//! vector lengths (so each loop's tail runs), heights near the `i16` limits (saturation, huge
//! displacements that must clamp), gradients that are NaN, infinite or enormous, and looks with
//! every parameter at the edge of its range.

use ripples::kernels::{self, Backend, BlendedRow, FrameWrites, LitLook};
use ripples::{LitSettings, SplitMix64};

mod natural;

fn simd_backends() -> Vec<Backend> {
    let backends: Vec<Backend> = Backend::available()
        .filter(|&b| b != Backend::Scalar)
        .collect();
    println!("backends under test: {backends:?}");
    backends
}

fn random_i16(random: &mut SplitMix64, wild: bool) -> i16 {
    if wild {
        random.next_u64() as i16
    } else {
        random.between(-300, 300) as i16
    }
}

fn random_row(random: &mut SplitMix64, width: usize, wild: bool) -> Vec<i16> {
    (0..width).map(|_| random_i16(random, wild)).collect()
}

fn random_image(random: &mut SplitMix64, pixels: usize) -> Vec<[u8; 4]> {
    (0..pixels)
        .map(|_| random.next_u64().to_le_bytes()[..4].try_into().unwrap())
        .collect()
}

#[test]
fn classic_step_row_matches_the_reference_on_every_backend() {
    let mut random = SplitMix64::new(1);
    for backend in simd_backends() {
        for width in 0..80 {
            for trial in 0..20 {
                let wild = trial % 2 == 0;
                let shift = 1 + (trial as u32 * 7) % 15;
                let up = random_row(&mut random, width, wild);
                let mid = random_row(&mut random, width, wild);
                let down = random_row(&mut random, width, wild);
                let previous = random_row(&mut random, width, wild);
                let mut expected = previous.clone();
                kernels::scalar::classic_step_row(&up, &mid, &down, &mut expected, shift);
                let mut got = previous.clone();
                kernels::classic_step_row(backend, &up, &mid, &down, &mut got, shift);
                assert_eq!(got, expected, "{backend}, width {width}, shift {shift}");
            }
        }
    }
}

#[test]
fn classic_render_row_matches_the_reference_on_every_backend() {
    let mut random = SplitMix64::new(2);
    for backend in simd_backends() {
        for width in 1..60 {
            for height in [1, 2, 3, 7, 40] {
                let src = random_image(&mut random, width * height);
                for trial in 0..6 {
                    let y = random.below(height as u32) as usize;
                    let wild = trial % 3 == 0;
                    let up = random_row(&mut random, width, wild);
                    let mid = random_row(&mut random, width, wild);
                    let down = random_row(&mut random, width, wild);
                    let mut expected = vec![[0u8; 4]; width];
                    let source = kernels::SourceRow {
                        src: &src,
                        y,
                        height,
                    };
                    kernels::scalar::classic_render_row(source, [&up, &mid, &down], &mut expected);
                    let mut got = vec![[0u8; 4]; width];
                    kernels::classic_render_row(backend, source, [&up, &mid, &down], &mut got);
                    assert_eq!(got, expected, "{backend}, {width}x{height}, row {y}");
                }
            }
        }
    }
}

#[test]
fn classic_render_columns_pieces_make_the_reference_row_on_every_backend() {
    let mut random = SplitMix64::new(3);
    let mut backends = simd_backends();
    backends.push(Backend::Scalar);
    for backend in backends {
        for writes in [FrameWrites::Cached, FrameWrites::Streaming] {
            for width in 1..70 {
                for height in [1, 3, 40] {
                    let src = random_image(&mut random, width * height);
                    let y = random.below(height as u32) as usize;
                    let wild = width % 2 == 0;
                    let [up, mid, down] = [(); 3].map(|_| random_row(&mut random, width, wild));
                    let mut expected = vec![[0u8; 4]; width];
                    let source = kernels::SourceRow {
                        src: &src,
                        y,
                        height,
                    };
                    kernels::scalar::classic_render_row(source, [&up, &mid, &down], &mut expected);
                    // Random pieces, each rendered into a row that is otherwise left alone. The
                    // row starts at a random pixel of its buffer, so streaming stores meet every
                    // alignment.
                    let shift = random.below(8) as usize;
                    let mut buffer = vec![[7u8; 4]; width + 8];
                    let got = &mut buffer[shift..shift + width];
                    let mut start = 0;
                    while start < width {
                        let end = (start + random.below(20) as usize).min(width);
                        let before = got.to_vec();
                        kernels::classic_render_columns(
                            backend,
                            source,
                            [&up, &mid, &down],
                            got,
                            start..end,
                            writes,
                        );
                        for x in (0..start).chain(end..width) {
                            assert_eq!(
                                got[x], before[x],
                                "{backend} {writes:?}: column {x} outside {start}..{end}"
                            );
                        }
                        start = end;
                    }
                    assert_eq!(
                        got,
                        &expected[..],
                        "{backend} {writes:?}, {width}x{height}, row {y}, shift {shift}"
                    );
                    assert!(
                        buffer[..shift]
                            .iter()
                            .chain(&buffer[shift + width..])
                            .all(|p| *p == [7; 4])
                    );
                }
            }
        }
    }
}

fn random_gradient(random: &mut SplitMix64, kind: u64) -> f32 {
    match kind {
        0 => random.between(-200, 200) as f32,
        1 => (random.unit() as f32 - 0.5) * 60.0,
        2 => [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e30,
            -1e30,
            -0.0,
        ][random.below(6) as usize],
        _ => random.between(-65535, 65535) as f32,
    }
}

fn random_look(random: &mut SplitMix64, trial: usize) -> LitLook {
    let edge = trial % 4 == 3;
    let look = LitSettings {
        refraction: if edge {
            64.0
        } else {
            (random.unit() as f32 - 0.5) * 4.0
        },
        slope: if edge {
            16.0
        } else {
            random.unit() as f32 * 0.2
        },
        shading: if edge { 4.0 } else { random.unit() as f32 },
        specular: if edge {
            16.0
        } else {
            random.unit() as f32 * 2.0
        },
        shininess: if edge {
            0.01
        } else {
            1.0 + random.unit() as f32 * 30.0
        },
        light_angle: random.unit() as f32 * 360.0,
        ..LitSettings::default()
    };
    look.lit_look()
}

#[test]
fn lit_render_row_matches_the_reference_on_every_backend() {
    let mut random = SplitMix64::new(3);
    for backend in simd_backends() {
        for width in 1..45 {
            for height in [1, 2, 5, 33] {
                let src = random_image(&mut random, width * height);
                for trial in 0..8 {
                    let look = random_look(&mut random, trial);
                    let y = random.below(height as u32) as usize;
                    let kind = (trial % 4) as u64;
                    let gx: Vec<f32> = (0..width)
                        .map(|_| random_gradient(&mut random, kind))
                        .collect();
                    let gy: Vec<f32> = (0..width)
                        .map(|_| random_gradient(&mut random, kind))
                        .collect();
                    let mut expected = vec![[0u8; 4]; width];
                    let source = kernels::SourceRow {
                        src: &src,
                        y,
                        height,
                    };
                    kernels::scalar::lit_render_row(source, [&gx, &gy], &mut expected, &look);
                    let mut got = vec![[0u8; 4]; width];
                    kernels::lit_render_row(backend, source, [&gx, &gy], &mut got, &look);
                    assert_eq!(
                        got, expected,
                        "{backend}, {width}x{height}, row {y}, trial {trial}"
                    );
                }
            }
        }
    }
}

#[test]
fn flat_water_reproduces_the_source_in_the_lit_look() {
    let mut random = SplitMix64::new(4);
    let (width, height) = (37, 5);
    let src = random_image(&mut random, width * height);
    let look = LitSettings::default().lit_look();
    let zero = vec![0.0f32; width];
    for backend in Backend::available() {
        for y in 0..height {
            let mut row = vec![[0u8; 4]; width];
            kernels::lit_render_row(
                backend,
                kernels::SourceRow {
                    src: &src,
                    y,
                    height,
                },
                [&zero, &zero],
                &mut row,
                &look,
            );
            assert_eq!(row, src[y * width..(y + 1) * width], "{backend}, row {y}");
        }
    }
}

#[test]
fn backends_parse_and_report_their_names() {
    for backend in Backend::ALL {
        assert_eq!(backend.name().parse::<Backend>().unwrap(), backend);
    }
    let message = "mmx".parse::<Backend>().unwrap_err().to_string();
    assert!(message.contains("'mmx'"), "{message}");
    assert!(Backend::detect().is_available());
    assert!(Backend::Scalar.is_available());
}

#[test]
fn lit_render_row_matches_the_reference_with_any_table() {
    // `LitLook`'s fields are public, so a table need not come from `LitLook::set_light`: gains up to the
    // mask and highlights far above 255 must still give the reference's pixels.
    let mut random = SplitMix64::new(5);
    for backend in simd_backends() {
        for width in [1, 4, 7, 8, 9, 16, 23, 40] {
            let height = 6;
            let src = random_image(&mut random, width * height);
            for trial in 0..8 {
                let mut look = random_look(&mut random, trial);
                for entry in &mut look.table {
                    *entry = match trial % 3 {
                        0 => random.next_u64() as u32,
                        1 => (random.next_u64() as u32) & 0x00ff_ffff,
                        _ => (random.next_u64() as u32) & 0x0007_ffff,
                    };
                }
                let y = random.below(height as u32) as usize;
                let gx: Vec<f32> = (0..width)
                    .map(|_| random_gradient(&mut random, 1))
                    .collect();
                let gy: Vec<f32> = (0..width)
                    .map(|_| random_gradient(&mut random, 1))
                    .collect();
                let mut expected = vec![[0u8; 4]; width];
                let source = kernels::SourceRow {
                    src: &src,
                    y,
                    height,
                };
                kernels::scalar::lit_render_row(source, [&gx, &gy], &mut expected, &look);
                let mut got = vec![[0u8; 4]; width];
                kernels::lit_render_row(backend, source, [&gx, &gy], &mut got, &look);
                assert_eq!(got, expected, "{backend}, {width}x{height}, trial {trial}");
            }
        }
    }
}

/// Gradients at the rounding edges of the classic look: halves (which round away from zero),
/// the largest value below a half, and halves near 2^22 where f32 has no room for more.
fn rounding_edge_gradient(random: &mut SplitMix64) -> f32 {
    let whole = random.between(-70, 70) as f32;
    match random.below(4) {
        0 => whole + 0.5,
        1 => whole + 0.499_999_97,
        2 => whole - 0.5,
        _ => [4_194_304.5, -4_194_304.5, 0.5, -0.5][random.below(4) as usize],
    }
}

#[test]
fn resampled_classic_row_matches_the_reference_on_every_backend() {
    let mut random = SplitMix64::new(4);
    for backend in simd_backends() {
        for width in 1..45 {
            for height in [1, 2, 5, 33, 150] {
                let src = random_image(&mut random, width * height);
                for trial in 0..10 {
                    let y = random.below(height as u32) as usize;
                    let gradient = |random: &mut SplitMix64| match trial % 5 {
                        4 => rounding_edge_gradient(random),
                        kind => random_gradient(random, kind as u64),
                    };
                    let gx: Vec<f32> = (0..width).map(|_| gradient(&mut random)).collect();
                    let gy: Vec<f32> = (0..width).map(|_| gradient(&mut random)).collect();
                    let mut expected = vec![[0u8; 4]; width];
                    let source = kernels::SourceRow {
                        src: &src,
                        y,
                        height,
                    };
                    kernels::scalar::resampled_classic_row(source, [&gx, &gy], &mut expected);
                    let mut got = vec![[0u8; 4]; width];
                    kernels::resampled_classic_row(backend, source, [&gx, &gy], &mut got);
                    assert_eq!(
                        got, expected,
                        "{backend}, {width}x{height}, row {y}, trial {trial}"
                    );
                }
            }
        }
    }
}

/// Gradients of gentle water: mostly below one half (no displacement, where the SIMD kernels
/// copy whole vectors of pixels without a gather), in runs of every length, with some just at
/// or above a half.
fn gentle_gradient(random: &mut SplitMix64, x: usize, calm_run: usize) -> f32 {
    if (x / calm_run) % 3 != 2 {
        return (random.unit() as f32 - 0.5) * 0.99;
    }
    match random.below(4) {
        0 => 0.5,
        1 => -0.5,
        2 => 0.499_999_97,
        _ => (random.unit() as f32 - 0.5) * 6.0,
    }
}

#[test]
fn resampled_classic_row_copies_undisplaced_pixels_on_every_backend() {
    let mut random = SplitMix64::new(5);
    for backend in simd_backends() {
        for width in 1..45 {
            for height in [1, 2, 9] {
                let src = random_image(&mut random, width * height);
                for calm_run in [1, 3, 4, 8, 9, 17] {
                    let y = random.below(height as u32) as usize;
                    let [gx, gy]: [Vec<f32>; 2] = [(); 2].map(|_| {
                        (0..width)
                            .map(|x| gentle_gradient(&mut random, x, calm_run))
                            .collect()
                    });
                    let mut expected = vec![[0u8; 4]; width];
                    let source = kernels::SourceRow {
                        src: &src,
                        y,
                        height,
                    };
                    kernels::scalar::resampled_classic_row(source, [&gx, &gy], &mut expected);
                    let mut got = vec![[0u8; 4]; width];
                    kernels::resampled_classic_row(backend, source, [&gx, &gy], &mut got);
                    assert_eq!(got, expected, "{backend}, {width}x{height}, run {calm_run}");
                }
            }
        }
    }
}

#[test]
fn resampled_classic_blended_row_is_the_blend_then_the_render_on_every_backend() {
    let mut random = SplitMix64::new(6);
    let mut backends = simd_backends();
    backends.push(Backend::Scalar);
    for backend in backends {
        for width in 1..45 {
            for height in [1, 3, 33] {
                let src = random_image(&mut random, width * height);
                for trial in 0..8 {
                    let y = random.below(height as u32) as usize;
                    let gradient = |random: &mut SplitMix64, x: usize| match trial % 4 {
                        3 => gentle_gradient(random, x, 1 + trial),
                        2 => rounding_edge_gradient(random),
                        kind => random_gradient(random, kind as u64),
                    };
                    let [top_x, bottom_x, top_y, bottom_y]: [Vec<f32>; 4] =
                        [(); 4].map(|_| (0..width).map(|x| gradient(&mut random, x)).collect());
                    let weight = [0.0, 0.25, 0.75, random.unit() as f32][trial % 4];
                    let (mut gx, mut gy) = (vec![0.0; width], vec![0.0; width]);
                    kernels::f32_rows::lerp_rows(
                        Backend::Scalar,
                        &top_x,
                        &bottom_x,
                        weight,
                        &mut gx,
                    );
                    kernels::f32_rows::lerp_rows(
                        Backend::Scalar,
                        &top_y,
                        &bottom_y,
                        weight,
                        &mut gy,
                    );
                    let mut expected = vec![[0u8; 4]; width];
                    let source = kernels::SourceRow {
                        src: &src,
                        y,
                        height,
                    };
                    kernels::scalar::resampled_classic_row(source, [&gx, &gy], &mut expected);
                    let blended = |top, bottom| BlendedRow {
                        top,
                        bottom,
                        weight,
                    };
                    let mut got = vec![[0u8; 4]; width];
                    kernels::resampled_classic_blended_row(
                        backend,
                        source,
                        [blended(&top_x, &bottom_x), blended(&top_y, &bottom_y)],
                        &mut got,
                    );
                    assert_eq!(
                        got, expected,
                        "{backend}, {width}x{height}, row {y}, trial {trial}"
                    );
                }
            }
        }
    }
}
