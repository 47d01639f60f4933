# scan-env.sh - sourced by the scripts first: the traps, where scan and the
# shared awk are, and the steps every script takes.
# shellcheck disable=SC2034 # sourced: the scripts read $scan, $awk, $share
# A script runs from the source tree (scripts/x.sh, scan built beside
# scripts/) or installed (BINDIR/scan-x, scan beside it, this file and
# the .awk files in DATADIR/scan).  The helpers below name their own
# variables with a prefix (awk_, cl_, out_...): a script's k or dir
# survives them, as POSIX sh has no local variables.
#
#   $me        the name the script was run as: scan-x installed, else x.sh
#   $scan      SCAN if set, else scan beside the script, else the source
#              tree's ./scan, else scan on PATH, else ./scan
#   $scan_from where $scan came from, in words (for -h and need_scan)
#   $share     the directory of lib.awk and the scripts' NAME.awk files
#   $awklib    the text of lib.awk, for collect.sh's programs still given
#              as text (in argv: they fail under ulimit -s 16)
#   $awk       AWK if set (a command, maybe with arguments: AWK='busybox
#              awk'), else awk
#   LC_ALL     C, exported: every tool reads bytes as bytes, so a name's
#              invalid UTF-8 is seen, and length() counts bytes
#   LD_BIND_NOW  1, exported (why: below)
#   as_user CMD...     CMD with the user's LC_ALL, LD_BIND_NOW and soft
#                      stack limit
#
#   run_awk NAME [ARG...]  $awk with lib.awk and NAME.awk, each read
#                      from $share (-f), never from argv: a program in
#                      argv fails exec under ulimit -s 16; NAME may be
#                      "stats compare": every NAME.awk, in that order
#   operand FILE       $operand: FILE as awk reads an operand: ./FILE
#                      when awk would take FILE for an assignment (x=y)
#                      or an option (-x)
#   usage              the script's #/ header, under the name it was run
#                      as, through the output check
#   need_scan NAME     stop NAME unless $scan runs; say where it looked
#   need_math NAME     stop NAME unless $awk has log() (Debian's BusyBox
#                      awk is built without)
#   warning_codes      $warning_codes, exported: the codes of scan's
#                      warnings, most important first, as scan --fields
#                      lists them (lib.awk's warn_order() reads them)
#   scratch            $tmp, a directory removed however the script ends,
#                      in TMPDIR; stop, naming TMPDIR, if it takes no file
#   scratch_ok         the same check later, after a step failed: a full
#                      TMPDIR is then named, not the step
#   say_line TEXT      TEXT on stderr as one line of printable text: control
#                      bytes and bytes that are no UTF-8 written \xNN, as
#                      scan writes them
#   command_line WORD...  $line: the words quoted as a shell reads them
#   usage_error MSG    "$me: MSG (-h for help)", one line on stderr, exit 2
#                      (MSG ending in scan's "(scan -h for help)" as it is)
#   fail MSG           "$me: MSG", one line on stderr, exit 1
#   whole OPT VALUE    a usage error unless VALUE is 1 to 999999999
#   decimal VALUE      VALUE is a positive decimal, up to 9 digits before
#                      its point (status 1 if not)
#   input_ok FILE      stop (exit 1, a line) unless FILE is a readable
#                      regular file under 256 MiB (or -, stdin)
#   stdout_put FILE [WHAT]  copy FILE to stdout; exit 1, a line, if it
#                      fails
#   output_ok PATH     stop (exit 1, a line) unless PATH can be written:
#                      not a directory, in a directory that takes a file,
#                      not a file without write permission (out_writable);
#                      a FIFO or a device is not opened to check it
#   output_put SRC PATH  PATH gets SRC whole or stays as it was: SRC is
#                      copied to a temporary from mktemp beside PATH, given
#                      PATH's mode (a new file: the umask's), then renamed
#                      over PATH; a FIFO or a device is written in place
#
# Signals are trapped here, before any work: SIGINT, SIGTERM and SIGHUP
# end the script with 130, 143 and 129 and "NAME: interrupted" (and
# $interrupt_note), the scratch directory and an unfinished output gone;
# a second signal while it cleans up is ignored, so the clean-up ends.
# The clean-up runs without set -e: a step that fails (a file already
# gone) must not end it before the rest.
#
# The stack: below 8 MiB, the soft limit (ulimit -S -s) is raised toward
# the hard one, 8 MiB at most, before any work; where the hard limit
# keeps it under 64 KiB, a line says so.  Under ulimit -s 16 (which sets
# both), a signal's frame (3 KiB of AVX-512 state) on dash waiting for
# a child overran the stack in 3 runs of 20 of collect.sh
# ("Segmentation fault", exit 139); under ulimit -Ss 16 it is raised.
# SIGXFSZ is ignored, here and in what the script runs: a file over
# ulimit -f is then a write that fails (EFBIG), said as such, not a
# silent death with exit 153.
me=${0##*/}
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
share=""
tmp=""
awk=${AWK:-awk}
pending=""		# an output's temporary name, removed if the script stops
interrupt_note=""	# a line for the user when a signal stops the script
out_written=""		# the output output_put last wrote
at_exit=""		# a function of the script's, run first when it ends
# What the traps call is defined before them: a signal in the first
# milliseconds found say_line not yet defined (exit 127, "not found").
# Until $share is set below, say_line falls back to tr.

# run_awk NAME [ARG...]: see above.  $awk is split into words (it may be a
# command and its arguments), never globbed.
run_awk() {
	awk_names=$1
	shift
	awk_args=$#	# ARG...: moved after the programs, below
	set -f
	set -- "$@" -f "$share/lib.awk"
	for awk_name in $awk_names; do
		set -- "$@" -f "$share/$awk_name.awk"
	done
	set +f
	while [ "$awk_args" -gt 0 ]; do
		set -- "$@" "$1"
		shift
		awk_args=$((awk_args - 1))
	done
	# shellcheck disable=SC2086 # $awk: a command, maybe with arguments
	$awk "$@"
}

# say_line TEXT: see above.  Without a working awk, every byte that is
# not printable ASCII becomes a ?.  The redirections are awk's, never a
# function's: a trap that ran inside run_awk ... 2>/dev/null wrote its
# "interrupted" to /dev/null (results.sh, SIGINT as it said a step).
say_line() {
	set -f
	# shellcheck disable=SC2086 # $awk: a command, maybe with arguments
	scan_text=$1 $awk -f "$share/lib.awk" -f "$share/plain.awk" </dev/null >&2 2>/dev/null ||
		{ printf '%s' "$1" | tr -c ' -~' '?'; echo; } >&2
	set +f
}

cleanup() {
	set +e
	[ -z "$at_exit" ] || "$at_exit"
	[ -z "$tmp" ] || rm -rf "$tmp"
	[ -z "$pending" ] || rm -f "$pending"
}
interrupted() {	# interrupted STATUS
	trap - EXIT
	trap '' INT TERM HUP
	cleanup
	say_line "$me: interrupted${interrupt_note:+; $interrupt_note}"
	exit "$1"
}
trap cleanup EXIT
trap 'interrupted 130' INT
trap 'interrupted 143' TERM
trap 'interrupted 129' HUP
trap '' XFSZ

# the user's, for a command run on the user's behalf (as_user)
user_lc_all=${LC_ALL-} user_lc_all_set=${LC_ALL+1}
user_bind_now=${LD_BIND_NOW-} user_bind_now_set=${LD_BIND_NOW+1}
LC_ALL=C
# glibc binds every call of a tool at its start, on a shallow stack: bound
# lazily, deep in sed or expr, the resolver's AVX-512 state overran a
# 16 KiB stack (ulimit -s 16) in about 1 run in 4 on an AMD EPYC (Zen 5)
LD_BIND_NOW=1
export LC_ALL LD_BIND_NOW
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
share=$here
[ -r "$share/lib.awk" ] || share=$(dirname "$0")/../share/scan
awklib=$(cat "$share/lib.awk")

# The stack (see above): $user_stack the user's soft limit in KiB,
# $stack_kb this script's.
# shellcheck disable=SC3045 # dash, bash and BusyBox sh have ulimit -S/-H -s
user_stack=$(ulimit -S -s 2>/dev/null) || user_stack=""
stack_kb=$user_stack
case $user_stack in
'' | *[!0-9]*) ;;	# unlimited, or no ulimit here
*)
	if [ "$user_stack" -lt 8192 ]; then
		# shellcheck disable=SC3045
		stack_hard=$(ulimit -H -s 2>/dev/null) || stack_hard=$user_stack
		case $stack_hard in
		unlimited) stack_kb=8192 ;;
		'' | *[!0-9]*) ;;
		*) stack_kb=$((stack_hard < 8192 ? stack_hard : 8192)) ;;
		esac
		# shellcheck disable=SC3045
		[ "$stack_kb" -le "$user_stack" ] || ulimit -S -s "$stack_kb" 2>/dev/null || stack_kb=$user_stack
		[ "$stack_kb" -ge 64 ] ||
			say_line "$me: the stack limit is $stack_kb KiB and its hard limit keeps it there (ulimit -s sets both): a step may die of SIGSEGV; give it 64 KiB or more"
	fi ;;
