# collect-chart.awk - collect.sh's chart (-g): the ratios by machine as
# SVG, a bar from 1x to each ratio and a line over its spread, a heading
# per group; cache-sized rows hollow.  Runs after lib.awk.
#
#   in   what collect-table.awk wrote to drawn: a row, "GROUP<tab>MACHINE
#        <tab>SIZE<tab>CACHE-SIZED", then "<tab>WALK<tab>RATIO<tab>LO<tab>HI"
#        for each walk
#   out  the SVG

BEGIN { FS = "\t" }

$1 != "" {
	nrows++
	group_of[nrows] = $1
	label[nrows] = $2 ", " $3
	hollow[nrows] = $4 == "yes"
	next
}
$2 != "" && $3 != "" { add_bar() }

END { draw() }

function add_bar(    b) {
	b = ++nbars[nrows]
	bar_walk[nrows, b] = $2
	ratio[nrows, b] = $3
	low[nrows, b] = $4 == "" ? $3 : $4
	high[nrows, b] = $5 == "" ? $3 : $5
	if (!(axis_min < low[nrows, b]) || !seen++)
		axis_min = low[nrows, b] + 0
	if (high[nrows, b] + 0 > axis_max)
		axis_max = high[nrows, b] + 0
	if (!($2 in colour)) {
		colour[$2] = palette(++nwalks)
		named[nwalks] = $2
	}
}

function palette(j) {
	return j == 1 ? "#1f5fa8" : j == 2 ? "#d9751a" : j == 3 ? "#2a9a48" : j == 4 ? "#8e44ad" : "#777777"
}

# The x of a ratio on the log axis.
function xpos(r) { return plot_left + plot_width * (lg(r) - lg(axis_min)) / (lg(axis_max) - lg(axis_min)) }

function draw(    j, y, top, height) {
	if (!seen)
		axis_min = axis_max = 1
	axis_min = (axis_min < 1 ? axis_min : 1) / 1.25
	axis_max = (axis_max > 1 ? axis_max : 1) * 1.25
	plot_left = 420; plot_width = 440; bar = 9
	y = 64
	for (j = 1; j <= nrows; j++) {
		if (group_of[j] != group_of[j - 1])
			y += 26
		top[j] = y
		y += (nbars[j] ? nbars[j] : 1) * (bar + 3) + 8
	}
	height = y + 40
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", plot_left + plot_width + 70, height
	printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
	printf "<text x=\"10\" y=\"20\" font-size=\"14\">How much faster the physical walk is than each LRU walk, by machine</text>\n"
	printf "<text x=\"10\" y=\"38\" fill=\"#555\">ratio (log scale): a bar from 1x, a line over its spread; hollow: the memmap was cache-sized</text>\n"
	draw_legend()
	draw_ticks(height)
	for (j = 1; j <= nrows; j++)
		draw_row(j, top[j])
	printf "<line x1=\"%.1f\" y1=\"70\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c0392b\" stroke-dasharray=\"4 3\"/>\n", xpos(1), xpos(1), height - 34
	printf "<text x=\"%.1f\" y=\"%d\" fill=\"#c0392b\" text-anchor=\"middle\">1x: as fast</text>\n", xpos(1), 68
	printf "</svg>\n"
}

function draw_legend(    j, lx, w) {
	lx = 10
	for (j = 1; j <= nwalks; j++) {
		w = named[j]
		printf "<rect x=\"%d\" y=\"48\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"57\">%s</text>\n", lx, colour[w], lx + 14, esc(w)
		lx += 24 + 7 * length(w)
	}
}

function draw_ticks(height,    ticks, nt, j) {
	nt = round_ticks(axis_min, axis_max, 1, 0, 8, ticks)
	for (j = 1; j <= nt; j++) {
		printf "<line x1=\"%.1f\" y1=\"70\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", xpos(ticks[j]), xpos(ticks[j]), height - 34
		printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%gx</text>\n", xpos(ticks[j]), height - 20, ticks[j]
	}
}

# Row j at y = top: its group's heading first if it opens one, its
# label, a bar per walk.
function draw_row(j, top,    text, b, yb, x0, x1, xe, c) {
	if (group_of[j] != group_of[j - 1])
		printf "<text x=\"10\" y=\"%d\" font-weight=\"bold\">%s</text>\n", top - 8, esc(group_of[j])
	# a label that would run off the left edge is cut
	text = length(label[j]) > 66 ? substr(label[j], 1, 64) "..." : label[j]
	printf "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", plot_left - 8, top + bar, esc(text)
	for (b = 1; b <= nbars[j]; b++) {
		yb = top + (b - 1) * (bar + 3)
		x0 = xpos(1); x1 = xpos(ratio[j, b])
		c = colour[bar_walk[j, b]]
		printf "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" %s><title>%s %s</title></rect>\n",
		    x0 < x1 ? x0 : x1, yb, x0 < x1 ? x1 - x0 : x0 - x1, bar,
		    hollow[j] ? "fill=\"none\" stroke=\"" c "\"" : "fill=\"" c "\"", esc(bar_walk[j, b]), ratio[j, b]
		printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
		    xpos(low[j, b]), yb + bar / 2, xpos(high[j, b]), yb + bar / 2
		# the figure, past the bar and its spread
		xe = x1 > xpos(high[j, b]) ? x1 : xpos(high[j, b])
		printf "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" fill=\"#333\">%s</text>\n",
		    (xe > x0 ? xe : x0) + 4, yb + bar - 1, esc(ratio[j, b])
	}
}
