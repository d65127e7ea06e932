/* rules.h: the rules for events registered later (lib/rules.c): the
 * writer's side, called when it interns a new string. Internal. */
#ifndef TL_RULES_H
#define TL_RULES_H

#include "format.h"
#include "timeline.h"

/* Matches the definitions H's writer interned since its last call (from
 * rules_checked to strings_used) against the rules, switching off those
 * they say off. After the new string is published; never fails: damaged
 * rules are ignored, rules being changed are left to their changer. */
void tl_rules_register(struct tl_header *h);

/* Do the LEN bytes RULES hold records "-PATTERN\0" or "+PATTERN\0" (a
 * pattern 1 to TL_RULE_MAX bytes), and no more than TL_RULES_BYTES? */
int tl_rules_valid(const char *rules, size_t len);

/* What RULES (LEN bytes) say of D: 1 off, 0 on (the last record whose
 * pattern matches decides; none: on), -1 when they are not valid. */
int tl_rules_off(const char *rules, size_t len, const tl_def *d);

/* Do rules apply to D? Not to TL_SWITCH_EVENT, the records of the switches. */
int tl_rules_applies(const tl_def *d);

/* Walks the N bytes TABLE of a string table, starting at its byte BASE
 * (a multiple of 16), and calls OFF(CTX, id) for each definition the
 * valid RULES (LEN bytes) say off; returns the sum of what OFF returned.
 * A string may end at TABLE + N unterminated: it is read no further. */
size_t tl_rules_walk(const char *table, size_t n, uint32_t base, const char *rules, size_t len,
		     int (*off)(void *ctx, uint16_t id), void *ctx);

#endif
