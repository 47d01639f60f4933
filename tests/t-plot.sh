#!/bin/sh
# plot.sh: scan's CSV as an SVG chart; bad CSVs stop it with one line
# naming the file and the line.  Tiny sizes; nothing here asserts a speed.
. tests/lib.sh
lib=$(cat scripts/lib.awk)	# csv_header, csv_field: columns by name

scripts/sweep.sh -o "$tmp/sweep.csv" -r 1 0.01 0.02 >/dev/null 2>&1 ||
	echo "# sweep.sh failed: the checks below have no CSV"

# plot: valid SVG with the data drawn
scripts/plot.sh "$tmp/sweep.csv" >"$tmp/plot.svg"
check "plot: exit 0" [ $? -eq 0 ]
if have python3; then
	check "plot: valid XML" python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/plot.svg"
elif have xmllint; then
	check "plot: valid XML" xmllint --noout "$tmp/plot.svg"
else
	skip "plot: valid XML" "neither python3 nor xmllint"
fi
check "plot: a line per walk" [ "$(grep -c '<polyline' "$tmp/plot.svg")" -eq 2 ]
check "plot: a point per walk and size" [ "$(grep -c '<circle.*<title>' "$tmp/plot.svg")" -eq 4 ]
check "plot: legend" grep -q '>ListLRU</text>' "$tmp/plot.svg"
check "plot: axis labels" grep -q '>simulated memory (log scale)<' "$tmp/plot.svg"
check "plot: ratios on a log axis" grep -q '>times faster: Physical over each walk (log scale)<' "$tmp/plot.svg"
check "plot: the 1x line, marked" \
	sh -c "grep -q 'stroke-dasharray' '$tmp/plot.svg' && grep -q '>walk wins above<' '$tmp/plot.svg'"
check "plot: the machine in the title" grep -q "$(uname -r)" "$tmp/plot.svg"
check "plot: scan's version in the subtitle" grep -q ">scan $("$SCAN" -V | sed 's/^scan //'), memmap THP " "$tmp/plot.svg"
# title_has SVG REGEX: the SVG's text lines, joined as one reads them
# (a long identity wraps), match the extended REGEX.
title_has() {
	tr -d '\n' <"$1" | sed 's|</text><text[^>]*>| |g' | grep -Eq -- "$2"
}
check "plot: the machine's identity under it (RAM, as any scan has)" \
	title_has "$tmp/plot.svg" '(>| )machine: .*[0-9.]+ [KMGT]iB RAM'

# ticks: the data's ends labelled, nothing outside them (10,000 and
# 20,000 pages: 39.1 and 78.1 MiB)
check "plot: the ends of the data labelled" \
	sh -c "grep -q '>39.1 MiB</text>' '$tmp/plot.svg' && grep -q '>78.1 MiB</text>' '$tmp/plot.svg'"
check "plot: no x tick outside the data" \
	sh -c "! grep -E '>(16|32|128|256) MiB</text>' '$tmp/plot.svg' | grep -q ."
# hollow where cache-sized, bars from the quartiles, in an edited copy
# shellcheck disable=SC2016 # awk programs
awk -F, -v OFS=, "$lib"'NR == 1 { csv_header(); print; next }
	{ $csv_col["cache_sized"] = csv_field("pages") == 10000; $csv_col["speedup_q1"] = csv_field("speedup") * 0.9
	  $csv_col["speedup_q3"] = csv_field("speedup") * 1.1; print }' "$tmp/sweep.csv" >"$tmp/edited.csv"
scripts/plot.sh "$tmp/edited.csv" >"$tmp/edited.svg"
check "plot: cache-sized points hollow, with a legend entry" \
	sh -c "[ \$(grep -c '<circle[^>]*fill=\"white\".*<title>' '$tmp/edited.svg') -eq 2 ] && grep -q '>the LLC: cache-sized<' '$tmp/edited.svg'"
check "plot: a bar a point from the quartiles" \
	sh -c "[ \$(grep -c '<path d=\"M' '$tmp/edited.svg') -eq 4 ] && grep -q '>bars: quartiles over rounds<' '$tmp/edited.svg'"
