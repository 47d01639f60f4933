#!/bin/sh
# compare.sh: the statistics against known answers, the tables (one run a
# side, several, -n), bad CSVs and mutated ones.  Tiny sizes and made-up
# speedups; nothing here asserts a speed.
. tests/lib.sh

# --- the statistics against a reference ------------------------------------
# Each line: method: BEFORE... | AFTER... => U p HL lo hi confidence method,
# printed %.6g.  U and p are scipy 1.10.1's (Debian python3-scipy
# 1.10.1-2, installed for this only, never needed by the project):
#   scipy.stats.mannwhitneyu(x, y, method="exact")                  (exact)
#   scipy.stats.mannwhitneyu(x, y, method="asymptotic", use_continuity=True)
# HL is the median of the y_j - x_i, lo and hi its order statistics k and
# m*n+1-k, the confidence 1 - 2 P(U <= k-1), from a separate Python
# reference that finds U's null distribution by enumerating all C(m+n, m)
# rank sets (the normal lines: k = floor(mn/2 - 1/2 - 1.96 sd) + 1).
# Ties, all equal, 3 and 3 (90% at most), 3 and 4, unequal sizes, both
# methods.
cat >"$tmp/known" <<'EOF'
exact: 1.1 2.3 3.0 4.7 5.2 | 2.9 3.8 5.5 6.1 7.4 => 5 0.150794 1.8 -1.4 5 0.968254 exact
exact: 1 2 3 | 4 5 6.5 => 0 0.1 3 1 5.5 0.9 exact
exact: 3 1 2 | 2.5 0.5 4 => 4 1 0.5 -2.5 3 0.9 exact
exact: 10.2 11.9 9.4 | 12.8 13.1 10.7 14.6 => 1 0.114286 2.65 -1.2 5.2 0.942857 exact
exact: 0.8 1.9 2.7 3.3 | 1.4 2.2 4.1 5.6 6.8 7.7 9.5 => 5 0.109091 3.4 -0.5 6.8 0.957576 exact
exact: 1 2 2 3 5 | 2 3 3 4 6 7 => 7 0.177489 1 -1 5 0.969697 exact
exact: 5 5 5 | 5 5 5 5 => 6 1 0 0 0 0.942857 exact
exact: 4.1 5.3 6.2 7.8 8.4 9.9 | 1.2 2.6 3.1 4.5 5.9 6.6 7.2 8.8 => 34 0.228438 -1.85 -5.2 1 0.957376 exact
exact: 9.55 8.14 11.47 13.25 10.51 11.40 11.41 10.92 | 11.71 12.07 10.53 9.12 8.93 11.52 11.29 10.76 8.29 10.53 => 43 0.828557 -0.17 -1.99 0.98 0.956579 exact
exact: 19.93 18.92 19.17 22.33 21.45 20.86 20.32 19.51 19.60 20.76 19.08 19.75 | 23.29 20.09 20.64 23.44 21.91 21.69 20.59 19.96 22.81 18.68 22.00 20.89 => 35 0.0332414 1.14 0.13 2.43 0.955098 exact
normal: 4.90 2.73 5.97 5.65 5.31 5.46 3.52 5.19 5.52 4.91 1.56 4.88 5.12 3.77 5.07 6.41 4.90 6.43 4.41 4.20 5.28 4.02 3.15 5.37 5.00 | 6.24 4.65 5.12 6.13 5.06 5.36 5.85 4.78 5.86 3.99 6.14 8.53 6.30 5.16 3.83 4.33 5.28 4.75 6.14 5.76 6.44 5.35 6.47 7.09 4.61 5.48 => 205 0.0243317 0.675 0.09 1.23 0.95 normal
normal: 3 3 4 3 2 2 1 3 4 3 2 3 2 4 3 5 4 4 2 4 3 2 3 5 4 5 4 2 2 5 | 4 4 3 4 4 3 3 4 2 3 3 3 2 3 3 5 3 4 3 4 4 5 5 3 5 4 5 3 => 330 0.146241 0 0 1 0.95 normal
normal: 7.1700 3.8920 5.3259 4.7387 4.1207 4.4262 4.4810 4.9007 5.3865 6.0132 5.1994 6.0837 5.4184 5.0656 4.7400 3.9870 3.3772 4.8709 4.7822 5.2667 5.2754 3.6950 4.2382 3.8338 5.9334 4.8264 5.0589 4.0427 3.6781 4.3571 | 5.3333 5.8892 3.9301 5.7581 4.5826 4.9128 5.1033 5.0056 5.8837 6.2963 5.7654 4.8959 5.8431 5.7998 6.2790 5.6945 3.8368 4.6810 5.0329 6.3395 5.2958 6.3279 5.7176 4.2569 5.4748 5.9754 5.8304 3.9680 => 252 0.00915016 0.6053 0.1994 1.0186 0.95 normal
EOF
sed 's/ => .*//' "$tmp/known" >"$tmp/samples"
awk "$(cat scripts/stats.awk)"'
{
	split($0, half, ":")
	split(half[2], side, "|")
	m = split(side[1], x, " ")
	n = split(side[2], y, " ")
	for (i = 1; i <= m; i++)
		x[i] += 0
	for (i = 1; i <= n; i++)
		y[i] += 0
	mw_compare(x, m, y, n, r)
	printf "%s => %.6g %.6g %.6g %.6g %.6g %.6g %s\n", $0, r["u"], r["p"],
	    r["est"], r["lo"], r["hi"], r["conf"], r["method"]
}' "$tmp/samples" >"$tmp/got"
words() {	# words WORD...: sets words to how many
	words=$#
}
i=0
while IFS= read -r want && IFS= read -r got <&3; do
	i=$((i + 1))
	samples=${want#*:}
	samples=${samples%% =>*}
	# shellcheck disable=SC2086 # the samples are words
	words ${samples%%|*}
	m=$words
	# shellcheck disable=SC2086
	words ${samples#*|}
	check "stats: case $i (${want%%:*} $m and $words)" same "$got" "$want"
done <"$tmp/known" 3<"$tmp/got"

# --- a run a side ------------------------------------------------------------
# two sizes in one CSV, as sweep.sh -o writes it
run -c 0.01 -r 1 --format=csv -q
cp "$tmp/out" "$tmp/one.csv"
run -c 0.02 -r 1 --format=csv -q
tail -n +2 "$tmp/out" >>"$tmp/one.csv"

scripts/compare.sh "$tmp/one.csv" "$tmp/one.csv" >"$tmp/cmp"
check "one run: exit 0" [ $? -eq 0 ]
check "one run: says the spread is the run's own" \
	[ "$(head -n 1 "$tmp/cmp")" = "one run a side: spread within the run only" ]
# ns_rows FILE: ten rows with a change (four ratios, six walks' times),
# the title of the walks' own times right above the first Physical row
ns_rows() {
	[ "$(grep -c '%' "$1")" -eq 10 ] &&
	awk '/^each walk.s own time, ns a page \(Physical\) or a folio \(the others\):$/ { t = NR }
	/^Physical / && !p { p = NR } END { exit !(t && p == t + 1) }' "$1"
}
check "one run: a row per walk and size, then each walk's own time" ns_rows "$tmp/cmp"
check "one run: identical runs are noise" [ "$(grep -c '+0.0%  noise$' "$tmp/cmp")" -eq 10 ]
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["walk"] == "list" { $c["speedup"] *= 2; $c["speedup_min"] *= 2; $c["speedup_max"] *= 2
		$c["speedup_q1"] *= 2; $c["speedup_q3"] *= 2 } { print }' \
	"$tmp/one.csv" >"$tmp/doubled.csv"
scripts/compare.sh "$tmp/one.csv" "$tmp/doubled.csv" >"$tmp/cmp2"
check "one run: a real change is not noise" grep -q '^ListLRU .*+100.0%$' "$tmp/cmp2"
# extremes that overlap, middle halves that do not: a change, not noise
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["walk"] == "list" { $c["speedup"] = 13; $c["speedup_q1"] = 12.5; $c["speedup_q3"] = 13.5
		$c["speedup_min"] = 1; $c["speedup_max"] = 100 } { print }' "$tmp/one.csv" >"$tmp/a.csv"
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["walk"] == "list" { $c["speedup"] = 10; $c["speedup_q1"] = 9.5; $c["speedup_q3"] = 10.5
		$c["speedup_min"] = 1; $c["speedup_max"] = 100 } { print }' "$tmp/one.csv" >"$tmp/b.csv"
scripts/compare.sh "$tmp/a.csv" "$tmp/b.csv" >"$tmp/cmp3"
check "one run: noise is decided by the quartiles, not the extremes" \
	awk '/^ListLRU/ && !/noise/ && /-23\.1%/ { found = 1 } END { exit !found }' "$tmp/cmp3"
# refused OUT ERR REGEX: the last compare exited 1, nothing in OUT, a
# line of ERR matching the extended REGEX whole
refused_with() {
	[ "$rc" -eq 1 ] && [ ! -s "$1" ] && grep -Eqx -- "$3" "$2"
}
awk '{ print } END { print }' "$tmp/one.csv" >"$tmp/dup.csv"	# the last row twice
scripts/compare.sh "$tmp/dup.csv" "$tmp/one.csv" >"$tmp/cmp4" 2>"$tmp/cmp4.err"
rc=$?
check "two rows for one walk and size: exit 1, naming the file, row, walk and size" \
	refused_with "$tmp/cmp4" "$tmp/cmp4.err" 'compare.sh: .*dup.csv: row 8 is a second row for [A-Za-z]+LRU at -c 0.02'
read -r header <"$tmp/one.csv"
echo "$header" >"$tmp/empty.csv"
scripts/compare.sh "$tmp/one.csv" "$tmp/empty.csv" >"$tmp/cmp5" 2>"$tmp/cmp5.err"
rc=$?
check "nothing in common: exit 1 and no table" \
	refused_with "$tmp/cmp5" "$tmp/cmp5.err" '.*no walk and size in both.*' 

# --- several runs a side -----------------------------------------------------
# runs_csvs: the CSVs of the lines on stdin, one awk for all: a line
# "NAME RUN SPEEDUP..." writes $tmp/NAME.csv, a row per speedup, ListLRU
# at -c 1, with a run column when RUN is "run" (then the rows are runs
# 1..N), else "-".
runs_csvs() {
	awk -v tmp="$tmp" '{
		f = tmp "/" $1 ".csv"
		print "walk,label,pages,speedup" ($2 == "run" ? ",run" : "") >f
		for (i = 3; i <= NF; i++)
			print "list,ListLRU,1000000," $i ($2 == "run" ? "," (i - 2) : "") >f
		close(f)
	}'
}
# one file a run: r1.csv to r15.csv
echo 40.1 41.3 39.8 42.0 40.7 40.5 41.9 40.2 41.1 39.9 44.5 45.9 43.2 46.1 44.9 |
	awk '{ for (i = 1; i <= NF; i++) print "r" i, "-", $i }' | runs_csvs
scripts/compare.sh "$tmp/r1.csv" "$tmp/r2.csv" "$tmp/r3.csv" "$tmp/r4.csv" "$tmp/r5.csv" -- \
	"$tmp/r6.csv" "$tmp/r7.csv" "$tmp/r8.csv" "$tmp/r9.csv" "$tmp/r10.csv" >"$tmp/aa" 2>&1
rc=$?
# expected figures: the Python reference above on the logs of these speedups
check "runs: exit 0" [ "$rc" -eq 0 ]
check "runs: medians with range and runs, HL change, no change, its 95% interval" grep -Eqx \
	'ListLRU +1  40\.7 \(39\.8-42\.0, 5 runs\)  40\.5 \(39\.9-41\.9, 5 runs\) +-0\.2%  no change detected \(95%: -3\.6% to \+3\.3%\)' "$tmp/aa"
check "runs: the smallest change these runs could see, and the runs 5% and 10% need" grep -qx \
	'ListLRU at -c 1: changes under about 4.9% cannot be seen at 5 runs a side here; 5% needs about 5 runs a side, 10% about 4' "$tmp/aa"
scripts/compare.sh -v "$tmp/r1.csv" "$tmp/r2.csv" "$tmp/r3.csv" "$tmp/r4.csv" "$tmp/r5.csv" -- \
	"$tmp/r11.csv" "$tmp/r12.csv" "$tmp/r13.csv" "$tmp/r14.csv" "$tmp/r15.csv" >"$tmp/ab" 2>&1
check "runs: a real change, its interval, -v's U and p" grep -q \
	'  +10.3%  change +10.3% (95%: +6.0% to +15.0%)  U 0, p 0.00794 (exact)$' "$tmp/ab"
check "runs: beside a change found, what the noise means for it, not that it cannot be seen" \
	sh -c "grep -q '^ListLRU at -c 1: found through noise that hides most changes under about [0-9.]*% at 5 runs a side here, so its size is known only to its interval; 5% needs about' '$tmp/ab' &&
		! grep -q 'cannot be seen' '$tmp/ab'"
# a compiler's A/B: every walk twice as fast, the ratios as they were;
# the walks' own times show it
awk 'BEGIN {
	for (side = 1; side <= 2; side++) {
		f = "'"$tmp"'/ns" side ".csv"
		print "walk,label,pages,speedup,ns_per_page,ns_per_folio,run" >f
		for (run = 1; run <= 5; run++) {
			k = (side == 1 ? 2 : 1) * (1 + run / 100)
			printf "physical,Physical,1000000,1,%.4f,%.4f,%d\n", k, k, run >f
			printf "list,ListLRU,1000000,%.4f,%.4f,%.4f,%d\n", 100 + run, k * (100 + run), k * (100 + run), run >f
		}
		close(f)
	}
}'
scripts/compare.sh "$tmp/ns1.csv" "$tmp/ns2.csv" >"$tmp/ns" 2>&1
check "runs: the walks' own times beside the ratios: a change to every walk the ratio hides" \
	sh -c "grep -q '^ListLRU .*+0.0%  no change detected' '$tmp/ns' &&
		grep -q '^each walk.s own time, ns a page (Physical) or a folio (the others):\$' '$tmp/ns' &&
		grep -Fq '2.060 (2.020-2.100, 5 runs)  1.030 (1.010-1.050, 5 runs)  -50.0%  change -50.0% (95%: ' '$tmp/ns' &&
		grep -Eq '^ListLRU +1  [0-9.]+ \(.*5 runs\) .* -50\.0%  change -50\.0% ' '$tmp/ns'"
