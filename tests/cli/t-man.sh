#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/cli/t-man.sh — the manual page and the bash completion against the
# program: every option that `COMMAND --help` lists (every command) is
# described in uniprof-flame.1 and offered by the completion for that
# command; groff reads the page without a warning; the completion offers
# the commands, --format's values and files where a path goes; and
# `make install DESTDIR=...` installs the binary, the page (readable by
# `man -l`) and the completion.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
page="$UF_TOP/uniprof-flame.1"
comp="$UF_TOP/scripts/uniprof-flame.bash"

if command -v groff >/dev/null 2>&1; then
	groff -man -ww -z "$page" >"$TMP/groff.err" 2>&1
	[ ! -s "$TMP/groff.err" ] && pass "man: groff reads it without warnings" || fail "man: groff" "$(head -2 "$TMP/groff.err")"
else
	skip "man: groff" "groff not installed"
fi
# the page's text with roff escapes undone: \- is -, \fB etc. dropped
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$page")

# help_opts CMD: the options --help lists for CMD (long, then short)
help_opts() {
	"$UF_REL" "$1" --help | grep -E '^[[:space:]]+-' | grep -oE '(^|[[:space:],])--?[a-zA-Z][a-zA-Z0-9-]*' |
		sed -E 's/^[[:space:],]+//' | sort -u
}

# a fake COMP_WORDS run of the completion in a fresh bash: prints COMPREPLY
complete_words() {
	PATH="$(dirname "$UF_REL"):$PATH" bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
		_uniprof_flame; printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$@"
}

for cmd in render fold diff record; do
	missing_man="" missing_comp=""
	offered=$(complete_words uniprof-flame "$cmd" -)
	[ "$cmd" = record ] && offered=$(complete_words uniprof-flame -p 1 -)
	for o in $(help_opts "$cmd"); do
		[ "$o" = -h ] || [ "$o" = --help ] && continue
		case $o in --*) ;; *) [ ${#o} -gt 2 ] && continue ;; esac # "-title": the one-dash spelling
		grep -qF -- "$o" <<<"$text" || missing_man="$missing_man $o"
		grep -qxE -- "$o=?" <<<"$offered" || missing_comp="$missing_comp $o"
	done
	[ -z "$missing_man" ] && pass "man: every option of $cmd --help" || fail "man: $cmd options" "not in uniprof-flame.1:$missing_man"
	[ -z "$missing_comp" ] && pass "completion: every option of $cmd --help" || fail "completion: $cmd options" "not offered:$missing_comp"
done

got=$(complete_words uniprof-flame "" | tr '\n' ' ')
[ "$got" = "render fold diff record " ] && pass "completion: commands" || fail "completion: commands" "$got"
got=$(complete_words uniprof-flame fold --format "" | tr '\n' ' ')
[ "$got" = "svg folded pprof speedscope perf " ] && pass "completion: --format values" || fail "completion: --format" "$got"
got=$(complete_words uniprof-flame -o out.svg --format "" | tr '\n' ' ')
[ "$got" = "svg folded pprof speedscope " ] && pass "completion: record's --format has no perf" || fail "completion: record --format" "$got"
touch "$TMP/capture-one.txt"
got=$(cd "$TMP" && complete_words uniprof-flame render --kernel capture-)
[ "$got" = capture-one.txt ] && pass "completion: input files" || fail "completion: input files" "$got"

# make install into a private tree
if make -C "$UF_TOP" -s install DESTDIR="$TMP/root" PREFIX=/usr >"$TMP/install.log" 2>&1; then
	r="$TMP/root/usr"
	[ -x "$r/bin/uniprof-flame" ] && [ -f "$r/share/man/man1/uniprof-flame.1" ] &&
		[ -f "$r/share/bash-completion/completions/uniprof-flame" ] &&
		pass "make install: binary, man page, completion" || fail "make install" "$(find "$TMP/root" -type f)"
	if command -v man >/dev/null 2>&1; then
		MANWIDTH=80 man -l "$r/share/man/man1/uniprof-flame.1" 2>/dev/null | grep -q 'event-filter EVENT' &&
			pass "man -l renders the installed page" || fail "man -l" "no event-filter entry in the rendering"
	fi
else
	fail "make install" "$(tail -2 "$TMP/install.log")"
fi
