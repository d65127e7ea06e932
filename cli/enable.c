/* enable.c: `timeline enable` and `timeline disable`, the event switches of
 * running logs flipped by pattern (tl_switch_file), and what changed said. */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "input.h"

static const char usage[] =
	"usage: timeline enable [--only PATTERN]... [--force] [--all] LOG... [PATTERN...]\n"
	"       timeline disable [--only PATTERN]... [--all] LOG... [PATTERN...]\n"
	"\n"
	"Switches events of running logs on (enable) or off (disable), by\n"
	"pattern: 'category.name' as a glob ('app.*', 'engine.breath_*'),\n"
	"optionally followed by attributes, each a glob too ('app.push\n"
	"app=lookup'). An event switched off is not written; its writer\n"
	"records each change in its log. LOG is a log or a directory of logs;\n"
	"the arguments that name no file or directory are the patterns.\n"
	"\n"
	"      --only PATTERN  switch the events PATTERN matches on (enable) or\n"
	"                      off (disable), and every other event the other way;\n"
	"                      enable refuses a PATTERN that matches no event\n"
	"                      registered in the logs, which would switch\n"
	"                      everything off, unless --force\n"
	"      --force         enable --only even with such a PATTERN (it is kept\n"
	"                      for the events registered later)\n"
	"      --all           switch every event on (enable) or off (disable)\n"
	"   -h, --help          show this help\n"
	"\n"
	"It prints what it changed, e.g. '12 events off in 3 logs'. The records\n"
	"of the switches (timeline.switches) are never switched. Each log keeps\n"
	"the patterns (format 1.3) for the events its writer registers later;\n"
	"enable --all clears them.\n";

