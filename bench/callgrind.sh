#!/bin/sh
# callgrind.sh: instructions per call of each logger entry point, counted by
# valgrind's callgrind as the difference between 11,000 and 1,000 calls (so
# start-up and the loop's fixed cost cancel; the loop body's own ~10
# instructions of argument set-up remain). Run by `make bench` and `make
# bench-quick`; appends to $BENCH_CSV (default bench/results/latest.csv).
set -eu
bin=${1:-build/bench/instructions}
command -v valgrind >/dev/null || { echo "callgrind: valgrind not installed; skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
csv=${BENCH_CSV:-bench/results/latest.csv}
count() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" "$tmp/log" 2>&1 |
		sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
printf '\n%-34s %s\n' "entry point (callgrind)" "instructions per call, incl. ~10 of loop"
for m in 0:tl_append_manual_clock 1:tl_append_c_manual_clock 4:tl_append_rseq_clock \
	5:tl_append_c_rseq_clock 2:tl_event_rate_off 6:tl_event_switched_off \
	7:tl_append_rseq_others_off 3:tl_breath; do
	mode=${m%%:*}
	a=$(count 1000 "$mode")
	b=$(count 11000 "$mode")
	per=$(( (b - a) / 10000 ))
	printf '%-34s %s\n' "${m#*:}" "$per"
	echo "${m#*:},$per,instructions,," >> "$csv"
done
