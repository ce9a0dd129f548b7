#!/usr/bin/env python3
"""Runs `ripples bench` over sizes, solvers and thread counts and prints the README's table.

Usage: cargo build --release && python3 scripts/bench_table.py [--quick]

Every row is one `ripples bench --json` run, so each row's seed-port ratio and memory floor
were measured in the same run as its own figures. Frames and reps are fewer than the bench's
defaults so the whole table takes minutes, not an hour (the 7680x4320 rows fewer still).
"""
import json
import subprocess
import sys

SIZES = ["320x240", "640x480", "1280x720", "1920x1080", "2560x1440", "3840x2160", "7680x4320"]
CONFIGS = [("classic", "classic"), ("classic", "default"), ("wave", "default"), ("spring", "default")]


def run(size, solver, look, threads, quick):
    width, height = (int(side) for side in size.split("x"))
    cells = width * height
    frames = 10 if cells > 20_000_000 else 30
    reps = 3
    if quick:
        frames, reps = 3, 1
    command = ["target/release/ripples", "bench", "--size", size, "--solver", solver,
               "--render", look, "--threads", str(threads), "--frames", str(frames),
               "--reps", str(reps), "--json"]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def main():
    quick = "--quick" in sys.argv
    print("| size | solver | look | threads | step ns/cell | render ns/cell | step+render ns/cell "
          "| step+render fps | calm fps | seed port fps (speed-up) | memory floor fps |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for solver, look in CONFIGS:
        for size in SIZES:
            for threads in (1, 2):
                d = run(size, solver, look, threads, quick)
                seed = d.get("seed_port")
                seed_text = f"{seed['step_render']['fps']:.0f} ({seed['speedup']:.1f}x)" if seed else "-"
                print(f"| {size} | {solver} | {look} | {threads} "
                      f"| {d['step']['ns_per_cell']:.3f} | {d['render']['ns_per_cell']:.3f} "
                      f"| {d['step_render']['ns_per_cell']:.3f} | {d['step_render']['fps']:.0f} "
                      f"| {d['calm']['step_render']['fps']:.0f} | {seed_text} "
                      f"| {d['memory']['floor_fps']:.0f} |", flush=True)
    backend, cpu = d["backend"], d.get("cpu", "?")
    print(f"\n({cpu}, backend {backend}; medians of {'1' if quick else '3'} reps)")


if __name__ == "__main__":
    main()
