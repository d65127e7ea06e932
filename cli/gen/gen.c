/* gen.c: `timeline gen`, which turns an events file into a C header of
 * static inline event functions and a registration function. */
#include <ctype.h>
#include <strings.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "genheader.h"
#include "timeline.h"

static const char usage[] =
	"usage: timeline gen [-o FILE] [--prefix NAME] EVENTS-FILE\n"
	"\n"
	"   -o, --output FILE   write the header to FILE (default: standard output)\n"
	"   -p, --prefix NAME   prefix of the generated names (default: the category)\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "prefix", required_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The library owns tl_ and TL_: a prefix "tl" or "tl_..." would clash. */
static int reserved_prefix(const char *p)
{
	return !strcasecmp(p, "tl") || !strncasecmp(p, "tl_", 3);
}

static int valid_prefix(const char *p)
{
	if (!*p || !(isalpha((unsigned char)*p) || *p == '_'))
		return 0;
	for (; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			return 0;
	return 1;
}

/* Writes the header to OUT through a temporary file renamed into place, so a
 * failed run never leaves a half-written header behind. */
static int write_out(const tl_events *ev, const char *in, const char *out, const char *prefix)
{
	char tmp[4096];
	FILE *f;
	struct stat st;
	if (!out) {
		genheader_write(stdout, ev, in, prefix);
		return cli_finish("gen", EXIT_OK);
	}
	if (lstat(out, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device, FIFO or link (/dev/stdout): write through it, never replace it */
		if (!(f = fopen(out, "w"))) {
			cli_error("gen", "%s: %s", out, strerror(errno));
			return EXIT_USAGE;
		}
		genheader_write(f, ev, in, prefix);
		if (ferror(f) | fclose(f)) {
			cli_error("gen", "%s: %s", out, strerror(errno ? errno : EIO));
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", out, (long)getpid());
	if (!(f = fopen(tmp, "w"))) {
		cli_error("gen", "%s: %s", out, strerror(errno));
		return EXIT_USAGE;
	}
	genheader_write(f, ev, in, prefix);
	if (ferror(f) | fclose(f) || rename(tmp, out) != 0) {
		cli_error("gen", "%s: %s", out, strerror(errno ? errno : EIO));
		unlink(tmp);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_gen(int argc, char **argv)
{
	const char *out = NULL, *prefix = NULL;
	tl_events *ev;
	tl_error err;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:p:h", options, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'p': prefix = optarg; break;
		case 'h': fputs(usage, stdout); return cli_finish("gen", EXIT_OK);
		default: return cli_bad_option("gen", argv, c);
		}
	}
	if (argc - optind != 1)
		return cli_usage_error("gen", argc == optind ? "missing events file"
							   : "too many arguments");
	if (prefix && (!valid_prefix(prefix) || strlen(prefix) > 63))
		return cli_usage_error("gen", "--prefix must be a C identifier");
	if (!(ev = tl_events_load(argv[optind], &err))) {
		cli_error("gen", "%s", err.msg);
		return EXIT_USAGE;
	}
	if (reserved_prefix(prefix ? prefix : ev->category)) {
		cli_error("gen", "%s: prefix '%s' is reserved for the library; choose one with --prefix",
			  argv[optind], prefix ? prefix : ev->category);
		tl_events_free(ev);
		return EXIT_USAGE;
	}
	rc = genheader_check(ev, argv[optind]) ? EXIT_USAGE
					    : write_out(ev, argv[optind], out, prefix ? prefix : ev->category);
	tl_events_free(ev);
	return rc;
}
