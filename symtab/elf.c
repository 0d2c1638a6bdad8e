/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * symtab/elf.c — function symbols and PT_LOAD segments from an ELF file,
 * through libelf (elfutils); never by running nm.
 *
 * Trade-off: the file is read with ELF_C_READ (pread into private
 * buffers) rather than mmap, which costs a copy of the symbol and string
 * tables but means a file truncated or rewritten while we read it gives
 * an error instead of SIGBUS.
 *
 * Invariants:
 *  1. Every count taken from the file (sections, program headers,
 *     symbols) is capped before anything is allocated from it; libelf
 *     bounds every section's data by the file size and every string by
 *     its string table.
 *  2. .symtab is used when it yields function symbols, else .dynsym.
 *  3. Any libelf failure becomes "corrupt ELF file: <reason>"; nothing
 *     here aborts.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symtab/internal.h"
#include "util/safe-open.h"

#define MAX_SECTIONS (1u << 20)
#define MAX_PHDRS 65536u

struct secinfo {            /* what a symbol needs from its section */
	uint64_t addr, size;
	int exec;
};

static struct symtab *load(Elf *e, size_t fsize, const char *label, int allow_empty,
			   struct uf_err *err);
static int check_truncated(Elf *e, const GElf_Ehdr *eh, size_t fsize);
static void load_fail(struct uf_err *err, const char *label, int rc);
static int read_sections(Elf *e, struct secinfo **sec, size_t *nsec);
static int read_segments(struct symtab *st, Elf *e);
static int collect(struct symtab *st, Elf *e, const struct secinfo *sec, size_t nsec,
		   Elf64_Word type, size_t *added);
static int add_sym(struct symtab *st, const GElf_Sym *sym, const char *name,
		   const struct secinfo *sec, size_t nsec);
static void read_build_id(struct symtab *st, Elf *e);

/* ---- public ------------------------------------------------------------ */

struct symtab *symtab_open_elf(const char *path, struct uf_err *err)
{
	return symtab_elf_load(path, 0, err);
}

struct symtab *symtab_elf_load(const char *path, int allow_empty, struct uf_err *err)
{
	/* regular files only, vetted before any open runs a driver or waits
	 * (util/safe-open.h): the path may come from a target or a report */
	const char *why;
	int fd = uf_safe_open(path, &why);
	if (fd < 0) {
		symtab_err_open(err, path, why);
		return NULL;
	}
	struct symtab *st = symtab_elf_load_fd(fd, path, allow_empty, err);
	close(fd);
	return st;
}

struct symtab *symtab_elf_load_fd(int fd, const char *label, int allow_empty, struct uf_err *err)
{
	struct stat sb = { 0 };
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		uf_err_set(err, UF_EINPUT, label, S_ISDIR(sb.st_mode) ? "is a directory"
								   : "not a regular file");
		return NULL;
	}
	size_t fsize = (size_t)sb.st_size;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	struct symtab *st = NULL;
	if (!e || elf_kind(e) != ELF_K_ELF)
		uf_err_set(err, UF_EINPUT, label, "not an ELF file");
	else
		st = load(e, fsize, label, allow_empty, err);
	elf_end(e);
	return st;
}

struct symtab *symtab_open_elf_mem(const void *buf, size_t len, const char *label,
				   struct uf_err *err)
{
	/* libelf may convert data in place: give it a private copy */
	char *copy = malloc(len ? len : 1);
	if (!copy) {
		uf_err_set(err, UF_EINPUT, label, "out of memory");
		return NULL;
	}
	memcpy(copy, buf, len);
	elf_version(EV_CURRENT);
	Elf *e = elf_memory(copy, len);
	struct symtab *st = NULL;
	if (!e || elf_kind(e) != ELF_K_ELF)
		uf_err_set(err, UF_EINPUT, label, "not an ELF file");
	else
		st = load(e, len, label, 0, err);
	elf_end(e);
	free(copy);
	return st;
}

/* ---- static helpers ---------------------------------------------------- */

