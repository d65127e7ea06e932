/* check_switch.c: event switches (issue 28): an event switched off is never
 * written and each change is recorded by the writer before its next entry
 * (tcase "lib"); a writer logging flat out while another process flips a
 * switch 10,000 times, read live, never shows an entry of the event while
 * its record says off, nor a torn entry; writers killed while switches flip keep every returned
 * event (tcase "race"); `timeline enable` and `disable` (tcase "cli");
 * rules for events registered later, and registrations racing `disable`
 * (tcase "rules"). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"
#include "app_events.h"   /* generated from events/app.events */

static const char *const defs[] = {
	"5,5|t.a: n m\nEvent a.", "5,5|t.b: n m\nEvent b.", "5,5|t.c: n m\nEvent c, never logged.",
};

/* Opens a log at P with the clock CLOCK and ENTRIES slots and registers
 * t.a, t.b and t.c into IDS. */
static tl_log *open_abc(const char *p, int clock, uint64_t entries, uint16_t ids[3])
{
	tl_options o = { .entries = entries, .clock = clock, .tsc_hz = 1000000000,
			 .strings_bytes = 4096, .name = "sw", .no_prefault = 1 };
	tl_error err;
	tl_log *log = tl_open(p, &o, &err);
	ck_assert_msg(log != NULL, "tl_open: %s", err.msg);
	ck_assert_int_eq(tl_register(log, defs, 3, NULL, ids, &err), TL_OK);
	return log;
}

/* Switches ID of the log at P off (OFF) or on; returns how many changed. */
static size_t flip_one(const char *p, uint16_t id, int off)
{
	uint8_t o = (uint8_t)off;
	size_t changed = 99;
	tl_error err;
	ck_assert_msg(tl_switch_file(p, &id, &o, 1, &changed, &err) == TL_OK, "%s", err.msg);
	return changed;
}

static uint64_t bit_of(uint16_t id)
{
	return 1ull << ((id >> 2) & 63);
}

START_TEST(test_switched_off_event_is_never_written_and_the_change_is_recorded_first)
{
	const char *p = path_in(test_dir, "a.timeline");
	uint16_t ids[3];
	tl_log *log = open_abc(p, TL_CLOCK_MANUAL, 64, ids);
	tl_entry *v;
	tl_reader *r;
	tl_info in;
	tl_error err;
	size_t n;

	ck_assert_uint_eq(ids[0], 0);   /* 128-byte aligned: 0, 8, 16 */
	ck_assert_uint_eq(ids[1], 8);
	ck_assert_uint_eq(ids[2], 16);
	tl_set_manual_clock(log, 100, 1);
	tl_append(log, ids[0], 1, 0, 0, 0, 0, 0);
	ck_assert_uint_eq(flip_one(p, ids[0], 1), 1);
	ck_assert_uint_eq(flip_one(p, ids[0], 1), 0);   /* already off: no change */
	ck_assert_int_eq(tl_switched_off(log, ids[0]), 1);
	ck_assert_int_eq(tl_switched_off(log, ids[1]), 0);
	tl_set_manual_clock(log, 200, 1);
	tl_append(log, ids[0], 2, 0, 0, 0, 0, 0);      /* off: dropped, by each entry point */
	tl_append_c(log, ids[0], 3, 0, 0, 0, 0, 0);
	tl_event(log, tl_event_code(ids[0], 9), 4, 0, 0, 0, 0, 0);
	tl_event_c(log, tl_event_code(ids[0], 9), 5, 0, 0, 0, 0, 0);
	tl_append(log, ids[1], 6, 0, 0, 0, 0, 0);      /* on: the record, then b */
	tl_append(log, ids[1], 7, 0, 0, 0, 0, 0);      /* no second record */
	ck_assert_uint_eq(flip_one(p, ids[0], 0), 1);
	tl_set_manual_clock(log, 300, 1);
	tl_append_c(log, ids[0], 8, 0, 0, 0, 0, 0);    /* the C twin records too */
	tl_close(log);

	v = read_all(p, &n, NULL);
	ck_assert_uint_eq(n, 6);
	ck_assert_uint_eq(v[0].msgid, ids[0]);
	ck_assert_uint_eq(v[0].args[0], 1);
	/* the record: generation 1, first 0, words 0..3 after the change */
	ck_assert_uint_eq(v[1].msgid, 24);             /* interned after t.c, at 384 */
	ck_assert_uint_eq(v[1].tsc, 200);
	ck_assert_uint_eq(v[1].args[0], 1);
	ck_assert_uint_eq(v[1].args[1], 0);
	ck_assert_uint_eq(v[1].args[2], bit_of(ids[0]));
	ck_assert_uint_eq(v[1].args[3] | v[1].args[4] | v[1].args[5], 0);
	ck_assert_uint_eq(v[2].msgid, ids[1]);
	ck_assert_uint_eq(v[2].args[0], 6);
	ck_assert_uint_eq(v[3].args[0], 7);
	ck_assert_uint_eq(v[4].msgid, 24);             /* generation 2: all on */
	ck_assert_uint_eq(v[4].args[0], 2);
	ck_assert_uint_eq(v[4].args[2], 0);
	ck_assert_uint_eq(v[5].msgid, ids[0]);
	ck_assert_uint_eq(v[5].args[0], 8);

	r = tl_reader_open(p, &err);
	ck_assert_str_eq(tl_reader_string(r, 24),
			 "9,9|timeline.switches: generation first off0 off1 off2 off3\n"
			 "The event switches of this log after an outside process changed them\n"
			 "(timeline enable, timeline disable), recorded by the writer before its\n"
			 "next entry: generation counts the changes made; off0 to off3 are the\n"
			 "switch words first to first + 3, where bit b of word w set means the\n"
			 "message ids 4 * (64 * w + b) to that + 3 are off. A record starts\n"
			 "with first = 0; the words it leaves out are 0.\n");
	ck_assert_int_eq(tl_reader_is_switch_entry(r, &v[1]), 1);
	ck_assert_int_eq(tl_reader_is_switch_entry(r, &v[2]), 0);
	tl_reader_info(r, &in);
	ck_assert_uint_eq(in.minor, 5);
	ck_assert_uint_eq(in.switched_off, 0);
	ck_assert_uint_eq(in.switch_gen, 2);
	ck_assert_uint_eq(in.switch_seen, 2);
	tl_reader_close(r);
	free(v);
}
END_TEST

START_TEST(test_a_record_names_every_word_that_is_or_was_off)
{
	const char *p = path_in(test_dir, "w.timeline");
	uint16_t ids[3], far = 4 * 64 * 9 + 4 * 4;   /* word 9 (group 2), bit 4 */
	uint64_t words[TL_SWITCH_WORDS_PER_LOG] = { 0 };
	tl_log *log = open_abc(p, TL_CLOCK_MANUAL, 64, ids);
	tl_entry *v;
	size_t n;
	ck_assert_uint_eq(flip_one(p, far, 1), 1);
	tl_append(log, ids[1], 1, 0, 0, 0, 0, 0);
	ck_assert_uint_eq(flip_one(p, far, 0), 1);
	tl_append(log, ids[1], 2, 0, 0, 0, 0, 0);
	ck_assert_uint_eq(flip_one(p, ids[2], 1), 1);
	tl_append(log, ids[1], 3, 0, 0, 0, 0, 0);
	tl_close(log);
	v = read_all(p, &n, NULL);
	/* gen 1: group 0 (all 0), group 2 (word 9 = bit 3); b 1; gen 2: group 0,
	 * group 2 (now 0, was not); b 2; gen 3: group 0 (c off) alone; b 3 */
	ck_assert_uint_eq(n, 8);
	ck_assert_uint_eq(v[0].args[1], 0);
	ck_assert_uint_eq(v[1].args[1], 8);
	ck_assert_uint_eq(v[1].args[3], 1ull << 4);
	ck_assert_uint_eq(tl_switch_apply(words, &v[0]), 0);
	ck_assert_uint_eq(tl_switch_apply(words, &v[1]), 1);
	ck_assert_int_eq(tl_switch_is_off(words, far), 1);
	ck_assert_uint_eq(v[3].args[0], 2);
	ck_assert_uint_eq(v[4].args[1], 8);
	ck_assert_uint_eq(v[4].args[3], 0);
	ck_assert_uint_eq(tl_switch_apply(words, &v[3]) + tl_switch_apply(words, &v[4]), 1);
	ck_assert_int_eq(tl_switch_is_off(words, far), 0);
	ck_assert_uint_eq(v[6].args[0], 3);
	ck_assert_uint_eq(v[6].args[1], 0);
	ck_assert_uint_eq(v[6].args[2], bit_of(ids[2]));
	ck_assert_uint_eq(v[7].args[0], 3);            /* b, not another group */
	ck_assert_uint_eq(v[7].msgid, ids[1]);
	/* a record's first entry clears what it leaves out, whatever was there */
	words[100] = ~0ull;
	ck_assert_uint_eq(tl_switch_apply(words, &v[6]), 65);
	ck_assert_uint_eq(words[100], 0);
	free(v);
}
END_TEST

START_TEST(test_a_generated_event_switched_on_is_logged_from_its_first_call)
{
	const char *p = test_str("%s", path_in(test_dir, "g.timeline"));
	tl_log *log = open_manual(p, 64);
	struct app_events ev;
	tl_entry *v;
	size_t n;
	ck_assert_int_eq(app_events_register(log, &ev, "app=x", NULL), TL_OK);
	ck_assert_uint_eq(flip_one(p, ev.id[APP_PULL], 1), 1);
	app_pull(log, &ev, 1, 2, 3, 4);              /* the record; the event dropped inline */
	ck_assert_uint_eq(flip_one(p, ev.id[APP_PULL], 0), 1);
	ck_assert_int_eq(tl_switched_off(log, ev.id[APP_PULL]), 1);   /* asked, not granted */
	app_pull(log, &ev, 5, 6, 7, 8);              /* granted and recorded by this call: logged */
	tl_close(log);
	v = read_all(p, &n, NULL);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(v[0].args[0], 1);          /* generation 1: pull off */
	ck_assert_uint_eq(v[0].args[2], bit_of(ev.id[APP_PULL]));
	ck_assert_uint_eq(v[1].args[0], 2);          /* generation 2: all on */
	ck_assert_uint_eq(v[1].args[2], 0);
	ck_assert_uint_eq(v[2].msgid, ev.id[APP_PULL]);
	ck_assert_uint_eq(v[2].args[0], 5);
	free(v);
}
END_TEST

START_TEST(test_a_reader_of_a_format_1_1_log_sees_every_event_on)
{
	const char *p = path_in(test_dir, "old.timeline");
	uint16_t ids[3], minor = 1;
	tl_log *log = open_abc(p, TL_CLOCK_MANUAL, 64, ids);
	tl_reader *r;
	tl_info in;
	tl_error err;
	uint64_t words[TL_SWITCH_WORDS_PER_LOG];
	ck_assert_uint_eq(flip_one(p, ids[0], 1), 1);
	tl_close(log);
	r = tl_reader_open(p, &err);
	ck_assert_int_eq(tl_reader_switched_off(r, ids[0]), 1);
	tl_reader_close(r);
	patch_file(p, offsetof(struct tl_header, minor), &minor, sizeof minor);
	r = tl_reader_open(p, &err);
	tl_reader_info(r, &in);
	ck_assert_uint_eq(in.minor, 1);
	ck_assert_uint_eq(in.switched_off, 0);
	ck_assert_uint_eq(in.switch_gen, 0);
	ck_assert_int_eq(tl_reader_switched_off(r, ids[0]), 0);
	tl_reader_switch_words(r, words);
	ck_assert_uint_eq(words[0], 0);
	tl_reader_close(r);
	ck_assert_int_eq(tl_switch_file(p, ids, (const uint8_t *)"\1", 1, NULL, &err), TL_E_INVAL);
	ck_assert_str_eq(err.msg + strlen(p),
			 ": a log of format 1.1 has no event switches (1.2 has)");
}
END_TEST

