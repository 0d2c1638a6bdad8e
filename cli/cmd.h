/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/cmd.h — the subcommands and what adding one takes.
 *
 * Checklist for a new subcommand NAME:
 *  1. cli/cmd-NAME.c defines `int cmd_NAME(int argc, char **argv)`: parse
 *     options into one options struct (defaults in one place), make one
 *     module call, return the exit status (0, or cli_fail()'s value).
 *  2. Declare it below and add a row to the table in uniprof-flame.c.
 *  3. Tests under tests/<area>/t-*.sh; options in README.md.
 *  4. Read options with cli_getopt() (never getopt_long directly), list
 *     every option in --help and give it a row in the command's README
 *     table: tests/cli/t-readme.sh fails on any option missing from one
 *     of the three.
 * Only the CLI prints to the terminal or decides the exit status.
 */
#ifndef UF_CLI_CMD_H
#define UF_CLI_CMD_H

#include <stdio.h>

#include "util/err.h"

int cmd_render(int argc, char **argv);
int cmd_fold(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_diff(int argc, char **argv);

/* Exit statuses (README "Exit codes"). */
enum { UF_EXIT_OK = 0, UF_EXIT_USAGE = 1, UF_EXIT_INPUT = 2, UF_EXIT_TARGET = 3, UF_EXIT_NOMEM = 4 };

/* Prints "uniprof-flame: <what>: <why>" and returns the exit status for
 * the error's class. */
int cli_fail(const struct uf_err *err);
/* Prints "uniprof-flame: <what>: out of memory", returns UF_EXIT_NOMEM
 * (for an allocation of the CLI's own, made before any module call). */
int cli_oom(const char *what);
/* Usage error: prints "uniprof-flame: " and the message ("<what>: <why>")
 * as one line, returns UF_EXIT_USAGE.  `cmd` is unused (kept for callers). */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* getopt_long_only with one-line messages (see cli/common.c for how a
 * single-dash word is read): returns the option, -1 at the end, or '?'
 * after printing what was wrong (the caller returns UF_EXIT_USAGE).
 * `cmd` names the command in the hint ("render"). */
struct option;
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
	       const char *cmd);
/* One synopsis line per way of naming a target (record/backends.c's
 * table), the first after `first`, the others after as many spaces:
 * "usage: uniprof-flame [record] [options] -o OUT.svg -p PID". */
void cli_record_synopsis(FILE *to, const char *first, const char *prog);
/* "libraries: elfutils 0.188, zlib 1.2.13, ...": each library's own
 * version, for --version (cli/linked.c). */
void cli_linked_libraries(FILE *to);
/* Warning on stderr: "uniprof-flame: warning: ...". */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The one version string (--version, record's metadata). */
#define UF_VERSION "0.1.0"

#endif
