# compare.awk - compare.sh's table: the first nb files (-v nb) against
# the rest, with stats.awk's Mann-Whitney comparison; -v verbose, max_runs;
# then a footnote of scan's warnings: the codes from the CSVs' warnings
# column, each code's line from ENVIRON wfile (the runs' stderr, if any).
# A bad CSV stops it, exit 1, with one line naming the file and row.
function fail(msg) {
	printf "compare.sh: %s\n", plain(msg) > "/dev/stderr"
	failed = 1
	exit 1
}
# a number, and finite: a speedup of 1e-100 to 1e100, so that every ratio
# and log of two stays finite (no +inf% change)
function is_number(s) {
	return s ~ /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ && s + 0 <= 1e100 &&
	    (s + 0 == 0 || s + 0 >= 1e-100)
}
function quoted(s) { return "\"" (length(s) > 20 ? substr(s, 1, 20) "..." : s) "\"" }
function size(pages) { return sprintf("%g", pages / 1e6) }

length($0) > 65536 { fail(FILENAME ": row " FNR " is over 64 KiB: not scan's CSV") }
FNR == 1 {
	file++
	side = file <= nb ? 1 : 2
	sub(/\r$/, "")
	csv_header()
	header = $0
	nf = NF
	if (!csv_has("label") || !csv_has("pages") || !csv_has("speedup"))
		fail(FILENAME ": no " (csv_has("label") ? csv_has("pages") ? "speedup" : \
		    "pages" : "label") " column: not a CSV of scan --format=csv")
	# the spread within a run: quartiles over rounds since 2.0, else extremes
	spread_lo = csv_has("speedup_q1") && csv_has("speedup_q3") ? "speedup_q1" : "speedup_min"
	spread_hi = spread_lo == "speedup_q1" ? "speedup_q3" : "speedup_max"
	next
}
{ sub(/\r$/, "") }
$0 == "" { next }
$0 == header { fail(FILENAME ": row " FNR " repeats the header (two CSVs joined?)") }
NF != nf { fail(FILENAME ": row " FNR " has " NF " fields, the header " nf) }
{
	label = plain(csv_field("label"))
	pages = csv_field("pages")
	if (pages !~ /^[1-9][0-9]*$/)
		fail(FILENAME ": row " FNR ": pages " quoted(pages) " is not a positive whole number")
	warn_codes(csv_field("warnings"), file SUBSEP csv_field("run"), side)
	if (label == "Physical")
		next
	if (label == "")
		fail(FILENAME ": row " FNR ": no label")
	speedup = csv_field("speedup")
	if (!is_number(speedup) || speedup + 0 <= 0)
		fail(FILENAME ": row " FNR ": speedup " quoted(speedup) " is not a positive number")
	run = csv_has("run") ? csv_field("run") : 1
	if (run !~ /^[1-9][0-9]*$/)
		fail(FILENAME ": row " FNR ": run " quoted(run) " is not a positive whole number")
	key = label SUBSEP pages
	if ((file, run, key) in seen)
		fail(FILENAME ": row " FNR " is a second row for " label " at -c " size(pages) \
		    (csv_has("run") ? " in run " run : ""))
	seen[file, run, key]
	if (!((side, file, run) in runs_seen)) {
		runs_seen[side, file, run]
		nruns[side]++
	}
	k = ++count[side, key]
	value[side, key, k] = speedup + 0
	lo = csv_field(spread_lo)
	hi = csv_field(spread_hi)
	if (lo != "" && !is_number(lo) || hi != "" && !is_number(hi))
		fail(FILENAME ": row " FNR ": " (lo != "" && !is_number(lo) ? spread_lo " " \
		    quoted(lo) : spread_hi " " quoted(hi)) " is not a number")
	if (lo != "" && hi != "") {
		spread[side, key, 1] = lo + 0
		spread[side, key, 2] = hi + 0
	}
	if (side == 1 && count[1, key] == 1)
		order[++nkeys] = key
}

function pct(v) { return sprintf("%+.1f%%", 100 * v) }

