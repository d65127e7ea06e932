/* recorder.c: the flight recorder of a log said in words and in JSON, one
 * way for info, ls, top and dump (tl_reader_arming). */
#include <stdio.h>
#include <string.h>
#include "out.h"
#include "recorder.h"

const char *recorder_state(int state)
{
	static const char *const words[] = { "off", "armed", "keeping", "frozen" };
	return state >= 0 && state <= TL_RECORDER_FROZEN ? words[state] : "off";
}

int recorder_of(const struct input *in, tl_arming *a)
{
	if (tl_reader_arming(in->r, a) != TL_OK || (a->state == TL_RECORDER_OFF && !a->kind))
		return -1;
	return 0;
}

/* TICKS of IN's clock as "5.000 ms", "200.000 us" or "591 ns" into BUF. */
static void duration(const struct input *in, uint64_t ticks, char *buf, size_t size)
{
	uint64_t ns = tl_ticks_to_ns(ticks, in->info.tsc_hz);
	if (ns >= 1000000)
		snprintf(buf, size, "%.3f ms", ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, size, "%.3f us", ns / 1e3);
	else
		snprintf(buf, size, "%llu ns", (unsigned long long)ns);
}

void recorder_settings(const struct input *in, const tl_arming *a, char *buf, size_t size)
{
	char rate[16], t[32];
	tl_rate_name(rate, sizeof rate, a->rate, 1);
	duration(in, a->threshold, t, sizeof t);
	if (a->mode == 3)
		snprintf(buf, size, "on %s, keep %llu, rate %s", a->what, (unsigned long long)a->keep,
			 rate);
	else
		snprintf(buf, size, "%s slower than %s (%llu cycles), keep %llu, rate %s", a->what, t,
			 (unsigned long long)a->threshold, (unsigned long long)a->keep, rate);
}

/* The attributes of IN's definition ID ("app=b"), "" when none. */
static const char *attrs_of(struct input *in, uint16_t id)
{
	const tl_def *d = input_event(in, id);
	return d->known && d->attrs ? d->attrs : "";
}

void recorder_trigger(struct input *in, const tl_arming *a, char *buf, size_t size)
{
	char wall[48], len[32], thr[32];
	const char *attrs = attrs_of(in, a->begin_id);
	tl_format_wall(wall, sizeof wall, a->wall_ns);
	if (a->kind == TL_TRIGGER_HAND) {
		snprintf(buf, size, "by hand, at %s", wall);
		return;
	}
	if (a->kind == TL_TRIGGER_EVENT) {
		snprintf(buf, size, "event %s%s%s, thread %u, entry %llu, at %s",
			 input_event(in, a->begin_id)->name, *attrs ? " " : "", attrs, a->thread,
			 (unsigned long long)a->begin_seq, wall);
		return;
	}
	duration(in, a->cycles, len, sizeof len);
	duration(in, a->threshold_at, thr, sizeof thr);
	snprintf(buf, size, "%s %s%s%s: %llu cycles (%s) > %s, thread %u, entries %llu to %llu, at %s",
		 tl_trigger_name(a->kind), a->what, *attrs ? " " : "", attrs,
		 (unsigned long long)a->cycles, len, thr, a->thread,
		 (unsigned long long)a->begin_seq, (unsigned long long)a->end_seq, wall);
}

void recorder_brief(const struct input *in, const tl_arming *a, char *buf, size_t size)
{
	char len[32], thr[32];
	if (a->kind == TL_TRIGGER_HAND || a->kind == TL_TRIGGER_EVENT) {
		snprintf(buf, size, "%s%s", a->kind == TL_TRIGGER_HAND ? "by hand" : "event ",
			 a->kind == TL_TRIGGER_HAND ? "" : a->what);
		return;
	}
	duration(in, a->cycles, len, sizeof len);
	duration(in, a->threshold_at, thr, sizeof thr);
	snprintf(buf, size, "%s %s %s > %s", tl_trigger_name(a->kind), a->what, len, thr);
}

/* The trigger A's thread, cycles, threshold and entry numbers, into J:
 * the members info's trigger and stats --slowest's line share. */
