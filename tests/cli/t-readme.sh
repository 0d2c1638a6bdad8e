#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# README.md against the program (tests/cli/readme_check.py): every option of
# every command in the code, in --help and in the README's tables, the same
# three sets; the package list of `make check`; the raw trace header.
source "$(dirname "$0")/../lib.sh"
python3 "$UF_TOP/tests/cli/readme_check.py" "$UF" "$UF_TOP"

# the raw trace header shown in the README is the one written
want=$(sed -n '/^    #unikernel stack tracer/,/^    #tracing/p' "$UF_TOP/README.md" | sed 's/^    //')
sleep 30 & pid=$!
"$UF" -p $pid -T 0.3 -q --raw "$TMP/p.raw" 2>/dev/null
kill $pid 2>/dev/null; wait $pid 2>/dev/null
shape() { sed -E "2s/pid [0-9]+/pid N/; 2s/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}/DATE/" | head -2; }
got=$(shape < "$TMP/p.raw"); doc=$(echo "$want" | shape)
[ -n "$doc" ] && [ "$got" = "$doc" ] && pass "readme raw trace header is the one written" ||
	fail "readme raw trace header" "README: $doc | written: $got"

# the static binary: the size the README gives, libxml2 not linked in
S="$UF_TOP/build/uniprof-flame-static"
mb=$(grep -o 'static binary (about [0-9.]* MB)' "$UF_TOP/README.md" | grep -o '[0-9.]*')
# built here when missing (the Xen suite, which also builds it, runs later)
[ -x "$S" ] || make -s -C "$UF_TOP" build/uniprof-flame-static >/dev/null 2>&1
if [ ! -x "$S" ]; then
	skip "readme static binary" "build/uniprof-flame-static not built (make build/uniprof-flame-static; the Xen test builds it)"
elif [ -z "$mb" ]; then
	fail "readme static binary" "README no longer says 'static binary (about N MB)'"
else
	size=$(stat -c %s "$S")
	if awk -v s="$size" -v m="$mb" 'BEGIN { exit !(s > m * 0.6e6 && s < m * 1.5e6) }' &&
		! nm "$S" 2>/dev/null | grep -q ' T xmlTextReaderRead$'; then
		pass "readme static binary: $size bytes (README: about $mb MB), libxml2 not linked in"
	else
		fail "readme static binary" "$size bytes, README says about $mb MB (or libxml2 linked in)"
	fi
fi