static struct symtab *load(Elf *e, size_t fsize, const char *label, int allow_empty,
			   struct uf_err *err)
{
	GElf_Ehdr eh;
	struct secinfo *sec = NULL;
	size_t nsec = 0, added = 0;
	struct symtab *st = symtab_build_new();
	int rc = st ? 0 : -ENOMEM;
	if (rc == 0 && !gelf_getehdr(e, &eh))
		rc = -EINVAL;
	if (rc == 0)
		rc = check_truncated(e, &eh, fsize);
	if (rc == 0)
		rc = read_sections(e, &sec, &nsec);
	if (rc == 0)
		rc = read_segments(st, e);
	if (rc == 0)
		rc = collect(st, e, sec, nsec, SHT_SYMTAB, &added);
	if (rc == 0 && added == 0) {
		rc = collect(st, e, sec, nsec, SHT_DYNSYM, &added);
		st->from_dynsym = added > 0;
	}
	if (rc == 0)
		read_build_id(st, e);
	if (rc == 0)
		rc = symtab_build_finish(st);
	if (rc == 0 && st->n == 0 && !allow_empty)
		rc = -ENOENT;
	free(sec);
	if (rc == 0) {
		st->pie = eh.e_type == ET_DYN;
		return st;
	}
	load_fail(err, label, rc);
	symtab_free(st);
	return NULL;
}

static void load_fail(struct uf_err *err, const char *label, int rc)
{
	int e = elf_errno(); /* 0 when our own checks failed, not libelf */
	if (rc == -EINVAL)
		uf_err_set(err, UF_EINPUT, label, "corrupt ELF file: %s",
			   e ? elf_errmsg(e) : "inconsistent headers");
	else if (rc == -EFBIG)
		uf_err_set(err, UF_EINPUT, label, "truncated ELF file");
	else
		uf_err_set(err, UF_EINPUT, label, "%s",
			   rc == -ENOENT ? "no function symbols" :
			   rc == -E2BIG ? "too many symbols" : "out of memory");
}

/* A file cut short: libelf may then just see fewer sections (and we
 * would say "no function symbols"); tell the user what happened. */
static int check_truncated(Elf *e, const GElf_Ehdr *eh, size_t fsize)
{
	size_t shnum = eh->e_shnum; /* 0: extended numbering, ask libelf */
	if (shnum == 0 && elf_getshdrnum(e, &shnum) != 0)
		shnum = 0;
	if (eh->e_shoff &&
	    (eh->e_shoff > fsize || (uint64_t)shnum * eh->e_shentsize > fsize - eh->e_shoff))
		return -EFBIG;
	if (eh->e_phoff > fsize || (uint64_t)eh->e_phnum * eh->e_phentsize > fsize - eh->e_phoff)
		return -EFBIG;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > fsize || sh.sh_size > fsize - sh.sh_offset))
			return sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM ||
			       sh.sh_type == SHT_STRTAB ? -EFBIG : 0;
	}
	return 0;
}

static int read_sections(Elf *e, struct secinfo **sec, size_t *nsec)
{
	size_t n;
	if (elf_getshdrnum(e, &n) != 0 || n > MAX_SECTIONS)
		return -EINVAL;
	*sec = calloc(n ? n : 1, sizeof **sec);
	if (!*sec)
		return -ENOMEM;
	*nsec = n;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		size_t i = elf_ndxscn(scn);
		if (i >= n || !gelf_getshdr(scn, &sh))
			return -EINVAL;
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		(*sec)[i].addr = sh.sh_addr;
		(*sec)[i].size = sh.sh_size;
		(*sec)[i].exec = (sh.sh_flags & SHF_EXECINSTR) != 0;
	}
	return 0;
}

static int read_segments(struct symtab *st, Elf *e)
{
	size_t n;
	if (elf_getphdrnum(e, &n) != 0 || n > MAX_PHDRS)
		return -EINVAL;
	st->segs = calloc(n ? n : 1, sizeof *st->segs);
	if (!st->segs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph))
			return -EINVAL;
		if (ph.p_type != PT_LOAD)
			continue;
		struct symtab_seg *g = &st->segs[st->nsegs++];
		g->vaddr = ph.p_vaddr;
		g->off = ph.p_offset;
		g->filesz = ph.p_filesz;
	}
	return 0;
}

