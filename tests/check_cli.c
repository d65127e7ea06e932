/* check_cli.c: the timeline program run as a user runs it: the command table,
 * help and usage errors, `timeline gen` and its errors, and generated headers
 * compiled with the system compiler, linked against libtimeline and run. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

/* The line after a usage error's reason. */
static const char gen_see[] = "see 'timeline gen --help'\n";

static const char gen_usage[] =
	"usage: timeline gen [-o FILE] [--prefix NAME] EVENTS-FILE\n"
	"\n"
	"   -o, --output FILE   write the header to FILE (default: standard output)\n"
	"   -p, --prefix NAME   prefix of the generated names (default: the category)\n"
	"   -h, --help          show this help\n";

/* A small events file with one event per sampling case. */
static const char small_events[] =
	"# small: one event per sampling case\n"
	"\n"
	"0,9|always: a b c d e f\n"
	"Logged at every rate.\n"
	"\n"
	"5,5|mid: x\n"
	"Logged when the rate is 5 or below.\n"
	"\n"
	"3,3|rare: y\n"
	"\n"
	"0,0|never: z\n"
	"Rate 0: never logged.\n";

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


/* Runs the built program with ARGS (shell words); returns its exit status. */
static int tl(const char *args, char **out, char **err)
{
	char *cmd = xasprintf("'%s' %s", timeline_bin(), args);
	int rc = run(cmd, out, err);
	free(cmd);
	return rc;
}

static const char *src_dir(void)
{
	const char *s = getenv("TIMELINE_SRC");
	ck_assert_msg(s && *s, "TIMELINE_SRC is not set (run the tests with make check)");
	return s;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcmp(s + n - t, tail);
}

/* The archive matching the program under test, and the sanitizer flags it
 * needs: build/san/libtimeline.a beside build/san/timeline for SANITIZE=1,
 * else $TIMELINE_SRC/lib/libtimeline.a. */
static char *archive_and_flags(const char **san)
{
	char *bin = strdup(timeline_bin()), *slash = strrchr(bin, '/'), *a;
	if (slash)
		*slash = '\0';
	if (slash && (ends_with(bin, "/build/san") || !strcmp(bin, "build/san"))) {
		a = xasprintf("%s/libtimeline.a", bin);
		*san = "-fsanitize=address,undefined -fno-sanitize-recover=all";
	} else {
		/* the archive beside the program (build trees of their own), else lib/ */
		a = xasprintf("%s/libtimeline.a", slash ? bin : ".");
		if (access(a, R_OK) != 0) {
			free(a);
			a = xasprintf("%s/lib/libtimeline.a", src_dir());
		}
		*san = "";
	}
	free(bin);
	ck_assert_msg(access(a, R_OK) == 0, "no archive %s", a);
	return a;
}

/* The sorted names in D, each followed by '\n'. Caller frees. */
static char *listing(const char *d)
{
	struct dirent **v;
	int n = scandir(d, &v, NULL, alphasort);
	size_t len = 0;
	char *s;
	ck_assert_int_ge(n, 0);
	for (int i = 0; i < n; i++)
		len += strlen(v[i]->d_name) + 1;
	s = calloc(1, len + 1);
	for (int i = 0; i < n; i++) {
		if (strcmp(v[i]->d_name, ".") && strcmp(v[i]->d_name, "..")) {
			strcat(s, v[i]->d_name);
			strcat(s, "\n");
		}
		free(v[i]);
	}
	free(v);
	return s;
}

static void assert_listing(const char *d, const char *want)
{
	char *got = listing(d);
	ck_assert_str_eq(got, want);
	free(got);
}

/* Writes NAME in the test directory; returns its path (malloc'd). */
static char *put(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	write_file(p, text, strlen(text));
	return p;
}

/* Runs `timeline gen -o DIR/HDR DIR/EVENTS` on TEXT, which must succeed. */
static void gen_ok(const char *events, const char *text, const char *hdr, const char *opts)
{
	char *p = put(events, text), *args, *out, *err;
	int rc;
	args = xasprintf("gen %s -o '%s/%s' '%s'", opts ? opts : "", dir, hdr, p);
	rc = tl(args, &out, &err);
	ck_assert_msg(rc == 0, "timeline %s: exit %d: %s", args, rc, err);
	ck_assert_str_eq(out, "");
	ck_assert_str_eq(err, "");
	free(args);
	free(out);
	free(err);
	free(p);
}

/* Compiles DIR/NAME (CODE) with the strict flags: to an object with -c when
 * LINK is 0, else to the program DIR/prog linked with libtimeline. Returns the
 * compiler's exit status; *DIAG gets its messages. */
static int compile(const char *name, const char *code, int link, char **diag)
{
	const char *san = "";
	char *archive = link ? archive_and_flags(&san) : NULL;
	char *c = put(name, code), *cmd;
	int rc;
	if (link)
		cmd = xasprintf("cc -std=gnu11 -Wall -Wextra -Werror %s -I'%s/lib' -I'%s' -o '%s/prog' "
				"'%s' '%s' -lzstd -lm -pthread",
				san, src_dir(), dir, dir, c, archive);
	else
		cmd = xasprintf("cc -std=gnu11 -Wall -Wextra -Werror -I'%s/lib' -I'%s' -c -o '%s/%s.o' '%s'",
				src_dir(), dir, dir, name, c);
	rc = run(cmd, NULL, diag);
	free(cmd);
	free(c);
	free(archive);
	return rc;
}

