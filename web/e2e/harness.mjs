// What the browser scripts of web/e2e share: a static server for web/dist, headless Chromium
// with the flags every run uses, a PNG decoder for Chromium's screenshots, where results go,
// and the `check` that prints and counts a test's checks.
//
// The tests (e2e.mjs and its parts in cpu/, video.mjs and its parts in video/, gl.mjs, ...) and
// bench.mjs (the frame-cost benchmark) import it; it has no dependency beyond playwright-core
// and Node.

import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
/** What web/build.sh builds, served as the site's root. */
export const dist = path.resolve(here, '../dist');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Chromium's flags for a quiet, reproducible headless run (playwright adds --headless and a fresh profile). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where screenshots and figures go: RIPPLES_E2E_OUT, by default target/e2e. */
export const outRoot = path.resolve(process.env.RIPPLES_E2E_OUT ?? path.join(here, '../../target/e2e'));

/** Where the video test clips are made (RIPPLES_E2E_OUT/video/clips, by default target/e2e/...). */
export const clipDir = path.join(outRoot, 'video', 'clips');

/** The checks that failed so far in this process, as `name: detail` lines (see check). */
export const failures = [];

/** Prints a check as `ok  name: detail` or `FAIL name: detail`, and remembers a failure. */
export function check(name, ok, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
  if (!ok) failures.push(`${name}${detail ? `: ${detail}` : ''}`);
}

/**
 * How long a test waits for something that takes a number of frames or steps, on a machine
 * however busy: the tests wait for the count they need, not for a time, and only a fault
 * (the water or the video never moving on) reaches this.
 */
export const PATIENCE_MS = 20000;

/** Whether ffmpeg runs (it makes the video clips). */
export function hasFfmpeg() {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const VP9 = ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '3M', '-pix_fmt', 'yuv420p'];
const pattern = (size) => ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30`, '-t', '3'];
/** The clips of the video test and bench: ffmpeg's arguments for each (3 s at 30 fps; coffee 5 s). */
const CLIPS = {
  'pattern-720p.webm': [...pattern('1280x720'), ...VP9],
  'pattern-720p.mp4': [...pattern('1280x720'), '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
  'pattern-360p.webm': [...pattern('640x360'), ...VP9],
  // The coffee photograph, slowly zoomed into: a hero's background video.
  'coffee.webm': [
    '-loop', '1', '-i', path.resolve(here, '../../crates/ripples-cli/tests/data/coffee.jpg'),
    '-vf', "scale=1280:-2,crop=1280:720:0:(ih-720)*0.45,zoompan=z='1+0.0012*on':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=1:s=1280x720:fps=30,setsar=1",
    '-frames:v', '150', ...VP9,
  ],
};

/** Makes clip `name` (one of CLIPS) in clipDir with ffmpeg unless it is there; returns its path. */
export function makeClip(name) {
  const out = path.join(clipDir, name);
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(clipDir, { recursive: true });
  const part = `${out}.part${path.extname(out)}`;
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...CLIPS[name], part]);
  fs.renameSync(part, out);
  return out;
}

/**
 * What replaces --disable-gpu where a run wants the browser's GPU pipeline: SwiftShader (the GPU
 * emulated on the CPU) through ANGLE for WebGL, compositing and raster alike, so a WebGL canvas
 * stays in the GPU process as on a device with a GPU. With --disable-gpu the compositor is
 * software, and the renderer process reads every WebGL frame back to composite it, a cost no
 * device with a GPU pays. Chromium gives pages SwiftShader only when asked (the unsafe flag).
 */
export const GPU_PIPELINE_FLAGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];

/**
 * Headless Chromium with CHROMIUM_FLAGS and `extra` flags, in a fresh temporary profile;
 * `gpuPipeline` swaps --disable-gpu for GPU_PIPELINE_FLAGS.
 */
export function launch(extra = [], { gpuPipeline = false } = {}) {
  const flags = gpuPipeline ? [...CHROMIUM_FLAGS.filter((flag) => flag !== '--disable-gpu'), ...GPU_PIPELINE_FLAGS] : CHROMIUM_FLAGS;
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: [...flags, ...extra] });
}

/**
 * What a histogram of per-channel differences (`histogram[d]`: how many channels differ by `d`
 * levels, 256 entries) says of two frames: the 99.9th percentile and the largest difference.
 * The GPU-against-CPU parity checks of gl.mjs, photo.mjs and video.mjs read their bounds here.
 */
export function differenceSummary(histogram) {
  let total = 0;
  for (const count of histogram) total += count;
  let seen = 0;
  let p999 = 0;
  for (let d = 0; d < 256; d++) {
    seen += histogram[d];
    if (seen >= total * 0.999) {
      p999 = d;
      break;
    }
  }
  let max = 255;
  while (max > 0 && !histogram[max]) max--;
  return { p999, max };
}

/** Fails early, with what to do, when web/dist was not built. */
export function requireDist() {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist} has no index.html: run web/build.sh first`);
  }
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

