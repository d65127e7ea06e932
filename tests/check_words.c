/* check_words.c: every view in the program's own words (issue 36): a
 * forwarder that names its pairs by port (by=port) and declares its loop,
 * a key-value server, and Snabb's app pairs beside them: the attribute
 * column headed by its declared name and a string in every JSON; top's
 * rows keyed by pair and attribute; the exports' names; the report's
 * words. Each figure computed by hand. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

/* ---- the forwarder ------------------------------------------------------ */

/* Its events: the loop (the breath), and receive and transmit per port. */
static const char *const fwd_defs[] = {
	"1,9|fwd.iter_begin: iter", "1,9|fwd.iter_end: iter packets",
	"5,9|fwd.rx_begin: n",      "5,9|fwd.rx_end: packets",
	"5,9|fwd.tx_begin: n",      "5,9|fwd.tx_end: packets",
};
enum { IB, IE, RB, RE, TB, TE };
static const char *const fwd_pairs[] = {
	"pair|fwd.breath: fwd.iter_begin fwd.iter_end unit=packets breath",
	"pair|fwd.rx: fwd.rx_begin fwd.rx_end by=port unit=packets",
	"pair|fwd.tx: fwd.tx_begin fwd.tx_end by=port unit=packets",
};

/* One entry: port (of rx and tx), event, time (ns: 1 GHz), arguments. */
struct step {
	int port, ev;
	uint64_t t, a0, a1;
};

/* Two turns of the loop. The first, 1000 to 2000, receives 4 packets on
 * port 0 (1100-1300) and sends them (1300-1400), 2 on port 1 (1500-1600)
 * sent 1700-1900; the second, 3000 to 4000, 8 on port 0 (3100-3500, sent
 * 3500-3600) and 1 on port 1 (3600-3700, sent 3800-3900). Cycles per
 * packet: rx port 0 600/12 = 50, tx port 0 200/12, rx port 1 200/3, tx
 * port 1 300/3 = 100; the loop 2000/15. */
static const struct step fwd_steps[] = {
	{ 0, IB, 1000, 1, 0 }, { 0, RB, 1100, 0, 0 }, { 0, RE, 1300, 4, 0 }, { 0, TB, 1300, 0, 0 },
	{ 0, TE, 1400, 4, 0 }, { 1, RB, 1500, 0, 0 }, { 1, RE, 1600, 2, 0 }, { 1, TB, 1700, 0, 0 },
	{ 1, TE, 1900, 2, 0 }, { 0, IE, 2000, 1, 6 }, { 0, IB, 3000, 2, 0 }, { 0, RB, 3100, 0, 0 },
	{ 0, RE, 3500, 8, 0 }, { 0, TB, 3500, 0, 0 }, { 0, TE, 3600, 8, 0 }, { 1, RB, 3600, 0, 0 },
	{ 1, RE, 3700, 1, 0 }, { 1, TB, 3800, 0, 0 }, { 1, TE, 3900, 1, 0 }, { 0, IE, 4000, 2, 9 },
};

/* Opens the forwarder's log at PATH and registers its events into LOOP
 * (the loop's two), P0 and P1 (rx and tx of each port, indexed by IB..TE)
 * and its pairs. */
static tl_log *fwd_open(const char *path, uint16_t *p0, uint16_t *p1)
{
	tl_options o = { .entries = 64, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 8192, .name = "fwd" };
	tl_error err;
	uint16_t id;
	tl_log *log = tl_open(path, &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_register(log, fwd_defs, 2, NULL, p0, &err), TL_OK);
	ck_assert_int_eq(tl_register(log, fwd_defs + 2, 4, "port=0", p0 + 2, &err), TL_OK);
	ck_assert_int_eq(tl_register(log, fwd_defs + 2, 4, "port=1", p1 + 2, &err), TL_OK);
	p1[IB] = p0[IB];
	p1[IE] = p0[IE];
	for (size_t i = 0; i < sizeof fwd_pairs / sizeof *fwd_pairs; i++)
		ck_assert_int_eq(tl_intern(log, fwd_pairs[i], &id, &err), TL_OK);
	return log;
}

/* Writes the forwarder's two turns at PATH into a log this process keeps
 * writing (a running writer, for top): close it with tl_close(). */
/* Writes the forwarder's two turns into LOG (its events P0, P1 as
 * fwd_open() gives them). */
static void fwd_write(tl_log *log, const uint16_t *p0, const uint16_t *p1)
{
	for (size_t i = 0; i < sizeof fwd_steps / sizeof *fwd_steps; i++) {
		const struct step *s = &fwd_steps[i];
		tl_set_manual_clock(log, s->t, 0);
		tl_append(log, (s->port ? p1 : p0)[s->ev], s->a0, s->a1, 0, 0, 0, 0);
	}
}

