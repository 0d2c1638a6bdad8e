/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/vec.h — growable flat arrays.
 *
 * uf_vec_grow() makes room for `need` elements of `elsize` bytes in
 * *ptr, doubling the capacity; it returns 0 or -ENOMEM and leaves the
 * old array intact on failure.  After a successful grow the old pointer
 * is no longer valid: callers hold indices, not pointers, into arrays
 * that grow.
 */
#ifndef UF_UTIL_VEC_H
#define UF_UTIL_VEC_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline int uf_vec_grow(void *ptr, size_t *cap, size_t need, size_t elsize)
{
	void **p = ptr;
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elsize)
			return -ENOMEM;
		ncap *= 2;
	}
	void *n = realloc(*p, ncap * elsize);
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = ncap;
	return 0;
}

#endif
