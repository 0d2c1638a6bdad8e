#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""flamegraph.pl drop-in matrix: every flamegraph.pl option, in every spelling
Getopt::Long accepts (--opt V, --opt=V, -opt V, -opt=V), against flamegraph.pl.

usage: dropin.py UF_BINARY REF_DIR [FLAMEGRAPH_PL]

REF_DIR is ../shared/flamegraph-ref (its inputs).  With FLAMEGRAPH_PL (a
checkout of FlameGraph, never part of this repository) each case is drawn by
flamegraph.pl and by `uniprof-flame render`, and the two files must agree on
every frame (name, samples, y, x and width within 0.15 px, fill for the
name-keyed palettes), the background gradient, the title and subtitle, the
image width and the XML declaration.  Without it, the cases still check that
every spelling of every option is accepted and draws the same file as the
--opt V spelling, and that every palette has flamegraph.pl's background (a
table read from flamegraph.pl's source); the comparison is reported as SKIP.

Prints "PASS: name", "FAIL: name: why" or "SKIP: name: why" lines.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compat import compare  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
TITLE_RE = re.compile(r"^(.*) \(([\d,]+) [^,]*, [^)]*\)$", re.S)

# flamegraph.pl's --help lists these; GetOptions also takes encoding,
# fontwidth, nameattr, total and factor.  (name, value or None)
PALETTES = ["hot", "mem", "io", "wakeup", "chain", "java", "js", "perl", "red", "green", "blue",
            "aqua", "yellow", "purple", "orange"]
# flamegraph.pl's default background per palette (its source: mem green;
# io, wakeup, chain blue; the flat palettes grey; the rest yellow)
BG = {"yellow": ("#eeeeee", "#eeeeb0"), "blue": ("#eeeeee", "#e0e0ff"),
      "green": ("#eef2ee", "#e0ffe0"), "grey": ("#f8f8f8", "#e8e8e8")}
DEFAULT_BG = {p: "yellow" for p in PALETTES}
DEFAULT_BG.update({"mem": "green", "io": "blue", "wakeup": "blue", "chain": "blue"})
DEFAULT_BG.update({p: "grey" for p in ["red", "green", "blue", "aqua", "yellow", "purple", "orange"]})

FLAMEGRAPH_OPTIONS = ["title", "subtitle", "width", "height", "minwidth", "fonttype", "fontsize",
                      "countname", "nametype", "colors", "bgcolors", "hash", "random", "cp",
                      "reverse", "inverted", "flamechart", "negate", "notes", "help",
                      "encoding", "fontwidth", "nameattr", "total", "factor"]


def cases(ref, tmp):
    """(case name, input path, [(option, value)...]); a value None is a flag."""
    inp = lambda n: os.path.join(ref, "inputs", n)
    java = inp("perf-java-stacks-01-collapsed-jit.folded")
    small = inp("perf-iperf-stacks-pidtid-01-collapsed-tid.folded")
    nameattr = os.path.join(tmp, "nameattr.txt")
    with open(nameattr, "w") as f:
        f.write("main\tclass=hot\thref=https://example.org/\n")
    chain = os.path.join(tmp, "chain.folded")
    with open(chain, "w") as f:  # off-CPU stacks with waker stacks after "--"
        f.write("swapper;cpu_idle;schedule 10\n"
                "app;read;sys_read;schedule;--;irq;wake_up;try_to_wake_up 7\n"
                "app;write;schedule;--;kworker;--;irq_exit;wake 3\n"
                "--;lead 2\napp;--;--;x 1\napp;tail;-- 4\n")
    out = [
        ("title", small, [("title", "Custom title")]),
        ("subtitle", small, [("subtitle", "Second line")]),
        ("width", small, [("width", "800")]),
        ("height", small, [("height", "20")]),
        ("minwidth-px", small, [("minwidth", "2")]),
        ("minwidth-pct", small, [("minwidth", "0.5%")]),
        ("fonttype", small, [("fonttype", "Arial")]),
        ("fontsize", small, [("fontsize", "10")]),
        ("fontwidth", small, [("fontwidth", "0.7")]),
        ("countname", small, [("countname", "bytes")]),
        ("nametype", small, [("nametype", "Func:")]),
        ("hash", small, [("hash", None)]),
        ("random", small, [("random", None)]),
        ("cp", small, [("cp", None)]),
        ("reverse", small, [("reverse", None)]),
        ("inverted", small, [("inverted", None)]),
        ("flamechart", small, [("flamechart", None)]),
        ("negate", inp("diff-two-columns.folded"), [("negate", None)]),
        ("notes", small, [("notes", "a note")]),
        ("encoding", small, [("encoding", "UTF-8")]),
        ("nameattr", small, [("nameattr", nameattr)]),
        ("total", small, [("total", "100000")]),
        ("factor", small, [("factor", "2")]),
        ("chain-perf", inp("example-perf.folded"), [("colors", "chain")]),
        ("chain-separators", chain, [("colors", "chain")]),
    ]
    for p in PALETTES:
        out.append(("colors-" + p, java, [("colors", p)]))
    for b in ["yellow", "blue", "green", "grey", "#123456"]:
        out.append(("bgcolors-" + b.strip("#"), small, [("bgcolors", b), ("colors", "mem")]))
    return out


