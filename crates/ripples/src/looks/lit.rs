//! The lit look's parameters: its [`LitSettings`] turned into the [`LitLook`] its row kernel takes
//! (refraction and slope scaled by `presence`, the light's direction, the light table). The lit
//! look renders from the gradient rows of [`super::gradient`] with `kernels::lit_render_row`.

use super::*;

impl LitSettings {
    /// Writes this look into `lit`, reusing its table (no allocation).
    pub(crate) fn update_lit_look(&self, lit: &mut LitLook) {
        let angle = self.light_angle.to_radians();
        lit.refraction = self.refraction * self.presence;
        lit.slope = self.slope * self.presence;
        // Image rows grow downwards, so "up" is -y.
        lit.light = [angle.cos(), -angle.sin()];
        lit.set_light(self.shading, self.specular, self.shininess);
    }
}

/// The lit look's parameters and light table for `look`, as the kernels take them.
pub(super) fn new_lit_look(look: &LitSettings) -> LitLook {
    let mut lit = LitLook {
        refraction: 0.0,
        slope: 0.0,
        light: [1.0, 0.0],
        table: Vec::with_capacity(kernels::LIT_TABLE_SPAN + 1),
    };
    look.update_lit_look(&mut lit);
    lit
}
