// The water stepped on the GPU: the passes of the two-field solvers
// (crates/ripples/src/simulation/two_fields.rs: stones, bodies' presses, the step's walls and
// sponge), of the dispersive solver (simulation/dispersive.rs and kernels/dispersive.rs) and of
// the wave solver (simulation/wave.rs, kernels/f32_rows.rs wave_step_row), and the looks'
// surfaces (the natural look's: kernels/natural.rs smooth_columns, smooth_row, surface_row;
// the others' gradients: looks/gradient.rs), one small
// program each, named after the Rust they mirror so that the two read side by side. The parity
// test (web/e2e/gpu-water.mjs) holds the frames drawn from here to the wasm solver's.
//
// What they read and write (see gl/simulation.js): every target is RGBA32F, one texel per cell,
// rows top first as the wasm grid, read with texelFetch only (so no linear float filtering is
// needed: the cells are sampled by hand, as the CPU does). The water is one texture, R the
// heights now and G one step ago (TwoFields' current and previous), ping-ponged between two
// framebuffers; the pyramid's levels are one texture each, R its band (D^l u) and G its smoothed
// field (sum_{m >= l} w_m U^{m-l} D^m u). Cells beyond a level's edge are 0 both ways, as in
// the Rust; the order of the sums differs (a 7x7 pass where the CPU filters along y, then x),
// which changes the float rounding only.

import { VERTEX_SHADER } from './shaders.js';

export { VERTEX_SHADER };

const HEADER = `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
out vec4 out_value;
// The pyramid's filter, kernels/dispersive.rs FILTER: the 7-tap binomial over 64.
const float FILTER[7] = float[7](1.0 / 64.0, 6.0 / 64.0, 15.0 / 64.0, 20.0 / 64.0, 15.0 / 64.0, 6.0 / 64.0, 1.0 / 64.0);
`;

/**
 * go_down (dispersive.rs; weighted_rows along y, decimate_row along x): level l + 1's band,
 * `band[i, j] = sum FILTER[t] FILTER[s] fine[2i + s - 3, 2j + t - 3]`, cells outside the fine
 * level taken as 0. u_fine is the water (its R: the heights) at level 0, else level l's texture
 * (its R: the band).
 */
export const GO_DOWN = `${HEADER}
uniform sampler2D u_fine;
uniform ivec2 u_fine_size;
void main() {
  ivec2 coarse = ivec2(gl_FragCoord.xy);
  ivec2 first = 2 * coarse - 3;
  float sum = 0.0;
  for (int t = 0; t < 7; t++) {
    int y = first.y + t;
    if (y < 0 || y >= u_fine_size.y) continue;
    float row = 0.0;
    for (int s = 0; s < 7; s++) {
      int x = first.x + s;
      if (x < 0 || x >= u_fine_size.x) continue;
      row += FILTER[s] * texelFetch(u_fine, ivec2(x, y), 0).r;
    }
    sum += FILTER[t] * row;
  }
  out_value = vec4(sum, 0.0, 0.0, 0.0);
}
`;

/**
 * go_up and collapse (dispersive.rs; expand_row along x, weighted_rows along y): level l's
 * smoothed field, `weight * band + U smoothed_{l+1}`, U the transpose of going down times 2 per
 * axis: coarse cell (i, j) reaches fine cell (x, y) with `(2 FILTER[s]) (2 FILTER[t])` where
 * `x + 3 - s = 2i` and `y + 3 - t = 2j`. At the top level (u_has_coarse 0) it is the weighted
 * band alone. The band is u_fine's R (the heights at level 0); the result goes to G, with the
 * band kept in R.
 */
