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
# usage: sh tests/mutate.sh [ID...]     (`make mutate`; IDs: only those)
#   MUTATE_SUITES=all    run the whole suite for every mutation, not the
#                        suites each one names (slower: about 3 min each)
#   MUTATE_TABLE=FILE    also write the results as a Markdown table to FILE
#   MUTATE_KEEP=1        keep the work directory (its path is printed)
#   MUTATE_LIST=FILE     another list than tests/mutations.txt
set -u
unset MAKEFLAGS MFLAGS MAKELEVEL
src=$(cd "$(dirname "$0")/.." && pwd)
list=${MUTATE_LIST:-$src/tests/mutations.txt}
min=${MUTATE_MIN:-95}
jobs=$(nproc 2>/dev/null || echo 2)
[ -r "$list" ] || { echo "mutate: cannot read $list" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/tl-mutate.XXXXXX") || exit 2
tree=$work/tree
log=$work/log
if [ "${MUTATE_KEEP:-}" = 1 ]; then
	echo "mutate: work directory $work"
else
	trap 'rm -rf "$work"' EXIT
	trap 'rm -rf "$work"; exit 130' INT TERM
fi
start=$(date +%s)

# The tracked files as they are now (edits included), else the tree without build/.
mkdir -p "$tree" "$work/tmp"
# Tests that drop to another user (uid 65534 in `create`) need to pass
# through the directories above their TMPDIR: searchable, not listable.
chmod 0711 "$work" "$work/tmp"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$tree" || exit 2
else
	(cd "$src" && tar --exclude=./build --exclude='./lib/libtimeline.*' --exclude=./timeline -cf - .) |
		tar -xf - -C "$tree" || exit 2
fi

# The mutations: blocks of "key: value" lines, blank lines between, # comments.
blocks=$work/blocks
grep -v '^#' "$list" > "$blocks"
count=$(awk 'BEGIN { RS = "" } /(^|\n)id:/ { n++ } END { print n + 0 }' "$blocks")
# field N KEY: the value of KEY in mutation N ("" when absent)
field() {
	awk -v n="$1" -v k="$2" 'BEGIN { RS = ""; FS = "\n" }
		/(^|\n)id:/ && ++i == n {
			for (j = 1; j <= NF; j++)
				if ($j == k ":" || index($j, k ": ") == 1) { print substr($j, length(k) + 3); exit }
		}' "$blocks"
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

build() {
	make -C "$tree" -s -j"$jobs" build/tests/check_timeline timeline build/examples/engine/engine \
		> "$log" 2>&1
}

# Runs the suites SPEC ("all", or words SUITE or SUITE:TCASE); 0 when all pass.
# FAILED gets the first that failed and the first failure it printed.
# A suite that fails only by a test's timeout is run once more: a loaded
# machine can time out a test the mutant never reached, so such a kill
# counts only when the second run fails too (RERUN then says so).
run_suites() {
	rerun=
	run_suites_once "$1" && return 0
	grep -q 'Test timeout expired' "$log" || return 1
	run_suites_once "$1" && { rerun="timed out, passed when rerun"; return 0; }
	rerun="timed out, failed again when rerun"
	failed="$failed ($rerun)"
	return 1
}

run_suites_once() {
	failed= killer=
	for s in $1; do
		case $s in
		all) set -- ;;
		*:*) set -- CK_RUN_SUITE="${s%%:*}" CK_RUN_CASE="${s#*:}" ;;
		*) set -- CK_RUN_SUITE="$s" ;;
		esac
		# TMPDIR: what a failed test leaves behind goes with the work directory
		if ! env TMPDIR="$work/tmp" "$@" ${TIMEOUT:-} make -C "$tree" -s check > "$log" 2>&1; then
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

[ "$#" -gt 0 ] && only=" $* " || only=
specs=
i=1
while [ "$i" -le "$count" ]; do
	id=$(field "$i" id)
	if [ -z "$only" ] || case $only in *" $id "*) true ;; *) false ;; esac; then
		specs="$specs ${MUTATE_SUITES:-$(field "$i" suites)}"
	fi
	i=$((i + 1))
done
# the union of the suites, each once, "all" alone if named
specs=$(printf '%s\n' $specs | awk '!seen[$0]++' | tr '\n' ' ')
case " $specs " in *" all "*) specs=all ;; esac

echo "mutate: $count mutations in ${list#$src/}; building the unmutated copy"
if ! build; then
	cat "$log"
	echo "mutate: the unmutated tree does not build" >&2
	exit 1
fi
echo "mutate: running the suites on the unmutated copy: $specs"
if ! run_suites "$specs"; then
	tail -n 30 "$log"
	echo "mutate: the unmutated tree fails ($failed): fix that first" >&2
	exit 1
fi

killed=0 survived=0 stale=0 total=0
survivors= stales=
table="| id | file | the bug | result | killed by |
|---|---|---|---|---|"
i=1
while [ "$i" -le "$count" ]; do
	id=$(field "$i" id)
	if [ -n "$only" ] && case $only in *" $id "*) false ;; *) true ;; esac; then
		i=$((i + 1))
		continue
	fi
	file=$(field "$i" file)
	bug=$(field "$i" bug)
	suites=${MUTATE_SUITES:-$(field "$i" suites)}
	OLD=$(field "$i" old) NEW=$(field "$i" new) AFTER=$(field "$i" after)
	export OLD NEW AFTER
	total=$((total + 1))
	t0=$(date +%s)
	if [ ! -f "$tree/$file" ]; then
		rc=3
	else
		cp -p "$tree/$file" "$work/original"
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
		stale=$((stale + 1))
		stales="$stales $id"
		table="$table
| $id | \`$file\` | $(cell "$bug") | stale: $why | |"
		i=$((i + 1))
		continue
	fi
	killer=
	if ! build; then
		result=unbuildable how="$(grep -m1 -E 'error' "$log" | sed "s|$tree/||" | cut -c1-160)"
	elif ! run_suites "$suites"; then
		result=killed how=$failed
	else
		result=survived how="(${rerun:+$rerun; }$suites passed)"
	fi
	# back as it was, and newer than the mutant's objects, so that make rebuilds them
	cp "$work/original" "$tree/$file"
	touch "$tree/$file"
	case $result in
	killed) killed=$((killed + 1)) ;;
	survived) survived=$((survived + 1)) survivors="$survivors $id" ;;
	*) stale=$((stale + 1)) stales="$stales $id" ;;
	esac
	printf '%-8s %-24s %-22s %4ss  %s\n' "$result" "$id" "$file" "$(($(date +%s) - t0))" "$how"
	table="$table
| $id | \`$file\` | $(cell "$bug") | $result${rerun:+ ($rerun)} | ${killer:+\`$killer\`} |"
	i=$((i + 1))
done

applied=$((killed + survived))
score=$([ "$applied" -gt 0 ] && echo $((100 * killed / applied)) || echo 0)
echo
echo "mutate: $killed of $applied killed ($score%), $survived survived${survivors:+:$survivors}"
[ "$stale" -gt 0 ] && echo "mutate: $stale stale or unbuildable, not counted (fix ${list#$src/}):$stales"
echo "mutate: $(($(date +%s) - start)) s in all, suites run: $([ -n "${MUTATE_SUITES:-}" ] && echo "$MUTATE_SUITES" || echo "each mutation's own")"
[ -n "${MUTATE_TABLE:-}" ] && printf '%s\n' "$table" > "$MUTATE_TABLE"
[ "$stale" -eq 0 ] && [ "$score" -ge "$min" ]
