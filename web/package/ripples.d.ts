// Types of @ripples-rs/ripples (ripples.js), written by hand: every option, method, event and
// error of the public API, with the documentation an editor shows. web/e2e/package.mjs checks
// them with `tsc --strict` over a file that uses all of them, and checks that every option of
// Ripples.defaults and every method of the class is declared here.

/** A CSS colour the browser understands ('teal', '#8fd3e0', 'hsl(180 40% 70%)') or [r, g, b] (0..255). */
export type Colour = string | readonly [number, number, number];

/** Where the WebAssembly module is, for setups where it is not found next to ripples.js. */
export type WasmSource =
  | string
  | URL
  | Request
  | Response
  | PromiseLike<Response>
  | ArrayBuffer
  | ArrayBufferView
  | WebAssembly.Module;

/** The water's options: what `Ripples.attach` takes (all optional) and `set()` changes. */
export interface RipplesOptions {
  /** Image under the water; null (default): the element's CSS background image, else the built-in pool tiles. */
  imageUrl?: string | null;
  /**
   * Video under the water, frame by frame, or null (default). Placed as the element's CSS
   * background image would be (background-size and -position; size 'auto', the initial value,
   * covers the element), made muted, playsInline and looping so that autoplay policies let it
   * play; `ripples.video` is the <video>. Loaded like imageUrl (crossOrigin applies). Give
   * imageUrl or videoUrl, not both. Without either, a <video> behind the element's content
   * (a child, absolutely positioned, covering the element: a hero's background video) is used,
   * with its object-fit and object-position.
   */
  videoUrl?: string | null;
  /** Element pixels per simulation cell, a whole number from 1 (full resolution, the default) to 16. */
  resolution?: number;
  /** Radius of the pointer's stones and of drop()'s default, in CSS pixels, 1..4096 (default 14). */
  dropRadius?: number;
  /**
   * Refraction of the 'natural' (through its wave height), 'lit' and 'spring' looks relative to
   * their default: 0 (the image does not move), or 0.2..16 (default 1). Values below 0.2 are
   * jquery.ripples' scale and are refused with their equivalent (theirs / 0.03).
   */
  perturbance?: number;
  /**
   * How much the water shows, 0..8 (default 1): one knob for the waves' refraction, caustics,
   * reflections and glints together (the natural look's wave height, the lit and spring looks'
   * refraction); 0 leaves the picture unmoved, 2 doubles the waves. The classic look ignores it.
   */
  presence?: number;
  /** Whether pointer and touch input make ripples (default true). */
  interactive?: boolean;
  /** Mean raindrops per second over the whole element, 0..1000 (default 0). */
  rain?: number;
  /**
   * 'dispersive' (default: deep water, long waves outrun short ones, so a drop spreads into a
   * train of rings and a drag leaves a Kelvin wake), 'wave' (the wave equation: one smooth round
   * ring), 'classic' (the demo scene's integer solver) or 'spring'.
   */
  solver?: 'wave' | 'classic' | 'spring' | 'dispersive';
  /** The 'dispersive' solver's gravity in CSS pixels per step², above 0 and at most 0.5 (default 0.1): higher is faster water. */
  gravity?: number;
  /** 'reflect' (default: waves bounce off the edges) or 'absorb' (open water). */
  border?: 'reflect' | 'absorb';
  /** CORS mode of the images: '' or 'anonymous' (default ''), 'use-credentials', or null for no CORS request. */
  crossOrigin?: '' | 'anonymous' | 'use-credentials' | null;
  /**
   * 'natural' (default: the picture is the floor of a pool seen through real water, with
   * caustics, a sky and the water's colour), 'classic' (the demo scene's refraction, the
   * cheapest), 'lit' (refraction with a light) or 'spring'.
   */
  look?: 'natural' | 'classic' | 'lit' | 'spring';
  /** URL of an image whose dark opaque pixels are walls (stretched over the element), or null (default). */
  obstacles?: string | null;
  /** Solver steps per second of real time, 1..240 (default 60): the speed of the water, whatever the frame rate. */
  stepsPerSecond?: number;
  /** Canvas pixels per CSS pixel, 0.25..8, the most 'auto' quality uses; null (default): window.devicePixelRatio, followed as it changes. */
  pixelRatio?: number | null;
  /**
   * 'auto' (default): measure what each frame costs and lower the canvas pixel ratio to hold 60
   * frames per second, raising it again when there is room. 'high': always pixelRatio.
   */
  quality?: 'auto' | 'high';
  /** Natural look: CSS pixels of water over the picture, 0..1024 (default 48; deeper bends the view more). */
  depth?: number;
  /** Natural look: strength of the caustics (sunlight focused by the waves), 0..4 (default 0.15). */
  caustics?: number;
  /** Natural look: the sun's height above the horizon in degrees, 1..90 (default 60; 90: overhead). */
  sunElevation?: number;
  /** Natural look: the sun's direction in degrees counter-clockwise from the right, -360..360 (default 120; 90: from the top). */
  sunAzimuth?: number;
  /** Natural look: the colour white light takes after `clarity` CSS pixels of water (default '#ffffff': white tints nothing, so calm water is the picture); read back as '#rrggbb'. */
  waterColour?: Colour;
  /** Natural look: the same option as waterColour (give one of the two). */
  waterColor?: Colour;
  /** Natural look: CSS pixels of water after which white light has the waterColour, 1..1e6 (default 600). */
  clarity?: number;
  /** Natural look: CSS pixels of surface height per unit of the simulation's height, 0..16 (default 0.12). */
  waveHeight?: number;
  /**
   * Natural look: chromatic dispersion in units of water's own, 0..50 (default 0: none; 1 is
   * water's, too slight to see; 10 to 30 part refracted edges into coloured fringes).
   */
  dispersion?: number;
  /**
   * Natural look: URL of a picture of the sky the water reflects (the top half of a panorama:
   * its top edge straight up, its bottom edge the horizon), or null (default) for the built-in sky.
   */
  skyUrl?: string | null;
  /**
   * Who draws the water: 'auto' (default: WebGL2 at the element's full device pixels, up to 3
   * per CSS pixel, wherever the browser gives a WebGL2 context and fewer than 8 instances on
   * the page use it; else the CPU), 'webgl' (the same, said outright) or
   * 'cpu' (the wasm module renders every pixel, quality 'auto' picking the pixel ratio). A lost
   * WebGL context carries on with the CPU, over the same water.
   */
  renderer?: 'auto' | 'webgl' | 'cpu';
  /**
   * Where the water is stepped: 'auto' (default: on the GPU, in WebGL2 float render targets,
   * where WebGL2 draws and the GPU can step this water; else in the wasm module), 'gpu' (the
   * same, said outright) or 'cpu' (always the wasm module). So far the GPU steps the
   * dispersive solver under the natural look, seen from above, with reflecting edges, no walls
   * and interactive false, and for 'auto' no rain; stats().simulationReason says why the CPU
   * steps it otherwise.
   */
  simulation?: 'auto' | 'gpu' | 'cpu';
  /**
   * 'auto' (default): with the user's prefers-reduced-motion: reduce, no rain falls (only what
   * the user starts moves the water); 'ignore': the rain falls anyway.
   */
  reducedMotion?: 'auto' | 'ignore';
  /**
   * A living photograph: URL of a mask whose light opaque pixels are the picture's water
   * (default null: all of it). Placed like the picture (stretched to its box); the rest of the
   * picture stays untouched in every frame, waves reflect at the water's edge, and stones, rain
   * and the pointer fall only on water. Needs a picture (imageUrl or a CSS background image);
   * drawn by WebGL2 or the CPU, as the renderer option says.
   */
  waterMask?: string | null;
  /**
   * The row of the picture (its own pixels; negative: above its top) where the water plane
   * meets the sky: the water is seen in perspective (rings become ellipses). Default null: seen
   * from straight above. Needs a picture; drawn by the CPU.
   */
  horizon?: number | null;
  /** With a horizon, the camera's focal length in the picture's pixels (default null: a 60-degree field of view). */
  focal?: number | null;
}

