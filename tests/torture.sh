#!/bin/sh
# torture.sh [SECONDS]: live reading under load. Two writers log flat out
# (tests/stress.c) while `timeline copy` and `timeline dump` read their logs
# in a loop for SECONDS (default 60); every copy and every dump must hold
# only whole entries in order. Prints the totals, the dropped slots among
# them; exits 1 on any torn or out-of-order entry. CI runs it for 5 s.
set -eu
seconds=${1:-60}
tl=${TIMELINE:-./timeline}
stress=${STRESS:-build/tests/stress}
dir=$(mktemp -d)
trap 'kill $w1 $w2 2>/dev/null || true; rm -rf "$dir"' EXIT
# the writers run a little longer than the loop, so it ends while they log
"$stress" write "$dir/w1.timeline" $((seconds + 2)) > "$dir/w1.out" &
w1=$!
"$stress" write "$dir/w2.timeline" $((seconds + 2)) > "$dir/w2.out" &
w2=$!
# a log is there (and sized) before its header is written: wait until both
# read as logs (30 s at most), not a guessed while
i=0
until "$tl" info "$dir/w1.timeline" >/dev/null 2>&1 && "$tl" info "$dir/w2.timeline" >/dev/null 2>&1; do
	i=$((i + 1))
	[ "$i" -le 600 ] || { echo "torture: the writers' logs are not there after 30 s"; exit 1; }
	sleep 0.05
done
end=$(($(date +%s) + seconds))
rounds=0
while [ "$(date +%s)" -lt "$end" ]; do
	for w in w1 w2; do
		"$tl" copy "$dir/$w.timeline" "$dir/copy.timeline" >> "$dir/copy.log"
		"$stress" check "$dir/copy.timeline" >> "$dir/check.log" || {
			tail -n 1 "$dir/check.log"; echo "torture: a torn or out-of-order entry in a copy"; exit 1; }
		"$tl" dump -f csv "$dir/$w.timeline" 2>> "$dir/dump.err" | "$stress" check-csv >> "$dir/csv.log" || {
			tail -n 1 "$dir/csv.log"; echo "torture: a torn or out-of-order entry in a dump"; exit 1; }
	done
	rounds=$((rounds + 1))
done
wait $w1 $w2
# totals: "X -> Y: N entries, D dropped", "check: F: N entries, 0 torn, 0 out of order, S skipped",
# "check-csv: N rows, 0 torn, 0 out of order", "timeline dump: F: N incomplete entries skipped"
awk -v rounds="$rounds" -v seconds="$seconds" '
	FILENAME ~ /copy.log$/ { copies++; kept += $(NF-3); dropped += $(NF-1) }
	FILENAME ~ /check.log$/ { checked += $3; torn += $5; disorder += $8 }
	FILENAME ~ /csv.log$/ { dumps++; rows += $2; torn += $4; disorder += $7 }
	FILENAME ~ /dump.err$/ && /incomplete entries skipped/ { skipped += $(NF-3) }
	FILENAME ~ /w[12].out$/ { written += $(NF-1) }
	END {
		printf "torture: %d s, %d rounds: %d copies (%.0f entries, %.0f slots dropped), " \
		       "%d dumps (%.0f entries, %.0f slots skipped); %.0f events written by 2 writers; " \
		       "entries checked %.0f, torn %d, out of order %d\n", seconds, rounds, copies, kept,
		       dropped, dumps, rows, skipped, written, checked + rows, torn, disorder
		exit (torn + disorder > 0)
	}' "$dir/copy.log" "$dir/check.log" "$dir/csv.log" "$dir/dump.err" "$dir/w1.out" "$dir/w2.out"
