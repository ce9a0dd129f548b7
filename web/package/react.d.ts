// Types of @ripples-rs/ripples/react (react.js), written by hand; checked with `tsc --strict`
// by web/e2e/package.mjs.

import type { ForwardRefExoticComponent, HTMLAttributes, ReactNode, RefAttributes } from 'react';
import type { Ripples as RipplesInstance, RipplesOptions, RipplesStats, WasmSource } from './ripples.js';

/** What a ref to <Ripples> gives. The methods do nothing (stats() gives null) until attach resolves. */
export interface RipplesHandle {
  /** The Ripples instance, or null before attach resolved and after unmount. */
  readonly ripples: RipplesInstance | null;
  /** The element <Ripples> rendered. */
  readonly element: HTMLElement | null;
  /** Drops a stone at (x, y) CSS pixels from the element's top-left corner (see Ripples.drop). */
  drop(x: number, y: number, radius?: number, strength?: number): void;
  /** Stops the water and the frame loop. */
  pause(): void;
  /** Runs the water again. */
  play(): void;
  /** Re-reads the element's size and CSS background. */
  updateSize(): void;
  /** Frame rate, cost and state (see Ripples.stats), or null before attach resolved. */
  stats(): RipplesStats | null;
}

/**
 * The props of <Ripples>: every water option (handed to attach, and to set() when it changes),
 * `wasm`, `as`, `onReady`, `onError`, and the element's own props (className, style, children...).
 */
export interface RipplesProps
  extends RipplesOptions,
    Omit<HTMLAttributes<HTMLElement>, keyof RipplesOptions | 'onError' | 'children'> {
  /** The element to render (default 'div'); a 'canvas' is drawn into. Changing it attaches anew. */
  as?: keyof HTMLElementTagNameMap;
  /** Where the WebAssembly module is, when it is not found next to ripples.js (see Ripples.init). */
  wasm?: WasmSource;
  /** Called with the instance once attach resolved. */
  onReady?: (ripples: RipplesInstance) => void;
  /** Errors of attach, set() and the instance's `error` events; without it they are logged. */
  onError?: (error: Error) => void;
  /** Content over the water. */
  children?: ReactNode;
}

/** Water ripples over the element it renders, made in an effect and destroyed on unmount. */
export const Ripples: ForwardRefExoticComponent<RipplesProps & RefAttributes<RipplesHandle>>;
export default Ripples;
