/* sumfile.c: summary files on disk (see sumfile.h): the probe, reading a
 * whole file no larger than a summary may be, and saving. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sink.h"
#include "sumfile.h"
#include "usage.h"

int sumfile_probe(int fd)
{
	unsigned char magic[8];
	return pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
	       an_summary_probe(magic, sizeof magic);
}

/* Reads the whole of FD (of SIZE bytes by fstat) into a malloc'd *BUF;
 * *GOT gets what there was, which may be less if it shrank. 0, or -1 with
 * errno set. */
static int read_whole(int fd, size_t size, unsigned char **buf, size_t *got)
{
	*got = 0;
	if (!(*buf = malloc(size ? size : 1)))
		return -1;
	while (*got < size) {
		ssize_t n = pread(fd, *buf + *got, size - *got, (off_t)*got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(*buf);
			return -1;
		}
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

/* Says, when E ranks slowest pairs, that summary PATH keeps fewer of each
 * row than E ranks (KEPT, as an_summary_map.kept gives it), or none: of
 * the --slowest listed, or (an_options.slowest_for_save) of the summary
 * being made. */
static void slowest_note(const char *cmd, const char *path, const struct an *e, uint64_t kept)
{
	const struct an_options *o = an_opts(e);
	const char *none = o->slowest_for_save ? "the summary made of it keeps none of its rows' "
						 "slowest pairs" : "its rows are not ranked";
	if (!o->slowest || (kept != AN_SUMMARY_NO_SLOWEST && kept >= o->slowest))
		return;
	if (kept == AN_SUMMARY_NO_SLOWEST)
		fprintf(stderr, "timeline %s: warning: %s: made without slowest pairs (by a timeline "
			"before summary format 1.2); %s\n", cmd, path, none);
	else if (!kept)
		fprintf(stderr, "timeline %s: warning: %s: keeps no slowest pairs (made from "
			"summaries without them); %s\n", cmd, path, none);
	else if (o->slowest_for_save)
		fprintf(stderr, "timeline %s: note: %s keeps the %llu slowest pairs of each row: "
			"the summary made of it keeps at most those\n", cmd, path,
			(unsigned long long)kept);
	else
		fprintf(stderr, "timeline %s: note: %s keeps the %llu slowest pairs of each row: "
			"--slowest %u lists at most those\n", cmd, path, (unsigned long long)kept,
			o->slowest);
}

int sumfile_read(const char *cmd, const char *path, int fd, struct an *e,
		 const struct an_summary_map *m)
{
	struct stat st;
	struct an_summary_map mk = *m;
	uint64_t kept = AN_SUMMARY_NO_SLOWEST;
	unsigned char *buf;
	size_t got;
	char err[512];
	int rc;
	mk.kept = &kept;
	if (fstat(fd, &st) != 0) {
		cli_error(cmd, "%s: %s", path, strerror(errno));
		return -1;
	}
	if ((uint64_t)st.st_size > AN_SUMMARY_HEADER + AN_SUMMARY_MAX_BODY) {
		cli_error(cmd, "%s: %lld bytes, over the %llu a summary may hold", path,
			  (long long)st.st_size, AN_SUMMARY_HEADER + AN_SUMMARY_MAX_BODY);
		return -1;
	}
	if (read_whole(fd, (size_t)st.st_size, &buf, &got) != 0) {
		cli_error(cmd, "%s: %s", path, strerror(errno));
		return -1;
	}
	if ((rc = an_summary_read(e, buf, got, &mk, err, sizeof err)) < 0)
		cli_error(cmd, "%s: %s", path, err);
	else
		slowest_note(cmd, path, m->alt_chosen && *m->alt_chosen ? m->alt : e, kept);
	free(buf);
	return rc;
}

int sumfile_save(const char *cmd, const char *path, struct an *e, const char *fixed,
		 struct an *show, const struct an_summary_map *m)
{
	unsigned char *file;
	size_t size;
	char err[512];
	if (an_summary_write(e, fixed, &file, &size) < 0) {
		cli_error(cmd, "%s: out of memory", path);
		return -1;
	}
	if (path && write_atomic(path, file, size, 0644) < 0) {
		cli_error(cmd, "%s: %s", path, strerror(errno));
		free(file);
		return -1;
	}
	/* what E counted, projected to SHOW's keys: read back when the map
	 * changes keys (a run of another kind than E's in full, a group),
	 * else merged, the same */
	int remap = show && (m->group || (m->runs != AN_RUNS_FULL && an_opts(show)->by >> AN_RUN & 1));
	if (show && !remap && an_merge(show, e) < 0) {
		cli_error(cmd, "out of memory");
		free(file);
		return -1;
	}
	if (remap &&
	    an_summary_read(show, file, size, m, err, sizeof err) < 0) {
		cli_error(cmd, "%s: %s", path ? path : "summary", err);   /* a bug: it must read back */
		free(file);
		return -1;
	}
	free(file);
	return 0;
}
