#!/bin/sh
# lttng.sh: the LTTng-UST rows of `make bench`: the same six-u64 event through
# a tracepoint, with no session (disabled) and recorded by a session in
# overwrite mode (enabled), against RDTSC and tl_append() in the same run.
# Starts a user-mode lttng-sessiond of its own (no kernel modules) and stops it.
# Appends to $BENCH_CSV (default bench/results/latest.csv); skips, saying so,
# without LTTng.
set -eu
bin=${1:-build/bench/lttng}
if [ ! -x "$bin" ] || ! command -v lttng-sessiond >/dev/null || ! command -v lttng >/dev/null; then
	echo "lttng: skipped, LTTng-UST or lttng-tools is not installed (make bench-deps)"
	exit 0
fi
home=$(mktemp -d)
# each step may fail (the daemon gone already): none may make the status
trap 'LTTNG_HOME=$home lttng destroy -a >/dev/null 2>&1 || true
[ -z "${pid:-}" ] || kill "$pid" 2>/dev/null || true
rm -rf "$home"' EXIT
csv=${BENCH_CSV:-bench/results/latest.csv}
export LTTNG_HOME="$home"
lttng-sessiond --no-kernel --daemonize --pidfile "$home/sessiond.pid" >/dev/null 2>&1
pid=$(cat "$home/sessiond.pid")
"$bin" disabled >> "$csv"
lttng create tlbench --output="$home/trace" >/dev/null
lttng enable-channel -u --overwrite --subbuf-size=4M --num-subbuf=4 ch >/dev/null
lttng enable-event -u -c ch 'tlbench:six' >/dev/null
lttng start >/dev/null
"$bin" enabled >> "$csv"
lttng stop >/dev/null
lttng destroy >/dev/null
tail -n 4 "$csv" | sed 's/^/lttng: /'
ratio=$(tail -n 1 "$csv" | cut -d, -f2)
awk -v r="$ratio" 'BEGIN { printf "lttng: lttng_enabled / enabled = %.2f: target >= 8: %s\n", r, (r >= 8 ? "met" : "MISSED") }'