static void trigger_figures(struct json *j, const tl_arming *a)
{
	JSON_KEY_UINT(j, "thread", a->thread);
	JSON_KEY_UINT(j, "cycles", a->cycles);
	JSON_KEY_UINT(j, "threshold_cycles", a->threshold_at);
	JSON_KEY_UINT(j, "begin_seq", a->begin_seq);
	JSON_KEY_UINT(j, "end_seq", a->end_seq);
}

void recorder_json(struct input *in, const tl_arming *a, struct json *j)
{
	char wall[48];
	static const char *const modes[] = { "", "pair", "breath", "on" };
	JSON_KEY(j, "recorder");
	json_begin_object(j);
	JSON_KEY_STRING(j, "state", recorder_state(a->state));
	JSON_KEY_STRING(j, "mode", a->mode >= 1 && a->mode <= 3 ? modes[a->mode] : "");
	JSON_KEY_STRING(j, "what", a->what);
	JSON_KEY_UINT(j, "threshold_cycles", a->threshold);
	JSON_KEY_UINT(j, "keep", a->keep);
	JSON_KEY_UINT(j, "armed_times", a->gen);
	json_end_object(j);
	if (!a->kind) {
		JSON_KEY_NULL(j, "trigger");
		return;
	}
	JSON_KEY(j, "trigger");
	json_begin_object(j);
	JSON_KEY_STRING(j, "kind", tl_trigger_name(a->kind));
	JSON_KEY_STRING(j, "attrs", a->kind == TL_TRIGGER_HAND ? "" : attrs_of(in, a->begin_id));
	trigger_figures(j, a);
	JSON_KEY_UINT(j, "end_tsc", a->end_tsc);
	JSON_KEY_UINT(j, "stop_at", a->stop_at);
	tl_format_wall(wall, sizeof wall, a->wall_ns);
	JSON_KEY_STRING(j, "wall", wall);
	json_end_object(j);
}

/* What trigger_line() prints in, and how many it printed. */
struct triggers {
	int json, said;
};

/* The trigger of IN (at PATH) as a JSON line of the table "trigger". */
static void trigger_json(struct input *in, const char *path, const tl_arming *a)
{
	struct json j = JSON_INIT;
	char wall[48], dump[4200];
	tl_format_wall(wall, sizeof wall, a->wall_ns);
	snprintf(dump, sizeof dump, "timeline dump --trigger %s", path);
	json_begin_object(&j);
	JSON_KEY_STRING(&j, "table", "trigger");
	JSON_KEY_STRING(&j, "path", path);
	JSON_KEY_STRING(&j, "kind", tl_trigger_name(a->kind));
	JSON_KEY_STRING(&j, "pair", a->what);
	JSON_KEY_STRING(&j, "attrs", attrs_of(in, a->begin_id));
	trigger_figures(&j, a);
	JSON_KEY_STRING(&j, "wall", wall);
	JSON_KEY_STRING(&j, "dump", dump);
	json_end_object(&j);
	out_char('\n');
	out_flush();
}

/* input_walk()'s: the trigger line of the log at PATH, if it has one. */
static int trigger_line(const char *path, int named, void *arg)
{
	int skipped;
	struct triggers *t = arg;
	struct input *in;
	tl_arming a;
	char buf[512];
	(void)named;   /* what is no log (a summary) was said by the reading */
	if (!(in = input_open("stats", path, 0, &skipped)))
		return 0;
	if (!recorder_of(in, &a) && a.kind && a.kind != TL_TRIGGER_HAND) {
		if (t->json) {
			trigger_json(in, path, &a);
		} else {
			if (!t->said)
				printf("the trigger's pair first (timeline arm)\n");
			recorder_trigger(in, &a, buf, sizeof buf);
			printf("  %s: %s; timeline dump --trigger %s\n", path, buf, path);
		}
		t->said++;
	}
	input_close(in);
	return 0;
}

void recorder_triggers_first(char **paths, int n, int json)
{
	struct triggers t = { json, 0 };
	int quiet = input_quiet;
	input_quiet = 1;
	fflush(stdout);
	input_walk("stats", paths, n, trigger_line, &t);
	input_quiet = quiet;
	if (t.said && !json)
		printf("\n");
	fflush(stdout);
}
