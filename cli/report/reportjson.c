/* reportjson.c: `timeline report --format json`: the data behind every
 * chart of the report, one JSON object per line, in report order (see
 * timeline(1), REPORT). */
#include <math.h>
#include "json.h"
#include "out.h"
#include "report.h"
#include "view.h"

/* Starts the line of chart C of KIND: its section, id, title and axes. */
static void head(struct json *j, const struct rp_chart *c, const char *kind)
{
	json_begin_object(j);
	JSON_KEY_STRING(j, "section", c->section);
	JSON_KEY_STRING(j, "chart", c->id);
	JSON_KEY_STRING(j, "kind", kind);
	JSON_KEY_STRING(j, "title", c->title);
	if (c->x[0]) {
		JSON_KEY_STRING(j, "x", c->x);
	}
	if (c->y[0]) {
		JSON_KEY_STRING(j, "y", c->y);
	}
}

static void tail(struct json *j)
{
	json_end_object(j);
	out_char('\n');
}

static void begin(const struct rp_out *o, const char *title, const char *about, int sides)
{
	struct json j = JSON_INIT;
	(void)o;
	(void)sides;
	json_begin_object(&j);
	JSON_KEY_STRING(&j, "report", title);
	JSON_KEY_STRING(&j, "about", about);
	tail(&j);
}

static void section(const struct rp_out *o, const char *id, const char *title, const char *about)
{
	struct json j = JSON_INIT;
	(void)o;
	json_begin_object(&j);
	JSON_KEY_STRING(&j, "section", id);
	JSON_KEY_STRING(&j, "title", title);
	JSON_KEY_STRING(&j, "about", about);
	tail(&j);
}

static void table(const struct rp_out *o, const struct rp_chart *c, const struct table *t)
{
	struct json j = JSON_INIT;
	(void)o;
	head(&j, c, "table");
	JSON_KEY(&j, "rows");
	json_begin_array(&j);
	table_json_rows(t, &j);
	json_end_array(&j);
	tail(&j);
}

