/* dpdk_tp.h: the rte_trace tracepoint of bench/dpdk_trace.c, six u64
 * arguments, a fast-path one as a forwarder's would be. rte_trace is
 * experimental (ALLOW_EXPERIMENTAL_API), and Debian's rte_build_config.h
 * undefines RTE_ENABLE_TRACE_FP, which compiles fast-path tracepoints to
 * nothing: it is defined here, after rte_config.h. */
#ifndef TL_BENCH_DPDK_TP_H
#define TL_BENCH_DPDK_TP_H
#include <rte_config.h>
#define RTE_ENABLE_TRACE_FP 1
#include <rte_trace_point.h>

RTE_TRACE_POINT_FP(tlbench_six,
	RTE_TRACE_POINT_ARGS(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,
			     uint64_t f),
	rte_trace_point_emit_u64(a);
	rte_trace_point_emit_u64(b);
	rte_trace_point_emit_u64(c);
	rte_trace_point_emit_u64(d);
	rte_trace_point_emit_u64(e);
	rte_trace_point_emit_u64(f);
)
#endif
