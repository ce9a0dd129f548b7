// The web benchmark: frames per second and milliseconds per frame of Ripples in headless
// Chromium, for each look, at a fixed size and pixel ratio, drawn by the CPU renderer
// (renderer 'cpu': these runs measure the wasm renderer; `--processes` measures the defaults).
//
//   bash web/build.sh && node web/e2e/bench.mjs [--seconds 4] [--size 1280x720] [--rain 20]
//                                               [--runs natural/wave,classic/classic,...]
//                                               [--quality high|auto] [--video] [--verbose]
//
// Each run opens a fresh page of `--size` CSS pixels at devicePixelRatio 1 with one element over
// the coffee photograph, attaches Ripples with that look and solver, rain and quality 'high'
// (the pixel ratio stays 1, so the figures are about one size; `--quality auto` shows what the
// default makes of it instead, the pool's size saying which ratio it chose), lets it settle
// for a second, then samples stats() every second for `--seconds` seconds. It prints per run:
// frames per second, the wasm step+render time and the putImageData time per drawn frame
// (their means, and the worst step+render), the pool's size, and the bytes of JavaScript
// objects that the frame loop (ripples.js and the page modules of a frame, video.js and the wasm glue, from the animation-frame callback
// down) allocated per frame, by V8's sampling heap profiler with the objects the garbage
// collector took back counted too (`--verbose` lists them by function). What remains there
// are numbers: the timestamps performance.now() returns and the arithmetic on them, each a
// heap object in code V8 has not optimized yet; the loop makes no objects or arrays.
//
// `--video` runs each look/solver twice, interleaved: over the photograph, then over a playing
// 1280x720 30 fps clip (testsrc2, VP9, made with ffmpeg in target/e2e/video/clips) given as
// `videoUrl`, placed to cover the element, and prints for the latter the main-thread cost of
// copying one video frame under the water, the frames copied per second and how
// (videoframe: WebCodecs straight to RGBA, 1:1; canvas: drawn and read back). Its JS B/frame
// then includes the video copies' objects (a VideoFrame and a promise per video frame).
//
// `--processes` measures instead what a hero page costs the browser's processes: for 1280x720
// at devicePixelRatio 1, 1920x1080@1, 2560x1440@2 and 390x844@3 (a phone: touch, mobile
// viewport), a page whose hero section is the coffee photograph under a heading, as it is
// (bare), with Ripples (calm, then with rain) and with jquery.ripples 0.6.3 (calm, then with
// drops at the same rate, its API having no rain), each in a fresh page for `--seconds`
// seconds after a warm-up (and, where frames are slow, until MIN_FRAMES frames were drawn, up
// to SLOW_RUN_SECONDS): the canvas's size, frames per second (the page's animation frames;
// 0 while Ripples sleeps on calm water), and the CPU time of the renderer processes and of the
// GPU process from /proc (every thread's schedstat, as % of one core and as ms per frame). Ripples runs
// with its defaults (renderer 'auto': WebGL2, here SwiftShader's, at full device pixels, the
// water stepped on the GPU), with simulation 'cpu' (the water stepped in the wasm module, its
// surface uploaded every frame), and with renderer 'cpu' for comparison; for each, where the
// water is stepped (stats().simulation) and the bytes of it sent to the GPU per drawn frame
// (stats().uploadedBytes). The browser runs its GPU pipeline (harness.mjs's
// GPU_PIPELINE_FLAGS: SwiftShader through ANGLE, compositing included), so the WebGL canvas stays
// in the GPU process as on a device with a GPU (with --disable-gpu the renderer process would
// read every frame back for a software compositor). SwiftShader draws on the CPU, in the GPU
// process: its time and the frame rates say nothing of a real GPU; what stays on a real
// device's CPU is the renderer process's time per frame. Where SwiftShader draws a few frames a
// second, each of Ripples' frames carries up to 4 steps (the clock catches up) where a frame at
// 60 fps carries one, so the table also gives the renderer's time per frame less the extra
// steps' own time (Ripples' stats(): the wasm time per frame over the steps it took), an
// estimate of a one-step frame's. At 2560x1440@2 (5120x2880 device
// pixels) SwiftShader takes seconds per frame, so that run counts frames rather than seconds. A stand-in run takes
// the full-size run's grid, steps and surface uploads with a canvas of the grid's size
// (pixelRatio lowered by the pixels per cell), which SwiftShader fills nearer the screen's
// rate: its renderer time per frame is what the full-size run's would be where a GPU keeps up
// (a frame of the full-size run carries many steps). The last column gives the main thread's
// milliseconds of a frame with one step (Ripples' own stats(): its wasm steps scaled to one,
// and its draw).
//
// The machine's load moves these figures: compare runs of one invocation, not invocations of
// different days. Nothing here fails on timing; the exit code is 0 unless the page broke.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clipDir, hasFfmpeg, launch, makeClip, profileAllocations, requireDist, serve } from './harness.mjs';