static void stacks(const struct rp_out *o, const struct rp_chart *c, const struct rp_stack *s,
		   size_t n)
{
	struct json j = JSON_INIT;
	(void)o;
	head(&j, c, "stacks");
	JSON_KEY(&j, "bars");
	json_begin_array(&j);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(&j);
		JSON_KEY_STRING(&j, "label", s[i].label);
		if (s[i].side) {
			JSON_KEY_STRING(&j, "side", s[i].side);
		}
		JSON_KEY_UINT(&j, "breaths", s[i].breaths);
		JSON_KEY_DOUBLE(&j, "cycles", s[i].cycles);
		JSON_KEY(&j, "segments");
		json_begin_array(&j);
		for (size_t k = 0; k < s[i].n; k++) {
			json_begin_object(&j);
			JSON_KEY_STRING(&j, "app", s[i].apps[k]);
			JSON_KEY_DOUBLE(&j, "cycles", s[i].app_cycles[k]);
			JSON_KEY_DOUBLE(&j, "share%", 100 * s[i].app_cycles[k] / s[i].cycles);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_array(&j);
	tail(&j);
}

/* The N values V as an array, NaN as null. */
static void values(struct json *j, const double *v, size_t n)
{
	json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		json_double(j, v[i]);
	json_end_array(j);
}

/* The N bins B as members: "n" and each percentile, as arrays. */
static void bins(struct json *j, const struct bin *b, size_t n)
{
	static const char *const names[BIN_NQ] = { "p5", "p25", "p50", "p75", "p95" };
	json_key(j, "n");
	json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		json_uint(j, b[i].n);
	json_end_array(j);
	for (int k = 0; k < BIN_NQ; k++) {
		json_key(j, names[k]);
		json_begin_array(j);
		for (size_t i = 0; i < n; i++)
			json_double(j, b[i].q[k]);
		json_end_array(j);
	}
}

/* "trigger": the flight recorder's trigger of RT's log (null: none), its
 * slow pair's timestamps where the chart's t0 and span place it. */
static void trigger(struct json *j, const struct rp_time *rt)
{
	const tl_arming *a = rt->trigger;
	if (!a) {
		JSON_KEY_NULL(j, "trigger");
		return;
	}
	JSON_KEY(j, "trigger");
	json_begin_object(j);
	JSON_KEY_STRING(j, "kind", tl_trigger_name(a->kind));
	JSON_KEY_STRING(j, "what", a->what);
	JSON_KEY_UINT(j, "thread", a->thread);
	JSON_KEY_UINT(j, "cycles", a->cycles);
	JSON_KEY_UINT(j, "threshold_cycles", a->threshold_at);
	if (a->end_tsc) {   /* by hand: no timestamp */
		JSON_KEY_UINT(j, "begin_tsc", a->end_tsc - a->cycles);
		JSON_KEY_UINT(j, "end_tsc", a->end_tsc);
	} else {
		JSON_KEY_NULL(j, "begin_tsc");
		JSON_KEY_NULL(j, "end_tsc");
	}
	JSON_KEY_UINT(j, "begin_seq", a->begin_seq);
	JSON_KEY_UINT(j, "end_seq", a->end_seq);
	JSON_KEY_STRING(j, "text", rt->trigger_text);
	json_end_object(j);
}

static void time_chart(const struct rp_out *o, const struct rp_chart *c, const struct rp_time *rt)
{
	const struct an_timeline *t = rt->t;
	struct json j = JSON_INIT;
	(void)o;
	head(&j, c, "time");
	if (rt->side) {   /* a report of two sides: the process's side, and its series' */
		JSON_KEY_STRING(&j, "side", rt->side);
	}
	JSON_KEY_STRING(&j, "process", t->process);
	JSON_KEY_STRING(&j, "path", t->path);
	JSON_KEY_STRING(&j, "group", t->group);
	JSON_KEY_UINT(&j, "hz", t->hz);
	JSON_KEY_UINT(&j, "t0", t->t0);
	JSON_KEY_UINT(&j, "span", t->span);
	JSON_KEY_STRING(&j, "unit", rt->unit);
	trigger(&j, rt);
	JSON_KEY(&j, "series");
	json_begin_array(&j);
	for (size_t k = 0; k < t->ns; k++) {
		json_begin_object(&j);
		JSON_KEY_STRING(&j, "event", t->s[k].label);
		JSON_KEY_STRING(&j, "app", t->s[k].app);
		JSON_KEY_STRING(&j, "unit", rt->units && rt->units[k] ? rt->units[k] : rt->unit);
		if (rt->side) {
			JSON_KEY_STRING(&j, "side", rt->side);
		}
		JSON_KEY_UINT(&j, "nbins", t->s[k].nbins);
		bins(&j, t->s[k].v, t->s[k].nbins);
		if (t->s[k].units) {
			JSON_KEY(&j, "units");
			json_begin_object(&j);
			bins(&j, t->s[k].units, t->s[k].nbins);
			json_end_object(&j);
		}
		json_end_object(&j);
	}
	json_end_array(&j);
	JSON_KEY_UINT(&j, "nbins", t->nbins);
	if (!report_has_totals(t)) {   /* no throughput: no word of packets */
		tail(&j);
		return;
	}
	JSON_KEY(&j, "breaths");
	values(&j, t->breaths, t->nbins);
	JSON_KEY(&j, "packets");
	values(&j, t->packets, t->nbins);
	JSON_KEY(&j, "bytes");
	values(&j, t->bytes, t->nbins);
	JSON_KEY(&j, "cycles");
	values(&j, t->cycles, t->nbins);
	tail(&j);
}

static void hists(const struct rp_out *o, const struct rp_chart *c, const struct rp_hist *h,
		  size_t n)
{
	struct json j = JSON_INIT;
	(void)o;
	head(&j, c, "hists");
	JSON_KEY(&j, "hists");
	json_begin_array(&j);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(&j);
		JSON_KEY_STRING(&j, "label", h[i].label);
		JSON_KEY_UINT(&j, "n", h[i].n);
		JSON_KEY_UINT(&j, "zeros", h[i].zeros);
		JSON_KEY_DOUBLE(&j, "p50", h[i].p50);
		if (h[i].runs) {   /* the verdict's values, a run each */
			JSON_KEY(&j, "runs");
			json_begin_array(&j);
			for (size_t r = 0; r < h[i].nruns; r++)
				json_double(&j, h[i].runs[r]);
			json_end_array(&j);
		}
		JSON_KEY(&j, "bins");
		json_begin_array(&j);
		for (size_t b = 0; b < h[i].nbins; b++) {
			json_begin_object(&j);
			JSON_KEY_DOUBLE(&j, "from", h[i].bins[b].lo);
			JSON_KEY_DOUBLE(&j, "below", h[i].bins[b].hi);
			JSON_KEY_UINT(&j, "count", h[i].bins[b].n);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_array(&j);
	tail(&j);
}

static void boxes(const struct rp_out *o, const struct rp_chart *c, const struct rp_box *b,
		  size_t n)
{
	struct json j = JSON_INIT;
	(void)o;
	head(&j, c, "boxes");
	JSON_KEY(&j, "boxes");
	json_begin_array(&j);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(&j);
		JSON_KEY_STRING(&j, "label", b[i].label);
		if (b[i].side) {
			JSON_KEY_STRING(&j, "side", b[i].side);
		}
		JSON_KEY_UINT(&j, "n", b[i].n);
		for (int k = 0; k < BOX_NV; k++) {
			json_key(&j, rp_box_names[k]);
			json_double(&j, b[i].v[k]);
		}
		json_end_object(&j);
	}
	json_end_array(&j);
	tail(&j);
}

static void note(const struct rp_out *o, const char *text)
{
	struct json j = JSON_INIT;
	(void)o;
	json_begin_object(&j);
	JSON_KEY_STRING(&j, "note", text);
	tail(&j);
}

static void end(const struct rp_out *o)
{
	(void)o;
}

const struct rp_out rp_json = { FMT_JSON, begin, section, table, stacks, time_chart, hists,
				boxes, note, end };
