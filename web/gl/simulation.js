// The water stepped on the GPU, in the WebGL2 context that draws it: the dispersive solver's
// passes (gl/water-steps.glsl.js) over float render targets, ping-ponged, and the natural
// look's surface made from them on the GPU, which the look's shader then reads in place of the
// surface the wasm module would upload every frame.
//
// Why it is shaped like this:
// - Per frame nothing goes to the GPU but that frame's work: the wasm module keeps the clock,
//   the rain's seeded stream and the fingers, and queues the steps due, the stones that fall
//   and the fingers' presses (takeGpuWork: a few floats each). A stone's dent and rims are
//   summed and pressed here, over the water the GPU holds, with the rims' geometry from the
//   core (DispersiveSolver::stone_rims, queued with the stone). So each rule (the clock, the
//   rain, where a stone lands and how its rims are cut, the fingers' motion, the step's
//   constants, the options' ranges) has one implementation, in Rust, for both paths
//   (crates/ripples-web/src/gpu_water.rs says how); the GLSL only applies them.
// - RGBA32F targets, probed once at start (GpuWater.probe): EXT_color_buffer_float, a complete
//   framebuffer and a test pixel drawn and read back. Half floats (RGBA16F) keep 11 bits, too
//   few for waves a hundred times their smallest ripple over thousands of steps, so where only
//   they render the CPU steps the water. Every pass reads its cells with texelFetch: no linear
//   filtering of float textures is needed (iOS lacks it), the cells are sampled by hand.
// - Nothing is waited for: whether the water is calm is known from the damping (the wasm
//   module's GpuQueue), and sooner from a measurement: the water reduced on the GPU to its
//   largest height (LARGEST), read into a buffer behind a fence and taken a frame or more
//   later, once the fence has passed (never a synchronous read), then handed to the wasm
//   module, which knows what disturbed the water since (gpu_water.rs).
// - Texture units 10 to 12 only, so the renderer's own bindings (units 0 to 7) stay put.

import { dispersiveLevelWeights } from '../ripples_web.js';
import {
  CALM,
  DISPERSIVE_STEP,
  GO_DOWN,
  GRADIENT_SURFACE,
  LARGEST,
  LARGEST_BLOCK,
  GO_UP,
  MAX_PRESSES_PER_PASS,
  MAX_SPONGE_BAND,
  NATURAL_SURFACE,
  PRESS,
  RESAMPLE,
  SMOOTH,
  STONE,
  STONE_MOMENTS,
  STONE_ROWS,
  VERTEX_SHADER,
  WAVE_STEP,
} from './water-steps.glsl.js';

const INPUT_UNIT = 10;
const SECOND_UNIT = 11;
const WALLS_UNIT = 12;
/** Floats a queued stone takes in takeGpuWork (gpu_water.rs STONE_FLOATS). */
const STONE_FLOATS = 13;
/** Floats a queued press takes (gpu_water.rs PRESS_FLOATS). */
const PRESS_FLOATS = 5;

/**
 * What the probe found: the format the water is stepped in (null: none renders floats well
 * enough) and, when none, why.
 * @typedef {{ format: number | null, reason: string | null, halfFloat: boolean }} Probe
 */

export class GpuWater {
  #gl;
  /** @type {Map<string, any>} */
  #programs = new Map();
  /** @type {Map<WebGLTexture, WebGLFramebuffer>} */
  #framebuffers = new Map();
  #grid = [0, 0];
  /** @type {{ size: number[], band: WebGLTexture, up: WebGLTexture }[]} */
  #levels = [];
  /** @type {WebGLTexture[]} the water: R heights now, G one step ago */
  #water = [];
  #current = 0;
  #smoothed = null;
  /** The natural look's surface, [p, q, focus, 0] per cell: what the look's shader reads. */
  surface = null;
  /** A stone's sums, a texel per row of its dent (STONE_ROWS), as wide as the widest yet. */
  #rowSums = null;
  #rowSumsWidth = 0;
  /** A stone's pushed-aside volume and second moment (STONE_MOMENTS), one texel. */
  #pushed = null;
  /** The walls (R8, 1 on a wall; pool.wallMask()), or null without walls. */
  #walls = null;
  /** The sponge's factors (pool.spongeProfile()), MAX_SPONGE_BAND long, and its band. */
  #sponge = new Float32Array(MAX_SPONGE_BAND);
  #band = 0;
  /** The pool and its boundaryVersion the walls and the sponge were taken from. */
  #boundaryOf = { pool: null, version: -1 };
  /** The reductions of the water to its largest height, down to one texel (LARGEST). */
  #largest = [];
  /** The measurement under way: its fence and the pool's gpuDisturbances when it was taken. */
  #reading = null;

