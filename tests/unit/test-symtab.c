/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-symtab.c — symtab/ (ELF and nm tables, return-address
 * lookup, load bias for live processes) and fold/read-raw.c (uniprof raw
 * traces), against real ELF files built at test time with the system
 * compiler in a temporary directory.
 *
 * The oracle for ELF symbols is `nm -S` run on the same fixture (binutils,
 * a reader independent of libelf); the oracle for load bias is a real
 * child process that prints its own function addresses.
 *
 * Invariants:
 *  1. Every test that builds a fixture skips (cmocka skip) only when no
 *     compiler is present; with CI=true that is a failure.
 *  2. Every table opened is freed: ASan's leak check runs at exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fold/fold.h"
#include "fold/in/in.h"
#include "symtab/symtab.h"

/* ---- fixtures ---------------------------------------------------------- */

static const char fixture_src[] =
	"#include <stdio.h>\n"
	"#include <unistd.h>\n"
	"__attribute__((noinline)) static int s_one(int x) { __asm__ volatile(\"\"); return x * 3 + 1; }\n"
	"__attribute__((noinline)) int g_two(int x) { __asm__ volatile(\"\"); return s_one(x) + 2; }\n"
	"extern int zz_alias(int) __attribute__((alias(\"s_one\")));\n"
	"__attribute__((noinline)) int g_three(int x) { __asm__ volatile(\"\"); return g_two(x) * 5; }\n"
	"__asm__(\".text\\n.globl asm_untyped\\nasm_untyped:\\n nop\\n nop\\n ret\\n\"\n"
	"        \".globl asm_sized\\n.type asm_sized,@function\\nasm_sized:\\n nop\\n\"\n"
	"        \"inside_label:\\n nop\\n nop\\n ret\\n.size asm_sized, .-asm_sized\\n\");\n"
	"int main(int argc, char **argv) {\n"
	"  if (argc > 1) {\n"
	"    printf(\"%p %p\\n\", (void *)g_two, (void *)s_one); fflush(stdout);\n"
	"    pause();\n"
	"  }\n"
	"  return g_three(argc);\n"
	"}\n";

static char dir[64];      /* temp dir with the fixtures */
static int have_cc;

static int run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	return system(cmd);
}

static void path_of(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

static int group_setup(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/uf-symtab.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	char src[128];
	path_of(src, sizeof src, "fx.c");
	FILE *f = fopen(src, "w");
	if (!f)
		return -1;
	fputs(fixture_src, f);
	fclose(f);
	have_cc = run("cd %s && cc -O1 -g0 -fPIE -pie -o fx fx.c 2>/dev/null", dir) == 0 &&
		  run("cd %s && cc -O1 -g0 -no-pie -fno-pie -o fx-nopie fx.c 2>/dev/null", dir) == 0 &&
		  run("cd %s && cp fx fx-stripped && strip --strip-all fx-stripped", dir) == 0 &&
		  run("cd %s && nm -S --defined-only fx > fx.nmS && nm -n fx > fx.nm", dir) == 0;
	return 0;
}

static int group_teardown(void **state)
{
	run("rm -rf %s", dir);
	return 0;
}

#define NEED_CC() do { if (!have_cc) { \
	if (getenv("CI") && strcmp(getenv("CI"), "true") == 0) fail_msg("no cc/strip/nm"); \
	skip(); } } while (0)

static struct symtab *open_fx(const char *name)
{
	char p[128];
	struct uf_err err = {0};
	path_of(p, sizeof p, name);
	struct symtab *st = symtab_open_elf(p, &err);
	if (!st)
		fail_msg("%s: %s: %s", name, err.what, err.why);
	assert_int_equal(symtab_check(st), 0);
	return st;
}

/* The start and size nm -S reports for `name` in the PIE fixture. */
static int nm_sym(const char *name, uint64_t *start, uint64_t *size)
{
	char p[128], line[512];
	path_of(p, sizeof p, "fx.nmS");
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	int found = 0;
	while (!found && fgets(line, sizeof line, f)) {
		char type, sym[256];
		unsigned long long a, s;
		if (sscanf(line, "%llx %llx %c %255s", &a, &s, &type, sym) == 4 && !strcmp(sym, name)) {
			*start = a, *size = s;
			found = 1;
		} else if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 && !strcmp(sym, name)) {
			*start = a, *size = 0; /* no size: nm -S prints three fields */
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* ---- ELF tables -------------------------------------------------------- */

/* Every sized function nm -S lists resolves at its first and last byte
 * to a symbol that starts exactly there (an alias may be chosen). */
static void symtab_elf_matches_nm(void **state)
{
	NEED_CC();
	struct symtab *st = open_fx("fx");
	char p[128], line[512];
	path_of(p, sizeof p, "fx.nmS");
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	int checked = 0;
	while (fgets(line, sizeof line, f)) {
		char type, name[256];
		unsigned long long a, s;
		if (sscanf(line, "%llx %llx %c %255s", &a, &s, &type, name) != 4 ||
		    !strchr("tTwW", type) || s == 0)
			continue;
		uint64_t off = 99;
		assert_non_null(symtab_lookup(st, a, &off, NULL));
		assert_int_equal(off, 0);
		assert_non_null(symtab_lookup(st, a + s - 1, &off, NULL));
		assert_int_equal(off, s - 1);
		checked++;
	}
	fclose(f);
	assert_true(checked >= 4);
	assert_true(symtab_count(st) >= (size_t)checked - 1);
	symtab_free(st);
}

static void symtab_static_and_global_names(void **state)
{
	NEED_CC();
	struct symtab *st = open_fx("fx-nopie");
	char p[128];
	path_of(p, sizeof p, "fx-nopie");
	uint64_t a, s;
	run("nm -S --defined-only %s > %s/nopie.nmS", p, dir);
	/* names by address from the PIE table are checked below; here the
	 * non-PIE file: ET_EXEC, not PIE */
	assert_int_equal(symtab_is_pie(st), 0);
	symtab_free(st);
	st = open_fx("fx");
	assert_int_equal(symtab_is_pie(st), 1);
	assert_true(nm_sym("g_two", &a, &s));
	size_t len = 0;
	const char *n = symtab_lookup(st, a + 1, NULL, &len);
	assert_string_equal(n, "g_two");
	assert_int_equal(len, 5);
	assert_true(nm_sym("g_three", &a, &s));
	assert_string_equal(symtab_lookup(st, a, NULL, NULL), "g_three");
	assert_true(nm_sym("main", &a, &s));
	assert_string_equal(symtab_lookup(st, a + s / 2, NULL, NULL), "main");
	symtab_free(st);
}

/* s_one (local) and zz_alias (global) share an address: global wins. */
static void symtab_alias_prefers_global(void **state)
{
	NEED_CC();
	struct symtab *st = open_fx("fx");
	uint64_t a, s;
	assert_true(nm_sym("s_one", &a, &s));
	assert_string_equal(symtab_lookup(st, a, NULL, NULL), "zz_alias");
	symtab_free(st);
}

static void write_file(const char *name, const char *text, char *out, size_t size);

/* Several names at one address, one group per rule of symtab.h's alias
 * choice; in each group the loser comes first in the symbol table, so
 * table order would pick it.  An assembled shared object, so bindings,
 * types and sizes are the ELF's own. */
static const char alias_src[] =
	".text\n"
	/* (6) longer name: glibc's memmove/memcpy variant pair, both local */
	".type __memcpy_avx_unaligned_erms,@function\n.type __memmove_avx_unaligned_erms,@function\n"
	"__memcpy_avx_unaligned_erms:\n__memmove_avx_unaligned_erms:\n nop\n nop\n ret\n"
	".size __memcpy_avx_unaligned_erms,3\n.size __memmove_avx_unaligned_erms,3\n"
	/* (3) non-weak over weak: a local beats a weak with a longer name */
	".weak b_weak_longer\n.type b_weak_longer,@function\n.type b_local,@function\n"
	"b_weak_longer:\nb_local:\n nop\n nop\n ret\n.size b_weak_longer,3\n.size b_local,3\n"
	/* (4) global over local */
	".type c_local_longer,@function\n.globl c_g\n.type c_g,@function\n"
	"c_local_longer:\nc_g:\n nop\n nop\n ret\n.size c_local_longer,3\n.size c_g,3\n"
	/* (5) fewer leading underscores over a longer name */
	".globl __d_fn_longer\n.type __d_fn_longer,@function\n.globl d_fn\n.type d_fn,@function\n"
	"__d_fn_longer:\nd_fn:\n nop\n nop\n ret\n.size __d_fn_longer,3\n.size d_fn,3\n"
	/* (2) sized over size 0, even a weak one over a global */
	".globl e_zero_global\n.type e_zero_global,@function\n.weak e_sized\n.type e_sized,@function\n"
	"e_zero_global:\ne_sized:\n nop\n nop\n ret\n.size e_sized,3\n"
	/* (7) byte order when nothing else differs */
	".type f_bb,@function\n.type f_aa,@function\n"
	"f_bb:\nf_aa:\n nop\n nop\n ret\n.size f_bb,3\n.size f_aa,3\n"
	/* (1) a typed function over an untyped label, even a global one */
	".globl g_label_global\n.type g_typed,@function\n"
	"g_label_global:\ng_typed:\n nop\n nop\n ret\n.size g_typed,3\n";

static void symtab_alias_rule(void **state)
{
	NEED_CC();
	char src[128], so[128];
	write_file("aliases.s", alias_src, src, sizeof src);
	path_of(so, sizeof so, "aliases.so");
	if (run("cc -nostdlib -shared -o %s %s", so, src) != 0)
		fail_msg("cc aliases.s failed");
	static const char *const want[] = { "__memmove_avx_unaligned_erms", "b_local", "c_g", "d_fn",
					    "e_sized", "f_aa", "g_typed" };
	struct uf_err err = {0};
	struct symtab *st = symtab_open_elf(so, &err);
	assert_non_null(st);
	assert_int_equal(symtab_check(st), 0);
	static const char *const lose[] = { "__memcpy_avx_unaligned_erms", "b_weak_longer",
					    "c_local_longer", "__d_fn_longer", "e_zero_global",
					    "f_bb", "g_label_global" };
	size_t n = symtab_count(st), k = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name = symtab_symbol(st, i, NULL, NULL);
		for (size_t j = 0; j < sizeof lose / sizeof *lose; j++)
			assert_string_not_equal(name, lose[j]);
		if (k < sizeof want / sizeof *want && strcmp(name, want[k]) == 0)
			k++;
	}
	assert_int_equal(k, sizeof want / sizeof *want);
	symtab_free(st);
}

/* This process's [vdso] range from /proc/self/maps; 0 when none. */
static int own_vdso(uint64_t *start, uint64_t *end)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;
	while (f && !found && fgets(line, sizeof line, f))
		found = strstr(line, "[vdso]") &&
			sscanf(line, "%" SCNx64 "-%" SCNx64, start, end) == 2;
	if (f)
		fclose(f);
	return found;
}

