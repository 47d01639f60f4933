# explain-gather.awk - what explain.sh's table and chart both read from
# its all.csv (FS ","): r[s, w] the step's ratio for the walk (the median
# over runs), lo/hi its range (over the runs when there are several, else
# over the rounds), name[s], and nruns, pages (the sizes run, space-
# separated) and the first row kept; llc[s, w, k] and dtlb[s, w, k] the
# misses a page or folio of run k where scan counted them (counted: any);
# scan's warnings (lib.awk's warn_*) with had[code, s] and warned[s] for
# the steps that gave them.  The walks are ListLRU and, beside it,
# second (ENVIRON second: array, or pagetable with --walk=pagetable),
# second_name its label; a step without a walk's rows (the original has
# no PageTable walk) has r[s, w] "".
BEGIN {
	second = ENVIRON["second"] == "pagetable" ? "pagetable" : "array"
	second_name = second == "pagetable" ? "PageTable" : "ArrayLRU"
}
FNR == 1 && FILENAME ~ /all.csv$/ { csv_header(); next }
FILENAME !~ /all.csv$/ { next }
# the misses scan counted, where it counted them: per step and walk, a
# value per run (mcnt), in llc and dtlb
{ keep_misses(csv_field("step") + 0, csv_field("walk")) }
{	# scan's warnings, each step's (the physical walk's row too)
	s = csv_field("step") + 0
	warn_codes(csv_field("warnings"), s SUBSEP csv_field("run"), 0)
	n = split(csv_field("warnings"), c, " ")
	for (i = 1; i <= n; i++) {
		had[c[i], s] = 1
		warned[s] = 1
	}
}
csv_field("walk") == "physical" { next }
{
	s = csv_field("step") + 0; w = csv_field("walk"); v = csv_field("speedup") + 0
	if (!(s in name)) { name[s] = plain(csv_field("adds")); order[++nsteps] = s }
	if (!((csv_field("pages")) in sized)) { sized[csv_field("pages")] = 1; pages = pages " " csv_field("pages") }
	if (!first++) { title = machine_title("scan explain"); ids = machine_ids()
		mem = csv_field("memory_bytes"); version = csv_field("version"); thp = csv_field("system_thp") }
	k = ++cnt[s, w]
	nruns = k > nruns ? k : nruns
	all[s, w, k] = v
	rlo[s, w] = csv_field("speedup_min"); rhi[s, w] = csv_field("speedup_max")
}
function settle(    s, w, i, j, k, x, q) {	# medians and ranges
	for (i = 1; i <= nsteps; i++)
		for (j = 1; j <= 2; j++) {
			s = order[i]; w = j == 1 ? "list" : second
			k = cnt[s, w]
			if (!k) {
				r[s, w] = lo[s, w] = hi[s, w] = ""
				continue
			}
			for (q = 1; q <= k; q++)
				x[q] = all[s, w, q]
			sort_values(x, k)
			r[s, w] = k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
			lo[s, w] = k > 1 ? x[1] : rlo[s, w]; hi[s, w] = k > 1 ? x[k] : rhi[s, w]
		}
}
function keep_misses(s, w,    k) {
	k = ++mcnt[s, w]
	llc[s, w, k] = csv_field("llc_misses")
	dtlb[s, w, k] = csv_field("dtlb_misses")
	if (llc[s, w, k] != "" || dtlb[s, w, k] != "")
		counted = 1
}
