/* analysis.h: the statistics engine of `timeline stats`, `diff` and `report`.
 * It is fed the entries of each file, oldest first, and groups them into
 * rows: lag statistics per event (Snabb's definition), or cycles per unit
 * of work from begin/end pairs, and a breath summary per file. It knows
 * nothing of files or output: the caller reads and prints. */
#ifndef TL_ANALYSIS_H
#define TL_ANALYSIS_H
#include <stddef.h>
#include <stdint.h>
#include "bins.h"
#include "hist.h"
#include "timeline.h"

/* The keys rows can be grouped by (--by), in column order. */
enum an_key { AN_EVENT, AN_APP, AN_PROCESS, AN_CPU, AN_NUMA, AN_HOST, AN_GROUP, AN_THREAD,
	      AN_BUCKET, AN_RUN, AN_NKEYS };
/* AN_RUN, last, is never shown: `diff` groups by it to keep each run's rows
 * apart, then puts the runs of a group side by side. */
#define AN_SHOWN_KEYS (~(1u << AN_RUN))
extern const char *const an_key_names[AN_NKEYS];   /* "event", "app", ... */

/* Parses "app,numa" into a bit set of 1 << AN_*; -1 with *BAD set to the
 * unknown key (the bucket key is not named: --bucket adds it). */
int an_parse_keys(const char *s, unsigned *keys, const char **bad);

/* A begin/end pairing rule on event names, with or without category
 * ("push" or "app.push"). PREFIX, if not NULL, is tried first on the unit
 * name: "in" makes --per packets read "inpackets". */
struct an_pair {
	const char *begin, *end, *prefix;
};

/* The built-in rules: pull/pulled (out), push/pushed (in),
 * breath_start/breath_end (total). */
extern const struct an_pair an_default_pairs[3];

struct an_span;

struct an_options {
	unsigned by;                 /* 1 << AN_* */
	const char *per;             /* --per UNIT; NULL: lag statistics */
	const struct an_pair *pairs; /* the rules (user rules first) */
	size_t npairs;
	const char *bucket_arg;      /* --bucket ARG=..., or NULL */
	const double *edges;         /* its increasing edges, the last may be INFINITY */
	size_t nedges;
	unsigned series;             /* --per: at most this many time bins per file for
				      * an_timelines() (`report`); 0: none kept */
	unsigned slowest;            /* --per: keep each row's this many slowest pairs
				      * (an_row.slow); 0: none */
	int slowest_for_save;        /* SLOWEST is what a summary keeps, not a --slowest
				      * the user gave (notes speak of the summary) */
	int per_default;             /* PER is the command's default, not given: a pair a
				      * log declares with units is counted in its first */
	int keep_self;               /* keep each row's self cycles per unit apart
				      * (an_row.self, once a pair holds others): diff's
				      * yardstick, stats --self, summaries */
	int keep_latency;            /* keep each row's pairs' cycles (an_row.span): the
				      * p50 and p99 in ns of the declared tables, summaries */
	int declared_only;           /* pair only what the logs declare, each pair in its
				      * own first unit (with per_default): the --pair rules
				      * and Snabb's names are not pairs (stats and diff
				      * without --per, on logs that declare pairs) */
	/* each span as it ends (children before their parents), for the span
	 * table and the exports; NULL: none. S and what it points to are
	 * valid during the call only. */
	void (*span_fn)(void *ctx, const struct an_span *s);
	void *span_ctx;
};

/* A span: one instance of a begin/end pair, found within one thread of a
 * file (--per: the engine pairs only then). Spans nest: the parent of a
 * span is the innermost span of its thread that was open when it began
 * and is still open when it ends; spans that overlap without nesting are
 * each other's neither. Its self cycles are its cycles minus those of the
 * spans whose parent it is, so that the self cycles of a thread's spans
 * count each cycle once. */
