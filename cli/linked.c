/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/linked.c — `--version`'s "libraries:" line: the version of each
 * library in this binary, as the library itself reports it.
 *
 * Why: the release build links them from their static archives (Makefile,
 * REL_LIBS), so a security advisory for elfutils, zlib or xz is checked
 * against this line, not against the system's packages.  In a build that
 * links them shared (ASan, UF_SHARED_LIBS=1) the line names the copies
 * loaded, which is as true.  Every figure comes from a call into the
 * library (a header's macro where it has no call), never from the build
 * machine's package list.
 */
#include <bzlib.h>
#include <elfutils/libdwfl.h>
#include <libdeflate.h>
#include <lzma.h>
#include <protobuf-c/protobuf-c.h>
#include <stdio.h>
#include <zlib.h>

#include "cli/cmd.h"

void cli_linked_libraries(FILE *to)
{
	/* bzip2 says "1.0.8, 13-Jul-2019": the version is its first word */
	const char *bz = BZ2_bzlibVersion();
	int bzlen = 0;
	while (bz[bzlen] && bz[bzlen] != ',')
		bzlen++;
	fprintf(to, "libraries: elfutils %s, zlib %s, liblzma %s, bzip2 %.*s, libdeflate %s, protobuf-c %s\n",
		dwfl_version(NULL), zlibVersion(), lzma_version_string(), bzlen, bz,
		LIBDEFLATE_VERSION_STRING, protobuf_c_version());
}
