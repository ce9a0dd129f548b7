// Finds, fetches and instantiates Ripples' WebAssembly module (ripples_web_bg.wasm), once per
// page, and says precisely what went wrong when it cannot.
//
// The module is found through `new URL('./ripples_web_bg.wasm', import.meta.url)`: the one
// spelling every bundler (Vite, webpack 5, Rollup, Parcel, esbuild) turns into an emitted asset,
// and which a plain <script type="module"> resolves next to this file wherever the package is
// served from. Setups where neither holds pass the module themselves (the `wasm` option): a URL,
// a fetch Response (or a promise of one), the bytes, or a compiled WebAssembly.Module.
//
// It is a file of its own so that ripples.js stays about the water. Nothing here runs at import
// time: no window, document, fetch or WebAssembly is touched until the first load, so importing
// the package during server-side rendering is safe.
//
// Errors are RipplesLoadErrors whose `reason` says which step failed, in the order they are
// checked: 'no-simd' (the browser lacks WebAssembly or its SIMD; the only case that blames the
// browser), 'file-url' (a page opened from file://, which browsers do not let fetch), 'network'
// (no answer), 'http' (an answer that is not 2xx: its status is in the message and `status`),
// 'not-wasm' (an answer that is not WebAssembly, typically an index.html fallback) and
// 'instantiate' (WebAssembly that does not fit this glue, e.g. from another version).

import init from './ripples_web.js';

/** The browsers whose WebAssembly has SIMD (simd128), which the module is compiled with. */
const BROWSERS = 'Chrome or Edge 91, Firefox 89, Safari 16.4 or later';

