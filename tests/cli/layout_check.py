#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tests/cli/layout_check.py — the include graph between modules, checked
against the layout docs/architecture.md declares.

The picture in docs/architecture.md has a machine-read twin: a fenced
```layout block listing every module (a top-level folder, or a room of
fold/), its layer, and the modules it includes.  This script reads the
`#include "dir/file.h"` lines of every C file outside tests/, bench/,
examples/ and build/, maps each side to its module (longest declared
prefix; uniprof-flame.c is cli), and fails when

  1. a folder with C files is not declared, or a declared one is gone;
  2. an include arrow runs to the same or a higher layer (upward), unless
     the block lists it as an `exception FROM -> HEADER` with a reason;
  3. the modules include each other in a cycle (exceptions left out);
  4. the code has an arrow the block does not declare, or the block
     declares one the code no longer has (the picture must match);
  5. a file includes another module's private header (`internal.h`,
     `priv.h`, `*-priv.h`: docs/architecture.md rule 2);
  6. a message uses libc's capitalised text: a call of strerror() or a
     printf-style `%m` (util/err.h's UF_STRERROR gives it lowercase, as
     every `why` must be; strftime's `%m` is the month and is allowed);
  7. with --objects DIR (the build's object tree, build/rel): a module's
     objects use a symbol another module defines that it does not declare
     an arrow to (a link-time arrow the includes do not show: the model
     calling the input room's sort was one).

Design: regexes on source lines, not a preprocessor run: every include of
ours is a plain `#include "module/file.h"` on its own line, and a
preprocessor pass would need the generated headers and the Xen headers.
Generated headers (no '/' in the name) and system headers are ignored.

Rule 7 reads `nm` of DIR/<module>/*.o (those with a source file): each global symbol defined (T, D,
B, R, ...) belongs to its object's module; each undefined one a module
uses must be its own or one its line includes.  Symbols no module of ours
defines (libc, libdw, ...) are not ours to check.

Usage: layout_check.py [--root DIR] [--doc FILE] [--objects DIR]; exit 0 when the layout
holds, 1 with one line per broken rule on stdout, 2 on a bad layout block.
"""
import argparse
import os
import re
import subprocess
import sys

SKIP_DIRS = {"tests", "bench", "examples", "build", "build-aux", ".git", "templates", "scripts", "docs"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+/[^"]+)"')
PRIVATE = re.compile(r'(^|/)(internal|priv|[^/]*-priv)\.h$')
STRERROR = re.compile(r'(^|[^_A-Za-z0-9])strerror\s*\(')
PCT_M = re.compile(r'"[^"]*%m[^"]*"')


def parse_block(doc_path):
    """The ```layout block: {module: (layer, set(deps))}, [(from, header, why)]."""
    try:
        text = open(doc_path, encoding="utf-8").read()
    except OSError as e:
        print(f"layout_check: {doc_path}: {e.strerror}")
        sys.exit(2)
    m = re.search(r"^```layout\n(.*?)^```", text, re.S | re.M)
    if not m:
        print(f"layout_check: no ```layout block in {doc_path}")
        sys.exit(2)
    mods, exceptions = {}, []
    for n, line in enumerate(m.group(1).splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("exception "):
            ex = re.match(r"exception\s+(\S+)\s*->\s*(\S+)\s+(.+)$", line)
            if not ex:
                print(f"layout_check: bad exception line {n}: {line}")
                sys.exit(2)
            exceptions.append(ex.groups())
            continue
        parts = line.split()
        if len(parts) < 2 or not parts[1].isdigit():
            print(f"layout_check: bad module line {n}: {line}")
            sys.exit(2)
        mods[parts[0]] = (int(parts[1]), set(parts[2:]))
    return mods, exceptions


def module_of(path, mods):
    """The declared module a file belongs to: its longest declared prefix."""
    if "/" not in path:
        return "cli" if path == "uniprof-flame.c" else None
    best = None
    for m in mods:
        if path.startswith(m + "/") and (best is None or len(m) > len(best)):
            best = m
    return best


def source_files(root):
    for dirpath, dirnames, files in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        top = rel.split(os.sep)[0]
        if top in SKIP_DIRS:
            dirnames[:] = []
            continue
        for f in files:
            if f.endswith((".c", ".h")):
                yield os.path.normpath(os.path.join(rel, f)).replace(os.sep, "/")


def find_cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    nodes = sorted({a for a, _ in edges} | {b for _, b in edges})
    succ = {n: sorted(b for a, b in edges if a == n) for n in nodes}

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for n in nodes:
        if n not in index:
            visit(n)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--doc", default=None)
    ap.add_argument("--objects", default=None)
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    mods, exceptions = parse_block(a.doc or os.path.join(root, "docs", "architecture.md"))
    problems = []

    files = list(source_files(root))
    dirs = {os.path.dirname(f) for f in files if "/" in f}
    for d in sorted(dirs):
        if module_of(d + "/x.c", mods) is None:
            problems.append(f"undeclared module: {d}/ has C files but no line in the layout block")
    for m in sorted(mods):
        if not any(d == m or d.startswith(m + "/") for d in dirs) and m != "cli":
            problems.append(f"declared module gone: {m}/ has no C files")

    actual, where = set(), {}
    excepted = {(f, h) for f, h, _ in exceptions}
    used_exceptions = set()
    for f in files:
        a_mod = module_of(f, mods)
        if a_mod is None:
            continue
        for line in open(os.path.join(root, f), encoding="utf-8", errors="replace"):
            m = INCLUDE.match(line)
            if not m:
                continue
            hdr = m.group(1)
            b_mod = module_of(hdr, mods)
            if PRIVATE.search(hdr) and os.path.dirname(hdr) != os.path.dirname(f):
                problems.append(f"private header of another module: {f} includes {hdr}")
            if b_mod is None or b_mod == a_mod:
                continue
            if (a_mod, hdr) in excepted:
                used_exceptions.add((a_mod, hdr))
                continue
            actual.add((a_mod, b_mod))
            where.setdefault((a_mod, b_mod), f"{f} includes {hdr}")

    for a_mod, b_mod in sorted(actual):
        if mods[b_mod][0] >= mods[a_mod][0]:
            problems.append(f"upward arrow: {a_mod} (layer {mods[a_mod][0]}) -> {b_mod} "
                            f"(layer {mods[b_mod][0]}): {where[(a_mod, b_mod)]}")
        if b_mod not in mods[a_mod][1]:
            problems.append(f"arrow missing from the picture: {a_mod} -> {b_mod}: {where[(a_mod, b_mod)]}")
    for a_mod, (_, deps) in sorted(mods.items()):
        for b_mod in sorted(deps):
            if b_mod not in mods:
                problems.append(f"picture names an unknown module: {a_mod} -> {b_mod}")
            elif (a_mod, b_mod) not in actual:
                problems.append(f"arrow in the picture but not in the code: {a_mod} -> {b_mod}")
    for f, h, _ in exceptions:
        if (f, h) not in used_exceptions:
            problems.append(f"stale exception: {f} no longer includes {h}: delete its line")
    for comp in find_cycles(actual):
        problems.append("include cycle between modules: " + " <-> ".join(comp))

    problems += libc_messages(root, files)
    if a.objects:
        problems += link_arrows(root, os.path.abspath(a.objects), mods)
    for p in problems:
        print(p)
    if not problems:
        print(f"layout ok: {len(mods)} modules, {len(actual)} arrows, {len(exceptions)} known exceptions, "
              f"{len(files)} files")
    return 1 if problems else 0


def object_symbols(root, objdir, mods):
    """{module: (defined symbols, {undefined symbol: object})} from nm, of
    the objects whose source is in the tree (a stale object of a file since
    moved or deleted would claim its symbols still)."""
    syms = {}
    for dirpath, _, files in os.walk(objdir):
        rel = os.path.relpath(dirpath, objdir).replace(os.sep, "/")
        mod = module_of(rel + "/x.c", mods) if rel != "." else None
        for f in sorted(files):
            if not f.endswith(".o") or mod is None:
                continue
            if not os.path.exists(os.path.join(root, rel, f[:-2] + ".c")):
                continue
            obj = os.path.join(dirpath, f)
            out = subprocess.run(["nm", "-g", obj], capture_output=True, text=True)
            if out.returncode != 0:
                print(f"layout_check: nm {obj}: {out.stderr.strip()}")
                sys.exit(2)
            defs, undefs = syms.setdefault(mod, (set(), {}))
            for line in out.stdout.splitlines():
                parts = line.split()
                if len(parts) >= 2 and parts[-2] == "U":
                    undefs.setdefault(parts[-1], f"{rel}/{f}")
                elif len(parts) == 3:
                    defs.add(parts[2])
    return syms


def link_arrows(root, objdir, mods):
    """Rule 7: every call into another module follows a declared arrow."""
    syms = object_symbols(root, objdir, mods)
    if not syms:
        return [f"no objects of any module under {objdir} (build first)"]
    owner = {}
    for mod, (defs, _) in syms.items():
        for d in defs:
            owner.setdefault(d, mod)
    out = []
    for mod, (_, undefs) in sorted(syms.items()):
        for sym, obj in sorted(undefs.items()):
            o = owner.get(sym)
            if o is not None and o != mod and o not in mods[mod][1]:
                out.append(f"link-time arrow not in the picture: {mod} -> {o}: {obj} uses {sym}")
    return out


def libc_messages(root, files):
    """Rule 6: strerror() or a printf-style %m outside comments."""
    out = []
    for f in files:
        if f == "util/err.c":  # uf_strerror_r, the one place libc's text is read
            continue
        for n, line in enumerate(open(os.path.join(root, f), encoding="utf-8", errors="replace"), 1):
            code = re.sub(r"/\*.*?(\*/|$)", "", line).split("//", 1)[0]
            if code.lstrip().startswith("*"):
                continue  # inside a block comment
            if STRERROR.search(code) or (PCT_M.search(code) and "strftime" not in code):
                out.append(f"libc's capitalised message: {f}:{n}: use UF_STRERROR (util/err.h)")
    return out


if __name__ == "__main__":
    sys.exit(main())