static void compile_ok(const char *name, const char *code, int link)
{
	char *diag;
	int rc = compile(name, code, link, &diag);
	ck_assert_msg(rc == 0, "cc %s: exit %d:\n%s", name, rc, diag);
	free(diag);
}

/* Runs DIR/prog ARGS; it must exit 0 silently. */
static void run_prog(const char *args)
{
	char *cmd = xasprintf("'%s/prog' %s", dir, args), *out, *err;
	int rc = run(cmd, &out, &err);
	ck_assert_msg(rc == 0, "%s: exit %d: %s", cmd, rc, err);
	ck_assert_str_eq(err, "");
	free(cmd);
	free(out);
	free(err);
}

/* One entry expected in a log. */
struct want_entry {
	uint64_t tsc;
	uint16_t cpu;
	const char *string;
	uint64_t args[TL_MAX_ARGS];
};

/* The log at PATH holds exactly the N entries W, oldest first. */
static void assert_log(const char *path, const struct want_entry *w, size_t n)
{
	tl_error err;
	tl_reader *r = tl_reader_open(path, &err);
	tl_info info;
	tl_entry e;
	size_t k = 0;
	ck_assert_msg(r != NULL, "tl_reader_open: %s", err.msg);
	tl_reader_info(r, &info);
	ck_assert_uint_eq(info.cursor, n);
	ck_assert_uint_eq(tl_reader_rewind(r), n);
	while (tl_reader_next(r, &e)) {
		const char *s;
		ck_assert_uint_lt(k, n);
		ck_assert_uint_eq(e.seq, k);
		ck_assert_uint_eq(e.tsc, w[k].tsc);
		ck_assert_uint_eq(e.cpu, w[k].cpu);
		ck_assert_uint_eq(e.numa, 0);
		s = tl_reader_string(r, e.msgid);
		ck_assert_msg(s != NULL, "entry %zu: msgid %u has no string", k, e.msgid);
		ck_assert_str_eq(s, w[k].string);
		for (int a = 0; a < TL_MAX_ARGS; a++)
			ck_assert_uint_eq(e.args[a], w[k].args[a]);
		k++;
	}
	ck_assert_uint_eq(k, n);
	ck_assert_uint_eq(tl_reader_skipped(r), 0);
	tl_reader_close(r);
}

/* ------------------------------------------------------------------------
 * The command table
 * ------------------------------------------------------------------------ */

static char *help_text(void)
{
	char *out, *err;
	ck_assert_int_eq(tl("help", &out, &err), 0);
	ck_assert_str_eq(err, "");
	free(err);
	return out;
}

START_TEST(test_help_lists_every_command_and_exits_0)
{
	char *out = help_text();
	ck_assert_msg(!strncmp(out, "usage: timeline COMMAND [ARGS]\n", 31), "%s", out);
	ck_assert_msg(strstr(out, "\n   gen ") != NULL, "gen not listed:\n%s", out);
	ck_assert_msg(strstr(out, "\n   help ") != NULL, "help not listed:\n%s", out);
	ck_assert_msg(strstr(out, "\n   version ") != NULL, "version not listed:\n%s", out);
	free(out);
}
END_TEST

START_TEST(test_dash_dash_help_and_dash_h_print_the_command_list)
{
	char *want = help_text(), *out, *err;
	ck_assert_int_eq(tl("--help", &out, &err), 0);
	ck_assert_str_eq(out, want);
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	ck_assert_int_eq(tl("-h", &out, &err), 0);
	ck_assert_str_eq(out, want);
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	free(want);
}
END_TEST

START_TEST(test_no_command_prints_the_list_to_stderr_and_exits_2)
{
	char *want = help_text(), *out, *err;
	ck_assert_int_eq(tl("", &out, &err), 2);
	ck_assert_str_eq(out, "");
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
	free(want);
}
END_TEST

START_TEST(test_unknown_command_exits_2_with_exact_message)
{
	char *out, *err;
	ck_assert_int_eq(tl("nosuch", &out, &err), 2);
	ck_assert_str_eq(out, "");
	ck_assert_str_eq(err, "timeline: 'nosuch' is not a timeline command; see 'timeline help'\n");
	free(out);
	free(err);
	ck_assert_int_eq(tl("help nosuch", &out, &err), 2);
	ck_assert_str_eq(out, "");
	ck_assert_str_eq(err, "timeline: 'nosuch' is not a timeline command; see 'timeline help'\n");
	free(out);
	free(err);
}
END_TEST

/* Every command: a wrong option is its one reason line and the line saying
 * where the usage is, exit 2, nothing on stdout (as git and perf answer;
 * the usage itself is 20 to 54 lines that hide the reason); --help still
 * prints the whole usage on stdout, exit 0. */
