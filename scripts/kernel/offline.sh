# shellcheck shell=sh disable=SC2034,SC2154 # kernel.sh sources this: its variables are shared
# kernel/offline.sh - the pfn scanner by memory-block offline
# (--scanner=offline, the default where memory blocks can go offline).
# Sourced by kernel.sh, which calls the offline_* functions below (its
# recipe says when).
#
# Times offline_pages() in mm/memory_hotplug.c over each memory block
# that holds the most of what reclaim left of the working set: the walk
# (every pfn's struct page) and the isolation of the block's LRU folios,
# migration apart, from the writer's last wakeup after a sleep
# (sched:sched_switch to it, after the marker "scan-kernel offline
# FIRST") to migrate:mm_migrate_pages_start; and the block's walk once
# emptied, from migrate:mm_migrate_pages to
# page_isolation:test_pages_isolated (kernel.awk reads them).
# Leaves as it found: each block goes back online as soon as it went
# offline (or was refused), in its kernel zone where make_movable moved
# it to ZONE_MOVABLE (state.sh); a block it could not put back is named
# and the run ends, exit 1, after undo.  Writing "offline" to a block
# MOVES EVERY PAGE IN IT, of any process, elsewhere.

# offline_why: $why, empty where blocks can go offline here.
offline_why() {
	blocks_here
	why=""
	[ -n "$has_offline" ] ||
		why="no memory blocks at $memory (CONFIG_MEMORY_HOTPLUG, CONFIG_MEMORY_HOTREMOVE)"
}
offline_note() { :; }
offline_events() {
	echo "migrate/mm_migrate_pages_start migrate/mm_migrate_pages page_isolation/test_pages_isolated sched/sched_switch"
}
offline_check() { blocks_size; }
offline_plan() {
	echo "takes up to $max_blocks memory blocks of $((block_pfns * 4096 / mib)) MiB that hold the most of it offline and back online, one at a time (moving every page in them)"
}

# offline_prepare: the working set put where its blocks can go offline.
offline_prepare() {
	make_movable
	if [ "$made" -gt 0 ]; then
		say_line "$me: $made memory blocks moved to ZONE_MOVABLE for the working set (nothing unmovable goes there, so they can go offline), put back as it ends"
	else
		say_line "$me: no memory block could be moved to ZONE_MOVABLE here: the working set goes where the kernel puts it, and a block with an unmovable page in it will refuse to go offline"
	fi
}

# offline_run: the memory blocks that hold the most of the working set
# (the snapshot "after", taken after reclaim), each offline and online
# again in turn, each traced from the marker to the block's isolation
# test; each block's kpageflags saved just before, as the model's memmap
# and its LRU folios (block_folios).  $tried and $refused: the blocks.
offline_run() {
	snapshot after
	working_set after "$ino"
	# a block with a few of its folios (under 1 in 64 pfns) adds a walk
	# that says little of them
	while read -r b n; do
		[ "$n" -lt $((block_pfns / 64)) ] || echo "$b $n"
	done <"$tmp/after/blocks" | sort -k2,2nr -k1,1n | head -n "$max_blocks" >"$tmp/picked" ||
		tmp_fail "the blocks to offline"
	mkdir "$tmp/blocks" || tmp_fail "the blocks' snapshots"
	: >"$tmp/block-folios" || tmp_fail "the blocks' folios"
	refused=0 tried=0
	# shellcheck disable=SC2086 # a list of events
	events 1 $pfn_events
	while read -r b _; do
		first=$((b * block_pfns))
		# not ours to take: a block someone else left offline
		[ "$(cat "$memory/memory$b/state" 2>/dev/null)" = online ] || continue
		dd if=/proc/kpageflags of="$tmp/blocks/$first" bs=$((8 * block_pfns)) skip="$b" count=1 2>/dev/null ||
			tmp_fail "a block's page flags"
		od -An -v -t u8 -w8 "$tmp/blocks/$first" | run_awk kernel-set >"$tmp/set" ||
			tmp_fail "a block's folios"
		read -r n _ <"$tmp/set"
		echo "$first $n" >>"$tmp/block-folios" || tmp_fail "a block's folios"
		tried=$((tried + 1))
		offlined=$b
		if ! offline_block "$b" "$first"; then
			refused=$((refused + 1))
			rm -f "$tmp/blocks/$first"
		fi
		block_online "$b" ||
			fail "memory block memory$b is not back as it was (online, in its zone): see $memory/memory$b/state and valid_zones"
		offlined=""
	done <"$tmp/picked"
	# shellcheck disable=SC2086
	events 0 $pfn_events
	[ $((tried - refused)) -ge "$min_blocks" ] ||
		say_line "$me: too few memory blocks went offline for a kernel ratio ($((tried - refused)), $min_blocks wanted): -m $(offline_size_for)M spreads what reclaim leaves over $min_blocks"
}

# offline_size_for: the -m, in MiB, whose half left by reclaim spans
# $min_blocks blocks at the density it had here (its folios over the
# pfns of the blocks that hold them: 1 where the kernel laid it out in
# one run; less where free memory was spread): a run of pfns spans one
# block more than it fills, less the half block its ends may lose, so
# 2.5 blocks of folios (640M at density 1 with 128 MiB blocks; 512M
# gave 3 blocks here), in 64M steps, over SIZE.
offline_size_for() {
	awk -v bp="$block_pfns" -v want="$min_blocks" -v size="$size" -v mib="$mib" '
	$2 >= bp / 64 { folios += $2; blocks++ }
	END {
		d = blocks ? folios / (blocks * bp) : 1
		m = 2 * d * (want - 0.5) * bp * 4096 / mib
		m = 64 * int((m + 63) / 64)
		if (m * mib <= size)
			m = 2 * size / mib
		print m
	}' "$tmp/after/blocks"
}

# offline_block N FIRST: memory block N offline, on the one CPU, after a
# marker the trace reads (kernel.awk); false if the kernel refused it.
# offline_pages() gives up on any signal, so a stop ends it at once; it
# is also given at most 30 s (a page that will not move: EBUSY later).
offline_block() {
	# shellcheck disable=SC2016 # the inner shell's
	taskset -c "$cpu" timeout 30 sh -c 'echo "scan-kernel offline $1" >"$2" && echo offline >"$3"' \
		sh "$2" "$inst/trace_marker" "$memory/memory$1/state" 2>"$tmp/cmd.err" &
	child=$!
	wait "$child" || { child=""; return 1; }
	child=""
}

# offline_kind: its events are blocks: a figure from $min_blocks of them.
offline_kind() { min_pfn=$min_blocks kind=took; }

# offline_replay FIRST END: the model's memmap of pfns [FIRST, END), each
# block in it as it was just before it went offline (a range of several
# blocks timed one after another holds each).
offline_replay() {
	ro_first=$1
	while [ "$ro_first" -lt "$2" ]; do
		cat "$tmp/blocks/$ro_first" || return 1
		ro_first=$((ro_first + block_pfns))
	done
}

# offline_none: no block was timed: why not, exit 1.
offline_none() {
	fail "no kernel ratio: no memory block was timed offline: $refused of $tried refused (EBUSY: unmovable pages in them, or CONFIG_MEMORY_HOTREMOVE off), $(fig pfn_left_out) preempted or with events lost, $(fig pfn_empty) with nothing to move"
}
