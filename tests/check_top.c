/* check_top.c: `timeline top` and what it stands on: an_cut()'s intervals
 * adding up to one pass exactly, an_gap(); top -b against the demo engine,
 * agreeing with `stats` over the same entries, and as OpenMetrics in a file
 * replaced whole, series for series what `stats -f openmetrics` prints;
 * every entry of a writer started while top runs counted once; the
 * budget's sampling accounted for; writers started and stopped; and the
 * screen driven in tmux: sort, group, focus, rate, pause, resize, quit,
 * and the terminal restored. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "analysis.h"
#include "util.h"

static const char *engine_bin(void)
{
	const char *b = getenv("TIMELINE_ENGINE");
	return b && *b ? b : "build/examples/engine/engine";
}


static char *top_states;             /* the last states() */

static void teardown(void)
{
	free(top_states);
	top_states = NULL;
	test_kept_free();
	test_dir_teardown();
}

/* Runs CMD; returns its stdout, failing the test unless it exits 0. */
static char *ok(const char *cmd)
{
	char *out, *err;
	int rc = run(cmd, &out, &err);
	ck_assert_msg(rc == 0, "%s: exit %d: %s", cmd, rc, err);
	free(err);
	return out;
}

/* ---- an_cut and an_gap ----------------------------------------------------- */

static const tl_def *def_of(void *ctx, uint16_t msgid)
{
	return tl_reader_def(ctx, msgid);
}

/* Feeds the log at PATH into ONE in one pass and into CUT in PARTS parts,
 * each cut into an engine of its own; returns those added up. */
static struct an *one_and_cut(const char *path, const struct an_options *o, struct an *one,
			      int parts)
{
	tl_error err;
	tl_reader *r = tl_reader_open(path, &err);
	struct an *cut = an_new(o), *sum = an_new(o);
	struct an_file f = { path, "p", "h", "g", NULL, 2000000000, 0, 0, 0, NULL, NULL, 0, 0 };
	uint64_t n, k = 0;
	tl_entry e;
	ck_assert_msg(r != NULL, "%s", err.msg);
	n = tl_reader_rewind(r);
	an_file_begin(one, &f, def_of, r);
	an_file_begin(cut, &f, def_of, r);
	while (tl_reader_next(r, &e)) {
		tl_check(an_entry(one, &e) == 0, "entry %llu", (unsigned long long)e.seq);
		tl_check(an_entry(cut, &e) == 0, "entry %llu, cut", (unsigned long long)e.seq);
		if (++k % (n / (uint64_t)parts + 1) == 0) {
			struct an *part = an_new(o);
			ck_assert_int_eq(an_cut(cut, part), 0);
			ck_assert_int_eq(an_merge(sum, part), 0);
			an_free(part);
		}
	}
	ck_assert_int_eq(an_cut(cut, sum), 0);
	an_file_end(one);
	an_file_end(cut);
	an_free(cut);
	tl_reader_close(r);
	return sum;
}

/* Rows of A and B: the same keys, counts, histograms and sums. */
static void assert_same_rows(struct an *a, struct an *b)
{
	size_t na, nb;
	struct an_row **ra = an_rows(a, &na), **rb = an_rows(b, &nb);
	ck_assert_uint_eq(na, nb);
	for (size_t i = 0; i < na; i++) {
		ck_assert_int_eq(an_row_cmp(a, ra[i], rb[i]), 0);
		ck_assert_uint_eq(ra[i]->h.n, rb[i]->h.n);
		ck_assert_uint_eq(ra[i]->entries, rb[i]->entries);
		ck_assert_uint_eq(ra[i]->empty, rb[i]->empty);
		ck_assert(ra[i]->cycles == rb[i]->cycles && ra[i]->units == rb[i]->units);
		ck_assert(ra[i]->h.min == rb[i]->h.min && ra[i]->h.max == rb[i]->h.max);
		for (int x = 0; x < HIST_EXPS; x++)
			for (int s = 0; s < HIST_SUB && (ra[i]->h.block[x] || rb[i]->h.block[x]); s++)
				tl_check((ra[i]->h.block[x] ? ra[i]->h.block[x][s] : 0) ==
					 (rb[i]->h.block[x] ? rb[i]->h.block[x][s] : 0),
					 "row %zu: bucket %d.%d differs", i, x, s);
	}
}

/* The breath summaries of E added up: breaths, packets, bytes, cycles, the
 * breaths' cycles and app APP's. */
static void breath_sums(const struct an *e, const char *app, double v[6])
{
	size_t n;
	const struct an_breaths *b = an_breath_list(e, &n);
	memset(v, 0, 6 * sizeof *v);
	for (size_t i = 0; i < n; i++) {
		v[0] += (double)b[i].breaths;
		v[1] += (double)b[i].packets;
		v[2] += (double)b[i].bytes;
		v[3] += (double)b[i].cycles;
		v[4] += b[i].share_cycles;
		for (size_t k = 0; k < b[i].nshares; k++)
			if (!strcmp(b[i].shares[k].app, app))
				v[5] += b[i].shares[k].cycles;
	}
}

START_TEST(test_cut_intervals_add_up_to_one_pass_exactly)
{
	const char *log = test_str("%s/e/engine-1.timeline", test_dir);
	const struct an_options per = { .by = 1u << AN_APP, .per = "packets",
					.pairs = an_default_pairs, .npairs = 3 };
	const struct an_options lag = { .by = 1u << AN_EVENT, .pairs = an_default_pairs, .npairs = 3 };
	struct an *one = an_new(&per), *sum, *lone = an_new(&lag), *lsum;
	double a[6], b[6];
	/* every event of 20000 breaths, cut in 7 parts: pairs and breaths
	 * straddle the cuts */
	free(ok(test_str("%s --dir %s/e --name engine --rate all --breaths 20000 --seed 3 --entries 1048576 "
		  "&& mv %s/e/engine-*.timeline %s", engine_bin(), test_dir, test_dir, log)));
	sum = one_and_cut(log, &per, one, 7);
	assert_same_rows(one, sum);
	breath_sums(one, "lookup", a);
	breath_sums(sum, "lookup", b);
	for (int i = 0; i < 6; i++)
		ck_assert_msg(a[i] == b[i], "breath sum %d: %.17g in one pass, %.17g cut", i, a[i], b[i]);
	ck_assert(a[0] == 19999 && a[5] > 0);   /* first to last breath_end, lookup's cycles */
	lsum = one_and_cut(log, &lag, lone, 5);
	assert_same_rows(lone, lsum);
	an_free(one);
	an_free(sum);
	an_free(lone);
	an_free(lsum);
}
END_TEST

START_TEST(test_gap_drops_the_pending_begin_and_restarts_the_lag)
{
	const char *p = test_str("%s/g.timeline", test_dir);
	static const char *const defs[] = { "5,5|app.push: inpackets\n", "5,5|app.pushed: inpackets\n" };
	const struct an_options per = { .by = 1u << AN_APP, .per = "packets",
					.pairs = an_default_pairs, .npairs = 3 };
	const struct an_options lag = { .by = 1u << AN_EVENT, .pairs = an_default_pairs, .npairs = 3 };
	tl_log *log = open_manual(p, 16);
	uint16_t id[2];
	tl_error err;
	tl_reader *r;
	tl_entry e[4];
	size_t n;
	ck_assert_int_eq(tl_register(log, defs, 2, "app=x", id, &err), TL_OK);
	/* push, pushed (10 packets in 100 cycles), push, [gap], pushed */
	for (int i = 0; i < 4; i++) {
		tl_set_manual_clock(log, 1000 + 100 * (uint64_t)i, 0);
		tl_append(log, id[i % 2], 10 * (uint64_t)(i / 2 + 1) * (i % 2), 0, 0, 0, 0, 0);
	}
	r = tl_reader_open(p, &err);
	tl_reader_rewind(r);
	for (int i = 0; i < 4; i++)
		ck_assert(tl_reader_next(r, &e[i]));
	for (int k = 0; k < 2; k++) {
		struct an *a = an_new(k ? &lag : &per);
		struct an_file f = { p, "p", "h", "g", NULL, 1000000000, 0, 0, 0, NULL, NULL, 0, 0 };
		struct an_row **rows;
		an_file_begin(a, &f, def_of, r);
		for (int i = 0; i < 4; i++) {
			if (i == 3)
				an_gap(a);
			ck_assert_int_eq(an_entry(a, &e[i]), 0);
		}
		rows = an_rows(a, &n);
		if (!k) {
			/* one pair: the second begin was dropped with the gap */
			ck_assert_uint_eq(n, 1);
			ck_assert_uint_eq(rows[0]->h.n, 1);
			ck_assert(rows[0]->cycles == 100 && rows[0]->units == 10);
		} else {
			/* app.push: lags -, 100; app.pushed: 100, none after the gap */
			ck_assert_uint_eq(n, 2);
			ck_assert_str_eq(rows[1]->key[AN_EVENT], "app.pushed");
			ck_assert_uint_eq(rows[1]->entries, 2);
			ck_assert_uint_eq(rows[1]->h.n, 1);
			ck_assert_uint_eq(rows[0]->entries, 2);
			ck_assert_uint_eq(rows[0]->h.n, 1);
		}
		an_file_end(a);
		an_free(a);
	}
	tl_reader_close(r);
	tl_close(log);
}
END_TEST

/* ---- top -b ---------------------------------------------------------------- */

/* Line N (from 0) of screen S, in BUF. */
static const char *line_of(const char *s, int n, char *buf, size_t size)
{
	for (int i = 0; i < n && s; i++)
		s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL;
	snprintf(buf, size, "%.*s", s ? (int)strcspn(s, "\n") : 0, s ? s : "");
	return buf;
}

/* S with each run of blanks one space, none at the ends, in a string kept
 * until the test's end. */
static const char *words(const char *s)
{
	char *w = malloc(strlen(s) + 1), *p = w;
	ck_assert_ptr_nonnull(w);
	for (; *s; s++)
		if (*s != ' ' || (p > w && p[-1] != ' '))
			*p++ = *s;
	while (p > w && p[-1] == ' ')
		p--;
	*p = '\0';
	return test_keep(w);
}


/* ---- watching top and the writers, whatever the machine's load ------------- */

