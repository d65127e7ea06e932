/* input.c: the reading commands' inputs: walking directories, recognizing
 * native, Snabb and zstd-compressed logs by content, naming events. */
#define _GNU_SOURCE
#include <csv.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>
#include "commands.h"
#include "input.h"

#define ZSTD_MAGIC 0xfd2fb528u
#define NATIVE_MAGIC0 0x89u
#define MAX_DECOMPRESSED (4ull << 30)   /* a compressed input may not exceed 4 GiB (2^26 entries) */

/* ------------------------------------------------------------------------
 * Walking
 * ------------------------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int input_quiet;

/* Walks directory DIR: files and subdirectories in name order. */
static int walk_dir(const char *cmd, const char *dir, int (*fn)(const char *, int, void *),
		    void *arg, int depth)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int problems = 0, stop = 0;

	if (depth > 64) {
		cli_error(cmd, "%s: directories nested too deep", dir);
		return 1;
	}
	if (!(d = opendir(dir))) {
		cli_error(cmd, "%s: %s", dir, strerror(errno));
		return 1;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap && !(names = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names)))
			abort();
		if (asprintf(&names[n++], "%.*s/%s", (int)(strlen(dir) - (dir[1] && dir[strlen(dir) - 1] == '/')),
			     dir, de->d_name) < 0)
			abort();
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (!stop && lstat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			problems += walk_dir(cmd, names[i], fn, arg, depth + 1);
		} else if (!stop && (lstat(names[i], &st) != 0 || !S_ISLNK(st.st_mode) ||
				     stat(names[i], &st) != 0 || !S_ISDIR(st.st_mode))) {
			/* files, and links to files; a broken or looping link reports itself */
			if (fn(names[i], 0, arg) < 0)
				stop = 1;
		} else if (!stop && !input_quiet) {
			/* not followed: that is how a link back up cannot loop */
			fprintf(CLI_ERR, "timeline %s: note: skipping %s: a link to a directory\n", cmd,
				names[i]);
		}
		free(names[i]);
	}
	free(names);
	return problems;
}

int input_walk(const char *cmd, char **paths, int npaths,
	       int (*fn)(const char *path, int named, void *arg), void *arg)
{
	int problems = 0;
	for (int i = 0; i < npaths; i++) {
		struct stat st;
		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
			problems += walk_dir(cmd, paths[i], fn, arg, 0);
		else if (fn(paths[i], 1, arg) < 0)
			break;
	}
	return problems;
}

/* ------------------------------------------------------------------------
 * Opening
 * ------------------------------------------------------------------------ */

/* The size a decompressed log's first bytes HEAD (LEN of them) announce, or 0
 * when they are not a timeline header. */
static uint64_t announced_size(const unsigned char *head, size_t len)
{
	uint64_t magic, v;
	uint32_t log, str;
	if (len < 64)
		return 0;
	memcpy(&magic, head, 8);
	if (magic == 0xa3ff7223441d0001ull) {
		memcpy(&log, head + 12, 4);
		memcpy(&str, head + 16, 4);
		return 64 + (uint64_t)log + str;
	}
	if (head[0] == NATIVE_MAGIC0 && !memcmp(head + 1, "TLN\r\n\032\n", 7)) {
		memcpy(&v, head + 56, 8);
		return v;
	}
	return 0;
}

#define IBUF (1 << 17)
#define OBUF (1 << 18)

/* Decompresses the zstd file FD into an unlinked temporary file, through the
 * buffers IBUF and OBUF; returns its fd, or -2 when the content is not a
 * timeline log, or -1, with the problem in WHY. Stops at the size the log's
 * own header announces, so a bomb costs no more than a real log. */