# one CSV a side, runs told apart by the run column, 5 and 6 runs (and
# the 3 and 2 runs further down)
runs_csvs <<'EOF'
before run 4.1 4.3 3.9 4.2 4.0
after run 4.6 4.4 4.8 4.5 4.7 5.0
before3 run 10 11 12
after3 run 20 22 24
before2 run 10 11
dup-run run 10 11 12
EOF
echo "list,ListLRU,1000000,13,2" >>"$tmp/dup-run.csv"
scripts/compare.sh "$tmp/before.csv" "$tmp/after.csv" >"$tmp/col" 2>&1
check "runs: a run column makes one CSV several runs" grep -q \
	'4.10 (3.90-4.30, 5 runs) *4.65 (4.40-5.00, 6 runs) *+13.6%  change +13.6% (95%: +7.0% to +22.0%)$' "$tmp/col"
scripts/compare.sh "$tmp/before3.csv" "$tmp/after3.csv" >"$tmp/three" 2>&1
check "runs: 3 and 3 says the 90% it can reach" \
	grep -q 'change +100.0% (90%: +66.7% to +140.0%)$' "$tmp/three"
scripts/compare.sh "$tmp/before2.csv" "$tmp/after3.csv" >"$tmp/two" 2>&1
check "runs: fewer than 3 a side, no verdict, said beside the figures" \
	grep -q '10.5 (10.0-11.0, 2 runs)  22.0 (20.0-24.0, 3 runs) .*no verdict: fewer than 3 runs a side$' "$tmp/two"
