// What Ripples reads from the page's CSS: an element's background layers (the url() layer that
// becomes the floor under the water, and the layers above it, which stay the browser's to draw),
// the <video> a hero section shows behind its content and its object-fit, and names for error
// messages.
//
// Why it is its own module: ripples.js is the instance's life (attach, the frame loop, input,
// quality); this is the reading of computed styles it needs, plain functions of an element or a
// CSS value with no state, which the CSS arithmetic in Rust (backgroundLayout) then places.
// Multi-layer values are split here, at top-level commas, because the browser gives them as
// one string.

/** "div#hero.banner" for error messages. */
export function describeElement(element) {
  let text = element.tagName.toLowerCase();
  if (element.id) text += `#${element.id}`;
  for (const name of Array.from(element.classList).slice(0, 3)) text += `.${name}`;
  return `<${text}>`;
}


/** Splits a computed multi-layer CSS value ("url(a), linear-gradient(...)") at top-level commas. */
export function splitLayers(value) {
  const layers = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      layers.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  layers.push(value.slice(start).trim());
  return layers;
}

/** The first url() layer of the element's CSS background: its URL and index among the layers. */
export function cssBackground(element) {
  const style = getComputedStyle(element);
  const layers = splitLayers(style.backgroundImage);
  const index = layers.findIndex((layer) => layer.startsWith('url('));
  if (index < 0) return null;
  const match = /^url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^)]*?))\s*\)$/.exec(layers[index]);
  if (!match) return null;
  const url = (match[1] ?? match[2] ?? match[3]).replace(/\\(.)/g, '$1');
  return { url, index };
}

/**
 * The per-layer background properties: a layer's value is item `index % length` of each
 * comma-separated list (CSS repeats a short list).
 */
const LAYER_PROPERTIES = [
  'background-image',
  'background-size',
  'background-position',
  'background-repeat',
  'background-origin',
  'background-clip',
  'background-attachment',
  'background-blend-mode',
];

/**
 * The computed background layers `from` to `to` (exclusive) of `style` as declarations, each
 * property's list cut to those layers; null for no layer.
 */
export function layerDeclarations(style, from, to) {
  if (to <= from) return null;
  const declarations = {};
  for (const name of LAYER_PROPERTIES) {
    const list = splitLayers(style.getPropertyValue(name));
    const picked = [];
    for (let i = from; i < to; i++) picked.push(list[i % list.length]);
    declarations[name] = picked.join(', ');
  }
  return declarations;
}

/** The computed size, position and repeat of background layer `index`. */
export function layerStyle(element, index) {
  const style = getComputedStyle(element);
  const pick = (value) => {
    const list = splitLayers(value);
    return list[index % list.length];
  };
  return {
    size: pick(style.backgroundSize),
    position: pick(style.backgroundPosition),
    repeat: pick(style.backgroundRepeat),
    attachment: pick(style.backgroundAttachment),
  };
}


/**
 * The <video> a hero section shows behind its content: a child of `element`, absolutely (or
 * fixed) positioned, displayed, and covering the element's padding box; else null.
 */
export function backgroundVideo(element) {
  const box = element.getBoundingClientRect();
  const left = box.left + element.clientLeft;
  const top = box.top + element.clientTop;
  const right = left + element.clientWidth;
  const bottom = top + element.clientHeight;
  for (const child of element.children) {
    if (!(child instanceof HTMLVideoElement)) continue;
    const style = getComputedStyle(child);
    if (!['absolute', 'fixed'].includes(style.position) || style.display === 'none' || style.visibility === 'hidden') continue;
    const rect = child.getBoundingClientRect();
    if (rect.left <= left + 1 && rect.top <= top + 1 && rect.right >= right - 1 && rect.bottom >= bottom - 1) return child;
  }
  return null;
}

/** A video's object-fit as a background-size for backgroundLayout (scale-down: the smaller of none and contain). */
export function objectFitSize(fit, box, videoWidth, videoHeight) {
  switch (fit) {
    case 'fill':
      return '100% 100%';
    case 'contain':
      return 'contain';
    case 'none':
      return 'auto';
    case 'scale-down':
      return videoWidth <= box.width && videoHeight <= box.height ? 'auto' : 'contain';
    default:
      return 'cover';
  }
}

/** `value` made whole when it is within a thousandth of a whole number (float noise of a fit). */
export function snapped(value) {
  const whole = Math.round(value);
  return Math.abs(value - whole) < 1e-3 ? whole : value;
}
