/* check_arm.c: the flight recorder (issue 38): triggers driven by hand on
 * a manual clock, with their exact entry numbers, keep's edges, --on, a
 * freeze by hand, arming again, a rate resuming (tcase "lib"); arming and
 * freezing against a flat-out writer, and writers killed while armed
 * (tcase "race"); `timeline arm`, `freeze` and what info, ls, top and dump
 * show of a frozen log (tcase "cli"); the demo engine stopped 20 ms
 * (tcase "engine"). */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"

/* The test log's definitions: a breath pair, a pair of two instances and
 * an event; ids in this order. */
enum { LB, LE, WA_B, WA_E, WB_B, WB_E, OTHER, NDEF };
static const char *const canon[NDEF] = {
	"1,9|t.loop_begin: n", "1,9|t.loop_end: n",
	"1,9|t.begin app=a: n", "1,9|t.end app=a: n",
	"1,9|t.begin app=b: n", "1,9|t.end app=b: n",
	"1,9|t.other: n",
};
static const char *const pairs[] = {
	"pair|t.loop: t.loop_begin t.loop_end unit=n breath",
	"pair|t.work: t.begin t.end",
};

/* TEST_DIR/NAME, kept (path_in() has two buffers only). */
#define P(name) test_str("%s/%s", test_dir, (name))

struct tlog {
	tl_log *log;
	uint16_t id[NDEF];
	uint64_t t;     /* the manual clock */
};

/* A log at P of ENTRIES slots, manual clock at HZ, with the definitions
 * and pairs above. */
static struct tlog open_t_hz(const char *p, uint64_t entries, uint64_t hz)
{
	struct tlog l = { .t = 1000 };
	uint16_t pid;
	tl_error err;
	l.log = open_manual_hz(p, entries, hz);
	for (int i = 0; i < NDEF; i++)
		ck_assert_msg(tl_intern(l.log, canon[i], &l.id[i], &err) == TL_OK, "%s", err.msg);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(tl_intern(l.log, pairs[i], &pid, &err), TL_OK);
	return l;
}

/* The same at 1 GHz: ticks are ns. */
static struct tlog open_t(const char *p, uint64_t entries)
{
	return open_t_hz(p, entries, 1000000000);
}

/* Logs event K at the clock + DT (rate 9, through the rate check). */
static void ev(struct tlog *l, int k, uint64_t dt)
{
	l->t += dt;
	tl_set_manual_clock(l->log, l->t, 0);
	tl_event(l->log, tl_event_code(l->id[k], 9), l->t, 0, 0, 0, 0, 0);
}

/* One breath of the loop pair LEN ticks long, GAP after the last, then tl_breath(). */
static void breath(struct tlog *l, uint64_t gap, uint64_t len)
{
	ev(l, LB, gap);
	ev(l, LE, len);
	tl_breath(l->log);
}

static tl_arming arming_at(const char *p)
{
	tl_error err;
	tl_arming a;
	tl_reader *r = tl_reader_open(p, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_reader_arming(r, &a), TL_OK);
	tl_reader_close(r);
	return a;
}

static void arm_ok(tl_log *log, tl_arm_options o)
{
	tl_error err;
	ck_assert_msg(tl_arm(log, &o, &err) == TL_OK, "%s", err.msg);
}

START_TEST(test_a_slow_breath_triggers_with_its_entry_numbers_and_keeps_3_more)
{
	const char *p = P("a.timeline");
	struct tlog l = open_t(p, 64);
	tl_arming a;
	tl_info in;

	ck_assert_int_eq(tl_set_rate(l.log, 5), TL_OK);
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .keep = 3, .keep_set = 1 });
	ck_assert_uint_eq(tl_rate(l.log), 1);   /* armed: the rate all */
	tl_breath(l.log);                       /* starts looking from entry 0 */
	breath(&l, 0, 100);                     /* 0-1: exactly the threshold, not slower */
	a = arming_at(p);
	ck_assert_int_eq(a.state, TL_RECORDER_ARMED);
	ck_assert_int_eq(a.mode, 2);
	ck_assert_str_eq(a.what, "t.loop");
	ck_assert_uint_eq(a.threshold, 100);
	ck_assert_uint_eq(a.keep, 3);
	ck_assert_int_eq(a.kind, TL_TRIGGER_NONE);
	breath(&l, 50, 101);                    /* 2-3: one tick slower */
	a = arming_at(p);
	ck_assert_int_eq(a.state, TL_RECORDER_KEEPING);
	ck_assert_int_eq(a.kind, TL_TRIGGER_PAIR);
	ck_assert_uint_eq(a.begin_seq, 2);
	ck_assert_uint_eq(a.end_seq, 3);
	ck_assert_uint_eq(a.cycles, 101);
	ck_assert_uint_eq(a.threshold_at, 100);
	ck_assert_uint_eq(a.begin_id, l.id[LB]);
	ck_assert_uint_eq(a.end_id, l.id[LE]);
	ck_assert_uint_eq(a.end_tsc, 1000 + 100 + 50 + 101);
	ck_assert_uint_eq(a.thread, 0);
	ck_assert_uint_eq(a.stop_at, 7);        /* 3 + 1 + keep */
	ck_assert(a.wall_ns > 1700000000ll * 1000000000ll);
	breath(&l, 10, 10);                     /* 4-5: cursor 6 < 7, still keeping */
	ck_assert_int_eq(arming_at(p).state, TL_RECORDER_KEEPING);
	breath(&l, 10, 10);                     /* 6-7: cursor 8 >= 7, frozen */
	a = arming_at(p);
	ck_assert_int_eq(a.state, TL_RECORDER_FROZEN);
	ck_assert_uint_eq(tl_rate(l.log), TL_RATE_OFF);
	breath(&l, 10, 10);                     /* the rate off: nothing more */
	breath(&l, 10, 1000);                   /* nor a second trigger */
	in = info_at(p);
	ck_assert_uint_eq(in.cursor, 8);
	ck_assert_int_eq(in.armed, TL_RECORDER_FROZEN);
	a = arming_at(p);
	ck_assert_uint_eq(a.end_seq, 3);
	tl_close(l.log);
}
END_TEST

/* A breath whose first entry since tl_breath() is not its begin, or whose
 * last is not its end, is scanned entry by entry: the trigger's numbers are
 * the begin's and the end's, not the ends of the entries. */
