/* top.h: `timeline top`'s state, shared by its loop (top.c), its batch
 * output (topout.c) and its screen (topscreen.c). */
#ifndef TL_TOP_H
#define TL_TOP_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "toptable.h"
#include "topstat.h"
#include "view.h"

/* The batch formats: view.h's FMT_TEXT, FMT_CSV and FMT_JSON, and this. */
enum { TOP_FMT_OPENMETRICS = FMT_JSON + 1 };

/* A file found with no running writer, or that is no log: not opened again. */
struct top_dead {
	char *path;
	dev_t dev;
	ino_t ino;
	int log;                     /* a log whose writer ended (1), or no log (0) */
};

/* A path that may be a log being born (input_unborn()): waited for, up to
 * INPUT_BIRTH_NS, and said once if it is still no log by then. */
struct top_born {
	char *path;
	uint64_t since;              /* follow_now() when it was first found so */
	int named;                   /* the user named it (a walk did not find it) */
	unsigned char *held;         /* the held byte of the path it is under, or NULL */
	int said;                    /* it was said to be no log (a problem) */
};

struct top {
	/* the command line */
	double delay;                /* -d: seconds between refreshes */
	double window;               /* -w: seconds of the sliding window */
	uint64_t count;              /* -n: refreshes before ending, 0 = until a signal */
	int batch;                   /* -b: blocks on stdout, no screen */
	int format;                  /* FMT_TEXT, FMT_CSV, FMT_JSON or TOP_FMT_OPENMETRICS */
	const char *output;          /* -o: the file each refresh replaces (openmetrics) */
	int group;                   /* TOP_BY_* */
	char **paths;                /* what to watch: files and directories */
	int npaths;
	unsigned char *held;         /* per path: a log was found under it (1), or a
				      * problem said of it (2); neither by the end,
				      * "PATH: no logs" */
	/* the logs */
	struct top_log **logs;
	size_t nlogs;
	struct top_dead *dead;       /* files not to open again */
	size_t ndead;
	struct top_born *born;       /* paths that may be logs being born */
	size_t nborn;
	int problems;                /* paths missing, files that stayed no log: exit 2 */
	/* the refreshes */
	uint64_t refreshes;          /* done so far */
	uint64_t last_cut;           /* follow_now() at the last refresh */
	int64_t wall;                /* CLOCK_REALTIME ns at the last refresh */
	double ns_per_entry;         /* measured cost of reading an entry, for the budget */
	double tokens;               /* ns of CPU the budget allows reading to take now */
	/* the screen */
	int sort, reverse, paused;
	struct top_log *focus;       /* the log shown alone, or NULL */
	size_t selected;             /* the row under the cursor */
	char message[512];           /* the last thing a key did, or a problem */
	struct top_table shown;      /* the table on the screen ... */
	char title[256], status[512];/* ... and the lines over it, as they were built */
};

/* Intervals the window holds. */
size_t top_keep(const struct top *t);

/* The first line of a block or screen: time, refresh, logs, group. */
size_t top_title(const struct top *t, char *buf, size_t size);

/* The second: entries written, read and lost in the last interval, and
 * whether the figures are sampled. */
size_t top_status(const struct top *t, char *buf, size_t size);

/* Batch output of one refresh in t->format, to stdout or (openmetrics)
 * replacing t->output: 0, or -1 when that file could not be written
 * ("timeline top: FILE: problem" said). */
int topout_block(struct top *t);

/* The screen: set up (0, or -1 with a message when stdout is no terminal),
 * drawn, read for keys during WAIT_NS (returns 1 when the user quits), and
 * put back as it was. */
int topscreen_begin(struct top *t);
void topscreen_draw(struct top *t);
int topscreen_keys(struct top *t, uint64_t wait_ns);
void topscreen_end(void);
#endif
