#!/bin/sh
#/ plot.sh - draw scan's CSV as a self-contained SVG chart, with awk alone.
#/
#/ usage: scripts/plot.sh [-h] [--x COLUMN] FILE.csv > FILE.svg
#/
#/ Plots each walk's speedup (how many times faster the physical walk is)
#/ against the simulated memory, on log axes, one line per walk, with the
#/ machine in the title.  --x COLUMN plots against another column of the
#/ CSV instead (a knob such as lru_fraction, locality, lists or threads),
#/ so knob sweeps can be drawn too; memory is on a log axis, and any other
#/ axis is when all its values are positive and span more than 20 times.
#/ The CSV comes from scan --format=csv or scripts/sweep.sh -o.
set -eu

usage() {
	sed -n 's|^#/ \{0,1\}||p' "$0"
}

xcol=memory_bytes
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--x) [ $# -ge 2 ] || { usage >&2; exit 2; }; xcol=$2; shift ;;
	--x=*) xcol=${1#--x=} ;;
	-*) echo "plot.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 1 ] || { usage >&2; exit 2; }
[ -r "$1" ] || { echo "plot.sh: cannot read $1" >&2; exit 1; }

env=$(dirname "$0")/scan-env.sh	# $scan, $awklib
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"
awk -F, -v xcol="$xcol" "$awklib"'
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	return s
}
function lg(v) { return log(v) / log(10) }
# Map a value to a pixel along an axis [lo, hi] of length len.
function pos(v, lo, hi, islog, len) {
	if (islog)
		return (lg(v) - lg(lo)) / (lg(hi) - lg(lo)) * len
	return (v - lo) / (hi - lo) * len
}
function label(v, inbytes) {
	return inbytes ? human(v, "%.3g") : sprintf("%g", v)
}
# Tick values for an axis: powers (log) or even steps (linear).
function ticks(lo, hi, islog, inbytes, t,    n, m, v, step, p, q, t2) {
	n = 0
	if (islog) {
		step = inbytes ? 2 : 10
		# powers of step; with few decades also 2 and 5 times them
		for (p = step ^ int(log(lo) / log(step) - 1); p <= hi * 1.001; p *= step)
			for (v = 1; v <= (step == 10 && hi / lo < 1000 ? 3 : 1); v++) {
				q = p * (v == 1 ? 1 : v == 2 ? 2 : 5)
				if (q >= lo * 0.999 && q <= hi * 1.001)
					t[++n] = q
			}
		while (n > 8) {			# thin out to at most 8
			m = 0
			for (v = 1; v <= n; v += 2)
				t2[++m] = t[v]
			for (v = 1; v <= m; v++)
				t[v] = t2[v]
			n = m
		}
		return n
	}
	step = (hi - lo) / 5
	p = 10 ^ int(lg(step) - (step < 1 ? 1 : 0))
	step = int(step / p + 0.5) * p
	if (step <= 0)
		step = hi - lo > 0 ? hi - lo : 1
	for (v = int(lo / step) * step; v <= hi + step / 1e6; v += step)
		if (v >= lo - step / 1e6)
			t[++n] = v
	return n
}
NR == 1 {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	if (!(xcol in col) || !("speedup" in col) || !("walk" in col)) {
		print "plot.sh: the CSV has no column " (xcol in col ? "speedup or walk" : xcol) > "/dev/stderr"
		bad = 1
		exit 1
	}
	next
}
$col["walk"] != "physical" {
	x = $col[xcol] + 0
	y = $col["speedup"] + 0
	w = $col["label"]
	if (!(w in nwalk))
		walks[++nwalks] = w
	k = ++nwalk[w]
	px[w, k] = x
	py[w, k] = y
	if (npoints++ == 0) {
		xmin = xmax = x; ymin = ymax = y
		title = "scan on " $col["cpu"] " (" $col["cpus"] " CPUs), " $col["kernel"]
	}
	xmin = x < xmin ? x : xmin; xmax = x > xmax ? x : xmax
	ymin = y < ymin ? y : ymin; ymax = y > ymax ? y : ymax
}
END {
	if (bad)
		exit 1
	if (!npoints) {
		print "plot.sh: no walks to draw in the CSV" > "/dev/stderr"
		exit 1
	}
	# sizes come in geometric steps: memory is always on a log axis
	xlog = xmin > 0 && (xcol == "memory_bytes" || xmax / xmin > 20)
	ylog = ymin > 0 && ymax / ymin > 20
	if (xmax == xmin) { xmin = xlog ? xmin / 2 : xmin - 1; xmax = xlog ? xmax * 2 : xmax + 1 }
	if (ymax == ymin) { ymin = ylog ? ymin / 2 : (ymin > 1 ? ymin - 1 : 0); ymax = ylog ? ymax * 2 : ymax + 1 }
	if (!ylog && ymin > 0)
		ymin = 0
	W = 760; H = 480; L = 80; R = 170; T = 50; B = 60
	pw = W - L - R; ph = H - T - B
	split("#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b", colour, " ")
	printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H
	printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H
	printf "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">%s</text>\n", W / 2, esc(title)
	printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", L, T, pw, ph
	xbytes = xcol == "memory_bytes"
	n = ticks(xmin, xmax, xlog, xbytes, xt)
	for (i = 1; i <= n; i++) {
		x = L + pos(xt[i], xmin, xmax, xlog, pw)
		printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, T, x, T + ph
		printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, T + ph + 18, esc(label(xt[i], xbytes))
	}
	n = ticks(ymin, ymax, ylog, 0, yt)
	for (i = 1; i <= n; i++) {
		y = T + ph - pos(yt[i], ymin, ymax, ylog, ph)
		printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, L + pw, y
		printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", L - 6, y + 4, esc(label(yt[i], 0))
	}
	xname = xcol == "memory_bytes" ? "simulated memory" : xcol
	printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s%s</text>\n", L + pw / 2, H - 18, esc(xname), xlog ? " (log scale)" : ""
	printf "<text transform=\"translate(20 %d) rotate(-90)\" text-anchor=\"middle\">times faster: Physical over each walk%s</text>\n", T + ph / 2, ylog ? " (log scale)" : ""
	for (k = 1; k <= nwalks; k++) {
		w = walks[k]
		c = colour[(k - 1) % 6 + 1]
		# points of this walk, sorted by x
		m = nwalk[w]
		for (i = 1; i <= m; i++) { sx[i] = px[w, i]; sy[i] = py[w, i] }
		for (i = 2; i <= m; i++)
			for (j = i; j > 1 && sx[j - 1] > sx[j]; j--) {
				t = sx[j]; sx[j] = sx[j - 1]; sx[j - 1] = t
				t = sy[j]; sy[j] = sy[j - 1]; sy[j - 1] = t
			}
		pts = ""
		for (i = 1; i <= m; i++) {
			x = L + pos(sx[i], xmin, xmax, xlog, pw)
			y = T + ph - pos(sy[i], ymin, ymax, ylog, ph)
			pts = pts sprintf("%.1f,%.1f ", x, y)
			printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s: %g at %s</title></circle>\n", x, y, c, esc(w), sy[i], esc(xbytes ? human(sx[i], "%.3g") : sx[i])
		}
		printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", pts, c
		ly = T + 10 + 20 * k
		printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n", L + pw + 15, ly, L + pw + 40, ly, c
		printf "<text x=\"%d\" y=\"%d\">%s</text>\n", L + pw + 46, ly + 4, esc(w)
	}
	printf "</svg>\n"
}' "$1"
