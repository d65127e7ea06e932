/* check_pairs.c: pairs as a user's own program has them (issue 26): one
 * answer for cycles per unit in groupings without the event key (only the
 * outermost pairs), on hand-built logs and on summaries of them, each
 * figure computed by hand. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util.h"

/* Runs timeline ARGS in the test's directory; checks the exit status is
 * WANT; returns stdout with every run of spaces made one, and stderr in
 * *ERR (if not NULL). */
static char *tl(int want, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *tl(int want, char **err, const char *fmt, ...)
{
	va_list ap;
	char *args, *cmd, *out, *e, *w;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&args, fmt, ap), 0);
	va_end(ap);
	cmd = xasprintf("cd %s && %s %s", test_dir, timeline_bin(), args);
	rc = run(cmd, &out, &e);
	ck_assert_msg(rc == want, "%s: exit %d, want %d: %s", cmd, rc, want, e);
	if (err)
		*err = e;
	else
		free(e);
	w = out;
	for (const char *r = out; *r; r++)   /* in place: never longer */
		if (!(*r == ' ' && w > out && w[-1] == ' '))
			*w++ = *r;
	*w = '\0';
	free(args);
	free(cmd);
	return out;
}

/* Asserts that OUT holds the text WANT. */
static void has(const char *out, const char *want)
{
	ck_assert_msg(strstr(out, want) != NULL, "want '%s' in:\n%s", want, out);
}

/* One breath of a hand-built log, on CPU: it starts at T0 and ends at T1,
 * moving PACKETS; inside it, app a's push from A0 to A1 and app b's from
 * B0 to B1, each moving the same PACKETS (inpackets running counters). */
struct breath {
	uint16_t cpu;
	uint64_t t0, a0, a1, b0, b1, t1, packets;
};

/* Writes log NAME of the N breaths, manual clock at 1 GHz. */
static void write_breaths(const char *name, const struct breath *b, size_t n)
{
	static const char *const eng[] = {
		"1,6|engine.breath_start: breath totalpackets totalbytes totaletherbits",
		"1,6|engine.breath_end: breath totalpackets totalbytes totaletherbits",
	};
	static const char *const app[] = { "5,5|app.push: inpackets", "5,5|app.pushed: inpackets" };
	tl_options o = { .entries = 256, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 8192, .name = name };
	uint16_t e[2], a[2], bb[2];
	uint64_t total = 0;
	tl_error err;
	tl_log *log = tl_open(path_in(test_dir, test_str("%s.timeline", name)), &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_register(log, eng, 2, NULL, e, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, app, 2, "app=a", a, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, app, 2, "app=b", bb, NULL), TL_OK);
	for (size_t i = 0; i < n; i++) {
		const struct breath *x = &b[i];
		tl_set_manual_clock(log, x->t0, x->cpu);
		tl_append(log, e[0], i, total, 60 * total, 0, 0, 0);
		tl_set_manual_clock(log, x->a0, x->cpu);
		tl_append(log, a[0], total, 0, 0, 0, 0, 0);
		tl_set_manual_clock(log, x->a1, x->cpu);
		tl_append(log, a[1], total + x->packets, 0, 0, 0, 0, 0);
		tl_set_manual_clock(log, x->b0, x->cpu);
		tl_append(log, bb[0], total, 0, 0, 0, 0, 0);
		tl_set_manual_clock(log, x->b1, x->cpu);
		tl_append(log, bb[1], total + x->packets, 0, 0, 0, 0, 0);
		total += x->packets;
		tl_set_manual_clock(log, x->t1, x->cpu);
		tl_append(log, e[1], i + 1, total, 60 * total, 0, 0, 0);
	}
	tl_close(log);
}

/* Writes log NAME (manual clock at 1 GHz) of the N breaths, in a child
 * process of its own (a process of its own in the log's header). */
static void breath_log(const char *name, const struct breath *b, size_t n)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid) {
		ck_assert_int_eq(reap(pid), 0);
		return;
	}
	write_breaths(name, b, n);
	_exit(0);
}

