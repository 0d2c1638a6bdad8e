# SPDX-License-Identifier: BSD-3-Clause
"""tests/render/contract_check.py — checks docs/svg-contract.md against the
script in templates/ and against real SVGs (given as arguments).

Prints one "PASS: ..." or "FAIL: ..." line per check (tests/lib.sh's form)
and exits 0; tests/render/t-contract.sh runs it."""
import os
import re
import sys

TOP = os.environ.get("UF_TOP", os.path.join(os.path.dirname(__file__), "..", ".."))


def contract():
    text = open(os.path.join(TOP, "docs/svg-contract.md"), encoding="utf-8").read()
    block = re.search(r"```contract\n(.*?)```", text, re.S).group(1)
    decl = {"attr": {}, "id": {}, "section": {}}
    for line in block.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, name, rest = line.split(None, 2)
        decl[kind][name] = rest.split("  ")[0].strip()
    return decl


def script_reads():
    js = ""
    for f in sorted(os.listdir(os.path.join(TOP, "templates"))):
        if f.endswith(".js"):
            js += open(os.path.join(TOP, "templates", f), encoding="utf-8").read()
    attrs = set(re.findall(r"(?:getAttribute|attr|num)\('(data-[a-z-]+)'", js))
    ids = set(re.findall(r"getElementById\('([a-z-]+)'\)", js))
    return js, attrs, ids


def svg_carries(paths):
    attrs, ids = set(), set()
    for p in paths:
        s = open(p, encoding="utf-8", errors="replace").read()
        attrs |= set(re.findall(r'\s(data-[a-z-]+)="', s))
        ids |= set(re.findall(r'\sid="([^"]+)"', s))
    return attrs, ids


def c_source(*rel):
    return "".join(open(os.path.join(TOP, r), encoding="utf-8").read() for r in rel)


def check(name, bad):
    if bad:
        print(f"FAIL: contract: {name}: {', '.join(sorted(bad))}")
    else:
        print(f"PASS: contract: {name}")


def main(svgs):
    decl = contract()
    js, js_attrs, js_ids = script_reads()
    svg_attrs, svg_ids = svg_carries(svgs)
    attrs, ids = set(decl["attr"]), set(decl["id"])
    script_made = {i for i, when in decl["id"].items() if when == "script"}
    check("every attribute the script reads is declared", js_attrs - attrs)
    fold_only = {a for a, on in decl["attr"].items() if "fold only" in on}
    info = {a for a, on in decl["attr"].items() if "info" in on}
    check("every declared attribute is read by the script", attrs - js_attrs - fold_only - info)
    fold_src = "".join(open(os.path.join(r, f), encoding="utf-8").read()
                       for r, _, fs in os.walk(os.path.join(TOP, "fold")) for f in fs if f.endswith(".c"))
    check("every fold-only attribute is read by the C reader", {a for a in fold_only if a not in fold_src})
    check("every declared attribute is written into an SVG", attrs - svg_attrs)
    check("every attribute an SVG carries is declared", svg_attrs - attrs)
    check("every id the script looks up is declared", js_ids - ids)
    check("every declared id is in an SVG (or made by the script)", ids - svg_ids - script_made)
    writer = c_source("fold/embed/embed.c", "fold/model/loc.c")
    reader = c_source("fold/embed/embed-read.c", "fold/model/loc.c")
    missing = []
    for sec in decl["section"]:
        if not re.search(r'"%s(\\n| %%)' % sec, writer):
            missing.append(f"{sec} (C writer)")
        if not re.search(r'"%s ?"' % sec, reader):
            missing.append(f"{sec} (C reader)")
        if not re.search(r"'%s'|/\^%s[ \\]" % (sec, sec), js):
            missing.append(f"{sec} (script)")
    check("every block section is written, read back and parsed by the script", missing)


if __name__ == "__main__":
    main(sys.argv[1:])
