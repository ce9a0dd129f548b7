// skyUrl: a picture of the sky for the natural look, on a uniform floor and over a photograph,
// through every kind of new pool, and its errors.

import path from 'node:path';
import { PATIENCE_MS, check, decodePng } from '../harness.mjs';
import { VISIBLE_CHANGE, figures, outDir } from './shared.mjs';

/** The sky picture's checks (`suite`: see e2e.mjs). */
export async function sky({ browser, main, other }) {
  const sky = await skyPicture(browser, main.origin, other.origin);
  figures.sky = sky;
  check(
    'skyUrl: a red sky makes the slopes of the ring redder than calm water',
    // Calm water is the picture whatever the sky (the natural look adds only what the waves
    // change); the ring's slopes reflect the red sky.
    sky.red.ringPixels > 1000 && sky.red.calmShift === 0 && sky.red.ringShift >= 2 && sky.red.steepShift >= 6,
    JSON.stringify(sky.red),
  );
  check("skyUrl: set({ skyUrl: null }) brings the built-in sky back, pixel for pixel", sky.backToBuiltIn === 0, `${sky.backToBuiltIn} pixels differ`);
  check(
    'set({ look }) on a paused instance draws the new look at once, on the same water',
    sky.pausedLook.classicDiffers > 1000 && sky.pausedLook.naturalAgain === 0,
    `${sky.pausedLook.classicDiffers} pixels changed by the classic look, ${sky.pausedLook.naturalAgain} differ back in the natural look`,
  );
  for (const [change, shift] of Object.entries(sky.kept)) {
    check(`skyUrl: the sky picture stays after ${change}`, shift >= 2, `red-over-green shift ${shift.toFixed(2)}`);
  }
  check("quality 'auto' lowered the pixel ratio in the sky test", sky.autoRatio < 1, `pixel ratio ${sky.autoRatio}`);
  const skyErrors = {
    missing: /^Ripples\.set: skyUrl 'assets\/missing-sky\.png' could not be loaded/,
    attachMissing: /^Ripples\.attach: skyUrl 'assets\/missing-sky\.png' could not be loaded/,
    tainted: /^Ripples\.set: skyUrl 'http:\/\/127\.0\.0\.1:\d+\/assets\/sky\.svg' is on another origin .*tainted/,
    notString: /^Ripples\.set: skyUrl must be a URL string or null, got 42$/,
    attachNotString: /^Ripples\.attach: skyUrl must be a URL string or null, got a value of type object$/,
  };
  for (const [name, pattern] of Object.entries(skyErrors)) {
    check(`skyUrl error: ${name}`, pattern.test(sky.errors[name] ?? ''), sky.errors[name] ?? 'did not fail');
  }
  check(
    'skyUrl: assets/sky.svg changes the ripples on a photograph visibly',
    sky.photograph.visiblyChanged >= 0.003,
    `${(sky.photograph.visiblyChanged * 100).toFixed(2)}% of the pixels changed by more than ${VISIBLE_CHANGE} levels`,
  );
  check(
    'skyUrl: after the errors the sky is still the picture and the water runs',
    sky.afterErrors.shift >= 2 && sky.afterErrors.steps >= 5 && sky.afterErrors.events === 2,
    JSON.stringify(sky.afterErrors),
  );
}

/**
 * skyUrl on a 320x200 element over a uniform grey floor (quality 'high', pixelRatio 1), the
 * water paused so that every frame compared shows the same water: pixels under the built-in
 * sky and under a pure red one, the sky through every kind of new pool, errors; then
 * screenshots of the coffee photograph under the built-in sky and under assets/sky.svg.
 * A frame's "shift" is how much redder than green it is than the same water under the
 * built-in sky (mean change of red minus green).
 */
