// End-to-end test of the npm package: the packed tarball installed into fresh projects, built,
// served and opened in headless Chromium.
//
//   node web/e2e/package.mjs "$(bash web/pack.sh | tail -n 1)"
//
// Each project is made under web/e2e/.apps/ from web/e2e/fixtures/: its own package.json and
// `npm install --offline <tarball>` (the package has no dependencies, so nothing but the
// tarball is needed); the toolchain (vite, webpack, react, typescript...) is web/e2e's own,
// installed by `npm ci` from its package-lock and found by Node's resolution from the parent
// folder. It checks:
//   - the tarball: the files of package.json's "files" and every "exports" target are inside,
//     "type": "module", "sideEffects": false, a licence;
//   - server-side import under Node, with window and document throwing when touched: the
//     package and its ./react subpath import without touching them, attach rejects saying
//     there is no browser, init says to pass the bytes and takes those of the .wasm subpath;
//     ripples.d.ts declares every option of Ripples.defaults, every method and every static
//     of the class (so an option or method added to ripples.js without its type fails here);
//   - `tsc --strict --noEmit` over fixtures/types/usage.tsx (every option, method, event,
//     stats() field and error, the React props and ref), with moduleResolution bundler and
//     node16; its @ts-expect-error lines must be errors;
//   - Vite's dev server: the error for a pre-bundled package names the vite.config.js fix,
//     and with it the water runs;
//   - a Vite app, a webpack 5 app and a plain static page: built (Vite, webpack) and served;
//     in Chromium a click makes ripples (pixels around it change), and destroy() leaves no
//     canvas, no event listener (addEventListener is wrapped to count them) and no pending
//     animation frame (requestAnimationFrame likewise);
//   - the static page: the `wasm` option as a URL, a Response, bytes and a WebAssembly.Module
//     (the default URL then answering 404); the load errors: a 403 and an index.html in place
//     of the .wasm (the URL, the status, not blamed on SIMD), a browser without WebAssembly
//     SIMD (the SIMD message, no fetch); a page opened from file:// (the webpack app's page,
//     whose classic script runs there) says so and how to serve it;
//   - the figures docs/web.md states: the .wasm's size and gzipped size and the tarball's size
//     (in KiB, rounded to 10), and the options table's defaults against Ripples.defaults (every
//     option has a row, each row's default is the value);
//   - a Vite + React app built in development mode, where StrictMode mounts effects twice:
//     one instance and one canvas after mounting, a click and the ref's drop() make ripples,
//     a changed prop goes to set() on the same instance, unmounting leaves nothing behind.
// Exit code 0 when every check passed; the failed checks are listed otherwise. The time each
// part took is printed.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import zlib from 'node:zlib';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PATIENCE_MS, decodePng, launch, serve } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, 'fixtures');
const apps = path.join(here, '.apps');
const bin = path.join(here, 'node_modules/.bin');
const NAME = '@ripples-rs/ripples';

const failures = [];
function check(name, ok, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
  if (!ok) failures.push(`${name}${detail ? `: ${detail}` : ''}`);
  return ok;
}

const timings = [];
async function timed(name, action) {
  const start = performance.now();
  try {
    return await action();
  } finally {
    timings.push(`${name} ${((performance.now() - start) / 1000).toFixed(1)} s`);
  }
}

