//! The water of a photograph, as the command reads it: the mask picture and the camera.
//!
//! A water mask is a black-and-white picture: white is water, black land. People make one by
//! painting over the photograph, so anti-aliased edges are fine, but a picture that is mostly
//! grey is not a mask at all (often the photograph itself, given by mistake): it is refused
//! with the share of grey pixels, instead of being thresholded into a shoreline nobody drew.
//! The horizon and focal length describe the photograph, so they are fitted to the pool as
//! the photograph is; the library's errors about them are given back naming the option or the
//! scene key they came from.

use anyhow::{Result, anyhow};

use crate::input::InputFile;
use crate::input::fit::Placement;
use crate::input::source_image::SourceImage;

/// Luminances strictly between these are grey: neither clearly water nor clearly land.
const GREY: (u8, u8) = (32, 224);

/// Largest share of grey pixels a mask may have (its anti-aliased edges).
const MAX_GREY_SHARE: f64 = 0.1;

/// The water flags of `picture` (already fitted to the pool): luminance 50% and up is water.
/// An error naming `input` for a picture that is mostly grey or holds no water.
pub fn water_from_picture(picture: &SourceImage, input: &InputFile) -> Result<Vec<bool>> {
    let grey = picture.luminance();
    let greys = grey.iter().filter(|&&l| l > GREY.0 && l < GREY.1).count();
    let share = greys as f64 / grey.len().max(1) as f64;
    let path = input.path.display();
    let key = if input.role.starts_with("the scene's") {
        "water_mask ="
    } else {
        "--water-mask"
    };
    if share > MAX_GREY_SHARE {
        return Err(anyhow!(
            "{key} '{path}': not a mask: {:.0}% of its pixels are grey (a mask is white for \
             water, black for land, grey only along the shore)",
            share * 100.0
        ));
    }
    let water: Vec<bool> = grey.iter().map(|&l| l >= 128).collect();
    if !water.contains(&true) {
        return Err(anyhow!(
            "{key} '{path}': holds no water: white marks water, and it is all dark"
        ));
    }
    Ok(water)
}

/// `perspective`, given for a picture placed by `placement`, for the pool it is placed on.
pub fn fit_perspective(
    perspective: ripples::Perspective,
    placement: &Placement,
) -> ripples::Perspective {
    if placement.from == placement.to {
        return perspective;
    }
    let [scale_x, scale_y] = placement.scale();
    let [_, offset_y] = placement.offset();
    let focal = perspective.focal_for(placement.from.0);
    ripples::Perspective {
        horizon: (f64::from(perspective.horizon) * scale_y + offset_y) as f32,
        focal: Some((f64::from(focal) * scale_x) as f32),
    }
}

/// A library error about the water, with the option or scene key of the horizon or focal
/// length in front when it is about one of them (`sources`: horizon's, focal's).
pub fn name_camera(error: ripples::Error, sources: &[String; 2]) -> anyhow::Error {
    let text = error.to_string();
    if text.contains("focal") {
        anyhow!("{}: {text}", sources[1])
    } else if text.contains("horizon") {
        anyhow!("{}: {text}", sources[0])
    } else {
        anyhow!("{text}")
    }
}

/// A line saying how far the waves reach in perspective and what the grid costs; `None`
/// without a perspective.
pub fn reach_note(pool: &ripples::Pool) -> Option<String> {
    let ([first_row, unit], [plane_width, plane_depth]) = pool.plane_reach()?;
    let solver = pool.solver();
    let cells = u64::from(solver.width()) * u64::from(solver.height());
    let pixels = u64::from(pool.width()) * u64::from(pool.height());
    Some(format!(
        "water in perspective: the waves reach up to row {first_row} (a plane unit is {unit:.2} \
         pixels wide there; water above it is drawn calm), on a {}x{} grid covering \
         {plane_width:.0}x{plane_depth:.0} plane units ({:.2} cells per picture pixel)",
        solver.width(),
        solver.height(),
        cells as f64 / pixels as f64
    ))
}
