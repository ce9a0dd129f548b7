// What the parts of video.mjs share: where their screenshots go, a fresh 1280x720 page with the
// module loaded and the helpers its scripts use (wait, frames, still), and how two screenshots
// are compared.

import path from 'node:path';
import { clipDir, differenceSummary } from '../harness.mjs';

/** Screenshots: RIPPLES_E2E_OUT/video, by default target/e2e/video (the clips are in clips/). */
export const outDir = path.dirname(clipDir);
export const VIEW = { width: 1280, height: 720 };

export /** Mean levels (of 255) by which two decoded screenshots differ in a region, per channel. */
function meanDifference(a, b, region) {
  let total = 0;
  for (let y = region.y; y < region.y + region.height; y++) {
    for (let x = region.x; x < region.x + region.width; x++) {
      const i = (y * a.width + x) * a.channels;
      for (let c = 0; c < 3; c++) total += Math.abs(a.pixels[i + c] - b.pixels[i + c]);
    }
  }
  return total / (3 * region.width * region.height);
}

/**
 * A new context and page at VIEW on `origin`'s blank page, with `Ripples` loaded and in the page
 * `wait(ms)`, `frames(count)` (animation frames) and `still(video, time)` (the video paused at
 * `time`, its frame shown). `noFrameCallbacks` takes requestVideoFrameCallback away; `refusePlay`
 * makes every play() reject as a browser that refuses autoplay does.
 */
export async function newPage(browser, origin, options = {}) {
  const context = await browser.newContext({ viewport: VIEW, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  if (options.noFrameCallbacks) {
    await page.addInitScript(() => {
      delete HTMLVideoElement.prototype.requestVideoFrameCallback;
      delete HTMLVideoElement.prototype.cancelVideoFrameCallback;
    });
  }
  if (options.refusePlay) {
    await page.addInitScript(() => {
      HTMLMediaElement.prototype.play = function play() {
        return Promise.reject(new DOMException("play() failed because the user didn't interact with the document first.", 'NotAllowedError'));
      };
    });
  }
  await page.goto(`${origin}/e2e-blank.html`);
  await page.evaluate(async () => {
    window.Ripples = (await import('/ripples.js')).Ripples;
    await Ripples.init();
    window.wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    window.frames = (count) =>
      new Promise((resolve) => {
        const next = () => (--count <= 0 ? resolve() : requestAnimationFrame(next));
        requestAnimationFrame(next);
      });
    // Pauses `video` at `time` and waits until the frame there is shown.
    window.still = async (video, time) => {
      video.pause();
      if (Math.abs(video.currentTime - time) > 1e-3) {
        const seeked = new Promise((resolve) => video.addEventListener('seeked', resolve, { once: true }));
        video.currentTime = time;
        await seeked;
      }
      await window.frames(6);
    };
  });
  return { context, page, errors };
}

export /** Per channel differences between two decoded screenshots in a region: mean and 99.9th percentile. */
function parity(a, b, region) {
  const counts = new Uint32Array(256);
  let total = 0;
  for (let y = region.y; y < region.y + region.height; y++) {
    for (let x = region.x; x < region.x + region.width; x++) {
      const i = (y * a.width + x) * a.channels;
      for (let c = 0; c < 3; c++) {
        const d = Math.abs(a.pixels[i + c] - b.pixels[i + c]);
        counts[d]++;
        total += d;
      }
    }
  }
  const samples = 3 * region.width * region.height;
  return { mean: total / samples, p999: differenceSummary(counts).p999 };
}
