#!/bin/sh
# calibrate.sh: shows that diff's verdict is right, with the demo engine,
# then with examples/kv, whose spans nest (bench/calibrate-kv.sh; KV=0: not).
# False alarms: N comparisons of RUNS runs against RUNS runs of one
# configuration, each run given CPU contention (a busy loop on the other
# CPU) at random with probability 1/2. Power: N comparisons of RUNS runs
# against RUNS runs with --slow lookup=SLOW on side B, the same noise.
# Beside them, what one run per side would say under the same noise, judged
# by the test over pairs (p_pairs), as diff did before runs were samples.
# Prints a table and appends rows to $BENCH_CSV (default
# bench/results/latest.csv).
#   sh bench/calibrate.sh [BUILD]   (env: N=20 RUNS=5 SECS=0.5 SLOW=10;
#   KEEP=1 keeps the runs and diffs, and names the comparisons that missed;
#   ENTRIES=N the runs' ring size, default the engine's; OLD=path judges
#   the same runs with another timeline too, for a before and after)
set -eu
build=${1:-build}
tl=${TIMELINE:-./timeline}
engine=$build/examples/engine/engine
n=${N:-20} runs=${RUNS:-5} secs=${SECS:-0.5} slow=${SLOW:-10}
cpus=$(nproc)
# the engine on this process's lowest CPU, the busy loop on its next (a
# machine's CPUs need not be numbered 0 and 1)
# shellcheck disable=SC2046
set -- $(python3 -c 'import os; print(*(sorted(os.sched_getaffinity(0)) * 2)[:2])')
cpu0=$1 cpu1=$2
dir=$(mktemp -d)
bp=
# the busy loop of a run under way, whatever ends the script
trap '[ -z "$bp" ] || kill "$bp" 2>/dev/null || true
[ "${KEEP:-}" = 1 ] || rm -rf "$dir"' EXIT
[ "${KEEP:-}" != 1 ] || echo "calibrate: keeping $dir" >&2
csv=${BENCH_CSV:-bench/results/latest.csv}
mkdir -p "$(dirname "$csv")"
seed=${SEED:-$$}

# run DIR [ARGS...]: one engine run into DIR, under contention half the time
# (a coin from awk's generator, seeded once per call from the seed and a counter).
count=0
run() {
	d=$1
	shift
	count=$((count + 1))
	busy=$(awk -v s="$seed" -v c="$count" 'BEGIN { srand(s * 7919 + c); print (rand() < 0.5) }')
	if [ "$busy" = 1 ] && [ "$cpus" -gt 1 ]; then
		taskset -c "$cpu1" sh -c 'while :; do :; done' &
		bp=$!
	fi
	"$engine" --cpu "$cpu0" --seconds "$secs" --workload imix --rate all --seed 7 \
		${ENTRIES:+--entries "$ENTRIES"} --dir "$d" "$@" >/dev/null
	if [ "$busy" = 1 ] && [ "$cpus" -gt 1 ]; then
		kill "$bp"
		wait "$bp" 2>/dev/null || true
		bp=
	fi
	echo "$busy" >> "$dir/busy"
}

# compare KIND I [ARGS for B...]: RUNS runs a side, interleaved; prints the
# SLOWER rows of the RUNS-run diff, then those one run a side gives by pairs.
compare() {
	kind=$1 i=$2
	shift 2
	a="$dir/$kind$i/a" b="$dir/$kind$i/b"
	mkdir -p "$a" "$b"
	k=0
	while [ "$k" -lt "$runs" ]; do
		run "$a"
		run "$b" "$@"
		k=$((k + 1))
	done
	rc=0
	"$tl" diff --per packets "$a" "$b" > "$dir/$kind$i.txt" 2>/dev/null || rc=$?
	[ "$rc" -le 1 ] || { echo "calibrate: diff failed ($rc)" >&2; exit 1; }
	[ -z "${OLD:-}" ] || "$OLD" diff --per packets "$a" "$b" > "$dir/$kind$i.old.txt" 2>/dev/null ||
		[ $? -le 1 ]
	# one run a side, judged as before: p over pairs < 0.05 and change > 5%
	"$tl" diff --per packets -f csv "$(ls "$a"/*.timeline | head -n 1)" \
		"$(ls "$b"/*.timeline | head -n 1)" 2>/dev/null > "$dir/$kind$i.one.csv" || true
}

