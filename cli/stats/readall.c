/* readall.c: reading many logs into analysis engines, for `stats` and
 * `diff`: the walk of each input (its messages kept), a thread per CPU
 * reading the files (logs, and summaries added whole), messages and
 * progress printed in input order. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "input.h"
#include "readall.h"
#include "recorder.h"
#include "rowkey.h"
#include "sumfile.h"
#include "usage.h"
#include "warm.h"

void readall_init(struct readall *r, const char *cmd)
{
	memset(r, 0, sizeof *r);
	r->cmd = cmd;
	r->progress = isatty(2);
}

/* One file to read: its path, how it was found, its group, the engine its
 * entries go to, and the messages that go before and with it, in order. */
struct job {
	char *path, *group;
	const char *cmd;
	const char *fixed;           /* the options a summary must have been made with */
	int named;
	struct an *target[READALL_FEEDS];   /* the engines its entries go to */
	size_t ntarget;
	struct readall_file *fact;   /* what it was, when the reader keeps facts */
	int group_given;             /* GROUP was given (--group): it relabels summaries too */
	int runs;                    /* what a run is (enum an_runs) */
	char *proc;                  /* its log's process, "PID:START" (NULL: unknown) ... */
	char *host;                  /* ... on this host */
	const struct window *w;      /* which entries go in (NULL: all) */
	char *pre;                   /* the walk's messages before this file */
	char *msgs;                  /* this file's own, when read on a worker */
	size_t mlen;
	int problems, read, done;
	int summary;                 /* read as a summary (it fed its first target only) */
	int missed;                  /* window_missed() of its log: 1 missed, 0 not, -1 n/a */
	char *miss;                  /* ... the line saying it missed */
	char *end_of;                /* a job without a file that ends input END_OF */
	size_t first;                /* ... whose first job is this number */
	char *end_msg;               /* ... what its end says (account_end()) */
	int route;                   /* feed one target only: the second (TARGET[1]) when
				      * the file declares pairs, else the first */
	const char *fixed_alt;       /* route: the options of a summary for TARGET[1] */
	size_t fed_target;           /* route: which target it fed */
};

/* ---- reading one file ---------------------------------------------------- */

/* The engine's view of an event definition: the library's. */
static const tl_def *def_of(void *ctx, uint16_t msgid)
{
	return input_event(ctx, msgid);
}

/* Tells engine E that the entries of IN, job J's file and number ORDER in
 * input order, come next. */
static void begin_file(struct an *e, const struct job *j, struct input *in, uint64_t order)
{
	struct an_file file;
	const char *const *threads;
	size_t nthreads;
	char *run;
	file.path = in->path;
	file.process = in->label;
	file.host = in->info.format == TL_FORMAT_NATIVE ? in->info.host : "-";
	file.group = j->group;
	/* a run is a file, directory or process of a host: two hosts' logs may
	 * have one path, and two boots one pid */
	file.run = run = an_run_key(j->runs, file.host, j->path, j->proc);
	file.tsc_hz = in->info.tsc_hz;
	file.order = order << 32;   /* a summary's files take the orders after it */
	file.written = in->info.cursor;
	file.lost = in->info.cursor > in->info.used ? in->info.cursor - in->info.used : 0;
	file.info = &in->info;
	file.declared = input_pairs(in, &file.ndeclared);
	rowkey_declare(file.declared, file.ndeclared);   /* the tables' attribute heading */
	file.switched_off = in->info.switched_off;
	an_file_begin(e, &file, def_of, in);
	threads = input_threads(in, &nthreads);
	an_file_threads(e, threads, nthreads);
	free(run);
}

/* feed() without a window into one engine, the usual case: the per-entry
 * loop holds only the engine's call; the facts are set once at the end. */
static void feed_all(struct job *j, struct input *in, struct an *e)
{
	struct readall_file *f = j->fact;
	uint64_t n = 0, first = 0, last = 0;
	tl_entry en;
	while (tl_reader_next(in->r, &en)) {
		if (!n++)
			first = en.tsc;
		last = en.tsc;
		if (an_entry(e, &en) < 0) {
			cli_error(j->cmd, "%s: out of memory", j->path);
			j->problems++;
			break;
		}
	}
	if (f && n) {
		if (!f->kept)
			f->first = first;
		f->last = last;
		f->read += n;
		f->kept += n;
	}
}

