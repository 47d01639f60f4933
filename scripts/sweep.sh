#!/bin/sh
# sweep.sh - run ./scan at several sizes and print both ratios per size.
#
# usage: scripts/sweep.sh [-h] [SIZE...]
#
# SIZE is scan's -c value, millions of pages (default: 1 2 5 10 20 50).
# Sizes that do not fit in this machine's memory are skipped: scan refuses
# them before allocating, and the line says so.  SCAN names the binary
# (default ./scan); SCAN_OPTS adds options to every run (e.g. "-r 3").
set -eu

usage() {
	sed -n '2,10s/^# \{0,1\}//p' "$0"
}

while getopts h opt; do
	case $opt in
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 1 2 5 10 20 50

scan=${SCAN:-./scan}
opts=${SCAN_OPTS:-}
err=$(mktemp)
trap 'rm -f "$err"' EXIT INT TERM

printf '%10s %14s %14s\n' "-c" "vs ListLRU" "vs ArrayLRU"
for size in "$@"; do
	rc=0
	# shellcheck disable=SC2086 # SCAN_OPTS is a list of options
	out=$("$scan" -c "$size" $opts 2>"$err") || rc=$?
	case $rc in
	0)
		list=$(printf '%s\n' "$out" | sed -n 's/^Physical scan is \([0-9.]*\) faster than ListLRU$/\1/p')
		array=$(printf '%s\n' "$out" | sed -n 's/^Physical scan is \([0-9.]*\) faster than ArrayLRU$/\1/p')
		printf '%10s %14s %14s\n' "$size" "$list" "$array"
		;;
	1)
		printf '%10s  skipped: %s\n' "$size" "$(sed -n 's/^scan: //p' "$err" | head -n 1)"
		;;
	*)
		cat "$err" >&2
		exit "$rc"
		;;
	esac
done
