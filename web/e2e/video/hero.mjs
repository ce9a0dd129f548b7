// A hero section's background <video>: found, covered by the canvas, made to play, restored by
// destroy(); the picture of docs/video-web.png.

import path from 'node:path';
import { PATIENCE_MS, check, decodePng } from '../harness.mjs';
import { meanDifference, newPage, outDir } from './page.mjs';

export /** A hero section with a background <video>: found, covered, restored; with rain for the picture. */
async function hero(browser, origin) {
  const { context, page, errors } = await newPage(browser, origin);
  const HERO = { x: 0, y: 0, width: 1280, height: 600 };
  await page.evaluate(() => {
    document.body.innerHTML = `
      <style>
        body { margin: 0; font-family: sans-serif; }
        #hero { position: relative; height: 600px; overflow: hidden; color: white; display: flex;
          align-items: center; justify-content: center; text-align: center; background: #234; }
        #hero video { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
        #hero .content { position: relative; }
        #hero h1 { font-size: 72px; margin: 0; text-shadow: 0 2px 12px rgba(0, 0, 0, 0.6); }
        #hero p { font-size: 26px; margin: 12px 0 0; text-shadow: 0 2px 8px rgba(0, 0, 0, 0.6); }
      </style>
      <section id="hero">
        <video src="/clips/coffee.webm" preload="auto"></video>
        <div class="content"><h1>Fresh coffee, every morning</h1><p>Roasted in town since 1998</p></div>
      </section>`;
  });
  await page.evaluate(async () => {
    const video = document.querySelector('#hero video');
    await new Promise((resolve) => (video.readyState >= 2 ? resolve() : video.addEventListener('loadeddata', resolve, { once: true })));
    await still(video, 1);
  });
  const before = decodePng(await page.screenshot({ path: path.join(outDir, 'hero-before.png') }));
  const attached = await page.evaluate(async (patience) => {
    const element = document.getElementById('hero');
    const video = element.querySelector('video');
    const was = { muted: video.muted, loop: video.loop, playsInline: video.playsInline, paused: video.paused };
    const r = await Ripples.attach(element, { quality: 'high' });
    window.ripples = r;
    const canvas = element.querySelector('canvas');
    await wait(1500);
    // Playing past its first second (1.5 s here; longer on a busy machine).
    for (let waited = 0; waited < patience && video.currentTime <= 1; waited += 50) await wait(50);
    const s = r.stats();
    return {
      was,
      found: r.video === video,
      canvasAfterVideo: video.nextElementSibling === canvas,
      during: { muted: video.muted, loop: video.loop, playsInline: video.playsInline, playing: !video.paused && video.currentTime > 1 },
      uploads: s.video.uploads,
      path: s.video.path,
      backgroundKept: getComputedStyle(element).backgroundColor,
    };
  }, PATIENCE_MS);
  console.log(`hero: ${JSON.stringify(attached)}`);
  check('a background <video> is found and the canvas goes right over it', attached.found && attached.canvasAfterVideo, JSON.stringify(attached));
  check('the video that did not play is made muted, playsInline, looping and plays', !attached.was.muted && !attached.was.loop && attached.during.muted && attached.during.loop && attached.during.playsInline && attached.during.playing, JSON.stringify(attached));
  // The water hides the video: with the video still, a drop changes the picture there; the
  // headline stays over the water.
  const shots = await page.evaluate(async () => {
    await still(window.ripples.video, 1);
    window.ripples.set({ rain: 0 });
    await wait(50);
    return true;
  });
  const calm = decodePng(await page.screenshot());
  // 30 steps of the ring (500 ms; longer on a busy machine).
  const dropStep = await page.evaluate(() => {
    window.ripples.drop(250, 450, 30, 3000);
    return window.ripples.stats().steps;
  });
  await page.waitForFunction((from) => window.ripples.stats().steps - from >= 30, dropStep, { timeout: PATIENCE_MS });
  const dropped = decodePng(await page.screenshot());
  const ring = { x: 150, y: 350, width: 200, height: 200 };
  const text = { x: 240, y: 250, width: 800, height: 60 };
  const white = (png) => {
    let count = 0;
    for (let y = text.y; y < text.y + text.height; y++) {
      for (let x = text.x; x < text.x + text.width; x++) {
        const i = (y * png.width + x) * png.channels;
        if (png.pixels[i] > 240 && png.pixels[i + 1] > 240 && png.pixels[i + 2] > 240) count++;
      }
    }
    return count;
  };
  const headline = { before: white(before), over: white(calm) };
  const seen = {
    ring: meanDifference(calm, dropped, ring),
    calmAgainstVideo: meanDifference(before, calm, { x: 0, y: 400, width: 1280, height: 200 }),
    text: meanDifference(before, calm, text),
  };
  console.log(`hero: a drop changes the picture by ${seen.ring.toFixed(1)} levels; calm water against the bare video ${seen.calmAgainstVideo.toFixed(2)}; headline region ${seen.text.toFixed(2)} (${shots})`);
  check('the water is what shows, over the video', seen.ring > 4, seen.ring.toFixed(2));
  check('calm water looks like the video (no jump at attach)', seen.calmAgainstVideo < 12, seen.calmAgainstVideo.toFixed(2));
  console.log(`hero: white headline pixels ${headline.before} over the bare video, ${headline.over} over the water`);
  check('the headline stays over the water', headline.over > 2000 && headline.over >= 0.9 * headline.before, JSON.stringify(headline));
  // Rain over the playing video: the picture of docs/video-web.png.
  await page.evaluate(async () => {
    window.ripples.set({ rain: 6 });
    await window.ripples.video.play();
    for (const [x, y] of [[300, 420], [960, 170], [1120, 460]]) window.ripples.drop(x, y, 20, 600);
  });
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(outDir, 'hero-video.png'), clip: HERO });
  const restored = await page.evaluate(async () => {
    const element = document.getElementById('hero');
    const video = element.querySelector('video');
    window.ripples.destroy();
    await wait(300);
    return {
      canvases: element.querySelectorAll('canvas').length,
      muted: video.muted,
      loop: video.loop,
      inDocument: video.isConnected,
      src: video.getAttribute('src'),
    };
  });
  check('destroy() takes the canvas away and gives the video back as the page had it', restored.canvases === 0 && !restored.muted && !restored.loop && restored.inDocument && restored.src === '/clips/coffee.webm', JSON.stringify(restored));
  // A video that already plays is left as the page set it.
  const playing = await page.evaluate(async () => {
    const element = document.getElementById('hero');
    const video = element.querySelector('video');
    video.muted = true;
    video.loop = false;
    await video.play();
    const r = await Ripples.attach(element, { quality: 'high' });
    const during = { loop: video.loop, found: r.video === video };
    r.destroy();
    return during;
  });
  check('a background <video> that already plays is left as the page set it', playing.found && playing.loop === false, JSON.stringify(playing));
  check('no uncaught exception (hero)', errors.length === 0, errors.join('; '));
  await context.close();
}
