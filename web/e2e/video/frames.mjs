// Frame by frame on the CPU: which formats this Chromium plays, one copy per video frame, the
// water showing the frame the video shows, paused and ended videos, the wasm memory over hundreds
// of frames, destroy().

import { PATIENCE_MS, check } from '../harness.mjs';
import { newPage } from './page.mjs';

export async function formats(browser, origin) {
  const { context, page } = await newPage(browser, origin);
  const result = await page.evaluate(async () => {
    const out = {};
    for (const [name, type] of [['mp4', 'video/mp4; codecs="avc1.64001f"'], ['webm', 'video/webm; codecs="vp9"']]) {
      const video = document.createElement('video');
      video.muted = true;
      video.src = `/clips/pattern-720p.${name}`;
      const loaded = await new Promise((resolve) => {
        video.onloadeddata = () => resolve(true);
        video.onerror = () => resolve(false);
      });
      out[name] = { canPlayType: video.canPlayType(type) || 'no', loaded };
    }
    return out;
  });
  console.log(`formats: H.264 ${JSON.stringify(result.mp4)}, VP9 ${JSON.stringify(result.webm)}`);
  check('this Chromium plays the VP9 clips the rest of the test uses', result.webm.loaded, JSON.stringify(result));
  await context.close();
  return result;
}

