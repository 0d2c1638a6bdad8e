# SPDX-License-Identifier: BSD-3-Clause
"""tests/render/mirrors_check.py — every "mirrors FILE:FUNC()" comment in
the script's parts (templates/js/*.js) names a C function that exists:
FILE is there and defines FUNC at the top level (a line that starts with
its return type and holds "FUNC(", not a prototype ending in ";").  So a
rename or a move on the C side fails tests/render/t-mirrors.sh until the
script's comment follows it.  Also: the parts form one IIFE (the first
opens it, the last closes it, no part in between does either).

Prints tests/lib.sh's PASS/FAIL lines; exits 0.  UF_TOP picks the tree."""
import os
import re
import sys

TOP = os.environ.get("UF_TOP", os.path.join(os.path.dirname(__file__), "..", ".."))
REF = re.compile(r"([A-Za-z0-9_./-]+\.[ch]):([A-Za-z_][A-Za-z0-9_]*)\(\)")


def parts():
    d = os.path.join(TOP, "templates", "js")
    return [(f, open(os.path.join(d, f), encoding="utf-8").read()) for f in sorted(os.listdir(d)) if f.endswith(".js")]


def defines(path, func):
    try:
        src = open(os.path.join(TOP, path), encoding="utf-8").read()
    except OSError:
        return False
    pat = re.compile(r"^[A-Za-z_][^;{}\n]*\b%s\(([^;]*?)\)\s*\{" % re.escape(func), re.M | re.S)
    return bool(pat.search(src))


def main():
    ps = parts()
    refs, bad = [], []
    for name, text in ps:
        for c in re.findall(r"/\*\s*mirrors\s+(.*?)\*/", text, re.S):
            for path, func in REF.findall(c):
                refs.append((name, path, func))
                if not defines(path, func):
                    bad.append(f"{name}: {path}:{func}()")
    print(("FAIL: mirrors: every named C function exists: " + ", ".join(bad)) if bad else
          f"PASS: mirrors: every named C function exists ({len(refs)} names in {len(ps)} parts)")
    want = int(os.environ.get("UF_MIRRORS_MIN", "30"))
    print(f"PASS: mirrors: at least {want} mirrors named" if len(refs) >= want else
          f"FAIL: mirrors: at least {want} mirrors named: only {len(refs)}")
    opens = [n for n, t in ps if re.search(r"^\(function \(\) \{$", t, re.M)]
    closes = [n for n, t in ps if re.search(r"^\}\(\)\);$", t, re.M)]
    ok = ps and opens == [ps[0][0]] and closes == [ps[-1][0]]
    print("PASS: mirrors: the parts make one IIFE" if ok else
          f"FAIL: mirrors: the parts make one IIFE: opened in {opens}, closed in {closes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
