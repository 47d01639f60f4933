# kernel.awk - the kernel's scanners timed from a trace, for kernel.sh.
#
# Input: a trace instance's `trace` file as text (the events with their
# fields, timestamps to the microsecond); ENVIRON raw names the same buffer
# read again with options/raw set, whose lines start "PID CPU NS" with
# the timestamp in nanoseconds.  Both list the same events in the same
# order, so line k of one is line k of the other.  Needs lib.awk (plain)
# and stats.awk (sort_numbers, median_of) before it.
#
# The pfn scanner: compaction's migrate scanner.  In compact_zone()
# (mm/compaction.c) every turn of the loop calls compact_finished(),
# which fires mm_compaction_finished, then isolate_migratepages(), which
# scans one pageblock or the rest of one (isolate_migratepages_block())
# and fires mm_compaction_isolate_migratepages as it returns, before
# migrate_pages() moves what it took.  So the interval from
# mm_compaction_finished to the next mm_compaction_isolate_migratepages,
# on one CPU in one task with no event between, is the scan of that
# event's range, isolation of what it took included, migration not.  A
# range that does not start where the last one ended (a block skipped
# without an event) is left out.  Pfns are the range's end minus its
# start: nr_scanned adds a free block's whole size even where it runs
# past the block's end.
#
# The LRU scanner: reclaim's isolation.  shrink_inactive_list()
# (mm/vmscan.c) isolates a batch with isolate_lru_folios(), which fires
# mm_vmscan_lru_isolate at its end, shrinks the batch, and fires
# mm_vmscan_lru_shrink_inactive as it returns; shrink_lruvec() then
# calls it again for the next batch.  So the interval from
# mm_vmscan_lru_shrink_inactive to the next mm_vmscan_lru_isolate, on
# one CPU in one task with no event between, is one batch's isolation
# (with the loop's turn, the lru_add_drain() and the lock before it);
# one that follows the start of a reclaim call or a slab shrink is left
# out.  nr_scanned counts pages, not folios: the batch counts when
# every page scanned was taken from inactive_file and it is a full
# batch (32 pages or more); kernel.sh makes the working set of order-0
# folios, so pages are folios.
#
# A sched_switch of the task, or the trace's "[LOST N EVENTS]", between
# two events breaks the pair.
#
# The pfn scanner by memory-block offline (ENVIRON scanner is "offline"):
# kernel.sh writes "scan-kernel offline START" to the trace marker from
# the task that then writes "offline" to the block's state.
# offline_pages() (mm/memory_hotplug.c) sleeps in lru_cache_disable()
# while every CPU drains its LRU caches, then runs without sleeping
# through start_isolate_page_range() (every pfn's struct page read by
# has_unmovable_pages()), scan_movable_pages() and do_migrate_range(),
# which takes a reference on each pfn's folio and isolates each LRU
# folio, and fires mm_migrate_pages_start as it hands them to
# migrate_pages().  So the interval from the task's last wakeup after a
# sleep (sched_switch with it as next_pid) to mm_migrate_pages_start is
# the walk and isolation over the block, migration not included; a
# preemption inside it (the task switched out runnable, prev_state R)
# leaves the block out.  test_pages_isolated gives the block's pfns;
# ENVIRON block_folios names a file of "START FOLIOS" lines, the LRU
# folios each block held in /proc/kpageflags just before it went
# offline; mm_migrate_pages the pages moved.  A block with nothing to
# move (no mm_migrate_pages_start before test_pages_isolated) is
# counted, not timed.  The interval from mm_migrate_pages to
# test_pages_isolated walks the block again once it is empty
# (scan_movable_pages() reads every pfn's struct page, then
# test_pages_isolated() steps over free pages by their order): the
# floor of a pfn walk that isolates nothing.
#
# The pfn scanner by DAMON's paddr walk (ENVIRON scanner is "damon"): a
# kdamond of kernel.sh's own applies a DAMOS pageout scheme to each
# region in turn.  damos_apply_scheme() (mm/damon/core.c) fires
# damos_before_apply just before damon_pa_pageout() (mm/damon/paddr.c),
# which walks the region's pfns (damon_get_folio() on each, stepping
# over a folio's pages), isolates each of the cgroup's LRU folios
# (folio_isolate_lru()), then hands them to reclaim_pages(): that moves
# each to a per-node list and calls shrink_folio_list(), which fires
# mm_filemap_delete_from_page_cache for each clean page-cache folio it
# drops, and (6.13 on) mm_vmscan_reclaim_pages at its end with
# nr_scanned, the pages it was given: the folios isolated (order 0).
# So the interval from damos_before_apply to the kdamond's first
# mm_filemap_delete_from_page_cache is the walk and isolation of the
# region (with reclaim_pages()'s list move), reclaim apart; its pfns
# are the region's, end minus start over 4096.  The folios it gave:
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
# Output, one "key value" a line: pfn_events, pfn_median, pfn_q1,
# pfn_q3 (ns per pfn over the timed events that took folios), pfn_pfns,
# pfn_taken (their pfns and the pages taken), pfn_all_events,
# pfn_all_median, pfn_all_q1, pfn_all_q3, pfn_all_pfns, pfn_all_mean
# (every timed event; the mean is their time over their pfns),
# pfn_left_out; pfn_ended_early and pfn_stop (the zone compactions that
# ended early, status=contended, and where the last of them stopped:
# its migrate_pfn); lru_events, lru_median, lru_q1, lru_q3 (ns per folio),
# lru_folios, lru_left_out; lost; with scanner "offline" also
# pfn_folio_median, pfn_folio_q1, pfn_folio_q3 (ns per LRU folio of the
# block), pfn_floor_median, pfn_floor_q1, pfn_floor_q3 (ns per pfn of the
# emptied block's walk), pfn_moved (pages migrated) and pfn_empty
# (blocks with nothing to move); with "damon" pfn_folio_* as offline's,
# pfn_floor_* over the regions walked with nothing to isolate, pfn_moved
# (pages reclaimed), with damon_marks pfn_mark_* (ns per pfn of the first
# passes) and pfn_mark_taken (the folios they gave), with damos_tried
# pfn_check_tries, pfn_check_folios and pfn_check_applied (the regions,
# the folios freed, the regions that freed any); then "took START END", the pfns
# [START, END) the timed events that took folios covered, merged, in
# order, and "all START END" for every timed event; with "offline" or
# "damon", "each START END NS" for each timed block or region, its ns
# per pfn, in the order they were timed.