def spellings(opts):
    """Every way Getopt::Long lets a script write the options."""
    forms = {}
    for name, dash, eq in [("long", "--", False), ("long=", "--", True), ("single", "-", False),
                           ("single=", "-", True)]:
        args = []
        for o, v in opts:
            if v is None:
                args.append(dash + o)
            elif eq:
                args.append(f"{dash}{o}={v}")
            else:
                args += [dash + o, v]
        forms[name] = args
    return forms


def frames(path):
    root = ET.parse(path).getroot()
    g = root.find(f".//{SVG}g[@id='frames']")
    out = []
    for fr in g.findall(f"{SVG}g"):
        if fr.get("class") == "pruned":
            continue
        t = fr.find(f"{SVG}title")
        m = TITLE_RE.match(t.text.split("\n")[0])
        r = fr.find(f"{SVG}rect")
        out.append((float(r.get("y")), float(r.get("x")), float(r.get("width")),
                    int(m.group(2).replace(",", "")), r.get("fill"), m.group(1)))
    return out


def page(path):
    """What a reader sees besides the frames."""
    with open(path, "rb") as f:
        raw = f.read()
    root = ET.fromstring(raw)
    stops = tuple(s.get("stop-color") for s in root.iter(f"{SVG}stop"))
    texts = {t.get("id"): "".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("id")}
    decl = raw.split(b"?>", 1)[0].decode()
    enc = re.search(r'encoding="([^"]*)"', decl)
    return {"background": stops, "title": texts.get("title"), "subtitle": texts.get("subtitle"),
            "width": root.get("width"), "encoding": enc.group(1) if enc else None,
            "notes": b"<!-- NOTES: a note -->" in raw}


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True)


def main():
    uf, ref = sys.argv[1], sys.argv[2]
    fg = sys.argv[3] if len(sys.argv) > 3 and os.path.isfile(sys.argv[3]) else None
    tmp = tempfile.mkdtemp()
    failed = option_list(uf, fg, ref, tmp)
    try:
        for name, inp, opts in cases(ref, tmp):
            failed += one_case(uf, fg, tmp, name, inp, opts)
    finally:
        shutil.rmtree(tmp)
    if not fg:
        # the live peer is optional (not in Debian's archive): a note, not a
        # skip, so a machine without it still runs every check it can
        print("NOTE: dropin against flamegraph.pl: no flamegraph.pl (fetch FlameGraph into "
              "~/.cache/uniprof-flame/FlameGraph or set UF_FLAMEGRAPH_PL); spellings and "
              "backgrounds were still checked")
    return 1 if failed else 0


