/* check_read.c: the reading commands `timeline dump` and `timeline info` run
 * as a user runs them. The logs are written here with the manual clock, so
 * every timestamp, and so every expected line, follows from the entries the
 * test wrote; Snabb files are made by hand, and the Snabb fixture is checked
 * against its independent reference dump. CSV output is parsed back with a
 * small RFC 4180 reader below, JSON output with jq. */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <csv.h>
#include <zstd.h>
#include "util.h"

/* Each test gets a fresh DIR inside BASE; the runner removes BASE after each
 * test case, so a failed test (whose checked teardown does not run) leaves
 * nothing behind either. */
#define base fx_base   /* the shared fixture of tests/util.c */
#define dir fx_dir


static void teardown(void)
{
	rm_rf(dir);
	free(dir);
}


/* S with "...FMT" appended; frees S. */
static char *append(char *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *append(char *s, const char *fmt, ...)
{
	va_list ap;
	char *t, *r;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&t, fmt, ap), 0);
	va_end(ap);
	r = xasprintf("%s%s", s, t);
	free(s);
	free(t);
	return r;
}

/* Runs the built program with the shell words FMT...; returns its status. */
static int tl(char **out, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int tl(char **out, char **err, const char *fmt, ...)
{
	va_list ap;
	char *args, *cmd;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&args, fmt, ap), 0);
	va_end(ap);
	cmd = xasprintf("'%s' %s", timeline_bin(), args);
	rc = run(cmd, out, err);
	free(cmd);
	free(args);
	return rc;
}

/* Runs the shell command FMT... (jq, mostly); returns its exit status. */
static int sh(char **out, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int sh(char **out, char **err, const char *fmt, ...)
{
	va_list ap;
	char *cmd;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	rc = run(cmd, out, err);
	free(cmd);
	return rc;
}

static char *path_dup(const char *name) { return xasprintf("%s/%s", dir, name); }

/* ------------------------------------------------------------------------
 * Writing logs
 * ------------------------------------------------------------------------ */

/* The event definitions every test log holds, and what a reader must make
 * of them: the name, the attributes and the argument names. */
struct evdef {
	const char *text;
	const char *name, *attrs;
	unsigned nargs;
	const char *args[TL_MAX_ARGS];
};

enum { BREATH, PULL, PUSH, DROP, CONFIG, NDEFS };

static const struct evdef defs[NDEFS] = {
	{ "1,5|engine.breath: breath totalpackets\nOne breath of the engine.", "engine.breath", "", 2,
	  { "breath", "totalpackets" } },
	{ "2,3|app.pull app=source: packets\nAn app pulled packets.", "app.pull", "app=source", 1,
	  { "packets" } },
	{ "2,3|app.push app=sink: packets\nAn app pushed packets.", "app.push", "app=sink", 1,
	  { "packets" } },
	{ "3,9|packet.drop: length reason\nA packet was dropped.", "packet.drop", "", 2,
	  { "length", "reason" } },
	{ "0,9|engine.config:\nThe configuration changed.", "engine.config", "", 0, { NULL } },
};

/* One entry to write: timestamp, cpu, NUMA node, definition, six arguments. */
struct w {
	uint64_t tsc;
	unsigned cpu, numa, def;
	uint64_t a[TL_MAX_ARGS];
};

/* Twelve entries of every definition on CPUs 0-5 and nodes 0-2; arguments past
 * a definition's names hold values too (CSV shows all six). */
static const struct w mixed[] = {
	{ 1000, 0, 0, CONFIG, { 901, 902, 903, 904, 905, 906 } },
	{ 1100, 1, 0, BREATH, { 1, 0, 13, 14, 15, 16 } },
	{ 1250, 1, 0, PULL, { 32, 22, 23, 24, 25, 26 } },
	{ 1400, 2, 1, PUSH, { 32, 32, 33, 34, 35, 36 } },
	{ 1600, 3, 1, DROP, { 64, 2, 43, 44, 45, 46 } },
	{ 2000, 1, 0, BREATH, { 2, 32, 53, 54, 55, 56 } },
	{ 2100, 4, 2, PULL, { 7, 62, 63, 64, 65, 66 } },
	{ 2300, 5, 2, PUSH, { 7, 72, 73, 74, 75, 76 } },
	{ 2600, 2, 1, DROP, { 1500, 1, 83, 84, 85, 86 } },
	{ 3000, 1, 0, BREATH, { 3, 39, 93, 94, 95, 96 } },
	{ 3500, 0, 0, DROP, { 4294967296123ull, 3, 103, 104, 105, 106 } },
	{ 4000, 5, 2, BREATH, { 4, 39, 113, 114, 115, 116 } },
};
#define NMIXED (sizeof mixed / sizeof mixed[0])

/* Writes a log of RING entries at PATH with the manual clock at HZ ticks per
 * second, the definitions above, and the N entries E. */
static void write_log(const char *path, uint64_t ring, uint64_t hz, const struct w *e, size_t n)
{
	tl_options o = { .entries = ring, .clock = TL_CLOCK_MANUAL, .tsc_hz = hz,
			 .strings_bytes = 4096, .name = "test" };
	tl_error err;
	uint16_t ids[NDEFS];
	tl_log *log = hz == 1000000000 ? open_manual(path, ring) : tl_open(path, &o, &err);
	ck_assert_msg(log != NULL, "tl_open: %s", err.msg);
	for (int i = 0; i < NDEFS; i++)
		ck_assert_int_eq(tl_intern(log, defs[i].text, &ids[i], &err), TL_OK);
	for (size_t i = 0; i < n; i++) {
		tl_set_manual_clock(log, e[i].tsc, (uint16_t)(e[i].cpu | e[i].numa << 12));
		tl_append(log, ids[e[i].def], e[i].a[0], e[i].a[1], e[i].a[2], e[i].a[3], e[i].a[4],
			  e[i].a[5]);
	}
	tl_close(log);
}

/* N breath entries: tsc T0 + STEP * i, breath = BASE + i, on cpu i % 4, node i % 2. */
static struct w *breaths(size_t n, uint64_t t0, uint64_t step, uint64_t base_arg)
{
	struct w *e = calloc(n, sizeof *e);
	for (size_t i = 0; i < n; i++) {
		e[i].tsc = t0 + step * i;
		e[i].cpu = (unsigned)(i % 4);
		e[i].numa = (unsigned)(i % 2);
		e[i].def = BREATH;
		e[i].a[0] = base_arg + i;
		e[i].a[1] = 10 * (base_arg + i);
	}
	return e;
}

/* Nanoseconds since the epoch of TSC by the spec: anchor_realtime_ns +
 * (tsc - anchor_tsc) * 1e9 / tsc_hz. */
static uint64_t wall_ns(const tl_info *in, uint64_t tsc)
{
	ck_assert_uint_ge(tsc, in->anchor_tsc);
	return in->anchor_realtime_ns +
	       (uint64_t)((unsigned __int128)(tsc - in->anchor_tsc) * 1000000000u / in->tsc_hz);
}

/* NS since the epoch in ISO 8601 UTC with nanoseconds. */
static char *iso(uint64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000u);
	struct tm tm;
	char b[40];
	ck_assert_ptr_nonnull(gmtime_r(&sec, &tm));
	ck_assert_uint_gt(strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%S", &tm), 0);
	return xasprintf("%s.%09lluZ", b, (unsigned long long)(ns % 1000000000u));
}

/* Compresses SRC into DST with libzstd. */
static void zcompress(const char *src, const char *dst)
{
	size_t n, cap, z;
	char *data = read_file(src, &n), *buf;
	ck_assert_ptr_nonnull(data);
	cap = ZSTD_compressBound(n);
	buf = malloc(cap);
	z = ZSTD_compress(buf, cap, data, n, 3);
	ck_assert_msg(!ZSTD_isError(z), "ZSTD_compress: %s", ZSTD_getErrorName(z));
	write_file(dst, buf, z);
	free(buf);
	free(data);
}

/* A Snabb v3 slot: timestamp, cpu/node word and arguments as doubles. */
struct sslot {
	double tsc;
	uint16_t aux;
	double a[TL_MAX_ARGS];
};

static const char snabb_def[] = "1,5|engine.breath_start: breath totalpackets\nStart of a breath.";

/* Writes a Snabb v3 file of the N slots S, all of message id 0 (snabb_def). */
static void make_snabb(const char *path, const struct sslot *s, int n)
{
	size_t tlen = (sizeof snabb_def + 15) & ~(size_t)15, len = 64 + (size_t)n * 64 + tlen;
	unsigned char *b = calloc(1, len);
	uint64_t magic = 0xa3ff7223441d0001ull;
	uint16_t major = 3;
	uint32_t lb = (uint32_t)n * 64, sb = (uint32_t)tlen;
	memcpy(b, &magic, 8);
	memcpy(b + 8, &major, 2);
	memcpy(b + 12, &lb, 4);
	memcpy(b + 16, &sb, 4);
	for (int i = 0; i < n; i++) {
		unsigned char *p = b + 64 + (size_t)i * 64;
		memcpy(p, &s[i].tsc, 8);
		memcpy(p + 10, &s[i].aux, 2);
		memcpy(p + 16, s[i].a, 48);
	}
	memcpy(b + 64 + (size_t)n * 64, snabb_def, sizeof snabb_def);
	write_file(path, b, len);
	free(b);
}

/* ------------------------------------------------------------------------
 * Expected output
 * ------------------------------------------------------------------------ */

/* The text line the spec asks for entry E at time TIME, fields separated by
 * one space: time, cpu, numa, name, attributes, named arguments. */
static char *text_line(const struct w *e, const char *time)
{
	const struct evdef *d = &defs[e->def];
	char *s = xasprintf("%s %u %u %s", time, e->cpu, e->numa, d->name);
	if (*d->attrs)
		s = append(s, " %s", d->attrs);
	for (unsigned i = 0; i < d->nargs; i++)
		s = append(s, " %s=%llu", d->args[i], (unsigned long long)e->a[i]);
	return s;
}

/* The same with the time in cycles since T0. */
static char *cycles_line(const struct w *e, uint64_t t0)
{
	char t[24];
	snprintf(t, sizeof t, "%llu", (unsigned long long)(e->tsc - t0));
	return text_line(e, t);
}

struct lines {
	size_t n;
	char **v;
};

static void lines_add(struct lines *l, char *s)
{
	l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = s;
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* The lines of TEXT (each must end with '\n'), with runs of blanks squeezed to
 * one space and leading and trailing blanks removed: the text format's column
 * widths are not part of what is checked. */
static struct lines squeezed(const char *text)
{
	struct lines l = { 0, NULL };
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		char *s, *d;
		ck_assert_msg(nl != NULL, "output does not end with a newline: '%s'", p);
		s = d = strndup(p, (size_t)(nl - p));
		for (const char *q = s; *q; q++) {
			if (*q == ' ' || *q == '\t') {
				if (d != s && d[-1] != ' ')
					*d++ = ' ';
			} else {
				*d++ = *q;
			}
		}
		if (d != s && d[-1] == ' ')
			d--;
		*d = '\0';
		lines_add(&l, s);
		p = nl + 1;
	}
	return l;
}

/* Checks the text output OUT line by line against WANT. */
static void check_text(const char *out, const struct lines *want)
{
	struct lines got = squeezed(out);
	for (size_t i = 0; i < got.n && i < want->n; i++)
		ck_assert_msg(!strcmp(got.v[i], want->v[i]), "line %zu: got '%s', want '%s'", i + 1,
			      got.v[i], want->v[i]);
	ck_assert_msg(got.n == want->n, "%zu lines, want %zu; output:\n%s", got.n, want->n, out);
	lines_free(&got);
}

/* Does the list "0,2-5" hold V? */
static int list_has(const char *list, unsigned v)
{
	const char *p = list;
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (v >= a && v <= b)
			return 1;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* The filters of the spec, applied to the entries a test wrote. */
struct filt {
	const char *glob, *cpus, *numas;
	int has_from, has_to;
	uint64_t from, to;               /* cycles since the first entry */
	size_t limit;
};

/* The text lines dump must print for the N entries E with filter F. */
static struct lines expect_dump(const struct w *e, size_t n, const struct filt *f)
{
	struct lines l = { 0, NULL };
	for (size_t i = 0; i < n; i++) {
		uint64_t t = e[i].tsc - e[0].tsc;
		if (f->limit && l.n == f->limit)
			break;
		if ((f->glob && fnmatch(f->glob, defs[e[i].def].name, 0)) ||
		    (f->cpus && !list_has(f->cpus, e[i].cpu)) ||
		    (f->numas && !list_has(f->numas, e[i].numa)) || (f->has_from && t < f->from) ||
		    (f->has_to && t > f->to))
			continue;
		lines_add(&l, cycles_line(&e[i], e[0].tsc));
	}
	return l;
}

/* ------------------------------------------------------------------------
 * CSV (RFC 4180) read back
 * ------------------------------------------------------------------------ */

struct row {
	size_t n;
	char **f;
};

struct rfc_csv {
	size_t n;
	struct row *rows;
};

/* Parses TEXT: fields separated by commas, records by CRLF or LF; a quoted
 * field may hold commas, line breaks and quotes doubled. Fails the test on
 * anything else. */
static struct rfc_csv rfc_csv_parse(const char *s)
{
	struct rfc_csv c = { 0, NULL };
	while (*s) {
		struct row r = { 0, NULL };
		for (;;) {
			size_t len = 0, cap = 16;
			char *b = malloc(cap);
#define PUSH(ch)                                                \
	do {                                                    \
		if (len + 1 >= cap)                             \
			b = realloc(b, cap *= 2);               \
		b[len++] = (ch);                                \
	} while (0)
			if (*s == '"') {
				s++;
				for (;;) {
					tl_check(*s != '\0', "CSV: unterminated quoted field");
					if (*s == '"' && s[1] == '"') {
						PUSH('"');
						s += 2;
					} else if (*s == '"') {
						s++;
						break;
					} else {
						PUSH(*s++);
					}
				}
				ck_assert_msg(*s == ',' || *s == '\n' || *s == '\r' || !*s,
					      "CSV: text after a closing quote: '%.20s'", s);
			} else {
				while (*s && *s != ',' && *s != '\n' && *s != '\r') {
					tl_check(*s != '"', "CSV: quote in an unquoted field");
					PUSH(*s++);
				}
			}
#undef PUSH
			b[len] = '\0';
			r.f = realloc(r.f, (r.n + 1) * sizeof *r.f);
			r.f[r.n++] = b;
			if (*s == ',') {
				s++;
				continue;
			}
			if (*s == '\r')
				s++;
			ck_assert_msg(*s == '\n', "CSV: record does not end with a line break");
			s++;
			break;
		}
		c.rows = realloc(c.rows, (c.n + 1) * sizeof *c.rows);
		c.rows[c.n++] = r;
	}
	return c;
}

static void rfc_csv_free(struct rfc_csv *c)
{
	for (size_t i = 0; i < c->n; i++) {
		for (size_t k = 0; k < c->rows[i].n; k++)
			free(c->rows[i].f[k]);
		free(c->rows[i].f);
	}
	free(c->rows);
}

/* The columns of dump's CSV, as cli/view.c writes its header row. */
static const char *const csv_columns[] = { "file", "seq", "tsc", "time", "cpu", "numa",
					   "event", "attrs", "arg0", "arg1", "arg2", "arg3",
					   "arg4", "arg5", "argnames", "thread" };
enum { C_FILE, C_SEQ, C_TSC, C_TIME, C_CPU, C_NUMA, C_EVENT, C_ATTRS, C_ARG0, C_ARGNAMES = 14,
       C_THREAD, NCOLS };

/* Parses OUT as dump's CSV and checks its header row. */
static struct rfc_csv dump_csv(const char *out)
{
	struct rfc_csv c = rfc_csv_parse(out);
	ck_assert_uint_ge(c.n, 1);
	ck_assert_uint_eq(c.rows[0].n, NCOLS);
	for (int i = 0; i < NCOLS; i++)
		ck_assert_str_eq(c.rows[0].f[i], csv_columns[i]);
	for (size_t i = 1; i < c.n; i++)
		ck_assert_msg(c.rows[i].n == NCOLS, "CSV row %zu has %zu fields", i, c.rows[i].n);
	return c;
}

static char *u64s(uint64_t v) { return xasprintf("%llu", (unsigned long long)v); }

static void field_eq_u64(const char *field, uint64_t want, size_t row, const char *col)
{
	char *w = u64s(want);
	tl_check(!strcmp(field, w), "row %zu, %s: got '%s', want '%s'", row, col, field, w);
	free(w);
}

/* Checks CSV row R (number ROW) against entry E written at SEQ to FILE. */
static void check_csv_row(const struct row *r, size_t row, const char *file, uint64_t seq,
			  const struct w *e, uint64_t t0)
{
	const struct evdef *d = &defs[e->def];
	char *names = strdup("");
	ck_assert_str_eq(r->f[C_FILE], file);
	field_eq_u64(r->f[C_SEQ], seq, row, "seq");
	field_eq_u64(r->f[C_TSC], e->tsc, row, "tsc");
	field_eq_u64(r->f[C_TIME], e->tsc - t0, row, "time");
	field_eq_u64(r->f[C_CPU], e->cpu, row, "cpu");
	field_eq_u64(r->f[C_NUMA], e->numa, row, "numa");
	ck_assert_str_eq(r->f[C_EVENT], d->name);
	ck_assert_str_eq(r->f[C_ATTRS], d->attrs);
	for (int a = 0; a < TL_MAX_ARGS; a++)
		field_eq_u64(r->f[C_ARG0 + a], e->a[a], row, csv_columns[C_ARG0 + a]);
	for (unsigned a = 0; a < d->nargs; a++)
		names = append(names, "%s%s", a ? " " : "", d->args[a]);
	ck_assert_str_eq(r->f[C_ARGNAMES], names);
	free(names);
}

/* ------------------------------------------------------------------------
 * dump: order, wrap-around, empty slots
 * ------------------------------------------------------------------------ */

START_TEST(test_dump_of_a_wrapped_ring_prints_the_last_8_of_20_oldest_first)
{
	char *p = path_dup("wrap.timeline"), *out, *err;
	struct w *e = breaths(20, 1000, 1000, 0);
	struct lines want = { 0, NULL };
	write_log(p, 8, 1000000000, e, 20);
	for (size_t i = 12; i < 20; i++)
		lines_add(&want, cycles_line(&e[i], e[12].tsc));
	ck_assert_int_eq(tl(&out, &err, "dump '%s'", p), 0);
	ck_assert_str_eq(err, "");
	check_text(out, &want);
	/* the first line is breath 12: the oldest entry still in the ring */
	ck_assert_str_eq(want.v[0], "0 0 0 engine.breath breath=12 totalpackets=120");
	lines_free(&want);
	free(out);
	free(err);
	free(e);
	free(p);
}
END_TEST

START_TEST(test_dump_prints_every_entry_with_names_attributes_and_named_arguments)
{
	char *p = path_dup("mixed.timeline"), *out, *err;
	struct filt none = { 0 };
	struct lines want = expect_dump(mixed, NMIXED, &none);
	write_log(p, 16, 1000000000, mixed, NMIXED);   /* 4 of the 16 slots stay empty */
	ck_assert_int_eq(tl(&out, &err, "dump '%s'", p), 0);
	ck_assert_str_eq(err, "");
	ck_assert_uint_eq(want.n, 12);
	check_text(out, &want);
	ck_assert_str_eq(want.v[2], "250 1 0 app.pull app=source packets=32");
	ck_assert_str_eq(want.v[4], "600 3 1 packet.drop length=64 reason=2");
	ck_assert_str_eq(want.v[0], "0 0 0 engine.config");
	lines_free(&want);
	free(out);
	free(err);
	free(p);
}
END_TEST

START_TEST(test_dump_of_logs_without_entries_prints_nothing_and_exits_0)
{
	char *p = path_dup("empty.timeline"), *out, *err;
	write_log(p, 16, 1000000000, NULL, 0);
	ck_assert_int_eq(tl(&out, &err, "dump '%s'", p), 0);
	ck_assert_str_eq(out, "");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "dump --format csv '%s'", p), 0);
	ck_assert_str_eq(out, "file,seq,tsc,time,cpu,numa,event,attrs,arg0,arg1,arg2,arg3,arg4,arg5,"
			      "argnames,thread\n");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	free(p);
}
END_TEST

