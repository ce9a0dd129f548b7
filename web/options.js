// The options of Ripples.attach and set: their defaults (Ripples.defaults), their other
// spellings, and the check that turns a change into a new, complete set of options. The range
// of each is the wasm module's (checkOption), so this file holds only what the page adds: the
// colour read as CSS, the options that exclude each other, and the error messages' wording.
// Pure functions over plain objects: nothing here touches the page.

import { checkOption } from './ripples_web.js';
import { cssColour } from './images.js';

/** The options of `Ripples.attach` and their defaults. */
export const DEFAULTS = Object.freeze({
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
   * Where the water is stepped: 'auto' (on the GPU, in WebGL2 float render targets, where it
   * draws with WebGL2 and can step this water; else in the wasm module on the CPU), 'gpu' (the
   * same, said outright) or 'cpu' (always the wasm module). stats().simulation says which, and
   * why the CPU does (the GPU steps the dispersive and wave solvers under every look, seen
   * from above, with their stones, rain, the pointer, walls and either border, so far).
   */
  simulation: 'auto',
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

/** Other spellings of option names. */
const ALIASES = Object.freeze({ waterColor: 'waterColour' });

/**
 * The message of an error, or the thing thrown as a string.
 * @param {unknown} error
 * @returns {string}
 */
export function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The error with `where` in front of its message, unless it already names a Ripples method.
 * @param {string} where
 * @param {unknown} error
 * @returns {unknown}
 */
export function prefixed(where, error) {
  const message = messageOf(error);
  return message.startsWith('Ripples') ? error : new Error(`${where}: ${message}`);
}

/**
 * A value as an error message names it.
 * @param {unknown} value
 * @returns {string}
 */
export function describeValue(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'object') return value.constructor?.name ?? 'an object';
  return String(value);
}

/**
 * Checks `changes` against the option table; returns `base` with them applied.
 * @param {Options} base
 * @param {unknown} changes
 * @param {string} where
 * @returns {Options}
 */
export function checkOptions(base, changes, where) {
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

/** @typedef {{ -readonly [K in keyof typeof DEFAULTS]: any }} Options */
