/* check_create.c: where logs go and how they are created: permissions,
 * refused symbolic links and unsafe directories, limits, bad options, and
 * default paths that never wipe a log of the same process. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"

static char *dir;
static tl_options small = { .entries = 16, .strings_bytes = 256, .name = "eng" };

static void setup(void) { dir = tmpdir_new(); }
static void teardown(void)
{
	unsetenv("TIMELINE_ROOT");
	rm_rf(dir);
	free(dir);
}

static unsigned mode_of(const char *p)
{
	struct stat st;
	ck_assert_int_eq(lstat(p, &st), 0);
	return st.st_mode & 07777;
}

/* tl_open(PATH) fails with CODE and exactly WANT. */
static void assert_open_fails(const char *path, const tl_options *o, int code, const char *want)
{
	tl_error err;
	ck_assert_ptr_null(tl_open(path, o, &err));
	ck_assert_int_eq(err.code, code);
	ck_assert_str_eq(err.msg, want);
}

/* Opens the default log with TIMELINE_ROOT = DIR/root and SLASHES after
 * it; checks it is DIR/root/<pid>/eng.timeline, and its modes. Its pid
 * directory's path goes to PIDDIR (4200 bytes), its path to WANT (4400). */
static void assert_default_path(const char *slashes, char *piddir, char *want)
{
	char root[4096];
	tl_error err;
	tl_log *log;
	snprintf(root, sizeof root, "%s/root%s", dir, slashes);
	setenv("TIMELINE_ROOT", root, 1);
	log = tl_open(NULL, &small, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	snprintf(piddir, 4200, "%s/root/%ld", dir, (long)getpid());
	snprintf(want, 4400, "%s/eng.timeline", piddir);
	ck_assert_str_eq(tl_path(log), want);
	ck_assert_uint_eq(mode_of(path_in(dir, "root")), 0700);
	ck_assert_uint_eq(mode_of(piddir), 0700);
	ck_assert_uint_eq(mode_of(want), 0600);
	tl_close(log);
}

START_TEST(test_default_path_is_root_pid_name_with_private_modes)
{
	char want[4400], piddir[4200];
	assert_default_path("", piddir, want);
}
END_TEST

/* A root given with trailing slashes is joined without "//": the path of
 * the log, and of the directory a message names, say it once. */
START_TEST(test_default_path_under_a_root_with_trailing_slashes_has_no_double_slash)
{
	char want[4400], piddir[4200];
	assert_default_path("//", piddir, want);
	ck_assert_int_eq(unlink(want), 0);
	ck_assert_int_eq(rmdir(piddir), 0);
	ck_assert_int_eq(symlink(dir, piddir), 0);
	snprintf(want, 4400, "%s: is a symbolic link; refusing to follow it", piddir);
	assert_open_fails(NULL, &small, TL_E_SYMLINK, want);
}
END_TEST

START_TEST(test_planted_symlink_at_log_path_is_refused)
{
	char want[4200];
	const char *target = path_in(dir, "victim"), *p = path_in(dir, "x.timeline");
	write_file(target, "keep", 4);
	ck_assert_int_eq(symlink(target, p), 0);
	snprintf(want, sizeof want, "%s: is a symbolic link; refusing to follow it", p);
	assert_open_fails(p, &small, TL_E_SYMLINK, want);
	free(read_file(target, NULL));
	ck_assert_uint_eq(mode_of(target) & 0777, 0644);   /* untouched */
}
END_TEST

START_TEST(test_symlinked_pid_directory_is_refused)
{
	char root[4096], piddir[4200], want[4300];
	snprintf(root, sizeof root, "%s/root", dir);
	snprintf(piddir, sizeof piddir, "%s/%ld", root, (long)getpid());
	ck_assert_int_eq(mkdir(root, 0700), 0);
	ck_assert_int_eq(symlink(dir, piddir), 0);
	setenv("TIMELINE_ROOT", root, 1);
	snprintf(want, sizeof want, "%s: is a symbolic link; refusing to follow it", piddir);
	assert_open_fails(NULL, &small, TL_E_SYMLINK, want);
}
END_TEST

START_TEST(test_world_writable_parent_is_refused_unless_sticky)
{
	char sub[4096], want[4200], file[4200];
	tl_error err;
	tl_log *log;
	snprintf(sub, sizeof sub, "%s/open", dir);
	snprintf(file, sizeof file, "%s/x.timeline", sub);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	ck_assert_int_eq(chmod(sub, 0777), 0);
	snprintf(want, sizeof want, "%s: directory is world-writable without the sticky bit", sub);
	assert_open_fails(file, &small, TL_E_UNSAFE, want);
	ck_assert_int_eq(access(file, F_OK), -1);
	ck_assert_int_eq(chmod(sub, 01777), 0);   /* like /tmp: O_EXCL|O_NOFOLLOW suffice */
	log = tl_open(file, &small, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	tl_close(log);
}
END_TEST

START_TEST(test_pid_directory_open_to_others_is_refused)
{
	char root[4096], piddir[4200], want[4300];
	snprintf(root, sizeof root, "%s/root", dir);
	snprintf(piddir, sizeof piddir, "%s/%ld", root, (long)getpid());
	ck_assert_int_eq(mkdir(root, 0700), 0);
	ck_assert_int_eq(mkdir(piddir, 0700), 0);
	ck_assert_int_eq(chmod(piddir, 0757), 0);
	setenv("TIMELINE_ROOT", root, 1);
	snprintf(want, sizeof want, "%s: directory is writable by others (mode 757)", piddir);
	assert_open_fails(NULL, &small, TL_E_UNSAFE, want);
}
END_TEST

START_TEST(test_old_log_at_path_is_replaced)
{
	const char *p = path_in(dir, "old.timeline");
	struct stat st;
	tl_error err;
	tl_log *log;
	write_file(p, "stale", 5);
	log = tl_open(p, &small, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	tl_close(log);
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert_int_eq(st.st_size, 4096 + 16 * 64 + 256);
	ck_assert_uint_eq(st.st_mode & 0777, 0600);
}
END_TEST

START_TEST(test_file_of_another_user_at_log_path_is_refused_and_kept)
{
	char want[4200];
	struct stat st;
	if (geteuid() == 0) {
		/* root can plant one: a file of nobody's where the log would go */
		const char *p = path_in(dir, "theirs.timeline");
		size_t len;
		char *text;
		write_file(p, "not yours", 9);
		ck_assert_int_eq(chown(p, 65534, 65534), 0);
		snprintf(want, sizeof want, "%s: exists and belongs to uid 65534", p);
		assert_open_fails(p, &small, TL_E_UNSAFE, want);
		text = read_file(p, &len);
		ck_assert_uint_eq(len, 9);
		ck_assert_int_eq(memcmp(text, "not yours", 9), 0);
		free(text);
		ck_assert_int_eq(stat(p, &st), 0);
		ck_assert_uint_eq(st.st_uid, 65534);
	} else {
		/* anyone else finds one of root's: refused before anything is touched */
		ck_assert_int_eq(stat("/etc/passwd", &st), 0);
		ck_assert_uint_eq(st.st_uid, 0);
		assert_open_fails("/etc/passwd", &small, TL_E_UNSAFE,
				  "/etc/passwd: exists and belongs to uid 0");
	}
}
END_TEST

START_TEST(test_file_size_limit_fails_without_a_signal)
{
	const char *p = path_in(dir, "big.timeline");
	pid_t pid = fork();
	int st;
	if (pid == 0) {
		struct rlimit rl = { 1 << 20, 1 << 20 };
		tl_options o = { .entries = 1 << 16 };   /* 4 MiB of entries */
		tl_error err;
		char want[4200];
		setrlimit(RLIMIT_FSIZE, &rl);
		snprintf(want, sizeof want,
			 "%s: log needs 5246976 bytes but the file size limit is 1048576", p);
		_exit(tl_open(p, &o, &err) == NULL && err.code == TL_E_FBIG &&
			      !strcmp(err.msg, want) && access(p, F_OK) != 0 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st), "child killed by signal %d", WTERMSIG(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
}
END_TEST

START_TEST(test_bad_options_are_refused)
{
	tl_options o = { .entries = 3 };
	assert_open_fails(path_in(dir, "a"), &o, TL_E_INVAL,
			  "ring size 3 is not a power of two from 2 to 2^31");
	o.entries = 1;
	assert_open_fails(path_in(dir, "a"), &o, TL_E_INVAL,
			  "ring size 1 is not a power of two from 2 to 2^31");
	o.entries = 0;
	o.strings_bytes = 100;
	assert_open_fails(path_in(dir, "a"), &o, TL_E_INVAL,
			  "string table size 100 is not a multiple of 16 up to 1048576");
	o.strings_bytes = 0;
	o.name = "../escape";
	assert_open_fails(NULL, &o, TL_E_INVAL,
			  "log name '../escape' must be 1 to 63 of [A-Za-z0-9._-], not starting with '.'");
	o.name = "a/b";
	assert_open_fails(NULL, &o, TL_E_INVAL,
			  "log name 'a/b' must be 1 to 63 of [A-Za-z0-9._-], not starting with '.'");
	o.name = NULL;
	o.clock = 99;
	assert_open_fails(path_in(dir, "a"), &o, TL_E_INVAL,
			  "clock source 99 does not exist");
	o.clock = 0;
	assert_open_fails("/nonexistent-dir/x.timeline", &o, TL_E_SYS,
			  "/nonexistent-dir: No such file or directory");
	ck_assert_int_eq(access(path_in(dir, "a"), F_OK), -1);
}
END_TEST

/* As an unprivileged user with /var/run closed, the log goes under
 * $XDG_RUNTIME_DIR; when that is unsafe or unset, under /tmp/timeline-<uid>. */
START_TEST(test_unwritable_var_run_falls_back_to_user_directories)
{
	pid_t pid;
	int st;
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(dir, 65534, 65534), 0);
		ck_assert_int_eq(chmod(dir, 0700), 0);
	}
	pid = fork();
	if (pid == 0) {
		char want[4300];
		tl_error err;
		tl_log *log;
		if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
			_exit(2);
		setenv("XDG_RUNTIME_DIR", dir, 1);
		log = tl_open(NULL, &small, &err);
		snprintf(want, sizeof want, "%s/timeline/%ld/eng.timeline", dir, (long)getpid());
		if (!log || strcmp(tl_path(log), want))
			_exit(3);
		tl_close(log);
		unlink(want);
		/* an XDG root open to others is passed over for /tmp */
		snprintf(want, sizeof want, "%s/open", dir);
		mkdir(want, 0700);
		setenv("XDG_RUNTIME_DIR", want, 1);
		strcat(want, "/timeline");
		if (mkdir(want, 0700) != 0 || chmod(want, 0777) != 0)
			_exit(5);
		log = tl_open(NULL, &small, &err);
		snprintf(want, sizeof want, "/tmp/timeline-%u/%ld/eng.timeline", (unsigned)geteuid(),
			 (long)getpid());
		if (!log || strcmp(tl_path(log), want))
			_exit(6);
		tl_close(log);
		unlink(want);
		unsetenv("XDG_RUNTIME_DIR");
		log = tl_open(NULL, &small, &err);
		snprintf(want, sizeof want, "/tmp/timeline-%u/%ld/eng.timeline", (unsigned)geteuid(),
			 (long)getpid());
		if (!log || strcmp(tl_path(log), want))
			_exit(4);
		tl_close(log);
		unlink(want);
		*strrchr(want, '/') = '\0';
		rmdir(want);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st), 0);
	if (geteuid() == 0)
		ck_assert_int_eq(chown(dir, 0, 0), 0);
}
END_TEST

/* TIMELINE_ROOT = DIR/root; returns the default path of log NAME of this
 * process's main thread. */
static const char *default_path(const char *name)
{
	static char p[4300];
	char root[4096];
	snprintf(root, sizeof root, "%s/root", dir);
	setenv("TIMELINE_ROOT", root, 1);
	snprintf(p, sizeof p, "%s/%ld/%s.timeline", root, (long)getpid(), name);
	return p;
}

/* Appends entries with arguments FIRST, FIRST + 1, ..., N of them. */
static void put(tl_log *log, uint64_t first, int n)
{
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "1,9|t.n: n", &id, NULL), TL_OK);
	for (int i = 0; i < n; i++)
		tl_append(log, id, first + (uint64_t)i, 0, 0, 0, 0, 0);
}