export const GO_UP = `${HEADER}
uniform sampler2D u_fine;
uniform sampler2D u_coarse;
uniform ivec2 u_coarse_size;
uniform int u_has_coarse;
uniform float u_weight;
void main() {
  ivec2 cell = ivec2(gl_FragCoord.xy);
  float band = texelFetch(u_fine, cell, 0).r;
  float sum = u_weight * band;
  if (u_has_coarse == 1) {
    float expanded = 0.0;
    for (int t = (cell.y + 3) % 2; t < 7; t += 2) {
      int j = (cell.y + 3 - t) / 2;
      if (j < 0 || j >= u_coarse_size.y) continue;
      float row = 0.0;
      for (int s = (cell.x + 3) % 2; s < 7; s += 2) {
        int i = (cell.x + 3 - s) / 2;
        if (i < 0 || i >= u_coarse_size.x) continue;
        row += 2.0 * FILTER[s] * texelFetch(u_coarse, ivec2(i, j), 0).g;
      }
      expanded += 2.0 * FILTER[t] * row;
    }
    sum += expanded;
  }
  out_value = vec4(band, sum, 0.0, 0.0);
}
`;

/** The widest damping band of an absorbing edge the step takes (the pool's is at most 40). */
export const MAX_SPONGE_BAND = 64;

// TwoFields::finish_step, after a (sub)step's step_here(cell) has made (next, current) of an
// interior cell (u_water and u_grid, the water and the grid's size, declared by the step): both fields at rest on walls (u_walls'
// R above a half, where u_has_walls), and multiplied by the sponge's factor (u_sponge[d], d
// cells from the nearest edge, for d below u_band: Sponge::apply_f32).
const FINISH_STEP = `
uniform sampler2D u_walls;
uniform bool u_has_walls;
uniform int u_band;
uniform float u_sponge[${MAX_SPONGE_BAND}];
void main() {
  ivec2 cell = ivec2(gl_FragCoord.xy);
  // Border cells are not stepped: they swap as the Rust's do (both at rest).
  bool border = cell.x < 1 || cell.y < 1 || cell.x > u_grid.x - 2 || cell.y > u_grid.y - 2;
  vec2 water = border ? texelFetch(u_water, cell, 0).gr : step_here(cell);
  if (u_has_walls && texelFetch(u_walls, cell, 0).r > 0.5) water = vec2(0.0);
  int d = min(min(cell.x, cell.y), min(u_grid.x - 1 - cell.x, u_grid.y - 1 - cell.y));
  if (d < u_band) water *= u_sponge[d];
  out_value = vec4(water, 0.0, 0.0);
}
`;

// kernels/f32_row_bodies.rs stencil_sums, the wave and dispersive steps' 9-point sums around an
// interior cell, left to right as written: [edges, corners] of the field the step defines as
// stencil_at(cell).
const STENCIL_SUMS = `
vec2 stencil_sums(ivec2 cell) {
  float edges = stencil_at(cell + ivec2(0, -1)) + stencil_at(cell + ivec2(0, 1)) + stencil_at(cell + ivec2(-1, 0)) + stencil_at(cell + ivec2(1, 0));
  float corners = stencil_at(cell + ivec2(-1, -1)) + stencil_at(cell + ivec2(1, -1)) + stencil_at(cell + ivec2(-1, 1)) + stencil_at(cell + ivec2(1, 1));
  return vec2(edges, corners);
}
`;

/**
 * dispersive_step_row (kernels/dispersive.rs), then FINISH_STEP: on interior cells,
 * `next = current * u + laplacian * lap(S) - previous * p` with lap the 9-point Laplacian of
 * the smoothed field (u_smoothed's G), and the fields swapped: (next, u).
 */
export const DISPERSIVE_STEP = `${HEADER}
uniform sampler2D u_water;
uniform sampler2D u_smoothed;
uniform ivec2 u_grid;
uniform vec3 u_coefficients; // DispersiveCoefficients: current, laplacian, previous
float stencil_at(ivec2 cell) { return texelFetch(u_smoothed, cell, 0).g; }
${STENCIL_SUMS}
vec2 step_here(ivec2 cell) {
  vec2 water = texelFetch(u_water, cell, 0).rg;
  vec2 sums = stencil_sums(cell);
  float lap = (4.0 * sums.x + sums.y - 20.0 * stencil_at(cell)) / 6.0;
  float next = u_coefficients.x * water.r + u_coefficients.y * lap - u_coefficients.z * water.g;
  return vec2(next, water.r);
}
${FINISH_STEP}`;

