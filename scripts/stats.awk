# stats.awk - distribution-free two-sample statistics for compare.sh.
#
# mw_compare(x, m, y, n, r) compares samples x[1..m] (before) and
# y[1..n] (after) and fills r[]:
#   r["u"]       Mann-Whitney U of x: pairs with x_i > y_j, a tie counting
#                half (scipy.stats.mannwhitneyu's statistic for (x, y))
#   r["p"]       its two-sided p-value
#   r["method"]  "exact" or "normal"
#   r["est"]     Hodges-Lehmann shift: the median of the m*n y_j - x_i
#   r["lo"], r["hi"]  the 95% interval for the shift: order statistics
#                k and m*n+1-k of those differences
#   r["conf"]    the interval's confidence: 1 - 2 P(U <= k-1), at least
#                0.95 where the sizes allow it, else the most they allow
#                (k = 1: 0.90 for 3 and 3, 0.943 for 3 and 4)
#
# Exact while C(m+n, m) <= 2^46 (so the counts and 40 times them stay
# exact in a double; up to 24 a side): the null distribution of U from
# the standard recursion.  Above that, the normal approximation with a
# continuity correction; its p-value corrects the variance for ties, its
# interval does not.  The exact p-value treats ties as scipy 1.10's
# method="exact" does: the no-ties distribution at floor(U).  Both
# exact branches err on the side of "no change": ties only widen them.

# sort_numbers(a, n): a[1..n] in ascending numeric order (Shell's sort:
# no recursion, fast enough for the 40,000 differences of 200 a side).
function sort_numbers(a, n,    gap, i, j, v) {
	for (gap = int(n / 2); gap > 0; gap = gap == 2 ? 1 : int(gap / 2.2))
		for (i = gap + 1; i <= n; i++) {
			v = a[i]
			for (j = i; j > gap && a[j - gap] > v; j -= gap)
				a[j] = a[j - gap]
			a[j] = v
		}
}

# median_of(a, n): the median of a[1..n], which must be sorted.
function median_of(a, n) {
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

# quantile(a, n, p): the p-quantile of sorted a[1..n], interpolated
# between ranks.
function quantile(a, n, p,    h, k) {
	h = (n - 1) * p + 1
	k = int(h)
	return k >= n ? a[n] : a[k] + (h - k) * (a[k + 1] - a[k])
}

# binomial(n, k): C(n, k) as a double (exact while it stays below 2^53).
function binomial(n, k,    c, i) {
	c = 1
	for (i = 1; i <= k; i++)
		c = c * (n - k + i) / i
	return c
}

# mw_null_counts(m, n, cnt): cnt[u] = how many of the C(m+n, m) ways to
# interleave m before and n after values give U = u, u = 0..m*n.  The
# recursion: the largest value is a before value (it beats all j after
# values) or an after value, so f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u).
# f[j, u] holds row i; u runs down so f[j, u-j] is still row i-1's.
# Kept in mw_known[] per m and n: a table's walks and sizes share them.
function mw_null_counts(m, n, cnt,    f, i, j, u, v) {
	split("", cnt)
	if ((m, n) in mw_known) {
		for (u = 0; u <= m * n; u++)
			cnt[u] = mw_known[m, n, u]
		return
	}
	mw_known[m, n]
	for (j = 0; j <= n; j++)
		f[j, 0] = 1
	for (i = 1; i <= m; i++)
		for (j = 1; j <= n; j++)
			for (u = i * j; u >= 0; u--) {
				v = u >= j && (j, u - j) in f ? f[j, u - j] : 0
				f[j, u] = v + ((j - 1, u) in f ? f[j - 1, u] : 0)
			}
	for (u = 0; u <= m * n; u++)
		cnt[u] = mw_known[m, n, u] = (n, u) in f ? f[n, u] : (u == 0)
}

# norm_sf(z): P(Z > z) for a standard normal Z, to about 12 digits: the
# series of the integral of the density below 3, the continued fraction
# for the tail above (where the series would cancel).
function norm_sf(z,    density, sum, term, k, cf) {
	if (z < 0)
		return 1 - norm_sf(-z)
	density = exp(-z * z / 2) / 2.5066282746310002
	if (z < 3) {
		sum = term = z
		for (k = 1; term > 1e-17 * sum; k++) {
			term *= z * z / (2 * k + 1)
			sum += term
		}
		return 0.5 - density * sum
	}
	cf = z
	for (k = 60; k >= 1; k--)
		cf = z + k / cf
	return density / cf
}

# tie_term(x, m, y, n): the sum of t^3 - t over groups of t equal values
# in both samples together (the normal approximation's tie correction).
function tie_term(x, m, y, n,    all, i, k, t, sum) {
	for (i = 1; i <= m; i++)
		all[i] = x[i]
	for (i = 1; i <= n; i++)
		all[m + i] = y[i]
	sort_numbers(all, m + n)
	sum = 0
	for (i = 1; i <= m + n; i = k) {
		for (k = i + 1; k <= m + n && all[k] == all[i]; k++)
			;
		t = k - i
		sum += t * t * t - t
	}
	return sum
}

function mw_compare(x, m, y, n, r,    d, i, j, nd, u, umax, cnt, total, cum,
    c, k, s, z, tt) {
	nd = 0
	u = 0
	for (i = 1; i <= m; i++)
		for (j = 1; j <= n; j++) {
			d[++nd] = y[j] - x[i]
			u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0
		}
	sort_numbers(d, nd)
	r["u"] = u
	r["est"] = median_of(d, nd)
	umax = u > nd - u ? u : nd - u
	total = binomial(m + n, m)
	if (total <= 2 ^ 46) {
		r["method"] = "exact"
		mw_null_counts(m, n, cnt)
		# p: twice P(U >= floor(umax)), by symmetry P(U <= nd - floor(umax))
		cum = 0
		for (c = 0; c <= nd - int(umax); c++)
			cum += cnt[c]
		r["p"] = 2 * cum / total > 1 ? 1 : 2 * cum / total
		# k - 1: the largest c with P(U <= c) <= 2.5%, else k = 1
		cum = 0
		for (c = 0; (cum + cnt[c]) * 40 <= total; c++)
			cum += cnt[c]
		k = c > 0 ? c : 1
		r["conf"] = 1 - 2 * (k > 1 ? cum : cnt[0]) / total
	} else {
		r["method"] = "normal"
		tt = tie_term(x, m, y, n)
		s = sqrt(m * n / 12 * ((m + n + 1) - tt / ((m + n) * (m + n - 1))))
		r["p"] = s > 0 ? 2 * norm_sf((umax - nd / 2 - 0.5) / s) : 1
		if (r["p"] > 1)
			r["p"] = 1
		z = 1.959963984540054	# the normal's 97.5% point
		k = int(nd / 2 - 0.5 - z * sqrt(m * n * (m + n + 1) / 12)) + 1
		if (k < 1)
			k = 1
		r["conf"] = 0.95
	}
	r["lo"] = d[k]
	r["hi"] = d[nd + 1 - k]
}
