# lib.awk - awk functions the scripts share; each script puts this
# file's text before its own program (POSIX awk takes one program).

# human(v, fmt): bytes v in binary units, the number printed with fmt:
# human(1536, "%.1f") is "1.5 KiB".
function human(v, fmt,    u, k) {
	split("B KiB MiB GiB TiB PiB", u, " ")
	for (k = 1; v >= 1024 && k < 6; k++)
		v /= 1024
	return sprintf(fmt " %s", v, u[k])
}

# esc(s): s with the characters XML gives a meaning to as entities.
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	return s
}

function lg(v) { return log(v) / log(10) }
function floor(v) { return v == int(v) || v > 0 ? int(v) : int(v) - 1 }

# Round values inside [lo, hi] into t[1..n]: 1-2-5 steps, or powers of
# two for bytes on a log axis, thinned to at most max.
function round_ticks(lo, hi, islog, bytes, max, t,    n, k, v, d, step, m, keep) {
	n = 0
	if (islog && bytes) {
		for (v = 2 ^ floor(log(lo) / log(2)); v <= hi * 1.0001; v *= 2)
			if (v >= lo * 0.9999)
				t[++n] = v
	} else if (islog) {
		m = lg(hi) - lg(lo) > 2 ? 1 : 3	# steps a decade: 1, or 1 2 5
		for (d = floor(lg(lo)); d <= lg(hi) + 1; d++)
			for (k = 1; k <= m; k++) {
				v = (k == 1 ? 1 : k == 2 ? 2 : 5) * 10 ^ d
				if (v >= lo * 0.9999 && v <= hi * 1.0001)
					t[++n] = v
			}
	} else {
		step = (hi - lo) / 5
		d = 10 ^ floor(lg(step))
		step = step / d < 1.5 ? d : step / d < 3.5 ? 2 * d : step / d < 7.5 ? 5 * d : 10 * d
		for (v = floor(lo / step + 0.9999) * step; v <= hi + step * 1e-6; v += step)
			t[++n] = v
	}
	for (keep = 1; n / keep > max; keep++)
		;
	m = 0
	for (k = 1; k <= n; k += keep)
		t[++m] = t[k]
	return m
}
