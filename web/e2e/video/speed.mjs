// Speed over a playing clip: reported, not required (bench.mjs --video is the benchmark).

import { check } from '../harness.mjs';
import { newPage } from './page.mjs';

export /**
 * Frames per second with a 1280x720 clip playing, natural look, both solvers, drawn by the CPU,
 * whose copies these are (bench.mjs --video measures longer).
 */
async function speed(browser, origin) {
  for (const solver of ['wave', 'dispersive']) {
    const { context, page, errors } = await newPage(browser, origin);
    const result = await page.evaluate(async (solver) => {
      const element = document.createElement('div');
      element.style.cssText = 'width:1280px;height:720px';
      document.body.append(element);
      const r = await Ripples.attach(element, { videoUrl: '/clips/pattern-720p.webm', solver, rain: 20, quality: 'high', interactive: false, renderer: 'cpu' });
      await wait(1000);
      r.stats();
      const samples = [];
      for (let i = 0; i < 3; i++) {
        await wait(1000);
        samples.push(r.stats());
      }
      r.destroy();
      const mean = (pick) => samples.reduce((sum, s) => sum + pick(s), 0) / samples.length;
      return {
        fps: mean((s) => s.fps),
        stepRenderMs: mean((s) => s.stepRenderMs),
        uploadMs: mean((s) => s.video.uploadMs),
        path: samples[0].video.path,
      };
    }, solver);
    console.log(
      `speed, 1280x720 natural/${solver} over a playing 1280x720 30 fps clip: ${result.fps.toFixed(1)} fps, ` +
        `${result.stepRenderMs.toFixed(2)} ms step+render, ${result.uploadMs.toFixed(2)} ms per video frame copied (${result.path})`,
    );
    // Timing depends on the machine's load (figures only; bench.mjs --video is the benchmark):
    // only a loop that does not run or copies nothing fails here.
    check(`speed: natural/${solver} runs over the video`, result.fps > 0 && result.uploadMs > 0, JSON.stringify(result));
    check(`no uncaught exception (speed ${solver})`, errors.length === 0, errors.join('; '));
    await context.close();
  }
}
