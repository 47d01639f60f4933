# sweep.awk - sweep.sh's table from a sweep's CSV (FS ","): a row per
# size (or young share), a column per walk compared (the median over the
# runs with their range when there are several), then a footnote of
# scan's warnings (the codes from its warnings column, each code's line
# from ENVIRON wfile, the runs' stderr, if any).  ENVIRON csv: the
# file's name for messages; axis: size or young, or "" to tell from the
# rows.  The file is given twice: the first reading finds the axis.
# Stops at the first row that is not a sweep's, naming it.
BEGIN { csv = ENVIRON["csv"]; axis = ENVIRON["axis"] }
function fail(msg) {
	printf "sweep.sh: %s line %d: %s\n", plain(csv), FNR, plain(msg) > "/dev/stderr"
	bad = 1
	exit 1
}
# a number from 0 to 1e100: every sum and ratio of them stays finite
function number(name,    v) {
	v = csv_field(name)
	if (v !~ /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ || !(v + 0 <= 1e100))
		fail(name " is \"" substr(v, 1, 24) "\", not a number from 0 to 1e100")
	return v + 0
}
function median(k, m,    v, i) {	# of ratio[k, 1..m]; lo, hi too
	for (i = 1; i <= m; i++)
		v[i] = ratio[k, i]
	sort_values(v, m)
	lo = v[1]; hi = v[m]
	return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
}
length($0) > 65536 { fail("a line of over 64 KiB: not scan's CSV") }
# the first reading: a young sweep's rows share one size and differ in
# their young share
NR == FNR {
	if (FNR == 1)
		csv_header()
	else if (csv_has("young") && csv_field("walk") != "walk") {
		sizes_seen += !(csv_field("pages") in at_pages); at_pages[csv_field("pages")] = 1
		shares_seen += !(csv_field("young") in at_share); at_share[csv_field("young")] = 1
	}
	next
}
FNR == 1 && axis == "" { axis = sizes_seen == 1 && shares_seen > 1 ? "young" : "size" }
FNR == 1 {
	csv_header()
	nf = NF
	n = split("walk label pages memory_bytes speedup" (axis == "young" ? " young" : ""), need, " ")
	for (i = 1; i <= n; i++)
		if (!csv_has(need[i])) {
			printf "sweep.sh: %s has no column %s: not scan's CSV\n", plain(csv), need[i] > "/dev/stderr"
			bad = 1
			exit 1
		}
	next
}
csv_field("walk") == "walk" { fail("the header again (two CSVs joined with cat? keep one header)") }
NF != nf { fail(NF " fields where the header has " nf) }
{
	pages = number("pages"); speedup = number("speedup"); memory = number("memory_bytes")
	if (!(pages > 0)) fail("pages is 0")
	if (!(speedup > 0)) fail("speedup is 0: not a ratio")
	if (csv_field("label") == "") fail("an empty label")
	size = axis == "young" ? number("young") : pages / 1e6
	if (!(size in seen)) {
		seen[size] = 1
		order[++nsizes] = size
		mem[size] = memory
	}
	if (csv_field("cache_sized") == 1)
		caches[size] = 1
	w = csv_field("warnings")	# every row's, the physical walk's too
	if (w ~ /^[0-9]+$/)	# a count, as sweeps before the codes kept
		warned[size] = warned[size] || w > 0
	else
		size_codes(size, w)
}
csv_field("walk") == "physical" { next }
{
	l = plain(csv_field("label"))
	if (!(l in known)) {
		known[l] = 1
		label[++nlabels] = l
	}
	k = ++nratio[size, l]
	ratio[size SUBSEP l, k] = speedup
	runs = k > runs ? k : runs
}
# size_codes(size, cell): the cell's codes for the footnote, and for the
# size's note (cache-sized is its "caches").
function note(size) {
	if (caches[size])
		return "caches" codes[size]
	return codes[size] != "" ? substr(codes[size], 2) : warned[size] ? "warned" : ""
}
function size_codes(size, cell,    n, i, c) {
	warn_codes(cell, size SUBSEP csv_field("run"), 0)
	n = split(cell, c, " ")
	for (i = 1; i <= n; i++) {
		at_size[size, c[i]] = 1
		if (c[i] != "cache-sized" && index(" " codes[size] " ", " " c[i] " ") == 0)
			codes[size] = codes[size] " " c[i]
	}
}
# v to three significant digits: one run's ratio, its spread not known
# here (-v's IQR is in the CSV's speedup_q1 and speedup_q3)
function three_sig(v,    d) {
	d = spread_digits(v, v, v)
	return sprintf("%." d "f", v)
}
# footnote(): a line a code scan gave, most important first, with its
# sizes in the table's order (the runs interleave them).
function footnote(    c, s, at, how) {
	for (c in wseen) {
		at = ""
		for (s = 1; s <= nsizes; s++)
			if ((order[s], c) in at_size)
				at = at (at == "" ? "at " : ", ") order[s]
		how[c] = at
	}
	warn_footnote(ENVIRON["wfile"], "scan warned (the " (axis == "young" ? "young shares, --young," : "sizes, -c,") " that gave each):", how)
}
END {
	if (bad)
		exit 1
	if (!nlabels) {
		printf "sweep.sh: %s holds no walk to compare\n", plain(csv) > "/dev/stderr"
		exit 1
	}
	wide = runs > 1 ? 26 : 14
	printf "%10s %12s", axis == "young" ? "young" : "-c", "memory"
	for (l = 1; l <= nlabels; l++)
		printf " %" wide "s", "vs " label[l]
	printf "\n"
	for (s = 1; s <= nsizes; s++) {
		size = order[s]
		printf "%10g %12s", size, human(mem[size], "%8.1f")
		for (l = 1; l <= nlabels; l++) {
			m = nratio[size, label[l]]
			if (!m)
				printf " %" wide "s", "-"
			else if (runs == 1)
				printf " %14s", three_sig(ratio[size SUBSEP label[l], 1])
			else {
				v = median(size SUBSEP label[l], m)
				d = spread_digits(v, lo, hi)
				printf " %" wide "s", sprintf("%." d "f (%." d "f-%." d "f, %d)", v, lo, hi, m)
			}
		}
		printf "%s\n", note(size) != "" ? "  " note(size) : ""
		cached += caches[size]
	}
	if (runs > 1)
		print "each: the median over the runs (processes), their range and number"
	if (cached && !("cache-sized" in wseen))	# a sweep's CSV of before the codes
		print "caches: the memmap is under 4x the last-level cache; the ratios measure caches"
	footnote()
}