static tl_log *fwd_running(const char *path)
{
	uint16_t p0[6], p1[6];
	tl_log *log = fwd_open(path, p0, p1);
	fwd_write(log, p0, p1);
	return log;
}

/* Writes the forwarder's two turns at PATH, as a process of its own. */
static void fwd_log(const char *path)
{
	close_run(fwd_running(path));
}

/* ---- running the program ------------------------------------------------ */

/* Runs `timeline ARGS` (formatted) in the test's directory, checks that it
 * exits WANT, and returns its stdout (kept to the end of the test); its
 * stderr in *ERR when ERR is not NULL (kept too). */
static const char *tl(int want, const char **err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static const char *tl(int want, const char **err, const char *fmt, ...)
{
	va_list ap;
	char *args, *out, *e;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&args, fmt, ap), 0);
	va_end(ap);
	rc = run(test_str("cd '%s' && '%s' %s", test_dir, timeline_bin(), args), &out, &e);
	ck_assert_msg(rc == want, "timeline %s: exit %d, want %d: %s", args, rc, want, e);
	free(args);
	if (err)
		*err = test_keep(e);
	else
		free(e);
	return test_keep(out);
}

/* Runs the shell command CMD (formatted) in the test's directory, which
 * must exit 0; returns its stdout, kept to the end of the test. */
static const char *sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd, *out, *err;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	rc = run(test_str("cd '%s' && %s", test_dir, cmd), &out, &err);
	ck_assert_msg(rc == 0, "%s: exit %d: %s", cmd, rc, err);
	free(cmd);
	free(err);
	return test_keep(out);
}

/* A Python filter of JSON lines on stdin: prints, for each line whose
 * "table" is TABLE, the repr() of its member KEY (a missing key: '?'). */
static const char *key_reprs(const char *table, const char *key)
{
	return test_str("python3 -c 'import json,sys\n"
			"for l in sys.stdin:\n"
			"    d = json.loads(l)\n"
			"    if d.get(\"table\") == \"%s\": print(repr(d.get(\"%s\", \"?\")), end=\" \")'",
			table, key);
}

/* The same for the rows of the table of `report -f json` whose chart is
 * CHART. */
static const char *chart_reprs(const char *chart, const char *key)
{
	return test_str("python3 -c 'import json,sys\n"
			"for l in sys.stdin:\n"
			"    d = json.loads(l)\n"
			"    if d.get(\"chart\") == \"%s\":\n"
			"        for r in d[\"rows\"]: print(repr(r.get(\"%s\", \"?\")), end=\" \")'",
			chart, key);
}

/* ---- item 9: the attribute column --------------------------------------- */

/* Each pair named by its own attribute (by=port): the column is headed
 * port, not app, in text, CSV and JSON, and its values are strings in
 * JSON ("0", not 0), null where a pair has none (the loop). */
START_TEST(test_the_attribute_column_is_headed_by_its_name_and_a_string)
{
	const char *out;
	fwd_log(path_in(test_dir, "fwd.timeline"));
	out = tl(0, NULL, "stats fwd.timeline | sed -n '/^cycles per packet/,/^$/p'");
	ck_assert_str_eq(out, "cycles per packet, per begin/end pair\n"
			      "event       port  pairs  packets  cycles/packet   p50  p90  p99  empty  "
			      "p50_ns  p99_ns\n"
			      "fwd.breath     -      2       15            133   111  167  167      0    "
			      "1000    1000\n"
			      "fwd.rx         0      2       12             50    50   50   50      0     "
			      "200     400\n"
			      "fwd.rx         1      2        3          66.67    50  100  100      0     "
			      "100     100\n"
			      "fwd.tx         0      2       12          16.67  12.5   25   25      0     "
			      "100     100\n"
			      "fwd.tx         1      2        3            100   100  100  100      0     "
			      "100     200\n"
			      "\n");
	out = sh("'%s' stats -f json fwd.timeline | %s", timeline_bin(), key_reprs("declared", "port"));
	ck_assert_str_eq(out, "None '0' '1' '0' '1' ");
	out = tl(0, NULL, "stats -f csv fwd.timeline | sed -n 1p");
	ck_assert_str_eq(out, "\"event\",\"port\",\"unit\",\"pairs\",\"units\",\"cycles_per_unit\","
			      "\"p50\",\"p90\",\"p99\",\"empty\",\"p50_ns\",\"p99_ns\"\n");
	/* grouped by the attribute alone: the declarations name it */
	out = sh("'%s' stats --by app -f json fwd.timeline | %s", timeline_bin(),
		 key_reprs("declared", "port"));
	ck_assert_str_eq(out, "None '0' '1' ");
	/* where the cycles go: each pair and port a string too (the column span) */
	out = sh("'%s' stats -f json fwd.timeline | %s", timeline_bin(), key_reprs("overhead", "span"));
	ck_assert_str_eq(out, "'fwd.rx port=0' 'fwd.tx port=1' 'fwd.rx port=1' 'fwd.tx port=0' "
			      "'(unattributed)' ");
}
END_TEST

