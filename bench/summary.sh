#!/bin/sh
# summary.sh: the scale of summaries (timeline-summary(5)) on full logs of
# the demo engine: the size of a summary of 16 full logs; 1,000 host
# summaries (each of a full log whose header's host name is set to the
# host's) merged by stats, stats --by host, stats --save and diff, with
# the median wall time of 3 runs and the peak RSS (bench/runcmd); and stats
# over 10 full logs of bench/fill against OLD_TIMELINE (a binary from before
# summaries), in turn, with callgrind's instruction counts. Appends to
# bench/results/latest.csv. Takes about 10 minutes: not part of `make bench`.
# Usage: [TIMELINE=./timeline] [OLD_TIMELINE=path] sh bench/summary.sh [BUILD]
set -eu
build=${1:-build}
tl=${TIMELINE:-./timeline}
old=${OLD_TIMELINE:-}
engine=$build/examples/engine/engine
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
csv=bench/results/latest.csv
mkdir -p "$dir/real" "$dir/hosts/canary" "$dir/hosts/rest" "$dir/fill" bench/results

# 16 full logs: four workloads, 100,000 breaths each at --rate all (1.2 M
# entries, so the 2^20-entry ring wraps)
for i in $(seq 1 16); do
	w=$(echo small imix large bursty | cut -d' ' -f$(( (i - 1) % 4 + 1 )))
	"$engine" --breaths 100000 --workload "$w" --rate all --seed "$i" --dir "$dir/real" >/dev/null
done

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

# 1,000 hosts, 100 of them canaries: each host's summary of one full log
# (the 16 in turn) whose header says the host's name (bytes 256-383)
logs=$(ls "$dir"/real/*.timeline)
set -- $logs
for h in $(seq 1 1000); do
	n=$(( (h - 1) % 16 + 1 ))
	eval f=\${$n}
	name=$(printf 'host%04d' "$h")
	head -c 128 /dev/zero | dd of="$f" bs=1 seek=256 conv=notrunc status=none
	printf '%s' "$name" | dd of="$f" bs=1 seek=256 conv=notrunc status=none
	side=rest
	[ "$h" -le 100 ] && side=canary
	"$tl" stats --per packets --save "$dir/hosts/$side/$name.sum" "$f" >/dev/null
done
total=$(cat "$dir"/hosts/*/*.sum | wc -c)
printf '\n1,000 host summaries: %s bytes in all\n' "$total"
echo "hosts1000_summary_bytes,$total,bytes,," >> "$csv"

# row NAME LABEL CMD...: median wall time of 3 runs and peak RSS
row() {
	name=$1 label=$2
	shift 2
	# shellcheck disable=SC2046
	set -- $("$build/bench/runcmd" 3 "$@")
	printf '%-58s %9s s %7s MB\n' "$label" "$1" $(($2 / 1024))
	echo "${name}_seconds,$1,s,,"  >> "$csv"
	echo "${name}_peak_rss,$(($2 / 1024)),MB,," >> "$csv"
}
printf '\n%-58s %11s %10s\n' "merging 1,000 host summaries (target < 2 s, 256 MB)" "seconds" "peak RSS"
row merge1000_stats "stats --per packets" "$tl" stats --per packets "$dir/hosts"
row merge1000_by_host "stats --per packets --by host" "$tl" stats --per packets --by host "$dir/hosts"
row merge1000_save "stats --per packets --save (a summary of all)" \
	"$tl" stats --per packets --save "$dir/all.sum" "$dir/hosts"
row merge1000_diff "diff --per packets --runs dir canary/ rest/" \
	"$tl" diff --per packets --runs dir "$dir/hosts/canary" "$dir/hosts/rest"
printf '%-58s %10s\n' "the summary of all 1,000" "$(wc -c < "$dir/all.sum") bytes"

# stats over 10 full logs of bench/fill: this binary and OLD_TIMELINE in turn
"$build/bench/fill" "$dir/fill" 10
if [ -n "$old" ]; then
	printf '\n%-58s %9s %9s %7s\n' "stats, 10 full logs: 5 rounds, old and new in turn" "old s" "new s" "new/old"
	for opts in "" "--per packets --by app,numa"; do
		for r in 1 2 3 4 5; do
			# shellcheck disable=SC2086
			o=$("$build/bench/runcmd" 3 "$old" stats $opts "$dir"/fill/*.timeline | cut -d' ' -f1)
			# shellcheck disable=SC2086
			n=$("$build/bench/runcmd" 3 "$tl" stats $opts "$dir"/fill/*.timeline | cut -d' ' -f1)
			printf '%-58s %9s %9s %7s\n' "stats $opts, round $r" "$o" "$n" \
				"$(awk -v a="$n" -v b="$o" 'BEGIN { printf "%.3f", a / b }')"
		done
	done
	if command -v valgrind >/dev/null; then
		for b in "$old" "$tl"; do
			ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b" stats \
				"$dir/fill/fill00.timeline" 2>&1 >/dev/null | sed -n 's/.*refs: *\([0-9,]*\).*/\1/p')
			printf '%-58s %s\n' "callgrind, stats of 1 full log: $b" "$ir"
		done
	fi
fi
