# snapshot.awk - snapshot.sh's composition: od's lines of the 64-bit
# flags, one line per kind of pfn, then the top memcgs by LRU folios from
# ENVIRON cgroups (a file of od's lines of the same pfns' inodes, read a
# line for a line; "" when there is none).
function bit(v, b) { return int(v / 2 ^ b) % 2 }
BEGIN { cgroups = ENVIRON["cgroups"] }
{
	if (cgroups != "" && (getline line < cgroups) > 0)
		split(line, cg, " ")
	for (i = 1; i <= NF; i++) {
		v = $i + 0
		n++
		if (bit(v, 16)) {	# a tail: of the open LRU folio, or not
			if (inlru) { size++; lrupages++ } else offtails++
			continue
		}
		if (inlru)
			close_folio()
		if (bit(v, 20)) holes++
		else if (bit(v, 5)) { inlru = 1; size = 1; lrupages++; memcg = cg[i] + 0 }
		else if (bit(v, 10)) free++
		else if (bit(v, 7)) slab++
		else if (bit(v, 26)) pgtable++
		else other++
	}
}
function close_folio(    k) {
	for (k = 0; 2 ^ k < size; k++)
		;
	folios[k]++; nfolios++; inlru = 0
	if (cgroups != "") { infolios[memcg]++; inpages[memcg] += size }
}
END {
	if (inlru) close_folio()
	printf "pfns %d\n", n
	printf "LRU: %d folios, %d pages (%.2f%% of pfns)\n", nfolios, lrupages, n ? 100 * lrupages / n : 0
	for (k = 0; k <= 10; k++)
		if (folios[k])
			printf "  order %d: %d folios\n", k, folios[k]
	printf "free (BUDDY pages): %d\n", free
	printf "slab: %d, page tables: %d, holes: %d, other: %d, tails off the LRU: %d\n",
	    slab, pgtable, holes, other, offtails
	for (shown = 0; shown < 5; shown++) {	# the top five memcgs
		best = ""
		for (m in infolios)
			if (best == "" || infolios[m] > infolios[best])
				best = m
		if (best == "")
			break
		printf "memcg %d: %d LRU folios, %d pages\n", best, infolios[best], inpages[best]
		delete infolios[best]
	}
}
