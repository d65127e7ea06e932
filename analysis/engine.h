/* engine.h: the inside of the statistics engine, shared by its parts and
 * by no one else (callers use analysis.h). Each part owns:
 *
 *   analysis.c  the engine's life: keys, an_new/an_free, a file begun, each
 *               entry taken (Snabb's lag here, begins and ends handed to
 *               spans.c), a file ended with its record (struct an_breaths)
 *   events.c    the per-file event cache: a message id's definition read
 *               once into a struct an_ev (role in a pair, whether it is the
 *               breath, unit and --bucket argument indexes); what the
 *               options found
 *   spans.c     pairing: each thread's open spans, a begin pushed, an end
 *               matched with its begin within its thread, the span made
 *               (parent, depth, self cycles) and handed to pairs.c
 *   rows.c      the rows: hashed by joined key, an entry's key values, the
 *               --bucket range, TSC frequencies, unmatched counts
 *   pairs.c     a span counted: cycles per unit into its row, deferred app
 *               pairs, where each breath's cycles go (shares, by CPU)
 *   series.c    the current file over time (an_options.series): samples
 *               and totals, cut into a timeline when the file ends
 *   slowest.c   each row's slowest pairs (an_options.slowest)
 *   results.c   rows sorted, records and unmatched lists; an_merge,
 *               an_project, an_cut, an_gap and the summary readers' pieces
 *   switches.c  the records of the event switches: begins waiting when
 *               they change dropped and counted (no pair across a change)
 *
 * Most allocation aborts when memory runs out (xalloc.h); the histograms
 * (hist.c) and the series' samples report it instead, and the functions
 * that add to them return -1. */
#ifndef TL_ENGINE_H
#define TL_ENGINE_H
#include "analysis.h"

enum { ROLE_NONE, ROLE_BEGIN, ROLE_END };

/* Kinds of span held by one span that an_nesting() learns: the first
 * this many a span of a kind holds. */
#define AN_NEST_KIDS 8

struct an_ev {
	char *name, *app;            /* the event's name and app key ("-": none) */
	const char *attr_name;       /* the attribute APP is the value of: "app", or a
				      * declared pair's by= */
	unsigned level;
	unsigned pair_level;         /* end: its begin's level, once found (its rows') */
	int role, rule;              /* begin or end of rule RULE (-1: of a declared pair) */
	const tl_pair *decl;         /* ... of this pair the file declares */
	int is_breath;               /* ... of the program's breath: Snabb's breath_start/
				      * breath_end, or a pair declared with "breath" */
	char *share;                 /* end: its name in where the cycles go: the app of
				      * Snabb's app pairs, else the label and attribute */
	char *label;                 /* its pair's label */
	uint16_t msgid;
	int unknown;                 /* the msgid names no definition */
	int unit, bucket_arg;        /* end: argument indexes of the unit and --bucket ARG */
	char count_unit[64];         /* end: the unit its rows count (--per, or declared) ... */
	struct an_row *unit_row;     /* ... noted in this row already */
	unsigned nunits;             /* end: the units a span of it gives (an_span) ... */
	const char *unit_names[TL_MAX_ARGS];
	int units[TL_MAX_ARGS];      /* ... their argument indexes (-1: the end lacks it) */
	int begin_units[TL_MAX_ARGS];/* ... and in its begin (a running counter), -1 none */
	char unit_name[128], bucket_name[128];
	int begin_unit, begin_bucket;/* end: the same names' indexes in its begin, -1 none */
	char *begin_key;             /* end: "begin name\x1fattrs" to find its begin */
	struct an_ev *begin;         /* end: its begin once found */
	struct an_ev *next_begin;    /* begin: the file's list of begins */
	char *match_key;             /* begin: "name\x1fattrs" */
	struct an_row *row;          /* the row of its last entry ... */
	uint16_t row_aux;            /* ... for this cpu/node word ... */
	uint32_t row_thread;         /* ... this thread (of BUCKET_ROWS' too) ... */
	int row_bucket;              /* ... and bucket: most entries reuse it */
	struct an_row **bucket_rows; /* --bucket: the last row of each bucket (index
				      * bucket + 1), made on first use ... */
	uint16_t *bucket_aux;        /* ... and its cpu/node word */
	size_t unmatched;            /* end: its index in the unmatched counts + 1, 0 unset */
	int share_index;             /* end: index of SHARE in the file's shares, -1 unset */
	int series;                  /* pair end: index in the file's series, -1 unset */
	int switch_rec;              /* an entry of the records of the switches */
	struct an_ev *nested[AN_NEST_KIDS];   /* end: the ends its spans held, noted in
					       * the engine's nesting already */
	unsigned nnested;
	unsigned breath;             /* 1: a breath_end with the summary's arguments, ... */
	int breath_arg, packets_arg, bytes_arg;   /* ... at these indexes */
};

