#!/usr/bin/env python3
"""Measures the two ratio targets of the performance issue, robustly on a shared machine.

Usage: cargo build --release && python3 scripts/bench_ratios.py [--rounds N] [--binary PATH]

1. Cost per cell from 640x480 to 3840x2160 (target: within 1.5x of each other).
2. Two threads against one at 3840x2160 (target: at least 1.7x), beside the same at 640x480 as a
   control: that frame's work stays in cache and splits evenly, so two threads there should be
   close to 2x, and when the control falls short too the shortfall is the machine (the second
   core busy with another job), not the code's scaling.

Noise on a shared machine comes in bursts that last longer than one `ripples bench` run, so a
ratio of two runs made minutes apart can be off by 30%. This script interleaves: every round
runs every size once, in turn, and the figures are medians over rounds, with the per-round
ratios printed beside them so a burst shows up as one odd round. The thread counts are compared
inside one run (`--threads 1,2`), which times them in alternation, rep by rep, and gives the
median of the per-rep ratios; each round prints the control beside the 4K ratio, and the summary
adds the 4K median over the rounds whose control shows both cores free.
"""
import argparse
import json
import statistics
import subprocess

SIZES = ["640x480", "1280x720", "1920x1080", "2560x1440", "3840x2160"]
THREAD_SIZES = ["640x480", "3840x2160"]
# A control at least this fast on 2 threads means the second core was there for the round.
QUIET_CONTROL = 1.8


def run(binary, size, *extra):
    command = [binary, "bench", "--size", size, "--json", *extra]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def bench(binary, size):
    data = run(binary, size, "--reps", "3")
    return data["step_render"]["ns_per_cell"], data["calm"]["step_render"]["ns_per_cell"]


def thread_pair(binary, size):
    """1 and 2 threads timed in alternation: (speedup, 1-thread ns/cell, 2-thread ns/cell)."""
    one, two = run(binary, size, "--threads", "1,2", "--reps", "5", "--frames", "60")
    return (two["scaling"]["step_render_speedup"], one["step_render"]["ns_per_cell"],
            two["step_render"]["ns_per_cell"])


def spread(values):
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--binary", default="target/release/ripples")
    args = parser.parse_args()

    turbulent = {size: [] for size in SIZES}
    calm = {size: [] for size in SIZES}
    threads = {size: [] for size in THREAD_SIZES}
    for _ in range(args.rounds):
        for size in SIZES:
            rough, flat = bench(args.binary, size)
            turbulent[size].append(rough)
            calm[size].append(flat)
        for size in THREAD_SIZES:
            threads[size].append(thread_pair(args.binary, size))

    print("step+render ns/cell, classic solver and look, median (range) over", args.rounds, "rounds")
    print(f"{'size':>10}  {'turbulent':>22}  {'calm':>22}")
    for size in SIZES:
        print(f"{size:>10}  {spread(turbulent[size]):>22}  {spread(calm[size]):>22}")
    for name, table in (("turbulent", turbulent), ("calm", calm)):
        medians = [statistics.median(values) for values in table.values()]
        per_round = [max(column) / min(column) for column in zip(*table.values())]
        print(f"largest/smallest, {name}: {max(medians) / min(medians):.2f}x of the medians; "
              f"per round {' '.join(f'{r:.2f}' for r in per_round)}")
    for size in THREAD_SIZES:
        speedups, one, two = (list(column) for column in zip(*threads[size]))
        role = " (control)" if size != "3840x2160" else ""
        print(f"{size}{role}, 2 threads against 1: {statistics.median(speedups):.2f}x median; "
              f"per round {' '.join(f'{s:.2f}' for s in speedups)} "
              f"(1 thread {spread(one)}, 2 threads {spread(two)} ns/cell)")
    control = [pair[0] for pair in threads["640x480"]]
    quiet = [pair[0] for pair, c in zip(threads["3840x2160"], control) if c >= QUIET_CONTROL]
    if quiet:
        print(f"3840x2160, 2 threads against 1, in the {len(quiet)} rounds whose control reached "
              f"{QUIET_CONTROL}x: {statistics.median(quiet):.2f}x median "
              f"({' '.join(f'{s:.2f}' for s in quiet)})")
    else:
        print(f"no round's control reached {QUIET_CONTROL}x: the second core was busy throughout")


if __name__ == "__main__":
    main()
