#!/usr/bin/env bash
# The wasm-bindgen-test tests of crates/ripples-web (tests/web.rs) in headless Chromium, driven
# by chromedriver through wasm-bindgen-test-runner, with the module built as web/build.sh builds
# it (+simd128).
#
#   bash web/test.sh
#
# Without chromium or chromedriver it prints a notice and exits 0, unless RIPPLES_E2E=1 (what
# .ci/run sets), which makes a missing browser a failure. CHROMIUM and CHROMEDRIVER override
# the binaries.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
chromedriver=${CHROMEDRIVER:-$(command -v chromedriver || true)}
if [ -z "$chromium" ] || [ -z "$chromedriver" ]; then
    if [ "${RIPPLES_E2E:-}" = 1 ]; then
        echo "error: web/test.sh needs chromium and chromedriver (RIPPLES_E2E=1)" >&2
        exit 1
    fi
    echo "notice: skipping the browser tests of ripples-web: chromium or chromedriver is missing" \
        "(apt-get install chromium chromium-driver; RIPPLES_E2E=1 makes this a failure)"
    exit 0
fi

# shellcheck source=web/tools.sh
. web/tools.sh
ensure_wasm_tools

export CARGO_TARGET_DIR=$root/target/web
mkdir -p "$CARGO_TARGET_DIR"
# The runner adds --headless, --no-sandbox and --disable-dev-shm-usage itself.
cat >"$CARGO_TARGET_DIR/webdriver.json" <<EOF
{
  "goog:chromeOptions": {
    "binary": "$chromium",
    "args": ["--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync"]
  }
}
EOF
export WASM_BINDGEN_TEST_WEBDRIVER_JSON=$CARGO_TARGET_DIR/webdriver.json
export CHROMEDRIVER=$chromedriver
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
unset RUSTFLAGS
export CARGO_ENCODED_RUSTFLAGS="-Ctarget-feature=+simd128"

echo "== ripples-web browser tests (wasm-bindgen-test, $("$chromium" --version 2>/dev/null || echo chromium))"
cargo test -p ripples-web --target wasm32-unknown-unknown --locked --test web
