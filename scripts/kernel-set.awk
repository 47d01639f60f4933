# kernel-set.awk - kernel.sh's working set in a snapshot: od's lines of
# /proc/kpageflags (one 64-bit value a line), with ENVIRON["cgroups"], a
# file of the same pfns' memcg inodes (/proc/kpagecgroup), one a line,
# read a line for a line.  Prints "FOLIOS ORDER0 LARGE LO HI": the LRU
# folios of the memcg whose inode is ENVIRON["ino"] (of every memcg,
# and no cgroups file read, where ino is not given), how many are order
# 0 and how many larger, and the first and last pfn that holds one.
# With ENVIRON["blocks_out"] and ENVIRON["block_pfns"], it also writes
# "BLOCK FOLIOS" there for each memory block of block_pfns pfns that
# holds any of those folios (the memory-block offline scanner's pick).
# Bits (include/uapi/linux/kernel-page-flags.h): 5 LRU, 15 COMPOUND_HEAD,
# 16 COMPOUND_TAIL.
function bit(v, b) { return int(v / 2 ^ b) % 2 }
BEGIN {
	cgroups = ENVIRON["cgroups"]; ino = ENVIRON["ino"]
	blocks_out = ENVIRON["blocks_out"]; block_pfns = ENVIRON["block_pfns"] + 0
}
{
	pfn = NR - 1
	if (ino != "" && ((getline cg < cgroups) <= 0 || cg + 0 != ino + 0))
		next
	v = $1 + 0
	if (!bit(v, 5) || bit(v, 16))
		next
	folios++
	if (bit(v, 15)) large++; else order0++
	if (lo == "") lo = pfn
	hi = pfn
	if (block_pfns > 0)
		in_block[int(pfn / block_pfns)]++
}
END {
	printf "%d %d %d %d %d\n", folios, order0, large, lo + 0, hi + 0
	if (blocks_out == "" || block_pfns <= 0)
		exit
	for (b in in_block)
		wrote = print_block(b)
	if (wrote && close(blocks_out))
		exit 1
}
function print_block(b) {
	print b, in_block[b] > blocks_out
	return 1
}