static const struct option options[] = {
	{ "only", required_argument, NULL, 'o' },
	{ "all", no_argument, NULL, 'a' },
	{ "force", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What the command was asked. */
struct ask {
	const char *cmd;             /* "enable" or "disable" */
	int off;                     /* disable: matching events go off */
	int all;                     /* --all */
	int force;                   /* --force */
	char **only;                 /* --only patterns ... */
	int nonly;
	char **pats;                 /* ... or the positional ones */
	int npats;
	int *used;                   /* per pattern (only, then pats): it matched in
				      * the log being flipped ... */
	int *ever;                   /* ... in some log, or waits as a rule in one,
				      * or (enable) removed one's disable rule */
	int *registered;             /* per --only pattern: it matches an event
				      * registered in some log (before any change) */
	char **found;                /* the logs found, to switch once all are seen */
	size_t nfound;
	const char **rules;          /* the rules asked ("-P", "+P"), for tl_rules_file */
	size_t nrules;
	int clear;                   /* they replace the log's rules */
	size_t on, offd, logs, seen; /* switches turned on, off; logs changed, logs with
				      * switches seen */
	int problems;
};

/* Does any of the N patterns PATS match D? Marks those that do in USED. */
static int any_matches(char **pats, int n, int *used, const tl_def *d)
{
	int hit = 0;
	for (int i = 0; i < n; i++)
		if (tl_def_matches(d, pats[i])) {
			used[i] = 1;
			hit = 1;
		}
	return hit;
}

/* "SIGN" PAT in a new string, or NULL. */
static char *xasprintf_rule(char sign, const char *pat)
{
	char *s = malloc(strlen(pat) + 2);
	if (s) {
		s[0] = sign;
		strcpy(s + 1, pat);
	}
	return s;
}

/* The state ASK wants for D: 1 off, 0 on, -1 left as it is. */
static int wanted(struct ask *a, const tl_def *d)
{
	if (a->all)
		return a->off;
	if (a->nonly)
		return any_matches(a->only, a->nonly, a->used, d) ? a->off : !a->off;
	return any_matches(a->pats, a->npats, a->used + a->nonly, d) ? a->off : -1;
}

/* Why IN has no switches to flip, or NULL. */
static const char *no_switches(const struct input *in)
{
	if (in->info.compressed)
		return "a compressed copy has no writer to switch";
	if (in->info.format != TL_FORMAT_NATIVE)
		return "a Snabb log has no event switches";
	if (in->info.minor < 2)
		return "a log of format 1.0 or 1.1 has no event switches (they came in 1.2)";
	if (in->info.copy_of)
		return "a copy has no writer to switch";
	return NULL;
}

/* Fills IDS and OFF with the switches of IN that must change; returns how
 * many, counting the ones going on in *ON. */
static size_t plan(struct ask *a, struct input *in, uint16_t *ids, uint8_t *off, size_t n,
		   size_t *on)
{
	size_t k = 0;
	*on = 0;
	for (size_t i = 0; i < n; i++) {
		tl_def *d = tl_reader_def(in->r, ids[i]);
		int want;
		if (!d || !d->known || !strcmp(d->name, TL_SWITCH_EVENT))
			continue;
		want = wanted(a, d);
		if (want < 0 || want == tl_reader_switched_off(in->r, ids[i]))
			continue;
		*on += !want;
		off[k] = (uint8_t)want;
		ids[k++] = ids[i];
	}
	return k;
}

/* Says why the switches of IN cannot change (ERR), -1. */
static int cannot(struct ask *a, const struct input *in, const tl_error *err)
{
	if (err->sys_errno == EACCES || err->sys_errno == EPERM || err->sys_errno == EROFS)
		cli_error(a->cmd, "%s: cannot switch its events without write access (%s)", in->path,
			  strerror(err->sys_errno));
	else
		cli_error(a->cmd, "%s", err->msg);
	return -1;
}

/* Is the record SIGN PAT among the rules of IN's log now? */
static int has_rule(const struct input *in, char sign, const char *pat)
{
	char buf[TL_RULES_BYTES_PER_LOG];
	size_t len;
	if (tl_reader_rules(in->r, buf, &len, NULL) != TL_OK)
		return 0;
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
		if (buf[i] == sign && !strcmp(buf + i + 1, pat))
			return 1;
	return 0;
}

/* Stores the rules ASK makes in IN's log (format 1.3), before its
 * definitions are read (the race with a registering writer: lib/rules.c);
 * 1 when they were stored (over a damaged area: warned), 0 not (format
 * 1.2, or full: said), -1 when the log cannot be switched at all (said).
 * Counts what it switched off. */
static int store_rules(struct ask *a, struct input *in)
{
	size_t applied = 0;
	tl_error err;
	if (in->info.minor < 3)
		return 0;
	if (tl_rules_file(in->path, a->clear, a->rules, a->nrules, &applied, &err) != TL_OK) {
		if (err.code != TL_E_FULL)
			return cannot(a, in, &err);
		cli_error(a->cmd, "%s", err.msg);
		a->problems++;
		for (int i = 0; i < a->nonly + a->npats; i++)
			a->ever[i] = 1;   /* said: not "no event matches" too */
		return 0;
	}
	if (err.msg[0])   /* replaced a damaged area: a warning */
		fprintf(stderr, "timeline %s: warning: %s\n", a->cmd, err.msg);
	a->offd += applied;
	a->logs += applied > 0;
	return 1;
}

/* Says of each pattern that matched nothing in IN whether it waits as a
 * rule for events registered later (RULES: they were stored), or why
 * not. */
static void say_unmatched(struct ask *a, const struct input *in, int rules)
{
	int n = a->nonly + a->npats;
	for (int i = 0; i < n; i++) {
		const char *pat = i < a->nonly ? a->only[i] : a->pats[i - a->nonly];
		int waits = rules && has_rule(in, a->rules[a->nrules - (size_t)n + (size_t)i][0], pat);
		a->ever[i] |= a->used[i] | waits;
		if (a->used[i])
			continue;
		if (waits)
			cli_error(a->cmd, "%s: '%s' matches no event yet: it will apply when one is "
				  "registered", in->path, pat);
		else if (in->info.minor < 3 && (a->off || a->nonly)) {
			cli_error(a->cmd, "%s: '%s' matches no event, and a log of format 1.%u keeps no "
				  "rules for events registered later (1.3 does)", in->path, pat,
				  in->info.minor);
			a->ever[i] = 1;   /* said */
			a->problems++;
		}
	}
}

/* Flips what ASK wants in IN; returns -1 on a problem (reported). */
static int flip_log(struct ask *a, struct input *in)
{
	size_t n, k, on, changed;
	uint16_t *ids = NULL;
	uint8_t *off = NULL;
	tl_error err;
	int rc, rules;
	/* enable P undoes a waiting disable P (its rule goes): P was found */
	for (int i = 0; !a->off && !a->clear && i < a->npats; i++)
		a->ever[a->nonly + i] |= has_rule(in, '-', a->pats[i]);
	rc = 0;
	rules = store_rules(a, in);
	if (rules < 0) {   /* said: not "no event matches" too */
		for (int i = 0; i < a->nonly + a->npats; i++)
			a->ever[i] = 1;
		return -1;
	}
	memset(a->used, 0, (size_t)(a->nonly + a->npats) * sizeof *a->used);
	/* the rules published, then the definitions read */
	ids = input_definitions(in, &n);
	off = malloc(n + 1);
	if (!ids || !off) {
		cli_error(a->cmd, "%s: out of memory", in->path);
		rc = -1;
		goto out;
	}
	k = plan(a, in, ids, off, n, &on);
	if (tl_switch_file(in->path, ids, off, k, &changed, &err) != TL_OK) {
		rc = cannot(a, in, &err);
		goto out;
	}
	a->on += on;
	a->offd += k - on;
	a->logs += k > 0;
	say_unmatched(a, in, rules);
	input_warn_unread(a->cmd, in->path, &in->info, "the switches");
out:
	free(ids);
	free(off);
	return rc;
}

/* Marks in A->registered the --only patterns that match an event of IN
 * registered now. */
static void note_registered(struct ask *a, struct input *in)
{
	size_t n;
	uint16_t *ids = input_definitions(in, &n);
	for (size_t i = 0; ids && i < n; i++) {
		tl_def *d = tl_reader_def(in->r, ids[i]);
		if (d && d->known && strcmp(d->name, TL_SWITCH_EVENT))
			any_matches(a->only, a->nonly, a->registered, d);
	}
	free(ids);
}

/* The first pass: each log found is kept to be switched (those that
 * cannot be are said), and what its registered events match noted. */
static int find_log(const char *path, int named, void *arg)
{
	struct ask *a = arg;
	int skipped = 0;
	const char *why;
	struct input *in = input_open(a->cmd, path, named, &skipped);
	if (!in) {
		a->problems += !skipped;
		return 0;
	}
	if ((why = no_switches(in))) {
		cli_error(a->cmd, "%s: %s", path, why);
		a->problems++;
	} else {
		note_registered(a, in);
		if (!(a->found = realloc(a->found, (a->nfound + 1) * sizeof *a->found)) ||
		    !(a->found[a->nfound++] = strdup(path)))
			abort();
	}
	input_close(in);
	return 0;
}

/* The second pass: switches what A asks in the log at PATH, found by
 * find_log(). */
static void switch_log(struct ask *a, const char *path)
{
	int skipped = 0;
	struct input *in = input_open(a->cmd, path, 1, &skipped);
	if (!in) {
		a->problems++;
		return;
	}
	a->seen++;
	a->problems += flip_log(a, in) < 0;
	input_close(in);
}

/* Whether enable --only must refuse, having said why: a pattern of it
 * matches no event registered in any log found, so that switching would
 * silence every event of those logs by mistake (a typo), unless --force. */
static int refuse_silence(struct ask *a)
{
	char list[1024];
	size_t len = 0;
	int n = 0;
	if (a->off || !a->nonly || a->force || !a->nfound)
		return 0;
	list[0] = '\0';
	for (int i = 0; i < a->nonly; i++)
		if (!a->registered[i] && len < sizeof list)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s'%s'", n++ ? ", " : "",
						a->only[i]);
	if (!n)
		return 0;
	cli_error(a->cmd, "--only %s match%s no registered event: nothing switched (--force "
		  "switches every other event off all the same)", list, n == 1 ? "es" : "");
	return 1;
}

/* "12 events off in 3 logs", "2 events on and 10 off in 1 log". */
static void say(const struct ask *a)
{
	const char *ls = a->logs == 1 ? "log" : "logs";
	if (!a->on && !a->offd)
		printf("no event changed in %zu %s\n", a->seen, a->seen == 1 ? "log" : "logs");
	else if (a->on && a->offd)
		printf("%zu %s on and %zu off in %zu %s\n", a->on, a->on == 1 ? "event" : "events",
		       a->offd, a->logs, ls);
	else
		printf("%zu %s %s in %zu %s\n", a->on + a->offd, a->on + a->offd == 1 ? "event" : "events",
		       a->on ? "on" : "off", a->logs, ls);
}

/* Parses the options into A; returns -1 to go on, or an exit code. */
static int parse(struct ask *a, int argc, char **argv)
{
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return cli_finish(a->cmd, EXIT_OK);
		} else if (c == 'f' && !a->off) {
			a->force = 1;
		} else if (c == 'a') {
			a->all = 1;
		} else if (c == 'o') {
			a->only[a->nonly++] = optarg;
		} else {
			return cli_bad_option(a->cmd, argv, c);
		}
	}
	return -1;
}

