/* top.c: `timeline top`, a refreshing view of the running logs: finding
 * them (and the ones that start later), reading only what is new in each
 * within a CPU budget, and a refresh at each interval to the screen or,
 * with -b, to standard output. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "out.h"
#include "roots.h"
#include "stats/anopts.h"
#include "stats/readall.h"
#include "top.h"
#include "view.h"

static const char usage[] =
	"usage: timeline top [OPTIONS] [PATH...]\n"
	"\n"
	"Shows what the running logs under each PATH (default: the roots that\n"
	"`timeline ls` lists) do, refreshed every second: per log, the entries\n"
	"written and lost to lapping, breaths/s, packets/s, Gbps and cycles per\n"
	"packet; per app, its share of the breaths' cycles and its cycles per\n"
	"packet (p50, p99); per event, entries/s and lag (p50, p99). Each for the\n"
	"last interval and for a sliding window. Keys are listed on the screen.\n"
	"\n"
	"   -d, --delay SECONDS   refresh every SECONDS (default 1, at least 0.1)\n"
	"   -w, --window SECONDS  the sliding window (default 10, or the delay)\n"
	"   -g, --group KEY       rows by process, app (default) or event\n"
	"   -b, --batch           print a block per refresh instead of a screen\n"
	"   -n, --count N         stop after N refreshes\n"
	"   -f, --format FMT      with -b: text (default), csv (a row per row),\n"
	"                         json (an object per refresh) or openmetrics\n"
	"                         (Prometheus: the window as stats -f openmetrics\n"
	"                         prints it, per app and per event)\n"
	"   -o, --output FILE     openmetrics: replace FILE at each refresh instead\n"
	"                         of writing to stdout (node_exporter's textfile\n"
	"                         collector reads DIR/NAME.prom)\n"
	"   -p, --per UNIT        cycles per UNIT (default packets, or the unit the\n"
	"                         logs' pairs declare; timeline-events(5)), which\n"
	"                         the app rows' heading names: CYC/PKT, CYC/ROW...\n"
	"       --pair BEGIN=END  also pair these events (before the logs' own\n"
	"                         and pull/pulled, push/pushed, breath_start/end)\n"
	"   -h, --help            show this help\n";

static const struct option options[] = {
	{ "delay", required_argument, NULL, 'd' },
	{ "window", required_argument, NULL, 'w' },
	{ "group", required_argument, NULL, 'g' },
	{ "batch", no_argument, NULL, 'b' },
	{ "count", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "per", required_argument, NULL, 'p' },
	{ "pair", required_argument, NULL, 'P' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Of one CPU, what reading new entries may take; with the rest of a
 * refresh, top stays under 5%. */
#define TOP_READ_SHARE 0.03
#define TOP_MIN_READ 64              /* entries a poll reads of each log at least */

static volatile int stopped;   /* SIGINT, SIGTERM or SIGHUP came */

/* ---- options ------------------------------------------------------------- */

/* Parses a number of seconds from LO to HI into *V; -1 if it is not one. */
static int seconds(const char *s, double lo, double hi, double *v)
{
	char *end;
	*v = strtod(s, &end);
	return end == s || *end || !(*v >= lo && *v <= hi) ? -1 : 0;
}

static int group_of(const char *s)
{
	for (int g = TOP_BY_PROCESS; g <= TOP_BY_EVENT; g++)
		if (!strcmp(s, toptable_group_name(g)))
			return g;
	return -1;
}

/* --pair BEGIN=END: a rule of top_pairs, before the built-in ones, which
 * topstat_per_opts then points to. Returns 0, or -1 with *WHY set. */
static int top_pair(const char *arg, const char **why)
{
	static struct an_pair pairs[ANOPTS_MAX_PAIRS + 3];
	size_t n = topstat_per_opts.npairs - 3;   /* the rules so far */
	if (n == ANOPTS_MAX_PAIRS)
		return *why = "too many --pair rules", -1;
	if (anopts_pair(&pairs[n], arg))
		return *why = "--pair takes BEGIN=END, e.g. rx_start=rx_end", -1;
	memcpy(&pairs[n + 1], an_default_pairs, sizeof an_default_pairs);
	topstat_per_opts.pairs = pairs;
	topstat_per_opts.npairs = n + 4;
	return 0;
}