check "runs: no verdict, nothing said of what could be seen" sh -c "! grep -q 'cannot be seen' '$tmp/two'"
scripts/compare.sh "$tmp/dup-run.csv" "$tmp/after3.csv" >"$tmp/dr" 2>"$tmp/dr.err"
check "runs: two rows for one walk and size in a run are an error" \
	grep -qx 'compare.sh: .*dup-run.csv: row 5 is a second row for ListLRU at -c 1 in run 2' "$tmp/dr.err"

# --- -n: both sides run here, interleaved ------------------------------------
# A stand-in scan that logs its arguments and prints a CSV (its seed: the
# -s given, else 100 + how many runs before it).
cat >"$tmp/fake-scan" <<EOF
#!/bin/sh
[ "\$1" = --fields ] && exit 0	# compare.sh asks the warnings' order
echo "\$*" >>"$tmp/fake.log"
runs=0
while IFS= read -r _; do runs=\$((runs + 1)); done <"$tmp/fake.log"
seed=\$((100 + runs))
while [ \$# -gt 0 ]; do [ "\$1" = -s ] && seed=\$2; shift; done
echo "walk,label,pages,speedup,seed"
echo "physical,Physical,10000,1,\$seed"
echo "list,ListLRU,10000,\$((40 + runs)),\$seed"
echo "scan: warning: ListLRU spreads \$runs% over rounds" >&2
EOF
chmod +x "$tmp/fake-scan"
: >"$tmp/fake.log"
SCAN="$tmp/fake-scan" scripts/compare.sh -n 3 -c 0.01 -- --thp=never -- --access=write \
	>"$tmp/n3" 2>"$tmp/n3.err"
check "-n: exit 0" [ $? -eq 0 ]
printf '%s\n' '-c 0.01 --thp=never --format=csv' '-c 0.01 --access=write -s 101 --format=csv' \
	'-c 0.01 --thp=never --format=csv' '-c 0.01 --access=write -s 103 --format=csv' \
	'-c 0.01 --thp=never --format=csv' '-c 0.01 --access=write -s 105 --format=csv' >"$tmp/want.log"
check "-n: interleaved before, after; the after run takes the before run's seed" \
	cmp -s "$tmp/want.log" "$tmp/fake.log"
# has_lines FILE LINE...: FILE has each LINE, whole
has_lines() {
	file=$1
	shift
	printf '%s\n' "$@" | awk 'FNR == NR { want[$0] = 1; next } $0 in want { delete want[$0] }
	END { for (w in want) exit 1 }' - "$file"
}
check "-n: says both commands and the seeds" has_lines "$tmp/n3" \
	'before: scan -c 0.01 --thp=never' 'after:  scan -c 0.01 --access=write' \
	'3 runs a side, interleaved, a seed a pair: 101 103 105' 
check "-n: nothing on stderr" [ ! -s "$tmp/n3.err" ]
check "-n: the table of the 3 runs a side" \
	grep -q '^ListLRU  *0.01  43.0 (41.0-45.0, 3 runs)  44.0 (42.0-46.0, 3 runs)  *+2.3%  no change detected (90%: ' "$tmp/n3"
: >"$tmp/fake.log"
SCAN="$tmp/fake-scan" scripts/compare.sh -n 3 -s 7 -- -- >"$tmp/n3s" 2>&1
seeds_kept() {
	[ "$(grep -c -- '^-s 7 --format=csv$' "$tmp/fake.log")" -eq 6 ] && grep -q 'seeds as given' "$tmp/n3s"
}
check "-n: a seed given is kept, both sides empty" seeds_kept
# the footnote: scan's codes from the CSVs, a line each, its text from
# stderr, how many runs of each side gave it
scripts/compare.sh -n 3 -c 0.01 -r 2 -- -- --memmap-thp=never >"$tmp/foot" 2>"$tmp/foot.err"
check "-n: a footnote of scan's warnings, a line a code, runs a side" \
	sh -c "grep -q '^scan warned:\$' '$tmp/foot' &&
	! sed '1,/^scan warned/d' '$tmp/foot' | grep -Evq '^  [a-z-]+ in [0-3] of 3 runs before, [0-3] of 3 after(: .*)?\$'"
"$SCAN" -c 0.01 -r 2 -s 1 --format=csv -q >"$tmp/w1.csv"
"$SCAN" -c 0.01 -r 2 -s 2 --format=csv -q >"$tmp/w2.csv"
if [ "$(csv_col "$tmp/w1.csv" cache_sized | head -n 1)" = 1 ]; then
	check "-n: the cache-sized footnote, its line from scan" \
		grep -q '^  cache-sized in 3 of 3 runs before, 3 of 3 after: memmap < 4x LLC .*; use -c ' "$tmp/foot"
else
	skip "-n: the cache-sized footnote" "-c 0.01 is not cache-sized to this scan"
fi
scripts/compare.sh "$tmp/w1.csv" "$tmp/w2.csv" 2>/dev/null | sed '1,/^scan warned/d' |
	awk '{ print $1 }' | sort >"$tmp/foot-codes"
{ csv_col "$tmp/w1.csv" warnings; csv_col "$tmp/w2.csv" warnings; } | tr ' ' '\n' |
	sed '/^$/d' | sort -u >"$tmp/csv-codes"
check "files: the footnote's codes are the CSVs' warnings columns'" cmp -s "$tmp/foot-codes" "$tmp/csv-codes"
run -c 0.01 -r 1 -q	# so a failing check below shows the real scan
scripts/compare.sh -n 3 -c 0.01 -r 1 -q -- -- --access=write >"$tmp/real" 2>"$tmp/real.err"
rc=$?
with_scan() {
	[ "$rc" -eq 0 ] && grep -Eq '^ListLRU .*3 runs\).*3 runs\)' "$tmp/real" && grep -q '^ArrayLRU ' "$tmp/real"
}
check "-n: with scan itself, a row per walk" with_scan
printf '#!/bin/sh\necho "scan: -c abc: not a number" >&2\nexit 2\n' >"$tmp/bad-scan"
chmod +x "$tmp/bad-scan"
SCAN="$tmp/bad-scan" scripts/compare.sh -n 3 -c abc -- -- >"$tmp/nf" 2>"$tmp/nf.err"
rc=$?
stopped() {
	nlines "$tmp/nf.err" && [ "$count" -eq 1 ] &&
		refused_with "$tmp/nf" "$tmp/nf.err" '.*bad-scan -c abc --format=csv failed: scan: -c abc: not a number.*'
}
check "-n: a scan that fails stops it, exit 1, with scan's message" stopped

# --- usage errors: exit 2, one line or the usage, nothing on stdout --------
cmp_usage() {
	scripts/compare.sh "$@" >"$tmp/uout" 2>"$tmp/uerr"
	[ $? -eq 2 ] && [ ! -s "$tmp/uout" ] && [ -s "$tmp/uerr" ]
}
check "usage: no arguments" cmp_usage
check "usage: one file" cmp_usage "$tmp/one.csv"
check "usage: three files without --" cmp_usage "$tmp/one.csv" "$tmp/one.csv" "$tmp/one.csv"
check "usage: nothing after --" cmp_usage "$tmp/one.csv" --
check "usage: -n 0" cmp_usage -n 0 -- --
check "usage: -n abc" cmp_usage -n abc -- --
check "usage: -n without two --" cmp_usage -n 3 -c 0.01 -- --thp=never
check "usage: -n with --format" cmp_usage -n 3 --format=json -- --
check "usage: three --" cmp_usage -n 3 -- -- -- x
scripts/compare.sh -h >"$tmp/help"
check "-h: the synopsis, exit 0" grep -q 'compare.sh \[-v\] -n N \[SCAN_OPTION...\] -- \[BEFORE_OPTION...\] -- \[AFTER_OPTION...\]' "$tmp/help"

# --- bad CSVs: exit 1 with one line naming the file (and row) -------------
# one_line_error REGEX FILE: compare.sh one.csv FILE exits 1 with nothing
# on stdout and one line on stderr that matches REGEX.
one_line_error() {
	scripts/compare.sh "$tmp/one.csv" "$2" >"$tmp/eout" 2>"$tmp/eerr"
	[ $? -eq 1 ] && [ ! -s "$tmp/eout" ] && nlines "$tmp/eerr" && [ "$count" -eq 1 ] &&
		grep -Eq "$1" "$tmp/eerr"
}
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) if ($i == "speedup") c = i }
	{ out = ""; for (i = 1; i <= NF; i++) if (i != c) out = out (out == "" ? "" : ",") $i; print out }' \
	"$tmp/one.csv" >"$tmp/nospeedup.csv"
