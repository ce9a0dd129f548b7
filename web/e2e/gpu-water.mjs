// The water stepped on the GPU (gl/simulation.js) in headless Chromium (SwiftShader's WebGL2):
//
// 1. parity: two instances over the same picture, their rain seeded alike, the same drops,
//    paused, step(600): one with simulation 'gpu', one with 'cpu' (the wasm solver), both drawn
//    by WebGL2. The frames must agree within a mean of 1 level and a 99.9th percentile of 8
//    levels per channel (issue 36), and the water must have moved (the check could not pass on
//    calm water). For the dispersive solver under the natural look, at simulation scale 2: with
//    drops, with rain (its stones on moving water and at the edges), with walls and an absorbing
//    edge, and with the pointer; the wave solver in the rain; the lit, classic and spring looks.
// 2. stats().simulation: 'gpu' where asked and possible, and by default; 'cpu' with its reason
//    for 'cpu', and for what the GPU does not step yet (another solver, another look, ...).
// 3. the option and step(n) refuse bad values with errors that name them.
// 4. asleep when calm on the GPU: after a drop and no rain, the loop sleeps once the damping has
//    taken the water below the calm tolerance, and a drop wakes it; and sooner where the GPU
//    measures the water calm (its largest height read back asynchronously), as rings that leave
//    through an absorbing edge are.
// 5. a lost context (WEBGL_lose_context) while the GPU steps the water: the wasm solver and the
//    CPU renderer carry on, calm at worst, stats() saying why, with no error.
// 6. a resize carries the water on the GPU as on the CPU (resampled onto the new grid).
//
//   node web/e2e/gpu-water.mjs        (after web/build.sh)

import { PATIENCE_MS, check, differenceSummary, failures, launch, requireDist, serve } from './harness.mjs';

requireDist();
const { server, origin } = await serve();
const browser = await launch();

