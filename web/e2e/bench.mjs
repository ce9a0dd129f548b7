// The web benchmark: frames per second and milliseconds per frame of Ripples in headless
// Chromium, for each look, at a fixed size and pixel ratio.
//
//   bash web/build.sh && node web/e2e/bench.mjs [--seconds 4] [--size 1280x720] [--rain 20]
//                                               [--runs natural/wave,classic/classic,...]
//                                               [--quality high|auto] [--verbose]
//
// Each run opens a fresh page of `--size` CSS pixels at devicePixelRatio 1 with one element over
// the coffee photograph, attaches Ripples with that look and solver, rain and quality 'high'
// (the pixel ratio stays 1, so the figures are about one size; `--quality auto` shows what the
// default makes of it instead, the pool's size saying which ratio it chose), lets it settle
// for a second, then samples stats() every second for `--seconds` seconds. It prints per run:
// frames per second, the wasm step+render time and the putImageData time per drawn frame
// (their means, and the worst step+render), the pool's size, and the bytes of JavaScript
// objects that the frame loop (ripples.js and its wasm glue, from the animation-frame callback
// down) allocated per frame, by V8's sampling heap profiler with the objects the garbage
// collector took back counted too (`--verbose` lists them by function). What remains there
// are numbers: the timestamps performance.now() returns and the arithmetic on them, each a
// heap object in code V8 has not optimized yet; the loop makes no objects or arrays.
//
// The machine's load moves these figures: compare runs of one invocation, not invocations of
// different days. Nothing here fails on timing; the exit code is 0 unless the page broke.

import path from 'node:path';
import { launch, profileAllocations, requireDist, serve } from './harness.mjs';

const DEFAULT_RUNS = ['natural/wave', 'classic/classic', 'natural/classic', 'classic/wave'];

function parseArguments(argv) {
  const settings = { seconds: 4, width: 1280, height: 720, rain: 20, runs: DEFAULT_RUNS, quality: 'high' };
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
    } else if (name === '--runs') {
      settings.runs = need().split(',');
      for (const run of settings.runs) {
        if (!/^[a-z]+\/[a-z]+$/.test(run)) throw new Error(`--runs takes look/solver pairs such as natural/wave, got '${run}'`);
      }
    } else {
      throw new Error(`unknown argument '${name}' (--seconds, --size, --rain, --runs, --quality, --verbose)`);
    }
  }
  return settings;
}

/** One run: a fresh page, one look and solver, sampled every second. */
async function measure(browser, origin, settings, look, solver) {
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
    if (start) stopProfile = await profileAllocations(page, /\/(ripples\.js|ripples_web\.js|ripples_web_bg\.wasm)$/, '#tick');
    else allocated = await stopProfile();
  });
  const result = await page.evaluate(
    async ({ width, height, rain, seconds, look, solver, quality }) => {
      const { Ripples } = await import('/ripples.js');
      const element = document.createElement('div');
      element.style.cssText = `width:${width}px;height:${height}px;background:url(assets/coffee.jpg) center/cover`;
      document.body.append(element);
      const ripples = await Ripples.attach(element, { look, solver, rain, quality, interactive: false });
      const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      await wait(1000);
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
      ripples.destroy();
      const mean = (key) => samples.reduce((sum, s) => sum + s[key], 0) / samples.length;
      return {
        fps: mean('fps'),
        stepRenderMs: mean('stepRenderMs'),
        maxStepRenderMs: Math.max(...samples.map((s) => s.maxStepRenderMs)),
        drawMs: mean('drawMs'),
        size: `${samples[0].width}x${samples[0].height}`,
        backend: samples[0].backend,
        frames,
      };
    },
    { ...settings, look, solver },
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
  const site = await serve();
  const browser = await launch(['--force-device-scale-factor=1']);
  try {
    console.log(
      `web bench: ${settings.width}x${settings.height} CSS pixels at devicePixelRatio 1, quality '${settings.quality}', rain ${settings.rain}/s, ` +
        `${settings.seconds} s per run, ${path.basename(process.env.CHROMIUM ?? 'chromium')} headless, ${browser.version()}`,
    );
    console.log('look/solver        fps  step+render ms (max)  draw ms  frame ms  pool       JS B/frame  backend');
    for (const run of settings.runs) {
      const [look, solver] = run.split('/');
      const r = await measure(browser, site.origin, settings, look, solver);
      console.log(
        `${run.padEnd(16)} ${r.fps.toFixed(1).padStart(5)}  ${r.stepRenderMs.toFixed(2).padStart(8)} (${r.maxStepRenderMs.toFixed(1).padStart(6)})` +
          `  ${r.drawMs.toFixed(2).padStart(7)}  ${(r.stepRenderMs + r.drawMs).toFixed(2).padStart(8)}  ${r.size.padEnd(9)}` +
          `  ${r.jsBytesPerFrame.toFixed(0).padStart(10)}  ${r.backend}`,
      );
      if (settings.verbose) console.log(`  frame loop allocations over ${r.frames} frames:`, r.allocations);
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
