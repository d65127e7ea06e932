/* roots.c: the roots `ls` and `gc` walk when none is named (the library's
 * own, every user's fallbacks for root, Snabb's), and a log's size on disk. */
#define _GNU_SOURCE
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "input.h"
#include "roots.h"

/* Adds PATH to R if it is a directory not there already (by device and
 * inode). With OWNER >= 0, only a real directory (not a link) of that uid. */
static void add(struct roots *r, const char *path, long owner)
{
	struct stat st, o;
	if (r->n == ROOTS_MAX || (owner >= 0 ? lstat(path, &st) : stat(path, &st)) != 0 ||
	    !S_ISDIR(st.st_mode) || (owner >= 0 && st.st_uid != (uid_t)owner))
		return;
	for (int i = 0; i < r->n; i++)
		if (stat(r->path[i], &o) == 0 && o.st_dev == st.st_dev && o.st_ino == st.st_ino)
			return;
	if (!(r->path[r->n++] = strdup(path)))
		abort();
}

/* The uid in PATH after PREFIX: the digits up to END (a '/' or '\0'); -1
 * when there are none. */
static long uid_in(const char *path, size_t prefix)
{
	char *end;
	long v;
	if (path[prefix] < '0' || path[prefix] > '9')
		return -1;
	v = strtol(path + prefix, &end, 10);
	return *end == '/' || *end == '\0' ? v : -1;
}

/* Root only: every user's fallback roots under SYS, PATTERN, the uid at
 * offset PREFIX of each match. */
static void add_users(struct roots *r, const char *sys, const char *pattern, size_t prefix)
{
	char pat[4096];
	glob_t g;
	snprintf(pat, sizeof pat, "%s%s", sys, pattern);
	if (glob(pat, 0, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		long uid = uid_in(g.gl_pathv[i], strlen(sys) + prefix);
		if (uid >= 0)
			add(r, g.gl_pathv[i], uid);
	}
	globfree(&g);
}

void roots_default(struct roots *r, int with_snabb)
{
	const char *env = getenv("TIMELINE_ROOT"), *x = getenv("XDG_RUNTIME_DIR");
	const char *sys = getenv("TIMELINE_TEST_SYSROOT");
	char p[4096];
	r->n = 0;
	if (!sys)
		sys = "";
	if (env && *env) {
		add(r, env, -1);
	} else {
		snprintf(p, sizeof p, "%.*s/var/run/timeline", input_dir_len(sys), sys);
		add(r, p, -1);
		if (x && *x) {
			snprintf(p, sizeof p, "%.*s/timeline", input_dir_len(x), x);
			add(r, p, -1);
		}
		snprintf(p, sizeof p, "%.*s/tmp/timeline-%u", input_dir_len(sys), sys,
			 (unsigned)geteuid());
		add(r, p, -1);
		if (geteuid() == 0) {
			add_users(r, sys, "/run/user/*/timeline", strlen("/run/user/"));
			add_users(r, sys, "/tmp/timeline-*", strlen("/tmp/timeline-"));
		}
	}
	if (with_snabb) {
		snprintf(p, sizeof p, "%.*s/var/run/snabb", input_dir_len(sys), sys);
		add(r, p, -1);
	}
}

void roots_free(struct roots *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->path[i]);
	r->n = 0;
}

int log_size(const char *path, uint64_t *disk, uint64_t *bytes)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return -1;
	*disk = (uint64_t)st.st_blocks * 512;
	*bytes = (uint64_t)st.st_size;
	return 0;
}

char *human_bytes(char buf[16], uint64_t bytes)
{
	static const char unit[] = "BKMGTPE";
	double v = (double)bytes;
	int k = 0;
	while (v >= 1024 && k < 6) {
		v /= 1024;
		k++;
	}
	if (k == 0)
		snprintf(buf, 16, "%lluB", (unsigned long long)bytes);
	else
		snprintf(buf, 16, v < 9.95 ? "%.1f%c" : "%.0f%c", v, unit[k]);
	return buf;
}
