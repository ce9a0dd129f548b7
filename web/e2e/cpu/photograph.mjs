// A photograph under the default look: a click makes a ring anyone can see, and nothing far away.

import path from 'node:path';
import { PATIENCE_MS, check, decodePng } from '../harness.mjs';
import { VISIBLE_CHANGE, figures, outDir } from './shared.mjs';

/** The photograph's checks (`suite`: see e2e.mjs). */
export async function aPhotograph({ browser, main }) {
  const photo = await photograph(browser, main.origin);
  figures.photograph = photo;
  check(
    'a click on a photograph changes pixels visibly (default look)',
    photo.look === 'natural' && photo.solver === 'dispersive' && photo.near.visible > 0.15,
    `${photo.look}/${photo.solver}: ${(photo.near.visible * 100).toFixed(1)}% of the pixels within 40 px ` +
      `changed by more than ${VISIBLE_CHANGE} levels, mean change ${photo.near.mean.toFixed(1)}`,
  );
  check(
    'and the photograph far from the click does not change',
    photo.far.visible < 0.001,
    `${(photo.far.visible * 100).toFixed(3)}% beyond 200 px`,
  );
}

/**
 * A 640x400 element over the coffee photograph with the default options (quality 'high', so
 * that the pixel ratio stays put between the screenshots): screenshots before and after a
 * click, compared near it and far from it.
 */
async function photograph(browser, origin) {
  const context = await browser.newContext({ viewport: { width: 800, height: 500 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${origin}/e2e-blank.html`);
  const options = await page.evaluate(async () => {
    const { Ripples } = await import('/ripples.js');
    document.body.innerHTML =
      '<div id="photo" style="margin:50px 80px;width:640px;height:400px;background:url(assets/coffee.jpg) center/cover"></div>';
    window.ripples = await Ripples.attach(document.getElementById('photo'), { quality: 'high' });
    return window.ripples.options;
  });
  await page.waitForTimeout(400);
  const before = decodePng(await page.screenshot({ path: path.join(outDir, 'photo-calm.png') }));
  const click = { x: 80 + 420, y: 50 + 220 };
  // The ring after 21 steps (350 ms at 60 a second; longer on a busy machine).
  const from = await page.evaluate(() => window.ripples.stats().steps);
  await page.mouse.click(click.x, click.y);
  await page.waitForFunction((from) => window.ripples.stats().steps - from >= 21, from, { timeout: PATIENCE_MS });
  const after = decodePng(await page.screenshot({ path: path.join(outDir, 'photo-click.png') }));
  await context.close();
  const region = (inside) => {
    let pixels = 0;
    let visible = 0;
    let total = 0;
    for (let y = 50; y < 450; y++) {
      for (let x = 80; x < 720; x++) {
        if (!inside(Math.hypot(x - click.x, y - click.y))) continue;
        const i = (y * before.width + x) * before.channels;
        const change = Math.max(...[0, 1, 2].map((c) => Math.abs(before.pixels[i + c] - after.pixels[i + c])));
        pixels++;
        total += change;
        if (change > VISIBLE_CHANGE) visible++;
      }
    }
    return { visible: visible / pixels, mean: total / pixels, pixels };
  };
  return {
    look: options.look,
    solver: options.solver,
    near: region((distance) => distance <= 40),
    far: region((distance) => distance >= 200),
  };
}