# hex(s): the value of hex digits s (with or without 0x).
function hex(s,    i, v) {
	s = tolower(s)
	sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}

# field(s, name): the value of name=VALUE in the event's text s.
function field(s, name,    v) {
	if (!match(s, "(^| )" name "=[^ ]*"))
		return ""
	v = substr(s, RSTART, RLENGTH)
	sub(/^ /, "", v)
	return substr(v, length(name) + 2)
}

# put(name, a, n): name_events, name_median, name_q1, name_q3 of a[1..n].
function put(name, a, n) {
	printf "%s_events %d\n", name, n
	if (!n)
		return
	sort_numbers(a, n)
	printf "%s_median %.4f\n%s_q1 %.4f\n%s_q3 %.4f\n", name, median_of(a, n),
	    name, quantile(a, n, 0.25), name, quantile(a, n, 0.75)
}

# covered(kind, s, e): add [s, e) to the ranges of that kind of timed
# event ("took": those that took folios; "all"), merged with the last
# one when they touch.
function covered(kind, s, e,    k) {
	k = nr_ranges[kind]
	if (k && s <= range_end[kind, k] && s >= range_start[kind, k]) {
		if (e > range_end[kind, k])
			range_end[kind, k] = e
		return
	}
	nr_ranges[kind] = ++k
	range_start[kind, k] = s
	range_end[kind, k] = e
}

# ranges(kind): a "kind START END" line per range of that kind.
function ranges(kind,    k) {
	for (k = 1; k <= nr_ranges[kind]; k++)
		printf "%s %d %d\n", kind, range_start[kind, k], range_end[kind, k]
}

