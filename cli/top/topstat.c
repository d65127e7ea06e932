/* topstat.c: `timeline top`'s view of each log: what is new at each poll
 * fed to analysis engines that follow the log, cut into intervals at each
 * refresh, the intervals added up into the window, and the figures of a
 * span computed from its engines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "topstat.h"

struct an_options topstat_per_opts = {
	.by = 1u << AN_EVENT | 1u << AN_APP | 1u << AN_PROCESS, .per = "packets",
	.pairs = an_default_pairs, .npairs = 3, .per_default = 1,
};
const struct an_options topstat_lag_opts = {
	.by = 1u << AN_EVENT | 1u << AN_PROCESS, .pairs = an_default_pairs, .npairs = 3,
};

/* ---- figures ------------------------------------------------------------- */

/* The breath figures of S from the breath summaries of PER: the summaries
 * of consecutive intervals join at a breath_end, so they add up. */
static void breath_figures(const struct an *per, struct top_span *s)
{
	size_t n;
	const struct an_breaths *b = an_breath_list(per, &n);
	double breaths = 0, packets = 0, bytes = 0, cycles = 0, hz = 0;
	for (size_t i = 0; i < n; i++) {
		breaths += (double)b[i].breaths;
		packets += (double)b[i].packets;
		bytes += (double)b[i].bytes;
		cycles += (double)b[i].cycles;
		hz = b[i].hz ? (double)b[i].hz : hz;
	}
	s->breaths_s = s->packets_s = s->gbps = s->cycles_packet = NAN;
	if (!(cycles > 0) || !(breaths > 0))
		return;
	/* per second as N * hz / cycles: one rounding, as stats does */
	s->breaths_s = hz ? breaths * hz / cycles : NAN;
	s->packets_s = hz ? packets * hz / cycles : NAN;
	s->gbps = hz ? bytes * 8 * hz / cycles / 1e9 : NAN;
	s->cycles_packet = packets > 0 ? cycles / packets : NAN;
}

/* The share named NAME of the cycles of the breaths it ran in, in PER's
 * summaries: % of the breaths' cycles, NaN when no breath held a pair. */
static double share_of(const struct an *per, const char *name)
{
	size_t n;
	const struct an_breaths *b = an_breath_list(per, &n);
	double mine = 0, all = 0;
	for (size_t i = 0; i < n; i++) {
		all += b[i].share_cycles;
		for (size_t k = 0; k < b[i].nshares; k++)
			if (!strcmp(b[i].shares[k].app, name))
				mine += b[i].shares[k].cycles;
	}
	return all > 0 ? 100 * mine / all : NAN;
}

static double quantile(const struct hist *h, double q)
{
	return h->n ? hist_quantile(h, q) : NAN;
}

/* The declaration of pair LABEL among the N DECLARED, or NULL. */
static const tl_pair *declared_as(const tl_pair *declared, size_t n, const char *label)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(declared[k].label, label))
			return &declared[k];
	return NULL;
}

/* Pair A's share of its breaths (A's pair, attribute and value set): a
 * declared pair's is named "LABEL[ ATTR=VALUE]", one of Snabb's apps by
 * its value, a breath has none. */
static double pair_share(const struct an *per, const struct top_app *a, const tl_pair *d)
{
	char name[512];
	if (d && d->breath)
		return NAN;
	if (!d)
		return strcmp(a->app, "-") ? share_of(per, a->app) : NAN;
	snprintf(name, sizeof name, "%s%s%s%s%s", a->pair, strcmp(a->app, "-") ? " " : "",
		 strcmp(a->app, "-") ? a->attr : "", strcmp(a->app, "-") ? "=" : "",
		 strcmp(a->app, "-") ? a->app : "");
	return share_of(per, name);
}

/* S's pairs from PER's rows, by pair and attribute, of a log declaring
 * the N pairs DECLARED; SCALE: written / read. */
static void app_figures(struct an *per, struct top_span *s, double scale, const tl_pair *declared,
			size_t nd)
{
	size_t n;
	struct an_row **rows = an_rows(per, &n);
	if (!(s->apps = calloc(n ? n : 1, sizeof *s->apps)))
		abort();
	for (size_t i = 0; i < n; i++) {
		const struct an_row *r = rows[i];
		struct top_app *a = &s->apps[s->napps++];
		const tl_pair *d = declared_as(declared, nd, r->key[AN_EVENT]);
		if (!(a->pair = strdup(r->key[AN_EVENT])) || !(a->app = strdup(r->key[AN_APP])) ||
		    (r->unit && !(a->unit = strdup(r->unit))))
			abort();
		a->attr = d ? d->by : "app";
		a->share = pair_share(per, a, d);
		a->cycles_packet = r->units > 0 ? r->cycles / r->units : NAN;
		a->p50 = quantile(&r->h, 0.5);
		a->p99 = quantile(&r->h, 0.99);
		a->pairs_s = s->seconds > 0 ? (double)(r->h.n + r->empty) * scale / s->seconds : NAN;
	}
}

