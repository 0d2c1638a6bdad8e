#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tests/gen-profile.py — a deterministic folded profile the project owns.

    gen-profile.py SEED STACKS [--fractional] > OUT.folded

Tests that need a realistic, sizeable profile (determinism, round trips,
embed-budget pruning, foreign-SVG rebuilds) use this instead of an oracle
file from ../shared, so a user's clone without ../shared runs the same
assertions.  The shape follows real perf captures: a few hundred function
names drawn with Zipf-like skew, stacks that share call-path prefixes,
depths 2..24, counts 1..500 (or with two decimals, --fractional).  Same
arguments, same bytes: random.Random(SEED) only, no hash order, no clock.
"""
import random
import sys


def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    frac = "--fractional" in sys.argv[3:]
    rng = random.Random(seed)
    parts = ["parse", "eval", "alloc", "hash", "sort", "read", "write", "lock", "send", "recv",
             "encode", "decode", "walk", "visit", "lookup", "insert", "flush", "poll"]
    mods = ["core", "net", "vfs", "mm", "json", "sql", "http", "sched"]
    names = sorted({f"{rng.choice(mods)}::{rng.choice(parts)}_{rng.randrange(1000):03d}"
                    for _ in range(600)})
    stacks = []
    for _ in range(n):
        if stacks and rng.random() < 0.8:  # share a prefix of an earlier stack
            base = rng.choice(stacks)
            st = base[:rng.randrange(1, len(base) + 1)]
        else:
            st = ["main"]
        for _ in range(rng.randrange(1, 6)):
            if len(st) >= 24:
                break
            st.append(names[min(int(rng.paretovariate(1.2)) - 1, len(names) - 1) if rng.random() < 0.5
                            else rng.randrange(len(names))])
        stacks.append(st)
    for st in stacks:
        c = rng.randrange(1, 500)
        print(";".join(st), f"{c + rng.randrange(100) / 100:.2f}" if frac else c)


if __name__ == "__main__":
    main()
