// A video under the water: the `videoUrl` option, or the <video> a hero section shows behind
// its content. ripples.js asks this module, once per animation frame, whether the video shows
// a new frame, and if so has it put under the water: when WebGL draws, straight from the
// <video> into the renderer's picture texture (toTexture: no copy of its pixels at all);
// when the CPU draws, written into the pool's image in the wasm memory (upload: the pool then
// renders over it). So the water refracts the playing video frame by frame.
//
// Why it is shaped so:
// - A frame is copied only when the video presents a new one: requestVideoFrameCallback says
//   when (where there is none, a change of currentTime does), so a 30 fps clip under a 60 Hz
//   loop costs one copy every other frame, and a paused or ended video none at all while the
//   water keeps moving over its still frame.
// - The copy goes into the memory the pool already has for its image (WasmPool.imagePtr), so a
//   new picture per frame allocates nothing in wasm. Where the video lands 1:1 on the pool (a
//   1280x720 clip in a 1280x720 box with background-size or object-fit cover, the common hero
//   case) WebCodecs' VideoFrame.copyTo converts it to RGBA straight into a buffer kept for
//   the purpose (about 1 ms for 1280x720 in headless Chromium against 5.5 ms for drawImage and
//   getImageData, which also allocates a new ImageData per frame). Every other fit (scaled,
//   cropped at odd offsets) is copied the same way at the video's own size, scaled by a 2D
//   canvas kept for the pool's size (a 2D canvas converts YUV slowly, so drawing the <video>
//   itself costs twice as much), and read back by a second WebCodecs copy, of a VideoFrame made
//   from that canvas, into a second kept buffer: getImageData would allocate a new ImageData
//   of the pool's size per video frame (3.7 MB at 1280x720, 110 MB/s of garbage for a 30 fps
//   clip) and took 4.5 ms against 3.1 for the copy. Drawing the <video> is left for browsers
//   without WebCodecs and for the frame at attach and after a resize, which must be there at
//   once.
// - Autoplay: a video Ripples makes (videoUrl) is muted, playsInline and loops, which every
//   browser's autoplay policy lets play by itself. A page's own <video> that does not play yet
//   gets the same, saved and put back by release(); one that already plays is left as the page
//   set it. A refused play() is an error event that says why, and the water shows the frame the
//   video holds.
// - Errors name the video and say what to do, as those of images do: a URL that does not load
//   (with the CORS explanation when it is on another origin), a format the browser cannot play,
//   a video the page may not read (another origin without CORS: the canvas would be tainted).

import { scratchContext } from './images.js';

// How the video's frames are copied (stats().video.path).
/** WebCodecs straight into the pool's image layout (the video lands 1:1). */
const PATH_VIDEO_FRAME = 'videoframe';
/** WebCodecs at the video's size, then scaled by a 2D canvas (any other fit). */
const PATH_VIDEO_FRAME_SCALED = 'videoframe-scaled';
/** drawImage of the <video> itself (no WebCodecs, or it failed on this video). */
const PATH_CANVAS = 'canvas';
/** The <video> straight into the WebGL renderer's picture texture (no copy in wasm). */
const PATH_TEXTURE = 'webgl';

/** VideoFrame.copyTo's options for the scaled path's read-back of the pool-sized canvas. */
const SCALED_COPY = { format: 'RGBA', colorSpace: 'srgb' };

/** HTMLMediaElement.readyState: the current frame is there. */
const HAVE_CURRENT_DATA = 2;

const MEDIA_ERRORS = {
  1: 'loading was aborted',
  2: 'a network error',
  3: 'the video could not be decoded',
  4: 'not found, not a video, or a format this browser cannot play',
};

function describeVideo(source) {
  return source.url === null ? 'the background <video>' : `video '${source.url}'`;
}

/** The explanation for a video the page may not read (SecurityError from the canvas or WebCodecs). */
function taintedError(source, where) {
  const origin = source.absolute?.origin ?? 'another origin';
  const fix =
    source.url === null
      ? `Give the <video> crossorigin="anonymous" and serve it with an Access-Control-Allow-Origin header, or serve it from this page's origin`
      : `Serve it with an Access-Control-Allow-Origin header and keep crossOrigin at '' (anonymous), or serve it from this page's origin`;
  return new Error(
    `${where}: ${describeVideo(source)} is on another origin (${origin}) and was loaded without ` +
      `CORS, so the browser does not let the page read its frames (the canvas is tainted). ${fix}.`,
  );
}

