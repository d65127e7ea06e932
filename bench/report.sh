#!/bin/sh
# report.sh: the scale targets of `timeline report` on 10 full logs of
# 2^20 entries written by bench/fill: the page is written in under 1.5 s,
# is under 3 MB, and opens in Chromium in under 1 s. Times `stats --per
# packets` and `report` in turn on the same files (medians of 5 runs each
# by bench/runcmd, rounds interleaved), so the ratio holds on a loaded
# machine; then loads the page 7 times in headless Chromium
# (tests/browser.py --runs: the load event, and a frame painted after it).
# Appends to $BENCH_CSV (default bench/results/latest.csv). Run by `make
# bench`; `make bench-quick` sets ENTRIES (a log), RUNS (a median), ROUNDS
# and OPENS (the page's loads) small.
# Usage: sh bench/report.sh [BUILD]
set -eu
build=${1:-build}
tl=${TIMELINE:-./timeline}
entries=${ENTRIES:-1048576} runs=${RUNS:-5} rounds=${ROUNDS:-3} opens=${OPENS:-7}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
csv=${BENCH_CSV:-bench/results/latest.csv}
mkdir -p "$(dirname "$csv")"
"$build/bench/fill" "$dir" 10 "$entries"
mkdir "$dir/out"
page="$dir/out/report.html"

# three rounds, each stats then report: 5 runs of each a round
printf '\n%-40s %9s %9s %8s\n' "10 full logs of $entries entries" "stats s" "report s" "ratio"
for round in $(seq 1 "$rounds"); do
	# a failed command fails the script (set -e sees an assignment's status)
	t=$("$build/bench/runcmd" "$runs" "$tl" stats --per packets "$dir"/fill*.timeline)
	st=${t%% *}
	t=$("$build/bench/runcmd" "$runs" "$tl" report "$dir"/fill*.timeline -o "$page")
	# shellcheck disable=SC2086
	set -- $t
	rt=$1 rss=$2
	ratio=$(awk -v a="$rt" -v b="$st" 'BEGIN { printf "%.2f", a / b }')
	printf '%-40s %9s %9s %8s\n' "round $round (medians of $runs)" "$st" "$rt" "$ratio"
	echo "report_seconds,$rt,s,$ratio,stats_per_packets" >> "$csv"
done
size=$(wc -c < "$page")
printf '%-40s %9s bytes (%s MB), peak RSS %s MB\n' "the page" "$size" \
	"$(awk -v s="$size" 'BEGIN { printf "%.2f", s / 1048576 }')" $((rss / 1024))
echo "report_bytes,$size,B,," >> "$csv"
echo "report_peak_rss,$((rss / 1024)),MB,," >> "$csv"
if command -v chromium >/dev/null; then
	python3 tests/browser.py --runs "$opens" "$page" | tee "$dir/open.txt"
	load=$(sed -n 's/.*medians \([0-9]*\) and \([0-9]*\) ms.*/\1/p' "$dir/open.txt")
	painted=$(sed -n 's/.*medians \([0-9]*\) and \([0-9]*\) ms.*/\2/p' "$dir/open.txt")
	echo "report_open_load_ms,$load,ms,," >> "$csv"
	echo "report_open_painted_ms,$painted,ms,," >> "$csv"
else
	echo "opening in Chromium: skipped, chromium is not installed (scripts/install-deps)"
fi
