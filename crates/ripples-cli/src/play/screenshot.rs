//! Screenshots: the water as a PNG file, written so that no half-written file ever shows.
//!
//! The picture is the pool's frame at the pool's size (not the scaled window, the bars or the
//! overlay), so a screenshot is the same whatever the window size. It is written by the
//! command's atomic writer ([`crate::output::write_new_file`]): into a temporary file in the
//! target directory, renamed into place, never over an existing file. A crash or a full disk
//! leaves either the whole picture or nothing. Names carry the UTC time to the millisecond
//! (`ripples-20261120-235901-042.png`), so they sort by time and do not collide; if one does, a
//! counter is added.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow};

/// Writes `pixels` (`0RGB` words, `width x height`) as a PNG in `directory`, named from `now`;
/// returns the path written.
pub fn save(
    directory: &Path,
    width: u32,
    height: u32,
    pixels: &[u32],
    now: SystemTime,
) -> Result<PathBuf> {
    let shown = directory.display();
    if !directory.is_dir() {
        return Err(anyhow!("screenshot: directory '{shown}' does not exist"));
    }
    let rgb: Vec<u8> = pixels
        .iter()
        .flat_map(|&pixel| {
            let [b, g, r, _] = pixel.to_le_bytes();
            [r, g, b]
        })
        .collect();
    let mut encoded = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut encoded, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder
            .write_header()
            .context("screenshot: cannot encode the PNG")?;
        writer
            .write_image_data(&rgb)
            .context("screenshot: cannot encode the PNG")?;
        writer
            .finish()
            .context("screenshot: cannot encode the PNG")?;
    }
    // The same atomic writer as every other output: a temporary `.ripples-<pid>-...` file,
    // removed on any exit, renamed to the first free name.
    let stem = file_stem(now);
    let names = (1..=100).map(|attempt| {
        if attempt == 1 {
            format!("{stem}.png")
        } else {
            format!("{stem}-{attempt}.png")
        }
    });
    match crate::output::write_new_file(directory, names, &encoded) {
        Ok(Some(path)) => Ok(path),
        Ok(None) => Err(anyhow!(
            "screenshot: '{stem}.png' and 99 numbered variants already exist in '{shown}'"
        )),
        Err(error) => Err(anyhow!("screenshot: {error:#}")),
    }
}

/// `ripples-YYYYMMDD-HHMMSS-mmm`, in UTC.
fn file_stem(now: SystemTime) -> String {
    let since_epoch = now.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = since_epoch.as_secs();
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    let of_day = seconds % 86_400;
    format!(
        "ripples-{year:04}{month:02}{day:02}-{:02}{:02}{:02}-{:03}",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
        since_epoch.subsec_millis()
    )
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn names_are_the_utc_time() {
        let at = |seconds: u64, millis: u64| {
            UNIX_EPOCH + Duration::from_secs(seconds) + Duration::from_millis(millis)
        };
        assert_eq!(file_stem(at(0, 0)), "ripples-19700101-000000-000");
        assert_eq!(
            file_stem(at(1_700_000_000, 42)),
            "ripples-20231114-221320-042"
        );
        // A leap day.
        assert_eq!(
            file_stem(at(951_782_400 + 3_599, 999)),
            "ripples-20000229-005959-999"
        );
    }

    #[test]
    fn a_screenshot_is_the_picture_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let pixels = [0x00ff_0000, 0x0000_ff00, 0x0000_00ff, 0x0012_3456];
        let now = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let first = save(dir.path(), 2, 2, &pixels, now).unwrap();
        let second = save(dir.path(), 2, 2, &pixels, now).unwrap();
        assert_eq!(
            first.file_name().unwrap(),
            "ripples-20231114-221320-000.png"
        );
        assert_eq!(
            second.file_name().unwrap(),
            "ripples-20231114-221320-000-2.png"
        );
        let image = image::open(&first).unwrap().to_rgb8();
        assert_eq!(image.dimensions(), (2, 2));
        assert_eq!(
            image.as_raw(),
            &[255, 0, 0, 0, 255, 0, 0, 0, 255, 0x12, 0x34, 0x56]
        );
        // Only the two pictures: no temporary file left.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_missing_directory_is_named() {
        let error = save(Path::new("/no/such/dir"), 1, 1, &[0], SystemTime::now()).unwrap_err();
        assert!(error.to_string().contains("'/no/such/dir'"), "{error}");
    }
}
