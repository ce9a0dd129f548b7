//! `--loop`: an animation whose last frame flows into its first, so a looping GIF has no jump.
//!
//! Water does not come back to where it started, so the end is made to: the scene runs
//! `frames + k` frames, the heights of its first `k` frames are kept, frames `k..frames` are
//! written as rendered, and then `k` frames whose heights cross-fade from frame `frames + t` to
//! frame `t` (the weight of frame `t` growing from `1 / (k + 1)` to `k / (k + 1)`), each
//! rendered like any other. The frame after the last one is frame `k`, which follows frame
//! `k - 1` naturally. Heights are blended rather than images because waves superpose
//! linearly: a blend of two fields still looks like water, where a blend of two pictures would
//! show both, doubled. The output is a rotation of the loop (it starts at frame `k`), which a
//! loop does not mind.
//!
//! `k` is `min(30, frames / 4)`, and smaller where `k` copies of the field would take more than
//! [`MAX_KEPT_BYTES`]. The blended fields are rendered by a [`Renderer`] of this module's own,
//! so the simulation's state is never touched and runs on unchanged.

use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use ripples::{FieldView, Heights, Look, Renderer, SceneRunner, Solver};

use crate::UsageError;
use crate::render::frame_source::FrameSource;

/// Most frames cross-faded: a second at 30 fps.
pub const MAX_OVERLAP: u32 = 30;

/// Most memory the kept fields may take.
pub const MAX_KEPT_BYTES: usize = 512 << 20;

/// The frames of a seamless loop; see the module documentation.
#[derive(Debug)]
pub struct SeamlessLoop {
    runner: SceneRunner,
    /// Frames written.
    frames: u32,
    /// Frames cross-faded, `k`.
    overlap: u32,
    /// The fields of frames `0..k`.
    kept: Vec<Field>,
    /// The field of the last cross-faded frame.
    blend: Field,
    renderer: Renderer,
    look: Look,
    written: u32,
}

impl SeamlessLoop {
    /// A loop of `frames` frames over a fresh `runner`. Fewer than 4 frames leave nothing to
    /// cross-fade: a usage error.
    pub fn new(runner: SceneRunner, frames: u32) -> Result<Self> {
        if frames < 4 {
            return Err(UsageError(format!(
                "--loop needs at least 4 frames to cross-fade the end into the start, got {frames}"
            ))
            .into());
        }
        let solver = runner.pool().solver();
        let field_bytes = Field::bytes(solver).max(1);
        let overlap = MAX_OVERLAP
            .min(frames / 4)
            .min(u32::try_from(MAX_KEPT_BYTES / field_bytes).unwrap_or(u32::MAX))
            .max(1);
        let pool = runner.pool();
        Ok(Self {
            blend: Field::of(solver),
            renderer: Renderer::new(pool.width() as usize, solver.width() as usize),
            look: runner.scene().full_look(),
            kept: Vec::with_capacity(overlap as usize),
            runner,
            frames,
            overlap,
            written: 0,
        })
    }

    /// Frames cross-faded at the end.
    pub fn overlap(&self) -> u32 {
        self.overlap
    }

    /// The scene being played.
    pub fn runner(&self) -> &SceneRunner {
        &self.runner
    }

    fn render_blend(&mut self, image: &[u8], frame: &mut [u8]) -> Result<()> {
        if self.runner.pool().has_water_region() {
            // The pool draws its water region (the land untouched, the photo look in
            // perspective) for any field of its grid.
            let pool = self.runner.pool_mut();
            let view = self.blend.view(
                pool.solver().width() as usize,
                pool.solver().height() as usize,
            );
            return pool
                .render_field(view, &self.look, image, frame)
                .map_err(|error| anyhow!("rendering a cross-faded frame: {error}"));
        }
        let pool = self.runner.pool();
        let solver = pool.solver();
        let view = self
            .blend
            .view(solver.width() as usize, solver.height() as usize);
        let (source, _) = image.as_chunks::<4>();
        let (target, _) = frame.as_chunks_mut::<4>();
        self.renderer
            .render(
                view,
                pool.sim_scale(),
                &self.look,
                source,
                target,
                pool.width() as usize,
            )
            .map_err(|error| anyhow!("rendering a cross-faded frame: {error}"))
    }
}

