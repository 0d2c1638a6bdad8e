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
    decl = {"attr": {}, "id": {}, "section": {}, "grammar": {}}
    for line in block.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, name, rest = line.split(None, 2)
        decl[kind][name] = rest.strip() if kind == "grammar" else rest.split("  ")[0].strip()
    return decl


def script_reads():
    js = ""
    for d in ("templates", "templates/js"):  # the script's parts live in templates/js
        for f in sorted(os.listdir(os.path.join(TOP, d))):
            if f.endswith(".js"):
                js += open(os.path.join(TOP, d, f), encoding="utf-8").read()
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
    for sec, on in decl["section"].items():
        legacy = "legacy" in on
        if legacy == bool(re.search(r'"%s(\\n| %%)' % sec, writer)):
            missing.append(f"{sec} (C writer {'writes a legacy section' if legacy else 'does not write it'})")
        if not re.search(r'"%s ?"' % sec, reader):
            missing.append(f"{sec} (C reader)")
        if "fold only" not in on and not re.search(r"'%s'|/\^%s[ \\]" % (sec, sec), js):
            missing.append(f"{sec} (script)")
    check("every block section is written, read back and parsed by the script", missing)
    grammar = decl["grammar"].get("section", "")
    check("the script parses section headers with the declared grammar",
          [] if grammar and "/" + grammar + "/" in js else [grammar or "no grammar line"])
    check("every section in the SVGs' blocks follows the grammar", block_sections(svgs, grammar, decl["section"]))


def block_sections(svgs, grammar, declared):
    """Walks the sections after "end" of each SVG's block (unpacked by
    tests/embedded-text.py): headers match the grammar, bodies have the
    lines the header says, names are declared."""
    import subprocess
    bad = []
    for p in svgs:
        r = subprocess.run([sys.executable, os.path.join(TOP, "tests/embedded-text.py"), p], capture_output=True)
        if r.returncode:
            continue
        lines = r.stdout.decode("latin1").split("\n")
        h = lines[0].split()
        k = 1 + int(h[1]) + int(h[2])
        if lines[k] != "end":
            bad.append(f"{os.path.basename(p)}: no end after the nodes")
            continue
        k += 1
        while k < len(lines) and lines[k].strip():
            m = re.match(grammar.replace("\\d", "[0-9]"), lines[k])
            if not m or m.group(1) not in declared or "legacy" in declared[m.group(1)]:
                bad.append(f"{os.path.basename(p)}: header {lines[k]!r}")
                break
            k += 2 + int(m.group(2))
            if k > len(lines) or lines[k - 1] != "end":
                bad.append(f"{os.path.basename(p)}: {m.group(1)} body is not {m.group(2)} lines then end")
                break
    return bad


def grammar_headers():
    """The longest section header the declared grammar allows, then one
    with a name byte more and one with an argument more (t-contract.sh
    feeds them to the C reader)."""
    g = contract()["grammar"]["section"]
    name_max = 1 + int(re.search(r"\]\{0,(\d+)\}\)", g).group(1))
    args_max = int(re.search(r"\)\{0,(\d+)\}\)", g).group(1))
    ok = "a" * name_max + " 2" + " 7" * args_max
    return ok, "a" * (name_max + 1) + " 2", ok + " 7"


if __name__ == "__main__":
    if sys.argv[1:] == ["--headers"]:
        print("\n".join(grammar_headers()))
    else:
        main(sys.argv[1:])
