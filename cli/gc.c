/* gc.c: `timeline gc`, removing the logs of processes that no longer run,
 * each first archived with zstd and read back if asked, then the <pid>
 * directories they leave empty. Modelled on `snabb gc`. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "input.h"
#include "roots.h"
#include "sink.h"
#include "window.h"

static const char usage[] =
	"usage: timeline gc [--archive DIR] [--older-than DURATION] [--dry-run] [ROOT...]\n"
	"\n"
	"Removes the logs of processes that no longer run (pid and start time\n"
	"checked) under each ROOT (default: $TIMELINE_ROOT or /var/run/timeline,\n"
	"$XDG_RUNTIME_DIR/timeline and /tmp/timeline-UID, for root every user's),\n"
	"then the <pid> directories left empty. A log whose process runs is never\n"
	"touched; copies and Snabb's logs are left alone.\n"
	"\n"
	"   -a, --archive DIR        first copy each log into DIR with zstd (0600\n"
	"                            files, 0700 directories), read the copy back,\n"
	"                            and remove the log only when it holds it whole\n"
	"   -o, --older-than DUR     only logs last written more than DUR ago, by the\n"
	"                            file's mtime and its last entry: 90s, 10m, 2h, 7d\n"
	"   -n, --dry-run            print what would be done; change nothing\n"
	"   -h, --help               show this help\n";

static const struct option options[] = {
	{ "archive", required_argument, NULL, 'a' },
	{ "older-than", required_argument, NULL, 'o' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define ARCHIVE_LEVEL 3              /* the zstd level of `copy --zstd` */

struct gc {
	const char *archive;         /* --archive DIR, or NULL */
	int archive_fd;              /* DIR, opened once (not in a dry run) */
	const char *older;           /* --older-than as given, or NULL */
	uint64_t older_ns;
	int dry;                     /* --dry-run */
	const char *root;            /* the ROOT being walked */
	uint64_t freed, removed, kept, failed;
};

/* The parent directory of PATH in BUF ("." when there is none). */
static char *parent_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(buf, size, ".");
	else
		snprintf(buf, size, "%.*s", (int)(slash == path ? 1 : slash - path), path);
	return buf;
}

/* Is NAME's last component a whole number (a <pid> directory)? */
static int numeric_base(const char *name)
{
	const char *b = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	return *b && strspn(b, "0123456789") == strlen(b);
}

/* Where PATH goes below the archive: its path below the ROOT being walked;
 * for a file named alone, <pid>/<name> when its directory is a <pid>, else
 * its name. */
static const char *archive_rel(const struct gc *g, const char *path)
{
	size_t n = strlen(g->root);
	const char *base = strrchr(path, '/'), *dir;
	if (!strncmp(path, g->root, n) && path[n] == '/')
		return path + n + 1;
	if (!base)
		return path;
	for (dir = base; dir > path && dir[-1] != '/'; dir--)
		;   /* dir to base: the name of the file's directory */
	return dir < base && strspn(dir, "0123456789") == (size_t)(base - dir) ? dir : base + 1;
}

/* Opens (creating it 0700) directory NAME under DIRFD without following a
 * link; it must be this user's. Returns the fd or -1 with errno. */
static int own_dir(int dirfd, const char *name)
{
	struct stat st;
	int fd;
	if (mkdirat(dirfd, name, 0700) != 0 && errno != EEXIST)
		return -1;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_uid != geteuid())) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/* Creates the archive file for REL (REL.zst, or REL.1.zst ... when taken)
 * 0600 below the archive, its directories 0700, no link followed. Fills TO
 * with its path and *DIRFD with its directory. Returns the fd or -1
 * (reported). */
