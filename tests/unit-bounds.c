// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * unit-bounds.c - check_bounds(), the judge of a walk against its
 * limit, on made-up tries: a walk is code-bound only past 1.15x its
 * limit's slowest try, and beats the limit only under 0.85x its
 * fastest, so that a memory drifting within a run warns of nothing.
 * No walk runs: each case sets a limit's tries and a walk's figure and
 * asks which warning fired.  tests/t-bounds.sh builds and runs it;
 * prints a TAP-like line a case.
 */
#define main scan_main
#include "../scan.c"
#undef main

static int nr_case;

/* One walk of the walk table (label), at bound_x times its limit's
 * median, whose tries span lo to hi times that median: which of
 * code-bound and limit-beaten fired? */
static void judge(const char *label, double bound_x, double lo, double hi,
		  int kept, int want_code, int want_beaten, const char *name)
{
	struct lru_model m;
	struct walk_stats st;
	struct reports r;
	size_t i;
	int code, beaten;

	memset(&m, 0, sizeof(m));
	memset(&st, 0, sizeof(st));
	memset(&r, 0, sizeof(r));
	nr_fired = 0;
	r.nr = 1;
	for (i = 0; i < ARRAY_SIZE(walks) && walks[i].label; i++)
		if (!strcmp(walks[i].label, label))
			r.walk[0].walk = &walks[i];
	if (!r.walk[0].walk) {
		printf("not ok %d %s: no walk %s\n", ++nr_case, name, label);
		return;
	}
	r.walk[0].st = &st;
	r.walk[0].bound_x = bound_x;
	m.bound_tries[r.walk[0].walk->bound] = BOUND_TRIES;
	m.bound_kept[r.walk[0].walk->bound] = kept;
	m.bound_lo[r.walk[0].walk->bound] = lo;
	m.bound_hi[r.walk[0].walk->bound] = hi;
	check_bounds(&m, &r);
	code = warning_fired(W_CODE_BOUND, 0);
	beaten = warning_fired(W_LIMIT_BEATEN, 0);
	printf("%sok %d %s\n", code == want_code && beaten == want_beaten ? "" : "not ",
	       ++nr_case, name);
}

int main(void)
{
	/* tries all alike: the rule is the median's, 15% either way */
	judge("ListLRU", 1.20, 1, 1, 0, 1, 0, "1.20x a steady limit is code-bound");
	judge("ListLRU", 1.10, 1, 1, 0, 0, 0, "1.10x a steady limit is not");
	judge("ArrayLRU", 0.80, 1, 1, 0, 0, 1, "0.80x a steady limit beat it");
	/* tries that drifted: judged against the slowest and the fastest */
	judge("ListLRU", 1.32, 1.20, 1.25, 0, 0, 0,
	      "1.32x the median, within 1.15x the slowest try: no warning");
	judge("ListLRU", 1.50, 0.95, 1.25, 0, 1, 0,
	      "1.50x the median, past 1.15x the slowest try: code-bound");
	judge("ArrayLRU", 0.73, 0.80, 1.05, 0, 0, 0,
	      "0.73x the median, within 0.85x the fastest try: no warning");
	judge("ArrayLRU", 0.60, 0.80, 1.05, 0, 0, 1,
	      "0.60x the median, under 0.85x the fastest try: limit-beaten");
	judge("Physical", 1.40, 0.90, 1.10, 0, 1, 0,
	      "Physical 1.40x, past 1.15x its slowest stream: code-bound");
	/* a limit whose tries were mostly kept disturbed is not judged */
	judge("ListLRU", 2.00, 1, 1, 3, 0, 0,
	      "a limit with 3 of 5 tries kept disturbed is not judged");
	return 0;
}