/* Takes option C with ARG into T: 0, or -1 with *WHY set. */
static int option(struct top *t, int c, const char *arg, const char **why)
{
	switch (c) {
	case 'd':
		return seconds(arg, 0.1, 3600, &t->delay) ? (*why = "--delay takes seconds from 0.1 to 3600", -1) : 0;
	case 'w':
		return seconds(arg, 0.1, 86400, &t->window) ? (*why = "--window takes seconds from 0.1 to 86400", -1) : 0;
	case 'g':
		return (t->group = group_of(arg)) < 0 ? (*why = "--group must be process, app or event", -1) : 0;
	case 'b':
		t->batch = 1;
		return 0;
	case 'n':
		return parse_u64(arg, &t->count) || !t->count ? (*why = "--count takes a whole number from 1", -1) : 0;
	case 'f':
		if (!strcmp(arg, "openmetrics") || !strcmp(arg, "prometheus"))
			return t->format = TOP_FMT_OPENMETRICS, 0;
		return view_format(arg, &t->format, why) ?
			(*why = "--format must be text, csv, json or openmetrics", -1) : 0;
	case 'o':
		return !*arg ? (*why = "-o takes a file name", -1) : (t->output = arg, 0);
	case 'p':
		if (!*arg || strlen(arg) > 60)
			return *why = "--per takes an argument name such as packets or bytes", -1;
		topstat_per_opts.per = arg;
		topstat_per_opts.per_default = 0;
		return 0;
	case 'P':
		return top_pair(arg, why);
	}
	return *why = NULL, -1;
}

/* Parses the command line into T; -1 to go on, else the exit code. */
static int parse(struct top *t, int argc, char **argv)
{
	const char *why;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:w:g:bn:f:o:p:h", options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return cli_finish("top", EXIT_OK);
		}
		if (c == '?' || c == ':')
			return cli_bad_option("top", argv, c);
		if (option(t, c, optarg, &why) < 0)
			return cli_usage_error("top", why);
	}
	if (!t->window)   /* 10 s, or one interval when they are longer */
		t->window = t->delay > 10 ? t->delay : 10;
	if (t->window < t->delay)
		return cli_usage_error("top", "--window is shorter than --delay");
	if (t->output && t->format != TOP_FMT_OPENMETRICS)
		return cli_usage_error("top", "-o goes with --format openmetrics");
	if (t->format != FMT_TEXT && !t->batch)
		return cli_usage_error("top", "--format needs -b: the screen is text");
	if (!t->batch && !isatty(1))
		return cli_usage_error("top", "standard output is not a terminal: give -b "
				       "for a block per refresh");
	t->paths = argv + optind;
	t->npaths = argc - optind;
	return -1;
}

/* ---- finding logs -------------------------------------------------------- */

/* What scan() walks with. */
struct scan {
	struct top *t;
	int initial;                 /* the first scan: logs are followed from now */
	uint64_t now;
	const char *group;           /* the group of the logs under the path walked */
	unsigned char *held;         /* what the path walked held (struct top), or NULL */
};

/* Remembers PATH (file ST) as no running log, LOG: a log whose writer
 * ended (else no log): it is not opened again. */
static void add_dead(struct top *t, const char *path, const struct stat *st, int log)
{
	struct top_dead *d;
	if (!(t->dead = realloc(t->dead, (t->ndead + 1) * sizeof *t->dead)))
		abort();
	d = &t->dead[t->ndead++];
	if (!(d->path = strdup(path)))
		abort();
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	d->log = log;
}

/* Counts a problem said of a file found under the path whose HELD byte
 * (struct top) is given, or NULL. */
static void problem(struct top *t, unsigned char *held)
{
	t->problems++;
	if (held)
		*held |= 2;
}

/* How top knows the file PATH (ST): 0 not at all, 1 followed, 2 a
 * file not to open again (*DEAD set to it). */
