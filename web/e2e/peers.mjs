// Ripples beside jquery.ripples, the most used water effect on the web, on the same photograph
// with the same clicks: the picture of docs/vs-jquery-ripples.png.
//
//   bash web/build.sh && node web/e2e/peers.mjs [--out docs/vs-jquery-ripples.png]
//
// The picture goes to target/e2e/peers/vs-jquery-ripples.png (RIPPLES_E2E_OUT/peers) unless
// --out names another file; crates/ripples-web/tests/e2e.rs runs it with the other browser
// scripts, so the comparison keeps working.
//
// One page holds two boxes of the same size with the same CSS background (the coffee
// photograph, center / cover): jquery.ripples 0.6.3 (WebGL; here Chromium's SwiftShader) with
// its defaults on the left, Ripples with its defaults (the natural look over the dispersive
// solver) on the right, twice: the mouse clicks each box at the same places at the same moments,
// as a visitor would (each library's own click: jquery.ripples drops 1.5 times its dropRadius
// at 0.14, Ripples presses a stone), the upper pair half a second and the lower pair two
// seconds before the page is photographed.
// Both versions are pinned in package.json. It checks that each side changed the photograph
// near the clicks (a library that did not start would make the comparison meaningless), prints
// how much, and writes the screenshot.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePng, launch, requireDist, serve } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const BOX = { width: 560, height: 380 };
const GAP = 16;
const MARGIN = 16;
const CAPTION = 28;
// Where and when the mouse clicks, in box pixels and milliseconds after a row's first click.
const CLICKS = [
  { x: 150, y: 120, at: 0 },
  { x: 400, y: 250, at: 350 },
  { x: 250, y: 290, at: 700 },
];
// The rows: how long before the photograph their last click was. The lower row is clicked first.
const ROWS = [
  { label: '0.5 s after the last of three clicks', ageMs: 500 },
  { label: '2 s after', ageMs: 2000 },
];

function parse(argv) {
  const results = path.resolve(process.env.RIPPLES_E2E_OUT ?? path.join(here, '../../target/e2e'));
  let out = path.join(results, 'peers', 'vs-jquery-ripples.png');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out' && i + 1 < argv.length) out = path.resolve(argv[++i]);
    else throw new Error(`unknown argument '${argv[i]}' (--out FILE)`);
  }
  return { out };
}

/** Where box `column` (0: jquery.ripples, 1: Ripples) of row `row` is on the page. */
const boxAt = (row, column) => ({
  left: MARGIN + column * (BOX.width + GAP),
  top: MARGIN + CAPTION + row * (CAPTION + BOX.height + GAP),
});

const page = () => {
  const names = ['jquery.ripples 0.6.3 (WebGL)', 'Ripples (wasm)'];
  const panes = ROWS.flatMap((row, r) =>
    names.map((name, c) => {
      const { left, top } = boxAt(r, c);
      return (
        `<div class="caption" style="left:${left}px;top:${top - CAPTION}px">${name}, ${row.label}</div>` +
        `<div id="box-${r}-${c}" class="box" style="left:${left}px;top:${top}px"></div>`
      );
    }),
  );
  return `<!doctype html>
<html><head><meta charset="utf-8"><style>
  body { margin: 0; background: #10161d; color: #e8eef5; font: 15px/1.3 system-ui, sans-serif; }
  .caption, .box { position: absolute; }
  .caption { height: ${CAPTION}px; line-height: ${CAPTION - 6}px; }
  .box { width: ${BOX.width}px; height: ${BOX.height}px; background: #3b2416 url(assets/coffee.jpg) center / cover no-repeat; }
</style></head><body>
  ${panes.join('\n  ')}
  <script src="/vendor/jquery/dist/jquery.min.js"></script>
  <script src="/vendor/jquery.ripples/dist/jquery.ripples-min.js"></script>
  <script type="module">
    import { Ripples } from './ripples.js';
    for (let r = 0; r < ${ROWS.length}; r++) {
      $('#box-' + r + '-0').ripples();
      await Ripples.attach(document.getElementById('box-' + r + '-1'), { quality: 'high', pixelRatio: 1 });
    }
    window.ready = true;
  </script>
</body></html>`;
};

