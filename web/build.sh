#!/usr/bin/env bash
# Builds the web module into web/dist/: ripples_web_bg.wasm (with SIMD), its JS glue
# ripples_web.js (wasm-bindgen --target web, with its ripples_web.d.ts, which the type check
# reads: see web/e2e/types.mjs), ripples.js and the modules it imports (web/*.js, web/gl/),
# the demo page and its assets (and a photograph, assets/coffee.jpg).
#
#   bash web/build.sh && python3 -m http.server -d web/dist 8000   # then open localhost:8000
#
# - The wasm-bindgen CLI must be exactly the version of the wasm-bindgen crate in Cargo.lock;
#   it is installed with `cargo install --locked` when missing or different.
# - The wasm is built with +simd128 (the core then uses its simd128 kernels), with LTO, one
#   codegen unit, panic=abort and no debug info. These settings come from the environment of
#   this build only, with a target directory of its own (target/web), so native builds and
#   their caches are untouched.
# - Prints the size of what a page downloads.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
out=$root/web/dist

# shellcheck source=web/tools.sh
. web/tools.sh
ensure_wasm_tools
version=$(wasm_bindgen_version)

echo "== cargo build -p ripples-web --release --target wasm32-unknown-unknown (+simd128)"
unset RUSTFLAGS
export CARGO_ENCODED_RUSTFLAGS="-Ctarget-feature=+simd128"
export CARGO_TARGET_DIR=$root/target/web
export CARGO_PROFILE_RELEASE_LTO=fat
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
export CARGO_PROFILE_RELEASE_PANIC=abort
export CARGO_PROFILE_RELEASE_DEBUG=false
export CARGO_PROFILE_RELEASE_OPT_LEVEL=3
cargo build -p ripples-web --release --target wasm32-unknown-unknown --locked

echo "== wasm-bindgen $version --target web"
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --remove-name-section --remove-producers-section \
    --out-dir "$out" "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/ripples_web.wasm"
cp web/index.html web/*.js "$out/"
cp -r web/gl "$out/gl"
cp -r web/assets "$out/assets"
# A photograph for the demo and the browser tests: the coffee cup of scikit-image (Rachel
# Michetti, CC0), kept once in the repository, with the command's test data.
cp crates/ripples-cli/tests/data/coffee.jpg "$out/assets/coffee.jpg"
# A living photograph for the demo (see scenes/lake.toml: the photograph, its water mask and
# horizon).
cp scenes/lake.jpg scenes/lake-mask.png "$out/assets/"
# web/assets/coffee-zoom.webm, the demo's video, is that photograph slowly zoomed in and out
# (a loop of 6 s at 25 fps, 960x540, VP9, 178 KiB), made with:
#   ffmpeg -loop 1 -i coffee.jpg -vf "scale=1280:-2,crop=1280:720:0:(ih-720)*0.45,zoompan=
#     z='1+0.06*(1-cos(2*PI*on/150))':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=1:s=960x540:fps=25,
#     setsar=1" -frames:v 150 -c:v libvpx-vp9 -b:v 0 -crf 38 -row-mt 1 -pix_fmt yuv420p -an

wasm_bytes=$(wc -c <"$out/ripples_web_bg.wasm")
gzip_bytes=$(gzip -9 <"$out/ripples_web_bg.wasm" | wc -c)
echo "web/dist: ripples_web_bg.wasm $((wasm_bytes / 1024)) KiB ($((gzip_bytes / 1024)) KiB gzipped)," \
    "ripples_web.js $(($(wc -c <"$out/ripples_web.js") / 1024)) KiB," \
    "ripples.js $(($(wc -c <"$out/ripples.js") / 1024)) KiB"
echo "serve it: python3 -m http.server -d web/dist 8000   (then open http://localhost:8000/)"
