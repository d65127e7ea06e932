/* util.c: the harnesses' helpers (see fuzz.h): the input as a file, and
 * the reader's whole API run over it. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <stdlib.h>
#include <unistd.h>
#include "fuzz.h"
#include "timeline.h"

const uint8_t fuzz_native_magic[8] = { 0x89, 0x54, 0x4c, 0x4e, 0x0d, 0x0a, 0x1a, 0x0a };
const uint8_t fuzz_snabb_magic[8] = { 0x01, 0x00, 0x1d, 0x44, 0x23, 0x72, 0xff, 0xa3 };

int fuzz_memfd(const uint8_t *magic, const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	size_t done = 0;
	if (fd < 0)
		return -1;
	if (magic && write(fd, magic, 8) != 8) {
		close(fd);
		return -1;
	}
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static int discard(void *ctx, const void *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	(void)len;
	return 0;
}

int fuzz_read(const uint8_t *magic, const uint8_t *data, size_t size)
{
	int fd = fuzz_memfd(magic, data, size);
	tl_error err;
	tl_reader *r;
	tl_entry e;
	tl_info info;
	uint16_t ids[512];
	uint64_t kept, dropped;
	size_t n = 0;
	if (fd < 0)
		return 0;
	r = tl_reader_open_fd(fd, "fuzz", &err);
	close(fd);
	if (!r)
		return 0;
	tl_reader_info(r, &info);
	tl_reader_rewind(r);
	while (tl_reader_next(r, &e) && n++ < 100000)
		(void)tl_reader_string(r, e.msgid);
	{   /* the threads, and following them from where each is */
		uint64_t from[4] = { 1, 0, 2, 0 }, lost;
		tl_thread t;
		for (unsigned k = 0; k <= tl_reader_threads(r); k++)
			(void)tl_reader_thread(r, k, &t);
		tl_reader_since_threads(r, from, 4, &lost);
		while (tl_reader_next(r, &e) && n++ < 200000)
			(void)tl_reader_string(r, e.msgid);
		(void)tl_reader_newest(r, &e);
	}
	for (size_t i = 0, k = tl_reader_definitions(r, ids, 512); i < k && i < 512; i++)
		(void)tl_reader_string(r, ids[i]);
	for (unsigned id = 0; id < 65536; id += 97)
		(void)tl_reader_string(r, (uint16_t)id);
	tl_reader_copy(r, discard, NULL, &kept, &dropped, "fuzz", &err);
	tl_reader_close(r);
	return 0;
}
