#!/usr/bin/env bash
# What a frame costs in the browser's engine: the core built for wasm with SIMD (+simd128, as
# web/build.sh builds it) and timed under node (V8, Chromium's engine), then the same program
# built natively on one thread, side by side. Per solver, look and simulation scale: the step,
# the render and the frame (step+render), and each scale against scale 1 of the same look.
#
#   bash web/bench.sh                                    # 1280x720, turbulent water
#   bash web/bench.sh --water calm --scales 1,2 --looks classic
#   bash web/bench.sh --size 1920x1080 --solvers wave --looks natural --reps 7
#
# Options go to crates/ripples/examples/frame_costs.rs (see there). Needs node and the
# wasm32-wasip1 target (installed here when missing); the settings are this script's only, so
# native builds and their caches are untouched. A benchmark: numbers from a busy machine move.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

command -v node >/dev/null 2>&1 || { echo "error: web/bench.sh needs node" >&2; exit 1; }
rustup target add wasm32-wasip1 >/dev/null

echo "== wasm32 (+simd128) under node $(node --version)"
(
    unset RUSTFLAGS
    export CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-C target-feature=+simd128"
    cargo build --quiet --release --locked -p ripples --no-default-features \
        --target wasm32-wasip1 --example frame_costs
)
# Node 20 has been seen to crash on exit after long runs, once the table is printed; the
# figures stand, so that is reported and the native run still follows.
status=0
node --no-warnings "$root/.ci/wasi-runner.mjs" \
    "$root/target/wasm32-wasip1/release/examples/frame_costs.wasm" "$@" || status=$?
if [ "$status" -ne 0 ]; then
    echo "warning: node exited with status $status" >&2
fi

echo
echo "== native, one thread"
cargo build --quiet --release --locked -p ripples --no-default-features --example frame_costs
"$root/target/release/examples/frame_costs" "$@"
