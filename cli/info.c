/* info.c: `timeline info`, what each log says about itself: format, process,
 * the file system it lives on, clock, entries used, written and wrapped
 * away, its threads, rate, time span, events, the events switched off and
 * the rules for events registered later. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "recorder.h"
#include "fsname.h"
#include "input.h"
#include "json.h"
#include "out.h"
#include "view.h"

static const char usage[] =
	"usage: timeline info [--format text|json] INPUT...\n"
	"\n"
	"   -f, --format FMT    text (default) or json (one object per input)\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What a pass over the entries tells. */
struct extent {
	uint64_t first, last;        /* oldest and newest timestamps */
	uint64_t n;                  /* entries read */
	uint64_t records;            /* of them, records of the event switches */
};

static void scan(struct input *in, struct extent *s)
{
	tl_entry e;
	int switched = in->info.switch_gen > 0;   /* else no record to look for */
	memset(s, 0, sizeof *s);
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &e)) {
		if (!s->n++)
			s->first = e.tsc;
		s->last = e.tsc;
		if (switched && e.args[1] == 0 && tl_reader_is_switch_entry(in->r, &e))
			s->records++;
	}
}

/* Calls FN(D, ARG) for each definition of IN switched off now, in order. */
static void each_off(const struct input *in, void (*fn)(const tl_def *d, void *arg), void *arg)
{
	size_t n = 0;
	uint16_t *ids = in->info.switched_off ? input_definitions(in, &n) : NULL;
	for (size_t k = 0; k < n; k++)
		if (tl_reader_switched_off(in->r, ids[k])) {
			const tl_def *d = tl_reader_def(in->r, ids[k]);
			if (d && d->known)
				fn(d, arg);
		}
	free(ids);
}

/* ", name[ attrs]" after the first, as the text line lists them. */
static void print_off(const tl_def *d, void *arg)
{
	int *first = arg;
	printf("%s%s%s%s", *first ? "" : ", ", d->name, *d->attrs ? " " : "", d->attrs);
	*first = 0;
}

static void json_off(const tl_def *d, void *arg)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s%s%s", d->name, *d->attrs ? " " : "", d->attrs);
	json_string((struct json *)arg, buf);
}

/* The rules of IN's log for events registered later into BUF
 * (TL_RULES_BYTES_PER_LOG), *LEN their bytes: 1, 0 when it has none (a
 * format before 1.3), -1 when they are damaged (its writer ignores them). */
static int rules_of(const struct input *in, char *buf, size_t *len)
{
	int rc = tl_reader_rules(in->r, buf, len, NULL);
	return rc == TL_OK ? 1 : rc == TL_E_INVAL ? 0 : -1;
}

/* The text line of IN's rules, when it has some or they are damaged. */
static void print_rules(const struct input *in)
{
	char buf[TL_RULES_BYTES_PER_LOG];
	size_t len;
	int ok = rules_of(in, buf, &len);
	if (ok < 0)
		printf("  rules        damaged or left half-changed: its writer ignores them\n");
	if (ok <= 0 || !len)
		return;
	printf("  rules        for events registered later:");
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
		printf("%s %s '%s'", i ? "," : "", buf[i] == '-' ? "off" : "on", buf + i + 1);
	printf("\n");
}

/* "rules": [{"switch": "off", "pattern": P}, ...], and "rules_damaged". */
static void json_rules(const struct input *in, struct json *j)
{
	char buf[TL_RULES_BYTES_PER_LOG];
	size_t len = 0;
	int ok = rules_of(in, buf, &len);
	JSON_KEY(j, "rules");
	json_begin_array(j);
	for (size_t i = 0; ok > 0 && i < len; i += strlen(buf + i) + 1) {
		json_begin_object(j);
		JSON_KEY_STRING(j, "switch", buf[i] == '-' ? "off" : "on");
		JSON_KEY_STRING(j, "pattern", buf + i + 1);
		json_end_object(j);
	}
	json_end_array(j);
	JSON_KEY_BOOL(j, "rules_damaged", ok < 0);
}

/* The pairs IN's log declares (timeline-events(5)). */
static size_t npairs(const struct input *in)
{
	size_t n;
	input_pairs((struct input *)in, &n);
	return n;
}

/* The line of IN's file system: in memory, or on a disk, whose write-back
 * makes logging dearer. */
static void print_fs(const struct input *in)
{
	char fs[32];
	int memory = fs_name(in->path, fs, sizeof fs);
	printf("  file system  %s (%s)\n", fs,
	       memory ? "in memory" : fs[0] == '?' ? "unknown"
			: "not in memory: its write-back makes each entry dearer");
}

/* The lines of IN's threads, when it has several or refused some a lane:
 * each one's name, entries written and wrapped away. */
static void print_threads(struct input *in)
{
	const tl_info *i = &in->info;
	unsigned n = tl_reader_threads(in->r);
	if (n < 2 && !i->threads_refused)
		return;
	printf("  threads      %u, a ring each", n);
	if (i->threads_refused)
		printf("; %u more refused a ring, logging nothing", i->threads_refused);
	printf("\n");
	for (unsigned t = 0; n > 1 && t < n; t++) {
		tl_thread th;
		size_t len;
		tl_reader_thread(in->r, t, &th);
		printf("  %11u  %s: %llu written, %llu wrapped away\n", t, input_thread(in, t, &len),
		       (unsigned long long)th.written, (unsigned long long)th.lost);
	}
}