async function skyPicture(browser, origin, otherOrigin) {
  const context = await browser.newContext({ viewport: { width: 800, height: 500 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${origin}/e2e-blank.html`);
  const result = await page.evaluate(async ({ otherOrigin, patience }) => {
    const { Ripples } = await import('/ripples.js');
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    // At least `ms` and `count` steps of the water (more time on a busy machine).
    const stepsOf = async (ms, count) => {
      const from = ripples.stats().steps;
      await wait(ms);
      for (let waited = 0; waited < patience && ripples.stats().steps - from < count; waited += 20) await wait(20);
    };
    const solid = (colour, width, height) => {
      const canvas = Object.assign(document.createElement('canvas'), { width, height });
      const context = canvas.getContext('2d');
      context.fillStyle = colour;
      context.fillRect(0, 0, width, height);
      return canvas.toDataURL('image/png');
    };
    const red = solid('#ff0000', 16, 4);
    document.body.innerHTML = '<div id="water" style="width:320px;height:200px"></div>';
    const element = document.getElementById('water');
    // The wave solver: outside its rings the water is exactly calm (deep water stirs faintly
    // everywhere), so the ring's pixels and the calm ones part cleanly.
    const options = { imageUrl: solid('#808080', 8, 8), look: 'natural', solver: 'wave', quality: 'high', pixelRatio: 1 };
    const ripples = await Ripples.attach(element, options);
    let events = 0;
    ripples.addEventListener('error', (event) => {
      event.preventDefault();
      events++;
    });
    // The frame as it is now: the element's overlay canvas, read back.
    const read = () => {
      const canvas = element.querySelector('canvas');
      return canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    };
    // Per pixel: how much more red than green `after` has than `before`.
    const shifts = (before, after) => {
      const shift = new Float64Array(before.length / 4);
      for (let i = 0; i < shift.length; i++) {
        shift[i] = after[4 * i] - after[4 * i + 1] - (before[4 * i] - before[4 * i + 1]);
      }
      return shift;
    };
    const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
    // The paused water's frame under the red sky, then under the built-in sky: the mean shift.
    const redShift = async () => {
      ripples.updateSize();
      const withRed = read();
      await ripples.set({ skyUrl: null });
      const shift = mean(shifts(read(), withRed));
      await ripples.set({ skyUrl: red });
      return shift;
    };

    // Calm, then rippled, paused; updateSize() redraws the same water without a step.
    await wait(100);
    ripples.pause();
    ripples.updateSize();
    const calm = read();
    ripples.play();
    // Strong stones, for slopes steep enough that Fresnel's law shows (at 150 to 700 ms after
    // them, a tenth of the ring's pixels shifted by 60 to 124 levels, 9 to 18 times calm water).
    for (const [x, y] of [[160, 100], [70, 60], [250, 140]]) ripples.drop(x, y, 16, 1000);
    await stepsOf(300, 18);
    ripples.pause();
    ripples.updateSize();
    const builtIn = read();
    await ripples.set({ skyUrl: red });
    const shift = shifts(builtIn, read());
    await ripples.set({ skyUrl: null });
    const back = read();
    let backToBuiltIn = 0;
    for (let i = 0; i < back.length; i += 4) {
      if (back[i] !== builtIn[i] || back[i + 1] !== builtIn[i + 1] || back[i + 2] !== builtIn[i + 2]) backToBuiltIn++;
    }
    // The ring: pixels the drops changed under the built-in sky; the rest is calm water.
    const ring = [];
    const flat = [];
    for (let i = 0; i < shift.length; i++) {
      const changed = [0, 1, 2].some((c) => calm[4 * i + c] !== builtIn[4 * i + c]);
      (changed ? ring : flat).push(shift[i]);
    }
    const byValue = (a, b) => a - b;
    flat.sort(byValue);
    ring.sort(byValue);
    const redFigures = {
      ringPixels: ring.length,
      calmShift: flat[flat.length >> 1],
      ringShift: mean(ring),
      // The shift of the ring's steepest tenth (its 90th percentile).
      steepShift: ring[Math.floor(ring.length * 0.9)],
    };

    // set() of a look on a paused instance draws it at once, on the same water.
    const differing = (a, b) => {
      let count = 0;
      for (let i = 0; i < a.length; i += 4) {
        if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) count++;
      }
      return count;
    };
    const asNatural = read();
    await ripples.set({ look: 'classic' });
    const asClassic = read();
    await ripples.set({ look: 'natural' });
    const pausedLook = { classicDiffers: differing(asNatural, asClassic), naturalAgain: differing(asNatural, read()) };

    // The picture goes into every new pool, and stays through a new look or solver.
    await ripples.set({ skyUrl: red });
    const kept = {};
    element.style.width = '280px';
    await wait(150);
    ripples.updateSize();
    kept['a resize of the element'] = await redShift();
    await ripples.set({ resolution: 2 });
    kept['a change of resolution'] = await redShift();
    await ripples.set({ resolution: 1, pixelRatio: 0.5 });
    kept['a change of pixelRatio'] = await redShift();
    await ripples.set({ look: 'classic' });
    await ripples.set({ look: 'natural' });
    kept['a change of look'] = await redShift();
    await ripples.set({ solver: 'classic' });
    await ripples.set({ solver: 'wave' });
    // A new solver starts calm, and calm water reflects nothing of the sky: a ring to see it in.
    ripples.drop(140, 100, 16, 1000);
    ripples.play();
    await stepsOf(300, 18);
    ripples.pause();
    kept['a change of solver'] = await redShift();
    // quality 'auto' on a slow device: a new pool at a lower pixel ratio, made by the frame loop.
    await ripples.set({ pixelRatio: 1, quality: 'auto' });
    Ripples[Symbol.for('ripples.simulateSlowDevice')](400);
    // Moving water (calm water sleeps: no frames to measure).
    for (const [x, y] of [[160, 100], [70, 60]]) ripples.drop(x, y, 16, 1000);
    ripples.play();
    try {
      for (let i = 0; i < 60 && ripples.stats().quality.changes === 0; i++) await wait(100);
    } finally {
      Ripples[Symbol.for('ripples.simulateSlowDevice')](0);
    }
    ripples.pause();
    const autoRatio = ripples.stats().quality.pixelRatio;
    kept["quality 'auto' lowering the pixel ratio"] = await redShift();

    // Errors name skyUrl and the URL; the sky stays the picture.
    const errors = {};
    const attempt = async (name, action) => {
      try {
        await action();
      } catch (error) {
        errors[name] = error.message;
      }
    };
    await attempt('missing', () => ripples.set({ skyUrl: 'assets/missing-sky.png' }));
    await attempt('tainted', () => ripples.set({ skyUrl: `${otherOrigin}/assets/sky.svg`, crossOrigin: null }));
    await attempt('notString', () => ripples.set({ skyUrl: 42 }));
    const other = document.body.appendChild(Object.assign(document.createElement('div'), { style: 'width:50px;height:50px' }));
    await attempt('attachMissing', () => Ripples.attach(other, { skyUrl: 'assets/missing-sky.png' }));
    await attempt('attachNotString', () => Ripples.attach(other, { skyUrl: {} }));
    other.remove();
    // The water still reflects the red picture (the frame now against the built-in sky).
    const afterErrors = { shift: await redShift(), events };
    const steps = ripples.stats().steps;
    // A stone, so that there is water to move (calm water sleeps).
    ripples.drop(140, 100, 12, 400);
    ripples.play();
    await stepsOf(300, 5);
    afterErrors.steps = ripples.stats().steps - steps;
    afterErrors.state = (({ asleep, running, inSight, renderer }) => ({ asleep, running, inSight, renderer }))(ripples.stats());
    ripples.destroy();
    return { red: redFigures, backToBuiltIn, pausedLook, kept, autoRatio, errors, afterErrors };
  }, { otherOrigin, patience: PATIENCE_MS });

  // Screenshots: the coffee photograph after a few strong drops (at drop()'s default strength
  // the two skies differ by 3 levels at most: water seen from above reflects little), the same
  // water under both skies.
  await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    document.body.innerHTML =
      '<div id="photo" style="margin:50px 80px;width:640px;height:400px;background:url(assets/coffee.jpg) center/cover"></div>';
    const ripples = (window.ripples = await Ripples.attach(document.getElementById('photo'), { quality: 'high' }));
    for (const [x, y] of [[420, 220], [180, 120], [300, 320], [540, 90]]) ripples.drop(x, y, 12, 1000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    ripples.pause();
  });
  const clip = { x: 80, y: 50, width: 640, height: 400 };
  const builtIn = decodePng(await page.screenshot({ path: path.join(outDir, 'sky-built-in.png'), clip }));
  await page.evaluate(() => window.ripples.set({ skyUrl: 'assets/sky.svg' }));
  const picture = decodePng(await page.screenshot({ path: path.join(outDir, 'sky-picture.png'), clip }));
  await context.close();
  let visible = 0;
  for (let i = 0; i < builtIn.pixels.length; i += builtIn.channels) {
    const change = Math.max(...[0, 1, 2].map((c) => Math.abs(builtIn.pixels[i + c] - picture.pixels[i + c])));
    if (change > VISIBLE_CHANGE) visible++;
  }
  return { ...result, photograph: { visiblyChanged: visible / (builtIn.width * builtIn.height) } };
}
