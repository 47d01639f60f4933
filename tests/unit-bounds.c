// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * unit-bounds.c - check_bounds(), the judge of a walk against its
 * limit, on made-up tries: a walk is code-bound only past 1.15x its
 * limit's slowest try, and beats the limit only under 0.85x its
 * fastest, so that a memory drifting within a run warns of nothing.
 * No walk runs: each case sets a limit's tries and a walk's figure and
 * asks which warning fired.  And plan_bounds(): the PageTable walk's
 * limit takes tries only where that walk is run.  tests/t-bounds.sh
 * builds and runs it; prints a TAP-like line a case.
 */
#define main scan_main
#include "../scan.c"
#undef main

/* A case: one walk of the walk table (label) at bound_x times its
 * limit's median, the limit's tries spanning lo to hi times that median
 * (lo <= 1 <= hi), kept of them kept disturbed; the warning it must
 * fire, or none. */
static const struct judged {
	const char *label;
	double bound_x, lo, hi;
	int kept;
	const char *want;
	const char *name;
} cases[] = {
	/* tries all alike: the rule is the median's, 15% either way */
	{ "ListLRU", 1.20, 1, 1, 0, "code-bound", "1.20x a steady limit is code-bound" },
	{ "ListLRU", 1.10, 1, 1, 0, NULL, "1.10x a steady limit is not" },
	{ "ArrayLRU", 0.80, 1, 1, 0, "limit-beaten", "0.80x a steady limit beat it" },
	/* tries that drifted: judged against the slowest and the fastest */
	{ "ListLRU", 1.32, 0.90, 1.25, 0, NULL,
	  "1.32x the median, within 1.15x the slowest try: no warning" },
	{ "ListLRU", 1.50, 0.95, 1.25, 0, "code-bound",
	  "1.50x the median, past 1.15x the slowest try: code-bound" },
	{ "ArrayLRU", 0.73, 0.80, 1.05, 0, NULL,
	  "0.73x the median, within 0.85x the fastest try: no warning" },
	{ "ArrayLRU", 0.60, 0.80, 1.05, 0, "limit-beaten",
	  "0.60x the median, under 0.85x the fastest try: limit-beaten" },
	{ "Physical", 1.40, 0.90, 1.10, 0, "code-bound",
	  "Physical 1.40x, past 1.15x its slowest stream: code-bound" },
	/* the PageTable walk, against a limit of its own, as the others */
	{ "PageTable", 1.20, 1, 1, 0, "code-bound", "PageTable 1.20x a steady limit is code-bound" },
	{ "PageTable", 1.10, 0.95, 1.05, 0, NULL, "PageTable 1.10x within 1.15x the slowest try: no warning" },
	{ "PageTable", 0.80, 1, 1, 0, "limit-beaten", "PageTable 0.80x a steady limit beat it" },
	/* a limit whose tries were mostly kept disturbed is not judged */
	{ "ListLRU", 2.00, 1, 1, 3, NULL,
	  "a limit with 3 of 5 tries kept disturbed is not judged" },
};

/* Which of code-bound and limit-beaten case c fired: its code, "" for
 * none, NULL for a label no walk has. */
static const char *judge(const struct judged *c)
{
	struct lru_model m;
	struct walk_stats st;
	struct reports r;
	struct params p;
	enum bound b;
	size_t i;

	memset(&m, 0, sizeof(m));
	memset(&p, 0, sizeof(p));
	memset(&st, 0, sizeof(st));
	memset(&r, 0, sizeof(r));
	nr_fired = 0;
	r.nr = 1;
	for (i = 0; i < ARRAY_SIZE(walks) && walks[i].label; i++)
		if (!strcmp(walks[i].label, c->label))
			r.walk[0].walk = &walks[i];
	if (!r.walk[0].walk)
		return NULL;
	r.walk[0].st = &st;
	r.walk[0].bound_x = c->bound_x;
	b = r.walk[0].walk->bound;
	m.bound_tries[b] = BOUND_TRIES;
	m.bound_kept[b] = c->kept;
	m.bound_lo[b] = c->lo;
	m.bound_hi[b] = c->hi;
	check_bounds(&m, &p, &r);
	if (warning_fired(W_CODE_BOUND, 0))
		return warning_fired(W_LIMIT_BEATEN, 0) ? "both" : "code-bound";
	return warning_fired(W_LIMIT_BEATEN, 0) ? "limit-beaten" : "";
}

/* The tries plan_bounds() plans for the PageTable walk's limit, a run
 * of `walk` (and Physical) over a made-up model of a million folios. */
static int pagetable_tries(const char *walk)
{
	struct lru_model m;
	struct params p;
	int w;

	memset(&m, 0, sizeof(m));
	memset(&p, 0, sizeof(p));
	m.nr_pages = m.nr_lru = 1000000;
	m.desc_size = 64;
	m.pt.nr_pmd_tables = 4;
	m.pt.nr_pte_tables = m.pt.nr_young_tables = 1954;
	m.pt.nr_young = 1000000;
	p.run.nr_walks = 2;
	for (w = 0; w < NR_WALKS; w++)
		if (!strcmp(walks[w].name, walk))
			p.run.walk[1] = w;
	plan_bounds(&m, &p, NULL, 2);
	return m.bound_want[BOUND_PAGETABLE] * (m.bound_len[BOUND_PAGETABLE] > 0);
}

int main(void)
{
	size_t k;

	printf("1..%zu\n", ARRAY_SIZE(cases) + 2);
	printf("%sok 1 no PageTable walk: its limit takes no tries\n",
	       pagetable_tries("list") ? "not " : "");
	printf("%sok 2 a PageTable walk: its limit takes tries\n",
	       pagetable_tries("pagetable") >= BOUND_MIN_CHEAP ? "" : "not ");
	for (k = 0; k < ARRAY_SIZE(cases); k++) {
		const char *got = judge(&cases[k]);
		const char *want = cases[k].want ? cases[k].want : "";

		printf("%sok %zu %s\n", got && !strcmp(got, want) ? "" : "not ",
		       k + 3, cases[k].name);
	}
	return 0;
}