/* The flight recorder's lines: its state and settings, and the trigger. */
static void print_recorder(struct input *in)
{
	tl_arming a;
	char buf[512];
	if (recorder_of(in, &a))
		return;
	recorder_settings(in, &a, buf, sizeof buf);
	printf("  recorder     %s: %s\n", recorder_state(a.state), buf);
	if (a.kind) {
		recorder_trigger(in, &a, buf, sizeof buf);
		printf("  trigger      %s\n", buf);
	}
}

static void text(const struct input *in, const struct extent *s, size_t defs)
{
	const tl_info *i = &in->info;
	char a[48], b[48];
	int native = i->format == TL_FORMAT_NATIVE;
	uint64_t span = s->last - s->first;
	printf("%s%s\n", in->path, in->info.compressed ? " (zstd)" : "");
	printf("  format       %s %u.%u\n", native ? "timeline" : "Snabb", i->major, i->minor);
	if (native) {
		printf("  process      %s, pid %u, host %s, log '%s'\n", i->process, i->pid, i->host,
		       i->name);
		print_fs(in);
		printf("  clock        %s, TSC %.6f GHz%s\n",
		       tl_clock_name(i->clock) ? tl_clock_name(i->clock) : "unknown", i->tsc_hz / 1e9,
		       i->cpu_features & TL_CPU_INVARIANT ? " (invariant)" : " (not known invariant)");
		printf("  entries      %llu in a ring of %llu%s", (unsigned long long)s->n,
		       (unsigned long long)i->entries, tl_reader_threads(in->r) > 1 ? " per thread" : "");
		if (i->copy_of)
			printf(" (a copy of a ring of %llu)", (unsigned long long)i->copy_of);
		printf("; %llu written, %llu wrapped away\n", (unsigned long long)i->cursor,
		       (unsigned long long)(i->cursor - i->used));
		print_threads((struct input *)in);
		char word[16], now[16];
		tl_rate_name(word, sizeof word, i->rate, i->rate_fixed);
		tl_rate_name(now, sizeof now, i->rate, 1);
		if (i->rate_fixed)
			printf("  rate         %s, fixed (%llu breaths)\n", word,
			       (unsigned long long)i->breaths);
		else
			printf("  rate         auto, drawn every breath, now %s (%llu breaths)\n", now,
			       (unsigned long long)i->breaths);
		print_recorder((struct input *)in);
	} else {
		printf("  process      unknown (Snabb files do not say)\n");
		print_fs(in);
		printf("  clock        TSC, frequency unknown\n");
		printf("  entries      %llu in a ring of %llu; %s\n", (unsigned long long)s->n,
		       (unsigned long long)i->entries,
		       s->n == i->entries ? "full: entries may have wrapped away" : "never wrapped");
		printf("  rate         unknown (Snabb files do not say)\n");
	}
	if (!s->n)
		printf("  span         no entries\n");
	else if (native && i->tsc_hz) {
		tl_format_wall(a, sizeof a, tl_wall_ns(&in->info, s->first));
		tl_format_wall(b, sizeof b, tl_wall_ns(&in->info, s->last));
		printf("  span         %llu cycles, %.9f s, from %s to %s\n", (unsigned long long)span,
		       (double)tl_ticks_to_ns(span, i->tsc_hz) / 1e9, a, b);
	} else {
		printf("  span         %llu cycles\n", (unsigned long long)span);
	}
	if (npairs(in))
		printf("  definitions  %zu, and %zu pairs declared\n", defs, npairs(in));
	else
		printf("  definitions  %zu\n", defs);
	if (in->info.switched_off) {
		int first = 1;
		printf("  switched off %u: ", in->info.switched_off);
		each_off(in, print_off, &first);
		printf("\n");
	}
	if (s->records)
		printf("  switches     %llu %s of changes in this span (entries of switched-off "
		       "events are missing)\n", (unsigned long long)s->records,
		       s->records == 1 ? "record" : "records");
	print_rules(in);
}

/* "threads": [{"thread", "tid", "name", "written", "wrapped"}, ...] and
 * "threads_refused". */
static void json_threads(struct input *in, struct json *j)
{
	unsigned n = tl_reader_threads(in->r);
	JSON_KEY(j, "threads");
	json_begin_array(j);
	for (unsigned t = 0; t < n; t++) {
		tl_thread th;
		tl_reader_thread(in->r, t, &th);
		json_begin_object(j);
		JSON_KEY_UINT(j, "thread", t);
		JSON_KEY_UINT(j, "tid", th.tid);
		JSON_KEY_STRING(j, "name", th.name);
		JSON_KEY_UINT(j, "written", th.written);
		JSON_KEY_UINT(j, "wrapped", th.lost);
		json_end_object(j);
	}
	json_end_array(j);
	JSON_KEY_UINT(j, "threads_refused", in->info.threads_refused);
}

