/* anopts.h: the analysis options `stats` and `diff` share (--by, --per,
 * --bucket, --pair, --format), parsed into the an_options of
 * analysis/analysis.h that their engines are made with. */
#ifndef TL_ANOPTS_H
#define TL_ANOPTS_H
#include "analysis.h"
#include "window.h"

#define ANOPTS_MAX_PAIRS 32
#define ANOPTS_MAX_EDGES 64

struct anopts {
	struct an_options o;
	int by_given;                /* --by was given */
	struct an_pair pairs[ANOPTS_MAX_PAIRS + 3];
	double edges[ANOPTS_MAX_EDGES];
	char bucket_arg[64];
	int format;                  /* FMT_TEXT, FMT_CSV, FMT_JSON */
	struct window w;             /* --from, --to, --last and the filters */
	int lags;                    /* --lags: lags, whatever the logs declare */
	int declared;                /* neither --per nor --lags (stats, diff): the logs
				      * that declare pairs give each pair in its own unit
				      * (anopts_declared()), the others their lags */
};

/* The long options of both commands, and their usage lines. --by is long
 * only (ANOPTS_BY): diff and report, which compare sides, take -b for
 * --b, side B; stats, which has none, takes -b for --by (ANOPTS_SHORT_BY). */
#define ANOPTS_BY 0x180              /* getopt code of --by (and of stats' -b) */
#define ANOPTS_LAGS 0x181            /* getopt code of --lags */
#define ANOPTS_OPTIONS                                         \
	{ "by", required_argument, NULL, ANOPTS_BY },          \
	{ "lags", no_argument, NULL, ANOPTS_LAGS },            \
	{ "per", required_argument, NULL, 'p' },               \
	{ "bucket", required_argument, NULL, 'B' },            \
	{ "pair", required_argument, NULL, 'P' },              \
	{ "format", required_argument, NULL, 'f' },            \
	WINDOW_OPTIONS
#define ANOPTS_SHORT "p:B:P:f:" WINDOW_SHORT
#define ANOPTS_SHORT_BY "b:"         /* stats: -b is --by */
/* The usage lines, --by's written as BY ("   -b, --by" or "       --by"). */
#define ANOPTS_USAGE_BY(BY)                                                                 \
	BY " KEYS       group rows by event, app, process, thread, cpu, numa,\n"               \
	"                       host, group (comma-separated; default event, with\n"          \
	"                       --per event,app); rows in the natural order of their keys,\n" \
	"                       numbers by value: w[9999] before w[10000]\n"                  \
	"   -p, --per UNIT      cycles per UNIT (packets, bytes) of each begin/end pair\n"     \
	"                       instead of lags; without it, a log that declares pairs\n"     \
	"                       gives each in its own unit, the others their lags\n"         \
	"       --lags          lags, even of logs that declare pairs\n"                       \
	"       --bucket ARG=EDGES  rows by batch size: ARG moved in the pair, in ranges\n"    \
	"                       between EDGES, e.g. packets=0,1,16,32,64,inf\n"                \
	"       --pair BEGIN=END  also pair these events (the pairs the logs declare,\n"      \
	"                       pull/pulled, push/pushed and breath_start/breath_end\n"        \
	"                       always are)\n"                                                 \
	"   -f, --format FMT    text (default), csv or json\n" WINDOW_USAGE
#define ANOPTS_USAGE ANOPTS_USAGE_BY("   -b, --by")

/* What a command that finds no pairs says it looked for. */
#define ANOPTS_LOOKED_FOR                                                                  \
	"the --pair rules, the pairs the logs declare (pair| lines of their events files) " \
	"and pull/pulled, push/pushed, breath_start/breath_end"

/* Parses a --pair rule "BEGIN=END" into P (strings malloc'd); -1 if bad. */
int anopts_pair(struct an_pair *p, const char *arg);

/* A command that takes the analysis options: its name, usage, getopt_long
 * options (SHORTOPTS starts with ':' and has 'h' for help), and OWN, which
 * takes the command's own option C with ARG into CTX: 1 taken, 0 not one of
 * its own, -1 with *WHY set for a bad value. PER, if not NULL, is its --per
 * when none is given. */
struct option;
struct ancmd {
	const char *name, *usage, *shortopts;
	const struct option *options;
	int (*own)(void *ctx, int c, const char *arg, const char **why);
	const char *per;
	int declared;                /* with no PER: logs that declare pairs give them
				      * (struct anopts.declared) */
};

/* Parses the options of command C: the analysis options into A, the
 * command's own into CTX; -h prints the usage. Then A is finished: default
 * keys, the built-in pairs after the user's. Returns -1 to go on with the
 * arguments at argv[optind], or the exit code to return now. */
int anopts_parse(struct anopts *a, const struct ancmd *c, int argc, char **argv, void *ctx);

/* Warns on stderr, as "timeline CMD: warning: ...", of the options that
 * found nothing in engine E: a --pair rule no event matched, a --per unit
 * or --bucket argument no pair end carries (naming those they carry), and
 * rows whose every pair moved nothing because both ends carry the unit. */
void anopts_warn(const struct anopts *a, struct an *e, const char *cmd);

/* Whether every file engine E read is a log its writer wrote no entry
 * into; then notes it on stderr, once per command ("timeline CMD: note:
 * the logs hold no entry: ..."): the one thing to say of them, which
 * anopts_warn() says instead of what their entries would lack. */
int anopts_empty(const struct an *e, const char *cmd);

/* Takes --group LABEL=PATH's ARG as the next of the *N (at most
 * ANOPTS_MAX_GROUPS) groups: LABELS[*N] a copy of LABEL, PATHS[*N] the
 * PATH in ARG. Returns 1, or -1 with *WHY set. */
#define ANOPTS_MAX_GROUPS 256
int anopts_group(const char *arg, char **labels, char **paths, int *n, const char **why);

/* The options of A that a summary fixes (timeline-summary(5)), in one
 * canonical form into BUF of SIZE bytes: "--per packets --bucket
 * packets=0,1,16,inf --from 1500000000ns"; "" for none. DECLARED: of the
 * engine of anopts_declared(), "--per declared ...". */
void anopts_fixed(const struct anopts *a, char *buf, size_t size);
void anopts_fixed_declared(const struct anopts *a, char *buf, size_t size);

/* The options of the engine that counts the pairs logs declare, each in
 * its own first unit, with A's keys (default event,app), window and
 * buckets (A->declared). */
void anopts_declared(const struct anopts *a, struct an_options *o);

/* With --per UNIT: refuses UNIT when E's logs had pairs but none of them
 * counts it: "timeline CMD: --per UNIT: no pair counts UNIT; the logs'
 * pairs count A, B or C" (the units they declare, and those Snabb's names
 * give: packets, bytes). Returns 1 when refused (the exit is 2), else 0. */
int anopts_refuse_unit(const struct anopts *a, struct an *e, const char *cmd);

/* Frees the --pair rules. */
void anopts_free(struct anopts *a);
#endif
