// The frame loop: its call into wasm allocates no JavaScript object (V8's heap profiler), and
// the water runs at 60 steps a second whatever the rate of animation frames.

import { PATIENCE_MS, check, profileAllocations } from '../harness.mjs';
import { figures } from './shared.mjs';

// V8's wrapper for the frame call allocates about 21 bytes a frame over the first 90 frames
// (js-to-wasm:id:i, 1,900 to 2,000 bytes), and the sampling profiler (one sample per 32 bytes)
// adds one-off samples of the first calls (calmCheckFrames, frameStatus: 40 to 80 bytes each),
// so a correct loop measures 21 to 27 bytes a frame (seen: 21.1 to 26.9 over twelve runs, at
// e75703c and after); any object made per frame (12 bytes or more) pushes it past 32.
const MAX_GLUE_BYTES_PER_FRAME = 32;

/** The glue's allocations per frame (`suite`: see e2e.mjs). */
export async function glue({ browser, main }) {
  // The frame loop's call into wasm makes no JavaScript object: a Result returned from wasm
  // would be an array of three numbers per call (about 36 bytes more a frame); the loop
  // takes a number instead. What remains is V8's generic wrapper for calls into wasm, until
  // it compiles a specialized one (see MAX_GLUE_BYTES_PER_FRAME).
  const glue = await glueAllocations(browser, main.origin);
  figures.glueBytesPerFrame = glue.bytes / glue.frames;
  check(
    `the frame loop's call into wasm allocates under ${MAX_GLUE_BYTES_PER_FRAME} bytes a frame`,
    glue.frames > 20 && glue.bytes / glue.frames < MAX_GLUE_BYTES_PER_FRAME,
    `${(glue.bytes / glue.frames).toFixed(1)} bytes a frame over ${glue.frames} frames ${JSON.stringify(glue.byFunction)}`,
  );
}

/** Time-based stepping (`suite`: see e2e.mjs). */
export async function timeBasedStepping({ browser, main }) {
  // Time-based stepping: 60 steps per second whether frames come at 30 or 144 Hz.
  for (const hz of [30, 144]) {
    const rate = await stepRate(browser, main.origin, hz);
    figures[`steps per second at ${hz} Hz`] = rate;
    check(`the water runs 60 steps/s with ${hz} Hz frames`, Math.abs(rate.steps - 60) <= 4, `${rate.steps.toFixed(1)} steps/s at ${rate.fps.toFixed(1)} frames/s`);
  }
}

/**
 * Bytes allocated by the wasm glue (ripples_web.js and the calls into the module) under the
 * frame loop, from the first frames of a fresh page on: later, once V8 has optimized the loop,
 * it may remove such short-lived objects itself, so they would no longer show.
 */
async function glueAllocations(browser, origin) {
  const context = await browser.newContext({ viewport: { width: 400, height: 300 }, deviceScaleFactor: 1 });
  await context.addInitScript(() => {
    const request = window.requestAnimationFrame.bind(window);
    window.__rafRequests = 0;
    window.requestAnimationFrame = (callback) => {
      window.__rafRequests++;
      return request(callback);
    };
  });
  const page = await context.newPage();
  await page.goto(`${origin}/e2e-blank.html`);
  await page.evaluate(() => import('/ripples.js'));
  const stop = await profileAllocations(page, /\/ripples_web(\.js|_bg\.wasm)$/, '#tick');
  const frames = await page.evaluate(async (patience) => {
    const { Ripples } = await import('/ripples.js');
    const element = document.createElement('div');
    element.style.cssText = 'width:320px;height:200px';
    document.body.append(element);
    // Rain, so that the loop runs (calm water sleeps).
    const ripples = await Ripples.attach(element, { look: 'classic', solver: 'classic', quality: 'high', rain: 20 });
    const before = window.__rafRequests;
    // 1.5 s and 40 frames (90 at 60 Hz; fewer on a busy machine, then it waits for them).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (let waited = 0; waited < patience && window.__rafRequests - before < 40; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const frames = window.__rafRequests - before;
    ripples.destroy();
    return frames;
  }, PATIENCE_MS);
  const allocated = await stop();
  await context.close();
  return { frames, ...allocated };
}

/** Steps per second of a small pool in a page whose animation frames come at `hz`. */
async function stepRate(browser, origin, hz) {
  const context = await browser.newContext({ viewport: { width: 400, height: 300 } });
  await context.addInitScript((rate) => {
    // Animation frames at `rate` Hz, with the timestamps the browser would give.
    const period = 1000 / rate;
    let next = performance.now();
    window.__frameTime = next;
    window.requestAnimationFrame = (callback) => {
      next += period;
      const time = next;
      return setTimeout(() => {
        window.__frameTime = time;
        callback(time);
      }, Math.max(0, next - performance.now()));
    };
    window.cancelAnimationFrame = (id) => clearTimeout(id);
  }, hz);
  const page = await context.newPage();
  await page.goto(`${origin}/e2e-blank.html`);
  const result = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    document.body.innerHTML = '<div id="water" style="width:200px;height:150px"></div>';
    // Rain keeps the loop running (calm water sleeps).
    const ripples = await Ripples.attach(document.getElementById('water'), { rain: 5 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Steps against the frames' own clock: on a loaded machine frames come late and then in a
    // burst, which the page's clock follows, so a rate against the wall clock would wander.
    const start = { steps: ripples.stats().steps, time: window.__frameTime };
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const end = ripples.stats();
    const seconds = (window.__frameTime - start.time) / 1000;
    ripples.destroy();
    return { steps: (end.steps - start.steps) / seconds, fps: end.fps };
  });
  await context.close();
  return result;
}
