/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xen-if/stub.c — xen-if when libxen-dev was not found at build time.
 *
 * The Makefile compiles this file instead of the real backend, so the CLI
 * links and `-d`/`-c` fail with one clear line instead of being unknown
 * options.  Trade-off: none; every call fails.
 *
 * Invariants:
 *  1. xen_target_open() never succeeds, so no other call gets a target.
 */
#include <errno.h>
#include <stdio.h>

#include "xen-if/xen.h"

int xen_target_open(struct uf_target *t, const struct xen_target_opts *o, struct uf_err *err)
{
	uf_err_set(err, UF_ETARGET, "xen", "built without Xen support (install libxen-dev and rebuild)");
	return -ENOTSUP;
}

int xen_target_start(struct uf_target *t, struct uf_err *err)
{
	uf_err_set(err, UF_ETARGET, "xen", "built without Xen support");
	return -ENOTSUP;
}

uint32_t xen_target_domid(const struct uf_target *t)
{
	return 0;
}

const char *xen_target_name(const struct uf_target *t)
{
	return "";
}

void xen_target_describe(const struct uf_target *t, char *buf, size_t len)
{
	snprintf(buf, len, "xen (not built)");
}

const char *xen_target_missing(void)
{
#if defined(__x86_64__)
	return "built without libxen-dev";
#else
	return "xen-if needs an x86-64 host";
#endif
}
