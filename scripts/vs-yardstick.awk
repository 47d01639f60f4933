# vs-yardstick.awk - vs-yardstick.sh's table, from its log: a line a run,
# "PROG LISTLRU ARRAYLRU WALL_S"; for each program the median, range and
# coefficient of variation over runs of each ratio, and the median wall.
function median(v, n) {
	sort_values(v, n)
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function cv(v, n,    i, m, s) {
	for (i = 1; i <= n; i++)
		m += v[i]
	m /= n
	for (i = 1; i <= n; i++)
		s += (v[i] - m) ^ 2
	return n > 1 ? 100 * sqrt(s / (n - 1)) / m : 0
}
{
	if (!($1 in n))
		order[++progs] = $1
	k = ++n[$1]
	list[$1, k] = $2; array[$1, k] = $3; wall[$1, k] = $4
}
END {
	printf "%-34s %4s %7s %15s %5s %7s %13s %5s %7s\n", "prog", "runs",
	    "ListLRU", "range", "CV%", "ArrayLRU", "range", "CV%", "wall_s"
	for (q = 1; q <= progs; q++) {
		p = order[q]
		for (i = 1; i <= n[p]; i++) {
			l[i] = list[p, i]; a[i] = array[p, i]; w[i] = wall[p, i]
		}
		lc = cv(l, n[p]); ac = cv(a, n[p])
		lm = median(l, n[p]); lo = l[1]; lh = l[n[p]]
		am = median(a, n[p]); ao = a[1]; ah = a[n[p]]
		printf "%-34s %4d %7.2f %7.2f-%-7.2f %5.1f %7.3f %6.3f-%-6.3f %5.1f %7.2f\n",
		    p, n[p], lm, lo, lh, lc, am, ao, ah, ac, median(w, n[p])
	}
}
