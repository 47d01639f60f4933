#!/bin/sh
# vm-paths.sh: run in scan-vm's guest by t-vm-live.sh, in /out (its text
# is the guest's command): each path of scan-kernel at -m $SIZE, with the
# machine's state before and after, then one stopped by SIGINT midway.
# For each path NAME it leaves NAME.out, NAME.err, NAME.rc, NAME.csv
# (where scan-kernel wrote one), NAME.before and NAME.after; and accel,
# the guest's SCAN_VM_ACCEL.  A line a path on stdout, with its time.
size=${SIZE:-64M}
lru_gen=/sys/kernel/mm/lru_gen/enabled

# state: what scan-kernel must leave as it found it: memory blocks and
# their zones, the zones' sizes, cgroups and the root's controllers, trace
# instances and the global tracing settings, kdamonds, lru_gen, mounts,
# and its scratch files in /var/tmp.
state() {
	for b in /sys/devices/system/memory/memory*; do
		echo "block ${b##*/} $(cat "$b/state") $(cat "$b/valid_zones" 2>/dev/null)"
	done
	awk '/^Node/ { z = $2 $4 } /^ +(present|spanned|managed) / { print "zone", z, $1, $2 }' /proc/zoneinfo
	find /sys/fs/cgroup -type d | sed 's/^/cgroup /'
	echo "subtree_control $(cat /sys/fs/cgroup/cgroup.subtree_control)"
	find /sys/kernel/tracing/instances -mindepth 1 -maxdepth 1 | sed 's/^/instance /'
	echo "tracing_on $(cat /sys/kernel/tracing/tracing_on)"
	echo "set_event $(tr '\n' ' ' </sys/kernel/tracing/set_event)"
	echo "current_tracer $(cat /sys/kernel/tracing/current_tracer)"
	echo "nr_kdamonds $(cat /sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds 2>/dev/null)"
	echo "lru_gen $(cat "$lru_gen" 2>/dev/null)"
	sed 's/^/mount /' /proc/mounts
	find /var/tmp -mindepth 1 -maxdepth 1 | sed 's/^/var_tmp /'
}

# uptime: seconds since boot, to the hundredth.
uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

# path NAME ARG...: scan-kernel -m SIZE ARG... -o NAME.csv.
path() {
	name=$1
	shift
	state >"$name.before"
	t0=$(uptime_s)
	scan-kernel -m "$size" "$@" -o "$name.csv" >"$name.out" 2>"$name.err"
	echo $? >"$name.rc"
	t1=$(uptime_s)
	state >"$name.after"
	echo "vm-paths: $name: scan-kernel -m $size $*: exit $(cat "$name.rc"), $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }') s"
}

# SIGINT midway: scan-kernel in the background, SIGINT as the default
# action there (env --default-signal; an asynchronous command of sh
# ignores SIGINT), sent once its cgroup has been there 3 s
sigint_run() {
	env --default-signal=INT scan-kernel -m "$size" >sigint.out 2>sigint.err &
	pid=$!
	waited=0
	while [ ! -d "/sys/fs/cgroup/scan-kernel-$pid" ] && [ "$waited" -lt 600 ]; do
		sleep 0.2
		waited=$((waited + 1))
	done
	sleep 3
	kill -INT "$pid"
	wait "$pid"
	echo $? >sigint.rc
}

# sigint: scan-kernel stopped by SIGINT midway, the state before and after
sigint() {
	state >sigint.before
	if env --default-signal=INT true 2>/dev/null; then
		sigint_run
	else
		echo "no env --default-signal" >sigint.rc
	fi
	state >sigint.after
	echo "vm-paths: sigint: exit $(cat sigint.rc)"
}

# the cheap paths first, compaction (8 passes over all memory) last: what
# ran by the deadline comes back
echo "${SCAN_VM_ACCEL:-}" >accel
path offline
sigint
# the LRU scanner under the classic lists: lru_gen off, then as it was
was=$(cat "$lru_gen")
echo 0 >"$lru_gen"
path classic
echo "$was" >"$lru_gen"
echo "$was $(cat "$lru_gen")" >lru_gen.restored
path damon --scanner=damon
path compaction --scanner=compaction
