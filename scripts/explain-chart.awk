# explain-chart.awk - explain.sh's SVG waterfall (after explain-gather.awk):
# a bar a step and walk, from the step before to this one; with ENVIRON
# kernel_csv (explain-kernel.awk), a last bar, "kernel (measured)", from
# the last step's ListLRU ratio to scan-kernel's, and a line under the
# chart saying where it comes from, or why there is no such bar.  With
# --walk=pagetable the second walk is PageTable (no bar where a step has
# none: the original), and a line under the chart a step of its knobs
# gives the value and its source (ENVIRON sources).
function y(v) { return T + H - (lg(v) - lg(lo_)) / (lg(hi_) - lg(lo_)) * H }
# head(text, size): text in lines that fit the chart's width at font
# size (sans-serif: about 0.6 of the size a character), into hl[], hs[].
function head(text, size,    n, i, line) {
	n = wrap(text, int((W - 20) / (0.6 * size)), "", "", line)
	for (i = 1; i <= n; i++) {
		hl[++nh] = line[i]
		hs[nh] = size
	}
}
END {
	settle()
	n = order[nsteps]
	for (i = 1; i <= nsteps; i++)
		for (j = 1; j <= 2; j++) {
			s = order[i]; w = j == 1 ? "list" : second
			if (r[s, w] == "") continue	# no bar
			if (!(r[s, w] > 0)) r[s, w] = 1e-3
			if (nruns < 2 || !(lo[s, w] > 0)) lo[s, w] = hi[s, w] = r[s, w]
		}
	sub_ = "scan " version ", " human(mem, "%.3g") " simulated, system THP " thp "; each bar runs from the step before"
	if (nruns > 1)
		sub_ = sub_ "; the median of " nruns " runs, whiskers their range"
	lo_ = 1; hi_ = 1
	for (k in r) {
		if (r[k] == "") continue
		if (lo[k] < lo_) lo_ = lo[k]
		if (hi[k] > hi_) hi_ = hi[k]
	}
	nb = n; nfoot = 0	# the bars' slots; the lines under the chart
	if (ENVIRON["kernel_csv"] != "") {
		kernel_read()
		if (km_ratio != "") {
			nb = n + 1
			km_ratio += 0
			if (km_ratio < lo_) lo_ = km_ratio
			if (km_ratio > hi_) hi_ = km_ratio
		}
		nfoot = wrap(measured_words(n + 1), 110, "", "    ", foot)
	}
	while (ENVIRON["sources"] != "" && (getline line < ENVIRON["sources"]) > 0) {
		split(line, f, "|")	# STEP|--KNOB=VALUE|SOURCE
		m = wrap(f[1] " " f[2] ": " f[3], 110, "", "    ", more)
		for (i = 1; i <= m; i++)
			foot[++nfoot] = more[i]
	}
	lo_ /= 1.3; hi_ *= 1.3
	L = 70; H = 320; bw = 66; R = 20
	W = L + nb * bw + R + (nb > n ? 90 : 0); W = W < 760 ? 760 : W	# 90: its slanted name
	# the title, the subtitle and the machine, each wrapped to the width
	head(title, 14)
	head(sub_, 11)
	if (ids != "")
		head("machine: " ids, 11)
	ly = 5	# the legend's baseline, under the last of them
	for (i = 1; i <= nh; i++)
		ly += hs[i] + 4
	ly += 20
	T = ly + 13
	printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", W, T + H + 100 + 14 * nfoot, W, T + H + 100 + 14 * nfoot
	printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
	for (i = 1; i <= nh; i++) {
		yh += hs[i] + 4 + (i == 1 ? 1 : 0)
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"%d\">%s</text>\n", W / 2, yh, hs[i], esc(hl[i])
	}
	printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", L, T, nb * bw, H
	m = round_ticks(lo_, hi_, 1, 0, 8, t)
	for (i = 1; i <= m; i++)
		printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L, L + nb * bw, y(t[i]), y(t[i]), L - 4, y(t[i]) + 4, t[i]
	printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"5 4\"/>\n", L, L + nb * bw, y(1), y(1)
	printf "<text transform=\"translate(18 %d) rotate(-90)\" text-anchor=\"middle\">times faster: Physical over each walk (log scale)</text>\n", T + H / 2
	split("list " second, ws, " "); split("#c33 #36c", col, " ")
	for (s = 1; s <= n; s++) {
		for (j = 1; j <= 2; j++) {
			w = ws[j]; from = s > 1 && r[s - 1, w] != "" ? r[s - 1, w] : r[s, w]
			if (r[s, w] == "")
				continue
			x = L + (s - 1) * bw + 8 + (j - 1) * 26
			top = y(r[s, w] > from ? r[s, w] : from); bot = y(r[s, w] > from ? from : r[s, w])
			printf "<rect x=\"%d\" y=\"%.1f\" width=\"24\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.75\"><title>%s %s: %g</title></rect>\n", x, top, bot - top + 1, col[j], esc(name[s]), w == "list" ? "ListLRU" : second_name, r[s, w]
			printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>\n", x, x + 24, y(r[s, w]), y(r[s, w]), col[j]
			printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%.3g</text>\n", x + 12, (r[s, w] >= from ? y(r[s, w]) - 4 : y(r[s, w]) + 11), r[s, w]
			if (hi[s, w] > lo[s, w])	# the range over the runs
				printf "<path d=\"M%d %.1fV%.1f\" stroke=\"black\"/>\n", x + 12, y(lo[s, w]), y(hi[s, w])
		}
		printf "<text transform=\"translate(%d,%d) rotate(35)\">%d %s</text>\n", L + (s - 1) * bw + 14, T + H + 14, s, esc(name[s])
	}
	if (km_ratio != "")
		measured_bar(n)
	for (i = 1; i <= nfoot; i++)
		printf "<text x=\"%d\" y=\"%d\" xml:space=\"preserve\">%s</text>\n", L, T + H + 96 + 14 * i, esc(foot[i])
	printf "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#c33\"/><text x=\"%d\" y=\"%d\">ListLRU</text>\n", L, ly - 9, L + 14, ly
	printf "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#36c\"/><text x=\"%d\" y=\"%d\">%s</text>\n", L + 80, ly - 9, L + 94, ly, second_name
	printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\" stroke-dasharray=\"5 4\"/>", L + 170, L + 195, ly - 4, ly - 4
	printf "<text x=\"%d\" y=\"%d\">1x: the physical walk wins above</text>\n</svg>\n", L + 200, ly
}
# measured_words(s): the line under the chart: where step s, scan-kernel's
# ratio, comes from, or why there is no such bar; and whether it is
# another machine's.
function measured_words(s,    from, words, host) {
	from = ENVIRON["kernel_name"]	# plain text in wrap()
	if (km_ratio != "")
		words = s " kernel (measured): scan-kernel's ratio (ListLRU, pfn scanner " km_scanner_words ") from " from \
		    (km_bytes != "" ? ", a " human(km_bytes, "%.3g") " working set" : "") (km_host != "" ? ", host " km_host : "")
	else
		words = "kernel (measured): no bar: " from " gives no ratio (" km_why ")"
	host = plain(csv_field("host_id"))
	if (km_host != "" && host != "" && km_host != host)
		words = words "; another machine's: this run is on host " host
	return words
}
# measured_bar(n): scan-kernel's bar in slot n + 1, from step n's ListLRU
# ratio.
function measured_bar(n,    x, top, bot) {
	x = L + n * bw + 8
	top = y(km_ratio > r[n, "list"] ? km_ratio : r[n, "list"])
	bot = y(km_ratio > r[n, "list"] ? r[n, "list"] : km_ratio)
	printf "<rect x=\"%d\" y=\"%.1f\" width=\"24\" height=\"%.1f\" fill=\"#c33\" fill-opacity=\"0.75\" stroke=\"black\" stroke-dasharray=\"3 2\"><title>kernel (measured) ListLRU: %g</title></rect>\n", x, top, bot - top + 1, km_ratio
	printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c33\" stroke-width=\"2.5\"/>\n", x, x + 24, y(km_ratio), y(km_ratio)
	printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%.3g</text>\n", x + 12, (km_ratio >= r[n, "list"] ? y(km_ratio) - 4 : y(km_ratio) + 11), km_ratio
	printf "<text transform=\"translate(%d,%d) rotate(35)\">%d kernel (measured)</text>\n", L + n * bw + 14, T + H + 14, n + 1
}