esac

# as_user CMD ARG...: see above.
as_user() {
	(
		if [ -n "$user_lc_all_set" ]; then LC_ALL=$user_lc_all; else unset LC_ALL; fi
		if [ -n "$user_bind_now_set" ]; then LD_BIND_NOW=$user_bind_now; else unset LD_BIND_NOW; fi
		# shellcheck disable=SC3045 # dash, bash and BusyBox sh have it
		[ "$user_stack" = "$stack_kb" ] || ulimit -S -s "$user_stack" 2>/dev/null || :
		exec "$@"
	)
}

# operand FILE: see above (- stays stdin).
operand() {
	case $1 in
	[A-Za-z_]*=* | -?* | +*) operand=./$1 ;;
	*) operand=$1 ;;
	esac
}

# command_line WORD...: $line, the words as a shell reads them back: a
# word with anything but letters, digits and _.,:=/+%@- in single quotes.
# (For a message or a report: the scripts run commands as words, never
# as a line; say_line or plain() then escapes any control byte.)
command_line() {
	line=""
	for cl_word; do
		case $cl_word in
		'' | *[!A-Za-z0-9_.,:=/+%@-]*)
			cl_quoted=""
			while :; do
				case $cl_word in
				*\'*) cl_quoted="$cl_quoted${cl_word%%\'*}'\\''" cl_word=${cl_word#*\'} ;;
				*) break ;;
				esac
			done
			cl_word="'$cl_quoted$cl_word'" ;;
		esac
		line="$line${line:+ }$cl_word"
	done
}

