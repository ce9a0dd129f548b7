// The demo page (web/dist/index.html) as a person sees it, drawn by the CPU: the wasm module, the
// defaults, the overlays, a click on the calm pool, the frame rate and wasm cost (reported, not
// required); then a <canvas> target, attach/destroy cycles and destroy() itself.

import fs from 'node:fs';
import path from 'node:path';
import { PATIENCE_MS, check, decodePng, dist } from '../harness.mjs';
import { compare, figures, outDir } from './shared.mjs';

// The wasm's budget. It was 334 KiB before the living photographs (the photo look's kernel,
// the plane's perspective), the GPU renderer's surface and the swept swipes added 72 KiB
// (406 KiB, 166 KiB gzipped, on 2026-11-26); the kernels over the vector layer and the GPU
// simulation's rules (the fingers' presses, a stone's rims) took it to 447.1 KiB (183 KiB
// gzipped, 2026-12-02). The budget leaves room for small changes and still fails a new
// dependency or a duplicated kernel.
const MAX_WASM_BYTES = 450 * 1024;

/** The demo's module, defaults, overlays, a click, and its figures (`suite`: see e2e.mjs). */
export async function theDemo({ page, main }) {
  // The module: one fetch, a few hundred KB, simd128 inside.
  const wasmBytes = fs.statSync(path.join(dist, 'ripples_web_bg.wasm')).size;
  const wasmFetches = main.requests.get('/ripples_web_bg.wasm') ?? 0;
  figures.wasmBytes = wasmBytes;
  check('one fetch of the wasm', wasmFetches === 1, `${wasmFetches} fetches`);
  check(`wasm at most ${MAX_WASM_BYTES / 1024} KiB`, wasmBytes <= MAX_WASM_BYTES, `${(wasmBytes / 1024).toFixed(0)} KiB`);
  const backend = await page.evaluate(() => window.demo.pool.stats().backend);
  check('wasm runs the simd128 kernels', backend === 'simd128', backend);

  // The defaults: the natural look over the dispersive solver, quality 'auto'.
  const defaults = await page.evaluate(() => {
    const { Ripples, pool } = window.demo;
    const stats = pool.stats();
    return {
      defaults: Ripples.defaults,
      options: pool.options,
      running: { look: stats.look, solver: stats.solver, quality: stats.quality.mode, adapts: stats.quality.adapts, renderer: stats.renderer, cpuReason: stats.cpuReason },
    };
  });
  const natural = (o) => o.look === 'natural' && o.solver === 'dispersive' && o.quality === 'auto';
  check(
    'the default is the natural look over the dispersive solver, quality auto; without WebGL2 the CPU draws',
    natural(defaults.defaults) && natural(defaults.options) && natural(defaults.running) && defaults.running.adapts &&
      defaults.running.renderer === 'cpu' && defaults.running.cpuReason === 'no-webgl2',
    JSON.stringify(defaults.running),
  );
  // The checks of sizes and pixels below want a pool that keeps its size: quality 'auto' has
  // tests of its own (qualityAuto, denseScreen).
  await page.evaluate(() => Promise.all([window.demo.pool.set({ quality: 'high' }), window.demo.card.set({ quality: 'high' })]));

  // Overlays follow the elements; the card's CSS background is handed over to its canvas.
  const overlays = await page.evaluate(() => {
    const info = (id) => {
      const canvas = document.querySelector(`#${id} > canvas.ripples-canvas`);
      const element = document.getElementById(id);
      return canvas && { width: canvas.width, height: canvas.height, css: [element.clientWidth, element.clientHeight] };
    };
    return {
      pool: info('pool'),
      card: info('card'),
      cardBackground: getComputedStyle(document.getElementById('card')).backgroundImage,
      canvases: document.querySelectorAll('canvas').length,
    };
  });
  check('pool overlay is 1280x720', overlays.pool?.width === 1280 && overlays.pool?.height === 720, JSON.stringify(overlays.pool));
  check(
    'card overlay has the card size',
    overlays.card?.width === overlays.card?.css[0] && overlays.card?.height === overlays.card?.css[1],
    JSON.stringify(overlays.card),
  );
  check('card CSS background handed to the canvas', overlays.cardBackground === 'none', overlays.cardBackground);

  // A click on the calm pool: pixels change around it and not far away.
  const excluded = await page.evaluate(() =>
    ['card', 'panel', 'hud', 'errors'].map((id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return { x: r.x - 12, y: r.y - 12, width: r.width + 24, height: r.height + 24 };
    }),
  );
  const click = { x: 620, y: 260 };
  await page.waitForTimeout(300);
  const calm1 = decodePng(await page.screenshot({ path: path.join(outDir, 'calm.png') }));
  await page.waitForTimeout(200);
  const calm2 = decodePng(await page.screenshot());
  const still = compare(calm1, calm2, click, 80, 0, excluded);
  check('the calm pool does not move', still.near === 0 && still.far === 0, `near ${still.near}, far ${still.far}`);
  // The ring after 24 steps (400 ms at 60 a second; longer on a busy machine).
  const clickStep = await page.evaluate(() => window.demo.pool.stats().steps);
  await page.mouse.click(click.x, click.y);
  await page.waitForFunction((from) => window.demo.pool.stats().steps - from >= 24, clickStep, { timeout: PATIENCE_MS });
  const after = decodePng(await page.screenshot({ path: path.join(outDir, 'click.png') }));
  const ripple = compare(calm1, after, click, 50, 320, excluded);
  figures.click = ripple;
  check('pixels change around the click', ripple.near > 0.2, `${(ripple.near * 100).toFixed(1)}% of ${ripple.nearPixels} pixels within 50 px`);
  // Deep water (the dispersive solver) carries long waves fast: far away the picture moves
  // by a level or two at once, and what a person sees change stays near the click.
  const farVisibly = compare(calm1, after, click, 50, 320, excluded, 4).far;
  ripple.farVisibly = farVisibly;
  check(
    'pixels far from the click do not change visibly (by more than 4 levels)',
    farVisibly < 0.001,
    `${(farVisibly * 100).toFixed(3)}% of ${ripple.farPixels} pixels beyond 320 px (${(ripple.far * 100).toFixed(1)}% by a level or more)`,
  );

  // Frame rate and wasm cost at 1280x720, full resolution, on rough water (rain).
  const measure = async (label, options) => {
    await page.evaluate((o) => window.demo.pool.set(o), options);
    await page.waitForTimeout(1500);
    const samples = [];
    for (let i = 0; i < 3; i++) {
      await page.waitForTimeout(1000);
      samples.push(await page.evaluate(() => window.demo.pool.stats()));
    }
    const mean = (key) => samples.reduce((sum, s) => sum + s[key], 0) / samples.length;
    const result = {
      fps: mean('fps'),
      stepRenderMs: mean('stepRenderMs'),
      maxStepRenderMs: Math.max(...samples.map((s) => s.maxStepRenderMs)),
      drawMs: mean('drawMs'),
      size: `${samples[0].width}x${samples[0].height}`,
      grid: `${samples[0].gridWidth}x${samples[0].gridHeight}`,
    };
    figures[label] = result;
    console.log(
      `     ${label}: ${result.fps.toFixed(1)} fps, step+render ${result.stepRenderMs.toFixed(2)} ms ` +
        `(max ${result.maxStepRenderMs.toFixed(2)}), putImageData ${result.drawMs.toFixed(2)} ms, ${result.size}, grid ${result.grid}`,
    );
    return result;
  };
  // Figures only: this machine's cores are shared with other work, so a speed threshold here
  // would fail for no fault of the code (bench.mjs measures at length). The card (the natural look over a photograph) shares the main thread: paused meanwhile.
  await page.evaluate(() => window.demo.card.pause());
  await measure('natural look, dispersive solver (the default; reported only)', { rain: 20 });
  await measure('natural look, wave solver (reported only)', { solver: 'wave' });
  await page.evaluate(() => window.demo.pool.set({ solver: 'dispersive' }));
  await page.screenshot({ path: path.join(outDir, 'natural-rain.png') });
  const perf = await measure('classic look and solver (reported only)', { look: 'classic', solver: 'classic' });
  check('classic: the loop runs and the wasm steps and renders at 1280x720', perf.fps > 0 && perf.stepRenderMs > 0, `${perf.fps.toFixed(1)} fps`);
  await measure('lit look (reported only)', { look: 'lit' });
  await page.screenshot({ path: path.join(outDir, 'lit-rain.png') });
  await page.evaluate(() => window.demo.card.play());

  await page.evaluate(() => window.demo.pool.set({ look: 'natural', solver: 'dispersive', rain: 0 }));
}

