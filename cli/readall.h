/* readall.h: reading many logs into analysis engines for `stats` and
 * `diff`: each input walked for its files, the files read on a thread per
 * CPU, their messages and the progress line printed in input order. A
 * summary (timeline-summary(5)) among them is added to the engine whole. */
#ifndef TL_READALL_H
#define TL_READALL_H
#include "analysis.h"
#include "window.h"

struct readall {
	const struct an_options *o;  /* the workers' engines are made with these */
	const struct window *w;      /* which entries go in (NULL: all) */
	const char *cmd;             /* "stats" or "diff", for messages */
	const char *fixed;           /* the options a summary fixes, as anopts_fixed()
				      * gives them: summaries made otherwise are refused */
	int problems;                /* inputs that could not be read */
	int progress;                /* stderr is a terminal: show progress */
	int runs_by_dir;             /* a run is a directory of logs, not one log */
	unsigned files;              /* inputs read so far */
	struct job *jobs;            /* the files readall_add() found, for readall_run() */
	size_t njobs, jcap;
};

/* Starts R for command CMD, whose engines are made with options O. */
void readall_init(struct readall *r, const char *cmd, const struct an_options *o);

/* Finds every log and summary under PATH, to be read into engine E by
 * readall_run(), labelled GROUP (NULL: the name of PATH if a directory,
 * else of its directory; a summary's files then keep the groups they were
 * summarized with). */
void readall_add(struct readall *r, struct an *e, const char *path, const char *group);

/* Reads the files every readall_add() found, on a thread per CPU (at most
 * 8), each with engines of its own merged into the callers' at the end;
 * prints the messages of the walks and of each file in input order, as
 * one thread would. Problems are counted in R->problems. */
void readall_run(struct readall *r);
#endif
