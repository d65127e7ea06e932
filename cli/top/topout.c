/* topout.c: what `timeline top` says at each refresh: the title and status
 * lines the screen shares, and the batch blocks: text, CSV rows, one JSON
 * object per refresh with every log, app and event, or the window as
 * OpenMetrics, to stdout or a file replaced whole. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "recorder.h"
#include "out.h"
#include "sink.h"
#include "stats/openmetrics.h"
#include "table.h"
#include "top.h"
#include "usage.h"
#include "view.h"

size_t top_keep(const struct top *t)
{
	double k = ceil(t->window / t->delay - 1e-9);
	return k < 1 ? 1 : k > 3600 ? 3600 : (size_t)k;
}

size_t top_title(const struct top *t, char *buf, size_t size)
{
	char when[48];
	size_t running = 0;
	int n;
	for (size_t i = 0; i < t->nlogs; i++)
		running += !t->logs[i]->ended;
	tl_format_wall(when, sizeof when, t->wall);
	when[19] = '\0';   /* to the second, UTC; the screen shows the time of day */
	n = snprintf(buf, size, "timeline top  %sZ  refresh %llu every %.3gs  window %.3gs  "
		     "%zu log%s running  by %s", t->batch ? when : when + 11,
		     (unsigned long long)t->refreshes, t->delay, t->delay * (double)top_keep(t),
		     running, running == 1 ? "" : "s", toptable_group_name(t->group));
	return n > 0 ? (size_t)n : 0;
}

/* "  TRIGGER 4242 engine: pair engine.breath 18.977 ms > 5.000 ms" for the
 * first of T's logs whose flight recorder triggered (timeline arm), with
 * "(and N more)" after it, into BUF; "" when none did. Returns its length. */
static size_t trigger_status(const struct top *t, char *buf, size_t size)
{
	size_t more = 0;
	int n = 0;
	*buf = '\0';
	for (size_t i = 0; i < t->nlogs; i++) {
		const struct top_log *l = t->logs[i];
		tl_arming a;
		char what[160];
		if (l->f.snabb || l->armed < TL_RECORDER_KEEPING ||   /* read at the refresh */
		    tl_reader_arming(l->f.in->r, &a) != TL_OK || !a.kind)
			continue;
		if (n > 0) {
			more++;
			continue;
		}
		recorder_brief(l->f.in, &a, what, sizeof what);
		n = snprintf(buf, size, "  TRIGGER %u %s: %s", l->pid, l->name, what);
	}
	if (more && n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " (and %zu more)", more);
	return n > 0 ? strnlen(buf, size) : 0;
}

size_t top_status(const struct top *t, char *buf, size_t size)
{
	uint64_t written = 0, read = 0, lost = 0, unread = 0;
	double secs = 0;
	int n;
	for (size_t i = 0; i < t->nlogs; i++) {
		const struct top_span *s = &t->logs[i]->last;
		written += s->written;
		read += s->read;
		lost += s->lost;
		unread += s->unread;
		secs = s->seconds > secs ? s->seconds : secs;
	}
	n = snprintf(buf, size, "last %.3gs: %llu entries written, %llu read, %llu lost to lapping",
		     secs, (unsigned long long)written, (unsigned long long)read,
		     (unsigned long long)lost);
	if (unread && n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, "  SAMPLED: read the newest %.0f%% of what "
			      "was new", 100.0 * (double)read / (double)(read + unread));
	if (n > 0 && (size_t)n < size)
		n += (int)trigger_status(t, buf + n, size - (size_t)n);
	return n > 0 ? (size_t)n : 0;
}

/* ---- text ---------------------------------------------------------------- */

static void text_block(struct top *t, const struct top_table *tb)
{
	char line[1024];
	top_title(t, line, sizeof line);
	out_str(line);
	out_char('\n');
	top_status(t, line, sizeof line);
	out_str(line);
	out_char('\n');
	for (long r = -2; r < (long)tb->nrows; r++) {
		toptable_line(tb, r, -1, line, sizeof line);
		out_str(line);
		out_char('\n');
	}
	out_char('\n');
}

/* ---- CSV ----------------------------------------------------------------- */

/* The header row, once: refresh, time, then the table's columns, those of
 * the window with "_window" after their names. */
static void csv_header(const struct top_table *tb)
{
	out_str("refresh,time,seconds,window_seconds,sampled");
	for (int c = 0; c < tb->ncols; c++) {
		out_char(',');
		out_str(tb->col[c].csv);
		if (tb->col[c].window)
			out_str("_window");
	}
	out_char('\n');
}

