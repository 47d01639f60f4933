# kernel.awk - the kernel's scanners timed from a trace, for kernel.sh.
#
# Input: a trace instance's `trace` file as text (the events with their
# fields, timestamps to the microsecond); ENVIRON raw names the same buffer
# read again with options/raw set, whose lines start "PID CPU NS" with
# the timestamp in nanoseconds.  Both list the same events in the same
# order, so line k of one is line k of the other.  Needs lib.awk (plain)
# and stats.awk (sort_numbers, median_of) before it, and each pfn
# scanner's parser after it, a file a scanner, each saying what it times
# from which event to which: kernel-compaction.awk (compaction's migrate
# scanner, the default here), kernel-offline.awk (ENVIRON scanner
# "offline"), kernel-damon.awk ("damon"); kernel.sh reads them all
# (run_awk "$kernel_awk").  This file reads the two traces, times the
# LRU scanner, hands each event to the scanner's parser, and prints
# every figure.
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

BEGIN {	# offline and damon: kernel-offline.awk's and kernel-damon.awk's
	raw = ENVIRON["raw"]
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
