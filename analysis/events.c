/* events.c: the engine's per-file event cache (see engine.h): each message
 * id's definition read once, on first use, into a struct an_ev: its name,
 * app and level, and whether it begins or ends a pair, with the indexes of
 * its unit and --bucket arguments; and what the options found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "xalloc.h"

void free_evs(struct an *a)
{
	if (!a->events)
		return;
	for (size_t i = 0; i < 65536; i++) {
		struct an_ev *e = a->events[i];
		if (!e)
			continue;
		free(e->name);
		free(e->app);
		free(e->label);
		free(e->begin_key);
		free(e->match_key);
		free(e->share);
		free(e->bucket_rows);
		free(e->bucket_aux);
		free(e);
	}
	free(a->events);
	a->events = NULL;
	a->begins = NULL;
}

/* Does RULE_NAME name event NAME ("cat.name")? With a dot it must match
 * whole, else the part after the category. */
static int names(const char *rule_name, const char *name)
{
	const char *dot = strchr(name, '.');
	if (strchr(rule_name, '.'))
		return !strcmp(rule_name, name);
	return !strcmp(rule_name, dot ? dot + 1 : name);
}

int an_pair_role(const struct an_pair *rules, size_t n, const char *name, size_t *rule,
		 char *begin, size_t size)
{
	const char *dot = strchr(name, '.');
	for (size_t r = 0; r < n; r++) {
		*rule = r;
		if (names(rules[r].begin, name))
			return 1;
		if (!names(rules[r].end, name))
			continue;
		if (strchr(rules[r].begin, '.'))
			snprintf(begin, size, "%s", rules[r].begin);
		else
			snprintf(begin, size, "%.*s%s", (int)(dot ? dot - name + 1 : 0), name,
				 rules[r].begin);
		return 2;
	}
	return 0;
}

void an_pair_label(char *buf, size_t size, const char *begin_event, const char *end_name)
{
	const char *dot = strchr(begin_event, '.'), *b = dot ? dot + 1 : begin_event;
	const char *e = strchr(end_name, '.') ? strchr(end_name, '.') + 1 : end_name;
	size_t n = 0;
	int cat = (int)(dot ? dot - begin_event : 0);
	while (b[n] && b[n] == e[n])
		n++;
	if (!strncmp(b, e, strlen(b)))
		snprintf(buf, size, "%.*s%s%s", cat, begin_event, dot ? "." : "", b);   /* push/pushed */
	else if (n > 1 && b[n - 1] == '_')
		snprintf(buf, size, "%.*s%s%.*s", cat, begin_event, dot ? "." : "", (int)n - 1, b);
	else
		snprintf(buf, size, "%s/%s", begin_event, e);
}

/* The app of a definition: its attribute ATTR=NAME (app=NAME unless a
 * declared pair says by=ATTR), else "-". */
static char *app_of(const char *attrs, const char *attr)
{
	const char *p = attrs;
	size_t len = strlen(attr);
	while (p && *p) {
		size_t n;
		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (n > len + 1 && !strncmp(p, attr, len) && p[len] == '=') {
			char *s = xcalloc(1, n - len);
			memcpy(s, p + len + 1, n - len - 1);
			return s;
		}
		p += n;
	}
	return xstrdup("-");
}

int arg_index(const tl_def *d, const char *name)
{
	for (unsigned i = 0; i < d->nargs; i++)
		if (d->args[i] && !strcmp(d->args[i], name))
			return (int)i;
	return -1;
}

/* The argument of D standing for UNIT under rule R: PREFIX+UNIT, UNIT,
 * inUNIT, totalUNIT, outUNIT, the first D has; the name found in *FOUND. */
static int unit_index(const tl_def *d, const struct an_pair *r, const char *unit,
		      char *found, size_t size)
{
	const char *pre[] = { r ? r->prefix : NULL, "", "in", "total", "out" };
	for (int i = 0; i < 5; i++) {
		int k;
		if (!pre[i])
			continue;
		snprintf(found, size, "%s%s", pre[i], unit);
		if ((k = arg_index(d, found)) >= 0)
			return k;
	}
	return -1;
}