/* Adds the function symbols of every section of `type`; *added counts
 * them so the caller can fall back from .symtab to .dynsym. */
static int collect(struct symtab *st, Elf *e, const struct secinfo *sec, size_t nsec,
		   Elf64_Word type, size_t *added)
{
	size_t before = st->ncand;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return -EINVAL;
		if (sh.sh_type != type)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t esz = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
		if (!d || !esz)
			return -EINVAL;
		size_t cnt = d->d_size / esz;
		for (size_t i = 0; i < cnt; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(d, (int)i, &sym))
				return -EINVAL;
			const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
			int rc = name ? add_sym(st, &sym, name, sec, nsec) : 0;
			if (rc < 0)
				return rc;
		}
	}
	*added = st->ncand - before;
	return 0;
}

/* The GNU build-id note, which names the separate debug file
 * (.build-id/xx/yyyy.debug); libelf bounds-checks each note. */
static void read_build_id(struct symtab *st, Elf *e)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;
		while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + noff, "GNU", 4) != 0 ||
			    nh.n_descsz == 0 || nh.n_descsz > sizeof st->build_id)
				continue;
			memcpy(st->build_id, (char *)d->d_buf + doff, nh.n_descsz);
			st->build_id_len = nh.n_descsz;
			return;
		}
	}
}

/* Assembler-local labels and ARM/AArch64 mapping symbols are not
 * functions even when typed so. */
static int is_noise(const char *name)
{
	if (name[0] == '.' && name[1] == 'L')
		return 1;
	return name[0] == '$' && strchr("axdt", name[1]) && (name[2] == 0 || name[2] == '.');
}

/* A symbol-versioned name (`memcpy@@GLIBC_2.14`, `foo@V_1`, as glibc's
 * debug symbols have them) is its function's name up to the '@': frames
 * read as perf and the source name them, and one function keeps one name
 * whichever alias was chosen. */
static size_t unversioned_len(const char *name)
{
	size_t n = strnlen(name, SYMTAB_MAX_NAME);
	const char *at = memchr(name, '@', n);
	return at && at != name ? (size_t)(at - name) : n;
}

static int add_sym(struct symtab *st, const GElf_Sym *sym, const char *name,
		   const struct secinfo *sec, size_t nsec)
{
	int type = GELF_ST_TYPE(sym->st_info), bind = GELF_ST_BIND(sym->st_info);
	size_t shndx = sym->st_shndx;
	if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE || shndx >= nsec || !*name || is_noise(name))
		return 0;
	int kind;
	if (type == STT_FUNC || type == STT_GNU_IFUNC)
		kind = SYMK_FUNC;
	else if (type == STT_NOTYPE && sec[shndx].exec)
		kind = SYMK_LABEL;
	else
		return 0;
	uint64_t limit = sec[shndx].addr + sec[shndx].size;
	if (!sec[shndx].size || limit < sec[shndx].addr || sym->st_value < sec[shndx].addr ||
	    sym->st_value >= limit)
		limit = UINT64_MAX; /* outside its section (ET_REL, odd links): no cap */
	int rank = bind == STB_GLOBAL ? SYMB_GLOBAL :
		   bind == STB_LOCAL ? SYMB_LOCAL : SYMB_WEAK;
	return symtab_build_add(st, sym->st_value, sym->st_size, limit, name,
				unversioned_len(name), rank, kind);
}

void symtab_err_open(struct uf_err *err, const char *path, const char *why)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", why);
	buf[0] = (char)tolower((unsigned char)buf[0]);
	uf_err_set(err, UF_EINPUT, path, "%s", buf);
}

void symtab_err_errno(struct uf_err *err, const char *path, int e)
{
	char why[128];
	snprintf(why, sizeof why, "%s", UF_STRERROR(e));
	why[0] = (char)tolower((unsigned char)why[0]);
	uf_err_set(err, UF_EINPUT, path, "%s", why);
}