def option_list(uf, fg, ref, tmp):
    """The matrix covers every option flamegraph.pl takes (its --help and its
    GetOptions table, when flamegraph.pl is here), and --help/-help work."""
    covered = {o for _, _, opts in cases(ref, tmp) for o, _ in opts} | {"help"}
    theirs = set(FLAMEGRAPH_OPTIONS)
    if fg:
        src = open(fg, encoding="utf-8", errors="replace").read()
        getopts = src[src.index("GetOptions("):]
        getopts = getopts[:getopts.index(")")]
        theirs = set(re.findall(r"'([a-z]+)(?:=[a-z])?'\s*=>", getopts))
        theirs |= set(re.findall(r"^\t--([a-z]+)", src, re.M))
    missing = sorted(theirs - covered)
    bad = []
    for spelling in ["--help", "-help"]:
        p = run([uf, "render", spelling], tmp)
        if p.returncode != 0 or b"usage:" not in p.stdout:
            bad.append(spelling)
    if missing or bad:
        print(f"FAIL: dropin option list: not in the matrix {missing}; help spellings failing {bad}")
        return 1
    print(f"PASS: dropin option list: all {len(theirs)} flamegraph.pl options in the matrix"
          f"{' (read from flamegraph.pl)' if fg else ''}, --help and -help work")
    return 0


def one_case(uf, fg, tmp, name, inp, opts):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    outs = {}
    for form, args in spellings(opts).items():
        wd = os.path.join(d, form)
        os.makedirs(wd)  # --cp writes palette.map in the working directory
        out = os.path.join(wd, "uf.svg")
        p = run([uf, "render", *args, inp, "-o", out], wd)
        if p.returncode != 0:
            print(f"FAIL: dropin {name} ({' '.join(args)}): exit {p.returncode}: "
                  f"{p.stderr.decode(errors='replace').strip()}")
            return 1
        outs[form] = out
    random = any(o == "random" for o, _ in opts)
    base = outs["long"]
    for form, out in outs.items():
        if form == "long" or random:
            continue
        if frames(out) != frames(base) or page(out) != page(base):
            print(f"FAIL: dropin {name}: the {form} spelling draws another file than --opt")
            return 1
    mine = page(base)
    colors = dict(opts).get("colors", "hot")
    bg = dict(opts).get("bgcolors") or DEFAULT_BG.get(colors, "yellow")
    want_bg = BG.get(bg, (bg, bg))
    if mine["background"] != want_bg:
        print(f"FAIL: dropin {name}: background {mine['background']} != flamegraph.pl's {want_bg}")
        return 1
    # counts flamegraph.pl 41fee1f draws, for the checks without it
    known = {"chain-perf": 1849, "chain-separators": 29}
    if name in known and len(frames(base)) != known[name]:
        print(f"FAIL: dropin {name}: {len(frames(base))} frames, flamegraph.pl draws {known[name]}")
        return 1
    if not fg:
        print(f"PASS: dropin {name}: 4 spellings accepted, same file, flamegraph.pl's background")
        return 0
    wd = os.path.join(d, "fg")
    os.makedirs(wd)
    fg_out = os.path.join(wd, "fg.svg")
    with open(fg_out, "wb") as f:
        p = subprocess.run(["perl", fg, *spellings(opts)["long"], inp], cwd=wd, stdout=f,
                           stderr=subprocess.PIPE)
    if p.returncode != 0:
        print(f"FAIL: dropin {name}: flamegraph.pl exit {p.returncode}: {p.stderr.decode().strip()}")
        return 1
    probs = compare(frames(base), frames(fg_out), not random)
    theirs = page(fg_out)
    for k in ["background", "title", "subtitle", "width", "encoding", "notes"]:
        if mine[k] != theirs[k]:
            probs.append(f"{k}: ours {mine[k]!r}, flamegraph.pl's {theirs[k]!r}")
    if probs:
        print(f"FAIL: dropin {name}: {len(probs)} differences from flamegraph.pl")
        for p_ in probs[:8]:
            print("   ", p_)
        return 1
    print(f"PASS: dropin {name}: 4 spellings = flamegraph.pl ({len(frames(fg_out))} frames)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
