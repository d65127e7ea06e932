#!/bin/sh
# arm.sh: what arming costs the instrumented program (issue 38). The demo
# engine at the rate all, armed (--arm: the flight recorder on the breath,
# at a threshold of ARM_US microseconds, default 1 s: it never triggers, so
# every breath pays the check) against unarmed, in runs interleaved all,
# armed, all, ..., all, pinned to the last CPU, the same seed and workload.
# Each armed run gives d = ln(armed) - (ln(all before) + ln(all after)) / 2
# (packets per CPU second); the cost is the Hodges-Lehmann estimate of the
# d's with the exact Wilcoxon 95% interval, in %, as bench/engine.sh does.
# Target: within 2%.
#
# Usage: sh bench/arm.sh [BUILD [RUNS]] (default 20 runs of each);
# ENGINE_SECONDS (1), ENGINE_WORKLOAD (small), ENGINE_CPU (the last), ARM_US.
set -eu
build=${1:-build}
runs=${2:-20}
secs=${ENGINE_SECONDS:-1}
workload=${ENGINE_WORKLOAD:-small}
arm=${ARM_US:-1000000}
engine=$build/examples/engine/engine
cpu=${ENGINE_CPU:-$(($(getconf _NPROCESSORS_ONLN) - 1))}
[ -x "$engine" ] || { echo "arm: $engine not built"; exit 1; }
dir=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$dir"' EXIT

# run MODE ARGS...: one run; appends "MODE PACKETS CPU-SECONDS" to $dir/runs.
run() {
	mode=$1
	shift
	"$engine" -c "$cpu" -w "$workload" -s "$secs" --seed 7 -r all -d "$dir/logs" "$@" > "$dir/out"
	rm -f "$dir"/logs/*
	echo "$mode $(sed -n 's/.* breaths, \([0-9]*\) packets, .*/\1/p' "$dir/out")" \
		"$(sed -n 's/^loop .* s, \(.*\) s of CPU$/\1/p' "$dir/out")" >> "$dir/runs"
}

i=0
while [ "$i" -lt "$runs" ]; do
	run all
	run armed --arm "$arm"
	i=$((i + 1))
done
run all

python3 - "$dir/runs" "$secs" "$workload" "$cpu" "$arm" <<'PY'
import math, sys
runs = [(m, int(p) / float(c)) for m, p, c in (l.split() for l in open(sys.argv[1]))]
base = [r for m, r in runs if m == "all"]
got = [r for m, r in runs if m == "armed"]
d = [math.log(got[i]) - (math.log(base[i]) + math.log(base[i + 1])) / 2 for i in range(len(got))]
w = sorted((d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d)))
n, m = len(d), len(w)
top = n * (n + 1) // 2
f = [1] + [0] * top
for k in range(1, n + 1):
    for s in range(top, k - 1, -1):
        f[s] += f[s - k]
acc, c = 0, -1
for s in range(top + 1):
    acc += f[s]
    if acc / 2 ** n > 0.025:
        break
    c = s
est = w[m // 2] if m % 2 else (w[m // 2 - 1] + w[m // 2]) / 2
lo, hi = (w[c], w[m - 1 - c]) if c >= 0 else (w[0], w[-1])
pct = lambda x: -math.expm1(x) * 100
med = lambda v: sorted(v)[len(v) // 2] / 1e6
print("the demo engine at the rate all, %s workload, %s s runs, %d armed (%s us) "
      "interleaved with %d unarmed on CPU %s"
      % (sys.argv[3], sys.argv[2], len(got), sys.argv[5], len(base), sys.argv[4]))
# pct() turns the d's order around: pct(hi) is the interval's low end, pct(lo) its high
print("unarmed %.2f M pkt/CPU s, armed %.2f; cost %.2f%% [%.2f, %.2f]: target <= 2%%: %s"
      % (med(base), med(got), pct(est), pct(hi), pct(lo), "met" if pct(lo) <= 2 else
         ("met by the estimate, not the interval" if pct(est) <= 2 else "MISSED")))
print("runs in order: " + " ".join("%s %.2f" % (m, r / 1e6) for m, r in runs))
PY
