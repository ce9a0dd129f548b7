// Fits: videoUrl's background-size and position and a background <video>'s object-fit, each
// against the browser's own drawing of a <video> laid out that way, with each renderer; and the
// scaled path without a VideoFrame of a canvas.

import path from 'node:path';
import { PATIENCE_MS, check, decodePng } from '../harness.mjs';
import { meanDifference, newPage, outDir } from './page.mjs';

export /**
 * Fits: for each case a reference <video> laid out as the fit should put it, screenshot, then
 * the same frame under calm classic water, screenshot, and the mean difference.
 */
async function fits(browser, origin) {
  const { context, page, errors } = await newPage(browser, origin);
  const box = { x: 40, y: 30, width: 1000, height: 600 };
  const cases = [
    { name: 'videoUrl, background-size auto (cover)', clip: 'pattern-720p', css: '', reference: 'inset:0;width:100%;height:100%;object-fit:cover' },
    { name: 'videoUrl, background-size contain', clip: 'pattern-720p', css: 'background-size:contain;background-position:center;background-repeat:no-repeat', reference: 'inset:0;width:100%;height:100%;object-fit:contain' },
    { name: 'videoUrl, background-size 400px auto at 30px 40px', clip: 'pattern-360p', css: 'background-size:400px auto;background-position:30px 40px;background-repeat:no-repeat', reference: 'left:30px;top:40px;width:400px;height:225px;object-fit:fill' },
    { name: 'videoUrl, a 640x360 clip covering', clip: 'pattern-360p', css: 'background-size:cover;background-position:50% 50%', reference: 'inset:0;width:100%;height:100%;object-fit:cover' },
    { name: 'background <video>, object-fit cover', clip: 'pattern-720p', page: 'object-fit:cover;object-position:50% 50%', reference: 'inset:0;width:100%;height:100%;object-fit:cover' },
    { name: 'background <video>, object-fit contain', clip: 'pattern-720p', page: 'object-fit:contain', reference: 'inset:0;width:100%;height:100%;object-fit:contain' },
    { name: 'background <video>, object-fit fill', clip: 'pattern-360p', page: 'object-fit:fill', reference: 'inset:0;width:100%;height:100%;object-fit:fill' },
    { name: 'background <video>, object-fit cover at right top', clip: 'pattern-360p', page: 'object-fit:cover;object-position:right top', reference: 'inset:0;width:100%;height:100%;object-fit:cover;object-position:right top' },
  ];
  // Each fit with each renderer: the CPU's WebCodecs copies, WebGL's texture from the <video>.
  for (const [renderer, fit] of ['cpu', 'auto'].flatMap((renderer) => cases.map((fit) => [renderer, fit]))) {
    await page.evaluate(({ box, fit }) => {
      document.body.innerHTML =
        `<div id="box" style="position:absolute;left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px;` +
        `overflow:hidden;background-color:#000;${fit.css ?? ''}">` +
        `<video id="reference" muted playsinline src="/clips/${fit.clip}.webm" style="position:absolute;${fit.reference}"></video></div>`;
    }, { box, fit });
    await page.evaluate(async () => {
      const video = document.getElementById('reference');
      await new Promise((resolve) => (video.readyState >= 2 ? resolve() : video.addEventListener('loadeddata', resolve, { once: true })));
      await still(video, 1.2);
    });
    const reference = decodePng(await page.screenshot());
    const result = await page.evaluate(async ({ fit, renderer }) => {
      const element = document.getElementById('box');
      document.getElementById('reference').remove();
      if (fit.page) {
        element.insertAdjacentHTML(
          'afterbegin',
          `<video id="background" muted playsinline src="/clips/${fit.clip}.webm" style="position:absolute;inset:0;width:100%;height:100%;${fit.page}"></video>`,
        );
      }
      const options = { look: 'classic', quality: 'high', interactive: false, renderer };
      if (!fit.page) options.videoUrl = `/clips/${fit.clip}.webm`;
      const r = await Ripples.attach(element, options);
      await still(r.video, 1.2);
      const stats = r.stats().video;
      window.fitted = r;
      // Every getImageData while it plays (the scaled path reads its canvas back by WebCodecs,
      // not into a new ImageData per video frame).
      let readBacks = 0;
      const counted = [globalThis.CanvasRenderingContext2D, globalThis.OffscreenCanvasRenderingContext2D]
        .filter(Boolean)
        .map((type) => {
          const original = type.prototype.getImageData;
          type.prototype.getImageData = function (...args) {
            readBacks++;
            return original.apply(this, args);
          };
          return () => (type.prototype.getImageData = original);
        });
      const uploadsBefore = r.stats().video.uploads;
      await r.video.play();
      await wait(1000);
      const playing = r.stats().video;
      const loopFps = r.stats().fps;
      counted.forEach((restore) => restore());
      // The frame copies of the playing video are drawn where the first frame was.
      await still(r.video, 1.2);
      const still12 = r.stats().video;
      return {
        path: still12.path,
        renderer: r.stats().renderer,
        wasmCopies: still12.wasmCopies,
        size: `${stats.width}x${stats.height}`,
        found: fit.page ? r.video === document.getElementById('background') : true,
        uploadMs: playing.uploadMs,
        copies: playing.uploads - uploadsBefore,
        loopFps,
        readBacks,
      };
    }, { fit, renderer });
    const shown = decodePng(await page.screenshot({ path: path.join(outDir, `fit-${renderer}-${fit.name.replace(/[^a-z0-9]+/gi, '-')}.png`) }));
    await page.evaluate(() => window.fitted.destroy());
    const mean = meanDifference(reference, shown, box);
    const name = `fit (${result.renderer}): ${fit.name}`;
    console.log(
      `${name}: mean ${mean.toFixed(2)} levels against the browser's <video> (${result.size}, ${result.path}, ` +
        `${result.uploadMs.toFixed(2)} ms per video frame taken while it played)`,
    );
    check(name, mean < 2.5 && result.found, `mean ${mean.toFixed(2)}, ${JSON.stringify(result)}`);
    if (renderer === 'cpu') {
      check(`${name}: copied by WebCodecs`, result.renderer === 'cpu' && result.path.startsWith('videoframe'), result.path);
    } else {
      check(`${name}: straight from the <video> to WebGL, no copy in wasm`, result.renderer === 'webgl' && result.path === 'webgl' && result.wasmCopies === 0, JSON.stringify(result));
    }
    // A frame taken per video frame the loop sees: at most the loop's rate (SwiftShader draws
    // a 1000x600 canvas at 10-20 frames a second on a busy 2-core machine).
    check(
      `${name}: ${result.copies} video frames taken in 1 s of play at ${result.loopFps.toFixed(1)} fps with ${result.readBacks} getImageData (no ImageData per frame)`,
      result.copies >= Math.min(20, 0.6 * result.loopFps) && result.readBacks === 0,
      JSON.stringify(result),
    );
  }
  // A browser that makes no VideoFrame of a canvas: the scaled path reads its canvas back by
  // getImageData instead, frame by frame, and the water goes on.
  const fallback = await page.evaluate(async (patience) => {
    const Original = window.VideoFrame;
    window.VideoFrame = class extends Original {
      constructor(source, init) {
        if (source instanceof HTMLCanvasElement || (globalThis.OffscreenCanvas && source instanceof OffscreenCanvas)) {
          throw new TypeError('this test makes no VideoFrame of a canvas');
        }
        super(source, init);
      }
    };
    document.body.innerHTML = '<div id="box" style="position:absolute;left:0;top:0;width:900px;height:500px"></div>';
    let readBacks = 0;
    const type = globalThis.OffscreenCanvasRenderingContext2D ?? globalThis.CanvasRenderingContext2D;
    const original = type.prototype.getImageData;
    type.prototype.getImageData = function (...args) {
      readBacks++;
      return original.apply(this, args);
    };
    try {
      const r = await Ripples.attach(document.getElementById('box'), { look: 'classic', quality: 'high', videoUrl: '/clips/pattern-360p.webm', renderer: 'cpu' });
      const before = { uploads: r.stats().video.uploads, readBacks, steps: r.stats().steps };
      await r.video.play();
      await wait(1000);
      // 20 frames and 30 steps or more (1 s here; longer on a busy machine).
      const done = () => r.stats().video.uploads - before.uploads >= 20 && r.stats().steps - before.steps > 30;
      for (let waited = 0; waited < patience && !done(); waited += 50) await wait(50);
      const video = r.stats().video;
      const result = { path: video.path, copies: video.uploads - before.uploads, readBacks: readBacks - before.readBacks, steps: r.stats().steps - before.steps };
      r.destroy();
      return result;
    } finally {
      type.prototype.getImageData = original;
      window.VideoFrame = Original;
    }
  }, PATIENCE_MS);
  check(
    `fit without a VideoFrame of a canvas: ${fallback.copies} frames copied, read back by ${fallback.readBacks} getImageData`,
    fallback.path === 'videoframe-scaled' && fallback.copies >= 20 && fallback.readBacks >= fallback.copies && fallback.steps > 30,
    JSON.stringify(fallback),
  );
  check('no uncaught exception (fits)', errors.length === 0, errors.join('; '));
  await context.close();
}