START_TEST(test_switch_file_refuses_a_snabb_log_and_names_the_file)
{
	const char *f = getenv("TL_FIXTURES");
	const char *p = path_in(test_dir, "snabb.timeline");
	char *fixture = xasprintf("%s/snabb-v3/engine-short.events.timeline.zst",
				  f && *f ? f : "tests/fixtures");
	uint16_t id = 0;
	uint8_t off = 1;
	tl_error err;
	ck_assert_uint_eq(unzstd(fixture, p), 65000064);
	ck_assert_int_eq(tl_switch_file(p, &id, &off, 1, NULL, &err), TL_E_INVAL);
	ck_assert_str_eq(err.msg + strlen(p), ": a Snabb log has no event switches");
	ck_assert_int_eq(tl_switch_file(fixture, &id, &off, 1, NULL, &err), TL_E_INVAL);
	ck_assert_str_eq(err.msg + strlen(fixture), ": a compressed copy has no writer to switch");
	free(fixture);
}
END_TEST

/* ---- tcase race: processes racing ---- */

#define FLIPS 10000

/* What the writer shares with the test. */
struct shared {
	volatile int stop;
	volatile uint64_t returned;  /* calls of a that returned */
};

/* Logs a and b (args n, ~n, n from 1) flat out until told to stop or 60 s
 * pass. */
static void __attribute__((noreturn)) writer(tl_log *log, const uint16_t *ids, struct shared *sh)
{
	time_t end = time(NULL) + 60;
	for (uint64_t n = 1; !sh->stop && (n & 0xffff || time(NULL) < end); n++) {
		tl_append(log, ids[0], n, ~n, 0, 0, 0, 0);
		tl_append(log, ids[1], n, ~n, 0, 0, 0, 0);
	}
	_exit(0);
}

/* What a reader following the log found, and what it knows. */
struct seen {
	uint64_t a_on, records, torn;
	uint64_t words[TL_SWITCH_WORDS_PER_LOG];   /* the switches, from the records */
	int known;                   /* from a record's start on, until entries are lost */
	uint64_t last_seq, last_b;   /* the last entry read; the last n of b */
	int any, any_b;
};

/* Checks entry E of the log, read in order after those before: whole (n,
 * ~n), b's numbers rising, and no entry of a while the records say a is
 * off. Entries missing before E (the writer lapped the reader) may have
 * held a record: the switches are then unknown until the next record. */
static void check_entry(const tl_entry *e, const uint16_t *ids, uint16_t rec, struct seen *s)
{
	if (s->any && e->seq != s->last_seq + 1)
		s->known = 0;
	s->any = 1;
	s->last_seq = e->seq;
	if (e->msgid == rec) {
		tl_check(e->args[1] % 4 == 0 && e->args[1] < 256, "record %llu: first %llu",
			 (unsigned long long)e->seq, (unsigned long long)e->args[1]);
		tl_switch_apply(s->words, e);
		s->known |= e->args[1] == 0;
		s->records++;
		return;
	}
	if (e->args[1] != ~e->args[0]) {
		s->torn++;
		return;
	}
	if (e->msgid == ids[1]) {
		tl_check(!s->any_b || e->args[0] > s->last_b, "b %llu after %llu",
			 (unsigned long long)e->args[0], (unsigned long long)s->last_b);
		s->last_b = e->args[0];
		s->any_b = 1;
	} else if (e->msgid == ids[0]) {
		tl_check(!s->known || !tl_switch_is_off(s->words, ids[0]),
			 "a (entry %llu, n %llu) while its record says off", (unsigned long long)e->seq,
			 (unsigned long long)e->args[0]);
		s->a_on++;
	} else {
		tl_check(0, "entry %llu of msgid %u", (unsigned long long)e->seq, e->msgid);
	}
}

/* Reads what is new in R since S's last entry; returns the entries read. */
static uint64_t follow_once(tl_reader *r, const uint16_t *ids, uint16_t rec, struct seen *s)
{
	uint64_t lost = 0, n = 0;
	tl_entry e;
	tl_reader_since(r, s->any ? s->last_seq + 1 : 0, &lost);
	if (lost)
		s->known = 0;
	while (tl_reader_next(r, &e)) {
		if (s->any && e.seq <= s->last_seq)
			continue;   /* read already */
		check_entry(&e, ids, rec, s);
		n++;
	}
	return n;
}

/* The message id of the records in the log at P (interned at the first). */
static uint16_t record_id(const char *p)
{
	tl_error err;
	tl_reader *r = tl_reader_open(p, &err);
	uint16_t ids[8];
	size_t n = tl_reader_definitions(r, ids, 8);
	tl_reader_close(r);
	ck_assert_uint_eq(n, 4);
	return ids[3];
}

START_TEST(test_reader_never_sees_an_event_while_it_is_off_across_10000_flips)
{
	const char *p = test_str("%s", path_in(test_dir, "t.timeline"));
	struct shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				 -1, 0);
	uint16_t ids[3], rec;
	tl_log *log = open_abc(p, TL_CLOCK_AUTO, 1 << 16, ids);
	struct seen *s = calloc(1, sizeof *s);
	pid_t w, f;
	int st, rounds = 0;
	tl_reader *r;
	tl_error err;
	tl_info in;

	/* the first record interns its definition before the writer starts */
	ck_assert_uint_eq(flip_one(p, ids[2], 1), 1);
	tl_append(log, ids[1], 0, ~0ull, 0, 0, 0, 0);
	rec = record_id(p);
	if ((w = fork()) == 0)
		writer(log, ids, sh);
	if ((f = fork()) == 0) {
		for (int i = 0; i < FLIPS; i++) {
			uint8_t off = !(i & 1);
			size_t changed = 0;
			if (tl_switch_file(p, &ids[0], &off, 1, &changed, NULL) != TL_OK || changed != 1)
				_exit(1);
		}
		_exit(0);
	}
	/* follow the log while the flips go on, every entry in order */
	r = tl_reader_open(p, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	while (waitpid(f, &st, WNOHANG) == 0) {
		if (!follow_once(r, ids, rec, s))
			usleep(100);
		rounds++;
	}
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "flipper: status %#x", st);
	/* the writer records the last flip at its next entry: wait for that
	 * record (it may get no CPU for a while), then stop it */
	for (time_t stop = time(NULL) + 20; info_at(p).switch_seen != FLIPS + 1 && time(NULL) < stop;)
		usleep(1000);
	sh->stop = 1;
	ck_assert_int_eq(waitpid(w, &st, 0), w);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer: status %#x", st);
	follow_once(r, ids, rec, s);
	tl_reader_close(r);
	in = info_at(p);
	ck_assert_uint_eq(in.switch_gen, FLIPS + 1);   /* c's, then a's 10,000 */
	ck_assert_uint_eq(in.switch_seen, FLIPS + 1);  /* all recorded */
	ck_assert_uint_eq(in.switched_off, 1);         /* c; a ends on (an even count) */
	ck_assert_uint_eq(s->torn, 0);
	ck_assert_uint_gt(s->records, 0);
	ck_assert_uint_gt(s->a_on, 0);
	tl_close(log);
	munmap(sh, sizeof *sh);
	fprintf(stderr, "switch race: %d rounds, %llu records, %llu entries of a\n", rounds,
		(unsigned long long)s->records, (unsigned long long)s->a_on);
	free(s);
}
END_TEST

#define KILLS 60
#define RING 4096

/* A writer of a alone (args n, ~n), killed by a timer on its own CPU time
 * after PAUSE ns, while a flipper switches c, which it never logs, so that
 * records come between its entries. */
static void __attribute__((noreturn)) doomed(tl_log *log, uint16_t a, struct shared *sh, long pause)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGKILL };
	struct itimerspec its = { .it_value = { 0, pause > 0 ? pause : 1 } };
	timer_t t;
	if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &t) || timer_settime(t, 0, &its, NULL))
		_exit(2);
	for (uint64_t n = 0;; n++) {
		tl_append(log, a, n, ~n, 0, 0, 0, 0);
		__atomic_store_n(&sh->returned, n + 1, __ATOMIC_RELEASE);
	}
}

/* Checks the log at P after its writer died having returned R calls of a. */
static void check_killed(const char *p, uint16_t a, uint64_t r, int round)
{
	size_t n, as = 0;
	uint64_t skipped, next = 0;
	tl_entry *v = read_all(p, &n, &skipped);
	ck_assert_uint_le(skipped, 2);
	for (size_t k = 0; k < n; k++) {
		const tl_entry *e = &v[k];
		tl_check(!k || e->seq == v[k - 1].seq + 1, "round %d: entry %llu after %llu", round,
			 (unsigned long long)e->seq, (unsigned long long)v[k - 1].seq);
		if (e->msgid != a) {
			tl_check(e->args[1] % 4 == 0 && e->args[1] < 256 && e->args[0] > 0,
				 "round %d: record %llu torn", round, (unsigned long long)e->seq);
			continue;
		}
		tl_check(e->args[1] == ~e->args[0], "round %d: entry %llu torn", round,
			 (unsigned long long)e->seq);
		tl_check(!as || e->args[0] == next, "round %d: a %llu after %llu", round,
			 (unsigned long long)e->args[0], (unsigned long long)next - 1);
		next = e->args[0] + 1;
		as++;
	}
	/* every returned call is there up to the newest (or one more, under way) */
	if (r > 0)
		tl_check(as > 0 && (next == r || next == r + 1), "round %d: a up to %llu of %llu returned",
			 round, (unsigned long long)next, (unsigned long long)r);
	free(v);
}

START_TEST(test_writers_killed_while_switches_flip_keep_every_returned_event)
{
	struct shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				 -1, 0);
	unsigned seed = (unsigned)time(NULL);   /* said, to replay a failure */
	fprintf(stderr, "switch kills: seed %u\n", seed);
	for (int round = 0; round < KILLS; round++) {
		const char *p = path_in(test_dir, "k.timeline");
		uint16_t ids[3];
		tl_log *log;
		pid_t w, f;
		int st;
		unlink(p);
		log = open_abc(p, TL_CLOCK_AUTO, RING, ids);
		sh->returned = 0;
		if ((f = fork()) == 0) {
			for (uint8_t off = 1;; off = !off)
				tl_switch_file(p, &ids[2], &off, 1, NULL, NULL);
		}
		if ((w = fork()) == 0)
			doomed(log, ids[0], sh, (long)(rand_r(&seed) % 2000) * 1000);
		ck_assert_int_eq(waitpid(w, &st, 0), w);
		kill(f, SIGKILL);
		waitpid(f, NULL, 0);
		ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "writer: status %#x", st);
		check_killed(p, ids[0], __atomic_load_n(&sh->returned, __ATOMIC_ACQUIRE), round);
		tl_close(log);
	}
	munmap(sh, sizeof *sh);
}
END_TEST

/* ---- tcase cli: timeline enable and disable ---- */

static const char *const engine_defs[] = {
	"5,9|app.push: inpackets\nAn app's push begins.", "5,9|app.pushed: inpackets\nIt ends.",
	"1,9|engine.breath_start: breath\nA breath begins.", "1,9|engine.breath_end: breath\nIt ends.",
};

/* Makes a log at DIR/NAME written by this process: app.push and
 * app.pushed of the apps lookup and source, engine.breath_start and
 * breath_end (six events), one entry of each. */
static tl_log *engine_log(const char *dir, const char *name)
{
	tl_options o = { .entries = 64, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 4096, .name = "engine" };
	uint16_t ids[4];
	tl_error err;
	tl_log *log = tl_open(path_in(dir, name), &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_register(log, engine_defs, 2, "app=lookup", ids, &err), TL_OK);
	ck_assert_int_eq(tl_register(log, engine_defs, 2, "app=source", ids, &err), TL_OK);
	ck_assert_int_eq(tl_register(log, engine_defs + 2, 2, NULL, ids, &err), TL_OK);
	return log;
}

