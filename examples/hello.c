/* hello.c: the smallest complete use of libtimeline: a toy breath loop with
 * two apps, instrumented through the generated event functions, then the
 * log read back with the reader API and printed. `make demo` runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app_events.h"
#include "engine_events.h"

#define BREATHS 20000
#define SHOWN 24

/* A toy app: a name, its message ids, and its link counters. */
struct app {
	const char *name;
	struct app_events ev;
	uint64_t inpackets, inbytes, outpackets, outbytes;
};

/* One breath: the source makes a batch, the sink takes it. */
static void breath(tl_log *log, const struct engine_events *eng, struct app *src,
		   struct app *sink, uint64_t n, uint64_t *packets, uint64_t *bytes)
{
	uint64_t batch = 1 + n % 32, size = 64 + (n * 37) % 1400;
	engine_breath_start(log, eng, n, *packets, *bytes, *bytes * 8);
	app_pull(log, &src->ev, src->inpackets, src->inbytes, src->outpackets, src->outbytes);
	src->outpackets += batch;
	src->outbytes += batch * size;
	app_pulled(log, &src->ev, src->inpackets, src->inbytes, src->outpackets, src->outbytes);
	app_push(log, &sink->ev, sink->inpackets, sink->inbytes, sink->outpackets, sink->outbytes);
	sink->inpackets += batch;
	sink->inbytes += batch * size;
	app_pushed(log, &sink->ev, sink->inpackets, sink->inbytes, sink->outpackets, sink->outbytes);
	*packets += batch;
	*bytes += batch * size;
	engine_breath_end(log, eng, n, *packets, *bytes, *bytes * 8);
	tl_breath(log);
}

/* Prints entry E as "cycles cpu/node event name=value ...". */
static void print_entry(const tl_reader *r, const tl_entry *e, uint64_t t0)
{
	const char *s = tl_reader_string(r, e->msgid);
	tl_def d;
	if (!s || tl_def_parse(s, strlen(s), &d, NULL) != TL_OK) {
		printf("%12llu  cpu %u node %u  <unknown message id %u>\n",
		       (unsigned long long)(e->tsc - t0), e->cpu, e->numa, e->msgid);
		return;
	}
	printf("%12llu  cpu %u node %u  %-20.*s", (unsigned long long)(e->tsc - t0), e->cpu,
	       e->numa, (int)d.name_len, d.name);
	if (d.attrs)
		printf(" %.*s", (int)d.attrs_len, d.attrs);
	for (unsigned i = 0; i < d.nargs; i++)
		printf(" %.*s=%llu", (int)d.args_len[i], d.args[i], (unsigned long long)e->args[i]);
	putchar('\n');
}

/* Reads the log at PATH back and prints its header and first entries. */
static int show(const char *path)
{
	tl_error err;
	tl_reader *r = tl_reader_open(path, &err);
	tl_info in;
	tl_entry e;
	uint64_t n, k = 0, t0 = 0, per_rate[10] = { 0 };
	if (!r) {
		fprintf(stderr, "hello: %s\n", err.msg);
		return 1;
	}
	tl_reader_info(r, &in);
	n = tl_reader_rewind(r);
	printf("log %s: %llu entries of %llu slots, %llu breaths, TSC %.3f GHz, pid %u on %s\n",
	       path, (unsigned long long)n, (unsigned long long)in.entries,
	       (unsigned long long)in.breaths, in.tsc_hz / 1e9, in.pid, in.host);
	while (tl_reader_next(r, &e)) {
		const char *s = tl_reader_string(r, e.msgid);
		if (k == 0)
			t0 = e.tsc;
		if (k++ < SHOWN)
			print_entry(r, &e, t0);
		if (s && s[0] >= '0' && s[0] <= '9' && s[1] == ',')
			per_rate[s[2] - '0']++;
	}
	printf("...\nentries by event rate:");
	for (int i = 0; i < 10; i++)
		if (per_rate[i])
			printf("  rate %d: %llu", i, (unsigned long long)per_rate[i]);
	printf("\n(an event of rate R is logged in 5^(R-9) of the breaths: rate 9 always,"
	       " rate 6 in 1/125, rate 5 in 1/625)\n");
	tl_reader_close(r);
	return 0;
}

int main(int argc, char **argv)
{
	tl_options o = { .entries = 1 << 16, .name = "hello" };
	struct app src = { .name = "source" }, sink = { .name = "sink" };
	struct engine_events eng;
	uint64_t packets = 0, bytes = 0;
	tl_error err;
	tl_log *log = tl_open(argc > 1 ? argv[1] : NULL, &o, &err);
	char path[1024];

	if (!log) {
		fprintf(stderr, "hello: %s (logging disabled)\n", err.msg);
		log = tl_disabled();
	}
	if (engine_events_register(log, &eng, NULL, &err) != TL_OK ||
	    app_events_register(log, &src.ev, "app=source", &err) != TL_OK ||
	    app_events_register(log, &sink.ev, "app=sink", &err) != TL_OK)
		fprintf(stderr, "hello: %s\n", err.msg);
	engine_started(log, &eng, 0, 0);
	for (uint64_t n = 1; n <= BREATHS; n++)
		breath(log, &eng, &src, &sink, n, &packets, &bytes);
	engine_stopped(log, &eng, BREATHS, packets, bytes);
	if (log == tl_disabled())
		return 1;
	snprintf(path, sizeof path, "%s", tl_path(log));
	tl_close(log);
	return show(path);
}
