/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/common.c — how the CLI reads options and reports errors and warnings.
 *
 * Every message is one line, "uniprof-flame: <what>: <why>" (lowercase,
 * no full stop), and every option error is a usage error (exit 1); out
 * of memory is exit 4, whoever ran out (util/err.h invariant 3).
 *
 * Options are read with getopt_long_only, the way flamegraph.pl's
 * Getopt::Long reads them, so scripts that call `flamegraph.pl -title X
 * -width 1600` keep working after the program name is swapped.  How a
 * single-dash word is told apart from short options:
 *  1. a lone letter that is one of the command's short options (`-o`,
 *     `-p`, `-F`) is that short option;
 *  2. otherwise a word that is a long option's name or an unambiguous
 *     prefix of one (`-title`, `-width=1600`, `-cp`) is that long option;
 *  3. anything else is short options with an attached value (`-ofile.svg`,
 *     `-F999`, `-p1234`).
 * getopt's own messages (which name argv[0] and span lines) are turned
 * off; cli_getopt() prints ours.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"

static void option_error(int c, int argc, char **argv, int prev_optind,
			 const struct option *longopts, const char *cmd);

int cli_fail(const struct uf_err *err)
{
	if (err->what[0])
		fprintf(stderr, "uniprof-flame: %s: %s\n", err->what, err->why);
	else
		fprintf(stderr, "uniprof-flame: %s\n", err->why);
	switch (err->cls) {
	case UF_EUSAGE: return UF_EXIT_USAGE;
	case UF_ETARGET: return UF_EXIT_TARGET;
	case UF_ENOMEM: return UF_EXIT_NOMEM;
	default: return UF_EXIT_INPUT;
	}
}

int cli_oom(const char *what)
{
	struct uf_err err = { 0 };
	uf_err_oom(&err, what);
	return cli_fail(&err);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	(void)cmd;
	fprintf(stderr, "uniprof-flame: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
	       const char *cmd)
{
	char spec[128];
	size_t plus = shortopts[0] == '+' || shortopts[0] == '-';
	/* a ':' after any '+' tells a missing value (':') from an unknown option */
	snprintf(spec, sizeof spec, "%.*s:%s", (int)plus, shortopts, shortopts + plus);
	opterr = 0;
	int prev = optind;
	int c = getopt_long_only(argc, argv, spec, longopts, NULL);
	if (c == '?' || c == ':') {
		option_error(c, argc, argv, prev, longopts, cmd);
		return '?';
	}
	return c;
}

/* How many long options `name` (len bytes, no dashes) names or abbreviates;
 * *exact set when one is named in full. */
static int long_matches(const struct option *o, const char *name, size_t len, int *exact,
			const struct option **first, const struct option **second)
{
	int n = 0;
	*exact = 0;
	for (; o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		if (strlen(o->name) == len) {
			*exact = 1;
			*first = o;
			return 1;
		}
		if (n && (*first)->val == o->val)
			continue; /* an alias (--colours) is not an ambiguity */
		if (n++ == 0)
			*first = o;
		else if (n == 2)
			*second = o;
	}
	return n;
}

/* One line for what getopt refused: an unknown or ambiguous option, a
 * missing value, or a value given to an option that takes none. */
static void option_error(int c, int argc, char **argv, int prev_optind,
			 const struct option *longopts, const char *cmd)
{
	int i = optind > prev_optind && optind - 1 < argc ? optind - 1 : optind;
	const char *el = i < argc ? argv[i] : "";
	const char *name = el + (el[0] == '-') + (el[0] == '-' && el[1] == '-');
	size_t len = strcspn(name, "=");
	int exact;
	const struct option *a = NULL, *b = NULL;
	int n = el[0] == '-' && len > 0 ? long_matches(longopts, name, len, &exact, &a, &b) : 0;
	if (c == ':') {
		if (n == 1 && !(el[1] != '-' && len == 1))
			cli_usage(NULL, "'--%s': needs a value", a->name);
		else
			cli_usage(NULL, "'-%c': needs a value", optopt);
	} else if (n == 1 && name[len] == '=' && a->has_arg == no_argument) {
		cli_usage(NULL, "'--%s': takes no value", a->name);
	} else if (n >= 2) {
		cli_usage(NULL, "'%.*s': ambiguous option (--%s, --%s%s)", (int)(name - el + len), el,
			  a->name, b->name, n > 2 ? ", ..." : "");
	} else if (optopt && optopt < 128 && !(el[0] == '-' && el[1] == '-')) {
		cli_usage(NULL, "'-%c': unknown option (see 'uniprof-flame %s --help')", optopt, cmd);
	} else {
		cli_usage(NULL, "'%.*s': unknown option (see 'uniprof-flame %s --help')",
			  (int)(name - el + len), el, cmd);
	}
}
