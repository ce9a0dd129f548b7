//! What a clip is, from `ffprobe`'s JSON report, checked before a single frame is decoded.
//!
//! The report is untrusted text (a damaged file can make ffprobe report anything), so
//! [`parse_probe`] is a pure function of it, fuzzed (`fuzz/fuzz_targets/video_probe.rs`), and
//! every number it takes is checked: the size against the same limits as an image, the frame
//! rate against the output's, the frame count against what one render may have.
//!
//! The frame count is the number of video packets ffprobe could read (`-count_packets`): it
//! demuxes the whole file without decoding it, which takes a fraction of a second even for a
//! long clip, and is exact where a container's own count is missing (WebM, Matroska) or lies
//! (a truncated file). When the container announces more frames than can be read, the clip is
//! truncated and [`ClipProbe::truncated_note`] says how many are kept.

use anyhow::{Result, anyhow, bail};
use serde::Deserialize;

/// The arguments that make `ffprobe` print what [`parse_probe`] reads, before the file name.
pub const FFPROBE_ARGS: &[&str] = &[
    "-v",
    "error",
    "-count_packets",
    "-show_entries",
    "stream=codec_type,width,height,r_frame_rate,avg_frame_rate,nb_frames,nb_read_packets,\
     duration:stream_disposition=attached_pic:format=duration,format_name",
    "-of",
    "json",
];

/// A clip as ffprobe reports it, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ClipProbe {
    /// Frame width in pixels, within the image limits.
    pub width: u32,
    /// Frame height in pixels, within the image limits.
    pub height: u32,
    /// Frames per second: the average rate, else the stream's base rate; `0 < fps <= 1000`.
    pub fps: f64,
    /// Frames that can be read (video packets counted by ffprobe); at least 1.
    pub frames: u64,
    /// Frames the container announces (its count, else its video duration times the rate),
    /// when it says.
    pub announced_frames: Option<u64>,
    /// Whether the clip has a sound track.
    pub has_audio: bool,
}

impl ClipProbe {
    /// A line saying the clip is truncated and how many frames are kept, when the container
    /// announces more frames than can be read (more than one more: the last packet of a clip
    /// is sometimes counted differently).
    pub fn truncated_note(&self, name: &str) -> Option<String> {
        let announced = self.announced_frames?;
        (announced > self.frames + 2).then(|| {
            format!(
                "warning: {name} is truncated: it announces {announced} frames but only the \
                 first {} can be read whole; those are used",
                self.frames
            )
        })
    }
}

#[derive(Debug, Deserialize)]
struct Report {
    #[serde(default)]
    streams: Vec<Stream>,
    format: Option<Format>,
}

#[derive(Debug, Deserialize)]
struct Format {
    duration: Option<String>,
    format_name: Option<String>,
}

/// The error [`parse_probe`] gives for a file in which ffmpeg finds no picture, whatever else
/// it reports: frames of no size (a damaged image it guessed from the name), or text (its
/// `tty` reader takes any text for a video of ANSI art). Not a video, then.
pub const NOT_A_VIDEO: &str = "ffmpeg finds no picture in it";

#[derive(Debug, Deserialize)]
struct Stream {
    codec_type: Option<String>,
    width: Option<i64>,
    height: Option<i64>,
    r_frame_rate: Option<String>,
    avg_frame_rate: Option<String>,
    nb_frames: Option<String>,
    nb_read_packets: Option<String>,
    duration: Option<String>,
    disposition: Option<Disposition>,
}

#[derive(Debug, Deserialize)]
struct Disposition {
    #[serde(default)]
    attached_pic: i64,
}

