#!/bin/sh
# The counters: each timed walk's events, counted by perf_event_open
# where the kernel lets a process count its own.  The software events
# (page faults, context switches) count on every Linux, so their path is
# tested everywhere: a timed walk takes no page fault.  Two seams prove
# the counts are live and the hardware rows' path works without a PMU:
# -DSCAN_FAULT_IN_WALK faults a page inside one walk's timing, and
# -DSCAN_SOFT_PMU has the hardware rows count the task's clock.  Where
# the counters cannot count, one -vv line says why and their columns are
# empty; a default run says nothing of them.  No speed is asserted.
# shellcheck disable=SC2016 # the awk conditions are awk's, in single quotes
. tests/lib.sh

hw="llc_misses dtlb_misses instructions cycles"

# cols FILE NAME...: the values of those columns in every row, a row a
# line, the values separated by spaces.
cols() {
	f=$1
	shift
	for col in "$@"; do	# (not $name: check() names its test with it)
		csv_col "$f" "$col" >"$tmp/col.$col" || return 1
	done
	# shellcheck disable=SC2046 # one word a column, names without blanks
	(cd "$tmp" && paste -d' ' $(for col in "$@"; do printf 'col.%s ' "$col"; done))
}

# every FILE AWK NAME...: every row's values of those columns ($1, $2,
# ...) make the awk condition true.
every() {
	f=$1 cond=$2
	shift 2
	cols "$f" "$@" >"$tmp/cols" || return 1
	[ -s "$tmp/cols" ] && awk "!($cond) { bad = 1 } END { exit bad }" "$tmp/cols"
}

# held COND "NAME..." CMD ARGS...: CMD's CSV holds COND (as every()) in
# one of up to 3 runs.  A fault of scan's own code shows in every run; a
# page the kernel migrates under a walk on a busy host (compaction, NUMA
# balancing) is a fault too, but seldom in two runs running.
held() {
	hcond=$1 hcols=$2
	shift 2
	for try in 1 2 3; do
		run_cmd "$@"
		# shellcheck disable=SC2086 # the column names, one word each
		[ "$rc" -eq 0 ] && every "$tmp/out" "$hcond" $hcols && return 0
		echo "# try $try: $(tr '\n' ' ' <"$tmp/cols" 2>/dev/null)"
	done
	return 1
}

run --fields
for c in $hw counted_share page_faults context_switches; do
	check "--fields: $c is a walk's column" grep -q "^$c  *walk " "$tmp/out"
done

# A default run: the original's two lines, nothing on stderr about them.
run -c 0.01 -r 2 -q
check "a default run: two lines, stderr empty" sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$tmp/out') -eq 2 ] && [ ! -s '$tmp/err' ]"
run -c 0.01 -r 2
check "a default run: no line about counters" sh -c "! grep -qi 'count' '$tmp/out' '$tmp/err'"

# One run, its CSV on stdout and -vv's lines on stderr.
run -c 0.01 -r 2 -q -vv --format=csv
check "csv and -vv: exit 0" [ "$rc" -eq 0 ]
cp "$tmp/out" "$tmp/csv"
cp "$tmp/err" "$tmp/vv"
check "-vv: at most one counters: line" [ "$(grep -c '^counters: ' "$tmp/vv")" -le 1 ]
check "-vv: a counters: line names an event, then why" \
	sh -c "! grep '^counters: ' '$tmp/vv' | grep -Eqv '^counters: [a-zA-Z ,]+ not counted: .+'"

# Where the software events cannot be counted, only a kernel or an
# emulator without perf_event_open, a refusing setting or a build
# without it excuse it; anything else is a failure.
why=$(sed -n 's/^counters: .*page faults[a-z ,]* not counted: //p' "$tmp/vv")
case $why in
'') counted=1 ;;
ENOSYS* | EACCES* | EPERM* | "this scan was built without"*) counted=0 ;;
*) counted=1 ;;
esac
# under valgrind or ASan the walks fault in the tool's shadow memory
# (ASan's: 1 or 2 faults in --original's walks, in 3 tries of 3, once
# in CI): nothing to hold
faultless=1
case $SCAN in *valgrind* | *sanitize*) faultless=0 ;; esac
if [ "$counted" -eq 1 ]; then
	check "page faults counted (no refusal for them)" [ -z "$why" ]
	if [ "$faultless" -eq 1 ]; then
		check "a timed walk takes no page fault" \
			held '$1 == 0' page_faults "$SCAN" -c 0.01 -r 2 -q --format=csv
	else
		skip "a timed walk takes no page fault" "scan runs under valgrind or ASan, whose shadow memory faults in"
	fi
	check "context switches: a whole number" every "$tmp/csv" '$1 ~ /^[0-9]+$/' context_switches
	check "-vv: a counted line per walk" \
		[ "$(grep -c '^[A-Za-z]* counted: .*page faults [0-9]*, context switches [0-9]* over [0-9]* walks*' "$tmp/vv")" -eq 3 ]
	if [ "$faultless" -eq 1 ]; then
		check "--original: its walks take no page fault" \
			held '$1 == 0' page_faults "$SCAN" -c 0.01 -q --original --format=csv
	else
		skip "--original: its walks take no page fault" "scan runs under valgrind or ASan, whose shadow memory faults in"
	fi
	run -c 0.01 -r 2 -q -t 2 -vv
	check "-t 2: the counts are the calling walker's share" \
		grep -q "counted: .*(the calling walker's, over its share: 1 of 2)" "$tmp/out"