#define AN_NO_PARENT UINT64_MAX
struct an_span {
	const char *label;           /* its pair's label: "kv.req", "app.push" */
	const char *attr;            /* its attribute's value, "-" when none */
	const char *attr_name;       /* that attribute: "app" unless the pair says by= */
	uint32_t thread;             /* tl_entry.thread of its entries */
	uint64_t id;                 /* its begin's entry number (tl_entry.seq): unique
				      * among the spans of one thread of one file */
	uint64_t parent;             /* its parent's id, AN_NO_PARENT when it has none */
	unsigned depth;              /* spans open around it: 0 for the outermost */
	uint64_t tsc0, tsc1;         /* its begin and its end */
	uint16_t aux0, aux1;         /* their cpu/node words */
	uint64_t cycles;             /* tsc1 - tsc0 (0 when the clock went back) */
	uint64_t self;               /* cycles minus those of the spans it holds */
	uint64_t inner;              /* how many spans it holds (its children) */
	int breath;                  /* the program's breath: Snabb's breath_start/
				      * breath_end, or a pair declared "breath" */
	unsigned nunits;             /* the units it moved: each unit= of a declared
				      * pair, the --per unit of a rule's ... */
	const char *const *unit_name;   /* nunits of them, the engine's own */
	double units[TL_MAX_ARGS];   /* ... the end's value, or end minus begin for a
				      * running counter; NAN where the end lacks it */
	const tl_entry *end;         /* the entry that ended it */
};

/* What a run of `diff` is, the AN_RUN key of a file: each log
 * (AN_RUNS_FILE), each directory of logs (AN_RUNS_DIR), each process, its
 * logs pooled (AN_RUNS_PROCESS: the same host, pid and start time), or
 * all three known (AN_RUNS_FULL, what a summary keeps, so that its reader
 * may take any of the others). */
enum an_runs { AN_RUNS_FILE, AN_RUNS_DIR, AN_RUNS_PROCESS, AN_RUNS_FULL };

/* The run key of kind RUNS of the file at PATH on HOST written by process
 * PROC ("PID:START", NULL unknown: a run of its own): "HOST\x1fPATH",
 * "HOST\x1fDIR", "HOST\x1fPROC", or in full "HOST\x1fPATH\x1ePROC".
 * Malloc'd. */
char *an_run_key(int runs, const char *host, const char *path, const char *proc);

/* The run key of kind RUNS of the full key FULL (an_run_key() of
 * AN_RUNS_FULL, or "HOST\x1fPATH" of a summary before 1.3). Malloc'd. */
char *an_run_of(int runs, const char *full);

/* What the engine is told of each file. */
struct an_file {
	const char *path, *process, *host, *group;
	const char *run;             /* the run it belongs to (NULL: its path) */
	uint64_t tsc_hz;             /* 0: unknown */
	uint64_t order;              /* its place among the inputs: orders breath summaries */
	uint64_t written;            /* entries its writer ever wrote (the cursor) */
	uint64_t lost;               /* ... of them not read: overwritten by the ring before
				      * the read, or skipped as incomplete (an_file_lost()) */
	const tl_info *info;         /* its header, for the wall times of the slowest pairs
				      * (NULL: none); valid until an_file_end() */
	const tl_pair *declared;     /* the pairs the file declares (timeline-events(5)),
				      * after the --pair rules and before the built-in
				      * ones; valid until an_file_end() */
	size_t ndeclared;
	unsigned switched_off;       /* events switched off in it now (tl_info) */
};

/* What the files had of the event switches (analysis/switches.c). */
struct an_switches {
	uint64_t logs;               /* files with events off during their span: a
				      * record among their entries, or some off now */
	uint64_t records;            /* records of changes among their entries */
	uint64_t skipped;            /* begins dropped at a change, never paired */
};

/* What the files read so far had of the event switches (an_merge adds). */
struct an;
const struct an_switches *an_switches(const struct an *a);

/* How far the TSC frequencies of the files behind a row may differ (as a
 * fraction of the lowest) and still give its values in ns: 0.1%. */
#define AN_HZ_AGREE 0.001

/* The frequency to convert with when files of frequencies LO..HI feed one
 * row: their midpoint, or 0 when LO is 0 (unknown) or they differ by more
 * than AN_HZ_AGREE. */
uint64_t an_hz_agree(uint64_t lo, uint64_t hi);

/* What the options found in the logs, so that an option that matched
 * nothing can be reported rather than ignored. */
