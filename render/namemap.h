/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/namemap.h — name -> string maps read from user files (private):
 * --cp's palette.map ("NAME->rgb(r,g,b)") and --nameattr's
 * ("NAME<TAB>attr=value<TAB>...").  NAME uses folded text's escape
 * (fold_name_escape: '\n' and ';' as "\xHH"), decoded on load and
 * applied on save, so a name cannot forge a line.
 *
 * A flat array of entries plus an open-addressing hash index (entry
 * index + 1 per slot, 0 = empty), so a render that adds 100k new names
 * to a palette stays linear: lookups and additions are O(1) expected,
 * the save sorts once.  The hash is seeded per map from getrandom(), so
 * a crafted file cannot make every name collide; output never depends on
 * the seed (saves are sorted by name).
 *
 * Invariants:
 *  1. Names are unique: adding an existing name replaces its value (the
 *     later line of a file wins, as in flamegraph.pl).
 *  2. slots has a power-of-two size at least twice n.
 */
#ifndef UF_RENDER_NAMEMAP_H
#define UF_RENDER_NAMEMAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

struct namemap_entry {
	char *name;        /* owned, NUL-terminated (names may hold NUL too: use len) */
	size_t len;
	char *value;       /* owned */
};

struct namemap {
	struct namemap_entry *e;
	size_t n, cap;
	uint32_t *slots;   /* entry index + 1, 0 = empty */
	size_t mask;       /* slots size - 1 (0 when no slots yet) */
	uint64_t seed;
};

/* Reads `path` (a regular file only; opened without blocking, so a FIFO
 * or device there is an error, not a hang); a missing file is an empty
 * map when `missing_ok`.  `sep` is "->" (palette) or "\t" (nameattr).
 * Returns 0 or <0 with *err. */
int namemap_load(struct namemap *m, const char *path, const char *sep, int missing_ok,
		 struct uf_err *err);
/* The value for name (borrowed from the map), or NULL. */
const char *namemap_get(const struct namemap *m, const char *name, size_t len);
/* Sets name -> value (both copied).  Returns 0 or -ENOMEM. */
int namemap_add(struct namemap *m, const char *name, size_t len, const char *value);
/* Writes "NAME->VALUE" lines sorted by name, atomically (util/outfile).
 * 0 or <0 with *err. */
int namemap_save_palette(struct namemap *m, const char *path, struct uf_err *err);
void namemap_release(struct namemap *m);

#endif