/* The vDSO's symbols come from the process's memory, and the process map
 * set names an address in it (issue 27 item 4), with a mapping that
 * says [vdso]; maps given as text (no process to read) name it [vdso]. */
static void symtab_vdso_from_memory(void **state)
{
	uint64_t lo, hi, start = 0, end = 0;
	if (!own_vdso(&lo, &hi))
		skip();
	struct uf_err err = {0};
	struct symtab *st = symtab_vdso_open(getpid(), lo, hi, &err);
	assert_non_null(st);
	assert_int_equal(symtab_check(st), 0);
	const char *want = NULL;
	for (size_t i = 0; i < symtab_count(st) && !want; i++) {
		const char *n = symtab_symbol(st, i, &start, &end);
		if (strstr(n, "clock_gettime"))
			want = n;
	}
	assert_non_null(want);
	/* the perf name: x86-64's __vdso_ (over its weak alias), arm64's __kernel_ */
	assert_true(strncmp(want, "__vdso_", 7) == 0 || strncmp(want, "__kernel_", 9) == 0);
	struct symtab_procmap *m = symtab_procmap_open(getpid(), NULL, &err);
	assert_non_null(m);
	char buf[64];
	struct symtab_mapping mp;
	uint64_t a = lo + start + (end - start) / 2; /* the image's vaddrs start at 0 */
	assert_string_equal(symtab_procmap_lookup(m, a, 0, buf, sizeof buf, NULL), want);
	assert_int_equal(symtab_procmap_mapping(m, a, &mp), 0);
	assert_string_equal(mp.path, "[vdso]");
	/* its ELF header, which no symbol covers (as no symbol covers the
	 * clock code of 6.x kernels): the DSO's name, as perf report gives */
	assert_null(symtab_lookup(st, 0, NULL, NULL));
	assert_string_equal(symtab_procmap_lookup(m, lo, 0, buf, sizeof buf, NULL), "[vdso]");
	symtab_procmap_free(m);
	char text[128];
	snprintf(text, sizeof text, "%" PRIx64 "-%" PRIx64 " r-xp 00000000 00:00 0 [vdso]\n", lo, hi);
	m = symtab_procmap_open_text(text, strlen(text), NULL, NULL, &err);
	assert_non_null(m);
	assert_string_equal(symtab_procmap_lookup(m, a, 0, buf, sizeof buf, NULL), "[vdso]");
	symtab_procmap_free(m);
	/* a range that is not the vDSO: an error with a reason, no crash */
	assert_null(symtab_vdso_open(getpid(), 0, 4096, &err));
	assert_null(symtab_vdso_open(getpid(), lo, lo + (2u << 20), &err));
	symtab_free(st);
}

/* A PIE's load bias from runtime addresses alone (fold --symbols of a raw
 * trace): the exact page-aligned bias, whatever the order of the
 * addresses; none when nothing fits or no anchor symbol exists. */
static void symtab_guess_bias_from_addresses(void **state)
{
	(void)state;
	static const char nm[] = "0000000000001000 T _start\n0000000000001040 T main\n"
				 "0000000000001100 T work\n0000000000001200 t leaf\n"
				 "0000000000001300 D data\n";
	struct uf_err err = {0};
	struct symtab *st = symtab_open_nm_mem(nm, sizeof nm - 1, "t.nm", &err);
	assert_non_null(st);
	const uint64_t b = 0x7f12345a6000ull;
	uint64_t a[] = { b + 0x1208, b + 0x1107, b + 0x1045, b + 0x102a,
			 b + 0x1203, b + 0x1180, b + 0x1046, b + 0x1029, 0x10 /* junk */ };
	uint64_t got = 0;
	assert_int_equal(symtab_guess_bias(st, a, sizeof a / sizeof *a, &got), 0);
	assert_int_equal(got, b);
	/* addresses of another program: nothing fits half of them */
	uint64_t other[] = { 0x400123, 0x7fff0000dead, 0x55550000beef, 0x10 };
	assert_int_equal(symtab_guess_bias(st, other, 4, &got), -ENOENT);
	assert_int_equal(symtab_guess_bias(st, other, 0, &got), -ENOENT);
	symtab_free(st);
	static const char noanchor[] = "0000000000001100 T work\n0000000000001200 t leaf\n";
	st = symtab_open_nm_mem(noanchor, sizeof noanchor - 1, "t.nm", &err);
	assert_non_null(st);
	assert_int_equal(symtab_guess_bias(st, a, sizeof a / sizeof *a, &got), -ENOENT);
	symtab_free(st);
}

/* A Unikraft .dbg image has only LOCAL symbols: all of them still count. */
static void symtab_local_only_symbols(void **state)
{
	NEED_CC();
	if (run("cd %s && objcopy --wildcard --localize-symbol='*' fx-nopie fx-local", dir) != 0)
		fail_msg("objcopy failed");
	char p[128];
	path_of(p, sizeof p, "fx-local");
	assert_int_not_equal(run("nm %s | grep -q ' [TW] '", p), 0); /* no global left */
	struct symtab *st = open_fx("fx-local");
	struct symtab *ref = open_fx("fx-nopie");
	assert_int_equal(symtab_count(st), symtab_count(ref));
	for (size_t i = 0; i < symtab_count(ref); i++) {
		uint64_t s, e;
		const char *want = symtab_symbol(ref, i, &s, &e);
		const char *got = symtab_lookup(st, s, NULL, NULL);
		assert_non_null(got);
		/* aliases: s_one and zz_alias are both local now; the longer
		 * name wins, as with perf: still zz_alias */
		assert_string_equal(got, want);
	}
	symtab_free(st);
	symtab_free(ref);
}

/* A return address one past a function's end belongs to that function. */
static void symtab_retaddr_at_function_end(void **state)
{
	NEED_CC();
	struct symtab *st = open_fx("fx");
	uint64_t a, s, off = 0;
	assert_true(nm_sym("g_two", &a, &s));
	const char *exact = symtab_lookup(st, a + s, NULL, NULL);
	assert_true(exact == NULL || strcmp(exact, "g_two") != 0);
	assert_string_equal(symtab_lookup_ret(st, a + s, &off, NULL), "g_two");
	assert_int_equal(off, s);
	assert_string_equal(symtab_lookup_ret(st, a + 1, NULL, NULL), "g_two");
	assert_null(symtab_lookup_ret(st, 0, NULL, NULL));
	symtab_free(st);
}