/// Reads ffprobe's JSON report (see [`FFPROBE_ARGS`]) of a clip: its first video stream that
/// is not a cover picture, and whether it has sound. Errors say what is wrong, without the
/// clip's name (the caller adds it).
pub fn parse_probe(json: &str) -> Result<ClipProbe> {
    let report: Report = serde_json::from_str(json)
        .map_err(|error| anyhow!("cannot read ffprobe's report ({error})"))?;
    if report
        .format
        .as_ref()
        .is_some_and(|format| format.format_name.as_deref() == Some("tty"))
    {
        bail!(NOT_A_VIDEO);
    }
    let has_audio = report
        .streams
        .iter()
        .any(|stream| stream.codec_type.as_deref() == Some("audio"));
    let Some(video) = report.streams.iter().find(|stream| {
        stream.codec_type.as_deref() == Some("video")
            && stream
                .disposition
                .as_ref()
                .is_none_or(|disposition| disposition.attached_pic == 0)
    }) else {
        bail!("it has no video stream");
    };
    let (width, height) = match (video.width, video.height) {
        (Some(width), Some(height)) if width > 0 && height > 0 => (width, height),
        _ => bail!(NOT_A_VIDEO),
    };
    let (width, height) = ripples::limits::check_size(width as u64, height as u64)
        .map_err(|error| anyhow!("its frames are {width}x{height}: {error}"))?;
    let fps = [&video.avg_frame_rate, &video.r_frame_rate]
        .into_iter()
        .find_map(|rate| rate.as_deref().and_then(parse_rate))
        .ok_or_else(|| {
            anyhow!(
                "ffprobe reports no frame rate for its video (got '{}')",
                video.r_frame_rate.as_deref().unwrap_or("nothing")
            )
        })?;
    ripples::limits::check_fps(fps)
        .map_err(|error| anyhow!("its frame rate is not one a render can have: {error}"))?;
    let count = |text: &Option<String>| text.as_deref().and_then(|t| t.trim().parse::<u64>().ok());
    let frames_in = |duration: Option<&str>| {
        duration
            .and_then(|text| text.trim().parse::<f64>().ok())
            .filter(|seconds| seconds.is_finite() && *seconds > 0.0)
            .map(|seconds| (seconds * fps).round().min(u64::MAX as f64) as u64)
    };
    // The file's duration is the video's only without sound, which may last longer.
    let file_duration = report
        .format
        .as_ref()
        .and_then(|format| format.duration.as_deref())
        .filter(|_| !has_audio);
    let announced_frames = count(&video.nb_frames)
        .filter(|&frames| frames > 0)
        .or_else(|| frames_in(video.duration.as_deref()))
        .or_else(|| frames_in(file_duration));
    let mut frames = count(&video.nb_read_packets)
        .or(announced_frames)
        .unwrap_or(0);
    if frames == 0 {
        bail!("it has no video frames");
    }
    if announced_frames.is_some_and(|announced| announced > frames + 1) && frames > 1 {
        // The break cut the last packet read, most often: it does not decode.
        frames -= 1;
    }
    Ok(ClipProbe {
        width,
        height,
        fps,
        frames,
        announced_frames,
        has_audio,
    })
}

