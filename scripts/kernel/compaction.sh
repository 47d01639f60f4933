# shellcheck shell=sh disable=SC2034,SC2154 # kernel.sh sources this: its variables are shared
# kernel/compaction.sh - the pfn scanner by compaction
# (--scanner=compaction, the default where no memory block can go
# offline).  Sourced by kernel.sh, which calls the compaction_*
# functions below (its recipe says when).
#
# Times compaction's migrate scanner, isolate_migratepages_block() in
# mm/compaction.c, over the machine's memory: each range from
# compaction:mm_compaction_finished to the next
# compaction:mm_compaction_isolate_migratepages (the scan of that range
# and the isolation of what it took, migration apart; kernel.awk reads
# them), the ranges where it isolated folios apart.
# Leaves as it found: "echo 1 >/proc/sys/vm/compact_memory" MOVES PAGES
# OF EVERY PROCESS, which stay where compaction put them; the room it
# makes is a file in the scratch directory, removed by undo (state.sh).

compaction_why() { why=""; }
compaction_note() { :; }
compaction_events() {
	echo "compaction/mm_compaction_isolate_migratepages compaction/mm_compaction_finished
		compaction/mm_compaction_begin compaction/mm_compaction_migratepages"
}
compaction_check() {
	[ -w /proc/sys/vm/compact_memory ] ||
		fail "no /proc/sys/vm/compact_memory (CONFIG_COMPACTION)"
	command -v fallocate >/dev/null 2>&1 ||
		fail "needs fallocate (util-linux) to make room for compaction"
}
compaction_plan() { echo "compacts the machine's memory"; }
compaction_prepare() { :; }

# compaction_run: compact the machine's memory, every pass traced.
compaction_run() {
	# Room to migrate into.  The free scanner takes free pages only from
	# pageblocks in use (suitable_migration_target() in mm/compaction.c
	# refuses a block that starts with a free page of pageblock order), and
	# compaction_alloc() must find a free page as large as each folio it
	# moves.  So: a file of SIZE written a pageblock at a time, which the
	# file system may hold in folios of pageblock order, then punched out
	# but for the first page of each block, leaves a used page and free
	# blocks of order 4 to 8 (and 0 to 3, in per-CPU lists) beside it.
	[ "$cgv" = 2 ] || put "$room" "$cg/memory.limit_in_bytes"
	blk=$((block * 4096))
	in_cgroup dd if=/dev/zero of="$work/room" bs="$blk" count=$((size / blk)) status=none ||
		fail "cannot write $work/room: $(why "$tmp/cmd.err")"
	i=0
	while [ "$i" -lt $((size / blk)) ]; do
		fallocate -p -o $((i * blk + 4096)) -l $((blk - 4096)) "$work/room" 2>"$tmp/cmd.err" ||
			fail "cannot punch holes in $work/room: $(why "$tmp/cmd.err")"
		i=$((i + 1))
	done
	snapshot after
	compact_events="compaction/mm_compaction_isolate_migratepages compaction/mm_compaction_finished
		compaction/mm_compaction_begin compaction/mm_compaction_end
		compaction/mm_compaction_migratepages compaction/mm_compaction_isolate_freepages migrate/mm_migrate_pages"
	# shellcheck disable=SC2086
	events 1 $compact_events
	# A pass ends a zone early (status=contended) where migrate_pages()
	# returns -ENOMEM: compaction_alloc() held free pages, none as large as
	# a large folio to move, and isolates no more while it holds any.  The
	# next pass starts again at the zone's start, holding other free pages
	# when it gets there; up to 8 passes, while each ends early elsewhere.
	pass=0 stop=""
	while [ "$pass" -lt 8 ]; do
		# shellcheck disable=SC2016 # the inner shell's
		in_cgroup sh -c 'echo 1 >/proc/sys/vm/compact_memory' ||
			fail "cannot write /proc/sys/vm/compact_memory: $(why "$tmp/cmd.err")"
		pass=$((pass + 1))
		end=$(grep ' mm_compaction_end: ' "$inst/trace" | tail -n 1)
		case $end in
		*status=contended*) end=${end#*migrate_pfn=} end=${end%% *} ;;
		*) end="" ;;
		esac
		if [ -z "$end" ] || [ "$end" = "$stop" ]; then
			break
		fi
		stop=$end
	done
	# shellcheck disable=SC2086
	events 0 $compact_events
}

# compaction_kind: the median over the ranges where it isolated folios
# (memory mostly on the LRU, as the model's) from $min_events of them;
# where fewer were timed, the time over the pfns of every timed range,
# whatever they held (kind all: no ratio).
compaction_kind() {
	min_pfn=$min_events
	if [ "$(fig pfn_events)" -ge "$min_pfn" ]; then
		kind=took
	else
		kind=all
	fi
}

# compaction_replay FIRST END: the model's memmap of pfns [FIRST, END):
# whole pageblocks from the snapshot taken after the room was made.
compaction_replay() { pageblocks_of "$@"; }

compaction_none() { fail "compaction timed no range: no pfns to replay"; }

# compaction_no_ratio: kind all: why there is no ratio, exit 1.
compaction_no_ratio() {
	if [ "$(fig pfn_ended_early)" -gt 0 ]; then
		fail "no kernel ratio: compaction isolated folios in $(fig pfn_events) of its timed ranges, $min_events wanted; $(fig pfn_ended_early) of $pass passes ended early (status=contended: migrate_pages() found no free page to move a folio to among those compaction held), the last at pfn $(printf '0x%x' "$(fig pfn_stop)")"
	fi
	fail "no kernel ratio: compaction isolated folios in $(fig pfn_events) of its timed ranges, $min_events wanted"
}