# usage_error MESSAGE: a usage error, one line on stderr, exit 2; one
# hint to -h, not a second after scan's own.
usage_error() {
	case $1 in
	*'-h for help)') say_line "$me: $1" ;;
	*) say_line "$me: $1 (-h for help)" ;;
	esac
	exit 2
}

# fail MESSAGE: a runtime failure, one line, exit 1.
fail() {
	say_line "$me: $1"
	exit 1
}

need_math() {
	set -f
	# shellcheck disable=SC2086 # $awk may be a command and its arguments
	if ! command -v ${awk%% *} >/dev/null 2>&1; then
		say_line "$1: no awk: $awk not found"
		exit 1
	fi
	# shellcheck disable=SC2086
	if ! $awk 'BEGIN { x = log(10); exit !(x > 2.3 && x < 2.31) }' >/dev/null 2>&1; then
		say_line "$1: $awk has no math (log, ^): use gawk or mawk, e.g. AWK=gawk"
		exit 1
	fi
	set +f
}

# usage: the script's header block, the lines that start with #/, with
# scripts/NAME.sh as it was run (installed: every scripts/X.sh as scan-X),
# the synopsis's further lines moved to stay under its options, and the
# scan this copy would run; a closed or full stdout is exit 1 and a line.
usage() {
	usage_self=${me#scan-}
	operand "$0"
	usage_text=$(installed=$([ "${me#scan-}" != "$me" ] && echo 1) \
	    self=scripts/${usage_self%.sh}.sh prog=$0 scan=$scan from=$scan_from \
	    run_awk usage "$operand") || fail "cannot read its own help in $0"
	printf '%s\n' "$usage_text" 2>/dev/null ||
		fail "cannot write the help to stdout (closed, or the disk full?)"
}

# need_scan NAME: stop NAME unless $scan can run, saying where it looked.
need_scan() {
	[ -x "$scan" ] && [ ! -d "$scan" ] && return 0
	if [ "$scan_from" = SCAN ]; then
		say_line "$1: SCAN=$SCAN is not a program that can run"
	else
		say_line "$1: no scan: looked beside $me ($here/scan), in its source tree ($here/../scan), on PATH and in $(pwd); run make in the source tree, or set SCAN"
	fi
	exit 1
}

# warning_codes: see above; empty where scan does not list them.  The
# group's stderr goes too: a scan killed by a signal (one that cannot
# start under a ulimit) is reported by the shell, on its own stderr.
warning_codes() {
	warning_codes=$({ "$scan" --fields |
		awk '$1 == "warnings" && sub(/.*first: /, "") { print; exit }'; } 2>/dev/null) || warning_codes=""
	export warning_codes
}

# decimal VALUE: VALUE is a positive decimal with up to nine digits
# before its point (scan's -c: millions of pages).
decimal() {
	case $1 in
	*[!0-9.]* | *.*.* | . | '') return 1 ;;
	*[1-9]*) dec_int=${1%%.*}; [ ${#dec_int} -le 9 ] ;;
	*) return 1 ;;
	esac
}