static void json(const struct input *in, const struct extent *s, size_t defs)
{
	const tl_info *i = &in->info;
	struct json j = JSON_INIT;
	char a[48], word[16];
	int native = i->format == TL_FORMAT_NATIVE;
	json_begin_object(&j);
	JSON_KEY_STRING(&j, "file", in->path);
	JSON_KEY_BOOL(&j, "compressed", in->info.compressed);
	JSON_KEY_STRING(&j, "format", native ? "timeline" : "snabb");
	JSON_KEY_UINT(&j, "major", i->major);
	JSON_KEY_UINT(&j, "minor", i->minor);
	{
		char fs[32];
		int memory = fs_name(in->path, fs, sizeof fs);
		JSON_KEY_STRING(&j, "file_system", fs);
		JSON_KEY_BOOL(&j, "in_memory", memory);
	}
	if (native) {
		JSON_KEY_STRING(&j, "process", i->process);
		JSON_KEY_UINT(&j, "pid", i->pid);
		JSON_KEY_UINT(&j, "start_ticks", i->start_ticks);
		JSON_KEY_STRING(&j, "host", i->host);
		JSON_KEY_STRING(&j, "name", i->name);
		JSON_KEY_STRING(&j, "clock",
				tl_clock_name(i->clock) ? tl_clock_name(i->clock) : "unknown");
		JSON_KEY_UINT(&j, "tsc_hz", i->tsc_hz);
		JSON_KEY_UINT(&j, "copy_of", i->copy_of);
		JSON_KEY_UINT(&j, "written", i->cursor);
		JSON_KEY_UINT(&j, "wrapped", i->cursor - i->used);
		json_threads((struct input *)in, &j);
		tl_rate_name(word, sizeof word, i->rate, i->rate_fixed);
		JSON_KEY_STRING(&j, "rate", word);
		tl_rate_name(word, sizeof word, i->rate, 1);
		JSON_KEY_STRING(&j, "rate_now", word);
		JSON_KEY_UINT(&j, "breaths", i->breaths);
		{
			tl_arming a;
			if (!recorder_of(in, &a))
				recorder_json((struct input *)in, &a, &j);
		}
	}
	JSON_KEY_UINT(&j, "entries", i->entries);
	JSON_KEY_UINT(&j, "used", s->n);
	JSON_KEY_UINT(&j, "first_tsc", s->first);
	JSON_KEY_UINT(&j, "last_tsc", s->last);
	JSON_KEY_UINT(&j, "span_cycles", s->last - s->first);
	if (native && i->tsc_hz && s->n) {
		JSON_KEY_UINT(&j, "span_ns", tl_ticks_to_ns(s->last - s->first, i->tsc_hz));
		tl_format_wall(a, sizeof a, tl_wall_ns(&in->info, s->first));
		JSON_KEY_STRING(&j, "first_wall", a);
		tl_format_wall(a, sizeof a, tl_wall_ns(&in->info, s->last));
		JSON_KEY_STRING(&j, "last_wall", a);
	}
	JSON_KEY_UINT(&j, "definitions", defs);
	if (npairs(in))
		JSON_KEY_UINT(&j, "pairs_declared", npairs(in));
	if (native) {
		JSON_KEY(&j, "switched_off");
		json_begin_array(&j);
		each_off(in, json_off, &j);
		json_end_array(&j);
		JSON_KEY_UINT(&j, "switch_changes", i->switch_gen);
		JSON_KEY_UINT(&j, "switch_records", s->records);
		json_rules(in, &j);
	}
	json_end_object(&j);
	out_char('\n');
}

struct info_run {
	int json;
	int problems;
	size_t logs;                 /* logs described under the path being walked */
};

static int info_one(const char *path, int named, void *arg)
{
	struct info_run *run = arg;
	int skipped;
	struct input *in = input_open("info", path, named, &skipped);
	struct extent s;
	size_t defs;
	if (!in) {
		run->problems += !skipped;
		return 0;
	}
	run->logs++;
	scan(in, &s);
	defs = tl_reader_definitions(in->r, NULL, 0) - npairs(in);   /* events only */
	if (run->json) {
		json(in, &s, defs);
	} else {
		out_flush();
		text(in, &s, defs);
	}
	run->problems += input_report_damage("info", in);
	input_close(in);
	return 0;
}

int cmd_info(int argc, char **argv)
{
	struct info_run run = { 0, 0, 0 };
	int rc = cli_parse_text_json("info", usage, options, argc, argv, &run.json);
	if (rc >= 0)
		return rc;
	if (optind == argc)
		return cli_usage_error("info", "missing input");
	for (int i = optind; i < argc; i++) {
		int had = run.problems;
		run.logs = 0;
		run.problems += input_walk("info", &argv[i], 1, info_one, &run);
		out_flush();
		run.problems += input_none("info", argv[i], run.logs, run.problems - had);
	}
	out_flush();
	return cli_finish("info", run.problems ? EXIT_USAGE : EXIT_OK);
}
