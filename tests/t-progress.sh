#!/bin/sh
# Progress on stderr: a run expected to take over 10 s says so as its
# walks start (its size, rounds and the time it expects), and -v shows
# each round of a run expected to take over a second as it ends; stdout
# stays the original's.  Tiny runs say nothing, so the seam
# -DSCAN_PROGRESS_S=0 (every run "long") shows both at a tiny size.
. tests/lib.sh

expect_re='^scan: [0-9]+ pages, a [0-9.]+ [KMG]?i?B memmap, [0-9]+ rounds?: expect about [0-9.]+ s in all, setup [0-9.]+ s of it$'
round_re='^scan: round [0-9]+ of [0-9]+ done at [0-9.]+ s(, about [0-9.]+ s to go)?$'

run -c 0.01 -s 5 -v
check "a tiny run says nothing of its progress" \
	sh -c "! grep -Eq '$expect_re|$round_re' '$tmp/err'"

if ! have "${CC:-cc}"; then
	skip "progress lines" "no C compiler (${CC:-cc}) to build the seam"
	exit 0
fi
if ! build progress "${CC:-cc}" -O0 -pthread -DSCAN_PROGRESS_S=0; then
	cp "$fixture.log" "$tmp/err"
	check "the progress seam builds" false
	exit 0
fi
long=$fixture/scan

run_cmd "$long" -c 0.01 -s 5 -r 3
check "long: exit 0" [ "$rc" -eq 0 ]
check "long: one line says what the run expects, first" \
	sh -c "head -n 1 '$tmp/err' | grep -Eq '$expect_re' && [ \"\$(grep -Ec '$expect_re' '$tmp/err')\" = 1 ]"
check "long: its size, 10000 pages, and rounds, 3" err_has '^scan: 10000 pages, .*, 3 rounds: '
check "long: stdout is the original's two lines" lines 2
check "long: stdout's lines are the original's" \
	out_has '^Physical scan is [0-9.]+ faster than ListLRU$' '^Physical scan is [0-9.]+ faster than ArrayLRU$'
check "long, no -v: no round lines" sh -c "! grep -Eq '$round_re' '$tmp/err'"

run_cmd "$long" -c 0.01 -s 5 -r 3 -v
check "-v: a line as each of 3 rounds ends" \
	[ "$(grep -Ec "$round_re" "$tmp/err")" = 3 ]
check "-v: round 1 says what is left" \
	err_has '^scan: round 1 of 3 done at [0-9.]+ s, about [0-9.]+ s to go$'
check "-v: round 2 too" \
	err_has '^scan: round 2 of 3 done at [0-9.]+ s, about [0-9.]+ s to go$'
check "-v: the last round does not" err_has '^scan: round 3 of 3 done at [0-9.]+ s$'

run_cmd "$long" -c 0.01 -s 5 -v
rounds=$(sed -n 's/^\([0-9]*\) rounds\{0,1\} over .*/\1/p' "$tmp/out")
check "-v, auto rounds: a line a round the run took" \
	[ "$(grep -Ec "$round_re" "$tmp/err")" = "${rounds:-none}" ]

run_cmd "$long" -c 0.01 -s 5 -r 3 -v -q
check "-q: no progress" sh -c "! grep -Eq '$expect_re|$round_re' '$tmp/err'"