/* How long a test waits for top or a writer to get somewhere: as long as a
 * loaded machine may take, far more than a quiet one does. */
#define PATIENCE 30

/* The complete lines (blocks) of top's JSON output at PATH: the state of
 * the log named NAME in each, as lives_py shows it: R running, E ended,
 * . absent. Valid until the next call. */
static const char *states(const char *path, const char *name)
{
	char *text = read_file(path, NULL), *l, *nl, *st;
	char *key = xasprintf("\"log\":\"%s\",", name);
	size_t n = 0;
	for (l = text; l && (nl = strchr(l, '\n')); l = nl + 1)
		n++;
	free(top_states);
	top_states = st = calloc(n + 1, 1);
	ck_assert_ptr_nonnull(st);
	n = 0;
	for (l = text; l && (nl = strchr(l, '\n')); l = nl + 1, n++) {
		char *at, *run;
		*nl = '\0';   /* this block alone */
		at = strstr(l, key);
		run = at ? strstr(at, "\"running\":") : NULL;
		st[n] = !at ? '.' : run && !strncmp(run + 10, "true", 4) ? 'R' : 'E';
	}
	free(key);
	free(text);
	return st;
}

/* Waits until the states of NAME in top's JSON at PATH hold AT LEAST
 * MIN 'R' (then returns them) ... */
static const char *wait_running(const char *path, const char *name, size_t min)
{
	time_t stop = time(NULL) + PATIENCE;
	const char *st = states(path, name);
	while (strspn(st + strspn(st, "."), "R") < min && time(NULL) < stop) {
		usleep(20000);
		st = states(path, name);
	}
	ck_assert_msg(strspn(st + strspn(st, "."), "R") >= min, "%s in top's blocks: %s", name, st);
	return st;
}

/* ... or until they hold NEEDLE. */
static const char *wait_states(const char *path, const char *name, const char *needle)
{
	time_t stop = time(NULL) + PATIENCE;
	const char *st = states(path, name);
	while (!strstr(st, needle) && time(NULL) < stop) {
		usleep(20000);
		st = states(path, name);
	}
	ck_assert_msg(strstr(st, needle), "%s in top's blocks: %s, without %s", name, st, needle);
	return st;
}

/* Waits until the file at PATH holds N lines (top's first block: it has
 * looked at its paths). */
static void wait_lines(const char *path, size_t n)
{
	time_t stop = time(NULL) + PATIENCE;
	for (;;) {
		size_t len, k = 0;
		char *t = read_file(path, &len);
		for (size_t i = 0; t && i < len; i++)
			k += t[i] == '\n';
		free(t);
		if (k >= n)
			return;
		ck_assert_msg(time(NULL) < stop, "%s: %zu lines of %zu", path, k, n);
		usleep(20000);
	}
}

/* The only log in DIR: its path, once its header is written and its writer
 * has written at least N entries. Kept until the test's end. */
static const char *wait_log(const char *dir, uint64_t n)
{
	time_t stop = time(NULL) + PATIENCE;
	for (;;) {
		char *cmd = xasprintf("ls %s/*.timeline 2>/dev/null", dir), *out = NULL;
		int rc = run(cmd, &out, NULL);
		free(cmd);
		if (rc == 0 && *out && strchr(out, '\n') == out + strlen(out) - 1) {
			tl_reader *r;
			tl_info i;
			out[strlen(out) - 1] = '\0';
			/* a log being made has no header for a while: not a log yet */
			if ((r = tl_reader_open(out, NULL))) {
				tl_reader_info(r, &i);
				tl_reader_close(r);
				if (i.cursor >= n)
					return test_keep(out);
			}
		}
		free(out);
		ck_assert_msg(time(NULL) < stop, "no log of %llu entries in %s", (unsigned long long)n, dir);
		usleep(20000);
	}
}

/* The inode of PATH, 0 when there is none. */
static ino_t inode_of(const char *path)
{
	struct stat st;
	return stat(path, &st) ? 0 : st.st_ino;
}

/* Waits until the file at PATH is there and replaced (top -o writes a new
 * one at each refresh) after inode WAS. Returns the new inode. */
static ino_t wait_replaced(const char *path, ino_t was)
{
	time_t stop = time(NULL) + PATIENCE;
	ino_t now;
	while (((now = inode_of(path)) == 0 || now == was) && time(NULL) < stop)
		usleep(20000);
	ck_assert_msg(now && now != was, "%s: not written again", path);
	return now;
}

/* Ends top (PID), which has shown what the test waited for, with SIGTERM:
 * it stops at once and exits 0. */
static void end_top(pid_t top)
{
	ck_assert_int_eq(kill(top, SIGTERM), 0);
	ck_assert_int_eq(reap(top), 0);
}

/* Compares the window of the last block of top's JSON (argv[1]) with
 * stats over the same log (argv[2]: --per packets --by event,app; argv[3]:
 * lags): breaths, each pair and app's share (none for the breath), cycles
 * per packet, p50 and p99, each event's
 * lag p50 and p99. Prints what differs, or "same". The percentiles come
 * from the same log-bucketed histograms: within their 0.39% bound, here
 * equal; the sums are of whole numbers of cycles: equal too. */
static const char agree_py[] =
	"import json,sys\n"
	"def nan(c): raise ValueError(c)\n"
	"top=[json.loads(l,parse_constant=nan) for l in open(sys.argv[1])]\n"
	"per=[json.loads(l,parse_constant=nan) for l in open(sys.argv[2])]\n"
	"lag=[json.loads(l,parse_constant=nan) for l in open(sys.argv[3])]\n"
	"logs=top[-1][\"logs\"]\n"
	"assert len(logs)==1 and not logs[0][\"running\"]\n"
	"w=logs[0][\"window\"]\n"
	"bad=[]\n"
	"def same(what,a,b,rel=1e-12):\n"
	"  if a is None or b is None or abs(a-b)>rel*abs(b): bad.append((what,a,b))\n"
	"if not (w[\"read\"]==w[\"written\"] and w[\"lost\"]==0 and w[\"unread\"]==0): bad.append((\"read\",w))\n"
	"b=[r for r in per if r[\"table\"]==\"breaths\"][0]\n"
	"same(\"breaths/s\",w[\"breaths_per_s\"],b[\"breaths/s\"],1e-9)\n"
	"same(\"Gbps\",w[\"gbps\"],b[\"Gbps\"],1e-9)\n"
	"same(\"cycles/packet\",w[\"cycles_per_packet\"],b[\"cycles/packet\"],1e-9)\n"
	"share={r[\"app\"]:r[\"share%\"] for r in per if r[\"table\"]==\"overhead\"}\n"
	"rows={(r[\"event\"],r[\"app\"]):r for r in per if r[\"table\"]==\"per\"}\n"
	"apps=sorted((a[\"pair\"],a[\"app\"] or \"-\") for a in w[\"apps\"])\n"
	"if apps!=[(\"app.pull\",\"source\"),(\"app.push\",\"checksum\"),(\"app.push\",\"lookup\"),"
	"(\"app.push\",\"rewrite\"),(\"app.push\",\"sink\"),(\"engine.breath\",\"-\")]:\n"
	"  bad.append((\"apps\",apps))\n"
	"for a in w[\"apps\"]:\n"
	"  r=rows[(a[\"pair\"],a[\"app\"])]\n"
	"  name=a[\"app\"] or a[\"pair\"]\n"
	"  if a[\"app\"]: same(name+\" share\",a[\"share_pct\"],share[a[\"app\"]],1e-9)\n"
	"  elif a[\"share_pct\"] is not None: bad.append((\"breath share\",a[\"share_pct\"]))\n"
	"  same(name+\" cycles/packet\",a[\"cycles_per_packet\"],r[\"cycles/packet\"],1e-9)\n"
	"  same(name+\" p50\",a[\"p50\"],r[\"p50\"])\n"
	"  same(name+\" p99\",a[\"p99\"],r[\"p99\"])\n"
	"lags={r[\"event\"]:r for r in lag if r[\"table\"]==\"lag\"}\n"
	"for e in w[\"events\"]:\n"
	"  if e[\"event\"] in lags:\n"
	"    same(e[\"event\"]+\" p50\",e[\"lag_p50\"],lags[e[\"event\"]][\"p50\"])\n"
	"    same(e[\"event\"]+\" p99\",e[\"lag_p99\"],lags[e[\"event\"]][\"p99\"])\n"
	"print(bad if bad else \"same\")\n";

START_TEST(test_top_batch_agrees_with_stats_on_the_demo_engine)
{
	const char *logs = test_str("%s/logs", test_dir), *json = test_str("%s/top.json", test_dir);
	pid_t top;
	char *out;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	/* top first, its first block out: the engine's log is new to it, read
	 * from its first entry */
	top = spawn(test_str("exec '%s' top -b -f json -d 0.5 -w 60 %s > %s", timeline_bin(), logs, json));
	wait_lines(json, 1);
	free(ok(test_str("%s --dir %s --name imix --workload imix --seconds 1 --pace 100000", engine_bin(), logs)));
	/* a block that saw it end (the window holds it all from then on) */
	wait_states(json, "imix", "E");
	end_top(top);
	free(ok(test_str("cd %s && '%s' stats -f json --per packets --by event,app logs > per.json && "
		  "'%s' stats -f json logs > lag.json", test_dir, timeline_bin(), timeline_bin())));
	out = ok(test_str("cd %s && python3 -c '%s' top.json per.json lag.json", test_dir, agree_py));
	ck_assert_str_eq(out, "same\n");
	free(out);
}
END_TEST

/* Per log path, from top's JSON blocks: the sum of each interval's written
 * entries, and in which blocks it was running, ended, or gone. */
static const char lives_py[] =
	"import json,sys\n"
	"def nan(c): raise ValueError(c)\n"
	"blocks=[json.loads(l,parse_constant=nan) for l in open(sys.argv[1])]\n"
	"paths=sorted({l[\"path\"] for b in blocks for l in b[\"logs\"]})\n"
	"for p in paths:\n"
	"  s=\"\"\n"
	"  written=0\n"
	"  for b in blocks:\n"
	"    l=[x for x in b[\"logs\"] if x[\"path\"]==p]\n"
	"    s+=(\"R\" if l[0][\"running\"] else \"E\") if l else \".\"\n"
	"    if l:\n"
	"      written+=l[0][\"last\"][\"written\"]\n"
	"      assert l[0][\"last\"][\"read\"]+l[0][\"last\"][\"lost\"]+l[0][\"last\"][\"unread\"]==l[0][\"last\"][\"written\"]\n"
	"  print(p.split(\"/\")[-1].split(\"-\")[0], s, written)\n";