struct an_found {
	uint64_t rules;              /* bit r: an event matched pair rule r */
	uint64_t ends;               /* pair end definitions seen */
	uint64_t ends_with_unit;     /* ... of them carrying the --per unit */
	uint64_t ends_with_bucket;   /* ... and the --bucket argument */
	char *args[64];              /* the argument names pair ends carry */
	size_t nargs;
};

/* One of the slowest pairs of a row (an_options.slowest): most cycles per
 * unit first. */
struct an_slow {
	double per_unit, cycles, units;
	uint64_t tsc0, tsc1;         /* its begin and end */
	uint64_t since0, since1;     /* ... in cycles since the first entry read of its file */
	int64_t wall0, wall1;        /* ... as wall time (ns since the epoch), when walls */
	int walls;                   /* its file has a TSC frequency and an anchor */
	uint64_t hz;                 /* its file's TSC frequency, 0: unknown */
	char cpu[16], numa[16];      /* of its end, as the keys show them */
	char *process, *path;        /* its file's */
	char *host;                  /* read from a summary: the host its file was on (""
				      * unknown), the path being one of that host's; NULL
				      * for a pair of a log read here */
};

/* One row: a group and its values. */
struct an_row {
	char *key[AN_NKEYS];         /* NULL for keys not grouped by */
	int bucket;                  /* index of the --bucket range, -1 none */
	struct hist h;               /* lags, or cycles per unit of each pair */
	double cycles, units;        /* per-unit rows: sums over pairs with units */
	uint64_t empty;              /* per-unit rows: pairs that moved no unit */
	uint64_t empty_diffed;       /* ... of them, with the unit on both ends (end - begin) */
	uint64_t entries;            /* lag rows: the group's entries, with a lag or
				      * without (the first of its level) */
	uint64_t hz;                 /* the files' TSC frequency: the midpoint of
				      * hz_min..hz_max when they agree within
				      * AN_HZ_AGREE; 0 when unknown or they do not */
	uint64_t hz_min, hz_max;     /* the extremes of the files' (0: one unknown) */
	int hz_set;
	struct an_slow *slow;        /* per-unit rows: the an_options.slowest pairs of most
				      * cycles per unit, most first ... */
	size_t nslow;                /* ... of them so far */
	struct hist self;            /* per-unit rows, once a pair of it held others
				      * (SELF_SPLIT): each pair's self cycles per unit, its
				      * cycles less those of the pairs inside it; until
				      * then H (an_row_self()) */
	int self_split;
	double self_cycles;          /* per-unit rows: the self cycles of the pairs with units */
	struct hist span;            /* per-unit rows: each pair's cycles, what it moved
				      * or not (its latency; empty pairs too) */
	char *unit;                  /* per-unit rows: the unit its pairs are counted in
				      * (each declared pair in its own with per_default),
				      * "unit" when they differ, NULL unknown (a row
				      * read from a summary) */
	unsigned level;              /* per-unit rows: the level of its pairs' begin event
				      * (timeline-events(5)); in a grouping without the
				      * event key only the rows of the lowest level are
				      * given back (an_rows()) */
};

/* An app's cycles inside the breaths of a file (--per only). */
struct an_share {
	char *app;
	double cycles;               /* its pairs' cycles, in the breaths counted */
};

/* Where the breaths' cycles go on one CPU: the breaths of a file that
 * ended there (--per), counted as for the file's shares. */
struct an_where {
	uint16_t aux;                /* the entries' cpu/node word */
	char cpu[16], numa[16];      /* as the cpu and numa keys show them */
	uint64_t breaths;
	double cycles;               /* the breaths' cycles */
	double *apps;                /* each app's in them, by its index in the file's
				      * shares (NAPPS of them; later apps: 0) */
	size_t napps;
};

/* A file's record: its breath summary (n > 0 or share_breaths > 0: it has
 * breath_end entries), and the counters of its entries. */
