//! The typed look: which look to draw, carrying the numbers that look reads and no others.
//!
//! Each look has its own settings struct ([`NaturalSettings`], [`LitSettings`],
//! [`ClassicSettings`], [`SpringSettings`]) whose defaults and checks come from the one table of
//! ranges, [`super::parameters`]; a [`Look`] is one of them, so a renderer matches on the look
//! and reads only numbers that mean something for it. A front end that lets a user switch looks
//! (the command's `--render`, a scene's `render` key, the window's `L` key, the page's `look`
//! option) keeps every look's numbers in one [`LookSettings`] and asks it for the look it
//! shows ([`LookSettings::look`]), so switching away and back keeps what the user set. A scene
//! file's flat `[look]` table is read into a [`LookSettings`], key for key as before.

use super::RenderMode;
use super::parameters as p;
use crate::error::Error;

/// The natural look's numbers: the image is the floor of a pool seen through real water.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NaturalSettings {
    /// How much the water shows, `0..=8`: scales `wave_height` (and so the refraction,
    /// caustics, sky reflection and glints together); in perspective, the photo look's wave
    /// height ([`crate::PhotoLook::with_presence`]). 0 is the picture unmoved, 1 the default.
    pub presence: f32,
    /// Depth of the floor (the image) under the water at rest, in pixels, `0..=1024`. Deeper
    /// water bends the view more and spreads the caustics.
    pub depth: f32,
    /// Strength of the caustics, `0..=4` (0 = none, 1 = the physical ratio of areas).
    pub caustics: f32,
    /// The sun's height above the horizon in degrees, `1..=90` (90 = overhead).
    pub sun_elevation: f32,
    /// The sun's direction in degrees, counter-clockwise from the image's +x axis (90 = from
    /// the top of the image), `-360..=360`.
    pub sun_azimuth: f32,
    /// The colour (RGB bytes) white light takes after `clarity` pixels of water; light is
    /// absorbed per channel by Beer-Lambert's law over its path (down to the floor along the
    /// refracted sunlight, and back up). The default, white, absorbs nothing, so calm water is
    /// the picture itself; a colour tints calm water too (the built-in pool tiles look like a
    /// pool with `[190, 230, 225]`, a pale green-blue).
    pub water_colour: [u8; 3],
    /// Pixels of water after which white light has `water_colour`, `1..=1000000`; larger is
    /// clearer water.
    pub clarity: f32,
    /// Pixels of surface height per unit of the field's height, `0..=16` (taller waves bend
    /// and focus light more).
    pub wave_height: f32,
    /// Chromatic dispersion in units of water's own, `0..=50`. 0 (the default) refracts every
    /// colour alike; 1 is water's (red 1.3311, blue 1.3371), too slight to see at ordinary
    /// depths; 10 to 30 part a refracted edge into coloured fringes, as a prism does. Above 0
    /// it samples the floor three times per pixel (two more reads, each about a third of the
    /// render's time).
    pub dispersion: f32,
}

/// The lit look's numbers: refraction with bilinear sampling, diffuse light and a specular
/// highlight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LitSettings {
    /// How much the water shows, `0..=8`: scales `refraction` and `slope`.
    pub presence: f32,
    /// Pixels of displacement per unit of height difference.
    pub refraction: f32,
    /// Slope of the surface per unit of height difference, for lighting.
    pub slope: f32,
    /// Diffuse light strength: slopes facing the light brighten, the others darken.
    pub shading: f32,
    /// Specular highlight strength (1 = full white at the brightest).
    pub specular: f32,
    /// Specular exponent: higher is a smaller, sharper highlight.
    pub shininess: f32,
    /// Direction towards the light in degrees, counter-clockwise from the image's +x axis
    /// (90 = from the top of the image).
    pub light_angle: f32,
}

/// The classic look's numbers. The classic look itself reads none (it is the seeds' exact
/// contract: each pixel taken, unlit, from the nearest pixel the slope points to); `presence`
/// is kept for water in perspective, which the photo look draws whatever the look, its waves
/// scaled by it ([`crate::PhotoLook::with_presence`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassicSettings {
    /// In perspective, the photo look's wave height scale, `0..=8`; the classic look ignores it.
    pub presence: f32,
}

