/* info.c: `timeline info`, what each log says about itself: format, process,
 * clock, entries used, written and wrapped away, rate, time span, events. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "input.h"
#include "out.h"

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

/* The name of clock source C, "unknown" for a value this library does not know. */
static const char *clock_name(int c)
{
	const char *name = tl_clock_name(c);
	return name ? name : "unknown";
}

/* What a pass over the entries tells. */
struct span {
	uint64_t first, last;        /* oldest and newest timestamps */
	uint64_t n;                  /* entries read */
};

static void scan(struct input *in, struct span *s)
{
	tl_entry e;
	memset(s, 0, sizeof *s);
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &e)) {
		if (!s->n++)
			s->first = e.tsc;
		s->last = e.tsc;
	}
}

static void text(const struct input *in, const struct span *s, size_t defs)
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
		printf("  clock        %s, TSC %.6f GHz%s\n",
		       clock_name(i->clock), i->tsc_hz / 1e9,
		       i->cpu_features & TL_CPU_INVARIANT ? " (invariant)" : " (not known invariant)");
		printf("  entries      %llu in a ring of %llu; %llu written, %llu wrapped away\n",
		       (unsigned long long)s->n, (unsigned long long)i->entries,
		       (unsigned long long)i->cursor,
		       (unsigned long long)(i->cursor > i->entries ? i->cursor - i->entries : 0));
		if (i->rate == TL_RATE_OFF)
			printf("  rate         off, %s (%llu breaths)\n",
			       i->rate_fixed ? "fixed" : "until the next breath",
			       (unsigned long long)i->breaths);
		else if (i->rate_fixed)
			printf("  rate         %u, fixed (%llu breaths)\n", i->rate,
			       (unsigned long long)i->breaths);
		else
			printf("  rate         %u, drawn every breath (%llu breaths)\n", i->rate,
			       (unsigned long long)i->breaths);
	} else {
		printf("  process      unknown (Snabb files do not say)\n");
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
	printf("  definitions  %zu\n", defs);
}

static void json(const struct input *in, const struct span *s, size_t defs)
{
	const tl_info *i = &in->info;
	char a[48];
	int native = i->format == TL_FORMAT_NATIVE;
	out_str("{\"file\":");
	out_json(in->path);
	out_str(",\"compressed\":");
	out_str(in->info.compressed ? "true" : "false");
	out_str(",\"format\":");
	out_json(native ? "timeline" : "snabb");
	out_str(",\"major\":");
	out_u64(i->major);
	out_str(",\"minor\":");
	out_u64(i->minor);
	if (native) {
		out_str(",\"process\":");
		out_json(i->process);
		out_str(",\"pid\":");
		out_u64(i->pid);
		out_str(",\"host\":");
		out_json(i->host);
		out_str(",\"name\":");
		out_json(i->name);
		out_str(",\"clock\":");
		out_json(clock_name(i->clock));
		out_str(",\"tsc_hz\":");
		out_u64(i->tsc_hz);
		out_str(",\"written\":");
		out_u64(i->cursor);
		out_str(",\"wrapped\":");
		out_u64(i->cursor > i->entries ? i->cursor - i->entries : 0);
		out_str(",\"rate\":");
		out_u64(i->rate);
		out_str(",\"rate_fixed\":");
		out_str(i->rate_fixed ? "true" : "false");
		out_str(",\"breaths\":");
		out_u64(i->breaths);
	}
	out_str(",\"entries\":");
	out_u64(i->entries);
	out_str(",\"used\":");
	out_u64(s->n);
	out_str(",\"first_tsc\":");
	out_u64(s->first);
	out_str(",\"last_tsc\":");
	out_u64(s->last);
	out_str(",\"span_cycles\":");
	out_u64(s->last - s->first);
	if (native && i->tsc_hz && s->n) {
		out_str(",\"span_ns\":");
		out_u64(tl_ticks_to_ns(s->last - s->first, i->tsc_hz));
		tl_format_wall(a, sizeof a, tl_wall_ns(&in->info, s->first));
		out_str(",\"first_wall\":");
		out_json(a);
		tl_format_wall(a, sizeof a, tl_wall_ns(&in->info, s->last));
		out_str(",\"last_wall\":");
		out_json(a);
	}
	out_str(",\"definitions\":");
	out_u64(defs);
	out_str("}\n");
}

struct info_run {
	int json;
	int problems;
};

static int info_one(const char *path, int named, void *arg)
{
	struct info_run *run = arg;
	int skipped;
	struct input *in = input_open("info", path, named, &skipped);
	struct span s;
	size_t defs;
	if (!in) {
		run->problems += !skipped;
		return 0;
	}
	scan(in, &s);
	defs = tl_reader_definitions(in->r, NULL, 0);
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
	struct info_run run = { 0, 0 };
	int rc = cli_parse_text_json("info", usage, options, argc, argv, &run.json);
	if (rc >= 0)
		return rc;
	if (optind == argc)
		return cli_usage_error("info", usage, "missing input");
	run.problems += input_walk("info", argv + optind, argc - optind, info_one, &run);
	out_flush();
	return cli_finish("info", run.problems ? EXIT_USAGE : EXIT_OK);
}
