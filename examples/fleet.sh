#!/bin/sh
# fleet.sh: the fleet workflow on one machine. Eight hosts are simulated as
# directories of real logs of the demo engine, each log's header saying its
# host (bytes 256-383, timeline-format(5)); two of them, the canaries, run a
# build whose lookup app is 60% slower. Each host reduces its logs to a
# summary, as cron would run it there; the summaries are gathered in one
# directory (here a copy, there scp or `parallel --sshlogin`); then stats,
# diff and report read the summaries alone, stats ranking the fleet's
# slowest breaths. Exits 1 unless each of those names its host, diff flags
# the canaries' lookup as SLOWER and report exits as diff does. Run by CI
# (.ci/run); its output is in examples/README.md.
set -eu
engine=${ENGINE:-build/examples/engine/engine}
tl=${TIMELINE:-./timeline}
out=${FLEET_OUT:-fleet/out}
rm -rf "$out"
mkdir -p "$out/hosts" "$out/gathered/canary" "$out/gathered/rest"
say() { printf '\n== %s\n' "$*"; }

say "8 hosts, 2 runs of the engine each; host01 and host02 are canaries (--slow lookup=60)"
# the runs of all hosts interleaved, so that the machine's load falls alike on each
for run in 1 2; do
	for h in 1 2 3 4 5 6 7 8; do
		slow=""
		[ "$h" -le 2 ] && slow="--slow lookup=60"
		# shellcheck disable=SC2086
		"$engine" --breaths 20000 --workload imix --rate all --entries 262144 \
			--seed $((h * 10 + run)) --dir "$out/hosts/$(printf 'host%02d' "$h")" $slow >/dev/null
	done
done
for h in 1 2 3 4 5 6 7 8; do
	host=$(printf 'host%02d' "$h")
	for f in "$out/hosts/$host"/*.timeline; do   # the host name each log's header holds
		head -c 128 /dev/zero | dd of="$f" bs=1 seek=256 conv=notrunc status=none
		printf '%s' "$host" | dd of="$f" bs=1 seek=256 conv=notrunc status=none
	done
done

say "on each host: timeline stats --per packets --save HOST.sum /var/run/timeline"
for h in 1 2 3 4 5 6 7 8; do
	host=$(printf 'host%02d' "$h")
	side=rest
	[ "$h" -le 2 ] && side=canary
	"$tl" stats --per packets --save "$out/hosts/$host.sum" "$out/hosts/$host" >/dev/null
	cp "$out/hosts/$host.sum" "$out/gathered/$side/"   # scp HOST:HOST.sum gathered/SIDE/
done
ls -l "$out"/gathered/*/ | sed 's/^\([^ ]*\) *[0-9]* [^ ]* *[^ ]* */\1 /' | grep -v '^total'
du -b "$out/gathered" | tail -n 1 | awk '{ printf "%d bytes of summaries, for 16 logs of 16 MiB\n", $1 }'

say "timeline stats --per packets --by host $out/gathered   (one machine, summaries only)"
"$tl" stats --per packets --by host "$out/gathered" | sed -n '/^cycles per packet/,/^$/p'

say "timeline stats --per packets --by event --slowest 5 $out/gathered   (the fleet's 5 slowest breaths)"
"$tl" stats --per packets --by event --slowest 5 -f csv "$out/gathered" | grep '^"engine.breath"' |
	cut -d, -f2,3,6,10
n=$("$tl" stats --per packets --by event --slowest 5 -f csv "$out/gathered" | grep -c '^"engine.breath".*"on host0[1-8]: timeline dump')
if [ "$n" -ne 5 ]; then
	echo "fleet.sh: $n of the fleet's 5 slowest breaths named their host: expected 5" >&2
	exit 1
fi

say "timeline diff --per packets --a $out/gathered/rest --b $out/gathered/canary"
rc=0
"$tl" diff --per packets --a "$out/gathered/rest" --b "$out/gathered/canary" || rc=$?
if [ "$rc" -ne 1 ]; then
	echo "fleet.sh: diff exit status $rc: expected 1, the canaries' slowed lookup" >&2
	exit 1
fi
echo "diff exit status 1: the canaries' lookup is slower than the rest's (as CI would see it)"

say "timeline report --a $out/gathered/rest --b $out/gathered/canary -o $out/fleet.html"
rc=0
"$tl" report --a "$out/gathered/rest" --b "$out/gathered/canary" -o "$out/fleet.html" || rc=$?
if [ "$rc" -ne 1 ]; then
	echo "fleet.sh: report exit status $rc: expected 1, as diff's" >&2
	exit 1
fi
echo "report exit status 1, as diff's: $out/fleet.html (diff's verdicts, then A over B per group)"
