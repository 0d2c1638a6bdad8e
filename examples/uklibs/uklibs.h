/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/uklibs/uklibs.h — a Linux program laid out like a Unikraft
 * tree (lib/ukalloc, lib/uksched, plat/kvm, libs/lwip, app/), so that
 * DWARF's compilation units map to libraries by symtab/lib.c's rules.
 * The QEMU and Xen example guests link the same library files (the Xen
 * guest with plat/xen, libxenplat, in place of plat/kvm).
 *
 * Work per round, in UF_UNIT units (20 in all; true shares in
 * examples/workloads/uklibs.truth):
 *   app: app_round self 4                       -> app-uklibs   20 % self
 *   uk_malloc (from app) 6, (from lwip) 2       -> libukalloc   40 % self
 *   uk_sched_yield 2 -> ukplat_monotonic 3      -> libuksched   10 % self, 25 % total
 *                                               -> libkvmplat   15 % self
 *   tcp_input 3 -> uk_malloc 2                  -> liblwip      15 % self, 25 % total
 * Each library's code lives in its own file, built -O2 without frame
 * pointers; every function is noinline and every call followed by
 * UF_NOTAIL() so the call chains survive.
 */
#ifndef UF_EXAMPLES_UKLIBS_H
#define UF_EXAMPLES_UKLIBS_H

#include "../workloads/workloads.h"

UF_NOINLINE void uk_malloc(unsigned long units);
UF_NOINLINE void uk_sched_yield(void);
UF_NOINLINE void ukplat_monotonic(void);
UF_NOINLINE void tcp_input(void);

#endif
