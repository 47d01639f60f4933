#!/bin/sh
#/ trace-lru.sh - record the order in which folios enter the LRU, for
#/ scan --lru-order.
#/
#/ usage: sudo scripts/trace-lru.sh [-h] [-o FILE] [-b KB] -s SECONDS
#/        sudo scripts/trace-lru.sh [-h] [-o FILE] [-b KB] COMMAND [ARG...]
#/
#/ Turns on the kernel's pagemap:mm_lru_insertion tracepoint in a trace
#/ instance of its own (mounting tracefs on /sys/kernel/tracing if it is
#/ not, and unmounting it after), runs COMMAND (or waits SECONDS), and writes the pfn of every
#/ folio added to an LRU list, in the order added, one a line (0x hex, as
#/ the trace prints it) to FILE (default lru-order.txt).  Take the
#/ snapshot right after and replay the two together:
#/
#/   sudo scripts/trace-lru.sh -o lru.txt COMMAND
#/   sudo scripts/snapshot.sh -o snap
#/   ./scan --memmap-from=snap/kpageflags --lru-order=lru.txt -v
#/
#/   -o FILE     where the pfns go (default lru-order.txt); checked
#/               writable before the trace, and written whole or not at all
#/   -b KB       the trace buffer per CPU in KiB (default 131072);
#/               insertions it dropped are counted and reported: the file
#/               orders what was kept
#/   -s SECONDS  trace the whole machine this long instead of a command
#/   -h          this help
#/
#/ Exit status: COMMAND's (FILE is written either way); 2 a usage error
#/ (one line); 1 when tracing or writing FILE fails, with FILE untouched.
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"


# whole OPTION VALUE: VALUE is a whole number from 1, up to 9 digits.
whole() {
	case $2 in
	'' | *[!0-9]* | 0* | ??????????*) usage_error "$1 '$2': give a whole number from 1, up to 9 digits" ;;
	esac
}

out=lru-order.txt kb=131072 seconds=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o) [ -n "${2:-}" ] || usage_error "-o needs a file"; out=$2; shift ;;
	-b) [ $# -ge 2 ] || usage_error "-b needs KB"; whole -b "$2"; kb=$2; shift ;;
	-s) [ $# -ge 2 ] || usage_error "-s needs SECONDS"; whole -s "$2"; seconds=$2; shift ;;
	--) shift; break ;;
	-*) usage_error "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
if [ -n "$seconds" ] && [ $# -gt 0 ]; then
	usage_error "-s or a command, not both"
fi
[ -n "$seconds" ] || [ $# -gt 0 ] || usage_error "give a command to trace, or -s SECONDS"
[ $# -eq 0 ] || command -v "$1" >/dev/null 2>&1 || usage_error "no command $1 to run"

# The pfns go to the scratch directory, then to FILE through output_put:
# whole or not at all, FILE's mode kept; checked writable before the trace.
output_ok "$out"
scratch
inst="" mounted="" waiting=""
# stop_trace, however the script ends, at any moment: $inst is named
# before the mkdir that makes it (a signal then found it named and not
# made, and the write below, failing, ended the clean-up with exit 2);
# stderr goes before the redirection that may fail.
# shellcheck disable=SC2317 # run by scan-env.sh's cleanup
stop_trace() {
	if [ -n "$waiting" ]; then	# -s: the sleep, not left to run
		kill "$waiting" 2>/dev/null
		waiting=""
	fi
	if [ -n "$inst" ] && [ -d "$inst" ]; then
		echo 0 2>/dev/null >"$inst/events/pagemap/mm_lru_insertion/enable"
		rmdir "$inst" 2>/dev/null ||
			say_line "$me: cannot remove the trace instance $inst: rmdir it"
	fi
	inst=""
	# tracefs unmounted again where this script mounted it
	[ -z "$mounted" ] || umount "$mounted" 2>/dev/null || true
	mounted=""
}
at_exit=stop_trace

tracing=/sys/kernel/tracing
if [ ! -d "$tracing/events" ]; then
	mounted=$tracing	# named first, as $inst is
	mount -t tracefs nodev "$tracing" 2>/dev/null ||
		{ mounted=""; fail "no tracefs at $tracing (root? CONFIG_TRACING?)"; }
fi
[ -d "$tracing/events/pagemap/mm_lru_insertion" ] ||
	fail "this kernel has no pagemap:mm_lru_insertion tracepoint"
inst=$tracing/instances/scan-lru-$$
mkdir "$inst" 2>/dev/null || { inst=""; fail "cannot make a trace instance (root?)"; }
echo "$kb" 2>/dev/null >"$inst/buffer_size_kb" || fail "the trace buffer cannot be $kb KiB a CPU"
echo 1 2>/dev/null >"$inst/events/pagemap/mm_lru_insertion/enable" ||
	fail "cannot turn on pagemap:mm_lru_insertion in $inst"
rc=0
if [ -n "$seconds" ]; then
	# in the background: wait returns at a signal, where a sleep in the
	# foreground held the trap back for SECONDS
	sleep "$seconds" &
	waiting=$!
	wait "$waiting"
	waiting=""
else
	# COMMAND in the foreground (its terminal, its Ctrl-C): a signal to
	# this script alone is acted on when COMMAND ends
	as_user "$@" || rc=$?
fi
echo 0 2>/dev/null >"$inst/events/pagemap/mm_lru_insertion/enable" ||
	fail "cannot turn off pagemap:mm_lru_insertion in $inst"
awk '/ mm_lru_insertion: / && match($0, / pfn=0x[0-9a-f]* /) { print substr($0, RSTART + 5, RLENGTH - 6) }' \
	"$inst/trace" >"$tmp/pfns" ||
	{ scratch_ok; fail "cannot read the trace"; }
count=$(grep -c '' "$tmp/pfns" || true)
lost=$(cat "$inst"/per_cpu/cpu*/stats 2>/dev/null | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
output_put "$tmp/pfns" "$out"
say_line "$me: $count insertions in $out, $lost dropped by the buffer"
[ "$rc" -eq 0 ] || say_line "$me: the command exited $rc"
exit "$rc"