struct an_breaths {
	char *process, *path, *group, *host;
	uint64_t hz;
	uint64_t n;                  /* breath_end entries seen */
	uint64_t breaths, packets, bytes, cycles;   /* last minus first */
	uint64_t last_breath, last_packets;   /* the last breath_end's breath and totalpackets:
					       * running counters of the process */
	uint64_t written, lost;      /* as the file's struct an_file says */
	char *unit;                  /* NULL: Snabb's breath_end counters (breaths,
				      * packets, bytes, cycles from the first to the last);
				      * else the unit of a declared breath (its first
				      * unit=), whose figures are its spans': the breaths
				      * logged, their units (PACKETS), their units named
				      * bytes (BYTES, 0 none) and their own cycles */
	uint64_t order;              /* the file's an_file.order */
	/* where a breath's cycles go (--per): over the breaths that hold at
	 * least one app pair (sampling logs a breath's app events with its
	 * start and end, or none of them), the breaths' cycles and each app's */
	uint64_t share_breaths;
	double share_cycles;
	struct an_share *shares;
	size_t nshares;
	struct an_where *where;      /* the same, split by the CPU each breath ended on */
	size_t nwhere;
};

/* One pair's cycles per unit in a file over time (an_options.series),
 * the file's span cut into NBINS bins of its own. */
struct an_series {
	char *label, *app;           /* the pair's label and app (the event and app keys) */
	size_t nbins;                /* about one per AN_PER_BIN pairs, at most
				      * an_options.series */
	struct bin *v;               /* per bin: the cycles per unit of the pairs that
				      * ended in it (the pairs the rows count) */
	struct bin *units;           /* the breath pair only, else NULL: the units each
				      * breath moved */
};

/* Pairs per bin that the number of bins of a series aims at. */
#define AN_PER_BIN 16

/* A file over time (an_options.series): the time from its first to its
 * last entry, [t0, t0 + span), cut into equal bins, each series into its
 * own number of them; its pairs binned by their end. */
struct an_timeline {
	char *process, *path, *group;
	uint64_t order;              /* the file's an_file.order */
	uint64_t hz;                 /* its TSC frequency, 0: unknown */
	uint64_t t0, span;           /* in ticks */
	struct an_series *s;         /* in the order the pairs first ended */
	size_t ns;
	/* between consecutive breath_end entries (of the breath summary), the
	 * change in the running totals, counted in the bin (of NBINS) of the
	 * later one: their sums over the bins are the breath summary's */
	size_t nbins;
	double *breaths, *packets, *bytes, *cycles;
};

/* The self cycles per unit of row R's pairs: R->self once one of them held
 * other pairs, else R->h (a pair that holds none is its own self). */
static inline const struct hist *an_row_self(const struct an_row *r)
{
	return r->self_split ? &r->self : &r->h;
}

/* One pair found inside another in some span (an_nesting()): the label and
 * attribute of the outer and of the inner pair. */
struct an_nest {
	char *outer, *outer_attr, *inner, *inner_attr;
};

/* The pairs found inside others in the spans the engine counted (merged
 * by an_merge(), copied by an_project(); none from a summary), each once,
 * in the order first found: what holds what, for diff's yardstick. */
const struct an_nest *an_nesting(const struct an *a, size_t *n);

/* Begin/end pairs that could not be matched, per pair label. */
struct an_unmatched {
	char *label;
	uint64_t ends, begins;       /* ends without a begin; begins never ended */
};

struct an;

/* A new engine for O (copied, strings too). Never NULL: out of memory it
 * aborts, as the engine's other allocations do (xalloc.h). */
struct an *an_new(const struct an_options *o);

/* The options engine A was made with (an_new()'s copy). */
const struct an_options *an_opts(const struct an *a);
void an_free(struct an *a);

/* The definition of MSGID in the current file, from the caller: with
 * NUL-terminated strings, attrs "" when none, known 0 for an id that names
 * none (what tl_reader_def() gives). */
typedef const tl_def *an_def_fn(void *ctx, uint16_t msgid);

/* Starts file F; DEF(CTX, msgid) names its events. */
int an_file_begin(struct an *a, const struct an_file *f, an_def_fn *def, void *ctx);

/* Names the threads of the current file: the thread key (--by thread) of
 * its entries of tl_entry.thread i is THREADS[i] ("NAME[TID]"), for i
 * below N; of the others "-". THREADS stays the caller's until
 * an_file_end(). Call it after an_file_begin(). */
