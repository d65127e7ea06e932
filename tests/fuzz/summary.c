/* summary.c: fuzzes the reader of summaries (timeline-summary(5)) as stats
 * and diff use it: an_summary_read() into engines of both kinds (lags, and
 * --per packets with --bucket; runs by file and by directory), everything
 * read back out of them, and what was read written and read again, which
 * must succeed. The first byte says what follows: odd, a whole file;
 * even, a body, which the harness puts behind a sound header (uncompressed)
 * so that the fuzzer reaches the sections without getting past zstd. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "summary.h"

static const double edges[] = { 0, 1, 16, 32, INFINITY };

/* The options of engine kind K: 0 lags, 1 --per packets --bucket. */
static void options(int k, struct an_options *o, const char **fixed)
{
	memset(o, 0, sizeof *o);
	o->by = 1u << AN_EVENT | 1u << AN_APP | 1u << AN_HOST | 1u << AN_RUN;
	o->pairs = an_default_pairs;
	o->npairs = 3;
	*fixed = "";
	if (k) {
		o->per = "packets";
		o->bucket_arg = "packets";
		o->edges = edges;
		o->nedges = 5;
		*fixed = "--per packets --bucket packets=0,1,16,32,inf";
	}
}

/* Reads everything engine A holds, as stats and diff print it. */
static void use(struct an *a)
{
	size_t n;
	struct an_row **rows = an_rows(a, &n);
	const struct an_breaths *b;
	for (size_t i = 0; i < n; i++) {
		const struct hist *h = &rows[i]->h;
		volatile double v = hist_quantile(h, 0.5) + hist_quantile(h, 0.999) + hist_mean(h) +
				    hist_stddev(h) + hist_mwu_p(h, &rows[0]->h);
		(void)v;
		(void)an_bucket_label(a, rows[i]->bucket);
	}
	b = an_breath_list(a, &n);
	for (size_t i = 0; i < n; i++)
		(void)strlen(b[i].process);
	(void)an_unmatched_list(a, &n);
	(void)an_found(a);
}

/* What A read, written and read back into a fresh engine of options O. */
static void round_trip(struct an *a, const struct an_options *o, const char *fixed)
{
	struct an_summary_map m = { .fixed = fixed };
	struct an *b = an_new(o);
	unsigned char *f;
	size_t n;
	char err[256];
	if (an_summary_write(a, fixed, &f, &n) < 0)
		abort();
	if (an_summary_read(b, f, n, &m, err, sizeof err) < 0) {
		fprintf(stderr, "a summary written did not read back: %s\n", err);
		abort();
	}
	free(f);
	an_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *file;
	size_t fsize;
	if (size < 1)
		return 0;
	fsize = data[0] & 1 ? size - 1 : size - 1 + AN_SUMMARY_HEADER;
	if (!(file = malloc(fsize ? fsize : 1)))
		return 0;
	if (data[0] & 1) {
		memcpy(file, data + 1, size - 1);
	} else {
		uint64_t body = size - 1;
		memset(file, 0, AN_SUMMARY_HEADER);
		memcpy(file, an_summary_magic, 8);
		file[8] = AN_SUMMARY_MAJOR;
		for (int i = 0; i < 8; i++)
			file[16 + i] = file[24 + i] = (unsigned char)(body >> (8 * i));
		memcpy(file + AN_SUMMARY_HEADER, data + 1, size - 1);
	}
	for (int k = 0; k < 4; k++) {
		struct an_options o;
		const char *fixed;
		struct an_summary_map m;
		struct an *a;
		char err[256];
		options(k % 2, &o, &fixed);
		m = (struct an_summary_map){ .fixed = fixed, .group = k >= 2 ? "g" : NULL,
					     .runs = k >= 2, .order = (uint64_t)k << 32 };
		a = an_new(&o);
		if (an_summary_read(a, file, fsize, &m, err, sizeof err) == 0) {
			use(a);
			round_trip(a, &o, fixed);
		}
		an_free(a);
	}
	free(file);
	return 0;
}
