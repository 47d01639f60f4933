# kernel-compaction.awk - the pfn scanner by compaction: its migrate
# scanner (ENVIRON scanner neither "offline" nor "damon"), for
# kernel.awk: read after it, which hands it the trace's compaction
# events (pfn_event, zone_end) and prints its figures.
#
# Times isolate_migratepages_block() over each range, from
# mm_compaction_finished to mm_compaction_isolate_migratepages.  In
# compact_zone() (mm/compaction.c) every turn of the loop calls
# compact_finished(), which fires mm_compaction_finished, then
# isolate_migratepages(), which scans one pageblock or the rest of one
# (isolate_migratepages_block()) and fires
# mm_compaction_isolate_migratepages as it returns, before
# migrate_pages() moves what it took.  So the interval from
# mm_compaction_finished to the next mm_compaction_isolate_migratepages,
# on one CPU in one task with no event between, is the scan of that
# event's range, isolation of what it took included, migration not.  A
# range that does not start where the last one ended (a block skipped
# without an event) is left out.  Pfns are the range's end minus its
# start: nr_scanned adds a free block's whole size even where it runs
# past the block's end.

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