START_TEST(test_every_usage_error_is_its_reason_and_where_the_usage_is)
{
	static const char *const cmds[] = { "copy", "diff", "dump", "export", "gc", "gen", "info",
					    "ls", "merge", "rate", "report", "stats", "top" };
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char *args = xasprintf("%s --no-such-option x", cmds[i]), *out, *err, *want, *head;
		want = xasprintf("timeline %s: unknown option '--no-such-option'\n"
				 "see 'timeline %s --help'\n", cmds[i], cmds[i]);
		ck_assert_int_eq(tl(args, &out, &err), 2);
		ck_assert_str_eq(err, want);
		ck_assert_str_eq(out, "");
		free(args);
		free(out);
		free(err);
		free(want);
		args = xasprintf("%s --help", cmds[i]);
		head = xasprintf("usage: timeline %s ", cmds[i]);
		ck_assert_int_eq(tl(args, &out, &err), 0);
		ck_assert_msg(!strncmp(out, head, strlen(head)) && strchr(out, '\n') != strrchr(out, '\n'),
			      "%s: %s", args, out);
		ck_assert_str_eq(err, "");
		free(args);
		free(head);
		free(out);
		free(err);
	}
}
END_TEST

START_TEST(test_version_prints_library_and_file_format_versions)
{
	char *p = xasprintf("%s/v.timeline", dir), *want, *out, *err;
	tl_error e;
	tl_reader *r;
	tl_info info;
	tl_close(open_manual(p, 16));
	r = tl_reader_open(p, &e);
	ck_assert_msg(r != NULL, "%s", e.msg);
	tl_reader_info(r, &info);
	tl_reader_close(r);
	want = xasprintf("timeline %s (file format %u.%u)\n", TL_VERSION_STRING, info.major, info.minor);
	ck_assert_int_eq(tl("version", &out, &err), 0);
	ck_assert_str_eq(out, want);
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	ck_assert_int_eq(tl("--version", &out, &err), 0);
	ck_assert_str_eq(out, want);
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	free(want);
	free(p);
}
END_TEST

/* ------------------------------------------------------------------------
 * timeline gen: usage
 * ------------------------------------------------------------------------ */

START_TEST(test_gen_help_prints_usage_on_stdout_and_exits_0)
{
	const char *const forms[] = { "gen --help", "gen -h", "help gen" };
	for (int i = 0; i < 3; i++) {
		char *out, *err;
		ck_assert_msg(tl(forms[i], &out, &err) == 0, "timeline %s", forms[i]);
		ck_assert_str_eq(out, gen_usage);
		ck_assert_str_eq(err, "");
		free(out);
		free(err);
	}
}
END_TEST

/* `timeline ARGS` exits 2, prints nothing on stdout and exactly WANT on stderr. */
static void assert_usage_error(const char *args, const char *want)
{
	char *out, *err;
	int rc = tl(args, &out, &err);
	ck_assert_msg(rc == 2, "timeline %s: exit %d, want 2; stderr: %s", args, rc, err);
	ck_assert_str_eq(out, "");
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
}

START_TEST(test_gen_without_file_prints_reason_then_where_the_usage_is_and_exits_2)
{
	char *want = xasprintf("timeline gen: missing events file\n%s", gen_see);
	assert_usage_error("gen", want);
	free(want);
}
END_TEST

START_TEST(test_gen_with_two_files_prints_reason_then_where_the_usage_is_and_exits_2)
{
	char *want = xasprintf("timeline gen: too many arguments\n%s", gen_see);
	assert_usage_error("gen a.events b.events", want);
	free(want);
}
END_TEST

START_TEST(test_gen_bad_prefix_prints_reason_then_where_the_usage_is_and_exits_2)
{
	char *want = xasprintf("timeline gen: --prefix must be a C identifier\n%s", gen_see);
	assert_usage_error("gen --prefix 9x a.events", want);
	assert_usage_error("gen -p a-b a.events", want);
	free(want);
}
END_TEST

/* `timeline ARGS` is a usage error whose reason is one line starting with
 * "timeline gen: " and naming the option as OPT or ALT, followed by the
 * line saying where the usage is (not the usage itself). */
static void assert_option_error(const char *args, const char *opt, const char *alt)
{
	char *out, *err, *nl;
	ck_assert_int_eq(tl(args, &out, &err), 2);
	ck_assert_str_eq(out, "");
	ck_assert_msg(!strncmp(err, "timeline gen: ", 14), "stderr: %s", err);
	nl = strchr(err, '\n');
	ck_assert_ptr_nonnull(nl);
	*nl = '\0';
	ck_assert_msg(strstr(err, opt) || strstr(err, alt), "reason '%s' does not name %s", err, opt);
	ck_assert_str_eq(nl + 1, gen_see);
	free(out);
	free(err);
}

START_TEST(test_gen_unknown_option_prints_reason_then_where_the_usage_is_and_exits_2)
{
	assert_option_error("gen --nosuch a.events", "'--nosuch'", "'--nosuch'");
	assert_option_error("gen -q a.events", "'q'", "-q");
}
END_TEST

START_TEST(test_gen_option_without_its_argument_is_a_usage_error)
{
	assert_option_error("gen -o", "'o'", "-o");
}
END_TEST