/* The log at PATH holds entries with arguments 0, 1, ..., N - 1. */
static void assert_holds(const char *path, size_t n)
{
	size_t got;
	uint64_t skipped;
	tl_entry *e = read_all(path, &got, &skipped);
	ck_assert_uint_eq(got, n);
	ck_assert_uint_eq(skipped, 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(e[i].args[0], i);
	free(e);
}

START_TEST(test_a_second_default_open_in_one_thread_is_refused_and_the_first_log_kept)
{
	const char *p = default_path("eng");
	char want[4600], other[4300];
	tl_options o2 = small;
	tl_error err;
	tl_log *log = tl_open(NULL, &small, &err), *again;
	ck_assert_msg(log != NULL, "%s", err.msg);
	ck_assert_str_eq(tl_path(log), p);
	put(log, 0, 3);
	again = tl_open(NULL, &small, &err);
	ck_assert_ptr_null(again);
	ck_assert_int_eq(err.code, TL_E_EXISTS);
	snprintf(want, sizeof want,
		 "%s: this process has a log there already; pass another tl_options.name, "
		 "or a path, to open a second one", p);
	ck_assert_str_eq(err.msg, want);
	ck_assert_str_eq(tl_strerror(TL_E_EXISTS), "a log of this process is there already");
	/* the first log is whole and still logs */
	put(log, 3, 1);
	assert_holds(p, 4);
	tl_close(log);
	/* refused after tl_close too: the entries are still there to keep */
	ck_assert_ptr_null(tl_open(NULL, &small, &err));
	ck_assert_int_eq(err.code, TL_E_EXISTS);
	assert_holds(p, 4);
	/* another name is another file */
	o2.name = "eng2";
	log = tl_open(NULL, &o2, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	snprintf(other, sizeof other, "%s/root/%ld/eng2.timeline", dir, (long)getpid());
	ck_assert_str_eq(tl_path(log), other);
	tl_close(log);
	/* a path given is replaced as before: the caller chose it */
	log = tl_open(p, &small, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	tl_close(log);
	assert_holds(p, 0);
}
END_TEST

/* What a second thread found opening the default log twice. */
struct thread_open {
	pid_t tid;
	char path[4300];
	int second_code;
};

static void *open_in_thread(void *arg)
{
	struct thread_open *t = arg;
	tl_error err;
	tl_log *log = tl_open(NULL, &small, &err);
	t->tid = gettid();
	snprintf(t->path, sizeof t->path, "%s", log ? tl_path(log) : err.msg);
	if (log)
		put(log, 0, 2);
	t->second_code = tl_open(NULL, &small, &err) ? TL_OK : err.code;
	tl_close(log);
	return NULL;
}

START_TEST(test_each_thread_gets_its_own_default_log)
{
	const char *p = default_path("eng");
	char want[4400];
	struct thread_open t = { 0 };
	pthread_t th;
	tl_error err;
	tl_log *log = tl_open(NULL, &small, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	put(log, 0, 5);
	ck_assert_int_eq(pthread_create(&th, NULL, open_in_thread, &t), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_ne(t.tid, getpid());
	snprintf(want, sizeof want, "%s/root/%ld/eng-%ld.timeline", dir, (long)getpid(), (long)t.tid);
	ck_assert_str_eq(t.path, want);
	ck_assert_int_eq(t.second_code, TL_E_EXISTS);
	ck_assert_str_eq(tl_path(log), p);
	tl_close(log);
	assert_holds(p, 5);
	assert_holds(want, 2);
	ck_assert_uint_eq(mode_of(want), 0600);
}
END_TEST

START_TEST(test_a_default_log_left_by_a_process_gone_is_replaced)
{
	const char *p = default_path("eng");
	char piddir[4300];
	uint64_t start;
	uint16_t minor = 0;
	pid_t pid;
	int st;
	tl_error err;
	tl_log *log;
	snprintf(piddir, sizeof piddir, "%s/root/%ld", dir, (long)getpid());
	ck_assert_int_eq(mkdir(path_in(dir, "root"), 0700), 0);
	ck_assert_int_eq(mkdir(piddir, 0700), 0);
	/* a log another process wrote where ours goes, as after a reboot */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		tl_log *l = tl_open(p, &small, NULL);
		if (!l)
			_exit(1);
		put(l, 0, 7);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_holds(p, 7);
	log = tl_open(NULL, &small, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	put(log, 0, 1);
	tl_close(log);
	assert_holds(p, 1);
	/* a log of an earlier process that had our pid: another start time */
	start = info_at(p).start_ticks - 1;
	patch_file(p, offsetof(struct tl_header, start_ticks), &start, sizeof start);
	log = tl_open(NULL, &small, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	tl_close(log);
	assert_holds(p, 0);
	/* a log of format 1.0, which this library does not write */
	patch_file(p, offsetof(struct tl_header, minor), &minor, sizeof minor);
	log = tl_open(NULL, &small, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	tl_close(log);
}
END_TEST

Suite *create_suite(void)
{
	Suite *s = suite_create("create");
	TCase *t = tcase_create("create");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_default_path_is_root_pid_name_with_private_modes);
	tcase_add_test(t, test_planted_symlink_at_log_path_is_refused);
	tcase_add_test(t, test_symlinked_pid_directory_is_refused);
	tcase_add_test(t, test_world_writable_parent_is_refused_unless_sticky);
	tcase_add_test(t, test_pid_directory_open_to_others_is_refused);
	tcase_add_test(t, test_old_log_at_path_is_replaced);
	tcase_add_test(t, test_file_of_another_user_at_log_path_is_refused_and_kept);
	tcase_add_test(t, test_file_size_limit_fails_without_a_signal);
	tcase_add_test(t, test_bad_options_are_refused);
	tcase_add_test(t, test_unwritable_var_run_falls_back_to_user_directories);
	tcase_add_test(t, test_a_second_default_open_in_one_thread_is_refused_and_the_first_log_kept);
	tcase_add_test(t, test_each_thread_gets_its_own_default_log);
	tcase_add_test(t, test_a_default_log_left_by_a_process_gone_is_replaced);
	tcase_add_test(t, test_default_path_under_a_root_with_trailing_slashes_has_no_double_slash);
	suite_add_tcase(s, t);
	return s;
}
