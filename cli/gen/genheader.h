/* genheader.h: what `timeline gen` writes (genheader.c): the C header of an
 * events file, after checking that its names make valid, unclashing C. */
#ifndef TL_GENHEADER_H
#define TL_GENHEADER_H
#include <stdio.h>
#include "timeline.h"

/* Checks the event and argument names of EV, loaded from FILE: reports the
 * first that would not make valid C or would clash ("timeline gen:
 * FILE:LINE: ..."), and returns -1; else 0. */
int genheader_check(const tl_events *ev, const char *file);

/* Writes the header for EV, loaded from FILE, with names starting PREFIX. */
void genheader_write(FILE *f, const tl_events *ev, const char *file, const char *prefix);
#endif
