#!/usr/bin/env python3
"""Runs `ripples bench` over sizes, solvers and thread counts and prints the README's table.

Usage: cargo build --release && python3 scripts/bench_table.py [--rounds N] [--quick]

Every figure is the median over rounds, and every round runs the whole table once, row after
row, so a row's samples lie minutes apart. A shared machine's noise comes in bursts that last
longer than one `ripples bench` run: three repetitions inside one run all land in the same
burst, while three rounds rarely do. One run times both thread counts (`--threads 1,2`),
alternating, so the 2-thread rows' speed-up over 1 thread compares the two back to back. Each
run measures its own seed-port ratio and memory floor beside its figures. Frames are fewer than
the bench's defaults (the 7680x4320 rows fewer still) so the table takes about 15 minutes, not
an hour.
"""
import argparse
import json
import statistics
import subprocess

SIZES = ["320x240", "640x480", "1280x720", "1920x1080", "2560x1440", "3840x2160", "7680x4320"]
CONFIGS = [("classic", "classic"), ("classic", "default"), ("wave", "default"), ("spring", "default")]
THREADS = (1, 2)
RUNS = [(solver, look, size) for solver, look in CONFIGS for size in SIZES]


def run(binary, size, solver, look, quick):
    """One `ripples bench` of both thread counts: a report for each."""
    width, height = (int(side) for side in size.split("x"))
    frames = 10 if width * height > 20_000_000 else 30
    if quick:
        frames = 3
    command = [binary, "bench", "--size", size, "--solver", solver, "--render", look,
               "--threads", ",".join(map(str, THREADS)), "--frames", str(frames), "--reps", "1",
               "--json"]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def figures(report):
    """The numbers a row shows, from one run."""
    seed = report.get("seed_port")
    scaling = report.get("scaling")
    return {
        "scaling": scaling["step_render_speedup"] if scaling else None,
        "step": report["step"]["ns_per_cell"],
        "render": report["render"]["ns_per_cell"],
        "step_render": report["step_render"]["ns_per_cell"],
        "fps": report["step_render"]["fps"],
        "calm_fps": report["calm"]["step_render"]["fps"],
        "seed_fps": seed["step_render"]["fps"] if seed else None,
        "speedup": seed["speedup"] if seed else None,
        "floor_fps": report["memory"]["floor_fps"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="3 frames and 1 round: a smoke test")
    parser.add_argument("--binary", default="target/release/ripples")
    args = parser.parse_args()
    rounds = 1 if args.quick else args.rounds

    samples = {(*row, threads): [] for row in RUNS for threads in THREADS}
    report = None
    for _ in range(rounds):
        for solver, look, size in RUNS:
            for report in run(args.binary, size, solver, look, args.quick):
                samples[(solver, look, size, report["threads"])].append(figures(report))

    print("| size | solver | look | threads | step ns/cell | render ns/cell | step+render ns/cell "
          "| step+render fps | 2 threads / 1 | calm fps | seed port fps (speed-up) "
          "| memory floor fps |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (solver, look, size, threads), runs in samples.items():
        m = {key: statistics.median(r[key] for r in runs) if runs[0][key] is not None else None
             for key in runs[0]}
        seed = f"{m['seed_fps']:.0f} ({m['speedup']:.1f}x)" if m["seed_fps"] is not None else "-"
        scaling = f"{m['scaling']:.2f}x" if m["scaling"] is not None else ""
        print(f"| {size} | {solver} | {look} | {threads} | {m['step']:.3f} | {m['render']:.3f} "
              f"| {m['step_render']:.3f} | {m['fps']:.0f} | {scaling} | {m['calm_fps']:.0f} "
              f"| {seed} | {m['floor_fps']:.0f} |")
    print(f"\n({report.get('cpu', '?')}, backend {report['backend']}; each figure the median of "
          f"{rounds} interleaved rounds of one run)")


if __name__ == "__main__":
    main()