/* A series of (time, value) samples of the current file. */
struct samples {
	struct bin_sample *s;
	size_t n, cap;
};

/* A breath_end's time and running totals, for the throughput over time. */
struct breath_totals {
	uint64_t t, breath, packets, bytes;
};

/* A pair whose end carries no unit, kept until its breath ends. */
struct deferred {
	struct an_ev *ev;
	tl_entry e;
	double cycles;
};

/* A span begun and not yet ended, on its thread's stack (spans.c). */
struct an_open {
	struct an_ev *b;             /* its begin event */
	uint64_t tsc, seq;           /* the begin's time and entry number */
	uint64_t args[TL_MAX_ARGS];  /* ... and arguments (running counters) */
	uint16_t aux;                /* ... and cpu/node word */
	uint64_t inner;              /* cycles of the spans that ended inside it */
	uint64_t ninner;             /* ... how many */
	struct an_ev *kids[AN_NEST_KIDS];   /* ... the ends of the first kinds of them */
	unsigned nkids;
};

/* What one thread of the current file has under way. */
struct an_thread {
	struct an_open *open;        /* its open spans, outermost first */
	size_t nopen, open_cap;
	/* the breath under way: each app's cycles so far (by share index) */
	double *app_cycles;
	size_t app_cycles_cap;
	int in_breath;               /* a breath begun, its end not yet seen */
	int breath_has_app;          /* a span ended inside it */
	/* ... and its pairs whose end carries no unit, waiting for the breath's */
	struct deferred *deferred;
	size_t ndeferred, deferred_cap;
};

struct an {
	struct an_options opts;      /* as given to an_new(), pointing at the copies below */
	struct an_pair *pairs;       /* the pair rules, copied */
	double *edges;               /* the --bucket edges, copied */
	char **bucket_labels;        /* each --bucket range as shown: "1", "16-31", "64+" */
	/* the rows, hashed by their joined key */
	struct an_row **rows;
	char **row_keys;             /* rows[i]'s key values joined by \x1f */
	size_t nrows, rows_cap;
	size_t *row_slots;           /* open addressing: index into rows + 1, 0 empty */
	size_t nrow_slots;
	/* the current file */
	struct an_file file;
	an_def_fn *def_fn;           /* the caller's definitions of its message ids */
	void *def_ctx;
	struct an_ev **events;       /* its events, by msgid, made on first use */
	struct an_ev *begins;        /* the begin events among them */
	/* for Snabb's lag: the latest entry of each level that no later entry of
	 * a lower or equal level has passed; levels rise from the bottom */
	struct { uint64_t tsc; unsigned level; } lag_stack[10];
	unsigned lag_depth;
	uint64_t unknown_entries;    /* entries of this file whose msgid names nothing */
	/* a record per file, the current one at breaths[nbreaths] */
	struct an_breaths *breaths;
	size_t nbreaths, breaths_cap;
	/* the current file's declared breath (a pair declared "breath"), since
	 * the file began or was last cut: spans, cycles, units, bytes, unit */
	uint64_t db_n;
	double db_cycles, db_units, db_bytes;
	char db_unit[64];
	uint64_t breath_end_first[4];/* the file's first breath_end: tsc, breath, packets, bytes */
	uint64_t breath_end_last[4]; /* ... and its last */
	/* unmatched pairs */
	struct an_unmatched *unmatched;
	size_t nunmatched;
	struct an_found found;       /* what the options found, for warnings */
	uint64_t first_tsc;          /* the current file's first entry read ... */
	int first_set;               /* ... once one was */
	char *unit;                  /* the unit of the pairs counted (an_unit()), NULL none yet */
	int unit_mixed;              /* ... they had different ones */
	char *units;                 /* every unit noted, once each, a blank between */
	/* the current file's thread keys by tl_entry.thread (an_file_threads()) */
	const char *const *thread_keys;
	size_t nthread_keys;
	/* each thread's spans under way (spans.c), by tl_entry.thread */
	struct an_thread *threads;
	size_t nthreads;
	/* which pairs held which (an_nesting()) */
	struct an_nest *nest;
	size_t nnest, nest_cap;
	/* the current file over time (opts.series): its span, samples per pair,
	 * breath_end running totals; then the timelines of the files done */
	uint64_t file_tsc_min, file_tsc_max;
	int file_has_tsc;            /* an entry was seen: the two above are set */
	struct samples *series_values;   /* each pair's cycles per unit ... */
	struct samples *series_units;    /* ... and (the breath's) units moved */
	struct an_series *series;    /* labels of series_values[i] (and series_units[i]) */
	size_t nseries;              /* series in this file */
	size_t series_made;          /* series_values and series_units made so far */
	struct breath_totals *breath_totals;
	size_t nbreath_totals, breath_totals_cap;
	struct an_timeline *timelines;
	size_t ntimelines;
	/* the event switches: the current file's (switches.c), and all files' */
	uint64_t switch_words[TL_SWITCH_WORDS_PER_LOG];
	int file_switched;           /* a record seen, or some off now */
	struct an_switches switches;
	unsigned slow_cap;           /* the fewest slowest pairs a summary read kept,
				      * + 1 (0: no summary read; an_slowest_kept()) */
};

