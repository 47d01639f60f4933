# shellcheck shell=sh disable=SC2034,SC2154 # kernel.sh sources this: its variables are shared
# kernel/damon.sh - the pfn scanner by DAMON's paddr walk
# (--scanner=damon, only when asked).  Sourced by kernel.sh, which calls
# the damon_* functions below (its recipe says when).
#
# Times damon_pa_pageout() in mm/damon/paddr.c, by a kdamond of its own
# whose DAMOS pageout scheme walks what reclaim left of the working set,
# region by region: the walk of each region and the isolation of the
# cgroup's LRU folios in it, reclaim apart, from damon:damos_before_apply
# to the kdamond's first filemap:mm_filemap_delete_from_page_cache; and
# the walk of a region left with none of them, from one
# damos_before_apply to the next (kernel.awk reads them).
# Leaves as it found: DAMON's sysfs is only read until it makes its own
# kdamond, which it does only where nr_kdamonds reads 0 (a kdamond of
# another's is never touched, on or off); its kdamond is turned off and
# removed (nr_kdamonds 0 again) however it ends (damon_off, state.sh);
# the folios it reclaims are the cgroup's, removed with it.

damon_sysfs=${SCAN_DAMON_SYSFS:-/sys/kernel/mm/damon/admin}

# damon_why: $why, empty where it can make a kdamond of its own; and
# $damon_running, the kdamonds of another's that are on.  DAMON's sysfs
# is only read here: nr_kdamonds is written only where it reads 0 (a
# write removes every kdamond's directory, of a kdamond that is off too,
# and fails while one is on).
damon_why() {
	damon_running="" damon_count=""
	[ ! -r "$damon_sysfs/kdamonds/nr_kdamonds" ] || read -r damon_count <"$damon_sysfs/kdamonds/nr_kdamonds" || true
	for d in "$damon_sysfs"/kdamonds/[0-9]*; do
		[ "$(cat "$d/state" 2>/dev/null)" != on ] || damon_running="$damon_running ${d##*/}"
	done
	why=""
	if [ -z "$damon_count" ]; then
		why="no DAMON sysfs at $damon_sysfs (CONFIG_DAMON_SYSFS, CONFIG_DAMON_PADDR)"
	elif [ -n "$damon_running" ]; then
		why="a kdamond that scan-kernel did not start is running (kdamond$damon_running): it is never touched; use --scanner=offline or compaction"
	elif [ "$damon_count" != 0 ]; then
		why="$damon_count kdamond(s) that scan-kernel did not make are set up, none on: making its own would remove them (nr_kdamonds); use --scanner=offline or compaction"
	fi
}
damon_note() {
	[ -z "$damon_running" ] ||
		say_line "$me: DAMON's paddr walk not used: a kdamond that scan-kernel did not start is running (kdamond$damon_running), never touched"
}
damon_events() {
	echo "damon/damos_before_apply filemap/mm_filemap_delete_from_page_cache vmscan/mm_vmscan_reclaim_pages sched/sched_switch"
}
# its walk uses the movable blocks too where there are any: its regions
# then hold the working set, not the whole machine around it
damon_check() { [ -z "$has_offline" ] || blocks_size; }
damon_plan() {
	echo "walks what is left of it with DAMON's paddr operations (a kdamond of its own, removed after: a DAMOS pageout scheme kept to the cgroup's folios, which it drops)"
}
damon_prepare() {
	[ -n "$has_offline" ] || return 0
	make_movable
	[ "$made" -eq 0 ] ||
		say_line "$me: $made memory blocks moved to ZONE_MOVABLE for the working set (page cache goes there first, so DAMON's regions hold it), put back as it ends"
}

