#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# tests/interop/runstate_oracle.py — an independent computation of what
# `--time` / `--state` keep and how samples weigh (issue 30), for
# tests/interop/t-runstate.sh.  It shares no code with uniprof-flame: it
# parses the raw trace and `perf script` text itself, takes frame names
# of perf samples from stackcollapse-perf.pl (each sample collapsed under
# its own tag), and applies the documented rules:
#   - time 0 is the first sample (in input order) that has a time; a
#     cut FROM-TO keeps FROM <= t < TO (seconds);
#   - a waiting sample (runnable, blocked, offline) ends in "[STATE]";
#   - perf: a sampling event is running and weighs its period; a
#     sched:sched_switch is its thread leaving the CPU in prev_state and
#     weighs the ns until that thread is seen again (a later header of
#     it, or a switch with next_pid = it), else until the last timestamp;
#     1 when that is 0.
#
#   runstate_oracle.py gen-raw OUT SEED
#   runstate_oracle.py gen-perf OUT SEED
#   runstate_oracle.py raw TRACE CUT             -> expected samples
#   runstate_oracle.py perf SCRIPT CUT STACKCOLLAPSE -> expected samples
#   runstate_oracle.py folded SAMPLES            -> folded dict (stdout)
#   runstate_oracle.py same-folded SAMPLES FOLDED   (exit 1 + why if not)
#   runstate_oracle.py same-pprof SAMPLES RAWTXT    (go tool pprof -raw)
# CUT is "STATES|FROM-TO": STATES a comma list (or "" for all), FROM-TO
# seconds with either end empty (or "" for no time cut).  SAMPLES is a
# JSON list of [stack, weight, state, t_ns or null].
import json
import random
import re
import subprocess
import sys

WAITING = {"runnable", "blocked", "offline"}
GROUPS = {"waiting": {"runnable", "blocked"}, "on-cpu": {"running"},
          "all": {"unknown", "running", "runnable", "blocked", "offline"}}


def parse_cut(cut):
    states, _, rng = cut.partition("|")
    keep = set()
    for w in filter(None, states.split(",")):
        keep |= GROUPS.get(w, {w})
    lo, hi = None, None
    if rng:
        a, _, b = rng.partition("-")
        lo = round(float(a) * 1e9) if a else 0
        hi = round(float(b) * 1e9) if b else None
    return keep, (lo, hi) if rng else None


def keeps(keep, trange, state, rel):
    if keep and state not in keep:
        return False
    if trange is not None:
        lo, hi = trange
        if rel is None or rel < lo or (hi is not None and rel >= hi):
            return False
    return True


# ---- raw traces -------------------------------------------------------

def gen_raw(out, seed):
    rnd = random.Random(seed)
    frames = [0x401000 + 0x40 * i for i in range(12)]
    states = ["running", "running", "runnable", "blocked", "blocked", "offline"]
    with open(out, "w") as f:
        f.write("#unikernel stack tracer: uniprof-flame\n#tracing oracle\n\n")
        t = 5_000_000
        for rnd_i in range(400):
            t += rnd.randrange(9_000_000, 11_000_000)
            for tid in (11, 12, 13):
                depth = rnd.randrange(1, 6)
                stack = [rnd.choice(frames) for _ in range(depth)]
                if rnd_i % 97 == 5:        # an old-format stack: no #sample line
                    pass
                else:
                    f.write("#sample t_ns=%d state=%s thread=%d\n" % (t, rnd.choice(states), tid))
                f.write("".join("0x%x\n" % a for a in stack) + "1\n\n")


def read_raw(path):
    out, meta, frames = [], (None, "unknown"), []
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("#sample "):
            fields = dict(kv.split("=", 1) for kv in line.split()[1:])
            meta = (int(fields["t_ns"]) if "t_ns" in fields else None, fields.get("state", "unknown"))
        elif line.startswith("#"):
            continue
        elif line.startswith("0x"):
            frames.append("0x%x" % int(line, 16))
        elif line.isdigit():
            out.append((";".join(reversed(frames)), int(line) or 1, meta[1], meta[0]))
            frames, meta = [], (None, "unknown")
    return out


