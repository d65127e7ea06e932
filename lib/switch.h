/* switch.h: the writer's side of the event switches (lib/switch.c; its
 * entry point tl_switch_sync() is public), and the raw append that records
 * them. Internal. */
#ifndef TL_SWITCH_H
#define TL_SWITCH_H

#include "timeline.h"

/* The definition interned for the records of the switches. */
extern const char tl_switch_def[];

/* tl_switch_sync()'s work, for asm/append.S to call without the PLT. */
void tl_switch_record(tl_log *log);

/* tl_append_c() without the switch tests: the entry is written. */
void tl_append_raw(tl_log *log, unsigned msgid, uint64_t a0, uint64_t a1, uint64_t a2,
		   uint64_t a3, uint64_t a4, uint64_t a5);

#endif