/* alpha: a breath on CPU 1 of 1000 cycles and 10 packets (100 a packet),
 * holding a's push of 300 cycles (30) and b's of 200 (20); one on CPU 2 of
 * 1600 cycles and 20 packets (80), a's 400 (20), b's 300 (15). beta: one
 * on CPU 1 of 600 cycles and 5 packets (120), a's 100 (20), b's 50 (10). */
static void two_processes(void)
{
	static const struct breath alpha[] = {
		{ 1, 1000, 1100, 1400, 1500, 1700, 2000, 10 },
		{ 2, 3000, 3100, 3500, 3600, 3900, 4600, 20 },
	};
	static const struct breath beta[] = { { 1, 1000, 1100, 1200, 1300, 1350, 1600, 5 } };
	breath_log("alpha", alpha, 2);
	breath_log("beta", beta, 1);
}

START_TEST(test_groups_without_event_count_only_the_outermost_pairs)
{
	char host[160], *out, *sum;
	two_processes();
	snprintf(host, sizeof host, "\n%s 3 35 91.43 100 120 120 0\n",
		 info_at(path_in(test_dir, "alpha.timeline")).host);
	/* per host: the three breaths alone (3200 cycles, 35 packets), not the
	 * nine pairs with every packet counted three times */
	out = tl(0, NULL, "stats --per packets --by host alpha.timeline beta.timeline");
	has(out, "host pairs packets cycles/packet p50 p90 p99 empty\n");
	has(out, host);
	free(out);
	/* per process: alpha's two breaths, 2600 cycles over 30 packets */
	out = tl(0, NULL, "stats --per packets --by process alpha.timeline beta.timeline");
	has(out, "] 2 30 86.67 80 100 100 0\n");
	has(out, "] 1 5 120 120 120 120 0\n");
	ck_assert_ptr_null(strstr(out, "] 6 "));
	free(out);
	/* per CPU: CPU 1 has alpha's first and beta's, 1600 cycles over 15
	 * packets; CPU 2 alpha's second */
	out = tl(0, NULL, "stats --per packets --by cpu alpha.timeline beta.timeline");
	has(out, "\n 1 2 15 107 100 120 120 0\n");
	has(out, "\n 2 1 20 80 80 80 80 0\n");
	free(out);
	/* with app in the key the breath (app -) and each app are apart, each
	 * of its own pairs */
	out = tl(0, NULL, "stats --per packets --by app alpha.timeline beta.timeline");
	has(out, "\n- 3 35 91.43 100 120 120 0\n");
	has(out, "\na 3 35 22.86 20 30 30 0\n");
	has(out, "\nb 3 35 15.71 15 20 20 0\n");
	free(out);
	/* OpenMetrics: the three breaths' 100 + 80 + 120 */
	out = tl(0, NULL, "stats --per packets --by cpu -f openmetrics alpha.timeline beta.timeline");
	has(out, "timeline_cycles_per_packet_sum{cpu=\"1\"} 220\n");
	has(out, "timeline_cycles_per_packet_count{cpu=\"1\"} 2\n");
	has(out, "timeline_cycles_per_packet_count{cpu=\"2\"} 1\n");
	free(out);
	/* summaries keep each row's level: the same tables from them */
	free(tl(0, NULL, "stats --per packets --save both.sum alpha.timeline beta.timeline"));
	for (int k = 0; k < 3; k++) {
		static const char *const by[] = { "host", "process", "cpu" };
		out = tl(0, NULL, "stats --per packets --by %s alpha.timeline beta.timeline", by[k]);
		sum = tl(0, NULL, "stats --per packets --by %s both.sum", by[k]);
		ck_assert_str_eq(sum, out);
		free(out);
		free(sum);
	}
	out = tl(0, NULL, "stats --per packets --by host -f openmetrics both.sum");
	has(out, "_count{host=");
	has(out, "} 3\n");
	free(out);
}
END_TEST

Suite *pairs_suite(void)
{
	Suite *s = suite_create("pairs");
	TCase *t = tcase_create("pairs");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_add_test(t, test_groups_without_event_count_only_the_outermost_pairs);
	suite_add_tcase(s, t);
	return s;
}
