/* pairs.h: pair declarations inside an events file (pairs.c), for the
 * events-file parser (events.c). */
#ifndef TL_PAIRS_H
#define TL_PAIRS_H
#include "timeline.h"

/* Is the line S (LEN bytes) a pair declaration, "pair|..."? */
int tl_pair_line(const char *s, size_t len);

/* Adds the pair declared by the line S (LEN bytes), LINE of FILE, to EV
 * (checked later, by tl_events_check_pairs()). @return TL_OK, or
 * TL_E_PARSE / TL_E_NOMEM with ERR "FILE:LINE: problem". */
int tl_events_add_pair(tl_events *ev, const char *s, size_t len, unsigned line, const char *file,
		       tl_error *err);

/* Checks EV's pairs against its events (begin and end declared, units
 * arguments of the end, labels once) and makes their interned forms in
 * EV->pair_canon. @return TL_OK, or TL_E_PARSE with ERR "FILE:LINE: problem". */
int tl_events_check_pairs(tl_events *ev, const char *file, tl_error *err);
#endif
