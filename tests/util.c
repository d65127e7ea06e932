/* util.c: test helpers: temporary directories, files, running commands. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>
#include "util.h"

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	tl_check(n >= 0, "out of memory");
	return s;
}

void tl_fail_fast(void)
{
	const char *tap = getenv("CK_TAP_LOG_FILE_NAME");
	char *log, *line, *save = NULL;
	size_t len;
	if (!getenv("TL_FAIL_FAST") || !tap || !(log = read_file(tap, &len)))
		return;
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "not ok ", 7) && !strstr(line, ": Test timeout expired")) {
			char first[256];
			snprintf(first, sizeof first, "%s", line);
			free(log);
			ck_abort_msg("not run: an earlier test failed (TL_FAIL_FAST): %s", first);
		}
	free(log);
}

static char *kept[64];
static size_t nkept;

const char *test_keep(char *s)
{
	ck_assert_uint_lt(nkept, 64);
	return kept[nkept++] = s;
}

const char *test_str(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&s, fmt, ap), 0);
	va_end(ap);
	return test_keep(s);
}

void test_kept_free(void)
{
	while (nkept)
		free(kept[--nkept]);
}

char *fx_base, *fx_dir;

char *test_dir;

void test_dir_setup(void)
{
	test_dir = tmpdir_new();
}

void test_dir_teardown(void)
{
	rm_rf(test_dir);
	free(test_dir);
	test_dir = NULL;
}

void fx_base_setup(void)
{
	fx_base = tmpdir_new();
}

void fx_base_teardown(void)
{
	rm_rf(fx_base);
	free(fx_base);
	fx_base = NULL;
}

void fx_setup(void)
{
	fx_dir = xasprintf("%s/t.XXXXXX", fx_base);
	ck_assert_ptr_nonnull(mkdtemp(fx_dir));
}

char *tmpdir_new(void)
{
	const char *base = getenv("TMPDIR");
	char *p;
	if (asprintf(&p, "%s/tltest.XXXXXX", base && *base ? base : "/tmp") < 0)
		abort();
	ck_assert_ptr_nonnull(mkdtemp(p));
	return p;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(p) ? 0 : 0;
	chmod(p, 0600);
	unlink(p);
	return 0;
}

void rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *path_in(const char *dir, const char *name)
{
	static char buf[2][4096];
	static int k;
	k ^= 1;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	tl_check(f, "%s: %s", path, strerror(errno));
	/* 0644 whatever the umask (fopen's 0666 less it; CI's may be 077) */
	tl_check(fchmod(fileno(f), 0644) == 0, "%s: %s", path, strerror(errno));
	tl_check(fwrite(data, 1, len, f) == len, "%s: %s", path, strerror(errno));
	tl_check(fclose(f) == 0, "%s: %s", path, strerror(errno));
}

void patch_file(const char *path, long off, const void *p, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	tl_check(fd >= 0, "%s: %s", path, strerror(errno));
	tl_check(pwrite(fd, p, len, off) == (ssize_t)len, "%s: %s", path, strerror(errno));
	tl_check(close(fd) == 0, "%s: %s", path, strerror(errno));
}

char *bytes_word(uint64_t bytes)
{
	double v = (double)bytes;
	int k = 0;
	for (; v >= 1024; k++)
		v /= 1024;
	return k == 0 ? xasprintf("%lluB", (unsigned long long)bytes)
		      : xasprintf(v < 9.95 ? "%.1f%c" : "%.0f%c", v, "BKMGT"[k]);
}

