/* SPDX-License-Identifier: BSD-3-Clause */
/* examples/ukguest/fetched/minexpr-1.0/src/minexpr.h — minexpr's one
 * header: evaluate an integer expression (see eval.c). */
#ifndef MINEXPR_H
#define MINEXPR_H

#define ME_SCRATCH 384   /* bytes of scratch per nesting level */

struct me_state {
	const char *p;
	unsigned depth;
	unsigned long digest;
};

/* The value of `text`; *digest mixes every literal (for the caller's check). */
long me_eval(const char *text, unsigned long *digest);

#endif
