#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares uniprof-flame's frames with flamegraph.pl's (../shared/flamegraph-ref).

usage: compat.py UF_BINARY REF_DIR [CASE...]

For every case in REF_DIR/cases.tsv: render the input with the same options,
extract every frame (<g> with <title> and <rect>, pruned aggregates excluded),
and compare with REF_DIR/expected/CASE.tsv: the same set of (name, samples, y),
x and width equal after rounding to 0.1 px (flamegraph.pl prints one decimal),
the same fill for name-keyed palettes, and no seam or overlap: on every row,
each frame starts where its left neighbour ends (x = x' + width', to 0.1 px)
unless flamegraph.pl's frames leave a gap there too.
Prints "PASS: compat CASE" or "FAIL: compat CASE: why" per case.
"""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
TITLE_RE = re.compile(r"^(.*) \(([\d,]+) [^,]*, [^)]*\)$", re.S)


def our_frames(svg_path):
    root = ET.parse(svg_path).getroot()
    frames = root.find(f".//{SVG}g[@id='frames']")
    out = []
    for g in frames.findall(f"{SVG}g"):
        if g.get("class") == "pruned":
            continue
        title = g.find(f"{SVG}title").text.split("\n")[0]
        m = TITLE_RE.match(title)
        if not m:
            raise ValueError(f"bad title {title!r}")
        name, samples = m.group(1), int(m.group(2).replace(",", ""))
        r = g.find(f"{SVG}rect")
        out.append((float(r.get("y")), float(r.get("x")), float(r.get("width")), samples, r.get("fill"), name))
    return out


def expected_frames(path):
    out = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            y, x, w, s, fill, name = line.rstrip("\n").split("\t", 5)
            out.append((float(y), float(x), float(w), int(s), fill, name))
    return out


def compare(ours, exp, check_fill, tol=None):
    """Problems matching exp's frames in ours: x and width equal after
    rounding to 0.1 px, or within tol px when given (for comparisons that
    are approximate by design, not against flamegraph.pl)."""
    pool = {}
    for fr in ours:
        pool.setdefault((fr[5], fr[3], round(fr[0], 1)), []).append(fr)
    problems = []
    for e in exp:
        key = (e[5], e[3], round(e[0], 1))
        cands = pool.get(key, [])
        best = None
        for c in cands:
            if (round(c[1], 1) == e[1] and round(c[2], 1) == e[2]) if tol is None else \
                    (abs(c[1] - e[1]) <= tol and abs(c[2] - e[2]) <= tol):
                best = c
                break
        if best is None:
            problems.append(f"missing {e}" + (f" (have {cands[:2]})" if cands else ""))
            continue
        cands.remove(best)
        if check_fill and best[4] != e[4]:
            problems.append(f"fill {best[4]} != {e[4]} for {e[5]!r}")
    extra = [c for v in pool.values() for c in v]
    for c in extra[:5]:
        problems.append(f"extra {c}")
    if len(extra) > 5:
        problems.append(f"... {len(extra) - 5} more extra frames")
    return problems


def gaps(frames):
    """(y, x) of every frame whose x is not its left neighbour's x + width,
    to 0.1 px: the seams and overlaps a one-token width error makes."""
    rows = {}
    for f in frames:
        rows.setdefault(round(f[0], 1), []).append((f[1], f[2]))
    out = set()
    for y, row in rows.items():
        row.sort()
        for (x0, w0), (x1, _) in zip(row, row[1:]):
            if round(x0 + w0, 1) != round(x1, 1):
                out.add((y, round(x1, 1)))
    return out


def main():
    uf, ref = sys.argv[1], sys.argv[2]
    only = set(sys.argv[3:])
    failed = 0
    with open(os.path.join(ref, "cases.tsv")) as f:
        cases = [l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#")]
    tmp = tempfile.mkdtemp()
    for case in cases:
        name, inp = case[0], case[1]
        opts = case[2].split() if len(case) > 2 and case[2] else []
        if only and name not in only:
            continue
        out = os.path.join(tmp, name + ".svg")
        cmd = [uf, "render", *opts, os.path.join(ref, "inputs", inp), "-o", out]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"FAIL: compat {name}: exit {p.returncode}: {p.stderr.strip()}")
            failed += 1
            continue
        # --random colours and differentials are not name-keyed; --cp reads a file
        check_fill = "--random" not in opts
        ours = our_frames(out)
        exp = expected_frames(os.path.join(ref, "expected", name + ".tsv"))
        probs = compare(ours, exp, check_fill)
        # pruned frames leave gaps in both; a gap only we have is a seam
        for y, x in sorted(gaps(ours) - gaps(exp))[:5]:
            probs.append(f"seam or overlap at y={y} x={x} (flamegraph.pl has none there)")
        if probs:
            failed += 1
            print(f"FAIL: compat {name}: {len(probs)} problems")
            for p_ in probs[:8]:
                print("   ", p_)
        else:
            print(f"PASS: compat {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
