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
use crate::input::fit::{Placement, Rect};
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

/// Marks everything of `water` (one flag per pixel, rows `width` long) outside `inside` as
/// land: the bars around a letterboxed picture are background, never water.
pub fn keep_inside(water: &mut [bool], width: usize, inside: Rect) {
    for (y, row) in water.chunks_exact_mut(width.max(1)).enumerate() {
        for (x, flag) in row.iter_mut().enumerate() {
            *flag &= inside.contains(x as i64, y as i64);
        }
    }
}

/// `perspective`, given in the pixels of the picture `placement` places, checked and fitted
/// to the pool. It is checked first as the user gave it, so that an error speaks of the
/// picture's rows and its focal length in its pixels; then on the pool, where a crop can narrow
/// the field of view past the narrowest a camera may have (`--size 8x400` shows a sliver of a
/// wide photograph), with the limits given back in the picture's pixels. `sources` name the
/// horizon and the focal length (the option, the scene key or the default).
pub fn fit_camera(
    perspective: ripples::Perspective,
    placement: &Placement,
    sources: &[String; 2],
) -> Result<ripples::Perspective> {
    let (from, to) = (placement.from, placement.to);
    perspective
        .validate(from.0, from.1)
        .map_err(|error| name_camera(error, sources))?;
    let fitted = fit_perspective(perspective, placement);
    let Err(error) = fitted.validate(to.0, to.1) else {
        return Ok(fitted);
    };
    let [scale_x, scale_y] = placement.scale();
    let [_, offset_y] = placement.offset();
    let shown = format!(
        "as the {}x{} pool shows it ({} of its {} columns, {} of its {} rows, --fit {})",
        to.0,
        to.1,
        placement.shown.width,
        from.0,
        placement.shown.height,
        from.1,
        placement.fit.name()
    );
    if error.to_string().contains("focal") {
        let (shortest, longest) = ripples::perspective::focal_range(to.0);
        let (shortest, longest) = (f64::from(shortest) / scale_x, f64::from(longest) / scale_x);
        return Err(anyhow!(
            "{}: focal length must be {shortest:.1} to {longest:.0} pixels for this picture {shown}: \
             a horizontal field of view of {} to {} degrees over what the pool shows, got {:.2}",
            sources[1],
            ripples::perspective::MAX_FIELD_OF_VIEW,
            ripples::perspective::MIN_FIELD_OF_VIEW,
            perspective.focal_for(from.0)
        ));
    }
    // The pool's rows `-MAX_HORIZON_ABOVE * height ..= height`, as picture rows.
    let picture_row = |pool_row: f64| (pool_row - offset_y) / scale_y;
    let highest =
        picture_row(-f64::from(ripples::perspective::MAX_HORIZON_ABOVE) * f64::from(to.1));
    let lowest = picture_row(f64::from(to.1));
    Err(anyhow!(
        "{}: horizon must be {highest:.0} to {lowest:.0} (picture rows) for this picture {shown}, \
         got {}",
        sources[0],
        perspective.horizon
    ))
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
