#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/cli/t-layout.sh — the layout picture in docs/architecture.md
# matches the code: tests/cli/layout_check.py reads every `#include` between
# modules and fails on an arrow running up a layer, an include cycle, an
# undeclared folder, or an arrow the picture lacks (or draws but the code
# no longer has), a private header included from another module, or
# libc's capitalised strerror()/%m text; and, from the release build's
# objects (build/rel, which `make all` leaves), a call into a module the
# picture gives no arrow to (a link-time arrow, rule 7).  The checker is
# then shown to fail on a copy of the tree with each of these planted.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
chk="$UF_TOP/tests/cli/layout_check.py"

if out=$(python3 "$chk" --root "$UF_TOP" 2>&1); then
	pass "layout: the code matches docs/architecture.md ($out)"
else
	fail "layout: the code breaks docs/architecture.md" "$(echo "$out" | tr '\n' '|')"
fi

objs="$UF_TOP/build/rel"
if [ ! -d "$objs/fold/model" ]; then
	fail "layout: link-time arrows" "no objects in $objs (run make all first)"
elif out=$(python3 "$chk" --root "$UF_TOP" --objects "$objs" 2>&1); then
	pass "layout: every call between modules follows an arrow of the picture"
else
	fail "layout: a call between modules the picture lacks" "$(echo "$out" | tr '\n' '|')"
fi

# copy_tree: a copy of the sources and docs/architecture.md in $TMP/tree
copy_tree() {
	rm -rf "$TMP/tree"
	mkdir -p "$TMP/tree"
	(cd "$UF_TOP" && find . \( -path ./build -o -path ./.git -o -path ./tests -o -path ./bench \
		-o -path ./examples \) -prune -o \( -name '*.[ch]' -o -path ./docs/architecture.md \) -print0 |
		xargs -0 cp --parents -t "$TMP/tree")
}

# expect_fail NAME PATTERN: the checker on $TMP/tree exits 1 naming PATTERN
expect_fail() {
	local out rc
	out=$(python3 "$chk" --root "$TMP/tree" 2>&1); rc=$?
	if [ "$rc" = 1 ] && grep -q -- "$2" <<<"$out"; then
		pass "layout: $1 is refused"
	else
		fail "layout: $1" "exit $rc, want 1 and /$2/: $(echo "$out" | tr '\n' '|')"
	fi
}

copy_tree
echo '#include "render/render.h"' >> "$TMP/tree/util/vec.h"
expect_fail "an upward include (util/ -> render/)" "upward arrow: util (layer 0) -> render"

copy_tree
echo '#include "symtab/symtab.h"' >> "$TMP/tree/unwind/unwind.h"
echo '#include "unwind/unwind.h"' >> "$TMP/tree/symtab/symtab.h"
expect_fail "a cycle (unwind/ <-> symtab/)" "include cycle between modules: symtab <-> unwind"

copy_tree
echo '#include "fold/in/in.h"' >> "$TMP/tree/fold/model/model.h"
expect_fail "the model including a room above it" "upward arrow: fold/model (layer 1) -> fold/in"

copy_tree
mkdir -p "$TMP/tree/newmod" && echo 'int x;' > "$TMP/tree/newmod/a.c"
expect_fail "a folder the picture lacks" "undeclared module: newmod/"

copy_tree
sed -i 's/^render       4      fold\/embed fold\/model util$/render       4      fold\/embed fold\/model util symtab/' "$TMP/tree/docs/architecture.md"
expect_fail "an arrow drawn but not in the code" "arrow in the picture but not in the code: render -> symtab"

copy_tree
echo '#include "fold/in/internal.h"' >> "$TMP/tree/fold/out/write-folded.c"
expect_fail "another room's private header" "private header of another module: fold/out/write-folded.c includes fold/in/internal.h"

copy_tree
printf 'static const char *f(int e) { return strerror(e); }\n' >> "$TMP/tree/fold/in/detect.c"
expect_fail "libc's capitalised strerror()" "libc's capitalised message: fold/in/detect.c:"

copy_tree
printf 'static void f(void) { fprintf(stderr, "x: %%m\\n"); }\n' >> "$TMP/tree/cli/common.c"
expect_fail "a printf %m" "libc's capitalised message: cli/common.c:"

# the model calling the input room (fold_sort_names' body was in fold/in
# until issue 29's last debt): a planted object of fold/model using a
# fold/in function, beside the real objects of both rooms
copy_tree
mkdir -p "$TMP/objs/fold/model" "$TMP/objs/fold/in"
cp "$objs"/fold/model/*.o "$TMP/objs/fold/model/" && cp "$objs"/fold/in/*.o "$TMP/objs/fold/in/"
printf 'int fold_read_path(void);\nint planted(void) { return fold_read_path(); }\n' \
	> "$TMP/tree/fold/model/planted.c"
cc -c -o "$TMP/objs/fold/model/planted.o" "$TMP/tree/fold/model/planted.c"
out=$(python3 "$chk" --root "$TMP/tree" --objects "$TMP/objs" 2>&1); rc=$?
want="link-time arrow not in the picture: fold/model -> fold/in: fold/model/planted.o uses fold_read_path"
if [ "$rc" = 1 ] && grep -qF -- "$want" <<<"$out"; then
	pass "layout: a link-time arrow from the model to the input room is refused"
else
	fail "layout: a link-time arrow from the model to the input room" \
		"exit $rc, want 1 and /$want/: $(echo "$out" | tr '\n' '|')"
fi