START_TEST(test_numbers_print_exactly_at_every_power_of_ten)
{
	/* 10^k - 1, 10^k and 10^k + 1 for k = 0..19, 0, 2^64 - 1 and a few
	 * more: every digit count and both sides of each, six to an entry */
	uint64_t v[66], p10 = 1;
	char *p = path_dup("digits.timeline"), *out, *err, *want = xasprintf("%s", ""), *t;
	tl_log *log = open_manual(p, 16);
	uint16_t id;
	int n = 0;
	for (int k = 0; k < 20; k++, p10 *= 10) {
		v[n++] = p10 - 1;
		v[n++] = p10;
		v[n++] = p10 + 1;
	}
	v[n++] = 0;
	v[n++] = UINT64_MAX;
	v[n++] = 12345678901234567890ull;
	v[n++] = 100000000;
	v[n++] = 99999999;
	v[n++] = 1234567;
	ck_assert_int_eq(n, 66);
	ck_assert_int_eq(tl_intern(log, "4,6|n.six: a b c d e f", &id, NULL), TL_OK);
	for (int i = 0; i < n; i += 6) {
		tl_set_manual_clock(log, 1000 + (uint64_t)i, 0);
		tl_append(log, id, v[i], v[i + 1], v[i + 2], v[i + 3], v[i + 4], v[i + 5]);
		t = xasprintf("%s\"%s\",%d,%d,%d,0,0,\"n.six\",\"\",%llu,%llu,%llu,%llu,%llu,%llu,"
			      "\"a b c d e f\",0\n", want, p, i / 6, 1000 + i, i,
			      (unsigned long long)v[i], (unsigned long long)v[i + 1],
			      (unsigned long long)v[i + 2], (unsigned long long)v[i + 3],
			      (unsigned long long)v[i + 4], (unsigned long long)v[i + 5]);
		free(want);
		want = t;
	}
	tl_close(log);
	ck_assert_int_eq(tl(&out, &err, "dump --format csv '%s'", p), 0);
	ck_assert_ptr_nonnull(strchr(out, '\n'));
	ck_assert_str_eq(strchr(out, '\n') + 1, want);
	free(out);
	free(err);
	free(want);
	free(p);
}
END_TEST

/* Three definitions whose ids share one set of the reading side's cache
 * of recent definitions (cli/input.h: 32 sets of 2 by id % 32), used in
 * turn: every line must still name its own event. */
START_TEST(test_dump_names_events_whose_ids_share_a_cache_set)
{
	char *p = path_dup("sets.timeline"), *out, *err, *want = xasprintf("%s", ""), *t;
	tl_log *log = open_manual(p, 64);
	char name[3][16];
	uint16_t id[3];
	int k = 0;
	snprintf(name[0], sizeof name[0], "c.a");
	ck_assert_int_eq(tl_intern(log, "4,5|c.a: x", &id[0], NULL), TL_OK);
	/* new definitions until two more land in id[0]'s set; the others stay
	 * unused */
	for (int i = 1; i < 3; k++) {
		char def[32];
		snprintf(name[i], sizeof name[i], "c.%d", k);
		snprintf(def, sizeof def, "4,5|%s: x", name[i]);
		ck_assert_int_eq(tl_intern(log, def, &id[i], NULL), TL_OK);
		i += id[i] % 32 == id[0] % 32;
	}
	static const int order[] = { 0, 1, 2, 0, 1, 2, 1, 0, 0, 2, 2, 1, 0 };
	for (int i = 0; i < (int)(sizeof order / sizeof order[0]); i++) {
		tl_set_manual_clock(log, 100 + (uint64_t)i, 0);
		tl_append(log, id[order[i]], (uint64_t)i, 0, 0, 0, 0, 0);
		t = xasprintf("%s%14d   0  0  %s x=%d\n", want, i, name[order[i]], i);
		free(want);
		want = t;
	}
	tl_close(log);
	ck_assert_int_eq(tl(&out, &err, "dump '%s'", p), 0);
	ck_assert_str_eq(out, want);
	free(out);
	free(err);
	free(want);
	free(p);
}
END_TEST

START_TEST(test_dump_of_64_bit_arguments_is_exact_in_every_format)
{
	const struct w e[1] = { { 5, 7, 3, DROP, { UINT64_MAX, (1ull << 53) + 1, 0, 0, 0, UINT64_MAX - 1 } } };
	char *p = path_dup("big.timeline"), *out, *err;
	struct rfc_csv c;
	write_log(p, 4, 1000000000, e, 1);
	ck_assert_int_eq(tl(&out, &err, "dump '%s'", p), 0);
	{
		struct lines want = { 0, NULL };
		lines_add(&want, strdup("0 7 3 packet.drop length=18446744073709551615 reason=9007199254740993"));
		check_text(out, &want);
		lines_free(&want);
	}
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "dump --format csv '%s'", p), 0);
	c = dump_csv(out);
	ck_assert_uint_eq(c.n, 2);
	check_csv_row(&c.rows[1], 1, p, 0, &e[0], 5);
	rfc_csv_free(&c);
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "dump --format json '%s'", p), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"length\":18446744073709551615"));
	ck_assert_ptr_nonnull(strstr(out, "\"reason\":9007199254740993"));
	free(out);
	free(err);
	free(p);
}
END_TEST

