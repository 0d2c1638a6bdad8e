/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/meta.c — what a trie says about itself besides its counts:
 * the metadata text (how it was recorded: "key: value" lines, t->meta)
 * and the library each name belongs to (t->lib_of).
 *
 * Both are the model's: readers fill them (a folded comment line, the
 * SVG's metadata), record sets them, writers and the block only copy
 * them out.  They lived in the block writer (fold/embed/embed.c) until
 * fold/ was split into rooms; the model must not depend on the block.
 *
 * Trade-off: t->meta is one fixed FOLD_META_MAX buffer, looked up by a
 * linear scan: a handful of lines, read a few times per run.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold/model/model.h"

int fold_meta_add(fold_trie *t, const char *key, const char *value)
{
	size_t dummy;
	if (fold_meta_get(t, key, &dummy))
		return 0;
	size_t have = strlen(t->meta), klen = strlen(key), vlen = strlen(value);
	if (vlen > 1000)
		vlen = 1000;
	if (have + klen + 2 + vlen + 2 > sizeof t->meta)
		return -ENOSPC;
	char *p = t->meta + have;
	memcpy(p, key, klen);
	p += klen;
	*p++ = ':';
	*p++ = ' ';
	for (size_t i = 0; i < vlen; i++) {
		unsigned char c = (unsigned char)value[i];
		*p++ = c < 0x20 || c >= 0x7f ? '?' : (char)c;
	}
	*p++ = '\n';
	*p = 0;
	return 0;
}

int fold_trie_set_lib(fold_trie *t, uint32_t name, const char *lib, size_t len)
{
	uint32_t l = fold_trie_intern(t, lib, len);
	if (l == FOLD_NONE)
		return -ENOMEM;
	if (name >= t->lib_cap) {
		uint32_t nc = t->lib_cap ? t->lib_cap : 256;
		while (nc <= name)
			nc *= 2;
		uint32_t *p = realloc(t->lib_of, (size_t)nc * sizeof *p);
		if (!p)
			return -ENOMEM;
		memset(p + t->lib_cap, 0, (size_t)(nc - t->lib_cap) * sizeof *p);
		t->lib_of = p;
		t->lib_cap = nc;
	}
	t->lib_of[name] = l + 1;
	return 0;
}

uint32_t fold_trie_lib(const fold_trie *t, uint32_t name)
{
	return name < t->lib_cap && t->lib_of[name] ? t->lib_of[name] - 1 : FOLD_NONE;
}

void fold_meta_from_comment(fold_trie *t, const char *s, size_t len)
{
	char key[64], val[1001];
	size_t i = 1, k = 0;
	while (i < len && s[i] == ' ')
		i++;
	while (i < len && k < sizeof key - 1 && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_'))
		key[k++] = s[i++];
	key[k] = 0;
	if (!k || len - i < 4 || memcmp(s + i, ": \"", 3) || s[len - 1] != '"')
		return;
	size_t vlen = len - i - 4 < sizeof val - 1 ? len - i - 4 : sizeof val - 1;
	memcpy(val, s + i + 3, vlen);
	val[vlen] = 0;
	fold_meta_add(t, key, val);
}

const char *fold_meta_get(const fold_trie *t, const char *key, size_t *len)
{
	size_t klen = strlen(key);
	for (const char *p = t->meta; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (n >= klen + 2 && !memcmp(p, key, klen) && p[klen] == ':' && p[klen + 1] == ' ') {
			*len = n - klen - 2;
			return p + klen + 2;
		}
		p += nl ? n + 1 : n;
	}
	return NULL;
}