/**
 * One substep of the wave solver (kernels/f32_rows.rs wave_step_row, WaveSolver::step_here),
 * then FINISH_STEP: on interior cells, `next = centre * row + edge * edges + corner * corners -
 * previous * out` of the current heights (R) and the previous ones (G), as written (no fused
 * multiply-add in the Rust); the fields swapped: (next, current).
 */
export const WAVE_STEP = `${HEADER}
uniform sampler2D u_water;
uniform ivec2 u_grid;
uniform vec4 u_coefficients; // WaveCoefficients: centre, edge, corner, previous
float stencil_at(ivec2 cell) { return texelFetch(u_water, cell, 0).r; }
${STENCIL_SUMS}
vec2 step_here(ivec2 cell) {
  vec2 water = texelFetch(u_water, cell, 0).rg;
  vec2 sums = stencil_sums(cell);
  vec4 k = u_coefficients;
  float next = k.x * water.r + k.y * sums.x + k.z * sums.y - k.w * water.g;
  return vec2(next, water.r);
}
${FINISH_STEP}`;

// A stone (dispersive.rs drop_stone) in three passes: STONE_ROWS and STONE_MOMENTS sum what
// its dent pushes aside of the water under it (the volume and second moment that
// `moments(before) - moments(after)` gives the CPU: only the dent's cells change), and STONE
// presses the dent and raises the two rims that put that back, their cells and solve from the
// wasm module (DispersiveSolver::stone_rims). The dent shared by the three:
const DENT = `
uniform ivec2 u_cell;
uniform int u_radius;
uniform float u_depth;
// two_fields.rs press_cell: the raised cosine at d^2 cells^2 from the centre, and whether it
// is deeper than the water there (higher, for a negative strength).
float dent(int d_squared) {
  return u_depth * (0.5 + 0.5 * cos(sqrt(float(d_squared)) * (PI / float(u_radius))));
}
bool deeper(float dent_height, float water) {
  return u_depth < 0.0 ? dent_height < water : dent_height > water;
}
`;

/**
 * STONE_ROWS: for each row of the dent's cells (u_first_row + x of this target), clipped to the
 * interior (columns u_columns.x to u_columns.y), the sums of `h - dent` and `(h - dent) d^2`
 * over the cells the dent presses: [volume, second moment].
 */
export const STONE_ROWS = `${HEADER}
const float PI = 3.14159265358979;
uniform sampler2D u_water;
uniform int u_first_row;
uniform ivec2 u_columns;
${DENT}
void main() {
  int y = u_first_row + int(gl_FragCoord.x);
  int dy = y - u_cell.y;
  vec2 sums = vec2(0.0);
  for (int x = u_columns.x; x <= u_columns.y; x++) {
    int dx = x - u_cell.x;
    int d_squared = dx * dx + dy * dy;
    if (d_squared >= u_radius * u_radius) continue;
    float h = texelFetch(u_water, ivec2(x, y), 0).r;
    float pressed = dent(d_squared);
    if (deeper(pressed, h)) sums += (h - pressed) * vec2(1.0, float(d_squared));
  }
  out_value = vec4(sums, 0.0, 0.0);
}
`;

/** STONE_MOMENTS: the sum of STONE_ROWS' u_rows rows, into one texel. */
export const STONE_MOMENTS = `${HEADER}
uniform sampler2D u_row_sums;
uniform int u_rows;
void main() {
  vec2 sums = vec2(0.0);
  for (int k = 0; k < u_rows; k++) sums += texelFetch(u_row_sums, ivec2(k, 0), 0).rg;
  out_value = vec4(sums, 0.0, 0.0);
}
`;