/* Adds NAME to the set of argument names pair ends carry (at most 64). */
void note_arg(struct an_found *f, const char *name)
{
	for (size_t i = 0; i < f->nargs; i++)
		if (!strcmp(f->args[i], name))
			return;
	if (f->nargs < sizeof f->args / sizeof f->args[0])
		f->args[f->nargs++] = xstrdup(name);
}

/* Notes what the pair end EV, of definition D, carries. */
static void note_end(struct an *a, const tl_def *d, const struct an_ev *ev)
{
	a->found.ends++;
	a->found.ends_with_unit += ev->unit >= 0;
	a->found.ends_with_bucket += ev->bucket_arg >= 0;
	for (unsigned i = 0; i < d->nargs; i++)
		note_arg(&a->found, d->args[i]);
}

const struct an_found *an_found(const struct an *a)
{
	return &a->found;
}

int an_unit_next(const char **at, const char **unit, size_t *len)
{
	if (!*at || !**at)
		return 0;
	*unit = *at;
	*len = strcspn(*at, " ");
	*at += *len;
	*at += **at == ' ';
	return 1;
}

/* Does UNIT, of N bytes, end with SUFFIX? */
static int ends(const char *unit, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n > k && !memcmp(unit + n - k, suffix, k);
}

size_t an_unit_singular(char *buf, size_t size, const char *unit)
{
	size_t n = strlen(unit);
	const char *tail = "";
	if (ends(unit, n, "ies"))                              /* queries, entries */
		n -= 3, tail = "y";
	else if (ends(unit, n, "sses") || ends(unit, n, "xes") || ends(unit, n, "ches") ||
		 ends(unit, n, "shes") || ends(unit, n, "zzes"))  /* passes, boxes, batches */
		n -= 2;
	else if (ends(unit, n, "s") && !ends(unit, n, "ss") && !ends(unit, n, "us") &&
		 !ends(unit, n, "is"))                        /* packets, bytes, keys */
		n -= 1;
	return (size_t)snprintf(buf, size, "%.*s%s", (int)n, unit, tail);
}

void an_cycles_per(char *buf, size_t size, const char *unit)
{
	char one[128];
	an_unit_singular(one, sizeof one, unit);
	snprintf(buf, size, "cycles/%s", one);
}

/* Where UNIT goes in the blank-separated LIST, kept in byte order: the
 * offset of the first word after it, or -1 when UNIT is a word of LIST. */
static long unit_place(const char *list, const char *unit)
{
	size_t n = strlen(unit), len;
	const char *at = list, *p;
	while (an_unit_next(&at, &p, &len)) {
		int c = strncmp(p, unit, len < n ? len : n);
		if (!c && len == n)
			return -1;
		if (c > 0 || (!c && len > n))
			return p - list;
	}
	return at ? at - list : 0;
}

/* Notes that pairs are counted in UNIT (an_unit(), an_declared_units():
 * the units noted in byte order, whatever order the files were read in
 * by the threads). */
void an_note_unit(struct an *a, const char *unit)
{
	long at;
	if (!a->unit)
		a->unit = xstrdup(unit);
	else if (strcmp(a->unit, unit))
		a->unit_mixed = 1;
	if ((at = unit_place(a->units, unit)) >= 0) {
		const char *rest = a->units ? a->units + at : "";
		size_t size = (a->units ? strlen(a->units) + 1 : 0) + strlen(unit) + 1;
		char *u = xcalloc(1, size);
		if (!*rest && at)   /* the last: after the last word and a blank */
			snprintf(u, size, "%s %s", a->units, unit);
		else                /* before REST, which the blank before it ends */
			snprintf(u, size, "%.*s%s%s%s", (int)at, a->units ? a->units : "", unit,
				 *rest ? " " : "", rest);
		free(a->units);
		a->units = u;
	}
}

