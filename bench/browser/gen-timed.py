#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""bench/browser/gen-timed.py — a folded profile as a `perf script` with
timestamps, so the browser bench can time a file with the time view
(issue 30's heat map panel) beside flamegraph.pl's SVG of the same stacks.

Usage: gen-timed.py IN.folded OUT.perf [HZ]

Each folded line of count C becomes C samples; the samples are shuffled
with a fixed seed (so every run writes the same bytes) and taken at HZ
(default 1000) from t = 1000 s, so the heat map has the recording's
length (samples / HZ seconds) and every column holds a mix of stacks.
The first frame is the command (as stackcollapse-perf.pl folds it), the
others are the stack, leaf first as perf prints it; addresses are made
up (0x1000 + frame index) and a frame's DSO is "(/bench)", or for an
unknown symbol folded as "[x]" the DSO x.  `fold`
of the output equals the input's stacks (checked by run.sh).

Memory: one index per sample (the input's sample count, not its size).
"""
import random
import sys


def frame_line(name):
    """perf's symbol and DSO for a folded frame: "[x]" is an unknown symbol
    in DSO x, which stackcollapse-perf.pl (and our reader) fold back to "[x]"."""
    if len(name) > 2 and name[0] == "[" and name[-1] == "]" and "[" not in name[1:]:
        inner = name[1:-1]
        return "[unknown]", "[unknown]" if inner == "unknown" else "/" + inner
    return name, "/bench"


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: gen-timed.py IN.folded OUT.perf [HZ]")
    hz = float(sys.argv[3]) if len(sys.argv) == 4 else 1000.0
    stacks, order = [], []
    with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            stack, _, count = line.rpartition(" ")
            frames = stack.split(";")
            stacks.append(frames)
            order.extend([len(stacks) - 1] * int(float(count)))
    random.Random(7).shuffle(order)
    with open(sys.argv[2], "w", encoding="utf-8", errors="surrogateescape") as out:
        for i, k in enumerate(order):
            frames = stacks[k]
            t = 1000.0 + i / hz
            out.write(f"{frames[0]} 4242 [000] {t:.6f}: 1 cpu-clock:\n")
            for depth in range(len(frames) - 1, 0, -1):
                sym, dso = frame_line(frames[depth])
                out.write(f"\t    {0x1000 + depth:x} {sym} ({dso})\n")
            out.write("\n")


if __name__ == "__main__":
    main()