/** The options of `Ripples.attach`: the water's options, and where the wasm module is. */
export interface RipplesAttachOptions extends RipplesOptions {
  /**
   * The WebAssembly module, when it is not found next to ripples.js (which bundlers and static
   * folders handle by themselves): a URL (relative to the page), a Response or a promise of
   * one, its bytes, or a compiled module. The module loads once per page; later values are ignored.
   */
  wasm?: WasmSource;
}

/** The options in use, as `ripples.options` and `Ripples.defaults` give them. */
export interface RipplesResolvedOptions {
  imageUrl: string | null;
  videoUrl: string | null;
  resolution: number;
  dropRadius: number;
  perturbance: number;
  presence: number;
  interactive: boolean;
  rain: number;
  solver: 'wave' | 'classic' | 'spring' | 'dispersive';
  gravity: number;
  border: 'reflect' | 'absorb';
  crossOrigin: '' | 'anonymous' | 'use-credentials' | null;
  look: 'natural' | 'classic' | 'lit' | 'spring';
  obstacles: string | null;
  stepsPerSecond: number;
  pixelRatio: number | null;
  quality: 'auto' | 'high';
  depth: number;
  caustics: number;
  sunElevation: number;
  sunAzimuth: number;
  /** Always '#rrggbb'. */
  waterColour: string;
  clarity: number;
  waveHeight: number;
  dispersion: number;
  skyUrl: string | null;
  renderer: 'auto' | 'webgl' | 'cpu';
  simulation: 'auto' | 'gpu' | 'cpu';
  reducedMotion: 'auto' | 'ignore';
  waterMask: string | null;
  horizon: number | null;
  focal: number | null;
}

