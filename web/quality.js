// What each frame costs, and quality: 'auto', which picks the pixel ratio a device can hold.
// FrameStats is the ring of the last frames' times and costs that stats() and quality 'auto'
// both read; Quality is one instance's state of 'auto' (the ratio it chose, the window it
// measures, when a level found too slow may be tried again). The page's instances share its
// frames, so their costs are weighed together (frameCosts, the one piece of state shared across
// instances, with the test hook that makes a device slower). Plain numbers in typed arrays,
// so that the frame loop allocates nothing.

import { describeValue } from './options.js';

// Frames kept for stats(): a little over a second at 144 Hz.
export const STATS_FRAMES = 256;
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


/**
 * The test hook behind `Ripples[Symbol.for('ripples.simulateSlowDevice')](msPerMegapixel)`
 * (not in the published types): every drawn frame of every instance then busy-waits
 * `msPerMegapixel` milliseconds per million canvas pixels, counted as wasm time, as on a
 * slower device. 0 (the default) turns it off.
 */
export const SIMULATE_SLOW_DEVICE = Symbol.for('ripples.simulateSlowDevice');

/** @param {unknown} msPerMegapixel */
export function simulateSlowDevice(msPerMegapixel) {
  if (typeof msPerMegapixel !== 'number' || !(msPerMegapixel >= 0 && msPerMegapixel <= 1000)) {
    throw new RangeError(
      `Ripples.simulateSlowDevice: msPerMegapixel must be a number from 0 to 1000, got ${describeValue(msPerMegapixel)}`,
    );
  }
  slowdownMsPerMegapixel = msPerMegapixel;
}

/** Whether the test hook makes every frame slower (see simulateSlowDevice). */
export function slowDevice() {
  return slowdownMsPerMegapixel > 0;
}

/**
 * Busy-waits from `start` as a slower device would on a canvas of `pixels` (see
 * simulateSlowDevice); nothing when it is off.
 * @param {number} start
 * @param {number} pixels
 */
export function slowDown(start, pixels) {
  if (slowdownMsPerMegapixel <= 0) return;
  const until = start + (slowdownMsPerMegapixel * pixels) / 1e6;
  while (performance.now() < until) {
    // Nothing: the time is the point.
  }
}

/**
 * The instance `owner` stops counting in the page's frames (paused, out of sight, destroyed).
 * @param {object} owner
 */
export function forgetCost(owner) {
  frameCosts.delete(owner);
}

/**
 * The last STATS_FRAMES frames: when each began (`times`), the wasm step+render and the draw
 * of a drawn one (-1 when none was drawn), and the main-thread milliseconds of the video's
 * copies since the frame before, drawn frame or not. `count` frames were begun in all.
 */
export class FrameStats {
  times = new Float64Array(STATS_FRAMES);
  work = new Float64Array(STATS_FRAMES);
  draw = new Float64Array(STATS_FRAMES);
  video = new Float64Array(STATS_FRAMES);
  count = 0;

  /**
   * A new frame that began at `now`, not drawn yet; returns its slot.
   * @param {number} now
   */
  begin(now) {
    const slot = this.count++ % STATS_FRAMES;
    this.times[slot] = now;
    this.work[slot] = -1;
    this.draw[slot] = -1;
    this.video[slot] = 0;
    return slot;
  }

  /** The frames of the last second (STATS_WINDOW_MS), summed, as stats() reports them. */
  lastSecond() {
    const count = Math.min(this.count, STATS_FRAMES);
    const newest = (this.count - 1 + STATS_FRAMES) % STATS_FRAMES;
    const end = this.times[newest];
    let frames = 0;
    let first = end;
    let work = 0;
    let draw = 0;
    let copies = 0;
    let worked = 0;
    let maxWork = 0;
    for (let i = 0; i < count; i++) {
      const slot = (newest - i + STATS_FRAMES) % STATS_FRAMES;
      const time = this.times[slot];
      if (end - time > STATS_WINDOW_MS) break;
      frames++;
      first = time;
      copies += this.video[slot];
      if (this.work[slot] >= 0) {
        worked++;
        work += this.work[slot];
        draw += this.draw[slot];
        maxWork = Math.max(maxWork, this.work[slot]);
      }
    }
    return { frames, first, end, work, draw, copies, worked, maxWork };
  }
}

/**
 * One instance's quality 'auto' (see QUALITY_LEVELS): the pixel ratio it chose (null: not
 * yet), the window being measured, and when a level found too slow may be tried again.
 */
