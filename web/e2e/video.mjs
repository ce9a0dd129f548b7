// End-to-end test of video under the water, in headless Chromium: the `videoUrl` option and a
// hero section's background <video>. Run after web/build.sh (crates/ripples-web/tests/e2e.rs
// runs it after hero.mjs); it makes its clips with ffmpeg:
//
//   node web/e2e/video.mjs
//
// Each check prints what it measured:
//   - formats: which of H.264 (.mp4) and VP9 (.webm) this Chromium plays (the rest uses one it does);
//   - on the GPU (renderer 'auto', WebGL2: SwiftShader here): a paused frame under calm water
//     equals the CPU renderer's within a mean of 1 level and a 99.9th percentile of 6 levels
//     (1:1 and scaled fits), the picture follows the video as it plays (30 frames a second
//     taken, a later frame differs), and no frame goes through the wasm memory
//     (stats().video.wasmCopies stays 0, copyMs 0, path 'webgl', the wasm memory the same);
//     after a lost context the CPU carries on over the same frame;
//   - frame by frame on the CPU (renderer 'cpu'): a playing 30 fps clip is copied once per video frame (uploads per second
//     against the clip's rate, at a 60 Hz frame loop), and the water shows the frame the video
//     shows (calm water under the classic look is the picture itself: levels per pixel against
//     the same frame drawn by the browser);
//   - fit: background-size cover (the default), contain and explicit sizes for videoUrl, and
//     object-fit cover/contain/fill for a background <video>, each against the browser's own
//     drawing of a <video> laid out that way (mean levels per pixel of a screenshot), with
//     each renderer (the CPU's WebCodecs copies, WebGL's texture straight from the <video>);
//   - a hero's background <video>: found, covered by the canvas (the water shows over it, the
//     text stays over the water), muted/playsInline/loop while the water shows it, restored by
//     destroy() (canvas gone, the video as the page had it);
//   - paused and ended: the water keeps moving (steps, drawn frames) over the still frame and
//     no frame is copied;
//   - without requestVideoFrameCallback: copies while it plays (currentTime; at most one per
//     animation frame), none while paused, and a seek while paused is shown; WebGL takes
//     frames the same way, with no copy in wasm;
//   - autoplay refused (play() rejected with NotAllowedError): attach works, the water shows the
//     current frame, and an 'error' event says why;
//   - cross-origin: a clip on another origin without CORS fails as an image does (requested with
//     CORS: the header is missing; without: the canvas would be tainted), and works with CORS;
//   - bad options: imageUrl and videoUrl together, a non-string, an invalid URL, a missing file,
//     an image given as a video; set({ videoUrl }) switches clips and back to the image;
//   - memory: the wasm memory stays the same over hundreds of video frames (a frame is written
//     where the pool's image is, WasmPool.imagePtr, whose address the host tests check);
//   - speed: frames per second and the copy's cost per video frame at 1280x720, natural look,
//     with the 'wave' and 'dispersive' solvers (bench.mjs --video measures it at length).
// Screenshots go to target/e2e/video/ (RIPPLES_E2E_OUT/video to change it); hero-video.png is
// the picture of docs/video-web.png. Without ffmpeg it prints a notice and passes, unless
// RIPPLES_E2E=1. Exit code 0 when every check passed.
//
//   node web/e2e/video.mjs [part]   # one part only: gpu, frames, fits, hero, fallback,
//                                   # autoplay, cross, options, speed
//
// This file runs the parts, each a module of video/ by concern: frames.mjs (formats, frame by
// frame, paused, ended, memory), gpu.mjs, fits.mjs, hero.mjs, fallbacks.mjs (no
// requestVideoFrameCallback, autoplay refused), options.mjs (cross-origin, bad options),
// speed.mjs; page.mjs holds what they share. A check waits for the frames or steps it needs
// rather than for a time (harness.mjs's PATIENCE_MS), so that a busy machine makes it slower,
// not failed; rates are printed.


import fs from 'node:fs';
import { clipDir, failures, hasFfmpeg, launch, makeClip, requireDist, serve } from './harness.mjs';
import { refusedAutoplay, withoutFrameCallbacks } from './video/fallbacks.mjs';
import { fits } from './video/fits.mjs';
import { formats, frames } from './video/frames.mjs';
import { onTheGpu } from './video/gpu.mjs';
import { hero } from './video/hero.mjs';
import { badOptions, crossOrigin } from './video/options.mjs';
import { outDir } from './video/page.mjs';
import { speed } from './video/speed.mjs';

async function main() {
  if (!hasFfmpeg()) {
    if (process.env.RIPPLES_E2E === '1') {
      console.error('web/e2e/video.mjs needs ffmpeg to make its clips (RIPPLES_E2E=1)');
      process.exit(1);
    }
    console.log('notice: skipping the video browser test: ffmpeg is missing (apt-get install ffmpeg; RIPPLES_E2E=1 makes this a failure)');
    return;
  }
  requireDist();
  fs.mkdirSync(outDir, { recursive: true });
  for (const name of ['pattern-720p.webm', 'pattern-720p.mp4', 'pattern-360p.webm', 'coffee.webm']) makeClip(name);
  const mounts = { '/clips/': clipDir };
  const site = await serve(undefined, { mounts });
  const other = await serve(undefined, { mounts });
  const withCors = await serve(undefined, { mounts, cors: true });
  const browser = await launch(['--force-device-scale-factor=1']);
  try {
    await formats(browser, site.origin);
    const only = process.argv[2];
    const parts = { gpu: () => onTheGpu(browser, site.origin), frames: () => frames(browser, site.origin, 'webm'), fits: () => fits(browser, site.origin), hero: () => hero(browser, site.origin),
      fallback: () => withoutFrameCallbacks(browser, site.origin), autoplay: () => refusedAutoplay(browser, site.origin), cross: () => crossOrigin(browser, site.origin, other.origin, withCors.origin),
      options: () => badOptions(browser, site.origin), speed: () => speed(browser, site.origin) };
    for (const [name, part] of Object.entries(parts)) {
      if (!only || only === name) await part();
    }
  } finally {
    await browser.close();
    for (const server of [site, other, withCors]) server.server.close();
  }
  if (failures.length) {
    console.log(`\n${failures.length} video check(s) failed:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
  console.log('\nall video checks passed');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