/** What `quality` chose and measured (part of `stats()`). */
export interface RipplesQualityStats {
  /** The quality option: 'auto' or 'high'. */
  mode: 'auto' | 'high';
  /** Canvas pixels per CSS pixel now. */
  pixelRatio: number;
  /** The most canvas pixels per CSS pixel (the pixelRatio option, else the screen's). */
  maxPixelRatio: number;
  /** The resolution option. */
  resolution: number;
  /** What quality 'auto' weighs: stepRenderMs + drawMs + the video's copies, per drawn frame. */
  frameMs: number;
  /** How often 'auto' changed the pixel ratio. */
  changes: number;
  /** Whether the pixel ratio adapts ('auto' on an element, not on a <canvas> given to attach). */
  adapts: boolean;
  /** Whether the last new pool (after a resize or a new pixel ratio) took the water of the one before. */
  waterKept: boolean;
}

/** The video under the water (part of `stats()`; null without a video). */
export interface RipplesVideoStats {
  /** The videoUrl option, or null for the element's background <video>. */
  url: string | null;
  /** The video's size in pixels. */
  width: number;
  height: number;
  /** Video frames put under the water so far (one per frame the video presents). */
  uploads: number;
  /** Mean main-thread milliseconds per frame put under the water, since the last stats() call. */
  uploadMs: number;
  /** Frames copied into the WebAssembly memory so far: none while WebGL draws. */
  wasmCopies: number;
  /** Main-thread milliseconds per drawn frame of those copies (0 while WebGL draws). */
  copyMs: number;
  /**
   * How frames go under the water: 'webgl' (straight from the <video> to a WebGL texture, no
   * copy: while WebGL draws), or, while the CPU draws, 'videoframe' (WebCodecs, straight to
   * RGBA, where the video lands 1:1 on the canvas), 'videoframe-scaled' (WebCodecs at the
   * video's size, then scaled by a 2D canvas: any other fit) or 'canvas' (the <video> drawn by
   * a 2D canvas: without WebCodecs).
   */
  path: 'webgl' | 'videoframe' | 'videoframe-scaled' | 'canvas';
  /** Why WebCodecs could not copy this video (it is then drawn), or null. */
  copyError: string | null;
  paused: boolean;
  ended: boolean;
  currentTime: number;
  /** Why the video does not play by itself (a refused play(): the autoplay policy), or null. */
  playError: string | null;
}

