// Draws a pool's water with WebGL2: the wasm module steps the water and writes its surface at
// the grid's resolution (prepareSurface), this module uploads it to a float texture and the
// look's fragment shader (gl/shaders.js) draws every canvas pixel from it and from the picture,
// which is a texture uploaded once (again only when the pool's image changes: a new picture, a
// resize); a video's frames go into it straight from the <video> (gl/video-texture.js). So the
// main thread's work per frame is the solver and one upload of 16 bytes per grid cell, whatever
// the canvas's size; the pixels are the GPU's.
//
// Why it is shaped like this:
// - No float render targets and no float filtering: WebGL2 samples RGBA32F textures only at
//   the nearest texel without OES_texture_float_linear, and many phones cannot render into
//   them (what breaks jquery.ripples there), so the shaders read texels with texelFetch and
//   interpolate themselves, exactly as the CPU's renderer does.
// - One context per instance, at most MAX_CONTEXTS on a page: browsers keep about 16 live
//   WebGL contexts per page and drop the oldest beyond that (with a console warning), so the
//   instances past the limit draw with the CPU instead (GlRenderer.create returns null), and a
//   destroyed instance gives its context back at once (WEBGL_lose_context).
// - A lost context (the GPU reset, the browser reclaimed it) is reported to the owner, which
//   carries on with the CPU renderer over the same water.
// - A software WebGL (SwiftShader, llvmpipe, WARP) is used as any other: browsers no longer
//   hand it to pages by themselves (Chrome 139 stopped falling back to SwiftShader when there
//   is no usable GPU, and WebGL context creation fails there instead, unless the user or an
//   administrator turns it back on with --enable-unsafe-swiftshader or the
//   EnableUnsafeSwiftShader policy), so a page that gets a WebGL2 context has a GPU or someone
//   chose software on purpose, as a headless browser under test does. `software` says which,
//   for stats().

import { LOOK_SHADERS, VERTEX_SHADER } from './gl/shaders.js';
import { PHOTO_SHADER } from './gl/photo-shader.js';

// Every look's fragment shader, and the photo look's, which draws water in perspective.
const SHADERS = { ...LOOK_SHADERS, photo: PHOTO_SHADER };
// gl/video-texture.js puts a <video>'s frames into the picture texture, with no copy in wasm.
import { VideoTexture } from './gl/video-texture.js';
// gl/simulation.js steps the water on the GPU where the page chose it (see simulation.js).
import { GpuWater } from './gl/simulation.js';

/** Most WebGL contexts Ripples keeps alive on one page (browsers allow about 16 in all). */
export const MAX_CONTEXTS = 8;
let liveContexts = 0;

// Texture units.
const SURFACE_UNIT = 0;
const IMAGE_UNIT = 1;
const SKY_UNIT = 2;
const WALLS_UNIT = 3;
const WATER_UNIT = 4;
const ROWS_UNIT = 5;
const SUMS_UNIT = 6;
const VIDEO_UNIT = 7;

export class GlRenderer {
  #canvas;
  #gl;
  #programs = new Map();
  #textures;
  #surfaceSize = [0, 0];
  #imageSize = [0, 0];
  #imageVersion = -1;
  #imagePool = null;
  #skyPool = null;
  #constantsPool = null;
  #constants = null;
  #hasWalls = false;
  // The water region's mask and photo tables as uploaded: the pool and its waterVersion.
  #waterPool = null;
  #waterVersion = -1;
  #photoUniforms = null;
  #sumsSize = [0, 0];
  #lost = false;
  #released = false;
  #onLost;
  #software = null;
  /** Bytes of the water sent to the GPU since the start: surfaces, or the GPU water's work. */
  uploadedBytes = 0;
  // A video's frames fill the picture texture (placeVideo), not the pool's image in wasm.
  #videoTexture = null;
  #imageFromVideo = false;
  /** @type {GpuWater | null} the water stepped here (useGpuWater), else null */
  #water = null;
  /** @type {import('./gl/simulation.js').Probe | null} */
  #probe = null;