# a narrow range of ratios (0.85 to 0.95, and the 1x line) still gets
# round ticks between its ends
# shellcheck disable=SC2016
awk -F, -v OFS=, "$lib"'NR == 1 { csv_header(); print; next }
	csv_field("walk") != "physical" { $csv_col["speedup"] = csv_field("pages") == 10000 ? 0.85 : 0.95
	  $csv_col["speedup_q1"] = $csv_col["speedup_q3"] = csv_field("speedup") } { print }' "$tmp/sweep.csv" >"$tmp/narrow.csv"
scripts/plot.sh "$tmp/narrow.csv" >"$tmp/narrow.svg"
check "plot: a narrow log range gets round ticks between its ends" \
	sh -c "grep -q 'text-anchor=\"end\">0.9</text>' '$tmp/narrow.svg' && grep -q 'text-anchor=\"end\">0.95</text>' '$tmp/narrow.svg'"
for f in 0.3 1; do
	"$SCAN" -c 0.01 -r 1 --format=csv --lists=2 --lru-fraction=$f 2>/dev/null
done | awk 'NR == 1 || !/^walk,/' >"$tmp/knob.csv"
scripts/plot.sh --x lru_fraction "$tmp/knob.csv" >"$tmp/knob.svg"
check "plot --x lru_fraction: a human axis label" grep -q '>share of pages on the LRU<' "$tmp/knob.svg"
check "plot --x lru_fraction: the shared options in the subtitle" grep -q '>options: --lists=2<' "$tmp/knob.svg"
scripts/plot.sh --x nosuchcolumn "$tmp/knob.csv" >/dev/null 2>&1
check "plot --x with a missing column: exit 1" [ $? -eq 1 ]
# an awk without math (Debian's BusyBox awk): a message, no half SVG
printf '#!/bin/sh\necho "awk: cmd. line:1: Math support is not compiled in" >&2\nexit 1\n' >"$tmp/nomath"
chmod +x "$tmp/nomath"
AWK="$tmp/nomath" scripts/plot.sh "$tmp/sweep.csv" >"$tmp/nomath.svg" 2>"$tmp/nomath.err"
check "plot under an awk without math: exit 1, a message, no output" \
	sh -c "[ $? -eq 1 ] && grep -q '^plot.sh: .* has no math' '$tmp/nomath.err' && [ ! -s '$tmp/nomath.svg' ]"
if have busybox && busybox awk 'BEGIN { }' 2>/dev/null; then
	AWK="busybox awk" scripts/plot.sh "$tmp/sweep.csv" >"$tmp/bb.svg" 2>"$tmp/bb.err"
	check "plot under BusyBox awk: a whole SVG or a clear error" \
		sh -c "grep -q '</svg>' '$tmp/bb.svg' || { grep -q 'has no math' '$tmp/bb.err' && [ ! -s '$tmp/bb.svg' ]; }"
else
	skip "plot under BusyBox awk" "no busybox"
fi