char *disk_word(const char *path, uint64_t *disk)
{
	struct stat st;
	ck_assert_msg(lstat(path, &st) == 0, "%s: %s", path, strerror(errno));
	if (disk)
		*disk = (uint64_t)st.st_blocks * 512;
	return bytes_word((uint64_t)st.st_blocks * 512);
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;
	if (!f)
		return NULL;
	do {
		if (n + 1 >= cap)
			buf = realloc(buf, cap = cap ? cap * 2 : 4096);
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int run(const char *cmd, char **out, char **err)
{
	char ofile[] = "/tmp/tlrun.out.XXXXXX", efile[] = "/tmp/tlrun.err.XXXXXX";
	char *full;
	int ofd = mkstemp(ofile), efd = mkstemp(efile), st;
	close(ofd);
	close(efd);
	if (asprintf(&full, "(%s) >%s 2>%s </dev/null", cmd, ofile, efile) < 0)
		abort();
	st = system(full);
	free(full);
	if (out)
		*out = read_file(ofile, NULL);
	if (err)
		*err = read_file(efile, NULL);
	unlink(ofile);
	unlink(efile);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

size_t unzstd(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
	ZSTD_DStream *z = ZSTD_createDStream();
	size_t total = 0, rc = 1, n;
	static char ibuf[1 << 16], obuf[1 << 17];
	ck_assert_msg(in && out && z, "%s: cannot open", src);
	ZSTD_initDStream(z);
	while ((n = fread(ibuf, 1, sizeof ibuf, in)) > 0) {
		ZSTD_inBuffer ib = { ibuf, n, 0 };
		while (ib.pos < ib.size) {
			ZSTD_outBuffer ob = { obuf, sizeof obuf, 0 };
			rc = ZSTD_decompressStream(z, &ob, &ib);
			ck_assert_msg(!ZSTD_isError(rc), "%s: %s", src, ZSTD_getErrorName(rc));
			ck_assert_uint_eq(fwrite(obuf, 1, ob.pos, out), ob.pos);
			total += ob.pos;
		}
	}
	ck_assert_uint_eq(rc, 0);   /* the frame ended */
	ZSTD_freeDStream(z);
	fclose(in);
	ck_assert_int_eq(fclose(out), 0);
	return total;
}

pid_t spawn(const char *cmd)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int reap(pid_t pid)
{
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

const char *timeline_bin(void)
{
	const char *b = getenv("TIMELINE_BIN");
	return b && *b ? b : "./timeline";
}

void assert_rseq_refused(const tl_error *err, int clock)
{
	char *want = xasprintf("clock source %d needs a TSC and an rseq area with the node "
			       "(glibc 2.35 and Linux 6.3 or later)", clock);
	ck_assert_int_eq(err->code, TL_E_INVAL);
	ck_assert_str_eq(err->msg, want);
	free(want);
}

tl_log *open_manual(const char *path, uint64_t entries)
{
	return open_manual_hz(path, entries, 1000000000);
}

tl_log *open_manual_hz(const char *path, uint64_t entries, uint64_t hz)
{
	tl_options o = { .entries = entries, .clock = TL_CLOCK_MANUAL, .tsc_hz = hz,
			 .strings_bytes = 4096, .name = "test" };
	tl_error err;
	tl_log *log = tl_open(path, &o, &err);
	ck_assert_msg(log != NULL, "tl_open: %s", err.msg);
	return log;
}

void lags_log(const char *path, uint64_t entries, const uint64_t *lags, size_t n)
{
	tl_log *log = open_manual(path, entries);
	uint64_t t = 1000;
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "1,9|e.tick: n", &id, NULL), TL_OK);
	for (size_t i = 0; i <= n; i++) {
		if (i)
			t += lags[i - 1];
		tl_set_manual_clock(log, t, 0);
		tl_append(log, id, (uint64_t)i, 0, 0, 0, 0, 0);
	}
	close_run(log);
}

void app_pairs_log(const char *path, const char *app, size_t n, const uint64_t *packets,
	       const uint64_t *cycles)
{
	static const char *const defs[] = { "5,5|app.push: inpackets", "5,5|app.pushed: inpackets" };
	tl_log *log = open_manual(path, 256);
	char *tags = xasprintf("app=%s", app);
	uint64_t t = 1000, total = 0;
	uint16_t id[2];
	ck_assert_uint_le(n, 127);
	ck_assert_int_eq(tl_register(log, defs, 2, tags, id, NULL), TL_OK);
	for (size_t i = 0; i < n; i++) {
		tl_set_manual_clock(log, t, 0);
		tl_append(log, id[0], total, 0, 0, 0, 0, 0);
		total += packets[i];
		tl_set_manual_clock(log, t += cycles[i], 0);
		tl_append(log, id[1], total, 0, 0, 0, 0, 0);
		t += 1000;
	}
	close_run(log);
	free(tags);
}

tl_info info_at(const char *path)
{
	tl_error err;
	tl_info i;
	tl_reader *r = tl_reader_open(path, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	tl_reader_info(r, &i);
	tl_reader_close(r);
	return i;
}

tl_entry *read_all(const char *path, size_t *n, uint64_t *skipped)
{
	tl_error err;
	tl_reader *r = tl_reader_open(path, &err);
	tl_entry *v;
	size_t cap, k = 0;
	ck_assert_msg(r != NULL, "tl_reader_open: %s", err.msg);
	cap = (size_t)tl_reader_rewind(r) + 2;
	v = malloc(cap * sizeof *v);
	while (k < cap && tl_reader_next(r, &v[k]))
		k++;
	if (skipped)
		*skipped = tl_reader_skipped(r);
	tl_reader_close(r);
	*n = k;
	return v;
}

void close_run(tl_log *log)
{
	static uint64_t next = 4000000000ull;   /* ticks no process of this boot started at */
	char *path = strdup(tl_path(log));
	uint64_t start = next++;
	tl_check(path != NULL, "out of memory");
	tl_close(log);
	patch_file(path, 168, &start, sizeof start);   /* start_ticks (timeline-format(5)) */
	free(path);
}

void spec_log(const char *path, uint64_t entries, const char *spec)
{
	tl_log *log = open_manual(path, entries);
	uint16_t id[64];
	size_t n = 0;
	for (const char *p = spec; *p;) {
		size_t len = strcspn(p, "\n");
		char *line = xasprintf("%.*s", (int)len, p);
		if (line[0] == 's') {
			ck_assert_uint_lt(n, 64);
			ck_assert_msg(tl_intern(log, line + 2, &id[n++], NULL) == TL_OK, "%s", line);
		} else if (line[0] == 'e') {
			unsigned long long t, aux, a[6] = { 0 };
			unsigned i;
			ck_assert_int_ge(sscanf(line + 2, "%llu %llu %u %llu %llu %llu %llu %llu %llu", &t,
						&aux, &i, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]), 3);
			ck_assert_uint_lt(i, n);
			tl_set_manual_clock(log, t, (uint16_t)aux);
			tl_append(log, id[i], a[0], a[1], a[2], a[3], a[4], a[5]);
		}
		free(line);
		p += len + (p[len] == '\n');
	}
	close_run(log);
}
