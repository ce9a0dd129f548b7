//! Ripples on any web page: the `ripples` core compiled to WebAssembly, behind a thin API.
//!
//! The page-facing library is the ES module `web/ripples.js` (`Ripples.attach(element, {...})`):
//! it loads this module, finds the element's image, overlays a canvas, listens to the pointer
//! and runs the frame loop. This crate is what it calls into, and it is kept thin on purpose:
//!
//! - [`WasmPool`] (`#[wasm_bindgen]`) wraps a [`WebPool`], which wraps the core's
//!   [`ripples::Pool`]: the water, the image under it and an RGBA frame that JavaScript reads in
//!   place through a view of the wasm memory. One call per animation frame,
//!   [`WasmPool::frame_status`], steps and renders; nothing is copied across the boundary per
//!   frame, and nothing is allocated on the JavaScript side.
//! - [`check_option`] and [`background_layout`]: the option table and the CSS background
//!   arithmetic, in Rust so that the host tests cover them.
//!
//! Everything that JavaScript can pass is checked here ([`options`]); a bad value is a
//! JavaScript `Error` naming the value, never a panic (in wasm, a panic aborts the module and
//! kills every pool on the page). The pure-Rust parts ([`WebPool`],
//! [`background`], [`options`]) build and are tested on any host; only [`WasmPool`] and the
//! exported functions touch `wasm-bindgen` types. The core stays free of JavaScript.

#![forbid(unsafe_code)]
#![warn(missing_docs, missing_debug_implementations)]

pub mod background;
mod bindings;
mod error;
pub mod gpu_photo;
pub mod gpu_water;
pub mod options;
mod web_pool;

pub use bindings::{
    FRAME_DRAWN, FRAME_FAILED, FRAME_UNCHANGED, WasmPool, backend, background_layout,
    calm_check_frames, check_option, dispersive_level_weights, limits,
};
pub use options::{OptionValue, Rule, WebError};
pub use web_pool::{MAX_PIXELS, MAX_SIDE, WebPool, check_pool_size};
