#!/bin/sh
# calibrate-kv.sh: diff's verdict on a program whose spans nest (the second
# program of calibrate.sh): examples/kv, a poll pair around request pairs
# around parse, lookup and reply, in requests, bytes and keys. For each step
# of change (lookup PCT% dearer), N comparisons of RUNS runs against RUNS,
# and N A/A comparisons; each run pinned to this process's lowest CPU, a
# busy loop on the next one at random (a coin per run). `timeline diff` at
# its defaults, each pair in its own unit. Counts, per step: the batches
# that find the lookup SLOWER; those that flag an unchanged sibling (parse
# or reply, SLOWER or faster); per unit, the A/A batches that flag anything.
#   sh bench/calibrate-kv.sh [BUILD]   (env: N=20 RUNS=5 POLLS=1500
#   STEPS="5 10 20 40 60"; KEEP=1 keeps the runs)
set -eu
build=${1:-build}
tl=${TIMELINE:-./timeline}
kv=$build/examples/kv/kv
n=${N:-20} runs=${RUNS:-5} polls=${POLLS:-1500} steps=${STEPS:-5 10 20 40 60}
# shellcheck disable=SC2046
set -- $(python3 -c 'import os; print(*(sorted(os.sched_getaffinity(0)) * 2)[:2])')
cpu0=$1 cpu1=$2
dir=$(mktemp -d)
bp=
trap '[ -z "$bp" ] || kill "$bp" 2>/dev/null || true
[ "${KEEP:-}" = 1 ] || rm -rf "$dir"' EXIT
[ "${KEEP:-}" != 1 ] || echo "calibrate-kv: keeping $dir" >&2
csv=${BENCH_CSV:-bench/results/latest.csv}
mkdir -p "$(dirname "$csv")"
seed=${SEED:-$$}
count=0

# run DIR [ARGS...]: one kv run into DIR, under contention half the time
run() {
	d=$1
	shift
	count=$((count + 1))
	busy=$(awk -v s="$seed" -v c="$count" 'BEGIN { srand(s * 7919 + c); print (rand() < 0.5) }')
	if [ "$busy" = 1 ] && [ "$cpu0" != "$cpu1" ]; then
		taskset -c "$cpu1" sh -c 'while :; do :; done' &
		bp=$!
	fi
	"$kv" --cpu "$cpu0" --polls "$polls" --rate all --seed 7 --entries 131072 --dir "$d" "$@" >/dev/null
	if [ -n "$bp" ]; then
		kill "$bp"
		wait "$bp" 2>/dev/null || true
		bp=
	fi
	echo "$busy" >> "$dir/busy"
}

# batch NAME [ARGS for B...]: RUNS runs a side, interleaved, then diff's CSV
batch() {
	a="$dir/$1/a" b="$dir/$1/b"
	shift
	mkdir -p "$a" "$b"
	k=0
	while [ "$k" -lt "$runs" ]; do
		run "$a"
		run "$b" "$@"
		k=$((k + 1))
	done
	"$tl" diff -f csv "$a" "$b" > "$a/../new.csv" 2>/dev/null || [ $? -le 1 ]
}

# flagged CSV [UNIT]: the events that read SLOWER or faster (of UNIT: its
# column 3 when diff printed one), one line each
flagged() {
	awk -F, -v u="${2:-}" 'NR > 1 { gsub(/"/, ""); if (($NF == "SLOWER" || $NF == "faster") &&
		$1 != "(all)" && (u == "" || $3 == u)) print $1 }' "$1"
}

i=1
while [ "$i" -le "$n" ]; do
	batch "aa$i"
	for s in $steps; do
		batch "s$s-$i" --slow "lookup=$s"
	done
	i=$((i + 1))
done

busy=$(awk '{ s += $1 } END { printf "%d of %d", s, NR }' "$dir/busy")
printf '\n%s\n' "diff calibration on examples/kv (nested spans): $n batches of $runs runs a side, $polls polls a run, contention in $busy runs"
printf '%-34s %12s %16s %12s\n' "case" "lookup SLOWER" "sibling flagged" "target"
for s in $steps; do
	hit=0 sib=0
	i=1
	while [ "$i" -le "$n" ]; do
		f=$(flagged "$dir/s$s-$i/new.csv")
		case " $(echo $f) " in *" kv.lookup "*) hit=$((hit + 1)) ;; esac
		! echo "$f" | grep -q -e '^kv.parse$' -e '^kv.reply$' || sib=$((sib + 1))
		i=$((i + 1))
	done
	target=
	[ "$s" != 60 ] || target=">= 19, <= 1"
	printf '%-34s %9s/%s %13s/%s %12s\n' "lookup +$s% work" "$hit" "$n" "$sib" "$n" "$target"
	echo "calibrate_kv_power_$s,$hit,of $n,," >> "$csv"
	echo "calibrate_kv_sibling_$s,$sib,of $n,," >> "$csv"
done
for u in requests bytes keys; do
	aa=0
	i=1
	while [ "$i" -le "$n" ]; do
		[ -z "$(flagged "$dir/aa$i/new.csv" "$u")" ] || aa=$((aa + 1))
		i=$((i + 1))
	done
	printf '%-34s %12s %13s/%s %12s\n' "A/A, pairs in $u: any flagged" "" "$aa" "$n" "<= 1"
	echo "calibrate_kv_false_alarms_$u,$aa,of $n,," >> "$csv"
done
