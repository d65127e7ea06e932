/* dump.c: `timeline dump`, every entry of every input, oldest first, as
 * text, CSV or JSON lines. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "out.h"
#include "view.h"

static const char usage[] =
	"usage: timeline dump [OPTIONS] INPUT...\n"
	"\n"
	"Prints every entry of each input (a log, a Snabb log, a zstd copy of\n"
	"either, or a directory of them), oldest first.\n"
	"\n" VIEW_USAGE
	"   -h, --help          show this help\n";

static const struct option options[] = {
	VIEW_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct dump {
	struct view view;
	int problems;                /* inputs that could not be read */
	int inputs;                  /* inputs read */
};

/* Dumps one input; returns -1 once the --limit is reached. */
static int dump_one(const char *path, int named, void *arg)
{
	struct dump *d = arg;
	int skipped, rc = 0;
	struct input *in = input_open("dump", path, named, &skipped);
	tl_entry e;
	uint64_t t0 = 0;
	int first = 1;

	if (!in) {
		d->problems += !skipped;
		return 0;
	}
	if (!view_can_time(&d->view, "dump", in)) {
		d->problems++;
		input_close(in);
		return 0;
	}
	d->inputs++;
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &e)) {
		if (first)
			t0 = e.tsc;
		first = 0;
		if (view_entry(&d->view, in, &e, t0) < 0) {
			rc = -1;
			break;
		}
	}
	d->problems += input_report_damage("dump", in);
	input_note_skipped("dump", in);
	input_close(in);
	return rc;
}

int cmd_dump(int argc, char **argv)
{
	struct dump d;
	int rc;

	memset(&d, 0, sizeof d);
	if ((rc = view_parse(&d.view, "dump", usage, options, argc, argv)) >= 0)
		return rc;
	view_begin(&d.view);
	d.problems += input_walk("dump", argv + optind, argc - optind, dump_one, &d);
	out_flush();
	return cli_finish("dump", d.problems ? EXIT_USAGE : EXIT_OK);
}
