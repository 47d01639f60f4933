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

# Signals at any moment: 128+N, "interrupted", no trace instance, nothing
# left in TMPDIR or beside -o.  (The probe: SIGTERM 0.05 s in gave exit
# 2, no "interrupted", the scratch left, and "cannot create
# .../scan-lru-PID/events/pagemap/...": the clean-up wrote into an
# instance named but not yet made.)
# stopped NAME STATUS: the last stop_lru run exited STATUS, said
# "interrupted", and left nothing: no instance of its, TMPDIR and the -o
# directory empty
stopped() {
	[ "$rc" -eq "$2" ] && grep -q '^trace-lru.sh: interrupted$' "$tmp/$1.err" &&
		[ "$(grep -c . "$tmp/$1.err")" -le 2 ] &&
		[ -z "$(ls -A "$tmp/$1.tmp")" ] && [ -z "$(ls -A "$tmp/$1.dir")" ] && [ -z "$sl_left" ]
}
# stop_lru NAME SIG WAIT DELAY ARG...: trace-lru.sh ARG... in a process
# group of its own, SIG to the group (to the script alone where WAIT is
# pid) DELAY seconds after its scratch directory appears (its traps are
# set by then); $rc its status
stop_lru() {
	sl_name=$1 sl_sig=$2 sl_to=$3 sl_delay=$4
	shift 4
	before=$(lru_instances)
	mkdir "$tmp/$sl_name.tmp" "$tmp/$sl_name.dir"
	TMPDIR="$tmp/$sl_name.tmp" setsid env --default-signal=INT,TERM,HUP \
		sh scripts/trace-lru.sh -o "$tmp/$sl_name.dir/lru" "$@" 2>"$tmp/$sl_name.err" &
	sl_pid=$!
	sl_i=0
	while [ -z "$(ls -A "$tmp/$sl_name.tmp")" ] && [ "$sl_i" -lt 100 ]; do
		sleep 0.05
		sl_i=$((sl_i + 1))
	done
	sleep "$sl_delay"
	if [ "$sl_to" = pid ]; then
		kill -s "$sl_sig" "$sl_pid" 2>/dev/null
	else
		env kill -s "$sl_sig" -- -"$sl_pid" 2>/dev/null
	fi
	sl_i=0	# 10 s at most: a hang fails the check
	while kill -0 "$sl_pid" 2>/dev/null && [ "$sl_i" -lt 200 ]; do
		sleep 0.05
		sl_i=$((sl_i + 1))
	done
	kill -KILL "$sl_pid" 2>/dev/null
	wait "$sl_pid"
	rc=$?
	# an instance a failing run left: named for the check, and removed
	sl_left=$(lru_instances | grep -vxF "${before:-none}")
	for sl_inst in $sl_left; do
		kill -0 "${sl_inst##*-}" 2>/dev/null || rmdir "$sl_inst"
	done
}
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/events/pagemap/mm_lru_insertion ] &&
	have setsid && env --default-signal=INT true 2>/dev/null; then
	before=$(lru_instances)
	# the moment of the probe's fault, held open: mkdir of the instance
	# made slow (and killed with the group, so never made)
	mkdir "$tmp/slowdir"
	# shellcheck disable=SC2016 # the fake mkdir's own $1 and $@
	printf '#!/bin/sh\ncase $1 in */instances/scan-lru-*) sleep 2 ;; esac\nexec %s "$@"\n' \
		"$(command -v mkdir)" >"$tmp/slowdir/mkdir"
	chmod +x "$tmp/slowdir/mkdir"
	PATH=$tmp/slowdir:$PATH stop_lru mk TERM group 0.3 -b 1024 sleep 1
	check "trace-lru: SIGTERM while its instance is made: 143, 'interrupted', nothing left" \
		stopped mk 143
	# -s: a signal to the script alone ends the wait, not after SECONDS
	stop_lru wait TERM pid 0.3 -b 1024 -s 30
	check "trace-lru -s 30: SIGTERM to it alone: 143 at once, nothing left" stopped wait 143
	# each signal at several moments: set-up, the trace, the write
	k=0
	for sd in TERM:0 INT:0.02 HUP:0.05 TERM:0.1 INT:0.2 HUP:0.3 TERM:0.45; do
		k=$((k + 1))
		case ${sd%:*} in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
		stop_lru "d$k" "${sd%:*}" group "${sd#*:}" -b 1024 sleep 1
		check "trace-lru: SIG${sd%:*} at ${sd#*:} s: $want, 'interrupted', nothing left" stopped "d$k" "$want"
	done
else
	skip "trace-lru: signals at any moment" "not root, no mm_lru_insertion tracepoint, setsid or env --default-signal"
fi
