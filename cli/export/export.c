/* export.c: `timeline export`, logs written out for the viewers people
 * already use: Chrome trace JSON (ui.perfetto.dev, chrome://tracing),
 * Perfetto's protobuf trace (ui.perfetto.dev, trace_processor), CTF 1.8
 * (babeltrace2, Trace Compass), CSV (R, pandas), and OpenTelemetry's OTLP
 * (Jaeger, Tempo, any collector). Reads the inputs, applies the time window
 * and filters (--from, --to, --last, --event, --app, --cpu, --numa), with
 * --slowest keeps only the windows around the slowest pairs among the
 * entries they keep, and feeds a writer: entries, or the spans the engine
 * pairs them into. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "export.h"
#include "out.h"
#include "stats/anopts.h"

static const char usage[] =
	"usage: timeline export --format chrome|perfetto|ctf|csv [OPTIONS] INPUT... -o OUT\n"
	"       timeline export --format otlp|otlp-json [OPTIONS] INPUT... -o OUT\n"
	"       timeline export --format otlp [OPTIONS] INPUT... --endpoint URL\n"
	"\n"
	"Writes the entries of the inputs for other tools. chrome: one Chrome\n"
	"trace JSON file (open it in ui.perfetto.dev): a process per input, a\n"
	"track per CPU, begin/end pairs as spans, other events as instants, breath\n"
	"totals as counters. perfetto: one Perfetto protobuf trace, about a\n"
	"quarter of the JSON's size (ui.perfetto.dev, trace_processor): a track\n"
	"per process and per thread, pairs as slices nested on their thread\n"
	"(overlapping ones on tracks of their own), other events as instants,\n"
	"packets/s as a counter, lost entries marked. ctf: a CTF 1.8 trace\n"
	"directory (babeltrace2, Trace Compass) with one stream per input, each\n"
	"event with its writer's vpid, procname and hostname. csv: the rows of\n"
	"dump --format csv. otlp, otlp-json: OpenTelemetry's ExportTraceServiceRequest\n"
	"(Jaeger, Tempo, a collector), in protobuf or JSON: a span per pair, nested,\n"
	"in wall-clock ns, a trace per outermost span, a resource per process.\n"
	"\n"
	"   -f, --format FMT    chrome, perfetto, ctf, csv, otlp or otlp-json (required)\n"
	"   -o, --output OUT    the file (chrome, perfetto, csv, otlp; - for standard\n"
	"                       output) or the directory (ctf) to write (required but\n"
	"                       with --endpoint)\n"
	"       --pair BEGIN=END  also make spans of these events (pull/pulled,\n"
	"                       push/pushed and breath_start/breath_end always are)\n"
	"       --slowest N     only the windows around each pair and app's N slowest\n"
	"                       pairs (from one pair's length before it to one after),\n"
	"                       so the viewer opens at them: the pairs stats --slowest\n"
	"                       lists with the same filters, found among the entries\n"
	"                       the filters keep, and the windows' entries filtered\n"
	"                       otlp: only each pair and app's N slowest outermost\n"
	"                       spans, with every span inside them\n"
	"   -p, --per UNIT      with --slowest: cycles per UNIT (default packets, or\n"
	"                       the unit the logs' pairs declare)\n"
	"       --endpoint URL  otlp: POST to the collector's URL/v1/traces (OTLP/HTTP)\n"
	"       --max-request SIZE  otlp: the bytes a request holds at most (default\n"
	"                       4M; 4K to 64M, K and M are 1024 and 1024^2)\n"
	"       --service NAME  otlp: service.name (default: each process's name)\n"
	"       --tsc-hz HZ     otlp: the TSC frequency of logs that have none (Snabb's):\n"
	"                       the last entry at the file's modification time\n"
	"   -t, --time UNIT     the unit of --from and --to: cycles (default), ns, wall\n"
	"   -e, --event GLOB    only events whose category.name matches GLOB\n"
	"       --app GLOB      only events of apps matching GLOB (app=NAME)\n"
	"   -c, --cpu LIST      only these CPUs, e.g. 0,2-5\n"
	"   -n, --numa LIST     only these NUMA nodes\n"
	"       --from T        only entries at or after T, in the --time unit\n"
	"       --to T          only entries at or before T (wall: Unix seconds)\n"
	"       --last D        only the last D (10s, 500ms) of each log\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	{ "format", required_argument, NULL, 'X' },
	{ "output", required_argument, NULL, 'o' },
	{ "pair", required_argument, NULL, 'P' },
	{ "slowest", required_argument, NULL, 'W' },
	{ "per", required_argument, NULL, 'p' },
	{ "time", required_argument, NULL, 't' },
	{ "event", required_argument, NULL, 'e' },
	{ "app", required_argument, NULL, WINDOW_APP },
	{ "last", required_argument, NULL, 'L' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "numa", required_argument, NULL, 'n' },
	{ "from", required_argument, NULL, 'F' },
	{ "to", required_argument, NULL, 'T' },
	{ "endpoint", required_argument, NULL, 'U' },
	{ "max-request", required_argument, NULL, 'M' },
	{ "service", required_argument, NULL, 'S' },
	{ "tsc-hz", required_argument, NULL, 'H' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The writers, one row each: see export.h. */