/* Feeds the entries of IN that job J's window keeps (all, without one)
 * into J's engines, E[k] for its target k; counts them in J's facts. The
 * window is placed in the log's time at its first entry. A pair is counted
 * only when both its ends are in. */
static void feed(struct job *j, struct input *in, struct an **e)
{
	struct readall_file *f = j->fact;
	int windowed = j->w && window_any(j->w);
	tl_entry en;
	if (!windowed && j->ntarget == 1) {
		feed_all(j, in, e[0]);
		return;
	}
	while (tl_reader_next(in->r, &en) && !in->span_bad) {
		if (f)
			f->read++;
		if (windowed && !window_take(j->w, in, &en, j->cmd))
			continue;
		if (f && !f->kept++)
			f->first = en.tsc;
		if (f)
			f->last = en.tsc;
		for (size_t k = 0; k < j->ntarget; k++)
			if (an_entry(e[k], &en) < 0) {
				cli_error(j->cmd, "%s: out of memory", j->path);
				j->problems++;
				return;
			}
	}
}

/* Adds job J (number ORDER) to engine E if it is a summary; returns 0 if
 * it is none (or cannot be opened here: input_open() says why). A job that
 * feeds several engines (report) gives a summary to its first only. */
static int run_summary(struct job *j, uint64_t order, struct an **e)
{
	int alt = 0;
	struct an_summary_map m = { j->fixed, j->group_given ? j->group : NULL, j->runs,
				    order << 32, NULL, j->route ? j->fixed_alt : NULL,
				    j->route ? e[1] : NULL, &alt };
	struct stat st;
	int fd = open(j->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), is;
	if (fd < 0)
		return 0;
	is = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && sumfile_probe(fd);
	if (is && sumfile_read(j->cmd, j->path, fd, e[0], &m) < 0) {
		j->problems++;
	} else if (is) {
		j->read = 1;
		j->summary = 1;
		j->fed_target = (size_t)alt;
		if (j->fact) {
			j->fact->summary = 1;
			if (!(j->fact->path = strdup(j->path)) || !(j->fact->label = strdup("(summary)")) ||
			    !(j->fact->group = strdup(j->group)))
				abort();
			j->fact->engine = j->target[0];   /* its side's, in a report of two */
			j->fact->order = m.order;
		}
	}
	close(fd);
	return is;
}

/* Starts J's facts for IN, file number ORDER in input order (when the
 * reader keeps them). */
static void begin_fact(struct job *j, const struct input *in, uint64_t order)
{
	struct readall_file *f = j->fact;
	if (!f)
		return;
	if (!(f->path = strdup(j->path)) || !(f->label = strdup(in->label)) ||
	    !(f->group = strdup(j->group)))
		abort();
	size_t n;
	f->info = in->info;
	f->declares = input_pairs((struct input *)in, &n) && n;
	if (recorder_of(in, &f->trigger) || !f->trigger.kind)
		memset(&f->trigger, 0, sizeof f->trigger);
	else
		recorder_trigger((struct input *)in, &f->trigger, f->trigger_text,
				 sizeof f->trigger_text);
	f->engine = j->target[0];
	f->order = order << 32;   /* as begin_file() tells the engines */
}

/* Reads job J (number ORDER) into its engines, E[k] for its target k;
 * WARM: a helper reads ahead. Its messages go to this thread's CLI_ERR. */
static void run_job(struct job *j, uint64_t order, struct an **e, int warm)
{
	int skipped, failed = 0;
	struct input *in;
	if (run_summary(j, order, e))
		return;
	in = input_open(j->cmd, j->path, j->named, &skipped);
	if (!in) {
		j->problems += !skipped;
		return;
	}
	if (in->info.format == TL_FORMAT_NATIVE && in->info.pid && in->info.start_ticks &&
	    (asprintf(&j->proc, "%u:%llu", (unsigned)in->info.pid,
		      (unsigned long long)in->info.start_ticks) < 0 || !(j->host = strdup(in->info.host))))
		abort();
	if (j->route) {   /* a log that declares pairs to the second, others the first */
		size_t n;
		j->fed_target = input_pairs(in, &n) && n;
		e += j->fed_target;
		j->ntarget = 1;
	}
	for (size_t k = 0; k < j->ntarget; k++)
		begin_file(e[k], j, in, order);
	begin_fact(j, in, order);
	tl_reader_rewind(in->r);
	if (warm)
		warm_start(&in->r, 1);
	feed(j, in, e);
	if (warm)
		warm_stop();
	for (size_t k = 0; k < j->ntarget; k++) {
		in->unknown = an_file_unknown(e[k]);
		an_file_lost(e[k], tl_reader_skipped(in->r));
		failed |= an_file_end(e[k]) < 0;
	}
	if (failed) {
		cli_error(j->cmd, "%s: out of memory", j->path);
		j->problems++;
	}
	if (j->fact)
		j->fact->skipped = tl_reader_skipped(in->r);
	j->problems += input_report_damage(j->cmd, in);
	j->read = 1;
	if (j->w)
		j->missed = window_missed(j->w, in, j->cmd, &j->miss);
	input_close(in);
}