const DEFAULT_RUNS = ['natural/wave', 'classic/classic', 'natural/classic', 'classic/wave'];

function parseArguments(argv) {
  const settings = { seconds: 4, width: 1280, height: 720, rain: 20, runs: DEFAULT_RUNS, quality: 'high', video: false, processes: false };
  for (let i = 0; i < argv.length; i++) {
    const [name, value] = [argv[i], argv[i + 1]];
    const need = () => {
      if (value === undefined) throw new Error(`${name} needs a value`);
      i++;
      return value;
    };
    if (name === '--seconds') {
      settings.seconds = Number(need());
      if (!(settings.seconds >= 1 && settings.seconds <= 60)) throw new Error(`--seconds must be from 1 to 60, got ${value}`);
    } else if (name === '--size') {
      const match = /^(\d+)x(\d+)$/.exec(need());
      if (!match) throw new Error(`--size must be WIDTHxHEIGHT, got '${value}'`);
      [settings.width, settings.height] = [Number(match[1]), Number(match[2])];
    } else if (name === '--rain') {
      settings.rain = Number(need());
      if (!(settings.rain >= 0 && settings.rain <= 1000)) throw new Error(`--rain must be from 0 to 1000, got ${value}`);
    } else if (name === '--quality') {
      settings.quality = need();
      if (!['auto', 'high'].includes(settings.quality)) throw new Error(`--quality must be auto or high, got '${value}'`);
    } else if (name === '--verbose') {
      settings.verbose = true;
    } else if (name === '--video') {
      settings.video = true;
    } else if (name === '--processes') {
      settings.processes = true;
    } else if (name === '--runs') {
      settings.runs = need().split(',');
      for (const run of settings.runs) {
        if (!/^[a-z]+\/[a-z]+$/.test(run)) throw new Error(`--runs takes look/solver pairs such as natural/wave, got '${run}'`);
      }
    } else {
      throw new Error(`unknown argument '${name}' (--seconds, --size, --rain, --runs, --quality, --video, --processes, --verbose)`);
    }
  }
  return settings;
}

