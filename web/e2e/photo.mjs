// A living photograph on the web (the waterMask, horizon and focal options) in headless
// Chromium, over scenes/lake.jpg (640x400: a shore, trees and sky down to row 266, the lake
// below) with scenes/lake-mask.png and its horizon, row 262:
//   - with renderer 'webgl' asked for, the CPU draws it and stats() says why (cpuReason
//     'waterMask');
//   - a click on the lake moves the water's pixels, and the land's pixels stay exactly the same
//     in every frame (before the click and twice after);
//   - the mask alone (no horizon): a click 33 px below the shore moves the water, the land
//     stays exactly the same;
//   - the same after a resize (which drops the water region: it is set again at the new size,
//     the horizon scaled with the picture);
//   - set({ horizon: null, waterMask: null }) gives the whole picture back to the water: a click
//     on the land then moves it;
//   - bad options are errors naming the option and the value: a mask URL that does not load
//     (attach and set()), a horizon that is not a number, a focal length without a horizon, a
//     horizon below the picture, a water mask over the built-in tiles.
//
//   node web/e2e/photo.mjs        (after web/build.sh)

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePng, launch, requireDist, serve } from './harness.mjs';

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
    return { renderer: stats.renderer, cpuReason: stats.cpuReason };
  });
  check(started.renderer === 'cpu' && started.cpuReason === 'waterMask', `a water mask is drawn by the CPU: ${JSON.stringify(started)}`);

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

  // A resize to 560x350 (the picture is scaled by 7/8, the horizon with it, to row 229).
  await page.evaluate(() => {
    const element = document.getElementById('lake');
    element.style.width = '560px';
    element.style.height = '350px';
  });
  await page.waitForTimeout(400);
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
