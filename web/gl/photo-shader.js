// The photo look as a WebGL2 shader: a living photograph's water in perspective, the GPU side
// of crates/ripples/src/kernels/photo.rs (photo_row, lerp_columns, shade, sample_water,
// bilinear, project, schlick, sun_power) and of the per-row slope averaging in
// crates/ripples/src/photo/look.rs (average_rows), function for function with their names,
// so that the two read side by side. web/e2e/gl.mjs holds the two renderers' frames within a
// mean of 1 level (99.9th percentile 6), and the land the picture exactly.
//
// What it reads, besides COMMON's u_image (the picture) and u_size:
// - u_water (R8, the picture's size): the water region's mask from the wasm module's
//   waterMask(), 255 on water; every other pixel is the picture's own texel, copied, as are the
//   rows above the grid's reach (u_photo[5]) and calm water (both slopes zero), so that land
//   and calm water are the picture bit for bit.
// - u_rows (RGBA32F, 2 texels per picture row, from photoRows()): texel 0 [down, forward,
//   grid_x0 - first column, grid_dx], texel 1 [first grid row, end grid row, first column,
//   end column]: the row's view ray and its place on the plane, built once per water region.
// - u_sums (RG32F, the grid's width by its height + 1, texelFetch only): the surface's slopes
//   [x, z] summed down each grid column, what preparePhotoSlopes() writes each frame; a row
//   reads their average over the grid rows it covers with two reads per column.
// - u_photo: photoUniforms(), [centre x, centre y, focal, sin pitch, cos pitch, first row,
//   grid width, grid height, sun x, sun up, sun forward, glint strength].
// u_grid is the grid's size in cells.

import { COMMON } from './shaders.js';

