#!/bin/sh
# read.sh: the reading and analysis commands on full logs written by
# bench/fill into a temporary directory (16 logs of 1,048,576 entries):
# info, dump, merge, stats, diff and export, babeltrace2 on the exported
# CTF, and the scaling of merge and stats over 1, 4, 10 and 16 files; then
# the export of 10 full logs to Perfetto's protobuf and to Chrome JSON side
# by side, and the bytes an entry of each on logs of the demo engine; then
# OpenTelemetry's OTLP of the same, in spans a second and bytes a span. Each
# row is the median wall time of several runs (bench/runcmd), entries per
# second and peak RSS; output goes to /dev/null. Appends to $BENCH_CSV
# (default bench/results/latest.csv). Run by `make bench`; `make
# bench-quick` sets ENTRIES (entries a log) and RUNS (runs a row) small.
set -eu
build=${1:-build}
tl=${TIMELINE:-./timeline}
entries=${ENTRIES:-1048576}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/bench/fill" "$dir" 16 "$entries"
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.2f", n / t / 1e6 }'; }
csv=${BENCH_CSV:-bench/results/latest.csv}

# row NAME LABEL RUNS FILES CMD...: times CMD, prints a line, appends CSV rows.
row() {
	name=$1 label=$2 runs=${RUNS:-$3} n=$4
	shift 4
	# a failed command fails the script (set -e sees an assignment's status)
	t=$("$build/bench/runcmd" "$runs" "$@")
	# shellcheck disable=SC2086
	set -- $t
	printf '%-36s %9s %12s %7s MB\n' "$label" "$1" "$(rate $((n * entries)) "$1")" $(($2 / 1024))
	{
		echo "${name}_seconds,$1,s,,"
		echo "${name}_entries_per_s,$(rate $((n * entries)) "$1"),M/s,,"
		echo "${name}_peak_rss,$(($2 / 1024)),MB,,"
	} >> "$csv"
	last=$1
}

f0="$dir/fill00.timeline"
files8=$(ls "$dir"/fill0[0-7].timeline)
files10=$(ls "$dir"/fill*.timeline | head -n 10)
a4=$(for f in $(ls "$dir"/fill0[0-3].timeline); do printf ' --a %s' "$f"; done)
b4=$(for f in $(ls "$dir"/fill0[4-7].timeline); do printf ' --b %s' "$f"; done)

printf '\n%-36s %9s %12s %10s\n' "full logs of $entries entries" "seconds" "M entries/s" "peak RSS"
row info "info, 1 file" 5 1 "$tl" info "$f0"
row dump "dump, text, 1 file" 5 1 "$tl" dump "$f0"
row dump_csv "dump, csv, 1 file" 5 1 "$tl" dump -f csv "$f0"
# shellcheck disable=SC2086
row merge8 "merge, text, 8 files" 3 8 "$tl" merge $files8
# the same merge with every line filtered out: reading and merging, no text;
# a filter that keeps nothing says so, a line a log, and exits 2
# shellcheck disable=SC2086
row merge8_no_output "merge, no output, 8 files" 3 8 sh -c '"$@" 2>/dev/null || [ $? = 2 ]' sh \
	"$tl" merge -e nothing $files8
# shellcheck disable=SC2086
row merge10 "merge, text, 10 files" 3 10 "$tl" merge $files10
# shellcheck disable=SC2086
row stats8 "stats (lag), 8 files" 3 8 "$tl" stats $files8
# shellcheck disable=SC2086
row stats8_per "stats --per packets --by app,numa, 8" 3 8 "$tl" stats --per packets --by app,numa $files8
# shellcheck disable=SC2086
row diff8 "diff --per packets, 4 vs 4 files" 3 8 sh -c '"$@" || [ $? = 1 ]' sh \
	"$tl" diff --per packets $a4 $b4   # exit 1: a finding, not a failure
row export_chrome "export chrome, 1 file" 3 1 "$tl" export -f chrome -o "$dir/x.json" "$f0"
row export_csv "export csv, 1 file" 3 1 "$tl" export -f csv -o "$dir/x.csv" "$f0"
row export_ctf "export ctf, 1 file" 3 1 sh -c "rm -rf '$dir/ctf' && exec '$tl' export -f ctf -o '$dir/ctf' '$f0'"
ctf_t=$last
rm -f "$dir/x.json" "$dir/x.csv"
if command -v babeltrace2 >/dev/null; then
	row babeltrace2_dummy "babeltrace2 dummy sink, that ctf" 3 1 babeltrace2 -c sink.utils.dummy "$dir/ctf"
	echo "babeltrace2_dummy_vs_export_ctf,$(awk -v a="$last" -v b="$ctf_t" 'BEGIN { printf "%.2f", a / b }'),x,,export_ctf" >> "$csv"
else
	echo "babeltrace2 dummy sink: skipped, babeltrace2 is not installed (make bench-deps)"
fi

