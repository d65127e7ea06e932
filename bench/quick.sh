#!/bin/sh
# quick.sh: `make bench-quick`: every benchmark of bench/ once, with small
# counts, in about a minute: the logger, engine.sh, callgrind.sh, read.sh,
# report.sh, lttng.sh, top.sh, summary.sh, calibrate.sh and python.sh. It shows that
# each still runs, not what it measures: its figures go to
# $BUILD/bench/quick.csv, not bench/results/latest.csv. Any script that
# fails fails it (exit 1), naming the script; CI runs it, so a benchmark
# that rots is caught at once. (threads and firstlap, issue 37, run after
# the logger; dpdk.sh, issue 37 too, last, with the logs on tmpfs only.)
# Usage: TIMELINE=path sh bench/quick.sh [BUILD]
set -eu
build=${1:-build}
export TIMELINE="${TIMELINE:-./timeline}"
export BENCH_CSV="$build/bench/quick.csv"
t0=$(date +%s)
failed=

# step NAME CMD...: runs CMD, its output as it comes; a failure is noted
step() {
	name=$1
	shift
	echo "== bench-quick: $name"
	s=$(date +%s)
	if "$@"; then
		echo "== bench-quick: $name ran in $(( $(date +%s) - s )) s"
	else
		echo "== bench-quick: $name FAILED (exit $?)"
		failed="$failed $name"
	fi
}

rm -f "$BENCH_CSV"
step logger "$build/bench/logger" 20000 3
step threads "$build/bench/threads" 20000 3
step firstlap "$build/bench/firstlap" 1
step gaps "$build/bench/gaps" 0.5
step engine env ENGINE_SECONDS=0.2 sh bench/engine.sh "$build" 2
step callgrind sh bench/callgrind.sh "$build/bench/instructions"
step read env ENTRIES=16384 RUNS=1 ENGINE_SECONDS=0.2 sh bench/read.sh "$build"
step report env ENTRIES=16384 RUNS=1 ROUNDS=1 OPENS=1 sh bench/report.sh "$build"
step lttng sh bench/lttng.sh "$build/bench/lttng"
step top env TOP_REFRESHES=2 TOP_DELAY=0.5 sh bench/top.sh "$build"
step summary env BREATHS=2000 HOSTS=20 ENTRIES=16384 RUNS=1 ROUNDS=1 OLD_TIMELINE="$TIMELINE" \
	sh bench/summary.sh "$build"
step calibrate env N=1 RUNS=2 SECS=0.1 POLLS=100 STEPS=60 sh bench/calibrate.sh "$build"
step python env ENTRIES=16384 RUNS=1 sh bench/python.sh "$build"
step dpdk env DPDK_SECONDS=0.2 DPDK_CALLS=100000 DPDK_REPS=1 DPDK_WHERE=shm sh bench/dpdk.sh "$build" 2

secs=$(( $(date +%s) - t0 ))
if [ -n "$failed" ]; then
	echo "bench-quick: failed:$failed ($secs s)"
	exit 1
fi
echo "bench-quick: all 13 ran in $secs s; figures in $BENCH_CSV"