function pfn_event(ev, cpu, pid, ns,    r, s, e, taken, v) {
	if (!match(ev, /range=\(0x[0-9a-f]+ ~ 0x[0-9a-f]+\)/))
		return
	r = substr(ev, RSTART + 7, RLENGTH - 8)
	split(r, v, " ~ ")
	s = hex(v[1])
	e = hex(v[2])
	taken = field(ev, "nr_taken") + 0
	if (last[cpu] == "mm_compaction_finished" && last_pid[cpu] == pid &&
	    s == range_end_of[cpu] && e > s) {
		all_ns[++nr_all] = (ns - last_ns[cpu]) / (e - s)
		all_pfns += e - s
		all_time += ns - last_ns[cpu]
		covered("all", s, e)
		if (taken) {
			pfn_ns[++nr_pfn] = all_ns[nr_all]
			pfns += e - s
			pfn_taken += taken
			covered("took", s, e)
		}
	} else
		pfn_left++
	range_end_of[cpu] = e
}

# zone_end(ev): a zone's compaction over; one that ended early
# (status=contended) is counted and where it stopped kept.
function zone_end(ev) {
	if (field(ev, "status") != "contended")
		return
	ended_early++
	stop = hex(field(ev, "migrate_pfn"))
}

function lru_event(ev, cpu, pid, ns,    scanned) {
	scanned = field(ev, "nr_scanned") + 0
	if (last[cpu] == "mm_vmscan_lru_shrink_inactive" && last_pid[cpu] == pid &&
	    field(ev, "lru") == "inactive_file" && scanned >= 32 &&
	    field(ev, "nr_taken") + 0 == scanned) {
		lru_ns[++nr_lru] = (ns - last_ns[cpu]) / scanned
		lru_folios += scanned
	} else
		lru_left++
}

# off_mark(ev, pid, ns): kernel.sh's marker: a block's offline starts.
function off_mark(ev, pid, ns,    v) {
	if (split(ev, v, " ") != 3 || v[1] != "scan-kernel" || v[2] != "offline")
		return
	off_pid = pid
	off_start = ns
	off_state = "walk"
	off_preempted = 0
	off_block = v[3] + 0
}

# off_switch(ev, ns): the offline task switched out or back in.
function off_switch(ev, ns) {
	if (off_state != "walk")
		return
	if (field(ev, "prev_pid") == off_pid)
		off_slept = field(ev, "prev_state") !~ /^R/
	else if (field(ev, "next_pid") == off_pid) {
		if (off_slept) {
			off_start = ns
			off_preempted = 0
		} else
			off_preempted = 1
	}
}

