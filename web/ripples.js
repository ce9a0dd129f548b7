// Ripples for the web: water ripples over any element, computed in WebAssembly on the CPU.
//
//   import { Ripples } from './ripples.js';
//   const r = await Ripples.attach(element, { dropRadius: 12, rain: 2 });
//   r.drop(x, y, radius, strength); r.pause(); r.play(); r.hide(); r.show(); r.set({...});
//   r.updateSize(); r.destroy();
//
// This module is the page side of the `ripples-web` crate: it loads the wasm module once (one
// fetch, shared by every instance), finds the element's image (the `imageUrl` option, or the
// `videoUrl` option's video, else a background <video> behind its content, else its CSS
// background image, else the built-in pool tiles; video.js follows a video frame by frame), overlays a canvas that follows the
// element's size, CSS background and devicePixelRatio (or draws into the element when it is a
// <canvas>), loads the natural look's sky picture (the `skyUrl` option) once and hands it to
// every pool it makes, turns pointer and touch input into stones and fingertips moving through
// the water (which leave wakes), and runs one requestAnimationFrame loop per instance, which
// rests while nobody can see the element (scrolled away, a hidden tab, hide()) and ends by
// itself when the element leaves the document for good. The CSS background layers over the
// image (a dark gradient over a hero photo) stay the browser's to draw, over the water; a
// resize keeps the pool, its water resampled, in the memory it had. The
// water itself (solvers, rendering, the time-based step clock, option checks, the CSS
// background arithmetic) is Rust; each frame is one call into it and one putImageData of a
// view into the wasm memory, with no copy between.
//
// Out of the box it shows the best-looking water there is on a CPU: the natural look over the
// dispersive solver. That costs more than the classic demo-scene effect, so `quality: 'auto'`
// measures what each frame costs and picks the canvas pixel ratio the device can hold (from 1,
// raising it on a fast device, lowering it on a slow one; see QUALITY_LEVELS). A new pixel
// ratio is a new pool that takes the old one's water, so the ripples go on.
//
// Errors are ordinary `Error`s whose message names the problem and the value: `attach` and
// `set` reject, the other methods throw, and what goes wrong later (an image that fails to
// reload after a resize) is an `error` event on the instance (an ErrorEvent; unless a listener
// calls preventDefault() it is also logged with console.error). Nothing here lets an
// exception escape into the page's event loop.

import { WasmPool, backend, backgroundLayout, checkOption, limits } from './ripples_web.js';
// wasm-loader.js finds the wasm module (next to this file, or the `wasm` option) and explains
// why it could not be loaded.
import { RipplesLoadError, loadWasm, loadedExports } from './wasm-loader.js';
// video.js follows a video's frames into the pool's image (videoUrl, or a hero's <video>).
import { VideoSource } from './video.js';
// css.js reads the element's CSS background layers and a hero's background <video>.
import {
  backgroundVideo,
  cssBackground,
  describeElement,
  layerDeclarations,
  layerStyle,
  objectFitSize,
  snapped,
  splitLayers,
} from './css.js';
// images.js loads the floor and sky pictures and explains why one did not load.
import { absoluteUrl, corsMode, cssColour, loadImage, readPixels, readSky, scratchContext } from './images.js';
// gl-renderer.js draws the water with WebGL2 from the surface the wasm module writes.
import { GlRenderer } from './gl-renderer.js';

export { RipplesLoadError };

// Importing this module touches no window, document or WebAssembly (server-side rendering
// imports it); EventTarget is in every browser and Node 15+, and a stand-in elsewhere.
const EventTargetBase = typeof EventTarget === 'function' ? EventTarget : class {};

/** The options of `Ripples.attach` and their defaults. */
const DEFAULTS = Object.freeze({
  /** Image under the water; null: the element's CSS background image, else the built-in tiles. */
  imageUrl: null,
  /**
   * Video under the water, frame by frame, placed as the element's CSS background image would
   * be (background-size, -position; 'auto' size: cover), muted, playsInline and looping so that
   * it plays by itself; null: none (a <video> behind the element's content, absolutely
   * positioned over it as hero sections have, is then found and used, with its object-fit).
   * Loaded like imageUrl (crossOrigin applies); give imageUrl or videoUrl, not both.
   */
  videoUrl: null,
  /** Element pixels per simulation cell (1 = full resolution; 2 = a grid half as wide). */
  resolution: 1,
  /** Radius of the pointer's stones, in CSS pixels (a press makes one 1.5 times as wide). */
  dropRadius: 14,
  /**
   * Refraction of the natural (through its wave height), lit and spring looks relative to their
   * default: 0 (the image does not move) or 0.2 to 16. Values below 0.2 are jquery.ripples'
   * scale (its default 0.03) and are refused with their equivalent here (theirs / 0.03).
   */
  perturbance: 1,
  /**
   * How much the water shows, 0..8: one knob for the waves' refraction, caustics, reflections
   * and glints together (the natural look's wave height, the lit and spring looks' refraction);
   * 0 leaves the picture unmoved, 2 doubles the waves. The classic look ignores it.
   */
  presence: 1,
  /** Whether pointer and touch input make ripples. */
  interactive: true,
  /** Mean raindrops per second over the whole element. */
  rain: 0,
  /**
   * 'dispersive' (deep water: long waves outrun short ones, so a drop spreads into a train of
   * rings and a drag leaves a Kelvin wake), 'wave' (the wave equation: one smooth round ring),
   * 'classic' (the demo scene's integer solver) or 'spring'.
   */
  solver: 'dispersive',
  /**
   * The 'dispersive' solver's gravity in CSS pixels per step², above 0 and at most 0.5: higher
   * is faster water (a ripple lambda CSS pixels long turns at sqrt(gravity * 2 pi / lambda)
   * radians per step). Settable live with set().
   */
  gravity: 0.1,
  /** 'reflect' (waves bounce off the edges) or 'absorb' (open water). */
  border: 'reflect',
  /** CORS mode for images: '' or 'anonymous', 'use-credentials', or null for no CORS request. */
  crossOrigin: '',
  /**
   * 'natural' (the picture is the floor of a pool seen through real water: refraction through
   * depth, caustics, a sky, the water's colour), 'classic' (the demo scene's refraction, the
   * cheapest), 'lit' (refraction with a light) or 'spring'.
   */
  look: 'natural',
  /** URL of an image whose dark opaque pixels are walls (stretched over the element), or null. */
  obstacles: null,
  /** Solver steps per second of real time: the speed of the water, whatever the frame rate. */
  stepsPerSecond: 60,
  /**
   * Canvas pixels per CSS pixel, the most quality 'auto' may use and what 'high' uses; null:
   * window.devicePixelRatio, followed as it changes.
   */
  pixelRatio: null,
  /**
   * 'auto': measure the frame cost and lower the canvas pixel ratio (from pixelRatio down to
   * 1, then below) to hold 60 frames per second, raising it again when there is room; it
   * starts at 1 at most. 'high': always pixelRatio, whatever it costs.
   */
  quality: 'auto',
  /** Natural look: CSS pixels of water over the picture (deeper bends the view more), 0..1024. */
  depth: 48,
  /** Natural look: strength of the caustics (sunlight focused by the waves), 0..4. */
  caustics: 0.15,
  /** Natural look: the sun's height above the horizon in degrees, 1..90 (90: overhead). */
  sunElevation: 60,
  /** Natural look: the sun's direction in degrees, counter-clockwise from the right (90: from the top). */
  sunAzimuth: 120,
  /**
   * Natural look: the colour white light takes after `clarity` CSS pixels of water: any opaque
   * CSS colour or [r, g, b] (kept as '#rrggbb'). `waterColor` is the same option. White (the
   * default) tints nothing, so calm water is the page's picture; a colour tints calm water too
   * ('#bee6e1' is a pale green-blue).
   */
  waterColour: '#ffffff',
  /** Natural look: CSS pixels of water after which white light has the waterColour, 1..1e6. */
  clarity: 600,
  /** Natural look: CSS pixels of surface height per unit of the simulation's height, 0..16. */
  waveHeight: 0.12,
  /**
   * Natural look: chromatic dispersion in units of water's own, 0..50. 0 refracts every colour
   * alike; 1 is water's (too slight to see); 10 to 30 part refracted edges into coloured
   * fringes, as a prism does. Above 0 the floor is read three times per pixel.
   */
  dispersion: 0,
  /**
   * Natural look: URL of a picture of the sky the water reflects, or null for the built-in
   * sky (blue, paler at the horizon). The picture is the sky above the horizon all around,
   * like the top half of a panorama: its top edge is straight up (the zenith: what calm water
   * reflects), its bottom edge the horizon (what the steepest waves reflect), its width once
   * around the horizon, its middle column the sky beyond the top of the element (where
   * sunAzimuth 90 puts the sun), its left and right edges behind the viewer. An ordinary photo
   * of a sky works; crop a 2:1 panorama to its top half. Loaded like imageUrl (crossOrigin
   * applies), read once at up to 1024x256 pixels, alpha ignored. Only the natural look shows it.
   */
  skyUrl: null,
  /**
   * Who draws the water: 'auto' (WebGL2, at the element's full device pixels, wherever the
   * browser gives a WebGL2 context and the page has fewer than 8 instances using it; else the
   * CPU), 'webgl' (the same, said outright) or 'cpu' (the wasm module renders every pixel;
   * quality 'auto' then picks the pixel ratio). A lost WebGL context carries on with the CPU,
   * over the same water.
   */
  renderer: 'auto',
  /**
   * 'auto': with the user's `prefers-reduced-motion: reduce`, no rain falls (only what the
   * user starts moves the water); 'ignore': the rain falls anyway.
   */
  reducedMotion: 'auto',
  /**
   * A living photograph: URL of a mask whose light opaque pixels are the picture's water, or
   * null (all of it is water). Placed over the element exactly as the picture is (the mask is
   * stretched to the picture's box); the rest of the picture stays untouched in every frame,
   * waves reflect at the water's edge, and stones, rain and the pointer fall only on water.
   * Loaded like imageUrl (crossOrigin applies). Needs a picture (imageUrl or the element's CSS
   * background image). Both renderers draw it (WebGL2: gl/photo-shader.js in perspective).
   */
  waterMask: null,
  /**
   * A living photograph's horizon: the picture row (in the picture's own pixels, above the top
   * when negative) where the water plane meets the sky; the water is then seen in perspective
   * (rings become ellipses, rain falls evenly over the plane). null: the water is seen from
   * straight above. Needs a picture, like waterMask.
   */
  horizon: null,
  /**
   * With a horizon, the camera's focal length in the picture's own pixels; null: a 60-degree
   * horizontal field of view.
   */
  focal: null,
});

// With WebGL2 the canvas has the element's full device pixels (at most this many per CSS
// pixel) and the grid is coarser by a whole number of pixels per cell, so that it has at most
// about GPU_GRID_CELLS cells: the solver's cost stays that of a small grid on any screen, and
// the shaders interpolate the surface smoothly between cells.
const MAX_DEVICE_PIXEL_RATIO = 3;
const GPU_GRID_CELLS = 160000;