/* ---- finding the files: readall_add() ------------------------------------ */

/* What the walk of readall_add() collects. */
struct queue {
	struct readall *r;
	struct an *const *e;         /* the engines of its files */
	size_t ne;
	const char *group;
	int group_given;
	char *buf;                   /* the walk's messages since the last file */
	size_t len;
};

/* The walk's messages so far, taken from Q's stream; a new stream started. */
static char *take_messages(struct queue *q)
{
	char *m;
	fclose(cli_err);
	m = q->buf;
	if (!(cli_err = open_memstream(&q->buf, &q->len)))
		abort();
	return m;
}


/* A new, zeroed job at the end of R's list. */
static struct job *new_job(struct readall *r)
{
	struct job *j;
	if (r->njobs == r->jcap &&
	    !(r->jobs = realloc(r->jobs, (r->jcap = r->jcap ? 2 * r->jcap : 64) * sizeof *r->jobs)))
		abort();
	j = &r->jobs[r->njobs++];
	memset(j, 0, sizeof *j);
	return j;
}

/* input_walk()'s callback: queues PATH (NULL: only the messages so far). */
static int queue_one(const char *path, int named, void *arg)
{
	struct queue *q = arg;
	struct job *j = new_job(q->r);
	if ((path && !(j->path = strdup(path))) || !(j->group = strdup(q->group)))
		abort();
	j->cmd = q->r->cmd;
	j->fixed = q->r->fixed ? q->r->fixed : "";
	j->group_given = q->group_given;
	j->runs = q->r->runs;
	j->named = named;
	memcpy(j->target, q->e, q->ne * sizeof *q->e);
	j->ntarget = q->ne;
	if (path && q->r->facts && !(j->fact = calloc(1, sizeof *j->fact)))
		abort();
	j->w = q->r->w;
	j->missed = -1;
	j->pre = take_messages(q);
	return 0;
}

const char *readall_group(const char *path, char **copy)
{
	struct stat st;
	size_t n;
	/* the real path, so that "." and "log.timeline" have a directory name */
	if (!(*copy = realpath(path, NULL)) && !(*copy = strdup(path)))
		abort();
	n = strlen(*copy);
	while (n > 1 && (*copy)[n - 1] == '/')
		(*copy)[--n] = '\0';
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return basename(*copy);
	return basename(dirname(*copy));
}

void readall_add(struct readall *r, struct an *e, const char *path, const char *group)
{
	readall_add_to(r, &e, 1, path, group);
}

void readall_add_routed(struct readall *r, struct an *lags, struct an *declared,
			const char *fixed_declared, const char *path, const char *group)
{
	struct an *e[2] = { lags, declared };
	size_t first = r->njobs;
	readall_add_to(r, e, 2, path, group);
	for (size_t i = first; i < r->njobs; i++) {
		r->jobs[i].route = 1;
		r->jobs[i].fixed_alt = fixed_declared;
	}
}

void readall_add_to(struct readall *r, struct an *const *e, size_t n, const char *path,
		    const char *group)
{
	struct queue q = { r, e, n > READALL_FEEDS ? READALL_FEEDS : n, group, group != NULL, NULL, 0 };
	char *copy = NULL;
	size_t first = r->njobs;
	int problems;
	struct job *end;
	if (!group)
		q.group = readall_group(path, &copy);
	/* the walk's own messages are kept, to be printed in order with the files' */
	if (!(cli_err = open_memstream(&q.buf, &q.len)))
		abort();
	problems = input_walk(r->cmd, (char **)&path, 1, queue_one, &q);
	fflush(cli_err);
	/* a job without a file: the messages after the last file, and the
	 * input's end, where what it held is told (account_end()) */
	queue_one(NULL, 0, &q);
	end = &r->jobs[r->njobs - 1];
	end->problems = problems;
	end->first = first;
	if (!(end->end_of = strdup(path)))
		abort();
	fclose(cli_err);
	cli_err = NULL;
	free(q.buf);
	free(copy);
}

