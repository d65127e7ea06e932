/* main.c: runs every Check suite in one runner and prints Check's summary. */
#include <stdio.h>
#include <stdlib.h>
#include "util.h"

int main(void)
{
	SRunner *sr;
	int failed;
	/* the clock suite runs this binary again as its child */
	if (getenv("TL_TEST_CLOCK_CHILD"))
		return clock_child(getenv("TL_TEST_CLOCK_CHILD"));
	sr = srunner_create(format_suite());
	srunner_add_suite(sr, append_suite());
	srunner_add_suite(sr, clock_suite());
	srunner_add_suite(sr, sample_suite());
	srunner_add_suite(sr, create_suite());
	srunner_add_suite(sr, crash_suite());
	srunner_add_suite(sr, events_suite());
	srunner_add_suite(sr, cli_suite());
	srunner_add_suite(sr, snabb_suite());
	srunner_add_suite(sr, read_suite());
	srunner_add_suite(sr, open_suite());
	srunner_add_suite(sr, live_suite());
	srunner_add_suite(sr, engine_suite());
	srunner_add_suite(sr, stats_suite());
	srunner_add_suite(sr, runs_suite());
	srunner_add_suite(sr, trust_suite());
	srunner_add_suite(sr, export_suite());
	srunner_add_suite(sr, hostile_suite());
	srunner_add_suite(sr, proc_suite());
	srunner_add_suite(sr, gc_suite());
	srunner_add_suite(sr, report_suite());
	srunner_add_suite(sr, follow_suite());
	srunner_add_suite(sr, top_suite());
	srunner_add_suite(sr, summary_suite());
	srunner_add_suite(sr, metrics_suite());
	srunner_add_suite(sr, install_suite());
	srunner_add_suite(sr, pairs_suite());
	srunner_add_suite(sr, batch_suite());
	srunner_add_suite(sr, python_suite());
	srunner_add_suite(sr, switch_suite());
	srunner_add_suite(sr, spans_suite());
	srunner_add_suite(sr, perfetto_suite());
	srunner_add_suite(sr, words_suite());
	srunner_add_suite(sr, otlp_suite());
	srunner_add_suite(sr, threads_suite());
	/* the DPDK forwarder's suite, where make found libdpdk and built it */
	if (getenv("TIMELINE_FWD") && *getenv("TIMELINE_FWD"))
		srunner_add_suite(sr, dpdk_suite());
	else
		fputs("check: no libdpdk (pkg-config libdpdk): the dpdk suite is not run; "
		      "scripts/install-deps installs libdpdk-dev\n", stderr);
	srunner_add_suite(sr, arm_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
