//! The wasm API in a real browser: `web/test.sh` runs these in headless Chromium through
//! chromedriver (wasm-bindgen-test). They check what only a browser can: the frame read in place
//! through a `Uint8ClampedArray` view of the wasm memory and drawn with `putImageData`, errors
//! that arrive in JavaScript as `Error`s with their message, memory handed back by `free`, the
//! simd128 backend, and the option checks on real JavaScript values. The pure-Rust logic has
//! its host tests in the modules.

#![cfg(target_arch = "wasm32")]

use js_sys::{Error, Object, Uint8Array, Uint8ClampedArray, WebAssembly};
use ripples_web::{
    FRAME_DRAWN, FRAME_UNCHANGED, WasmPool, backend, background_layout, check_option,
};
use wasm_bindgen::{JsCast, JsError, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

wasm_bindgen_test_configure!(run_in_browser);

fn message(error: JsError) -> String {
    let value: JsValue = error.into();
    value
        .dyn_into::<Error>()
        .map(|error| String::from(error.message()))
        .unwrap_or_else(|value| format!("not an Error: {value:?}"))
}

fn memory_buffer() -> JsValue {
    wasm_bindgen::memory()
        .dyn_into::<WebAssembly::Memory>()
        .expect("the module's memory")
        .buffer()
}

/// The frame as `ripples.js` sees it: a view into the wasm memory, not a copy.
fn frame_view(pool: &WasmPool) -> Uint8ClampedArray {
    Uint8ClampedArray::new_with_byte_offset_and_length(
        &memory_buffer(),
        pool.frame_ptr() as u32,
        pool.frame_len() as u32,
    )
}

fn canvas(width: u32, height: u32) -> CanvasRenderingContext2d {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_width(width);
    canvas.set_height(height);
    canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap()
}

#[wasm_bindgen_test]
fn the_frame_reaches_a_canvas_through_a_view_of_the_wasm_memory() {
    let (width, height) = (96, 64);
    let mut pool = WasmPool::new(f64::from(width), f64::from(height), 1.0, 7.0).unwrap();
    pool.drop_stone(48.0, 32.0, 6.0, 300.0).unwrap();
    pool.advance(10.0).unwrap();
    let frame = pool.inner().frame_pixels().to_vec();
    assert_ne!(frame, pool.inner().image(), "the stone shows");

    let view = frame_view(&pool);
    assert_eq!(view.to_vec(), frame, "the view is the frame");
    let image = ImageData::new_with_js_u8_clamped_array_and_sh(&view, width, height).unwrap();
    let context = canvas(width, height);
    context.put_image_data(&image, 0.0, 0.0).unwrap();
    let drawn = context
        .get_image_data(0.0, 0.0, f64::from(width), f64::from(height))
        .unwrap()
        .data();
    // Opaque pixels survive the canvas's premultiplied storage exactly.
    assert_eq!(drawn.0, frame);

    // The view follows the water: the next frame is there without building a new view.
    pool.advance(1.0).unwrap();
    assert_eq!(view.to_vec(), pool.inner().frame_pixels());
}

/// What `web/video.js` does with each video frame: writes it through a view of the wasm
/// memory at `imagePtr` and calls `imageChanged()`; the next frame shows it, in the same memory.
#[wasm_bindgen_test]
fn a_video_frame_written_through_image_ptr_is_drawn_with_no_new_memory() {
    let (width, height) = (80u32, 48u32);
    let mut pool = WasmPool::new(f64::from(width), f64::from(height), 1.0, 3.0).unwrap();
    pool.set_look("classic").unwrap();
    assert_eq!(pool.frame_status(0.0), FRAME_DRAWN);
    let address = pool.image_ptr();
    let memory = memory_buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length();
    let mut picture = vec![0u8; pool.image_len()];
    for index in 0..100u32 {
        assert_eq!(pool.frame_status(1.0), FRAME_UNCHANGED, "nothing new yet");
        for (at, byte) in picture.iter_mut().enumerate() {
            *byte = ((at as u32).wrapping_mul(13).wrapping_add(index * 29) % 251) as u8;
        }
        let view = Uint8Array::new_with_byte_offset_and_length(
            &memory_buffer(),
            pool.image_ptr() as u32,
            pool.image_len() as u32,
        );
        view.copy_from(&picture);
        pool.image_changed();
        assert_eq!(pool.frame_status(1.0), FRAME_DRAWN, "picture {index}");
        // Calm water under the classic look shows the picture as it is.
        assert_eq!(frame_view(&pool).to_vec(), picture, "picture {index}");
        assert_eq!(pool.image_ptr(), address);
    }
    let after = memory_buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length();
    assert_eq!(
        after, memory,
        "the wasm memory did not grow over 100 pictures"
    );
}

#[wasm_bindgen_test]
fn frame_says_when_there_is_something_new_to_draw() {
    let mut pool = WasmPool::new(40.0, 30.0, 1.0, 1.0).unwrap();
    assert!(pool.frame(1000.0).unwrap(), "the first frame");
    assert!(!pool.frame(1005.0).unwrap(), "no step due after 5 ms");
    assert!(pool.frame(1000.0 + 1000.0 / 60.0).unwrap());
    assert_eq!(pool.steps(), 1.0);
    pool.set_look("lit").unwrap();
    assert!(pool.frame(1020.0).unwrap(), "a new look is drawn at once");
}

#[wasm_bindgen_test]
fn frame_status_says_the_same_as_frame_with_a_number() {
    let mut pool = WasmPool::new(40.0, 30.0, 1.0, 1.0).unwrap();
    assert_eq!(pool.frame_status(1000.0), FRAME_DRAWN, "the first frame");
    assert_eq!(pool.frame_status(1005.0), FRAME_UNCHANGED);
    assert_eq!(pool.frame_status(1000.0 + 1000.0 / 60.0), FRAME_DRAWN);
    assert_eq!(pool.steps(), 1.0);
    assert_eq!(pool.take_error(), None, "nothing failed");
}

#[wasm_bindgen_test]
fn the_natural_looks_options_arrive_from_javascript_values() {
    let colour = |value: JsValue| check_option("waterColour", value);
    let rgb: js_sys::Array = [143.0, 211.0, 224.0]
        .iter()
        .map(|&n| JsValue::from(n))
        .collect();
    assert_eq!(colour(rgb.into()).unwrap(), JsValue::from("#8fd3e0"));
    assert_eq!(
        colour(JsValue::from("#ABC")).unwrap(),
        JsValue::from("#aabbcc")
    );
    let mixed: js_sys::Array = [JsValue::from(1.0), JsValue::from("2"), JsValue::from(3.0)]
        .into_iter()
        .collect();
    assert!(
        message(check_option("waterColor", mixed.into()).unwrap_err())
            .ends_with("got an array that is not all numbers")
    );
    assert_eq!(
        message(check_option("sunElevation", JsValue::from(91.0)).unwrap_err()),
        "sunElevation must be a number from 1 to 90, got 91"
    );
    assert_eq!(
        check_option("look", JsValue::from("natural")).unwrap(),
        JsValue::from("natural")
    );
    let mut pool = WasmPool::new(64.0, 48.0, 1.0, 1.0).unwrap();
    pool.drop_stone(32.0, 24.0, 6.0, 100.0).unwrap();
    pool.advance(8.0).unwrap();
    let before = pool.inner().frame_pixels().to_vec();
    pool.set_water_colour("#204060").unwrap();
    pool.set_depth(100.0).unwrap();
    pool.advance(0.0).unwrap();
    assert_ne!(pool.inner().frame_pixels(), &before[..]);
    let refused = message(pool.set_caustics(5.0).unwrap_err());
    assert!(
        refused.starts_with("caustics must be a number from ") && refused.ends_with(", got 5"),
        "{refused}"
    );
}

#[wasm_bindgen_test]
fn a_sky_picture_from_javascript_is_reflected_and_the_built_in_sky_comes_back() {
    assert_eq!(
        message(check_option("skyUrl", JsValue::from(3.0)).unwrap_err()),
        "skyUrl must be a URL string or null, got 3"
    );
    assert_eq!(
        check_option("skyUrl", JsValue::NULL).unwrap(),
        JsValue::NULL
    );
    let mut pool = WasmPool::new(64.0, 48.0, 1.0, 1.0).unwrap();
    pool.drop_stone(32.0, 24.0, 6.0, 300.0).unwrap();
    pool.advance(8.0).unwrap();
    let built_in = pool.inner().frame_pixels().to_vec();
    // The bytes a canvas's getImageData gives: a Uint8ClampedArray, copied in by the glue.
    let red = Uint8ClampedArray::new_with_length(4 * 3 * 4);
    for i in (0..red.length()).step_by(4) {
        red.set_index(i, 255);
        red.set_index(i + 3, 255);
    }
    pool.set_sky(&red.to_vec(), 4.0, 3.0).unwrap();
    pool.advance(0.0).unwrap();
    assert_ne!(pool.inner().frame_pixels(), &built_in[..]);
    assert_eq!(
        message(pool.set_sky(&red.to_vec(), 4.0, 4.0).unwrap_err()),
        "sky image has 48 bytes, expected 64 for 4x4 RGBA"
    );
    pool.use_default_sky();
    pool.advance(0.0).unwrap();
    assert_eq!(pool.inner().frame_pixels(), &built_in[..]);
}

#[wasm_bindgen_test]
fn the_water_moves_at_the_same_speed_at_30_60_and_144_hz() {
    let run = |hz: f64| {
        let mut pool = WasmPool::new(128.0, 96.0, 1.0, 3.0).unwrap();
        pool.set_look("lit").unwrap();
        pool.drop_stone(64.0, 48.0, 6.0, 200.0).unwrap();
        for frame in 0..=(2.0 * hz) as u32 {
            pool.frame(f64::from(frame) * 1000.0 / hz).unwrap();
        }
        (pool.steps(), pool.inner().frame_pixels().to_vec())
    };
    let at_60 = run(60.0);
    assert_eq!(at_60.0, 120.0);
    assert!(run(30.0) == at_60, "30 Hz differs from 60 Hz");
    assert!(run(144.0) == at_60, "144 Hz differs from 60 Hz");
}

#[wasm_bindgen_test]
fn bad_arguments_throw_errors_that_name_them() {
    assert_eq!(
        message(WasmPool::new(0.0, 10.0, 1.0, 1.0).unwrap_err()),
        "pool size must be at least 1x1 pixels, got 0x10"
    );
    assert!(
        message(WasmPool::new(20000.0, 100.0, 1.0, 1.0).unwrap_err())
            .starts_with("pool size 20000x100 is too large: at most 16384 pixels per side")
    );
    assert_eq!(
        message(WasmPool::new(10.0, 10.0, 17.0, 1.0).unwrap_err()),
        "resolution must be a whole number from 1 to 16, got 17"
    );
    let mut pool = WasmPool::new(10.0, 10.0, 1.0, 1.0).unwrap();
    assert_eq!(
        message(pool.drop_stone(f64::NAN, 1.0, 2.0, 3.0).unwrap_err()),
        "x must be a finite number, got NaN"
    );
    assert_eq!(
        message(pool.set_image(&[0; 7]).unwrap_err()),
        "image has 7 bytes, expected 400 for 10x10 RGBA"
    );
    assert_eq!(
        message(pool.set_solver("fluid").unwrap_err()),
        "solver must be 'classic', 'wave', 'spring' or 'dispersive', got 'fluid'"
    );
    assert_eq!(
        message(pool.advance(-1.0).unwrap_err()),
        "steps must be a whole number from 0 to 1000, got -1"
    );
    // The pool is still usable after every refusal.
    pool.drop_stone(5.0, 5.0, 2.0, 100.0).unwrap();
    pool.advance(2.0).unwrap();
}

#[wasm_bindgen_test]
fn freed_pools_give_their_memory_back() {
    let mut sizes = Vec::new();
    for _ in 0..6 {
        let mut pool = WasmPool::new(1280.0, 720.0, 1.0, 1.0).unwrap();
        pool.advance(1.0).unwrap();
        drop(pool); // what `free()` does from JavaScript
        let buffer: js_sys::ArrayBuffer = memory_buffer().dyn_into().unwrap();
        sizes.push(buffer.byte_length());
    }
    assert!(sizes.windows(2).skip(1).all(|w| w[0] == w[1]), "{sizes:?}");
}

#[wasm_bindgen_test]
fn options_are_checked_on_javascript_values() {
    assert_eq!(
        check_option("rain", JsValue::from(2.5)).unwrap(),
        JsValue::from(2.5)
    );
    assert!(
        check_option("pixelRatio", JsValue::UNDEFINED)
            .unwrap()
            .is_null()
    );
    assert_eq!(
        message(check_option("interactive", JsValue::from("yes")).unwrap_err()),
        "interactive must be true or false, got 'yes'"
    );
    assert_eq!(
        message(check_option("solver", Object::new().into()).unwrap_err()),
        "solver must be a string, got a value of type object"
    );
    assert_eq!(
        message(check_option("dropRadius", JsValue::from(f64::NAN)).unwrap_err()),
        "dropRadius must be a number above 0 and at most 4096, got NaN"
    );
}

#[wasm_bindgen_test]
fn css_background_layout_comes_back_as_numbers() {
    let place =
        background_layout(400.0, 300.0, 200.0, 100.0, "cover", "50% 50%", "no-repeat").unwrap();
    assert_eq!(place, vec![-100.0, 0.0, 600.0, 300.0, 0.0, 0.0]);
    assert_eq!(
        message(
            background_layout(400.0, 300.0, 200.0, 100.0, "fill", "0% 0%", "repeat").unwrap_err()
        ),
        "background-size 'fill' is not supported"
    );
}

#[wasm_bindgen_test]
fn the_simd128_kernels_run_when_the_module_is_built_with_them() {
    let expected = if cfg!(target_feature = "simd128") {
        "simd128"
    } else {
        "scalar"
    };
    assert_eq!(backend(), expected);
}