def cut_samples(samples, cut):
    keep, trange = parse_cut(cut)
    t0, res = None, []
    for stack, w, state, t in samples:
        if t is not None and t0 is None:
            t0 = t
        rel = None if t is None else t - t0
        if keeps(keep, trange, state, rel):
            if state in WAITING:
                stack += ";[%s]" % state
            res.append([stack, w, state, rel])
    return res


# ---- perf script ------------------------------------------------------

HEADER = re.compile(r"^(\S.+?)\s+(\d+)/*(\d+)*\s+")
EVENT = re.compile(r":\s*(\d+)*\s+(\S+):\s*$")
TIME = re.compile(r"\s(\d+)\.(\d+):")


def gen_perf(out, seed):
    rnd = random.Random(seed)
    funcs = ["compress", "hash", "match", "pool_wait", "futex_wait", "read_block", "main"]
    t = 1000.0
    with open(out, "w") as f:
        for i in range(600):
            t += rnd.uniform(0.0005, 0.004)
            tid = rnd.choice([201, 202, 203, 204])
            stack = [rnd.choice(funcs) for _ in range(rnd.randrange(1, 5))] + ["main", "_start"]
            if rnd.random() < 0.35:
                st = rnd.choice(["S", "D", "R", "R+", "T", "I"])
                nxt = rnd.choice([0, 201, 202, 203, 204])
                f.write("zstd 200/%d [001] %.6f: sched:sched_switch: prev_comm=zstd prev_pid=%d "
                        "prev_prio=120 prev_state=%s ==> next_comm=x next_pid=%d next_prio=120\n"
                        % (tid, t, tid, st, nxt))
                stack = ["__schedule", "schedule"] + stack
            else:
                f.write("zstd 200/%d %.6f: %d cpu-clock: \n" % (tid, t, 250000))
            for k, fn in enumerate(stack):
                f.write("\t%16x %s+0x%x (/usr/bin/zstd)\n" % (0x400000 + 16 * k, fn, k))
            f.write("\n")


def perf_records(path):
    """(header, frame lines) of each sample, in input order."""
    recs, cur = [], None
    for line in open(path, errors="surrogateescape"):
        line = line.rstrip("\n").rstrip("\r")
        if line.startswith("#"):
            continue
        if not line:
            if cur:
                recs.append(cur)
            cur = None
        elif not line[0].isspace() and HEADER.match(line):
            cur = [line, []]
        elif cur:
            cur[1].append(line)
    return recs


def state_of(header):
    if EVENT.search(header):
        return "running"
    m = re.search(r" sched:sched_switch: .*?prev_state=(\S)", header)
    if not m:
        return "unknown"
    c = m.group(1)
    return "runnable" if c == "R" else "offline" if c in "TtXZ" else \
        "blocked" if c in "SDIWKPN" else "unknown"


def read_perf(path, stackcollapse):
    recs = perf_records(path)
    info = []
    for h, _ in recs:
        m = HEADER.match(h)
        tid = int(m.group(3) if m.group(3) and m.group(3) != "0" else m.group(2))
        tm = TIME.search(h[m.end(0) - 1:])
        t = int(tm.group(1)) * 10**9 + int((tm.group(2) + "000000000")[:9]) if tm else None
        ev = EVENT.search(h)
        period = int(ev.group(1)) if ev and ev.group(1) and int(ev.group(1)) else 1
        nxt = re.search(r" next_pid=(\d+)", h)
        info.append(dict(comm=m.group(1).replace(" ", "_"), tid=tid, t=t, state=state_of(h),
                         period=period, next=int(nxt.group(1)) if nxt else None))
    last = max((i["t"] for i in info if i["t"] is not None), default=None)
    for k, i in enumerate(info):           # a wait weighs until its thread is back
        if i["state"] in WAITING and i["t"] is not None:
            end = last
            for j in info[k + 1:]:
                if j["tid"] == i["tid"] or j["next"] == i["tid"]:
                    end = j["t"]
                    break
            i["period"] = end - i["t"] if end is not None and end > i["t"] else 1
    # names: each sample under its own tag, through stackcollapse-perf.pl
    tagged = "".join("%s\n%s\n\n" % (HEADER.sub(lambda m: "S%d %s/%s " % (k, m.group(2), m.group(3) or ""), h, 1),
                                     "\n".join(fr)) for k, (h, fr) in enumerate(recs))
    folded = subprocess.run(["perl", stackcollapse], input=tagged.encode("utf-8", "surrogateescape"),
                            stdout=subprocess.PIPE, check=True).stdout.decode("utf-8", "surrogateescape")
    rest = {}
    for line in folded.splitlines():
        stack = line.rsplit(" ", 1)[0]
        tag, _, r = stack.partition(";")
        rest[int(tag[1:])] = r
    out = []
    for k, i in enumerate(info):
        if k not in rest or len(i["comm"]) < 2:
            continue
        stack = i["comm"] + (";" + rest[k] if rest[k] else "")
        out.append((stack, i["period"], i["state"], i["t"]))
    return out