check "bad csv: no speedup column" one_line_error 'nospeedup.csv: no speedup column' "$tmp/nospeedup.csv"
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 3 { $c["speedup"] = "fast" } { print }' \
	"$tmp/one.csv" >"$tmp/text.csv"
check "bad csv: a text speedup, named with its row" \
	one_line_error 'text.csv: row 3: speedup "fast" is not a positive number' "$tmp/text.csv"
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 3 { $c["speedup"] = "-4" } { print }' \
	"$tmp/one.csv" >"$tmp/neg.csv"
check "bad csv: a negative speedup" one_line_error 'neg.csv: row 3: speedup "-4"' "$tmp/neg.csv"
awk 'NR == 4 { sub(/,[^,]*$/, "") } { print }' "$tmp/one.csv" >"$tmp/ragged.csv"
check "bad csv: a ragged row, named" one_line_error 'ragged.csv: row 4 has [0-9]+ fields, the header [0-9]+$' "$tmp/ragged.csv"
{ cat "$tmp/one.csv"; cat "$tmp/one.csv"; } >"$tmp/joined.csv"
check "bad csv: a header repeated (two CSVs joined)" \
	one_line_error 'joined.csv: row 8 repeats the header' "$tmp/joined.csv"
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 6 { $c["speedup_q3"] = "1.2.3" } { print }' \
	"$tmp/one.csv" >"$tmp/q3.csv"