# Bad CSVs (issue 23 item 11): exit 1, nothing on stdout, one line on
# stderr naming the file and the line; under a memory limit and a
# timeout, so a runaway awk fails the check instead of the machine.
# edit FILE COLUMN VALUE: FILE is sweep.csv with COLUMN set to VALUE on
# its second row
edit() {
	# shellcheck disable=SC2016
	awk -F, -v OFS=, -v col="$2" -v val="$3" "$lib"'NR == 1 { csv_header() }
		NR == 3 { $csv_col[col] = val } { print }' "$tmp/sweep.csv" >"$tmp/$1"
}
# refused FILE LINE: plot.sh FILE failed as it must, naming LINE
refused() {
	# shellcheck disable=SC3045 # ulimit -v: dash, bash and BusyBox sh have it
	( ulimit -v 200000; timeout 10 scripts/plot.sh "$tmp/$1" ) >"$tmp/bad.svg" 2>"$tmp/bad.err"
	rc=$?
	[ "$rc" -eq 1 ] && [ ! -s "$tmp/bad.svg" ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] &&
		grep -q "^plot.sh: $tmp/$1 ${2:+line $2: }" "$tmp/bad.err"
}
cat "$tmp/sweep.csv" "$tmp/sweep.csv" >"$tmp/joined.csv"
check "plot: two CSVs joined with cat: the second header named" refused joined.csv 8
edit q3.csv speedup_q3 speedup_q3
check "plot: a text speedup_q3: refused, bounded" refused q3.csv 3
edit text.csv speedup abc
check "plot: a text speedup: refused" refused text.csv 3
edit zero.csv speedup 0
check "plot: a 0 speedup: refused" refused zero.csv 3
edit neg.csv speedup_min -2
check "plot: a negative speedup_min: refused" refused neg.csv 3
edit nan.csv speedup nan
check "plot: nan: refused" refused nan.csv 3
edit huge.csv speedup 1e999
check "plot: 1e999 (infinite in awk): refused" refused huge.csv 3
edit mem.csv memory_bytes 0
check "plot: a 0 on the log memory axis: refused" refused mem.csv 3
edit label.csv label ""
check "plot: an empty label: refused" refused label.csv 3
awk 'NR == 4 { $0 = $0 ",extra" } { print }' "$tmp/sweep.csv" >"$tmp/ragged.csv"
check "plot: a ragged row: refused" refused ragged.csv 4
cut -d, -f2 --complement "$tmp/sweep.csv" >"$tmp/nolabel.csv"
check "plot: no label column: refused" refused nolabel.csv
check "plot: no label column: the column named" grep -q 'has no column label' "$tmp/bad.err"
printf 'a,b,c\n1,2,3\n' >"$tmp/other.csv"
check "plot: another program's CSV: refused" refused other.csv
head -n 1 "$tmp/sweep.csv" >"$tmp/header.csv"
check "plot: a header and no rows: refused" refused header.csv
: >"$tmp/empty.csv"
check "plot: an empty file: refused" refused empty.csv

# Several runs (processes) at a point: the median, bars over the runs
awk -F, -v OFS=, 'NR == 1 { print $0, "run"; next } { for (r = 1; r <= 3; r++) print $0, r }' \
	"$tmp/sweep.csv" >"$tmp/runs.csv"
scripts/plot.sh "$tmp/runs.csv" >"$tmp/runs.svg"
check "plot -n style CSV: a point a walk and size, not a run" \
	[ "$(grep -c '<circle.*<title>' "$tmp/runs.svg")" -eq 4 ]
check "plot -n style CSV: bars over the runs, said in the legend" \
	grep -q '>bars: range over 3 runs<' "$tmp/runs.svg"
# identity columns, where a scan has them, in the title's second line;
# the LLC set to 32 MiB, as this host's may be unknown (qemu-user)
# shellcheck disable=SC2016
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "llc_bytes") llc = i
		print $0, "cpu_vendor", "cpu_family", "cpu_model", "hypervisor", "llc_from", "host_id"; next }
	{ if (llc) $llc = 33554432; print $0, "AuthenticAMD", 25, 17, "KVM", "getconf", "3fa2b1c0" }' "$tmp/sweep.csv" >"$tmp/ids.csv"
scripts/plot.sh "$tmp/ids.csv" >"$tmp/ids.svg"
check "plot: the identity fields a CSV has, in the title" \
	title_has "$tmp/ids.svg" '(>| )machine: AuthenticAMD family 25 model 17( stepping [0-9]+)?, KVM,.* LLC [0-9.]+ MiB \(getconf\), .*host 3fa2b1c0,'

# the man pages of plot, sweep and explain: groff-clean, every option of
# -h's synopsis on the page
for s in plot sweep explain; do
	page=scripts/scan-$s.1
	if have groff; then
		check "scan-$s.1: groff -man -ww finds nothing" \
			sh -c "[ -z \"\$(groff -man -ww -z '$page' 2>&1)\" ]"
	else
		skip "scan-$s.1: groff lint" "no groff"
	fi
	opts=$(scripts/$s.sh -h | sed -n '/^usage:/,/^$/p' | grep -Eo -- '--?[a-z][a-z-]*' | sort -u)
	missing=""
	for o in $opts; do
		grep -q -- "$(echo "$o" | sed 's/-/\\\\-/g')" "$page" || missing="$missing $o"
	done
	check "scan-$s.1: every option of the synopsis on the page" [ -z "$missing" ]
done

