# shellcheck shell=sh disable=SC2034,SC2154 # kernel.sh sources this: its variables are shared
# kernel/state.sh - the machine's state as kernel.sh finds it and leaves
# it: its memory cgroup, its trace instance (and tracefs, where it
# mounted it), its scratch directory, the memory blocks it takes offline
# or moves to ZONE_MOVABLE, and its own kdamond.  Sourced by kernel.sh.
#
# Times nothing: it makes and unmakes what the scanners are timed in,
# and reads the trace and the memmap's flags (take, snapshot) for them.
# Leaves as it found: undo, run however the script ends (scan-env.sh's
# traps call it through $at_exit), puts every block it took offline
# online again, every block it moved back in its kernel zone, turns its
# kdamond off and removes it, and removes its cgroup (ending what runs
# in it), its trace instance and its scratch directory; where a block or
# its kdamond will not go back, it names it and exits 1.

# What it makes, undone however it ends: scan-env.sh's traps, set as it
# was sourced, run undo first (at_exit), then remove the scratch directory.
# $offlined: a block it took offline, or was taking when it stopped;
# $movable: "BLOCK:ZONE" for each block it moved from its kernel zone
# ZONE to ZONE_MOVABLE (make_movable), put back as it ends.
# $damon: DAMON's kdamonds directory once it wrote nr_kdamonds there (its
# own kdamond 0, the only one), turned off and removed as it ends.
cg="" inst="" work="" child="" offlined="" movable="" mounted="" damon=""
memory=${SCAN_MEMORY_SYSFS:-/sys/devices/system/memory}
# shellcheck disable=SC2317 # run by scan-env.sh's cleanup
undo() {
	if [ -n "$child" ]; then
		kill "$child" 2>/dev/null || true
		wait "$child" 2>/dev/null || true
		child=""
	fi
	stuck=""
	damon_stuck=""
	damon_off || damon_stuck=$damon
	for undo_block in $offlined; do
		block_online "$undo_block" || stuck="$stuck memory$undo_block"
	done
	offlined=""
	if [ -n "$cg" ]; then
		# every process in it is one of ours: also one that a signal
		# caught between its start and child=$! (in_cgroup)
		undo_tries=0
		while ! rmdir "$cg" 2>/dev/null && [ "$undo_tries" -lt 50 ]; do
			while read -r undo_pid; do
				kill "$undo_pid" 2>/dev/null || true
			done 2>/dev/null <"$cg/cgroup.procs" || true
			sleep 0.1
			undo_tries=$((undo_tries + 1))
		done
		cg=""
	fi
	if [ -n "$inst" ]; then
		echo 0 2>/dev/null >"$inst/tracing_on" || true
		echo 2>/dev/null >"$inst/set_event" || true
		rmdir "$inst" 2>/dev/null || true
		inst=""
	fi
	# tracefs unmounted again where it mounted it (not if another holds it)
	[ -z "$mounted" ] || umount "$mounted" 2>/dev/null || true
	mounted=""
	[ -z "$work" ] || rm -rf "$work"
	work=""
	# the movable blocks last, once the working set's pages are freed
	for undo_block in $movable; do
		block_back "${undo_block%:*}" || stuck="$stuck memory${undo_block%:*}"
	done
	movable=""
	if [ -n "$stuck$damon_stuck" ]; then
		[ -z "$tmp" ] || rm -rf "$tmp"
		[ -z "$stuck" ] ||
			say_line "$me: memory block${stuck} not back as it was (online, in its zone): see $memory/memoryN/state and valid_zones"
		[ -z "$damon_stuck" ] ||
			say_line "$me: its own kdamond is still there: see $damon_stuck/0/state and $damon_stuck/nr_kdamonds"
		exit 1
	fi
}

# damon_off: its own kdamond off and removed (nr_kdamonds 0); false if it
# is still there.  Only where it wrote nr_kdamonds, and only while that
# reads 1: its own, made where it read 0.
damon_off() {
	[ -n "$damon" ] || return 0
	do_tries=0
	while [ "$(cat "$damon/0/state" 2>/dev/null)" = on ]; do
		[ "$do_tries" -lt 50 ] || return 1
		echo off 2>/dev/null >"$damon/0/state" || sleep 0.1
		do_tries=$((do_tries + 1))
	done
	if [ "$(cat "$damon/nr_kdamonds" 2>/dev/null)" = 1 ]; then
		echo 0 2>/dev/null >"$damon/nr_kdamonds" || return 1
	fi
	damon=""
}

# zone_of N: the zone memory block N had before make_movable moved it,
# nothing for a block it did not move.
zone_of() {
	for zo_block in $movable; do
		[ "${zo_block%:*}" != "$1" ] || { echo "${zo_block#*:}"; return; }
	done
}