/* Hand-written assembly: an untyped global label in .text is a function;
 * an untyped label inside a sized function does not cut it. */
static void symtab_untyped_labels(void **state)
{
	NEED_CC();
	struct symtab *st = open_fx("fx");
	uint64_t a, s, in;
	assert_true(nm_sym("asm_untyped", &a, &s));
	assert_string_equal(symtab_lookup(st, a + 1, NULL, NULL), "asm_untyped");
	assert_true(nm_sym("inside_label", &in, &s));
	assert_string_equal(symtab_lookup(st, in, NULL, NULL), "asm_sized");
	assert_true(nm_sym("asm_sized", &a, &s));
	assert_string_equal(symtab_lookup(st, a + s - 1, NULL, NULL), "asm_sized");
	symtab_free(st);
	/* an image linked at address 0 (bare-metal and some unikernel
	 * images) whose first code is an untyped assembly label, with a
	 * local label inside it (Unikraft's start code: `nofsgsbase:`),
	 * which names no frame: its code is the entry's */
	static const char zero_src[] =
		"__asm__(\".text\\n.globl zero_label\\nzero_label:\\n nop\\nnofsgsbase:\\n nop\\n ret\\n\");\n"
		"__attribute__((noinline)) int f1(int x) { __asm__ volatile(\"\"); return x + 1; }\n"
		"void entry(void) { f1(3); for (;;) ; }\n";
	char zc[128];
	path_of(zc, sizeof zc, "zero.c");
	FILE *f = fopen(zc, "w");
	assert_non_null(f);
	fputs(zero_src, f);
	fclose(f);
	if (run("cd %s && cc -O1 -fno-toplevel-reorder -nostdlib -static -no-pie -Wl,-Ttext=0 "
		"-Wl,-e,entry -o zero zero.c 2>/dev/null", dir) != 0)
		fail_msg("cc could not link a program at address 0");
	st = open_fx("zero");
	assert_string_equal(symtab_lookup(st, 0, NULL, NULL), "zero_label");
	assert_string_equal(symtab_lookup(st, 1, NULL, NULL), "zero_label");
	assert_string_equal(symtab_lookup(st, 2, NULL, NULL), "zero_label");
	assert_string_equal(symtab_lookup(st, 3, NULL, NULL), "f1");
	symtab_free(st);
}

/* A versioned name (glibc's debug symbols: `__libc_start_main@@GLIBC_2.34`)
 * resolves to the plain function name. */
static void symtab_version_suffix_dropped(void **state)
{
	NEED_CC();
	if (run("cd %s && printf '%%s\\n' 'int real_impl(int x) { return x * 3 + 1; }' "
		"'__asm__(\".symver real_impl, versioned@@V_1\");' > sv.c && "
		"echo 'V_1 { global: versioned; local: *; };' > sv.map && "
		"cc -O1 -shared -fPIC -Wl,--version-script=sv.map -o sv.so sv.c 2>/dev/null && "
		"nm sv.so | grep -q 'versioned@@V_1'", dir) != 0)
		fail_msg("could not build a versioned shared object");
	struct symtab *st = open_fx("sv.so");
	char p[128], line[256];
	snprintf(p, sizeof p, "nm %s/sv.so", dir);
	FILE *f = popen(p, "r");
	assert_non_null(f);
	unsigned long long a = 0;
	while (fgets(line, sizeof line, f))
		if (strstr(line, " T versioned@@V_1"))
			a = strtoull(line, NULL, 16);
	pclose(f);
	assert_true(a != 0);
	assert_string_equal(symtab_lookup(st, a + 1, NULL, NULL), "versioned");
	symtab_free(st);
}

/* Bias math on the PIE fixture: its first PT_LOAD is at offset 0 and
 * vaddr 0, so a mapping of offset 0 at B has bias B; offsets past every
 * segment have none.  ET_EXEC mapped where linked has bias 0. */
static void symtab_load_bias_math(void **state)
{
	NEED_CC();
	struct symtab *st = open_fx("fx");
	uint64_t bias = 0;
	assert_int_equal(symtab_load_bias(st, 0x555555554000ull, 0, &bias), 0);
	assert_int_equal(bias, 0x555555554000ull);
	assert_int_equal(symtab_load_bias(st, 0x555555554000ull, 1ull << 40, &bias), -ENOENT);
	symtab_free(st);
	st = open_fx("fx-nopie");
	assert_int_equal(symtab_load_bias(st, 0x400000, 0, &bias), 0);
	assert_int_equal(bias, 0);
	symtab_free(st);
}

static void symtab_unknown_address(void **state)
{
	NEED_CC();
	struct symtab *st = open_fx("fx");
	assert_null(symtab_lookup(st, 0, NULL, NULL));
	assert_null(symtab_lookup(st, 0xffffffffffff0000ull, NULL, NULL));
	assert_null(symtab_lookup(st, UINT64_MAX, NULL, NULL));
	symtab_free(st);
}

/* The table's own invariant: sorted, non-empty, non-overlapping. */
static void symtab_table_is_sorted_and_disjoint(void **state)
{
	NEED_CC();
	const char *files[] = {"fx", "fx-nopie"};
	for (size_t k = 0; k < 2; k++) {
		struct symtab *st = open_fx(files[k]);
		uint64_t prev_end = 0;
		for (size_t i = 0; i < symtab_count(st); i++) {
			uint64_t s, e;
			const char *n = symtab_symbol(st, i, &s, &e);
			assert_non_null(n);
			assert_true(s < e);
			assert_true(i == 0 || s >= prev_end);
			assert_true(strlen(n) <= SYMTAB_MAX_NAME);
			prev_end = e;
		}
		assert_null(symtab_symbol(st, symtab_count(st), NULL, NULL));
		symtab_free(st);
	}
}

/* ---- nm files ---------------------------------------------------------- */

