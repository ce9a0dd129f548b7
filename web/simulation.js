// Where the water is stepped: on the GPU (gl/simulation.js, in the WebGL2 context that draws
// it) or in the wasm module on the CPU, as the `simulation` option asks and the page allows,
// and why the CPU steps it when it does (stats().simulationReason). One small class the facade
// holds; `choose` is called whenever the pool, the renderer or an option changes, and does
// nothing when the answer stays the same. Switching between the two starts from calm water
// (the fields live in one place at a time).
//
// The GPU steps what gl/water-steps.glsl.js implements so far: the dispersive and wave solvers,
// seen from above, under every look, with their stones, rain and the pointer's fingertips,
// walls and both edges.
// Anything else is the CPU's, with a reason that says what, so 'auto' keeps today's behaviour
// wherever the GPU cannot do the same yet.

/**
 * Why the CPU steps the water: 'option' (simulation 'cpu'), 'renderer' (the CPU draws),
 * 'no-float-targets' (no RGBA32F render target passed the probe), 'context-lost', or the option
 * the GPU does not step yet: 'solver', 'water-mask'.
 * @typedef {'option' | 'renderer' | 'no-float-targets' | 'context-lost' | 'solver' |
 *   'water-mask'} SimulationReason
 */

/**
 * Why the GPU cannot step this water (null: it can).
 * @param {import('./gl-renderer.js').GlRenderer | null} gl
 * @param {import('./options.js').Options} options
 * @param {any} pool the WasmPool
 * @param {import('./renderer.js').CpuReason | undefined} cpuReason why the CPU draws, if it does
 * @returns {SimulationReason | null}
 */
function whyCpu(gl, options, pool, cpuReason) {
  if (options.simulation === 'cpu') return 'option';
  if (!gl) return cpuReason === 'context-lost' ? 'context-lost' : 'renderer';
  if (options.solver !== 'dispersive' && options.solver !== 'wave') return 'solver';
  if (options.waterMask !== null || options.horizon !== null || pool.hasWaterRegion) return 'water-mask';
  return /** @type {SimulationReason | null} */ (gl.gpuWaterUnsupported);
}

export class Simulation {
  /** @type {SimulationReason | null} why the CPU steps the water (null: the GPU does) */
  reason = 'option';

  /**
   * Steps `pool`'s water where `options` and the renderer `gl` allow (see whyCpu).
   * @param {any} pool the WasmPool
   * @param {import('./gl-renderer.js').GlRenderer | null} gl
   * @param {import('./options.js').Options} options
   * @param {import('./renderer.js').CpuReason} [cpuReason] why the CPU draws, where it does
   */
  choose(pool, gl, options, cpuReason) {
    const reason = whyCpu(gl, options, pool, cpuReason);
    const gpu = reason === null;
    gl?.useGpuWater(gpu);
    if (pool.gpuWater !== gpu) pool.setGpuWater(gpu);
    this.reason = reason;
  }

  /**
   * What stats() says of it.
   * @returns {{ simulation: 'gpu' | 'cpu', simulationReason: SimulationReason | null }}
   */
  stats() {
    return { simulation: this.reason === null ? 'gpu' : 'cpu', simulationReason: this.reason };
  }
}

/** Most steps one step(n) call takes (100 s of water at 60 steps a second). */
export const MAX_STEP_CALL = 6000;

/**
 * Checks step(n)'s `n`: a whole number of steps from 0 to MAX_STEP_CALL.
 * @param {unknown} n
 * @returns {number}
 */
export function checkStepCount(n) {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_STEP_CALL) {
    const given = typeof n === 'string' ? `'${n}'` : String(n);
    throw new RangeError(`Ripples.step: n must be a whole number of steps from 0 to ${MAX_STEP_CALL}, got ${given}`);
  }
  return n;
}

let seedForTests = null;

/**
 * The seed of a new instance's rain: random, unless a test fixed it (setSeedForTests), so two
 * instances can rain alike (the GPU-against-CPU parity test). Not in the published API.
 * @returns {number}
 */
export function nextSeed() {
  return seedForTests ?? Math.floor(Math.random() * 2 ** 32);
}

/**
 * A test hook: the rain of instances attached from now on is seeded with `seed` (null: random).
 * @param {number | null} seed
 */
export function setSeedForTests(seed) {
  seedForTests = seed;
}
