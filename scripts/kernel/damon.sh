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
# damos_before_apply to the next (kernel.awk reads them).  The folios a
# region gave: vmscan:mm_vmscan_reclaim_pages's nr_scanned where the
# kernel has that event (6.13 on), else the kdamond's
# mm_filemap_delete_from_page_cache events up to its next region (6.12);
# DAMOS's own stats (nr_tried, nr_applied, sz_applied) cross-check them.
# Where DAMOS filters have no 'allow' (before 6.14), pageout's own young
# filter settles the cgroup's folios after the memcg filter: the first
# pass over a region only marks them old (PG_idle), the second isolates
# them; kernel.awk counts passes (damon_marks).
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
# damon_events: reclaim_pages's event only where the kernel has it
# (6.13 on); elsewhere the kdamond's page-cache deletions count a
# region's folios.  Where tracefs is not mounted (--check) it is not
# named: the events are not checked there.
damon_events() {
	echo "damon/damos_before_apply filemap/mm_filemap_delete_from_page_cache sched/sched_switch$(
		[ ! -d "$tracing/events/vmscan/mm_vmscan_reclaim_pages" ] || echo " vmscan/mm_vmscan_reclaim_pages")"
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
# of one size (so that DAMON merges none): the span of what reclaim
# left, lo to hi, from the pageblock that holds lo, cut in up to 32
# regions of whole pageblocks (so that each replays as it was walked:
# damon_replay), 1024 pfns (4 MiB) or more.  (Quarters of the memory
# blocks that held it gave a 64 MiB working set one region of its
# folios and three almost empty.)
damon_regions() {
	dr_lo=$((lo - lo % block))
	dr_blocks=$(((hi + 1 - dr_lo + block - 1) / block))
	dr_per=$(((dr_blocks + 31) / 32))
	[ $((dr_per * block)) -ge 1024 ] || dr_per=$(((1024 + block - 1) / block))
	dr_k=$(((dr_blocks + dr_per - 1) / dr_per))
	dr_i=0
	while [ "$dr_i" -lt "$dr_k" ]; do
		echo "$((dr_lo + dr_i * dr_per * block)) $((dr_lo + (dr_i + 1) * dr_per * block))"
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
# a second node).  Memcg filters let the walk take only the cgroup's
# folios: every other folio is walked over and left as it was.
# damos_before_apply marks each region's start (kernel.awk).  $tried:
# the regions its scheme was tried on; $pd_count, how a region's folios
# are counted (reclaim_pages or deletes); $pd_marks, 1 where the first
# pass over a region only marks its folios old; $pd_applied and
# $pd_sz_applied, DAMOS's stats after those $tried tries.
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
	damon_filters "$pd_s/filters"
	pd_count=deletes
	[ ! -d "$inst/events/vmscan/mm_vmscan_reclaim_pages" ] || pd_count=reclaim_pages
	# shellcheck disable=SC2086 # a list of events
	events 1 $pfn_events
	put on "$pd_kd/0/state"
	# on the traced CPU before its first pass, an aggregation (100 ms) on
	read -r pd_pid 2>/dev/null <"$pd_kd/0/pid" || pd_pid=""
	case $pd_pid in '' | *[!0-9]*) fail "--scanner=damon: cannot read its kdamond's pid in $pd_kd/0/pid" ;; esac
	taskset -p -c "$cpu" "$pd_pid" >/dev/null 2>"$tmp/cmd.err" ||
		fail "--scanner=damon: cannot keep its kdamond (pid $pd_pid) on CPU $cpu: $(why "$tmp/cmd.err")"
	# three passes: the first takes the cgroup's folios, the others walk
	# the emptied regions (the walk's floor); four where the first only
	# marks them old; at most 30 s
	pd_passes=3
	[ -z "$pd_marks" ] || pd_passes=4
	pd_tries=0 pd_tried=0 pd_applied=0 pd_sz_applied=0
	while [ "$pd_tries" -lt 150 ]; do
		sleep 0.2
		put update_schemes_stats "$pd_kd/0/state"
		damon_stats "$pd_s/stats"
		[ "$pd_tried" -lt $((pd_passes * pd_regions)) ] || break
		pd_tries=$((pd_tries + 1))
	done
	put off "$pd_kd/0/state"
	# shellcheck disable=SC2086
	events 0 $pfn_events
	damon_off || fail "--scanner=damon: its own kdamond is still there: see $pd_kd/0/state and $pd_kd/nr_kdamonds"
	tried=$pd_tried
}

# damon_filters DIR: the scheme's filters, that keep its walk to the
# cgroup's folios.  Where filters have 'allow' (6.14 on): the cgroup's
# folios allowed, every other refused, each folio settled by these two,
# never by the young filter pageout adds after them.  Where they have
# not (6.12, 6.13), a filter only refuses (a folio is skipped where it
# matched as 'matching' says): one memcg filter, matching=N, refuses
# every folio not in the cgroup; the cgroup's folios then meet pageout's
# young filter, which marks a young one old and skips it ($pd_marks).
damon_filters() {
	# a write to nr_filters makes its filters anew: set it first
	put 1 "$1/nr_filters"
	if [ -e "$1/0/allow" ]; then
		pd_marks=""
		put 2 "$1/nr_filters"
		for pd_i in 0 1; do
			put memcg "$1/$pd_i/type"
			put "/$name" "$1/$pd_i/memcg_path"
		done
		put Y "$1/0/matching"
		put Y "$1/0/allow"
		put N "$1/1/matching"
		put N "$1/1/allow"
	else
		pd_marks=1
		put memcg "$1/0/type"
		put "/$name" "$1/0/memcg_path"
		put N "$1/0/matching"
	fi
}

# damon_stats DIR: $pd_tried, $pd_applied and $pd_sz_applied from the
# scheme's stats (as the last update_schemes_stats left them; 0 where
# unreadable).
damon_stats() {
	read -r pd_tried 2>/dev/null <"$1/nr_tried" || pd_tried=0
	read -r pd_applied 2>/dev/null <"$1/nr_applied" || pd_applied=0
	read -r pd_sz_applied 2>/dev/null <"$1/sz_applied" || pd_sz_applied=0
	case $pd_tried$pd_applied$pd_sz_applied in *[!0-9]*) pd_tried=0 pd_applied=0 pd_sz_applied=0 ;; esac
}

# damon_kind: its events are regions: a figure from $min_blocks of them.
damon_kind() { min_pfn=$min_blocks kind=took; }

# damon_replay FIRST END: the model's memmap of pfns [FIRST, END): whole
# pageblocks from the snapshot taken before DAMON's walk.
damon_replay() { pageblocks_of "$@"; }

damon_none() {
	fail "no kernel ratio: DAMON's walk isolated folios in no timed region: $tried regions tried, $(fig pfn_left_out) left out (preempted, or a sleep or lost events inside), $(fig pfn_floor_events) with none of the cgroup's folios"
}
