/* copy.c: `timeline copy`, consistent snapshots of logs (live or not) into a
 * file or a directory tree, optionally zstd-compressed. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "input.h"
#include "sink.h"
#include "window.h"

static const char usage[] =
	"usage: timeline copy [--zstd[=LEVEL]] [WINDOW] SRC... DEST\n"
	"\n"
	"Copies logs, while their writers keep running, leaving out any entry\n"
	"torn by a concurrent write. With one SRC file, DEST is the copy; else\n"
	"DEST is a directory and the copies keep their paths below each SRC.\n"
	"With a window or a filter, a copy of ours holds only the entries kept,\n"
	"renumbered in a ring just big enough for them; when they keep nothing\n"
	"(said, exit 2), no copy is left and no line printed.\n"
	"\n" WINDOW_USAGE
	"   -z, --zstd[=LEVEL]  compress the copies with zstd (level 1-19, default 3);\n"
	"                       in a directory they get the suffix .zst\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	{ "zstd", optional_argument, NULL, 'z' },
	WINDOW_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct copy {
	int level;                   /* zstd level, 0: no compression */
	const char *dest;            /* the destination given */
	int into_dir;                /* DEST is a directory */
	const char *root;            /* the SRC being walked */
	int problems;
	struct window w;             /* what goes into the copies */
	struct input *in;            /* the input being copied, for keep() */
	size_t logs;                 /* logs found under the SRC being walked */
	struct window_misses misses; /* ... and what the window kept of them */
	/* with a window or a filter: each copy made and its line, held until
	 * it is known that the window kept some entry of its SRC and the
	 * filters of some log (else it is removed, its line unsaid) */
	struct made {
		char *to, *line;
	} *made;
	size_t nmade, made_cap;
	size_t src_made;             /* the first of them made from the SRC being walked */
};

/* tl_reader_copy_if()'s filter: the window, placed at the first entry. */
static int keep(void *arg, const tl_entry *e)
{
	struct copy *c = arg;
	return window_take(&c->w, c->in, e, "copy");
}


/* Says the line LINE of the copy TO: at once, or with a window or a
 * filter, once something is known to be kept (unsay()). */
static void say(struct copy *c, const char *to, const char *line)
{
	struct made *m;
	if (!window_any(&c->w)) {
		fputs(line, stdout);
		return;
	}
	if (c->nmade == c->made_cap) {
		c->made_cap = c->made_cap ? 2 * c->made_cap : 16;
		if (!(c->made = realloc(c->made, c->made_cap * sizeof *c->made)))
			abort();
	}
	m = &c->made[c->nmade++];
	if (!(m->to = strdup(to)) || !(m->line = strdup(line)))
		abort();
}

/* The copies held from the FROMth on: removed unsaid when KEPT is 0 (the
 * window or the filters kept nothing: no copy of nothing), else said. */
static void unsay(struct copy *c, size_t from, int kept)
{
	for (size_t i = from; i < c->nmade; i++) {
		if (!kept)
			unlink(c->made[i].to);
		else
			fputs(c->made[i].line, stdout);
		free(c->made[i].to);
		free(c->made[i].line);
	}
	c->nmade = from;
}

/* Where the copy of PATH goes. */
static void target(const struct copy *c, const char *path, char *out, size_t size)
{
	const char *rel = path, *suffix = c->into_dir && c->level ? ".zst" : "";
	size_t n = strlen(c->root);
	if (!c->into_dir) {
		snprintf(out, size, "%s", c->dest);
		return;
	}
	if (!strncmp(path, c->root, n) && path[n] == '/')
		rel = path + n + 1;          /* found under a SRC directory */
	else if (strrchr(path, '/'))
		rel = strrchr(path, '/') + 1;  /* a SRC file: its base name */
	snprintf(out, size, "%.*s/%s%s", input_dir_len(c->dest), c->dest, rel, suffix);
}