/* Runs `timeline ARGS` in TEST_DIR; *OUT and *ERR get its output. */
static int tl_run(char **out, char **err, const char *args)
{
	char *cmd = xasprintf("cd '%s' && '%s' %s", test_dir, timeline_bin(), args);
	int rc = run(cmd, out, err);
	free(cmd);
	return rc;
}

/* Checks that `timeline ARGS` exits RC with stdout OUT (NULL: any) and
 * stderr ERR. */
static void expect(const char *args, int rc, const char *out, const char *err)
{
	char *o, *e;
	int got = tl_run(&o, &e, args);
	ck_assert_msg(got == rc, "%s: exit %d, want %d (%s)", args, got, rc, e);
	if (out)   /* NULL: any */
		ck_assert_str_eq(o, out);
	ck_assert_str_eq(e, err);
	free(o);
	free(e);
}

/* Checks that `timeline enable ARGS` refuses its --only patterns WHAT
 * ("'P' matches", "'P', 'Q' match"), none matching a registered event. */
static void expect_refused(const char *args, const char *what)
{
	expect(test_str("enable %s", args), 2, "",
	       test_str("timeline enable: --only %s no registered event: nothing switched (--force "
			"switches every other event off all the same)\n", what));
}

/* The "events off" line of `timeline info LOG`. */
static char *off_line(const char *log)
{
	char *o, *e, *at, *end, *line;
	ck_assert_int_eq(tl_run(&o, &e, test_str("info %s", log)), 0);
	at = strstr(o, "  switched off ");
	line = at ? strndup(at, (end = strchr(at, '\n')) ? (size_t)(end - at) : strlen(at))
		  : strdup("(none)");
	free(o);
	free(e);
	return line;
}

START_TEST(test_disable_and_enable_by_pattern_say_what_changed)
{
	tl_log *log = engine_log(test_dir, "e.timeline");
	char *l;
	expect("disable e.timeline 'engine.breath_*'", 0, "2 events off in 1 log\n", "");
	expect("disable e.timeline 'engine.breath_*'", 0, "no event changed in 1 log\n", "");
	l = off_line("e.timeline");
	ck_assert_str_eq(l, "  switched off 2: engine.breath_start, engine.breath_end");
	free(l);
	expect("enable e.timeline 'engine.breath_end'", 0, "1 event on in 1 log\n", "");
	expect("disable e.timeline 'app.* app=source'", 0, "2 events off in 1 log\n", "");
	l = off_line("e.timeline");
	ck_assert_str_eq(l, "  switched off 3: app.push app=source, app.pushed app=source, "
			    "engine.breath_start");
	free(l);
	expect("disable e.timeline 'app.push app=lookup'", 0, "1 event off in 1 log\n", "");
	/* --only: lookup's two on (push was off), every other event off */
	expect("enable --only 'app.push* app=lookup' e.timeline", 0,
	       "1 event on and 1 off in 1 log\n", "");
	l = off_line("e.timeline");
	ck_assert_str_eq(l, "  switched off 4: app.push app=source, app.pushed app=source, "
			    "engine.breath_start, engine.breath_end");
	free(l);
	expect("enable --all e.timeline", 0, "4 events on in 1 log\n", "");
	l = off_line("e.timeline");
	ck_assert_str_eq(l, "(none)");
	free(l);
	expect("disable --all e.timeline", 0, "6 events off in 1 log\n", "");
	expect("disable --only 'engine.*' e.timeline", 0, "4 events on in 1 log\n", "");
	tl_close(log);
}
END_TEST

START_TEST(test_enable_walks_directories_and_names_patterns_that_match_nothing)
{
	tl_log *a, *b;
	ck_assert_int_eq(mkdir(path_in(test_dir, "logs"), 0700), 0);
	a = engine_log(test_str("%s/logs", test_dir), "a.timeline");
	b = engine_log(test_str("%s/logs", test_dir), "b.timeline");
	expect("disable logs 'engine.*' 'app.push app=*'", 0, "8 events off in 2 logs\n", "");
	/* the rule 'app.push app=*' off stays: 'no.such*' on waits behind it */
	expect("enable logs/a.timeline 'engine.*' 'no.such*'", 0, "2 events on in 1 log\n",
	       "timeline enable: logs/a.timeline: 'no.such*' matches no event yet: it will apply "
	       "when one is registered\n");
	/* without rules, an event not registered yet is on anyway: no rule kept */
	expect("enable --all logs", 0, "6 events on in 2 logs\n", "");
	expect("enable logs 'timeline.*'", 2, "no event changed in 2 logs\n",
	       "timeline enable: no event matches 'timeline.*'\n");
	tl_close(a);
	tl_close(b);
}
END_TEST

START_TEST(test_enable_refuses_snabb_logs_old_logs_and_bad_usage)
{
	const char *f = getenv("TL_FIXTURES");
	char *fixture = xasprintf("%s/snabb-v3/engine-short.events.timeline.zst",
				  f && *f ? f : "tests/fixtures");
	uint16_t minor = 1;
	tl_log *log = engine_log(test_dir, "old.timeline");
	ck_assert_uint_eq(unzstd(fixture, path_in(test_dir, "snabb.timeline")), 65000064);
	expect("disable snabb.timeline 'app.*'", 2, "",
	       "timeline disable: snabb.timeline: a Snabb log has no event switches\n");
	expect("copy old.timeline c.timeline", 0, "old.timeline -> c.timeline: 0 entries, 0 dropped\n",
	       "");
	expect("disable c.timeline 'app.*'", 2, "",
	       "timeline disable: c.timeline: a copy has no writer to switch\n");
	patch_file(path_in(test_dir, "old.timeline"), offsetof(struct tl_header, minor), &minor,
		   sizeof minor);
	expect("disable old.timeline 'app.*'", 2, "",
	       "timeline disable: old.timeline: a log of format 1.0 or 1.1 has no event switches "
	       "(they came in 1.2)\n");
	expect("disable old.timeline", 2, "",
	       "timeline disable: missing pattern (or --all)\nsee 'timeline disable --help'\n");
	expect("enable --all old.timeline 'app.*'", 2, "",
	       "timeline enable: --all takes no pattern\nsee 'timeline enable --help'\n");
	expect("enable 'app.*'", 2, "", "timeline enable: the first argument names no log or "
	       "directory\nsee 'timeline enable --help'\n");
	tl_close(log);
	free(fixture);
}
END_TEST