# damon_regions: "FIRST END" pfns of each region for DAMON, in order, all
# of one size (so that DAMON merges none): where the working set is in
# memory blocks (make_movable), each quarter of the blocks that hold the
# most of what reclaim left (at least 1 pfn in 64, up to 8 blocks);
# elsewhere its span from lo to hi cut in up to 32 regions of 4 MiB or
# more.
damon_regions() {
	if [ "$block_pfns" -gt 0 ]; then
		while read -r dr_b dr_n; do
			[ "$dr_n" -lt $((block_pfns / 64)) ] || echo "$dr_b $dr_n"
		done <"$tmp/after/blocks" | sort -k2,2nr -k1,1n | head -n 8 | sort -n |
		while read -r dr_b _; do
			for dr_q in 0 1 2 3; do
				echo "$((dr_b * block_pfns + dr_q * block_pfns / 4)) $((dr_b * block_pfns + (dr_q + 1) * block_pfns / 4))"
			done
		done
		return
	fi
	dr_pfns=$((hi + 1 - lo))
	dr_k=$((dr_pfns / 1024))
	[ "$dr_k" -le 32 ] || dr_k=32
	dr_i=0
	while [ "$dr_i" -lt "$dr_k" ]; do
		dr_end=$((lo + (dr_i + 1) * (dr_pfns / dr_k)))
		[ "$dr_i" -lt $((dr_k - 1)) ] || dr_end=$((hi + 1))
		echo "$((lo + dr_i * (dr_pfns / dr_k))) $dr_end"
		dr_i=$((dr_i + 1))
	done
}