/* The rules ASK leaves in each log for events registered later: disable
 * P: "-P"; enable P: "+P" (kept only after a "-" rule); --only P: "-P"
 * (disable) or "-*" then "+P" (enable), replacing the rules; --all: "-*"
 * (disable) or none, replacing them. Returns 0, or -1 (said). */
static int make_rules(struct ask *a)
{
	char **pats = a->nonly ? a->only : a->pats;
	int n = a->nonly ? a->nonly : a->npats;
	a->clear = a->all || a->nonly;
	if ((a->all && a->off) || (a->nonly && !a->off))
		a->rules[a->nrules++] = strdup("-*");
	for (int i = 0; !a->all && i < n; i++) {
		if (strlen(pats[i]) > 255) {
			cli_error(a->cmd, "pattern '%.40s...' is longer than 255 bytes", pats[i]);
			return -1;
		}
		a->rules[a->nrules++] = xasprintf_rule(a->off ? '-' : '+', pats[i]);
	}
	for (size_t i = 0; i < a->nrules; i++)
		if (!a->rules[i]) {
			cli_error(a->cmd, "out of memory");
			return -1;
		}
	return 0;
}

static int run(const char *cmd, int off, int argc, char **argv)
{
	struct ask a = { .cmd = cmd, .off = off };
	int rc, nlogs;
	a.only = calloc((size_t)argc + 1, sizeof *a.only);
	a.used = calloc((size_t)argc + 1, sizeof *a.used);
	a.ever = calloc((size_t)argc + 1, sizeof *a.ever);
	a.rules = calloc((size_t)argc + 2, sizeof *a.rules);
	a.registered = calloc((size_t)argc + 1, sizeof *a.registered);
	if (!a.only || !a.used || !a.ever || !a.rules || !a.registered)
		return cli_error(cmd, "out of memory"), EXIT_USAGE;
	if ((rc = parse(&a, argc, argv)) >= 0)
		goto out;
	nlogs = input_leading_paths(argv + optind, argc - optind);
	a.pats = argv + optind + nlogs;
	a.npats = argc - optind - nlogs;
	rc = EXIT_USAGE;
	if (!nlogs)
		cli_usage_error(cmd, optind < argc ? "the first argument names no log or directory"
						   : "missing log file");
	else if (a.all && (a.nonly || a.npats))
		cli_usage_error(cmd, "--all takes no pattern");
	else if (a.nonly && a.npats)
		cli_usage_error(cmd, "--only takes its patterns alone");
	else if (!a.all && !a.nonly && !a.npats)
		cli_usage_error(cmd, "missing pattern (or --all)");
	else if (a.force && !a.nonly)
		cli_usage_error(cmd, "--force goes with --only");
	else
		rc = -1;
	if (rc >= 0)
		goto out;
	if (make_rules(&a) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	a.problems += input_walk(cmd, argv + optind, nlogs, find_log, &a);
	if (refuse_silence(&a)) {
		rc = EXIT_USAGE;
		goto out;
	}
	for (size_t i = 0; i < a.nfound; i++)
		switch_log(&a, a.found[i]);
	for (int i = 0; i < a.nonly + a.npats; i++)
		if (!a.ever[i] && a.seen) {
			cli_error(cmd, "no event matches '%s'", i < a.nonly ? a.only[i] : a.pats[i - a.nonly]);
			a.problems++;
		}
	if (a.seen)
		say(&a);
	rc = cli_finish(cmd, a.problems ? EXIT_USAGE : EXIT_OK);
out:
	for (size_t i = 0; i < a.nrules; i++)
		free((char *)a.rules[i]);
	free(a.rules);
	for (size_t i = 0; i < a.nfound; i++)
		free(a.found[i]);
	free(a.found);
	free(a.registered);
	free(a.only);
	free(a.used);
	free(a.ever);
	return rc;
}

int cmd_enable(int argc, char **argv)
{
	return run("enable", 0, argc, argv);
}

int cmd_disable(int argc, char **argv)
{
	return run("disable", 1, argc, argv);
}
