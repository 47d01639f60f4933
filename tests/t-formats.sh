#!/bin/sh
# From a run to a mailing-list post: sweep, plot, report,
# compare.  Tiny sizes; nothing here asserts a speed.
. tests/lib.sh

# the CSV the compare checks below read (sweep's own: t-sweep.sh)
scripts/sweep.sh -o "$tmp/sweep.csv" -r 1 0.01 0.02 >/dev/null 2>&1

# compare: a row per walk and size, noise marked
scripts/compare.sh "$tmp/sweep.csv" "$tmp/sweep.csv" >"$tmp/cmp"
check "compare: exit 0" [ $? -eq 0 ]
check "compare: a row per walk and size" [ "$(grep -c '%' "$tmp/cmp")" -eq 4 ]
check "compare: identical runs are noise" [ "$(grep -c '+0.0%  noise$' "$tmp/cmp")" -eq 4 ]
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["walk"] == "list" { $c["speedup"] *= 2; $c["speedup_min"] *= 2; $c["speedup_max"] *= 2
		$c["speedup_q1"] *= 2; $c["speedup_q3"] *= 2 } { print }' \
	"$tmp/sweep.csv" >"$tmp/doubled.csv"
scripts/compare.sh "$tmp/sweep.csv" "$tmp/doubled.csv" >"$tmp/cmp2"
check "compare: a real change is not noise" grep -q '^ListLRU .*+100.0%$' "$tmp/cmp2"
# extremes that overlap, middle halves that do not: a change, not noise
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["walk"] == "list" { $c["speedup"] = 13; $c["speedup_q1"] = 12.5; $c["speedup_q3"] = 13.5
		$c["speedup_min"] = 1; $c["speedup_max"] = 100 } { print }' "$tmp/sweep.csv" >"$tmp/a.csv"
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["walk"] == "list" { $c["speedup"] = 10; $c["speedup_q1"] = 9.5; $c["speedup_q3"] = 10.5
		$c["speedup_min"] = 1; $c["speedup_max"] = 100 } { print }' "$tmp/sweep.csv" >"$tmp/b.csv"
scripts/compare.sh "$tmp/a.csv" "$tmp/b.csv" >"$tmp/cmp3"
check "compare: noise is decided by the quartiles, not the extremes" \
	sh -c "grep '^ListLRU' '$tmp/cmp3' | grep -v noise | grep -q -- '-23.1%'"
{ cat "$tmp/sweep.csv"; tail -n 1 "$tmp/sweep.csv"; } >"$tmp/dup.csv"
scripts/compare.sh "$tmp/dup.csv" "$tmp/sweep.csv" >"$tmp/cmp4" 2>"$tmp/cmp4.err"
rc=$?
check "compare: two rows for one walk and size are an error naming them" \
	sh -c "[ $rc -eq 1 ] && grep -Eq 'dup.csv has two rows for [A-Za-z]+LRU at -c 0.0[12]\$' '$tmp/cmp4.err'"
head -n 1 "$tmp/sweep.csv" >"$tmp/empty.csv"
scripts/compare.sh "$tmp/sweep.csv" "$tmp/empty.csv" >"$tmp/cmp5" 2>"$tmp/cmp5.err"
rc=$?
check "compare: nothing in common is exit 1 and no table" \
	sh -c "[ $rc -eq 1 ] && [ ! -s '$tmp/cmp5' ] && grep -q 'no walk and size in both' '$tmp/cmp5.err'"