# damon_run: DAMON's paddr walk over what reclaim left of the working set
# (the snapshot "after"), by a kdamond of its own: a DAMOS pageout scheme
# on every region, whose damon_pa_pageout() (mm/damon/paddr.c) walks
# the region's pfns, stepping over each folio, and isolates each LRU
# folio (folio_isolate_lru(), one at a time) before reclaim_pages()
# drops them; of DAMON's actions it is the one that walks and isolates
# (lru_prio and lru_deprio move folios between lists without isolating,
# stat walks only where a filter asks, migrate_hot and migrate_cold need
# a second node).  Two memcg filters let the walk take only the cgroup's
# folios: every other folio is walked over and left as it was.
# damos_before_apply marks each region's start (kernel.awk).  $tried:
# the regions its scheme was tried on.
damon_run() {
	snapshot after
	working_set after "$ino"
	damon_regions >"$tmp/regions" || tmp_fail "DAMON's regions"
	pd_regions=$(grep -c '' "$tmp/regions")
	[ "$pd_regions" -ge 3 ] || fail "--scanner=damon: the working set spans $((hi + 1 - lo)) pfns: too few for 3 regions of DAMON's"
	pd_kd=$damon_sysfs/kdamonds
	# read again just before: none of another's, since the check above
	[ "$(cat "$pd_kd/nr_kdamonds" 2>/dev/null)" = 0 ] ||
		fail "--scanner=damon: a kdamond that scan-kernel did not make appeared: never touched"
	damon=$pd_kd
	put 1 "$pd_kd/nr_kdamonds"
	put 1 "$pd_kd/0/contexts/nr_contexts"
	pd_ctx=$pd_kd/0/contexts/0
	grep -qw paddr "$pd_ctx/avail_operations" 2>/dev/null ||
		fail "--scanner=damon: DAMON has no physical address space operations here (CONFIG_DAMON_PADDR)"
	put paddr "$pd_ctx/operations"
	# a sample each 5 ms, a pass each 100 ms; exactly pd_regions regions:
	# DAMON splits none while they are over half the most, and merges
	# none past the total over the fewest
	put 5000 "$pd_ctx/monitoring_attrs/intervals/sample_us"
	put 100000 "$pd_ctx/monitoring_attrs/intervals/aggr_us"
	put "$pd_regions" "$pd_ctx/monitoring_attrs/nr_regions/min"
	put "$pd_regions" "$pd_ctx/monitoring_attrs/nr_regions/max"
	put 1 "$pd_ctx/targets/nr_targets"
	pd_t=$pd_ctx/targets/0/regions
	put "$pd_regions" "$pd_t/nr_regions"
	pd_i=0
	while read -r pd_first pd_end; do
		put $((pd_first * 4096)) "$pd_t/$pd_i/start"
		put $((pd_end * 4096)) "$pd_t/$pd_i/end"
		pd_i=$((pd_i + 1))
	done <"$tmp/regions"
	put 1 "$pd_ctx/schemes/nr_schemes"
	pd_s=$pd_ctx/schemes/0
	put pageout "$pd_s/action"
	# every region, every pass; no quota, no watermarks
	for pd_p in sz/min nr_accesses/min age/min; do put 0 "$pd_s/access_pattern/$pd_p"; done
	put 18446744073709551615 "$pd_s/access_pattern/sz/max"
	put 4294967295 "$pd_s/access_pattern/nr_accesses/max"
	put 4294967295 "$pd_s/access_pattern/age/max"
	put 0 "$pd_s/apply_interval_us"
	put 0 "$pd_s/quotas/ms"
	put 0 "$pd_s/quotas/bytes"
	put none "$pd_s/watermarks/metric"
	# the cgroup's folios allowed, every other refused: each folio is
	# settled by these two, never by the young filter pageout adds after
	put 2 "$pd_s/filters/nr_filters"
	[ -e "$pd_s/filters/0/allow" ] ||
		fail "--scanner=damon: DAMOS filters here have no 'allow' (Linux 6.14 or later): its walk could not be kept to the cgroup's folios"
	for pd_i in 0 1; do
		put memcg "$pd_s/filters/$pd_i/type"
		put "/$name" "$pd_s/filters/$pd_i/memcg_path"
	done
	put Y "$pd_s/filters/0/matching"
	put Y "$pd_s/filters/0/allow"
	put N "$pd_s/filters/1/matching"
	put N "$pd_s/filters/1/allow"
	# shellcheck disable=SC2086 # a list of events
	events 1 $pfn_events
	put on "$pd_kd/0/state"
	# on the traced CPU before its first pass, an aggregation (100 ms) on
	read -r pd_pid 2>/dev/null <"$pd_kd/0/pid" || pd_pid=""
	case $pd_pid in '' | *[!0-9]*) fail "--scanner=damon: cannot read its kdamond's pid in $pd_kd/0/pid" ;; esac
	taskset -p -c "$cpu" "$pd_pid" >/dev/null 2>"$tmp/cmd.err" ||
		fail "--scanner=damon: cannot keep its kdamond (pid $pd_pid) on CPU $cpu: $(why "$tmp/cmd.err")"
	# three passes: the first takes the cgroup's folios, the others walk
	# the emptied regions (the walk's floor); at most 30 s
	pd_tries=0
	while [ "$pd_tries" -lt 150 ]; do
		sleep 0.2
		put update_schemes_stats "$pd_kd/0/state"
		read -r pd_tried 2>/dev/null <"$pd_s/stats/nr_tried" || pd_tried=0
		[ "${pd_tried:-0}" -lt $((3 * pd_regions)) ] || break
		pd_tries=$((pd_tries + 1))
	done
	put off "$pd_kd/0/state"
	# shellcheck disable=SC2086
	events 0 $pfn_events
	damon_off || fail "--scanner=damon: its own kdamond is still there: see $pd_kd/0/state and $pd_kd/nr_kdamonds"
	tried=${pd_tried:-0}
}

# damon_kind: its events are regions: a figure from $min_blocks of them.
damon_kind() { min_pfn=$min_blocks kind=took; }

# damon_replay FIRST END: the model's memmap of pfns [FIRST, END): whole
# pageblocks from the snapshot taken before DAMON's walk.
damon_replay() { pageblocks_of "$@"; }

damon_none() {
	fail "no kernel ratio: DAMON's walk isolated folios in no timed region: $tried regions tried, $(fig pfn_left_out) left out (preempted, or a sleep or lost events inside), $(fig pfn_floor_events) with none of the cgroup's folios"
}
