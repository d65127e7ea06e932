#!/bin/sh
# python.sh: the Python package's reading against the other ways into
# Python, on one full log written by bench/fill (1,048,576 entries): `timeline
# dump -f csv > /dev/null` (bench/runcmd, median), and in one Python process
# (bench/python.py) timeline.read() into a DataFrame, pandas.read_csv of
# that CSV, babeltrace2's Python API over `timeline export -f ctf`, and the
# peak memory of timeline.read() over the frame's size. The targets are
# ratios within the run: read_csv / read >= 10, read / dump csv <= 3, peak
# / frame <= 2.5. Appends to $BENCH_CSV (default bench/results/latest.csv).
# Run by `make bench`; `make bench-quick` sets ENTRIES and RUNS small.
set -eu
build=${1:-build}
tl=${TIMELINE:-./timeline}
py=${PYTHON:-/usr/bin/python3}
entries=${ENTRIES:-1048576}
runs=${RUNS:-5}
csv=${BENCH_CSV:-bench/results/latest.csv}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$(dirname "$csv")"
"$build/bench/fill" "$dir" 1 "$entries"
log="$dir/fill00.timeline"
"$tl" dump -f csv "$log" > "$dir/log.csv"
"$tl" export -f ctf -o "$dir/ctf" "$log"
# shellcheck disable=SC2046
set -- $("$build/bench/runcmd" "$runs" "$tl" dump -f csv "$log")
dump=$1
out=$(PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" TIMELINE_LIB="${TIMELINE_LIB:-$PWD/lib/libtimeline.so.0}" \
	TIMELINE_BIN="$tl" "$py" bench/python.py "$log" "$dir/log.csv" "$dir/ctf" "$runs")
get() { echo "$out" | sed -n "s/^$1,//p"; }
read_s=$(get python_read_seconds)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '%-44s %10s\n' "timeline dump -f csv > /dev/null" "$dump s"
printf '%-44s %10s  (%s M entries/s)\n' "timeline.read() into a DataFrame" "$read_s s" \
	"$(get python_read_entries_per_s)"
printf '%-44s %10s  (%sx timeline.read, target >= 10)\n' "pandas.read_csv of that CSV" \
	"$(get pandas_read_csv_seconds) s" "$(get pandas_read_csv_vs_python_read)"
printf '%-44s %10s  (target <= 3)\n' "timeline.read / dump -f csv" "$(ratio "$read_s" "$dump")x"
printf '%-44s %10s  (%sx timeline.read)\n' "bt2 (babeltrace2's Python API) over the CTF" \
	"$(get bt2_read_seconds) s" "$(get bt2_read_vs_python_read)"
printf '%-44s %10s  (frame %s MB, peak %s MB; target <= 2.5)\n' "peak memory / the frame's size" \
	"$(get python_read_peak_vs_frame)x" "$(get python_read_frame_mb)" "$(get python_read_peak_mb)"
{
	echo "python_dump_csv_seconds,$dump,s,,"
	echo "$out" | grep -v '^entries,' | sed 's/$/,,,/'
	echo "python_read_vs_dump_csv,$(ratio "$read_s" "$dump"),x,,python_dump_csv"
} >> "$csv"
