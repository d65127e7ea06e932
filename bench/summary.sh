#!/bin/sh
# summary.sh: the scale of summaries (timeline-summary(5)) on full logs of
# the demo engine: the size of a summary of 16 full logs; 1,000 host
# summaries (each of a full log whose header's host name is set to the
# host's) merged by stats, stats --by host, stats --save and diff, with
# the median wall time of 3 runs and the peak RSS (bench/runcmd); and stats
# over 10 full logs of bench/fill against OLD_TIMELINE (a binary from before
# summaries), in turn, with callgrind's instruction counts. Appends to
# $BENCH_CSV (default bench/results/latest.csv). Takes about 10 minutes: not
# part of `make bench`; `make bench-quick` runs it small (BREATHS a log,
# HOSTS, ENTRIES of a bench/fill log, RUNS a median, ROUNDS).
# Usage: [TIMELINE=./timeline] [OLD_TIMELINE=path] [PARTS="size merge stats"]
#        sh bench/summary.sh [BUILD]
set -eu
build=${1:-build}
tl=${TIMELINE:-./timeline}
old=${OLD_TIMELINE:-}
engine=$build/examples/engine/engine
breaths=${BREATHS:-100000} hosts=${HOSTS:-1000} entries=${ENTRIES:-1048576}
runs=${RUNS:-3} rounds=${ROUNDS:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
csv=${BENCH_CSV:-bench/results/latest.csv}
mkdir -p "$dir/real" "$dir/hosts/canary" "$dir/hosts/rest" "$dir/fill" "$(dirname "$csv")"

parts=${PARTS:-size merge stats}
has() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }

# 16 full logs: four workloads, 100,000 breaths each at --rate all (1.2 M
# entries, so the 2^20-entry ring wraps)
has size || has merge && for i in $(seq 1 16); do
	w=$(echo small imix large bursty | cut -d' ' -f$(( (i - 1) % 4 + 1 )))
	"$engine" --breaths "$breaths" --workload "$w" --rate all --seed "$i" --dir "$dir/real" >/dev/null
done

if has size; then
printf '\n%-58s %10s\n' "a summary of 16 full logs (target < 256 KB)" "bytes"
size() {
	name=$1
	shift
	"$tl" stats "$@" --save "$dir/s.sum" "$dir/real" >/dev/null
	n=$(wc -c < "$dir/s.sum")
	printf '%-58s %10s\n' "stats $* --save" "$n"
	echo "summary16_${name}_bytes,$n,bytes,," >> "$csv"
}
size lag
size per --per packets
size bucket --per packets --bucket packets=0,1,16,32,64,inf
fi

if has merge; then
# HOSTS hosts (1,000), a tenth of them canaries: each host's summary of one full log
# (the 16 in turn) whose header says the host's name (bytes 256-383)
logs=$(ls "$dir"/real/*.timeline)
set -- $logs
for h in $(seq 1 "$hosts"); do
	n=$(( (h - 1) % 16 + 1 ))
	eval f=\${$n}
	name=$(printf 'host%04d' "$h")
	head -c 128 /dev/zero | dd of="$f" bs=1 seek=256 conv=notrunc status=none
	printf '%s' "$name" | dd of="$f" bs=1 seek=256 conv=notrunc status=none
	side=rest
	[ "$h" -gt $((hosts / 10)) ] || side=canary
	"$tl" stats --per packets --save "$dir/hosts/$side/$name.sum" "$f" >/dev/null
done
total=$(cat "$dir"/hosts/*/*.sum | wc -c)
printf '\n%s host summaries: %s bytes in all\n' "$hosts" "$total"
echo "hosts${hosts}_summary_bytes,$total,bytes,," >> "$csv"

# row NAME LABEL CMD...: median wall time of RUNS runs (3) and peak RSS
row() {
	name=$1 label=$2
	shift 2
	# a failed command fails the script (set -e sees an assignment's status)
	t=$("$build/bench/runcmd" "$runs" "$@")
	# shellcheck disable=SC2086
	set -- $t
	printf '%-58s %9s s %7s MB\n' "$label" "$1" $(($2 / 1024))
	echo "${name}_seconds,$1,s,,"  >> "$csv"
	echo "${name}_peak_rss,$(($2 / 1024)),MB,," >> "$csv"
}
printf '\n%-58s %11s %10s\n' "merging $hosts host summaries (target for 1000: < 2 s, 256 MB)" \
	"seconds" "peak RSS"
row merge${hosts}_stats "stats --per packets" "$tl" stats --per packets "$dir/hosts"
row merge${hosts}_by_host "stats --per packets --by host" "$tl" stats --per packets --by host "$dir/hosts"
row merge${hosts}_save "stats --per packets --save (a summary of all)" \
	"$tl" stats --per packets --save "$dir/all.sum" "$dir/hosts"
row merge${hosts}_diff "diff --per packets canary/ rest/ (a run a host)" sh -c '"$@" || [ $? = 1 ]' \
	sh "$tl" diff --per packets "$dir/hosts/canary" "$dir/hosts/rest"   # exit 1: a finding
printf '%-58s %10s\n' "the summary of all $hosts" "$(wc -c < "$dir/all.sum") bytes"
fi

# stats over 10 full logs of bench/fill: this binary and OLD_TIMELINE in turn
if has stats && [ -n "$old" ]; then
	"$build/bench/fill" "$dir/fill" 10 "$entries"
	printf '\n%-58s %9s %9s %7s\n' "stats, 10 full logs: $rounds rounds, old and new in turn" "old s" \
		"new s" "new/old"
	for opts in "" "--per packets --by app,numa"; do
		for r in $(seq 1 "$rounds"); do
			# shellcheck disable=SC2086
			o=$("$build/bench/runcmd" "$runs" "$old" stats $opts "$dir"/fill/*.timeline)
			# shellcheck disable=SC2086
			n=$("$build/bench/runcmd" "$runs" "$tl" stats $opts "$dir"/fill/*.timeline)
			o=${o%% *} n=${n%% *}
			printf '%-58s %9s %9s %7s\n' "stats $opts, round $r" "$o" "$n" \
				"$(awk -v a="$n" -v b="$o" 'BEGIN { printf "%.3f", a / b }')"
		done
	done
	if command -v valgrind >/dev/null; then
		for opts in "" "--per packets --by app,numa"; do
			for b in "$old" "$tl"; do
				# shellcheck disable=SC2086
				ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b" stats $opts \
					"$dir/fill/fill00.timeline" 2>&1 >/dev/null |
					sed -n 's/.*refs: *\([0-9,]*\).*/\1/p')
				printf '%-58s %s\n' "callgrind, stats $opts of 1 full log: ${b##*/}" "$ir"
			done
		done
	fi
fi
