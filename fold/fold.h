/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/fold.h — every room of fold/ at once, for tests, fuzzers and
 * bench/, which use all of them.  No module includes it: a module names
 * the rooms it uses, so docs/architecture.md's picture shows its true
 * arrows (tests/cli/t-layout.sh fails on an include of this header from
 * a module):
 *
 *   fold/model/model.h  the trie, metadata, libraries, source positions
 *   fold/in/in.h        readers and the format detector
 *   fold/out/out.h      folded, pprof and speedscope writers
 *   fold/embed/embed.h  the block an SVG embeds
 */
#ifndef UF_FOLD_H
#define UF_FOLD_H

#include "fold/model/model.h"
#include "fold/in/in.h"
#include "fold/out/out.h"
#include "fold/embed/embed.h"

#endif
