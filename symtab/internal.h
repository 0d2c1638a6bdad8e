/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * symtab/internal.h — the table builder shared by the ELF reader, the nm
 * reader and the process map set.  Private to symtab/.
 *
 * Readers append candidate symbols (symtab_build_add) in any order; a
 * final pass (symtab_build_finish) sorts them, picks one name per start
 * address, gives every symbol an end and packs the result into the flat
 * lookup arrays.  Trade-off: the candidate list costs 40 bytes per input
 * symbol until finish, in exchange for one simple deterministic pass.
 *
 * Invariants:
 *  1. Names handed to symtab_build_add are copied into the table's arena
 *     at once, so readers may pass pointers into buffers they free.
 *  2. Candidates with kind SYMK_END never become symbols; they only end
 *     the symbol before them (nm data symbols).
 */
#ifndef UF_SYMTAB_INTERNAL_H
#define UF_SYMTAB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "symtab/symtab.h"
#include "util/arena.h"

/* Binding ranks, smaller wins among aliases. */
enum { SYMB_GLOBAL = 0, SYMB_WEAK = 1, SYMB_LOCAL = 2 };
/* Kinds: a typed function, an untyped code label, an end marker. */
enum { SYMK_FUNC = 0, SYMK_LABEL = 1, SYMK_END = 2 };

struct symtab_cand {
	uint64_t start;
	uint64_t size;      /* 0 = unknown, extend to the next symbol */
	uint64_t limit;     /* no symbol may extend past this (section end) */
	const char *name;   /* in the table's arena */
	uint32_t len;
	uint8_t bind;       /* SYMB_* */
	uint8_t kind;       /* SYMK_* */
};

struct symtab_seg {         /* one PT_LOAD program header */
	uint64_t vaddr, off, filesz;
};

struct symtab {
	/* the lookup arrays, structure of arrays, sorted by start */
	uint64_t *start;
	uint64_t *end;
	const char **name;
	uint32_t *len;
	size_t n;

	/* bucket index over start[] for big tables (NULL when small):
	 * bidx[b] = number of starts below blo + (b << bshift) */
	uint32_t *bidx;
	size_t nb;
	uint64_t blo;
	unsigned bshift;

	struct uf_arena arena;  /* every name */
	int pie;                /* ET_DYN */
	int from_dynsym;        /* symbols came from .dynsym (no .symtab) */
	unsigned char build_id[64];
	size_t build_id_len;    /* 0: no NT_GNU_BUILD_ID note */
	struct symtab_seg *segs;
	size_t nsegs;

	/* builder state, freed by finish */
	struct symtab_cand *cand;
	size_t ncand, cand_cap;
};

struct symtab *symtab_build_new(void);
/* Copies the name (cut at SYMTAB_MAX_NAME); returns 0, -ENOMEM or -E2BIG
 * (over SYMTAB_MAX_SYMS). */
int symtab_build_add(struct symtab *st, uint64_t start, uint64_t size, uint64_t limit,
		     const char *name, size_t len, int bind, int kind);
/* Sorts, picks aliases and sizes, packs.  Returns 0 or -ENOMEM; an empty
 * result is not an error here (callers decide). */
int symtab_build_finish(struct symtab *st);

/* Loads an ELF file; with allow_empty a file with no function symbols
 * yields an empty table (the process map set still needs its program
 * headers for the load bias). */
struct symtab *symtab_elf_load(const char *path, int allow_empty, struct uf_err *err);
/* Same from an open descriptor (borrowed): a regular file only, else
 * "not a regular file"; `label` names it in errors. */
struct symtab *symtab_elf_load_fd(int fd, const char *label, int allow_empty, struct uf_err *err);

/* Sets *err for a file that could not be opened: `why` as uf_safe_open
 * gave it, first letter lowercased. */
void symtab_err_open(struct uf_err *err, const char *path, const char *why);
/* Sets *err (UF_EINPUT, what = path) from an errno, lowercased. */
void symtab_err_errno(struct uf_err *err, const char *path, int e);

#endif