function run(program, args, cwd, env = {}) {
  return execFileSync(program, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs and reports a failing command with its output, returning whether it succeeded. */
function runChecked(name, program, args, cwd, env) {
  try {
    run(program, args, cwd, env);
    return check(name, true);
  } catch (error) {
    return check(name, false, `${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`.trim());
  }
}

/** A fresh project `name` from fixtures/<fixture>, with the tarball installed offline. */
function makeApp(name, tarball, files) {
  const dir = path.join(apps, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [from, to] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    fs.copyFileSync(path.join(fixtures, from), path.join(dir, to));
  }
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: `ripples-${name}`, private: true, type: 'module' }, null, 2)}\n`);
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], dir);
  return dir;
}

/** fixtures/page.html with `script` in place of its placeholder. */
function writePage(dir, file, script) {
  const html = fs.readFileSync(path.join(fixtures, 'page.html'), 'utf8').replace('<!--SCRIPT-->', script);
  fs.writeFileSync(path.join(dir, file), html);
}

// --- the tarball ---------------------------------------------------------------------------

function checkTarball(tarball) {
  const listing = run('tar', ['tzf', tarball], here).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
  const manifest = JSON.parse(run('tar', ['xzOf', tarball, 'package/package.json'], here));
  check('package.json: "type": "module"', manifest.type === 'module');
  check('package.json: "sideEffects": false', manifest.sideEffects === false);
  check('package.json: a licence', typeof manifest.license === 'string' && listing.includes('LICENSE-MIT') && listing.includes('LICENSE-APACHE'), manifest.license);
  const missing = manifest.files.filter((file) => !listing.includes(file));
  check('every file of "files" is in the tarball', missing.length === 0, missing.join(', '));
  const targets = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    for (const file of typeof target === 'string' ? [target] : Object.values(target)) targets.push([subpath, file]);
  }
  const absent = targets.filter(([, file]) => !listing.includes(file.replace(/^\.\//, '')));
  check('every "exports" target is in the tarball', absent.length === 0, absent.map(([s, f]) => `${s} -> ${f}`).join(', '));
  const conditions = manifest.exports['.'];
  check('"exports" has types, import and default', Boolean(conditions.types && conditions.import && conditions.default) && Object.keys(conditions)[0] === 'types');
  check('"exports" has ./package.json, ./react and the .wasm', ['./package.json', './react', './ripples_web_bg.wasm'].every((s) => s in manifest.exports));
  check('README.md in the tarball', listing.includes('README.md'));
  const bytes = fs.statSync(tarball).size;
  console.log(`tarball: ${(bytes / 1024).toFixed(0)} KiB, ${listing.length} files`);
}

// --- Node: server-side import and the declarations -------------------------------------------

/** The member names a class or interface of a .d.ts declares (a plain reading, enough for ours). */
function declaredMembers(source, header) {
  const start = source.indexOf(header);
  if (start < 0) return [];
  let depth = 0;
  let body = '';
  for (let i = source.indexOf('{', start); i < source.length; i++) {
    if (source[i] === '{') depth++;
    if (source[i] === '}' && --depth === 0) break;
    if (depth === 1) body += source[i];
    else if (depth > 1 && source[i] === '\n') body += '\n';
  }
  body = body.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const names = new Set();
  for (const match of body.matchAll(/^\s*((?:(?:static|readonly|private|get)\s+)*)([A-Za-z_$][\w$]*)\??\s*[(:<]/gm)) {
    names.add(`${/static/.test(match[1] ?? '') ? 'static ' : ''}${match[2]}`);
  }
  return [...names];
}

function checkNode(tarball) {
  const dir = makeApp('node', tarball, { 'node/check.mjs': 'check.mjs' });
  let findings;
  try {
    findings = JSON.parse(run('node', ['check.mjs'], dir).trim().split('\n').pop());
  } catch (error) {
    check('Node import', false, `${error.message}\n${error.stderr ?? ''}`);
    return null;
  }
  check('Node: importing the package does not throw', findings.importError === null, findings.importError);
  check('Node: importing ./react does not throw', findings.reactImportError === null, findings.reactImportError);
  check('Node: import touches no window, document, navigator or location', findings.touchedAtImport.length === 0, findings.touchedAtImport.join(', '));
  if (findings.importError !== null) return;
  check(
    'Node: attach rejects saying there is no browser',
    /no browser/.test(findings.attachError ?? '') && /server-side rendering/.test(findings.attachError),
    findings.attachError,
  );
  check('Node: init without a browser or bytes says to pass the bytes', /^file-url: .*pass its bytes/.test(findings.fetchError ?? ''), findings.fetchError);
  check('Node: init takes the bytes of the .wasm subpath', findings.initError === null && findings.memoryBytes > 0, findings.initError ?? `${findings.memoryBytes} bytes of wasm memory`);
  check('Node: the package exports Ripples, RipplesLoadError and a default', ['Ripples', 'RipplesLoadError', 'default'].every((n) => findings.exports.includes(n)), findings.exports.join(', '));

  const types = fs.readFileSync(path.join(dir, 'node_modules', NAME, 'ripples.d.ts'), 'utf8');
  const options = declaredMembers(types, 'export interface RipplesOptions');
  const resolved = declaredMembers(types, 'export interface RipplesResolvedOptions');
  const members = declaredMembers(types, 'export class Ripples extends');
  const undeclared = findings.defaults.filter((name) => !options.includes(name) || !resolved.includes(name));
  check('ripples.d.ts declares every option of Ripples.defaults', undeclared.length === 0, undeclared.join(', ') || `${findings.defaults.length} options`);
  const stale = options.filter((name) => name !== 'waterColor' && !findings.defaults.includes(name));
  check('ripples.d.ts declares no option Ripples.defaults lacks', stale.length === 0, stale.join(', '));
  const methods = findings.methods.filter((name) => !members.includes(name));
  check('ripples.d.ts declares every method and getter of Ripples', methods.length === 0, methods.join(', ') || findings.methods.join(', '));
  const statics = findings.statics.filter((name) => !members.includes(`static ${name}`));
  check('ripples.d.ts declares every static of Ripples', statics.length === 0, statics.join(', ') || findings.statics.join(', '));
  return findings;
}

// --- the figures docs/web.md states ------------------------------------------------------------

/** KiB rounded to the nearest 10, as docs/web.md states sizes. */
const tensOfKiB = (bytes) => Math.round(bytes / 1024 / 10) * 10;

/** The cells of a Markdown table row. */
const cells = (row) => row.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());

/** A default as docs/web.md writes it: strings quoted, the rest as JavaScript prints them. */
const written = (value) => (typeof value === 'string' ? `'${value}'` : String(value));

function checkDocFigures(tarball, findings) {
  const page = path.join(here, '..', '..', 'docs', 'web.md');
  if (!fs.existsSync(page)) {
    console.log('notice: no docs/web.md (a packaged crate?): its figures are not checked');
    return;
  }
  const text = fs.readFileSync(page, 'utf8');
  const wasm = fs.readFileSync(path.join(here, '..', 'dist', 'ripples_web_bg.wasm'));
  const sizes = /`ripples_web_bg\.wasm` \(about (\d+) KiB, about (\d+) KiB\s+gzipped/.exec(text);
  if (check('docs/web.md states the .wasm size as "`ripples_web_bg.wasm` (about N KiB, about M KiB gzipped"', sizes !== null)) {
    const built = tensOfKiB(wasm.length);
    check('docs/web.md: the .wasm size', Number(sizes[1]) === built, `says about ${sizes[1]} KiB; web/dist/ripples_web_bg.wasm is ${(wasm.length / 1024).toFixed(1)} KiB, about ${built}`);
    const gzipped = zlib.gzipSync(wasm, { level: 9 }).length;
    check('docs/web.md: the .wasm size gzipped', Number(sizes[2]) === tensOfKiB(gzipped), `says about ${sizes[2]} KiB; gzip -9 gives ${(gzipped / 1024).toFixed(1)} KiB, about ${tensOfKiB(gzipped)}`);
  }
  const packed = /ripples-rs-ripples-[\d.]+\.tgz` \(about (\d+) KiB/.exec(text);
  if (check('docs/web.md states the tarball size as "….tgz` (about N KiB"', packed !== null)) {
    const bytes = fs.statSync(tarball).size;
    check('docs/web.md: the tarball size', Number(packed[1]) === tensOfKiB(bytes), `says about ${packed[1]} KiB; ${path.basename(tarball)} is ${(bytes / 1024).toFixed(1)} KiB, about ${tensOfKiB(bytes)}`);
  }
  if (!findings) return;
  // The options table: the rows after its | option | meaning | default | header.
  const lines = text.split('\n');
  const header = lines.findIndex((line) => line.startsWith('|') && cells(line).join() === 'option,meaning,default');
  if (!check('docs/web.md has an | option | meaning | default | table', header >= 0)) return;
  const rows = new Map();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [option, , fallback] = cells(line);
    const name = /^`(\w+)`/.exec(option)?.[1];
    if (name) rows.set(name, fallback);
  }
  const missing = findings.defaults.filter((name) => !rows.has(name));
  check('docs/web.md: a row for every option of Ripples.defaults', missing.length === 0, missing.join(', ') || `${rows.size} rows`);
  const wrong = [];
  for (const [name, fallback] of rows) {
    if (!(name in findings.defaultValues)) {
      wrong.push(`${name}: no such option in Ripples.defaults`);
      continue;
    }
    const value = findings.defaultValues[name];
    // The cell's first code span, or its leading number; prose alone only for null.
    const shown = /^`([^`]*)`/.exec(fallback)?.[1] ?? /^-?\d+(\.\d+)?(?=\s|$)/.exec(fallback)?.[0];
    if (shown === undefined ? value !== null : shown !== written(value)) {
      wrong.push(`${name}: the table says '${fallback}', Ripples.defaults has ${written(value)}`);
    }
  }
  check("docs/web.md: each option's default is Ripples.defaults'", wrong.length === 0, wrong.join('; '));
}

// --- TypeScript ------------------------------------------------------------------------------

function checkTypes(tarball) {
  const dir = makeApp('types', tarball, {
    'types/usage.tsx': 'usage.tsx',
    'types/tsconfig.json': 'tsconfig.json',
    'types/tsconfig.node16.json': 'tsconfig.node16.json',
  });
  runChecked('tsc --strict --noEmit (moduleResolution bundler)', path.join(bin, 'tsc'), ['-p', 'tsconfig.json'], dir);
  runChecked('tsc --strict --noEmit (moduleResolution node16)', path.join(bin, 'tsc'), ['-p', 'tsconfig.node16.json'], dir);
}

// --- in the browser --------------------------------------------------------------------------

/**
 * Counts, in the page, the event listeners alive (addEventListener minus removeEventListener,
 * listeners removed by their AbortSignal, and `once` listeners that fired) and the animation
 * frames requested and not yet run or cancelled.
 */
function instrument() {
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  const live = new Set();
  const byTarget = new WeakMap();
  const captureOf = (options) => (typeof options === 'boolean' ? options : Boolean(options?.capture));
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (listener) {
      const capture = captureOf(options);
      const list = byTarget.get(this) ?? [];
      byTarget.set(this, list);
      const signal = typeof options === 'object' ? options?.signal : undefined;
      if (!list.some((r) => r.type === type && r.listener === listener && r.capture === capture) && !signal?.aborted) {
        const record = { type, listener, capture, what: `${this.constructor?.name}:${type}` };
        list.push(record);
        live.add(record);
        const forget = () => {
          live.delete(record);
          const index = list.indexOf(record);
          if (index >= 0) list.splice(index, 1);
        };
        record.forget = forget;
        if (signal) add.call(signal, 'abort', forget, { once: true });
        if (typeof options === 'object' && options?.once) add.call(this, type, forget, { once: true, capture });
      }
    }
    return add.call(this, type, listener, options);
  };
  EventTarget.prototype.removeEventListener = function (type, listener, options) {
    const capture = captureOf(options);
    const record = (byTarget.get(this) ?? []).find((r) => r.type === type && r.listener === listener && r.capture === capture);
    record?.forget();
    return remove.call(this, type, listener, options);
  };
  const request = window.requestAnimationFrame.bind(window);
  const cancel = window.cancelAnimationFrame.bind(window);
  const pending = new Set();
  let requests = 0;
  window.requestAnimationFrame = (callback) => {
    requests++;
    const id = request((time) => {
      pending.delete(id);
      callback(time);
    });
    pending.add(id);
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    pending.delete(id);
    cancel(id);
  };
  window.__count = () => ({
    listeners: live.size,
    kinds: [...live].map((r) => r.what),
    frames: pending.size,
    requests,
    canvases: document.querySelectorAll('canvas').length,
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The fraction of pixels within `radius` of (x, y) that differ between two element screenshots. */
function changedNear(before, after, x, y, radius) {
  let near = 0;
  let changed = 0;
  const { width, height, channels } = before;
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      if (Math.hypot(px - x, py - y) > radius) continue;
      near++;
      const i = (py * width + px) * channels;
      if (before.pixels[i] !== after.pixels[i] || before.pixels[i + 1] !== after.pixels[i + 1] || before.pixels[i + 2] !== after.pixels[i + 2]) changed++;
    }
  }
  return near ? changed / near : 0;
}

async function shot(page, selector) {
  return decodePng(await page.locator(selector).screenshot({ animations: 'allow' }));
}

/** Calm water is still; a click at (x, y) changes the pixels around it. */
async function clickMakesRipples(page, label, selector, x, y) {
  await sleep(300);
  const before = await shot(page, selector);
  const box = await page.locator(selector).boundingBox();
  await page.mouse.click(box.x + x, box.y + y);
  await sleep(400);
  const after = await shot(page, selector);
  const fraction = changedNear(before, after, x, y, 40);
  check(`${label}: a click makes ripples`, fraction > 0.2, `${(fraction * 100).toFixed(0)}% of the pixels within 40 px changed`);
}

/** After `stop`, the counts are back to `baseline`, no canvas is left, and no frame runs. */
async function leavesNothing(page, label, baseline, stop) {
  const running = await page.evaluate(() => window.__count());
  check(`${label}: attach added listeners and frames (the counting works)`, running.listeners > baseline.listeners && running.requests > baseline.requests, `${running.listeners} listeners, ${running.requests} frame requests`);
  await stop();
  await sleep(200);
  const after = await page.evaluate(() => window.__count());
  await sleep(300);
  const later = await page.evaluate(() => window.__count());
  check(`${label}: no canvas left`, after.canvases === 0, `${after.canvases} canvases`);
  const extra = after.kinds.filter((kind, i, all) => all.filter((k) => k === kind).length > baseline.kinds.filter((k) => k === kind).length);
  check(`${label}: no listener left`, after.listeners === baseline.listeners, `${after.listeners} listeners, ${baseline.listeners} before attach${extra.length ? `; extra: ${[...new Set(extra)].join(', ')}` : ''}`);
  check(`${label}: no animation frame left`, after.frames === 0 && later.requests === after.requests, `${after.frames} pending, ${later.requests - after.requests} requested after`);
}

async function newPage(browser, pageErrors) {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

/** Attach, click, destroy on an app served from `root` at `file`. */
async function checkApp(browser, label, root, file, pageErrors) {
  const server = await serve(root);
  try {
    const page = await newPage(browser, pageErrors);
    await page.goto(`${server.origin}/${file}`);
    await page.waitForFunction(() => window.app?.start, null, { timeout: 20000 });
    const baseline = await page.evaluate(() => window.__count());
    const error = await page.evaluate(() => window.app.start({ dropRadius: 14 }));
    if (!check(`${label}: attach`, error === null, error?.message)) return;
    const wasmFetched = [...server.requests.keys()].filter((p) => p.endsWith('.wasm'));
    check(`${label}: the .wasm fetched once`, wasmFetched.length === 1 && server.requests.get(wasmFetched[0]) === 1, wasmFetched.join(', '));
    await clickMakesRipples(page, label, '#pool', 200, 150);
    const setWasm = await page.evaluate(() => {
      try {
        window.app.ripples.set({ wasm: 'other.wasm' });
        return 'accepted';
      } catch (error) {
        return error.message;
      }
    });
    check(`${label}: set() refuses wasm, saying where it goes`, /wasm is an option of attach and Ripples.init/.test(setWasm), setWasm);
    await leavesNothing(page, label, baseline, () => page.evaluate(() => window.app.stop()));
    await page.context().close();
  } finally {
    server.server.close();
  }
}

async function checkVite(browser, tarball, pageErrors) {
  const dir = makeApp('vite', tarball, { 'vite/main.js': 'main.js', 'app.js': 'app.js' });
  writePage(dir, 'index.html', '<script type="module" src="./main.js"></script>');
  if (!runChecked('Vite app: vite build', path.join(bin, 'vite'), ['build', '--logLevel', 'warn'], dir)) return;
  await checkApp(browser, 'Vite app', path.join(dir, 'dist'), 'index.html', pageErrors);

  // Vite's dev server pre-bundles the package away from its .wasm: the error says what to add
  // to vite.config.js, and with it added the water runs.
  const devAttach = async (config) => {
    const port = await freePort();
    const args = ['--port', String(port), '--strictPort', '--host', '127.0.0.1', '--clearScreen', 'false'];
    if (config) {
      fs.writeFileSync(path.join(dir, 'dev.config.mjs'), config);
      args.push('--config', 'dev.config.mjs');
    }
    fs.rmSync(path.join(dir, 'node_modules/.vite'), { recursive: true, force: true });
    const server = spawn(path.join(bin, 'vite'), args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await new Promise((resolve, reject) => {
        server.stdout.on('data', (data) => /ready in/.test(String(data)) && resolve());
        server.on('exit', (code) => reject(new Error(`vite exited with ${code}`)));
      });
      const page = await newPage(browser, pageErrors);
      await page.goto(`http://127.0.0.1:${port}/index.html`);
      await page.waitForFunction(() => window.app?.start, null, { timeout: 20000 });
      const error = await page.evaluate(() => window.app.start());
      const width = error ? 0 : await page.evaluate(() => window.app.ripples.stats().width);
      await page.context().close();
      return { error, width };
    } finally {
      server.kill();
    }
  };
  const prebundled = await devAttach(null);
  check(
    'Vite dev server: the pre-bundled package says what to put in vite.config.js',
    prebundled.error?.loadError && /optimizeDeps: \{ exclude: \['@ripples-rs\/ripples'\] \}/.test(prebundled.error.message) && !/SIMD/.test(prebundled.error.message),
    prebundled.error?.message ?? 'attach succeeded',
  );
  const excluded = await devAttach("export default { optimizeDeps: { exclude: ['@ripples-rs/ripples'] } };\n");
  check('Vite dev server: with the package excluded from pre-bundling, attach works', excluded.error === null && excluded.width > 0, excluded.error?.message);
}