START_TEST(test_a_breath_among_other_entries_is_judged_from_its_own)
{
	const char *p = P("a.timeline");
	struct tlog l = open_t(p, 64);
	tl_arming a;
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .keep = 3, .keep_set = 1 });
	tl_breath(l.log);
	ev(&l, OTHER, 5);      /* 0 */
	ev(&l, LB, 10);        /* 1 */
	ev(&l, OTHER, 50);     /* 2 */
	ev(&l, LE, 50);        /* 3: 100 after 1, not slower */
	ev(&l, OTHER, 500);    /* 4 */
	tl_breath(l.log);
	ck_assert_int_eq(arming_at(p).kind, TL_TRIGGER_NONE);
	ev(&l, OTHER, 5);      /* 5 */
	ev(&l, LB, 10);        /* 6: a gap of 515 after 3, across the breath's call */
	ev(&l, LE, 10);        /* 7 */
	tl_breath(l.log);
	a = arming_at(p);
	ck_assert_int_eq(a.kind, TL_TRIGGER_GAP);
	ck_assert_uint_eq(a.begin_seq, 3);
	ck_assert_uint_eq(a.end_seq, 6);
	ck_assert_uint_eq(a.cycles, 515);
	tl_close(l.log);
	/* the end not last */
	l = open_t(P("b.timeline"), 64);
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .keep = 3, .keep_set = 1 });
	tl_breath(l.log);
	ev(&l, LB, 10);        /* 0 */
	ev(&l, LE, 101);       /* 1 */
	ev(&l, OTHER, 5);      /* 2 */
	tl_breath(l.log);
	a = arming_at(P("b.timeline"));
	ck_assert_int_eq(a.kind, TL_TRIGGER_PAIR);
	ck_assert_uint_eq(a.begin_seq, 0);
	ck_assert_uint_eq(a.end_seq, 1);
	ck_assert_uint_eq(a.cycles, 101);
	tl_close(l.log);
	/* another event first, after breaths judged from their ends: the gap
	 * runs from the last end to the begin, not to that event */
	l = open_t(P("c.timeline"), 64);
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .keep = 3, .keep_set = 1 });
	tl_breath(l.log);
	breath(&l, 0, 10);     /* 0-1 */
	breath(&l, 10, 10);    /* 2-3 */
	ev(&l, OTHER, 100);    /* 4: 100 after 3 */
	ev(&l, LB, 1);         /* 5: 101 after 3 */
	ev(&l, LE, 1);         /* 6 */
	tl_breath(l.log);
	a = arming_at(P("c.timeline"));
	ck_assert_int_eq(a.kind, TL_TRIGGER_GAP);
	ck_assert_uint_eq(a.begin_seq, 3);
	ck_assert_uint_eq(a.end_seq, 5);
	ck_assert_uint_eq(a.cycles, 101);
	tl_close(l.log);
	/* two breaths between two calls, each under the threshold and together
	 * over it: each judged on its own, no trigger */
	l = open_t(P("d.timeline"), 64);
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .keep = 3, .keep_set = 1 });
	tl_breath(l.log);
	breath(&l, 0, 10);     /* 0-1 */
	ev(&l, LB, 10);        /* 2 */
	ev(&l, LE, 60);        /* 3 */
	ev(&l, LB, 10);        /* 4 */
	ev(&l, LE, 60);        /* 5: 130 after 2 */
	tl_breath(l.log);
	ck_assert_int_eq(arming_at(P("d.timeline")).kind, TL_TRIGGER_NONE);
	tl_close(l.log);
}
END_TEST

START_TEST(test_arming_again_while_breathing_judges_by_the_new_threshold)
{
	const char *p = P("a.timeline");
	struct tlog l = open_t(p, 64);
	tl_arming a;
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 1000, .keep_set = 1 });
	tl_breath(l.log);
	breath(&l, 0, 200);    /* 0-1 */
	breath(&l, 10, 200);   /* 2-3: under 1000 */
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .keep_set = 1 });
	breath(&l, 10, 200);   /* 4-5: the thread starts afresh from here */
	ck_assert_int_eq(arming_at(p).kind, TL_TRIGGER_NONE);
	breath(&l, 10, 200);   /* 6-7: over 100 */
	a = arming_at(p);
	ck_assert_int_eq(a.kind, TL_TRIGGER_PAIR);
	ck_assert_uint_eq(a.begin_seq, 6);
	ck_assert_uint_eq(a.end_seq, 7);
	ck_assert_uint_eq(a.threshold_at, 100);
	ck_assert_uint_eq(a.gen, 2);
	tl_close(l.log);
}
END_TEST

START_TEST(test_a_stall_between_breaths_triggers_as_a_gap)
{
	const char *p = P("a.timeline");
	struct tlog l = open_t(p, 64);
	tl_arming a;
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .keep_set = 1 });
	tl_breath(l.log);
	breath(&l, 0, 20);     /* 0-1 */
	breath(&l, 100, 20);   /* 2-3: a gap of exactly 100 */
	ck_assert_int_eq(arming_at(p).kind, TL_TRIGGER_NONE);
	breath(&l, 101, 20);   /* 4-5: the gap from 3 to 4 is 101 */
	a = arming_at(p);
	ck_assert_int_eq(a.kind, TL_TRIGGER_GAP);
	ck_assert_uint_eq(a.begin_seq, 3);
	ck_assert_uint_eq(a.end_seq, 4);
	ck_assert_uint_eq(a.cycles, 101);
	ck_assert_uint_eq(a.begin_id, l.id[LE]);
	ck_assert_uint_eq(a.end_id, l.id[LB]);
	ck_assert_int_eq(a.state, TL_RECORDER_FROZEN);   /* keep 0: at the same breath */
	ck_assert_uint_eq(info_at(p).cursor, 6);
	tl_close(l.log);
}
END_TEST

/* A second thread of the log, driven step by step: each post of GO runs
 * the next step (0: attach and breathe; then: N entries, then a breath),
 * and DONE is posted after it. */
struct second {
	struct tlog *l;
	sem_t go, done;
	int entries, stop;
};

static void *second_thread(void *arg)
{
	struct second *b = arg;
	sem_wait(&b->go);
	tl_thread_attach(b->l->log, "second", NULL);
	tl_breath(b->l->log);
	sem_post(&b->done);
	for (;;) {
		sem_wait(&b->go);
		if (b->stop)
			return NULL;
		for (int i = 0; i < b->entries; i++)
			ev(b->l, OTHER, 1);
		tl_breath(b->l->log);
		sem_post(&b->done);
	}
}

/* Runs the second thread's next step: N entries and a breath. */
static void second_step(struct second *b, int n)
{
	b->entries = n;
	sem_post(&b->go);
	sem_wait(&b->done);
}

/* The thread that triggered stops breathing (it died, or waits): another
 * thread armed logs KEEP entries of its own from its first breath after the
 * trigger, and freezes the log. */
