// The web benchmark: frames per second and milliseconds per frame of Ripples in headless
// Chromium, for each look, at a fixed size and pixel ratio.
//
//   bash web/build.sh && node web/e2e/bench.mjs [--seconds 4] [--size 1280x720] [--rain 20]
//                                               [--runs natural/wave,classic/classic,...]
//                                               [--quality high|auto] [--video] [--verbose]
//
// Each run opens a fresh page of `--size` CSS pixels at devicePixelRatio 1 with one element over
// the coffee photograph, attaches Ripples with that look and solver, rain and quality 'high'
// (the pixel ratio stays 1, so the figures are about one size; `--quality auto` shows what the
// default makes of it instead, the pool's size saying which ratio it chose), lets it settle
// for a second, then samples stats() every second for `--seconds` seconds. It prints per run:
// frames per second, the wasm step+render time and the putImageData time per drawn frame
// (their means, and the worst step+render), the pool's size, and the bytes of JavaScript
// objects that the frame loop (ripples.js, video.js and the wasm glue, from the animation-frame callback
// down) allocated per frame, by V8's sampling heap profiler with the objects the garbage
// collector took back counted too (`--verbose` lists them by function). What remains there
// are numbers: the timestamps performance.now() returns and the arithmetic on them, each a
// heap object in code V8 has not optimized yet; the loop makes no objects or arrays.
//
// `--video` runs each look/solver twice, interleaved: over the photograph, then over a playing
// 1280x720 30 fps clip (testsrc2, VP9, made with ffmpeg in target/e2e/video/clips) given as
// `videoUrl`, placed to cover the element, and prints for the latter the main-thread cost of
// copying one video frame under the water, the frames copied per second and how
// (videoframe: WebCodecs straight to RGBA, 1:1; canvas: drawn and read back). Its JS B/frame
// then includes the video copies' objects (a VideoFrame and a promise per video frame).
//
// The machine's load moves these figures: compare runs of one invocation, not invocations of
// different days. Nothing here fails on timing; the exit code is 0 unless the page broke.

import path from 'node:path';
import { clipDir, hasFfmpeg, launch, makeClip, profileAllocations, requireDist, serve } from './harness.mjs';

const DEFAULT_RUNS = ['natural/wave', 'classic/classic', 'natural/classic', 'classic/wave'];

function parseArguments(argv) {
  const settings = { seconds: 4, width: 1280, height: 720, rain: 20, runs: DEFAULT_RUNS, quality: 'high', video: false };
  for (let i = 0; i < argv.length; i++) {
    const [name, value] = [argv[i], argv[i + 1]];
    const need = () => {
      if (value === undefined) throw new Error(`${name} needs a value`);
      i++;
      return value;
    };
    if (name === '--seconds') {
      settings.seconds = Number(need());
      if (!(settings.seconds >= 1 && settings.seconds <= 60)) throw new Error(`--seconds must be from 1 to 60, got ${value}`);
    } else if (name === '--size') {
      const match = /^(\d+)x(\d+)$/.exec(need());
      if (!match) throw new Error(`--size must be WIDTHxHEIGHT, got '${value}'`);
      [settings.width, settings.height] = [Number(match[1]), Number(match[2])];
    } else if (name === '--rain') {
      settings.rain = Number(need());
      if (!(settings.rain >= 0 && settings.rain <= 1000)) throw new Error(`--rain must be from 0 to 1000, got ${value}`);
    } else if (name === '--quality') {
      settings.quality = need();
      if (!['auto', 'high'].includes(settings.quality)) throw new Error(`--quality must be auto or high, got '${value}'`);
    } else if (name === '--verbose') {
      settings.verbose = true;
    } else if (name === '--video') {
      settings.video = true;
    } else if (name === '--runs') {
      settings.runs = need().split(',');
      for (const run of settings.runs) {
        if (!/^[a-z]+\/[a-z]+$/.test(run)) throw new Error(`--runs takes look/solver pairs such as natural/wave, got '${run}'`);
      }
    } else {
      throw new Error(`unknown argument '${name}' (--seconds, --size, --rain, --runs, --quality, --video, --verbose)`);
    }
  }
  return settings;
}