try {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  const messages = [];
  page.on('console', (message) => messages.push(message.text()));
  page.on('pageerror', (error) => messages.push(String(error)));
  await page.goto(`${origin}/e2e-blank.html`);

  // 4. Asleep when calm, on the GPU: a drop of strength 1 is calm (below the tolerance, by the
  // damping) after some 520 steps; stepped 600 and played, the loop's first calm check sleeps.
  const asleep = await page.evaluate(async (patience) => {
    const { Ripples } = await import('/ripples.js');
    const element = document.createElement('div');
    element.style.cssText = 'width: 200px; height: 150px';
    document.body.append(element);
    const ripples = await Ripples.attach(element, { interactive: false, stepsPerSecond: 240 });
    ripples.pause();
    ripples.drop(100, 75, 12, 1);
    ripples.step(600);
    ripples.play();
    const start = performance.now();
    // SwiftShader may still be busy with the 600 steps: wait for the loop, however long it takes.
    while (!ripples.stats().asleep && performance.now() - start < patience) await new Promise((r) => setTimeout(r, 50));
    const after = ripples.stats();
    ripples.drop(100, 75, 12, 50);
    const woke = !ripples.stats().asleep;
    ripples.destroy();
    element.remove();
    return { simulation: after.simulation, asleep: after.asleep, woke, steps: after.steps };
  }, PATIENCE_MS * 2);
  check(
    'on the GPU, calm water sleeps (known from the damping) and a drop wakes it',
    asleep.simulation === 'gpu' && asleep.asleep && asleep.woke && asleep.steps >= 600,
    JSON.stringify(asleep),
  );

  // 4b. Measured calm: rings that leave through an absorbing edge are calm long before the
  // damping alone says so; the GPU measures the water (read back a frame or more late) and the
  // loop sleeps then. The damping's bound for a stone of strength 400: its depth (400 times
  // WAVE_STONE_DEPTH, 1 / (1/2 - 2/pi^2)) decayed by 0.5% a step below the tolerance of 0.5.
  const measured = await page.evaluate(async (patience) => {
    const { Ripples } = await import('/ripples.js');
    const element = document.createElement('div');
    element.style.cssText = 'width: 240px; height: 160px';
    document.body.append(element);
    const ripples = await Ripples.attach(element, { interactive: false, solver: 'wave', border: 'absorb', stepsPerSecond: 240 });
    ripples.drop(120, 80, 20, 400);
    const start = performance.now();
    await new Promise((r) => setTimeout(r, 200));
    while (!ripples.stats().asleep && performance.now() - start < patience) await new Promise((r) => setTimeout(r, 50));
    const s = ripples.stats();
    ripples.destroy();
    element.remove();
    return { simulation: s.simulation, asleep: s.asleep, steps: s.steps };
  }, PATIENCE_MS * 3);
  const depth = 400 / (0.5 - 2 / Math.PI ** 2);
  const dampingBound = Math.ceil(Math.log(depth / 0.5) / -Math.log(1 - 0.005));
  check(
    `on the GPU, water measured calm sleeps before the damping's bound (${dampingBound} steps)`,
    measured.simulation === 'gpu' && measured.asleep && measured.steps < dampingBound,
    JSON.stringify(measured),
  );

  // 5. A lost context while the GPU steps the water: the wasm solver and the CPU renderer carry
  // on (from calm water: the fields were the GPU's), saying why, with no error.
  const lost = await page.evaluate(async (patience) => {
    const { Ripples } = await import('/ripples.js');
    const element = document.createElement('div');
    element.style.cssText = 'width: 240px; height: 160px; background: url(/assets/coffee.jpg) center / cover';
    document.body.append(element);
    const ripples = await Ripples.attach(element, { interactive: false });
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    ripples.drop(120, 80, 12, 200);
    await wait(200);
    const before = ripples.stats();
    element.querySelector('canvas').getContext('webgl2').getExtension('WEBGL_lose_context').loseContext();
    await wait(200);
    for (let waited = 0; waited < patience && ripples.stats().renderer !== 'cpu'; waited += 20) await wait(20);
    const switched = ripples.stats();
    ripples.drop(120, 80, 12, 200);
    for (let waited = 0; waited < patience && ripples.stats().steps <= switched.steps; waited += 20) await wait(20);
    const after = ripples.stats();
    ripples.destroy();
    element.remove();
    return {
      before: `${before.renderer}/${before.simulation}`,
      after: `${after.renderer}/${after.simulation}/${after.simulationReason}/${after.cpuReason}`,
      stepsGoOn: after.steps > switched.steps,
    };
  }, PATIENCE_MS);
  check(
    'a lost context: the water the GPU stepped goes on in the wasm solver, drawn by the CPU, saying why',
    lost.before === 'webgl/gpu' && lost.after === 'cpu/cpu/context-lost/context-lost' && lost.stepsGoOn,
    JSON.stringify(lost),
  );

  // 6. A resize carries the water on the GPU as on the CPU (resampled onto the new grid): the
  // same drops, steps, a wider element and more steps, in both.
  const resized = await page.evaluate(async (patience) => {
    const { Ripples } = await import('/ripples.js');
    const frames = {};
    for (const simulation of ['gpu', 'cpu']) {
      const element = document.createElement('div');
      element.style.cssText = 'width: 400px; height: 300px; background: url(/assets/coffee.jpg) left top / 800px 600px';
      document.body.append(element);
      const ripples = await Ripples.attach(element, { simulation, interactive: false, pixelRatio: 1, resolution: 2 });
      ripples.pause();
      ripples.drop(200, 150, 20, 300);
      ripples.drop(330, 80, 12, 200);
      ripples.step(150);
      element.style.width = '460px';
      const start = performance.now();
      while (ripples.stats().width !== 460 && performance.now() - start < patience) await new Promise((r) => setTimeout(r, 20));
      ripples.step(150);
      const scratch = document.createElement('canvas');
      [scratch.width, scratch.height] = [460, 300];
      const context = scratch.getContext('2d', { willReadFrequently: true });
      context.drawImage(element.querySelector('canvas'), 0, 0);
      frames[simulation] = { pixels: Array.from(context.getImageData(0, 0, 460, 300).data), stats: ripples.stats() };
      ripples.destroy();
      element.remove();
    }
    const histogram = new Array(256).fill(0);
    let sum = 0;
    for (let i = 0; i < frames.gpu.pixels.length; i++) {
      if (i % 4 === 3) continue;
      const d = Math.abs(frames.gpu.pixels[i] - frames.cpu.pixels[i]);
      histogram[d]++;
      sum += d;
    }
    const pick = (s) => ({ simulation: s.simulation, width: s.width, kept: s.quality.waterKept, steps: s.steps });
    return { mean: sum / (460 * 300 * 3), histogram, gpu: pick(frames.gpu.stats), cpu: pick(frames.cpu.stats) };
  }, PATIENCE_MS);
  {
    const { p999, max } = differenceSummary(resized.histogram);
    check(
      'a resize carries the water on the GPU as on the CPU: frames after it within the parity bounds',
      resized.gpu.simulation === 'gpu' && resized.cpu.simulation === 'cpu' && resized.gpu.width === 460 && resized.gpu.kept && resized.mean <= 1 && p999 <= 8,
      `mean ${resized.mean.toFixed(3)} levels, 99.9th percentile ${p999}, max ${max}; ${JSON.stringify([resized.gpu, resized.cpu])}`,
    );
  }

  // 1. Parity.
  const cases = [
    { name: 'dispersive natural, scale 2, drops only', options: { resolution: 2, rain: 0 } },
    { name: 'dispersive natural, scale 2, rain 4/s', options: { resolution: 2, rain: 4 } },
    // The wave solver (its substeps, its stone the dent alone), in the rain at an absorbing edge.
    { name: 'wave natural, scale 2, rain 4/s, absorb', options: { resolution: 2, rain: 4, solver: 'wave', border: 'absorb' } },
    // The other looks, drawn from the gradients of the water the GPU steps.
    { name: 'dispersive lit, scale 2, rain 4/s', options: { resolution: 2, rain: 4, look: 'lit' } },
    { name: 'wave classic, scale 2, rain 4/s', options: { resolution: 2, rain: 4, solver: 'wave', look: 'classic' } },
    { name: 'dispersive spring look, scale 2, rain 4/s', options: { resolution: 2, rain: 4, look: 'spring' } },
    // Walls (a barrier with two slits) and an absorbing edge.
    { name: 'dispersive natural, scale 2, walls and absorb', options: { resolution: 2, rain: 0, obstacles: '/assets/slits.svg', border: 'absorb' } },
    // The pointer alone (no stone: no click), a drag across the water and a hover that leaves:
    // its fingertips, pressed every step. The same pointer events on both instances.
    // Its wake is faint by design (input.js: a drag presses at strength 48, where a drop is 96):
    // 300 steps after the drag began, some 0.8% of the channels still differ from calm by more
    // than 8 levels.
    { name: 'dispersive natural, scale 2, the pointer', options: { resolution: 2, rain: 0, interactive: true }, pointer: true, moved: 0.004 },
    // The wave solver presses a share of a step's impulse into each substep's field.
    { name: 'wave natural, scale 2, the pointer', options: { resolution: 2, rain: 0, interactive: true, solver: 'wave' }, pointer: true, moved: 0.004 },
  ];
  const parity = await page.evaluate(async (cases) => {
    const { Ripples } = await import('/ripples.js');
    const { setSeedForTests } = await import('/simulation.js');
    const [width, height] = [400, 300];
    const frameOf = (ripples) => {
      const scratch = document.createElement('canvas');
      scratch.width = width;
      scratch.height = height;
      const context = scratch.getContext('2d', { willReadFrequently: true });
      context.drawImage(ripples.element.querySelector('canvas') ?? ripples.element, 0, 0);
      return context.getImageData(0, 0, width, height).data;
    };
    // Pointer events at (x, y) of the element, `buttons` held.
    const pointer = (element, type, [x, y], buttons) => {
      const box = element.getBoundingClientRect();
      const init = { clientX: box.left + x, clientY: box.top + y, pointerId: 1, pointerType: 'mouse', buttons, bubbles: true };
      element.dispatchEvent(new PointerEvent(type, init));
    };
    const results = [];
    for (const { name, options, pointer: withPointer } of cases) {
      const frames = {};
      const stats = {};
      for (const simulation of ['gpu', 'cpu']) {
        const element = document.createElement('div');
        element.style.cssText = `width: ${width}px; height: ${height}px; background: url(/assets/coffee.jpg) center / cover`;
        document.body.append(element);
        setSeedForTests(20260);
        const ripples = await Ripples.attach(element, { interactive: false, ...options, simulation, pixelRatio: 1 });
        setSeedForTests(null);
        ripples.pause();
        ripples.step(0);
        const calm = frameOf(ripples);
        if (withPointer) {
          for (let i = 1; i <= 20; i++) {
            pointer(element, 'pointermove', [60 + 14 * i, 60 + 6 * i], 1);
            ripples.step(3);
          }
          pointer(element, 'pointerup', [340, 180], 0);
          for (let i = 0; i < 10; i++) {
            pointer(element, 'pointermove', [340 - 20 * i, 180 + 5 * i], 0);
            ripples.step(2);
          }
          pointer(element, 'pointerleave', [160, 230], 0);
          ripples.step(220);
          ripples.step(300);
        } else {
          ripples.drop(120, 100);
          ripples.drop(300, 200, 20, 300);
          ripples.step(300);
          ripples.drop(200, 150, 8);
          ripples.step(300);
        }
        frames[simulation] = frameOf(ripples);
        const s = ripples.stats();
        stats[simulation] = { simulation: s.simulation, reason: s.simulationReason, steps: s.steps, renderer: s.renderer };
        if (simulation === 'cpu') {
          let moved = 0;
          for (let i = 0; i < calm.length; i++) if (i % 4 !== 3 && Math.abs(calm[i] - frames.cpu[i]) > 8) moved++;
          stats.moved = moved / (width * height * 3);
        }
        ripples.destroy();
        element.remove();
      }
      const histogram = new Array(256).fill(0);
      let sum = 0;
      for (let i = 0; i < frames.gpu.length; i++) {
        if (i % 4 === 3) continue;
        const d = Math.abs(frames.gpu[i] - frames.cpu[i]);
        histogram[d]++;
        sum += d;
      }
      results.push({ name, mean: sum / (width * height * 3), histogram, stats });
    }
    return results;
  }, cases);
  for (const { name, mean, histogram, stats } of parity) {
    const moved = cases.find((c) => c.name === name).moved ?? 0.01;
    const { p999, max } = differenceSummary(histogram);
    check(
      `${name}: the GPU steps it (stats().simulation)`,
      stats.gpu.simulation === 'gpu' && stats.gpu.reason === null && stats.cpu.simulation === 'cpu' && stats.cpu.reason === 'option',
      JSON.stringify(stats),
    );
    check(`${name}: both stepped 600 steps`, stats.gpu.steps === 600 && stats.cpu.steps === 600, `${stats.gpu.steps} and ${stats.cpu.steps}`);
    check(`${name}: the water moved`, stats.moved > moved, `${(100 * stats.moved).toFixed(1)}% of channels by more than 8 levels`);
    const figures = `mean ${mean.toFixed(3)} levels, 99.9th percentile ${p999}, max ${max}`;
    check(`${name}: GPU-stepped frame = wasm-stepped frame after step(600)`, mean <= 1 && p999 <= 8, figures);
  }

  // 2. What stats() says where the GPU does not step the water.
  const fallbacks = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    const element = document.createElement('div');
    element.style.cssText = 'width: 200px; height: 150px';
    document.body.append(element);
    const ripples = await Ripples.attach(element);
    const out = { defaults: ripples.stats() };
    await ripples.set({ interactive: false });
    out.auto = ripples.stats();
    await ripples.set({ rain: 2 });
    out.rain = ripples.stats();
    await ripples.set({ simulation: 'gpu' });
    out.rainGpu = ripples.stats();
    await ripples.set({ simulation: 'auto', rain: 0, solver: 'wave' });
    out.wave = ripples.stats();
    await ripples.set({ solver: 'spring' });
    out.spring = ripples.stats();
    await ripples.set({ solver: 'dispersive', simulation: 'gpu', look: 'lit' });
    out.lit = ripples.stats();
    await ripples.set({ look: 'natural', renderer: 'cpu' });
    out.cpuRenderer = ripples.stats();
    ripples.destroy();
    element.remove();
    const pick = (s) => `${s.simulation}/${s.simulationReason}`;
    return Object.fromEntries(Object.entries(out).map(([k, s]) => [k, pick(s)]));
  });
  check('stats(): the defaults (the pointer on) step on the GPU', fallbacks.defaults === 'gpu/null', fallbacks.defaults);
  check("stats(): 'auto' steps on the GPU where it can", fallbacks.auto === 'gpu/null', fallbacks.auto);
  check("stats(): 'auto' steps rain on the GPU", fallbacks.rain === 'gpu/null', fallbacks.rain);
  check("stats(): 'gpu' steps rain on the GPU", fallbacks.rainGpu === 'gpu/null', fallbacks.rainGpu);
  check("stats(): 'auto' steps the wave solver on the GPU", fallbacks.wave === 'gpu/null', fallbacks.wave);
  check('stats(): another solver steps on the CPU, saying so', fallbacks.spring === 'cpu/solver', fallbacks.spring);
  check("stats(): 'gpu' steps the water under the lit look too", fallbacks.lit === 'gpu/null', fallbacks.lit);
  check('stats(): the CPU renderer steps on the CPU', fallbacks.cpuRenderer === 'cpu/renderer', fallbacks.cpuRenderer);

  // 3. Bad values.
  const refused = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    const element = document.createElement('div');
    element.style.cssText = 'width: 200px; height: 150px';
    document.body.append(element);
    const message = async (action) => {
      try {
        await action();
        return 'no error';
      } catch (error) {
        return String(error.message);
      }
    };
    const out = { attach: await message(() => Ripples.attach(element, { simulation: 'fast' })) };
    const ripples = await Ripples.attach(element);
    out.set = await message(() => ripples.set({ simulation: 7 }));
    out.playing = await message(() => ripples.step(1));
    ripples.pause();
    out.negative = await message(() => ripples.step(-1));
    out.fraction = await message(() => ripples.step(1.5));
    out.ok = await message(() => ripples.step(2));
    ripples.destroy();
    element.remove();
    return out;
  });
  check('a bad simulation is refused, naming the option', /simulation/.test(refused.attach) && /'fast'/.test(refused.attach), refused.attach);
  check('set() refuses a bad simulation, naming the option', /simulation/.test(refused.set), refused.set);
  check('step(n) while playing throws', /pause/.test(refused.playing), refused.playing);
  check('step(-1) and step(1.5) are refused, naming n', /step: n/.test(refused.negative) && /1\.5/.test(refused.fraction), `${refused.negative} | ${refused.fraction}`);
  check('step(2) on a paused instance works', refused.ok === 'no error', refused.ok);

  const errors = messages.filter((m) => /error|warning/i.test(m));
  check('the console says nothing of errors', errors.length === 0, errors.slice(0, 3).join(' | '));
} finally {
  await browser.close();
  server.close();
}

if (failures.length) {
  console.log(`\n${failures.length} check(s) failed`);
  process.exit(1);
}
console.log('\nthe GPU-stepped water: all checks passed');
