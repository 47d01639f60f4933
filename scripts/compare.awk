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
		printf "%-10s %10s %12s %12s %+8.1f%%%s\n", part[1], size(part[2]),
		    one_figure(b, 1, key), one_figure(a, 2, key), 100 * (a / b - 1), note
	}
}

# one_figure(v, s, key): one run's figure, in the digits its spread over
# rounds shows (three significant digits where that is unknown).
function one_figure(v, s, key,    d) {
	d = (s, key, 1) in spread ? spread_digits(v, spread[s, key, 1], spread[s, key, 2]) : \
	    spread_digits(v, v, v)
	return sprintf("%." d "f", v)
}

# side_figures(s, key, v): side s: its values sorted into v[], and its
# median with range and runs as text, in the digits the range shows.
function side_figures(s, key, v,    k, n, d) {
	n = count[s, key]
	for (k = 1; k <= n; k++)
		v[k] = value[s, key, k]
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

# seen_at(r, m, n): what the interval r measured says of this comparison:
# the smallest change it would detect 80% of the time, and the runs a
# side that would detect 5% and 10% so, as text.  The interval's width
# is 2 z (its confidence's point) standard errors of the shift; a shift
# is detected 80% of the time at (z + 0.84) of them; the error goes as
# sqrt(1/m + 1/n), and Mann-Whitney needs 1/0.955 the runs of a t-test
# (its efficiency under a normal spread).  A rough guide, said "about".
function seen_at(r, m, n,    z, se, sd, d, k, c, need, out) {
	if (r["hi"] <= r["lo"])
		return ""
	z = z_upper((1 - r["conf"]) / 2)
	se = (r["hi"] - r["lo"]) / (2 * z)
	d = exp((z + 0.8416) * se) - 1
	sd = se / sqrt(1 / m + 1 / n)
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
		if (m >= 3 && n >= 3)
			seen[rows] = seen_at(r, m, n)
		w[1] = length(cell[rows, 3]) > w[1] ? length(cell[rows, 3]) : w[1]
		w[2] = length(cell[rows, 4]) > w[2] ? length(cell[rows, 4]) : w[2]
	}
	fmt = "%-10s %8s  %-" w[1] "s  %-" w[2] "s %7s  %s\n"
	printf fmt, "walk", "-c", "before", "after", "change", "verdict"
	for (i = 1; i <= rows; i++)
		printf fmt, cell[i, 1], cell[i, 2], cell[i, 3], cell[i, 4], cell[i, 5], cell[i, 6]
	# what these runs could have seen, from the interval each measured
	for (i = 1; i <= rows; i++)
		if (seen[i] != "")
			printf "%s at -c %s: %s\n", cell[i, 1], cell[i, 2], seen[i]
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
		how[c] = "in " wruns[c, 1] + 0 " of " nruns[1] " run" (nruns[1] == 1 ? "" : "s") \
		    " before, " wruns[c, 2] + 0 " of " nruns[2] " after"
	warn_footnote(ENVIRON["wfile"], "scan warned:", how)
}
