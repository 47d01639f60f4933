# scan-env.sh - sourced by the scripts: where scan and the shared awk are,
# and the steps every script takes.
# shellcheck disable=SC2034 # sourced: the scripts read $scan, $awk and $awklib
# A script runs from the source tree (scripts/x.sh, scan built beside
# scripts/) or installed (BINDIR/scan-x, scan beside it, this file and
# lib.awk in DATADIR/scan).
#
#   $me        the name the script was run as: scan-x installed, else x.sh
#   $scan      SCAN if set, else scan beside the script, else the source
#              tree's ./scan, else scan on PATH, else ./scan
#   $scan_from where $scan came from, in words (for -h and need_scan)
#   $awklib    the text of lib.awk, to put before a program
#   $awk       AWK if set (a command, maybe with arguments: AWK='busybox
#              awk'), else awk
#
#   usage              the script's #/ header, under the name it was run as
#   need_scan NAME     stop NAME unless $scan runs; say where it looked
#   need_math NAME     stop NAME unless $awk has log() (Debian's BusyBox
#                      awk is built without)
#   scratch            $tmp, a directory removed however the script ends;
#                      SIGINT, SIGTERM and SIGHUP end it with 130, 143 and
#                      129 and "NAME: interrupted" (and $interrupt_note)
#   output_ok PATH     stop (exit 1, a line) unless PATH can be written:
#                      not a directory, in a directory that takes a file
#   usage_error MSG    one line on stderr, exit 2
#   whole OPT VALUE    a usage error unless VALUE is 1 to 999999999
#   input_ok FILE      stop (exit 1, a line) unless FILE is a readable
#                      regular file under 256 MiB (or -, stdin)
#   stdout_put FILE    copy FILE to stdout; exit 1, a line, if it fails
#   output_put SRC PATH  copy SRC to a temporary name beside PATH, then
#                      rename it over PATH: PATH is whole or untouched;
#                      on failure the temporary goes and the script stops
# dirname and basename by expansion: every script starts here, and each
# would be a process of its own.
case $0 in
*/*) here=${0%/*} ;;
*) here=. ;;
esac
here=${here:-/}
me=${0##*/}
if [ -n "${SCAN:-}" ]; then
	scan=$SCAN
	scan_from="SCAN"
	case $scan in */*) ;; *) scan=$(command -v "$SCAN" 2>/dev/null || echo "$SCAN") ;; esac
elif [ -x "$here/scan" ]; then
	scan=$here/scan
	scan_from="beside $me"
elif [ -x "$here/../scan" ] && [ -f "$here/../scan.c" ]; then
	scan=$here/../scan
	scan_from="the source tree's"
elif command -v scan >/dev/null 2>&1; then
	scan=$(command -v scan)
	scan_from="on PATH"
else
	scan=./scan
	scan_from="nowhere"
fi
awklib=$here/lib.awk
[ -r "$awklib" ] || awklib=$(dirname "$0")/../share/scan/lib.awk
awklib=$(cat "$awklib")
awk=${AWK:-awk}
tmp=""
pending=""		# an output's temporary name, removed if the script stops
interrupt_note=""	# a line for the user when a signal stops the script

need_math() {
	# shellcheck disable=SC2086 # $awk may be a command and its arguments
	command -v ${awk%% *} >/dev/null 2>&1 || {
		echo "$1: no awk: $awk not found" >&2
		exit 1
	}
	# shellcheck disable=SC2086
	$awk 'BEGIN { x = log(10); exit !(x > 2.3 && x < 2.31) }' >/dev/null 2>&1 || {
		echo "$1: $awk has no math (log, ^): use gawk or mawk, e.g. AWK=gawk" >&2
		exit 1
	}
}

# usage: the script's header block, the lines that start with #/, with
# scripts/NAME.sh as it was run (installed: every scripts/X.sh as scan-X),
# the synopsis's further lines moved to stay under its options, and the
# scan this copy would run.
usage() {
	self=${me#scan-}
	self=scripts/${self%.sh}.sh
	sed -n 's|^#/ \{0,1\}||p' "$0" | awk -v self="$self" -v prog="$0" \
	    -v installed="$([ "${me#scan-}" != "$me" ] && echo 1)" \
	    -v scan="$scan" -v from="$scan_from" '
	function rename(s,    head) {
		if (!installed) {
			while ((k = index(s, self)) > 0) {
				head = head substr(s, 1, k - 1) prog
				s = substr(s, k + length(self))
			}
			return head s
		}
		while (match(s, /scripts\/[a-z-]+\.sh/)) {
			head = head substr(s, 1, RSTART - 1) "scan-" substr(s, RSTART + 8, RLENGTH - 11)
			s = substr(s, RSTART + RLENGTH)
		}
		return head s
	}
	/^usage: / { shift = length(rename($0)) - length($0); synopsis = 1 }
	# a line that goes on with the options moves; one naming a script
	# again keeps the indent of "usage: "
	synopsis && /^ / && !/scripts\/[a-z-]+\.sh/ && shift > 0 { $0 = sprintf("%" shift "s", "") $0 }
	synopsis && /^ / && !/scripts\/[a-z-]+\.sh/ && shift < 0 { $0 = substr($0, 1 - shift) }
	/^$/ { synopsis = 0 }
	{ gsub(/\(default \.\/scan\)/, "(default: scan beside this script, else the source tree'"'"'s, else on PATH)")
	  print rename($0) }
	END {
		print ""
		if (from == "nowhere")
			print "scan: none found (set SCAN, or run make in the source tree)"
		else
			print "scan: " scan " (" from ")"
	}'
}

# need_scan NAME: stop NAME unless $scan can run, saying where it looked.
need_scan() {
	[ -x "$scan" ] && [ ! -d "$scan" ] && return 0
	if [ "$scan_from" = SCAN ]; then
		echo "$1: SCAN=$SCAN is not a program that can run" >&2
	else
		echo "$1: no scan: looked beside $me ($here/scan), in its source tree ($here/../scan), on PATH and in $(pwd); run make in the source tree, or set SCAN" >&2
	fi
	exit 1
}

# usage_error MESSAGE: a usage error, one line on stderr, exit 2.
usage_error() {
	echo "$me: $1 (-h for help)" >&2
	exit 2
}

# fail MESSAGE: a runtime failure, one line, exit 1.
fail() {
	echo "$me: $1" >&2
	exit 1
}

# whole OPTION VALUE: VALUE is a whole number from 1 to 999999999 (nine
# digits at most: the shell's arithmetic never overflows on it).
whole() {
	case $2 in
	'' | *[!0-9]* | 0* | ??????????*) usage_error "$1 '$2': not a whole number from 1 to 999999999" ;;
	esac
}

# input_ok FILE: FILE (or - for stdin) can be read as a CSV: a regular
# file, readable, under 256 MiB.  A FIFO, a device or a directory would
# hang or confuse awk; a huge (sparse) file would take hours.
input_ok() {
	[ "$1" = - ] && return 0
	if [ ! -e "$1" ]; then
		echo "$me: cannot read $1: no such file" >&2
	elif [ ! -f "$1" ]; then
		echo "$me: cannot read $1: not a regular file" >&2
	elif [ ! -r "$1" ]; then
		echo "$me: cannot read $1: permission denied" >&2
	elif [ "$(wc -c <"$1")" -gt 268435456 ]; then
		echo "$me: cannot read $1: over 256 MiB, too large for a CSV of scan's" >&2
	else
		return 0
	fi
	exit 1
}

# stdout_put FILE: copy FILE to stdout, or stop with exit 1 when stdout
# is closed or full (awk and sed say nothing then, or say it in their
# own words).
stdout_put() {
	cat "$1" 2>/dev/null || {
		echo "$me: cannot write the output to stdout (closed, or the disk full?)" >&2
		exit 1
	}
}

# The scratch directory and an unfinished output go however the script
# ends; a signal ends it with 128 + the signal's number.
cleanup() {
	[ -z "$tmp" ] || rm -rf "$tmp"
	[ -z "$pending" ] || rm -f "$pending"
}
interrupted() {	# interrupted STATUS
	trap - EXIT INT TERM HUP
	cleanup
	echo "$me: interrupted${interrupt_note:+; $interrupt_note}" >&2
	exit "$1"
}
scratch() {
	tmp=$(mktemp -d) || { echo "$me: cannot make a scratch directory" >&2; exit 1; }
	trap cleanup EXIT
	trap 'interrupted 130' INT
	trap 'interrupted 143' TERM
	trap 'interrupted 129' HUP
}

# output_ok PATH: checked before the work, so a bad -o costs nothing.
output_ok() {
	if [ -d "$1" ]; then
		echo "$me: $1 is a directory; give a file name" >&2
		exit 1
	fi
	if [ -e "$1" ] && [ ! -f "$1" ]; then
		( : >"$1" ) 2>/dev/null && return 0
		echo "$me: cannot write $1" >&2
		exit 1
	fi
	pending="$1.tmp$$"
	( : >"$pending" ) 2>/dev/null || {
		pending=""
		echo "$me: cannot write $1 (its directory $(dirname "$1") does not take a new file)" >&2
		exit 1
	}
	rm -f "$pending"
	pending=""
}

# output_put SRC PATH: PATH gets SRC whole, by a rename, or stays as it was.
# A PATH that exists and is no regular file (/dev/null, a FIFO, a
# terminal) is written in place: renaming over it would replace a device.
output_put() {
	if [ -e "$2" ] && [ ! -f "$2" ]; then
		cat "$1" 2>/dev/null >"$2" && return 0
		echo "$me: cannot write $2" >&2
		exit 1
	fi
	pending="$2.tmp$$"
	if cp "$1" "$pending" 2>/dev/null && mv -f "$pending" "$2" 2>/dev/null; then
		pending=""
		return 0
	fi
	rm -f "$pending" 2>/dev/null
	pending=""
	echo "$me: cannot write $2 (disk full, or its directory gone?)" >&2
	exit 1
}