/** Frame rate and cost over the last second, and the pool's state. */
export interface RipplesStats {
  /** Frames the loop ran per second. */
  fps: number;
  /** Mean milliseconds in wasm per drawn frame: the solver steps and the render. */
  stepRenderMs: number;
  /** The most milliseconds in wasm of one frame. */
  maxStepRenderMs: number;
  /** Mean milliseconds of putImageData per drawn frame. */
  drawMs: number;
  /** Canvas width in pixels. */
  width: number;
  /** Canvas height in pixels. */
  height: number;
  /** Simulation grid width in cells. */
  gridWidth: number;
  /** Simulation grid height in cells. */
  gridHeight: number;
  /** Solver steps since the pool was made. */
  steps: number;
  /** Cells that are walls (the obstacles image). */
  wallCells: number;
  /** The kernels in use, e.g. 'simd128'. */
  backend: string;
  /** Who draws: 'webgl' (WebGL2, from the surface the wasm module writes) or 'cpu'. */
  renderer: 'webgl' | 'cpu';
  /**
   * Why the CPU draws (null with WebGL): 'option' (renderer 'cpu'), 'no-webgl2' (no WebGL2
   * context, or 8 instances on the page hold one), 'canvas-element' (a <canvas> given to
   * attach) or 'context-lost'.
   */
  cpuReason: 'option' | 'no-webgl2' | 'canvas-element' | 'context-lost' | null;
  /** Who steps the water: 'gpu' (WebGL2 float render targets) or 'cpu' (the wasm module). */
  simulation: 'gpu' | 'cpu';
  /**
   * Why the CPU steps the water (null on the GPU): 'option' (simulation 'cpu'), 'renderer' (the
   * CPU draws), 'no-float-targets' (no RGBA32F render target passed the probe),
   * 'context-lost', or what the GPU does not step yet: 'solver', 'water-mask'.
   */
  simulationReason:
    | 'option'
    | 'renderer'
    | 'no-float-targets'
    | 'context-lost'
    | 'solver'
    | 'water-mask'
    | null;
  /**
   * Whether the WebGL2 that draws is a software rasterizer (SwiftShader, llvmpipe, WARP: no
   * GPU), as the browser tells; false with the CPU. Information only: browsers give pages
   * software WebGL only where the user or an administrator turned it on.
   */
  softwareWebGl: boolean;
  /**
   * Bytes of the water the page has sent to the GPU since this renderer started: the surface
   * of every frame where the CPU steps the water (16 bytes a grid cell), only the frames'
   * steps and events where the GPU does (and the walls when they change). 0 with the CPU
   * renderer.
   */
  uploadedBytes: number;
  /** Calm water with nothing scheduled: the loop sleeps (no steps, no renders) until the water moves. */
  asleep: boolean;
  /** The solver option. */
  solver: RipplesResolvedOptions['solver'];
  /** The look option. */
  look: RipplesResolvedOptions['look'];
  /** Whether the frame loop runs (not paused). */
  running: boolean;
  /** Running and seen: on screen, the tab visible, not hidden by hide(); the loop works only then. */
  inSight: boolean;
  /** Whether hide() hides the ripples. */
  hidden: boolean;
  quality: RipplesQualityStats;
  /** The video under the water, or null. */
  video: RipplesVideoStats | null;
}

/** Why the WebAssembly module could not be loaded. */
export type RipplesLoadErrorReason =
  /** The browser has no WebAssembly, or no WebAssembly SIMD (before Chrome 91, Firefox 89, Safari 16.4). */
  | 'no-simd'
  /** The page was opened from file://, which cannot fetch files: serve it over HTTP. */
  | 'file-url'
  /** No answer (server down, blocked by CORS or a Content-Security-Policy). */
  | 'network'
  /** The server answered with an HTTP error (see `status`). */
  | 'http'
  /** The answer was not WebAssembly (often an index.html fallback). */
  | 'not-wasm'
  /** The WebAssembly did not instantiate (e.g. a .wasm of another version). */
  | 'instantiate';

/**
 * The error `Ripples.attach` and `Ripples.init` reject with when the WebAssembly module cannot be
 * loaded; its message names the URL and, for an HTTP error, the status.
 */
export class RipplesLoadError extends Error {
  readonly name: 'RipplesLoadError';
  /** Which step failed. */
  readonly reason: RipplesLoadErrorReason;
  /** The absolute URL fetched, or null when the module was given as bytes or a Module. */
  readonly url: string | null;
  /** The HTTP status of a failed response ('http'), else null. */
  readonly status: number | null;
}

/** The events of a Ripples instance. */
export interface RipplesEventMap {
  /**
   * Something failed after attach (an image that does not reload after a resize, a frame that
   * failed; the frame loop then pauses; a video whose play() the browser refused: the water
   * then shows its current frame). Logged with console.error unless a listener calls
   * preventDefault(). `event.error` is the Error, `event.message` its message.
   */
  error: ErrorEvent;
}

/**
 * Water ripples over one element, computed in WebAssembly on the CPU. Make one with
 * `await Ripples.attach(element, options)`; end it with `destroy()`.
 *
 * Errors are ordinary Errors whose message names the problem and the value: `attach` and `set`
 * reject, the other methods throw, and what fails later is an `error` event.
 */