static int archive_create(const struct gc *g, const char *rel, char *to, size_t size, int *dirfd,
			  char *name, size_t name_size)
{
	char part[PATH_MAX];
	const char *p = rel, *slash;
	int dir = dup(g->archive_fd), fd = -1;
	while (dir >= 0 && (slash = strchr(p, '/'))) {
		int next;
		snprintf(part, sizeof part, "%.*s", (int)(slash - p), p);
		next = own_dir(dir, part);
		close(dir);
		dir = next;
		p = slash + 1;
	}
	for (int k = 0; dir >= 0 && fd < 0 && k < 100; k++) {
		snprintf(name, name_size, k ? "%s.%d.zst" : "%s.zst", p, k);
		fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	snprintf(to, size, "%.*s/%.*s%s", input_dir_len(g->archive), g->archive, (int)(p - rel), rel,
		 fd >= 0 ? name : p);
	if (fd < 0) {
		cli_error("gc", "%s: cannot create the archive: %s", to, strerror(errno));
		if (dir >= 0)
			close(dir);
		return -1;
	}
	*dirfd = dir;
	return fd;
}

/* Does entry A equal entry B? */
static int same_entry(const tl_entry *a, const tl_entry *b)
{
	return a->seq == b->seq && a->tsc == b->tsc && a->msgid == b->msgid && a->aux == b->aux &&
	       !memcmp(a->args, b->args, sizeof a->args);
}

/* Do readers A and B hold the same definitions under the same ids? */
static int same_definitions(const tl_reader *a, const tl_reader *b)
{
	size_t n = tl_reader_definitions(a, NULL, 0);
	uint16_t *ids = malloc((n + 1) * sizeof *ids);
	int same = n == tl_reader_definitions(b, NULL, 0);
	if (!ids)
		abort();
	tl_reader_definitions(a, ids, n);
	for (size_t k = 0; same && k < n; k++) {
		const char *s = tl_reader_string(b, ids[k]);
		same = s && !strcmp(s, tl_reader_string(a, ids[k]));
	}
	free(ids);
	return same;
}

/* Reads the archive TO back and compares it with IN: the writer, every
 * entry and every definition. Returns 0, or -1 (reported). */
static int verify(struct input *in, const char *to)
{
	tl_error err;
	tl_reader *c = tl_reader_open(to, &err);
	tl_info ci;
	tl_entry a, b;
	uint64_t n = 0;
	int more = 0, bad;
	if (!c) {
		cli_error("gc", "cannot read the archive back: %s", err.msg);
		return -1;
	}
	tl_reader_info(c, &ci);
	bad = ci.pid != in->info.pid || ci.start_ticks != in->info.start_ticks ||
	      strcmp(ci.process, in->info.process) || !same_definitions(in->r, c);
	tl_reader_rewind(in->r);
	tl_reader_rewind(c);
	while (!bad && (more = tl_reader_next(in->r, &a)) == tl_reader_next(c, &b) && more) {
		bad = !same_entry(&a, &b);
		n += !bad;
	}
	bad |= more;   /* the entries differ, or one ran out before the other */
	tl_reader_close(c);
	if (bad)
		cli_error("gc", "%s: the archive does not hold %s whole (they differ after %llu entries)",
			  to, in->path, (unsigned long long)n);
	return bad ? -1 : 0;
}

/* Archives IN into the archive: a zstd copy, fsync'd and read back. Fills
 * TO. Returns 0, or -1 (reported) with no archive file left behind. */
static int archive(const struct gc *g, struct input *in, char *to, size_t size)
{
	char name[NAME_MAX + 1];
	uint64_t kept, dropped;
	int dirfd, fd = archive_create(g, archive_rel(g, in->path), to, size, &dirfd, name,
				       sizeof name);
	int rc;
	if (fd < 0)
		return -1;
	rc = sink_copy_log("gc", in->r, fd, ARCHIVE_LEVEL, 1, NULL, NULL, to, &kept, &dropped);
	if (close(fd) != 0 && rc == 0) {
		cli_error("gc", "%s: cannot write the copy: %s", to, strerror(errno));
		rc = -1;
	}
	if (rc == 0)
		rc = verify(in, to);
	if (rc != 0)
		unlinkat(dirfd, name, 0);
	else
		fsync(dirfd);
	close(dirfd);
	return rc;
}

/* When IN was last written, in ns since the epoch: the later of its
 * file's mtime ST and the wall time of its newest entry. */
static int64_t last_written(struct input *in, const struct stat *st)
{
	int64_t t = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
	tl_entry e;
	if (in->info.tsc_hz && tl_reader_newest(in->r, &e) && tl_wall_ns(&in->info, e.tsc) > t)
		t = tl_wall_ns(&in->info, e.tsc);
	return t;
}

/* Why IN (found at PATH, lstat ST) is kept, or NULL when it may go. */
static const char *keep_why(const struct gc *g, struct input *in, const struct stat *st,
			    char *buf, size_t size)
{
	const tl_info *i = &in->info;
	char host[sizeof i->host] = "";
	struct timespec now;
	int alive;
	if (i->format != TL_FORMAT_NATIVE)
		return "kept: a Snabb log (snabb gc cleans those)";
	if (i->compressed || i->copy_of)
		return "kept: a copy";
	/* another host's pid says nothing here: a container with a pid
	 * namespace of its own usually has a host name of its own too */
	if (gethostname(host, sizeof host - 1) == 0 && strcmp(host, i->host))
		return snprintf(buf, size, "kept: written on host %s, not this one", i->host), buf;
	alive = tl_pid_alive(i->pid, i->start_ticks);
	if (alive == TL_RUNNING)
		return snprintf(buf, size, "kept: alive (pid %u)", i->pid), buf;
	if (alive == TL_PID_RUNNING)
		return snprintf(buf, size,
				"kept: pid %u runs, and the log does not say when its writer started",
				i->pid),
		       buf;
	clock_gettime(CLOCK_REALTIME, &now);
	if (g->older && (int64_t)now.tv_sec * 1000000000 + now.tv_nsec - last_written(in, st) <
			       (int64_t)g->older_ns)
		return snprintf(buf, size, "kept: last written less than %s ago", g->older), buf;
	return NULL;
}

/* Removes PATH, which must still be the file lstat found as ST, and then
 * its <pid> directory if that is now empty. 0, or -1 (reported). */
static int remove_log(const struct gc *g, const char *path, const struct stat *st)
{
	struct stat now;
	char dir[PATH_MAX];
	if (lstat(path, &now) != 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		cli_error("gc", "%s: replaced while gc ran; left alone", path);
		return -1;
	}
	if (unlink(path) != 0) {
		cli_error("gc", "%s: cannot remove: %s", path, strerror(errno));
		return -1;
	}
	parent_of(path, dir, sizeof dir);
	if (numeric_base(dir) && strcmp(dir, g->root))
		rmdir(dir);   /* fails, as it should, while anything is left in it */
	return 0;
}

/* Archives (if asked) and removes IN, found at PATH as ST, of SIZE on
 * disk; prints what became of it. 0, or -1 (reported) with the log kept. */
static int take(struct gc *g, struct input *in, const char *path, const struct stat *st,
		const char *size)
{
	char to[PATH_MAX + 32];
	if (g->dry && g->archive)
		printf("%s: would archive into %s, then remove (%s)\n", path, g->archive, size);
	else if (g->dry)
		printf("%s: would remove (%s)\n", path, size);
	if (g->dry)
		return 0;
	if (g->archive && archive(g, in, to, sizeof to) != 0) {
		printf("%s: kept: not archived\n", path);
		return -1;
	}
	if (remove_log(g, path, st) != 0) {
		printf("%s: kept: not removed\n", path);
		return -1;
	}
	if (g->archive)
		printf("%s: archived to %s, removed (%s)\n", path, to, size);
	else
		printf("%s: removed (%s)\n", path, size);
	return 0;
}

static int gc_one(const char *path, int named, void *arg)
{
	struct gc *g = arg;
	struct stat st;
	struct input *in;
	char why[256], size[16];
	const char *kept;
	uint64_t disk = 0, bytes = 0;
	int skipped;

	errno = 0;
	if (lstat(path, &st) != 0 || S_ISLNK(st.st_mode)) {
		if (named)
			cli_error("gc", "%s: %s", path,
				  errno ? strerror(errno) : "a symbolic link; gc does not follow it");
		g->failed += named;
		return 0;
	}
	if (!(in = input_open("gc", path, named, &skipped))) {
		g->failed += !skipped;
		return 0;
	}
	log_size(path, &disk, &bytes);
	human_bytes(size, disk);
	if ((kept = keep_why(g, in, &st, why, sizeof why))) {
		printf("%s: %s\n", path, kept);
		g->kept++;
	} else if (take(g, in, path, &st, size) != 0) {
		g->failed++;
	} else {
		g->removed++;
		g->freed += disk;
	}
	input_close(in);
	return 0;
}

/* Opens (creating it 0700) the archive directory, not a symbolic link. */
static int open_archive(const char *dir)
{
	struct stat st;
	int fd;
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		cli_error("gc", "%s: cannot create the archive directory: %s", dir, strerror(errno));
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		cli_error("gc", "%s: %s", dir,
			  lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)
				  ? "is a symbolic link; refusing to follow it"
				  : strerror(errno));
	return fd;
}