START_TEST(test_disable_warns_on_a_dead_writers_log_and_needs_write_access)
{
	const char *pre = geteuid() == 0 ? "setpriv --bounding-set -dac_override,-dac_read_search " : "";
	char *want, *cmd, *o, *e;
	pid_t pid = fork();
	int st;
	if (pid == 0) {
		tl_close(engine_log(test_dir, "dead.timeline"));
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	want = xasprintf("timeline disable: warning: dead.timeline: no process will read the "
			 "switches: its writer (%s, pid %d) has ended\n",
			 program_invocation_short_name, (int)pid);
	expect("disable dead.timeline 'engine.*'", 0, "2 events off in 1 log\n", want);
	free(want);
	/* a user who may read the log but not write it */
	ck_assert_int_eq(chmod(path_in(test_dir, "dead.timeline"), 0400), 0);
	cmd = xasprintf("cd '%s' && %s'%s' enable dead.timeline 'engine.*'", test_dir, pre,
			timeline_bin());
	ck_assert_int_eq(run(cmd, &o, &e), 2);
	ck_assert_str_eq(o, "no event changed in 1 log\n");
	ck_assert_str_eq(e, "timeline enable: dead.timeline: cannot switch its events without "
			    "write access (Permission denied)\n");
	free(cmd);
	free(o);
	free(e);
}
END_TEST

/* A log whose header names another host (copied home, or on storage
 * shared with the writer's host) is switched, but its writer maps its own
 * copy, so it will not see the switches: enable and disable say so in one
 * line naming the log and the host, and exit 0 for the change made, as
 * for a writer that has ended. A log of this host whose writer runs is no
 * news. */
START_TEST(test_switching_another_hosts_log_warns_that_its_writer_will_not_see_it)
{
	static const char host[128] = "far.away.example";
	tl_log *log = engine_log(test_dir, "far.timeline");
	char *l;
	expect("disable far.timeline 'engine.*'", 0, "2 events off in 1 log\n", "");
	patch_file(path_in(test_dir, "far.timeline"), offsetof(struct tl_header, host), host,
		   sizeof host);
	expect("enable far.timeline 'engine.breath_end'", 0, "1 event on in 1 log\n",
	       "timeline enable: warning: far.timeline: written on host 'far.away.example', not "
	       "this one: its writer will not see the switches\n");
	expect("disable --all far.timeline", 0, "5 events off in 1 log\n",
	       "timeline disable: warning: far.timeline: written on host 'far.away.example', not "
	       "this one: its writer will not see the switches\n");
	l = off_line("far.timeline");
	ck_assert_str_eq(l, "  switched off 6: app.push app=lookup, app.pushed app=lookup, "
			    "app.push app=source, app.pushed app=source, engine.breath_start, "
			    "engine.breath_end");
	free(l);
	tl_close(log);
}
END_TEST

/* ---- tcase pairs: stats across a flip ---- */

START_TEST(test_stats_counts_only_pairs_whose_ends_were_both_on_and_says_how_many_skipped)
{
	static const char *const pd[] = { "5,5|app.push: inpackets", "5,5|app.pushed: inpackets" };
	const char *p = test_str("%s", path_in(test_dir, "p.timeline"));
	tl_log *log = open_manual(p, 256);
	uint16_t id[2];
	ck_assert_int_eq(tl_register(log, pd, 2, "app=x", id, NULL), TL_OK);
	tl_set_manual_clock(log, 1000, 0);
	tl_append(log, id[0], 0, 0, 0, 0, 0, 0);          /* push: begins */
	ck_assert_uint_eq(flip_one(p, id[1], 1), 1);       /* pushed off */
	tl_set_manual_clock(log, 2000, 0);
	tl_append(log, id[1], 10, 0, 0, 0, 0, 0);         /* the record; the end dropped */
	ck_assert_uint_eq(flip_one(p, id[1], 0), 1);       /* pushed on */
	tl_set_manual_clock(log, 4000, 0);
	tl_append(log, id[1], 20, 0, 0, 0, 0, 0);         /* the record, then an end alone */
	tl_set_manual_clock(log, 5000, 0);
	tl_append(log, id[0], 20, 0, 0, 0, 0, 0);         /* a pair of both ends on: */
	tl_set_manual_clock(log, 5500, 0);
	tl_append(log, id[1], 25, 0, 0, 0, 0, 0);         /* 500 cycles, 5 packets */
	tl_close(log);
	/* without the records' rule push at 1000 would pair with pushed at
	 * 4000: 3000 cycles for 20 packets */
	expect(test_str("stats --per packets -f json %s | grep -v '\"table\":\"breaths\"\\|overhead'",
			"p.timeline"), 0,
	       "{\"table\":\"switches\",\"logs\":1,\"records\":2,\"skipped\":1}\n"
	       "{\"table\":\"per\",\"event\":\"app.push\",\"app\":\"x\",\"pairs\":1,\"packets\":5,"
	       "\"cycles/packet\":100,\"p50\":100,\"p90\":100,\"p99\":100,\"empty\":0}\n"
	       "{\"table\":\"unmatched\",\"pair\":\"app.push\",\"ends_without_begin\":1,"
	       "\"begins_without_end\":0}\n", "");
	expect("stats --per packets p.timeline | head -1", 0,
	       "switches: 1 log had events switched off during its span (2 records of changes): "
	       "missing entries may mean off; 1 pair across a change skipped\n", "");
}
END_TEST

START_TEST(test_dump_says_when_events_were_off_during_its_entries)
{
	const char *p = test_str("%s", path_in(test_dir, "d.timeline"));
	uint16_t ids[3];
	tl_log *log = open_abc(p, TL_CLOCK_MANUAL, 64, ids);
	tl_set_manual_clock(log, 1000, 0);
	tl_append(log, ids[0], 1, 2, 0, 0, 0, 0);
	expect("dump d.timeline", 0, "             0   0  0  t.a n=1 m=2\n", "");
	ck_assert_uint_eq(flip_one(p, ids[1], 1), 1);
	tl_set_manual_clock(log, 1500, 0);
	tl_append(log, ids[0], 3, 4, 0, 0, 0, 0);
	expect("dump d.timeline", 0,
	       "# d.timeline: events were switched off during these entries (1 record of changes, "
	       "1 event off now): a missing entry may mean off, not none\n"
	       "             0   0  0  t.a n=1 m=2\n"
	       "           500   0  0  timeline.switches generation=1 switched off: t.b\n"
	       "           500   0  0  t.a n=3 m=4\n", "");
	expect("dump -f csv d.timeline | wc -l", 0, "4\n",
	       "timeline dump: d.timeline: events were switched off during these entries (1 record "
	       "of changes, 1 event off now): a missing entry may mean off, not none\n");
	/* the line stands before the first entry kept: none kept, no line
	 * (only why, exit 2); one kept of two logs, the line of its log alone */
	expect("dump --event t.c d.timeline", 2, "",
	       "timeline dump: --event 't.c' keeps none of the 3 entries of d.timeline\n");
	expect("dump --from 1h d.timeline", 2, "",
	       "timeline dump: no entries at or after 1h; d.timeline spans 0s to 0.0000005s\n");
	expect("dump --event t.b d.timeline d.timeline", 2, "",
	       "timeline dump: --event 't.b' keeps none of the 3 entries of d.timeline\n"
	       "timeline dump: --event 't.b' keeps none of the 3 entries of d.timeline\n");
	expect("dump --event 't.a' d.timeline", 0,
	       "# d.timeline: events were switched off during these entries (1 record of changes, "
	       "1 event off now): a missing entry may mean off, not none\n"
	       "             0   0  0  t.a n=1 m=2\n"
	       "           500   0  0  t.a n=3 m=4\n", "");
	lags_log(path_in(test_dir, "e.timeline"), 64, (const uint64_t[]){ 7 }, 1);
	expect("dump --event 'e.*' d.timeline e.timeline", 0,
	       "             0   0  0  e.tick n=0\n             7   0  0  e.tick n=1\n", "");
	tl_close(log);
}
END_TEST

/* A log at P of t.a, t.b (ids 0, 8) and t.c app=lookup (16), whose
 * records switch: b and c off; b on and FAR (no definition, group 2) off;
 * FAR on. Each record is followed by an entry of an event on; with LEAD,
 * an entry of t.a (n=1) comes first: 9 entries, else 8. */
static void write_flips_from(const char *p, uint64_t entries, uint16_t far, int lead)
{
	tl_options o = { .entries = entries, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 4096, .name = "sw" };
	uint16_t ids[3], bc[2];
	uint8_t off[2] = { 1, 1 };
	size_t changed;
	tl_log *log = tl_open(p, &o, NULL);
	ck_assert_ptr_nonnull(log);
	ck_assert_int_eq(tl_register(log, defs, 2, NULL, ids, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, defs + 2, 1, "app=lookup", ids + 2, NULL), TL_OK);
	tl_set_manual_clock(log, 1000, 0);
	if (lead)
		tl_append(log, ids[0], 1, 0, 0, 0, 0, 0);
	bc[0] = ids[1], bc[1] = ids[2];
	ck_assert_int_eq(tl_switch_file(p, bc, off, 2, &changed, NULL), TL_OK);
	ck_assert_uint_eq(changed, 2);
	tl_set_manual_clock(log, 1500, 0);
	tl_append(log, ids[0], 2, 0, 0, 0, 0, 0);   /* gen 1: group 0 */
	ck_assert_uint_eq(flip_one(p, ids[1], 0), 1);
	ck_assert_uint_eq(flip_one(p, far, 1), 1);
	tl_set_manual_clock(log, 2000, 0);
	tl_append(log, ids[0], 3, 0, 0, 0, 0, 0);   /* gen 3: groups 0 and 2 */
	ck_assert_uint_eq(flip_one(p, far, 0), 1);
	tl_set_manual_clock(log, 2500, 0);
	tl_append(log, ids[1], 4, 0, 0, 0, 0, 0);   /* gen 4: groups 0 and 2 */
	tl_close(log);
}

static void write_flips(const char *p, uint64_t entries, uint16_t far)
{
	write_flips_from(p, entries, far, 1);
}

/* `dump --time ns` of write_flips()'s log after its first record, in a
 * ring of 8. */
static const char flips_after_gen1[] =
	"             0   0  0  t.a n=2 m=0\n"
	"           500   0  0  timeline.switches generation=3 switched on: t.b\n"
	"           500   0  0  timeline.switches generation=3 switched off: ?msgid=2320\n"
	"           500   0  0  t.a n=3 m=0\n"
	"          1000   0  0  timeline.switches generation=4 no change\n"
	"          1000   0  0  timeline.switches generation=4 switched on: ?msgid=2320\n"
	"          1000   0  0  t.b n=4 m=0\n";

START_TEST(test_dump_names_the_events_each_record_switched_off_and_on)
{
	const char *p = test_str("%s", path_in(test_dir, "n.timeline"));
	uint16_t far = 4 * 64 * 9 + 4 * 4;           /* word 9 (group 2), bit 4 */
	write_flips(p, 64, far);
	expect("dump n.timeline | tail -n +2", 0,
	       "             0   0  0  t.a n=1 m=0\n"
	       "           500   0  0  timeline.switches generation=1 switched off: t.b, "
	       "t.c app=lookup\n"
	       "           500   0  0  t.a n=2 m=0\n"
	       "          1000   0  0  timeline.switches generation=3 switched on: t.b\n"
	       "          1000   0  0  timeline.switches generation=3 switched off: ?msgid=2320\n"
	       "          1000   0  0  t.a n=3 m=0\n"
	       "          1500   0  0  timeline.switches generation=4 no change\n"
	       "          1500   0  0  timeline.switches generation=4 switched on: ?msgid=2320\n"
	       "          1500   0  0  t.b n=4 m=0\n", "");
	/* filtered: gen 1 is the first seen, so what was before it is not
	 * known; group 2 is known from gen 1, which left it out */
	expect("dump --event 'timeline.*' n.timeline | tail -n +2", 0,
	       "           500   0  0  timeline.switches generation=1 off: t.b, t.c app=lookup "
	       "(before: unknown)\n"
	       "          1000   0  0  timeline.switches generation=3 switched on: t.b\n"
	       "          1000   0  0  timeline.switches generation=3 switched off: ?msgid=2320\n"
	       "          1500   0  0  timeline.switches generation=4 no change\n"
	       "          1500   0  0  timeline.switches generation=4 switched on: ?msgid=2320\n",
	       "");
	/* JSON: the numbers as they were, and the names beside them */
	expect("dump -f json --event 'timeline.*' n.timeline 2>/dev/null | sed -n '1p;3p'", 0,
	       "{\"file\":\"n.timeline\",\"seq\":1,\"tsc\":1500,\"time\":500,\"cpu\":0,"
	       "\"numa\":0,\"event\":\"timeline.switches\",\"attrs\":\"\",\"args\":{"
	       "\"generation\":1,\"first\":0,\"off0\":20,\"off1\":0,\"off2\":0,\"off3\":0},"
	       "\"switches\":{\"off\":[\"t.b\",\"t.c app=lookup\"],\"switched_off\":null,"
	       "\"switched_on\":null}}\n"
	       "{\"file\":\"n.timeline\",\"seq\":4,\"tsc\":2000,\"time\":1000,\"cpu\":0,"
	       "\"numa\":0,\"event\":\"timeline.switches\",\"attrs\":\"\",\"args\":{"
	       "\"generation\":3,\"first\":8,\"off0\":0,\"off1\":16,\"off2\":0,\"off3\":0},"
	       "\"switches\":{\"off\":[\"?msgid=2320\"],\"switched_off\":[\"?msgid=2320\"],"
	       "\"switched_on\":[]}}\n", "");
	/* CSV keeps its columns, numbers */
	expect("dump -f csv n.timeline 2>/dev/null | sed -n 3p", 0,
	       "\"n.timeline\",1,1500,500,0,0,\"timeline.switches\",\"\",1,0,20,0,0,0,"
	       "\"generation first off0 off1 off2 off3\",0\n", "");
}
END_TEST

START_TEST(test_dump_of_a_wrapped_ring_says_the_switches_before_its_first_record_are_unknown)
{
	const char *p = test_str("%s", path_in(test_dir, "w.timeline"));
	uint16_t far = 4 * 64 * 9 + 4 * 4;
	/* 9 entries in a ring of 8: the first, t.a n=1, is overwritten */
	write_flips(p, 8, far);
	expect("dump --time ns w.timeline | tail -n +2", 0,
	       test_str("             0   0  0  timeline.switches generation=1 off: t.b, t.c "
			"app=lookup (before: unknown)\n%s", flips_after_gen1), "");
	/* --cpu may split a record, so gen 1 leaving group 2 out tells nothing */
	expect("dump --cpu 0 --event 'timeline.*' w.timeline | sed -n 4p", 0,
	       "           500   0  0  timeline.switches generation=3 off: ?msgid=2320 "
	       "(before: unknown)\n", "");
}
END_TEST

/* dump --follow that starts at the newest entries (--lines) has passed
 * over the records before them: what was off before its first record is
 * unknown, as in a ring that wrapped. */
START_TEST(test_dump_follow_from_the_newest_entries_knows_no_switches_before_them)
{
	const char *p = test_str("%s", path_in(test_dir, "n.timeline"));
	uint16_t far = 4 * 64 * 9 + 4 * 4;
	write_flips(p, 64, far);
	expect("dump --follow --lines 3 --limit 3 --time ns n.timeline", 0,
	       "             0   0  0  timeline.switches generation=4 off: t.c app=lookup "
	       "(before: unknown)\n"
	       "             0   0  0  timeline.switches generation=4 off: none (before: unknown)\n"
	       "             0   0  0  t.b n=4 m=0\n",
	       "timeline dump: n.timeline: followed 3 entries, 6 to 8: 3 read, 0 lost\n");
}
END_TEST

/* A ring exactly full (8 entries in 8 slots: the cursor equals the ring's
 * size) still holds the log's first entry, so the switches before its
 * first record are known (all on), as in a ring not full; one entry more
 * and the first is gone (the test above). */
START_TEST(test_dump_of_a_ring_exactly_full_knows_the_switches_before_its_first_record)
{
	const char *p = test_str("%s", path_in(test_dir, "f.timeline"));
	uint16_t far = 4 * 64 * 9 + 4 * 4;
	tl_info info;
	write_flips_from(p, 8, far, 0);
	info = info_at(p);
	ck_assert_uint_eq(info.cursor, 8);
	ck_assert_uint_eq(info.entries, 8);
	expect("dump --time ns f.timeline | tail -n +2", 0,
	       test_str("             0   0  0  timeline.switches generation=1 switched off: t.b, "
			"t.c app=lookup\n%s", flips_after_gen1), "");
	expect("dump -f json f.timeline 2>/dev/null | head -n 1 | "
	       "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"switches\"])'", 0,
	       "{'off': ['t.b', 't.c app=lookup'], 'switched_off': ['t.b', 't.c app=lookup'], "
	       "'switched_on': []}\n", "");
	expect("info f.timeline | grep ' entries '", 0,
	       "  entries      8 in a ring of 8; 8 written, 0 wrapped away\n", "");
}
END_TEST

START_TEST(test_info_ls_and_top_count_the_events_off)
{
	const char *p = test_str("%s", path_in(test_dir, "d.timeline"));
	uint16_t ids[3];
	tl_log *log = open_abc(p, TL_CLOCK_MANUAL, 64, ids);
	tl_set_manual_clock(log, 1000, 0);
	ck_assert_uint_eq(flip_one(p, ids[1], 1), 1);
	tl_append(log, ids[0], 3, 4, 0, 0, 0, 0);
	expect("info d.timeline | grep switch", 0,
	       "  switched off 1: t.b\n"
	       "  switches     1 record of changes in this span (entries of switched-off events are "
	       "missing)\n", "");
	expect("info -f json d.timeline | python3 -c 'import json,sys; d=json.load(sys.stdin); "
	       "print(d[\"switched_off\"], d[\"switch_changes\"], d[\"switch_records\"])'", 0,
	       "['t.b'] 1 1\n", "");
	expect("ls -f json d.timeline | python3 -c 'import json,sys; "
	       "print(json.load(sys.stdin)[\"switched_off\"])'", 0, "1\n", "");
	expect("ls d.timeline | grep -o '(1 event off)$'", 0, "(1 event off)\n", "");
	expect("top -b -n 1 -d 0.1 -g process d.timeline | grep -o 'auto 1off'", 0, "auto 1off\n", "");
	tl_close(log);
}
END_TEST

/* ---- tcase rules: switches set before their events are registered ---- */

static const char *const push_defs[] = {
	"5,9|app.push: inpackets\nAn app's push begins.", "5,9|app.pushed: inpackets\nIt ends.",
};

/* A log at DIR/r.timeline written by this process, with t.a registered. */
static tl_log *rules_log(uint16_t *a)
{
	tl_log *log = open_manual(path_in(test_dir, "r.timeline"), 64);
	ck_assert_int_eq(tl_register(log, defs, 1, NULL, a, NULL), TL_OK);
	return log;
}

/* The "rules" line of `timeline info r.timeline`, or "(none)". */
static char *rules_line(void)
{
	char *o, *e, *at, *end, *line;
	ck_assert_int_eq(tl_run(&o, &e, "info r.timeline"), 0);
	at = strstr(o, "  rules ");
	line = at ? strndup(at, (end = strchr(at, '\n')) ? (size_t)(end - at) : strlen(at))
		  : strdup("(none)");
	free(o);
	free(e);
	return line;
}

/* Checks that the "rules" line of `timeline info r.timeline` is WANT. */
static void assert_rules_line(const char *want)
{
	char *l = rules_line();
	ck_assert_str_eq(l, want);
	free(l);
}

START_TEST(test_an_event_registered_after_disable_is_never_written)
{
	uint16_t a, id[2];
	tl_log *log = rules_log(&a);
	tl_reader *r;
	tl_entry e;
	expect("disable r.timeline 'app.push*'", 0, "no event changed in 1 log\n",
	       "timeline disable: r.timeline: 'app.push*' matches no event yet: it will apply when "
	       "one is registered\n");
	assert_rules_line("  rules        for events registered later: off 'app.push*'");
	ck_assert_int_eq(tl_register(log, push_defs, 2, "app=lookup", id, NULL), TL_OK);
	ck_assert_int_eq(tl_switched_off(log, id[0]), 1);
	ck_assert_int_eq(tl_switched_off(log, id[1]), 1);
	tl_set_manual_clock(log, 100, 0);
	tl_append(log, id[0], 1, 0, 0, 0, 0, 0);
	tl_append(log, a, 2, 0, 0, 0, 0, 0);
	tl_append(log, id[1], 3, 0, 0, 0, 0, 0);
	/* the writer's own changes, one an event, are recorded first (generation
	 * 2), then t.a alone */
	r = tl_reader_open(path_in(test_dir, "r.timeline"), NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(tl_reader_next(r, &e), 1);
	ck_assert_int_eq(tl_reader_is_switch_entry(r, &e), 1);
	ck_assert_uint_eq(e.args[0], 2);
	ck_assert_uint_eq(e.args[2], bit_of(id[0]) | bit_of(id[1]));
	ck_assert_int_eq(tl_reader_next(r, &e), 1);
	ck_assert_uint_eq(e.msgid, a);
	ck_assert_uint_eq(e.args[0], 2);
	ck_assert_int_eq(tl_reader_next(r, &e), 0);
	tl_reader_close(r);
	expect("info r.timeline | grep 'switched off'", 0,
	       "  switched off 2: app.push app=lookup, app.pushed app=lookup\n", "");
	tl_close(log);
}
END_TEST

START_TEST(test_enable_only_before_registration_leaves_only_its_events_on)
{
	uint16_t a, look[2], src[2];
	tl_log *log = rules_log(&a);
	/* no event registered matches: refused, nothing switched nor kept */
	expect_refused("--only 'app.push* app=lookup' r.timeline", "'app.push* app=lookup' matches");
	assert_rules_line("(none)");
	ck_assert_int_eq(tl_switched_off(log, a), 0);
	expect("enable --force --only 'app.push* app=lookup' r.timeline", 0, "1 event off in 1 log\n",
	       "timeline enable: r.timeline: 'app.push* app=lookup' matches no event yet: it will "
	       "apply when one is registered\n");
	assert_rules_line("  rules        for events registered later: off '*', "
			  "on 'app.push* app=lookup'");
	expect("info -f json r.timeline | python3 -c 'import json,sys; d=json.load(sys.stdin); "
	       "print(d[\"rules\"], d[\"rules_damaged\"])'", 0,
	       "[{'switch': 'off', 'pattern': '*'}, {'switch': 'on', 'pattern': 'app.push* "
	       "app=lookup'}] False\n", "");
	ck_assert_int_eq(tl_register(log, push_defs, 2, "app=source", src, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, push_defs, 2, "app=lookup", look, NULL), TL_OK);
	ck_assert_int_eq(tl_switched_off(log, a), 1);
	ck_assert_int_eq(tl_switched_off(log, src[0]), 1);
	ck_assert_int_eq(tl_switched_off(log, src[1]), 1);
	ck_assert_int_eq(tl_switched_off(log, look[0]), 0);
	ck_assert_int_eq(tl_switched_off(log, look[1]), 0);
	tl_close(log);
}
END_TEST

/* Checks that `timeline CMD r.timeline 'PAT'` (enable or disable) changes
 * no event and keeps a rule for events registered later, as it says. */
static void expect_later(const char *cmd, const char *pat)
{
	expect(test_str("%s r.timeline '%s'", cmd, pat), 0, "no event changed in 1 log\n",
	       test_str("timeline %s: r.timeline: '%s' matches no event yet: it will apply when "
			"one is registered\n", cmd, pat));
}

/* Registers the two definitions DEFS of LOG with ATTRS and checks that
 * each is off (1) or on (0) as OFF0 and OFF1 say. */
static void assert_registered(tl_log *log, const char *const *defs, const char *attrs, int off0,
			      int off1)
{
	uint16_t id[2];
	ck_assert_int_eq(tl_register(log, defs, 2, attrs, id, NULL), TL_OK);
	ck_assert_int_eq(tl_switched_off(log, id[0]), off0);
	ck_assert_int_eq(tl_switched_off(log, id[1]), off1);
}

/* Each "+" rule after a "-" rule is kept, a second one too (the last
 * rule that matches decides); a pattern given again moves to the end with
 * its new sign; a "+" is kept while any "-" stays before it. Events
 * registered after each change come up as the rules then say. */
START_TEST(test_on_rules_after_an_off_rule_decide_for_events_registered_later)
{
	static const char *const pull_defs[] = {
		"5,9|app.pull: outpackets\nAn app's pull begins.", "5,9|app.pulled: outpackets\nIt ends.",
	};
	uint16_t a;
	tl_log *log = rules_log(&a);
	expect_later("disable", "app.*");
	expect_later("enable", "app.push");
	expect_later("enable", "app.pull*");
	assert_rules_line("  rules        for events registered later: off 'app.*', on 'app.push', "
			  "on 'app.pull*'");
	/* app.push: on 'app.push'; app.pushed: off 'app.*' alone; both pulls:
	 * on 'app.pull*', the last */
	assert_registered(log, push_defs, "app=x", 0, 1);
	assert_registered(log, pull_defs, "app=x", 0, 0);
	/* disable 'app.pull*' again: its record moves to the end, off */
	expect("disable r.timeline 'app.pull*'", 0, "2 events off in 1 log\n", "");
	assert_rules_line("  rules        for events registered later: off 'app.*', on 'app.push', "
			  "off 'app.pull*'");
	assert_registered(log, pull_defs, "app=y", 1, 1);
	/* enable 'app.*': its "-" goes, and its "+" stays after the "-" of
	 * app.pull*, the last to match what is registered next */
	expect("enable r.timeline 'app.*'", 0, "5 events on in 1 log\n", "");
	assert_rules_line("  rules        for events registered later: on 'app.push', "
			  "off 'app.pull*', on 'app.*'");
	assert_registered(log, pull_defs, "app=z", 0, 0);
	/* enable 'app.pull*': with it gone no "-" stays, so no "+" is added */
	expect("enable r.timeline 'app.pull*'", 0, "no event changed in 1 log\n", "");
	assert_rules_line("  rules        for events registered later: on 'app.push', on 'app.*'");
	tl_close(log);
}
END_TEST

/* Patterns of 255 bytes, the longest a rule holds, work every way: the
 * CLI takes one, the library stores it, info shows it, the writer matches
 * it against an event registered later and `enable` against the events
 * there. One of 256 bytes is refused by the CLI and by the library. */
START_TEST(test_patterns_of_255_bytes_are_rules_and_of_256_refused)
{
	char p255[257], p256[258], r255[258], r256[259];
	const char *rec;
	uint16_t a, id[2];
	tl_log *log = rules_log(&a);
	const char *p = test_str("%s", path_in(test_dir, "r.timeline"));
	tl_error err;
	/* app.pus and '*' up to 255 bytes: app.push and app.pushed */
	memcpy(p255, "app.pus", 7);
	memset(p255 + 7, '*', 248);
	p255[255] = '\0';
	snprintf(p256, sizeof p256, "%s*", p255);
	ck_assert_uint_eq(strlen(p255), 255);
	ck_assert_uint_eq(strlen(p256), 256);
	expect_later("disable", p255);
	assert_rules_line(test_str("  rules        for events registered later: off '%s'", p255));
	ck_assert_int_eq(tl_register(log, push_defs, 2, NULL, id, NULL), TL_OK);
	ck_assert_int_eq(tl_switched_off(log, id[0]), 1);
	ck_assert_int_eq(tl_switched_off(log, id[1]), 1);
	expect(test_str("enable r.timeline '%s'", p255), 0, "2 events on in 1 log\n", "");
	assert_rules_line("(none)");
	/* one byte more: refused, nothing changed */
	expect(test_str("disable r.timeline '%s'", p256), 2, "",
	       test_str("timeline disable: pattern '%.40s...' is longer than 255 bytes\n", p256));
	assert_rules_line("(none)");
	tl_switch_poll(log);   /* the writer grants the enable */
	ck_assert_int_eq(tl_switched_off(log, id[0]), 0);
	/* the library: a record of 255 bytes of pattern stored, 256 refused */
	snprintf(r255, sizeof r255, "-%s", p255);
	snprintf(r256, sizeof r256, "-%s", p256);
	rec = r256;
	ck_assert_int_eq(tl_rules_file(p, 0, &rec, 1, NULL, &err), TL_E_INVAL);
	ck_assert_str_eq(err.msg, test_str("%s: rule '%s' is not '-' or '+' then 1 to 255 bytes of "
					   "pattern", p, r256));
	assert_rules_line("(none)");
	rec = r255;
	ck_assert_int_eq(tl_rules_file(p, 0, &rec, 1, NULL, &err), TL_OK);
	assert_rules_line(test_str("  rules        for events registered later: off '%s'", p255));
	tl_close(log);
}
END_TEST

START_TEST(test_enable_all_clears_the_rules)
{
	uint16_t a, id[2];
	tl_log *log = rules_log(&a);
	expect("disable r.timeline 'app.*'", 0, "no event changed in 1 log\n",
	       "timeline disable: r.timeline: 'app.*' matches no event yet: it will apply when one "
	       "is registered\n");
	/* enable of one pattern keeps it on behind the rule */
	expect("enable r.timeline 'app.pushed'", 0, "no event changed in 1 log\n",
	       "timeline enable: r.timeline: 'app.pushed' matches no event yet: it will apply when "
	       "one is registered\n");
	assert_rules_line("  rules        for events registered later: off 'app.*', "
			  "on 'app.pushed'");
	expect("enable --all r.timeline", 0, "no event changed in 1 log\n", "");
	assert_rules_line("(none)");
	ck_assert_int_eq(tl_register(log, push_defs, 2, NULL, id, NULL), TL_OK);
	ck_assert_int_eq(tl_switched_off(log, id[0]), 0);
	ck_assert_int_eq(tl_switched_off(log, id[1]), 0);
	/* enable P after disable P matching nothing removes its rule: done,
	 * not "no event matches" (it exited 2) */
	expect("disable r.timeline 'zzz.*'", 0, "no event changed in 1 log\n",
	       "timeline disable: r.timeline: 'zzz.*' matches no event yet: it will apply when one "
	       "is registered\n");
	expect("enable r.timeline 'zzz.*'", 0, "no event changed in 1 log\n", "");
	assert_rules_line("(none)");
	/* and a pattern for no event on a log without rules is still said */
	expect("enable r.timeline 'no.such'", 2, "no event changed in 1 log\n",
	       "timeline enable: no event matches 'no.such'\n");
	tl_close(log);
}
END_TEST

/* The entries examples/kv has written into the one log under DIR, once
 * there is one (waits up to 10 s for it). */
static uint64_t kv_written(const char *dir)
{
	for (int i = 0; i < 1000; i++) {
		char *o = NULL;
		tl_reader *r = NULL;
		tl_info info = { 0 };
		if (run(test_str("ls %s/*.timeline 2>/dev/null", dir), &o, NULL) == 0 && o && *o) {
			o[strcspn(o, "\n")] = '\0';
			r = tl_reader_open(o, NULL);   /* NULL while it is being born */
		}
		if (r) {
			tl_reader_info(r, &info);
			tl_reader_close(r);
		}
		free(o);
		if (info.cursor)
			return info.cursor;
		usleep(10000);
	}
	ck_abort_msg("no kv log under %s", dir);
	return 0;
}

/* Waits up to 10 s for the log under DIR to hold more than AFTER entries;
 * returns how many it holds. */
static uint64_t kv_grows_past(const char *dir, uint64_t after)
{
	uint64_t now = after;
	for (int i = 0; i < 1000 && now <= after; i++) {
		usleep(10000);
		now = kv_written(dir);
	}
	return now;
}

/* A typo in enable --only (issue 36) switched every event of a running
 * program off: now refused, the log still growing; each pattern that
 * matches nothing named, those that match not; --force as before. */
START_TEST(test_enable_only_of_a_typo_is_refused_and_the_log_still_grows)
{
	const char *kv = getenv("TIMELINE_KV");
	const char *dir = test_str("%s/kv", test_dir);
	uint64_t before, after;
	pid_t pid;
	int st;
	ck_assert_msg(kv != NULL, "TIMELINE_KV unset: run the suite with make check");
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	pid = spawn(test_str("exec %s --polls 1000000000 --rate all --dir %s", kv, dir));
	before = kv_written(dir);
	expect_refused("--only 'kv.lokup*' kv", "'kv.lokup*' matches");
	expect_refused("--only 'kv.parse*' --only 'kv.lokup*' --only 'kv.rpely*' kv",
		       "'kv.lokup*', 'kv.rpely*' match");
	expect("info kv | grep -c 'switched off\\|rules '", 1, "0\n", "");
	after = kv_grows_past(dir, before);
	ck_assert_uint_gt(after, before);
	/* --force does what it is told: the program's events all off */
	expect("enable --force --only 'kv.lokup*' kv", 0, "10 events off in 1 log\n",
	       test_str("timeline enable: kv/kv-%d.timeline: 'kv.lokup*' matches no event yet: "
			"it will apply when one is registered\n", (int)pid));
	expect("enable --all kv", 0, "10 events on in 1 log\n", "");
	/* a pattern that matches: the others off, the log growing still */
	expect("enable --only 'kv.lookup*' kv", 0, "8 events off in 1 log\n", "");
	before = kv_written(dir);
	ck_assert_uint_gt(kv_grows_past(dir, before), before);
	/* the records of the switches, in the log by now, are no event to keep;
	 * the writer is stopped first, so that a slow dump (under ASan) is not
	 * lapped by it; stopped between two stores of an entry, it leaves that
	 * one entry incomplete, and the dump says so and nothing else */
	ck_assert_int_eq(kill(pid, SIGSTOP), 0);
	ck_assert_int_eq(waitpid(pid, &st, WUNTRACED), pid);
	ck_assert(WIFSTOPPED(st));
	{
		char *o, *e;
		const char *torn = test_str("timeline dump: kv/kv-%d.timeline: 1 incomplete "
					    "entries skipped\n", (int)pid);
		ck_assert_int_eq(tl_run(&o, &e, "dump kv | grep -c timeline.switches"), 0);
		ck_assert_msg(strcmp(o, "0\n") != 0, "no switch record in the dump");
		ck_assert_msg(*e == 0 || strcmp(e, torn) == 0, "dump said: %s", e);
		free(o);
		free(e);
	}
	expect_refused("--only 'timeline.*' kv", "'timeline.*' matches");
	kill(pid, SIGKILL);
	reap(pid);
}
END_TEST

START_TEST(test_a_damaged_rules_area_is_ignored_by_the_writer_and_said_by_info)
{
	uint16_t a, b, id[2], used = 600;
	tl_log *log = rules_log(&a);
	const char *p = path_in(test_dir, "r.timeline");
	expect("disable r.timeline 'app.*' 'engine.*'", 0, "no event changed in 1 log\n",
	       "timeline disable: r.timeline: 'app.*' matches no event yet: it will apply when one "
	       "is registered\n"
	       "timeline disable: r.timeline: 'engine.*' matches no event yet: it will apply when "
	       "one is registered\n");
	/* rules left half-changed (an outside process died changing them) */
	patch_file(p, offsetof(struct tl_header, rules_seq), &(uint32_t){ 3 }, 4);
	assert_rules_line("  rules        damaged or left half-changed: its writer ignores them");
	ck_assert_int_eq(tl_register(log, engine_defs + 2, 1, NULL, &b, NULL), TL_OK);
	ck_assert_int_eq(tl_switched_off(log, b), 0);
	/* the next changer takes them over, and matches what the writer left */
	expect("disable r.timeline 'x.*'", 0, "1 event off in 1 log\n",
	       "timeline disable: r.timeline: 'x.*' matches no event yet: it will apply when one "
	       "is registered\n");
	ck_assert_int_eq(tl_switched_off(log, b), 1);
	assert_rules_line("  rules        for events registered later: off 'app.*', "
			  "off 'engine.*', off 'x.*'");
	/* a record that is neither '-' nor '+' */
	patch_file(p, offsetof(struct tl_header, rules), "x", 1);
	assert_rules_line("  rules        damaged or left half-changed: its writer ignores them");
	ck_assert_int_eq(tl_register(log, push_defs, 1, NULL, id, NULL), TL_OK);
	ck_assert_int_eq(tl_switched_off(log, id[0]), 0);
	/* more bytes than the area has */
	patch_file(p, offsetof(struct tl_header, rules), "-", 1);
	patch_file(p, offsetof(struct tl_header, rules_used), &used, sizeof used);
	assert_rules_line("  rules        damaged or left half-changed: its writer ignores them");
	ck_assert_int_eq(tl_register(log, push_defs + 1, 1, NULL, id + 1, NULL), TL_OK);
	ck_assert_int_eq(tl_switched_off(log, id[1]), 0);
	/* a change starts the rules afresh, and says so */
	expect("disable r.timeline 'x.*'", 0, "no event changed in 1 log\n",
	       "timeline disable: warning: r.timeline: rules area damaged; starting afresh\n"
	       "timeline disable: r.timeline: 'x.*' matches no event yet: it will apply when one "
	       "is registered\n");
	assert_rules_line("  rules        for events registered later: off 'x.*'");
	tl_close(log);
}
END_TEST

/* Damages the rules area of the log at P: a record that is neither '-'
 * nor '+' (KIND 0) or more bytes than the area has (KIND 1). */
static void damage_rules(const char *p, int kind)
{
	uint16_t used = 600;
	if (kind)
		patch_file(p, offsetof(struct tl_header, rules_used), &used, sizeof used);
	else
		patch_file(p, offsetof(struct tl_header, rules), "x", 1);
}

START_TEST(test_a_change_over_a_damaged_rules_area_says_it_starts_afresh)
{
	uint16_t a;
	tl_log *log = rules_log(&a);
	const char *p = path_in(test_dir, "r.timeline"), *big[2], *q = "-q.*";
	char pat[2][257];
	size_t applied = 99;
	tl_error err;
	expect("disable r.timeline 'app.*'", 0, "no event changed in 1 log\n",
	       "timeline disable: r.timeline: 'app.*' matches no event yet: it will apply when one "
	       "is registered\n");
	/* enable --only replaces the rules anyway: it says the old were damaged */
	damage_rules(p, 1);
	expect("enable --force --only 'app.push' r.timeline", 0, "1 event off in 1 log\n",
	       "timeline enable: warning: r.timeline: rules area damaged; starting afresh\n"
	       "timeline enable: r.timeline: 'app.push' matches no event yet: it will apply when "
	       "one is registered\n");
	assert_rules_line("  rules        for events registered later: off '*', on 'app.push'");
	/* enable --all too, and once the area is whole again, nothing */
	damage_rules(p, 0);
	expect("enable --all r.timeline", 0, "1 event on in 1 log\n",
	       "timeline enable: warning: r.timeline: rules area damaged; starting afresh\n");
	expect("enable --all r.timeline", 0, "no event changed in 1 log\n", "");
	/* the library: TL_OK, the warning in ERR, and none over a whole area */
	damage_rules(p, 1);
	ck_assert_int_eq(tl_rules_file(p, 0, &q, 1, &applied, &err), TL_OK);
	ck_assert_int_eq(err.code, TL_OK);
	ck_assert_str_eq(err.msg, test_str("%s: rules area damaged; starting afresh", p));
	ck_assert_uint_eq(applied, 0);
	ck_assert_int_eq(tl_rules_file(p, 0, &q, 1, &applied, &err), TL_OK);
	ck_assert_str_eq(err.msg, "");
	/* a change refused (two records of 257 bytes: full) replaces nothing,
	 * and says only why */
	damage_rules(p, 1);
	for (int i = 0; i < 2; i++) {
		pat[i][0] = '-';
		memset(pat[i] + 1, 'a' + i, 255);
		pat[i][256] = '\0';
		big[i] = pat[i];
	}
	ck_assert_int_eq(tl_rules_file(p, 0, big, 2, NULL, &err), TL_E_FULL);
	ck_assert_str_eq(err.msg, test_str("%s: rules area full: '%s' does not fit (0 of 512 bytes "
					   "used)", p, pat[1] + 1));
	assert_rules_line("  rules        damaged or left half-changed: its writer ignores them");
	tl_close(log);
}
END_TEST

START_TEST(test_a_full_rules_area_is_one_line_and_a_format_1_2_log_keeps_none)
{
	uint16_t a, minor = 2;
	tl_log *log = rules_log(&a);
	char pat[103];
	/* four rules of 102 bytes and one of 104: 512 of 512 */
	for (int i = 0; i < 5; i++) {
		memset(pat, 'a' + i, 102);
		pat[i < 4 ? 100 : 102] = '\0';
		expect(test_str("disable r.timeline '%s'", pat), 0, "no event changed in 1 log\n",
		       test_str("timeline disable: r.timeline: '%s' matches no event yet: it will "
				"apply when one is registered\n", pat));
	}
	memset(pat, 'f', 100);
	pat[100] = '\0';
	expect(test_str("disable r.timeline '%s' 't.a'", pat), 2, "1 event off in 1 log\n",
	       test_str("timeline disable: r.timeline: rules area full: '%s' does not fit "
			"(512 of 512 bytes used)\n", pat));
	patch_file(path_in(test_dir, "r.timeline"), offsetof(struct tl_header, minor), &minor,
		   sizeof minor);
	expect("disable r.timeline 'app.*'", 2, "no event changed in 1 log\n",
	       "timeline disable: r.timeline: 'app.*' matches no event, and a log of format 1.2 "
	       "keeps no rules for events registered later (1.3 does)\n");
	expect("enable r.timeline 't.a'", 0, "1 event on in 1 log\n", "");
	tl_close(log);
}
END_TEST

#define RULE_ROUNDS 2000

/* The rounds of the race: the test sets go, each side does round go and
 * says it in its done word. */
struct race {
	volatile int go, wdone, ddone;
	volatile uint16_t id;        /* the writer's: round go's message id */
	volatile int by_disabler;    /* rounds where the disabler switched it off */
};

static void wait_for(volatile int *w, int v)
{
	while (*w != v)
		sched_yield();
}

/* Registers race.eN in round N, after a pause of 0 to ~60 us. */
static void __attribute__((noreturn)) registrar(tl_log *log, struct race *rc)
{
	uint64_t x = 88172645463325252ull;
	for (int i = 1; i <= RULE_ROUNDS; i++) {
		char def[64];
		const char *d = def;
		uint16_t id;
		wait_for(&rc->go, i);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		for (volatile unsigned k = (unsigned)(x % 20000); k; k--)
			;
		snprintf(def, sizeof def, "5,5|race.e%d: n\nRound %d.", i, i);
		if (tl_register(log, &d, 1, NULL, &id, NULL) != TL_OK)
			_exit(1);
		rc->id = id;
		rc->wdone = i;
	}
	_exit(0);
}

/* Disables race.eN in round N as `timeline disable` does: the rule first,
 * then the definitions read and the matching one switched off. */
static void __attribute__((noreturn)) disabler(const char *p, struct race *rc)
{
	for (int i = 1; i <= RULE_ROUNDS; i++) {
		char rule[32], name[32];
		const char *rl = rule;
		uint16_t ids[RULE_ROUNDS + 8];
		size_t n;
		tl_reader *r;
		wait_for(&rc->go, i);
		snprintf(rule, sizeof rule, "-race.e%d", i);
		if (tl_rules_file(p, 1, &rl, 1, NULL, NULL) != TL_OK || !(r = tl_reader_open(p, NULL)))
			_exit(1);
		n = tl_reader_definitions(r, ids, RULE_ROUNDS + 8);
		for (size_t k = n > 2 ? n - 2 : 0; k < n; k++) {   /* the newest: race.eN or one before */
			tl_def *d = tl_reader_def(r, ids[k]);
			uint8_t off = 1;
			size_t changed = 0;
			snprintf(name, sizeof name, "race.e%d", i);
			if (d && d->known && !strcmp(d->name, name)) {
				if (tl_switch_file(p, &ids[k], &off, 1, &changed, NULL) != TL_OK)
					_exit(1);
				rc->by_disabler += (int)changed;
			}
		}
		tl_reader_close(r);
		rc->ddone = i;
	}
	_exit(0);
}

START_TEST(test_an_event_registered_while_disable_runs_ends_off_every_round)
{
	const char *p = test_str("%s", path_in(test_dir, "race.timeline"));
	tl_options o = { .entries = 64, .clock = TL_CLOCK_MANUAL, .name = "race", .no_prefault = 1 };
	struct race *rc = mmap(NULL, sizeof *rc, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			       -1, 0);
	tl_log *log = tl_open(p, &o, NULL);
	int st, left_on = 0;
	pid_t w, d;
	ck_assert_ptr_nonnull(log);
	if ((w = fork()) == 0)
		registrar(log, rc);
	if ((d = fork()) == 0)
		disabler(p, rc);
	for (int i = 1; i <= RULE_ROUNDS; i++) {
		rc->go = i;
		for (time_t stop = time(NULL) + 20; (rc->wdone != i || rc->ddone != i) &&
						    time(NULL) < stop;)
			sched_yield();
		ck_assert_msg(rc->wdone == i && rc->ddone == i, "round %d: a side is stuck", i);
		left_on += !tl_switched_off(log, rc->id);
	}
	ck_assert_int_eq(waitpid(w, &st, 0), w);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "registrar: status %#x", st);
	ck_assert_int_eq(waitpid(d, &st, 0), d);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "disabler: status %#x", st);
	fprintf(stderr, "rules race: %d rounds, %d switched off by the disabler's flip, %d "
		"by a rule\n", RULE_ROUNDS, rc->by_disabler, RULE_ROUNDS - rc->by_disabler);
	ck_assert_int_eq(left_on, 0);
	tl_close(log);
	munmap(rc, sizeof *rc);
}
END_TEST

