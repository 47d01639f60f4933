#!/bin/sh
# trace-lru.sh: recording the order pages enter the LRU (the
# mm_lru_insertion tracepoint), for scan --lru-order.
. tests/lib.sh

# trace-lru: usage errors always; a short trace where root may trace
scripts/trace-lru.sh >/dev/null 2>&1
check "trace-lru: no command and no -s: usage, exit 2" [ $? -eq 2 ]
scripts/trace-lru.sh -s 1 true >/dev/null 2>&1
check "trace-lru: -s and a command: exit 2" [ $? -eq 2 ]
if [ "$(id -u)" -eq 0 ] && { [ -d /sys/kernel/tracing/events/pagemap/mm_lru_insertion ] ||
	{ mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
	  [ -d /sys/kernel/tracing/events/pagemap/mm_lru_insertion ]; }; }; then
	scripts/trace-lru.sh -o "$tmp/lru" -b 1024 sh -c "head -c 4M /dev/zero >'$tmp/4m'" 2>"$tmp/lru.err"
	rc=$?
	check "trace-lru: a pfn a line and a count" \
		sh -c "[ $rc -eq 0 ] && [ -s '$tmp/lru' ] && ! grep -qv '^0x[0-9a-f]*\$' '$tmp/lru' &&
			grep -Eq '^trace-lru.sh: [0-9]+ insertions in .*, [0-9]+ dropped by the buffer\$' '$tmp/lru.err'"
	check "trace-lru: its trace instance is gone" \
		sh -c "! ls /sys/kernel/tracing/instances | grep -q '^scan-lru-'"
else
	skip "trace-lru: a live trace" "not root, or no mm_lru_insertion tracepoint"
fi
