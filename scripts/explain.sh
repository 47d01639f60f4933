#!/bin/sh
#/ explain.sh - the way from the original's ratios to the kernel's, one
#/ knob at a time.
#/
#/ usage: scripts/explain.sh [-h] [-c N] [-n N] [-o FILE.csv] [-g FILE.svg]
#/                           [SCAN_OPTION...]
#/
#/ Runs scan once per step, each step adding one thing to the last:
#/
#/   1 original            --original, the 2023 protocol
#/   2 rounds/cold cache   scan's protocol (--thp=system)
#/   3 2 MiB memmap        the defaults
#/   4 LRU share/layout    + --lru-fraction and --non-lru
#/   5 folio mix           + --folios
#/   6 locality            + --locality
#/   7 lists/chunks        + --lists and --chunk
#/   8 isolate             + --access
#/   9 rmap (kernel-like)  + --rmap: every --kernel-like value
#/  10 real memmap         with --memmap-from=FILE: the file's layout
#/                         with the preset's LRU order and work
#/  11 memcg target        with --memcg-share=F: + a memcg holding F of
#/                         the LRU folios, as memcg limit reclaim sees it;
#/                         or with --memcg=INODE [--memcg-from=FILE] and
#/                         --memmap-from, that memcg of the file
#/
#/ The values are --kernel-like's, read from scan itself (-v).  Prints a
#/ table within 72 columns: both ratios, their range over rounds and the
#/ change from the step before; a ! after a step's name marks scan's warnings, listed
#/ under the table with the steps that had them.  -c is scan's size
#/ (default 4); with --memmap-from, every step runs the file's size
#/ (its pfns, or --pfns's count), and a -c that differs is refused.
#/ -n N runs N processes a step, interleaved (every step once, then
#/ again): the table gives their median and range, the CSV a run column
#/ (1..N).  -o keeps every step's CSV rows (a step column first, and the
#/ step's warning count); -g draws an SVG waterfall of the ListLRU and
#/ ArrayLRU ratios, log axis, 1x marked, the machine in its title.  Both
#/ are checked before the first run and written whole or not at all.
#/ Further options go to every step, after explain.sh's own (e.g. -s 5,
#/ -t 2; not those --original refuses, such as -r).  --memcg=INODE needs
#/ --memmap-from (scan says why when it refuses a step).  SCAN names the
#/ binary (default ./scan).
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

size=4 sized="" runs=1 csv="" svg="" file="" memcg=""
need_arg() {	# need_arg OPTION COUNT: the option has its value
	[ "$2" -ge 2 ] || usage_error "$1 needs a value"
}
decimal() {	# decimal OPTION VALUE: a positive decimal, nine digits before the point
	if ! echo "$2" | grep -Eq '^([0-9]{1,9}(\.[0-9]*)?|\.[0-9]+)$' || ! echo "$2" | grep -q '[1-9]'; then
		usage_error "$1 '$2': give a positive decimal, millions of pages (e.g. 0.5)"
	fi
}
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-c) need_arg "$1" $#; decimal -c "$2"; size=$2 sized=1; shift ;;
	-n) need_arg "$1" $#; whole -n "$2"; runs=$2; shift ;;
	-o) need_arg "$1" $#; csv=$2; shift; [ -n "$csv" ] || usage_error "-o '': give a file name" ;;
	-g) need_arg "$1" $#; svg=$2; shift; [ -n "$svg" ] || usage_error "-g '': give a file name" ;;
	--memmap-from=?*) file=${1#--memmap-from=} ;;
	--memcg-share=?* | --memcg=?* | --memcg-from=?*) memcg="$memcg $1" ;;
	*) break ;;
	esac
	shift
done
need_scan explain.sh
[ -z "$svg" ] || need_math explain.sh	# before the runs, not after
[ -z "$csv" ] || output_ok "$csv"
[ -z "$svg" ] || output_ok "$svg"
scratch

# said FILE: what a failed scan said, or that it said nothing
said() {
	line=$(grep -m 1 '^scan: ' "$1" || grep -m 1 . "$1" || true)
	echo "${line:-it printed nothing (exit status $rc)}"
}

# --kernel-like's values, as scan applies them
rc=0
"$scan" -c 0.001 -r 1 --kernel-like -v "$@" >"$tmp/preset" 2>&1 || rc=$?
# exit 2 there is scan refusing the options given: a usage error here too
[ "$rc" -ne 2 ] || usage_error "scan refused the options: $(said "$tmp/preset")"
[ "$rc" -eq 0 ] || {
	echo "explain.sh: scan --kernel-like -v failed: $(said "$tmp/preset")" >&2
	exit 1
}
preset=$(sed -n 's/^--kernel-like set: //p' "$tmp/preset")
knob() {	# knob NAME...: the preset's --NAME=VALUE words
	for name in "$@"; do
		for word in $preset; do
			case $word in --"$name"=*) printf ' %s' "$word" ;; esac
		done
	done
}