/* ---- `timeline disable` racing a writer that registers events ---- */

#define CLI_GROUPS 12      /* disables: 'grpG.*' for G = 1..12 */
#define CLI_CAP 6000       /* events registered at most (the table holds 8,190) */
#define CLI_AFTER 200      /* events registered after the last disable */

/* What the writer and the disabler share with the test: per event
 * registered, what the writer saw around its registration. */
struct cli_race {
	int started, done;           /* disables begun, ended (exit 0) */
	int n;                       /* events registered */
	char why[512];               /* a failed disable's pattern, status, stderr
				      * (from a sanitizer's SUMMARY line if any) */
	uint16_t beat;               /* the heartbeat's message id */
	struct {
		uint16_t id;
		uint8_t group, odd;  /* its name grpG.eK (G 0: keep.eK), app=odd or even */
		uint8_t off;         /* switched off when tl_register() returned */
		int done_before;     /* disables ended before tl_register() began */
		int started_after;   /* disables begun when it returned */
	} ev[CLI_CAP];
};

/* The pattern of disable G: 'grpG.*', with app=odd for every fourth group
 * (G 3, 7, 11), so that attributes are matched too. */
static const char *cli_pattern(int g)
{
	return test_str(g % 4 == 3 ? "grp%d.* app=odd" : "grp%d.*", g);
}

