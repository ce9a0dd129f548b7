// The looks of Ripples as WebGL2 shaders: the GPU side of the row kernels in
// crates/ripples/src/kernels (scalar.rs for the classic, lit and spring looks, natural.rs for the
// natural look), function for function, with the kernels' names, so that the two read side by
// side. The CPU renders the same frames from the same numbers (the parity test, web/e2e/gl.mjs,
// holds them within a mean of 1 level).
//
// What the shaders read:
// - u_surface (RGBA32F, one texel per grid cell, texelFetch only: WebGL2 filters float textures
//   only with OES_texture_float_linear): what the wasm module's prepareSurface() writes each
//   frame, [gx, gy, velocity, 0] for the classic, lit and spring looks and [p, q, focus, 0] for
//   the natural look (ripples::Renderer::surface). It is interpolated here, at pixel (x, y), at
//   cell (u, v) = ((x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5), as the CPU's renderer does
//   at a simulation scale above 1 (upsample_surface).
// - u_image (RGBA8): the picture under the water at the canvas's size, read with texelFetch and
//   blended in the kernels' fixed point (1/128-pixel weights), not by the GPU's filtering.
// - u_sky (RGBA8, 64x64): the natural look's sky table, read at the nearest texel.
// - u_walls (RGBA8, the canvas's size): the walls' stone (alpha 255) and the shade they throw
//   on the floor (alpha 128, the light kept out of 256 in red), drawn over the water as
//   ripples::WallLook does; u_has_walls is 0 without walls.
// - u_water (R8, the canvas's size): a living photograph's water mask (the wasm module's
//   waterMask(), 255 on water); where u_has_land is 1, every other pixel is the picture's own
//   texel, as the CPU's Pool::render restores the land. The photo look (in perspective) has a
//   file of its own, photo-shader.js.
// - u_c: the look's constants, from the wasm module's shaderConstants()
//   (ripples::Look::shader_constants, whose doc lists the layout).
//
// Textures hold rows top first, as the wasm buffers do; only the frame's own row (gl_FragCoord)
// is counted from the bottom, and image_pixel() turns it around.

export const VERTEX_SHADER = `#version 300 es
// One triangle that covers the canvas.
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
`;

