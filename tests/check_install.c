/* check_install.c: libtimeline used the ways the README gives, by a program
 * (tests/linked.c) built and run each way: against the library in the tree,
 * shared (with an rpath, or LD_LIBRARY_PATH) and static, and installed by
 * `make install PREFIX=DIR` and found through pkg-config; what `make`
 * and `make clean` leave in lib/; and what the shared library exports. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

/* The variable NAME of make check's environment. */
static const char *make_env(const char *name)
{
	const char *s = getenv(name);
	ck_assert_msg(s != NULL, "%s is not set (run the tests with make check)", name);
	return s;
}

/* The library of the tree under test: lib/ in the default build, the build
 * directory of a variant (build/san, ...), as a path from the source tree. */
static const char *lib_dir(void)
{
	const char *src = make_env("TIMELINE_SRC"), *d = make_env("TIMELINE_LIB_DIR");
	size_t n = strlen(src);
	return !strncmp(d, src, n) && d[n] == '/' ? d + n + 1 : d;
}

/* Runs the shell command CMD in the source tree, with make's own variables
 * out of its environment; it must exit 0 and print nothing on stderr.
 * Returns its stdout. */
static char *ok(const char *cmd)
{
	char *out, *err;
	int rc = run(test_str("cd '%s' && unset MAKEFLAGS MFLAGS MAKELEVEL && %s",
			      make_env("TIMELINE_SRC"), cmd), &out, &err);
	ck_assert_msg(rc == 0 && !*err, "%s: exit %d: %s", cmd, rc, err);
	free(err);
	return out;
}

/* Compiles tests/linked.c into the test directory's NAME with the flags
 * FLAGS (and the sanitizers of the build under test). */
static void build(const char *name, const char *flags)
{
	free(ok(test_str("cc -std=gnu11 -Wall -Wextra -Werror %s -o '%s/%s' tests/linked.c %s",
			 make_env("TIMELINE_SAN_FLAGS"), test_dir, name, flags)));
}

/* Runs the test directory's program NAME (after ENV, shell assignments)
 * and checks what it prints: its entry, and that tl_open came from FILE. */
static void runs_from(const char *env, const char *name, const char *file)
{
	char real[PATH_MAX], *out, *want;
	ck_assert_msg(realpath(file, real) != NULL, "%s: no such file", file);
	out = ok(test_str("%s '%s/%s' '%s/%s.timeline'", env, test_dir, name, test_dir, name));
	want = xasprintf("linked.hello n=42\ntl_open from %s\n", real);
	ck_assert_str_eq(out, want);
	free(want);
	free(out);
}

static void teardown(void)
{
	test_kept_free();
	test_dir_teardown();
}

START_TEST(test_make_leaves_the_soname_link_beside_the_shared_library)
{
	char to[64] = "";
	const char *link = test_str("%s/%s/libtimeline.so.0", make_env("TIMELINE_SRC"), lib_dir());
	ck_assert_int_eq(readlink(link, to, sizeof to - 1), (ssize_t)strlen("libtimeline.so"));
	ck_assert_str_eq(to, "libtimeline.so");
	/* the name the loader looks for is that link's */
	free(ok(test_str("readelf -d %s/libtimeline.so | grep -q 'Library soname: \\[libtimeline.so.0\\]'",
			 lib_dir())));
}
END_TEST

START_TEST(test_a_program_built_in_the_tree_against_the_shared_library_runs)
{
	const char *d = lib_dir(), *so = test_str("%s/%s/libtimeline.so", make_env("TIMELINE_SRC"), d);
	char abs[PATH_MAX];
	ck_assert_ptr_nonnull(realpath(d, abs));
	/* with an rpath */
	build("rpath", test_str("-Ilib -L%s -Wl,-rpath,%s -ltimeline", d, abs));
	runs_from("", "rpath", so);
	/* without one, found through LD_LIBRARY_PATH */
	build("plain", test_str("-Ilib -L%s -ltimeline", d));
	runs_from(test_str("LD_LIBRARY_PATH=%s", d), "plain", so);
}
END_TEST

START_TEST(test_a_program_built_in_the_tree_against_the_static_library_runs)
{
	build("static", test_str("-Ilib %s/libtimeline.a -lzstd -pthread", lib_dir()));
	/* tl_open is the program's own */
	runs_from("", "static", test_str("%s/static", test_dir));
}
END_TEST