impl FrameSource for SeamlessLoop {
    fn is_finished(&self) -> bool {
        self.written >= self.frames
    }

    fn next_frame(&mut self, image: &[u8], frame: &mut [u8]) -> Result<(Duration, Duration)> {
        let started = Instant::now();
        while self.kept.len() < self.overlap as usize {
            self.runner.advance();
            self.kept.push(Field::of(self.runner.pool().solver()));
        }
        self.runner.advance();
        let index = self.runner.frame() - 1;
        let stepped = Instant::now();
        if index < self.frames {
            self.runner.render(image, frame)?;
        } else {
            let step = (index - self.frames) as usize;
            let weight_of_start = (step + 1) as f32 / (self.overlap + 1) as f32;
            self.blend.mix(
                self.runner.pool().solver(),
                &self.kept[step],
                weight_of_start,
            );
            self.render_blend(image, frame)?;
        }
        self.written += 1;
        Ok((stepped - started, stepped.elapsed()))
    }

    fn shown_heights(&self) -> (Heights<'_>, usize, usize) {
        let solver = self.runner.pool().solver();
        let (width, height) = (solver.width() as usize, solver.height() as usize);
        if self.runner.frame() > self.frames {
            (self.blend.view(width, height).heights, width, height)
        } else {
            (solver.heights(), width, height)
        }
    }
}

/// A copy of a solver's field: what the renderer reads.
#[derive(Debug, Clone)]
enum Field {
    /// The classic solver's heights.
    Integer(Vec<i16>),
    /// The f32 solvers' heights, and the spring solver's velocities.
    Float {
        heights: Vec<f32>,
        velocities: Option<Vec<f32>>,
    },
}

impl Field {
    fn of(solver: &Solver) -> Self {
        match solver.heights() {
            Heights::I16(heights) => Self::Integer(heights.to_vec()),
            Heights::F32(heights) => Self::Float {
                heights: heights.to_vec(),
                velocities: solver.velocities().map(<[f32]>::to_vec),
            },
        }
    }

    /// Bytes a copy of `solver`'s field takes.
    fn bytes(solver: &Solver) -> usize {
        let cells = solver.width() as usize * solver.height() as usize;
        let height = match solver.heights() {
            Heights::I16(_) => 2,
            Heights::F32(_) => 4,
        };
        let velocity = if solver.velocities().is_some() { 4 } else { 0 };
        cells * (height + velocity)
    }

    /// Sets this field to `now * (1 - weight) + start * weight`, cell by cell.
    fn mix(&mut self, solver: &Solver, start: &Field, weight: f32) {
        let blend = |a: f32, b: f32| a + (b - a) * weight;
        match (self, solver.heights(), start) {
            (Self::Integer(out), Heights::I16(now), Self::Integer(start)) => {
                for ((out, &a), &b) in out.iter_mut().zip(now).zip(start) {
                    // `as` saturates; the blend lies between two i16 values anyway.
                    *out = blend(f32::from(a), f32::from(b)).round() as i16;
                }
            }
            (
                Self::Float {
                    heights: out,
                    velocities: out_velocities,
                },
                Heights::F32(now),
                Self::Float {
                    heights: start,
                    velocities: start_velocities,
                },
            ) => {
                for ((out, &a), &b) in out.iter_mut().zip(now).zip(start) {
                    *out = blend(a, b);
                }
                if let (Some(out), Some(now), Some(start)) =
                    (out_velocities, solver.velocities(), start_velocities)
                {
                    for ((out, &a), &b) in out.iter_mut().zip(now).zip(start) {
                        *out = blend(a, b);
                    }
                }
            }
            // The solver does not change kind during a render.
            _ => {}
        }
    }

