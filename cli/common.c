/*
 * cli/common.c — how the CLI reports errors and warnings.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cli/cmd.h"

int cli_fail(const struct uf_err *err)
{
	if (err->what[0])
		fprintf(stderr, "uniprof-flame: %s: %s\n", err->what, err->why);
	else
		fprintf(stderr, "uniprof-flame: %s\n", err->why);
	switch (err->cls) {
	case UF_EUSAGE: return UF_EXIT_USAGE;
	case UF_ETARGET: return UF_EXIT_TARGET;
	default: return UF_EXIT_INPUT;
	}
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "uniprof-flame: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'uniprof-flame %s--help'.\n", cmd ? cmd : "");
	return UF_EXIT_USAGE;
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "uniprof-flame: warning: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