/**
 * Waits until `video` holds its current frame (loadeddata), or fails with a message that says
 * why it did not load; `source` names it.
 */
function whenLoaded(video, source, where) {
  return new Promise((resolve, reject) => {
    if (video.readyState >= HAVE_CURRENT_DATA && video.videoWidth > 0) {
      resolve();
      return;
    }
    const done = () => {
      video.removeEventListener('loadeddata', loaded);
      video.removeEventListener('error', failed);
    };
    const loaded = () => {
      done();
      if (video.videoWidth > 0 && video.videoHeight > 0) resolve();
      else reject(new Error(`${where}: ${describeVideo(source)} has no picture (an audio file?)`));
    };
    const failed = () => {
      done();
      const code = video.error?.code ?? 0;
      const absolute = source.absolute;
      const crossSite = absolute && absolute.origin !== location.origin && absolute.protocol.startsWith('http');
      if (crossSite && source.cors !== null) {
        reject(
          new Error(
            `${where}: ${describeVideo(source)} could not be loaded. It is on another origin ` +
              `(${absolute.origin}) and was requested with CORS (crossOrigin: '${source.cors}'), so its ` +
              `server must send an Access-Control-Allow-Origin header; or the URL is wrong or not a video.`,
          ),
        );
      } else {
        const why = MEDIA_ERRORS[code] ?? 'an unknown error';
        const detail = video.error?.message ? ` (${video.error.message})` : '';
        reject(new Error(`${where}: ${describeVideo(source)} could not be loaded: ${why}${detail}`));
      }
    };
    video.addEventListener('loadeddata', loaded);
    video.addEventListener('error', failed);
  });
}

/** The properties a page's <video> gets for autoplay (saved and put back by release()). */
const AUTOPLAY = { muted: true, playsInline: true, loop: true };

/** A video whose frames go under the water. Make one with `load` or `adopt`. */
export class VideoSource {
  /** The <video> element. */
  video;
  /** The URL as given (videoUrl), or null for a page's own <video>. */
  url;
  /** The absolute URL, or null when unknown. */
  absolute;
  /** The CORS mode it was requested with (videoUrl), or null. */
  cors;
  /** Whether Ripples made the element (videoUrl) rather than the page. */
  owned;
  /** Why the video does not play by itself (a refused play()), or null. */
  playError = null;
  #saved = null;
  #rvfc = 0;
  #onSeeked = null;
  #fresh = true;
  #lastTime = -1;
  #released = false;
  // Where frames go: the pool's size, the video's rectangle on it (pool pixels), the rectangle
  // it is clipped to (the <video> element's box), and the video size they were made for.
  #layout = null;
  #context = null;
  #staging = null;
  #copyOptions = null;
  // PATH_VIDEO_FRAME_SCALED: a canvas of the video's size and an ImageData over #staging, and
  // the buffer the scaled frame is read back into (the pool's size).
  #natural = null;
  #naturalImage = null;
  #scaled = null;
  #generation = 0;
  #path = PATH_CANVAS;
  // Why WebCodecs could not copy this video (then it is drawn), or null.
  #frameCopyError = null;
  #uploads = 0;
  #uploadMs = 0;
  // Frames written into the pool's image in the wasm memory (none while WebGL draws), and
  // whether the last frame went to the WebGL renderer's texture.
  #wasmCopies = 0;
  #onGpu = false;
  #sinceWindow = { uploads: 0, ms: 0 };
  // Main-thread milliseconds spent on copies since takeSpentMs() last looked, including the
  // part that runs when a WebCodecs copy is done (outside the frame that started it).
  #spentMs = 0;

  constructor(video, { url = null, absolute = null, cors = null, owned }) {
    this.video = video;
    this.url = url;
    this.absolute = absolute;
    this.cors = cors;
    this.owned = owned;
  }

  /**
   * A <video> for `videoUrl` (an absolute URL object beside the URL as given), muted,
   * playsInline and looping, loaded to its first frame; rejects with why it could not load.
   */
  static async load(url, absolute, cors, where) {
    const video = document.createElement('video');
    if (cors !== null) video.crossOrigin = cors;
    Object.assign(video, AUTOPLAY, { preload: 'auto', autoplay: true });
    // iOS Safari reads the attributes, not the properties, before a first play.
    video.setAttribute('muted', '');
    video.setAttribute('playsinline', '');
    const source = new VideoSource(video, { url, absolute, cors, owned: true });
    video.src = absolute.href;
    try {
      await whenLoaded(video, source, where);
    } catch (error) {
      source.release();
      throw error;
    }
    source.#watchFrames();
    return source;
  }

