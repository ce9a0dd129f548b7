//! Walls drawn as a material: a stone lit from the side the light comes from, a shadow thrown
//! away from the sun in the natural look, the water's light stopping at the wall, and nothing
//! at all without walls.

use ripples::{LitSettings, Look, NaturalSettings, Pool, RenderMode};

const WIDTH: u32 = 120;
const HEIGHT: u32 = 80;

/// A mid-grey floor: any brightening or darkening is the look's.
fn floor() -> Vec<u8> {
    [120u8, 120, 120, 255].repeat((WIDTH * HEIGHT) as usize)
}

/// Water with a square wall, columns 50..70 and rows 30..50.
fn walled_pool() -> Pool {
    let mut pool = Pool::new(WIDTH, HEIGHT).unwrap();
    for y in 30..50 {
        for x in 50..70 {
            pool.obstacles_mut().set(x, y, true);
        }
    }
    pool
}

/// A natural look with the sun low in the east (+x), so the light and shadows are sideways.
fn eastern_sun() -> Look {
    Look::Natural(NaturalSettings {
        sun_elevation: 35.0,
        sun_azimuth: 0.0,
        ..NaturalSettings::default()
    })
}

fn render(pool: &mut Pool, look: &Look) -> Vec<u8> {
    let src = floor();
    let mut frame = vec![0u8; src.len()];
    pool.render(look, &src, &mut frame).unwrap();
    frame
}

fn brightness(frame: &[u8], x: u32, y: u32) -> f32 {
    let i = ((y * WIDTH + x) * 4) as usize;
    (f32::from(frame[i]) + f32::from(frame[i + 1]) + f32::from(frame[i + 2])) / 3.0
}

/// Mean brightness of column `x` over rows 34..46 (the wall's middle rows).
fn column_brightness(frame: &[u8], x: u32) -> f32 {
    (34..46).map(|y| brightness(frame, x, y)).sum::<f32>() / 12.0
}

#[test]
fn a_wall_is_stone_lit_on_the_side_facing_the_light() {
    let mut pool = walled_pool();
    for look in [
        eastern_sun(),
        Look::Lit(LitSettings {
            light_angle: 0.0,
            ..LitSettings::default()
        }),
    ] {
        let frame = render(&mut pool, &look);
        let (west_edge, east_edge) = (column_brightness(&frame, 51), column_brightness(&frame, 68));
        let top = column_brightness(&frame, 60);
        eprintln!(
            "{:?}: west edge {west_edge:.1}, top {top:.1}, east edge {east_edge:.1}",
            look.kind()
        );
        assert!(
            east_edge > top + 10.0,
            "{east_edge} against the top's {top}"
        );
        assert!(
            west_edge < top - 20.0,
            "{west_edge} against the top's {top}"
        );
        // Stone, not the floor: warmer than grey (red above blue) on its top.
        let i = ((40 * WIDTH + 60) * 4) as usize;
        assert!(frame[i] > frame[i + 2] + 15, "{:?}", &frame[i..i + 4]);
        assert_eq!(frame[i + 3], 255);
    }
}

#[test]
fn the_natural_look_throws_a_shadow_away_from_the_sun() {
    let look = eastern_sun();
    let mut open = Pool::new(WIDTH, HEIGHT).unwrap();
    let plain = render(&mut open, &look);
    let walled = render(&mut walled_pool(), &look);
    // Ten pixels west of the wall (away from the sun) and ten east of it, on its middle row.
    let lost = |x: u32| brightness(&plain, x, 40) - brightness(&walled, x, 40);
    let (west, east) = (lost(40), lost(79));
    eprintln!("light lost 10 px west of the wall {west:.1}, 10 px east {east:.1}");
    assert!(west > 20.0, "the shadow side lost only {west}");
    assert!(east.abs() < 1.0, "the sunny side changed by {east}");
    // A lit look has no sun and throws none; only the wall's foot is darker.
    let lit = Look::lit();
    let plain = render(&mut open, &lit);
    let walled = render(&mut walled_pool(), &lit);
    assert_eq!(brightness(&plain, 40, 40), brightness(&walled, 40, 40));
    assert!(brightness(&walled, 49, 40) < brightness(&plain, 49, 40));
}

#[test]
fn the_water_stops_at_the_wall_and_nothing_changes_without_walls() {
    let look = Look::natural();
    let mut pool = walled_pool();
    pool.drop_stone(40, 40, 6, 400).unwrap();
    let mut frames = Vec::new();
    for _ in 0..2 {
        for _ in 0..12 {
            pool.step();
        }
        frames.push(render(&mut pool, &look));
    }
    let wall_pixel = |frame: &[u8], x: u32, y: u32| {
        let i = ((y * WIDTH + x) * 4) as usize;
        frame[i..i + 4].to_vec()
    };
    let mut water_moved = false;
    for y in 30..50 {
        for x in 50..70 {
            assert_eq!(
                wall_pixel(&frames[0], x, y),
                wall_pixel(&frames[1], x, y),
                "wall pixel ({x}, {y}) moved with the water"
            );
        }
        water_moved |= wall_pixel(&frames[0], 40, y) != wall_pixel(&frames[1], 40, y);
    }
    assert!(water_moved, "the water beside the wall did move");

    // Walls cleared: exactly a pool that never had any.
    pool.obstacles_mut().clear();
    pool.calm();
    let mut never = Pool::new(WIDTH, HEIGHT).unwrap();
    for mode in RenderMode::ALL {
        let look = Look::of_kind(mode);
        assert_eq!(
            render(&mut pool, &look),
            render(&mut never, &look),
            "{mode:?}"
        );
    }
}