/** Mean absolute difference (RGB levels) and the share of pixels changed by more than 8 levels, near the clicks. */
function changeNearClicks(before, after, left, top) {
  let sum = 0;
  let changed = 0;
  let count = 0;
  for (const click of CLICKS) {
    for (let dy = -40; dy <= 40; dy++) {
      for (let dx = -40; dx <= 40; dx++) {
        const x = left + click.x + dx;
        const y = top + click.y + dy;
        const i = (y * before.width + x) * before.channels;
        let difference = 0;
        for (let c = 0; c < 3; c++) difference += Math.abs(before.pixels[i + c] - after.pixels[i + c]);
        sum += difference / 3;
        if (difference / 3 > 8) changed++;
        count++;
      }
    }
  }
  return { mean: sum / count, changed: changed / count };
}

async function main() {
  const { out } = parse(process.argv.slice(2));
  requireDist();
  const modules = path.resolve(here, 'node_modules');
  const { origin, server } = await serve(undefined, { mounts: { '/vendor/': modules } });
  const width = MARGIN * 2 + BOX.width * 2 + GAP;
  const height = MARGIN * 2 + ROWS.length * (CAPTION + BOX.height) + (ROWS.length - 1) * GAP;
  const browser = await launch();
  let failed = false;
  try {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const tab = await context.newPage();
    const errors = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.route(`${origin}/peers.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: page() }),
    );
    await tab.goto(`${origin}/peers.html`);
    await tab.waitForFunction(() => window.ready === true, null, { timeout: 30000 });
    await tab.waitForTimeout(800);
    const before = decodePng(await tab.screenshot());
    // Every click of every row on one clock: a row's last click comes its age before the photograph.
    const lastClick = CLICKS[CLICKS.length - 1].at;
    const oldest = Math.max(...ROWS.map((row) => row.ageMs));
    const events = ROWS.flatMap((row, r) =>
      CLICKS.map((click) => ({ row: r, click, at: oldest - row.ageMs + click.at })),
    ).sort((a, b) => a.at - b.at);
    const start = Date.now();
    for (const { row, click, at } of events) {
      const wait = at - (Date.now() - start);
      if (wait > 0) await tab.waitForTimeout(wait);
      for (const column of [0, 1]) {
        const box = boxAt(row, column);
        await tab.mouse.click(box.left + click.x, box.top + click.y);
      }
    }
    await tab.mouse.move(width - 2, height - 2);
    const wait = oldest + lastClick - (Date.now() - start);
    if (wait > 0) await tab.waitForTimeout(wait);
    const shot = await tab.screenshot();
    const after = decodePng(shot);
    ROWS.forEach((row, r) => {
      for (const column of [0, 1]) {
        const box = boxAt(r, column);
        const change = changeNearClicks(before, after, box.left, box.top);
        const ok = change.changed > 0.05;
        console.log(
          `${ok ? 'ok  ' : 'FAIL'} ${column === 0 ? 'jquery.ripples' : 'Ripples'}, ${row.label}: near the clicks, ` +
            `${(100 * change.changed).toFixed(1)}% of pixels changed by more than 8 levels (mean ${change.mean.toFixed(1)})`,
        );
        failed ||= !ok;
      }
    });
    if (errors.length) {
      console.log(`FAIL page errors: ${errors.join('; ')}`);
      failed = true;
    }
    if (!failed) {
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, shot);
      console.log(`wrote ${path.relative(process.cwd(), out)} (${width}x${height})`);
    }
  } finally {
    await browser.close();
    server.close();
  }
  if (failed) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
