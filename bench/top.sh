#!/bin/sh
# top.sh: the CPU `timeline top` takes while it watches, at its default
# refresh (1 s): its user + system time over N refreshes (wait4's rusage,
# bench/runcmd) as a share of one CPU, and how much of what the writers
# logged it read (from its JSON). Three cases: one writer logging flat out
# (build/tests/stress, a ring of 2^20 entries); ten demo engines paced at
# 20,000 breaths/s each with the per-breath draw (the default, Snabb's way);
# the same ten logging every event (--rate all). The target: under 5% of
# one CPU in each case. Appends to bench/results/latest.csv; run by `make
# bench`. TOP_REFRESHES=N (default 20) sets the length of each case.
set -eu
build=${1:-build}
tl=${TIMELINE:-./timeline}
n=${TOP_REFRESHES:-20}
dir=$(mktemp -d)
trap 'kill $(cat "$dir"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$dir"' EXIT
csv=bench/results/latest.csv
mkdir -p bench/results

# What top read of what was written over the run, from its JSON blocks:
# entries written per second, the % read, lost per second.
read_share() {
	python3 -c 'import json,sys
w=r=l=u=0
s=0.0
for line in open(sys.argv[1]):
  b=json.loads(line)
  for g in b["logs"]:
    x=g["last"]; w+=x["written"]; r+=x["read"]; l+=x["lost"]; u+=x["unread"]
  s+=b["delay"]
print("%.0f %.1f %.0f" % (w/s, 100.0*r/w if w else 100, l/s))' "$1"
}

# measure NAME LABEL: top over $dir/NAME for $n refreshes, one line and CSV rows.
measure() {
	name=$1 label=$2
	# shellcheck disable=SC2046
	set -- $("$build/bench/runcmd" 1 sh -c "exec '$tl' top -b -f json -n $n '$dir/$name' > '$dir/$name.json'")
	wall=$1 cpu=$3
	# shellcheck disable=SC2046
	set -- $(read_share "$dir/$name.json")
	pct=$(awk -v c="$cpu" -v w="$wall" 'BEGIN { printf "%.2f", 100 * c / w }')
	printf '%-44s %6s %12s %7s %10s\n' "$label" "$pct" "$1" "$2" "$3"
	{
		echo "top_${name}_cpu,$pct,% of one CPU,,"
		echo "top_${name}_written_per_s,$1,entries/s,,"
		echo "top_${name}_read,$2,%,,"
	} >> "$csv"
	verdict=$(awk -v p="$pct" 'BEGIN { print (p < 5 ? "met" : "MISSED") }')
	echo "top_${name}: $pct% of one CPU: target < 5%: $verdict"
}

printf '\n%-44s %6s %12s %7s %10s\n' "timeline top, default refresh, $n s" "CPU %" "written/s" "read %" "lost/s"

mkdir -p "$dir/flat"
"$build/tests/stress" write "$dir/flat/stress.timeline" $((n + 4)) > "$dir/flat.out" &
echo $! > "$dir/flat.pid"
sleep 1
measure flat "one writer flat out"
wait "$(cat "$dir/flat.pid")"
rm "$dir/flat.pid"
awk -v s=$((n + 4)) '{ printf "  (the writer: %.1f M entries/s)\n", $3 / s / 1e6 }' "$dir/flat.out"
rm -rf "$dir/flat"

for rate in auto all; do
	mkdir -p "$dir/ten_$rate"
	for i in 0 1 2 3 4 5 6 7 8 9; do
		"$build/examples/engine/engine" --dir "$dir/ten_$rate" --name "e$i" --workload imix \
			--pace 20000 --rate "$rate" --seconds $((n + 3)) > /dev/null &
		echo $! > "$dir/ten_$rate.$i.pid"
	done
	sleep 1
	measure "ten_$rate" "ten engines, 20000 breaths/s each, rate $rate"
	wait
	rm -f "$dir"/ten_"$rate".*.pid
	rm -rf "$dir/ten_$rate"
done
