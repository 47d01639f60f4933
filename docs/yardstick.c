/*
 * yardstick.c - the textbook way to time physical against LRU-order
 * walks, as the 2023 thread did it: one model, each walk timed once,
 * back to back, right after setup, in the order physical, array, list.
 * scripts/vs-yardstick.sh runs it beside scan; build it with
 * "make yardstick".
 *
 * usage: yardstick [MILLIONS_OF_PAGES]	(default 1)
 * prints: "setup SECONDS", then "ratio LIST_OVER_PHYSICAL ARRAY_OVER_PHYSICAL"
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* 64 bytes, as struct page: flags, list links, age, padding. */
struct pg {
	unsigned long flags;
	struct pg *next, *prev;
	unsigned long age;
	unsigned long pad[4];
};

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	double millions = argc > 1 ? atof(argv[1]) : 1;
	unsigned long n = (unsigned long)(millions * 1e6), i, j, total = 0;
	struct pg *pages, **order, *p;
	double start, physical, array, list;

	if (n < 2) {
		fprintf(stderr, "usage: yardstick [MILLIONS_OF_PAGES]\n");
		return 2;
	}
	pages = calloc(n, sizeof(*pages));
	order = malloc(n * sizeof(*order));
	if (!pages || !order) {
		perror("yardstick");
		return 1;
	}
	start = seconds();
	for (i = 0; i < n; i++)
		order[i] = &pages[i];
	srand48(time(NULL));
	for (i = n - 1; i > 0; i--) {	/* Fisher-Yates */
		j = (unsigned long)lrand48() % (i + 1);
		p = order[i];
		order[i] = order[j];
		order[j] = p;
	}
	for (i = 0; i < n; i++) {	/* one cycle in that order */
		order[i]->next = order[(i + 1) % n];
		order[i]->prev = order[(i + n - 1) % n];
		order[i]->age = i;
	}
	printf("setup %f\n", seconds() - start);

	start = seconds();
	for (i = 0; i < n; i++)
		total += pages[i].age;
	physical = seconds() - start;
	start = seconds();
	for (i = 0; i < n; i++)
		total += order[i]->age;
	array = seconds() - start;
	start = seconds();
	p = pages;	/* from pfn 0, at a random place in LRU order, as 2023 */
	do {
		total += p->age;
		p = p->next;
	} while (p != pages);
	list = seconds() - start;
	printf("ratio %f %f\n", list / physical, array / physical);
	return total == 0;	/* uses the sums, so no walk is optimised away */
}