/* diff and report take the same heading and types. */
START_TEST(test_diff_and_report_head_the_attribute_by_its_name_as_strings)
{
	const char *out;
	ck_assert_int_eq(mkdir(path_in(test_dir, "a"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "b"), 0700), 0);
	fwd_log(path_in(test_dir, "a/fwd.timeline"));
	fwd_log(path_in(test_dir, "b/fwd.timeline"));
	out = tl(0, NULL, "diff a b 2>/dev/null | sed -n 2p | cut -c1-27");
	ck_assert_str_eq(out, "event       port  unit     \n");
	out = sh("'%s' diff -f json a b 2>/dev/null | %s", timeline_bin(), key_reprs("diff", "port"));
	ck_assert_str_eq(out, "None '0' '1' '0' '1' None ");   /* the last: (all) */
	out = sh("'%s' report -f json -o - a | %s", timeline_bin(), chart_reprs("summary-apps", "port"));
	ck_assert_str_eq(out, "None '0' '1' '0' '1' ");
	out = sh("'%s' report -f json -o - --a a --b b 2>/dev/null | %s", timeline_bin(),
		 chart_reprs("summary-apps", "port"));
	ck_assert_str_eq(out, "None '0' '1' '0' '1' ");
}
END_TEST

/* Pairs that name their attribute differently in one table (the
 * forwarder's ports, Snabb's apps): the column is headed attr. A table of
 * Snabb's pairs alone keeps app. */
START_TEST(test_a_table_of_differently_named_attributes_heads_it_attr)
{
	static const uint64_t packets[] = { 10, 20 }, cycles[] = { 100, 400 };
	const char *out;
	fwd_log(path_in(test_dir, "fwd.timeline"));
	app_pairs_log(path_in(test_dir, "app.timeline"), "lookup", 2, packets, cycles);
	out = tl(0, NULL, "stats --per packets fwd.timeline app.timeline | sed -n '/^event/p'");
	ck_assert_str_eq(out, "event       attr    pairs  packets  cycles/packet   p50  p90  p99  "
			      "empty\n");
	out = sh("'%s' stats --per packets -f json fwd.timeline app.timeline | %s", timeline_bin(),
		 key_reprs("per", "attr"));
	ck_assert_str_eq(out, "'lookup' None '0' '1' '0' '1' ");
	out = tl(0, NULL, "stats --per packets app.timeline | sed -n '/^event/p'");
	ck_assert_str_eq(out, "event     app     pairs  packets  cycles/packet  p50  p90  p99  empty\n");
}
END_TEST

/* ---- item 5: the exports ----------------------------------------------- */

/* Chrome's spans as (name, cycles) pairs in order, then how many instants. */
static const char *chrome_spans(const char *args)
{
	return sh("'%s' export -f chrome -o - %s | python3 -c 'import json,sys\n"
		  "t = json.load(sys.stdin)[\"traceEvents\"]\n"
		  "print(sorted((e[\"name\"], e[\"args\"][\"cycles\"]) for e in t if e[\"ph\"] == \"X\"),"
		  " sum(e[\"ph\"] == \"i\" for e in t))'", timeline_bin(), args);
}

/* The Chrome, Perfetto and CTF exports name each span by its declared
 * pair (fwd.breath, not its begin's fwd.iter) and every attribute of its
 * events (fwd.rx port=0, not only app=), as one another; a --pair rule
 * still names the spans it makes. */
