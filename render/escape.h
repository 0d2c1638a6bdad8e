/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/escape.h — making any byte string safe inside SVG (private).
 *
 * Names are arbitrary bytes.  XML 1.0 cannot carry most control bytes
 * even as character references, nor invalid UTF-8, so such bytes are
 * shown as the four characters \xNN; everything else that is special in
 * markup (& < > " ') becomes an entity.  The result is always
 * well-formed inside an element or a double-quoted attribute, and since
 * the script is never built from names, no name can run script.
 */
#ifndef UF_RENDER_ESCAPE_H
#define UF_RENDER_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* A name made displayable: valid UTF-8 with \xNN for bad bytes.  Grows
 * its buffer as needed; `chars` counts code points. */
struct display {
	char *buf;
	size_t len, cap;
	size_t chars;
};

/* Fills d from s[0..len).  Returns 0 or -ENOMEM. */
int escape_display(struct display *d, const char *s, size_t len);
/* Is s[0..len) printable ASCII with none of & < > " '?  Such a string
 * (nearly every name) is its own displayable form and its own XML, one
 * code point a byte: the two passes above leave it as it is. */
int escape_is_plain(const char *s, size_t len);
/* Byte length of the first `chars` code points of d. */
size_t escape_prefix_bytes(const struct display *d, size_t chars);
/* Writes s[0..len) (already displayable) with & < > " ' as entities. */
void escape_xml(FILE *out, const char *s, size_t len);
/* escape_xml through put(ctx, bytes, n), for writers with a buffer of
 * their own (render/frames.c). */
void escape_xml_put(void (*put)(void *ctx, const char *s, size_t n), void *ctx, const char *s,
		    size_t len);
/* escape_display + escape_xml, for short strings (titles, options). */
void escape_xml_any(FILE *out, const char *s, size_t len);

#endif
