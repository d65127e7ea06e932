/* dpdk_tp.c: registers bench/dpdk_tp.h's tracepoint with rte_trace (as
 * DPDK wants it: rte_trace_point_register.h first, in a file of its own),
 * under the name tlbench.six that EAL's --trace=REGEX enables. */
#include <rte_config.h>
#define RTE_ENABLE_TRACE_FP 1
#include <rte_trace_point_register.h>
#include "dpdk_tp.h"

RTE_TRACE_POINT_REGISTER(tlbench_six, tlbench.six)