/* ------------------------------------------------------------------------
 * dump: filters
 * ------------------------------------------------------------------------ */

/* Dumps the mixed log with ARGS and checks the lines against the spec's
 * filter F, and their number against COUNT; filters that keep none of
 * its entries say so (ARGS being then all filters, as the line gives them)
 * and exit 2. */
static void check_filter(const char *args, const struct filt *f, size_t count)
{
	char *p = path_dup("mixed.timeline"), *out, *err;
	struct lines want = expect_dump(mixed, NMIXED, f);
	write_log(p, 16, 1000000000, mixed, NMIXED);
	ck_assert_msg(want.n == count, "the filter keeps %zu entries, the test says %zu", want.n,
		      count);
	ck_assert_int_eq(tl(&out, &err, "dump %s '%s'", args, p), count ? 0 : 2);
	if (count)
		ck_assert_str_eq(err, "");
	else
		ck_assert_str_eq(err, test_str("timeline dump: %s keeps none of the %d entries of %s\n",
					       args, (int)NMIXED, p));
	check_text(out, &want);
	lines_free(&want);
	free(out);
	free(err);
	free(p);
}

START_TEST(test_dump_event_glob_keeps_only_matching_category_names)
{
	struct filt app = { .glob = "app.*" }, engine = { .glob = "engine.*" },
		    pull = { .glob = "app.pu?l" }, none = { .glob = "nomatch.*" },
		    attrs = { .glob = "app.pull app=source" };
	check_filter("--event 'app.*'", &app, 4);
	check_filter("--event 'engine.*'", &engine, 5);
	check_filter("-e 'app.pu?l'", &pull, 2);
	check_filter("--event 'nomatch.*'", &none, 0);
	/* the glob sees category.name only, not the attributes */
	check_filter("--event 'app.pull app=source'", &attrs, 0);
}
END_TEST

START_TEST(test_dump_cpu_list_keeps_only_those_cpus)
{
	struct filt one = { .cpus = "1" }, list = { .cpus = "0,2-3" }, all = { .cpus = "0-5" },
		    none = { .cpus = "6-4095" };
	check_filter("--cpu 1", &one, 4);
	check_filter("--cpu 0,2-3", &list, 5);
	check_filter("-c 0-5", &all, 12);
	check_filter("--cpu 6-4095", &none, 0);
}
END_TEST

START_TEST(test_dump_numa_list_keeps_only_those_nodes)
{
	struct filt two = { .numas = "2" }, list = { .numas = "0,2" }, range = { .numas = "1-2" };
	check_filter("--numa 2", &two, 3);
	check_filter("--numa 0,2", &list, 9);
	check_filter("-n 1-2", &range, 6);
}
END_TEST

START_TEST(test_dump_from_and_to_keep_an_inclusive_window_in_cycles)
{
	struct filt win = { .has_from = 1, .from = 600, .has_to = 1, .to = 1100 },
		    from = { .has_from = 1, .from = 2000 }, to = { .has_to = 1, .to = 250 },
		    point = { .has_from = 1, .from = 1300, .has_to = 1, .to = 1300 };
	check_filter("--from 600 --to 1100", &win, 3);
	check_filter("--from 2000", &from, 3);
	check_filter("--to 250", &to, 3);
	check_filter("--from 1300 --to 1300", &point, 1);
}
END_TEST

START_TEST(test_dump_limit_stops_after_n_entries)
{
	struct filt five = { .limit = 5 }, more = { .limit = 100 }, one = { .limit = 1 };
	check_filter("--limit 5", &five, 5);
	check_filter("-l 1", &one, 1);
	check_filter("--limit 100", &more, 12);
}
END_TEST

START_TEST(test_dump_filters_combine_and_limit_counts_printed_entries)
{
	struct filt a = { .glob = "engine.*", .cpus = "1", .has_from = 1, .from = 500 },
		    b = { .glob = "engine.*", .cpus = "1", .has_from = 1, .from = 500, .limit = 1 },
		    c = { .glob = "packet.*", .numas = "1" },
		    d = { .glob = "packet.*", .numas = "1", .cpus = "3" },
		    e = { .cpus = "1-5", .numas = "0,2", .has_to = 1, .to = 2000, .limit = 3 },
		    f = { .glob = "*", .cpus = "0-5", .numas = "0-2" };
	check_filter("--event 'engine.*' --cpu 1 --from 500", &a, 2);
	check_filter("--event 'engine.*' --cpu 1 --from 500 --limit 1", &b, 1);
	check_filter("--numa 1 --event 'packet.*'", &c, 2);
	check_filter("--numa 1 --event 'packet.*' --cpu 3", &d, 1);
	check_filter("--cpu 1-5 --numa 0,2 --to 2000 --limit 3", &e, 3);
	check_filter("--event '*' --cpu 0-5 --numa 0-2", &f, 12);
}
END_TEST

START_TEST(test_dump_limit_spans_several_files)
{
	char *a = path_dup("a.timeline"), *b = path_dup("b.timeline"), *out, *err;
	struct w *ea = breaths(5, 100, 10, 100), *eb = breaths(5, 5000, 30, 200);
	struct lines want = { 0, NULL };
	write_log(a, 8, 1000000000, ea, 5);
	write_log(b, 8, 1000000000, eb, 5);
	for (size_t i = 0; i < 5; i++)
		lines_add(&want, cycles_line(&ea[i], ea[0].tsc));
	for (size_t i = 0; i < 2; i++)   /* time counts from b's own first entry */
		lines_add(&want, cycles_line(&eb[i], eb[0].tsc));
	ck_assert_int_eq(tl(&out, &err, "dump --limit 7 '%s' '%s'", a, b), 0);
	ck_assert_str_eq(err, "");
	check_text(out, &want);
	free(out);
	free(err);
	/* the same through a directory holding both */
	ck_assert_int_eq(tl(&out, &err, "dump --limit 7 '%s'", dir), 0);
	ck_assert_str_eq(err, "");
	check_text(out, &want);
	free(out);
	free(err);
	/* a limit reached inside the first file prints nothing of the second */
	lines_free(&want);
	for (size_t i = 0; i < 3; i++)
		lines_add(&want, cycles_line(&ea[i], ea[0].tsc));
	ck_assert_int_eq(tl(&out, &err, "dump --limit 3 '%s' '%s'", a, b), 0);
	ck_assert_str_eq(err, "");
	check_text(out, &want);
	lines_free(&want);
	free(out);
	free(err);
	free(ea);
	free(eb);
	free(a);
	free(b);
}
END_TEST

/* ------------------------------------------------------------------------
 * dump: formats parsed back
 * ------------------------------------------------------------------------ */

START_TEST(test_dump_csv_parses_back_to_the_entries_written_field_by_field)
{
	/* a file name that needs quoting in CSV */
	char *p = path_dup("we,ird \"name\".timeline"), *out, *err;
	struct rfc_csv c;
	write_log(p, 16, 1000000000, mixed, NMIXED);
	ck_assert_int_eq(tl(&out, &err, "dump --format csv '%s'", p), 0);
	ck_assert_str_eq(err, "");
	c = dump_csv(out);
	ck_assert_uint_eq(c.n, 1 + NMIXED);
	for (size_t i = 0; i < NMIXED; i++)
		check_csv_row(&c.rows[1 + i], 1 + i, p, i, &mixed[i], mixed[0].tsc);
	rfc_csv_free(&c);
	free(out);
	free(err);
	/* filters apply to CSV too, and the header row comes once */
	ck_assert_int_eq(tl(&out, &err, "dump -f csv --cpu 1 '%s' '%s'", p, p), 0);
	c = dump_csv(out);
	ck_assert_uint_eq(c.n, 1 + 8);
	for (size_t k = 0, i = 0; k < 2; k++)
		for (size_t j = 0; j < NMIXED; j++)
			if (mixed[j].cpu == 1) {
				check_csv_row(&c.rows[1 + i], 1 + i, p, j, &mixed[j], mixed[0].tsc);
				i++;
			}
	rfc_csv_free(&c);
	free(out);
	free(err);
	free(p);
}
END_TEST

START_TEST(test_dump_json_is_one_object_per_line_and_parses_back_with_jq)
{
	char *p = path_dup("we,ird \"name\".timeline"), *j = path_dup("out.json"), *out, *err;
	struct lines want = { 0, NULL };
	tl_info in;
	write_log(p, 16, 1000000000, mixed, NMIXED);
	in = info_at(p);
	ck_assert_int_eq(tl(&out, &err, "dump --format json --time wall '%s'", p), 0);
	ck_assert_str_eq(err, "");
	write_file(j, out, strlen(out));
	free(out);
	free(err);
	/* every line on its own is one JSON object */
	ck_assert_int_eq(sh(&out, &err, "n=0; while IFS= read -r l; do n=$((n+1)); "
				       "printf '%%s' \"$l\" | jq -e 'type == \"object\"' >/dev/null "
				       "|| exit 1; done < '%s'; echo $n", j), 0);
	ck_assert_str_eq(out, "12\n");
	free(out);
	free(err);
	ck_assert_int_eq(sh(&out, &err, "jq -r '[.file, .seq, .tsc, .time, .cpu, .numa, .event, .attrs, "
				       "(.args | to_entries | map(.key + \"=\" + (.value | tostring)) "
				       "| join(\" \"))] | map(tostring) | join(\"|\")' '%s'", j), 0);
	ck_assert_str_eq(err, "");
	for (size_t i = 0; i < NMIXED; i++) {
		const struct w *e = &mixed[i];
		const struct evdef *d = &defs[e->def];
		char *t = iso(wall_ns(&in, e->tsc));
		char *s = xasprintf("%s|%zu|%llu|%s|%u|%u|%s|%s|", p, i, (unsigned long long)e->tsc, t,
				    e->cpu, e->numa, d->name, d->attrs);
		for (unsigned a = 0; a < d->nargs; a++)
			s = append(s, "%s%s=%llu", a ? " " : "", d->args[a], (unsigned long long)e->a[a]);
		lines_add(&want, s);
		free(t);
	}
	check_text(out, &want);   /* no field holds a blank: squeezing changes nothing */
	lines_free(&want);
	free(out);
	free(err);
	free(j);
	free(p);
}
END_TEST

/* At 2.5 GHz: the first entry at 5e9 cycles, then 1 ms apart, then one 4e18
 * cycles later (delta * 1e9 does not fit 64 bits). Deltas are multiples of 5
 * cycles, so the nanoseconds are exact. */
static const struct w timed[] = {
	{ 5000000000ull, 0, 0, BREATH, { 1, 10 } },
	{ 5002500000ull, 1, 0, BREATH, { 2, 20 } },
	{ 5005000000ull, 2, 1, BREATH, { 3, 30 } },
	{ 5007500000ull, 3, 1, BREATH, { 4, 40 } },
	{ 5010000000ull, 0, 0, DROP, { 64, 1 } },
	{ 4000000005000000000ull, 1, 0, BREATH, { 6, 60 } },
};
#define NTIMED (sizeof timed / sizeof timed[0])
#define TIMED_HZ 2500000000ull

START_TEST(test_dump_json_time_is_a_number_in_cycles_and_ns)
{
	char *p = path_dup("mixed.timeline"), *j = path_dup("out.json"), *out, *err;
	char *want = strdup("");
	write_log(p, 16, 1000000000, mixed, NMIXED);
	ck_assert_int_eq(tl(&out, &err, "dump -f json --event 'app.*' '%s'", p), 0);
	write_file(j, out, strlen(out));
	free(out);
	free(err);
	ck_assert_int_eq(sh(&out, &err, "jq -r '.time | [type, tostring] | join(\" \")' '%s'", j), 0);
	for (size_t i = 0; i < NMIXED; i++)
		if (!fnmatch("app.*", defs[mixed[i].def].name, 0))
			want = append(want, "number %llu\n",
				      (unsigned long long)(mixed[i].tsc - mixed[0].tsc));
	ck_assert_str_eq(out, want);
	free(out);
	free(err);
	free(want);
	/* in ns, at 2.5 GHz: ns = cycles * 2 / 5 */
	free(p);
	p = path_dup("timed.timeline");
	write_log(p, 8, TIMED_HZ, timed, NTIMED);
	ck_assert_int_eq(tl(&out, &err, "dump -f json --time ns '%s'", p), 0);
	write_file(j, out, strlen(out));
	/* jq reads numbers as doubles: the last time, beyond 2^53, is checked as text */
	want = xasprintf("\"time\":%llu,",
			 (unsigned long long)((unsigned __int128)(timed[NTIMED - 1].tsc - timed[0].tsc) *
					      2 / 5));
	ck_assert_msg(strstr(out, want) != NULL, "no %s in:\n%s", want, out);
	free(want);
	free(out);
	free(err);
	ck_assert_int_eq(sh(&out, &err, "jq -r '.time | [type, tostring] | join(\" \")' '%s'", j), 0);
	want = strdup("");
	for (size_t i = 0; i + 1 < NTIMED; i++)
		want = append(want, "number %llu\n",
			      (unsigned long long)((timed[i].tsc - timed[0].tsc) * 2 / 5));
	ck_assert_int_eq(strncmp(out, want, strlen(want)), 0);
	free(out);
	free(err);
	free(want);
	free(j);
	free(p);
}
END_TEST