START_TEST(test_another_thread_freezes_when_the_triggering_one_stops_breathing)
{
	const char *p = P("a.timeline");
	struct tlog l = open_t(p, 64);
	struct second b = { .l = &l };
	pthread_t th;
	tl_arming a;
	sem_init(&b.go, 0, 0);
	sem_init(&b.done, 0, 0);
	ck_assert_int_eq(pthread_create(&th, NULL, second_thread, &b), 0);
	second_step(&b, 0);                  /* attached, its first breath */
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .keep = 4, .keep_set = 1 });
	tl_breath(l.log);
	second_step(&b, 0);                  /* both watch from here */
	breath(&l, 10, 10);
	breath(&l, 10, 500);                 /* this thread triggers, and breathes no more */
	a = arming_at(p);
	ck_assert_int_eq(a.kind, TL_TRIGGER_PAIR);
	ck_assert_uint_eq(a.cycles, 500);
	ck_assert_int_eq(a.state, TL_RECORDER_KEEPING);
	second_step(&b, 2);                  /* sees the trigger at 2: keeps to 6 */
	ck_assert_int_eq(arming_at(p).state, TL_RECORDER_KEEPING);
	second_step(&b, 2);                  /* 4 */
	ck_assert_int_eq(arming_at(p).state, TL_RECORDER_KEEPING);
	second_step(&b, 2);                  /* 6: frozen */
	a = arming_at(p);
	ck_assert_int_eq(a.state, TL_RECORDER_FROZEN);
	ck_assert_uint_eq(a.cycles, 500);    /* the trigger kept as it was */
	ck_assert_uint_eq(tl_rate(l.log), TL_RATE_OFF);
	b.stop = 1;
	sem_post(&b.go);
	pthread_join(th, NULL);
	sem_destroy(&b.go);
	sem_destroy(&b.done);
	tl_close(l.log);
}
END_TEST

/* Arms with KEEP, triggers at entries 2-3, and breathes 2 entries at a
 * time: the cursor at which the log froze. */
static uint64_t frozen_at(uint64_t entries, uint64_t keep)
{
	const char *p = P("k.timeline");
	struct tlog l = open_t(p, entries);
	uint64_t cursor;
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .keep = keep, .keep_set = 1 });
	tl_breath(l.log);
	breath(&l, 0, 10);
	breath(&l, 10, 500);
	for (int i = 0; i < 100 && arming_at(p).state != TL_RECORDER_FROZEN; i++)
		breath(&l, 10, 10);
	ck_assert_int_eq(arming_at(p).state, TL_RECORDER_FROZEN);
	ck_assert_uint_eq(arming_at(p).stop_at, 4 + keep);
	cursor = info_at(p).cursor;
	tl_close(l.log);
	unlink(p);
	return cursor;
}

START_TEST(test_keep_0_1_and_the_ring_size_less_one_stop_at_the_breath_that_reaches_them)
{
	tl_error err;
	struct tlog l;
	ck_assert_uint_eq(frozen_at(64, 0), 4);    /* the trigger's breath */
	ck_assert_uint_eq(frozen_at(64, 1), 6);    /* 1 more: the next breath's 2 */
	ck_assert_uint_eq(frozen_at(64, 2), 6);
	ck_assert_uint_eq(frozen_at(64, 3), 8);
	ck_assert_uint_eq(frozen_at(64, 63), 68);  /* 4 + 63 = 67, reached at 68 */
	/* the ring size: the pair would be overwritten; refused */
	l = open_t(P("r.timeline"), 64);
	ck_assert_int_eq(tl_arm(l.log, &(tl_arm_options){ .slower_than_ns = 1, .keep = 64, .keep_set = 1 },
				&err), TL_E_INVAL);
	ck_assert_str_eq(err.msg, test_str("%s: keep 64 is not below the ring size 64 (the slow pair "
					   "would be overwritten)", P("r.timeline")));
	ck_assert_int_eq(arming_at(P("r.timeline")).state, TL_RECORDER_OFF);
	/* the default: a tenth of the ring */
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 1 });
	ck_assert_uint_eq(arming_at(P("r.timeline")).keep, 6);
	tl_close(l.log);
}
END_TEST

START_TEST(test_a_pair_of_two_instances_triggers_on_the_slow_one_with_its_ids)
{
	const char *p = P("a.timeline");
	struct tlog l = open_t(p, 64);
	tl_arming a;
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .pair = "work", .keep_set = 1,
					.keep = 1 });
	tl_breath(l.log);
	ev(&l, WA_B, 0);     /* 0 */
	ev(&l, WB_B, 10);    /* 1 */
	ev(&l, WA_E, 90);    /* 2: a, 100 */
	tl_breath(l.log);
	ev(&l, LB, 0);       /* 3: the breath pair is not armed */
	ev(&l, LE, 500);     /* 4 */
	tl_breath(l.log);
	ck_assert_int_eq(arming_at(p).kind, TL_TRIGGER_NONE);
	ev(&l, WB_E, 1);     /* 5: b, from 1 (1010) to 5 (1601): 591 */
	tl_breath(l.log);
	a = arming_at(p);
	ck_assert_str_eq(a.what, "t.work");
	ck_assert_int_eq(a.mode, 1);
	ck_assert_int_eq(a.kind, TL_TRIGGER_PAIR);
	ck_assert_uint_eq(a.begin_seq, 1);
	ck_assert_uint_eq(a.end_seq, 5);
	ck_assert_uint_eq(a.cycles, 591);
	ck_assert_uint_eq(a.begin_id, l.id[WB_B]);
	ck_assert_uint_eq(a.end_id, l.id[WB_E]);
	ck_assert_int_eq(a.state, TL_RECORDER_KEEPING);   /* 6 < 7 */
	tl_close(l.log);
}
END_TEST

START_TEST(test_on_an_event_triggers_at_its_first_entry)
{
	const char *p = P("a.timeline");
	struct tlog l = open_t(p, 64);
	tl_arming a;
	arm_ok(l.log, (tl_arm_options){ .on = "t.other", .keep_set = 1, .keep = 0 });
	tl_breath(l.log);
	breath(&l, 0, 100000);   /* 0-1: pairs do not count */
	ev(&l, OTHER, 5);        /* 2 */
	ev(&l, OTHER, 5);        /* 3 */
	tl_breath(l.log);
	a = arming_at(p);
	ck_assert_int_eq(a.mode, 3);
	ck_assert_str_eq(a.what, "t.other");
	ck_assert_int_eq(a.kind, TL_TRIGGER_EVENT);
	ck_assert_uint_eq(a.begin_seq, 2);
	ck_assert_uint_eq(a.end_seq, 2);
	ck_assert_uint_eq(a.cycles, 0);
	ck_assert_uint_eq(a.begin_id, l.id[OTHER]);
	ck_assert_int_eq(a.state, TL_RECORDER_FROZEN);
	tl_close(l.log);
}
END_TEST