/** One run: a fresh page, one look and solver (over the clip when `video`), sampled every second. */
async function measure(browser, origin, settings, look, solver, video = false) {
  const context = await browser.newContext({
    viewport: { width: settings.width, height: settings.height },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/e2e-blank.html`);
  let stopProfile = null;
  let allocated = null;
  await page.exposeFunction('benchProfile', async (start) => {
    if (start) stopProfile = await profileAllocations(page, /\/(ripples\.js|video\.js|ripples_web\.js|ripples_web_bg\.wasm)$/, '#tick');
    else allocated = await stopProfile();
  });
  const result = await page.evaluate(
    async ({ width, height, rain, seconds, look, solver, quality, video }) => {
      const { Ripples } = await import('/ripples.js');
      const element = document.createElement('div');
      element.style.cssText = `width:${width}px;height:${height}px;background:url(assets/coffee.jpg) center/cover`;
      document.body.append(element);
      const options = { look, solver, rain, quality, interactive: false };
      if (video) {
        element.style.background = 'none';
        options.videoUrl = '/clips/pattern-720p.webm';
      }
      const ripples = await Ripples.attach(element, options);
      const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      await wait(1000);
      ripples.stats(); // starts the video's window (uploadMs is since the last call)
      const uploadsFrom = video ? ripples.stats().video.uploads : 0;
      const from = performance.now();
      const samples = [];
      // Frames are counted by wrapping requestAnimationFrame only now, after the warm-up.
      let frames = 0;
      const request = window.requestAnimationFrame;
      window.requestAnimationFrame = (callback) => request((time) => {
        frames++;
        callback(time);
      });
      await window.benchProfile(true);
      for (let i = 0; i < seconds; i++) {
        await wait(1000);
        samples.push(ripples.stats());
      }
      await window.benchProfile(false);
      window.requestAnimationFrame = request;
      const copies = video
        ? {
            uploadMs: samples.reduce((sum, s) => sum + s.video.uploadMs, 0) / samples.length,
            uploadsPerSecond: ((samples[samples.length - 1].video.uploads - uploadsFrom) * 1000) / (performance.now() - from),
            path: samples[0].video.path,
          }
        : null;
      ripples.destroy();
      const mean = (key) => samples.reduce((sum, s) => sum + s[key], 0) / samples.length;
      return {
        copies,
        fps: mean('fps'),
        stepRenderMs: mean('stepRenderMs'),
        maxStepRenderMs: Math.max(...samples.map((s) => s.maxStepRenderMs)),
        drawMs: mean('drawMs'),
        size: `${samples[0].width}x${samples[0].height}`,
        backend: samples[0].backend,
        frames,
      };
    },
    { ...settings, look, solver, video },
  );
  result.jsBytesPerFrame = allocated.bytes / result.frames;
  result.allocations = allocated.byFunction;
  await context.close();
  if (errors.length) throw new Error(`${look}/${solver}: ${errors.join(' | ')}`);
  return result;
}

async function main() {
  const settings = parseArguments(process.argv.slice(2));
  requireDist();
  if (settings.video) {
    if (!hasFfmpeg()) throw new Error('--video needs ffmpeg, to make its clip');
    makeClip('pattern-720p.webm');
  }
  const site = await serve(undefined, { mounts: { '/clips/': clipDir } });
  const browser = await launch(['--force-device-scale-factor=1']);
  try {
    console.log(
      `web bench: ${settings.width}x${settings.height} CSS pixels at devicePixelRatio 1, quality '${settings.quality}', rain ${settings.rain}/s, ` +
        `${settings.seconds} s per run, ${path.basename(process.env.CHROMIUM ?? 'chromium')} headless, ${browser.version()}`,
    );
    console.log(
      `look/solver              fps  step+render ms (max)  draw ms  frame ms  pool       JS B/frame  backend` +
        (settings.video ? '  video copy ms  copies/s  path' : ''),
    );
    for (const run of settings.runs) {
      const [look, solver] = run.split('/');
      for (const video of settings.video ? [false, true] : [false]) {
        const r = await measure(browser, site.origin, settings, look, solver, video);
        const copies = r.copies
          ? `  ${r.copies.uploadMs.toFixed(2).padStart(13)}  ${r.copies.uploadsPerSecond.toFixed(1).padStart(8)}  ${r.copies.path}`
          : '';
        console.log(
          `${(video ? `${run} +video` : run).padEnd(22)} ${r.fps.toFixed(1).padStart(5)}  ${r.stepRenderMs.toFixed(2).padStart(8)} (${r.maxStepRenderMs.toFixed(1).padStart(6)})` +
            `  ${r.drawMs.toFixed(2).padStart(7)}  ${(r.stepRenderMs + r.drawMs).toFixed(2).padStart(8)}  ${r.size.padEnd(9)}` +
            `  ${r.jsBytesPerFrame.toFixed(0).padStart(10)}  ${r.backend}${copies}`,
        );
        if (settings.verbose) console.log(`  frame loop allocations over ${r.frames} frames:`, r.allocations);
      }
    }
  } finally {
    await browser.close();
    site.server.close();
  }
}

main().catch((error) => {
  console.error(`web bench: ${error.message}`);
  process.exitCode = 1;
});
