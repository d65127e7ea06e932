/* rate.c: the sampling rate of a log given by path, set from outside the
 * writing process through a shared mapping of its header, with the same
 * stores tl_set_rate() makes (lib/sample.c). Kept apart so that a program
 * that only writes logs does not link the reader. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "error.h"
#include "format.h"
#include "timeline.h"

int tl_rate_file(const char *path, int rate, unsigned *now, int *fixed, tl_error *err)
{
	struct tl_header *h;
	tl_reader *r;
	int fd, kind, copy, rc = TL_OK;

	/* checked as a reader checks it; a zstd copy by its first bytes alone,
	 * not decompressed only to be refused */
	tl_ok(err);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return tl_fail(err, TL_E_SYS, errno, "%s", path);
	kind = tl_probe(fd);
	copy = (kind & TL_FORMAT_ZSTD) && kind != TL_FORMAT_ZSTD;   /* a sound zstd copy */
	r = copy ? NULL : tl_reader_open_fd(fd, path, err);
	close(fd);
	if (!copy && !r)
		return err ? err->code : TL_E_FORMAT;
	tl_reader_close(r);
	if (kind & TL_FORMAT_SNABB)
		return tl_fail(err, TL_E_INVAL, 0,
			       "%s: a Snabb log keeps its rate in the process, not the file", path);
	if (kind & TL_FORMAT_ZSTD)
		return tl_fail(err, TL_E_INVAL, 0, "%s: a compressed copy has no writer to sample",
			       path);
	if (rate > TL_RATE_OFF)
		return tl_fail(err, TL_E_INVAL, 0, "%s: rate %d out of range", path, rate);
	if ((fd = open(path, (rate >= 0 ? O_RDWR : O_RDONLY) | O_CLOEXEC)) < 0)
		return tl_fail(err, TL_E_SYS, errno, "%s", path);
	h = mmap(NULL, TL_HEADER_BYTES, rate >= 0 ? PROT_READ | PROT_WRITE : PROT_READ,
		 MAP_SHARED, fd, 0);
	close(fd);
	if (h == MAP_FAILED)
		return tl_fail(err, TL_E_SYS, errno, "%s: cannot map", path);
	if (rate >= 0 && tl_set_rate((tl_log *)h, (unsigned)rate) != TL_OK)
		rc = tl_fail(err, TL_E_INVAL, 0, "%s: the log is disabled", path);
	if (now)
		*now = __atomic_load_n(&h->rate, __ATOMIC_SEQ_CST);
	if (fixed)
		*fixed = __atomic_load_n(&h->rate_fixed, __ATOMIC_SEQ_CST);
	munmap(h, TL_HEADER_BYTES);
	return rc;
}
