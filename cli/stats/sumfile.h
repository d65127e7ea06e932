/* sumfile.h: summary files (timeline-summary(5)) on disk: recognized by
 * their first bytes, read whole into an engine, written atomically. The
 * format itself is analysis/summary.c's. */
#ifndef TL_SUMFILE_H
#define TL_SUMFILE_H
#include "summary.h"

/* Nonzero when the open file FD starts like a summary (it is read at
 * offset 0 with pread, so FD's position does not move). */
int sumfile_probe(int fd);

/* Adds the summary open as FD (named PATH) to engine E as M says. Problems
 * are reported as "timeline CMD: PATH: problem". Returns 0, or -1 (nothing
 * was added). */
int sumfile_read(const char *cmd, const char *path, int fd, struct an *e,
		 const struct an_summary_map *m);

/* Writes the summary of engine E, made with the fixed options FIXED, to
 * PATH atomically (mode 0644; PATH NULL: nowhere); then, if SHOW is not
 * NULL, adds what E counted to SHOW as a reader of PATH would (M as for
 * sumfile_read()): merged (an_merge()), or read back from the summary when
 * M maps the keys. Reports problems as
 * "timeline CMD: PATH: problem". Returns 0 or -1. */
int sumfile_save(const char *cmd, const char *path, struct an *e, const char *fixed,
		 struct an *show, const struct an_summary_map *m);
#endif
