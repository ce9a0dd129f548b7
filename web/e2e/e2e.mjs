// End-to-end test of web/dist in headless Chromium: what a person sees and what a page gets.
//
//   bash web/build.sh && (cd web/e2e && npm ci) && node web/e2e/e2e.mjs
//
// It serves web/dist on a free localhost port (and a second origin without CORS headers, for
// the cross-origin image cases), opens the demo at 1280x720 in a Chromium without WebGL
// (--disable-webgl: this is the CPU renderer's suite, the fallback where a browser has no
// WebGL2; web/e2e/gl.mjs, video.mjs and hero.mjs test the default WebGL2 renderer), and checks:
//   - the wasm is one fetch of a few hundred KB and runs the simd128 kernels;
//   - the defaults: the natural look, the dispersive solver and quality 'auto', in the options and
//     in what stats() reports of the running demo, drawn by the CPU (cpuReason 'no-webgl2');
//   - both demo elements have an overlay canvas of the element's size; the CSS background of
//     the second one is handed over to the canvas;
//   - a click on the pool changes the pixels of a screenshot around the click and not far away,
//     and a click on a photograph under the default look changes them visibly;
//   - the frame rate and wasm step+render time of the 1280x720 pool (the demo's own stats()),
//     for the natural, classic and lit looks, are measured and reported, not required: a busy
//     machine is slow for no fault of the code (web/e2e/bench.mjs is the benchmark);
//   - quality 'auto': on a slow device (the test hook Ripples[Symbol.for('ripples.simulateSlowDevice')])
//     it lowers the pixel ratio
//     and keeps the water, without one it keeps the full ratio; on a devicePixelRatio-2 screen
//     (--force-device-scale-factor=2) it starts at pixel ratio 1 and raises it when there is
//     room, and stays at 1 or below on a slow device; stats() reports what it chose;
//   - the water runs at the same speed with 30 Hz and 144 Hz animation frames;
//   - bad elements, options and images reject attach with a clear message and leave the page
//     working: a missing image, a cross-origin image without CORS (requested with and without
//     CORS: the latter taints the canvas), a detached, empty or huge element;
//   - a <canvas> given to attach is drawn into;
//   - skyUrl: over a uniform floor, a pure red sky picture makes the ring's slopes redder (more
//     than calm water, which reflects it too, faintly); null brings the built-in sky back, pixel
//     for pixel; the picture stays through every new pool (a resize, resolution, pixelRatio,
//     quality 'auto' lowering the ratio) and a change of look or solver; a missing or tainted
//     picture is an error naming skyUrl and the URL and the sky stays; a non-string is
//     refused; screenshots of a photograph under both skies;
//   - attach/destroy cycles do not grow the wasm memory;
//   - destroy() leaves no canvas, no listener-driven frames and no running frame loop;
//   - the frame loop's call into wasm allocates no JavaScript object (V8's heap profiler);
//   - no uncaught exception reached the page (`pageerror`).
// Screenshots and the measured figures go to target/e2e/ (RIPPLES_E2E_OUT to change it).
// Exit code 0 when every check passed; the failed checks are listed otherwise.
//
// This file runs the parts, in this order, each a module of cpu/ by concern: demo.mjs (the
// demo page, a <canvas> target, memory, destroy), options.mjs (errors, live options),
// quality.mjs (the pixel ratio and quality 'auto'), sky.mjs (skyUrl), photograph.mjs, frames.mjs
// (the loop's allocations, time-based stepping); shared.mjs holds what they share. A check
// waits for the steps or frames it needs rather than for a time (harness.mjs's PATIENCE_MS),
// so that a busy machine makes it slower, not failed.

import fs from 'node:fs';
import path from 'node:path';
import { check, failures, launch, requireDist, serve } from './harness.mjs';
import { targetsAndDestroy, theDemo } from './cpu/demo.mjs';
import { glue, timeBasedStepping } from './cpu/frames.mjs';
import { errorsAndOptions } from './cpu/options.mjs';
import { aPhotograph } from './cpu/photograph.mjs';
import { devicePixels, qualityAutoChecks } from './cpu/quality.mjs';
import { NO_WEBGL, VIEW, figures, outDir } from './cpu/shared.mjs';
import { sky } from './cpu/sky.mjs';

async function main() {
  requireDist();
  fs.mkdirSync(outDir, { recursive: true });
  const main = await serve();
  const other = await serve();
  const browser = await launch(NO_WEBGL);
  const pageErrors = [];
  try {
    const context = await browser.newContext({ viewport: VIEW, deviceScaleFactor: 1 });
    // Count animation-frame requests, to see that destroy() stops the loop.
    await context.addInitScript(() => {
      const request = window.requestAnimationFrame.bind(window);
      window.__rafRequests = 0;
      window.requestAnimationFrame = (callback) => {
        window.__rafRequests++;
        return request(callback);
      };
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${main.origin}/index.html`);
    await page.waitForFunction(() => window.demo?.ready, null, { timeout: 30000 });
    await page.evaluate(() => window.demo.ready);
    const ready = await page.evaluate(() => Boolean(window.demo.pool && window.demo.card));
    check('demo attached both elements', ready, ready ? '' : await page.evaluate(() => window.demo.errors.join('; ')));
    if (!ready) return;

    // What the parts are given: the browser, the demo's page, this site and another origin.
    const suite = { browser, page, main, other };
    await theDemo(suite);
    await errorsAndOptions(suite);
    await targetsAndDestroy(suite);
    await devicePixels(suite);
    await sky(suite);
    await aPhotograph(suite);
    await glue(suite);
    await qualityAutoChecks(suite);
    await timeBasedStepping(suite);
  } finally {
    check('no uncaught exception in the page', pageErrors.length === 0, pageErrors.join(' | '));
    await browser.close();
    main.server.close();
    other.server.close();
    fs.writeFileSync(path.join(outDir, 'figures.json'), JSON.stringify(figures, null, 2));
  }
}

main()
  .catch((error) => {
    console.log(`FAIL ${error.stack ?? error}`);
    failures.push(String(error));
  })
  .finally(() => {
    console.log(`figures: ${JSON.stringify(figures)}`);
    if (failures.length) {
      console.log(`e2e: ${failures.length} check(s) failed`);
      process.exitCode = 1;
    } else {
      console.log('e2e: all checks passed');
    }
  });
