// Ripples for the web: water ripples over any element, computed in WebAssembly on the CPU.
//
//   import { Ripples } from './ripples.js';
//   const r = await Ripples.attach(element, { dropRadius: 12, rain: 2 });
//   r.drop(x, y, radius, strength); r.pause(); r.play(); r.hide(); r.show(); r.set({...});
//   r.updateSize(); r.destroy();
//
// This module is the page side of the `ripples-web` crate, and this file its facade: the
// `Ripples` class, its public API, and each frame's work. The water itself (solvers,
// rendering, the time-based step clock, option checks, the CSS background arithmetic) is
// Rust; each frame is one call into it and one draw of a view into the wasm memory. The rest
// is a module per concern, each a small class or a few functions that the facade holds:
//
//   options.js    the options, their defaults and their checks
//   compose.js    what goes under the water (an image, the CSS background, a video), loaded
//                 and laid out on a pool: walls, a living photograph's water, the sky
//   overlay.js    the canvas over an element, and the CSS background layers around it
//   renderer.js   who draws: WebGL2 (gl-renderer.js, gl/) or the CPU, and the switch
//   simulation.js who steps the water: the GPU (gl/simulation.js) or the wasm module
//   input.js      pointer and touch: stones and fingertips in the water
//   loop.js       the requestAnimationFrame loop: play, pause, sleep while the water is calm
//   sight.js      on screen, a visible tab, the element's size, its removal
//   quality.js    frame costs, stats(), quality 'auto' (the pixel ratio a device can hold)
//   video.js      a video frame by frame; css.js, images.js, wasm-loader.js what they say
//
// Out of the box it shows the best-looking water there is on a CPU: the natural look over the
// dispersive solver. That costs more than the classic demo-scene effect, so `quality: 'auto'`
// measures what each frame costs and picks the canvas pixel ratio the device can hold. A new
// pixel ratio or size keeps the water (resampled into the new pool), so the ripples go on.
//
// Errors are ordinary `Error`s whose message names the problem and the value: `attach` and
// `set` reject, the other methods throw, and what goes wrong later (an image that fails to
// reload after a resize) is an `error` event on the instance (an ErrorEvent; unless a listener
// calls preventDefault() it is also logged with console.error). Nothing here lets an
// exception escape into the page's event loop.

import { WasmPool, backend } from './ripples_web.js';
// wasm-loader.js finds the wasm module (next to this file, or the `wasm` option) and explains
// why it could not be loaded.
import { RipplesLoadError, initSource, loadWasm, loadedExports } from './wasm-loader.js';
import { describeElement } from './css.js';
import { DEFAULTS, checkOptions, messageOf, prefixed } from './options.js';
import { Composer, MAX_DEVICE_PIXEL_RATIO, measureElement } from './compose.js';
import { Overlay, checkElement } from './overlay.js';
import { DEFAULT_DROP_STRENGTH, PointerInput, canvasFrame, checkDropStrength } from './input.js';
import { FrameStats, Quality, SIMULATE_SLOW_DEVICE, forgetCost, simulateSlowDevice, slowDevice, slowDown } from './quality.js';
import { Renderer } from './renderer.js';
import { Sight } from './sight.js';
import { FrameLoop } from './loop.js';
import { Simulation, checkStepCount, nextSeed } from './simulation.js';

export { RipplesLoadError };

// Importing this module touches no window, document or WebAssembly (server-side rendering
// imports it); EventTarget is in every browser and Node 15+, and a stand-in elsewhere.
const EventTargetBase = /** @type {typeof EventTarget} */ (typeof EventTarget === 'function' ? EventTarget : class {});

// What WasmPool.frameStatus returns (a number, so that the frame loop allocates nothing).
const FRAME_DRAWN = 1;
const FRAME_FAILED = 2;

const CONSTRUCTING = Symbol('Ripples.attach');
/** Elements with ripples (or being attached), so that one element gets one instance. */
const attached = new WeakMap();

