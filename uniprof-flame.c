/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uniprof-flame.c — the main hub: picks a subcommand and runs it.
 *
 * `uniprof-flame NAME ...` runs the subcommand NAME from the table below.
 * Without a subcommand name, the arguments are a recording (`-p PID`,
 * `-d DOMAIN`, `-c CFG`, `--gdb ADDR`, `-- CMD`), the tool's headline use.
 * After the command returns, stdout is closed and checked so a full disk
 * or closed pipe on `-o -` is an error, not silent truncation.
 * `--version` prints the version, the targets this binary was built
 * with (xen only when libxen-dev was found at build time) and the
 * version of each library in it (cli/linked.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "record/record.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cmd commands[] = {
	{ "render", cmd_render, "folded stacks (or our SVG) -> flame graph SVG" },
	{ "fold", cmd_fold, "merge inputs into sorted folded text" },
	{ "diff", cmd_diff, "differential flame graph of two runs (folded or SVG)" },
	{ "record", cmd_record, "sample a process, QEMU guest or Xen domain -> flame graph" },
};

static int usage(FILE *to)
{
	cli_record_synopsis(to, "usage: ", "uniprof-flame [record options] -o OUT.svg");
	fprintf(to,
		"       uniprof-flame <command> [options]\n"
		"       uniprof-flame --version   (version and the targets built in)\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(to, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(to, "\n'uniprof-flame <command> --help' lists a command's options.\n");
	return to == stdout ? 0 : UF_EXIT_USAGE;
}

/* The targets come from record/'s backend table: a backend built as a
 * stub is named in the note (today only xen can be). */
static int version(void)
{
	char built[128], why[128];
	const char *missing;
	record_backends_built(built, sizeof built, why, sizeof why, &missing);
	printf("uniprof-flame %s\ntargets: %s%s%s%s\n", UF_VERSION, built, missing ? " (" : "",
	       missing ? missing : "", missing ? ")" : "");
	cli_linked_libraries(stdout);
	return 0;
}

static int close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (status == 0) {
			fprintf(stderr, "uniprof-flame: stdout: write failed: %s\n", UF_STRERROR(errno));
			status = UF_EXIT_INPUT;
		}
	}
	return status;
}

int main(int argc, char **argv)
{
	if (argc < 2) { /* errors are one line; the usage is on --help */
		fprintf(stderr, "uniprof-flame: no command: name one (render, fold, diff, record) or a "
			"target (see 'uniprof-flame --help')\n");
		return UF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))
		return usage(stdout);
	if (!strcmp(argv[1], "--version"))
		return close_stdout(version());
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return close_stdout(commands[i].fn(argc - 1, argv + 1));
	if (argv[1][0] != '-') {
		fprintf(stderr, "uniprof-flame: '%s': not a command (render, fold, diff, record; "
			"a program to profile goes after --)\n", argv[1]);
		return UF_EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(commands[i].name, "record"))
			return close_stdout(commands[i].fn(argc, argv));
	return UF_EXIT_USAGE;
}
