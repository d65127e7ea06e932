/* rules.c: the rules for events not registered yet (format 1.3): patterns
 * matched against definitions (tl_def_matches), the rules area read as
 * untrusted bytes (tl_rules_valid, tl_rules_off), and the writer's side:
 * each new definition matched against them when it is interned
 * (tl_rules_register). The outside side is tl_rules_file (switchfile.c). */
#include <fnmatch.h>
#include <string.h>
#include "format.h"
#include "rules.h"

/* Copies LEN bytes of S into BUF (SIZE) as a C string; 0 if they do not fit. */
static int cstr(char *buf, size_t size, const char *s, size_t len)
{
	if (len >= size)
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return 1;
}

/* Does some word of ATTRS (LEN bytes, words split by spaces) match G? */
static int attr_matches(const char *attrs, size_t len, const char *g)
{
	char word[TL_RULE_MAX + 1];
	size_t i = 0;
	while (i < len) {
		size_t n = 0;
		while (i + n < len && attrs[i + n] != ' ')
			n++;
		if (n && cstr(word, sizeof word, attrs + i, n) && !fnmatch(g, word, 0))
			return 1;
		i += n + 1;
	}
	return 0;
}

int tl_def_matches(const tl_def *d, const char *pattern)
{
	char buf[TL_RULE_MAX + 1], name[TL_RULE_MAX + 1], *save = NULL, *w;
	if (!cstr(buf, sizeof buf, pattern, strlen(pattern)) ||
	    !cstr(name, sizeof name, d->name, d->name_len))
		return 0;
	w = strtok_r(buf, " ", &save);
	if (!w || fnmatch(w, name, 0))
		return 0;
	while ((w = strtok_r(NULL, " ", &save)))
		if (!attr_matches(d->attrs ? d->attrs : "", d->attrs ? d->attrs_len : 0, w))
			return 0;
	return 1;
}

int tl_rules_valid(const char *rules, size_t len)
{
	size_t i = 0;
	if (len > TL_RULES_BYTES)
		return 0;
	while (i < len) {
		const char *nul = memchr(rules + i, '\0', len - i);
		size_t n = nul ? (size_t)(nul - (rules + i)) : 0;
		/* '-' or '+', 1 to TL_RULE_MAX bytes of pattern, a NUL */
		if (!nul || n < 2 || n - 1 > TL_RULE_MAX || (rules[i] != '-' && rules[i] != '+'))
			return 0;
		i += n + 1;
	}
	return 1;
}

int tl_rules_off(const char *rules, size_t len, const tl_def *d)
{
	int off = 0;
	if (!tl_rules_valid(rules, len))
		return -1;
	for (size_t i = 0; i < len; i += strlen(rules + i) + 1)
		if (tl_def_matches(d, rules + i + 1))
			off = rules[i] == '-';
	return off;
}

int tl_rules_applies(const tl_def *d)
{
	return !(d->name_len == sizeof TL_SWITCH_EVENT - 1 &&
		 !memcmp(d->name, TL_SWITCH_EVENT, d->name_len) && !d->attrs_len);
}

size_t tl_rules_walk(const char *table, size_t n, uint32_t base, const char *rules, size_t len,
		     int (*off)(void *ctx, uint16_t id), void *ctx)
{
	size_t sum = 0;
	tl_def d;
	for (size_t at = 0; at < n;) {
		size_t slen = strnlen(table + at, n - at);
		if (slen && tl_def_parse(table + at, slen, &d, NULL) == TL_OK && tl_rules_applies(&d) &&
		    tl_rules_off(rules, len, &d) == 1)
			sum += (size_t)off(ctx, (uint16_t)((base + at) / 16));
		at += slen ? (slen + 16) & ~(size_t)15 : 16;
	}
	return sum;
}

/* Switches ID off in H unless it is (compare-and-swap: outside processes
 * flip the same word); marks it in MINE when this call did. */