/** A free TCP port of 127.0.0.1. */
function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function checkWebpack(browser, tarball, pageErrors) {
  const dir = makeApp('webpack', tarball, {
    'webpack/webpack.config.mjs': 'webpack.config.mjs',
    'webpack/src/index.js': 'src/index.js',
    'app.js': 'src/app.js',
  });
  if (!runChecked('webpack 5 app: webpack', path.join(bin, 'webpack'), ['--config', 'webpack.config.mjs'], dir)) return;
  writePage(path.join(dir, 'dist'), 'index.html', '<script src="./main.js"></script>');
  await checkApp(browser, 'webpack 5 app', path.join(dir, 'dist'), 'index.html', pageErrors);
}

/** The static page: attach from a plain module script, the wasm option, the load errors. */
async function checkStatic(browser, tarball, pageErrors) {
  const dir = makeApp('static', tarball, { 'static/main.js': 'main.js', 'app.js': 'app.js' });
  writePage(dir, 'index.html', '<script type="module" src="./main.js"></script>');
  await checkApp(browser, 'static page', dir, 'index.html', pageErrors);

  const installed = `/node_modules/${NAME}/ripples_web_bg.wasm`;
  fs.mkdirSync(path.join(dir, 'elsewhere'), { recursive: true });
  fs.copyFileSync(path.join(dir, installed), path.join(dir, 'elsewhere/custom.wasm'));
  const server = await serve(dir);
  /** A fresh page whose default .wasm URL answers `status` with `body`; returns start()'s answer. */
  const attempt = async (options, { status = 404, body = 'not found', type = 'text/plain', init = null } = {}) => {
    const page = await newPage(browser, pageErrors);
    if (init) await page.addInitScript(init);
    let defaultFetches = 0;
    await page.route(`**${installed}`, (route) => {
      defaultFetches++;
      return route.fulfill({ status, body, contentType: type });
    });
    await page.goto(`${server.origin}/index.html`);
    await page.waitForFunction(() => window.app?.start, null, { timeout: 20000 });
    const error = await page.evaluate((o) => window.app.start(o), options);
    const drawn = error ? 0 : await page.evaluate(() => window.app.ripples.stats().width);
    await page.context().close();
    return { error, defaultFetches, drawn };
  };
  try {
    const forms = { url: 'a URL', response: 'a Response', bytes: 'bytes', module: 'a WebAssembly.Module' };
    for (const [wasmFrom, form] of Object.entries(forms)) {
      const { error, drawn } = await attempt({ wasmFrom, wasmUrl: '/elsewhere/custom.wasm' });
      check(`static page: the wasm option as ${form}`, error === null && drawn > 0, error?.message);
    }
    const forbidden = await attempt({}, { status: 403, body: 'Forbidden' });
    const url403 = `${server.origin}${installed}`;
    check(
      'a 403 for the .wasm names the URL and the status, not SIMD',
      forbidden.error?.loadError && forbidden.error.reason === 'http' && forbidden.error.status === 403 &&
        forbidden.error.message.includes(url403) && /HTTP 403/.test(forbidden.error.message) && !/SIMD/.test(forbidden.error.message),
      forbidden.error?.message,
    );
    const html = await attempt({}, { status: 200, body: '<!doctype html><title>app</title>', type: 'text/html' });
    check(
      'an index.html in place of the .wasm is named as not WebAssembly',
      html.error?.reason === 'not-wasm' && html.error.message.includes(url403) && html.error.message.includes('text/html') && !/SIMD/.test(html.error.message),
      html.error?.message,
    );
    const noSimd = await attempt({}, {
      status: 200,
      init: () => {
        const validate = WebAssembly.validate;
        // An engine without SIMD: modules that use it do not validate.
        WebAssembly.validate = (bytes) => (new Uint8Array(bytes).includes(253) ? false : validate(bytes));
      },
    });
    check(
      'a browser without WebAssembly SIMD gets the SIMD message, before any fetch',
      noSimd.error?.reason === 'no-simd' && /SIMD/.test(noSimd.error.message) && /Safari 16\.4/.test(noSimd.error.message) && noSimd.defaultFetches === 0,
      `${noSimd.error?.message} (${noSimd.defaultFetches} fetches)`,
    );
  } finally {
    server.server.close();
  }
}