# The steps, a line each: number|name|options.
steps="$tmp/steps"
{
	echo "1|original|--original"
	echo "2|rounds/cold cache|--thp=system"
	echo "3|2 MiB memmap|"
	# steps 4-9: the preset's knobs, a group at a time, each on the last
	opts="" n=3
	while IFS='|' read -r name knobs; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # knobs is a list of names
		opts="$opts$(knob $knobs)"
		echo "$n|$name|$opts"
	done <<-'EOF'
	LRU share/layout|lru-fraction non-lru
	folio mix|folios
	locality|locality
	lists/chunks|lists chunk
	isolate|access
	rmap (kernel-like)|rmap
	EOF
	last="$opts"
	if [ -n "$file" ]; then
		last="--memmap-from=$file$(knob locality lists chunk access rmap)"
		echo "10|real memmap|$last"
	fi
	n=$((n + 1))
	[ -z "$file" ] || n=$((n + 1))
	[ -z "$memcg" ] || echo "$n|memcg target|$last $memcg"
} >"$steps"
nsteps=$(wc -l <"$steps")

step() {	# step N NAME OPTIONS RUN [SCAN_OPTION...]: run scan, keep its rows
	n=$1 name=$2 with=$3 run=$4
	shift 4
	size_opt="-c $size"	# a replayed memmap has the file's size
	case $with in *--memmap-from=*) size_opt="" ;; esac
	rc=0
	# shellcheck disable=SC2086 # $size_opt and $with are word lists
	"$scan" $size_opt $with --format=csv "$@" >"$tmp/run" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 0 ] || {
		echo "explain.sh: step $n ($name): $(said "$tmp/err")" >&2
		exit 1
	}
	warned=$(grep -c '^scan: warning: ' "$tmp/err" || true)
	sed -n "s/^scan: warning: /$n|/p" "$tmp/err" >>"$tmp/warnings"
	awk -F, -v OFS=, -v n="$n" -v name="$name" -v opts="$with" -v run="$run" \
	    -v warned="$warned" "$awklib"'
		function refuse() {
			print "explain.sh: step " n ": scan printed no scan CSV" > "/dev/stderr"
			bad = 1
			exit 1
		}
		NR == 1 { csv_header(); print "step,adds,options," $0, "run", "warnings" >head }
		!csv_has("walk") || !csv_has("speedup") || !csv_has("pages") { refuse() }
		NR == 1 { next }
		{ gsub(/,/, " ", opts); print n "," name "," opts "," $0, run, warned }
		END { if (!bad && NR < 2) refuse() }' \
		head="$tmp/head" "$tmp/run" >"$tmp/step.$n.$run" || exit 1
	if [ "$runs" -eq 1 ]; then
		echo "explain.sh: step $n of $nsteps done" >&2
	else
		echo "explain.sh: step $n of $nsteps done, run $run of $runs" >&2
	fi
}