/// The spring look's numbers: nearest-pixel refraction, and transparency from the velocity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpringSettings {
    /// How much the water shows, `0..=8`: scales `refraction`.
    pub presence: f32,
    /// Pixels of displacement per unit of height difference (the reference code's `zz`, -1.9
    /// in its units; scaled here to stones of depth 32..128). A scene's `spring_refraction`.
    pub refraction: f32,
    /// Alpha drops by `255 * transparency * velocity^2` (the reference code's 0.15, scaled to
    /// the velocities of stones of depth 32..128). A scene's `spring_transparency`.
    pub transparency: f32,
}

impl Default for NaturalSettings {
    /// Every number at its [`parameters`](super::parameters) default; white water.
    fn default() -> Self {
        Self {
            presence: p::PRESENCE.default,
            depth: p::DEPTH.default,
            caustics: p::CAUSTICS.default,
            sun_elevation: p::SUN_ELEVATION.default,
            sun_azimuth: p::SUN_AZIMUTH.default,
            water_colour: [255, 255, 255],
            clarity: p::CLARITY.default,
            wave_height: p::WAVE_HEIGHT.default,
            dispersion: p::DISPERSION.default,
        }
    }
}

impl Default for LitSettings {
    /// Every number at its [`parameters`](super::parameters) default.
    fn default() -> Self {
        Self {
            presence: p::PRESENCE.default,
            refraction: p::REFRACTION.default,
            slope: p::SLOPE.default,
            shading: p::SHADING.default,
            specular: p::SPECULAR.default,
            shininess: p::SHININESS.default,
            light_angle: p::LIGHT_ANGLE.default,
        }
    }
}

impl Default for ClassicSettings {
    fn default() -> Self {
        Self {
            presence: p::PRESENCE.default,
        }
    }
}

impl Default for SpringSettings {
    /// Every number at its [`parameters`](super::parameters) default.
    fn default() -> Self {
        Self {
            presence: p::PRESENCE.default,
            refraction: p::SPRING_REFRACTION.default,
            transparency: p::SPRING_TRANSPARENCY.default,
        }
    }
}

/// Checks each `(parameter, value)` in turn, naming the first one out of range.
fn check_all<const N: usize>(checks: [(p::Parameter, f32); N]) -> Result<(), Error> {
    for (parameter, value) in checks {
        parameter.check(value)?;
    }
    Ok(())
}

impl NaturalSettings {
    /// Checks every number, naming the first one out of range.
    pub fn validate(&self) -> Result<(), Error> {
        check_all([
            (p::PRESENCE, self.presence),
            (p::DEPTH, self.depth),
            (p::CAUSTICS, self.caustics),
            (p::SUN_ELEVATION, self.sun_elevation),
            (p::SUN_AZIMUTH, self.sun_azimuth),
            (p::CLARITY, self.clarity),
            (p::WAVE_HEIGHT, self.wave_height),
            (p::DISPERSION, self.dispersion),
        ])
    }
}

impl LitSettings {
    /// Checks every number, naming the first one out of range.
    pub fn validate(&self) -> Result<(), Error> {
        check_all([
            (p::PRESENCE, self.presence),
            (p::REFRACTION, self.refraction),
            (p::SLOPE, self.slope),
            (p::SHADING, self.shading),
            (p::SPECULAR, self.specular),
            (p::SHININESS, self.shininess),
            (p::LIGHT_ANGLE, self.light_angle),
        ])
    }
}

impl ClassicSettings {
    /// Checks `presence`.
    pub fn validate(&self) -> Result<(), Error> {
        check_all([(p::PRESENCE, self.presence)])
    }
}

impl SpringSettings {
    /// Checks every number, naming the first one out of range.
    pub fn validate(&self) -> Result<(), Error> {
        check_all([
            (p::PRESENCE, self.presence),
            (p::SPRING_REFRACTION, self.refraction),
            (p::SPRING_TRANSPARENCY, self.transparency),
        ])
    }
}