    fn view(&self, width: usize, height: usize) -> FieldView<'_> {
        let (heights, velocities) = match self {
            Self::Integer(heights) => (Heights::I16(heights), None),
            Self::Float {
                heights,
                velocities,
            } => (Heights::F32(heights), velocities.as_deref()),
        };
        FieldView {
            heights,
            velocities,
            width,
            height,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ripples::{DropEvent, Scene};

    fn scene() -> Scene {
        Scene {
            frames: 1000,
            solver: ripples::SolverKind::Classic,
            drops: vec![DropEvent {
                frame: 0,
                x: 20,
                y: 12,
                radius: 4,
                strength: 300,
            }],
            ..Scene::default()
        }
    }

    /// The fields of a plain run, frame by frame.
    fn plain_fields(frames: u32) -> Vec<Vec<i16>> {
        let mut runner = SceneRunner::new(scene(), 40, 30).unwrap();
        (0..frames)
            .map(|_| {
                runner.advance();
                runner
                    .pool()
                    .solver()
                    .as_classic()
                    .unwrap()
                    .heights()
                    .to_vec()
            })
            .collect()
    }

    #[test]
    fn the_loop_starts_at_frame_k_and_ends_cross_faded_into_it() {
        let frames = 20;
        let mut seamless =
            SeamlessLoop::new(SceneRunner::new(scene(), 40, 30).unwrap(), frames).unwrap();
        let k = seamless.overlap();
        assert_eq!(k, 5, "a quarter of 20 frames");
        let image = ripples::pool_tiles(40, 30).unwrap();
        let mut frame = vec![0; image.len()];
        let plain = plain_fields(frames + k);
        let mut written = Vec::new();
        while !seamless.is_finished() {
            seamless.next_frame(&image, &mut frame).unwrap();
            let (Heights::I16(heights), 40, 30) = seamless.shown_heights() else {
                panic!("a classic 40x30 grid")
            };
            written.push(heights.to_vec());
        }
        assert_eq!(written.len(), frames as usize);
        let k = k as usize;
        // Frames k..frames as simulated, then k blends of frame frames + t with frame t.
        assert_eq!(written[0], plain[k]);
        assert_eq!(written[frames as usize - k - 1], plain[frames as usize - 1]);
        for t in 0..k {
            let weight = (t + 1) as f32 / (k + 1) as f32;
            let expected: Vec<i16> = plain[frames as usize + t]
                .iter()
                .zip(&plain[t])
                .map(|(&now, &start)| {
                    (f32::from(now) + (f32::from(start) - f32::from(now)) * weight).round() as i16
                })
                .collect();
            assert_eq!(written[frames as usize - k + t], expected, "blend {t}");
        }
        // The last frame is mostly frame k - 1, which frame k (the first) follows.
        let distance = |a: &[i16], b: &[i16]| -> i64 {
            a.iter()
                .zip(b)
                .map(|(&a, &b)| i64::from(a.abs_diff(b)))
                .sum()
        };
        let last = written.last().unwrap();
        assert!(
            distance(last, &plain[k - 1]) * 4
                < distance(&plain[frames as usize - 1], &plain[k - 1])
        );
    }

    #[test]
    fn too_short_a_loop_is_a_usage_error_and_long_ones_overlap_at_most_30_frames() {
        let runner = || SceneRunner::new(scene(), 40, 30).unwrap();
        let error = SeamlessLoop::new(runner(), 3).unwrap_err();
        assert!(error.is::<UsageError>());
        assert!(error.to_string().contains("got 3"), "{error}");
        assert_eq!(SeamlessLoop::new(runner(), 4).unwrap().overlap(), 1);
        assert_eq!(
            SeamlessLoop::new(runner(), 10_000).unwrap().overlap(),
            MAX_OVERLAP
        );
    }
}
