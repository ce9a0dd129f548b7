// Pointer and touch input on the water: a press drops a stone, a moving pointer or finger is
// a fingertip in the water (a body the pool moves along with it, which leaves a wake), and a
// drag that starts on the water selects no text. One PointerInput per instance, holding the
// pointers it follows; it reaches the instance's pool, canvas and options through an
// InputHost of getters, since the pool and the canvas are replaced as the instance goes on
// (a resize, another renderer), and the instance stays the one owner of them.

// Elements a drag may start on without it being a drag over the water: what the page made to
// be clicked or typed into.
const INTERACTIVE_TAGS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'LABEL', 'SUMMARY', 'OPTION']);

// Stone strengths of the pointer and of drop() (0..32767), tuned on photographs under the natural look and
// the wave solver: a press is a drop a little wider than the pointer's stones, about as strong
// as a raindrop's strongest; the hover and drag trails stay faint, so that a moving pointer
// leaves a wake rather than a bright scribble.
const HOVER_STRENGTH = 16;
const DRAG_STRENGTH = 48;
const PRESS_STRENGTH = 128;
const PRESS_RADIUS = 1.5;
// The strength of drop(): a clear ring under the natural look.
export const DEFAULT_DROP_STRENGTH = 96;
// jquery.ripples' strengths run from 0 to 1 (its click is 0.14 at 1.5 times the drop radius,
// where ours is PRESS_STRENGTH 128): theirs times this is ours. A strength below 1 here would
// round to nothing, so drop() refuses one with this conversion rather than do nothing.
const JQUERY_STRENGTH_SCALE = 900;

/**
 * Throws a RangeError saying what to pass for a strength between 0 and 1 (jquery.ripples'
 * scale; drop() takes 1 to 32767).
 * @param {unknown} strength
 */
export function checkDropStrength(strength) {
  if (typeof strength === 'number' && strength > 0 && strength < 1) {
    throw new RangeError(
      `Ripples.drop: strength ${strength} looks like a jquery.ripples strength (0 to 1); here ` +
        `strengths run from 1 to 32767 (${DEFAULT_DROP_STRENGTH}, the default, is a clear ring): ` +
        `for jquery.ripples' ${strength} pass ${Math.max(1, Math.round(strength * JQUERY_STRENGTH_SCALE))} ` +
        `(its strength times ${JQUERY_STRENGTH_SCALE})`,
    );
  }
}

/**
 * What input reads of the instance, now (each a getter: the pool and canvas change).
 * @typedef {object} InputHost
 * @property {HTMLElement} element
 * @property {() => HTMLCanvasElement} canvas
 * @property {() => Element | null} layersAbove
 * @property {() => any} pool the WasmPool
 * @property {() => { cssWidth: number, cssHeight: number }} cssSize
 * @property {() => number} dropRadius
 * @property {() => void} rouse wakes a sleeping frame loop
 * @property {(action: () => void) => void} safely runs `action`, reporting what it throws
 */

/**
 * Pool pixels per CSS pixel, and the canvas's box on screen.
 * @param {HTMLCanvasElement} canvas
 * @param {any} pool
 * @param {{ cssWidth: number, cssHeight: number }} cssSize
 */
export function canvasFrame(canvas, pool, cssSize) {
  const rect = canvas.getBoundingClientRect();
  const scaleX = rect.width > 0 ? pool.width / rect.width : pool.width / cssSize.cssWidth;
  const scaleY = rect.height > 0 ? pool.height / rect.height : pool.height / cssSize.cssHeight;
  return { rect, scaleX, scaleY };
}

/** The pointers and touches over one instance's water. */
export class PointerInput {
  #host;
  /** @type {AbortController | null} */
  #abort = null;
  // A pointer went down on the water (not on text or a control): the drag selects nothing.
  #dragOnWater = false;
  /** @type {Map<string, { x: number, y: number, finger: number | null, strength: number }>} */
  #last = new Map();

  /** @param {InputHost} host */
  constructor(host) {
    this.#host = host;
  }

