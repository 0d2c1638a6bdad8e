/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/ukguest/fetched/musl-1.2.3/src/string/strlen.c — a C function
 * of the guest's C library (libmusl by Unikraft's fetched layout): it has
 * CFI in .debug_frame only, like all of the guest's C code.
 */
#include <stddef.h>

size_t strlen(const char *s);

size_t strlen(const char *s)
{
	const char *p = s;
	while (*p)
		p++;
	return (size_t)(p - s);
}