/// How the water looks: one of the looks, with that look's numbers.
///
/// ```
/// use ripples::{Look, NaturalSettings, RenderMode};
///
/// let look = Look::Natural(NaturalSettings { depth: 32.0, sun_elevation: 45.0, ..Default::default() });
/// assert_eq!(look.kind(), RenderMode::Natural);
/// assert!(look.validate().is_ok());
/// assert_eq!(Look::classic().kind(), RenderMode::Classic);
/// assert_eq!(Look::default(), Look::natural());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Look {
    /// Water as it looks ([`RenderMode::Natural`], the default).
    Natural(NaturalSettings),
    /// Refraction lit by a light ([`RenderMode::Lit`]).
    Lit(LitSettings),
    /// The classic demo-scene refraction ([`RenderMode::Classic`]).
    Classic(ClassicSettings),
    /// The spring model's own render ([`RenderMode::Spring`]).
    Spring(SpringSettings),
}

impl Default for Look {
    /// The natural look, every number at its [`parameters`](super::parameters) default.
    fn default() -> Self {
        Self::natural()
    }
}

impl Look {
    /// Water as it looks ([`RenderMode::Natural`], the default), with the default numbers.
    pub fn natural() -> Self {
        Self::Natural(NaturalSettings::default())
    }

    /// Refraction lit by a light: shading and a highlight ([`RenderMode::Lit`]).
    pub fn lit() -> Self {
        Self::Lit(LitSettings::default())
    }

    /// The classic demo-scene look: nearest-pixel refraction, no light ([`RenderMode::Classic`]).
    pub fn classic() -> Self {
        Self::Classic(ClassicSettings::default())
    }

    /// The spring model's own render ([`RenderMode::Spring`]), with the default numbers.
    pub fn spring() -> Self {
        Self::Spring(SpringSettings::default())
    }

    /// The look `kind` with its default numbers.
    pub fn of_kind(kind: RenderMode) -> Self {
        LookSettings::default().look(kind)
    }

    /// Which look this is.
    pub fn kind(&self) -> RenderMode {
        match self {
            Self::Natural(_) => RenderMode::Natural,
            Self::Lit(_) => RenderMode::Lit,
            Self::Classic(_) => RenderMode::Classic,
            Self::Spring(_) => RenderMode::Spring,
        }
    }

    /// How much the water shows: the look's `presence` (for the classic look, which ignores
    /// it, the photo look's in perspective).
    pub fn presence(&self) -> f32 {
        match self {
            Self::Natural(natural) => natural.presence,
            Self::Lit(lit) => lit.presence,
            Self::Classic(classic) => classic.presence,
            Self::Spring(spring) => spring.presence,
        }
    }

    /// This look with `presence` as its presence.
    pub fn with_presence(mut self, presence: f32) -> Self {
        match &mut self {
            Self::Natural(natural) => natural.presence = presence,
            Self::Lit(lit) => lit.presence = presence,
            Self::Classic(classic) => classic.presence = presence,
            Self::Spring(spring) => spring.presence = presence,
        }
        self
    }

    /// Checks the look's numbers, naming the first one out of range.
    pub fn validate(&self) -> Result<(), Error> {
        match self {
            Self::Natural(natural) => natural.validate(),
            Self::Lit(lit) => lit.validate(),
            Self::Classic(classic) => classic.validate(),
            Self::Spring(spring) => spring.validate(),
        }
    }
}

