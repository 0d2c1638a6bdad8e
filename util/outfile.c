/*
 * util/outfile.c — temp file + rename; see util/outfile.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/outfile.h"

int uf_outfile_open(struct uf_outfile *o, const char *path, struct uf_err *err)
{
	memset(o, 0, sizeof *o);
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		return 0;
	}
	struct stat sb;
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		/* /dev/null, a FIFO, a terminal: write in place; a rename would
		 * replace the device or pipe with a regular file */
		o->fp = fopen(path, "w");
		if (!o->fp) {
			uf_err_set(err, UF_EINPUT, path, "cannot open output: %s", strerror(errno));
			return -errno;
		}
		o->direct = 1;
		return 0;
	}
	o->path = strdup(path);
	size_t n = strlen(path) + 16;
	o->tmp = malloc(n);
	if (!o->path || !o->tmp) {
		uf_outfile_abort(o);
		uf_err_set(err, UF_EINPUT, path, "out of memory");
		return -ENOMEM;
	}
	snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		uf_outfile_abort(o);
		uf_err_set(err, UF_EINPUT, path, "cannot create output: %s", strerror(e));
		return -e;
	}
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		int e = errno;
		close(fd);
		uf_outfile_abort(o);
		uf_err_set(err, UF_EINPUT, path, "cannot open output: %s", strerror(e));
		return -e;
	}
	setvbuf(o->fp, NULL, _IOFBF, 64 << 10);
	return 0;
}

int uf_outfile_commit(struct uf_outfile *o, struct uf_err *err)
{
	int rc = 0;
	if (!o->tmp) {
		int bad = o->fp && (fflush(o->fp) != 0 || ferror(o->fp));
		if (o->direct && o->fp && fclose(o->fp) != 0)
			bad = 1;
		if (bad) {
			uf_err_set(err, UF_EINPUT, o->direct ? "output" : "stdout", "write failed: %s",
				   strerror(errno ? errno : EIO));
			rc = -EIO;
		}
		o->fp = NULL;
		o->direct = 0;
		return rc;
	}
	int bad = ferror(o->fp) || fflush(o->fp) != 0;
	int e = errno;
	if (fclose(o->fp) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	o->fp = NULL;
	if (!bad && rename(o->tmp, o->path) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		uf_err_set(err, UF_EINPUT, o->path, "write failed: %s", strerror(e ? e : EIO));
		rc = -(e ? e : EIO);
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return rc;
}

void uf_outfile_abort(struct uf_outfile *o)
{
	if (o->fp && o->fp != stdout)
		fclose(o->fp); /* a direct (non-regular) output cannot be restored */
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof *o);
}