# block_online N: memory block N online again, in the kernel zone it had
# where make_movable moved it (online_kernel); false if it stays
# offline.  The write is retried: onlining fails only for want of memory
# for its memmap, which a moment may free.
block_online() {
	[ "$(cat "$memory/memory$1/state" 2>/dev/null)" != online ] || return 0
	bo_how=online
	[ -z "$(zone_of "$1")" ] || bo_how=online_kernel
	bo_tries=0
	while [ "$(cat "$memory/memory$1/state" 2>/dev/null)" != online ]; do
		[ "$bo_tries" -lt 5 ] || return 1
		echo "$bo_how" 2>/dev/null >"$memory/memory$1/state" || sleep 0.2
		bo_tries=$((bo_tries + 1))
	done
	[ "$bo_how" = online ] || forget_movable "$1"
}

# forget_movable N: block N is back in its zone (or, if not, says so).
forget_movable() {
	fm_zone=$(zone_of "$1")
	fm_left=""
	for fm_block in $movable; do
		[ "${fm_block%:*}" = "$1" ] || fm_left="$fm_left $fm_block"
	done
	movable=$fm_left
	[ "$(cat "$memory/memory$1/valid_zones" 2>/dev/null)" = "$fm_zone" ]
}

# shellcheck disable=SC2317 # run by undo
# block_back N: a block make_movable moved, offline (its pages moved out;
# a page in flight may hold it a moment: retried) and online in its
# zone again; false if it is not.
block_back() {
	bb_tries=0
	while [ "$(cat "$memory/memory$1/state" 2>/dev/null)" = online ]; do
		[ "$bb_tries" -lt 5 ] || return 1
		# shellcheck disable=SC2016 # the inner shell's
		timeout 30 sh -c 'echo offline >"$1"' sh "$memory/memory$1/state" 2>/dev/null || sleep 0.2
		bb_tries=$((bb_tries + 1))
	done
	block_online "$1"
}

# blocks_here: $has_offline set where this machine has memory blocks
# that can go offline (CONFIG_MEMORY_HOTPLUG's sysfs).
blocks_here() {
	has_offline=""
	for d in "$memory"/memory[0-9]*; do
		[ ! -r "$memory/block_size_bytes" ] || [ ! -f "$d/state" ] || has_offline=1
		break
	done
}

# blocks_size: $block_pfns, the pfns of a memory block.
blocks_size() {
	read -r block_bytes 2>/dev/null <"$memory/block_size_bytes" || block_bytes=""
	case $block_bytes in
	'' | *[!0-9a-fA-F]*) fail "cannot read the memory block size in $memory/block_size_bytes" ;;
	esac
	block_pfns=$((0x$block_bytes / 4096))
}

# make_movable: where the working set may be put in memory that can go
# offline.  One unmovable page (slab, a page table) makes a whole block
# refuse (EBUSY), and the kernel puts those where it likes: on a small
# machine, in most blocks that page cache can be in.  Page cache goes to
# ZONE_MOVABLE first, and nothing unmovable may be there; so blocks that
# hold no LRU folio and go offline now, whose valid_zones then offers
# Movable, come back online_movable, enough for the working set and two
# more (each "BLOCK:ZONE" in $movable, put back in ZONE as it ends).
# Where the kernel offers no Movable, the working set stays where the
# kernel puts it.  Sets $made.
make_movable() {
	made=0
	mm_want=$((size / (block_pfns * 4096) + 2))
	: >"$tmp/lru-blocks" || tmp_fail "the blocks that hold LRU folios"
	od -An -v -t u8 -w8 /proc/kpageflags |
		blocks_out=$tmp/lru-blocks block_pfns=$block_pfns run_awk kernel-set >/dev/null ||
		tmp_fail "the blocks that hold LRU folios"
	mm_tries=0
	# shellcheck disable=SC2012 # sysfs names: memoryN
	for mm_block in $(ls "$memory" | sed -n 's/^memory\([0-9][0-9]*\)$/\1/p' | sort -n); do
		mm_path=$memory/memory$mm_block
		if [ "$made" -ge "$mm_want" ] || [ "$mm_tries" -ge $((4 * mm_want)) ]; then
			break
		fi
		[ "$(cat "$mm_path/state" 2>/dev/null)" = online ] || continue
		mm_zone=$(cat "$mm_path/valid_zones" 2>/dev/null)
		case $mm_zone in DMA32 | Normal) ;; *) continue ;; esac
		! grep -q "^$mm_block " "$tmp/lru-blocks" || continue
		mm_tries=$((mm_tries + 1))
		offlined=$mm_block
		# shellcheck disable=SC2016 # the inner shell's
		timeout 30 sh -c 'echo offline >"$1"' sh "$mm_path/state" 2>/dev/null || { offlined=""; continue; }
		case " $(cat "$mm_path/valid_zones") " in
		*" Movable "*)
			movable="$movable $mm_block:$mm_zone"
			if echo online_movable 2>/dev/null >"$mm_path/state"; then
				offlined=""
				made=$((made + 1))
				continue
			fi ;;
		esac
		# not offered, or not taken: back in its zone
		block_online "$mm_block" ||
			fail "memory block memory$mm_block is not back as it was (online, in its zone): see $mm_path/state and valid_zones"
		offlined=""
	done
}

