#!/bin/sh
#/ collect.sh - read the report blocks posted to a thread back into one
#/ table: who posted each, when, on which machine, at which size and
#/ protocol, each ratio with its spread, cache-sized or warned.
#/
#/ usage: scripts/collect.sh [-h] [-o FILE.csv] [-g FILE.svg] [--with-2023]
#/                           [FILE|DIR|-]...
#/
#/   -o FILE.csv   write the table as CSV too
#/   -g FILE.svg   draw the ratios by machine
#/   --with-2023   add the 2023 thread's figures (docs/thread-2023.txt)
#/
#/ Input (default stdin): mboxes, maildirs, mails, text or Markdown files,
#/ directories of them; blocks quoted at any depth, rewrapped, inside ```
#/ fences, quoted-printable or base64.  A block repeated in replies counts
#/ once, the blocks of one machine and setup make one row; bare "Physical
#/ scan is" lines are a row of unknown machine and protocol.  Rows
#/ that are not comparable (protocol, cache-sized memmap, struct page or
#/ page size) go to groups of their own.  A broken block is named on
#/ stderr with its file, line and mail.  Exit status: 0 every block read,
#/ 1 a broken block (the table holds the others) or none at all, 2 an
#/ error of usage.  See scan-collect(1).
#
# A pipeline of awk stages, each in its own file beside lib.awk (in the
# source tree scripts/, installed DATADIR/scan), read by run_awk with -f,
# never from the command line (a 16 KiB stack leaves it 4 KiB); each
# input streams through it: nothing holds more than a block, however
# long a mail.
#
#   each input > collect-unmail.awk  its mails, their text decoded
#              > collect-blocks.awk  the report blocks in them, a row each
#              > collect-table.awk   the table; its CSV; the chart's rows
#   with -g:     collect-chart.awk   the chart, from those rows
#
# collect-unmail.awk writes every control byte and every byte that is not
# UTF-8 as \xHH (lib.awk's plain()) before a text goes on; say_line does
# the same for the messages here that name a file.
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $share, run_awk, say_line, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

# say MESSAGE: "collect.sh: MESSAGE", one line on stderr, what a file
# name or an option brings into it escaped.
say() { say_line "collect.sh: $1"; }

csv=
svg=
with_2023=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o | -g)
		[ $# -ge 2 ] || { echo "collect.sh: $1 needs a file name" >&2; exit 2; }
		[ -n "$2" ] || usage_error "$1 '': give a file name"
		if [ "$1" = -o ]; then csv=$2; else svg=$2; fi
		shift 2 ;;
	--with-2023) with_2023=1; shift ;;
	--) shift; break ;;
	-?*) say "unknown option $1 (collect.sh -h for help)"; exit 2 ;;
	*) break ;;
	esac
done

need_math collect.sh
[ -z "$csv" ] || output_ok "$csv"	# before the work, not after
[ -z "$svg" ] || output_ok "$svg"
scratch
max_bytes=1073741824	# of an input: what never ends is cut off there

# The 2023 figures live in the source tree's docs/, or beside lib.awk
# where installed.
if [ "$with_2023" -eq 1 ]; then
	for thread in "$here/../docs/thread-2023.txt" "$share/thread-2023.txt"; do
		[ -r "$thread" ] && break
	done
	[ -r "$thread" ] || {
		say "--with-2023: no thread-2023.txt beside $here: give docs/thread-2023.txt as a file"
		exit 1
	}
	set -- "$thread" "$@"
fi

# too_big FILE: FILE is larger than max_bytes; big_files DIR: an x for
# each file in DIR that is (find sizes them unread: a find a directory,
# then one a file only where a directory has such a file).
too_big() {
	case $1 in /*) path=$1 ;; *) path=./$1 ;; esac	# never an option of find
	[ -n "$(find "$path" -prune -size +"$max_bytes"c)" ]
}
big_files() {
	case $1 in /*) path=$1 ;; *) path=./$1 ;; esac
	find "$path/." ! -name . -prune -type f -size +"$max_bytes"c -exec printf x \;
}

# Every operand checked before the work: stdin, a directory, or a
# readable regular file of at most max_bytes (a device or a FIFO would
# never end).
[ $# -gt 0 ] || set -- -
for a in "$@"; do
	if [ "$a" = - ] || [ -d "$a" ]; then
		continue
	elif [ ! -e "$a" ]; then
		say "cannot read $a: no such file"
	elif [ ! -f "$a" ]; then
		say "$a: not a regular file or a directory"
	elif [ ! -r "$a" ]; then
		say "cannot read $a: permission denied"
	elif too_big "$a"; then
		say "$a: more than $max_bytes bytes"
	else
		continue
	fi
	exit 1
done

# unmail FILE: FILE (- for stdin), its lines cut at 64 KiB, as mails
# and their text lines; an input past max_bytes is named and marked
# unread.
unmail() {
	if [ "$1" = - ]; then
		fold -b -w 65536
	else
		fold -b -w 65536 <"$1"
	fi | {
		name=$1
		[ "$name" != - ] || name=stdin
		collect_file=$name run_awk collect-unmail -v max_bytes="$max_bytes"
	} || : >"$tmp/unread"
}

# read_dir DIR: its files in name order, subdirectories in their place;
# hidden files and links are left out, a file over max_bytes is named
# unread.
read_dir() {
	big=$(big_files "$1")
	for f in "$1"/*; do
		if [ -L "$f" ]; then
			continue
		elif [ -d "$f" ]; then
			read_dir "$f"
			big=$(big_files "$1")	# (the walk below set it)
		elif [ ! -f "$f" ]; then
			continue
		elif [ ! -r "$f" ]; then
			unread "cannot read $f: permission denied"
		elif [ -n "$big" ] && too_big "$f"; then
			unread "$f: more than $max_bytes bytes, not read"
		else
			unmail "$f"
		fi
	done
}

# unread MESSAGE: an input named on stderr and left out; the exit status
# will say so.
unread() {
	say "$1"
	: >"$tmp/unread"
}

# read_all OPERAND...: each input in turn: stdin, a maildir's mails
# (cur/, then new/), a directory's files, a file.
read_all() {
	for a in "$@"; do
		if [ "$a" != - ] && { [ -d "$a/cur" ] || [ -d "$a/new" ]; }; then
			for d in "$a/cur" "$a/new"; do
				[ ! -d "$d" ] || read_dir "$d"
			done
		elif [ -d "$a" ]; then
			read_dir "$a"
		else
			unmail "$a"
		fi
	done
}

read_all "$@" | run_awk collect-blocks | collect_tmp=$tmp run_awk collect-table >"$tmp/table"
if [ ! -s "$tmp/table" ]; then
	inputs=$*
	[ "$inputs" != - ] || inputs=stdin
	say "no report blocks in $inputs"
	exit 1
fi
stdout_put "$tmp/table"
# output_put: through a temporary name, so a failure leaves no half file
[ -z "$csv" ] || output_put "$tmp/csv" "$csv"
if [ -n "$svg" ]; then
	run_awk collect-chart <"$tmp/drawn" >"$tmp/svg"
	output_put "$tmp/svg" "$svg"
fi
# a broken block or an input not read whole
[ "$(cat "$tmp/broken")" -eq 0 ] && [ ! -e "$tmp/unread" ] || exit 1