/**
 * Water ripples over one element. Make one with `await Ripples.attach(element, options)`.
 *
 * An EventTarget: `error` events (ErrorEvent) report what fails after attach.
 */
export class Ripples extends EventTargetBase {
  /** @type {HTMLElement} */
  #element;
  /** @type {import('./options.js').Options} */
  #options;
  /** @type {any} the wasm module's exports */
  #exports;
  #ownsCanvas;
  /** @type {Renderer | null} who draws, on which canvas (made by #start) */
  #renderer = null;
  /** @type {Overlay | null} the canvas over the element, unless attach was given a <canvas> */
  #overlay = null;
  /** @type {Composer} what goes under the water */
  #picture;
  /** @type {PointerInput} */
  #input;
  /** @type {Sight | null} */
  #sight = null;
  #stats = new FrameStats();
  #quality = new Quality();
  #simulation = new Simulation();
  /** @type {FrameLoop} */
  #loop;
  /** @type {any} the WasmPool */
  #pool = null;
  /** @type {{ width: number, height: number, cssWidth: number, cssHeight: number, ratio: number }} */
  #cssSize = { width: 0, height: 0, cssWidth: 0, cssHeight: 0, ratio: 1 };
  #seed = nextSeed();
  #abort = new AbortController();
  #destroyed = false;
  #rebuildPending = false;
  // The element's size changed while the loop ran: the next frame takes it (#frame).
  #sizePending = false;
  // The image is laid out on the viewport (background-attachment: fixed), and the page
  // scrolled since it was read: the next frame reads it again.
  #imagePending = false;
  // The resolution the pool was made with: a pool resizes in place only at the same one.
  #poolResolution = 0;
  #waterKept = true;
  // hide(): the element shows its own background and the loop stops until show().
  #hidden = false;