/**
 * STONE: under the dent, both fields take the dent where it is deeper (press_cell); in the
 * rims' cells (u_rim_cells: columns x0..x1, rows y0..y1, ends excluded), both fields rise by
 * `a ring(d, r) + b ring(d, 2r)` (raise_rims, rim_profiles), the heights `a`, `b` from the
 * pushed-aside sums of STONE_MOMENTS (u_pushed) through u_solve ([a0, a1, b0, b1]: StoneRims).
 * Only interior cells are touched.
 */
export const STONE = `${HEADER}
const float PI = 3.14159265358979;
uniform sampler2D u_water;
uniform sampler2D u_pushed;
uniform ivec2 u_grid;
uniform ivec4 u_rim_cells;
uniform vec4 u_solve;
${DENT}
// rim_profiles: sin^2 across the ring from \`from\` to \`from + r\`.
float ring(float d, float from, float r) {
  if (d <= from || d >= from + r) return 0.0;
  float s = sin(PI * (d - from) / r);
  return s * s;
}
void main() {
  ivec2 cell = ivec2(gl_FragCoord.xy);
  vec4 water = texelFetch(u_water, cell, 0);
  bool interior = cell.x >= 1 && cell.y >= 1 && cell.x <= u_grid.x - 2 && cell.y <= u_grid.y - 2;
  ivec2 offset = cell - u_cell;
  int d_squared = offset.x * offset.x + offset.y * offset.y;
  if (interior && d_squared < u_radius * u_radius) {
    float pressed = dent(d_squared);
    if (deeper(pressed, water.r)) water.rg = vec2(pressed);
  } else if (cell.x >= u_rim_cells.x && cell.x < u_rim_cells.y && cell.y >= u_rim_cells.z && cell.y < u_rim_cells.w) {
    vec2 pushed = texelFetch(u_pushed, ivec2(0), 0).rg;
    float inner = u_solve.x * pushed.x + u_solve.y * pushed.y;
    float outer = u_solve.z * pushed.x + u_solve.w * pushed.y;
    float r = float(u_radius);
    float d = sqrt(float(d_squared));
    water.rg += inner * ring(d, r, r) + outer * ring(d, 2.0 * r, r);
  }
  out_value = water;
}
`;

/** Presses one PRESS pass takes (more are pressed in several passes, in their order). */
export const MAX_PRESSES_PER_PASS = 16;

/**
 * Bodies pressing the water (disturbances/body.rs Press::into_f32, as TwoFields::press applies
 * it): for each press (u_presses[k]: centre x, y and radius in cells, impulse), in order, every
 * interior cell closer to the centre than the radius loses `impulse * (0.5 + 0.5 cos(pi d /
 * radius))` of its current height (R); the previous field (G) stays.
 */
export const PRESS = `${HEADER}
uniform sampler2D u_water;
uniform ivec2 u_grid;
uniform int u_count;
uniform vec4 u_presses[${MAX_PRESSES_PER_PASS}];
const float PI = 3.14159265358979;
void main() {
  ivec2 cell = ivec2(gl_FragCoord.xy);
  vec4 water = texelFetch(u_water, cell, 0);
  bool interior = cell.x >= 1 && cell.y >= 1 && cell.x <= u_grid.x - 2 && cell.y <= u_grid.y - 2;
  if (interior) {
    for (int k = 0; k < u_count; k++) {
      vec4 press = u_presses[k];
      float d = length(vec2(cell) - press.xy);
      if (d < press.z) water.r -= press.w * (0.5 + 0.5 * cos(d * (PI / press.z)));
    }
  }
  out_value = water;
}
`;

/** Both fields to rest (TwoFields::calm), and the pyramid's textures alike. */
export const CALM = `${HEADER}
void main() {
  out_value = vec4(0.0);
}
`;

/**
 * The natural look's smoothed heights (looks/natural.rs smooth; kernels/natural.rs
 * smooth_columns then smooth_row): the 5x5 binomial [1, 4, 6, 4, 1] of the heights, rows and
 * columns mirrored at the grid's edges (natural::mirrored: -1 is 1), into R.
 */
