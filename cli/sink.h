/* sink.h: writing files: every byte of a buffer (write_all), plain or
 * through a zstd stream (struct sink), and the directories above a path
 * (make_parents). Used by copy and the CTF writer. */
#ifndef TL_SINK_H
#define TL_SINK_H
#include <stddef.h>
#include <zstd.h>

/* Writes the LEN bytes at BUF to FD, again after EINTR: 0, or -1 (errno). */
int write_all(int fd, const void *buf, size_t len);

/* An output file, written plain (Z NULL) or through a zstd stream. */
struct sink {
	int fd;
	ZSTD_CCtx *z;
};

/* Compresses (or writes) LEN bytes; END ends the zstd frame. 0 or -1. */
int sink_put(struct sink *s, const void *buf, size_t len, int end);

/* sink_put() without END, for tl_reader_copy(): CTX is the struct sink. */
int sink_write(void *ctx, const void *buf, size_t len);

/* Makes the directories of PATH (0700), as mkdir -p would: 0 or -1. */
int make_parents(const char *path);
#endif