START_TEST(test_freeze_by_hand_arming_again_and_a_rate_resume)
{
	const char *p = P("a.timeline");
	struct tlog l = open_t(p, 64);
	tl_arming a;
	tl_error err;
	unsigned now;
	int fixed;

	breath(&l, 0, 10);                                   /* 0-1, unarmed */
	ck_assert_msg(tl_freeze_file(p, &err) == TL_OK, "%s", err.msg);
	a = arming_at(p);
	ck_assert_int_eq(a.state, TL_RECORDER_FROZEN);
	ck_assert_int_eq(a.kind, TL_TRIGGER_HAND);
	ck_assert_uint_eq(a.gen, 0);
	breath(&l, 10, 10);                                  /* off */
	ck_assert_uint_eq(info_at(p).cursor, 2);
	/* arming again clears the trigger and resumes at the rate given */
	ck_assert_msg(tl_arm_file(p, &(tl_arm_options){ .slower_than_ns = 100, .rate = 3,
							 .keep_set = 1 }, &err) == TL_OK, "%s", err.msg);
	a = arming_at(p);
	ck_assert_int_eq(a.state, TL_RECORDER_ARMED);
	ck_assert_int_eq(a.kind, TL_TRIGGER_NONE);
	ck_assert_uint_eq(a.gen, 1);
	ck_assert_uint_eq(a.rate, 3);
	ck_assert_uint_eq(tl_rate(l.log), 3);
	tl_breath(l.log);
	breath(&l, 10, 200);                                 /* 2-3 */
	a = arming_at(p);
	ck_assert_int_eq(a.kind, TL_TRIGGER_PAIR);
	ck_assert_uint_eq(a.begin_seq, 2);
	ck_assert_int_eq(a.state, TL_RECORDER_FROZEN);
	/* a freeze by hand keeps the trigger that is there */
	ck_assert_int_eq(tl_freeze_file(p, &err), TL_OK);
	ck_assert_int_eq(arming_at(p).kind, TL_TRIGGER_PAIR);
	/* a rate resumes: not armed, the trigger kept to be read */
	ck_assert_int_eq(tl_rate_file(p, TL_RATE_AUTO, &now, &fixed, &err), TL_OK);
	ck_assert_int_eq(fixed, 0);
	a = arming_at(p);
	ck_assert_int_eq(a.state, TL_RECORDER_OFF);
	ck_assert_int_eq(a.kind, TL_TRIGGER_PAIR);
	tl_breath(l.log);                                    /* draws a rate: 9s logged */
	breath(&l, 10, 1000);                                /* logged, no trigger */
	ck_assert_uint_eq(info_at(p).cursor, 6);
	ck_assert_uint_eq(arming_at(p).end_seq, 3);
	tl_close(l.log);
}
END_TEST

START_TEST(test_arming_refuses_zero_unknown_pairs_events_rates_and_logs_without_a_recorder)
{
	const char *p = P("a.timeline"), *c = P("c.timeline");
	const char *s = P("s.timeline");
	struct tlog l = open_t(p, 64);
	uint16_t minor4 = 4;
	tl_error err;
	char *out, *e;

	ck_assert_int_eq(tl_arm(l.log, &(tl_arm_options){ 0 }, &err), TL_E_INVAL);
	ck_assert_str_eq(err.msg, test_str("%s: a threshold of 0 would trigger at once", p));
	ck_assert_int_eq(tl_arm(l.log, &(tl_arm_options){ .slower_than_ns = 5, .pair = "nope" }, &err),
			 TL_E_INVAL);
	ck_assert_str_eq(err.msg, test_str("%s: no pair 'nope' declared in the log", p));
	ck_assert_int_eq(tl_arm(l.log, &(tl_arm_options){ .on = "t.none" }, &err), TL_E_INVAL);
	ck_assert_str_eq(err.msg, test_str("%s: no event 't.none' in the log", p));
	ck_assert_int_eq(tl_arm(l.log, &(tl_arm_options){ .slower_than_ns = 5, .rate = 10 }, &err),
			 TL_E_INVAL);
	ck_assert_int_eq(tl_arm(tl_disabled(), &(tl_arm_options){ .slower_than_ns = 5 }, &err),
			 TL_E_INVAL);
	ck_assert_int_eq(arming_at(p).state, TL_RECORDER_OFF);
	breath(&l, 0, 10);
	tl_close(l.log);
	/* a copy */
	ck_assert_int_eq(run(test_str("%s copy %s %s", timeline_bin(), p, c), &out, &e), 0);
	free(out);
	free(e);
	ck_assert_int_eq(tl_arm_file(c, &(tl_arm_options){ .slower_than_ns = 5 }, &err), TL_E_INVAL);
	ck_assert_str_eq(err.msg, test_str("%s: a copy has no writer to arm", c));
	ck_assert_int_eq(tl_freeze_file(c, &err), TL_E_INVAL);
	/* a log of format 1.4 */
	patch_file(p, 10, &minor4, 2);
	ck_assert_int_eq(tl_arm_file(p, &(tl_arm_options){ .slower_than_ns = 5 }, &err), TL_E_INVAL);
	ck_assert_str_eq(err.msg, test_str("%s: a log of format 1.4 has no flight recorder (1.5 has)", p));
	/* a Snabb log, and compressed */
	{
		const char *f = getenv("TL_FIXTURES");
		char *fixture = xasprintf("%s/snabb-v3/engine-short.events.timeline.zst",
					  f && *f ? f : "tests/fixtures");
		ck_assert_uint_eq(unzstd(fixture, s), 65000064);
		ck_assert_int_eq(tl_arm_file(s, &(tl_arm_options){ .slower_than_ns = 5 }, &err),
				 TL_E_INVAL);
		ck_assert_str_eq(err.msg, test_str("%s: a Snabb log cannot be armed (no recorder in "
						   "its format)", s));
		ck_assert_int_eq(tl_freeze_file(fixture, &err), TL_E_INVAL);
		ck_assert_str_eq(err.msg, test_str("%s: a compressed copy has no writer to arm", fixture));
		free(fixture);
	}
	/* not a log */
	write_file(s, "hello", 5);
	ck_assert_int_ne(tl_arm_file(s, &(tl_arm_options){ .slower_than_ns = 5 }, &err), TL_OK);
}
END_TEST

/* ---- tcase cli: timeline arm, freeze, and what the commands show ---- */

/* Runs the timeline command line FMT...: its exit status; *OUT and *ERR kept. */
static int tl_run(const char **out, const char **err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int tl_run(const char **out, const char **err, const char *fmt, ...)
{
	va_list ap;
	char *args, *o, *e;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&args, fmt, ap), 0);
	va_end(ap);
	rc = run(test_str("%s %s", timeline_bin(), args), &o, &e);
	free(args);
	*out = test_keep(o);
	*err = test_keep(e);
	return rc;
}

START_TEST(test_a_threshold_is_rounded_up_to_a_whole_tick_and_reads_back_as_given)
{
	const char *p = P("a.timeline");
	struct tlog l = open_t_hz(p, 64, 2095999999);
	const char *out, *e;
	/* 300 us at 2,095,999,999 Hz is 628,799.9997 ticks: 628,800, not 628,799 */
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 300000 });
	ck_assert_uint_eq(arming_at(p).threshold, 628800);
	ck_assert_int_eq(tl_run(&out, &e, "info %s", p), 0);
	ck_assert_ptr_nonnull(strstr(out, "slower than 300.000 us (628800 cycles)"));
	tl_close(l.log);
}
END_TEST

/* The log of the lib tests frozen by its own trigger: entries 0-5 before
 * arming and after, the slow pair 6-7 (150 > 100), keep 3, frozen at
 * cursor 12; its trigger's wall time set to 2025-11-24T16:00:00.123456789Z.
 * Left open: its writer, this process, runs. */