START_TEST(test_the_exports_name_spans_by_their_declared_pair_and_attribute)
{
	const char *src = getenv("TIMELINE_SRC"), *out;
	fwd_log(path_in(test_dir, "fwd.timeline"));
	out = chrome_spans("fwd.timeline");
	ck_assert_str_eq(out, "[('fwd.breath', 1000), ('fwd.breath', 1000), ('fwd.rx port=0', 200), "
			      "('fwd.rx port=0', 400), ('fwd.rx port=1', 100), ('fwd.rx port=1', 100), "
			      "('fwd.tx port=0', 100), ('fwd.tx port=0', 100), ('fwd.tx port=1', 100), "
			      "('fwd.tx port=1', 200)] 0\n");
	out = chrome_spans("--pair fwd.iter_begin=fwd.iter_end fwd.timeline");
	ck_assert_msg(!strncmp(out, "[('fwd.iter', 1000), ('fwd.iter', 1000), ('fwd.rx port=0', 200), ",
			       65), "%s", out);
	out = sh("'%s' export -f perfetto -o t.pftrace fwd.timeline && TIMELINE_BIN='%s' python3 "
		 "%s/tests/perfetto_check.py t.pftrace --proto %s/tests/perfetto.proto --list | "
		 "grep ' B ' | cut -d' ' -f4- | tr '\\n' ,", timeline_bin(), timeline_bin(),
		 src && *src ? src : ".", src && *src ? src : ".");
	ck_assert_str_eq(out, "fwd.breath,fwd.rx port=0,fwd.tx port=0,fwd.rx port=1,fwd.tx port=1,"
			      "fwd.breath,fwd.rx port=0,fwd.tx port=0,fwd.rx port=1,fwd.tx port=1,");
	/* an event of several attributes: app's value, the others NAME=VALUE */
	{
		static const char *const tick[] = { "5,5|t.tick: n" };
		tl_log *log = open_manual(path_in(test_dir, "tick.timeline"), 16);
		uint16_t id;
		ck_assert_int_eq(tl_register(log, tick, 1, "app=a core=3", &id, NULL), TL_OK);
		tl_set_manual_clock(log, 100, 0);
		tl_append(log, id, 7, 0, 0, 0, 0, 0);
		tl_close(log);
	}
	out = sh("'%s' export -f chrome -o - tick.timeline | grep -o '\"name\":\"t.tick[^\"]*\"'",
		 timeline_bin());
	ck_assert_str_eq(out, "\"name\":\"t.tick a core=3\"\n");
	/* CTF has events, not spans: each begin and end says its pair */
	out = sh("'%s' export -f ctf -o t.ctf fwd.timeline && babeltrace2 t.ctf | head -10 | sed "
		 "'s/.* \\(fwd\\.[a-z_]*\\): .*pair = \\(\"[^\"]*\"\\), attrs = \\(\"[^\"]*\"\\).*/\\1 \\2 "
		 "\\3/'", timeline_bin());
	ck_assert_str_eq(out, "fwd.iter_begin \"fwd.breath\" \"\"\n"
			      "fwd.rx_begin \"fwd.rx port=0\" \"port=0\"\n"
			      "fwd.rx_end \"fwd.rx port=0\" \"port=0\"\n"
			      "fwd.tx_begin \"fwd.tx port=0\" \"port=0\"\n"
			      "fwd.tx_end \"fwd.tx port=0\" \"port=0\"\n"
			      "fwd.rx_begin \"fwd.rx port=1\" \"port=1\"\n"
			      "fwd.rx_end \"fwd.rx port=1\" \"port=1\"\n"
			      "fwd.tx_begin \"fwd.tx port=1\" \"port=1\"\n"
			      "fwd.tx_end \"fwd.tx port=1\" \"port=1\"\n"
			      "fwd.iter_end \"fwd.breath\" \"\"\n");
}
END_TEST

/* ---- item 5: top --------------------------------------------------------- */

/* Waits up to 20 s for the file PATH to hold WANT; returns its text. */
static const char *wait_text(const char *path, const char *want)
{
	char *text = NULL;
	for (int i = 0; i < 2000; i++) {
		free(text);
		text = read_file(path, NULL);
		if (text && strstr(text, want))
			return test_keep(text);
		usleep(10000);
	}
	ck_abort_msg("%s: no '%s' in:\n%.3000s", path, want, text ? text : "(none)");
	return NULL;
}

/* The pairs of the window of the last block of top's JSON lines at PATH,
 * one a line: pair, attribute (under KEY), unit, share%, cycles per
 * packet, p50, p99 (%g). */
static const char *top_pairs(const char *path, const char *key)
{
	return sh("python3 -c 'import json,sys\n"
		  "last = [json.loads(l) for l in open(\"%s\")][-1]\n"
		  "for a in last[\"logs\"][0][\"window\"][\"apps\"]:\n"
		  "    f = lambda v: \"-\" if v is None else \"%%.6g\" %% v\n"
		  "    print(a[\"pair\"], a[\"%s\"], a[\"unit\"], f(a[\"share_pct\"]), "
		  "f(a[\"cycles_per_packet\"]), f(a[\"p50\"]), f(a[\"p99\"]))'", path, key);
}

/* top by app of a running forwarder: a row per pair and port (port 0's rx
 * and tx apart, not blended), the loop's row too (declared without by=),
 * its JSON naming each pair and its port (a string), the column headed
 * PORT. */