/* ---- switches.c ---- */

/* Is D the definition of the records of the event switches? */
int switch_is_record(const tl_def *d);

/* Record entry E: the file's switches updated; at a change, the begins
 * waiting for their ends dropped and counted (skipped). */
void switch_record(struct an *a, const tl_entry *e);

/* A file begins, with OFF_NOW events switched off in it now; ends. */
void switch_file_begin(struct an *a, unsigned off_now);
void switch_file_end(struct an *a);

/* ---- events.c ---- */

/* Frees the current file's event cache. */
void free_evs(struct an *a);

/* The cache entry of MSGID in the current file, made from its definition. */
struct an_ev *make_ev(struct an *a, uint16_t msgid);

/* The index of D's argument NAME, or -1. */
int arg_index(const tl_def *d, const char *name);

/* Adds NAME to the set of argument names pair ends carry (at most 64). */
void note_arg(struct an_found *f, const char *name);

/* ---- rows.c ---- */

/* The row for the key values KV (NULL where not grouped), BUCKET and the
 * pairs' LEVEL (a key when leveled(), else the first row's), made if new. */
struct an_row *row_for(struct an *a, char *const kv[AN_NKEYS], int bucket, unsigned level);

/* Are A's rows of pairs grouped without the event key, so that pairs of
 * different levels fill rows of their own (an_rows() keeps the lowest)? */
static inline int leveled(const struct an *a)
{
	return a->opts.per && !(a->opts.by & (1u << AN_EVENT));
}

/* Notes that a file of TSC frequency HZ (0: unknown) fed row R. */
void note_hz(struct an_row *r, uint64_t hz);

/* Adds the values of row F to row R; zeroes R's values. add_row returns
 * -1 out of memory, else 0. */
int add_row(struct an_row *r, const struct an_row *f, unsigned slowest);
void clear_row(struct an_row *r);

/* The cpu and numa key values of entry E ("?": unknown). */
void cpu_numa(const tl_entry *e, char cpu[16], char numa[16]);

/* The row of entry E of EV named EVENT in BUCKET, looked up and
 * remembered in EV (cached_row() below tries EV's memory first). */
struct an_row *find_row(struct an *a, struct an_ev *ev, const char *event,
			const tl_entry *e, int bucket) __attribute__((noinline));

/* The --bucket range holding V, or -1. */
int bucket_of(const struct an *a, double v);

/* The unmatched counts of pair LABEL, made if new. */
struct an_unmatched *unmatched_for(struct an *a, const char *label);

/* ---- spans.c ---- */

/* A begin event EV, entry E: a span opens on E's thread (one of EV's
 * already open there is dropped, counted as a begin unmatched). */
