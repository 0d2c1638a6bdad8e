#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""README.md against the program: every option of every command, three ways.

usage: readme_check.py UF_BINARY TOP

For each command (render, fold, diff, record) three sets of option names
must be equal:
  - the options the code accepts: the `struct option` tables and the short
    option string passed to cli_getopt() in the command's cli/*.c files;
  - the options `uniprof-flame COMMAND --help` lists;
  - the options in the first column of the command's table(s) in README.md.
A row "every render option" (diff) or an -o row saying so (record) adds the
render table.  `-h, --help` is exempt (the README says `COMMAND --help`
lists every option).  Also: the package list README gives for `make check`
equals scripts/deps.sh's.

Prints "PASS: readme ..." / "FAIL: readme ...: why" lines.
"""
import os
import re
import subprocess
import sys

LONG = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*)")
SHORT = re.compile(r"(?<![\w-])-([a-zA-Z])(?![\w-])")
EXEMPT = {"--help", "-h"}
ERRNO_TEXTS = {"permission denied", "no such file or directory", "connection refused"}
# what the dynamic loader, not our code, prints (a Troubleshooting entry explains it)
LOADER_TEXTS = {"error while loading shared libraries", "libdw.so.1 ..."}

# command -> (its cli files, README section heading, includes the render table)
COMMANDS = {
    "render": (["cli/cmd-render.c", "cli/render-opts.c"], "### render", False),
    "fold": (["cli/cmd-fold.c"], "### fold", False),
    "diff": (["cli/cmd-diff.c", "cli/render-opts.c"], "### diff", True),
    "record": (["cli/cmd-record.c", "cli/render-opts.c", "record/backends.c"],
               "### record: profiling a Linux process", True),
}


# render, fold and diff also take the format options of cli/io-opts.c,
# documented in their own README table.
IO_COMMANDS = {"render", "fold", "diff"}
IO_FILE = "cli/io-opts.c"
IO_HEADING = "### Formats: `perf script` in, pprof and speedscope out"


def names(text):
    return {"--" + m for m in LONG.findall(text)} | {"-" + m for m in SHORT.findall(text)}


def from_source(top, files):
    out = set()
    for f in files:
        src = open(os.path.join(top, f)).read()
        for m in re.finditer(r'\{\s*"([A-Za-z0-9][A-Za-z0-9-]*)"\s*,\s*(no|required|optional)_argument', src):
            out.add("--" + m.group(1))
        # a literal short-option string, at the call or in a *_SHORTOPTS define
        for m in re.finditer(r'cli_getopt\(\s*argc,\s*argv,\s*"([^"]*)"|_SHORTOPTS\s+"([^"]*)"', src):
            out |= {"-" + c for c in (m.group(1) or m.group(2)) if c.isalpha()}
        # record's target options: rows of record/backends.c's table
        for m in re.finditer(r'\{\s*"[a-z-]+",\s*"([a-z-]+)",\s*(?:\'(.)\'|0)', src):
            out.add("--" + m.group(1))
            if m.group(2):
                out.add("-" + m.group(2))
        if re.search(r"getopt_long(_only)?\(", src):
            out.add("(getopt_long called directly: use cli_getopt in " + f + ")")
    return out - EXEMPT


def from_help(uf, cmd):
    p = subprocess.run([uf, cmd, "--help"], capture_output=True, text=True)
    if p.returncode != 0:
        return {f"(--help exit {p.returncode})"}
    out = set()
    for line in p.stdout.splitlines():
        m = re.match(r"^\s+(-.*?)(\s{2,}|$)", line)
        if m:
            out |= names(m.group(1))
    return out - EXEMPT


def section(readme, heading):
    start = readme.index("\n" + heading + "\n")
    level = heading.split()[0]
    nxt = re.compile(r"\n#{2,%d} " % len(level))
    m = nxt.search(readme, start + 1)
    return readme[start: m.start() if m else len(readme)]


def from_readme(readme, heading):
    out, every = set(), False
    for line in section(readme, heading).splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        first = line.split("|")[1]
        if first.strip() in ("option", "command", "code"):
            continue
        every |= "every render option" in line
        out |= names(first)
    return out - EXEMPT, every


def main():
    uf, top = sys.argv[1], sys.argv[2]
    readme = open(os.path.join(top, "README.md")).read()
    render_rows, _ = from_readme(readme, COMMANDS["render"][1])
    failed = 0
    for cmd, (files, heading, with_render) in COMMANDS.items():
        if cmd in IO_COMMANDS:
            files = files + [IO_FILE]
        src, hlp = from_source(top, files), from_help(uf, cmd)
        doc, every = from_readme(readme, heading)
        if cmd in IO_COMMANDS:
            doc |= from_readme(readme, IO_HEADING)[0]
        if with_render:
            if not every:
                print(f"FAIL: readme {cmd}: its README table no longer says every render option applies")
                failed += 1
            doc |= render_rows
        probs = []
        for a_name, a, b_name, b in [("code", src, "--help", hlp), ("code", src, "README", doc),
                                     ("--help", hlp, "README", doc)]:
            for o in sorted(a - b):
                probs.append(f"{o} in {a_name}, not in {b_name}")
            for o in sorted(b - a):
                if a_name == "code":
                    probs.append(f"{o} in {b_name}, not accepted by the code")
        probs = sorted(set(probs))
        if probs:
            failed += 1
            print(f"FAIL: readme {cmd}: {'; '.join(probs)}")
        else:
            print(f"PASS: readme {cmd}: {len(src)} options, same in code, --help and README")
    deps = open(os.path.join(top, "scripts/deps.sh")).read()
    want = set(re.search(r"check\)\s*want\+=\(([^)]*)\)", deps).group(1).split())
    # the AArch64 cross compiler is named through an array (none on arm64)
    if '"${cross[@]}"' in want:
        want.discard('"${cross[@]}"')
        want.add("gcc-aarch64-linux-gnu")
    m = re.search(r"`make check` adds `([^`]*)`", readme)
    said = set(m.group(1).split()) if m else set()
    if want == said:
        print(f"PASS: readme make check packages: the {len(want)} of scripts/deps.sh")
    else:
        failed += 1
        print(f"FAIL: readme make check packages: deps.sh only {sorted(want - said)}, "
              f"README only {sorted(said - want)}")
    failed += troubleshooting(top, readme)
    return 1 if failed else 0


def troubleshooting(top, readme):
    """Every message a Troubleshooting entry quotes is one the program prints."""
    code = ""
    for d in ["cli", "fold", "render", "sampler", "symtab", "ptrace-if", "gdb-if", "xen-if", "util", "unwind"]:
        for r, _, fs in os.walk(os.path.join(top, d)):  # fold/ keeps its files in rooms
            for f in sorted(fs):
                if f.endswith(".c"):
                    code += open(os.path.join(r, f)).read()
    code += open(os.path.join(top, "uniprof-flame.c")).read() + open(os.path.join(top, "scripts/deps.sh")).read()
    code = re.sub(r'"\s*\n\s*"', "", code)  # "a" "b" continued literals read as one
    quoted = []
    for m in re.finditer(r"\n#+ Troubleshooting\n(.*?)(?=\n#|\Z)", readme, re.S):
        for item in re.split(r"\n- ", m.group(1)):
            head = item.split(" — ")[0].split("*:")[0]
            said = re.findall(r'"([^"]+)"', head)
            quoted += said or re.findall(r"^`([^`]+)`", head)
    missing = []
    for q in quoted:
        # placeholders: N, quoted subjects, numbers, (notes), errno texts (strerror)
        frags = [f for f in re.split(r": |\bN\b|'[^']*'|\b0x[0-9a-f]+\b|\([^)]*\)",
                                     q.replace("uniprof-flame: ", ""))
                 if len(f.strip()) >= 6 and f.strip() not in ERRNO_TEXTS and f.strip() not in LOADER_TEXTS]
        missing += [f"{f.strip()!r} (of {q!r})" for f in frags if f.strip() not in code]
    if missing or not quoted:
        print(f"FAIL: readme troubleshooting: messages not in the code: {'; '.join(missing) or 'none found'}")
        return 1
    print(f"PASS: readme troubleshooting: the {len(quoted)} quoted messages exist")
    return 0


if __name__ == "__main__":
    sys.exit(main())