START_TEST(test_top_keeps_pairs_that_share_an_attribute_apart)
{
	const char *json = test_str("%s/top.json", test_dir), *text = test_str("%s/top.txt", test_dir);
	const char *out;
	pid_t top[2];
	tl_log *log;
	ck_assert_int_eq(mkdir(path_in(test_dir, "logs"), 0700), 0);
	top[0] = spawn(test_str("exec '%s' top -b -f json -d 0.2 -w 60 %s/logs > %s", timeline_bin(),
				test_dir, json));
	top[1] = spawn(test_str("exec '%s' top -b -d 0.2 -w 60 %s/logs > %s", timeline_bin(),
				test_dir, text));
	wait_text(json, "\n");   /* their first blocks: the log is new to them */
	wait_text(text, "\n\n");
	log = fwd_running(path_in(test_dir, "logs/fwd.timeline"));
	wait_text(json, "\"pair\":\"fwd.tx\",\"port\":\"1\"");
	wait_text(text, " fwd.tx     1 ");
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(kill(top[k], SIGTERM), 0);
		ck_assert_int_eq(reap(top[k]), 0);
	}
	out = top_pairs(json, "port");
	ck_assert_str_eq(out, "fwd.breath None packets - 133.333 111.111 166.667\n"
			      "fwd.rx 0 packets 30 50 50 50\n"
			      "fwd.rx 1 packets 10 66.6667 50 100\n"
			      "fwd.tx 0 packets 10 16.6667 12.5 25\n"
			      "fwd.tx 1 packets 15 100 100 100\n");
	/* the table of the first text block that has the rows, its last
	 * interval's side (a block printed after it, before the SIGTERM, has
	 * an empty interval): PID and PAIRS/S (a rate, of how long top took)
	 * left out */
	out = sh("awk -v RS= '/fwd[.]tx +1 /{print; exit}' top.txt | tail -6 "
		 "| sed 's/^ *[0-9A-Z]* *//' | tr -s ' ' | cut -d' ' -f1-8");
	ck_assert_str_eq(out, "LOG PAIR PORT UNIT SHARE% CYC/PKT P50 P99\n"
			      "fwd fwd.rx 0 packets 30.0 50.0 50.0 50.0\n"
			      "fwd fwd.tx 1 packets 15.0 100 100 100\n"
			      "fwd fwd.rx 1 packets 10.0 66.7 50.0 100\n"
			      "fwd fwd.tx 0 packets 10.0 16.7 12.5 25.0\n"
			      "fwd fwd.breath - packets - 133 111 167\n");
	tl_close(log);
}
END_TEST

/* top by app of examples/kv, running: its pairs declared without by= have
 * rows (they had none: only pairs with an app were shown), each in its own
 * unit, the loop (its breath) with no share of itself. */
START_TEST(test_top_shows_pairs_declared_without_an_attribute)
{
	const char *kv = getenv("TIMELINE_KV"), *json = test_str("%s/top.json", test_dir), *out;
	pid_t top, server;
	ck_assert_msg(kv != NULL, "TIMELINE_KV unset: run the suite with make check");
	ck_assert_int_eq(mkdir(path_in(test_dir, "logs"), 0700), 0);
	top = spawn(test_str("exec '%s' top -b -f json -d 0.2 -w 60 %s/logs > %s", timeline_bin(),
			     test_dir, json));
	wait_text(json, "\n");
	server = spawn(test_str("exec %s --polls 1000000000 --rate all --dir %s/logs", kv, test_dir));
	wait_text(json, "\"pair\":\"kv.lookup\"");
	ck_assert_int_eq(kill(top, SIGTERM), 0);
	ck_assert_int_eq(reap(top), 0);
	kill(server, SIGKILL);
	reap(server);
	out = sh("python3 -c 'import json\n"
		 "last = [json.loads(l) for l in open(\"%s\")][-1]\n"
		 "print(last[\"unit\"])\n"
		 "for a in sorted(last[\"logs\"][0][\"window\"][\"apps\"], key=lambda a: a[\"pair\"]):\n"
		 "    print(a[\"pair\"], a[\"app\"], a[\"unit\"], a[\"share_pct\"] is None, "
		 "a[\"cycles_per_unit\"] > 0)'", json);
	ck_assert_str_eq(out, "unit\n"
			      "kv.lookup None keys False True\n"
			      "kv.parse None bytes False True\n"
			      "kv.poll None requests True True\n"
			      "kv.reply None bytes False True\n"
			      "kv.req None requests False True\n");
}
END_TEST

/* The tmux server of the screen test: a socket of this runner's own. */
static char tmux_sock[64];

static void tmux_setup(void)
{
	snprintf(tmux_sock, sizeof tmux_sock, "tlwords-%d", (int)getpid());
}

static void tmux_teardown(void)
{
	if (system(test_str("tmux -L %s kill-server 2>/dev/null", tmux_sock))) {
		/* no server: nothing to do */
	}
	test_kept_free();
}