START_TEST(test_dump_of_a_zstd_copy_is_identical_to_the_original)
{
	char *p = path_dup("mixed.timeline"), *z = path_dup("copy.bin"), *o1, *o2, *e1, *e2;
	struct rfc_csv a, b;
	write_log(p, 16, 1000000000, mixed, NMIXED);
	zcompress(p, z);   /* named .bin: recognized by content */
	ck_assert_int_eq(tl(&o1, &e1, "dump '%s'", p), 0);
	ck_assert_int_eq(tl(&o2, &e2, "dump '%s'", z), 0);
	ck_assert_str_eq(e2, "");
	ck_assert_uint_gt(strlen(o1), 0);
	ck_assert_str_eq(o2, o1);
	free(o1);
	free(o2);
	free(e1);
	free(e2);
	ck_assert_int_eq(tl(&o1, &e1, "dump -f csv --time wall '%s'", p), 0);
	ck_assert_int_eq(tl(&o2, &e2, "dump -f csv --time wall '%s'", z), 0);
	a = dump_csv(o1);
	b = dump_csv(o2);
	ck_assert_uint_eq(a.n, 1 + NMIXED);
	ck_assert_uint_eq(b.n, a.n);
	for (size_t i = 1; i < a.n; i++) {
		ck_assert_str_eq(a.rows[i].f[C_FILE], p);
		ck_assert_str_eq(b.rows[i].f[C_FILE], z);
		for (int k = 1; k < NCOLS; k++)
			ck_assert_str_eq(b.rows[i].f[k], a.rows[i].f[k]);
	}
	rfc_csv_free(&a);
	rfc_csv_free(&b);
	free(o1);
	free(o2);
	free(e1);
	free(e2);
	free(z);
	free(p);
}
END_TEST

/* ------------------------------------------------------------------------
 * dump: time units
 * ------------------------------------------------------------------------ */

START_TEST(test_dump_time_ns_converts_cycles_since_the_first_entry)
{
	char *p = path_dup("timed.timeline"), *out, *err;
	struct lines want = { 0, NULL };
	write_log(p, 8, TIMED_HZ, timed, NTIMED);
	for (size_t i = 0; i < NTIMED; i++) {
		unsigned __int128 ns = (unsigned __int128)(timed[i].tsc - timed[0].tsc) * 1000000000u;
		char t[24];
		ck_assert(ns % TIMED_HZ == 0);
		snprintf(t, sizeof t, "%llu", (unsigned long long)(ns / TIMED_HZ));
		lines_add(&want, text_line(&timed[i], t));
	}
	ck_assert_str_eq(want.v[1], "1000000 1 0 engine.breath breath=2 totalpackets=20");
	ck_assert_str_eq(want.v[5], "1600000000000000000 1 0 engine.breath breath=6 totalpackets=60");
	ck_assert_int_eq(tl(&out, &err, "dump --time ns '%s'", p), 0);
	ck_assert_str_eq(err, "");
	check_text(out, &want);
	free(out);
	free(err);
	/* --from and --to are in ns too, both ends included */
	{
		struct lines win = { 0, NULL };
		for (size_t i = 1; i <= 3; i++)
			lines_add(&win, strdup(want.v[i]));
		ck_assert_int_eq(tl(&out, &err, "dump -t ns --from 1000000 --to 3000000 '%s'", p), 0);
		check_text(out, &win);
		lines_free(&win);
		free(out);
		free(err);
	}
	lines_free(&want);
	free(p);
}
END_TEST

START_TEST(test_dump_time_wall_is_the_header_anchor_plus_elapsed_ns)
{
	char *p = path_dup("timed.timeline"), *q = path_dup("mixed.timeline"), *out, *err;
	struct lines want = { 0, NULL };
	tl_info in;
	write_log(p, 8, TIMED_HZ, timed, NTIMED);
	in = info_at(p);
	ck_assert_uint_eq(in.tsc_hz, TIMED_HZ);
	for (size_t i = 0; i < NTIMED; i++) {
		char *t = iso(wall_ns(&in, timed[i].tsc));
		lines_add(&want, text_line(&timed[i], t));
		free(t);
	}
	ck_assert_int_eq(tl(&out, &err, "dump --time wall '%s'", p), 0);
	ck_assert_str_eq(err, "");
	check_text(out, &want);
	lines_free(&want);
	free(out);
	free(err);
	/* at 1 GHz a cycle is a nanosecond */
	write_log(q, 16, 1000000000, mixed, NMIXED);
	in = info_at(q);
	for (size_t i = 0; i < NMIXED; i++) {
		char *t = iso(in.anchor_realtime_ns + (mixed[i].tsc - in.anchor_tsc));
		lines_add(&want, text_line(&mixed[i], t));
		free(t);
	}
	ck_assert_int_eq(tl(&out, &err, "dump -t wall '%s'", q), 0);
	ck_assert_str_eq(err, "");
	check_text(out, &want);
	lines_free(&want);
	free(out);
	free(err);
	free(p);
	free(q);
}
END_TEST

START_TEST(test_dump_wall_window_is_in_unix_seconds)
{
	char *p = path_dup("timed.timeline"), *out, *err;
	struct lines want = { 0, NULL };
	tl_info in;
	uint64_t from, to;
	write_log(p, 8, TIMED_HZ, timed, NTIMED);
	in = info_at(p);
	/* half a millisecond before entry 1 to half a millisecond after entry 3 */
	from = wall_ns(&in, timed[1].tsc) - 500000;
	to = wall_ns(&in, timed[3].tsc) + 500000;
	for (size_t i = 1; i <= 3; i++) {
		char *t = iso(wall_ns(&in, timed[i].tsc));
		lines_add(&want, text_line(&timed[i], t));
		free(t);
	}
	ck_assert_int_eq(tl(&out, &err, "dump --time wall --from %llu.%09llu --to %llu.%09llu '%s'",
			    (unsigned long long)(from / 1000000000), (unsigned long long)(from % 1000000000),
			    (unsigned long long)(to / 1000000000), (unsigned long long)(to % 1000000000),
			    p), 0);
	ck_assert_str_eq(err, "");
	check_text(out, &want);
	lines_free(&want);
	free(out);
	free(err);
	free(p);
}
END_TEST

START_TEST(test_dump_time_ns_or_wall_of_a_snabb_file_is_an_error_others_still_dumped)
{
	const struct sslot s[2] = { { 100, 0, { 1, 2 } }, { 200, 1, { 3, 4 } } };
	char *sp = path_dup("engine.snabb"), *p = path_dup("timed.timeline"), *out, *err, *want;
	struct lines good = { 0, NULL };
	make_snabb(sp, s, 2);
	write_log(p, 8, TIMED_HZ, timed, 2);
	lines_add(&good, text_line(&timed[0], "0"));
	lines_add(&good, text_line(&timed[1], "1000000"));
	ck_assert_int_eq(tl(&out, &err, "dump --time ns '%s' '%s'", sp, p), 2);
	want = xasprintf("timeline dump: %s: no TSC frequency in this Snabb file: use --time cycles\n", sp);
	ck_assert_str_eq(err, want);
	check_text(out, &good);
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "dump --time wall '%s'", sp), 2);
	ck_assert_str_eq(err, want);
	ck_assert_str_eq(out, "");
	free(out);
	free(err);
	free(want);
	lines_free(&good);
	free(sp);
	free(p);
}
END_TEST

/* ------------------------------------------------------------------------
 * dump: Snabb files
 * ------------------------------------------------------------------------ */

START_TEST(test_dump_of_snabb_files_orders_a_wrapped_ring_skips_unused_slots_and_reads_zstd)
{
	struct sslot wrap[8], part[8];
	char *wp = path_dup("wrapped.snabb"), *pp = path_dup("partial.snabb"), *zp = path_dup("wz");
	char *out, *err, *out2, *err2;
	struct lines want = { 0, NULL }, wantp = { 0, NULL };
	/* written k = 0..7 into slots 3..7 then 0..2: the newest is slot 2 */
	memset(wrap, 0, sizeof wrap);
	memset(part, 0, sizeof part);
	for (int k = 0; k < 8; k++) {
		struct sslot *x = &wrap[(k + 3) % 8];
		x->tsc = 100.0 * (k + 1);
		x->aux = (uint16_t)(k % 4 | (k % 2) << 12);
		x->a[0] = k;
		x->a[1] = 10 * k;
		lines_add(&want, xasprintf("%d %d %d engine.breath_start breath=%d totalpackets=%d",
					   100 * k, k % 4, k % 2, k, 10 * k));
	}
	for (int k = 0; k < 5; k++) {   /* slots 5..7 never written: timestamp 0 */
		part[k].tsc = 1000.0 + 7 * k;
		part[k].aux = (uint16_t)(2 | 1 << 12);
		part[k].a[0] = 50 + k;
		lines_add(&wantp, xasprintf("%d 2 1 engine.breath_start breath=%d totalpackets=0", 7 * k,
					    50 + k));
	}
	make_snabb(wp, wrap, 8);
	make_snabb(pp, part, 8);
	zcompress(wp, zp);
	ck_assert_int_eq(tl(&out, &err, "dump '%s'", wp), 0);
	ck_assert_str_eq(err, "");
	check_text(out, &want);
	ck_assert_int_eq(tl(&out2, &err2, "dump '%s'", zp), 0);
	ck_assert_str_eq(err2, "");
	ck_assert_str_eq(out2, out);
	free(out);
	free(err);
	free(out2);
	free(err2);
	ck_assert_int_eq(tl(&out, &err, "dump '%s'", pp), 0);
	ck_assert_str_eq(err, "");
	check_text(out, &wantp);
	free(out);
	free(err);
	lines_free(&want);
	lines_free(&wantp);
	free(wp);
	free(pp);
	free(zp);
}
END_TEST

static const char *fixture(const char *name)
{
	static char p[4096];
	const char *f = getenv("TIMELINE_FIXTURES");
	snprintf(p, sizeof p, "%s/snabb-v3/%s", f && *f ? f : "tests/fixtures", name);
	return p;
}

/* The reference dump's E lines: slot, tsc, cpu, numa, args, first line. */
struct ref {
	size_t n;
	char *text;
	char **slot, **tsc, **cpu, **numa, *(*args)[6], **def;
	size_t strings;
};