/** Pool pixels per grid cell for a WebGL2 pool of `width x height` pixels. */
function gpuResolution(width, height, resolution) {
  return Math.max(resolution, Math.ceil(Math.sqrt((width * height) / GPU_GRID_CELLS)));
}

// Every this many drawn frames a running pool asks whether its water is calm (a pass over the
// grid); calm, with nothing scheduled, the loop stops until something moves the water.
const CALM_CHECK_FRAMES = 15;

/** Whether the user asks for reduced motion (prefers-reduced-motion: reduce). */
function prefersReducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

// Elements a drag may start on without it being a drag over the water: what the page made to
// be clicked or typed into.
const INTERACTIVE_TAGS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'LABEL', 'SUMMARY', 'OPTION']);

/** Other spellings of option names. */
const ALIASES = Object.freeze({ waterColor: 'waterColour' });

// Stone strengths of the pointer and of drop() (0..32767), tuned on photographs under the
// natural look and the wave solver: a press is a drop a little wider than the pointer's
// stones, about as strong as a raindrop's strongest; the hover and drag trails stay faint, so
// that a moving pointer leaves a wake rather than a bright scribble.
const HOVER_STRENGTH = 16;
const DRAG_STRENGTH = 48;
const PRESS_STRENGTH = 128;
const PRESS_RADIUS = 1.5;
const DEFAULT_DROP_STRENGTH = 96;
// jquery.ripples' strengths run from 0 to 1 (its click is 0.14 at 1.5 times the drop radius,
// where ours is PRESS_STRENGTH 128): theirs times this is ours. A strength below 1 here would
// round to nothing, so drop() refuses one with this conversion rather than do nothing.
const JQUERY_STRENGTH_SCALE = 900;
// What WasmPool.frameStatus returns (a number, so that the frame loop allocates nothing).
const FRAME_DRAWN = 1;
const FRAME_FAILED = 2;
// Frames kept for stats(): a little over a second at 144 Hz.
const STATS_FRAMES = 256;
// How long an element may stay out of the document before its ripples destroy themselves.
const DETACHED_GRACE_MS = 1000;
const STATS_WINDOW_MS = 1000;

// quality: 'auto'. Each window of at least QUALITY_WINDOW_MS and QUALITY_WINDOW_FRAMES frames
// (a few, so that a slow device is seen soon; at 60 Hz a window holds 32) gives the mean cost
// of its drawn frames (wasm step+render and putImageData), after QUALITY_SKIP_FRAMES frames of
// a new pool. The instances of a page share its frames, so their costs add up: above
// LOWER_ABOVE_MS the costliest instance lowers its pixel ratio to the highest level at which
// the page's cost, its own part scaled by its pixel count, is predicted to be at most
// TARGET_MS; an instance takes the next level up when the page's predicted cost there is below
// RAISE_BELOW_MS. The gap between the two (and the levels' 1.8x to 2.3x steps in pixels)
// keeps a level that fits from being left again; a level that was too slow is not tried again
// for a while, twice as long each time (QUALITY_RETRY_MS, at most QUALITY_RETRY_MAX_MS), so a
// prediction that was wrong does not make it oscillate. 60 frames per second leave 16.7 ms a
// frame, of which the browser needs some to composite the page. The lowest level is 0.5:
// below it the picture under the water (the page's own photograph) turns too soft, so a
// device too slow even there keeps 0.5 at a lower frame rate.
const QUALITY_LEVELS = [2, 1.5, 1, 0.75, 0.5];
const QUALITY_WINDOW_FRAMES = 4;
const QUALITY_WINDOW_MS = 500;
const QUALITY_SKIP_FRAMES = 5;
const LOWER_ABOVE_MS = 10;
const TARGET_MS = 7;
const RAISE_BELOW_MS = 6;
const QUALITY_RETRY_MS = 15000;
const QUALITY_RETRY_MAX_MS = 300000;

/** The pixel ratios quality 'auto' chooses from, highest first: `max`, then the levels below it. */
function qualityLevels(max) {
  return [max, ...QUALITY_LEVELS.filter((level) => level < max)];
}

/** Where quality 'auto' starts: the highest level up to 1, measured before going higher. */
function startingRatio(max) {
  return Math.min(max, 1);
}

/**
 * Every running instance on the page: the mean cost of its last window, and whether it can
 * still lower its pixel ratio (quality 'auto' on a canvas of its own). They share the page's
 * frames, so they share the budget (see Ripples.#adapt).
 */
const frameCosts = new Map();

/** Extra milliseconds of busy work per megapixel of canvas in every drawn frame (testing). */
let slowdownMsPerMegapixel = 0;

/** Elements that do not render children, so an overlay canvas inside them would not show. */
const NO_CHILDREN = new Set(['IMG', 'VIDEO', 'AUDIO', 'INPUT', 'TEXTAREA', 'SELECT', 'IFRAME', 'OBJECT', 'EMBED', 'BR', 'HR', 'PICTURE']);
const CONSTRUCTING = Symbol('Ripples.attach');
/** Elements with ripples (or being attached), so that one element gets one instance. */
const attached = new WeakMap();
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/** The error with `where` in front of its message, unless it already names a Ripples method. */
function prefixed(where, error) {
  const message = messageOf(error);
  return message.startsWith('Ripples') ? error : new Error(`${where}: ${message}`);
}

function describeValue(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'object') return value.constructor?.name ?? 'an object';
  return String(value);
}

/** Checks `changes` against the option table; returns `base` with them applied. */
function checkOptions(base, changes, where) {
  if (changes === null || typeof changes !== 'object') {
    throw new TypeError(`${where}: options must be an object, got ${describeValue(changes)}`);
  }
  const options = { ...base };
  const given = new Map();
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    const key = ALIASES[name] ?? name;
    if (key === 'wasm') {
      throw new Error(`${where}: wasm is an option of attach and Ripples.init only (the module loads once per page)`);
    }
    if (given.has(key)) {
      throw new Error(`${where}: ${given.get(key)} and ${name} are the same option; give one of them`);
    }
    given.set(key, name);
    try {
      options[key] = checkOption(name, key === 'waterColour' ? cssColour(value) : value);
    } catch (error) {
      throw prefixed(where, error);
    }
  }
  if (options.focal !== null && options.horizon === null) {
    throw new Error(`${where}: focal (${options.focal}) needs a horizon (the water's perspective); give horizon too, or focal: null`);
  }
  if (options.imageUrl !== null && options.videoUrl !== null) {
    throw new Error(
      `${where}: imageUrl (${describeValue(options.imageUrl)}) and videoUrl (${describeValue(options.videoUrl)}) ` +
        `are both set; give one of them (set the other to null)`,
    );
  }
  return options;
}

/**
 * Water ripples over one element. Make one with `await Ripples.attach(element, options)`.
 *
 * An EventTarget: `error` events (ErrorEvent) report what fails after attach.
 */
export class Ripples extends EventTargetBase {
  #element;
  #options;
  #exports;
  #ownsCanvas;
  #canvas = null;
  #context = null;
  // The WebGL2 renderer (a GlRenderer) when the GPU draws, else null (the CPU: #context).
  #gl = null;
  // Why the CPU draws, when it does: 'option', 'no-webgl2', 'context-lost'.
  #cpuReason = 'option';
  // Calm and nothing scheduled: the loop sleeps until something moves the water (#rouse).
  #asleep = false;
  #framesSinceCalmCheck = 0;
  // A pointer went down on the water (not on text or a control): the drag selects nothing.
  #dragOnWater = false;
  #pool = null;
  // What the options' URLs loaded, each { image, url, absolute, cors } (the sky its pixels
  // instead of the image: see readSky), or null: the built-in tiles, no walls, the built-in sky.
  #loaded = { image: null, obstacles: null, sky: null, water: null };
  #cssImage = null; // { url, index }: the element's CSS background image as attach found it
  // The video under the water (a VideoSource), or null; the page's own background <video>
  // when attach found one (the canvas goes over it, and the element's background stays).
  #video = null;
  #pageVideo = null;
  // A view of the pool's image in the wasm memory, which video frames are written through.
  #imageView = null;
  #savedStyle = null;
  #cssSize = { width: 0, height: 0, ratio: 1 };
  #seed = Math.floor(Math.random() * 2 ** 32);
  #abort = new AbortController();
  #inputAbort = null;
  #resizeObserver = null;
  #raf = 0;
  #running = false;
  #destroyed = false;
  #imageData = null;
  #last = new Map();
  #rebuildPending = false;
  // The element's size changed while the loop ran: the next frame takes it (#tick).
  #sizePending = false;
  // The image is laid out on the viewport (background-attachment: fixed), and the page
  // scrolled since it was read: the next frame reads it again.
  #fixedImage = false;
  #imagePending = false;
  // The resolution the pool was made with: a pool resizes in place only at the same one.
  #poolResolution = 0;
  // The latest load of each kind (#loadInto), so that a slower earlier one is dropped.
  #requests = { image: 0, obstacles: 0, sky: 0, water: 0 };
  // The pool has a water region from setWater (a living photograph's): dropped by a resize,
  // and set again (keeping the water) by #composeWater.
  #hasWater = false;
  #statTimes = new Float64Array(STATS_FRAMES);
  #statWork = new Float64Array(STATS_FRAMES);
  #statDraw = new Float64Array(STATS_FRAMES);
  // Main-thread milliseconds the video's copies took since the frame before (in the frame
  // and in the callback that ends a WebCodecs copy), drawn frame or not: part of the frame's
  // cost that quality 'auto' weighs.
  #statVideo = new Float64Array(STATS_FRAMES);
  #statCount = 0;
  // quality: 'auto' (see QUALITY_LEVELS): the pixel ratio it chose (null: not yet), the
  // window being measured, and when a level found too slow may be tried again.
  #autoRatio = null;
  #qualitySkip = 0;
  #windowStart = 0; // the stats count (#statCount) where the window began
  #windowDrawn = 0; // drawn frames in the window
  #qualityChanges = 0;
  #qualityCeiling = Infinity;
  #qualityRetryAt = 0;
  #qualityRetryMs = QUALITY_RETRY_MS;
  #waterKept = true;
  // Out of sight (IntersectionObserver) or in a hidden tab, the frame loop stops: no steps,
  // no renders; back in sight it starts on a new time base, so there is no burst of steps.
  #onScreen = true;
  #intersection = null;
  // hide(): the element shows its own background and the loop stops until show().
  #hidden = false;
  // The background layers the browser keeps drawing above the water (those over the image).
  #layersAbove = null;
  // Taken out of the document without destroy(): destroyed after DETACHED_GRACE_MS unless
  // it is put back (a framework moving it takes it out and puts it back in one task).
  #detachedTimer = 0;

  /** Use `Ripples.attach`. */
  constructor(token, element, options, exports) {
    if (token !== CONSTRUCTING) {
      throw new TypeError('Ripples: use `await Ripples.attach(element, options)` to make ripples');
    }
    super();
    this.#element = element;
    this.#options = options;
    this.#exports = exports;
    this.#ownsCanvas = !(element instanceof HTMLCanvasElement);
  }

  /** The options and their defaults. */
  static get defaults() {
    return { ...DEFAULTS };
  }