static void write_file(const char *name, const char *text, char *out, size_t size)
{
	path_of(out, size, name);
	FILE *f = fopen(out, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void symtab_nm_sizes_from_next_symbol(void **state)
{
	char p[128];
	write_file("hand.nm",
		   "0000000000001000 T alpha\n"
		   "                 U undefined_sym\n"
		   "0000000000001040 t beta\r\n"
		   "0000000000001080 D data_sym\n"
		   "garbage line here\n"
		   "0000000000001100 W gamma\n"
		   "0000000000001100 t gamma_local_alias\n"
		   "zzzz T bad_addr\n", p, sizeof p);
	struct uf_err err = {0};
	struct symtab *st = symtab_open_nm(p, &err);
	assert_non_null(st);
	assert_int_equal(symtab_check(st), 0);
	assert_int_equal(symtab_count(st), 3);
	uint64_t off;
	assert_null(symtab_lookup(st, 0xfff, NULL, NULL));
	assert_string_equal(symtab_lookup(st, 0x1000, &off, NULL), "alpha");
	assert_string_equal(symtab_lookup(st, 0x103f, &off, NULL), "alpha");
	assert_int_equal(off, 0x3f);
	assert_string_equal(symtab_lookup(st, 0x1040, NULL, NULL), "beta");
	assert_string_equal(symtab_lookup(st, 0x107f, NULL, NULL), "beta");
	assert_null(symtab_lookup(st, 0x1080, NULL, NULL)); /* data ends beta */
	assert_string_equal(symtab_lookup_ret(st, 0x1080, NULL, NULL), "beta");
	/* W gamma and t gamma_local_alias: non-weak over weak, as perf */
	assert_string_equal(symtab_lookup(st, 0x1100, NULL, NULL), "gamma_local_alias");
	assert_string_equal(symtab_lookup(st, 0x1100 + 4096, NULL, NULL), "gamma_local_alias");
	assert_null(symtab_lookup(st, 0x1100 + SYMTAB_MAX_GUESS, NULL, NULL));
	uint64_t bias;
	assert_int_equal(symtab_load_bias(st, 0x1000, 0, &bias), -ENOENT);
	symtab_free(st);
}

/* A table of n symbols from `base` written as nm output, looked up at
 * `probes` addresses (most near a symbol, some anywhere below the end),
 * agrees with a binary search over the starts.  `far`: every 1000th gap
 * is up to 2^40 (clusters far apart). */
static void big_table_case(const char *file, uint64_t base, int n, int far, int probes)
{
	char p[128];
	path_of(p, sizeof p, file);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	uint64_t *starts = malloc((size_t)n * sizeof *starts);
	assert_non_null(starts);
	uint64_t a = base, x = 12345;
	for (int i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		a += far && i % 1000 == 999 ? (x % (1ull << 40)) : 1 + x % 300; /* clusters */
		starts[i] = a;
		fprintf(f, "%016" PRIx64 " %c f%d\n", a, i % 7 == 6 ? 'D' : 'T', i);
	}
	fclose(f);
	struct uf_err err = {0};
	struct symtab *st = symtab_open_nm(p, &err);
	assert_non_null(st);
	assert_int_equal(symtab_check(st), 0);
	int found = 0;
	for (int probe = 0; probe < probes; probe++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t addr = probe % 3 ? starts[x % (uint64_t)n] + (x >> 20) % 400
					  : base - (1ull << 20) + x % (a - base + (2ull << 20));
		/* reference: the last start <= addr, a function, within its end */
		int lo = -1;
		for (int l = 0, h = n - 1; l <= h;) {
			int m = (l + h) / 2;
			if (starts[m] <= addr)
				lo = m, l = m + 1;
			else
				h = m - 1;
		}
		const char *want = NULL;
		char name[32];
		if (lo >= 0 && lo % 7 != 6) {
			uint64_t end = lo + 1 < n ? starts[lo + 1] : starts[lo] + SYMTAB_MAX_GUESS;
			if (end - starts[lo] > SYMTAB_MAX_GUESS)
				end = starts[lo] + SYMTAB_MAX_GUESS;
			snprintf(name, sizeof name, "f%d", lo);
			if (addr < end)
				want = name;
		}
		const char *got = symtab_lookup(st, addr, NULL, NULL);
		if (!want)
			assert_null(got);
		else
			assert_string_equal(got, want);
		found += want != NULL;
	}
	assert_true(found > probes / 2);
	free(starts);
	symtab_free(st);
}

/* Tables big enough for the bucket index agree with a linear scan at
 * every probe: clustered and far-apart symbols from a low address, and a
 * dense table linked high (a kernel's or unikernel's text at
 * 0xffffffff80000000), where a bucket counted from 0 instead of the
 * table's start would land past the last one. */
static void symtab_big_table_matches_linear_search(void **state)
{
	big_table_case("big.nm", 0x10000, 20000, 1, 200000);
	big_table_case("high.nm", 0xffffffff80000000ull, 5000, 0, 30000);
}

/* nm -n of the real fixture agrees with the ELF table on every start. */
static void symtab_nm_matches_elf(void **state)
{
	NEED_CC();
	char p[128];
	struct uf_err err = {0};
	path_of(p, sizeof p, "fx.nm");
	struct symtab *nm = symtab_open_auto(p, &err);
	assert_non_null(nm);
	struct symtab *el = open_fx("fx");
	uint64_t a, s;
	const char *fns[] = {"g_two", "g_three", "main"};
	for (size_t i = 0; i < 3; i++) {
		assert_true(nm_sym(fns[i], &a, &s));
		assert_string_equal(symtab_lookup(nm, a, NULL, NULL), fns[i]);
		assert_string_equal(symtab_lookup(el, a, NULL, NULL), fns[i]);
	}
	symtab_free(nm);
	symtab_free(el);
}

/* A line over SYMTAB_MAX_NM_LINE is skipped whole; the next one counts. */
static void symtab_nm_long_line_skipped(void **state)
{
	char p[128];
	path_of(p, sizeof p, "long.nm");
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("0000000000001000 T ", f);
	for (unsigned i = 0; i < 3 * SYMTAB_MAX_NM_LINE; i++)
		fputc('a', f);
	fputs("\n0000000000002000 T after_long\n0000000000003000 T ", f);
	for (unsigned i = 0; i < SYMTAB_MAX_NAME + 100; i++) /* fits a line, not a name */
		fputc('n', f);
	fputs("\n", f);
	fclose(f);
	struct uf_err err = {0};
	struct symtab *st = symtab_open_nm(p, &err);
	assert_non_null(st);
	assert_int_equal(symtab_count(st), 2);
	assert_null(symtab_lookup(st, 0x1000, NULL, NULL));
	assert_string_equal(symtab_lookup(st, 0x2000, NULL, NULL), "after_long");
	size_t len = 0;
	const char *cut = symtab_lookup(st, 0x3000, NULL, &len);
	assert_int_equal(len, SYMTAB_MAX_NAME);
	assert_int_equal(strlen(cut), SYMTAB_MAX_NAME);
	assert_int_equal(symtab_check(st), 0);
	symtab_free(st);
}

/* nm -S output (a size column) is read too, and sizes are then used. */
static void symtab_nm_with_sizes(void **state)
{
	char p[128];
	write_file("sized.nm",
		   "0000000000001000 0000000000000010 T alpha\n"
		   "0000000000001040 t beta\n", p, sizeof p);
	struct uf_err err = {0};
	struct symtab *st = symtab_open_nm(p, &err);
	assert_non_null(st);
	assert_string_equal(symtab_lookup(st, 0x100f, NULL, NULL), "alpha");
	assert_null(symtab_lookup(st, 0x1010, NULL, NULL)); /* past its size */
	assert_string_equal(symtab_lookup(st, 0x1041, NULL, NULL), "beta");
	assert_int_equal(symtab_check(st), 0);
	symtab_free(st);
}

/* An address with a non-hex digit (upper or lower case hex is fine) is
 * no symbol: the line is skipped, never read as a shorter number. */
static void symtab_nm_bad_hex_skipped(void **state)
{
	char p[128];
	write_file("badhex.nm",
		   "0000000000001000 T alpha\n"
		   "00000000000020g0 T not_hex\n"
		   "000000000000z000 T not_hex2\n"
		   "0000000000003A00 T upper\n", p, sizeof p);
	struct uf_err err = {0};
	struct symtab *st = symtab_open_nm(p, &err);
	assert_non_null(st);
	assert_string_equal(symtab_lookup(st, 0x1000, NULL, NULL), "alpha");
	/* where a misread bad digit (as all ones) would have put them */
	assert_null(symtab_lookup(st, 0xfffffffffffffff0ull, NULL, NULL));
	assert_null(symtab_lookup(st, 0xfffffffffffff000ull, NULL, NULL));
	assert_string_equal(symtab_lookup(st, 0x3a00, NULL, NULL), "upper");
	assert_string_equal(symtab_lookup(st, 0x2100, NULL, NULL), "alpha"); /* extends to upper */
	assert_int_equal(symtab_check(st), 0);
	symtab_free(st);
}

static void symtab_nm_without_functions_is_error(void **state)
{
	char p[128];
	write_file("data.nm", "0000000000001000 D only_data\n0000000000002000 B bss\n", p, sizeof p);
	struct uf_err err = {0};
	assert_null(symtab_open_nm(p, &err));
	assert_int_equal(err.cls, UF_EINPUT);
	assert_string_equal(err.why, "no function symbols");
	assert_string_equal(err.what, p);
}

/* ---- errors ------------------------------------------------------------ */

static void symtab_missing_file_is_error(void **state)
{
	struct uf_err err = {0};
	assert_null(symtab_open_elf("/nonexistent/uf-symtab", &err));
	assert_int_equal(err.cls, UF_EINPUT);
	assert_string_equal(err.why, "no such file or directory");
	uf_err_clear(&err);
	assert_null(symtab_open_auto("/nonexistent/uf-symtab", &err));
	assert_int_equal(err.cls, UF_EINPUT);
}

static void symtab_not_elf_is_error(void **state)
{
	char p[128];
	write_file("text.txt", "hello, this is not an ELF file\n", p, sizeof p);
	struct uf_err err = {0};
	assert_null(symtab_open_elf(p, &err));
	assert_int_equal(err.cls, UF_EINPUT);
	assert_string_equal(err.why, "not an ELF file");
	uf_err_clear(&err);
	assert_null(symtab_open_elf_mem("", 0, "empty", &err));
	assert_string_equal(err.why, "not an ELF file");
}

static void symtab_stripped_has_no_symbols(void **state)
{
	NEED_CC();
	char p[128];
	struct uf_err err = {0};
	path_of(p, sizeof p, "fx-stripped");
	assert_null(symtab_open_elf(p, &err));
	assert_int_equal(err.cls, UF_EINPUT);
	assert_string_equal(err.why, "no function symbols");
}

static char *slurp(const char *name, size_t *len)
{
	char p[128];
	path_of(p, sizeof p, name);
	FILE *f = fopen(p, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	char *buf = malloc(*len);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

/* Cut the real ELF at many lengths, as a file and in memory: every
 * result is a table or a clear UF_EINPUT error, never a crash. */
static void symtab_truncated_elf_never_crashes(void **state)
{
	NEED_CC();
	size_t len;
	char *img = slurp("fx", &len);
	int errors = 0, tables = 0;
	for (size_t cut = 0; cut < len; cut += cut < 256 ? 1 : 211) {
		struct uf_err err = {0};
		struct symtab *st = symtab_open_elf_mem(img, cut, "cut", &err);
		if (st) {
			tables++;
			assert_int_equal(symtab_check(st), 0);
			symtab_free(st);
		} else {
			assert_int_equal(err.cls, UF_EINPUT);
			assert_true(err.why[0] != 0);
			/* a whole header: the user is told the file is cut short */
			if (cut >= 64)
				assert_string_equal(err.why, "truncated ELF file");
			errors++;
		}
	}
	assert_true(errors > 0);
	assert_int_equal(tables, 0); /* section headers come last: every cut loses them */
	/* one cut through the file system path too */
	char p[128];
	path_of(p, sizeof p, "fx-cut");
	FILE *f = fopen(p, "wb");
	fwrite(img, 1, len / 2, f);
	fclose(f);
	struct uf_err err = {0};
	assert_null(symtab_open_elf(p, &err));
	assert_int_equal(err.cls, UF_EINPUT);
	assert_string_equal(err.why, "truncated ELF file");
	free(img);
}

/* Corrupt header fields (section/program header offsets and counts,
 * string table index) and bytes across the file: no crash. */
static void symtab_corrupt_elf_never_crashes(void **state)
{
	NEED_CC();
	size_t len;
	char *img = slurp("fx", &len);
	char *bad = malloc(len);
	assert_non_null(bad);
	static const size_t fields[] = {0x20, 0x28, 0x36, 0x38, 0x3a, 0x3c, 0x3e, 0x04, 0x05, 0x10};
	static const unsigned char vals[] = {0xff, 0x00, 0x7f, 0x01, 0x80};
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		for (size_t v = 0; v < sizeof vals; v++) {
			memcpy(bad, img, len);
			memset(bad + fields[i], vals[v], fields[i] < 0x30 ? 2 : 1);
			struct uf_err err = {0};
			symtab_free(symtab_open_elf_mem(bad, len, "bad", &err));
		}
	for (size_t pos = 64; pos < len; pos += 97) { /* stride through the file */
		memcpy(bad, img, len);
		for (size_t k = 0; k < 8 && pos + k < len; k++)
			bad[pos + k] = (char)0xff;
		struct uf_err err = {0};
		symtab_free(symtab_open_elf_mem(bad, len, "bad", &err));
	}
	free(bad);
	free(img);
}

/* ---- processes and load bias ------------------------------------------- */

/* Starts `exe` with an argument (it prints g_two and s_one and pauses). */
static pid_t spawn_fixture(const char *exe, uint64_t *g_two, uint64_t *s_one)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		execl(exe, exe, "wait", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char line[128] = {0};
	FILE *f = fdopen(fds[0], "r");
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	unsigned long long a, b;
	assert_int_equal(sscanf(line, "%llx %llx", &a, &b), 2);
	*g_two = a, *s_one = b;
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* A PIE process: the runtime addresses (ASLR) resolve through the bias. */
static void symtab_procmap_pie_bias(void **state)
{
	NEED_CC();
	char exe[128], buf[256];
	path_of(exe, sizeof exe, "fx");
	uint64_t g2, s1;
	pid_t pid = spawn_fixture(exe, &g2, &s1);
	struct uf_err err = {0};
	struct symtab_procmap *m = symtab_procmap_open(pid, NULL, &err);
	assert_non_null(m);
	assert_int_equal(symtab_procmap_refresh(m, pid, &err), 0);
	reap(pid); /* symbolizing needs no live process */
	assert_true(symtab_procmap_refresh(m, pid, &err) < 0); /* gone: the old maps stay */
	assert_int_equal(err.cls, UF_ETARGET);
	uint64_t a, s;
	assert_true(nm_sym("g_two", &a, &s));
	assert_true(g2 != a); /* really relocated */
	assert_string_equal(symtab_procmap_lookup(m, g2, 0, buf, sizeof buf, NULL), "g_two");
	assert_string_equal(symtab_procmap_lookup(m, g2 + s, SYMTAB_RET, buf, sizeof buf, NULL),
			    "g_two");
	assert_string_equal(symtab_procmap_lookup(m, s1, 0, buf, sizeof buf, NULL), "zz_alias");
	size_t len;
	assert_string_equal(symtab_procmap_lookup(m, 8, 0, buf, sizeof buf, &len), "[unknown]");
	assert_int_equal(len, 9);
	assert_string_equal(symtab_procmap_lookup(m, 8, SYMTAB_ADDRS, buf, sizeof buf, NULL), "0x8");
	size_t maps, ok;
	symtab_procmap_stats(m, &maps, &ok);
	assert_true(maps >= 2 && ok >= 1);
	symtab_procmap_free(m);
}

/* A stripped executable resolves as unknown (module+offset with
 * SYMTAB_ADDRS); with -x the unstripped file gives names. */
static void symtab_procmap_exe_override(void **state)
{
	NEED_CC();
	char exe[128], dbg[128], buf[256];
	path_of(exe, sizeof exe, "fx-stripped");
	path_of(dbg, sizeof dbg, "fx");
	uint64_t g2, s1, a, s;
	assert_true(nm_sym("g_two", &a, &s));
	pid_t pid = spawn_fixture(exe, &g2, &s1);
	struct uf_err err = {0};
	struct symtab_procmap *plain = symtab_procmap_open(pid, NULL, &err);
	struct symtab_procmap *over = symtab_procmap_open(pid, dbg, &err);
	struct symtab_procmap *bad = symtab_procmap_open(pid, "/nonexistent/x", &err);
	reap(pid);
	assert_non_null(plain);
	assert_non_null(over);
	assert_null(bad);
	assert_int_equal(err.cls, UF_EINPUT);
	assert_string_equal(symtab_procmap_lookup(plain, g2, 0, buf, sizeof buf, NULL), "[unknown]");
	const char *got = symtab_procmap_lookup(plain, g2, SYMTAB_ADDRS, buf, sizeof buf, NULL);
	assert_ptr_equal(got, buf);
	assert_true(strncmp(got, "fx-stripped+0x", 14) == 0);
	assert_string_equal(symtab_procmap_lookup(over, g2, 0, buf, sizeof buf, NULL), "g_two");
	symtab_procmap_free(plain);
	symtab_procmap_free(over);
}

/* A stripped file whose debug file sits under the build-id tree gets
 * its names from there (how distro libraries with -dbg packages work). */
static void symtab_procmap_build_id_debug_file(void **state)
{
	NEED_CC();
	if (run("cd %s && id=$(readelf -n fx 2>/dev/null | awk '/Build ID/ {print $3}') && "
		"[ -n \"$id\" ] && mkdir -p dbg/.build-id/${id%%${id#??}} && "
		"objcopy --only-keep-debug fx dbg/.build-id/${id%%${id#??}}/${id#??}.debug", dir) != 0)
		skip();
	char exe[128], dbgdir[128], buf[256];
	path_of(exe, sizeof exe, "fx-stripped");
	path_of(dbgdir, sizeof dbgdir, "dbg");
	uint64_t g2, s1;
	pid_t pid = spawn_fixture(exe, &g2, &s1);
	struct uf_err err = {0};
	setenv("UNIPROF_FLAME_DEBUG_DIR", dbgdir, 1);
	struct symtab_procmap *m = symtab_procmap_open(pid, NULL, &err);
	unsetenv("UNIPROF_FLAME_DEBUG_DIR");
	reap(pid);
	assert_non_null(m);
	assert_string_equal(symtab_procmap_lookup(m, g2, 0, buf, sizeof buf, NULL), "g_two");
	assert_string_equal(symtab_procmap_lookup(m, s1, 0, buf, sizeof buf, NULL), "zz_alias");
	symtab_procmap_free(m);
}

static void symtab_procmap_bad_pid_is_target_error(void **state)
{
	struct uf_err err = {0};
	assert_null(symtab_procmap_open(0x3fffffff, NULL, &err));
	assert_int_equal(err.cls, UF_ETARGET);
	assert_string_equal(err.why, "cannot read memory maps: no such process");
}

/* Maps text from a saved file: bias math on a hand-made mapping. */
static void symtab_procmap_from_text(void **state)
{
	NEED_CC();
	char exe[128], maps[512], buf[64];
	path_of(exe, sizeof exe, "fx-nopie");
	struct symtab *st = open_fx("fx-nopie");
	uint64_t s, e;
	const char *name = symtab_symbol(st, 0, &s, &e);
	/* ET_EXEC: mapped where linked (bias 0); x86-64 ld puts the image
	 * base at 0x400000, so file offset = vaddr - 0x400000 */
	snprintf(maps, sizeof maps,
		 "%" PRIx64 "-%" PRIx64 " r-xp %08" PRIx64 " 08:01 1 %s\n"
		 "garbage\n"
		 "7ffd0000-7ffd1000 r-xp 00000000 00:00 0 [vdso]\n",
		 s & ~(uint64_t)0xfff, (e + 0xfff) & ~(uint64_t)0xfff,
		 (s & ~(uint64_t)0xfff) - 0x400000, exe);
	struct uf_err err = {0};
	struct symtab_procmap *m = symtab_procmap_open_text(maps, strlen(maps), exe, NULL, &err);
	assert_non_null(m);
	const char *got = symtab_procmap_lookup(m, s, 0, buf, sizeof buf, NULL);
	assert_string_equal(got, name);
	assert_string_equal(symtab_procmap_lookup(m, 0x7ffd0010, SYMTAB_ADDRS, buf, 8, NULL),
			    "[vdso]+");
	/* record's summary names the files it could not read: none here */
	const char *upath = NULL, *uwhy = NULL;
	assert_int_equal(symtab_procmap_unreadable(m, &upath, &uwhy), 0);
	assert_null(upath);
	/* a long path (4 KiB maps lines exist: deep container roots): the
	 * module is its basename, read within the line (ASan watches) */
	{
		static char text[4200];
		int n = snprintf(text, sizeof text, "10000-11000 r-xp 00002000 08:01 7 /");
		memset(text + n, 'd', 3000);
		snprintf(text + n + 3000, sizeof text - (size_t)n - 3000, "/libdeep.so\n");
		struct symtab_procmap *deep = symtab_procmap_open_text(text, strlen(text), exe, NULL, &err);
		assert_non_null(deep);
		assert_string_equal(symtab_procmap_lookup(deep, 0x10010, SYMTAB_ADDRS, buf, sizeof buf,
							  NULL), "libdeep.so+0x2010");
		symtab_procmap_free(deep);
		/* a readable file, then one that is gone: only the second is
		 * unreadable, with its reason */
		n = snprintf(text, sizeof text, "%s", maps);
		snprintf(text + n, sizeof text - (size_t)n,
			 "20000-21000 r-xp 00000000 08:01 8 /nonexistent/libgone.so\n");
		deep = symtab_procmap_open_text(text, strlen(text), exe, NULL, &err);
		assert_non_null(deep);
		assert_int_equal(symtab_procmap_unreadable(deep, &upath, &uwhy), 1);
		assert_string_equal(upath, "/nonexistent/libgone.so");
		assert_string_equal(uwhy, UF_STRERROR(ENOENT));
		symtab_procmap_free(deep);
	}
	/* refresh: both old mappings vanished and a new anonymous one
	 * overlaps the old [vdso]: the exe mapping stays, [vdso] is dropped */
	const char *later = "7ffd0800-7ffd2000 r-xp 00000000 00:00 0\n";
	assert_int_equal(symtab_procmap_refresh_text(m, later, strlen(later), &err), 0);
	assert_string_equal(symtab_procmap_lookup(m, s, 0, buf, sizeof buf, NULL), name);
	assert_string_equal(symtab_procmap_lookup(m, 0x7ffd0010, SYMTAB_ADDRS, buf, sizeof buf, NULL),
			    "0x7ffd0010");
	assert_string_equal(symtab_procmap_lookup(m, 0x7ffd0810, SYMTAB_ADDRS, buf, sizeof buf, NULL),
			    "[anon]+0x10");
	size_t nmaps;
	symtab_procmap_stats(m, &nmaps, NULL);
	assert_int_equal(nmaps, 2);
	symtab_procmap_free(m);
	symtab_free(st);
}

/* ---- uniprof raw traces ------------------------------------------------ */

struct nmctx {
	struct symtab *st;
};

static const char *resolve_nm(void *ctx, uint64_t addr, int is_ret, size_t *len)
{
	struct nmctx *c = ctx;
	return is_ret ? symtab_lookup_ret(c->st, addr, NULL, len)
		      : symtab_lookup(c->st, addr, NULL, len);
}

static char *folded_of(fold_trie *t)
{
	char *out = NULL;
	size_t olen = 0;
	FILE *f = open_memstream(&out, &olen);
	assert_int_equal(fold_trie_finish(t), 0);
	assert_int_equal(fold_write_folded(t, f), 0);
	fclose(f);
	return out;
}

static struct symtab *hand_table(void)
{
	char p[128];
	write_file("raw.nm",
		   "0000000000001000 T main\n0000000000001100 T work\n"
		   "0000000000001200 T leaf\n0000000000001300 D end\n", p, sizeof p);
	struct uf_err err = {0};
	struct symtab *st = symtab_open_nm(p, &err);
	assert_non_null(st);
	return st;
}

/* What the writer writes, the reader folds: leaf first in, root first
 * out; a return address at a function's end belongs to the caller. */
static void symtab_raw_roundtrip(void **state)
{
	char *raw = NULL;
	size_t rlen = 0;
	FILE *f = open_memstream(&raw, &rlen);
	assert_int_equal(fold_raw_write_header(f, "pid 42"), 0);
	const uint64_t s1[] = {0x1210, 0x1100 + 0x100, 0x1050};  /* leaf, work end, main */
	const uint64_t s2[] = {0x1180, 0x1004};
	const uint64_t s3[] = {0};
	assert_int_equal(fold_raw_write_stack(f, s1, 3, 1), 0);
	assert_int_equal(fold_raw_write_stack(f, s1, 3, 1), 0);
	assert_int_equal(fold_raw_write_stack(f, s2, 2, 0), 0);
	assert_int_equal(fold_raw_write_stack(f, s3, 1, 1), 0);
	assert_int_equal(fold_raw_write_stack(f, NULL, 0, 1), 0);
	fclose(f);
	assert_true(strstr(raw, "\n0x0\n1\n\n") != NULL); /* address 0 stays unambiguous */
	assert_int_equal(fold_raw_looks_like(raw, rlen), 1);
	struct nmctx c = {hand_table()};
	fold_trie *t = fold_trie_new();
	struct fold_read_opts o = {.label = "mem"};
	struct fold_read_stats st = {0};
	struct fold_raw_counts cnt = {0};
	struct uf_err err = {0};
	assert_int_equal(fold_raw_read_mem(t, raw, rlen, resolve_nm, &c, &o, &st, &cnt, &err), 0);
	char *out = folded_of(t);
	assert_string_equal(out, "[unknown] 1\nmain;work 1\nmain;work;leaf 2\n");
	assert_int_equal(cnt.stacks, 4);
	assert_int_equal(cnt.empty, 1);
	assert_int_equal(cnt.broken, 1);
	assert_int_equal(st.bad, 0);
	assert_int_equal(fold_trie_check(t), 0);
	free(out);
	free(raw);
	fold_trie_free(t);
	symtab_free(c.st);
}

/* uniprof's own variants: symbolized frames, CRLF, a missing terminator,
 * comments, an over-long line, no resolver (addresses as names). */
static void symtab_raw_uniprof_variants(void **state)
{
	static const char in[] =
		"#unikernel stack tracer using xc_domain_hvm_getcontext_partial hypercall interface\n"
		"#tracing domid 3 on 2017-01-01\n\n"
		"leaf+0x10\r\nwork+0x2\r\nmain\r\n1\r\n\r\n"
		"0xffffffff80001000\n0xffffffff80000500\n1\n\n"
		"0xffffffff80001000\n\n"
		"plain_name+0xzz\n1\n\n"
		"0xABC\n";
	fold_trie *t = fold_trie_new();
	struct fold_read_opts o = {.label = "mem"};
	struct fold_read_stats st = {0};
	struct fold_raw_counts cnt = {0};
	struct uf_err err = {0};
	assert_int_equal(fold_raw_read_mem(t, in, sizeof in - 1, NULL, NULL, &o, &st, &cnt, &err), 0);
	char *out = folded_of(t);
	assert_string_equal(out,
			    "0xabc 1\n"
			    "0xffffffff80000500;0xffffffff80001000 1\n"
			    "0xffffffff80001000 1\n"
			    "main;work;leaf 1\n"
			    "plain_name+0xzz 1\n");
	assert_int_equal(cnt.stacks, 5);
	assert_int_equal(cnt.broken, 1); /* the last one, cut by end of input */
	free(out);
	fold_trie_free(t);
}

/* Untrusted input: lines over the cap are counted bad; a stack deeper
 * than FOLD_MAX_DEPTH keeps its outermost frames and is counted. */
static void symtab_raw_caps(void **state)
{
	size_t depth = FOLD_MAX_DEPTH + 100, cap = depth * 24 + FOLD_RAW_MAX_LINE + 64;
	char *in = malloc(cap);
	assert_non_null(in);
	size_t n = 0;
	memset(in, 'x', FOLD_RAW_MAX_LINE + 1);
	n = FOLD_RAW_MAX_LINE + 1;
	in[n++] = '\n';
	for (size_t i = 0; i < depth; i++)
		n += (size_t)snprintf(in + n, cap - n, "0x%zx\n", depth - i); /* root is 0x1 */
	n += (size_t)snprintf(in + n, cap - n, "1\n\n");
	fold_trie *t = fold_trie_new();
	struct fold_read_opts o = {.label = "deep"};
	struct fold_read_stats st = {0};
	struct uf_err err = {0};
	assert_int_equal(fold_raw_read_mem(t, in, n, NULL, NULL, &o, &st, NULL, &err), 0);
	assert_int_equal(st.bad, 1);
	assert_string_equal(st.first_bad, "deep:1");
	assert_int_equal(st.truncated, 1);
	uint32_t root_child = fold_trie_find(t, FOLD_ROOT, fold_trie_intern(t, "0x1", 3));
	assert_true(root_child != FOLD_NONE);
	assert_int_equal(fold_trie_check(t), 0);
	fold_trie_free(t);
	/* the same through a pipe: the streaming reader agrees */
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		for (size_t w = 0; w < n;) {
			ssize_t k = write(fds[1], in + w, n - w);
			if (k <= 0)
				_exit(1);
			w += (size_t)k;
		}
		_exit(0);
	}
	close(fds[1]);
	t = fold_trie_new();
	struct fold_read_stats st2 = {0};
	assert_int_equal(fold_raw_read_fd(t, fds[0], NULL, NULL, &o, &st2, NULL, &err), 0);
	close(fds[0]);
	waitpid(pid, NULL, 0);
	assert_int_equal(st2.bad, 1);
	assert_int_equal(st2.truncated, 1);
	assert_int_equal(st2.lines, st.lines);
	fold_trie_free(t);
	free(in);
}

static void symtab_raw_sniff(void **state)
{
	assert_int_equal(fold_raw_looks_like("0x1234\n1\n\n", 10), 1);
	assert_int_equal(fold_raw_looks_like("#unikernel\n", 11), 1);
	assert_int_equal(fold_raw_looks_like("a;b;c 3\n", 8), 0);
	assert_int_equal(fold_raw_looks_like("0xzz;b 3\n", 9), 0);
	assert_int_equal(fold_raw_looks_like("", 0), 0);
}

/* The library rule table (symtab/lib.c) on Unikraft, external-library,
 * platform, driver and app paths; names cut and cleaned. */
static void symtab_lib_rules(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "/home/u/unikraft/lib/ukalloc/alloc.c", "libukalloc" },
		{ "lib/uksched/sched.c", "libuksched" },
		{ "/u/unikraft/plat/kvm/x86/time.c", "libkvmplat" },
		{ "/u/unikraft/drivers/virtio/net/virtio_net.c", "libnet" },
		{ "/u/libs/lwip/src/core/tcp_in.c", "liblwip" },
		{ "/u/libs/musl/src/lib/x.c", "libmusl" },          /* libs/ before lib/ */
		{ "/u/app/build/libnewlibc/origin/newlib/a.c", "libnewlibc" },
		/* fetched before the rest: a tarball's lib/, libs/ stay its own */
		{ "/u/app/workdir/build/libfoo/origin/foo-1.0/lib/x/a.c", "libfoo" },
		{ "/u/libs/app/build/libfoo/origin/foo-1.0/libs/y/b.c", "libfoo" },
		{ "/u/apps/helloworld/main.c", "my-app" },          /* no rule: the app */
		{ "/u/mylib/ukalloc/a.c", "my-app" },               /* lib/ only at a segment */
		{ "lib/x.c", "my-app" },                            /* a file, not a directory */
		{ "/u/lib/we<ird>/a.c", "libwe_ird_" },             /* cleaned for CSS and frames */
	};
	char buf[SYMTAB_LIB_MAX];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n = symtab_lib_of_source(cases[i][0], "my-app", buf, sizeof buf);
		assert_string_equal(buf, cases[i][1]);
		assert_int_equal(n, strlen(cases[i][1]));
	}
	char small[5];
	assert_int_equal(symtab_lib_of_source("lib/ukalloc/a.c", "x", small, sizeof small), 4);
	assert_string_equal(small, "libu");
}

/* Source positions through an inlined call (-O2 -g): an address inside
 * inner()'s loop, which GCC inlined into outer(), is inner's line 3 at the
 * innermost level and outer's call site, line 7, one level out. */
static const char inl_src[] =
	"volatile unsigned long sink;\n"
	"static inline __attribute__((always_inline)) void inner(unsigned long n) {\n"
	"  for (unsigned long i = 0; i < n; i++) sink = sink * 31u + i;\n"
	"}\n"
	"__attribute__((noinline)) void outer(unsigned long n) {\n"
	"  sink += 7;\n"
	"  inner(n);\n"
	"  sink += 9;\n"
	"}\n"
	"int main(int argc, char **argv) { (void)argv; outer((unsigned long)argc); return 0; }\n";

static void symtab_lines_frames_inlined(void **state)
{
	(void)state;
	NEED_CC();
	char src[128], bin[128];
	path_of(src, sizeof src, "inl.c");
	path_of(bin, sizeof bin, "inl");
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs(inl_src, f);
	fclose(f);
	if (run("cc -O2 -g -no-pie -o %s %s 2>/dev/null", bin, src) != 0)
		skip();
	struct uf_err err = { 0 };
	struct symtab *st = symtab_open_elf(bin, &err);
	struct symtab_lines *l = symtab_lines_open(bin, &err);
	assert_non_null(st);
	assert_non_null(l);
	uint64_t lo = 0, hi = 0, a, probe = 0;
	for (size_t i = 0; i < symtab_count(st); i++)
		if (!strcmp(symtab_symbol(st, i, &lo, &hi), "outer"))
			break;
	assert_true(hi > lo);
	for (a = lo; a < hi && !probe; a++) {
		const char *file;
		int line;
		if (symtab_lines_lookup(l, a, &file, &line) == 0 && line == 3)
			probe = a;
	}
	assert_true(probe != 0);
	struct symtab_srcpos pos[SYMTAB_MAX_INLINE + 1];
	const char *names[SYMTAB_MAX_INLINE];
	int n = symtab_lines_frames(l, probe, pos, names, SYMTAB_MAX_INLINE + 1);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "inner");
	assert_int_equal(pos[0].line, 7);  /* outer's call site */
	assert_int_equal(pos[1].line, 3);  /* inner's own line */
	assert_non_null(strstr(pos[0].file, "inl.c"));
	assert_non_null(strstr(pos[1].file, "inl.c"));
	/* one level: the innermost line, no scope walk */
	assert_int_equal(symtab_lines_frames(l, probe, pos, NULL, 1), 1);
	assert_int_equal(pos[0].line, 3);
	/* the same chain as symtab_lines_inlined names it */
	const char *in[4];
	assert_int_equal(symtab_lines_inlined(l, probe, in, 4), 1);
	assert_string_equal(in[0], "inner");
	/* outer's own code before the call: one level, its own line */
	n = symtab_lines_frames(l, lo, pos, names, SYMTAB_MAX_INLINE + 1);
	assert_true(n == 1 && pos[0].file && pos[0].line >= 5 && pos[0].line <= 8);
	/* no compilation unit there: nothing */
	assert_int_equal(symtab_lines_frames(l, 0x10, pos, names, SYMTAB_MAX_INLINE + 1), 0);
	assert_int_equal(symtab_lines_inlined(l, 0x10, in, 4), 0);
	symtab_lines_free(l);
	symtab_free(st);
	/* a call site DWARF gives as line 0 (GCC writes DW_AT_call_line 0 for
	 * an inlined call on a "#line 0" line: compiler-made code): that
	 * level has no position (file NULL), not "inl0.c:0" */
	path_of(src, sizeof src, "inl0.c");
	path_of(bin, sizeof bin, "inl0");
	f = fopen(src, "w");
	assert_non_null(f);
	const char *call = strstr(inl_src, "  inner(n);\n");
	assert_non_null(call);
	fprintf(f, "%.*s#line 0\n  inner(n);\n#line 8\n%s", (int)(call - inl_src), inl_src,
		call + strlen("  inner(n);\n"));
	fclose(f);
	if (run("cc -O2 -g -no-pie -o %s %s 2>/dev/null", bin, src) != 0)
		fail_msg("cc failed on %s", src);
	st = symtab_open_elf(bin, &err);
	l = symtab_lines_open(bin, &err);
	assert_non_null(st);
	assert_non_null(l);
	for (size_t i = 0; i < symtab_count(st); i++)
		if (!strcmp(symtab_symbol(st, i, &lo, &hi), "outer"))
			break;
	probe = 0;
	for (a = lo; a < hi && !probe; a++) {
		const char *file;
		int line;
		if (symtab_lines_lookup(l, a, &file, &line) == 0 && line == 3)
			probe = a;
	}
	assert_true(probe != 0);
	n = symtab_lines_frames(l, probe, pos, names, SYMTAB_MAX_INLINE + 1);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "inner");
	assert_null(pos[0].file);          /* outer's call site: line 0 */
	assert_int_equal(pos[0].line, 0);
	assert_int_equal(pos[1].line, 3);  /* inner's own line */
	assert_non_null(strstr(pos[1].file, "inl0.c"));
	symtab_lines_free(l);
	symtab_free(st);
	/* no DWARF at all: the open says so */
	char nodbg[128];
	path_of(nodbg, sizeof nodbg, "fx");
	assert_null(symtab_lines_open(nodbg, &err));
	assert_string_equal(err.why, "no DWARF debug information");
}