static const struct export_format *const formats[] = {
	&export_chrome,
	&export_perfetto,
	&export_ctf,
	&export_csv,
	&export_otlp,
	&export_otlp_json,
};

struct exp {
	struct view view;
	struct export x;
	const struct export_format *format;
	struct input_list inputs;
	int problems;
	int npairs;                      /* --pair rules, before the defaults */
	struct an_pair pairs[32 + 3];
	uint64_t slowest;                /* --slowest N, 0: every entry */
	const char *per;                 /* --per UNIT, NULL: packets or what the logs declare */
	struct window_of *win;           /* --slowest: the windows to keep ... */
	size_t nwin;
	int windows;                     /* ... when the writer takes entries */
	struct an *spans;                /* a writer of spans: the engine pairing them */
	size_t k;                        /* the input being read */
};

/* A window around one of the slowest pairs: input K's entries from LO to HI
 * (ticks). */
struct window_of {
	size_t k;
	uint64_t lo, hi;
};

int export_pair_role(const struct export *x, struct input *in, const char *name, char *other,
		     size_t size)
{
	size_t user = x->npairs - 3, rule, n;
	const tl_pair *d = input_pairs(in, &n);
	int r = an_pair_role(x->pairs, user, name, &rule, other, size);
	if (r == 1)
		snprintf(other, size, "%s", x->pairs[rule].end);
	for (size_t k = 0; !r && k < n; k++) {
		r = !strcmp(d[k].begin, name) ? 1 : !strcmp(d[k].end, name) ? 2 : 0;
		snprintf(other, size, "%s", r == 1 ? d[k].end : d[k].begin);
	}
	if (r)
		return r;
	r = an_pair_role(x->pairs + user, 3, name, &rule, other, size);
	if (r == 1)
		snprintf(other, size, "%s", x->pairs[user + rule].end);
	return r;
}

int export_name(char *buf, size_t size, const char *name, const tl_def *ev)
{
	int n = snprintf(buf, size, "%s", name);
	for (const char *a = ev->attrs; *a && n >= 0 && (size_t)n < size; ) {
		size_t len = strcspn(a, " "), key = strcspn(a, "=");
		int app = key == 3 && !strncmp(a, "app", 3) && key < len;
		n += snprintf(buf + n, size - (size_t)n, " %.*s", (int)(app ? len - 4 : len),
			      app ? a + 4 : a);
		a += len + strspn(a + len, " ");
	}
	return n;
}

void export_span_label(char *buf, size_t size, const struct export *x, struct input *in,
		       const char *begin, const char *end_name)
{
	char other[300];
	size_t user = x->npairs - 3, rule, n;
	const tl_pair *d = input_pairs(in, &n);
	an_pair_label(buf, size, begin, end_name);
	if (an_pair_role(x->pairs, user, begin, &rule, other, sizeof other))
		return;   /* a --pair rule's: it comes first */
	for (size_t k = 0; k < n; k++)
		if (!strcmp(d[k].begin, begin) && !strcmp(d[k].end, end_name)) {
			snprintf(buf, size, "%s", d[k].label);
			return;
		}
}

int export_span_name(char *buf, size_t size, const struct export *x, struct input *in,
		     const tl_def *ev, const char *end_name)
{
	char label[300];
	export_span_label(label, sizeof label, x, in, ev->name, end_name);
	return export_name(buf, size, label, ev);
}

void *export_grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = need < 16 ? 16 : need * 2;
	if (!(p = realloc(p, *cap * size)))
		abort();
	return p;
}

void export_clock_init(struct export_clock *c, const tl_info *info)
{
	c->info = *info;
	c->recip = 0;
	if (info->tsc_hz > 1000000000u)
		c->recip = (uint64_t)(((unsigned __int128)1000000000u << 64) / info->tsc_hz);
}

/* The engine's view of an event definition: the library's. */
static const tl_def *def_of(void *ctx, uint16_t msgid)
{
	return input_event(ctx, msgid);
}