/* Waits up to 20 s for the screen of pane "t" to hold WANT; returns it. */
static const char *wait_screen(const char *want)
{
	char *s = NULL;
	const char *cmd = test_str("tmux -L %s capture-pane -p -t t", tmux_sock);
	for (int i = 0; i < 200; i++) {
		free(s);
		if (run(cmd, &s, NULL) == 0 &&
		    strstr(s, want))
			return test_keep(s);
		usleep(100000);
	}
	ck_abort_msg("no '%s' on the screen:\n%s", want, s ? s : "");
	return NULL;
}

/* top's screen (in tmux) of a running forwarder: the same rows as its
 * batch blocks, port 0's rx and tx two rows under PAIR, PORT and UNIT. */
START_TEST(test_top_screen_shows_each_pair_and_port_under_its_name)
{
	static const char want[] = "fwd fwd.breath - packets -\n"
				   "fwd fwd.rx 0 packets 30.0\n"
				   "fwd fwd.rx 1 packets 10.0\n"
				   "fwd fwd.tx 0 packets 10.0\n"
				   "fwd fwd.tx 1 packets 15.0\n";
	const char *s, *cmd;
	char *rows = NULL;
	uint16_t p0[6], p1[6];
	tl_log *log;
	ck_assert_int_eq(mkdir(path_in(test_dir, "logs"), 0700), 0);
	/* its events and pairs declared before top starts, its entries after:
	 * top reads a log's declarations once, when it finds the log (pairs
	 * declared later are not known to it) */
	log = fwd_open(path_in(test_dir, "logs/fwd.timeline"), p0, p1);
	sh("tmux -L %s new-session -d -s t -x 130 -y 20 \"'%s' top -d 0.2 -w 60 %s/logs; sleep 600\"",
	   tmux_sock, timeline_bin(), test_dir);
	wait_screen("PAIRS/S");
	fwd_write(log, p0, p1);
	s = wait_screen("fwd.breath");
	ck_assert_msg(strstr(s, " LOG  PAIR       PORT  UNIT    SHARE%*") != NULL, "%s", s);
	/* the window's share (the last interval's is of 0.2 s, "-" once it
	 * holds no breath, and orders the rows), of the first screen that has
	 * all, in the order of sort(1) */
	cmd = test_str("tmux -L %s capture-pane -p -t t | grep ' fwd\\.' | sed 's/^ *[0-9]* *//' | "
		       "tr -s ' ' | cut -d' ' -f1-4,10 | sort", tmux_sock);
	for (int i = 0; i < 100 && (!rows || strcmp(rows, want)); i++) {
		free(rows);
		ck_assert_int_eq(run(cmd, &rows, NULL), 0);
		usleep(100000);
	}
	ck_assert_str_eq(rows, want);
	free(rows);
	sh("tmux -L %s send-keys -t t q", tmux_sock);
	tl_close(log);
}
END_TEST

/* ---- item 5: the report's words ---------------------------------------- */

/* A Python filter of `report -f json`: each note, then each line of
 * SECTION's about, then the bars of chart CHART as "label: segment
 * share%..." (shares rounded to 0.1). */
static const char *report_words(const char *section, const char *chart)
{
	return test_str("python3 -c 'import json,sys\n"
			"for l in sys.stdin:\n"
			"    d = json.loads(l)\n"
			"    if \"note\" in d: print(\"note:\", d[\"note\"])\n"
			"    if d.get(\"section\") == \"%s\" and \"about\" in d: print(\"about:\", d[\"about\"])\n"
			"    if d.get(\"chart\") == \"%s\":\n"
			"        print(\"x:\", d[\"x\"])\n"
			"        for b in d[\"bars\"]: print(b[\"label\"].split(\"[\")[0] + \":\", \", \".join(\"%%s %%.1f\" %% "
			"(s[\"app\"], s[\"share%%\"]) for s in b[\"segments\"]))'", section, chart);
}

/* The forwarder declares its loop (fwd.breath): where the cycles go is
 * in its terms, its pairs by their ports, the loop's own cycles
 * unattributed (2000 of the loop: rx port 0 600, tx port 1 300, rx port 1
 * and tx port 0 200 each, 700 in no pair); the NUMA section says in one
 * line why it is left out. */
