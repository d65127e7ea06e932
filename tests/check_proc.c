/* check_proc.c: a log records when its writer started (format 1.1), and
 * tl_pid_alive() tells the writer from a process that got its pid later,
 * from a zombie, and from no process; logs of format 1.0 say nothing of it. */
#define _GNU_SOURCE
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"

/* Field 22 of /proc/PID/stat, read here on its own: the fields after the
 * command name, which ends at the last ')'. */
static unsigned long long start_of(pid_t pid)
{
	char path[64], *text, *p;
	unsigned long long v = 0;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	text = read_file(path, NULL);
	ck_assert_ptr_nonnull(text);
	p = strrchr(text, ')');
	ck_assert_ptr_nonnull(p);
	/* state (3), fields 4 to 21, then starttime (22) */
	ck_assert_int_eq(sscanf(p + 1, " %*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
				       "%*s %*s %*s %*s %llu", &v), 1);
	free(text);
	return v;
}

START_TEST(test_a_log_records_its_writers_start_time_and_format_1_2)
{
	const char *p = path_in(test_dir, "a.timeline");
	tl_info i;
	tl_close(open_manual(p, 16));
	i = info_at(p);
	ck_assert_uint_eq(i.major, 1);
	ck_assert_uint_eq(i.minor, 5);
	ck_assert_uint_eq(i.pid, (unsigned)getpid());
	ck_assert_uint_ne(start_of(getpid()), 0);
	ck_assert_uint_eq(i.start_ticks, start_of(getpid()));
	ck_assert_uint_eq(i.copy_of, 0);
	ck_assert_int_eq(tl_pid_alive(i.pid, i.start_ticks), TL_RUNNING);
}
END_TEST

START_TEST(test_pid_alive_tells_the_writer_from_a_later_process_with_its_pid)
{
	unsigned long long me = start_of(getpid());
	ck_assert_int_eq(tl_pid_alive((uint32_t)getpid(), me), TL_RUNNING);
	/* the same pid, started at another time: a process that got it later */
	ck_assert_int_eq(tl_pid_alive((uint32_t)getpid(), me - 1), TL_GONE);
	ck_assert_int_eq(tl_pid_alive((uint32_t)getpid(), me + 1), TL_GONE);
	/* no start time (format 1.0, Snabb): the pid alone, said so */
	ck_assert_int_eq(tl_pid_alive((uint32_t)getpid(), 0), TL_PID_RUNNING);
	ck_assert_int_eq(tl_pid_alive(0, 0), TL_GONE);
	ck_assert_int_eq(tl_pid_alive(0x7fffffffu, 0), TL_GONE);   /* above pid_max */
	ck_assert_int_eq(tl_pid_alive(0xffffffffu, me), TL_GONE);  /* no pid_t */
}
END_TEST

/* A child that waits on a pipe, alive; then exited, a zombie; then reaped. */
START_TEST(test_pid_alive_sees_a_child_run_exit_and_go)
{
	siginfo_t si = { 0 };
	int fds[2];
	char c;
	pid_t pid;
	unsigned long long start;
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[1]);
		_exit(read(fds[0], &c, 1) == 0 ? 0 : 1);   /* until the parent closes */
	}
	close(fds[0]);
	start = start_of(pid);
	ck_assert_int_eq(tl_pid_alive((uint32_t)pid, start), TL_RUNNING);
	ck_assert_int_eq(tl_pid_alive((uint32_t)pid, 0), TL_PID_RUNNING);
	close(fds[1]);
	/* exited but not reaped (WNOWAIT): still a pid, but it writes nothing more */
	ck_assert_int_eq(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0);
	ck_assert_int_eq(si.si_pid, pid);
	ck_assert_int_eq(kill(pid, 0), 0);   /* a zombie answers kill(2) */
	ck_assert_int_eq(tl_pid_alive((uint32_t)pid, start), TL_GONE);
	ck_assert_int_eq(tl_pid_alive((uint32_t)pid, 0), TL_GONE);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	ck_assert_int_eq(tl_pid_alive((uint32_t)pid, start), TL_GONE);
}
END_TEST

/* Format 1.0 had the bytes at 168 and 176 reserved: a reader of such a log
 * takes neither start time nor copy size from them, whatever they hold. */
START_TEST(test_a_format_1_0_log_has_no_start_time_and_is_no_copy)
{
	const char *p = path_in(test_dir, "old.timeline");
	uint16_t minor = 0;
	uint64_t junk = 0x1234;
	tl_info i;
	tl_close(open_manual(p, 16));
	patch_file(p, offsetof(struct tl_header, minor), &minor, sizeof minor);
	patch_file(p, offsetof(struct tl_header, copy_of), &junk, sizeof junk);
	i = info_at(p);
	ck_assert_uint_eq(i.minor, 0);
	ck_assert_uint_eq(i.pid, (unsigned)getpid());
	ck_assert_uint_eq(i.start_ticks, 0);
	ck_assert_uint_eq(i.copy_of, 0);
	ck_assert_int_eq(tl_pid_alive(i.pid, i.start_ticks), TL_PID_RUNNING);
}
END_TEST

Suite *proc_suite(void)
{
	Suite *s = suite_create("proc");
	TCase *t = tcase_create("proc");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_add_test(t, test_a_log_records_its_writers_start_time_and_format_1_2);
	tcase_add_test(t, test_pid_alive_tells_the_writer_from_a_later_process_with_its_pid);
	tcase_add_test(t, test_pid_alive_sees_a_child_run_exit_and_go);
	tcase_add_test(t, test_a_format_1_0_log_has_no_start_time_and_is_no_copy);
	suite_add_tcase(s, t);
	return s;
}
