/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/fold.h — every room of fold/ at once, for callers not yet moved to
 * the room headers (render/, sampler/, cli/record code: their owners switch
 * them).  New code includes only the rooms it uses:
 *
 *   fold/model/model.h  the trie, metadata, libraries, source positions
 *   fold/in/in.h        readers and the format detector
 *   fold/out/out.h      folded, pprof and speedscope writers
 *   fold/embed/embed.h  the block an SVG embeds
 *
 * docs/architecture.md draws the rooms; tests/cli/t-layout.sh checks them.
 */
#ifndef UF_FOLD_H
#define UF_FOLD_H

#include "fold/model/model.h"
#include "fold/in/in.h"
#include "fold/out/out.h"
#include "fold/embed/embed.h"

#endif
