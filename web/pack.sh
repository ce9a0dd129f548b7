#!/usr/bin/env bash
# Builds the npm package @ripples-rs/ripples and packs it: the tarball's path is the last line.
#
#   bash web/pack.sh            # -> .../target/npm/ripples-rs-ripples-0.1.0.tgz
#   npm install ./target/npm/ripples-rs-ripples-0.1.0.tgz
#
# - web/build.sh builds the wasm module and its glue (installing the wasm32 target and the
#   wasm-bindgen CLI when missing); this script needs node and npm besides.
# - The package is assembled in target/npm/package/ from web/package/ (package.json, its
#   README, the hand-written .d.ts files and the React component), the built web/dist/
#   (ripples.js and the page modules it imports, web/*.js and gl/*.js, ripples_web.js,
#   ripples_web_bg.wasm) and the repository's licence files, then `npm pack` writes the tarball
#   into target/npm/. package.json's "files" names each module (package.mjs checks they are in).
# - The package's version must be the workspace's (Cargo.toml), so that a tarball names the
#   Rust it was built from.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
out=$root/target/npm
stage=$out/package

for tool in node npm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "error: web/pack.sh needs $tool (e.g. apt-get install nodejs npm)" >&2
        exit 1
    fi
done

cargo_version=$(awk '/^\[workspace.package\]/ { inside = 1; next } /^\[/ { inside = 0 }
    inside && /^version = / { gsub(/version = |"/, ""); print; exit }' Cargo.toml)
package_version=$(node -p 'require("./web/package/package.json").version')
if [ "$cargo_version" != "$package_version" ]; then
    echo "error: web/package/package.json has version $package_version, Cargo.toml's workspace" \
        "$cargo_version; make them equal" >&2
    exit 1
fi

bash web/build.sh

echo "== assembling $stage"
rm -rf "$stage"
mkdir -p "$stage"
rm -f "$out"/*.tgz
cp web/package/package.json web/package/README.md web/package/ripples.d.ts \
    web/package/react.js web/package/react.d.ts "$stage/"
cp web/dist/*.js web/dist/ripples_web_bg.wasm "$stage/"
cp -r web/dist/gl "$stage/gl"
cp LICENSE-MIT LICENSE-APACHE "$stage/"

echo "== npm pack"
tarball=$(cd "$stage" && npm pack --pack-destination "$out" --no-fund --loglevel=error | tail -n 1)
echo "$(du -k "$out/$tarball" | cut -f1) KiB packed"
echo "$out/$tarball"