  #readValue = new Float32Array(4);
  /** The program in use, and the textures bound to units 10, 11 and 12, this frame. */
  #inUse = null;
  #bound = [null, null, null];
  /** Counts new grids and new boundaries: the tokens of the uniforms they set (see #use). */
  #gridToken = 0;
  #boundaryToken = 0;
  /** The pyramid's level weights (dispersive.rs LEVEL_WEIGHTS, from the wasm module). */
  #weights = dispersiveLevelWeights();

  /**
   * Whether `gl` can step the water: RGBA32F render targets that complete, and a test pixel
   * drawn into one and read back as drawn (once, at start).
   * @param {WebGL2RenderingContext} gl
   * @returns {Probe}
   */
  static probe(gl) {
    if (!gl.getExtension('EXT_color_buffer_float')) {
      gl.getExtension('EXT_color_buffer_half_float');
      return { format: null, reason: 'no-float-targets', halfFloat: renders(gl, gl.RGBA16F, gl.HALF_FLOAT) };
    }
    const halfFloat = renders(gl, gl.RGBA16F, gl.HALF_FLOAT);
    if (!renders(gl, gl.RGBA32F, gl.FLOAT)) return { format: null, reason: 'no-float-targets', halfFloat };
    return { format: gl.RGBA32F, reason: null, halfFloat };
  }

  /** @param {WebGL2RenderingContext} gl */
  constructor(gl) {
    this.#gl = gl;
  }

  /**
   * Does what the pool queued (`pool.takeGpuWork()`: calm first, then each step's stones and
   * the fingers' presses before it, and the step) and makes the surface of the water now for
   * `look` ('natural', 'lit', 'classic' or 'spring'). Leaves the framebuffer unbound. Returns
   * the bytes it sent the GPU: the queue's floats and the walls when they changed (the
   * passes' few constants aside).
   * @param {any} pool the WasmPool, its water on the GPU (gpuWater)
   * @param {string} look
   * @returns {number}
   */
  run(pool, look) {
    const gl = this.#gl;
    const { gridWidth, gridHeight } = pool;
    // The renderer's programs and bindings came between: nothing here is known to be set.
    this.#inUse = null;
    this.#bound.fill(null);
    const grid = this.#ensure(gridWidth, gridHeight, pool.takeGpuCarry());
    const fresh = grid !== 'same';
    let sent = 0;
    if (fresh || this.#boundaryOf.pool !== pool || this.#boundaryOf.version !== pool.boundaryVersion) {
      sent += this.#takeBoundary(pool);
    }
    const work = pool.takeGpuWork();
    sent += work.byteLength;
    // The dispersive solver's step constants, or the wave solver's substep's and substeps.
    const dispersive = pool.dispersiveCoefficients();
    const wave = dispersive ? null : pool.waveCoefficients();
    if (grid === 'new' || work[0] === 1) this.#calm();
    // [clear, steps, stones, the stones, presses, the presses] (gpu_water.rs GpuQueue::take).
    const steps = work[1];
    const stones = work[2];
    const pressesAt = 4 + STONE_FLOATS * stones;
    const presses = work[pressesAt - 1];
    let stone = 0;
    let press = 0;
    for (let step = 0; step <= steps; step++) {
      while (stone < stones && work[3 + STONE_FLOATS * stone] <= step) {
        this.#dropStone(work.subarray(3 + STONE_FLOATS * stone, 3 + STONE_FLOATS * (stone + 1)));
        stone++;
      }
      const first = press;
      while (press < presses && work[pressesAt + PRESS_FLOATS * press] <= step) press++;
      if (press > first) this.#press(work, pressesAt, first, press);
      if (step < steps && dispersive) this.#step(dispersive);
      if (step < steps && wave) for (let substep = 0; substep < wave[4]; substep++) this.#waveSubstep(wave);
    }
    this.#measure(pool);
    if (look === 'natural') this.#makeSurface(pool.naturalSurfaceConstants());
    else this.#makeGradientSurface();
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return sent;
  }