START_TEST(test_gen_of_missing_events_file_names_the_path)
{
	char *want = xasprintf("timeline gen: %s/nosuch.events: %s\n", dir, strerror(ENOENT));
	char *args = xasprintf("gen '%s/nosuch.events'", dir);
	assert_usage_error(args, want);
	free(args);
	free(want);
}
END_TEST

/* ------------------------------------------------------------------------
 * timeline gen: output
 * ------------------------------------------------------------------------ */

START_TEST(test_gen_writes_the_header_to_the_output_file_only)
{
	char *hdr, *out, *err, *args, *hpath;
	gen_ok("small.events", small_events, "out.h", NULL);
	assert_listing(dir, "out.h\nsmall.events\n");   /* no temporary left */
	hpath = xasprintf("%s/out.h", dir);
	hdr = read_file(hpath, NULL);
	ck_assert_ptr_nonnull(hdr);
	ck_assert_msg(strstr(hdr, "#ifndef SMALL_EVENTS_H\n#define SMALL_EVENTS_H\n") != NULL, "%s", hdr);
	ck_assert_msg(ends_with(hdr, "#endif\n"), "%s", hdr);
	/* the description is the doc comment of the event's function */
	ck_assert_msg(strstr(hdr, " * Logged when the rate is 5 or below.\n */\n"
				  "static inline void small_mid(") != NULL, "%s", hdr);
	/* without -o the same header goes to standard output */
	args = xasprintf("gen '%s/small.events'", dir);
	ck_assert_int_eq(tl(args, &out, &err), 0);
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(out, hdr);
	free(args);
	free(out);
	free(err);
	free(hdr);
	free(hpath);
}
END_TEST

START_TEST(test_generated_header_compiles_with_strict_flags)
{
	gen_ok("small.events", small_events, "small_events.h", NULL);
	compile_ok("inc.c",
		   "#include \"small_events.h\"\n"
		   "#include \"small_events.h\"   /* the include guard holds */\n"
		   "_Static_assert(SMALL_EVENTS_COUNT == 4, \"four events\");\n"
		   "_Static_assert(SMALL_ALWAYS == 0 && SMALL_MID == 1, \"file order\");\n"
		   "_Static_assert(SMALL_RARE == 2 && SMALL_NEVER == 3, \"file order\");\n"
		   "_Static_assert(sizeof(struct small_events) == 4 * sizeof(uint16_t), \"ids\");\n"
		   "int probe(tl_log *l, struct small_events *ev);\n"
		   "int probe(tl_log *l, struct small_events *ev)\n"
		   "{\n"
		   "\tsmall_always(l, ev, 1, 2, 3, 4, 5, 6);\n"
		   "\tsmall_never(l, ev, 7);\n"
		   "\treturn small_events_register(l, ev, NULL, NULL);\n"
		   "}\n",
		   0);
}
END_TEST

START_TEST(test_gen_prefix_renames_the_generated_names)
{
	char *hpath = xasprintf("%s/probe.h", dir), *hdr;
	gen_ok("small.events", small_events, "probe.h", "--prefix probe");
	compile_ok("pfx.c",
		   "#include \"probe.h\"\n"
		   "_Static_assert(PROBE_EVENTS_COUNT == 4 && PROBE_RARE == 2, \"enum\");\n"
		   "int use(tl_log *l, struct probe_events *ev);\n"
		   "int use(tl_log *l, struct probe_events *ev)\n"
		   "{\n"
		   "\tprobe_mid(l, ev, 1);\n"
		   "\treturn probe_events_register(l, ev, NULL, NULL);\n"
		   "}\n",
		   0);
	hdr = read_file(hpath, NULL);
	/* the interned strings keep the category from the file name */
	ck_assert_msg(strstr(hdr, "\"5,5|small.mid: x\\n\"") != NULL, "%s", hdr);
	free(hdr);
	free(hpath);
}
END_TEST

static const char small_main[] =
	"#include <stdio.h>\n"
	"#include \"small_events.h\"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\ttl_options o = { .entries = 64, .strings_bytes = 4096, .clock = TL_CLOCK_MANUAL,\n"
	"\t\t\t  .tsc_hz = 1000000000, .name = \"gen\" };\n"
	"\tstruct small_events ev;\n"
	"\ttl_error err;\n"
	"\ttl_log *log;\n"
	"\tif (argc < 2)\n"
	"\t\treturn 10;\n"
	"\tif (!(log = tl_open(argv[1], &o, &err))) {\n"
	"\t\tfprintf(stderr, \"%s\\n\", err.msg);\n"
	"\t\treturn 11;\n"
	"\t}\n"
	"\tif (small_events_register(log, &ev, argc > 2 ? argv[2] : NULL, &err) != TL_OK) {\n"
	"\t\tfprintf(stderr, \"%s\\n\", err.msg);\n"
	"\t\treturn 12;\n"
	"\t}\n"
	"\tif (tl_set_rate(log, 5) != TL_OK || tl_rate(log) != 5)\n"
	"\t\treturn 13;\n"
	"\ttl_set_manual_clock(log, 1000, 3);\n"
	"\tsmall_always(log, &ev, 1, 2, 3, 4, 5, 6);\n"
	"\ttl_set_manual_clock(log, 2000, 3);\n"
	"\tsmall_mid(log, &ev, 50);       /* rate 5 >= 5: logged */\n"
	"\tsmall_rare(log, &ev, 30);      /* rate 3 < 5: not logged */\n"
	"\tsmall_never(log, &ev, 40);     /* rate 0: never */\n"
	"\tif (tl_set_rate(log, 1) != TL_OK)\n"
	"\t\treturn 14;\n"
	"\ttl_set_manual_clock(log, 3000, 3);\n"
	"\tsmall_rare(log, &ev, 31);      /* rate 3 >= 1: logged */\n"
	"\tsmall_never(log, &ev, 41);     /* rate 0: still never */\n"
	"\tif (tl_set_rate(log, TL_RATE_OFF) != TL_OK)\n"
	"\t\treturn 15;\n"
	"\tsmall_always(log, &ev, 9, 9, 9, 9, 9, 9);   /* off: nothing */\n"
	"\ttl_close(log);\n"
	"\treturn 0;\n"
	"}\n";

