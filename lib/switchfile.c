/* switchfile.c: the event switches seen from outside the writer: read from
 * a reader's header and its records (tl_reader_switched_off, tl_switch_apply),
 * and flipped in a log given by path (tl_switch_file), through a shared
 * mapping of its header; the rules for events registered later, read
 * (tl_reader_rules) and changed (tl_rules_file). Apart from lib/switch.c
 * and lib/rules.c, the writer's side, so a program that only writes logs
 * does not link the reader. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "error.h"
#include "format.h"
#include "reader.h"
#include "rules.h"

/* Does the log R reads have switches (ours, format 1.2 or later)? */
static int has_switches(const tl_reader *r)
{
	return r->format == TL_FORMAT_NATIVE && r->minor >= 2;
}

/* The events of word W that are off and not asked to go on: their bits. */
static uint64_t off_bits(uint64_t w)
{
	return w & ~TL_SWITCH_ON_REQ & ~((w & TL_SWITCH_ON_REQ) >> 1);
}

void tl_reader_switch_words(const tl_reader *r, uint64_t *words)
{
	for (unsigned w = 0; w < TL_SWITCH_WORDS; w++)
		words[w] = has_switches(r) ? off_bits(__atomic_load_n(&r->h->switches[w],
								       __ATOMIC_ACQUIRE))
					   : 0;
}

int tl_reader_switched_off(const tl_reader *r, uint16_t msgid)
{
	if (!has_switches(r))
		return 0;
	return (int)(off_bits(__atomic_load_n(&r->h->switches[TL_SWITCH_WORD(msgid)],
					      __ATOMIC_ACQUIRE)) >> TL_SWITCH_BIT(msgid) & 1);
}

unsigned tl_reader_switches_off(const tl_reader *r)
{
	unsigned n = 0;
	for (unsigned w = 0; has_switches(r) && w < TL_SWITCH_WORDS; w++)
		n += (unsigned)__builtin_popcountll(off_bits(__atomic_load_n(&r->h->switches[w],
									      __ATOMIC_ACQUIRE)));
	return n;
}

int tl_reader_is_switch_entry(tl_reader *r, const tl_entry *e)
{
	const tl_def *d;
	if (!has_switches(r))
		return 0;
	d = tl_reader_def(r, e->msgid);
	return d && d->known && d->name_len == sizeof TL_SWITCH_EVENT - 1 &&
	       !memcmp(d->name, TL_SWITCH_EVENT, d->name_len) && !*d->attrs;
}

unsigned tl_switch_apply(uint64_t *words, const tl_entry *e)
{
	unsigned changed = 0;
	uint64_t first = e->args[1];
	if (first == 0)   /* a new record: the words it leaves out are 0 */
		for (unsigned w = TL_SWITCH_GROUP; w < TL_SWITCH_WORDS; w++) {
			changed += (unsigned)__builtin_popcountll(words[w]);
			words[w] = 0;
		}
	for (unsigned k = 0; k < TL_SWITCH_GROUP; k++) {
		if (first + k >= TL_SWITCH_WORDS)
			break;
		changed += (unsigned)__builtin_popcountll(words[first + k] ^ e->args[2 + k]);
		words[first + k] = e->args[2 + k];
	}
	return changed;
}

/* Why a log that does not pass as ours cannot be switched: the reader's
 * own message for it. */
static int refuse(int fd, const char *path, tl_error *err)
{
	tl_reader *r = tl_reader_open_fd(fd, path, err);
	if (!r)
		return err ? err->code : TL_E_FORMAT;
	tl_reader_close(r);
	return tl_fail(err, TL_E_FORMAT, 0, "%s: not a log with event switches", path);
}

/* Checks the file open at FD (PATH) as cheaply as a flip allows (only the
 * header is touched): a log of ours, by its magic, of major 1 and minor 2
 * or later; anything else is refused with the reader's message, or for
 * Snabb files, compressed copies and older logs, with why they have no
 * switches. */
