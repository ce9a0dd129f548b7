// End-to-end test of Ripples on a real hero page, in headless Chromium: a full-width <div> with
// the coffee photograph under a dark gradient as its CSS background, white headline text over
// it, a page that scrolls on below it. Run after web/build.sh (crates/ripples-web/tests/e2e.rs
// runs it after e2e.mjs):
//
//   node web/e2e/hero.mjs
//
// It runs in a Chromium without WebGL (--disable-webgl), so the CPU renderer draws, as where a
// browser has no WebGL2: its frame-gap and pointer-jump checks time frames, and SwiftShader
// (headless Chromium's software WebGL) draws a full-width natural-look hero at about 5 frames a
// second on a busy 2-core machine. The default WebGL2 renderer on a page (resizes, every look,
// hide/show, destroy, a lost context, 32 elements) is web/e2e/gl.mjs's.
//
// Each check prints what it measured:
//   - start-up: the hero before attach, at attach (the first frame, drawn in the same task) and
//     after the first steps differ by little (mean and 99th percentile per pixel), and the
//     page's own multi-layer background (the dark gradient over the photo) keeps its
//     brightness: mean brightness of the hero with ripples against the browser's own drawing;
//   - resizing: 20 height changes (a phone's URL bar) keep the water (a ring dropped before is
//     still there after), the wasm memory does not grow from one resize to the next, and the
//     longest gap between animation frames is reported;
//   - out of sight: scrolled away or in a hidden tab no step is taken; back in sight there is no
//     burst of catch-up steps;
//   - an element removed without destroy() is noticed: loop stopped, instance destroyed, canvas
//     gone, memory reused by the next attach;
//   - jquery.ripples' values (drop(x, y, 20, 0.04), perturbance: 0.04) are refused with a
//     message that says what to pass;
//   - a pointer jump of 360 px leaves a wake that grows along the path over the next frames
//     instead of one streak in one frame;
//   - hide()/show() (the hero after show() as it was just before hide(); paused, pixel for
//     pixel), several instances on one page, background-size: contain, a page that
//     scrolls, background-attachment: fixed.
// Screenshots go to target/e2e/hero/ (RIPPLES_E2E_OUT/hero to change it). Exit code 0 when
// every check passed.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePng, launch, requireDist, serve } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(path.resolve(process.env.RIPPLES_E2E_OUT ?? path.join(here, '../../target/e2e')), 'hero');
const VIEW = { width: 1280, height: 720 };
const HERO_HEIGHT = 560;
/** The hero: a dark gradient over the photograph, white text, then more page. */
const HERO_PAGE = `
  <style>
    body { margin: 0; font-family: sans-serif; }
    #hero { height: ${HERO_HEIGHT}px; color: white; display: flex; flex-direction: column;
      align-items: center; justify-content: center; text-align: center;
      background: linear-gradient(rgba(10, 10, 20, 0.62), rgba(10, 10, 20, 0.62)),
        url(assets/coffee.jpg) center / cover no-repeat; background-color: #222; }
    #hero h1 { font-size: 72px; margin: 0; letter-spacing: 1px; }
    #hero p { font-size: 24px; margin: 12px 0 0; }
    .more { height: 2400px; padding: 40px; font-size: 20px; }
  </style>
  <div id="hero"><h1>Fresh coffee, every morning</h1><p>Roasted in town since 1998</p></div>
  <div class="more">The rest of the page.</div>`;

const failures = [];
function check(name, ok, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
  if (!ok) failures.push(`${name}${detail ? `: ${detail}` : ''}`);
}

/** Per-pixel figures of a region of a decoded screenshot: mean brightness (Rec. 601 luma). */
function brightness(png, region) {
  let total = 0;
  let count = 0;
  for (let y = region.y; y < region.y + region.height; y++) {
    for (let x = region.x; x < region.x + region.width; x++) {
      const i = (y * png.width + x) * png.channels;
      total += 0.299 * png.pixels[i] + 0.587 * png.pixels[i + 1] + 0.114 * png.pixels[i + 2];
      count++;
    }
  }
  return total / count;
}

