# plot.awk - plot.sh's chart: scan's CSV (FS ",") as an SVG on stdout.
# ENVIRON: csv, the file's name for messages; xcol, the column on the x
# axis.  A bad row stops it, exit 1, with one line naming the file and line.
BEGIN {
	csv = ENVIRON["csv"]
	xcol = ENVIRON["xcol"]
}
# A value on an axis (a[] holds lo, hi, log, len) as pixels from its start.
function pos(v, a) {
	if (a["log"])
		return (lg(v) - lg(a["lo"])) / (lg(a["hi"]) - lg(a["lo"])) * a["len"]
	return (v - a["lo"]) / (a["hi"] - a["lo"]) * a["len"]
}
# Widen [lo, hi] by 6% each side, so no point sits on the frame.
function pad(a,    d) {
	if (a["log"]) {
		d = (lg(a["hi"]) - lg(a["lo"])) * 0.06
		a["lo"] /= 10 ^ d; a["hi"] *= 10 ^ d
	} else {
		d = (a["hi"] - a["lo"]) * 0.06
		a["lo"] -= d; a["hi"] += d
	}
}
# A label: 3 significant digits, more on an axis whose ends need them to
# differ (a[]'s digits: seeds 1.8e18 apart by 3e8 all read 1.8e+18).
function label(v, bytes, a) { return bytes ? human(v, "%.3g") : sprintf("%." (a["digits"] ? a["digits"] : 3) "g", v) }
# An axis's range [lo, hi] from the data's: one value, or values closer
# than the arithmetic tells apart (lg(hi) - lg(lo) or hi - lo of 0), get
# a range around them: x +- 1 vanished at 1.8e18 (an ulp is 256), and
# every position was 0 / 0, drawn at -nan.
function axis_range(a, lo, hi,    d) {
	a["lo"] = lo; a["hi"] = hi
	if (a["log"] ? lg(hi) - lg(lo) > 0 : hi - lo > 0) {
		for (a["digits"] = 3; a["digits"] < 17 && sprintf("%." a["digits"] "g", lo) == sprintf("%." a["digits"] "g", hi); a["digits"]++)
			;
		return
	}
	if (a["log"]) {
		a["lo"] = lo / 2; a["hi"] = hi * 2
		return
	}
	d = lo < 0 ? -lo : lo
	d = d > 1e6 ? d / 1e6 : 1
	a["lo"] = lo - d; a["hi"] = hi + d
}
# An axis: the round ticks inside the data [lo, hi], and both ends
# labelled; a round tick too near an end gives way to it.
function axis_ticks(a, lo, hi, bytes, t,    r, n, m, k, gap) {
	n = round_ticks(lo, hi, a["log"], bytes, 6, r)
	gap = a["len"] / 12
	t[m = 1] = lo
	for (k = 1; k <= n; k++)
		if (pos(r[k], a) - pos(lo, a) > gap && pos(hi, a) - pos(r[k], a) > gap)
			t[++m] = r[k]
	if (hi > lo)
		t[++m] = hi
	return m
}
# The x axis's ticks at the data's own x values, where they are few
# (a sweep's sizes or shares) and their labels fit side by side: a
# 1-2-5 sweep of seven shares had round ticks at four of them.  0 where
# they would not fit, or would read alike (then axis_ticks).
function data_ticks(a, bytes, t,    n, i, k, v, gap) {
	n = 0
	for (k in xseen)
		v[++n] = xseen[k]
	if (n < 2 || n > 12)
		return 0
	sort_values(v, n)
	for (i = 1; i <= n; i++) {
		t[i] = v[i]
		if (i == 1)
			continue
		# 12 px sans-serif: about 7 px a character, half of each label
		# either side of its tick, and 8 px between
		gap = (length(label(v[i - 1], bytes, a)) + length(label(v[i], bytes, a))) * 3.5 + 8
		if (pos(v[i], a) - pos(v[i - 1], a) < gap || label(v[i - 1], bytes, a) == label(v[i], bytes, a))
			return 0
	}
	return n
}
# A run's verdict: scan's warnings for the row name the code.
function warned(code) { return index(" " csv_field("warnings") " ", " " code " ") > 0 }
function axis_name(c) {
	if (c == "memory_bytes") return "simulated memory"
	if (c == "pages") return "pfns in the memmap"
	if (c == "lru_fraction") return "share of pages on the LRU"
	if (c == "locality") return "LRU locality (mean run of physically adjacent folios)"
	if (c == "lists") return "LRU lists"
	if (c == "chunk") return "folios per chunk before switching list"
	if (c == "threads") return "walking threads"
	if (c == "rmap_share") return "share of folios with rmap work"
	if (c == "rmap_hops") return "rmap hops per mapped folio"
	if (c == "struct_page") return "struct page size (bytes)"
	if (c == "memcg_share") return "target memcg share of LRU folios"
	if (c == "young") return "share of mapped PTEs young (--young)"
	if (c == "mapped") return "share of LRU folios mapped (--mapped)"
	if (c == "young_tables") return "share of PTE tables holding the young (--young-tables)"
	if (c == "pte_adjacent") return "chance a PTE maps the next mapped pfn (--pte-adjacent)"
	return c
}
# The options the rows share, as scan options, where not the default.
function shared_options(    n, k, o, s, kv, v) {
	n = split("lru_fraction=--lru-fraction=1 non_lru=--non-lru=spread folios=--folios=0:100 phys=--phys=every locality=--locality=1 access=--access=read lists=--lists=1 chunk=--chunk=1 threads=-t=1 struct_page=--struct-page=64 cache=--cache=cold memcg_share=--memcg-share=1 memmap_from=--memmap-from=", kv, " ")
	s = first["kernel_like"] == 1 ? " --kernel-like" : ""
	s = s (first["original"] == 1 ? " --original" : "")
	for (k = 1; k <= n; k++) {
		split(kv[k], o, "=")
		if (!csv_has(o[1]) || o[1] == xcol || varies[o[1]] || first[o[1]] == o[3])
			continue
		v = first[o[1]]
		if (o[1] == "folios")
			gsub(/ /, ",", v)	# the CSV writes the mix with spaces
		s = s " " o[2] (o[2] == "-t" ? " " : "=") v
	}
	if (csv_has("rmap_share") && xcol != "rmap_share" && !varies["rmap_share"] && first["rmap_share"] + 0)
		s = s " --rmap=" first["rmap_share"] ":" first["rmap_hops"]
	# the PageTable walk's knobs, where it is drawn (the others ignore them)
	n = ("PageTable" in nwalk) ? split("mapped=--mapped=1 young=--young=1 young_tables=--young-tables=1 pte_adjacent=--pte-adjacent=0 nonleaf_young=--nonleaf-young=on", kv, " ") : 0
	for (k = 1; k <= n; k++) {
		split(kv[k], o, "=")
		if (csv_has(o[1]) && o[1] != xcol && !varies[o[1]] && first[o[1]] != o[3])
			s = s " " o[2] "=" first[o[1]]
	}
	return s
}
# A bad row stops the chart: one line naming the file and the line.
function fail(msg) {
	printf "plot.sh: %s line %d: %s\n", plain(csv), FNR, plain(msg) > "/dev/stderr"
	bad = 1
	exit 1
}
function shown(v) { return length(v) > 24 ? "\"" substr(v, 1, 24) "...\"" : "\"" v "\"" }
# column name as a number: positive (a ratio, or a log axis) or any.  Its
# size is 0 or 1e-100 to 1e100: a chart's arithmetic (logs, padding by
# powers of ten) then stays finite, where 4.9e-324 drew at -nan.
function number(name, positive,    v, a) {
	v = csv_field(name)
	if (v !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/)
		fail(name " is " shown(v) ", not a number")
	a = v < 0 ? -v : v + 0
	if (a > 1e100 || (a > 0 && a < 1e-100))
		fail(name " is " shown(v) ", not a finite number from 1e-100 to 1e100")
	if (positive && v + 0 <= 0)
		fail(name " is " v ", not a number above 0")
	return v + 0
}
# ", disturbed" in a point's title, with how many of its runs were
function disturbed_note(w, j) {
	if (!disturbed[w, j])
		return ""
	return runs[w, j] > 1 ? sprintf(", disturbed in %d of %d runs", disturbed[w, j], runs[w, j]) : ", disturbed"
}
# text after prefix into optl[++nol...], lines of at most 110 bytes
function wrap_options(text, prefix,    n, i, line) {
	n = wrap(text, 110, prefix, "", line)
	for (i = 1; i <= n; i++)
		optl[++nol] = line[i]
}
# Each point: the ratio of its one row, with the spread over rounds, or
# over several runs (processes) at one x, their median and range.
function points(    k, w, i, j, m, v) {
	for (k = 1; k <= nwalks; k++) {
		w = walks[k]
		for (i = 1; i <= nwalk[w]; i++) {
			m = runs[w, i]
			for (j = 1; j <= m; j++)
				v[j] = ys[w, i, j]
			sort_values(v, m)
			py[w, i] = m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
			if (m > 1) {
				plo[w, i] = v[1]; phi[w, i] = v[m]
				maxruns = m > maxruns ? m : maxruns
			}
			if (!seen++) { xmin = xmax = px[w, i]; ymin = ymax = py[w, i] }
			xmin = px[w, i] < xmin ? px[w, i] : xmin; xmax = px[w, i] > xmax ? px[w, i] : xmax
			ymin = plo[w, i] < ymin ? plo[w, i] : ymin; ymax = phi[w, i] > ymax ? phi[w, i] : ymax
			ymin = py[w, i] < ymin ? py[w, i] : ymin; ymax = py[w, i] > ymax ? py[w, i] : ymax
			nhollow += hollow[w, i]
		}
	}
}
length($0) > 65536 { fail("a line of over 64 KiB: not scan's CSV") }
FNR == 1 {
	csv_header()
	nf = NF
	for (i = split("walk label speedup " xcol, need, " "); i > 0; i--)
		if (!csv_has(need[i])) {
			print "plot.sh: " plain(csv) " has no column " plain(need[i]) " (not scan --format=csv output?)" > "/dev/stderr"
			bad = 1
			exit 1
		}
	split("speedup_min speedup_max speedup_q1 speedup_q3", spread, " ")
	bars = csv_has("speedup_q1") && csv_has("speedup_q3") ? "quartiles" : csv_has("speedup_min") && csv_has("speedup_max") ? "min to max" : ""
	next
}
csv_field("walk") == "walk" { fail("the header again (two CSVs joined with cat? keep one header)") }
NF != nf { fail(NF " fields where the header has " nf) }
{	# the first value of each column, and whether it varies
	for (c in csv_col)
		if (!(c in first)) first[c] = $csv_col[c]
		else if (first[c] != $csv_col[c]) varies[c] = 1
	x = number(xcol, xcol == "memory_bytes" || xcol == "pages")
	y = number("speedup", 1)
	for (i = 1; i <= 4; i++)	# the spread the CSV has, drawn or not
		if (csv_has(spread[i]))
			v[spread[i]] = number(spread[i], 1)
	lo = bars == "quartiles" ? v["speedup_q1"] : bars ? v["speedup_min"] : y
	hi = bars == "quartiles" ? v["speedup_q3"] : bars ? v["speedup_max"] : y
	w = csv_field("label")
	if (w == "")
		fail("an empty label")
}
# The physical walk's row comes first in a run: its verdict holds for
# every ratio of the run, as the ratio is its time over theirs.
csv_field("walk") == "physical" { phys_disturbed = warned("disturbed") }
csv_field("walk") != "physical" {
	if (!(w in nwalk))
		walks[++nwalks] = w
	# a point a walk and x; more rows there are runs.  x as a subscript
	# in all its digits: CONVFMT's 6 made the seeds 1796470412249192335
	# and 1796470412582471901 one point
	xkey = sprintf("%.17g", x)
	if (!((w, xkey) in at)) {
		at[w, xkey] = k = ++nwalk[w]
		px[w, k] = x; plo[w, k] = lo; phi[w, k] = hi
	}
	k = at[w, xkey]
	xseen[xkey] = x
	runs[w, k]++
	# scan's verdict: a walk of this run (this one or the physical)
	# was kept disturbed after retiming; the point is marked
	if (phys_disturbed || warned("disturbed"))
		ndisturbed += disturbed[w, k]++ == 0
	ys[w, k, runs[w, k]] = y
	hollow[w, k] = csv_field("cache_sized") == 1	# the verdict scan gives
	if (npoints++ == 0)
		title = machine_title("scan")
		ids = machine_ids()
}
END {
	if (bad)
		exit 1
	if (!npoints) {
		print "plot.sh: " plain(csv) " has no walks to draw" > "/dev/stderr"
		exit 1
	}
	points()
	# the title in lines that fit the width (14 px sans-serif: about 8 px
	# a character); under the subtitle, the machine, then the shared options
	W = 760
	ntl = wrap(title, int((W - 20) / 8.4), "", "", titl)
	dy = 18 * (ntl - 1)
	nol = 0
	wrap_options(ids, "machine: ")
	wrap_options(shared_options(), "options: ")
	H = 500 + dy + 15 * (nol > 1 ? nol - 1 : 0); L = 80; R = 190; B = 60
	T = 70 + dy + 15 * (nol > 1 ? nol - 1 : 0)
	# ratios on a log axis that always holds 1x; sizes on a log axis
	ya["log"] = ymin > 0
	if (ya["log"]) { ymin = ymin < 1 ? ymin : 1; ymax = ymax > 1 ? ymax : 1 }
	xa["log"] = xmin > 0 && (xcol == "memory_bytes" || xcol == "pages" || xmax / xmin > 20)
	axis_range(xa, xmin, xmax)
	axis_range(ya, ymin, ymax)
	xa["len"] = pw = W - L - R; ya["len"] = ph = H - T - B
	pad(xa); pad(ya)
	split("#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b", colour, " ")
	printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H
	printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H
	for (i = 1; i <= ntl; i++)
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"14\">%s</text>\n", W / 2, 24 + 18 * (i - 1), esc(titl[i])
	sub_ = "scan " first["version"] ", memmap THP " first["thp"] " (system " first["system_thp"] ")"
	if (xcol != "memory_bytes" && !varies["memory_bytes"])
		sub_ = sub_ ", " human(first["memory_bytes"], "%.3g") " simulated"
	if (!varies["rounds"])
		sub_ = sub_ ", " first["rounds"] " rounds"
	printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n", W / 2, 42 + dy, esc(sub_)
	for (i = 1; i <= nol; i++)
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n", W / 2, 42 + dy + 15 * i, esc(optl[i])
	printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", L, T, pw, ph
	xbytes = xcol == "memory_bytes"
	if (!(n = data_ticks(xa, xbytes, xt)))
		n = axis_ticks(xa, xmin, xmax, xbytes, xt)
	for (i = 1; i <= n; i++) {
		x = L + pos(xt[i], xa)
		printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, T, x, T + ph
		printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, T + ph + 18, esc(label(xt[i], xbytes, xa))
	}
	n = axis_ticks(ya, ymin, ymax, 0, yt)
	for (i = 1; i <= n; i++) {
		y = T + ph - pos(yt[i], ya)
		printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, L + pw, y
		printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", L - 6, y + 4, esc(label(yt[i], 0, ya))
	}
	if (one = ya["log"] || (ya["lo"] < 1 && ya["hi"] > 1)) {
		y = T + ph - pos(1, ya)
		printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"5 4\"/>\n", L, y, L + pw, y
	}
	printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s%s</text>\n", L + pw / 2, H - 18, esc(axis_name(xcol)), xa["log"] ? " (log scale)" : ""
	printf "<text transform=\"translate(20 %d) rotate(-90)\" text-anchor=\"middle\">times faster: Physical over each walk%s</text>\n", T + ph / 2, ya["log"] ? " (log scale)" : ""
	for (k = 1; k <= nwalks; k++) {
		w = walks[k]
		c = colour[(k - 1) % 6 + 1]
		m = nwalk[w]
		split("", key)	# this walk by x
		for (i = 1; i <= m; i++) {
			order[i] = i
			key[i] = px[w, i]
		}
		sort_by(key, order, m)
		# the points kept apart, printed a piece at a time: a string grown
		# a point at a time is copied a point at a time, n^2 bytes
		for (i = 1; i <= m; i++) {
			j = order[i]
			ptx[i] = x = L + pos(px[w, j], xa)
			pty[i] = y = T + ph - pos(py[w, j], ya)
			if (plo[w, j] < phi[w, j]) {
				y1 = T + ph - pos(plo[w, j], ya); y2 = T + ph - pos(phi[w, j], ya)
				printf "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" stroke=\"%s\" fill=\"none\"/>\n", x, y1, y2, x - 4, y1, x - 4, y2, c
			}
		}
		printf "<polyline points=\""
		for (i = 1; i <= m; i++)
			printf "%.1f,%.1f ", ptx[i], pty[i]
		printf "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", c
		for (i = 1; i <= m; i++) {
			j = order[i]
			printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"><title>%s: %g (%g to %g) at %s%s</title></circle>\n", ptx[i], pty[i], hollow[w, j] ? "4" : "3.5", hollow[w, j] ? "white" : c, c, esc(w), py[w, j], plo[w, j], phi[w, j], esc(label(px[w, j], xbytes, xa)), disturbed_note(w, j)
			if (disturbed[w, j])	# a dashed ring around it
				printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"black\" stroke-dasharray=\"2 2\"/>\n", ptx[i], pty[i]
		}
		ly = T + 10 + 20 * k
		printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n", L + pw + 15, ly, L + pw + 40, ly, c
		printf "<text x=\"%d\" y=\"%d\">%s</text>\n", L + pw + 46, ly + 4, esc(w)
	}
	ly = T + 10 + 20 * (nwalks + 1)
	if (one) {
		printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\" stroke-dasharray=\"5 4\"/>\n", L + pw + 15, ly, L + pw + 40, ly
		printf "<text x=\"%d\" y=\"%d\" font-size=\"11\">1x: the physical</text>\n", L + pw + 46, ly + 4
		printf "<text x=\"%d\" y=\"%d\" font-size=\"11\">walk wins above</text>\n", L + pw + 46, ly + 18
		ly += 36
	}
	if (nhollow) {
		printf "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"white\" stroke=\"black\" stroke-width=\"1.5\"/>\n", L + pw + 27, ly
		printf "<text x=\"%d\" y=\"%d\" font-size=\"11\">memmap under 4x</text>\n", L + pw + 46, ly + 4
		printf "<text x=\"%d\" y=\"%d\" font-size=\"11\">the LLC: cache-sized</text>\n", L + pw + 46, ly + 18
		ly += 36
	}
	if (ndisturbed) {
		printf "<circle cx=\"%d\" cy=\"%d\" r=\"8\" fill=\"none\" stroke=\"black\" stroke-dasharray=\"2 2\"/>\n", L + pw + 27, ly
		printf "<text x=\"%d\" y=\"%d\" font-size=\"11\">disturbed: other work</text>\n", L + pw + 46, ly + 4
		printf "<text x=\"%d\" y=\"%d\" font-size=\"11\">took the CPU (scan)</text>\n", L + pw + 46, ly + 18
		ly += 36
	}
	if (maxruns)
		printf "<text x=\"%d\" y=\"%d\" font-size=\"11\">bars: range over %d runs</text>\n", L + pw + 15, ly + 4, maxruns
	else if (bars)
		printf "<text x=\"%d\" y=\"%d\" font-size=\"11\">bars: %s over rounds</text>\n", L + pw + 15, ly + 4, bars
	printf "</svg>\n"
}
