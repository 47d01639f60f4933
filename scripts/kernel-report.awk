# kernel-report.awk - kernel.sh's report on stdout and its CSV (into the
# file ENVIRON csv_out), from kernel.awk's figures ("KEY VALUE" lines,
# the operand) and scan's CSVs of the model (ENVIRON model_lru: the
# ListLRU replay; model_pfn: the Physical one; each_model, where set:
# "START END KERNEL MODEL" for each block or region the pfn scanner
# timed, its ns/pfn and the model's over it replayed alone).  Needs
# stats.awk (sort_numbers, median_of) before it.  ENVIRON kind is "took"
# (the pfn scanner's figure is the median over the ranges where it
# isolated folios: a ratio can be formed) or "all" (the time over every
# timed range's pfns: no ratio); ENVIRON scanner names the pfn scanner
# ("offline": memory-block offline, whose events are blocks, with
# refused and tried, the blocks that refused and were tried; "damon":
# DAMON's paddr walk, whose events are regions, with tried, the regions
# its scheme was tried on; "compaction"); the rest of ENVIRON is the run's: min_events (the LRU
# scanner's), min_pfn (the pfn scanner's), size, cgv, lru_path,
# lru_words, load_before, load_after, overrun (events the instance's
# buffer dropped), cpus.  A figure kernel.awk
# gave none of is 0; values stay as printed where they are copied.  Exit
# status 3: the model gave no figure; 1: the CSV could not be written.
BEGIN {
	each_quotients(ENVIRON["each_model"])
	kind = ENVIRON["kind"]; min = ENVIRON["min_events"] + 0
	scanner = ENVIRON["scanner"]; min_pfn = ENVIRON["min_pfn"] + 0
	model("model_lru", "list", "ns_per_folio kernel host_id version")
	model("model_pfn", "physical", "ns_per_page")
}
# model(FILE, WALK, COLUMNS): m[COLUMN], the plain text of those columns
# in the row of WALK in scan's CSV ENVIRON[FILE].
function model(file, walk, columns,    path, line, n, c, i, saved) {
	path = ENVIRON[file]
	saved = $0
	n = split(columns, c, " ")
	FS = ","
	while ((getline line < path) > 0) {
		$0 = line
		if (++rows == 1)
			csv_header()
		else if (csv_field("walk") == walk)
			for (i = 1; i <= n; i++)
				m[c[i]] = plain(csv_field(c[i]))
	}
	close(path)
	rows = 0
	FS = " "
	$0 = saved
}
# each_quotients(FILE): nq, q[1..nq] sorted, the kernel's ns/pfn over
# the model's for each block (region) replayed alone, from FILE's
# "START END KERNEL MODEL" lines (ENVIRON each_model; none where unset).
function each_quotients(file,    line, v) {
	nq = 0
	if (file == "")
		return
	while ((getline line < file) > 0)
		if (split(line, v, " ") == 4 && v[4] + 0 > 0)
			q[++nq] = v[3] / v[4]
	close(file)
	sort_numbers(q, nq)
}
# at(a, n, p): the p-quantile of sorted a[1..n], interpolated.
function at(a, n, p,    h, k) {
	h = (n - 1) * p + 1
	k = int(h)
	return k >= n ? a[n] : a[k] + (h - k) * (a[k + 1] - a[k])
}
# physical_quotient(): kernel/model for the pfn scanner: the median of
# the blocks' (regions') own quotients where there are any, the all
# together quotient beside it; else that one alone.
function physical_quotient(    unit) {
	if (!nq)
		return two(pfn / m_pfn)
	unit = scanner == "damon" ? "regions" : "blocks"
	return two(median_of(q, nq)) " (median over " nq " " unit ", each replayed alone; IQR " two(at(q, nq, 0.25)) "-" \
	    two(at(q, nq, 0.75)) "; all together " two(pfn / m_pfn) ")"
}
{ fig[$1] = $2 }
function f(key) { return key in fig ? fig[key] : 0 }
function two(v) { return sprintf("%.2f", v) }
# fit(v, lo, hi): v in the digits its interval [lo, hi] supports
# (lib.awk's spread_digits)
function fit(v, lo, hi) { return sprintf("%." spread_digits(v, lo, hi) "f", v) }
END {
	if (!(m["ns_per_page"] + 0 > 0) || !(m["ns_per_folio"] + 0 > 0))
		exit 3	# the model gave no figure
	m_pfn = m["ns_per_page"]; m_lru = m["ns_per_folio"]
	if (kind == "took" && scanner == "offline") {
		pfn = f("pfn_median"); pfn_n = f("pfn_events"); pfn_pfns = f("pfn_pfns")
		pfn_words = "median over memory blocks; IQR " two(f("pfn_q1")) "-" two(f("pfn_q3")) "), " \
		    two(f("pfn_folio_median")) " ns per LRU folio isolated (IQR " two(f("pfn_folio_q1")) "-" two(f("pfn_folio_q3"))
		share = f("pfn_pfns") ? sprintf("%.6f", f("pfn_taken") / f("pfn_pfns")) : ""
		pfn_tail = "; " ENVIRON["refused"] " of " ENVIRON["tried"] " blocks did not go offline (refused with EBUSY, or stopped), " \
		    f("pfn_left_out") " preempted, " f("pfn_empty") " with nothing to move"
		pfn_unit = "blocks"
		pfn_folio = f("pfn_folio_median")
	} else if (kind == "took" && scanner == "damon") {
		pfn = f("pfn_median"); pfn_n = f("pfn_events"); pfn_pfns = f("pfn_pfns")
		pfn_words = "median over DAMON's regions; IQR " two(f("pfn_q1")) "-" two(f("pfn_q3")) "), " \
		    two(f("pfn_folio_median")) " ns per LRU folio isolated (IQR " two(f("pfn_folio_q1")) "-" two(f("pfn_folio_q3"))
		share = f("pfn_pfns") ? sprintf("%.6f", f("pfn_taken") / f("pfn_pfns")) : ""
		pfn_tail = "; " ENVIRON["tried"] " regions tried, " f("pfn_left_out") " left out (preempted, or ended by a sleep), " \
		    f("pfn_floor_events") " with none of the cgroup's folios"
		pfn_unit = "regions"
		pfn_folio = f("pfn_folio_median")
	} else if (kind == "took") {
		pfn = f("pfn_median"); pfn_n = f("pfn_events"); pfn_pfns = f("pfn_pfns")
		pfn_words = "median over the ranges where it isolated folios; IQR " two(f("pfn_q1")) "-" two(f("pfn_q3"))
		share = sprintf("%.6f", f("pfn_taken") / f("pfn_pfns"))
		pfn_unit = "ranges"
	} else {
		pfn = f("pfn_all_mean"); pfn_n = f("pfn_all_events"); pfn_pfns = f("pfn_all_pfns")
		pfn_words = "time over pfns of every timed range: only " f("pfn_events") " of them isolated folios; per range median " \
		    two(f("pfn_all_median")) ", IQR " two(f("pfn_all_q1")) "-" two(f("pfn_all_q3"))
		share = ""
		pfn_unit = "ranges"
	}
	if (scanner == "offline")
		scanner_words = "memory-block offline: offline_pages()'s walk and isolation, migration apart"
	else if (scanner == "damon")
		scanner_words = "DAMON's paddr walk: damon_pa_pageout()'s walk and isolation, reclaim apart"
	else
		scanner_words = "compaction's migrate scanner"
	lru = f("lru_median"); lru_n = f("lru_events")
	lost = f("lost") + ENVIRON["overrun"]
	emulated = ENVIRON["emulated"] == 1
	if (emulated)
		print "emulated CPU (" ENVIRON["emulated_how"] "): every figure of this run is the emulator's, none the kernel's or the memory's: quote none"
	print "pfn scanner: " two(pfn) " ns/pfn (" pfn_words ") over " pfn_n " " pfn_unit ", " pfn_pfns " pfns (" scanner_words ")" pfn_tail
	if (scanner == "offline" && f("pfn_floor_events"))
		print "  each block walked again once emptied: " two(f("pfn_floor_median")) " ns/pfn (median; IQR " \
		    two(f("pfn_floor_q1")) "-" two(f("pfn_floor_q3")) "), the walk's floor where it isolates nothing"
	if (scanner == "damon" && f("pfn_floor_events"))
		print "  regions walked with none of the cgroup's folios: " two(f("pfn_floor_median")) " ns/pfn (median; IQR " \
		    two(f("pfn_floor_q1")) "-" two(f("pfn_floor_q3")) ", " f("pfn_floor_events") " regions), the walk's floor"
	if (scanner == "damon")
		damon_lines()
	if (lru_n >= min)
		print "LRU scanner: " two(lru) " ns/folio (median; IQR " two(f("lru_q1")) "-" two(f("lru_q3")) ") over " lru_n \
		    " batches, " f("lru_folios") " order-0 folios (reclaim's isolation from inactive_file, " ENVIRON["lru_words"] ")"
	else
		print "LRU scanner: not measured: " lru_n " full batches timed, " min " wanted"
	if (share != "" && lru_n >= min && pfn_n >= min_pfn) {
		x = sprintf("%f", lru * share / pfn)
		mx = sprintf("%f", m_lru * share / m_pfn)
		# the interval: the LRU scanner's quartiles over the pfn scanner's
		x_lo = f("pfn_q3") ? f("lru_q1") * share / f("pfn_q3") : 0
		x_hi = f("pfn_q1") ? f("lru_q3") * share / f("pfn_q1") : 0
		print "Kernel: physical scan is " fit(x, x_lo, x_hi) " faster than ListLRU (" fit(x_lo, x_lo, x_hi) " to " fit(x_hi, x_lo, x_hi) \
		    ", from the two scanners' interquartile ranges; pfn scanner: " scanner ")"
		print "  at " sprintf("%.4f", share) " LRU folios a pfn, the share of the " pfn_unit " timed"
		print "model: Physical " two(m_pfn) " ns/page, ListLRU " two(m_lru) " ns/folio, ratio " fit(mx, mx, mx) \
		    " at the same share (scan --access=isolate, replayed)"
		print "kernel/model: Physical " physical_quotient() ", ListLRU " two(lru / m_lru) ", ratio " two(x / mx)
	} else {
		print "model: Physical " sprintf("%.3f", m_pfn) " ns/page over the same pfns, ListLRU " two(m_lru) \
		    " ns/folio (scan --access=isolate, replayed)"
		# no quotient for a scanner not measured
		print "kernel/model: Physical " physical_quotient() (lru_n >= min ? ", ListLRU " two(lru / m_lru) : "") "; no kernel ratio: " \
		    (lru_n < min ? "too few LRU batches" : share == "" ? "no ranges of LRU folios" : "too few " pfn_unit " timed")
	}
	print "working set " int(ENVIRON["size"] / 1048576) " MiB, memory cgroup v" ENVIRON["cgv"] "; load " \
	    ENVIRON["load_before"] " before, " ENVIRON["load_after"] " after (" ENVIRON["cpus"] " CPUs); " lost " events lost"
	out = ENVIRON["csv_out"]
	tail = "," pfn_pfns "," share "," ENVIRON["size"] ",0:100,isolate," kind "," scanner "," ENVIRON["lru_path"] "," \
	    ENVIRON["cgv"] "," ENVIRON["load_before"] "," ENVIRON["load_after"] "," lost "," m["kernel"] "," m["host_id"] "," m["version"]
	# speedup_min, speedup_max: the interval of stdout's "Kernel:" line,
	# on the kernel's ListLRU row only; emulated: 1 where the CPU was
	# (the run's, on every row).  Last, so that a reader by name of the
	# columns before them reads them as it did.
	print "source,walk,label,timed,ns_per_page,ns_per_folio,speedup,pages,lru_fraction,memory_bytes,folios,access,ranges,scanner,lru_path,cgroup,load_before,load_after,lost,kernel,host_id,version,speedup_min,speedup_max,emulated" > out
	# ns_per_folio: the "ns per LRU folio isolated" of stdout (offline's
	# and DAMON's; compaction times ranges, not folios: empty)
	print "kernel,physical,Physical (kernel)," pfn_n "," pfn "," pfn_folio ",1" tail ",,," emulated > out
	if (lru_n >= min)
		print "kernel,list,ListLRU (kernel)," lru_n "," lru "," lru "," x tail "," \
		    (x != "" && x_lo > 0 && x_hi > 0 ? sprintf("%f,%f", x_lo, x_hi) : ",") "," emulated > out
	print "model,physical,Physical (model),1," m_pfn ",,1" tail ",,," emulated > out
	print "model,list,ListLRU (model),1," m_lru "," m_lru "," mx tail ",,," emulated > out
	if (close(out))
		exit 1
}
# damon_lines(): DAMON's own lines: its first passes where pageout's
# young filter made them mark the cgroup's folios old (ENVIRON
# damon_marks), which count of a region's folios was used (ENVIRON
# damon_count), and DAMOS's stats beside the trace's count over as many
# regions (ENVIRON damos_tried, damos_applied, damos_sz_applied).
function damon_lines(    pages, agree) {
	if (ENVIRON["damon_marks"] != "")
		print "  first pass over each region: " (f("pfn_mark_events") ? two(f("pfn_mark_median")) " ns/pfn (median; IQR " \
		    two(f("pfn_mark_q1")) "-" two(f("pfn_mark_q3")) ", " f("pfn_mark_events") " regions)" : "not timed") \
		    ", marking the cgroup's folios old (pageout's young filter: DAMOS filters here have no 'allow'), " \
		    f("pfn_mark_taken") " folios isolated that were old already: neither a figure nor the floor"
	if (ENVIRON["damon_count"] == "deletes")
		print "  a region's folios: the kdamond's filemap:mm_filemap_delete_from_page_cache events " \
		    "(this kernel has no vmscan:mm_vmscan_reclaim_pages)"
	else
		print "  a region's folios: vmscan:mm_vmscan_reclaim_pages's nr_scanned"
	if (ENVIRON["damos_tried"] == "")
		return
	pages = int(ENVIRON["damos_sz_applied"] / 4096)
	agree = f("pfn_check_tries") == ENVIRON["damos_tried"] && f("pfn_check_folios") == pages && \
	    f("pfn_check_applied") == ENVIRON["damos_applied"]
	print "  DAMOS stats: " ENVIRON["damos_tried"] " regions tried, " ENVIRON["damos_applied"] " applied, " pages \
	    " pages reclaimed; the trace: " f("pfn_check_tries") " regions, " f("pfn_check_applied") " that freed folios, " \
	    f("pfn_check_folios") " folios freed: " (agree ? "they agree" : "they differ")
}

