# explain-table.awk - explain.sh's table (after explain-gather.awk): a row
# a step, ListLRU then ArrayLRU (or PageTable), x the step before; a row
# marked ! had warnings, a footnote under it gives each code with its
# steps and scan's line (ENVIRON wfile: "STEP|LINE", each step's
# stderr); with --walk=pagetable, the source of each of its knobs' values
# (ENVIRON sources: "STEP|--KNOB=VALUE|SOURCE").
# v in at most 5 characters below 100000, never in e-notation
function num(v) {
	return sprintf(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v)
}
function cell(s, w) {
	if (r[s, w] == "")	# no such walk at this step
		return sprintf("%6s %5s %-11s", "-", "", "")
	return sprintf("%6s %5s %-11s", num(r[s, w]), change(r[s, w], s > 1 ? r[s - 1, w] : 0),
	    num(lo[s, w]) "-" num(hi[s, w]))
}
function change(v, before,    q) {	# "x1.23": v over the ratio before it
	if (!(before > 0))
		return ""
	q = v / before
	return "x" (q < 10 ? sprintf("%.2f", q) : num(q))
}
# measured(last): with ENVIRON kernel_csv, a last row after step last:
# scan-kernel's ratio (ListLRU alone) and where it comes from, or a line
# saying why there is none; a note when it is another host's than this run's.
function measured(last,    s, host, from) {
	if (ENVIRON["kernel_csv"] == "")
		return
	kernel_read()
	s = last + 1
	from = plain(ENVIRON["kernel_name"])
	if (km_ratio != "") {
		printf "%2d %-18s %6s %5s\n", s, "kernel (measured)", num(km_ratio), change(km_ratio, r[last, "list"])
		say("scan-kernel's ratio (ListLRU, pfn scanner " km_scanner_words ") from " from (km_bytes != "" ? ", a " human(km_bytes, "%.3g") \
		    " working set" : "") (km_host != "" ? " on host " km_host : "") (km_kernel != "" ? ", " km_kernel : ""), "  ")
	} else
		say("no bar: " from " gives no kernel ratio: " km_why, "kernel (measured):")
	host = plain(csv_field("host_id"))
	if (km_host != "" && host != "" && km_host != host)
		say("note: the kernel's ratio is another machine's: " from " comes from host " km_host \
		    ", this run is on host " host, "  ")
}
function steps_of(k,    i, s, out, from, prev) {	# "1-9, 11"
	for (i = 1; i <= nsteps + 2; i++) {
		s = i <= nsteps + 1 ? i : 0
		if (s && ((k, s) in had)) { if (from == "") from = s; prev = s; continue }
		if (from != "") { out = out (out == "" ? "" : ", ") from (prev > from ? "-" prev : ""); from = "" }
	}
	return out
}
# The median of a[s, w, 1..n] that scan counted, or "" if it counted none.
function counted_median(a, s, w, n,    k, m, x) {
	for (k = 1; k <= n; k++)
		if (a[s, w, k] != "")
			x[++m] = a[s, w, k] + 0
	if (!m)
		return ""
	sort_values(x, m)
	return m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
}
function misses(s, w,    l, d) {
	l = counted_median(llc, s, w, mcnt[s, w])
	d = counted_median(dtlb, s, w, mcnt[s, w])
	return (l == "" ? "-" : num(l)) "/" (d == "" ? "-" : num(d))
}
# Where scan counted them: each step's LLC and dTLB read misses a page
# (Physical) or folio, the median over the runs.
function print_misses(    i, s) {
	print "LLC/dTLB read misses a page (Physical) or folio, as scan counted:"
	printf "%2s %-18s %-13s %-13s %s\n", "", "adds", "Physical", "List", short
	for (i = 1; i <= nsteps; i++) {
		s = order[i]
		printf "%2d %-18s %-13s %-13s %s\n", s, name[s], misses(s, "physical"),
		    misses(s, "list"), misses(s, second)
	}
}
function say(text, lead,    n, i, line) {	# text wrapped at 72
	n = wrap(text, 72, lead " ", "      ", line)
	for (i = 1; i <= n; i++)
		print line[i]
}
# sources(): with --walk=pagetable, a line per step of its knobs: the
# value it sets and where that comes from
function sources(    line, f, said) {
	while (ENVIRON["sources"] != "" && (getline line < ENVIRON["sources"]) > 0) {
		split(line, f, "|")
		if (!said++) {
			print "PT: PageTable, MGLRU's page-table walk; the original had none."
			print "Its steps, from scan's defaults to --kernel-like's values:"
		}
		say(f[2] ": " f[3], sprintf("%4d", f[1]))
	}
}
END {
	short = second == "pagetable" ? "PT" : "Array"
	settle()
	# each code's line, as the first step that gave it said it
	while (ENVIRON["wfile"] != "" && (getline line < ENVIRON["wfile"]) > 0) {
		s = substr(line, 1, index(line, "|") - 1) + 0
		line = substr(line, index(line, "|") + 1)
		k = substr(line, 16, index(substr(line, 16), ":") - 1)	# after "scan: warning: "
		if (!(k in at))
			at[k] = s
		warn_line(line)
	}
	sub(/^ /, "", pages)
	printf "scan explain: %s pages on %s\n", pages ~ / / ? "unequal (" pages ")" : pages, plain(csv_field("cpu"))
	printf "%2s %-18s %6s %5s %-11s %6s %5s %s\n", "", "adds", "List", "step",
	    (nruns > 1 ? "runs" : "range"), short, "step", (nruns > 1 ? "runs" : "range")
	for (i = 1; i <= nsteps; i++) {
		s = order[i]
		row = sprintf("%2d %-18s %s %s", s, name[s], cell(s, "list"), cell(s, second))
		# the mark goes in the gap after the name (a ratio is 5 wide at most)
		print warned[s] ? substr(row, 1, 21) "!" substr(row, 23) : row
	}
	measured(order[nsteps])
	sources()
	if (nruns > 1)
		printf "each ratio: the median of %d runs (processes); runs: their range\n", nruns
	if (counted)
		print_misses()
	if ((n = warn_order()))
		print "! scan warned:"
	for (i = 1; i <= n; i++) {
		k = wcode[i]
		m = steps_of(k)
		say(k " (step" (m ~ /[-,]/ ? "s " : " ") m (m ~ /[-,]/ && (k in at) ? \
		    "; the figures of step " at[k] : "") ")" ((k in wtext) ? ": " wtext[k] : ""), "  -")
	}
}