/* A fetched library built from its unpacked directory through a relative
 * path (DW_AT_name "src/eval.c", DW_AT_comp_dir .../build/libfoo/origin/
 * foo-1.0): libfoo, by the name joined to the directory; the app's own
 * files stay the app's: one with an absolute name and no rule, and one
 * compiled as "main2.c" in a directory .../rel/lib/x (only the fetched
 * layout is looked for in a compilation directory). */
static void symtab_libs_relative_cu_name(void **state)
{
	NEED_CC();
	assert_int_equal(run("mkdir -p %s/rel/build/libfoo/origin/foo-1.0/src %s/rel/app && "
			     "cd %s/rel && echo 'int foo_api(int x) { return x * 7; }' "
			     "> build/libfoo/origin/foo-1.0/src/eval.c && "
			     "printf '%%s\n' 'int foo_api(int);' "
			     "'int main(int c, char **v) { (void)v; return foo_api(c); }' > app/main.c && "
			     "(cd build/libfoo/origin/foo-1.0 && cc -O1 -g -c -o ../../../../eval.o src/eval.c) && "
			     "mkdir -p lib/x && sed 's/main/other/' app/main.c > lib/x/main2.c && "
			     "(cd lib/x && cc -O1 -g -c -o ../../main2.o main2.c) && "
			     "cc -O1 -g -o guest.dbg eval.o main2.o $PWD/app/main.c && "
			     "nm guest.dbg | awk '$3 == \"foo_api\" || $3 == \"main\" || $3 == \"other\" { print $3, $1 }' > syms",
			     dir, dir, dir), 0);
	char p[160], name[32], buf[64];
	unsigned long long a;
	snprintf(p, sizeof p, "%s/rel/syms", dir);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	struct uf_err err = { 0 };
	snprintf(p, sizeof p, "%s/rel/guest.dbg", dir);
	struct symtab_libs *l = symtab_libs_open(p, &err);
	assert_non_null(l);
	int seen = 0;
	while (fscanf(f, "%31s %llx", name, &a) == 2) {
		assert_true(symtab_libs_lookup(l, a, buf, sizeof buf) > 0);
		assert_string_equal(buf, !strcmp(name, "foo_api") ? "libfoo" : "guest");
		seen++;
	}
	fclose(f);
	assert_int_equal(seen, 3);
	symtab_libs_free(l);
}

