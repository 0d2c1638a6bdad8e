#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# flamegraph.pl drop-in matrix (tests/render/dropin.py): every flamegraph.pl
# option in its four spellings (--opt V, --opt=V, -opt V, -opt=V), every
# palette's background and frames, against flamegraph.pl itself when a
# FlameGraph checkout is at ~/.cache/uniprof-flame/FlameGraph (or
# UF_FLAMEGRAPH_PL names flamegraph.pl); it is never part of this tree.
source "$(dirname "$0")/../lib.sh"
REF="$SHARED/flamegraph-ref"
FG="${UF_FLAMEGRAPH_PL:-$HOME/.cache/uniprof-flame/FlameGraph/flamegraph.pl}"
if [ ! -f "$REF/cases.tsv" ]; then
	skip "dropin" "no ../shared/flamegraph-ref here (its inputs drive the matrix)"
	exit 0
fi
command -v perl >/dev/null || FG=/nonexistent
python3 "$UF_TOP/tests/render/dropin.py" "$UF" "$REF" "$FG"
