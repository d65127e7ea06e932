/* check_create.c: where logs go and how they are created: permissions,
 * refused symbolic links and unsafe directories, limits, bad options. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util.h"

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

START_TEST(test_default_path_is_root_pid_name_with_private_modes)
{
	char root[4096], want[4400], piddir[4200];
	tl_error err;
	tl_log *log;
	snprintf(root, sizeof root, "%s/root", dir);
	setenv("TIMELINE_ROOT", root, 1);
	log = tl_open(NULL, &small, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	snprintf(piddir, sizeof piddir, "%s/%ld", root, (long)getpid());
	snprintf(want, sizeof want, "%s/eng.timeline", piddir);
	ck_assert_str_eq(tl_path(log), want);
	ck_assert_uint_eq(mode_of(root), 0700);
	ck_assert_uint_eq(mode_of(piddir), 0700);
	ck_assert_uint_eq(mode_of(want), 0600);
	tl_close(log);
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
	suite_add_tcase(s, t);
	return s;
}
