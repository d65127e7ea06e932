/* readall.h: reading many logs into analysis engines for `stats` and
 * `diff`: each input walked for its files, the files read on a thread per
 * CPU, their messages and the progress line printed in input order. A
 * summary (timeline-summary(5)) among them is added to the engine whole. */
#ifndef TL_READALL_H
#define TL_READALL_H
#include "analysis.h"
#include "timeline.h"
#include "window.h"

/* The engines one input can feed at most, and a reader's in all. */
#define READALL_FEEDS 4
#define READALL_ENGINES 8

/* What was read of one file, when readall.facts is set (for `report`). */
struct readall_file {
	char *path, *label, *group;  /* as the engines were told */
	tl_info info;                /* its header */
	uint64_t read;               /* entries read */
	uint64_t kept;               /* ... of them kept by the window and filters */
	uint64_t first, last;        /* the tsc of the first and last kept */
	uint64_t skipped;            /* incomplete entries the reader skipped */
	int declares;                /* a log that declares pairs (timeline-events(5)) */
	int summary;                 /* a summary (timeline-summary(5)), not a log:
				      * only path and group are known */
	const struct an *engine;     /* the first engine it was given to feed */
	uint64_t order;              /* the an_file.order it was read with (a log's
				      * an_timeline.order) */
	tl_arming trigger;           /* its flight recorder (timeline arm), when
				      * trigger.kind is not TL_TRIGGER_NONE ... */
	char trigger_text[320];      /* ... and its trigger in words, as info says it */
};

struct readall {
	const struct window *w;      /* which entries go in (NULL: all) */
	const char *cmd;             /* "stats" or "diff", for messages */
	const char *fixed;           /* the options a summary fixes, as anopts_fixed()
				      * gives them: summaries made otherwise are refused */
	int problems;                /* inputs that could not be read */
	int progress;                /* stderr is a terminal: show progress */
	int runs;                    /* what a run is (enum an_runs; AN_RUNS_FILE: 0) */
	int procs;                   /* set by the caller: keep the process of each log
				      * read, "HOST\x1fPID:START", in PROC (readall_free()) */
	char **proc;
	size_t nproc;
	unsigned files;              /* inputs read so far */
	struct job *jobs;            /* the files readall_add() found, for readall_run() */
	size_t njobs, jcap;
	int facts;                   /* set by the caller: keep what each file was */
	struct readall_file *file;   /* then, the files read, in input order */
	size_t nfile;
	struct an *fed[READALL_ENGINES];   /* the engines fed, and how many files each */
	unsigned nfed[READALL_ENGINES];
};

/* Starts R for command CMD. (A worker's engine for a target is made with
 * the target's options.) */
void readall_init(struct readall *r, const char *cmd);

/* Finds every log and summary under PATH, to be read into engine E by
 * readall_run(), labelled GROUP (NULL: the name of PATH if a directory,
 * else of its directory; a summary's files then keep the groups they were
 * summarized with). */
void readall_add(struct readall *r, struct an *e, const char *path, const char *group);

/* The same, each entry going to the N engines E (at most READALL_FEEDS;
 * at most READALL_ENGINES different ones over all the calls). */
void readall_add_to(struct readall *r, struct an *const *e, size_t n, const char *path,
		    const char *group);

/* The same, each log going to one engine: DECLARED if it declares pairs
 * (timeline-events(5)), else LAGS; a summary to LAGS if made with R's
 * fixed options, to DECLARED if made with FIXED_DECLARED. For stats and
 * diff without --per. */
void readall_add_routed(struct readall *r, struct an *lags, struct an *declared,
			const char *fixed_declared, const char *path, const char *group);

/* The group label of input PATH when none is given: the name of PATH if a
 * directory, else of its directory (`top` labels its logs alike). Points
 * into *COPY, which the caller frees. */
const char *readall_group(const char *path, char **copy);

/* Reads the files every readall_add() found, on a thread per CPU (at most
 * 8), each with engines of its own merged into the callers' at the end;
 * prints the messages of the walks and of each file in input order, as
 * one thread would. An input with no log says so ("timeline CMD: PATH: no
 * logs"), and one whose logs R's window kept nothing of says what each
 * held (window_misses_end()). Problems are counted in R->problems. */
void readall_run(struct readall *r);

/* How many files readall_run() fed entries into engine E: logs (but those
 * its window kept nothing of), and summaries (which feed only the first
 * engine of their input). With none, what E lacks is no finding: the
 * reasons were said. */
unsigned readall_fed(const struct readall *r, const struct an *e);

/* Whether readall_run() kept nothing to show: no file fed any engine (no
 * logs, a time window that held none of their entries, damage), or the
 * filters kept none of the entries of any log read (window_filters_missed()).
 * Each input said why on stderr and the exit is 2: the caller prints
 * nothing on stdout, no table of nothing. */
int readall_kept_nothing(const struct readall *r);

/* Frees R's lists of files (readall.facts) and processes (readall.procs). */
void readall_free(struct readall *r);
#endif
