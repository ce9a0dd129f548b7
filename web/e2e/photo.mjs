// A living photograph on the web (the waterMask, horizon and focal options) in headless
// Chromium, over scenes/lake.jpg (640x400: a shore, trees and sky down to row 266, the lake
// below) with scenes/lake-mask.png and its horizon, row 262:
//   - parity: one pool's water over the lake, rendered by the CPU (the wasm module's frame) and
//     by WebGL2 (gl-renderer.js: gl/photo-shader.js in perspective, the natural look's shader
//     with the land restored for the mask alone), in perspective (mask, horizon, focal) and
//     with the mask alone, at device pixel ratio 1 (sim scale 1 and 3) and 3 (a pool three
//     times as large at the GPU's grid, 4 pixels a cell): the two frames agree within a mean of
//     1 level and a 99.9th percentile of 6 per channel, the water moved (> 0.5% of its
//     channels by more than 8 levels), every land pixel is the picture's, bit for bit, in both frames,
//     and calm water is the picture bit for bit on the GPU too;
//   - with renderer 'webgl' asked for, WebGL2 draws it (stats().renderer 'webgl', no
//     cpuReason), at pixel ratio 1 and 3, and its plane grid holds at most GPU_GRID_CELLS
//     cells (the page picks a coarser grid, not a shorter reach);
//   - a click on the lake moves the water's pixels, and the land's pixels stay exactly the same
//     in every frame (before the click and twice after);
//   - the mask alone (no horizon): a click 33 px below the shore moves the water, the land
//     stays exactly the same;
//   - a resize while rings spread keeps them going (the water region is set again at the new
//     size, the horizon scaled with the picture, and the water resampled onto its grid); then
//     the same as before: a click moves the water, the land stays exactly the same;
//   - set({ horizon: null, waterMask: null }) gives the whole picture back to the water: a click
//     on the land then moves it;
//   - bad options are errors naming the option and the value: a mask URL that does not load
//     (attach and set()), a horizon that is not a number, a focal length without a horizon, a
//     horizon below the picture, a water mask over the built-in tiles.
//
//   node web/e2e/photo.mjs        (after web/build.sh)
//   RIPPLES_PHOTO_PICTURE=docs/photo-web-gpu-cpu.png node web/e2e/photo.mjs
//                                 (also writes the lake's water after four clicks, WebGL2 on
//                                 the left and the CPU on the right, each at its own grid)

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePng, differenceSummary, launch, requireDist, serve } from './harness.mjs';

// The page's grid budget (web/compose.js GPU_GRID_CELLS): a plane grid in perspective keeps to
// it as a top-down grid does.
const GPU_GRID_CELLS = 160000;

const here = path.dirname(fileURLToPath(import.meta.url));
requireDist();
const scenes = path.resolve(here, '../../scenes');
const { server, origin } = await serve(undefined, { mounts: { '/scenes/': scenes } });
const browser = await launch();
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
};

/** Pixels in rows `top..bottom` (of a `width`-wide screenshot) whose colour differs by more than `levels`. */
function changedIn(a, b, top, bottom, levels) {
  let changed = 0;
  let largest = 0;
  for (let y = top; y < bottom; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * a.channels;
      let change = 0;
      for (let c = 0; c < 3; c++) change = Math.max(change, Math.abs(a.pixels[i + c] - b.pixels[i + c]));
      if (change > levels) changed++;
      largest = Math.max(largest, change);
    }
  }
  return { changed, largest };
}

