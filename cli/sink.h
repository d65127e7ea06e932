/* sink.h: writing files: every byte of a buffer (write_all), plain or
 * through a zstd stream (struct sink), a copy of a log (sink_copy_log) and
 * the directories above a path (make_parents). Used by copy, gc and the
 * CTF writer. */
#ifndef TL_SINK_H
#define TL_SINK_H
#include <stddef.h>
#include <zstd.h>
#include "timeline.h"

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

/* Writes a consistent copy of the log R (tl_reader_copy_if() with KEEP and
 * KCTX; KEEP NULL: every entry) into the file open at FD, made 0600,
 * compressed with zstd at LEVEL (1-19, with its checksum; 0: plain), the
 * frame ended and, with SYNC, the file fsync'd: the one path of `copy` and
 * `gc --archive`. TO names FD in messages; FD stays open. *KEPT and
 * *DROPPED as tl_reader_copy_if() counts them. Returns 0, or -1 having
 * reported "timeline CMD: TO: problem" (a full disk: "cannot write the copy:
 * No space left on device"). */
int sink_copy_log(const char *cmd, tl_reader *r, int fd, int level, int sync, tl_keep_fn keep,
		  void *kctx, const char *to, uint64_t *kept, uint64_t *dropped);

/* Makes the directories of PATH (0700), as mkdir -p would: 0 or -1. */
int make_parents(const char *path);
#endif