else
	for c in "page faults counted" "a timed walk takes no page fault"; do
		skip "$c" "scan cannot count here: $why"
	done
	check "not counted: page_faults empty" every "$tmp/csv" '$1 == ""' page_faults
fi

# The hardware events: counted, a number each; or not, every column
# empty and the line naming them.
for c in $hw; do
	event=$(echo "$c" | sed 's/llc_misses/LLC misses/; s/dtlb_misses/dTLB misses/')
	if grep -q "^counters: .*$event.* not counted: " "$tmp/vv"; then
		check "$c: not counted, so empty" every "$tmp/csv" '$1 == ""' "$c"
	else
		check "$c: counted, a number per walk" every "$tmp/csv" '$1 ~ /^[0-9]+\.[0-9]+$/' "$c"
	fi
done
check "counted_share: empty, or in (0, 1]" every "$tmp/csv" '$1 == "" || ($1 > 0 && $1 <= 1)' counted_share

# The seams: a C compiler builds them from scan.c beside the scan under
# test (under qemu-user CI, a native one: they test the path, not the
# emulator).
if ! have "${CC:-cc}"; then
	skip "the seams: a fault in a walk, the hardware rows" "no C compiler (${CC:-cc})"
	exit 0
fi
if [ "$counted" -eq 0 ]; then
	skip "the seams: a fault in a walk, the hardware rows" "scan cannot count here: $why"
	exit 0
fi
fault=$tmp/scan-fault
soft=$tmp/scan-soft
check "the fault seam builds" "${CC:-cc}" -O0 -pthread '-DSCAN_FAULT_IN_WALK="list"' scan.c -o "$fault"
check "the soft-PMU seam builds" "${CC:-cc}" -O0 -pthread -DSCAN_SOFT_PMU scan.c -o "$soft"
# The seam is built at -O0 (0.7 s to compile here, -O2 4 s), which keeps a
# walk's locals on the stack: the first walk to reach a new stack depth
# may take that page's first fault in its timing, by where ASLR put the
# stack's top (Physical, 1 in 3 runs on one AMD EPYC VM).  So the other
# walks may count a fault, never one a walk, which the seam's would be.
check "a page faulted in the list walk's timing is counted, once a walk" \
	held '($1 == "list") ? $3 >= $2 : $3 < $2' "walk timed page_faults" \
	"$fault" -c 0.01 -r 2 -q --format=csv
run_cmd "$soft" -c 0.01 -r 2 -q -vv --format=csv
check "soft PMU: no counters: line" sh -c "! grep -q '^counters: ' '$tmp/err'"
check "soft PMU: every hardware column a positive number" \
	every "$tmp/out" '$1 > 0 && $2 > 0 && $3 > 0 && $4 > 0' llc_misses dtlb_misses instructions cycles
check "soft PMU: counted the whole time" every "$tmp/out" '$1 == 1' counted_share
check "soft PMU: -vv says each a page (Physical) or folio" \
	sh -c "grep -q '^Physical counted: [0-9.]* LLC misses, [0-9.]* dTLB misses, [0-9.]* instructions, [0-9.]* cycles a page; ' '$tmp/err' &&
	grep -q '^ListLRU counted: .* cycles a folio; ' '$tmp/err'"

# The scripts show what the soft-PMU scan counted: report.sh's block a
# counted line a walk (which collect.sh reads back), explain.sh a table.
run_cmd env SCAN="$soft" scripts/report.sh -n 1 -c 0.01 -r 2
check "report.sh: a counted line a walk" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^counted [A-Za-z]*: [0-9.]* LLC misses, ' '$tmp/out') -eq 3 ]"
cp "$tmp/out" "$tmp/block"
run_cmd scripts/collect.sh "$tmp/block"
check "collect.sh reads a block with counted lines" sh -c "[ $rc -eq 0 ] && grep -q 'ListLRU' '$tmp/out'"
run_cmd env SCAN="$soft" scripts/explain.sh -c 0.01
check "explain.sh: a table of the misses, a row a step" \
	sh -c "[ $rc -eq 0 ] && grep -q '^LLC/dTLB read misses a page (Physical) or folio' '$tmp/out' &&
	[ \$(grep -Ec '^ [0-9] .* [0-9.]+/[0-9.]+ +[0-9.]+/[0-9.]+ +[0-9.]+/[0-9.]+\$' '$tmp/out') -eq 9 ]"
run_cmd scripts/explain.sh -c 0.01
if grep -q '^counters: .*LLC misses.*dTLB misses.* not counted' "$tmp/vv"; then
	check "explain.sh: no misses table where scan counts none" \
		sh -c "[ $rc -eq 0 ] && ! grep -q '^LLC/dTLB read misses' '$tmp/out'"
fi