export class Ripples extends EventTarget {
  /** Use `Ripples.attach`; the constructor throws. */
  private constructor();

  /** The options and their defaults (a copy). */
  static readonly defaults: RipplesResolvedOptions;

  /**
   * Makes ripples over `element`: a <canvas> is drawn into, any other element gets a canvas
   * overlaid behind its content in place of its CSS background image (or right over its
   * background <video>). Rejects with an Error naming the problem (no browser, a detached or
   * empty element, one that already has ripples, a bad option, an image or video that cannot be
   * loaded or read), leaving the element as it was; with a
   * RipplesLoadError when the WebAssembly module cannot be loaded.
   */
  static attach(element: Element, options?: RipplesAttachOptions): Promise<Ripples>;

  /**
   * Loads the WebAssembly module ahead of the first attach (attach does it by itself otherwise),
   * from `wasm` or by default from ripples_web_bg.wasm next to ripples.js. Once per page.
   * Rejects with a RipplesLoadError.
   */
  static init(options?: { wasm?: WasmSource }): Promise<void>;
  /** The same as `init({ wasm })`. */
  static init(wasm: WasmSource): Promise<void>;

  /** Bytes of wasm memory in use by the module (0 before it is loaded). */
  static memoryBytes(): number;

  /**
   * Drops a stone at (x, y), in CSS pixels from the element's top-left corner (its padding box),
   * with a radius in CSS pixels (default: dropRadius) and a strength from 1 to 32767 (default 96:
   * a clear ring under the natural look; 0 drops nothing). A strength between 0 and 1 is
   * jquery.ripples' scale and throws a RangeError saying what to pass (theirs times 900).
   */
  drop(x: number, y: number, radius?: number, strength?: number): void;

  /** Stops the water and the frame loop (the last frame stays). */
  pause(): void;
  /**
   * A paused instance steps its water `n` steps (a whole number from 0 to 6000; rain falls as it
   * would) and draws once: for tests, recordings and pages that drive their own clock. Throws
   * while the water plays.
   */
  step(n: number): void;

  /** Runs the water again, from where it stopped. */
  play(): void;

  /**
   * Hides the ripples (as jquery.ripples' hide()): the element shows its own CSS background again
   * and the water stops (no steps, no renders) until show(). A <canvas> given to attach is cleared.
   */
  hide(): void;

  /** Shows the ripples again after hide(), with the water as it was. */
  show(): void;

  /**
   * Changes options; bad values throw before anything changes. The promise settles once a new
   * image, video, obstacles image or sky picture has loaded (at once otherwise); if one fails it
   * rejects, an `error` event fires and the previous one stays.
   */
  set(changes: RipplesOptions): Promise<void>;
  /** One option, as jquery.ripples' 'set' takes it: set('dropRadius', 10). */
  set<K extends keyof RipplesOptions>(name: K, value: RipplesOptions[K]): Promise<void>;

  /** Re-reads the element's size and CSS background (call it after changing them by script). */
  updateSize(): void;

  /** Frame rate and cost over the last second, and the pool's state. */
  stats(): RipplesStats;

  /**
   * Removes everything the ripples added (the overlay canvas, listeners, the frame loop, the
   * inline styles) and frees their wasm memory. Calling it again does nothing; any other method
   * afterwards throws.
   */
  destroy(): void;

  /** Whether destroy() was called. */
  readonly destroyed: boolean;
  /** Whether the frame loop runs. */
  readonly running: boolean;
  /** Whether hide() hides the ripples. */
  readonly hidden: boolean;
  /** The element the ripples are on. */
  readonly element: HTMLElement;
  /**
   * The <video> under the water (videoUrl's, or the element's background <video>), or null:
   * play(), pause() and currentTime work on it as usual, and the water follows.
   */
  readonly video: HTMLVideoElement | null;
  /** The options in use (a copy). */
  readonly options: RipplesResolvedOptions;

  addEventListener<K extends keyof RipplesEventMap>(
    type: K,
    listener: (this: Ripples, event: RipplesEventMap[K]) => void,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof RipplesEventMap>(
    type: K,
    listener: (this: Ripples, event: RipplesEventMap[K]) => void,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ): void;
}

export default Ripples;
