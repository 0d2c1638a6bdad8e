/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/out/write-raw.c — the one writer of uniprof's raw trace format
 * (the format is described once, in fold/in/in.h, beside its one reader
 * fold/in/read-raw.c).  `record --raw` writes through it
 * (sampler_write_raw), and the tests write their traces with it, so the
 * tested writer is the shipped one.
 *
 * Design: addresses as "0x%x" (never a bare "0"), one "#sample" line
 * per stack only when something about the sample is known, so a trace
 * without times or states is byte for byte uniprof's format.  The header
 * names no interface and no clock: the same samples give the same file.
 *
 * Invariant: whatever this writes, fold_raw_read_* reads back as the same
 * stacks, counts, times and states (tests/unit/test-sampler.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "fold/out/out.h"

int fold_raw_write_header(FILE *out, const char *what)
{
	fprintf(out, "#unikernel stack tracer: uniprof-flame\n#tracing %s\n\n", what ? what : "");
	return ferror(out) ? -EIO : 0;
}

int fold_raw_write_sample(FILE *out, const struct fold_raw_sample *s, const uint64_t *addrs,
			  size_t n, int complete)
{
	if (s && (s->t_ns != FOLD_T_UNKNOWN || s->state != UF_RS_UNKNOWN ||
		  s->thread != FOLD_RAW_NO_THREAD)) {
		fputs("#sample", out);
		if (s->t_ns != FOLD_T_UNKNOWN)
			fprintf(out, " t_ns=%" PRIu64, s->t_ns);
		if (s->state != UF_RS_UNKNOWN)
			fprintf(out, " state=%s", uf_runstate_name(s->state));
		if (s->thread != FOLD_RAW_NO_THREAD)
			fprintf(out, " thread=%" PRIu64, s->thread);
		fputc('\n', out);
	}
	for (size_t i = 0; i < n; i++)
		fprintf(out, "0x%" PRIx64 "\n", addrs[i]);
	fputs(complete ? "1\n\n" : "0\n\n", out);
	return ferror(out) ? -EIO : 0;
}

int fold_raw_write_stack(FILE *out, const uint64_t *addrs, size_t n, int complete)
{
	return fold_raw_write_sample(out, NULL, addrs, n, complete);
}
