//! The GPU's interface: the constants a look's shaders read, as one named struct.
//!
//! The page draws the water with WebGL2 shaders (`web/gl/shaders.js`) from the same numbers
//! the CPU's kernels use, computed here once ([`ShaderConstants::new`]) so the two share their
//! arithmetic. The shaders take them as one `uniform float u_c[SHADER_CONSTANTS]`, so the
//! struct is flattened for upload in one place ([`ShaderConstants::flatten`], in field order),
//! and the shaders never index `u_c` by hand: they read the `C_*` names that
//! [`ShaderConstants::glsl_defines`] writes from the same field list (`C_REFRACTION` is
//! `u_c[0]`, `C_LIGHT` is `vec2(u_c[2], u_c[3])`). A test reads `shaders.js` and fails unless its
//! block of `#define`s is exactly the generated one and no `u_c[n]` is used outside it, so a
//! field moved or added here cannot silently make the GPU draw something else.
//!
//! The struct, its field list and the flattening are made by one macro from one list of fields,
//! so they cannot disagree either.

use super::LookSettings;
use crate::kernels::natural::PixelOrder;

/// A field of [`ShaderConstants`]: one float or a few.
trait Floats {
    /// How many floats it holds.
    const LEN: usize;
    /// Writes them at the start of `out`.
    fn write(&self, out: &mut [f32]);
}

impl Floats for f32 {
    const LEN: usize = 1;
    fn write(&self, out: &mut [f32]) {
        out[0] = *self;
    }
}

impl<const N: usize> Floats for [f32; N] {
    const LEN: usize = N;
    fn write(&self, out: &mut [f32]) {
        out[..N].copy_from_slice(self);
    }
}

/// Declares [`ShaderConstants`], its [`FIELDS`](ShaderConstants::FIELDS) and its
/// [`flatten`](ShaderConstants::flatten) from one list of fields.
macro_rules! shader_constants {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty,)*) => {
        /// The constants a look's shaders read (the GLSL names come from their fields), in the order
        /// they are uploaded.
        #[repr(C)]
        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        pub struct ShaderConstants {
            $($(#[doc = $doc])* pub $field: $ty,)*
        }

        impl ShaderConstants {
            /// Each field's name and how many floats it holds, in upload order.
            pub const FIELDS: &'static [(&'static str, usize)] =
                &[$((stringify!($field), <$ty as Floats>::LEN),)*];

            /// The fields one after another, as the shaders' `u_c` holds them.
            pub fn flatten(&self) -> [f32; SHADER_CONSTANTS] {
                let mut out = [0.0; SHADER_CONSTANTS];
                let mut at = 0;
                $(
                    Floats::write(&self.$field, &mut out[at..]);
                    at += <$ty as Floats>::LEN;
                )*
                debug_assert_eq!(at, SHADER_CONSTANTS);
                out
            }
        }
    };
}

shader_constants! {
    /// The lit look's pixels of displacement per unit of height difference, times `presence`.
    refraction: f32,
    /// The lit look's surface slope per unit of height difference, times `presence`.
    slope: f32,
    /// Towards the light, `(x, y)`, a unit vector (image rows grow down).
    light: [f32; 2],
    /// Diffuse light strength.
    shading: f32,
    /// Specular highlight strength.
    specular: f32,
    /// Specular exponent.
    shininess: f32,
    /// The spring look's displacement per unit of height difference, times `presence`.
    spring_refraction: f32,
    /// The spring look's transparency per velocity squared.
    spring_transparency: f32,
    /// Natural look (see the `natural` row kernel's pseudo-code): the floor's depth in pixels.
    depth: f32,
    /// Natural look: air's refractive index over water's.
    eta: f32,
    /// Natural look: `eta * eta`.
    eta_squared: f32,
    /// Natural look: `1 - eta * eta`.
    eta_complement: f32,
    /// Natural look: the caustics' strength.
    caustics: f32,
    /// Natural look: the sun's direction mirrored by flat water.
    sun_mirror: [f32; 3],
    /// Natural look: the sun's height (the z of its unit vector).
    sun_z: f32,
    /// Natural look: the light kept by the path through the water at rest, per channel.
    transmittance: [f32; 3],
    /// Natural look: the sun's glint colour, per channel.
    glint: [f32; 3],
    /// Natural look: how far each channel's refraction spreads from green (dispersion).
    channel_spread: [f32; 3],
    /// Natural look: 1 when dispersion is on, else 0.
    dispersive: f32,
    /// Natural look: Fresnel's reflectance head on.
    fresnel_head_on: f32,
    /// Natural look: the smallest glint drawn.
    glint_floor: f32,
    /// Natural look: the sky table's side, in texels.
    sky_side: f32,
    /// Natural look: the caustics' clamp (the largest focus).
    caustic_max: f32,
    /// Natural look: the slope gate of the glints.
    gate_slope: f32,
    /// Natural look: the focus gate of the glints.
    gate_focus: f32,
}

/// How many floats [`ShaderConstants::flatten`] gives (the length of the shaders' `u_c`).
pub const SHADER_CONSTANTS: usize = {
    let mut total = 0;
    let mut i = 0;
    while i < ShaderConstants::FIELDS.len() {
        total += ShaderConstants::FIELDS[i].1;
        i += 1;
    }
    total
};

// `repr(C)` with only `f32`s: the struct is the flattened array, field for float.
const _: () = assert!(std::mem::size_of::<ShaderConstants>() == 4 * SHADER_CONSTANTS);

