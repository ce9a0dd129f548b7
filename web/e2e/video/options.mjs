// Where a video may come from and what is refused: other origins with and without CORS, bad
// options, set({ videoUrl }) switching clips, a <canvas> given to attach.

import { PATIENCE_MS, check } from '../harness.mjs';
import { newPage } from './page.mjs';

export async function crossOrigin(browser, origin, other, withCors) {
  const { context, page, errors } = await newPage(browser, origin);
  const result = await page.evaluate(
    async ({ other, withCors }) => {
      const element = document.createElement('div');
      element.style.cssText = 'width:640px;height:360px';
      document.body.append(element);
      const attempt = async (options) => {
        try {
          const r = await Ripples.attach(element, options);
          const s = r.stats().video;
          r.destroy();
          return `ok ${s.width}x${s.height}`;
        } catch (error) {
          return error.message;
        }
      };
      const out = {
        cors: await attempt({ videoUrl: `${other}/clips/pattern-360p.webm` }),
        noCors: await attempt({ videoUrl: `${other}/clips/pattern-360p.webm`, crossOrigin: null }),
        allowed: await attempt({ videoUrl: `${withCors}/clips/pattern-360p.webm` }),
      };
      element.innerHTML = `<video muted src="${other}/clips/pattern-360p.webm" style="position:absolute;inset:0;width:100%;height:100%"></video>`;
      element.style.position = 'relative';
      out.pageVideo = await attempt({});
      out.leftAlone = element.querySelectorAll('canvas').length;
      return out;
    },
    { other, withCors },
  );
  console.log(`cross-origin: ${JSON.stringify(result, null, 1)}`);
  check('another origin without CORS, requested with CORS: the header is missing', /another origin .*Access-Control-Allow-Origin/.test(result.cors), result.cors);
  check('another origin without CORS, requested without: tainted', /without CORS.*tainted/.test(result.noCors), result.noCors);
  check('another origin with CORS works', result.allowed === 'ok 640x360', result.allowed);
  check('a background <video> from another origin: tainted, with what to add', /background <video>.*tainted.*crossorigin="anonymous"/.test(result.pageVideo) && result.leftAlone === 0, result.pageVideo);
  check('no uncaught exception (cross-origin)', errors.length === 0, errors.join('; '));
  await context.close();
}

export async function badOptions(browser, origin) {
  const { context, page, errors } = await newPage(browser, origin);
  const result = await page.evaluate(async (patience) => {
    const element = document.createElement('div');
    element.style.cssText = 'width:640px;height:360px;background:url(assets/coffee.jpg) center/cover';
    document.body.append(element);
    const attempt = async (options) => {
      try {
        (await Ripples.attach(element, options)).destroy();
        return 'attached';
      } catch (error) {
        return error.message;
      }
    };
    const out = {
      both: await attempt({ imageUrl: 'assets/coffee.jpg', videoUrl: '/clips/pattern-360p.webm' }),
      number: await attempt({ videoUrl: 42 }),
      invalid: await attempt({ videoUrl: 'http://[bad' }),
      missing: await attempt({ videoUrl: '/clips/missing.webm' }),
      image: await attempt({ videoUrl: 'assets/coffee.jpg' }),
      elementLeftAsItWas: element.children.length === 0 && element.style.backgroundImage.includes('coffee'),
    };
    // set(): switch clips, refuse imageUrl beside it, then back to the CSS image.
    const r = await Ripples.attach(element, { videoUrl: '/clips/pattern-360p.webm', quality: 'high' });
    const first = r.video;
    await r.set({ videoUrl: '/clips/pattern-720p.webm' });
    out.switched = { size: `${r.stats().video.width}x${r.stats().video.height}`, oldReleased: first.getAttribute('src') === null };
    try {
      await r.set({ imageUrl: 'assets/coffee.jpg' });
      out.setBoth = 'accepted';
    } catch (error) {
      out.setBoth = error.message;
    }
    const second = r.video;
    await r.set({ videoUrl: null });
    out.backToImage = { video: r.stats().video, released: second.getAttribute('src') === null, options: r.options.videoUrl };
    r.destroy();
    // A <canvas> given to attach is drawn into, over the video covering it.
    const canvas = Object.assign(document.createElement('canvas'), { width: 320, height: 240 });
    document.body.append(canvas);
    const onCanvas = await Ripples.attach(canvas, { videoUrl: '/clips/pattern-360p.webm', look: 'classic', interactive: false });
    await wait(500);
    // More than 5 frames (in 500 ms at 30 a second; longer on a busy machine).
    for (let waited = 0; waited < patience && onCanvas.stats().video.uploads <= 5; waited += 50) await wait(50);
    const s = onCanvas.stats();
    const pixels = canvas.getContext('2d').getImageData(0, 0, 320, 240).data;
    let opaque = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] === 255) opaque++;
    out.onCanvas = { size: `${s.width}x${s.height}`, video: `${s.video.width}x${s.video.height}`, uploads: s.video.uploads, path: s.video.path, opaque };
    onCanvas.destroy();
    return out;
  }, PATIENCE_MS);
  console.log(`bad options: ${JSON.stringify(result, null, 1)}`);
  check('imageUrl and videoUrl together are refused', /^Ripples\.attach: imageUrl \('assets\/coffee\.jpg'\) and videoUrl \('\/clips\/pattern-360p\.webm'\) are both set/.test(result.both), result.both);
  check('videoUrl must be a string', result.number === 'Ripples.attach: videoUrl must be a URL string or null, got 42', result.number);
  check('an invalid URL is named', result.invalid === "Ripples.attach: video URL 'http://[bad' is not a valid URL", result.invalid);
  check('a missing video is named', /^Ripples\.attach: video '\/clips\/missing\.webm' could not be loaded: not found, not a video/.test(result.missing), result.missing);
  check('an image given as a video is named', /^Ripples\.attach: video 'assets\/coffee\.jpg' could not be loaded/.test(result.image), result.image);
  check('a refused attach leaves the element as it was', result.elementLeftAsItWas, String(result.elementLeftAsItWas));
  check('set({ videoUrl }) switches clips and lets the old one go', result.switched.size === '1280x720' && result.switched.oldReleased, JSON.stringify(result.switched));
  check('set({ imageUrl }) beside a videoUrl is refused', /^Ripples\.set: imageUrl .* and videoUrl .* are both set/.test(result.setBoth), result.setBoth);
  check('set({ videoUrl: null }) goes back to the image', result.backToImage.video === null && result.backToImage.released, JSON.stringify(result.backToImage));
  check('a <canvas> given to attach shows the video, covered', result.onCanvas.size === '320x240' && result.onCanvas.uploads > 5 && result.onCanvas.opaque === 320 * 240, JSON.stringify(result.onCanvas));
  check('no uncaught exception (options)', errors.length === 0, errors.join('; '));
  await context.close();
}
