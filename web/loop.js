// The frame loop of one instance: one requestAnimationFrame loop that runs while the water is
// playing (play()/pause()), awake (calm water with nothing scheduled sleeps until something
// moves it: rouse()) and seen (the instance says when: see Sight). Each start is on a new time
// base, so that time spent stopped is not caught up in a burst of steps. It owns only the
// scheduling; what a frame does is the instance's (its LoopHost), so that the rules of when
// to run can be read here in one place.

// Every few drawn frames a running pool asks whether its water is calm (a pass over the grid);
// calm, with nothing scheduled, the loop stops until something moves the water. How many is the
// core's rule (SleepWhenCalm, the desktop window's too), read from the wasm module: the loop
// runs only once it is loaded.
import { calmCheckFrames } from './ripples_web.js';

/**
 * What the loop asks of its instance.
 * @typedef {object} LoopHost
 * @property {() => boolean} canRun whether the element is seen and in the document
 * @property {(now: number) => boolean} ready at the top of a frame: whether to go on (false: the loop stops here)
 * @property {(now: number) => void} frame one frame's work
 * @property {() => void} started the loop starts (a new time base)
 * @property {() => void} stopped the loop stopped
 */

export class FrameLoop {
  #host;
  #raf = 0;
  #sinceCalmCheck = 0;
  /** Whether the water plays (play(), not pause()). */
  running = false;
  /** Calm and nothing scheduled: the loop sleeps until rouse(). */
  asleep = false;

  /** @param {LoopHost} host */
  constructor(host) {
    this.#host = host;
  }

  /** Whether a frame is scheduled (the loop runs now). */
  get scheduled() {
    return this.#raf !== 0;
  }

  /** The water plays: the loop runs when it can. */
  play() {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** The water stops; the last frame stays. */
  pause() {
    this.running = false;
    if (this.#raf) this.stop();
  }

  /** Something may move the water (input, drop(), set(), a video playing): the loop runs. */
  rouse() {
    if (!this.asleep) return;
    this.#sinceCalmCheck = 0;
    this.asleep = false;
    this.wake();
  }

  /** The water is calm (the instance checked): the loop sleeps until rouse(). */
  sleep() {
    this.asleep = true;
    if (this.#raf) this.stop();
  }

  /**
   * Whether this drawn frame should ask if the water is calm: the first after the loop
   * starts (calm water at attach sleeps at once), then every calmCheckFrames().
   */
  calmCheckDue() {
    return this.#sinceCalmCheck++ % calmCheckFrames() === 0;
  }

  /**
   * Starts the loop when it should run (running, awake, and the host can run) and does not,
   * on a new time base; stops it when it should not run.
   */
  wake() {
    const run = this.running && !this.asleep && this.#host.canRun();
    if (run && !this.#raf) {
      this.#host.started();
      this.#raf = requestAnimationFrame(this.#tick);
    } else if (!run && this.#raf) {
      this.stop();
    }
  }

  /** Stops the frame loop. */
  stop() {
    cancelAnimationFrame(this.#raf);
    this.#raf = 0;
    this.#host.stopped();
  }

  /** Stops for good (destroy), telling nobody. */
  release() {
    this.running = false;
    if (this.#raf) cancelAnimationFrame(this.#raf);
    this.#raf = 0;
  }

  /** @param {number} now */
  #tick = (now) => {
    this.#raf = 0;
    if (!this.#host.ready(now)) return;
    // The next frame is asked for first: what this one does may stop the loop (pause()).
    this.#raf = requestAnimationFrame(this.#tick);
    this.#host.frame(now);
  };
}