export const COMMON = `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;

uniform sampler2D u_surface;
uniform sampler2D u_image;
uniform sampler2D u_sky;
uniform sampler2D u_walls;
uniform int u_has_walls;
uniform sampler2D u_water;
uniform int u_has_land;
uniform ivec2 u_size;   // image (canvas) pixels
uniform ivec2 u_grid;   // grid cells
uniform float u_scale;  // pixels per cell
uniform float u_c[34];  // Look::shader_constants

out vec4 out_colour;

// The pixel this fragment draws, in image coordinates (rows down from the top).
ivec2 image_pixel() {
  ivec2 fragment = ivec2(gl_FragCoord.xy);
  return ivec2(fragment.x, u_size.y - 1 - fragment.y);
}

// scalar.rs: clamp(value, 0, max) with NaN sent to 0.
float clamp_position(float value, float limit) {
  float at_least_zero = value > 0.0 ? value : 0.0;
  return at_least_zero < limit ? at_least_zero : limit;
}

// The surface at pixel (x, y): the grid's four cells around it, bilinearly (GridColumns and
// upsample_row along x, then the two rows blended, as Renderer::render_row does).
vec4 upsample_surface(ivec2 pixel) {
  vec2 last = vec2(u_grid - 1);
  vec2 at = clamp((vec2(pixel) + 0.5) * (1.0 / u_scale) - 0.5, vec2(0.0), last);
  ivec2 left_top = ivec2(at);
  ivec2 right_bottom = min(left_top + 1, u_grid - 1);
  vec2 weight = at - vec2(left_top);
  vec4 c00 = texelFetch(u_surface, left_top, 0);
  vec4 c10 = texelFetch(u_surface, ivec2(right_bottom.x, left_top.y), 0);
  vec4 c01 = texelFetch(u_surface, ivec2(left_top.x, right_bottom.y), 0);
  vec4 c11 = texelFetch(u_surface, right_bottom, 0);
  vec4 top = c00 + (c10 - c00) * weight.x;
  vec4 bottom = c01 + (c11 - c01) * weight.x;
  return top + (bottom - top) * weight.y;
}

// A texel of the picture as bytes.
ivec4 image_texel(int x, int y) {
  return ivec4(round(texelFetch(u_image, ivec2(x, y), 0) * 255.0));
}

// scalar.rs lerp7: a + (((b - a) * w) >> 7), per channel.
ivec4 lerp7(ivec4 a, ivec4 b, int weight) {
  return a + (((b - a) * weight) >> 7);
}

// The frame's pixel from bytes.
vec4 from_bytes(ivec4 bytes) {
  return vec4(clamp(bytes, 0, 255)) / 255.0;
}

// WallLook::apply: the stone over the wall pixels, the shade beside them.
ivec4 walls(ivec2 pixel, ivec4 colour) {
  if (u_has_walls == 0) return colour;
  ivec4 wall = ivec4(round(texelFetch(u_walls, pixel, 0) * 255.0));
  if (wall.a == 255) return wall;
  if (wall.a == 128) return ivec4((colour.rgb * wall.r) >> 8, colour.a);
  return colour;
}

// WaterRegion::restore_land: a living photograph's land (u_water 0) is the picture's own texel.
ivec4 restore_land(ivec2 pixel, ivec4 colour) {
  if (u_has_land == 0 || texelFetch(u_water, pixel, 0).r > 0.5) return colour;
  return image_texel(pixel.x, pixel.y);
}
`;

/** The classic look (scalar.rs resampled_classic_pixels): the nearest pixel the slope points to. */
export const CLASSIC_SHADER = `${COMMON}
// scalar.rs round_half_away: to the nearest integer, halves away from zero.
float round_half_away(float value) {
  float truncated = trunc(value);
  return truncated + (abs(value - truncated) >= 0.5 ? sign(value) : 0.0);
}

ivec4 classic_render_pixel(ivec2 pixel, vec4 surface) {
  vec2 limit = vec2(u_size - 1);
  float sx = clamp_position(float(pixel.x) + round_half_away(surface.x), limit.x);
  float sy = clamp_position(float(pixel.y) + round_half_away(surface.y), limit.y);
  return image_texel(int(sx), int(sy));
}

void main() {
  ivec2 pixel = image_pixel();
  out_colour = from_bytes(restore_land(pixel, walls(pixel, classic_render_pixel(pixel, upsample_surface(pixel)))));
}
`;