void an_file_threads(struct an *a, const char *const *threads, size_t n);

/* Adds entry E of the current file (entries come oldest first). Returns -1
 * out of memory, else 0. */
int an_entry(struct an *a, const tl_entry *e);

/* Adds N entries to the current file's lost ones (incomplete entries the
 * reader skipped, known once it is read). */
void an_file_lost(struct an *a, uint64_t n);

/* Ends the current file. */
int an_file_end(struct an *a);

/* Entries of the current file whose message id named no definition. */
uint64_t an_file_unknown(const struct an *a);

/* Adds everything FROM has counted (made with the same options, over other
 * files) to INTO, as if INTO had read FROM's files too: rows by key,
 * breath summaries by file order, unmatched counts by label. Returns -1 out
 * of memory, else 0. */
int an_merge(struct an *into, const struct an *from);

/* Moves what A has counted since it was made or last cut into INTO (made
 * with the same options): the rows' values, the current file's breath
 * summary since the last cut (from the last breath_end before it, so that
 * cuts add up to the whole), its shares, the unmatched counts. A keeps its
 * place in the file (pending begins, lags, the breath under way) and goes
 * on counting from zero. For a live view (`timeline top`): one engine
 * follows a log, each interval is cut into an engine of its own, and
 * an_merge() adds intervals up into a window. Call it between
 * an_file_begin() and an_file_end(). Returns -1 out of memory, else 0. */
int an_cut(struct an *a, struct an *into);

/* Says that entries of the current file are missing before the next one
 * (overwritten before they were read, or left unread on purpose): pending
 * begins are dropped without being counted as unmatched, lags restart, and
 * the breath under way is not counted in the shares. The breath summary
 * goes on: it comes from running counters. */
void an_gap(struct an *a);

/* The rows, sorted by their keys; in a grouping of pairs (--per) without
 * the event key, of the rows that agree on every key but the bucket and
 * the run only those of the lowest level (the outermost pairs, such as a
 * breath, whose units the pairs inside it would count again); the files' records in file order (those
 * with breath figures have n > 0 or share_breaths > 0); the unmatched pair
 * counts, by label. */
struct an_row **an_rows(struct an *a, size_t *n);
const struct an_breaths *an_breath_list(const struct an *a, size_t *n);
const struct an_unmatched *an_unmatched_list(struct an *a, size_t *n);

/* The files over time, in file order (none unless an_options.series). */
const struct an_timeline *an_timelines(const struct an *a, size_t *n);

/* A new engine holding what FROM counted, its rows grouped by the keys BY
 * only (a subset of FROM's): each row the merge of FROM's rows that agree
 * on them, as an engine made with BY would have counted it. The rest
 * (breath summaries, timelines, unmatched, found) is copied. Returns NULL
 * out of memory. */
struct an *an_project(const struct an *from, unsigned by);

/* For readers of summaries (timeline-summary(5)), the pieces of
 * an_merge(): the row of A with the keys KEY (only those A groups by are
 * read; NULL reads as "-") and --bucket range BUCKET, made if new, for
 * the caller to add to; files of TSC frequencies LO..HI fed row R; a copy
 * of breath summary B added (the list stays in file order); pairs of
 * LABEL unmatched; what options found. */
struct an_row *an_row_of(struct an *a, char *const key[AN_NKEYS], int bucket);
/* The same for pairs of LEVEL (an_row.level): in a grouping without the
 * event key, pairs of different levels fill rows of their own. */
struct an_row *an_row_at(struct an *a, char *const key[AN_NKEYS], int bucket, unsigned level);
void an_row_hz(struct an_row *r, uint64_t lo, uint64_t hi);
void an_add_breaths(struct an *a, const struct an_breaths *b);
void an_add_unmatched(struct an *a, const char *label, uint64_t ends, uint64_t begins);
void an_add_found(struct an *a, const struct an_found *f);
/* Notes that row R's pairs are counted in UNIT (an_row.unit); that pair
 * OUTER (label, attribute) held INNER (an_nesting()); and parts R's self
 * cycles from its values, as an engine does once a pair of R holds others
 * (-1 out of memory, else 0). */