/**
 * A page opened from file://: the webpack app's classic script runs there (module scripts do
 * not), and its fetch of the .wasm cannot.
 */
async function checkFileUrl(browser, pageErrors) {
  const page = await newPage(browser, pageErrors);
  const index = path.join(apps, 'webpack/dist/index.html');
  await page.goto(pathToFileURL(index).href);
  await page.waitForFunction(() => window.app?.start, null, { timeout: 20000 });
  const error = await page.evaluate(() => window.app.start());
  check(
    'a page opened from file:// says so and how to serve it',
    error?.reason === 'file-url' && /opened from a file:\/\/ URL/.test(error.message) && /http\.server/.test(error.message) && !/SIMD/.test(error.message),
    error?.message ?? 'attach succeeded',
  );
  await page.context().close();
}

/** The Vite + React app under StrictMode, built in development mode. */
async function checkReact(browser, tarball, pageErrors) {
  const dir = makeApp('react', tarball, {
    'react/main.jsx': 'main.jsx',
    'react/index.html': 'index.html',
    'react/vite.config.mjs': 'vite.config.mjs',
  });
  if (!runChecked('Vite + React app: vite build (development, StrictMode active)', path.join(bin, 'vite'), ['build', '--mode', 'development', '--logLevel', 'warn'], dir, { NODE_ENV: 'development' })) return;
  const server = await serve(path.join(dir, 'dist'));
  try {
    const page = await newPage(browser, pageErrors);
    await page.goto(`${server.origin}/index.html`);
    await page.waitForFunction(() => window.app?.setShown, null, { timeout: 20000 });
    const baseline = await page.evaluate(() => window.__count());
    await page.evaluate(() => window.app.setShown(true));
    await page.waitForFunction(() => window.app.state.ready > 0 || window.app.state.errors.length > 0, null, { timeout: 20000 });
    await sleep(300);
    const state = await page.evaluate(() => ({ ...window.app.state, handle: null, canvases: document.querySelectorAll('#pool canvas').length }));
    check('React: StrictMode ran the effects twice (development build)', state.effects === 2, `${state.effects} runs`);
    check('React: one instance and one canvas after StrictMode\'s double mount', state.ready === 1 && state.canvases === 1 && state.errors.length === 0, `${state.ready} ready, ${state.canvases} canvases, errors: ${state.errors.join('; ')}`);
    const wasmFetched = [...server.requests.keys()].filter((p) => p.endsWith('.wasm'));
    check('React: the .wasm subpath and the wasm prop load it', wasmFetched.length === 1, wasmFetched.join(', '));
    await clickMakesRipples(page, 'React', '#pool', 200, 150);
    // The ref's drop() at another place.
    const before = await shot(page, '#pool');
    await page.evaluate(() => window.app.state.handle.drop(380, 240, 14, 200));
    await sleep(400);
    const after = await shot(page, '#pool');
    const fraction = changedNear(before, after, 380, 240, 30);
    check('React: the ref\'s drop() makes ripples', fraction > 0.2, `${(fraction * 100).toFixed(0)}% of the pixels within 30 px changed`);
    // A changed prop goes to set() on the same instance.
    await page.evaluate(() => {
      window.app.first = window.app.state.handle.ripples;
      window.app.setLook('classic');
    });
    // Once React has rendered the new prop (200 ms here; longer on a busy machine).
    await sleep(200);
    await page
      .waitForFunction(() => window.app.state.handle.ripples.options.look === 'classic', null, { timeout: PATIENCE_MS })
      .catch(() => {});
    const changed = await page.evaluate(() => {
      const now = window.app.state.handle.ripples;
      return { look: now.options.look, same: now === window.app.first, ready: window.app.state.ready };
    });
    check('React: a changed prop is set() on the same instance', changed.look === 'classic' && changed.same && changed.ready === 1, JSON.stringify(changed));
    await leavesNothing(page, 'React (unmount)', baseline, () => page.evaluate(() => window.app.setShown(false)));
    const errors = await page.evaluate(() => window.app.state.errors);
    check('React: no error reported', errors.length === 0, errors.join('; '));
    await page.context().close();
  } finally {
    server.server.close();
  }
}