  /**
   * Loads the wasm module ahead of the first attach, from `{ wasm }` (see attach's `wasm`
   * option; `init(wasm)` is the same) or by default from ripples_web_bg.wasm next to this
   * file. attach() does this by itself otherwise. The module is loaded once per page: after
   * the first successful load, `wasm` is ignored. Rejects with a RipplesLoadError.
   */
  static async init(options) {
    const where = 'Ripples.init';
    let source = options;
    if (options !== null && typeof options === 'object' && Object.getPrototypeOf(options) === Object.prototype) {
      const unknown = Object.keys(options).filter((name) => name !== 'wasm');
      if (unknown.length) {
        throw new TypeError(`${where}: unknown option '${unknown[0]}' (init takes { wasm })`);
      }
      source = options.wasm;
    }
    await loadWasm(source, where);
  }

  /**
   * For tests of quality 'auto': every drawn frame of every instance then busy-waits
   * `msPerMegapixel` milliseconds per million canvas pixels, counted as wasm time, as on a
   * slower device. 0 (the default) turns it off.
   */
  static simulateSlowDevice(msPerMegapixel) {
    if (typeof msPerMegapixel !== 'number' || !(msPerMegapixel >= 0 && msPerMegapixel <= 1000)) {
      throw new RangeError(
        `Ripples.simulateSlowDevice: msPerMegapixel must be a number from 0 to 1000, got ${describeValue(msPerMegapixel)}`,
      );
    }
    slowdownMsPerMegapixel = msPerMegapixel;
  }

  /** Bytes of wasm memory in use by the module (0 before it is loaded). */
  static memoryBytes() {
    return loadedExports()?.memory.buffer.byteLength ?? 0;
  }

  /**
   * Makes ripples over `element`: a <canvas> is drawn into, any other element gets a canvas
   * overlaid behind its content in place of its CSS background image (or right over its
   * background <video>: see videoUrl). Rejects with an Error naming the problem (a detached or
   * empty element, a bad option, an image or video that cannot be loaded or read), leaving the
   * element as it was; with a RipplesLoadError when the wasm
   * module cannot be loaded. Besides the water's options (Ripples.defaults), `wasm` says where
   * the module is when it is not next to this file (see Ripples.init).
   */
  static async attach(element, options = {}) {
    const where = 'Ripples.attach';
    if (typeof window !== 'object' || typeof document !== 'object' || typeof Element !== 'function') {
      throw new Error(
        `${where}: there is no browser here (no window and document: server-side rendering, ` +
          `Node or a worker); call attach in the browser, e.g. in a useEffect or onMounted`,
      );
    }
    if (!(element instanceof Element)) {
      throw new TypeError(`${where}: expected an element, got ${describeValue(element)}`);
    }
    if (!element.isConnected) {
      throw new Error(`${where}: ${describeElement(element)} is not in the document; add it to the page first`);
    }
    if (!(element instanceof HTMLElement) || NO_CHILDREN.has(element.tagName)) {
      throw new Error(
        `${where}: ${describeElement(element)} cannot hold the canvas Ripples draws in; attach to a ` +
          `container (a <div>, <section>...) or a <canvas>, with the picture as its CSS background or imageUrl`,
      );
    }
    if (attached.has(element)) {
      throw new Error(`${where}: ${describeElement(element)} already has ripples; destroy() them first`);
    }
    attached.set(element, null);
    let ripples = null;
    try {
      // `wasm` says where the module is (see Ripples.init); it is not an option of the water.
      const isObject = options !== null && typeof options === 'object';
      const { wasm, ...waterOptions } = isObject ? options : {};
      const exports = await loadWasm(wasm, where);
      const checked = checkOptions(DEFAULTS, isObject ? waterOptions : options, where);
      ripples = new Ripples(CONSTRUCTING, element, checked, exports);
      await ripples.#start(where);
      attached.set(element, ripples);
      return ripples;
    } catch (error) {
      ripples?.#teardown();
      attached.delete(element);
      throw error;
    }
  }

