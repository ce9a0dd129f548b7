// What goes under the water, and how it is laid out on a pool: the picture (imageUrl's image,
// the element's CSS background image, or a video: videoUrl's or a hero's background <video>)
// placed where CSS puts it, the walls, a living photograph's water region and camera, the
// sky, and the options a pool is configured with. One Composer per instance holds what was
// loaded and found on the element; it writes into whichever pool it is handed (a new pool is
// composed before it replaces the old one), and reads the instance's options and renderer
// through a ComposerHost, since both change as the instance goes on.

import { WasmPool, backgroundLayout, limits } from './ripples_web.js';
import { VideoSource } from './video.js';
import { backgroundVideo, cssBackground, describeElement, layerStyle, objectFitSize, snapped } from './css.js';
import { absoluteUrl, corsMode, loadImage, readPixels, readSky, scratchContext } from './images.js';
import { describeValue, messageOf } from './options.js';

// With WebGL2 the canvas has the element's full device pixels (at most
// MAX_DEVICE_PIXEL_RATIO per CSS pixel) and the grid is coarser by a whole number of pixels
// per cell, so that it has at most about GPU_GRID_CELLS cells: the solver's cost stays that of
// a small grid on any screen, and the shaders interpolate the surface smoothly between cells.
export const MAX_DEVICE_PIXEL_RATIO = 3;
const GPU_GRID_CELLS = 160000;

/**
 * Pool pixels per grid cell for a WebGL2 pool of `width x height` pixels.
 * @param {number} width
 * @param {number} height
 * @param {number} resolution
 */
function gpuResolution(width, height, resolution) {
  return Math.max(resolution, Math.ceil(Math.sqrt((width * height) / GPU_GRID_CELLS)));
}

/** Whether the user asks for reduced motion (prefers-reduced-motion: reduce). */
function prefersReducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * A pool's size: canvas pixels, the CSS pixels they cover, and canvas pixels per CSS pixel.
 * @typedef {{ width: number, height: number, cssWidth: number, cssHeight: number, ratio: number }} Size
 */

/**
 * The pool size for the element now: canvas pixels, and the CSS size they cover. An element
 * without size is an error when `required`, else null (hidden for now: keep the pool).
 * `ownsCanvas`: an element under an overlay canvas of `ratio` canvas pixels per CSS pixel;
 * else a <canvas> given to attach, whose size is the page's.
 * @param {HTMLElement} element
 * @param {boolean} ownsCanvas
 * @param {number} ratio
 * @param {string} where
 * @returns {Size | null}
 */
export function measureElement(element, ownsCanvas, ratio, where, required = true) {
  let cssWidth;
  let cssHeight;
  let width;
  let height;
  if (ownsCanvas) {
    cssWidth = element.clientWidth;
    cssHeight = element.clientHeight;
    width = Math.round(cssWidth * ratio);
    height = Math.round(cssHeight * ratio);
  } else {
    const canvas = /** @type {HTMLCanvasElement} */ (element);
    width = canvas.width;
    height = canvas.height;
    const rect = element.getBoundingClientRect();
    cssWidth = rect.width || width;
    cssHeight = rect.height || height;
    ratio = width / cssWidth;
  }
  if (width < 1 || height < 1) {
    if (!required) return null;
    const what = ownsCanvas ? `${cssWidth}x${cssHeight} CSS pixels` : `${width}x${height} pixels`;
    throw new Error(`${where}: ${describeElement(element)} has no size (${what}); attach once it is displayed and laid out`);
  }
  const [maxSide, maxPixels] = limits();
  if (width > maxSide || height > maxSide || width * height > maxPixels) {
    const css = ownsCanvas ? ` (${cssWidth}x${cssHeight} CSS pixels at pixel ratio ${ratio})` : '';
    throw new Error(
      `${where}: ${describeElement(element)} needs a ${width}x${height} pool${css}, larger than ` +
        `the limit of ${maxSide} pixels per side and ${maxPixels} pixels in all (4096x4096); ` +
        `use a smaller element${ownsCanvas ? ' or a lower pixelRatio' : ' or canvas'}`,
    );
  }
  return { width, height, cssWidth, cssHeight, ratio };
}