/**
 * Serves `root` on a free port of 127.0.0.1, counting requests per path. `mounts` maps URL
 * prefixes ('/clips/') to other folders (the video test's clips); `cors` adds
 * Access-Control-Allow-Origin: * to every answer (without it, another origin's page cannot read
 * what it serves). Byte ranges are answered (206), as media elements ask for them to seek and loop.
 */
export async function serve(root = dist, { mounts = {}, cors = false } = {}) {
  const requests = new Map();
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    requests.set(pathname, (requests.get(pathname) ?? 0) + 1);
    const headers = cors ? { 'access-control-allow-origin': '*' } : {};
    if (pathname === '/e2e-blank.html') {
      response
        .writeHead(200, { ...headers, 'content-type': TYPES['.html'] })
        .end('<!doctype html><title>blank</title><body style="margin:0"></body>');
      return;
    }
    const mount = Object.keys(mounts).find((prefix) => pathname.startsWith(prefix));
    const base = mount ? mounts[mount] : root;
    let file = path.join(base, mount ? pathname.slice(mount.length) : pathname);
    if (!file.startsWith(base)) {
      response.writeHead(403).end();
      return;
    }
    if (pathname.endsWith('/')) file = path.join(file, 'index.html');
    fs.readFile(file, (error, data) => {
      if (error) {
        response.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
      const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
      if (range && (range[1] || range[2])) {
        const start = range[1] ? Number(range[1]) : Math.max(0, data.length - Number(range[2]));
        const end = range[1] && range[2] ? Math.min(Number(range[2]), data.length - 1) : data.length - 1;
        if (start >= data.length || start > end) {
          response.writeHead(416, { ...headers, 'content-range': `bytes */${data.length}` }).end();
          return;
        }
        response.writeHead(206, {
          ...headers,
          'content-type': type,
          'accept-ranges': 'bytes',
          'content-range': `bytes ${start}-${end}/${data.length}`,
          'content-length': end - start + 1,
        });
        response.end(data.subarray(start, end + 1));
        return;
      }
      response.writeHead(200, { ...headers, 'content-type': type, 'accept-ranges': 'bytes', 'content-length': data.length });
      response.end(data);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}`, requests };
}

/** Decodes the PNGs Chromium writes: 8-bit RGB or RGBA, not interlaced. */
export function decodePng(buffer) {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const body = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      channels = { 2: 3, 6: 4 }[colour];
      if (depth !== 8 || !channels || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour ${colour})`);
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? pixels[y * stride + i - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const corner = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels] : 0;
      let value = line[i];
      if (filter === 1) value += left;
      else if (filter === 2) value += up;
      else if (filter === 3) value += (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - corner;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - corner)];
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
      }
      pixels[y * stride + i] = value & 255;
    }
  }
  return { width, height, channels, pixels };
}


/**
 * Starts V8's sampling heap profiler on `page` (every allocation counted, also those the
 * garbage collector took back); the returned function stops it and gives the bytes allocated,
 * while it ran, by functions of `urlPattern` called (at any depth) from a function named
 * `caller`, as `{ bytes, byFunction }`. Sampling every 32 bytes makes small figures
 * approximate but never hides a steady per-frame allocation.
 */
export async function profileAllocations(page, urlPattern, caller) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.startSampling', {
    samplingInterval: 32,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = await cdp.send('HeapProfiler.stopSampling');
    await cdp.detach();
    const byFunction = {};
    let bytes = 0;
    const walk = (node, inside) => {
      const name = node.callFrame.functionName || '(anonymous)';
      const within = inside || name === caller;
      if (within && urlPattern.test(node.callFrame.url) && node.selfSize > 0) {
        bytes += node.selfSize;
        const key = `${name} (${node.callFrame.url.split('/').pop()})`;
        byFunction[key] = (byFunction[key] ?? 0) + node.selfSize;
      }
      for (const child of node.children) walk(child, within);
    };
    walk(profile.head, false);
    return { bytes, byFunction };
  };
}
