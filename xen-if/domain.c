/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xen-if/domain.c — finding, creating and watching the domain.
 *
 * Names are resolved through xenstore (/local/domain/<id>/name), ids are
 * checked with one getdomaininfo; `-c` runs `xl create -p CFG` (the
 * issue allows it: libxl's config parser is not a public library) and
 * takes the one domain that appeared.  Whether our domain shut down or
 * died is checked with one getdomaininfo when a watch on @releaseDomain
 * fires (its fd is polled at most every XEN_WATCH_POLL_MS: a syscall per
 * sample is dear in a PV dom0), and at least every XEN_GONE_CHECK_MS anyway (a destroyed domain
 * we still hold mappings of lingers as a zombie, and xenstored does not
 * always fire the watch for it), never once per sample.
 *
 * Trade-off: the domain created by `xl create -p` is found by difference
 * of the domain lists before and after; a second toolstack creating a
 * domain in the same second could confuse it, so we also require the new
 * domain to be paused and, when the config names it, to carry that name.
 *
 * Invariants:
 *  1. Nothing here prints: xl's stderr goes to a memory file whose last
 *     line becomes the error's why.
 *  2. Every string read from xenstore is bounded by the copy into our
 *     buffers; xenstore values are freed on every path.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "xen-if/xen-priv.h"

#define MAX_DOMAINS 1024

static int lookup_id(struct xen_state *s, const char *domain, uint32_t id, struct uf_err *err);
static int name_of(struct xen_state *s, uint32_t id, char *buf, size_t len);
static int list_domids(struct xen_state *s, uint32_t *ids, int max);
static int run_xl(const char *const argv[], char *msg, size_t msglen);

int xen_domain_lookup(struct xen_state *s, const char *domain, struct uf_err *err)
{
	char what[160];
	snprintf(what, sizeof what, "domain '%.120s'", domain);
	char *end;
	errno = 0;
	unsigned long id = strtoul(domain, &end, 10);
	if (*domain && !*end && isdigit((unsigned char)*domain)) {
		if (errno || id >= DOMID_FIRST_RESERVED) {
			uf_err_set(err, UF_EUSAGE, what, "not a valid domain id");
			return -EINVAL;
		}
		return lookup_id(s, domain, (uint32_t)id, err);
	}
	if (!s->xsh) {
		uf_err_set(err, UF_ETARGET, what, "cannot look up names: xenstore is not reachable "
			   "(is xenstored running?)");
		return -ENOENT;
	}
	unsigned n = 0;
	char **ents = xs_directory(s->xsh, XBT_NULL, "/local/domain", &n);
	for (unsigned i = 0; ents && i < n; i++) {
		char nm[128];
		id = strtoul(ents[i], &end, 10);
		if (*end || id >= DOMID_FIRST_RESERVED || name_of(s, (uint32_t)id, nm, sizeof nm))
			continue;
		if (!strcmp(nm, domain)) {
			free(ents);
			return lookup_id(s, domain, (uint32_t)id, err);
		}
	}
	free(ents);
	uf_err_set(err, UF_ETARGET, what, "no such domain");
	return -ENOENT;
}

/* Check that `id` exists and fill domid, name and guest type. */
static int lookup_id(struct xen_state *s, const char *domain, uint32_t id, struct uf_err *err)
{
	char what[160];
	xc_dominfo_t info;
	snprintf(what, sizeof what, "domain '%.120s'", domain);
	int rc = xc_domain_getinfo(s->xch, id, 1, &info);
	if (rc < 0 && errno == EACCES) {
		uf_err_set(err, UF_ETARGET, what, "the hypervisor refused domctl interface %#x "
			   "(libxenctrl and the running Xen are different versions?)",
			   XEN_DOMCTL_INTERFACE_VERSION);
		return -EACCES;
	}
	if (rc != 1 || info.domid != id || info.dying) {
		uf_err_set(err, UF_ETARGET, what, "no such domain");
		return -ENOENT;
	}
	if (id == 0) {
		uf_err_set(err, UF_ETARGET, what, "refusing to pause dom0, the domain we run in");
		return -EINVAL;
	}
	s->domid = id;
	s->hvm = info.hvm;
	if (name_of(s, id, s->name, sizeof s->name))
		snprintf(s->name, sizeof s->name, "%u", id);
	return 0;
}

/* /local/domain/<id>/name into buf (truncated); 0 or -1. */
static int name_of(struct xen_state *s, uint32_t id, char *buf, size_t len)
{
	char path[64];
	unsigned n = 0;
	if (!s->xsh)
		return -1;
	snprintf(path, sizeof path, "/local/domain/%u/name", id);
	char *v = xs_read(s->xsh, XBT_NULL, path, &n);
	if (!v)
		return -1;
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), v);
	free(v);
	return 0;
}

