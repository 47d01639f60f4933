# kernel-lru.awk - the LRU folios in od's lines of /proc/kpageflags (one
# 64-bit value a line), for kernel.sh: a page with LRU set (bit 5) that
# is not a compound tail (bit 16) starts one
# (include/uapi/linux/kernel-page-flags.h).  Prints their count.
function bit(v, b) { return int(v / 2 ^ b) % 2 }
{
	v = $1 + 0
	if (bit(v, 5) && !bit(v, 16))
		folios++
}
END { print folios + 0 }
