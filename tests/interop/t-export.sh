#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/interop/t-export.sh — pprof and speedscope files, read by the real
# tools: `go tool pprof` (Debian golang-go) and the speedscope app (npm,
# in headless Chromium), plus speedscope's published JSON schema (shipped
# in the npm package, checked with Debian's python3-jsonschema).
#
# For each export of a folded input: the pprof file rebuilt by
# `go tool pprof -raw` gives back exactly the folded stacks and counts;
# `-top` shows the same total and every function's flat count; the
# speedscope file validates, its samples and weights give back the folded
# stacks, and speedscope's Sandwich view lists the same top functions.
# Also: format by -o extension and by --format, stdout, byte-identical
# output for shuffled input, differential exports, and record's
# cpu/nanoseconds and time order, and its addresses, mappings and file:line
# (a Linux process, and a QEMU guest through its gdbstub).
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
here="$UF_TOP/tests/interop"
check="$here/check-export.py"
ref="$SHARED/perf-ref"
export GOCACHE="$TMP/gocache" GOFLAGS=-mod=mod HOME="${HOME:-$TMP}"

# the input: a real capture when the oracle is here, else a generated one
if [ -f "$ref/inputs/perf-vertx-stacks-01.txt" ]; then
	"$UF" fold "$ref/inputs/perf-vertx-stacks-01.txt" -o "$TMP/in.folded"
else
	awk 'BEGIN { for (i = 0; i < 300; i++) printf "main;f%d;g%d <lt>&\"q\" %d\n", i % 17, i % 5, i % 9 + 1 }' >"$TMP/in.folded"
	"$UF" fold "$TMP/in.folded" -o "$TMP/in.folded"
fi
total=$(awk '{s += $NF} END {print s}' "$TMP/in.folded")

# 1. pprof by extension, gzip-compressed
"$UF" fold "$TMP/in.folded" -o "$TMP/p.pb.gz" && [ "$(head -c 2 "$TMP/p.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] &&
	pass "pprof by -o .pb.gz, gzip" || fail "pprof by extension" "not gzip"
if ! command -v go >/dev/null 2>&1; then
	skip "go tool pprof" "no go (apt-get install golang-go)"