/// Every look's numbers, kept together so that switching looks keeps what a user set for each:
/// what the command's options, a scene's `[look]` table, the window's `L` key and the page's
/// options write, and [`look`](Self::look) reads.
///
/// `presence` tunes every look; [`set_presence`](Self::set_presence) sets it in all of them
/// (as `--presence`, a scene's `presence` key and the page's `presence` option do).
///
/// ```
/// use ripples::{Look, LookSettings, RenderMode};
///
/// let mut settings = LookSettings::default();
/// settings.natural.depth = 32.0;
/// settings.lit.shading = 0.5;
/// settings.set_presence(2.0);
/// let Look::Natural(natural) = settings.look(RenderMode::Natural) else { unreachable!() };
/// assert_eq!((natural.depth, natural.presence), (32.0, 2.0));
/// let Look::Lit(lit) = settings.look(RenderMode::Lit) else { unreachable!() };
/// assert_eq!((lit.shading, lit.presence), (0.5, 2.0));
/// assert!(settings.validate().is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Deserialize),
    serde(from = "LookTable")
)]
pub struct LookSettings {
    /// The natural look's numbers.
    pub natural: NaturalSettings,
    /// The lit look's numbers.
    pub lit: LitSettings,
    /// The classic look's (its `presence`, for water in perspective).
    pub classic: ClassicSettings,
    /// The spring look's numbers.
    pub spring: SpringSettings,
}

impl LookSettings {
    /// The look `kind` with the numbers kept for it.
    pub fn look(&self, kind: RenderMode) -> Look {
        match kind {
            RenderMode::Natural => Look::Natural(self.natural),
            RenderMode::Lit => Look::Lit(self.lit),
            RenderMode::Classic => Look::Classic(self.classic),
            RenderMode::Spring => Look::Spring(self.spring),
        }
    }

    /// Keeps `look`'s numbers as its look's (the other looks' stay).
    pub fn keep(&mut self, look: Look) {
        match look {
            Look::Natural(natural) => self.natural = natural,
            Look::Lit(lit) => self.lit = lit,
            Look::Classic(classic) => self.classic = classic,
            Look::Spring(spring) => self.spring = spring,
        }
    }

    /// These settings with `look`'s numbers kept as its look's ([`keep`](Self::keep)).
    pub fn with(mut self, look: Look) -> Self {
        self.keep(look);
        self
    }

    /// Sets `presence` in every look.
    pub fn set_presence(&mut self, presence: f32) {
        self.natural.presence = presence;
        self.lit.presence = presence;
        self.classic.presence = presence;
        self.spring.presence = presence;
    }

    /// Checks every look's numbers, in the order of [`LOOK_PARAMETERS`](p::LOOK_PARAMETERS),
    /// naming the first one out of range (whichever look is shown, as a scene file or a page
    /// refuses any number out of range).
    pub fn validate(&self) -> Result<(), Error> {
        for presence in [
            self.natural.presence,
            self.lit.presence,
            self.classic.presence,
            self.spring.presence,
        ] {
            p::PRESENCE.check(presence)?;
        }
        let (lit, spring, natural) = (&self.lit, &self.spring, &self.natural);
        check_all([
            (p::REFRACTION, lit.refraction),
            (p::SLOPE, lit.slope),
            (p::SHADING, lit.shading),
            (p::SPECULAR, lit.specular),
            (p::SHININESS, lit.shininess),
            (p::LIGHT_ANGLE, lit.light_angle),
            (p::SPRING_REFRACTION, spring.refraction),
            (p::SPRING_TRANSPARENCY, spring.transparency),
            (p::DEPTH, natural.depth),
            (p::CAUSTICS, natural.caustics),
            (p::SUN_ELEVATION, natural.sun_elevation),
            (p::SUN_AZIMUTH, natural.sun_azimuth),
            (p::CLARITY, natural.clarity),
            (p::WAVE_HEIGHT, natural.wave_height),
            (p::DISPERSION, natural.dispersion),
        ])
    }
}

/// A scene file's `[look]` table as it is written: one flat table of every look's numbers,
/// each key a [`parameters`](super::parameters) key (and `water_colour`), read into a
/// [`LookSettings`]. Its fields' order is the order serde's "expected one of" lists them in.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
struct LookTable {
    presence: f32,
    refraction: f32,
    slope: f32,
    shading: f32,
    specular: f32,
    shininess: f32,
    light_angle: f32,
    spring_refraction: f32,
    spring_transparency: f32,
    depth: f32,
    caustics: f32,
    sun_elevation: f32,
    sun_azimuth: f32,
    water_colour: [u8; 3],
    clarity: f32,
    wave_height: f32,
    dispersion: f32,
}