/**
 * What a Composer reads of its instance.
 * @typedef {object} ComposerHost
 * @property {HTMLElement} element
 * @property {boolean} ownsCanvas false for a <canvas> given to attach
 * @property {{ memory: WebAssembly.Memory }} exports the wasm module's
 * @property {() => import('./options.js').Options} options the options in use
 * @property {() => import('./gl-renderer.js').GlRenderer | null} gl the WebGL2 renderer, or null (the CPU draws)
 * @property {() => any} pool the instance's WasmPool now
 * @property {() => Size} size the size of that pool
 * @property {() => boolean} destroyed whether destroy() was called
 * @property {(where: string) => void} recomposeWater the water region again, in a new pool if it needs one
 * @property {() => void} redraw the pool renders (no steps) and the frame is drawn
 * @property {(error: unknown) => void} report an `error` event
 * @property {() => void} rouse a sleeping frame loop runs again
 * @property {(action: () => void) => void} safely runs `action`, reporting what it throws
 * @property {AbortSignal} signal aborts when the instance is destroyed
 * @property {(error: unknown) => void} videoFailed the video can no longer be read (a tainted frame)
 */

export class Composer {
  #host;
  /** @type {Uint8Array | null} */
  #imageView = null;
  // The latest load of each kind (loadInto), so that a slower earlier one is dropped.
  #requests = { image: 0, obstacles: 0, sky: 0, water: 0 };
  // What the options' URLs loaded, each { image, url, absolute, cors } (the sky its pixels
  // instead of the image: see readSky), or null: the built-in tiles, no walls, the built-in sky.
  /** @type {{ image: any, obstacles: any, sky: any, water: any }} */
  loaded = { image: null, obstacles: null, sky: null, water: null };
  /** @type {{ url: string, index: number } | null} the element's CSS background image as attach found it */
  cssImage = null;
  // The video under the water (a VideoSource), or null; the page's own background <video>
  // when attach found one (the canvas goes over it, and the element's background stays).
  /** @type {any} */
  video = null;
  /** @type {HTMLVideoElement | null} */
  pageVideo = null;
  // The image is laid out on the viewport (background-attachment: fixed): the page's
  // scrolling moves it against the element (see Ripples' sight).
  fixedImage = false;
  // The pool has a water region from setWater (a living photograph's): dropped by a resize,
  // and set again (keeping the water) by composeWater.
  hasWater = false;

  /** @param {ComposerHost} host */
  constructor(host) {
    this.#host = host;
  }

