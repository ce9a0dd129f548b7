// <Ripples> for React (@ripples-rs/ripples/react): water ripples over an element React renders.
//
//   import { Ripples } from '@ripples-rs/ripples/react';
//   <Ripples imageUrl="/pool.jpg" rain={2} style={{ height: 400 }} ref={ref}>Text over the water</Ripples>
//
// The props are the options of Ripples.attach (Ripples.defaults, and `wasm`), plus `as` (the
// element, 'div' by default), `onReady(ripples)` and `onError(error)`; every other prop goes to
// the element (className, style with a CSS background, aria-*, children...). Water options that
// change are handed to set(), so the water goes on.
//
// The instance is made in an effect and destroyed in its cleanup, so nothing runs during
// server-side rendering and importing this file touches no window or document. StrictMode
// mounts, unmounts and mounts again at once: attach is asynchronous (the wasm module loads),
// so each mount waits for the previous mount on the same element to finish and be destroyed
// before it attaches, and a mount whose cleanup ran first never attaches at all; the element
// ends with exactly one instance. The ref gives drop(), pause(), play(), updateSize(), stats()
// and the instance itself (null until attach resolves).
//
// Written with createElement rather than JSX, so the package needs no build step. 'use client'
// marks it for React Server Components (Next.js's app router): a server component may render
// <Ripples>, which then runs in the browser.
'use client';

import { createElement, forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { Ripples as RipplesCore } from './ripples.js';

/** The props that are water options (handed to attach and set) rather than element props. */
const OPTION_PROPS = new Set([...Object.keys(RipplesCore.defaults), 'waterColor']);

/** Per element, the promise of the last mount's attach and destroy: the next mount waits for it. */
const settling = new WeakMap();

function splitProps(props) {
  const options = {};
  const elementProps = {};
  for (const [name, value] of Object.entries(props)) {
    if (OPTION_PROPS.has(name)) {
      if (value !== undefined) options[name] = value;
    } else elementProps[name] = value;
  }
  return { options, elementProps };
}

/** The options that differ from `before`, with a removed option back at its default. */
function changes(before, after) {
  const changed = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (Object.is(before[name], after[name])) continue;
    if (name in after) {
      changed[name] = after[name];
    } else if (!('waterColour' in after || 'waterColor' in after) || !name.startsWith('waterColo')) {
      const option = name === 'waterColor' ? 'waterColour' : name;
      changed[option] = RipplesCore.defaults[option];
    }
  }
  // [r, g, b] colours are new arrays on every render: compare them by value.
  for (const name of ['waterColour', 'waterColor']) {
    if (Array.isArray(before[name]) && Array.isArray(after[name]) && before[name].join() === after[name].join()) {
      delete changed[name];
    }
  }
  return changed;
}

function report(onError, error) {
  if (onError) onError(error);
  else console.error(error);
}

/** Water ripples over the element it renders; see the file's comment. */
export const Ripples = forwardRef(function Ripples(props, ref) {
  const { as = 'div', wasm, onReady, onError, children, ...rest } = props;
  const { options, elementProps } = splitProps(rest);
  const elementRef = useRef(null);
  const instanceRef = useRef(null);
  // What the instance was last given, and the latest props, for the effects to read.
  const appliedRef = useRef(null);
  const latest = useRef({ options, wasm, onReady, onError });
  latest.current = { options, wasm, onReady, onError };

  /** Hands `pending` to set(); bad values and failed loads go to onError. */
  function apply(instance, pending, options) {
    appliedRef.current = options;
    try {
      instance.set(pending).catch((error) => report(latest.current.onError, error));
    } catch (error) {
      report(latest.current.onError, error);
    }
  }

  useImperativeHandle(
    ref,
    () => ({
      get ripples() {
        return instanceRef.current;
      },
      get element() {
        return elementRef.current;
      },
      drop(x, y, radius, strength) {
        instanceRef.current?.drop(x, y, radius, strength);
      },
      pause() {
        instanceRef.current?.pause();
      },
      play() {
        instanceRef.current?.play();
      },
      updateSize() {
        instanceRef.current?.updateSize();
      },
      stats() {
        return instanceRef.current?.stats() ?? null;
      },
    }),
    [],
  );

  useEffect(() => {
    const element = elementRef.current;
    let cancelled = false;
    let instance = null;
    const onInstanceError = (event) => {
      if (latest.current.onError) {
        event.preventDefault();
        latest.current.onError(event.error ?? new Error(event.message));
      }
    };
    const previous = settling.get(element) ?? Promise.resolve();
    const done = previous.then(async () => {
      if (cancelled) return;
      const given = latest.current.options;
      try {
        instance = await RipplesCore.attach(element, { ...given, wasm: latest.current.wasm });
      } catch (error) {
        if (!cancelled) report(latest.current.onError, error);
        return;
      }
      if (cancelled) {
        instance.destroy();
        instance = null;
        return;
      }
      instance.addEventListener('error', onInstanceError);
      instanceRef.current = instance;
      appliedRef.current = given;
      // Props that changed while attach ran.
      const pending = changes(given, latest.current.options);
      if (Object.keys(pending).length) apply(instance, pending, latest.current.options);
      latest.current.onReady?.(instance);
    });
    settling.set(element, done);
    return () => {
      cancelled = true;
      if (instance) {
        instance.removeEventListener('error', onInstanceError);
        instance.destroy();
        instance = null;
      }
      if (instanceRef.current && instanceRef.current.element === element) instanceRef.current = null;
    };
  }, [as]);

  // Water options that changed since the instance last got them.
  useEffect(() => {
    const instance = instanceRef.current;
    if (!instance || instance.destroyed || !appliedRef.current) return;
    const pending = changes(appliedRef.current, options);
    if (!Object.keys(pending).length) return;
    apply(instance, pending, options);
  });

  return createElement(as, { ...elementProps, ref: elementRef }, children);
});

export default Ripples;
