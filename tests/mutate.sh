#!/bin/sh
# mutate.sh: mutation testing. Applies each mutation of tests/mutations.txt
# in turn, alone, to a copy of the tracked files, builds it and runs the
# Check suites the mutation names; a mutation is killed when a suite fails,
# survived when they all pass. Prints each result and the score; exits 1
# when a mutation's line is no longer in its file (or is there more than
# once: stale) or the mutant does not compile (unbuildable: a compiler's
# catch, not the tests'), neither counted in the score; when the unmutated
# copy fails; or when the score is below MUTATE_MIN percent (default 95).
#
# How it is quick (tests/README.md, "Mutation testing"): the copy is made
# and built once per worker, and each mutation rebuilds only what its file
# feeds; the suites stop at their first failure (TL_FAIL_FAST: the tests
# after it fail at once as "not run"); and MUTATE_JOBS workers, each with
# its own copy, take the mutations in turn, a mutation at a time each.
#
# usage: sh tests/mutate.sh [ID...]     (`make mutate`; IDs: only those)
#   MUTATE_SUITES=all    run the whole suite for every mutation, not the
#                        suites each one names (slower: about 3 min each)
#   MUTATE_TABLE=FILE    also write the results as a Markdown table to FILE
#   MUTATE_KEEP=1        keep the work directory (its path is printed)
#   MUTATE_LIST=FILE     another list than tests/mutations.txt
#   MUTATE_JOBS=N        workers (default: the CPUs this process may use)
#   MUTATE_CHECK=1       only check that every block's line is there, once
#                        (no build, no suites: seconds; CI runs it)
set -u
unset MAKEFLAGS MFLAGS MAKELEVEL
src=$(cd "$(dirname "$0")/.." && pwd)
list=${MUTATE_LIST:-$src/tests/mutations.txt}
min=${MUTATE_MIN:-95}
cpus=$(nproc 2>/dev/null || echo 2)
jobs=${MUTATE_JOBS:-$cpus}
case $jobs in '' | *[!0-9]* | 0) echo "mutate: MUTATE_JOBS must be a number from 1" >&2; exit 2 ;; esac
# each worker's builds take their share of the CPUs
make_jobs=$((cpus / jobs))
[ "$make_jobs" -ge 1 ] || make_jobs=1
[ -r "$list" ] || { echo "mutate: cannot read $list" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/tl-mutate.XXXXXX") || exit 2
workers=
stop_workers() {
	for p in $workers; do
		kill "$p" 2>/dev/null
	done
}
if [ "${MUTATE_KEEP:-}" = 1 ]; then
	echo "mutate: work directory $work"
	trap 'stop_workers; exit 130' INT TERM
else
	trap 'rm -rf "$work"' EXIT
	trap 'stop_workers; wait; rm -rf "$work"; exit 130' INT TERM
fi
start=$(date +%s)

# The tracked files as they are now (edits included), else the tree without build/.
tree0=$work/tree0
mkdir -p "$tree0" "$work/claim" "$work/res"
# Tests that drop to another user (uid 65534 in `create`) need to pass
# through the directories above their TMPDIR: searchable, not listable.
chmod 0711 "$work"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$tree0" || exit 2
else
	(cd "$src" && tar --exclude=./build --exclude='./lib/libtimeline.*' --exclude=./timeline -cf - .) |
		tar -xf - -C "$tree0" || exit 2
fi

# The mutations: blocks of "key: value" lines, blank lines between, #
# comments; block N's fields each in a file $work/b/N/KEY ("" when absent).
mkdir -p "$work/b"
grep -v '^#' "$list" | awk -v dir="$work/b" 'BEGIN { RS = ""; FS = "\n" }
	/(^|\n)id:/ {
		n++
		system("mkdir -p " dir "/" n)
		split("id file old new after suites bug", keys, " ")
		for (k = 1; k <= 7; k++) {
			v = ""
			for (j = 1; j <= NF; j++)
				if ($j == keys[k] ":" || index($j, keys[k] ": ") == 1) {
					v = substr($j, length(keys[k]) + 3)
					break
				}
			printf "%s\n", v > (dir "/" n "/" keys[k])
			close(dir "/" n "/" keys[k])
		}
	}
	END { print n + 0 > (dir "/count") }'
count=$(cat "$work/b/count")
# a block run into the one before it (no blank line between) would be
# lost in it, unseen
if [ "$(grep -c '^id:' "$list")" != "$count" ]; then
	echo "mutate: $list: $(grep -c '^id:' "$list") ids in $count blocks: a blank line is missing between two blocks" >&2
	exit 2
fi
# field N KEY: the value of KEY in mutation N ("" when absent)
field() {
	cat "$work/b/$1/$2"
}

# Applies OLD -> NEW (environment) to FILE: 0 done, 3 no such line, 4 more
# than one. With AFTER set, OLD is the first match after the line AFTER,
# which must occur exactly once (a line that a file has twice, as the two
# paths of asm/append.S do, is named by the unique line before it).
apply() {
	awk 'function norm(s) { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
		BEGIN { o = norm(ENVIRON["OLD"]); n = ENVIRON["NEW"]; a = norm(ENVIRON["AFTER"]) }
		{ line[NR] = $0; l = norm($0) }
		a != "" {
			if (l == a) anchors++
			else if (anchors == 1 && !at && l == o) at = NR
			next
		}
		l == o { c++; at = NR }
		END {
			if (a != "" && anchors != 1) exit(anchors ? 4 : 3)
			if (a != "") c = at ? 1 : 0
			if (c != 1) exit(c ? 4 : 3)
			for (i = 1; i <= NR; i++) {
				if (i != at) { print line[i]; continue }
				match(line[i], /^[ \t]*/)
				if (n != "") print substr(line[i], 1, RLENGTH) n
			}
		}' "$1" > "$1.mutant" || { s=$?; rm -f "$1.mutant"; return $s; }
	mv "$1.mutant" "$1"
}

# MUTATE_CHECK=1: no build and no suites, only whether each block's line
# is in its file once (else STALE) and each id is used once; CI runs it.
if [ "${MUTATE_CHECK:-}" = 1 ]; then
	bad=0
	n=1
	while [ "$n" -le "$count" ]; do
		id=$(field "$n" id)
		file=$(field "$n" file)
		OLD=$(field "$n" old) NEW=$(field "$n" new) AFTER=$(field "$n" after)
		export OLD NEW AFTER
		rc=3
		if [ -f "$tree0/$file" ]; then
			cp "$tree0/$file" "$work/check"
			apply "$work/check"
			rc=$?
		fi
		case $rc in
		0) ;;
		4) echo "STALE    $id $file: the line is there more than once: $OLD"; bad=$((bad + 1)) ;;
		*) echo "STALE    $id $file: the line is no longer there: $OLD"; bad=$((bad + 1)) ;;
		esac
		n=$((n + 1))
	done
	for id in $(cat "$work"/b/*/id | sort | uniq -d); do
		echo "TWICE    $id: two blocks have this id"
		bad=$((bad + 1))
	done
	echo "mutate: $count mutations in $list checked: $bad stale or twice"
	[ "$bad" -eq 0 ]
	exit
fi

# build TREE: what the suites run; the log in $log
build() {
	make -C "$1" -s -j"$make_jobs" build/tests/check_timeline timeline build/examples/engine/engine \
		> "$log" 2>&1
}

# Runs the suites SPEC ("all", or words SUITE or SUITE:TCASE) in $tree; 0
# when all pass. FAILED gets the first that failed and the first failure it
# printed. A suite that fails only by a test's timeout is run once more: a
# loaded machine can time out a test the mutant never reached, so such a
# kill counts only when the second run fails too (RERUN then says so).
run_suites() {
	rerun=
	run_suites_once "$1" && return 0
	grep -q 'Test timeout expired' "$log" || return 1
	run_suites_once "$1" && { rerun="timed out, passed when rerun"; return 0; }
	rerun="timed out, failed again when rerun"
	failed="$failed ($rerun)"
	return 1
}

# The suites stop at their first failure other than a timeout
# (TL_FAIL_FAST, tests/util.h): the answer is known then. TL_MUTATED names
# the file mutated (the Python suite runs that module's tests first).
run_suites_once() {
	failed= killer=
	for s in $1; do
		case $s in
		all) set -- ;;
		*:*) set -- CK_RUN_SUITE="${s%%:*}" CK_RUN_CASE="${s#*:}" ;;
		*) set -- CK_RUN_SUITE="$s" ;;
		esac
		rm -f "$tap"
		# TMPDIR: what a failed test leaves behind goes with the work directory
		if ! env TMPDIR="$tmp" TL_FAIL_FAST=1 TL_MUTATED="${file:-}" CK_TAP_LOG_FILE_NAME="$tap" \
			"$@" ${TIMEOUT:-} make -C "$tree" -s check > "$log" 2>&1; then
			failed="$s: $( (grep -m1 -E ':[EF]:' "$log" || tail -n 1 "$log") | sed "s|$tree/||" |
				cut -c1-160)"
			# the test that failed first: FILE:LINE:F:TCASE:TEST:...
			killer=$(grep -m1 -E ':[EF]:' "$log" | cut -d: -f5)
			return 1
		fi
	done
	return 0
}
command -v timeout >/dev/null && TIMEOUT="timeout 1200"

# cell TEXT: TEXT fit for a cell of a Markdown table (a | would end the cell)
cell() {
	printf '%s' "$1" | sed 's/|/\\|/g'
}

# Worker W's copy, log, TAP log and TMPDIR
use_worker() {
	tree=$work/tree$1
	log=$work/log$1
	tap=$work/tap$1
	tmp=$work/tmp$1
}

# Mutation N in worker W's copy: applied, built, its suites run, the line
# put back; the result into $work/res/N ("result|seconds|how|killer|rerun"),
# and its line printed.
mutate_one() {
	n=$1
	id=$(field "$n" id)
	file=$(field "$n" file)
	suites=${MUTATE_SUITES:-$(field "$n" suites)}
	OLD=$(field "$n" old) NEW=$(field "$n" new) AFTER=$(field "$n" after)
	export OLD NEW AFTER
	t0=$(date +%s)
	if [ ! -f "$tree/$file" ]; then
		rc=3
	else
		cp -p "$tree/$file" "$tmp.original"
		apply "$tree/$file"
		rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		case $rc in
		4) why="the line is there more than once" ;;
		3) why="the line is no longer there" ;;
		*) why="cannot apply it (awk failed)" ;;
		esac
		[ -f "$tree/$file" ] || why="the file is no longer there"
		printf '%-8s %-24s %s: %s: %s\n' STALE "$id" "$file" "$why" "$OLD"
		printf 'stale|0|%s||\n' "$why" > "$work/res/$n"
		return
	fi
	killer= rerun=
	if ! build "$tree"; then
		result=unbuildable how="$(grep -m1 -E 'error' "$log" | sed "s|$tree/||" | cut -c1-160)"
	elif ! run_suites "$suites"; then
		result=killed how=$failed
	else
		result=survived how="(${rerun:+$rerun; }$suites passed)"
	fi
	# back as it was, and newer than the mutant's objects, so that make rebuilds them
	cp "$tmp.original" "$tree/$file"
	touch "$tree/$file"
	secs=$(($(date +%s) - t0))
	printf '%-8s %-24s %-22s %4ss  %s\n' "$result" "$id" "$file" "$secs" "$how"
	printf '%s|%s|%s|%s|%s\n' "$result" "$secs" "$how" "$killer" "$rerun" > "$work/res/$n"
}

# Is mutation N among those asked for?
wanted() {
	[ -z "$only" ] || case $only in *" $(field "$1" id) "*) true ;; *) false ;; esac
}

# Worker W: takes the next mutation no worker has taken (mkdir is atomic)
# until none is left.
worker() {
	use_worker "$1"
	i=1
	while [ "$i" -le "$count" ]; do
		if wanted "$i" && mkdir "$work/claim/$i" 2>/dev/null; then
			mutate_one "$i"
		fi
		i=$((i + 1))
	done
}

[ "$#" -gt 0 ] && only=" $* " || only=
specs=
asked=0
i=1
while [ "$i" -le "$count" ]; do
	if wanted "$i"; then
		specs="$specs ${MUTATE_SUITES:-$(field "$i" suites)}"
		asked=$((asked + 1))
	fi
	i=$((i + 1))
done
# the union of the suites, each once, "all" alone if named
specs=$(printf '%s\n' $specs | awk '!seen[$0]++' | tr '\n' ' ')
case " $specs " in *" all "*) specs=all ;; esac
# no more workers than mutations
[ "$jobs" -le "$asked" ] || jobs=$asked
[ "$jobs" -ge 1 ] || jobs=1

echo "mutate: $count mutations in ${list#$src/}; building the unmutated copy ($jobs workers)"
use_worker 0
if ! build "$tree0"; then
	cat "$log"
	echo "mutate: the unmutated tree does not build" >&2
	exit 1
fi
w=0
while [ "$w" -lt "$jobs" ]; do
	[ "$w" -eq 0 ] || cp -a "$tree0" "$work/tree$w" || exit 2
	mkdir -p "$work/tmp$w"
	chmod 0711 "$work/tmp$w"
	w=$((w + 1))
done

# The unmutated copy runs the union of the suites, shared among the
# workers (all: the whole suite, in one).
echo "mutate: running the suites on the unmutated copy: $specs"
set -- $specs
w=0
while [ "$w" -lt "$jobs" ]; do
	share=
	k=0
	for s; do
		[ $((k % jobs)) -eq "$w" ] && share="$share $s"
		k=$((k + 1))
	done
	if [ -n "$share" ]; then
		(use_worker "$w"; run_suites "$share" || {
			tail -n 30 "$log"
			echo "$failed" > "$work/unmutated-failed"
		}) &
		workers="$workers $!"
	fi
	w=$((w + 1))
done
wait
workers=
if [ -f "$work/unmutated-failed" ]; then
	echo "mutate: the unmutated tree fails ($(cat "$work/unmutated-failed")): fix that first" >&2
	exit 1
fi

w=0
while [ "$w" -lt "$jobs" ]; do
	worker "$w" &
	workers="$workers $!"
	w=$((w + 1))
done
wait
workers=

killed=0 survived=0 stale=0 total=0
survivors= stales=
table="| id | file | the bug | result | killed by |
|---|---|---|---|---|"
i=1
while [ "$i" -le "$count" ]; do
	if ! wanted "$i"; then
		i=$((i + 1))
		continue
	fi
	id=$(field "$i" id)
	total=$((total + 1))
	IFS='|' read -r result secs how killer rerun < "$work/res/$i"
	case $result in
	killed) killed=$((killed + 1)) ;;
	survived) survived=$((survived + 1)) survivors="$survivors $id" ;;
	*) stale=$((stale + 1)) stales="$stales $id" ;;
	esac
	if [ "$result" = stale ]; then
		table="$table
| $id | \`$(field "$i" file)\` | $(cell "$(field "$i" bug)") | stale: $how | |"
	else
		table="$table
| $id | \`$(field "$i" file)\` | $(cell "$(field "$i" bug)") | $result${rerun:+ ($rerun)} | ${killer:+\`$killer\`} |"
	fi
	i=$((i + 1))
done

applied=$((killed + survived))
score=$([ "$applied" -gt 0 ] && echo $((100 * killed / applied)) || echo 0)
echo
echo "mutate: $killed of $applied killed ($score%), $survived survived${survivors:+:$survivors}"
[ "$stale" -gt 0 ] && echo "mutate: $stale stale or unbuildable, not counted (fix ${list#$src/}):$stales"
echo "mutate: $(($(date +%s) - start)) s in all, $jobs workers, suites run: $([ -n "${MUTATE_SUITES:-}" ] && echo "$MUTATE_SUITES" || echo "each mutation's own")"
[ -n "${MUTATE_TABLE:-}" ] && printf '%s\n' "$table" > "$MUTATE_TABLE"
[ "$stale" -eq 0 ] && [ "$score" -ge "$min" ]
