/* zstd.c: fuzzes the library's opening of zstd-wrapped logs: tl_probe()
 * recognising the frame, tl_reader_open() decompressing it (capped by the
 * size the inner header announces) and reading what comes out with every
 * definition, as `timeline dump` of a .zst copy does. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "fuzz.h"
#include "timeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/tlfuzz.XXXXXX";
	int fd = mkstemp(path);
	tl_reader *r;
	tl_entry e;
	size_t n = 0;
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	(void)tl_probe(fd);
	r = tl_reader_open_fd(fd, path, NULL);
	close(fd);
	if (r) {
		tl_reader_rewind(r);
		while (tl_reader_next(r, &e) && n++ < 100000)
			(void)tl_reader_def(r, e.msgid);
		tl_reader_close(r);
	}
	unlink(path);
	return 0;
}
