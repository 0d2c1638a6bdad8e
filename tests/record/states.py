# SPDX-License-Identifier: BSD-3-Clause
# tests/record/states.py — the arithmetic of tests/record/t-states.sh and
# tests/gdb/t-qemu-states.sh, kept apart from the shell so each check is
# one line there.  Reads folded stacks (record's, where a waiting sample
# ends in a [blocked]/[runnable]/[offline] frame) and perf script output,
# and prints shares in percent.
#
#   states.py state FOLDED             "running R runnable Q blocked B offline O n N"
#   states.py share FOLDED FN...       FN's total share (in the stack anywhere), per FN
#   states.py under FOLDED FN STATE    percent of FN's samples in STATE
#   states.py perf SCRIPT FN...        FN's total share of perf script's samples
import sys

STATES = ("running", "runnable", "blocked", "offline")


def folded(path):
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("#") or not line.strip():
            continue
        stack, _, n = line.rstrip("\n").rpartition(" ")
        frames = stack.split(";")
        state = frames[-1][1:-1] if frames[-1] in ("[blocked]", "[runnable]", "[offline]") else "running"
        yield frames, state, int(n)


def perf_samples(path):
    """(frames) per sample of `perf script` output: a header line, then one
    line per frame (address, symbol+offset, (dso)), then a blank line."""
    frames, in_sample = [], False
    for line in open(path, encoding="utf-8", errors="replace"):
        if not line.strip():
            if in_sample:
                yield frames
            frames, in_sample = [], False
        elif line[0] in " \t":
            parts = line.split()
            if len(parts) >= 2:
                frames.append(parts[1].split("+0x")[0])
        else:
            in_sample = True
    if in_sample:
        yield frames


def main(argv):
    cmd, path = argv[1], argv[2]
    if cmd == "state":
        count = dict.fromkeys(STATES, 0)
        for _, st, n in folded(path):
            count[st] = count.get(st, 0) + n
        total = sum(count.values()) or 1
        print(" ".join("%s %.1f" % (s, 100.0 * count[s] / total) for s in STATES), "n", total)
    elif cmd == "share":
        rows = list(folded(path))
        total = sum(n for _, _, n in rows) or 1
        print(" ".join("%.1f" % (100.0 * sum(n for f, _, n in rows if fn in f) / total)
                       for fn in argv[3:]))
    elif cmd == "under":
        fn, want = argv[3], argv[4]
        rows = [(st, n) for f, st, n in folded(path) if fn in f]
        total = sum(n for _, n in rows) or 1
        print("%.1f" % (100.0 * sum(n for st, n in rows if st == want) / total))
    elif cmd == "perf":
        samples = list(perf_samples(path))
        total = len(samples) or 1
        print(" ".join("%.1f" % (100.0 * sum(1 for f in samples if fn in f) / total)
                       for fn in argv[3:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
