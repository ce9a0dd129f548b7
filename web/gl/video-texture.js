// A video's frame, straight from the <video> element into the WebGL renderer's picture: the
// browser uploads the frame to a texture (texImage2D with the video as its source, which stays
// on the GPU where the browser decodes there), and one draw places it in the picture texture
// the looks read (u_image: the canvas's size, rows top first), where the CPU path would have
// written it into the wasm memory. So a playing video costs the page no copy of its pixels at
// all when WebGL draws: nothing goes through JavaScript or WebAssembly.
//
// Why it is shaped so:
// - The looks read the picture at whole texels in their own fixed point (gl/shaders.js), as the
//   CPU kernels read the pool's image; placing the frame in a picture-sized texture first keeps
//   the looks' shaders, and so the two renderers' parity, exactly as they are for a still
//   picture. The placing is an RGBA8 render target, which every WebGL2 has (no float targets).
// - The frame is sampled with the GPU's bilinear filter where the video is scaled, as a 2D
//   canvas's drawImage does on the CPU path, and at texel centres where it lands 1:1 (an exact
//   copy). What lies outside the video's rectangle or its element's box is transparent, as the
//   CPU path's cleared canvas leaves it.

const PLACE_VERTEX = `#version 300 es
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
`;

// Fragment (x, y) of the render target is picture pixel (x, y), rows top first, as the video
// texture's rows are (no UNPACK_FLIP_Y).
const PLACE_FRAGMENT = `#version 300 es
precision highp float;
uniform sampler2D u_video;
uniform vec4 u_rect; // the video's rectangle on the picture: x, y, width, height (pixels)
out vec4 out_colour;
void main() {
  vec2 at = (gl_FragCoord.xy - u_rect.xy) / u_rect.zw;
  if (any(lessThan(at, vec2(0.0))) || any(greaterThanEqual(at, vec2(1.0)))) {
    out_colour = vec4(0.0);
    return;
  }
  out_colour = texture(u_video, at);
}
`;

export class VideoTexture {
  #gl;
  #program;
  #rectAt;
  #unit;
  #texture;
  #framebuffer;

  /**
   * What places frames on `gl`, uploading them on texture unit `unit` (one the looks do not
   * read); made once per renderer, on the first video frame.
   */
  constructor(gl, unit) {
    this.#gl = gl;
    const compile = (type, source) => {
      const shader = gl.createShader(type);
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
        throw new Error(`Ripples: the video placing shader does not compile: ${gl.getShaderInfoLog(shader)}`);
      }
      return shader;
    };
    const program = gl.createProgram();
    gl.attachShader(program, compile(gl.VERTEX_SHADER, PLACE_VERTEX));
    gl.attachShader(program, compile(gl.FRAGMENT_SHADER, PLACE_FRAGMENT));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost()) {
      throw new Error(`Ripples: the video placing shaders do not link: ${gl.getProgramInfoLog(program)}`);
    }
    this.#program = program;
    this.#rectAt = gl.getUniformLocation(program, 'u_rect');
    this.#unit = unit;
    gl.useProgram(program);
    gl.uniform1i(gl.getUniformLocation(program, 'u_video'), unit);
    this.#texture = gl.createTexture();
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, this.#texture);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    this.#framebuffer = gl.createFramebuffer();
  }

  /**
   * Uploads `video`'s current frame and draws it into `target`, an RGBA8
   * texture of `width x height` (the picture), at `rect` ([x, y, w, h], picture pixels), cut to
   * `clip` ({ x, y, width, height }); the rest of the picture is transparent. Leaves the
   * default framebuffer bound. Throws a SecurityError for a video the page may not read.
   */
  place(video, target, width, height, rect, clip) {
    const gl = this.#gl;
    gl.activeTexture(gl.TEXTURE0 + this.#unit);
    gl.bindTexture(gl.TEXTURE_2D, this.#texture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, video);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.#framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target, 0);
    gl.viewport(0, 0, width, height);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    const left = Math.max(0, Math.round(clip.x));
    const top = Math.max(0, Math.round(clip.y));
    const right = Math.min(width, Math.round(clip.x + clip.width));
    const bottom = Math.min(height, Math.round(clip.y + clip.height));
    if (right > left && bottom > top) {
      gl.enable(gl.SCISSOR_TEST);
      gl.scissor(left, top, right - left, bottom - top);
      gl.useProgram(this.#program);
      gl.uniform4f(this.#rectAt, rect[0], rect[1], rect[2], rect[3]);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      gl.disable(gl.SCISSOR_TEST);
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  /** Frees the texture, framebuffer and program. */
  release() {
    const gl = this.#gl;
    gl.deleteTexture(this.#texture);
    gl.deleteFramebuffer(this.#framebuffer);
    gl.deleteProgram(this.#program);
  }
}
