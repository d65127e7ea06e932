#!/bin/sh
# read.sh: the reading side's speed and memory, from full logs written by
# bench/fill into a temporary directory (1,048,576 entries each): dump to
# /dev/null, merge of 8 files, info, and peak RSS over 10 files. Medians of
# 5 runs (3 for merges). Appends to bench/results/latest.csv. Run by `make bench`.
set -eu
build=${1:-build}
tl=${TIMELINE:-./timeline}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/bench/fill" "$dir" 16
entries=1048576
run() { "$build/bench/runcmd" "$@"; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.2f", n / t / 1e6 }'; }
files8=$(ls "$dir"/fill0[0-7].timeline)

set -- $(run 5 "$tl" dump "$dir/fill00.timeline"); dump_t=$1; dump_rss=$2
set -- $(run 5 "$tl" dump -f csv "$dir/fill00.timeline"); csv_t=$1
set -- $(run 5 "$tl" info "$dir/fill00.timeline"); info_t=$1
# shellcheck disable=SC2086
set -- $(run 3 "$tl" merge $files8); merge_t=$1; merge_rss=$2
# shellcheck disable=SC2046
set -- $(run 3 "$tl" merge $(ls "$dir"/fill*.timeline | head -n 10)); merge10_t=$1; merge10_rss=$2
# the analysis: lag statistics, cycles per packet, and a diff of 4 files against 4
# shellcheck disable=SC2086
set -- $(run 3 "$tl" stats $files8); stats_t=$1; stats_rss=$2
# shellcheck disable=SC2086
set -- $(run 3 "$tl" stats --per packets --by app,numa $files8); per_t=$1
set -- $(run 3 "$tl" diff --per packets $(for f in $(ls "$dir"/fill0[0-3].timeline); do echo --a "$f"; done) \
	$(for f in $(ls "$dir"/fill0[4-7].timeline); do echo --b "$f"; done)); diff_t=$1
# export of one full log to each format, and babeltrace2 reading the CTF
f0="$dir/fill00.timeline"
set -- $(run 3 "$tl" export -f chrome -o "$dir/x.json" "$f0"); chrome_t=$1
set -- $(run 3 "$tl" export -f csv -o "$dir/x.csv" "$f0"); xcsv_t=$1
set -- $(run 3 sh -c "rm -rf '$dir/ctf' && '$tl' export -f ctf -o '$dir/ctf' '$f0'"); ctf_t=$1
if command -v babeltrace2 >/dev/null; then
	set -- $(run 3 babeltrace2 -c sink.utils.dummy "$dir/ctf"); bt_t=$1
else
	bt_t=
fi
rm -rf "$dir/x.json" "$dir/x.csv"
# the same merge with every line filtered out: reading and merging, no text
# shellcheck disable=SC2086
set -- $(run 3 "$tl" merge -e nothing $files8); mergeq_t=$1

printf '\n%-34s %10s %12s %10s\n' "reading (full logs of 2^20 entries)" "seconds" "M entries/s" "peak RSS"
printf '%-34s %10s %12s %7s MB\n' "dump, text, 1 file" "$dump_t" "$(rate $entries "$dump_t")" $((dump_rss / 1024))
printf '%-34s %10s %12s\n' "dump, csv, 1 file" "$csv_t" "$(rate $entries "$csv_t")"
printf '%-34s %10s\n' "info, 1 file" "$info_t"
printf '%-34s %10s %12s %7s MB\n' "merge, text, 8 files" "$merge_t" "$(rate $((8 * entries)) "$merge_t")" $((merge_rss / 1024))
printf '%-34s %10s %12s\n' "merge, no output, 8 files" "$mergeq_t" "$(rate $((8 * entries)) "$mergeq_t")"
printf '%-34s %10s %12s %7s MB\n' "stats (lag), 8 files" "$stats_t" "$(rate $((8 * entries)) "$stats_t")" $((stats_rss / 1024))
printf '%-34s %10s %12s\n' "stats --per packets, 8 files" "$per_t" "$(rate $((8 * entries)) "$per_t")"
printf '%-34s %10s %12s\n' "diff --per packets, 4 vs 4 files" "$diff_t" "$(rate $((8 * entries)) "$diff_t")"
printf '%-34s %10s %12s\n' "export chrome, 1 file" "$chrome_t" "$(rate $entries "$chrome_t")"
printf '%-34s %10s %12s\n' "export ctf, 1 file" "$ctf_t" "$(rate $entries "$ctf_t")"
printf '%-34s %10s %12s\n' "export csv, 1 file" "$xcsv_t" "$(rate $entries "$xcsv_t")"
if [ -n "$bt_t" ]; then
	printf '%-34s %10s %12s\n' "babeltrace2 dummy sink, that ctf" "$bt_t" "$(rate $entries "$bt_t")"
else
	echo "babeltrace2 dummy sink: skipped, babeltrace2 is not installed (make bench-deps)"
fi
printf '%-34s %10s %12s %7s MB\n' "merge, text, 10 files" "$merge10_t" "$(rate $((10 * entries)) "$merge10_t")" $((merge10_rss / 1024))
{
	echo "dump_lines_per_s,$(rate $entries "$dump_t"),M/s,,"
	echo "dump_csv_lines_per_s,$(rate $entries "$csv_t"),M/s,,"
	echo "merge8_entries_per_s,$(rate $((8 * entries)) "$merge_t"),M/s,,"
	echo "merge8_no_output_entries_per_s,$(rate $((8 * entries)) "$mergeq_t"),M/s,,"
	echo "stats8_entries_per_s,$(rate $((8 * entries)) "$stats_t"),M/s,,"
	echo "stats8_per_entries_per_s,$(rate $((8 * entries)) "$per_t"),M/s,,"
	echo "diff8_entries_per_s,$(rate $((8 * entries)) "$diff_t"),M/s,,"
	echo "export_chrome_entries_per_s,$(rate $entries "$chrome_t"),M/s,,"
	echo "export_ctf_entries_per_s,$(rate $entries "$ctf_t"),M/s,,"
	echo "export_csv_entries_per_s,$(rate $entries "$xcsv_t"),M/s,,"
	[ -z "$bt_t" ] || echo "babeltrace2_dummy_entries_per_s,$(rate $entries "$bt_t"),M/s,$(awk -v a="$bt_t" -v b="$ctf_t" 'BEGIN { printf "%.2f", a / b }'),export_ctf"
	echo "merge10_peak_rss,$((merge10_rss / 1024)),MB,,"
} >> bench/results/latest.csv

# Scaling: cost against the number of files must stay flat (linear time).
printf '\n%-10s %16s %16s %14s %14s\n' "files" "merge M/s" "stats M/s" "merge RSS" "stats RSS"
for n in 1 4 10 16; do
	files=$(ls "$dir"/fill*.timeline | head -n "$n")
	# shellcheck disable=SC2086
	set -- $(run 3 "$tl" merge $files); mt=$1; mr=$2
	# shellcheck disable=SC2086
	set -- $(run 3 "$tl" stats --per packets --by app,numa $files); st=$1; sr=$2
	printf '%-10s %16s %16s %11s MB %11s MB\n' "$n" "$(rate $((n * entries)) "$mt")" \
		"$(rate $((n * entries)) "$st")" $((mr / 1024)) $((sr / 1024))
	{
		echo "merge_files${n}_entries_per_s,$(rate $((n * entries)) "$mt"),M/s,,"
		echo "stats_files${n}_entries_per_s,$(rate $((n * entries)) "$st"),M/s,,"
		echo "merge_files${n}_peak_rss,$((mr / 1024)),MB,,"
		echo "stats_files${n}_peak_rss,$((sr / 1024)),MB,,"
	} >> bench/results/latest.csv
done