/* S's events from LAG's rows, by event; SCALE: written / read. */
static void event_figures(struct an *lag, struct top_span *s, double scale)
{
	size_t n;
	struct an_row **rows = an_rows(lag, &n);
	if (!(s->events = calloc(n ? n : 1, sizeof *s->events)))
		abort();
	for (size_t i = 0; i < n; i++) {
		const struct an_row *r = rows[i];
		struct top_event *e = &s->events[s->nevents];
		if (!r->entries)
			continue;
		if (!(e->event = strdup(r->key[AN_EVENT])))
			abort();
		e->count_s = s->seconds > 0 ? (double)r->entries * scale / s->seconds : NAN;
		e->p50 = quantile(&r->h, 0.5);
		e->p99 = quantile(&r->h, 0.99);
		s->nevents++;
	}
}

void topstat_figures(struct an *per, struct an *lag, struct top_span *s, const tl_pair *declared,
		     size_t n)
{
	/* sampled or lapped: counts scale up to what was written */
	double scale = s->read && s->written > s->read ? (double)s->written / (double)s->read : 1;
	breath_figures(per, s);
	app_figures(per, s, scale, declared, n);
	event_figures(lag, s, scale);
}

void topstat_free(struct top_span *s)
{
	for (size_t i = 0; i < s->napps; i++) {
		free(s->apps[i].pair);
		free(s->apps[i].app);
		free(s->apps[i].unit);
	}
	for (size_t i = 0; i < s->nevents; i++)
		free(s->events[i].event);
	free(s->apps);
	free(s->events);
	s->apps = NULL;
	s->events = NULL;
	s->napps = s->nevents = 0;
}

const char *topstat_unit(struct top_log **logs, size_t n, const struct top_log *focus)
{
	const char *unit = NULL;
	if (!topstat_per_opts.per_default)
		return topstat_per_opts.per;   /* --per */
	for (size_t i = 0; i < n; i++) {
		const char *u = focus && logs[i] != focus ? NULL : an_noted_unit(logs[i]->per);
		if (u && unit && strcmp(u, unit))
			return "unit";
		unit = u ? u : unit;
	}
	return unit ? unit : topstat_per_opts.per;
}

/* ---- following ----------------------------------------------------------- */

/* The engines' view of an event definition: the library's. */
static const tl_def *def_of(void *ctx, uint16_t msgid)
{
	return input_event(ctx, msgid);
}

struct top_log *toplog_open(struct input *in, int at_end, uint64_t now, const char *group)
{
	struct top_log *t = calloc(1, sizeof *t);
	struct an_file file = { in->path, in->label, "-", NULL, NULL, in->info.tsc_hz, 0, 0, 0,
				NULL, NULL, 0, in->info.switched_off };
	struct stat st;
	if (!t)
		abort();
	file.declared = t->declared = input_pairs(in, &file.ndeclared);
	t->ndeclared = file.ndeclared;
	snprintf(t->group, sizeof t->group, "%s", group);
	file.group = t->group;
	follow_start(&t->f, in, at_end);
	if (stat(in->path, &st) == 0) {
		t->dev = st.st_dev;
		t->ino = st.st_ino;
	}
	t->pid = input_pid(in);
	snprintf(t->name, sizeof t->name, "%s",
		 in->info.format == TL_FORMAT_NATIVE ? in->info.name : "snabb");
	file.host = in->info.format == TL_FORMAT_NATIVE ? in->info.host : "-";
	t->per = an_new(&topstat_per_opts);
	t->lag = an_new(&topstat_lag_opts);
	an_file_begin(t->per, &file, def_of, in);
	an_file_begin(t->lag, &file, def_of, in);
	t->alive = 1;
	t->since = now;
	/* a new log: its first interval runs from its creation (the anchor is
	 * CLOCK_MONOTONIC, follow_now()'s clock) */
	if (!at_end && in->info.format == TL_FORMAT_NATIVE && in->info.anchor_monotonic_ns < now &&
	    now - in->info.anchor_monotonic_ns < 60000000000ull)
		t->since = in->info.anchor_monotonic_ns;
	return t;
}