else
	go tool pprof -raw "$TMP/p.pb.gz" >"$TMP/raw.txt" 2>"$TMP/err" || fail "pprof -raw" "$(tail -1 "$TMP/err")"
	python3 "$check" pprof-raw "$TMP/in.folded" "$TMP/raw.txt" >"$TMP/out" &&
		pass "go tool pprof -raw: every stack and count equal the folded input" || fail "pprof -raw" "$(head -3 "$TMP/out")"
	go tool pprof -top -nodecount=1000000 "$TMP/p.pb.gz" >"$TMP/top.txt" 2>"$TMP/err"
	python3 "$check" pprof-top "$TMP/in.folded" "$TMP/top.txt" >"$TMP/out" &&
		pass "go tool pprof -top: total $total and flat per function equal" || fail "pprof -top" "$(head -3 "$TMP/out")"
	# a differential: two sample types, BEFORE's total on before_samples
	head -100 "$TMP/in.folded" >"$TMP/a.folded"
	"$UF" diff "$TMP/a.folded" "$TMP/in.folded" -o "$TMP/d.pb.gz" &&
		go tool pprof -sample_index=before_samples -top "$TMP/d.pb.gz" 2>/dev/null >"$TMP/dtop.txt" &&
		grep -q "of $(awk '{s += $NF} END {print s}' "$TMP/a.folded") total" "$TMP/dtop.txt" &&
		go tool pprof -sample_index=samples -top "$TMP/d.pb.gz" 2>/dev/null | grep -q "of $total total" &&
		pass "diff -o .pb.gz: before_samples and samples totals" || fail "diff pprof" "$(head -5 "$TMP/dtop.txt")"
	# record: cpu/nanoseconds = samples x period, the default sample type
	app="$UF_TOP/build/examples/app-test-1"
	if [ -x "$app" ]; then
		timeout 60 "$UF" record -q -F 200 -o "$TMP/rec.pb.gz" --folded "$TMP/rec.folded" -- "$app" 1.5 >/dev/null 2>&1
		n=$(awk '{s += $NF} END {print s}' "$TMP/rec.folded")
		go tool pprof -raw "$TMP/rec.pb.gz" 2>/dev/null >"$TMP/rraw.txt"
		# every sample line: "count ns: ids" with ns = count * 5 ms
		bad=$(awk '/^Samples:/ {s = 1; next} /^Locations/ {s = 0} s && /^ *[0-9]+ +[0-9]+:/ {
			c = $1; v = $2; sub(":", "", v); n += c; if (v != c * 5000000) b++ } END { print (n ? b + 0 : "none") ":" n }' "$TMP/rraw.txt")
		[ "$bad" = "0:$n" ] && go tool pprof -top "$TMP/rec.pb.gz" 2>/dev/null | grep -q '^Type: cpu$' &&
			pass "record -o .pb.gz: cpu/nanoseconds = samples x 5 ms ($n samples), default type cpu" ||
			fail "record pprof" "bad:n=$bad samples=$n"
		# with -x: addresses, the ELF mapping and its build id, file:line from DWARF
		timeout 60 "$UF" record -q -F 200 -x "$app" -o "$TMP/recx.pb.gz" -- "$app" 1 >/dev/null 2>&1
		bid=$(readelf -n "$app" 2>/dev/null | sed -n 's/.*Build ID: *//p' | head -1)
		go tool pprof -raw "$TMP/recx.pb.gz" 2>/dev/null >"$TMP/xraw.txt"
		grep -qE "^1: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ $app $bid \[FN\]\[FL\]\[LN\]$" "$TMP/xraw.txt" &&
			pass "record -x -o .pb.gz: mapping of the ELF with its build id $bid, lines" ||
			fail "record pprof mapping" "$(sed -n '/^Mappings/,$p' "$TMP/xraw.txt" | head -3)"
		go tool pprof -lines -top "$TMP/recx.pb.gz" 2>/dev/null | grep -qE ' function_3 workloads/workloads\.c:[0-9]+$' &&
			grep -qE '^ +[0-9]+: 0x[0-9a-f]+ M=1 function_3 workloads/workloads\.c:[0-9]+ s=0$' "$TMP/xraw.txt" &&
			pass "record -x -o .pb.gz: addresses and file:line (go tool pprof -lines)" ||
			fail "record pprof lines" "$(grep function_3 "$TMP/xraw.txt" | head -2)"
		# mapping 1 is the program (profile.proto: mapping[0] is the main
		# binary): with the work in a shared library most stacks start
		# there, and a writer in sample-table order put the library first
		appso="$UF_TOP/build/examples/app-test-1-so"
		timeout 60 "$UF" record -q -F 200 -x "$appso" -o "$TMP/recso.pb.gz" -- "$appso" 1 >/dev/null 2>&1
		python3 "$check" pprof-mappings "$TMP/recso.pb.gz" >"$TMP/somaps.txt" 2>&1
		python3 "$check" pprof-mappings "$TMP/recx.pb.gz" >"$TMP/xmaps.txt" 2>&1
		[ "$(sed -n 1p "$TMP/somaps.txt")" = "$appso" ] && grep -qx "$UF_TOP/build/examples/libufwork.so" "$TMP/somaps.txt" &&
			[ "$(sed -n 1p "$TMP/xmaps.txt")" = "$app" ] &&
			pass "record -x -o .pb.gz: mapping 1 is the program, before the library that holds the work" ||
			fail "record pprof mapping order" "$(cat "$TMP/somaps.txt" "$TMP/xmaps.txt" | tr '\n' ' ')"
	else
		skip "record pprof" "examples not built (make examples)"
	fi
fi

# a QEMU guest through its gdbstub: the guest image as the mapping, file:line
# from its DWARF (holds the QEMU lock: one boot at a time on this machine)
G="$UF_TOP/build/examples/qemu-guest"
if ! command -v go >/dev/null 2>&1; then
	:
elif ! command -v qemu-system-x86_64 >/dev/null 2>&1 || [ ! -f "$G/qemu-guest.elf" ]; then
	skip "record guest pprof" "qemu-system-x86_64 or the example guest (make examples) missing"
else
	sock="$TMP/gs"
	timeout 300 flock /tmp/uf-qemu.lock bash -c "timeout 15 qemu-system-x86_64 -accel tcg -m 64 \
		-nodefaults -display none -serial null -kernel '$G/qemu-guest.elf' -append app-test-1 \
		-gdb unix:'$sock',server=on,wait=off & sleep 3
		'$UF' -q --gdb unix:'$sock' -x '$G/qemu-guest.dbg' -T 3 -F 50 -o '$TMP/guest.pb.gz'; wait" \
		>"$TMP/guest.log" 2>&1
	go tool pprof -raw "$TMP/guest.pb.gz" 2>/dev/null >"$TMP/graw.txt"
	grep -qE "^1: 0x0/0xffffffffffffffff/0x0 $G/qemu-guest.dbg +\[FN\]\[FL\]\[LN\]$" "$TMP/graw.txt" &&
		go tool pprof -lines -top "$TMP/guest.pb.gz" 2>/dev/null | grep -qE ' function_3 \S*workloads\.c:[0-9]+$' &&
		pass "record --gdb -o .pb.gz: guest image mapping, file:line from its DWARF" ||
		fail "record guest pprof" "$(tail -2 "$TMP/guest.log") $(sed -n '/^Mappings/,$p' "$TMP/graw.txt")"
fi

