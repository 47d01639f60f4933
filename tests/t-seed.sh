#!/bin/sh
# The same seed gives the same LRU order; the order is uniformly random.
. tests/lib.sh

# order_of SIZE SEED: the LRU fingerprint of that size and seed.
order_of() {
	run -c "$1" -r 1 -vvv -s "$2"
	fingerprint
}

a=$(order_of 0.01 7)
b=$(order_of 0.01 7)
c=$(order_of 0.01 8)
differ() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" != "$2" ]; }

check "same seed, same order" same "$a" "$b"
check "other seed, other order" differ "$a" "$c"
check "hex seed equals decimal" \
	same "$(order_of 0.01 0x10)" "$(order_of 0.01 16)"
check "-m 64M builds the same LRU as -c 0.016384" \
	same "$(order_of 0.016384 3)" \
	"$(run -m 64M -r 1 -vvv -s 3; fingerprint)"

run -r 1 -vv -c 0.01
check "a seed is chosen when none is given" out_has '^random seed [0-9]+$'

# All 24 orders of 4 pages must come out equally often: 720 models, 60
# a run (--builds; each build's seed is derived from -s, and its order
# shuffled as a run's is) from seeds 1 to 12, so each order is expected
# 30 times; chi-square with 23 degrees of freedom stays below 49.73 with
# probability 0.999 if the shuffle is uniform.
seed=1
while [ "$seed" -le 12 ]; do
	"$SCAN" -c 0.000004 -r 1 -vvv -s "$seed" --builds=60 2>/dev/null
	seed=$((seed + 1))
done | sed -n 's/^LRU fingerprint \([0-9a-f]*\).*/\1/p' >"$tmp/orders"
# orders, distinct orders, chi-square, and whether it is under 49.73
read -r recorded distinct chi uniform <<EOF
$(awk '{ seen[$0]++ } END {
	for (o in seen) { n++; chi += (seen[o] - 30) ^ 2 / 30 }
	print NR, n + 0, chi + 0, chi < 49.73 }' "$tmp/orders")
EOF
echo "# chi-square $chi"
check "4 pages: 720 orders recorded" [ "$recorded" -eq 720 ]
check "4 pages: all 24 orders occur" [ "$distinct" -eq 24 ]
check "4 pages: orders uniform (chi-square < 49.73)" [ "$uniform" -eq 1 ]