#[test]
fn u32_frames_get_the_same_walls() {
    let look = eastern_sun();
    let mut pool = walled_pool();
    let bytes = render(&mut pool, &look);
    let src: Vec<u32> = floor()
        .chunks_exact(4)
        .map(|p| u32::from_le_bytes([p[2], p[1], p[0], p[3]]))
        .collect();
    let mut words = vec![0u32; src.len()];
    pool.render_u32(&look, &src, &mut words).unwrap();
    for (word, rgba) in words.iter().zip(bytes.chunks_exact(4)) {
        let [b, g, r, a] = word.to_le_bytes();
        assert_eq!([r, g, b, a], rgba);
    }
}

#[test]
fn walls_at_the_edges_of_a_coarser_grid_are_stone_too() {
    // 121x79 at three pixels per cell: the last cells are partly outside the picture.
    let (width, height) = (121u32, 79u32);
    let mut pool = Pool::with_sim_scale(width, height, 3).unwrap();
    let (grid_width, grid_height) = (pool.solver().width(), pool.solver().height());
    for y in 0..i64::from(grid_height) {
        pool.obstacles_mut().set(0, y, true);
        pool.obstacles_mut().set(i64::from(grid_width) - 1, y, true);
    }
    let src = [120u8, 120, 120, 255].repeat((width * height) as usize);
    let mut frame = vec![0u8; src.len()];
    pool.render(&eastern_sun(), &src, &mut frame).unwrap();
    for (x, y) in [(0, 0), (2, 40), (width - 1, height - 1), (width - 1, 10)] {
        let i = ((y * width + x) * 4) as usize;
        assert!(
            frame[i] > frame[i + 2] + 10,
            "({x}, {y}): {:?}",
            &frame[i..i + 4]
        );
    }
}

#[test]
fn walls_put_in_the_pool_wholesale_are_drawn_afresh() {
    let look = eastern_sun();
    let mut pool = walled_pool();
    let square = render(&mut pool, &look);
    // Another mask with the same number of edits, put in the pool's place.
    let mut other = ripples::Obstacles::new(WIDTH as usize, HEIGHT as usize).unwrap();
    for y in 10..30 {
        for x in 10..30 {
            other.set(x, y, true);
        }
    }
    *pool.obstacles_mut() = other;
    let moved = render(&mut pool, &look);
    let mut fresh = Pool::new(WIDTH, HEIGHT).unwrap();
    *fresh.obstacles_mut() = pool.obstacles().clone();
    assert_ne!(moved, square);
    assert_eq!(moved, render(&mut fresh, &look));
}

#[test]
fn the_wall_layer_holds_what_the_render_draws_over_calm_water() {
    // The layer a GPU draws over its water: stone where the render has stone, the shade's
    // factor where the render darkens the floor, nothing elsewhere.
    let mut pool = walled_pool();
    let look = eastern_sun();
    let src = floor();
    let frame = render(&mut pool, &look);
    let mut calm_water = vec![0u8; src.len()];
    Pool::new(WIDTH, HEIGHT)
        .unwrap()
        .render(&look, &src, &mut calm_water)
        .unwrap();
    let mut layer = vec![0u8; src.len()];
    pool.wall_layer(&look, &mut layer).unwrap();
    let (mut walls, mut shaded) = (0, 0);
    for ((drawn, water), layer) in frame
        .chunks_exact(4)
        .zip(calm_water.chunks_exact(4))
        .zip(layer.chunks_exact(4))
    {
        let expected: Vec<u8> = match layer[3] {
            255 => {
                walls += 1;
                layer.to_vec()
            }
            128 => {
                shaded += 1;
                let kept = u32::from(layer[0]);
                water[..3]
                    .iter()
                    .map(|&c| ((u32::from(c) * kept) >> 8) as u8)
                    .chain([water[3]])
                    .collect()
            }
            0 => water.to_vec(),
            other => panic!("a layer alpha of {other}"),
        };
        assert_eq!(drawn, &expected[..]);
    }
    assert_eq!(walls, 20 * 20);
    assert!(
        shaded > 50,
        "the wall shades the floor beside it: {shaded} pixels"
    );
    // Without walls the layer is empty.
    Pool::new(WIDTH, HEIGHT)
        .unwrap()
        .wall_layer(&look, &mut layer)
        .unwrap();
    assert!(layer.iter().all(|&byte| byte == 0));
}

#[test]
fn a_pool_is_calm_until_a_stone_and_again_once_its_ring_has_gone() {
    let mut pool = Pool::new(60, 40).unwrap();
    pool.set_boundary(ripples::Boundary::Absorb);
    assert!(pool.is_calm(0.25));
    pool.drop_stone(30, 20, 5, 300).unwrap();
    assert!(!pool.is_calm(0.25));
    let mut steps = 0;
    while !pool.is_calm(0.25) && steps < 20_000 {
        pool.step();
        steps += 1;
    }
    println!("calm again after {steps} steps");
    assert!(steps < 20_000);
}
