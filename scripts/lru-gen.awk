# lru-gen.awk - the per-generation counts of MGLRU's debugfs file
# /sys/kernel/debug/lru_gen_full, for kernel.sh's aging walk.  The file
# (lru_gen_seq_show() and lru_gen_seq_show_full() in mm/vmscan.c;
# Documentation/admin-guide/mm/multigen_lru.rst) holds, per memcg and
# node, a line per generation and, under it, a line per tier and one of
# the page-table walk's counts:
#
#   memcg  MEMCG_ID  MEMCG_PATH
#    node  NODE_ID
#            SEQ  AGE_MS  ANON_PAGES  FILE_PAGES
#                   TIER  Nr Ne Np  Nr Ne Np      (rep, RTx or xxx)
#                         NT NY NF NA             (the walk's counts)
#
# The walk's counts are each a number and a letter: T leaf PTEs read, Y
# of them young, F non-leaf entries found in the Bloom filter, A added
# to it; capitals where the generation is the youngest (one history),
# small letters for older ones (CONFIG_LRU_GEN_STATS), x where none are
# kept (this format since the 6.12 kernels: four counts; other letters
# of older kernels are ignored, and their bare zeros where a count is
# not kept too).
#
# Prints a line per generation that has counts:
#   memcg ID node N gen SEQ leaf_total T leaf_young Y nonleaf_found F nonleaf_added A
# a line per memcg and node with its youngest generation (max_seq, what
# "+ MEMCG_ID NODE_ID MAX_GEN" written to /sys/kernel/debug/lru_gen
# names to force an aging walk):
#   youngest memcg ID node N gen SEQ
# and a last line summing the counts:
#   total leaf_total T leaf_young Y nonleaf_found F nonleaf_added A
# With memcg=ID (-v, or ENVIRON["lru_gen_memcg"] under run_awk) only
# that memcg's generations count.
function lru_gen_counted(tok,   c) {
	c = substr(tok, length(tok), 1)
	return c ~ /^[TYFAtyfa]$/ ? tolower(c) : ""
}
function lru_gen_flush() {
	if (!have)
		return
	printf "memcg %s node %s gen %s leaf_total %d leaf_young %d nonleaf_found %d nonleaf_added %d\n",
		cg, node, gen, n["t"], n["y"], n["f"], n["a"]
	tot["t"] += n["t"]; tot["y"] += n["y"]; tot["f"] += n["f"]; tot["a"] += n["a"]
	have = 0
}
BEGIN {
	split("", tot)
	split("", n)
	if (memcg == "")
		memcg = ENVIRON["lru_gen_memcg"]
}
$1 == "memcg" { lru_gen_flush(); cg = $2; next }
$1 == "node" { lru_gen_flush(); node = $2; next }
# a generation: SEQ AGE_MS ANON FILE, all numbers, its SEQ within the
# first 11 columns (" %10lu"); a tier's line starts at column 12 or
# later, and kernels before 6.12 printed a tier's or the walk's counts
# that are not kept as bare zeros, which a generation's test alone took
# for one
NF >= 4 && $0 ~ /^[ \t0-9]+$/ && match($0, /^[ \t]*/) && RLENGTH < 11 {
	lru_gen_flush()
	gen = $1
	if (memcg == "" || cg == memcg)
		youngest[cg " node " node] = gen	# max_seq: the last one
	next
}
# the walk's counts: every field a number and a letter
{
	k = 0
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+[A-Za-z]$/)
			k++
	if (!NF || k != NF)
		next		# a tier's line starts with its number
	if (memcg != "" && cg != memcg)
		next
	split("", n)
	for (i = 1; i <= NF; i++) {
		c = lru_gen_counted($i)
		if (c != "") {
			n[c] = substr($i, 1, length($i) - 1) + 0
			have = 1
		}
	}
	if (have)
		lru_gen_flush()
}
END {
	lru_gen_flush()
	for (k in youngest)
		printf "youngest memcg %s gen %s\n", k, youngest[k]
	printf "total leaf_total %d leaf_young %d nonleaf_found %d nonleaf_added %d\n",
		tot["t"], tot["y"], tot["f"], tot["a"]
}