/** The photo look (kernels/photo.rs photo_row): the picture's water moved by the waves on its plane. */
export const PHOTO_SHADER = `${COMMON}
uniform sampler2D u_rows;
uniform sampler2D u_sums;
uniform float u_photo[12];

// kernels/photo.rs BODY and NORMAL_REFLECTANCE.
const float BODY = 0.04;
const float NORMAL_REFLECTANCE = 0.02;

// Rust's f32::round: to the nearest integer, halves away from zero.
float round_half_away(float value) {
  float truncated = trunc(value);
  return truncated + (abs(value - truncated) >= 0.5 ? sign(value) : 0.0);
}

bool is_water(ivec2 pixel) {
  return texelFetch(u_water, pixel, 0).r > 0.5;
}

// photo/look.rs average_rows: the column sums at fractional grid row r.
vec2 sum_at(float r, int column) {
  int rows = u_grid.y;
  int whole = min(int(max(floor(r), 0.0)), rows);
  float part = r - float(whole);
  vec2 base = texelFetch(u_sums, ivec2(column, whole), 0).rg;
  if (whole < rows && part > 0.0) {
    vec2 next = texelFetch(u_sums, ivec2(column, whole + 1), 0).rg;
    return base + (next - base) * part;
  }
  return base;
}

// photo/look.rs average_rows: grid column column's slopes averaged over grid rows [from, to).
vec2 average_rows(int column, vec2 grid_rows) {
  float span = grid_rows.y - grid_rows.x;
  if (!(span > 0.0)) return vec2(0.0);
  vec2 difference = sum_at(grid_rows.y, column) - sum_at(grid_rows.x, column);
  return vec2(difference.x == 0.0 ? 0.0 : difference.x / span, difference.y == 0.0 ? 0.0 : difference.y / span);
}

// kernels/photo.rs lerp_columns: the slopes at fractional column (relative to the row's first
// column), clamped to the row's columns; place is the row's second texel.
vec2 lerp_columns(vec4 place, float column) {
  float last = place.w - place.z - 1.0;
  float clamped = clamp(column, 0.0, last);
  float left = floor(clamped);
  float right = min(left + 1.0, last);
  float t = clamped - left;
  vec2 a = average_rows(int(place.z + left), place.xy);
  vec2 b = average_rows(int(place.z + right), place.xy);
  return a + (b - a) * t;
}

// kernels/photo.rs project: the picture point where direction [x, down, forward] is seen;
// ok false behind the camera.
vec2 project(vec3 direction, out bool ok) {
  vec2 centre = vec2(u_photo[0], u_photo[1]);
  float focal = u_photo[2];
  float sin_pitch = u_photo[3];
  float cos_pitch = u_photo[4];
  float along_axis = direction.z * cos_pitch + direction.y * sin_pitch;
  float down_in_picture = direction.y * cos_pitch - direction.z * sin_pitch;
  ok = along_axis > 1e-6;
  return vec2(centre.x + focal * direction.x / along_axis, centre.y + focal * down_in_picture / along_axis);
}

// kernels/photo.rs schlick.
float schlick(float cosine) {
  float c = 1.0 - clamp(cosine, 0.0, 1.0);
  float c2 = c * c;
  return NORMAL_REFLECTANCE + (1.0 - NORMAL_REFLECTANCE) * c2 * c2 * c;
}

// kernels/photo.rs sun_power: cos^256 of the angle between ray and the sun.
float sun_power(vec3 sun, vec3 ray) {
  float power = max(dot(sun, ray), 0.0);
  for (int i = 0; i < 8; i++) power *= power;
  return power;
}

// kernels/photo.rs bilinear: the picture at fractional pixel (u, v), rounded per channel.
ivec4 bilinear(float u, float v) {
  vec2 limit = vec2(u_size - 1);
  u = clamp(u, 0.0, limit.x);
  v = clamp(v, 0.0, limit.y);
  ivec2 corner = ivec2(floor(u), floor(v));
  ivec2 far_corner = min(corner + 1, u_size - 1);
  float tx = u - float(corner.x);
  float ty = v - float(corner.y);
  ivec4 a = image_texel(corner.x, corner.y);
  vec3 b = vec3(image_texel(far_corner.x, corner.y).rgb);
  vec3 c = vec3(image_texel(corner.x, far_corner.y).rgb);
  vec3 d = vec3(image_texel(far_corner.x, far_corner.y).rgb);
  vec3 top = vec3(a.rgb) + (b - vec3(a.rgb)) * tx;
  vec3 bottom = c + (d - c) * tx;
  vec3 value = top + (bottom - top) * ty;
  return ivec4(ivec3(floor(value + 0.5)), a.a);
}

// kernels/photo.rs sample_water: the water at pixel moved by shift, pulled back half and a
// quarter of the way where that lands on land; found false if none is water.
ivec4 sample_water(ivec2 pixel, vec2 shift, out bool found) {
  float parts[3] = float[3](1.0, 0.5, 0.25);
  for (int k = 0; k < 3; k++) {
    float u = float(pixel.x) + shift.x * parts[k];
    float v = float(pixel.y) + shift.y * parts[k];
    vec2 near = vec2(round_half_away(u), round_half_away(v));
    bool inside = near.x >= 0.0 && near.y >= 0.0 && near.x < float(u_size.x) && near.y < float(u_size.y);
    if (inside && is_water(ivec2(near))) {
      found = true;
      return bilinear(u, v);
    }
  }
  found = false;
  return ivec4(0);
}

// kernels/photo.rs shade: one water pixel under slopes that are not both zero; ray is the
// row's first texel.
ivec4 shade(ivec2 pixel, vec4 ray, vec2 slopes) {
  ivec4 colour = image_texel(pixel.x, pixel.y);
  vec3 sun = vec3(u_photo[8], u_photo[9], u_photo[10]);
  float glint_strength = u_photo[11];
  vec3 view = normalize(vec3(float(pixel.x) + 0.5 - u_photo[0], -ray.x, ray.y));
  vec3 normal = normalize(vec3(-slopes.x, 1.0, -slopes.y));
  float along = dot(view, normal);
  vec3 reflected = normalize(view - 2.0 * along * normal);
  // Calm water shows the reflected ray where its own view ray is the ray mirrored downwards.
  float rising = max(reflected.y, 1e-3);
  bool here_ok;
  bool there_ok;
  vec2 here = project(vec3(view.x, -view.y, view.z), here_ok);
  vec2 there = project(vec3(reflected.x, rising, reflected.z), there_ok);
  ivec4 sampled = colour;
  if (here_ok && there_ok) {
    bool found;
    ivec4 water = sample_water(pixel, there - here, found);
    if (found) sampled = water;
  }
  float facet = schlick(-along);
  float calm_there = schlick(rising);
  float reflected_share = calm_there / (calm_there + BODY);
  float gain = 1.0 + reflected_share * (min(facet / calm_there, 4.0) - 1.0);
  vec3 flat_ray = vec3(view.x, -view.y, view.z);
  float glint = glint_strength * max(sun_power(sun, reflected) - sun_power(sun, flat_ray), 0.0);
  float light = 255.0 * glint;
  vec3 value = vec3(sampled.rgb) * gain + light;
  ivec3 rgb = ivec3(clamp(vec3(round_half_away(value.r), round_half_away(value.g), round_half_away(value.b)), 0.0, 255.0));
  return ivec4(rgb, colour.a);
}

// kernels/photo.rs photo_row, for one pixel.
ivec4 photo_render_pixel(ivec2 pixel) {
  ivec4 colour = image_texel(pixel.x, pixel.y);
  if (pixel.y < int(u_photo[5]) || !is_water(pixel)) return colour;
  vec4 ray = texelFetch(u_rows, ivec2(0, pixel.y), 0);
  vec4 place = texelFetch(u_rows, ivec2(1, pixel.y), 0);
  if (!(place.w > place.z)) return colour;
  float column = ray.z + ray.w * (float(pixel.x) + 0.5) - 0.5;
  vec2 slopes = lerp_columns(place, column);
  if (slopes.x == 0.0 && slopes.y == 0.0) return colour;
  return shade(pixel, ray, slopes);
}

void main() {
  out_colour = from_bytes(photo_render_pixel(image_pixel()));
}
`;