check "bad csv: text in a quartile" one_line_error 'q3.csv: row 6: speedup_q3 "1.2.3" is not a number' "$tmp/q3.csv"
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 3 { $c["label"] = "" } { print }' \
	"$tmp/one.csv" >"$tmp/nolabel.csv"
check "bad csv: an empty label" one_line_error 'nolabel.csv: row 3: no label$' "$tmp/nolabel.csv"
echo 'hello,world' >"$tmp/other.csv"
check "bad csv: another program's CSV" one_line_error 'other.csv: no label column' "$tmp/other.csv"
: >"$tmp/zero.csv"
check "bad csv: an empty file" one_line_error 'zero.csv is empty' "$tmp/zero.csv"
check "bad csv: a missing file" one_line_error 'cannot read .*/missing.csv' "$tmp/missing.csv"
sed 's/$/\r/' "$tmp/one.csv" >"$tmp/crlf.csv"
scripts/compare.sh "$tmp/one.csv" "$tmp/crlf.csv" >"$tmp/crlf" 2>&1
check "csv with CR LF line ends reads as the same" [ "$(grep -c '+0.0%  noise$' "$tmp/crlf")" -eq 10 ]

# --- mutated CSVs: exit 0 with a sane table, or exit 1 with one line -------
# Each mutant of one.csv (seeded, so a failure can be replayed: rows cut,
# a column dropped, the header repeated, text in a field, a row or the
# file cut short, two header names swapped) goes after one.csv, under a
# timeout and a memory limit.
mutate() {
	awk -F, -v seed="$1" 'BEGIN { OFS = ","; srand(seed); kind = seed % 7 }
	{ line[NR] = $0 }
	END {
		r = 2 + int(rand() * (NR - 1))
		col = 1 + int(rand() * split(line[1], h, ","))
		for (i = 1; i <= NR; i++) {
			$0 = line[i]
			if (kind == 0 && i == r) continue
			if (kind == 1) {	# the column col dropped
				out = ""
				for (k = 1; k <= NF; k++)
					if (k != col)
						out = out (out == "" ? "" : ",") $k
				$0 = out
			}
			if (kind == 2 && i == r) print line[1]
			if (kind == 3 && i == r) $col = "x" seed
			if (kind == 4 && i == r) $0 = substr($0, 1, int(rand() * length($0)))
			if (kind == 5 && i == 1) { t = $col; $col = $(col % NF + 1); $(col % NF + 1) = t }
			if (kind == 6 && i == r) $col = "1e999"
			print
		}
	}' "$tmp/one.csv"
}
# sane: a table with a row per walk and no nan, inf or -100.0%
sane() {
	awk '/^walk / { head = 1 } /^[A-Za-z]+ / { row = 1 } tolower($0) ~ /nan|inf|-100\.0%/ { bad = 1 }
	END { exit !(head && row && !bad) }' "$1"
}
mutant_ok() {
	mutate "$1" >"$tmp/m$1.csv"
	# shellcheck disable=SC3045 # dash, bash and BusyBox have ulimit -v; else unlimited
	(ulimit -v 262144 2>/dev/null; timeout 20 sh scripts/compare.sh "$tmp/one.csv" "$tmp/m$1.csv") \
		>"$tmp/mout" 2>"$tmp/merr"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		sane "$tmp/mout"
	else
		[ "$rc" -eq 1 ] && [ ! -s "$tmp/mout" ] && nlines "$tmp/merr" && [ "$count" -eq 1 ]
	fi
}
seed=1
while [ $seed -le 14 ]; do
	check "mutant $seed (kind $((seed % 7)))" mutant_ok $seed
	seed=$((seed + 1))