#[cfg(feature = "serde")]
impl Default for LookTable {
    fn default() -> Self {
        let LookSettings {
            natural,
            lit,
            spring,
            ..
        } = LookSettings::default();
        Self {
            presence: natural.presence,
            refraction: lit.refraction,
            slope: lit.slope,
            shading: lit.shading,
            specular: lit.specular,
            shininess: lit.shininess,
            light_angle: lit.light_angle,
            spring_refraction: spring.refraction,
            spring_transparency: spring.transparency,
            depth: natural.depth,
            caustics: natural.caustics,
            sun_elevation: natural.sun_elevation,
            sun_azimuth: natural.sun_azimuth,
            water_colour: natural.water_colour,
            clarity: natural.clarity,
            wave_height: natural.wave_height,
            dispersion: natural.dispersion,
        }
    }
}

#[cfg(feature = "serde")]
impl From<LookTable> for LookSettings {
    fn from(table: LookTable) -> Self {
        let presence = table.presence;
        Self {
            natural: NaturalSettings {
                presence,
                depth: table.depth,
                caustics: table.caustics,
                sun_elevation: table.sun_elevation,
                sun_azimuth: table.sun_azimuth,
                water_colour: table.water_colour,
                clarity: table.clarity,
                wave_height: table.wave_height,
                dispersion: table.dispersion,
            },
            lit: LitSettings {
                presence,
                refraction: table.refraction,
                slope: table.slope,
                shading: table.shading,
                specular: table.specular,
                shininess: table.shininess,
                light_angle: table.light_angle,
            },
            classic: ClassicSettings { presence },
            spring: SpringSettings {
                presence,
                refraction: table.spring_refraction,
                transparency: table.spring_transparency,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_look_defaults_to_the_table_and_checks_only_its_own_numbers() {
        for kind in RenderMode::ALL {
            let look = Look::of_kind(kind);
            assert_eq!(look.kind(), kind);
            assert_eq!(look.presence(), p::PRESENCE.default);
            assert!(look.validate().is_ok());
        }
        let deep = NaturalSettings {
            depth: 2000.0,
            ..Default::default()
        };
        assert_eq!(
            Look::Natural(deep).validate().unwrap_err().to_string(),
            "depth must be <= 1024, got 2000"
        );
        let settings = LookSettings {
            natural: deep,
            ..Default::default()
        };
        // The lit look does not read the depth; the settings refuse it whichever look shows.
        assert!(settings.look(RenderMode::Lit).validate().is_ok());
        assert_eq!(
            settings.validate().unwrap_err().to_string(),
            "depth must be <= 1024, got 2000"
        );
    }

    #[test]
    fn settings_keep_each_looks_numbers_across_a_switch() {
        let mut settings = LookSettings::default();
        settings.keep(Look::Lit(LitSettings {
            shading: 0.5,
            ..Default::default()
        }));
        settings.spring.transparency = 0.25;
        let shown: Vec<Look> = RenderMode::ALL.map(|kind| settings.look(kind)).to_vec();
        assert_eq!(shown[0], Look::natural());
        assert_eq!(
            shown[1],
            Look::Lit(LitSettings {
                shading: 0.5,
                ..Default::default()
            })
        );
        assert_eq!(
            shown[3],
            Look::Spring(SpringSettings {
                transparency: 0.25,
                ..Default::default()
            })
        );
        settings.set_presence(3.0);
        assert!(
            RenderMode::ALL
                .iter()
                .all(|&kind| settings.look(kind).presence() == 3.0)
        );
    }

    #[test]
    fn the_settings_check_every_number_in_the_tables_order() {
        let mut settings = LookSettings::default();
        settings.natural.depth = 2000.0;
        settings.lit.refraction = 100.0;
        assert_eq!(
            settings.validate().unwrap_err().to_string(),
            "refraction must be <= 64, got 100"
        );
        settings.spring.presence = -1.0;
        assert_eq!(
            settings.validate().unwrap_err().to_string(),
            "presence must be >= 0, got -1"
        );
    }
}