/* Adds the windows around the slowest pairs of the rows of E to M. */
static void add_windows(struct exp *m, struct an *e)
{
	size_t n;
	struct an_row **rows = an_rows(e, &n);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < rows[i]->nslow; j++) {
			const struct an_slow *s = &rows[i]->slow[j];
			uint64_t c = s->tsc1 - s->tsc0;
			size_t k = 0;
			while (k < m->inputs.n && strcmp(m->inputs.in[k]->path, s->path))
				k++;
			if (!(m->win = realloc(m->win, (m->nwin + 1) * sizeof *m->win)))
				abort();
			m->win[m->nwin++] = (struct window_of){ k, s->tsc0 > c ? s->tsc0 - c : 0,
								s->tsc1 + c };
		}
}

/* An engine of the cycles per unit of each pair and app, in the --per
 * unit (packets, or what the logs' pairs declare), pairing as stats does
 * with export's rules; keeping each row's SLOWEST slowest pairs, and
 * handing each span to SPAN_FN (NULL: none). */
static struct an *new_engine(struct exp *m, unsigned slowest,
			     void (*span_fn)(void *, const struct an_span *))
{
	struct an_options o = { .by = 1u << AN_EVENT | 1u << AN_APP,
				.per = m->per ? m->per : "packets", .per_default = !m->per,
				.pairs = m->pairs, .npairs = (size_t)m->npairs + 3,
				.slowest = slowest, .span_fn = span_fn, .span_ctx = m };
	return an_new(&o);
}

/* Begins input K of M in engine E. */
static void engine_file(struct exp *m, struct an *e, size_t k)
{
	struct input *in = m->inputs.in[k];
	struct an_file f = { in->path, in->label, "-", "-", NULL, in->info.tsc_hz, k, 0, 0,
			     &in->info, NULL, 0, in->info.switched_off };
	f.declared = input_pairs(in, &f.ndeclared);
	an_file_begin(e, &f, def_of, in);
}

/* --slowest: reads the entries of every input that the filters keep (as
 * stats reads them: a pair counts when both its ends are kept) into an
 * engine of the cycles per unit of each pair and app, keeping the N
 * slowest, and takes their windows. */
static void find_slowest(struct exp *m)
{
	struct an *e = new_engine(m, (unsigned)m->slowest, NULL);
	m->windows = 1;
	for (size_t k = 0; k < m->inputs.n; k++) {
		struct input *in = m->inputs.in[k];
		tl_entry en;
		uint64_t t0 = 0;
		int64_t t;
		int first = 1;
		engine_file(m, e, k);
		tl_reader_rewind(in->r);
		while (tl_reader_next(in->r, &en)) {
			if (first)
				t0 = en.tsc;   /* as export_one() places the window */
			first = 0;
			if (view_takes(&m->view, in, &en, t0, &t) && an_entry(e, &en) < 0)
				break;
		}
		an_file_end(e);
	}
	add_windows(m, e);
	if (!m->nwin)
		fprintf(stderr, "timeline export: warning: --slowest %llu: no begin/end pair among "
			"the entries the filters keep, so no window to export\n",
			(unsigned long long)m->slowest);
	an_free(e);
}

/* Is entry E of input K in a window of M's (every entry without --slowest)? */
static int in_window(const struct exp *m, size_t k, const tl_entry *e)
{
	if (!m->windows)
		return 1;
	for (size_t i = 0; i < m->nwin; i++)
		if (m->win[i].k == k && e->tsc >= m->win[i].lo && e->tsc <= m->win[i].hi)
			return 1;
	return 0;
}

/* Entries of a log lost to the writer's laps or while read, since the last
 * entry kept: the numbers missing between the entries read (of ours; a
 * Snabb log's are its slots, and only a full ring says it may have lost). */
struct losses {
	uint64_t next;                   /* the number the next entry should have */
	uint64_t n, first, last;         /* lost since the last entry kept, the first, the last */
	int snabb_full;                  /* a Snabb ring full: said once, before the first */
};

/* Counts the numbers missing before entry E of IN into L. */
static void count_lost(struct losses *l, const struct input *in, const tl_entry *e)
{
	if (in->info.format != TL_FORMAT_NATIVE)
		return;
	if (e->seq > l->next) {
		if (!l->n)
			l->first = l->next;
		l->n += e->seq - l->next;
		l->last = e->seq - 1;
	}
	l->next = e->seq + 1;
}

/* Says L's losses to the writer before kept entry E of input K. */
static void say_lost(struct exp *m, struct losses *l, size_t k, const tl_entry *e)
{
	struct input *in = m->inputs.in[k];
	if (m->format->lost && (l->n || l->snabb_full))
		m->format->lost(&m->x, k, in, l->n, l->first, l->last, e);
	l->n = 0;
	l->snabb_full = 0;
}

