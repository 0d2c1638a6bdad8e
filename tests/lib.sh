# SPDX-License-Identifier: BSD-3-Clause
# tests/lib.sh — helpers for end-to-end test scripts (source it).
#
#   pass NAME            a check held
#   fail NAME WHY        a check failed
#   skip NAME WHY        cannot run here (counts as a failure when CI=true)
#   check NAME CMD...    pass if CMD succeeds, else fail
# $UF is the binary under test (ASan build by default), $UF_REL the release
# build (for what ASan would make too slow), $UF_TOP the tree.
UF="${UF:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/asan/uniprof-flame}"
UF_TOP="${UF_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
UF_REL="${UF_REL:-$UF_TOP/build/uniprof-flame}"
SHARED="${SHARED:-$UF_TOP/../shared}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/uf-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: ${2:-}"; }
skip() { echo "SKIP: $1: ${2:-}"; }
check() {
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name" "command failed: $*"; fi
}