  /**
   * Use `Ripples.attach`.
   * @param {symbol} token
   * @param {HTMLElement} element
   * @param {import('./options.js').Options} options
   * @param {any} exports
   */
  constructor(token, element, options, exports) {
    if (token !== CONSTRUCTING) {
      throw new TypeError('Ripples: use `await Ripples.attach(element, options)` to make ripples');
    }
    super();
    this.#element = element;
    this.#options = options;
    this.#exports = exports;
    this.#ownsCanvas = !(element instanceof HTMLCanvasElement);
    this.#picture = new Composer({
      element,
      ownsCanvas: this.#ownsCanvas,
      exports,
      options: () => this.#options,
      gl: () => this.#gl,
      pool: () => this.#pool,
      size: () => this.#cssSize,
      destroyed: () => this.#destroyed,
      recomposeWater: (where) => this.#recomposeWater(where),
      redraw: () => {
        this.#pool.advance(0);
        this.#draw();
      },
      report: (error) => this.#report(error),
      rouse: () => this.#loop.rouse(),
      safely: (action) => this.#safely(action),
      signal: this.#abort.signal,
      videoFailed: (error) => {
        // A video that can no longer be read (a tainted frame): the water stops and says why.
        if (this.#destroyed) return;
        this.pause();
        this.#report(error);
      },
    });
    this.#loop = new FrameLoop({
      canRun: () => this.#inSight() && element.isConnected,
      ready: this.#frameDue,
      frame: this.#frame,
      started: () => this.#pool.resetClock(),
      stopped: () => {
        forgetCost(this);
        if (this.#sizePending) this.#safely(() => this.#resize(false));
      },
    });
    this.#input = new PointerInput({
      element,
      canvas: () => this.#canvas,
      layersAbove: () => this.#overlay?.layersAbove ?? null,
      pool: () => this.#pool,
      cssSize: () => this.#cssSize,
      dropRadius: () => this.#options.dropRadius,
      rouse: () => this.#loop.rouse(),
      safely: (action) => this.#safely(action),
    });
  }

  /** The WebGL2 renderer when the GPU draws, else null (the CPU). */
  get #gl() {
    return this.#renderer?.gl ?? null;
  }

  /** The canvas the water is drawn on. */
  get #canvas() {
    return /** @type {Renderer} */ (this.#renderer).canvas;
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
   * @param {any} [options]
   */
  static async init(options) {
    await loadWasm(initSource(options, 'Ripples.init'), 'Ripples.init');
  }

  /**
   * A test hook, not in the published types (see quality.js's simulateSlowDevice).
   * @param {number} msPerMegapixel
   */
  static [SIMULATE_SLOW_DEVICE](msPerMegapixel) {
    simulateSlowDevice(msPerMegapixel);
  }

  /** @returns {number} the bytes of wasm memory in use by the module (0 before it is loaded) */
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
   * @param {Element} element
   * @param {any} [options]
   * @returns {Promise<Ripples>}
   */
  static async attach(element, options = {}) {
    const where = 'Ripples.attach';
    checkElement(element, where);
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
      if (ripples) ripples.#teardown();
      attached.delete(element);
      throw error;
    }
  }

  /** @param {string} where */
  async #start(where) {
    const element = this.#element;
    const options = this.#options;
    const picture = this.#picture;
    if (!this.#ownsCanvas && !(/** @type {HTMLCanvasElement} */ (element)).getContext('2d')) {
      throw new Error(`${where}: ${describeElement(element)} already has another kind of context (WebGL?); give Ripples a fresh canvas`);
    }
    await picture.loadFirst(options, where);
    this.#picture.listenToVideo();
    const size = this.#measure(where);
    if (this.#ownsCanvas) this.#overlay = new Overlay(element, picture.pageVideo);
    this.#renderer = new Renderer(
      this.#overlay?.canvas ?? /** @type {HTMLCanvasElement} */ (element),
      this.#ownsCanvas,
      options.renderer,
      () => this.#safely(() => this.#useCpu('context-lost')),
    );
    this.#build(size, where);
    this.#hideBackground();
    if (options.interactive) this.#input.listen();
    this.#watchSight();
    this.#watchSize();
    this.play();
    this.#picture.playVideo(where);
    this.#loop.rouse();
  }

  /**
   * The CPU draws from now on (`reason`: see Renderer's cpuReason), over the same water,
   * which the pool keeps (a lost WebGL context, or the renderer option).
   * @param {import('./renderer.js').CpuReason} reason
   */
  #useCpu(reason) {
    if (!this.#renderer?.toCpu(reason)) return;
    this.#pool.setGpu(false);
    this.#simulation.choose(this.#pool, null, this.#options, reason);
    // The video's frame went to the lost renderer only: the CPU reads it from the pool's image.
    if (this.#picture.video) this.#picture.composeVideo(this.#pool, this.#cssSize, 'Ripples');
    this.#pool.advance(0);
    this.#draw();
    this.#loop.rouse();
  }

  /**
   * The renderer option changed: WebGL2 on a fresh canvas, or the CPU, over the same water.
   * @param {string} where
   */
  #switchRenderer(where) {
    if (this.#options.renderer === 'cpu') {
      this.#useCpu('option');
      return;
    }
    if (!this.#renderer?.toGl()) return;
    const size = this.#measure(where, false);
    if (size) this.#build(size, where);
  }

  /**
   * The pool size for the element now (see measureElement); null: hidden for now, keep the
   * pool (when not `required`).
   * @param {string} where
   */
  #measure(where, required = true) {
    return measureElement(this.#element, this.#ownsCanvas, this.#ownsCanvas ? this.#pixelRatio() : 1, where, required);
  }

  /** The most canvas pixels per CSS pixel: the pixelRatio option, else the screen's. */
  #maxPixelRatio() {
    return this.#options.pixelRatio ?? Math.min(MAX_DEVICE_PIXEL_RATIO, window.devicePixelRatio || 1);
  }

  /** Canvas pixels per CSS pixel now: the most, or what quality 'auto' chose below it. */
  #pixelRatio() {
    const max = this.#maxPixelRatio();
    if (this.#options.quality !== 'auto' || this.#gl) return max;
    return this.#quality.ratio(max);
  }

  /**
   * A pool for `size`, configured, with the image, walls and sky drawn into it: the same pool
   * resized in place (its water resampled, its memory reused) when the resolution is the
   * same, else a new pool that takes the old one's water.
   */
  #build(size, where, inFrame = false) {
    const resolution = this.#picture.resolutionFor(size, where);
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
      this.#picture.composeAll(pool, size, where);
      this.#simulation.choose(pool, this.#gl, this.#options, this.#renderer?.cpuReason);
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
    this.#loop.rouse();
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
    this.#picture.composeAll(pool, size, where);
    if (inFrame) return;
    pool.advance(0);
    this.#draw();
  }

  /** What follows a pool of a new size: the canvas, and the state that belonged to the old size. */
  #sized(size) {
    this.#cssSize = size;
    this.#rebuildPending = false;
    this.#input.forget();
    this.#quality.newPool();
    this.#renderer?.resize(size.width, size.height);
  }

  /**
   * The water again after its options or picture changed: in the same pool, or in a new one
   * when the plane grid needs another resolution (#resolutionFor).
   */
  #recomposeWater(where) {
    const size = this.#cssSize;
    if (this.#picture.resolutionFor(size, where) !== this.#poolResolution) this.#build(size, where);
    else this.#picture.composeWater(this.#pool, size, where);
  }

  /** Puts the pool's frame on the canvas (see Renderer.draw). */
  #draw() {
    if (this.#hidden) return;
    this.#renderer?.draw(this.#pool, this.#exports.memory, this.#options.look);
  }

  /**
   * At the top of a frame: whether the loop goes on. Out of sight it stops here (FrameLoop.wake
   * starts it again); taken out of the document without destroy(), it does no work, and the
   * ripples are destroyed unless put back.
   * @param {number} _now
   */
  #frameDue = (_now) => {
    if (!this.#loop.running || !this.#inSight()) {
      forgetCost(this);
      return false;
    }
    if (!this.#element.isConnected) {
      forgetCost(this);
      this.#sight?.noticeDetached(this.#detachedLong);
      return false;
    }
    return true;
  };

  /**
   * One frame: a size or fixed background that changed, the video's frame, the pool's steps
   * and render (FRAME_DRAWN when it drew), the draw, quality 'auto' and the calm check.
   * @param {number} now
   */
  #frame = (now) => {
    try {
      const canvas = this.#canvas;
      if (!this.#ownsCanvas && (canvas.width !== this.#pool.width || canvas.height !== this.#pool.height)) {
        this.#resize(true);
      } else if (this.#sizePending) {
        // A size beyond the limits is an error event; the water goes on at the size it had.
        this.#safely(() => this.#resize(false, true));
      } else if (this.#imagePending) {
        this.#imagePending = false;
        this.#safely(() => this.#picture.composeImage(this.#pool, this.#cssSize, 'Ripples (background-attachment: fixed)'));
      }
      const pool = this.#pool;
      // Times go straight into the stats arrays: a double held in a variable of code that V8
      // has not optimized yet is a heap object, and the frame loop is to allocate as little as
      // it can (the timestamps performance.now() returns are such objects too, unavoidably).
      const stats = this.#stats;
      const slot = stats.begin(now);
      const work = stats.work;
      const draw = stats.draw;
      const copy = stats.video;
      // A new video frame under the water, and what the video's copies took since the last frame.
      copy[slot] = this.#picture.videoFrame(pool, this.#cssSize);
      work[slot] = performance.now();
      const status = pool.frameStatus(now);
      if (status === FRAME_FAILED) throw new Error(`Ripples: ${pool.takeError()}`);
      if (status === FRAME_DRAWN) {
        if (slowDevice()) slowDown(work[slot], pool.width * pool.height);
        draw[slot] = performance.now();
        this.#draw();
        work[slot] = draw[slot] - work[slot];
        draw[slot] = performance.now() - draw[slot];
        // quality 'auto': at the end of each window, perhaps another pixel ratio (a new pool
        // that takes the water of the old one).
        const mean = this.#quality.measure(stats, slot);
        if (mean >= 0) this.#adaptTo(mean, stats.times[slot]);
        // The first frame after the loop starts (calm water at attach sleeps at once), then
        // every few (FrameLoop.calmCheckDue).
        if (this.#loop.calmCheckDue()) this.#sleepIfCalm();
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
   * calm water does, and nothing runs until FrameLoop.rouse.
   */
  #sleepIfCalm() {
    const video = this.#picture.video?.video;
    if ((video && (!video.paused || video.seeking || this.#picture.video.resized)) || !this.#pool.isCalm()) return;
    this.#pool.calm();
    this.#pool.advance(0);
    this.#draw();
    this.#loop.sleep();
  }

  /** An `error` event; logged unless a listener calls preventDefault(). */
  #report(error) {
    const message = messageOf(error);
    const event = new ErrorEvent('error', { message, error, cancelable: true });
    if (this.dispatchEvent(event)) console.error(message);
  }

  /** Follows the element's size and the screen's pixel ratio (see Sight). */
  #watchSize() {
    if (this.#ownsCanvas) {
      // While the loop runs, the next frame takes the new size (the canvas is stretched to the
      // new box until then, for one frame) and renders it once, with its steps; otherwise now.
      this.#sight?.watchSize(() => {
        if (this.#loop.scheduled) this.#sizePending = true;
        else this.#resize(false);
      });
    }
    this.#watchPixelRatio();
  }

  /** For browsers whose ResizeObserver does not see device pixels. */
  #watchPixelRatio() {
    if (!this.#ownsCanvas || this.#options.pixelRatio !== null) return;
    this.#sight?.watchPixelRatio(() => {
      this.#resize(false);
      this.#watchPixelRatio();
    });
  }

  /** @param {() => void} action */
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
    if (!this.#hidden && always) this.#hideBackground();
    if (same) {
      this.#cssSize = size;
      this.#picture.composeImage(this.#pool, size, where);
      this.#picture.composeObstacles(this.#pool, size, where);
      this.#picture.configure(this.#pool, size);
      this.#pool.advance(0);
      this.#draw();
    } else {
      this.#build(size, where, inFrame);
    }
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
   * @param {number} x
   * @param {number} y
   * @param {number} [radius]
   * @param {number} [strength]
   */
  drop(x, y, radius = this.#options?.dropRadius, strength = DEFAULT_DROP_STRENGTH) {
    this.#alive('drop');
    checkDropStrength(strength);
    const { scaleX, scaleY } = canvasFrame(this.#canvas, this.#pool, this.#cssSize);
    try {
      this.#pool.drop(x * scaleX, y * scaleY, Math.max(1, radius * scaleX), strength);
    } catch (error) {
      throw prefixed('Ripples.drop', error);
    }
    this.#loop.rouse();
  }

  /** A paused instance steps its water n steps (0 to 6000, rain falling), draws once. @param {number} n */
  step(n) {
    this.#alive('step');
    if (this.#loop.running) throw new Error('Ripples.step: the water is playing; pause() it first');
    this.#pool.advance(checkStepCount(n));
    this.#draw();
  }

  /** Stops the water and the frame loop (the last frame stays). */
  pause() {
    this.#alive('pause');
    forgetCost(this);
    this.#loop.pause();
  }

  /**
   * Runs the water again, from where it stopped (while the element is out of sight, in a
   * hidden tab or hidden by hide(), it waits for it to show).
   */
  play() {
    this.#alive('play');
    this.#loop.play();
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
    this.#loop.wake();
    if (this.#ownsCanvas) {
      this.#canvas.style.display = 'none';
      this.#overlay?.showBackground();
    } else {
      this.#renderer?.clear();
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
    if (this.#picture.video) {
      // The video went on while hidden: its frame of now, under the water as it was.
      this.#picture.composeVideo(this.#pool, this.#cssSize, 'Ripples.show');
      this.#pool.advance(0);
    }
    this.#draw();
    this.#loop.wake();
  }

  /** Whether hide() hides the ripples. */
  get hidden() {
    return this.#hidden;
  }

  /** Whether the element can be seen: on screen, in a visible tab, not hidden by hide(). */
  #inSight() {
    return !this.#hidden && (this.#sight ? this.#sight.visible : document.visibilityState !== 'hidden');
  }

  /**
   * Takes the element's CSS background off, under the overlay canvas (see
   * Overlay.hideBackground); nothing on a <canvas> given to attach.
   */
  #hideBackground() {
    this.#overlay?.hideBackground(this.#canvas, this.#picture.cssImage);
  }

  /**
   * quality 'auto' at the end of a window of mean cost `mean` (ms per drawn frame), at time
   * `now`: the pixel ratio it chooses, in a new pool that takes the old one's water.
   * @param {number} mean
   * @param {number} now
   */
  #adaptTo(mean, now) {
    // Every instance counts its cost; those with quality 'auto' on a canvas of their own adapt.
    const adapts = this.#ownsCanvas && this.#options.quality === 'auto' && !this.#gl;
    const next = this.#quality.choose(this, mean, now, adapts, this.#pixelRatio(), this.#maxPixelRatio());
    if (next === null) return;
    const size = this.#measure('Ripples (quality auto)', false);
    if (size) this.#build(size, 'Ripples (quality auto)');
  }

  /** Follows whether the element is on screen and the tab visible, and its removal (see Sight). */
  #watchSight() {
    this.#sight = new Sight(this.#element, this.#abort.signal, {
      safely: (action) => this.#safely(action),
      changed: () => this.#loop.wake(),
      detachedLong: this.#detachedLong,
      // The user's reduced-motion preference stops or lets the rain fall as it changes.
      motionPreference: () => {
        this.#picture.configure(this.#pool, this.#cssSize);
        this.#loop.rouse();
      },
      // A fixed background moves against the element as anything scrolls or the window resizes.
      scrolled: () => {
        if (!this.#picture.fixedImage) return;
        if (this.#loop.scheduled) {
          this.#imagePending = true;
        } else if (!this.#hidden) {
          this.#picture.composeImage(this.#pool, this.#cssSize, 'Ripples (background-attachment: fixed)');
          this.#pool.advance(0);
          this.#draw();
        }
      },
    });
  }

  /**
   * The element left the document without destroy() a grace period ago (see Sight): back, the
   * loop goes on; still out, the ripples destroy themselves (loop, listeners, wasm memory).
   */
  #detachedLong = () => {
    if (this.#destroyed) return;
    if (this.#element.isConnected) this.#loop.wake();
    else this.destroy();
  };

  /** Whether destroy() was called (every method but destroy() then throws). */
  get destroyed() {
    return this.#destroyed;
  }

  /** Whether the frame loop runs. */
  get running() {
    return this.#loop.running;
  }

  /** The element the ripples are on. */
  get element() {
    return this.#element;
  }

  /**
   * The <video> under the water (videoUrl's, or the element's background <video>), or null:
   * play(), pause() and currentTime work on it as usual, and the water follows.
   * @returns {HTMLVideoElement | null}
   */
  get video() {
    return this.#picture.video?.video ?? null;
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
   * @param {any} changes the options to change, or one option's name (checked at run time)
   * @param {unknown} [value] that option's value, with a name
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
        forgetCost(this);
        this.#quality.restart();
      }
      if (changed('renderer')) this.#switchRenderer(where);
      if (changed('resolution') || changed('pixelRatio') || changed('quality')) {
        // A hidden element gets its new pool when it shows again.
        const size = this.#measure(where, false);
        if (size) this.#build(size, where);
        else this.#rebuildPending = true;
        if (changed('pixelRatio')) this.#watchPixelRatio();
      } else {
        this.#picture.configure(this.#pool, this.#cssSize);
        this.#simulation.choose(this.#pool, this.#gl, options, this.#renderer?.cpuReason);
        // A new mask is put in once it loads (Composer.loadInto); a new horizon or focal length now.
        if ((changed('horizon') || changed('focal')) && !changed('waterMask')) {
          this.#recomposeWater(where);
        }
        // A paused instance shows a new look (or any other setting) now, on the same water; a
        // running one does at its next frame.
        if (!this.#loop.running) {
          this.#pool.advance(0);
          this.#draw();
        }
      }
    } catch (error) {
      // A failed rebuild keeps the old pool: put its settings back as they were.
      this.#options = previous;
      this.#picture.configure(this.#pool, this.#cssSize);
      throw prefixed(where, error);
    }
    this.#loop.rouse();
    if (changed('interactive')) {
      // Without input no pointer moves its finger again: every one comes out.
      this.#input.stop();
      if (options.interactive) this.#input.listen();
    }
    return this.#picture.reload(changed, where);
  }

  /** Re-reads the element's size and CSS background (call it after changing them by script). */
  updateSize() {
    this.#alive('updateSize');
    this.#resize(true);
  }

  /**
   * Frame rate and cost over the last second, the pool, who draws, whether the loop runs,
   * what quality 'auto' chose and the video's figures: see RipplesStats in ripples.d.ts,
   * which names and explains every field.
   * @returns {import('./package/ripples.js').RipplesStats}
   */
  stats() {
    this.#alive('stats');
    const { frames, first, end, work, draw, copies, worked, maxWork } = this.#stats.lastSecond();
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
      cpuReason: this.#gl ? null : this.#renderer?.cpuReason,
      ...this.#simulation.stats(), // who steps the water, and why the CPU does
      softwareWebGl: this.#gl ? this.#gl.software : false,
      uploadedBytes: this.#gl ? this.#gl.uploadedBytes : 0,
      asleep: this.#loop.asleep,
      solver: this.#options.solver,
      look: this.#options.look,
      running: this.#loop.running,
      // Whether the loop works now: running, on screen, in a visible tab and not hidden.
      inSight: this.#loop.running && this.#inSight(),
      hidden: this.#hidden,
      quality: {
        mode: this.#options.quality,
        pixelRatio: this.#cssSize.ratio,
        maxPixelRatio: this.#ownsCanvas ? this.#maxPixelRatio() : this.#cssSize.ratio,
        resolution: this.#options.resolution,
        frameMs: worked ? (work + draw + copies) / worked : 0,
        changes: this.#quality.changes,
        adapts: this.#ownsCanvas && this.#options.quality === 'auto' && !this.#gl,
        waterKept: this.#waterKept,
      },
      // copyMs: main-thread ms per drawn frame of copying video frames into the wasm memory
      // (none while WebGL draws: the frames go straight from the <video> to a texture).
      video: this.#picture.video ? { ...this.#picture.video.stats(), copyMs: worked ? copies / worked : 0 } : null,
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
    this.#loop.release();
    forgetCost(this);
    this.#abort.abort();
    this.#input.release();
    this.#sight?.release();
    this.#sight = null;
    if (this.#renderer) this.#renderer.release();
    else this.#overlay?.canvas.remove();
    this.#renderer = null;
    this.#overlay?.restore();
    this.#picture.release();
    this.#pool?.free();
    this.#pool = null;
  }
}

export default Ripples;
