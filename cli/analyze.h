/* analyze.h: kept only for cli/export.c, which parses its --pair rules with
 * analyze_pair(). The options of stats and diff are anopts.h's now; this
 * goes once export.c includes anopts.h and calls anopts_pair(). */
#ifndef TL_ANALYZE_H
#define TL_ANALYZE_H
#include "anopts.h"

static inline int analyze_pair(struct an_pair *p, const char *arg)
{
	return anopts_pair(p, arg);
}
#endif
