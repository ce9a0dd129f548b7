//! Video input: ffprobe's JSON report of a clip, read exactly as `ripples render clip.mp4`
//! reads it (`video_input::parse_probe`), then the part of the clip a render would show.
//!
//! The report is untrusted (a damaged file can make ffprobe print anything), and everything the
//! render then decides comes from it: the size (checked against the image limits before a frame
//! is decoded), the frame rate and the frame count. Any input must end in a checked clip or an
//! error, never a panic; a checked clip then gives a frame count within the limits and a frame
//! of the clip for every output frame, whatever the options.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ripples_cli::input::video_input::{ClipTiming, VideoClip, VideoEnd, parse_probe};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(probe) = parse_probe(text) else {
        return;
    };
    assert!(ripples::limits::check_size(u64::from(probe.width), u64::from(probe.height)).is_ok());
    assert!(probe.frames >= 1);
    assert!(probe.fps > 0.0 && probe.fps <= ripples::limits::MAX_FPS);
    let _ = probe.truncated_note("clip");
    let clip = VideoClip {
        path: "clip".into(),
        name: "clip 'clip'".into(),
        probe,
    };
    let parts = [(None, None), (Some(0.5), Some(1.0)), (Some(1e6), None)];
    let paces = [(None, None), (Some(1000.0), Some(100_000)), (Some(0.001), Some(3))];
    for end in [VideoEnd::Stop, VideoEnd::Hold, VideoEnd::Loop] {
        for part in parts {
            for pace in paces {
                let Ok(timing) = ClipTiming::new(&clip, part, pace, end) else {
                    continue;
                };
                assert!(timing.frames >= 1 && timing.frames <= ripples::limits::MAX_FRAMES);
                for index in [0, 1, u64::from(timing.frames) - 1] {
                    assert!(timing.clip_frame(index) < timing.clip_frames);
                }
                assert!(timing.sound_seconds() >= 0.0);
            }
        }
    }
});
