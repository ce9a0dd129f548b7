// Video on the GPU (renderer 'auto', WebGL2: SwiftShader here): a paused frame against the CPU
// renderer's, the picture following the playing video with no frame through wasm, a lost context.

import path from 'node:path';
import { PATIENCE_MS, check, decodePng } from '../harness.mjs';
import { meanDifference, newPage, outDir, parity } from './page.mjs';

export /**
 * On the GPU (renderer 'auto', here SwiftShader's WebGL2): a paused frame under calm natural
 * water (the default look) drawn by WebGL against the CPU renderer's drawing of it, for a clip
 * that lands 1:1 and one that is scaled; then the picture follows the playing video with no
 * frame through the wasm memory.
 */
async function onTheGpu(browser, origin) {
  const { context, page, errors } = await newPage(browser, origin);
  const box = { x: 0, y: 0, width: 1280, height: 720 };
  for (const clip of ['pattern-720p', 'pattern-360p']) {
    const shots = {};
    for (const renderer of ['cpu', 'auto']) {
      const stats = await page.evaluate(
        async ({ box, clip, renderer, patience }) => {
          document.body.innerHTML = `<div id="box" style="position:absolute;left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px"></div>`;
          // quality 'high': a busy machine would make quality 'auto' lower the CPU's pixel ratio
          // (WebGL's stays), and a clip meant to land 1:1 would be scaled.
          const r = await Ripples.attach(document.getElementById('box'), { videoUrl: `/clips/${clip}.webm`, renderer, interactive: false, quality: 'high' });
          window.onGpu = r;
          // The frame at 1.5 s taken (by the seek's upload) and drawn, however busy the machine.
          r.video.pause();
          const uploads = r.stats().video.uploads;
          await still(r.video, 1.5);
          for (let waited = 0; waited < patience && r.stats().video.uploads <= uploads; waited += 20) await wait(20);
          await frames(6);
          // Calm and paused: the loop sleeps over the frame.
          await wait(300);
          const s = r.stats();
          return { renderer: s.renderer, asleep: s.asleep, path: s.video.path, wasmCopies: s.video.wasmCopies };
        },
        { box, clip, renderer, patience: PATIENCE_MS },
      );
      shots[renderer] = { stats, png: decodePng(await page.screenshot({ clip: box, path: path.join(outDir, `gpu-${clip}-${renderer}.png`) })) };
      if (renderer === 'cpu') await page.evaluate(() => window.onGpu.destroy());
    }
    const { mean, p999 } = parity(shots.cpu.png, shots.auto.png, { x: 0, y: 0, width: box.width, height: box.height });
    console.log(
      `on the GPU, ${clip} paused at 1.5 s under calm water: WebGL against the CPU renderer: mean ${mean.toFixed(3)} levels, ` +
        `99.9th percentile ${p999} (${JSON.stringify(shots.auto.stats)} against ${JSON.stringify(shots.cpu.stats)})`,
    );
    check(
      `on the GPU, ${clip}: a paused frame equals the CPU renderer's (mean <= 1, 99.9th percentile <= 6)`,
      shots.cpu.stats.renderer === 'cpu' && shots.auto.stats.renderer === 'webgl' && mean <= 1 && p999 <= 6,
      `mean ${mean.toFixed(3)}, p99.9 ${p999}`,
    );
    check(
      `on the GPU, ${clip}: straight from the <video>, no frame in wasm`,
      shots.auto.stats.path === 'webgl' && shots.auto.stats.wasmCopies === 0 && shots.cpu.stats.wasmCopies >= 1,
      JSON.stringify(shots.auto.stats),
    );
    if (clip === 'pattern-720p') {
      // Another paused frame: the picture follows the video.
      await page.evaluate(() => still(window.onGpu.video, 0.5));
      const other = decodePng(await page.screenshot({ clip: box }));
      const moved = meanDifference(other, shots.auto.png, box);
      check('on the GPU, a seek to another frame shows it', moved > 2, `mean ${moved.toFixed(1)} levels between the frames at 1.5 s and 0.5 s`);
      // Playing: 30 frames a second taken, none through wasm, no copy time, the memory the
      // same. A smaller box, whose frames SwiftShader draws at the screen's rate.
      const small = { x: 0, y: 0, width: 480, height: 270 };
      const from = await page.evaluate(async (small) => {
        window.onGpu.destroy();
        document.body.innerHTML = `<div id="box" style="position:absolute;left:0;top:0;width:${small.width}px;height:${small.height}px"></div>`;
        const r = await Ripples.attach(document.getElementById('box'), { videoUrl: '/clips/pattern-720p.webm', interactive: false });
        window.onGpu = r;
        await wait(500);
        window.playingFrom = { stats: r.stats(), memory: Ripples.memoryBytes(), started: performance.now() };
        return r.stats().video;
      }, small);
      const changes = [];
      let previous = decodePng(await page.screenshot({ clip: small }));
      for (let i = 0; i < 5; i++) {
        // Two new video frames taken and drawn since the last screenshot, however slowly
        // SwiftShader draws on a busy machine (a fixed 250 ms saw no new frame at 2 fps).
        await page.evaluate(async (patience) => {
          const r = window.onGpu;
          const uploads = r.stats().video.uploads;
          for (let waited = 0; waited < patience && r.stats().video.uploads < uploads + 2; waited += 20) await wait(20);
          await frames(2);
        }, PATIENCE_MS);
        const now = decodePng(await page.screenshot({ clip: small }));
        changes.push(meanDifference(now, previous, { x: 0, y: 0, width: small.width, height: small.height }));
        previous = now;
      }
      const playing = await page.evaluate(async () => {
        const r = window.onGpu;
        const { stats: from, memory, started } = window.playingFrom;
        const to = r.stats();
        const seconds = (performance.now() - started) / 1000;
        r.destroy();
        return {
          renderer: to.renderer,
          framesPerSecond: (to.video.uploads - from.video.uploads) / seconds,
          wasmCopies: to.video.wasmCopies - from.video.wasmCopies,
          copyMs: to.video.copyMs,
          uploadMs: to.video.uploadMs,
          drawnFps: to.fps,
          memory: { before: memory, after: Ripples.memoryBytes() },
        };
      });
      playing.changes = changes.map((change) => Number(change.toFixed(2)));
      playing.playing = !from.paused;
      console.log(`on the GPU, playing: ${JSON.stringify(playing)}`);
      check(
        'on the GPU, the picture follows the playing video (a new frame taken per video frame the loop sees, the canvas changes)',
        // Against the loop's own rate (SwiftShader on a busy machine draws 10 frames a second or
        // fewer), and never more than the clip's 30 frames a second.
        playing.renderer === 'webgl' && playing.playing && playing.framesPerSecond >= 0.5 * Math.min(30, playing.drawnFps) &&
          playing.framesPerSecond < 34 && playing.changes.every((change) => change > 0.5),
        JSON.stringify(playing),
      );
      check(
        'on the GPU, no frame copied into wasm, no copy time in stats(), the wasm memory the same',
        playing.wasmCopies === 0 && playing.copyMs === 0 && playing.memory.after === playing.memory.before,
        JSON.stringify(playing),
      );
    } else {
      // A lost context: the CPU carries on, with the video's frame now copied into wasm.
      const lost = await page.evaluate(async () => {
        const r = window.onGpu;
        document.querySelector('#box canvas').getContext('webgl2').getExtension('WEBGL_lose_context').loseContext();
        await frames(3);
        const s = r.stats();
        return { renderer: s.renderer, cpuReason: s.cpuReason, path: s.video.path, wasmCopies: s.video.wasmCopies };
      });
      const afterLoss = decodePng(await page.screenshot({ clip: box }));
      const loss = parity(shots.cpu.png, afterLoss, { x: 0, y: 0, width: box.width, height: box.height });
      console.log(`on the GPU, ${clip}: a lost context: ${JSON.stringify(lost)}, mean ${loss.mean.toFixed(3)} p99.9 ${loss.p999} against the CPU's`);
      check(
        'on the GPU, a lost context: the CPU carries on with the video frame (copied into wasm now)',
        lost.renderer === 'cpu' && lost.cpuReason === 'context-lost' && lost.wasmCopies >= 1 && lost.path !== 'webgl' && loss.mean <= 1 && loss.p999 <= 6,
        JSON.stringify({ ...lost, ...loss }),
      );
      await page.evaluate(() => window.onGpu.destroy());
    }
  }
  check('no uncaught exception (on the GPU)', errors.length === 0, errors.join('; '));
  await context.close();
}