/* Notes each unit of LIST (blank separated, NULL none), in its order. */
void an_note_units(struct an *a, const char *list)
{
	const char *p;
	size_t len;
	for (const char *at = list; an_unit_next(&at, &p, &len);) {
		char unit[64];
		snprintf(unit, sizeof unit, "%.*s", (int)len, p);
		an_note_unit(a, unit);
	}
}

const char *an_unit(const struct an *a)
{
	if (!a->opts.per_default || !a->unit)
		return a->opts.per;
	return an_noted_unit(a);
}

const char *an_noted_unit(const struct an *a)
{
	return !a->unit ? NULL : a->unit_mixed ? "unit" : a->unit;
}

const char *an_declared_units(const struct an *a)
{
	return a->opts.per ? NULL : a->units;
}

/* Is definition D the begin or the end of rule R? Sets EV's role and rule. */
static int rule_role(struct an *a, const tl_def *d, struct an_ev *ev, size_t r)
{
	const struct an_pair *p = &a->pairs[r];
	if (names(p->begin, d->name))
		ev->role = ROLE_BEGIN;
	else if (names(p->end, d->name))
		ev->role = ROLE_END;
	else
		return 0;
	ev->rule = (int)r;
	ev->is_breath = r == a->opts.npairs - 1;   /* breath_start/breath_end, the last */
	a->found.rules |= 1ull << r;
	return 1;
}

/* Finds the role of definition D in a pair: the --pair rules first (all
 * but the last three, the built-in ones), then the pairs the file declares,
 * then the built-in rules. Sets EV's role, rule and decl. */
static void find_role(struct an *a, const tl_def *d, struct an_ev *ev)
{
	size_t user = a->opts.npairs >= 3 && !a->opts.declared_only ? a->opts.npairs - 3 : 0, r;
	for (r = 0; r < user; r++)
		if (rule_role(a, d, ev, r))
			return;
	for (size_t k = 0; k < a->file.ndeclared; k++) {
		const tl_pair *q = &a->file.declared[k];
		ev->role = !strcmp(q->begin, d->name) ? ROLE_BEGIN
			   : !strcmp(q->end, d->name) ? ROLE_END : ROLE_NONE;
		if (ev->role == ROLE_NONE)
			continue;
		ev->rule = -1;
		ev->decl = q;
		ev->is_breath = q->breath;
		ev->attr_name = q->by;
		if (strcmp(q->by, "app")) {
			free(ev->app);
			ev->app = app_of(d->attrs, q->by);
		}
		return;
	}
	for (; r < a->opts.npairs && !a->opts.declared_only; r++)
		if (rule_role(a, d, ev, r))
			return;
}

/* The end event EV of definition D of a declared pair: its begin, label,
 * unit and --bucket argument. */
static void declared_end(struct an *a, const tl_def *d, struct an_ev *ev)
{
	const tl_pair *q = ev->decl;
	const char *unit = a->opts.per_default && q->nunits ? q->units[0] : a->opts.per;
	char buf[256];
	snprintf(buf, sizeof buf, "%s\x1f%s", q->begin, d->attrs);
	ev->begin_key = xstrdup(buf);
	ev->label = xstrdup(q->label);
	ev->unit = unit_index(d, NULL, unit, ev->unit_name, sizeof ev->unit_name);
	if (a->opts.bucket_arg)
		ev->bucket_arg = unit_index(d, NULL, a->opts.bucket_arg, ev->bucket_name,
					    sizeof ev->bucket_name);
	if (ev->unit >= 0)
		an_note_unit(a, unit);
	snprintf(ev->count_unit, sizeof ev->count_unit, "%s", unit);
	ev->nunits = q->nunits;
	for (unsigned u = 0; u < q->nunits; u++) {
		ev->unit_names[u] = q->units[u];
		ev->units[u] = arg_index(d, q->units[u]);
	}
	if (!ev->is_breath) {   /* in where the cycles go: "kv.req", "fwd.rx port=0" */
		snprintf(buf, sizeof buf, "%s%s%s%s%s", q->label, strcmp(ev->app, "-") ? " " : "",
			 strcmp(ev->app, "-") ? q->by : "", strcmp(ev->app, "-") ? "=" : "",
			 strcmp(ev->app, "-") ? ev->app : "");
		ev->share = xstrdup(buf);
	}
	note_end(a, d, ev);
}