/* The entries ever written to the log of NAME in DIR (its cursor). */
static unsigned long long written_to(const char *dir, const char *name)
{
	char *out = ok(test_str("'%s' ls %s", timeline_bin(), dir));
	const char *p = strstr(out, name);
	unsigned long long n;
	ck_assert_ptr_nonnull(p);
	while (p > out && p[-1] != '\n')
		p--;
	ck_assert_int_eq(sscanf(p, "%*u %*s %llu", &n), 1);
	free(out);
	return n;
}

/* A metrics file's structure (argv[1]): per family in file order, its
 * name, type, label names (le aside) and number of series; the values of
 * LABEL argv[2] in the first family; the buckets per histogram series;
 * "dup" for a series given twice. */
static const char families_py[] =
	"import re,sys\n"
	"fams=[]\n"
	"seen=set()\n"
	"buckets={}\n"
	"for l in open(sys.argv[1]):\n"
	"  if l.startswith('# TYPE '):\n"
	"    fams.append([l.split()[2],l.split()[3],set(),set()])\n"
	"    continue\n"
	"  if l.startswith('#'): continue\n"
	"  m=re.match(r'(\\w+)\\{(.*)\\} (\\S+)\\n$',l)\n"
	"  labels=re.findall(r'(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"',m.group(2))\n"
	"  key=(m.group(1),tuple(labels))\n"
	"  if key in seen: print('dup',key)\n"
	"  seen.add(key)\n"
	"  f=fams[-1]\n"
	"  assert m.group(1).startswith(f[0])\n"
	"  rest=tuple(x for x in labels if x[0]!='le')\n"
	"  f[2].update(x[0] for x in rest)\n"
	"  f[3].add(rest)\n"
	"  if m.group(1).endswith('_bucket'): buckets[rest]=buckets.get(rest,0)+1\n"
	"for f in fams: print(f[0],f[1],','.join(sorted(f[2])),len(f[3]))\n"
	"print(' '.join(sorted({dict(r)[sys.argv[2]] for r in fams[0][3]})))\n"
	"print(sorted(set(buckets.values())))\n";

