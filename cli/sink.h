/* sink.h: writing files: every byte of a buffer (write_all), plain or
 * through a zstd stream (struct sink), a copy of a log (sink_copy_log), a
 * whole file replaced atomically (write_atomic, write_replace), and the
 * directories above a path (make_parents). Used by copy, gc, the CTF
 * writer, summaries and the OpenMetrics files. */
#ifndef TL_SINK_H
#define TL_SINK_H
#include <stddef.h>
#include <sys/types.h>
#include <zstd.h>
#include "timeline.h"

/* Writes the LEN bytes at BUF to FD, again after EINTR: 0, or -1 (errno). */
int write_all(int fd, const void *buf, size_t len);

/* Replaces the file PATH by the LEN bytes at BUF, of mode MODE: written to
 * a temporary file beside it, then renamed over it, so that a reader sees
 * the old file or the new one whole, never part of one. A PATH that exists
 * and is no regular file (a FIFO, /dev/stdout) is written through instead.
 * Returns 0, or -1 with errno set (the temporary file removed). */
int write_atomic(const char *path, const void *buf, size_t len, mode_t mode);

/* write_atomic() without the writing through: PATH is always replaced by a
 * new file, and a link there is replaced, not followed. The temporary file
 * is made 0600 with O_EXCL (never through a link someone put there), then
 * given MODE. For a file that a program running as another user reads
 * from a directory others may write (node_exporter's textfile directory).
 * Returns 0, or -1 with errno set (the temporary file removed). */
int write_replace(const char *path, const void *buf, size_t len, mode_t mode);

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