/// `N/D` (or a plain number) as a positive finite rate; `None` for `0/0` and the like.
fn parse_rate(text: &str) -> Option<f64> {
    let rate = match text.trim().split_once('/') {
        Some((numerator, denominator)) => {
            let numerator: f64 = numerator.trim().parse().ok()?;
            let denominator: f64 = denominator.trim().parse().ok()?;
            numerator / denominator
        }
        None => text.trim().parse().ok()?,
    };
    (rate.is_finite() && rate > 0.0).then_some(rate)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(video: &str, more: &str) -> String {
        format!(r#"{{"programs": [], "streams": [{video}{more}]}}"#)
    }

    const MP4_VIDEO: &str = r#"{"codec_type": "video", "width": 320, "height": 240,
        "r_frame_rate": "25/1", "avg_frame_rate": "25/1", "duration": "2.000000",
        "nb_frames": "50", "nb_read_packets": "50", "disposition": {"attached_pic": 0}}"#;

    #[test]
    fn a_clip_with_sound_is_read_with_its_counted_frames() {
        let audio = r#", {"codec_type": "audio", "nb_read_packets": "94"}"#;
        let probe = parse_probe(&report(MP4_VIDEO, audio)).unwrap();
        assert_eq!(
            probe,
            ClipProbe {
                width: 320,
                height: 240,
                fps: 25.0,
                frames: 50,
                announced_frames: Some(50),
                has_audio: true,
            }
        );
        assert_eq!(probe.truncated_note("clip 'a.mp4'"), None);
    }

    #[test]
    fn webm_without_counts_uses_the_packets_and_ntsc_rates_stay_exact() {
        let webm = r#"{"codec_type": "video", "width": 1920, "height": 1080,
            "r_frame_rate": "30000/1001", "avg_frame_rate": "0/0", "nb_read_packets": "300"}"#;
        let probe = parse_probe(&report(webm, "")).unwrap();
        assert_eq!((probe.frames, probe.announced_frames), (300, None));
        assert!((probe.fps - 29.970_029_97).abs() < 1e-6, "{}", probe.fps);
        assert!(!probe.has_audio);
    }

    #[test]
    fn a_truncated_clip_keeps_the_frames_that_can_be_read() {
        let cut = MP4_VIDEO.replace(r#""nb_read_packets": "50""#, r#""nb_read_packets": "21""#);
        let probe = parse_probe(&report(&cut, "")).unwrap();
        // The last packet read was cut by the break.
        assert_eq!(probe.frames, 20);
        assert_eq!(
            probe.truncated_note("clip 'cut.mp4'").unwrap(),
            "warning: clip 'cut.mp4' is truncated: it announces 50 frames but only the first 20 \
             can be read whole; those are used"
        );
        // WebM: no count in the stream, the file's duration says it.
        let webm = r#"{"streams": [{"codec_type": "video", "width": 8, "height": 8,
            "r_frame_rate": "25/1", "nb_read_packets": "49"}], "format": {"duration": "4.0"}}"#;
        let probe = parse_probe(webm).unwrap();
        assert_eq!((probe.frames, probe.announced_frames), (48, Some(100)));
        // With sound, the file's duration may be the sound's: no claim is made.
        let with_sound = webm.replace("}], ", r#"}, {"codec_type": "audio"}], "#);
        let probe = parse_probe(&with_sound).unwrap();
        assert_eq!((probe.frames, probe.announced_frames), (49, None));
    }

    #[test]
    fn text_is_not_a_video() {
        let text = r#"{"streams": [{"codec_type": "video", "width": 0, "height": 0,
            "r_frame_rate": "25/1"}], "format": {"format_name": "tty"}}"#;
        assert_eq!(parse_probe(text).unwrap_err().to_string(), NOT_A_VIDEO);
    }

    #[test]
    fn cover_pictures_are_skipped_and_bad_reports_are_refused_with_the_reason() {
        let cover = r#"{"codec_type": "video", "width": 600, "height": 600,
            "r_frame_rate": "90000/1", "nb_read_packets": "1", "disposition": {"attached_pic": 1}}"#;
        let error = parse_probe(&report(cover, "")).unwrap_err().to_string();
        assert_eq!(error, "it has no video stream");
        let cases = [
            ("not json", "cannot read ffprobe's report"),
            (r#"{"streams": []}"#, "no video stream"),
            (
                &report(&MP4_VIDEO.replace("320", "20000"), ""),
                "its frames are 20000x240: ",
            ),
            (&report(&MP4_VIDEO.replace("320", "0"), ""), NOT_A_VIDEO),
            (
                &report(&MP4_VIDEO.replace("\"25/1\"", "\"0/0\""), ""),
                "no frame rate for its video (got '0/0')",
            ),
            (
                &report(&MP4_VIDEO.replace("\"25/1\"", "\"90000/1\""), ""),
                "frame rate is not one a render can have",
            ),
            (
                &report(
                    &MP4_VIDEO.replace(r#""nb_read_packets": "50""#, r#""nb_read_packets": "0""#),
                    "",
                ),
                "it has no video frames",
            ),
        ];
        for (json, expected) in cases {
            let error = format!("{:#}", parse_probe(json).unwrap_err());
            assert!(error.contains(expected), "{json}: {error}");
        }
    }
}
