/* readall.c: reading many logs into analysis engines, for `stats` and
 * `diff`: the walk of each input (its messages kept), a thread per CPU
 * reading the files, messages and progress printed in input order. */
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "input.h"
#include "readall.h"
#include "warm.h"

void readall_init(struct readall *r, const char *cmd, const struct an_options *o)
{
	memset(r, 0, sizeof *r);
	r->o = o;
	r->cmd = cmd;
	r->progress = isatty(2);
}

/* One file to read: its path, how it was found, its group, the engine its
 * entries go to, and the messages that go before and with it, in order. */
struct job {
	char *path, *group;
	const char *cmd;
	int named;
	struct an *target;
	char *pre;                   /* the walk's messages before this file */
	char *msgs;                  /* this file's own, when read on a worker */
	size_t mlen;
	int problems, read, done;
};

/* The engine's view of an event definition: the library's. */
static const tl_def *def_of(void *ctx, uint16_t msgid)
{
	return input_event(ctx, msgid);
}

/* Reads job J (number ORDER) into engine E; WARM: a helper reads ahead.
 * Its messages go to this thread's CLI_ERR. */
static void run_job(struct job *j, uint64_t order, struct an *e, int warm)
{
	int skipped;
	struct input *in = input_open(j->cmd, j->path, j->named, &skipped);
	struct an_file file;
	tl_entry en;
	if (!in) {
		j->problems += !skipped;
		return;
	}
	file.path = in->path;
	file.process = in->label;
	file.host = in->info.format == TL_FORMAT_NATIVE ? in->info.host : "-";
	file.group = j->group;
	file.tsc_hz = in->info.tsc_hz;
	file.order = order;
	an_file_begin(e, &file, def_of, in);
	tl_reader_rewind(in->r);
	if (warm)
		warm_start(&in->r, 1);
	while (tl_reader_next(in->r, &en)) {
		if (an_entry(e, &en) < 0) {
			cli_error(j->cmd, "%s: out of memory", j->path);
			j->problems++;
			break;
		}
	}
	if (warm)
		warm_stop();
	in->unknown = an_file_unknown(e);
	an_file_end(e);
	j->problems += input_report_damage(j->cmd, in);
	j->read = 1;
	input_close(in);
}

/* What the walk of readall_add() collects. */
struct queue {
	struct readall *a;
	struct an *e;
	const char *cmd, *group;
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

static int queue_one(const char *path, int named, void *arg)
{
	struct queue *q = arg;
	struct readall *a = q->a;
	struct job *j;
	if (a->njobs == a->jcap &&
	    !(a->jobs = realloc(a->jobs, (a->jcap = a->jcap ? 2 * a->jcap : 64) * sizeof *a->jobs)))
		abort();
	j = &a->jobs[a->njobs++];
	memset(j, 0, sizeof *j);
	if ((path && !(j->path = strdup(path))) || !(j->group = strdup(q->group)))
		abort();
	j->cmd = q->cmd;
	j->named = named;
	j->target = q->e;
	j->pre = take_messages(q);
	return 0;
}

void readall_add(struct readall *a, struct an *e, const char *path, const char *group)
{
	const char *cmd = a->cmd;
	struct queue q = { a, e, cmd, group, NULL, 0 };
	char *copy = NULL, *name;
	struct stat st;
	if (!group) {
		size_t n;
		/* the real path, so that "." and "log.timeline" have a directory name */
		if (!(copy = realpath(path, NULL)) && !(copy = strdup(path)))
			abort();
		n = strlen(copy);
		while (n > 1 && copy[n - 1] == '/')
			copy[--n] = '\0';
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			name = basename(copy);
		else
			name = basename(dirname(copy));
		q.group = name;
	}
	/* the walk's own messages are kept, to be printed in order with the files' */
	if (!(cli_err = open_memstream(&q.buf, &q.len)))
		abort();
	a->problems += input_walk(cmd, (char **)&path, 1, queue_one, &q);
	fflush(cli_err);
	if (q.len)   /* messages after the last file: a job without a file */
		queue_one(NULL, 0, &q);
	fclose(cli_err);
	cli_err = NULL;
	free(q.buf);
	free(copy);
}

/* The workers share the job list; each has an engine per target. */
struct pool {
	struct readall *a;
	pthread_mutex_t lock;
	pthread_cond_t done;
	size_t next;
};

struct worker {
	struct pool *p;
	pthread_t t;
	struct an *target[2], *mine[2];
};

/* Worker W's own engine for TARGET. */
static struct an *engine_for(struct worker *w, struct an *target)
{
	int k = 0;
	while (k < 2 && w->target[k] && w->target[k] != target)
		k++;
	if (k == 2)
		abort();   /* stats feeds one engine, diff two */
	if (!w->target[k]) {
		w->target[k] = target;
		if (!(w->mine[k] = an_new(w->p->a->o)))
			abort();
	}
	return w->mine[k];
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;
	struct readall *a = p->a;
	for (;;) {
		struct job *j;
		size_t i;
		FILE *f;
		pthread_mutex_lock(&p->lock);
		i = p->next < a->njobs ? p->next++ : a->njobs;
		pthread_mutex_unlock(&p->lock);
		if (i == a->njobs)
			return NULL;
		j = &a->jobs[i];
		if (j->path) {
			if (!(f = cli_err = open_memstream(&j->msgs, &j->mlen)))
				abort();
			run_job(j, i, engine_for(w, j->target), 0);
			cli_err = NULL;
			fclose(f);
		}
		pthread_mutex_lock(&p->lock);
		j->done = 1;
		pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->lock);
	}
}