impl ShaderConstants {
    /// The constants to draw any of `looks` at `scale` pixels per cell (each look's
    /// constants from its kept numbers).
    pub fn new(looks: &LookSettings, scale: u32) -> Self {
        use super::parameters::{SHADING, SHININESS, SPECULAR};
        use crate::kernels::natural::{
            CAUSTIC_MAX, FRESNEL_HEAD_ON, GLINT_FLOOR, NaturalLook, SKY_SIDE,
        };
        let (lit, spring) = (&looks.lit, &looks.spring);
        let angle = lit.light_angle.to_radians();
        let natural = NaturalLook::new(&looks.natural, scale, PixelOrder::Rgba);
        Self {
            refraction: lit.refraction * lit.presence,
            slope: lit.slope * lit.presence,
            light: [angle.cos(), -angle.sin()],
            shading: lit.shading.clamp(SHADING.min, SHADING.max),
            specular: lit.specular.clamp(SPECULAR.min, SPECULAR.max),
            shininess: lit.shininess.max(SHININESS.min),
            spring_refraction: spring.refraction * spring.presence,
            spring_transparency: spring.transparency,
            depth: natural.depth,
            eta: natural.eta,
            eta_squared: natural.eta_squared,
            eta_complement: natural.eta_complement,
            caustics: natural.caustics,
            sun_mirror: natural.sun_mirror,
            sun_z: natural.sun[2],
            transmittance: natural.transmittance,
            glint: natural.glint,
            channel_spread: natural.channel_spread,
            dispersive: f32::from(u8::from(natural.dispersive)),
            fresnel_head_on: FRESNEL_HEAD_ON,
            glint_floor: GLINT_FLOOR,
            sky_side: SKY_SIDE as f32,
            caustic_max: CAUSTIC_MAX,
            gate_slope: natural.gate_slope,
            gate_focus: natural.gate_focus,
        }
    }

    /// The GLSL `#define`s that name each field in the shaders' `uniform float u_c[]`:
    /// `#define C_REFRACTION u_c[0]`, `#define C_LIGHT vec2(u_c[2], u_c[3])`, one line each.
    pub fn glsl_defines() -> String {
        let mut out = String::new();
        let mut at = 0;
        for &(name, len) in Self::FIELDS {
            let floats: Vec<String> = (at..at + len).map(|i| format!("u_c[{i}]")).collect();
            let value = match len {
                1 => floats[0].clone(),
                _ => format!("vec{len}({})", floats.join(", ")),
            };
            out.push_str(&format!("#define C_{} {value}\n", name.to_uppercase()));
            at += len;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `web/gl/shaders.js`, or `None` in a packaged crate.
    fn shaders() -> Option<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/gl/shaders.js");
        let text = std::fs::read_to_string(path).ok();
        if text.is_none() {
            eprintln!("notice: no web/gl/shaders.js beside this crate: nothing to check");
        }
        text
    }

    /// What is wrong with `shaders` as a reader of [`ShaderConstants`].
    fn problems(shaders: &str) -> Vec<String> {
        let mut found = Vec::new();
        let uniform = format!("uniform float u_c[{SHADER_CONSTANTS}];");
        if !shaders.contains(&uniform) {
            found.push(format!("no `{uniform}`"));
        }
        let defines = ShaderConstants::glsl_defines();
        let Some(at) = shaders.find("#define C_") else {
            found.push("no #define C_ block".to_string());
            return found;
        };
        let end = shaders[at..]
            .find("\n\n")
            .map_or(shaders.len(), |end| at + end + 1);
        if shaders[at..end] != defines {
            found.push(format!(
                "its #defines are\n{}\nnot ShaderConstants::glsl_defines():\n{defines}",
                &shaders[at..end]
            ));
        }
        let outside = format!("{}{}", &shaders[..at], &shaders[end..]);
        for (number, line) in outside.lines().enumerate() {
            if line.contains("u_c[") && !line.contains(&uniform) {
                found.push(format!("line {}: u_c[n] by hand: {line}", number + 1));
            }
        }
        found
    }

    #[test]
    fn the_shaders_name_each_constant_as_the_struct_does() {
        let Some(shaders) = shaders() else { return };
        let found = problems(&shaders);
        assert!(found.is_empty(), "web/gl/shaders.js:\n{}", found.join("\n"));
    }

    #[test]
    fn a_constant_read_by_hand_or_moved_fails() {
        let Some(shaders) = shaders() else { return };
        let by_hand = shaders.replacen("C_SHADING;", "u_c[4];", 1);
        assert_ne!(by_hand, shaders, "shaders.js reads C_SHADING");
        assert!(problems(&by_hand).iter().any(|p| p.contains("by hand")));
        let moved = shaders.replacen("#define C_SLOPE u_c[1]", "#define C_SLOPE u_c[2]", 1);
        assert_ne!(moved, shaders);
        assert!(problems(&moved).iter().any(|p| p.contains("glsl_defines")));
    }

    #[test]
    fn the_struct_flattens_field_by_field() {
        let constants = ShaderConstants::new(&LookSettings::default(), 2);
        let flat = constants.flatten();
        assert_eq!(flat.len(), 34);
        assert_eq!(flat[2..4], constants.light);
        assert_eq!(flat[14..17], constants.sun_mirror);
        assert_eq!(flat[17], constants.sun_z);
        assert_eq!(flat[33], constants.gate_focus);
        assert!(ShaderConstants::glsl_defines().contains("#define C_SUN_Z u_c[17]\n"));
        assert!(
            ShaderConstants::glsl_defines()
                .contains("#define C_GLINT vec3(u_c[21], u_c[22], u_c[23])\n")
        );
    }
}
