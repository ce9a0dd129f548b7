// End-to-end test of web/dist in headless Chromium: what a person sees and what a page gets.
//
//   bash web/build.sh && (cd web/e2e && npm ci) && node web/e2e/e2e.mjs
//
// It serves web/dist on a free localhost port (and a second origin without CORS headers, for
// the cross-origin image cases), opens the demo at 1280x720, and checks:
//   - the wasm is one fetch of a few hundred KB and runs the simd128 kernels;
//   - both demo elements have an overlay canvas of the element's size; the CSS background of
//     the second one is handed over to the canvas;
//   - a click on the pool changes the pixels of a screenshot around the click and not far away;
//   - the 1280x720 pool keeps >= 50 frames/s with <= 5 ms of wasm step+render per frame (the
//     demo's own stats(); the lit look is measured and reported, not required);
//   - the water runs at the same speed with 30 Hz and 144 Hz animation frames;
//   - bad elements, options and images reject attach with a clear message and leave the page
//     working: a missing image, a cross-origin image without CORS (requested with and without
//     CORS: the latter taints the canvas), a detached, empty or huge element;
//   - a <canvas> given to attach is drawn into;
//   - attach/destroy cycles do not grow the wasm memory;
//   - destroy() leaves no canvas, no listener-driven frames and no running frame loop;
//   - no uncaught exception reached the page (`pageerror`).
// Screenshots and the measured figures go to target/e2e/ (RIPPLES_E2E_OUT to change it).
// Exit code 0 when every check passed; the failed checks are listed otherwise.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../dist');
const outDir = path.resolve(process.env.RIPPLES_E2E_OUT ?? path.join(here, '../../target/e2e'));
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const VIEW = { width: 1280, height: 720 };
const MIN_FPS = 50;
const MAX_STEP_RENDER_MS = 5;
const MAX_WASM_BYTES = 400 * 1024;

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves `root` on a free port of 127.0.0.1, counting requests per path. */
async function serve(root) {
  const requests = new Map();
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    requests.set(pathname, (requests.get(pathname) ?? 0) + 1);
    if (pathname === '/e2e-blank.html') {
      response.writeHead(200, { 'content-type': TYPES['.html'] }).end('<!doctype html><title>blank</title><body></body>');
      return;
    }
    let file = path.join(root, pathname);
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    if (pathname.endsWith('/')) file = path.join(file, 'index.html');
    fs.readFile(file, (error, data) => {
      if (error) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      response.end(data);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}`, requests };
}

/** Decodes the PNGs Chromium writes: 8-bit RGB or RGBA, not interlaced. */
function decodePng(buffer) {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const body = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      channels = { 2: 3, 6: 4 }[colour];
      if (depth !== 8 || !channels || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour ${colour})`);
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? pixels[y * stride + i - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const corner = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels] : 0;
      let value = line[i];
      if (filter === 1) value += left;
      else if (filter === 2) value += up;
      else if (filter === 3) value += (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - corner;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - corner)];
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
      }
      pixels[y * stride + i] = value & 255;
    }
  }
  return { width, height, channels, pixels };
}

/** Fractions of pixels that differ between two screenshots, near `centre` and far from it. */
function compare(before, after, centre, nearRadius, farRadius, excluded) {
  let near = 0;
  let nearChanged = 0;
  let far = 0;
  let farChanged = 0;
  const { width, height, channels } = before;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (excluded.some((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height)) continue;
      const distance = Math.hypot(x - centre.x, y - centre.y);
      const i = (y * width + x) * channels;
      const changed =
        before.pixels[i] !== after.pixels[i] ||
        before.pixels[i + 1] !== after.pixels[i + 1] ||
        before.pixels[i + 2] !== after.pixels[i + 2];
      if (distance <= nearRadius) {
        near++;
        if (changed) nearChanged++;
      } else if (distance >= farRadius) {
        far++;
        if (changed) farChanged++;
      }
    }
  }
  return { near: nearChanged / near, far: farChanged / far, nearPixels: near, farPixels: far };
}

const failures = [];
const figures = {};
function check(name, ok, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
  if (!ok) failures.push(`${name}${detail ? `: ${detail}` : ''}`);
}