# ---- comparisons ------------------------------------------------------

def as_folded(samples):
    d = {}
    for stack, w, _, _ in samples:
        d[stack] = d.get(stack, 0) + w
    return d


def read_folded(path):
    d = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        d[stack] = d.get(stack, 0) + float(n)
    return d


def same_folded(samples, path):
    want, got = as_folded(samples), read_folded(path)
    bad = [s for s in set(want) | set(got) if abs(want.get(s, 0) - got.get(s, 0)) > 1e-6 * max(1, want.get(s, 0))]
    if bad:
        s = sorted(bad)[0]
        print("%d stacks differ, e.g. %r: oracle %s, uniprof-flame %s" % (len(bad), s, want.get(s), got.get(s)))
        return 1
    print("%d stacks, %d samples" % (len(want), len(samples)))
    return 0


def read_pprof_raw(path):
    """go tool pprof -raw: [stack, value, state, time] per sample."""
    text = open(path).read()
    samples_txt = text.split("Samples:", 1)[1].split("Locations", 1)[0]
    locs_txt = text.split("Locations", 1)[1].split("Mappings", 1)[0]
    name = {}
    for line in locs_txt.splitlines():
        m = re.match(r"\s*(\d+): 0x[0-9a-f]+ M=\d+ (.*) \S*:\d+ s=\d+$", line)
        if m:
            name[m.group(1)] = m.group(2)
    out = []
    for line in samples_txt.splitlines()[2:]:
        m = re.match(r"\s*(\d+): ([\d ]+)$", line)
        if m:
            ids = m.group(2).split()
            out.append([";".join(name[i] for i in reversed(ids)), int(m.group(1)), "unknown", None])
            continue
        m = re.match(r"\s*state:\[(\w+)\]", line)
        if m and out:
            out[-1][2] = m.group(1)
        m = re.match(r"\s*time:\[(\d+) nanoseconds\]", line)
        if m and out:
            out[-1][3] = int(m.group(1))
    return out


def by_sample(samples):
    """(stack, state, time) -> weight: go tool pprof merges samples with
    the same locations and labels (two threads in one stack at one time)."""
    d = {}
    for s, w, st, t in samples:
        k = (s, st, t if t is not None else -1)
        d[k] = d.get(k, 0) + round(w)
    return d


def same_pprof(samples, path):
    want, got = by_sample(samples), by_sample(read_pprof_raw(path))
    if want != got:
        diff = [(k, want.get(k), got.get(k)) for k in set(want) | set(got) if want.get(k) != got.get(k)]
        print("samples differ (%d oracle, %d pprof): %r" % (len(want), len(got), sorted(diff)[:2]))
        return 1
    print("%d samples (%d at a distinct stack, state and time), each with its weight, state and time"
          % (len(samples), len(want)))
    return 0


def main(argv):
    cmd = argv[1]
    if cmd == "gen-raw":
        return gen_raw(argv[2], int(argv[3]))
    if cmd == "gen-perf":
        return gen_perf(argv[2], int(argv[3]))
    if cmd == "raw":
        json.dump(cut_samples(read_raw(argv[2]), argv[3]), sys.stdout)
    elif cmd == "perf":
        json.dump(cut_samples(read_perf(argv[2], argv[4]), argv[3]), sys.stdout)
    elif cmd == "same-folded":
        return same_folded(json.load(open(argv[2])), argv[3])
    elif cmd == "same-pprof":
        return same_pprof(json.load(open(argv[2])), argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv) or 0)