START_TEST(test_the_report_shares_a_declared_loop_in_its_own_words)
{
	const char *out;
	fwd_log(path_in(test_dir, "fwd.timeline"));
	out = sh("'%s' report -f json -o - fwd.timeline | %s", timeline_bin(),
		 report_words("cycles", "cycles-processes"));
	ck_assert_str_eq(out,
		"about: Per process, where the cycles of each fwd.breath (the program's loop, its "
		"breath) go: each pair that ran inside it by its self cycles (its cycles less those "
		"of the pairs it holds, so that every cycle counts once), and the fwd.breath's own "
		"cycles, outside any pair, as unattributed.\n"
		"x: share of fwd.breath's cycles (%)\n"
		"check_timeline: fwd.rx port=0 30.0, fwd.tx port=1 15.0, fwd.rx port=1 10.0, fwd.tx "
		"port=0 10.0, (unattributed) 35.0\n"
		"note: Left out: every pair in the inputs ended on one NUMA node and one CPU, nothing "
		"to tell apart by them.\n");
}
END_TEST

/* A page of examples/kv's logs, of one side and of two (--slow lookup=60
 * against none), in HTML and JSON: not a word of packets, which kv does
 * not count (not even the throughput's keys: kv's breath has no Snabb
 * totals); its pairs' shares of kv.poll's cycles and kv.poll's own; the
 * batch and NUMA sections each left out with one line saying why. */
START_TEST(test_a_report_of_kv_says_no_packet)
{
	const char *kv = getenv("TIMELINE_KV"), *out;
	ck_assert_msg(kv != NULL, "TIMELINE_KV unset: run the suite with make check");
	ck_assert_int_eq(mkdir(path_in(test_dir, "a"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "b"), 0700), 0);
	for (int i = 0; i < 2; i++)
		sh("%s -n 300 -c 0 -d a >/dev/null && %s -n 300 -c 0 --slow lookup=60 -d b >/dev/null",
		   kv, kv);
	out = sh("'%s' report -o one.html a && '%s' report -f json -o one.json a && "
		 "'%s' report -o ab.html --a a --b b 2>/dev/null && "
		 "'%s' report -f json -o ab.json --a a --b b 2>/dev/null; "
		 "cat one.html one.json ab.html ab.json | grep -ci packet || true", timeline_bin(),
		 timeline_bin(), timeline_bin(), timeline_bin());
	ck_assert_str_eq(out, "0\n");
	out = sh("python3 -c 'import json\n"
		 "for l in open(\"one.json\"):\n"
		 "    d = json.loads(l)\n"
		 "    if \"note\" in d: print(d[\"note\"])\n"
		 "    if d.get(\"chart\") == \"cycles-processes\":\n"
		 "        print(d[\"x\"], sorted(s[\"app\"] for s in d[\"bars\"][0][\"segments\"]))'");
	ck_assert_str_eq(out, "share of kv.poll's cycles (%) ['(unattributed)', 'kv.lookup', "
			      "'kv.parse', 'kv.reply', 'kv.req']\n"
			      "Left out: the pairs' ends carry no batch size to sort them by (--bucket "
			      "ARG=EDGES can name one: bytes, keys, requests or poll).\n"
			      "Left out: every pair in the inputs ended on one NUMA node and one CPU, "
			      "nothing to tell apart by them.\n");
}
END_TEST

/* ---- item 8: the slowest pairs lead to a dump, marked -------------------- */

/* A log at PATH of N pairs app.push/pushed of app "a" (1 GHz), pair i
 * beginning at 100000 i and costing 100 cycles, pair SLOW 10000. */
static void slow_pair_log(const char *path, int n, int slow)
{
	tl_options o = { .entries = 1024, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 4096, .name = "slow" };
	static const char *const defs[] = { "5,5|app.push: inpackets", "5,5|app.pushed: inpackets" };
	tl_error err;
	uint16_t id[2];
	tl_log *log = tl_open(path, &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_register(log, defs, 2, "app=a", id, &err), TL_OK);
	for (int i = 0; i < n; i++) {
		tl_set_manual_clock(log, 100000 * (uint64_t)i, 0);
		tl_append(log, id[0], (uint64_t)i, 0, 0, 0, 0, 0);
		tl_set_manual_clock(log, 100000 * (uint64_t)i + (i == slow ? 10000 : 100), 0);
		tl_append(log, id[1], (uint64_t)i + 1, 0, 0, 0, 0, 0);
	}
	close_run(log);
}

/* The dump command stats --slowest gives the slowest pair: the table's
 * wall time, the pair's begin and end marked '>' in it; dump --mark alone:
 * 100 entries kept before the begin (the 200 earlier said left out), the
 * pair, 100 after; at the log's first entry nothing is left out; a mark
 * no entry is at marks nothing; --mark's usage errors. */
