/* analyze.h: what `stats` and `diff` share: their analysis options, and
 * feeding inputs into an analysis engine (analysis/analysis.h). */
#ifndef TL_ANALYZE_H
#define TL_ANALYZE_H
#include "analysis.h"

#define ANALYZE_MAX_PAIRS 32
#define ANALYZE_MAX_EDGES 64

struct analyze {
	struct an_options o;
	int by_given;                /* --by was given */
	struct an_pair pairs[ANALYZE_MAX_PAIRS + 3];
	double edges[ANALYZE_MAX_EDGES];
	char bucket_arg[64];
	int format;                  /* FMT_TEXT, FMT_CSV, FMT_JSON */
	int problems;                /* inputs that could not be read */
	int progress;                /* stderr is a terminal: show progress */
	unsigned files;              /* inputs read so far */
	struct job *jobs;            /* the files analyze_feed() found, for analyze_done() */
	size_t njobs, jcap;
};

/* The long options of both commands, and their usage lines. */
#define ANALYZE_OPTIONS                                        \
	{ "by", required_argument, NULL, 'b' },                \
	{ "per", required_argument, NULL, 'p' },               \
	{ "bucket", required_argument, NULL, 'B' },            \
	{ "pair", required_argument, NULL, 'P' },              \
	{ "format", required_argument, NULL, 'f' }
#define ANALYZE_SHORT "b:p:B:P:f:"
#define ANALYZE_USAGE                                                                       \
	"   -b, --by KEYS       group rows by event, app, process, cpu, numa, host,\n"         \
	"                       group (comma-separated; default event, with --per\n"          \
	"                       event,app)\n"                                                  \
	"   -p, --per UNIT      cycles per UNIT (packets, bytes) of each begin/end pair\n"     \
	"                       instead of lags\n"                                             \
	"       --bucket ARG=EDGES  rows by batch size: ARG moved in the pair, in ranges\n"    \
	"                       between EDGES, e.g. packets=0,1,16,32,64,inf\n"                \
	"       --pair BEGIN=END  also pair these events (pull/pulled, push/pushed and\n"      \
	"                       breath_start/breath_end always are)\n"                         \
	"   -f, --format FMT    text (default), csv or json\n"

void analyze_init(struct analyze *a);

/* Parses a --pair rule "BEGIN=END" into P (strings malloc'd); -1 if bad. */
int analyze_pair(struct an_pair *p, const char *arg);

/* Handles option C with ARG if it is an analysis option: 1 handled, 0 not
 * one of ours, -1 with *WHY set for a bad value. */
int analyze_option(struct analyze *a, int c, const char *arg, const char **why);

/* Finishes the options: default keys, the built-in pairs after the user's. */
void analyze_ready(struct analyze *a);

/* Finds every log under PATH, to be read into engine E by analyze_done(),
 * labelled GROUP (NULL: the name of PATH if a directory, else of its
 * directory). */
void analyze_feed(struct analyze *a, struct an *e, const char *cmd, const char *path,
		  const char *group);

/* Reads the files every analyze_feed() found, on a thread per CPU (at most
 * 8), each with engines of its own merged into the callers' at the end;
 * prints the messages of the walks and of each file in input order, as
 * one thread would. Problems are counted in A->problems. */
void analyze_done(struct analyze *a);

/* Frees the --pair rules. */
void analyze_free(struct analyze *a);
#endif