/* The end event EV of definition D of rule EV->rule. */
static void rule_end(struct an *a, const tl_def *d, struct an_ev *ev)
{
	const struct an_pair *p = &a->pairs[ev->rule];
	const char *dot = strchr(d->name, '.');
	char buf[256], unit[128];
	/* the begin's full name: the rule's, or the end's category + it */
	if (strchr(p->begin, '.'))
		snprintf(buf, sizeof buf, "%s\x1f%s", p->begin, d->attrs);
	else
		snprintf(buf, sizeof buf, "%.*s%s\x1f%s", (int)(dot ? dot - d->name + 1 : 0), d->name,
			 p->begin, d->attrs);
	ev->begin_key = xstrdup(buf);
	if (strchr(p->begin, '.'))   /* --pair stage.begin=stage.end */
		snprintf(buf, sizeof buf, "%s", p->begin);
	else
		snprintf(buf, sizeof buf, "%.*s%s", (int)(dot ? dot - d->name + 1 : 0), d->name, p->begin);
	an_pair_label(unit, sizeof unit, buf, d->name);
	ev->label = xstrdup(unit);
	ev->unit = unit_index(d, p, a->opts.per, ev->unit_name, sizeof ev->unit_name);
	if (a->opts.bucket_arg)
		ev->bucket_arg = unit_index(d, p, a->opts.bucket_arg, ev->bucket_name,
					    sizeof ev->bucket_name);
	snprintf(ev->count_unit, sizeof ev->count_unit, "%s", a->opts.per);
	if (ev->unit >= 0) {
		an_note_unit(a, a->opts.per);
		ev->nunits = 1;
		ev->unit_names[0] = a->opts.per;
		ev->units[0] = ev->unit;
	}
	if (!ev->is_breath && strcmp(ev->app, "-"))   /* Snabb's apps by their name */
		ev->share = xstrdup(ev->app);
	note_end(a, d, ev);
}

struct an_ev *make_ev(struct an *a, uint16_t msgid)
{
	const tl_def *d = a->def_fn(a->def_ctx, msgid);
	struct an_ev *ev = xcalloc(1, sizeof *ev);
	char buf[256];
	ev->msgid = msgid;
	ev->name = xstrdup(d->known ? d->name : "?");
	ev->unknown = !d->known;
	ev->app = app_of(d->attrs, "app");
	ev->level = d->known && d->level < 10 ? d->level : 9;
	ev->unit = ev->bucket_arg = ev->begin_unit = ev->begin_bucket = ev->share_index = -1;
	ev->attr_name = "app";
	ev->series = -1;
	ev->switch_rec = switch_is_record(d);
	if (d->known && a->opts.per) {
		find_role(a, d, ev);
		if (ev->role == ROLE_BEGIN) {
			snprintf(buf, sizeof buf, "%s\x1f%s", d->name, d->attrs);
			ev->match_key = xstrdup(buf);
			ev->next_begin = a->begins;
			a->begins = ev;
			/* the begin's own indexes, looked up by the end's names later */
		}
		if (ev->role == ROLE_END && ev->decl)
			declared_end(a, d, ev);
		else if (ev->role == ROLE_END)
			rule_end(a, d, ev);
	}
	if (d->known && !strcmp(strchr(d->name, '.') ? strchr(d->name, '.') + 1 : d->name, "breath_end")) {
		ev->breath_arg = arg_index(d, "breath");
		ev->packets_arg = arg_index(d, "totalpackets");
		ev->bytes_arg = arg_index(d, "totalbytes");
		ev->breath = ev->breath_arg >= 0 && ev->packets_arg >= 0 && ev->bytes_arg >= 0;
	}
	return ev;
}