async function main() {
  const tarball = path.resolve(process.argv[2] ?? '');
  if (!process.argv[2] || !fs.existsSync(tarball) || !tarball.endsWith('.tgz')) {
    throw new Error(`usage: node web/e2e/package.mjs TARBALL.tgz (from bash web/pack.sh), got '${process.argv[2] ?? ''}'`);
  }
  fs.rmSync(apps, { recursive: true, force: true });
  fs.mkdirSync(apps, { recursive: true });
  await timed('tarball', () => checkTarball(tarball));
  const findings = await timed('Node import', () => checkNode(tarball));
  await timed('the figures of docs/web.md', () => checkDocFigures(tarball, findings));
  await timed('tsc', () => checkTypes(tarball));
  const browser = await launch();
  const pageErrors = [];
  try {
    await timed('Vite app', () => checkVite(browser, tarball, pageErrors));
    await timed('webpack app', () => checkWebpack(browser, tarball, pageErrors));
    await timed('static page and errors', () => checkStatic(browser, tarball, pageErrors));
    await timed('file:// page', () => checkFileUrl(browser, pageErrors));
    await timed('Vite + React app', () => checkReact(browser, tarball, pageErrors));
  } finally {
    await browser.close();
  }
  check('no uncaught exception in any page', pageErrors.length === 0, pageErrors.join('; '));
  console.log(`time: ${timings.join(', ')}`);
  if (failures.length) {
    console.log(`\n${failures.length} check(s) failed:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    fs.rmSync(apps, { recursive: true, force: true });
    console.log('all package checks passed');
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
