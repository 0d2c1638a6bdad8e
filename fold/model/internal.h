/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/internal.h — the model room's private calls, between its
 * own files (trie.c defines them); no other room includes this.  What
 * readers may call to build a trie in bulk is public, in model.h.
 */
#ifndef UF_FOLD_MODEL_INTERNAL_H
#define UF_FOLD_MODEL_INTERNAL_H

#include "fold/model/model.h"

/* Appends a child that the caller knows is new (sorted input); marks the
 * (parent, name) index stale.  FOLD_NONE on OOM or past FOLD_MAX_NODES. */
uint32_t fold_trie_append(fold_trie *t, uint32_t parent, uint32_t name);
/* Grows the name table for `names` names at once (one rehash, not one
 * per doubling).  Returns 0 or -ENOMEM. */
int fold_trie_reserve_names(fold_trie *t, uint32_t names);

#endif
