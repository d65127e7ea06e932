/* create.h: creating the log file safely. Internal to lib/. */
#ifndef TL_CREATE_H
#define TL_CREATE_H
#include <stddef.h>
#include <stdint.h>
#include "timeline.h"

/* Writes the default path for log NAME into BUF ($TIMELINE_ROOT, /var/run,
 * $XDG_RUNTIME_DIR or /tmp, then <pid>/<name>.timeline for the main thread,
 * <pid>/<name>-<tid>.timeline for another), creating the directories 0700.
 * Returns TL_OK or a status with ERR filled. */
int tl_default_path(const char *name, char *buf, size_t size, tl_error *err);

/* Refuses PATH with TL_E_EXISTS when it holds a log this very process
 * wrote (not a copy; the header's pid and start time are ours), so that a
 * second tl_open() of a default path cannot wipe the first log. Anything
 * else, a log of a process gone that had our pid included, is TL_OK. */
int tl_check_not_ours(const char *path, tl_error *err);

/* Creates PATH as a new 0600 regular file of BYTES allocated bytes, replacing
 * an old regular file of this user but never following a symbolic link.
 * Returns the open fd, or a negative status with ERR filled and nothing left
 * behind. */
int tl_create_file(const char *path, uint64_t bytes, tl_error *err);

/* Allocates BYTES of FD's file at OFF (posix_fallocate), so that a full disk
 * fails here rather than later with SIGBUS, without ever raising SIGXFSZ:
 * TL_OK, TL_E_FBIG past RLIMIT_FSIZE, TL_E_SYS; ERR names PATH. */
int tl_allocate(int fd, uint64_t off, uint64_t bytes, const char *path, tl_error *err);

/* Maps in and touches every page of BASE (BYTES), so that logging takes no
 * page fault and no first-touch cost (bench/README.md, "The first lap"). */
void tl_prefault(void *base, uint64_t bytes);
#endif