static int lookup(struct top *t, const char *path, const struct stat *st,
		  const struct top_dead **dead)
{
	for (size_t i = 0; i < t->nlogs; i++)
		if (t->logs[i]->dev == st->st_dev && t->logs[i]->ino == st->st_ino)
			return 1;
	for (size_t i = 0; i < t->ndead; i++)
		if (t->dead[i].dev == st->st_dev && t->dead[i].ino == st->st_ino &&
		    !strcmp(t->dead[i].path, path)) {
			*dead = &t->dead[i];
			return 2;
		}
	return 0;
}

/* Was the file PATH (ST) found to be a log: followed, or a log whose
 * writer had ended? */
static int was_log(struct top *t, const char *path, const struct stat *st)
{
	const struct top_dead *d = NULL;
	int k = lookup(t, path, st, &d);
	return k == 1 || (k == 2 && d->log);
}

/* Is the file PATH (ST) followed already, or known to be no running log? */
static int known(struct top *t, const char *path, const struct stat *st)
{
	const struct top_dead *d = NULL;
	return lookup(t, path, st, &d) != 0;
}

/* The index of PATH's record as a log being born, or t->nborn. */
static size_t born_index(const struct top *t, const char *path)
{
	size_t i = 0;
	while (i < t->nborn && strcmp(t->born[i].path, path))
		i++;
	return i;
}

/* The record of PATH (NAMED) as a log being born, made at NOW (under the
 * path whose byte HELD is given) if there is none. */
static struct top_born *born_of(struct top *t, const char *path, int named, uint64_t now,
				unsigned char *held)
{
	struct top_born *b;
	size_t i = born_index(t, path);
	if (i < t->nborn)
		return &t->born[i];
	if (!(t->born = realloc(t->born, (t->nborn + 1) * sizeof *t->born)))
		abort();
	b = &t->born[t->nborn++];
	if (!(b->path = strdup(path)))
		abort();
	b->since = now;
	b->named = named;
	b->held = held;
	b->said = 0;
	return b;
}

/* Says why B's path is no log, as input_open() does, and counts it. */
static void say_no_log(struct top *t, const struct top_born *b)
{
	struct stat st;
	int skipped;
	struct input *in;
	if (stat(b->path, &st) != 0) {
		cli_error("top", "%s: %s", b->path, strerror(errno));
		problem(t, b->held);
	} else if ((in = input_open("top", b->path, b->named, &skipped))) {
		input_close(in);   /* born after all: the next scan takes it */
	} else if (!skipped) {
		problem(t, b->held);
	}
}

/* Whether PATH may be a log being born that is still waited for (or was
 * said to be no log already, once): for at most INPUT_BIRTH_NS from when
 * it was first found so; then it is said to be no log, once. A path born
 * is forgotten: if it is replaced, the new file gets its own wait. */
static int waited_for(struct top *t, const char *path, int named, const struct scan *sc)
{
	struct top_born *b;
	size_t i;
	if (!input_unborn(path, named)) {
		if ((i = born_index(t, path)) < t->nborn) {
			free(t->born[i].path);
			t->born[i] = t->born[--t->nborn];
		}
		return 0;
	}
	b = born_of(t, path, named, sc->now, sc->held);
	if (!b->said && sc->now - b->since >= INPUT_BIRTH_NS) {
		b->said = 1;
		say_no_log(t, b);
	}
	return 1;
}

/* Says, at the end, what was still waited for: no log. */
static void say_unborn(struct top *t)
{
	for (size_t i = 0; i < t->nborn; i++) {
		struct top_born *b = &t->born[i];
		if (!b->said && input_unborn(b->path, b->named))
			say_no_log(t, b);
		free(b->path);
	}
	free(t->born);
}