int xen_domain_create(struct xen_state *s, const char *cfg, struct uf_err *err)
{
	char what[300], msg[256] = "";
	uint32_t before[MAX_DOMAINS], after[MAX_DOMAINS], found = 0;
	int nnew = 0;
	snprintf(what, sizeof what, "xl create -p '%.200s'", cfg);
	if (access(cfg, R_OK)) {
		uf_err_set(err, UF_ETARGET, what, "cannot read the config: %s", UF_STRERROR(errno));
		return -ENOENT;
	}
	int nb = list_domids(s, before, MAX_DOMAINS);
	const char *const argv[] = { "xl", "create", "-p", "-q", cfg, NULL };
	if (nb < 0 || run_xl(argv, msg, sizeof msg)) {
		uf_err_set(err, UF_ETARGET, what, "%s", msg[0] ? msg : "failed");
		return -EIO;
	}
	int na = list_domids(s, after, MAX_DOMAINS);
	for (int i = 0; i < na; i++) {
		int seen = 0;
		for (int j = 0; j < nb && !seen; j++)
			seen = before[j] == after[i];
		if (!seen && after[i] != 0) {
			found = after[i];
			nnew++;
		}
	}
	if (nnew != 1) {
		uf_err_set(err, UF_ETARGET, what, nnew ? "several new domains appeared; use -d"
			   : "xl reported success but no new domain appeared");
		return -ENOENT;
	}
	s->created = s->creation_pause = true;
	return lookup_id(s, cfg, found, err);
}

/* Destroy a domain we created (--destroy): `xl destroy` also cleans
 * xenstore and backends; the raw domctl is the fallback. */
void xen_domain_destroy(struct xen_state *s)
{
	char id[16], msg[64];
	snprintf(id, sizeof id, "%u", s->domid);
	const char *const argv[] = { "xl", "destroy", id, NULL };
	if (run_xl(argv, msg, sizeof msg))
		xc_domain_destroy(s->xch, s->domid);
}

/* Domain ids now present, at most max; -1 on failure. */
static int list_domids(struct xen_state *s, uint32_t *ids, int max)
{
	xc_dominfo_t *info = calloc((size_t)max, sizeof *info);
	if (!info)
		return -1;
	int n = xc_domain_getinfo(s->xch, 0, (unsigned)max, info);
	for (int i = 0; i < n; i++)
		ids[i] = info[i].domid;
	free(info);
	return n;
}

/* Run xl (UF_XL overrides the path) with stdout discarded and stderr
 * kept in a memory file; its last line goes to msg.  0 if xl exited 0. */
static int run_xl(const char *const argv[], char *msg, size_t msglen)
{
	const char *xl = getenv("UF_XL") ? getenv("UF_XL") : "xl";
	int mfd = memfd_create("uf-xl-stderr", 0);
	if (mfd < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(mfd, 2);
		execvp(xl, (char *const *)argv);
		dprintf(2, "cannot run %s: %s\n", xl, UF_STRERROR(errno));
		_exit(127);
	}
	int status = -1;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	char out[2048];
	ssize_t n = pread(mfd, out, sizeof out - 1, 0);
	close(mfd);
	out[n > 0 ? n : 0] = 0;
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = 0;
	char *last = strrchr(out, '\n');
	const char *line = last ? last + 1 : out;
	size_t k = strnlen(line, msglen - 1);
	memcpy(msg, line, k);
	msg[k] = 0;
	return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int xen_domain_watch(struct xen_state *s)
{
	if (!s->xsh || xs_fileno(s->xsh) < 0)
		return -1;
	return xs_watch(s->xsh, "@releaseDomain", "uf-gone") ? 0 : -1;
}

int xen_domain_check_gone(struct xen_state *s)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);  /* vDSO: no syscall */
	int64_t now_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	if (now_ms - s->last_poll_ms < XEN_WATCH_POLL_MS)
		return 0;
	s->last_poll_ms = now_ms;
	struct pollfd p = { .fd = s->xsh ? xs_fileno(s->xsh) : -1, .events = POLLIN };
	bool fired = p.fd >= 0 && poll(&p, 1, 0) > 0;
	if (!fired && now_ms - s->last_check_ms < XEN_GONE_CHECK_MS)
		return 0;
	s->last_check_ms = now_ms;
	char **ev;
	for (int i = 0; fired && i < 1024 && (ev = xs_check_watch(s->xsh)); i++)
		free(ev);
	xc_dominfo_t info;
	s->t->n_hypercalls++;
	int rc = xc_domain_getinfo(s->xch, s->domid, 1, &info);
	if (rc < 0 && errno != ESRCH)
		return 0;
	return rc != 1 || info.domid != s->domid || info.dying || info.shutdown;
}

/* (Re)read which vCPUs are online (invariant 1 of xen-priv.h). */
int xen_domain_vcpus(struct xen_state *s, struct uf_err *err)
{
	xc_dominfo_t info;
	if (xc_domain_getinfo(s->xch, s->domid, 1, &info) != 1 || info.domid != s->domid) {
		uf_err_set(err, UF_ETARGET, s->name, "domain vanished");
		return -ESRCH;
	}
	uint32_t slots = info.max_vcpu_id + 1;
	if (slots > UF_TARGET_MAX_THREADS)
		slots = UF_TARGET_MAX_THREADS;
	if (slots != s->nvcpu_slots) {
		struct xen_vcpu *v = calloc(slots, sizeof *v);
		if (!v) {
			uf_err_set(err, UF_ETARGET, s->name, "out of memory");
			return -ENOMEM;
		}
		free(s->vcpu);
		s->vcpu = v;
		s->nvcpu_slots = slots;
	}
	for (uint32_t i = 0; i < slots; i++) {
		xc_vcpuinfo_t vi;
		s->vcpu[i].online = xc_vcpu_getinfo(s->xch, s->domid, i, &vi) == 0 && vi.online;
		s->vcpu[i].epoch = 0;
	}
	s->vcpus_dirty = false;
	return 0;
}