static int check_file(int fd, const char *path, tl_error *err)
{
	struct tl_header h;
	struct stat st;
	int kind = tl_probe(fd);
	if (kind & TL_FORMAT_ZSTD)
		return tl_fail(err, TL_E_INVAL, 0, "%s: a compressed copy has no writer to switch", path);
	if (kind == TL_FORMAT_SNABB)
		return tl_fail(err, TL_E_INVAL, 0, "%s: a Snabb log has no event switches", path);
	if (kind != TL_FORMAT_NATIVE || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h || h.major != TL_MAJOR)
		return refuse(fd, path, err);
	if (h.minor < 2)
		return tl_fail(err, TL_E_INVAL, 0,
			       "%s: a log of format 1.%u has no event switches (1.2 has)", path, h.minor);
	return TL_OK;
}

/* Opens PATH for writing, checked; -1 on failure, with *RC the status
 * (ERR filled). Without write access, says why the file cannot be
 * switched anyway when it has no switches, else why it cannot be opened
 * for writing. */
static int open_checked(const char *path, int *rc, tl_error *err)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK), ro, e = errno;
	if (fd < 0) {
		*rc = TL_OK;
		if ((ro = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) >= 0) {
			*rc = check_file(ro, path, err);
			close(ro);
		}
		if (*rc == TL_OK)
			*rc = tl_fail(err, TL_E_SYS, e, "%s", path);
		return -1;
	}
	if ((*rc = check_file(fd, path, err)) != TL_OK) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Switches ID in H off (OFF), at once, or asks its writer to switch it on
 * (the request bit beside it: the writer grants it, records it and only
 * then writes the event); returns 1 if that changed what was asked. */
static int flip(struct tl_header *h, uint16_t id, int off)
{
	uint64_t bit = 1ull << TL_SWITCH_BIT(id), req = bit << 1, old, now;
	uint64_t *w = &h->switches[TL_SWITCH_WORD(id)];
	if (TL_SWITCH_BIT(id) & 1)   /* not the start of a definition */
		return 0;
	old = __atomic_load_n(w, __ATOMIC_ACQUIRE);
	do {
		int was_off = (old & bit) && !(old & req);
		if (was_off == !!off)
			return 0;
		now = off ? (old | bit) & ~req : old | req;
	} while (!__atomic_compare_exchange_n(w, &old, now, 0, __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE));
	return 1;
}

int tl_switch_file(const char *path, const uint16_t *ids, const uint8_t *off, size_t n,
		   size_t *changed, tl_error *err)
{
	struct tl_header *h;
	size_t moved = 0;
	int fd, rc;

	tl_ok(err);
	if (changed)
		*changed = 0;
	if ((fd = open_checked(path, &rc, err)) < 0)
		return rc;
	h = mmap(NULL, TL_HEADER_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (h == MAP_FAILED)
		return tl_fail(err, TL_E_SYS, errno, "%s: cannot map", path);
	for (size_t i = 0; i < n; i++)
		moved += (size_t)flip(h, ids[i], off[i]);
	/* the bits first, then the count and the flag the writer tests: when
	 * it sees the flag, it sees the bits (x86 keeps stores in order) */
	if (moved) {
		__atomic_fetch_add(&h->switch_gen, 1, __ATOMIC_SEQ_CST);
		__atomic_store_n(&h->switch_pending, 1, __ATOMIC_SEQ_CST);
	}
	munmap(h, TL_HEADER_BYTES);
	if (changed)
		*changed = moved;
	return TL_OK;
}

/* ---- rules for events registered later (format 1.3) ---- */

/* Copies H's rules into BUF (TL_RULES_BYTES), as a seqlock reader: the
 * length, or -1 when they stay odd (left half-changed) or are damaged. */
static long copy_rules(const struct tl_header *h, char *buf)
{
	for (int t = 0; t < 100; t++) {
		uint32_t seq = __atomic_load_n(&h->rules_seq, __ATOMIC_ACQUIRE);
		size_t len = __atomic_load_n(&h->rules_used, __ATOMIC_RELAXED);
		if (seq & 1) {
			usleep(100);
			continue;
		}
		if (len <= TL_RULES_BYTES)
			memcpy(buf, h->rules, len);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&h->rules_seq, __ATOMIC_RELAXED) == seq)
			return tl_rules_valid(buf, len) ? (long)len : -1;
	}
	return -1;
}