/* The engine's span S of the input being read, to the writer of spans. */
static void to_writer(void *ctx, const struct an_span *s)
{
	struct exp *m = ctx;
	m->format->span(&m->x, m->k, m->inputs.in[m->k], s);
}

/* Entry E of input K, kept: to the writer, or into the engine of spans
 * (after a GAP, lost entries: the begins open before it are dropped). */
static void take(struct exp *m, size_t k, int gap, const tl_def *ev, const tl_entry *e, int64_t t)
{
	if (m->spans) {
		if (gap)
			an_gap(m->spans);
		if (an_entry(m->spans, e) < 0)
			abort();   /* the engine's rule: out of memory */
	}
	if (m->format->entry)
		m->format->entry(&m->x, k, m->inputs.in[k], ev, e, t);
}

/* One input through the writer. */
static void export_one(struct exp *m, size_t k)
{
	const struct export_format *f = m->format;
	struct input *in = m->inputs.in[k];
	struct losses l = { 0, 0, 0, 0, in->info.format != TL_FORMAT_NATIVE &&
			    in->info.used == in->info.entries };
	tl_entry e;
	uint64_t t0 = 0;
	int first = 1;
	m->k = k;
	if (f->file)
		f->file(&m->x, k, in);
	if (m->spans)
		engine_file(m, m->spans, k);
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &e)) {
		const tl_def *ev;
		int64_t t;
		if (first)
			t0 = e.tsc;
		first = 0;
		count_lost(&l, in, &e);
		if (in_window(m, k, &e) && view_keep(&m->view, in, &e, t0, &ev, &t) > 0) {
			int gap = l.n > 0;
			say_lost(m, &l, k, &e);
			take(m, k, gap, ev, &e, t);
		}
	}
	if (m->spans)
		an_file_end(m->spans);
	if (f->file_end)
		f->file_end(&m->x, k, in);
	m->problems += input_report_damage("export", in);
}

/* Parses SIZE, a number of bytes or of K (1024) or M (1024^2) when it ends
 * so, into *V; 0 on success. */
static int parse_size(const char *size, uint64_t *v)
{
	char num[32];
	size_t n = strlen(size);
	unsigned shift = 0;
	if (n && (size[n - 1] == 'K' || size[n - 1] == 'k'))
		shift = 10;
	if (n && (size[n - 1] == 'M' || size[n - 1] == 'm'))
		shift = 20;
	if (shift)
		n--;
	if (!n || n >= sizeof num)
		return -1;
	memcpy(num, size, n);
	num[n] = '\0';
	if (parse_u64(num, v) || *v > UINT64_MAX >> shift)
		return -1;
	*v <<= shift;
	return 0;
}

/* Parses the options into M. Returns -1 to go on with the inputs at
 * argv[optind], or the exit code to return now. */
static int parse(struct exp *m, int argc, char **argv)
{
	const char *why;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:o:p:t:e:c:n:h", options, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return cli_finish("export", EXIT_OK);
		case 'f':
		case 'X':
			m->format = NULL;
			for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
				if (!strcmp(optarg, formats[i]->name))
					m->format = formats[i];
			if (!m->format)
				return cli_usage_error("export", "--format must be chrome, perfetto, ctf, "
						       "csv, otlp or otlp-json");
			continue;
		case 'o':
			m->x.out = optarg;
			continue;
		case 'P':
			if (m->npairs == 32 || anopts_pair(&m->pairs[m->npairs], optarg))
				return cli_usage_error("export", "--pair takes BEGIN=END, e.g. rx_start=rx_end");
			m->npairs++;
			continue;
		case 'W':
			if (parse_u64(optarg, &m->slowest) || !m->slowest || m->slowest > 10000)
				return cli_usage_error("export", "--slowest takes a number of pairs from 1 "
						       "to 10000");
			continue;
		case 'U':
			m->x.endpoint = optarg;
			continue;
		case 'S':
			m->x.service = optarg;
			continue;
		case 'M':
			if (parse_size(optarg, &m->x.max_request) || m->x.max_request < 4096 ||
			    m->x.max_request > 64 << 20)
				return cli_usage_error("export", "--max-request takes a size from 4K to "
						       "64M, e.g. 4M");
			continue;
		case 'H':
			if (parse_u64(optarg, &m->x.tsc_hz) || m->x.tsc_hz < 1000 ||
			    m->x.tsc_hz > 100000000000ull)
				return cli_usage_error("export", "--tsc-hz takes ticks per second, e.g. "
						       "2100000000");
			continue;
		case 'p':
			if (!*optarg || strlen(optarg) > 60)
				return cli_usage_error("export", "--per takes an argument name such as "
						       "packets or bytes");
			m->per = optarg;
			continue;
		}
		switch (view_option(&m->view, c, optarg, &why)) {
		case 1: continue;
		case -1: return cli_usage_error("export", why);
		}
		return cli_bad_option("export", argv, c);
	}
	if (window_check(&m->view.w, &why) < 0)
		return cli_usage_error("export", why);
	if (!m->format)
		return cli_usage_error("export", "missing --format chrome|perfetto|ctf|csv|otlp|otlp-json");
	if ((m->x.endpoint || m->x.service || m->x.max_request || m->x.tsc_hz) && !m->format->span)
		return cli_usage_error("export", "--endpoint, --max-request, --service and --tsc-hz "
				       "go with -f otlp or otlp-json");
	if (m->x.endpoint && m->format != &export_otlp)
		return cli_usage_error("export", "--endpoint sends -f otlp (protobuf)");
	if (m->x.max_request && !m->x.endpoint)
		return cli_usage_error("export", "--max-request goes with --endpoint");
	if (!m->x.out && !m->x.endpoint)
		return cli_usage_error("export", "missing -o OUT");
	if (optind == argc)
		return cli_usage_error("export", "missing input");
	if (m->per && !m->slowest)
		return cli_usage_error("export", "--per goes with --slowest");
	return -1;
}