START_TEST(test_generated_functions_log_exactly_what_the_fixed_rate_allows)
{
	char *log = xasprintf("%s/small.timeline", dir), *args = xasprintf("'%s'", log);
	const struct want_entry want[] = {
		{ 1000, 3, "0,9|small.always: a b c d e f\nLogged at every rate.", { 1, 2, 3, 4, 5, 6 } },
		{ 2000, 3, "5,5|small.mid: x\nLogged when the rate is 5 or below.", { 50, 0, 0, 0, 0, 0 } },
		{ 3000, 3, "3,3|small.rare: y", { 31, 0, 0, 0, 0, 0 } },
	};
	gen_ok("small.events", small_events, "small_events.h", NULL);
	compile_ok("prog.c", small_main, 1);
	run_prog(args);
	assert_log(log, want, 3);
	free(args);
	free(log);
}
END_TEST

START_TEST(test_registration_attributes_follow_the_name_in_interned_strings)
{
	char *log = xasprintf("%s/attr.timeline", dir), *args = xasprintf("'%s' app=probe", log);
	const struct want_entry want[] = {
		{ 1000, 3, "0,9|small.always app=probe: a b c d e f\nLogged at every rate.",
		  { 1, 2, 3, 4, 5, 6 } },
		{ 2000, 3, "5,5|small.mid app=probe: x\nLogged when the rate is 5 or below.",
		  { 50, 0, 0, 0, 0, 0 } },
		{ 3000, 3, "3,3|small.rare app=probe: y", { 31, 0, 0, 0, 0, 0 } },
	};
	gen_ok("small.events", small_events, "small_events.h", NULL);
	compile_ok("prog.c", small_main, 1);
	run_prog(args);
	assert_log(log, want, 3);
	free(args);
	free(log);
}
END_TEST

/* Generates a header from events file EVENTS (category "sp", one rate-9
 * event "a" with argument x, description DESCR), builds a program that
 * registers and logs it once with x = 42, and checks the interned string. */
static void assert_description_round_trips(const char *events, const char *descr)
{
	char *text = xasprintf("9,9|a: x\n%s\n", descr), *log = xasprintf("%s/sp.timeline", dir);
	char *args = xasprintf("'%s'", log), *want = xasprintf("9,9|sp.a: x\n%s", descr);
	struct want_entry w = { 5, 1, want, { 42, 0, 0, 0, 0, 0 } };
	gen_ok(events, text, "sp_events.h", NULL);
	compile_ok("prog.c",
		   "#include \"sp_events.h\"\n"
		   "int main(int argc, char **argv)\n"
		   "{\n"
		   "\ttl_options o = { .entries = 16, .strings_bytes = 4096, .clock = TL_CLOCK_MANUAL };\n"
		   "\tstruct sp_events ev;\n"
		   "\ttl_log *log = argc > 1 ? tl_open(argv[1], &o, NULL) : NULL;\n"
		   "\tif (!log || sp_events_register(log, &ev, NULL, NULL) != TL_OK)\n"
		   "\t\treturn 10;\n"
		   "\ttl_set_manual_clock(log, 5, 1);\n"
		   "\tsp_a(log, &ev, 42);\n"
		   "\ttl_close(log);\n"
		   "\treturn 0;\n"
		   "}\n",
		   1);
	run_prog(args);
	assert_log(log, &w, 1);
	free(want);
	free(args);
	free(log);
	free(text);
}

START_TEST(test_description_with_c_specials_round_trips_through_the_header)
{
	assert_description_round_trips("sp.events",
		"Ends a comment */ here, \"quoted\" and back\\slash \\n (not a newline).\n"
		"Trigraphs?? ?\?= ?\?( ?\?) ?\?< ?\?> ?\?' ?\?! ?\?- ?\?/x and ??\?.\n"
		"A tab\there, a percent %s %d, and UTF-8: caf\xc3\xa9.\n"
		"This line ends with a backslash \\\n"
		"   and this one is indented, then */ /\n"
		"*/");
}
END_TEST

START_TEST(test_description_with_comment_opener_compiles)
{
	assert_description_round_trips("sp.events", "Nested /* comment opener.");
}
END_TEST

