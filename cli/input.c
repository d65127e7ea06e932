/* input.c: the reading commands' inputs: walking directories, opening what
 * they hold through libtimeline (tl_probe, tl_reader_open_fd), and what
 * printing caches per definition. */
#define _GNU_SOURCE
#include <csv.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "input.h"
#include "natural.h"
#include "switchview.h"
#include "usage.h"
#include "window.h"

/* ------------------------------------------------------------------------
 * Walking
 * ------------------------------------------------------------------------ */

int input_quiet, input_skip_denied;

int input_dir_len(const char *dir)
{
	size_t n = strlen(dir);
	while (n > 0 && dir[n - 1] == '/')
		n--;
	return (int)n;
}

int input_leading_paths(char **args, int n)
{
	struct stat st;
	int i = 0;
	while (i < n && stat(args[i], &st) == 0)
		i++;
	return i;
}

/* Was the last failure a refusal that input_skip_denied passes over? */
static int denied(void)
{
	return input_skip_denied && (errno == EACCES || errno == EPERM);
}

/* Walks directory DIR: files and subdirectories in name order, numbers in
 * names by value (natural.h: 9999/ before 10000/). */
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
		if (denied())
			return 0;
		cli_error(cmd, "%s: %s", dir, strerror(errno));
		return 1;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap && !(names = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names)))
			abort();
		if (asprintf(&names[n++], "%.*s/%s", input_dir_len(dir), dir, de->d_name) < 0)
			abort();
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, natural_cmp_ptr);
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
 * Logs being born
 * ------------------------------------------------------------------------ */

#define BIRTH_POLL_NS 10000000       /* a path being born is looked at every 10 ms */