START_TEST(test_top_openmetrics_file_is_stats_over_the_window)
{
	const char *logs = test_str("%s/logs", test_dir), *prom = test_str("%s/prom", test_dir);
	const char *file = test_str("%s/timeline.prom", prom);
	struct stat st;
	pid_t top, engine;
	char *out, host[128] = "";
	int events;
	gethostname(host, sizeof host - 1);
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	ck_assert_int_eq(mkdir(prom, 0700), 0);
	/* top first: the engine's log is read from its first entry, and the
	 * window (60 s) holds all of it at the last refresh */
	top = spawn(test_str("exec '%s' top -b -f openmetrics -d 0.5 -w 60 -o %s %s", timeline_bin(),
			     file, logs));
	wait_replaced(file, 0);   /* its first refresh: it has looked at LOGS */
	engine = spawn(test_str("exec %s --dir %s --name imix --workload imix --seconds 1 --pace 100000 "
				">/dev/null", engine_bin(), logs));
	ck_assert_int_eq(reap(engine), 0);
	/* two refreshes after the engine ended: the first may have begun
	 * before; the second read all it wrote */
	wait_replaced(file, wait_replaced(file, inode_of(file)));
	end_top(top);
	/* the file alone in its directory (no temporary file left), 0644 as
	 * stats -o makes it, and promtool takes it */
	out = ok(test_str("ls -A %s && promtool check metrics < %s 2>&1", prom, file));
	ck_assert_str_eq(out, "timeline.prom\n");
	free(out);
	ck_assert_int_eq(lstat(file, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_int_eq(st.st_mode & 07777, 0644);
	/* the events the log holds (its rate is drawn each breath: some are
	 * there or not), as stats counts them */
	out = ok(test_str("'%s' stats -f openmetrics %s | grep -c '^timeline_lag_cycles_count'",
			  timeline_bin(), logs));
	events = atoi(out);
	ck_assert_int_ge(events, 6);
	free(out);
	/* the families: the two histograms of the window, then the counters of
	 * the one log, labelled as stats labels them; every app; 130 buckets */
	write_file(test_str("%s/families.py", test_dir), families_py, strlen(families_py));
	out = ok(test_str("python3 %s/families.py %s app", test_dir, file));
	ck_assert_str_eq(out, test_str("timeline_cycles_per_packet histogram app,process 6\n"
				       "timeline_lag_cycles histogram event,process %d\n"
				       "timeline_breaths_total counter group,host,process 1\n"
				       "timeline_packets_total counter group,host,process 1\n"
				       "timeline_entries_written_total counter group,host,process 1\n"
				       "timeline_entries_lost_total counter group,host,process 1\n"
				       "- checksum lookup rewrite sink source\n"
				       "[130]\n", events));
	free(out);
	/* each series of the one process: 132 per histogram row, 4 counters */
	out = ok(test_str("grep -c 'process=\"engine\\[%d\\]\"' %s", (int)engine, file));
	ck_assert_int_eq(atoi(out), (6 + events) * 132 + 4);
	free(out);
	/* every series, byte for byte, what stats prints over the same log:
	 * the histogram of --per packets --by app,process, that of --by
	 * event,process, the counters (written: the log's cursor, lost: 0) */
	out = ok(test_str("cd %s && { '%s' stats -f openmetrics --per packets --by app,process logs | "
			  "sed '/^# HELP timeline_breaths_total/,$d'; '%s' stats -f openmetrics --by "
			  "event,process logs; } | grep -v '^#' > want && grep -v '^#' %s > got && "
			  "cmp want got && grep -c . got && grep '^timeline_entries' got",
			  test_dir, timeline_bin(), timeline_bin(), file));
	ck_assert_str_eq(out, test_str("%d\ntimeline_entries_written_total{process=\"engine[%d]\",host=\"%s\","
				       "group=\"logs\"} %llu\ntimeline_entries_lost_total{process="
				       "\"engine[%d]\",host=\"%s\",group=\"logs\"} 0\n",
				       (6 + events) * 132 + 4, (int)engine, host,
				       written_to(logs, "imix"), (int)engine, host));
	free(out);
}
END_TEST

START_TEST(test_top_openmetrics_counters_of_a_log_followed_from_its_middle)
{
	const char *logs = test_str("%s/logs", test_dir), *file = test_str("%s/t.prom", test_dir);
	pid_t engine;
	char *out, *want;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	pid_t top;
	int st;
	/* the log has entries when top starts: top counts what comes after,
	 * but the counters are the log's own, and it ends while top runs. The
	 * engine is stopped while top starts, so that it goes on after, however
	 * long top takes to start */
	engine = spawn(test_str("exec %s --dir %s --name mid --breaths 30000 --pace 20000 >/dev/null",
				engine_bin(), logs));
	wait_log(logs, 100);   /* the per-breath draw: about 1 entry in 30 breaths */
	ck_assert_int_eq(kill(engine, SIGSTOP), 0);
	ck_assert_int_eq(waitpid(engine, &st, WUNTRACED), engine);
	ck_assert_msg(WIFSTOPPED(st), "the engine ended before top started: %#x", st);
	top = spawn(test_str("exec '%s' top -b -f openmetrics -d 0.5 -w 60 -o %s %s", timeline_bin(), file,
			     logs));
	wait_replaced(file, 0);   /* its first refresh: it follows the log from there */
	ck_assert_int_eq(kill(engine, SIGCONT), 0);
	ck_assert_int_eq(reap(engine), 0);
	wait_replaced(file, wait_replaced(file, inode_of(file)));
	end_top(top);
	/* the four counters, byte for byte as stats gives them: the breath and
	 * packet counts of the last breath_end, written = the cursor, 0 lost */
	want = ok(test_str("'%s' stats -f openmetrics %s | grep '^timeline_.*_total{'", timeline_bin(), logs));
	out = ok(test_str("grep '^timeline_.*_total{' %s", file));
	ck_assert_str_eq(out, want);
	ck_assert_ptr_nonnull(strstr(out, test_str("timeline_entries_written_total{process=\"engine[%d]\"",
						   (int)engine)));
	ck_assert_ptr_nonnull(strstr(out, test_str("group=\"logs\"} %llu\ntimeline_entries_lost_total",
						   written_to(logs, "mid"))));
	free(out);
	free(want);
	/* while the histograms hold only what came after: fewer breath_end */
	want = ok(test_str("'%s' stats -f openmetrics %s | grep '^timeline_lag_cycles_count{event=\"engine.breath_end\"'",
			   timeline_bin(), logs));
	out = ok(test_str("grep '^timeline_lag_cycles_count{event=\"engine.breath_end\"' %s", file));
	ck_assert_uint_gt(strtoull(strrchr(want, ' '), NULL, 10), strtoull(strrchr(out, ' '), NULL, 10));
	ck_assert_uint_gt(strtoull(strrchr(out, ' '), NULL, 10), 0);
	free(out);
	free(want);
}
END_TEST

START_TEST(test_top_openmetrics_without_o_prints_each_refresh)
{
	static const char block[] =
		"# HELP timeline_cycles_per_packet Cycles per unit of each begin/end pair, over "
		"timeline top's window, the last 0.3s (a snapshot: histogram_quantile() of the "
		"buckets, not of their rate)\n"
		"# TYPE timeline_cycles_per_packet histogram\n"
		"# HELP timeline_lag_cycles Cycles since the previous entry of the same or a lower "
		"level, over timeline top's window, the last 0.3s (a snapshot: histogram_quantile() "
		"of the buckets, not of their rate)\n"
		"# TYPE timeline_lag_cycles histogram\n"
		"# HELP timeline_breaths_total The breath number of the last breath_end of each log\n"
		"# TYPE timeline_breaths_total counter\n"
		"# HELP timeline_packets_total The totalpackets of the last breath_end of each log\n"
		"# TYPE timeline_packets_total counter\n"
		"# HELP timeline_entries_written_total Entries each log's writer wrote\n"
		"# TYPE timeline_entries_written_total counter\n"
		"# HELP timeline_entries_lost_total Entries written but not read: overwritten by the "
		"ring before the read, or incomplete\n"
		"# TYPE timeline_entries_lost_total counter\n";
	const char *logs = test_str("%s/logs", test_dir);
	char *out, *err;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	/* no log: the families without series, once per refresh; and at the
	 * end, a path that held no log all along is said (exit 2) */
	ck_assert_int_eq(run(test_str("'%s' top -b -f openmetrics -d 0.1 -w 0.3 -n 2 %s", timeline_bin(),
				      logs), &out, &err), 2);
	ck_assert_str_eq(out, test_str("%s%s", block, block));
	ck_assert_str_eq(err, test_str("timeline top: %s: no logs\n", logs));
	free(out);
	free(err);
	/* one refresh is one exposition promtool takes */
	out = ok(test_str("'%s' top -b -f prometheus -d 0.1 -w 0.3 -n 1 %s 2>/dev/null | "
			  "promtool check metrics 2>&1", timeline_bin(), logs));
	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

START_TEST(test_top_openmetrics_file_replaces_a_link_and_a_missing_directory_ends_top)
{
	const char *logs = test_str("%s/logs", test_dir), *link = test_str("%s/link.prom", test_dir);
	char *out, *err, *kept;
	struct stat st;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	/* a link at the path is replaced, what it points to left alone */
	write_file(test_str("%s/target", test_dir), "keep\n", 5);
	ck_assert_int_eq(symlink("target", link), 0);
	ck_assert_int_eq(run(test_str("'%s' top -b -f openmetrics -d 0.1 -n 2 -o %s %s", timeline_bin(),
				      link, logs), &out, &err), 2);
	ck_assert_str_eq(err, test_str("timeline top: %s: no logs\n", logs));   /* none came */
	free(out);
	free(err);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISREG(st.st_mode) && st.st_size > 0);
	ck_assert_int_eq(st.st_mode & 07777, 0644);
	kept = read_file(test_str("%s/target", test_dir), NULL);
	ck_assert_str_eq(kept, "keep\n");
	free(kept);
	/* a file that cannot be written: said once, naming it; top ends, exit 2 */
	ck_assert_int_eq(run(test_str("'%s' top -b -f openmetrics -d 0.1 -n 5 -o %s/missing/t.prom %s",
				      timeline_bin(), test_dir, logs), &out, &err), 2);
	ck_assert_str_eq(err, test_str("timeline top: %s/missing/t.prom: No such file or directory\n"
				       "timeline top: %s: no logs\n", test_dir, logs));
	ck_assert_str_eq(out, "");
	free(out);
	free(err);
	out = ok(test_str("ls -A %s", test_dir));
	ck_assert_str_eq(out, "link.prom\nlogs\ntarget\n");
	free(out);
}
END_TEST

START_TEST(test_top_follows_writers_started_and_stopped_while_it_runs)
{
	const char *logs = test_str("%s/logs", test_dir), *json = test_str("%s/top.json", test_dir);
	pid_t top, a, b;
	char *out, name[2][64];
	unsigned long long total[2], counted[2];
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	top = spawn(test_str("exec '%s' top -b -f json -d 0.25 -w 0.5 %s > %s", timeline_bin(), logs, json));
	wait_lines(json, 1);
	/* each writer seen running twice before the next starts or it stops:
	 * by top's blocks, not by the clock, which a loaded machine stretches */
	a = spawn(test_str("exec %s --dir %s --name first --seconds 60 --pace 20000 --rate 5 >/dev/null",
			   engine_bin(), logs));
	wait_running(json, "first", 2);
	b = spawn(test_str("exec %s --dir %s --name second --seconds 60 --pace 20000 --rate 5 >/dev/null",
			   engine_bin(), logs));
	wait_running(json, "second", 2);
	kill(a, SIGTERM);
	ck_assert_int_eq(reap(a), -1);
	kill(b, SIGTERM);
	ck_assert_int_eq(reap(b), -1);
	/* both shown as ended for the window's two intervals, then gone */
	wait_states(json, "first", "EE..");
	wait_states(json, "second", "EE..");
	end_top(top);
	out = ok(test_str("python3 -c '%s' %s", lives_py, json));
	/* e.g. "first ..RRRREE.......... 241667": absent, running, shown as
	 * ended while the window (two intervals) holds its last ones, then
	 * gone; the second starts later. Every entry written counted once. */
	ck_assert_int_eq(sscanf(out, "first %63s %llu\nsecond %63s %llu", name[0], &counted[0], name[1],
				&counted[1]), 4);
	for (int k = 0; k < 2; k++) {
		const char *s = name[k];
		size_t runs = strspn(s + strspn(s, "."), "R"), at = strspn(s, ".");
		ck_assert_msg(runs >= 2 && !strncmp(s + at + runs, "EE.", 3) &&
			      strspn(s + at + runs + 2, ".") == strlen(s + at + runs + 2), "%s", out);
		total[k] = written_to(logs, k ? "second" : "first");
		ck_assert_uint_eq(counted[k], total[k]);
	}
	/* the second appeared after the first */
	ck_assert_uint_gt(strspn(name[1], "."), strspn(name[0], "."));
	free(out);
}
END_TEST

START_TEST(test_top_reads_the_newest_part_when_it_cannot_keep_up_and_says_so)
{
	const char *logs = test_str("%s/logs", test_dir);
	pid_t w;
	char *text, *json, *py;
	const char *line;
	int sampled = 0;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	/* every event of a flat-out engine: millions of entries a second; it
	 * runs until killed, however long top takes */
	w = spawn(test_str("exec %s --dir %s --name flat --rate all --seconds 60 --workload small >/dev/null",
		    engine_bin(), logs));
	wait_log(logs, 1);
	json = ok(test_str("'%s' top -b -f json -d 0.5 -n 3 %s", timeline_bin(), logs));
	text = ok(test_str("'%s' top -b -d 0.5 -n 3 %s", timeline_bin(), logs));
	kill(w, SIGKILL);
	reap(w);
	/* every interval, whatever the engine got of the CPUs: each entry
	 * written read, lost or left unread, and the newest read; left unread
	 * (sampled) when the engine wrote more than top's budget reads, which
	 * a flat-out engine does unless starved for the whole run */
	write_file(test_str("%s/top.json", test_dir), json, strlen(json));
	py = ok(test_str("python3 -c 'import json,sys\n"
		  "def nan(c): raise ValueError(c)\n"
		  "for l in open(sys.argv[1]):\n"
		  "  s=json.loads(l,parse_constant=nan)[\"logs\"][0][\"last\"]\n"
		  "  print(s[\"read\"]+s[\"lost\"]+s[\"unread\"]==s[\"written\"], s[\"read\"]>0, s[\"unread\"]>0)'"
		  " %s/top.json", test_dir));
	for (const char *l = py; *l; l = strchr(l, '\n') + 1) {
		ck_assert_msg(!strncmp(l, "True True ", 10), "%s", py);
		sampled += !strncmp(l + 10, "True", 4);
	}
	ck_assert_msg(strlen(py) > 0 && strchr(py, '\n') - py < 20, "%s", py);
	/* the screen's status line says which: exact counts, or SAMPLED with
	 * the share read */
	for (line = strstr(text, "\nlast "); line; line = strstr(line + 1, "\nlast ")) {
		unsigned long long written, read, lost;
		double secs, pct;
		int n = sscanf(line + 1, "last %lgs: %llu entries written, %llu read, %llu lost to lapping  "
			       "SAMPLED: read the newest %lg%% of what was new", &secs, &written, &read, &lost,
			       &pct);
		ck_assert_msg(n == 4 || n == 5, "%.200s", line + 1);
		if (n == 5) {
			ck_assert_msg(pct > 0 && pct < 100 && read + lost < written, "%.200s", line + 1);
			sampled++;
		} else {
			ck_assert_msg(read + lost == written, "%.200s", line + 1);
		}
	}
	ck_assert_msg(sampled > 0, "never sampled: %s\n%s", py, text);
	free(py);
	free(text);
	free(json);
}
END_TEST

/* ---- top at its edges: a lap, sampling, the window (issue 30) ------------- */

/* A log of this process at DIR/w.timeline of ENTRIES slots on the manual
 * clock, with its one event top.e; *ID gets the event's id. */
static tl_log *own_log(const char *dir, uint64_t entries, uint16_t *id)
{
	tl_log *log = open_manual(test_str("%s/w.timeline", dir), entries);
	tl_error err;
	ck_assert_msg(tl_intern(log, "4,6|top.e: i", id, &err) == TL_OK, "%s", err.msg);
	return log;
}

/* Appends N entries of ID to LOG, numbered from *NEXT on (1000 ticks
 * apart), and moves *NEXT past them. */
static void put_n(tl_log *log, uint16_t id, uint64_t *next, uint64_t n)
{
	for (uint64_t i = *next; i < *next + n; i++) {
		tl_set_manual_clock(log, 1000 * (i + 1), 0);
		tl_append(log, id, i, 0, 0, 0, 0, 0);
	}
	*next += n;
}

/* The occurrences of MARK in the file at PATH (0 when it is not there). */
static size_t count_in(const char *path, const char *mark)
{
	char *text = read_file(path, NULL);
	size_t n = 0;
	for (const char *p = text; p && (p = strstr(p, mark)); p += strlen(mark))
		n++;
	free(text);
	return n;
}

/* Waits until the file at PATH holds MARK N times (N blocks of top's). */
static void wait_count(const char *path, const char *mark, size_t n)
{
	time_t stop = time(NULL) + PATIENCE;
	while (count_in(path, mark) < n && time(NULL) < stop)
		usleep(20000);
	ck_assert_msg(count_in(path, mark) >= n, "%s: %zu blocks of %zu", path, count_in(path, mark), n);
}

/* Runs `top -b ARGS DIR` into OUT, each block holding MARK once; once the
 * first block is out, top is stopped while N entries are written into LOG,
 * so that one poll finds them all, however the machine shares its CPUs;
 * then it goes on until two more blocks are out (the poll that found them
 * in one of them) and is ended. */
static void top_around(const char *args, const char *dir, const char *out, const char *mark,
		       tl_log *log, uint16_t id, uint64_t *next, uint64_t n)
{
	pid_t top = spawn(test_str("exec '%s' top -b %s %s > %s", timeline_bin(), args, dir, out));
	size_t blocks;
	int st;
	wait_count(out, mark, 1);
	ck_assert_int_eq(kill(top, SIGSTOP), 0);
	ck_assert_int_eq(waitpid(top, &st, WUNTRACED), top);
	ck_assert_msg(WIFSTOPPED(st), "top ended: %#x", st);
	blocks = count_in(out, mark);
	put_n(log, id, next, n);
	ck_assert_int_eq(kill(top, SIGCONT), 0);
	wait_count(out, mark, blocks + 2);
	end_top(top);
}

/* Per block of top's JSON (argv[1]), of its one log: the last interval's
 * written, read, lost and unread, its events' per_s times its seconds
 * added up, then the same of the window: "W R L U S | W R L U S". */
static const char spans_py[] =
	"import json,sys\n"
	"def nan(c): raise ValueError(c)\n"
	"def span(s): return \"%d %d %d %d %.6f\"%(s[\"written\"],s[\"read\"],s[\"lost\"],s[\"unread\"],"
	"sum(e[\"per_s\"] for e in s[\"events\"])*s[\"seconds\"])\n"
	"for l in open(sys.argv[1]):\n"
	"  g=json.loads(l,parse_constant=nan)[\"logs\"]\n"
	"  assert len(g)==1\n"
	"  print(span(g[0][\"last\"]),\"|\",span(g[0][\"window\"]))\n";

/* What spans_py prints of BLOCKS blocks when the interval of block K
 * (from 1) alone holds entries, whose figures are LAST; the window holds
 * every block. */
static const char *spans_want(size_t blocks, size_t k, const char *last)
{
	char *w = xasprintf("%s", "");
	for (size_t b = 1; b <= blocks; b++) {
		char *n = xasprintf("%s%s | %s\n", w, b == k ? last : "0 0 0 0 0.000000",
				    b < k ? "0 0 0 0 0.000000" : last);
		free(w);
		w = n;
	}
	return test_keep(w);
}

/* Lapped, not sampled: 10,000 entries into a ring of 4,096 in one poll,
 * whatever top's budget (it reads 150,000 entries a poll before it has
 * measured its cost): 5,904 lost, 4,096 read, none unread, each counted
 * once; the rates (per_s, ENTRY/S) scaled up to what was written, in the
 * interval and in the window (10 s: it holds them all). CSV's window is
 * the sum of the intervals' seconds, to the last bit. */
START_TEST(test_top_lapped_counts_each_entry_once_and_scales_its_rates_to_what_was_written)
{
	const char *logs = test_str("%s/logs", test_dir), *json = test_str("%s/top.json", test_dir);
	const char *csv = test_str("%s/top.csv", test_dir);
	const char *lapped = "10000 4096 5904 0 10000.000000";
	uint64_t next = 0;
	uint16_t id;
	tl_log *log;
	char *out;
	size_t blocks, k;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	log = own_log(logs, 4096, &id);
	top_around("-f json -d 0.2 -w 10", logs, json, "\n", log, id, &next, 10000);
	out = ok(test_str("python3 -c '%s' %s", spans_py, json));
	/* the entries in the interval of the block after the stop or the one
	 * after it; nothing before or after */
	blocks = count_in(json, "\n");
	for (k = 2; k <= blocks && strcmp(out, spans_want(blocks, k, lapped)); k++)
		;
	ck_assert_msg(k <= blocks, "%s", out);
	free(out);
	/* by process in CSV: ENTRY/S times the seconds is what was written,
	 * LOST what the lap overwrote, in the interval and in the window; the
	 * window's seconds are those of the intervals added up */
	top_around("-f csv -g process -d 0.2 -w 10", logs, csv, "\n", log, id, &next, 10000);
	out = ok(test_str("python3 -c 'import csv,sys\n"
			  "r=list(csv.DictReader(open(sys.argv[1])))\n"
			  "t=0.0\n"
			  "for x in r:\n"
			  "  t+=float(x[\"seconds\"])\n"
			  "  assert float(x[\"window_seconds\"])==t,(x[\"window_seconds\"],t)\n"
			  "  if float(x[\"entries_per_s\"]) or float(x[\"entries_per_s_window\"]):\n"
			  "    print(\"%%.6f %%s %%s | %%.6f %%s\"%%(float(x[\"entries_per_s\"])*float(x[\"seconds\"]),"
			  "x[\"lost\"],x[\"sampled\"],float(x[\"entries_per_s_window\"])*t,x[\"lost_window\"]))' %s", csv));
	/* one row of the interval, then the window's rows after it */
	ck_assert_msg(!strncmp(out, "10000.000000 5904 0 | 10000.000000 5904\n", 40), "%s", out);
	for (const char *l = strchr(out, '\n') + 1; *l; l = strchr(l, '\n') + 1)
		ck_assert_msg(!strncmp(l, "0.000000 0 0 | 10000.000000 5904\n", 33), "%s", out);
	free(out);
	tl_close(log);
}
END_TEST

/* At a lap and sampled in one poll: 2^18 + 1,000 entries into a ring of
 * 2^18 while top is stopped. Its first poll reads at most 150,000 (its
 * budget of 30 ms at 200 ns an entry, until it has measured its cost):
 * 1,000 lost to the lap, the rest of the ring read or left unread, each
 * entry counted once and lost and unread apart; the status line's share
 * is of what was read; OpenMetrics' lost counter leaves out the unread. */
START_TEST(test_top_lapped_and_sampled_in_one_poll_counts_lost_and_unread_apart)
{
	const char *logs = test_str("%s/logs", test_dir), *json = test_str("%s/top.json", test_dir);
	const char *text = test_str("%s/top.txt", test_dir), *om = test_str("%s/top.prom", test_dir);
	const uint64_t ring = 1u << 18, n = (1u << 18) + 1000;
	uint64_t next = 0;
	uint16_t id;
	tl_log *log;
	char *out, *t;
	const char *line;
	unsigned long long written = 0, read = 0, lost = 0;
	int seen = 0;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	log = own_log(logs, ring, &id);
	top_around("-f json -d 0.2 -w 10", logs, json, "\n", log, id, &next, n);
	out = ok(test_str("python3 -c 'import json,sys\n"
			  "def nan(c): raise ValueError(c)\n"
			  "for l in open(sys.argv[1]):\n"
			  "  g=json.loads(l,parse_constant=nan)[\"logs\"][0]\n"
			  "  for k in (\"last\",\"window\"):\n"
			  "    s=g[k]\n"
			  "    if s[\"written\"]: print(k,s[\"written\"],s[\"lost\"],s[\"read\"]+s[\"unread\"],"
			  "64<=s[\"read\"]<=150000,s[\"unread\"]>0)' %s", json));
	/* one interval, then the window keeps it */
	ck_assert_msg(!strncmp(out, "last 263144 1000 262144 True True\n", 34), "%s", out);
	for (const char *l = out + 34; *l; l = strchr(l, '\n') + 1)
		ck_assert_msg(!strncmp(l, "window 263144 1000 262144 True True\n", 36), "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "\nwindow "));
	free(out);
	/* the status line: the share read of what was new (the ring), rounded */
	top_around("-d 0.2 -w 10", logs, text, "timeline top  ", log, id, &next, n);
	t = read_file(text, NULL);
	for (line = strstr(t, "\nlast "); line; line = strstr(line + 1, "\nlast ")) {
		unsigned long long w, r, l;
		char pct[32], want[32];
		int got = sscanf(line + 1, "last %*gs: %llu entries written, %llu read, %llu lost to lapping  "
				 "SAMPLED: read the newest %31[^%%]%% of what was new", &w, &r, &l, pct);
		if (got >= 3 && !w)
			continue;
		ck_assert_msg(got == 4 && !seen, "%.300s", line + 1);
		snprintf(want, sizeof want, "%.0f", 100.0 * (double)r / (double)(w - l));
		ck_assert_str_eq(pct, want);
		written = w, read = r, lost = l, seen = 1;
	}
	ck_assert_msg(seen && written == n && lost == 1000 && read >= 64 && read <= 150000, "%s", t);
	free(t);
	/* OpenMetrics: written the cursor, lost the lap's 1,000 alone */
	top_around("-f openmetrics -d 0.2 -w 10", logs, om, "# TYPE timeline_entries_lost_total counter\n",
		   log, id, &next, n);
	out = ok(test_str("grep '^timeline_entries_' %s | tail -n 2 | sed 's/{.*}//'", om));
	ck_assert_str_eq(out, "timeline_entries_written_total 789432\ntimeline_entries_lost_total 1000\n");
	free(out);
	tl_close(log);
}
END_TEST

/* A window that is not a whole number of intervals (0.5 s of 0.2 s: 3),
 * run for more refreshes than it holds, entries written all along: at
 * every block the window's seconds (to the last bit), written, read, lost
 * and unread are those of the last three intervals added up. */
START_TEST(test_top_window_is_its_last_intervals_added_up_once_it_slides)
{
	const char *logs = test_str("%s/logs", test_dir), *json = test_str("%s/top.json", test_dir);
	uint64_t next = 0;
	uint16_t id;
	tl_log *log;
	pid_t top;
	char *out;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	log = own_log(logs, 4096, &id);
	top = spawn(test_str("exec '%s' top -b -f json -d 0.2 -w 0.5 %s > %s", timeline_bin(), logs, json));
	for (size_t k = 1; k <= 5; k++) {
		wait_count(json, "\n", k);
		put_n(log, id, &next, 100 * k);
	}
	wait_count(json, "\n", 9);
	end_top(top);
	out = ok(test_str("python3 -c 'import json,sys\n"
			  "def nan(c): raise ValueError(c)\n"
			  "b=[json.loads(l,parse_constant=nan) for l in open(sys.argv[1])]\n"
			  "g=[x[\"logs\"][0] for x in b]\n"
			  "slid=0\n"
			  "for i in range(len(g)):\n"
			  "  w=g[i][\"window\"]\n"
			  "  s=0.0\n"
			  "  for x in g[max(0,i-2):i+1]: s+=x[\"last\"][\"seconds\"]\n"
			  "  assert w[\"seconds\"]==s,(i,w[\"seconds\"],s)\n"
			  "  for k in (\"written\",\"read\",\"lost\",\"unread\"):\n"
			  "    assert w[k]==sum(x[\"last\"][k] for x in g[max(0,i-2):i+1]),(i,k)\n"
			  "  slid+=i>=3\n"
			  "print(b[0][\"window_intervals\"],len(b)>=9,slid>=6,"
			  "sum(x[\"last\"][\"written\"] for x in g),sum(x[\"last\"][\"read\"] for x in g))' %s", json));
	ck_assert_str_eq(out, "3 True True 1500 1500\n");
	free(out);
	tl_close(log);
}
END_TEST

/* The window holds ceil(window / delay) intervals, at most 3600: the title
 * and JSON's window_intervals say how many, whole or not, and the cap. */
START_TEST(test_top_window_holds_ceil_window_over_delay_intervals_up_to_3600)
{
	static const struct { const char *args, *title; int intervals; } w[] = {
		{ "-d 0.3", "every 0.3s  window 10.2s  ", 34 },       /* the default 10 s */
		{ "-d 0.2 -w 0.5", "every 0.2s  window 0.6s  ", 3 },
		{ "-d 0.25 -w 0.5", "every 0.25s  window 0.5s  ", 2 },
		{ "-d 0.1 -w 360", "every 0.1s  window 360s  ", 3600 },
		{ "-d 0.1 -w 360.1", "every 0.1s  window 360s  ", 3600 },
		{ "-d 0.1 -w 86400", "every 0.1s  window 360s  ", 3600 },
	};
	const char *logs = test_str("%s/logs", test_dir);
	uint16_t id;
	tl_log *log;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	log = own_log(logs, 64, &id);
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		char *out = ok(test_str("'%s' top -b -n 1 %s %s", timeline_bin(), w[i].args, logs));
		ck_assert_msg(strstr(out, w[i].title) != NULL, "%s: %s", w[i].args, out);
		free(out);
		out = ok(test_str("'%s' top -b -n 1 -f json %s %s", timeline_bin(), w[i].args, logs));
		ck_assert_msg(strstr(out, test_str(",\"window_intervals\":%d,", w[i].intervals)) != NULL,
			      "%s: %s", w[i].args, out);
		free(out);
	}
	tl_close(log);
}
END_TEST

START_TEST(test_top_batch_text_and_csv_show_each_refresh)
{
	const char *logs = test_str("%s/logs", test_dir);
	pid_t w;
	char *text, *csv, *py, *l1, *l2, line[512];
	unsigned long long pid;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	w = spawn(test_str("exec %s --dir %s --name paced --seconds 60 --pace 20000 >/dev/null", engine_bin(),
			   logs));
	wait_log(logs, 1);   /* there before top starts, running until killed */
	text = ok(test_str("'%s' top -b -g process -d 0.3 -w 3 -n 2 %s", timeline_bin(), logs));
	csv = ok(test_str("'%s' top -b -g process -f csv -d 0.3 -n 2 %s", timeline_bin(), logs));
	kill(w, SIGKILL);
	reap(w);
	/* two blocks of six lines and a blank line */
	l1 = strstr(text, "  refresh 1 every 0.3s  window 3s  1 log running  by process\n");
	l2 = strstr(text, "  refresh 2 every 0.3s  window 3s  1 log running  by process\n");
	ck_assert_msg(l1 && l2 && !strncmp(text, "timeline top  20", 16), "%s", text);
	ck_assert_str_eq(words(line_of(l1, 3, line, sizeof line)),
			 "PID LOG RATE ENTRY/S LOST BREATH/S PKT/S GBPS CYC/PKT ENTRY/S LOST BREATH/S PKT/S "
			 "GBPS CYC/PKT");
	ck_assert_int_eq(sscanf(line_of(l1, 4, line, sizeof line), "%llu paced auto", &pid), 1);
	ck_assert_uint_eq(pid, (unsigned long long)w);
	/* CSV: the header once, a row per refresh, read back by Python's csv */
	write_file(test_str("%s/top.csv", test_dir), csv, strlen(csv));
	py = ok(test_str("python3 -c 'import csv,sys\n"
		  "r=list(csv.reader(open(sys.argv[1])))\n"
		  "print(\",\".join(r[0]))\n"
		  "print(len(r), [x[0] for x in r[1:]], {len(x) for x in r}, r[1][5], r[1][6], r[1][7])' %s/top.csv",
		  test_dir));
	ck_assert_str_eq(py, test_str("refresh,time,seconds,window_seconds,sampled,pid,log,rate,entries_per_s,lost,"
			       "breaths_per_s,packets_per_s,gbps,cycles_per_packet,entries_per_s_window,"
			       "lost_window,breaths_per_s_window,packets_per_s_window,gbps_window,"
			       "cycles_per_packet_window\n3 [\x27" "1\x27, \x27" "2\x27] {20} %d paced auto\n",
			       (int)w));
	free(py);
	free(text);
	free(csv);
}
END_TEST

START_TEST(test_top_usage_errors_exit_2_with_the_reason)
{
	static const char *const bad[][2] = {
		{ "-b -d 0.05", "timeline top: --delay takes seconds from 0.1 to 3600\n" },
		{ "-b -d 1x", "timeline top: --delay takes seconds from 0.1 to 3600\n" },
		{ "-b -g cpu", "timeline top: --group must be process, app or event\n" },
		{ "-b -n 0", "timeline top: --count takes a whole number from 1\n" },
		{ "-b -d 2 -w 1", "timeline top: --window is shorter than --delay\n" },
		{ "-f csv", "timeline top: --format needs -b: the screen is text\n" },
		{ "-b -f xml", "timeline top: --format must be text, csv, json or openmetrics\n" },
		{ "-f openmetrics", "timeline top: --format needs -b: the screen is text\n" },
		{ "-b -o t.prom", "timeline top: -o goes with --format openmetrics\n" },
		{ "-b -f json -o t.prom", "timeline top: -o goes with --format openmetrics\n" },
		{ "-b -f openmetrics -o ''", "timeline top: -o takes a file name\n" },
		{ "", "timeline top: standard output is not a terminal: give -b for a block per refresh\n" },
		{ "-b --nope", "timeline top: unknown option '--nope'\n" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *out, *err;
		ck_assert_int_eq(run(test_str("'%s' top %s %s", timeline_bin(), bad[i][0], test_dir), &out, &err), 2);
		ck_assert_str_eq(err, test_str("%ssee 'timeline top --help'\n", bad[i][1]));
		ck_assert_str_eq(out, "");
		free(out);
		free(err);
	}
}
END_TEST

START_TEST(test_top_batch_says_once_what_it_cannot_read_and_exits_2)
{
	const char *logs = test_str("%s/logs", test_dir), *bad = test_str("%s/logs/cut.timeline", test_dir);
	const char *zero = test_str("%s/zero.timeline", test_dir);
	char *out, *err, head[64] = "", zeros[4096] = "";
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	memcpy(head, "\x89TLN\r\n\x1a\n", 8);   /* a header cut short */
	write_file(bad, head, sizeof head);
	write_file(zero, zeros, sizeof zeros);   /* a log whose header is not written yet */
	/* a header cut short is said at once; a file whose magic is not written
	 * yet and a missing path may be a log being born: waited for 2 s, and
	 * said at the end, 0.5 s later, once */
	ck_assert_int_eq(run(test_str("'%s' top -b -n 5 -d 0.1 %s %s %s/missing", timeline_bin(), logs, zero,
				      test_dir), &out, &err), 2);
	ck_assert_str_eq(err, test_str("timeline top: %s: not a timeline log (64 bytes, shorter than a header)\n"
				"timeline top: %s: not a timeline log (bad magic)\n"
				"timeline top: %s/missing: No such file or directory\n",
				bad, zero, test_dir));
	ck_assert_ptr_nonnull(strstr(out, "refresh 5 every 0.1s"));
	free(out);
	free(err);
}
END_TEST

/* ---- the screen, in tmux ----------------------------------------------------- */

/* The tmux server of this test case: its own socket, killed after the case
 * even when a test failed. */
static char tmux_sock[64];
static int tmux_runner;              /* the runner's pid: the sockets' names */

static void tmux_setup(void)
{
	tmux_runner = (int)getpid();
	snprintf(tmux_sock, sizeof tmux_sock, "tltop-%d-0", tmux_runner);
}

/* Kills the servers of sockets tltop-RUNNER-0 to -3. */
static void tmux_teardown(void)
{
	for (int k = 0; k < 4; k++) {
		char *cmd = xasprintf("tmux -L tltop-%d-%d kill-server 2>/dev/null", tmux_runner, k);
		if (system(cmd)) {
			/* no server on it: nothing to do */
		}
		free(cmd);
	}
}

/* Moves on to socket K (0 to 3): a server just killed on another may still
 * be going away. */
static void tmux_socket(int k)
{
	snprintf(tmux_sock, sizeof tmux_sock, "tltop-%d-%d", tmux_runner, k);
}

/* Runs tmux ARGS on the test's server; returns its stdout. */
static char *tmux(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *tmux(const char *fmt, ...)
{
	va_list ap;
	char *args, *out, *cmd;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&args, fmt, ap), 0);
	va_end(ap);
	cmd = xasprintf("tmux -L %s %s", tmux_sock, args);
	out = ok(cmd);
	free(cmd);
	free(args);
	return out;
}

/* The screen of pane "t" as text, kept until the test's end. */
static const char *screen(void)
{
	return test_keep(tmux("capture-pane -p -t t"));
}

/* Waits up to PATIENCE s for the screen to hold NEEDLE; returns the screen. */
static const char *wait_for(const char *needle)
{
	char *s = tmux("capture-pane -p -t t");
	for (time_t stop = time(NULL) + PATIENCE; !strstr(s, needle) && time(NULL) < stop;) {
		usleep(100000);
		free(s);
		s = tmux("capture-pane -p -t t");
	}
	ck_assert_msg(strstr(s, needle) != NULL, "no '%s' on the screen:\n%s", needle, s);
	return test_keep(s);
}

static void keys(const char *k)
{
	free(tmux("send-keys -t t %s", k));
}

/* The refresh number screen S shows, or -1 when it shows none. */
static int refresh_shown(const char *s)
{
	int r = -1;
	if (strstr(s, " refresh "))
		sscanf(strstr(s, " refresh "), " refresh %d ", &r);
	return r;
}

/* Waits up to PATIENCE s for top's own frame at ROWS rows: a refresh
 * after AFTER and the help line on the last row. tmux keeps the old
 * frame's bottom lines when it shrinks a window, so the help line alone
 * may be tmux's, not top's; returns the screen. */
static const char *wait_redrawn(int rows, int after)
{
	const char *s = screen();
	char line[512];
	for (time_t stop = time(NULL) + PATIENCE; time(NULL) < stop; s = screen()) {
		if (refresh_shown(s) > after && !strncmp(line_of(s, rows - 1, line, sizeof line), "q quit", 6))
			break;
		usleep(100000);
	}
	ck_assert_msg(refresh_shown(s) > after, "no refresh after %d:\n%s", after, s);
	ck_assert_msg(!strncmp(line_of(s, rows - 1, line, sizeof line), "q quit", 6), "%s", s);
	return s;
}

/* A number as the screen shows it: 4 digits, K, M, G after. */
static double shown(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	return v * (*end == 'K' ? 1e3 : *end == 'M' ? 1e6 : *end == 'G' ? 1e9 : 1);
}

/* Field K (from 0, split at blanks) of each row of screen S: the lines after
 * the column headings (line 4) up to a blank one; returns how many. */
static int column(const char *s, int k, double *v, char (*text)[32], int max)
{
	char line[512];
	int n = 0;
	for (int i = 5; n < max && *line_of(s, i, line, sizeof line); i++) {
		char *tok = strtok(line, " ");
		for (int f = 0; f < k && tok; f++)
			tok = strtok(NULL, " ");
		ck_assert_ptr_nonnull(tok);
		if (v)
			v[n] = shown(tok);
		if (text)
			snprintf(text[n], 32, "%s", tok);
		n++;
	}
	return n;
}

/* Starts two paced engines logging into LOGS and top in pane "t" of a
 * WxH window on tmux socket K (each test its own), which keeps the
 * terminal's settings before and after in DIR/before and DIR/after and
 * says how top exited. */
static void start(const char *logs, pid_t *e, int w, int h, int k)
{
	tmux_socket(k);
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	for (int i = 0; i < 2; i++) {
		const char *d = test_str("%s/%d", logs, i);
		/* one at a time, in a directory of its own: both logs are there
		 * with entries before top starts, however slow the machine */
		ck_assert_int_eq(mkdir(d, 0700), 0);
		e[i] = spawn(test_str("exec %s --dir %s --name %s --seconds 60 --pace 20000 --rate 5 >/dev/null",
			       engine_bin(), d, i ? "two" : "one"));
		wait_log(d, 1);
	}
	free(tmux("new-session -d -s t -x %d -y %d \"stty -g > %s/before; '%s' top -d 0.3 %s; "
		  "echo EXIT=\\$?; stty -g > %s/after; sleep 600\"", w, h, test_dir, timeline_bin(),
		  logs, test_dir));
}

static void stop(pid_t *e)
{
	for (int i = 0; i < 2; i++) {
		kill(e[i], SIGKILL);
		reap(e[i]);
	}
}

/* After top has ended: it said EXIT=0, left the alternate screen, and the
 * terminal's settings are as they were. */
static void assert_restored(void)
{
	const char *s = wait_for("EXIT=0");
	char *before, *after;
	ck_assert_ptr_null(strstr(s, "timeline top"));
	size_t len = 0;
	/* the shell makes the file, then stty writes it */
	for (time_t stop = time(NULL) + PATIENCE; !len && time(NULL) < stop;) {
		free(read_file(test_str("%s/after", test_dir), &len));
		usleep(100000);
	}
	before = read_file(test_str("%s/before", test_dir), NULL);
	after = read_file(test_str("%s/after", test_dir), NULL);
	ck_assert_ptr_nonnull(before);
	ck_assert_ptr_nonnull(after);
	ck_assert_str_eq(after, before);
	free(before);
	free(after);
}

START_TEST(test_top_screen_sorts_groups_focuses_sets_the_rate_pauses_and_quits)
{
	const char *logs = test_str("%s/logs", test_dir), *s, *a, *b;
	char line[512], pids[64][32], path[4096];
	double v[64];
	int n, pid, at;
	pid_t e[2];
	char *rate;
	start(logs, e, 130, 30, 0);
	s = wait_for("PAIRS/S");
	ck_assert(strstr(s, " one ") && strstr(s, " two ") && strstr(s, "SHARE%*"));
	ck_assert_str_eq(line_of(s, 29, line, sizeof line),
			 "q quit  space pause  < > sort  r reverse  p a e by process/app/event  j k select  f focus  R rate");
	/* sort by PID (five columns left), then reversed */
	keys("'<' '<' '<' '<' '<'");
	s = wait_for("PID* LOG");
	n = column(s, 0, v, NULL, 64);
	ck_assert_int_ge(n, 4);
	for (int i = 1; i < n; i++)
		ck_assert(v[i] >= v[i - 1]);
	keys("r");
	s = wait_for("[reversed]");
	n = column(s, 0, v, NULL, 64);
	for (int i = 1; i < n; i++)
		ck_assert(v[i] <= v[i - 1]);
	/* by CYC/PKT, largest first */
	keys("r '>' '>' '>' '>' '>' '>'");
	s = wait_for("CYC/PKT*");
	ck_assert_ptr_null(strstr(s, "[reversed]"));
	n = column(s, 6, v, NULL, 64);
	for (int i = 1; i < n; i++)
		ck_assert_msg(v[i] <= v[i - 1], "%s", s);
	/* by process and by event */
	keys("p");
	wait_for("BREATH/S");
	keys("e");
	wait_for("LAG-P50");
	keys("a");
	s = wait_for("PAIRS/S");
	/* focus on the second row's log: only its rows */
	keys("j f");
	s = wait_for("focus: ");
	ck_assert_int_eq(sscanf(strstr(s, "focus: "), "focus: %*[^[][%d] %4095s", &pid, path), 2);
	n = column(s, 0, v, NULL, 64);
	ck_assert_int_ge(n, 2);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq((int)v[i], pid);
	/* its rate, as `timeline rate` sees it */
	keys("R");
	wait_for("(all, auto, off, 1-9; Esc cancels): _");
	keys("7 Enter");
	wait_for(test_str("[%d] set to 7", pid));
	rate = ok(test_str("'%s' rate %s", timeline_bin(), path));
	ck_assert_str_eq(rate, test_str("%s: 7, fixed (events of rate 7 to 9 are logged)\n", path));
	free(rate);
	keys("f");
	s = wait_for("PAIRS/S");
	column(s, 0, NULL, pids, 64);
	/* pause: the screen stands still over several refreshes */
	keys("Space");
	wait_for("[PAUSED]");
	/* the paused frame whole: tmux may be caught reading it (bounded) */
	a = screen();
	for (time_t stop = time(NULL) + PATIENCE; time(NULL) < stop; a = b) {
		usleep(200000);
		if (!strcmp(a, b = screen()))
			break;
	}
	usleep(1000000);
	b = screen();
	ck_assert_str_eq(a, b);
	keys("Space");
	/* going again: redrawn, without the mark (as soon as top gets the CPU) */
	for (time_t stop = time(NULL) + PATIENCE; time(NULL) < stop; usleep(100000)) {
		a = screen();
		if (!strstr(a, "[PAUSED]") && strcmp(a, b))
			break;
	}
	ck_assert_ptr_null(strstr(a, "[PAUSED]"));
	ck_assert_str_ne(a, b);
	/* a smaller window: the frame fits it, the help line at its bottom */
	at = refresh_shown(a);
	free(tmux("resize-window -t t -x 70 -y 16"));
	s = wait_redrawn(16, at);
	ck_assert_ptr_nonnull(strstr(s, "\nq quit  space pause  < > sort  r reverse  p a e by process/app/event"));
	for (int i = 0; i < 16; i++)
		ck_assert_uint_le(strlen(line_of(s, i, line, sizeof line)), 70);
	ck_assert(!strncmp(line_of(s, 15, line, sizeof line), "q quit", 6));
	keys("q");
	assert_restored();
	stop(e);
}
END_TEST

START_TEST(test_top_screen_is_restored_after_sigint_and_sigterm)
{
	const char *logs = test_str("%s/logs", test_dir);
	pid_t e[2];
	char *pid;
	start(logs, e, 120, 30, 1);
	wait_for("PAIRS/S");
	keys("C-c");
	assert_restored();
	free(tmux("kill-server"));
	tmux_socket(2);
	unlink(test_str("%s/after", test_dir));
	free(tmux("new-session -d -s t -x 120 -y 30 \"stty -g > %s/before; exec 3>%s/pid; "
		  "sh -c 'echo \\$\\$ >&3; exec \\\"%s\\\" top -d 0.3 %s'; echo EXIT=\\$?; "
		  "stty -g > %s/after; sleep 600\"", test_dir, test_dir, timeline_bin(), logs, test_dir));
	wait_for("PAIRS/S");
	pid = read_file(test_str("%s/pid", test_dir), NULL);
	ck_assert_int_eq(kill(atoi(pid), SIGTERM), 0);
	assert_restored();
	free(pid);
	stop(e);
}
END_TEST

/* Rows PID LOG PAIR APP of the body lines FROM to TO of screen S, one a
 * line. */
static const char *body_keys(const char *s, int from, int to)
{
	char *keys = xasprintf("%s", ""), line[512];
	for (int i = from; i <= to; i++) {
		char pid[32] = "", log[32] = "", pair[32] = "", app[32] = "", *n;
		ck_assert_int_eq(sscanf(line_of(s, i, line, sizeof line), "%31s %31s %31s %31s", pid, log,
					pair, app), 4);
		n = xasprintf("%s%s %s %s %s\n", keys, pid, log, pair, app);
		free(keys);
		keys = n;
	}
	return test_keep(keys);
}

/* The refresh screen S shows. */
static int refresh_of(const char *s)
{
	int r = -1;
	ck_assert_msg(strstr(s, " refresh ") && sscanf(strstr(s, " refresh "), " refresh %d ", &r) == 1,
		      "%s", s);
	return r;
}

/* More rows than the screen holds (two engines' twelve pairs, each's
 * breath and five apps, six lines of body in 12): moving the selection
 * down past the last line shown scrolls just enough, the selected row on
 * the body's last line. */
START_TEST(test_top_screen_scrolls_to_keep_the_selected_row_in_sight)
{
	const char *logs = test_str("%s/logs", test_dir), *s = NULL, *all;
	char line[512], *shot;
	pid_t e[2];
	int n = 0, at;
	start(logs, e, 130, 40, 3);
	wait_for("PAIRS/S");
	keys("'<' '<' '<' '<' '<'");   /* by PID, then log, pair and app: an order that stays */
	for (time_t stop = time(NULL) + PATIENCE; time(NULL) < stop && n < 12; usleep(100000)) {
		char *raw = tmux("capture-pane -p -t t");   /* kept only when taken */
		n = strstr(raw, "PID* LOG") ? column(raw, 0, NULL, NULL, 64) : 0;
		if (n == 12 || time(NULL) >= stop)
			s = test_keep(raw);
		else
			free(raw);
	}
	ck_assert_msg(n == 12, "%d rows:\n%s", n, s ? s : "");
	all = body_keys(s, 5, 16);
	at = refresh_of(s);
	free(tmux("resize-window -t t -x 130 -y 12"));
	s = wait_redrawn(12, at);
	at = refresh_of(s);
	keys("j j j j j j j");
	/* two refreshes later top has read the keys: row 7 selected (in
	 * reverse video) on the body's last line, 10 */
	wait_redrawn(12, at + 1);   /* refresh at + 2 or later: a loaded machine may skip one */
	shot = tmux("capture-pane -e -p -t t");
	ck_assert_msg(strstr(line_of(shot, 10, line, sizeof line), "\033[7m"), "%s", shot);
	for (int i = 5; i < 10; i++)
		ck_assert_msg(!strstr(line_of(shot, i, line, sizeof line), "\033[7m"), "%s", shot);
	free(shot);
	/* the body is rows 2 to 7 of the twelve */
	s = screen();
	ck_assert_str_eq(body_keys(s, 5, 10), body_keys(all, 2, 7));
	keys("q");
	assert_restored();
	stop(e);
}
END_TEST

/* ---- review-b (issue 35): the app rows at their edges -------------------- */

/* Writes into LOG (manual clock) 3 breaths of 1000 cycles, 100 apart and
 * after tsc 1000, each holding app x's push of 200 cycles and 10 packets,
 * then app y's of 300 cycles and no packet. */
static void xy_breaths(tl_log *log)
{
	static const char *const eng[] = { "1,6|engine.breath_start: breath totalpackets",
					   "1,6|engine.breath_end: breath totalpackets" };
	static const char *const app[] = { "5,5|app.push: inpackets", "5,5|app.pushed: inpackets" };
	uint16_t e[2], x[2], y[2];
	ck_assert_int_eq(tl_register(log, eng, 2, NULL, e, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, app, 2, "app=x", x, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, app, 2, "app=y", y, NULL), TL_OK);
	for (uint64_t i = 0, t = 1000; i < 3; i++, t += 1100) {
		const uint64_t at[6] = { t, t + 10, t + 210, t + 220, t + 520, t + 1000 };
		const uint16_t id[6] = { e[0], x[0], x[1], y[0], y[1], e[1] };
		const uint64_t arg[6] = { i, 10 * i, 10 * i + 10, 10 * i + 10, 10 * i + 10, i + 1 };
		for (int k = 0; k < 6; k++) {
			tl_set_manual_clock(log, at[k], 0);
			tl_append(log, id[k], arg[k], k == 0 ? 10 * i : 10 * i + 10, 0, 0, 0, 0);
		}
	}
}

/* Of the last block of top's JSON (argv[1]), of its one log, the window's
 * apps: each one's share, cycles per packet, and its pairs
 * (pairs_per_s times the window's seconds). */
static const char xy_py[] =
	"import json,sys\n"
	"w=[json.loads(l) for l in open(sys.argv[1])][-1][\"logs\"][0][\"window\"]\n"
	"for a in w[\"apps\"]: print(a[\"app\"],a[\"share_pct\"],a[\"cycles_per_packet\"],\"%.6f\"%(a[\"pairs_per_s\"]*w[\"seconds\"]))\n";

/* Runs `top -b -f json -d 0.2 -w 60 ARGS` over a new log of xy_breaths(),
 * written after top's first block, until two blocks more; returns what
 * xy_py says of it. */
static const char *top_xy(const char *args)
{
	const char *logs = test_str("%s/logs%d", test_dir, (int)strlen(args));
	const char *out = test_str("%s/top.json", logs);
	pid_t top;
	tl_log *log;
	size_t blocks;
	char *said;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	log = open_manual(test_str("%s/w.timeline", logs), 256);
	top = spawn(test_str("exec '%s' top -b -f json -d 0.2 -w 60 %s %s > %s", timeline_bin(), args,
			     logs, out));
	wait_count(out, "\n", 1);
	xy_breaths(log);
	blocks = count_in(out, "\n");
	wait_count(out, "\n", blocks + 2);
	end_top(top);
	tl_close(log);
	said = ok(test_str("python3 -c '%s' %s", xy_py, out));
	return test_keep(said);
}

/* top's apps share the cycles of the breaths that held an app pair, not
 * the whole span's (the 100 between breaths): x 200 of 1000, 20%, y 30%;
 * y's pairs moved no packet and count among the pairs all the same (3),
 * with no cycles per packet; a --pair rule of top's own (which matches
 * nothing) keeps the built-in breath pairing, so the same shares. */
START_TEST(test_top_shares_the_breaths_cycles_and_counts_pairs_of_no_packets)
{
	/* and the breath's own row (issue 36: top keeps the loop's row), no
	 * attribute, no share, 1000 cycles for 10 packets */
	const char *want = "x 20 20 3.000000\ny 30 None 3.000000\nNone None 100 3.000000\n";
	ck_assert_str_eq(top_xy(""), want);
	ck_assert_str_eq(top_xy("--pair t.q=t.r"), want);
}
END_TEST

/* 32 --pair rules are the most top takes: taken (its first block over an
 * empty directory), and a 33rd refused. */
START_TEST(test_top_takes_32_pair_rules_and_refuses_33)
{
	const char *pairs = "", *dir = test_str("%s/none", test_dir);
	char *out, *err;
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	for (int i = 0; i < 32; i++)
		pairs = test_str("%s --pair t.b%d=t.e%d", pairs, i, i);
	out = ok(test_str("'%s' top -b -n 1 -d 0.1 -f json %s %s | head -c 12", timeline_bin(), pairs,
			  dir));
	ck_assert_str_eq(out, "{\"refresh\":1");
	free(out);
	ck_assert_int_eq(run(test_str("'%s' top -b -n 1 -d 0.1 %s --pair a=b %s", timeline_bin(),
				      pairs, dir), &out, &err), 2);
	ck_assert_str_eq(out, "");
	ck_assert_str_eq(err, "timeline top: too many --pair rules\nsee 'timeline top --help'\n");
	free(out);
	free(err);
}
END_TEST

Suite *top_suite(void)
{
	Suite *s = suite_create("top");
	TCase *c = tcase_create("cut"), *b = tcase_create("batch"), *t = tcase_create("screen");
	TCase *r = tcase_create("review-b");   /* the edges review-b found untested (issue 35) */
	TCase *all[] = { c, b, t, r };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		tcase_add_checked_fixture(all[i], test_dir_setup, teardown);
		tcase_set_timeout(all[i], 120);
		suite_add_tcase(s, all[i]);
	}
	tcase_add_unchecked_fixture(t, tmux_setup, tmux_teardown);
	tcase_add_test(r, test_top_shares_the_breaths_cycles_and_counts_pairs_of_no_packets);
	tcase_add_test(r, test_top_takes_32_pair_rules_and_refuses_33);
	tcase_add_test(c, test_cut_intervals_add_up_to_one_pass_exactly);
	tcase_add_test(c, test_gap_drops_the_pending_begin_and_restarts_the_lag);
	tcase_add_test(b, test_top_batch_agrees_with_stats_on_the_demo_engine);
	tcase_add_test(b, test_top_follows_writers_started_and_stopped_while_it_runs);
	tcase_add_test(b, test_top_reads_the_newest_part_when_it_cannot_keep_up_and_says_so);
	tcase_add_test(b, test_top_batch_text_and_csv_show_each_refresh);
	tcase_add_test(b, test_top_lapped_counts_each_entry_once_and_scales_its_rates_to_what_was_written);
	tcase_add_test(b, test_top_lapped_and_sampled_in_one_poll_counts_lost_and_unread_apart);
	tcase_add_test(b, test_top_window_is_its_last_intervals_added_up_once_it_slides);
	tcase_add_test(b, test_top_window_holds_ceil_window_over_delay_intervals_up_to_3600);
	tcase_add_test(b, test_top_openmetrics_file_is_stats_over_the_window);
	tcase_add_test(b, test_top_openmetrics_counters_of_a_log_followed_from_its_middle);
	tcase_add_test(b, test_top_openmetrics_without_o_prints_each_refresh);
	tcase_add_test(b, test_top_openmetrics_file_replaces_a_link_and_a_missing_directory_ends_top);
	tcase_add_test(b, test_top_usage_errors_exit_2_with_the_reason);
	tcase_add_test(b, test_top_batch_says_once_what_it_cannot_read_and_exits_2);
	tcase_add_test(t, test_top_screen_sorts_groups_focuses_sets_the_rate_pauses_and_quits);
	tcase_add_test(t, test_top_screen_is_restored_after_sigint_and_sigterm);
	tcase_add_test(t, test_top_screen_scrolls_to_keep_the_selected_row_in_sight);
	return s;
}