static void csv_block(struct top *t, const struct top_table *tb)
{
	char when[48], v[64];
	tl_format_wall(when, sizeof when, t->wall);
	if (t->refreshes == 1)
		csv_header(tb);
	for (size_t r = 0; r < tb->nrows; r++) {
		const struct top_row *row = &tb->rows[r];
		out_u64(t->refreshes);
		out_char(',');
		out_str(when);
		cell_value(v, sizeof v, row->log->last.seconds, FMT_CSV);
		out_char(',');
		out_str(v);
		cell_value(v, sizeof v, row->log->window.seconds, FMT_CSV);
		out_char(',');
		out_str(v);
		out_str(row->log->last.unread ? ",1" : ",0");
		for (int c = 0; c < tb->ncols; c++) {
			out_char(',');
			if (tb->col[c].kind == COL_TEXT || tb->col[c].kind == COL_NUMBER) {
				out_csv(row->cell[c]);
			} else {
				cell_value(v, sizeof v, row->v[c], FMT_CSV);
				out_str(isnan(row->v[c]) ? "" : v);
			}
		}
		out_char('\n');
	}
}

/* ---- JSON ---------------------------------------------------------------- */

/* The pairs of span S, by pair and attribute: the pair's label, its
 * attribute's value under ATTR (null when none), its unit, and its cycles
 * per unit under the key PER. */
