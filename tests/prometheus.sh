#!/bin/sh
# prometheus.sh: `timeline stats --format openmetrics --interval` and
# `timeline top -b --format openmetrics` against the real programs:
# node_exporter's textfile collector serves the file each rewrites (one
# node_exporter each, job "timeline" and job "top"), Prometheus scrapes
# them, all started here on free loopback ports and stopped here; then,
# through Prometheus's HTTP API, histogram_quantile() of each app's buckets
# must agree with `timeline stats` over the same logs within the documented
# error (each bucket's upper edge is at most 1.1908 times its lower:
# 19.08%, plus the 0.39% of stats' own percentiles), and the counters must
# be exact. Bounded: 90 s at most. Run by `make check-integration` and CI.
# Needs prometheus, prometheus-node-exporter, python3 and curl.
set -eu
tl=${TIMELINE:-./timeline}
engine=${ENGINE:-build/examples/engine/engine}
work=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null || true
	done
	for p in $pids; do
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail() {
	echo "prometheus.sh: FAIL: $*"
	for f in "$work"/*.log; do
		echo "--- $f"
		tail -n 5 "$f"
	done
	exit 1
}
for p in prometheus prometheus-node-exporter python3 curl; do
	command -v "$p" >/dev/null || fail "$p is not installed (sh scripts/install-deps)"
done

# four runs of the demo engine
mkdir -p "$work/logs" "$work/live" "$work/textfile" "$work/toptext" "$work/data"
for s in 1 2 3 4; do
	"$engine" --dir "$work/logs" --breaths 3000 --rate all --entries 65536 --seed "$s" >/dev/null
done

# top following a paced engine from its first entry; its window (60 s)
# holds the whole log when top ends, and the file stays as the last
# refresh wrote it. No guessed sleeps: the engine starts once top's first
# refresh is written (top has looked at the directory, so it follows the
# log from its first entry), and top is stopped after two more refreshes
# once the engine has ended (the first may have begun before; the second
# read all it wrote). Each refresh replaces the file: a new inode.
prom="$work/toptext/timeline.prom"
inode() { stat -c %i "$prom" 2>/dev/null || echo 0; }
# replaced WAS: waits (30 s at most) until the file is there, not inode WAS
replaced() {
	for i in $(seq 1 300); do
		now=$(inode)
		[ "$now" != 0 ] && [ "$now" != "$1" ] && return 0
		sleep 0.1
	done
	fail "top did not write $prom again in 30 s"
}
"$tl" top -b -f openmetrics -d 0.5 -w 60 -o "$prom" "$work/live" 2>"$work/top.log" &
top=$!
pids="$pids $top"
replaced 0
"$engine" --dir "$work/live" --seconds 1 --pace 20000 --rate all >/dev/null
replaced "$(inode)"
replaced "$now"
kill -TERM "$top"
wait "$top" || fail "top -b -f openmetrics exited $?"

# three free loopback ports
set -- $(python3 -c 'import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
exporter=$1 server=$2 topexporter=$3

"$tl" stats -f openmetrics --per packets --by app --interval 1 -o "$work/textfile/timeline.prom" \
	"$work/logs" 2>"$work/stats.log" &
pids="$pids $!"
prometheus-node-exporter --web.listen-address="127.0.0.1:$exporter" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$work/textfile" >"$work/exporter.log" 2>&1 &
pids="$pids $!"
prometheus-node-exporter --web.listen-address="127.0.0.1:$topexporter" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$work/toptext" >"$work/topexporter.log" 2>&1 &
pids="$pids $!"
cat > "$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: timeline
    static_configs:
      - targets: ['127.0.0.1:$exporter']
  - job_name: top
    static_configs:
      - targets: ['127.0.0.1:$topexporter']
EOF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
	--web.listen-address="127.0.0.1:$server" >"$work/prometheus.log" 2>&1 &
pids="$pids $!"

# query EXPR: the value of the first series of an instant query, or nothing
query() {
	curl -s --max-time 5 "http://127.0.0.1:$server/api/v1/query" --data-urlencode "query=$1" |
		python3 -c 'import json, sys
r = json.loads(sys.stdin.read())["data"]["result"]
print(r[0]["value"][1] if r else "")' 2>/dev/null || true
}

# until Prometheus has scraped both files: at most 60 s
for i in $(seq 1 60); do
	[ -n "$(query 'timeline_cycles_per_packet_count{job="timeline",app="lookup"}')" ] &&
		[ -n "$(query 'timeline_cycles_per_packet_count{job="top",app="lookup"}')" ] && break
	[ "$i" = 60 ] && fail "no timeline metrics of both jobs in Prometheus after 60 s"
	sleep 1
done

# quantiles JOB LOGS: each app's p50, p90 and p99 from stats over LOGS,
# against histogram_quantile of JOB's buckets (top's summed over process)
checked=0
quantiles() {
	"$tl" stats --per packets --by app -f json "$2" > "$work/stats-$1.json"
	for app in checksum lookup rewrite sink source; do
		for q in 0.5 0.9 0.99; do
			want=$(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("table") == "per" and r["app"] == sys.argv[2]:
        print(r["p" + str(round(float(sys.argv[3]) * 100))])' "$work/stats-$1.json" "$app" "$q")
			got=$(query "histogram_quantile($q, sum by (le) (timeline_cycles_per_packet_bucket{job=\"$1\",app=\"$app\"}))")
			python3 -c 'import sys
want, got = float(sys.argv[1]), float(sys.argv[2])
err = abs(got - want) / want
print("%-8s %-9s q%-5s stats %-10.4g prometheus %-10.4g error %5.1f%%" % (sys.argv[5], sys.argv[3], sys.argv[4], want, got, 100 * err))
sys.exit(0 if err <= 0.1908 + 0.0039 else 1)' "$want" "$got" "$app" "$q" "$1" ||
				fail "$1 $app q$q: histogram_quantile $got is beyond the documented error of $want"
			checked=$((checked + 1))
		done
	done
}
quantiles timeline "$work/logs"
quantiles top "$work/live"

# the counters, exactly: breaths of the four logs, and of the log top followed
want=$("$tl" stats -f openmetrics "$work/logs" | awk '/^timeline_breaths_total/ { s += $2 } END { print s }')
got=$(query 'sum(timeline_breaths_total{job="timeline"})')
[ "$got" = "$want" ] || fail "sum(timeline_breaths_total) is $got, the file says $want"
want=$("$tl" stats -f openmetrics "$work/live" | awk '/^timeline_breaths_total/ { s += $2 } END { print s }')
gottop=$(query 'sum(timeline_breaths_total{job="top"})')
[ "$gottop" = "$want" ] || fail "top: sum(timeline_breaths_total) is $gottop, stats says $want"
echo "prometheus.sh: $checked quantiles within 19.5% of stats, sum(timeline_breaths_total) = $got (stats), $gottop (top): ok"