/* Entries are missing before the next one T's engines get. */
static void gap(struct top_log *t)
{
	an_gap(t->per);
	an_gap(t->lag);
}

uint64_t toplog_poll(struct top_log *t, uint64_t max)
{
	uint64_t unread, lost = t->f.lost, n = 0, written, g;
	tl_entry e;
	if (t->f.done)
		return 0;
	t->alive = follow_alive(&t->f);   /* before the snapshot: nothing is missed */
	written = follow_snapshot(&t->f, max, &unread);
	if (unread)
		gap(t);
	while (follow_next(&t->f, &e, &g)) {
		if (g)
			gap(t);
		if (an_entry(t->per, &e) < 0 || an_entry(t->lag, &e) < 0)
			abort();   /* out of memory */
		n++;
	}
	if (follow_gap(&t->f))
		gap(t);
	t->pending.written += t->f.snabb ? n : written;
	t->pending.read += n;
	t->pending.unread += unread;
	t->pending.lost += t->f.lost - lost;
	t->f.done = !t->alive;
	return n;
}

/* The window: the counts and engines of T's intervals added up, the
 * engines kept in t->wper and t->wlag. */
static void window(struct top_log *t)
{
	struct an *per = an_new(&topstat_per_opts), *lag = an_new(&topstat_lag_opts);
	struct top_span *w = &t->window;
	an_free(t->wper);
	an_free(t->wlag);
	t->wper = per;
	t->wlag = lag;
	topstat_free(w);
	memset(w, 0, sizeof *w);
	for (size_t i = 0; i < t->niv; i++) {
		const struct top_span *c = &t->iv[i].counts;
		w->seconds += c->seconds;
		w->written += c->written;
		w->read += c->read;
		w->lost += c->lost;
		w->unread += c->unread;
		if (an_merge(per, t->iv[i].per) < 0 || an_merge(lag, t->iv[i].lag) < 0)
			abort();
	}
	topstat_figures(per, lag, w, t->declared, t->ndeclared);
}

void toplog_cut(struct top_log *t, uint64_t now, size_t keep)
{
	struct top_iv iv = { an_new(&topstat_per_opts), an_new(&topstat_lag_opts), t->pending };
	tl_info info;
	iv.counts.seconds = (double)(now - t->since) / 1e9;
	t->since = now;
	if (an_cut(t->per, iv.per) < 0 || an_cut(t->lag, iv.lag) < 0)
		abort();
	memset(&t->pending, 0, sizeof t->pending);
	if (t->niv == keep && t->niv) {
		an_free(t->iv[0].per);
		an_free(t->iv[0].lag);
		memmove(t->iv, t->iv + 1, --t->niv * sizeof *t->iv);
	}
	if (!(t->iv = realloc(t->iv, (t->niv + 1) * sizeof *t->iv)))
		abort();
	t->iv[t->niv++] = iv;
	topstat_free(&t->last);
	t->last = iv.counts;
	topstat_figures(iv.per, iv.lag, &t->last, t->declared, t->ndeclared);
	window(t);
	tl_reader_info(t->f.in->r, &info);
	t->rate = info.rate;
	t->rate_fixed = info.rate_fixed;
	t->armed = info.armed;
	t->switched_off = info.switched_off;
	t->ended = t->alive ? 0 : t->ended + 1;
}

void toplog_close(struct top_log *t)
{
	if (!t)
		return;
	an_file_end(t->per);
	an_file_end(t->lag);
	an_free(t->per);
	an_free(t->lag);
	for (size_t i = 0; i < t->niv; i++) {
		an_free(t->iv[i].per);
		an_free(t->iv[i].lag);
	}
	free(t->iv);
	topstat_free(&t->last);
	topstat_free(&t->window);
	an_free(t->wper);
	an_free(t->wlag);
	follow_close(&t->f);
	free(t);
}

void toplog_record(struct top_log *t, struct an_breaths *b)
{
	size_t n = 0;
	const struct an_breaths *last = t->niv ? an_breath_list(t->iv[t->niv - 1].per, &n) : NULL;
	tl_info *info = &t->f.in->info;
	if (n) {
		*b = last[n - 1];   /* the last cut's: one at most */
	} else {
		memset(b, 0, sizeof *b);
		b->process = t->f.in->label;
		b->path = (char *)t->f.in->path;   /* read only: an_add_breaths() copies */
		b->group = t->group;
		b->host = info->format == TL_FORMAT_NATIVE ? info->host : "-";
	}
	b->written = t->f.snabb ? t->f.read : t->f.end;
	b->lost = t->f.lost;
}
