# kernel-offline.awk - the pfn scanner by memory-block offline (ENVIRON
# scanner "offline"), for kernel.awk: read after it, which hands it the
# trace's events (off_mark, off_switch, off_event) and prints its figures.
#
# Times offline_pages()'s walk and isolation of each block's LRU folios,
# from the writer's last wakeup to mm_migrate_pages_start, and the
# emptied block's walk, from mm_migrate_pages to test_pages_isolated.
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
# Output: kernel.awk's END prints its pfn_folio_*, pfn_floor_*, pfn_moved
# and pfn_empty, and each block's "each" line.

BEGIN {
	offline = ENVIRON["scanner"] == "offline"
	if (offline && ENVIRON["block_folios"] != "")
		while ((getline line < ENVIRON["block_folios"]) > 0) {
			split(line, v, " ")
			off_folios[v[1] + 0] = v[2] + 0
		}
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