void an_row_unit(struct an_row *r, const char *unit);
void an_add_nest(struct an *a, const char *outer, const char *outer_attr, const char *inner,
		 const char *inner_attr);
int an_row_split(struct an_row *r);
/* Adds a copy of S (strings copied) to the slowest pairs of row R of A,
 * keeping A's an_options.slowest. */
void an_row_slow(struct an *a, struct an_row *r, const struct an_slow *s);

/* How many slowest pairs of each row A holds for sure: its
 * an_options.slowest, or fewer when it read summaries that kept fewer
 * (an_slowest_cap()). A summary written from A says it keeps this many. */
unsigned an_slowest_kept(const struct an *a);

/* Notes that A read a summary keeping the N slowest pairs of each row
 * (0: none): an_slowest_kept() is at most N from now on. */
void an_slowest_cap(struct an *a, unsigned n);

/* The FNV-1a hash of S, for the tables keyed by strings. */
uint64_t an_hash_str(const char *s);

/* The unit engine A's rows of pairs are in: an_options.per, or with
 * per_default the unit the logs' declared pairs gave when they all gave
 * the same ("unit" when they differ). */
const char *an_unit(const struct an *a);

/* The same, but NULL when A has noted no unit: no pair of it ended in one
 * and no log it read declared one (the units of several engines add up
 * without the default of those that saw none). */
const char *an_noted_unit(const struct an *a);

/* For an engine of lags (no an_options.per): the units the files it read
 * declare pairs in (timeline-events(5)), each a --per that would count
 * them, in byte order, a blank between; NULL when none does. */
const char *an_declared_units(const struct an *a);

/* Steps through LIST, units a blank between as an_declared_units() gives
 * them: *AT starts at LIST (NULL: an empty list); each call sets *UNIT to
 * the next unit, not NUL-terminated, *LEN to its length, moves *AT past
 * it and returns 1; 0 at the end.
 *   for (const char *at = list, *u; an_unit_next(&at, &u, &len);) ... */
int an_unit_next(const char **at, const char **unit, size_t *len);

/* Writes UNIT's singular, as every output names it, into BUF of SIZE as
 * snprintf does, by the rules of regular English plurals
 * (timeline-events(5)): "ies" -> "y" (queries, query); "sses", "xes",
 * "ches", "shes", "zzes" lose "es" (boxes, box); else a final "s" goes
 * (packets, requests, messages, bytes), but not in "ss", "us" or "is"
 * (a unit such as "status" is its own singular), nor anything else.
 * @return the length it has or would have had. */
size_t an_unit_singular(char *buf, size_t size, const char *unit);

/* Writes "cycles/" and UNIT's singular into BUF of SIZE bytes (cut to
 * fit), the column of cycles per unit: "cycles/packet" for "packets". */
void an_cycles_per(char *buf, size_t size, const char *unit);

/* What engine A's options found (added up by an_merge()). */
const struct an_found *an_found(const struct an *a);

/* Orders rows as an_rows() sorts them: by key, each in natural order
 * (natural.h: "w[9999]" before "w[10000]", cpu 2 before cpu 10). Rows of
 * two engines made with the same options compare alike. */
int an_row_cmp(const struct an *a, const struct an_row *x, const struct an_row *y);

/* The same, on the keys in KEYS only (e.g. AN_SHOWN_KEYS: runs together). */
int an_row_cmp_keys(const struct an *a, const struct an_row *x, const struct an_row *y,
		    unsigned keys);

/* The label of bucket I ("0", "1-15", "64+"). */
const char *an_bucket_label(const struct an *a, int i);

/* Is the event NAME ("cat.name") the begin (1) or the end (2) of one of
 * the N RULES, or neither (0)? *RULE gets which; for an end, BEGIN (of
 * SIZE) gets the full name of its begin event. */
int an_pair_role(const struct an_pair *rules, size_t n, const char *name, size_t *rule,
		 char *begin, size_t size);

/* The pair label of a rule: "app.push" for push/pushed, "engine.breath"
 * for breath_start/breath_end (the category taken from EVENT). */
void an_pair_label(char *buf, size_t size, const char *begin_event, const char *end_name);
#endif