/* ---- the workers --------------------------------------------------------- */

/* The workers share the job list; each has an engine per target. */
struct pool {
	struct readall *r;
	pthread_mutex_t lock;
	pthread_cond_t done;
	size_t next;
};

struct worker {
	struct pool *p;
	pthread_t t;
	struct an *target[READALL_ENGINES], *mine[READALL_ENGINES];
};

/* Worker W's own engine for TARGET. */
static struct an *engine_for(struct worker *w, struct an *target)
{
	int k = 0;
	while (k < READALL_ENGINES && w->target[k] && w->target[k] != target)
		k++;
	if (k == READALL_ENGINES)
		abort();   /* stats feeds one engine, diff two, report four */
	if (!w->target[k]) {
		w->target[k] = target;
		w->mine[k] = an_new(an_opts(target));
	}
	return w->mine[k];
}

/* The number of the next job nobody took, or njobs when all are taken. */
static size_t take_job(struct pool *p)
{
	size_t i, n = p->r->njobs;
	pthread_mutex_lock(&p->lock);
	i = p->next < n ? p->next++ : n;
	pthread_mutex_unlock(&p->lock);
	return i;
}

/* A worker's thread: reads jobs into its own engines, each file's messages
 * into the job, until none is left; marks each job done. */
static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;
	size_t i;
	while ((i = take_job(p)) < p->r->njobs) {
		struct job *j = &p->r->jobs[i];
		FILE *f;
		if (j->path) {
			struct an *mine[READALL_FEEDS];
			for (size_t k = 0; k < j->ntarget; k++)
				mine[k] = engine_for(w, j->target[k]);
			if (!(f = cli_err = open_memstream(&j->msgs, &j->mlen)))
				abort();
			run_job(j, i, mine, 0);
			cli_err = NULL;
			fclose(f);
		}
		pthread_mutex_lock(&p->lock);
		j->done = 1;
		pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* Starts the workers W (at most 8) on pool P: a thread per CPU, no more
 * than jobs; none for one CPU or one job. Returns how many started. */
static size_t start_workers(struct pool *p, struct worker *w)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nw = cpus > 8 ? 8 : cpus < 1 ? 1 : (size_t)cpus, started = 0;
	if (nw > p->r->njobs)
		nw = p->r->njobs;
	memset(w, 0, 8 * sizeof *w);
	for (size_t k = 0; nw > 1 && k < nw; k++) {
		w[k].p = p;
		if (pthread_create(&w[k].t, NULL, work, &w[k]) != 0)
			break;
		started++;
	}
	return started;
}

/* Waits for the NW workers W to end and merges their engines into the
 * targets. */
static void merge_workers(struct readall *r, struct worker *w, size_t nw)
{
	for (size_t k = 0; k < nw; k++) {
		pthread_join(w[k].t, NULL);
		for (int t = 0; t < READALL_ENGINES && w[k].target[t]; t++) {
			if (an_merge(w[k].target[t], w[k].mine[t]) < 0) {
				cli_error(r->cmd, "out of memory");
				r->problems++;
			}
			an_free(w[k].mine[t]);
		}
	}
}

/* ---- in input order ------------------------------------------------------ */

/* At the end of an input, job J: says when no log was found under it, or
 * when the window kept nothing of its logs (their lines then); counts it
 * as a problem. */
