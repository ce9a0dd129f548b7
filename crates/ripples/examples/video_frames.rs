//! Water over a video: a new picture under the water every frame, and what that costs.
//!
//! The picture is an argument of every render, not part of the pool: nothing is derived from
//! it and kept, so a video needs no more than a buffer of its own that the decoder fills with
//! the next frame (here a picture that scrolls and changes colour, made by hand so the example
//! needs no decoder). This times a frame (step and render) over the same picture every frame
//! and over a new one every frame, interleaved, and prints both and their ratio: about 1, since
//! the renderer does the same work either way. Filling the buffer is timed apart (a decoder's
//! share of the frame, which the command `ripples render clip.mp4` runs on a thread of its own).
//!
//! ```text
//! cargo run --release -p ripples --example video_frames -- [WIDTHxHEIGHT] [FRAMES]
//! ```

use std::time::{Duration, Instant};

use ripples::{Look, Pool, Rain};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (width, height) = match args.next() {
        Some(size) => {
            let (width, height) = size.split_once('x').ok_or("size as WIDTHxHEIGHT")?;
            (width.parse()?, height.parse()?)
        }
        None => (1280u32, 720u32),
    };
    let frames: usize = args.next().map_or(Ok(60), |text| text.parse())?;
    let tiles = ripples::pool_tiles(width, height)?;
    // The decoder's buffer, reused for every frame: after this line the loop allocates nothing.
    let mut picture = tiles.clone();
    let mut frame = vec![0u8; tiles.len()];
    let look = Look::natural();

    let mut same = Vec::new();
    let mut changing = Vec::new();
    let mut filling = Duration::ZERO;
    for repetition in 0..5 {
        // The same water for both, from the same seed.
        let mut pools = [Pool::new(width, height)?, Pool::new(width, height)?];
        let mut rains = [Rain::new(7).with_rate(2.0)?, Rain::new(7).with_rate(2.0)?];
        let mut times = [Duration::ZERO; 2];
        for index in 0..frames {
            // Each goes first every other frame, so neither always finds the caches warm.
            let order = if index % 2 == 0 { [0, 1] } else { [1, 0] };
            for which in order {
                let (pool, rain) = (&mut pools[which], &mut rains[which]);
                for stone in rain.stones(width, height) {
                    pool.drop(stone)?;
                }
                let source = if which == 0 {
                    &tiles
                } else {
                    let started = Instant::now();
                    next_picture(&tiles, width as usize, index, &mut picture);
                    filling += started.elapsed();
                    &picture
                };
                let started = Instant::now();
                pool.step_and_render(&look, source, &mut frame)?;
                times[which] += started.elapsed();
            }
        }
        let per_frame = |total: Duration| total.as_secs_f64() * 1e3 / frames as f64;
        if repetition > 0 {
            // The first repetition warms up the caches and the threads.
            same.push(per_frame(times[0]));
            changing.push(per_frame(times[1]));
        }
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let (same, changing) = (median(&mut same), median(&mut changing));
    println!("{width}x{height}, natural look, {frames} frames, median of 4 repetitions:");
    println!("  the same picture every frame: {same:.2} ms per frame (step and render)");
    println!("  a new picture every frame:    {changing:.2} ms per frame (step and render)");
    println!("  ratio {:.3}", changing / same);
    println!(
        "  filling the picture (the decoder's part here): {:.2} ms per frame",
        filling.as_secs_f64() * 1e3 / (5 * frames) as f64
    );
    Ok(())
}

/// Frame `index` of a moving picture, written into `picture` in place: the tiles scrolled
/// sideways by two pixels a frame, their red rising with time.
fn next_picture(tiles: &[u8], width: usize, index: usize, picture: &mut [u8]) {
    let shift = index * 2 % width;
    let red = (index * 3) as u8;
    for (row, source) in picture
        .chunks_exact_mut(width * 4)
        .zip(tiles.chunks_exact(width * 4))
    {
        row[..(width - shift) * 4].copy_from_slice(&source[shift * 4..]);
        row[(width - shift) * 4..].copy_from_slice(&source[..shift * 4]);
        for pixel in row.chunks_exact_mut(4) {
            pixel[0] = pixel[0].saturating_add(red);
        }
    }
}
