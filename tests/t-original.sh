#!/bin/sh
# --original times each walk once, as scan.c 1.1 did, so a walk that
# lost its CPU (stopped, preempted, the host's steal) is not timed again:
# it is marked disturbed in the CSV and JSON and on the -vv interference
# line, and a warning says so.  No timing is asserted: the stop is made
# to land in the walk, and lasts far longer than a 10,000-page walk.
. tests/lib.sh

# The seam: built with -DSCAN_STOP_IN_WALK='"list"', scan stops itself
# (SIGSTOP) as its timing of that walk starts, so the stop falls inside
# the walk's wall without racing it; the shell continues it.
if ! have "${CC:-cc}"; then
	skip "--original: a stopped walk is marked" "no C compiler (${CC:-cc}) to build the seam"
	exit 0
fi
stop_seam || exit 0
if [ ! -r /proc/self/stat ]; then
	skip "--original: a stopped walk is marked" "no /proc to see the process stop"
	exit 0
fi

# list_marked FILE: ListLRU marked disturbed and not retimed, and every
# walk marked has its warning and no other has (a busy host may really
# disturb the others).
list_marked() {
	[ "$(walk_col "$1" list disturbed)" = 1 ] &&
		[ "$(csv_col "$1" retimed | sort -u)" = 0 ] &&
		marks_warned "$1"
}

# marks_warned FILE: each walk's disturbed mark, 1 or 0, is whether its
# warnings column has the code, and stderr has the line when one has.
marks_warned() {
	any=0
	for walk in physical array list; do
		codes=$(walk_col "$1" "$walk" warnings)
		case " $codes " in *" disturbed "*) warned=1 any=1 ;; *) warned=0 ;; esac
		[ "$(walk_col "$1" "$walk" disturbed)" = "$warned" ] || return 1
	done
	[ "$(grep -c '^scan: warning: disturbed: ' "$tmp/err")" = "$any" ]
}

# kept_warned: the -vv count of walks kept disturbed is the number of
# walks the disturbed line names (each item, or the worst and "and N
# more walks").
kept_warned() {
	kept=$(sed -n 's/^interference: .*, \([0-9]*\) kept disturbed$/\1/p' "$tmp/out")
	named=$(awk '/^scan: warning: disturbed: / { n = gsub(/one walk lost/, ""); if (match($0, / and [0-9]+ more walks?/)) n += substr($0, RSTART + 5) } END { print n + 0 }' "$tmp/err")
	same "$kept" "$named"
}

# another walk disturbed too (a busy host) adds " and 1 more walk"
warning="^scan: warning: disturbed: ListLRU's one walk lost [0-9]+% to other work: its ratio is unsure( and [0-9]+ more walks?)?; rerun it\$"

run_stopped -c 0.01 -vv -s 5 --original
check "--original, stopped in ListLRU: exit 0" [ "$rc" -eq 0 ]
check "--original: the seam stopped the walk once" [ "$stops" -eq 1 ]
check "--original: the ratios still printed" \
	out_has '^Physical scan is [0-9.]+ faster than ListLRU$' '^Physical scan is [0-9.]+ faster than ArrayLRU$'
check "--original: ListLRU timed once, not again" out_has '^ListLRU: 1 walks, '
check "-vv: the interference line counts walks disturbed, none retimed" \
	out_has '^interference: 0 walks retimed \(0 preempted, 0 stolen, 0 off the CPU\), [1-3] kept disturbed$'
check "--original: a warning names the disturbed walk" err_has "$warning"
check "-vv: as many walks kept disturbed as warned of" kept_warned

run_stopped -c 0.01 -s 5 --original --format=csv
cp "$tmp/out" "$tmp/stopped.csv"
check "--format=csv, stopped: exit 0" [ "$rc" -eq 0 ]
check "--format=csv: ListLRU disturbed 1, nothing retimed, each mark warned of" \
	list_marked "$tmp/stopped.csv"
check "--format=csv: the stopped run's warning" err_has "$warning"

run_stopped -c 0.01 -s 5 --original --format=json
# shellcheck disable=SC2016 # an awk program
check "--format=json, stopped: ListLRU's disturbed is 1" \
	awk '/"walk": "list"/ { w = 1 } w && /"disturbed": / { print "# " $0; exit !/"disturbed": 1,?$/ }' "$tmp/out"

