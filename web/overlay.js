// The canvas overlaid on an element (any element but a <canvas>, which is drawn into): put
// behind the element's content and over its background, in a stacking context of its own,
// with the element's CSS background image taken off (the canvas shows it, under the water)
// and the layers above that image handed to an element of their own over the canvas. One
// Overlay per instance, which remembers the inline styles it changed so that destroy() puts
// them back. The canvas itself is the renderer's: it may be replaced (a lost WebGL context),
// so the methods that place things after it are handed the current one.

import { describeElement, layerDeclarations, splitLayers } from './css.js';
import { describeValue } from './options.js';

/** Elements that do not render children, so an overlay canvas inside them would not show. */
const NO_CHILDREN = new Set(['IMG', 'VIDEO', 'AUDIO', 'INPUT', 'TEXTAREA', 'SELECT', 'IFRAME', 'OBJECT', 'EMBED', 'BR', 'HR', 'PICTURE']);

/**
 * Throws, naming the problem, unless `element` can have ripples: an element in the document
 * that can hold an overlay canvas (one that renders its children), or a <canvas>.
 * @param {unknown} element
 * @param {string} where
 * @returns {asserts element is HTMLElement}
 */
export function checkElement(element, where) {
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
}

const COVER_STYLE =
  'position:absolute;left:0;top:0;width:100%;height:100%;z-index:-1;' +
  'pointer-events:none;display:block;margin:0;padding:0;border:0';

export class Overlay {
  #element;
  #pageVideo;
  /** @type {Record<string, [string, string]> | null} the inline styles before attach */
  #savedStyle;
  /** The canvas made by the constructor. */
  canvas;
  /** @type {HTMLElement | null} the background layers the browser keeps drawing above the water */
  layersAbove = null;

  /**
   * Puts a canvas behind `element`'s content, over its background: right over `pageVideo`
   * (a background <video>) when there is one.
   * @param {HTMLElement} element
   * @param {HTMLVideoElement | null} pageVideo
   */
  constructor(element, pageVideo) {
    this.#element = element;
    this.#pageVideo = pageVideo;
    const computed = getComputedStyle(element);
    const style = element.style;
    /** @param {string} name @returns {[string, string]} */
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
    canvas.style.cssText = COVER_STYLE;
    if (pageVideo) {
      // Right over the background <video>, in its layer: the video is hidden under the water,
      // and whatever the page put over the video stays over the water.
      canvas.style.zIndex = getComputedStyle(pageVideo).zIndex;
      pageVideo.after(canvas);
    } else {
      element.append(canvas);
    }
    this.canvas = canvas;
  }

  /**
   * Takes the image's background layer (`cssImage`'s index; every layer without one), and
   * those under it, off the element (`canvas` shows them, under the water), and hands the
   * layers over it (a dark gradient over a hero photo, a logo) to an element of their own
   * above the canvas, which the browser draws as it drew them. Lists stay aligned: the layers
   * taken off become `none` in the element's background-image, so every other background
   * property still names the same layer. Reads the page's own background afresh each time
   * (attach, show(), updateSize()).
   * @param {HTMLCanvasElement} canvas
   * @param {{ index: number } | null} cssImage
   */
  hideBackground(canvas, cssImage) {
    // Behind a background <video> the element's own background stays, under the canvas.
    if (this.#pageVideo) return;
    const element = this.#element;
    this.#putBackImage();
    const computed = getComputedStyle(element);
    const layers = splitLayers(computed.backgroundImage);
    // Layer 0 is the top one. The image's layer and those above it go from the element, whose
    // background is under the canvas; those below the image stay (the canvas is transparent
    // where the image does not reach). Without a CSS image every layer goes: the canvas covers
    // the element with imageUrl's image or the built-in tiles.
    const index = cssImage ? cssImage.index : layers.length;
    // The layers above the image are drawn over the canvas by an element of their own (read
    // before the element's style changes: a computed style is live).
    const above = cssImage ? layerDeclarations(computed, 0, index) : null;
    const kept = layers.map((layer, i) => (i <= index ? 'none' : layer));
    element.style.setProperty('background-image', kept.every((l) => l === 'none') ? 'none' : kept.join(', '), 'important');
    this.layersAbove?.remove();
    this.layersAbove = null;
    if (above && layers.slice(0, index).some((layer) => layer !== 'none')) {
      const cover = document.createElement('div');
      cover.className = 'ripples-layers';
      cover.setAttribute('aria-hidden', 'true');
      cover.style.cssText = COVER_STYLE;
      for (const [name, value] of Object.entries(above)) cover.style.setProperty(name, value);
      canvas.after(cover);
      this.layersAbove = cover;
    }
  }

  /** The element shows its own background again (hide()), every layer of it. */
  showBackground() {
    this.layersAbove?.remove();
    this.layersAbove = null;
    this.#putBackImage();
  }

  /** The element's background-image as the page had it. */
  #putBackImage() {
    if (!this.#savedStyle) return;
    const [saved, priority] = this.#savedStyle['background-image'];
    if (saved) this.#element.style.setProperty('background-image', saved, priority);
    else this.#element.style.removeProperty('background-image');
  }

  /** Puts back every inline style the overlay changed (destroy). */
  restore() {
    this.layersAbove?.remove();
    this.layersAbove = null;
    if (!this.#savedStyle) return;
    for (const [name, [value, priority]] of Object.entries(this.#savedStyle)) {
      if (value) this.#element.style.setProperty(name, value, priority);
      else this.#element.style.removeProperty(name);
    }
    this.#savedStyle = null;
  }
}