/** A <canvas> target, attach/destroy cycles and the wasm memory, destroy() of the demo. */
export async function targetsAndDestroy({ page }) {
  // A <canvas> is drawn into, and keeps its last frame after destroy().
  const canvasTarget = await page.evaluate(async (patience) => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 200;
    canvas.style.cssText = 'position:fixed;left:500px;top:400px;width:320px;height:200px;z-index:5';
    document.body.append(canvas);
    const ripples = await window.demo.Ripples.attach(canvas, { dropRadius: 8 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const context = canvas.getContext('2d');
    const calm = context.getImageData(0, 0, 320, 200).data.slice();
    ripples.drop(160, 100, 10, 400);
    // 15 steps (250 ms at 60 a second; longer on a busy machine).
    const from = ripples.stats().steps;
    await new Promise((resolve) => setTimeout(resolve, 250));
    for (let waited = 0; waited < patience && ripples.stats().steps - from < 15; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const rippled = context.getImageData(0, 0, 320, 200).data;
    let changed = 0;
    let opaque = 0;
    for (let i = 0; i < calm.length; i += 4) {
      if (calm[i] !== rippled[i] || calm[i + 1] !== rippled[i + 1] || calm[i + 2] !== rippled[i + 2]) changed++;
      if (calm[i + 3] === 255) opaque++;
    }
    ripples.destroy();
    const kept = canvas.isConnected;
    canvas.remove();
    return { changed, opaque, kept };
  }, PATIENCE_MS);
  check('a <canvas> target shows the tiles', canvasTarget.opaque === 320 * 200, `${canvasTarget.opaque} opaque pixels`);
  check('a drop on a <canvas> target changes it', canvasTarget.changed > 500, `${canvasTarget.changed} pixels`);
  check('destroy() keeps a <canvas> target in the page', canvasTarget.kept);

  // Attach and destroy again and again: the wasm memory stops growing.
  const memory = await page.evaluate(async () => {
    const { Ripples } = window.demo;
    const sizes = [];
    for (let i = 0; i < 8; i++) {
      const element = document.createElement('div');
      element.style.cssText = 'position:fixed;left:0;top:0;width:1280px;height:720px';
      document.body.append(element);
      const ripples = await Ripples.attach(element, { rain: 5 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      ripples.destroy();
      element.remove();
      sizes.push(Ripples.memoryBytes());
    }
    return sizes;
  });
  figures.memoryBytes = memory;
  check('attach/destroy cycles do not grow the wasm memory', memory[7] === memory[1], memory.map((b) => `${(b / 2 ** 20).toFixed(1)}`).join(' ') + ' MiB');

  // destroy(): no canvas, styles back, no frame loop, methods refuse.
  const destroyed = await page.evaluate(async () => {
    const { pool, card } = window.demo;
    pool.destroy();
    card.destroy();
    card.destroy(); // a second call does nothing
    const canvases = document.querySelectorAll('canvas').length;
    const cardStyle = document.getElementById('card').getAttribute('style');
    const poolStyle = document.getElementById('pool').getAttribute('style');
    const cardBackground = getComputedStyle(document.getElementById('card')).backgroundImage;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const start = window.__rafRequests;
    await new Promise((resolve) => setTimeout(resolve, 600));
    let afterDestroy = null;
    try {
      pool.drop(10, 10);
    } catch (error) {
      afterDestroy = error.message;
    }
    return { canvases, cardStyle, poolStyle, cardBackground, frames: window.__rafRequests - start, afterDestroy };
  });
  check('destroy() leaves no canvas', destroyed.canvases === 0, `${destroyed.canvases} canvases`);
  check('destroy() puts the inline styles back', !destroyed.cardStyle && !destroyed.poolStyle, `${destroyed.cardStyle} / ${destroyed.poolStyle}`);
  check('destroy() gives the CSS background back', destroyed.cardBackground.includes('coffee.jpg'), destroyed.cardBackground);
  check('destroy() stops the frame loop', destroyed.frames === 0, `${destroyed.frames} animation frames requested in 600 ms`);
  check(
    'methods after destroy() throw a clear error',
    /^Ripples\.drop: these ripples were destroyed/.test(destroyed.afterDestroy ?? ''),
    destroyed.afterDestroy,
  );
  await page.screenshot({ path: path.join(outDir, 'destroyed.png') });
}