static int unzstd_in(int fd, char *why, size_t wsz, unsigned char *ibuf, unsigned char *obuf)
{
	const char *tmp = getenv("TMPDIR");
	ZSTD_DStream *z = ZSTD_createDStream();
	unsigned char head[64];
	uint64_t total = 0, limit = MAX_DECOMPRESSED;
	size_t n, rc = 1, hlen = 0;
	int out = open(tmp && *tmp ? tmp : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (out < 0 || !z) {
		snprintf(why, wsz, "cannot make a temporary file: %s", strerror(errno));
		goto fail;
	}
	ZSTD_initDStream(z);
	for (;;) {
		ssize_t got = read(fd, ibuf, IBUF);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(why, wsz, "read error: %s", strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		n = (size_t)got;
		ZSTD_inBuffer ib = { ibuf, n, 0 };
		while (ib.pos < ib.size) {
			ZSTD_outBuffer ob = { obuf, OBUF, 0 };
			rc = ZSTD_decompressStream(z, &ob, &ib);
			if (ZSTD_isError(rc)) {
				snprintf(why, wsz, "damaged zstd data: %s", ZSTD_getErrorName(rc));
				goto fail;
			}
			if (hlen < 64) {
				size_t k = ob.pos < 64 - hlen ? ob.pos : 64 - hlen;
				memcpy(head + hlen, obuf, k);
				hlen += k;
				if (hlen == 64 && !(limit = announced_size(head, 64))) {
					snprintf(why, wsz, "compressed, but not a timeline log");
					ZSTD_freeDStream(z);
					close(out);
					return -2;
				}
			}
			if (limit > MAX_DECOMPRESSED) {
				snprintf(why, wsz, "its header announces %llu bytes, over the %llu a compressed "
					 "input may hold", (unsigned long long)limit,
					 (unsigned long long)MAX_DECOMPRESSED);
				goto fail;
			}
			if (total + ob.pos > limit) {
				snprintf(why, wsz, "decompresses to more than the %llu bytes its header gives",
					 (unsigned long long)limit);
				goto fail;
			}
			if (write(out, obuf, ob.pos) != (ssize_t)ob.pos) {
				snprintf(why, wsz, "cannot decompress: %s", strerror(errno));
				goto fail;
			}
			total += ob.pos;
		}
	}
	if (rc != 0) {
		snprintf(why, wsz, "truncated zstd data");
		goto fail;
	}
	if (hlen < 64) {
		snprintf(why, wsz, "compressed, but not a timeline log");
		ZSTD_freeDStream(z);
		close(out);
		return -2;
	}
	ZSTD_freeDStream(z);
	return out;
fail:
	ZSTD_freeDStream(z);
	if (out >= 0)
		close(out);
	return -1;
}

/* unzstd_in() with buffers of its own: stats and diff read on several threads. */
static int unzstd(int fd, char *why, size_t wsz)
{
	unsigned char *ibuf = malloc(IBUF), *obuf = malloc(OBUF);
	int rc;
	if (!ibuf || !obuf) {
		free(ibuf);
		free(obuf);
		snprintf(why, wsz, "out of memory");
		return -1;
	}
	rc = unzstd_in(fd, why, wsz, ibuf, obuf);
	free(ibuf);
	free(obuf);
	return rc;
}

/* What the first bytes of FD say the file is: 'n' native, 's' Snabb,
 * 'z' zstd, 0 anything else (including short files). */
static int sniff(int fd)
{
	unsigned char b[8];
	uint64_t m;
	uint32_t z;
	ssize_t got = pread(fd, b, 8, 0);
	if (got < 4)
		return 0;
	memcpy(&z, b, 4);
	if (got < 8)
		return z == ZSTD_MAGIC ? 'z' : 0;   /* a zstd frame cut short is still zstd */
	memcpy(&m, b, 8);
	if (m == 0xa3ff7223441d0001ull)
		return 's';
	if (b[0] == NATIVE_MAGIC0 && !memcmp(b + 1, "TLN\r\n\032\n", 7))
		return 'n';
	return z == ZSTD_MAGIC ? 'z' : 0;
}

/* One note for every file a directory walk passes over. */
static void skip_note(const char *cmd, const char *path)
{
	if (!input_quiet)
		fprintf(CLI_ERR, "timeline %s: note: skipping %s: not a timeline log\n", cmd, path);
}

/* S as one CSV field (quoted by libcsv when needed) in a malloc'd *OUT;
 * returns its length. */
static size_t csv_field(char **out, const char *s)
{
	size_t n = strlen(s);
	if (!(*out = malloc(2 * n + 3)))
		abort();
	n = csv_write(*out, 2 * n + 2, s, n);
	(*out)[n] = '\0';
	return n;
}

struct input *input_open(const char *cmd, const char *path, int named, int *skipped)
{
	struct input *in;
	struct stat st;
	tl_error err;
	char why[256];
	int fd, kind, rfd;

	*skipped = 0;
	if (!named && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		skip_note(cmd, path);   /* sockets, FIFOs, devices found in a directory */
		*skipped = 1;
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		cli_error(cmd, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		if (!named) {
			*skipped = 1;
			return NULL;
		}
		cli_error(cmd, "%s: not a regular file", path);
		return NULL;
	}
	kind = sniff(fd);
	if (!kind && !named) {
		skip_note(cmd, path);
		close(fd);
		*skipped = 1;
		return NULL;
	}
	rfd = fd;
	if (kind == 'z' && (rfd = unzstd(fd, why, sizeof why)) < 0) {
		close(fd);
		if (rfd == -2 && !named) {
			skip_note(cmd, path);
			*skipped = 1;
			return NULL;
		}
		cli_error(cmd, "%s: %s", path, why);
		return NULL;
	}
	in = calloc(1, sizeof *in);
	if (!in)
		abort();
	if (!(in->path = strdup(path)))
		abort();
	in->compressed = kind == 'z';
	in->r = tl_reader_open_fd(rfd, path, &err);
	if (rfd != fd)
		close(rfd);
	close(fd);
	if (!in->r) {
		cli_error(cmd, "%s", err.msg);
		free((char *)in->path);
		free(in);
		return NULL;
	}
	tl_reader_info(in->r, &in->info);
	if (in->info.format == TL_FORMAT_NATIVE)
		snprintf(in->label, sizeof in->label, "%s[%u]", in->info.process, in->info.pid);
	else
		snprintf(in->label, sizeof in->label, "%s", path);
	in->label_len = strlen(in->label);
	in->csv_path_len = csv_field(&in->csv_path, path);
	return in;
}

int input_report_damage(const char *cmd, const struct input *in)
{
	int problems = 0;
	if (in->info.disorder) {
		cli_error(cmd, "%s: Snabb ring out of time order (%llu break%s beyond the wrap), "
			  "read in ring order", in->path, (unsigned long long)in->info.disorder,
			  in->info.disorder == 1 ? "" : "s");
		problems++;
	}
	if (in->unknown) {
		cli_error(cmd, "%s: %llu entries with a message id outside the string table",
			  in->path, (unsigned long long)in->unknown);
		problems++;
	}
	return problems;
}

void input_close(struct input *in)
{
	if (!in)
		return;
	tl_reader_close(in->r);
	free((char *)in->path);
	free(in->csv_path);
	for (uint32_t k = 0; k < in->nevents; k++)
		free(in->events[k]);
	free(in->events);
	free(in->ids);
	free(in->slots);
	free(in);
}

/* ------------------------------------------------------------------------
 * Event definitions
 * ------------------------------------------------------------------------ */

static void copy_n(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Appends ',' and S as a CSV field to BUF (of SIZE, room checked by the
 * caller's sizes) at *LEN. */
static void csv_append(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);
	buf[(*len)++] = ',';
	*len += csv_write(buf + *len, size - *len, s, n);
}

/* Fills E's constant CSV fields from its name, attributes and arguments. */
static void csv_fields(struct event *e)
{
	char names[TL_MAX_ARGS * 64 + 8] = "";
	for (unsigned i = 0; i < e->nargs; i++) {
		if (i)
			strcat(names, " ");
		strcat(names, e->args[i]);
	}
	e->csv_head_len = e->csv_tail_len = 0;
	csv_append(e->csv_head, sizeof e->csv_head, &e->csv_head_len, e->name);
	csv_append(e->csv_head, sizeof e->csv_head, &e->csv_head_len, e->attrs);
	csv_append(e->csv_tail, sizeof e->csv_tail, &e->csv_tail_len, names);
	e->csv_tail[e->csv_tail_len++] = '\n';
}

/* Parses the definition of MSGID into E. */
static void parse_event(struct input *in, uint16_t msgid, struct event *e)
{
	const char *s = tl_reader_string(in->r, msgid);
	tl_def d;
	memset(e, 0, sizeof *e);
	if (!s || tl_def_parse(s, strlen(s), &d, NULL) != TL_OK) {
		snprintf(e->name, sizeof e->name, "?msgid=%u", msgid);
		e->name_len = strlen(e->name);
		e->nargs = TL_MAX_ARGS;   /* unnamed: show them all as arg0..arg5 */
		for (unsigned i = 0; i < TL_MAX_ARGS; i++) {
			snprintf(e->args[i], sizeof e->args[i], "arg%u", i);
			e->args_len[i] = 4;
		}
		csv_fields(e);
		return;
	}
	copy_n(e->name, sizeof e->name, d.name, d.name_len);
	if (d.attrs)
		copy_n(e->attrs, sizeof e->attrs, d.attrs, d.attrs_len);
	e->level = d.level;
	e->rate = d.rate;
	e->nargs = d.nargs;
	for (unsigned i = 0; i < d.nargs; i++) {
		copy_n(e->args[i], sizeof e->args[i], d.args[i], d.args_len[i]);
		e->args_len[i] = strlen(e->args[i]);
	}
	e->name_len = strlen(e->name);
	csv_fields(e);
}

static uint32_t hash16(uint16_t id, uint32_t mask)
{
	return ((uint32_t)id * 2654435761u >> 8) & mask;
}

/* Inserts definition number K (message id ID) into the hash. */
static void put_slot(struct input *in, uint16_t id, uint32_t k)
{
	uint32_t mask = in->nslots - 1, h = hash16(id, mask);
	while (in->slots[h])
		h = (h + 1) & mask;
	in->slots[h] = k + 1;
}

/* Rebuilds the hash with twice the slots, and room for as many events
 * (pointers: a definition never moves once parsed, so export's queue, for
 * one, may hold it while more are added). */
static void grow(struct input *in)
{
	uint32_t n = in->nslots ? in->nslots * 2 : 64;
	free(in->slots);
	if (!(in->slots = calloc(n, sizeof *in->slots)) ||
	    !(in->events = realloc(in->events, n / 2 * sizeof *in->events)) ||
	    !(in->ids = realloc(in->ids, n / 2 * sizeof *in->ids)))
		abort();
	in->nslots = n;
	for (uint32_t k = 0; k < in->nevents; k++)
		put_slot(in, in->ids[k], k);
}

const struct event *input_event(struct input *in, uint16_t msgid)
{
	uint32_t mask, h, k;
	if (!in->slots)
		grow(in);
	mask = in->nslots - 1;
	for (h = hash16(msgid, mask); in->slots[h]; h = (h + 1) & mask)
		if (in->ids[in->slots[h] - 1] == msgid)
			return in->events[in->slots[h] - 1];
	if (2 * (in->nevents + 1) >= in->nslots)
		grow(in);
	if (!(in->events[in->nevents] = malloc(sizeof **in->events)))
		abort();
	k = in->nevents++;
	in->ids[k] = msgid;
	parse_event(in, msgid, in->events[k]);
	put_slot(in, msgid, k);
	return in->events[k];
}

/* ------------------------------------------------------------------------
 * Time and lists
 * ------------------------------------------------------------------------ */

uint64_t ticks_to_ns(uint64_t delta, uint64_t hz)
{
	if (!hz)
		return 0;
	return (uint64_t)((unsigned __int128)delta * 1000000000u / hz);
}

int64_t input_wall_ns(const struct input *in, uint64_t tsc)
{
	const tl_info *i = &in->info;
	if (tsc >= i->anchor_tsc)
		return (int64_t)(i->anchor_realtime_ns + ticks_to_ns(tsc - i->anchor_tsc, i->tsc_hz));
	return (int64_t)i->anchor_realtime_ns - (int64_t)ticks_to_ns(i->anchor_tsc - tsc, i->tsc_hz);
}

void format_wall(char *buf, size_t size, int64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000);
	long frac = (long)(ns % 1000000000);
	struct tm tm;
	char base[32];
	if (frac < 0) {
		frac += 1000000000;
		sec--;
	}
	gmtime_r(&sec, &tm);
	strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, size, "%s.%09ldZ", base, frac);
}

int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

int parse_list(const char *s, uint64_t set[64])
{
	memset(set, 0, 64 * sizeof *set);
	if (!*s)
		return -1;
	while (*s) {
		char *end;
		unsigned long a, b;
		errno = 0;
		a = strtoul(s, &end, 10);
		if (end == s || errno || a > 4095)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtoul(s, &end, 10);
			if (end == s || errno || b > 4095 || b < a)
				return -1;
		}
		for (unsigned long v = a; v <= b; v++)
			set[v / 64] |= 1ull << (v % 64);
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -1;   /* junk, or a trailing comma */
		s = end;
	}
	return 0;
}