# Perfetto's protobuf against Chrome JSON: 10 full logs, then logs of the
# demo engine (its ten workloads at the sampled rate, as `make demo` runs
# them, ENGINE_SECONDS each): bytes an entry and entries a second. CPU
# seconds are given too: on a shared machine the wall time waits for CPUs.
# size_row NAME LABEL N FILE [WHAT]: bytes an entry (a WHAT) of FILE,
# exported from N entries (WHATs)
size_row() {
	b=$(wc -c < "$4")
	bpe=$(awk -v b="$b" -v n="$3" 'BEGIN { printf "%.1f", b / n }')
	printf '%-36s %9s %12s\n' "$2" "$b" "$bpe"
	echo "${1}_bytes_per_${5:-entry},$bpe,B,," >> "$csv"
}
printf '\n%-36s %9s %12s %7s\n' "10 full logs, Perfetto against JSON" "seconds" "M entries/s" "CPU s"
for f in perfetto chrome; do
	# shellcheck disable=SC2086
	t=$("$build/bench/runcmd" "${RUNS:-3}" "$tl" export -f $f -o "$dir/x10.$f" $files10)
	# shellcheck disable=SC2086
	set -- $t
	printf '%-36s %9s %12s %7s\n' "export $f, 10 files" "$1" "$(rate $((10 * entries)) "$1")" "$3"
	{
		echo "export10_${f}_seconds,$1,s,,"
		echo "export10_${f}_entries_per_s,$(rate $((10 * entries)) "$1"),M/s,,"
		echo "export10_${f}_cpu_entries_per_s,$(rate $((10 * entries)) "$3"),M/s,,"
	} >> "$csv"
done
printf '\n%-36s %9s %12s\n' "bytes an entry" "bytes" "B/entry"
for f in perfetto chrome; do
	size_row "export10_$f" "export $f, 10 full logs" $((10 * entries)) "$dir/x10.$f"
done
rm -f "$dir"/x10.*

# OTLP (issue 40): the spans of the same 10 logs, a second and in bytes;
# they are counted from OTLP's JSON, which puts a span on a line.
# spans_of FILE...: the spans export -f otlp makes of the files
spans_of() {
	n=0
	for f in "$@"; do
		n=$((n + $("$tl" export -f otlp-json -o - "$f" | grep -c '"traceId"')))
	done
	echo "$n"
}
# shellcheck disable=SC2086
spans10=$(spans_of $files10)
printf '\n%-36s %9s %12s %7s\n' "10 full logs, OTLP ($spans10 spans)" "seconds" "M spans/s" "CPU s"
# shellcheck disable=SC2086
t=$("$build/bench/runcmd" "${RUNS:-3}" "$tl" export -f otlp -o "$dir/x10.otlp" $files10)
# shellcheck disable=SC2086
set -- $t
printf '%-36s %9s %12s %7s\n' "export otlp, 10 files" "$1" "$(rate "$spans10" "$1")" "$3"
{
	echo "export10_otlp_seconds,$1,s,,"
	echo "export10_otlp_spans_per_s,$(rate "$spans10" "$1"),M/s,,"
	echo "export10_otlp_cpu_spans_per_s,$(rate "$spans10" "$3"),M/s,,"
} >> "$csv"
size_row export10_otlp "export otlp, bytes a span" "$spans10" "$dir/x10.otlp" span
rm -f "$dir"/x10.*
engine=$build/examples/engine/engine
if [ -x "$engine" ]; then
	mkdir "$dir/demo"
	i=0
	for w in small imix large bursty imix small large bursty imix small; do
		"$engine" --cpu $((i % 2)) --seconds "${ENGINE_SECONDS:-1.5}" --workload "$w" \
			--dir "$dir/demo" --name "$w$i" --entries 262144 >/dev/null
		i=$((i + 1))
	done
	n=$("$tl" dump -f csv "$dir/demo" | tail -n +2 | wc -l)
	for f in perfetto chrome; do
		"$tl" export -f $f -o "$dir/demo.$f" "$dir/demo"
		size_row "demo_$f" "export $f, 10 demo logs ($n entries)" "$n" "$dir/demo.$f"
	done
	s=$(spans_of "$dir/demo")
	"$tl" export -f otlp -o "$dir/demo.otlp" "$dir/demo"
	size_row demo_otlp "export otlp, 10 demo logs ($s spans)" "$s" "$dir/demo.otlp" span
	rm -rf "$dir/demo" "$dir"/demo.*
else
	echo "demo logs: skipped, $engine is not built"
fi

# Scaling: cost against the number of files must stay flat (linear time).
printf '\n%-36s %9s %12s %10s\n' "scaling" "seconds" "M entries/s" "peak RSS"
for n in 1 4 10 16; do
	files=$(ls "$dir"/fill*.timeline | head -n "$n")
	# shellcheck disable=SC2086
	row "merge_files$n" "merge, $n files" 3 "$n" "$tl" merge $files
	# shellcheck disable=SC2086
	row "stats_files$n" "stats --per packets, $n files" 3 "$n" "$tl" stats --per packets --by app,numa $files
done
