/*
 * render/namemap.h — name -> string maps read from user files (private):
 * --cp's palette.map ("NAME->rgb(r,g,b)") and --nameattr's
 * ("NAME<TAB>attr=value<TAB>...").  A sorted flat array, binary searched;
 * entries added while rendering are appended and merged on save.
 */
#ifndef UF_RENDER_NAMEMAP_H
#define UF_RENDER_NAMEMAP_H

#include <stddef.h>

#include "util/err.h"

struct namemap_entry {
	char *name;
	size_t len;
	char *value;
};

struct namemap {
	struct namemap_entry *e;
	size_t n, cap;
	size_t sorted;     /* e[0..sorted) is sorted; the rest was appended */
};

/* Reads `path`; a missing file is an empty map when `missing_ok`.  `sep`
 * is "->" (palette) or "\t" (nameattr).  Returns 0 or <0 with *err. */
int namemap_load(struct namemap *m, const char *path, const char *sep, int missing_ok,
		 struct uf_err *err);
/* The value for name, or NULL. */
const char *namemap_get(const struct namemap *m, const char *name, size_t len);
/* Adds name -> value (both copied).  Returns 0 or -ENOMEM. */
int namemap_add(struct namemap *m, const char *name, size_t len, const char *value);
/* Writes "NAME->VALUE" lines sorted by name, atomically.  0 or <0 with *err. */
int namemap_save_palette(struct namemap *m, const char *path, struct uf_err *err);
void namemap_release(struct namemap *m);

#endif