/* Counts job J, once it was read, into A. */
static void account(struct readall *a, const struct job *j)
{
	a->problems += j->problems;
	a->files += (unsigned)j->read;
}

/* Prints job J's messages and progress, in input order: before J is read
 * (one thread, BEFORE set), or after. */
static void report(struct readall *a, const struct job *j, int before)
{
	if (j->pre)
		fputs(j->pre, stderr);
	if (j->msgs)
		fputs(j->msgs, stderr);
	if (a->progress && j->path)
		fprintf(stderr, "\rtimeline %s: %u files read, %s %.60s\033[K", j->cmd, a->files,
			before ? "reading" : "last", j->path);
}

void readall_run(struct readall *a)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nw = cpus > 8 ? 8 : cpus < 1 ? 1 : (size_t)cpus;
	struct worker w[8];
	struct pool p = { a, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	size_t started = 0;
	if (nw > a->njobs)
		nw = a->njobs;
	memset(w, 0, sizeof w);
	for (size_t k = 0; nw > 1 && k < nw; k++) {
		w[k].p = &p;
		if (pthread_create(&w[k].t, NULL, work, &w[k]) != 0)
			break;
		started++;
	}
	if (started == 0) {
		/* one CPU or one file: read here, a helper reading ahead */
		for (size_t i = 0; i < a->njobs; i++) {
			report(a, &a->jobs[i], 1);
			if (a->jobs[i].path)
				run_job(&a->jobs[i], i, a->jobs[i].target, 1);
			account(a, &a->jobs[i]);
		}
	} else {
		for (size_t i = 0; i < a->njobs; i++) {
			pthread_mutex_lock(&p.lock);
			while (!a->jobs[i].done)
				pthread_cond_wait(&p.done, &p.lock);
			pthread_mutex_unlock(&p.lock);
			account(a, &a->jobs[i]);
			report(a, &a->jobs[i], 0);
		}
		for (size_t k = 0; k < started; k++) {
			pthread_join(w[k].t, NULL);
			for (int t = 0; t < 2 && w[k].target[t]; t++) {
				if (an_merge(w[k].target[t], w[k].mine[t]) < 0) {
					cli_error(a->jobs[0].cmd, "out of memory");
					a->problems++;
				}
				an_free(w[k].mine[t]);
			}
		}
	}
	for (size_t i = 0; i < a->njobs; i++) {
		free(a->jobs[i].path);
		free(a->jobs[i].group);
		free(a->jobs[i].pre);
		free(a->jobs[i].msgs);
	}
	free(a->jobs);
	a->jobs = NULL;
	a->njobs = a->jcap = 0;
	if (a->progress && a->files)
		fprintf(stderr, "\r\033[K");
}

