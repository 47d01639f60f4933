#!/bin/sh
# Retiming is worth what it buys: a disturbed walk is timed again only
# while the retime is cleaner than the walk it replaced and retiming
# stays within 15% of the run's wall (retime_stop()), and the disturbed
# warning says in words how many walks were kept and why.
# tests/unit-retime.c holds the rule and the line to made-up runs.  The
# stop seam (as in t-original.sh) then stops every ListLRU walk for a
# tenth of a second or more, far over 15% of a tiny run: each is timed
# once, never again.  No timing is asserted.
. tests/lib.sh

unit_tests retime "retime_stop()" retime || exit 0

if [ ! -r /proc/self/stat ]; then
	skip "retiming: a stopped walk" "no /proc to see the process stop"
	exit 0
fi
stop_seam || exit 0

item="ListLRU lost >5% in both walks to other work \\(retiming's 15% spent\\)"
run_stopped -c 0.01 -r 2 -vv -s 5
check "stopped in every ListLRU walk: exit 0" [ "$rc" -eq 0 ]
check "two rounds, two stops: no stopped walk timed again" [ "$stops" -eq 2 ]
check "-vv: ListLRU's two walks kept" out_has '^ListLRU: 2 walks, '
check "the warning says in words why retiming stopped" \
	err_has "^scan: warning: disturbed: .*$item.*; rerun when idle\$"
check "no N/M fragment in the warning" \
	sh -c "! grep '^scan: warning: disturbed: ' '$tmp/err' | grep -q '[0-9]/[0-9]'"
check "-vv: the interference line counts them kept" \
	out_has '^interference: [0-9]+ walks? retimed .*, [2-9][0-9]* kept disturbed$'

run_stopped -c 0.01 -r 2 -s 5 --format=csv
check "--format=csv, stopped: ListLRU retimed 0, disturbed 2" \
	[ "$(walk_col "$tmp/out" list retimed),$(walk_col "$tmp/out" list disturbed)" = 0,2 ]
