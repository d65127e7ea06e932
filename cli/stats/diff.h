/* diff.h: what `diff` shares with `report --a --b`: its sides and runs
 * (--a, --b, --runs), its threshold and alpha, how it reads the sides,
 * the title of its table and its exit status. */
#ifndef TL_DIFF_H
#define TL_DIFF_H
#include <stddef.h>
#include "anopts.h"
#include "compare.h"
#include "readall.h"

/* The sides, runs, threshold and alpha of a comparison. */
struct diffargs {
	char *side[2][256];          /* the inputs of A and B */
	int n[2];
	double threshold, alpha;     /* in %, and the significance level */
	int runs;                    /* what a run is (enum an_runs): a process (default),
				      * a log or a directory of logs */
	int absolute;                /* --absolute: runs' medians as they are */
};

#define DIFF_OPT_ABSOLUTE 0x200      /* getopt code of --absolute (long only) */
#define DIFF_OPT_ALPHA 0x201         /* getopt code of --alpha (long only: -a is --a) */

#define DIFFARGS_INIT { .threshold = 5, .alpha = 0.05, .runs = AN_RUNS_PROCESS }

/* Their long options and usage lines. -a and -b are --a and --b, the
 * sides, as a newcomer reading "--a PATH, --b PATH" types them; so
 * --alpha and --by have no short form in diff and report. */
#define DIFF_OPTIONS                                           \
	{ "a", required_argument, NULL, 'a' },                 \
	{ "b", required_argument, NULL, 'b' },                 \
	{ "threshold", required_argument, NULL, 't' },         \
	{ "alpha", required_argument, NULL, DIFF_OPT_ALPHA },  \
	{ "runs", required_argument, NULL, 'R' },              \
	{ "absolute", no_argument, NULL, DIFF_OPT_ABSOLUTE }
#define DIFF_SHORT "a:b:t:"
#define DIFF_USAGE                                                                          \
	"   -a, --a PATH        a log or directory of side A (repeatable)\n"                   \
	"   -b, --b PATH        a log or directory of side B (repeatable)\n"                   \
	"       --runs process|file|dir  what a run is: each process, its logs (one\n"    \
	"                       per thread) pooled (default); each log; or each\n"           \
	"                       directory holding logs\n"                                    \
	"       --absolute      judge each group by its runs' medians as they are,\n"       \
	"                       not relative to the runs' speed (no (all) row)\n"           \
	"   -t, --threshold PCT the noise band: smaller changes are not findings\n"            \
	"                       (default 5)\n"                                                 \
	"       --alpha P       the significance level (default 0.05)\n"

/* Takes option C with ARG into D if it is one of the above: 1 taken, 0 not
 * one of them, -1 with *WHY set for a bad value. */
int diff_option(struct diffargs *d, int c, const char *arg, const char **why);

/* Checks, for command CMD, the sides D took from --a and --b (at least one
 * input given so): no other input may be given (OTHERS nonzero: some
 * was), and both must have inputs. Returns -1 to go on, or EXIT_USAGE
 * after the usage error naming --a and --b. */
int diff_check_sides(const char *cmd, const struct diffargs *d, int others);

/* Queues the inputs of each side of D on R (with D's runs): the files of
 * side s go to the engine SIDE[s] and to the N engines ALSO[s N] to
 * ALSO[s N + N - 1], side s's own (at most READALL_FEEDS - 1), grouped by
 * their directory's name. With DECLARED (N 0), each log goes to SIDE[s]
 * or, if it declares pairs, DECLARED[s] (readall_add_routed(), a summary
 * made with FIXED_DECLARED too). */
void diff_add_sides(struct readall *r, const struct diffargs *d, struct an *const *side,
		    struct an *const *also, size_t n, struct an *const *declared,
		    const char *fixed_declared);

/* Warns, with --runs file, of the logs of one process that R read as runs
 * of their own. */
void diff_warn_shared(const struct readall *r, const char *cmd);

/* The title of the table of comparison C of D's sides, per unit PER (NULL:
 * lags; "declared": each pair in its own unit), with each side's runs and
 * logs, into BUF. */
void diff_title(char *buf, size_t size, const char *per, const struct diffargs *d,
		const struct comparison *c);

/* What `diff` read and found: a comparison of lags (or of --per's unit),
 * and without --per one of the pairs the logs declare, each in its own
 * unit. */
struct diffrun {
	struct comparison c, cd;     /* lags or --per, and the declared pairs' */
	int lags, pairs;             /* which of them hold logs (C is made always) */
	struct an *e[2], *ed[2];     /* their engines, by side */
	struct an_options od;        /* ED's options (anopts_declared()) */
	unsigned fed[4];             /* the files read into E[0], E[1], ED[0], ED[1] */
	int problems, refused;       /* inputs not read; --per refused (anopts_refuse_unit()) */
	int nothing;                 /* nothing kept: no table (readall_kept_nothing()) */
	struct anopts a;             /* C's options: diff_run()'s, with the run key */
	char fixed[1024], fixed_d[1024];   /* what their summaries fix */
};

/* Reads D's sides as `diff` does, with A's options (R->a a copy, with the run key),
 * saving SAVE[0] and SAVE[1] if not NULL (--save-a, --save-b), and
 * compares them into R; CMD's messages, and its warnings of what the
 * options found if WARN. Returns the problems and a refusal. */
int diff_run(struct diffrun *r, const struct anopts *a, const struct diffargs *d,
	     const char *const *save, const char *cmd, int warn);
void diff_run_free(struct diffrun *r);

/* The `timeline diff` command that gives the comparison of A's options
 * and D's sides (DECLARED: without --per, the pairs the logs declare;
 * else --per A's unit), into BUF: what a report names as its verdicts'. */
void diff_command(char *buf, size_t size, const struct anopts *a, const struct diffargs *d,
		  int declared);

/* diff's exit status: EXIT_USAGE when PROBLEMS inputs could not be read,
 * else EXIT_FINDING when C found a group SLOWER, else EXIT_OK. */
int diff_status(int problems, const struct comparison *c);
#endif