/** One run: a fresh page, one look and solver (over the clip when `video`), sampled every second. */
async function measure(browser, origin, settings, look, solver, video = false) {
  const context = await browser.newContext({
    viewport: { width: settings.width, height: settings.height },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/e2e-blank.html`);
  let stopProfile = null;
  let allocated = null;
  await page.exposeFunction('benchProfile', async (start) => {
    if (start) stopProfile = await profileAllocations(page, /\/((ripples|video|compose|quality|loop|renderer|ripples_web)\.js|ripples_web_bg\.wasm)$/, '#tick');
    else allocated = await stopProfile();
  });
  const result = await page.evaluate(
    async ({ width, height, rain, seconds, look, solver, quality, video }) => {
      const { Ripples } = await import('/ripples.js');
      const element = document.createElement('div');
      element.style.cssText = `width:${width}px;height:${height}px;background:url(assets/coffee.jpg) center/cover`;
      document.body.append(element);
      const options = { look, solver, rain, quality, interactive: false, renderer: 'cpu' };
      if (video) {
        element.style.background = 'none';
        options.videoUrl = '/clips/pattern-720p.webm';
      }
      const ripples = await Ripples.attach(element, options);
      const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      await wait(1000);
      ripples.stats(); // starts the video's window (uploadMs is since the last call)
      const uploadsFrom = video ? ripples.stats().video.uploads : 0;
      const from = performance.now();
      const samples = [];
      // Frames are counted by wrapping requestAnimationFrame only now, after the warm-up.
      let frames = 0;
      const request = window.requestAnimationFrame;
      window.requestAnimationFrame = (callback) => request((time) => {
        frames++;
        callback(time);
      });
      await window.benchProfile(true);
      for (let i = 0; i < seconds; i++) {
        await wait(1000);
        samples.push(ripples.stats());
      }
      await window.benchProfile(false);
      window.requestAnimationFrame = request;
      const copies = video
        ? {
            uploadMs: samples.reduce((sum, s) => sum + s.video.uploadMs, 0) / samples.length,
            uploadsPerSecond: ((samples[samples.length - 1].video.uploads - uploadsFrom) * 1000) / (performance.now() - from),
            path: samples[0].video.path,
          }
        : null;
      ripples.destroy();
      const mean = (key) => samples.reduce((sum, s) => sum + s[key], 0) / samples.length;
      return {
        copies,
        fps: mean('fps'),
        stepRenderMs: mean('stepRenderMs'),
        maxStepRenderMs: Math.max(...samples.map((s) => s.maxStepRenderMs)),
        drawMs: mean('drawMs'),
        size: `${samples[0].width}x${samples[0].height}`,
        backend: samples[0].backend,
        frames,
      };
    },
    { ...settings, look, solver, video },
  );
  result.jsBytesPerFrame = allocated.bytes / result.frames;
  result.allocations = allocated.byFunction;
  await context.close();
  if (errors.length) throw new Error(`${look}/${solver}: ${errors.join(' | ')}`);
  return result;
}

/** The viewports of `--processes`: CSS size, devicePixelRatio, and whether it is a phone. */
const VIEWPORTS = [
  { width: 1280, height: 720, ratio: 1, phone: false },
  { width: 1920, height: 1080, ratio: 1, phone: false },
  { width: 2560, height: 1440, ratio: 2, phone: false },
  { width: 390, height: 844, ratio: 3, phone: true },
];

/** Every process below `root` (by /proc/<pid>/stat's parent), with its command line. */
function descendants(root) {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.pop();
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/**
 * CPU seconds so far of Chromium's renderer processes and of its GPU process: the time on a CPU
 * of each of their threads, from /proc/<pid>/task/<tid>/schedstat in nanoseconds (stat's
 * user + system count 10 ms ticks, too coarse for the few frames SwiftShader draws at full
 * size). Chromium's threads live as long as their process, so none is missed by exiting.
 */
function processTimes() {
  const times = { renderer: 0, gpu: 0 };
  for (const pid of descendants(process.pid)) {
    try {
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const kind = command.includes('--type=renderer') ? 'renderer' : command.includes('--type=gpu-process') ? 'gpu' : null;
      if (!kind) continue;
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
        try {
          const running = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0];
          times[kind] += Number(running) / 1e9;
        } catch {
          // The thread is gone.
        }
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return times;
}

/** The hero page of `--processes`: the photograph under a heading, with `effect` on it. */
function heroPage(effect) {
  const scripts = {
    bare: '',
    ripples: `<script type="module">
      import { Ripples } from '/ripples.js';
      const params = JSON.parse(decodeURIComponent(location.hash.slice(1)));
      window.effect = await Ripples.attach(document.getElementById('hero'), params.options).catch((error) => {
        window.failed = error.message;
        throw error;
      });
      window.canvasSize = () => { const s = window.effect.stats(); return s.width + 'x' + s.height + ' ' + s.renderer; };
      window.drop = (x, y) => window.effect.drop(x, y, 12, 128);
      window.ready = true;
    </script>`,
    jquery: `<script src="/vendor/jquery/dist/jquery.min.js"></script>
    <script src="/vendor/jquery.ripples/dist/jquery.ripples-min.js"></script>
    <script>
      $('#hero').ripples();
      window.canvasSize = () => { const c = document.querySelector('#hero canvas'); return c ? c.width + 'x' + c.height + ' webgl' : 'none'; };
      window.drop = (x, y) => $('#hero').ripples('drop', x, y, 20, 0.04);
      window.ready = true;
    </script>`,
  };
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><style>
  body { margin: 0; font: 18px/1.4 system-ui, sans-serif; }
  #hero { height: 100vh; background: #3b2416 url(/assets/coffee.jpg) center / cover no-repeat; color: #fff; padding: 10vh 8vw; box-sizing: border-box; }
  h1 { font-size: 7vw; margin: 0 0 1rem; text-shadow: 0 2px 8px #000a; }
</style></head><body>
  <section id="hero"><h1>Coffee, slowly</h1><p>A hero section over a photograph.</p></section>
  ${scripts[effect]}
  <script>window.ready = window.ready || ${effect === 'bare'};</script>
</body></html>`;
}

/** `--processes`: frames a run waits for where they are slow, and for at most how long. */
const MIN_FRAMES = 16;
const SLOW_RUN_SECONDS = 90;

/** `--processes`: one contender on one viewport, in a fresh page. */
async function processRun(browser, origin, viewport, contender, seconds) {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    deviceScaleFactor: viewport.ratio,
    isMobile: viewport.phone,
    hasTouch: viewport.phone,
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const params = encodeURIComponent(JSON.stringify({ options: contender.options ?? {} }));
  await page.goto(`${origin}/bench-${contender.effect}.html#${params}`);
  await page.waitForFunction(() => window.ready === true || window.failed, null, { timeout: 180000 });
  const failed = await page.evaluate(() => window.failed);
  if (failed) throw new Error(`${contender.name}: ${failed}`);
  // Drops at `rate` per second at random places (jquery.ripples has no rain of its own; with
  // Ripples the rain option falls instead, so drops are only for jquery.ripples).
  await page.evaluate((rate) => {
    window.frames = 0;
    const count = () => {
      window.frames++;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    if (rate > 0) {
      setInterval(() => window.drop(Math.random() * innerWidth, Math.random() * innerHeight), 1000 / rate);
    }
  }, contender.drops ?? 0);
  await page.waitForTimeout(1500);
  const steps = () => page.evaluate(() => window.effect?.stats().steps ?? 0);
  const uploaded = () => page.evaluate(() => window.effect?.stats().uploadedBytes ?? null);
  const from = { times: processTimes(), frames: await page.evaluate(() => window.frames), steps: await steps(), uploaded: await uploaded(), at: performance.now() };
  await page.waitForTimeout(seconds * 1000);
  // Slow frames (SwiftShader at 14.7 million pixels): on until MIN_FRAMES were drawn.
  let framesNow = await page.evaluate(() => window.frames);
  while (framesNow - from.frames < MIN_FRAMES && performance.now() - from.at < SLOW_RUN_SECONDS * 1000) {
    await page.waitForTimeout(1000);
    framesNow = await page.evaluate(() => window.frames);
  }
  const to = { times: processTimes(), frames: framesNow, steps: await steps(), uploaded: await uploaded(), at: performance.now() };
  const elapsed = (to.at - from.at) / 1000;
  const stats = await page.evaluate(() => {
    const s = window.effect?.stats();
    return {
      canvas: window.canvasSize ? window.canvasSize() : '-',
      fps: s ? s.fps : null,
      asleep: s ? s.asleep : null,
      // Main-thread milliseconds of one frame that carries one step (at 60 fps): the wasm
      // steps per drawn frame scaled to one step, and the draw (the WebGL calls and the
      // surface's upload, or putImageData).
      oneStepFrameMs: s && s.fps > 0 ? (s.stepRenderMs * Math.min(60, s.fps)) / 60 + s.drawMs : null,
      stepRenderMs: s ? s.stepRenderMs : 0,
      simulation: s ? s.simulation : '-',
    };
  });
  await context.close();
  if (errors.length) throw new Error(`${contender.name}: ${errors.join(' | ')}`);
  const frames = (to.frames - from.frames) / elapsed;
  // The page's animation frames (Ripples draws one in each while it runs), 0 while it sleeps.
  const fps = stats.asleep ? 0 : frames;
  const renderer = (to.times.renderer - from.times.renderer) / elapsed;
  const gpu = (to.times.gpu - from.times.gpu) / elapsed;
  const perFrame = fps > 0 ? (1000 * renderer) / fps : null;
  // Steps per drawn frame, and the renderer's time per frame less the steps beyond one (each
  // costing the frame's wasm time over its steps).
  const stepsPerFrame = fps > 0 && to.frames > from.frames ? (to.steps - from.steps) / (to.frames - from.frames) : 0;
  // WebGL only: there the wasm time is the steps and a small surface; the CPU renderer's is
  // the steps and a whole frame's pixels, which a frame pays once however many steps it takes.
  const webgl = stats.canvas.endsWith('webgl') && contender.effect === 'ripples';
  const oneStepPerFrame =
    perFrame === null || !webgl
      ? null
      : stepsPerFrame > 1
        ? perFrame - ((stepsPerFrame - 1) * stats.stepRenderMs) / stepsPerFrame
        : perFrame;
  // What the page sent the GPU of its water per drawn frame (Ripples' WebGL renderer only).
  const uploadPerFrame = webgl && to.frames > from.frames && to.uploaded !== null ? (to.uploaded - from.uploaded) / (to.frames - from.frames) : null;
  return { canvas: stats.canvas, fps, frames: to.frames - from.frames, elapsed, renderer, gpu, perFrame, stepsPerFrame, oneStepPerFrame, oneStepFrameMs: stats.oneStepFrameMs, simulation: stats.simulation, uploadPerFrame };
}

/** `--processes`: the table of every viewport and contender. */
async function compareProcesses(settings) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const site = await serve(undefined, { mounts: { '/vendor/': path.resolve(here, 'node_modules') } });
  const { server, origin } = site;
  // Pages served from memory.
  const pages = { bare: heroPage('bare'), ripples: heroPage('ripples'), jquery: heroPage('jquery') };
  const original = server.listeners('request')[0];
  server.removeAllListeners('request');
  server.on('request', (request, response) => {
    const match = /^\/bench-(\w+)\.html/.exec(request.url);
    if (match && pages[match[1]]) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[match[1]]);
      return;
    }
    original(request, response);
  });
  const rain = settings.rain;
  // The full-size WebGL runs last: SwiftShader's backlog of large frames slows what follows.
  const contenders = [
    { name: 'bare page', effect: 'bare' },
    { name: `Ripples cpu, rain ${rain}/s`, effect: 'ripples', options: { renderer: 'cpu', rain } },
    { name: `Ripples, rain, stand-in`, effect: 'ripples', options: { rain }, standIn: true },
    { name: 'jquery.ripples, calm', effect: 'jquery' },
    { name: `jquery.ripples, ${rain} drops/s`, effect: 'jquery', drops: rain },
    { name: 'Ripples, calm', effect: 'ripples', options: {} },
    { name: `Ripples, rain ${rain}/s`, effect: 'ripples', options: { rain } },
    { name: `Ripples wasm-stepped, rain ${rain}/s`, effect: 'ripples', options: { rain, simulation: 'cpu' } },
  ];
  const launchBrowser = () => launch([], { gpuPipeline: true });
  let browser = await launchBrowser();
  try {
    console.log(
      `web bench --processes: a hero page, ${settings.seconds} s per run after 1.5 s, ${browser.version()} headless ` +
        `with its GPU pipeline (SwiftShader: on the CPU, in the GPU process); CPU as % of one core (threads' schedstat, /proc)`,
    );
    console.log('viewport       contender                         canvas              fps  renderer %  ms/frame  steps/frame  ms/one-step frame  GPU proc %  main ms/frame at 60 fps  steps on  upload B/frame');
    for (const viewport of VIEWPORTS) {
      // A fresh browser (and GPU process) per viewport.
      await browser.close();
      browser = await launchBrowser();
      for (const entry of contenders) {
        let contender = entry;
        if (entry.standIn) {
          // The grid, surface uploads and steps of the full-size WebGL run, with a canvas of the
          // grid's size, which SwiftShader can fill at the screen's rate: the renderer process's
          // work per frame is the full-size run's, its GPU process's far less.
          const [width, height] = [viewport.width * viewport.ratio, viewport.height * viewport.ratio];
          const cell = Math.ceil(Math.sqrt((width * height) / 160000));
          // pixelRatio is at least 0.25: then k pixels per cell keep the grid the same.
          const k = Math.ceil((0.25 * cell) / viewport.ratio);
          contender = { ...entry, options: { ...entry.options, pixelRatio: (viewport.ratio * k) / cell, resolution: k } };
        }
        const r = await processRun(browser, origin, viewport, contender, settings.seconds);
        console.log(
          `${`${viewport.width}x${viewport.height}@${viewport.ratio}`.padEnd(14)} ${contender.name.padEnd(33)} ${r.canvas.padEnd(17)}` +
            ` ${r.fps.toFixed(1).padStart(5)}  ${(100 * r.renderer).toFixed(1).padStart(9)}  ${r.perFrame === null ? '       -' : r.perFrame.toFixed(2).padStart(8)}` +
            `  ${r.stepsPerFrame > 0 ? r.stepsPerFrame.toFixed(2).padStart(11) : '          -'}  ${r.oneStepPerFrame === null ? '                -' : r.oneStepPerFrame.toFixed(2).padStart(17)}` +
            `  ${(100 * r.gpu).toFixed(1).padStart(9)}` +
            `  ${r.oneStepFrameMs === null || r.oneStepFrameMs === undefined || r.fps === 0 ? '       -' : r.oneStepFrameMs.toFixed(2).padStart(8)}` +
            `                ${contender.effect === 'ripples' ? String(r.simulation).padEnd(8) : '-       '}  ${r.uploadPerFrame === null ? '             -' : r.uploadPerFrame.toFixed(0).padStart(14)}` +
            `  (${r.frames} frames in ${r.elapsed.toFixed(1)} s)`,
        );
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
}

async function main() {
  const settings = parseArguments(process.argv.slice(2));
  requireDist();
  if (settings.processes) {
    await compareProcesses(settings);
    return;
  }
  if (settings.video) {
    if (!hasFfmpeg()) throw new Error('--video needs ffmpeg, to make its clip');
    makeClip('pattern-720p.webm');
  }
  const site = await serve(undefined, { mounts: { '/clips/': clipDir } });
  const browser = await launch(['--force-device-scale-factor=1']);
  try {
    console.log(
      `web bench: ${settings.width}x${settings.height} CSS pixels at devicePixelRatio 1, quality '${settings.quality}', rain ${settings.rain}/s, ` +
        `${settings.seconds} s per run, ${path.basename(process.env.CHROMIUM ?? 'chromium')} headless, ${browser.version()}`,
    );
    console.log(
      `look/solver              fps  step+render ms (max)  draw ms  frame ms  pool       JS B/frame  backend` +
        (settings.video ? '  video copy ms  copies/s  path' : ''),
    );
    for (const run of settings.runs) {
      const [look, solver] = run.split('/');
      for (const video of settings.video ? [false, true] : [false]) {
        const r = await measure(browser, site.origin, settings, look, solver, video);
        const copies = r.copies
          ? `  ${r.copies.uploadMs.toFixed(2).padStart(13)}  ${r.copies.uploadsPerSecond.toFixed(1).padStart(8)}  ${r.copies.path}`
          : '';
        console.log(
          `${(video ? `${run} +video` : run).padEnd(22)} ${r.fps.toFixed(1).padStart(5)}  ${r.stepRenderMs.toFixed(2).padStart(8)} (${r.maxStepRenderMs.toFixed(1).padStart(6)})` +
            `  ${r.drawMs.toFixed(2).padStart(7)}  ${(r.stepRenderMs + r.drawMs).toFixed(2).padStart(8)}  ${r.size.padEnd(9)}` +
            `  ${r.jsBytesPerFrame.toFixed(0).padStart(10)}  ${r.backend}${copies}`,
        );
        if (settings.verbose) console.log(`  frame loop allocations over ${r.frames} frames:`, r.allocations);
      }
    }
  } finally {
    await browser.close();
    site.server.close();
  }
}

main().catch((error) => {
  console.error(`web bench: ${error.message}`);
  process.exitCode = 1;
});
