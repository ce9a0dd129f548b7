// The WebGL2 renderer in headless Chromium (SwiftShader gives it WebGL2):
//
// 1. parity: for every look (natural, lit, classic, spring; natural with dispersion and with a
//    sky picture), at simulation scale 1 and 3, one pool's water is rendered by the CPU (the
//    wasm module's frame) and by the GPU (gl-renderer.js from the same pool's surface), over the
//    coffee photograph; the two frames must agree within a mean of 1 level and a 99.9th
//    percentile of 6 levels per channel.
// 2. a page of 32 elements: every one ripples (its canvas changes under a drop), none is blank,
//    and the console says nothing of "too many active WebGL contexts"; stats() says which draw
//    with WebGL and which with the CPU.
// 3. asleep when calm: a calm pool stops its loop (stats().asleep) and a drop wakes it.
// 4. a lost context (WEBGL_lose_context) is carried on by the CPU (the water the GPU stepped is
//    calm after it, the wasm-stepped water kept).
// 5. prefers-reduced-motion: reduce stops the rain; reducedMotion: 'ignore' lets it fall;
//    renderer 'auto' (the default) draws with WebGL2 also where it is software (SwiftShader
//    here), and stats().softwareWebGl says it is.
// 6. a drag that starts on the water selects no text; one that starts on text selects it; a
//    link over the water still follows its click.
// 7. live changes on WebGL, photographed: a resize, every look, the renderer option to the CPU
//    and back, hide()/show(), destroy().
//
// 8. presence, through attach and set(), with each renderer: at 0 a dropped stone changes no
//    pixel by more than 2 levels; at 2 it changes more pixels (by more than 8 levels) than at 1,
//    and by at least 1.2 times as much on average.
//
//   node web/e2e/gl.mjs        (after web/build.sh)

import { PATIENCE_MS, differenceSummary, launch, requireDist, serve } from './harness.mjs';

requireDist();
const { server, origin } = await serve();
const browser = await launch();
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
};