/**
 * The smallest module that uses a SIMD instruction (i8x16.splat, i8x16.popcnt of a constant),
 * to ask WebAssembly.validate whether this engine has SIMD (as wasm-feature-detect does).
 */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** Why the WebAssembly module could not be loaded (see the file's comment for `reason`). */
export class RipplesLoadError extends Error {
  /** @type {'RipplesLoadError'} */
  name = 'RipplesLoadError';

  /**
   * @param {string} message
   * @param {{ reason?: import('./package/ripples.js').RipplesLoadErrorReason, url?: string | null, status?: number | null, cause?: unknown }} [details]
   */
  constructor(message, { reason, url = null, status = null, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    /**
     * 'no-simd', 'file-url', 'network', 'http', 'not-wasm' or 'instantiate'.
     * @type {import('./package/ripples.js').RipplesLoadErrorReason}
     */
    this.reason = reason;
    /** The URL fetched (absolute), or null when the module was given as bytes or a Module. */
    this.url = url;
    /** The HTTP status of a failed response ('http'), else null. */
    this.status = status;
  }
}

let ready = null;
let exports = null;

/** The wasm module's exports once loaded, else null. */
export function loadedExports() {
  return exports;
}

/**
 * Where Ripples.init loads the module from: `options` is `{ wasm }` or the source itself.
 * @param {any} options
 * @param {string} where
 */
export function initSource(options, where) {
  if (options !== null && typeof options === 'object' && Object.getPrototypeOf(options) === Object.prototype) {
    const unknown = Object.keys(options).filter((name) => name !== 'wasm');
    if (unknown.length) {
      throw new TypeError(`${where}: unknown option '${unknown[0]}' (init takes { wasm })`);
    }
    return options.wasm;
  }
  return options;
}

/**
 * Loads the module from `source` (undefined: next to this file) unless it is loaded or loading
 * already, which the first call's source wins. A failed load is forgotten, so a later call
 * tries again. `where` starts the error messages ('Ripples.attach', 'Ripples.init').
 */
export function loadWasm(source, where) {
  if (!ready) {
    ready = instantiate(source, where).then(
      (loaded) => {
        exports = loaded;
        return loaded;
      },
      (error) => {
        ready = null;
        throw error;
      },
    );
  }
  return ready;
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

function inBrowser() {
  return typeof window === 'object' && typeof document === 'object';
}

function isResponse(value) {
  return typeof Response === 'function' && value instanceof Response;
}

function isBytes(value) {
  return value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

// Vite's dev server pre-bundles dependencies into node_modules/.vite/deps/, away from the .wasm
// that import.meta.url points next to; it then answers that URL with its index.html.
const VITE_DEPS = /\/node_modules\/\.vite\/deps[^/]*\//;

async function instantiate(source, where) {
  try {
    return await instantiateFrom(source, where);
  } catch (error) {
    if (!(error instanceof RipplesLoadError) || !VITE_DEPS.test(error.url ?? '')) throw error;
    throw new RipplesLoadError(
      `${error.message}. Vite's dev server pre-bundled @ripples-rs/ripples away from its .wasm: ` +
        `add optimizeDeps: { exclude: ['@ripples-rs/ripples'] } to vite.config.js`,
      { reason: error.reason, url: error.url, status: error.status, cause: error.cause },
    );
  }
}

async function instantiateFrom(source, where) {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.validate !== 'function') {
    throw new RipplesLoadError(
      `${where}: this browser has no WebAssembly; Ripples needs WebAssembly with SIMD (${BROWSERS})`,
      { reason: 'no-simd' },
    );
  }
  if (!WebAssembly.validate(SIMD_PROBE)) {
    throw new RipplesLoadError(
      `${where}: this browser's WebAssembly has no SIMD (simd128), which Ripples is built with; ` +
        `it needs ${BROWSERS}`,
      { reason: 'no-simd' },
    );
  }
  let input = source ?? new URL('./ripples_web_bg.wasm', import.meta.url);
  let url = null;
  if (typeof input === 'string' || input instanceof URL) {
    url = absolute(input, where);
    input = await fetchWasm(url, where);
  } else if (typeof Request === 'function' && input instanceof Request) {
    url = input.url;
    input = await fetchWasm(input, where, url);
  } else if (input && typeof input.then === 'function') {
    try {
      input = await input;
    } catch (error) {
      throw new RipplesLoadError(`${where}: the wasm option's promise rejected: ${messageOf(error)}`, {
        reason: 'network',
        cause: error,
      });
    }
  }
  let probe = null; // a copy of the body, read only to explain a failure
  if (isResponse(input)) {
    url = input.url || url;
    checkResponse(input, url, where);
    if (/^application\/wasm\b/.test(input.headers.get('content-type') ?? '')) {
      probe = input.clone();
    } else {
      // Not served as wasm: instantiateStreaming would refuse it (and the glue would log a
      // warning before falling back), so read the bytes; explain() names the content-type.
      probe = input;
      input = await input.clone().arrayBuffer();
    }
  } else if (isBytes(input)) {
    probe = input;
  } else if (!(input instanceof WebAssembly.Module)) {
    const what = input === null ? 'null' : (input?.constructor?.name ?? typeof input);
    throw new TypeError(
      `${where}: wasm must be a URL (string or URL), a Request, a Response or a promise of one, ` +
        `an ArrayBuffer or typed array of the module's bytes, or a WebAssembly.Module; got ${what}`,
    );
  }
  try {
    return await init({ module_or_path: input });
  } catch (error) {
    throw await explain(error, probe, url, where);
  }
}

/** `input` as an absolute URL string: relative to the page, as fetch() would take it. */
function absolute(input, where) {
  const base = inBrowser() ? document.baseURI : import.meta.url;
  try {
    return new URL(input, base).href;
  } catch {
    throw new TypeError(`${where}: wasm URL '${input}' is not a valid URL`);
  }
}

async function fetchWasm(request, where, url = request) {
  try {
    return await fetch(request);
  } catch (error) {
    const protocol = new URL(url).protocol;
    if (protocol === 'file:' && inBrowser()) {
      throw new RipplesLoadError(
        `${where}: could not load the WebAssembly module ${url}: this page was opened from a ` +
          `file:// URL, and browsers do not let such pages fetch files. Serve the folder over ` +
          `HTTP instead, e.g. \`python3 -m http.server 8000\` or \`npx serve\` in it, and open ` +
          `http://localhost:8000/`,
        { reason: 'file-url', url, cause: error },
      );
    }
    if (protocol === 'file:') {
      throw new RipplesLoadError(
        `${where}: cannot fetch the WebAssembly module ${url} here (no browser: ` +
          `${messageOf(error)}); outside a browser, pass its bytes: Ripples.init({ wasm: bytes })`,
        { reason: 'file-url', url, cause: error },
      );
    }
    throw new RipplesLoadError(
      `${where}: could not fetch the WebAssembly module ${url}: ${messageOf(error)} (no ` +
        `answer from the server, or the browser blocked the request: a cross-origin URL needs ` +
        `CORS headers, and a Content-Security-Policy may forbid it; the console says which)`,
      { reason: 'network', url, cause: error },
    );
  }
}

function checkResponse(response, url, where) {
  if (response.ok) return;
  if (response.type === 'opaque') {
    throw new RipplesLoadError(
      `${where}: the WebAssembly module ${url || '(a Response)'} came from a no-cors request, ` +
        `whose body the page cannot read; fetch it with CORS (the default mode)`,
      { reason: 'network', url },
    );
  }
  const hints = {
    403:
      ' (forbidden: the server refuses to serve it. A dev server may serve only some folders; ' +
      "Vite's server.fs.allow, for instance, must include the folder of the package)",
    404:
      ' (not found: serve ripples_web_bg.wasm from the folder of ripples.js, or pass its URL ' +
      'with the wasm option)',
  };
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  throw new RipplesLoadError(
    `${where}: could not load the WebAssembly module ${url || '(a Response)'}: the server ` +
      `answered HTTP ${status}${hints[response.status] ?? ''}`,
    { reason: 'http', url, status: response.status },
  );
}

/** The error for a module that fetched but did not instantiate: not wasm at all, or the wrong one. */
async function explain(error, probe, url, where) {
  const what = url ?? 'given as bytes';
  let head = null;
  let type = null;
  try {
    if (isResponse(probe)) {
      type = probe.headers.get('content-type');
      head = new Uint8Array(await probe.arrayBuffer(), 0, 4);
    } else if (probe) {
      const bytes = probe instanceof ArrayBuffer ? probe : probe.buffer;
      const offset = probe instanceof ArrayBuffer ? 0 : probe.byteOffset;
      head = new Uint8Array(bytes, offset, Math.min(4, probe.byteLength));
    }
  } catch {
    head = null;
  }
  const magic = [0, 0x61, 0x73, 0x6d];
  if (head && !magic.every((byte, i) => head[i] === byte)) {
    const start = String.fromCharCode(...head).replace(/[^\x20-\x7e]/g, '.');
    return new RipplesLoadError(
      `${where}: the WebAssembly module ${what} is not WebAssembly (it starts with '${start}'` +
        `${type ? `, content-type ${type}` : ''}): the server sent another file in its place, ` +
        `often an index.html fallback for unknown paths; serve ripples_web_bg.wasm at that URL ` +
        `or pass its URL with the wasm option`,
      { reason: 'not-wasm', url, cause: error },
    );
  }
  return new RipplesLoadError(
    `${where}: the WebAssembly module ${what} could not be instantiated: ${messageOf(error)} ` +
      `(is it the ripples_web_bg.wasm of this version of Ripples?)`,
    { reason: 'instantiate', url, cause: error },
  );
}
