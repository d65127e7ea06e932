/* topstat.h: what `timeline top` knows of each log it follows: the entries
 * new since the last poll fed to analysis engines that follow the log, cut
 * at each refresh into an interval, and the intervals added up into a
 * sliding window. The figures of a span (an interval or the window) come
 * from topstat_figures(), for the screen, the batch formats and any other
 * output alike. */
#ifndef TL_TOPSTAT_H
#define TL_TOPSTAT_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "analysis.h"
#include "follow.h"

/* A pair's figures over a span, per attribute value: Snabb's push of app
 * lookup, a forwarder's rx of port 0, a key-value server's requests. */
struct top_app {
	char *pair;                  /* its label: "app.push", "fwd.rx", "kv.req" */
	char *app;                   /* its attribute's value, "-" when none */
	const char *attr;            /* that attribute's name: "app" unless the pair is
				      * declared by= (static, or the log's declaration) */
	char *unit;                  /* the unit its cycles are counted per, NULL unknown */
	double share;                /* % of the cycles of the breaths it ran in (NaN: a
				      * breath itself, or none held it) */
	double cycles_packet;        /* its pairs' cycles over their units */
	double p50, p99;             /* of each pair's cycles per unit */
	double pairs_s;              /* pairs per second read (sampled: scaled) */
};

/* An event's figures over a span. */
struct top_event {
	char *event;                 /* category.name */
	double count_s;              /* entries per second (sampled: scaled) */
	double p50, p99;             /* lag in cycles (Snabb's definition) */
};

/* The figures of one span; NaN where the log does not say. */
struct top_span {
	double seconds;              /* its length, by the clock of top */
	uint64_t written;            /* entries the writer published in it */
	uint64_t read;               /* of them, read */
	uint64_t lost;               /* overwritten before they were read */
	uint64_t unread;             /* left unread on purpose: the figures are sampled */
	double breaths_s, packets_s, gbps, cycles_packet;   /* from breath_end's counters */
	struct top_app *apps;        /* by pair and attribute */
	size_t napps;
	struct top_event *events;
	size_t nevents;
};

/* The options of the engines that follow each log: cycles per packet of
 * the pairs by pair and attribute, and lags by event; both by process
 * too, which one log's engines hold only one of, so that the windows of
 * all the logs added up (the metrics) keep each process apart. */
extern const struct an_options topstat_lag_opts;
/* Cycles per unit: packets, the unit the logs' pairs declare, or top's
 * --per; the built-in pairs, the logs' own and top's --pair rules first. */
extern struct an_options topstat_per_opts;

/* Fills S's figures from the engines PER (cycles per packet of the pairs,
 * grouped by pair and attribute, with the breath summaries) and LAG (lags
 * grouped by event), which counted the entries of a span whose length and
 * counts S holds already, of a log declaring the N pairs DECLARED (which
 * name their attributes). Calls an_rows() on both. */
void topstat_figures(struct an *per, struct an *lag, struct top_span *s, const tl_pair *declared,
		     size_t n);

/* Frees what topstat_figures() put in S. */
void topstat_free(struct top_span *s);

/* One closed interval: its engines and counts. */
struct top_iv {
	struct an *per, *lag;
	struct top_span counts;      /* seconds and the entry counts only */
};

/* A followed log. */
struct top_log {
	struct follow f;
	dev_t dev;                   /* the file, so that a new one at the path ... */
	ino_t ino;                   /* ... is a new log */
	unsigned pid;
	char name[64];               /* the log's name (Snabb: "snabb") */
	unsigned rate;               /* its rate, 1..10, and whether fixed */
	int rate_fixed;
	int armed;                   /* its flight recorder: tl_info.armed */
	unsigned switched_off;       /* events switched off now (timeline disable) */
	int alive;                   /* its writer ran at the last poll */
	int ended;                   /* cuts since it ended, from 1 (0: running) */
	uint64_t since;              /* follow_now() when the interval under way began */
	struct an *per, *lag;        /* the engines following the log */
	struct top_span pending;     /* counts since the last cut */
	struct top_iv *iv;           /* the last intervals, oldest first */
	size_t niv;
	struct top_span last, window;/* the figures of the last interval and the window */
	struct an *wper, *wlag;      /* the window's engines: its intervals added up */
	char group[256];             /* its group, as `stats` would label it */
	const tl_pair *declared;     /* the pairs it declares (input_pairs()), which name
				      * their attributes */
	size_t ndeclared;
};

/* Starts following IN (which T then owns) at NOW (follow_now()), its
 * group GROUP: from its cursor with AT_END (what is written from now on),
 * else from the oldest entry in its ring, the first interval then counted
 * from the log's creation (for a log created since the last refresh). */
struct top_log *toplog_open(struct input *in, int at_end, uint64_t now, const char *group);

/* Reads what is new in T's log, at most the newest MAX entries (0: all),
 * into its engines; notes whether its writer runs, and once it has ended
 * and its last entries are read, reads no more. Returns entries read. */
uint64_t toplog_poll(struct top_log *t, uint64_t max);

/* Closes T's interval at NOW (follow_now()): its figures in t->last, and
 * those of the last KEEP intervals added up in t->window. */
void toplog_cut(struct top_log *t, uint64_t now, size_t keep);

void toplog_close(struct top_log *t);

/* The unit the apps' cycles are counted per, over the N LOGS (only
 * FOCUS's when not NULL): top's --per; else the unit their pairs ended in
 * or their events files declare, "unit" when they differ, packets when
 * none says. */
const char *topstat_unit(struct top_log **logs, size_t n, const struct top_log *focus);

/* The record of T's log for the metrics' counters, as `stats` makes one
 * (its names, and the running counts of its last breath_end that T's last
 * interval saw, n = 0 when none), into *B, which points into T's data
 * until T's next cut: written is what the writer wrote (its cursor at the
 * last poll; a Snabb log, which has none: the entries read), lost those
 * overwritten before top read them since it followed the log. Call it
 * after a cut. */
void toplog_record(struct top_log *t, struct an_breaths *b);
#endif
