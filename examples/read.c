/* read.c: the smallest complete reader: opens each log named on the command
 * line (ours or Snabb's, plain or zstd-compressed) with libtimeline and
 * prints every entry with its definition and its time. Build it against an
 * installed copy:  cc read.c $(pkg-config --cflags --libs timeline) */
#include <stdio.h>
#include <string.h>
#include <timeline.h>

/* Prints argument I of E, named by D: a whole number, or a double where a
 * Snabb file stored one. */
static void print_arg(const tl_def *d, const tl_entry *e, unsigned i)
{
	double v;
	if (e->dargs >> i & 1) {
		memcpy(&v, &e->args[i], sizeof v);
		printf(" %s=%.17g", d->args[i], v);
	} else {
		printf(" %s=%llu", d->args[i], (unsigned long long)e->args[i]);
	}
}

/* Prints every entry of the log at PATH; returns 0, or 1 if it cannot be read. */
static int read_log(const char *path)
{
	tl_error err;
	tl_info info;
	tl_entry e;
	uint64_t first = 0, n = 0;
	tl_reader *r = tl_reader_open(path, &err);
	if (!r) {
		fprintf(stderr, "read: %s\n", err.msg);
		return 1;
	}
	tl_reader_info(r, &info);
	printf("# %s: %s%s, %llu slots, time in %s\n", path,
	       info.format == TL_FORMAT_SNABB ? "Snabb" : "timeline",
	       info.compressed ? " (zstd)" : "", (unsigned long long)info.entries,
	       info.tsc_hz ? "ns since the first entry" : "cycles (no TSC frequency)");
	while (tl_reader_next(r, &e)) {
		const tl_def *d = tl_reader_def(r, e.msgid);
		if (!d)
			break;   /* out of memory */
		if (n++ == 0)
			first = e.tsc;
		printf("%llu %u %u %s", (unsigned long long)(info.tsc_hz ?
		       tl_ticks_to_ns(e.tsc - first, info.tsc_hz) : e.tsc - first), e.cpu, e.numa,
		       d->name);
		if (*d->attrs)
			printf(" [%s]", d->attrs);
		for (unsigned i = 0; i < d->nargs; i++)
			print_arg(d, &e, i);
		putchar('\n');
	}
	printf("# %llu entries, %llu skipped as incomplete\n", (unsigned long long)n,
	       (unsigned long long)tl_reader_skipped(r));
	tl_reader_close(r);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: read LOG...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		bad |= read_log(argv[i]);
	return bad ? 2 : 0;
}