  /**
   * A renderer on `canvas` (which must have no context yet), or null where WebGL2 is missing
   * or MAX_CONTEXTS are in use (then the canvas is left without a context). `onLost` is called
   * when the context is lost.
   */
  static create(canvas, onLost) {
    if (liveContexts >= MAX_CONTEXTS || typeof WebGL2RenderingContext !== 'function') return null;
    let gl = null;
    try {
      gl = canvas.getContext('webgl2', {
        alpha: true,
        premultipliedAlpha: false,
        antialias: false,
        depth: false,
        stencil: false,
        preserveDrawingBuffer: false,
        powerPreference: 'low-power',
      });
    } catch {
      gl = null;
    }
    if (!gl) return null;
    return new GlRenderer(canvas, gl, onLost);
  }

  constructor(canvas, gl, onLost) {
    this.#canvas = canvas;
    this.#gl = gl;
    this.#onLost = onLost;
    liveContexts++;
    canvas.addEventListener('webglcontextlost', this.#lostContext);
    this.#textures = {
      surface: gl.createTexture(),
      image: gl.createTexture(),
      sky: gl.createTexture(),
      walls: gl.createTexture(),
      water: gl.createTexture(),
      rows: gl.createTexture(),
      sums: gl.createTexture(),
    };
    for (const texture of Object.values(this.#textures)) {
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    }
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    // A 1x1 texture of no walls until walls come.
    gl.bindTexture(gl.TEXTURE_2D, this.#textures.walls);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    gl.bindVertexArray(gl.createVertexArray());
  }

  /** The canvas drawn on. */
  get canvas() {
    return this.#canvas;
  }

  /**
   * Whether this WebGL2 is a software rasterizer (SwiftShader, llvmpipe, WARP: no GPU), as far
   * as the browser tells (WEBGL_debug_renderer_info); information only (see the module notes).
   */
  get software() {
    if (this.#software === null) {
      const gl = this.#gl;
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
      this.#software = /swiftshader|llvmpipe|softpipe|software|warp|basic render/i.test(name);
    }
    return this.#software;
  }

  /** Whether the context was lost (nothing more is drawn). */
  get lost() {
    return this.#lost || this.#gl.isContextLost();
  }

  #lostContext = (event) => {
    event.preventDefault();
    if (this.#lost) return;
    this.#lost = true;
    this.#onLost?.();
  };

  /**
   * The look's constants or the walls changed (a new option, pixel ratio, pool or walls): read
   * them again.
   */
  invalidateConstants() {
    this.#constants = null;
  }

  /** The pool's sky changed: upload it again. */
  invalidateSky() {
    this.#skyPool = null;
  }

  /**
   * The walls changed: `layer` is their RGBA layer at the canvas's size (see the shaders'
   * u_walls), or null for none.
   */
  setWalls(layer, width, height) {
    const gl = this.#gl;
    this.#hasWalls = layer !== null;
    if (!layer) return;
    gl.activeTexture(gl.TEXTURE0 + WALLS_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.#textures.walls);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, layer);
  }

  /** The program of `look`, compiled on first use. */
  #program(look) {
    let entry = this.#programs.get(look);
    if (entry) return entry;
    const gl = this.#gl;
    const compile = (type, source) => {
      const shader = gl.createShader(type);
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
        throw new Error(`Ripples: the ${look} look's shader does not compile: ${gl.getShaderInfoLog(shader)}`);
      }
      return shader;
    };
    const program = gl.createProgram();
    gl.attachShader(program, compile(gl.VERTEX_SHADER, VERTEX_SHADER));
    gl.attachShader(program, compile(gl.FRAGMENT_SHADER, SHADERS[look]));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost()) {
      throw new Error(`Ripples: the ${look} look's shaders do not link: ${gl.getProgramInfoLog(program)}`);
    }
    const at = (name) => gl.getUniformLocation(program, name);
    entry = {
      program,
      size: at('u_size'),
      grid: at('u_grid'),
      scale: at('u_scale'),
      constants: at('u_c'),
      hasWalls: at('u_has_walls'),
      hasLand: at('u_has_land'),
      photo: at('u_photo'),
    };
    gl.useProgram(program);
    gl.uniform1i(at('u_surface'), SURFACE_UNIT);
    gl.uniform1i(at('u_image'), IMAGE_UNIT);
    gl.uniform1i(at('u_sky'), SKY_UNIT);
    gl.uniform1i(at('u_walls'), WALLS_UNIT);
    gl.uniform1i(at('u_water'), WATER_UNIT);
    gl.uniform1i(at('u_rows'), ROWS_UNIT);
    gl.uniform1i(at('u_sums'), SUMS_UNIT);
    this.#programs.set(look, entry);
    return entry;
  }