/* Without DWARF, a local function's library comes from the STT_FILE
 * symbol before it: GCC and clang write the source's base name there, so
 * the rule table sees no directory and the functions are the app's (the
 * ELF's name without ".elf"); a global function follows every local and
 * has no file, so no library.  Three ranges, looked up at both ends. */
static void symtab_libs_from_stt_file(void **state)
{
	NEED_CC();
	assert_int_equal(run("mkdir -p %s/stf/lib/ukalloc %s/stf/app", dir, dir), 0);
	assert_int_equal(run("cd %s/stf && printf '%%s\\n' "
			     "'static int __attribute__((noinline)) a1(int x) { return x * 3 + 1; }' "
			     "'static int __attribute__((noinline)) a2(int x) { return a1(x) ^ 7; }' "
			     "'int alloc_api(int x) { return a2(x) + a1(x); }' > lib/ukalloc/alloc.c && "
			     "printf '%%s\\n' 'int alloc_api(int);' "
			     "'static int __attribute__((noinline)) m1(int x) { return alloc_api(x) + 2; }' "
			     "'int main(int c, char **v) { (void)v; return m1(c); }' > app/main.c && "
			     "cc -O1 -g0 -o guest.elf lib/ukalloc/alloc.c app/main.c && "
			     "nm guest.elf | awk '$3 == \"a1\" || $3 == \"a2\" || $3 == \"m1\" || "
			     "$3 == \"alloc_api\" { print $3, $1 }' > syms", dir), 0);
	char p[160], name[32], buf[64];
	unsigned long long a;
	snprintf(p, sizeof p, "%s/stf/syms", dir);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	struct uf_err err = { 0 };
	snprintf(p, sizeof p, "%s/stf/guest.elf", dir);
	struct symtab_libs *l = symtab_libs_open(p, &err);
	assert_non_null(l);
	int seen = 0;
	while (fscanf(f, "%31s %llx", name, &a) == 2) {
		size_t n = symtab_libs_lookup(l, a, buf, sizeof buf);
		size_t n_end = symtab_libs_lookup(l, a + 3, buf, sizeof buf);
		if (!strcmp(name, "alloc_api")) {
			assert_int_equal(n, 0);
		} else {
			assert_true(n > 0 && n_end > 0);
			assert_string_equal(buf, "guest");
		}
		seen++;
	}
	fclose(f);
	assert_int_equal(seen, 4);
	assert_int_equal(symtab_libs_lookup(l, 0x10, buf, sizeof buf), 0);
	symtab_libs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(symtab_lib_rules),
		cmocka_unit_test(symtab_libs_relative_cu_name),
		cmocka_unit_test(symtab_lines_frames_inlined),
		cmocka_unit_test(symtab_elf_matches_nm),
		cmocka_unit_test(symtab_static_and_global_names),
		cmocka_unit_test(symtab_alias_prefers_global),
		cmocka_unit_test(symtab_alias_rule),
		cmocka_unit_test(symtab_vdso_from_memory),
		cmocka_unit_test(symtab_guess_bias_from_addresses),
		cmocka_unit_test(symtab_local_only_symbols),
		cmocka_unit_test(symtab_retaddr_at_function_end),
		cmocka_unit_test(symtab_untyped_labels),
		cmocka_unit_test(symtab_version_suffix_dropped),
		cmocka_unit_test(symtab_load_bias_math),
		cmocka_unit_test(symtab_unknown_address),
		cmocka_unit_test(symtab_table_is_sorted_and_disjoint),
		cmocka_unit_test(symtab_nm_sizes_from_next_symbol),
		cmocka_unit_test(symtab_nm_matches_elf),
		cmocka_unit_test(symtab_big_table_matches_linear_search),
		cmocka_unit_test(symtab_nm_long_line_skipped),
		cmocka_unit_test(symtab_nm_bad_hex_skipped),
		cmocka_unit_test(symtab_nm_with_sizes),
		cmocka_unit_test(symtab_nm_without_functions_is_error),
		cmocka_unit_test(symtab_missing_file_is_error),
		cmocka_unit_test(symtab_not_elf_is_error),
		cmocka_unit_test(symtab_stripped_has_no_symbols),
		cmocka_unit_test(symtab_truncated_elf_never_crashes),
		cmocka_unit_test(symtab_corrupt_elf_never_crashes),
		cmocka_unit_test(symtab_procmap_pie_bias),
		cmocka_unit_test(symtab_procmap_exe_override),
		cmocka_unit_test(symtab_procmap_build_id_debug_file),
		cmocka_unit_test(symtab_procmap_bad_pid_is_target_error),
		cmocka_unit_test(symtab_procmap_from_text),
		cmocka_unit_test(symtab_raw_roundtrip),
		cmocka_unit_test(symtab_raw_uniprof_variants),
		cmocka_unit_test(symtab_raw_caps),
		cmocka_unit_test(symtab_raw_sniff),
		cmocka_unit_test(symtab_libs_from_stt_file),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