START_TEST(test_the_slowest_pair_leads_to_a_dump_with_it_marked)
{
	const char *out, *err;
	slow_pair_log(path_in(test_dir, "slow.timeline"), 300, 150);
	out = sh("'%s' stats --per packets --slowest 1 -f json slow.timeline | python3 -c 'import "
		 "json,sys\n"
		 "r = [json.loads(l) for l in sys.stdin if \"\\\"dump\\\"\" in l][0]\n"
		 "print(r[\"wall\"], r[\"dump\"].split(\" --to \")[1].split(\" \", 1)[1])'", timeline_bin());
	ck_assert_msg(strstr(out, "--mark 15000000,15010000 slow.timeline") != NULL, "%s", out);
	out = sh("'%s' stats --per packets --slowest 1 -f json slow.timeline | python3 -c 'import "
		 "json,sys\n"
		 "r = [json.loads(l) for l in sys.stdin if \"\\\"dump\\\"\" in l][0]\n"
		 "print(r[\"dump\"].replace(\"timeline \", \"\", 1))' > cmd && '%s' $(cat cmd) | "
		 "cut -c1-2,34-", timeline_bin(), timeline_bin());
	ck_assert_str_eq(out, ">   0  0  app.push app=a inpackets=150\n"
			      ">   0  0  app.pushed app=a inpackets=151\n");
	out = tl(0, NULL, "dump --mark 15000000,15010000 slow.timeline | sed -n '1p;101,104p;203,$p' "
		 "| tr -s ' '");
	ck_assert_str_eq(out, " (200 earlier entries left out)\n"
			      " 14900100 0 0 app.pushed app=a inpackets=150\n"
			      "> 15000000 0 0 app.push app=a inpackets=150\n"
			      "> 15010000 0 0 app.pushed app=a inpackets=151\n"
			      " 15100000 0 0 app.push app=a inpackets=151\n"
			      " 20000100 0 0 app.pushed app=a inpackets=201\n");
	out = tl(0, NULL, "dump --mark 0,100 slow.timeline | sed -n '1,3p' | tr -s ' '");
	ck_assert_str_eq(out, "> 0 0 0 app.push app=a inpackets=0\n"
			      "> 100 0 0 app.pushed app=a inpackets=1\n"
			      " 100000 0 0 app.push app=a inpackets=1\n");
	out = tl(0, NULL, "dump --mark 1,2 slow.timeline | grep -c '^>' ; true");
	ck_assert_str_eq(out, "0\n");
	out = tl(0, NULL, "dump --mark 1,2 slow.timeline | wc -l");
	ck_assert_str_eq(out, "101\n");   /* the one before 1 (at 0), and 100 after 2 */
	tl(2, &err, "dump --mark 5 slow.timeline");
	ck_assert_str_eq(err, "timeline dump: --mark takes two TSCs, FROM,TO, FROM not after TO\n"
			      "see 'timeline dump --help'\n");
	tl(2, &err, "dump --mark 5,4 slow.timeline");
	ck_assert_str_eq(err, "timeline dump: --mark takes two TSCs, FROM,TO, FROM not after TO\n"
			      "see 'timeline dump --help'\n");
	tl(2, &err, "dump -f csv --mark 4,5 slow.timeline");
	ck_assert_str_eq(err, "timeline dump: --mark is dump's, of text lines, without --spans or "
			      "--follow\nsee 'timeline dump --help'\n");
	tl(2, &err, "merge --mark 4,5 slow.timeline");
	ck_assert_str_eq(err, "timeline merge: --mark is dump's, of text lines, without --spans or "
			      "--follow\nsee 'timeline merge --help'\n");
}
END_TEST

Suite *words_suite(void)
{
	Suite *s = suite_create("words");
	TCase *t = tcase_create("attr");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_the_attribute_column_is_headed_by_its_name_and_a_string);
	tcase_add_test(t, test_diff_and_report_head_the_attribute_by_its_name_as_strings);
	tcase_add_test(t, test_a_table_of_differently_named_attributes_heads_it_attr);
	suite_add_tcase(s, t);
	t = tcase_create("export");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_the_exports_name_spans_by_their_declared_pair_and_attribute);
	suite_add_tcase(s, t);
	t = tcase_create("report");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_the_report_shares_a_declared_loop_in_its_own_words);
	tcase_add_test(t, test_a_report_of_kv_says_no_packet);
	suite_add_tcase(s, t);
	t = tcase_create("mark");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_the_slowest_pair_leads_to_a_dump_with_it_marked);
	suite_add_tcase(s, t);
	t = tcase_create("top");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_top_keeps_pairs_that_share_an_attribute_apart);
	tcase_add_test(t, test_top_shows_pairs_declared_without_an_attribute);
	suite_add_tcase(s, t);
	t = tcase_create("screen");
	tcase_add_unchecked_fixture(t, tmux_setup, NULL);
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_add_checked_fixture(t, NULL, tmux_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_top_screen_shows_each_pair_and_port_under_its_name);
	suite_add_tcase(s, t);
	return s;
}
