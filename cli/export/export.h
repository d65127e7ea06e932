/* export.h: `timeline export`'s writers, one per --format, each a struct
 * export_format in its own file: Chrome trace JSON (chrome.c), Perfetto's
 * protobuf trace (perfetto.c), CTF 1.8 (ctf.c), CSV (csv.c), OpenTelemetry's
 * OTLP (otlp.c). export.c reads the inputs, applies the filters, and hands
 * each kept entry to the writer, or to a writer of spans the spans the
 * engine pairs them into. Adding a format: write its file with its struct
 * export_format, declare it below, add it to export.c's table. */
#ifndef TL_EXPORT_H
#define TL_EXPORT_H
#include <stdint.h>
#include "analysis.h"
#include "input.h"
#include "view.h"

/* What every writer is given. */
struct export {
	const char *out;                 /* -o: a file, or a directory (dir writers) */
	struct view *view;               /* the filters, and how CSV rows look (csv.c:
					  * its header due) */
	const struct an_pair *pairs;     /* span rules */
	size_t npairs;
	int wall;                        /* 1: all inputs have a TSC frequency and anchor */
	/* for the writers of spans (OTLP) */
	uint64_t slowest;                /* --slowest N: the N slowest outermost spans of each
					  * pair and attribute, with what they hold; 0 all */
	const char *per;                 /* --per UNIT, NULL: each span's first unit */
	const char *service;             /* --service NAME, NULL: each process's name */
	const char *endpoint;            /* --endpoint URL, NULL: none */
	uint64_t max_request;            /* --max-request: the bytes a request holds at most */
	uint64_t tsc_hz;                 /* --tsc-hz HZ for logs that have none, 0: none */
};

/* A writer. export.c calls begin, then for each input K file, entry for
 * each entry the filters keep (at time T in the view's unit), file_end;
 * then end. file, lost, file_end and end may be NULL. */
struct export_format {
	const char *name;                /* its --format */
	int dir;                         /* 1: OUT is a directory begin makes; 0: a file
					  * export.c opens as standard output (- is stdout) */
	int wall;                        /* 1: needs wall time: a log without a TSC
					  * frequency is refused unless --tsc-hz gives one */
	/* Starts the output for the N inputs IN: -1 (reported) when it cannot. */
	int (*begin)(const struct export *x, struct input **in, size_t n);
	void (*file)(const struct export *x, size_t k, struct input *in);
	void (*entry)(const struct export *x, size_t k, struct input *in, const tl_def *ev,
		      const tl_entry *e, int64_t t);
	/* Before entry E: N entries of input K, numbered FIRST to LAST (with
	 * gaps when N is less than LAST - FIRST + 1), were lost since the last
	 * entry kept (wrapped away, torn, or overwritten while read); N 0, once
	 * before the first entry kept, for a Snabb log whose ring is full (it
	 * may have wrapped: the losses are uncounted). */
	void (*lost)(const struct export *x, size_t k, struct input *in, uint64_t n,
		     uint64_t first, uint64_t last, const tl_entry *e);
	void (*file_end)(const struct export *x, size_t k, struct input *in);
	/* A writer of spans: each span the engine pairs from the entries kept
	 * of input K (children before their parents), between file and
	 * file_end; entry may then be NULL, and --slowest is the writer's. */
	void (*span)(const struct export *x, size_t k, struct input *in, const struct an_span *s);
	/* Finishes the output: -1 (reported) when it could not be written. */
	int (*end)(const struct export *x);
};

/* The role of event NAME in IN under X's pair rules: the --pair rules
 * (all but the last three), then the pairs IN declares, then the built-in
 * ones: 1 begin (its end's name into OTHER of SIZE: a rule's may lack its
 * category), 2 end (its begin's full name into OTHER), 0 neither. */
int export_pair_role(const struct export *x, struct input *in, const char *name, char *other,
		     size_t size);

/* The label of the pair whose begin event is BEGIN and end END_NAME in IN:
 * the pair IN declares for them ("fwd.breath", not "fwd.iter" of its
 * begin), or the rule's (an_pair_label(): "app.push", "engine.breath")
 * when a --pair rule or a built-in one pairs them; into BUF of SIZE. */
void export_span_label(char *buf, size_t size, const struct export *x, struct input *in,
		       const char *begin, const char *end_name);

/* NAME followed by the attributes of EV, as every export names an event
 * or a span: app's value alone ("app.push lookup"), any other attribute as
 * NAME=VALUE ("fwd.rx port=0"), a blank before each; into BUF of SIZE (cut
 * to fit), as snprintf returns. */
int export_name(char *buf, size_t size, const char *name, const tl_def *ev);

/* The name of the span IN's begin EV starts and END_NAME ends: its label
 * (export_span_label()), then EV's attributes (export_name()). */
int export_span_name(char *buf, size_t size, const struct export *x, struct input *in,
		     const tl_def *ev, const char *end_name);

/* P, an array of *CAP items of SIZE bytes, with room for NEED: as it is,
 * or grown to twice NEED (at least 16); aborts when memory runs out. */
void *export_grow(void *p, size_t *cap, size_t need, size_t size);

/* A log's wall clock, read as tl_wall_ns() reads it without its division
 * (export_wall()). */
struct export_clock {
	tl_info info;                    /* its frequency and anchor */
	uint64_t recip;                  /* 2^64 * 10^9 / hz rounded down; 0: too large
					  * for 64 bits (1 GHz and below), tl_wall_ns() */
};
void export_clock_init(struct export_clock *c, const tl_info *info);

/* Tick TSC of C's log in ns since the epoch, exactly tl_wall_ns(): floor((TSC
 * - anchor) * 10^9 / hz) after the anchor, as D * RECIP / 2^64, which is that
 * or one less (RECIP is short of the true quotient by less than one, so D *
 * RECIP by less than D < 2^64), one multiplication telling which. */
static inline int64_t export_wall(const struct export_clock *c, uint64_t tsc)
{
	uint64_t d, q;
	if (!c->recip || tsc < c->info.anchor_tsc)
		return tl_wall_ns(&c->info, tsc);
	d = tsc - c->info.anchor_tsc;
	q = (uint64_t)(((unsigned __int128)d * c->recip) >> 64);
	if ((unsigned __int128)(q + 1) * c->info.tsc_hz <= (unsigned __int128)d * 1000000000u)
		q++;
	return (int64_t)(c->info.anchor_realtime_ns + q);
}

/* Chrome JSON: spans (X), instants (i), counters (C), in one file. */
extern const struct export_format export_chrome;
/* Perfetto's protobuf trace: slices, instants and counters on tracks of
 * processes and threads, in one file. */
extern const struct export_format export_perfetto;
/* CTF: a trace directory with metadata and one stream per input. */
extern const struct export_format export_ctf;
/* CSV: the rows of dump --format csv. */
extern const struct export_format export_csv;
/* OpenTelemetry: one ExportTraceServiceRequest of the spans, in protobuf
 * (otlp) or OTLP's JSON (otlp-json), to a file or a collector. */
extern const struct export_format export_otlp, export_otlp_json;
#endif
