/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/base64.h — RFC 4648 base64 (the standard alphabet, '=' padding).
 *
 * The SVG writer carries its compressed embedded profile as base64 text
 * (the alphabet has no XML-special byte, and a browser decodes it with
 * atob()).  Encoding breaks a line every `line` characters (0 = never),
 * so the text can be cut at newlines into chunks; decoding skips ASCII
 * whitespace anywhere (as atob() does) and refuses every other byte
 * outside the alphabet, padding that is not at the end, and a length
 * that is not a whole number of 4-character groups.
 */
#ifndef UF_UTIL_BASE64_H
#define UF_UTIL_BASE64_H

#include <stddef.h>
#include <stdint.h>

/* Bytes uf_base64_encode() writes for n input bytes (no terminator). */
size_t uf_base64_encoded_len(size_t n, size_t line);
/* Writes the encoding of in[0..n) to out (uf_base64_encoded_len bytes);
 * returns the number written. */
size_t uf_base64_encode(const uint8_t *in, size_t n, char *out, size_t line);
/* Decodes text[0..len) into out (room for len / 4 * 3 bytes is enough);
 * returns the number of bytes, or -1 when the text is not base64. */
long long uf_base64_decode(const char *text, size_t len, uint8_t *out);

#endif