# state_make: the scratch directory under $base, the memory cgroup
# (room for the working set and half again) and the trace instance,
# whose buffer is only on the traced CPU; tracing on.
state_make() {
	work=$(mktemp -d "$base/scan-kernel.XXXXXX" 2>/dev/null) || fail "cannot make a scratch directory in $base"
	say_line "$me: scratch files in $work"
	cg=$cgroot/$name
	mkdir "$cg" || { cg=""; fail "cannot make the memory cgroup $cgroot/$name"; }
	room=$((size + size / 2 + 64 * mib))
	if [ "$cgv" = 2 ]; then
		put "$room" "$cg/memory.max"
	else
		put "$room" "$cg/memory.limit_in_bytes"
	fi
	inst=$tracing/instances/$name
	mkdir "$inst" 2>/dev/null || { inst=""; fail "cannot make the trace instance $tracing/instances/$name"; }
	put 4 "$inst/buffer_size_kb"		# other CPUs: nothing of ours
	kb=$((pages / 8 + 16384))		# twice a 64-byte insertion a page, and room
	echo "$kb" 2>/dev/null >"$inst/per_cpu/cpu$cpu/buffer_size_kb" ||
		fail "the trace buffer cannot be $kb KiB on CPU $cpu"
	put 1 "$inst/tracing_on"
}

# put VALUE FILE: VALUE written to a file of tracefs or the cgroup's.
# (A redirection of a function or a { } group would hold for a trap that
# runs inside it, and take its message: the builtin's own only.)
put() {
	echo "$1" 2>/dev/null >"$2" || fail "cannot write $1 to $2"
}

# tmp_fail WHAT: stop, naming TMPDIR: a write into the scratch failed.
tmp_fail() {
	scratch_ok
	fail "cannot save $1 in TMPDIR (${TMPDIR:-/tmp})"
}

# why FILE: the reason in a tool's last line of errors, after its name.
why() {
	why_text=$(sed -n '$s/^.*: //p' "$1" 2>/dev/null)
	echo "${why_text:-no reason given}"
}

# in_cgroup CMD...: CMD in the cgroup, on the one CPU, in the background
# so that a signal stops it at once; its pid is left in $ran, its stdout
# dropped, its stderr in $tmp/cmd.err (why says why it failed).
in_cgroup() {
	# shellcheck disable=SC2016 # $$ is the child's
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" taskset -c "$cpu" "$@" \
		>/dev/null 2>"$tmp/cmd.err" &
	child=$!
	ran=$child
	wait "$child" || { child=""; return 1; }
	child=""
}

# events ON|OFF EVENT...: turn tracepoints of the instance on or off.
events() {
	v=$1
	shift
	for e in "$@"; do
		[ ! -d "$inst/events/$e" ] || put "$v" "$inst/events/$e/enable"
	done
}

# take NAME: the instance's buffer as NAME.txt (text) and NAME.raw (ns
# timestamps), then emptied.
take() {
	put 0 "$inst/tracing_on"
	cat "$inst/trace" >"$tmp/$1.txt" 2>/dev/null || tmp_fail "the trace"
	put 1 "$inst/options/raw"
	cat "$inst/trace" >"$tmp/$1.raw" 2>/dev/null || tmp_fail "the trace"
	put 0 "$inst/options/raw"
	put "" "$inst/trace"
	put 1 "$inst/tracing_on"
}

# snapshot DIR: /proc/kpageflags and /proc/kpagecgroup, saved.
snapshot() {
	mkdir "$tmp/$1" || tmp_fail "a snapshot"
	for f in kpageflags kpagecgroup; do
		cat "/proc/$f" >"$tmp/$1/$f" 2>/dev/null || tmp_fail "/proc/$f"
	done
}

# working_set DIR INODE: $folios, $order0, $large, $lo and $hi, the
# memcg's LRU folios in DIR's snapshot (kernel-set.awk), with the pfns'
# inodes in a file beside it, a line for each line of flags; and in
# DIR/blocks, "BLOCK FOLIOS" for each memory block that holds any.
working_set() {
	od -An -v -t u8 -w8 "$tmp/$1/kpagecgroup" | tr -d ' ' >"$tmp/cgroups" ||
		tmp_fail "the snapshot's memcgs"
	: >"$tmp/$1/blocks" || tmp_fail "the working set's blocks"
	od -An -v -t u8 -w8 "$tmp/$1/kpageflags" | cgroups=$tmp/cgroups ino=$2 \
	    blocks_out=$tmp/$1/blocks block_pfns=$block_pfns run_awk kernel-set >"$tmp/set" ||
		{ scratch_ok; fail "cannot read the snapshot in $tmp/$1"; }
	rm -f "$tmp/cgroups"
	read -r folios order0 large lo hi <"$tmp/set"
}
