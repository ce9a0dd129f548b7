// What the parts of e2e.mjs (the CPU renderer's suite) share: where their screenshots go, the
// demo's viewport, Chromium's flag for a browser without WebGL, the figures they measure (written
// to figures.json), and how two screenshots are compared.

import { outRoot } from '../harness.mjs';

/** Screenshots and figures.json: RIPPLES_E2E_OUT, by default target/e2e. */
export const outDir = outRoot;
export const VIEW = { width: 1280, height: 720 };

/** What the parts measured, reported, written to figures.json at the end. */
export const figures = {};

/** Chromium's flag for a browser without WebGL, whose pages Ripples draws with the CPU. */
export const NO_WEBGL = ['--disable-webgl'];

/** Levels of a colour channel by which a pixel must change to count as visibly changed. */
export const VISIBLE_CHANGE = 12;

/** Fractions of pixels that differ between two screenshots, near `centre` and far from it. */
export function compare(before, after, centre, nearRadius, farRadius, excluded, tolerance = 0) {
  let near = 0;
  let nearChanged = 0;
  let far = 0;
  let farChanged = 0;
  const { width, height, channels } = before;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (excluded.some((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height)) continue;
      const distance = Math.hypot(x - centre.x, y - centre.y);
      const i = (y * width + x) * channels;
      const changed =
        Math.abs(before.pixels[i] - after.pixels[i]) > tolerance ||
        Math.abs(before.pixels[i + 1] - after.pixels[i + 1]) > tolerance ||
        Math.abs(before.pixels[i + 2] - after.pixels[i + 2]) > tolerance;
      if (distance <= nearRadius) {
        near++;
        if (changed) nearChanged++;
      } else if (distance >= farRadius) {
        far++;
        if (changed) farChanged++;
      }
    }
  }
  return { near: nearChanged / near, far: farChanged / far, nearPixels: near, farPixels: far };
}