done

# (installed, scan-compare finds stats.awk: t-install.sh, which installs)

# --- the man page: lints clean, the synopsis of -h, every option -----------
if have groff; then
	groff -man -ww -z scripts/scan-compare.1 >"$tmp/lint" 2>&1
	check "scan-compare.1: groff -man -ww finds nothing" [ ! -s "$tmp/lint" ]
	groff -man -Tascii -rLL=250n -P-cbou scripts/scan-compare.1 2>/dev/null |
		sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d; $d; s/^ *//; /^$/d' |
		tr -s ' ' >"$tmp/man-synopsis"
	scripts/compare.sh -h | sed -n 's|^\(usage:\)\{0,1\} *scripts/compare.sh|scan-compare|p' |
		tr -s ' ' >"$tmp/h-synopsis"
	check "scan-compare.1: the synopsis of -h" cmp -s "$tmp/man-synopsis" "$tmp/h-synopsis"
else
	skip "scan-compare.1: lint and synopsis" "no groff"
fi
# the options of -h's synopsis, each with a .TP entry (.B \-v or .BI \-n " N")
scripts/compare.sh -h | sed -n 's/^usage://p; s/^       //p' | tr ' ' '\n' |
	sed -n 's/^\[\{0,1\}\(-[a-z]\)\]\{0,1\}$/\1/p' | sort -u >"$tmp/h-opts"
