# Sourced by web/build.sh and web/test.sh: the tools a wasm build needs, installed when missing.
#
# - wasm_bindgen_version: the wasm-bindgen crate's version in Cargo.lock. The wasm-bindgen CLI
#   (and wasm-bindgen-test-runner, which comes with it) must be exactly that version.
# - ensure_wasm_tools: the wasm32-unknown-unknown target (rustup) and that CLI
#   (`cargo install --locked`), each only when missing.

wasm_bindgen_version() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

ensure_wasm_tools() {
    local version installed
    version=$(wasm_bindgen_version)
    if [ -z "$version" ]; then
        echo "error: no wasm-bindgen in Cargo.lock" >&2
        return 1
    fi
    if command -v rustup >/dev/null 2>&1 &&
        ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
        rustup target add wasm32-unknown-unknown
    fi
    installed=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
    if [ "$installed" != "$version" ]; then
        echo "installing wasm-bindgen-cli $version (found: ${installed:-none})"
        if ! cargo install --locked wasm-bindgen-cli --version "$version"; then
            # A registry that no longer serves a version pinned in the CLI's own Cargo.lock
            # makes --locked fail; the CLI still builds from the newest compatible versions.
            echo "warning: cargo install --locked failed; installing without --locked" >&2
            cargo install wasm-bindgen-cli --version "$version"
        fi
    fi
}