# whole OPTION VALUE: VALUE is a whole number from 1 to 999999999 (nine
# digits at most: the shell's arithmetic never overflows on it).
whole() {
	case $2 in
	'' | *[!0-9]* | 0* | ??????????*) usage_error "$1 '$2': not a whole number from 1 to 999999999" ;;
	esac
}

# file_bytes FILE: its size.  stat where it has -c (GNU, BusyBox): GNU
# wc keeps a 16 KiB buffer on its stack and dies under ulimit -s 16.
file_bytes() {
	stat -L -c %s -- "$1" 2>/dev/null || wc -c <"$1"
}

# input_ok FILE: FILE (or - for stdin) can be read as a CSV: a regular
# file, readable, under 256 MiB.  A FIFO, a device or a directory would
# hang or confuse awk; a huge (sparse) file would take hours.
input_ok() {
	[ "$1" = - ] && return 0
	if [ ! -e "$1" ]; then
		fail "cannot read $1: no such file"
	elif [ ! -f "$1" ]; then
		fail "cannot read $1: not a regular file"
	elif [ ! -r "$1" ]; then
		fail "cannot read $1: permission denied"
	elif [ "$(file_bytes "$1")" -gt 268435456 ]; then
		fail "cannot read $1: over 256 MiB, too large for a CSV of scan's"
	fi
}

# stdout_put FILE: copy FILE to stdout, or stop with exit 1 when stdout
# is closed or full (awk and sed say nothing then, or say it in their
# own words).
stdout_put() {	# stdout_put FILE [WHAT]: WHAT names it in the message
	cat "$1" 2>/dev/null ||
		fail "cannot write ${2:-the output} to stdout (closed, or the disk full?)"
}