static struct ref load_ref(void)
{
	char *refp = path_dup("ref.txt"), *save = NULL;
	struct ref r;
	memset(&r, 0, sizeof r);
	unzstd(fixture("engine-short.decoded.txt.zst"), refp);
	r.text = read_file(refp, NULL);
	ck_assert_ptr_nonnull(r.text);
	for (char *line = strtok_r(r.text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[16];
		int n = 0;
		if (line[0] == 'S')
			r.strings++;
		if (line[0] != 'E')
			continue;
		for (char *p = line, *t; n < 16 && (t = strsep(&p, "\t"));)
			f[n++] = t;
		ck_assert_int_eq(n, 15);
		r.slot = realloc(r.slot, (r.n + 1) * sizeof *r.slot);
		r.tsc = realloc(r.tsc, (r.n + 1) * sizeof *r.tsc);
		r.cpu = realloc(r.cpu, (r.n + 1) * sizeof *r.cpu);
		r.numa = realloc(r.numa, (r.n + 1) * sizeof *r.numa);
		r.args = realloc(r.args, (r.n + 1) * sizeof *r.args);
		r.def = realloc(r.def, (r.n + 1) * sizeof *r.def);
		r.slot[r.n] = f[1];
		r.tsc[r.n] = f[2];
		r.cpu[r.n] = f[5];
		r.numa[r.n] = f[6];
		for (int a = 0; a < 6; a++)
			r.args[r.n][a] = f[8 + a];
		r.def[r.n] = f[14];
		r.n++;
	}
	free(refp);
	return r;
}

static void ref_free(struct ref *r)
{
	free(r->text);
	free(r->slot);
	free(r->tsc);
	free(r->cpu);
	free(r->numa);
	free(r->args);
	free(r->def);
}

/* A %.17g field of the reference as the whole number it holds. */
static uint64_t whole(const char *s)
{
	char *end;
	double d = strtod(s, &end);
	tl_check(*end == '\0' && d >= 0 && d == (double)(uint64_t)d, "'%s' is not a whole number", s);
	return (uint64_t)d;
}

START_TEST(test_dump_csv_of_the_snabb_fixture_matches_the_reference_dump)
{
	struct ref r = load_ref();
	const char *zst = fixture("engine-short.events.timeline.zst");
	char *out, *err;
	struct rfc_csv c;
	uint64_t t0;
	ck_assert_uint_eq(r.n, 2577);
	ck_assert_int_eq(tl(&out, &err, "dump --format csv '%s'", zst), 0);
	ck_assert_str_eq(err, "");
	c = dump_csv(out);
	ck_assert_uint_eq(c.n, 1 + r.n);
	t0 = whole(r.tsc[0]);
	for (size_t i = 0; i < r.n; i++) {
		const struct row *row = &c.rows[1 + i];
		/* "L,R|category.name[ attrs]:..." */
		const char *name = strchr(r.def[i], '|') + 1;
		size_t nlen = strcspn(name, " :");
		const char *attrs = name[nlen] == ' ' ? name + nlen + 1 : "";
		size_t alen = strcspn(attrs, ":");
		ck_assert_str_eq(row->f[C_FILE], zst);
		field_eq_u64(row->f[C_SEQ], whole(r.slot[i]), i + 1, "seq");
		field_eq_u64(row->f[C_TSC], whole(r.tsc[i]), i + 1, "tsc");
		field_eq_u64(row->f[C_TIME], whole(r.tsc[i]) - t0, i + 1, "time");
		ck_assert_str_eq(row->f[C_CPU], r.cpu[i]);
		ck_assert_str_eq(row->f[C_NUMA], r.numa[i]);
		ck_assert_msg(strlen(row->f[C_EVENT]) == nlen && !strncmp(row->f[C_EVENT], name, nlen),
			      "row %zu: event '%s', reference '%s'", i + 1, row->f[C_EVENT], r.def[i]);
		ck_assert_msg(strlen(row->f[C_ATTRS]) == alen && !strncmp(row->f[C_ATTRS], attrs, alen),
			      "row %zu: attrs '%s', reference '%s'", i + 1, row->f[C_ATTRS], r.def[i]);
		for (int a = 0; a < 6; a++)
			field_eq_u64(row->f[C_ARG0 + a], whole(r.args[i][a]), i + 1, csv_columns[C_ARG0 + a]);
	}
	rfc_csv_free(&c);
	ref_free(&r);
	free(out);
	free(err);
}
END_TEST

START_TEST(test_info_json_of_the_snabb_fixture_agrees_with_the_reference_dump)
{
	struct ref r = load_ref();
	const char *zst = fixture("engine-short.events.timeline.zst");
	char *j = path_dup("info.json"), *out, *err, *want;
	ck_assert_int_eq(tl(&out, &err, "info --format json '%s'", zst), 0);
	ck_assert_str_eq(err, "");
	write_file(j, out, strlen(out));
	free(out);
	free(err);
	ck_assert_int_eq(sh(&out, &err, "jq -r '[.file, .compressed, .format, .major, .minor, .entries, "
				       ".used, .span_cycles, .definitions] | map(tostring) | "
				       "join(\"|\")' '%s'", j), 0);
	want = xasprintf("%s|true|snabb|3|0|1000000|%zu|%llu|%zu\n", zst, r.n,
			 (unsigned long long)(whole(r.tsc[r.n - 1]) - whole(r.tsc[0])), r.strings);
	ck_assert_str_eq(out, want);
	free(want);
	free(out);
	free(err);
	free(j);
	ref_free(&r);
}
END_TEST

/* ------------------------------------------------------------------------
 * dump: directories and bad inputs
 * ------------------------------------------------------------------------ */

START_TEST(test_dump_walks_directories_recursively_in_name_order_and_notes_non_logs)
{
	char *logs = path_dup("logs"), *out, *err, *want_err;
	struct w *ea = breaths(2, 10, 5, 100), *eb = breaths(2, 20, 5, 200), *ec = breaths(2, 30, 5, 300),
		 *ed = breaths(2, 40, 5, 400), *ef = breaths(1, 50, 5, 500);
	struct rfc_csv c;
	char *pa, *pb, *pc, *pd, *pf, *notes, *empty;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	ck_assert_int_eq(mkdir(path_in(logs, "sub"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(logs, "sub/deeper"), 0700), 0);
	pa = xasprintf("%s/a.timeline", logs);
	pb = xasprintf("%s/b", logs);   /* any name: recognized by content */
	pc = xasprintf("%s/sub/c.timeline", logs);
	pd = xasprintf("%s/sub/deeper/d.timeline", logs);
	pf = xasprintf("%s/top.timeline", dir);
	notes = xasprintf("%s/notes.txt", logs);
	empty = xasprintf("%s/empty", logs);
	/* written out of name order */
	write_log(pd, 4, 1000000000, ed, 2);
	write_log(pc, 4, 1000000000, ec, 2);
	write_log(pb, 4, 1000000000, eb, 2);
	write_log(pa, 4, 1000000000, ea, 2);
	write_log(pf, 4, 1000000000, ef, 1);
	{
		static const char text[] = "not a log, but longer than the 8 bytes of a magic number\n";
		write_file(notes, text, sizeof text - 1);
	}
	write_file(empty, "", 0);
	ck_assert_int_eq(tl(&out, &err, "dump -f csv '%s' '%s'", pf, logs), 0);
	want_err = xasprintf("timeline dump: note: skipping %s: not a timeline log\n"
			     "timeline dump: note: skipping %s: not a timeline log\n", empty, notes);
	ck_assert_str_eq(err, want_err);
	c = dump_csv(out);
	ck_assert_uint_eq(c.n, 1 + 9);
	check_csv_row(&c.rows[1], 1, pf, 0, &ef[0], ef[0].tsc);
	for (size_t i = 0; i < 2; i++) {
		check_csv_row(&c.rows[2 + i], 2 + i, pa, i, &ea[i], ea[0].tsc);
		check_csv_row(&c.rows[4 + i], 4 + i, pb, i, &eb[i], eb[0].tsc);
		check_csv_row(&c.rows[6 + i], 6 + i, pc, i, &ec[i], ec[0].tsc);
		check_csv_row(&c.rows[8 + i], 8 + i, pd, i, &ed[i], ed[0].tsc);
	}
	rfc_csv_free(&c);
	free(out);
	free(err);
	free(want_err);
	free(ea);
	free(eb);
	free(ec);
	free(ed);
	free(ef);
	free(pa);
	free(pb);
	free(pc);
	free(pd);
	free(pf);
	free(notes);
	free(empty);
	free(logs);
}
END_TEST

/* Nothing to read is an error: every command that reads logs, given a path
 * that holds none (an empty directory, or one of files that are no logs),
 * says "timeline CMD: PATH: no logs" and exits 2, and still reads the paths
 * that hold logs, printing what it prints of them alone. */
START_TEST(test_a_path_with_no_log_is_an_error_of_every_reading_command)
{
	static const char *const cmds[] = { "info", "info -f json", "dump", "dump -f csv", "merge",
					    "stats", "stats --per packets", "export -f csv -o -",
					    "report -f json -o -" };
	char *empty = path_dup("empty"), *notes = path_dup("notes"), *good = path_dup("good.timeline");
	char *out, *err, *out1, *err1, *want;
	struct w *e = breaths(4, 10, 5, 0);
	ck_assert_int_eq(mkdir(empty, 0700), 0);
	ck_assert_int_eq(mkdir(notes, 0700), 0);
	write_file(path_in(notes, "readme"), "not a log\n", 10);
	write_log(good, 8, 1000000000, e, 4);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		size_t n = strcspn(cmds[i], " ");
		ck_assert_int_eq(tl(&out1, &err1, "%s '%s'", cmds[i], good), 0);
		/* report's JSON names its command line: more is not compared */
		ck_assert_int_eq(tl(&out, &err, "%s '%s' '%s'", cmds[i], empty, good), 2);
		want = xasprintf("timeline %.*s: %s: no logs\n%s", (int)n, cmds[i], empty, err1);
		ck_assert_str_eq(err, want);
		if (strncmp(cmds[i], "report", 6))
			ck_assert_str_eq(out, out1);
		else
			ck_assert_uint_eq(strlen(out), strlen(out1) + strlen(empty) + 1);   /* " EMPTY" */
		free(out);
		free(err);
		free(want);
		ck_assert_int_eq(tl(&out, &err, "%s '%s' '%s'", cmds[i], good, notes), 2);
		want = xasprintf("timeline %.*s: note: skipping %s/readme: not a timeline log\n"
				 "timeline %.*s: %s: no logs\n", (int)n, cmds[i], notes, (int)n,
				 cmds[i], notes);
		/* stats and report warn of what they found after reading all inputs */
		if (!strncmp(cmds[i], "stats", 5) || !strncmp(cmds[i], "report", 6))
			ck_assert_str_eq(err, test_str("%s%s", want, err1));
		else
			ck_assert_str_eq(err, test_str("%s%s", err1, want));
		free(want);
		free(out);
		free(err);
		free(out1);
		free(err1);
	}
	/* diff, either side; copy; top with an explicit path */
	ck_assert_int_eq(tl(&out, &err, "diff '%s' '%s'", empty, good), 2);
	ck_assert_str_eq(err, test_str("timeline diff: %s: no logs\n", empty));
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "diff --a '%s' --b '%s' --b '%s'", good, good, empty), 2);
	ck_assert_str_eq(err, test_str("timeline diff: %s: no logs\n"
				       "timeline diff: note: 1 run in A and 1 in B: no test over runs "
				       "can reach alpha 0.05 (the smallest p is 1); give at least 4 "
				       "runs a side (each process is a run, its logs pooled; --runs "
				       "file: each log, --runs dir: each directory)\n", empty));
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "copy '%s' '%s' '%s/c'", empty, good, dir), 2);
	ck_assert_str_eq(err, test_str("timeline copy: %s: no logs\n", empty));
	ck_assert_str_eq(out, test_str("%s -> %s/c/good.timeline: 4 entries, 0 dropped\n", good, dir));
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "top -b -n 1 -d 0.1 '%s'", notes), 2);
	ck_assert_str_eq(err, test_str("timeline top: %s: no logs\n", notes));
	free(out);
	free(err);
	free(e);
	free(good);
	free(notes);
	free(empty);
}
END_TEST

START_TEST(test_dump_of_an_empty_directory_says_so_one_beside_a_log_is_passed_over)
{
	char *empty = path_dup("empty"), *logs = path_dup("logs"), *p, *out, *err;
	struct w *e = breaths(2, 10, 5, 0);
	int rc;
	struct lines lines = { 0, NULL };
	ck_assert_int_eq(mkdir(empty, 0700), 0);
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	ck_assert_int_eq(mkdir(path_in(logs, "a-empty"), 0700), 0);
	p = xasprintf("%s/b.timeline", logs);
	write_log(p, 4, 1000000000, e, 2);
	for (size_t i = 0; i < 2; i++)
		lines_add(&lines, cycles_line(&e[i], e[0].tsc));
	rc = tl(&out, &err, "dump '%s'", empty);
	ck_assert_int_eq(rc, 2);
	ck_assert_str_eq(err, test_str("timeline dump: %s: no logs\n", empty));
	ck_assert_str_eq(out, "");
	free(out);
	free(err);
	/* an empty directory nested beside a log */
	rc = tl(&out, &err, "dump '%s'", logs);
	ck_assert_msg(rc == 0 && !strcmp(err, ""), "exit %d, stderr '%s'", rc, err);
	check_text(out, &lines);
	free(out);
	free(err);
	lines_free(&lines);
	free(e);
	free(p);
	free(logs);
	free(empty);
}
END_TEST

START_TEST(test_dump_notes_a_compressed_non_log_in_a_directory_and_exits_0)
{
	char *logs = path_dup("logs"), *txt = path_dup("text"), *z, *p, *out, *err, *head;
	struct w *e = breaths(3, 10, 5, 0);
	struct lines want = { 0, NULL };
	static const char text[] = "plain text, compressed: zstd by content, but not a timeline log "
				   "..............................................................\n";
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	z = xasprintf("%s/a.zst", logs);
	p = xasprintf("%s/b.timeline", logs);
	write_file(txt, text, sizeof text - 1);
	zcompress(txt, z);
	write_log(p, 4, 1000000000, e, 3);
	for (size_t i = 0; i < 3; i++)
		lines_add(&want, cycles_line(&e[i], e[0].tsc));
	ck_assert_int_eq(tl(&out, &err, "dump '%s'", logs), 0);
	check_text(out, &want);
	/* the spec's note, word for word: a zstd file is no exception */
	head = xasprintf("timeline dump: note: skipping %s: not a timeline log\n", z);
	ck_assert_str_eq(err, head);
	lines_free(&want);
	free(head);
	free(out);
	free(err);
	free(e);
	free(z);
	free(p);
	free(txt);
	free(logs);
}
END_TEST

