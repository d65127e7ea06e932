/* zstd.c: fuzzes the CLI's input path on zstd-wrapped logs: recognising the
 * frame, decompressing it (capped by the size the inner header announces)
 * and reading what comes out, as `timeline dump` of a .zst copy would. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "fuzz.h"
#include "input.h"

/* input.c reports through the command's error printer and stream: keep
 * them quiet. */
__thread FILE *cli_err;

void cli_error(const char *cmd, const char *fmt, ...)
{
	(void)cmd;
	(void)fmt;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/tlfuzz.XXXXXX";
	int fd = mkstemp(path), skipped;
	struct input *in;
	tl_entry e;
	size_t n = 0;
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	input_quiet = 1;
	in = input_open("fuzz", path, 0, &skipped);
	if (in) {
		tl_reader_rewind(in->r);
		while (tl_reader_next(in->r, &e) && n++ < 100000)
			(void)input_event(in, e.msgid);
		input_close(in);
	}
	unlink(path);
	return 0;
}