START_TEST(test_description_line_ending_in_trigraph_backslash_compiles)
{
	assert_description_round_trips("sp.events", "Ends with a trigraph ?\?/\nnext line");
}
END_TEST

START_TEST(test_input_path_containing_comment_end_still_compiles)
{
	char *sub = xasprintf("%s/we*", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	assert_description_round_trips("we*/sp.events", "Plain.");
	free(sub);
}
END_TEST

/* ------------------------------------------------------------------------
 * timeline gen: errors
 * ------------------------------------------------------------------------ */

/* gen -o DIR/out.h on events file NAME (TEXT) exits 2 with stderr exactly
 * "timeline gen: " + FMT + "\n" (FMT's %s = the events file's path) and
 * creates no output file; the events file is removed afterwards. */
static void assert_gen_fails(const char *name, const char *text, const char *fmt)
{
	char *p = put(name, text), *args, *msg, *want, *list;
	args = xasprintf("gen -o '%s/out.h' '%s'", dir, p);
	msg = xasprintf(fmt, p);
	want = xasprintf("timeline gen: %s\n", msg);
	assert_usage_error(args, want);
	list = xasprintf("%s\n", name);
	assert_listing(dir, list);   /* no out.h, no temporary */
	ck_assert_int_eq(unlink(p), 0);
	free(list);
	free(want);
	free(msg);
	free(args);
	free(p);
}

START_TEST(test_gen_seven_arguments_exits_2_with_exact_message)
{
	assert_gen_fails("seven.events", "1,1|ok: a\n\n2,2|x: a b c d e f g\n",
			 "%s:3: event 'x' has 7 arguments; at most 6 are allowed");
}
END_TEST

START_TEST(test_gen_parse_error_message_has_file_and_line)
{
	assert_gen_fails("dup.events", "1,1|a: x\n1,1|a: y\n",
			 "%s:2: duplicate event 'a' (first defined at line 1)");
	assert_gen_fails("pre.events", "text\n1,1|a: x\n",
			 "%s:1: bad header: expected 'LEVEL,RATE|name: arg ...'");
}
END_TEST

START_TEST(test_gen_argument_named_c_keyword_is_reserved)
{
	assert_gen_fails("r.events", "1,1|ok: a\nfine\n1,1|bad: a int\n",
			 "%s:3: argument name 'int' is reserved in C or by timeline");
}
END_TEST

START_TEST(test_gen_argument_with_tl_prefix_is_reserved)
{
	assert_gen_fails("r.events", "1,1|bad: tl_x\n",
			 "%s:1: argument name 'tl_x' is reserved in C or by timeline");
}
END_TEST

START_TEST(test_gen_argument_named_gnu_keyword_or_reserved_identifier_is_reserved)
{
	/* each of these breaks the generated header under -std=gnu11 */
	const char *const names[] = { "asm", "typeof", "_Bool", "__builtin_expect", NULL };
	for (int i = 0; names[i]; i++) {
		char *text = xasprintf("1,1|bad: %s\n", names[i]), *file = xasprintf("kw_%s.events", names[i]);
		char *fmt = xasprintf("%%s:1: argument name '%s' is reserved in C or by timeline", names[i]);
		assert_gen_fails(file, text, fmt);
		free(fmt);
		free(file);
		free(text);
	}
}
END_TEST

START_TEST(test_gen_file_without_events_is_an_error)
{
	assert_gen_fails("none.events", "", "%s: no events defined");
	assert_gen_fails("none.events", "# only a comment\n\n", "%s: no events defined");
}
END_TEST

START_TEST(test_gen_output_into_missing_directory_fails_and_leaves_nothing)
{
	char *p = put("e.events", small_events), *args, *out, *err, *head;
	const char *tail = ": No such file or directory\n";
	args = xasprintf("gen -o '%s/nosuch/out.h' '%s'", dir, p);
	ck_assert_int_eq(tl(args, &out, &err), 2);
	ck_assert_str_eq(out, "");
	head = xasprintf("timeline gen: %s/nosuch/out.h", dir);
	ck_assert_msg(!strncmp(err, head, strlen(head)) && ends_with(err, tail), "stderr: %s", err);
	ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1);   /* one line */
	assert_listing(dir, "e.events\n");
	free(head);
	free(args);
	free(out);
	free(err);
	free(p);
}
END_TEST

START_TEST(test_gen_output_onto_a_directory_fails_and_leaves_no_temporary)
{
	char *p = put("e.events", small_events), *sub = xasprintf("%s/outdir", dir), *args, *want;
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	args = xasprintf("gen -o '%s' '%s'", sub, p);
	want = xasprintf("timeline gen: %s: %s\n", sub, strerror(EISDIR));
	assert_usage_error(args, want);
	assert_listing(dir, "e.events\noutdir\n");
	assert_listing(sub, "");
	free(want);
	free(args);
	free(sub);
	free(p);
}
END_TEST

