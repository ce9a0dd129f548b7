// The images Ripples loads for a pool: the floor picture (imageUrl, a CSS background) and the
// sky picture (skyUrl), with errors that say why one did not load (a wrong URL, a server
// without CORS headers, a tainted canvas), and the 2D scratch canvases that compose and read
// them.
//
// Why it is its own module: loading and reading pictures is the same for every option that
// names one, and its error messages (the CORS explanations above all) are worth keeping in one
// place. CSS colours are parsed here too, by a scratch canvas's own parser.

export function absoluteUrl(url, where, what) {
  try {
    return new URL(url, document.baseURI);
  } catch {
    throw new Error(`${where}: ${what} URL '${url}' is not a valid URL`);
  }
}

/** A CORS-free URL (data:, blob:) never needs, nor may get, a crossOrigin attribute. */
export function corsMode(url, crossOrigin) {
  if (crossOrigin === null || url.protocol === 'data:' || url.protocol === 'blob:') return null;
  return crossOrigin;
}

// A sky picture is read at most this size: more than the core keeps of it (it averages the
// picture down to a 256x64 panorama), and a large photograph stays out of the wasm memory. Its
// aspect does not matter (the picture is stretched over the whole sky), so each side is
// capped on its own.
const SKY_MAX_WIDTH = 1024;
const SKY_MAX_HEIGHT = 256;

/** Loads an image; rejects with a message that says why it likely failed. */
export function loadImage(url, crossOrigin, where, what) {
  return new Promise((resolve, reject) => {
    const absolute = absoluteUrl(url, where, what);
    const cors = corsMode(absolute, crossOrigin);
    const image = new Image();
    if (cors !== null) image.crossOrigin = cors;
    image.onload = () => {
      if (image.naturalWidth > 0 && image.naturalHeight > 0) {
        resolve({ image, url, absolute, cors });
      } else {
        reject(new Error(`${where}: ${what} '${url}' has no size (an SVG needs width and height)`));
      }
    };
    image.onerror = () => {
      const crossSite = absolute.origin !== location.origin && absolute.protocol.startsWith('http');
      if (crossSite && cors !== null) {
        reject(
          new Error(
            `${where}: ${what} '${url}' could not be loaded. It is on another origin ` +
              `(${absolute.origin}) and was requested with CORS (crossOrigin: '${cors}'), so its ` +
              `server must send an Access-Control-Allow-Origin header; or the URL is wrong or ` +
              `not an image.`,
          ),
        );
      } else {
        reject(
          new Error(
            `${where}: ${what} '${url}' could not be loaded (not found, not an image, or a ` +
              `network error)`,
          ),
        );
      }
    };
    image.src = absolute.href;
  });
}

/**
 * A 2D context on a canvas that is never in the document, for composing images and reading them
 * back (`where` names the caller in the error of a browser that gives none).
 * @param {number} width
 * @param {number} height
 * @returns {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D}
 */
export function scratchContext(width, height, where = 'Ripples') {
  const settings = { willReadFrequently: true };
  // OffscreenCanvas where it has a 2D context (some browsers have one without), else a
  // canvas element that is never attached.
  const context = /** @type {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null} */ (
    (typeof OffscreenCanvas === 'function' && new OffscreenCanvas(width, height).getContext('2d', settings)) ||
    Object.assign(document.createElement('canvas'), { width, height }).getContext('2d', settings)
  );
  if (!context) throw new Error(`${where}: could not get a 2D canvas context (${width}x${height})`);
  return context;
}

/** Reads back a composed image, turning the browser's SecurityError into an explanation. */
export function readPixels(context, width, height, loaded, where, what) {
  try {
    return context.getImageData(0, 0, width, height).data;
  } catch (error) {
    if (error?.name === 'SecurityError') {
      throw new Error(
        `${where}: ${what} '${loaded.url}' is on another origin (${loaded.absolute.origin}) ` +
          `and was loaded without CORS (crossOrigin: null), so the browser does not let the ` +
          `page read its pixels (the canvas is tainted). Serve it with an ` +
          `Access-Control-Allow-Origin header and keep crossOrigin at '' (anonymous), or serve ` +
          `it from this page's origin.`,
      );
    }
    throw error;
  }
}

/**
 * The pixels of a loaded sky picture (see skyUrl), read once, for every pool to come:
 * `{ url, absolute, cors, pixels, width, height }` (RGBA pixels; the image itself is not kept).
 * Throws the SecurityError explanation for a tainted picture.
 */
export function readSky(loaded, where) {
  const { image, ...source } = loaded;
  const width = Math.min(image.naturalWidth, SKY_MAX_WIDTH);
  const height = Math.min(image.naturalHeight, SKY_MAX_HEIGHT);
  const context = scratchContext(width, height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, 0, 0, width, height);
  return { ...source, pixels: readPixels(context, width, height, loaded, where, 'skyUrl'), width, height };
}

/** A context whose fillStyle parses CSS colours (made on first use). */
let colourParser = null;

/**
 * Any CSS colour the browser knows ('teal', 'hsl(180 40% 70%)', '#8fd3e0') as '#rrggbb', by
 * the browser's own parser (a canvas's fillStyle, which reads back opaque colours in that
 * form); anything else as it was, for the Rust check to refuse with its message.
 */
export function cssColour(value) {
  if (typeof value !== 'string') return value;
  colourParser ??= scratchContext(1, 1);
  const parse = (fallback) => {
    colourParser.fillStyle = fallback;
    colourParser.fillStyle = value;
    return colourParser.fillStyle;
  };
  const parsed = parse('#000000');
  // An unparsable value leaves the fallback in place: two fallbacks tell it apart.
  if (parsed !== parse('#ffffff')) return value;
  return /^#[0-9a-f]{6}$/.test(parsed) ? parsed : value;
}
