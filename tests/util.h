/* util.h: helpers shared by the Check suites: temporary directories, running
 * the built timeline program, reading a whole log back. */
#ifndef TL_TEST_UTIL_H
#define TL_TEST_UTIL_H
#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "timeline.h"

/* ck_assert_msg() that costs nothing while COND holds, for loops over
 * millions of entries: Check's own assertions send their place to the
 * runner on every pass (a write(2) each, 4 us and more on a loaded machine),
 * which made tests of whole rings take tens of seconds. COND is evaluated
 * once; a failure says the message alone. */
#define tl_check(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

/* Every test begins with tl_fail_fast(): with TL_FAIL_FAST in the
 * environment (tests/mutate.sh sets it), a test that starts after another
 * of the run failed, not by a timeout, fails at once ("not run"), so that a
 * run whose answer is known costs no more time. What ran before is read
 * from Check's TAP log (CK_TAP_LOG_FILE_NAME). START_TEST is Check's, with
 * the call before the test's body. */
void tl_fail_fast(void);
#undef START_TEST
#define START_TEST(__testname)                                                              \
	static void __testname##_body(int _i CK_ATTRIBUTE_UNUSED);                          \
	static void __testname##_fn(int _i)                                                 \
	{                                                                                   \
		tl_fail_fast();                                                             \
		__testname##_body(_i);                                                      \
	}                                                                                   \
	static const TTest __testname##_ttest = { "" #__testname, __testname##_fn, __FILE__, \
						  __LINE__ };                               \
	static const TTest *__testname = &__testname##_ttest;                               \
	static void __testname##_body(int _i CK_ATTRIBUTE_UNUSED)

/* printf into a new string; fails the test if out of memory. Caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* S, a malloc'd string, kept until test_kept_free() (at most 64 a test);
 * returns S. test_str() formats one and keeps it. */