# off_event(name, ev, pid, ns): the offline task's migration and the
# end of its isolation test.
function off_event(name, ev, pid, ns,    s, e) {
	if (pid != off_pid || off_state == "")
		return
	if (name == "mm_migrate_pages_start" && off_state == "walk") {
		off_ns = ns - off_start
		off_state = "moving"
	} else if (name == "mm_migrate_pages" && off_state == "moving") {
		off_pages = field(ev, "nr_succeeded") + field(ev, "nr_failed")
		off_moved = ns
		off_state = "moved"
	} else if (name == "test_pages_isolated") {
		s = hex(field(ev, "start_pfn"))
		e = hex(field(ev, "end_pfn"))
		if (off_state == "walk")
			off_empty++
		else if (off_state == "moved" && !off_preempted && e > s && off_folios[s] > 0) {
			pfn_ns[++nr_pfn] = off_ns / (e - s)
			each[nr_pfn] = s " " e " " pfn_ns[nr_pfn]
			folio_ns[nr_pfn] = off_ns / off_folios[s]
			floor_ns[nr_pfn] = (ns - off_moved) / (e - s)
			pfns += e - s
			pfn_taken += off_folios[s]
			moved += off_pages
			covered("took", s, e)
		} else
			pfn_left++
		off_state = ""
	}
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

BEGIN {
	raw = ENVIRON["raw"]
	damon = ENVIRON["scanner"] == "damon"
	dm_deletes = ENVIRON["damon_count"] == "deletes"
	dm_marks = ENVIRON["damon_marks"] != ""
	dm_check_tries = ENVIRON["damos_tried"] != "" ? ENVIRON["damos_tried"] + 0 : -1
	offline = ENVIRON["scanner"] == "offline"
	if (offline && ENVIRON["block_folios"] != "")
		while ((getline line < ENVIRON["block_folios"]) > 0) {
			split(line, v, " ")
			off_folios[v[1] + 0] = v[2] + 0
		}
}

# The raw line that goes with this text line: "PID CPU NS ...".
function raw_line(    line) {
	while ((getline line < raw) > 0)
		if (line !~ /^#/)
			return line
	print "kernel.awk: " plain(raw) " has fewer events than the trace" > "/dev/stderr"
	bad = 1
	exit 1
}

/^#/ { next }
{
	split(raw_line(), r, " ")
	if (/\[LOST [0-9]+ EVENTS\]/) {	# a gap: no interval spans it
		lost++
		for (c in last)
			last[c] = ""
		if (off_state != "")	# a block with a gap is not timed
			off_preempted = 1
		if (dm_state != "")	# nor a region
			dm_broken = 1
		next
	}
	if (!match($0, /[0-9]+\.[0-9]+: [a-z0-9_]+: /)) {
		print "kernel.awk: line " NR ": not a trace event" > "/dev/stderr"
		bad = 1
		exit 1
	}
	pid = r[1]
	cpu = r[2]
	ns = r[3]
	head = substr($0, RSTART, RLENGTH)
	ev = substr($0, RSTART + RLENGTH)
	name = head
	sub(/^[0-9.]+: /, "", name)
	sub(/: $/, "", name)
	if (name == "mm_compaction_begin")
		range_end_of[cpu] = hex(field(ev, "migrate_pfn"))
	else if (name == "mm_compaction_end")
		zone_end(ev)
	else if (name == "mm_compaction_isolate_migratepages" && !offline && !damon)
		pfn_event(ev, cpu, pid, ns)
	else if (name == "mm_vmscan_lru_isolate")
		lru_event(ev, cpu, pid, ns)
	else if (damon) {
		if (name == "damos_before_apply")
			dm_start(ev, pid, ns)
		else if (name == "sched_switch")
			dm_switch(ev)
		else
			dm_event(name, ev, pid, ns)
	} else if (name == "tracing_mark_write")
		off_mark(ev, pid, ns)
	else if (name == "sched_switch")
		off_switch(ev, ns)
	else if (offline)
		off_event(name, ev, pid, ns)
	last[cpu] = name
	last_pid[cpu] = pid
	last_ns[cpu] = ns
}
END {
	if (bad)
		exit 1
	if (offline) {
		put("pfn_folio", folio_ns, nr_pfn)
		put("pfn_floor", floor_ns, nr_pfn)
		printf "pfn_moved %d\npfn_empty %d\n", moved, off_empty
	} else if (damon) {
		if (dm_state != "")	# the last region: its end unknown
			dm_end(0)
		if (dm_check_tries >= 0)	# the trace may hold fewer
			dm_checked()
		put("pfn_folio", folio_ns, nr_pfn)
		put("pfn_floor", floor_ns, nr_floor)
		printf "pfn_moved %d\n", moved
		if (dm_marks) {
			put("pfn_mark", mark_ns, nr_mark)
			printf "pfn_mark_taken %d\n", mark_taken
		}
	}
	put("pfn", pfn_ns, nr_pfn)
	printf "pfn_pfns %d\npfn_taken %d\n", pfns, pfn_taken
	put("pfn_all", all_ns, nr_all)
	printf "pfn_all_pfns %d\npfn_all_mean %.4f\npfn_left_out %d\n", all_pfns,
	    all_pfns ? all_time / all_pfns : 0, pfn_left
	printf "pfn_ended_early %d\npfn_stop %d\n", ended_early, stop
	put("lru", lru_ns, nr_lru)
	printf "lru_folios %d\nlru_left_out %d\nlost %d\n", lru_folios, lru_left, lost
	ranges("took")
	ranges("all")
	for (k = 1; k <= nr_pfn; k++)
		if (k in each)
			print "each " each[k]
}
