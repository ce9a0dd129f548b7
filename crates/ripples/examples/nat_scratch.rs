// Scratch timing (not committed): renders the natural look N times on one thread.
use ripples::{Look, Pool, SolverKind};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let backend: ripples::Backend = args
        .get(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(ripples::Backend::detect());
    let frames: usize = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(20);
    let calm = args.get(3).map(|s| s == "calm").unwrap_or(false);
    let scale: u32 = args.get(4).map(|s| s.parse().unwrap()).unwrap_or(1);
    ripples::set_backend(backend).unwrap();
    let (w, h) = (1920u32, 1080u32);
    let mut pool = Pool::with_sim_scale(w, h, scale).unwrap();
    pool.set_solver(SolverKind::Wave).unwrap();
    let mut state = 12345u32;
    let mut next = || {
        let mut v = state;
        v ^= v << 13;
        v ^= v >> 17;
        v ^= v << 5;
        state = v;
        v
    };
    if !calm {
        let mut stone = |pool: &mut Pool| {
            let x = next() % w;
            let y = next() % h;
            let r = 1 + next() % 8;
            let st = 32 + next() % 97;
            pool.drop_stone(x as i32, y as i32, r, st as i16).unwrap();
        };
        for _ in 0..(w * h / 256 + 1) {
            stone(&mut pool);
        }
        for _ in 0..16 {
            stone(&mut pool);
            pool.step();
        }
    }
    if let ripples::Heights::F32(h) = pool.solver().heights() {
        let sub = h.iter().filter(|v| v.is_subnormal()).count();
        let tiny = h.iter().filter(|v| v.abs() < 1e-15 && **v != 0.0).count();
        let zero = h.iter().filter(|v| **v == 0.0).count();
        let max = h.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        eprintln!(
            "subnormal {sub}, tiny {tiny}, zero {zero} of {}, max {max}",
            h.len()
        );
    }
    let floor = ripples::pool_tiles(w, h).unwrap();
    let mut frame = vec![0u8; floor.len()];
    let mut look = Look::natural();
    if let Some(d) = args.get(5) {
        look.depth = d.parse().unwrap();
    }
    if let Some(c) = args.get(6) {
        look.caustics = c.parse().unwrap();
    }
    let mut best = f64::MAX;
    for _ in 0..frames {
        let t = std::time::Instant::now();
        pool.render(&look, &floor, &mut frame).unwrap();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{backend} {} best {:.3} ns/px",
        if calm { "calm" } else { "turbulent" },
        best * 1e9 / (w * h) as f64
    );
}