async function main() {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist} has no index.html: run web/build.sh first`);
  }
  fs.mkdirSync(outDir, { recursive: true });
  const main = await serve(dist);
  const other = await serve(dist);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
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

    // The module: one fetch, a few hundred KB, simd128 inside.
    const wasmBytes = fs.statSync(path.join(dist, 'ripples_web_bg.wasm')).size;
    const wasmFetches = main.requests.get('/ripples_web_bg.wasm') ?? 0;
    figures.wasmBytes = wasmBytes;
    check('one fetch of the wasm', wasmFetches === 1, `${wasmFetches} fetches`);
    check(`wasm at most ${MAX_WASM_BYTES / 1024} KiB`, wasmBytes <= MAX_WASM_BYTES, `${(wasmBytes / 1024).toFixed(0)} KiB`);
    const backend = await page.evaluate(() => window.demo.pool.stats().backend);
    check('wasm runs the simd128 kernels', backend === 'simd128', backend);

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
    await page.mouse.click(click.x, click.y);
    await page.waitForTimeout(400);
    const after = decodePng(await page.screenshot({ path: path.join(outDir, 'click.png') }));
    const ripple = compare(calm1, after, click, 50, 320, excluded);
    figures.click = ripple;
    check('pixels change around the click', ripple.near > 0.2, `${(ripple.near * 100).toFixed(1)}% of ${ripple.nearPixels} pixels within 50 px`);
    check('pixels far from the click do not', ripple.far < 0.001, `${(ripple.far * 100).toFixed(3)}% of ${ripple.farPixels} pixels beyond 320 px`);

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
    // This machine's 2 cores are shared with other work: a second try when the first misses.
    let perf = await measure('classic look (default)', { rain: 20 });
    const meets = (p) => p.fps >= MIN_FPS && p.stepRenderMs <= MAX_STEP_RENDER_MS;
    if (!meets(perf)) perf = await measure('classic look (default), second try', {});
    check(`>= ${MIN_FPS} frames/s at 1280x720`, perf.fps >= MIN_FPS, `${perf.fps.toFixed(1)} fps`);
    check(`<= ${MAX_STEP_RENDER_MS} ms wasm step+render per frame`, perf.stepRenderMs <= MAX_STEP_RENDER_MS, `${perf.stepRenderMs.toFixed(2)} ms`);
    await measure('lit look (reported only)', { look: 'lit' });
    await page.screenshot({ path: path.join(outDir, 'lit-rain.png') });
    await page.evaluate(() => window.demo.pool.set({ look: 'classic', rain: 0 }));

    // Errors a page can handle: each attach rejects with a clear message, the page goes on.
    const errors = await page.evaluate(async (otherOrigin) => {
      const { Ripples } = window.demo;
      const box = (css = 'width:200px;height:120px') => {
        const element = document.createElement('div');
        element.style.cssText = `position:fixed;left:0;top:0;${css}`;
        document.body.append(element);
        return element;
      };
      const attempt = async (element, options) => {
        const before = element instanceof Element ? element.getAttribute('style') : null;
        try {
          const ripples = await Ripples.attach(element, options);
          ripples.destroy();
          return { message: null };
        } catch (error) {
          const clean =
            !(element instanceof Element) ||
            (element.querySelector('canvas') === null && element.getAttribute('style') === before);
          return { message: error.message, type: error.constructor.name, clean };
        } finally {
          if (element instanceof Element) element.remove();
        }
      };
      const results = {
        missing: await attempt(box(), { imageUrl: 'assets/missing.png' }),
        corsRequest: await attempt(box(), { imageUrl: `${otherOrigin}/assets/sunset.svg` }),
        tainted: await attempt(box(), { imageUrl: `${otherOrigin}/assets/sunset.svg`, crossOrigin: null }),
        notImage: await attempt(box(), { imageUrl: 'ripples.js' }),
        detached: await attempt(document.createElement('div'), {}),
        empty: await attempt(box('width:0;height:40px'), {}),
        huge: await attempt(box('width:20000px;height:10px'), {}),
        badOption: await attempt(box(), { solver: 'fast' }),
        unknownOption: await attempt(box(), { dropradius: 3 }),
        notElement: await attempt('#pool', {}),
        image: await attempt(
          Object.assign(document.body.appendChild(document.createElement('img')), { src: 'assets/sunset.svg' }),
          {},
        ),
        twice: await (async () => {
          try {
            await Ripples.attach(document.getElementById('pool'));
            return { message: null };
          } catch (error) {
            return { message: error.message, clean: document.querySelectorAll('#pool > canvas').length === 1 };
          }
        })(),
      };
      const pool = window.demo.pool;
      try {
        pool.set({ rain: -1 });
        results.badSet = { message: null };
      } catch (error) {
        results.badSet = { message: error.message, clean: pool.options.rain === 0 };
      }
      let event = null;
      const listener = (e) => (event = e.message);
      pool.addEventListener('error', listener);
      try {
        await pool.set({ imageUrl: 'assets/missing.png' });
        results.badImageSet = { message: null };
      } catch (error) {
        results.badImageSet = { message: error.message, clean: event === error.message };
      }
      pool.removeEventListener('error', listener);
      await pool.set({ imageUrl: null });
      return results;
    }, other.origin);
    const expectations = {
      missing: /^Ripples\.attach: image 'assets\/missing\.png' could not be loaded/,
      corsRequest: /another origin \(http:\/\/127\.0\.0\.1:\d+\) and was requested with CORS.*Access-Control-Allow-Origin/,
      tainted: /loaded without CORS \(crossOrigin: null\).*tainted/,
      notImage: /image 'ripples\.js' could not be loaded/,
      detached: /^Ripples\.attach: <div> is not in the document/,
      empty: /has no size \(0x40 CSS pixels\)/,
      huge: /needs a 20000x10 pool .*larger than the limit of 16384 pixels per side/,
      badOption: /^Ripples\.attach: solver must be 'classic', 'wave' or 'spring', got 'fast'$/,
      unknownOption: /^Ripples\.attach: unknown option 'dropradius'/,
      notElement: /^Ripples\.attach: expected an element, got '#pool'$/,
      image: /^Ripples\.attach: <img> cannot hold the canvas Ripples draws in; attach to a container/,
      twice: /already has ripples; destroy\(\) them first/,
      badSet: /^Ripples\.set: rain must be a number from 0 to 1000, got -1$/,
      badImageSet: /^Ripples\.set: image 'assets\/missing\.png' could not be loaded/,
    };
    for (const [name, pattern] of Object.entries(expectations)) {
      const result = errors[name];
      const ok = result.message !== null && pattern.test(result.message) && result.clean !== false;
      check(`error: ${name}`, ok, result.message ?? 'did not fail');
    }
    const alive = await page.evaluate(async () => {
      const before = window.demo.pool.stats().steps;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return window.demo.pool.stats().steps - before;
    });
    check('the pool keeps running after the errors', alive >= 10, `${alive} steps in 300 ms`);

    // Every option can change on a running pool; the overlay follows the element's size and
    // the device pixel ratio by itself.
    const changes = await page.evaluate(async () => {
      const pool = window.demo.pool;
      const card = window.demo.card;
      const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      const events = [];
      pool.addEventListener('error', (e) => events.push(e.message));
      const log = {};
      await pool.set({ resolution: 2 });
      log.resolution = `${pool.stats().gridWidth}x${pool.stats().gridHeight}`;
      await pool.set({ resolution: 1, solver: 'wave', border: 'absorb', look: 'lit', perturbance: 2, dropRadius: 20, stepsPerSecond: 120 });
      pool.drop(300, 300);
      await wait(150);
      await pool.set({ solver: 'spring', look: 'spring' });
      pool.drop(300, 300);
      await wait(150);
      await pool.set({ obstacles: 'assets/slits.svg' });
      log.walls = pool.stats().wallCells;
      await pool.set({ obstacles: null, solver: 'classic', border: 'reflect', look: 'classic', perturbance: 1, dropRadius: 12, stepsPerSecond: 60 });
      log.wallsAfter = pool.stats().wallCells;
      await pool.set({ imageUrl: 'assets/sunset.svg' });
      await wait(50);
      await pool.set({ imageUrl: null });
      const steps = pool.stats().steps;
      pool.pause();
      await wait(200);
      log.pausedSteps = pool.stats().steps - steps;
      pool.play();
      await wait(200);
      log.playedSteps = pool.stats().steps - steps;
      const cardElement = document.getElementById('card');
      cardElement.style.width = '300px';
      await wait(200);
      log.cardCanvas = cardElement.querySelector('canvas').width;
      cardElement.style.width = '';
      await wait(200);
      log.cardCanvasBack = cardElement.querySelector('canvas').width;
      card.updateSize();
      // Hidden: no error, the pool waits; shown again: the new resolution applies.
      cardElement.style.display = 'none';
      await wait(100);
      await card.set({ resolution: 2 });
      card.updateSize();
      cardElement.style.display = '';
      await wait(200);
      log.shownGrid = card.stats().gridWidth;
      await card.set({ resolution: 1 });
      log.events = events;
      return log;
    });
    check('resolution 2 halves the grid', changes.resolution === '640x360', changes.resolution);
    check('an obstacles image makes walls', changes.walls > 1000 && changes.wallsAfter === 0, `${changes.walls} wall cells, ${changes.wallsAfter} after`);
    check('pause() stops the water, play() runs it', changes.pausedSteps === 0 && changes.playedSteps >= 8, `${changes.pausedSteps} / ${changes.playedSteps} steps`);
    check('the overlay follows the element size', changes.cardCanvas === 300 && changes.cardCanvasBack === 420, `${changes.cardCanvas}, then ${changes.cardCanvasBack}`);
    check('a hidden element keeps its pool and takes new options when shown', changes.shownGrid === 210, `grid width ${changes.shownGrid}`);
    check('option changes raise no error event', changes.events.length === 0, changes.events.join(' | '));
    await page.setViewportSize({ width: 1000, height: 600 });
    await page.waitForTimeout(300);
    const resized = await page.evaluate(() => `${window.demo.pool.stats().width}x${window.demo.pool.stats().height}`);
    check('a full-window pool follows the window', resized === '1000x600', resized);
    await page.setViewportSize(VIEW);
    await page.waitForTimeout(300);

    // A <canvas> is drawn into, and keeps its last frame after destroy().
    const canvasTarget = await page.evaluate(async () => {
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
      await new Promise((resolve) => setTimeout(resolve, 250));
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
    });
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
    check('destroy() gives the CSS background back', destroyed.cardBackground.includes('sunset.svg'), destroyed.cardBackground);
    check('destroy() stops the frame loop', destroyed.frames === 0, `${destroyed.frames} animation frames requested in 600 ms`);
    check(
      'methods after destroy() throw a clear error',
      /^Ripples\.drop: these ripples were destroyed/.test(destroyed.afterDestroy ?? ''),
      destroyed.afterDestroy,
    );
    await page.screenshot({ path: path.join(outDir, 'destroyed.png') });

    // On a screen of 2 device pixels per CSS pixel the overlay has twice the pixels, unless
    // the page asks for another pixelRatio.
    const dense = await densePage(browser, main.origin);
    check('the overlay follows devicePixelRatio', dense.auto === '400x200' && dense.one === '200x100', JSON.stringify(dense));

    // Time-based stepping: 60 steps per second whether frames come at 30 or 144 Hz.
    for (const hz of [30, 144]) {
      const rate = await stepRate(browser, main.origin, hz);
      figures[`steps per second at ${hz} Hz`] = rate;
      check(`the water runs 60 steps/s with ${hz} Hz frames`, Math.abs(rate.steps - 60) <= 4, `${rate.steps.toFixed(1)} steps/s at ${rate.fps.toFixed(1)} frames/s`);
    }
  } finally {
    check('no uncaught exception in the page', pageErrors.length === 0, pageErrors.join(' | '));
    await browser.close();
    main.server.close();
    other.server.close();
    fs.writeFileSync(path.join(outDir, 'figures.json'), JSON.stringify(figures, null, 2));
  }
}

/** Pool sizes of a 200x100 element at devicePixelRatio 2, by default and at pixelRatio 1. */
async function densePage(browser, origin) {
  const context = await browser.newContext({ viewport: { width: 400, height: 300 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${origin}/e2e-blank.html`);
  const result = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    document.body.innerHTML = '<div id="water" style="width:200px;height:100px"></div>';
    const ripples = await Ripples.attach(document.getElementById('water'));
    const size = () => `${ripples.stats().width}x${ripples.stats().height}`;
    const auto = size();
    await ripples.set({ pixelRatio: 1 });
    const one = size();
    ripples.destroy();
    return { devicePixelRatio: window.devicePixelRatio, auto, one };
  });
  await context.close();
  return result;
}

/** Steps per second of a small pool in a page whose animation frames come at `hz`. */
async function stepRate(browser, origin, hz) {
  const context = await browser.newContext({ viewport: { width: 400, height: 300 } });
  await context.addInitScript((rate) => {
    // Animation frames at `rate` Hz, with the timestamps the browser would give.
    const period = 1000 / rate;
    let next = performance.now();
    window.requestAnimationFrame = (callback) => {
      next += period;
      return setTimeout(() => callback(next), Math.max(0, next - performance.now()));
    };
    window.cancelAnimationFrame = (id) => clearTimeout(id);
  }, hz);
  const page = await context.newPage();
  await page.goto(`${origin}/e2e-blank.html`);
  const result = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    document.body.innerHTML = '<div id="water" style="width:200px;height:150px"></div>';
    const ripples = await Ripples.attach(document.getElementById('water'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const start = { steps: ripples.stats().steps, time: performance.now() };
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const end = ripples.stats();
    const seconds = (performance.now() - start.time) / 1000;
    ripples.destroy();
    return { steps: (end.steps - start.steps) / seconds, fps: end.fps };
  });
  await context.close();
  return result;
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