START_TEST(test_dump_notes_a_fifo_in_a_directory_and_exits_0)
{
	char *logs = path_dup("logs"), *fifo, *p, *out, *err, *want;
	struct w *e = breaths(2, 10, 5, 0);
	struct lines lines = { 0, NULL };
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	fifo = xasprintf("%s/a.fifo", logs);
	p = xasprintf("%s/b.timeline", logs);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	write_log(p, 4, 1000000000, e, 2);
	for (size_t i = 0; i < 2; i++)
		lines_add(&lines, cycles_line(&e[i], e[0].tsc));
	ck_assert_int_eq(tl(&out, &err, "dump '%s'", logs), 0);
	check_text(out, &lines);
	want = xasprintf("timeline dump: note: skipping %s: not a timeline log\n", fifo);
	ck_assert_str_eq(err, want);
	lines_free(&lines);
	free(want);
	free(out);
	free(err);
	free(e);
	free(fifo);
	free(p);
	free(logs);
}
END_TEST

/* Is ERR exactly "WANT" or, with PROBLEM NULL, one line starting "timeline dump: BAD: "? */
static void check_one_line(const char *err, const char *want, const char *bad)
{
	if (want) {
		ck_assert_str_eq(err, want);
	} else {
		char *head = xasprintf("timeline dump: %s: ", bad);
		ck_assert_msg(!strncmp(err, head, strlen(head)) && strlen(err) > strlen(head) + 1 &&
				      strchr(err, '\n') == err + strlen(err) - 1,
			      "stderr is not one line '%s...': '%s'", head, err);
		free(head);
	}
}

/* Dumps BAD then a good log in one command: the good log's entries come out,
 * stderr is exactly "timeline dump: BAD: PROBLEM" (with PROBLEM NULL, any one
 * line naming BAD), and the exit status is 2. */
static void check_bad_input(const char *bad, const char *problem)
{
	char *good = path_dup("good.timeline"), *out, *err, *want;
	struct w *e = breaths(3, 10, 5, 0);
	struct lines lines = { 0, NULL };
	write_log(good, 4, 1000000000, e, 3);
	for (size_t i = 0; i < 3; i++)
		lines_add(&lines, cycles_line(&e[i], e[0].tsc));
	want = problem ? xasprintf("timeline dump: %s: %s\n", bad, problem) : NULL;
	ck_assert_int_eq(tl(&out, &err, "dump '%s' '%s'", bad, good), 2);
	check_one_line(err, want, bad);
	check_text(out, &lines);
	free(out);
	free(err);
	/* and given after the good one */
	ck_assert_int_eq(tl(&out, &err, "dump '%s' '%s'", good, bad), 2);
	check_one_line(err, want, bad);
	check_text(out, &lines);
	free(out);
	free(err);
	lines_free(&lines);
	free(want);
	free(e);
	free(good);
}

START_TEST(test_dump_of_a_missing_file_is_a_one_line_error_others_still_dumped)
{
	char *p = path_dup("missing.timeline");
	check_bad_input(p, strerror(ENOENT));
	free(p);
}
END_TEST

START_TEST(test_dump_of_a_truncated_log_is_a_one_line_error_others_still_dumped)
{
	char *p = path_dup("cut.timeline"), *problem;
	struct w *e = breaths(3, 10, 5, 0);
	struct stat st;
	write_log(p, 16, 1000000000, e, 3);
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert_int_eq(truncate(p, 4096 + 4 * 64), 0);
	problem = xasprintf("truncated: header says %llu bytes, file has %d",
			    (unsigned long long)st.st_size, 4096 + 4 * 64);
	check_bad_input(p, problem);
	free(problem);
	free(e);
	free(p);
}
END_TEST

START_TEST(test_dump_of_random_bytes_named_explicitly_is_a_one_line_error_others_still_dumped)
{
	char *p = path_dup("random.timeline");
	unsigned char b[8192];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < sizeof b; i++) {   /* xorshift64 bytes */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		b[i] = (unsigned char)(x >> 56);
	}
	b[0] = 0x42;   /* no magic of any kind */
	write_file(p, b, sizeof b);
	check_bad_input(p, "not a timeline log (bad magic)");
	free(p);
}
END_TEST

START_TEST(test_dump_of_a_header_claiming_2_to_the_40_entries_is_a_one_line_error)
{
	char *src = path_dup("src.timeline"), *p = path_dup("huge.timeline"), *buf, *problem;
	struct w *e = breaths(3, 10, 5, 0);
	uint64_t n = 1ull << 40;
	size_t len;
	write_log(src, 4, 1000000000, e, 3);
	buf = read_file(src, &len);
	memcpy(buf + 24, &n, 8);   /* entries, at offset 24 of the header */
	write_file(p, buf, len);
	problem = xasprintf("damaged header (ring of %llu entries)", (unsigned long long)n);
	check_bad_input(p, problem);
	free(problem);
	free(buf);
	free(e);
	free(src);
	free(p);
}
END_TEST

START_TEST(test_dump_of_a_cut_zstd_copy_is_a_one_line_error_others_still_dumped)
{
	char *src = path_dup("src.timeline"), *z = path_dup("whole.zst"), *p = path_dup("cut.zst"), *buf;
	struct w *e = breaths(3, 10, 5, 0);
	size_t len;
	write_log(src, 16, 1000000000, e, 3);
	zcompress(src, z);
	buf = read_file(z, &len);
	ck_assert_uint_gt(len, 40);
	write_file(p, buf, len / 2);
	check_bad_input(p, NULL);
	free(buf);
	free(e);
	free(src);
	free(z);
	free(p);
}
END_TEST

START_TEST(test_dump_reports_every_bad_input_once_and_exits_2_at_the_end)
{
	char *good = path_dup("good.timeline"), *miss = path_dup("missing"), *rnd = path_dup("rnd");
	char *out, *err, *want;
	struct w *e = breaths(2, 10, 5, 0);
	struct lines lines = { 0, NULL };
	write_log(good, 4, 1000000000, e, 2);
	write_file(rnd, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", 64);
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < 2; i++)
			lines_add(&lines, cycles_line(&e[i], e[0].tsc));
	ck_assert_int_eq(tl(&out, &err, "dump '%s' '%s' '%s' '%s'", miss, good, rnd, good), 2);
	want = xasprintf("timeline dump: %s: %s\n"
			 "timeline dump: %s: not a timeline log (64 bytes, shorter than a header)\n",
			 miss, strerror(ENOENT), rnd);
	ck_assert_str_eq(err, want);
	check_text(out, &lines);
	lines_free(&lines);
	free(want);
	free(out);
	free(err);
	free(e);
	free(good);
	free(miss);
	free(rnd);
}
END_TEST

/* ------------------------------------------------------------------------
 * Usage
 * ------------------------------------------------------------------------ */

static const char dump_usage[] =
	"usage: timeline dump [OPTIONS] INPUT...\n"
	"\n"
	"Prints every entry of each input (a log, a Snabb log, a zstd copy of\n"
	"either, or a directory of them), oldest first; with --follow, the newest\n"
	"10 first (--lines), then each entry as it is written.\n"
	"\n"
	"       --spans         a row per span instead: each instance of a begin/end\n"
	"                       pair (declared, or Snabb's) with its thread, begin,\n"
	"                       end, cycles, self cycles, units, parent and depth\n"
	"       --mark B,E      mark with '>' the entries at TSC B and E (a pair's\n"
	"                       begin and end, as stats --slowest's dump command\n"
	"                       gives them): each entry from B to E, and at most 100\n"
	"                       of the others kept before B and after E\n"
	"       --trigger[=N]   only the window around the trigger of a log armed\n"
	"                       (timeline arm): N entries (default 20) of its thread\n"
	"                       before the slow pair and after it, every thread's\n"
	"                       entries between, times counted from the pair's begin\n"
	"   -f, --format FMT    text (default), csv or json (one object per line)\n"
	"   -t, --time UNIT     cycles (since the first entry, default), ns, or wall\n"
	"       --from T        only entries at or after T: a number in the --time\n"
	"                       unit (wall: Unix seconds), a duration since the log's\n"
	"                       first entry (250ms, 1.5s, 90ns) or a wall time\n"
	"                       (2026-11-23T14:10:12Z, fraction and zone optional)\n"
	"       --to T          only entries at or before T, the same forms\n"
	"       --last D        only the last D (10s, 500ms) of each log\n"
	"   -e, --event GLOB    only events whose category.name matches GLOB\n"
	"       --app GLOB      only events of apps matching GLOB (app=NAME)\n"
	"   -c, --cpu LIST      only these CPUs, e.g. 0,2-5\n"
	"   -n, --numa LIST     only these NUMA nodes\n"
	"   -l, --limit N       stop after N entries\n"
	"       --follow        go on printing entries as they are written, until the\n"
	"                       writers' processes end (or SIGINT, or --limit); a log\n"
	"                       being created is waited for, up to 2 s\n"
	"       --lines N       with --follow: start with the newest N entries the\n"
	"                       filters keep (default 10, all with --from, --to or\n"
	"                       --last; 0: only new ones; all: the whole ring)\n"
	"   -h, --help          show this help\n";

static const char info_usage[] =
	"usage: timeline info [--format text|json] INPUT...\n"
	"\n"
	"   -f, --format FMT    text (default) or json (one object per input)\n"
	"   -h, --help          show this help\n";

START_TEST(test_dump_and_info_help_print_their_usage_and_exit_0)
{
	char *out, *err;
	ck_assert_int_eq(tl(&out, &err, "dump --help"), 0);
	ck_assert_str_eq(out, dump_usage);
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "help dump"), 0);
	ck_assert_str_eq(out, dump_usage);
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "info -h"), 0);
	ck_assert_str_eq(out, info_usage);
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
}
END_TEST

/* The line after a usage error's reason: where the usage is. */
static const char dump_see[] = "see 'timeline dump --help'\n";
static const char info_see[] = "see 'timeline info --help'\n";

/* Runs "CMD ARGS GOOD" and checks the usage error: exit 2, nothing on
 * stdout, "timeline CMD: REASON" then SEE (where the usage is) on stderr. */
static void check_usage_error(const char *cmd, const char *args, const char *reason,
			      const char *see)
{
	char *good = path_dup("good.timeline"), *out, *err, *want;
	struct w *e = breaths(2, 10, 5, 0);
	write_log(good, 4, 1000000000, e, 2);
	ck_assert_int_eq(tl(&out, &err, "%s %s '%s'", cmd, args, good), 2);
	want = xasprintf("timeline %s: %s\n%s", cmd, reason, see);
	ck_assert_msg(!strcmp(err, want), "%s %s: stderr '%s', want '%s'", cmd, args, err, want);
	ck_assert_msg(!strcmp(out, ""), "%s %s: stdout '%s'", cmd, args, out);
	free(want);
	free(out);
	free(err);
	free(e);
	free(good);
}

START_TEST(test_dump_bad_option_values_print_the_reason_then_where_the_usage_is_and_exit_2)
{
	static const char *const cpu = "--cpu takes a list like 0,2-5";
	check_usage_error("dump", "--format xml", "--format must be text, csv or json", dump_see);
	check_usage_error("dump", "-f CSV", "--format must be text, csv or json", dump_see);
	check_usage_error("dump", "--cpu 3-1", cpu, dump_see);
	check_usage_error("dump", "--cpu x", cpu, dump_see);
	check_usage_error("dump", "--cpu 1,,2", cpu, dump_see);
	check_usage_error("dump", "--cpu -1", cpu, dump_see);
	check_usage_error("dump", "--cpu 4096", cpu, dump_see);
	check_usage_error("dump", "--cpu 1-2x", cpu, dump_see);
	check_usage_error("dump", "--numa 2-1", "--numa takes a list like 0,1", dump_see);
	check_usage_error("dump", "--time hours", "--time must be cycles, ns or wall", dump_see);
	check_usage_error("dump", "--limit ten", "--limit takes a whole number", dump_see);
	check_usage_error("dump", "--limit -3", "--limit takes a whole number", dump_see);
	check_usage_error("dump", "--from 1x", "--from takes a number in the --time unit, a duration "
			  "(1.5s) or a wall time (2026-11-23T14:10:12Z)", dump_see);
	check_usage_error("dump", "--to ''", "--to takes a number in the --time unit, a duration "
			  "(1.5s) or a wall time (2026-11-23T14:10:12Z)", dump_see);
}
END_TEST

START_TEST(test_dump_empty_cpu_or_numa_list_is_a_usage_error)
{
	/* an empty LIST names no CPU: refused, not taken as "print nothing" */
	check_usage_error("dump", "--cpu ''", "--cpu takes a list like 0,2-5", dump_see);
	check_usage_error("dump", "--numa ''", "--numa takes a list like 0,1", dump_see);
}
END_TEST