/* Opens the output (unless the writer makes a directory) and writes it. */
static void run(struct exp *m)
{
	const struct export_format *f = m->format;
	if (!f->dir && m->x.out && strcmp(m->x.out, "-") && !freopen(m->x.out, "w", stdout)) {
		cli_error("export", "%s: %s", m->x.out, strerror(errno));
		m->problems++;
		return;
	}
	if (f->begin(&m->x, m->inputs.in, m->inputs.n) < 0) {
		m->problems++;
		return;
	}
	if (f->span)
		m->spans = new_engine(m, 0, to_writer);
	for (size_t k = 0; k < m->inputs.n; k++)
		export_one(m, k);
	if (m->spans)
		an_free(m->spans);
	if (f->end && f->end(&m->x) < 0)
		m->problems++;
	out_flush();
}

/* input_open_all()'s vetting of IN for export: the view's, and a writer
 * that needs wall time refuses a log without a TSC frequency (Snabb's)
 * unless --tsc-hz gives one. */
static int vet(const struct input *in, const char *cmd, void *arg)
{
	struct exp *m = arg;
	if (!view_timed(in, cmd, &m->view))
		return 0;
	if (m->format->wall && !in->info.tsc_hz && !m->x.tsc_hz) {
		cli_error(cmd, "%s: no TSC frequency (a Snabb log), and %s needs wall time: "
			  "give it with --tsc-hz HZ", in->path, m->format->name);
		return 0;
	}
	return 1;
}

int cmd_export(int argc, char **argv)
{
	struct exp m;
	int rc;

	memset(&m, 0, sizeof m);
	if ((rc = parse(&m, argc, argv)) >= 0)
		return rc;
	for (int i = 0; i < 3; i++)
		m.pairs[m.npairs + i] = an_default_pairs[i];
	m.x.pairs = m.pairs;
	m.x.npairs = (size_t)m.npairs + 3;
	m.x.view = &m.view;
	m.view.format = FMT_CSV;
	m.view.cmd = "export";
	m.view.with_file = 1;
	m.problems += input_open_all("export", argv + optind, argc - optind, &m.inputs, vet, &m);
	m.x.wall = m.inputs.n > 0;
	for (size_t i = 0; i < m.inputs.n; i++)
		if (!m.inputs.in[i]->info.tsc_hz || m.inputs.in[i]->info.format != TL_FORMAT_NATIVE)
			m.x.wall = 0;
	m.x.slowest = m.slowest;
	m.x.per = m.per;
	if (m.slowest && !m.format->span)
		find_slowest(&m);
	if (m.inputs.n || !m.problems)   /* else nothing was read, each input said why */
		run(&m);
	free(m.win);
	m.problems += input_window_misses("export", &m.inputs, argc - optind, &m.view.w);
	view_end(&m.view, m.problems);   /* CSV: its header, when no row came before */
	out_flush();
	input_close_all(&m.inputs);
	for (int i = 0; i < m.npairs; i++) {
		free((char *)m.pairs[i].begin);
		free((char *)m.pairs[i].end);
	}
	return cli_finish("export", m.problems ? EXIT_USAGE : EXIT_OK);
}