START_TEST(test_gen_failure_leaves_an_existing_output_untouched)
{
	char *p = put("bad.events", "1,1|a: b c d e f g h\n"), *old = put("out.h", "old header\n");
	char *args = xasprintf("gen -o '%s' '%s'", old, p), *want, *got;
	want = xasprintf("timeline gen: %s:1: event 'a' has 7 arguments; at most 6 are allowed\n", p);
	assert_usage_error(args, want);
	got = read_file(old, NULL);
	ck_assert_str_eq(got, "old header\n");
	assert_listing(dir, "bad.events\nout.h\n");
	free(got);
	free(want);
	free(args);
	free(old);
	free(p);
}
END_TEST

/* gen on TEXT either refuses it (exit 2, "timeline gen: FILE:LINE: ...")
 * or writes a header that compiles. */
static void assert_gen_refuses_or_compiles(const char *text, unsigned line)
{
	char *p = put("clash.events", text), *args, *out, *err, *head;
	int rc;
	args = xasprintf("gen -o '%s/clash_events.h' '%s'", dir, p);
	rc = tl(args, &out, &err);
	if (rc == 0) {
		ck_assert_str_eq(err, "");
		compile_ok("clash.c", "#include \"clash_events.h\"\n", 0);
	} else {
		ck_assert_int_eq(rc, 2);
		head = xasprintf("timeline gen: %s:%u: ", p, line);
		ck_assert_msg(!strncmp(err, head, strlen(head)), "stderr: %s", err);
		free(head);
	}
	free(args);
	free(out);
	free(err);
	free(p);
}

START_TEST(test_gen_events_differing_only_in_case_do_not_break_the_header)
{
	assert_gen_refuses_or_compiles("5,5|foo: x\n5,5|FOO: y\n", 2);
}
END_TEST

START_TEST(test_gen_event_names_clashing_with_generated_names_do_not_break_the_header)
{
	assert_gen_refuses_or_compiles("5,5|ok: x\n5,5|events_register: x\n", 2);
	assert_gen_refuses_or_compiles("5,5|ok: x\n5,5|EVENTS_COUNT:\n", 2);
}
END_TEST

START_TEST(test_gen_option_errors_are_exact)
{
	char *want = xasprintf("timeline gen: unknown option '--nosuch'\n%s", gen_see);
	assert_usage_error("gen --nosuch x.events", want);
	free(want);
	want = xasprintf("timeline gen: option '-o' requires an argument\n%s", gen_see);
	assert_usage_error("gen x.events -o", want);
	free(want);
	want = xasprintf("timeline gen: unknown option '-z'\n%s", gen_see);
	assert_usage_error("gen -z x.events", want);
	free(want);
}
END_TEST

START_TEST(test_gen_long_option_with_unwanted_argument)
{
	char *want = xasprintf("timeline gen: option '--help' takes no argument\n%s", gen_see);
	assert_usage_error("gen --help=3", want);
	free(want);
}
END_TEST

START_TEST(test_gen_prefix_tl_is_reserved)
{
	char *p = put("tl.events", "1,1|append: a\n"), *args, *want;
	args = xasprintf("gen '%s'", p);
	want = xasprintf("timeline gen: %s: prefix 'tl' is reserved for the library; "
			 "choose one with --prefix\n", p);
	assert_usage_error(args, want);
	free(args);
	free(want);
	free(p);
	p = put("ok.events", "1,1|append: a\n");
	args = xasprintf("gen --prefix tl_mine '%s'", p);
	want = xasprintf("timeline gen: %s: prefix 'tl_mine' is reserved for the library; "
			 "choose one with --prefix\n", p);
	assert_usage_error(args, want);
	free(args);
	free(want);
	free(p);
}
END_TEST

START_TEST(test_gen_argument_in_capitals_is_reserved)
{
	assert_gen_fails("caps.events", "1,1|a: x NULL\n",
			 "%s:1: argument name 'NULL' is reserved in C or by timeline");
	assert_gen_fails("caps2.events", "1,1|a: _Bool\n",
			 "%s:1: argument name '_Bool' is reserved in C or by timeline");
	assert_gen_fails("unix.events", "1,1|a: unix\n",
			 "%s:1: argument name 'unix' is reserved in C or by timeline");
	assert_gen_fails("bool.events", "1,1|a: x bool\n",
			 "%s:1: argument name 'bool' is reserved in C or by timeline");
}
END_TEST

START_TEST(test_gen_output_through_a_symlink_writes_the_target)
{
	char *p = put("s.events", small_events), *target = xasprintf("%s/target.h", dir);
	char *link = xasprintf("%s/link.h", dir), *args, *out, *err, *a;
	struct stat st;
	write_file(target, "old", 3);
	ck_assert_int_eq(symlink(target, link), 0);
	args = xasprintf("gen -o '%s' '%s'", link, p);
	ck_assert_int_eq(tl(args, &out, &err), 0);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));   /* the link is still a link */
	free(args);
	free(out);
	args = xasprintf("gen '%s'", p);
	ck_assert_int_eq(tl(args, &out, NULL), 0);
	a = read_file(target, NULL);
	ck_assert_str_eq(a, out);         /* the header went to the target */
	free(a);
	free(args);
	free(out);
	free(err);
	free(link);
	free(target);
	free(p);
}
END_TEST