static int scan_one(const char *path, int named, void *arg)
{
	struct scan *sc = arg;
	struct top *t = sc->t;
	struct stat st;
	struct input *in;
	int skipped;
	if (stat(path, &st) == 0) {
		if (sc->held && S_ISREG(st.st_mode) && was_log(t, path, &st))
			*sc->held |= 1;
		if (!S_ISREG(st.st_mode) || known(t, path, &st))
			return 0;   /* no file, or one seen already */
	}
	if (waited_for(t, path, named, sc) || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if (!(in = input_open("top", path, named, &skipped))) {
		add_dead(t, path, &st, 0);
		if (!skipped)
			problem(t, sc->held);
		return 0;
	}
	if (sc->held)
		*sc->held |= 1;
	if (!input_writer_alive(in)) {
		add_dead(t, path, &st, 1);
		input_close(in);
		return 0;
	}
	if (!(t->logs = realloc(t->logs, (t->nlogs + 1) * sizeof *t->logs)))
		abort();
	t->logs[t->nlogs++] = toplog_open(in, sc->initial, sc->now, sc->group);
	return 0;
}

/* Walks PATH for SC, its logs in the group stats would give them. */
static void walk(struct scan *sc, char *path)
{
	char *copy;
	sc->group = readall_group(path, &copy);
	input_walk("top", &path, 1, scan_one, sc);
	free(copy);
}

/* Finds the running logs under the paths (or the default roots) that are
 * not followed yet; INITIAL: the first time, when they are followed from
 * now on (later ones from their first entry). */
static void scan(struct top *t, int initial, uint64_t now)
{
	struct scan sc = { t, initial, now, NULL, NULL };
	struct roots roots;
	char *msgs = NULL;
	size_t len = 0;
	/* on the screen, what a walk or a file says goes to its message line */
	if (!t->batch && !(cli_err = open_memstream(&msgs, &len)))
		abort();
	if (t->npaths) {
		for (int i = 0; i < t->npaths; i++) {
			sc.held = &t->held[i];
			walk(&sc, t->paths[i]);
		}
		sc.held = NULL;
	} else {
		roots_default(&roots, 1);
		input_skip_denied = 1;   /* a root this user may not read is not theirs */
		for (int i = 0; i < roots.n; i++)
			walk(&sc, roots.path[i]);
		input_skip_denied = 0;
		roots_free(&roots);
	}
	if (!t->batch) {
		fclose(cli_err);
		cli_err = NULL;
		if (len) {   /* the last of them, without its newline */
			msgs[len - 1] = '\0';
			snprintf(t->message, sizeof t->message, "%s",
				 strrchr(msgs, '\n') ? strrchr(msgs, '\n') + 1 : msgs);
		}
		free(msgs);
	}
}

/* Stops following the logs that ended more than a window ago. */
static void drop_ended(struct top *t)
{
	size_t k = 0;
	for (size_t i = 0; i < t->nlogs; i++) {
		struct top_log *l = t->logs[i];
		struct stat st;
		if (l->ended <= (int)top_keep(t)) {
			t->logs[k++] = l;
			continue;
		}
		if (stat(l->f.in->path, &st) == 0 && st.st_dev == l->dev && st.st_ino == l->ino)
			add_dead(t, l->f.in->path, &st, 1);
		if (t->focus == l)
			t->focus = NULL;
		toplog_close(l);
	}
	t->nlogs = k;
}

/* ---- reading ------------------------------------------------------------- */

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Reads what is new in every log within the budget, kept in CPU time:
 * each poll adds TOP_READ_SHARE of the TICK ns since the last one, up to a
 * second's worth, and takes off what the poll cost (its fixed costs too).
 * A log gets its share of what is left, in entries at the cost per entry
 * measured so far; when more is new, the newest part is read. */
static void poll_all(struct top *t, uint64_t tick)
{
	uint64_t each = TOP_MIN_READ, read = 0, cpu = thread_cpu_ns(), used;
	t->tokens += TOP_READ_SHARE * (double)tick;
	if (t->tokens > TOP_READ_SHARE * 1e9)
		t->tokens = TOP_READ_SHARE * 1e9;
	if (t->nlogs && t->tokens / t->ns_per_entry / (double)t->nlogs > TOP_MIN_READ)
		each = (uint64_t)(t->tokens / t->ns_per_entry / (double)t->nlogs);
	for (size_t i = 0; i < t->nlogs; i++)
		read += toplog_poll(t->logs[i], each);
	used = thread_cpu_ns() - cpu;
	t->tokens -= (double)used;
	/* the cost per entry, from polls that read enough to tell */
	if (read >= 10000)
		t->ns_per_entry = 0.7 * t->ns_per_entry + 0.3 * (double)used / (double)read;
}

/* ---- refreshing ---------------------------------------------------------- */

/* Ends the interval of every log at NOW and shows it: 0, or -1 when the
 * -o file could not be written (said, and counted as a problem). */
static int refresh(struct top *t, uint64_t now)
{
	struct timespec wall;
	for (size_t i = 0; i < t->nlogs; i++)
		toplog_cut(t->logs[i], now, top_keep(t));
	drop_ended(t);
	t->refreshes++;
	clock_gettime(CLOCK_REALTIME, &wall);
	t->wall = (int64_t)wall.tv_sec * 1000000000 + wall.tv_nsec;
	if (t->batch && topout_block(t) < 0)
		return t->problems++, -1;
	if (!t->batch && !t->paused)
		topscreen_draw(t);
	return 0;
}

/* Refreshes until -n refreshes, a signal, q on the screen, or an -o file
 * that cannot be written. */
static void run(struct top *t)
{
	uint64_t delay = (uint64_t)(t->delay * 1e9), now = follow_now(), next = now + delay;
	uint64_t tick = delay / 10 < 10000000 ? 10000000 : delay / 10 > 100000000 ? 100000000 : delay / 10;
	scan(t, 1, now);
	while (!stopped) {
		uint64_t wait;
		poll_all(t, tick);
		now = follow_now();
		if (now >= next) {
			if (refresh(t, now) < 0 || (t->count && t->refreshes >= t->count))
				break;
			scan(t, 0, now);   /* logs started since: in the next interval */
			next += delay;
			if (next <= now)
				next = now + delay;
		}
		wait = next - now < tick ? next - now : tick;
		if (t->batch)
			follow_sleep(wait);
		else if (topscreen_keys(t, wait))
			break;
	}
}

/* Grouped by app, as text, with logs but no pair in any (the rows are the
 * pairs' apps), says why the table had only its header: pairs declared
 * but none ended in what top read (it reads what is written after it
 * starts), or what was looked for and how to declare more. */
static void say_no_pairs(const struct top *t)
{
	uint64_t ends = 0;
	const char *unit = NULL;
	if (t->group != TOP_BY_APP || t->format != FMT_TEXT || !t->nlogs)
		return;
	for (size_t i = 0; i < t->nlogs; i++) {
		ends += an_found(t->logs[i]->per)->ends;
		if (!unit)
			unit = an_noted_unit(t->logs[i]->per);
	}
	if (!ends && unit)
		fprintf(stderr, "timeline top: note: no rows by app yet: the logs declare pairs "
			"(in %s), but none ended in the entries written since top started\n", unit);
	else if (!ends)
		fprintf(stderr, "timeline top: note: no begin/end pairs in the logs, so no rows by app: "
			"looked for %s; declare a program's own in its events file (pair|LABEL: BEGIN "
			"END unit=ARG, timeline-events(5)) or give --pair BEGIN=END\n", ANOPTS_LOOKED_FOR);
}

int cmd_top(int argc, char **argv)
{
	struct top t;
	int rc;
	memset(&t, 0, sizeof t);
	t.delay = 1;
	t.group = TOP_BY_APP;
	t.ns_per_entry = 200;   /* until measured */
	t.tokens = TOP_READ_SHARE * 1e9;
	if ((rc = parse(&t, argc, argv)) >= 0)
		return rc;
	t.sort = toptable_default_sort(t.group);
	input_quiet = 1;
	follow_catch_signals(&stopped);
	if (!t.batch && topscreen_begin(&t) < 0)
		return EXIT_USAGE;
	if (!(t.held = calloc(t.npaths ? (size_t)t.npaths : 1, 1)))
		abort();
	run(&t);
	if (!t.batch)
		topscreen_end();
	say_unborn(&t);
	say_no_pairs(&t);
	/* a path that held no log all along (and said no problem) */
	for (int i = 0; i < t.npaths; i++)
		t.problems += input_none("top", t.paths[i], t.held[i] & 1, t.held[i] & 2);
	free(t.held);
	for (size_t i = 0; i < t.nlogs; i++)
		toplog_close(t.logs[i]);
	for (size_t i = 0; i < t.ndead; i++)
		free(t.dead[i].path);
	free(t.dead);
	free(t.logs);
	toptable_free(&t.shown);
	return cli_finish("top", t.problems ? EXIT_USAGE : EXIT_OK);
}
