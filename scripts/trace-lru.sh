#!/bin/sh
#/ trace-lru.sh - record the order in which folios enter the LRU, for
#/ scan --lru-order.
#/
#/ usage: sudo scripts/trace-lru.sh [-h] [-o FILE] [-b KB] -s SECONDS
#/        sudo scripts/trace-lru.sh [-h] [-o FILE] [-b KB] COMMAND [ARG...]
#/
#/ Turns on the kernel's pagemap:mm_lru_insertion tracepoint in a trace
#/ instance of its own (mounting tracefs on /sys/kernel/tracing if it is
#/ not), runs COMMAND (or waits SECONDS), and writes the pfn of every
#/ folio added to an LRU list, in the order added, one a line (0x hex, as
#/ the trace prints it) to FILE (default lru-order.txt).  Take the
#/ snapshot right after and replay the two together:
#/
#/   sudo scripts/trace-lru.sh -o lru.txt COMMAND
#/   sudo scripts/snapshot.sh -o snap
#/   ./scan --memmap-from=snap/kpageflags --lru-order=lru.txt -v
#/
#/ -b sets the buffer per CPU (default 131072 KiB); insertions the
#/ buffer dropped are counted and reported: the file orders what was kept.
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

out=lru-order.txt kb=131072 seconds=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o) [ $# -ge 2 ] || { usage >&2; exit 2; }; out=$2; shift ;;
	-b) [ $# -ge 2 ] || { usage >&2; exit 2; }; kb=$2; shift ;;
	-s) [ $# -ge 2 ] || { usage >&2; exit 2; }; seconds=$2; shift ;;
	--) shift; break ;;
	-*) echo "trace-lru.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
case $kb$seconds in *[!0-9]*) echo "trace-lru.sh: -b and -s take whole numbers" >&2; exit 2 ;; esac
if [ -n "$seconds" ] && [ $# -gt 0 ]; then
	echo "trace-lru.sh: -s or a command, not both" >&2; exit 2
fi
[ -n "$seconds" ] || [ $# -gt 0 ] || { usage >&2; exit 2; }

tracing=/sys/kernel/tracing
[ -d "$tracing/events" ] || mount -t tracefs nodev "$tracing" 2>/dev/null || {
	echo "trace-lru.sh: no tracefs at $tracing (root? CONFIG_TRACING?)" >&2
	exit 1
}
[ -d "$tracing/events/pagemap/mm_lru_insertion" ] || {
	echo "trace-lru.sh: this kernel has no pagemap:mm_lru_insertion tracepoint" >&2
	exit 1
}
inst=$tracing/instances/scan-lru-$$
mkdir "$inst" || { echo "trace-lru.sh: cannot make a trace instance (root?)" >&2; exit 1; }
trap 'echo 0 >"$inst/events/pagemap/mm_lru_insertion/enable" 2>/dev/null; rmdir "$inst" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
echo "$kb" >"$inst/buffer_size_kb"
echo 1 >"$inst/events/pagemap/mm_lru_insertion/enable"
rc=0
if [ -n "$seconds" ]; then
	sleep "$seconds"
else
	"$@" || rc=$?
fi
echo 0 >"$inst/events/pagemap/mm_lru_insertion/enable"
sed -n 's/.* mm_lru_insertion: .* pfn=\(0x[0-9a-f]*\) .*/\1/p' "$inst/trace" >"$out"
lost=$(cat "$inst"/per_cpu/cpu*/stats 2>/dev/null | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
echo "trace-lru.sh: $(wc -l <"$out" | tr -d ' ') insertions in $out, $lost dropped by the buffer" >&2
[ "$rc" -eq 0 ] || echo "trace-lru.sh: the command exited $rc" >&2
exit "$rc"
