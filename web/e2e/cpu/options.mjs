// Errors a page can handle (attach and set() reject with a clear message and the page goes on),
// the demo's videoUrl control, and every option changed on a running pool.

import { PATIENCE_MS, check } from '../harness.mjs';
import { VIEW } from './shared.mjs';

/** Errors, the demo's video control, live option changes (`suite`: see e2e.mjs). */
export async function errorsAndOptions({ page, other }) {
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
    badOption: /^Ripples\.attach: solver must be 'classic', 'wave', 'spring' or 'dispersive', got 'fast'$/,
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
  const alive = await page.evaluate(async (patience) => {
    // A stone, so that there is water to move (calm water sleeps).
    window.demo.pool.drop(200, 200);
    const before = window.demo.pool.stats().steps;
    const started = performance.now();
    // 10 steps (300 ms at 60 a second; longer on a busy machine).
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let waited = 0; waited < patience && window.demo.pool.stats().steps - before < 10; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { steps: window.demo.pool.stats().steps - before, ms: performance.now() - started };
  }, PATIENCE_MS);
  check('the pool keeps running after the errors', alive.steps >= 10, `${alive.steps} steps in ${alive.ms.toFixed(0)} ms`);

  // The demo's videoUrl control: the video plays under the water, and the image control lets
  // go of its photograph (an image and a video cannot both be given).
  const errorsBefore = await page.evaluate(() => window.demo.errors.length);
  await page.selectOption('select[name=imageUrl]', '1');
  await page.waitForFunction(() => window.demo.pool.options.imageUrl !== null);
  await page.selectOption('select[name=videoUrl]', '1');
  const demoVideo = await page.evaluate(async (errorsBefore) => {
    const pool = window.demo.pool;
    for (let waited = 0; waited < 5000 && !(pool.stats().video?.uploads >= 3); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const video = pool.stats().video;
    return {
      url: video?.url ?? null,
      uploads: video?.uploads ?? 0,
      imageOption: pool.options.imageUrl,
      imageControl: document.querySelector('select[name=imageUrl]').value,
      errors: window.demo.errors.slice(errorsBefore),
    };
  }, errorsBefore);
  check(
    "the demo's videoUrl control plays its video under the water and lets go of the image",
    demoVideo.url === 'assets/coffee-zoom.webm' && demoVideo.uploads >= 3 && demoVideo.imageOption === null &&
      demoVideo.imageControl === '0' && demoVideo.errors.length === 0,
    JSON.stringify(demoVideo),
  );
  await page.selectOption('select[name=videoUrl]', '0');
  await page.waitForFunction(() => window.demo.pool.options.videoUrl === null && !window.demo.pool.stats().video);

  // Every option can change on a running pool; the overlay follows the element's size and
  // the device pixel ratio by itself.
  const changes = await page.evaluate(async (patience) => {
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
    await pool.set({ obstacles: null, solver: 'wave', border: 'reflect', look: 'natural', perturbance: 1, dropRadius: 12, stepsPerSecond: 60 });
    // The natural look's options, live.
    const before = pool.stats().steps;
    await pool.set({ depth: 90, caustics: 0.6, sunElevation: 35, sunAzimuth: -40, waterColor: 'teal', clarity: 300, waveHeight: 0.08, dispersion: 20 });
    log.natural = { colour: pool.options.waterColour, running: pool.stats().steps >= before };
    await pool.set({ ...window.demo.Ripples.defaults, imageUrl: null, interactive: true, quality: 'high' });
    log.wallsAfter = pool.stats().wallCells;
    await pool.set({ imageUrl: 'assets/sunset.svg' });
    await wait(50);
    await pool.set({ imageUrl: null });
    const steps = pool.stats().steps;
    pool.pause();
    // A stone, so that there is water to move (calm water sleeps); paused, it waits.
    pool.drop(300, 300);
    await wait(200);
    log.pausedSteps = pool.stats().steps - steps;
    pool.play();
    // 200 ms of water, however slowly frames come on a busy machine (the natural look at
    // 1280x720 costs up to 100 ms a frame in wasm without SIMD kernels).
    for (let waited = 0; waited < patience && pool.stats().steps - steps < 8; waited += 50) await wait(50);
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
  }, PATIENCE_MS);
  check('resolution 2 halves the grid', changes.resolution === '640x360', changes.resolution);
  check('an obstacles image makes walls', changes.walls > 1000 && changes.wallsAfter === 0, `${changes.walls} wall cells, ${changes.wallsAfter} after`);
  check('pause() stops the water, play() runs it', changes.pausedSteps === 0 && changes.playedSteps >= 8, `${changes.pausedSteps} / ${changes.playedSteps} steps`);
  check('the overlay follows the element size', changes.cardCanvas === 300 && changes.cardCanvasBack === 420, `${changes.cardCanvas}, then ${changes.cardCanvasBack}`);
  check('a hidden element keeps its pool and takes new options when shown', changes.shownGrid === 210, `grid width ${changes.shownGrid}`);
  check('option changes raise no error event', changes.events.length === 0, changes.events.join(' | '));
  check(
    "the natural look's options change live (waterColor is waterColour)",
    changes.natural.colour === '#008080' && changes.natural.running,
    JSON.stringify(changes.natural),
  );
  await page.setViewportSize({ width: 1000, height: 600 });
  await page.waitForTimeout(300);
  const resized = await page.evaluate(() => `${window.demo.pool.stats().width}x${window.demo.pool.stats().height}`);
  check('a full-window pool follows the window', resized === '1000x600', resized);
  await page.setViewportSize(VIEW);
  await page.waitForTimeout(300);
}