static struct tlog frozen_log(const char *p)
{
	struct tlog l = open_t(p, 64);
	int64_t wall = 1764000000123456789ll;
	breath(&l, 0, 10);
	breath(&l, 10, 10);
	arm_ok(l.log, (tl_arm_options){ .slower_than_ns = 100, .keep = 3, .keep_set = 1 });
	tl_breath(l.log);
	breath(&l, 10, 10);
	breath(&l, 10, 150);
	for (int i = 0; i < 3; i++)
		breath(&l, 10, 10);
	patch_file(p, TL_HDR_ARM + offsetof(struct tl_arm, wall_ns), &wall, sizeof wall);
	return l;
}

START_TEST(test_info_ls_top_and_dump_trigger_are_exact_on_a_frozen_log)
{
	const char *p = P("fz.timeline"), *out, *err, *line;
	struct tlog l = frozen_log(p);
	ck_assert_int_eq(tl_run(&out, &err, "info %s", p), 0);
	ck_assert_ptr_nonnull(strstr(out, "\n  rate         off, fixed (8 breaths)\n"
				     "  recorder     frozen: t.loop slower than 100 ns (100 cycles), "
				     "keep 3, rate all\n"
				     "  trigger      pair t.loop: 150 cycles (150 ns) > 100 ns, thread 0, "
				     "entries 6 to 7, at 2025-11-24T16:00:00.123456789Z\n"));
	ck_assert_int_eq(tl_run(&out, &err, "info --format json %s | python3 -c 'import json,sys; "
				"d=json.load(sys.stdin); print(d[\"recorder\"], d[\"trigger\"])'", p), 0);
	ck_assert_str_eq(out, "{'state': 'frozen', 'mode': 'breath', 'what': 't.loop', "
			 "'threshold_cycles': 100, 'keep': 3, 'armed_times': 1} {'kind': 'pair', "
			 "'attrs': '', 'thread': 0, 'cycles': 150, 'threshold_cycles': 100, "
			 "'begin_seq': 6, 'end_seq': 7, 'end_tsc': 1210, 'stop_at': 11, "
			 "'wall': '2025-11-24T16:00:00.123456789Z'}\n");
	ck_assert_int_eq(tl_run(&out, &err, "ls %s", test_dir), 0);
	line = strstr(out, p);
	ck_assert_ptr_nonnull(line);
	ck_assert_str_eq(line + strlen(p), " (frozen: pair)\n");
	ck_assert_int_eq(tl_run(&out, &err, "ls --format json %s | python3 -c 'import json,sys; "
				"d=json.loads(sys.stdin.readline()); print(d[\"recorder\"], d[\"trigger\"])'",
				test_dir), 0);
	ck_assert_str_eq(out, "frozen pair\n");
	ck_assert_int_eq(tl_run(&out, &err, "top -b -n 1 -d 0.1 -f json %s | python3 -c 'import json,"
				"sys; d=json.load(sys.stdin)[\"logs\"][0]; print(d[\"rate\"], d[\"recorder\"],"
				" d[\"trigger\"], d[\"trigger_cycles\"])'", test_dir), 0);
	ck_assert_str_eq(out, "off frozen pair 150\n");
	ck_assert_int_eq(tl_run(&out, &err, "top -b -n 1 -d 0.1 %s", test_dir), 0);
	ck_assert_ptr_nonnull(strstr(out, test_str(" lost to lapping  TRIGGER %d test: pair t.loop "
						   "150 ns > 100 ns\n", (int)getpid())));
	ck_assert_int_eq(tl_run(&out, &err, "dump --trigger=2 %s", p), 0);
	ck_assert_str_eq(out, test_str(
		"# %s: trigger pair t.loop: 150 cycles (150 ns) > 100 ns, thread 0, entries 6 to 7, "
		"at 2025-11-24T16:00:00.123456789Z\n"
		"           -20   0  0  t.loop_begin n=1040\n"
		"           -10   0  0  t.loop_end n=1050\n"
		"# >>> the slow pair begins (entry 6)\n"
		"             0   0  0  t.loop_begin n=1060\n"
		"# <<< the slow pair ends (entry 7): 150 cycles > 100\n"
		"           150   0  0  t.loop_end n=1210\n"
		"           160   0  0  t.loop_begin n=1220\n"
		"           170   0  0  t.loop_end n=1230\n", p));
	ck_assert_str_eq(err, "");
	/* the default window, 20 around: the whole ring here, 0 to 11 */
	ck_assert_int_eq(tl_run(&out, &err, "dump --trigger -f csv %s | wc -l", p), 0);
	ck_assert_str_eq(out, "13\n");
	ck_assert_int_eq(tl_run(&out, &err, "dump --trigger=0 -f csv %s", p), 0);
	ck_assert_ptr_nonnull(strstr(out, ",6,1060,0,"));
	ck_assert_ptr_nonnull(strstr(out, ",7,1210,150,"));
	ck_assert_ptr_null(strstr(out, ",5,"));
	ck_assert_ptr_null(strstr(out, ",8,"));
	ck_assert_str_eq(err, test_str("timeline dump: %s: >>> the slow pair begins (entry 6)\n"
				       "timeline dump: %s: <<< the slow pair ends (entry 7): 150 "
				       "cycles > 100\n", p, p));
	/* a copy keeps it frozen, with its trigger */
	ck_assert_int_eq(tl_run(&out, &err, "copy %s %s", p, P("c.timeline")), 0);
	ck_assert_int_eq(tl_run(&out, &err, "info %s", P("c.timeline")), 0);
	ck_assert_ptr_nonnull(strstr(out, "  trigger      pair t.loop: 150 cycles (150 ns) > 100 ns, "
				     "thread 0, entries 6 to 7, at 2025-11-24T16:00:00.123456789Z\n"));
	tl_close(l.log);
}
END_TEST

/* The report marks the trigger on the over-time chart of its log (a
 * freeze by hand, without a timestamp, only in the caption), and stats
 * --slowest names it first; a log never armed has none. */
