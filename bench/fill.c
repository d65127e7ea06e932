/* fill.c: writes full logs for the reading benchmarks: a breath loop of
 * engine and app events through the generated functions, manual clock,
 * until the ring has wrapped. Usage: fill DIR COUNT [ENTRIES]. */
#include <stdio.h>
#include <stdlib.h>
#include "app_events.h"
#include "engine_events.h"

int main(int argc, char **argv)
{
	uint64_t entries = argc > 3 ? strtoull(argv[3], NULL, 10) : TL_DEFAULT_ENTRIES;
	int count = argc > 2 ? atoi(argv[2]) : 1;
	if (argc < 3) {
		fprintf(stderr, "usage: fill DIR COUNT [ENTRIES]\n");
		return 2;
	}
	for (int f = 0; f < count; f++) {
		char path[4096];
		tl_options o = { .entries = entries, .clock = TL_CLOCK_MANUAL, .tsc_hz = 2300000000u,
				 .name = "fill" };
		struct engine_events eng;
		struct app_events app[3];
		static const char *const names[3] = { "app=source", "app=filter", "app=sink" };
		tl_error err;
		tl_log *log;
		uint64_t tsc = 1000000 + (uint64_t)f * 7, pk = 0;
		snprintf(path, sizeof path, "%s/fill%02d.timeline", argv[1], f);
		if (!(log = tl_open(path, &o, &err))) {
			fprintf(stderr, "fill: %s\n", err.msg);
			return 1;
		}
		engine_events_register(log, &eng, NULL, &err);
		for (int a = 0; a < 3; a++)
			app_events_register(log, &app[a], names[a], &err);
		tl_set_rate(log, 1);
		for (uint64_t b = 1; tl_rate(log) && b * 14 < entries + entries / 4; b++) {
			tl_set_manual_clock(log, tsc += 40, (uint16_t)(f % 2) << 12 | (uint16_t)f);
			engine_breath_start(log, &eng, b, pk, pk * 700, pk * 5760);
			for (int a = 0; a < 3; a++) {
				tl_set_manual_clock(log, tsc += 90 + (b * 7 + (uint64_t)a) % 50, (uint16_t)f);
				app_push(log, &app[a], pk, pk * 700, pk, pk * 700);
				pk += b % 32;
				tl_set_manual_clock(log, tsc += 300 + (b % 32) * 60, (uint16_t)f);
				app_pushed(log, &app[a], pk, pk * 700, pk, pk * 700);
			}
			tl_set_manual_clock(log, tsc += 50, (uint16_t)f);
			engine_breath_end(log, &eng, b, pk, pk * 700, pk * 5760);
			tl_set_manual_clock(log, tsc += 20, (uint16_t)f);
			engine_sleep(log, &eng, 0);
			tl_set_manual_clock(log, tsc += 20, (uint16_t)f);
			engine_wakeup(log, &eng, 0);
			for (int k = 0; k < 4; k++)
				engine_breath_end(log, &eng, b, pk, pk * 700, pk * 5760);
		}
		tl_close(log);
	}
	return 0;
}
