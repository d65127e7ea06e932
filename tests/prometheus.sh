#!/bin/sh
# prometheus.sh: `timeline stats --format openmetrics --interval` against the
# real programs: node_exporter's textfile collector serves the file it
# rewrites, Prometheus scrapes node_exporter, both started here on free
# loopback ports and stopped here; then, through Prometheus's HTTP API,
# histogram_quantile() of each app's buckets must agree with `timeline
# stats` within the documented error (each bucket's upper edge is at most
# 1.1908 times its lower: 19.08%, plus the 0.39% of stats' own percentiles),
# and the counters must be exact. Bounded: 90 s at most. Run by `make
# check-integration` and CI. Needs prometheus, prometheus-node-exporter,
# python3 and curl.
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
mkdir -p "$work/logs" "$work/textfile" "$work/data"
for s in 1 2 3 4; do
	"$engine" --dir "$work/logs" --breaths 3000 --rate all --entries 65536 --seed "$s" >/dev/null
done

# two free loopback ports
set -- $(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
exporter=$1 server=$2

"$tl" stats -f openmetrics --per packets --by app --interval 1 -o "$work/textfile/timeline.prom" \
	"$work/logs" 2>"$work/stats.log" &
pids="$pids $!"
prometheus-node-exporter --web.listen-address="127.0.0.1:$exporter" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$work/textfile" >"$work/exporter.log" 2>&1 &
pids="$pids $!"
cat > "$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: timeline
    static_configs:
      - targets: ['127.0.0.1:$exporter']
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

# until Prometheus has scraped the file: at most 60 s
for i in $(seq 1 60); do
	[ -n "$(query 'timeline_cycles_per_packet_count{app="lookup"}')" ] && break
	[ "$i" = 60 ] && fail "no timeline metrics in Prometheus after 60 s"
	sleep 1
done

# each app's p50, p90 and p99 from stats, against histogram_quantile
"$tl" stats --per packets --by app -f json "$work/logs" > "$work/stats.json"
checked=0
for app in checksum lookup rewrite sink source; do
	for q in 0.5 0.9 0.99; do
		want=$(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("table") == "per" and r["app"] == sys.argv[2]:
        print(r["p" + str(round(float(sys.argv[3]) * 100))])' "$work/stats.json" "$app" "$q")
		got=$(query "histogram_quantile($q, timeline_cycles_per_packet_bucket{app=\"$app\"})")
		python3 -c 'import sys
want, got = float(sys.argv[1]), float(sys.argv[2])
err = abs(got - want) / want
print("%-9s q%-5s stats %-10.4g prometheus %-10.4g error %5.1f%%" % (sys.argv[3], sys.argv[4], want, got, 100 * err))
sys.exit(0 if err <= 0.1908 + 0.0039 else 1)' "$want" "$got" "$app" "$q" ||
			fail "$app q$q: histogram_quantile $got is beyond the documented error of $want"
		checked=$((checked + 1))
	done
done

# the counters, exactly: breaths and packets of the four logs
want=$("$tl" stats -f openmetrics "$work/logs" | awk '/^timeline_breaths_total/ { s += $2 } END { print s }')
got=$(query 'sum(timeline_breaths_total)')
[ "$got" = "$want" ] || fail "sum(timeline_breaths_total) is $got, the file says $want"
echo "prometheus.sh: $checked quantiles within 19.5% of stats, sum(timeline_breaths_total) = $got: ok"
