/* sink.c: writing files (see sink.h): whole buffers, zstd streams, copies
 * of logs, files replaced atomically, and the directories a file goes in. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sink.h"
#include "usage.h"

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int sink_put(struct sink *s, const void *buf, size_t len, int end)
{
	static char out[1 << 17];
	ZSTD_inBuffer in = { buf, len, 0 };
	size_t left;
	if (!s->z)
		return write_all(s->fd, buf, len);
	do {
		ZSTD_outBuffer ob = { out, sizeof out, 0 };
		left = ZSTD_compressStream2(s->z, &ob, &in, end ? ZSTD_e_end : ZSTD_e_continue);
		if (ZSTD_isError(left)) {
			errno = EIO;
			return -1;
		}
		if (write_all(s->fd, out, ob.pos))
			return -1;
	} while (end ? left != 0 : in.pos < in.size);
	return 0;
}

int sink_write(void *ctx, const void *buf, size_t len)
{
	return sink_put(ctx, buf, len, 0);
}

int sink_copy_log(const char *cmd, tl_reader *r, int fd, int level, int sync, tl_keep_fn keep,
		  void *kctx, const char *to, uint64_t *kept, uint64_t *dropped)
{
	struct sink s = { fd, NULL };
	tl_error err;
	int rc = -1;
	if (level && (!(s.z = ZSTD_createCCtx()) ||
		      ZSTD_isError(ZSTD_CCtx_setParameter(s.z, ZSTD_c_compressionLevel, level)))) {
		cli_error(cmd, "%s: cannot start zstd", to);
		goto out;
	}
	errno = 0;
	if (fchmod(fd, 0600) != 0 ||
	    (s.z && ZSTD_isError(ZSTD_CCtx_setParameter(s.z, ZSTD_c_checksumFlag, 1)))) {
		cli_error(cmd, "%s: %s", to, strerror(errno ? errno : EIO));
		goto out;
	}
	if (tl_reader_copy_if(r, keep, kctx, sink_write, &s, kept, dropped, to, &err) != TL_OK) {
		cli_error(cmd, "%s", err.msg);
		goto out;
	}
	if ((s.z && sink_put(&s, NULL, 0, 1)) || (sync && fsync(fd) != 0)) {
		cli_error(cmd, "%s: cannot write the copy: %s", to, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	ZSTD_freeCCtx(s.z);
	return rc;
}

int make_parents(const char *path)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

int write_replace(const char *path, const void *buf, size_t len, mode_t mode)
{
	char tmp[PATH_MAX];
	int fd, saved;
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path) >= sizeof tmp)
		return errno = ENAMETOOLONG, -1;
	if ((fd = mkstemp(tmp)) < 0)
		return -1;
	saved = fchmod(fd, mode) < 0 || write_all(fd, buf, len) < 0 ? errno : 0;
	if (close(fd) < 0 && !saved)
		saved = errno;
	if (saved || rename(tmp, path) < 0) {
		saved = saved ? saved : errno;
		unlink(tmp);
		return errno = saved, -1;
	}
	return 0;
}

int write_atomic(const char *path, const void *buf, size_t len, mode_t mode)
{
	struct stat st;
	int fd, saved;
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device, FIFO or link (/dev/stdout): write through it, never replace it */
		if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
			return -1;
		saved = write_all(fd, buf, len) < 0 ? errno : 0;
		close(fd);
		return saved ? (errno = saved, -1) : 0;
	}
	return write_replace(path, buf, len, mode);
}
