#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tests/interop/check-export.py — compares an exported profile, as the
real tools read it, with the folded stacks it came from.

  check-export.py pprof-raw FOLDED RAW_TXT    `go tool pprof -raw` output
  check-export.py pprof-top FOLDED TOP_TXT    `go tool pprof -top -nodecount=...`
  check-export.py speedscope FOLDED JSON SCHEMA [--ns PERIOD]
  check-export.py pprof-mappings PB_GZ        the file's mappings, in its order

pprof-raw rebuilds every sample's stack from the Locations table and
compares the multiset of (stack, count) with FOLDED exactly.  pprof-top
compares the total and every function's flat count (pprof shortens C++
names by dropping template arguments; the same is done to ours).
speedscope validates against speedscope's published JSON schema, then
rebuilds stacks from samples/weights.  Exit 0 when equal; else prints
the first differences and exits 1.  pprof-mappings prints each Mapping
message's file name, in the order the file holds them (exit 0).
"""
import collections
import gzip
import json
import re
import sys


def read_folded(path):
    stacks = collections.Counter()
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, _, count = line.rpartition(" ")
            stacks[stack] += float(count)
    return stacks


def differ(label, want, got):
    keys = sorted(set(want) | set(got))
    bad = [k for k in keys if abs(want.get(k, 0) - got.get(k, 0)) > 1e-9 * max(1, abs(want.get(k, 0)))]
    if not bad:
        return 0
    print(f"{label}: {len(bad)} differences, e.g.:")
    for k in bad[:5]:
        print(f"  {k[:160]!r}: want {want.get(k, 0)} got {got.get(k, 0)}")
    return 1


def pprof_raw(folded, raw):
    want = read_folded(folded)
    samples, locs, section = [], {}, None
    # "ID: 0xADDR M=N SHORT FILE:LINE s=START" and "(FULL)" when pprof
    # shortened the name
    loc_re = re.compile(r"^\s*(\d+): 0x[0-9a-f]+ M=\d+ (.*?) \S*:\d+ s=\d+(?:\((.*)\))?$")
    with open(raw, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if line in ("Samples:", "Locations", "Mappings"):
                section = line
                continue
            if section == "Samples:":
                m = re.match(r"^\s*([\d.]+): ((?:\d+ )*)$", line)
                if m:
                    samples.append((float(m.group(1)), [int(x) for x in m.group(2).split()]))
            elif section == "Locations":
                m = loc_re.match(line)
                if m:
                    locs[int(m.group(1))] = m.group(3) if m.group(3) is not None else m.group(2)
    got = collections.Counter()
    for count, ids in samples:
        got[";".join(locs[i] for i in reversed(ids))] += count
    return differ("pprof -raw vs folded", want, got)


def short(name):
    """pprof's display name: template arguments dropped."""
    prev = None
    while prev != name:
        prev = name
        name = re.sub(r"<[^<>]*>", "", name)
    return name


def pprof_top(folded, top):
    stacks = read_folded(folded)
    want = collections.Counter()
    for stack, count in stacks.items():
        want[short(stack.split(";")[-1])] += count
    total = sum(stacks.values())
    got, got_total = collections.Counter(), None
    with open(top, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            m = re.search(r"of ([\d.]+) total", line)
            if m:
                got_total = float(m.group(1))
            m = re.match(r"^\s*([\d.]+)\s+[\d.]+%\s+[\d.]+%\s+[\d.]+\s+[\d.]+%  (.*)$", line)
            if m:
                got[m.group(2)] += float(m.group(1))
    rc = 0
    if got_total != total:
        print(f"pprof -top total {got_total} != folded total {total}")
        rc = 1
    want = {k: v for k, v in want.items() if v}
    got = {k: v for k, v in got.items() if v}
    rc |= differ("pprof -top flat vs folded", want, got)
    top_w = sorted(want.items(), key=lambda kv: -kv[1])[:5]
    top_g = sorted(got.items(), key=lambda kv: -kv[1])[:5]
    if [v for _, v in top_w] != [v for _, v in top_g]:
        print(f"top functions differ: {top_w} vs {top_g}")
        rc = 1
    return rc


def speedscope(folded, path, schema_path, ns=None):
    import jsonschema
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.validate(doc, schema)
    frames = [fr["name"] for fr in doc["shared"]["frames"]]
    if len(set(frames)) != len(frames):
        print("speedscope: frames are not shared (duplicate names)")
        return 1
    prof = doc["profiles"][0]
    scale = float(ns) if ns else 1.0
    got = collections.Counter()
    for stack, w in zip(prof["samples"], prof["weights"]):
        got[";".join(frames[i] for i in stack)] += w / scale
    want = read_folded(folded)
    rc = differ("speedscope vs folded", want, got)
    total = sum(want.values()) * scale
    if abs(prof["endValue"] - total) > 1e-6 * total or abs(sum(prof["weights"]) - total) > 1e-6 * total:
        print(f"speedscope totals: endValue {prof['endValue']}, weights {sum(prof['weights'])}, want {total}")
        rc = 1
    return rc


def proto_fields(buf):
    """(field number, wire type, value) of one protobuf message's fields:
    an int for varints, bytes for length-delimited ones."""
    def varint(i):
        v = shift = 0
        while True:
            b = buf[i]
            v |= (b & 0x7F) << shift
            i += 1
            if b < 0x80:
                return v, i
            shift += 7
    i = 0
    while i < len(buf):
        key, i = varint(i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(i)
        elif wt == 2:
            n, i = varint(i)
            v, i = buf[i:i + n], i + n
        elif wt in (1, 5):
            n = 8 if wt == 1 else 4
            v, i = buf[i:i + n], i + n
        else:
            raise ValueError(f"wire type {wt}")
        yield num, wt, v


def pprof_mappings(path):
    """Profile.mapping is field 3, string_table field 6; a Mapping's
    filename is field 5 (an index into string_table)."""
    with gzip.open(path, "rb") as f:
        prof = f.read()
    strings, maps = [], []
    for num, wt, v in proto_fields(prof):
        if num == 6 and wt == 2:
            strings.append(v.decode("utf-8", "surrogateescape"))
        elif num == 3 and wt == 2:
            maps.append(dict((n, x) for n, w, x in proto_fields(v) if w == 0))
    for m in maps:
        print(strings[m.get(5, 0)])
    return 0


def main(argv):
    mode = argv[1]
    if mode == "pprof-raw":
        return pprof_raw(argv[2], argv[3])
    if mode == "pprof-top":
        return pprof_top(argv[2], argv[3])
    if mode == "pprof-mappings":
        return pprof_mappings(argv[2])
    if mode == "speedscope":
        ns = argv[6] if len(argv) > 6 and argv[5] == "--ns" else None
        return speedscope(argv[2], argv[3], argv[4], ns)
    print(f"unknown mode {mode}")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