# slower FILE: the app names flagged SLOWER in diff's text output FILE.
slower() { awk '$NF == "SLOWER" { print $2 }' "$1" | sort | tr '\n' ' '; }
# slower_one FILE: the same for one run a side, by the test over pairs.
slower_one() {
	awk -F, 'NR > 1 { gsub(/"/, ""); if ($15 < 0.05 && $11 > 5) print $2 }' "$1" | sort | tr '\n' ' '
}

i=1
while [ "$i" -le "$n" ]; do
	compare aa "$i"
	compare power "$i" --slow "lookup=$slow"
	i=$((i + 1))
done

# judge SUFFIX: counts, over the comparisons' diffs DIR/KINDi.SUFFIX, the
# A/A batches that flag anything, those that find lookup, those that flag
# nothing else, and nothing but lookup and the breath that holds it
judge() {
	aa=0 hit=0 hit_only=0 hit_held=0
	i=1
	while [ "$i" -le "$n" ]; do
		s=$(slower "$dir/aa$i.$1")
		[ -z "$s" ] || { aa=$((aa + 1)); missed="$missed aa$i"; }
		s=$(slower "$dir/power$i.$1")
		case " $s" in *" lookup "*) hit=$((hit + 1)) ;; esac
		if [ "$s" = "lookup " ]; then hit_only=$((hit_only + 1)); else missed="$missed power$i"; fi
		case "$s" in "lookup "|"- lookup ") hit_held=$((hit_held + 1)) ;; esac
		i=$((i + 1))
	done
}

missed=
aa1=0 hit1=0
i=1
while [ "$i" -le "$n" ]; do
	s=$(slower_one "$dir/aa$i.one.csv")
	[ -z "$s" ] || aa1=$((aa1 + 1))
	s=$(slower_one "$dir/power$i.one.csv")
	case " $s" in *" lookup "*) hit1=$((hit1 + 1)) ;; esac
	i=$((i + 1))
done
if [ -n "${OLD:-}" ]; then
	judge old.txt
	oaa=$aa ohit=$hit ohit_only=$hit_only ohit_held=$hit_held
fi
missed=
judge txt
[ "${KEEP:-}" != 1 ] || [ -z "$missed" ] || echo "calibrate: missed:$missed (diffs in $dir)" >&2
busy=$(awk '{ s += $1 } END { printf "%d of %d", s, NR }' "$dir/busy")

printf '\n%s\n' "diff calibration: $n comparisons each, runs of ${secs}s, contention in $busy runs"
printf '%-44s %10s %8s\n' "case" "flagged" "target"
printf '%-44s %7s/%s %8s\n' "A/A, $runs vs $runs runs: any group SLOWER" "$aa" "$n" "<= 1"
printf '%-44s %7s/%s %8s\n' "slow lookup=$slow%, $runs vs $runs: lookup SLOWER" "$hit" "$n" ">= 19"
printf '%-44s %7s/%s %8s\n' "  ... and nothing else SLOWER" "$hit_only" "$n" ">= 19"
printf '%-44s %7s/%s %8s\n' "  ... nothing but it and the breath holding it" "$hit_held" "$n" ""
if [ -n "${OLD:-}" ]; then
	printf '%-44s %7s/%s\n' "the same runs judged by OLD: A/A" "$oaa" "$n"
	printf '%-44s %7s/%s\n' "  OLD: lookup SLOWER" "$ohit" "$n"
	printf '%-44s %7s/%s\n' "  OLD: ... and nothing else" "$ohit_only" "$n"
	printf '%-44s %7s/%s\n' "  OLD: ... nothing but it and the breath" "$ohit_held" "$n"
fi
printf '%-44s %7s/%s %8s\n' "A/A, 1 vs 1 run, test over pairs" "$aa1" "$n" ""
printf '%-44s %7s/%s %8s\n' "slow, 1 vs 1 run, test over pairs: lookup" "$hit1" "$n" ""
{
	echo "calibrate_false_alarms,$aa,of $n,,"
	echo "calibrate_power_lookup,$hit,of $n,,"
	echo "calibrate_power_lookup_only,$hit_only,of $n,,"
	echo "calibrate_one_run_false_alarms,$aa1,of $n,,"
	echo "calibrate_one_run_power,$hit1,of $n,,"
} >> "$csv"

# the second program: nested spans in their own units (unless KV=0)
[ "${KV:-1}" = 0 ] || sh "$(dirname "$0")/calibrate-kv.sh" "$build"
