#!/usr/bin/env bash
# The pictures of docs/presence-*.png (issue 25): photographs under three of the command's
# default stones, and the presence knob at three values. Each panel is the middle 640x360 of a
# 1280x720 render (60 steps per second, the stones where scenes/default.toml puts its three),
# where the stones fell.
#
#   bash scripts/presence_pictures.sh [RIPPLES_BINARY]
#
# Needs ImageMagick (convert). Writes docs/presence-photographs.png (calm water, then 1 s after
# the stones, for a light, a busy and a dark photograph and the built-in pool tiles) and
# docs/presence-knob.png (coffee 1 s after the stones at presence 0.5, 1 and 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ripples=${1:-target/release/ripples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=crates/ripples-cli/tests/data
stones=(--drop 416,264 --drop 928,456 --drop 640,168)
render() { # NAME FRAME [ARGS...]
  local name=$1 frame=$2
  shift 2
  "$ripples" render "$@" --size 1280x720 --steps-per-frame 1 --fps 60 --frame "$frame" \
    --out "$work/$name.png" >/dev/null 2>&1
  convert "$work/$name.png" -crop 640x360+320+120 +repage "$work/$name-half.png"
}
rows=()
for picture in coffee grass hubble tiles; do
  case $picture in
    tiles) image=() ;;
    *) image=("$data/$picture.jpg") ;;
  esac
  render "$picture-calm" 0 "${image[@]}" --calm
  render "$picture-1s" 60 "${image[@]}" "${stones[@]}"
  convert "$work/$picture-calm-half.png" "$work/$picture-1s-half.png" +append "$work/row-$picture.png"
  rows+=("$work/row-$picture.png")
done
convert "${rows[@]}" -append -resize 50% -colors 128 docs/presence-photographs.png
knobs=()
for presence in 0.5 1 2; do
  render "knob-$presence" 60 "$data/coffee.jpg" "${stones[@]}" --presence "$presence"
  convert "$work/knob-$presence-half.png" -gravity north -background '#10161d' -fill white \
    -splice 0x28 -font DejaVu-Sans -pointsize 18 -annotate +0+4 "presence $presence" "$work/knob-$presence-label.png"
  knobs+=("$work/knob-$presence-label.png")
done
convert "${knobs[@]}" +append -resize 60% -colors 256 docs/presence-knob.png
ls -l docs/presence-photographs.png docs/presence-knob.png