/** How two screenshots differ in a region: mean and 99th percentile of the largest channel change. */
function difference(a, b, region) {
  const changes = [];
  let total = 0;
  for (let y = region.y; y < region.y + region.height; y++) {
    for (let x = region.x; x < region.x + region.width; x++) {
      const i = (y * a.width + x) * a.channels;
      const change = Math.max(
        Math.abs(a.pixels[i] - b.pixels[i]),
        Math.abs(a.pixels[i + 1] - b.pixels[i + 1]),
        Math.abs(a.pixels[i + 2] - b.pixels[i + 2]),
      );
      changes.push(change);
      total += change;
    }
  }
  changes.sort((p, q) => p - q);
  return { mean: total / changes.length, p99: changes[Math.floor(changes.length * 0.99)] };
}

/**
 * How two screenshots differ in a region once each channel's mean is taken out: what is left
 * when calm water only tints the picture (a shift of colour), and large when the picture moved.
 */
function structureDifference(a, b, region) {
  const means = (png) => {
    const sum = [0, 0, 0];
    for (let y = region.y; y < region.y + region.height; y++) {
      for (let x = region.x; x < region.x + region.width; x++) {
        const i = (y * png.width + x) * png.channels;
        for (let c = 0; c < 3; c++) sum[c] += png.pixels[i + c];
      }
    }
    return sum.map((v) => v / (region.width * region.height));
  };
  const [ma, mb] = [means(a), means(b)];
  let total = 0;
  for (let y = region.y; y < region.y + region.height; y++) {
    for (let x = region.x; x < region.x + region.width; x++) {
      const i = (y * a.width + x) * a.channels;
      for (let c = 0; c < 3; c++) total += Math.abs(a.pixels[i + c] - ma[c] - (b.pixels[i + c] - mb[c]));
    }
  }
  return total / (3 * region.width * region.height);
}

