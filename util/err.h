/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/err.h — error records passed down by callers.
 *
 * Modules never print or exit.  A function that can fail takes a
 * `struct uf_err *err`, fills it on failure and returns a negative errno
 * (or NULL).  The CLI turns the class into the exit status and prints
 * "uniprof-flame: <what>: <why>".
 *
 * Invariants:
 *  1. `what` names the subject (a file, a pid, an option), quoted by the
 *     caller when it is user-supplied; `why` is lowercase, no full stop.
 *  2. The first error set wins: a cleanup path cannot overwrite the cause.
 *  3. Running out of memory has a class of its own, UF_ENOMEM, whatever
 *     the site passed: uf_err_set gives it to any record whose why is, or
 *     ends in, "out of memory" or libc's ENOMEM text ("cannot allocate
 *     memory"), so the ~70 allocation sites (and a module that passes
 *     UF_STRERROR(ENOMEM) on) report it without naming the class, and
 *     no other error may use those words.  A cap an input exceeds
 *     (-E2BIG, "too many ...") is bad input, never this class.  New
 *     code writes uf_err_oom(err, what).
 */
#ifndef UF_UTIL_ERR_H
#define UF_UTIL_ERR_H

#include <stdarg.h>
#include <stddef.h>

enum uf_err_class {
	UF_OK = 0,
	UF_EUSAGE = 1,   /* bad option or argument: exit 1 */
	UF_EINPUT = 2,   /* bad input file or output path: exit 2 */
	UF_ETARGET = 3,  /* target not found, attach refused, died early: exit 3 */
	UF_ENOMEM = 4,   /* memory ran out (the input may be fine): exit 4 */
};

struct uf_err {
	enum uf_err_class cls;
	char what[256];
	char why[512];
};

/* Set *err (if not already set); `what` and the why-format are copied. */
void uf_err_set(struct uf_err *err, enum uf_err_class cls, const char *what,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void uf_err_clear(struct uf_err *err);
/* "WHAT: out of memory", class UF_ENOMEM (invariant 3). */
void uf_err_oom(struct uf_err *err, const char *what);
/* 1 when `why` is an out-of-memory report (invariant 3's rule). */
int uf_err_is_oom_text(const char *why);

/* libc's message for errno `e` in our style (lowercase first letter, as
 * invariant 1 asks of `why`), written into buf[0..n) and returned: "no
 * such file or directory".  No hidden buffer: UF_STRERROR(e) passes a
 * compound literal that lives until the end of the enclosing statement,
 * so `uf_err_set(err, cls, what, "...: %s", UF_STRERROR(errno))` is safe
 * on any thread. */
#define UF_STRERROR_MAX 128
const char *uf_strerror_r(int e, char *buf, size_t n);
#define UF_STRERROR(e) uf_strerror_r((e), (char[UF_STRERROR_MAX]){0}, UF_STRERROR_MAX)
/* The same for a message libc gives as text (gai_strerror(), ...). */
const char *uf_errtext_r(const char *msg, char *buf, size_t n);
#define UF_ERRTEXT(msg) uf_errtext_r((msg), (char[UF_STRERROR_MAX]){0}, UF_STRERROR_MAX)

#endif