export const SMOOTH = `${HEADER}
uniform sampler2D u_water;
uniform ivec2 u_grid;
int mirrored(int index, int len) {
  int last = len - 1;
  int wanted = index < 0 ? -index : (index > last ? 2 * last - index : index);
  return clamp(wanted, 0, max(last, 0));
}
const float BINOMIAL[5] = float[5](1.0, 4.0, 6.0, 4.0, 1.0);
void main() {
  ivec2 cell = ivec2(gl_FragCoord.xy);
  float sum = 0.0;
  for (int b = 0; b < 5; b++) {
    int x = mirrored(cell.x + b - 2, u_grid.x);
    float column = 0.0;
    for (int a = 0; a < 5; a++) {
      column += BINOMIAL[a] * texelFetch(u_water, ivec2(x, mirrored(cell.y + a - 2, u_grid.y)), 0).r;
    }
    sum += BINOMIAL[b] * column;
  }
  out_value = vec4(sum, 0.0, 0.0, 0.0);
}
`;

/**
 * surface_row (kernels/natural.rs) and caustic_spread: the natural look's surface of a cell,
 * [p, q, focus, 0], from the smoothed heights around it (mirrored at the edges), what the wasm
 * module's prepareSurface writes for the look's shader (gl/shaders.js). u_k: the wasm module's
 * naturalSurfaceConstants() (the core's NaturalLook): slope, curvature and cross scales, the
 * caustic trace (3), the caustic determinant's weight and MIN_SPREAD.
 */
export const NATURAL_SURFACE = `${HEADER}
uniform sampler2D u_smoothed;
uniform ivec2 u_grid;
uniform float u_k[8];
int mirrored(int index, int len) {
  int last = len - 1;
  int wanted = index < 0 ? -index : (index > last ? 2 * last - index : index);
  return clamp(wanted, 0, max(last, 0));
}
float s(ivec2 cell, int dx, int dy) {
  return texelFetch(u_smoothed, ivec2(mirrored(cell.x + dx, u_grid.x), mirrored(cell.y + dy, u_grid.y)), 0).r;
}
float caustic_spread(float xx, float xy, float yy) {
  float trace = (u_k[3] * xx + u_k[4] * xy) + u_k[5] * yy;
  float det = (1.0 + trace) + u_k[6] * (xx * yy - xy * xy);
  float spread = abs(det);
  return spread > u_k[7] ? spread : u_k[7];
}
void main() {
  ivec2 cell = ivec2(gl_FragCoord.xy);
  float l = s(cell, -1, 0), c = s(cell, 0, 0), r = s(cell, 1, 0);
  float a = s(cell, 0, -1), b = s(cell, 0, 1);
  float p = u_k[0] * (r - l);
  float q = u_k[0] * (b - a);
  float xx = u_k[1] * ((r - c) - (c - l));
  float xy = u_k[2] * ((s(cell, 1, 1) - s(cell, -1, 1)) - (s(cell, 1, -1) - s(cell, -1, -1)));
  float yy = u_k[1] * ((b - c) - (c - a));
  out_value = vec4(p, q, 1.0 / caustic_spread(xx, xy, yy), 0.0);
}
`;

/**
 * The surface of the other looks (lit, classic, spring: looks/mod.rs surface and
 * looks/gradient.rs fill_gradient_row, kernels gradient_row): [gx, gy, velocity, 0] of a cell,
 * `gx = h[x-1] - h[x+1]` and `gy = h[y-1] - h[y+1]` of the heights now (R), 0 on the grid's
 * edge; the velocity is the spring solver's only, 0 here.
 */
