/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/ukguest/libs/musl/uk_init.c — the glue of Unikraft's lib-musl
 * (its own repository, checked out as workdir/libs/musl/): code that is
 * libmusl by Unikraft's library layout, not by the fetched one.  Here: the
 * checksum the app runs over each result, so the glue has real time.
 */
#include <stddef.h>

unsigned long uk_musl_checksum(const unsigned char *p, size_t n);

unsigned long uk_musl_checksum(const unsigned char *p, size_t n)
{
	unsigned long a = 1, b = 0;
	for (int round = 0; round < 8; round++)
		for (size_t i = 0; i < n; i++) {
			a = (a + p[i] + (unsigned long)round) % 65521;
			b = (b + a) % 65521;
		}
	return (b << 16) | a;
}
