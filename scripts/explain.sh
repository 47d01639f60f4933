#!/bin/sh
#/ explain.sh - the way from the original's ratios to the kernel's, one
#/ knob at a time.
#/
#/ usage: scripts/explain.sh [-h] [-c N] [-o FILE.csv] [-g FILE.svg]
#/                           [SCAN_OPTION...]     (scan's options last)
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
#/ change from the step before.  -c is scan's size (default 4); -o keeps
#/ every step's CSV rows (a step column first); -g draws an SVG waterfall
#/ of the ListLRU and ArrayLRU ratios, log axis, 1x marked.  Further
#/ options go to every step (e.g. -s 5, -t 2; not those --original
#/ refuses, such as -r).  SCAN names the binary (default ./scan).  For a
#/ --memmap-from step, give -c the file's size (its pfns / 1e6) so that
#/ every step simulates as many pfns.  --memcg=INODE needs
#/ --memmap-from (scan says why when it refuses a step).
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

size=4 csv="" svg="" file="" memcg=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-c) [ $# -ge 2 ] || { usage >&2; exit 2; }; size=$2; shift ;;
	-o) [ $# -ge 2 ] || { usage >&2; exit 2; }; csv=$2; shift ;;
	-g) [ $# -ge 2 ] || { usage >&2; exit 2; }; svg=$2; shift ;;
	--memmap-from=?*) file=${1#--memmap-from=} ;;
	--memcg-share=?* | --memcg=?* | --memcg-from=?*) memcg="$memcg $1" ;;
	*) break ;;
	esac
	shift
done
[ -z "$svg" ] || need_math explain.sh	# before the runs, not after
scratch

# --kernel-like's values, as scan applies them
"$scan" -c 0.001 -r 1 --kernel-like -v "$@" >"$tmp/preset" 2>&1 || {
	echo "explain.sh: $(grep -m 1 '^scan: ' "$tmp/preset")" >&2
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

step() {	# step N NAME OPTIONS [SCAN_OPTION...]: run scan, keep its rows
	n=$1 name=$2 with=$3
	shift 3
	sized="-c $size"	# a replayed memmap has the file's size
	case $with in *--memmap-from=*) sized="" ;; esac
	# shellcheck disable=SC2086 # $sized and $with are word lists
	"$scan" $sized $with --format=csv "$@" >"$tmp/run" 2>"$tmp/err" || {
		echo "explain.sh: step $n ($name): $(head -n 1 "$tmp/err")" >&2
		exit 1
	}
	awk -F, -v n="$n" -v name="$name" -v opts="$with" '
		NR == 1 { if (n == 1) print "step,adds,options," $0; next }
		{ gsub(/,/, " ", opts); print n "," name "," opts "," $0 }' \
		"$tmp/run" >>"$tmp/all.csv"
	echo "explain.sh: step $n of $steps done" >&2
}

: >"$tmp/all.csv"
steps=9
[ -z "$file" ] || steps=$((steps + 1))
[ -z "$memcg" ] || steps=$((steps + 1))
step 1 "original" "--original" "$@"
step 2 "rounds/cold cache" "--thp=system" "$@"
step 3 "2 MiB memmap" "" "$@"
# steps 4-9: the preset's knobs, a group at a time, each on the last
opts="" n=3
while IFS='|' read -r name knobs; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # knobs is a list of names
	opts="$opts$(knob $knobs)"
	step "$n" "$name" "$opts" "$@" </dev/null
done <<'EOF'
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
	step 10 "real memmap" "$last" "$@"
fi
[ -z "$memcg" ] || step "$steps" "memcg target" "$last $memcg" "$@"
[ -z "$csv" ] || cp "$tmp/all.csv" "$csv"

# The table: a row a step, ListLRU then ArrayLRU, x the step before.
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["walk"] == "physical" { next }
{
	s = $c["step"]; w = $c["walk"]
	name[s] = $c["adds"]; cpu = $c["cpu"]; pages = $c["pages"]
	r[s, w] = $c["speedup"]; lo[s, w] = $c["speedup_min"]; hi[s, w] = $c["speedup_max"]
	if (s > last) last = s
}
# v in at most 5 characters below 100000, never in e-notation
function num(v) {
	return sprintf(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v)
}
function cell(s, w,    q, x) {
	q = s > 1 && r[s - 1, w] > 0 ? r[s, w] / r[s - 1, w] : -1
	x = q < 0 ? "" : "x" (q < 10 ? sprintf("%.2f", q) : num(q))
	return sprintf("%6s %5s %-11s", num(r[s, w]), x, num(lo[s, w]) "-" num(hi[s, w]))
}
END {
	printf "scan explain: %s pages on %s\n", pages, cpu
	printf "%2s %-18s %6s %5s %-11s %6s %5s %s\n", "", "adds", "List", "step",
	    "range", "Array", "step", "range"
	for (s = 1; s <= last; s++)
		printf "%2d %-18s %s %s\n", s, name[s], cell(s, "list"), cell(s, "array")
}' "$tmp/all.csv" | sed 's/ *$//'

# The chart: a bar a step and walk, from the step before to this one.
# shellcheck disable=SC2086,SC2016 # $awk: a command, maybe with arguments
[ -z "$svg" ] || $awk -F, "$awklib"'
function y(v) { return T + H - (lg(v) - lg(lo)) / (lg(hi) - lg(lo)) * H }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["walk"] == "physical" { next }
{
	s = $c["step"]; w = $c["walk"]; v = $c["speedup"] + 0
	name[s] = $c["adds"]; mem = $c["memory_bytes"]
	title = "scan explain on " $c["cpu"] " (" $c["cpus"] " CPUs), " $c["kernel"]
	sub_ = "scan " $c["version"] ", " human(mem, "%.3g") " simulated, system THP " $c["system_thp"] "; each bar runs from the step before"
	r[s, w] = v > 0 ? v : 1e-3
	if (s > n) n = s
}
END {
	lo = 1; hi = 1
	for (k in r) { if (r[k] < lo) lo = r[k]; if (r[k] > hi) hi = r[k] }
	lo /= 1.3; hi *= 1.3
	L = 70; T = 70; H = 320; bw = 66; R = 20
	W = L + n * bw + R; W = W < 760 ? 760 : W
	printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", W, T + H + 100, W, T + H + 100
	printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
	printf "<text x=\"%d\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">%s</text>\n", W / 2, esc(title)
	printf "<text x=\"%d\" y=\"38\" text-anchor=\"middle\">%s</text>\n", W / 2, esc(sub_)
	printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", L, T, n * bw, H
	m = round_ticks(lo, hi, 1, 0, 8, t)
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
		}
		printf "<text transform=\"translate(%d,%d) rotate(35)\">%d %s</text>\n", L + (s - 1) * bw + 14, T + H + 14, s, esc(name[s])
	}
	printf "<rect x=\"%d\" y=\"50\" width=\"10\" height=\"10\" fill=\"#c33\"/><text x=\"%d\" y=\"59\">ListLRU</text>\n", L, L + 14
	printf "<rect x=\"%d\" y=\"50\" width=\"10\" height=\"10\" fill=\"#36c\"/><text x=\"%d\" y=\"59\">ArrayLRU</text>\n", L + 80, L + 94
	printf "<line x1=\"%d\" x2=\"%d\" y1=\"55\" y2=\"55\" stroke=\"black\" stroke-dasharray=\"5 4\"/>", L + 170, L + 195
	printf "<text x=\"%d\" y=\"59\">1x: the physical walk wins above</text>\n</svg>\n", L + 200
}' "$tmp/all.csv" >"$svg"