/* Does disable G (1..CLI_GROUPS) match an event of GROUP, ODD? */
static int cli_matches(int g, int group, int odd)
{
	return g == group && (g % 4 != 3 || odd);
}

/* Does any of the first UPTO disables match event K of RC? */
static int cli_matched_by(const struct cli_race *rc, int k, int upto)
{
	for (int g = 1; g <= upto; g++)
		if (cli_matches(g, rc->ev[k].group, rc->ev[k].odd))
			return 1;
	return 0;
}

/* Registers events grpG.eK (G = K mod 13; group 0 is keep.eK, matched by
 * no disable), app=odd or even by K, each followed by one entry of it and
 * one of the heartbeat (args K, ~K), a few us apart, until CLI_AFTER have
 * come after the last disable; waits for it when the table is nearly
 * full. Exits 0, or 1 when tl_register() fails. */
static void __attribute__((noreturn)) cli_writer(tl_log *log, struct cli_race *rc)
{
	int after = 0;
	for (int k = 0; k < CLI_CAP && after < CLI_AFTER; k++) {
		char def[64];
		const char *d = def;
		int done = __atomic_load_n(&rc->done, __ATOMIC_SEQ_CST), g = k % (CLI_GROUPS + 1);
		uint16_t id;
		if (k == CLI_CAP - CLI_AFTER)
			while ((done = __atomic_load_n(&rc->done, __ATOMIC_SEQ_CST)) < CLI_GROUPS)
				usleep(1000);
		after += done == CLI_GROUPS;
		snprintf(def, sizeof def, g ? "5,5|grp%d.e%d: k\nEvent %d." : "5,5|keep.e%d: k\nEvent %d.",
			 g ? g : k, k, k);
		if (tl_register(log, &d, 1, k & 1 ? "app=odd" : "app=even", &id, NULL) != TL_OK)
			_exit(1);
		rc->ev[k].started_after = __atomic_load_n(&rc->started, __ATOMIC_SEQ_CST);
		rc->ev[k].off = (uint8_t)tl_switched_off(log, id);
		rc->ev[k].id = id;
		rc->ev[k].group = (uint8_t)g;
		rc->ev[k].odd = k & 1;
		rc->ev[k].done_before = done;
		tl_append(log, id, (uint64_t)k, ~(uint64_t)k, 0, 0, 0, 0);
		tl_append(log, rc->beat, (uint64_t)k, ~(uint64_t)k, 0, 0, 0, 0);
		__atomic_store_n(&rc->n, k + 1, __ATOMIC_SEQ_CST);
		usleep(20);
	}
	_exit(0);
}

