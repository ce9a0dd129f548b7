// Whether anybody can see the water, and what moves it while nobody looks: the element on
// screen (an IntersectionObserver, a little ahead of the viewport), the tab visible, the
// user's reduced-motion preference, the page's scrolling (a fixed background moves against the
// element), and the element's removal from the document without destroy() (a grace period,
// since a framework moving an element takes it out and puts it back in one task). One Sight
// per instance; it only watches and calls back, and the instance decides what the frame loop
// does (see Ripples: #wake, the loop's sleep when the water is calm).
// It also follows the element's size and the screen's pixel ratio, which change what the
// instance draws, never whether it runs.

// How long an element may stay out of the document before its ripples destroy themselves.
const DETACHED_GRACE_MS = 1000;

/**
 * What a Sight tells its instance.
 * @typedef {object} SightEvents
 * @property {() => void} changed the element came into or went out of sight, or the tab's visibility changed
 * @property {() => void} motionPreference the user's prefers-reduced-motion changed
 * @property {() => void} scrolled the page scrolled or the window resized
 * @property {() => void} detachedLong the element stayed out of the document for DETACHED_GRACE_MS
 * @property {(action: () => void) => void} safely runs `action`, reporting what it throws
 */

export class Sight {
  #element;
  #signal;
  #safely;
  /** @type {IntersectionObserver | null} */
  #intersection = null;
  /** @type {ResizeObserver | null} */
  #resizeObserver = null;
  #detachedTimer = 0;
  // Out of sight (IntersectionObserver) or in a hidden tab, the frame loop stops.
  #onScreen = true;

  /**
   * Watches `element` until `signal` aborts (and release()).
   * @param {HTMLElement} element
   * @param {AbortSignal} signal
   * @param {SightEvents} events
   */
  constructor(element, signal, events) {
    this.#element = element;
    this.#signal = signal;
    const { safely } = events;
    this.#safely = safely;
    if (typeof IntersectionObserver === 'function') {
      this.#intersection = new IntersectionObserver(
        (entries) =>
          safely(() => {
            this.#onScreen = entries[entries.length - 1].isIntersecting;
            if (!element.isConnected) this.noticeDetached(events.detachedLong);
            events.changed();
          }),
        // A little ahead, so that the water runs before it scrolls in.
        { rootMargin: '64px' },
      );
      this.#intersection.observe(element);
    }
    document.addEventListener('visibilitychange', () => safely(events.changed), { signal });
    // The user's reduced-motion preference stops or lets the rain fall as it changes.
    if (typeof matchMedia === 'function') {
      matchMedia('(prefers-reduced-motion: reduce)').addEventListener('change', () => safely(events.motionPreference), {
        signal,
      });
    }
    // A fixed background moves against the element as anything scrolls or the window resizes.
    const moved = () => safely(events.scrolled);
    const options = { signal, passive: true, capture: true };
    document.addEventListener('scroll', moved, options);
    window.addEventListener('resize', moved, options);
  }

  /** Whether the element is on screen and the tab visible. */
  get visible() {
    return this.#onScreen && document.visibilityState !== 'hidden';
  }

  /**
   * The element left the document without destroy(): unless it is back within
   * DETACHED_GRACE_MS, `detachedLong` is called then (the instance looks again: back, it goes
   * on; still out, it destroys itself).
   * @param {() => void} detachedLong
   */
  noticeDetached(detachedLong) {
    if (this.#detachedTimer) return;
    this.#detachedTimer = setTimeout(() => {
      this.#detachedTimer = 0;
      detachedLong();
    }, DETACHED_GRACE_MS);
  }

  /**
   * Calls `resized` when the element's size changes (in device pixels where the browser can:
   * that also reports a change of devicePixelRatio, by zoom or another screen).
   * @param {() => void} resized
   */
  watchSize(resized) {
    if (typeof ResizeObserver !== 'function') return;
    this.#resizeObserver = new ResizeObserver(() => this.#safely(resized));
    try {
      this.#resizeObserver.observe(this.#element, { box: 'device-pixel-content-box' });
    } catch {
      this.#resizeObserver.observe(this.#element);
    }
  }

  /**
   * Calls `changed` once, when devicePixelRatio changes (for browsers whose ResizeObserver
   * does not see device pixels).
   * @param {() => void} changed
   */
  watchPixelRatio(changed) {
    if (typeof matchMedia !== 'function') return;
    const query = matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    query.addEventListener('change', () => this.#safely(changed), { once: true, signal: this.#signal });
  }

  /** Stops watching (destroy). */
  release() {
    this.#resizeObserver?.disconnect();
    this.#resizeObserver = null;
    this.#intersection?.disconnect();
    this.#intersection = null;
    clearTimeout(this.#detachedTimer);
    this.#detachedTimer = 0;
  }
}