export const GRADIENT_SURFACE = `${HEADER}
uniform sampler2D u_water;
uniform ivec2 u_grid;
float h(ivec2 cell) { return texelFetch(u_water, cell, 0).r; }
void main() {
  ivec2 cell = ivec2(gl_FragCoord.xy);
  if (cell.x < 1 || cell.y < 1 || cell.x > u_grid.x - 2 || cell.y > u_grid.y - 2) {
    out_value = vec4(0.0);
    return;
  }
  float gx = h(cell + ivec2(-1, 0)) - h(cell + ivec2(1, 0));
  float gy = h(cell + ivec2(0, -1)) - h(cell + ivec2(0, 1));
  out_value = vec4(gx, gy, 0.0, 0.0);
}
`;

/**
 * The water carried onto a grid of another size (simulation/resample.rs resample_field_by, on
 * both fields): each cell the bilinear interpolation of u_from (u_from_size cells) at its
 * centre, u_step source cells a cell along x and y (the grids' sizes and boxes: a resize keeps
 * the top-left corner); cells beyond the source's box, and the grid's edge, at rest.
 */
export const RESAMPLE = `${HEADER}
uniform sampler2D u_from;
uniform ivec2 u_from_size;
uniform ivec2 u_grid;
uniform vec2 u_step;
// resample.rs taps: the two source cells a target cell reads along an axis, and the second's
// weight; false beyond the source's box.
bool taps(int index, float step, int len, out int low, out int high, out float weight) {
  float at = (float(index) + 0.5) * step - 0.5;
  if (at < -0.5 || at > float(len) - 0.5) return false;
  at = clamp(at, 0.0, float(len - 1));
  low = int(floor(at));
  high = min(low + 1, len - 1);
  weight = at - float(low);
  return true;
}
void main() {
  ivec2 cell = ivec2(gl_FragCoord.xy);
  int x0, x1, y0, y1;
  float wx, wy;
  bool edge = cell.x == 0 || cell.y == 0 || cell.x == u_grid.x - 1 || cell.y == u_grid.y - 1;
  if (edge || !taps(cell.x, u_step.x, u_from_size.x, x0, x1, wx) || !taps(cell.y, u_step.y, u_from_size.y, y0, y1, wy)) {
    out_value = vec4(0.0);
    return;
  }
  vec2 upper = texelFetch(u_from, ivec2(x0, y0), 0).rg * (1.0 - wx) + texelFetch(u_from, ivec2(x1, y0), 0).rg * wx;
  vec2 lower = texelFetch(u_from, ivec2(x0, y1), 0).rg * (1.0 - wx) + texelFetch(u_from, ivec2(x1, y1), 0).rg * wx;
  out_value = vec4(upper * (1.0 - wy) + lower * wy, 0.0, 0.0);
}
`;

/** Cells along each side of the block a LARGEST pass reduces to one texel. */
export const LARGEST_BLOCK = 16;

/**
 * The largest height of the water (Pool::is_calm: every height, now and a step ago, from rest):
 * each texel the largest of a LARGEST_BLOCK-square block of u_from (u_from_size texels), of
 * |R| and |G| of the water itself (u_first), else of R (a previous reduction). Repeated down to
 * one texel, which gl/simulation.js reads back asynchronously.
 */
export const LARGEST = `${HEADER}
uniform sampler2D u_from;
uniform ivec2 u_from_size;
uniform bool u_first;
void main() {
  ivec2 base = ivec2(gl_FragCoord.xy) * ${LARGEST_BLOCK};
  float largest = 0.0;
  for (int dy = 0; dy < ${LARGEST_BLOCK}; dy++) {
    int y = base.y + dy;
    if (y >= u_from_size.y) break;
    for (int dx = 0; dx < ${LARGEST_BLOCK}; dx++) {
      int x = base.x + dx;
      if (x >= u_from_size.x) break;
      vec2 water = texelFetch(u_from, ivec2(x, y), 0).rg;
      largest = max(largest, u_first ? max(abs(water.r), abs(water.g)) : water.r);
    }
  }
  out_value = vec4(largest, 0.0, 0.0, 0.0);
}
`;
