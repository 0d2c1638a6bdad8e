/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/in/xml.h — the libxml2 calls the SVG reader makes, loaded on first use.
 *
 * libxml2 on Debian pulls in ICU and libstdc++; linking it normally made
 * every start of the program (render of a 600 KB profile included) pay
 * several milliseconds of dynamic loading for a library only SVG input
 * needs.  So dynamic builds dlopen() it when the first SVG is read, once
 * (pthread_once: diff reads two inputs on two threads); static builds
 * (-DUF_XML_STATIC, e.g. the dom0 binary) call it directly.  Either way
 * xmlInitParser() runs once inside that pthread_once, before the first
 * parse on any thread (libxml2's lazy global setup is not thread-safe).
 */
#ifndef UF_FOLD_XML_H
#define UF_FOLD_XML_H

#include <libxml/xmlreader.h>

#include "util/err.h"

struct fold_xml {
	xmlTextReaderPtr (*reader_for_memory)(const char *, int, const char *, const char *, int);
	void (*set_error_handler)(xmlTextReaderPtr, xmlStructuredErrorFunc, void *);
	int (*read)(xmlTextReaderPtr);
	int (*node_type)(xmlTextReaderPtr);
	int (*depth)(xmlTextReaderPtr);
	const xmlChar *(*local_name)(xmlTextReaderPtr);
	const xmlChar *(*namespace_uri)(xmlTextReaderPtr);
	const xmlChar *(*value)(xmlTextReaderPtr);
	xmlChar *(*get_attribute)(xmlTextReaderPtr, const xmlChar *);
	int (*is_empty)(xmlTextReaderPtr);
	xmlChar *(*read_string)(xmlTextReaderPtr);
	void (*free_reader)(xmlTextReaderPtr);
	xmlFreeFunc free;
};

/* The loaded API, or NULL with *err set (libxml2 missing). */
const struct fold_xml *fold_xml_api(struct uf_err *err, const char *label);

#endif
