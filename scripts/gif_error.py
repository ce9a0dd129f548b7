#!/usr/bin/env python3
"""How far a GIF's frames are from the true frames, per pixel.

Usage: gif_error.py ANIMATION.gif N:TRUTH.png [N:TRUTH.png ...]

For each frame N (from 0) it composites the GIF as a viewer shows it and compares it with
TRUTH.png (e.g. from `ripples render ... --frame N --out TRUTH.png`, the same options): the
error of a pixel is its largest channel difference, in levels. Prints the mean, the 99th
percentile and the share of pixels more than 8 and 16 levels off. Needs Pillow and numpy.
"""
import sys

import numpy as np
from PIL import Image


def main():
    gif = Image.open(sys.argv[1])
    for spec in sys.argv[2:]:
        number, path = spec.split(":", 1)
        gif.seek(int(number))
        shown = np.asarray(gif.convert("RGB"), dtype=np.int16)
        truth = np.asarray(Image.open(path).convert("RGB"), dtype=np.int16)
        error = np.abs(shown - truth).max(axis=2)
        print(
            f"frame {number}: mean {error.mean():.2f}, 99th percentile "
            f"{np.percentile(error, 99):.0f}, >8 levels {100 * (error > 8).mean():.1f}%, "
            f">16 levels {100 * (error > 16).mean():.1f}%"
        )


if __name__ == "__main__":
    main()
