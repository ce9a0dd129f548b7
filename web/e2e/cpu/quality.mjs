// The pixel ratio: the overlay on a devicePixelRatio-2 screen, and quality 'auto' lowering it on
// a slow device (the test hook Symbol.for('ripples.simulateSlowDevice')), sharing the frame
// among instances, and raising it on a dense screen when there is room.

import { check, launch } from '../harness.mjs';
import { NO_WEBGL, figures } from './shared.mjs';

/** The overlay follows devicePixelRatio (`suite`: see e2e.mjs). */
export async function devicePixels({ browser, main }) {
  const dense = await densePage(browser, main.origin);
  check('the overlay follows devicePixelRatio', dense.high === '400x200' && dense.one === '200x100', JSON.stringify(dense));
}

/** quality 'auto', at devicePixelRatio 1 and 2 (`suite`: see e2e.mjs). */
export async function qualityAutoChecks({ browser, main }) {
  const auto = await qualityAuto(browser, main.origin);
  figures.qualityAuto = auto;
  check(
    "quality 'auto' keeps the full pixel ratio when frames are cheap",
    auto.fast.pixelRatio === 1 && auto.fast.changes === 0 && auto.fast.canvas === 640,
    JSON.stringify(auto.fast),
  );
  check(
    "quality 'auto' lowers the pixel ratio on a slow device and keeps the water",
    auto.slow.pixelRatio < 1 && auto.slow.canvas < 640 && auto.slow.changes >= 1 && auto.slow.waterKept && auto.slow.stepsGoOn,
    JSON.stringify(auto.slow),
  );
  check(
    "quality 'auto' shares the frame among instances: the one that costs more lowers",
    auto.shared.large.pixelRatio < 1 && auto.shared.small.pixelRatio === 1,
    JSON.stringify(auto.shared),
  );
  check(
    "and holds the level it chose (no oscillation over 3 s)",
    auto.slow.changesLater === auto.slow.changes,
    `${auto.slow.changes} change(s), then ${auto.slow.changesLater}`,
  );
  const denseAuto = await denseScreen(main.origin);
  figures.denseScreen = denseAuto;
  check(
    "on a devicePixelRatio-2 screen quality 'auto' starts at pixel ratio 1",
    denseAuto.devicePixelRatio === 2 && denseAuto.start.pixelRatio === 1 && denseAuto.start.canvas === 320,
    JSON.stringify(denseAuto.start),
  );
  check(
    "and raises it to 2 when there is room",
    denseAuto.later.pixelRatio === 2 && denseAuto.later.canvas === 640 && denseAuto.later.changes >= 1,
    JSON.stringify(denseAuto.later),
  );
  check(
    "and on a slow device stays at 1 or below",
    denseAuto.slow.pixelRatio <= 1,
    JSON.stringify(denseAuto.slow),
  );
}