int tl_reader_rules(const tl_reader *r, char *buf, size_t *len, tl_error *err)
{
	long n;
	tl_ok(err);
	*len = 0;
	if (r->format != TL_FORMAT_NATIVE || r->minor < 3)
		return tl_fail(err, TL_E_INVAL, 0, "a log of format before 1.3 has no rules");
	if ((n = copy_rules(r->h, buf)) < 0)
		return tl_fail(err, TL_E_FORMAT, 0, "%.*s: rules area damaged or left half-changed: "
			       "its writer ignores it", (int)sizeof r->h->path, r->h->path);
	*len = (size_t)n;
	return TL_OK;
}

/* The rules being made: records, each a sign and a pattern. */
struct rule_list {
	char sign[TL_RULES_BYTES + 64];
	const char *pat[TL_RULES_BYTES + 64];
	size_t n;
};

/* Adds SIGN PAT to L, replacing the records of the same pattern; "+" only
 * when a "-" record stays before it. */
static void add_rule(struct rule_list *l, char sign, const char *pat)
{
	size_t k = 0;
	int off_before = 0;
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->pat[i], pat)) {
			l->sign[k] = l->sign[i];
			l->pat[k++] = l->pat[i];
			off_before |= l->sign[i] == '-';
		}
	l->n = k;
	if (sign == '-' || off_before) {
		l->sign[l->n] = sign;
		l->pat[l->n++] = pat;
	}
}

/* Writes L into OUT (TL_RULES_BYTES); its length, or -1 (*RC and ERR
 * filled, with PATH and the OLD length) when it does not fit. */
static long put_rules(const struct rule_list *l, char *out, const char *path, size_t old,
		      int *rc, tl_error *err)
{
	size_t len = 0;
	for (size_t i = 0; i < l->n; i++) {
		size_t n = strlen(l->pat[i]) + 2;
		if (len + n > TL_RULES_BYTES)
			return *rc = tl_fail(err, TL_E_FULL, 0, "%s: rules area full: '%s' does not "
					     "fit (%zu of %d bytes used)", path, l->pat[i], old,
					     TL_RULES_BYTES), -1;
		out[len] = l->sign[i];
		memcpy(out + len + 1, l->pat[i], n - 1);
		len += n;
	}
	return (long)len;
}

/* H's rules into BUF (TL_RULES_BYTES), read under the lock, whatever
 * rules_seq says (odd: left by a changer that died, its rules whole or
 * not, checked): their length, or -1 when damaged. */
static long locked_rules(const struct tl_header *h, char *buf)
{
	size_t len = __atomic_load_n(&h->rules_used, __ATOMIC_ACQUIRE);
	if (len > TL_RULES_BYTES)
		return -1;
	memcpy(buf, h->rules, len);
	return tl_rules_valid(buf, len) ? (long)len : -1;
}

/* The OLD rules (LEN bytes; none when LEN < 0) with the N records RULES
 * added, into OUT; its length, or -1 (*RC and ERR filled). */
static long compose(const char *old, long len, const char *const *rules, size_t n, char *out,
		    const char *path, int *rc, tl_error *err)
{
	struct rule_list *l = calloc(1, sizeof *l);
	long put;
	if (!l)
		return *rc = tl_fail(err, TL_E_NOMEM, ENOMEM, "%s: cannot change its rules", path), -1;
	for (long i = 0; len > 0 && i < len; i += (long)strlen(old + i) + 1) {
		l->sign[l->n] = old[i];
		l->pat[l->n++] = old + i + 1;
	}
	for (size_t i = 0; i < n; i++)
		add_rule(l, rules[i][0], rules[i] + 1);
	put = put_rules(l, out, path, len > 0 ? (size_t)len : 0, rc, err);
	free(l);
	return put;
}

/* Stores the LEN bytes RULES in H, rules_seq odd meanwhile (held under
 * flock, so a seq found odd was left by a changer that died: reused). */
