#!/bin/sh
# dpdk.sh: what a DPDK forwarder feels (issue 37), in two parts.
#
# 1. The forwarder of examples/dpdk, DPDK_WORKERS worker lcores (default
#    1) logging into its one log, pinned to the last CPUs (the main lcore,
#    asleep, on the first), net_null ports, its forwarding rate (packets
#    per second of its loops' CPU, summed over the lcores: the machine's
#    CPUs are shared) with the log off, auto (a rate drawn every turn) and
#    all, in runs interleaved off, auto, all, off, ..., off, each
#    DPDK_SECONDS long; the cost of a mode against the off runs on either
#    side, its Hodges-Lehmann estimate and 95% interval (bench/hl.py, as
#    bench/engine.sh). Twice: the log on tmpfs (/dev/shm) and at the
#    library's default root ($TIMELINE_ROOT unset: /var/run/timeline, on
#    the root file system on some machines). Targets (issue 37), on tmpfs:
#    auto at most 1%, all at most 12%.
# 2. DPDK's rte_trace against timeline in one binary and one run
#    (bench/dpdk_trace.c): cycles per call, six u64, disabled and enabled,
#    DPDK_CALLS calls x DPDK_REPS. Targets: our unordered clock enabled at
#    most 1.05x rte_trace's; the default clock's ratio reported; disabled
#    within 0.5 cycles of rte_trace's.
#
# Usage: sh bench/dpdk.sh [BUILD [RUNS]]: RUNS of each mode (default 10);
# DPDK_SECONDS (default 2), DPDK_CALLS (default 10000000), DPDK_REPS
# (default 5), DPDK_WHERE (default "shm root": where the logs go), DPDK_WORKERS
# (default 1: worker lcores). Appends to $BENCH_CSV (default bench/results/latest.csv);
# skips, saying so, where the forwarder was not built (no libdpdk).
set -eu
build=${1:-build}
runs=${2:-10}
secs=${DPDK_SECONDS:-2}
fwd=$build/examples/dpdk/fwd
trace=$build/bench/dpdk_trace
if [ ! -x "$fwd" ] || [ ! -x "$trace" ]; then
	echo "dpdk: skipped, the forwarder is not built (no libdpdk: scripts/install-deps installs libdpdk-dev)"
	exit 0
fi
case $runs in '' | *[!0-9]* | 0 | 1) echo "dpdk: RUNS must be 2 or more, not '$runs'"; exit 2 ;; esac
ncpu=$(getconf _NPROCESSORS_ONLN)
last=$((ncpu - 1))
workers=${DPDK_WORKERS:-1}
case $workers in '' | *[!0-9]* | 0) echo "dpdk: DPDK_WORKERS must be 1 or more, not '$workers'"; exit 2 ;; esac
# the main lcore on CPU 0; worker k (1..N) on CPU (last - N + k) mod ncpu
lcores=0@0
k=1
while [ "$k" -le "$workers" ]; do
	lcores="$lcores,$k@$(((last - workers + k + ncpu * workers) % ncpu))"
	k=$((k + 1))
done
dir=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$dir"' EXIT
csv=${BENCH_CSV:-bench/results/latest.csv}
mkdir -p "$(dirname "$csv")"
export csv
eal="--no-huge --no-pci -m 256 --no-shconf --no-telemetry --file-prefix=tlbench$$ --log-level=error"

# run WHERE MODE: one run, its log on tmpfs (WHERE shm) or at the default
# root (WHERE root), removed after; appends "MODE PACKETS CPU-SECONDS".
run() {
	if [ "$1" = shm ]; then logdir="-d $dir/logs"; else logdir=; fi
	timeout -k 5 300 "$fwd" $eal --lcores="$lcores" \
		--vdev=net_null0 --vdev=net_null1 -- -s "$secs" -r "$2" $logdir > "$dir/out"
	log=$(sed -n 's/^fwd: log //p' "$dir/out")
	[ -z "$log" ] || rm -f "$log"
	[ "$1" = shm ] || [ -z "$log" ] || rmdir "$(dirname "$log")" 2>/dev/null || true
	# the lcores' packets and CPU seconds, summed
	awk -v mode="$2" '/^fwd: lcore / {
		for (i = 1; i < NF; i++) {
			if ($(i + 1) == "packets,") p += $i
			if ($(i + 1) == "s" && $(i + 2) == "of") c += $i
		}
	} END { if (p) print mode, p, c }' "$dir/out" >> "$dir/runs-$1"
}

