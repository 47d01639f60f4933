// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * unit-retime.c - retime_stop(), which decides whether a disturbed walk
 * is timed again, and the disturbed warning that says why it was not,
 * on made-up runs: a retime no cleaner than the walk it replaced stops,
 * as does one that would take retiming past RETIME_SHARE of the run's
 * wall, and the warning counts the walks in words.  No walk runs.
 * tests/t-retime.sh builds and runs it; prints a TAP-like line a case.
 */
#define main scan_main
#include "../scan.c"
#undef main

/* A retime: after `tries` retimes, the walk lost `lost` of its wall,
 * the least disturbed before it `before`; timing it again costs `cost`
 * seconds, `spent` have gone to retiming in a run `elapsed` old. */
static const struct stop_case {
	int tries;
	double lost, before, cost, spent, elapsed;
	int clean, futile;	/* the run's retimes so far */
	enum retime_stop want;
	const char *name;
} stops[] = {
	{ 0, 0.30, 2, 0.10, 0, 10, 0, 0, RETIME_GO,
	  "a first disturbed walk of 0.1 s in a 10 s run is timed again" },
	{ 1, 0.30, 0.30, 0.10, 0.1, 10, 0, 0, RETIME_ALIKE,
	  "a retime as disturbed as the walk it replaced stops" },
	{ 1, 0.40, 0.30, 0.10, 0.1, 10, 0, 0, RETIME_ALIKE,
	  "a retime more disturbed than the walk it replaced stops" },
	{ 1, 0.10, 0.30, 0.10, 0.1, 10, 0, 0, RETIME_GO,
	  "a retime cleaner than the walk it replaced goes on" },
	{ RETIMES, 0.10, 0.30, 0.10, 0.1, 10, 0, 0, RETIME_CAP,
	  "no more than RETIMES retimes" },
	{ 0, 0.30, 2, 3.0, 0, 10, 0, 0, RETIME_BUDGET,
	  "a 3 s walk in a 10 s run is not timed again: over 15% of the run" },
	{ 0, 0.30, 2, 0.20, 1.40, 10, 0, 0, RETIME_BUDGET,
	  "retiming that has spent 1.4 s of 10 s stops at 0.2 s more" },
	{ 0, 0.30, 2, 0.20, 1.00, 10, 0, 0, RETIME_GO,
	  "retiming that has spent 1.0 s of 10 s goes on for 0.2 s more" },
	{ 0, 0.30, 2, 0.10, 0.1, 10, 0, 2, RETIME_ALIKE,
	  "a run whose 2 retimes were no cleaner retimes no more" },
	{ 0, 0.30, 2, 0.10, 0.1, 10, 3, 2, RETIME_GO,
	  "a run whose retimes came back clean more often goes on" },
	{ 0, 0.30, 2, 0.10, 0.1, 10, 0, 1, RETIME_GO,
	  "one futile retime does not stop the run's retiming" },
};

/* A walk kept disturbed: its samples, those kept, and why. */
static const struct text_case {
	const char *label;
	int samples, disturbed, alike, budget, original;
	const char *want;	/* the line's text after "disturbed: " */
	const char *name;
} texts[] = {
	{ "ListLRU", 2, 2, 0, 2, 0,
	  "ListLRU lost >5% in both walks to other work (retiming's 15% spent); rerun when idle",
	  "both walks, the budget spent: said in words" },
	{ "Physical", 4, 3, 3, 0, 0,
	  "Physical lost >5% in 3 of 4 walks to other work (retimes no cleaner); rerun when idle",
	  "3 of 4 walks, retimes no cleaner" },
	{ "ArrayLRU", 3, 3, 0, 0, 0,
	  "ArrayLRU lost >5% in all 3 walks to other work (retimed 3 times); rerun when idle",
	  "all 3 walks, each retimed RETIMES times" },
	{ "ListLRU", 1, 1, 1, 0, 0,
	  "ListLRU lost >5% in its one walk to other work (retimes no cleaner); rerun when idle",
	  "-r 1: its one walk" },
	{ "ListLRU", 1, 1, 0, 0, 1,
	  "ListLRU's one walk lost 50% to other work: its ratio is unsure; rerun it",
	  "--original: the line it always had" },
	{ "ListLRU", 4, 1, 1, 0, 0, "",
	  "1 of 4 walks disturbed: the median is clean, no warning" },
};

static int stop_ok(const struct stop_case *c)
{
	struct lru_model m;

	memset(&m, 0, sizeof(m));
	m.start_s = now() - c->elapsed;
	m.retime_s = c->spent;
	m.retimes_clean = c->clean;
	m.retimes_futile = c->futile;
	return retime_stop(&m, c->tries, c->lost, c->before, c->cost) == c->want;
}

/* The disturbed line case c gives, after "disturbed: ", or "". */
static const char *text_of(const struct text_case *c, char *line, size_t len)
{
	static struct walk_stats st;
	static struct reports r;
	struct params p;
	size_t i;

	memset(&st, 0, sizeof(st));
	memset(&r, 0, sizeof(r));
	memset(&p, 0, sizeof(p));
	nr_fired = 0;
	p.run.original = c->original;
	st.nr_samples = c->samples;
	st.disturbed = c->disturbed;
	st.kept_alike = c->alike;
	st.kept_budget = c->budget;
	st.lost_share = 0.5;
	r.nr = 1;
	r.walk[0].st = &st;
	for (i = 0; i < ARRAY_SIZE(walks); i++)
		if (!strcmp(walks[i].label, c->label))
			r.walk[0].walk = &walks[i];
	check_disturbed(&p, &r);
	if (!warning_fired(W_DISTURBED, -1))
		return "";
	warning_line(W_DISTURBED, line, len);
	return line + strlen("disturbed: ");
}

int main(void)
{
	char line[256];
	const char *got;
	size_t k, n = 0;

	printf("1..%zu\n", ARRAY_SIZE(stops) + 2 * ARRAY_SIZE(texts));
	for (k = 0; k < ARRAY_SIZE(stops); k++)
		printf("%sok %zu %s\n", stop_ok(&stops[k]) ? "" : "not ", ++n, stops[k].name);
	for (k = 0; k < ARRAY_SIZE(texts); k++) {
		got = text_of(&texts[k], line, sizeof(line));
		printf("%sok %zu %s\n", !strcmp(got, texts[k].want) ? "" : "not ", ++n, texts[k].name);
		if (strcmp(got, texts[k].want))
			printf("# got '%s'\n", got);
		printf("%sok %zu the line under 100 columns, no N/M fragment\n",
		       strlen("scan: warning: disturbed: ") + strlen(got) <= WARNING_COLUMNS &&
		       !strpbrk(got, "/") ? "" : "not ", ++n);
	}
	return 0;
}