# probes: one line and the documented status, never a hang on a FIFO or
# a device, never exit 0 when stdout cannot take the SVG
one_line() {	# one_line STATUS CMD...: STATUS, one line on stderr, no stdout
	want=$1
	shift
	"$@" >"$tmp/p.out" 2>"$tmp/p.err"
	[ $? -eq "$want" ] && [ ! -s "$tmp/p.out" ] && [ "$(wc -l <"$tmp/p.err")" -eq 1 ]
}
check "plot: --x without a column, one line, exit 2" one_line 2 scripts/plot.sh --x
check "plot: no CSV, one line, exit 2" one_line 2 scripts/plot.sh
check "plot: a stray argument, one line, exit 2" one_line 2 scripts/plot.sh "$tmp/sweep.csv" stray
check "plot: a directory, one line, exit 1" one_line 1 scripts/plot.sh "$tmp"
check "plot: /dev/zero refused, no hang" one_line 1 timeout 10 scripts/plot.sh /dev/zero
# shellcheck disable=SC2016 # $1 is the inner shell's
check "plot: stdout full, exit 1" sh -c 'scripts/plot.sh "$1" >/dev/full 2>/dev/null; [ $? -eq 1 ]' sh "$tmp/sweep.csv"
# shellcheck disable=SC2016
check "plot: stdout closed, exit 1" sh -c 'scripts/plot.sh "$1" >&- 2>/dev/null; [ $? -eq 1 ]' sh "$tmp/sweep.csv"

# large, close x values: the clock's seeds near 1.8e18 (two 3.3e8 apart,
# two an ulp apart, all one) and ratios an ulp apart are drawn, every
# position a number (they were -nan: x +- 1 is x there, and awk's
# subscripts in 6 digits made two seeds one point), the ends told apart
# (seed: scan's column, one value a run; the sweep gave 3 rows a size)
seeds() {	# seeds FILE S1 S2: the sweep's CSV, its two sizes' seeds S1, S2
	awk -F, -v OFS=, -v s1="$2" -v s2="$3" -f scripts/lib.awk -f /dev/stdin "$tmp/sweep.csv" >"$tmp/$1" <<'AWK'
NR == 1 { csv_header(); print; next }
{ $csv_col["seed"] = csv_field("memory_bytes") < 50000000 ? s1 : s2; print }
AWK
}
# drawn FILE POINTS: plot.sh draws FILE, exit 0, every coordinate a
# number, POINTS points
drawn() {
	timeout 10 scripts/plot.sh --x seed "$tmp/$1" >"$tmp/close.svg" 2>"$tmp/close.err" &&
		! grep -Eq '="[^"0-9]*(nan|inf)' "$tmp/close.svg" && xml_ok "$tmp/close.svg" &&
		[ "$(grep -c '<circle.*<title>' "$tmp/close.svg")" -eq "$2" ]
}
seeds close.csv 1796470412249192335 1796470412582471901
check "plot: --x seed, two seeds near 1.8e18: drawn, two points a walk" drawn close.csv 4
check "plot: --x seed, two seeds near 1.8e18: the ends labelled apart" \
	sh -c "grep -q '>1.796470412e+18<' '$tmp/close.svg' && grep -q '>1.796470413e+18<' '$tmp/close.svg'"
seeds ulp.csv 1796470412249192128 1796470412249192384
check "plot: --x seed, two seeds an ulp apart: drawn" drawn ulp.csv 4
seeds one.csv 1796470412249192335 1796470412249192335
check "plot: --x seed, one seed near 1.8e18: drawn, a point a walk" drawn one.csv 2
awk -F, -v OFS=, -f scripts/lib.awk -f /dev/stdin "$tmp/sweep.csv" >"$tmp/yulp.csv" <<'AWK'
NR == 1 { csv_header(); print; next }
{ for (c in csv_col) if (c ~ /^speedup/) $csv_col[c] = NR % 2 ? "2" : "2.0000000000000004"; print }
AWK
check "plot: ratios an ulp apart: drawn" sh -c "scripts/plot.sh '$tmp/yulp.csv' >'$tmp/yulp.svg' && ! grep -q nan '$tmp/yulp.svg'"

# --x young: the PageTable walk's ratio against the young share, from a
# young sweep's CSV; its knobs the rows share join the options line
scripts/sweep.sh --axis=young -c 0.01 -r 1 -o "$tmp/young.csv" 0.01 0.1 1 >/dev/null 2>&1 ||
	echo "# sweep.sh --axis=young failed: the checks below have no CSV"
