# kernel-lru.awk - the LRU folios in od's lines of /proc/kpageflags (one
# 64-bit value a line), for kernel.sh: a page with LRU set (bit 5) that
# is not a compound tail (bit 16) starts one
# (include/uapi/linux/kernel-page-flags.h).  Prints their count; with
# ENVIRON block_pfns, the number of each block of that many pfns that
# holds one instead, a line each.
function bit(v, b) { return int(v / 2 ^ b) % 2 }
BEGIN { block_pfns = ENVIRON["block_pfns"] + 0 }
{
	v = $1 + 0
	if (!bit(v, 5) || bit(v, 16))
		next
	folios++
	if (block_pfns > 0)
		in_block[int((NR - 1) / block_pfns)] = 1
}
END {
	if (block_pfns <= 0) {
		print folios + 0
		exit
	}
	for (b in in_block)
		print b
}