try {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  const messages = [];
  page.on('console', (message) => messages.push(message.text()));
  page.on('pageerror', (error) => messages.push(String(error)));
  await page.goto(`${origin}/e2e-blank.html`);

  // 1. Parity.
  const parity = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    await Ripples.init();
    const { WasmPool } = await import('/ripples_web.js');
    const { GlRenderer } = await import('/gl-renderer.js');
    const memory = (await import('/wasm-loader.js')).loadedExports().memory;
    const image = new Image();
    image.src = '/assets/coffee.jpg';
    await image.decode();
    const [width, height] = [400, 300];
    const scratch = document.createElement('canvas');
    scratch.width = width;
    scratch.height = height;
    const context2d = scratch.getContext('2d', { willReadFrequently: true });
    context2d.drawImage(image, 0, 0, width, height);
    const picture = context2d.getImageData(0, 0, width, height).data;
    // A sky picture: warm at the horizon, deep blue overhead.
    const skyPixels = new Uint8Array(32 * 8 * 4);
    for (let i = 0; i < 32 * 8; i++) skyPixels.set([40 + 25 * (i >> 5), 80 + 15 * (i >> 5), 200 - 10 * (i >> 5), 255], 4 * i);
    const cases = [];
    for (const scale of [1, 3]) {
      cases.push({ look: 'natural', solver: 'dispersive', scale });
      cases.push({ look: 'natural', solver: 'dispersive', scale, presence: 2.5 });
      cases.push({ look: 'lit', solver: 'wave', scale, presence: 0.5 });
      cases.push({ look: 'natural', solver: 'wave', scale, dispersion: 30 });
      cases.push({ look: 'natural', solver: 'dispersive', scale, sky: true, sunElevation: 35 });
      cases.push({ look: 'lit', solver: 'wave', scale });
      cases.push({ look: 'classic', solver: 'classic', scale });
      cases.push({ look: 'classic', solver: 'dispersive', scale });
      cases.push({ look: 'spring', solver: 'spring', scale });
      cases.push({ look: 'natural', solver: 'dispersive', scale, walls: true });
      cases.push({ look: 'lit', solver: 'wave', scale, walls: true });
    }
    const results = [];
    for (const test of cases) {
      const pool = new WasmPool(width, height, test.scale, 7);
      pool.setSolver(test.solver);
      pool.setLook(test.look);
      if (test.dispersion) pool.setDispersion(test.dispersion);
      if (test.presence !== undefined) pool.setPresence(test.presence);
      if (test.sunElevation) pool.setSunElevation(test.sunElevation);
      if (test.sky) pool.setSky(skyPixels, 32, 8);
      pool.setImage(picture);
      if (test.walls) {
        // Two walls: a bar across the top left and a block at the right.
        const mask = new Uint8Array(width * height * 4);
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            const wall = (y > 40 && y < 60 && x > 30 && x < 200) || (x > 300 && x < 340 && y > 120 && y < 220);
            mask.set(wall ? [0, 0, 0, 255] : [255, 255, 255, 255], 4 * (y * width + x));
          }
        }
        pool.setObstacles(mask);
      }
      for (const [x, y, r] of [[120, 90, 14], [260, 180, 20], [330, 60, 9], [60, 240, 12]]) pool.drop(x, y, r, 300);
      pool.advance(24);
      const cpu = new Uint8Array(memory.buffer, pool.framePtr, pool.frameLen).slice();
      pool.setGpu(true);
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const renderer = GlRenderer.create(canvas, null);
      renderer.draw(pool, memory, test.look);
      const gl = canvas.getContext('webgl2');
      const read = new Uint8Array(width * height * 4);
      gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, read);
      renderer.release();
      const histogram = new Float64Array(256);
      let sum = 0;
      let moved = 0;
      for (let y = 0; y < height; y++) {
        const gpuRow = (height - 1 - y) * width * 4;
        for (let i = 0; i < width * 4; i++) {
          const a = cpu[y * width * 4 + i];
          const difference = Math.abs(a - read[gpuRow + i]);
          histogram[difference]++;
          sum += difference;
          if (i % 4 !== 3 && Math.abs(a - picture[y * width * 4 + i]) > 8) moved++;
        }
      }
      const total = width * height * 4;
      pool.free();
      const name = `${test.look}${test.dispersion ? ' +dispersion' : ''}${test.sky ? ' +sky' : ''}${test.walls ? ' +walls' : ''}${test.presence !== undefined ? ` presence ${test.presence}` : ''} (${test.solver} solver, scale ${test.scale})`;
      results.push({ name, mean: sum / total, histogram: Array.from(histogram), moved: moved / (width * height * 3) });
    }
    return results;
  });
  for (const { name, mean, histogram, moved } of parity) {
    const { p999, max } = differenceSummary(histogram);
    check(
      mean <= 1 && p999 <= 6 && moved > 0.02,
      `parity ${name}: mean ${mean.toFixed(3)} levels, 99.9th percentile ${p999}, max ${max}; ` +
        `${(100 * moved).toFixed(1)}% of channels moved > 8 levels by the water`,
    );
  }

  // 2. 32 elements.
  await page.goto(`${origin}/e2e-blank.html`);
  const many = await page.evaluate(async (patience) => {
    const { Ripples } = await import('/ripples.js');
    document.body.style.cssText = 'margin:0;display:grid;grid-template-columns:repeat(8,100px);gap:4px';
    const elements = [];
    for (let i = 0; i < 32; i++) {
      const element = document.createElement('div');
      element.style.cssText = `width:100px;height:80px;background:url(/assets/coffee.jpg) center/cover`;
      document.body.append(element);
      elements.push(element);
    }
    const all = await Promise.all(elements.map((element) => Ripples.attach(element, { interactive: false })));
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const ripples of all) ripples.drop(50, 40, 15, 400);
    // More than 10 steps each (600 ms at 60 a second; longer on a busy machine).
    await new Promise((resolve) => setTimeout(resolve, 600));
    for (let waited = 0; waited < patience && all.some((ripples) => ripples.stats().steps <= 10); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return all.map((ripples) => {
      const stats = ripples.stats();
      return { renderer: stats.renderer, steps: stats.steps, asleep: stats.asleep };
    });
  }, PATIENCE_MS);
  const webgl = many.filter((entry) => entry.renderer === 'webgl').length;
  check(many.every((entry) => entry.steps > 10), `32 elements all step (steps ${Math.min(...many.map((e) => e.steps))} and more)`);
  check(webgl > 0 && webgl <= 8, `32 elements: ${webgl} draw with WebGL2, ${32 - webgl} with the CPU`);
  const shot = await page.screenshot({ clip: { x: 0, y: 0, width: 8 * 104, height: 4 * 84 } });
  const { decodePng } = await import('./harness.mjs');
  const png = decodePng(shot);
  let blank = 0;
  for (let k = 0; k < 32; k++) {
    const cx = (k % 8) * 104 + 50;
    const cy = Math.floor(k / 8) * 84 + 40;
    let sum = 0;
    for (let dy = -20; dy <= 20; dy += 5) {
      for (let dx = -30; dx <= 30; dx += 5) {
        const at = ((cy + dy) * png.width + cx + dx) * png.channels;
        sum += png.pixels[at] + png.pixels[at + 1] + png.pixels[at + 2];
      }
    }
    if (sum < 10 * 9 * 13 || sum > 750 * 9 * 13) blank++;
  }
  check(blank === 0, `32 elements: ${blank} look blank in a screenshot`);
  const tooMany = messages.filter((text) => /too many active WebGL contexts/i.test(text));
  check(tooMany.length === 0, `no "too many active WebGL contexts" (${tooMany.length} messages)`);

  // 3. Asleep when calm, 4. a lost context, 5. reduced motion.
  await page.goto(`${origin}/e2e-blank.html`);
  const life = await page.evaluate(async (patience) => {
    const { Ripples } = await import('/ripples.js');
    const element = document.createElement('div');
    element.style.cssText = 'width:480px;height:320px;background:url(/assets/coffee.jpg) center/cover';
    document.body.append(element);
    const ripples = await Ripples.attach(element, { interactive: false, solver: 'wave', border: 'absorb' });
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    await wait(800);
    const calm = ripples.stats();
    ripples.drop(240, 160, 20, 400);
    // Woken: awake and stepping at the next frames (100 ms; longer on a busy machine).
    await wait(100);
    for (let waited = 0; waited < patience && ripples.stats().steps <= calm.steps; waited += 20) await wait(20);
    const woken = ripples.stats();
    // Until the rings have left through the absorbing border and the loop sleeps again.
    let slept = null;
    for (let i = 0; i < 100 && !slept; i++) {
      await wait(200);
      if (ripples.stats().asleep) slept = ripples.stats().steps;
    }
    await wait(500);
    const stillAsleep = ripples.stats();
    // The context is lost: the CPU carries on with the same water.
    ripples.drop(240, 160, 20, 400);
    await wait(200);
    const canvas = element.querySelector('canvas');
    const before = ripples.stats();
    canvas.getContext('webgl2').getExtension('WEBGL_lose_context').loseContext();
    await wait(300);
    // The water the GPU stepped went with the context (calm at worst): a drop moves it again.
    ripples.drop(240, 160, 20, 400);
    for (let waited = 0; waited < patience && ripples.stats().steps <= before.steps; waited += 20) await wait(20);
    const after = ripples.stats();
    const cpuCanvas = element.querySelector('canvas');
    const pixels = cpuCanvas.getContext('2d').getImageData(0, 0, cpuCanvas.width, cpuCanvas.height).data;
    let moved = 0;
    const reference = document.createElement('canvas');
    ripples.destroy();
    return {
      calmAsleep: calm.asleep,
      calmRenderer: calm.renderer,
      woken: !woken.asleep && woken.steps > calm.steps,
      slept,
      stillAsleep: stillAsleep.asleep && stillAsleep.steps === slept,
      before: before.renderer,
      after: after.renderer,
      reason: after.cpuReason,
      stepsGoOn: after.steps > before.steps,
      canvasSize: [cpuCanvas.width, cpuCanvas.height],
      opaque: pixels[3] === 255 && moved === 0 && reference !== null,
    };
  }, PATIENCE_MS);
  check(life.calmRenderer === 'webgl' && life.calmAsleep, `a calm pool sleeps (renderer ${life.calmRenderer}, asleep ${life.calmAsleep})`);
  check(life.woken, 'a drop wakes it at once');
  check(life.slept !== null && life.stillAsleep, `it sleeps again once the water is calm (at step ${life.slept}) and takes no steps asleep`);
  check(life.before === 'webgl' && life.after === 'cpu' && life.reason === 'context-lost' && life.stepsGoOn,
    `a lost context: ${life.before} -> ${life.after} (${life.reason}), the page carries on`);

  await page.emulateMedia({ reducedMotion: 'reduce' });
  const motion = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    const make = async (options) => {
      const element = document.createElement('div');
      element.style.cssText = 'width:200px;height:150px;background:url(/assets/coffee.jpg) center/cover';
      document.body.append(element);
      return Ripples.attach(element, { interactive: false, rain: 20, ...options });
    };
    const automatic = await make({ renderer: 'auto' });
    const outright = await make({ renderer: 'webgl' });
    const reduced = await make({});
    const ignored = await make({ reducedMotion: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const result = {
      reduced: reduced.stats().asleep,
      ignored: ignored.stats().asleep,
      automatic: [automatic.stats().renderer, automatic.stats().cpuReason, automatic.stats().softwareWebGl],
      outright: outright.stats().renderer,
    };
    automatic.destroy();
    outright.destroy();
    reduced.destroy();
    ignored.destroy();
    return result;
  });
  check(motion.reduced === true && motion.ignored === false,
    `prefers-reduced-motion: reduce: no rain (asleep ${motion.reduced}); reducedMotion 'ignore': rain (asleep ${motion.ignored})`);
  check(motion.automatic.join() === 'webgl,,true' && motion.outright === 'webgl',
    `renderer 'auto' (and 'webgl') draws with SwiftShader's software WebGL2, stats().softwareWebGl says so (${motion.automatic.join(', ')})`);
  await page.emulateMedia({ reducedMotion: 'no-preference' });

  // 7. Live changes with WebGL: a resize, every look, the renderer option both ways, hide/show,
  // each photographed (a WebGL canvas cannot be read back once the frame is composited).
  await page.goto(`${origin}/e2e-blank.html`);
  await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    document.body.style.margin = '0';
    const element = document.createElement('div');
    element.id = 'live';
    element.style.cssText = 'width:400px;height:300px;background:url(/assets/coffee.jpg) center/cover';
    document.body.append(element);
    window.live = await Ripples.attach(element, { interactive: false, rain: 5 });
  });
  const { decodePng: decode } = await import('./harness.mjs');
  // The element as the page shows it: the share of its pixels that are not background white, and
  // the spread of its brightness (a blank or flat canvas has none).
  const photographed = async (width) => {
    await page.waitForTimeout(400);
    const png = decode(await page.screenshot({ clip: { x: 0, y: 0, width, height: 300 } }));
    let sum = 0;
    let squares = 0;
    let white = 0;
    const count = png.width * png.height;
    for (let i = 0; i < count; i++) {
      const at = i * png.channels;
      const value = (png.pixels[at] + png.pixels[at + 1] + png.pixels[at + 2]) / 3;
      sum += value;
      squares += value * value;
      if (value > 250) white++;
    }
    const mean = sum / count;
    const stats = await page.evaluate(() => ({ renderer: window.live.stats().renderer, width: window.live.stats().width }));
    return { ...stats, mean: Math.round(mean), spread: Math.round(Math.sqrt(squares / count - mean * mean)), white: white / count };
  };
  // A blank canvas shows the page's white; glints on the rain's rings are a percent or two of white.
  const visible = (entry) => entry.white < 0.2 && entry.spread > 20;
  const live = { start: await photographed(400) };
  await page.evaluate(() => (document.getElementById('live').style.width = '600px'));
  live.resized = await photographed(600);
  live.looks = {};
  for (const look of ['lit', 'classic', 'spring', 'natural']) {
    await page.evaluate((look) => window.live.set({ look }), look);
    live.looks[look] = await photographed(600);
  }
  await page.evaluate(() => window.live.set({ renderer: 'cpu' }));
  live.cpu = await photographed(600);
  await page.evaluate(() => window.live.set({ renderer: 'webgl' }));
  live.back = await photographed(600);
  await page.evaluate(async () => {
    window.live.hide();
    await new Promise((resolve) => setTimeout(resolve, 100));
    window.live.show();
  });
  live.shown = await photographed(600);
  live.left = await page.evaluate(() => {
    window.live.destroy();
    return document.querySelectorAll('#live canvas').length;
  });
  check(live.start.renderer === 'webgl' && visible(live.start), `WebGL draws the picture: ${JSON.stringify(live.start)}`);
  check(live.resized.width === 600 && live.resized.renderer === 'webgl' && visible(live.resized),
    `a resize: the canvas follows and shows the water: ${JSON.stringify(live.resized)}`);
  check(Object.values(live.looks).every((entry) => entry.renderer === 'webgl' && visible(entry)),
    `every look live on WebGL: ${JSON.stringify(live.looks)}`);
  check(live.cpu.renderer === 'cpu' && visible(live.cpu), `renderer 'cpu' live: ${JSON.stringify(live.cpu)}`);
  check(live.back.renderer === 'webgl' && visible(live.back), `and 'webgl' again: ${JSON.stringify(live.back)}`);
  check(live.shown.renderer === 'webgl' && visible(live.shown) && live.left === 0,
    `hide()/show() on WebGL, then destroy() removes the canvas: ${JSON.stringify(live.shown)}, ${live.left} canvases left`);

  // 6. Selection and links.
  await page.goto(`${origin}/e2e-blank.html`);
  await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    const element = document.createElement('section');
    element.style.cssText = 'width:800px;height:400px;background:url(/assets/coffee.jpg) center/cover;padding:20px;box-sizing:border-box';
    element.innerHTML = '<h1 id="heading" style="margin:100px 0 0 0;font-size:40px">A heading over the water</h1><a id="link" href="#followed">a link</a>';
    document.body.append(element);
    window.ripples = await Ripples.attach(element);
  });
  const heading = await page.locator('#heading').boundingBox();
  // From the water above the heading, across it.
  await page.mouse.move(heading.x + 20, heading.y - 60);
  await page.mouse.down();
  await page.mouse.move(heading.x + 300, heading.y + 20, { steps: 8 });
  await page.mouse.up();
  const fromWater = await page.evaluate(() => String(getSelection()));
  check(fromWater === '', `a drag from the water across the heading selects nothing (${JSON.stringify(fromWater)})`);
  await page.mouse.move(heading.x + 5, heading.y + heading.height / 2);
  await page.mouse.down();
  await page.mouse.move(heading.x + 250, heading.y + heading.height / 2, { steps: 8 });
  await page.mouse.up();
  const fromText = await page.evaluate(() => String(getSelection()));
  check(fromText.length > 5, `a drag that starts on the heading selects its text (${JSON.stringify(fromText)})`);
  await page.click('#link');
  check((await page.evaluate(() => location.hash)) === '#followed', 'a link over the water follows its click');

  // 8. presence: 0 hides a drop, 2 shows more of it than 1, with each renderer. Attached with
  // presence 0 and 1; 2 is set() on an instance attached with 1 (both ways to give it).
  const presence = {};
  for (const renderer of ['cpu', 'webgl']) {
    for (const [given, live] of [[0, null], [1, null], [1, 2]]) {
      await page.goto(`${origin}/e2e-blank.html`);
      await page.evaluate(async ({ renderer, given, live }) => {
        const { Ripples } = await import('/ripples.js');
        document.body.style.margin = '0';
        const element = document.createElement('div');
        element.style.cssText = 'width:400px;height:300px;background:url(/assets/coffee.jpg) center/cover';
        document.body.append(element);
        window.presenceTest = await Ripples.attach(element, { interactive: false, renderer, presence: given, quality: 'high', pixelRatio: 1 });
        if (live !== null) await window.presenceTest.set({ presence: live });
      }, { renderer, given, live });
      await page.waitForTimeout(300);
      const clip = { x: 0, y: 0, width: 400, height: 300 };
      const before = decode(await page.screenshot({ clip }));
      // A gentle stone (a third of the default strength): its changes are not yet as large as
      // the photograph's own contrast allows, so twice the waves show as more.
      // The ring after 30 steps (500 ms at 60 a second; longer on a busy machine), so that each
      // presence is seen at the same age of the ring.
      const dropped = await page.evaluate(() => {
        window.presenceTest.drop(200, 150, 14, 32);
        return window.presenceTest.stats().steps;
      });
      await page.waitForFunction((from) => window.presenceTest.stats().steps - from >= 30, dropped, { timeout: PATIENCE_MS });
      const after = decode(await page.screenshot({ clip }));
      const used = await page.evaluate(() => window.presenceTest.stats().renderer);
      let moved = 0;
      let changed = 0;
      let total = 0;
      for (let i = 0; i < after.width * after.height; i++) {
        let largest = 0;
        for (let c = 0; c < 3; c++) largest = Math.max(largest, Math.abs(after.pixels[i * after.channels + c] - before.pixels[i * before.channels + c]));
        if (largest > 2) moved++;
        if (largest > 8) changed++;
        total += largest;
      }
      const count = after.width * after.height;
      presence[`${renderer} ${live ?? given}`] = { used, moved, changed: changed / count, meanChange: total / count };
    }
  }
  console.log(`presence: ${JSON.stringify(presence)}`);
  for (const renderer of ['cpu', 'webgl']) {
    const [zero, one, two] = [0, 1, 2].map((value) => presence[`${renderer} ${value}`]);
    check([zero, one, two].every((entry) => entry.used === renderer), `presence: ${renderer} draws (${zero.used}, ${one.used}, ${two.used})`);
    check(zero.moved === 0, `presence 0 (${renderer}): a drop moves no pixel by more than 2 levels (${zero.moved})`);
    // The ring covers about the same pixels at any presence; 2 changes them more.
    check(one.changed > 0.01 && two.changed > one.changed && two.meanChange > 1.2 * one.meanChange,
      `presence 2 (${renderer}) changes more than 1: ${(100 * two.changed).toFixed(2)}% against ${(100 * one.changed).toFixed(2)}% ` +
        `of the pixels by more than 8 levels, mean change ${two.meanChange.toFixed(2)} against ${one.meanChange.toFixed(2)} levels`);
  }
} finally {
  await browser.close();
  server.close();
}
if (failures) {
  console.log(`${failures} check(s) failed`);
  process.exit(1);
}
console.log('all WebGL checks passed');