# one_run_table(): a run a side, the noise judged by the spread over rounds
function one_run_table(    i, key, part, b, a, noise, note) {
	print "one run a side: spread within the run only"
	printf "%-10s %10s %12s %12s %9s\n", "walk", "-c", "before", "after", "change"
	for (i = 1; i <= nkeys; i++) {
		key = order[i]
		if (!((2, key) in count))
			continue
		split(key, part, SUBSEP)
		b = value[1, key, 1]
		a = value[2, key, 1]
		if ((1, key, 1) in spread && (2, key, 1) in spread) {
			noise = spread[1, key, 1] <= spread[2, key, 2] && \
			    spread[2, key, 1] <= spread[1, key, 2]
			note = noise ? "  noise" : ""
		} else
			note = "  spread unknown"
		printf "%-10s %10s %12.3f %12.3f %+8.1f%%%s\n", part[1], size(part[2]),
		    b, a, 100 * (a / b - 1), note
	}
}

# side_figures(s, key, v): side s: its values sorted into v[], and its
# median with range and runs as text.
function side_figures(s, key, v,    k, n) {
	n = count[s, key]
	for (k = 1; k <= n; k++)
		v[k] = value[s, key, k]
	sort_numbers(v, n)
	return sprintf("%.2f (%.2f-%.2f, %d run%s)", median_of(v, n), v[1], v[n],
	    n, n == 1 ? "" : "s")
}

# verdict(b, m, a, n, r): the change and the verdict, from the speedups
# b[1..m] before and a[1..n] after, compared as logs.
function verdict(b, m, a, n, r,    lb, la, k, conf, interval) {
	for (k = 1; k <= m; k++)
		lb[k] = log(b[k])
	for (k = 1; k <= n; k++)
		la[k] = log(a[k])
	mw_compare(lb, m, la, n, r)
	r["change"] = pct(exp(r["est"]) - 1)
	if (m < 3 || n < 3)
		return "no verdict: fewer than 3 runs a side"
	conf = r["conf"] >= 0.95 ? 95 : int(100 * r["conf"])
	interval = "(" conf "%: " pct(exp(r["lo"]) - 1) " to " pct(exp(r["hi"]) - 1) ")"
	return (r["lo"] <= 0 && r["hi"] >= 0 ? "no change detected " : \
	    "change " r["change"] " ") interval \
	    (verbose ? sprintf("  U %g, p %.3g (%s)", r["u"], r["p"], r["method"]) : "")
}

# runs_table(): several runs a side: the figures, then the verdict; the
# columns as wide as their widest entry.
function runs_table(    i, key, part, m, n, b, a, r, rows, cell, w, fmt) {
	w[1] = length("before")
	w[2] = length("after")
	for (i = 1; i <= nkeys; i++) {
		key = order[i]
		if (!((2, key) in count))
			continue
		split(key, part, SUBSEP)
		m = count[1, key]
		n = count[2, key]
		if (m > max_runs || n > max_runs)
			fail("more than " max_runs " runs of " part[1] " at -c " size(part[2]) " on a side")
		rows++
		cell[rows, 1] = part[1]
		cell[rows, 2] = size(part[2])
		cell[rows, 3] = side_figures(1, key, b)
		cell[rows, 4] = side_figures(2, key, a)
		cell[rows, 6] = verdict(b, m, a, n, r)
		cell[rows, 5] = r["change"]
		w[1] = length(cell[rows, 3]) > w[1] ? length(cell[rows, 3]) : w[1]
		w[2] = length(cell[rows, 4]) > w[2] ? length(cell[rows, 4]) : w[2]
	}
	fmt = "%-10s %8s  %-" w[1] "s  %-" w[2] "s %7s  %s\n"
	printf fmt, "walk", "-c", "before", "after", "change", "verdict"
	for (i = 1; i <= rows; i++)
		printf fmt, cell[i, 1], cell[i, 2], cell[i, 3], cell[i, 4], cell[i, 5], cell[i, 6]
}

END {
	if (failed)
		exit 1
	for (i = 1; i <= nkeys; i++)
		common += (2, order[i]) in count
	if (!common)
		fail("no walk and size in both before and after")
	if (nruns[1] == 1 && nruns[2] == 1)
		one_run_table()
	else
		runs_table()
	footnote()
}

# footnote(): a line a warning scan gave, most important first, with how
# many runs of each side gave it.
function footnote(    c, how) {
	for (c in wseen)
		how[c] = wruns[c, 1] + 0 "/" nruns[1] ", " wruns[c, 2] + 0 "/" nruns[2]
	warn_footnote(ENVIRON["wfile"], "scan warned (runs that gave each, before and after):", how)
}
