/* report.h: what `timeline report` shows, chart by chart: the data behind
 * each chart (built once, in reportdata.c) and the two writers that take
 * them, HTML with inline SVG (reporthtml.c) and JSON (reportjson.c), so
 * that the JSON dump is what the pictures draw. */
#ifndef TL_REPORT_H
#define TL_REPORT_H
#include <stddef.h>
#include <stdint.h>
#include "analysis.h"
#include "stats/compare.h"
#include "stats/readall.h"
#include "table.h"

/* Where a chart goes, what it is called, and its axes' labels with their
 * units in parentheses. */
struct rp_chart {
	const char *section;         /* "summary", "cycles", "time", ... */
	char id[96];                 /* unique in the report */
	char title[256];
	char x[96], y[96];           /* the axis labels */
};

/* One stacked bar: the breaths' cycles of a process (or a node, a CPU)
 * and each app's share of them; "(no app)", the rest, last. */
struct rp_stack {
	char label[128];
	const char *side;            /* a report of two sides: "A" or "B", whose breaths
				      * these are; else NULL */
	uint64_t breaths;            /* the breaths counted */
	double cycles;               /* their cycles */
	size_t n;
	const char **apps;           /* the apps, largest first, then "(no app)" */
	double *app_cycles;          /* ... and their cycles */
};

/* A histogram of cycles per unit on a log scale: 8 bins per power of two,
 * each bin [lo, hi) holding its count (only bins that hold any). */
struct rp_hbin {
	double lo, hi;
	uint64_t n;
};

struct rp_hist {
	char label[64];              /* what it is ("A", "B", or the row's key) */
	uint64_t n, zeros;           /* values, and those that are 0 (no bin) */
	double p50;                  /* its median, marked */
	struct rp_hbin *bins;
	size_t nbins;
	const double *runs;          /* the runs' values the verdict is made from (a dot
				      * each), NULL: none */
	const char *const *run_names;/* ... and their runs */
	size_t nruns;
};

/* One box of a box plot: a group's count and quantiles. */
enum { BOX_MIN, BOX_P5, BOX_P25, BOX_P50, BOX_P75, BOX_P90, BOX_P95, BOX_P99, BOX_MAX,
       BOX_NV };
extern const char *const rp_box_names[BOX_NV];   /* "min", "p5", ... "max" */

struct rp_box {
	char label[128];
	const char *side;            /* a report of two sides: "A" or "B", whose values
				      * these are; else NULL */
	uint64_t n;
	double v[BOX_NV];
};

/* A process over time: its timeline and what each panel shows of it. */
struct rp_time {
	const struct an_timeline *t;
	const char *unit;            /* the --per unit, e.g. "packets" */
	const char *side;            /* a report of two sides: "A" or "B", whose process
				      * this is; else NULL */
	const char **units;          /* per series of T: its pairs' own unit (a declared
				      * pair's), NULL: UNIT */
	const char *loop;            /* the declared breath's label ("kv.poll"), NULL:
				      * Snabb's breath */
	const tl_arming *trigger;    /* the log's flight recorder trigger (timeline
				      * arm), marked on the time axis; NULL: none */
	const char *trigger_text;    /* ... in words, as info says it */
};

/* A writer: HTML or JSON. Each call is one chart (or a table), in report
 * order; section() opens a section. */
struct rp_out {
	int format;                  /* the format its tables are made for (FMT_*) */
	void (*begin)(const struct rp_out *o, const char *title, const char *about, int sides);
					/* SIDES: a report of two sides */
	void (*section)(const struct rp_out *o, const char *id, const char *title,
			const char *about);
	void (*table)(const struct rp_out *o, const struct rp_chart *c, const struct table *t);
	void (*stacks)(const struct rp_out *o, const struct rp_chart *c, const struct rp_stack *s,
		       size_t n);
	void (*time)(const struct rp_out *o, const struct rp_chart *c, const struct rp_time *t);
	void (*hists)(const struct rp_out *o, const struct rp_chart *c, const struct rp_hist *h,
		      size_t n);
	void (*boxes)(const struct rp_out *o, const struct rp_chart *c, const struct rp_box *b,
		      size_t n);
	void (*note)(const struct rp_out *o, const char *text);
	void (*end)(const struct rp_out *o);
};

extern const struct rp_out rp_html, rp_json;

/* What a report is made of: its engines, files and options. */
struct rp_input {
	struct an *e;                /* cycles per unit: by event, app, cpu, numa, group
				      * and batch bucket, with timelines */
	struct an *lags;             /* lags, by event */
	const struct an_options *o;  /* e's options */
	const struct readall_file *files;   /* what was read, in input order */
	size_t nfiles;
	const struct comparison *cmp;       /* a diff report: the comparison, else NULL */
	const char *diff_title;      /* its table's title */
	const char *diff_command;    /* ... and the `timeline diff` command that prints it */
	const struct an *fed[2];     /* a diff report: the engine each side's files fed
				      * (readall_file.engine) */
	const char *command;         /* the command line, for the header */
	struct an *sides[2];         /* a diff report: E of side A and of B apart (E pools
				      * them), else NULL */
	struct an *side_lags[2];     /* ... and LAGS likewise */
};

/* The unit the time axis of timeline T counts in, into *NAME ("s", "ms",
 * "us"; without a TSC frequency "Gcycles", "Mcycles", "kcycles"), the
 * largest that its span counts at least one of; returns the ticks in one. */
double report_time_unit(const struct an_timeline *t, const char **name);

/* Whether timeline T has its breaths' running totals (Snabb's breath_end
 * totals: breaths, packets, bytes), of which the throughput is drawn; a
 * program's declared breath has none. */
int report_has_totals(const struct an_timeline *t);

/* Writes the report of IN through OUT. */
void report_write(const struct rp_out *out, const struct rp_input *in);

/* The log-scale bins of H into *B (malloc'd, *N of them), as rp_hist. */
void report_hbins(const struct hist *h, struct rp_hbin **b, size_t *n);
#endif