START_TEST(test_report_and_stats_slowest_show_the_trigger_of_a_frozen_log)
{
	const char *p = P("fz.timeline"), *q = P("plain.timeline"), *h = P("hand.timeline");
	const char *out, *err, *wall = "at 2025-11-24T16:00:00.123456789Z";
	const char *trig = "pair t.loop: 150 cycles (150 ns) > 100 ns, thread 0, entries 6 to 7";
	struct tlog l = frozen_log(p), m = open_t(q, 64), n = open_t(h, 64);
	int64_t at = 1764000000123456789ll;
	tl_error e;
	char *o, *x;
	breath(&m, 0, 10);
	breath(&m, 10, 20);
	breath(&n, 0, 30);
	ck_assert_int_eq(tl_freeze_file(h, &e), TL_OK);
	patch_file(h, TL_HDR_ARM + offsetof(struct tl_arm, wall_ns), &at, sizeof at);
	/* JSON: the trigger where the chart's t0 and span place it */
	ck_assert_int_eq(tl_run(&out, &err, "report -f json %s %s %s | python3 -c 'import json,sys\n"
				"for l in sys.stdin:\n d=json.loads(l)\n if d.get(\"kind\")==\"time\": "
				"print(d[\"path\"].split(\"/\")[-1], d[\"t0\"], d[\"span\"], d[\"trigger\"])'",
				p, q, h), 0);
	ck_assert_str_eq(out, test_str(
		"fz.timeline 1000 251 {'kind': 'pair', 'what': 't.loop', 'thread': 0, 'cycles': 150, "
		"'threshold_cycles': 100, 'begin_tsc': 1060, 'end_tsc': 1210, 'begin_seq': 6, "
		"'end_seq': 7, 'text': '%s, %s'}\n"
		"plain.timeline 1000 41 None\n"
		"hand.timeline 1000 31 {'kind': 'hand', 'what': '', 'thread': 0, 'cycles': 0, "
		"'threshold_cycles': 0, 'begin_tsc': None, 'end_tsc': None, 'begin_seq': 0, "
		"'end_seq': 0, 'text': 'by hand, %s'}\n", trig, wall, wall));
	ck_assert_str_eq(err, "");
	/* HTML: the caption's line, and a band from 60 to 210 ticks of 251 (the
	 * plot 858 px wide from x 78) with a dashed line at its end */
	ck_assert_int_eq(tl_run(&out, &err, "report -o %s %s %s %s", P("r.html"), p, q, h), 0);
	ck_assert_int_eq(run(test_str("grep -o '<span class=.trig.>[^<]*</span>\\|<rect class=."
				      "trig-band.[^>]*>\\|<line class=.trig-line.[^>]*>\\|>trigger<' %s",
				      P("r.html")), &o, &x), 0);
	ck_assert_str_eq(o, test_str(
		"<span class=\"trig\">flight recorder&#39;s trigger: pair t.loop: 150 cycles (150 ns) "
		"&gt; 100 ns, thread 0, entries 6 to 7, %s</span>\n"
		"<rect class=\"trig-band\" x=\"283.1\" y=\"42.0\" width=\"512.7\" height=\"232.0\"/>\n"
		"<line class=\"trig-line\" x1=\"795.8\" y1=\"42.0\" x2=\"795.8\" y2=\"274.0\"/>\n"
		">trigger<\n"
		"<span class=\"trig\">flight recorder&#39;s trigger: by hand, %s</span>\n", wall, wall));
	free(o);
	free(x);
	/* stats --slowest: the trigger's pair first, the plain and the hand-frozen logs not */
	ck_assert_int_eq(tl_run(&out, &err, "stats --slowest 2 %s %s %s", p, q, h), 0);
	ck_assert_ptr_nonnull(strstr(out, test_str(
		"\nthe trigger's pair first (timeline arm)\n"
		"  %s: %s, %s; timeline dump --trigger %s\n\n"
		"the 2 slowest pairs of each group", p, trig, wall, p)));
	ck_assert_ptr_null(strstr(out, test_str("%s: ", q)));
	ck_assert_ptr_null(strstr(out, test_str("%s: ", h)));
	ck_assert_str_eq(err, "");
	/* JSON: a line of the table "trigger", just before the ranks */
	ck_assert_int_eq(tl_run(&out, &err, "stats --slowest 2 -f json %s %s %s | python3 -c 'import "
				"json,sys\nfor l in sys.stdin:\n d=json.loads(l)\n if d[\"table\"]==\"trigger\":"
				" print(d)\n if d[\"table\"]==\"slowest\": print(d[\"table\"], d[\"cycles\"])'",
				p, q, h), 0);
	ck_assert_str_eq(out, test_str(
		"{'table': 'trigger', 'path': '%s', 'kind': 'pair', 'pair': 't.loop', 'attrs': '', "
		"'thread': 0, 'cycles': 150, 'threshold_cycles': 100, 'begin_seq': 6, 'end_seq': 7, "
		"'wall': '2025-11-24T16:00:00.123456789Z', 'dump': 'timeline dump --trigger %s'}\n"
		"slowest 150\nslowest 30\n", p, p));
	ck_assert_str_eq(err, "");
	tl_close(l.log);
	tl_close(m.log);
	tl_close(n.log);
}
END_TEST

START_TEST(test_arm_freeze_and_rate_say_each_log_and_refuse_with_one_line)
{
	const char *d = P("d"), *out, *err, *p, *q, *s;
	struct tlog l, m;
	ck_assert_int_eq(mkdir(d, 0700), 0);
	p = test_str("%s/%s", d, "a.timeline");
	q = test_str("%s/%s", d, "b.timeline");
	s = P("s.timeline");
	l = open_t(p, 64);
	m = open_t(q, 64);
	ck_assert_int_eq(tl_run(&out, &err, "arm %s --slower-than 200us --keep 3", d), 0);
	ck_assert_str_eq(out, test_str("%s: armed: t.loop slower than 200us, keep 3\n"
				       "%s: armed: t.loop slower than 200us, keep 3\n", p, q));
	ck_assert_str_eq(err, "");
	ck_assert_uint_eq(arming_at(q).threshold, 200000);
	ck_assert_int_eq(tl_run(&out, &err, "arm %s --on 't.begin app=b' --rate 4", p), 0);
	ck_assert_str_eq(out, test_str("%s: armed: on t.begin app=b, keep 6\n", p));
	ck_assert_uint_eq(tl_rate(l.log), 4);
	ck_assert_int_eq(tl_run(&out, &err, "freeze %s", d), 0);
	ck_assert_str_eq(out, test_str("%s: frozen\n%s: frozen\n", p, q));
	ck_assert_int_eq(arming_at(p).kind, TL_TRIGGER_HAND);
	ck_assert_int_eq(tl_run(&out, &err, "rate %s auto", p), 0);
	ck_assert_str_eq(out, test_str("%s: auto, drawn every breath, now off\n"
				       "%s: frozen no more: logging resumes\n", p, p));
	ck_assert_int_eq(arming_at(p).state, TL_RECORDER_OFF);
	/* refusals: one line each, exit 2, the other logs still done */
	ck_assert_int_eq(tl_run(&out, &err, "arm %s --slower-than 0", p), 2);
	ck_assert_str_eq(err, "timeline arm: --slower-than TIME must be a duration above 0, e.g. "
			      "200us\nsee 'timeline arm --help'\n");
	ck_assert_int_eq(tl_run(&out, &err, "arm %s --slower-than 1ms --pair nope", p), 2);
	ck_assert_str_eq(err, test_str("timeline arm: %s: no pair 'nope' declared in the log\n", p));
	ck_assert_int_eq(tl_run(&out, &err, "arm %s --slower-than 1ms --keep 64", p), 2);
	ck_assert_str_eq(err, test_str("timeline arm: %s: keep 64 is not below the ring size 64 (the "
				       "slow pair would be overwritten)\n", p));
	ck_assert_int_eq(tl_run(&out, &err, "arm --slower-than 1ms %s", p), 0);
	tl_close(l.log);
	tl_close(m.log);
	{
		const char *f = getenv("TL_FIXTURES");
		char *fixture = xasprintf("%s/snabb-v3/engine-short.events.timeline.zst",
					  f && *f ? f : "tests/fixtures");
		ck_assert_uint_eq(unzstd(fixture, s), 65000064);
		free(fixture);
	}
	ck_assert_int_eq(tl_run(&out, &err, "copy %s %s", q, P("c.timeline")), 0);
	ck_assert_int_eq(tl_run(&out, &err, "arm --slower-than 1ms %s %s %s", s,
				P("c.timeline"), q), 2);
	ck_assert_str_eq(out, test_str("%s: armed: t.loop slower than 1ms, keep 6\n", q));
	ck_assert_str_eq(err, test_str("timeline arm: %s: a Snabb log cannot be armed (no recorder in "
				       "its format)\n"
				       "timeline arm: %s: a copy has no writer to arm\n", s,
				       P("c.timeline")));
	ck_assert_int_eq(tl_run(&out, &err, "freeze %s", s), 2);
	ck_assert_int_eq(tl_run(&out, &err, "arm --slower-than 1ms"), 2);
	ck_assert_str_eq(err, "timeline arm: missing log file\nsee 'timeline arm --help'\n");
}
END_TEST

