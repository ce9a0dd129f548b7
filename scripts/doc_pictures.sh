#!/usr/bin/env bash
# Renders the pictures of docs/ again from the commands their captions give, as listed in
# docs/pictures.txt (crates/ripples-cli/tests/it/doc_pictures.rs checks the captions against that
# table and the committed pictures against fresh renders).
#
#   bash scripts/doc_pictures.sh [--release]
#
# Writes every picture the table marks `render` or `row` (docs/ripples.gif included, which the
# test leaves out: its 75 frames take about a minute to encode in a debug build; --release
# builds the optimised binary first and takes seconds), then runs scripts/presence_pictures.sh
# for the `script` rows when ImageMagick is there. The `web` rows are screenshots that the
# browser tests write (node web/e2e/hero.mjs, video.mjs, peers.mjs, photo.mjs: `cargo test
# --workspace` runs them with Chromium); the `by-hand` rows say what they were made from.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
profile=()
if [ "${1:-}" = --release ]; then
  profile=(--release)
fi
RIPPLES_WRITE_DOC_PICTURES=1 cargo test "${profile[@]}" -p ripples-cli --test it \
  -- doc_pictures::the_committed_pictures_are_what_their_commands_render --nocapture
if convert -version 2>/dev/null | grep -q ImageMagick; then
  cargo build --release -p ripples-cli
  bash scripts/presence_pictures.sh "${CARGO_TARGET_DIR:-target}/release/ripples"
else
  echo "notice: no ImageMagick: docs/presence-*.png not rendered (bash scripts/presence_pictures.sh)" >&2
fi
echo "by hand or in a browser (see docs/pictures.txt):"
grep -E '^[^#].*\| *(web|by-hand) *\|' docs/pictures.txt | sed 's/^/  /'