try {
  const context = await browser.newContext({ viewport: { width: 900, height: 600 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  await page.goto(`${origin}/e2e-blank.html`);
  const parity = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    await Ripples.init();
    const { WasmPool } = await import('/ripples_web.js');
    const { GlRenderer } = await import('/gl-renderer.js');
    const memory = (await import('/wasm-loader.js')).loadedExports().memory;
    const pixelsOf = async (url, width, height) => {
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      context.imageSmoothingEnabled = false;
      context.drawImage(image, 0, 0, width, height);
      return context.getImageData(0, 0, width, height).data;
    };
    const results = [];
    for (const { ratio, scale } of [{ ratio: 1, scale: 1 }, { ratio: 1, scale: 3 }, { ratio: 3, scale: 4 }]) {
      const [width, height] = [640 * ratio, 400 * ratio];
      const picture = await pixelsOf('/scenes/lake.jpg', width, height);
      const mask = await pixelsOf('/scenes/lake-mask.png', width, height);
      for (const perspective of [true, false]) {
        const pool = new WasmPool(width, height, scale, 7);
        pool.setPixelsPerCssPixel(ratio);
        pool.setImage(picture);
        pool.setWater(mask, perspective ? 262 * ratio : NaN, perspective ? 560 * ratio : NaN);
        const gpuFrame = () => {
          pool.setGpu(true);
          const canvas = document.createElement('canvas');
          canvas.width = width;
          canvas.height = height;
          const renderer = GlRenderer.create(canvas, null);
          renderer.draw(pool, memory, 'natural');
          const gl = canvas.getContext('webgl2');
          const read = new Uint8Array(width * height * 4);
          gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, read);
          renderer.release();
          pool.setGpu(false);
          // Rows top first, as the CPU's frame.
          const rows = new Uint8Array(read.length);
          for (let y = 0; y < height; y++) rows.set(read.subarray((height - 1 - y) * width * 4, (height - y) * width * 4), y * width * 4);
          return rows;
        };
        pool.advance(0);
        const calm = gpuFrame();
        let calmDifferent = 0;
        for (let i = 0; i < calm.length; i++) if (calm[i] !== picture[i]) calmDifferent++;
        for (const [x, y, r] of [[300, 340, 8], [450, 300, 5], [150, 370, 10], [560, 385, 6]]) pool.drop(x * ratio, y * ratio, r * ratio, perspective ? 4000 : 500);
        pool.advance(24);
        const cpu = new Uint8Array(memory.buffer, pool.framePtr, pool.frameLen).slice();
        const water = pool.waterMask();
        const gpu = gpuFrame();
        const histogram = new Float64Array(256);
        let sum = 0;
        let moved = 0;
        let waterChannels = 0;
        let landCpu = 0;
        let landGpu = 0;
        let land = 0;
        for (let p = 0; p < width * height; p++) {
          if (water[p] === 0) land++;
          for (let c = 0; c < 4; c++) {
            const i = 4 * p + c;
            const difference = Math.abs(cpu[i] - gpu[i]);
            histogram[difference]++;
            sum += difference;
            if (water[p] === 0) {
              if (cpu[i] !== picture[i]) landCpu++;
              if (gpu[i] !== picture[i]) landGpu++;
            } else if (c < 3) {
              waterChannels++;
              if (Math.abs(cpu[i] - picture[i]) > 8) moved++;
            }
          }
        }
        const total = width * height * 4;
        results.push({
          name: `${perspective ? 'perspective (mask, horizon, focal)' : 'mask alone'}, pixel ratio ${ratio}, ${width}x${height}, ${scale} px a cell, grid ${pool.gridWidth}x${pool.gridHeight}`,
          mean: sum / total, histogram: Array.from(histogram), moved: moved / waterChannels, land, landCpu, landGpu, calmDifferent,
        });
        pool.free();
      }
    }
    return results;
  });
  for (const { name, mean, histogram, moved, land, landCpu, landGpu, calmDifferent } of parity) {
    const { p999, max } = differenceSummary(histogram);
    // The photo look moves a far reflection by whole rows but a near one little: at the web's
    // wave height (the photo look's default) about 1% of the lake's channels move by more than
    // 8 levels under these stones, the mask alone (the natural look) about 10%.
    check(mean <= 1 && p999 <= 6 && moved > 0.005,
      `parity, ${name}: mean ${mean.toFixed(3)} levels, 99.9th percentile ${p999}, max ${max}; ` +
        `${(100 * moved).toFixed(1)}% of the water's channels moved > 8 levels`);
    check(land > 0 && landCpu === 0 && landGpu === 0,
      `parity, ${name}: the ${land} land pixels are the picture's exactly (channels off: CPU ${landCpu}, GPU ${landGpu})`);
    check(calmDifferent === 0, `parity, ${name}: calm water on the GPU is the picture bit for bit (${calmDifferent} channels off)`);
  }

  const started = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    document.body.style.margin = '0';
    const element = document.createElement('div');
    element.id = 'lake';
    element.style.cssText = 'width:640px;height:400px;background:url(/scenes/lake.jpg) center/cover';
    document.body.append(element);
    window.lake = await Ripples.attach(element, {
      waterMask: '/scenes/lake-mask.png',
      horizon: 262,
      renderer: 'webgl',
      quality: 'high',
      pixelRatio: 1,
    });
    const stats = window.lake.stats();
    return { renderer: stats.renderer, cpuReason: stats.cpuReason, grid: [stats.gridWidth, stats.gridHeight] };
  });
  check(started.renderer === 'webgl' && started.cpuReason === null, `a living photograph is drawn by WebGL2: ${JSON.stringify(started)}`);
  const gridCells = ([width, height]) => width * height;
  check(gridCells(started.grid) <= GPU_GRID_CELLS && gridCells(started.grid) > GPU_GRID_CELLS / 4,
    `its plane grid keeps to the page's budget: ${started.grid.join('x')} cells at pixel ratio 1 (at most ${GPU_GRID_CELLS})`);
  const sharp = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    const element = document.createElement('div');
    element.style.cssText = 'width:320px;height:200px;background:url(/scenes/lake.jpg) center/cover';
    document.body.append(element);
    const ripples = await Ripples.attach(element, {
      waterMask: '/scenes/lake-mask.png',
      horizon: 262,
      renderer: 'webgl',
      quality: 'high',
      pixelRatio: 3,
    });
    const stats = ripples.stats();
    ripples.destroy();
    element.remove();
    return { renderer: stats.renderer, cpuReason: stats.cpuReason, width: stats.width, grid: [stats.gridWidth, stats.gridHeight] };
  });
  check(sharp.renderer === 'webgl' && sharp.cpuReason === null && sharp.width === 960,
    `at pixel ratio 3 too: ${JSON.stringify(sharp)}`);
  check(gridCells(sharp.grid) <= GPU_GRID_CELLS,
    `at pixel ratio 3 the plane grid keeps to the budget too: ${sharp.grid.join('x')} cells (at most ${GPU_GRID_CELLS})`);

  // A click on the lake: the water moves, the land (rows above 262, the horizon, with a margin
  // for the far shore's reflection) stays exactly as it was.
  const clickAndWatch = async (x, y, width, height, landBottom, waterTop) => {
    await page.waitForTimeout(300);
    const clip = { x: 0, y: 0, width, height };
    const before = decodePng(await page.screenshot({ clip }));
    await page.mouse.click(x, y);
    await page.mouse.move(width + 100, height + 100);
    await page.waitForTimeout(300);
    const soon = decodePng(await page.screenshot({ clip }));
    await page.waitForTimeout(400);
    const later = decodePng(await page.screenshot({ clip }));
    return {
      land: [changedIn(before, soon, 0, landBottom, 0), changedIn(before, later, 0, landBottom, 0)],
      water: [changedIn(before, soon, waterTop, height, 8).changed, changedIn(before, later, waterTop, height, 8).changed],
    };
  };
  const still = (land) => land.every((entry) => entry.changed === 0);
  const first = await clickAndWatch(300, 340, 640, 400, 255, 275);
  check(first.water.every((changed) => changed > 100), `a click on the lake moves the water: ${first.water.join(', ')} pixels changed by more than 8 levels`);
  check(still(first.land), `the land stays exactly the same in every frame: ${JSON.stringify(first.land)}`);

  // The mask alone (seen from above): a stone 33 px below the shore; its ring crosses the
  // mask's edge within the time watched, and is stopped there.
  await page.evaluate(() => window.lake.set({ horizon: null }));
  const masked = await clickAndWatch(300, 300, 640, 400, 260, 270);
  check(masked.water.every((changed) => changed > 100), `the mask alone: a click by the shore moves the water: ${masked.water.join(', ')} pixels`);
  check(still(masked.land), `the mask alone: the land stays exactly the same: ${JSON.stringify(masked.land)}`);
  await page.evaluate(() => window.lake.set({ horizon: 262 }));

  // A resize to 560x350 (the picture is scaled by 7/8, the horizon with it, to row 229) while
  // the rings of a click spread: they go on over the new water (no new click).
  await page.mouse.click(300, 340);
  await page.mouse.move(800, 500);
  await page.waitForTimeout(150);
  await page.evaluate(() => {
    const element = document.getElementById('lake');
    element.style.width = '560px';
    element.style.height = '350px';
  });
  await page.waitForTimeout(100);
  const resizedClip = { x: 0, y: 0, width: 560, height: 350 };
  const afterResize = decodePng(await page.screenshot({ clip: resizedClip }));
  await page.waitForTimeout(150);
  const goingOn = changedIn(afterResize, decodePng(await page.screenshot({ clip: resizedClip })), 240, 350, 8).changed;
  check(goingOn > 100, `a resize keeps the water: the rings go on over the lake (${goingOn} pixels changed by more than 8 levels)`);
  await page.waitForTimeout(1500);
  const resized = await page.evaluate(() => window.lake.stats().width);
  const second = await clickAndWatch(260, 300, 560, 350, 222, 240);
  check(resized === 560 && second.water.every((changed) => changed > 100),
    `after a resize to 560x350 a click on the lake moves the water: ${second.water.join(', ')} pixels (canvas ${resized} wide)`);
  check(still(second.land), `after the resize the land stays exactly the same: ${JSON.stringify(second.land)}`);

  // Without the mask and the horizon, the whole picture is water again.
  await page.evaluate(() => window.lake.set({ waterMask: null, horizon: null }));
  const third = await clickAndWatch(280, 120, 560, 350, 350, 350);
  const back = await page.evaluate(() => window.lake.stats().renderer);
  check(third.land.every((entry) => entry.largest > 8) && back === 'webgl',
    `set({ waterMask: null, horizon: null }): a click on the land moves it, drawn by ${back} again: ${JSON.stringify(third.land)}`);

  // Errors, each naming the option and its value.
  const errors = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    const attempt = async (make) => {
      try {
        await make();
        return 'did not fail';
      } catch (error) {
        return error.message;
      }
    };
    const fresh = (background = 'url(/scenes/lake.jpg) center/cover') => {
      const element = document.createElement('div');
      element.style.cssText = `width:320px;height:200px;background:${background}`;
      document.body.append(element);
      return element;
    };
    return {
      missingMask: await attempt(() => Ripples.attach(fresh(), { waterMask: '/scenes/no-such-mask.png' })),
      missingMaskSet: await attempt(() => window.lake.set({ waterMask: '/scenes/no-such-mask.png' })),
      horizonText: await attempt(() => Ripples.attach(fresh(), { horizon: 'middle' })),
      focalAlone: await attempt(() => Ripples.attach(fresh(), { focal: 500 })),
      horizonBelow: await attempt(() => Ripples.attach(fresh(), { horizon: 900 })),
      tiles: await attempt(() => Ripples.attach(fresh('none'), { waterMask: '/scenes/lake-mask.png' })),
    };
  });
  const expected = {
    missingMask: /waterMask '\/scenes\/no-such-mask.png' could not be loaded/,
    missingMaskSet: /^Ripples.set: waterMask '\/scenes\/no-such-mask.png' could not be loaded/,
    horizonText: /horizon must be a number, got 'middle'/,
    focalAlone: /focal \(500\) needs a horizon/,
    horizonBelow: /^Ripples.attach: waterMask null, horizon 900, focal null \(picture pixels; .*horizon must be/,
    tiles: /waterMask \('\/scenes\/lake-mask.png'\).*need a picture/,
  };
  for (const [name, pattern] of Object.entries(expected)) {
    check(pattern.test(errors[name]), `error: ${name}: ${errors[name]}`);
  }
  const picture = process.env.RIPPLES_PHOTO_PICTURE;
  if (picture) {
    const sides = await browser.newContext({ viewport: { width: 1300, height: 420 }, deviceScaleFactor: 1 });
    const sidePage = await sides.newPage();
    await sidePage.goto(`${origin}/e2e-blank.html`);
    const grids = await sidePage.evaluate(async () => {
      const { Ripples } = await import('/ripples.js');
      document.body.style.cssText = 'margin:0;display:flex;gap:20px;background:#fff';
      const grids = [];
      for (const renderer of ['webgl', 'cpu']) {
        const element = document.createElement('div');
        element.style.cssText = 'width:640px;height:400px;background:url(/scenes/lake.jpg) center/cover';
        document.body.append(element);
        const ripples = await Ripples.attach(element, { waterMask: '/scenes/lake-mask.png', horizon: 262, renderer, quality: 'high', pixelRatio: 1 });
        const stats = ripples.stats();
        grids.push(`${stats.renderer}: ${stats.width}x${stats.height} pixels, grid ${stats.gridWidth}x${stats.gridHeight}`);
      }
      return grids;
    });
    console.log(`picture: ${grids.join('; ')}`);
    await sidePage.waitForTimeout(500);
    for (const [x, y] of [[300, 345], [470, 300], [140, 375], [560, 330]]) {
      await sidePage.mouse.click(x, y);
      await sidePage.mouse.click(x + 660, y);
      await sidePage.waitForTimeout(120);
    }
    await sidePage.mouse.move(1290, 5);
    await sidePage.waitForTimeout(600);
    fs.writeFileSync(picture, await sidePage.screenshot({ clip: { x: 0, y: 250, width: 1300, height: 150 } }));
    console.log(`wrote ${picture}`);
    await sides.close();
  }
  check(pageErrors.length === 0, `no uncaught exception in the page ${pageErrors.join(' | ')}`);
} finally {
  await browser.close();
  server.close();
}
if (failures) {
  console.log(`${failures} check(s) failed`);
  process.exit(1);
}
console.log('all living photograph checks passed');
