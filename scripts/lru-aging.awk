# lru-aging.awk - kernel.sh's timing of MGLRU's aging walk, the page-table
# walk that "+ MEMCG_ID NODE_ID MAX_GEN" written to
# /sys/kernel/debug/lru_gen forces (Documentation/admin-guide/mm/
# multigen_lru.rst; lru_gen_seq_write() and run_aging() in mm/vmscan.c).
# The whole aging runs in the writer's write(2).  Four steps, by -v step:
#
# step=clock: the kernel's clock inside one write.  Reads a trace
# instance's text (the file argument) and -v raw, the same buffer read
# with options/raw ("PID CPU NS" a line, line k of one is line k of the
# other), -v pid (the writer's) and count (the bytes it wrote): the
# interval from the writer's sys_enter_write of count bytes to its next
# sys_exit_write, less the time it spent switched out between
# (sched_switch away from it to the switch back to it).  Prints
#   clock ns NS switches K
# or "none WHY" where the trace holds no such pair.
#
# step=walk: one walk's counts and time.  Reads, in this order (the last
# three arguments), what
# lru-gen.awk printed of lru_gen_full before the write and after it (the
# memcg's lines), then the write's time: step=clock's line, or dd's
# stderr (its "N bytes copied, S s" line: dd's own clock around its
# copy, which is the write).  -v node (the node written), gen (MAX_GEN,
# the youngest generation before the write), touched (the pages the
# holder touched), held (the pages it held, 0 where unknown) and huge
# (its AnonHugePages in kB, -1 where unknown).  The walk's counts: where lru_gen_full keeps one
# history (NR_HIST_GENS 1: capitals on the youngest generation, never
# reset), the youngest line after (gen + 1) less the youngest before
# (gen); where it keeps one a generation (CONFIG_LRU_GEN_STATS: small
# letters), generation gen's line after, which holds this walk's alone
# (reset_mm_stats() cleared it when the walk before ended).  The walk
# counts a leaf PTE for each PTE it reads, none for a PMD that maps a
# huge page (walk_pmd_range_locked()): where it read fewer than nine
# tenths of the pages held, the memory was not in base pages (THP) and
# the walk is not the one to time.  Prints
#   walk leaf_total T leaf_young Y ns NS touched K held H switches S
# or "none WHY" where it cannot say.
#
# step=report: the lines of step=walk (a walk a line), and "floor S":
# the same clock's time for the same write to /dev/null, taken after
# each walk, its median taken off every walk's time (dd's own cost was
# 150-220 us on a VM, as long as a walk of 65,536 PTEs, and 5 ms under
# TCG; the kernel's, a few us); -v clock (kernel or dd, the clock that
# timed them; with dd, clock_why says why not the kernel's); and the
# model's: -v
# model_s (scan's PageTable median seconds), model_ptes (its leaf PTEs:
# PTE tables times 512), model_young (its young folios); share (the
# share touched), bytes (the working set), node, command (scan's, as
# words).  Prints the kernel's figures (medians over the walks, with
# their interquartile range), the model's and kernel/model.  With -v
# csv_out (a file) and csv_run (scan-kernel's CSV of the two scanners,
# kernel-report.awk's), it also writes the walk's rows of that CSV to
# csv_out, in csv_run's columns: kernel,pagetable (the medians over the
# walks that gave a figure) and model,pagetable (none where the model
# gave no figure); nothing where no walk gave one.  model_access and
# model_folios are scan's access and folios columns in its replay.
#
# step=replay: the lines of step=walk; prints "MILLIONS SHARE", what
# scan's replay takes: the median walk's PTEs read in millions (its -c)
# and the share of all the walks' PTEs found young; nothing where no
# walk was timed.
function none(why) {	# a walk's: "none WHY"; the report's, a line
	print (step == "report" ? "MGLRU's aging walk: no figure: " : "none ") why
	done = 1
	exit
}
function counts_of(line, c,    f) {	# "memcg ... leaf_total T leaf_young Y ...": c["t"], c["y"]
	split(line, f, " ")
	c["t"] = f[8] + 0
	c["y"] = f[10] + 0
}
function hex(s,    v, i) {	# a number the trace prints in hex, without 0x
	v = 0
	s = tolower(s)
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
function raw_read(    line, r) {	# the raw line that goes with this text line: t_pid, t_ns
	while ((getline line < raw) > 0)
		if (line !~ /^#/) {
			split(line, r, " ")
			t_pid = r[1]; t_ns = r[3]
			return
		}
	none("the raw trace " raw " has fewer events than the trace")
}
function arg_of(name,    v) {	# "NAME: HEX" of a syscall's line
	if (!match($0, name ": [0-9a-fA-F]+"))
		return -1
	v = substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
	return hex(v)
}
function pid_of(name) {	# "NAME=PID" of an event's line
	return match($0, " " name "=[0-9]+") ? substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2) + 0 : -1
}
step == "clock" && /^#/ { next }
step == "clock" {
	raw_read()
	if (/\[LOST [0-9]+ EVENTS\]/) {
		if (c_state != "")
			none("the trace lost events inside the write")
		next
	}
	if (c_state == "" && t_pid == pid && / sys_write\(/ && arg_of("count") == count) {
		c_state = "in"; c_start = t_ns; c_off = 0; c_switches = 0
	} else if (c_state == "in" && / sched_switch: / && pid_of("prev_pid") == pid) {
		c_state = "out"; c_out = t_ns; c_switches++
	} else if (c_state == "out" && / sched_switch: / && pid_of("next_pid") == pid) {
		c_state = "in"; c_off += t_ns - c_out
	} else if (c_state == "in" && t_pid == pid && / sys_write -> /) {
		c_end = t_ns
		c_state = "done"
		c_ret = $NF
	}
	next
}
step == "walk" { part = FILENAME == ARGV[ARGC - 3] ? 1 : FILENAME == ARGV[ARGC - 2] ? 2 : 3 }
step == "walk" && part <= 2 && $1 == "memcg" && $3 == "node" && $4 == node {
	line[part, $6] = $0
	next
}
step == "walk" && part == 3 && match($0, /copied, [0-9.eE+-]+ s/) {
	secs = substr($0, RSTART + 8, RLENGTH - 10) + 0
	have_time = 1
}
step == "walk" && part == 3 && $1 == "clock" {	# step=clock's
	secs = $3 / 1e9
	switches = $5
	have_time = 2
}
step == "walk" && part == 3 && $1 == "none" { clock_none = substr($0, 6) }
step == "replay" && $1 == "walk" {
	t[++n] = $3
	ptes += $3; young += $5
}
step == "report" && $1 == "walk" {
	n++
	t[n] = $3; y[n] = $5; ns[n] = $7
	ptes += $3; young += $5; touched += $9
	if ($13 > 0) {
		switched++
		switches += $13
	}
}
step == "report" && $1 == "none" { nones++; none_why = substr($0, 6) }
step == "report" && $1 == "floor" { floors[++nfloor] = $2 * 1e9 }
function clock_end() {
	if (c_state == "")
		none("the trace holds no sys_enter_write of " count " bytes by pid " pid " (CONFIG_FTRACE_SYSCALLS?)")
	if (c_state != "done")
		none("the trace holds no sys_exit_write after pid " pid "'s write")
	if (hex(substr(c_ret, 3)) != count)
		none("the write returned " c_ret ", not " count " bytes")
	printf "clock ns %.0f switches %d\n", c_end - c_start - c_off, c_switches
}
function walk_end(    after, before, t, y) {
	if (clock_none != "")
		none(clock_none)
	if (!have_time)
		none("dd printed no time (its line: N bytes copied, S s): a dd that is not GNU's?")
	if (secs <= 0)
		none((have_time == 2 ? "the kernel's clock" : "dd") " timed the write at 0 s")
	if ((2, gen) in line) {		# a history a generation
		counts_of(line[2, gen], after)
		t = after["t"]; y = after["y"]
	} else if ((2, gen + 1) in line) {	# one history, on the youngest
		counts_of(line[2, gen + 1], after)
		before["t"] = before["y"] = 0
		if ((1, gen) in line)
			counts_of(line[1, gen], before)
		t = after["t"] - before["t"]; y = after["y"] - before["y"]
	} else
		none("lru_gen_full shows no walk counts for generation " gen " or " gen + 1 " of node " node)
	if (t <= 0)
		none("the walk read no PTE (lru_gen_full's leaf count did not grow)")
	if (held > 0 && t < held * 0.9)
		none("the walk read " t " leaf PTEs for the " held " pages held: " \
		    (huge > 0 ? huge " kB of them in huge pages (THP), whose PMDs it reads instead" : "most of them not in base pages (THP?)"))
	printf "walk leaf_total %d leaf_young %d ns %.0f touched %d held %d switches %d\n", t, y, secs * 1e9, touched, held, switches
}
function replay_end() {
	if (!n)
		exit
	sort_values(t, n)
	printf "%.6f %.4f\n", quantile(t, n, 0.5) / 1e6, ptes ? young / ptes : 0
}
function report_end(    k, a, b, m, m_pte, m_young, pte_mid, young_mid, floor_ns, under, own) {
	if (!n)
		none("no walk was timed" (nones ? ": " none_why : ""))
	sort_values(floors, nfloor)
	floor_ns = nfloor ? quantile(floors, nfloor, 0.5) : 0
	for (k = 1; k <= n; k++) {
		if (ns[k] <= floor_ns || !y[k]) {	# no time of its own, or nothing young
			under++
			continue
		}
		a[++m] = (ns[k] - floor_ns) / t[k]
		b[m] = (ns[k] - floor_ns) / y[k]
	}
	own = clock == "kernel" ? "the same write to /dev/null" : "dd's own time"
	if (!m)
		none(n " walk" (n == 1 ? "" : "s") " timed, none over " own " (" sprintf("%.3g", floor_ns / 1000) " us) with a young PTE")
	sort_values(a, m)
	sort_values(b, m)
	sort_values(ns, n)
	pte_mid = quantile(a, m, 0.5); young_mid = quantile(b, m, 0.5)
	printf "MGLRU's aging walk: %d walk%s of a %s anonymous working set in a memory cgroup of its own, node %s, %.3g%% of its pages touched before each (%d a walk)\n",
	    n, n == 1 ? "" : "s", human(bytes, "%.3g"), node, share * 100, touched / n
	printf "  kernel: %d leaf PTEs read a walk, %d young (%.3g%%): %.3g ns per PTE read (IQR %.3g-%.3g), %.3g ns per young PTE (IQR %.3g-%.3g)\n",
	    ptes / n, young / n, ptes ? young / ptes * 100 : 0, pte_mid, quantile(a, m, 0.25), quantile(a, m, 0.75),
	    young_mid, quantile(b, m, 0.25), quantile(b, m, 0.75)
	if (nones)
		printf "  left out: %d walk%s without counts: %s\n", nones, nones == 1 ? "" : "s", none_why
	if (under)
		printf "  left out: %d walk%s no longer than %s, or with no young PTE\n", under, under == 1 ? "" : "s", own
	if (clock == "kernel")
		printf "  timed: the kernel's clock inside the write to lru_gen (the writer's sys_enter_write to sys_exit_write; the aging runs in that write), %.3g us a walk (median), less %.3g us for the same write to /dev/null%s\n",
		    quantile(ns, n, 0.5) / 1000, floor_ns / 1000,
		    switched ? sprintf("; the writer switched out %d time%s in %d walk%s, that time taken off", switches, switches == 1 ? "" : "s", switched, switched == 1 ? "" : "s") : ""
	else
		printf "  timed: dd's clock around its write to lru_gen (the aging runs in that write%s), %.3g us a walk (median), less dd's own %.3g us (the same write to /dev/null)\n",
		    clock_why != "" ? "; not the kernel's clock: " clock_why : "", quantile(ns, n, 0.5) / 1000, floor_ns / 1000
	csv_row("kernel", m, pte_mid, young_mid, int(ptes / n), young / ptes)
	if (!(model_s > 0) || !(model_ptes > 0) || !(model_young > 0)) {
		print "  model: no figure (scan gave no PageTable time, PTE tables or young folios)"
		csv_close()
		return
	}
	m_pte = model_s * 1e9 / model_ptes
	m_young = model_s * 1e9 / model_young
	printf "  model: %.3g ns per PTE read, %.3g ns per young folio (%s)\n", m_pte, m_young, command
	printf "  kernel/model: %.3g per PTE read, %.3g per young\n", pte_mid / m_pte, young_mid / m_young
	csv_row("model", 1, m_pte, m_young, model_ptes, model_young / model_ptes)
	csv_close()
}
# csv_columns(): csv_names[1..csv_n], csv_run's header, and run_value[NAME],
# its first row's values: the run's columns (the pfn scanner, the load,
# the kernel, the host), the same on every row, are copied from there.
function csv_columns(    text, head, first, i) {
	csv_n = 0
	if ((getline text < csv_run) > 0)
		csv_n = split(text, head, ",")
	split("", first)
	if ((getline text < csv_run) > 0)
		split(text, first, ",")
	close(csv_run)
	for (i = 1; i <= csv_n; i++) {
		csv_names[i] = head[i]
		run_value[head[i]] = first[i]
	}
}
# csv_row(source, timed, per_pte, per_young, walked, young_share): a row of
# walk pagetable: ns_per_page is per leaf PTE read, ns_per_folio per
# young one, pages the PTEs a walk read, lru_fraction the share of them
# young (a PTE read, the young PTEs ns_per_folio counts, as on the
# scanners' rows it is a pfn, the LRU folios); speedup and ranges empty
# (no pfn scanner walked this memory); memory_bytes the aging walk's
# working set.
function csv_row(source, timed, per_pte, per_young, walked, young_share,    v, i, row) {
	if (csv_out == "")
		return
	if (!csv_n)
		csv_columns()
	v["source"] = source; v["walk"] = "pagetable"
	v["label"] = "PageTable (" source ")"; v["timed"] = timed
	v["ns_per_page"] = sprintf("%.4f", per_pte); v["ns_per_folio"] = sprintf("%.4f", per_young)
	v["speedup"] = ""; v["pages"] = walked; v["lru_fraction"] = sprintf("%.6f", young_share)
	v["memory_bytes"] = bytes; v["folios"] = model_folios; v["access"] = model_access
	v["ranges"] = ""
	for (i = 1; i <= csv_n; i++)
		row = row (i > 1 ? "," : "") (csv_names[i] in v ? v[csv_names[i]] : run_value[csv_names[i]])
	if (csv_n)
		print row > csv_out
}
function csv_close() {	# exit 1 where the rows could not be written
	if (csv_out != "" && csv_n && close(csv_out))
		exit 1
}
END {
	if (done)
		exit
	if (step == "clock")
		clock_end()
	else if (step == "walk")
		walk_end()
	else if (step == "replay")
		replay_end()
	else
		report_end()
}