static void rule_off(struct tl_header *h, uint16_t id, uint64_t *mine)
{
	uint64_t bit = 1ull << TL_SWITCH_BIT(id), req = bit << 1;
	uint64_t *w = &h->switches[TL_SWITCH_WORD(id)], old = __atomic_load_n(w, __ATOMIC_ACQUIRE);
	do {
		if ((old & bit) && !(old & req))
			return;
	} while (!__atomic_compare_exchange_n(w, &old, (old | bit) & ~req, 0, __ATOMIC_SEQ_CST,
					      __ATOMIC_ACQUIRE));
	mine[TL_SWITCH_WORD(id)] |= bit;
}

/* The header and the switches this call turned off, for new_off(). */
struct new_ctx {
	struct tl_header *h;
	uint64_t *mine;
};

/* tl_rules_walk()'s OFF for the writer: ID off (rule_off()); counts it. */
static int new_off(void *ctx, uint16_t id)
{
	struct new_ctx *c = ctx;
	rule_off(c->h, id, c->mine);
	return 1;
}

/* Switches off, in H, the definitions of its string table from byte FROM
 * to USED that RULES (LEN bytes, valid) say off, marking them in MINE;
 * returns how many. */
static size_t match_new(struct tl_header *h, const char *rules, size_t len, uint32_t from,
			uint32_t used, uint64_t *mine)
{
	struct new_ctx c = { h, mine };
	from &= ~15u;
	return from < used ? tl_rules_walk((const char *)h + h->strings_offset + from, used - from,
					   from, rules, len, new_off, &c) : 0;
}

/* Switches back on what MINE says this call switched off. */
static void undo(struct tl_header *h, uint64_t *mine)
{
	for (unsigned w = 0; w < TL_SWITCH_WORDS; w++)
		if (mine[w]) {
			__atomic_fetch_and(&h->switches[w], ~mine[w], __ATOMIC_SEQ_CST);
			mine[w] = 0;
		}
}

/* The race with an outside process changing the rules (a `disable` run
 * while the program registers the event it names) is Dekker's: each side
 * publishes, fences, then checks the other's. The writer publishes the new
 * definition (strings_used), then reads the rules; the outside process
 * publishes the rules (rules_seq even again), then reads the string table
 * past rules_checked (tl_rules_file) and the definitions (`timeline
 * enable`). With a sequentially consistent fence between each side's store
 * and load, at least one sees the other: the writer sees the new rules, or
 * the outside process sees the new definition. The writer leaves every
 * definition it could not match (the rules odd, being changed, or changed
 * under it) below rules_checked unadvanced, for that outside process to
 * match; it switches back on what it switched off from rules that changed
 * before it was done, and tries again with the new ones, at most
 * RULE_TRIES times. */
#define RULE_TRIES 64

void tl_rules_register(struct tl_header *h)
{
	uint32_t used = h->strings_used, from = h->rules_checked, seq;
	uint64_t mine[TL_SWITCH_WORDS] = { 0 };
	char rules[TL_RULES_BYTES];
	size_t len;

	if (h->minor < 3 || h->disabled)
		return;
	if (from > used)   /* not ours: an outside process wrote it */
		from = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);   /* the definition published, then the rules */
	for (int t = 0; t < RULE_TRIES; t++) {
		seq = __atomic_load_n(&h->rules_seq, __ATOMIC_SEQ_CST);
		if (seq & 1)
			return;   /* being changed: its changer matches what is left */
		len = __atomic_load_n(&h->rules_used, __ATOMIC_RELAXED);
		if (len > TL_RULES_BYTES)
			len = TL_RULES_BYTES + 1;   /* damaged, said by tl_rules_valid() */
		else
			memcpy(rules, h->rules, len);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&h->rules_seq, __ATOMIC_RELAXED) != seq)
			continue;   /* torn copy */
		if (tl_rules_valid(rules, len) && match_new(h, rules, len, from, used, mine)) {
			if (__atomic_load_n(&h->rules_seq, __ATOMIC_SEQ_CST) != seq) {
				undo(h, mine);   /* matched against rules since replaced */
				continue;
			}
			__atomic_fetch_add(&h->switch_gen, 1, __ATOMIC_SEQ_CST);
			__atomic_store_n(&h->switch_pending, 1, __ATOMIC_SEQ_CST);
		}
		__atomic_store_n(&h->rules_checked, used, __ATOMIC_SEQ_CST);
		return;
	}
}