  async #start(where) {
    const element = this.#element;
    const options = this.#options;
    if (!this.#ownsCanvas && !element.getContext('2d')) {
      throw new Error(`${where}: ${describeElement(element)} already has another kind of context (WebGL?); give Ripples a fresh canvas`);
    }
    // Read before the background is hidden: the image when no imageUrl is given, and in any
    // case the layer whose size and position place the image.
    this.#cssImage = this.#ownsCanvas ? cssBackground(element) : null;
    this.#pageVideo = this.#ownsCanvas ? backgroundVideo(element) : null;
    const settled = await Promise.allSettled([
      this.#loadPicture(options, where),
      options.obstacles === null ? null : loadImage(options.obstacles, options.crossOrigin, where, 'obstacles image'),
      options.skyUrl === null ? null : loadImage(options.skyUrl, options.crossOrigin, where, 'skyUrl'),
      options.waterMask === null ? null : loadImage(options.waterMask, options.crossOrigin, where, 'waterMask'),
    ]);
    const [picture, obstacles, sky, water] = settled.map((result) => (result.status === 'fulfilled' ? result.value : null));
    // A video that loaded while something else failed is let go of (teardown does not know it).
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure || !element.isConnected) {
      picture?.video?.release();
      if (failure) throw failure.reason;
      throw new Error(`${where}: ${describeElement(element)} was removed from the document while its image loaded`);
    }
    this.#video = picture?.video ?? null;
    this.#listenToVideo();
    this.#loaded = { image: picture?.image ? picture : null, obstacles, sky: sky && readSky(sky, where), water };
    const size = this.#measure(where);
    if (this.#ownsCanvas) this.#overlay();
    else this.#canvas = element;
    this.#chooseRenderer();
    this.#build(size, where);
    if (this.#ownsCanvas) this.#hideBackground();
    if (options.interactive) this.#listenToInput();
    this.#watchSize();
    this.#watchSight();
    this.play();
    this.#playVideo(where);
    this.#rouse();
  }

  /**
   * Draws with WebGL2 on an overlay canvas unless the renderer option says 'cpu', the browser
   * has no WebGL2 or the page already holds GlRenderer's most contexts; a <canvas> given to
   * attach is drawn with the CPU (its context is the page's to choose).
   */
  #chooseRenderer() {
    if (this.#ownsCanvas && this.#options.renderer !== 'cpu') {
      this.#gl = GlRenderer.create(this.#canvas, () => this.#safely(() => this.#contextLost()));
      if (this.#gl) return;
      this.#cpuReason = 'no-webgl2';
    } else {
      this.#cpuReason = this.#ownsCanvas ? 'option' : 'canvas-element';
    }
    this.#context = this.#canvas.getContext('2d');
  }

  /**
   * The WebGL context was lost: the CPU draws from now on, on a fresh canvas (one that had a
   * WebGL context can have no other), over the same water, which the pool keeps.
   */
  #contextLost() {
    this.#useCpu('context-lost');
  }

  /** The CPU draws from now on (`reason`: see #cpuReason), over the same water. */
  #useCpu(reason) {
    if (!this.#gl) return;
    this.#gl.release();
    this.#gl = null;
    this.#cpuReason = reason;
    const old = this.#canvas;
    const canvas = old.cloneNode(false);
    old.replaceWith(canvas);
    this.#canvas = canvas;
    this.#context = canvas.getContext('2d');
    this.#imageData = null;
    this.#pool.setGpu(false);
    // The video's frame went to the lost renderer only: the CPU reads it from the pool's image.
    if (this.#video) this.#composeVideo(this.#pool, this.#cssSize, 'Ripples');
    this.#pool.advance(0);
    this.#draw();
    this.#rouse();
  }

  /** The renderer option changed: WebGL2 on a fresh canvas, or the CPU, over the same water. */
  #switchRenderer(where) {
    if (this.#options.renderer === 'cpu') {
      this.#useCpu('option');
      return;
    }
    if (this.#gl || !this.#ownsCanvas) return;
    const old = this.#canvas;
    const canvas = old.cloneNode(false);
    const gl = GlRenderer.create(canvas, () => this.#safely(() => this.#contextLost()));
    if (!gl) {
      this.#cpuReason = 'no-webgl2';
      return;
    }
    old.replaceWith(canvas);
    this.#canvas = canvas;
    this.#context = null;
    this.#imageData = null;
    this.#gl = gl;
    const size = this.#measure(where, false);
    if (size) this.#build(size, where);
  }

  /**
   * Loads what goes under the water for `options`: videoUrl's video, else imageUrl's image,
   * else the element's background <video>, else its CSS background image; as `{ video }` (a
   * VideoSource), an image (see loadImage) or null (the built-in tiles).
   */
  async #loadPicture(options, where) {
    if (options.videoUrl !== null) {
      const absolute = absoluteUrl(options.videoUrl, where, 'video');
      const cors = corsMode(absolute, options.crossOrigin);
      return { video: await VideoSource.load(options.videoUrl, absolute, cors, where) };
    }
    if (options.imageUrl === null && this.#pageVideo) {
      return { video: await VideoSource.adopt(this.#pageVideo, where) };
    }
    const url = options.imageUrl ?? this.#cssImage?.url ?? null;
    return url === null ? null : loadImage(url, options.crossOrigin, where, 'image');
  }

  /**
   * A video that plays, seeks or loads a frame changes the water's picture: a sleeping loop
   * runs again. Listened to on the <video> itself (videoUrl's is not in the document), for as
   * long as it is the one under the water.
   */
  #listenToVideo() {
    const source = this.#video;
    const video = source?.video;
    if (!video) return;
    source.onNewFrame = () => this.#safely(() => this.#video === source && this.#rouse());
    for (const type of ['play', 'playing', 'seeking', 'seeked', 'loadeddata']) {
      video.addEventListener(type, () => this.#safely(() => this.#video?.video === video && this.#rouse()), {
        signal: this.#abort.signal,
      });
    }
  }

  /**
   * Plays the video under the water if it is paused (see VideoSource.play); a refusal is an
   * `error` event, after attach or set has returned, so that a listener added then hears it.
   */
  #playVideo(where) {
    this.#video?.play((error) => setTimeout(() => !this.#destroyed && this.#report(error)), where);
  }

  /**
   * The pool size for the element now: canvas pixels, and the CSS size they cover. An element
   * without size is an error when `required`, else null (hidden for now: keep the pool).
   */
  #measure(where, required = true) {
    const element = this.#element;
    let cssWidth;
    let cssHeight;
    let width;
    let height;
    let ratio;
    if (this.#ownsCanvas) {
      cssWidth = element.clientWidth;
      cssHeight = element.clientHeight;
      ratio = this.#pixelRatio();
      width = Math.round(cssWidth * ratio);
      height = Math.round(cssHeight * ratio);
    } else {
      width = element.width;
      height = element.height;
      const rect = element.getBoundingClientRect();
      cssWidth = rect.width || width;
      cssHeight = rect.height || height;
      ratio = width / cssWidth;
    }
    if (width < 1 || height < 1) {
      if (!required) return null;
      const what = this.#ownsCanvas ? `${cssWidth}x${cssHeight} CSS pixels` : `${width}x${height} pixels`;
      throw new Error(`${where}: ${describeElement(element)} has no size (${what}); attach once it is displayed and laid out`);
    }
    const [maxSide, maxPixels] = limits();
    if (width > maxSide || height > maxSide || width * height > maxPixels) {
      const css = this.#ownsCanvas ? ` (${cssWidth}x${cssHeight} CSS pixels at pixel ratio ${ratio})` : '';
      throw new Error(
        `${where}: ${describeElement(element)} needs a ${width}x${height} pool${css}, larger than ` +
          `the limit of ${maxSide} pixels per side and ${maxPixels} pixels in all (4096x4096); ` +
          `use a smaller element${this.#ownsCanvas ? ' or a lower pixelRatio' : ' or canvas'}`,
      );
    }
    return { width, height, cssWidth, cssHeight, ratio };
  }

  /** The most canvas pixels per CSS pixel: the pixelRatio option, else the screen's. */
  #maxPixelRatio() {
    return this.#options.pixelRatio ?? Math.min(MAX_DEVICE_PIXEL_RATIO, window.devicePixelRatio || 1);
  }

  /** Canvas pixels per CSS pixel now: the most, or what quality 'auto' chose below it. */
  #pixelRatio() {
    const max = this.#maxPixelRatio();
    if (this.#options.quality !== 'auto' || this.#gl) return max;
    return Math.min(max, this.#autoRatio ?? startingRatio(max));
  }

  /**
   * After each drawn frame (the stats slot `slot` holds its time and cost): at the end of a
   * window, records this instance's cost in `frameCosts` and, with quality 'auto', lowers or
   * raises the pixel ratio against the page's total (a new pool that takes the water of the
   * old one).
   */
  #adapt(slot) {
    // Integer work on most frames (a double in code V8 has not optimized yet is a heap
    // object, and this runs every frame): the window's times and costs are already in the
    // stats arrays, and its length is looked at every QUALITY_WINDOW_FRAMES drawn frames.
    if (this.#qualitySkip > 0) {
      // The first frames of a new pool (fresh memory, cold caches) say little.
      this.#qualitySkip--;
      this.#windowStart = this.#statCount;
      this.#windowDrawn = 0;
      return;
    }
    this.#windowDrawn++;
    if (this.#windowDrawn % QUALITY_WINDOW_FRAMES !== 0) return;
    // The window's frames, drawn or not, as far as the stats arrays reach back.
    const frames = Math.min(this.#statCount - this.#windowStart, STATS_FRAMES);
    const first = (this.#statCount - frames) % STATS_FRAMES;
    const now = this.#statTimes[slot];
    if (now - this.#statTimes[first] < QUALITY_WINDOW_MS && frames < STATS_FRAMES) return;
    // Per drawn frame: the wasm step+render and the draw, and what the video's copies took in
    // any frame of the window.
    let total = 0;
    let drawn = 0;
    for (let i = 0; i < frames; i++) {
      const at = (first + i) % STATS_FRAMES;
      total += this.#statVideo[at];
      if (this.#statWork[at] >= 0) {
        total += this.#statWork[at] + this.#statDraw[at];
        drawn++;
      }
    }
    this.#windowStart = this.#statCount;
    this.#windowDrawn = 0;
    const mean = total / drawn;
    // Every instance counts its cost (the page's frame holds all their work); those with
    // quality 'auto' on a canvas of their own adapt.
    const adapts = this.#ownsCanvas && this.#options.quality === 'auto' && !this.#gl;
    const ratio = this.#pixelRatio();
    const levels = qualityLevels(this.#maxPixelRatio());
    const lower = adapts ? levels.filter((level) => level < ratio) : [];
    frameCosts.set(this, { cost: mean, canLower: lower.length > 0 });
    if (!adapts) return;
    let pageCost = 0;
    let largest = 0;
    for (const { cost, canLower } of frameCosts.values()) {
      pageCost += cost;
      if (canLower) largest = Math.max(largest, cost);
    }
    const others = pageCost - mean;
    const predicted = (level) => others + mean * (level / ratio) ** 2;
    let next = ratio;
    // Over the budget, the instance that costs most (of those that can still go lower) gives
    // way; the others wait for its next window.
    if (pageCost > LOWER_ABOVE_MS && mean >= largest) {
      next = lower.find((level) => predicted(level) <= TARGET_MS) ?? lower[lower.length - 1] ?? ratio;
      if (next < ratio) {
        // Too slow here: do not come back for a while, longer each time.
        this.#qualityCeiling = ratio;
        this.#qualityRetryAt = now + this.#qualityRetryMs;
        this.#qualityRetryMs = Math.min(2 * this.#qualityRetryMs, QUALITY_RETRY_MAX_MS);
      }
    } else if (pageCost <= LOWER_ABOVE_MS) {
      const higher = levels.filter((level) => level > ratio);
      const up = higher[higher.length - 1];
      const allowed = up !== undefined && (up < this.#qualityCeiling || now >= this.#qualityRetryAt);
      if (allowed && predicted(up) < RAISE_BELOW_MS) next = up;
    }
    if (next === ratio) return;
    this.#autoRatio = next;
    this.#qualityChanges++;
    const size = this.#measure('Ripples (quality auto)', false);
    if (size) this.#build(size, 'Ripples (quality auto)');
  }

  /** Puts a canvas behind the element's content, over its background. */
  #overlay() {
    const element = this.#element;
    const computed = getComputedStyle(element);
    const style = element.style;
    const save = (name) => [style.getPropertyValue(name), style.getPropertyPriority(name)];
    this.#savedStyle = {
      'background-image': save('background-image'),
      position: save('position'),
      'z-index': save('z-index'),
    };
    // A stacking context of its own, so that the canvas at z-index -1 stays above the
    // element's background colour and below its content.
    if (computed.position === 'static') style.setProperty('position', 'relative');
    if (computed.zIndex === 'auto') style.setProperty('z-index', '0');
    const canvas = document.createElement('canvas');
    canvas.className = 'ripples-canvas';
    canvas.setAttribute('aria-hidden', 'true');
    canvas.style.cssText =
      'position:absolute;left:0;top:0;width:100%;height:100%;z-index:-1;' +
      'pointer-events:none;display:block;margin:0;padding:0;border:0';
    const video = this.#pageVideo;
    if (video) {
      // Right over the background <video>, in its layer: the video is hidden under the water,
      // and whatever the page put over the video stays over the water.
      canvas.style.zIndex = getComputedStyle(video).zIndex;
      video.after(canvas);
    } else {
      element.append(canvas);
    }
    this.#canvas = canvas;
  }

  /**
   * Takes the image's background layer, and those under it, off the element (the canvas shows
   * them, under the water), and hands the layers over it (a dark gradient over a hero photo,
   * a logo) to an element of their own above the canvas, which the browser draws as it drew
   * them. Lists stay aligned: the layers taken off become `none` in the element's
   * background-image, so every other background property still names the same layer. Reads
   * the page's own background afresh each time (attach, show(), updateSize()).
   */
  #hideBackground() {
    // Behind a background <video> the element's own background stays, under the canvas.
    if (this.#pageVideo) return;
    const element = this.#element;
    const [saved, priority] = this.#savedStyle['background-image'];
    if (saved) element.style.setProperty('background-image', saved, priority);
    else element.style.removeProperty('background-image');
    const computed = getComputedStyle(element);
    const layers = splitLayers(computed.backgroundImage);
    // Layer 0 is the top one. The image's layer and those above it go from the element, whose
    // background is under the canvas; those below the image stay (the canvas is transparent
    // where the image does not reach). Without a CSS image every layer goes: the canvas covers
    // the element with imageUrl's image or the built-in tiles.
    const index = this.#cssImage ? this.#cssImage.index : layers.length;
    // The layers above the image are drawn over the canvas by an element of their own (read
    // before the element's style changes: a computed style is live).
    const above = this.#cssImage ? layerDeclarations(computed, 0, index) : null;
    const kept = layers.map((layer, i) => (i <= index ? 'none' : layer));
    element.style.setProperty('background-image', kept.every((l) => l === 'none') ? 'none' : kept.join(', '), 'important');
    this.#layersAbove?.remove();
    this.#layersAbove = null;
    if (above && layers.slice(0, index).some((layer) => layer !== 'none')) {
      const cover = document.createElement('div');
      cover.className = 'ripples-layers';
      cover.setAttribute('aria-hidden', 'true');
      cover.style.cssText =
        'position:absolute;left:0;top:0;width:100%;height:100%;z-index:-1;' +
        'pointer-events:none;display:block;margin:0;padding:0;border:0';
      for (const [name, value] of Object.entries(above)) cover.style.setProperty(name, value);
      this.#canvas.after(cover);
      this.#layersAbove = cover;
    }
  }

  #restoreStyle() {
    this.#layersAbove?.remove();
    this.#layersAbove = null;
    if (!this.#savedStyle) return;
    for (const [name, [value, priority]] of Object.entries(this.#savedStyle)) {
      if (value) this.#element.style.setProperty(name, value, priority);
      else this.#element.style.removeProperty(name);
    }
    this.#savedStyle = null;
  }

  /**
   * A pool for `size`, configured, with the image, walls and sky drawn into it: the same pool
   * resized in place (its water resampled, its memory reused) when the resolution is the
   * same, else a new pool that takes the old one's water.
   */
  #build(size, where, inFrame = false) {
    const resolution = this.#resolutionFor(size, where);
    if (this.#pool && this.#poolResolution === resolution && this.#pool.gpu === !!this.#gl) {
      this.#resizePool(size, where, inFrame);
      return;
    }
    let pool;
    try {
      pool = new WasmPool(size.width, size.height, resolution, this.#seed);
    } catch (error) {
      throw prefixed(where, error);
    }
    try {
      pool.setGpu(!!this.#gl);
      this.#configure(pool, size);
      this.#composeImage(pool, size, where);
      this.#composeObstacles(pool, size, where);
      this.#composeWater(pool, size, where);
      this.#composeSky(pool);
      // The ripples go on in the new pool (a new size, pixel ratio or resolution), resampled
      // onto its grid; only a pool of another solver cannot take them.
      const old = this.#pool;
      if (old) {
        const cssScaleX = size.cssWidth / this.#cssSize.cssWidth;
        const cssScaleY = size.cssHeight / this.#cssSize.cssHeight;
        this.#waterKept = pool.takeWater(old, cssScaleX, cssScaleY);
      }
      pool.advance(0);
    } catch (error) {
      pool.free();
      throw error;
    }
    this.#pool?.free();
    this.#pool = pool;
    this.#poolResolution = resolution;
    this.#sized(size);
    this.#draw();
    this.#rouse();
  }

  /**
   * The pool takes `size` in place, keeping its water (see #build); `inFrame`: the frame loop
   * renders and draws it next, in this same frame.
   */
  #resizePool(size, where, inFrame) {
    const pool = this.#pool;
    const cssScaleX = size.cssWidth / this.#cssSize.cssWidth;
    const cssScaleY = size.cssHeight / this.#cssSize.cssHeight;
    try {
      pool.resize(size.width, size.height, cssScaleX, cssScaleY);
    } catch (error) {
      throw prefixed(where, error);
    }
    this.#waterKept = true;
    this.#sized(size);
    this.#configure(pool, size);
    this.#composeImage(pool, size, where);
    this.#composeObstacles(pool, size, where);
    this.#composeWater(pool, size, where);
    this.#composeSky(pool);
    if (inFrame) return;
    pool.advance(0);
    this.#draw();
  }

  /** What follows a pool of a new size: the canvas, and the state that belonged to the old size. */
  #sized(size) {
    this.#cssSize = size;
    this.#rebuildPending = false;
    this.#imageData = null;
    this.#last.clear();
    this.#qualitySkip = QUALITY_SKIP_FRAMES;
    if (this.#ownsCanvas) {
      this.#canvas.width = size.width;
      this.#canvas.height = size.height;
    }
  }

  #configure(pool, size) {
    const options = this.#options;
    this.#gl?.invalidateConstants();
    pool.setSolver(options.solver);
    pool.setGravity(options.gravity);
    pool.setBorder(options.border);
    pool.setLook(options.look);
    pool.setPerturbance(options.perturbance);
    pool.setPresence(options.presence);
    // The natural look's lengths are CSS pixels: the same water at any pixel ratio.
    pool.setPixelsPerCssPixel(Math.min(8, Math.max(0.25, size.width / size.cssWidth)));
    pool.setDepth(options.depth);
    pool.setCaustics(options.caustics);
    pool.setSunElevation(options.sunElevation);
    pool.setSunAzimuth(options.sunAzimuth);
    pool.setWaterColour(options.waterColour);
    pool.setClarity(options.clarity);
    pool.setWaveHeight(options.waveHeight);
    pool.setDispersion(options.dispersion);
    pool.setStepsPerSecond(options.stepsPerSecond);
    pool.setDropRadius(Math.max(1, options.dropRadius * (size.width / size.cssWidth)));
    pool.setRain(this.#motionReduced() ? 0 : options.rain);
  }

  /** Whether the user's prefers-reduced-motion stops the rain (see the reducedMotion option). */
  #motionReduced() {
    return this.#options.reducedMotion === 'auto' && prefersReducedMotion();
  }

  /** Draws the image (or the video's frame) where CSS (or a cover fit) puts it, and hands the pixels to the pool. */
  #composeImage(pool, size, where) {
    if (this.#video) {
      this.#composeVideo(pool, size, where);
      return;
    }
    this.#gl?.usePoolImage();
    const loaded = this.#loaded.image;
    if (!loaded) {
      pool.useDefaultImage();
      return;
    }
    const { width, height, cssWidth, cssHeight } = size;
    const { image } = loaded;
    const context = scratchContext(width, height);
    const place = this.#placement(cssWidth, cssHeight, image.naturalWidth, image.naturalHeight, false);
    const scaleX = width / cssWidth;
    const scaleY = height / cssHeight;
    const [x, y, w, h, repeatX, repeatY] = place;
    if (repeatX || repeatY) {
      const pattern = context.createPattern(image, repeatX && repeatY ? 'repeat' : repeatX ? 'repeat-x' : 'repeat-y');
      pattern.setTransform(
        new DOMMatrix([(w * scaleX) / image.naturalWidth, 0, 0, (h * scaleY) / image.naturalHeight, x * scaleX, y * scaleY]),
      );
      context.fillStyle = pattern;
      context.fillRect(0, 0, width, height);
    } else {
      context.drawImage(image, x * scaleX, y * scaleY, w * scaleX, h * scaleY);
    }
    pool.setImage(readPixels(context, width, height, loaded, where, 'image'));
  }

  /**
   * Where a picture of `naturalWidth x naturalHeight` goes in the element's box of
   * `cssWidth x cssHeight` CSS pixels, as backgroundLayout gives it: where CSS put the
   * element's background image, if it had one, else a cover fit. For a video (`isVideo`) the
   * layout of the element's first background layer applies even without an image, unless its
   * size is 'auto' (the initial value: then a cover fit).
   */
  #placement(cssWidth, cssHeight, naturalWidth, naturalHeight, isVideo) {
    let place = null;
    this.#fixedImage = false;
    const index = this.#cssImage?.index ?? (isVideo && this.#ownsCanvas ? 0 : -1);
    const layer = index >= 0 ? layerStyle(this.#element, index) : null;
    if (layer && (this.#cssImage || layer.size !== 'auto')) {
      // background-attachment: fixed lays the image out on the viewport, where it stays as the
      // page scrolls: the water's picture is that part of it behind the element, read again
      // when the page scrolls (see #watchSight).
      const fixed = layer.attachment === 'fixed';
      const area = fixed
        ? { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight }
        : { width: cssWidth, height: cssHeight };
      try {
        place = backgroundLayout(
          area.width,
          area.height,
          naturalWidth,
          naturalHeight,
          layer.size,
          layer.position,
          layer.repeat,
        );
        if (fixed) {
          const rect = this.#element.getBoundingClientRect();
          place[0] -= rect.left + this.#element.clientLeft;
          place[1] -= rect.top + this.#element.clientTop;
          this.#fixedImage = true;
        }
      } catch (error) {
        console.warn(`Ripples: ${messageOf(error)}; the image covers the element instead`);
      }
    }
    if (!place) {
      place = backgroundLayout(cssWidth, cssHeight, naturalWidth, naturalHeight, 'cover', '50% 50%', 'no-repeat');
    }
    return place;
  }

  /**
   * Lays the video out on `pool` (a background <video> by its object-fit and object-position
   * in its own box, videoUrl's like a background image: see #placement; drawn once, not
   * tiled) and writes its current frame into the pool's image.
   */
  #composeVideo(pool, size, where) {
    const { width, height, cssWidth, cssHeight } = size;
    const video = this.#video;
    const scaleX = width / cssWidth;
    const scaleY = height / cssHeight;
    let place;
    let clip = { x: 0, y: 0, width, height };
    if (!video.owned && video.video === this.#pageVideo) {
      this.#fixedImage = false;
      const element = this.#element;
      const box = element.getBoundingClientRect();
      const rect = video.video.getBoundingClientRect();
      // The <video>'s box in the element's padding box, CSS pixels.
      const inside = {
        x: rect.left - box.left - element.clientLeft,
        y: rect.top - box.top - element.clientTop,
        width: rect.width,
        height: rect.height,
      };
      const style = getComputedStyle(video.video);
      const fit = objectFitSize(style.objectFit, inside, video.width, video.height);
      place = backgroundLayout(inside.width, inside.height, video.width, video.height, fit, style.objectPosition, 'no-repeat');
      place[0] += inside.x;
      place[1] += inside.y;
      clip = { x: inside.x * scaleX, y: inside.y * scaleY, width: inside.width * scaleX, height: inside.height * scaleY };
    } else {
      place = this.#placement(cssWidth, cssHeight, video.width, video.height, true);
    }
    const rect = [place[0] * scaleX, place[1] * scaleY, place[2] * scaleX, place[3] * scaleY].map(snapped);
    video.place(width, height, rect, clip);
    // WebGL takes the frame straight from the <video>; the CPU reads it from `pool`'s image,
    // which may be a new pool, not yet this.#pool (see #build).
    if (this.#gl) video.toTexture(this.#gl, where);
    else video.drawNow(() => this.#viewOf(pool), where);
    pool.imageChanged();
  }

  /** A view of `pool`'s image in the wasm memory (kept; made again when the pool or the memory changed). */
  #viewOf(pool) {
    const buffer = this.#exports.memory.buffer;
    const view = this.#imageView;
    if (!view || view.buffer !== buffer || view.byteOffset !== pool.imagePtr || view.length !== pool.imageLen) {
      this.#imageView = new Uint8Array(buffer, pool.imagePtr, pool.imageLen);
    }
    return this.#imageView;
  }

  /** The view of this.#pool's image that video frames are written through. */
  #imageTarget = () => this.#viewOf(this.#pool);

  /** A video frame is in the pool's image: the next frame renders over it. */
  #imageChanged = () => {
    this.#pool?.imageChanged();
    // A copy that ends after the loop went to sleep still shows.
    this.#rouse();
  };

  /** A video that can no longer be read (a tainted frame): the water stops and says why. */
  #videoFailed = (error) => {
    if (this.#destroyed) return;
    this.pause();
    this.#report(error);
  };

  #composeObstacles(pool, size, where) {
    this.#gl?.invalidateConstants();
    const loaded = this.#loaded.obstacles;
    if (!loaded) {
      pool.clearObstacles();
      return;
    }
    const context = scratchContext(size.width, size.height);
    context.drawImage(loaded.image, 0, 0, size.width, size.height);
    pool.setObstacles(readPixels(context, size.width, size.height, loaded, where, 'obstacles image'));
  }

  /** Whether the options make a living photograph (a water mask or a horizon). */
  #livingPhotograph() {
    return this.#options.waterMask !== null || this.#options.horizon !== null;
  }

  /**
   * What pool.setWater takes for a living photograph at `size`: the mask drawn where the
   * picture is (empty without one), the horizon and focal length scaled from the picture's
   * pixels to the pool's as the picture is placed (NaN when not given), and the placed size.
   */
  #waterArguments(size, where) {
    const options = this.#options;
    const picture = this.#loaded.image;
    if (!picture || this.#video) {
      throw new Error(
        `${where}: waterMask (${describeValue(options.waterMask)}) and horizon (${describeValue(options.horizon)}) ` +
          `need a picture under the water (imageUrl or the element's CSS background image), not ` +
          `${this.#video ? 'a video' : 'the built-in tiles'}`,
      );
    }
    const { width, height, cssWidth, cssHeight } = size;
    const { naturalWidth, naturalHeight } = picture.image;
    const [x, y, w, h] = this.#placement(cssWidth, cssHeight, naturalWidth, naturalHeight, false);
    const scaleX = width / cssWidth;
    const scaleY = height / cssHeight;
    let mask = new Uint8Array(0);
    const loaded = this.#loaded.water;
    if (loaded) {
      const context = scratchContext(width, height);
      context.drawImage(loaded.image, x * scaleX, y * scaleY, w * scaleX, h * scaleY);
      mask = readPixels(context, width, height, loaded, where, 'waterMask');
    }
    // Picture pixels to pool pixels: rows through the picture's placement, the focal length
    // by its horizontal scale (the field of view is horizontal).
    const horizon = options.horizon === null ? NaN : (y + (options.horizon * h) / naturalHeight) * scaleY;
    const focal = options.focal === null ? NaN : ((options.focal * w) / naturalWidth) * scaleX;
    const placed = `${Math.round(w * scaleX)}x${Math.round(h * scaleY)}`;
    return { mask, horizon, focal, placed };
  }

  /**
   * Pool pixels per grid cell for a pool of `size`: the resolution option, or with WebGL2
   * about GPU_GRID_CELLS cells (gpuResolution); for water in perspective, about as many cells
   * in the plane grid, which reaches far water at up to four cells per pixel
   * (WasmPool.perspectiveResolution; a stone still makes the same ring in CSS pixels).
   */
  #resolutionFor(size, where) {
    const resolution = this.#options.resolution;
    if (!this.#gl) return resolution;
    const topDown = gpuResolution(size.width, size.height, resolution);
    if (this.#options.horizon === null || !this.#loaded.image || this.#video) return topDown;
    try {
      const { mask, horizon, focal } = this.#waterArguments(size, where);
      return WasmPool.perspectiveResolution(size.width, size.height, resolution, mask, horizon, focal, GPU_GRID_CELLS);
    } catch {
      // A camera the pool refuses: #composeWater says why.
      return topDown;
    }
  }

  /**
   * The water again after its options or picture changed: in the same pool, or in a new one
   * when the plane grid needs another resolution (#resolutionFor).
   */
  #recomposeWater(where) {
    const size = this.#cssSize;
    if (this.#resolutionFor(size, where) !== this.#poolResolution) this.#build(size, where);
    else this.#composeWater(this.#pool, size, where);
  }

  /**
   * A living photograph's water for `pool` (see the waterMask, horizon and focal options): the
   * mask drawn where the picture is, the horizon and the focal length scaled from the
   * picture's pixels to the pool's as the picture is placed. Called after the picture is in
   * (a new pool, a resize, which drop the water region, or a new picture or mask).
   */
  #composeWater(pool, size, where) {
    if (!this.#livingPhotograph()) {
      // A pool of a new size has no water region; one that had it gets the whole picture back.
      if (this.#hasWater && pool === this.#pool) pool.setWater(new Uint8Array(0), NaN, NaN);
      this.#hasWater = false;
      return;
    }
    const { mask, horizon, focal, placed } = this.#waterArguments(size, where);
    const options = this.#options;
    const { naturalWidth, naturalHeight } = this.#loaded.image.image;
    try {
      pool.setWater(mask, horizon, focal);
    } catch (error) {
      throw new Error(
        `${where}: waterMask ${describeValue(options.waterMask)}, horizon ${describeValue(options.horizon)}, ` +
          `focal ${describeValue(options.focal)} (picture pixels; ${naturalWidth}x${naturalHeight} picture ` +
          `placed at ${placed} pool pixels): ${messageOf(error)}`,
      );
    }
    this.#hasWater = true;
  }

  /**
   * Hands the sky picture to `pool` (its pixels, read once when it loaded; the pool reduces
   * them to its sky table), or the built-in sky. Every new pool needs it again.
   */
  #composeSky(pool) {
    const sky = this.#loaded.sky;
    if (sky) pool.setSky(sky.pixels, sky.width, sky.height);
    else pool.useDefaultSky();
    this.#gl?.invalidateSky();
  }

  /** Puts what `which` ('image', 'obstacles' or 'sky') loaded into `pool`. */
  #compose(which, pool, size, where) {
    if (which === 'image') this.#composeImage(pool, size, where);
    else if (which === 'obstacles') this.#composeObstacles(pool, size, where);
    else if (which === 'water' && pool === this.#pool) this.#recomposeWater(where);
    else if (which === 'water') this.#composeWater(pool, size, where);
    else this.#composeSky(pool);
  }

  /** Puts the pool's frame on the canvas, through a view of the wasm memory (no copy). */
  #draw() {
    if (this.#hidden) return;
    const pool = this.#pool;
    if (this.#gl) {
      this.#gl.draw(pool, this.#exports.memory, this.#options.look);
      return;
    }
    const buffer = this.#exports.memory.buffer;
    if (!this.#imageData || this.#imageData.data.buffer !== buffer) {
      // The first frame, a new pool, or the memory grew (which replaces its ArrayBuffer).
      const view = new Uint8ClampedArray(buffer, pool.framePtr, pool.frameLen);
      this.#imageData = new ImageData(view, pool.width, pool.height);
    }
    this.#context.putImageData(this.#imageData, 0, 0);
  }

  #tick = (now) => {
    this.#raf = 0;
    // Out of sight, the loop stops here; #wake starts it again.
    if (!this.#running || !this.#inSight()) {
      frameCosts.delete(this);
      return;
    }
    // Taken out of the document without destroy(): no work, and destroyed unless put back.
    if (!this.#element.isConnected) {
      frameCosts.delete(this);
      this.#noticeDetached();
      return;
    }
    this.#raf = requestAnimationFrame(this.#tick);
    try {
      const canvas = this.#canvas;
      if (!this.#ownsCanvas && (canvas.width !== this.#pool.width || canvas.height !== this.#pool.height)) {
        this.#resize(true);
      } else if (this.#sizePending) {
        // A size beyond the limits is an error event; the water goes on at the size it had.
        this.#safely(() => this.#resize(false, true));
      } else if (this.#imagePending) {
        this.#imagePending = false;
        this.#safely(() => this.#composeImage(this.#pool, this.#cssSize, 'Ripples (background-attachment: fixed)'));
      }
      const pool = this.#pool;
      const video = this.#video;
      // Times go straight into the stats arrays: a double held in a variable of code that V8
      // has not optimized yet is a heap object, and the frame loop is to allocate as little as
      // it can (the timestamps performance.now() returns are such objects too, unavoidably).
      const slot = this.#statCount++ % STATS_FRAMES;
      const work = this.#statWork;
      const draw = this.#statDraw;
      const copy = this.#statVideo;
      this.#statTimes[slot] = now;
      work[slot] = -1;
      draw[slot] = -1;
      copy[slot] = 0;
      if (video !== null) {
        // A frame of another size is laid out again; a new frame goes under the water.
        if (video.resized) this.#composeVideo(pool, this.#cssSize, 'Ripples (video)');
        else if (video.takeNewFrame()) {
          if (this.#gl) {
            // Straight from the <video> to the picture texture; the pool only renders again.
            video.toTexture(this.#gl, 'Ripples (video)');
            pool.imageChanged();
          } else {
            video.upload(this.#imageTarget, this.#imageChanged, this.#videoFailed, 'Ripples (video)');
          }
        }
        // This frame's copy and the end of one that finished since the last frame.
        copy[slot] = video.takeSpentMs();
      }
      work[slot] = performance.now();
      const status = pool.frameStatus(now);
      if (status === FRAME_FAILED) throw new Error(`Ripples: ${pool.takeError()}`);
      if (status === FRAME_DRAWN) {
        if (slowdownMsPerMegapixel > 0) this.#slowDown(work[slot]);
        draw[slot] = performance.now();
        this.#draw();
        work[slot] = draw[slot] - work[slot];
        draw[slot] = performance.now() - draw[slot];
        this.#adapt(slot);
        // The first frame after the loop starts (calm water at attach sleeps at once), then
        // every CALM_CHECK_FRAMES.
        if (this.#framesSinceCalmCheck++ % CALM_CHECK_FRAMES === 0) this.#sleepIfCalm();
      } else {
        work[slot] = -1;
        draw[slot] = -1;
      }
    } catch (error) {
      this.pause();
      this.#report(error);
    }
  };

  /**
   * Stops the loop when the water is calm and nothing is scheduled (no rain, no finger, no
   * playing video): the water is made exactly flat, so the last frame shows the picture as
   * calm water does, and nothing runs until #rouse.
   */
  #sleepIfCalm() {
    const video = this.#video?.video;
    if ((video && (!video.paused || video.seeking || this.#video.resized)) || !this.#pool.isCalm()) return;
    this.#pool.calm();
    this.#pool.advance(0);
    this.#draw();
    this.#asleep = true;
    if (this.#raf) this.#stopLoop();
  }

  /** Something may move the water (input, drop(), set(), a video playing): the loop runs. */
  #rouse() {
    if (!this.#asleep) return;
    this.#framesSinceCalmCheck = 0;
    this.#asleep = false;
    this.#wake();
  }

  /** Busy-waits as a slower device would (Ripples.simulateSlowDevice) from `start`. */
  #slowDown(start) {
    const until = start + (slowdownMsPerMegapixel * this.#pool.width * this.#pool.height) / 1e6;
    while (performance.now() < until) {
      // Nothing: the time is the point.
    }
  }

  /** An `error` event; logged unless a listener calls preventDefault(). */
  #report(error) {
    const message = messageOf(error);
    const event = new ErrorEvent('error', { message, error, cancelable: true });
    if (this.dispatchEvent(event)) console.error(message);
  }

  #watchSize() {
    if (this.#ownsCanvas && typeof ResizeObserver === 'function') {
      // While the loop runs, the next frame takes the new size (the canvas is stretched to the
      // new box until then, for one frame) and renders it once, with its steps; otherwise now.
      this.#resizeObserver = new ResizeObserver(() =>
        this.#safely(() => {
          if (this.#raf) this.#sizePending = true;
          else this.#resize(false);
        }),
      );
      try {
        // Device pixels: also reports devicePixelRatio changes (zoom, another screen).
        this.#resizeObserver.observe(this.#element, { box: 'device-pixel-content-box' });
      } catch {
        this.#resizeObserver.observe(this.#element);
      }
    }
    this.#watchPixelRatio();
  }

  /** For browsers whose ResizeObserver does not see device pixels. */
  #watchPixelRatio() {
    if (!this.#ownsCanvas || this.#options.pixelRatio !== null || typeof matchMedia !== 'function') return;
    const query = matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    query.addEventListener(
      'change',
      () =>
        this.#safely(() => {
          this.#resize(false);
          this.#watchPixelRatio();
        }),
      { once: true, signal: this.#abort.signal },
    );
  }

  #safely(action) {
    if (this.#destroyed) return;
    try {
      action();
    } catch (error) {
      this.#report(error);
    }
  }

  /** Follows the element's size: a new pool when it changed, else (if asked) a new image. */
  #resize(always, inFrame = false) {
    const where = 'Ripples.updateSize';
    this.#sizePending = false;
    // Hidden (no size): keep the pool until the element shows again. Too large: an error.
    const size = this.#measure(where, false);
    if (!size) return;
    const old = this.#cssSize;
    const same = size.width === old.width && size.height === old.height && !this.#rebuildPending;
    if (same && size.cssWidth === old.cssWidth && size.cssHeight === old.cssHeight && !always) return;
    if (this.#ownsCanvas && !this.#hidden && always) this.#hideBackground();
    if (same) {
      this.#cssSize = size;
      this.#composeImage(this.#pool, size, where);
      this.#composeObstacles(this.#pool, size, where);
      this.#configure(this.#pool, size);
      this.#pool.advance(0);
      this.#draw();
    } else {
      this.#build(size, where, inFrame);
    }
  }

  #listenToInput() {
    this.#inputAbort = new AbortController();
    const options = { signal: this.#inputAbort.signal, passive: true };
    const on = (type, handler, passive = true) =>
      this.#element.addEventListener(type, (event) => this.#safely(() => handler(event)), { ...options, passive });
    on('pointerdown', (e) => {
      this.#dragOnWater = this.#onWater(e.target);
      if (e.pointerType !== 'touch') this.#press(`p${e.pointerId}`, e.clientX, e.clientY);
    });
    // A drag that starts on the water selects no text on its way; one that starts on text
    // selects it as usual (and a click on a link or a button is the page's).
    on('selectstart', (e) => {
      if (this.#dragOnWater) e.preventDefault();
    }, false);
    on('pointerup', () => {
      this.#dragOnWater = false;
    });
    on('pointermove', (e) => {
      if (e.pointerType === 'touch') return;
      this.#move(`p${e.pointerId}`, e.clientX, e.clientY, e.buttons ? DRAG_STRENGTH : HOVER_STRENGTH);
    });
    for (const type of ['pointerleave', 'pointercancel']) on(type, (e) => this.#lift(`p${e.pointerId}`));
    // Touch through touch events, which keep coming while the page scrolls (pointer events
    // stop with pointercancel); passive, so scrolling is never held up.
    on('touchstart', (e) => {
      for (const t of e.changedTouches) this.#press(`t${t.identifier}`, t.clientX, t.clientY);
    });
    on('touchmove', (e) => {
      for (const t of e.changedTouches) this.#move(`t${t.identifier}`, t.clientX, t.clientY, DRAG_STRENGTH);
    });
    for (const type of ['touchend', 'touchcancel']) {
      on(type, (e) => {
        for (const t of e.changedTouches) this.#lift(`t${t.identifier}`);
      });
    }
  }

  /**
   * Whether a pointer that went down on `target` went down on the water: on the element itself
   * (or what Ripples put in it), or on an element of it that holds no text of its own and is
   * not a control (a wrapper). Text and controls keep their own drags.
   */
  #onWater(target) {
    if (target === this.#element || target === this.#canvas || target === this.#layersAbove) return true;
    if (!(target instanceof Element) || !this.#element.contains(target)) return false;
    if (target.isContentEditable || target.closest('a, button, input, select, textarea, label, summary')) return false;
    if (INTERACTIVE_TAGS.has(target.tagName)) return false;
    for (const node of target.childNodes) {
      if (node.nodeType === Node.TEXT_NODE && node.textContent.trim() !== '') return false;
    }
    return true;
  }

  /** Pool pixels per CSS pixel, and the canvas's box on screen. */
  #frame() {
    const rect = this.#canvas.getBoundingClientRect();
    const pool = this.#pool;
    const scaleX = rect.width > 0 ? pool.width / rect.width : pool.width / this.#cssSize.cssWidth;
    const scaleY = rect.height > 0 ? pool.height / rect.height : pool.height / this.#cssSize.cssHeight;
    return { rect, scaleX, scaleY };
  }

  #toPool(clientX, clientY) {
    const { rect, scaleX, scaleY } = this.#frame();
    return { x: (clientX - rect.left) * scaleX, y: (clientY - rect.top) * scaleY, scale: scaleX };
  }

  #press(key, clientX, clientY) {
    this.#rouse();
    const point = this.#toPool(clientX, clientY);
    const radius = this.#options.dropRadius * point.scale;
    this.#pool.drop(point.x, point.y, Math.max(1, radius * PRESS_RADIUS), PRESS_STRENGTH);
    this.#lift(key);
    this.#last.set(key, { x: point.x, y: point.y, finger: null, strength: 0 });
  }

  // A moving pointer is a fingertip in the water (a body the pool moves along with it, which
  // leaves a wake at the pointer's speed, not a stamped crease). A new strength (the button
  // went down or up) puts in a new finger where the old one was.
  #move(key, clientX, clientY, strength) {
    this.#rouse();
    const point = this.#toPool(clientX, clientY);
    const last = this.#last.get(key);
    if (last && last.finger !== null && last.strength === strength &&
        this.#pool.moveFinger(last.finger, point.x, point.y)) {
      last.x = point.x;
      last.y = point.y;
      return;
    }
    if (last && last.finger !== null) this.#pool.liftFinger(last.finger);
    const radius = Math.max(1, this.#options.dropRadius * point.scale);
    const from = last ?? point;
    const finger = this.#pool.addFinger(from.x, from.y, radius, strength);
    this.#pool.moveFinger(finger, point.x, point.y);
    this.#last.set(key, { x: point.x, y: point.y, finger, strength });
  }

  /** The pointer `key` left the water: its finger comes out. */
  #lift(key) {
    const last = this.#last.get(key);
    if (last && last.finger !== null) this.#pool.liftFinger(last.finger);
    this.#last.delete(key);
  }

  #alive(method) {
    if (this.#destroyed) {
      throw new Error(`Ripples.${method}: these ripples were destroyed; attach again to use the element`);
    }
  }

  /**
   * Drops a stone at (x, y), in CSS pixels from the element's top-left corner (its padding
   * box), with a radius in CSS pixels (default: dropRadius) and a strength from 1 to 32767
   * (default 96: a clear ring under the natural look; 0 drops nothing). A strength between 0
   * and 1 is jquery.ripples' scale and throws, saying what to pass (theirs times 900).
   */
  drop(x, y, radius = this.#options?.dropRadius, strength = DEFAULT_DROP_STRENGTH) {
    this.#alive('drop');
    if (typeof strength === 'number' && strength > 0 && strength < 1) {
      throw new RangeError(
        `Ripples.drop: strength ${strength} looks like a jquery.ripples strength (0 to 1); here ` +
          `strengths run from 1 to 32767 (${DEFAULT_DROP_STRENGTH}, the default, is a clear ring): ` +
          `for jquery.ripples' ${strength} pass ${Math.max(1, Math.round(strength * JQUERY_STRENGTH_SCALE))} ` +
          `(its strength times ${JQUERY_STRENGTH_SCALE})`,
      );
    }
    const { scaleX, scaleY } = this.#frame();
    try {
      this.#pool.drop(x * scaleX, y * scaleY, Math.max(1, radius * scaleX), strength);
    } catch (error) {
      throw prefixed('Ripples.drop', error);
    }
    this.#rouse();
  }

  /** Stops the water and the frame loop (the last frame stays). */
  pause() {
    this.#alive('pause');
    this.#running = false;
    frameCosts.delete(this);
    if (this.#raf) this.#stopLoop();
  }

  /**
   * Runs the water again, from where it stopped (while the element is out of sight, in a
   * hidden tab or hidden by hide(), it waits for it to show).
   */
  play() {
    this.#alive('play');
    if (this.#running) return;
    this.#running = true;
    this.#wake();
  }

  /**
   * Hides the ripples (as jquery.ripples' hide()): the element shows its own CSS background
   * again and the water stops (no steps, no renders) until show(). A <canvas> given to attach
   * is cleared.
   */
  hide() {
    this.#alive('hide');
    if (this.#hidden) return;
    this.#hidden = true;
    this.#wake();
    if (this.#ownsCanvas) {
      this.#canvas.style.display = 'none';
      this.#layersAbove?.remove();
      this.#layersAbove = null;
      const [saved, priority] = this.#savedStyle['background-image'];
      if (saved) this.#element.style.setProperty('background-image', saved, priority);
      else this.#element.style.removeProperty('background-image');
    } else {
      this.#context.clearRect(0, 0, this.#canvas.width, this.#canvas.height);
    }
  }

  /** Shows the ripples again after hide(), with the water as it was; the loop goes on if it ran. */
  show() {
    this.#alive('show');
    if (!this.#hidden) return;
    this.#hidden = false;
    if (this.#ownsCanvas) {
      this.#canvas.style.display = 'block';
      this.#hideBackground();
    }
    if (this.#video) {
      // The video went on while hidden: its frame of now, under the water as it was.
      this.#composeVideo(this.#pool, this.#cssSize, 'Ripples.show');
      this.#pool.advance(0);
    }
    this.#draw();
    this.#wake();
  }

  /** Whether hide() hides the ripples. */
  get hidden() {
    return this.#hidden;
  }

  /** Whether the element can be seen: on screen, in a visible tab, not hidden by hide(). */
  #inSight() {
    return this.#onScreen && !this.#hidden && document.visibilityState !== 'hidden';
  }

  /**
   * Starts the frame loop when it should run (running and in sight) and does not, on a new
   * time base, so that the time out of sight is not caught up in a burst of steps; stops it
   * when it should not run.
   */
  #wake() {
    const run = this.#running && !this.#asleep && this.#inSight() && this.#element.isConnected;
    if (run && !this.#raf) {
      this.#pool.resetClock();
      this.#raf = requestAnimationFrame(this.#tick);
    } else if (!run && this.#raf) {
      this.#stopLoop();
    }
  }

  /** Stops the frame loop; a size change it was to take is taken now. */
  #stopLoop() {
    cancelAnimationFrame(this.#raf);
    this.#raf = 0;
    frameCosts.delete(this);
    if (this.#sizePending) this.#safely(() => this.#resize(false));
  }

  /** Follows whether the element is on screen and the tab visible, and its removal. */
  #watchSight() {
    const target = this.#element;
    if (typeof IntersectionObserver === 'function') {
      this.#intersection = new IntersectionObserver(
        (entries) =>
          this.#safely(() => {
            this.#onScreen = entries[entries.length - 1].isIntersecting;
            if (!target.isConnected) this.#noticeDetached();
            this.#wake();
          }),
        // A little ahead, so that the water runs before it scrolls in.
        { rootMargin: '64px' },
      );
      this.#intersection.observe(target);
    }
    document.addEventListener('visibilitychange', () => this.#safely(() => this.#wake()), {
      signal: this.#abort.signal,
    });
    // The user's reduced-motion preference stops or lets the rain fall as it changes.
    if (typeof matchMedia === 'function') {
      matchMedia('(prefers-reduced-motion: reduce)').addEventListener(
        'change',
        () =>
          this.#safely(() => {
            this.#configure(this.#pool, this.#cssSize);
            this.#rouse();
          }),
        { signal: this.#abort.signal },
      );
    }
    // A fixed background moves against the element as anything scrolls or the window resizes.
    const moved = () =>
      this.#safely(() => {
        if (!this.#fixedImage) return;
        if (this.#raf) {
          this.#imagePending = true;
        } else if (!this.#hidden) {
          this.#composeImage(this.#pool, this.#cssSize, 'Ripples (background-attachment: fixed)');
          this.#pool.advance(0);
          this.#draw();
        }
      });
    const options = { signal: this.#abort.signal, passive: true, capture: true };
    document.addEventListener('scroll', moved, options);
    window.addEventListener('resize', moved, options);
  }

  /**
   * The element left the document without destroy(): unless it is back within
   * DETACHED_GRACE_MS, the ripples destroy themselves (loop, listeners, wasm memory).
   */
  #noticeDetached() {
    if (this.#detachedTimer) return;
    this.#detachedTimer = setTimeout(() => {
      this.#detachedTimer = 0;
      if (this.#destroyed) return;
      if (this.#element.isConnected) this.#wake();
      else this.destroy();
    }, DETACHED_GRACE_MS);
  }

  /** Whether destroy() was called (every method but destroy() then throws). */
  get destroyed() {
    return this.#destroyed;
  }

  /** Whether the frame loop runs. */
  get running() {
    return this.#running;
  }

  /** The element the ripples are on. */
  get element() {
    return this.#element;
  }

  /**
   * The <video> under the water (videoUrl's, or the element's background <video>), or null:
   * play(), pause() and currentTime work on it as usual, and the water follows.
   */
  get video() {
    return this.#video?.video ?? null;
  }

  /** The options in use (a copy). */
  get options() {
    return { ...this.#options };
  }

  /**
   * Changes options: set({ name: value, ... }), or set(name, value) as jquery.ripples' 'set'
   * does. Bad values throw before anything changes. Returns a promise that settles once a new
   * image, video, obstacles image or sky picture has loaded (at once otherwise); if one fails,
   * the promise rejects, an `error` event fires, and the previous one stays.
   */
  set(changes, value) {
    this.#alive('set');
    if (typeof changes === 'string') changes = { [changes]: value };
    const where = 'Ripples.set';
    const previous = this.#options;
    const options = checkOptions(previous, changes, where);
    const changed = (name) => options[name] !== previous[name];
    this.#options = options;
    try {
      if (changed('quality')) {
        // 'auto' starts over from where it starts; 'high' takes the full pixel ratio.
        frameCosts.delete(this);
        this.#autoRatio = null;
        this.#qualityCeiling = Infinity;
        this.#qualityRetryMs = QUALITY_RETRY_MS;
      }
      if (changed('renderer')) this.#switchRenderer(where);
      if (changed('resolution') || changed('pixelRatio') || changed('quality')) {
        // A hidden element gets its new pool when it shows again.
        const size = this.#measure(where, false);
        if (size) this.#build(size, where);
        else this.#rebuildPending = true;
        if (changed('pixelRatio')) this.#watchPixelRatio();
      } else {
        this.#configure(this.#pool, this.#cssSize);
        // A new mask is put in once it loads (#loadInto); a new horizon or focal length now.
        if ((changed('horizon') || changed('focal')) && !changed('waterMask')) {
          this.#recomposeWater(where);
        }
        // A paused instance shows a new look (or any other setting) now, on the same water; a
        // running one does at its next frame.
        if (!this.#running) {
          this.#pool.advance(0);
          this.#draw();
        }
      }
    } catch (error) {
      // A failed rebuild keeps the old pool: put its settings back as they were.
      this.#options = previous;
      this.#configure(this.#pool, this.#cssSize);
      throw prefixed(where, error);
    }
    this.#rouse();
    if (changed('interactive')) {
      this.#inputAbort?.abort();
      this.#inputAbort = null;
      // Without input no pointer moves its finger again: take every one out.
      for (const key of [...this.#last.keys()]) this.#lift(key);
      if (options.interactive) this.#listenToInput();
    }
    const loads = [];
    for (const [which, option] of [['image', 'imageUrl'], ['obstacles', 'obstacles'], ['sky', 'skyUrl'], ['water', 'waterMask']]) {
      const video = which === 'image' && (changed('videoUrl') || (changed('crossOrigin') && this.#video?.owned));
      if (video || changed(option) || (changed('crossOrigin') && this.#loaded[which])) {
        loads.push(this.#loadInto(which, ++this.#requests[which], where));
      }
    }
    return Promise.all(loads).then(() => undefined);
  }

  /**
   * Loads what option `which` ('image', 'obstacles' or 'sky') names now and puts it into the
   * pool; on failure (reported as an `error` event too) the pool keeps what it had.
   */
  async #loadInto(which, request, where) {
    if (which === 'image') return this.#loadPictureInto(request, where);
    const options = this.#options;
    const { url, what } = {
      image: { url: options.imageUrl ?? this.#cssImage?.url ?? null, what: 'image' },
      obstacles: { url: options.obstacles, what: 'obstacles image' },
      sky: { url: options.skyUrl, what: 'skyUrl' },
      water: { url: options.waterMask, what: 'waterMask' },
    }[which];
    try {
      let loaded = url === null ? null : await loadImage(url, options.crossOrigin, where, what);
      if (this.#destroyed || request !== this.#requests[which]) return; // superseded or gone
      if (which === 'sky' && loaded) loaded = readSky(loaded, where);
      const previous = this.#loaded[which];
      this.#loaded[which] = loaded;
      try {
        this.#compose(which, this.#pool, this.#cssSize, where);
      } catch (error) {
        this.#loaded[which] = previous;
        throw error;
      }
      this.#pool.advance(0);
      this.#draw();
    } catch (error) {
      if (!this.#destroyed) this.#report(error);
      throw error;
    }
  }

  /**
   * #loadInto for what goes under the water (an image or a video: see #loadPicture); the
   * video that was there is let go of once the new picture is in.
   */
  async #loadPictureInto(request, where) {
    const options = this.#options;
    try {
      const pageVideoStays =
        options.videoUrl === null && options.imageUrl === null && this.#pageVideo && this.#video?.video === this.#pageVideo;
      if (pageVideoStays) return;
      const picture = await this.#loadPicture(options, where);
      if (this.#destroyed || request !== this.#requests.image) {
        // Superseded or gone.
        if (picture?.video?.video !== this.#video?.video) picture?.video?.release();
        return;
      }
      const previous = { video: this.#video, image: this.#loaded.image };
      this.#video = picture?.video ?? null;
      this.#loaded.image = picture?.video ? null : picture;
      try {
        this.#composeImage(this.#pool, this.#cssSize, where);
        // A living photograph's water follows its picture's placement.
        if (this.#livingPhotograph()) this.#recomposeWater(where);
      } catch (error) {
        this.#video?.release();
        this.#video = previous.video;
        this.#loaded.image = previous.image;
        throw error;
      }
      previous.video?.release();
      if (this.#video !== previous.video) this.#listenToVideo();
      this.#pool.advance(0);
      this.#draw();
      this.#playVideo(where);
      // A video moves the picture: a sleeping loop runs while it plays.
      this.#rouse();
    } catch (error) {
      if (!this.#destroyed) this.#report(error);
      throw error;
    }
  }

  /** Re-reads the element's size and CSS background (call it after changing them by script). */
  updateSize() {
    this.#alive('updateSize');
    this.#resize(true);
  }

  /**
   * Frame rate and cost over the last second: `fps` (frames the loop ran per second),
   * `stepRenderMs` (mean time in wasm per drawn frame: the solver steps and the render),
   * `drawMs` (mean putImageData time), the pool's size, grid, steps, walls, backend, solver
   * and look, `running` (not paused), `inSight` (running and seen: on screen, the tab
   * visible, not hidden; the loop works only then), `hidden` (hide()), and `quality`: `mode` ('auto' or 'high'), `pixelRatio` (canvas pixels per CSS
   * pixel now), `maxPixelRatio`, `resolution`, `frameMs` (stepRenderMs + drawMs + the video's copies, per drawn frame), `changes`
   * (how often 'auto' changed the pixel ratio), `adapts` (false on a <canvas> given to attach,
   * whose size is the page's, and with WebGL, which always draws every device pixel) and `waterKept` (whether the last new pool took the water of the
   * one before); `renderer` ('webgl' or 'cpu'), `cpuReason` and `asleep` (see below); `video` (null without one): its size, `uploads` (frames put under the
   * water), `uploadMs` (mean main-thread time per frame taken since the last stats() call), `wasmCopies`
   * (frames written into the wasm memory: none while WebGL draws), `copyMs` (main-thread time of those copies
   * per drawn frame), `path` ('webgl': straight from the <video> to a texture; 'videoframe', 'videoframe-scaled'
   * or 'canvas' when the CPU draws), `paused`, `ended`, `currentTime` and `playError` (a refused
   * play()).
   */
  stats() {
    this.#alive('stats');
    const count = Math.min(this.#statCount, STATS_FRAMES);
    const newest = (this.#statCount - 1 + STATS_FRAMES) % STATS_FRAMES;
    const end = this.#statTimes[newest];
    let frames = 0;
    let first = end;
    let work = 0;
    let draw = 0;
    let copies = 0;
    let worked = 0;
    let maxWork = 0;
    for (let i = 0; i < count; i++) {
      const slot = (newest - i + STATS_FRAMES) % STATS_FRAMES;
      const time = this.#statTimes[slot];
      if (end - time > STATS_WINDOW_MS) break;
      frames++;
      first = time;
      copies += this.#statVideo[slot];
      if (this.#statWork[slot] >= 0) {
        worked++;
        work += this.#statWork[slot];
        draw += this.#statDraw[slot];
        maxWork = Math.max(maxWork, this.#statWork[slot]);
      }
    }
    const pool = this.#pool;
    return {
      fps: frames > 1 && end > first ? ((frames - 1) * 1000) / (end - first) : 0,
      stepRenderMs: worked ? work / worked : 0,
      maxStepRenderMs: maxWork,
      drawMs: worked ? draw / worked : 0,
      width: pool.width,
      height: pool.height,
      gridWidth: pool.gridWidth,
      gridHeight: pool.gridHeight,
      steps: pool.steps,
      wallCells: pool.wallCells,
      backend: backend(),
      // Who draws: 'webgl' or 'cpu' (and why the CPU does: 'option', 'no-webgl2',
      // 'canvas-element' or 'context-lost'), whether that WebGL is a software
      // rasterizer (information only); asleep: calm, the loop stopped until the water moves.
      renderer: this.#gl ? 'webgl' : 'cpu',
      cpuReason: this.#gl ? null : this.#cpuReason,
      softwareWebGl: this.#gl ? this.#gl.software : false,
      asleep: this.#asleep,
      solver: this.#options.solver,
      look: this.#options.look,
      running: this.#running,
      // Whether the loop works now: running, on screen, in a visible tab and not hidden.
      inSight: this.#running && this.#inSight(),
      hidden: this.#hidden,
      quality: {
        mode: this.#options.quality,
        pixelRatio: this.#cssSize.ratio,
        maxPixelRatio: this.#ownsCanvas ? this.#maxPixelRatio() : this.#cssSize.ratio,
        resolution: this.#options.resolution,
        frameMs: worked ? (work + draw + copies) / worked : 0,
        changes: this.#qualityChanges,
        adapts: this.#ownsCanvas && this.#options.quality === 'auto' && !this.#gl,
        waterKept: this.#waterKept,
      },
      // copyMs: main-thread ms per drawn frame of copying video frames into the wasm memory
      // (none while WebGL draws: the frames go straight from the <video> to a texture).
      video: this.#video ? { ...this.#video.stats(), copyMs: worked ? copies / worked : 0 } : null,
    };
  }

  /**
   * Removes everything the ripples added (the overlay canvas, listeners, the frame loop, the
   * inline styles) and frees their wasm memory. A <canvas> given to attach keeps its last
   * frame. Calling it again does nothing; any other method afterwards throws.
   */
  destroy() {
    if (this.#destroyed) return;
    this.#teardown();
    attached.delete(this.#element);
  }

  #teardown() {
    this.#destroyed = true;
    this.#running = false;
    frameCosts.delete(this);
    if (this.#raf) cancelAnimationFrame(this.#raf);
    this.#raf = 0;
    this.#abort.abort();
    this.#inputAbort?.abort();
    this.#resizeObserver?.disconnect();
    this.#resizeObserver = null;
    this.#intersection?.disconnect();
    this.#intersection = null;
    clearTimeout(this.#detachedTimer);
    this.#detachedTimer = 0;
    this.#gl?.release();
    this.#gl = null;
    if (this.#ownsCanvas) this.#canvas?.remove();
    this.#restoreStyle();
    this.#video?.release();
    this.#video = null;
    this.#imageView = null;
    this.#pool?.free();
    this.#pool = null;
    this.#imageData = null;
    this.#context = null;
    this.#canvas = null;
    this.#loaded = { image: null, obstacles: null, sky: null, water: null };
    this.#last.clear();
  }
}

export default Ripples;