const char *test_keep(char *s);
const char *test_str(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void test_kept_free(void);

/* The fixture of the CLI suites: FX_BASE, a directory per test case made by
 * fx_base_setup() (unchecked: removed even after a failed test), and FX_DIR,
 * a fresh directory inside it per test made by fx_setup(). */
extern char *fx_base, *fx_dir;
void fx_base_setup(void);
void fx_base_teardown(void);
void fx_setup(void);

/* A fresh temporary directory per test: TEST_DIR, made by test_dir_setup()
 * and removed by test_dir_teardown(), as a Check checked fixture. */
extern char *test_dir;
void test_dir_setup(void);
void test_dir_teardown(void);

/* A fresh 0700 directory under $TMPDIR or /tmp; removed by rm_rf(). */
char *tmpdir_new(void);
void rm_rf(const char *path);

/* PATH = DIR/NAME in a static buffer (two alternate buffers). */
const char *path_in(const char *dir, const char *name);

/* Writes LEN bytes of DATA to PATH (mode 0644). */
void write_file(const char *path, const void *data, size_t len);

/* Overwrites LEN bytes of PATH at offset OFF with P (a header field). */
void patch_file(const char *path, long off, const void *p, size_t len);

/* BYTES as `timeline ls` and `gc` show sizes: in powers of 1024 (B, K, M,
 * G, T), with one decimal below 10 of the unit. Caller frees. */
char *bytes_word(uint64_t bytes);

/* The bytes PATH takes on disk (st_blocks * 512), as bytes_word() shows
 * them; with DISK not NULL, *DISK gets the number. Caller frees. */
char *disk_word(const char *path, uint64_t *disk);

/* Reads PATH whole; *LEN gets its size. Caller frees. */
char *read_file(const char *path, size_t *len);

/* Runs the shell command CMD; stdout and stderr go to OUT and ERR (malloc'd,
 * NUL-terminated; either may be NULL). Returns the exit status, or -1. */
int run(const char *cmd, char **out, char **err);

/* Starts the shell command CMD in the background, killed if the test
 * process dies; returns its pid. */
pid_t spawn(const char *cmd);

/* Waits for PID; returns its exit status (-1: ended by a signal). */
int reap(pid_t pid);

/* The built timeline program ($TIMELINE_BIN, else ./timeline). */
const char *timeline_bin(void);

/* Checks that ERR is tl_open()'s refusal of the rseq source CLOCK (7 or
 * 8) on a host without an rseq area with the node. */
void assert_rseq_refused(const tl_error *err, int clock);

/* Opens a log at PATH with ENTRIES entries and the manual clock (tsc_hz 1 GHz). */
tl_log *open_manual(const char *path, uint64_t entries);
/* The same at HZ ticks a second. */
tl_log *open_manual_hz(const char *path, uint64_t entries, uint64_t hz);

/* Closes LOG as the log of a process of its own: its header's start time
 * (start_ticks) made one no other log of the test has, so that `diff`,
 * whose runs are processes, takes it as a run apart from the test's other
 * logs, as a log of each run of a program is. */
void close_run(tl_log *log);

/* Writes a log at PATH of the manual clock at 1 GHz, ENTRIES slots: e.tick
 * at tsc 1000, then after each of the N lags LAGS in turn (N + 1 entries),
 * so that its lag row holds exactly those values (the last ENTRIES - 1 of
 * them when the ring laps); as a process of its own (close_run()). */
void lags_log(const char *path, uint64_t entries, const uint64_t *lags, size_t n);

/* Writes a log at PATH of the manual clock at 1 GHz: N pairs
 * app.push/app.pushed of app APP, pair i of PACKETS[i] packets (inpackets,
 * a running total) taking CYCLES[i] cycles, 1000 cycles after the last;
 * as a process of its own (close_run()). */
void app_pairs_log(const char *path, const char *app, size_t n, const uint64_t *packets,
	       const uint64_t *cycles);

/* What the header of the log at PATH says (tl_reader_info()). */
tl_info info_at(const char *path);

/* Reads every entry of PATH's snapshot into a malloc'd array; *N gets the count. */
tl_entry *read_all(const char *path, size_t *n, uint64_t *skipped);

/* The suites, one per tests/check_<module>.c. */
Suite *format_suite(void);
Suite *append_suite(void);
Suite *clock_suite(void);
Suite *sample_suite(void);
Suite *create_suite(void);
Suite *crash_suite(void);
Suite *events_suite(void);
Suite *cli_suite(void);
Suite *snabb_suite(void);
Suite *read_suite(void);
Suite *open_suite(void);
Suite *live_suite(void);
Suite *engine_suite(void);
Suite *stats_suite(void);
Suite *runs_suite(void);
Suite *trust_suite(void);
Suite *export_suite(void);
Suite *hostile_suite(void);
Suite *proc_suite(void);
Suite *gc_suite(void);
Suite *report_suite(void);
Suite *follow_suite(void);
Suite *top_suite(void);
Suite *summary_suite(void);
Suite *metrics_suite(void);
Suite *install_suite(void);
Suite *pairs_suite(void);
Suite *batch_suite(void);
Suite *python_suite(void);
Suite *switch_suite(void);
Suite *spans_suite(void);
Suite *perfetto_suite(void);
Suite *words_suite(void);
Suite *otlp_suite(void);
Suite *threads_suite(void);
Suite *dpdk_suite(void);   /* run only with TIMELINE_FWD, the forwarder built */
Suite *arm_suite(void);

/* The child process of the clock suite (tests/check_clock.c), run as this
 * binary with TL_TEST_CLOCK_CHILD=DIR in its environment. */
int clock_child(const char *dir);

/* Decompresses the zstd file SRC into DST with libzstd; returns the size. */
size_t unzstd(const char *src, const char *dst);

/* Writes a log at PATH of the manual clock at 1 GHz, ENTRIES slots, from
 * SPEC's lines: "s TEXT" interns TEXT (a definition or a pair line; the
 * ids numbered from 0 in order), "e TSC AUX I A0 .. A5" appends an entry
 * of the I-th id at TSC on cpu/node word AUX (numa << 12 | cpu); as a
 * process of its own (close_run()). For hand-built logs of a few pairs. */
void spec_log(const char *path, uint64_t entries, const char *spec);
#endif
