/* recorder.h: the flight recorder of a log said in words (cli/recorder.c),
 * as info, ls, top and dump show it. */
#ifndef TL_RECORDER_H
#define TL_RECORDER_H
#include <stddef.h>
#include "input.h"
#include "json.h"

/* "off", "armed", "keeping" or "frozen". */
const char *recorder_state(int state);

/* The recorder of IN into *A; 0 when its log has one armed, frozen or
 * triggered once (a Snabb log, a log before 1.5, one never armed: -1). */
int recorder_of(const struct input *in, tl_arming *a);

/* "engine.breath slower than 5.000 ms (10500000 cycles), keep 6, rate
 * all" or "on kv.error, keep 6, rate all" into BUF (SIZE). */
void recorder_settings(const struct input *in, const tl_arming *a, char *buf, size_t size);

/* "pair engine.breath app=b: 591 cycles (591 ns) > 100, thread 0,
 * entries 1 to 5, at WALL" (by hand: "by hand, at WALL") into BUF. */
void recorder_trigger(struct input *in, const tl_arming *a, char *buf, size_t size);

/* The trigger in short, for top's status line: "pair engine.breath
 * 18.977 ms > 5.000 ms", "event kv.error*" or "by hand", into BUF. */
void recorder_brief(const struct input *in, const tl_arming *a, char *buf, size_t size);

/* "recorder": {...} and "trigger": {...} or null, into J. */
void recorder_json(struct input *in, const tl_arming *a, struct json *j);

/* Prints, for each log under PATHS (N) that holds a trigger of a pair, the
 * line "  LOG: trigger: pair ...; timeline dump --trigger LOG" under the
 * title "the trigger's pair first (timeline arm)": what stats --slowest
 * lists before its ranks, the slowest pair the ring was frozen for. JSON:
 * a line each, {"table": "trigger", "path": ..., "dump": ...}. */
void recorder_triggers_first(char **paths, int n, int json);
#endif
