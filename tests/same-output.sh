#!/bin/sh
# same-output.sh: every subcommand of timeline run on one fixed set of
# inputs, in each of its formats, its standard output, standard error, exit
# status and the files it writes kept in a directory, so that the outputs of
# two builds compare byte for byte: a change that should not change what the
# program does (a move of files, a rename) is checked by running this on the
# tree before and after it.
#
# usage: sh tests/same-output.sh inputs DIR
#            makes the inputs in DIR with this tree's build (`make` first):
#            logs of the demo engine (fixed --seed and --breaths), logs of
#            bench/fill (manual clock), the Snabb fixture plain and as zstd,
#            a zstd copy, summaries, an events file, a file that is no log
#        sh tests/same-output.sh run TIMELINE INPUTS OUT
#            runs the program TIMELINE on a copy of INPUTS, writing OUT
#        sh tests/same-output.sh compare OUT1 OUT2
#            diff -r of two OUTs: exits 0 when they are byte-identical
#
# Make the inputs once and run both builds on them: the logs hold pids,
# host names, paths and clock readings, which differ between two makings.
# What varies between two runs of one build on the same inputs is masked
# in OUT (the masks are listed in OUT/MASKED and below, at mask()).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "same-output: $*" >&2; exit 2; }

make_inputs() {
	dir=$1
	engine=${ENGINE:-$here/build/examples/engine/engine}
	fill=${FILL:-$here/build/bench/fill}
	tl=${TIMELINE:-$here/timeline}
	for p in "$engine" "$fill" "$tl"; do [ -x "$p" ] || die "$p: not built (run make)"; done
	rm -rf "$dir" && mkdir -p "$dir/a" "$dir/b" "$dir/fill" "$dir/sum" || exit 2
	chmod 700 "$dir" "$dir/a" "$dir/b" "$dir/fill"
	# four normal runs against four with lookup 40% slower, every event logged
	for s in 1 2 3 4; do
		"$engine" --breaths 3000 --seed "$s" --rate all --entries 65536 --dir "$dir/a" \
			--name run$s >/dev/null || exit 2
		"$engine" --breaths 3000 --seed "$s" --rate all --entries 65536 --dir "$dir/b" \
			--name run$s --slow lookup=40 >/dev/null || exit 2
	done
	# a small ring that wraps, at the default (auto) rate
	"$engine" --breaths 2000 --seed 9 --entries 4096 --workload bursty --dir "$dir" \
		--name wrapped >/dev/null || exit 2
	# manual clock: every timestamp and cpu/node word fixed by the program
	"$fill" "$dir/fill" 2 8192 >/dev/null || exit 2
	cp "$here/tests/fixtures/snabb-v3/engine-short.events.timeline.zst" "$dir/snabb.zst"
	zstd -q -d -o "$dir/snabb.timeline" "$dir/snabb.zst" || exit 2
	one=$(ls "$dir"/a/*.timeline | head -n 1)
	cp "$one" "$dir/one.timeline"
	"$tl" copy --zstd "$one" "$dir/one.zst" >/dev/null || exit 2
	"$tl" stats --per packets --save "$dir/sum/a.sum" "$dir/a" >/dev/null || exit 2
	"$tl" stats --save "$dir/sum/lags.sum" "$dir/b" >/dev/null || exit 2
	cp "$here/events/engine.events" "$here/events/app.events" "$dir/"
	printf 'not a log, only text\n' > "$dir/text.txt"
	head -c 1000 "$one" > "$dir/cut.timeline"
	echo "same-output: inputs in $dir:"
	(cd "$dir" && find . -type f | sort)
}

# c NAME CMD...: runs CMD in the work directory; keeps its stdout, stderr and
# exit status as OUT/NAME.{out,err,rc}
c() {
	name=$1
	shift
	(cd "$work" && "$@") > "$out/$name.out" 2> "$out/$name.err"
	echo $? > "$out/$name.rc"
}

run() {
	tl=$1 inputs=$2 out=$3
	case $tl in /*) ;; *) tl=$(pwd)/$tl ;; esac
	[ -x "$tl" ] || die "$tl: no such program"
	[ -d "$inputs" ] || die "$inputs: no inputs (sh $0 inputs DIR)"
	rm -rf "$out" && mkdir -p "$out" || exit 2
	out=$(cd "$out" && pwd) inputs=$(cd "$inputs" && pwd)
	work=$out/work
	mkdir -p "$work/o" && cp -a "$inputs" "$work/in" || exit 2
	T=$tl
	cd "$work" || exit 2   # the inputs' globs, and every path printed, relative to it
	export TZ=UTC LC_ALL=C TIMELINE_ROOT="$work/root"
	one=in/one.timeline logs="in/a in/b in/wrapped-*.timeline in/fill"
	every="$one in/wrapped-*.timeline in/fill/fill00.timeline in/snabb.timeline in/snabb.zst in/one.zst"

	# the program, its help, and bad usage
	c noargs "$T"
	c help "$T" help
	c help-opt "$T" --help
	c version "$T" version
	c version-opt "$T" --version
	c unknown "$T" frobnicate
	for cmd in copy diff dump export gc gen info ls merge rate report stats top help version; do
		c "help-$cmd" "$T" "$cmd" --help
		c "helpcmd-$cmd" "$T" help "$cmd"
		c "badopt-$cmd" "$T" "$cmd" --no-such-option
	done

	# gen
	for e in engine app; do
		c "gen-$e" "$T" gen "in/$e.events"
		c "gen-$e-prefix" "$T" gen --prefix my_$e -o "o/gen-$e.h" "in/$e.events"
	done
	c gen-missing "$T" gen in/missing.events
	c gen-notevents "$T" gen in/text.txt

	# dump and merge: each format, each time unit, the filters
	for f in text csv json; do
		for i in $every; do
			c "dump-$f-$(basename "$i")" sh -c "\"\$0\" dump -f $f $i | head -n 3000" "$T"
		done
		c "merge-$f" sh -c "\"\$0\" merge -f $f in/a | head -n 5000" "$T"
		c "merge-$f-snabb" sh -c "\"\$0\" merge -f $f in/snabb.zst in/fill | head -n 3000" "$T"
	done
	for t in cycles ns wall; do
		c "dump-time-$t" "$T" dump -t "$t" --limit 500 "$one"
		c "merge-time-$t" "$T" merge -t "$t" --limit 500 in/a in/b
		c "dump-time-$t-snabb" "$T" dump -t "$t" --limit 200 in/snabb.zst
	done
	c dump-filters "$T" dump -e 'app.*' --app lookup --cpu 0-63 --numa 0 --limit 300 "$one"
	c dump-window "$T" dump --from 1ms --to 2ms "$one"
	c dump-last "$T" dump --last 100us -f csv "$one"
	c dump-from-cycles "$T" dump --from 100000 --to 200000 in/fill/fill01.timeline
	c dump-dir sh -c "\"\$0\" dump in/fill | tail -n 100" "$T"
	c merge-window "$T" merge --from 1ms --to 1.2ms -f json in/a
	c merge-event "$T" merge -e 'engine.breath_*' --limit 400 in/a in/fill
	c dump-bad "$T" dump in/text.txt in/cut.timeline in/missing "$one" --limit 3
	c merge-bad "$T" merge in/cut.timeline in/fill --limit 3
	c dump-badtime "$T" dump --from yesterday "$one"
	c dump-badlimit "$T" dump --limit x "$one"

	# info and ls
	for f in text json; do
		c "info-$f" "$T" info -f "$f" $every in/a in/sum/a.sum
		c "info-$f-bad" "$T" info -f "$f" in/text.txt in/cut.timeline "$one"
		c "ls-$f" "$T" ls -f "$f" in
	done

	# copy: plain, zstd, windows and filters; the copies are read back
	c copy-plain "$T" copy "$one" o/copy.timeline
	c copy-zstd "$T" copy --zstd=5 in/wrapped-*.timeline o/copy.zst
	c copy-last "$T" copy --last 500us "$one" o/copy-last.timeline
	c copy-filter "$T" copy -e 'app.*' --app checksum --from 1ms "$one" o/copy-filter.timeline
	c copy-snabb "$T" copy --to 1000000 in/snabb.zst o/copy-snabb.timeline
	c copy-dir "$T" copy in/a in/fill o/copies
	c copy-bad "$T" copy in/text.txt o/copy-bad
	for f in copy.timeline copy.zst copy-last.timeline copy-filter.timeline copy-snabb.timeline; do
		c "copy-info-$f" "$T" info "o/$f"
		c "copy-dump-$f" sh -c "\"\$0\" dump o/$f | tail -n 50" "$T"
	done

	# rate: shown, set on a copy of a log whose writer has ended
	cp "$one" o/rate.timeline
	c rate-show "$T" rate o/rate.timeline
	for r in 5 all off auto 9; do c "rate-set-$r" "$T" rate o/rate.timeline "$r"; done
	c rate-after "$T" rate o/rate.timeline
	c rate-bad "$T" rate o/rate.timeline 11
	c rate-snabb "$T" rate in/snabb.timeline 3

	# gc of dead writers' logs in a root: dry run, then archived and removed
	mkdir -p gc/100 gc/200 o/archive && chmod 700 gc gc/100 gc/200 o/archive
	cp "$one" gc/100/engine.timeline
	cp in/fill/fill00.timeline gc/200/fill.timeline
	c gc-dry "$T" gc --dry-run gc
	c gc-archive "$T" gc --archive o/archive gc
	c gc-left sh -c 'find gc | sort'
	c gc-bad "$T" gc --older-than soon gc

	# stats: lags and pairs, every grouping, every format; summaries
	for f in text csv json openmetrics; do
		c "stats-$f" "$T" stats -f "$f" in/a
		c "stats-per-$f" "$T" stats -f "$f" --per packets in/a in/b
		c "stats-by-$f" "$T" stats -f "$f" --per packets --by app,cpu,numa,process \
			--bucket packets=0,1,16,32,64,inf in/a
		c "stats-snabb-$f" "$T" stats -f "$f" in/snabb.zst
		c "stats-snabb-per-$f" "$T" stats -f "$f" --per packets in/snabb.timeline
		c "stats-sum-$f" "$T" stats -f "$f" --per packets in/sum/a.sum
		c "stats-fill-$f" "$T" stats -f "$f" --per packets --by event,app in/fill
	done
	c stats-hist "$T" stats --hist --per packets in/a
	c stats-hist-lags "$T" stats --hist in/wrapped-*.timeline in/one.zst
	c stats-breaths "$T" stats -f csv --breaths --per packets in/a
	c stats-overhead "$T" stats -f csv --overhead --per packets in/a
	c stats-group "$T" stats --per packets --by group -g normal=in/a -g slow=in/b
	c stats-byhost "$T" stats --by host,event in/a in/fill
	c stats-pair "$T" stats --pair breath_start=breath_end --by event in/fill
	c stats-window "$T" stats --per packets --from 1ms --to 3ms -e 'app.*' in/a
	c stats-last "$T" stats --last 1ms --app lookup --per packets in/a
	c stats-save "$T" stats --per packets --save o/stats.sum in/b
	c stats-of-saved "$T" stats --per packets -f json o/stats.sum
	c stats-lagsum "$T" stats -f csv in/sum/lags.sum
	c stats-mixed "$T" stats --per packets in/sum/a.sum in/b
	c stats-om-file "$T" stats -f openmetrics -o o/stats.prom in/a
	c stats-bad "$T" stats in/text.txt in/cut.timeline in/a
	c stats-badby "$T" stats --by colour in/a
	c stats-badbucket "$T" stats --per packets --bucket packets=5,1 in/a

	# diff: text, csv, json, the run options, saved sides
	for f in text csv json; do
		c "diff-$f" "$T" diff -f "$f" --per packets in/a in/b
		c "diff-lags-$f" "$T" diff -f "$f" in/a in/b
		c "diff-same-$f" "$T" diff -f "$f" --per packets in/a in/a
	done
	c diff-ab "$T" diff --per packets --a in/a --b in/b --threshold 10 --alpha 0.01
	c diff-absolute "$T" diff --per packets --absolute --by app in/a in/b
	c diff-runsdir "$T" diff --per packets --runs dir --a in/a --a in/fill --b in/b
	c diff-save "$T" diff --per packets --save-a o/diff-a.sum --save-b o/diff-b.sum in/a in/b
	c diff-of-saved "$T" diff --per packets o/diff-a.sum o/diff-b.sum
	c diff-bucket "$T" diff --per packets --by app --bucket packets=0,16,64,inf in/a in/b
	c diff-bad "$T" diff in/a
	c diff-badalpha "$T" diff --alpha 2 in/a in/b

	# report: the page and its JSON, of logs and of two sides
	c report-html "$T" report -o o/report.html in/a
	c report-json "$T" report -f json -o - in/a
	c report-ab-html "$T" report --a in/a --b in/b -o o/report-ab.html
	c report-ab-json "$T" report -f json --a in/a --b in/b -o -
	c report-snabb "$T" report -o o/report-snabb.html in/snabb.zst
	c report-snabb-json "$T" report -f json -o - in/snabb.zst
	c report-group "$T" report -f json -g normal=in/a -g slow=in/b --bins 50 -o -
	c report-bad "$T" report in/a

	# export: Chrome JSON, CTF, CSV, Perfetto
	c export-chrome "$T" export -f chrome -o o/chrome.json "$one" in/fill
	c export-chrome-snabb "$T" export -f chrome -o - in/snabb.zst
	c export-chrome-pair "$T" export -f chrome --pair breath_start=breath_end -e 'engine.*' \
		-o o/chrome-pair.json in/fill/fill01.timeline
	c export-ctf "$T" export -f ctf -o o/ctf "$one" in/wrapped-*.timeline
	c export-ctf-snabb "$T" export -f ctf -o o/ctf-snabb in/snabb.zst
	c export-csv "$T" export -f csv -o - in/fill "$one"
	c export-csv-window "$T" export -f csv -t ns --from 100000 --to 900000 -o o/window.csv "$one"
	c export-perfetto "$T" export -f perfetto -o o/perfetto.pftrace "$one" in/fill
	c export-perfetto-snabb "$T" export -f perfetto -o - in/snabb.zst
	c export-otlp "$T" export -f otlp -o o/otlp.pb "$one" in/fill
	c export-otlp-json "$T" export -f otlp-json --slowest 3 -o - "$one" in/fill
	c export-bad "$T" export -f svg -o - "$one"

	# top, in batch mode, once, over logs whose writers have ended
	for f in text csv json openmetrics; do
		c "top-$f" "$T" top -b -n 1 -d 0.1 -f "$f" in/a
		c "top-event-$f" "$T" top -b -n 1 -d 0.1 -g event -f "$f" in/fill
	done
	c top-process "$T" top -b -n 1 -d 0.1 -g process in/a in/b
	c top-om-file "$T" top -b -n 1 -d 0.1 -f openmetrics -o o/top.prom in/a
	c top-bad "$T" top -b -n 1 -d 0 in/a

	# what the commands wrote: each file's mode and path
	(cd "$work" && find o gc -printf '%M %p\n' | sort) > "$out/files.list"
	rm -rf "$work/in" "$work/root"
	mask
}

# What two runs of one build on the same inputs print differently, masked
# alike in every OUT (and listed in OUT/MASKED): the time of top's refresh
# (its title, its JSON "time"), the UUID a CTF trace gets at random (in its
# metadata and in each packet header of its streams), and OUT's absolute
# path. Nothing else is masked.
mask() {
	cat > "$out/MASKED" <<-'EOF'
	top: the wall time of each refresh, in the title and in JSON's "time"
	export -f ctf: the trace's random UUID, in metadata and in every packet header
	the absolute path of OUT, as OUT
	EOF
	python3 - "$out" <<-'EOF'
	import os, re, sys, uuid
	out = sys.argv[1]
	for d, _, files in os.walk(out):
	    ids = []
	    if "metadata" in files:
	        text = open(os.path.join(d, "metadata")).read()
	        ids = [uuid.UUID(u).bytes for u in set(re.findall(r'uuid = "([0-9a-f-]{36})"', text))]
	    for f in files:
	        p = os.path.join(d, f)
	        b = open(p, "rb").read()
	        m = b.replace(out.encode(), b"OUT")
	        if f.startswith("top-"):
	            m = re.sub(rb'"time":"[0-9T:.Z-]+"', b'"time":"TIME"', m)
	            m = re.sub(rb'^(timeline top  )[0-9T:Z-]+', rb'\1TIME', m, flags=re.M)
	        if f == "metadata":
	            m = re.sub(rb'uuid = "[0-9a-f-]{36}"', b'uuid = "UUID"', m)
	        elif ids:
	            for u in ids:
	                m = m.replace(u, b"\0" * 16)
	        if m != b:
	            open(p, "wb").write(m)
	EOF
}

compare() {
	if diff -r "$1" "$2" > /dev/null; then
		n=$(find "$1" -type f | wc -l)
		echo "same-output: $1 and $2 are byte-identical ($n files)"
		return 0
	fi
	diff -r "$1" "$2" | head -n 60
	echo "same-output: $1 and $2 differ" >&2
	return 1
}

case ${1:-} in
inputs) [ $# -eq 2 ] || die "usage: $0 inputs DIR"; make_inputs "$2" ;;
run) [ $# -eq 4 ] || die "usage: $0 run TIMELINE INPUTS OUT"; run "$2" "$3" "$4" ;;
compare) [ $# -eq 3 ] || die "usage: $0 compare OUT1 OUT2"; compare "$2" "$3" ;;
*) die "usage: $0 inputs DIR | run TIMELINE INPUTS OUT | compare OUT1 OUT2" ;;
esac