for where in ${DPDK_WHERE:-shm root}; do
	i=0
	while [ "$i" -lt "$runs" ]; do
		run "$where" off
		run "$where" auto
		run "$where" all
		i=$((i + 1))
	done
	run "$where" off
	root_fs=$(stat -f -c %T "${TIMELINE_ROOT:-/var/run/timeline}" 2>/dev/null || stat -f -c %T /var/run)
	workers=$workers PYTHONPATH="$(dirname "$0")" python3 - "$dir/runs-$where" "$secs" "$where" "$lcores" "$root_fs" <<'PY'
import os, sys
from hl import cost
runs = [(m, int(p) / float(c)) for m, p, c in (l.split() for l in open(sys.argv[1]))]
secs, where, cpu, fs = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
label = "tmpfs (/dev/shm)" if where == "shm" else "the default root (%s)" % fs
n = int(os.environ["workers"])
tag = where if n == 1 else "%s_%dlcores" % (where, n)   # the CSV rows' names
off = [r for m, r in runs if m == "off"]
print("\nthe DPDK forwarder, lcore@CPU %s, %s s runs, %d of each mode interleaved, log on %s"
      % (cpu, secs, len(off) - 1, label))
print("%-6s %12s %8s  %-18s %s" % ("mode", "M pkt/CPU s", "cost %", "95% interval", ""))
med_off = sorted(off)[len(off) // 2]
print("%-6s %12.2f" % ("off", med_off / 1e6))
rows = [("dpdk_%s_off" % tag, "%.3f" % (med_off / 1e6), "Mpackets/s", "", "")]
for mode, limit in (("auto", 1), ("all", 12)):
    med, est, lo, hi = cost(runs, mode)
    verdict = ("target <= %d%%: %s" % (limit, "met" if est <= limit else "MISSED")) if where == "shm" else ""
    print("%-6s %12.2f %8.2f  [%6.2f, %6.2f]  %s" % (mode, med / 1e6, est, lo, hi, verdict))
    rows += [("dpdk_%s_%s" % (tag, mode), "%.3f" % (med / 1e6), "Mpackets/s", "", ""),
             ("dpdk_%s_%s_cost" % (tag, mode), "%.2f" % est, "%", "", "off"),
             ("dpdk_%s_%s_cost_low" % (tag, mode), "%.2f" % lo, "%", "", "off"),
             ("dpdk_%s_%s_cost_high" % (tag, mode), "%.2f" % hi, "%", "", "off")]
print("runs in order (M packets per CPU second): " + " ".join("%s %.2f" % (m, r / 1e6) for m, r in runs))
with open(os.environ["csv"], "a") as f:
    for r in rows:
        f.write(",".join(r) + "\n")
PY
done

echo
echo "rte_trace against timeline, six u64, ${DPDK_CALLS:-10000000} calls x ${DPDK_REPS:-5}, one lcore on CPU $last"
timeout -k 5 600 "$trace" $eal -l "$last" --trace=tlbench --trace-dir="$dir/trace" -- \
	"${DPDK_CALLS:-10000000}" "${DPDK_REPS:-5}" > "$dir/trace.csv"
cat "$dir/trace.csv" >> "$csv"
awk -F, '{ v[$1] = $2 }
END {
	printf "dpdk: ours unordered / rte_trace enabled = %.2f: target <= 1.05: %s\n",
		v["dpdk_tl_unordered_vs_rte_enabled"],
		(v["dpdk_tl_unordered_vs_rte_enabled"] <= 1.05 ? "met" : "MISSED")
	printf "dpdk: ours default / rte_trace enabled = %.2f (the LFENCE)\n", v["dpdk_tl_vs_rte_enabled"]
	d = v["dpdk_tl_minus_rte_disabled"]
	printf "dpdk: ours disabled - rte_trace disabled = %.2f cycles: target within 0.5: %s\n",
		d, (d <= 0.5 && d >= -0.5 ? "met" : "MISSED")
}' "$dir/trace.csv"
