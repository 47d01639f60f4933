#!/bin/sh
#/ results.sh - run the standard set on this machine and write it up for
#/ docs/results/: Markdown with the report blocks, CSV and SVG.
#/
#/ usage: scripts/results.sh [-h] [-q] [-c N] [-n NOTE] -o DIR
#/
#/ The standard set: the defaults, --original and --kernel-like, each
#/ through report.sh (one process each), at -c 10 and at a large size,
#/ at least 4 times the last-level cache that scan reports (llc_bytes)
#/ and at least 10; a sweep up to the large size (sweep.sh, plot.sh);
#/ explain.sh at the large size.  Writes into DIR (made if need be):
#/ HOST-DATE.md (the machine's identity, a summary table, every report
#/ block inside ``` fences as report.sh printed it, so collect.sh reads
#/ them back, the sweep's and explain's tables) and beside it
#/ HOST-DATE-sweep.csv, -sweep.svg, -explain.csv and -explain.svg, so
#/ one DIR holds many hosts.  Progress goes to stderr, the file's name
#/ to stdout.
#/
#/   -c N     the large size instead (millions of pages, as scan's -c)
#/   -n NOTE  a paragraph for the file, e.g. what else ran on the host
#/   -q       quick, for tests: tiny sizes (0.01 and 0.02), -r 2 where
#/            the protocol allows, one process a block, no explain; the
#/            figures then measure caches, and the file says so
#/
#/ Exit status: 0 done; 2 usage error; 1 a run failed (its message on
#/ stderr, what was written so far left in DIR).  SCAN names the binary.
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

dir="" large="" large_given="" note="" quick=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o | -c | -n)
		[ $# -ge 2 ] || usage_error "$1 needs a value"
		case $1 in -o) dir=$2 ;; -c) large=$2 large_given=1 ;; -n) note=$2 ;; esac
		shift ;;
	-q) quick=1 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
	shift
done
[ -n "$dir" ] || usage_error "-o DIR is required"
if [ -n "$large_given" ]; then	# -c '' too: not "no -c"
	# scan checks the number strictly; this only keeps a word out of
	# the file name and the sizes' arithmetic
	case $large in
	*[!0-9.]* | "" | .* | *.*.*) usage_error "-c '$large': not a size" ;;
	esac
fi

need_scan results.sh
scratch

# script NAME: the sibling script, in the repository or installed.
script() {
	for s in "$here/$1.sh" "$here/scan-$1"; do
		[ -r "$s" ] && { echo "$s"; return 0; }
	done
	fail "no $1 script beside $0"
}
report=$(script report)
sweep=$(script sweep)
plot=$(script plot)
explain=$(script explain)

say() {
	say_line "results.sh: $*"
}

# The machine, from one tiny run: scan's CSV fields by name, empty when
# this scan lacks them.
"$scan" -c 0.01 -r 1 -q --format=csv >"$tmp/id.csv" || {
	say "scan failed on a tiny run"
	exit 1
}
field() {
	column=$1 run_awk first-row -F, "$tmp/id.csv"
}

rounds=""	# -r for the runs that take it: the defaults' own choice
runs=""		# report.sh's processes a block: its own default
if [ "$quick" -eq 1 ]; then
	small=0.01 large=${large:-0.02} sweep_sizes="0.01 0.02" rounds="-r 2"
	# one process a block, where this report.sh runs several
	! "$report" -h 2>&1 | grep -q -- '-n N' || runs="-n 1"
else
	small=10
	if [ -z "$large" ]; then
		# 4x the LLC, from scan's memmap over it at -c 0.01, rounded up;
		# 10 at least
		large=$(awk -v r="$(field memmap_over_llc)" 'BEGIN {
			c = r > 0 ? int(4 * 0.01 / r + 0.999999) : 0
			print (c > 10 ? c : 10) }')
	fi
	sweep_sizes=$(awk -v top="$large" 'BEGIN {
		for (c = 1; c < top; c *= 2) printf "%g ", c
		print top }')
fi

mkdir -p -- "$dir" || fail "cannot make $dir"
cpu=$(field cpu)
family=$(field cpu_family)
model=$(field cpu_model)
day=$(date -u +%Y-%m-%d)
# HOST-DATE: the model name's first two words (no (R) or (TM)), the
# family and model where scan knows them, the date.
name=$(printf '%s\n' "${cpu:-unknown}" |
	awk -v f="$family" -v m="$model" '{
		gsub(/\([RrTtMm]*\)/, ""); $0 = tolower($0)
		s = $1 ($2 != "" ? "-" $2 : "")
		if (f != "" && m != "") s = s "-" f "-" m
		gsub(/[^a-z0-9-]/, "", s); print s }')
base=$name-$day	# of every file written
md=$dir/$base.md
# Every file it will write is checked before the runs, so that a
# read-only one is refused in a second, not after minutes of runs.
for f in "$md" "$dir/$base-sweep.csv" "$dir/$base-sweep.svg"; do
	output_ok "$f"
done
if [ "$quick" -eq 0 ]; then
	output_ok "$dir/$base-explain.csv"
	output_ok "$dir/$base-explain.svg"
fi

# block TITLE SCAN_OPTION...: a report block inside a fence, and its two
# ratios kept for the summary.
block() {
	title=$1
	shift
	say "$title: report.sh $*"
	# shellcheck disable=SC2086 # $runs is empty or two words
	"$report" $runs "$@" >"$tmp/block" || { say "report.sh $* failed"; exit 1; }
	{
		printf '### %s\n\n```\n' "$title"
		cat "$tmp/block"
		printf '```\n\n'
	} >>"$tmp/blocks"
	awk -v run="$title" '
	/^Physical scan is .* faster than ListLRU$/ { list = $4 }
	/^Physical scan is .* faster than ArrayLRU$/ { array = $4 }
	END { printf "| %s | %s | %s |\n", run, list, array }' \
		"$tmp/block" >>"$tmp/summary"
}