export /** Frame by frame, pixels, paused, ended, memory and speed on one 1280x720 element. */
async function frames(browser, origin, format) {
  const { context, page, errors } = await newPage(browser, origin);
  const result = await page.evaluate(async ({ format, patience }) => {
    const element = document.createElement('div');
    element.style.cssText = 'width:1280px;height:720px';
    document.body.append(element);
    const r = await Ripples.attach(element, { videoUrl: `/clips/pattern-720p.${format}`, look: 'classic', quality: 'high', interactive: false, renderer: 'cpu' });
    const video = r.video;
    const out = { muted: video.muted, loop: video.loop, playsInline: video.playsInline, inDocument: video.isConnected };
    // The first frame is there at attach (drawn in the same task).
    out.atAttach = r.stats().video;
    await wait(600);
    const memory = Ripples.memoryBytes();
    const before = r.stats().video.uploads;
    const started = performance.now();
    await wait(2000);
    const playing = r.stats();
    out.uploadsPerSecond = ((playing.video.uploads - before) * 1000) / (performance.now() - started);
    out.fps = playing.fps;
    out.path = playing.video.path;
    out.uploadMs = playing.video.uploadMs;
    // What quality 'auto' weighs counts the copies: frameMs is more than step+render+draw.
    out.frameCosts = { frameMs: playing.quality.frameMs, stepRenderMs: playing.stepRenderMs, drawMs: playing.drawMs };
    // Still: calm classic water shows the picture as it is; compare it with the browser's own
    // drawing of the same frame.
    await still(video, 1.5);
    const canvas = element.querySelector('canvas');
    const shown = canvas.getContext('2d').getImageData(0, 0, 1280, 720).data;
    const reference = new OffscreenCanvas(1280, 720).getContext('2d');
    reference.drawImage(video, 0, 0, 1280, 720);
    const drawn = reference.getImageData(0, 0, 1280, 720).data;
    let total = 0;
    let worst = 0;
    for (let i = 0; i < shown.length; i += 4) {
      for (let c = 0; c < 3; c++) {
        const d = Math.abs(shown[i + c] - drawn[i + c]);
        total += d;
        worst = Math.max(worst, d);
      }
    }
    out.pixelMean = total / (3 * 1280 * 720);
    out.pixelWorst = worst;
    // Hidden while the video moves on: show() shows the frame of now at once.
    r.hide();
    await still(video, 2.2);
    r.show();
    const afterShow = canvas.getContext('2d').getImageData(0, 0, 1280, 720).data;
    reference.drawImage(video, 0, 0, 1280, 720);
    const now = reference.getImageData(0, 0, 1280, 720).data;
    let showTotal = 0;
    for (let i = 0; i < now.length; i += 4) for (let c = 0; c < 3; c++) showTotal += Math.abs(afterShow[i + c] - now[i + c]);
    out.afterShowMean = showTotal / (3 * 1280 * 720);
    // Another frame looks different (the clip moves).
    await still(video, 0.5);
    const other = canvas.getContext('2d').getImageData(0, 0, 1280, 720).data;
    let moved = 0;
    for (let i = 0; i < other.length; i += 4) moved += Math.abs(other[i] - shown[i]);
    out.otherFrameMean = moved / (1280 * 720);
    // Paused: the water keeps moving over the still frame, and no frame is copied (for 40 steps,
    // however long a busy machine takes over them).
    r.drop(640, 360, 30, 2000);
    const pausedFrom = r.stats();
    for (let waited = 0; waited < patience && r.stats().steps - pausedFrom.steps < 40; waited += 50) await wait(50);
    await wait(100);
    const pausedTo = r.stats();
    out.paused = {
      steps: pausedTo.steps - pausedFrom.steps,
      uploads: pausedTo.video.uploads - pausedFrom.video.uploads,
      fps: pausedTo.fps,
      drawnMs: pausedTo.stepRenderMs,
    };
    // Ended (no loop): the same.
    video.loop = false;
    video.currentTime = 2.7;
    await video.play();
    await new Promise((resolve) => video.addEventListener('ended', resolve, { once: true }));
    const endedFrom = r.stats();
    r.drop(300, 300, 30, 2000);
    for (let waited = 0; waited < patience && r.stats().steps - endedFrom.steps <= 30; waited += 50) await wait(50);
    const endedTo = r.stats();
    out.ended = { ended: video.ended, steps: endedTo.steps - endedFrom.steps, uploads: endedTo.video.uploads - endedFrom.video.uploads };
    // Memory: hundreds of frames (looping again) do not change the wasm memory.
    video.loop = true;
    await video.play();
    // 200 video frames or more (8 s of a 30 fps clip; longer on a busy machine).
    const uploadsFrom = r.stats().video.uploads;
    for (let waited = 0; waited < 2 * patience && r.stats().video.uploads - uploadsFrom < 200; waited += 100) await wait(100);
    const last = r.stats();
    out.memory = { before: memory, after: Ripples.memoryBytes(), uploads: last.video.uploads - uploadsFrom };
    r.destroy();
    out.released = { src: video.getAttribute('src'), paused: video.paused };
    return out;
  }, { format, patience: PATIENCE_MS });
  console.log(
    `frame by frame (${format}): ${result.uploadsPerSecond.toFixed(1)} uploads/s of a 30 fps clip at ${result.fps.toFixed(1)} fps, ` +
      `path ${result.path}, ${result.uploadMs.toFixed(2)} ms per copy; calm classic water against the browser's drawing of the frame: ` +
      `mean ${result.pixelMean.toFixed(2)}, worst ${result.pixelWorst} levels; another frame differs by ${result.otherFrameMean.toFixed(1)}`,
  );
  check('videoUrl: muted, playsInline and looping, not in the document', result.muted && result.playsInline && result.loop && !result.inDocument, JSON.stringify(result));
  check('the first frame is in at attach', result.atAttach.uploads >= 1 && result.atAttach.width === 1280, JSON.stringify(result.atAttach));
  // At most one copy per video frame (the clip's 30 a second), and one for each video frame the
  // loop sees: against the loop's own rate, which a busy machine lowers.
  check(
    'one copy per video frame (30 fps clip, 60 Hz loop)',
    result.uploadsPerSecond >= 0.5 * Math.min(30, result.fps) && result.uploadsPerSecond < 34,
    `${result.uploadsPerSecond.toFixed(1)} copies/s at ${result.fps.toFixed(1)} fps`,
  );
  check('a 1280x720 clip on a 1280x720 box is copied by WebCodecs', result.path === 'videoframe', result.path);
  {
    const { frameMs, stepRenderMs, drawMs } = result.frameCosts;
    const copies = frameMs - (stepRenderMs + drawMs);
    console.log(
      `quality 'auto' weighs ${frameMs.toFixed(2)} ms a frame: step+render ${stepRenderMs.toFixed(2)}, draw ${drawMs.toFixed(2)}, the video's copies ${copies.toFixed(2)}`,
    );
    check("quality 'auto' counts the video's copies in the frame's cost", copies > 0.05, JSON.stringify(result.frameCosts));
  }
  check('the water shows the frame the video shows', result.pixelMean < 1.5 && result.pixelWorst <= 24, `mean ${result.pixelMean.toFixed(2)} worst ${result.pixelWorst}`);
  check('the water follows the video to another frame', result.otherFrameMean > 2, result.otherFrameMean.toFixed(1));
  check('show() after hide() shows the frame the video shows now', result.afterShowMean < 1.5, `mean ${result.afterShowMean.toFixed(2)}`);
  console.log(`paused: ${JSON.stringify(result.paused)}; ended: ${JSON.stringify(result.ended)}`);
  check('paused: the water moves over the still frame, no frame copied', result.paused.steps > 40 && result.paused.uploads === 0 && result.paused.fps > 0, JSON.stringify(result.paused));
  check('ended: the water moves over the last frame, no frame copied', result.ended.ended && result.ended.steps > 30 && result.ended.uploads === 0, JSON.stringify(result.ended));
  console.log(`memory over ${result.memory.uploads} video frames: ${result.memory.before} -> ${result.memory.after} bytes of wasm memory`);
  check('no wasm memory per video frame', result.memory.uploads >= 200 && result.memory.after === result.memory.before, JSON.stringify(result.memory));
  check('destroy() stops the video and lets go of its download', result.released.src === null && result.released.paused, JSON.stringify(result.released));
  check('no uncaught exception (frames)', errors.length === 0, errors.join('; '));
  await context.close();
}