START_TEST(test_dump_and_info_without_input_print_the_reason_then_where_the_usage_is_and_exit_2)
{
	char *out, *err, *want;
	ck_assert_int_eq(tl(&out, &err, "dump"), 2);
	want = xasprintf("timeline dump: missing input\n%s", dump_see);
	ck_assert_str_eq(err, want);
	ck_assert_str_eq(out, "");
	free(want);
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "dump --format csv"), 2);
	want = xasprintf("timeline dump: missing input\n%s", dump_see);
	ck_assert_str_eq(err, want);
	ck_assert_str_eq(out, "");
	free(want);
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "info"), 2);
	want = xasprintf("timeline info: missing input\n%s", info_see);
	ck_assert_str_eq(err, want);
	ck_assert_str_eq(out, "");
	free(want);
	free(out);
	free(err);
}
END_TEST

START_TEST(test_info_bad_format_prints_the_reason_then_where_the_usage_is_and_exits_2)
{
	check_usage_error("info", "--format csv", "--format must be text or json", info_see);
	check_usage_error("info", "-f xml", "--format must be text or json", info_see);
}
END_TEST

START_TEST(test_unknown_dump_option_prints_the_reason_then_where_the_usage_is_and_exits_2)
{
	check_usage_error("dump", "--nosuch", "unknown option '--nosuch'", dump_see);
	check_usage_error("dump", "-z", "unknown option '-z'", dump_see);
}
END_TEST

/* ------------------------------------------------------------------------
 * Write errors
 * ------------------------------------------------------------------------ */

START_TEST(test_dump_and_info_to_a_full_device_fail_with_exit_2_and_say_why)
{
	char *small = path_dup("small.timeline"), *big = path_dup("big.timeline"), *out, *err, *want;
	struct w *e = breaths(8192, 1000, 3, 0);
	write_log(small, 4, 1000000000, e, 3);
	write_log(big, 8192, 1000000000, e, 8192);   /* more than the output buffer */
	want = xasprintf("timeline dump: error writing output: %s\n", strerror(ENOSPC));
	ck_assert_int_eq(tl(&out, &err, "dump '%s' > /dev/full", small), 2);
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "dump '%s' > /dev/full", big), 2);
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "dump -f json '%s' > /dev/full", big), 2);
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
	free(want);
	want = xasprintf("timeline info: error writing output: %s\n", strerror(ENOSPC));
	ck_assert_int_eq(tl(&out, &err, "info '%s' > /dev/full", small), 2);
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
	ck_assert_int_eq(tl(&out, &err, "info -f json '%s' > /dev/full", small), 2);
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
	free(want);
	free(e);
	free(small);
	free(big);
}
END_TEST

/* ------------------------------------------------------------------------
 * info
 * ------------------------------------------------------------------------ */

/* A log of 8 entries written 20 times (tsc 1000 * (i + 1)), rate fixed at 4
 * after 5 breaths, with the NDEFS definitions. */
static struct w *write_info_log(const char *path)
{
	struct w *e = breaths(20, 1000, 1000, 0);
	tl_log *log = open_manual(path, 8);
	tl_error err;
	uint16_t ids[NDEFS];
	for (int i = 0; i < NDEFS; i++)
		ck_assert_int_eq(tl_intern(log, defs[i].text, &ids[i], &err), TL_OK);
	for (int i = 0; i < 5; i++)
		tl_breath(log);
	ck_assert_int_eq(tl_set_rate(log, 4), TL_OK);
	for (size_t i = 0; i < 20; i++) {
		tl_set_manual_clock(log, e[i].tsc, (uint16_t)(e[i].cpu | e[i].numa << 12));
		tl_append(log, ids[BREATH], e[i].a[0], e[i].a[1], 0, 0, 0, 0);
	}
	tl_close(log);
	return e;
}

/* The value of the line labelled LABEL in info's text output. */
static char *info_value(const char *out, const char *label)
{
	struct lines l = squeezed(out);
	char *v = NULL;
	size_t n = strlen(label);
	for (size_t i = 1; i < l.n; i++)
		if (!strncmp(l.v[i], label, n) && l.v[i][n] == ' ') {
			ck_assert_msg(v == NULL, "two '%s' lines", label);
			v = strdup(l.v[i] + n + 1);
		}
	ck_assert_msg(v != NULL, "no '%s' line in:\n%s", label, out);
	lines_free(&l);
	return v;
}

static void value_eq(const char *out, const char *label, const char *want)
{
	char *v = info_value(out, label);
	ck_assert_msg(!strcmp(v, want), "%s: got '%s', want '%s'", label, v, want);
	free(v);
}

START_TEST(test_info_text_describes_a_log_exactly)
{
	char *p = path_dup("info.timeline"), *out, *err, *want, *a, *b, host[128] = "";
	struct w *e = write_info_log(p);
	tl_info in = info_at(p);
	uint64_t first = e[12].tsc, last = e[19].tsc;
	gethostname(host, sizeof host - 1);
	ck_assert_int_eq(tl(&out, &err, "info '%s'", p), 0);
	ck_assert_str_eq(err, "");
	want = xasprintf("%s\n", p);
	ck_assert_msg(!strncmp(out, want, strlen(want)), "first line of:\n%s", out);
	free(want);
	value_eq(out, "format", "timeline 1.5");
	want = xasprintf("%s, pid %d, host %s, log 'test'", program_invocation_short_name,
			 (int)getpid(), host);
	value_eq(out, "process", want);
	free(want);
	want = xasprintf("manual, TSC 1.000000 GHz (%s)",
			 in.cpu_features & TL_CPU_INVARIANT ? "invariant" : "not known invariant");
	value_eq(out, "clock", want);
	free(want);
	value_eq(out, "entries", "8 in a ring of 8; 20 written, 12 wrapped away");
	value_eq(out, "rate", "4, fixed (5 breaths)");
	a = iso(wall_ns(&in, first));
	b = iso(wall_ns(&in, last));
	/* 1 GHz: the span in ns is the span in cycles */
	want = xasprintf("%llu cycles, %llu.%09llu s, from %s to %s",
			 (unsigned long long)(last - first), (unsigned long long)(last - first) / 1000000000,
			 (unsigned long long)(last - first) % 1000000000, a, b);
	value_eq(out, "span", want);
	free(want);
	value_eq(out, "definitions", "5");
	{
		struct lines l = squeezed(out);
		ck_assert_uint_eq(l.n, 9);   /* the path and the eight facts */
		lines_free(&l);
	}
	free(a);
	free(b);
	free(out);
	free(err);
	free(e);
	free(p);
}
END_TEST

START_TEST(test_info_json_fields_are_exact_one_object_per_input)
{
	char *p = path_dup("info.timeline"), *q = path_dup("other.timeline"), *j = path_dup("i.json");
	char *out, *err, *want, *a, *b, host[128] = "";
	struct w *e = write_info_log(p);
	tl_info in = info_at(p);
	uint64_t first = e[12].tsc, last = e[19].tsc;
	struct w *f = breaths(3, 70, 30, 0);
	write_log(q, 16, 1000000000, f, 3);
	gethostname(host, sizeof host - 1);
	ck_assert_int_eq(tl(&out, &err, "info --format json '%s' '%s'", p, q), 0);
	ck_assert_str_eq(err, "");
	write_file(j, out, strlen(out));
	free(out);
	free(err);
	ck_assert_int_eq(sh(&out, &err, "jq -r '[.file, .compressed, .format, .major, .minor, .process, "
				       ".pid, .host, .name, .clock, .tsc_hz, .entries, .used, .written, "
				       ".wrapped, .rate, .rate_now, .breaths, .first_tsc, .last_tsc, "
				       ".span_cycles, .span_ns, .first_wall, .last_wall, .definitions] "
				       "| map(tostring) | join(\"|\")' '%s'", j), 0);
	ck_assert_str_eq(err, "");
	a = iso(wall_ns(&in, first));
	b = iso(wall_ns(&in, last));
	want = xasprintf("%s|false|timeline|1|5|%s|%d|%s|test|manual|1000000000|8|8|20|12|4|4|5|"
			 "%llu|%llu|%llu|%llu|%s|%s|5\n",
			 p, program_invocation_short_name, (int)getpid(), host,
			 (unsigned long long)first, (unsigned long long)last,
			 (unsigned long long)(last - first), (unsigned long long)(last - first), a, b);
	free(a);
	free(b);
	in = info_at(q);
	a = iso(wall_ns(&in, f[0].tsc));
	b = iso(wall_ns(&in, f[2].tsc));
	want = append(want, "%s|false|timeline|1|5|%s|%d|%s|test|manual|1000000000|16|3|3|0|auto|all|0|"
			    "70|130|60|60|%s|%s|5\n",
		      q, program_invocation_short_name, (int)getpid(), host, a, b);
	ck_assert_str_eq(out, want);
	free(a);
	free(b);
	free(want);
	free(out);
	free(err);
	free(e);
	free(f);
	free(j);
	free(p);
	free(q);
}
END_TEST

START_TEST(test_info_reports_a_bad_input_and_still_describes_the_others)
{
	char *p = path_dup("good.timeline"), *miss = path_dup("missing"), *j = path_dup("i.json");
	char *out, *err, *want;
	struct w *e = breaths(3, 70, 30, 0);
	write_log(p, 16, 1000000000, e, 3);
	ck_assert_int_eq(tl(&out, &err, "info -f json '%s' '%s'", miss, p), 2);
	want = xasprintf("timeline info: %s: %s\n", miss, strerror(ENOENT));
	ck_assert_str_eq(err, want);
	free(want);
	write_file(j, out, strlen(out));
	free(out);
	free(err);
	ck_assert_int_eq(sh(&out, &err, "jq -r '[.file, .used, .written] | map(tostring) | join(\"|\")' '%s'",
				       j), 0);
	want = xasprintf("%s|3|3\n", p);
	ck_assert_str_eq(out, want);
	free(want);
	free(out);
	free(err);
	free(e);
	free(j);
	free(p);
	free(miss);
}
END_TEST

START_TEST(test_info_walks_a_directory_and_notes_non_logs)
{
	char *logs = path_dup("logs"), *j = path_dup("i.json"), *a, *b, *notes, *out, *err, *want;
	struct w *e = breaths(3, 70, 30, 0);
	static const char text[] = "a note, not a log\n";
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	ck_assert_int_eq(mkdir(path_in(logs, "sub"), 0700), 0);
	a = xasprintf("%s/sub/a.timeline", logs);
	b = xasprintf("%s/b.timeline", logs);
	notes = xasprintf("%s/notes", logs);
	write_log(a, 4, 1000000000, e, 3);
	write_log(b, 8, 1000000000, e, 2);
	write_file(notes, text, sizeof text - 1);
	ck_assert_int_eq(tl(&out, &err, "info --format json '%s'", logs), 0);
	want = xasprintf("timeline info: note: skipping %s: not a timeline log\n", notes);
	ck_assert_str_eq(err, want);
	free(want);
	write_file(j, out, strlen(out));
	free(out);
	free(err);
	ck_assert_int_eq(sh(&out, &err, "jq -r '[.file, .entries, .used] | map(tostring) | join(\"|\")' '%s'",
			    j), 0);
	/* name order: ".../b.timeline" < ".../notes" < ".../sub" */
	want = xasprintf("%s|8|2\n%s|4|3\n", b, a);
	ck_assert_str_eq(out, want);
	free(want);
	free(out);
	free(err);
	free(e);
	free(a);
	free(b);
	free(notes);
	free(j);
	free(logs);
}
END_TEST

START_TEST(test_info_of_a_zstd_copy_gives_the_same_facts)
{
	char *p = path_dup("info.timeline"), *z = path_dup("info.copy"), *o1, *o2, *e1, *e2, *j1, *j2;
	struct w *e = write_info_log(p);
	zcompress(p, z);
	j1 = path_dup("a.json");
	j2 = path_dup("b.json");
	ck_assert_int_eq(tl(&o1, &e1, "info -f json '%s'", p), 0);
	ck_assert_int_eq(tl(&o2, &e2, "info -f json '%s'", z), 0);
	ck_assert_str_eq(e2, "");
	write_file(j1, o1, strlen(o1));
	write_file(j2, o2, strlen(o2));
	free(o1);
	free(o2);
	free(e1);
	free(e2);
	/* everything but the file name and "compressed" is the same */
	ck_assert_int_eq(sh(&o1, &e1, "jq -c 'del(.file, .compressed)' '%s'", j1), 0);
	ck_assert_int_eq(sh(&o2, &e2, "jq -c 'del(.file, .compressed)' '%s'", j2), 0);
	ck_assert_uint_gt(strlen(o1), 2);
	ck_assert_str_eq(o2, o1);
	free(o1);
	free(o2);
	free(e1);
	free(e2);
	ck_assert_int_eq(sh(&o1, &e1, "jq -r '.compressed' '%s' '%s'", j1, j2), 0);
	ck_assert_str_eq(o1, "false\ntrue\n");
	free(o1);
	free(e1);
	free(j1);
	free(j2);
	free(e);
	free(z);
	free(p);
}
END_TEST

