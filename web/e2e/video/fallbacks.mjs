// Browsers that give less: no requestVideoFrameCallback, and autoplay refused.

import { PATIENCE_MS, check } from '../harness.mjs';
import { newPage } from './page.mjs';

export /**
 * Without requestVideoFrameCallback (older browsers): new frames are told by currentTime,
 * which Chromium moves on every animation frame of a playing video (so up to one copy per
 * animation frame), and by 'seeked'.
 */
async function withoutFrameCallbacks(browser, origin) {
  const { context, page, errors } = await newPage(browser, origin, { noFrameCallbacks: true });
  const result = await page.evaluate(async () => {
    const element = document.createElement('div');
    element.style.cssText = 'width:1280px;height:720px';
    document.body.append(element);
    const r = await Ripples.attach(element, { videoUrl: '/clips/pattern-720p.webm', look: 'classic', quality: 'high', interactive: false, renderer: 'cpu' });
    const video = r.video;
    await wait(600);
    const before = r.stats().video.uploads;
    const started = performance.now();
    await wait(2000);
    const uploadsPerSecond = ((r.stats().video.uploads - before) * 1000) / (performance.now() - started);
    const fps = r.stats().fps;
    // Paused, a seek is a new frame: the water shows it.
    await still(video, 1.5);
    const pausedFrom = r.stats().video.uploads;
    await wait(500);
    const pausedUploads = r.stats().video.uploads - pausedFrom;
    const shown = element.querySelector('canvas').getContext('2d').getImageData(0, 0, 1280, 720).data;
    const reference = new OffscreenCanvas(1280, 720).getContext('2d');
    reference.drawImage(video, 0, 0, 1280, 720);
    const drawn = reference.getImageData(0, 0, 1280, 720).data;
    let total = 0;
    for (let i = 0; i < shown.length; i += 4) for (let c = 0; c < 3; c++) total += Math.abs(shown[i + c] - drawn[i + c]);
    r.destroy();
    // WebGL: the same frames, straight to the texture (a smaller box, which SwiftShader draws
    // nearer the screen's rate).
    element.style.cssText = 'width:480px;height:270px';
    const gpu = await Ripples.attach(element, { videoUrl: '/clips/pattern-720p.webm', look: 'classic', interactive: false });
    await wait(600);
    const gpuFrom = gpu.stats().video.uploads;
    const gpuStarted = performance.now();
    await wait(1500);
    const gpuStats = gpu.stats();
    const webgl = {
      renderer: gpuStats.renderer,
      uploadsPerSecond: ((gpuStats.video.uploads - gpuFrom) * 1000) / (performance.now() - gpuStarted),
      fps: gpuStats.fps,
      wasmCopies: gpuStats.video.wasmCopies,
      path: gpuStats.video.path,
    };
    gpu.destroy();
    return { hasCallbacks: 'requestVideoFrameCallback' in HTMLVideoElement.prototype, uploadsPerSecond, fps, pausedUploads, pixelMean: total / (3 * 1280 * 720), webgl };
  });
  console.log(`without requestVideoFrameCallback: ${JSON.stringify(result)}`);
  check(
    'without requestVideoFrameCallback: copies while it plays (at most one per animation frame), none while paused, a seek shown',
    // Against the loop's own rate, which a busy machine lowers; never more than one a frame at 60 Hz.
    !result.hasCallbacks && result.uploadsPerSecond >= 0.5 * Math.min(30, result.fps) && result.uploadsPerSecond < 64 &&
      result.pausedUploads === 0 && result.pixelMean < 1.5,
    JSON.stringify(result),
  );
  check(
    'without requestVideoFrameCallback, WebGL: frames taken while it plays, none through wasm',
    result.webgl.renderer === 'webgl' && result.webgl.uploadsPerSecond >= 0.5 * Math.min(30, result.webgl.fps) && result.webgl.uploadsPerSecond < 64 && result.webgl.wasmCopies === 0 && result.webgl.path === 'webgl',
    JSON.stringify(result.webgl),
  );
  check('no uncaught exception (no frame callbacks)', errors.length === 0, errors.join('; '));
  await context.close();
}

export async function refusedAutoplay(browser, origin) {
  const { context, page, errors } = await newPage(browser, origin, { refusePlay: true });
  const result = await page.evaluate(async (patience) => {
    const element = document.createElement('div');
    element.style.cssText = 'width:640px;height:360px';
    document.body.append(element);
    const r = await Ripples.attach(element, { videoUrl: '/clips/pattern-360p.webm', quality: 'high' });
    const messages = [];
    r.addEventListener('error', (event) => {
      messages.push(event.message);
      event.preventDefault();
    });
    // A stone, so that the water moves (calm water over a paused video sleeps).
    r.drop(320, 180, 20, 500);
    const from = r.stats().steps;
    // 20 steps or more (800 ms at 60 steps a second; longer on a busy machine).
    await wait(800);
    for (let waited = 0; waited < patience && r.stats().steps - from <= 20; waited += 50) await wait(50);
    const s = r.stats();
    r.destroy();
    return { messages, steps: s.steps - from, uploads: s.video.uploads, paused: s.video.paused, playError: s.video.playError };
  }, PATIENCE_MS);
  console.log(`autoplay refused: ${JSON.stringify(result)}`);
  check(
    'autoplay refused: the water runs over the current frame and an error event says why',
    result.messages.length === 1 && /refused play\(\).*NotAllowedError/.test(result.messages[0]) && result.uploads >= 1 && result.uploads <= 2 && result.steps > 20 && result.paused,
    JSON.stringify(result),
  );
  check('no uncaught exception (autoplay)', errors.length === 0, errors.join('; '));
  await context.close();
}