static uint64_t born_by;             /* CLOCK_MONOTONIC ns: the wait's end (0: none) */

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int input_unborn(const char *path, int named)
{
	static const unsigned char zero[8];
	unsigned char magic[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n;
	if (fd < 0)
		return named && errno == ENOENT;
	n = pread(fd, magic, sizeof magic, 0);   /* fails on what is no file */
	close(fd);
	return n >= 0 && (n < (ssize_t)sizeof magic || !memcmp(magic, zero, sizeof magic));
}

void input_wait_for_births(void)
{
	born_by = monotonic_ns() + INPUT_BIRTH_NS;
}

/* Waits while PATH may be a log being born, until input_wait_for_births()'s
 * time is up (at once when it was not called). */
static void wait_born(const char *path, int named)
{
	const struct timespec poll = { 0, BIRTH_POLL_NS };
	while (born_by && monotonic_ns() < born_by && input_unborn(path, named))
		nanosleep(&poll, NULL);
}

/* ------------------------------------------------------------------------
 * Opening
 * ------------------------------------------------------------------------ */

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
	int fd;

	*skipped = 0;
	wait_born(path, named);
	if (!named && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		skip_note(cmd, path);   /* sockets, FIFOs, devices found in a directory */
		*skipped = 1;
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (!named && denied()) {
			*skipped = 1;
			return NULL;
		}
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
	if (!named && !tl_probe(fd)) {
		skip_note(cmd, path);
		close(fd);
		*skipped = 1;
		return NULL;
	}
	if (!(in = calloc(1, sizeof *in)) || !(in->path = strdup(path)))
		abort();
	in->r = tl_reader_open_fd(fd, path, &err);
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
	int problems = in->span_bad;   /* reported when found */
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

void input_note_skipped(const char *cmd, const struct input *in)
{
	if (tl_reader_skipped(in->r))
		fprintf(stderr, "timeline %s: %s: %llu incomplete entries skipped\n", cmd, in->path,
			(unsigned long long)tl_reader_skipped(in->r));
}

const char *input_thread(struct input *in, unsigned thread, size_t *len)
{
	unsigned n = tl_reader_threads(in->r);
	if (thread >= n)
		n = thread + 1;   /* not in the reader: unnamed */
	if (n > in->thread_labels) {
		char **g = realloc(in->thread_label, n * sizeof *g);
		if (!g)
			abort();
		for (size_t t = in->thread_labels; t < n; t++)
			g[t] = NULL;
		in->thread_label = g;
		in->thread_labels = n;
	}
	if (!in->thread_label[thread]) {
		tl_thread th;
		char b[48];
		if (tl_reader_thread(in->r, thread, &th) == TL_OK && th.tid)
			snprintf(b, sizeof b, "%s[%u]", th.name, (unsigned)th.tid);
		else
			snprintf(b, sizeof b, "thread %u", thread);
		if (!(in->thread_label[thread] = strdup(b)))
			abort();
	}
	*len = strlen(in->thread_label[thread]);
	return in->thread_label[thread];
}

const char *const *input_threads(struct input *in, size_t *n)
{
	size_t len;
	tl_thread th;
	*n = tl_reader_threads(in->r);
	if (*n > TL_THREADS_MAX)
		*n = TL_THREADS_MAX;
	/* room for every thread a log may have, made once: engines that read
	 * IN keep the array, and a second call (another engine, or threads
	 * come since) must not move it under them */
	if (!in->thread_key && !(in->thread_key = calloc(TL_THREADS_MAX, sizeof *in->thread_key)))
		abort();
	for (unsigned t = 0; t < *n; t++)
		in->thread_key[t] = tl_reader_thread(in->r, t, &th) == TL_OK && th.tid ?
					    input_thread(in, t, &len) : "-";
	return in->thread_key;
}

void input_close(struct input *in)
{
	if (!in)
		return;
	tl_reader_close(in->r);
	free(in->pairs);
	free((char *)in->path);
	free(in->csv_path);
	switch_view_free(in);
	for (size_t t = 0; t < in->thread_labels; t++)
		free(in->thread_label[t]);
	free(in->thread_label);
	free(in->thread_key);
	while (in->shown) {
		struct shown *next = in->shown->next;
		free(in->shown->csv_head);
		free(in->shown->text_head);
		for (unsigned i = 0; i < TL_MAX_ARGS; i++)
			free(in->shown->text_arg[i]);
		free(in->shown->csv_tail);
		free(in->shown);
		in->shown = next;
	}
	free(in);
}

/* What input_open_all() walks with. */
struct open_all {
	const char *cmd;
	struct input_list *list;
	int (*keep)(const struct input *, const char *, void *);
	void *arg;
	int problems;
};

static int open_one(const char *path, int named, void *arg)
{
	struct open_all *o = arg;
	struct input_list *l = o->list;
	int skipped;
	struct input *in = input_open(o->cmd, path, named, &skipped);
	if (!in) {
		o->problems += !skipped;
		return 0;
	}
	if (o->keep && !o->keep(in, o->cmd, o->arg)) {
		o->problems++;
		input_close(in);
		return 0;
	}
	if (l->n == l->cap &&
	    !(l->in = realloc(l->in, (l->cap = l->cap ? 2 * l->cap : 16) * sizeof *l->in)))
		abort();
	l->in[l->n++] = in;
	return 0;
}

int input_none(const char *cmd, const char *path, size_t logs, int problems)
{
	if (logs || problems)
		return 0;
	cli_error(cmd, "%s: no logs", path);
	return 1;
}

int input_open_all(const char *cmd, char **paths, int npaths, struct input_list *list,
		   int (*keep)(const struct input *in, const char *cmd, void *arg), void *arg)
{
	struct open_all o = { cmd, list, keep, arg, 0 };
	int problems = 0;
	for (int i = 0; i < npaths; i++) {
		size_t before = list->n;
		int had = problems + o.problems;
		problems += input_walk(cmd, &paths[i], 1, open_one, &o);
		for (size_t k = before; k < list->n; k++)
			list->in[k]->arg = i;
		problems += input_none(cmd, paths[i], list->n - before, problems + o.problems - had);
	}
	return problems + o.problems;
}

int input_window_misses(const char *cmd, const struct input_list *list, int npaths,
			const struct window *w)
{
	struct window_misses m = { NULL, 0, 0 };
	int problems = 0;
	for (int i = 0; i < npaths; i++) {
		for (size_t k = 0; k < list->n; k++)
			if (list->in[k]->arg == i)
				window_misses_add(&m, w, list->in[k], cmd);
		problems += window_misses_end(&m);
	}
	return problems;
}

uint16_t *input_definitions(const struct input *in, size_t *n)
{
	size_t max = tl_reader_definitions(in->r, NULL, 0);
	uint16_t *ids = calloc(max + 1, sizeof *ids);
	size_t got = ids ? tl_reader_definitions(in->r, ids, max) : 0;
	*n = got < max ? got : max;
	return ids;
}

const tl_pair *input_pairs(struct input *in, size_t *n)
{
	size_t ndefs;
	uint16_t *ids;
	if (!in->pairs_read) {
		in->pairs_read = 1;
		ids = input_definitions(in, &ndefs);
		for (size_t i = 0; i < ndefs; i++) {
			const char *s = tl_reader_string(in->r, ids[i]);
			tl_pair p, *more;
			if (!s || strncmp(s, "pair|", 5) || tl_pair_parse(s, strlen(s), &p, NULL) != TL_OK)
				continue;
			if (!(more = realloc(in->pairs, (in->npairs + 1) * sizeof *more)))
				break;
			in->pairs = more;
			in->pairs[in->npairs++] = p;
		}
		free(ids);
	}
	*n = in->npairs;
	return in->pairs;
}

void input_close_all(struct input_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		input_close(list->in[i]);
	free(list->in);
	memset(list, 0, sizeof *list);
}

/* ------------------------------------------------------------------------
 * Event definitions
 * ------------------------------------------------------------------------ */

/* Appends ',' and S as a CSV field to the malloc'd *BUF at *LEN. */
static void csv_append(char **buf, size_t *len, const char *s)
{
	size_t n = strlen(s);
	if (!(*buf = realloc(*buf, *len + 2 * n + 4)))
		abort();
	(*buf)[(*len)++] = ',';
	*len += csv_write(*buf + *len, 2 * n + 2, s, n);
}

/* A, B and C joined, with 32 zero bytes after for put_field(); *LEN
 * gets the length. */
static char *padded(const char *a, const char *b, const char *c, size_t *len)
{
	size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
	char *p = calloc(1, na + nb + nc + 33);
	if (!p)
		abort();
	memcpy(p, a, na);
	memcpy(p + na, b, nb);
	memcpy(p + na + nb, c, nc);
	*len = na + nb + nc;
	return p;
}

/* Fills SH's constant text fields from D. */
static void text_fields(struct shown *sh, const tl_def *d)
{
	sh->text_head = padded(d->name, *d->attrs ? " " : "", d->attrs, &sh->text_head_len);
	for (unsigned i = 0; i < d->nargs; i++)
		sh->text_arg[i] = padded(" ", d->args[i], "=", &sh->text_arg_len[i]);
}

/* Makes D's struct shown: its constant CSV and text fields. */
static struct shown *make_shown(struct input *in, const tl_def *d)
{
	struct shown *sh = calloc(1, sizeof *sh);
	char *names = NULL;
	size_t len = 0;
	if (!sh)
		abort();
	for (unsigned i = 0; i < d->nargs; i++)
		len += strlen(d->args[i]) + 1;
	sh->text_room = len + d->name_len + d->attrs_len + 2 + 2 * d->nargs;
	if (!(names = calloc(1, len + 1)))
		abort();
	for (unsigned i = 0; i < d->nargs; i++) {
		if (i)
			strcat(names, " ");
		strcat(names, d->args[i]);
	}
	csv_append(&sh->csv_head, &sh->csv_head_len, d->name);
	csv_append(&sh->csv_head, &sh->csv_head_len, d->attrs);
	csv_append(&sh->csv_tail, &sh->csv_tail_len, names);
	sh->csv_tail[sh->csv_tail_len++] = '\n';
	free(names);
	text_fields(sh, d);
	sh->is_switch = in->info.format == TL_FORMAT_NATIVE && in->info.minor >= 2 && d->known &&
			!strcmp(d->name, TL_SWITCH_EVENT) && !*d->attrs && d->nargs == TL_MAX_ARGS;
	sh->next = in->shown;
	return in->shown = sh;
}

const tl_def *input_slow_event(struct input *in, uint16_t msgid)
{
	tl_def *d = tl_reader_def(in->r, msgid);
	if (!d)
		abort();   /* out of memory */
	unsigned set = input_recent_set(msgid);
	if (!d->user)
		d->user = make_shown(in, d);
	in->recent[set + 1] = in->recent[set];
	in->recent_id[set + 1] = in->recent_id[set];
	in->recent[set] = d;
	in->recent_id[set] = msgid;
	return d;
}

/* ------------------------------------------------------------------------
 * Writers
 * ------------------------------------------------------------------------ */

/* The pid in a Snabb log's PATH: the number in .../<pid>/events.timeline or
 * .../<pid>/engine/timeline; 0 when the path does not say. */
static unsigned snabb_pid(const char *path)
{
	const char *end = strrchr(path, '/'), *p;
	for (int up = 0; end && up < 2; up++) {
		p = end;
		while (p > path && p[-1] != '/')
			p--;
		if (p < end && isdigit((unsigned char)*p)) {
			char *stop;
			unsigned long v = strtoul(p, &stop, 10);
			if (stop == end)
				return (unsigned)v;
		}
		end = p > path ? p - 1 : NULL;
	}
	return 0;
}

unsigned input_pid(const struct input *in)
{
	return in->info.format == TL_FORMAT_NATIVE ? in->info.pid : snabb_pid(in->path);
}

int input_pid_alive(unsigned pid)
{
	return pid && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

int input_local(const struct input *in)
{
	char host[sizeof in->info.host] = "";
	if (in->info.compressed)
		return 0;
	if (in->info.format == TL_FORMAT_NATIVE) {
		gethostname(host, sizeof host - 1);
		return !strcmp(host, in->info.host);
	}
	return 1;
}

int input_writer_alive(const struct input *in)
{
	return input_local(in) && input_pid_alive(input_pid(in));
}

void input_warn_unread(const char *cmd, const char *path, const tl_info *i, const char *what)
{
	char host[sizeof i->host] = "";
	if (gethostname(host, sizeof host - 1) < 0 || !*host || !*i->host)
		return;
	if (strcmp(host, i->host))
		fprintf(stderr, "timeline %s: warning: %s: written on host '%s', not this one: its "
			"writer will not see %s\n", cmd, path, i->host, what);
	else if (tl_pid_alive(i->pid, i->start_ticks) == TL_GONE)
		fprintf(stderr, "timeline %s: warning: %s: no process will read %s: its writer (%s, "
			"pid %u) has ended\n", cmd, path, what, i->process, i->pid);
}

/* ------------------------------------------------------------------------
 * Time and lists
 * ------------------------------------------------------------------------ */

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