/* CSV read back through libcsv itself: fields of every record, in order. */
struct csv_rows {
	char *cell[64][17];          /* rows x fields, malloc'd */
	int rows, field;
};

static void on_field(void *s, size_t len, void *data)
{
	struct csv_rows *c = data;
	if (c->rows < 64 && c->field < 17)
		c->cell[c->rows][c->field] = strndup(s, len);
	c->field++;
}

static void on_row(int ch, void *data)
{
	struct csv_rows *c = data;
	(void)ch;
	ck_assert_int_eq(c->field, 16);   /* every record has the header's 16 fields */
	c->rows++;
	c->field = 0;
}

/* dump's text keeps the CPU apart from the time: CPUs 999, 1000 and 4094,
 * and the unknown CPU (word 4095) as "?", as stats keys it. */
START_TEST(test_dump_text_keeps_four_digit_and_unknown_cpus_apart_from_the_time)
{
	char *d = tmpdir_new(), *out, *cmd;
	const char *p = path_in(d, "cpus.timeline");
	static const uint16_t cpus[] = { 999, 1000, 4094, 4095 };
	tl_log *log = open_manual(p, 16);
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "2,9|net.rx: len", &id, NULL), TL_OK);
	for (int i = 0; i < 4; i++) {
		tl_set_manual_clock(log, 10000000 + i, (uint16_t)(1 << 12 | cpus[i]));
		tl_append(log, id, (uint64_t)i, 0, 0, 0, 0, 0);
	}
	tl_close(log);
	if (asprintf(&cmd, "%s dump '%s'", timeline_bin(), p) < 0)
		abort();
	ck_assert_int_eq(run(cmd, &out, NULL), 0);
	ck_assert_str_eq(out, "             0 999  1  net.rx len=0\n"
			      "             1 1000  1  net.rx len=1\n"
			      "             2 4094  1  net.rx len=2\n"
			      "             3    ?  1  net.rx len=3\n");
	free(out);
	free(cmd);
	rm_rf(d);
	free(d);
}
END_TEST

START_TEST(test_dump_csv_parses_back_through_libcsv)
{
	char *d = tmpdir_new(), *out, *err, *cmd;
	const char *p = path_in(d, "csv.timeline");
	tl_log *log = open_manual(p, 16);
	struct csv_parser parser;
	struct csv_rows rows;
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "2,9|net.rx dev=\"eth0\",x: len flags", &id, NULL), TL_OK);
	for (uint64_t i = 0; i < 5; i++) {
		tl_set_manual_clock(log, 1000 + 7 * i, (uint16_t)(1 << 12 | i));
		tl_append(log, id, 60 + i, UINT64_MAX - i, 0, 0, 0, 0);
	}
	tl_close(log);
	if (asprintf(&cmd, "%s dump --format csv '%s'", timeline_bin(), p) < 0)
		abort();
	ck_assert_int_eq(run(cmd, &out, &err), 0);
	memset(&rows, 0, sizeof rows);
	ck_assert_int_eq(csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI), 0);
	ck_assert_uint_eq(csv_parse(&parser, out, strlen(out), on_field, on_row, &rows), strlen(out));
	ck_assert_int_eq(csv_fini(&parser, on_field, on_row, &rows), 0);
	csv_free(&parser);
	ck_assert_int_eq(rows.rows, 6);
	ck_assert_str_eq(rows.cell[0][0], "file");
	ck_assert_str_eq(rows.cell[0][14], "argnames");
	ck_assert_str_eq(rows.cell[0][15], "thread");
	for (int i = 0; i < 5; i++) {
		char want[32];
		char **r = rows.cell[i + 1];
		ck_assert_str_eq(r[0], p);
		snprintf(want, sizeof want, "%d", i);
		ck_assert_str_eq(r[1], want);                        /* seq */
		snprintf(want, sizeof want, "%d", 1000 + 7 * i);
		ck_assert_str_eq(r[2], want);                        /* tsc */
		snprintf(want, sizeof want, "%d", 7 * i);
		ck_assert_str_eq(r[3], want);                        /* cycles since the first */
		snprintf(want, sizeof want, "%d", i);
		ck_assert_str_eq(r[4], want);                        /* cpu */
		ck_assert_str_eq(r[5], "1");                         /* numa */
		ck_assert_str_eq(r[6], "net.rx");
		ck_assert_str_eq(r[7], "dev=\"eth0\",x");            /* quotes and comma survive */
		snprintf(want, sizeof want, "%d", 60 + i);
		ck_assert_str_eq(r[8], want);
		snprintf(want, sizeof want, "%llu", (unsigned long long)(UINT64_MAX - (uint64_t)i));
		ck_assert_str_eq(r[9], want);
		ck_assert_str_eq(r[14], "len flags");
		ck_assert_str_eq(r[15], "0");                        /* its one thread */
	}
	for (int i = 0; i < rows.rows; i++)
		for (int f = 0; f < 16; f++)
			free(rows.cell[i][f]);
	free(cmd);
	free(out);
	free(err);
	rm_rf(d);
	free(d);
}
END_TEST

/* An entry naming a message id beyond the string table prints as ?msgid=N
 * with its six arguments, and the file gets one error line; exit 2. */
START_TEST(test_dump_reports_message_ids_outside_the_table_once)
{
	char *d = tmpdir_new(), *out, *err, *cmd, *want;
	const char *p = path_in(d, "ids.timeline");
	tl_log *log = open_manual(p, 8);
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "1,1|t.ok: a", &id, NULL), TL_OK);
	tl_set_manual_clock(log, 100, 0);
	tl_append(log, id, 1, 0, 0, 0, 0, 0);
	tl_set_manual_clock(log, 150, 0);
	tl_append(log, 300, 2, 3, 4, 5, 6, 7);
	tl_set_manual_clock(log, 160, 0);
	tl_append(log, 4000, 8, 0, 0, 0, 0, 0);
	tl_close(log);
	if (asprintf(&cmd, "%s dump '%s'", timeline_bin(), p) < 0)
		abort();
	ck_assert_int_eq(run(cmd, &out, &err), 2);
	ck_assert_str_eq(out, "             0   0  0  t.ok a=1\n"
			      "            50   0  0  ?msgid=300 arg0=2 arg1=3 arg2=4 arg3=5 arg4=6 arg5=7\n"
			      "            60   0  0  ?msgid=4000 arg0=8 arg1=0 arg2=0 arg3=0 arg4=0 arg5=0\n");
	if (asprintf(&want, "timeline dump: %s: 2 entries with a message id outside the string table\n",
		     p) < 0)
		abort();
	ck_assert_str_eq(err, want);
	free(want);
	free(cmd);
	free(out);
	free(err);
	rm_rf(d);
	free(d);
}
END_TEST

Suite *read_suite(void)
{
	Suite *s = suite_create("read");
	TCase *d = tcase_create("dump"), *u = tcase_create("usage"), *i = tcase_create("info"),
	      *f = tcase_create("fixture");

	tcase_add_unchecked_fixture(d, fx_base_setup, fx_base_teardown);
	tcase_add_checked_fixture(d, fx_setup, teardown);
	tcase_set_timeout(d, 60);
	tcase_add_test(d, test_dump_of_a_wrapped_ring_prints_the_last_8_of_20_oldest_first);
	tcase_add_test(d, test_dump_csv_parses_back_through_libcsv);
	tcase_add_test(d, test_dump_text_keeps_four_digit_and_unknown_cpus_apart_from_the_time);
	tcase_add_test(d, test_dump_reports_message_ids_outside_the_table_once);
	tcase_add_test(d, test_dump_prints_every_entry_with_names_attributes_and_named_arguments);
	tcase_add_test(d, test_dump_of_logs_without_entries_prints_nothing_and_exits_0);
	tcase_add_test(d, test_numbers_print_exactly_at_every_power_of_ten);
	tcase_add_test(d, test_dump_names_events_whose_ids_share_a_cache_set);
	tcase_add_test(d, test_dump_of_64_bit_arguments_is_exact_in_every_format);
	tcase_add_test(d, test_dump_event_glob_keeps_only_matching_category_names);
	tcase_add_test(d, test_dump_cpu_list_keeps_only_those_cpus);
	tcase_add_test(d, test_dump_numa_list_keeps_only_those_nodes);
	tcase_add_test(d, test_dump_from_and_to_keep_an_inclusive_window_in_cycles);
	tcase_add_test(d, test_dump_limit_stops_after_n_entries);
	tcase_add_test(d, test_dump_filters_combine_and_limit_counts_printed_entries);
	tcase_add_test(d, test_dump_limit_spans_several_files);
	tcase_add_test(d, test_dump_csv_parses_back_to_the_entries_written_field_by_field);
	tcase_add_test(d, test_dump_json_is_one_object_per_line_and_parses_back_with_jq);
	tcase_add_test(d, test_dump_json_time_is_a_number_in_cycles_and_ns);
	tcase_add_test(d, test_dump_of_a_zstd_copy_is_identical_to_the_original);
	tcase_add_test(d, test_dump_time_ns_converts_cycles_since_the_first_entry);
	tcase_add_test(d, test_dump_time_wall_is_the_header_anchor_plus_elapsed_ns);
	tcase_add_test(d, test_dump_wall_window_is_in_unix_seconds);
	tcase_add_test(d, test_dump_time_ns_or_wall_of_a_snabb_file_is_an_error_others_still_dumped);
	tcase_add_test(d, test_dump_of_snabb_files_orders_a_wrapped_ring_skips_unused_slots_and_reads_zstd);
	tcase_add_test(d, test_dump_walks_directories_recursively_in_name_order_and_notes_non_logs);
	tcase_add_test(d, test_dump_of_an_empty_directory_says_so_one_beside_a_log_is_passed_over);
	tcase_add_test(d, test_a_path_with_no_log_is_an_error_of_every_reading_command);
	tcase_add_test(d, test_dump_notes_a_compressed_non_log_in_a_directory_and_exits_0);
	tcase_add_test(d, test_dump_notes_a_fifo_in_a_directory_and_exits_0);
	tcase_add_test(d, test_dump_of_a_missing_file_is_a_one_line_error_others_still_dumped);
	tcase_add_test(d, test_dump_of_a_truncated_log_is_a_one_line_error_others_still_dumped);
	tcase_add_test(d, test_dump_of_random_bytes_named_explicitly_is_a_one_line_error_others_still_dumped);
	tcase_add_test(d, test_dump_of_a_header_claiming_2_to_the_40_entries_is_a_one_line_error);
	tcase_add_test(d, test_dump_of_a_cut_zstd_copy_is_a_one_line_error_others_still_dumped);
	tcase_add_test(d, test_dump_reports_every_bad_input_once_and_exits_2_at_the_end);
	tcase_add_test(d, test_dump_and_info_to_a_full_device_fail_with_exit_2_and_say_why);
	suite_add_tcase(s, d);

	tcase_add_unchecked_fixture(u, fx_base_setup, fx_base_teardown);
	tcase_add_checked_fixture(u, fx_setup, teardown);
	tcase_set_timeout(u, 60);
	tcase_add_test(u, test_dump_and_info_help_print_their_usage_and_exit_0);
	tcase_add_test(u, test_dump_bad_option_values_print_the_reason_then_where_the_usage_is_and_exit_2);
	tcase_add_test(u, test_dump_empty_cpu_or_numa_list_is_a_usage_error);
	tcase_add_test(u, test_dump_and_info_without_input_print_the_reason_then_where_the_usage_is_and_exit_2);
	tcase_add_test(u, test_info_bad_format_prints_the_reason_then_where_the_usage_is_and_exits_2);
	tcase_add_test(u, test_unknown_dump_option_prints_the_reason_then_where_the_usage_is_and_exits_2);
	suite_add_tcase(s, u);

	tcase_add_unchecked_fixture(i, fx_base_setup, fx_base_teardown);
	tcase_add_checked_fixture(i, fx_setup, teardown);
	tcase_set_timeout(i, 60);
	tcase_add_test(i, test_info_text_describes_a_log_exactly);
	tcase_add_test(i, test_info_json_fields_are_exact_one_object_per_input);
	tcase_add_test(i, test_info_reports_a_bad_input_and_still_describes_the_others);
	tcase_add_test(i, test_info_walks_a_directory_and_notes_non_logs);
	tcase_add_test(i, test_info_of_a_zstd_copy_gives_the_same_facts);
	suite_add_tcase(s, i);

	/* the 65 MB Snabb fixture, decompressed by the program under test */
	tcase_add_unchecked_fixture(f, fx_base_setup, fx_base_teardown);
	tcase_add_checked_fixture(f, fx_setup, teardown);
	tcase_set_timeout(f, 300);
	tcase_add_test(f, test_dump_csv_of_the_snabb_fixture_matches_the_reference_dump);
	tcase_add_test(f, test_info_json_of_the_snabb_fixture_agrees_with_the_reference_dump);
	suite_add_tcase(s, f);
	return s;
}