scripts/plot.sh --x young "$tmp/young.csv" >"$tmp/young.svg"
check "plot --x young: exit 0, a line per walk, a point per walk and share" \
	sh -c "[ $? -eq 0 ] && [ \$(grep -c '<polyline' '$tmp/young.svg') -eq 2 ] && [ \$(grep -c '<circle.*<title>' '$tmp/young.svg') -eq 6 ]"
check "plot --x young: the PageTable walk drawn, the axis named" \
	sh -c "grep -q '>PageTable</text>' '$tmp/young.svg' && grep -q '>share of mapped PTEs young (--young) (log scale)<' '$tmp/young.svg'"
"$SCAN" -c 0.01 -r 1 --walks=pagetable --mapped=0.5 --pte-adjacent=0.25 --format=csv >"$tmp/knobs.csv" 2>/dev/null
check "plot: the PageTable knobs the rows share, other than the defaults, as options" \
	sh -c "scripts/plot.sh '$tmp/knobs.csv' | tr -d '\\n' | sed 's|</text><text[^>]*>| |g' | grep -q 'options: --mapped=0.5 --pte-adjacent=0.25'"
"$SCAN" -c 0.01 -r 1 --young=0.5 --format=csv >"$tmp/nopt.csv" 2>/dev/null
check "plot: without the PageTable walk, its knobs are not options" \
	sh -c "! scripts/plot.sh '$tmp/nopt.csv' | grep -q -- '--young='"

# a young sweep of seven shares: a tick label at every share (round
# ticks labelled four of seven: 0.02, 0.1 and 0.5 had none), and the
# points of a run scan flagged disturbed ringed, with a legend line.
# The rows of young.csv's first share, copied to each share; the
# ListLRU row at 0.1 flagged, and the physical row at 0.5 (a ratio is
# disturbed where either walk was).
# shellcheck disable=SC2016
awk -F, -v OFS=, -f scripts/lib.awk -f /dev/stdin "$tmp/young.csv" >"$tmp/young7.csv" <<'AWK'
NR == 1 { csv_header(); print; next }
FNR <= 4 && csv_field("run") <= 1 { row[++n] = $0 }
END {
	split("0.01 0.02 0.05 0.1 0.2 0.5 1", share, " ")
	for (s = 1; s <= 7; s++)
		for (i = 1; i <= n; i++) {
			$0 = row[i]
			$csv_col["young"] = share[s]
			w = $csv_col["walk"]
			# the sweep's own flags gone: only these two are
			gsub(/ ?disturbed/, "", $csv_col["warnings"])
			if ((share[s] == 0.1 && w == "list") || (share[s] == 0.5 && w == "physical"))
				$csv_col["warnings"] = $csv_col["warnings"] " disturbed"
			print
		}
}
AWK
scripts/plot.sh --x young "$tmp/young7.csv" >"$tmp/young7.svg"
missing=""
for s in 0.01 0.02 0.05 0.1 0.2 0.5 1; do
	grep -q "text-anchor=\"middle\">$s</text>" "$tmp/young7.svg" || missing="$missing $s"
done
check "plot --x young, seven shares: a tick label at each (missing:${missing:- none})" [ -z "$missing" ]
check "plot: disturbed points ringed: ListLRU at 0.1, both walks at 0.5" \
	sh -c "[ \$(grep -c 'r=\"8\" fill=\"none\" stroke=\"black\" stroke-dasharray' '$tmp/young7.svg') -eq 4 ] &&
		grep -q '<title>ListLRU: .* at 0.1, disturbed</title>' '$tmp/young7.svg' &&
		! grep -q '<title>PageTable: .* at 0.1, disturbed</title>' '$tmp/young7.svg' &&
		grep -q '<title>PageTable: .* at 0.5, disturbed</title>' '$tmp/young7.svg'"
check "plot: disturbed points have a legend line" grep -q '>disturbed: other work</text>' "$tmp/young7.svg"
sed 's/ disturbed//g' "$tmp/young7.csv" >"$tmp/calm.csv"
scripts/plot.sh --x young "$tmp/calm.csv" >"$tmp/calm.svg"
check "plot: no disturbed ring nor legend where no run was" \
	sh -c "grep -q '</svg>' '$tmp/calm.svg' && ! grep -q 'disturbed' '$tmp/calm.svg'"