/* Runs `timeline disable LOG 'grpG.*'` for G = 1..CLI_GROUPS, 0 to 2 ms
 * apart, counting each in started before and done after; exits 0, or 2
 * when one does not exit 0. */
static void __attribute__((noreturn)) cli_disabler(const char *p, struct cli_race *rc)
{
	uint64_t x = 88172645463325252ull ^ (uint64_t)getpid();
	for (int g = 1; g <= CLI_GROUPS; g++) {
		char *o, *e;
		int st;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		usleep((useconds_t)(x % 2000));
		__atomic_store_n(&rc->started, g, __ATOMIC_SEQ_CST);
		st = run(test_str("'%s' disable '%s' '%s'", timeline_bin(), p, cli_pattern(g)), &o, &e);
		if (st != 0)
			snprintf(rc->why, sizeof rc->why, "disable %s: exit %d: %s", cli_pattern(g), st,
				 !e ? "" : strstr(e, "SUMMARY:") ? strstr(e, "SUMMARY:") : e);
		free(o);
		free(e);
		if (st != 0)
			_exit(2);
		__atomic_store_n(&rc->done, g, __ATOMIC_SEQ_CST);
	}
	_exit(0);
}

/* Checks the entries of the log at P against what RC's writer did
 * (REC: the records' message id): the heartbeat's K = 0..n-1 in order,
 * each whole (nothing lost); of an event off when registered, none; of
 * one that a disable matched, one at most (written before the disable
 * took it); of any other, exactly one. Returns the entries of matched
 * events. */
static size_t cli_check_entries(const char *p, const struct cli_race *rc, uint16_t rec)
{
	size_t n, early = 0;
	uint64_t skipped, beats = 0;
	tl_entry *v = read_all(p, &n, &skipped);
	int *of = calloc(65536, sizeof *of), *count = calloc((size_t)rc->n, sizeof *count);
	ck_assert_uint_eq(skipped, 0);
	for (int k = 0; k < rc->n; k++)
		of[rc->ev[k].id] = k + 1;
	for (size_t i = 0; i < n; i++) {
		const tl_entry *e = &v[i];
		int k = of[e->msgid] - 1;
		tl_check(i == 0 || e->seq == v[i - 1].seq + 1, "entry %llu after %llu",
			 (unsigned long long)e->seq, (unsigned long long)v[i - 1].seq);
		if (e->msgid == rec)
			continue;
		tl_check(e->args[1] == ~e->args[0], "entry %llu torn", (unsigned long long)e->seq);
		if (e->msgid == rc->beat) {
			tl_check(e->args[0] == beats, "heartbeat %llu where %llu was due",
				 (unsigned long long)e->args[0], (unsigned long long)beats);
			beats++;
		} else {
			tl_check(k >= 0 && e->args[0] == (uint64_t)k, "entry %llu: msgid %u, k %llu",
				 (unsigned long long)e->seq, e->msgid, (unsigned long long)e->args[0]);
			count[k < 0 ? 0 : k]++;
		}
	}
	ck_assert_uint_eq(beats, (uint64_t)rc->n);
	for (int k = 0; k < rc->n; k++) {
		int matched = cli_matched_by(rc, k, CLI_GROUPS);
		int ok = rc->ev[k].off ? count[k] == 0 : matched ? count[k] <= 1 : count[k] == 1;
		tl_check(ok, "event %d (grp%d app=%s, off %d when registered): %d entries", k,
			 rc->ev[k].group, rc->ev[k].odd ? "odd" : "even", rc->ev[k].off, count[k]);
		early += matched ? (size_t)count[k] : 0;
	}
	free(v);
	free(of);
	free(count);
	return early;
}