async function heroPage(browser, origin) {
  const context = await browser.newContext({ viewport: VIEW, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/e2e-blank.html`);
  await page.evaluate(async (html) => {
    document.body.innerHTML = html;
    window.Ripples = (await import('/ripples.js')).Ripples;
    await Ripples.init();
    // Every photo decoded before the first screenshot.
    const image = new Image();
    image.src = 'assets/coffee.jpg';
    await image.decode();
  }, HERO_PAGE);
  const hero = { x: 0, y: 0, width: VIEW.width, height: HERO_HEIGHT };
  // The text is the same in every shot; what matters is the background behind it.
  const shot = async (name) => decodePng(await page.screenshot({ path: path.join(outDir, `${name}.png`) }));
  const before = await shot('before-attach');

  // While attach loads its image (held back 600 ms here), the page must look as it did; the
  // first frame (drawn in the task where the canvas goes in, so no blank canvas is ever
  // painted) is the calm water's look: the photograph seen through a little water (a faint
  // tint of the water's colour and the sky), not a flash.
  await page.route('**/coffee.jpg?attach', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.continue();
  });
  await page.evaluate(() => {
    window.attaching = Ripples.attach(document.getElementById('hero'), { quality: 'high', imageUrl: 'assets/coffee.jpg?attach' }).then((r) => {
      window.ripples = r;
      r.pause();
    });
  });
  await page.waitForTimeout(250);
  const during = await shot('during-attach');
  await page.evaluate(() => window.attaching);
  const atAttach = await shot('first-frame');
  await page.evaluate(() => window.ripples.play());
  await page.waitForTimeout(300);
  const running = await shot('running-calm');
  const layers = await page.evaluate(() => ({
    cover: document.querySelectorAll('#hero .ripples-layers').length,
    image: getComputedStyle(document.getElementById('hero')).backgroundImage,
  }));
  const start = {
    during: difference(before, during, hero),
    first: difference(before, atAttach, hero),
    running: difference(before, running, hero),
  };
  const figure = (d) => `mean ${d.mean.toFixed(2)} p99 ${d.p99}`;
  console.log(
    `start-up against the page before attach (levels of 255 per pixel): while attaching ${figure(start.during)}; ` +
      `first frame ${figure(start.first)}; after 300 ms of calm water ${figure(start.running)}`,
  );
  check('start-up: the page looks exactly as before while attach works', start.during.mean === 0, figure(start.during));
  check('start-up: the first frame is the page under calm water (no flash)', start.first.mean < 6 && start.first.p99 <= 10, figure(start.first));
  check('start-up: calm running water stays so', start.running.mean < 6 && start.running.p99 <= 10, figure(start.running));
  const light = { browser: brightness(before, hero), ripples: brightness(running, hero) };
  console.log(`gradient over photo: mean brightness ${light.browser.toFixed(1)} drawn by the browser, ${light.ripples.toFixed(1)} with ripples`);
  check('the dark gradient stays over the water', Math.abs(light.browser - light.ripples) < 3 && layers.cover === 1, `${JSON.stringify(light)}, ${JSON.stringify(layers)}`);

  // Rain and a few drops: the picture for docs/hero-page.png (the hero alone, hero-page.png).
  await page.evaluate(() => {
    window.ripples.set({ rain: 6 });
    for (const [x, y] of [[300, 400], [960, 170], [1120, 450]]) window.ripples.drop(x, y, 20, 600);
  });
  await page.waitForTimeout(800);
  await page.screenshot({ path: path.join(outDir, 'hero-page.png'), clip: hero });

  // Resizing: a ring dropped before is still there after 20 height changes, and the memory
  // stays where the first resizes took it.
  const resize = await page.evaluate(async (height) => {
    const element = document.getElementById('hero');
    const r = window.ripples;
    r.set({ rain: 0 });
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    await wait(2500); // the rain's rings fade
    r.drop(640, 200, 24, 3000);
    await wait(200);
    // Gaps between animation frames: 1.6 s without resizes, then the 20 resizes.
    const gaps = [];
    let last = performance.now();
    let watching = true;
    const watch = (now) => {
      gaps.push(now - last);
      last = now;
      if (watching) requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
    await wait(1600);
    const steady = gaps.splice(0).slice(2);
    const memory = [Ripples.memoryBytes()];
    const steps = r.stats().steps;
    for (let i = 0; i < 20; i++) {
      element.style.height = `${i % 2 === 0 ? height + 60 : height}px`;
      await wait(80);
      memory.push(Ripples.memoryBytes());
    }
    watching = false;
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    return {
      memory,
      longest: Math.max(...gaps),
      median: median(gaps),
      steadyLongest: Math.max(...steady),
      steadyMedian: median(steady),
      steps: r.stats().steps - steps,
      kept: r.stats().quality.waterKept,
    };
  }, HERO_HEIGHT);
  const ring = await shot('after-resizes');
  const mib = (bytes) => (bytes / 2 ** 20).toFixed(1);
  console.log(
    `20 resizes (1280x${HERO_HEIGHT} <-> 1280x${HERO_HEIGHT + 60}): wasm memory ${resize.memory.map(mib).join(' ')} MiB; ` +
      `frame gaps: longest ${resize.longest.toFixed(0)} ms, median ${resize.median.toFixed(0)} ms (without resizes: ` +
      `longest ${resize.steadyLongest.toFixed(0)} ms, median ${resize.steadyMedian.toFixed(0)} ms); ${resize.steps} steps taken meanwhile`,
  );
  // A pool costs about 17 bytes per pixel (image, frame, two fields, walls): growing to a size
  // never seen before may take that much once; after that the memory is reused.
  const onePool = 17 * VIEW.width * (HERO_HEIGHT + 60);
  check(
    'resizes reuse the wasm memory (at most one pool more, once)',
    resize.memory[20] === resize.memory[2] && resize.memory[20] - resize.memory[0] <= onePool,
    `${mib(resize.memory[0])} -> ${mib(resize.memory[20])} MiB, one pool ${mib(onePool)} MiB`,
  );
  check('the water goes on through resizes', resize.kept && resize.steps > 60, JSON.stringify(resize));
  // The ring around (640, 200) against calm running water, far from the text.
  const around = difference(running, ring, { x: 560, y: 120, width: 160, height: 40 });
  check('a ring dropped before the resizes is still there after them', around.mean > 4, `mean change ${around.mean.toFixed(1)} near the drop`);
  check('the longest frame gap during the resizes', resize.longest < 250, `${resize.longest.toFixed(0)} ms`);

  // Out of sight: scrolled away, no steps; back, no burst.
  const sight = await page.evaluate(async () => {
    const r = window.ripples;
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    window.scrollTo(0, 1780);
    await wait(300);
    const away = r.stats().steps;
    await wait(1000);
    const stepsAway = r.stats().steps - away;
    const inSightAway = r.stats().inSight;
    // Steps per animation frame over the next `frames` frames (at 60 steps a second and 60
    // frames, 1; catching up on the time away would be the clock's most, 4, a frame).
    // The steps of each of the next `frames` frames, and the most any frame took beyond what
    // its time was worth at 60 steps a second (rounded up, plus one): a catch-up burst is the
    // clock's most, 4 steps, in one ordinary frame.
    const perFrame = async (frames) => {
      const counts = [];
      let steps = r.stats().steps;
      let last = performance.now();
      counts.excess = 0;
      for (let i = 0; i < frames; i++) {
        const time = await new Promise((resolve) => requestAnimationFrame(resolve));
        const now = r.stats().steps;
        counts.push(now - steps);
        counts.excess = Math.max(counts.excess, now - steps - Math.ceil(((time - last) * 60) / 1000) - 1);
        steps = now;
        last = time;
      }
      return counts;
    };
    window.scrollTo(0, 0);
    const firstFrames = await perFrame(8);
    const firstBack = firstFrames.excess;
    // A hidden tab (what the browser says when the user switches tabs).
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    const hiddenFrom = r.stats().steps;
    await wait(600);
    const stepsHidden = r.stats().steps - hiddenFrom;
    delete document.visibilityState;
    document.dispatchEvent(new Event('visibilitychange'));
    const afterHidden = (await perFrame(8)).excess;
    return { stepsAway, inSightAway, firstFrames, firstBack, stepsHidden, afterHidden };
  });
  console.log(
    `out of sight: ${sight.stepsAway} steps in 1 s scrolled 1780 px away; steps in each of the first 8 frames back ` +
      `${sight.firstFrames.join(' ')} (at most ${sight.firstBack} more in a frame than its time is worth); ${sight.stepsHidden} ` +
      `steps in 0.6 s in a hidden tab, ${sight.afterHidden} too many in the 8 frames after`,
  );
  check('no steps while scrolled out of view', sight.stepsAway <= 1 && !sight.inSightAway, JSON.stringify(sight));
  check('no burst of steps back in view', sight.firstBack === 0, `at most ${sight.firstBack} steps more in a frame than its time`);
  check('no steps in a hidden tab, no burst after', sight.stepsHidden <= 1 && sight.afterHidden === 0, JSON.stringify(sight));

  // hide() / show(): the page's own background while hidden, no work; the water back after.
  // The ring dropped before the resizes still runs here (the default waves last seconds), so
  // the hero after show() is compared with itself just before hide(), not with the calm water
  // of the start (the ring's glints make it a few levels brighter).
  const beforeHide = await shot('before-hide');
  const hidden = await page.evaluate(async () => {
    const r = window.ripples;
    const element = document.getElementById('hero');
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    r.hide();
    const steps = r.stats().steps;
    const background = getComputedStyle(element).backgroundImage;
    const canvas = getComputedStyle(element.querySelector('canvas')).display;
    await wait(400);
    const stepsHidden = r.stats().steps - steps;
    r.show();
    await wait(300);
    return {
      background,
      canvas,
      stepsHidden,
      stepsShown: r.stats().steps - steps - stepsHidden,
      after: getComputedStyle(element).backgroundImage,
      hidden: r.hidden,
    };
  });
  check(
    'hide() shows the page background and stops the water; show() brings it back',
    hidden.background.includes('coffee.jpg') && hidden.background.includes('gradient') && hidden.canvas === 'none' &&
      hidden.stepsHidden === 0 && hidden.stepsShown > 5 && !hidden.after.includes('coffee.jpg') && !hidden.hidden,
    JSON.stringify(hidden),
  );
  const shown = await shot('after-show');
  const [lightBefore, lightShown] = [brightness(beforeHide, hero), brightness(shown, hero)];
  check(
    'after show() the hero looks as before hide() (running water, 0.7 s later)',
    Math.abs(lightShown - lightBefore) < 3,
    `mean brightness ${lightShown.toFixed(1)} after show(), ${lightBefore.toFixed(1)} before hide() (calm water at the start: ${light.ripples.toFixed(1)})`,
  );
  // The same with the water paused: show() brings back the very water hide() left.
  await page.evaluate(() => window.ripples.pause());
  await page.waitForTimeout(100);
  const pausedBefore = await shot('paused-before-hide');
  await page.evaluate(async () => {
    window.ripples.hide();
    await new Promise((resolve) => setTimeout(resolve, 200));
    window.ripples.show();
  });
  await page.waitForTimeout(100);
  const pausedShown = difference(pausedBefore, await shot('paused-after-show'), hero);
  await page.evaluate(() => window.ripples.play());
  check('paused, hide() then show() brings back the same water, pixel for pixel', pausedShown.mean === 0, figure(pausedShown));

  // The jquery.ripples porting traps: refused with what to pass instead.
  const traps = await page.evaluate(async () => {
    const r = window.ripples;
    const message = (action) => {
      try {
        action();
        return null;
      } catch (error) {
        return error.message;
      }
    };
    let perturbance = null;
    try {
      await r.set({ perturbance: 0.04 });
    } catch (error) {
      perturbance = error.message;
    }
    let resolution = null;
    try {
      await r.set('resolution', 256);
    } catch (error) {
      resolution = error.message;
    }
    // jquery.ripples' set(name, value) form, with the converted value, works.
    await r.set('perturbance', 1.33);
    const converted = r.options.perturbance;
    await r.set({ perturbance: 1 });
    return {
      drop: message(() => r.drop(100, 100, 20, 0.04)),
      perturbance,
      resolution,
      converted,
      ok: message(() => r.drop(100, 100, 20, 36)),
    };
  });
  console.log(`drop(x, y, 20, 0.04): ${traps.drop}\nperturbance 0.04: ${traps.perturbance}`);
  check('drop() with a jquery.ripples strength says what to pass', /0\.04/.test(traps.drop ?? '') && /36/.test(traps.drop ?? '') && traps.ok === null, traps.drop);
  check(
    'perturbance: 0.04 says what to pass, and set(name, value) takes it',
    /0\.04/.test(traps.perturbance ?? '') && /1\.33/.test(traps.perturbance ?? '') && traps.converted === 1.33,
    traps.perturbance,
  );
  console.log(`resolution 256: ${traps.resolution}`);
  check("jquery.ripples' resolution says what to pass", /for a 1280 px wide element, 5\)$/.test(traps.resolution ?? ''), traps.resolution);

  // A pointer that jumps 360 px (one pointermove): the fingertip follows it along the jump at a
  // finger's speed, so right after the jump the far part of the path is still calm, and later
  // the wake covers it. At 10 steps a second the steps are far apart enough to look between.
  // On calm water of its own: a strip over the hero, which the test takes away after.
  await page.evaluate(async () => {
    window.scrollTo(0, 0);
    const strip = document.createElement('div');
    strip.id = 'strip';
    strip.style.cssText = 'position:absolute;left:0;top:0;width:1280px;height:200px;z-index:5;background:url(assets/coffee.jpg) center/cover';
    document.body.append(strip);
    window.strip = await Ripples.attach(strip, { quality: 'high', stepsPerSecond: 10 });
  });
  await page.waitForTimeout(300);
  const trail = { x: 200, y: 100, length: 360 };
  const calmTrail = await shot('trail-calm');
  await page.mouse.move(trail.x, trail.y);
  await page.mouse.down();
  await page.mouse.move(trail.x + trail.length, trail.y, { steps: 1 });
  await page.waitForTimeout(120);
  const early = await shot('trail-early');
  await page.waitForTimeout(2200);
  const late = await shot('trail-late');
  await page.mouse.up();
  await page.evaluate(() => {
    window.strip.destroy();
    document.getElementById('strip').remove();
  });
  // The path in 40 px pieces: the share of pixels (a 24 px band around the line) that changed.
  const pieces = (after) => {
    const shares = [];
    for (let from = 40; from < trail.length; from += 40) {
      let changed = 0;
      let count = 0;
      for (let y = trail.y - 12; y < trail.y + 12; y++) {
        for (let x = trail.x + from; x < trail.x + from + 40; x++) {
          const i = (y * after.width + x) * after.channels;
          const change = Math.max(...[0, 1, 2].map((c) => Math.abs(after.pixels[i + c] - calmTrail.pixels[i + c])));
          count++;
          if (change > 3) changed++;
        }
      }
      shares.push(changed / count);
    }
    return shares;
  };
  const earlyShares = pieces(early);
  const lateShares = pieces(late);
  const percent = (list) => list.map((v) => `${Math.round(v * 100)}`).join(' ');
  console.log(
    `pointer jump of 360 px: changed pixels (%) along the path in 40 px pieces from 40 px: right after ` +
      `${percent(earlyShares)}; 2.3 s later ${percent(lateShares)}`,
  );
  check(
    'a 360 px pointer jump is not one streak at once',
    earlyShares.slice(3).every((share) => share < 0.05),
    percent(earlyShares),
  );
  check('the finger then leaves its wake all along the jump', lateShares.every((share) => share > 0.05), percent(lateShares));

  // An element removed without destroy(): noticed, destroyed, its memory reused.
  const removal = await page.evaluate(async () => {
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const frames = () => window.ripples.stats().steps; // the hero keeps running meanwhile
    const memory = [];
    const results = [];
    for (let i = 0; i < 4; i++) {
      const box = document.createElement('div');
      box.style.cssText = 'width:400px;height:300px;background:url(assets/coffee.jpg) center/cover';
      document.body.prepend(box);
      const r = await Ripples.attach(box, { quality: 'high' });
      await wait(150);
      const before = r.stats().steps;
      box.remove();
      await wait(400);
      const whileOut = r.destroyed ? -1 : r.stats().steps - before;
      await wait(1000);
      let error = null;
      try {
        r.stats();
      } catch (e) {
        error = e.message;
      }
      results.push({ whileOut, destroyed: r.destroyed, canvas: box.querySelectorAll('canvas').length, error });
      memory.push(Ripples.memoryBytes());
    }
    frames();
    return { results, memory };
  });
  const first = removal.results[0];
  console.log(`removed without destroy(): ${JSON.stringify(first)}; memory after each of 4 cycles ${removal.memory.map(mib).join(' ')} MiB`);
  check(
    'an element removed without destroy() stops and is destroyed',
    removal.results.every((r) => r.whileOut === 0 && r.destroyed && r.canvas === 0 && /destroyed/.test(r.error ?? '')),
    JSON.stringify(removal.results),
  );
  check('its memory is reused', removal.memory[3] === removal.memory[1], removal.memory.map(mib).join(' '));
  check('no uncaught exception on the hero page', errors.length === 0, errors.join('; '));
  await context.close();
}

/**
 * background-size: contain (the element's colour around the picture), background-attachment:
 * fixed (the picture stays put as the page scrolls), a click on a scrolled page, and several
 * instances on one page, each against the browser's own drawing of the page.
 */
async function layouts(browser, origin) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/e2e-blank.html`);
  await page.evaluate(async () => {
    document.body.innerHTML = `
      <div id="contain" style="margin:20px;width:600px;height:240px;background:#2a4058 url(assets/coffee.jpg) center/contain no-repeat"></div>
      <div id="fixed" style="margin:20px;width:800px;height:300px;background:url(assets/coffee.jpg) center/cover no-repeat fixed"></div>
      <div id="second" style="margin:20px;width:300px;height:200px;background:url(assets/coffee.jpg) 30% 40%/500px auto"></div>
      <div style="height:1400px"></div>
      <div id="far" style="margin:20px;width:300px;height:200px;background:url(assets/coffee.jpg) center/cover"></div>`;
    window.Ripples = (await import('/ripples.js')).Ripples;
    await Ripples.init();
    const image = new Image();
    image.src = 'assets/coffee.jpg';
    await image.decode();
  });
  const box = async (id) => page.evaluate((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return { x: Math.round(r.left), y: Math.round(r.top), width: Math.round(r.width), height: Math.round(r.height) };
  }, id);
  const shot = async (name) => decodePng(await page.screenshot({ path: path.join(outDir, `${name}.png`) }));
  const scroll = async (y) => {
    await page.evaluate((y) => window.scrollTo(0, y), y);
    await page.waitForTimeout(400);
  };
  const referenceTop = await shot('layouts-before');
  await scroll(200);
  const referenceScrolled = await shot('layouts-before-scrolled');
  await scroll(0);
  await page.evaluate(async () => {
    window.instances = {};
    for (const id of ['contain', 'fixed', 'second', 'far']) {
      window.instances[id] = await Ripples.attach(document.getElementById(id), { quality: 'high' });
    }
  });
  await page.waitForTimeout(400);
  const top = await shot('layouts-attached');
  const contain = await box('contain');
  const fixed = await box('fixed');
  // contain: the bands left and right of the picture keep the element's colour.
  const band = { x: contain.x, y: contain.y, width: 80, height: contain.height };
  const containFigures = { band: difference(referenceTop, top, band), whole: difference(referenceTop, top, contain) };
  const fixedTop = difference(referenceTop, top, fixed);
  await scroll(200);
  const scrolled = await shot('layouts-attached-scrolled');
  const fixedScrolled = difference(referenceScrolled, scrolled, await box('fixed'));
  const fixedShape = {
    top: structureDifference(referenceTop, top, fixed),
    scrolled: structureDifference(referenceScrolled, scrolled, await box('fixed')),
  };
  const figure = (d) => `mean ${d.mean.toFixed(2)} p99 ${d.p99}`;
  console.log(
    `contain: colour band ${figure(containFigures.band)}, whole element ${figure(containFigures.whole)}; fixed: ` +
      `${figure(fixedTop)} at the top, ${figure(fixedScrolled)} scrolled 200 px (against the browser's drawing; ` +
      `without the calm water's tint: ${fixedShape.top.toFixed(2)} and ${fixedShape.scrolled.toFixed(2)})`,
  );
  check('background-size: contain keeps the colour around the picture', containFigures.band.mean < 1 && containFigures.whole.mean < 6, JSON.stringify(containFigures));
  check(
    'background-attachment: fixed stays put as the page scrolls',
    fixedShape.top < 4 && fixedShape.scrolled < 4 && fixedTop.p99 <= 20 && fixedScrolled.p99 <= 20,
    JSON.stringify(fixedShape),
  );

  // A click on the scrolled page makes its ring where it was clicked.
  const target = await box('fixed');
  const click = { x: target.x + 500, y: target.y + 150 };
  const calm = await shot('scrolled-calm');
  await page.mouse.click(click.x, click.y);
  await page.waitForTimeout(300);
  const clicked = await shot('scrolled-click');
  const near = difference(calm, clicked, { x: click.x - 25, y: click.y - 25, width: 50, height: 50 });
  const far = difference(calm, clicked, { x: target.x + 20, y: target.y + 20, width: 120, height: 80 });
  check('a click on a scrolled page ripples where it was clicked', near.mean > 8 && far.mean < 2, `near ${figure(near)}, far ${figure(far)}`);

  // Several instances: the ones in view step, the one scrolled out of view does not.
  const steps = await page.evaluate(async () => {
    const { instances } = window;
    const read = () => Object.fromEntries(Object.entries(instances).map(([id, r]) => [id, r.stats().steps]));
    // A stone in each, so that there is water to move (calm water sleeps).
    for (const r of Object.values(instances)) r.drop(40, 40, 12, 200);
    const before = read();
    await new Promise((resolve) => setTimeout(resolve, 800));
    const after = read();
    return Object.fromEntries(Object.keys(before).map((id) => [id, after[id] - before[id]]));
  });
  console.log(`several instances, steps in 0.8 s: ${JSON.stringify(steps)}`);
  check(
    'several instances on a page: those in view run, the one out of view rests',
    steps.contain > 20 && steps.fixed > 20 && steps.second > 20 && steps.far === 0,
    JSON.stringify(steps),
  );
  // hide()/show() on a <canvas> given to attach: cleared and resting, then drawn again.
  const canvas = await page.evaluate(async () => {
    const element = document.createElement('canvas');
    element.width = 200;
    element.height = 100;
    document.body.prepend(element);
    window.scrollTo(0, 0);
    const r = await Ripples.attach(element);
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const opaque = () => {
      const context = element.getContext('2d');
      const { data } = context.getImageData(0, 0, 200, 100);
      let count = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) count++;
      return count;
    };
    await wait(200);
    const shown = opaque();
    r.hide();
    const steps = r.stats().steps;
    await wait(300);
    const hidden = { opaque: opaque(), steps: r.stats().steps - steps };
    // A stone, so that the water moves once it shows (calm water sleeps).
    r.drop(100, 50, 10, 200);
    r.show();
    await wait(300);
    const again = { opaque: opaque(), steps: r.stats().steps - steps };
    r.destroy();
    element.remove();
    return { shown, hidden, again };
  });
  check(
    'hide()/show() on a <canvas>: cleared and resting, then drawn and running',
    canvas.shown === 20000 && canvas.hidden.opaque === 0 && canvas.hidden.steps === 0 && canvas.again.opaque === 20000 && canvas.again.steps > 5,
    JSON.stringify(canvas),
  );
  check('no uncaught exception on the layouts page', errors.length === 0, errors.join('; '));
  await context.close();
}

async function main() {
  requireDist();
  fs.mkdirSync(outDir, { recursive: true });
  const site = await serve();
  const browser = await launch(['--disable-webgl']);
  try {
    await heroPage(browser, site.origin);
    await layouts(browser, site.origin);
  } finally {
    await browser.close();
    site.server.close();
  }
  if (failures.length) {
    console.log(`\n${failures.length} hero page check(s) failed:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
  console.log('\nall hero page checks passed');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
