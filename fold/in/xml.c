/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/in/xml.c — loading libxml2 on first use; see fold/xml.h.
 */
#include <pthread.h>
#include <string.h>

#include "fold/in/xml.h"

#ifdef UF_XML_STATIC

static struct fold_xml api;
static int loaded;

static void load(void)
{
	xmlInitParser(); /* once, before any thread parses: see fold_xml_api */
	api = (struct fold_xml){
		xmlReaderForMemory, xmlTextReaderSetStructuredErrorHandler, xmlTextReaderRead,
		xmlTextReaderNodeType, xmlTextReaderDepth, xmlTextReaderConstLocalName,
		xmlTextReaderConstNamespaceUri, xmlTextReaderConstValue, xmlTextReaderGetAttribute,
		xmlTextReaderIsEmptyElement, xmlTextReaderReadString, xmlFreeTextReader, xmlFree,
	};
	loaded = 1;
}

#else

#include <dlfcn.h>

static struct fold_xml api;
static int loaded;
static char why[200];

/* One symbol; returns 0 when missing. */
static int sym(void *lib, const char *name, void *slot)
{
	void *p = dlsym(lib, name);
	memcpy(slot, &p, sizeof p);
	return p != NULL;
}

static void load(void)
{
	void *lib = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		snprintf(why, sizeof why, "reading SVG needs libxml2: %s", e ? e : "cannot load");
		return;
	}
	xmlFreeFunc *freefn = dlsym(lib, "xmlFree"); /* a variable holding the function */
	int ok = sym(lib, "xmlReaderForMemory", &api.reader_for_memory) &&
		 sym(lib, "xmlTextReaderSetStructuredErrorHandler", &api.set_error_handler) &&
		 sym(lib, "xmlTextReaderRead", &api.read) &&
		 sym(lib, "xmlTextReaderNodeType", &api.node_type) &&
		 sym(lib, "xmlTextReaderDepth", &api.depth) &&
		 sym(lib, "xmlTextReaderConstLocalName", &api.local_name) &&
		 sym(lib, "xmlTextReaderConstNamespaceUri", &api.namespace_uri) &&
		 sym(lib, "xmlTextReaderConstValue", &api.value) &&
		 sym(lib, "xmlTextReaderGetAttribute", &api.get_attribute) &&
		 sym(lib, "xmlTextReaderIsEmptyElement", &api.is_empty) &&
		 sym(lib, "xmlTextReaderReadString", &api.read_string) &&
		 sym(lib, "xmlFreeTextReader", &api.free_reader) && freefn && *freefn;
	if (!ok) {
		snprintf(why, sizeof why, "reading SVG needs libxml2: a symbol is missing");
		return;
	}
	api.free = *freefn;
	/* libxml2's global state (encoding handlers, dictionaries) is set up
	 * lazily by the first parse; two threads parsing at once (diff reads
	 * its inputs in parallel) raced to set it up and one copy leaked.
	 * Initialising it here, once, before any parse, closes the race. */
	void (*init)(void);
	if (!sym(lib, "xmlInitParser", &init)) {
		snprintf(why, sizeof why, "reading SVG needs libxml2: xmlInitParser is missing");
		return;
	}
	init();
	loaded = 1; /* the library stays loaded for the life of the process */
}

#endif

const struct fold_xml *fold_xml_api(struct uf_err *err, const char *label)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, load);
	if (loaded)
		return &api;
#ifndef UF_XML_STATIC
	uf_err_set(err, UF_EINPUT, label, "%s", why);
#else
	uf_err_set(err, UF_EINPUT, label, "libxml2 unavailable");
#endif
	return NULL;
}