static void store_rules(struct tl_header *h, const char *rules, size_t len)
{
	uint32_t seq = __atomic_load_n(&h->rules_seq, __ATOMIC_SEQ_CST) | 1;
	__atomic_store_n(&h->rules_seq, seq, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	memcpy(h->rules, rules, len);
	memset(h->rules + len, 0, TL_RULES_BYTES - len);
	__atomic_store_n(&h->rules_used, (uint16_t)len, __ATOMIC_RELAXED);
	__atomic_store_n(&h->rules_seq, seq + 1, __ATOMIC_SEQ_CST);
	/* the rules published, then the definitions read (lib/rules.c) */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* tl_rules_walk()'s OFF for a changer: ID off in the header CTX (flip());
 * 1 when that changed it. */
static int flip_off(void *ctx, uint16_t id)
{
	return flip(ctx, id, 1);
}

/* Switches off, in H (its file FD), each definition from rules_checked
 * on, which its writer has not matched yet, that RULES (LEN) say off;
 * returns how many changed. */
static size_t match_unchecked(struct tl_header *h, int fd, const char *rules, size_t len)
{
	uint32_t from = __atomic_load_n(&h->rules_checked, __ATOMIC_SEQ_CST) & ~15u;
	uint64_t used = __atomic_load_n(&h->strings_used, __ATOMIC_SEQ_CST), n;
	size_t moved = 0;
	char *table;
	if (used > h->strings_bytes || from >= used || !(table = malloc(used - from)))
		return 0;
	/* strings start at multiples of 16, and rules_checked is where one ended */
	n = used - from;
	if (pread(fd, table, n, (off_t)(h->strings_offset + from)) == (ssize_t)n)
		moved = tl_rules_walk(table, n, from, rules, len, flip_off, h);
	free(table);
	return moved;
}

/* Checks that the N records RULES are '-' or '+' then 1 to TL_RULE_MAX bytes. */
static int check_records(const char *const *rules, size_t n, const char *path, tl_error *err)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(rules[i]);
		if ((rules[i][0] != '-' && rules[i][0] != '+') || len < 2 || len - 1 > TL_RULE_MAX)
			return tl_fail(err, TL_E_INVAL, 0, "%s: rule '%s' is not '-' or '+' then "
				       "1 to %d bytes of pattern", path, rules[i], TL_RULE_MAX);
	}
	return TL_OK;
}

/* Changes the rules of H (its file FD, PATH, locked) as tl_rules_file()
 * does; returns its status, *MOVED the switches it turned off. A damaged
 * area is replaced all the same, and said in ERR as a warning (TL_OK). */
static int change_rules(struct tl_header *h, int fd, const char *path, int clear,
			const char *const *rules, size_t n, size_t *moved, tl_error *err)
{
	char out[TL_RULES_BYTES], before[TL_RULES_BYTES];
	long old = locked_rules(h, before), len;
	int rc = TL_OK;
	if ((len = compose(before, clear ? 0 : old, rules, n, out, path, &rc, err)) < 0)
		return rc;
	store_rules(h, out, (size_t)len);
	if ((*moved = match_unchecked(h, fd, out, (size_t)len))) {
		__atomic_fetch_add(&h->switch_gen, 1, __ATOMIC_SEQ_CST);
		__atomic_store_n(&h->switch_pending, 1, __ATOMIC_SEQ_CST);
	}
	if (old < 0)
		tl_fail(err, TL_OK, 0, "%s: rules area damaged; starting afresh", path);
	return TL_OK;
}

int tl_rules_file(const char *path, int clear, const char *const *rules, size_t n,
		  size_t *applied, tl_error *err)
{
	struct tl_header *h;
	size_t moved = 0;
	int fd, rc;

	tl_ok(err);
	if (applied)
		*applied = 0;
	if ((rc = check_records(rules, n, path, err)) != TL_OK ||
	    (fd = open_checked(path, &rc, err)) < 0)
		return rc;
	if (flock(fd, LOCK_EX) != 0) {
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot lock", path);
		close(fd);
		return rc;
	}
	h = mmap(NULL, TL_HEADER_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED)
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot map", path);
	else if (h->minor < 3)
		rc = tl_fail(err, TL_E_INVAL, 0, "%s: a log of format 1.%u keeps no rules for events "
			     "registered later (1.3 does)", path, h->minor);
	else
		rc = change_rules(h, fd, path, clear, rules, n, &moved, err);
	if (h != MAP_FAILED)
		munmap(h, TL_HEADER_BYTES);
	close(fd);   /* and the lock */
	if (applied)
		*applied = moved;
	return rc;
}
