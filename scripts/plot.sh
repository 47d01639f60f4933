#!/bin/sh
#/ plot.sh - draw scan's CSV as a self-contained SVG chart, with awk alone.
#/
#/ usage: scripts/plot.sh [-h] [--x COLUMN] FILE.csv > FILE.svg
#/
#/ Plots each walk's speedup (how many times faster the physical walk is)
#/ against the simulated memory, one line per walk: a log y axis with the
#/ 1x line marked (the physical walk wins above it), bars from the
#/ rounds' spread (quartiles when the CSV has them, else min to max),
#/ and hollow points where the memmap was under 4 times the last-level
#/ cache (a cache-sized run).  The title names the machine, the subtitle
#/ scan's version, THP and the options the rows share.  --x COLUMN plots
#/ against another column (a knob such as lru_fraction, locality, lists
#/ or threads, or young: the PageTable walk's ratio against the share of
#/ PTEs young, from sweep.sh --axis=young -o); memory is on a log axis,
#/ any other x axis is when all its values are positive and span more
#/ than 20 times.  The CSV comes from scan --format=csv or
#/ scripts/sweep.sh -o.  Needs an awk with math
#/ (log): gawk, mawk or a BusyBox built with it; AWK= picks one.
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

xcol=memory_bytes
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--x) [ $# -ge 2 ] || usage_error "--x needs a COLUMN"; xcol=$2; shift ;;
	--x=*) xcol=${1#--x=} ;;
	--) shift; break ;;
	-?*) usage_error "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] || usage_error "no CSV given"
[ $# -eq 1 ] || usage_error "one CSV only, not also $2"
[ -n "$xcol" ] || usage_error "--x '': give a column name"
input_ok "$1"

need_math plot.sh
scratch
operand "$1"
csv=$1 xcol=$xcol run_awk plot -F, "$operand" >"$tmp/svg" || { scratch_ok; exit 1; }
stdout_put "$tmp/svg"