: >"$tmp/blocks"
: >"$tmp/summary"
sets=$small
[ "$large" = "$small" ] || sets="$small $large"
for c in $sets; do
	# shellcheck disable=SC2086 # $rounds is empty or two words
	block "defaults, -c $c" -c "$c" $rounds
	block "--original, -c $c" --original -c "$c"
	# shellcheck disable=SC2086
	block "--kernel-like, -c $c" --kernel-like -c "$c" $rounds
done

say "sweep: $sweep_sizes"
# shellcheck disable=SC2086 # the sizes are words
"$sweep" -o "$dir/$base-sweep.csv" $rounds $sweep_sizes >"$tmp/sweep" ||
	{ say "sweep.sh failed"; exit 1; }
# A chart needs an awk with log(): without one, the tables still stand.
plotted=0
if "$plot" "$dir/$base-sweep.csv" >"$tmp/sweep.svg" 2>"$tmp/plot.err"; then
	output_put "$tmp/sweep.svg" "$dir/$base-sweep.svg"
	plotted=1
else
	run_awk plain-lines "$tmp/plot.err" >&2
fi
if [ "$quick" -eq 0 ]; then
	say "explain: -c $large"
	"$explain" -c "$large" -o "$dir/$base-explain.csv" -g "$dir/$base-explain.svg" \
		>"$tmp/explain" || { say "explain.sh failed"; exit 1; }
fi

# times_llc: the large memmap over the LLC, "4.2 times" or "unknown to".
times_llc() {
	awk -v c="$large" -v r="$(field memmap_over_llc)" 'BEGIN {
		if (r > 0) printf "%.3g times", r * c / 0.01
		else printf "unknown to" }'
}

explained() {
	printf '## Explain, -c %s\n\n```\n' "$large"
	cat "$tmp/explain"
	printf '```\n\n'
	[ ! -s "$dir/$base-explain.svg" ] || printf '![explain'"'"'s steps](%s-explain.svg)\n\n' "$base"
	printf 'Every step'"'"'s rows are in [%s-explain.csv](%s-explain.csv).\n' \
		"$base" "$base"
}

# The identity as scan and the system tools give it.
unknown() {
	if [ -n "$1" ]; then echo "$1"; else echo unknown; fi
}
bytes() {
	[ -n "$1" ] || { echo unknown; return; }
	bytes=$1 run_awk human </dev/null
}
{
	printf '# %s, %s\n\n' "$(unknown "$cpu")" "$day"
	# shellcheck disable=SC2016 # Markdown's backquotes, not a command
	printf 'Written by `scripts/results.sh%s` with scan %s on %s.\n' \
		"$([ "$quick" -eq 1 ] && echo ' -q')" "$(field version)" \
		"$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'Each figure is one process: a sample of this host at that hour.\n'
	if [ "$quick" -eq 1 ]; then
		printf 'Quick mode (no explain): every memmap fits in the caches,\n'
		printf 'so the ratios measure caches, not memory.\n'

	fi
	[ -z "$note" ] || { printf '\n'; printf '%s\n' "$note" | run_awk plain-lines; }
	cat <<EOF

## The machine

| | |
|---|---|
| CPU | $(unknown "$cpu"), vendor $(unknown "$(field cpu_vendor)"), family $(unknown "$family") model $(unknown "$model") stepping $(unknown "$(field cpu_stepping)") |
| hypervisor | $(unknown "$(field hypervisor)") |
| CPUs, RAM, NUMA nodes | $(unknown "$(field cpus)"), $(bytes "$(field ram_bytes)"), $(unknown "$(field numa_nodes)") |
| L2 per core | $(bytes "$(field l2_bytes)") (from $(unknown "$(field l2_from)")) |
| last-level cache | $(bytes "$(field llc_bytes)") (from $(unknown "$(field llc_from)")); the memmap at -c $large is $(times_llc) it |
| kernel, THP | $(unknown "$(field kernel)"), $(unknown "$(field system_thp)") |
| host_id | $(unknown "$(field host_id)") |
EOF
	if command -v lscpu >/dev/null 2>&1 || command -v getconf >/dev/null 2>&1; then
		# shellcheck disable=SC2016
		printf '\n`lscpu` and `getconf -a`, as they were:\n\n```\n'
		lscpu 2>/dev/null | grep -E '^(Vendor ID|Model name|CPU family|Model|Stepping|Hypervisor vendor|L[0-9].* cache):' || :
		getconf -a 2>/dev/null | grep -E '^LEVEL[23]_CACHE_SIZE' || :
		printf '```\n'
	fi
	printf '\n## Summary\n\n| run | ListLRU | ArrayLRU |\n|---|---|---|\n'
	cat "$tmp/summary"
	printf '\n## Report blocks\n\n'
	cat "$tmp/blocks"
	printf '## A sweep\n\n```\n'
	cat "$tmp/sweep"
	printf '```\n\n'
	[ "$plotted" -eq 0 ] || printf '![the sweep](%s-sweep.svg)\n\n' "$base"
	printf 'Every run of it is in [%s-sweep.csv](%s-sweep.csv).\n\n' "$base" "$base"
	[ "$quick" -eq 1 ] || explained
} >"$tmp/md" || { scratch_ok; fail "cannot write the Markdown"; }
output_put "$tmp/md" "$md"	# whole or not at all
say "wrote $md"
printf '%s\n' "$md" | run_awk plain-lines >"$tmp/name" || { scratch_ok; exit 1; }
stdout_put "$tmp/name"
