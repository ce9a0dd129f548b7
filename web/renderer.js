// Who draws the water: WebGL2 (a GlRenderer, from the surface the wasm module writes) on an
// overlay canvas, or the CPU (putImageData of a view into the wasm memory, no copy) when the
// renderer option says 'cpu', the browser has no WebGL2, the page holds GlRenderer's most
// contexts, attach was given a <canvas> (its context is the page's to choose) or the WebGL
// context was lost. One Renderer per instance, owning the canvas and its context; a switch
// replaces the canvas (one that had a WebGL context can have no other), and the instance then
// recomposes what the old renderer held (see Ripples).

import { GlRenderer } from './gl-renderer.js';

/** @typedef {'option' | 'no-webgl2' | 'canvas-element' | 'context-lost'} CpuReason */

export class Renderer {
  #ownsCanvas;
  #onLost;
  /** @type {HTMLCanvasElement} */
  canvas;
  /** @type {CanvasRenderingContext2D | null} the CPU's context, when the CPU draws */
  context = null;
  /** @type {GlRenderer | null} the WebGL2 renderer when the GPU draws, else null */
  gl = null;
  /**
   * Why the CPU draws, when it does.
   * @type {CpuReason}
   */
  cpuReason = 'option';
  /** @type {ImageData | null} */
  #imageData = null;

  /**
   * Draws on `canvas` (an overlay of ours when `ownsCanvas`) with WebGL2 unless `renderer` is
   * 'cpu' or WebGL2 cannot be had; `onLost` is called when the WebGL context is lost.
   * @param {HTMLCanvasElement} canvas
   * @param {boolean} ownsCanvas
   * @param {string} renderer the renderer option
   * @param {() => void} onLost
   */
  constructor(canvas, ownsCanvas, renderer, onLost) {
    this.canvas = canvas;
    this.#ownsCanvas = ownsCanvas;
    this.#onLost = onLost;
    if (ownsCanvas && renderer !== 'cpu') {
      this.gl = GlRenderer.create(canvas, onLost);
      if (this.gl) return;
      this.cpuReason = 'no-webgl2';
    } else {
      this.cpuReason = ownsCanvas ? 'option' : 'canvas-element';
    }
    this.context = canvas.getContext('2d');
  }

  /**
   * The CPU draws from now on (`reason`: see cpuReason), on a fresh canvas. Returns whether it
   * switched (false: the CPU drew already).
   * @param {CpuReason} reason
   */
  toCpu(reason) {
    if (!this.gl) return false;
    this.gl.release();
    this.gl = null;
    this.cpuReason = reason;
    const canvas = this.#freshCanvas();
    this.canvas.replaceWith(canvas);
    this.canvas = canvas;
    this.context = canvas.getContext('2d');
    this.#imageData = null;
    return true;
  }

  /**
   * WebGL2 draws from now on, on a fresh canvas, if it can be had. Returns whether it switched
   * (false: WebGL2 drew already, the canvas is the page's, or there is no WebGL2).
   */
  toGl() {
    if (this.gl || !this.#ownsCanvas) return false;
    const canvas = this.#freshCanvas();
    const gl = GlRenderer.create(canvas, this.#onLost);
    if (!gl) {
      this.cpuReason = 'no-webgl2';
      return false;
    }
    this.canvas.replaceWith(canvas);
    this.canvas = canvas;
    this.context = null;
    this.#imageData = null;
    this.gl = gl;
    return true;
  }

  /** @returns {HTMLCanvasElement} */
  #freshCanvas() {
    return /** @type {HTMLCanvasElement} */ (this.canvas.cloneNode(false));
  }

  /** A pool of a new size: the canvas takes it, and the CPU's view of the old frame goes. */
  resize(width, height) {
    this.#imageData = null;
    if (this.#ownsCanvas) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
  }

  /**
   * Puts `pool`'s frame on the canvas, through a view of the wasm `memory` (no copy).
   * @param {any} pool the WasmPool
   * @param {WebAssembly.Memory} memory
   * @param {string} look the look option
   */
  draw(pool, memory, look) {
    if (this.gl) {
      this.gl.draw(pool, memory, look);
      return;
    }
    const buffer = memory.buffer;
    if (!this.#imageData || this.#imageData.data.buffer !== buffer) {
      // The first frame, a new pool, or the memory grew (which replaces its ArrayBuffer).
      const view = new Uint8ClampedArray(buffer, pool.framePtr, pool.frameLen);
      this.#imageData = new ImageData(view, pool.width, pool.height);
    }
    this.context?.putImageData(this.#imageData, 0, 0);
  }

  /** Clears the canvas (hide() on a <canvas> given to attach). */
  clear() {
    this.context?.clearRect(0, 0, this.canvas.width, this.canvas.height);
  }

  /** Lets the WebGL context go (destroy); an overlay canvas leaves the page. */
  release() {
    this.gl?.release();
    this.gl = null;
    if (this.#ownsCanvas) this.canvas.remove();
    this.#imageData = null;
    this.context = null;
  }
}