START_TEST(test_version_help_and_extra_arguments)
{
	char *out, *err;
	ck_assert_int_eq(tl("version --help", &out, &err), 0);
	ck_assert_str_eq(out, "usage: timeline version\n");
	free(out);
	free(err);
	ck_assert_int_eq(tl("help version", &out, &err), 0);
	ck_assert_str_eq(out, "usage: timeline version\n");
	free(out);
	free(err);
	ck_assert_int_eq(tl("version extra", &out, &err), 2);
	ck_assert_str_eq(err, "timeline version: too many arguments\nsee 'timeline version --help'\n");
	free(out);
	free(err);
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *c = tcase_create("commands"), *g = tcase_create("gen"), *b = tcase_create("build");
	tcase_add_unchecked_fixture(c, fx_base_setup, fx_base_teardown);
	tcase_add_checked_fixture(c, fx_setup, teardown);
	/* the usage errors: 1.7 s with a busy loop, 3.1 s at a load of 8, of Check's 4 */
	tcase_set_timeout(c, 30);
	tcase_add_test(c, test_help_lists_every_command_and_exits_0);
	tcase_add_test(c, test_dash_dash_help_and_dash_h_print_the_command_list);
	tcase_add_test(c, test_no_command_prints_the_list_to_stderr_and_exits_2);
	tcase_add_test(c, test_unknown_command_exits_2_with_exact_message);
	tcase_add_test(c, test_version_prints_library_and_file_format_versions);
	tcase_add_test(c, test_every_usage_error_is_its_reason_and_where_the_usage_is);
	suite_add_tcase(s, c);

	tcase_add_unchecked_fixture(g, fx_base_setup, fx_base_teardown);
	tcase_add_checked_fixture(g, fx_setup, teardown);
	tcase_set_timeout(g, 30);   /* gen --help: 1.4 s at a load of 8 */
	tcase_add_test(g, test_gen_help_prints_usage_on_stdout_and_exits_0);
	tcase_add_test(g, test_gen_without_file_prints_reason_then_where_the_usage_is_and_exits_2);
	tcase_add_test(g, test_gen_with_two_files_prints_reason_then_where_the_usage_is_and_exits_2);
	tcase_add_test(g, test_gen_bad_prefix_prints_reason_then_where_the_usage_is_and_exits_2);
	tcase_add_test(g, test_gen_unknown_option_prints_reason_then_where_the_usage_is_and_exits_2);
	tcase_add_test(g, test_gen_option_without_its_argument_is_a_usage_error);
	tcase_add_test(g, test_gen_of_missing_events_file_names_the_path);
	tcase_add_test(g, test_gen_writes_the_header_to_the_output_file_only);
	tcase_add_test(g, test_gen_seven_arguments_exits_2_with_exact_message);
	tcase_add_test(g, test_gen_parse_error_message_has_file_and_line);
	tcase_add_test(g, test_gen_argument_named_c_keyword_is_reserved);
	tcase_add_test(g, test_gen_argument_with_tl_prefix_is_reserved);
	tcase_add_test(g, test_gen_argument_named_gnu_keyword_or_reserved_identifier_is_reserved);
	tcase_add_test(g, test_gen_file_without_events_is_an_error);
	tcase_add_test(g, test_gen_output_into_missing_directory_fails_and_leaves_nothing);
	tcase_add_test(g, test_gen_output_onto_a_directory_fails_and_leaves_no_temporary);
	tcase_add_test(g, test_gen_failure_leaves_an_existing_output_untouched);
	tcase_add_test(g, test_gen_option_errors_are_exact);
	tcase_add_test(g, test_gen_argument_in_capitals_is_reserved);
	tcase_add_test(g, test_gen_long_option_with_unwanted_argument);
	tcase_add_test(g, test_gen_prefix_tl_is_reserved);
	tcase_add_test(g, test_gen_output_through_a_symlink_writes_the_target);
	tcase_add_test(g, test_version_help_and_extra_arguments);
	suite_add_tcase(s, g);

	/* these run the system compiler (and, under SANITIZE=1, link with ASan) */
	tcase_add_unchecked_fixture(b, fx_base_setup, fx_base_teardown);
	tcase_add_checked_fixture(b, fx_setup, teardown);
	tcase_set_timeout(b, 120);
	tcase_add_test(b, test_generated_header_compiles_with_strict_flags);
	tcase_add_test(b, test_gen_prefix_renames_the_generated_names);
	tcase_add_test(b, test_generated_functions_log_exactly_what_the_fixed_rate_allows);
	tcase_add_test(b, test_registration_attributes_follow_the_name_in_interned_strings);
	tcase_add_test(b, test_description_with_c_specials_round_trips_through_the_header);
	tcase_add_test(b, test_description_with_comment_opener_compiles);
	tcase_add_test(b, test_description_line_ending_in_trigraph_backslash_compiles);
	tcase_add_test(b, test_input_path_containing_comment_end_still_compiles);
	tcase_add_test(b, test_gen_events_differing_only_in_case_do_not_break_the_header);
	tcase_add_test(b, test_gen_event_names_clashing_with_generated_names_do_not_break_the_header);
	suite_add_tcase(s, b);
	return s;
}