: >"$tmp/warnings"
if [ -n "$file" ]; then	# the replay first: its pfns are every step's size
	replay=$(grep '^10|' "$steps")
	with=${replay#10|real memmap|}
	step 10 "real memmap" "$with" 1 "$@"
	pages=$(awk -F, "$awklib"'NR == 1 { csv_header(); next } { print csv_field("pages"); exit }' "$tmp/run")
	if [ -n "$sized" ] && ! awk -v c="$size" -v p="$pages" 'BEGIN { exit !(c * 1e6 == p) }'; then
		echo "explain.sh: -c $size is not $file's size ($pages pfns): drop -c, every step runs the file's" >&2
		exit 2
	fi
	size=$(awk -v p="$pages" 'BEGIN { printf "%.6f", p / 1e6 }')
fi
run=1
while [ "$run" -le "$runs" ]; do
	while IFS='|' read -r n name with; do
		if [ "$run" -eq 1 ] && [ "$n" -eq 10 ] && [ -n "$file" ]; then
			continue	# ran first
		fi
		step "$n" "$name" "$with" "$run" "$@" </dev/null
	done <"$steps"
	run=$((run + 1))
done
{
	cat "$tmp/head"
	n=1
	while [ "$n" -le "$nsteps" ]; do
		cat "$tmp/step.$n".*
		n=$((n + 1))
	done
} >"$tmp/all.csv"
[ -z "$csv" ] || output_put "$tmp/all.csv" "$csv"

# Both the table and the chart read all.csv the same way: r[s, w] the
# step's ratio for the walk (the median over runs), lo/hi its range (over
# the runs when there are several, else over the rounds), name[s], and
# nruns, pages (the sizes run, space-separated) and the first row kept.
gather='
FNR == 1 && FILENAME ~ /all.csv$/ { csv_header(); next }
FILENAME !~ /all.csv$/ { next }
csv_field("walk") == "physical" { next }
{
	s = csv_field("step") + 0; w = csv_field("walk"); v = csv_field("speedup") + 0
	if (!(s in name)) { name[s] = csv_field("adds"); order[++nsteps] = s }
	if (!((csv_field("pages")) in sized)) { sized[csv_field("pages")] = 1; pages = pages " " csv_field("pages") }
	if (!first++) { title = machine_title("scan explain"); ids = machine_ids()
		mem = csv_field("memory_bytes"); version = csv_field("version"); thp = csv_field("system_thp") }
	k = ++cnt[s, w]
	nruns = k > nruns ? k : nruns
	all[s, w, k] = v
	rlo[s, w] = csv_field("speedup_min"); rhi[s, w] = csv_field("speedup_max")
}
function settle(    s, w, i, j, k, t, x, q) {	# medians and ranges
	for (i = 1; i <= nsteps; i++)
		for (j = 1; j <= 2; j++) {
			s = order[i]; w = j == 1 ? "list" : "array"
			k = cnt[s, w]
			for (q = 1; q <= k; q++)
				x[q] = all[s, w, q]
			for (q = 2; q <= k; q++)
				for (t = q; t > 1 && x[t - 1] > x[t]; t--) {
					v = x[t]; x[t] = x[t - 1]; x[t - 1] = v
				}
			r[s, w] = k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
			lo[s, w] = k > 1 ? x[1] : rlo[s, w]; hi[s, w] = k > 1 ? x[k] : rhi[s, w]
		}
}
'

# The table: a row a step, ListLRU then ArrayLRU, x the step before; a
# row marked ! had warnings, listed under it with their steps.
awk -F, -v wfile="$tmp/warnings" "$awklib$gather"'
# v in at most 5 characters below 100000, never in e-notation
function num(v) {
	return sprintf(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v)
}
function cell(s, w,    q, x) {
	q = s > 1 && r[s - 1, w] > 0 ? r[s, w] / r[s - 1, w] : -1
	x = q < 0 ? "" : "x" (q < 10 ? sprintf("%.2f", q) : num(q))
	return sprintf("%6s %5s %-11s", num(r[s, w]), x, num(lo[s, w]) "-" num(hi[s, w]))
}
function steps_of(k,    i, s, out, from, prev) {	# "1-9, 11"
	for (i = 1; i <= nsteps + 2; i++) {
		s = i <= nsteps + 1 ? i : 0
		if (s && ((k, s) in had)) { if (from == "") from = s; prev = s; continue }
		if (from != "") { out = out (out == "" ? "" : ", ") from (prev > from ? "-" prev : ""); from = "" }
	}
	return out
}
function say(text, lead,    n, i, word, line) {	# text wrapped at 72
	n = split(text, word, " ")
	line = lead
	for (i = 1; i <= n; i++) {
		if (length(line " " word[i]) > 72 && line != lead) { print line; line = "      " }
		line = line (line ~ / $/ ? "" : " ") word[i]
	}
	print line
}
END {
	settle()
	# warnings alike but for their figures count as one, with their steps
	while ((getline line < wfile) > 0) {
		s = substr(line, 1, index(line, "|") - 1) + 0; text = substr(line, index(line, "|") + 1)
		k = text; gsub(/[0-9][0-9.e+-]*/, "#", k)
		if (!(k in said)) { said[k] = text; kinds[++nkinds] = k; at[k] = s }
		else if (text != said[k]) differ[k] = 1
		had[k, s] = 1; warned[s] = 1
	}
	sub(/^ /, "", pages)
	printf "scan explain: %s pages on %s\n", pages ~ / / ? "unequal (" pages ")" : pages, csv_field("cpu")
	printf "%2s %-18s %6s %5s %-11s %6s %5s %s\n", "", "adds", "List", "step",
	    (nruns > 1 ? "runs" : "range"), "Array", "step", (nruns > 1 ? "runs" : "range")
	for (i = 1; i <= nsteps; i++) {
		s = order[i]
		row = sprintf("%2d %-18s %s %s", s, name[s], cell(s, "list"), cell(s, "array"))
		# the mark goes in the gap after the name (a ratio is 5 wide at most)
		print warned[s] ? substr(row, 1, 21) "!" substr(row, 23) : row
	}
	if (nruns > 1)
		printf "each ratio: the median of %d runs (processes); runs: their range\n", nruns
	if (nkinds)
		print "! scan warned:"
	for (k = 1; k <= nkinds; k++)
		say(said[kinds[k]] " (step" (steps_of(kinds[k]) ~ /[-,]/ ? "s " : " ") steps_of(kinds[k]) \
		    (differ[kinds[k]] ? "; the figures of step " at[kinds[k]] : "") ")", "  -")
}' "$tmp/all.csv" | sed 's/ *$//' >"$tmp/table"
stdout_put "$tmp/table"

# The chart: a bar a step and walk, from the step before to this one.
# shellcheck disable=SC2086,SC2016 # $awk: a command, maybe with arguments
[ -z "$svg" ] || $awk -F, "$awklib$gather"'
function y(v) { return T + H - (lg(v) - lg(lo_)) / (lg(hi_) - lg(lo_)) * H }
END {
	settle()
	n = order[nsteps]
	for (i = 1; i <= nsteps; i++)
		for (j = 1; j <= 2; j++) {
			s = order[i]; w = j == 1 ? "list" : "array"
			if (!(r[s, w] > 0)) r[s, w] = 1e-3
			if (nruns < 2 || !(lo[s, w] > 0)) lo[s, w] = hi[s, w] = r[s, w]
		}
	sub_ = "scan " version ", " human(mem, "%.3g") " simulated, system THP " thp "; each bar runs from the step before"
	if (nruns > 1)
		sub_ = sub_ "; the median of " nruns " runs, whiskers their range"
	lo_ = 1; hi_ = 1
	for (k in r) {
		if (lo[k] < lo_) lo_ = lo[k]
		if (hi[k] > hi_) hi_ = hi[k]
	}
	lo_ /= 1.3; hi_ *= 1.3
	L = 70; T = 84; H = 320; bw = 66; R = 20
	W = L + n * bw + R; W = W < 760 ? 760 : W
	printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", W, T + H + 100, W, T + H + 100
	printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
	printf "<text x=\"%d\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">%s</text>\n", W / 2, esc(title)
	printf "<text x=\"%d\" y=\"36\" text-anchor=\"middle\">%s</text>\n", W / 2, esc(sub_)
	if (ids != "")
		printf "<text x=\"%d\" y=\"51\" text-anchor=\"middle\">machine: %s</text>\n", W / 2, esc(ids)
	printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", L, T, n * bw, H
	m = round_ticks(lo_, hi_, 1, 0, 8, t)
	for (i = 1; i <= m; i++)
		printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L, L + n * bw, y(t[i]), y(t[i]), L - 4, y(t[i]) + 4, t[i]
	printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"5 4\"/>\n", L, L + n * bw, y(1), y(1)
	printf "<text transform=\"translate(18 %d) rotate(-90)\" text-anchor=\"middle\">times faster: Physical over each walk (log scale)</text>\n", T + H / 2
	split("list array", ws, " "); split("#c33 #36c", col, " ")
	for (s = 1; s <= n; s++) {
		for (j = 1; j <= 2; j++) {
			w = ws[j]; from = s > 1 ? r[s - 1, w] : r[s, w]
			x = L + (s - 1) * bw + 8 + (j - 1) * 26
			top = y(r[s, w] > from ? r[s, w] : from); bot = y(r[s, w] > from ? from : r[s, w])
			printf "<rect x=\"%d\" y=\"%.1f\" width=\"24\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.75\"><title>%s %s: %g</title></rect>\n", x, top, bot - top + 1, col[j], esc(name[s]), w == "list" ? "ListLRU" : "ArrayLRU", r[s, w]
			printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>\n", x, x + 24, y(r[s, w]), y(r[s, w]), col[j]
			printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%.3g</text>\n", x + 12, (r[s, w] >= from ? y(r[s, w]) - 4 : y(r[s, w]) + 11), r[s, w]
			if (hi[s, w] > lo[s, w])	# the range over the runs
				printf "<path d=\"M%d %.1fV%.1f\" stroke=\"black\"/>\n", x + 12, y(lo[s, w]), y(hi[s, w])
		}
		printf "<text transform=\"translate(%d,%d) rotate(35)\">%d %s</text>\n", L + (s - 1) * bw + 14, T + H + 14, s, esc(name[s])
	}
	printf "<rect x=\"%d\" y=\"62\" width=\"10\" height=\"10\" fill=\"#c33\"/><text x=\"%d\" y=\"71\">ListLRU</text>\n", L, L + 14
	printf "<rect x=\"%d\" y=\"62\" width=\"10\" height=\"10\" fill=\"#36c\"/><text x=\"%d\" y=\"71\">ArrayLRU</text>\n", L + 80, L + 94
	printf "<line x1=\"%d\" x2=\"%d\" y1=\"67\" y2=\"67\" stroke=\"black\" stroke-dasharray=\"5 4\"/>", L + 170, L + 195
	printf "<text x=\"%d\" y=\"71\">1x: the physical walk wins above</text>\n</svg>\n", L + 200
}' "$tmp/all.csv" >"$tmp/chart.svg"
[ -z "$svg" ] || output_put "$tmp/chart.svg" "$svg"
