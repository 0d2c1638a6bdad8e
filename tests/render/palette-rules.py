#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tests/render/palette-rules.py — the python and rust palettes (ours, not
flamegraph.pl's) checked against the rule README and render/palette.c state:

  python: `_[k]` orange; `.py` anywhere or `<module>...` green; `<built-in`,
          `<frozen`, `_Py`, `Py` prefixes aqua; else `::` yellow; else red
  rust:   `_[k]` orange; `std::`, `core::`, `alloc::` (also after a leading
          `<`) yellow; else `::` green; else red

usage: palette-rules.py UF_BINARY TMPDIR

Each name is drawn once (kernel frames without their `_[k]`, as flamegraph.pl); its fill must be of the expected family, and
consistent: flamegraph.pl's family formulas (e.g. green is
rgb(50+60v, 200+55v, 50+60v)) must hold for one v in [0, 1].  Prints
PASS/FAIL lines.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compat import our_frames  # noqa: E402

# family -> (r, g, b) as (base, span) of base + int(span * v); None: constant 0
FAMILIES = {
    "red": ((200, 55), (50, 80), (50, 80)),
    "green": ((50, 60), (200, 55), (50, 60)),
    "yellow": ((175, 55), (175, 55), (50, 20)),
    "aqua": ((50, 60), (165, 55), (165, 55)),
    "orange": ((190, 65), (90, 65), None),
}

PYTHON = [
    ("do_syscall_64_[k]", "orange"),
    ("run (app.py:12)_[k]", "orange"),
    ("<module>", "green"),
    ("<module> (/srv/app/main.py:1)", "green"),
    ("handle (server.py:88)", "green"),
    ("load (cache.pyc)", "green"),
    ("<built-in method len>", "aqua"),
    ("<frozen importlib._bootstrap>", "aqua"),
    ("_PyEval_EvalFrameDefault", "aqua"),
    ("PyObject_Call", "aqua"),
    ("std::vector<int>::push_back", "yellow"),
    ("module_init", "red"),
    ("main", "red"),
    ("memcpy", "red"),
]
RUST = [
    ("do_syscall_64_[k]", "orange"),
    ("std::fs::read_[k]", "orange"),
    ("std::io::stdio::_print", "yellow"),
    ("core::ptr::drop_in_place", "yellow"),
    ("alloc::raw_vec::finish_grow", "yellow"),
    ("<core::iter::Map<I,F> as Iterator>::next", "yellow"),
    ("<alloc::vec::Vec<T> as Drop>::drop", "yellow"),
    # each prefix after the leading '<' (issue 31 item 15: a rule that
    # tested std:: before stripping the '<' passed every suite)
    ("<std::vec::Vec<T> as Drop>::drop", "yellow"),
    ("<std::io::Stdout as Write>::flush", "yellow"),
    ("<<std::io::Stdout as Write>::flush>", "green"),
    ("myapp::parse::run", "green"),
    ("<myapp::S as Foo>::bar", "green"),
    ("stdx::helper", "green"),
    ("mystd::io::x", "green"),
    ("main", "red"),
    ("_ZN3std2io5stdio6_print17h0123456789abcdefE", "red"),
]


def consistent(fill, family):
    m = re.fullmatch(r"rgb\((\d+),(\d+),(\d+)\)", fill or "")
    if not m:
        return False
    lo, hi = 0.0, 1.0
    for val, rule in zip(map(int, m.groups()), FAMILIES[family]):
        if rule is None:
            if val != 0:
                return False
            continue
        base, span = rule
        k = val - base           # int(span * v) == k  <=>  k <= span*v < k+1
        if k < 0 or k > span:
            return False
        lo, hi = max(lo, k / span), min(hi, (k + 1) / span if k < span else 1.0)
    return lo < hi or lo == hi == 1.0


def check(uf, tmp, palette, cases):
    inp = os.path.join(tmp, palette + ".folded")
    with open(inp, "w") as f:
        for name, _ in cases:
            f.write(f"root;{name} 1\n")
    out = os.path.join(tmp, palette + ".svg")
    p = subprocess.run([uf, "render", "--colors", palette, "--minwidth", "0", inp, "-o", out],
                       capture_output=True, text=True)
    if p.returncode:
        print(f"FAIL: palette {palette}: exit {p.returncode}: {p.stderr.strip()}")
        return 1
    fills = {fr[5]: fr[4] for fr in our_frames(out)}
    bad = []
    for name, family in cases:
        shown = name[:-4] if name.endswith("_[k]") else name   # drawn without the annotation
        if not consistent(fills.get(shown), family):
            bad.append(f"{name!r}: {fills.get(shown)}, want {family}")
    if bad:
        print(f"FAIL: palette {palette}: " + "; ".join(bad))
        return 1
    print(f"PASS: palette {palette}: {len(cases)} names in the family its rule gives")
    return 0


def main():
    uf, tmp = sys.argv[1], sys.argv[2]
    return 1 if check(uf, tmp, "python", PYTHON) + check(uf, tmp, "rust", RUST) else 0


if __name__ == "__main__":
    sys.exit(main())