awk 'prev == ".TP" && /^\.B[IR]? \\-[a-z]/ { print substr($2, 2, 2) } { prev = $0 }' \
	scripts/scan-compare.1 | sort -u >"$tmp/man-opts"
check "scan-compare.1: an entry for every option of -h" \
	sh -c "[ -s '$tmp/h-opts' ] && cmp -s '$tmp/h-opts' '$tmp/man-opts'"

# probes: usage errors in one line; FIFOs, directories and huge files
# refused before awk reads them; a full stdout is an error
one_line() {	# one_line STATUS CMD...: STATUS, one line on stderr, no stdout
	want=$1
	shift
	"$@" >"$tmp/p.out" 2>"$tmp/p.err"
	[ $? -eq "$want" ] && [ ! -s "$tmp/p.out" ] && nlines "$tmp/p.err" && [ "$count" -eq 1 ]
}
./scan -c 0.01 -r 3 -s 1 --format=csv >"$tmp/p1.csv" 2>/dev/null
check "compare: -n without a value, one line, exit 2" one_line 2 scripts/compare.sh -n
check "compare: one CSV, one line, exit 2" one_line 2 scripts/compare.sh "$tmp/p1.csv"
check "compare: -n of 20 digits, one line, exit 2" one_line 2 scripts/compare.sh -n 99999999999999999999 -- --
check "compare: a directory, one line, exit 1" one_line 1 scripts/compare.sh "$tmp/p1.csv" "$tmp"
mkfifo "$tmp/p.fifo"
check "compare: a FIFO refused, no hang" one_line 1 timeout 10 scripts/compare.sh "$tmp/p.fifo" "$tmp/p1.csv"
check "compare: scan's usage error, one line, exit 1" one_line 1 scripts/compare.sh -n 1 -c 0.01 -- --bogus --
# shellcheck disable=SC2016 # $1 is the inner shell's
check "compare: stdout full, exit 1" sh -c 'scripts/compare.sh "$1" "$1" >/dev/full 2>/dev/null; [ $? -eq 1 ]' sh "$tmp/p1.csv"