/* ---- tcase race: processes racing ---- */

/* A writer flat out at P: breaths of the loop pair 100 ticks long (a
 * monotonic clock of its own, manual, so lengths are what it says), until
 * killed. */
static void flat_out_writer(const char *p)
{
	struct tlog l = open_t(p, 1024);
	for (;;) {
		breath(&l, 1, 100);
		ev(&l, OTHER, 1);
	}
}

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Waits until the log at P is there, its header written: 5 s at most. */
static void wait_log(const char *p)
{
	for (int64_t end = mono_ns() + 5000000000ll; mono_ns() < end; usleep(1000)) {
		tl_reader *r = tl_reader_open(p, NULL);
		if (r) {
			tl_reader_close(r);
			return;
		}
	}
}

/* Waits until the log at P has had MORE breaths than now; 0 when its
 * writer made none in 5 s. */
static int breaths_pass(const char *p, uint64_t more)
{
	uint64_t b0 = info_at(p).breaths;
	for (int64_t end = mono_ns() + 5000000000ll; mono_ns() < end;)
		if (info_at(p).breaths >= b0 + more)
			return 1;
	return 0;
}

START_TEST(test_arm_and_freeze_race_a_flat_out_writer_and_each_ends_as_asked)
{
	const char *p = P("race.timeline");
	pid_t w = fork();
	tl_error err;
	tl_arming a;
	int frozen = 0, armed = 0, triggered = 0;
	ck_assert_int_ge(w, 0);
	if (w == 0) {
		flat_out_writer(p);
		_exit(0);
	}
	wait_log(p);
	ck_assert_int_eq(breaths_pass(p, 10), 1);
	for (int i = 0; i < 200; i++) {
		/* the threshold is the breath's length now and then: a trigger
		 * races the freeze */
		tl_arm_options o = { .slower_than_ns = i % 4 == 3 ? 50 : 1000000, .keep_set = 1,
				     .keep = (uint64_t)(i % 3) };
		ck_assert_msg(tl_arm_file(p, &o, &err) == TL_OK, "%s", err.msg);
		a = arming_at(p);
		ck_assert_int_ge(a.state, TL_RECORDER_ARMED);   /* as asked, or since triggered */
		ck_assert_uint_eq(a.gen, (uint64_t)i + 1);
		armed++;
		if (i % 2) {
			ck_assert_int_eq(breaths_pass(p, 3), 1);
			ck_assert_int_eq(tl_freeze_file(p, &err), TL_OK);
			a = arming_at(p);
			ck_assert_int_eq(a.state, TL_RECORDER_FROZEN);
			ck_assert_int_ne(a.kind, TL_TRIGGER_NONE);
			ck_assert_uint_eq(info_at(p).rate, TL_RATE_OFF);
			triggered += a.kind == TL_TRIGGER_PAIR;
			if (a.kind == TL_TRIGGER_PAIR) {
				ck_assert_uint_eq(a.cycles, 100);
				ck_assert_uint_eq(a.end_seq, a.begin_seq + 1);
			}
			frozen++;
		}
	}
	/* killed while armed: what it wrote reads, copies and freezes */
	ck_assert_int_eq(tl_arm_file(p, &(tl_arm_options){ .slower_than_ns = 1000000 }, &err), TL_OK);
	ck_assert_int_eq(breaths_pass(p, 3), 1);
	kill(w, SIGKILL);
	ck_assert_int_eq(reap(w), -1);
	ck_assert_int_eq(arming_at(p).state, TL_RECORDER_ARMED);
	{
		size_t n;
		uint64_t skipped;
		tl_entry *v = read_all(p, &n, &skipped);
		ck_assert_uint_ge(n, 1000);
		/* at most the entry it was writing, marked busy, and the one its
		 * slot held, inside the window */
		ck_assert_uint_le(skipped, 2);
		free(v);
	}
	ck_assert_int_eq(tl_freeze_file(p, &err), TL_OK);
	ck_assert_int_eq(arming_at(p).kind, TL_TRIGGER_HAND);
	ck_assert_int_eq(run(test_str("%s copy %s %s", timeline_bin(), p,
				      P("copy.timeline")), NULL, NULL), 0);
	ck_assert_int_eq(arming_at(P("copy.timeline")).state, TL_RECORDER_FROZEN);
	ck_assert_int_eq(frozen, 100);
	ck_assert_int_eq(armed, 200);
	ck_assert_int_ge(triggered, 0);
}
END_TEST

/* Writers killed at random moments while armed at a threshold they pass
 * now and then: every log they leave reads, keeps a trigger whose pair
 * is as long as its entries say, and is frozen or still armed. */
