/* check_python.c: the Python package (python/timeline) through its pytest
 * suite (python/tests), run by the interpreter that has Debian's numpy and
 * pandas ($TIMELINE_PYTHON) against this tree's library and program; under
 * the sanitizers the interpreter preloads their runtimes to load the
 * library. One Check test, so that `make check` runs it and
 * CK_RUN_SUITE=python runs it alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util.h"

/* The environment the suite runs in: the package, the library, and with
 * the sanitizers their runtimes preloaded (leaks are the interpreter's). */
static const char *python_env(void)
{
	const char *san = getenv("TIMELINE_SAN_FLAGS"), *lib = getenv("TIMELINE_LIB_DIR");
	const char *pre = san && *san ? "LD_PRELOAD=\"$(cc -print-file-name=libasan.so) "
					 "$(cc -print-file-name=libubsan.so)\" "
					 "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 "
				      : "";
	ck_assert_ptr_nonnull(lib);
	return test_str("PYTHONPATH=\"$PWD/python\" TIMELINE_LIB='%s/libtimeline.so.0' %s", lib, pre);
}

/* With TL_FAIL_FAST (tests/util.h), pytest too stops at its first
 * failure; and when TL_MUTATED names a module of the package,
 * python/timeline/_NAME.py (tests/mutate.sh), its own tests,
 * python/tests/test_NAME.py, run first (pytest runs a file given twice
 * once). Else nothing. */
static const char *fail_fast(const char *src)
{
	const char *m = getenv("TL_MUTATED"), *name;
	size_t n;
	if (!getenv("TL_FAIL_FAST"))
		return "";
	if (!m || strncmp(m, "python/timeline/_", 17) || (n = strlen(m)) < 21 ||
	    strcmp(m + n - 3, ".py"))
		return "-x ";
	name = test_str("python/tests/test_%.*s.py", (int)(n - 20), m + 17);
	return access(test_str("%s/%s", src, name), R_OK) ? "-x " : test_str("-x %s ", name);
}

START_TEST(test_the_python_package_passes_its_pytest_suite)
{
	const char *py = getenv("TIMELINE_PYTHON"), *src = getenv("TIMELINE_SRC");
	char *out = NULL, *err = NULL;
	int rc;
	ck_assert_msg(src != NULL, "TIMELINE_SRC is not set (run the tests with make check)");
	rc = run(test_str("cd '%s' && %s %s -m pytest -q -p no:cacheprovider --basetemp='%s/pytest' "
			  "%spython/tests", src, python_env(), py && *py ? py : "python3", test_dir,
			  fail_fast(src)),
		 &out, &err);
	ck_assert_msg(rc == 0, "pytest: exit %d\n%s\n%s", rc,
		      strlen(out) > 6000 ? out + strlen(out) - 6000 : out, err);
	ck_assert_ptr_nonnull(strstr(out, " passed"));
	ck_assert_ptr_null(strstr(out, " failed"));
	free(out);
	free(err);
}
END_TEST

Suite *python_suite(void)
{
	Suite *s = suite_create("python");
	TCase *t = tcase_create("python");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	/* the suite runs engines, the program and make install: a minute or two */
	tcase_set_timeout(t, 600);
	tcase_add_test(t, test_the_python_package_passes_its_pytest_suite);
	suite_add_tcase(s, t);
	return s;
}
