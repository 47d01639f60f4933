# compare-warnings.awk - each kind of line scan said (the same words, other
# figures) once, the first of them, with how many of the runs (-v runs)
# said it.
{
	kind = $0
	gsub(/[0-9][0-9.e+-]*/, "#", kind)
	if (!(kind in times)) {
		kinds++
		first[kinds] = $0
		kind_of[kinds] = kind
	}
	times[kind]++
}
END {
	for (k = 1; k <= kinds; k++)
		printf "compare.sh: %d of %d runs: %s\n", times[kind_of[k]], runs, plain(first[k])
}