# Stopped in every try of ListLRU without --original (each timed again
# and stopped again): --strict fails, and the line says what would let
# it pass.
run_stopped -c 0.01 -r 1 -s 5 --strict --expect=cache-sized,short-walk,noisy
check "--strict, stopped: exit 5" [ "$rc" -eq 5 ]
check "--strict, stopped: the line says what lets it pass, in words" \
	err_has '^scan: warning: disturbed: ListLRU lost >5% in (its one walk|both walks|all [0-9]+ walks|[0-9]+ of [0-9]+ walks) to other work \([^)]+\); to pass --strict: an idle machine$'

# Not stopped, nothing is timed again either, and each mark and warning
# agree (whether or not this host disturbed a walk).
run -c 0.01 -s 5 --original --format=csv
cp "$tmp/out" "$tmp/plain.csv"
check "--original, not stopped: no walk retimed" \
	[ "$(csv_col "$tmp/plain.csv" retimed | sort -u)" = 0 ]
check "--original, not stopped: each walk's mark and warning agree" marks_warned "$tmp/plain.csv"

# --original faults the memmap in as scan.c 1.1 did: its pages in a
# random order (the links, written in LRU order, touched them first), so
# which physical page backs which address is shuffled.  Seen through
# /proc/PID/pagemap while the seam holds scan stopped at ListLRU: the
# share of neighbouring pages that are neighbours in physical memory too.
# A run that faults in address order (--thp=never, 4 KiB pages) shows
# whether this host's allocator hands out neighbours at all.
pages=800			# -c 0.0512: 51,200 64-byte pages
size=$((pages * 4096))

# hex(s): the value of a string of lower-case hex digits, in awk.
hex='function hex(s,   i, v) {
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}'

# neighbours PID: of the memmap's pages (the mapping of $size bytes), the
# share whose next page is the next or previous physical page, in
# percent; nothing if the mapping or its page frames cannot be read.
neighbours() {
	start=$(awk -v size="$size" "$hex"'
	$2 ~ /^rw/ { split($1, r, "-"); if (hex(r[2]) - hex(r[1]) == size) { printf "%.0f\n", hex(r[1]); exit } }' "/proc/$1/maps")
	[ -n "$start" ] || return 0
	# dd seeks to the entries; od -j would read the gigabytes before them
	dd if="/proc/$1/pagemap" bs=8 skip="$((start / 4096))" count="$pages" 2>/dev/null |
		od -An -v -t x8 | awk "$hex"'
	{ for (i = 1; i <= NF; i++) {
		s = substr($i, 3)		# bits 0-55: the frame and soft-dirty
		d = index("0123456789abcdef", substr(s, 1, 1)) - 1
		pfn = hex(substr(s, 2)) + (d % 8) * 2 ^ 52
		if (pfn && prev && (pfn == prev + 1 || pfn == prev - 1)) near++
		if (pfn) { known++; prev = pfn }
	} }
	END { if (known > 1) printf "%d\n", 100 * near / (known - 1) }'
}

# placed ARGS...: run the seam scan until it first stops in ListLRU, read
# its memmap's neighbours, and end it.
placed() {
	"$stop_scan" "$@" >/dev/null 2>&1 &
	pid=$!
	polls=0
	while [ "$(state "$pid")" != T ] && [ "$polls" -lt 600 ]; do
		polls=$((polls + 1))
		nap
	done
	neighbours "$pid"
	kill -KILL "$pid" 2>/dev/null	# its figures are not wanted
	wait "$pid" 2>/dev/null
}

in_order=$(placed -c 0.0512 -s 5 -r 1 --thp=never)
shuffled=$(placed -c 0.0512 -s 5 --original)
echo "# neighbouring pages also neighbours in memory: ${in_order:-?}% faulted in order, ${shuffled:-?}% under --original"
if [ -z "$in_order" ] || [ -z "$shuffled" ]; then
	skip "--original: the memmap faulted in a random page order" "page frames not readable here (/proc/PID/pagemap needs root)"
elif grep -q '\[always\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
	skip "--original: the memmap faulted in a random page order" "THP always: the memmap is in 2 MiB pages"
elif [ "$in_order" -lt 5 ]; then
	skip "--original: the memmap faulted in a random page order" "this host's allocator gave neighbours to only $in_order% of pages faulted in order"
else
	# a random order leaves a page its physical neighbour about once in
	# as many pages as the machine has
	check "--original: the memmap faulted in a random page order" [ "$shuffled" -le 2 ]
fi
