/* diff.h: what `diff` shares with `report --a --b`: its sides and runs
 * (--a, --b, --runs), its threshold and alpha, how it reads the sides,
 * the title of its table and its exit status. */
#ifndef TL_DIFF_H
#define TL_DIFF_H
#include <stddef.h>
#include "compare.h"
#include "readall.h"

/* The sides, runs, threshold and alpha of a comparison. */
struct diffargs {
	char *side[2][256];          /* the inputs of A and B */
	int n[2];
	double threshold, alpha;     /* in %, and the significance level */
	int runs_by_dir;             /* a run is a directory of logs, not a log */
	int absolute;                /* --absolute: runs' medians as they are */
};

#define DIFF_OPT_ABSOLUTE 0x200      /* getopt code of --absolute (long only) */
#define DIFF_OPT_ALPHA 0x201         /* getopt code of --alpha (long only: -a is --a) */

#define DIFFARGS_INIT { .threshold = 5, .alpha = 0.05 }

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
	"       --runs file|dir what a run is: each log (default), or each directory\n"       \
	"                       holding logs, for engines that write several a run\n"        \
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
 * their directory's name. */
void diff_add_sides(struct readall *r, const struct diffargs *d, struct an *const *side,
		    struct an *const *also, size_t n);

/* The title of the table of comparison C of D's sides, per unit PER (NULL:
 * lags), into BUF. */
void diff_title(char *buf, size_t size, const char *per, const struct diffargs *d,
		const struct comparison *c);

/* diff's exit status: EXIT_USAGE when PROBLEMS inputs could not be read,
 * else EXIT_FINDING when C found a group SLOWER, else EXIT_OK. */
int diff_status(int problems, const struct comparison *c);
#endif
