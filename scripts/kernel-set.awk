# kernel-set.awk - kernel.sh's working set in a snapshot: od's lines of
# /proc/kpageflags (one 64-bit value a line), with ENVIRON["cgroups"], a
# file of the same pfns' memcg inodes (/proc/kpagecgroup), one a line,
# read a line for a line.  Prints "FOLIOS ORDER0 LARGE LO HI": the LRU
# folios of the memcg whose inode is ENVIRON["ino"], how many are order
# 0 and how many larger, and the first and last pfn that holds one.
# Bits (include/uapi/linux/kernel-page-flags.h): 5 LRU, 15 COMPOUND_HEAD,
# 16 COMPOUND_TAIL.
function bit(v, b) { return int(v / 2 ^ b) % 2 }
BEGIN { cgroups = ENVIRON["cgroups"]; ino = ENVIRON["ino"] + 0 }
{
	pfn = NR - 1
	if ((getline cg < cgroups) <= 0 || cg + 0 != ino)
		next
	v = $1 + 0
	if (!bit(v, 5) || bit(v, 16))
		next
	folios++
	if (bit(v, 15)) large++; else order0++
	if (lo == "") lo = pfn
	hi = pfn
}
END { printf "%d %d %d %d %d\n", folios, order0, large, lo + 0, hi + 0 }