static void account_end(struct readall *r, struct job *j)
{
	unsigned read = 0;
	int problems = 0;
	struct window_misses m = { NULL, 0, 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		abort();
	for (size_t i = j->first; i <= (size_t)(j - r->jobs); i++) {
		const struct job *k = &r->jobs[i];
		read += (unsigned)k->read;
		problems += k->problems;
		window_misses_count(&m, k->summary ? 0 : k->missed, k->miss);
	}
	cli_err = f;
	r->problems += input_none(j->cmd, j->end_of, read, problems);
	r->problems += window_misses_end(&m);
	cli_err = NULL;
	fclose(f);
	j->end_msg = buf;
}

/* Counts job J, once it was read, into R: its file into the engines it fed
 * entries (readall_fed()). */
static void account(struct readall *r, struct job *j)
{
	r->problems += j->problems;
	r->files += (unsigned)j->read;
	if (r->procs && j->read && j->proc && !j->summary) {
		if (!(r->proc = realloc(r->proc, (r->nproc + 1) * sizeof *r->proc)) ||
		    asprintf(&r->proc[r->nproc++], "%s\x1f%s", j->host ? j->host : "-", j->proc) < 0)
			abort();
	}
	for (size_t k = 0; j->read && j->missed != 1 && k < (j->summary ? 1 : j->ntarget); k++) {
		int t = 0;
		struct an *e = j->target[j->route ? j->fed_target : k];
		while (t < READALL_ENGINES - 1 && r->fed[t] && r->fed[t] != e)
			t++;
		r->fed[t] = e;
		r->nfed[t]++;
	}
	if (j->end_of)
		account_end(r, j);
}

unsigned readall_fed(const struct readall *r, const struct an *e)
{
	for (int t = 0; t < READALL_ENGINES && r->fed[t]; t++)
		if (r->fed[t] == e)
			return r->nfed[t];
	return 0;
}

int readall_kept_nothing(const struct readall *r)
{
	return !r->fed[0] || window_filters_missed();
}

/* Prints job J's messages and progress, in input order: before J is read
 * (one thread, BEFORE set), or after. */
static void report(struct readall *r, const struct job *j, int before)
{
	if (j->pre)
		fputs(j->pre, stderr);
	if (j->msgs)
		fputs(j->msgs, stderr);
	if (j->end_msg)
		fputs(j->end_msg, stderr);
	if (r->progress && j->path)
		fprintf(stderr, "\rtimeline %s: %u files read, %s %.60s\033[K", j->cmd, r->files,
			before ? "reading" : "last", j->path);
}

/* One CPU or one file: reads every job here, a helper reading ahead. */
static void read_here(struct readall *r)
{
	for (size_t i = 0; i < r->njobs; i++) {
		if (!r->jobs[i].path)   /* an input's end: what it says after its files' */
			account(r, &r->jobs[i]);
		report(r, &r->jobs[i], 1);
		if (r->jobs[i].path) {
			run_job(&r->jobs[i], i, r->jobs[i].target, 1);
			account(r, &r->jobs[i]);
		}
	}
}

/* Waits for each of the workers' jobs in turn and reports it. */
static void collect(struct pool *p)
{
	struct readall *r = p->r;
	for (size_t i = 0; i < r->njobs; i++) {
		pthread_mutex_lock(&p->lock);
		while (!r->jobs[i].done)
			pthread_cond_wait(&p->done, &p->lock);
		pthread_mutex_unlock(&p->lock);
		account(r, &r->jobs[i]);
		report(r, &r->jobs[i], 0);
	}
}

/* Moves the facts of the jobs that were read to R's list, in order. */
static void keep_facts(struct readall *r)
{
	for (size_t i = 0; i < r->njobs; i++) {
		struct readall_file *f = r->jobs[i].fact;
		if (f && r->jobs[i].read) {
			if (!(r->file = realloc(r->file, (r->nfile + 1) * sizeof *r->file)))
				abort();
			r->file[r->nfile++] = *f;
		} else if (f) {
			free(f->path);
			free(f->label);
			free(f->group);
		}
		free(f);
	}
}

void readall_free(struct readall *r)
{
	for (size_t i = 0; i < r->nfile; i++) {
		free(r->file[i].path);
		free(r->file[i].label);
		free(r->file[i].group);
	}
	free(r->file);
	r->file = NULL;
	r->nfile = 0;
	for (size_t i = 0; i < r->nproc; i++)
		free(r->proc[i]);
	free(r->proc);
	r->proc = NULL;
	r->nproc = 0;
}

static void free_jobs(struct readall *r)
{
	keep_facts(r);
	for (size_t i = 0; i < r->njobs; i++) {
		free(r->jobs[i].path);
		free(r->jobs[i].group);
		free(r->jobs[i].proc);
		free(r->jobs[i].host);
		free(r->jobs[i].pre);
		free(r->jobs[i].msgs);
		free(r->jobs[i].miss);
		free(r->jobs[i].end_of);
		free(r->jobs[i].end_msg);
	}
	free(r->jobs);
	r->jobs = NULL;
	r->njobs = r->jcap = 0;
}

void readall_run(struct readall *r)
{
	struct worker w[8];
	struct pool p = { r, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	size_t started = start_workers(&p, w);
	if (started == 0) {
		read_here(r);
	} else {
		collect(&p);
		merge_workers(r, w, started);
	}
	free_jobs(r);
	if (r->progress && r->files)
		fprintf(stderr, "\r\033[K");
}