# 2. speedscope: schema (from the npm package) and totals
npm_ok=1
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	npm_ok=0; skip speedscope "node/npm not installed (apt-get install nodejs npm)"
else
	want=$(node -p "require('$here/package-lock.json').packages['node_modules/speedscope'].version")
	have=$(node -p "try { require('$here/node_modules/speedscope/package.json').version } catch (e) { '' }")
	if [ "$want" != "$have" ] && ! (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >"$TMP/npm.log" 2>&1; then
		npm_ok=0; fail speedscope-deps "npm ci failed: $(tail -1 "$TMP/npm.log")"
	fi
fi
schema="$here/node_modules/speedscope/dist/release/file-format-schema.json"
"$UF" fold "$TMP/in.folded" -o "$TMP/s.speedscope.json" || fail "speedscope write" "exit $?"
if [ $npm_ok = 1 ] && [ -f "$schema" ]; then
	python3 "$check" speedscope "$TMP/in.folded" "$TMP/s.speedscope.json" "$schema" >"$TMP/out" 2>&1 &&
		pass "speedscope: valid against speedscope's schema; stacks, weights, endValue equal" ||
		fail "speedscope schema/totals" "$(tail -3 "$TMP/out")"
	# record: time order, nanoseconds
	app="$UF_TOP/build/examples/app-test-1"
	if [ -x "$app" ]; then
		timeout 60 "$UF" record -q -F 200 -o "$TMP/rec.speedscope.json" --folded "$TMP/rec2.folded" -- "$app" 1 >/dev/null 2>&1
		python3 "$check" speedscope "$TMP/rec2.folded" "$TMP/rec.speedscope.json" "$schema" --ns 5000000 >"$TMP/out" 2>&1 &&
			python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['profiles'][0]; sys.exit(not (p['unit']=='nanoseconds' and len(p['samples']) == sum(w/5e6 for w in p['weights'])))" "$TMP/rec.speedscope.json" &&
			pass "record -o .speedscope.json: one sample per recorded stack (time order), nanoseconds" ||
			fail "record speedscope" "$(tail -3 "$TMP/out")"
	fi
	# the real app: top functions in its Sandwich view
	python3 - "$TMP/in.folded" >"$TMP/expect.tsv" <<'PY'
import collections, sys
self = collections.Counter()
for line in open(sys.argv[1], encoding="utf-8"):
    stack, _, n = line.rstrip("\n").rpartition(" ")
    self[stack.split(";")[-1]] += int(float(n))
rows = sorted(self.items(), key=lambda kv: (-kv[1], kv[0]))
# only rows whose rank is unambiguous (no tie with the next one)
out = []
for i, (name, v) in enumerate(rows[:6]):
    if i + 1 < len(rows) and rows[i + 1][1] == v:
        break
    out.append(f"{v}\t{name}")
print("\n".join(out))
PY
	if [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
		timeout 300 node "$here/test-speedscope.js" "$TMP/s.speedscope.json" "$TMP/expect.tsv" speedscope-app 2>&1 | grep -E '^(PASS|FAIL|SKIP): ' ||
			fail speedscope-app "no result"
	else
		skip speedscope-app "no chromium (apt-get install chromium)"
	fi
fi

# 3. --format over the extension, stdout, and every command
"$UF" fold "$TMP/in.folded" --format pprof -o - >"$TMP/stdout.pb" && cmp -s "$TMP/stdout.pb" "$TMP/p.pb.gz" &&
	pass "--format pprof to stdout (same bytes)" || fail "--format pprof stdout" differs
"$UF" render "$TMP/in.folded" --format speedscope -o "$TMP/x.svg" && head -c 12 "$TMP/x.svg" | grep -q '^{"\$schema"' &&
	pass "render --format speedscope wins over .svg" || fail "render --format speedscope" "$(head -c 40 "$TMP/x.svg")"
mkdir -p "$TMP/r" "$TMP/shuf"
"$UF" render "$TMP/in.folded" -o "$TMP/r/s.speedscope.json" && cmp -s "$TMP/r/s.speedscope.json" "$TMP/s.speedscope.json" &&
	pass "render -o .speedscope.json" || fail "render speedscope" differs
"$UF" fold "$TMP/in.folded" -o "$TMP/f.svg" && head -c 5 "$TMP/f.svg" | grep -q '^<?xml' &&
	"$UF" fold "$TMP/f.svg" | cmp -s - "$TMP/in.folded" &&
	pass "fold -o .svg draws an SVG (that folds back)" || fail "fold -o .svg" "$(head -c 60 "$TMP/f.svg")"
"$UF" fold "$TMP/in.folded" --format folded -o "$TMP/f.pb.gz" && cmp -s "$TMP/f.pb.gz" "$TMP/in.folded" &&
	pass "--format folded wins over .pb.gz" || fail "--format folded" differs

# 4. same bytes for any input line order
shuf "$TMP/in.folded" >"$TMP/shuf.folded" 2>/dev/null || sort -r "$TMP/in.folded" >"$TMP/shuf.folded"
"$UF" fold "$TMP/shuf.folded" -o "$TMP/p2.pb.gz" && cmp -s "$TMP/p2.pb.gz" "$TMP/p.pb.gz" &&
	"$UF" fold "$TMP/shuf.folded" -o "$TMP/shuf/s.speedscope.json" && cmp -s "$TMP/shuf/s.speedscope.json" "$TMP/s.speedscope.json" &&
	pass "exports identical for shuffled input" || fail "exports deterministic" differs

# 5. hostile names: valid JSON, valid UTF-8
printf 'a;\x01ctl\x7f;"q"\\b;\xff\xfe bad;ok\xc3\xa9 3\n' >"$TMP/hostile.folded"
"$UF" fold "$TMP/hostile.folded" -o "$TMP/h.speedscope.json" &&
	python3 -c "import json,sys; d=json.load(open(sys.argv[1], encoding='utf-8')); n=[f['name'] for f in d['shared']['frames']]; sys.exit(not ('\x01ctl\x7f' in n and '\"q\"\\\\b' in n and 'ok\u00e9' in n and '\ufffd\ufffd bad' in n))" "$TMP/h.speedscope.json" &&
	pass "speedscope: control bytes, quotes, invalid UTF-8 escaped" || fail "speedscope hostile names" "$(cat "$TMP/h.speedscope.json" | head -c 300)"