export class Quality {
  /** @type {number | null} */
  autoRatio = null;
  skip = 0;
  windowStart = 0; // the stats count where the window began
  windowDrawn = 0; // drawn frames in the window
  changes = 0;
  ceiling = Infinity;
  retryAt = 0;
  retryMs = QUALITY_RETRY_MS;

  /** The quality option changed: 'auto' starts over from where it starts. */
  restart() {
    this.autoRatio = null;
    this.ceiling = Infinity;
    this.retryMs = QUALITY_RETRY_MS;
  }

  /** A pool of a new size: its first frames (fresh memory, cold caches) say little. */
  newPool() {
    this.skip = QUALITY_SKIP_FRAMES;
  }

  /**
   * The pixel ratio 'auto' draws at when `max` is the most.
   * @param {number} max
   */
  ratio(max) {
    return Math.min(max, this.autoRatio ?? startingRatio(max));
  }

  /**
   * After each drawn frame (the stats slot `slot` holds its time and cost): at the end of a
   * window, the mean cost of its drawn frames (wasm step+render and draw, and what the video's
   * copies took in any frame of the window); -1 until then.
   * @param {FrameStats} stats
   * @param {number} slot
   */
  measure(stats, slot) {
    // Integer work on most frames (a double in code V8 has not optimized yet is a heap
    // object, and this runs every frame): the window's times and costs are already in the
    // stats arrays, and its length is looked at every QUALITY_WINDOW_FRAMES drawn frames.
    if (this.skip > 0) {
      this.skip--;
      this.windowStart = stats.count;
      this.windowDrawn = 0;
      return -1;
    }
    this.windowDrawn++;
    if (this.windowDrawn % QUALITY_WINDOW_FRAMES !== 0) return -1;
    // The window's frames, drawn or not, as far as the stats arrays reach back.
    const frames = Math.min(stats.count - this.windowStart, STATS_FRAMES);
    const first = (stats.count - frames) % STATS_FRAMES;
    if (stats.times[slot] - stats.times[first] < QUALITY_WINDOW_MS && frames < STATS_FRAMES) return -1;
    let total = 0;
    let drawn = 0;
    for (let i = 0; i < frames; i++) {
      const at = (first + i) % STATS_FRAMES;
      total += stats.video[at];
      if (stats.work[at] >= 0) {
        total += stats.work[at] + stats.draw[at];
        drawn++;
      }
    }
    this.windowStart = stats.count;
    this.windowDrawn = 0;
    return total / drawn;
  }

  /**
   * At the end of a window of mean cost `mean` (see measure), at time `now`: records the cost
   * of `owner` in `frameCosts` and, when it `adapts` (quality 'auto' on a canvas of its own),
   * lowers or raises its pixel ratio (`ratio` now, at most `max`) against the page's total.
   * Returns the new pixel ratio, or null to keep it.
   * @param {object} owner
   * @param {number} mean
   * @param {number} now
   * @param {boolean} adapts
   * @param {number} ratio
   * @param {number} max
   * @returns {number | null}
   */
  choose(owner, mean, now, adapts, ratio, max) {
    // Every instance counts its cost (the page's frame holds all their work); those with
    // quality 'auto' on a canvas of their own adapt.
    const levels = qualityLevels(max);
    const lower = adapts ? levels.filter((level) => level < ratio) : [];
    frameCosts.set(owner, { cost: mean, canLower: lower.length > 0 });
    if (!adapts) return null;
    let pageCost = 0;
    let largest = 0;
    for (const { cost, canLower } of frameCosts.values()) {
      pageCost += cost;
      if (canLower) largest = Math.max(largest, cost);
    }
    const others = pageCost - mean;
    /** @param {number} level */
    const predicted = (level) => others + mean * (level / ratio) ** 2;
    let next = ratio;
    // Over the budget, the instance that costs most (of those that can still go lower) gives
    // way; the others wait for its next window.
    if (pageCost > LOWER_ABOVE_MS && mean >= largest) {
      next = lower.find((level) => predicted(level) <= TARGET_MS) ?? lower[lower.length - 1] ?? ratio;
      if (next < ratio) {
        // Too slow here: do not come back for a while, longer each time.
        this.ceiling = ratio;
        this.retryAt = now + this.retryMs;
        this.retryMs = Math.min(2 * this.retryMs, QUALITY_RETRY_MAX_MS);
      }
    } else if (pageCost <= LOWER_ABOVE_MS) {
      const higher = levels.filter((level) => level > ratio);
      const up = higher[higher.length - 1];
      const allowed = up !== undefined && (up < this.ceiling || now >= this.retryAt);
      if (allowed && predicted(up) < RAISE_BELOW_MS) next = up;
    }
    if (next === ratio) return null;
    this.autoRatio = next;
    this.changes++;
    return next;
  }
}