  /** Listens to the element's pointer and touch events (until stop() or release()). */
  listen() {
    this.#abort = new AbortController();
    const options = { signal: this.#abort.signal, passive: true };
    const element = this.#host.element;
    /**
     * @template {keyof HTMLElementEventMap} K
     * @param {K} type
     * @param {(event: HTMLElementEventMap[K]) => void} handler
     */
    const on = (type, handler, passive = true) =>
      element.addEventListener(type, (event) => this.#host.safely(() => handler(event)), { ...options, passive });
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
    for (const type of /** @type {const} */ (['pointerleave', 'pointercancel'])) on(type, (e) => this.#lift(`p${e.pointerId}`));
    // Touch through touch events, which keep coming while the page scrolls (pointer events
    // stop with pointercancel); passive, so scrolling is never held up.
    on('touchstart', (e) => {
      for (const t of e.changedTouches) this.#press(`t${t.identifier}`, t.clientX, t.clientY);
    });
    on('touchmove', (e) => {
      for (const t of e.changedTouches) this.#move(`t${t.identifier}`, t.clientX, t.clientY, DRAG_STRENGTH);
    });
    for (const type of /** @type {const} */ (['touchend', 'touchcancel'])) {
      on(type, (e) => {
        for (const t of e.changedTouches) this.#lift(`t${t.identifier}`);
      });
    }
  }

  /** Stops listening; every finger comes out of the water (no pointer moves it again). */
  stop() {
    this.#abort?.abort();
    this.#abort = null;
    for (const key of [...this.#last.keys()]) this.#lift(key);
  }

  /** A new pool has no fingers: the pointers start afresh. */
  forget() {
    this.#last.clear();
  }

  /** Stops listening and forgets the pointers (destroy: the pool is freed). */
  release() {
    this.#abort?.abort();
    this.#abort = null;
    this.#last.clear();
  }

  /**
   * Whether a pointer that went down on `target` went down on the water: on the element itself
   * (or what Ripples put in it), or on an element of it that holds no text of its own and is
   * not a control (a wrapper). Text and controls keep their own drags.
   * @param {EventTarget | null} target
   */
  #onWater(target) {
    const element = this.#host.element;
    if (target === element || target === this.#host.canvas() || target === this.#host.layersAbove()) return true;
    if (!(target instanceof Element) || !element.contains(target)) return false;
    if (/** @type {HTMLElement} */ (target).isContentEditable || target.closest('a, button, input, select, textarea, label, summary')) return false;
    if (INTERACTIVE_TAGS.has(target.tagName)) return false;
    for (const node of target.childNodes) {
      if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim() !== '') return false;
    }
    return true;
  }

  /**
   * @param {number} clientX
   * @param {number} clientY
   */
  #toPool(clientX, clientY) {
    const { rect, scaleX, scaleY } = canvasFrame(this.#host.canvas(), this.#host.pool(), this.#host.cssSize());
    return { x: (clientX - rect.left) * scaleX, y: (clientY - rect.top) * scaleY, scale: scaleX };
  }

  /**
   * @param {string} key
   * @param {number} clientX
   * @param {number} clientY
   */
  #press(key, clientX, clientY) {
    this.#host.rouse();
    const point = this.#toPool(clientX, clientY);
    const radius = this.#host.dropRadius() * point.scale;
    this.#host.pool().drop(point.x, point.y, Math.max(1, radius * PRESS_RADIUS), PRESS_STRENGTH);
    this.#lift(key);
    this.#last.set(key, { x: point.x, y: point.y, finger: null, strength: 0 });
  }

  // A moving pointer is a fingertip in the water (a body the pool moves along with it, which
  // leaves a wake at the pointer's speed, not a stamped crease). A new strength (the button
  // went down or up) puts in a new finger where the old one was.
  /**
   * @param {string} key
   * @param {number} clientX
   * @param {number} clientY
   * @param {number} strength
   */
  #move(key, clientX, clientY, strength) {
    this.#host.rouse();
    const pool = this.#host.pool();
    const point = this.#toPool(clientX, clientY);
    const last = this.#last.get(key);
    if (last && last.finger !== null && last.strength === strength && pool.moveFinger(last.finger, point.x, point.y)) {
      last.x = point.x;
      last.y = point.y;
      return;
    }
    if (last && last.finger !== null) pool.liftFinger(last.finger);
    const radius = Math.max(1, this.#host.dropRadius() * point.scale);
    const from = last ?? point;
    const finger = pool.addFinger(from.x, from.y, radius, strength);
    pool.moveFinger(finger, point.x, point.y);
    this.#last.set(key, { x: point.x, y: point.y, finger, strength });
  }

  /**
   * The pointer `key` left the water: its finger comes out.
   * @param {string} key
   */
  #lift(key) {
    const last = this.#last.get(key);
    if (last && last.finger !== null) this.#host.pool().liftFinger(last.finger);
    this.#last.delete(key);
  }
}