/** Pool sizes of a 200x100 element at devicePixelRatio 2, at quality 'high' and at pixelRatio 1. */
async function densePage(browser, origin) {
  const context = await browser.newContext({ viewport: { width: 400, height: 300 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${origin}/e2e-blank.html`);
  const result = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    document.body.innerHTML = '<div id="water" style="width:200px;height:100px"></div>';
    const ripples = await Ripples.attach(document.getElementById('water'), { quality: 'high' });
    const size = () => `${ripples.stats().width}x${ripples.stats().height}`;
    const high = size();
    await ripples.set({ pixelRatio: 1 });
    const one = size();
    ripples.destroy();
    return { devicePixelRatio: window.devicePixelRatio, high, one };
  });
  await context.close();
  return result;
}

/**
 * quality 'auto' on a 640x360 element at devicePixelRatio 1, with the classic look and solver
 * (cheap, so that only the simulated slow device makes frames slow): its choices over a few
 * seconds without and with the slow-device test hook (Symbol.for('ripples.simulateSlowDevice')).
 */
async function qualityAuto(browser, origin) {
  const context = await browser.newContext({ viewport: { width: 700, height: 400 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${origin}/e2e-blank.html`);
  const result = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const element = document.createElement('div');
    element.style.cssText = 'width:640px;height:360px';
    document.body.append(element);
    const state = (ripples) => {
      const { quality } = ripples.stats();
      const canvas = element.querySelector('canvas').width;
      return { pixelRatio: quality.pixelRatio, changes: quality.changes, frameMs: quality.frameMs, waterKept: quality.waterKept, canvas };
    };
    const options = { look: 'classic', solver: 'classic', rain: 10 };
    let ripples = await Ripples.attach(element, options);
    await wait(2500);
    const fast = state(ripples);
    ripples.destroy();

    // About 23 ms more per frame at pixel ratio 1: far over the budget.
    Ripples[Symbol.for('ripples.simulateSlowDevice')](100);
    try {
      ripples = await Ripples.attach(element, options);
      ripples.drop(320, 180, 30, 2000);
      // The steps of the first pool, read last before quality 'auto' replaced it.
      let steps = 0;
      for (let i = 0; i < 40; i++) {
        const stats = ripples.stats();
        if (stats.quality.changes > 0) break;
        steps = stats.steps;
        await wait(100);
      }
      await wait(300);
      // The new pool took the old one's steps (and water): the count went on, not from 0.
      const stepsGoOn = steps > 0 && ripples.stats().steps > steps;
      const slow = { ...state(ripples), stepsGoOn };
      // Hysteresis: the level it chose holds; it does not go up and down again.
      await wait(3000);
      slow.changesLater = ripples.stats().quality.changes;
      ripples.destroy();

      // Two instances whose frames are each under the budget but together over it (about 8
      // and 5 ms): they share the page's frames, so the one that costs more lowers (a little
      // rain keeps both loops running: calm water sleeps).
      Ripples[Symbol.for('ripples.simulateSlowDevice')](33);
      const second = document.createElement('div');
      second.style.cssText = 'width:480px;height:270px';
      document.body.append(second);
      ripples = await Ripples.attach(element, { ...options, rain: 1 });
      const small = await Ripples.attach(second, { ...options, rain: 1 });
      for (let i = 0; i < 40 && ripples.stats().quality.changes === 0; i++) await wait(100);
      await wait(1000);
      const shared = {
        large: { pixelRatio: ripples.stats().quality.pixelRatio, frameMs: ripples.stats().quality.frameMs },
        small: { pixelRatio: small.stats().quality.pixelRatio, frameMs: small.stats().quality.frameMs },
      };
      ripples.destroy();
      small.destroy();
      second.remove();
      return { fast, slow, shared };
    } finally {
      Ripples[Symbol.for('ripples.simulateSlowDevice')](0);
    }
  });
  await context.close();
  return result;
}

/**
 * quality 'auto' on a screen of devicePixelRatio 2 (Chromium's --force-device-scale-factor=2,
 * no emulation): the pixel ratio right after attach, a few seconds later, and on a slow device.
 */
async function denseScreen(origin) {
  const browser = await launch([...NO_WEBGL, '--force-device-scale-factor=2', '--window-size=800,600']);
  try {
    const context = await browser.newContext({ viewport: null });
    const page = await context.newPage();
    await page.goto(`${origin}/e2e-blank.html`);
    return await page.evaluate(async () => {
      const { Ripples } = await import('/ripples.js');
      const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      const element = document.createElement('div');
      element.style.cssText = 'width:320px;height:180px';
      document.body.append(element);
      const state = (ripples) => {
        const { quality } = ripples.stats();
        return { ...quality, canvas: element.querySelector('canvas').width };
      };
      // Rain keeps the loop running (calm water sleeps).
      const options = { look: 'classic', solver: 'classic', rain: 5 };
      let ripples = await Ripples.attach(element, options);
      const start = state(ripples);
      for (let i = 0; i < 60 && ripples.stats().quality.pixelRatio < 2; i++) await wait(100);
      const later = state(ripples);
      ripples.destroy();
      Ripples[Symbol.for('ripples.simulateSlowDevice')](200);
      try {
        ripples = await Ripples.attach(element, options);
        await wait(2500);
        const slow = state(ripples);
        ripples.destroy();
        return { devicePixelRatio: window.devicePixelRatio, start, later, slow };
      } finally {
        Ripples[Symbol.for('ripples.simulateSlowDevice')](0);
      }
    });
  } finally {
    await browser.close();
  }
}
