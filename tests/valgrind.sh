#!/bin/sh
# valgrind.sh: the CLI commands on the Snabb fixture and on synthetic logs
# under valgrind's memcheck: any invalid read or write, use of uninitialised
# memory or definite leak fails the run. Run by .ci/run; takes a minute.
set -eu
tl=${TIMELINE:-./timeline}
fill=${FILL:-build/bench/fill}
fixtures=${TIMELINE_FIXTURES:-tests/fixtures}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
zstd -qdc "$fixtures/snabb-v3/engine-short.events.timeline.zst" > "$dir/snabb.timeline"
mkdir "$dir/a" "$dir/b"
"$fill" "$dir/a" 2 4096
"$fill" "$dir/b" 2 4096
vg() {
	# a finding (diff's 1) is not an error here; valgrind's own status is 99
	rc=0
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		"$tl" "$@" > /dev/null 2> "$dir/err" || rc=$?
	if [ "$rc" -eq 99 ] || grep -q '^==[0-9]*==' "$dir/err"; then
		echo "valgrind: timeline $*: errors"
		cat "$dir/err"
		exit 1
	fi
	echo "valgrind: timeline $*: clean (exit $rc)"
}
vg info "$dir/snabb.timeline" "$dir/a"
vg dump "$dir/snabb.timeline"
vg dump -f json --time ns "$dir/a"
vg merge -f csv "$dir/a" "$dir/b"
vg stats "$dir/snabb.timeline"
vg stats --per packets --by app,numa --bucket packets=0,1,16,32,64,inf --hist "$dir/a"
vg diff --per packets "$dir/a" "$dir/b"
vg report -o "$dir/r.html" "$dir/a" "$dir/snabb.timeline"
vg report -f json --a "$dir/a" --b "$dir/b"
vg export -f chrome -o "$dir/x.json" "$dir/a" "$dir/snabb.timeline"
vg export -f ctf -o "$dir/ctf" "$dir/a"
vg export -f perfetto -o "$dir/x.pftrace" "$dir/a" "$dir/snabb.timeline"
vg export -f otlp --tsc-hz 2400000000 -o "$dir/x.otlp" "$dir/a" "$dir/snabb.timeline"
vg export -f otlp-json --slowest 5 -o "$dir/x.json" "$dir/a"
vg copy --zstd "$dir/a/fill00.timeline" "$dir/copy.timeline.zst"
vg dump "$dir/copy.timeline.zst"
vg ls -f json "$dir/a" "$dir/snabb.timeline"
vg gc --dry-run "$dir/a"
vg gc --archive "$dir/archive" "$dir/a"
vg dump "$dir/archive/fill00.timeline.zst"