/* Walks ROOTS (trailing slashes dropped), counting problems into G. */
static void walk(struct gc *g, char **roots, int n)
{
	for (int i = 0; i < n; i++) {
		size_t len = strlen(roots[i]);
		while (len > 1 && roots[i][len - 1] == '/')
			roots[i][--len] = '\0';
		g->root = roots[i];
		g->failed += input_walk("gc", &roots[i], 1, gc_one, g);
	}
}

int cmd_gc(int argc, char **argv)
{
	struct gc g = { .archive_fd = -1, .root = "" };
	struct roots roots;
	char size[16];
	int ch;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":a:o:nh", options, NULL)) != -1) {
		switch (ch) {
		case 'a':
			g.archive = optarg;
			break;
		case 'o':
			if (window_duration(optarg, &g.older_ns) != 0)
				return cli_usage_error("gc", "--older-than takes a duration, e.g. 10m, 2h or 7d");
			g.older = optarg;
			break;
		case 'n':
			g.dry = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return cli_finish("gc", EXIT_OK);
		default:
			return cli_bad_option("gc", argv, ch);
		}
	}
	if (g.archive && !g.dry && (g.archive_fd = open_archive(g.archive)) < 0)
		return EXIT_USAGE;
	input_quiet = 1;
	if (optind < argc) {
		walk(&g, argv + optind, argc - optind);
	} else {
		roots_default(&roots, 0);
		input_skip_denied = 1;   /* other users' roots, for a user who is not root */
		walk(&g, roots.path, roots.n);
		roots_free(&roots);
	}
	printf("gc: %llu log%s %s, %llu kept, %llu failed; %llu bytes (%s) %s\n",
	       (unsigned long long)g.removed, g.removed == 1 ? "" : "s",
	       g.dry ? "would be removed" : "removed", (unsigned long long)g.kept,
	       (unsigned long long)g.failed, (unsigned long long)g.freed, human_bytes(size, g.freed),
	       g.dry ? "would be freed" : "freed");
	if (g.archive_fd >= 0)
		close(g.archive_fd);
	return cli_finish("gc", g.failed ? EXIT_USAGE : EXIT_OK);
}
