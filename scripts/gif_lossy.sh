#!/usr/bin/env bash
# How big the default scene's GIF is at 1280x720 for 300 frames, and how far it is from the
# true frames, at each --lossy level (the table in docs/command.md comes from here).
#
# Usage: scripts/gif_lossy.sh [LEVELS...]
# (default: 0 12 20 30, the rows of the table; needs Pillow and numpy)
# Builds the release binary, renders the true frames once (a frame directory), then one GIF per
# level, and prints the size in MB and, for frames 30, 150 and 299, the mean and 99th
# percentile of the largest channel difference from the true frame (scripts/gif_error.py).
set -euo pipefail
cd "$(dirname "$0")/.."
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(0 12 20 30)
cargo build --release --quiet -p ripples-cli
ripples=target/release/ripples
scene=(--scene scenes/default.toml --size 1280x720 --frames 300)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ripples" render "${scene[@]}" --out "$work/truth/" >/dev/null 2>&1
truths=()
for n in 30 150 299; do
  truths+=("$n:$work/truth/$(printf 'frame_%05d.png' "$n")")
done
for level in "${levels[@]}"; do
  "$ripples" render "${scene[@]}" --lossy "$level" --out "$work/water.gif" >/dev/null 2>&1
  bytes=$(stat -c %s "$work/water.gif")
  echo "--lossy $level: $(python3 -c "print(f'{$bytes / 1e6:.1f}')") MB"
  python3 scripts/gif_error.py "$work/water.gif" "${truths[@]}" | sed 's/^/  /'
done