  /**
   * The pool's walls and absorbing edge, as the step applies them (TwoFields::finish_step):
   * uploaded when they change (pool.boundaryVersion), not per frame. Returns the bytes sent.
   * @param {any} pool the WasmPool
   * @returns {number}
   */
  #takeBoundary(pool) {
    const gl = this.#gl;
    this.#boundaryOf = { pool, version: pool.boundaryVersion };
    this.#boundaryToken++;
    const profile = pool.spongeProfile();
    this.#band = Math.min(profile.length, MAX_SPONGE_BAND);
    this.#sponge.fill(1);
    this.#sponge.set(profile.subarray(0, this.#band));
    const mask = pool.wallMask();
    if (this.#walls) gl.deleteTexture(this.#walls);
    this.#walls = null;
    if (mask.length === 0) return this.#sponge.byteLength;
    this.#walls = gl.createTexture();
    gl.activeTexture(gl.TEXTURE0 + WALLS_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.#walls);
    this.#bound[2] = this.#walls;
    setNearest(gl);
    const alignment = gl.getParameter(gl.UNPACK_ALIGNMENT);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8, this.#grid[0], this.#grid[1], 0, gl.RED, gl.UNSIGNED_BYTE, mask);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, alignment);
    return this.#sponge.byteLength + mask.byteLength;
  }

  /**
   * Textures for a grid of `width x height` cells. Returns 'same' (the grid was this), 'new'
   * (new textures, to be calmed) or 'carried': the water of the grid before, resampled onto
   * the new one as `carry` asks (pool.takeGpuCarry(): [from width, from height, box scale x,
   * box scale y]; a resize, or a new pool that took the water).
   * @param {number} width
   * @param {number} height
   * @param {Float32Array} carry
   * @returns {'same' | 'new' | 'carried'}
   */
  #ensure(width, height, carry) {
    if (this.#grid[0] === width && this.#grid[1] === height) return 'same';
    const from = this.#grid;
    const carried = carry.length === 4 && this.#water.length > 0 && carry[0] === from[0] && carry[1] === from[1];
    // The water to carry is kept out of the release and freed once resampled.
    const old = carried ? this.#water.splice(this.#current, 1)[0] : null;
    this.#releaseTextures();
    this.#grid = [width, height];
    this.#gridToken++;
    const sizes = [[width, height]];
    while (sizes.length < this.#weights.length) {
      const [w, h] = sizes[sizes.length - 1];
      if (Math.min(w, h) <= 2) break;
      sizes.push([Math.ceil(w / 2), Math.ceil(h / 2)]);
    }
    this.#levels = sizes.map((size) => ({ size, band: this.#texture(size), up: this.#texture(size) }));
    this.#water = [this.#texture([width, height]), this.#texture([width, height])];
    this.#pushed = this.#texture([1, 1]);
    this.#smoothed = this.#texture([width, height]);
    this.surface = this.#texture([width, height]);
    this.#largest = [];
    for (let size = [width, height]; this.#largest.length === 0 || size[0] > 1 || size[1] > 1; ) {
      size = [Math.ceil(size[0] / LARGEST_BLOCK), Math.ceil(size[1] / LARGEST_BLOCK)];
      this.#largest.push({ size, texture: this.#texture(size) });
    }
    this.#current = 0;
    if (!old) return 'new';
    const gl = this.#gl;
    const at = this.#use(RESAMPLE);
    this.#input(INPUT_UNIT, old);
    gl.uniform1i(at('u_from'), INPUT_UNIT);
    gl.uniform2i(at('u_from_size'), from[0], from[1]);
    gl.uniform2i(at('u_grid'), width, height);
    // Source cells per target cell (resample.rs resample_field_by's step).
    gl.uniform2f(at('u_step'), (from[0] / width) * carry[2], (from[1] / height) * carry[3]);
    this.#drawInto(this.#water[0], this.#grid);
    this.#release(old);
    this.#bound[0] = null;
    return 'carried';
  }

  /**
   * An RGBA32F texture of `[width, height]` texels, sampled at the nearest texel.
   * @param {number[]} size
   */
  #texture(size) {
    const [width, height] = size;
    const gl = this.#gl;
    const texture = gl.createTexture();
    gl.activeTexture(gl.TEXTURE0 + INPUT_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, texture);
    this.#bound[0] = texture;
    setNearest(gl);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, width, height, 0, gl.RGBA, gl.FLOAT, null);
    return texture;
  }

  /**
   * The program of `source` (compiled on first use) in use, with its uniforms' locations:
   * `at(name)`. A program keeps its uniforms, so what stays the same over many passes is set
   * once: `at.once(key, token, set)` calls `set()` unless this program last ran it for `key`
   * with the same `token` (the texture units, the grid's size, the walls and the sponge).
   */
  #use(source) {
    const gl = this.#gl;
    let entry = this.#programs.get(source);
    if (!entry) {
      const program = link(gl, source);
      entry = { program, at: new Map(), tokens: new Map() };
      this.#programs.set(source, entry);
    }
    // The renderer draws with its own programs between frames (run() forgets this).
    if (this.#inUse !== entry.program) gl.useProgram(entry.program);
    this.#inUse = entry.program;
    const at = (name) => {
      if (!entry.at.has(name)) entry.at.set(name, gl.getUniformLocation(entry.program, name));
      return entry.at.get(name);
    };
    at.once = (key, token, set) => {
      if (entry.tokens.get(key) === token) return;
      entry.tokens.set(key, token);
      set();
    };
    return at;
  }

  /**
   * Draws the program in use into `target` (`[width, height]` texels).
   * @param {WebGLTexture} target
   * @param {number[]} size
   */
  #drawInto(target, size) {
    const [width, height] = size;
    const gl = this.#gl;
    let framebuffer = this.#framebuffers.get(target);
    if (!framebuffer) {
      framebuffer = gl.createFramebuffer();
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target, 0);
      this.#framebuffers.set(target, framebuffer);
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.viewport(0, 0, width, height);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  /**
   * Binds `texture` to `unit` for the next pass (units 10 to 12 are this module's alone, so
   * a binding that is already there stays; run() forgets them each frame all the same).
   */
  #input(unit, texture) {
    if (this.#bound[unit - INPUT_UNIT] === texture) return;
    const gl = this.#gl;
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, texture);
    this.#bound[unit - INPUT_UNIT] = texture;
  }

  /** TwoFields::calm: both fields at rest. */
  #calm() {
    this.#use(CALM);
    for (const water of this.#water) this.#drawInto(water, this.#grid);
    this.#current = 0;
  }

  /** The water is written into the other texture of the pair, which becomes the water. */
  #swap() {
    this.#current = 1 - this.#current;
  }

  /** One step: the pyramid down and up, then the leapfrog (DispersiveSolver::step_here). */
  #step(coefficients) {
    const gl = this.#gl;
    const levels = this.#levels;
    const water = this.#water[this.#current];
    const fine = (l) => (l === 0 ? water : levels[l].band);
    let at = this.#use(GO_DOWN);
    at.once('units', 0, () => gl.uniform1i(at('u_fine'), INPUT_UNIT));
    for (let l = 0; l + 1 < levels.length; l++) {
      this.#input(INPUT_UNIT, fine(l));
      gl.uniform2i(at('u_fine_size'), levels[l].size[0], levels[l].size[1]);
      this.#drawInto(levels[l + 1].band, levels[l + 1].size);
    }
    at = this.#use(GO_UP);
    at.once('units', 0, () => {
      gl.uniform1i(at('u_fine'), INPUT_UNIT);
      gl.uniform1i(at('u_coarse'), SECOND_UNIT);
    });
    for (let l = levels.length - 1; l >= 0; l--) {
      const top = l === levels.length - 1;
      this.#input(INPUT_UNIT, fine(l));
      if (!top) this.#input(SECOND_UNIT, levels[l + 1].up);
      gl.uniform1i(at('u_has_coarse'), top ? 0 : 1);
      gl.uniform2i(at('u_coarse_size'), top ? 0 : levels[l + 1].size[0], top ? 0 : levels[l + 1].size[1]);
      gl.uniform1f(at('u_weight'), this.#weights[l]);
      this.#drawInto(levels[l].up, levels[l].size);
    }
    at = this.#use(DISPERSIVE_STEP);
    this.#input(INPUT_UNIT, water);
    this.#input(SECOND_UNIT, levels[0].up);
    at.once('units', 0, () => {
      gl.uniform1i(at('u_water'), INPUT_UNIT);
      gl.uniform1i(at('u_smoothed'), SECOND_UNIT);
    });
    this.#finishUniforms(at);
    gl.uniform3f(at('u_coefficients'), coefficients[0], coefficients[1], coefficients[2]);
    this.#drawInto(this.#water[1 - this.#current], this.#grid);
    this.#swap();
  }

  /** A substep of the wave solver (WaveSolver::step_here), `wave` its constants. */
  #waveSubstep(wave) {
    const gl = this.#gl;
    const at = this.#use(WAVE_STEP);
    this.#input(INPUT_UNIT, this.#water[this.#current]);
    at.once('units', 0, () => gl.uniform1i(at('u_water'), INPUT_UNIT));
    gl.uniform4f(at('u_coefficients'), wave[0], wave[1], wave[2], wave[3]);
    this.#finishUniforms(at);
    this.#drawInto(this.#water[1 - this.#current], this.#grid);
    this.#swap();
  }

  /**
   * The grid, the walls and the sponge of FINISH_STEP, for the step's program whose uniforms
   * `at` finds.
   */
  #finishUniforms(at) {
    const gl = this.#gl;
    if (this.#walls) this.#input(WALLS_UNIT, this.#walls);
    at.once('grid', this.#gridToken, () => gl.uniform2i(at('u_grid'), this.#grid[0], this.#grid[1]));
    at.once('boundary', this.#boundaryToken, () => {
      gl.uniform1i(at('u_walls'), WALLS_UNIT);
      gl.uniform1i(at('u_has_walls'), this.#walls ? 1 : 0);
      gl.uniform1i(at('u_band'), this.#band);
      gl.uniform1fv(at('u_sponge'), this.#sponge);
    });
  }

  /**
   * A stone (dispersive.rs drop_stone, or the wave solver's dent alone): `stone` is its queued
   * floats, [step, x, y, radius, depth, the rims' cells x0, x1, y0, y1, their solve a0, a1, b0,
   * b1] (gpu_water.rs). The dent's sums over the water now (STONE_ROWS, a texel a row, then
   * STONE_MOMENTS), then the dent and the rims (STONE). A stone without rims (no rim cells)
   * needs no sums.
   * @param {Float32Array} stone
   */
  #dropStone(stone) {
    const gl = this.#gl;
    const [, x, y, radius, depth] = stone;
    const [width, height] = this.#grid;
    // The dent's cells, clipped to the interior (two_fields.rs press_stone); none, and the CPU
    // changes nothing either.
    const columns = [Math.max(1, x - radius + 1), Math.min(width - 2, x + radius - 1)];
    const rows = [Math.max(1, y - radius + 1), Math.min(height - 2, y + radius - 1)];
    if (columns[0] > columns[1] || rows[0] > rows[1]) return;
    const rowCount = rows[1] - rows[0] + 1;
    const setDent = (uniform) => {
      gl.uniform2i(uniform('u_cell'), x, y);
      gl.uniform1i(uniform('u_radius'), radius);
      gl.uniform1f(uniform('u_depth'), depth);
    };
    const rims = stone[5] < stone[6] && stone[7] < stone[8];
    let uniform;
    if (rims) {
      if (this.#rowSumsWidth < rowCount) {
        if (this.#rowSums) this.#release(this.#rowSums);
        this.#rowSums = this.#texture([rowCount, 1]);
        this.#rowSumsWidth = rowCount;
      }
      uniform = this.#use(STONE_ROWS);
      this.#input(INPUT_UNIT, this.#water[this.#current]);
      gl.uniform1i(uniform('u_water'), INPUT_UNIT);
      gl.uniform1i(uniform('u_first_row'), rows[0]);
      gl.uniform2i(uniform('u_columns'), columns[0], columns[1]);
      setDent(uniform);
      this.#drawInto(this.#rowSums, [rowCount, 1]);
      uniform = this.#use(STONE_MOMENTS);
      this.#input(INPUT_UNIT, this.#rowSums);
      gl.uniform1i(uniform('u_row_sums'), INPUT_UNIT);
      gl.uniform1i(uniform('u_rows'), rowCount);
      this.#drawInto(this.#pushed, [1, 1]);
    }
    uniform = this.#use(STONE);
    this.#input(INPUT_UNIT, this.#water[this.#current]);
    this.#input(SECOND_UNIT, this.#pushed);
    gl.uniform1i(uniform('u_water'), INPUT_UNIT);
    gl.uniform1i(uniform('u_pushed'), SECOND_UNIT);
    gl.uniform2i(uniform('u_grid'), width, height);
    gl.uniform4i(uniform('u_rim_cells'), stone[5], stone[6], stone[7], stone[8]);
    gl.uniform4f(uniform('u_solve'), stone[9], stone[10], stone[11], stone[12]);
    setDent(uniform);
    this.#drawInto(this.#water[1 - this.#current], this.#grid);
    this.#swap();
  }

  /**
   * Presses `first` to `end` (exclusive) of the queue's presses, which start at `work[at]`
   * ([step, x, y, radius, impulse] each), in order, MAX_PRESSES_PER_PASS a pass.
   * @param {Float32Array} work
   * @param {number} at
   * @param {number} first
   * @param {number} end
   */
  #press(work, at, first, end) {
    const gl = this.#gl;
    const presses = new Float32Array(4 * MAX_PRESSES_PER_PASS);
    for (let from = first; from < end; from += MAX_PRESSES_PER_PASS) {
      const count = Math.min(MAX_PRESSES_PER_PASS, end - from);
      for (let k = 0; k < count; k++) {
        const press = at + PRESS_FLOATS * (from + k);
        presses.set(work.subarray(press + 1, press + PRESS_FLOATS), 4 * k);
      }
      const uniform = this.#use(PRESS);
      this.#input(INPUT_UNIT, this.#water[this.#current]);
      gl.uniform1i(uniform('u_water'), INPUT_UNIT);
      gl.uniform2i(uniform('u_grid'), this.#grid[0], this.#grid[1]);
      gl.uniform1i(uniform('u_count'), count);
      gl.uniform4fv(uniform('u_presses'), presses);
      this.#drawInto(this.#water[1 - this.#current], this.#grid);
      this.#swap();
    }
  }

  /** The natural look's surface of the water now (looks/natural.rs surface), into `surface`. */
  #makeSurface(constants) {
    const gl = this.#gl;
    let at = this.#use(SMOOTH);
    this.#input(INPUT_UNIT, this.#water[this.#current]);
    gl.uniform1i(at('u_water'), INPUT_UNIT);
    gl.uniform2i(at('u_grid'), this.#grid[0], this.#grid[1]);
    this.#drawInto(this.#smoothed, this.#grid);
    at = this.#use(NATURAL_SURFACE);
    this.#input(INPUT_UNIT, this.#smoothed);
    gl.uniform1i(at('u_smoothed'), INPUT_UNIT);
    gl.uniform2i(at('u_grid'), this.#grid[0], this.#grid[1]);
    gl.uniform1fv(at('u_k'), constants);
    this.#drawInto(this.surface, this.#grid);
  }

  /** Deletes `texture` and its framebuffer. */
  #release(texture) {
    const gl = this.#gl;
    const framebuffer = this.#framebuffers.get(texture);
    if (framebuffer) gl.deleteFramebuffer(framebuffer);
    this.#framebuffers.delete(texture);
    gl.deleteTexture(texture);
  }

  /**
   * Hands `pool` the measurement taken before if the GPU has finished it (its fence passed:
   * reading the buffer then does not wait), and takes a new one of the water now when none
   * is under way: the largest height, reduced on the GPU and read into a buffer behind a fence.
   * @param {any} pool the WasmPool
   */
  #measure(pool) {
    const gl = this.#gl;
    if (this.#reading) {
      if (gl.getSyncParameter(this.#reading.fence, gl.SYNC_STATUS) !== gl.SIGNALED) return;
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, this.#reading.buffer);
      gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, this.#readValue);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      gl.deleteSync(this.#reading.fence);
      gl.deleteBuffer(this.#reading.buffer);
      // Measured on another pool (a resize made a new one): of no use to this one.
      if (this.#reading.pool === pool) pool.gpuMeasured(this.#reading.mark, this.#readValue[0]);
      this.#reading = null;
    }
    const at = this.#use(LARGEST);
    at.once('units', 0, () => gl.uniform1i(at('u_from'), INPUT_UNIT));
    let from = this.#water[this.#current];
    let size = this.#grid;
    for (const [k, level] of this.#largest.entries()) {
      this.#input(INPUT_UNIT, from);
      gl.uniform2i(at('u_from_size'), size[0], size[1]);
      gl.uniform1i(at('u_first'), k === 0 ? 1 : 0);
      this.#drawInto(level.texture, level.size);
      [from, size] = [level.texture, level.size];
    }
    // A buffer a measurement: the browser keeps a copy of one read back, which writing into
    // it again would throw away (with a warning).
    const buffer = gl.createBuffer();
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
    gl.bufferData(gl.PIXEL_PACK_BUFFER, 16, gl.STREAM_READ);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.FLOAT, 0);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    const fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (fence) this.#reading = { fence, buffer, mark: pool.gpuDisturbances, pool };
    else gl.deleteBuffer(buffer);
  }

  /** The other looks' surface of the water now (looks/mod.rs surface), into `surface`. */
  #makeGradientSurface() {
    const gl = this.#gl;
    const at = this.#use(GRADIENT_SURFACE);
    this.#input(INPUT_UNIT, this.#water[this.#current]);
    gl.uniform1i(at('u_water'), INPUT_UNIT);
    gl.uniform2i(at('u_grid'), this.#grid[0], this.#grid[1]);
    this.#drawInto(this.surface, this.#grid);
  }

  #releaseTextures() {
    const textures = [
      ...this.#water,
      this.#smoothed,
      this.surface,
      this.#pushed,
      this.#rowSums,
      ...this.#levels.flatMap((l) => [l.band, l.up]),
      ...this.#largest.map((l) => l.texture),
    ];
    for (const texture of textures) if (texture) this.#release(texture);
    this.#levels = [];
    this.#water = [];
    this.#smoothed = null;
    this.surface = null;
    this.#pushed = null;
    this.#rowSums = null;
    this.#rowSumsWidth = 0;
    this.#largest = [];
  }

  /** Frees the textures, framebuffers and programs (the context stays). */
  release() {
    const gl = this.#gl;
    if (gl.isContextLost()) return;
    this.#releaseTextures();
    if (this.#walls) gl.deleteTexture(this.#walls);
    this.#walls = null;
    if (this.#reading) {
      gl.deleteSync(this.#reading.fence);
      gl.deleteBuffer(this.#reading.buffer);
    }
    this.#reading = null;
    this.#boundaryOf = { pool: null, version: -1 };
    for (const { program } of this.#programs.values()) gl.deleteProgram(program);
    this.#programs.clear();
    this.#grid = [0, 0];
  }
}

/** Nearest-texel sampling, clamped: the passes read cells with texelFetch anyway. */
function setNearest(gl) {
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
}

/** The program of a pass: the full-screen triangle and `fragment`; throws what does not compile. */
function link(gl, fragment) {
  const compile = (type, source) => {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
      throw new Error(`Ripples: a GPU water shader does not compile: ${gl.getShaderInfoLog(shader)}`);
    }
    return shader;
  };
  const program = gl.createProgram();
  gl.attachShader(program, compile(gl.VERTEX_SHADER, VERTEX_SHADER));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, fragment));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost()) {
    throw new Error(`Ripples: a GPU water shader does not link: ${gl.getProgramInfoLog(program)}`);
  }
  return program;
}

/** The probe's test pixel: signs, fractions and a value far from 1. */
const TEST_PIXEL = [1.5, -2.25, 0.125, 300.0];
const TEST_SHADER = `#version 300 es
precision highp float;
out vec4 out_value;
void main() { out_value = vec4(${TEST_PIXEL.map((v) => v.toFixed(3)).join(', ')}); }
`;

/**
 * Whether a 1x1 target of `internalFormat` completes, and a pixel drawn into it reads back as
 * drawn (within a half float's rounding).
 */
function renders(gl, internalFormat, type) {
  const texture = gl.createTexture();
  const framebuffer = gl.createFramebuffer();
  let program = null;
  try {
    gl.activeTexture(gl.TEXTURE0 + INPUT_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, texture);
    setNearest(gl);
    gl.texImage2D(gl.TEXTURE_2D, 0, internalFormat, 1, 1, 0, gl.RGBA, type, null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) return false;
    program = link(gl, TEST_SHADER);
    gl.useProgram(program);
    gl.viewport(0, 0, 1, 1);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    const pixel = new Float32Array(4);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.FLOAT, pixel);
    if (gl.getError() !== gl.NO_ERROR) return false;
    return TEST_PIXEL.every((value, i) => Math.abs(pixel[i] - value) <= Math.abs(value) * 1e-3);
  } catch {
    return false;
  } finally {
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(framebuffer);
    gl.deleteTexture(texture);
    if (program) gl.deleteProgram(program);
  }
}