static void json_apps(struct json *j, const struct top_span *s, const char *per, const char *attr)
{
	JSON_KEY(j, "apps");
	json_begin_array(j);
	for (size_t i = 0; i < s->napps; i++) {
		const struct top_app *a = &s->apps[i];
		json_begin_object(j);
		JSON_KEY_STRING(j, "pair", a->pair);
		json_key(j, attr);
		if (strcmp(a->app, "-"))
			json_string(j, a->app);
		else
			json_null(j);
		JSON_KEY(j, "unit");
		if (a->unit)
			json_string(j, a->unit);
		else
			json_null(j);
		JSON_KEY_DOUBLE(j, "share_pct", a->share);
		json_key(j, per);
		json_double(j, a->cycles_packet);
		JSON_KEY_DOUBLE(j, "p50", a->p50);
		JSON_KEY_DOUBLE(j, "p99", a->p99);
		JSON_KEY_DOUBLE(j, "pairs_per_s", a->pairs_s);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_events(struct json *j, const struct top_span *s)
{
	JSON_KEY(j, "events");
	json_begin_array(j);
	for (size_t i = 0; i < s->nevents; i++) {
		const struct top_event *e = &s->events[i];
		json_begin_object(j);
		JSON_KEY_STRING(j, "event", e->event);
		JSON_KEY_DOUBLE(j, "per_s", e->count_s);
		JSON_KEY_DOUBLE(j, "lag_p50", e->p50);
		JSON_KEY_DOUBLE(j, "lag_p99", e->p99);
		json_end_object(j);
	}
	json_end_array(j);
}

/* Span S as the value of key NAME, its pairs' cycles per unit under PER,
 * their attribute under ATTR. */
static void json_span(struct json *j, const char *name, const struct top_span *s,
		      const char *per, const char *attr)
{
	json_key(j, name);
	json_begin_object(j);
	JSON_KEY_DOUBLE(j, "seconds", s->seconds);
	JSON_KEY_UINT(j, "written", s->written);
	JSON_KEY_UINT(j, "read", s->read);
	JSON_KEY_UINT(j, "lost", s->lost);
	JSON_KEY_UINT(j, "unread", s->unread);
	JSON_KEY_DOUBLE(j, "breaths_per_s", s->breaths_s);
	JSON_KEY_DOUBLE(j, "packets_per_s", s->packets_s);
	JSON_KEY_DOUBLE(j, "gbps", s->gbps);
	JSON_KEY_DOUBLE(j, "cycles_per_packet", s->cycles_packet);
	json_apps(j, s, per, attr);
	json_events(j, s);
	json_end_object(j);
}

static void json_log(struct json *j, const struct top_log *l, const char *per, const char *attr)
{
	char rate[16];
	tl_rate_name(rate, sizeof rate, l->rate, l->rate_fixed);
	json_begin_object(j);
	JSON_KEY_STRING(j, "path", l->f.in->path);
	JSON_KEY_UINT(j, "pid", l->pid);
	JSON_KEY_STRING(j, "log", l->name);
	JSON_KEY_STRING(j, "process",
			l->f.in->info.format == TL_FORMAT_NATIVE ? l->f.in->info.process : "");
	JSON_KEY_BOOL(j, "running", !l->ended);
	JSON_KEY(j, "rate");
	if (l->f.snabb)
		json_null(j);
	else
		json_string(j, rate);
	if (!l->f.snabb) {   /* the flight recorder (timeline arm) and its trigger */
		tl_arming a;
		tl_reader_arming(l->f.in->r, &a);
		JSON_KEY_STRING(j, "recorder", recorder_state(a.state));
		JSON_KEY_STRING(j, "trigger", tl_trigger_name(a.kind));
		JSON_KEY_UINT(j, "trigger_cycles", a.cycles);
	}
	json_span(j, "last", &l->last, per, attr);
	json_span(j, "window", &l->window, per, attr);
	json_end_object(j);
}

static void json_block(struct top *t)
{
	struct json j = JSON_INIT;
	char when[48], head[80], per[96];
	const char *unit = topstat_unit(t->logs, t->nlogs, NULL);
	const char *attr = toptable_attr_name(t->logs, t->nlogs, NULL);
	tl_format_wall(when, sizeof when, t->wall);
	toptable_per_names(unit, head, sizeof head, per, sizeof per);
	json_begin_object(&j);
	JSON_KEY_UINT(&j, "refresh", t->refreshes);
	JSON_KEY_STRING(&j, "time", when);
	JSON_KEY_DOUBLE(&j, "delay", t->delay);
	JSON_KEY_UINT(&j, "window_intervals", top_keep(t));
	JSON_KEY_STRING(&j, "unit", unit);   /* the apps' cycles are per this */
	JSON_KEY(&j, "logs");
	json_begin_array(&j);
	for (size_t i = 0; i < t->nlogs; i++)
		json_log(&j, t->logs[i], per, attr);
	json_end_array(&j);
	json_end_object(&j);
	out_char('\n');
}

/* ---- OpenMetrics ----------------------------------------------------------- */

/* The window of every log into F as `stats -f openmetrics` prints it over
 * the same entries: the histogram of `--per packets --by app,process` and
 * that of `--by event,process`, from the logs' window engines added up;
 * then the counters, from a record per log (toplog_record()). */
static void metrics(struct top *t, FILE *f)
{
	struct an *per = an_new(&topstat_per_opts), *lag = an_new(&topstat_lag_opts);
	struct an *files = an_new(&topstat_lag_opts), *by_app;
	struct an_options mo = topstat_per_opts;
	char over[96];
	for (size_t i = 0; i < t->nlogs; i++) {
		struct top_log *l = t->logs[i];
		struct an_breaths b;
		if (!l->wper)
			continue;   /* not cut yet */
		if (an_merge(per, l->wper) < 0 || an_merge(lag, l->wlag) < 0)
			abort();
		toplog_record(l, &b);
		b.order = i;
		an_add_breaths(files, &b);
	}
	snprintf(over, sizeof over, "timeline top's window, the last %.3gs",
		 t->delay * (double)top_keep(t));
	/* by app and process, as `stats --per packets --by app,process` */
	mo.by = 1u << AN_APP | 1u << AN_PROCESS;
	if (!(by_app = an_project(per, mo.by)))
		abort();
	openmetrics_histogram(f, by_app, &mo, over);
	an_free(by_app);
	openmetrics_histogram(f, lag, &topstat_lag_opts, over);
	openmetrics_counters(f, files);
	an_free(per);
	an_free(lag);
	an_free(files);
}

/* The metrics to stdout, or replacing t->output (mode 0644, as stats -o
 * writes it: node_exporter may run as another user): 0, or -1 said. */
static int metrics_block(struct top *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = 0;
	if (!f)
		abort();
	metrics(t, f);
	if (fclose(f) != 0)
		abort();
	if (!t->output)
		out_bytes(buf, len);
	else if (write_replace(t->output, buf, len, 0644) < 0) {
		cli_error("top", "%s: %s", t->output, strerror(errno));
		rc = -1;
	}
	free(buf);
	return rc;
}

int topout_block(struct top *t)
{
	struct top_table tb;
	int rc = 0;
	if (t->format == TOP_FMT_OPENMETRICS) {
		rc = metrics_block(t);
	} else if (t->format == FMT_JSON) {
		json_block(t);
	} else {
		toptable_build(&tb, t->group, t->logs, t->nlogs, NULL);
		toptable_sort(&tb, toptable_default_sort(t->group), 0);
		if (t->format == FMT_CSV)
			csv_block(t, &tb);
		else
			text_block(t, &tb);
		toptable_free(&tb);
	}
	out_flush();
	fflush(stdout);
	return rc;
}
