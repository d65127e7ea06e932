#!/bin/sh
# demo.sh: the main job, end to end (`make demo`): ten engine processes with
# varied workloads, pinned across the CPUs, two or three at a time, into
# demo/out/; then what timeline makes of them: ls and copy while they run,
# info, stats (cycles per packet by app, batch size and NUMA node, and the
# breath summary), and diff of normal runs against --slow ones; last, the
# same drawn by report: the diff's page, then demo/out/report.html.
set -eu
engine=${ENGINE:-build/examples/engine/engine}
tl=${TIMELINE:-./timeline}
out=${DEMO_OUT:-demo/out}
secs=${DEMO_SECONDS:-1.5}
cpus=$(nproc)
at_once=$(( cpus < 2 ? 2 : cpus > 3 ? 3 : cpus ))

rm -rf "$out"
mkdir -p "$out/runs" "$out/ab"
chmod 700 "$out" "$out/runs" "$out/ab"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "10 engines, $at_once at a time on $cpus CPUs, ${secs}s each, into $out/runs"
i=0
for w in small imix large bursty imix small large bursty imix small; do
	"$engine" --cpu $(( i % cpus )) --seconds "$secs" --workload "$w" --dir "$out/runs" \
		--name "$w" > "$out/engine-$i.txt" &
	i=$(( i + 1 ))
	if [ $(( i % at_once )) -eq 0 ] || [ "$i" -eq 10 ]; then
		if [ "$i" -eq "$at_once" ]; then
			sleep 0.5
			say "timeline ls $out/runs   (while the first engines run)"
			"$tl" ls "$out/runs"
			first=$(ls "$out"/runs/*.timeline | head -n 1)
			say "timeline copy $first $out/copy.timeline   (a live log)"
			"$tl" copy "$first" "$out/copy.timeline"
		fi
		wait
	fi
done
cat "$out"/engine-*.txt | grep '^engine'

say "timeline info $out/copy.timeline"
"$tl" info "$out/copy.timeline"

say "timeline stats --per packets --by app,numa --bucket packets=0,1,16,32,64,inf $out/runs"
"$tl" stats --per packets --by app,numa --bucket packets=0,1,16,32,64,inf "$out/runs"

say "4 normal runs and 4 with --slow lookup=60, side by side, swapping CPUs"
for i in 0 1 2 3; do
	"$engine" --cpu $(( i % cpus )) --seconds 1 --workload imix --dir "$out/ab/normal" \
		--name imix --seed 7 >/dev/null &
	"$engine" --cpu $(( (i + 1) % cpus )) --seconds 1 --workload imix --dir "$out/ab/slow" \
		--name imix --seed 7 --slow lookup=60 >/dev/null &
	wait
done

say "timeline diff --per packets --threshold 10 $out/ab/normal $out/ab/slow"
rc=0
"$tl" diff --per packets --threshold 10 "$out/ab/normal" "$out/ab/slow" || rc=$?
if [ "$rc" -eq 1 ]; then
	echo "diff exit status 1: a group got significantly slower (as CI would see it)"
else
	echo "diff exit status $rc: expected 1, the slowed lookup app" >&2
	exit 1
fi

say "timeline report --threshold 10 --a $out/ab/normal --b $out/ab/slow -o $out/ab-report.html"
rc=0
"$tl" report --threshold 10 --a "$out/ab/normal" --b "$out/ab/slow" -o "$out/ab-report.html" || rc=$?
if [ "$rc" -ne 1 ]; then
	echo "report exit status $rc: expected 1, as diff's" >&2
	exit 1
fi
echo "report exit status 1, as diff's: $out/ab-report.html"

say "timeline report $out/runs -o $out/report.html"
"$tl" report "$out/runs" -o "$out/report.html"
echo "the report of the ten engines: $(cd "$out" && pwd)/report.html"
