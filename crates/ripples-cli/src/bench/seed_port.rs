//! The yardstick: the GameRes article's two loops, ported as plainly as they were written.
//!
//! `ripplespread` and `renderripple` in the article walk the whole frame with one running index
//! `k` and reach the neighbours by adding and subtracting 1 and the width; there are no row
//! kernels, no SIMD, no threads. This port keeps that shape (one function per loop, index
//! arithmetic, bounds-checked indexing, one pixel copied at a time) so the ratio the benchmark
//! reports is "what a straightforward translation of the seed does" against Ripples, on the
//! same machine and field. It does take this project's exact semantics, so the two can be
//! compared bit for bit (a test does): the sum saturates to `i16` instead of wrapping, border
//! cells are never written, and the render clamps displaced coordinates into the image and
//! copies the source in the border rows and columns, where the article skipped out-of-range
//! pixels.

use ripples::{ClassicSolver, WaterSolver};

/// The seed's two buffers: `buf1` is the field now, `buf2` the field one step ago.
#[derive(Debug, Clone)]
pub struct SeedRipple {
    width: usize,
    height: usize,
    damping_shift: u32,
    buf1: Vec<i16>,
    buf2: Vec<i16>,
}

impl SeedRipple {
    /// A copy of a classic solver's state (both fields and the damping shift).
    pub fn from_classic(solver: &ClassicSolver) -> Self {
        Self {
            width: solver.width() as usize,
            height: solver.height() as usize,
            damping_shift: solver.damping_shift(),
            buf1: solver.heights().to_vec(),
            buf2: solver.previous_heights().to_vec(),
        }
    }

    /// The field now, row-major.
    pub fn heights(&self) -> &[i16] {
        &self.buf1
    }

    /// The article's `ripplespread`: every interior cell from its four neighbours, then the
    /// buffers swap.
    pub fn spread(&mut self) {
        let (w, h) = (self.width, self.height);
        if w >= 3 && h >= 3 {
            let (buf1, buf2) = (&self.buf1, &mut self.buf2);
            for y in 1..h - 1 {
                for i in y * w + 1..(y + 1) * w - 1 {
                    let sum = i32::from(buf1[i - 1])
                        + i32::from(buf1[i + 1])
                        + i32::from(buf1[i - w])
                        + i32::from(buf1[i + w]);
                    let mut v = (sum >> 1) - i32::from(buf2[i]);
                    v -= v >> self.damping_shift;
                    buf2[i] = v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
                }
            }
        }
        std::mem::swap(&mut self.buf1, &mut self.buf2);
    }

    /// The article's `renderripple`: each pixel of `dst` copies the pixel of `src` displaced by
    /// the height differences around it (`src`, `dst`: RGBA bytes, 4 per pixel).
    pub fn render(&self, src: &[u8], dst: &mut [u8]) {
        const DEPTH: usize = 4;
        let (w, h) = (self.width, self.height);
        let buf1 = &self.buf1;
        let mut k = 0;
        for i in 0..h {
            for j in 0..w {
                let (mut sx, mut sy) = (j, i);
                if i > 0 && i + 1 < h && j > 0 && j + 1 < w {
                    let xoff = i32::from(buf1[k - 1]) - i32::from(buf1[k + 1]);
                    let yoff = i32::from(buf1[k - w]) - i32::from(buf1[k + w]);
                    sx = (j as i32 + xoff).clamp(0, w as i32 - 1) as usize;
                    sy = (i as i32 + yoff).clamp(0, h as i32 - 1) as usize;
                }
                let pos1 = (sy * w + sx) * DEPTH;
                let pos2 = k * DEPTH;
                dst[pos2..pos2 + DEPTH].copy_from_slice(&src[pos1..pos1 + DEPTH]);
                k += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::turbulent_pool;
    use ripples::{Heights, Look, SolverKind};

    #[test]
    fn the_seed_port_matches_the_classic_solver_and_look_bit_for_bit() {
        for (width, height) in [(61, 47), (3, 3), (2, 9), (9, 1)] {
            let mut pool = turbulent_pool(width, height, 1, SolverKind::Classic).unwrap();
            let mut seed = SeedRipple::from_classic(pool.solver().as_classic().unwrap());
            let src = ripples::pool_tiles(width, height).unwrap();
            let (mut expected, mut got) = (vec![0u8; src.len()], vec![1u8; src.len()]);
            for frame in 0..20 {
                pool.step();
                pool.render(&Look::classic(), &src, &mut expected).unwrap();
                seed.spread();
                seed.render(&src, &mut got);
                let Heights::I16(heights) = pool.solver().heights() else {
                    panic!("classic heights are i16");
                };
                assert_eq!(seed.heights(), heights, "{width}x{height}, frame {frame}");
                assert_eq!(got, expected, "{width}x{height}, frame {frame}");
            }
            if width > 8 && height > 8 {
                assert_ne!(expected, src, "the water must displace something");
            }
        }
    }

    #[test]
    fn the_seed_port_clamps_huge_offsets_and_saturates() {
        let mut solver = ClassicSolver::new(5, 5).unwrap();
        {
            let ripples::Fields { current, previous } = solver.fields_mut();
            current[11] = i16::MAX; // left of the centre: a huge +x offset
            current[7] = i16::MIN; // above: a huge -y offset
            current[13] = i16::MAX;
            current[17] = i16::MAX;
            previous[12] = i16::MIN;
        }
        let mut seed = SeedRipple::from_classic(&solver);
        let src: Vec<u8> = (0..100).collect();
        let (mut expected, mut got) = (vec![0u8; 100], vec![0u8; 100]);
        let mut pool = ripples::Pool::new(5, 5).unwrap();
        pool.set_solver(SolverKind::Classic).unwrap();
        *pool.solver_mut().as_classic_mut().unwrap() = solver.clone();
        pool.render(&Look::classic(), &src, &mut expected).unwrap();
        seed.render(&src, &mut got);
        assert_eq!(got, expected);
        solver.step_without_walls();
        seed.spread();
        assert_eq!(seed.heights(), solver.heights());
        assert_eq!(seed.heights()[12], i16::MAX);
    }
}