/** The lit look (scalar.rs lit_render_span): bilinear refraction, a diffuse light and a highlight. */
export const LIT_SHADER = `${COMMON}
// LitLook's table entry for a facing value: the gain (8.8 fixed point) and the highlight, from
// the facing rounded to the table's 1/2048 steps (lit_table_index).
ivec2 lit_light(float facing) {
  float shading = u_c[4];
  float specular = u_c[5];
  float shininess = u_c[6];
  int index = int(clamp_position((facing + 1.0) * 2048.0 + 0.5, 4096.0));
  float table_facing = float(index) / 2048.0 - 1.0;
  int gain = min(int(round(256.0 * max(0.0, 1.0 + shading * table_facing))), 2047);
  int highlight = table_facing > 0.0 ? int(round(255.0 * specular * pow(table_facing, shininess))) : 0;
  return ivec2(gain, highlight);
}

ivec4 lit_render_pixel(ivec2 pixel, vec4 surface) {
  float refraction = u_c[0];
  float slope = u_c[1];
  vec2 light = vec2(u_c[2], u_c[3]);
  vec2 limit = vec2(u_size - 1);
  float sx = clamp_position(float(pixel.x) + refraction * surface.x, limit.x);
  float sy = clamp_position(float(pixel.y) + refraction * surface.y, limit.y);
  ivec2 fixed_point = ivec2(int(sx * 128.0), int(sy * 128.0));
  ivec2 corner = fixed_point >> 7;
  ivec2 weight = fixed_point & 127;
  ivec2 far_corner = min(corner + 1, u_size - 1);
  ivec4 top = lerp7(image_texel(corner.x, corner.y), image_texel(far_corner.x, corner.y), weight.x);
  ivec4 bottom = lerp7(image_texel(corner.x, far_corner.y), image_texel(far_corner.x, far_corner.y), weight.x);
  ivec4 sampled = top + (((bottom - top) * weight.y) >> 7);

  float p = slope * surface.x;
  float q = slope * surface.y;
  float inv_len = 1.0 / sqrt((1.0 + p * p) + q * q);
  float facing = (p * light.x + q * light.y) * inv_len;
  ivec2 entry = lit_light(facing);
  ivec3 rgb = min(ivec3(255), (((sampled.rgb << 8) * entry.x) >> 16) + entry.y);
  return ivec4(rgb, sampled.a);
}

void main() {
  ivec2 pixel = image_pixel();
  out_colour = from_bytes(restore_land(pixel, walls(pixel, lit_render_pixel(pixel, upsample_surface(pixel)))));
}
`;

/** The spring look (scalar.rs spring_render_row): truncated refraction, alpha from the velocity. */
export const SPRING_SHADER = `${COMMON}
ivec4 spring_render_pixel(ivec2 pixel, vec4 surface) {
  float refraction = u_c[7];
  float transparency = u_c[8];
  vec2 limit = vec2(u_size - 1);
  float sx = clamp(trunc(float(pixel.x) + refraction * surface.x), 0.0, limit.x);
  float sy = clamp(trunc(float(pixel.y) + refraction * surface.y), 0.0, limit.y);
  ivec4 colour = image_texel(int(sx), int(sy));
  float velocity = surface.z;
  int fade = int(min(255.0 * transparency * velocity * velocity, 255.0));
  colour.a = max(colour.a - fade, 0);
  return colour;
}

void main() {
  ivec2 pixel = image_pixel();
  out_colour = from_bytes(restore_land(pixel, walls(pixel, spring_render_pixel(pixel, upsample_surface(pixel)))));
}
`;

/**
 * The natural look (natural.rs natural_render_row, its optics_with_focus, light, bilinear_row,
 * nearest_row and blend): the picture as a pool's floor seen through the water, with caustics,
 * the sky's reflection beyond calm water's and the sun's glint where the water is stirred.
 */
