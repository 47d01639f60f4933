# compare.awk - compare.sh's table: the first nb files (-v nb) against
# the rest, with stats.awk's Mann-Whitney comparison, the ratios first,
# then the walks' own times (ns a page for Physical, a folio for the
# others), which a change to every walk (a compiler's) moves while the
# ratios hide it; -v verbose, max_runs;
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

# keep_ns(side, label, pages): the row's own time, ns a page (Physical)
# or a folio, where the CSV has it (scan 2.0's do), as nsvalue[side,
# key, k]; with its spread over rounds (the times' min and max as a
# share of their median) as nsspread[side, key, 1 and 2], for one run.
function keep_ns(side, label, pages,    col, v, key, k, med) {
	# scan-kernel labels its rows "Physical (kernel)", "Physical (model)"
	col = label ~ /^Physical($| \()/ ? "ns_per_page" : "ns_per_folio"
	v = csv_field(col)
	if (v == "" || !is_number(v) || v + 0 <= 0)
		return
	key = label SUBSEP pages
	k = ++nscount[side, key]
	nsvalue[side, key, k] = v + 0
	med = csv_field("median_s")
	if (is_number(med) && med > 0 && is_number(csv_field("min_s")) && is_number(csv_field("max_s"))) {
		nsspread[side, key, 1] = v * csv_field("min_s") / med
		nsspread[side, key, 2] = v * csv_field("max_s") / med
	}
	if (side == 1 && k == 1)
		nsorder[++nnskeys] = key
}

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
	# scan-kernel's rows: the pfns its scanners timed vary run to run;
	# its runs are alike by their working set (memory_bytes), in pages
	if (csv_has("source") && csv_has("memory_bytes") && csv_field("memory_bytes") ~ /^[1-9][0-9]*$/)
		pages = int(csv_field("memory_bytes") / 4096)
	if (pages !~ /^[1-9][0-9]*$/)
		fail(FILENAME ": row " FNR ": pages " quoted(pages) " is not a positive whole number")
	warn_codes(csv_field("warnings"), file SUBSEP csv_field("run"), side)
	if (label == "")
		fail(FILENAME ": row " FNR ": no label")
	keep_ns(side, label, pages)
	# scan-kernel's rows from an emulated CPU (its emulated column)
	if (csv_has("emulated") && csv_field("emulated") == 1)
		emulated[side] = 1
	if (label == "Physical")
		next
	speedup = csv_field("speedup")
	# scan-kernel's aging-walk rows (PageTable) have no ratio, no
	# physical walk beside them: their times only
	if (csv_has("source") && speedup == "")
		next
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
function one_run_table(    i, key, part, b, a, noise, note, title) {
	print "one run a side: spread within the run only"
	printf "%-10s %10s %12s %12s %9s\n", "walk", "-c", "before", "after", "change"
	for (i = 1; i <= nkeys; i++) {
		key = order[i]
		if (!((2, key) in count))
			continue
		split(key, part, SUBSEP)
		b = value[1, key, 1]
		a = value[2, key, 1]
		note = noise_note(spread, key)
		printf "%-10s %10s %12s %12s %+8.1f%%%s\n", part[1], size(part[2]),
		    one_figure(b, 1, key, spread), one_figure(a, 2, key, spread), 100 * (a / b - 1), note
	}
	# each walk's own time, the same way
	for (i = 1; i <= nnskeys; i++) {
		key = nsorder[i]
		if (!((2, key) in nscount))
			continue
		if (!title++)
			print ns_title
		split(key, part, SUBSEP)
		b = nsvalue[1, key, 1]
		a = nsvalue[2, key, 1]
		printf "%-10s %10s %12s %12s %+8.1f%%%s\n", part[1], size(part[2]),
		    one_figure(b, 1, key, nsspread), one_figure(a, 2, key, nsspread), 100 * (a / b - 1),
		    noise_note(nsspread, key)
	}
}
# noise_note(sp, key): "  noise" where the two runs' spreads over rounds
# in sp[] overlap, "  spread unknown" where one is not known.
function noise_note(sp, key) {
	if (!((1, key, 1) in sp && (2, key, 1) in sp))
		return "  spread unknown"
	return sp[1, key, 1] <= sp[2, key, 2] && sp[2, key, 1] <= sp[1, key, 2] ? "  noise" : ""
}

# one_figure(v, s, key, sp): one run's figure, in the digits its spread
# over rounds in sp[] shows (three significant digits where that is
# unknown).
function one_figure(v, s, key, sp,    d) {
	d = (s, key, 1) in sp ? spread_digits(v, sp[s, key, 1], sp[s, key, 2]) : \
	    spread_digits(v, v, v)
	return sprintf("%." d "f", v)
}

# side_figures(s, key, v, ns): side s: its ratios (ns: its own times)
# sorted into v[], and their median with range and runs as text, in the
# digits the range shows.
function side_figures(s, key, v, ns,    k, n, d) {
	n = ns ? nscount[s, key] : count[s, key]
	for (k = 1; k <= n; k++)
		v[k] = ns ? nsvalue[s, key, k] : value[s, key, k]
	sort_numbers(v, n)
	d = spread_digits(median_of(v, n), v[1], v[n])
	return sprintf("%." d "f (%." d "f-%." d "f, %d run%s)", median_of(v, n), v[1], v[n],
	    n, n == 1 ? "" : "s")
}

# z_upper(p): the z with P(Z > z) = p, for 0 < p < 0.5 (bisection on
# stats.awk's norm_sf).
function z_upper(p,    lo, hi, mid, k) {
	lo = 0
	hi = 10
	for (k = 0; k < 60; k++) {
		mid = (lo + hi) / 2
		if (norm_sf(mid) > p) lo = mid
		else hi = mid
	}
	return (lo + hi) / 2
}

# seen_at(r, m, n, found): what the interval r measured says of this
# comparison (found: beside a change it found, what that means):
# the smallest change it would detect 80% of the time, and the runs a
# side that would detect 5% and 10% so, as text.  The interval's width
# is 2 z (its confidence's point) standard errors of the shift; a shift
# is detected 80% of the time at (z + 0.84) of them; the error goes as
# sqrt(1/m + 1/n), and Mann-Whitney needs 1/0.955 the runs of a t-test
# (its efficiency under a normal spread).  A rough guide, said "about".
function seen_at(r, m, n, found,    z, se, sd, d, k, c, need, out) {
	if (r["hi"] <= r["lo"])
		return ""
	z = z_upper((1 - r["conf"]) / 2)
	se = (r["hi"] - r["lo"]) / (2 * z)
	d = exp((z + 0.8416) * se) - 1
	sd = se / sqrt(1 / m + 1 / n)
	# beside a change found, what the noise means for it: its size is
	# known only as closely as its interval says
	if (found)
		out = sprintf("found through noise that hides most changes under about %s at %d runs a side here, so its size is known only to its interval", two_sig(100 * d) "%", m < n ? m : n)
	else
		out = sprintf("changes under about %s cannot be seen at %d runs a side here", two_sig(100 * d) "%", m < n ? m : n)
	split("0.05 0.10", c, " ")
	for (k = 1; k <= 2; k++) {
		need = 2 * ((1.959964 + 0.8416) * sd / log(1 + c[k])) ^ 2 / 0.955
		need = need < 4 ? 4 : int(need) == need ? need : int(need) + 1
		out = out (k == 1 ? "; " : ", ") sprintf("%d%%", 100 * c[k] + 0.5) (k == 1 ? " needs about " : " about ") \
		    two_sig_up(need) (k == 1 ? " runs a side" : "")
	}
	return out
}
# v to two significant digits ("17", "2.3", "0.41"), and rounded up
# (a count of runs: 63 is 63, 1234 is 1300).
function two_sig(v,    e) {
	if (v <= 0)
		return "0"
	e = floor(lg(v))
	return sprintf("%." (e >= 1 ? 0 : 1 - e) "f", v >= 10 ? int(v / 10 ^ (e - 1) + 0.5) * 10 ^ (e - 1) : v)
}
function two_sig_up(v,    e, s) {
	if (v < 100)
		return sprintf("%d", v)
	e = floor(lg(v)) - 1
	s = 10 ^ e
	return sprintf("%d", (int(v / s) + (v / s > int(v / s))) * s)
}

# verdict(b, m, a, n, r): the change and the verdict, from the speedups
# b[1..m] before and a[1..n] after, compared as logs.
function verdict(b, m, a, n, r, ns,    lb, la, k, conf, interval) {
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
# columns as wide as their widest entry.  The ratios' rows, then under
# ns_title the walks' own times', then a line for each ratio row on what
# these runs could see.
function runs_table(    i, key, part, m, n, b, a, r, rows, cell, w, fmt, nsat, ns) {
	w[1] = length("before")
	w[2] = length("after")
	for (ns = 0; ns <= 1; ns++)
		for (i = 1; i <= (ns ? nnskeys : nkeys); i++) {
			key = ns ? nsorder[i] : order[i]
			if (ns ? !((2, key) in nscount) : !((2, key) in count))
				continue
			split(key, part, SUBSEP)
			m = ns ? nscount[1, key] : count[1, key]
			n = ns ? nscount[2, key] : count[2, key]
			if (m > max_runs || n > max_runs)
				fail("more than " max_runs " runs of " part[1] " at -c " size(part[2]) " on a side")
			if (ns && !nsat)
				nsat = rows + 1
			rows++
			cell[rows, 1] = part[1]
			cell[rows, 2] = size(part[2])
			cell[rows, 3] = side_figures(1, key, b, ns)
			cell[rows, 4] = side_figures(2, key, a, ns)
			cell[rows, 6] = verdict(b, m, a, n, r, ns)
			cell[rows, 5] = r["change"]
			if (!ns && m >= 3 && n >= 3)
				seen[rows] = seen_at(r, m, n, cell[rows, 6] ~ /^change /)
			w[1] = length(cell[rows, 3]) > w[1] ? length(cell[rows, 3]) : w[1]
			w[2] = length(cell[rows, 4]) > w[2] ? length(cell[rows, 4]) : w[2]
		}
	fmt = "%-10s %8s  %-" w[1] "s  %-" w[2] "s %7s  %s\n"
	printf fmt, "walk", "-c", "before", "after", "change", "verdict"
	for (i = 1; i <= rows; i++) {
		if (i == nsat)
			print ns_title
		printf fmt, cell[i, 1], cell[i, 2], cell[i, 3], cell[i, 4], cell[i, 5], cell[i, 6]
	}
	# what these runs could have seen, from the interval each measured
	for (i = 1; i <= rows; i++)
		if (seen[i] != "")
			printf "%s at -c %s: %s\n", cell[i, 1], cell[i, 2], seen[i]
}

END {
	if (failed)
		exit 1
	ns_title = "each walk's own time, ns a page (Physical) or a folio (the others):"
	for (i = 1; i <= nkeys; i++)
		common += (2, order[i]) in count
	if (!common)
		fail("no walk and size in both before and after")
	if (nruns[1] == 1 && nruns[2] == 1)
		one_run_table()
	else
		runs_table()
	footnote()
	if ((1 in emulated) || (2 in emulated))
		print "emulated CPU (scan-kernel's emulated column) on the " ((1 in emulated) ? (2 in emulated) ? \
		    "before and after sides" : "before side" : "after side") ": those times are the emulator's; quote none"
}

# footnote(): a line a warning scan gave, most important first, with how
# many runs of each side gave it.
function footnote(    c, how) {
	for (c in wseen)
		how[c] = "in " wruns[c, 1] + 0 " of " nruns[1] " run" (nruns[1] == 1 ? "" : "s") \
		    " before, " wruns[c, 2] + 0 " of " nruns[2] " after"
	warn_footnote(ENVIRON["wfile"], "scan warned:", how)
}
