#!/bin/sh
# demo.sh: the main job, end to end (`make demo`): ten engine processes with
# varied workloads, pinned across the CPUs, two or three at a time, logging
# under the default root (where `timeline ls` and `timeline top` look: run
# `timeline top` in another terminal to watch them), moved to demo/out/
# after; then what timeline makes of them: ls, top and copy while they run,
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

# The default root of the library (timeline(3)), the first of these this
# user can write: the engines log under it, where `timeline top` looks.
root=${TIMELINE_ROOT:-}
if [ -z "$root" ]; then
	for r in /var/run/timeline ${XDG_RUNTIME_DIR:+"$XDG_RUNTIME_DIR/timeline"} "/tmp/timeline-$(id -u)"; do
		if mkdir -p "$r" 2>/dev/null && [ -O "$r" ] && chmod 700 "$r" && [ -w "$r" ]; then
			root=$r
			break
		fi
	done
fi
[ -n "$root" ] || root=$out   # no root to write: top can still be given the path
live="$root/demo-$$"   # this demo's own: another may run beside it
trap 'rm -rf "$live"' EXIT

rm -rf "$out"
mkdir -p "$out/runs" "$out/ab" "$live"
chmod 700 "$out" "$out/runs" "$out/ab" "$live"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# logs_ready N: N logs in $live, each with its header written (a log is
# there before its header is)
logs_ready() {
	[ "$(ls "$live" | grep -c '\.timeline$')" -ge "$1" ] || return 1
	for f in "$live"/*.timeline; do
		"$tl" info "$f" >/dev/null 2>&1 || return 1
	done
}

say "10 engines, $at_once at a time on $cpus CPUs, ${secs}s each, into $live (\`timeline top\` shows them)"
i=0
for w in small imix large bursty imix small large bursty imix small; do
	# rings of 2^18 entries (16 MiB, in memory under /var/run): room for a run
	"$engine" --cpu $(( i % cpus )) --seconds "$secs" --workload "$w" --dir "$live" \
		--name "$w" --entries 262144 > "$out/engine-$i.txt" &
	i=$(( i + 1 ))
	if [ $(( i % at_once )) -eq 0 ] || [ "$i" -eq 10 ]; then
		if [ "$i" -eq "$at_once" ]; then
			# the first engines' logs, however long they take to start
			k=0
			until logs_ready "$at_once"; do
				k=$(( k + 1 ))
				[ "$k" -le 300 ] || { echo "demo: no $at_once logs in $live after 30 s" >&2; exit 1; }
				sleep 0.1
			done
			say "timeline ls $live   (while the first engines run)"
			"$tl" ls "$live"
			say "timeline top -b -n 1 -d 0.5 $live   (one refresh, by app)"
			"$tl" top -b -n 1 -d 0.5 "$live"
			first=$(ls "$live"/*.timeline | head -n 1)
			say "timeline copy $first $out/copy.timeline   (a live log)"
			"$tl" copy "$first" "$out/copy.timeline"
		fi
		wait
	fi
done
cat "$out"/engine-*.txt | grep '^engine'
mv "$live"/*.timeline "$out/runs/"

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