  /**
   * The page's own `video` (a hero section's background), loaded to its current frame. One
   * that does not play yet is made muted, playsInline and looping (put back by release()).
   */
  static async adopt(video, where) {
    let absolute = null;
    const address = video.currentSrc || video.src || video.querySelector('source[src]')?.src || '';
    if (!address) {
      throw new Error(`${where}: the background <video> has no source (no src and no <source> element)`);
    }
    try {
      absolute = new URL(address, document.baseURI);
    } catch {
      absolute = null;
    }
    const source = new VideoSource(video, { absolute, cors: video.crossOrigin, owned: false });
    if (video.paused) {
      source.#saved = { preload: video.preload };
      for (const name of Object.keys(AUTOPLAY)) source.#saved[name] = video[name];
      Object.assign(video, AUTOPLAY);
      if (video.preload === 'none') video.preload = 'auto';
    }
    // A page's video whose data never came (preload none, no autoplay) starts loading on play.
    if (video.readyState < HAVE_CURRENT_DATA) source.play();
    try {
      await whenLoaded(video, source, where);
    } catch (error) {
      source.release();
      throw error;
    }
    source.#watchFrames();
    return source;
  }

  /**
   * Called when the video presents a new frame (or finishes a seek), for a page loop that
   * sleeps while nothing moves; null: nobody listens.
   */
  onNewFrame = null;