static int copy_one(const char *path, int named, void *arg)
{
	struct copy *c = arg;
	char to[PATH_MAX], line[2 * PATH_MAX + 64];
	int skipped, fd = -1, created = 0;
	struct input *in = input_open("copy", path, named, &skipped);
	uint64_t kept = 0, dropped = 0;

	if (!in) {
		c->problems += !skipped;
		return 0;
	}
	c->logs++;
	target(c, path, to, sizeof to);
	if ((c->into_dir && make_parents(to)) ||
	    (fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0) {
		cli_error("copy", "%s: %s", to, strerror(errno));
		goto fail;
	}
	created = 1;
	c->in = in;
	if (sink_copy_log("copy", in->r, fd, c->level, 0, window_any(&c->w) ? keep : NULL, c, to,
			  &kept, &dropped) ||
	    in->span_bad)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		cli_error("copy", "%s: cannot write the copy: %s", to, strerror(errno));
		goto fail;
	}
	snprintf(line, sizeof line, "%s -> %s: %llu entries, %llu dropped\n", path, to,
		 (unsigned long long)kept, (unsigned long long)dropped);
	say(c, to, line);
	window_misses_add(&c->misses, &c->w, in, "copy");
	input_close(in);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	if (created)
		unlink(to);   /* no half copy left behind */
	input_close(in);
	c->problems++;
	return 0;
}

int cmd_copy(int argc, char **argv)
{
	struct copy c = { .root = "" };
	const char *why;
	struct stat st;
	int ch, nsrc, made_dest = 0;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":z::h" WINDOW_SHORT, options, NULL)) != -1) {
		uint64_t level;
		switch (ch) {
		case 'z':
			c.level = 3;
			if (optarg && (parse_u64(optarg, &level) || level < 1 || level > 19))
				return cli_usage_error("copy", "--zstd level must be 1 to 19");
			if (optarg)
				c.level = (int)level;
			break;
		case 'h':
			fputs(usage, stdout);
			return cli_finish("copy", EXIT_OK);
		default:
			switch (window_option(&c.w, ch, optarg, &why)) {
			case 1:
				continue;
			case -1:
				return cli_usage_error("copy", why);
			}
			return cli_bad_option("copy", argv, ch);
		}
	}
	if (window_check(&c.w, &why) < 0)
		return cli_usage_error("copy", why);
	nsrc = argc - optind - 1;
	if (nsrc < 1)
		return cli_usage_error("copy", nsrc < 0 ? "missing SRC and DEST" : "missing DEST");
	c.dest = argv[argc - 1];
	c.into_dir = nsrc > 1 || (stat(argv[optind], &st) == 0 && S_ISDIR(st.st_mode)) ||
		     (stat(c.dest, &st) == 0 && S_ISDIR(st.st_mode));
	if (c.into_dir && (made_dest = mkdir(c.dest, 0700) == 0) == 0 && errno != EEXIST) {
		cli_error("copy", "%s: %s", c.dest, strerror(errno));
		return EXIT_USAGE;
	}
	for (int i = optind; i < argc - 1; i++) {
		size_t n = strlen(argv[i]);
		while (n > 1 && argv[i][n - 1] == '/')
			argv[i][--n] = '\0';
		int had = c.problems, missed;
		c.root = argv[i];
		c.logs = 0;
		c.src_made = c.nmade;
		c.problems += input_walk("copy", &argv[i], 1, copy_one, &c);
		fflush(stdout);
		c.problems += input_none("copy", argv[i], c.logs, c.problems - had);
		c.problems += missed = window_misses_end(&c.misses);
		if (missed)   /* the window kept nothing of this SRC */
			unsay(&c, c.src_made, 0);
	}
	unsay(&c, 0, !window_filters_missed());   /* main() says what the filters missed */
	free(c.made);
	if (made_dest)
		rmdir(c.dest);   /* made for nothing: not left behind (else not empty: kept) */
	return cli_finish("copy", c.problems ? EXIT_USAGE : EXIT_OK);
}
