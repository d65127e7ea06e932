/* events.c: fuzzes the events-file parser (timeline-events(5)), which
 * `timeline gen` and tl_events_load() run on files users write. */
#include "fuzz.h"
#include "timeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tl_error err;
	tl_events *ev = tl_events_parse((const char *)data, size, "fuzz.events", &err);
	tl_events_free(ev);
	return 0;
}
