/* arm.h: the flight recorder inside lib/ (lib/arm.c the writer's side and
 * the settings, lib/armfile.c the outside's). Internal. */
#ifndef TL_ARM_H
#define TL_ARM_H
#include "format.h"
#include "timeline.h"

/* tl_breath()'s, when the header's armed byte is not 0: looks at the
 * entries LANE (the calling thread's of LOG) got since its last breath. */
void tl_arm_breath(tl_log *log, struct tl_header *lane) __attribute__((visibility("hidden")));

/* Fills SET (zeroed) with what O asks of the log whose string table is
 * TABLE (USED bytes) and ring ENTRIES, ticks HZ; NAME for messages.
 * TL_OK, or TL_E_INVAL with ERR. */
int tl_arm_resolve(const char *table, size_t used, uint64_t entries, uint64_t hz,
		   const tl_arm_options *o, struct tl_arm *set, const char *name, tl_error *err)
	__attribute__((visibility("hidden")));

/* Writes SET into H's recorder, clears its trigger and arms it. */
void tl_arm_write(struct tl_header *h, const struct tl_arm *set) __attribute__((visibility("hidden")));

/* Records a trigger by hand in H unless one is, and freezes it. */
void tl_arm_freeze(struct tl_header *h) __attribute__((visibility("hidden")));
#endif