/* The message id of the event NAME in the log at P (-1: none). */
static int def_id(const char *p, const char *name)
{
	tl_reader *r = tl_reader_open(p, NULL);
	uint16_t *ids = malloc(65536 * sizeof *ids);
	size_t n = tl_reader_definitions(r, ids, 65536);
	int id = -1;
	for (size_t i = 0; i < n && id < 0; i++) {
		tl_def *d = tl_reader_def(r, ids[i]);
		if (d && d->known && !strcmp(d->name, name))
			id = ids[i];
	}
	free(ids);
	tl_reader_close(r);
	return id;
}

/* Checks, for each event RC's writer registered, its switch when
 * tl_register() returned: on when no disable matches it; off when a
 * disable that matches it had ended before and none was in flight (a
 * change in flight leaves the matching to its changer); and now, in
 * the file: off exactly when a disable matches it. Returns how many
 * were left to a change in flight. */
static int cli_check_switches(const char *p, const struct cli_race *rc)
{
	tl_reader *r = tl_reader_open(p, NULL);
	int in_flight = 0;
	ck_assert_ptr_nonnull(r);
	for (int k = 0; k < rc->n; k++) {
		int quiet = rc->ev[k].started_after == rc->ev[k].done_before;
		int due = cli_matched_by(rc, k, rc->ev[k].done_before);
		tl_check(cli_matched_by(rc, k, CLI_GROUPS) || !rc->ev[k].off,
			 "event %d (grp%d) off when registered", k, rc->ev[k].group);
		tl_check(!due || !quiet || rc->ev[k].off, "event %d (grp%d app=%s) on when registered "
			 "after its disable ended, none in flight", k, rc->ev[k].group,
			 rc->ev[k].odd ? "odd" : "even");
		in_flight += due && !quiet && !rc->ev[k].off;
		tl_check(tl_reader_switched_off(r, rc->ev[k].id) == cli_matched_by(rc, k, CLI_GROUPS),
			 "event %d (grp%d app=%s) %s at the end", k, rc->ev[k].group,
			 rc->ev[k].odd ? "odd" : "even", tl_reader_switched_off(r, rc->ev[k].id) ? "off"
											: "on");
	}
	tl_reader_close(r);
	return in_flight;
}

START_TEST(test_events_registered_while_timeline_disable_runs_are_off_when_they_match)
{
	const char *p = test_str("%s", path_in(test_dir, "cli.timeline"));
	const char *beat = "5,5|race.beat: k\nThe writer's heartbeat, after each event.";
	/* 2 entries an event and the records (about 12 entries an event at 6,000
	 * events): the ring does not wrap */
	tl_options o = { .entries = 1 << 18, .clock = TL_CLOCK_AUTO, .strings_bytes = 1 << 20,
			 .name = "race", .no_prefault = 1 };
	struct cli_race *rc = mmap(NULL, sizeof *rc, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	tl_log *log = tl_open(p, &o, NULL);
	int st, after = 0, matched = 0, by_rule = 0, during = 0, in_flight, rec;
	char pats[512] = "";
	size_t early;
	pid_t w, d;
	ck_assert_ptr_nonnull(log);
	ck_assert_int_eq(tl_register(log, &beat, 1, NULL, &rc->beat, NULL), TL_OK);
	if ((w = fork()) == 0)
		cli_writer(log, rc);
	if ((d = fork()) == 0)
		cli_disabler(p, rc);
	ck_assert_int_eq(waitpid(d, &st, 0), d);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "disabler: status %#x: %s", st, rc->why);
	ck_assert_int_eq(waitpid(w, &st, 0), w);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer: status %#x", st);
	for (int k = 0; k < rc->n; k++) {
		after += rc->ev[k].done_before == CLI_GROUPS;
		matched += cli_matched_by(rc, k, CLI_GROUPS);
		by_rule += cli_matched_by(rc, k, rc->ev[k].done_before) && rc->ev[k].off;
		during += rc->ev[k].started_after > rc->ev[k].done_before;
	}
	ck_assert_int_eq(after, CLI_AFTER);
	in_flight = cli_check_switches(p, rc);
	rec = def_id(p, TL_SWITCH_EVENT);
	ck_assert_int_ge(rec, 0);
	ck_assert_uint_le(info_at(p).cursor, o.entries);
	early = cli_check_entries(p, rc, (uint16_t)rec);
	/* what the program says of it: the events off, the rules in order */
	for (int g = 1; g <= CLI_GROUPS; g++)
		snprintf(pats + strlen(pats), sizeof pats - strlen(pats), "%soff %s", g > 1 ? "," : "",
			 cli_pattern(g));
	expect("info -f json cli.timeline | python3 -c 'import json,sys; d=json.load(sys.stdin); "
	       "print(len(d[\"switched_off\"]), \",\".join(r[\"switch\"] + \" \" + r[\"pattern\"] "
	       "for r in d[\"rules\"]), d[\"rules_damaged\"])'", 0,
	       test_str("%d %s False\n", matched, pats), "");
	expect("dump cli.timeline > /dev/null", 0, "", "");
	fprintf(stderr, "rules race (cli): %d events (%d while a disable ran, %d after the last), "
		"%d matched: %d off from their registration, %d left to a change in flight, %zu "
		"entries written before their disable; %llu entries in all\n", rc->n, during, after,
		matched, by_rule, in_flight, early, (unsigned long long)info_at(p).cursor);
	tl_close(log);
	munmap(rc, sizeof *rc);
}
END_TEST

/* ---- tcase review-b (issue 35): the switches at their edges ---- */

/* dump's line over a log's entries counts records, not their entries:
 * write_flips()'s generations 3 and 4 have two entries each (groups 0
 * and 2), generation 1 one: 3 records; t.c is off now, alone. */
START_TEST(test_dump_counts_a_record_of_two_entries_once)
{
	const char *p = test_str("%s", path_in(test_dir, "n.timeline"));
	write_flips(p, 64, 4 * 64 * 9 + 4 * 4);
	expect("dump n.timeline | head -n 1", 0,
	       "# n.timeline: events were switched off during these entries (3 records of changes, "
	       "1 event off now): a missing entry may mean off, not none\n", "");
	expect("dump -f json n.timeline 2>&1 >/dev/null", 0,
	       "timeline dump: n.timeline: events were switched off during these entries (3 records "
	       "of changes, 1 event off now): a missing entry may mean off, not none\n", "");
}
END_TEST

/* A log with one event off now, and no record of it yet (its writer
 * wrote nothing since), counts among the logs that had events off: one
 * is the least that counts; none off, and the log does not count. An
 * event asked to go on, which its writer has not granted yet, is on to
 * every reader: info lists none off, and enable again changes nothing. */
START_TEST(test_stats_counts_a_log_with_one_event_off_now_and_no_record)
{
	const char *p = test_str("%s", path_in(test_dir, "d.timeline"));
	const char *q = test_str("%s", path_in(test_dir, "e.timeline"));
	uint16_t ids[3], other[3];
	tl_log *log = open_abc(p, TL_CLOCK_MANUAL, 64, ids);
	tl_log *log2 = open_abc(q, TL_CLOCK_MANUAL, 64, other);
	char *l;
	tl_set_manual_clock(log, 1000, 0);
	tl_append(log, ids[0], 1, 2, 0, 0, 0, 0);
	tl_set_manual_clock(log2, 1000, 0);
	tl_append(log2, other[0], 1, 2, 0, 0, 0, 0);
	expect("stats -f json d.timeline e.timeline | grep -c switches", 1, "0\n", "");
	ck_assert_uint_eq(flip_one(p, ids[1], 1), 1);
	expect("stats -f json d.timeline e.timeline | grep switches", 0,
	       "{\"table\":\"switches\",\"logs\":1,\"records\":0,\"skipped\":0}\n", "");
	expect("stats d.timeline | head -n 1", 0,
	       "switches: 1 log had events switched off during its span (0 records of changes): "
	       "missing entries may mean off; 0 pairs across a change skipped\n", "");
	/* asked to go on, not granted: on to readers */
	expect("enable d.timeline t.b", 0, "1 event on in 1 log\n", "");
	l = off_line("d.timeline");
	ck_assert_str_eq(l, "(none)");
	free(l);
	expect("enable d.timeline t.b", 0, "no event changed in 1 log\n", "");
	expect("stats -f json d.timeline e.timeline | grep -c switches", 1, "0\n", "");
	tl_close(log);
	tl_close(log2);
}
END_TEST

Suite *switch_suite(void)
{
	Suite *s = suite_create("switch");
	TCase *t = tcase_create("lib");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_add_test(t, test_switched_off_event_is_never_written_and_the_change_is_recorded_first);
	tcase_add_test(t, test_a_record_names_every_word_that_is_or_was_off);
	tcase_add_test(t, test_a_generated_event_switched_on_is_logged_from_its_first_call);
	tcase_add_test(t, test_a_reader_of_a_format_1_1_log_sees_every_event_on);
	tcase_add_test(t, test_switch_file_refuses_a_snabb_log_and_names_the_file);
	suite_add_tcase(s, t);
	t = tcase_create("race");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_reader_never_sees_an_event_while_it_is_off_across_10000_flips);
	tcase_add_test(t, test_writers_killed_while_switches_flip_keep_every_returned_event);
	suite_add_tcase(s, t);
	t = tcase_create("cli");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 30);   /* each runs the program 6 to 10 times */
	tcase_add_test(t, test_disable_and_enable_by_pattern_say_what_changed);
	tcase_add_test(t, test_enable_walks_directories_and_names_patterns_that_match_nothing);
	tcase_add_test(t, test_enable_refuses_snabb_logs_old_logs_and_bad_usage);
	tcase_add_test(t, test_disable_warns_on_a_dead_writers_log_and_needs_write_access);
	tcase_add_test(t, test_switching_another_hosts_log_warns_that_its_writer_will_not_see_it);
	tcase_add_test(t, test_stats_counts_only_pairs_whose_ends_were_both_on_and_says_how_many_skipped);
	tcase_add_test(t, test_dump_says_when_events_were_off_during_its_entries);
	tcase_add_test(t, test_dump_names_the_events_each_record_switched_off_and_on);
	tcase_add_test(t,
		       test_dump_of_a_wrapped_ring_says_the_switches_before_its_first_record_are_unknown);
	tcase_add_test(t, test_dump_of_a_ring_exactly_full_knows_the_switches_before_its_first_record);
	tcase_add_test(t, test_dump_follow_from_the_newest_entries_knows_no_switches_before_them);
	tcase_add_test(t, test_info_ls_and_top_count_the_events_off);
	suite_add_tcase(s, t);
	t = tcase_create("rules");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_an_event_registered_after_disable_is_never_written);
	tcase_add_test(t, test_enable_only_before_registration_leaves_only_its_events_on);
	tcase_add_test(t, test_on_rules_after_an_off_rule_decide_for_events_registered_later);
	tcase_add_test(t, test_patterns_of_255_bytes_are_rules_and_of_256_refused);
	tcase_add_test(t, test_enable_all_clears_the_rules);
	tcase_add_test(t, test_enable_only_of_a_typo_is_refused_and_the_log_still_grows);
	tcase_add_test(t, test_a_damaged_rules_area_is_ignored_by_the_writer_and_said_by_info);
	tcase_add_test(t, test_a_change_over_a_damaged_rules_area_says_it_starts_afresh);
	tcase_add_test(t, test_a_full_rules_area_is_one_line_and_a_format_1_2_log_keeps_none);
	tcase_add_test(t, test_an_event_registered_while_disable_runs_ends_off_every_round);
	tcase_add_test(t, test_events_registered_while_timeline_disable_runs_are_off_when_they_match);
	suite_add_tcase(s, t);
	t = tcase_create("review-b");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_dump_counts_a_record_of_two_entries_once);
	tcase_add_test(t, test_stats_counts_a_log_with_one_event_off_now_and_no_record);
	suite_add_tcase(s, t);
	return s;
}
