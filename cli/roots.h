/* roots.h: what `ls` and `gc` share: the roots they walk when none is named,
 * a log's size on disk, and words for whether its writer runs. */
#ifndef TL_ROOTS_H
#define TL_ROOTS_H
#include <stddef.h>
#include <stdint.h>

#define ROOTS_MAX 512

/* Directories to look for logs in. */
struct roots {
	int n;
	char *path[ROOTS_MAX];       /* malloc'd */
};

/* Fills R with the default roots that exist as directories, in order and
 * each once: $TIMELINE_ROOT if set; else /var/run/timeline,
 * $XDG_RUNTIME_DIR/timeline and /tmp/timeline-UID, and for root every
 * user's /run/user/UID/timeline and /tmp/timeline-UID (real directories,
 * owned by that UID); then /var/run/snabb WITH_SNABB. The system paths are
 * under $TIMELINE_TEST_SYSROOT when it is set (for the tests). */
void roots_default(struct roots *r, int with_snabb);
void roots_free(struct roots *r);

/* PATH's bytes on disk (st_blocks * 512) into *DISK and its length into
 * *BYTES, not following a symbolic link: 0, or -1 with errno. */
int log_size(const char *path, uint64_t *disk, uint64_t *bytes);

/* BYTES in the units of ls -h (powers of 1024) into BUF: "512B", "8.0K",
 * "12K", "1.5M", "65M"; one decimal below 10 units. Returns BUF. */
char *human_bytes(char buf[16], uint64_t bytes);
#endif