# scratch: $tmp, and a check that it takes 64 KiB (a script's scratch
# files are that order): a full TMPDIR (or ulimit -f) is named before the
# work, not as the step that failed.
scratch() {
	tmp=$(mktemp -d 2>/dev/null) ||
		fail "cannot make a scratch directory in TMPDIR (${TMPDIR:-/tmp}): not there, not writable or full"
	case $tmp in /*) ;; *) tmp=$(pwd)/$tmp ;; esac	# never an awk assignment
	scratch_room 65536
}
scratch_ok() {
	scratch_room 1
}
scratch_room() {	# scratch_room BYTES: they fit in $tmp (cat says why not)
	room_why=$(printf "%${1}s" '' | cat 2>&1 >"$tmp/.room") ||
		fail "cannot write scratch files in TMPDIR (${TMPDIR:-/tmp}): ${room_why##*: }"
	rm -f "$tmp/.room"
}

# dir_of PATH: $out_dir, the directory PATH is in (no dirname: a name that
# ends in a newline would lose it in $(...)).
dir_of() {
	case $1 in
	*/*) out_dir=${1%/*}; out_dir=${out_dir:-/} ;;
	*) out_dir=. ;;
	esac
}

# out_writable FILE: stop (exit 1, a line) unless the user may write the
# file FILE as "echo >FILE" may: the rename that puts an output in place
# needs only its directory, and would replace a file its owner made
# read-only.  Root, whose writes the kernel never refuses, is refused a
# file with no write permission bit at all (chmod a-w), like a user.
# A file this script wrote itself (an umask of 222) stays its to update.
out_writable() {
	[ "$1" != "$out_written" ] || return 0
	out_bits=$(mode_of "$1") || fail "cannot read the mode of $1"
	# a write bit: in the last three octal digits (a fourth is set-id and
	# sticky), or a w in ls's u=rw,g=r,o=r
	case $out_bits in
	*=*w* | *[2367] | *[2367]? | *[2367]??) [ -w "$1" ] && return 0 ;;
	esac
	fail "cannot write $1: permission denied (mode $out_bits; it is left as it is)"
}

# output_ok PATH: checked before the work, so a bad -o costs nothing.
output_ok() {
	[ ! -d "$1" ] || fail "$1 is a directory; give a file name"
	if [ -e "$1" ] && [ ! -f "$1" ]; then
		[ -w "$1" ] || fail "cannot write $1"
		return 0
	fi
	[ ! -e "$1" ] || out_writable "$1"
	dir_of "$1"
	# the probe is $pending while it lives: a signal before the rm (rm
	# killed with the process group) left it behind
	pending=$(mktemp "$out_dir/.$me.XXXXXX" 2>/dev/null) ||
		fail "cannot write $1 (its directory $out_dir does not take a new file)"
	rm -f "$pending"
	pending=""
}

# mode_of FILE: its permission bits as chmod takes them (stat -c where
# there is one; else ls -l's, without set-id and sticky bits).
mode_of() {
	stat -L -c %a -- "$1" 2>/dev/null && return 0
	out_perm=$(ls -ldL -- "$1") || return 1
	printf '%s\n' "${out_perm%% *}" |
		sed 's/^.\(...\)\(...\)\(...\).*/u=\1,g=\2,o=\3/; y/sStT/x-x-/; s/-//g'
}

# output_put SRC PATH: PATH gets SRC whole, by a rename, or stays as it was.
output_put() {
	if [ -e "$2" ] && [ ! -f "$2" ]; then
		# a device, a FIFO, a terminal: renaming over it would replace it
		out_why=$(cat "$1" 2>&1 >"$2") || fail "cannot write $2: ${out_why##*: }"
		return 0
	fi
	if [ -e "$2" ]; then
		out_writable "$2"
		out_mode=$(mode_of "$2") || fail "cannot read the mode of $2"
	else
		out_mode=$(printf '%o' $((0666 & ~$(umask))))
	fi
	dir_of "$2"
	pending=$(mktemp "$out_dir/.$me.XXXXXX" 2>/dev/null) ||
		fail "cannot write $2 (its directory $out_dir does not take a new file)"
	out_rc=0 out_why=""
	out_why=$(cat "$1" 2>&1 >"$pending") || out_rc=$? out_step=cat
	[ "$out_rc" -ne 0 ] || chmod "$out_mode" "$pending" 2>/dev/null || out_rc=$? out_step=chmod
	[ "$out_rc" -ne 0 ] || mv -f -- "$pending" "$2" 2>/dev/null || out_rc=$? out_step=mv
	if [ "$out_rc" -eq 0 ]; then
		pending=""
		out_written=$2
		return 0
	fi
	rm -f "$pending" 2>/dev/null
	pending=""
	# cat's reason, without its "cat: write error: " (No space left on
	# device); else which step failed and how (a tool killed: 139)
	if [ -n "$out_why" ]; then
		out_why=${out_why##*: }
	else
		out_why="$out_step exited $out_rc"
	fi
	fail "cannot write $2: $out_why"
}
