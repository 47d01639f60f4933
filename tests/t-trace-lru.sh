#!/bin/sh
# trace-lru.sh: recording the order pages enter the LRU (the
# mm_lru_insertion tracepoint), for scan --lru-order.
. tests/lib.sh

# trace-lru: usage errors always; a short trace where root may trace
scripts/trace-lru.sh >/dev/null 2>&1
check "trace-lru: no command and no -s: usage, exit 2" [ $? -eq 2 ]
scripts/trace-lru.sh -s 1 true >/dev/null 2>&1
check "trace-lru: -s and a command: exit 2" [ $? -eq 2 ]
# lru_instances: trace-lru's trace instances now, a name a line;
# no_new_instance BEFORE: none that BEFORE did not list (another
# trace-lru may be running on this machine: its instance is not ours).
lru_instances() {
	for i in /sys/kernel/tracing/instances/scan-lru-*; do
		[ -d "$i" ] && echo "$i"
	done
}
no_new_instance() {
	! lru_instances | grep -vxF "${1:-none}" | grep -q .
}
if [ "$(id -u)" -eq 0 ] && { [ -d /sys/kernel/tracing/events/pagemap/mm_lru_insertion ] ||
	{ mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
	  [ -d /sys/kernel/tracing/events/pagemap/mm_lru_insertion ]; }; }; then
	before=$(lru_instances)
	scripts/trace-lru.sh -o "$tmp/lru" -b 1024 sh -c "head -c 4M /dev/zero >'$tmp/4m'" 2>"$tmp/lru.err"
	rc=$?
	check "trace-lru: a pfn a line and a count" \
		sh -c "[ $rc -eq 0 ] && [ -s '$tmp/lru' ] && ! grep -qv '^0x[0-9a-f]*\$' '$tmp/lru' &&
			grep -Eq '^trace-lru.sh: [0-9]+ insertions in .*, [0-9]+ dropped by the buffer\$' '$tmp/lru.err'"
	check "trace-lru: its trace instance is gone" \
		no_new_instance "$before"
	# -o a FIFO (like /dev/stdout or a device): written in place, not
	# renamed over (as root that replaced /dev/full with a file)
	mkfifo "$tmp/lru.fifo"
	timeout 10 cat "$tmp/lru.fifo" >"$tmp/lru.read" &
	scripts/trace-lru.sh -o "$tmp/lru.fifo" -b 1024 true 2>/dev/null
	rc=$?
	wait
	check "trace-lru -o a FIFO: written through it, the FIFO stays" \
		sh -c "[ $rc -eq 0 ] && [ -p '$tmp/lru.fifo' ] && ! grep -qv '^0x[0-9a-f]*\$' '$tmp/lru.read'"
else
	skip "trace-lru: a live trace" "not root, or no mm_lru_insertion tracepoint"
fi

# usage errors and an output that cannot be written: refused before any
# trace, one line
tl=scripts/trace-lru.sh
for a in "-b abc" "-b 0" "-s 0" "-s 1x" "-x" "-o"; do
	# shellcheck disable=SC2086 # a is a word list
	check "trace-lru $a: usage error" refused 2 $tl $a true
done
check "trace-lru -o DIRECTORY: exit 1" refused 1 $tl -o "$tmp" true
check "trace-lru -o in a missing directory: exit 1" refused 1 $tl -o "$tmp/no/such" true
check "trace-lru -o in a missing directory: says so before tracing" err_has 'cannot write .*/no/such'
# a full disk: a 4 KiB tmpfs holding an older FILE, and 4 MiB of page
# cache traced into it
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/events/pagemap/mm_lru_insertion ] &&
	mkdir "$tmp/full" && mount -t tmpfs -o size=4k tmpfs "$tmp/full" 2>/dev/null; then
	echo old >"$tmp/full/lru"
	before=$(lru_instances)
	check "trace-lru -o on a full disk: exit 1, one line" \
		refused 1 $tl -o "$tmp/full/lru" -b 1024 sh -c "head -c 4M /dev/zero >'$tmp/4m'"
	check "trace-lru -o on a full disk: says why" err_has 'No space left on device'
	check "trace-lru -o on a full disk: FILE as it was, nothing beside it" \
		sh -c "[ \"\$(cat '$tmp/full/lru')\" = old ] && [ \"\$(ls -A '$tmp/full')\" = lru ]"
	check "trace-lru -o on a full disk: its trace instance is gone" \
		no_new_instance "$before"
	umount "$tmp/full"
else
	skip "trace-lru on a full disk" "not root, no mm_lru_insertion tracepoint, or no tmpfs"
fi

# a command that does not exist: one line before any tracing, not the
# shell's "not found"
scripts/trace-lru.sh -o "$tmp/p.lru" /nonexistent/cmd >/dev/null 2>"$tmp/p.err"
check "trace-lru: a missing command, one line, exit 2" \
	sh -c "[ $? -eq 2 ] && [ \$(wc -l <'$tmp/p.err') -eq 1 ] && grep -q 'no command /nonexistent/cmd' '$tmp/p.err' && [ ! -e '$tmp/p.lru' ]"