  /**
   * Draws `pool`'s water in `look` ('natural', 'lit', 'classic' or 'spring'), `memory` being
   * the wasm module's memory. The canvas must be the pool's size.
   */
  draw(pool, memory, look) {
    if (this.lost) return;
    const gl = this.#gl;
    const { width, height, gridWidth, gridHeight } = pool;
    // A living photograph: its land is the picture; in perspective the photo look draws it.
    const hasLand = pool.hasWaterRegion;
    if (hasLand && (this.#waterPool !== pool || this.#waterVersion !== pool.waterVersion)) this.#uploadWater(pool);
    const photo = pool.inPerspective;
    if (!photo && this.#water && pool.gpuWater) {
      // The water is stepped here: its surface is a texture already; only the frame's work
      // (steps, stones, presses) goes up.
      this.uploadedBytes += this.#water.run(pool, look);
      gl.activeTexture(gl.TEXTURE0 + SURFACE_UNIT);
      gl.bindTexture(gl.TEXTURE_2D, this.#water.surface);
    } else if (!photo) {
      this.#uploadSurface(pool, memory);
    }
    if (!this.#imageFromVideo && (this.#imagePool !== pool || this.#imageVersion !== pool.imageVersion)) {
      const image = new Uint8Array(memory.buffer, pool.imagePtr, pool.imageLen);
      gl.activeTexture(gl.TEXTURE0 + IMAGE_UNIT);
      gl.bindTexture(gl.TEXTURE_2D, this.#textures.image);
      if (this.#imageSize[0] !== width || this.#imageSize[1] !== height) {
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, image);
        this.#imageSize = [width, height];
      } else {
        gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, image);
      }
      this.#imagePool = pool;
      this.#imageVersion = pool.imageVersion;
    }
    if (this.#skyPool !== pool && look === 'natural') {
      gl.activeTexture(gl.TEXTURE0 + SKY_UNIT);
      gl.bindTexture(gl.TEXTURE_2D, this.#textures.sky);
      const sky = pool.skyTable();
      const side = Math.round(Math.sqrt(sky.length / 4));
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, side, side, 0, gl.RGBA, gl.UNSIGNED_BYTE, sky);
      this.#skyPool = pool;
    }
    if (this.#constants === null || this.#constantsPool !== pool) {
      // The look's constants, and the walls, which the look's light shades.
      this.#constants = pool.shaderConstants();
      this.#constantsPool = pool;
      this.setWalls(pool.wallLayer() ?? null, width, height);
    }
    if (photo) {
      this.#drawPhoto(pool, memory);
      return;
    }
    const program = this.#program(look);
    gl.useProgram(program.program);
    gl.uniform2i(program.size, width, height);
    gl.uniform2i(program.grid, gridWidth, gridHeight);
    gl.uniform1i(program.hasLand, hasLand ? 1 : 0);
    gl.uniform1f(program.scale, pool.simScale);
    gl.uniform1fv(program.constants, this.#constants);
    gl.uniform1i(program.hasWalls, this.#hasWalls ? 1 : 0);
    gl.viewport(0, 0, width, height);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  /** Uploads the surface the looks draw from (prepareSurface: four floats per grid cell). */
  #uploadSurface(pool, memory) {
    const gl = this.#gl;
    const { gridWidth, gridHeight } = pool;
    const surfaceAt = pool.prepareSurface();
    if (surfaceAt === 0) throw new Error(`Ripples: ${pool.takeError()}`);
    const surface = new Float32Array(memory.buffer, surfaceAt, pool.surfaceLen);
    this.uploadedBytes += surface.byteLength;
    gl.activeTexture(gl.TEXTURE0 + SURFACE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.#textures.surface);
    if (this.#surfaceSize[0] !== gridWidth || this.#surfaceSize[1] !== gridHeight) {
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, gridWidth, gridHeight, 0, gl.RGBA, gl.FLOAT, surface);
      this.#surfaceSize = [gridWidth, gridHeight];
    } else {
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, gridWidth, gridHeight, gl.RGBA, gl.FLOAT, surface);
    }
  }

  /**
   * Uploads a living photograph's water (once per water region: the pool's waterVersion): its
   * mask, and in perspective the photo look's rows and uniforms.
   */
  #uploadWater(pool) {
    const gl = this.#gl;
    const { width, height } = pool;
    gl.activeTexture(gl.TEXTURE0 + WATER_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.#textures.water);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8, width, height, 0, gl.RED, gl.UNSIGNED_BYTE, pool.waterMask());
    this.#photoUniforms = null;
    if (pool.inPerspective) {
      gl.activeTexture(gl.TEXTURE0 + ROWS_UNIT);
      gl.bindTexture(gl.TEXTURE_2D, this.#textures.rows);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, 2, height, 0, gl.RGBA, gl.FLOAT, pool.photoRows());
      this.#photoUniforms = pool.photoUniforms();
    }
    this.#waterPool = pool;
    this.#waterVersion = pool.waterVersion;
  }

  /**
   * Draws a pool's water in perspective with the photo look (gl/photo-shader.js): uploads the
   * slopes summed down each grid column (preparePhotoSlopes: two floats per cell) and draws
   * every pixel from them, the picture, the mask and the rows.
   */
  #drawPhoto(pool, memory) {
    const gl = this.#gl;
    const { width, height, gridWidth, gridHeight } = pool;
    const sumsAt = pool.preparePhotoSlopes();
    if (sumsAt === 0) throw new Error(`Ripples: ${pool.takeError()}`);
    const sums = new Float32Array(memory.buffer, sumsAt, pool.photoSlopesLen);
    gl.activeTexture(gl.TEXTURE0 + SUMS_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.#textures.sums);
    if (this.#sumsSize[0] !== gridWidth || this.#sumsSize[1] !== gridHeight + 1) {
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RG32F, gridWidth, gridHeight + 1, 0, gl.RG, gl.FLOAT, sums);
      this.#sumsSize = [gridWidth, gridHeight + 1];
    } else {
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, gridWidth, gridHeight + 1, gl.RG, gl.FLOAT, sums);
    }
    const program = this.#program('photo');
    gl.useProgram(program.program);
    gl.uniform2i(program.size, width, height);
    gl.uniform2i(program.grid, gridWidth, gridHeight);
    gl.uniform1fv(program.photo, this.#photoUniforms);
    gl.viewport(0, 0, width, height);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  /**
   * Puts `video`'s current frame in the picture, straight from the element (see
   * gl/video-texture.js): the picture is `width x height` (the pool's size), the frame at
   * `rect` ([x, y, w, h]) cut to `clip` ({ x, y, width, height }), in picture pixels. From now
   * on the pool's image in the wasm memory is not read, until usePoolImage(). Throws a
   * SecurityError for a video the page may not read.
   */
  placeVideo(video, width, height, rect, clip) {
    if (this.lost) return;
    const gl = this.#gl;
    this.#videoTexture ??= new VideoTexture(gl, VIDEO_UNIT);
    gl.activeTexture(gl.TEXTURE0 + IMAGE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.#textures.image);
    if (this.#imageSize[0] !== width || this.#imageSize[1] !== height) {
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      this.#imageSize = [width, height];
    }
    this.#videoTexture.place(video, this.#textures.image, width, height, rect, clip);
    this.#imageFromVideo = true;
  }

  /** The picture is the pool's image again (no more video): uploaded at the next draw. */
  usePoolImage() {
    if (!this.#imageFromVideo) return;
    this.#imageFromVideo = false;
    this.#imagePool = null;
  }

  /**
   * Whether this context can step the water (GpuWater.probe, run once): the reason it cannot
   * ('no-float-targets'), or null.
   * @returns {string | null}
   */
  get gpuWaterUnsupported() {
    if (this.lost) return 'context-lost';
    this.#probe ??= GpuWater.probe(this.#gl);
    return this.#probe.reason;
  }

  /** Steps the water here from now on (`on`), or no longer (its textures are freed). */
  useGpuWater(on) {
    if (on) {
      this.#water ??= new GpuWater(this.#gl);
    } else {
      this.#water?.release();
      this.#water = null;
    }
  }

  /** Frees the GPU's resources and gives the context back to the browser at once. */
  release() {
    if (this.#released) return;
    this.#released = true;
    liveContexts--;
    this.#canvas.removeEventListener('webglcontextlost', this.#lostContext);
    const gl = this.#gl;
    if (!gl.isContextLost()) {
      for (const texture of Object.values(this.#textures)) gl.deleteTexture(texture);
      for (const { program } of this.#programs.values()) gl.deleteProgram(program);
      this.#videoTexture?.release();
      this.#water?.release();
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    }
    this.#programs.clear();
  }
}