  /** Follows the frames the video presents (see takeNewFrame). */
  #watchFrames() {
    const video = this.video;
    if (typeof video.requestVideoFrameCallback !== 'function') {
      // currentTime moves when a seek starts, before its frame is there: the frame comes with
      // 'seeked'.
      this.#onSeeked = () => {
        this.#fresh = true;
        this.onNewFrame?.();
      };
      video.addEventListener('seeked', this.#onSeeked);
      return;
    }
    const presented = () => {
      this.#fresh = true;
      this.#rvfc = video.requestVideoFrameCallback(presented);
      this.onNewFrame?.();
    };
    this.#rvfc = video.requestVideoFrameCallback(presented);
  }

  /**
   * Starts the video if it is paused and has not ended; a refused play() (autoplay policy)
   * calls `onRefused` with an Error that says why, once, and the water keeps the frame the
   * video shows.
   * @param {(error: Error) => void} [onRefused]
   * @param {string} [where]
   */
  play(onRefused = () => {}, where = 'Ripples') {
    const video = this.video;
    if (!video.paused || video.ended) return;
    let started;
    try {
      started = video.play();
    } catch (error) {
      started = Promise.reject(error);
    }
    Promise.resolve(started).then(
      () => {
        this.playError = null;
      },
      (error) => {
        // AbortError: a pause() or a new source came first, which is not a refusal.
        if (this.#released || error?.name === 'AbortError') return;
        const which = video.muted ? 'a muted video' : 'a video with sound';
        this.playError =
          `${where}: ${describeVideo(this)} may not play by itself here: the browser refused play() ` +
          `(${error?.name ?? 'Error'}: ${error?.message ?? error}) for ${which}, as its ` +
          `autoplay policy does until the page is clicked (or with data saving on); the water ` +
          `shows the video's current frame. Keep the video muted, or call ripples.video.play() ` +
          `from a click.`;
        onRefused(new Error(this.playError));
      },
    );
  }

  /** The video's size in pixels (it may change midway: adaptive streaming). */
  get width() {
    return this.video.videoWidth;
  }

  get height() {
    return this.video.videoHeight;
  }

  /**
   * Whether the video presented a frame since the last call: requestVideoFrameCallback where
   * there is one; else a change of currentTime (which in Chromium moves on every animation
   * frame of a playing video, so there every frame is copied) or a finished seek. A change of
   * the video's size counts.
   */
  takeNewFrame() {
    const layout = this.#layout;
    if (layout && (layout.videoWidth !== this.video.videoWidth || layout.videoHeight !== this.video.videoHeight)) {
      return true;
    }
    if (this.#rvfc) {
      const fresh = this.#fresh;
      this.#fresh = false;
      return fresh;
    }
    const time = this.video.currentTime;
    const moved = this.#fresh || time !== this.#lastTime;
    this.#fresh = false;
    this.#lastTime = time;
    return moved;
  }

  /** Whether a frame's size moved since `place`, so the page must lay the video out again. */
  get resized() {
    const layout = this.#layout;
    return !!layout && (layout.videoWidth !== this.video.videoWidth || layout.videoHeight !== this.video.videoHeight);
  }

  /**
   * Where the video's frames go from now on: a pool of `width x height` pixels, the video's
   * rectangle `[x, y, w, h]` on it and the rectangle `clip` it is cut to (pool pixels).
   */
  place(width, height, rect, clip) {
    const [x, y, w, h] = rect;
    const videoWidth = this.video.videoWidth;
    const videoHeight = this.video.videoHeight;
    // 1:1 at whole (even: 4:2:0 chroma) offsets, within the clip: WebCodecs can copy it.
    const visible = {
      left: Math.max(0, clip.x, x),
      top: Math.max(0, clip.y, y),
      right: Math.min(width, clip.x + clip.width, x + w),
      bottom: Math.min(height, clip.y + clip.height, y + h),
    };
    const oneToOne =
      Math.abs(w - videoWidth) < 1e-6 &&
      Math.abs(h - videoHeight) < 1e-6 &&
      Number.isInteger(x) &&
      Number.isInteger(y) &&
      [visible.left - x, visible.top - y, visible.right - x, visible.bottom - y].every(
        (edge) => Number.isInteger(edge) && edge % 2 === 0,
      );
    this.#generation++;
    this.#layout = { width, height, rect, clip, visible, videoWidth, videoHeight, oneToOne };
    const canCopyFrames = typeof VideoFrame === 'function' && this.#frameCopyError === null;
    const seen = visible.right > visible.left && visible.bottom > visible.top;
    if (!canCopyFrames || !seen) this.#path = PATH_CANVAS;
    else this.#path = oneToOne ? PATH_VIDEO_FRAME : PATH_VIDEO_FRAME_SCALED;
    this.#context = null;
    this.#natural = null;
    this.#scaled = null;
    this.#staging = null;
    // VideoFrame.copyTo's options for this layout: 1:1, the visible part of the frame,
    // converted to RGBA, at its place in a buffer laid out as the pool's image; scaled, the
    // whole frame in RGBA at its own size.
    this.#copyOptions = oneToOne
      ? {
          rect: { x: visible.left - x, y: visible.top - y, width: visible.right - visible.left, height: visible.bottom - visible.top },
          layout: [{ offset: (visible.top * width + visible.left) * 4, stride: width * 4 }],
          format: 'RGBA',
          colorSpace: 'srgb',
        }
      : { format: 'RGBA', colorSpace: 'srgb' };
  }

  /**
   * Writes the video's current frame into `target` (the pool's image: a Uint8Array view of
   * the wasm memory, from `view()`), now, by drawing it (the frame at attach, after a resize).
   * Throws the tainted-canvas explanation for a video the page may not read.
   */
  drawNow(target, where) {
    this.#onGpu = false;
    const started = performance.now();
    this.#drawScaled(this.video, target, where);
    this.#count(performance.now() - started);
  }

  /**
   * Draws `source` (the <video>, or a canvas holding its frame) where the layout puts it, reads
   * the pixels back and writes them into `target()`.
   */
  #drawScaled(source, target, where) {
    this.#readBack(this.#paint(source, where), target, where);
  }

  /** The pool-sized canvas's pixels into `target()`, by getImageData (a new ImageData each time). */
  #readBack(context, target, where) {
    const { width, height } = this.#layout;
    let pixels;
    try {
      pixels = context.getImageData(0, 0, width, height).data;
    } catch (error) {
      if (error?.name === 'SecurityError') throw taintedError(this, where);
      throw error;
    }
    target().set(pixels);
    this.#wasmCopies++;
  }

  /** Draws `source` on the pool-sized canvas where the layout puts it; returns its context. */
  #paint(source, where) {
    const { width, height, rect, clip } = this.#layout;
    this.#context ??= scratchContext(width, height, where);
    const context = this.#context;
    context.clearRect(0, 0, width, height);
    const clipped = clip.x > 0 || clip.y > 0 || clip.x + clip.width < width || clip.y + clip.height < height;
    if (clipped) {
      context.save();
      context.beginPath();
      context.rect(clip.x, clip.y, clip.width, clip.height);
      context.clip();
    }
    context.drawImage(source, rect[0], rect[1], rect[2], rect[3]);
    if (clipped) context.restore();
    return context;
  }

  /**
   * Writes the video's current frame into the pool's image: by WebCodecs into a kept buffer,
   * copied into `target()` (a view of the pool's image) when the copy is done, then
   * `changed()` (the pool renders it), or drawn at once where WebCodecs cannot (see place).
   * `failed` gets an error that stops the water (a tainted video).
   */
  upload(target, changed, failed, where) {
    this.#onGpu = false;
    if (this.#path === PATH_CANVAS) {
      this.drawNow(target, where);
      changed();
      return;
    }
    if (this.#copy.frame !== null) {
      // One copy at a time: this frame is taken when that one is done.
      this.#fresh = true;
      return;
    }
    const started = performance.now();
    let frame;
    try {
      frame = new VideoFrame(this.video);
    } catch (error) {
      if (error?.name === 'SecurityError') {
        failed(taintedError(this, where));
        return;
      }
      // No frame to take (between sources): the next presented frame tries again.
      return;
    }
    if (!this.#staging) {
      const { width, height, videoWidth, videoHeight } = this.#layout;
      this.#staging =
        this.#path === PATH_VIDEO_FRAME ? new Uint8Array(width * height * 4) : new Uint8Array(videoWidth * videoHeight * 4);
    }
    // What the copy's end needs, in fields (no closure per frame).
    const copy = this.#copy;
    copy.generation = this.#generation;
    copy.target = target;
    copy.changed = changed;
    copy.failed = failed;
    this.#startCopy(frame, this.#staging, this.#copyOptions, this.#copied);
    this.#count(performance.now() - started);
  }

  // The copy under way: its VideoFrame (null: none), the layout it was made for, where it goes.
  #copy = { frame: null, generation: 0, target: null, changed: null, failed: null };

  /**
   * A copy is done: into the pool's image, unless the layout changed or the video went. A
   * frame of the scaled path goes on to be scaled and read back (#rescaled then ends it).
   */
  #copied = () => {
    if (!this.#endCopy()) return;
    const copy = this.#copy;
    const start = performance.now();
    try {
      if (this.#path === PATH_VIDEO_FRAME) {
        copy.target().set(this.#staging);
        this.#wasmCopies++;
        copy.changed();
      } else {
        this.#rescale();
      }
    } catch (error) {
      copy.failed(error);
    }
    this.#spend(performance.now() - start);
  };

  /**
   * Starts WebCodecs' copy of `frame` into `buffer` as the copy under way; `done` runs when it
   * is there, #copyFailed if it fails.
   */
  #startCopy(frame, buffer, options, done) {
    this.#copy.frame = frame;
    let copied;
    try {
      copied = frame.copyTo(buffer, options);
    } catch (error) {
      copied = Promise.reject(error);
    }
    copied.then(done, this.#copyFailed);
  }

  /**
   * Ends the copy under way (its frame is closed); whether what it copied still belongs in the
   * pool's image (the layout is the same and the video still followed).
   */
  #endCopy() {
    const copy = this.#copy;
    copy.frame.close();
    copy.frame = null;
    return !this.#released && copy.generation === this.#generation;
  }

  /**
   * The scaled path's second half: the frame copied at its own size (#staging) goes on a
   * canvas of that size, which is drawn scaled on the pool's, which a second WebCodecs copy
   * reads into #scaled (see the module notes). Where a VideoFrame cannot be made of a canvas,
   * it is read back with getImageData, as the canvas path does.
   */
  #rescale() {
    const { width, height, videoWidth, videoHeight } = this.#layout;
    if (!this.#natural) {
      this.#natural = scratchContext(videoWidth, videoHeight, 'Ripples (video)');
      this.#naturalImage = new ImageData(new Uint8ClampedArray(this.#staging.buffer), videoWidth, videoHeight);
    }
    this.#natural.putImageData(this.#naturalImage, 0, 0);
    const context = this.#paint(this.#natural.canvas, 'Ripples (video)');
    let frame;
    try {
      frame = new VideoFrame(context.canvas, { timestamp: 0 });
    } catch {
      this.#readBack(context, this.#copy.target, 'Ripples (video)');
      this.#copy.changed();
      return;
    }
    this.#scaled ??= new Uint8Array(width * height * 4);
    this.#startCopy(frame, this.#scaled, SCALED_COPY, this.#rescaled);
  }

  /** The scaled frame is read back: into the pool's image, unless the layout changed. */
  #rescaled = () => {
    if (!this.#endCopy()) return;
    const copy = this.#copy;
    const start = performance.now();
    copy.target().set(this.#scaled);
    this.#wasmCopies++;
    copy.changed();
    this.#spend(performance.now() - start);
  };

  /**
   * Puts the video's current frame into `renderer`'s picture (a GlRenderer: see its
   * placeVideo) where the layout puts it, straight from the <video>: nothing is copied into
   * the wasm memory, and the main thread's time of it counts as an upload's (stats().video)
   * but not as a copy's (takeSpentMs). Throws the tainted-canvas explanation for a video the
   * page may not read.
   */
  toTexture(renderer, where) {
    const { width, height, rect, clip } = this.#layout;
    // A WebCodecs copy under way is for the CPU path: its end is dropped (see #endCopy).
    this.#generation++;
    this.#onGpu = true;
    const started = performance.now();
    try {
      renderer.placeVideo(this.video, width, height, rect, clip);
    } catch (error) {
      if (error?.name === 'SecurityError') throw taintedError(this, where);
      throw error;
    }
    const ms = performance.now() - started;
    this.#uploads++;
    this.#uploadMs += ms;
    this.#sinceWindow.uploads++;
    this.#sinceWindow.ms += ms;
  }

  /** Main-thread milliseconds of a copy's end, counted with the copy that started it. */
  #spend(ms) {
    this.#uploadMs += ms;
    this.#sinceWindow.ms += ms;
    this.#spentMs += ms;
  }

  /** This browser's WebCodecs cannot convert this video to RGBA: it is drawn from now on. */
  #copyFailed = (error) => {
    this.#copy.frame.close();
    this.#copy.frame = null;
    if (this.#released) return;
    this.#frameCopyError = `${error?.name ?? 'Error'}: ${error?.message ?? error}`;
    this.#path = PATH_CANVAS;
    this.#fresh = true;
  };

  #count(ms) {
    this.#uploads++;
    this.#uploadMs += ms;
    this.#sinceWindow.uploads++;
    this.#sinceWindow.ms += ms;
    this.#spentMs += ms;
  }

  /**
   * The main-thread milliseconds copies took since the last call, for the frame's cost that
   * quality 'auto' weighs: the copy a frame starts and the end of one started before.
   */
  takeSpentMs() {
    const ms = this.#spentMs;
    this.#spentMs = 0;
    return ms;
  }

  /**
   * For stats(): frames taken so far (`uploads`), the mean main-thread milliseconds per frame
   * taken since the last call, the frames written into the wasm memory (`wasmCopies`: none
   * while WebGL draws), the path ('webgl' while WebGL draws), the video's size and state.
   */
  stats() {
    const window = this.#sinceWindow;
    const uploadMs = window.uploads ? window.ms / window.uploads : 0;
    this.#sinceWindow = { uploads: 0, ms: 0 };
    const video = this.video;
    return {
      url: this.url,
      width: video.videoWidth,
      height: video.videoHeight,
      uploads: this.#uploads,
      uploadMs,
      wasmCopies: this.#wasmCopies,
      path: this.#onGpu ? PATH_TEXTURE : this.#path,
      copyError: this.#frameCopyError,
      paused: video.paused,
      ended: video.ended,
      currentTime: video.currentTime,
      playError: this.playError,
    };
  }

  /**
   * Stops following the video. A video Ripples made stops and lets go of its download; a
   * page's own gets back what it had.
   */
  release() {
    if (this.#released) return;
    this.#released = true;
    const video = this.video;
    if (this.#rvfc && typeof video.cancelVideoFrameCallback === 'function') video.cancelVideoFrameCallback(this.#rvfc);
    this.#rvfc = 0;
    if (this.#onSeeked) video.removeEventListener('seeked', this.#onSeeked);
    this.#onSeeked = null;
    this.#context = null;
    this.#natural = null;
    this.#naturalImage = null;
    this.#scaled = null;
    this.#staging = null;
    if (this.owned) {
      video.pause();
      video.removeAttribute('src');
      video.load();
    } else if (this.#saved) {
      Object.assign(video, this.#saved);
      this.#saved = null;
    }
  }
}