START_TEST(test_writers_killed_while_armed_leave_logs_that_read_and_a_sound_trigger)
{
	for (int round = 0; round < 20; round++) {
		const char *p = P(test_str("k%d.timeline", round));
		pid_t w = fork();
		tl_arming a;
		tl_error err;
		ck_assert_int_ge(w, 0);
		if (w == 0) {
			struct tlog l = open_t(p, 256);
			tl_arm_options o = { .slower_than_ns = 150, .keep_set = 1, .keep = 100 };
			tl_arm(l.log, &o, &err);
			for (uint64_t k = 0;; k++) {
				breath(&l, 1, k % 997 == 996 ? 151 : 100);
				ev(&l, OTHER, 1);
			}
		}
		wait_log(p);
		ck_assert_int_eq(breaths_pass(p, (uint64_t)(round * 97 % 2000) + 1), 1);
		kill(w, SIGKILL);
		ck_assert_int_eq(reap(w), -1);
		a = arming_at(p);
		ck_assert_int_ge(a.state, TL_RECORDER_ARMED);
		if (a.kind) {
			ck_assert_int_eq(a.kind, TL_TRIGGER_PAIR);
			ck_assert_uint_eq(a.cycles, 151);
			ck_assert_uint_eq(a.end_seq, a.begin_seq + 1);
			ck_assert_uint_eq(a.stop_at, a.end_seq + 101);
		}
		ck_assert_int_eq(tl_freeze_file(p, &err), TL_OK);
		ck_assert_int_eq(arming_at(p).state, TL_RECORDER_FROZEN);
	}
	/* frozen, their writers dead: a copy keeps the state, gc removes them */
	{
		const char *out, *err, *c = P("copy.timeline");
		struct stat st;
		ck_assert_int_eq(tl_run(&out, &err, "copy %s %s", P("k7.timeline"), c), 0);
		ck_assert_int_eq(arming_at(c).state, TL_RECORDER_FROZEN);
		ck_assert_int_eq(tl_run(&out, &err, "gc %s", test_dir), 0);
		ck_assert_msg(strstr(out, "copy.timeline: kept: a copy\n") != NULL, "%s", out);
		ck_assert_msg(strstr(out, "gc: 20 logs removed, 1 kept, 0 failed;") != NULL, "%s", out);
		for (int round = 0; round < 20; round++) {
			char k[4096];
			snprintf(k, sizeof k, "%s/k%d.timeline", test_dir, round);
			ck_assert_int_ne(stat(k, &st), 0);
		}
		ck_assert_int_eq(stat(c, &st), 0);
	}
}
END_TEST

/* ---- tcase engine: the demo engine stopped from outside ---- */

static const char *engine_bin(void)
{
	const char *b = getenv("TL_ENGINE");
	return b && *b ? b : "build/examples/engine/engine";
}

/* The log the engine of pid PID writes in the test's directory. */
static const char *engine_log(pid_t pid)
{
	return P(test_str("engine-%d.timeline", (int)pid));
}

/* Is entry SEQ of thread 0 in the log at P, at TSC? */
static int entry_at(const char *p, uint64_t seq, uint64_t *tsc)
{
	size_t n;
	uint64_t skipped;
	tl_entry *v = read_all(p, &n, &skipped);
	int found = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].thread == 0 && v[i].seq == seq) {
			*tsc = v[i].tsc;
			found = 1;
		}
	free(v);
	return found;
}

START_TEST(test_the_engine_stopped_20_ms_is_caught_and_kept_10_times_in_10)
{
	/* on CPU 0: the busy loop of a loaded run is on CPU 1 (tests/README.md) */
	pid_t e = spawn(test_str("exec %s --dir %s --seconds 60 --rate all --entries 65536 --seed 7 "
				 "--cpu 0 >/dev/null", engine_bin(), test_dir));
	const char *p = engine_log(e);
	int caught = 0, natural = 0;
	tl_error err;
	wait_log(p);
	ck_assert_int_eq(breaths_pass(p, 1000), 1);
	while (caught < 10) {
		tl_arming a;
		tl_info in;
		uint64_t bt, et;
		int64_t stop, cont, ns;
		ck_assert_msg(tl_arm_file(p, &(tl_arm_options){ .slower_than_ns = 5000000 }, &err) ==
				      TL_OK, "%s", err.msg);
		ck_assert_int_eq(breaths_pass(p, 3), 1);   /* it has the settings */
		stop = mono_ns();
		kill(e, SIGSTOP);
		usleep(20000);
		cont = mono_ns();
		kill(e, SIGCONT);
		for (int64_t end = mono_ns() + 5000000000ll;
		     arming_at(p).state != TL_RECORDER_FROZEN && mono_ns() < end;)
			usleep(1000);
		a = arming_at(p);
		in = info_at(p);
		ck_assert_int_eq(a.state, TL_RECORDER_FROZEN);
		ck_assert(a.kind == TL_TRIGGER_PAIR || a.kind == TL_TRIGGER_GAP);
		/* whichever stall it kept is in the ring, as long as recorded */
		ck_assert_int_eq(entry_at(p, a.begin_seq, &bt), 1);
		ck_assert_int_eq(entry_at(p, a.end_seq, &et), 1);
		ck_assert_uint_eq(et - bt, a.cycles);
		ck_assert_uint_gt(a.cycles, a.threshold_at);
		/* a stall of its own before the stop (a loaded machine: the
		 * scheduler) is the first outlier, rightly kept; it is not this
		 * one: try again, at most 20 times */
		if (tl_wall_ns(&in, a.end_tsc) < (int64_t)(in.anchor_realtime_ns +
							   (stop - (int64_t)in.anchor_monotonic_ns))) {
			ck_assert_int_lt(++natural, 20);
			continue;
		}
		ns = (int64_t)tl_ticks_to_ns(a.cycles, in.tsc_hz);
		ck_assert_msg(ns >= (cont - stop) * 9 / 10, "stall %lld ns, trigger %lld ns",
			      (long long)(cont - stop), (long long)ns);
		caught++;
	}
	kill(e, SIGKILL);
	reap(e);
	ck_assert_int_eq(caught, 10);
}
END_TEST

Suite *arm_suite(void)
{
	Suite *s = suite_create("arm");
	TCase *t = tcase_create("lib");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_add_test(t, test_a_slow_breath_triggers_with_its_entry_numbers_and_keeps_3_more);
	tcase_add_test(t, test_a_stall_between_breaths_triggers_as_a_gap);
	tcase_add_test(t, test_a_breath_among_other_entries_is_judged_from_its_own);
	tcase_add_test(t, test_arming_again_while_breathing_judges_by_the_new_threshold);
	tcase_add_test(t, test_another_thread_freezes_when_the_triggering_one_stops_breathing);
	tcase_add_test(t, test_keep_0_1_and_the_ring_size_less_one_stop_at_the_breath_that_reaches_them);
	tcase_add_test(t, test_a_pair_of_two_instances_triggers_on_the_slow_one_with_its_ids);
	tcase_add_test(t, test_on_an_event_triggers_at_its_first_entry);
	tcase_add_test(t, test_freeze_by_hand_arming_again_and_a_rate_resume);
	tcase_add_test(t, test_arming_refuses_zero_unknown_pairs_events_rates_and_logs_without_a_recorder);
	suite_add_tcase(s, t);
	t = tcase_create("cli");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_info_ls_top_and_dump_trigger_are_exact_on_a_frozen_log);
	tcase_add_test(t, test_a_threshold_is_rounded_up_to_a_whole_tick_and_reads_back_as_given);
	tcase_add_test(t, test_arm_freeze_and_rate_say_each_log_and_refuse_with_one_line);
	tcase_add_test(t, test_report_and_stats_slowest_show_the_trigger_of_a_frozen_log);
	suite_add_tcase(s, t);
	t = tcase_create("race");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_arm_and_freeze_race_a_flat_out_writer_and_each_ends_as_asked);
	tcase_add_test(t, test_writers_killed_while_armed_leave_logs_that_read_and_a_sound_trigger);
	suite_add_tcase(s, t);
	t = tcase_create("engine");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_the_engine_stopped_20_ms_is_caught_and_kept_10_times_in_10);
	suite_add_tcase(s, t);
	return s;
}
