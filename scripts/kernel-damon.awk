# kernel-damon.awk - the pfn scanner by DAMON's paddr walk (ENVIRON
# scanner "damon"), for kernel.awk: read after it, which hands it the
# trace's events (dm_start, dm_switch, dm_event), ends the last region
# (dm_end) and prints its figures.
#
# Times damon_pa_pageout()'s walk and isolation of each region, from
# damos_before_apply to the kdamond's first
# mm_filemap_delete_from_page_cache, and the walk of a region that gives
# nothing, to the next damos_before_apply.  A kdamond of kernel.sh's own
# applies a DAMOS pageout scheme to each region in turn.
# damos_apply_scheme() (mm/damon/core.c) fires damos_before_apply just
# before damon_pa_pageout() (mm/damon/paddr.c), which walks the region's
# pfns (damon_get_folio() on each, stepping over a folio's pages),
# isolates each of the cgroup's LRU folios (folio_isolate_lru()), then
# hands them to reclaim_pages(): that moves each to a per-node list and
# calls shrink_folio_list(), which fires
# mm_filemap_delete_from_page_cache for each clean page-cache folio it
# drops, and (6.13 on) mm_vmscan_reclaim_pages at its end with
# nr_scanned, the pages it was given: the folios isolated (order 0).  So
# the interval from damos_before_apply to the kdamond's first
# mm_filemap_delete_from_page_cache is the walk and isolation of the
# region (with reclaim_pages()'s list move), reclaim apart; its pfns are
# the region's, end minus start over 4096.  The folios it gave:
# reclaim_pages's nr_scanned, or where the kernel has no such event
# (6.12; ENVIRON damon_count "deletes") the kdamond's drops up to its
# next damos_before_apply (clean page cache: each folio isolated is
# dropped).  A region where it isolates nothing (no folio dropped before
# the kdamond's next damos_before_apply) is walked alone: that interval
# is the walk's floor.  With ENVIRON damon_marks (DAMOS filters with no
# 'allow', before 6.14), pageout's own young filter meets the cgroup's
# folios: the first pass over a region (its START-END seen first) marks
# them old and skips them, isolating only the few already old; it is
# timed apart (pfn_mark_*), neither a figure nor a floor.  A switch of
# the kdamond inside a walk, or lost events, leaves the region out; so
# does the last region of a pass with nothing to isolate (no next
# damos_before_apply ends it).  With ENVIRON damos_tried (DAMOS's
# nr_tried when kernel.sh read its stats) the trace's own count over the
# first that many regions, for the stats to be set beside.
#
# Output: kernel.awk's END prints its pfn_folio_*, pfn_floor_*, pfn_moved,
# pfn_mark_* and pfn_check_* (dm_checked), and each region's "each" line.

BEGIN {
	damon = ENVIRON["scanner"] == "damon"
	dm_deletes = ENVIRON["damon_count"] == "deletes"
	dm_marks = ENVIRON["damon_marks"] != ""
	dm_check_tries = ENVIRON["damos_tried"] != "" ? ENVIRON["damos_tried"] + 0 : -1
}

# dm_start(ev, pid, ns): the kdamond starts a region: the one before
# it ends here (dm_end); with ENVIRON damos_tried (DAMOS's nr_tried when
# its stats were read), the trace's own count over as many regions is
# taken before this one counts.
function dm_start(ev, pid, ns,    v) {
	if (dm_state != "" && pid == dm_pid)
		dm_end(ns)
	if (!match(ev, / [0-9]+-[0-9]+: /))
		return
	if (dm_tries == dm_check_tries)
		dm_checked()
	dm_tries++
	split(substr(ev, RSTART + 1, RLENGTH - 3), v, "-")
	dm_pid = pid
	dm_t0 = ns
	dm_s = int(v[1] / 4096)
	dm_e = int(v[2] / 4096)
	dm_pass = ++dm_passes[dm_s " " dm_e]
	dm_pfns = dm_e - dm_s
	dm_state = dm_pfns > 0 ? "walk" : ""
	dm_broken = 0
	dm_walk = ""
	dm_dropped = dm_scanned = dm_reclaimed = 0
}

# dm_checked(): the trace's count over the regions DAMOS's stats count.
function dm_checked() {
	if (dm_check_done++)
		return
	printf "pfn_check_tries %d\npfn_check_folios %d\npfn_check_applied %d\n", dm_tries, dm_all_folios, dm_all_applied
}

# dm_event(name, ev, pid, ns): the walk's end (the kdamond's first folio
# dropped), each folio it drops, and reclaim_pages()'s count of the
# folios it was given where the kernel has that event.
function dm_event(name, ev, pid, ns) {
	if (pid != dm_pid || dm_state == "")
		return
	if (name == "mm_filemap_delete_from_page_cache") {
		if (dm_state == "walk") {
			dm_walk = ns - dm_t0
			dm_state = "reclaim"
		}
		dm_dropped++
	} else if (name == "mm_vmscan_reclaim_pages") {
		dm_scanned += field(ev, "nr_scanned")
		dm_reclaimed += field(ev, "nr_reclaimed")
	}
}

# dm_end(ns): the region started at dm_t0 ends at ns (0: where the trace
# ends, unknown).  Its folios: reclaim_pages()'s nr_scanned, or with
# ENVIRON damon_count "deletes" (6.12: no such event) the folios the
# kdamond dropped.  With ENVIRON damon_marks, its first pass over the
# region marked the cgroup's folios old (pageout's young filter),
# isolating only those already old: timed apart, in no figure but its
# own.  Else one that gave folios is timed to its first drop; one that
# gave none and dropped none is walked alone, the walk's floor; a switch
# of the kdamond inside the walk or lost events leave it out.
function dm_end(ns,    n, freed) {
	n = dm_deletes ? dm_dropped : dm_scanned
	freed = dm_deletes ? dm_dropped : dm_reclaimed
	dm_all_folios += freed
	dm_all_applied += freed > 0
	if (dm_marks && dm_pass == 1) {
		mark_taken += n
		if (!dm_broken && (dm_walk != "" || ns))
			mark_ns[++nr_mark] = (dm_walk != "" ? dm_walk : ns - dm_t0) / dm_pfns
	} else if (n > 0 && dm_walk != "" && !dm_broken) {
		pfn_ns[++nr_pfn] = dm_walk / dm_pfns
		each[nr_pfn] = dm_s " " dm_e " " pfn_ns[nr_pfn]
		folio_ns[nr_pfn] = dm_walk / n
		pfns += dm_pfns
		pfn_taken += n
		moved += freed
		covered("took", dm_s, dm_e)
	} else if (!n && dm_walk == "" && !dm_broken && ns)
		floor_ns[++nr_floor] = (ns - dm_t0) / dm_pfns
	else
		pfn_left++
	dm_state = ""
}

# dm_switch(ev): the kdamond switched out inside a timed interval.
function dm_switch(ev) {
	if (dm_state == "walk" && field(ev, "prev_pid") == dm_pid)
		dm_broken = 1
}