export const NATURAL_SHADER = `${COMMON}
// natural.rs bilinear_row: the floor at (x, y) in 1/128-pixel fixed point, its left corner
// never the last column (so the weight reaches 128 there).
ivec4 bilinear_floor(vec2 at) {
  float sx = clamp_position(at.x, float(u_size.x - 1));
  float sy = clamp_position(at.y, float(u_size.y - 1));
  ivec2 fixed_point = ivec2(int(sx * 128.0), int(sy * 128.0));
  ivec2 last_corner = max(u_size, ivec2(2)) - 2;
  ivec2 corner = min(fixed_point >> 7, last_corner);
  ivec2 weight = fixed_point - 128 * corner;
  ivec2 far_corner = min(corner + 1, u_size - 1);
  ivec4 top = lerp7(image_texel(corner.x, corner.y), image_texel(far_corner.x, corner.y), weight.x);
  ivec4 bottom = lerp7(image_texel(corner.x, far_corner.y), image_texel(far_corner.x, far_corner.y), weight.x);
  return top + (((bottom - top) * weight.y) >> 7);
}

// natural.rs nearest_row: the sky table's texel at (x, y).
ivec4 nearest_sky(vec2 at) {
  float last = u_c[30] - 1.0;
  ivec2 texel = ivec2(int(clamp_position(at.x, last)), int(clamp_position(at.y, last)));
  return ivec4(round(texelFetch(u_sky, texel, 0) * 255.0));
}

// natural.rs to_byte: rounded to the nearest byte (ties to even), clamped, NaN to 0.
float to_byte(float value) {
  return roundEven(clamp_position(value, 255.0));
}

ivec4 natural_render_pixel(ivec2 pixel, vec4 surface) {
  float depth = u_c[9];
  float eta = u_c[10];
  float eta_squared = u_c[11];
  float eta_complement = u_c[12];
  vec3 sun_mirror = vec3(u_c[14], u_c[15], u_c[16]);
  float sun_z = u_c[17];
  vec3 transmittance = vec3(u_c[18], u_c[19], u_c[20]);
  vec3 glint_colour = vec3(u_c[21], u_c[22], u_c[23]);
  vec3 channel_spread = vec3(u_c[24], u_c[25], u_c[26]);
  float fresnel_head_on = u_c[28];
  float glint_floor = u_c[29];
  float span = u_c[30] * 0.5;
  float caustics = u_c[13];
  float gate_slope = u_c[32];
  float gate_focus = u_c[33];
  float p = surface.x;
  float q = surface.y;
  float focus = surface.z;
  vec2 here = vec2(pixel);

  // optics_with_focus and light: calm water (p = q = 0, focus 1) is the picture exactly; the
  // look adds what the waves change.
  float cos_squared = 1.0 / (1.0 + (p * p + q * q));
  float root = sqrt(cos_squared * (eta_complement + eta_squared * cos_squared));
  float bend = eta * cos_squared - root;
  float reach = (bend * depth) / (bend - eta);
  vec2 floor_at = here + vec2(p, q) * reach;
  float gain = 1.0 + caustics * (focus - 1.0);
  float grazing = 1.0 - sqrt(cos_squared);
  float grazing_squared = grazing * grazing;
  float reflected = (1.0 - fresnel_head_on) * (grazing_squared * grazing_squared * grazing);
  float fresnel = fresnel_head_on + reflected;
  float transmitted = (1.0 - reflected) * gain;
  float sun_dot = cos_squared * ((p * sun_mirror.x + q * sun_mirror.y) + sun_mirror.z) - sun_z;
  float glint = sun_dot > glint_floor ? sun_dot : 0.0;
  for (int i = 0; i < 8; i++) glint *= glint;
  float bent = focus - 1.0;
  float stir = (p * p + q * q) * gate_slope + (bent * bent) * gate_focus;
  float activity = stir < 1.0 ? stir : 1.0;
  float sheen = (fresnel * activity) * glint;
  vec2 sky_at = vec2(span - p * span, span - q * span);

  // The samples; with dispersion, red and blue again where their own index sends the view.
  ivec4 floor_colour = bilinear_floor(floor_at);
  if (u_c[27] > 0.5) {
    floor_colour.r = bilinear_floor(here + (floor_at - here) * channel_spread.r).r;
    floor_colour.b = bilinear_floor(here + (floor_at - here) * channel_spread.b).b;
  }
  vec3 sky = vec3(nearest_sky(sky_at).rgb);

  // blend.
  vec3 value = transmitted * (vec3(floor_colour.rgb) * transmittance) + (reflected * sky + sheen * glint_colour);
  return ivec4(int(to_byte(value.r)), int(to_byte(value.g)), int(to_byte(value.b)), floor_colour.a);
}

void main() {
  ivec2 pixel = image_pixel();
  out_colour = from_bytes(restore_land(pixel, walls(pixel, natural_render_pixel(pixel, upsample_surface(pixel)))));
}
`;

/** The fragment shader of each look, by its option name. */
export const LOOK_SHADERS = Object.freeze({
  classic: CLASSIC_SHADER,
  lit: LIT_SHADER,
  spring: SPRING_SHADER,
  natural: NATURAL_SHADER,
});
