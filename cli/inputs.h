/*
 * cli/inputs.h — reading the input files of render, fold and diff into
 * one trie, with the warnings a user needs (bad lines once, with the
 * first FILE:LINE; truncated stacks; pruned embedded data).
 */
#ifndef UF_CLI_INPUTS_H
#define UF_CLI_INPUTS_H

#include "fold/fold.h"
#include "util/err.h"

/* Reads paths[0..n) ("-" = stdin; n == 0 reads stdin) into t and calls
 * fold_trie_finish.  No valid stack at all is an error (UF_EINPUT). */
int cli_read_inputs(fold_trie *t, char **paths, int n, int reverse, struct uf_err *err);

#endif
