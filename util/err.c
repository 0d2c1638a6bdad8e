/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/err.c — the error record helpers behind util/err.h.
 */
#include <stdio.h>
#include <string.h>

#include "util/err.h"

void uf_err_set(struct uf_err *err, enum uf_err_class cls, const char *what,
		const char *fmt, ...)
{
	if (!err || err->cls != UF_OK)
		return;
	err->cls = cls;
	snprintf(err->what, sizeof err->what, "%s", what ? what : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->why, sizeof err->why, fmt, ap);
	va_end(ap);
}

void uf_err_clear(struct uf_err *err)
{
	memset(err, 0, sizeof *err);
}
