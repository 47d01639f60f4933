# shellcheck shell=sh disable=SC2034,SC2154 # kernel.sh sources this: its variables are shared
# kernel/here.sh - can it work here?  The checks kernel.sh makes before
# it makes anything: the options' paths, root, kernel lockdown, tracefs,
# the chosen pfn scanner's tracepoints and the LRU scanner's, the
# memmap's flags, a memory cgroup, the tools, and the working set's size
# against MemAvailable.  Sourced by kernel.sh, which calls here_access
# before it asks each pfn scanner whether it can run here, and
# here_kernel once it has chosen one.
#
# Times nothing.  Leaves as it found: it only reads, but for tracefs,
# mounted at $tracing where it is not (not for --check), and unmounted
# by undo (state.sh) as the script ends; a check that fails stops the
# script (fail: one line, exit 1) before anything else is made.

# proc_value FILE LABEL: the first word after LABEL that starts a line of
# FILE ("MemAvailable:   24166304 kB": 24166304), nothing where none
# does.  Read by the shell: sed's regular expressions overran a 16 KiB
# stack (ulimit -s 16), and a crash in $(...) would end the script silently.
proc_value() {
	pv=""
	while IFS= read -r pv_line; do
		case $pv_line in "$2"*) pv=${pv_line#"$2"}; break ;; esac
	done <"$1"
	while :; do
		case $pv in [[:blank:]]*) pv=${pv#?} ;; *) break ;; esac
	done
	echo "${pv%%[[:blank:]]*}"
}

# here_access: the paths -d, -o and -k name; root; no kernel lockdown
# that forbids tracing; $tracing, tracefs, mounted where it is not
# ($unmounted instead for --check: nothing mounted).
here_access() {
	[ -d "$base" ] || fail "-d $base: no such directory"
	case $(stat -f -c %T -- "$base" 2>/dev/null) in
	tmpfs | ramfs) fail "-d $base is on $(stat -f -c %T -- "$base"): its pages are not page cache that reclaim can drop; give a disk file system" ;;
	esac
	[ -w "$base" ] || fail "-d $base: cannot write there"
	[ -z "$csv" ] || output_ok "$csv"
	if [ -n "$keep" ]; then
		[ ! -e "$keep" ] || fail "-k $keep exists: give a new directory"
		dir_of "$keep"
		if [ ! -d "$out_dir" ] || [ ! -w "$out_dir" ]; then
			fail "-k $keep: its directory $out_dir is not there, or takes no new directory"
		fi
	fi

	[ "$(id -u)" -eq 0 ] || fail "needs root: it makes a memory cgroup and a trace instance and compacts memory"
	lockdown=""
	[ ! -r /sys/kernel/security/lockdown ] || read -r lockdown </sys/kernel/security/lockdown || true
	case $lockdown in *"[confidentiality]"*) lockdown=confidentiality ;; esac
	[ "$lockdown" != confidentiality ] ||
		fail "kernel lockdown (confidentiality) forbids tracing; boot without lockdown=confidentiality"
	tracing=${SCAN_TRACEFS:-/sys/kernel/tracing}
	unmounted=""
	if [ ! -d "$tracing/instances" ] && [ -z "${SCAN_TRACEFS:-}" ]; then
		if [ -n "$check" ]; then
			unmounted=1
		else
			# an if, not &&: a mount that fails must not end the function false
			if mount -t tracefs nodev "$tracing" 2>/dev/null; then mounted=$tracing; fi
		fi
	fi
}

# here_kernel: what the chosen scanner ($pfn_events) and the LRU scanner
# need: their tracepoints (with the CONFIG_ of each system), the memmap's
# flags, a memory cgroup ($cgroot, $cgv), taskset, scan and awk's log();
# then $size where -m gave none, $pages, $cpu (the work's CPU) and $block
# (pfns a pageblock).
here_kernel() {
	if [ -z "$unmounted" ]; then
		[ -d "$tracing/instances" ] || fail "no tracefs at $tracing (CONFIG_TRACING, CONFIG_FTRACE)"
		for e in $pfn_events vmscan/mm_vmscan_lru_isolate vmscan/mm_vmscan_lru_shrink_inactive \
			 pagemap/mm_lru_insertion; do
			[ -d "$tracing/events/$e" ] || fail "this kernel has no ${e%%/*}:${e#*/} tracepoint$(
				case $e in compaction/*) echo " (CONFIG_COMPACTION)" ;;
				migrate/*) echo " (CONFIG_MIGRATION)" ;;
				page_isolation/*) echo " (CONFIG_MEMORY_ISOLATION)" ;;
				damon/*) echo " (CONFIG_DAMON)" ;; esac)"
		done
	fi
	if [ ! -r /proc/kpageflags ] || [ ! -r /proc/kpagecgroup ]; then
		fail "no /proc/kpageflags and /proc/kpagecgroup (CONFIG_PROC_PAGE_MONITOR, CONFIG_MEMCG)"
	fi
	if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
		cgroot=/sys/fs/cgroup cgv=2
		grep -qw memory "$cgroot/cgroup.subtree_control" ||
			fail "the memory controller is not enabled in $cgroot/cgroup.subtree_control"
	elif [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
		cgroot=/sys/fs/cgroup/memory cgv=1
	else
		fail "no memory cgroup: neither cgroup v2 with the memory controller at /sys/fs/cgroup nor v1 at /sys/fs/cgroup/memory (CONFIG_MEMCG)"
	fi
	command -v taskset >/dev/null 2>&1 || fail "needs taskset (util-linux) to keep the work on one CPU"
	need_scan "$me"
	need_math "$me"
	lru_here

	avail=$(proc_value /proc/meminfo MemAvailable:)
	case $avail in '' | *[!0-9]*) fail "cannot read MemAvailable in /proc/meminfo" ;; esac
	avail=$((avail * 1024))
	if [ -z "$size" ]; then
		size=$((avail / 8))
		size=$((size - size % (64 * mib)))
		[ "$size" -le $((1024 * mib)) ] || size=$((1024 * mib))
		[ "$size" -ge $((64 * mib)) ] || fail "MemAvailable is $((avail / mib)) MiB: too little for a 64 MiB working set"
		said="default: an eighth of MemAvailable, at most 1G"
	else
		said="-m"
	fi
	[ "$size" -le $((avail / 4)) ] ||
		fail "-m $((size / mib))M is over a quarter of MemAvailable ($((avail / mib)) MiB): it would press on the rest of the machine"
	pages=$((size / 4096))
	cpu=$(proc_value /proc/self/status Cpus_allowed_list:)	# the shell's: the work's
	cpu=${cpu%%[!0-9]*}
	case $cpu in '' | *[!0-9]*) fail "cannot read the CPUs it may run on in /proc/self/status" ;; esac
	block=""
	[ ! -r /proc/pagetypeinfo ] || block=$(proc_value /proc/pagetypeinfo "Pages per block:")
	case $block in '' | *[!0-9]* | 0*) block=512 ;; esac
}