  /**
   * What attach puts under the water, loaded before the pool is made: the element's CSS
   * background image and background <video> (read before the overlay hides the background),
   * the picture, the walls, the sky and the water mask, all at once. Rejects with the first
   * failure, having let go of what loaded.
   * @param {import('./options.js').Options} options
   * @param {string} where
   */
  async loadFirst(options, where) {
    const element = this.#host.element;
    const ownsCanvas = this.#host.ownsCanvas;
    // The image when no imageUrl is given, and in any case the layer whose size and position
    // place the image.
    this.cssImage = ownsCanvas ? cssBackground(element) : null;
    this.pageVideo = ownsCanvas ? backgroundVideo(element) : null;
    const settled = await Promise.allSettled([
      this.loadPicture(options, where),
      options.obstacles === null ? null : loadImage(options.obstacles, options.crossOrigin, where, 'obstacles image'),
      options.skyUrl === null ? null : loadImage(options.skyUrl, options.crossOrigin, where, 'skyUrl'),
      options.waterMask === null ? null : loadImage(options.waterMask, options.crossOrigin, where, 'waterMask'),
    ]);
    const [loaded, obstacles, sky, water] = settled.map((result) => (result.status === 'fulfilled' ? result.value : null));
    // A video that loaded while something else failed is let go of (teardown does not know it).
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure || !element.isConnected) {
      loaded?.video?.release();
      if (failure) throw (/** @type {PromiseRejectedResult} */ (failure)).reason;
      throw new Error(`${where}: ${describeElement(element)} was removed from the document while its image loaded`);
    }
    this.video = loaded?.video ?? null;
    this.loaded = { image: loaded?.image ? loaded : null, obstacles, sky: sky && readSky(sky, where), water };
  }

  /**
   * Everything a pool of `size` needs, in it: the options, the picture, the walls, the water
   * region and the sky.
   * @param {any} pool
   * @param {Size} size
   * @param {string} where
   */
  composeAll(pool, size, where) {
    this.configure(pool, size);
    this.composeImage(pool, size, where);
    this.composeObstacles(pool, size, where);
    this.composeWater(pool, size, where);
    this.composeSky(pool);
  }

  /**
   * Loads what goes under the water for `options`: videoUrl's video, else imageUrl's image,
   * else the element's background <video>, else its CSS background image; as `{ video }` (a
   * VideoSource), an image (see loadImage) or null (the built-in tiles).
   */
  async loadPicture(options, where) {
    if (options.videoUrl !== null) {
      const absolute = absoluteUrl(options.videoUrl, where, 'video');
      const cors = corsMode(absolute, options.crossOrigin);
      return { video: await VideoSource.load(options.videoUrl, absolute, cors, where) };
    }
    if (options.imageUrl === null && this.pageVideo) {
      return { video: await VideoSource.adopt(this.pageVideo, where) };
    }
    const url = options.imageUrl ?? this.cssImage?.url ?? null;
    return url === null ? null : loadImage(url, options.crossOrigin, where, 'image');
  }

  /**
   * The options into `pool` of `size` (the natural look's lengths in CSS pixels; no rain
   * while the user asks for reduced motion).
   * @param {any} pool
   * @param {Size} size
   */
  configure(pool, size) {
    const options = this.#host.options();
    this.#host.gl()?.invalidateConstants();
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
    pool.setRain(this.motionReduced() ? 0 : options.rain);
  }

  /** Whether the user's prefers-reduced-motion stops the rain (see the reducedMotion option). */
  motionReduced() {
    return this.#host.options().reducedMotion === 'auto' && prefersReducedMotion();
  }

  /** Draws the image (or the video's frame) where CSS (or a cover fit) puts it, and hands the pixels to the pool. */
  composeImage(pool, size, where) {
    if (this.video) {
      this.composeVideo(pool, size, where);
      return;
    }
    this.#host.gl()?.usePoolImage();
    const loaded = this.loaded.image;
    if (!loaded) {
      pool.useDefaultImage();
      return;
    }
    const { width, height, cssWidth, cssHeight } = size;
    const { image } = loaded;
    const context = scratchContext(width, height);
    const place = this.placement(cssWidth, cssHeight, image.naturalWidth, image.naturalHeight, false);
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
  placement(cssWidth, cssHeight, naturalWidth, naturalHeight, isVideo) {
    let place = null;
    this.fixedImage = false;
    const index = this.cssImage?.index ?? (isVideo && this.#host.ownsCanvas ? 0 : -1);
    const layer = index >= 0 ? layerStyle(this.#host.element, index) : null;
    if (layer && (this.cssImage || layer.size !== 'auto')) {
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
          const rect = this.#host.element.getBoundingClientRect();
          place[0] -= rect.left + this.#host.element.clientLeft;
          place[1] -= rect.top + this.#host.element.clientTop;
          this.fixedImage = true;
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
  composeVideo(pool, size, where) {
    const { width, height, cssWidth, cssHeight } = size;
    const video = this.video;
    const scaleX = width / cssWidth;
    const scaleY = height / cssHeight;
    let place;
    let clip = { x: 0, y: 0, width, height };
    if (!video.owned && video.video === this.pageVideo) {
      this.fixedImage = false;
      const element = this.#host.element;
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
      place = this.placement(cssWidth, cssHeight, video.width, video.height, true);
    }
    const rect = [place[0] * scaleX, place[1] * scaleY, place[2] * scaleX, place[3] * scaleY].map(snapped);
    video.place(width, height, rect, clip);
    // WebGL takes the frame straight from the <video>; the CPU reads it from `pool`'s image,
    // which may be a new pool, not yet this.#host.pool() (see #build).
    if (this.#host.gl()) video.toTexture(this.#host.gl(), where);
    else video.drawNow(() => this.viewOf(pool), where);
    pool.imageChanged();
  }

  /**
   * A video that plays, seeks or loads a frame changes the water's picture: a sleeping loop
   * runs again. Listened to on the <video> itself (videoUrl's is not in the document), for as
   * long as it is the one under the water.
   */
  listenToVideo() {
    const source = this.video;
    const video = source?.video;
    if (!video) return;
    source.onNewFrame = () => this.#host.safely(() => this.video === source && this.#host.rouse());
    for (const type of ['play', 'playing', 'seeking', 'seeked', 'loadeddata']) {
      video.addEventListener(type, () => this.#host.safely(() => this.video?.video === video && this.#host.rouse()), {
        signal: this.#host.signal,
      });
    }
  }

  /**
   * Plays the video under the water if it is paused (see VideoSource.play); a refusal is an
   * `error` event, after attach or set has returned, so that a listener added then hears it.
   * @param {string} where
   */
  playVideo(where) {
    this.video?.play((/** @type {unknown} */ error) => setTimeout(() => !this.#host.destroyed() && this.#host.report(error)), where);
  }

  /**
   * The video's part of a frame, before the pool steps: a frame of another size is laid out
   * again, a new frame goes under the water (straight from the <video> to the WebGL texture,
   * or copied into the pool's image for the CPU). Returns the main-thread milliseconds of the
   * video's copies since the frame before (this frame's, and the end of one that finished
   * since): 0 without a video.
   * @param {any} pool
   * @param {Size} size
   */
  videoFrame(pool, size) {
    const video = this.video;
    if (video === null) return 0;
    if (video.resized) this.composeVideo(pool, size, 'Ripples (video)');
    else if (video.takeNewFrame()) {
      const gl = this.#host.gl();
      if (gl) {
        // Straight from the <video> to the picture texture; the pool only renders again.
        video.toTexture(gl, 'Ripples (video)');
        pool.imageChanged();
      } else {
        video.upload(this.#imageTarget, this.#imageChanged, this.#videoFailed, 'Ripples (video)');
      }
    }
    return video.takeSpentMs();
  }

  /** The view of the instance's pool's image that video frames are written through. */
  #imageTarget = () => this.viewOf(this.#host.pool());

  /** A video frame is in the pool's image: the next frame renders over it. */
  #imageChanged = () => {
    this.#host.pool()?.imageChanged();
    // A copy that ends after the loop went to sleep still shows.
    this.#host.rouse();
  };

  /** @param {unknown} error */
  #videoFailed = (error) => this.#host.videoFailed(error);

  /** A view of `pool`'s image in the wasm memory (kept; made again when the pool or the memory changed). */
  viewOf(pool) {
    const buffer = this.#host.exports.memory.buffer;
    const view = this.#imageView;
    if (!view || view.buffer !== buffer || view.byteOffset !== pool.imagePtr || view.length !== pool.imageLen) {
      this.#imageView = new Uint8Array(buffer, pool.imagePtr, pool.imageLen);
    }
    return this.#imageView;
  }

  composeObstacles(pool, size, where) {
    this.#host.gl()?.invalidateConstants();
    const loaded = this.loaded.obstacles;
    if (!loaded) {
      pool.clearObstacles();
      return;
    }
    const context = scratchContext(size.width, size.height);
    context.drawImage(loaded.image, 0, 0, size.width, size.height);
    pool.setObstacles(readPixels(context, size.width, size.height, loaded, where, 'obstacles image'));
  }

  /** Whether the options make a living photograph (a water mask or a horizon). */
  livingPhotograph() {
    return this.#host.options().waterMask !== null || this.#host.options().horizon !== null;
  }

  /**
   * What pool.setWater takes for a living photograph at `size`: the mask drawn where the
   * picture is (empty without one), the horizon and focal length scaled from the picture's
   * pixels to the pool's as the picture is placed (NaN when not given), and the placed size.
   */
  waterArguments(size, where) {
    const options = this.#host.options();
    const picture = this.loaded.image;
    if (!picture || this.video) {
      throw new Error(
        `${where}: waterMask (${describeValue(options.waterMask)}) and horizon (${describeValue(options.horizon)}) ` +
          `need a picture under the water (imageUrl or the element's CSS background image), not ` +
          `${this.video ? 'a video' : 'the built-in tiles'}`,
      );
    }
    const { width, height, cssWidth, cssHeight } = size;
    const { naturalWidth, naturalHeight } = picture.image;
    const [x, y, w, h] = this.placement(cssWidth, cssHeight, naturalWidth, naturalHeight, false);
    const scaleX = width / cssWidth;
    const scaleY = height / cssHeight;
    let mask = new Uint8Array(0);
    const loaded = this.loaded.water;
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
  resolutionFor(size, where) {
    const resolution = this.#host.options().resolution;
    if (!this.#host.gl()) return resolution;
    const topDown = gpuResolution(size.width, size.height, resolution);
    if (this.#host.options().horizon === null || !this.loaded.image || this.video) return topDown;
    try {
      const { mask, horizon, focal } = this.waterArguments(size, where);
      return WasmPool.perspectiveResolution(size.width, size.height, resolution, mask, horizon, focal, GPU_GRID_CELLS);
    } catch {
      // A camera the pool refuses: #composeWater says why.
      return topDown;
    }
  }

  /**
   * A living photograph's water for `pool` (see the waterMask, horizon and focal options): the
   * mask drawn where the picture is, the horizon and the focal length scaled from the
   * picture's pixels to the pool's as the picture is placed. Called after the picture is in
   * (a new pool, a resize, which drop the water region, or a new picture or mask).
   */
  composeWater(pool, size, where) {
    if (!this.livingPhotograph()) {
      // A pool of a new size has no water region; one that had it gets the whole picture back.
      if (this.hasWater && pool === this.#host.pool()) pool.setWater(new Uint8Array(0), NaN, NaN);
      this.hasWater = false;
      return;
    }
    const { mask, horizon, focal, placed } = this.waterArguments(size, where);
    const options = this.#host.options();
    const { naturalWidth, naturalHeight } = this.loaded.image.image;
    try {
      pool.setWater(mask, horizon, focal);
    } catch (error) {
      throw new Error(
        `${where}: waterMask ${describeValue(options.waterMask)}, horizon ${describeValue(options.horizon)}, ` +
          `focal ${describeValue(options.focal)} (picture pixels; ${naturalWidth}x${naturalHeight} picture ` +
          `placed at ${placed} pool pixels): ${messageOf(error)}`,
      );
    }
    this.hasWater = true;
  }

  /**
   * Hands the sky picture to `pool` (its pixels, read once when it loaded; the pool reduces
   * them to its sky table), or the built-in sky. Every new pool needs it again.
   */
  composeSky(pool) {
    const sky = this.loaded.sky;
    if (sky) pool.setSky(sky.pixels, sky.width, sky.height);
    else pool.useDefaultSky();
    this.#host.gl()?.invalidateSky();
  }

  /**
   * After set(): loads again what the changed options name (see loadInto); settles once all
   * of it is in, or rejects with the first failure.
   * @param {(name: string) => boolean} changed whether option `name` changed
   * @param {string} where
   * @returns {Promise<void>}
   */
  reload(changed, where) {
    /** @type {Promise<void>[]} */
    const loads = [];
    /** @type {['image' | 'obstacles' | 'sky' | 'water', string][]} */
    const kinds = [['image', 'imageUrl'], ['obstacles', 'obstacles'], ['sky', 'skyUrl'], ['water', 'waterMask']];
    for (const [which, option] of kinds) {
      const video = which === 'image' && (changed('videoUrl') || (changed('crossOrigin') && this.video?.owned));
      if (video || changed(option) || (changed('crossOrigin') && this.loaded[which])) {
        loads.push(this.loadInto(which, where));
      }
    }
    return Promise.all(loads).then(() => undefined);
  }

  /**
   * Loads what option `which` ('image', 'obstacles', 'sky' or 'water') names now and puts
   * it into the pool; on failure (reported as an `error` event too) the pool keeps what it
   * had. A later load of the same kind supersedes this one (set() called again meanwhile).
   * @param {'image' | 'obstacles' | 'sky' | 'water'} which
   * @param {string} where
   * @returns {Promise<void>}
   */
  async loadInto(which, where) {
    const request = ++this.#requests[which];
    if (which === 'image') return this.#loadPictureInto(request, where);
    const options = this.#host.options();
    const { url, what } = {
      image: { url: options.imageUrl ?? this.cssImage?.url ?? null, what: 'image' },
      obstacles: { url: options.obstacles, what: 'obstacles image' },
      sky: { url: options.skyUrl, what: 'skyUrl' },
      water: { url: options.waterMask, what: 'waterMask' },
    }[which];
    try {
      let loaded = url === null ? null : await loadImage(url, options.crossOrigin, where, what);
      if (this.#host.destroyed() || request !== this.#requests[which]) return; // superseded or gone
      if (which === 'sky' && loaded) loaded = readSky(loaded, where);
      const previous = this.loaded[which];
      this.loaded[which] = loaded;
      try {
        const pool = this.#host.pool();
        const size = this.#host.size();
        if (which === 'obstacles') this.composeObstacles(pool, size, where);
        else if (which === 'water') this.#host.recomposeWater(where);
        else this.composeSky(pool);
      } catch (error) {
        this.loaded[which] = previous;
        throw error;
      }
      this.#host.redraw();
    } catch (error) {
      if (!this.#host.destroyed()) this.#host.report(error);
      throw error;
    }
  }

  /**
   * loadInto for what goes under the water (an image or a video: see loadPicture); the
   * video that was there is let go of once the new picture is in.
   * @param {number} request
   * @param {string} where
   */
  async #loadPictureInto(request, where) {
    const options = this.#host.options();
    try {
      const pageVideoStays =
        options.videoUrl === null && options.imageUrl === null && this.pageVideo && this.video?.video === this.pageVideo;
      if (pageVideoStays) return;
      const picture = await this.loadPicture(options, where);
      if (this.#host.destroyed() || request !== this.#requests.image) {
        // Superseded or gone.
        if (picture?.video?.video !== this.video?.video) picture?.video?.release();
        return;
      }
      const previous = { video: this.video, image: this.loaded.image };
      this.video = picture?.video ?? null;
      this.loaded.image = picture?.video ? null : picture;
      try {
        this.composeImage(this.#host.pool(), this.#host.size(), where);
        // A living photograph's water follows its picture's placement.
        if (this.livingPhotograph()) this.#host.recomposeWater(where);
      } catch (error) {
        this.video?.release();
        this.video = previous.video;
        this.loaded.image = previous.image;
        throw error;
      }
      previous.video?.release();
      if (this.video !== previous.video) this.listenToVideo();
      this.#host.redraw();
      this.playVideo(where);
      // A video moves the picture: a sleeping loop runs while it plays.
      this.#host.rouse();
    } catch (error) {
      if (!this.#host.destroyed()) this.#host.report(error);
      throw error;
    }
  }

  /** Lets the video go and forgets what was loaded (destroy). */
  release() {
    this.video?.release();
    this.video = null;
    this.#imageView = null;
    this.loaded = { image: null, obstacles: null, sky: null, water: null };
  }
}