void span_begin(struct an *a, struct an_ev *ev, const tl_entry *e);

/* An end event EV, entry E: the span of its begin open on E's thread is
 * made and counted (pairs.c); none open, an end unmatched. Returns -1 out
 * of memory, else 0. */
int span_end(struct an *a, struct an_ev *ev, const tl_entry *e);

/* Drops every open span of the current file: counted as skipped (a switch
 * record: SKIPPED nonzero), as begins unmatched (the file ends: UNMATCHED),
 * or not at all (a gap); the breaths under way are not counted. */
void spans_drop(struct an *a, int skipped, int unmatched);

/* Frees the threads' state (between files, and by an_free). */
void spans_free(struct an *a);

/* Notes in A's nesting that pair OUTER (label, attribute) held INNER,
 * unless it is there already. */
void nest_add(struct an *a, const char *outer, const char *outer_attr, const char *inner,
	      const char *inner_attr);

/* Frees A's nesting. */
void nest_free(struct an *a);

/* ---- pairs.c ---- */

/* A breath on thread T begins: where its cycles go starts counting. */
void share_begin(struct an *a, struct an_thread *t);

/* Counts span S, begun by O and ended by entry E of EV on thread T: its
 * cycles per unit into its row, where the breath's cycles go. Returns -1 out of memory,
 * else 0. */
int count_span(struct an *a, struct an_thread *t, struct an_ev *ev, const tl_entry *e,
	       const struct an_open *o, const struct an_span *s);

/* Frees breath summary B's shares and its split by CPU. */
void free_shares(struct an_breaths *b);

/* ---- series.c ---- */

/* The current file's span over time: entries at T come in. */
void note_time(struct an *a, uint64_t t);

/* Keeps a breath_end's time and running totals V (tsc, breath, packets,
 * bytes). Returns -1 out of memory, else 0. */
int add_totals(struct an *a, const uint64_t v[4]);

/* Adds the pair of EV ended at T, of cycles per unit V and UNITS, to the
 * file's series. Returns -1 out of memory, else 0. */
int series_add(struct an *a, struct an_ev *ev, uint64_t t, double v, double units);

/* Cuts the current file's series into bins, as a new timeline of A.
 * Returns -1 out of memory, else 0. */
int make_timeline(struct an *a);

/* Frees what timeline T points to; adds copies of FROM's timelines to INTO's. */
void free_timeline(struct an_timeline *t);
void merge_timelines(struct an *into, const struct an *from);

/* Notes that A's pairs are counted in UNIT, or (lags) that a file declares
 * pairs counted in it (an_unit(), an_declared_units()). */
void an_note_unit(struct an *a, const char *unit);
void an_note_units(struct an *a, const char *list);

/* ---- slowest.c ---- */

/* Counts the pair ended by entry E, of CYCLES and UNITS (> 0), among the
 * slowest of row R. */
void slow_add(struct an *a, struct an_row *r, const tl_entry *e, double cycles, double units);

/* Adds F's slowest to R's, keeping N; frees R's. */
void slow_merge(struct an_row *r, const struct an_row *f, unsigned n);
void slow_free(struct an_row *r);

/* ---- analysis.c ---- */

/* Fills B, the current file's breath summary, from the first and last
 * breath_end and the file's names. */
void fill_breaths(const struct an *a, struct an_breaths *b);

/* ---- shared inline ---- */


/* The row of entry E of EV: the one its last entry went to, when its cpu/node
 * word, thread and bucket are the same (the common case, kept free of
 * find_row()'s stack frame), else found and remembered. */
static inline struct an_row *cached_row(struct an *a, struct an_ev *ev, const char *event,
					const tl_entry *e, int bucket)
{
	if (ev->row && ev->row_aux == e->aux && ev->row_bucket == bucket && ev->row_thread == e->thread)
		return ev->row;
	if (ev->bucket_rows && ev->bucket_rows[bucket + 1] && ev->bucket_aux[bucket + 1] == e->aux &&
	    ev->row_thread == e->thread) {
		ev->row = ev->bucket_rows[bucket + 1];
		ev->row_aux = e->aux;
		ev->row_bucket = bucket;
		return ev->row;
	}
	return find_row(a, ev, event, e, bucket);
}
#endif