START_TEST(test_a_program_built_against_the_installed_library_through_pkg_config_runs)
{
	const char *prefix = test_str("%s/prefix", test_dir), *pc;
	char *out;
	free(ok(test_str("make install PREFIX='%s' %s >/dev/null", prefix, make_env("TIMELINE_MAKE_VARS"))));
	pc = test_str("PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config", prefix);
	out = ok(test_str("%s --cflags --libs timeline", pc));
	ck_assert_str_eq(out, test_str("-I%s/include -L%s/lib -ltimeline \n", prefix, prefix));
	free(out);
	build("installed", test_str("$(%s --cflags --libs timeline) -Wl,-rpath,%s/lib", pc, prefix));
	/* the installed file, through the link named by the SONAME */
	runs_from("", "installed", test_str("%s/lib/libtimeline.so.0", prefix));
}
END_TEST

/* The functions lib/timeline.h declares (static inline ones aside), one a
 * line, sorted. */
#define DECLARED "grep -oE '^[a-z][a-z_0-9 *]*[ *]tl_[a-z_0-9]+\\(' lib/timeline.h | " \
	"grep -v '^static' | sed -E 's/.*(tl_[a-z_0-9]+)\\($/\\1/' | sort"

START_TEST(test_the_shared_library_exports_the_functions_of_timeline_h_and_no_other)
{
	char *exported = ok(test_str("nm -D --defined-only %s/libtimeline.so | awk '{ print $3 }' | sort",
				     lib_dir()));
	char *declared = ok(DECLARED), *name = ok("sed -n '/^\\.SH NAME/,/^\\.SH/p' man/timeline.3");
	char *synopsis = ok("sed -n '/^\\.SH SYNOPSIS/,/^\\.SH/p' man/timeline.3");
	/* the library hides its internal tl_ functions: what it exports is
	 * what the header declares, all of it */
	ck_assert_str_eq(exported, declared);
	ck_assert_ptr_nonnull(strstr(exported, "tl_open\n"));
	ck_assert_ptr_nonnull(strstr(exported, "tl_append\n"));   /* from the assembly */
	ck_assert_ptr_null(strstr(exported, "tl_snabb_open"));    /* internal (lib/reader.h) */
	/* and timeline(3) names each in NAME and SYNOPSIS */
	for (char *c = name; *c; c++)   /* NAME's list, one line */
		*c = *c == '\n' ? ' ' : *c;
	for (char *f = strtok(exported, "\n"); f; f = strtok(NULL, "\n")) {
		char comma[80], last[80], call[80];
		snprintf(comma, sizeof comma, " %s,", f);
		snprintf(last, sizeof last, " %s ", f);
		snprintf(call, sizeof call, "%s(", f);
		ck_assert_msg(strstr(name, comma) || strstr(name, last), "%s is not in timeline(3)'s NAME",
			      f);
		ck_assert_msg(strstr(synopsis, call), "%s is not in timeline(3)'s SYNOPSIS", f);
	}
	free(exported);
	free(declared);
	free(name);
	free(synopsis);
}
END_TEST

START_TEST(test_make_clean_removes_the_soname_link)
{
	const char *t = test_str("%s/tree", test_dir);
	char *out;
	ck_assert_int_eq(mkdir(t, 0700), 0);
	ck_assert_int_eq(mkdir(test_str("%s/lib", t), 0700), 0);
	write_file(test_str("%s/lib/libtimeline.so", t), "so", 2);
	ck_assert_int_eq(symlink("libtimeline.so", test_str("%s/lib/libtimeline.so.0", t)), 0);
	write_file(test_str("%s/lib/timeline.h", t), "h", 1);
	/* the tree's Makefile, run in a scratch tree that has only these */
	free(ok(test_str("make -s -C '%s' -f \"$PWD/Makefile\" clean >/dev/null", t)));
	out = ok(test_str("ls -A '%s/lib'", t));
	ck_assert_str_eq(out, "timeline.h\n");
	free(out);
}
END_TEST

Suite *install_suite(void)
{
	Suite *s = suite_create("install");
	TCase *t = tcase_create("install");
	tcase_add_checked_fixture(t, test_dir_setup, teardown);
	/* these run the system compiler, and make */
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_make_leaves_the_soname_link_beside_the_shared_library);
	tcase_add_test(t, test_a_program_built_in_the_tree_against_the_shared_library_runs);
	tcase_add_test(t, test_a_program_built_in_the_tree_against_the_static_library_runs);
	tcase_add_test(t, test_a_program_built_against_the_installed_library_through_pkg_config_runs);
	tcase_add_test(t, test_make_clean_removes_the_soname_link);
	tcase_add_test(t, test_the_shared_library_exports_the_functions_of_timeline_h_and_no_other);
	suite_add_tcase(s, t);
	return s;
}
