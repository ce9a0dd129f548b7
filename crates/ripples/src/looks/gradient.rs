//! The rows the gradient looks (classic, lit and spring) render from: the surface gradient of
//! each image row, from the grid directly at a simulation scale of 1, or from the two grid rows
//! around it upsampled along x once per strip and blended, at a coarser scale; then the look's
//! row kernel ([`crate::kernels`]): `resampled_classic_row`, `lit_render_row` or
//! `spring_render_row`. The natural look has its own rows ([`super::natural`]).

use super::*;

impl FrameJob<'_> {
    /// Renders image row `y` with the strip's scratch rows.
    pub(super) fn render_row(&self, y: usize, dst_row: &mut [[u8; 4]], scratch: &mut StripScratch) {
        let (field, scale) = (self.field, self.scale);
        let velocities = field
            .velocities
            .filter(|v| self.mode == RenderMode::Spring && v.len() == field.width * field.height);
        let StripScratch {
            gradient_x,
            gradient_y,
            velocity,
            grid_gradient,
            upsampled,
            ..
        } = scratch;
        // At scale 1 the velocity row is the field's own; otherwise it is upsampled below.
        let mut velocity_row = velocities
            .filter(|_| scale == 1)
            .map(|v| &v[y * self.image_width..(y + 1) * self.image_width]);
        if scale == 1 {
            fill_gradient_row(field, y, gradient_x, gradient_y);
        } else {
            // Bilinear, as `kernels::gradient_row_scaled` states it: each of the two grid rows
            // around the image row upsampled along x (once per strip: the rows below reuse
            // them), then the two blended.
            let v = ((y as f32 + 0.5) / scale as f32 - 0.5).clamp(0.0, (field.height - 1) as f32);
            let row_above = v as usize;
            let row_below = (row_above + 1).min(field.height - 1);
            let weight_below = v - row_above as f32;
            if upsampled[0].grid_row != row_above && upsampled[1].grid_row == row_above {
                upsampled.swap(0, 1);
            }
            for (slot, grid_row) in upsampled.iter_mut().zip([row_above, row_below]) {
                if slot.grid_row != grid_row {
                    self.upsample_grid_row(grid_row, velocities, grid_gradient, slot);
                }
            }
            let [above, below] = &*upsampled;
            if self.mode == RenderMode::Classic {
                // The classic look blends as it renders: no gradient rows written and read back.
                let gradient_x = BlendedRow {
                    top: &above.gradient_x,
                    bottom: &below.gradient_x,
                    weight: weight_below,
                };
                let gradient_y = BlendedRow {
                    top: &above.gradient_y,
                    bottom: &below.gradient_y,
                    weight: weight_below,
                };
                let source = SourceRow {
                    src: self.src,
                    y,
                    height: self.image_height,
                };
                kernels::resampled_classic_blended_row(
                    self.backend,
                    source,
                    [gradient_x, gradient_y],
                    dst_row,
                );
                return;
            }
            let blend = |top: &[f32], bottom: &[f32], out: &mut [f32]| {
                kernels::f32_rows::lerp_rows(self.backend, top, bottom, weight_below, out);
            };
            blend(&above.gradient_x, &below.gradient_x, gradient_x);
            blend(&above.gradient_y, &below.gradient_y, gradient_y);
            if velocities.is_some() {
                blend(&above.velocity, &below.velocity, velocity);
                velocity_row = Some(velocity);
            }
        }
        let (src, height) = (self.src, self.image_height);
        let source = SourceRow { src, y, height };
        match self.look {
            Look::Classic(_) => kernels::resampled_classic_row(
                self.backend,
                source,
                [gradient_x, gradient_y],
                dst_row,
            ),
            Look::Lit(_) => kernels::lit_render_row(
                self.backend,
                source,
                [gradient_x, gradient_y],
                dst_row,
                self.lit,
            ),
            // Rendered by `natural::NaturalRenderer` instead.
            Look::Natural(_) => {}
            Look::Spring(spring) => kernels::spring_render_row(
                y,
                height,
                gradient_x,
                gradient_y,
                velocity_row,
                src,
                dst_row,
                spring.refraction * spring.presence,
                spring.transparency,
            ),
        }
    }
}

impl FrameJob<'_> {
    /// Fills `slot` with grid row `grid_row`'s gradient (and velocity, when the look uses it)
    /// upsampled along x.
    fn upsample_grid_row(
        &self,
        grid_row: usize,
        velocities: Option<&[f32]>,
        [grid_x, grid_y]: &mut [Vec<f32>; 2],
        slot: &mut UpsampledRow,
    ) {
        let (field, backend, columns) = (self.field, self.backend, self.columns);
        fill_gradient_row(field, grid_row, grid_x, grid_y);
        kernels::upsample_row(backend, grid_x, columns, &mut slot.gradient_x);
        kernels::upsample_row(backend, grid_y, columns, &mut slot.gradient_y);
        if let Some(v) = velocities {
            let cells = grid_row * field.width..(grid_row + 1) * field.width;
            kernels::upsample_row(backend, &v[cells], columns, &mut slot.velocity);
        }
        slot.grid_row = grid_row;
    }
}

/// Gradient of grid row `y`, zero on border rows (border cells have no gradient).
pub(super) fn fill_gradient_row(field: FieldView<'_>, y: usize, gx: &mut [f32], gy: &mut [f32]) {
    let width = field.width;
    if y == 0 || y + 1 >= field.height {
        gx.fill(0.0);
        gy.fill(0.0);
        return;
    }
    let rows = (y - 1) * width..y * width;
    let (above, row, below) = (
        rows.clone(),
        rows.start + width..rows.end + width,
        rows.start + 2 * width..rows.end + 2 * width,
    );
    match field.heights {
        Heights::I16(h) => kernels::gradient_row(&h[above], &h[row], &h[below], gx, gy),
        Heights::F32(h) => kernels::gradient_row(&h[above], &h[row], &h[below], gx, gy),
    }
}
